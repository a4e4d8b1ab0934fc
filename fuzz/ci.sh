#!/usr/bin/env bash
# CI step: runs every fuzz target for FUZZ_SECONDS seconds with a fixed
# libFuzzer seed (FUZZ_SEED, default 1), starting from the committed seeds. A
# crash fails the step, and its artifact path and the command that promotes
# it to a regression test are printed.
#
# FUZZ_SECONDS defaults to FUZZ_TOTAL_SECONDS (default 180) shared evenly by
# the targets, at most 30 s each: 9 targets get 20 s. FUZZ_JOBS targets
# (default: one per core) run at a time, each on one core, so 9 targets of
# 15 s take about 80 s on 2 cores (83 s in CI); the results are printed in the targets'
# order whatever order they end in.
#
# Needs a nightly toolchain (libFuzzer instrumentation is nightly-only): when
# there is none the step says so and is skipped (exit 0). cargo-fuzz is
# installed when missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seed="${FUZZ_SEED:-1}"
# shellcheck source=fuzz/targets.sh
source fuzz/targets.sh

if ! command -v rustup >/dev/null 2>&1 || ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "fuzz: SKIPPED: no nightly Rust toolchain (install one with 'rustup toolchain install nightly')"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz: cargo-fuzz is missing; installing it"
    cargo install cargo-fuzz --locked
fi

echo "fuzz: building the targets ($(cargo +nightly fuzz --version), $(rustup run nightly rustc --version))"
cargo +nightly fuzz build

targets="$(cargo +nightly fuzz list)"
count=$(echo "$targets" | wc -w)
total="${FUZZ_TOTAL_SECONDS:-180}"
seconds="${FUZZ_SECONDS:-$((total / count < 30 ? total / count : 30))}"

jobs="${FUZZ_JOBS:-$(nproc)}"
echo "fuzz: $count targets, ${seconds}s each, $jobs at a time"

logs="$(mktemp -d)"
# fuzz_one TARGET: one target's run from the seeds into a corpus of its own,
# the log in $logs/TARGET.log; its exit status is the run's.
fuzz_one() {
    local target="$1" corpus dictionary=() status=0
    corpus="$(mktemp -d)"
    if uses_dictionary "$target"; then
        dictionary=("-dict=fuzz/rotation.dict")
    fi
    cargo +nightly fuzz run "$target" "$corpus" "fuzz/seeds/$target" -- \
        -seed="$seed" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" \
        -print_final_stats=1 "${dictionary[@]}" >"$logs/$target.log" 2>&1 || status=$?
    rm -rf "$corpus"
    return "$status"
}

# record_one TARGET: fuzz_one, its exit status left in $logs/TARGET.status.
# shellcheck disable=SC2317 # called through each_target
record_one() {
    local status=0
    echo "fuzz: $1 for ${seconds}s (-seed=$seed), log $logs/$1.log"
    fuzz_one "$1" || status=$?
    echo "$status" >"$logs/$1.status"
}

# Up to $jobs runs at once; the results are read from the status files below.
# shellcheck disable=SC2086 # $targets is a list of words
each_target "$jobs" record_one $targets || true

failed=()
for target in $targets; do
    log="$logs/$target.log"
    if [ "$(cat "$logs/$target.status" 2>/dev/null)" = 0 ]; then
        grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 | sed "s/^/fuzz: $target: /"
        grep -E '^stat::average_exec_per_sec' "$log" | sed "s/^/fuzz: $target: /"
    else
        failed+=("$target")
        echo "fuzz: $target FAILED (whole log: $log):"
        grep -E -A 4 'panicked at|==[0-9]+==ERROR|ERROR: libFuzzer|^SUMMARY' "$log" || tail -n 40 "$log"
        grep -h -o 'Test unit written to .*' "$log" | sed "s/^/fuzz: $target: /" || true
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}; reproduce with: cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/ARTIFACT"
    echo "fuzz: once understood, make it a regression test: just fuzz-promote TARGET fuzz/artifacts/TARGET/ARTIFACT NAME"
    exit 1
fi
echo "fuzz: all targets passed"
