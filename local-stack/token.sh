#!/usr/bin/env bash
# Prints an access token from the local stack's issuer (authorization code + PKCE, docs/security.md):
#   MEMBER=$(local-stack/token.sh member member-1)        members sign up by signing in as member-<anything>
#   OPERATOR=$(local-stack/token.sh operator operator-1)  every operator scope
#   local-stack/token.sh --help                           --issuer, --password, --scope
# Needs the launcher jar (local-stack/run.sh builds it) and the stack running.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher="$(ls -t "$repo"/local-stack/target/local-stack-*-exec.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$launcher" ]]; then
    echo "local-stack is not built: run local-stack/run.sh (or ./mvnw -DskipTests install) first" >&2
    exit 1
fi
exec java -Xshare:auto -XX:TieredStopAtLevel=1 \
    -jar "$launcher" token "$@"
