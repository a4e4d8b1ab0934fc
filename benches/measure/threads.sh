#!/usr/bin/env bash
# Per-thread CPU time of a command, from the scheduler's own accounting
# (`perf sched record`, which traces context switches only, so it costs
# little): each thread's time on a core, the total, the busiest thread, and
# the wall time the run would take on N free cores, max(busiest, total / N).
# On a loaded machine the threads' shares show who got a core, not the
# design; the total and the ideal wall do not depend on it as much.
#
#   benches/measure/threads.sh ROUNDS CORES COMMAND...
set -euo pipefail
rounds=$1
cores=$2
shift 2
if ! command -v perf >/dev/null || ! perf sched record -q -o /dev/null -- true 2>/dev/null; then
    echo "threads.sh: perf sched is not available here; skipped"
    exit 0
fi
data=$(mktemp)
trap 'rm -f "$data"' EXIT
for _ in $(seq "$rounds"); do
    perf sched record -q -o "$data" -- "$@" > /dev/null 2>&1
    # The summary's "Terminated tasks": one line per thread of the command,
    # its run time (ms) in the fourth column.
    perf sched timehist -i "$data" -s 2>/dev/null |
        sed -n '/Terminated tasks/,/Idle stats/p' |
        awk -v name="$(basename "$1")" -v cores="$cores" '
            index($1, substr(name, 1, 15)) == 1 {
                time[NR] = $4; total += $4; if ($4 > busiest) busiest = $4
                threads = threads sprintf(" %.1f", $4)
            }
            END {
                ideal = busiest > total / cores ? busiest : total / cores
                printf "threads (ms):%s | total %.1f ms, busiest %.1f ms, ideal wall on %d free cores %.1f ms\n",
                    threads, total, busiest, cores, ideal
            }'
done
