#!/usr/bin/env bash
# Installs Debian packages this project's scripts need, once: apt-install.sh "<what it is for>" <package>...
# Used by install-haproxy.sh and operator-console/install-chromium.sh after each has checked that its program is
# missing. Needs apt-get and root (or sudo); says what to install by hand otherwise.
set -euo pipefail

purpose="$1"
shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing for $purpose and this is not a Debian-like machine: install $* with your package manager." >&2
  exit 1
fi
sudo=""
if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "Missing for $purpose; install it as root: apt-get install $*" >&2
    exit 1
  fi
fi
echo "Installing $* (Debian packages) for $purpose ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
