//! The seam between judging and running: what judging needs of a runner.
//!
//! Judging asks a runner for runs of the program, one input each, and reads
//! two of its settings: the limits of every run, which the verdicts name,
//! and whether a shell runs the program, which changes how an exit status
//! reads. [`Runner`] is the runner that starts real processes; the unit
//! tests of campaigns and folders fill the seam with a fake that answers at
//! once, without a process.

use std::io;

use crate::runner::{Limits, Run, Runner};

/// Runs the program under test: one input in, one [`Run`] out, within
/// [`Limits`]. Judging uses nothing else of a runner.
///
/// `Sync`, since a campaign makes several runs at once through one runner.
pub trait Execute: Sync {
    /// Runs the program on `input` and returns what was observed.
    ///
    /// # Errors
    ///
    /// When the run cannot be made (see [`Runner::run`]).
    fn run(&self, input: &[u8]) -> io::Result<Run>;

    /// The limits of every run.
    fn limits(&self) -> &Limits;

    /// Whether a shell runs the program's command (and so reports a signal
    /// that kills its last command as exit status 128 + N).
    fn is_script(&self) -> bool;
}

impl Execute for Runner {
    fn run(&self, input: &[u8]) -> io::Result<Run> {
        Runner::run(self, input)
    }

    fn limits(&self) -> &Limits {
        Runner::limits(self)
    }

    fn is_script(&self) -> bool {
        self.program().is_script()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::runner::{Program, RunnerOptions, SandboxMode};

    /// A runner of `command` within `limits`, without a sandbox or
    /// cgroups: making it starts no process.
    fn runner_within(command: &str, limits: Limits) -> Runner {
        let program = Program::parse(command, Path::new("/")).unwrap();
        let options = RunnerOptions {
            limits,
            sandbox: SandboxMode::Off,
            cgroups: false,
            ..RunnerOptions::default()
        };
        Runner::new(program, &options).unwrap()
    }

    fn runner(command: &str) -> Runner {
        runner_within(command, Limits::DEFAULT)
    }

    #[test]
    fn a_runner_says_whether_a_shell_runs_its_program() {
        assert!(!Execute::is_script(&runner("/bin/true")));
        assert!(Execute::is_script(&runner("true | cat")));
    }

    #[test]
    fn a_runner_gives_judging_the_limits_it_was_made_with() {
        let limits = Limits {
            cpu_time: std::time::Duration::from_millis(1500),
            output_bytes: 1000,
            // Without a sandbox or a cgroup no process limit holds, and
            // the runner's limits say so.
            processes: None,
            ..Limits::DEFAULT
        };
        assert_eq!(
            Execute::limits(&runner_within("/bin/true", limits)),
            &limits
        );
    }
}
