#!/usr/bin/env bash
# Prints the absolute path of a release binary of rotation-game, building it
# first where needed:
#
#   benches/measure/binary.sh REV    the binary of revision REV (a commit, a
#                                    branch, a tag), built once in
#                                    target/revisions/COMMIT from `git
#                                    archive`, so the work tree is left alone
#   benches/measure/binary.sh ""     the work tree's, target/release/rotation-game
#   benches/measure/binary.sh        (cargo build --release)
#
# What the `just measure-*` recipes compare: their BEFORE and AFTER.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if [ -z "${1:-}" ]; then
    cargo build --release --quiet >&2
    echo "$root/target/release/rotation-game"
    exit 0
fi
rev=$(git rev-parse --short=12 "$1^{commit}")
dir="$root/target/revisions/$rev"
binary="$dir/target/release/rotation-game"
if [ ! -x "$binary" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$rev" | tar -x -C "$dir"
    echo "building $1 ($rev) in $dir (once)" >&2
    (cd "$dir" && cargo build --release --quiet >&2)
fi
echo "$binary"
