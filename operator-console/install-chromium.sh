#!/usr/bin/env bash
# Installs Debian's Chromium and its WebDriver (packages chromium, chromium-driver) if this machine has none: the
# operator console's browser tests drive a real headless Chromium. Nothing downloads a browser of its own; Selenium
# is pointed at /usr/bin/chromedriver.
set -euo pipefail

if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
  exit 0
fi
"$(dirname "${BASH_SOURCE[0]}")/../local-stack/apt-install.sh" "the operator console's browser tests" \
  chromium chromium-driver
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]
