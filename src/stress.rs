//! Stress testing: runs someone else's program on generated boards, judges
//! every output with the [checker](crate::checker), and finds the smallest
//! failing case.
//!
//! # Overview
//!
//! A campaign splits the generator's boards into runs of
//! [`StressOptions::cases_per_run`] cases, runs the program on each (through
//! [`process::run_program`]: `sh -c`, its own process group, a time limit
//! and an output limit), and judges the run ([`judge_run`]). Runs go in
//! parallel on a pool of [`StressOptions::jobs`] threads; the failing run
//! reported is the first one in board order, so the result does not depend
//! on the number of threads.
//!
//! When a run fails, [`shrink`] re-runs its cases one at a time, fewest
//! optimal moves first (ties in board order), and reports the first single
//! case that fails: the smallest failing case. A run whose cases all pass
//! alone is reported as it is.
//!
//! Each failure is reported as what it is ([`Failure`]): a crash (non-zero
//! exit status, or a signal, named), a timeout, an output flood, or the
//! checker's verdict on what the program printed (a wrong answer, or a
//! wrong output format for garbage).

pub mod process;

use std::fmt;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use nix::sys::signal::Signal;
use rayon::prelude::*;

use crate::board::Board;
use crate::checker::{CheckOptions, Checker, Verdict};
use crate::generator::Generator;
use crate::length::OptimalLength;
use crate::parser::format_input;
use crate::pattern_database;
use crate::solver::Solution;

use process::{RunLimits, RunOutput, Termination, run_program, signal_name};

/// What a campaign runs, and how.
#[derive(Clone, Debug)]
pub struct StressOptions {
    /// The program's command line, run by `sh -c`.
    pub program: String,
    /// Limits of each run.
    pub limits: RunLimits,
    /// How many cases each run gets (taken as at least 1, and at most the
    /// number of boards of the campaign).
    pub cases_per_run: u64,
    /// How many runs go at once (at least 1).
    pub jobs: usize,
    /// Whether the checker reads outputs with strict whitespace.
    pub strict_whitespace: bool,
}

/// What went wrong in a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program exited with a non-zero status.
    ExitStatus(i32),
    /// A signal killed the program.
    Signal(i32),
    /// The program ran out of time.
    Timeout {
        /// The time limit.
        limit: std::time::Duration,
    },
    /// The program printed more than the output limit.
    OutputFlood {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The checker rejected the output.
    Rejected(Verdict),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::ExitStatus(code) => {
                write!(f, "crash: exit status {code}")?;
                // A shell running the program reports a signal as 128 + N.
                match code.checked_sub(128).map(Signal::try_from) {
                    Some(Ok(signal)) => write!(f, " (as a shell reports {})", signal.as_str()),
                    _ => Ok(()),
                }
            }
            Failure::Signal(number) => write!(f, "crash: killed by {}", signal_name(*number)),
            Failure::Timeout { limit } => write!(
                f,
                "timeout: still running after {} s, the process group was killed",
                limit.as_secs_f64()
            ),
            Failure::OutputFlood { limit } => write!(
                f,
                "output flood: more than {limit} bytes, the process group was killed"
            ),
            Failure::Rejected(verdict) => write!(f, "{verdict}"),
        }
    }
}

/// A failed run: its boards, what went wrong, and what the program did.
#[derive(Clone, Debug)]
pub struct FailedRun {
    /// The run's boards, in the order given to the program.
    pub boards: Vec<Board>,
    /// Their true answers, as the checker has them, one per board.
    pub answers: Vec<Solution>,
    /// What went wrong.
    pub failure: Failure,
    /// The program's output and how it ended.
    pub output: RunOutput,
}

impl FailedRun {
    /// The run's input, as the program got it.
    pub fn input(&self) -> String {
        format_input(&self.boards)
    }
}

/// Runs the program on `boards` and judges the run: `None` when it passed.
///
/// # Errors
///
/// When the program cannot be started.
pub fn judge_run(boards: &[Board], options: &StressOptions) -> io::Result<Option<FailedRun>> {
    judge_with(&Checker::new(boards), options)
}

/// Runs the program on the checker's boards and judges the run with it.
fn judge_with(checker: &Checker, options: &StressOptions) -> io::Result<Option<FailedRun>> {
    let boards = checker.boards();
    let input = format_input(boards);
    let output = run_program(&options.program, input.as_bytes(), &options.limits)?;
    let failure = match output.termination {
        Termination::TimedOut => Some(Failure::Timeout {
            limit: options.limits.timeout,
        }),
        Termination::OutputFlood => Some(Failure::OutputFlood {
            limit: options.limits.output_limit,
        }),
        Termination::Signalled(number) => Some(Failure::Signal(number)),
        Termination::Exited(code) if code != 0 => Some(Failure::ExitStatus(code)),
        Termination::Exited(_) => {
            let check = CheckOptions {
                strict_whitespace: options.strict_whitespace,
                output_limit: options.limits.output_limit,
            };
            let verdict = checker.check(&output.stdout[..], &check);
            (!verdict.is_ok()).then_some(Failure::Rejected(verdict))
        }
    };
    Ok(failure.map(|failure| FailedRun {
        boards: boards.to_vec(),
        answers: checker.answers().to_vec(),
        failure,
        output,
    }))
}

