//! What a campaign of `stress` found, as the [`Reporter`](super::Reporter)
//! renders it: the outcome, the first failure and its smallest failing case
//! in detail, the summary by verdict and optimal length; one JUnit test
//! case per run.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use rotation_game::answers::write_answer;
use rotation_game::checker::Quote;
use rotation_game::generator::Generator;
use rotation_game::judging::{CampaignReport, FailedRun, Measures, RunRecord, Summary, Verdict};
use rotation_game::parser::format_input;
use serde::Serialize;

use super::{CaseFailure, Findings, TestCase, launch_status, not_reported};
use crate::baseline::Comparison;
use crate::gen_args::mode_flags;
use crate::repeat::{compact, show_command};
use crate::timing::{self, cases, counted, measures, stderr_cut};

/// A campaign's findings.
pub struct CampaignFindings<'a> {
    /// The whole campaign's generator, whose board `k - 1` is case `k`.
    pub whole: &'a Generator,
    /// The generator of the boards judged (the shard's).
    pub generator: &'a Generator,
    /// The boards asked for.
    pub requested: u64,
    /// The cases each run got.
    pub cases_per_run: u64,
    /// The campaign.
    pub report: &'a CampaignReport,
    /// Its summary.
    pub summary: &'a Summary,
    /// Where the smallest failing case was saved, if asked.
    pub saved_to: Option<&'a Path>,
    /// After how many failing runs the campaign stopped.
    pub max_fail: Option<usize>,
    /// The campaign against `--baseline`, if asked.
    pub baseline: Option<&'a Comparison>,
}

/// What the campaign covered, as `--json` writes it.
#[derive(Serialize)]
struct Subject {
    seed: Option<u64>,
    mode: String,
    boards: u64,
    shard: Option<String>,
    cases_per_run: u64,
}

/// What the campaign found, as `--json` writes it.
#[derive(Serialize)]
struct Found<'a> {
    summary: &'a Summary,
    runs: &'a [RunRecord],
    failures: u64,
    runs_not_reported: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a Comparison>,
    failure: Option<FailureJson<'a>>,
}

/// The first failure, as `--json` writes it.
#[derive(Serialize)]
struct FailureJson<'a> {
    run: FailedRunJson<'a>,
    smallest: Option<FailedRunJson<'a>>,
}

/// A failed run with its input and outputs.
#[derive(Serialize)]
struct FailedRunJson<'a> {
    cases: &'a [u64],
    verdict: &'static str,
    message: String,
    input: String,
    expected_output: String,
    program_output: String,
    /// The first bytes of standard error (`STDERR_KEPT` at most).
    program_stderr: String,
    /// How many bytes of standard error the program wrote in all.
    program_stderr_bytes: u64,
    #[serde(flatten)]
    measures: Measures,
    show: Vec<String>,
}

impl<'a> FailedRunJson<'a> {
    fn of(failed: &'a FailedRun) -> FailedRunJson<'a> {
        FailedRunJson {
            cases: &failed.cases,
            verdict: failed.judgement.verdict().code(),
            message: failed.judgement.to_string(),
            input: failed.input(),
            expected_output: expected_output(failed),
            program_output: String::from_utf8_lossy(&failed.run.stdout).into_owned(),
            program_stderr: String::from_utf8_lossy(&failed.run.stderr).into_owned(),
            program_stderr_bytes: failed.run.stderr_bytes,
            measures: Measures::of(&failed.run),
            show: show_commands(failed),
        }
    }
}

fn expected_output(failed: &FailedRun) -> String {
    let mut expected = Vec::new();
    for solution in &failed.answers {
        write_answer(&mut expected, solution);
    }
    String::from_utf8_lossy(&expected).into_owned()
}

fn show_commands(failed: &FailedRun) -> Vec<String> {
    failed
        .boards
        .iter()
        .zip(&failed.answers)
        .map(|(board, solution)| show_command(board, &solution.moves))
        .collect()
}

impl CampaignFindings<'_> {
    /// What the campaign covered: seed, mode, shard.
    fn label(&self) -> String {
        let generator = self.generator;
        let mut label = String::new();
        if generator.mode().uses_seed() {
            label.push_str(&format!("seed {}, ", generator.seed()));
        }
        label.push_str(&mode_flags(generator.mode()));
        if !generator.shard().is_whole() {
            label.push_str(&format!(", shard {}", generator.shard()));
        }
        label
    }

