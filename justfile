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

# Stress a program (one string, run by sh -c): just stress "./a.out" --seed 1 --boards 1000
stress program *flags:
    cargo run --release --quiet -- stress --program {{quote(program)}} {{flags}}

# Draw a board, optionally replaying moves: just show 111132323132231222312133 --moves AC
show board *flags:
    cargo run --release --quiet -- show {{quote(board)}} {{flags}}

# Everything CI runs.
ci:
    bash .ci/run
