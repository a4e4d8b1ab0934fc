#!/usr/bin/env bash
# Runs the README's two quick-start commands as a newcomer would: taken from
# README.md itself (the one-line ```sh block after each
# `<!-- quick-start: NAME -->` marker), run verbatim from the repository's
# root with `bash -c`. The solve command must print exactly the statement's
# sample answers.
#
#   .ci/readme-quick-start.sh               both commands: solve, then test
#   .ci/readme-quick-start.sh --solve-only  only the solve command (CI runs
#                                           the tests in a step of their own)
#
# Exits 1, naming the command, when one fails or prints something else.
set -euo pipefail
cd "$(dirname "$0")/.."

solve_only=false
case "${1:-}" in
    --solve-only) solve_only=true ;;
    "") ;;
    *) echo "usage: $0 [--solve-only]" >&2; exit 2 ;;
esac

# The statement's sample answers (POJ 2286), for examples/sample.txt.
expected=$'AC\n2\nDDHH\n2'

fail() {
    echo "readme-quick-start: FAILED: $*" >&2
    exit 1
}

# The command in the ```sh block right after the marker: exactly one line.
command_after() {
    local name=$1
    awk -v marker="<!-- quick-start: $name -->" '
        $0 == marker { found = 1; next }
        found == 1 && /^```sh$/ { found = 2; next }
        found == 1 && NF { exit 3 }
        found == 2 && /^```/ { exit }
        found == 2 { print; lines++ }
        END { if (found != 2 || lines != 1) exit 3 }
    ' README.md || fail "README.md has no one-line \`\`\`sh block right after <!-- quick-start: $name -->"
}

solve=$(command_after solve)
test_command=$(command_after test)

echo "readme-quick-start: running the README's solve command: $solve"
if ! output=$(bash -c "$solve"); then
    fail "the README's solve command exited with an error: $solve"
fi
if [ "$output" != "$expected" ]; then
    {
        echo "readme-quick-start: FAILED: the README's solve command printed something other than the sample answers: $solve"
        echo "expected:"; printf '%s\n' "$expected"
        echo "printed:"; printf '%s\n' "$output"
    } >&2
    exit 1
fi
echo "readme-quick-start: ok: the sample answers"

if $solve_only; then
    exit 0
fi

echo "readme-quick-start: running the README's test command: $test_command"
if ! bash -c "$test_command"; then
    fail "the README's test command failed: $test_command"
fi
echo "readme-quick-start: ok: both commands"
