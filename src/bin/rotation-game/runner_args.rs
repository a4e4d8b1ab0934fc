//! The flags of a judge-grade run of someone else's program: its limits
//! and its isolation. Shared by the commands that run programs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use rotation_game::checker::DEFAULT_OUTPUT_LIMIT;
use rotation_game::runner::run::available_memory;
use rotation_game::runner::{
    Limits, MIB, Program, Runner, RunnerError, RunnerOptions, SandboxError, SandboxMode,
    WALL_PER_CPU,
};

use crate::exit;
use crate::repeat::shell_quote;

/// Limits and isolation of each run.
#[derive(Args, Clone, Debug)]
pub struct RunnerArgs {
    /// CPU time allowed per run, in seconds (user plus system time of the
    /// program and of every process it starts; a fraction is allowed).
    /// CPU time does not grow when the machine is busy (each command says
    /// its default).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,

    /// Wall-clock time allowed per run, in seconds: a safety net for
    /// programs that sleep or wait (default: 3 times --time-limit).
    /// --timeout is another name for it.
    #[arg(long, value_name = "SECS", visible_alias = "timeout", value_parser = parse_seconds)]
    pub wall_limit: Option<f64>,

    /// Memory allowed per run, in MiB, for the program and its processes
    /// together; a run that reaches it is stopped (memory limit exceeded).
    /// Enforced by a cgroup where one is writable (as root); otherwise as
    /// an address-space limit per process, which shows as a runtime error.
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=(1 << 24)))]
    pub memory_limit: u64,

    /// The most bytes of standard output allowed per run.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_OUTPUT_LIMIT)]
    pub output_limit: u64,

    /// Isolate each run with bubblewrap (bwrap): an unprivileged uid, no
    /// sockets, its own process ids, a minimal filesystem (the system
    /// folders and the program, read-only; a fresh work folder as /tmp).
    /// auto: when bwrap works here (else a warning); on: refuse to run
    /// without it; off: never (the program runs with your rights: never for
    /// untrusted programs, least of all as root).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = SandboxArg::Auto)]
    pub sandbox: SandboxArg,

    /// A file or folder to show read-only in the sandbox, at the same path,
    /// besides the system folders and the program: a runtime installed
    /// elsewhere, such as a JDK in /opt (repeatable).
    #[arg(long, value_name = "PATH")]
    pub sandbox_bind: Vec<PathBuf>,

    /// A file or folder the program must not see, such as the answers
    /// (repeatable; needs the sandbox).
    #[arg(long, value_name = "PATH")]
    pub hide: Vec<PathBuf>,
}

/// `--sandbox`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SandboxArg {
    /// Isolated where bubblewrap works.
    Auto,
    /// Isolated, or no run.
    On,
    /// Not isolated.
    Off,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "expected seconds between 0 and 86400, found {text:?}"
        )),
    }
}

