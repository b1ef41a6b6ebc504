#!/usr/bin/env bash
# kafka-run-class.sh <main class> [args]: the distribution's launcher reduced to what this image needs. Honours the
# same variables as apache/kafka's: KAFKA_HEAP_OPTS (default -Xmx256m -Xms256m), KAFKA_JVM_PERFORMANCE_OPTS,
# KAFKA_OPTS, KAFKA_LOG4J_OPTS (the server logs at INFO to stdout, the tools WARN to stderr).
set -euo pipefail
home=/opt/kafka
exec java ${KAFKA_HEAP_OPTS:--Xmx256m -Xms256m} \
    ${KAFKA_JVM_PERFORMANCE_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true} \
    ${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=$home/config/tools-log4j2.yaml} ${KAFKA_OPTS:-} \
    -cp "$home/libs/*" "$@"
