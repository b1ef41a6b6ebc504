#!/usr/bin/env bash
# drills/run.sh <scenario> [options]   e.g.  drills/run.sh pg-slow    drills/run.sh capacity --step-seconds 10
#                                            drills/run.sh scale-out  (installs HAProxy if missing)
# Builds what is missing (every service's runnable jar and the drills jar), then runs the drill. By default the drill
# starts its own stack with the scenario's settings; --stack-url http://127.0.0.1 uses a running local-stack/run.sh.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
jar="drills/target/drills-0.1.0-SNAPSHOT-exec.jar"
need_build=0
for m in pg-simulator order-service payment-service notification-service reconciliation-service drills; do
  ls "$m"/target/"$m"-*-exec.jar >/dev/null 2>&1 || need_build=1
done
ls drills/baseline/target/drills-baseline-*-exec.jar >/dev/null 2>&1 || need_build=1
if [[ "$need_build" == 1 || "${DRILLS_REBUILD:-0}" == 1 ]]; then
  ./mvnw -q -DskipTests install
fi
# scale-out runs several replicas of each service behind HAProxy: install it (Debian's package) where it is missing.
if [[ "${1:-}" == scale-out ]]; then
  local-stack/install-haproxy.sh
fi
exec java ${DRILLS_JAVA_OPTS:--Xmx512m -XX:+UseSerialGC} -jar "$jar" "$@"
