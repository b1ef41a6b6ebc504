#!/usr/bin/env bash
# Runs one of the launcher jar's commands (token, kafka-console-consumer, ...): launcher.sh <command> [options].
# token.sh and kafka-console-consumer.sh are this with their command. Needs the jar (local-stack/run.sh builds it).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher="$(ls -t "$repo"/local-stack/target/local-stack-*-exec.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$launcher" ]]; then
    echo "local-stack is not built: run local-stack/run.sh (or ./mvnw -DskipTests install) first" >&2
    exit 1
fi
exec java -Xshare:auto -XX:TieredStopAtLevel=1 -jar "$launcher" "$@"
