#!/usr/bin/env bash
# The integration tests' Testcontainers mode (test-support's SharedTestInfrastructure, -Dtest.infrastructure=
# testcontainers) on the project's own engine, against the PostgreSQL 17 and Kafka 4.3.0 images built here from Maven
# Central (payments/postgres:17, payments/kafka:4.3.0: the ones the compose topology runs). Root, Debian; .ci/run
# runs it beside the compose smoke.
#   deploy/compose/testcontainers.sh                       order-service's integration test (below)
#   deploy/compose/testcontainers.sh -Dtest=SomeIntegrationTest -pl some-module -am   other tests (Maven arguments)
# Starts the engine if it is not running (and stops it again at the end); removes the containers the tests started.
# No registry: Ryuk (Testcontainers' reaper, an image from Docker Hub) stays off, the test JVM stops its containers
# itself, and this script removes any a crashed JVM left.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
engine="$repo/deploy/engine/engine.sh"
started_engine=0
"$engine" status > /dev/null 2>&1 || started_engine=1
eval "$("$engine" env)"
cleanup() {
    local left
    left="$(/usr/bin/docker ps -aq --filter label=org.testcontainers=true 2> /dev/null || true)"
    [[ -z "$left" ]] || /usr/bin/docker rm -f $left > /dev/null || true
    if [[ $started_engine == 1 ]]; then "$engine" stop; fi
}
trap cleanup EXIT

"$engine" base
./mvnw -B -ntp -q -f deploy/docker/pom.xml package
"$repo/deploy/compose/compose.sh" build -q postgres kafka-1

export TESTCONTAINERS_RYUK_DISABLED=true
# Testcontainers' start-up checks would run an image from Docker Hub too.
export TESTCONTAINERS_CHECKS_DISABLE=true
# The engine runs on this machine and publishes the containers' ports here. Without an override, Testcontainers on a
# machine whose root holds /.dockerenv believes it runs inside a container and, when the bridge network names no
# gateway, runs Docker Hub's alpine to find one: with no registry every test then fails after 2 minutes.
export TESTCONTAINERS_HOST_OVERRIDE=localhost
# By default one service's integration test, the one that uses the most of both containers: its outbox relay streams
# PostgreSQL's logical replication through Debezium into Kafka, its listeners consume, a poison message goes to the
# dead-letter topic (11 tests, 140 s at load 60; notification-service's 7 took 107 s more, past CI's budget).
if [[ $# -eq 0 ]]; then
    set -- -pl order-service -am -Dtest=OrderServiceIntegrationTest
fi
./mvnw -B -ntp verify -Dtest.infrastructure=testcontainers \
    -Dtest.infrastructure.postgres-image=payments/postgres:17 -Dtest.infrastructure.kafka-image=payments/kafka:4.3.0 \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false -Dit.failIfNoSpecifiedTests=false \
    "$@"
