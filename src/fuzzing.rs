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
//!   (`tests/library/fuzz_properties.rs`);
//! - on stable, replaying the committed seed corpora `fuzz/seeds/<target>/`
//!   and every minimized crash in `fuzz/regressions/<target>/`
//!   (`tests/library/fuzz_replay.rs`, through [`replay`]).
//!
//! [`TARGETS`] lists them by name, the one list of them; the names are
//! those of the files in `fuzz/fuzz_targets/` and of the folders in
//! `fuzz/seeds/` and `fuzz/regressions/`, and the table below gives one
//! row to each, in its order (`tests/library/fuzz_replay.rs` checks both).
//!
//! | target | input | property |
//! | --- | --- | --- |
//! | [`board()`] | a [`BoardCase`], structure-aware with `arbitrary`: a digit relabelling, a symmetry of the square, and a board as [`solve`] reads it | on the board, its relabelled image and its symmetric image, every solver quick enough agrees with the descent and its answer replays; relabelling changes only the digit, a symmetry keeps the optimal length |
//! | [`board_deep`] | a [`BoardCase`] | every registered solver that accepts the board with its default options (`bfs` up to 8 moves, `ida` on every board, the hardest included) agrees with the descent, and its answer replays: the slow half of `board`, kept apart so that `board` stays fast |
//! | [`check`] | a contestant's output for [`CHECK_INPUT`] (three cases) | the checker never panics or fails, is deterministic, reads at most one byte past its [`CHECK_OUTPUT_LIMIT`], and says OK exactly for the right answer up to the tolerated whitespace (byte for byte with strict whitespace) |
//! | [`parse`] | judge input | the lenient parser never panics; every error's offset, line and column point into the input; the boards read, formatted and parsed again, are the same |
//! | [`pipeline`] | judge input, through the whole `solve` pipeline | on one thread and on two (from memory, or from a file whose chunks the threads read themselves, chosen by a bit of the input's length), the output and the errors reported (what the exit status is made from) are byte-identical and the ones the parser predicts (the greedy descent's answer for each board it reads, its errors, stopping at the first without `keep_going`); the validator accepts exactly the parser's boards in canonical form, with exit status 0 (42 for Kattis); the checker accepts the output of every input the parser accepts, and fails (status 3) on the others |
//! | [`solve`] | a board, [decoded](decode_board) (a Fisher–Yates shuffle, or a solved board plus moves) | the descent's answer replays to the centre it names in the table's optimal length; every solver quick enough for the board (`pdb` always, `ida` up to 7 moves, `bfs` up to 5) gives it |
//! | [`standalone_checker`] | a contestant's output for [`CHECK_INPUT`] | the package's standalone output validator (C++) gives the crate checker's exit status, verdict and case, leniently and with strict whitespace |
//! | [`standalone_validator`] | a test file | the problem package's standalone input validator (C++) exits 42 exactly when the crate's strict validator accepts, and names the same line and column |
//! | [`validate`] | a test file | whatever the strict validator accepts, the lenient parser accepts with the same boards; the case limit works; neither panics |
//!
//! # Adding a target
//!
//! A target is a function `fn(&[u8])` here, one line in [`TARGETS`], one
//! file in `fuzz/fuzz_targets/` calling it, one `[[bin]]` in
//! `fuzz/Cargo.toml`, and seeds in `fuzz/seeds/<name>/`
//! (`fuzz/make-seeds.sh`); `tests/library/fuzz_replay.rs` fails until all of these
//! agree. Structure-aware targets build their input with `arbitrary`, as
//! [`BoardCase`] does.
//!
//! A target that compares another program with the crate (the package's
//! standalone validator and checker) runs it on the bytes and asserts that
//! its exit status is the crate's verdict: [`validator_exit_code`] and
//! [`checker_exit_code`] give the status a program following testlib's or
//! Kattis's convention must return, and `runner::Runner` runs a
//! program within limits on its time, memory and output. Such a target
//! starts a process per input, so it is slow: its entry in [`TARGETS`] says
//! so ([`Target::runs_programs`]), and so does `fuzz/targets.sh`
//! (`PROCESS_TARGETS`). See [`standalone_validator`] for how it finds the
//! program.
//!
//! # Why a feature
//!
//! These functions panic by design (a panic is how a fuzzer or a test learns
//! of a failure), which no ordinary caller of the library wants. The
//! `fuzzing` feature keeps them out of the library unless a harness asks
//! for them: the fuzz crate and the tests (through the crate's
//! dev-dependency on itself) enable it.

