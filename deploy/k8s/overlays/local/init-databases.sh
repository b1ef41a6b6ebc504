#!/bin/sh
# One database per service, owned by the service's own role (as local-stack's EmbeddedPostgresServer creates them):
# the role logs in with its password, may replicate (its outbox relay's slot) and is no superuser; CONNECT is revoked
# from PUBLIC, so no service's role can reach another's database. Run once by the postgres image on an empty data
# directory; the passwords come from the environment (compose: deploy/compose/local.env; k8s: the payments-secrets).
set -eu
for database in orders payments notifications reconciliation; do
  variable="$(echo "$database" | tr '[:lower:]' '[:upper:]')_DB_PASSWORD"
  password="$(printenv "$variable" || true)"
  if [ -z "$password" ]; then
    echo "init-databases: $variable is not set" >&2
    exit 1
  fi
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
       --set=role="$database" --set=password="$password" <<'SQL'
CREATE ROLE :"role" LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'password';
CREATE DATABASE :"role" OWNER :"role";
REVOKE CONNECT, TEMPORARY ON DATABASE :"role" FROM PUBLIC;
SQL
done
