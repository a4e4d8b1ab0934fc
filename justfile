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

# Everything CI runs.
ci:
    bash .ci/run
