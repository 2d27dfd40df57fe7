#!/bin/sh
# Builds player.wasm from app.py: a component for the Arena {{game}} world. Uses componentize-py from
# PATH; the first build without one installs componentize-py 0.25.1 from PyPI into .tools/venv (needs
# python3 with venv: Debian's python3-venv).
set -eu
cd "$(dirname "$0")"
if ! command -v componentize-py >/dev/null 2>&1; then
  if [ ! -x .tools/venv/bin/componentize-py ]; then
    echo "build.sh: installing componentize-py 0.25.1 into .tools/venv (first build only)" >&2
    python3 -m venv .tools/venv || {
      echo "build.sh: python3 cannot make a venv; install python3 and its venv module (apt-get install python3-venv)" >&2
      exit 1
    }
    .tools/venv/bin/pip install --quiet componentize-py==0.25.1
  fi
  PATH="$PWD/.tools/venv/bin:$PATH"
fi
componentize-py -d wit -w arena:{{game}}/player componentize app -o player.wasm
echo "built player.wasm"
