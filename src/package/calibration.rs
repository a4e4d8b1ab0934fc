//! Calibrating the time limit the way problemtools does, from real runs of
//! the package's submissions, and checking every submission's verdict
//! against its folder and its mistake's model.
//!
//! # Overview
//!
//! The caller (`rotation-game package --calibrate`) builds the submissions,
//! runs them on the test files under a judge's limits, and hands the
//! verdicts and CPU times over as [`SubmissionRuns`]; this module does the
//! arithmetic and the checks, and the [coverage report](crate::package::CoverageReport)
//! states the result. In order:
//!
//! 1. The accepted submissions run on every file, with problemtools'
//!    provisional limit of [`ACCEPTED_CAP_SECONDS`]. The time limit is the
//!    slowest run's CPU time times [`TIME_MULTIPLIER`], rounded up to a whole
//!    second ([`TimeLimit::from_slowest`]): [`Calibration::time_limit`].
//! 2. The wrong answers run on every file at that limit, so that the report
//!    can say which files fail them; the slow submissions run at the limit
//!    times [`TIME_SAFETY_MARGIN`], the time they must exceed, and stop at
//!    the first file they fail (as judges do: each further file would cost
//!    that long again).
//! 3. [`Calibration::new`] checks that each submission gets the verdict of
//!    its folder (every file accepted; the first failure a wrong answer, or
//!    a wrong output format, which the package's output validator reports
//!    as a wrong answer too; the first failure a time limit exceeded, over
//!    the margin), and that its
//!    first failing file is the one its model predicts: the first file the
//!    report says catches its [`Mistake`](crate::package::Mistake), and for
//!    the slow submissions the first file holding a board of more than nine
//!    moves. Anything else is a [`CalibrationProblem`].

use std::fmt;

use serde::Serialize;

use crate::package::file_coverage::FileCoverage;
use crate::package::standalone::{Role, SourceProgram};
use crate::package::{TIME_MULTIPLIER, TIME_SAFETY_MARGIN, TimeLimit};
use crate::verdict::{FileVerdict, Verdict};

/// The CPU time the accepted submissions may take per file while the limit
/// is not known yet: problemtools' five minutes.
pub const ACCEPTED_CAP_SECONDS: u32 = 300;

/// The longest board, in moves, that the slow submissions get through
/// quickly: a search without an estimate tries about 7 times as many
/// boards per move, 7^9 (some 4·10^7) at 9 moves, and 7^12 (some 1.4·10^10)
/// in its pass at 12 moves alone on a board of 13.
pub const SLOW_QUICK_MAX_LENGTH: u8 = 9;

/// One submission's result on one test file, from a real run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileRun {
    /// The test file's name, as the report's rows give it
    /// (`03-tie-break-move-order`).
    pub file: String,
    /// The verdict (it serializes as its code: `AC`, `WA`, `PE`, `TLE`,
    /// `MLE`, `RTE`, `OLE`, or `FAIL` for a test file the checker finds
    /// wrong).
    pub verdict: FileVerdict,
    /// The run's CPU time, in seconds.
    pub cpu_seconds: f64,
}

impl FileRun {
    fn accepted(&self) -> bool {
        self.verdict.is_accepted()
    }
}

/// A submission's runs, in the order of the test files.
#[derive(Clone, Debug)]
pub struct SubmissionRuns {
    /// The submission.
    pub program: SourceProgram,
    /// Its runs: on every file, or up to the first it fails.
    pub runs: Vec<FileRun>,
    /// The CPU time limit it ran with, in seconds.
    pub limit_seconds: f64,
}

/// The slowest run of an accepted submission.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SlowestRun {
    /// The submission's path in the package.
    pub program: String,
    /// The test file.
    pub file: String,
    /// Its CPU time, in seconds.
    pub cpu_seconds: f64,
}

impl SlowestRun {
    /// The slowest run of the `accepted` submissions' runs; `None` when
    /// they made none.
    pub fn of(accepted: &[SubmissionRuns]) -> Option<SlowestRun> {
        accepted
            .iter()
            .flat_map(|runs| {
                runs.runs.iter().map(|run| SlowestRun {
                    program: runs.program.path(),
                    file: run.file.clone(),
                    cpu_seconds: run.cpu_seconds,
                })
            })
            .fold(None, |slowest: Option<SlowestRun>, run| match slowest {
                Some(slowest) if slowest.cpu_seconds >= run.cpu_seconds => Some(slowest),
                _ => Some(run),
            })
    }