impl RunnerArgs {
    /// The limits and isolation flags as given, for a command that runs
    /// again: a time limit when one was given, the others when they are
    /// not the defaults.
    pub fn repeat_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(seconds) = self.time_limit {
            flags.push_str(&format!(" --time-limit {seconds}"));
        }
        if let Some(wall) = self.wall_limit {
            flags.push_str(&format!(" --wall-limit {wall}"));
        }
        let defaults = Limits::DEFAULT;
        if self.memory_limit * MIB != defaults.memory_bytes {
            flags.push_str(&format!(" --memory-limit {}", self.memory_limit));
        }
        if self.output_limit != defaults.output_bytes {
            flags.push_str(&format!(" --output-limit {}", self.output_limit));
        }
        match self.sandbox {
            SandboxArg::Auto => {}
            SandboxArg::On => flags.push_str(" --sandbox on"),
            SandboxArg::Off => flags.push_str(" --sandbox off"),
        }
        for path in &self.sandbox_bind {
            flags.push_str(&format!(
                " --sandbox-bind {}",
                shell_quote(&path.display().to_string())
            ));
        }
        for path in &self.hide {
            flags.push_str(&format!(
                " --hide {}",
                shell_quote(&path.display().to_string())
            ));
        }
        flags
    }

    /// The limits the flags set.
    pub fn limits(&self) -> Limits {
        self.limits_or(Limits::DEFAULT.cpu_time)
    }

    /// The limits the flags set, with `cpu_time` as the time limit when
    /// --time-limit is not given.
    pub fn limits_or(&self, cpu_time: Duration) -> Limits {
        let cpu_time = self.time_limit.map_or(cpu_time, Duration::from_secs_f64);
        Limits {
            cpu_time,
            wall_time: self
                .wall_limit
                .map_or(cpu_time * WALL_PER_CPU, Duration::from_secs_f64),
            memory_bytes: self.memory_limit * MIB,
            output_bytes: self.output_limit,
            ..Limits::DEFAULT
        }
    }

    /// A runner for the command line `program` (paths resolved against the
    /// current directory), `concurrent_runs` runs at once, with a warning
    /// on standard error for what this machine lacks; or, having said why
    /// on standard error, the exit status.
    pub fn runner(&self, program: &str, concurrent_runs: usize) -> Result<Runner, ExitCode> {
        self.runner_hiding(program, concurrent_runs, self.limits(), &[])
    }

    /// [`runner`](Self::runner) with `limits`, hiding `answers` (the folders
    /// of the test data) from the program too when there is a sandbox to
    /// hide them: with --sandbox auto and none here, the runs go on with a
    /// warning that the program could read them.
    pub fn runner_hiding(
        &self,
        program: &str,
        concurrent_runs: usize,
        limits: Limits,
        answers: &[PathBuf],
    ) -> Result<Runner, ExitCode> {
        let cannot = |message: &dyn std::fmt::Display, status: u8| {
            crate::output_args::fail(format!("cannot run {program:?}: {message}"), status)
        };
        let here = std::env::current_dir().map_err(|error| cannot(&error, exit::IO_ERROR))?;
        let parsed =
            Program::parse(program, &here).map_err(|error| cannot(&error, exit::IO_ERROR))?;
        let mut options = RunnerOptions {
            limits,
            sandbox: match self.sandbox {
                SandboxArg::Auto => SandboxMode::Auto,
                SandboxArg::On => SandboxMode::On,
                SandboxArg::Off => SandboxMode::Off,
            },
            hidden: self.hide.clone(),
            binds: self.sandbox_bind.clone(),
            concurrent_runs,
            ..RunnerOptions::default()
        };
        if self.sandbox != SandboxArg::Off {
            options.hidden.extend(answers.iter().cloned());
        }
        let mut made = Runner::new(parsed.clone(), &options);
        let no_sandbox = matches!(
            made,
            Err(RunnerError::Sandbox(
                SandboxError::NotInstalled | SandboxError::Unusable(_)
            ))
        );
        if no_sandbox
            && self.sandbox == SandboxArg::Auto
            && self.hide.is_empty()
            && !answers.is_empty()
        {
            options.hidden.clear();
            made = Runner::new(parsed, &options);
            if made.is_ok() {
                eprintln!(
                    "rotation-game: warning: without a sandbox the test data cannot be hidden: the program could read the answers"
                );
            }
        } else if self.sandbox == SandboxArg::Off && !answers.is_empty() {
            eprintln!("rotation-game: warning: --sandbox off: the program could read the answers");
        }
        let runner = made.map_err(|error| match error {
            RunnerError::MemoryAboveAvailable { .. } => cannot(
                &format!("{error}: lower --memory-limit or --jobs"),
                exit::USAGE,
            ),
            RunnerError::Sandbox(SandboxError::NotInstalled) => cannot(
                &format!(
                    "{error}, and --sandbox on and --hide need it (Debian and Ubuntu: sudo apt-get install bubblewrap)"
                ),
                exit::OS_ERROR,
            ),
            // Installed, but refused here: the error says why and the fix.
            RunnerError::Sandbox(SandboxError::Unusable(_)) => cannot(
                &format!("{error}, and --sandbox on and --hide need it"),
                exit::OS_ERROR,
            ),
            RunnerError::Sandbox(_) => cannot(&error, exit::USAGE),
        })?;
        let as_root = rotation_game::runner::sandbox::running_as_root();
        for warning in crate::isolation::warnings(runner.isolation(), as_root) {
            eprintln!("rotation-game: warning: {warning}");
        }
        Ok(runner)
    }
}

/// One run per CPU, but no more than the memory available holds at the
/// memory limit `limits` sets (at least one).
pub fn default_jobs(limits: &Limits) -> usize {
    jobs_for(
        std::thread::available_parallelism().map_or(1, usize::from),
        available_memory(),
        limits.memory_bytes,
    )
}

