#!/usr/bin/env bash
# Builds the C sample player as a component: `build-c.sh OUT_DIR` writes OUT_DIR/yahtzee-c.wasm (only
# when its sources are newer than it); `build-c.sh --setup` only installs what the build needs.
#
# No libc and no generated bindings: games/yahtzee/players/c/yahtzee-c holds the canonical ABI glue written by
# hand. clang-19 (Debian) compiles it freestanding (--target=wasm32 -nostdlib) and wasm-ld (lld-19)
# links a core module with the component model's export names; `wasm-tools component embed` adds the
# world from games/yahtzee/wit and `wasm-tools component new` makes the component. It imports nothing but
# the game's interfaces: no WASI, no adapter. wasm-tools is the PyPI build shared with build-guests.sh.
set -euo pipefail
CALLER_DIR=$PWD
cd "$(dirname "$0")/.."
SELF=$PWD/scripts/build-c.sh

TARGET_DIR=${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)
TOOLS=$TARGET_DIR/tools
WASM_TOOLS=$TOOLS/venv/bin/wasm-tools
WORK=$TARGET_DIR/c-players

# C players build freestanding with clang-19 and lld-19; C++ players (`arena new --lang cpp`, tested
# by the suite) with libc++ over WASI's C library, from the same LLVM.
DEBIAN_PACKAGES=(clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32)
CLANG=/usr/bin/clang-19
WASM_LD=/usr/lib/llvm-19/bin/wasm-ld

PLAYER=yahtzee-c
SRC=games/yahtzee/players/c/$PLAYER
# The canonical ABI glue is the one `arena new --lang c` writes for Yahtzee: one copy serves both.
GLUE=games/yahtzee/templates/c
WIT=games/yahtzee/wit
WORLD=arena:yahtzee/player

say() { echo "build-c: $*" >&2; }

# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

setup() {
  apt_ensure "${DEBIAN_PACKAGES[@]}"
  wasm_tools_ensure
}

# Succeeds when $1 exists and is newer than every source of the player (and this script).
up_to_date() {
  local out=$1 f
  [[ -s $out ]] || return 1
  for f in "$SRC"/* "$GLUE"/abi.* templates/c/alloc.c "$WIT"/*.wit "$SELF"; do
    [[ $f -nt $out ]] && return 1
  done
  return 0
}

build() {
  local out=$1 tmp=$WORK/$PLAYER
  mkdir -p "$tmp"
  # -z stack-size: the player needs a few hundred bytes of stack; the heap (a bump allocator emptied
  # after every call) starts right after it and grows the memory on demand.
  "$CLANG" --target=wasm32 -nostdlib -ffreestanding -O2 -Wall -Wextra \
    -fuse-ld="$WASM_LD" -Wl,--no-entry -Wl,--export-memory=cm32p2_memory -Wl,--strip-all \
    -Wl,-z,stack-size=16384 \
    -I "$GLUE" "$SRC"/*.c "$GLUE"/abi.c templates/c/alloc.c -o "$tmp/core.wasm"
  "$WASM_TOOLS" component embed "$WIT" --world "$WORLD" "$tmp/core.wasm" -o "$tmp/embedded.wasm"
  "$WASM_TOOLS" component new "$tmp/embedded.wasm" -o "$tmp/$PLAYER.wasm"
  "$WASM_TOOLS" validate "$tmp/$PLAYER.wasm"
  mv "$tmp/$PLAYER.wasm" "$out"
}

if [[ ${1:-} == --setup ]]; then
  setup
  exit 0
fi
if (($# != 1)); then
  echo "usage: $0 OUT_DIR | $0 --setup" >&2
  exit 2
fi
out_dir=$1
[[ $out_dir == /* ]] || out_dir=$CALLER_DIR/$out_dir  # relative to where it was called from
mkdir -p "$out_dir"
out=$out_dir/$PLAYER.wasm
if up_to_date "$out"; then exit 0; fi
setup
build "$out"
say "built $out ($(wc -c <"$out") bytes)"
