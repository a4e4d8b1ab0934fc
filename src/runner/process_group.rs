//! The runner's child (bubblewrap, or the program), leading a process group
//! of its own, and the guard that kills the group and reaps the child on
//! every path.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

/// The runner's child (bubblewrap, or the program), leading its own
/// process group.
///
/// Invariant: once it is started, the group is killed and the child reaped
/// on every path out of [`Runner::run`](super::Runner::run), errors included: [`end`](Self::end)
/// does it on the normal path, and dropping the guard does it otherwise.
pub(super) struct ProcessGroup {
    pub(super) child: std::process::Child,
    /// The group's id: the child's process id.
    pub(super) id: libc::pid_t,
    /// A descriptor of the child that becomes readable when it exits
    /// (`pidfd_open`, Linux 5.3 and later), where there is one.
    exit: Option<OwnedFd>,
    reaped: bool,
}

impl ProcessGroup {
    pub(super) fn new(child: std::process::Child) -> ProcessGroup {
        let id = child.id() as libc::pid_t;
        // SAFETY: pidfd_open has no memory-safety preconditions.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, id, 0) };
        // SAFETY: a descriptor pidfd_open just made, owned here alone.
        let exit = (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) });
        ProcessGroup {
            child,
            id,
            exit,
            reaped: false,
        }
    }

    /// Waits at most `timeout` for the child to exit; returns at once when
    /// it does. Without a pidfd, simply waits.
    pub(super) fn wait_for_exit(&self, timeout: Duration) {
        let Some(exit) = &self.exit else {
            std::thread::sleep(timeout);
            return;
        };
        let mut poll = libc::pollfd {
            fd: exit.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let milliseconds = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: poll on one descriptor of ours; an interruption only
        // shortens the wait, which the caller's loop tolerates.
        unsafe { libc::poll(&mut poll, 1, milliseconds) };
    }

    /// Whether the child has exited, without reaping it (so that its
    /// process id, the group's, cannot be reused before the group is
    /// killed).
    pub(super) fn has_exited(&self) -> io::Result<bool> {
        loop {
            // SAFETY: waitid writes only to `info`.
            let (result, info) = unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
                let result = libc::waitid(libc::P_PID, self.id as libc::id_t, &mut info, flags);
                (result, info)
            };
            if result == 0 {
                // SAFETY: waitid filled `info` (si_pid is 0 while alive).
                return Ok(unsafe { info.si_pid() } > 0);
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }

    /// Kills the group, then reaps the child (in this order, so that the
    /// group's id cannot be reused in between): its status and usage.
    pub(super) fn end(mut self) -> io::Result<(ExitStatus, libc::rusage)> {
        self.kill();
        let reaped = wait4(self.id);
        self.reaped = true;
        reaped
    }

    /// `SIGKILL` to the group; should that fail, to the child at least, so
    /// that waiting for it cannot hang.
    fn kill(&mut self) {
        // SAFETY: killpg has no memory-safety preconditions.
        if unsafe { libc::killpg(self.id, libc::SIGKILL) } != 0
            && io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
        {
            // Best effort: there is nothing more to try.
            let _ = self.child.kill();
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill();
            // Nothing to report on this path: an error is on its way out.
            let _ = wait4(self.id);
        }
    }
}

/// Waits for process `pid`: its status and resource usage.
fn wait4(pid: libc::pid_t) -> io::Result<(ExitStatus, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: wait4 writes only to `status` and `usage`.
        let (result, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            (libc::wait4(pid, &mut status, 0, &mut usage), usage)
        };
        if result == pid {
            return Ok((ExitStatus::from_raw(status), usage));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}
