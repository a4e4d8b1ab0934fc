#!/usr/bin/env bash
# The campaign report: one Markdown row per fuzz target (executions per
# second, corpus, line coverage of the modules it exercises, last crash),
# from what `just fuzz-campaign` left in fuzz/:
#
#   just fuzz-report        (or: bash fuzz/report.sh)
#
# Coverage comes from `cargo fuzz coverage` over each target's corpus and
# seeds, read by llvm-cov (nightly's llvm-tools-preview component). Without
# nightly, cargo-fuzz or llvm-tools the table is printed without coverage,
# and says why. The table itself is fuzz/tools/report.rs.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
coverage=()
if ! command -v rustup >/dev/null 2>&1 || ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "report: no coverage: no nightly toolchain" >&2
elif ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "report: no coverage: cargo-fuzz is not installed (cargo install cargo-fuzz --locked)" >&2
elif ! rustup component list --toolchain nightly --installed | grep -q '^llvm-tools'; then
    echo "report: no coverage: llvm-tools-preview is not installed (rustup component add llvm-tools-preview --toolchain nightly)" >&2
else
    host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
    llvm_cov="$(rustc +nightly --print sysroot)/lib/rustlib/$host/bin/llvm-cov"
    mkdir -p fuzz/logs
    for target in $(cd fuzz && cargo +nightly fuzz list); do
        mkdir -p "fuzz/corpus/$target"
        echo "report: coverage of $target over its corpus and seeds (log: fuzz/logs/$target-coverage.log)" >&2
        if ! (cd fuzz && cargo +nightly fuzz coverage "$target" "corpus/$target" "seeds/$target" -- -rss_limit_mb=2048) \
            >"fuzz/logs/$target-coverage.log" 2>&1; then
            echo "report: cargo fuzz coverage $target failed; its last lines:" >&2
            tail -n 10 "fuzz/logs/$target-coverage.log" >&2
        fi
    done
    coverage=(--llvm-cov "$llvm_cov" --coverage-bin-dir "fuzz/target/$host/coverage/$host/release")
fi
cargo run --quiet --features fuzzing --example fuzz_report -- --fuzz-dir fuzz "${coverage[@]}"
