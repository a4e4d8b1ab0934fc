#!/usr/bin/env bash
# What a judged run costs: `stress` with and without the sandbox, against the
# same program started bare and in a bare bubblewrap, run by run, interleaved
# (measure.py), with 1 and 2 jobs.
#
#   benches/measure/runs.sh BINARY [RUNS] [ROUNDS]
#
# The program under test is `BINARY solve`, one board a run (the boards of
# `stress --seed 1`, the mix of every length). The bare loops start it once
# per board from a shell, as a judge's script would:
#   bare exec     PROGRAM < board
#   bare bwrap    bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc PROGRAM < board
# and `stress` runs the same boards judged, limited and measured. The rates
# are runs per second; the speed-ups say how many times slower the others
# are than the bare bubblewrap start (minimum wall time, and median CPU time
# of everything each command waited for).
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=$(realpath "$1")
runs=${2:-200}
rounds=${3:-3}
boards=$(benches/measure/boards.sh "$binary" "$runs")

program="$binary solve"
bwrap_bare="bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc"
each="for board in $boards/*.in; do"
parallel="ls $boards/*.in | xargs -P 2 -I{} sh -c"
stress="$binary stress --program '$program' --seed 1 --boards $runs --mix --cases-per-run 1"

echo "runs: $runs, one board each; rounds: $rounds; $(nproc) cores; $("$binary" --version); $(bwrap --version)"
benches/measure/measure.py --rounds "$rounds" --items "$runs" --what runs \
    --speed-up "stress-on-1/bwrap-bare-1" --speed-up "stress-off-1/exec-bare-1" \
    --speed-up "stress-on-2/bwrap-bare-2" --speed-up "stress-off-2/exec-bare-2" \
    "exec-bare-1=$each $program < \$board; done" \
    "bwrap-bare-1=$each $bwrap_bare $program < \$board; done" \
    "stress-off-1=$stress --jobs 1 --sandbox off" \
    "stress-on-1=$stress --jobs 1 --sandbox on" \
    "exec-bare-2=$parallel '$program < {}'" \
    "bwrap-bare-2=$parallel '$bwrap_bare $program < {}'" \
    "stress-off-2=$stress --jobs 2 --sandbox off" \
    "stress-on-2=$stress --jobs 2 --sandbox on"
