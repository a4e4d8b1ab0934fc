#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script for rotation-game's cargo-fuzz crate.
#
# For every target that `cargo fuzz list` names it leaves in $OUT:
#   <target>                  the libFuzzer binary (AddressSanitizer, release
#                             optimizations, debug assertions and overflow checks on)
#   <target>_seed_corpus.zip  the files of fuzz/seeds/<target>/, at the archive root
#   <target>.dict             fuzz/rotation.dict, except for the targets that
#                             read binary board encodings, not the text format
#                             (NO_DICTIONARY_TARGETS in fuzz/targets.sh)
#   <target>.options          for the slow targets (SLOW_TARGETS in
#                             fuzz/targets.sh), libFuzzer's per-input timeout
# and standalone/validate and standalone/check, the problem package's
# standalone input and output validators, which the targets of
# PROCESS_TARGETS run on every input and look for beside themselves (a
# runner has no compiler).
#
# In the builder image (.clusterfuzzlite/Dockerfile) this runs as $SRC/build.sh
# with the repository at $SRC/rotation-game. It also runs outside Docker, with
# a nightly toolchain and cargo-fuzz installed:
#   OUT=$(mktemp -d) bash .clusterfuzzlite/build.sh
# The repository is $REPO when set, else the one holding this script's
# .clusterfuzzlite/ folder, else $SRC/rotation-game.
set -euo pipefail

: "${OUT:?set OUT to the folder that receives the fuzz targets}"

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${REPO:-}" ]; then
    repo="$REPO"
elif [ "$(basename "$script_dir")" = .clusterfuzzlite ] && [ -f "$script_dir/../fuzz/Cargo.toml" ]; then
    repo="$(dirname "$script_dir")"
else
    repo="${SRC:?set SRC (the project is \$SRC/rotation-game) or REPO}/rotation-game"
fi
cd "$repo"
# shellcheck source=fuzz/targets.sh
source fuzz/targets.sh
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# cargo-fuzz needs nightly. The builder image sets RUSTUP_TOOLCHAIN already; a
# machine whose default is stable gets nightly here. (Not `cargo +nightly`: the
# builder's cargo wrapper only recognises `cargo fuzz ...` as its first words,
# which is how it turns coverage builds into instrumented `cargo build`s.)
export RUSTUP_TOOLCHAIN="${RUSTUP_TOOLCHAIN:-nightly}"

# -O alone would turn debug assertions and overflow checks off; -a keeps them,
# as `cargo fuzz build`, fuzz/ci.sh and the justfile recipes do, so these are
# the same binaries (and the same build cache) as local fuzzing uses.
cargo fuzz build -O --debug-assertions

# `cargo-fuzz fuzz list` is `cargo fuzz list` without the builder's wrapper,
# which in coverage builds would run a build instead of listing.
targets="$(cargo-fuzz fuzz list)"
if [ -z "$targets" ]; then
    echo "build.sh: cargo fuzz list named no targets" >&2
    exit 1
fi

target_dir="$(cargo metadata --format-version 1 --no-deps --manifest-path fuzz/Cargo.toml |
    grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)"
triple="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="$target_dir/$triple/release"

# zip_folder FOLDER ARCHIVE: the files under FOLDER, named relative to it.
# zip where installed (the builder image has it), else Python's zipfile.
zip_folder() {
    rm -f "$2"
    if command -v zip >/dev/null 2>&1; then
        (cd "$1" && zip -q -X -r "$2" .)
    else
        python3 - "$1" "$2" <<'PY'
import os
import sys
import zipfile

folder, archive = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            out.write(path, os.path.relpath(path, folder))
PY
    fi
}

for target in $targets; do
    if [ ! -x "$bin_dir/$target" ]; then
        echo "build.sh: no binary for $target at $bin_dir/$target" >&2
        exit 1
    fi
    cp "$bin_dir/$target" "$OUT/$target"

    seeds="fuzz/seeds/$target"
    if [ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ]; then
        zip_folder "$PWD/$seeds" "$OUT/${target}_seed_corpus.zip"
    else
        echo "build.sh: $target has no seeds in $seeds; no seed corpus"
    fi

    if uses_dictionary "$target"; then
        cp fuzz/rotation.dict "$OUT/$target.dict"
    fi
    timeout="$(input_timeout "$target")"
    if [ "$timeout" != "$INPUT_TIMEOUT" ]; then
        printf '[libfuzzer]\ntimeout = %s\n' "$timeout" >"$OUT/$target.options"
    fi
done

if [ -n "$PROCESS_TARGETS" ]; then
    # problemtools' flags with g++; the builder image may have only clang.
    if command -v g++ >/dev/null 2>&1; then
        cxx=(g++ -O2 -std=gnu++23 -static)
    else
        cxx=(clang++ -O2 -std=gnu++2b)
    fi
    mkdir -p "$OUT/standalone"
    for program in input_validators/validate output_validators/check; do
        "${cxx[@]}" -o "$OUT/standalone/$(basename "$program")" "src/package/standalone/$program.cpp"
    done
fi

echo "build.sh: $(echo "$targets" | wc -w) targets in $OUT:"
ls -l "$OUT"
