#!/usr/bin/env bash
# The part of postgres:17's docker-entrypoint.sh this project relies on: on an empty PGDATA, initdb with
# POSTGRES_USER (default postgres) and POSTGRES_PASSWORD, scram-sha-256 for every TCP client, POSTGRES_DB created,
# /docker-entrypoint-initdb.d/*.sh and *.sql run once against a server that listens on its socket only; then the
# command runs as the postgres user. Runs as root or as postgres.
set -euo pipefail
if [[ "${1:-}" != postgres ]]; then exec "$@"; fi
if [[ "$(id -u)" == 0 ]]; then
    mkdir -p "$PGDATA" && chown -R postgres:postgres "$PGDATA" /var/run/postgresql && chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
export POSTGRES_USER="${POSTGRES_USER:-postgres}"
export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
    : "${POSTGRES_PASSWORD:?postgres: POSTGRES_PASSWORD is not set (the public image refuses too)}"
    initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") --auth-local=trust \
        --auth-host=scram-sha-256 --encoding=UTF8 --locale=C -D "$PGDATA" > /dev/null
    printf 'host all all all scram-sha-256\nhost replication all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
    # The temporary server logs to stdout like the public image's: "ready to accept connections" twice in all, which
    # is what Testcontainers' PostgreSQLContainer waits for.
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start
    export PGHOST=/var/run/postgresql PGUSER="$POSTGRES_USER"
    if [[ "$POSTGRES_DB" != postgres ]]; then
        psql -v ON_ERROR_STOP=1 --dbname postgres --set=db="$POSTGRES_DB" <<< 'CREATE DATABASE :"db";'
    fi
    for file in /docker-entrypoint-initdb.d/*; do
        case "$file" in
            *.sh) echo "postgres: running $file"; bash "$file" ;;
            *.sql) echo "postgres: running $file"; psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" -f "$file" ;;
            *) ;;
        esac
    done
    pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
    unset PGHOST PGUSER
    echo "postgres: initialised $PGDATA"
fi
exec "$@" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql
