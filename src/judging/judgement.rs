//! Judges' verdicts on a run: what the runner saw, then what the checker
//! says of the output.
//!
//! # Overview
//!
//! [`Judgement::of`] turns a [`Run`] into a [`Judgement`], in the order judges
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

use super::alignment::{self, Misalignment};
use crate::checker::{CheckOptions, Checker, Reason, VerdictKind};
use crate::runner::{Exit, Limits, MIB, Measurement, Run, Termination, signal_name};
use crate::verdict::Verdict;

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
        exit: Exit,
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
    /// Judges `run`, a run on `checker`'s boards, whose case numbers in
    /// the campaign are `cases`; `script` tells whether a shell ran the
    /// command. See the [module docs](self): a pure function of what the
    /// runner observed.
    ///
    /// # Panics
    ///
    /// When `cases` and the checker's boards differ in number.
    pub fn of(
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
            Termination::Exited(0) => Judgement::of_output(&run.stdout, checker, cases, check),
            Termination::Exited(code) => {
                runtime_error(run, limits, script, Exit::Status(code), false)
            }
            Termination::Signalled {
                signal,
                possibly_out_of_memory,
            } => runtime_error(
                run,
                limits,
                script,
                Exit::Signal(signal),
                possibly_out_of_memory,
            ),
        }
    }

    /// The checker's judgement of the output of a program that exited
    /// normally; missing and surplus answers named as such.
    fn of_output(
        stdout: &[u8],
        checker: &Checker,
        cases: &[u64],
        check: &CheckOptions,
    ) -> Judgement {
        let verdict = checker.check(stdout, check);
        if verdict.is_ok() {
            return Judgement::Accepted;
        }
        let case = verdict.case().map(|position| cases[position - 1]);
        let misplaced = verdict.case().and_then(|position| {
            alignment::explain(checker.answers(), cases, stdout, position - 1)
        });
        match misplaced {
            Some(misalignment) if !is_whitespace_fault(verdict.reason()) => Judgement::Misaligned {
                kind: verdict.kind(),
                misalignment,
            },
            _ => Judgement::Rejected {
                case,
                reason: verdict.reason().clone(),
            },
        }
    }

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
            Judgement::MemoryLimit { limit_bytes } => write!(
                f,
                "{name}: the program reached the limit of {} and was stopped",
                mib(*limit_bytes)
            ),
            Judgement::RuntimeError { .. } => self.fmt_runtime_error(f),
            Judgement::OutputLimit { limit_bytes } => {
                write!(f, "{name}: more than {limit_bytes} bytes")
            }
        }
    }
}

