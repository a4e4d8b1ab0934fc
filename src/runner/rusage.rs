//! What `getrusage` says of processes: the CPU time of this process or of
//! its reaped children, and the largest resident size of one.

use std::time::Duration;

/// The CPU time of the reaped children of this process (user plus system)
/// and the largest resident size of any of them, in KiB.
pub(crate) fn children_usage() -> (Duration, u64) {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    (cpu_of(&usage), usage.ru_maxrss.max(0) as u64)
}

/// The user plus system time of a `rusage`.
pub(crate) fn cpu_of(usage: &libc::rusage) -> Duration {
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The user and system CPU time this process has used so far, all its
/// threads, without its children.
pub fn own_cpu_time() -> Duration {
    // SAFETY: an all-zero rusage is a valid value, and getrusage only
    // writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    cpu_of(&usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_cpu_time_grows_with_work() {
        let before = own_cpu_time();
        let started = std::time::Instant::now();
        let mut x = 0u64;
        while started.elapsed() < Duration::from_millis(50) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
        }
        assert!(own_cpu_time() > before);
    }

    #[test]
    fn cpu_of_adds_user_and_system_time() {
        // SAFETY: an all-zero rusage is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        usage.ru_utime = libc::timeval {
            tv_sec: 1,
            tv_usec: 250_000,
        };
        usage.ru_stime = libc::timeval {
            tv_sec: 0,
            tv_usec: 500_000,
        };
        assert_eq!(cpu_of(&usage), Duration::from_millis(1750));
    }
}