/// The smallest failing case of a failed run: its cases re-run one at a
/// time, fewest optimal moves first; the run itself when no case fails
/// alone.
///
/// # Errors
///
/// When the program cannot be started.
pub fn shrink(failed: FailedRun, options: &StressOptions) -> io::Result<FailedRun> {
    if failed.boards.len() <= 1 {
        return Ok(failed);
    }
    let mut order: Vec<(OptimalLength, usize)> = failed
        .boards
        .iter()
        .enumerate()
        .map(|(index, board)| (pattern_database::optimal_length(board), index))
        .collect();
    order.sort_unstable();
    for (_, index) in order {
        let (board, answer) = (
            &failed.boards[index..=index],
            &failed.answers[index..=index],
        );
        let checker = Checker::with_answers(board, answer);
        if let Some(single) = judge_with(&checker, options)? {
            return Ok(single);
        }
    }
    Ok(failed)
}

/// How a campaign ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Every run passed.
    Passed {
        /// Cases judged.
        cases: u64,
        /// Runs made.
        runs: u64,
    },
    /// A run failed.
    Failed {
        /// The first failing run, in board order.
        run: Box<FailedRun>,
        /// The index of its first board in the generator.
        first_board: u64,
        /// Its smallest failing case (see [`shrink`]).
        smallest: Box<FailedRun>,
    },
}

/// Runs a campaign over the first `count` boards of `generator`; calls
/// `progress` with the number of cases each finished run judged.
///
/// # Errors
///
/// When the program cannot be started, or the thread pool cannot be built.
pub fn campaign(
    generator: &Generator,
    count: u64,
    options: &StressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<Outcome> {
    // A run never holds more than the campaign's boards, whatever was asked.
    let per_run = options.cases_per_run.clamp(1, count.max(1));
    let runs = count.div_ceil(per_run);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(io::Error::other)?;
    let judged = AtomicU64::new(0);
    let first_failure = pool.install(|| {
        (0..runs).into_par_iter().find_map_first(|run| {
            let start = run * per_run;
            let end = start.saturating_add(per_run).min(count);
            let boards: Vec<Board> = (start..end).map(|index| generator.board(index)).collect();
            let result = judge_run(&boards, options);
            judged.fetch_add(end - start, Ordering::Relaxed);
            progress(end - start);
            match result {
                Ok(None) => None,
                Ok(Some(failed)) => Some(Ok((start, failed))),
                Err(error) => Some(Err(error)),
            }
        })
    });
    match first_failure {
        None => Ok(Outcome::Passed {
            cases: judged.load(Ordering::Relaxed),
            runs,
        }),
        Some(Err(error)) => Err(error),
        Some(Ok((first_board, failed))) => {
            let smallest = shrink(failed.clone(), options)?;
            Ok(Outcome::Failed {
                run: Box::new(failed),
                first_board,
                smallest: Box::new(smallest),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::generator::Mode;

    fn options(program: &str) -> StressOptions {
        StressOptions {
            program: program.to_owned(),
            limits: RunLimits {
                timeout: Duration::from_secs(5),
                output_limit: 1 << 20,
            },
            cases_per_run: 3,
            jobs: 1,
            strict_whitespace: false,
        }
    }

    #[test]
    fn failures_say_what_they_are() {
        assert_eq!(Failure::Signal(11).to_string(), "crash: killed by SIGSEGV");
        assert_eq!(
            Failure::ExitStatus(134).to_string(),
            "crash: exit status 134 (as a shell reports SIGABRT)"
        );
        assert_eq!(Failure::ExitStatus(1).to_string(), "crash: exit status 1");
    }

    #[test]
    fn a_huge_run_size_is_cut_to_the_campaign() {
        let generator = Generator::new(4, Mode::Uniform);
        let huge = StressOptions {
            cases_per_run: u64::MAX,
            ..options("cat >/dev/null")
        };
        match campaign(&generator, 4, &huge, &|_| {}).unwrap() {
            Outcome::Failed { run, .. } => assert_eq!(run.boards.len(), 4),
            Outcome::Passed { .. } => panic!("no output fails"),
        }
    }

    #[test]
    fn shrinking_tries_the_fewest_moves_first() {
        let boards: Vec<Board> = [5, 2, 3]
            .map(|moves| {
                let length = OptimalLength::new(moves).unwrap();
                Generator::new(1, Mode::Length(length)).board(0)
            })
            .to_vec();
        let silent = options("cat >/dev/null");
        let failed = judge_run(&boards, &silent)
            .unwrap()
            .expect("no output fails");
        let smallest = shrink(failed, &silent).unwrap();
        assert_eq!(smallest.boards, [boards[1]]);
        assert!(matches!(smallest.failure, Failure::Rejected(_)));
    }
}
