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
//! 1. A cgroup for the run (when there is one to have; see `cgroup.rs`)
//!    with the memory limit (swap included) and the process limit.
//! 2. In a sandbox: a job slot (`slot.rs`), one of the runner's, started
//!    the first time it is needed (bubblewrap, with an unprivileged uid of
//!    its own when the judge is root); its zygote makes the run's PID 1 in
//!    fresh namespaces ([`init`]), which the runner moves into the cgroup
//!    before the program starts. The run's PID 1 sets `RLIMIT_CPU` a little
//!    above the time limit as a per-process backstop, `RLIMIT_CORE = 0`,
//!    `RLIMIT_NOFILE` at [`OPEN_FILES`], `RLIMIT_NPROC`
//!    at the process limit, `RLIMIT_AS` at the memory limit where there is
//!    no cgroup, and `oom_score_adj = 1000` (should the machine ever run
//!    out, the run goes first). Without a sandbox: the runner's child, in a
//!    fresh work directory and a process group of its own, joins the
//!    cgroup before it execs the program, with the same limits but
//!    `RLIMIT_NPROC`. Either way the program gets a judge's environment,
//!    not the caller's (see [`command`](super::command)), and no descriptor
//!    but its standard streams.
//! 3. Every 10 ms, and at once when the run ends (a pidfd), the runner
//!    checks: the run's end, its standard output against the output limit,
//!    the group's CPU time against the time limit, the group's
//!    out-of-memory kills, and the wall-clock time against the wall limit.
//!    Whatever comes first ends the run.
//! 4. At the end, on every path: `SIGKILL` to what is left in the cgroup,
//!    and to the run's PID 1 (whose death ends its namespace) or the
//!    child's process group; then the report or the child's status, the
//!    CPU time, peak memory and out-of-memory kills are read, the cgroup
//!    and the work directory removed.
//!
//! # Measures
//!
//! With a cgroup, CPU time is the group's (every process of the run, those
//! it orphaned too, and the run's PID 1), and peak memory the group's
//! greatest charge (resident memory, page cache and tmpfs files of all its
//! processes). Without one, CPU time is the greatest of what `/proc` showed
//! for the run's processes while it ran and what was reaped (`wait4`, or
//! the run's PID 1's `RUSAGE_CHILDREN`), to the clock tick; and peak memory
//! the largest resident size of a single process of the run. Without a
//! sandbox too, that size comes from the runner's own `wait4`, and the
//! kernel counts a child's largest resident size from its fork, across
//! its exec: the runner's own resident size at the fork is counted as the
//! program's when it is larger (a known fault, not yet mended; in the
//! sandbox the run's small PID 1 forks the program, and adds little).

