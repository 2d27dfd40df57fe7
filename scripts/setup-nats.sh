#!/usr/bin/env bash
# Installs Debian's nats-server (2.9, with JetStream) when it is missing: the tests of distributed
# play start their own `nats-server -js` on loopback. Idempotent; sudo only when not root.
set -euo pipefail
if command -v nats-server >/dev/null 2>&1; then
    echo "setup-nats: $(nats-server --version)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q --no-install-recommends nats-server >/dev/null 2>&1; then
    $SUDO apt-get update -q >/dev/null
    $SUDO apt-get install -y -q --no-install-recommends nats-server >/dev/null
fi
echo "setup-nats: installed $(nats-server --version)"
