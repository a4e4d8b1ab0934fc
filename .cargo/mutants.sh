#!/usr/bin/env bash
# Mutation testing, group by group: `just mutants [GROUP...]`.
#
# Each group of .cargo/mutants-groups.txt is tested over the files its globs
# name, with only the tests named for it and the other settings of
# .cargo/mutants.toml (`.cargo/group-config.py` writes that file with the
# group's globs as examine_globs). A summary table follows
# (.cargo/mutants-summary.py, also in target/mutants/summary.md): mutants,
# caught, missed, unviable, timeouts and time per group, then the mutants
# not caught by name; target/mutants/GROUP/ holds each copy's
# mutants.out/ (missed.txt lists the mutants no test caught).
#
# How it stays fast: cargo-mutants would copy the tree and build every
# dependency from scratch for each group. Instead this script keeps
# MUTANTS_JOBS copies of the source under target/mutants/tree-N/, refreshed
# from the working tree at each run but keeping their own target/ folders,
# and runs `cargo mutants --in-place --shard N/JOBS` in each copy at once:
# dependencies are built once per copy and kept between runs, and a mutant
# costs an incremental build and its group's tests.
#
# Environment:
#   MUTANTS_JOBS     copies working at once (default 2)
#   MUTANTS_SHARD    K/N: only the K-th of N shares of each group's mutants
#                    (K from 0), for spreading a campaign over machines
#                    (.github/workflows/mutants.yml); the N shares of a
#                    group are disjoint and together are the whole group,
#                    whatever MUTANTS_JOBS is on each machine
#   MUTANTS_IN_DIFF  a diff file: only the mutants in the lines it touches
#                    (`just mutants-diff BASE` makes it from git)
#   MUTANTS_RE       a regular expression: only the mutants whose name it
#                    matches (cargo mutants --re), to check the tests
#                    written for a campaign's misses without rerunning it
#   MUTANTS_BUILD_TIMEOUT  seconds a mutant's build may take (default 600
#                    while a copy has no build in the group's profile,
#                    else 180)
# Exit status: 0 when no mutant was missed or timed out, 1 otherwise, 2 on
# bad arguments or without cargo-mutants.
#
# The whole script is one function, called on its last line together with
# `exit`: bash has read all of it before it runs any of it, so editing this
# file while a campaign runs cannot change that campaign.
set -euo pipefail

main() {
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if ! cargo mutants --version >/dev/null 2>&1; then
    echo "mutants: cargo-mutants is not installed (cargo install cargo-mutants --locked)" >&2
    exit 2
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    echo "mutants: cargo-nextest is not installed (cargo install cargo-nextest --locked); .cargo/mutants.toml runs the tests with it" >&2
    exit 2
fi
jobs="${MUTANTS_JOBS:-2}"
# Machine shard K of N, and local copy J of JOBS, is cargo-mutants'
# round-robin shard K + N*J of N*JOBS: mutant I goes to the copy whose
# index is I mod N*JOBS, so the machine's copies together take exactly the
# mutants with I mod N = K.
shard_of=0
shards=1
if [ -n "${MUTANTS_SHARD:-}" ]; then
    if ! [[ "$MUTANTS_SHARD" =~ ^([0-9]+)/([1-9][0-9]*)$ ]] || [ "${BASH_REMATCH[1]}" -ge "${BASH_REMATCH[2]}" ]; then
        echo "mutants: MUTANTS_SHARD is K/N with 0 <= K < N, not '$MUTANTS_SHARD'" >&2
        exit 2
    fi
    shard_of=${BASH_REMATCH[1]}
    shards=${BASH_REMATCH[2]}
fi
# A fixed build timeout, not one relative to the baseline's build: a copy
# kept from an earlier run builds its baseline incrementally in seconds, and
# 4 times that would cut off a mutant whose constant evaluation runs until
# rustc's long_running_const_eval rejects it (about a minute). A copy's
# first baseline in a profile builds it from scratch (about 5 minutes
# here): 600 s then; once every copy has its build folder for the group's
# profile, 180 s, since a mutant that makes the
# build script's pattern-database generation endless (rank.rs's loops) is
# otherwise held for the whole 600 s. MUTANTS_BUILD_TIMEOUT overrides both.
# (Set for each group, below: it depends on the group's profile.)

# name|globs|test arguments|unit-test filter, one group a line (the filter
# may hold | itself: it is the rest of the line).
groups="$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' .cargo/mutants-groups.txt |
    sed -E -e 's/^[[:space:]]*([^|]*[^|[:space:]])[[:space:]]*\|[[:space:]]*([^|]*[^|[:space:]])[[:space:]]*\|[[:space:]]*([^|]*[^|[:space:]])[[:space:]]*\|[[:space:]]*/\1|\2|\3|/' \
        -e 's/[[:space:]]*$//')"
wanted=("$@")
for name in "${wanted[@]}"; do
    if ! cut -d'|' -f1 <<<"$groups" | grep -qx "$name"; then
        echo "mutants: no group '$name'; the groups are: $(cut -d'|' -f1 <<<"$groups" | tr '\n' ' ')" >&2
        exit 2
    fi
