#!/bin/sh
# Builds player.wasm from player.js: a component for the Arena {{game}} world (needs Node.js and npm;
# componentize-qjs comes from the npm registry).
set -eu
cd "$(dirname "$0")"
npx --yes componentize-qjs@0.4.5 -w wit -n arena:{{game}}/player --sync -j player.js -o player.wasm
echo "built player.wasm"