    /// The time limit problemtools sets from this run.
    pub fn time_limit(&self) -> TimeLimit {
        TimeLimit::from_slowest(self.cpu_seconds)
    }
}

/// What the real runs of one submission showed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SubmissionResult {
    /// The submission's path in the package.
    pub program: String,
    /// The verdict its folder names: `AC`, `WA` or `TLE`.
    pub expected: Verdict,
    /// The CPU time limit it ran with, in seconds.
    pub limit_seconds: f64,
    /// How many files it ran on.
    pub files_run: usize,
    /// The files it failed, in order, with their verdicts.
    pub failures: Vec<FileRun>,
    /// The file its model says it fails first (none for accepted
    /// submissions).
    pub predicted_first_failure: Option<String>,
    /// Its slowest run, when it passed every file.
    pub slowest: Option<FileRun>,
}

impl SubmissionResult {
    /// The first file it failed.
    pub fn first_failure(&self) -> Option<&FileRun> {
        self.failures.first()
    }
}

/// Something the real runs showed that the package must not have.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum CalibrationProblem {
    /// An accepted submission failed a file.
    NotAccepted {
        /// The submission.
        program: String,
        /// Its first failure.
        run: FileRun,
    },
    /// A wrong or slow submission passed every file.
    NeverFails {
        /// The submission.
        program: String,
        /// The verdict it should have got.
        expected: Verdict,
    },
    /// A wrong or slow submission first failed with another verdict than
    /// its folder's.
    WrongVerdict {
        /// The submission.
        program: String,
        /// The verdict it should have got.
        expected: Verdict,
        /// Its first failure.
        run: FileRun,
    },
    /// A submission first failed on another file than its model predicts.
    ModelDisagrees {
        /// The submission.
        program: String,
        /// The file the model predicts, if any.
        predicted: Option<String>,
        /// The file it failed first.
        real: String,
    },
}

impl fmt::Display for CalibrationProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalibrationProblem::NotAccepted { program, run } => write!(
                f,
                "{program} is in accepted/ but got {} on {}",
                run.verdict.code(),
                run.file
            ),
            CalibrationProblem::NeverFails { program, expected } => {
                write!(
                    f,
                    "{program} should get {} but passed every file",
                    expected.code()
                )
            }
            CalibrationProblem::WrongVerdict {
                program,
                expected,
                run,
            } => write!(
                f,
                "{program} should get {} but first got {} on {}",
                expected.code(),
                run.verdict.code(),
                run.file
            ),
            CalibrationProblem::ModelDisagrees {
                program,
                predicted,
                real,
            } => write!(
                f,
                "{program} first fails on {real}, but its model predicts {}",
                predicted.as_deref().unwrap_or("no file")
            ),
        }
    }
}

/// The outcome of calibrating a package: the time limit, the slowest
/// accepted run times [`TIME_MULTIPLIER`] rounded up to a whole second, as
/// problemtools sets it; and each submission's result, checked against its
/// folder's verdict (a wrong output format counts as a wrong answer, as the
/// package's output validator reports it) and against the first failing
/// file its model predicts (the first file the report says catches its
/// mistake; for the slow ones, the first holding a board of more than
/// [`SLOW_QUICK_MAX_LENGTH`] moves, which they must fail by running past
/// [`TIME_SAFETY_MARGIN`] times the limit).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    /// The slowest run of an accepted submission.
    pub slowest: SlowestRun,
    /// The time limit: the slowest run times [`TIME_MULTIPLIER`], rounded
    /// up.
    pub time_limit: TimeLimit,
    /// What a too slow submission must exceed: the limit times
    /// [`TIME_SAFETY_MARGIN`], in seconds.
    pub too_slow_seconds: u32,
    /// Every submission's results, in the order of the runs given.
    pub submissions: Vec<SubmissionResult>,
    /// What is wrong, if anything.
    pub problems: Vec<CalibrationProblem>,
}

