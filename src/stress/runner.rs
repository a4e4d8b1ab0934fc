//! Running an untrusted program on one input, within a judge's limits.
//!
//! # Overview
//!
//! A [`Runner`] is made once per program ([`Runner::new`]): it learns
//! whether bubblewrap and a writable cgroup are there (see [`Isolation`]),
//! and removes what runners killed earlier left behind. [`Runner::run`]
//! then runs the program on one input and returns a [`Run`]: how it ended
//! ([`Termination`]), its CPU time, wall-clock time and peak memory, and
//! its output.
//!
//! # One run
//!
//! 1. A cgroup for the run (when there is one to have; see
//!    `cgroup.rs`) with the memory limit (swap included) and the process
//!    limit, and a fresh work directory.
//! 2. The runner's child joins the cgroup *before* it execs, so that
//!    everything the program ever starts is in it; it also gets
//!    `oom_score_adj = 1000` (should the machine ever run out, the run goes
//!    first), `RLIMIT_CORE = 0`, `RLIMIT_CPU` a little above the time limit
//!    as a per-process backstop, and all inherited descriptors but its
//!    standard streams closed on exec. Without a cgroup, `RLIMIT_AS` is the
//!    memory limit, per process.
//! 3. It execs bubblewrap, whose PID 1 is our [`init`], which
//!    starts the program; or, without a sandbox, the program itself, in a
//!    process group of its own; either way with a judge's environment,
//!    not the caller's (see [`command`](super::command)).
//! 4. Every 10 ms at most (100 µs at first), the runner checks: the
//!    program's end, its standard output against the output limit, the
//!    group's CPU time against the time limit, the group's out-of-memory
//!    kills, and the wall-clock time against the wall limit. Whatever comes
//!    first ends the run.
//! 5. At the end, on every path: `SIGKILL` to the process group (bubblewrap,
//!    whose death kills the whole sandbox) and to whatever is left in the
//!    cgroup; then the child is reaped, the CPU time, peak memory and
//!    out-of-memory kills read, the cgroup and the work directory removed.
//!
//! # Measures
//!
//! With a cgroup, CPU time is the group's (every process of the run, those
//! it orphaned too; the sandbox's own start-up, about 7 ms, included), and
//! peak memory the group's greatest charge (resident memory, page cache and
//! tmpfs files of all its processes, about 1 MiB of it the sandbox's own).
//! Without one, CPU time is the greatest of what `/proc` showed for the
//! run's processes while it ran and what was reaped (`wait4`, or the init's
//! `RUSAGE_CHILDREN`), to the clock tick; and peak memory the largest
//! resident size of a single process of the run.

use std::ffi::CString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::cgroup::{self, CgroupVersion, Parent, RunCgroup};
use super::child_setup::{ChildSetup, pipe};
use super::command::{Program, passed_environment};
use super::init::{self, Ended, Report};
use super::interrupt;
use super::limits::Limits;
use super::pipes::Pipes;
use super::proc_meter::ProcMeter;
use super::process_group::ProcessGroup;
use super::sandbox::{Sandbox, SandboxError, SandboxMode};
use super::work_dir::{self, WorkDir};

/// The longest pause between two checks of a running program: the most the
/// CPU time can overshoot the limit by, per core.
const POLL: Duration = Duration::from_millis(10);

/// How a [`Runner`] is made.
#[derive(Clone, Debug)]
pub struct RunnerOptions {
    /// The limits of every run.
    pub limits: Limits,
    /// Whether runs are isolated.
    pub sandbox: SandboxMode,
    /// Files and folders the program must not see (the test data and its
    /// answers); only with a sandbox.
    pub hidden: Vec<PathBuf>,
    /// Whether to measure and limit through cgroups where they are
    /// writable; `false` uses `rusage`, `/proc` and `RLIMIT_AS` as on
    /// machines without them.
    pub cgroups: bool,
    /// The executable that serves as the sandbox's PID 1: one that calls
    /// [`serve_if_asked`](super::init::serve_if_asked) first thing. `None`:
    /// this process's own executable.
    pub init: Option<PathBuf>,
    /// How many runs the caller makes at once: their memory limits together
    /// must fit in the memory the machine has available.
    pub concurrent_runs: usize,
}

