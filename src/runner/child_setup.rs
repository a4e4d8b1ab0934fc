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
    // SAFETY: close_range is async-signal-safe and touches no memory.
    if unsafe { libc::syscall(libc::SYS_close_range, first as u32, last as u32, flags) } == 0 {
        return;
    }
    one_by_one(first, last, each);
}

/// `each` on every descriptor from `first` to `last` below the descriptor
/// limit, and below 65,536: [`over_range`] where the kernel has no
/// `close_range`. Async-signal-safe when `each` is.
fn one_by_one(first: i32, last: i32, each: impl Fn(i32)) {
    // SAFETY: getrlimit is async-signal-safe and writes only `limit`.
    let end = unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        last.min(limit.rlim_cur.min(1 << 16) as i32 - 1)
    };
    for fd in first..=end {
        each(fd);
    }
}

/// Waits for `child`, a child of this process, to end, through
/// interruptions: its wait status.
pub(crate) fn reap(child: libc::pid_t) -> libc::c_int {
    let mut status = 0;
    // SAFETY: waitpid writes only `status`.
    while unsafe { libc::waitpid(child, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
    status
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

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::fs;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::*;
    use crate::runner::in_child::{REPORT, errno, in_child};

    fn c_path(path: &Path) -> CString {
        CString::new(path.as_os_str().as_bytes()).unwrap()
    }

    /// A setup that joins nothing and limits only the CPU, its score file
    /// in `folder`.
    fn setup(folder: &Path) -> ChildSetup {
        ChildSetup {
            join: Vec::new(),
            oom_score_adj: c_path(&folder.join("oom_score_adj")),
            cpu_seconds: 7,
            address_space: None,
            file_size: None,
            keep_open: Vec::new(),
            runner: std::process::id() as libc::pid_t,
        }
    }

    /// A descriptor's close-on-exec flag: 1 set, 0 not, -1 not open.
    fn cloexec(fd: i32) -> i64 {
        // SAFETY: fcntl touches no memory.
        match unsafe { libc::fcntl(fd, libc::F_GETFD) } {
            flags if flags < 0 => -1,
            flags => i64::from(flags & libc::FD_CLOEXEC != 0),
        }
    }

    #[test]
    fn the_child_joins_its_groups_and_offers_itself_to_the_oom_killer_first() {
        let folder = tempfile::tempdir().unwrap();
        let groups = [folder.path().join("a.procs"), folder.path().join("b.procs")];
        for file in groups.iter().chain([&folder.path().join("oom_score_adj")]) {
            fs::write(file, "").unwrap();
        }
        let mut setup = setup(folder.path());
        setup.join = groups.iter().map(|group| c_path(group)).collect();
        assert_eq!(in_child(|| [errno(setup.apply())]), [0]);
        for group in &groups {
            assert_eq!(
                fs::read_to_string(group).unwrap(),
                "0",
                "{}",
                group.display()
            );
        }
        let score = fs::read_to_string(folder.path().join("oom_score_adj")).unwrap();
        assert_eq!(score, "1000");
    }

    #[test]
    fn a_group_that_cannot_be_joined_fails_the_setup_with_its_own_error() {
        let folder = tempfile::tempdir().unwrap();
        let mut setup = setup(folder.path());
        setup.join = vec![c_path(&folder.path().join("gone/cgroup.procs"))];
        assert_eq!(
            in_child(|| [errno(setup.apply())]),
            [i64::from(libc::ENOENT)]
        );
        // The score is best effort: without its file the setup goes on.
        let setup = self::setup(&folder.path().join("gone"));
        assert_eq!(in_child(|| [errno(setup.apply())]), [0]);
    }

    #[test]
    fn the_limits_are_the_child_s_and_the_unset_ones_stay_inherited() {
        let folder = tempfile::tempdir().unwrap();
        let get = |resource| {
            // SAFETY: getrlimit writes only `limit`.
            unsafe {
                let mut limit: libc::rlimit = std::mem::zeroed();
                libc::getrlimit(resource, &mut limit);
                [limit.rlim_cur as i64, limit.rlim_max as i64]
            }
        };
        let report = |setup: &ChildSetup| {
            in_child(|| {
                let applied = errno(setup.apply());
                let [cpu, core, files, space, size] = [
                    libc::RLIMIT_CPU,
                    libc::RLIMIT_CORE,
                    libc::RLIMIT_NOFILE,
                    libc::RLIMIT_AS,
                    libc::RLIMIT_FSIZE,
                ]
                .map(get);
                [
                    applied, cpu[0], cpu[1], core[0], core[1], files[0], files[1], space[0],
                    space[1], size[0], size[1],
                ]
            })
        };
        let files = OPEN_FILES as i64;
        let mut limited = setup(folder.path());
        limited.address_space = Some(1 << 30);
        limited.file_size = Some(1 << 20);
        assert_eq!(
            report(&limited),
            [
                0,
                7,
                8,
                0,
                0,
                files,
                files,
                1 << 30,
                1 << 30,
                1 << 20,
                1 << 20
            ]
        );
        let [space, size] = [libc::RLIMIT_AS, libc::RLIMIT_FSIZE].map(get);
        let inherited = report(&setup(folder.path()));
        assert_eq!(inherited[..7], [0, 7, 8, 0, 0, files, files]);
        assert_eq!(inherited[7..], [space[0], space[1], size[0], size[1]]);
    }

    #[test]
    fn inherited_descriptors_are_closed_on_exec_but_those_kept_open() {
        let folder = tempfile::tempdir().unwrap();
        let (closed, kept) = (210, 211);
        let mut setup = setup(folder.path());
        setup.keep_open = vec![kept];
        let flags = in_child(|| {
            // Two descriptors without close-on-exec (dup2 clears it), as a
            // runner might inherit, made in the child alone.
            // SAFETY: dup2 onto numbers this child alone uses.
            unsafe {
                libc::dup2(1, closed);
                libc::dup2(1, kept);
            }
            let before = [cloexec(closed), cloexec(kept)];
            [
                before[0],
                before[1],
                errno(setup.apply()),
                cloexec(closed),
                cloexec(kept),
            ]
        });
        assert_eq!(flags, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn the_child_dies_with_its_runner_and_refuses_to_run_without_it() {
        let folder = tempfile::tempdir().unwrap();
        let setup = setup(folder.path());
        let signal = || {
            let mut signal: libc::c_int = 0;
            // SAFETY: PR_GET_PDEATHSIG writes one int.
            unsafe { libc::prctl(libc::PR_GET_PDEATHSIG, &mut signal) };
            i64::from(signal)
        };
        assert_eq!(
            in_child(|| [errno(setup.apply()), signal()]),
            [0, i64::from(libc::SIGKILL)]
        );
        // A child whose parent is not the runner it was made for.
        let mut orphan = self::setup(folder.path());
        orphan.runner = std::process::id() as libc::pid_t + 1;
        assert_eq!(
            in_child(|| [errno(orphan.apply())]),
            [i64::from(libc::ESRCH)]
        );
    }

    #[test]
    fn close_all_but_closes_every_descriptor_from_3_on_but_its_two() {
        // Descriptors 200 to 206 (dup2 in the child, which has no other
        // thread to take them; 203 is the report's), the two kept with one
        // closed between them, in either order.
        for keep in [[201, REPORT], [REPORT, 201]] {
            let open = in_child(|| {
                for fd in (200..=206).filter(|&fd| fd != REPORT) {
                    // SAFETY: dup2 onto numbers this child alone uses.
                    unsafe { libc::dup2(1, fd) };
                }
                close_all_but(keep);
                let mut open = [0; 11];
                for (at, fd) in (200..=206).chain(0..=2).enumerate() {
                    open[at] = i64::from(cloexec(fd) >= 0);
                }
                // And none of what the test process had open from 3 on.
                open[10] = (3..200).filter(|&fd| cloexec(fd) >= 0).count() as i64;
                open
            });
            assert_eq!(open, [0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0], "{keep:?}");
        }
    }

    #[test]
    fn over_range_visits_its_range_one_by_one_where_close_range_refuses() {
        let seen = RefCell::new(Vec::new());
        // A flag close_range refuses (EINVAL), so that the descriptors are
        // visited one by one.
        let refused = 1 << 30;
        over_range(50, 52, refused, |fd| seen.borrow_mut().push(fd));
        assert_eq!(*seen.borrow(), [50, 51, 52]);
        seen.borrow_mut().clear();
        over_range(52, 52, refused, |fd| seen.borrow_mut().push(fd));
        over_range(0, 0, refused, |fd| seen.borrow_mut().push(fd));
        assert_eq!(*seen.borrow(), [52, 0]);
        over_range(53, 52, refused, |fd| seen.borrow_mut().push(fd));
        over_range(-1, 52, refused, |fd| seen.borrow_mut().push(fd));
        assert_eq!(*seen.borrow(), [52, 0]);
    }

    #[test]
    fn reap_returns_a_child_s_status_and_at_once_for_a_process_that_is_none() {
        // SAFETY: the child exits at once.
        let child = unsafe { libc::fork() };
        if child == 0 {
            // SAFETY: as above.
            unsafe { libc::_exit(7) };
        }
        let status = reap(child);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 7,
            "{status:#x}"
        );
        // Not a child (any more): the wait fails, and reap ends.
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(reap(child));
        });
        let again = ended.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(again, Ok(0), "reap of a process that is no child must end");
    }

    /// How many descriptors `one_by_one(first, i32::MAX, _)` visits, the
    /// first and the last, in a child whose soft descriptor limit is `soft`
    /// (raising the hard one, which only root may do, or else at most the
    /// hard one); then the soft limit it had.
    fn one_by_one_under(soft: u64, first: i32) -> [i64; 4] {
        in_child(|| {
            // SAFETY: getrlimit and setrlimit on the child's own limits.
            let had = unsafe {
                let mut limit: libc::rlimit = std::mem::zeroed();
                libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
                let raised = libc::rlimit {
                    rlim_cur: soft as libc::rlim_t,
                    rlim_max: limit.rlim_max.max(soft as libc::rlim_t),
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
                    limit.rlim_cur = (soft as libc::rlim_t).min(limit.rlim_max);
                    libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
                }
                libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
                limit.rlim_cur as i64
            };
            let (count, low, high) = (Cell::new(0), Cell::new(-1), Cell::new(-1));
            one_by_one(first, i32::MAX, |fd| {
                count.set(count.get() + 1);
                if low.get() < 0 {
                    low.set(i64::from(fd));
                }
                high.set(i64::from(fd));
            });
            [count.get(), low.get(), high.get(), had]
        })
    }

    #[test]
    fn one_by_one_stops_below_the_descriptor_limit_and_65536() {
        assert_eq!(one_by_one_under(300, 250), [50, 250, 299, 300]);
        assert_eq!(one_by_one_under(300, 299), [1, 299, 299, 300]);
        assert_eq!(one_by_one_under(300, 300), [0, -1, -1, 300]);
        let seen = RefCell::new(Vec::new());
        one_by_one(3, 5, |fd| seen.borrow_mut().push(fd));
        assert_eq!(*seen.borrow(), [3, 4, 5]);
        let [count, low, high, had] = one_by_one_under(1 << 17, 65_000);
        if had == 1 << 17 {
            assert_eq!([count, low, high], [536, 65_000, 65_535]);
        } else {
            eprintln!("the cap at 65,536 needs a descriptor limit above it, not {had}");
        }
    }
}
