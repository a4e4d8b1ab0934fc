//! A campaign: the program run on a generator's boards, every run judged,
//! and the first failure shrunk to its smallest failing case.

use std::io;
use std::time::{Duration, Instant};

use super::execute::Execute;
use super::judgement::Judgement;
use super::parallel;
use super::report::{Measures, RunRecord};
use crate::board::Board;
use crate::checker::{CheckOptions, Checker};
use crate::generator::Generator;
use crate::length::OptimalLength;
use crate::parser::format_input;
use crate::pattern_database;
use crate::runner::{Run, own_cpu_time};
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
    /// After how many failing runs to stop (`None`: never; 1 is
    /// fail-fast): the runs after the last failure that counts (in case
    /// order) are not reported, whether or not they were made.
    pub max_fail: Option<usize>,
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
    /// when the run held one case, no case fails alone, or a stopping
    /// signal came before or during the shrinking (the campaign is then
    /// [`interrupted`](CampaignReport::interrupted)).
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
    /// How many of the runs reported failed.
    pub failures: u64,
    /// Runs not reported: those after the last failure that counts (see
    /// [`StressOptions::max_fail`]), and those a stop left unmade.
    pub runs_not_reported: u64,
    /// Whether a stopping signal ended the campaign early (see
    /// [`runner::interrupt`](crate::runner::interrupt)): the runs reported
    /// are those made before it, with gaps where runs were stopped, and the
    /// failure is not shrunk.
    pub interrupted: bool,
    /// Wall-clock time of the campaign, shrinking included.
    pub elapsed: Duration,
    /// The CPU time of this process over the campaign, all its threads:
    /// making the boards and the expected answers, starting, waiting for
    /// and judging the runs, shrinking. Without the programs and sandboxes
    /// it started: the runner's own cost, which `benches/runner_cpu.rs`
    /// gates.
    pub runner_cpu: Duration,
}

