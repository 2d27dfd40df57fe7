#!/usr/bin/env bash
# Builds the Python and JavaScript sample players of every game as components: `build-py-js.sh OUT_DIR`
# writes games/GAME/players/python/NAME.py as OUT_DIR/NAME.wasm (underscores as dashes: yahtzee_py.py is
# yahtzee-py.wasm; componentize-py from PyPI) and games/GAME/players/js/NAME.js as OUT_DIR/NAME.wasm
# (componentize-qjs from npm); and the referees some games have in
# those languages besides their Rust one: games/GAME/referee-py/*.py as OUT_DIR/GAME-referee-py.wasm,
# games/GAME/referee-js/*.js as OUT_DIR/GAME-referee-js.wasm (world arena:GAME/referee).
#
# The toolchains are installed on first use into $TARGET_DIR/tools (a venv and an npm prefix), pinned to
# the versions below; later runs only check their versions. A component is rebuilt only when it is
# missing or older than one of its game's sources in its language (the files named after the game) or
# the game's WIT.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET_DIR=${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)
TOOLS=$TARGET_DIR/tools

# Every game folder (a new game edits no list).
GAMES=()
for dir in games/*/; do GAMES+=("$(basename "$dir")"); done

COMPONENTIZE_PY_VERSION=0.25.1
PY_VENV=$TOOLS/py-venv
COMPONENTIZE_PY=$PY_VENV/bin/componentize-py

COMPONENTIZE_QJS_VERSION=0.4.5
NODE_PREFIX=$TOOLS/node
COMPONENTIZE_QJS=$NODE_PREFIX/node_modules/.bin/componentize-qjs

say() { echo "build-py-js: $*" >&2; }

# --- Toolchains -----------------------------------------------------------------------------------

setup_python() {
  if [[ $("$COMPONENTIZE_PY" --version 2>/dev/null) == "componentize-py $COMPONENTIZE_PY_VERSION" ]]; then
    return
  fi
  command -v python3 >/dev/null || { say "python3 is missing (Python 3.9+ with venv is needed)"; exit 1; }
  say "installing componentize-py $COMPONENTIZE_PY_VERSION (PyPI) into $PY_VENV"
  rm -rf "$PY_VENV"
  python3 -m venv "$PY_VENV"
  "$PY_VENV/bin/pip" install -q "componentize-py==$COMPONENTIZE_PY_VERSION"
}

setup_js() {
  local installed
  installed=$(node -p "require('$NODE_PREFIX/node_modules/componentize-qjs/package.json').version" 2>/dev/null || true)
  if [[ $installed == "$COMPONENTIZE_QJS_VERSION" && -x $COMPONENTIZE_QJS ]]; then
    return
  fi
  command -v npm >/dev/null || { say "npm is missing (Node.js 18+ with npm is needed)"; exit 1; }
  say "installing componentize-qjs $COMPONENTIZE_QJS_VERSION (npm) into $NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  npm install --prefix "$NODE_PREFIX" --no-audit --no-fund --loglevel=error \
    "componentize-qjs@$COMPONENTIZE_QJS_VERSION" >/dev/null
}

# --- Builds ---------------------------------------------------------------------------------------

# Succeeds when OUT is missing or older than any of the given files and directories.
stale() {
  local out=$1; shift
  [[ ! -e $out ]] || [[ -n $(find "$@" -newer "$out" -print -quit) ]]
}

# build_py OUT GAME MODULE: the module defines the class `WitWorld`. The game's Python sources are
# copied first, so the Python run at build time writes its __pycache__ under the target directory, not
# into the source tree.
build_py() {
  local out=$1 game=$2 module=$3 stage=$TARGET_DIR/py-js/python
  rm -rf "$stage"
  mkdir -p "$stage"
  cp "games/$game/players/python/"*.py "$stage/"
  "$COMPONENTIZE_PY" -q -d "games/$game/wit" -w "arena:$game/player" componentize -p "$stage" "$module" \
    -o "$out.tmp"
  mv "$out.tmp" "$out"
}

# build_js OUT GAME FILE [WORLD]: the module exports one function per WIT export (camelCase).
build_js() {
  local out=$1 game=$2 file=$3 world=${4:-player}
  "$COMPONENTIZE_QJS" -w "games/$game/wit" -n "arena:$game/$world" --sync -j "$file" -o "$out.tmp" >/dev/null
  mv "$out.tmp" "$out"
}

# build_py_referee OUT GAME FILE: a referee in Python, its module defining the class `WitWorld`.
build_py_referee() {
  local out=$1 game=$2 file=$3 stage=$TARGET_DIR/py-js/python-referee
  rm -rf "$stage"
  mkdir -p "$stage"
  cp "$file" "$stage/"
  "$COMPONENTIZE_PY" -q -d "games/$game/wit" -w "arena:$game/referee" componentize -p "$stage" \
    "$(basename "$file" .py)" -o "$out.tmp"
  mv "$out.tmp" "$out"
}

# --- Main -----------------------------------------------------------------------------------------

if [[ ${1:-} == --setup ]]; then
  setup_python
  setup_js
  exit 0
fi
if (($# != 1)); then
  echo "usage: $0 OUT_DIR | $0 --setup" >&2
  exit 2
fi
out=$1
mkdir -p "$out"

for game in "${GAMES[@]}"; do
  py=games/$game/players/python
  for file in "$py"/*.py; do
    [[ -e $file ]] || continue
    module=$(basename "$file" .py)
    target=$out/${module//_/-}.wasm
    if stale "$target" "$py" "games/$game/wit"; then
      setup_python
      say "componentize-py: $file -> $target"
      build_py "$target" "$game" "$module"
    fi
  done

  js=games/$game/players/js
  for file in "$js"/*.js; do
    [[ -e $file ]] || continue
    target=$out/$(basename "$file" .js).wasm
    if stale "$target" "$js" "games/$game/wit"; then
      setup_js
      say "componentize-qjs: $file -> $target"
      build_js "$target" "$game" "$file"
    fi
  done
done

# Referees in Python and JavaScript (one file each).
for file in games/*/referee-py/*.py; do
  [[ -e $file ]] || continue
  game=$(basename "$(dirname "$(dirname "$file")")")
  target=$out/$game-referee-py.wasm
  if stale "$target" "$file" "games/$game/wit"; then
    setup_python
    say "componentize-py: $file -> $target"
    build_py_referee "$target" "$game" "$file"
  fi
done
for file in games/*/referee-js/*.js; do
  [[ -e $file ]] || continue
  game=$(basename "$(dirname "$(dirname "$file")")")
  target=$out/$game-referee-js.wasm
  if stale "$target" "$file" "games/$game/wit"; then
    setup_js
    say "componentize-qjs: $file -> $target"
    build_js "$target" "$game" "$file" referee
  fi
done