use std::ffi::CString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::cgroup::{self, Parent, RunCgroup};
use super::child_setup::ChildSetup;
use super::command::{Program, passed_environment};
use super::init::{self, InitReport};
use super::interrupt;
use super::isolation::{CgroupFound, Found, Isolation, Measurement, autogroups_on};
use super::limits::{Limits, OPEN_FILES};
use super::message::RunRequest;
use super::pipes::Pipes;
use super::proc_meter::ProcMeter;
use super::process_group::ProcessGroup;
use super::rusage::cpu_of;
use super::sandbox::{Sandbox, SandboxError, SandboxMode};
use super::sandbox_user;
use super::seccomp::Counted;
use super::slot::SlotRun;
use super::slot_pool::{LentSlot, SlotPool, first_slot, make_run};
use super::termination::{self, Check, Exit, Observed, Stopped, Termination};
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
    /// Files and folders shown read-only in the sandbox besides the system
    /// folders and the program (a runtime installed elsewhere).
    pub binds: Vec<PathBuf>,
    /// Whether to measure and limit through cgroups where they are
    /// writable; `false` uses `rusage`, `/proc` and `RLIMIT_AS` as on
    /// machines without them.
    pub cgroups: bool,
    /// The executable that serves as the sandbox's PID 1: one that calls
    /// [`serve_if_asked`](super::zygote::serve_if_asked) first thing. `None`:
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
            binds: Vec::new(),
            cgroups: true,
            init: None,
            concurrent_runs: 1,
        }
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
    /// How many bytes of standard error the program wrote, of which
    /// [`stderr`](Self::stderr) holds the first ones.
    pub stderr_bytes: u64,
    /// How many times starting a process or thread failed at the process
    /// limit (counted by a cgroup only).
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
    /// The sandbox's slots no run uses now (`slot_pool.rs`).
    slots: SlotPool,
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
        let own_uids = options.sandbox != SandboxMode::Off && sandbox_user::judge_is_root();
        let (mut sandbox, mut slots, mut sandbox_missing) = (None, Vec::new(), None);
        let mut task_clock = false;
        if options.sandbox != SandboxMode::Off {
            let init = match &options.init {
                Some(init) => init.clone(),
                None => std::env::current_exe().map_err(|error| {
                    SandboxError::Unusable(format!("cannot find this executable: {error}"))
                })?,
            };
            let counted = Counted {
                memory: cgroup.is_some(),
                cpu: cgroup.as_ref().is_some_and(Parent::weighs_cpu),
            };
            let made = Sandbox::new(
                &init,
                &program,
                &options.binds,
                &options.hidden,
                own_uids,
                counted,
            )
            .and_then(|made| {
                // The first slot shows whether runs can be made here.
                let slot = first_slot(&made, own_uids)?;
                Ok((made, slot))
            });
            match made {
                Ok((made, (slot, clock))) => {
                    sandbox = Some(made);
                    slots.push(slot);
                    task_clock = clock;
                }
                Err(error @ (SandboxError::NotInstalled | SandboxError::Unusable(_)))
                    if options.sandbox == SandboxMode::Auto && options.hidden.is_empty() =>
                {
                    sandbox_missing = Some(error);
                }
                Err(error) => return Err(error.into()),
            }
        }
        let isolation = Isolation::of(&Found {
            cgroup: cgroup.as_ref().map(|parent| CgroupFound {
                version: parent.version(),
                caps_processes: parent.caps_processes(),
                weighs_cpu: parent.weighs_cpu(),
            }),
            cgroup_missing,
            sandboxed: sandbox.is_some(),
            sandbox_missing,
            own_uids,
            task_clock,
            autogroups: autogroups_on(),
        });
        let mut limits = options.limits;
        if isolation.process_cap.is_none() {
            limits.processes = None;
        }
        Ok(Runner {
            program,
            limits,
            isolation,
            slots: SlotPool::new(slots, own_uids && sandbox.is_some()),
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
                limits.processes.unwrap_or(u64::MAX),
            )?),
            None => None,
        };
        let oom_kills_before = machine_oom_kills();
        let started = Instant::now();
        let (launched, pipes) = match &self.sandbox {
            Some(sandbox) => self.launch_in_slot(sandbox, cgroup.as_ref(), input)?,
            None => self.launch_directly(cgroup.as_ref(), input)?,
        };
        let watched = self.watch(&launched, &pipes, cgroup.as_ref(), started)?;
        let wall_time = started.elapsed();
        if let Some(cgroup) = &cgroup {
            cgroup.kill_all();
        }
        let ending = launched.end()?;
        if let Some(signal) = watched.interrupted {
            // The cgroup and the work directory go as the guards drop.
            return Err(interrupt::stopped_error(signal));
        }
        let output = pipes.finish();
        let used = Used::of(ending, watched.seen_cpu, cgroup.as_ref())?;
        drop(cgroup);

        let machine_oom_kill =
            machine_oom_kill_possible(used.exit, oom_kills_before, machine_oom_kills);
        let termination = termination::termination(&Observed {
            stopped: watched.stopped,
            cpu_time: used.cpu_time,
            cpu_limit: limits.cpu_time,
            oom_kills: used.oom_kills,
            flooded: output.flooded,
            exit: used.exit,
            machine_oom_kill,
        });
        Ok(Run {
            termination,
            cpu_time: used.cpu_time,
            wall_time,
            peak_memory_bytes: used.peak_memory_bytes,
            stdout: output.stdout,
            stderr: output.stderr,
            stderr_bytes: output.stderr_bytes,
            refused_forks: used.refused_forks,
            measurement: self.isolation.measurement,
        })
    }

    /// Checks the run every [`POLL`] (woken at once by its end) until it
    /// ends, breaks a limit, or a stopping signal comes.
    fn watch(
        &self,
        launched: &Launched<'_>,
        pipes: &Pipes,
        cgroup: Option<&RunCgroup>,
        started: Instant,
    ) -> io::Result<Watched> {
        let mut meter = match launched {
            Launched::Directly { group, .. } => ProcMeter::Group(group.id, Duration::ZERO),
            Launched::InSlot { run, .. } => ProcMeter::of_namespace(run.host_pid),
        };
        let mut watched = Watched {
            stopped: None,
            interrupted: None,
            seen_cpu: Duration::ZERO,
        };
        while !launched.has_ended()? {
            watched.interrupted = interrupt::received();
            if watched.interrupted.is_some() {
                break;
            }
            let cpu_time = match cgroup {
                Some(cgroup) => cgroup.cpu_time().unwrap_or_default(),
                None => meter.poll(),
            };
            watched.stopped = termination::limit_broken(&Check {
                flooded: pipes.flooded(),
                cpu_time,
                cpu_limit: self.limits.cpu_time,
                oom_killed: cgroup.is_some_and(|cgroup| cgroup.oom_kills().unwrap_or(0) > 0),
                wall_time: started.elapsed(),
                wall_limit: self.limits.wall_time,
            });
            if watched.stopped.is_some() {
                break;
            }
            launched.wait(POLL);
        }
        watched.seen_cpu = meter.last();
        Ok(watched)
    }

    /// Starts the program as the runner's child, in a fresh work directory,
    /// in `cgroup`.
    fn launch_directly(
        &self,
        cgroup: Option<&RunCgroup>,
        input: &[u8],
    ) -> io::Result<(Launched<'_>, Pipes)> {
        let limits = &self.limits;
        let work = WorkDir::create()?;
        let argv = self.program.argv();
        let mut command = Command::new(&argv[0]);
        command.args(&argv[1..]).current_dir(work.path());
        // A judge's environment (see the `command` module), with the work
        // directory as the temporary folder.
        command
            .env_clear()
            .envs(passed_environment())
            .env("TMPDIR", work.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let hook = ChildSetup {
            join: cgroup.map(RunCgroup::join_files).unwrap_or_default(),
            oom_score_adj: CString::new("/proc/self/oom_score_adj").expect("no NUL byte"),
            cpu_seconds: limits.backstop_cpu_seconds(),
            address_space: cgroup.is_none().then_some(limits.memory_bytes),
            file_size: Some(limits.memory_bytes),
            keep_open: Vec::new(),
            runner: std::process::id() as libc::pid_t,
        };
        // SAFETY: the hook only makes async-signal-safe system calls on
        // data prepared before the fork (see ChildSetup::apply).
        unsafe {
            command.pre_exec(move || hook.apply());
        }
        let child = command.spawn()?;
        let mut group = ProcessGroup::new(child);
        let pipes = Pipes::start(&mut group.child, input, limits.output_bytes);
        Ok((Launched::Directly { group, _work: work }, pipes))
    }

    /// Has a slot of the sandbox make the run (see `slot.rs`), in `cgroup`.
    fn launch_in_slot(
        &self,
        sandbox: &Sandbox,
        cgroup: Option<&RunCgroup>,
        input: &[u8],
    ) -> io::Result<(Launched<'_>, Pipes)> {
        let limits = &self.limits;
        let request = RunRequest {
            processes: limits.processes.unwrap_or(0),
            work_bytes: limits.memory_bytes,
            cpu_seconds: limits.backstop_cpu_seconds(),
            address_space: if cgroup.is_none() {
                limits.memory_bytes
            } else {
                0
            },
            open_files: OPEN_FILES,
            trial: 0,
        };
        let mut lent = self.slots.lend(sandbox)?;
        let made = match make_run(lent.slot(), &request, cgroup) {
            Ok(made) => made,
            Err(error) => {
                // A slot whose zygote is gone is replaced, once.
                if !lent.replace(sandbox)? {
                    return Err(error);
                }
                make_run(lent.slot(), &request, cgroup)?
            }
        };
        let pipes = Pipes::start_with(
            made.stdin,
            made.stdout,
            made.stderr,
            input,
            limits.output_bytes,
        );
        Ok((
            Launched::InSlot {
                run: made.run,
                status: made.status,
                _slot: lent,
            },
            pipes,
        ))
    }
}

