//! Judges' verdicts on a run: what the runner saw, then what the checker
//! says of the output.
//!
//! # Overview
//!
//! [`judge`] turns a [`Run`] into a [`Judgement`], in the order judges
//! decide: the run's end first (time, memory and output limits, then a
//! crash or a non-zero exit status), and only for a program that exited
//! normally, the [checker](crate::checker)'s verdict on its output.
//! A [`Judgement`] carries the detail of its [`Verdict`], which has the
//! judges' names and short codes (AC, WA, PE, TLE, MLE, RTE, OLE).
//!
//! Case numbers in messages are the campaign's, from 1, not positions in
//! the run.

use std::fmt;
use std::time::Duration;

use nix::sys::signal::Signal;
use serde::Serialize;

use super::alignment::{self, Misalignment};
use super::init::Ended;
use super::limits::{Limits, MIB};
use super::runner::{Measurement, Run, Termination};
use super::signal_name::signal_name;
use crate::checker::{CheckOptions, Checker, Reason, VerdictKind};

/// A judge's verdict, with the judges' names and codes.
///
/// It serializes as its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Verdict {
    /// AC: every case right, within every limit.
    #[serde(rename = "AC")]
    Accepted,
    /// WA: a wrong answer, or too much or too little output.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// PE: output that is not in the judge format ("presentation error").
    #[serde(rename = "PE")]
    WrongFormat,
    /// TLE: over the CPU time limit, or the wall-clock limit.
    #[serde(rename = "TLE")]
    TimeLimit,
    /// MLE: over the memory limit.
    #[serde(rename = "MLE")]
    MemoryLimit,
    /// RTE: killed by a signal, or a non-zero exit status.
    #[serde(rename = "RTE")]
    RuntimeError,
    /// OLE: more output than the output limit.
    #[serde(rename = "OLE")]
    OutputLimit,
}

impl Verdict {
    /// Every verdict, accepted first.
    pub const ALL: [Verdict; 7] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::WrongFormat,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::OutputLimit,
    ];

    /// The judges' short code: `AC`, `WA`, `PE`, `TLE`, `MLE`, `RTE`, `OLE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::WrongFormat => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::RuntimeError => "RTE",
            Verdict::OutputLimit => "OLE",
        }
    }

    /// The judges' name, such as `time limit exceeded`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::WrongFormat => "wrong output format",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::RuntimeError => "runtime error",
            Verdict::OutputLimit => "output limit exceeded",
        }
    }
}

impl fmt::Display for Verdict {
    /// The name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which time limit a run broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimitKind {
    /// The CPU time limit.
    Cpu,
    /// The wall-clock limit, with the CPU time within its limit.
    Wall,
}

/// A verdict with its detail; `Display` gives the message, which starts
/// with the verdict's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Every case right.
    Accepted,
    /// The checker rejected the output.
    Rejected {
        /// The case it is about (the campaign's number), if any.
        case: Option<u64>,
        /// Why.
        reason: Reason,
    },
    /// Answers or lines are missing from the output, or surplus: the
    /// checker rejected a case whose lines hold another case's answer.
    Misaligned {
        /// The checker's verdict (wrong answer, or wrong format).
        kind: VerdictKind,
        /// What is missing or surplus, and where.
        misalignment: Misalignment,
    },
    /// Over a time limit.
    TimeLimit {
        /// Which limit.
        kind: TimeLimitKind,
        /// The CPU time used.
        cpu_time: Duration,
        /// The wall-clock time.
        wall_time: Duration,
        /// The limits.
        limits: (Duration, Duration),
    },
    /// Over the memory limit.
    MemoryLimit {
        /// The limit, in bytes.
        limit_bytes: u64,
    },
    /// Killed by a signal, or a non-zero exit status.
    RuntimeError {
        /// How the program ended.
        ended: Ended,
        /// For `SIGKILL`: whether the machine's out-of-memory killer may
        /// have sent it.
        possibly_out_of_memory: bool,
        /// Whether a shell ran the command (and so reports a signal that
        /// kills its last command as exit status 128 + N).
        script: bool,
        /// The memory limit when it is only an address-space limit per
        /// process (no cgroup): running out of memory then looks like this.
        address_space_limit: Option<u64>,
        /// How many times starting a process or thread failed at the limit.
        refused_forks: u64,
        /// The process limit.
        process_limit: u64,
    },
    /// Over the output limit.
    OutputLimit {
        /// The limit, in bytes.
        limit_bytes: u64,
    },
}

