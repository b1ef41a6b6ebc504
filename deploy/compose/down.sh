#!/usr/bin/env bash
# Removes what deploy/compose/up.sh started: every container, the network and the volumes (the data goes with them).
# --engine also stops the container engine that deploy/engine/engine.sh started (the images stay for the next run).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [[ -S "${PAYMENTS_ENGINE_ROOT:-/var/lib/payments-engine}/docker.sock" ]] && "$repo/deploy/engine/engine.sh" status > /dev/null 2>&1; then
    "$repo/deploy/compose/compose.sh" down --volumes --remove-orphans --timeout 30
fi
if [[ "${1:-}" == --engine ]]; then
    "$repo/deploy/engine/engine.sh" stop
fi