mod board;
mod check;
mod decode;
mod parse;
mod pipeline;
pub mod replay;
mod solve;
#[cfg(unix)]
mod standalone;
mod validate;
mod verdicts;

pub use board::{BoardCase, Relabelling, board, board_deep};
pub use check::{CHECK_INPUT, CHECK_OUTPUT_LIMIT, check, check_expected_output};
pub use decode::{decode_board, encode_board};
pub use parse::parse;
pub use pipeline::pipeline;
pub use solve::solve;
#[cfg(unix)]
pub use standalone::{standalone_checker, standalone_validator};
pub use validate::validate;
pub use verdicts::{checker_exit_code, checker_verdict, validator_exit_code};

/// A fuzz target: its name, the check it runs on each input, and what
/// campaigns need to know about it.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The name of the target in `fuzz/fuzz_targets/` and of its folders in
    /// `fuzz/seeds/` and `fuzz/regressions/`.
    pub name: &'static str,
    /// The check: returns on a good input, panics on a failure.
    pub check: fn(&[u8]),
    /// The library's source files the target exercises, relative to the
    /// repository: the campaign report gives the coverage of these.
    pub modules: &'static [&'static str],
    /// Whether the target reads the text formats, so that libFuzzer's
    /// dictionary `fuzz/rotation.dict` helps it (binary board encodings
    /// have no use for it).
    pub dictionary: bool,
    /// Whether each input runs another program, a process per input (the
    /// package's standalone validator and checker): such a target is slow
    /// (a few inputs a second, where the others run thousands: the
    /// measured campaign in `docs/performance.md`), and
    /// needs `g++` to build the program once (or the program built beside
    /// the fuzz target, as ClusterFuzzLite's build puts it).
    pub runs_programs: bool,
}

impl Target {
    /// The target called `name`.
    pub fn find(name: &str) -> Option<&'static Target> {
        TARGETS.iter().find(|target| target.name == name)
    }
}

/// The files of the solvers and of what they stand on.
const SOLVER_MODULES: &[&str] = &[
    "src/board.rs",
    "src/moves.rs",
    "src/pattern_database.rs",
    "src/solver/bfs.rs",
    "src/solver/centre_heuristic.rs",
    "src/solver/descent.rs",
    "src/solver/ida_star.rs",
    "src/solver/pdb.rs",
];

/// Every fuzz target, in alphabetical order.
pub const TARGETS: &[Target] = &[
    Target {
        name: "board",
        check: board,
        modules: SOLVER_MODULES,
        dictionary: false,
        runs_programs: false,
    },
    Target {
        name: "board_deep",
        check: board_deep,
        modules: SOLVER_MODULES,
        dictionary: false,
        runs_programs: false,
    },
    Target {
        name: "check",
        check,
        modules: &["src/checker.rs", "src/checker/lines.rs", "src/quote.rs"],
        dictionary: true,
        runs_programs: false,
    },
    Target {
        name: "parse",
        check: parse,
        modules: &["src/parser.rs", "src/quote.rs"],
        dictionary: true,
        runs_programs: false,
    },
    Target {
        name: "pipeline",
        check: pipeline,
        modules: &[
            "src/answers.rs",
            "src/answers/ordered_windows.rs",
            "src/answers/file_chunks.rs",
            "src/parser.rs",
            "src/validator.rs",
            "src/checker.rs",
            "src/checker/lines.rs",
        ],
        dictionary: true,
        runs_programs: false,
    },
    Target {
        name: "solve",
        check: solve,
        modules: SOLVER_MODULES,
        dictionary: false,
        runs_programs: false,
    },
    #[cfg(unix)]
    Target {
        name: "standalone_checker",
        check: standalone_checker,
        modules: &[
            "src/checker.rs",
            "src/checker/lines.rs",
            "src/exit_codes.rs",
        ],
        dictionary: true,
        runs_programs: true,
    },
    #[cfg(unix)]
    Target {
        name: "standalone_validator",
        check: standalone_validator,
        modules: &["src/validator.rs", "src/exit_codes.rs"],
        dictionary: true,
        runs_programs: true,
    },
    Target {
        name: "validate",
        check: validate,
        modules: &["src/validator.rs", "src/parser.rs"],
        dictionary: true,
        runs_programs: false,
    },
];
