//! The report of a command that judges programs (`stress`, `judge`), in
//! every format: text on standard output, JSON (`--json`) and JUnit XML
//! (`--junit`).
//!
//! One [`Reporter`] renders both commands' reports. What they share is
//! written here once: the program, the limits and where the time limit came
//! from, the isolation, the command that repeats the judging, the JSON
//! envelope, the JUnit suite and its properties, and how a run or a file
//! becomes a JUnit test case. What a command found is its [`Findings`]:
//! a campaign's ([`campaign`]) or a folder's ([`folder`]).

pub mod campaign;
pub mod folder;
#[cfg(test)]
mod tests;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use rotation_game::judging::{FailedRun, Judgement, Measures};
use rotation_game::runner::{Exit, Isolation, Limits, signal_name};
use serde::Serialize;

use crate::isolation::isolation_summary;
use crate::junit;
use crate::output_args::{OutputArgs, write_file};
use crate::timing::{counted, measures, memory};

/// What a command found, in the parts the [`Reporter`] puts into each
/// format.
pub trait Findings {
    /// Whether everything judged was accepted.
    fn passed(&self) -> bool;

    /// Wall-clock time of the whole.
    fn elapsed(&self) -> Duration;

    /// What was judged, after the program in the JUnit suite's name:
    /// `(seed 1, --mix)`, `on DIR (kattis layout, 3 files)`.
    fn subject(&self) -> String;

    /// The JSON fields on what was judged, after `program`.
    fn json_subject(&self) -> impl Serialize;

    /// The JSON fields of what was found, after `isolation`.
    fn json_findings(&self) -> impl Serialize;

    /// This process's own CPU time, when the command measures it.
    fn runner_cpu(&self) -> Option<Duration> {
        None
    }

    /// The JUnit properties on what was judged, after `program`.
    fn junit_properties(&self) -> Vec<(String, String)>;

    /// The JUnit test cases: one per run, or per file.
    fn test_cases(&self) -> Vec<TestCase>;

    /// The text report above the limits: the outcome, the first failure,
    /// the counts.
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The exit status every run reported ended with, when every one
    /// failed that way and it is 126 or 127: the shell's statuses for a
    /// command that cannot be run or is not found ([`launch_status`]).
    fn launch_status(&self) -> Option<i32>;
}

/// The stopping signal that ended a judging early, when it was
/// `interrupted`.
pub fn stopped_by(interrupted: bool) -> Option<i32> {
    interrupted
        .then(rotation_game::runner::interrupt::received)
        .flatten()
}

/// The first failed run's exit status, when it is 126 or 127 and every
/// run reported (their `messages`) failed as it did.
pub fn launch_status<'a>(
    first: Option<&FailedRun>,
    mut messages: impl Iterator<Item = &'a str>,
) -> Option<i32> {
    let first = first?;
    let Judgement::RuntimeError {
        exit: Exit::Status(status @ (126 | 127)),
        ..
    } = &first.judgement
    else {
        return None;
    };
    let message = first.judgement.to_string();
    messages.all(|other| other == message).then_some(*status)
}

/// The one line that says why every run ended with `status` 126 or 127,
/// before the first failure: `hint`, or what to look at.
fn launch_failure(status: Option<i32>, hint: Option<&str>) -> Option<String> {
    let what = match status? {
        127 => "a command not found: the program, or one it starts, is not where it runs",
        _ => "a file that cannot be run: not executable, or not readable where it runs",
    };
    let why = hint.unwrap_or(
        "the program's standard error below names it; --sandbox-bind PATH shows a folder in the sandbox, and --sandbox off tells whether the sandbox is the cause",
    );
    Some(format!(
        "every run ended with exit status {} ({what}): {why}",
        status?
    ))
}

/// A run or a file, as a JUnit test case.
pub struct TestCase {
    /// Its name.
    pub name: String,
    /// What it used; its time is the CPU time.
    pub measures: Measures,
    /// Why it failed, if it did.
    pub failure: Option<CaseFailure>,
}

