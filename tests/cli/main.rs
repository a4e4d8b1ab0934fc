//! The command line as a user runs it: each module runs `rotation-game`
//! (or a script or example around it) as a separate process and reads what
//! it prints, writes and exits with. One module per command or promise;
//! the helpers are in `support` (and `tests/support/`, which the other test
//! binaries share).
//!
//! One test binary for all of them, as cargo's own suite is one
//! (`tests/testsuite/main.rs`): the crate is linked once, and what the
//! tests build (the package of seed 1, compiled programs) is built once.
//! Its tests run side by side, so each keeps to processes and files of its
//! own; the one test that loads every core on purpose is a binary of its
//! own (`tests/cpu_share.rs`).

mod census;
mod check;
mod classic_reference;
mod examples;
mod fuzz_promote;
mod generate;
mod help;
mod json;
#[cfg(unix)]
mod judge;
#[cfg(unix)]
mod judge_options;
#[cfg(unix)]
mod limits;
mod package;
#[cfg(unix)]
mod package_calibrate;
#[cfg(unix)]
mod readme;
#[cfg(unix)]
mod sandbox_attacks;
mod show;
mod solve;
#[cfg(unix)]
mod stress;
mod support;
mod validate;
mod verify;