    /// The first line: accepted, or how many runs failed.
    fn write_outcome(&self, out: &mut dyn Write) -> io::Result<()> {
        let summary = self.summary;
        let label = self.label();
        let seconds = self.report.elapsed.as_secs_f64();
        if self.report.interrupted {
            let runs = self.report.runs.len() as u64;
            return writeln!(
                out,
                "stress: stopped: {runs} of {} judged, {} failed ({}, {label}, {seconds:.1} s)",
                counted(runs + self.report.runs_not_reported, "run"),
                self.report.failures,
                counted(summary.cases, "case")
            );
        }
        if self.report.failure.is_none() {
            return writeln!(
                out,
                "stress: accepted: {} in {} ({label}, {seconds:.1} s)",
                counted(summary.cases, "case"),
                counted(summary.runs, "run")
            );
        }
        let accepted: u64 = summary
            .verdicts
            .iter()
            .filter(|count| count.verdict == Verdict::Accepted)
            .map(|count| count.runs)
            .sum();
        writeln!(
            out,
            "stress: {} of {} failed ({}, {label}, {seconds:.1} s)",
            summary.runs - accepted,
            counted(summary.runs, "run"),
            counted(summary.cases, "case")
        )
    }

    /// The JUnit detail of a failed run after its measures: its input and
    /// the commands that draw its boards.
    fn junit_detail(&self, run: &RunRecord) -> String {
        let boards: Vec<_> = run
            .cases
            .iter()
            .map(|&case| self.whole.board(case - 1))
            .collect();
        let mut detail = format!("input:\n{}", format_input(&boards));
        for board in &boards {
            detail.push_str(&format!("rotation-game show {}\n", compact(board)));
        }
        detail
    }
}

impl Findings for CampaignFindings<'_> {
    fn passed(&self) -> bool {
        self.report.failure.is_none() && !self.report.interrupted
    }

    fn launch_status(&self) -> Option<i32> {
        let report = self.report;
        launch_status(
            report.failure.as_ref().map(|failure| &failure.run),
            report.runs.iter().map(|run| run.message.as_str()),
        )
    }

    fn elapsed(&self) -> Duration {
        self.report.elapsed
    }

    fn subject(&self) -> String {
        format!("({})", self.label())
    }

    fn json_subject(&self) -> impl Serialize {
        let shard = self.generator.shard();
        Subject {
            seed: self
                .generator
                .mode()
                .uses_seed()
                .then(|| self.generator.seed()),
            mode: mode_flags(self.generator.mode()),
            boards: self.generator.total(self.requested),
            shard: (!shard.is_whole()).then(|| shard.to_string()),
            cases_per_run: self.cases_per_run,
        }
    }

    fn json_findings(&self) -> impl Serialize {
        Found {
            summary: self.summary,
            runs: &self.report.runs,
            failures: self.report.failures,
            baseline: self.baseline,
            runs_not_reported: self.report.runs_not_reported,
            failure: self.report.failure.as_ref().map(|failure| FailureJson {
                run: FailedRunJson::of(&failure.run),
                smallest: failure.smallest.as_ref().map(FailedRunJson::of),
            }),
        }
    }

    fn runner_cpu(&self) -> Option<Duration> {
        Some(self.report.runner_cpu)
    }

    fn junit_properties(&self) -> Vec<(String, String)> {
        let generator = self.generator;
        let mut properties = Vec::new();
        if generator.mode().uses_seed() {
            properties.push(("seed".to_owned(), generator.seed().to_string()));
        }
        properties.push(("mode".to_owned(), mode_flags(generator.mode())));
        properties.push(("shard".to_owned(), generator.shard().to_string()));
        properties
    }

    /// One case per run, named by its cases and their optimal lengths; a
    /// failing run's detail holds its input and the commands that draw its
    /// boards.
    fn test_cases(&self) -> Vec<TestCase> {
        self.report
            .runs
            .iter()
            .map(|run| {
                let lengths: Vec<String> = run
                    .optimal_lengths
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                let name = if run.cases.len() == 1 {
                    format!("case {} (optimal length {})", run.cases[0], lengths[0])
                } else {
                    format!(
                        "cases {} (optimal lengths {})",
                        cases(&run.cases),
                        lengths.join(", ")
                    )
                };
                let failure = (run.verdict != Verdict::Accepted).then(|| CaseFailure {
                    code: run.verdict.code(),
                    message: run.message.clone(),
                    more: self.junit_detail(run),
                });
                TestCase {
                    name,
                    measures: run.measures,
                    failure,
                }
            })
            .collect()
    }

    /// The outcome, the first failure in detail, and the summary.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        self.write_outcome(out)?;
        if let Some(failure) = &self.report.failure {
            let run = &failure.run;
            let what = if run.cases.len() == 1 {
                format!("case {}", run.cases[0])
            } else {
                format!("the run of cases {}", cases(&run.cases))
            };
            writeln!(out, "first failure: {what}: {}", run.judgement)?;
            write_failed(
                out,
                failure.shown(),
                failure.smallest.is_some(),
                self.report.interrupted,
            )?;
            if let Some(path) = self.saved_to {
                writeln!(out, "saved to {}", path.display())?;
            }
            writeln!(out)?;
        }
        if self.report.runs_not_reported > 0 {
            writeln!(
                out,
                "{}",
                not_reported(
                    self.report.runs_not_reported,
                    "run",
                    self.max_fail,
                    self.report.interrupted
                )
            )?;
        }
        timing::write_summary(out, self.summary)?;
        if let Some(comparison) = self.baseline {
            for line in comparison.lines() {
                writeln!(out, "{line}")?;
            }
        }
        Ok(())
    }
}

