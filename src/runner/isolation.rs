//! How runs are isolated and measured on this machine, and why not better:
//! what a report says of the runner ([`Isolation`]), decided once, when the
//! runner is made, from what it found (`Isolation::of`, a pure function
//! of the facts, tested here).

use serde::Serialize;

use super::cgroup::CgroupVersion;
use super::sandbox::SandboxError;

/// How CPU time and memory are measured and limited.
///
/// It serializes as `"cgroup v1"`, `"cgroup v2"` or `"rusage"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measurement {
    /// By a cgroup per run: CPU time and memory of all the run's processes
    /// together; the memory limit is enforced and reported as such.
    Cgroup(CgroupVersion),
    /// By `wait4`/`getrusage` and `/proc`, with the memory limit as
    /// `RLIMIT_AS` per process: a program over it sees its allocations
    /// fail, which cannot be told from other runtime errors.
    Rusage,
}

impl Serialize for Measurement {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Measurement::Cgroup(version) => version.serialize(serializer),
            Measurement::Rusage => serializer.serialize_str("rusage"),
        }
    }
}

/// How runs are isolated and measured here, and why not better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Isolation {
    /// Whether runs are in a sandbox.
    pub sandboxed: bool,
    /// With [`SandboxMode::Auto`](super::SandboxMode::Auto), why there is no sandbox.
    #[serde(serialize_with = "display_option")]
    pub sandbox_missing: Option<SandboxError>,
    /// Whose uid the program runs as.
    pub user: RunUser,
    /// How CPU time and memory are measured.
    pub measurement: Measurement,
    /// When cgroups were wanted, why there are none.
    pub cgroup_missing: Option<String>,
    /// What caps the number of processes, if anything does.
    pub process_cap: Option<ProcessCap>,
    /// What holds a run to one share of the CPU.
    pub cpu_share: CpuShare,
    /// What bounds the memory the kernel holds for a run outside its
    /// address space.
    pub kernel_memory: KernelMemory,
    /// What counts the CPU time of every process of a run.
    pub cpu_counter: CpuCounter,
}

/// What counts the CPU time of every process of a run, those the kernel
/// reaps by itself (children of a parent that ignores `SIGCHLD`) included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CpuCounter {
    /// The run's cgroup.
    Cgroup,
    /// No cgroup: a task-clock counter every process of the run inherits
    /// (`init.rs`).
    TaskClock,
    /// Nothing: what was reaped and what `/proc` showed; a process the
    /// kernel reaps by itself, if it ends between two looks, is not
    /// counted, and only the wall-clock limit bounds it.
    Reaped,
}

/// What holds a run, whatever it starts, to one share of the CPU against
/// other runs and other programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CpuShare {
    /// The run's own CPU cgroup, of the weight of one process.
    Cgroup,
    /// No cgroup, but the sandbox refuses new sessions, and the kernel
    /// gives each session one share (its autogroups are on).
    Session,
    /// Nothing: each process of the run competes alone.
    Nothing,
}

/// What bounds the memory the kernel holds for a run outside its address
/// space: files in tmpfs, System V and POSIX IPC, pipe and socket buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KernelMemory {
    /// The run's memory cgroup counts it against the memory limit.
    Cgroup,
    /// No memory cgroup, but the sandbox refuses what nothing would count
    /// (`memfd_create`, System V IPC, socket pairs) and bounds the rest:
    /// `/tmp` and `/dev/shm` one tmpfs of the memory limit's size, POSIX
    /// message queues by `RLIMIT_MSGQUEUE`, pipes and epoll watches by the
    /// kernel's per-user limits (`fs.pipe-user-pages-soft`,
    /// `fs.epoll.max_user_watches`), which are not the memory limit.
    Bounded,
    /// Nothing counts it (no sandbox, no cgroup).
    Uncounted,
}

/// Whether the kernel gives each session one share of the CPU
/// (`kernel.sched_autogroup_enabled`).
pub(crate) fn autogroups_on() -> bool {
    autogroup_setting_on(
        std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled")
            .ok()
            .as_deref(),
    )
}

/// Whether `sched_autogroup_enabled`'s text (`None`: it cannot be read, as
/// on a kernel built without autogroups) says they are on.
fn autogroup_setting_on(setting: Option<&str>) -> bool {
    setting.is_some_and(|text| text.trim() == "1")
}

/// Whose uid a program runs as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunUser {
    /// The caller's (a judge that is not root, or no sandbox).
    Caller,
    /// An unprivileged uid for each run in progress, from
    /// [`FIRST_UID`](super::FIRST_UID) on (a root judge's sandbox).
    OwnUid,
}

/// What caps the number of a run's processes and threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcessCap {
    /// The run's cgroup (`pids.max`), which also counts the refusals.
    Cgroup,
    /// `RLIMIT_NPROC` inside the sandbox's user namespace, which counts
    /// the run's processes alone.
    Rlimit,
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

/// What a runner found when it was made, from which its [`Isolation`]
/// follows.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The parent cgroup of its runs' cgroups, if it has one.
    pub(crate) cgroup: Option<CgroupFound>,
    /// When cgroups were wanted, why there are none.
    pub(crate) cgroup_missing: Option<String>,
    /// Whether runs are in a sandbox.
    pub(crate) sandboxed: bool,
    /// With `SandboxMode::Auto`, why there is no sandbox.
    pub(crate) sandbox_missing: Option<SandboxError>,
    /// Whether the judge is root and a sandbox was asked for: its slots
    /// then have uids of their own.
    pub(crate) own_uids: bool,
    /// Whether the sandbox's trial run counted CPU time with a task clock.
    pub(crate) task_clock: bool,
    /// Whether the kernel gives each session one share of the CPU.
    pub(crate) autogroups: bool,
}

