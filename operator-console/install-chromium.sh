#!/usr/bin/env bash
# Installs Debian's Chromium and its WebDriver (packages chromium, chromium-driver) if this machine has none: the
# operator console's browser tests drive a real headless Chromium. Nothing downloads a browser of its own; Selenium
# is pointed at /usr/bin/chromedriver. Needs apt-get and root (or sudo); prints what to do otherwise.
set -euo pipefail

if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing and this is not a Debian-like machine: install chromium and chromium-driver." >&2
  exit 1
fi
sudo=""
if [[ "$(id -u)" != 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "Chromium is missing; install it as root: apt-get install chromium chromium-driver" >&2
    exit 1
  fi
fi
echo "Installing Chromium and chromium-driver (Debian packages) for the operator console's browser tests ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]
