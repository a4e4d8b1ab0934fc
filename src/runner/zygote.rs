//! PID 1 of a job slot's sandbox: it makes each run of the slot, on the
//! runner's request, in namespaces of its own.
//!
//! # Why
//!
//! Starting a sandbox costs more than most runs of a contest program:
//! bubblewrap's user, network and PID namespaces, its mounts, and an init
//! process. A slot (`slot.rs`) pays that once: bubblewrap starts this
//! zygote with the slot's filesystem, network namespace and uid, keeping
//! its capabilities in the slot's user namespace (and only there). For each
//! run, the zygote makes a child in new PID, mount and IPC namespaces, the
//! run's PID 1 ([`init`](super::init)), which mounts a fresh work folder,
//! `/dev/shm` and `/proc`, drops every capability and starts the program.
//! Nothing of a run outlives it (its PID namespace dies with its PID 1),
//! and nothing it could leave is shared with the next: files, processes,
//! System V and POSIX IPC are the run's own, and it can make no socket that
//! the shared network namespace would keep.
//!
//! # Safety from the program
//!
//! The program never sees the zygote: the zygote lies outside the run's PID
//! namespace, and the run's `/proc` is its own. The program inherits none of
//! the zygote's descriptors, has no capability, and the seccomp filter
//! refuses `ptrace`, `setns` and the mount calls.
//!
//! # The protocol
//!
//! See `slot/message.rs`: `ready` once it is, then a request with the run's limits and descriptors
//! in, a pidfd of the run's PID 1 out (or why not). The zygote waits for
//! each run's PID 1 to end before it reads the next request, and exits when
//! the runner closes its end.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use super::init::{self, RunTemplate};
use super::message::{self, RunDescriptors, RunRequest};

/// The first argument that makes the runner's executable act as a slot's
/// zygote; then the control socket's descriptor, the setup's descriptor
/// ([`Setup`]), `--` and the program's argument vector. The rest of what
/// the zygote needs comes through the setup's descriptor, not its command
/// line, which every run's PID 1 inherits and its program can read
/// (`/proc/1/cmdline`): the hidden paths stay unnamed there.
pub const ZYGOTE_ARGUMENT: &str = "__rotation-game-sandbox-zygote";

/// What the zygote is started with.
struct Arguments {
    control: RawFd,
    setup: RawFd,
    program: Vec<OsString>,
}

/// The arguments after [`ZYGOTE_ARGUMENT`], or `None` when they are not a
/// zygote's.
fn parse(mut args: impl Iterator<Item = OsString>) -> Option<Arguments> {
    let mut number = || args.next()?.to_str()?.parse::<RawFd>().ok();
    let (control, setup) = (number()?, number()?);
    if control < 3 || setup < 3 || args.next()? != "--" {
        return None;
    }
    let program: Vec<OsString> = args.collect();
    (!program.is_empty()).then_some(Arguments {
        control,
        setup,
        program,
    })
}

/// What is the same for every run of a slot besides the program, as the
/// runner writes it for the zygote: the seccomp filter, the paths the slot
/// shows in `/tmp`, the hidden paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Setup {
    /// The seccomp filter (`struct sock_filter`s), or empty for none.
    pub(crate) filter: Vec<u8>,
    /// The files, folders and links the slot shows in `/tmp`.
    pub(crate) in_tmp: Vec<PathBuf>,
    /// Every path at which a hidden file or folder lies on the machine.
    pub(crate) hidden: Vec<PathBuf>,
}

impl Setup {
    /// The bytes: the filter's length (4 bytes, little-endian) and the
    /// filter, then each path as a tag (`T` in `/tmp`, `H` hidden), its
    /// bytes and a NUL.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = (self.filter.len() as u32).to_le_bytes().to_vec();
        bytes.extend_from_slice(&self.filter);
        for (tag, paths) in [(b'T', &self.in_tmp), (b'H', &self.hidden)] {
            for path in paths {
                bytes.push(tag);
                bytes.extend_from_slice(path.as_os_str().as_bytes());
                bytes.push(0);
            }
        }
        bytes
    }

    /// The setup of [`to_bytes`](Self::to_bytes), or `None` for bytes that
    /// are not one.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Setup> {
        let length = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let filter = bytes.get(4..4 + length)?.to_vec();
        let mut setup = Setup {
            filter,
            ..Setup::default()
        };
        let mut rest = &bytes[4 + length..];
        while let Some((&tag, after)) = rest.split_first() {
            let end = after.iter().position(|&byte| byte == 0)?;
            let path = PathBuf::from(OsStr::from_bytes(&after[..end]));
            match tag {
                b'T' => setup.in_tmp.push(path),
                b'H' => setup.hidden.push(path),
                _ => return None,
            }
            rest = &after[end + 1..];
        }
        Some(setup)
    }
}

