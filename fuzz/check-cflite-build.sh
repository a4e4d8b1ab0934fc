#!/usr/bin/env bash
# CI step: checks the ClusterFuzzLite build script outside Docker. Runs
# .clusterfuzzlite/build.sh with temporary SRC and OUT folders, then checks
# that every target `cargo fuzz list` names has in $OUT
#   - its binary, executable, with libFuzzer's entry point in it,
#   - <target>_seed_corpus.zip holding exactly the files of fuzz/seeds/<target>/,
#   - <target>.dict equal to fuzz/rotation.dict, except for the targets
#     listed in NO_DICTIONARY_TARGETS (fuzz/targets.sh), which must have none,
#   - <target>.options setting libFuzzer's timeout for the slow targets
#     (SLOW_TARGETS), and none for the others,
# that standalone/validate and standalone/check are there for the targets
# that run them (PROCESS_TARGETS),
# and that each binary runs over its seeds (-runs=0: no fuzzing).
#
# Needs a nightly toolchain and cargo-fuzz; without them it says SKIPPED and
# exits 0. Run after fuzz/ci.sh, it reuses that build (same flags, same
# fuzz/target folder).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=fuzz/targets.sh
source fuzz/targets.sh

if ! command -v rustup >/dev/null 2>&1 || ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "cflite-build: SKIPPED: no nightly Rust toolchain (install one with 'rustup toolchain install nightly')"
    exit 0
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "cflite-build: SKIPPED: cargo-fuzz is not installed (install it with 'cargo install cargo-fuzz --locked')"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "cflite-build: SKIPPED: python3 is not installed (it reads the seed archives)"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
out="$work/out"

echo "cflite-build: .clusterfuzzlite/build.sh with SRC=$work/src OUT=$out"
start=$(date +%s)
if ! SRC="$work/src" OUT="$out" REPO="$root" bash .clusterfuzzlite/build.sh >"$work/build.log" 2>&1; then
    echo "cflite-build: FAILED: build.sh exited non-zero; its last lines:"
    tail -n 40 "$work/build.log"
    exit 1
fi
echo "cflite-build: build.sh took $(($(date +%s) - start)) s"

# Lists the names in a zip archive, one a line.
zip_names() {
    python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$1"
}

problems=()
targets="$(cargo fuzz list)"
for target in $targets; do
    binary="$out/$target"
    if [ ! -x "$binary" ]; then
        problems+=("$target: no executable $target in OUT")
    elif ! grep -q LLVMFuzzerTestOneInput "$binary"; then
        problems+=("$target: $target in OUT is not a libFuzzer binary")
    fi

    seeds="fuzz/seeds/$target"
    archive="$out/${target}_seed_corpus.zip"
    if [ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ]; then
        if [ ! -f "$archive" ]; then
            problems+=("$target: no ${target}_seed_corpus.zip in OUT")
        elif ! diff <(cd "$seeds" && find . -type f | sed 's|^\./||' | sort) \
            <(zip_names "$archive" | grep -v '/$' | sort) >/dev/null; then
            problems+=("$target: ${target}_seed_corpus.zip does not hold exactly the files of $seeds")
        elif [ -x "$binary" ]; then
            corpus="$work/corpus-$target"
            mkdir -p "$corpus"
            python3 -m zipfile -e "$archive" "$corpus"
            if ! "$binary" -runs=0 -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" \
                -artifact_prefix="$work/" "$corpus" >"$work/$target-run.log" 2>&1; then
                problems+=("$target: the binary failed on its seeds (log: $(tail -n 5 "$work/$target-run.log" | tr '\n' ' '))")
            fi
        fi
    fi

    if uses_dictionary "$target"; then
        if ! cmp -s fuzz/rotation.dict "$out/$target.dict"; then
            problems+=("$target: $target.dict missing from OUT or not fuzz/rotation.dict")
        fi
    elif [ -e "$out/$target.dict" ]; then
        problems+=("$target: has $target.dict but reads no text (NO_DICTIONARY_TARGETS)")
    fi
    timeout="$(input_timeout "$target")"
    if [ "$timeout" != "$INPUT_TIMEOUT" ]; then
        if ! grep -qx "timeout = $timeout" "$out/$target.options" 2>/dev/null; then
            problems+=("$target: no $target.options with timeout = $timeout")
        fi
    elif [ -e "$out/$target.options" ]; then
        problems+=("$target: has $target.options but is not slow (SLOW_TARGETS)")
    fi
done

if [ -n "$PROCESS_TARGETS" ]; then
    for program in validate check; do
        if [ ! -x "$out/standalone/$program" ]; then
            problems+=("standalone/$program missing from OUT (the targets $PROCESS_TARGETS run it)")
        fi
    done
fi

echo "cflite-build: OUT holds:"
(cd "$out" && ls -l)
if [ "${#problems[@]}" -gt 0 ]; then
    printf 'cflite-build: FAILED: %s\n' "${problems[@]}"
    exit 1
fi
echo "cflite-build: all $(echo "$targets" | wc -w) targets have their binary, seed corpus and dictionary"
