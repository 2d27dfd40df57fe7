#!/bin/sh
# Builds the package: referee.wasm from referee/referee.js and players/first.wasm from
# players/first.js, with componentize-qjs ($COMPONENTIZE_QJS, else through npx: needs Node.js 18+ with
# npm; the first build downloads componentize-qjs 0.4.5 from the npm registry).
set -eu
cd "$(dirname "$0")"
if [ -n "${COMPONENTIZE_QJS:-}" ]; then
  qjs() { "$COMPONENTIZE_QJS" "$@"; }
else
  command -v npx >/dev/null 2>&1 || {
    echo "build.sh: npx not found; install Node.js 18 or newer with npm (apt-get install nodejs npm)" >&2
    exit 1
  }
  qjs() { npx --yes componentize-qjs@0.4.5 "$@"; }
fi
qjs -w wit -n arena:{{name}}/referee --sync -j referee/referee.js -o referee.wasm >/dev/null
qjs -w wit -n arena:{{name}}/player --sync -j players/first.js -o players/first.wasm >/dev/null
echo "built referee.wasm and players/first.wasm"