/// When the process was started as a slot's zygote (the runner's word for it
/// first), serves as one and exits; otherwise returns at once.
///
/// Call it first thing in `main` in every program that runs programs in
/// the sandbox: the sandbox starts that same executable as its zygote.
pub fn serve_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_none_or(|first| first != ZYGOTE_ARGUMENT) {
        return;
    }
    let Some(arguments) = parse(args) else {
        // Not started by the runner: nothing to serve.
        std::process::exit(2);
    };
    serve(arguments)
}

fn serve(arguments: Arguments) -> ! {
    // SAFETY: prctl on this process alone.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
    // SAFETY: the runner gave these descriptors to this process alone.
    let (control, setup) =
        unsafe { (init::adopt(arguments.control), init::adopt(arguments.setup)) };
    super::child_setup::close_on_exec_from(3);
    let mut setup_bytes = Vec::new();
    if std::fs::File::from(setup)
        .read_to_end(&mut setup_bytes)
        .is_err()
    {
        std::process::exit(3);
    }
    let Some(setup) = Setup::from_bytes(&setup_bytes) else {
        std::process::exit(3);
    };
    let template = RunTemplate {
        argv: init::c_strings(&arguments.program),
        in_tmp: setup.in_tmp,
        hidden: setup.hidden,
        filter: setup.filter,
    };
    if message::send(control.as_raw_fd(), b"ready", &[]).is_err() {
        std::process::exit(0);
    }
    loop {
        let (bytes, fds) = match message::receive(control.as_raw_fd()) {
            Ok(received) => received,
            // The runner is done with the slot, or gone.
            Err(_) => std::process::exit(0),
        };
        let answer = match (
            RunRequest::from_bytes(&bytes),
            RunDescriptors::from_received(fds),
        ) {
            (Some(request), Some(fds)) => make_run(&control, &request, fds, &template),
            _ => Err(std::io::Error::other("a malformed request")),
        };
        if let Err(error) = answer {
            let text = format!("error {error}");
            // The runner hears of a failed run by its end, too.
            let _ = message::send(control.as_raw_fd(), text.as_bytes(), &[]);
        }
    }
}

/// Makes one run: its PID 1 in new PID, mount and IPC namespaces; answers
/// the runner with a pidfd of it, then waits for it to end.
fn make_run(
    control: &OwnedFd,
    request: &RunRequest,
    fds: RunDescriptors,
    template: &RunTemplate,
) -> std::io::Result<()> {
    let flags = libc::CLONE_NEWPID | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::SIGCHLD;
    // SAFETY: clone without CLONE_VM forks this single-threaded process;
    // the child runs init::serve, which never returns.
    let pid = unsafe { libc::syscall(libc::SYS_clone, flags, 0, 0, 0, 0) } as libc::pid_t;
    if pid < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if pid == 0 {
        // The run's PID 1 needs nothing of the zygote's; init::serve never
        // returns, so `control` is never dropped (closed twice) here.
        // SAFETY: closing the control socket in this process only.
        unsafe { libc::close(control.as_raw_fd()) };
        init::serve(request, fds, template);
    }
    drop(fds);
    // SAFETY: pidfd_open has no memory-safety preconditions.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let sent = if pidfd == -1 {
        Err(std::io::Error::last_os_error())
    } else {
        // SAFETY: a descriptor pidfd_open just made, owned here alone.
        let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) };
        message::send(control.as_raw_fd(), b"ok", &[pidfd.as_raw_fd()])
    };
    if sent.is_err() {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    super::child_setup::reap(pid);
    sent
}

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;

    use super::*;

    fn words(text: &str) -> impl Iterator<Item = OsString> {
        text.split(' ')
            .map(OsString::from)
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn the_arguments_are_read_back() {
        let arguments = parse(words("5 6 -- /tmp/x/a.out -v")).unwrap();
        assert_eq!((arguments.control, arguments.setup), (5, 6));
        assert_eq!(arguments.program, ["/tmp/x/a.out", "-v"]);
        // Descriptor 3 is the first past the standard streams.
        let lowest = parse(words("3 3 -- a")).unwrap();
        assert_eq!((lowest.control, lowest.setup), (3, 3));
        for bad in [
            "5 6 /tmp -- a",
            "5 6 --",
            "1 6 -- a",
            "2 6 -- a",
            "6 2 -- a",
            "x 6 -- a",
            "5",
            "5 6 a",
        ] {
            assert!(parse(words(bad)).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_setup_is_read_back() {
        let setup = Setup {
            filter: vec![1, 2, 3, 0, 4],
            in_tmp: vec!["/tmp/x/a.out".into(), "/tmp/y z".into()],
            hidden: vec![PathBuf::from(OsString::from_vec(b"/srv/d\xffata".to_vec()))],
        };
        assert_eq!(Setup::from_bytes(&setup.to_bytes()), Some(setup));
        assert_eq!(
            Setup::from_bytes(&Setup::default().to_bytes()),
            Some(Setup::default())
        );
        for bad in [
            &b""[..],
            b"\x05\0\0\0ab",
            b"\0\0\0\0T/no-end",
            b"\0\0\0\0X/x\0",
        ] {
            assert_eq!(Setup::from_bytes(bad), None, "{bad:?}");
        }
    }
}
