//! Judging a program on every test file of a folder, as a judge system
//! does with a problem's test data: one run per file, the file's bytes on
//! standard input, the output checked against the jury's answer.
//!
//! # Overview
//!
//! [`judge_file`] judges one [`DataFile`] with the output validator's
//! semantics (`output_validators/check.cpp` of a package, and `rotation-game
//! check INPUT OUTPUT ANSWER`): the input is read leniently, the true
//! answers are worked out, the jury's answer is judged first (a wrong one,
//! or an input that is not judge input, is the jury's fault: FAIL, and the
//! program is not run), then the program runs on the file's bytes within the
//! [`Runner`]'s limits and its output is judged, cases numbered from 1 in the
//! file. [`judge_folder`] does it for every file, several at once, and
//! reports them in the folder's order, with the first failure in detail.

use std::fmt;
use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use super::campaign::{FailedRun, judge_input};
use super::data_folder::{DataFile, read_test_file};
use super::report::RunRecord;
use super::runner::Runner;
use super::verdict::Verdict;
use crate::checker::{CheckOptions, Checker, Reason};

/// The verdict on one test file: the program's, or the jury's fault.
///
/// It serializes as the verdict's code (`AC`, `WA`, …) or `FAIL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileVerdict {
    /// The program ran and was judged.
    Judged(Verdict),
    /// FAIL: the test file itself is wrong (its input is not judge input,
    /// or its answer is not the right one); the program did not run.
    JuryFault,
}

impl FileVerdict {
    /// The code: the verdict's (`AC`, `WA`, …), or `FAIL`.
    pub fn code(self) -> &'static str {
        match self {
            FileVerdict::Judged(verdict) => verdict.code(),
            FileVerdict::JuryFault => "FAIL",
        }
    }

    /// Whether the file was accepted.
    pub fn is_accepted(self) -> bool {
        self == FileVerdict::Judged(Verdict::Accepted)
    }
}

impl fmt::Display for FileVerdict {
    /// The verdict's name, or `judging failure (the jury is wrong)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileVerdict::Judged(verdict) => write!(f, "{verdict}"),
            FileVerdict::JuryFault => f.write_str("judging failure (the test file is wrong)"),
        }
    }
}

impl Serialize for FileVerdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// One test file, judged.
///
/// It serializes as `{file, cases, verdict, message, cpu_seconds,
/// wall_seconds, peak_memory_bytes}`; the measures are 0 when the program
/// did not run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileRecord {
    /// The file's name ([`DataFile::name`]).
    pub file: String,
    /// How many cases it holds (0 when its input could not be read).
    pub cases: u64,
    /// The verdict.
    pub verdict: FileVerdict,
    /// The verdict's message (case numbers are the file's, from 1).
    pub message: String,
    /// CPU time of the run.
    #[serde(rename = "cpu_seconds", serialize_with = "crate::secs_f64::serialize")]
    pub cpu_time: Duration,
    /// Wall-clock time of the run.
    #[serde(rename = "wall_seconds", serialize_with = "crate::secs_f64::serialize")]
    pub wall_time: Duration,
    /// Peak memory of the run, in bytes.
    pub peak_memory_bytes: u64,
}

impl FileRecord {
    fn jury_fault(file: &DataFile, cases: usize, message: String) -> FileRecord {
        FileRecord {
            file: file.name.clone(),
            cases: cases as u64,
            verdict: FileVerdict::JuryFault,
            message,
            cpu_time: Duration::ZERO,
            wall_time: Duration::ZERO,
            peak_memory_bytes: 0,
        }
    }

    fn judged(file: &DataFile, run: RunRecord) -> FileRecord {
        FileRecord {
            file: file.name.clone(),
            cases: run.cases.len() as u64,
            verdict: FileVerdict::Judged(run.verdict),
            message: run.message,
            cpu_time: run.cpu_time,
            wall_time: run.wall_time,
            peak_memory_bytes: run.peak_memory_bytes,
        }
    }
}