/// One run per CPU of `cpus`, but no more than `available` bytes of
/// memory hold at `memory_limit` bytes each (when it is known), and at
/// least one.
fn jobs_for(cpus: usize, available: Option<u64>, memory_limit: u64) -> usize {
    let fit = available.map_or(cpus as u64, |bytes| bytes / memory_limit);
    cpus.min(usize::try_from(fit).unwrap_or(usize::MAX)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags as clap makes them from `flags` (after a program's name).
    fn parsed(flags: &[&str]) -> RunnerArgs {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            runner: RunnerArgs,
        }
        let arguments = std::iter::once("rotation-game").chain(flags.iter().copied());
        <Command as clap::Parser>::try_parse_from(arguments)
            .expect("flags clap takes")
            .runner
    }

    #[test]
    fn seconds_are_more_than_0_and_at_most_a_day() {
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        assert_eq!(parse_seconds("86400"), Ok(86_400.0));
        for refused in ["0", "-1", "86400.5", "NaN", "inf", "one", ""] {
            assert_eq!(
                parse_seconds(refused),
                Err(format!(
                    "expected seconds between 0 and 86400, found {refused:?}"
                )),
            );
        }
    }

    #[test]
    fn the_limits_are_the_flags_and_the_wall_clock_three_times_the_cpu_time() {
        let defaults = parsed(&[]);
        assert_eq!(defaults.limits(), Limits::DEFAULT);
        let five = defaults.limits_or(Duration::from_secs(5));
        assert_eq!(five.cpu_time, Duration::from_secs(5));
        assert_eq!(five.wall_time, Duration::from_secs(15));
        let given = parsed(&[
            "--time-limit",
            "2.5",
            "--wall-limit",
            "4",
            "--memory-limit",
            "64",
            "--output-limit",
            "1000",
        ]);
        let limits = given.limits_or(Duration::from_secs(5));
        assert_eq!(limits.cpu_time, Duration::from_millis(2_500));
        assert_eq!(limits.wall_time, Duration::from_secs(4));
        assert_eq!(limits.memory_bytes, 64 * MIB);
        assert_eq!(limits.output_bytes, 1000);
        assert_eq!(limits.processes, Limits::DEFAULT.processes);
        let cpu_only = parsed(&["--time-limit", "2"]).limits();
        assert_eq!(cpu_only.wall_time, Duration::from_secs(6));
    }

    #[test]
    fn the_repeat_flags_are_those_given_and_not_the_defaults() {
        assert_eq!(parsed(&[]).repeat_flags(), "");
        let defaults_spelled_out = parsed(&[
            "--memory-limit",
            "1024",
            "--output-limit",
            &DEFAULT_OUTPUT_LIMIT.to_string(),
            "--sandbox",
            "auto",
        ]);
        assert_eq!(defaults_spelled_out.repeat_flags(), "");
        let given = parsed(&[
            "--time-limit",
            "2.5",
            "--timeout",
            "9",
            "--memory-limit",
            "64",
            "--output-limit",
            "1000",
            "--sandbox",
            "on",
            "--sandbox-bind",
            "/opt/my jdk",
            "--sandbox-bind",
            "/srv",
            "--hide",
            "data",
        ]);
        assert_eq!(
            given.repeat_flags(),
            " --time-limit 2.5 --wall-limit 9 --memory-limit 64 --output-limit 1000 --sandbox on --sandbox-bind '/opt/my jdk' --sandbox-bind /srv --hide data"
        );
        assert_eq!(
            parsed(&["--sandbox", "off"]).repeat_flags(),
            " --sandbox off"
        );
    }

    #[test]
    fn the_default_jobs_are_one_per_cpu_as_far_as_memory_holds_them_and_at_least_one() {
        // Memory for 3 runs: 2 CPUs get 2 jobs, 8 get 3.
        assert_eq!(jobs_for(2, Some(3 * MIB), MIB), 2);
        assert_eq!(jobs_for(8, Some(3 * MIB), MIB), 3);
        assert_eq!(jobs_for(8, Some(3 * MIB + MIB / 2), MIB), 3);
        // Memory unknown: one per CPU.
        assert_eq!(jobs_for(4, None, MIB), 4);
        // Memory for no run, or no CPU reported: one job still.
        assert_eq!(jobs_for(4, Some(MIB / 2), MIB), 1);
        assert_eq!(jobs_for(0, Some(8 * MIB), MIB), 1);
        // More memory than a usize counts.
        assert_eq!(jobs_for(16, Some(u64::MAX), 1), 16);
        // This machine, at 1 MiB a run: a job per CPU.
        let small = Limits {
            memory_bytes: MIB,
            ..Limits::default()
        };
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(default_jobs(&small), cpus);
    }
}