impl Default for RunnerOptions {
    /// The default limits, `auto` sandbox, nothing hidden, cgroups where
    /// writable, this executable as init, one run at a time.
    fn default() -> RunnerOptions {
        RunnerOptions {
            limits: Limits::DEFAULT,
            sandbox: SandboxMode::Auto,
            hidden: Vec::new(),
            cgroups: true,
            init: None,
            concurrent_runs: 1,
        }
    }
}

/// How CPU time and memory are measured and limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Measurement {
    /// By a cgroup per run: CPU time and memory of all the run's processes
    /// together; the memory limit is enforced and reported as such.
    Cgroup(CgroupVersion),
    /// By `wait4`/`getrusage` and `/proc`, with the memory limit as
    /// `RLIMIT_AS` per process: a program over it sees its allocations
    /// fail, which cannot be told from other runtime errors.
    #[serde(rename = "rusage")]
    Rusage,
}

/// How runs are isolated and measured here, and why not better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Isolation {
    /// Whether runs are in a sandbox.
    pub sandboxed: bool,
    /// With [`SandboxMode::Auto`], why there is no sandbox.
    #[serde(serialize_with = "display_option")]
    pub sandbox_missing: Option<SandboxError>,
    /// How CPU time and memory are measured.
    pub measurement: Measurement,
    /// When cgroups were wanted, why there are none.
    pub cgroup_missing: Option<String>,
}

fn display_option<S: serde::Serializer>(
    value: &Option<SandboxError>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(error) => serializer.collect_str(error),
        None => serializer.serialize_none(),
    }
}

/// Why a runner cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// A sandbox was required (or has hidden paths) and cannot be had.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The runs' memory limits together exceed the memory available: the
    /// machine would run out before a limit stops a program.
    #[error(
        "{runs} runs at once with {limit} MiB each need more memory than the {available} MiB available"
    )]
    MemoryAboveAvailable {
        /// The limit per run, in MiB.
        limit: u64,
        /// Runs at once.
        runs: usize,
        /// Available memory, in MiB.
        available: u64,
    },
}

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

/// What one run gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// How it ended.
    pub termination: Termination,
    /// CPU time, user plus system, of all its processes.
    pub cpu_time: Duration,
    /// Wall-clock time from start to end.
    pub wall_time: Duration,
    /// Peak memory, in bytes (see the [module docs](self) for what counts).
    pub peak_memory_bytes: u64,
    /// Standard output: all of it, or the first output limit plus one bytes.
    pub stdout: Vec<u8>,
    /// The first [`STDERR_KEPT`](super::STDERR_KEPT) bytes of standard error.
    pub stderr: Vec<u8>,
    /// How many times starting a process or thread failed at the process
    /// limit.
    pub refused_forks: u64,
    /// How the CPU time and memory were measured.
    pub measurement: Measurement,
}

/// Runs one program, again and again, on inputs, within limits.
#[derive(Debug)]
pub struct Runner {
    program: Program,
    limits: Limits,
    sandbox: Option<Sandbox>,
    cgroup: Option<Parent>,
    isolation: Isolation,
}

impl Runner {
    /// A runner for `program`; see the [module docs](self).
    ///
    /// # Errors
    ///
    /// When [`SandboxMode::On`] (or hidden paths) asks for a sandbox that
    /// cannot be had, when the program lies inside a hidden folder, or when
    /// the memory limits of the concurrent runs exceed the memory
    /// available.
    pub fn new(program: Program, options: &RunnerOptions) -> Result<Runner, RunnerError> {
        check_memory(options)?;
        work_dir::sweep_stale();
        let (sandbox, sandbox_missing) = match options.sandbox {
            SandboxMode::Off => (None, None),
            mode => {
                let init = match &options.init {
                    Some(init) => init.clone(),
                    None => std::env::current_exe().map_err(|error| {
                        SandboxError::Unusable(format!("cannot find this executable: {error}"))
                    })?,
                };
                match Sandbox::new(&init, &options.hidden) {
                    Ok(sandbox) => {
                        sandbox.check_visible(program.executable())?;
                        (Some(sandbox), None)
                    }
                    Err(error @ (SandboxError::NotInstalled | SandboxError::Unusable(_)))
                        if mode == SandboxMode::Auto && options.hidden.is_empty() =>
                    {
                        (None, Some(error))
                    }
                    Err(error) => return Err(error.into()),
                }
            }
        };
        let (cgroup, cgroup_missing) = if options.cgroups {
            match cgroup::parent() {
                Ok(parent) => {
                    cgroup::sweep_stale(&parent);
                    (Some(parent), None)
                }
                Err(error) => (None, Some(error.to_string())),
            }
        } else {
            (None, None)
        };
        let measurement = cgroup.as_ref().map_or(Measurement::Rusage, |parent| {
            Measurement::Cgroup(parent.version())
        });
        Ok(Runner {
            program,
            limits: options.limits,
            isolation: Isolation {
                sandboxed: sandbox.is_some(),
                sandbox_missing,
                measurement,
                cgroup_missing,
            },
            sandbox,
            cgroup,
        })
    }

