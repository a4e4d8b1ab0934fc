//! What `judge` found on a folder of test files, as the
//! [`Reporter`](super::Reporter) renders it: one row per file, the first
//! failure and its failing case, the verdict counts and the slowest file;
//! one JUnit test case per file.

use std::io::{self, Write};
use std::time::Duration;

use rotation_game::answers::write_answer;
use rotation_game::board::Board;
use rotation_game::checker::Quote;
use rotation_game::judging::{
    DataFolder, FailedRun, FileRecord, FileVerdict, FolderLayout, FolderReport, Judgement,
};
use rotation_game::parser::format_input;
use serde::Serialize;

use super::{CaseFailure, Findings, TestCase, launch_status, not_reported};
use crate::colour;
use crate::repeat::show_command;
use crate::timing::{counted, memory, stderr_cut, time, verdict_counts};

/// A folder's findings.
pub struct FolderFindings<'a> {
    /// The program's command line, as given.
    pub program: &'a str,
    /// The folder judged.
    pub folder: &'a DataFolder,
    /// What judging it found.
    pub report: &'a FolderReport,
    /// The time limit, which the slowest file is held to.
    pub time_limit: Duration,
    /// After how many files not accepted the judging stopped.
    pub max_fail: Option<usize>,
}

/// The folder, as `--json` writes it.
#[derive(Serialize)]
struct Subject {
    folder: String,
    layout: FolderLayout,
}

/// What judging the folder found, as `--json` writes it.
#[derive(Serialize)]
struct Found<'a> {
    verdicts: Vec<VerdictCountJson>,
    files: &'a [FileRecord],
    failures: usize,
    files_not_reported: usize,
    first_failure: Option<FirstFailureJson>,
}

#[derive(Serialize)]
struct VerdictCountJson {
    verdict: FileVerdict,
    files: usize,
}

#[derive(Serialize)]
struct FirstFailureJson {
    file: String,
    verdict: FileVerdict,
    message: String,
    case: Option<u64>,
    case_input: Option<String>,
    expected_output: Option<String>,
    program_output: Option<String>,
    /// The first bytes of standard error (`STDERR_KEPT` at most).
    program_stderr: Option<String>,
    /// How many bytes of standard error the program wrote in all.
    program_stderr_bytes: Option<u64>,
    show: Option<String>,
}

/// The case of a failed run its judgement is about (counted from 1 in the
/// file), with its board.
struct FailingCase<'a> {
    failed: &'a FailedRun,
    case: usize,
    board: &'a Board,
}

/// The case a judgement is about, counted from 1 in the file.
fn judged_case(judgement: &Judgement) -> Option<u64> {
    match judgement {
        Judgement::Rejected { case, .. } => *case,
        Judgement::Misaligned { misalignment, .. } => Some(misalignment.case()),
        _ => None,
    }
}

impl<'a> FailingCase<'a> {
    fn of(failed: &'a FailedRun) -> Option<FailingCase<'a>> {
        let case = judged_case(&failed.judgement)? as usize;
        let board = failed.boards.get(case - 1)?;
        Some(FailingCase {
            failed,
            case,
            board,
        })
    }

    /// Its input line.
    fn input(&self) -> String {
        format_input(&[*self.board])
    }

    /// Its expected output.
    fn expected(&self) -> String {
        let mut expected = Vec::new();
        write_answer(&mut expected, &self.failed.answers[self.case - 1]);
        String::from_utf8_lossy(&expected).into_owned()
    }

    /// The command that draws it.
    fn show(&self) -> String {
        show_command(self.board, &self.failed.answers[self.case - 1].moves)
    }

    /// The detail of the text report: the input, the expected output, what
    /// the program printed there, and the command that draws it.
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let case = self.case;
        let optimal = self.failed.answers[case - 1].moves.len() as u64;
        writeln!(out, "  case {case} ({}):", counted(optimal, "optimal move"))?;
        let input = self.input();
        writeln!(out, "    input:    {}", input.lines().next().unwrap_or(""))?;
        let expected: Vec<String> = self.expected().lines().map(str::to_owned).collect();
        writeln!(out, "    expected: {}", expected.join(" / "))?;
        let found: Vec<String> = self
            .failed
            .run
            .stdout
            .split(|&byte| byte == b'\n')
            .skip(2 * (case - 1))
            .take(2)
            .map(|line| Quote::new(line).to_string())
            .collect();
        let found = if found.is_empty() {
            "none".to_owned()
        } else {
            found.join(" / ")
        };
        writeln!(
            out,
            "    output lines {} and {}: {found}",
            2 * case - 1,
            2 * case
        )?;
        writeln!(out, "    show it: {}", self.show())
    }
}