/// Why a run or a file failed.
pub struct CaseFailure {
    /// The verdict's code.
    pub code: &'static str,
    /// The verdict's message.
    pub message: String,
    /// What the detail says after the message and the measures.
    pub more: String,
}

/// The report of one judging, in every format (see the [module
/// docs](self)).
pub struct Reporter<'a> {
    /// The command: `stress` or `judge`.
    pub command: &'static str,
    /// The program's command line, as given.
    pub program: &'a str,
    /// The limits of every run.
    pub limits: &'a Limits,
    /// How the runs were isolated and measured.
    pub isolation: &'a Isolation,
    /// Where the time limit came from, when the command says.
    pub limit_source: Option<String>,
    /// What the sandbox hides from the program, when the command says
    /// (`the test data`).
    pub hidden: Option<&'static str>,
    /// The command line that judges again.
    pub repeat: String,
    /// When the judging started.
    pub started: SystemTime,
    /// The stopping signal that ended the judging early, if one did: the
    /// report then covers what ran before it, and says so in every format.
    pub stopped_by: Option<i32>,
    /// Why the program cannot start in the sandbox, when
    /// [`interpreter::diagnose`](crate::interpreter::diagnose) knows.
    pub launch_hint: Option<String>,
}

/// The JSON report: the findings' fields within the fields every report
/// has.
#[derive(Serialize)]
struct JsonReport<'a, S, F> {
    passed: bool,
    program: &'a str,
    #[serde(flatten)]
    subject: S,
    limits: &'a Limits,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_limit_from: Option<&'a str>,
    isolation: &'a Isolation,
    /// The stopping signal that ended the judging early (`SIGINT`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupted_by: Option<String>,
    #[serde(flatten)]
    findings: F,
    seconds: f64,
    /// This process's own CPU time (see `CampaignReport::runner_cpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    runner_cpu_seconds: Option<f64>,
    command: &'a str,
}

