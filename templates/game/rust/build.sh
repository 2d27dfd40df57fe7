#!/bin/sh
# Builds the package: referee.wasm (the referee component) and players/first.wasm (the sample player).
# Needs Rust with the wasm32-wasip2 target: the first build adds it with rustup when it is missing.
set -eu
cd "$(dirname "$0")"
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-wasip2; then
  echo "build.sh: adding the wasm32-wasip2 target with rustup (first build only)" >&2
  rustup target add wasm32-wasip2
fi
cargo test -q -p {{name}}-rules
cargo build --release --target wasm32-wasip2 -p {{name}}-referee -p {{name}}-first
out="${CARGO_TARGET_DIR:-target}/wasm32-wasip2/release"
cp "$out/{{crate}}_referee.wasm" referee.wasm
cp "$out/{{crate}}_first.wasm" players/first.wasm
echo "built referee.wasm and players/first.wasm"
