#!/usr/bin/env bash
# Turns an input that makes a fuzz target fail into a regression test:
#
#   just fuzz-promote TARGET FILE NAME      (or: bash fuzz/promote.sh TARGET FILE NAME)
#
#   1. minimizes FILE with `cargo +nightly fuzz tmin TARGET FILE`;
#   2. stores the result as fuzz/regressions/TARGET/NAME, which
#      tests/library/fuzz_replay.rs replays in every `cargo test`, on
#      stable, with no code written by hand;
#   3. replays it on stable (fuzz/tools/replay.rs) to quote the check's
#      message;
#   4. prints, last, the line to put in the commit message.
#
# Without nightly and cargo-fuzz, or when FILE does not make the current fuzz
# build fail (the bug is already fixed, say), FILE is stored as it is and the
# script says why it was not minimized. NAME is a short name for the bug:
# letters, digits, '.', '_' and '-'. An existing NAME is never overwritten.
#
# Environment (the defaults are what a person wants; tests/cli/fuzz_promote.rs
# sets the others):
#   FUZZ_REGRESSIONS  the regressions folder (default fuzz/regressions)
#   FUZZ_MINIMIZE     auto (default: minimize when nightly and cargo-fuzz are
#                     there) or no
#   FUZZ_REPLAY       the command that replays on stable (default: cargo run
#                     --quiet --features fuzzing --example fuzz_replay --)
#   FUZZ_TMIN_RUNS    attempts tmin makes at each size (default 255, tmin's)
set -euo pipefail

if [ "$#" -ne 3 ]; then
    echo "usage: fuzz/promote.sh TARGET FILE NAME" >&2
    exit 2
fi
target="$1"
file="$2"
name="$3"
root="$(cd "$(dirname "$0")/.." && pwd)"
# FILE and FUZZ_REGRESSIONS may be relative to where the script was started.
file="$(cd "$(dirname "$file")" 2>/dev/null && pwd)/$(basename "$file")" || true
regressions="${FUZZ_REGRESSIONS:-$root/fuzz/regressions}"
mkdir -p "$regressions"
regressions="$(cd "$regressions" && pwd)"
cd "$root"

fail() {
    echo "promote: $*" >&2
    exit 1
}

[ -f "fuzz/fuzz_targets/$target.rs" ] ||
    fail "no target '$target'; the targets are: $(for source in fuzz/fuzz_targets/*.rs; do basename "$source" .rs; done | tr '\n' ' ')"
[ -f "$file" ] || fail "no file $2"
[[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
    fail "NAME '$name' must be letters, digits, '.', '_' and '-', starting with a letter or digit"

destination="$regressions/$target/$name"
if [ -e "$destination" ]; then
    if cmp -s "$file" "$destination"; then
        echo "promote: $destination already holds this input; nothing to do"
        exit 0
    fi
    fail "$destination already exists and differs; choose another NAME"
fi

original_size=$(wc -c <"$file")
stored="$file"
minimized_note="not minimized"
case "${FUZZ_MINIMIZE:-auto}" in
    no)
        minimized_note="not minimized: FUZZ_MINIMIZE=no"
        ;;
    auto)
        if ! command -v rustup >/dev/null 2>&1 || ! rustup run nightly rustc --version >/dev/null 2>&1; then
            minimized_note="not minimized: no nightly toolchain for cargo fuzz tmin"
        elif ! cargo +nightly fuzz --version >/dev/null 2>&1; then
            minimized_note="not minimized: cargo-fuzz is not installed (cargo install cargo-fuzz --locked)"
        else
            log="$(mktemp)"
            echo "promote: minimizing with cargo +nightly fuzz tmin $target (log: $log)"
            if cargo +nightly fuzz tmin --runs "${FUZZ_TMIN_RUNS:-255}" \
                "$target" "$file" -- -rss_limit_mb=2048 >"$log" 2>&1; then
                minimized="$(grep -A 2 '^Minimized artifact:' "$log" | sed -n 's/^[[:space:]]\{1,\}//p' | head -n 1 || true)"
                if [ -n "$minimized" ] && [ -f "$minimized" ]; then
                    stored="$minimized"
                    minimized_note="minimized from $original_size bytes by cargo fuzz tmin"
                else
                    minimized_note="not minimized: tmin named no minimized file (log: $log)"
                fi
            elif grep -q 'did not crash' "$log"; then
                minimized_note="not minimized: it does not make the current fuzz build of $target fail"
            else
                tail -n 20 "$log" >&2
                fail "cargo fuzz tmin failed (log: $log)"
            fi
        fi
        ;;
    *)
        fail "FUZZ_MINIMIZE must be auto or no, not '${FUZZ_MINIMIZE}'"
        ;;
esac

mkdir -p "$regressions/$target"
cp "$stored" "$destination"
size=$(wc -c <"$destination")
if [ "$size" -eq 1 ]; then size="1 byte"; else size="$size bytes"; fi
echo "promote: stored $destination ($size, $minimized_note)"

# The stable replay, as tests/library/fuzz_replay.rs runs it, for the check's message.
read -r -a replay <<<"${FUZZ_REPLAY:-cargo run --quiet --features fuzzing --example fuzz_replay --}"
replay_output="$("${replay[@]}" "$target" "$destination" 2>&1)" && replay_status=0 || replay_status=$?
verdict="$(printf '%s\n' "$replay_output" | grep -E '^(ok|FAIL) ' | tail -n 1)"
case "$verdict" in
    FAIL*)
        message="${verdict#*byte): }"
        message="${message#*bytes): }"
        echo "promote: the stable replay fails, as it should until the bug is fixed: $message"
        ;;
    ok*)
        message="passes on this build"
        echo "promote: the stable replay passes on this build (the bug is fixed, or needs the build it was found on)"
        ;;
    *)
        printf '%s\n' "$replay_output" >&2
        fail "the stable replay did not run (exit status $replay_status)"
        ;;
esac
echo "promote: cargo test --test library fuzz_replay:: replays it from now on; commit it with this line:"
echo "Fuzz regression $target/$name: $message ($size, $minimized_note)"
