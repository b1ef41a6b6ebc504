#!/usr/bin/env bash
# kafka-server-start.sh <server.properties>: the broker / controller (KRaft)
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=/opt/kafka/config/log4j2.yaml}"
exec "$(dirname "$0")/kafka-run-class.sh" kafka.Kafka "$@"
