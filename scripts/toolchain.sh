#!/usr/bin/env bash
# Installs the Rust toolchain that rust-toolchain.toml pins (with its components and the wasm32-wasip2
# target) when rustup does not have it yet: rustup here does not install it on first use
# (RUSTUP_AUTO_INSTALL=0). Quick when it is there; the Makefile runs it before any cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "toolchain: $*" >&2; }
command -v rustup >/dev/null || { say "no rustup: cargo must be Rust 1.97 or later (wasmtime 50)"; exit 0; }
channel=$(sed -n 's/^channel *= *"\(.*\)"$/\1/p' rust-toolchain.toml)
if rustup toolchain list 2>/dev/null | grep -q "^$channel-"; then
  exit 0
fi
say "installing Rust $channel (rust-toolchain.toml) with rustup"
if ! rustup toolchain install; then
  say "rustup could not install Rust $channel: the host needs Rust 1.97 or later (wasmtime 50); the Rust"
  say "players can still build with Debian's toolchain (scripts/build-guests.sh)"
fi
