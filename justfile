# Tasks for rotation-game. `just --list` shows them.

# Build the release binary.
build:
    cargo build --release

# Run every test (as CI does, snapshots are compared, never written).
test:
    CI=1 cargo test

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --check
    cargo clippy --all-targets -- -D warnings

# Solve a judge input (the sample by default) with the default solver.
solve INPUT="examples/sample.txt" *ARGS="":
    cargo run --release -- solve {{INPUT}} {{ARGS}}

# Wall-clock benchmarks (criterion).
bench *ARGS="":
    cargo bench --bench solve -- {{ARGS}}

# Judge OUTPUT for INPUT, optionally with the jury ANSWER (exit 0 OK, 1 WA, 2 PE, 3 FAIL).
check input output *answer:
    cargo run --release --quiet -- check {{input}} {{output}} {{answer}}

# Judge a program on generated boards (one string): just stress "./a.out" --seed 1 --boards 1000
stress program *flags:
    cargo run --release --quiet -- stress --program {{quote(program)}} {{flags}}

# Draw a board, optionally replaying moves: just show 111132323132231222312133 --moves AC
show board *flags:
    cargo run --release --quiet -- show {{quote(board)}} {{flags}}

# Generate boards (e.g. just gen --seed 1 --length 9 --boards 5).
gen *ARGS:
    cargo run --release --quiet -- gen {{ARGS}}

# Verification campaign (e.g. just verify --seed 1 --uniform --boards 100000 --solvers pdb,ida).
verify *ARGS:
    cargo run --release --quiet -- verify {{ARGS}}

# Exact census of all 9,465,511,770 boards.
census *ARGS:
    cargo run --release --quiet -- census {{ARGS}}

# Write a contest's problem package (e.g. just package rotationgame --seed 1).
package *ARGS:
    cargo run --release --quiet -- package {{ARGS}}

# Check the package of seed 1 with problemtools' verifyproblem, installing what is missing (--skip-statement: no LaTeX).
verify-package *ARGS:
    bash .ci/verify-package.sh {{ARGS}}

# Check the package of seed 1 with BAPCtools 2026.10.0 (bt validate, bt run), installed into target/bapctools-venv.
verify-package-bt *ARGS:
    bash .ci/verify-package-bt.sh {{ARGS}}

# package --calibrate through the binary on the seed-1 package (4 to 5 minutes; not in CI, for time).
package-calibrate-test:
    CI=1 cargo test --release --test cli -- --ignored --nocapture package_calibrate::

# The gungraun-runner version must equal the gungraun crate's in Cargo.lock.
gungraun_version := `grep -A1 'name = "gungraun-runner"' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p'`

# Install gungraun-runner at the version Cargo.lock pins, if it is not there yet.
gungraun-runner:
    #!/usr/bin/env bash
    set -euo pipefail
    if [ "$(gungraun-runner --version 2>/dev/null)" != "gungraun-runner {{gungraun_version}}" ]; then
        cargo install gungraun-runner --version {{gungraun_version}} --locked
    fi

# Run the instruction-count benches and fail if any regressed by more than 3% against the baseline.
perf-gate: gungraun-runner
    cargo bench --bench instructions -- --output-format=json > target/instructions.jsonl
    cargo test --test library -- --ignored --nocapture perf_gate::

# Rewrite benches/instructions.baseline from a fresh run of the instruction-count benches.
perf-update: gungraun-runner
    cargo bench --bench instructions -- --output-format=json > target/instructions.jsonl
    PERF_GATE_UPDATE=1 cargo test --test library -- --ignored --nocapture perf_gate::

# Save a criterion wall-clock baseline under NAME.
bench-save NAME:
    cargo bench --bench solve -- --save-baseline {{NAME}}

# Compare the wall-clock benches with the criterion baseline NAME.
bench-compare NAME:
    cargo bench --bench solve -- --baseline {{NAME}}

# What the measure-* recipes compare: BEFORE, a revision (a commit, branch
# or tag; main by default), with AFTER, another revision or, left empty, the
# work tree (benches/measure/binary.sh builds each once).
measure_before := "main"

