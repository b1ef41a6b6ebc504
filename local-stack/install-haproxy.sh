#!/usr/bin/env bash
# Installs HAProxy (Debian's package) if this machine has none: the local stack and the drills put it in front of a
# service that runs as several replicas (local-stack/run.sh --replicas payment-service=3, drills/run.sh scale-out).
# One replica per service needs nothing of this. Needs apt-get and root (or sudo); prints what to do otherwise.
set -euo pipefail

for candidate in "$(command -v haproxy 2>/dev/null || true)" /usr/sbin/haproxy /usr/local/sbin/haproxy; do
  if [[ -n "$candidate" && -x "$candidate" ]]; then
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "HAProxy is missing and this is not a Debian-like machine: install haproxy with your package manager." >&2
  exit 1
fi
sudo=""
if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "HAProxy is missing; install it as root: apt-get install haproxy" >&2
    exit 1
  fi
fi
echo "Installing HAProxy (Debian package haproxy) for the replicated local stack ..." >&2
$sudo apt-get update -qq
# The package's own service is not wanted: the launcher runs HAProxy in the foreground with its own configuration.
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends haproxy >/dev/null
command -v haproxy >/dev/null 2>&1 || [[ -x /usr/sbin/haproxy ]]
