#!/usr/bin/env bash
# docker-compose on the project's own engine with the locally built images: the one way up.sh, down.sh and the CI
# smoke call it. Any docker-compose arguments, e.g. deploy/compose/compose.sh ps, deploy/compose/compose.sh logs payment-service-1
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
eval "$("$repo/deploy/engine/engine.sh" env)"
export SERVICE_BASE_IMAGE=payments/jre:17 HAPROXY_BASE_IMAGE=payments/debian:bookworm
# docker-compose 1.29 builds through its own client (the engine has no BuildKit); every image's context is small.
export COMPOSE_DOCKER_CLI_BUILD=0
exec docker-compose --project-name "${PAYMENTS_COMPOSE_PROJECT:-payments}" --project-directory "$repo" \
    -f "$repo/docker-compose.yml" -f "$repo/deploy/compose/local-images.yml" \
    --env-file "${PAYMENTS_COMPOSE_ENV:-$repo/deploy/compose/local.env}" "$@"
