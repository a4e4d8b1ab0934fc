//! What the commands that run programs say of how the runs are isolated
//! and measured, an [`Isolation`]: the summary every report of `stress` and
//! `judge` carries, and the warnings about what this machine lacks.

use rotation_game::runner::{
    CpuCounter, CpuShare, Isolation, KernelMemory, Measurement, ProcessCap, RunUser, SandboxError,
};

/// What this machine lacks for judge-grade runs, as `isolation` shows it,
/// one warning each, for a judge running `as_root` or not.
pub fn warnings(isolation: &Isolation, as_root: bool) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(missing) = &isolation.sandbox_missing {
        let whose = if as_root {
            "as root, with every right on this machine"
        } else {
            "as you, with your rights"
        };
        let install = if matches!(missing, SandboxError::NotInstalled) {
            "install bubblewrap (Debian and Ubuntu: sudo apt-get install bubblewrap), "
        } else {
            ""
        };
        warnings.push(format!(
            "runs are not isolated: {missing}; the program runs {whose}, sees every file you can, and may use the network ({install}pass --sandbox on to refuse to run without it, or --sandbox off to run without isolation on purpose)"
        ));
    }
    if let (Measurement::Rusage, Some(why)) = (isolation.measurement, &isolation.cgroup_missing) {
        warnings.push(format!(
            "no writable cgroup ({why}): memory is limited per process by address space, so a program over --memory-limit shows as a runtime error, not a memory limit exceeded; CPU time is measured by polling{}",
            if as_root {
                ""
            } else {
                " (a user's systemd gives one: systemd-run --user --scope -p Delegate=yes rotation-game ...)"
            }
        ));
    }
    if isolation.cpu_counter == CpuCounter::Reaped {
        warnings.push(
            "no cgroup and no task clock here (kernel.perf_event_paranoid above 2): the CPU time of processes the kernel reaps by itself (children of a parent that ignores SIGCHLD) is not counted, and only the wall-clock limit bounds them".to_owned(),
        );
    }
    if isolation.sandboxed && isolation.cpu_share == CpuShare::Nothing {
        warnings.push(
            "no CPU cgroup and the kernel's autogroups are off: each process of a run takes its own share of the CPU, so a program that starts many slows the other runs".to_owned(),
        );
    }
    if isolation.process_cap.is_none() {
        warnings.push(
            "nothing caps the number of processes of a run here (no cgroup and no sandbox), so a fork bomb is not stopped".to_owned(),
        );
    }
    warnings
}

/// What a machine offers for runs, in a word, for reports: `bubblewrap
/// sandbox, cgroup v1` and the like.
pub fn isolation_summary(isolation: &Isolation) -> String {
    let sandbox = match (isolation.sandboxed, isolation.user) {
        (true, RunUser::OwnUid) => "bubblewrap sandbox, an unprivileged uid per run",
        (true, RunUser::Caller) => "bubblewrap sandbox, as you",
        (false, _) => "no sandbox",
    };
    let measurement = match isolation.measurement {
        Measurement::Cgroup(version) => format!(
            "CPU time and memory from a {} cgroup per run",
            match version {
                rotation_game::runner::CgroupVersion::V1 => "v1",
                rotation_game::runner::CgroupVersion::V2 => "v2",
            }
        ),
        Measurement::Rusage => "CPU time and memory from rusage and /proc".to_owned(),
    };
    let cap = match isolation.process_cap {
        Some(ProcessCap::Cgroup) => "processes capped by the cgroup",
        Some(ProcessCap::Rlimit) => "processes capped by RLIMIT_NPROC in the sandbox",
        None => "processes not capped",
    };
    let cpu = match isolation.cpu_share {
        CpuShare::Cgroup => "one share of the CPU per run (its cgroup)",
        CpuShare::Session => "one share of the CPU per run (one session, no cgroup)",
        CpuShare::Nothing => "no CPU share per run (each process competes alone)",
    };
    let kernel = match isolation.kernel_memory {
        KernelMemory::Cgroup => "kernel memory counted by the cgroup",
        KernelMemory::Bounded => {
            "kernel memory bounded without a cgroup (memfd, System V IPC and socket pairs refused, /tmp and /dev/shm within the limit)"
        }
        KernelMemory::Uncounted => "kernel memory not counted",
    };
    let counter = match isolation.cpu_counter {
        CpuCounter::Cgroup => "",
        CpuCounter::TaskClock => "; CPU time of every process counted by a task clock",
        CpuCounter::Reaped => {
            "; CPU time of processes the kernel reaps by itself not counted (bounded by the wall clock)"
        }
    };
    format!("{sandbox}; {measurement}{counter}; {cap}; {cpu}; {kernel}")
}

#[cfg(test)]
mod tests {
    use rotation_game::runner::CgroupVersion;

    use super::*;

    /// A root judge's machine with every means: a sandbox, a cgroup v1 per
    /// run.
    fn everything() -> Isolation {
        Isolation {
            sandboxed: true,
            sandbox_missing: None,
            user: RunUser::OwnUid,
            measurement: Measurement::Cgroup(CgroupVersion::V1),
            cgroup_missing: None,
            process_cap: Some(ProcessCap::Cgroup),
            cpu_share: CpuShare::Cgroup,
            kernel_memory: KernelMemory::Cgroup,
            cpu_counter: CpuCounter::Cgroup,
        }
    }