/// What a runner's parent cgroup can do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CgroupFound {
    pub(crate) version: CgroupVersion,
    /// Whether it has the pids controller.
    pub(crate) caps_processes: bool,
    /// Whether it has the CPU controller.
    pub(crate) weighs_cpu: bool,
}

impl Isolation {
    /// The isolation of a runner that found `found`: a cgroup's controller
    /// wins over the sandbox's bounds for what both can do, and without
    /// either, nothing does it.
    pub(crate) fn of(found: &Found) -> Isolation {
        let cgroup = found.cgroup;
        let sandboxed = found.sandboxed;
        Isolation {
            sandboxed,
            sandbox_missing: found.sandbox_missing.clone(),
            user: if sandboxed && found.own_uids {
                RunUser::OwnUid
            } else {
                RunUser::Caller
            },
            measurement: cgroup.map_or(Measurement::Rusage, |cgroup| {
                Measurement::Cgroup(cgroup.version)
            }),
            cgroup_missing: found.cgroup_missing.clone(),
            process_cap: if cgroup.is_some_and(|cgroup| cgroup.caps_processes) {
                Some(ProcessCap::Cgroup)
            } else if sandboxed {
                Some(ProcessCap::Rlimit)
            } else {
                None
            },
            cpu_share: if cgroup.is_some_and(|cgroup| cgroup.weighs_cpu) {
                CpuShare::Cgroup
            } else if sandboxed && found.autogroups {
                CpuShare::Session
            } else {
                CpuShare::Nothing
            },
            kernel_memory: if cgroup.is_some() {
                KernelMemory::Cgroup
            } else if sandboxed {
                KernelMemory::Bounded
            } else {
                KernelMemory::Uncounted
            },
            cpu_counter: if cgroup.is_some() {
                CpuCounter::Cgroup
            } else if found.task_clock {
                CpuCounter::TaskClock
            } else {
                CpuCounter::Reaped
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autogroups_are_on_only_where_the_setting_says_1() {
        assert!(autogroup_setting_on(Some("1\n")));
        assert!(autogroup_setting_on(Some("1")));
        for off in [Some("0\n"), Some("2\n"), Some(""), None] {
            assert!(!autogroup_setting_on(off), "{off:?}");
        }
    }

    #[test]
    fn autogroups_are_reported_as_the_kernel_has_them() {
        // Read, never written: a test must not change a kernel setting.
        let setting = std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled");
        let on = match setting.as_deref().map(str::trim) {
            Ok("1") => true,
            Ok("0") | Err(_) => false,
            Ok(other) => panic!("sched_autogroup_enabled is {other:?}"),
        };
        assert_eq!(autogroups_on(), on);
    }

    fn found(cgroup: Option<CgroupFound>, sandboxed: bool) -> Found {
        Found {
            cgroup,
            cgroup_missing: None,
            sandboxed,
            sandbox_missing: None,
            own_uids: true,
            task_clock: true,
            autogroups: true,
        }
    }

    const FULL_CGROUP: CgroupFound = CgroupFound {
        version: CgroupVersion::V2,
        caps_processes: true,
        weighs_cpu: true,
    };

    #[test]
    fn a_cgroup_measures_caps_and_weighs_whatever_the_sandbox() {
        for sandboxed in [false, true] {
            let isolation = Isolation::of(&found(Some(FULL_CGROUP), sandboxed));
            assert_eq!(
                isolation.measurement,
                Measurement::Cgroup(CgroupVersion::V2)
            );
            assert_eq!(isolation.process_cap, Some(ProcessCap::Cgroup));
            assert_eq!(isolation.cpu_share, CpuShare::Cgroup);
            assert_eq!(isolation.kernel_memory, KernelMemory::Cgroup);
            assert_eq!(isolation.cpu_counter, CpuCounter::Cgroup);
        }
    }

    #[test]
    fn without_a_cgroup_the_sandbox_bounds_what_it_can() {
        let isolation = Isolation::of(&found(None, true));
        assert_eq!(isolation.measurement, Measurement::Rusage);
        assert_eq!(isolation.process_cap, Some(ProcessCap::Rlimit));
        assert_eq!(isolation.cpu_share, CpuShare::Session);
        assert_eq!(isolation.kernel_memory, KernelMemory::Bounded);
        assert_eq!(isolation.cpu_counter, CpuCounter::TaskClock);
        assert_eq!(isolation.user, RunUser::OwnUid);
        let no_autogroups = Found {
            autogroups: false,
            task_clock: false,
            ..found(None, true)
        };
        let isolation = Isolation::of(&no_autogroups);
        assert_eq!(isolation.cpu_share, CpuShare::Nothing);
        assert_eq!(isolation.cpu_counter, CpuCounter::Reaped);
    }

    #[test]
    fn a_cgroup_without_a_controller_leaves_its_part_to_the_sandbox() {
        let partial = CgroupFound {
            caps_processes: false,
            weighs_cpu: false,
            ..FULL_CGROUP
        };
        let isolation = Isolation::of(&found(Some(partial), true));
        assert_eq!(isolation.process_cap, Some(ProcessCap::Rlimit));
        assert_eq!(isolation.cpu_share, CpuShare::Session);
        assert_eq!(isolation.kernel_memory, KernelMemory::Cgroup);
    }

    #[test]
    fn with_neither_nothing_caps_shares_or_counts() {
        let isolation = Isolation::of(&found(None, false));
        assert_eq!(isolation.process_cap, None);
        assert_eq!(isolation.cpu_share, CpuShare::Nothing);
        assert_eq!(isolation.kernel_memory, KernelMemory::Uncounted);
        // Its own uids only in a sandbox.
        assert_eq!(isolation.user, RunUser::Caller);
    }
}
