//! How a run ended, and the order in which what the runner saw decides it.
//!
//! # Overview
//!
//! The runner watches a run (its output, CPU time, out-of-memory kills and
//! wall-clock time) and stops it at the first limit it breaks
//! (`limit_broken`); once the run is over, `termination` decides its
//! [`Termination`] from everything observed (`Observed`). Both are pure
//! functions, so the precedence is stated and tested here, without a
//! process:
//!
//! 1. while running: output over the limit, then CPU time, then an
//!    out-of-memory kill in the run's cgroup, then the wall clock;
//! 2. a run stopped on the wall clock whose CPU time is over the limit
//!    broke the CPU limit;
//! 3. a run that ended by itself: an out-of-memory kill in its cgroup, then
//!    CPU time over the limit (it ended between two checks), then output
//!    over the limit, then how its process ended ([`Exit`]), `SIGXCPU`
//!    (the backstop `RLIMIT_CPU`) being the CPU limit.

use std::time::Duration;

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The program exited with this status.
    Exited(i32),
    /// A signal the runner did not send killed the program.
    Signalled {
        /// The signal's number.
        signal: i32,
        /// For `SIGKILL`: whether the machine's out-of-memory killer may
        /// have sent it (it killed something during the run, or that
        /// cannot be known).
        possibly_out_of_memory: bool,
    },
    /// The CPU time passed the time limit; the run was killed (or had
    /// ended, over the limit).
    CpuTimeLimit,
    /// The wall-clock time passed the wall limit, the CPU time within its
    /// limit; the run was killed.
    WallTimeLimit,
    /// The run reached its memory limit and the kernel killed a process of
    /// it; the run was killed.
    MemoryLimit,
    /// The program wrote more than the output limit; the run was killed.
    OutputLimit,
}

/// How the program's own process ended, as its parent saw it (the
/// runner, or the run's PID 1 in a sandbox): its exit status or the
/// signal that killed it. What the run as a whole ended in, limits
/// included, is its [`Termination`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Status(i32),
    /// This signal killed it.
    Signal(i32),
}

/// A limit the runner stopped a run for, while it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// More output than the output limit.
    Output,
    /// CPU time over the limit.
    CpuTime,
    /// An out-of-memory kill in the run's cgroup.
    Memory,
    /// Wall-clock time over the limit.
    WallTime,
}

/// What the runner sees of a running run at one check.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Check {
    /// Whether the output passed its limit.
    pub flooded: bool,
    /// The CPU time so far, and its limit.
    pub cpu_time: Duration,
    pub cpu_limit: Duration,
    /// Whether the run's cgroup has seen an out-of-memory kill.
    pub oom_killed: bool,
    /// The wall-clock time so far, and its limit.
    pub wall_time: Duration,
    pub wall_limit: Duration,
}

/// The first limit a running run has broken, in the order of the [module
/// docs](self); `None` while it is within all of them.
pub(crate) fn limit_broken(check: &Check) -> Option<Stopped> {
    if check.flooded {
        Some(Stopped::Output)
    } else if check.cpu_time > check.cpu_limit {
        Some(Stopped::CpuTime)
    } else if check.oom_killed {
        Some(Stopped::Memory)
    } else if check.wall_time > check.wall_limit {
        Some(Stopped::WallTime)
    } else {
        None
    }
}

/// Everything the runner observed of a run once it is over.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Observed {
    /// The limit it was stopped for, if the runner stopped it.
    pub stopped: Option<Stopped>,
    /// Its CPU time, all its processes, and the limit.
    pub cpu_time: Duration,
    pub cpu_limit: Duration,
    /// Out-of-memory kills in its cgroup.
    pub oom_kills: u64,
    /// Whether its output passed the limit.
    pub flooded: bool,
    /// How its process ended; `None` when the run's PID 1 was killed
    /// before it could say (nothing the runner did stopped the run: the
    /// machine ran out of memory, or the sandbox failed).
    pub exit: Option<Exit>,
    /// Whether the machine's out-of-memory killer killed something during
    /// the run, or that cannot be known (read only for `SIGKILL`).
    pub machine_oom_kill: bool,
}