    /// A user's machine: the sandbox, no cgroup, a task clock.
    fn a_users() -> Isolation {
        Isolation {
            user: RunUser::Caller,
            measurement: Measurement::Rusage,
            cgroup_missing: Some("no cgroup is writable".to_owned()),
            process_cap: Some(ProcessCap::Rlimit),
            cpu_share: CpuShare::Session,
            kernel_memory: KernelMemory::Bounded,
            cpu_counter: CpuCounter::TaskClock,
            ..everything()
        }
    }

    /// Nothing: no sandbox (bubblewrap missing), no cgroup, no task clock.
    fn nothing() -> Isolation {
        Isolation {
            sandboxed: false,
            sandbox_missing: Some(SandboxError::NotInstalled),
            process_cap: None,
            cpu_share: CpuShare::Nothing,
            kernel_memory: KernelMemory::Uncounted,
            cpu_counter: CpuCounter::Reaped,
            ..a_users()
        }
    }

    #[test]
    fn the_isolation_reads_as_each_of_its_parts() {
        assert_eq!(
            isolation_summary(&everything()),
            "bubblewrap sandbox, an unprivileged uid per run; CPU time and memory from a v1 cgroup per run; processes capped by the cgroup; one share of the CPU per run (its cgroup); kernel memory counted by the cgroup"
        );
        let v2 = Isolation {
            measurement: Measurement::Cgroup(CgroupVersion::V2),
            ..everything()
        };
        assert!(
            isolation_summary(&v2).contains("; CPU time and memory from a v2 cgroup per run; ")
        );
        assert_eq!(
            isolation_summary(&a_users()),
            "bubblewrap sandbox, as you; CPU time and memory from rusage and /proc; CPU time of every process counted by a task clock; processes capped by RLIMIT_NPROC in the sandbox; one share of the CPU per run (one session, no cgroup); kernel memory bounded without a cgroup (memfd, System V IPC and socket pairs refused, /tmp and /dev/shm within the limit)"
        );
        assert_eq!(
            isolation_summary(&nothing()),
            "no sandbox; CPU time and memory from rusage and /proc; CPU time of processes the kernel reaps by itself not counted (bounded by the wall clock); processes not capped; no CPU share per run (each process competes alone); kernel memory not counted"
        );
    }

    #[test]
    fn a_warning_for_each_thing_the_machine_lacks() {
        assert_eq!(warnings(&everything(), true), Vec::<String>::new());
        assert_eq!(
            warnings(&a_users(), false),
            [
                "no writable cgroup (no cgroup is writable): memory is limited per process by address space, so a program over --memory-limit shows as a runtime error, not a memory limit exceeded; CPU time is measured by polling (a user's systemd gives one: systemd-run --user --scope -p Delegate=yes rotation-game ...)"
            ]
        );
        let as_root = warnings(&nothing(), true);
        assert_eq!(
            as_root,
            [
                "runs are not isolated: bubblewrap (bwrap) is not installed; the program runs as root, with every right on this machine, sees every file you can, and may use the network (install bubblewrap (Debian and Ubuntu: sudo apt-get install bubblewrap), pass --sandbox on to refuse to run without it, or --sandbox off to run without isolation on purpose)",
                "no writable cgroup (no cgroup is writable): memory is limited per process by address space, so a program over --memory-limit shows as a runtime error, not a memory limit exceeded; CPU time is measured by polling",
                "no cgroup and no task clock here (kernel.perf_event_paranoid above 2): the CPU time of processes the kernel reaps by itself (children of a parent that ignores SIGCHLD) is not counted, and only the wall-clock limit bounds them",
                "nothing caps the number of processes of a run here (no cgroup and no sandbox), so a fork bomb is not stopped",
            ]
        );
        let unusable = Isolation {
            sandbox_missing: Some(SandboxError::Unusable("no user namespaces".to_owned())),
            ..nothing()
        };
        assert_eq!(
            warnings(&unusable, false)[0],
            "runs are not isolated: bubblewrap cannot make a sandbox here: no user namespaces; the program runs as you, with your rights, sees every file you can, and may use the network (pass --sandbox on to refuse to run without it, or --sandbox off to run without isolation on purpose)"
        );
        // A cgroup measures, so a missing one elsewhere is no warning.
        let cgroup_measures = Isolation {
            measurement: Measurement::Cgroup(CgroupVersion::V2),
            ..a_users()
        };
        assert_eq!(warnings(&cgroup_measures, false), Vec::<String>::new());
        let sandbox_sharing_nothing = Isolation {
            cpu_share: CpuShare::Nothing,
            ..everything()
        };
        assert_eq!(
            warnings(&sandbox_sharing_nothing, true),
            [
                "no CPU cgroup and the kernel's autogroups are off: each process of a run takes its own share of the CPU, so a program that starts many slows the other runs"
            ]
        );
    }
}
