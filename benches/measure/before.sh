#!/usr/bin/env bash
# Builds the release binary of commit REV in target/before/REV (from `git
# archive`, so that the work tree is left alone) unless it is there already,
# and prints its path.
#
#   benches/measure/before.sh REV
set -euo pipefail
rev=$(git rev-parse --short=12 "$1^{commit}")
dir="target/before/$rev"
binary="$dir/target/release/rotation-game"
if [ ! -x "$binary" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$rev" | tar -x -C "$dir"
    echo "building $rev in $dir (once)" >&2
    (cd "$dir" && cargo build --release --quiet >&2)
fi
echo "$binary"
