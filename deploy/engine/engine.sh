#!/usr/bin/env bash
# A container engine of the project's own on a Debian machine with no image registry (docs/operations.md, "Containers
# on a machine without a registry"). Root only; idempotent: each step checks before it acts, so a second run takes a
# second or two.
#
#   deploy/engine/engine.sh install   apt-get docker.io docker-compose debootstrap (only what is missing)
#   deploy/engine/engine.sh start     install, then dockerd on its own socket and data root (nothing if it runs)
#   deploy/engine/engine.sh base      start, then the local base images: payments/debian:bookworm (debootstrap +
#                                     docker import) and payments/jre:17 (Debian's openjdk-17-jre-headless)
#   deploy/engine/engine.sh stop      stop the dockerd this script started (by its pid file), nothing else
#   deploy/engine/engine.sh status    exit status 0 if the engine this script starts is up
#   deploy/engine/engine.sh env       print the DOCKER_HOST line to eval in a shell
#
# The engine never touches another dockerd: its own socket, pid file, exec root and data root, all under
# PAYMENTS_ENGINE_ROOT (default /var/lib/payments-engine), outside any build context so `docker build .` of the
# repository never sends the engine's own layers.
set -euo pipefail
root="${PAYMENTS_ENGINE_ROOT:-/var/lib/payments-engine}"
socket="$root/docker.sock"
pidfile="$root/dockerd.pid"
export DOCKER_HOST="unix://$socket"
# Debian's 20.10 CLI speaks the daemon's API; a newer CLI earlier in PATH may not build with the legacy builder.
docker() { /usr/bin/docker "$@"; }

install() {
    local missing=()
    [[ -x /usr/sbin/dockerd ]] || missing+=(docker.io)
    [[ -x /usr/bin/docker-compose ]] || missing+=(docker-compose)
    command -v debootstrap > /dev/null 2>&1 || missing+=(debootstrap)
    [[ ${#missing[@]} -eq 0 ]] && return 0
    echo "engine: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
}

running() { [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2> /dev/null; }

start() {
    install
    mkdir -p "$root"
    if ! running; then
        echo "engine: starting dockerd (data root $root/data, socket $socket)"
        setsid /usr/sbin/dockerd --data-root "$root/data" --exec-root "$root/exec" --pidfile "$pidfile" \
            --host "$DOCKER_HOST" --storage-driver overlay2 > "$root/dockerd.log" 2>&1 < /dev/null &
    fi
    local i
    for i in $(seq 1 60); do
        docker info > /dev/null 2>&1 && return 0
        sleep 0.5
    done
    echo "engine: dockerd did not answer in 30 s; $root/dockerd.log:" >&2
    tail -n 20 "$root/dockerd.log" >&2
    return 1
}

has_image() { docker image inspect "$1" > /dev/null 2>&1; }

base() {
    start
    if ! has_image payments/debian:bookworm; then
        local mirror rootfs
        # The machine's own Debian mirror (deb822 or one-line sources), the one apt-get already reaches.
        mirror="$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2> /dev/null | head -n 1)"
        [[ -n "$mirror" ]] || mirror="$(sed -n 's/^deb \(http[^ ]*debian\)\/\? .*/\1/p' /etc/apt/sources.list 2> /dev/null | head -n 1)"
        mirror="${mirror:-http://deb.debian.org/debian}"
        rootfs="$root/rootfs"
        rm -rf "$rootfs"
        echo "engine: debootstrap bookworm from $mirror"
        debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$root/debootstrap.log" 2>&1 \
            || { tail -n 20 "$root/debootstrap.log" >&2; return 1; }
        rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
        tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - payments/debian:bookworm > /dev/null
        rm -rf "$rootfs"
    fi
    if ! has_image payments/jre:17; then
        echo "engine: building payments/jre:17"
        docker build -q -t payments/jre:17 - < "$(dirname "${BASH_SOURCE[0]}")/jre.Dockerfile" > /dev/null
    fi
    echo "engine: base images payments/debian:bookworm payments/jre:17 ready"
}

stop() {
    running || { echo "engine: not running"; return 0; }
    local pid i
    pid="$(cat "$pidfile")"
    kill -TERM "$pid"
    for i in $(seq 1 60); do
        kill -0 "$pid" 2> /dev/null || { echo "engine: dockerd $pid stopped"; return 0; }
        sleep 0.5
    done
    echo "engine: dockerd $pid still running after 30 s" >&2
    return 1
}

case "${1:-}" in
    install) install ;;
    start) start ;;
    base) base ;;
    stop) stop ;;
    status) running && docker info > /dev/null 2>&1 ;;
    env) echo "export DOCKER_HOST=$DOCKER_HOST" ;;
    *) echo "usage: $0 install|start|base|stop|status|env" >&2; exit 2 ;;
esac
