#!/usr/bin/env bash
# Reads a topic of the running local stack with Kafka's own console consumer, logged in with the stack's SCRAM login
# (the admin principal by default; --user <service> --password <...> for another):
#   local-stack/kafka-console-consumer.sh --topic payment.events --from-beginning --property print.key=true
# Every option after the login ones is kafka-console-consumer's. Why not kcat: docs/operations.md, "Reading topics".
# Needs the launcher jar (local-stack/run.sh builds it) and the stack running.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher="$(ls -t "$repo"/local-stack/target/local-stack-*-exec.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$launcher" ]]; then
    echo "local-stack is not built: run local-stack/run.sh (or ./mvnw -DskipTests install) first" >&2
    exit 1
fi
exec java -Xshare:auto -XX:TieredStopAtLevel=1 \
    -jar "$launcher" kafka-console-consumer "$@"