# Run the instruction-count benches and print their counts; `--bmf FILE` also writes them in the Bencher Metric Format (push with `bencher run --adapter json --file FILE`).
perf-bench *ARGS: gungraun-runner
    cargo run --quiet --features perf-history --bin perf-history -- bench {{ARGS}}

# The instruction-count benches on each of the last N commits, one worktree and one build at a time: target/perf-history/history.csv, one SVG chart per bench, and all.svg.
perf-history N: gungraun-runner
    cargo run --quiet --features perf-history --bin perf-history -- run {{N}}

# Draw the perf-history charts again from target/perf-history/history.csv, and copy all.svg to docs/perf-history.svg.
perf-history-chart:
    cargo run --quiet --features perf-history --bin perf-history -- chart
    mkdir -p docs
    cp target/perf-history/all.svg docs/perf-history.svg

# solve on BOARDS uniform boards: BEFORE's binary and AFTER's (the work tree's by default), 1 and 2 threads, interleaved: wall, CPU, peak memory, boards per second.
measure-solve BOARDS="1000000" ROUNDS="15" BEFORE=measure_before AFTER="":
    #!/usr/bin/env bash
    set -euo pipefail
    before=$(benches/measure/binary.sh {{quote(BEFORE)}})
    after=$(benches/measure/binary.sh {{quote(AFTER)}})
    input=target/measure/uniform-{{BOARDS}}.txt
    mkdir -p target/measure
    [ -f "$input" ] || "$after" gen --seed 1 --uniform --boards {{BOARDS}} > "$input"
    cmp <("$before" solve "$input") <("$after" solve --threads 2 "$input") && echo "output identical to {{BEFORE}}'s"
    benches/measure/measure.py --rounds {{ROUNDS}} --items {{BOARDS}} --what boards \
        --speed-up "after, 1 thread/before, 1 thread" \
        --speed-up "after, 2 threads/after, 1 thread" \
        --speed-up "before, 2 threads/before, 1 thread" \
        "after, 1 thread=$after solve --threads 1 $input" \
        "after, 2 threads=$after solve --threads 2 $input" \
        "before, 1 thread=$before solve --threads 1 $input" \
        "before, 2 threads=$before solve --threads 2 $input"
    echo "per-thread CPU time (perf sched), after: 1 thread, then 2 threads"
    benches/measure/threads.sh 5 2 "$after" solve --threads 1 "$input"
    benches/measure/threads.sh 5 2 "$after" solve --threads 2 "$input"
    echo "start-up: the statement's sample, whole process"
    benches/measure/measure.py --rounds 50 \
        "before=$before solve examples/sample.txt" \
        "after=$after solve examples/sample.txt"

# check on CASES uniform cases and their right answers, BEFORE's binary and AFTER's, interleaved (--output-limit above the 18 bytes a case can take).
measure-check CASES="1000000" ROUNDS="7" BEFORE=measure_before AFTER="":
    #!/usr/bin/env bash
    set -euo pipefail
    before=$(benches/measure/binary.sh {{quote(BEFORE)}})
    after=$(benches/measure/binary.sh {{quote(AFTER)}})
    input=target/measure/uniform-{{CASES}}.txt
    mkdir -p target/measure
    [ -f "$input" ] || "$after" gen --seed 1 --uniform --boards {{CASES}} > "$input"
    "$after" solve --threads 2 "$input" > "$input.answers"
    limit=$(( {{CASES}} * 18 + 1024 ))
    benches/measure/measure.py --rounds {{ROUNDS}} --items {{CASES}} --what cases \
        "before=$before check --output-limit $limit $input $input.answers" \
        "after=$after check --output-limit $limit $input $input.answers"

