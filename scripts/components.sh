#!/usr/bin/env bash
# The Rust component crates of every game, found in the game folders: each referee (games/*/referee)
# and each Rust sample player (games/*/players/rust/*) whose crate builds a cdylib. Printed one name a
# line; `make players` builds each into target/players/NAME.wasm. A new game edits no list.
set -euo pipefail
cd "$(dirname "$0")/.."
for manifest in games/*/referee/Cargo.toml games/*/players/rust/*/Cargo.toml; do
  [[ -e $manifest ]] || continue
  grep -q 'cdylib' "$manifest" || continue
  sed -n 's/^name = "\(.*\)"$/\1/p' "$manifest" | head -1
done