/// A run under way: the program as the runner's child, or a run in a slot.
enum Launched<'a> {
    Directly {
        group: ProcessGroup,
        _work: WorkDir,
    },
    InSlot {
        run: SlotRun,
        /// The read end of the run's report pipe.
        status: OwnedFd,
        _slot: LentSlot<'a>,
    },
}

/// How a run ended, as the runner learned it.
enum Ending {
    /// The runner reaped the program itself.
    Reaped {
        status: ExitStatus,
        usage: libc::rusage,
    },
    /// The run's PID 1 reported (or, `None`, said nothing: it was killed).
    Reported(Option<InitReport>),
}

/// What the runner saw while a run ran.
struct Watched {
    /// The limit it stopped the run for, if any.
    stopped: Option<Stopped>,
    /// The stopping signal that came, if any.
    interrupted: Option<i32>,
    /// The CPU time `/proc` showed last (without a cgroup).
    seen_cpu: Duration,
}

/// What a run used and how its process ended, once it is over.
struct Used {
    exit: Option<Exit>,
    cpu_time: Duration,
    peak_memory_bytes: u64,
    oom_kills: u64,
    refused_forks: u64,
}

impl Used {
    /// From the run's cgroup where there is one; else what was reaped (by
    /// the runner, or by the run's PID 1 in a sandbox) or what `/proc`
    /// showed (`seen_cpu`), whichever is more.
    ///
    /// # Errors
    ///
    /// When the run's PID 1 says the program could not start, or the
    /// cgroup cannot be read.
    fn of(ending: Ending, seen_cpu: Duration, cgroup: Option<&RunCgroup>) -> io::Result<Used> {
        let mut used = Used {
            exit: None,
            cpu_time: seen_cpu,
            peak_memory_bytes: 0,
            oom_kills: 0,
            refused_forks: 0,
        };
        match ending {
            Ending::Reaped { status, usage } => {
                used.cpu_time = used.cpu_time.max(cpu_of(&usage));
                used.peak_memory_bytes = usage.ru_maxrss.max(0) as u64 * 1024;
                used.exit = exit_of(status);
            }
            Ending::Reported(Some(InitReport::Ran {
                exit,
                cpu,
                max_rss_bytes,
                ..
            })) => {
                used.cpu_time = used.cpu_time.max(cpu);
                used.peak_memory_bytes = max_rss_bytes;
                used.exit = Some(exit);
            }
            Ending::Reported(Some(
                InitReport::NotStarted(message) | InitReport::Visible(message),
            )) => return Err(io::Error::other(message)),
            // No report: the run's PID 1 was killed, by us or by the kernel.
            Ending::Reported(None) => {}
        }
        if let Some(cgroup) = cgroup {
            used.cpu_time = cgroup.cpu_time()?;
            used.peak_memory_bytes = cgroup.peak_memory()?;
            used.oom_kills = cgroup.oom_kills().unwrap_or(0);
            used.refused_forks = cgroup.refused_forks();
        }
        Ok(used)
    }
}