# The cross-check: verify --uniform --boards BOARDS --solvers pdb,ida, BEFORE's binary and AFTER's, interleaved; then ida alone on 300 uniform boards and bfs alone on 20 boards of length 8.
measure-verify BOARDS="20000" ROUNDS="3" BEFORE=measure_before AFTER="":
    #!/usr/bin/env bash
    set -euo pipefail
    before=$(benches/measure/binary.sh {{quote(BEFORE)}})
    after=$(benches/measure/binary.sh {{quote(AFTER)}})
    mkdir -p target/measure
    benches/measure/measure.py --rounds {{ROUNDS}} --items {{BOARDS}} --what boards \
        "before=$before verify --seed 1 --uniform --boards {{BOARDS}} --solvers pdb,ida --threads 2" \
        "after=$after verify --seed 1 --uniform --boards {{BOARDS}} --solvers pdb,ida --threads 2"
    "$after" gen --seed 3 --uniform --boards 300 > target/measure/ida-300.txt
    "$after" gen --seed 8 --length 8 --boards 20 > target/measure/bfs-20.txt
    cmp <("$before" solve --solver ida target/measure/ida-300.txt) <("$after" solve --solver ida target/measure/ida-300.txt) && echo "ida: output identical to {{BEFORE}}'s"
    benches/measure/measure.py --rounds {{ROUNDS}} --items 300 --what boards \
        "ida before=$before solve --solver ida target/measure/ida-300.txt" \
        "ida after=$after solve --solver ida target/measure/ida-300.txt"
    cmp <("$before" solve --solver bfs target/measure/bfs-20.txt) <("$after" solve --solver bfs target/measure/bfs-20.txt) && echo "bfs: output identical to {{BEFORE}}'s"
    benches/measure/measure.py --rounds {{ROUNDS}} --items 20 --what boards \
        "bfs before=$before solve --solver bfs target/measure/bfs-20.txt" \
        "bfs after=$after solve --solver bfs target/measure/bfs-20.txt"

# Compare what BEFORE's binary and AFTER's print (solve's stdout, stderr and exit status on valid and broken inputs, file/redirect/pipe, 1-3 threads, JSON; check's verdicts).
measure-identical BEFORE=measure_before AFTER="":
    #!/usr/bin/env bash
    set -euo pipefail
    before=$(benches/measure/binary.sh {{quote(BEFORE)}})
    after=$(benches/measure/binary.sh {{quote(AFTER)}})
    benches/measure/identical.sh "$before" "$after" target/measure/identical

# What a judged run costs: stress with the sandbox on and off against bare exec and bare bwrap starts of the same program, 1 and 2 jobs, RUNS boards, interleaved: runs per second and the ratios (REVISION's binary; the work tree's by default).
measure-runs RUNS="200" ROUNDS="3" REVISION="":
    #!/usr/bin/env bash
    set -euo pipefail
    binary=$(benches/measure/binary.sh {{quote(REVISION)}})
    benches/measure/runs.sh "$binary" {{RUNS}} {{ROUNDS}}

# What a judged run costs in BEFORE's build and AFTER's (a commit, a branch; "" for the work tree), side by side, with and without the sandbox.
measure-runs-against BEFORE=measure_before AFTER="" RUNS="200" ROUNDS="3":
    #!/usr/bin/env bash
    set -euo pipefail
    before=$(benches/measure/binary.sh {{quote(BEFORE)}})
    after=$(benches/measure/binary.sh {{quote(AFTER)}})
    benches/measure/runs-against.sh "$before" "$after" {{RUNS}} {{ROUNDS}}

# The README's quick-start commands as a newcomer runs them, read from README.md (--solve-only: the first alone).
readme-quick-start *ARGS:
    bash .ci/readme-quick-start.sh {{ARGS}}

# Every measure-* recipe in turn, with their defaults.
measure-all: measure-identical measure-solve measure-check measure-verify measure-runs

# Fuzz TARGET for SECONDS s (`cd fuzz && cargo fuzz list` names the targets); corpus in fuzz/corpus/TARGET, crashes in fuzz/artifacts/TARGET.
fuzz TARGET SECONDS="60":
    #!/usr/bin/env bash
    set -euo pipefail
    source fuzz/targets.sh
    dictionary=()
    if uses_dictionary {{TARGET}}; then dictionary=(-dict=rotation.dict); fi
    cd fuzz && mkdir -p corpus/{{TARGET}}
    cargo +nightly fuzz run {{TARGET}} corpus/{{TARGET}} seeds/{{TARGET}} -- -max_total_time={{SECONDS}} -rss_limit_mb=2048 -timeout="$(input_timeout {{TARGET}})" "${dictionary[@]}"

