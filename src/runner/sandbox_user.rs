//! The unprivileged users sandboxed runs have when the judge is root: one
//! uid (and gid of the same number) per job slot, so per run in progress,
//! as the IOI's isolate gives each box its own.
//!
//! # Why
//!
//! A program run by a root judge must never be root on the host. Each run
//! in progress has a uid of its own from [`FIRST_UID`] on, so that per-user
//! limits (`RLIMIT_NPROC`, the keyrings, pipe buffers) and file ownership
//! separate the runs, and a file only root may read stays unreadable.
//!
//! # How
//!
//! A uid is claimed for the runner's lifetime by an exclusive `flock` on its
//! file in a root-only folder ([`lock_folder`]), so that two runners never
//! share one (the kernel drops the lock when a runner dies, however it
//! dies). A uid that names an account, or whose number names a group, as
//! the C library's name service knows them (`/etc/passwd` and `/etc/group`,
//! and LDAP, sssd or systemd's dynamic users where the machine uses them),
//! or that a process runs as, is passed over: its owner could otherwise
//! signal or trace the run's processes, or the run reach its files. Where
//! the name service cannot answer, the uid is passed over too.
//!
//! Each claimed uid gets a user namespace mapping that uid to itself and
//! nothing else, made by the runner, as root, and handed to bubblewrap
//! (`--userns FD`). bubblewrap itself, run by root, would map the sandbox's
//! uid to the host's root; run by the unprivileged uid, it would need
//! unprivileged user namespaces, which some systems restrict (Ubuntu's
//! AppArmor). Inside, the program runs as that uid with no capability, in
//! a namespace where no other uid, root least of all, exists.
//!
//! A judge that is not root has no uid but its own to give: its runs run
//! as the caller, in a user namespace bubblewrap makes per run.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::child_setup::{pipe, reap};

/// The first uid of sandboxed runs (isolate's choice too): above the
/// accounts of most systems, below `nobody` (65534).
pub const FIRST_UID: u32 = 60_000;

/// How many uids from [`FIRST_UID`] on may be claimed: at most this many
/// runs in progress on the machine at once.
pub const UIDS: u32 = 1_000;

/// The uids a slot may claim, stated once for the search and its error.
const CLAIMABLE: std::ops::RangeInclusive<u32> = FIRST_UID..=FIRST_UID + UIDS - 1;

/// One uid claimed for this runner, and its user namespace.
#[derive(Debug)]
pub(crate) struct SandboxUser {
    uid: u32,
    /// The user namespace mapping `uid` to itself (`/proc/PID/ns/user`).
    namespace: OwnedFd,
    /// Holds the uid's lock while open.
    _lock: File,
}

impl SandboxUser {
    /// The uid, which is also the gid.
    pub(crate) fn uid(&self) -> u32 {
        self.uid
    }

    /// The user namespace, for bubblewrap's `--userns`.
    pub(crate) fn namespace(&self) -> &OwnedFd {
        &self.namespace
    }
}

/// Claims the first free uid of the range, for a slot of this runner.
///
/// # Errors
///
/// When every uid of the range is taken, or the lock folder or the user
/// namespace cannot be made.
pub(crate) fn claim() -> io::Result<SandboxUser> {
    let folder = lock_folder()?;
    for uid in CLAIMABLE {
        if may_be_known(uid) {
            continue;
        }
        let lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(folder.join(format!("uid-{uid}.lock")))?;
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            continue;
        }
        if runs_as(uid) {
            continue;
        }
        let namespace = user_namespace(uid)?;
        return Ok(SandboxUser {
            uid,
            namespace,
            _lock: lock,
        });
    }
    Err(io::Error::other(format!(
        "every sandbox uid from {} to {} is taken by runs in progress or names an account or group",
        CLAIMABLE.start(),
        CLAIMABLE.end()
    )))
}

/// The root-only folder of the uids' lock files: `/run/rotation-game` (or,
/// on a system without `/run`, the same name in the temporary folder),
/// made if missing; refused unless it is a real folder that root owns and
/// only root may write to.
pub(crate) fn lock_folder() -> io::Result<PathBuf> {
    let run = Path::new("/run");
    let base = if run.is_dir() {
        run.to_owned()
    } else {
        std::env::temp_dir()
    };
    private_root_folder(&base.join("rotation-game"))
}

/// `folder`, made if missing (mode 0700); refused unless it is a real
/// folder that root owns and only root may write to.
fn private_root_folder(folder: &Path) -> io::Result<PathBuf> {
    match fs::DirBuilder::new().mode(0o700).create(folder) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(error),
    }
    let metadata = fs::symlink_metadata(folder)?;
    if !metadata.is_dir() || metadata.uid() != 0 || metadata.mode() & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "{} must be a folder owned and writable only by root",
            folder.display()
        )));
    }
    Ok(folder.to_owned())
}

