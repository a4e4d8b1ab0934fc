#!/usr/bin/env bash
# What a judged run costs in two builds, side by side: `stress` of each
# build, with and without the sandbox, 1 and 2 jobs, against the same
# program started bare, interleaved run by run (measure.py).
#
#   benches/measure/runs-against.sh BEFORE AFTER [RUNS] [ROUNDS]
#
# BEFORE and AFTER are binaries (`benches/measure/binary.sh REV` builds one
# of a revision). The program under test is `AFTER solve` in every command,
# one board a run (the boards of `stress --seed 1`, the mix of every
# length), so that only the judge differs.
set -euo pipefail
cd "$(dirname "$0")/../.."

before=$(realpath "$1")
after=$(realpath "$2")
runs=${3:-200}
rounds=${4:-3}
boards=$(benches/measure/boards.sh "$after" "$runs")

program="$after solve"
each="for board in $boards/*.in; do"
campaign="--program '$program' --seed 1 --boards $runs --mix --cases-per-run 1"

echo "runs: $runs, one board each; rounds: $rounds; $(nproc) cores; $(bwrap --version)"
echo "before: $before"
echo "after:  $after"
benches/measure/measure.py --rounds "$rounds" --items "$runs" --what runs \
    --speed-up "on-after-1/on-before-1" --speed-up "on-after-2/on-before-2" \
    --speed-up "off-after-1/off-before-1" \
    --speed-up "on-before-1/exec-bare-1" --speed-up "on-after-1/exec-bare-1" \
    "exec-bare-1=$each $program < \$board; done" \
    "off-before-1=$before stress $campaign --jobs 1 --sandbox off" \
    "off-after-1=$after stress $campaign --jobs 1 --sandbox off" \
    "on-before-1=$before stress $campaign --jobs 1 --sandbox on" \
    "on-after-1=$after stress $campaign --jobs 1 --sandbox on" \
    "on-before-2=$before stress $campaign --jobs 2 --sandbox on" \
    "on-after-2=$after stress $campaign --jobs 2 --sandbox on"