/// Whether a first failure with the judges' code `verdict` is the verdict
/// `expected`. A wrong output format (PE) counts as a wrong answer: the
/// package's output validator exits 43 for both, which problemtools, Kattis
/// and DOMjudge all call WA.
fn gets(expected: Verdict, verdict: FileVerdict) -> bool {
    verdict == FileVerdict::Judged(expected)
        || (expected == Verdict::WrongAnswer
            && verdict == FileVerdict::Judged(Verdict::WrongFormat))
}

/// The file the model of `program` predicts it fails first, among the
/// report's `files`.
pub(crate) fn predicted_first_failure<'a>(
    program: &SourceProgram,
    files: &'a [FileCoverage],
) -> Option<&'a FileCoverage> {
    match (program.role, program.mistake) {
        (Role::WrongAnswer, Some(mistake)) => {
            files.iter().find(|file| file.mistakes.contains(&mistake))
        }
        (Role::TimeLimitExceeded, _) => files
            .iter()
            .find(|file| file.lengths.last() > Some(&SLOW_QUICK_MAX_LENGTH)),
        _ => None,
    }
}

impl Calibration {
    /// The calibration of the package whose files' coverage `report` gives
    /// (a [`CoverageReport`](crate::package::CoverageReport)), from
    /// the runs of its submissions (the accepted ones' runs give the
    /// limit); see [`Calibration`].
    ///
    /// `None` when no accepted submission made a run.
    pub fn new(
        runs: &[SubmissionRuns],
        report: &impl AsRef<[FileCoverage]>,
    ) -> Option<Calibration> {
        let files = report.as_ref();
        let accepted: Vec<SubmissionRuns> = runs
            .iter()
            .filter(|runs| runs.program.role == Role::Accepted)
            .cloned()
            .collect();
        let slowest = SlowestRun::of(&accepted)?;
        let time_limit = slowest.time_limit();
        let mut problems = Vec::new();
        let mut submissions = Vec::new();
        for submission in runs {
            let program = submission.program.path();
            let expected = submission
                .program
                .role
                .expected_verdict()
                .expect("a submission has an expected verdict");
            let failures: Vec<FileRun> = submission
                .runs
                .iter()
                .filter(|run| !run.accepted())
                .cloned()
                .collect();
            let predicted =
                predicted_first_failure(&submission.program, files).map(|file| file.name.clone());
            match (expected, failures.first()) {
                (Verdict::Accepted, Some(run)) => problems.push(CalibrationProblem::NotAccepted {
                    program: program.clone(),
                    run: run.clone(),
                }),
                (Verdict::Accepted, None) => {}
                (_, None) => problems.push(CalibrationProblem::NeverFails {
                    program: program.clone(),
                    expected,
                }),
                (_, Some(run)) => {
                    if !gets(expected, run.verdict) {
                        problems.push(CalibrationProblem::WrongVerdict {
                            program: program.clone(),
                            expected,
                            run: run.clone(),
                        });
                    }
                    if predicted.as_ref() != Some(&run.file) {
                        problems.push(CalibrationProblem::ModelDisagrees {
                            program: program.clone(),
                            predicted: predicted.clone(),
                            real: run.file.clone(),
                        });
                    }
                }
            }
            let slowest = failures.is_empty().then(|| {
                submission
                    .runs
                    .iter()
                    .fold(None, |slowest: Option<&FileRun>, run| match slowest {
                        Some(slowest) if slowest.cpu_seconds >= run.cpu_seconds => Some(slowest),
                        _ => Some(run),
                    })
                    .cloned()
            });
            submissions.push(SubmissionResult {
                program,
                expected,
                limit_seconds: submission.limit_seconds,
                files_run: submission.runs.len(),
                failures,
                predicted_first_failure: predicted,
                slowest: slowest.flatten(),
            });
        }
        Some(Calibration {
            slowest,
            time_limit,
            too_slow_seconds: Calibration::too_slow_limit(time_limit),
            submissions,
            problems,
        })
    }

    /// The limit too slow submissions run with, in seconds.
    pub fn too_slow_limit(time_limit: TimeLimit) -> u32 {
        time_limit.seconds() * TIME_SAFETY_MARGIN
    }