/// Judges the program of `runner` on `file` (see the [module docs](self));
/// with the failed run when it failed.
///
/// # Errors
///
/// When the file cannot be read or the run cannot be made.
pub fn judge_file(
    runner: &Runner,
    file: &DataFile,
    strict_whitespace: bool,
) -> io::Result<(FileRecord, Option<FailedRun>)> {
    let input = read_test_file(&file.input)?;
    let answer = read_test_file(&file.answer)?;
    let checker = match Checker::from_judge_input(&input[..]) {
        Ok(checker) => checker,
        Err(verdict) => return Ok((FileRecord::jury_fault(file, 0, verdict.to_string()), None)),
    };
    let lenient = CheckOptions {
        strict_whitespace: false,
        output_limit: runner.limits().output_bytes.max(answer.len() as u64),
    };
    let jury = checker.check(&answer[..], &lenient);
    if !jury.is_ok() {
        let fault = crate::checker::CheckerVerdict::new(
            jury.case(),
            Reason::WrongJuryAnswer(Box::new(jury.reason().clone())),
        );
        let record = FileRecord::jury_fault(file, checker.boards().len(), fault.to_string());
        return Ok((record, None));
    }
    let cases: Vec<u64> = (1..=checker.boards().len() as u64).collect();
    let (run, failed) = judge_input(runner, &checker, &input, &cases, strict_whitespace)?;
    Ok((FileRecord::judged(file, run), failed))
}

/// How [`judge_folder`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FolderOptions {
    /// How many files are judged at once (at least 1).
    pub jobs: usize,
    /// Whether outputs are read with strict whitespace.
    pub strict_whitespace: bool,
    /// Whether to stop at the first file not accepted, as judges do: the
    /// files after it are not reported, whether or not they were run.
    pub fail_fast: bool,
}

/// The first file not accepted, in the folder's order.
#[derive(Clone, Debug)]
pub struct FirstFailure {
    /// Its position in the folder's files.
    pub index: usize,
    /// The failed run, when the program ran (not for a jury's fault).
    pub run: Option<FailedRun>,
}

/// What [`judge_folder`] found.
#[derive(Clone, Debug)]
pub struct FolderReport {
    /// Every file reported, in the folder's order.
    pub files: Vec<FileRecord>,
    /// The first file not accepted, if any.
    pub first_failure: Option<FirstFailure>,
    /// Files not reported: those after the first failure, with
    /// [`FolderOptions::fail_fast`].
    pub files_not_reported: usize,
    /// Wall-clock time of the whole.
    pub elapsed: Duration,
}

impl FolderReport {
    /// Whether every file was judged and accepted.
    pub fn all_accepted(&self) -> bool {
        self.first_failure.is_none() && self.files_not_reported == 0
    }

    /// The slowest file reported, by CPU time (the first on a tie).
    pub fn slowest(&self) -> Option<&FileRecord> {
        self.files.iter().rev().max_by_key(|record| record.cpu_time)
    }
}

/// Judges the program of `runner` on each of `files` ([`judge_file`]),
/// `options.jobs` at once; calls `progress` with each record as it is made.
///
/// The report does not depend on the number of jobs, apart from times:
/// files are reported in order, and the failure reported is the first in
/// that order.
///
/// # Errors
///
/// When a file cannot be read, a run cannot be made, or the threads cannot
/// start.
pub fn judge_folder(
    runner: &Runner,
    files: &[DataFile],
    options: &FolderOptions,
    progress: &(dyn Fn(&FileRecord) + Sync),
) -> io::Result<FolderReport> {
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(io::Error::other)?;
    let first_failed = AtomicUsize::new(usize::MAX);
    let failure: Mutex<Option<FirstFailure>> = Mutex::new(None);
    let broken = AtomicBool::new(false);
    let results: Vec<Option<io::Result<FileRecord>>> = pool.install(|| {
        files
            .par_iter()
            .enumerate()
            .map(|(index, file)| {
                let skip = broken.load(Ordering::Relaxed)
                    || (options.fail_fast && index > first_failed.load(Ordering::Relaxed));
                if skip {
                    return None;
                }
                let judged = judge_file(runner, file, options.strict_whitespace);
                Some(match judged {
                    Ok((record, failed)) => {
                        if !record.verdict.is_accepted() {
                            first_failed.fetch_min(index, Ordering::Relaxed);
                            let mut kept =
                                failure.lock().unwrap_or_else(|poison| poison.into_inner());
                            if kept.as_ref().is_none_or(|earlier| index < earlier.index) {
                                *kept = Some(FirstFailure { index, run: failed });
                            }
                        }
                        progress(&record);
                        Ok(record)
                    }
                    Err(error) => {
                        broken.store(true, Ordering::Relaxed);
                        Err(error)
                    }
                })
            })
            .collect()
    });
    let mut records = Vec::with_capacity(files.len());
    for result in results.into_iter().flatten() {
        records.push(result?);
    }
    let first_failure = failure
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    if options.fail_fast
        && let Some(first) = &first_failure
    {
        records.truncate(first.index + 1);
    }
    Ok(FolderReport {
        files_not_reported: files.len() - records.len(),
        files: records,
        first_failure,
        elapsed: started.elapsed(),
    })
}
