#!/bin/sh
# Builds player.wasm from app.py: a component for the Arena {{game}} world. Uses componentize-py from
# PATH; the first build without one installs componentize-py 0.25.1 from PyPI (about 70 MB, once per
# user, shared by every project: into $ARENA_TOOLS, by default ~/.cache/arena-tools; needs python3
# with venv: Debian's python3-venv).
set -eu
cd "$(dirname "$0")"
if ! command -v componentize-py >/dev/null 2>&1; then
  tools="${ARENA_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/arena-tools}/componentize-py-0.25.1"
  if [ ! -x "$tools/bin/componentize-py" ]; then
    echo "build.sh: installing componentize-py 0.25.1 into $tools (once per user, about 70 MB; a minute or so)" >&2
    mkdir -p "$(dirname "$tools")"
    rm -rf "$tools"
    python3 -m venv "$tools" || {
      echo "build.sh: python3 cannot make a venv; install python3 and its venv module (apt-get install python3-venv)" >&2
      exit 1
    }
    "$tools/bin/pip" install --disable-pip-version-check --progress-bar on componentize-py==0.25.1 >&2 || {
      rm -rf "$tools"
      echo "build.sh: pip could not install componentize-py 0.25.1 (is PyPI reachable?)" >&2
      exit 1
    }
  fi
  PATH="$tools/bin:$PATH"
fi
echo "build.sh: compiling app.py with the Python interpreter into player.wasm (10 to 30 s)" >&2
componentize-py -d wit -w arena:{{game}}/player componentize app -o player.wasm
echo "built player.wasm"
