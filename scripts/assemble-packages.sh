#!/usr/bin/env bash
# Assembles every game package under games/ into OUT_DIR/<name>/ (`assemble-packages.sh PLAYERS_DIR
# OUT_DIR`): its game.toml, its WIT (the shared arena:game dependency copied in), its referee as
# referee.wasm and the sample players its manifest lists, all taken from PLAYERS_DIR where
# build-guests.sh put them (`players/greedy.wasm` of game `fish` is PLAYERS_DIR/greedy.wasm, or else
# PLAYERS_DIR/fish-greedy.wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
players=$1 out=$2
for dir in games/*/; do
  game=$(basename "$dir")
  dest=$out/$game
  rm -rf "$dest"
  mkdir -p "$dest/players"
  cp "$dir/game.toml" "$dest/"
  cp -rL "$dir/wit" "$dest/"
  if [[ -d $dir/templates ]]; then cp -r "$dir/templates" "$dest/"; fi
  cp "$players/$game-referee.wasm" "$dest/referee.wasm"
  for p in $(grep '^players' "$dir/game.toml" | grep -o 'players/[a-z0-9-]*\.wasm'); do
    name=$(basename "$p")
    if [[ -f $players/$game-$name ]]; then cp "$players/$game-$name" "$dest/$p"; else cp "$players/$name" "$dest/$p"; fi
  done
done
echo "packages: $(ls "$out" | tr '\n' ' ')"
