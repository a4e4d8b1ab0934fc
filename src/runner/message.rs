//! What the runner and a slot's zygote say to each other, over a socket
//! pair of sequenced packets: one packet per message, with descriptors
//! passed along (`SCM_RIGHTS`).
//!
//! - The runner asks for a run: a [`RunRequest`] (eight-byte numbers,
//!   little-endian), with the run's standard input, output and error, its
//!   report pipe and its start pipe, in this order.
//! - The zygote says `ready` once, when it is.
//! - The zygote answers `ok`, with a pidfd of the run's PID 1, or `error`
//!   and why.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// How many descriptors a request passes.
pub(crate) const REQUEST_FDS: usize = 5;

/// The descriptors of one run, in the order a request passes them: its
/// standard streams, its report pipe and its start pipe. The runner sends
/// the run's ends of them; the zygote receives them and hands them to the
/// run's init.
pub(crate) struct RunDescriptors {
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
    pub(crate) stderr: OwnedFd,
    pub(crate) status: OwnedFd,
    pub(crate) start: OwnedFd,
}

impl RunDescriptors {
    /// The raw descriptors, in the request's order.
    pub(crate) fn raw(&self) -> [RawFd; REQUEST_FDS] {
        [
            self.stdin.as_raw_fd(),
            self.stdout.as_raw_fd(),
            self.stderr.as_raw_fd(),
            self.status.as_raw_fd(),
            self.start.as_raw_fd(),
        ]
    }

    /// The descriptors a request passed, in their order; `None` unless
    /// there are exactly [`REQUEST_FDS`].
    pub(crate) fn from_received(fds: Vec<OwnedFd>) -> Option<RunDescriptors> {
        let [stdin, stdout, stderr, status, start]: [OwnedFd; REQUEST_FDS] = fds.try_into().ok()?;
        Some(RunDescriptors {
            stdin,
            stdout,
            stderr,
            status,
            start,
        })
    }
}

/// The most bytes a message holds.
const MESSAGE_BYTES: usize = 4096;

/// The limits one run is set up with, inside the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunRequest {
    /// `RLIMIT_NPROC` for the run's processes, or 0 for none.
    pub(crate) processes: u64,
    /// The size of the work folder's and `/dev/shm`'s tmpfs, in bytes.
    pub(crate) work_bytes: u64,
    /// `RLIMIT_CPU`'s soft limit, in seconds (the hard one is a second
    /// more).
    pub(crate) cpu_seconds: u64,
    /// `RLIMIT_AS`, in bytes, or 0 for none (a run with a cgroup).
    pub(crate) address_space: u64,
    /// `RLIMIT_NOFILE`.
    pub(crate) open_files: u64,
    /// 1 for a trial: the run is set up, limited and reported as exited,
    /// without the program (to learn whether runs can be made here).
    pub(crate) trial: u64,
}

impl RunRequest {
    const FIELDS: usize = 6;

    pub(crate) fn to_bytes(self) -> Vec<u8> {
        [
            self.processes,
            self.work_bytes,
            self.cpu_seconds,
            self.address_space,
            self.open_files,
            self.trial,
        ]
        .iter()
        .flat_map(|value| value.to_le_bytes())
        .collect()
    }

    /// The request in `bytes`, or `None` when they are not one.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<RunRequest> {
        if bytes.len() != Self::FIELDS * 8 {
            return None;
        }
        let field = |index: usize| {
            u64::from_le_bytes(bytes[index * 8..index * 8 + 8].try_into().expect("8 bytes"))
        };
        Some(RunRequest {
            processes: field(0),
            work_bytes: field(1),
            cpu_seconds: field(2),
            address_space: field(3),
            open_files: field(4),
            trial: field(5),
        })
    }
}

