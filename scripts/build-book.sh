#!/usr/bin/env bash
# Builds the book (docs/) into TARGET_DIR/book with mdBook, installed from crates.io under
# TARGET_DIR/tools/mdbook on first use (or taken from PATH when it is the pinned version).
set -euo pipefail
target=${1:-target}
version=0.5.4
here=$(cd "$(dirname "$0")/.." && pwd)
root="$target/tools/mdbook"
mdbook="$root/bin/mdbook"
if command -v mdbook >/dev/null && mdbook --version | grep -q "v$version"; then
    mdbook=$(command -v mdbook)
elif ! [ -x "$mdbook" ] || ! "$mdbook" --version | grep -q "v$version"; then
    echo "installing mdbook $version from crates.io into $root (once; about two minutes) …"
    if ! cargo install --locked --quiet --no-default-features --version "$version" --root "$root" \
        --target-dir "$target/tools/mdbook-build" mdbook; then
        echo "error: cannot install mdbook $version from crates.io; install it yourself (cargo install mdbook@$version) and put it on PATH" >&2
        exit 1
    fi
fi
"$mdbook" build "$here/docs" --dest-dir "$(cd "$target" && pwd)/book"
echo "the book: $(cd "$target" && pwd)/book/index.html"
