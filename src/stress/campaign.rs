//! A campaign: the program run on a generator's boards, every run judged,
//! and the first failure shrunk to its smallest failing case.

use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::init::cpu_of;
use super::report::RunRecord;
use super::runner::{Run, Runner};
use super::verdict::{Judgement, judge};
use crate::board::Board;
use crate::checker::{CheckOptions, Checker};
use crate::generator::Generator;
use crate::length::OptimalLength;
use crate::parser::format_input;
use crate::pattern_database;
use crate::solver::Solution;

/// How a campaign runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StressOptions {
    /// How many cases each run gets (taken as at least 1, and at most the
    /// number of cases of the campaign).
    pub cases_per_run: u64,
    /// How many runs go at once (at least 1).
    pub jobs: usize,
    /// Whether the checker reads outputs with strict whitespace.
    pub strict_whitespace: bool,
    /// Whether to stop at the first failing run: runs after it (in case
    /// order) are not reported, whether or not they were made.
    pub fail_fast: bool,
}

/// A failed run: its cases, what the judge said, and what the program did.
#[derive(Clone, Debug)]
pub struct FailedRun {
    /// The run's case numbers, from 1.
    pub cases: Vec<u64>,
    /// Its boards, in the order given to the program.
    pub boards: Vec<Board>,
    /// Their exact answers, one per board.
    pub answers: Vec<Solution>,
    /// The verdict and its detail.
    pub judgement: Judgement,
    /// The program's output, how it ended, and what it used.
    pub run: Run,
}

impl FailedRun {
    /// The run's input, as the program got it.
    pub fn input(&self) -> String {
        format_input(&self.boards)
    }
}

/// The first failing run of a campaign, and its smallest failing case.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The first failing run, in case order.
    pub run: FailedRun,
    /// Its smallest failing case run alone (see [`shrink`]), or `None`
    /// when the run held one case, or no case fails alone.
    pub smallest: Option<FailedRun>,
}

impl Failure {
    /// The smallest failing case if there is one, else the failing run.
    pub fn shown(&self) -> &FailedRun {
        self.smallest.as_ref().unwrap_or(&self.run)
    }
}

/// What a campaign found.
#[derive(Clone, Debug)]
pub struct CampaignReport {
    /// Every run reported, in case order.
    pub runs: Vec<RunRecord>,
    /// The first failing run, if any.
    pub failure: Option<Failure>,
    /// Runs not reported: those after the first failure, with
    /// [`StressOptions::fail_fast`].
    pub runs_not_reported: u64,
    /// Wall-clock time of the campaign, shrinking included.
    pub elapsed: Duration,
    /// The CPU time of this process over the campaign, all its threads:
    /// making the boards and the expected answers, starting, waiting for
    /// and judging the runs, shrinking. Without the programs and sandboxes
    /// it started: the runner's own cost, which `benches/runner_cpu.rs`
    /// gates.
    pub runner_cpu: Duration,
}

/// Runs the program on `boards` (case numbers `cases`) and judges the run.
///
/// # Errors
///
/// When the run cannot be made (see [`Runner::run`]).
pub fn judge_run(
    runner: &Runner,
    checker: &Checker,
    cases: &[u64],
    strict_whitespace: bool,
) -> io::Result<(RunRecord, Option<FailedRun>)> {
    let input = format_input(checker.boards());
    judge_input(runner, checker, input.as_bytes(), cases, strict_whitespace)
}

/// Runs the program on `input`, the judge input of `checker`'s boards as
/// it stands in a test file (its spacing the file's own), and judges the
/// run; `cases` numbers the boards.
///
/// # Errors
///
/// When the run cannot be made (see [`Runner::run`]).
pub fn judge_input(
    runner: &Runner,
    checker: &Checker,
    input: &[u8],
    cases: &[u64],
    strict_whitespace: bool,
) -> io::Result<(RunRecord, Option<FailedRun>)> {
    let run = runner.run(input)?;
    let check = CheckOptions {
        strict_whitespace,
        output_limit: runner.limits().output_bytes,
    };
    let judgement = judge(
        &run,
        runner.limits(),
        runner.program().is_script(),
        checker,
        cases,
        &check,
    );
    let record = RunRecord {
        cases: cases.to_vec(),
        optimal_lengths: checker
            .answers()
            .iter()
            .map(|answer| OptimalLength::from_moves_unchecked(answer.moves.len() as u8))
            .collect(),
        verdict: judgement.verdict(),
        message: judgement.to_string(),
        cpu_time: run.cpu_time,
        wall_time: run.wall_time,
        peak_memory_bytes: run.peak_memory_bytes,
    };
    let failed = (!judgement.is_accepted()).then(|| FailedRun {
        cases: cases.to_vec(),
        boards: checker.boards().to_vec(),
        answers: checker.answers().to_vec(),
        judgement,
        run,
    });
    Ok((record, failed))
}

