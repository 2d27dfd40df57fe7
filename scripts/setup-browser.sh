#!/usr/bin/env bash
# Installs what the browser tests (tests/browser) need, and is quick when it is already there:
# `setup-browser.sh TARGET_DIR` installs Debian's chromium (apt) when /usr/bin/chromium is missing and
# makes a venv with Playwright (PyPI) in TARGET_DIR/browser-venv. Playwright drives the system chromium;
# `playwright install` is never run (its browser download is not needed and often not reachable).
set -euo pipefail

TARGET_DIR=${1:-${TARGET_DIR:-${CARGO_TARGET_DIR:-target}}}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)

CHROMIUM=/usr/bin/chromium
PLAYWRIGHT_VERSION=1.65.2
VENV=$TARGET_DIR/browser-venv

say() { echo "setup-browser: $*" >&2; }

setup_chromium() {
  [[ -x $CHROMIUM ]] && return
  local sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  say "installing chromium (apt)"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium >/dev/null; then
    say "apt-get install failed; running apt-get update and trying again"
    "${sudo[@]}" apt-get update -q >/dev/null
    "${sudo[@]}" apt-get install -y -q --no-install-recommends chromium >/dev/null
  fi
  [[ -x $CHROMIUM ]] || { say "$CHROMIUM is still missing after installing chromium"; exit 1; }
}

setup_venv() {
  if [[ $("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("playwright"))' \
          2>/dev/null) == "$PLAYWRIGHT_VERSION" ]]; then
    return
  fi
  command -v python3 >/dev/null || { say "python3 is missing (Python 3.9+ with venv is needed)"; exit 1; }
  say "installing playwright $PLAYWRIGHT_VERSION (PyPI) into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "playwright==$PLAYWRIGHT_VERSION"
}

setup_chromium
setup_venv
echo "setup-browser: $("$CHROMIUM" --version 2>/dev/null | head -n1) at $CHROMIUM," \
  "playwright $PLAYWRIGHT_VERSION in $VENV (python: $VENV/bin/python)"
