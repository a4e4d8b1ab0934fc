//! A job slot: one sandbox, made once, in which the slot's runs are made
//! one after another, each in namespaces of its own.
//!
//! # Why
//!
//! A bubblewrap sandbox costs more to start than most runs of a contest
//! program take. A slot starts bubblewrap once, with the slot's uid, user
//! and network namespaces and filesystem ([`Sandbox`]), and its zygote as
//! PID 1 (`zygote.rs`); each run then costs a `clone` into new PID, mount
//! and IPC namespaces, a few mounts, and the program's own start. A runner
//! keeps one slot per run in progress.
//!
//! # One run in a slot
//!
//! 1. The runner sends the zygote the run's limits and its descriptors
//!    (`message.rs`): standard input, output and error, the report pipe,
//!    the start pipe.
//! 2. The zygote makes the run's PID 1 and passes back a pidfd of it
//!    ([`SlotRun`]); the runner reads its process id on the host from the
//!    pidfd, and moves it into the run's cgroup.
//! 3. The runner writes a byte on the start pipe: only then does the run's
//!    PID 1 set its limits and start the program, so that everything the
//!    program starts is in the cgroup.
//! 4. The run ends when its PID 1 does (after the program, or killed by
//!    the runner through the pidfd); the zygote reaps it, and only then
//!    reads the next request, so that nothing of a run is left when the
//!    next begins.
//!
//! A slot whose bubblewrap has died (the machine killed it, say) is
//! replaced by a new one; its uid goes to the new one.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::child_setup::{close_on_exec_from, pipe};
use super::command::passed_environment;
use super::limits::OPEN_FILES;
use super::process_group::ProcessGroup;
use super::sandbox::{Sandbox, SandboxError};
use super::sandbox_user::SandboxUser;

use super::message::{self, RunDescriptors, RunRequest, socket_pair};

/// One job slot's sandbox, alive.
pub(crate) struct Slot {
    /// bubblewrap, the runner's child; asked to end, then killed and
    /// reaped, when dropped.
    bwrap: ProcessGroup,
    /// The runner's end of the zygote's control socket.
    control: OwnedFd,
    /// The slot's uid (a root judge), or `None` (the caller's).
    user: Option<SandboxUser>,
}

/// A run in a slot: its PID 1.
pub(crate) struct SlotRun {
    pidfd: OwnedFd,
    /// Its process id on the host (in the runner's PID namespace).
    pub(crate) host_pid: libc::pid_t,
}

/// How long a slot's bubblewrap may take to end by itself once its
/// zygote's control socket is shut, before it is killed.
const ENDING: Duration = Duration::from_secs(1);

impl Drop for Slot {
    /// Ends the slot: the control socket shut, the zygote (which waits for
    /// each run before it reads again) exits and bubblewrap with it; then
    /// the guard kills what is left and reaps bubblewrap. Ending by itself,
    /// every process of the slot is reaped by its parent, so the runner's
    /// children's CPU time (`wait4` on the runner) holds that of every run
    /// that ended by itself. (The processes killed with a run's PID
    /// namespace, a run stopped at a limit, are reaped by the kernel, which
    /// counts their time nowhere.)
    fn drop(&mut self) {
        // SAFETY: shutdown on a socket this slot owns.
        unsafe { libc::shutdown(self.control.as_raw_fd(), libc::SHUT_RDWR) };
        self.bwrap.wait_for_exit(ENDING);
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot")
            .field("bwrap", &self.bwrap.id)
            .field("uid", &self.user.as_ref().map(SandboxUser::uid))
            .finish()
    }
}