/// The smallest failing case of a failed run of several cases: its cases
/// re-run one at a time, fewest optimal moves first (the earlier case on a
/// tie); the first that fails. `None` when no case fails alone. A run of
/// one case is never run again.
///
/// # Errors
///
/// When a run cannot be made.
pub fn shrink(
    failed: &FailedRun,
    runner: &Runner,
    strict_whitespace: bool,
) -> io::Result<Option<FailedRun>> {
    if failed.boards.len() <= 1 {
        return Ok(None);
    }
    let mut order: Vec<(OptimalLength, usize)> = failed
        .boards
        .iter()
        .enumerate()
        .map(|(position, board)| (pattern_database::optimal_length(board), position))
        .collect();
    order.sort_unstable();
    for (_, position) in order {
        let range = position..=position;
        let checker = Checker::with_answers(
            &failed.boards[range.clone()],
            &failed.answers[range.clone()],
        );
        let (_, single) = judge_run(runner, &checker, &failed.cases[range], strict_whitespace)?;
        if single.is_some() {
            return Ok(single);
        }
    }
    Ok(None)
}

/// Runs a campaign over the `requested` boards of `generator` (its shard's
/// share of them), `options.cases_per_run` consecutive cases of the shard
/// per run, `options.jobs` runs at once; calls `progress` with the number
/// of cases each finished run judged.
///
/// The report does not depend on the number of jobs: runs are reported in
/// case order, and the failure reported is the first in case order.
///
/// # Errors
///
/// When a run cannot be made, or the thread pool cannot be built.
pub fn campaign(
    generator: &Generator,
    requested: u64,
    runner: &Runner,
    options: &StressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<CampaignReport> {
    let started = Instant::now();
    let cpu_before = own_cpu_time();
    let count = generator.count(requested);
    // A run never holds more than the campaign's cases, whatever was asked.
    let per_run = options.cases_per_run.clamp(1, count.max(1));
    let runs = count.div_ceil(per_run);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(io::Error::other)?;
    // The first failing run so far (by run number) and its detail; only it
    // is kept, so that memory does not grow with the failures.
    let first_failed = AtomicU64::new(u64::MAX);
    let failure: Mutex<Option<(u64, FailedRun)>> = Mutex::new(None);
    let broken = AtomicBool::new(false);
    let mut records: Vec<Option<io::Result<RunRecord>>> = pool.install(|| {
        (0..runs)
            .into_par_iter()
            .map(|run| {
                let skip = broken.load(Ordering::Relaxed)
                    || (options.fail_fast && run > first_failed.load(Ordering::Relaxed));
                if skip {
                    return None;
                }
                let start = run * per_run;
                let end = (start + per_run).min(count);
                let boards: Vec<Board> = (start..end).map(|index| generator.board(index)).collect();
                let cases: Vec<u64> = (start..end)
                    .map(|index| generator.case_number(index))
                    .collect();
                let result = judge_run(
                    runner,
                    &Checker::new(&boards),
                    &cases,
                    options.strict_whitespace,
                );
                progress(end - start);
                Some(match result {
                    Ok((record, failed)) => {
                        if let Some(failed) = failed {
                            first_failed.fetch_min(run, Ordering::Relaxed);
                            let mut kept =
                                failure.lock().unwrap_or_else(|poison| poison.into_inner());
                            if kept.as_ref().is_none_or(|(earlier, _)| run < *earlier) {
                                *kept = Some((run, failed));
                            }
                        }
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
    if let Some(at) = records
        .iter()
        .position(|record| matches!(record, Some(Err(_))))
        && let Some(Err(error)) = records.swap_remove(at)
    {
        return Err(error);
    }
    // Every run up to the first failure was made; with fail_fast, those
    // after it are dropped whether made or not, so that the report does not
    // depend on the number of jobs.
    let reported = if options.fail_fast {
        records
            .len()
            .min(first_failed.load(Ordering::Relaxed).saturating_add(1) as usize)
    } else {
        records.len()
    };
    let kept: Vec<RunRecord> = records
        .into_iter()
        .take(reported)
        .flatten()
        .flatten()
        .collect();
    let failure = match failure
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner())
    {
        Some((_, run)) => {
            let smallest = shrink(&run, runner, options.strict_whitespace)?;
            Some(Failure { run, smallest })
        }
        None => None,
    };
    Ok(CampaignReport {
        runs_not_reported: runs - kept.len() as u64,
        runs: kept,
        failure,
        elapsed: started.elapsed(),
        runner_cpu: own_cpu_time().saturating_sub(cpu_before),
    })
}

/// The user and system CPU time this process has used so far, all its
/// threads, without its children.
fn own_cpu_time() -> Duration {
    // SAFETY: an all-zero rusage is a valid value, and getrusage only
    // writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    cpu_of(&usage)
}
