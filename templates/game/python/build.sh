#!/bin/sh
# Builds the package: referee.wasm from referee/referee.py and players/first.wasm from
# players/first.py, with componentize-py ($COMPONENTIZE_PY, else from PATH; the first build without one
# installs componentize-py 0.25.1 from PyPI into .tools/venv: needs python3 with venv).
set -eu
cd "$(dirname "$0")"
if [ -n "${COMPONENTIZE_PY:-}" ]; then
  cpy=$COMPONENTIZE_PY
elif command -v componentize-py >/dev/null 2>&1; then
  cpy=componentize-py
else
  if [ ! -x .tools/venv/bin/componentize-py ]; then
    echo "build.sh: installing componentize-py 0.25.1 into .tools/venv (first build only)" >&2
    python3 -m venv .tools/venv || {
      echo "build.sh: python3 cannot make a venv; install python3 and its venv module (apt-get install python3-venv)" >&2
      exit 1
    }
    .tools/venv/bin/pip install --quiet componentize-py==0.25.1
  fi
  cpy=.tools/venv/bin/componentize-py
fi
"$cpy" -d wit -w arena:{{name}}/referee componentize -p referee referee -o referee.wasm
"$cpy" -d wit -w arena:{{name}}/player componentize -p players first -o players/first.wasm
echo "built referee.wasm and players/first.wasm"
