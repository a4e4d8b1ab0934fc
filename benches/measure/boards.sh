#!/usr/bin/env bash
# The boards of `stress --seed 1` (the mix of every length), one judge input
# a file, for the runs scripts' bare loops:
#
#   benches/measure/boards.sh BINARY RUNS
#
# writes target/measure/runs-RUNS/boards/NNNNNN.in and prints that folder.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=$1
runs=$2
boards=target/measure/runs-$runs/boards
mkdir -p "$boards"
rm -f "$boards"/*.in
"$binary" gen --seed 1 --mix --boards "$runs" |
    awk -v dir="$boards" '$0 != "0" { file = sprintf("%s/%06d.in", dir, NR); print > file; print "0" > file; close(file) }'
echo "$boards"
