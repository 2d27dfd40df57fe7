#!/usr/bin/env bash
# Builds the Rust sample players as WASI p2 components: `build-guests.sh OUT_DIR CRATE...` writes
# OUT_DIR/CRATE.wasm for each crate; `build-guests.sh --setup` only installs what the build needs.
#
# Standard route: rustup's wasm32-wasip2 target (added if missing), `cargo build --target wasm32-wasip2`.
# Fallback, when rustup cannot add the target or ARENA_GUEST_FALLBACK=1: Debian's Rust toolchain
# (apt) builds wasm32-wasip1 core modules with -Zbuild-std, and `wasm-tools component new` (PyPI)
# turns them into components with the WASI preview1 reactor adapter of the host's wasmtime version
# (crates.io). Everything it installs besides the Debian packages lives in $TARGET_DIR/tools.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO=${CARGO:-cargo}
TARGET_DIR=${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)
TOOLS=$TARGET_DIR/tools
# The fallback's own target directory: the two toolchains never invalidate each other's builds, and
# a host build running in $TARGET_DIR does not hold the fallback up.
FALLBACK_TARGET_DIR=$TARGET_DIR/guest-fallback

DEBIAN_PACKAGES=(rustc-web cargo-web rust-web-src lld-19 wasi-libc)
WASM_LD=/usr/lib/llvm-19/bin/wasm-ld
WASI_LIBC=/usr/lib/wasm32-wasi
WASM_TOOLS=$TOOLS/venv/bin/wasm-tools

say() { echo "build-guests: $*" >&2; }

# --- Standard route -------------------------------------------------------------------------------

have_target() { rustup target list --installed 2>/dev/null | grep -qx wasm32-wasip2; }

# Succeeds when rustup's wasm32-wasip2 target is there or can be added now.
standard_route_ready() {
  [[ ${ARENA_GUEST_FALLBACK:-0} != 1 ]] || { say "ARENA_GUEST_FALLBACK=1: using the Debian toolchain"; return 1; }
  # No rustup is no reason to stop: the fallback brings a cargo of its own (Debian's).
  command -v rustup >/dev/null || { say "no rustup: using the Debian toolchain"; return 1; }
  have_target && return 0
  say "adding the wasm32-wasip2 target with rustup"
  if rustup target add wasm32-wasip2 && have_target; then return 0; fi
  say "rustup could not add wasm32-wasip2: falling back to the Debian toolchain"
  return 1
}

build_standard() {
  local out=$1; shift
  local pkgs=() c
  for c in "$@"; do pkgs+=(-p "$c"); done
  "$CARGO" build --quiet --profile guest --target wasm32-wasip2 "${pkgs[@]}"
  for c in "$@"; do
    cp "$TARGET_DIR/wasm32-wasip2/guest/${c//-/_}.wasm" "$out/$c.wasm"
  done
}

# --- Fallback route -------------------------------------------------------------------------------

# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

setup_fallback() {
  apt_ensure "${DEBIAN_PACKAGES[@]}"
  mkdir -p "$TOOLS"
  wasm_tools_ensure

  adapter_ensure
}

# Debian's cargo and rustc (never rustup's, which come first on PATH), allowed unstable flags.
# The workspace's own crates are written for the pinned Rust (rust-toolchain.toml), newer than Debian's:
# cargo is told not to hold them to their rust-version, and rustc (through this wrapper) lets them use
# what was stabilised since, as the unstable features Debian's rustc still calls them. Only crates
# whose sources cargo names by a relative path (the workspace's) get the features: not the registry's
# crates, nor the standard library built with -Zbuild-std.
NEWER_FEATURES=let_chains
write_rustc_wrapper() {
  cat >"$TOOLS/rustc-newer" <<WRAPPER
#!/usr/bin/env bash
rustc=\$1; shift
for a in "\$@"; do
  if [[ \$a == *.rs && \$a != /* ]]; then
    exec "\$rustc" -Zcrate-attr='feature($NEWER_FEATURES)' "\$@"
  fi
done
exec "\$rustc" "\$@"
WRAPPER
  chmod +x "$TOOLS/rustc-newer"
}

debian_cargo() {
  write_rustc_wrapper
  env RUSTC=/usr/bin/rustc RUSTC_WRAPPER="$TOOLS/rustc-newer" RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_DIR="$FALLBACK_TARGET_DIR" \
    RUSTFLAGS="-C linker=$WASM_LD -C link-self-contained=no -L native=$WASI_LIBC" \
    /usr/bin/cargo "$@"
}

build_fallback() {
  local out=$1; shift
  [[ -d $FALLBACK_TARGET_DIR/wasm32-wasip1 ]] || say "first build with the Debian toolchain: about two minutes"
  local pkgs=() c
  for c in "$@"; do pkgs+=(-p "$c"); done
  debian_cargo build --quiet --profile guest --target wasm32-wasip1 -Zbuild-std=std,panic_abort \
    --ignore-rust-version "${pkgs[@]}"
  for c in "$@"; do
    "$WASM_TOOLS" component new "$FALLBACK_TARGET_DIR/wasm32-wasip1/guest/${c//-/_}.wasm" \
      --adapt "wasi_snapshot_preview1=$ADAPTER" -o "$out/$c.wasm"
  done
}

# --- Main -----------------------------------------------------------------------------------------

if [[ ${1:-} == --setup ]]; then
  standard_route_ready || setup_fallback
  exit 0
fi
if (($# < 2)); then
  echo "usage: $0 OUT_DIR CRATE... | $0 --setup" >&2
  exit 2
fi
out=$1; shift
mkdir -p "$out"
if standard_route_ready; then
  build_standard "$out" "$@"
else
  setup_fallback
  build_fallback "$out" "$@"
fi
