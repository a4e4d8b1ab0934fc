#!/usr/bin/env bash
# Rebuilds the seed corpora under fuzz/seeds/<target>/ from the sample input
# and from seeded generated boards. Deterministic: running it twice gives the
# same files. Run from anywhere: fuzz/make-seeds.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seeds=fuzz/seeds

game() { cargo run --quiet --bin rotation-game -- "$@"; }
encode() { cargo run --quiet --features fuzzing --example fuzz_seeds -- "$@"; }

# Both programs built before the old seeds go, so that a build failure
# leaves them as they were.
cargo build --quiet --bin rotation-game
cargo build --quiet --features fuzzing --example fuzz_seeds
rm -rf "$seeds"
for target in fuzz/fuzz_targets/*.rs; do
    mkdir -p "$seeds/$(basename "$target" .rs)"
done

# parse: valid judge input in the shapes the parser accepts ...
cp examples/sample.txt "$seeds/parse/sample"
game gen --seed 1 --boards 3 >"$seeds/parse/uniform"
game gen --seed 2 --scramble 4 --boards 2 >"$seeds/parse/scramble"
sed 's/$/\r/' examples/sample.txt >"$seeds/parse/crlf"
tr ' ' '\n' <examples/sample.txt | sed 's/^/\t/' >"$seeds/parse/one-value-a-line"
head -n 1 examples/sample.txt >"$seeds/parse/no-terminator"
printf '%s\n0\ntrailing junk after the end\n' "$(head -n 1 examples/sample.txt)" >"$seeds/parse/junk-after-zero"
# ... and each kind of error it reports.
printf '1 1 4 1\n' >"$seeds/parse/bad-value"
printf '1 2 0 3\n' >"$seeds/parse/zero-inside-case"
printf '1 1 1 1 1 1 1 1 1\n' >"$seeds/parse/ninth-digit"
printf '1 2 3' >"$seeds/parse/cut-short"
printf '01 +1 1\xc3\xa9 x\n' >"$seeds/parse/odd-tokens"
printf '1 1 4 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n%s\n0\n' \
    "$(head -n 1 examples/sample.txt)" >"$seeds/parse/bad-case-then-good"

# solve: the sample boards and one board of each optimal length 0..13,
# encoded as shuffles; and a few scrambles (odd first byte, 15 bytes of outer
# shuffle, then moves).
encode solve "$seeds/solve" sample <examples/sample.txt
for length in $(seq 0 13); do
    game gen --seed 3 --length "$length" --boards 1 | encode solve "$seeds/solve" "depth$length"
done
printf '\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02' >"$seeds/solve/scramble-1"
printf '\x03\x07\x03\x05\x01\x09\x04\x00\x02\x08\x06\x0c\x0a\x02\x01\x00\x00\x01\x02\x03' >"$seeds/solve/scramble-3"
printf '\x05\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x00\x02\x04\x06\x01\x03' >"$seeds/solve/scramble-6"

# validate: everything parse starts from (valid and invalid, lenient and
# strict), plus canonical files and each strict rule broken once.
cp "$seeds/parse/"* "$seeds/validate/"
game gen --seed 4 --length 6 --boards 4 >"$seeds/validate/canonical"
printf '0\n' >"$seeds/validate/no-cases"
sed 's/ /  /' examples/sample.txt >"$seeds/validate/double-space"
sed '1s/$/ /' examples/sample.txt >"$seeds/validate/trailing-space"
printf ' %s\n0\n' "$(head -n 1 examples/sample.txt)" >"$seeds/validate/leading-space"
head -c -1 examples/sample.txt >"$seeds/validate/no-final-newline"
printf '%s 1\n0\n' "$(head -n 1 examples/sample.txt)" >"$seeds/validate/too-many-values"

# pipeline: everything validate starts from (the pipeline reads judge input,
# the validator and the checker judge it), and longer inputs: many cases,
# and bad cases among good ones for keep_going.
cp "$seeds/validate/"* "$seeds/pipeline/"
game gen --seed 5 --uniform --boards 40 >"$seeds/pipeline/forty-cases"
{
    game gen --seed 6 --length 9 --boards 3 | head -n 3
    printf '1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n'
    game gen --seed 7 --length 4 --boards 2 | head -n 2
    printf '1 2 3 x\n'
    game gen --seed 8 --length 13 --boards 1
} >"$seeds/pipeline/bad-cases-among-good"

# board and board_deep (BoardCase: a relabelling byte, a symmetry byte, then
# a board as solve reads it): the sample boards and one board of each
# optimal length 0..13, with every relabelling and symmetry between them,
# and a few scrambles (odd board byte, 15 bytes of outer shuffle, moves).
for target in board board_deep; do
    encode "$target" "$seeds/$target" sample <examples/sample.txt
    for length in $(seq 0 13); do
        game gen --seed 3 --length "$length" --boards 1 | encode "$target" "$seeds/$target" "length$length"
    done
    printf '\x02\x05\x03\x07\x03\x05\x01\x09\x04\x00\x02\x08\x06\x0c\x0a\x02\x01\x00\x00\x01\x02\x03' >"$seeds/$target/scramble-3"
    printf '\x04\x06\x05\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x00\x02\x04\x06\x01\x03\x05\x07' >"$seeds/$target/scramble-8"
done

# check: outputs for the fixed judge input of the check target
# (rotation_game::fuzzing::CHECK_INPUT: the sample's two boards and a board
# already solved): the right one, the tolerated variants, and wrong ones.
check_input="$(head -n 2 examples/sample.txt; echo '2 2 2 2 2 2 1 1 1 2 2 1 1 3 3 1 1 1 3 3 3 3 3 3'; echo 0)"
right="$seeds/check/right"
printf '%s\n' "$check_input" | game solve >"$right"
sed 's/$/\r/' "$right" >"$seeds/check/crlf"
sed 's/$/ \t/' "$right" >"$seeds/check/trailing-blanks"
head -c -1 "$right" >"$seeds/check/no-final-newline"
{ cat "$right"; printf '\n \n'; } >"$seeds/check/blank-lines-after"
sed '1s/AC/CA/' "$right" >"$seeds/check/not-smallest"
sed '1s/AC/ACAC/' "$right" >"$seeds/check/too-long"
sed '2s/2/3/' "$right" >"$seeds/check/wrong-centre"
sed '1s/AC/A C/' "$right" >"$seeds/check/inner-space"
sed '5s/No moves needed/A/' "$right" >"$seeds/check/moves-where-none-needed"
head -n 3 "$right" >"$seeds/check/missing-cases"
{ cat "$right"; echo extra; } >"$seeds/check/extra-output"
{ cat "$right"; head -c 40 /dev/zero | tr '\0' ' '; } >"$seeds/check/over-limit"

# standalone_validator and standalone_checker: the package's standalone
# programs read what validate and check read.
cp "$seeds/validate/"* "$seeds/standalone_validator/"
cp "$seeds/check/"* "$seeds/standalone_checker/"

echo "seeds written to $seeds/:"
for dir in "$seeds"/*/; do
    echo "  $(basename "$dir"): $(find "$dir" -type f | wc -l) files, $(cat "$dir"* | wc -c) bytes"
done
