#!/usr/bin/env bash
# Builds the C, C++ and Zig sample players as components: `build-c.sh OUT_DIR` writes
# OUT_DIR/yahtzee-c.wasm and OUT_DIR/NAME.wasm for every games/GAME/players/{cpp,zig}/NAME (each only
# when its sources are newer than it); `build-c.sh --setup` only installs what the build needs.
#
# Zig: player.zig, with its game's C glue header read by `zig translate-c` as abi.zig, compiled by
# ziglang (PyPI) and linked with the glue by `zig cc` as a WASI reactor, adapted like C++.
#
# C++: each player is its .cpp files, built with clang++-19 against libc++ and WASI's C library
# (Debian's packages) with its game's hand-written C glue (games/GAME/templates/c, as `arena new --lang
# c` writes it) and templates/libc-alloc.c (the ABI's memory over malloc), linked as a WASI reactor and
# made a component with the WASI preview-1 adapter of the host's wasmtime version.
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
CLANGXX=/usr/bin/clang++-19
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
  adapter_ensure
  zig_ensure
}

# Succeeds when $1 exists and is newer than every source of the player (and this script).
up_to_date() {
  fresh "$1" "$SRC"/* "$GLUE"/abi.* templates/c/alloc.c "$WIT"/*.wit "$SELF"
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

# componentize TMP NAME GAME OUT: TMP/core.wasm, a WASI reactor implementing GAME's player world, as
# the validated component OUT (through TMP/embedded.wasm and TMP/NAME.wasm).
componentize() {
  local tmp=$1 name=$2 game=$3 out=$4
  "$WASM_TOOLS" component embed "games/$game/wit" --world "arena:$game/player" "$tmp/core.wasm" -o "$tmp/embedded.wasm"
  "$WASM_TOOLS" component new "$tmp/embedded.wasm" --adapt "wasi_snapshot_preview1=$ADAPTER" -o "$tmp/$name.wasm"
  "$WASM_TOOLS" validate "$tmp/$name.wasm"
  mv "$tmp/$name.wasm" "$out"
}

# build_cpp DIR OUT: the C++ player in DIR (games/GAME/players/cpp/NAME) as the component OUT.
build_cpp() {
  local dir=$1 out=$2 name game tmp
  name=$(basename "$dir")
  game=$(game_of "$dir")
  local glue=games/$game/templates/c
  tmp=$WORK/$name
  mkdir -p "$tmp"
  local flags=(--target=wasm32-wasi --sysroot=/usr -O2 -Wall -Wextra -I "$glue")
  "$CLANG" "${flags[@]}" -c "$glue/abi.c" -o "$tmp/abi.o"
  "$CLANG" "${flags[@]}" -c templates/libc-alloc.c -o "$tmp/alloc.o"
  local objs=("$tmp/abi.o" "$tmp/alloc.o") f
  for f in "$dir"/*.cpp; do
    "$CLANGXX" "${flags[@]}" -std=c++20 -fno-exceptions -c "$f" -o "$tmp/$(basename "$f").o"
    objs+=("$tmp/$(basename "$f").o")
  done
  "$CLANGXX" "${flags[@]}" -fno-exceptions -mexec-model=reactor -Wl,--export-memory=cm32p2_memory \
    -Wl,--strip-all "${objs[@]}" -o "$tmp/core.wasm"
  componentize "$tmp" "$name" "$game" "$out"
}

# Zig (ziglang from PyPI), for the Zig players: in $TOOLS/arena-tools/ziglang-VERSION, laid out as a Zig
# project's build.sh installs it into $ARENA_TOOLS, so the suite's Zig starters (ARENA_TOOLS set to
# $TOOLS/arena-tools) find it there.
ZIG_VERSION=0.17.1
ZIG_VENV=$TOOLS/arena-tools/ziglang-$ZIG_VERSION
zig_ensure() { venv_ensure "$ZIG_VENV" "ziglang==$ZIG_VERSION"; }
zig() { "$ZIG_VENV/bin/python" -m ziglang "$@"; }

# build_zig DIR OUT: the Zig player in DIR (games/GAME/players/zig/NAME, its player.zig importing
# abi.zig: its game's C glue header as `zig translate-c` reads it) as the component OUT.
build_zig() {
  local dir=$1 out=$2 name game tmp
  name=$(basename "$dir")
  game=$(game_of "$dir")
  local glue=games/$game/templates/c
  tmp=$WORK/$name
  rm -rf "$tmp"
  mkdir -p "$tmp"
  cp "$dir"/*.zig "$tmp/"
  zig translate-c -target wasm32-wasi -lc "$glue/abi.h" >"$tmp/abi.zig"
  (cd "$tmp" && zig build-obj -target wasm32-wasi -O ReleaseSmall -lc player.zig -femit-bin=player.o)
  zig cc -target wasm32-wasi -O2 -mexec-model=reactor -Wl,--strip-all -I "$glue" \
    "$glue/abi.c" templates/libc-alloc.c "$tmp/player.o" -o "$tmp/core.wasm"
  componentize "$tmp" "$name" "$game" "$out"
}

# Succeeds when $2 exists and is newer than the C++ or Zig player in $1, its glue and this script.
cpp_up_to_date() {
  local dir=$1 out=$2 game
  game=$(game_of "$dir")
  fresh "$out" "$dir"/* "games/$game/templates/c"/abi.* templates/libc-alloc.c "games/$game/wit"/*.wit "$SELF"
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
if ! up_to_date "$out"; then
  setup
  build "$out"
  say "built $out ($(wc -c <"$out") bytes)"
fi
for dir in games/*/players/cpp/*/ games/*/players/zig/*/; do
  dir=${dir%/}
  out=$out_dir/$(basename "$dir").wasm
  cpp_up_to_date "$dir" "$out" && continue
  setup
  case $dir in
    */players/zig/*) zig_ensure && build_zig "$dir" "$out" ;;
    *) build_cpp "$dir" "$out" ;;
  esac
  say "built $out ($(wc -c <"$out") bytes)"
done