/// Runs the program on `input`, the judge input of `checker`'s boards (as
/// [`format_input`] writes it, or as it stands in a test file, its spacing
/// the file's own), and judges the run; `cases` numbers the boards.
///
/// # Errors
///
/// When the run cannot be made (see [`Execute::run`]).
pub fn run_and_judge(
    runner: &dyn Execute,
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
    let judgement = Judgement::of(
        &run,
        runner.limits(),
        runner.is_script(),
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
        measures: Measures::of(&run),
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

/// [`run_and_judge`] on `checker`'s boards as [`format_input`] writes them.
fn run_boards(
    runner: &dyn Execute,
    checker: &Checker,
    cases: &[u64],
    strict_whitespace: bool,
) -> io::Result<(RunRecord, Option<FailedRun>)> {
    let input = format_input(checker.boards());
    run_and_judge(runner, checker, input.as_bytes(), cases, strict_whitespace)
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
    runner: &dyn Execute,
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
        let (_, single) = run_boards(runner, &checker, &failed.cases[range], strict_whitespace)?;
        if single.is_some() {
            return Ok(single);
        }
    }
    Ok(None)
}

/// Runs a campaign over the `requested` boards of `generator` (its shard's
/// share of them), `options.cases_per_run` consecutive cases of the shard
/// per run, `options.jobs` runs at once; calls `progress` with the number
/// of cases each finished run judged and whether it failed.
///
/// The report does not depend on the number of jobs: runs are reported in
/// case order, and the failure reported is the first in case order.
///
/// # Errors
///
/// When a run cannot be made (the earliest such run in case order; with
/// [`StressOptions::max_fail`], only a run before the last failure that
/// counts), or the threads cannot start. A run a stopping signal ended is
/// no error: the report says it was interrupted.
pub fn campaign(
    generator: &Generator,
    requested: u64,
    runner: &dyn Execute,
    options: &StressOptions,
    progress: &(dyn Fn(u64, bool) + Sync),
) -> io::Result<CampaignReport> {
    let started = Instant::now();
    let cpu_before = own_cpu_time();
    let count = generator.count(requested);
    // A run never holds more than the campaign's cases, whatever was asked.
    let per_run = options.cases_per_run.clamp(1, count.max(1));
    let runs = usize::try_from(count.div_ceil(per_run)).map_err(io::Error::other)?;
    let judged = parallel::in_order(runs, options.jobs, options.max_fail, |run| {
        let start = run as u64 * per_run;
        let end = (start + per_run).min(count);
        let boards: Vec<Board> = (start..end).map(|index| generator.board(index)).collect();
        let cases: Vec<u64> = (start..end)
            .map(|index| generator.case_number(index))
            .collect();
        let result = run_boards(
            runner,
            &Checker::new(&boards),
            &cases,
            options.strict_whitespace,
        );
        if let Ok((_, failed)) = &result {
            progress(end - start, failed.is_some());
        }
        result
    })?;
    let mut interrupted = judged.interrupted;
    let failure = match judged.first_failure {
        Some((_, run)) if interrupted => Some(Failure {
            smallest: None,
            run,
        }),
        Some((_, run)) => {
            let smallest = match shrink(&run, runner, options.strict_whitespace) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {
                    interrupted = true;
                    None
                }
                shrunk => shrunk?,
            };
            Some(Failure { smallest, run })
        }
        None => None,
    };
    Ok(CampaignReport {
        runs: judged.reported,
        failure,
        failures: judged.failures as u64,
        interrupted,
        runs_not_reported: judged.not_reported as u64,
        elapsed: started.elapsed(),
        runner_cpu: own_cpu_time().saturating_sub(cpu_before),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use super::super::fake::{FakeRunner, answers, exited, length};
    use super::*;
    use crate::generator::{Mode, Shard};
    use crate::verdict::Verdict;

    /// Case k of the mix has optimal length (k - 1) mod 14.
    fn mix() -> Generator {
        Generator::new(1, Mode::Mix)
    }

    fn options(cases_per_run: u64, jobs: usize, fail_fast: bool) -> StressOptions {
        StressOptions {
            cases_per_run,
            jobs,
            strict_whitespace: false,
            max_fail: fail_fast.then_some(1),
        }
    }

    /// A program right on every board but those of the optimal lengths
    /// `wrong`, where it prints another centre digit.
    fn wrong_on(wrong: &'static [u8]) -> impl Fn(&[Board]) -> io::Result<Run> + Sync {
        move |boards: &[Board]| {
            Ok(exited(answers(boards, |board| {
                wrong.contains(&length(board))
            })))
        }
    }

    fn cases(report: &CampaignReport) -> Vec<Vec<u64>> {
        report.runs.iter().map(|run| run.cases.clone()).collect()
    }

    #[test]
    fn runs_are_reported_in_case_order_whatever_the_number_of_jobs() {
        let reports: Vec<Vec<RunRecord>> = [1, 2, 4]
            .into_iter()
            .map(|jobs| {
                // The shorter boards take longer: the runs finish out of order.
                let runner = FakeRunner::new(|boards: &[Board]| {
                    std::thread::sleep(Duration::from_micros(
                        50 * u64::from(14 - length(&boards[0])),
                    ));
                    Ok(exited(answers(boards, |_| false)))
                });
                let report =
                    campaign(&mix(), 42, &runner, &options(2, jobs, false), &|_, _| {}).unwrap();
                assert!(report.failure.is_none());
                report.runs
            })
            .collect();
        let expected: Vec<Vec<u64>> = (0..21).map(|run| vec![2 * run + 1, 2 * run + 2]).collect();
        let found: Vec<Vec<u64>> = reports[0].iter().map(|run| run.cases.clone()).collect();
        assert_eq!(found, expected);
        assert!(
            reports[0]
                .iter()
                .all(|run| run.verdict == Verdict::Accepted)
        );
        assert_eq!(reports[0], reports[1]);
        assert_eq!(reports[0], reports[2]);
    }

    #[test]
    fn each_run_gets_its_cases_consecutive_boards() {
        let generator = mix();
        let runner = FakeRunner::new(wrong_on(&[]));
        let progress = Mutex::new(Vec::new());
        let report = campaign(
            &generator,
            10,
            &runner,
            &options(4, 1, false),
            &|cases, failed| progress.lock().unwrap().push((cases, failed)),
        )
        .unwrap();
        assert_eq!(
            cases(&report),
            [vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10]]
        );
        assert_eq!(
            runner.inputs(),
            [
                generator.boards(10)[..4].to_vec(),
                generator.boards(10)[4..8].to_vec(),
                generator.boards(10)[8..].to_vec()
            ]
        );
        assert_eq!(
            *progress.lock().unwrap(),
            [(4, false), (4, false), (2, false)]
        );
        let lengths: Vec<u8> = report.runs[2]
            .optimal_lengths
            .iter()
            .map(|length| length.moves())
            .collect();
        assert_eq!(lengths, [8, 9]);
        // No run holds more than the campaign, and every run holds a case.
        for (asked, runs) in [(100, 1), (0, 10)] {
            let report = campaign(
                &generator,
                10,
                &FakeRunner::new(wrong_on(&[])),
                &options(asked, 2, false),
                &|_, _| {},
            )
            .unwrap();
            assert_eq!(report.runs.len(), runs, "{asked} cases per run");
        }
    }

    #[test]
    fn a_shard_runs_its_own_cases_on_the_whole_campaigns_boards() {
        let whole = mix();
        let shard = whole.clone().sharded(Shard::new(2, 3).unwrap());
        let runner = FakeRunner::new(wrong_on(&[]));
        let report = campaign(&shard, 20, &runner, &options(2, 2, false), &|_, _| {}).unwrap();
        assert_eq!(
            cases(&report),
            [vec![2, 5], vec![8, 11], vec![14, 17], vec![20]]
        );
        let given: Vec<Board> = runner.inputs().into_iter().flatten().collect();
        let expected: Vec<Board> = [2, 5, 8, 11, 14, 17, 20]
            .iter()
            .map(|case| whole.board(case - 1))
            .collect();
        let mut given_sorted = given.clone();
        given_sorted.sort_unstable_by_key(|board| expected.iter().position(|b| b == board));
        assert_eq!(given_sorted, expected);
    }

    #[test]
    fn fail_fast_reports_nothing_after_the_first_failing_run() {
        // Length 5 is cases 6 and 20.
        let all = campaign(
            &mix(),
            28,
            &FakeRunner::new(wrong_on(&[5])),
            &options(1, 2, false),
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(all.runs.len(), 28);
        assert_eq!(all.runs_not_reported, 0);
        assert_eq!(all.failures, 2);
        assert_eq!(all.failure.unwrap().run.cases, [6]);
        let failing: Vec<u64> = all
            .runs
            .iter()
            .filter(|run| run.verdict != Verdict::Accepted)
            .map(|run| run.cases[0])
            .collect();
        assert_eq!(failing, [6, 20]);
        for jobs in [1, 3] {
            let report = campaign(
                &mix(),
                28,
                &FakeRunner::new(wrong_on(&[5])),
                &options(1, jobs, true),
                &|_, _| {},
            )
            .unwrap();
            assert_eq!(
                cases(&report),
                (1..=6).map(|case| vec![case]).collect::<Vec<_>>(),
                "{jobs} jobs"
            );
            assert_eq!(report.runs_not_reported, 22);
            assert_eq!(report.failures, 1);
            assert_eq!(report.failure.unwrap().run.cases, [6]);
        }
        // Stopping after two failures reports up to the second.
        let report = campaign(
            &mix(),
            42,
            &FakeRunner::new(wrong_on(&[5])),
            &StressOptions {
                max_fail: Some(2),
                ..options(1, 2, false)
            },
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(report.runs.len(), 20);
        assert_eq!((report.failures, report.runs_not_reported), (2, 22));
    }

    #[test]
    fn a_stop_keeps_the_runs_made_and_does_not_shrink() {
        // Case 3 (length 2) fails in a run of cases 1 to 4; the stop comes
        // at the run of cases 9 to 12 (lengths 8 to 11).
        let runner = FakeRunner::new(|boards: &[Board]| {
            if boards.iter().any(|board| length(board) == 9) {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
            }
            Ok(exited(answers(boards, |board| length(board) == 2)))
        });
        let report = campaign(&mix(), 20, &runner, &options(4, 1, false), &|_, _| {}).unwrap();
        assert!(report.interrupted);
        assert_eq!(cases(&report), [vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert_eq!((report.failures, report.runs_not_reported), (1, 3));
        let failure = report.failure.unwrap();
        assert_eq!(failure.run.cases, [1, 2, 3, 4]);
        assert!(failure.smallest.is_none());
        // Three runs were asked for; none of the shrinking.
        assert_eq!(runner.inputs().len(), 3);
        // A stop while shrinking keeps the failing run.
        let runner = FakeRunner::new(|boards: &[Board]| {
            if boards.len() == 1 {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
            }
            Ok(exited(answers(boards, |board| length(board) == 2)))
        });
        let report = campaign(&mix(), 4, &runner, &options(4, 1, false), &|_, _| {}).unwrap();
        assert!(report.interrupted);
        assert_eq!(report.failure.unwrap().run.cases, [1, 2, 3, 4]);
    }

    #[test]
    fn the_first_failure_is_the_earliest_case_even_when_a_later_one_fails_first() {
        // Cases 2 and 3 fail; case 2's run waits until case 3's has ended.
        let case_3_done = (Mutex::new(false), Condvar::new());
        let runner = FakeRunner::new(|boards: &[Board]| {
            if length(&boards[0]) == 1 {
                let (done, ended) = &case_3_done;
                let done = done.lock().unwrap();
                let _unused = ended
                    .wait_timeout_while(done, Duration::from_secs(1), |done| !*done)
                    .unwrap();
            }
            let run = exited(answers(boards, |board| [1, 2].contains(&length(board))));
            if length(&boards[0]) == 2 {
                *case_3_done.0.lock().unwrap() = true;
                case_3_done.1.notify_all();
            }
            Ok(run)
        });
        let report = campaign(&mix(), 4, &runner, &options(1, 2, false), &|_, _| {}).unwrap();
        assert_eq!(report.failure.unwrap().run.cases, [2]);
    }

    #[test]
    fn the_smallest_failing_case_is_the_shortest_that_fails_alone() {
        // Lengths 9 and 5 fail: in the run of cases 1 to 14, case 6 (length
        // 5) is the smallest, found after the cases of lengths 0 to 4.
        let runner = FakeRunner::new(wrong_on(&[9, 5]));
        let report = campaign(&mix(), 14, &runner, &options(14, 1, false), &|_, _| {}).unwrap();
        let failure = report.failure.unwrap();
        assert_eq!(failure.run.cases, (1..=14).collect::<Vec<_>>());
        let smallest = failure.smallest.as_ref().unwrap();
        assert_eq!(smallest.cases, [6]);
        assert_eq!(failure.shown().cases, [6]);
        // Its input is the one case as the program got it, which a judge
        // can feed it again.
        let input = smallest.input();
        assert!(input.ends_with("\n0\n"), "{input:?}");
        assert_eq!(
            crate::parser::parse_all(input.as_bytes()).unwrap(),
            [mix().board(5)]
        );
        let tried: Vec<u8> = runner.inputs()[1..]
            .iter()
            .map(|boards| length(&boards[0]))
            .collect();
        assert_eq!(tried, [0, 1, 2, 3, 4, 5]);
        // On a tie the earlier case: six boards of length 3 all fail.
        let report = campaign(
            &Generator::new(1, Mode::Length(OptimalLength::new(3).unwrap())),
            6,
            &FakeRunner::new(wrong_on(&[3])),
            &options(6, 1, false),
            &|_, _| {},
        )
        .unwrap();
        assert_eq!(report.failure.unwrap().smallest.unwrap().cases, [1]);
    }

    #[test]
    fn a_run_that_fails_only_with_others_has_no_smallest_case() {
        // Right alone, silent when given several boards.
        let runner = FakeRunner::new(|boards: &[Board]| {
            Ok(exited(if boards.len() > 1 {
                Vec::new()
            } else {
                answers(boards, |_| false)
            }))
        });
        let report = campaign(&mix(), 3, &runner, &options(3, 1, false), &|_, _| {}).unwrap();
        let failure = report.failure.unwrap();
        assert!(failure.smallest.is_none());
        assert_eq!(failure.shown().cases, [1, 2, 3]);
        assert_eq!(runner.inputs().len(), 4);
        // A run of one case is not run again.
        let runner = FakeRunner::new(wrong_on(&[0]));
        let report = campaign(&mix(), 2, &runner, &options(1, 1, false), &|_, _| {}).unwrap();
        assert!(report.failure.unwrap().smallest.is_none());
        assert_eq!(runner.inputs().len(), 2);
    }

    #[test]
    fn a_run_that_cannot_be_made_ends_the_campaign_with_its_error() {
        let runner = FakeRunner::new(|boards: &[Board]| match length(&boards[0]) {
            3 => Err(io::Error::other("cannot start")),
            _ => Ok(exited(answers(boards, |_| false))),
        });
        let error = campaign(&mix(), 5, &runner, &options(1, 2, false), &|_, _| {}).unwrap_err();
        assert_eq!(error.to_string(), "cannot start");
        // So does one that cannot be made while shrinking: only a stop
        // keeps the failing run without its smallest case.
        let runner = FakeRunner::new(|boards: &[Board]| {
            if boards.len() == 1 {
                return Err(io::Error::other("cannot start"));
            }
            Ok(exited(answers(boards, |board| length(board) == 2)))
        });
        let error = campaign(&mix(), 4, &runner, &options(4, 1, false), &|_, _| {}).unwrap_err();
        assert_eq!(error.to_string(), "cannot start");
    }
}