    /// The program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The limits of every run.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How runs are isolated and measured.
    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Runs the program on `input`; see the [module docs](self).
    ///
    /// # Errors
    ///
    /// When the run cannot be set up (a cgroup or work directory that
    /// cannot be made, a program that cannot be started, a sandbox that
    /// fails before the program starts), the program cannot be waited
    /// for, or a stopping signal ended the run or came before it (see
    /// [`interrupt`]).
    pub fn run(&self, input: &[u8]) -> io::Result<Run> {
        if let Some(signal) = interrupt::received() {
            return Err(interrupt::stopped_error(signal));
        }
        let limits = &self.limits;
        let cgroup = match &self.cgroup {
            Some(parent) => Some(RunCgroup::create(
                parent,
                limits.memory_bytes,
                limits.processes,
            )?),
            None => None,
        };
        let work = WorkDir::create()?;
        // The init's report channel (sandbox only): both ends close-on-exec;
        // the child clears the flag on the write end only, so that bwrap and
        // the init (and only they) inherit it.
        let status_pipe = match self.sandbox {
            Some(_) => Some(pipe()?),
            None => None,
        };
        let filter = match &self.sandbox {
            Some(sandbox) => sandbox.filter_descriptor()?,
            None => None,
        };
        let filter_fd = filter.as_ref().map(AsRawFd::as_raw_fd);
        let mut command = match &self.sandbox {
            Some(sandbox) => {
                let fd = status_pipe
                    .as_ref()
                    .map_or(-1, |(_, write)| write.as_raw_fd());
                let mut command = Command::new(sandbox.bwrap());
                command.args(sandbox.args(
                    work.path(),
                    limits.memory_bytes,
                    filter_fd,
                    fd,
                    &self.program,
                ));
                command
            }
            None => {
                let argv = self.program.argv();
                let mut command = Command::new(&argv[0]);
                command.args(&argv[1..]).current_dir(work.path());
                command
            }
        };
        // A judge's environment (see the `command` module); the sandbox
        // sets TMPDIR itself.
        command.env_clear().envs(passed_environment());
        if self.sandbox.is_none() {
            command.env("TMPDIR", work.path());
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let hook = ChildSetup {
            join: cgroup
                .as_ref()
                .map(RunCgroup::join_files)
                .unwrap_or_default(),
            oom_score_adj: CString::new("/proc/self/oom_score_adj").expect("no NUL byte"),
            cpu_seconds: limits.cpu_time.as_secs_f64().ceil() as u64 + 1,
            address_space: cgroup.is_none().then_some(limits.memory_bytes),
            file_size: self.sandbox.is_none().then_some(limits.memory_bytes),
            keep_open: status_pipe
                .as_ref()
                .map(|(_, write)| write.as_raw_fd())
                .into_iter()
                .chain(filter_fd)
                .collect(),
            runner: std::process::id() as libc::pid_t,
        };
        // SAFETY: the hook only makes async-signal-safe system calls on
        // data prepared before the fork (see ChildSetup::apply).
        unsafe {
            command.pre_exec(move || hook.apply());
        }

        let oom_kills_before = machine_oom_kills();
        let started = Instant::now();
        let child = command.spawn()?;
        let mut group = ProcessGroup::new(child);
        // Our copy of the write end must go, or the report never ends.
        let status_read = status_pipe.map(|(read, _)| read);
        let pipes = Pipes::start(&mut group.child, input, limits.output_bytes);

        let mut meter = match &self.sandbox {
            Some(_) => ProcMeter::Pending,
            None => ProcMeter::Group(group.id, Duration::ZERO),
        };
        let mut stopped = None;
        let mut pause = Duration::from_micros(100);
        let mut interrupted = None;
        loop {
            if group.has_exited()? {
                break;
            }
            interrupted = interrupt::received();
            if interrupted.is_some() {
                break;
            }
            let cpu = match &cgroup {
                Some(cgroup) => cgroup.cpu_time().unwrap_or_default(),
                None => meter.poll(group.id),
            };
            if pipes.flooded() {
                stopped = Some(Termination::OutputLimit);
            } else if cpu > limits.cpu_time {
                stopped = Some(Termination::CpuTimeLimit);
            } else if cgroup
                .as_ref()
                .is_some_and(|cgroup| cgroup.oom_kills().unwrap_or(0) > 0)
            {
                stopped = Some(Termination::MemoryLimit);
            } else if started.elapsed() > limits.wall_time {
                stopped = Some(Termination::WallTimeLimit);
            }
            if stopped.is_some() {
                break;
            }
            thread::sleep(pause);
            pause = (pause * 2).min(POLL);
        }
        let wall_time = started.elapsed();
        if let Some(cgroup) = &cgroup {
            cgroup.kill_all();
        }
        let (status, usage) = group.end()?;
        if let Some(signal) = interrupted {
            // The cgroup and the work directory go as the guards drop.
            return Err(interrupt::stopped_error(signal));
        }
        let (stdout, stderr, flooded) = pipes.finish();
        let report = status_read.map(init::read_report);

        // Without a cgroup: what was reaped. Sandboxed, that is what the
        // init reaped (what the runner reaps, bubblewrap and the init, is
        // not the program).
        let mut cpu_time = meter.last();
        let mut peak_memory_bytes = 0;
        let ended = match (&self.sandbox, report) {
            (None, _) => {
                cpu_time = cpu_time.max(init::cpu_of(&usage));
                peak_memory_bytes = usage.ru_maxrss.max(0) as u64 * 1024;
                ended_from(status)
            }
            (
                Some(_),
                Some(Some(Report::Ran {
                    ended,
                    cpu,
                    max_rss_bytes,
                })),
            ) => {
                cpu_time = cpu_time.max(cpu);
                peak_memory_bytes = max_rss_bytes;
                Some(ended)
            }
            (Some(_), Some(Some(Report::NotStarted(message)))) => {
                return Err(io::Error::other(message));
            }
            // No report: the init never ran (bubblewrap failed), or it was
            // killed along with the sandbox, by us or by the kernel.
            (Some(_), _) => None,
        };
        let (mut oom_kills, mut refused_forks) = (0, 0);
        if let Some(cgroup) = &cgroup {
            cpu_time = cgroup.cpu_time()?;
            peak_memory_bytes = cgroup.peak_memory()?;
            oom_kills = cgroup.oom_kills().unwrap_or(0);
            refused_forks = cgroup.refused_forks();
        }
        drop(cgroup);
        drop(work);

        let termination = match stopped {
            // Killed on the wall clock, its CPU time spent anyway: the CPU
            // limit is what it broke.
            Some(Termination::WallTimeLimit) if cpu_time > limits.cpu_time => {
                Termination::CpuTimeLimit
            }
            Some(stopped) => stopped,
            None if oom_kills > 0 => Termination::MemoryLimit,
            // It ended between two checks, or was measured only at the end.
            None if cpu_time > limits.cpu_time => Termination::CpuTimeLimit,
            None if flooded => Termination::OutputLimit,
            None => match ended {
                Some(Ended::Exited(code)) => Termination::Exited(code),
                // The backstop RLIMIT_CPU.
                Some(Ended::Signalled(libc::SIGXCPU)) => Termination::CpuTimeLimit,
                Some(Ended::Signalled(signal)) => Termination::Signalled {
                    signal,
                    possibly_out_of_memory: signal == libc::SIGKILL
                        && machine_oom_kills()
                            .zip(oom_kills_before)
                            .is_none_or(|(after, before)| after > before),
                },
                None => {
                    return Err(io::Error::other(format!(
                        "the sandbox failed: {}",
                        String::from_utf8_lossy(&stderr).trim()
                    )));
                }
            },
        };
        Ok(Run {
            termination,
            cpu_time,
            wall_time,
            peak_memory_bytes,
            stdout,
            stderr,
            refused_forks,
            measurement: self.isolation.measurement,
        })
    }
}

/// Refuses limits that together exceed the memory the machine has
/// available (`MemAvailable`; not checked where it cannot be read).
fn check_memory(options: &RunnerOptions) -> Result<(), RunnerError> {
    let Some(available) = available_memory() else {
        return Ok(());
    };
    let runs = options.concurrent_runs.max(1);
    let needed = options.limits.memory_bytes.saturating_mul(runs as u64);
    if needed > available {
        return Err(RunnerError::MemoryAboveAvailable {
            limit: options.limits.memory_bytes >> 20,
            runs,
            available: available >> 20,
        });
    }
    Ok(())
}

/// The memory the machine has available now (`MemAvailable` of
/// `/proc/meminfo`), in bytes; `None` where it cannot be read.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text
        .lines()
        .find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The machine's count of out-of-memory kills (global and in cgroups),
/// from `/proc/vmstat` (kernel 4.13 and later).
fn machine_oom_kills() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/vmstat").ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("oom_kill ")?.trim().parse().ok())
}