/// The failing case (or run) in detail: input, expected and actual output,
/// measures, verdict, and the commands that draw it. A failing run of
/// several cases was `shrunk` to its smallest failing case, or not: then
/// no case fails alone, or a stop (`interrupted`) left it unshrunk.
fn write_failed(
    out: &mut dyn Write,
    failed: &FailedRun,
    shrunk: bool,
    interrupted: bool,
) -> io::Result<()> {
    if failed.boards.len() == 1 {
        // A run of several cases shows its smallest failing case, or
        // itself (the branch below): one board shown alone is a run of one
        // case unless the run was shrunk to it.
        let label = if shrunk {
            "smallest failing case"
        } else {
            "failing case"
        };
        writeln!(
            out,
            "{label}: case {} ({}):",
            failed.cases[0],
            counted(failed.answers[0].moves.len() as u64, "optimal move")
        )?;
    } else if interrupted {
        writeln!(
            out,
            "the failing run, cases {} (not run again case by case: the judging was stopped):",
            cases(&failed.cases)
        )?;
    } else {
        writeln!(
            out,
            "no case fails alone; the failing run, cases {}:",
            cases(&failed.cases)
        )?;
    }
    writeln!(out, "input:")?;
    write_indented(out, &failed.input())?;
    writeln!(out, "expected output:")?;
    write_indented(out, &expected_output(failed))?;
    write_output(out, &failed.run.stdout, 2 * failed.boards.len() + 2)?;
    if !failed.run.stderr.is_empty() {
        writeln!(
            out,
            "program stderr{}: {}",
            stderr_cut(&failed.run),
            Quote::new(&failed.run.stderr)
        )?;
    }
    writeln!(out, "{}", measures(&Measures::of(&failed.run)))?;
    writeln!(out, "verdict: {}", failed.judgement)?;
    for command in show_commands(failed) {
        writeln!(out, "show it: {command}")?;
    }
    Ok(())
}

/// Writes the program's output, at most `max_lines` lines of it, each
/// escaped and shortened.
fn write_output(out: &mut dyn Write, stdout: &[u8], max_lines: usize) -> io::Result<()> {
    if stdout.is_empty() {
        return writeln!(out, "program output: empty");
    }
    writeln!(out, "program output ({} bytes):", stdout.len())?;
    let lines: Vec<&[u8]> = stdout.split(|&byte| byte == b'\n').collect();
    // A final line feed leaves an empty piece that is no line.
    let count = lines.len() - usize::from(stdout.ends_with(b"\n"));
    for line in &lines[..count.min(max_lines)] {
        writeln!(out, "    {}", Quote::new(line))?;
    }
    if count > max_lines {
        writeln!(out, "    … ({} more lines)", count - max_lines)?;
    }
    Ok(())
}

fn write_indented(out: &mut dyn Write, text: &str) -> io::Result<()> {
    for line in text.lines() {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}
