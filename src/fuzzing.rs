//! The checks behind the fuzz targets (feature `fuzzing`).
//!
//! # Overview
//!
//! Each function here takes arbitrary bytes and panics when a property of the
//! library fails on them; it returns normally otherwise. The same function
//! runs in three harnesses, so that a property is written once:
//!
//! - under libFuzzer, as the body of the target of the same name in the
//!   `fuzz/` crate (`cargo +nightly fuzz run parse`);
//! - under proptest, fed random and near-valid bytes
//!   (`tests/fuzz_properties.rs`);
//! - on stable, replaying the committed seed corpora `fuzz/seeds/<target>/`
//!   and every minimized crash (`tests/fuzz_replay.rs`).
//!
//! [`TARGETS`] lists them by name; the names are those of the files in
//! `fuzz/fuzz_targets/` and of the folders in `fuzz/seeds/`.
//!
//! | target | input | property |
//! | --- | --- | --- |
//! | [`parse`] | judge input | the lenient parser never panics, its errors point into the input, and its boards survive formatting and parsing again |
//! | [`solve`] | a board, [decoded](decode_board) | the descent's answer is sound and optimal, and every registered solver quick enough for the board gives it |
//! | [`validate`] | a test file | whatever the strict validator accepts, the lenient parser accepts with the same boards |
//! | [`check`] | a contestant's output for [`CHECK_INPUT`] | the checker never panics, is deterministic, keeps to its output limit, and says OK exactly for the right answer up to tolerated whitespace |
//!
//! # Why a feature
//!
//! These functions panic by design (a panic is how a fuzzer or a test learns
//! of a failure), which no ordinary caller of the library wants. The
//! `fuzzing` feature keeps them out of the library unless a harness asks
//! for them: the fuzz crate and the tests (through the crate's
//! dev-dependency on itself) enable it.

mod check;
mod parse;
mod solve;
mod validate;

pub use check::{CHECK_INPUT, CHECK_OUTPUT_LIMIT, check, check_expected_output};
pub use parse::parse;
pub use solve::{decode_board, encode_board, solve};
pub use validate::validate;

/// A fuzz target: its name and the check it runs on each input.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The name of the target in `fuzz/fuzz_targets/` and of its seed folder
    /// in `fuzz/seeds/`.
    pub name: &'static str,
    /// The check: returns on a good input, panics on a failure.
    pub check: fn(&[u8]),
}

/// Every fuzz target, in alphabetical order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "check",
        check,
    },
    Target {
        name: "parse",
        check: parse,
    },
    Target {
        name: "solve",
        check: solve,
    },
    Target {
        name: "validate",
        check: validate,
    },
];
