#!/usr/bin/env bash
# Mutation testing, group by group: `just mutants [GROUP...]`.
#
# Each group of .cargo/mutants-groups.txt is one `cargo mutants` run over
# the mutants its regular expression selects, testing each with only the
# tests named for it, with the settings of .cargo/mutants.toml; its results
# go to target/mutants/GROUP/mutants.out/. A summary table follows: mutants,
# caught, missed, unviable, timeouts and time per group. A missed mutant is
# listed in target/mutants/GROUP/mutants.out/missed.txt.
#
# Environment:
#   MUTANTS_JOBS     parallel builds and tests (default 2)
#   MUTANTS_IN_DIFF  a diff file: only the mutants in the lines it touches
#                    (`just mutants-diff BASE` makes it from git)
# Exit status: 0 when no mutant was missed or timed out, 1 otherwise, 2 on
# bad arguments or without cargo-mutants.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if ! cargo mutants --version >/dev/null 2>&1; then
    echo "mutants: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
    exit 2
fi

# name|regex|test arguments, one group a line.
groups="$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' .cargo/mutants-groups.txt |
    sed -e 's/[[:space:]]*|[[:space:]]*/|/g' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"
wanted=("$@")
for name in "${wanted[@]}"; do
    if ! cut -d'|' -f1 <<<"$groups" | grep -qx "$name"; then
        echo "mutants: no group '$name'; the groups are: $(cut -d'|' -f1 <<<"$groups" | tr '\n' ' ')" >&2
        exit 2
    fi
done
in_diff=()
if [ -n "${MUTANTS_IN_DIFF:-}" ]; then
    in_diff=(--in-diff "$MUTANTS_IN_DIFF")
fi

summary="$(mktemp)"
trap 'rm -f "$summary"' EXIT
status=0
while IFS='|' read -r name regex tests; do
    if [ "${#wanted[@]}" -gt 0 ] && ! printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
        continue
    fi
    out="target/mutants/$name"
    mkdir -p "$out"
    echo "=== mutants: $name ($regex), tests: $tests"
    start=$(date +%s)
    read -r -a test_args <<<"$tests"
    cargo mutants --jobs "${MUTANTS_JOBS:-2}" --re "$regex" --output "$out" "${in_diff[@]}" \
        -- "${test_args[@]}" || status=1
    seconds=$(($(date +%s) - start))
    python3 - "$out/mutants.out/outcomes.json" "$name" "$seconds" >>"$summary" <<'PY'
import json
import sys

path, name, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    with open(path) as file:
        outcomes = json.load(file)
except OSError:
    print(f"| {name} | no outcomes (cargo mutants stopped early) | | | | | {seconds} s |")
    sys.exit()
counts = {key: outcomes.get(key, 0) for key in ("total_mutants", "caught", "missed", "unviable", "timeout")}
print(f"| {name} | {counts['total_mutants']} | {counts['caught']} | {counts['missed']} "
      f"| {counts['unviable']} | {counts['timeout']} | {seconds // 60} min {seconds % 60} s |")
PY
done <<<"$groups"

echo
echo "| group | mutants | caught | missed | unviable | timeout | time |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
cat "$summary"
echo "(missed mutants: target/mutants/GROUP/mutants.out/missed.txt)"
exit "$status"
