#!/usr/bin/env bash
# kafka-topics.sh: the distribution's topic tool
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.TopicCommand "$@"
