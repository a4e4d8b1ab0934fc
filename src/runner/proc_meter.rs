//! The CPU meter of runs without a cgroup: `/proc` polled for the run's
//! processes.

use std::path::PathBuf;
use std::time::Duration;

use super::proc_stat::{ProcStat, ticks_per_second};

/// The CPU meter without a cgroup: polls `/proc` for the run's processes
/// (those of the run's PID namespace, or of the runner's child's process
/// group) and sums their CPU time and their reaped children's. Every
/// process that ended was reaped by one still counted (or by the run's PID
/// 1), so the sum covers them too, but for zombies not yet reaped. Its
/// resolution is the clock tick (10 ms).
pub(super) enum ProcMeter {
    /// The processes of a PID namespace (the target of a `/proc/PID/ns/pid`
    /// link), and the greatest sum seen.
    Namespace(PathBuf, Duration),
    /// The processes of a process group, and the greatest sum seen.
    Group(libc::pid_t, Duration),
    /// Nothing to measure: the run's PID 1 was gone before it could be.
    Nothing,
}

impl ProcMeter {
    /// The meter of the PID namespace of process `pid` (a run's PID 1).
    pub(super) fn of_namespace(pid: libc::pid_t) -> ProcMeter {
        match std::fs::read_link(format!("/proc/{pid}/ns/pid")) {
            Ok(namespace) => ProcMeter::Namespace(namespace, Duration::ZERO),
            Err(_) => ProcMeter::Nothing,
        }
    }

    /// The CPU time the run's processes have used so far (never less than
    /// an earlier reading: after the kill there is nothing left to read).
    pub(super) fn poll(&mut self) -> Duration {
        match self {
            ProcMeter::Namespace(namespace, seen) => {
                let used = proc_cpu_time(|pid, _| {
                    std::fs::read_link(format!("/proc/{pid}/ns/pid"))
                        .is_ok_and(|link| link == *namespace)
                });
                *seen = (*seen).max(used);
                *seen
            }
            ProcMeter::Group(group, seen) => {
                let group = *group;
                *seen = (*seen).max(proc_cpu_time(|_, process_group| process_group == group));
                *seen
            }
            ProcMeter::Nothing => Duration::ZERO,
        }
    }

    /// The last reading.
    pub(super) fn last(&self) -> Duration {
        match self {
            ProcMeter::Namespace(_, seen) | ProcMeter::Group(_, seen) => *seen,
            ProcMeter::Nothing => Duration::ZERO,
        }
    }
}

/// The summed user, system, and reaped children's user and system times
/// of the processes for which `counted(pid, process_group)` holds.
fn proc_cpu_time(counted: impl Fn(u32, libc::pid_t) -> bool) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut ticks = 0u64;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some(stat) = ProcStat::read(&pid.to_string())
            && counted(pid, stat.process_group())
        {
            ticks += stat.cpu_ticks();
        }
    }
    Duration::from_micros(ticks * 1_000_000 / ticks_per_second())
}
