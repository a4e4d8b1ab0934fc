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
//! or an input that is not judge input, is FAIL, the test file wrong, and the
//! program is not run), then the program runs on the file's bytes within the
//! runner's limits and its output is judged, cases numbered from 1 in the
//! file. [`judge_folder`] does it for every file, several at once, and
//! reports them in the folder's order, with the first failure in detail.

use std::io;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::campaign::{FailedRun, run_and_judge};
use super::data_folder::{DataFile, read_test_file};
use super::execute::Execute;
use super::parallel;
use super::report::{Measures, RunRecord};
use crate::checker::{CheckOptions, Checker, CheckerVerdict, Reason};
use crate::verdict::FileVerdict;

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
    /// What the run used (nothing when the program did not run).
    #[serde(flatten)]
    pub measures: Measures,
}

impl FileRecord {
    /// The record of a FAIL: the test file is wrong, the program did not
    /// run on it.
    fn fail(file: &DataFile, cases: usize, message: String) -> FileRecord {
        FileRecord {
            file: file.name.clone(),
            cases: cases as u64,
            verdict: FileVerdict::Fail,
            message,
            measures: Measures::default(),
        }
    }

    fn judged(file: &DataFile, run: RunRecord) -> FileRecord {
        FileRecord {
            file: file.name.clone(),
            cases: run.cases.len() as u64,
            verdict: FileVerdict::Judged(run.verdict),
            message: run.message,
            measures: run.measures,
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
    runner: &dyn Execute,
    file: &DataFile,
    strict_whitespace: bool,
) -> io::Result<(FileRecord, Option<FailedRun>)> {
    let input = read_test_file(&file.input)?;
    let answer = read_test_file(&file.answer)?;
    let checker = match Checker::from_judge_input(&input[..]) {
        Ok(checker) => checker,
        Err(verdict) => return Ok((FileRecord::fail(file, 0, verdict.to_string()), None)),
    };
    let lenient = CheckOptions {
        strict_whitespace: false,
        output_limit: runner.limits().output_bytes.max(answer.len() as u64),
    };
    let jury = checker.check(&answer[..], &lenient);
    if !jury.is_ok() {
        let fault = CheckerVerdict::new(
            jury.case(),
            Reason::WrongJuryAnswer(Box::new(jury.reason().clone())),
        );
        let record = FileRecord::fail(file, checker.boards().len(), fault.to_string());
        return Ok((record, None));
    }
    let cases: Vec<u64> = (1..=checker.boards().len() as u64).collect();
    let (run, failed) = run_and_judge(runner, &checker, &input, &cases, strict_whitespace)?;
    Ok((FileRecord::judged(file, run), failed))
}

/// How [`judge_folder`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FolderOptions {
    /// How many files are judged at once (at least 1).
    pub jobs: usize,
    /// Whether outputs are read with strict whitespace.
    pub strict_whitespace: bool,
    /// After how many files not accepted to stop (`None`: never; 1 is
    /// fail-fast, as judges do): the files after the last failure that
    /// counts are not reported, whether or not they were run.
    pub max_fail: Option<usize>,
}

/// The first file not accepted, in the folder's order.
#[derive(Clone, Debug)]
pub struct FirstFailure {
    /// Its position in the folder's files.
    pub index: usize,
    /// The failed run, when the program ran (not for a FAIL).
    pub run: Option<FailedRun>,
}

/// What [`judge_folder`] found.
#[derive(Clone, Debug)]
pub struct FolderReport {
    /// Every file reported, in the folder's order.
    pub files: Vec<FileRecord>,
    /// The first file not accepted, if any.
    pub first_failure: Option<FirstFailure>,
    /// How many of the files reported were not accepted.
    pub failures: usize,
    /// Files not reported: those after the last failure that counts (see
    /// [`FolderOptions::max_fail`]), and those a stop left unjudged.
    pub files_not_reported: usize,
    /// Whether a stopping signal ended the judging early (see
    /// [`runner::interrupt`](crate::runner::interrupt)): the files reported
    /// are those judged before it.
    pub interrupted: bool,
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
        self.files
            .iter()
            .rev()
            .max_by_key(|record| record.measures.cpu_time)
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
/// When a file cannot be read or a run cannot be made (the earliest such
/// file; with [`FolderOptions::max_fail`], only a file before the last
/// failure that counts), or the threads cannot start. A run a stopping
/// signal ended is no error: the report says it was interrupted.
pub fn judge_folder(
    runner: &dyn Execute,
    files: &[DataFile],
    options: &FolderOptions,
    progress: &(dyn Fn(&FileRecord) + Sync),
) -> io::Result<FolderReport> {
    let started = Instant::now();
    let judged = parallel::in_order(files.len(), options.jobs, options.max_fail, |index| {
        let (record, failed) = judge_file(runner, &files[index], options.strict_whitespace)?;
        progress(&record);
        let failure = (!record.verdict.is_accepted()).then_some(failed);
        Ok((record, failure))
    })?;
    Ok(FolderReport {
        files: judged.reported,
        first_failure: judged
            .first_failure
            .map(|(index, run)| FirstFailure { index, run }),
        failures: judged.failures,
        files_not_reported: judged.not_reported,
        interrupted: judged.interrupted,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;
    use std::time::Duration;

    use super::super::data_folder::{DataFolder, FolderLayout};
    use super::super::fake::{FakeRunner, answers, exited, length};
    use super::*;
    use crate::board::Board;
    use crate::generator::{Generator, Mode};
    use crate::parser::format_input;
    use crate::runner::Run;
    use crate::verdict::Verdict;

    /// Writes `NAME.in` with `boards` and `NAME.ans` with `answer` (their
    /// right answers when `None`).
    fn write(dir: &Path, name: &str, boards: &[Board], answer: Option<&str>) {
        fs::write(dir.join(format!("{name}.in")), format_input(boards)).unwrap();
        let right = answers(boards, |_| false);
        let answer = answer.map_or(right, |answer| answer.as_bytes().to_vec());
        fs::write(dir.join(format!("{name}.ans")), answer).unwrap();
    }

    /// A folder of files `a` to `e`: `b`'s answer is wrong and `d`'s input
    /// is not judge input (both FAIL), the others are right; `e` holds a
    /// board of optimal length 5.
    fn folder() -> (tempfile::TempDir, DataFolder) {
        let dir = tempfile::tempdir().unwrap();
        let boards = Generator::new(3, Mode::Mix).boards(14);
        write(dir.path(), "a", &boards[0..3], None);
        write(dir.path(), "b", &boards[3..4], Some("C\n1\n"));
        write(dir.path(), "c", &boards[1..2], None);
        fs::write(dir.path().join("d.in"), "1 2 3\n").unwrap();
        fs::write(dir.path().join("d.ans"), "").unwrap();
        write(dir.path(), "e", &boards[4..7], None);
        let folder = DataFolder::find(dir.path(), FolderLayout::Plain).unwrap();
        (dir, folder)
    }

    fn options(jobs: usize, fail_fast: bool) -> FolderOptions {
        FolderOptions {
            jobs,
            strict_whitespace: false,
            max_fail: fail_fast.then_some(1),
        }
    }

    fn right(boards: &[Board]) -> io::Result<Run> {
        Ok(exited(answers(boards, |_| false)))
    }

    fn verdicts(report: &FolderReport) -> Vec<(&str, &str)> {
        report
            .files
            .iter()
            .map(|record| (record.file.as_str(), record.verdict.code()))
            .collect()
    }

    #[test]
    fn a_wrong_test_file_is_fail_and_the_program_does_not_run_on_it() {
        let (_dir, folder) = folder();
        let runner = FakeRunner::new(right);
        let report = judge_folder(&runner, &folder.files, &options(1, false), &|_| {}).unwrap();
        let expected = [
            ("a", "AC"),
            ("b", "FAIL"),
            ("c", "AC"),
            ("d", "FAIL"),
            ("e", "AC"),
        ];
        assert_eq!(verdicts(&report), expected);
        // Only a, c and e were run.
        let runs: Vec<usize> = runner.inputs().iter().map(Vec::len).collect();
        assert_eq!(runs, [3, 1, 3]);
        let fail = &report.files[1];
        assert!(fail.message.starts_with("FAIL"), "{}", fail.message);
        assert_eq!(fail.measures, Measures::default());
        assert_eq!(
            serde_json::to_string(&report.files[2]).unwrap(),
            r#"{"file":"c","cases":1,"verdict":"AC","message":"accepted","cpu_seconds":0.002,"wall_seconds":0.004,"peak_memory_bytes":1048576}"#
        );
        assert_eq!(report.files[3].cases, 0);
        let first = report.first_failure.as_ref().unwrap();
        assert_eq!(first.index, 1);
        assert!(first.run.is_none());
        assert!(!report.all_accepted());
    }

    #[test]
    fn files_are_reported_in_the_folders_order_whatever_the_number_of_jobs() {
        let (_dir, folder) = folder();
        for jobs in [1, 2, 4] {
            // The first files take longest: they finish last.
            let runner = FakeRunner::new(|boards: &[Board]| {
                std::thread::sleep(Duration::from_millis(u64::from(
                    5 - length(&boards[0]).min(5),
                )));
                right(boards)
            });
            let report =
                judge_folder(&runner, &folder.files, &options(jobs, false), &|_| {}).unwrap();
            assert_eq!(report.files.len(), 5, "{jobs} jobs");
            let names: Vec<&str> = report
                .files
                .iter()
                .map(|record| record.file.as_str())
                .collect();
            assert_eq!(names, ["a", "b", "c", "d", "e"], "{jobs} jobs");
            assert_eq!(report.first_failure.as_ref().unwrap().index, 1);
        }
    }

    #[test]
    fn a_stop_keeps_the_files_judged_before_it() {
        let (_dir, folder) = folder();
        // File c (one board of length 1) is where the stop comes.
        let runner = FakeRunner::new(|boards: &[Board]| {
            if boards.len() == 1 && length(&boards[0]) == 1 {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
            }
            right(boards)
        });
        let report = judge_folder(&runner, &folder.files, &options(1, false), &|_| {}).unwrap();
        assert!(report.interrupted);
        assert_eq!(verdicts(&report), [("a", "AC"), ("b", "FAIL")]);
        assert_eq!((report.failures, report.files_not_reported), (1, 3));
        assert_eq!(report.first_failure.as_ref().unwrap().index, 1);
        assert!(!report.all_accepted());
        // A stop before any failure leaves files unjudged: not all
        // accepted either.
        let report =
            judge_folder(&runner, &folder.files[2..], &options(1, false), &|_| {}).unwrap();
        assert_eq!((report.failures, report.files_not_reported), (0, 3));
        assert!(report.first_failure.is_none() && !report.all_accepted());
    }

    #[test]
    fn a_folder_of_right_answers_is_all_accepted() {
        let (_dir, folder) = folder();
        // Files a, c and e; b's answer and d's input are wrong.
        let right_files: Vec<DataFile> = folder
            .files
            .iter()
            .filter(|file| ["a", "c", "e"].contains(&file.name.as_str()))
            .cloned()
            .collect();
        let report = judge_folder(
            &FakeRunner::new(right),
            &right_files,
            &options(2, false),
            &|_| {},
        )
        .unwrap();
        assert_eq!(verdicts(&report), [("a", "AC"), ("c", "AC"), ("e", "AC")]);
        assert!(report.all_accepted());
    }

    #[test]
    fn fail_fast_stops_at_the_first_file_not_accepted() {
        let (_dir, folder) = folder();
        for jobs in [1, 3] {
            let runner = FakeRunner::new(right);
            let report =
                judge_folder(&runner, &folder.files, &options(jobs, true), &|_| {}).unwrap();
            assert_eq!(
                verdicts(&report),
                [("a", "AC"), ("b", "FAIL")],
                "{jobs} jobs"
            );
            assert_eq!(report.files_not_reported, 3);
        }
    }

    #[test]
    fn the_first_failure_keeps_the_failed_run() {
        let (_dir, folder) = folder();
        // Wrong on length 2: the third board of a, and nothing else.
        let runner = FakeRunner::new(|boards: &[Board]| {
            Ok(exited(answers(boards, |board| length(board) == 2)))
        });
        let progress = std::sync::Mutex::new(Vec::new());
        let report = judge_folder(&runner, &folder.files, &options(2, false), &|record| {
            progress.lock().unwrap().push(record.file.clone())
        })
        .unwrap();
        assert_eq!(
            report.files[0].verdict,
            FileVerdict::Judged(Verdict::WrongAnswer)
        );
        assert!(
            report.files[0].message.starts_with("wrong answer case 3:"),
            "{}",
            report.files[0].message
        );
        let first = report.first_failure.as_ref().unwrap();
        assert_eq!(first.index, 0);
        assert_eq!(first.run.as_ref().unwrap().cases, [1, 2, 3]);
        assert_eq!(progress.lock().unwrap().len(), 5);
        assert_eq!(report.slowest().unwrap().file, "a");
    }
}