/// Whether `id` may name an account (as a uid) or a group (as a gid) the
/// name service knows: true when it does, or cannot tell.
fn may_be_known(id: u32) -> bool {
    may_be_known_from(id, 4096)
}

/// [`may_be_known`], the lookups' buffer starting at `bytes` and doubled
/// while an entry does not fit, up to 1 MiB.
fn may_be_known_from(id: u32, bytes: usize) -> bool {
    /// What one lookup found.
    enum Answer {
        Found,
        NotFound,
        /// The buffer was too small for the entry.
        Larger,
        Failed,
    }
    let answer = |code: i32, found: bool| match code {
        0 if found => Answer::Found,
        0 => Answer::NotFound,
        libc::ERANGE => Answer::Larger,
        _ => Answer::Failed,
    };
    let mut buffer = vec![0u8; bytes];
    for group in [false, true] {
        loop {
            let pointer = buffer.as_mut_ptr().cast();
            // SAFETY: the structs are plain data that the calls fill; the
            // buffer outlives the calls, with its true length given.
            let found = unsafe {
                if group {
                    let mut entry: libc::group = std::mem::zeroed();
                    let mut result = std::ptr::null_mut();
                    let code = libc::getgrgid_r(id, &mut entry, pointer, buffer.len(), &mut result);
                    answer(code, !result.is_null())
                } else {
                    let mut entry: libc::passwd = std::mem::zeroed();
                    let mut result = std::ptr::null_mut();
                    let code = libc::getpwuid_r(id, &mut entry, pointer, buffer.len(), &mut result);
                    answer(code, !result.is_null())
                }
            };
            match found {
                Answer::NotFound => break,
                Answer::Larger if buffer.len() < 1 << 20 => buffer.resize(buffer.len() * 2, 0),
                Answer::Found | Answer::Larger | Answer::Failed => return true,
            }
        }
    }
    false
}

/// Whether a process of the machine runs as `uid` (real, effective or
/// saved), from `/proc/PID/status`.
fn runs_as(uid: u32) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let status = entry.path().join("status");
        fs::read_to_string(status).is_ok_and(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("Uid:"))
                .is_some_and(|ids| {
                    ids.split_whitespace()
                        .take(3)
                        .any(|id| id.parse() == Ok(uid))
                })
        })
    })
}

/// The status the helper of [`user_namespace`] exits with: not 0, so that
/// a process that took the helper's branch by mistake (the runner itself)
/// never ends as a success.
const HELPER_EXIT: i32 = 0x5a;

/// A user namespace mapping `uid` (and the gid of the same number) to
/// itself, with `setgroups` denied: a child process makes it, the runner
/// writes its maps and keeps a descriptor of it, and the child exits.
fn user_namespace(uid: u32) -> io::Result<OwnedFd> {
    let (unshared_read, unshared_write) = pipe()?;
    let (exit_read, exit_write) = pipe()?;
    // SAFETY: the child makes only async-signal-safe calls (close_range or
    // close, unshare, write, read, _exit) on descriptors opened before the
    // fork.
    let child = unsafe { libc::fork() };
    if child < 0 {
        return Err(io::Error::last_os_error());
    }
    if child == 0 {
        // SAFETY: as above; the child never returns.
        unsafe {
            // Only its own two ends: a descriptor of another thread's claim
            // held here would make that claim's helper wait for this one
            // (and this one, holding its pipe, for it) for ever.
            super::child_setup::close_all_but([unshared_write.as_raw_fd(), exit_read.as_raw_fd()]);
            let made = u8::from(libc::unshare(libc::CLONE_NEWUSER) == 0);
            libc::write(unshared_write.as_raw_fd(), (&raw const made).cast(), 1);
            // Until the runner is done with the namespace (it closes its
            // end), or is gone.
            let mut byte = 0u8;
            libc::read(exit_read.as_raw_fd(), (&raw mut byte).cast(), 1);
            libc::_exit(HELPER_EXIT);
        }
    }
    drop(unshared_write);
    drop(exit_read);
    let made = (|| {
        let mut answer = [0u8];
        File::from(unshared_read).read_exact(&mut answer)?;
        if answer[0] != 1 {
            return Err(io::Error::other(
                "cannot make a user namespace for the sandbox",
            ));
        }
        let proc = PathBuf::from(format!("/proc/{child}"));
        let map = format!("{uid} {uid} 1\n");
        for (file, text) in [
            ("setgroups", "deny\n"),
            ("uid_map", map.as_str()),
            ("gid_map", map.as_str()),
        ] {
            let path = proc.join(file);
            OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|mut opened| opened.write_all(text.as_bytes()))
                .map_err(|error| {
                    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
                })?;
        }
        let namespace = File::open(proc.join("ns/user"))?;
        Ok(OwnedFd::from(namespace))
    })();
    drop(exit_write);
    let status = reap(child);
    if made.is_ok() && !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == HELPER_EXIT) {
        return Err(io::Error::other(format!(
            "the user namespace's helper ended with status {status:#x}"
        )));
    }
    made
}

