#!/usr/bin/env bash
# A fuzzing campaign: every target (or the TARGETs named) for SECONDS
# seconds, JOBS targets at a time, each on one core, keeping its corpus:
#
#   just fuzz-campaign SECONDS [JOBS [TARGET...]]
#   (or: bash fuzz/campaign.sh SECONDS [JOBS [TARGET...]])
#
# For each target it runs
#   cargo +nightly fuzz run TARGET fuzz/corpus/TARGET fuzz/seeds/TARGET --
#       -max_total_time=SECONDS -print_final_stats=1 [-dict=fuzz/rotation.dict] ...
# with the log in fuzz/logs/TARGET.log; a crash ends that target's run (its
# input is in fuzz/artifacts/TARGET/) and the campaign goes on with the
# others. fuzz/logs/campaign.txt records the campaign's settings and the
# machine, and fuzz/logs/TARGET.run each target's own run: when it started,
# its settings and the machine's 1-minute load average every 30 s while it
# ran, so that a target fuzzed again later keeps a true record beside the
# others'. Then `just fuzz-report` makes the table.
#
# Exit status: 0 when no target crashed, 1 when one did, 2 on bad arguments
# or without nightly and cargo-fuzz.
set -euo pipefail

seconds="${1:-}"
jobs="${2:-1}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]] || ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/campaign.sh SECONDS [JOBS [TARGET...]]   (SECONDS per target, JOBS targets at a time)" >&2
    exit 2
fi
shift $(($# < 2 ? $# : 2))
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=fuzz/targets.sh
source fuzz/targets.sh

if ! command -v rustup >/dev/null 2>&1 || ! rustup run nightly rustc --version >/dev/null 2>&1 ||
    ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "campaign: needs a nightly toolchain and cargo-fuzz (rustup toolchain install nightly; cargo install cargo-fuzz --locked)" >&2
    exit 2
fi

cargo +nightly fuzz build
all_targets="$(cargo +nightly fuzz list)"
targets="$all_targets"
if [ "$#" -gt 0 ]; then
    for target in "$@"; do
        if ! grep -qx "$target" <<<"$all_targets"; then
            echo "campaign: no target '$target'; the targets are: $(echo "$all_targets" | tr '\n' ' ')" >&2
            exit 2
        fi
    done
    targets="$*"
fi
mkdir -p fuzz/logs
record=fuzz/logs/campaign.txt
# settings: the campaign's settings and the machine, as key=value lines.
settings() {
    echo "seconds=$seconds"
    echo "jobs=$jobs"
    echo "cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
    echo "cores=$(nproc)"
    echo "toolchain=$(rustup run nightly rustc --version)"
}
{
    echo "started=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "targets=$(echo "$targets" | tr '\n' ' ')"
    settings
} >"$record"

# The machine's load, sampled while the campaign runs: "seconds load" lines.
load_samples="$(mktemp)"
(
    while true; do
        echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg)" >>"$load_samples"
        sleep 30
    done
) &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true; rm -f "$load_samples"' EXIT

# fuzz_one TARGET: one target's run; prints one line saying how it ended.
# shellcheck disable=SC2317 # called through each_target
fuzz_one() {
    local target="$1" dictionary=()
    if uses_dictionary "$target"; then
        dictionary=(-dict=fuzz/rotation.dict)
    fi
    mkdir -p "fuzz/corpus/$target"
    local started status=0
    started=$(date +%s)
    cargo +nightly fuzz run "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" \
        "${dictionary[@]}" >"fuzz/logs/$target.log" 2>&1 || status=$?
    {
        echo "started=$(date -u -d "@$started" '+%Y-%m-%d %H:%M UTC')"
        settings
        echo "load_samples=$(awk -v from="$started" -v to="$(date +%s)" \
            '$1 >= from && $1 <= to { printf "%s ", $2 }' "$load_samples")"
    } >"fuzz/logs/$target.run"
    if [ "$status" -eq 0 ]; then
        echo "campaign: $target: $(grep -E '^stat::average_exec_per_sec' "fuzz/logs/$target.log" | tr -s ' ')"
    else
        echo "campaign: $target CRASHED: $(grep -h -o 'Test unit written to .*' "fuzz/logs/$target.log" | tail -n 1)"
        return 1
    fi
}
echo "campaign: $(echo "$targets" | wc -w) targets, ${seconds}s each, $jobs at a time; logs in fuzz/logs/"
status=0
# shellcheck disable=SC2086 # $targets is a list of words
each_target "$jobs" fuzz_one $targets || status=1

{
    echo "finished=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "load_samples=$(cut -d' ' -f2 "$load_samples" | tr '\n' ' ')"
} >>"$record"
if [ "$status" -ne 0 ]; then
    echo "campaign: a target crashed; promote each crash once understood: just fuzz-promote TARGET FILE NAME"
fi
echo "campaign: done; the table: just fuzz-report"
exit "$status"
