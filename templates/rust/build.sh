#!/bin/sh
# Builds player.wasm: a component for the Arena {{game}} world. Needs Rust with the wasm32-wasip2
# target: the first build adds it with rustup when it is missing.
set -eu
cd "$(dirname "$0")"
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-wasip2; then
  echo "build.sh: adding the wasm32-wasip2 target with rustup (first build only)" >&2
  rustup target add wasm32-wasip2
fi
cargo build --release --target wasm32-wasip2
cp "${CARGO_TARGET_DIR:-target}/wasm32-wasip2/release/{{crate}}.wasm" player.wasm
echo "built player.wasm"