# Fuzz every target in turn, SECONDS seconds each.
fuzz-all SECONDS:
    #!/usr/bin/env bash
    set -euo pipefail
    for target in $(cd fuzz && cargo +nightly fuzz list); do
        {{just_executable()}} -f {{justfile()}} -d "$PWD" fuzz "$target" {{SECONDS}}
    done

# A campaign: every target (or the TARGETS named) for SECONDS s, JOBS at a time, logs in fuzz/logs/; then `just fuzz-report`.
fuzz-campaign SECONDS="600" JOBS="1" *TARGETS:
    bash fuzz/campaign.sh {{SECONDS}} {{JOBS}} {{TARGETS}}

# The campaign's table: exec/s, corpus, coverage of each target's modules, last crash.
fuzz-report:
    bash fuzz/report.sh

# Minimize a failing input, store it as fuzz/regressions/TARGET/NAME (replayed by cargo test), print the commit line.
fuzz-promote TARGET FILE NAME:
    bash fuzz/promote.sh {{TARGET}} {{quote(FILE)}} {{NAME}}

# Minimize fuzz/corpus/TARGET in place (copy other corpora in first to merge them).
fuzz-cmin TARGET:
    cd fuzz && cargo +nightly fuzz cmin {{TARGET}} corpus/{{TARGET}} -- -rss_limit_mb=2048

# Coverage of TARGET over its corpus and seeds, HTML in fuzz/coverage/TARGET/html (needs llvm-tools-preview on nightly).
fuzz-coverage TARGET:
    #!/usr/bin/env bash
    set -euo pipefail
    if ! rustup component list --toolchain nightly --installed | grep -q '^llvm-tools'; then
        echo "fuzz-coverage needs llvm-tools-preview on nightly, which is not installed:" >&2
        echo "  rustup component add llvm-tools-preview --toolchain nightly" >&2
        exit 1
    fi
    cd fuzz
    mkdir -p corpus/{{TARGET}}
    cargo +nightly fuzz coverage {{TARGET}} corpus/{{TARGET}} seeds/{{TARGET}}
    host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
    llvm_cov="$(rustc +nightly --print sysroot)/lib/rustlib/$host/bin/llvm-cov"
    binary="target/$host/coverage/$host/release/{{TARGET}}"
    profile="coverage/{{TARGET}}/coverage.profdata"
    ignore='/rustc/|\.cargo/registry|fuzz/fuzz_targets'
    "$llvm_cov" report "$binary" -instr-profile="$profile" -ignore-filename-regex="$ignore"
    "$llvm_cov" show "$binary" -instr-profile="$profile" -ignore-filename-regex="$ignore" \
        -format=html -output-dir="coverage/{{TARGET}}/html"
    echo "HTML report: fuzz/coverage/{{TARGET}}/html/index.html"

# Mutation testing, group by group (.cargo/mutants-groups.txt names the groups, their files and their tests); name GROUPS to run only those.
mutants *GROUPS:
    bash .cargo/mutants.sh {{GROUPS}}

# One share of a campaign spread over machines: SHARE is K/N (K from 0), the K-th of N disjoint shares of each group, as the Mutants workflow's jobs run them.
mutants-share SHARE *GROUPS:
    MUTANTS_SHARD={{SHARE}} bash .cargo/mutants.sh {{GROUPS}}

# Mutation testing of only the lines changed since BASE (git diff BASE), each group with its tests.
mutants-diff BASE="main":
    mkdir -p target/mutants && git diff {{BASE}} > target/mutants/changes.diff
    MUTANTS_IN_DIFF=target/mutants/changes.diff bash .cargo/mutants.sh

# Everything CI runs.
ci:
    bash .ci/run