/// How the runner's own child ended, as `wait4` saw it.
fn ended_from(status: ExitStatus) -> Option<Ended> {
    match status.code() {
        Some(code) => Some(Ended::Exited(code)),
        None => status.signal().map(Ended::Signalled),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// A runner without a sandbox (unit tests have no init to run), for
    /// well-behaved programs only.
    fn runner(command: &str, limits: Limits) -> Runner {
        let program = Program::parse(command, Path::new("/")).unwrap();
        let options = RunnerOptions {
            limits,
            sandbox: SandboxMode::Off,
            ..RunnerOptions::default()
        };
        Runner::new(program, &options).unwrap()
    }

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(5),
            wall_time: Duration::from_secs(15),
            output_bytes: 1000,
            ..Limits::DEFAULT
        }
    }

    #[test]
    fn collects_output_and_exit_status_in_a_fresh_work_dir() {
        let run = runner("cat; pwd; echo oops >&2; exit 3", limits())
            .run(b"hello\n")
            .unwrap();
        assert_eq!(run.termination, Termination::Exited(3));
        let stdout = String::from_utf8(run.stdout).unwrap();
        let (echo, pwd) = stdout.split_once('\n').unwrap();
        assert_eq!(echo, "hello");
        assert!(pwd.contains("rotation-game-run-"), "{pwd}");
        assert!(!Path::new(pwd.trim()).exists(), "the work dir is removed");
        assert_eq!(run.stderr, b"oops\n");
    }

    #[test]
    fn a_direct_program_shows_its_real_signal_and_a_script_the_shells_status() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("crash.sh");
        std::fs::write(&script, "#!/bin/sh\nkill -ABRT $$\n").unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let command = script.to_str().unwrap();
        let direct = runner(command, limits()).run(b"").unwrap();
        assert_eq!(
            direct.termination,
            Termination::Signalled {
                signal: libc::SIGABRT,
                possibly_out_of_memory: false
            }
        );
        let scripted = runner(&format!("true; {command}"), limits())
            .run(b"")
            .unwrap();
        assert_eq!(
            scripted.termination,
            Termination::Exited(128 + libc::SIGABRT)
        );
    }

    #[test]
    fn stops_a_flood_one_byte_past_the_limit() {
        let run = runner("yes", limits()).run(b"").unwrap();
        assert_eq!(run.termination, Termination::OutputLimit);
        assert_eq!(run.stdout.len(), 1001);
    }

    #[test]
    fn a_sleeper_is_stopped_by_the_wall_clock() {
        let quick = Limits {
            cpu_time: Duration::from_millis(200),
            wall_time: Duration::from_millis(300),
            ..limits()
        };
        let input = vec![b'1'; 1 << 20];
        let run = runner("sleep 30", quick).run(&input).unwrap();
        assert_eq!(run.termination, Termination::WallTimeLimit);
        assert!(run.wall_time < Duration::from_secs(5));
        assert!(run.cpu_time < Duration::from_millis(200));
    }

    #[test]
    fn limits_that_do_not_fit_the_machine_are_refused() {
        let options = RunnerOptions {
            limits: Limits {
                memory_bytes: u64::MAX / 4,
                ..limits()
            },
            sandbox: SandboxMode::Off,
            concurrent_runs: 2,
            ..RunnerOptions::default()
        };
        let program = Program::parse("true", Path::new("/")).unwrap();
        assert!(matches!(
            Runner::new(program, &options),
            Err(RunnerError::MemoryAboveAvailable { runs: 2, .. })
        ));
    }
}
