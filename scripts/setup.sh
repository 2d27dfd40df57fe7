#!/usr/bin/env bash
# Installs what building players needs, in every language, and is quick when it is already there:
# rustup's wasm32-wasip2 target (or the Debian fallback, see build-guests.sh), componentize-py and
# componentize-qjs (build-py-js.sh), clang-19, Zig and wasm-tools (build-c.sh), Go
# (build-go.sh).
set -euo pipefail
here=$(dirname "$0")
"$here/build-guests.sh" --setup
"$here/build-py-js.sh" --setup
"$here/build-c.sh" --setup
"$here/build-go.sh" --setup