impl Launched<'_> {
    fn has_ended(&self) -> io::Result<bool> {
        match self {
            Launched::Directly { group, .. } => group.has_exited(),
            Launched::InSlot { run, .. } => Ok(run.has_ended()),
        }
    }

    fn wait(&self, timeout: Duration) {
        match self {
            Launched::Directly { group, .. } => group.wait_for_exit(timeout),
            Launched::InSlot { run, .. } => {
                run.wait(timeout);
            }
        }
    }

    /// Kills what is left of the run and learns how it ended.
    fn end(self) -> io::Result<Ending> {
        match self {
            Launched::Directly { group, _work } => {
                let (status, usage) = group.end()?;
                Ok(Ending::Reaped { status, usage })
            }
            Launched::InSlot { run, status, _slot } => {
                run.kill();
                Ok(Ending::Reported(init::read_report(status)))
            }
        }
    }
}

/// Refuses limits that together exceed the memory the machine has
/// available (`MemAvailable`; not checked where it cannot be read).
fn check_memory(options: &RunnerOptions) -> Result<(), RunnerError> {
    match available_memory() {
        Some(available) => fits_in_memory(
            options.limits.memory_bytes,
            options.concurrent_runs,
            available,
        ),
        None => Ok(()),
    }
}

/// Whether `runs` runs at once (at least one), each with `memory_bytes`,
/// fit in `available` bytes.
fn fits_in_memory(memory_bytes: u64, runs: usize, available: u64) -> Result<(), RunnerError> {
    let runs = runs.max(1);
    let needed = memory_bytes.saturating_mul(runs as u64);
    if needed > available {
        return Err(RunnerError::MemoryAboveAvailable {
            limit: memory_bytes >> 20,
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
    oom_kills_in(&std::fs::read_to_string("/proc/vmstat").ok()?)
}

/// The `oom_kill` count of a `/proc/vmstat` text.
fn oom_kills_in(vmstat: &str) -> Option<u64> {
    vmstat
        .lines()
        .find_map(|line| line.strip_prefix("oom_kill ")?.trim().parse().ok())
}

/// Whether the machine's out-of-memory killer may have killed a run that
/// ended in `exit`: only a `SIGKILL` can be its, and then only if the
/// machine's count of kills (`before` the run, `after` it, read only for
/// a `SIGKILL`) grew, or either cannot be read.
fn machine_oom_kill_possible(
    exit: Option<Exit>,
    before: Option<u64>,
    after: impl FnOnce() -> Option<u64>,
) -> bool {
    exit == Some(Exit::Signal(libc::SIGKILL))
        && after()
            .zip(before)
            .is_none_or(|(after, before)| after > before)
}

/// How the runner's own child ended, as `wait4` saw it.
fn exit_of(status: ExitStatus) -> Option<Exit> {
    match status.code() {
        Some(code) => Some(Exit::Status(code)),
        None => status.signal().map(Exit::Signal),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::runner::{CgroupVersion, MIB};

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
    fn every_measurement_serializes_as_a_name() {
        let names: Vec<String> = [
            Measurement::Cgroup(CgroupVersion::V1),
            Measurement::Cgroup(CgroupVersion::V2),
            Measurement::Rusage,
        ]
        .iter()
        .map(|measurement| serde_json::to_string(measurement).unwrap())
        .collect();
        assert_eq!(names, [r#""cgroup v1""#, r#""cgroup v2""#, r#""rusage""#]);
    }

    #[test]
    fn runs_fit_in_memory_up_to_exactly_what_is_available() {
        assert!(fits_in_memory(512 * MIB, 2, 1024 * MIB).is_ok());
        assert!(
            fits_in_memory(512 * MIB, 0, 512 * MIB).is_ok(),
            "one run at least"
        );
        assert!(matches!(
            fits_in_memory(512 * MIB, 2, 1024 * MIB - 1),
            Err(RunnerError::MemoryAboveAvailable {
                limit: 512,
                runs: 2,
                available: 1023,
            })
        ));
        assert!(matches!(
            fits_in_memory(512 * MIB + 1, 0, 512 * MIB),
            Err(RunnerError::MemoryAboveAvailable { runs: 1, .. })
        ));
    }

    #[test]
    fn the_machines_oom_kills_are_read_from_vmstat() {
        let vmstat = "pgfault 12\noom_kill_extra 9\noom_kill 3\nthp_fault_alloc 0\n";
        assert_eq!(oom_kills_in(vmstat), Some(3));
        assert_eq!(oom_kills_in("pgfault 12\n"), None);
        assert_eq!(oom_kills_in("oom_kill many\n"), None);
        // This kernel has the count, for the runs to compare.
        assert!(machine_oom_kills().is_some());
    }

    #[test]
    fn only_a_sigkill_during_a_new_machine_oom_kill_may_be_the_machines() {
        let sigkill = Some(Exit::Signal(libc::SIGKILL));
        assert!(!machine_oom_kill_possible(sigkill, Some(4), || Some(4)));
        assert!(machine_oom_kill_possible(sigkill, Some(4), || Some(5)));
        assert!(!machine_oom_kill_possible(sigkill, Some(5), || Some(4)));
        // Unknown before or after: it may have been.
        assert!(machine_oom_kill_possible(sigkill, None, || Some(4)));
        assert!(machine_oom_kill_possible(sigkill, Some(4), || None));
        // Nothing else is the machine's, and the count is not read then.
        for exit in [
            None,
            Some(Exit::Status(0)),
            Some(Exit::Signal(libc::SIGSEGV)),
        ] {
            assert!(!machine_oom_kill_possible(exit, Some(4), || {
                panic!("read for {exit:?}")
            }));
        }
    }

    /// The CPU time of the calling thread so far.
    fn thread_cpu_time() -> Duration {
        // SAFETY: clock_gettime writes the timespec it is given.
        let time = unsafe {
            let mut time: libc::timespec = std::mem::zeroed();
            libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time);
            time
        };
        Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
    }

    /// The runner sleeps between its checks of a run, so that it takes no
    /// CPU time from the runs beside it on the machine: waiting out a run
    /// that sleeps for two seconds costs its thread a few milliseconds
    /// for its 200 checks, against a bound of 300 ms, which a runner
    /// checking without pause passes even on a loaded machine (each check
    /// is system calls, counted as the thread's CPU time). With a cgroup
    /// only: without one, each check reads all of `/proc` to find the
    /// run's processes, which may cost that much by itself.
    #[test]
    fn the_runner_sleeps_while_its_run_does() {
        let runner = runner("sleep 2", limits());
        if !matches!(runner.isolation().measurement, Measurement::Cgroup(_)) {
            eprintln!("skipped: the runner's checks read /proc without a cgroup");
            return;
        }
        let before = thread_cpu_time();
        let run = runner.run(b"").unwrap();
        let spent = thread_cpu_time() - before;
        assert_eq!(run.termination, Termination::Exited(0));
        assert!(spent < Duration::from_millis(300), "{spent:?}");
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