done
re=()
if [ -n "${MUTANTS_RE:-}" ]; then
    re=(--re "$MUTANTS_RE")
fi
in_diff=()
if [ -n "${MUTANTS_IN_DIFF:-}" ]; then
    in_diff=(--in-diff "$(cd "$(dirname "$MUTANTS_IN_DIFF")" && pwd)/$(basename "$MUTANTS_IN_DIFF")")
fi

# The copies: the working tree's files (tracked, and untracked but not
# ignored), each copy keeping its own target/.
trees=()
for ((shard = 0; shard < jobs; shard++)); do
    tree="$root/target/mutants/tree-$shard"
    mkdir -p "$tree"
    find "$tree" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
    git ls-files --cached --others --exclude-standard -z | xargs -0 cp --parents -t "$tree"
    trees+=("$tree")
done

# A test that needs what a machine may lack (bubblewrap, a writable cgroup)
# skips itself without it, and fails instead under CI (tests/support/
# skip.rs). The campaign runs as CI does: a mutant that breaks the sandbox
# must fail the tests that need it, not have them skip.
export CI=1

status=0
while IFS='|' read -r name globs tests units; do
    if [ "${#wanted[@]}" -gt 0 ] && ! printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
        continue
    fi
    out="$root/target/mutants/$name"
    rm -rf "$out"
    mkdir -p "$out"
    # Only the tests the group's filter selects run.
    filter="$units"
    read -r -a test_args <<<"$tests"
    # The test targets go to the build too (cargo-mutants builds with
    # `cargo test --no-run` before testing), so that a mutant builds only
    # the library and the group's tests. A `--profile NAME` among them is
    # the group's own cargo profile: it goes into the group's configuration
    # in place of mutants.toml's `profile` (cargo-mutants passes that one
    # to cargo itself, and cargo refuses two; nextest would take a
    # `--profile` for a nextest profile of its own).
    cargo_args=()
    profile=()
    for ((at = 0; at < ${#test_args[@]}; at++)); do
        if [ "${test_args[$at]}" = --profile ]; then
            if [ $((at + 1)) -ge ${#test_args[@]} ]; then
                echo "mutants: group $name: --profile names no profile" >&2
                exit 2
            fi
            profile=(--profile "${test_args[$((at + 1))]}")
            at=$((at + 1))
        else
            cargo_args+=("--cargo-arg=${test_args[$at]}")
        fi
    done
    read -r -a group_globs <<<"$globs"
    python3 .cargo/group-config.py "${profile[@]}" "${group_globs[@]}" >"$out/mutants.toml"
    # The profile the group's mutants are built in, as its configuration
    # says (cargo puts a profile's builds in target/NAME).
    profile_dir=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["profile"])' "$out/mutants.toml")
    # A copy that has never built in this profile builds its baseline from
    # scratch (about 5 minutes here, two copies at once).
    build_timeout=180
    for tree in "${trees[@]}"; do
        if [ ! -d "$tree/target/$profile_dir" ]; then
            build_timeout=600
        fi
    done
    build_timeout="${MUTANTS_BUILD_TIMEOUT:-$build_timeout}"
    echo "=== mutants: $name ($globs), share ${shard_of}/${shards} in $jobs copies, tests: cargo nextest run --cargo-profile $profile_dir ${cargo_args[*]#--cargo-arg=} -E '$filter' --max-fail=1:immediate"
    start=$(date +%s)
    pids=()
    for ((shard = 0; shard < jobs; shard++)); do
        cargo mutants --dir "${trees[$shard]}" --config "$out/mutants.toml" --in-place \
            --build-timeout "$build_timeout" \
            --shard "$((shard_of + shards * shard))/$((shards * jobs))" --sharding round-robin --output "$out/shard-$shard" \
            --colors never "${in_diff[@]}" "${re[@]}" "${cargo_args[@]}" \
            --cargo-test-arg=-E --cargo-test-arg="$filter" --cargo-test-arg=--max-fail=1:immediate \
            >"$out/shard-$shard.log" 2>&1 &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" || status=1
    done
    echo $(($(date +%s) - start)) >"$out/seconds"
    python3 .cargo/mutants-summary.py --group "$name" "$root/target/mutants" | tail -n +3 || true
done <<<"$groups"

echo
if [ "$shards" -gt 1 ]; then
    echo "share ${shard_of}/${shards} of each group:"
fi
ran=()
while read -r name; do
    if [ "${#wanted[@]}" -eq 0 ] || printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then
        ran+=(--group "$name")
    fi
done < <(cut -d'|' -f1 <<<"$groups")
python3 .cargo/mutants-summary.py "${ran[@]}" "$root/target/mutants" | tee "$root/target/mutants/summary.md" || true
echo "(target/mutants/GROUP/shard-N/mutants.out/ holds each copy's outcomes; this table: target/mutants/summary.md)"
return "$status"
}

main "$@"; exit
