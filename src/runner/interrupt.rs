//! Ending every run when the runner is asked to stop: `Ctrl-C` (`SIGINT`),
//! `kill` or a cancelled CI job (`SIGTERM`), a closed terminal (`SIGHUP`).
//!
//! Left to their default action, these signals end the runner at once.
//! Sandboxed runs die with it (bubblewrap's `--die-with-parent`), but their
//! cgroups and work directories stay until the next runner sweeps them, and
//! runs without a sandbox keep running: each leads a process group of its
//! own, out of reach of a terminal's `Ctrl-C`. After
//! [`stop_runs_on_signals`], such a signal instead ends every run as a
//! limit would (its processes killed, its cgroup and work directory
//! removed), makes [`Runner::run`](super::Runner::run) return an error
//! rather than start another run, and is given by [`received`]. A second
//! signal ends the runner at once.

use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

use super::signal_name::signal_name;

/// The signals that stop runs.
const STOPPING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The first stopping signal received, 0 before any.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The signal handler: records the signal, and nothing else (an atomic
/// store is all a handler may safely do here).
extern "C" fn record(signal: libc::c_int) {
    RECEIVED
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .ok();
}

/// Makes `SIGINT`, `SIGTERM` and `SIGHUP` stop every run of this process
/// (see the [module docs](self)) instead of ending it at once; the next
/// such signal has its default action again.
///
/// # Errors
///
/// When a handler cannot be installed.
pub fn stop_runs_on_signals() -> io::Result<()> {
    for signal in STOPPING {
        // SAFETY: the handler only makes an atomic store, which is
        // async-signal-safe; the struct is zeroed, then filled.
        let installed = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = record as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut())
        };
        if installed != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The stopping signal received, if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The error of a run that a stopping signal ended, or did not let start.
pub(crate) fn stopped_error(signal: i32) -> io::Error {
    io::Error::new(
        io::ErrorKind::Interrupted,
        format!("stopped by {}", signal_name(signal)),
    )
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::os::fd::FromRawFd;

    use super::*;

    #[test]
    fn the_first_stopping_signal_is_recorded_and_the_second_ends_the_process() {
        // In a child process, so that this test process keeps its own
        // dispositions and no other test's runs see a signal. The child
        // makes only async-signal-safe calls (sigaction, raise, write,
        // _exit) and an atomic load: it says on a pipe that it lived
        // through the first SIGTERM and recorded it, then raises a second.
        let mut fds = [0; 2];
        // Close-on-exec: a child another test starts meanwhile must not
        // hold the write end (the forked child does not exec).
        // SAFETY: pipe2 writes two descriptors into the array.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        // SAFETY: the child only makes async-signal-safe calls, then exits.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork: {}", io::Error::last_os_error());
        if pid == 0 {
            // SAFETY: async-signal-safe calls only, ending in _exit.
            unsafe {
                libc::close(fds[0]);
                if stop_runs_on_signals().is_err() {
                    libc::_exit(2);
                }
                libc::raise(libc::SIGTERM);
                if received() == Some(libc::SIGTERM) {
                    libc::write(fds[1], b"recorded".as_ptr().cast(), 8);
                }
                libc::raise(libc::SIGTERM);
                libc::_exit(3);
            }
        }
        // SAFETY: the write end is this process's own, closed once.
        unsafe { libc::close(fds[1]) };
        // SAFETY: the read end is this process's own, owned from here.
        let mut pipe = unsafe { std::fs::File::from_raw_fd(fds[0]) };
        let mut said = String::new();
        pipe.read_to_string(&mut said).unwrap();
        let mut status = 0;
        // SAFETY: waits for this test's own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert_eq!(said, "recorded", "the first SIGTERM was not recorded");
        assert!(
            libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGTERM,
            "the second SIGTERM did not end the process: status {status:#x}"
        );
    }
}
