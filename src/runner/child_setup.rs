//! What the runner's child does between `fork` and `exec`: join the run's
//! cgroup, set its limits, and close the descriptors the program must not
//! inherit.

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

use super::limits::OPEN_FILES;

/// What the child does between fork and exec. Everything is prepared
/// before the fork: after it, only async-signal-safe calls are allowed.
pub(super) struct ChildSetup {
    /// `cgroup.procs` files to write `0` (this process) to.
    pub(super) join: Vec<CString>,
    pub(super) oom_score_adj: CString,
    /// `RLIMIT_CPU`'s soft limit, in seconds (the hard one is a second
    /// more): `SIGXCPU`, then `SIGKILL`, per process.
    pub(super) cpu_seconds: u64,
    /// `RLIMIT_AS`, without a cgroup.
    pub(super) address_space: Option<u64>,
    /// `RLIMIT_FSIZE`, without a sandbox (whose work directory is a tmpfs
    /// of bounded size).
    pub(super) file_size: Option<u64>,
    /// The inherited descriptors beyond the standard streams that stay
    /// open: the init's report pipe and the seccomp filter, for bubblewrap.
    pub(super) keep_open: Vec<i32>,
    /// The runner's process id.
    pub(super) runner: libc::pid_t,
}

impl ChildSetup {
    /// Runs in the child after the fork.
    pub(super) fn apply(&self) -> io::Result<()> {
        // SAFETY: prctl, getppid, open, write, close, setrlimit, syscall
        // and fcntl are async-signal-safe, and every pointer passed is to
        // data owned by `self`, prepared before the fork.
        unsafe {
            // The child dies with the runner, even a runner killed with
            // SIGKILL, which can clean nothing up (bubblewrap does the same
            // for the whole sandbox; without one, what the program started
            // is the next runner's to sweep). Should the runner be gone
            // already, so is the point of the run.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != self.runner {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            for file in &self.join {
                let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd < 0 || libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
                libc::close(fd);
            }
            // Best effort: without it the run is only less likely to be the
            // out-of-memory killer's first choice.
            let fd = libc::open(
                self.oom_score_adj.as_ptr(),
                libc::O_WRONLY | libc::O_CLOEXEC,
            );
            if fd >= 0 {
                libc::write(fd, b"1000".as_ptr().cast(), 4);
                libc::close(fd);
            }
            let limit = |resource, soft: u64, hard: u64| {
                let limit = libc::rlimit {
                    rlim_cur: soft as libc::rlim_t,
                    rlim_max: hard as libc::rlim_t,
                };
                if libc::setrlimit(resource, &limit) == 0 {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            };
            limit(libc::RLIMIT_CPU, self.cpu_seconds, self.cpu_seconds + 1)?;
            limit(libc::RLIMIT_CORE, 0, 0)?;
            limit(libc::RLIMIT_NOFILE, OPEN_FILES, OPEN_FILES)?;
            if let Some(bytes) = self.address_space {
                limit(libc::RLIMIT_AS, bytes, bytes)?;
            }
            if let Some(bytes) = self.file_size {
                limit(libc::RLIMIT_FSIZE, bytes, bytes)?;
            }
            // Descriptors the runner inherited without close-on-exec must
            // not reach the program (bubblewrap passes them on): mark them
            // all, then let through the ones bubblewrap needs.
            close_on_exec_from(3);
            for &fd in &self.keep_open {
                libc::fcntl(fd, libc::F_SETFD, 0);
            }
        }
        Ok(())
    }
}

/// Marks every descriptor from `first` on close-on-exec: by `close_range`
/// (Linux 5.11 and later), else one by one up to the descriptor limit.
/// Async-signal-safe.
pub(crate) fn close_on_exec_from(first: u32) {
    let first = i32::try_from(first).unwrap_or(i32::MAX);
    over_range(first, i32::MAX, libc::CLOSE_RANGE_CLOEXEC, |fd| {
        // SAFETY: fcntl is async-signal-safe and touches no memory.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    });
}

/// Closes every descriptor from 3 on but the two in `keep`: for a child
/// forked from a process with threads that runs without `exec`, so that
/// it holds nothing another thread opened (close-on-exec does not help
/// there). Async-signal-safe.
pub(crate) fn close_all_but(keep: [i32; 2]) {
    let (low, high) = (keep[0].min(keep[1]), keep[0].max(keep[1]));
    let close = |fd| {
        // SAFETY: close is async-signal-safe and touches no memory.
        unsafe { libc::close(fd) };
    };
    over_range(3, low - 1, 0, close);
    over_range(low + 1, high - 1, 0, close);
    over_range(high + 1, i32::MAX, 0, close);
}

/// `close_range(first, last, flags)` (Linux 5.9 and later; 5.11 for
/// `CLOSE_RANGE_CLOEXEC`), or where the kernel refuses it, `each` on every
/// descriptor from `first` to `last` below the descriptor limit (at most
/// 65,536 of them). Nothing when `first > last`. Async-signal-safe when
/// `each` is.
fn over_range(first: i32, last: i32, flags: libc::c_uint, each: impl Fn(i32)) {
    if first > last || first < 0 {
        return;
    }
    // SAFETY: close_range and getrlimit are async-signal-safe and touch no
    // memory of ours but `limit`.
    let end = unsafe {
        if libc::syscall(libc::SYS_close_range, first as u32, last as u32, flags) == 0 {
            return;
        }
        let mut limit: libc::rlimit = std::mem::zeroed();
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        last.min(limit.rlim_cur.min(1 << 16) as i32 - 1)
    };
    for fd in first..=end {
        each(fd);
    }
}

/// A pipe, both ends close-on-exec: (read, write).
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened, and are owned here alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
