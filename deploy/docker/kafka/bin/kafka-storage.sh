#!/usr/bin/env bash
# kafka-storage.sh format|random-uuid|info: formats a KRaft log directory
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
