#!/usr/bin/env bash
# kafka-consumer-groups.sh: consumer groups and their lag
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "$@"