impl FolderFindings<'_> {
    /// The verdicts and how many files got each, in the order of the
    /// verdicts (FAIL last).
    fn verdict_counts(&self) -> Vec<(FileVerdict, usize)> {
        let mut verdicts: Vec<FileVerdict> = self
            .report
            .files
            .iter()
            .map(|record| record.verdict)
            .collect();
        verdicts.sort_unstable();
        verdicts.dedup();
        verdicts
            .into_iter()
            .map(|verdict| {
                let files = self
                    .report
                    .files
                    .iter()
                    .filter(|record| record.verdict == verdict)
                    .count();
                (verdict, files)
            })
            .collect()
    }

    /// The first line: accepted, or how many files were not.
    fn write_outcome(&self, out: &mut dyn Write) -> io::Result<()> {
        let report = self.report;
        let failing = report
            .files
            .iter()
            .filter(|record| !record.verdict.is_accepted())
            .count();
        let cases: u64 = report.files.iter().map(|record| record.cases).sum();
        let seconds = report.elapsed.as_secs_f64();
        let label = format!("{} {}", self.program, self.subject());
        if report.interrupted {
            writeln!(
                out,
                "judge: stopped: {} of {} judged, {failing} not accepted ({label}, {}, {seconds:.1} s)",
                report.files.len(),
                counted(self.folder.files.len() as u64, "file"),
                counted(cases, "case")
            )
        } else if report.all_accepted() {
            writeln!(
                out,
                "judge: accepted: every file ({label}, {}, {seconds:.1} s)",
                counted(cases, "case")
            )
        } else {
            writeln!(
                out,
                "judge: {failing} of {} not accepted ({label}, {}, {seconds:.1} s)",
                counted(report.files.len() as u64, "file"),
                counted(cases, "case")
            )
        }
    }

    /// A row per file: its cases, verdict, CPU time and peak memory, and
    /// the message of a file not accepted.
    fn write_rows(&self, out: &mut dyn Write) -> io::Result<()> {
        let files = &self.report.files;
        let width = files
            .iter()
            .map(|record| record.file.len())
            .max()
            .unwrap_or(0)
            .max("file".len());
        writeln!(
            out,
            "  {:<width$}  {:>5}  {:<7}  {:>8}  {:>11}",
            "file", "cases", "verdict", "CPU", "peak memory"
        )?;
        for record in files {
            let (cpu, peak) = if record.verdict == FileVerdict::Fail {
                ("-".to_owned(), "-".to_owned())
            } else {
                let measures = &record.measures;
                (time(measures.cpu_time), memory(measures.peak_memory_bytes))
            };
            let code = record.verdict.code();
            write!(
                out,
                "  {:<width$}  {:>5}  {}  {cpu:>8}  {peak:>11}",
                record.file,
                record.cases,
                colour::verdict(&format!("{code:<7}"), code, colour::stdout()),
            )?;
            if record.verdict.is_accepted() {
                writeln!(out)?;
            } else {
                writeln!(out, "  {}", record.message)?;
            }
        }
        Ok(())
    }

    /// The first failure in the JSON report.
    fn first_failure_json(&self) -> Option<FirstFailureJson> {
        let first = self.report.first_failure.as_ref()?;
        let record = &self.report.files[first.index];
        let failed = first.run.as_ref();
        let case = failed.and_then(FailingCase::of);
        Some(FirstFailureJson {
            file: record.file.clone(),
            verdict: record.verdict,
            message: record.message.clone(),
            case: failed.and_then(|failed| judged_case(&failed.judgement)),
            case_input: case.as_ref().map(FailingCase::input),
            expected_output: case.as_ref().map(FailingCase::expected),
            program_output: failed
                .map(|failed| String::from_utf8_lossy(&failed.run.stdout).into_owned()),
            program_stderr: failed
                .map(|failed| String::from_utf8_lossy(&failed.run.stderr).into_owned()),
            program_stderr_bytes: failed.map(|failed| failed.run.stderr_bytes),
            show: case.as_ref().map(FailingCase::show),
        })
    }
}