impl Slot {
    /// Starts a slot of `sandbox` as `user`, and waits for its zygote to be
    /// ready.
    ///
    /// # Errors
    ///
    /// When bubblewrap cannot be started or fails before its zygote runs;
    /// the error says what bubblewrap said.
    pub(crate) fn start(
        sandbox: &Sandbox,
        user: Option<SandboxUser>,
    ) -> Result<Slot, SandboxError> {
        let unusable = |error: io::Error| SandboxError::Unusable(error.to_string());
        let (control, zygote_end) = socket_pair().map_err(unusable)?;
        let setup = sandbox.setup_descriptor().map_err(unusable)?;
        let copies = sandbox.copy_readers().map_err(unusable)?;
        let copy_fds: Vec<i32> = copies.iter().map(AsRawFd::as_raw_fd).collect();
        let mut command = Command::new(sandbox.bwrap());
        command
            .args(sandbox.slot_args(
                user.as_ref(),
                &copy_fds,
                zygote_end.as_raw_fd(),
                setup.as_raw_fd(),
            ))
            .env_clear()
            .envs(passed_environment())
            .env("TMPDIR", "/tmp")
            .env("HOME", "/tmp")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        let keep: Vec<i32> = sandbox
            .inherited(user.as_ref())
            .into_iter()
            .chain([zygote_end.as_raw_fd(), setup.as_raw_fd()])
            .chain(copy_fds.iter().copied())
            .collect();
        let runner = std::process::id() as libc::pid_t;
        let hook = move || {
            // SAFETY: prctl, getppid, setrlimit and fcntl are
            // async-signal-safe, on this process and its descriptors.
            unsafe {
                // The slot dies with the runner, even one killed outright.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if libc::getppid() != runner {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                let files = libc::rlimit {
                    rlim_cur: OPEN_FILES as libc::rlim_t,
                    rlim_max: OPEN_FILES as libc::rlim_t,
                };
                libc::setrlimit(libc::RLIMIT_NOFILE, &files);
                libc::setrlimit(
                    libc::RLIMIT_CORE,
                    &libc::rlimit {
                        rlim_cur: 0,
                        rlim_max: 0,
                    },
                );
                close_on_exec_from(3);
                for &fd in &keep {
                    libc::fcntl(fd, libc::F_SETFD, 0);
                }
            }
            Ok(())
        };
        // SAFETY: the hook only makes async-signal-safe system calls on data
        // prepared before the fork.
        unsafe {
            command.pre_exec(hook);
        }
        // Not on this thread, which may end before the slot should.
        let mut child = super::spawner::spawn(command).map_err(unusable)?;
        let stderr = child.stderr.take();
        let bwrap = ProcessGroup::new(child);
        drop((zygote_end, setup, copies));
        let slot = Slot {
            bwrap,
            control,
            user,
        };
        match message::receive(slot.control.as_raw_fd()) {
            Ok((bytes, _)) if bytes == b"ready" => Ok(slot),
            _ => {
                // bubblewrap failed before the zygote ran: its complaint.
                drop(slot);
                let mut complaint = String::new();
                if let Some(mut stderr) = stderr {
                    let _ = stderr.read_to_string(&mut complaint);
                }
                Err(SandboxError::Unusable(super::sandbox::explain(
                    complaint.trim(),
                )))
            }
        }
    }

    /// The slot's uid, given back when the slot goes.
    pub(crate) fn into_user(self) -> Option<SandboxUser> {
        let mut slot = self;
        slot.user.take()
    }

    /// Asks the zygote for a run with `request` and the child's `ends`
    /// (which this closes, so that only the run holds them).
    ///
    /// # Errors
    ///
    /// When the zygote is gone (the slot is then of no more use) or cannot
    /// make the run.
    pub(crate) fn run(&self, request: &RunRequest, ends: RunDescriptors) -> io::Result<SlotRun> {
        message::send(self.control.as_raw_fd(), &request.to_bytes(), &ends.raw())?;
        drop(ends);
        let (bytes, mut fds) = message::receive(self.control.as_raw_fd())?;
        match (bytes.as_slice(), fds.pop()) {
            (b"ok", Some(pidfd)) if fds.is_empty() => {
                let host_pid = host_pid(&pidfd)?;
                Ok(SlotRun { pidfd, host_pid })
            }
            (answer, _) => Err(io::Error::other(format!(
                "the sandbox could not make the run: {}",
                String::from_utf8_lossy(answer)
                    .trim_start_matches("error ")
                    .trim()
            ))),
        }
    }
}

/// The process id a pidfd refers to, as the runner sees it (the `Pid:`
/// line of `/proc/self/fdinfo/FD`).
fn host_pid(pidfd: &OwnedFd) -> io::Result<libc::pid_t> {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{}", pidfd.as_raw_fd()))?;
    pid_in_fdinfo(&info)
        .ok_or_else(|| io::Error::other("the run's PID 1 ended before it could be measured"))
}

/// The process id of a pidfd's `fdinfo`: `None` for a process that has
/// ended (`-1`), or that this PID namespace cannot see (`0`).
fn pid_in_fdinfo(info: &str) -> Option<libc::pid_t> {
    info.lines()
        .find_map(|line| line.strip_prefix("Pid:")?.trim().parse().ok())
        .filter(|&pid: &libc::pid_t| pid > 0)
}

impl SlotRun {
    /// Whether the run's PID 1 has ended.
    pub(crate) fn has_ended(&self) -> bool {
        self.wait(Duration::ZERO)
    }

    /// Waits at most `timeout` for the run's PID 1 to end; whether it has.
    pub(crate) fn wait(&self, timeout: Duration) -> bool {
        let mut poll = libc::pollfd {
            fd: self.pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let milliseconds = timeout.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: poll on one descriptor of ours.
        let ready = unsafe { libc::poll(&mut poll, 1, milliseconds) };
        ready > 0
    }

    /// Kills the run's PID 1, and so its whole PID namespace, and waits (a
    /// few seconds at most) for it to be gone.
    pub(crate) fn kill(&self) {
        // SAFETY: pidfd_send_signal on a pidfd of ours, no other memory.
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.pidfd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            );
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while !self.wait(Duration::from_millis(100)) && Instant::now() < deadline {}
    }
}

/// A pipe whose write end is to be given to a run: (runner's read end,
/// run's write end).
pub(crate) fn output_pipe() -> io::Result<(File, OwnedFd)> {
    let (read, write) = pipe()?;
    Ok((File::from(read), write))
}

/// A pipe whose read end is to be given to a run: (run's read end,
/// runner's write end).
pub(crate) fn input_pipe() -> io::Result<(OwnedFd, File)> {
    let (read, write) = pipe()?;
    Ok((read, File::from(write)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pidfd_names_a_process_only_while_it_is_visible_and_alive() {
        let info = |pid: &str| {
            format!("pos:\t0\nflags:\t02000002\nmnt_id:\t15\nPid:\t{pid}\nNSpid:\t{pid}\n")
        };
        assert_eq!(pid_in_fdinfo(&info("4242")), Some(4242));
        assert_eq!(pid_in_fdinfo(&info("1")), Some(1));
        assert_eq!(pid_in_fdinfo(&info("0")), None);
        assert_eq!(pid_in_fdinfo(&info("-1")), None);
        assert_eq!(pid_in_fdinfo("pos:\t0\n"), None);
    }
}
