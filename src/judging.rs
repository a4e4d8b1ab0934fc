//! Judging other people's programs as a contest judge does: the judges'
//! verdicts of the runs [`runner`](crate::runner) makes, campaigns over
//! generated boards with the smallest failing case, folders of test files,
//! and timing reports.
//!
//! Unix only, as the runner is.
//!
//! # Overview
//!
//! - [`Execute`] ([`execute`]): what judging needs of a runner, a run of the
//!   program on one input and its limits; the [`Runner`](crate::runner::Runner)
//!   starts real processes, and the unit tests put a fake in its place.
//! - [`Judgement::of`] ([`judgement`]): a run and the
//!   [checker](crate::checker) give a [`Judgement`], with its [`Verdict`]
//!   (AC, WA, PE, TLE, MLE, RTE, OLE) and message; missing and surplus
//!   output is named as such ([`alignment`]). [`run_and_judge`] makes the
//!   run and judges it, one [`RunRecord`].
//! - [`campaign()`] ([`campaign`](mod@campaign)): runs of consecutive cases
//!   of a [`Generator`](crate::generator::Generator) (or of one shard of
//!   it), in parallel, one [`RunRecord`] each; the first failing run, re-run
//!   case by case to find its smallest failing case ([`shrink`]).
//! - [`Summary`] ([`report`]): verdict counts, the slowest runs, and the CPU
//!   time and memory by optimal length; [`Measures`], what a run used, in
//!   every record of a run.
//! - [`DataFolder`] ([`data_folder`]): the test files of a problem package
//!   or of a folder of `.in` and `.ans` pairs; [`judge_folder`]
//!   ([`folder_judging`]): the program judged on each, against the jury's
//!   answers, one [`FileRecord`] per file.
//!
//! A campaign's runs and a folder's files are judged the same way: in
//! parallel, reported in order, the first failure the earliest, and with
//! fail-fast nothing after it reported, whatever the number of jobs.
//!
//! # Example
//!
//! ```no_run
//! use std::path::Path;
//! use rotation_game::generator::{Generator, Mode};
//! use rotation_game::judging::{StressOptions, Verdict, campaign};
//! use rotation_game::runner::{Program, Runner, RunnerOptions};
//!
//! let program = Program::parse("./a.out", Path::new("/home/me"))?;
//! let runner = Runner::new(program, &RunnerOptions::default())?;
//! let generator = Generator::new(1, Mode::Scramble(4));
//! let options = StressOptions { cases_per_run: 1, jobs: 2, strict_whitespace: false, max_fail: None };
//! let report = campaign(&generator, 100, &runner, &options, &|_, _| {})?;
//! assert!(report.runs.iter().all(|run| run.verdict == Verdict::Accepted));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod alignment;
pub mod campaign;
pub mod data_folder;
pub mod execute;
#[cfg(test)]
mod fake;
pub mod folder_judging;
pub mod judgement;
mod parallel;
pub mod report;

// The main types, here for short paths.

pub use crate::verdict::{FileVerdict, Verdict};
pub use alignment::Misalignment;
pub use campaign::{
    CampaignReport, FailedRun, Failure, StressOptions, campaign, run_and_judge, shrink,
};
pub use data_folder::{
    DataFile, DataFolder, DataFolderError, FolderLayout, MAX_TEST_FILE_BYTES, read_test_file,
};
pub use execute::Execute;
pub use folder_judging::{
    FileRecord, FirstFailure, FolderOptions, FolderReport, judge_file, judge_folder,
};
pub use judgement::{Judgement, TimeLimitKind};
pub use report::{LengthTiming, Measures, RunRecord, SLOWEST_LISTED, Summary, VerdictCount};