impl Findings for FolderFindings<'_> {
    fn passed(&self) -> bool {
        self.report.all_accepted()
    }

    fn launch_status(&self) -> Option<i32> {
        let report = self.report;
        launch_status(
            report
                .first_failure
                .as_ref()
                .and_then(|first| first.run.as_ref()),
            report.files.iter().map(|file| file.message.as_str()),
        )
    }

    fn elapsed(&self) -> Duration {
        self.report.elapsed
    }

    /// `on rotationgame (kattis layout, 25 files)`.
    fn subject(&self) -> String {
        format!(
            "on {} ({} layout, {})",
            self.folder.dir.display(),
            self.folder.layout,
            counted(self.folder.files.len() as u64, "file")
        )
    }

    fn json_subject(&self) -> impl Serialize {
        Subject {
            folder: self.folder.dir.display().to_string(),
            layout: self.folder.layout,
        }
    }

    fn json_findings(&self) -> impl Serialize {
        Found {
            verdicts: self
                .verdict_counts()
                .into_iter()
                .map(|(verdict, files)| VerdictCountJson { verdict, files })
                .collect(),
            files: &self.report.files,
            failures: self.report.failures,
            files_not_reported: self.report.files_not_reported,
            first_failure: self.first_failure_json(),
        }
    }

    fn junit_properties(&self) -> Vec<(String, String)> {
        vec![
            ("folder".to_owned(), self.folder.dir.display().to_string()),
            ("layout".to_owned(), self.folder.layout.to_string()),
        ]
    }

    /// One case per file; the first failure's detail holds its failing
    /// case.
    fn test_cases(&self) -> Vec<TestCase> {
        let first = self.report.first_failure.as_ref();
        self.report
            .files
            .iter()
            .enumerate()
            .map(|(index, record)| {
                let failure = (!record.verdict.is_accepted()).then(|| {
                    let case = first
                        .filter(|first| first.index == index)
                        .and_then(|first| first.run.as_ref())
                        .and_then(FailingCase::of);
                    CaseFailure {
                        code: record.verdict.code(),
                        message: record.message.clone(),
                        more: case.map_or_else(String::new, |case| {
                            format!(
                                "case {}:\n{}expected:\n{}{}\n",
                                case.case,
                                case.input(),
                                case.expected(),
                                case.show()
                            )
                        }),
                    }
                });
                TestCase {
                    name: format!("{} ({})", record.file, counted(record.cases, "case")),
                    measures: record.measures,
                    failure,
                }
            })
            .collect()
    }

    /// The rows, the first failure, the verdict counts and the slowest
    /// file.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let report = self.report;
        self.write_outcome(out)?;
        self.write_rows(out)?;
        if report.files_not_reported > 0 {
            writeln!(
                out,
                "  … {}",
                not_reported(
                    report.files_not_reported as u64,
                    "file",
                    self.max_fail,
                    report.interrupted
                )
            )?;
        }
        if let Some(first) = &report.first_failure {
            let record = &report.files[first.index];
            writeln!(out, "first failure: {}: {}", record.file, record.message)?;
            if let Some(failed) = &first.run {
                if let Some(case) = FailingCase::of(failed) {
                    case.write(out)?;
                }
                if !failed.run.stderr.is_empty() {
                    writeln!(
                        out,
                        "  program stderr{}: {}",
                        stderr_cut(&failed.run),
                        Quote::new(&failed.run.stderr)
                    )?;
                }
            }
        }
        let counts = self.verdict_counts().into_iter().map(|(verdict, files)| {
            let name = match verdict {
                FileVerdict::Judged(verdict) => verdict.name(),
                FileVerdict::Fail => "judging failure",
            };
            (files as u64, name, verdict.code())
        });
        writeln!(out, "verdicts: {}", verdict_counts(counts, ""))?;
        if let Some(slowest) = report.slowest() {
            let cpu = slowest.measures.cpu_time;
            let ratio = self.time_limit.as_secs_f64() / cpu.as_secs_f64().max(1e-3);
            writeln!(
                out,
                "slowest file: {}, {} of CPU (the time limit is {ratio:.1} times as much)",
                slowest.file,
                time(cpu),
            )?;
        }
        Ok(())
    }
}
