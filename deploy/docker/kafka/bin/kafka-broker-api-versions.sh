#!/usr/bin/env bash
# kafka-broker-api-versions.sh: answers once the broker serves requests
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
