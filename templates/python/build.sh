#!/bin/sh
# Builds player.wasm from app.py: a component for the Arena {{game}} world
# (needs componentize-py: `pip install componentize-py==0.25.1`).
set -eu
cd "$(dirname "$0")"
componentize-py -d wit -w arena:{{game}}/player componentize app -o player.wasm
echo "built player.wasm"
