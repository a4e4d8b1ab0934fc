//! What the commands that judge someone else's program (`judge` and
//! `stress`) share: their flags (how many runs go at once, each run's
//! limits and isolation, how outputs are judged, when to stop, and the
//! JUnit report), and how they end when their runs cannot go on.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rotation_game::runner::{self, Limits, RunUser, Runner};

use crate::exit;
use crate::interpreter;
use crate::jobs::JobsArg;
use crate::output_args;
use crate::runner_args::{RunnerArgs, default_jobs};

/// The flags `judge` and `stress` share.
#[derive(Args, Clone, Debug)]
pub struct JudgingArgs {
    #[command(flatten)]
    pub jobs: JobsArg,

    #[command(flatten)]
    pub runner: RunnerArgs,

    /// Judge outputs with strict whitespace (as check --strict, and as a
    /// package's output validator with space_change_sensitive).
    #[arg(long)]
    pub strict: bool,

    /// Stop at the first run (for judge, file) not accepted, as judges do:
    /// the default. The runs after it are not reported.
    #[arg(long, conflicts_with_all = ["no_fail_fast", "max_fail"])]
    pub fail_fast: bool,

    /// Judge every run (for judge, every file), whatever fails: for a CI
    /// gate that wants every failure. On a program that hangs, this takes
    /// a wall-clock limit per run.
    #[arg(long, conflicts_with = "max_fail")]
    pub no_fail_fast: bool,

    /// Stop after N runs (for judge, files) not accepted; the runs after
    /// the N-th failure are not reported [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_fail: Option<u64>,

    /// Write the result to FILE as JUnit XML, one test case per run (for
    /// judge, per file), its time the CPU time, for CI systems to display.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

impl JudgingArgs {
    /// How many runs go at once: `--jobs`, or as many as the CPUs and the
    /// memory allow at `limits`.
    pub fn jobs(&self, limits: &Limits) -> usize {
        self.jobs.given().unwrap_or_else(|| default_jobs(limits))
    }

    /// After how many failures to stop: `None` with `--no-fail-fast`,
    /// else `--max-fail` or 1.
    pub fn max_fail(&self) -> Option<usize> {
        if self.no_fail_fast {
            return None;
        }
        Some(
            self.max_fail
                .map_or(1, |most| usize::try_from(most).unwrap_or(usize::MAX)),
        )
    }

    /// These flags as given, for the command that runs again (`--jobs`
    /// only when it was given).
    pub fn repeat_flags(&self) -> String {
        let mut flags = String::new();
        flags.push_str(&self.jobs.repeat_flag());
        flags.push_str(&self.runner.repeat_flags());
        if self.strict {
            flags.push_str(" --strict");
        }
        if self.no_fail_fast {
            flags.push_str(" --no-fail-fast");
        }
        if let Some(most) = self.max_fail {
            flags.push_str(&format!(" --max-fail {most}"));
        }
        flags
    }
}

/// Why `runner`'s program cannot start in its sandbox, when that can be
/// told before it runs (an interpreter from a version manager, or under a
/// prefix of its own): said on standard error as a warning, and given for
/// the report.
pub fn launch_hint(runner: &Runner, binds: &[PathBuf]) -> Option<String> {
    let isolation = runner.isolation();
    if !isolation.sandboxed {
        return None;
    }
    let other_uids = isolation.user == RunUser::OwnUid;
    let hint = interpreter::diagnose(runner.program(), binds, other_uids)?;
    eprintln!("rotation-game: warning: {hint}");
    Some(hint)
}

/// Makes a stopping signal (Ctrl-C and the like) end the runs cleanly, then
/// the command; the status to exit with when that cannot be arranged.
pub fn stop_runs_on_signals() -> Result<(), ExitCode> {
    runner::interrupt::stop_runs_on_signals().map_err(|error| {
        output_args::fail(format!("cannot handle signals: {error}"), exit::OS_ERROR)
    })
}

/// Says why the runs of `program` did not go on, and gives the status: a
/// stopping signal's (the shell's convention for a command a signal
/// ended), or an I/O error's when `doing` the runs failed.
pub fn runs_ended(error: &io::Error, doing: &str, program: &str) -> ExitCode {
    if let Some(signal) = runner::interrupt::received() {
        return output_args::fail(
            format!(
                "stopped by {}: every run was ended, and no report written",
                runner::signal_name(signal)
            ),
            exit::stopped_status(signal),
        );
    }
    output_args::fail(
        format!("cannot {doing} {program:?}: {error}"),
        exit::IO_ERROR,
    )
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        judging: JudgingArgs,
    }

    fn parsed(args: &[&str]) -> JudgingArgs {
        let mut argv = vec!["judging"];
        argv.extend_from_slice(args);
        Command::try_parse_from(argv).unwrap().judging
    }

    #[test]
    fn the_repeat_flags_are_the_flags_given_and_parse_back_to_them() {
        let given = [
            "--jobs",
            "3",
            "--time-limit",
            "2.5",
            "--wall-limit",
            "9",
            "--memory-limit",
            "64",
            "--output-limit",
            "1000",
            "--strict",
            "--max-fail",
            "4",
        ];
        let args = parsed(&given);
        let flags = args.repeat_flags();
        assert_eq!(flags, format!(" {}", given.join(" ")));
        let again = parsed(&flags.split_whitespace().collect::<Vec<_>>());
        assert_eq!(again.repeat_flags(), flags);
    }

    #[test]
    fn the_jobs_are_those_given_else_as_many_as_the_machine_holds() {
        let limits = Limits::DEFAULT;
        assert_eq!(parsed(&["--jobs", "3"]).jobs(&limits), 3);
        assert_eq!(parsed(&[]).jobs(&limits), default_jobs(&limits));
    }

    #[test]
    fn runs_that_cannot_go_on_without_a_signal_are_an_io_error() {
        // No stopping signal reaches the tests' process: the error's
        // status, EX_IOERR. (A stop's is tests/cli/stress.rs's.)
        let status = runs_ended(&io::Error::other("no more processes"), "run", "mine");
        assert_eq!(
            format!("{status:?}"),
            format!("{:?}", ExitCode::from(exit::IO_ERROR))
        );
    }

    #[test]
    fn defaults_repeat_as_nothing() {
        let args = parsed(&[]);
        assert_eq!(args.repeat_flags(), "");
    }

    #[test]
    fn a_campaign_stops_at_the_first_failure_unless_told_otherwise() {
        assert_eq!(parsed(&[]).max_fail(), Some(1));
        assert_eq!(parsed(&["--fail-fast"]).max_fail(), Some(1));
        assert_eq!(parsed(&["--max-fail", "7"]).max_fail(), Some(7));
        let every = parsed(&["--no-fail-fast"]);
        assert_eq!(every.max_fail(), None);
        assert_eq!(every.repeat_flags(), " --no-fail-fast");
        let mut argv = vec!["judging", "--no-fail-fast", "--max-fail", "2"];
        assert!(Command::try_parse_from(&argv).is_err());
        argv[1] = "--fail-fast";
        assert!(Command::try_parse_from(&argv).is_err());
        assert!(Command::try_parse_from(["judging", "--max-fail", "0"]).is_err());
    }
}
