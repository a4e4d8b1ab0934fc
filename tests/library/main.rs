//! The library's tests: each module calls `rotation_game` as a library
//! user does, on one area (the moves, the solvers, the parser, the
//! checker, the validator, the generator, the package, the runner) or one
//! property across them; `architecture` reads the library's source. The helpers are in `support` (and
//! `tests/support/`, which the other test binaries share).
//!
//! One test binary for all of them, as cargo's own suite is one
//! (`tests/testsuite/main.rs`): the crate is linked once, and what the
//! tests build (the package of seed 1, its compiled programs) is built
//! once. The command line's tests are the other binary (`tests/cli/`).

mod architecture;
mod checker;
mod fuzz_properties;
mod fuzz_replay;
mod generator_distribution;
mod hardest_answers;
mod moves;
#[cfg(unix)]
mod package;
#[cfg(unix)]
mod package_standalone;
mod parallel_solve;
mod parser_paths;
mod perf_gate;
mod planted_solvers;
mod properties;
#[cfg(unix)]
mod runner;
mod solvers_agree;
mod support;
mod validator;
