//! What the commands that judge someone else's program (`judge` and
//! `stress`) share: their flags (how many runs go at once, each run's
//! limits and isolation, how outputs are judged, when to stop, and the
//! JUnit report), and how they end when their runs cannot go on.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rotation_game::stress::{self, Limits};

use crate::exit;
use crate::runner_args::{RunnerArgs, default_jobs};

/// The flags `judge` and `stress` share.
#[derive(Args, Clone, Debug)]
pub struct JudgingArgs {
    /// How many runs of the program go at once, 1 to 256 (default: the
    /// number of CPUs, or fewer if the memory available cannot hold that
    /// many runs at --memory-limit). CPU time limits do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,

    #[command(flatten)]
    pub runner: RunnerArgs,

    /// Judge outputs with strict whitespace (as check --strict, and as a
    /// package's output validator with space_change_sensitive).
    #[arg(long)]
    pub strict: bool,

    /// Stop at the first run not accepted, as judges do; the runs (or, for
    /// judge, the files) after it are not reported.
    #[arg(long)]
    pub fail_fast: bool,

    /// Write the result to FILE as JUnit XML, one test case per run (for
    /// judge, per file), its time the CPU time, for CI systems to display.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

impl JudgingArgs {
    /// How many runs go at once: `--jobs`, or as many as the CPUs and the
    /// memory allow at `limits`.
    pub fn jobs(&self, limits: &Limits) -> usize {
        self.jobs
            .map_or_else(|| default_jobs(limits), |jobs| jobs as usize)
    }

    /// These flags as given, for the command that runs again (`jobs`, what
    /// [`JudgingArgs::jobs`] chose, shows only when `--jobs` was given).
    pub fn repeat_flags(&self, jobs: usize) -> String {
        let mut flags = String::new();
        if self.jobs.is_some() {
            flags.push_str(&format!(" --jobs {jobs}"));
        }
        flags.push_str(&self.runner.repeat_flags());
        if self.strict {
            flags.push_str(" --strict");
        }
        if self.fail_fast {
            flags.push_str(" --fail-fast");
        }
        flags
    }
}

/// Makes a stopping signal (Ctrl-C and the like) end the runs cleanly, then
/// the command; the status to exit with when that cannot be arranged.
pub fn stop_runs_on_signals() -> Result<(), ExitCode> {
    stress::interrupt::stop_runs_on_signals().map_err(|error| {
        eprintln!("rotation-game: cannot handle signals: {error}");
        ExitCode::from(exit::OS_ERROR)
    })
}

/// Says why the runs of `program` did not go on, and gives the status: a
/// stopping signal's (the shell's convention for a command a signal
/// ended), or an I/O error's when `doing` the runs failed.
pub fn runs_ended(error: &io::Error, doing: &str, program: &str) -> ExitCode {
    if let Some(signal) = stress::interrupt::received() {
        eprintln!(
            "rotation-game: stopped by {}: every run was ended, and no report written",
            stress::signal_name(signal)
        );
        return ExitCode::from(128 + signal as u8);
    }
    eprintln!("rotation-game: cannot {doing} {program:?}: {error}");
    ExitCode::from(exit::IO_ERROR)
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
            "--fail-fast",
        ];
        let args = parsed(&given);
        let flags = args.repeat_flags(args.jobs(&args.runner.limits()));
        assert_eq!(flags, format!(" {}", given.join(" ")));
        let again = parsed(&flags.split_whitespace().collect::<Vec<_>>());
        assert_eq!(again.repeat_flags(3), flags);
    }

    #[test]
    fn defaults_repeat_as_nothing() {
        let args = parsed(&[]);
        assert_eq!(args.repeat_flags(args.jobs(&args.runner.limits())), "");
    }
}