/// Sends one packet of `bytes` with `fds` on `socket`.
pub(crate) fn send(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    let payload = std::mem::size_of_val(fds);
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(payload as u32) } as usize;
    let mut control = vec![0u8; space.max(1)];
    // SAFETY: a zeroed msghdr is valid; its pointers are set below to
    // buffers that outlive the call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    if !fds.is_empty() {
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = space as _;
        // SAFETY: the control buffer has room for one header and the
        // descriptors (CMSG_SPACE above); CMSG_FIRSTHDR points into it.
        unsafe {
            let header = libc::CMSG_FIRSTHDR(&message);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(payload as u32) as _;
            std::ptr::copy_nonoverlapping(
                fds.as_ptr().cast::<u8>(),
                libc::CMSG_DATA(header),
                payload,
            );
        }
    }
    loop {
        // SAFETY: the message points at live buffers (see above).
        let sent = unsafe { libc::sendmsg(socket, &message, libc::MSG_NOSIGNAL) };
        if sent >= 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Receives one packet on `socket`: its bytes and the descriptors it
/// passed (close-on-exec). An end of the socket is an `UnexpectedEof`
/// error.
pub(crate) fn receive(socket: RawFd) -> io::Result<(Vec<u8>, Vec<OwnedFd>)> {
    let mut bytes = vec![0u8; MESSAGE_BYTES];
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE((REQUEST_FDS * 4) as u32) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: a zeroed msghdr is valid; its pointers are set to buffers
    // that outlive the call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = space as _;
    let received = loop {
        // SAFETY: as above.
        let received = unsafe { libc::recvmsg(socket, &mut message, libc::MSG_CMSG_CLOEXEC) };
        if received >= 0 {
            break received as usize;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    };
    let mut fds = Vec::new();
    // SAFETY: the kernel filled the control buffer; the CMSG_* macros walk
    // it within msg_controllen, and each SCM_RIGHTS payload holds
    // descriptors now owned by this process.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&message);
        while !header.is_null() {
            let kind = ((*header).cmsg_level, (*header).cmsg_type);
            if kind == (libc::SOL_SOCKET, libc::SCM_RIGHTS) {
                let length = (*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
                let data = libc::CMSG_DATA(header);
                for index in 0..length / 4 {
                    let fd = std::ptr::read_unaligned(data.add(index * 4).cast::<RawFd>());
                    fds.push(OwnedFd::from_raw_fd(fd));
                }
            }
            header = libc::CMSG_NXTHDR(&message, header);
        }
    }
    if received == 0 && fds.is_empty() {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    if message.msg_flags & libc::MSG_CTRUNC != 0 {
        return Err(io::Error::other("more descriptors than a message holds"));
    }
    bytes.truncate(received);
    Ok((bytes, fds))
}

/// A socket pair of sequenced packets, both ends close-on-exec.
pub(crate) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two descriptors into `fds`.
    let made = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just opened and are owned here alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::fd::AsRawFd;

    use super::*;

    #[test]
    fn a_run_is_five_descriptors_in_the_requests_order() {
        let open = |count: usize| -> Vec<OwnedFd> {
            (0..count)
                .map(|_| std::fs::File::open("/dev/null").unwrap().into())
                .collect()
        };
        let fds = open(REQUEST_FDS);
        let raw: Vec<RawFd> = fds.iter().map(AsRawFd::as_raw_fd).collect();
        let descriptors = RunDescriptors::from_received(fds).unwrap();
        assert_eq!(descriptors.raw().to_vec(), raw);
        assert!(RunDescriptors::from_received(open(REQUEST_FDS - 1)).is_none());
        assert!(RunDescriptors::from_received(open(REQUEST_FDS + 1)).is_none());
    }

    #[test]
    fn a_request_reads_back() {
        let request = RunRequest {
            processes: 256,
            work_bytes: 1 << 30,
            cpu_seconds: 11,
            address_space: 0,
            open_files: 256,
            trial: 0,
        };
        assert_eq!(RunRequest::from_bytes(&request.to_bytes()), Some(request));
        assert_eq!(RunRequest::from_bytes(&[0; 7]), None);
    }

    #[test]
    fn descriptors_go_across_with_their_message() {
        let (ours, theirs) = socket_pair().unwrap();
        let (read, write) = super::super::child_setup::pipe().unwrap();
        send(ours.as_raw_fd(), b"hello", &[write.as_raw_fd()]).unwrap();
        drop(write);
        let (bytes, mut fds) = receive(theirs.as_raw_fd()).unwrap();
        assert_eq!(bytes, b"hello");
        assert_eq!(fds.len(), 1);
        std::fs::File::from(fds.pop().unwrap())
            .write_all(b"through")
            .unwrap();
        let mut text = String::new();
        std::fs::File::from(read).read_to_string(&mut text).unwrap();
        assert_eq!(text, "through");
        drop(ours);
        assert_eq!(
            receive(theirs.as_raw_fd()).unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }

    #[test]
    fn a_message_needs_no_descriptors_and_an_empty_one_is_the_end() {
        let (ours, theirs) = socket_pair().unwrap();
        send(ours.as_raw_fd(), b"ready", &[]).unwrap();
        let (bytes, fds) = receive(theirs.as_raw_fd()).unwrap();
        assert_eq!((bytes.as_slice(), fds.len()), (&b"ready"[..], 0));
        send(ours.as_raw_fd(), b"", &[]).unwrap();
        assert_eq!(
            receive(theirs.as_raw_fd()).unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }

    /// Errors other than a signal's interruption are returned, not tried
    /// again: a zygote gone is an error at once.
    #[test]
    fn a_peer_gone_or_no_socket_is_an_error() {
        let (ours, theirs) = socket_pair().unwrap();
        drop(theirs);
        assert_eq!(
            send(ours.as_raw_fd(), b"run", &[]).unwrap_err().kind(),
            io::ErrorKind::BrokenPipe
        );
        let file = std::fs::File::open("/dev/null").unwrap();
        assert!(receive(file.as_raw_fd()).is_err());
        assert!(send(file.as_raw_fd(), b"run", &[]).is_err());
    }
}
