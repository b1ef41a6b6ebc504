#!/usr/bin/env bash
# Builds every module (tests skipped) and runs the local stack in the foreground; Ctrl-C stops it all.
#   local-stack/run.sh [launcher options]        e.g. local-stack/run.sh --clean
#   local-stack/run.sh --help                    every option
#   local-stack/run.sh --replicas payment-service=3,order-service=2   several JVMs of a service behind HAProxy
# LOCAL_STACK_JAVA_OPTS sets the launcher's own JVM options (it hosts the Kafka broker).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
if [[ -x ./mvnw ]]; then maven=./mvnw; else maven=mvn; fi

"$maven" -q -DskipTests install

# Several replicas of a service run behind HAProxy; install it (Debian's package) if this machine has none.
for arg in "$@"; do
  if [[ "$arg" == --replicas* ]]; then
    "$repo/local-stack/install-haproxy.sh"
    break
  fi
done

launcher="$(ls -t local-stack/target/local-stack-*-exec.jar | head -n 1)"
# shellcheck disable=SC2086 # the options are a space-separated list on purpose
exec java ${LOCAL_STACK_JAVA_OPTS:--Xms64m -Xmx512m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=64m} \
    -jar "$launcher" --repo-dir "$repo" "$@"
