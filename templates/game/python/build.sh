#!/bin/sh
# Builds the package: referee.wasm from referee/referee.py and players/first.wasm from
# players/first.py, with componentize-py ($COMPONENTIZE_PY, else from PATH; the first build without one
# installs componentize-py 0.25.1 from PyPI once per user, shared by every project: into $ARENA_TOOLS,
# by default ~/.cache/arena-tools; needs python3 with venv).
set -eu
cd "$(dirname "$0")"
if [ -n "${COMPONENTIZE_PY:-}" ]; then
  cpy=$COMPONENTIZE_PY
elif command -v componentize-py >/dev/null 2>&1; then
  cpy=componentize-py
else
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
  cpy="$tools/bin/componentize-py"
fi
echo "build.sh: compiling the referee and the sample player with the Python interpreter (20 to 60 s)" >&2
"$cpy" -d wit -w arena:{{name}}/referee componentize -p referee referee -o referee.wasm
"$cpy" -d wit -w arena:{{name}}/player componentize -p players first -o players/first.wasm
echo "built referee.wasm and players/first.wasm"