/// Whether this process is root, and so gives runs uids of their own.
pub(crate) fn judge_is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::Mutex;

    use super::*;

    /// Held by the tests that claim uids: each expects to see the others'
    /// claims come and go only while it does not look.
    static CLAIMING: Mutex<()> = Mutex::new(());

    #[test]
    fn a_claimed_uid_is_no_one_elses() {
        if !judge_is_root() {
            eprintln!("skipped: claiming sandbox uids needs root");
            return;
        }
        let _claiming = CLAIMING.lock().unwrap_or_else(|poison| poison.into_inner());
        let first = claim().unwrap();
        let second = claim().unwrap();
        assert_ne!(first.uid(), second.uid());
        assert!(CLAIMABLE.contains(&first.uid()));
        // Its lock goes with it, and with no helper process keeping a copy:
        // the uid may be claimed again. Another runner of the machine (a
        // test in another process) may claim it at once; then that runner
        // holds the lock, not this process.
        let path = lock_folder()
            .unwrap()
            .join(format!("uid-{}.lock", first.uid()));
        let ours = File::open(&path).unwrap();
        let metadata = ours.metadata().unwrap();
        let file = (metadata.dev(), metadata.ino());
        // Whether another descriptor holds the file's lock; when none does,
        // `ours` takes it (and keeps it until the test ends).
        let held_elsewhere = |file: &File| {
            // SAFETY: flock on a descriptor the test owns.
            unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) != 0 }
        };
        assert!(held_elsewhere(&ours), "a claimed uid's file is locked");
        assert_eq!(flock_holders(file), [std::process::id()]);
        drop(first);
        assert!(
            !held_elsewhere(&ours) || !flock_holders(file).contains(&std::process::id()),
            "the lock of {} outlived its claim",
            path.display()
        );
        let namespace =
            fs::read_link(format!("/proc/self/fd/{}", second.namespace().as_raw_fd())).unwrap();
        assert!(
            namespace.to_string_lossy().starts_with("user:["),
            "{namespace:?}"
        );
    }

    /// The processes holding an `flock` on the file `(device, inode)`, from
    /// `/proc/locks` (a lock's line names the process that took it).
    fn flock_holders((device, inode): (u64, u64)) -> Vec<u32> {
        let wanted = format!(
            "{:02x}:{:02x}:{inode}",
            libc::major(device),
            libc::minor(device)
        );
        fs::read_to_string("/proc/locks")
            .unwrap()
            .lines()
            .filter_map(|line| {
                // `1: FLOCK  ADVISORY  WRITE 23349 fe:00:795032 0 EOF`, the
                // device's major and minor numbers in hex; a waiter's line
                // has `->` before FLOCK and is skipped.
                let fields: Vec<&str> = line.split_whitespace().collect();
                (fields.get(1) == Some(&"FLOCK") && fields.get(5) == Some(&wanted.as_str()))
                    .then(|| fields[4].parse().ok())
                    .flatten()
            })
            .collect()
    }

    #[test]
    fn the_lock_folder_is_root_s_alone_and_anything_else_is_refused() {
        if !judge_is_root() {
            eprintln!("skipped: the lock folder is made by root");
            return;
        }
        let expected = if Path::new("/run").is_dir() {
            PathBuf::from("/run/rotation-game")
        } else {
            std::env::temp_dir().join("rotation-game")
        };
        assert_eq!(lock_folder().unwrap(), expected);
        let parent = tempfile::tempdir().unwrap();
        let made = parent.path().join("made");
        assert_eq!(private_root_folder(&made).unwrap(), made);
        let mode = fs::metadata(&made).unwrap().mode();
        assert_eq!(mode & 0o777, 0o700, "{mode:o}");
        // Made already: taken as it is.
        assert_eq!(private_root_folder(&made).unwrap(), made);
        let refused = |path: &Path| {
            let error = private_root_folder(path).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("owned and writable only by root"),
                "{error}"
            );
        };
        let open = parent.path().join("open");
        fs::create_dir(&open).unwrap();
        fs::set_permissions(&open, fs::Permissions::from_mode(0o757)).unwrap();
        refused(&open);
        let link = parent.path().join("link");
        std::os::unix::fs::symlink(&made, &link).unwrap();
        refused(&link);
        let file = parent.path().join("file");
        fs::write(&file, "").unwrap();
        refused(&file);
        let others = parent.path().join("others");
        fs::create_dir(&others).unwrap();
        std::os::unix::fs::chown(&others, Some(65534), None).unwrap();
        fs::set_permissions(&others, fs::Permissions::from_mode(0o700)).unwrap();
        refused(&others);
    }

    #[test]
    fn the_name_service_is_asked_again_with_room_for_a_long_entry() {
        // Root's entries are longer than 8 bytes: the lookups grow their
        // buffer until they fit, and tell the known from the unknown.
        assert!(may_be_known_from(0, 8));
        let unknown = CLAIMABLE
            .clone()
            .find(|&uid| !may_be_known(uid))
            .expect("an id no account or group has");
        assert!(!may_be_known_from(unknown, 8));
        assert!(!may_be_known_from(unknown, 1));
    }

    #[test]
    fn the_judge_is_root_exactly_when_its_effective_uid_is_0() {
        // The effective uid, the second of /proc/self/status's `Uid:`.
        let status = fs::read_to_string("/proc/self/status").unwrap();
        let effective = status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            .unwrap();
        assert_eq!(judge_is_root(), effective == "0");
        assert_eq!(crate::runner::sandbox::running_as_root(), judge_is_root());
        if !judge_is_root() {
            eprintln!("skipped: giving the effective uid up needs root");
            return;
        }
        // Root that has given its effective uid up is not root: in a child,
        // as `nobody`.
        let as_nobody = crate::runner::in_child::in_child(|| {
            // SAFETY: the system call itself (not glibc's wrapper, which
            // signals every thread), on this forked child's only thread;
            // -1 keeps the real and saved uids.
            let dropped = unsafe {
                libc::syscall(
                    libc::SYS_setresuid,
                    libc::c_long::from(-1i32),
                    libc::c_long::from(65_534i32),
                    libc::c_long::from(-1i32),
                )
            };
            [
                dropped,
                i64::from(judge_is_root()),
                i64::from(crate::runner::sandbox::running_as_root()),
            ]
        });
        assert_eq!(as_nobody, [0, 0, 0]);
    }

    #[test]
    fn uids_claimed_by_several_threads_at_once_never_wait_on_each_other() {
        if !judge_is_root() {
            eprintln!("skipped: claiming sandbox uids needs root");
            return;
        }
        // Each claim forks a helper that holds the user namespace until the
        // claimer closes its pipe. A helper that kept the descriptors of
        // another thread's claim would wait for that claim's helper, and it
        // for this one, for ever: the claims must all end.
        let _claiming = CLAIMING.lock().unwrap_or_else(|poison| poison.into_inner());
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let barrier = std::sync::Barrier::new(3);
            std::thread::scope(|scope| {
                for _ in 0..3 {
                    scope.spawn(|| {
                        for _ in 0..100 {
                            barrier.wait();
                            drop(claim().unwrap());
                        }
                    });
                }
            });
            let _ = done.send(());
        });
        assert!(
            finished
                .recv_timeout(std::time::Duration::from_secs(60))
                .is_ok(),
            "claims made at once waited on each other"
        );
    }

    #[test]
    fn accounts_and_groups_are_asked_of_the_name_service() {
        assert!(may_be_known(0), "root is an account");
        let group_only = fs::read_to_string("/etc/group")
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.split(':').nth(2)?.parse::<u32>().ok())
            .find(|&gid| {
                !fs::read_to_string("/etc/passwd")
                    .unwrap_or_default()
                    .lines()
                    .any(|line| line.split(':').nth(2) == Some(&gid.to_string()))
            });
        if let Some(gid) = group_only {
            assert!(may_be_known(gid), "group {gid} is known");
        }
        assert!(!may_be_known(3_999_999_999), "no such account");
    }

    #[test]
    fn this_process_runs_as_its_own_uid() {
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        assert!(runs_as(uid));
        assert!(!runs_as(FIRST_UID + UIDS + 7));
    }

    #[test]
    fn the_claimable_uids_are_the_thousand_from_60000_below_nobody() {
        // What the README promises a root judge's runs: uids from 60000,
        // as many as runs at once, none of them `nobody` (65534).
        assert_eq!(CLAIMABLE, 60_000..=60_999);
        assert_eq!(CLAIMABLE.clone().count(), UIDS as usize);
        assert!(*CLAIMABLE.end() < 65_534);
    }
}