    /// The arithmetic, in words: `3 × 3.64 s = 10.92 s, rounded up: 11 s`.
    pub fn arithmetic(&self) -> String {
        format!(
            "{TIME_MULTIPLIER} × {:.2} s = {:.2} s, rounded up: {} s",
            self.slowest.cpu_seconds,
            self.slowest.cpu_seconds * f64::from(TIME_MULTIPLIER),
            self.time_limit.seconds()
        )
    }
}

#[cfg(test)]
impl Calibration {
    /// The calibration whose slowest accepted run is `program` on `file`
    /// in `cpu_seconds`, with the limits problemtools sets from it, the
    /// `submissions` given and no problems: for the tests of what states a
    /// calibration.
    pub(crate) fn of_slowest(
        program: &str,
        file: &str,
        cpu_seconds: f64,
        submissions: Vec<SubmissionResult>,
    ) -> Calibration {
        let slowest = SlowestRun {
            program: program.to_owned(),
            file: file.to_owned(),
            cpu_seconds,
        };
        let time_limit = slowest.time_limit();
        Calibration {
            slowest,
            time_limit,
            too_slow_seconds: Calibration::too_slow_limit(time_limit),
            submissions,
            problems: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::{Mistake, SUBMISSIONS};

    fn program(file_name: &str) -> SourceProgram {
        *SUBMISSIONS
            .iter()
            .find(|program| program.file_name == file_name)
            .unwrap()
    }

    fn run(file: &str, verdict: &str, cpu_seconds: f64) -> FileRun {
        FileRun {
            file: file.to_owned(),
            verdict: if verdict == "FAIL" {
                FileVerdict::Fail
            } else {
                let judged = Verdict::ALL.into_iter().find(|v| v.code() == verdict);
                FileVerdict::Judged(judged.expect("a verdict's code"))
            },
            cpu_seconds,
        }
    }

    fn row(name: &str, longest: u8, mistakes: Vec<Mistake>) -> FileCoverage {
        FileCoverage {
            path: format!("data/secret/{name}"),
            name: name.to_owned(),
            purpose: String::new(),
            cases: 1,
            lengths: vec![longest],
            digits: vec![1],
            first_letters: vec![],
            solved_boards: 0,
            tie_break_boards: 0,
            most_shortest_sequences: 1,
            hardest_boards: 0,
            classic_nodes: 1,
            classic_nodes_most: 1,
            move_orders_failing: 0,
            move_pairs: 0,
            mistakes,
        }
    }

    fn report() -> Vec<FileCoverage> {
        vec![
            row("01-short", 4, vec![]),
            row("02-ties", 6, vec![Mistake::NoDigitAfterNoMovesNeeded]),
            row("03-long", 13, vec![Mistake::NoDigitAfterNoMovesNeeded]),
        ]
    }

    fn runs(file_name: &str, limit: f64, runs: Vec<FileRun>) -> SubmissionRuns {
        SubmissionRuns {
            program: program(file_name),
            runs,
            limit_seconds: limit,
        }
    }

    #[test]
    fn the_limit_is_the_multiple_of_the_slowest_accepted_run_rounded_up_and_slow_ones_must_double_it()
     {
        let calibration = Calibration::new(
            &[
                runs(
                    "classic_ida.cpp",
                    300.0,
                    vec![
                        run("01-short", "AC", 0.01),
                        run("02-ties", "AC", 1.2),
                        run("03-long", "AC", 2.41),
                    ],
                ),
                runs(
                    "pattern_database.rs",
                    300.0,
                    vec![run("03-long", "AC", 0.05)],
                ),
                runs(
                    "no_digit_after_no_moves.cpp",
                    13.0,
                    vec![
                        run("01-short", "AC", 0.0),
                        run("02-ties", "PE", 0.0),
                        run("03-long", "WA", 2.0),
                    ],
                ),
                runs(
                    "iterative_deepening.cpp",
                    26.0,
                    vec![
                        run("01-short", "AC", 0.0),
                        run("02-ties", "AC", 0.1),
                        run("03-long", "TLE", 26.01),
                    ],
                ),
            ],
            &report(),
        )
        .unwrap();
        assert_eq!(calibration.time_limit.seconds(), 8);
        assert_eq!(calibration.too_slow_seconds, 16);
        assert_eq!(calibration.slowest.file, "03-long");
        assert_eq!(
            calibration.slowest.program,
            "submissions/accepted/classic_ida.cpp"
        );
        assert_eq!(
            calibration.arithmetic(),
            "3 × 2.41 s = 7.23 s, rounded up: 8 s"
        );
        assert_eq!(calibration.problems, []);
        let wrong = &calibration.submissions[2];
        assert_eq!(wrong.failures.len(), 2);
        assert_eq!(wrong.predicted_first_failure.as_deref(), Some("02-ties"));
        let slow = &calibration.submissions[3];
        assert_eq!(slow.first_failure().unwrap().verdict.code(), "TLE");
        assert_eq!(slow.predicted_first_failure.as_deref(), Some("03-long"));
        assert_eq!(
            calibration.submissions[0].slowest,
            Some(run("03-long", "AC", 2.41))
        );
    }

    #[test]
    fn every_departure_from_the_folders_and_the_models_is_a_problem() {
        let calibration = Calibration::new(
            &[
                runs(
                    "classic_ida.cpp",
                    300.0,
                    vec![run("01-short", "AC", 0.5), run("02-ties", "RTE", 0.1)],
                ),
                runs(
                    "no_digit_after_no_moves.cpp",
                    3.0,
                    vec![run("01-short", "WA", 0.0)],
                ),
                runs(
                    "iterative_deepening.cpp",
                    6.0,
                    vec![run("01-short", "AC", 0.0), run("02-ties", "WA", 0.0)],
                ),
                runs(
                    "astar_first_goal.cpp",
                    3.0,
                    vec![run("01-short", "AC", 0.0)],
                ),
            ],
            &report(),
        )
        .unwrap();
        let messages: Vec<String> = calibration
            .problems
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            messages,
            [
                "submissions/accepted/classic_ida.cpp is in accepted/ but got RTE on 02-ties",
                "submissions/wrong_answer/no_digit_after_no_moves.cpp first fails on 01-short, but its model predicts 02-ties",
                "submissions/time_limit_exceeded/iterative_deepening.cpp should get TLE but first got WA on 02-ties",
                "submissions/time_limit_exceeded/iterative_deepening.cpp first fails on 02-ties, but its model predicts 03-long",
                "submissions/wrong_answer/astar_first_goal.cpp should get WA but passed every file",
            ]
        );
        assert_eq!(calibration.time_limit.seconds(), 2);
    }

    #[test]
    fn without_accepted_runs_there_is_no_limit() {
        assert!(Calibration::new(&[], &report()).is_none());
    }

    #[test]
    fn a_wrong_format_counts_as_the_wrong_answer_a_submission_must_get_and_as_nothing_else() {
        let judged = FileVerdict::Judged;
        let (ac, wa, pe, tle) = (
            Verdict::Accepted,
            Verdict::WrongAnswer,
            Verdict::WrongFormat,
            Verdict::TimeLimit,
        );
        for (expected, verdict, answer) in [
            (wa, judged(wa), true),
            (wa, judged(pe), true),
            (tle, judged(tle), true),
            (ac, judged(ac), true),
            (tle, judged(pe), false),
            (ac, judged(pe), false),
            (wa, judged(tle), false),
            (wa, FileVerdict::Fail, false),
        ] {
            assert_eq!(gets(expected, verdict), answer, "{expected:?} {verdict:?}");
        }
    }

    #[test]
    fn a_slow_submission_is_predicted_to_fail_first_on_a_file_longer_than_the_quick_lengths() {
        let slow = program("iterative_deepening.cpp");
        let files = [
            row("01-short", 4, vec![]),
            row("02-quick", SLOW_QUICK_MAX_LENGTH, vec![]),
            row("03-longer", SLOW_QUICK_MAX_LENGTH + 1, vec![]),
        ];
        let predicted = predicted_first_failure(&slow, &files).map(|file| file.name.as_str());
        assert_eq!(predicted, Some("03-longer"));
        assert!(predicted_first_failure(&slow, &files[..2]).is_none());
        assert!(predicted_first_failure(&program("classic_ida.cpp"), &files).is_none());
    }
}
