#!/usr/bin/env bash
# Reads a topic of the running local stack with Kafka's own console consumer, logged in with the stack's SCRAM login
# (the admin principal by default; --user <service> --password <...> for another):
#   local-stack/kafka-console-consumer.sh --topic payment.events --from-beginning --property print.key=true
# Every option after the login ones is kafka-console-consumer's. Why not kcat: docs/operations.md, "Reading topics".
# Needs the launcher jar (local-stack/run.sh builds it) and the stack running.
set -euo pipefail

exec "$(dirname "${BASH_SOURCE[0]}")/launcher.sh" kafka-console-consumer "$@"
