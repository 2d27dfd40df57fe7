#!/bin/sh
# Builds player.wasm from player.js: a component for the Arena {{game}} world. Needs Node.js 18+ with
# npm; the first build downloads componentize-qjs 0.4.5 from the npm registry (npx keeps it cached).
set -eu
cd "$(dirname "$0")"
command -v npx >/dev/null 2>&1 || {
  echo "build.sh: npx not found; install Node.js 18 or newer with npm (apt-get install nodejs npm)" >&2
  exit 1
}
npx --yes componentize-qjs@0.4.5 -w wit -n arena:{{game}}/player --sync -j player.js -o player.wasm
echo "built player.wasm"
