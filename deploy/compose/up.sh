#!/usr/bin/env bash
# The whole topology of docker-compose.yml on this machine, from a fresh clone (root, Debian): installs and starts the
# container engine (deploy/engine/engine.sh), builds the jars, the base images and every image, starts everything but
# Prometheus and Grafana (their images come only from a registry) and waits until every container is healthy.
# deploy/compose/down.sh removes it. PAYMENTS_SKIP_BUILD=1 skips building the jars (they are there);
# PAYMENTS_UP_TIMEOUT (seconds, default 900) bounds the wait.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
compose="$repo/deploy/compose/compose.sh"
start=$(date +%s)
since() { echo "$(( $(date +%s) - start )) s"; }

"$repo/deploy/engine/engine.sh" base
if [[ "${PAYMENTS_SKIP_BUILD:-0}" != 1 ]]; then
    echo "up: building the jars ($(since))"
    ./mvnw -B -ntp -q -DskipTests package \
        -pl auth-server,pg-simulator,order-service,payment-service,notification-service,reconciliation-service,operator-console,local-stack -am
fi
# What the PostgreSQL and Kafka images are made of (seconds: from the local Maven repository).
./mvnw -B -ntp -q -f deploy/docker/pom.xml package
services=(postgres kafka-1 kafka-2 kafka-3 auth-server pg-simulator load-balancer order-service
          payment-service-1 payment-service-2 notification-service-1 notification-service-2 reconciliation-service
          operator-console)
echo "up: building the images ($(since))"
"$compose" build -q postgres kafka-1 auth-server pg-simulator load-balancer order-service payment-service-1 \
    notification-service-1 reconciliation-service operator-console
echo "up: starting ${#services[@]} containers ($(since))"
"$compose" up -d --no-build "${services[@]}"

deadline=$(( $(date +%s) + ${PAYMENTS_UP_TIMEOUT:-900} ))
eval "$("$repo/deploy/engine/engine.sh" env)"
while :; do
    waiting=()
    for service in "${services[@]}"; do
        id="$("$compose" ps -q "$service")"
        state="$(/usr/bin/docker inspect --format '{{.State.Status}}/{{if .State.Health}}{{.State.Health.Status}}{{else}}healthy{{end}}' "$id")"
        [[ "$state" == running/healthy ]] || waiting+=("$service=$state")
    done
    [[ ${#waiting[@]} -eq 0 ]] && break
    if (( $(date +%s) > deadline )); then
        echo "up: not healthy after $(since): ${waiting[*]}" >&2
        exit 1
    fi
    sleep 5
done
echo "up: all ${#services[@]} containers healthy after $(since)"
