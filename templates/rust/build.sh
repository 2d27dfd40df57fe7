#!/bin/sh
# Builds player.wasm: a component for the Arena {{game}} world (needs `rustup target add wasm32-wasip2`).
set -eu
cd "$(dirname "$0")"
cargo build --release --target wasm32-wasip2
cp "${CARGO_TARGET_DIR:-target}/wasm32-wasip2/release/{{crate}}.wasm" player.wasm
echo "built player.wasm"