/// The [`Termination`] of a run, in the order of the [module docs](self).
pub(crate) fn termination(observed: &Observed) -> Termination {
    let over_cpu = observed.cpu_time > observed.cpu_limit;
    match observed.stopped {
        // Killed on the wall clock, its CPU time spent anyway: the CPU
        // limit is what it broke.
        Some(Stopped::WallTime) if over_cpu => Termination::CpuTimeLimit,
        Some(Stopped::WallTime) => Termination::WallTimeLimit,
        Some(Stopped::Output) => Termination::OutputLimit,
        Some(Stopped::CpuTime) => Termination::CpuTimeLimit,
        Some(Stopped::Memory) => Termination::MemoryLimit,
        None if observed.oom_kills > 0 => Termination::MemoryLimit,
        // It ended between two checks, or was measured only at the end.
        None if over_cpu => Termination::CpuTimeLimit,
        None if observed.flooded => Termination::OutputLimit,
        None => match observed.exit {
            Some(Exit::Status(code)) => Termination::Exited(code),
            // The backstop RLIMIT_CPU.
            Some(Exit::Signal(libc::SIGXCPU)) => Termination::CpuTimeLimit,
            Some(Exit::Signal(signal)) => Termination::Signalled {
                signal,
                possibly_out_of_memory: signal == libc::SIGKILL && observed.machine_oom_kill,
            },
            None => Termination::Signalled {
                signal: libc::SIGKILL,
                possibly_out_of_memory: true,
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Duration = Duration::from_secs(1);
    const OVER: Duration = Duration::from_secs(2);
    const UNDER: Duration = Duration::from_millis(500);

    fn check() -> Check {
        Check {
            flooded: false,
            cpu_time: UNDER,
            cpu_limit: LIMIT,
            oom_killed: false,
            wall_time: UNDER,
            wall_limit: LIMIT,
        }
    }

    fn observed(exit: Option<Exit>) -> Observed {
        Observed {
            stopped: None,
            cpu_time: UNDER,
            cpu_limit: LIMIT,
            oom_kills: 0,
            flooded: false,
            exit,
            machine_oom_kill: false,
        }
    }

    #[test]
    fn a_run_that_ends_using_exactly_its_cpu_limit_is_within_it() {
        let at_limit = Observed {
            cpu_time: LIMIT,
            ..observed(Some(Exit::Status(0)))
        };
        assert_eq!(termination(&at_limit), Termination::Exited(0));
        let just_over = Observed {
            cpu_time: LIMIT + Duration::from_nanos(1),
            ..at_limit
        };
        assert_eq!(termination(&just_over), Termination::CpuTimeLimit);
        // Stopped on the wall clock, at its CPU limit: the wall limit.
        let walled = Observed {
            stopped: Some(Stopped::WallTime),
            ..at_limit
        };
        assert_eq!(termination(&walled), Termination::WallTimeLimit);
    }

    #[test]
    fn a_running_run_is_stopped_at_the_first_limit_in_order() {
        assert_eq!(limit_broken(&check()), None);
        let every = Check {
            flooded: true,
            cpu_time: OVER,
            oom_killed: true,
            wall_time: OVER,
            ..check()
        };
        assert_eq!(limit_broken(&every), Some(Stopped::Output));
        let no_flood = Check {
            flooded: false,
            ..every
        };
        assert_eq!(limit_broken(&no_flood), Some(Stopped::CpuTime));
        let within_cpu = Check {
            cpu_time: UNDER,
            ..no_flood
        };
        assert_eq!(limit_broken(&within_cpu), Some(Stopped::Memory));
        let no_oom = Check {
            oom_killed: false,
            ..within_cpu
        };
        assert_eq!(limit_broken(&no_oom), Some(Stopped::WallTime));
        // At the limit is within it.
        let at_limits = Check {
            cpu_time: LIMIT,
            wall_time: LIMIT,
            ..check()
        };
        assert_eq!(limit_broken(&at_limits), None);
    }

    #[test]
    fn a_stopped_run_ends_in_what_stopped_it() {
        for (stopped, expected) in [
            (Stopped::Output, Termination::OutputLimit),
            (Stopped::CpuTime, Termination::CpuTimeLimit),
            (Stopped::Memory, Termination::MemoryLimit),
            (Stopped::WallTime, Termination::WallTimeLimit),
        ] {
            let run = Observed {
                stopped: Some(stopped),
                // Whatever else was seen, and however the process ended
                // (an out-of-memory kill does not outrank the wall clock
                // that stopped a run; only spent CPU time does).
                oom_kills: 1,
                flooded: true,
                exit: Some(Exit::Status(0)),
                ..observed(None)
            };
            assert_eq!(termination(&run), expected, "{stopped:?}");
        }
    }

    #[test]
    fn a_run_stopped_on_the_wall_clock_with_its_cpu_time_spent_broke_the_cpu_limit() {
        let run = Observed {
            stopped: Some(Stopped::WallTime),
            cpu_time: OVER,
            ..observed(None)
        };
        assert_eq!(termination(&run), Termination::CpuTimeLimit);
    }

    #[test]
    fn a_run_that_ended_by_itself_is_judged_memory_then_cpu_then_output_then_its_exit() {
        let crashed = Some(Exit::Signal(libc::SIGSEGV));
        let all = Observed {
            oom_kills: 1,
            cpu_time: OVER,
            flooded: true,
            ..observed(crashed)
        };
        assert_eq!(termination(&all), Termination::MemoryLimit);
        let no_oom = Observed {
            oom_kills: 0,
            ..all
        };
        assert_eq!(termination(&no_oom), Termination::CpuTimeLimit);
        let within_cpu = Observed {
            cpu_time: UNDER,
            ..no_oom
        };
        assert_eq!(termination(&within_cpu), Termination::OutputLimit);
        let no_flood = Observed {
            flooded: false,
            ..within_cpu
        };
        assert_eq!(
            termination(&no_flood),
            Termination::Signalled {
                signal: libc::SIGSEGV,
                possibly_out_of_memory: false
            }
        );
    }

    #[test]
    fn a_process_exit_becomes_the_termination() {
        assert_eq!(
            termination(&observed(Some(Exit::Status(3)))),
            Termination::Exited(3)
        );
        assert_eq!(
            termination(&observed(Some(Exit::Signal(libc::SIGXCPU)))),
            Termination::CpuTimeLimit
        );
        // SIGKILL may be the machine's out-of-memory killer only when it
        // killed something during the run; no other signal is.
        for (signal, machine_oom_kill, possibly) in [
            (libc::SIGKILL, true, true),
            (libc::SIGKILL, false, false),
            (libc::SIGTERM, true, false),
        ] {
            let run = Observed {
                machine_oom_kill,
                ..observed(Some(Exit::Signal(signal)))
            };
            assert_eq!(
                termination(&run),
                Termination::Signalled {
                    signal,
                    possibly_out_of_memory: possibly
                }
            );
        }
        // A PID 1 killed without a word: SIGKILL, possibly the machine's
        // out-of-memory killer.
        assert_eq!(
            termination(&observed(None)),
            Termination::Signalled {
                signal: libc::SIGKILL,
                possibly_out_of_memory: true
            }
        );
    }
}
