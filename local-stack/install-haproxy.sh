#!/usr/bin/env bash
# Installs HAProxy (Debian's package) if this machine has none: the local stack and the drills put it in front of a
# service that runs as several replicas (local-stack/run.sh --replicas payment-service=3, drills/run.sh scale-out).
# One replica per service needs nothing of this.
set -euo pipefail

for candidate in "$(command -v haproxy 2>/dev/null || true)" /usr/sbin/haproxy /usr/local/sbin/haproxy; do
  if [[ -n "$candidate" && -x "$candidate" ]]; then
    exit 0
  fi
done
# The package's own service is not wanted: the launcher runs HAProxy in the foreground with its own configuration.
"$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" "the replicated local stack" haproxy
command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]]
