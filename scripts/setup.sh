#!/usr/bin/env bash
# Installs what building the sample players needs and is quick when it is already there: rustup's
# wasm32-wasip2 target, or, when rustup cannot add it, the fallback toolchain (see build-guests.sh).
set -euo pipefail
exec "$(dirname "$0")/build-guests.sh" --setup
