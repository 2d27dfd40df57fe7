#!/bin/sh
# Builds player.wasm from the C sources: a component for the Arena {{game}} world (needs clang-19 with
# wasm-ld, e.g. Debian's clang-19 and lld-19, and wasm-tools: `cargo install wasm-tools` or `pip install wasm-tools`).
set -eu
cd "$(dirname "$0")"
for tool in clang-19 wasm-tools; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build.sh: $tool not found on PATH (needs clang-19 with lld-19's wasm-ld, and wasm-tools)" >&2
    exit 1
  }
done
WASM_LD=${WASM_LD:-$(command -v wasm-ld-19 || command -v wasm-ld || echo /usr/lib/llvm-19/bin/wasm-ld)}
# Freestanding wasm32, no libc: abi.c is the canonical ABI glue, alloc.c its memory, player.c the strategy.
clang-19 --target=wasm32 -nostdlib -ffreestanding -O2 -Wall -Wextra \
  -fuse-ld="$WASM_LD" -Wl,--no-entry -Wl,--export-memory=cm32p2_memory -Wl,--strip-all \
  -Wl,-z,stack-size=16384 \
  ./*.c -o core.wasm
wasm-tools component embed wit --world arena:{{game}}/player core.wasm -o embedded.wasm
wasm-tools component new embedded.wasm -o player.wasm
rm -f core.wasm embedded.wasm
echo "built player.wasm"