impl Judgement {
    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        match self {
            Judgement::Accepted => Verdict::Accepted,
            Judgement::Rejected { reason, .. } => from_checker(reason.kind()),
            Judgement::Misaligned { kind, .. } => from_checker(*kind),
            Judgement::TimeLimit { .. } => Verdict::TimeLimit,
            Judgement::MemoryLimit { .. } => Verdict::MemoryLimit,
            Judgement::RuntimeError { .. } => Verdict::RuntimeError,
            Judgement::OutputLimit { .. } => Verdict::OutputLimit,
        }
    }

    /// Whether the run passed.
    pub fn is_accepted(&self) -> bool {
        *self == Judgement::Accepted
    }
}

/// The verdict of a checker's kind. A checker failure (the checker's own
/// truth contradicted) cannot happen with exact answers; it is counted as
/// a wrong answer, and its message says FAIL.
fn from_checker(kind: VerdictKind) -> Verdict {
    match kind {
        VerdictKind::Ok => Verdict::Accepted,
        VerdictKind::WrongFormat => Verdict::WrongFormat,
        VerdictKind::WrongAnswer | VerdictKind::Fail => Verdict::WrongAnswer,
    }
}

/// Seconds to the millisecond, for messages.
fn seconds(duration: Duration) -> String {
    format!("{:.3} s", duration.as_secs_f64())
}

/// A limit in seconds as it was given (`0.5 s`, `10 s`).
fn limit_seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

/// Bytes in MiB for messages, exact when whole.
fn mib(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.verdict().name();
        match self {
            Judgement::Accepted => f.write_str(name),
            Judgement::Rejected { case, reason } => {
                let label = match reason.kind() {
                    VerdictKind::Fail => "FAIL",
                    _ => name,
                };
                match case {
                    Some(case) => write!(f, "{label} case {case}: {reason}"),
                    None => write!(f, "{label}: {reason}"),
                }
            }
            Judgement::Misaligned { misalignment, .. } => {
                write!(f, "{name} case {}: {misalignment}", misalignment.case())
            }
            Judgement::TimeLimit {
                kind: TimeLimitKind::Cpu,
                cpu_time,
                limits: (cpu_limit, _),
                ..
            } => write!(
                f,
                "{name} (CPU): used {} of CPU time, over the limit of {}",
                seconds(*cpu_time),
                limit_seconds(*cpu_limit)
            ),
            Judgement::TimeLimit {
                kind: TimeLimitKind::Wall,
                cpu_time,
                wall_time,
                limits: (cpu_limit, wall_limit),
            } => write!(
                f,
                "{name} (wall clock): still running after {} (the wall-clock limit is {}), having used {} of CPU time (the limit is {})",
                seconds(*wall_time),
                limit_seconds(*wall_limit),
                seconds(*cpu_time),
                limit_seconds(*cpu_limit)
            ),
            Judgement::MemoryLimit { limit_bytes } => {
                write!(
                    f,
                    "{name}: the program reached the limit of {} and was stopped",
                    mib(*limit_bytes)
                )
            }
            Judgement::RuntimeError {
                ended,
                possibly_out_of_memory,
                script,
                address_space_limit,
                refused_forks,
                process_limit,
            } => {
                match ended {
                    Ended::Signalled(signal) => {
                        write!(f, "{name}: killed by {}", signal_name(*signal))?;
                        if *possibly_out_of_memory {
                            f.write_str(" (possibly out of memory)")?;
                        }
                    }
                    Ended::Exited(code) => {
                        write!(f, "{name}: exit status {code}")?;
                        match code.checked_sub(128).map(Signal::try_from) {
                            Some(Ok(signal)) if *script => {
                                write!(f, " (as a shell reports {})", signal.as_str())?;
                            }
                            _ if *code == 127 && *script => f.write_str(
                                " (the shell's \"not found\": a shell command runs in the fresh work directory, and in the sandbox only the system folders and the paths it names absolutely are there: name its programs by absolute path, or have them shown in the sandbox)",
                            )?,
                            _ => {}
                        }
                    }
                }
                if *refused_forks > 0 {
                    write!(
                        f,
                        "; {refused_forks} attempts to start a process or thread failed at the limit of {process_limit}"
                    )?;
                }
                if let Some(limit) = address_space_limit {
                    write!(
                        f,
                        "; memory is limited here by address space ({} per process, no cgroup), so running out of it shows as a runtime error",
                        mib(*limit)
                    )?;
                }
                Ok(())
            }
            Judgement::OutputLimit { limit_bytes } => {
                write!(f, "{name}: more than {limit_bytes} bytes")
            }
        }
    }
}

