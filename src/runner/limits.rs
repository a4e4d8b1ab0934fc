//! The limits of one run, as judges set them.

use std::time::Duration;

use serde::Serialize;

/// One mebibyte, the unit judges state memory limits in.
pub const MIB: u64 = 1 << 20;

/// The limits of one run of a program.
///
/// It serializes as `{time_limit_seconds, wall_limit_seconds,
/// memory_limit_bytes, output_limit_bytes, process_limit}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// CPU time (user plus system) of the program and of every process it
    /// starts, together. Over it: time limit exceeded.
    #[serde(
        rename = "time_limit_seconds",
        serialize_with = "crate::secs_f64::serialize"
    )]
    pub cpu_time: Duration,
    /// Wall-clock time, a safety net for programs that sleep or wait. Over
    /// it: time limit exceeded too.
    #[serde(
        rename = "wall_limit_seconds",
        serialize_with = "crate::secs_f64::serialize"
    )]
    pub wall_time: Duration,
    /// Memory of the program and its processes together (resident memory,
    /// files in its work directory included). Over it: memory limit
    /// exceeded, where a cgroup enforces it.
    #[serde(rename = "memory_limit_bytes")]
    pub memory_bytes: u64,
    /// Bytes of standard output. Over it: output limit exceeded.
    #[serde(rename = "output_limit_bytes")]
    pub output_bytes: u64,
    /// Processes and threads alive at once; more cannot be started. `None`
    /// where nothing can enforce it (no cgroup and no sandbox: see
    /// [`Isolation::process_cap`](super::Isolation::process_cap)).
    #[serde(rename = "process_limit")]
    pub processes: Option<u64>,
}

/// The most files a process of a run may have open at once
/// (`RLIMIT_NOFILE`, soft and hard): plenty for a contest program (the
/// IOI's isolate allows 64), and a bound on what each process can hold in
/// pipe buffers where no memory cgroup counts them.
pub const OPEN_FILES: u64 = 256;

/// The wall-clock limit a time limit gets when none is given: three times
/// the CPU time, as loaded machines stretch wall-clock time.
pub const WALL_PER_CPU: u32 = 3;

impl Limits {
    /// The defaults: 10 s of CPU time, 30 s of wall-clock time, 1024 MiB of
    /// memory, 8 MiB of output, 256 processes and threads.
    pub const DEFAULT: Limits = Limits {
        cpu_time: Duration::from_secs(10),
        wall_time: Duration::from_secs(30),
        memory_bytes: 1024 * MIB,
        output_bytes: 8 * MIB,
        processes: Some(256),
    };
}

impl Limits {
    /// The kernel's backstop for the CPU time limit (`RLIMIT_CPU`), in
    /// whole seconds: the limit rounded up, and one second more, so that
    /// the runner's polls, not the kernel, stop a run that spins past its
    /// limit, and the backstop only ends one the runner failed to stop.
    pub(crate) fn backstop_cpu_seconds(&self) -> u64 {
        self.cpu_time.as_secs_f64().ceil() as u64 + 1
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_documented_ones() {
        // As the docs of Limits::DEFAULT and of `stress --help` give them.
        let limits = Limits::DEFAULT;
        assert_eq!(limits.cpu_time, Duration::from_secs(10));
        assert_eq!(limits.wall_time, Duration::from_secs(30));
        assert_eq!(limits.memory_bytes, 1024 << 20);
        assert_eq!(limits.output_bytes, 8 << 20);
        assert_eq!(limits.processes, Some(256));
    }

    #[test]
    fn the_default_wall_limit_is_three_times_the_time_limit() {
        assert_eq!(
            Limits::DEFAULT.wall_time,
            Limits::DEFAULT.cpu_time * WALL_PER_CPU
        );
        assert_eq!(
            Limits::DEFAULT.output_bytes,
            crate::checker::DEFAULT_OUTPUT_LIMIT
        );
    }

    #[test]
    fn the_cpu_backstop_is_a_second_past_the_limit_rounded_up() {
        for (limit, backstop) in [(0, 1), (500, 2), (1000, 2), (1001, 3), (2300, 4)] {
            let limits = Limits {
                cpu_time: Duration::from_millis(limit),
                ..Limits::DEFAULT
            };
            assert_eq!(limits.backstop_cpu_seconds(), backstop, "{limit} ms");
        }
    }
}
