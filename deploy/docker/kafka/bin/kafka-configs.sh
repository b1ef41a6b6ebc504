#!/usr/bin/env bash
# kafka-configs.sh: the distribution's config tool (SCRAM users, dynamic configs)
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ConfigCommand "$@"
