#!/usr/bin/env bash
# The operator's commands over reconciliation-service's API (docs/runbooks/dead-letters.md):
#   export OPERATOR=$(local-stack/token.sh operator operator-1)
#   operator-cli/payments-ops.sh dead-letters list order-service --status WAITING
#   operator-cli/payments-ops.sh dead-letters redrive order-service --event <eventId> | --order <orderId>
#   operator-cli/payments-ops.sh replay order <orderId> --group order-service [--apply]
#   operator-cli/payments-ops.sh --help                  --url (default $RECONCILIATION_URL or :8084), --token
# Needs the jar: ./mvnw -B -ntp -q -pl operator-cli -am package -DskipTests (local-stack/run.sh builds it too).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$(ls -t "$repo"/operator-cli/target/operator-cli-*-exec.jar 2>/dev/null | head -n 1 || true)"
if [[ -z "$jar" ]]; then
    echo "operator-cli is not built: ./mvnw -B -ntp -q -pl operator-cli -am package -DskipTests" >&2
    exit 1
fi
exec java -Xshare:auto -XX:TieredStopAtLevel=1 -jar "$jar" "$@"