impl Judgement {
    /// The message of a [`Judgement::RuntimeError`]: the signal or the
    /// status, what it may mean, and what the limits had to do with it.
    fn fmt_runtime_error(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Judgement::RuntimeError {
            exit,
            possibly_out_of_memory,
            script,
            address_space_limit,
            refused_forks,
            process_limit,
        } = self
        else {
            unreachable!("a runtime error");
        };
        let name = Verdict::RuntimeError.name();
        match exit {
            Exit::Signal(signal) => {
                write!(f, "{name}: killed by {}", signal_name(*signal))?;
                if *possibly_out_of_memory {
                    f.write_str(" (possibly out of memory)")?;
                }
            }
            Exit::Status(code) => {
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
}

fn runtime_error(
    run: &Run,
    limits: &Limits,
    script: bool,
    exit: Exit,
    possibly_out_of_memory: bool,
) -> Judgement {
    Judgement::RuntimeError {
        exit,
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

    fn crash(exit: Exit, possibly_out_of_memory: bool, script: bool) -> String {
        Judgement::RuntimeError {
            exit,
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
            crash(Exit::Signal(11), false, false),
            "runtime error: killed by SIGSEGV"
        );
        assert_eq!(
            crash(Exit::Signal(9), true, false),
            "runtime error: killed by SIGKILL (possibly out of memory)"
        );
        assert_eq!(
            crash(Exit::Status(3), false, false),
            "runtime error: exit status 3"
        );
        assert_eq!(
            crash(Exit::Status(134), false, true),
            "runtime error: exit status 134 (as a shell reports SIGABRT)"
        );
        assert_eq!(
            crash(Exit::Status(134), false, false),
            "runtime error: exit status 134"
        );
        // 127 is the shell's "not found", said only of a shell command.
        assert!(
            crash(Exit::Status(127), false, true)
                .starts_with("runtime error: exit status 127 (the shell's \"not found\": "),
        );
        assert_eq!(
            crash(Exit::Status(127), false, false),
            "runtime error: exit status 127"
        );
    }

    #[test]
    fn a_fault_of_the_jury_reads_as_fail() {
        let reason = Reason::WrongJuryAnswer(Box::new(Reason::BadJudgeInput {
            message: "no boards".to_owned(),
        }));
        let rejected = |case| {
            Judgement::Rejected {
                case,
                reason: reason.clone(),
            }
            .to_string()
        };
        assert_eq!(
            rejected(Some(3)),
            "FAIL case 3: the jury answer is wrong: bad judge input: no boards"
        );
        assert_eq!(
            rejected(None),
            "FAIL: the jury answer is wrong: bad judge input: no boards"
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

    /// A run on the statement's sample that ended as `termination`, having
    /// printed `stdout`.
    fn run(termination: Termination, stdout: &[u8]) -> Run {
        let mut run = super::super::fake::ended(termination, stdout.to_vec());
        run.measurement = Measurement::Cgroup(crate::runner::CgroupVersion::V2);
        run
    }

    fn judged(run: &Run) -> Judgement {
        judged_with(run, &CheckOptions::default())
    }

    /// The judgement of a run on the sample's two boards, which are the
    /// campaign's cases 7 and 9.
    fn judged_with(run: &Run, check: &CheckOptions) -> Judgement {
        let checker = Checker::new(&crate::sample::boards());
        Judgement::of(run, &Limits::DEFAULT, false, &checker, &[7, 9], check)
    }

    #[test]
    fn a_broken_limit_or_a_crash_is_judged_before_the_output() {
        let right = crate::sample::OUTPUT.as_bytes();
        let verdict = |termination| judged(&run(termination, right)).verdict();
        assert_eq!(verdict(Termination::Exited(0)), Verdict::Accepted);
        assert_eq!(verdict(Termination::CpuTimeLimit), Verdict::TimeLimit);
        assert_eq!(verdict(Termination::WallTimeLimit), Verdict::TimeLimit);
        assert_eq!(verdict(Termination::MemoryLimit), Verdict::MemoryLimit);
        assert_eq!(verdict(Termination::OutputLimit), Verdict::OutputLimit);
        assert_eq!(verdict(Termination::Exited(3)), Verdict::RuntimeError);
        let killed = Termination::Signalled {
            signal: 11,
            possibly_out_of_memory: false,
        };
        assert_eq!(verdict(killed), Verdict::RuntimeError);
        let wrong = |termination| judged(&run(termination, b"")).verdict();
        assert_eq!(wrong(Termination::Exited(0)), Verdict::WrongFormat);
        assert_eq!(wrong(Termination::CpuTimeLimit), Verdict::TimeLimit);
        assert_eq!(wrong(Termination::Exited(1)), Verdict::RuntimeError);
    }

    #[test]
    fn a_judgement_names_the_campaigns_case_numbers() {
        let wrong_second = crate::sample::OUTPUT.replacen("DDHH\n2", "DDHH\n3", 1);
        let judgement = judged(&run(Termination::Exited(0), wrong_second.as_bytes()));
        assert_eq!(judgement.verdict(), Verdict::WrongAnswer);
        assert!(
            judgement.to_string().starts_with("wrong answer case 9: "),
            "{judgement}"
        );
        let missing_first = crate::sample::OUTPUT.replacen("AC\n2\n", "", 1);
        let judgement = judged(&run(Termination::Exited(0), missing_first.as_bytes()));
        assert!(
            matches!(&judgement, Judgement::Misaligned { misalignment, .. } if misalignment.case() == 7),
            "{judgement}"
        );
    }

    #[test]
    fn a_whitespace_fault_is_not_explained_as_a_missing_answer() {
        // Case 7's answer is missing and case 9's moves line ends in a
        // blank. Compared without trailing blanks, the output is case 9's
        // answer alone; but in strict mode the checker's complaint is the
        // blank, and that is the verdict.
        let strict = CheckOptions {
            strict_whitespace: true,
            ..CheckOptions::default()
        };
        let output = run(Termination::Exited(0), b"DDHH \n2\n");
        let judgement = judged_with(&output, &strict);
        assert!(
            matches!(
                &judgement,
                Judgement::Rejected { case: Some(7), reason } if is_whitespace_fault(reason)
            ),
            "{judgement}"
        );
        // Without the blank, the missing answer is named.
        let output = run(Termination::Exited(0), b"DDHH\n2\n");
        let judgement = judged_with(&output, &strict);
        assert!(
            matches!(&judgement, Judgement::Misaligned { misalignment, .. } if misalignment.case() == 7),
            "{judgement}"
        );
    }

    #[test]
    fn without_a_cgroup_a_crash_says_memory_is_an_address_space_limit() {
        let mut crashed = run(Termination::Exited(3), b"");
        assert!(matches!(
            judged(&crashed),
            Judgement::RuntimeError {
                address_space_limit: None,
                ..
            }
        ));
        crashed.measurement = Measurement::Rusage;
        assert!(matches!(
            judged(&crashed),
            Judgement::RuntimeError {
                address_space_limit: Some(limit),
                ..
            } if limit == Limits::DEFAULT.memory_bytes
        ));
        assert!(
            judged(&crashed).to_string().ends_with(
                "memory is limited here by address space (1024 MiB per process, no cgroup), so running out of it shows as a runtime error"
            ),
            "{}",
            judged(&crashed)
        );
    }

    #[test]
    fn memory_reads_in_mib_exact_when_whole() {
        let limit = |limit_bytes| Judgement::MemoryLimit { limit_bytes }.to_string();
        assert!(limit(256 * MIB).ends_with("the limit of 256 MiB and was stopped"));
        assert!(limit(MIB + MIB / 2).ends_with("the limit of 1.5 MiB and was stopped"));
    }
}