/// Judges `run`, a run on `checker`'s boards, whose case numbers in the
/// campaign are `cases`; `script` tells whether a shell ran the command.
/// See the [module docs](self).
///
/// # Panics
///
/// When `cases` and the checker's boards differ in number.
pub fn judge(
    run: &Run,
    limits: &Limits,
    script: bool,
    checker: &Checker,
    cases: &[u64],
    check: &CheckOptions,
) -> Judgement {
    assert_eq!(cases.len(), checker.boards().len(), "one number per case");
    let time_limit = |kind| Judgement::TimeLimit {
        kind,
        cpu_time: run.cpu_time,
        wall_time: run.wall_time,
        limits: (limits.cpu_time, limits.wall_time),
    };
    match run.termination {
        Termination::CpuTimeLimit => time_limit(TimeLimitKind::Cpu),
        Termination::WallTimeLimit => time_limit(TimeLimitKind::Wall),
        Termination::MemoryLimit => Judgement::MemoryLimit {
            limit_bytes: limits.memory_bytes,
        },
        Termination::OutputLimit => Judgement::OutputLimit {
            limit_bytes: limits.output_bytes,
        },
        Termination::Exited(0) => {
            let verdict = checker.check(&run.stdout[..], check);
            if verdict.is_ok() {
                return Judgement::Accepted;
            }
            let case = verdict.case().map(|position| cases[position - 1]);
            let misplaced = verdict.case().and_then(|position| {
                alignment::explain(checker.answers(), cases, &run.stdout, position - 1)
            });
            match misplaced {
                Some(misalignment) if !is_whitespace_fault(verdict.reason()) => {
                    Judgement::Misaligned {
                        kind: verdict.kind(),
                        misalignment,
                    }
                }
                _ => Judgement::Rejected {
                    case,
                    reason: verdict.reason().clone(),
                },
            }
        }
        Termination::Exited(code) => runtime_error(run, limits, script, Ended::Exited(code), false),
        Termination::Signalled {
            signal,
            possibly_out_of_memory,
        } => runtime_error(
            run,
            limits,
            script,
            Ended::Signalled(signal),
            possibly_out_of_memory,
        ),
    }
}

fn runtime_error(
    run: &Run,
    limits: &Limits,
    script: bool,
    ended: Ended,
    possibly_out_of_memory: bool,
) -> Judgement {
    Judgement::RuntimeError {
        ended,
        possibly_out_of_memory,
        script,
        address_space_limit: (run.measurement == Measurement::Rusage)
            .then_some(limits.memory_bytes),
        refused_forks: run.refused_forks,
        process_limit: limits.processes.unwrap_or(0),
    }
}

/// Whether the checker's reason is about whitespace alone (strict mode),
/// which no misplaced answer explains.
fn is_whitespace_fault(reason: &Reason) -> bool {
    matches!(
        reason,
        Reason::TrailingWhitespace { .. }
            | Reason::CrlfLineEnd { .. }
            | Reason::MissingFinalNewline { .. }
            | Reason::BlankLineAfterLastCase { .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_have_the_judges_codes_and_names() {
        let codes: Vec<&str> = Verdict::ALL.iter().map(|v| v.code()).collect();
        assert_eq!(codes, ["AC", "WA", "PE", "TLE", "MLE", "RTE", "OLE"]);
        for verdict in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&verdict).unwrap(),
                format!("\"{}\"", verdict.code())
            );
        }
        assert_eq!(Verdict::TimeLimit.to_string(), "time limit exceeded");
    }

    fn crash(ended: Ended, possibly_out_of_memory: bool, script: bool) -> String {
        Judgement::RuntimeError {
            ended,
            possibly_out_of_memory,
            script,
            address_space_limit: None,
            refused_forks: 0,
            process_limit: 256,
        }
        .to_string()
    }

    #[test]
    fn a_runtime_error_names_the_signal_or_the_status() {
        assert_eq!(
            crash(Ended::Signalled(11), false, false),
            "runtime error: killed by SIGSEGV"
        );
        assert_eq!(
            crash(Ended::Signalled(9), true, false),
            "runtime error: killed by SIGKILL (possibly out of memory)"
        );
        assert_eq!(
            crash(Ended::Exited(3), false, false),
            "runtime error: exit status 3"
        );
        assert_eq!(
            crash(Ended::Exited(134), false, true),
            "runtime error: exit status 134 (as a shell reports SIGABRT)"
        );
        assert_eq!(
            crash(Ended::Exited(134), false, false),
            "runtime error: exit status 134"
        );
    }

    #[test]
    fn a_time_limit_says_which_and_the_cpu_time_used() {
        let judgement = |kind, cpu_ms, wall_ms| Judgement::TimeLimit {
            kind,
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_millis(wall_ms),
            limits: (Duration::from_millis(500), Duration::from_millis(1500)),
        };
        assert_eq!(
            judgement(TimeLimitKind::Cpu, 502, 1200).to_string(),
            "time limit exceeded (CPU): used 0.502 s of CPU time, over the limit of 0.5 s"
        );
        assert_eq!(
            judgement(TimeLimitKind::Wall, 7, 1502).to_string(),
            "time limit exceeded (wall clock): still running after 1.502 s (the wall-clock limit is 1.5 s), having used 0.007 s of CPU time (the limit is 0.5 s)"
        );
    }
}
