#!/usr/bin/env bash
# kafka-acls.sh: the distribution's ACL tool
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.AclCommand "$@"
