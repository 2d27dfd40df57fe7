#!/usr/bin/env bash
# Installs what building the sample players needs and is quick when it is already there:
# the wasm32-wasip2 Rust target (rustup).
set -euo pipefail

have_target() { rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; }

if ! command -v cargo >/dev/null; then
  echo "setup: cargo is not installed; Arena needs a Rust toolchain (rustup) of 1.95 or newer" >&2
  exit 1
fi
if ! have_target; then
  echo "setup: adding the wasm32-wasip2 target with rustup" >&2
  rustup target add wasm32-wasip2
fi
have_target || { echo "setup: the wasm32-wasip2 target is still missing" >&2; exit 1; }
