//! For the runner's unit tests: code run in a forked child of the test
//! process, which reports numbers back, as the runner's own children run
//! between fork and exec.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsRawFd;

use super::child_setup::pipe;

/// The descriptor a child of [`in_child`] reports through: a number the
/// test process is not likely to use, below any descriptor limit a
/// machine sets.
pub(crate) const REPORT: i32 = 203;

/// Forks; the child runs `body` and sends the numbers it returns back
/// through a pipe (its descriptor [`REPORT`]), then exits; the parent
/// returns them. `body` must not allocate or panic: another thread of
/// the test process may hold the allocator's lock at the fork, as in
/// the runner's own children.
pub(crate) fn in_child<const N: usize>(body: impl FnOnce() -> [i64; N]) -> [i64; N] {
    let (read, write) = pipe().unwrap();
    // SAFETY: the child calls `body` (async-signal-safe calls only, by
    // the contract above), write and _exit.
    let child = unsafe { libc::fork() };
    assert!(child >= 0, "fork: {}", io::Error::last_os_error());
    if child == 0 {
        // SAFETY: dup2 onto a number this child alone uses.
        unsafe { libc::dup2(write.as_raw_fd(), REPORT) };
        let values = body();
        // SAFETY: as above; the child never returns.
        unsafe {
            libc::write(
                REPORT,
                values.as_ptr().cast(),
                std::mem::size_of_val(&values),
            );
            libc::_exit(0);
        }
    }
    drop(write);
    let mut bytes = Vec::new();
    File::from(read).read_to_end(&mut bytes).unwrap();
    let mut status = 0;
    // SAFETY: waits for the child forked above.
    assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the child ended with status {status:#x}"
    );
    assert_eq!(bytes.len(), N * 8, "the child reported all it should");
    std::array::from_fn(|at| i64::from_ne_bytes(bytes[at * 8..][..8].try_into().unwrap()))
}

/// What a child reports of `result`: 0 for success, else its error number,
/// and -1 for a failure whose error number is 0 (stale, or none), so that
/// it never reads as a success. Allocates nothing.
pub(crate) fn errno(result: io::Result<()>) -> i64 {
    result.map_or_else(
        |error| i64::from(error.raw_os_error().filter(|&e| e != 0).unwrap_or(-1)),
        |()| 0,
    )
}