impl Reporter<'_> {
    /// Writes the JSON report where `output` says and the JUnit report to
    /// `junit` when asked, then the text report to standard output (unless
    /// `output` says not to); gives how writing to standard output went.
    ///
    /// # Errors
    ///
    /// The status to exit with when a report file cannot be written (said
    /// on standard error).
    pub fn write(
        &self,
        findings: &impl Findings,
        output: &OutputArgs,
        junit: Option<&Path>,
    ) -> Result<io::Result<()>, ExitCode> {
        if let Some(path) = junit {
            write_file(path, |out| junit::write(out, &self.junit_suite(findings)))?;
        }
        let json = output.write_json(self.json_report(findings))?;
        if !output.text() {
            return Ok(json);
        }
        let mut out = io::BufWriter::new(io::stdout().lock());
        Ok(self
            .write_text(&mut out, findings)
            .and_then(|()| out.flush()))
    }

    /// The text report: the findings, the limits and the command that
    /// repeats the judging.
    fn write_text(&self, out: &mut dyn Write, findings: &impl Findings) -> io::Result<()> {
        if let Some(line) = launch_failure(findings.launch_status(), self.launch_hint.as_deref()) {
            writeln!(out, "{line}")?;
        }
        findings.write_text(out)?;
        if let Some(signal) = self.stopped_by {
            writeln!(
                out,
                "stopped by {}: every run was ended; this report covers what ran before it",
                signal_name(signal)
            )?;
        }
        let limits = self.limits;
        let source = self
            .limit_source
            .as_ref()
            .map_or_else(String::new, |source| format!(" (from {source})"));
        let hidden = match self.hidden {
            Some(hidden) if self.isolation.sandboxed => {
                format!("; {hidden} hidden from the program")
            }
            _ => String::new(),
        };
        writeln!(
            out,
            "limits per run: {} s of CPU{source}, {} s of wall clock, {} of memory, {} bytes of output; {}{hidden}",
            limits.cpu_time.as_secs_f64(),
            limits.wall_time.as_secs_f64(),
            memory(limits.memory_bytes),
            limits.output_bytes,
            isolation_summary(self.isolation),
        )?;
        writeln!(out, "repeat with: {}", self.repeat)
    }

    /// The JSON report.
    fn json_report<'a, F: Findings>(
        &'a self,
        findings: &'a F,
    ) -> JsonReport<'a, impl Serialize + 'a, impl Serialize + 'a> {
        JsonReport {
            passed: findings.passed(),
            program: self.program,
            subject: findings.json_subject(),
            limits: self.limits,
            time_limit_from: self.limit_source.as_deref(),
            isolation: self.isolation,
            interrupted_by: self.stopped_by.map(signal_name),
            findings: findings.json_findings(),
            seconds: findings.elapsed().as_secs_f64(),
            runner_cpu_seconds: findings.runner_cpu().map(|cpu| cpu.as_secs_f64()),
            command: &self.repeat,
        }
    }

    /// The JUnit suite: the properties, then one test case per run or file,
    /// its time the CPU time.
    fn junit_suite(&self, findings: &impl Findings) -> junit::Suite {
        let classname = format!(
            "rotation-game.{}.{}",
            self.command,
            junit::program_file_name(self.program)
        );
        let cases = findings
            .test_cases()
            .into_iter()
            .map(|case| junit::Case {
                name: case.name,
                classname: classname.clone(),
                time: case.measures.cpu_time,
                failure: case.failure.map(|failure| junit::CaseFailure {
                    kind: failure.code.to_owned(),
                    detail: format!(
                        "{}\n{}\n{}",
                        failure.message,
                        measures(&case.measures),
                        failure.more
                    ),
                    message: failure.message,
                }),
            })
            .collect();
        junit::Suite {
            name: format!(
                "rotation-game {} {} {}",
                self.command,
                self.program,
                findings.subject()
            ),
            properties: self.junit_properties(findings),
            cases,
            started: self.started,
        }
    }

    /// The JUnit properties: the program, what was judged, the limits, the
    /// isolation and the command that repeats the judging.
    fn junit_properties(&self, findings: &impl Findings) -> Vec<(String, String)> {
        let limits = self.limits;
        let mut properties = vec![("program".to_owned(), self.program.to_owned())];
        if let Some(signal) = self.stopped_by {
            properties.push(("interrupted_by".to_owned(), signal_name(signal)));
        }
        properties.extend(findings.junit_properties());
        properties.push((
            "time_limit_seconds".to_owned(),
            limits.cpu_time.as_secs_f64().to_string(),
        ));
        if let Some(source) = &self.limit_source {
            properties.push(("time_limit_from".to_owned(), source.clone()));
        }
        properties.extend([
            (
                "wall_limit_seconds".to_owned(),
                limits.wall_time.as_secs_f64().to_string(),
            ),
            (
                "memory_limit_bytes".to_owned(),
                limits.memory_bytes.to_string(),
            ),
            (
                "output_limit_bytes".to_owned(),
                limits.output_bytes.to_string(),
            ),
            ("isolation".to_owned(), isolation_summary(self.isolation)),
            ("command".to_owned(), self.repeat.clone()),
        ]);
        properties
    }
}

/// Why `count` runs (or files: `what`) were not reported: a stop, or the
/// `max_fail`-th failure before them.
pub fn not_reported(count: u64, what: &str, max_fail: Option<usize>, interrupted: bool) -> String {
    let them = counted(count, what);
    if interrupted {
        return format!("{them} not judged: the judging was stopped");
    }
    match max_fail {
        Some(1) | None => format!(
            "{them} after the first failure not reported (the default; --max-fail N stops at the N-th, --no-fail-fast judges every {what})"
        ),
        Some(most) => format!(
            "{them} after failure number {most} not reported (--max-fail {most}; --no-fail-fast judges every {what})"
        ),
    }
}
