//! Isolation of runs with bubblewrap (`bwrap`): a minimal filesystem, an
//! unprivileged uid, no sockets, its own processes, and nothing a run can
//! leave for the next.
//!
//! # The promises
//!
//! Each holds for every sandboxed run, whether the judge is root or not,
//! and each is attacked by a test of `tests/cli/sandbox_attacks.rs`.
//!
//! | promise | how |
//! | --- | --- |
//! | never root on the host | root judge: an unprivileged uid per job slot, in a user namespace mapping it alone (`sandbox_user.rs`), never one the name service knows; otherwise the caller's uid; no capability either way |
//! | only what programs need is visible | a filesystem built from nothing ([`filesystem`]): system folders and the program read-only, a fresh `/proc`, a minimal `/dev`, the work folder as `/tmp` |
//! | hidden means hidden, wherever it lies | hidden paths covered wherever the sandbox shows them, at every path the machine's mounts show them (`sandbox/mount_table.rs`); checked from inside by each slot's trial run ([`init`](super::init)) |
//! | a named path shows no more than it names | resolved once, shown at its real path, links as links; `/`, folders holding a system folder, `/tmp`, `/proc`, `/sys`, `/dev` refused ([`filesystem`]); copies in memory only (`sandbox/copies.rs`) |
//! | nothing outside the work folder is writable | every mount read-only but the run's own tmpfs at `/tmp` and `/dev/shm` |
//! | no kernel setting is writable | no `/sys`; `/proc/sys` and the kernel's triggers read-only, and a uid that owns none of them |
//! | no socket reaches outside the run | the seccomp filter (`seccomp.rs`): no `socket` at all, only stream pairs; a network namespace of its own |
//! | no other process can be touched | its own PID namespace; no `ptrace`, `process_vm_*`, keyrings, `bpf`, user namespaces (the filter) |
//! | nothing outlives the run, nothing reaches the next | the run's PID 1 ([`init`](super::init)) kills its namespace when the program ends; each run has fresh PID, mount and IPC namespaces, work folder and `/dev/shm`; a slot dies with the runner |
//! | memory the kernel holds for it counts, or cannot be held | with a memory cgroup, charged to it; without one, the filter refuses `memfd_create`, System V IPC and socket pairs, and `/tmp` and `/dev/shm` are one tmpfs of the limit's size (`init.rs`) |
//! | a run weighs one share of the CPU | its own CPU cgroup (`cgroup.rs`); without one, the filter refuses `setsid` |
//! | the counts the machine shares are barely touched | the slot's user namespace limits inotify; `RLIMIT_SIGPENDING` and `RLIMIT_MSGQUEUE` (`init.rs`); no `/dev/pts` (the slot's, covered) |
//! | the program learns nothing of the machine | a cgroup namespace per run (`init.rs`); only real paths in the mount table ([`filesystem`]) |
//! | a hostile package gets an error, never a hang | test files checked as regular and bounded in size (`data_folder.rs`) |
//!
//! # Slots
//!
//! Starting a sandbox costs more than most runs: bubblewrap's namespaces,
//! its mounts, an init. So the sandbox is made once per job slot
//! (`slot.rs`), and each run of the slot is made inside it by the slot's
//! zygote (`zygote.rs`) in namespaces of its own. This module builds the
//! slot's command line:
//!
//! ```text
//! bwrap --userns FD --uid U --gid U                a root judge: the slot's uid (else --unshare-user --disable-userns)
//!       --unshare-pid --unshare-net --unshare-ipc --unshare-uts --unshare-cgroup-try
//!       --cap-add ALL --die-with-parent --new-session --as-pid-1
//!       --ro-bind /usr /usr --symlink usr/bin /bin …  the system folders
//!       --ro-bind /etc/ld.so.cache /etc/ld.so.cache … a few files of /etc
//!       --dev /dev --perms 1777 --tmpfs /dev/shm --tmpfs /dev/pts --remount-ro /dev --proc /proc
//!       --tmpfs /tmp --ro-bind REAL REAL …          the program and the files it names, at their real paths
//!       --symlink REAL NAMED …                       a name that went through a link, as that link
//!       --perms 0555 --file FD REAL …               a root judge's copies of files its runs cannot reach
//!       --tmpfs HIDDEN --remount-ro HIDDEN …       hidden folders inside what is shown, system folders included
//!       --ro-bind /dev/null HIDDEN …               hidden files likewise
//!       --remount-ro /  --chdir /tmp
//!       --hostname sandbox
//!       -- /proc/self/fd/INIT ZYGOTE_ARGUMENT CONTROL_FD SETUP_FD -- PROGRAM ARGS…
//! ```
//!
//! Why each part:
//!
//! - `--userns FD --uid U`: bubblewrap run by root with `--unshare-user`
//!   maps the sandbox's uid to the host's root, whatever `--uid` says, and
//!   a root-owned `/proc/sys` then stays writable. The runner makes the
//!   namespace itself, mapping `U` to `U` (`sandbox_user.rs`).
//! - `--cap-add ALL`: the zygote keeps its capabilities in the slot's user
//!   namespace, where they reach nothing of the host, to make each run's
//!   namespaces and mounts; the run's PID 1 drops them all, bounding set
//!   included, before the program starts, and the program's uid is not 0.
//! - `--die-with-parent`: the slot dies with bwrap, and bwrap with the
//!   runner; the kernel then kills every process of its PID namespaces.
//! - `--as-pid-1` and our own zygote as PID 1: bwrap's own PID 1 would fold
//!   a death by signal N into exit status 128 + N; each run's PID 1 reports
//!   the real status and usage. The zygote is started through a descriptor
//!   (`/proc/self/fd/INIT`), so that its executable, the judge's own
//!   solver, is not in the sandbox for the program to run.
//! - `--new-session`: no controlling terminal to push keystrokes into.
//! - `--disable-userns` (non-root judge, bubblewrap 0.8 and later) and the
//!   seccomp filter: no user namespace inside, a way back to capabilities.
//!
//! # What it does not promise
//!
//! Timing side channels (a program can measure the machine's load), and
//! kernel bugs reachable through the system calls the filter allows.

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{self, Seek, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::command::Program;
use super::sandbox_user::{FIRST_UID, SandboxUser};
use super::seccomp::{self, Counted};
use super::zygote::{Setup, ZYGOTE_ARGUMENT};

mod copies;
pub mod filesystem;
mod mount_table;

use copies::Copies;
use filesystem::{Mount, View};

/// Whether runs are isolated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// Isolated when bubblewrap works here, else not (and the runner says
    /// so: [`Isolation::sandbox_missing`](super::Isolation)).
    #[default]
    Auto,
    /// Isolated, or no run at all.
    On,
    /// Not isolated: the program runs as the caller, with the caller's
    /// rights. Never for untrusted programs, least of all as root.
    Off,
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SandboxMode::Auto => "auto",
            SandboxMode::On => "on",
            SandboxMode::Off => "off",
        })
    }
}

/// Why a sandbox cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    /// No `bwrap` on `PATH`.
    #[error("bubblewrap (bwrap) is not installed")]
    NotInstalled,
    /// `bwrap` is there but cannot make a sandbox here.
    #[error("bubblewrap cannot make a sandbox here: {0}")]
    Unusable(String),
    /// A hidden path does not exist (bubblewrap cannot cover it).
    #[error("cannot hide {0}: no such file or folder")]
    HiddenMissing(PathBuf),
    /// A hidden file has other names (hard links), which could lie
    /// anywhere the sandbox shows.
    #[error(
        "cannot hide {path}: it has {links} names (hard links), and another could lie where the program is shown; give it one name (copy it)"
    )]
    HiddenHardLinked {
        /// The hidden file.
        path: PathBuf,
        /// How many names it has.
        links: u64,
    },
    /// A hidden path is, or holds, something the sandbox must show.
    #[error("cannot hide {hidden}: the sandbox must show {shown}, which lies in it")]
    HidesShown {
        /// The hidden path, resolved (or another path the machine's mounts
        /// show it at).
        hidden: PathBuf,
        /// What the sandbox must show: a system folder, a file of `/etc`
        /// programs read, or a path the command line names.
        shown: PathBuf,
    },
    /// A path to show resolves to more than a program may see.
    #[error("cannot show {path} in the sandbox: it leads to {real}, {reason}")]
    ShowsTooMuch {
        /// The path as named.
        path: PathBuf,
        /// What it resolves to.
        real: PathBuf,
        /// Why that is too much.
        reason: String,
    },
    /// A root judge's path leads through a symbolic link to a file the
    /// runs' uids cannot reach.
    #[error(
        "cannot show {path} in the sandbox: it leads through a symbolic link to {real}, which runs' unprivileged uids cannot reach; name {real} itself if the program may read it"
    )]
    ThroughLink {
        /// The path as named.
        path: PathBuf,
        /// What it resolves to.
        real: PathBuf,
    },
    /// A path to show in the sandbox does not exist.
    #[error("cannot show {0} in the sandbox: no such file or folder")]
    BindMissing(PathBuf),
    /// The program, or a file it needs, lies in a hidden folder, so it
    /// could not start in the sandbox.
    #[error("{executable} is inside the hidden folder {folder}")]
    ExecutableHidden {
        /// The executable, or the file it needs.
        executable: PathBuf,
        /// The folder hiding it.
        folder: PathBuf,
    },
    /// A path to show is a folder the runs' unprivileged uids cannot reach,
    /// or a file only its owner may read.
    #[error(
        "cannot show {0} in the sandbox: runs have unprivileged uids ({FIRST_UID} and up), and only its owner may read it (or, a folder, enter one on the way); make it readable by others (chmod o+r, o+rx for a folder and those above it) if the program may read it"
    )]
    Unreachable(PathBuf),
    /// A file the runs' uids cannot reach could not be copied for them.
    #[error("cannot copy a file for the sandbox: {0}")]
    Copying(String),
    /// A slot's trial run found a hidden path in reach: the sandbox would
    /// not hide it.
    #[error("the sandbox does not hide {0}")]
    NotHidden(String),
}

/// A working bubblewrap, and what each slot's sandbox shows.
#[derive(Debug)]
pub(crate) struct Sandbox {
    bwrap: PathBuf,
    /// The executable that serves as each slot's zygote (`zygote.rs`),
    /// open: bubblewrap starts it through `/proc/self/fd`.
    init: File,
    /// What the program sees, and what it must not.
    view: View,
    /// The program's argument vector.
    program: Vec<OsString>,
    /// Whether this bubblewrap knows `--disable-userns` (0.8 and later).
    disables_user_namespaces: bool,
    /// The seccomp filter (`seccomp.rs`), where there is one for this
    /// architecture.
    filter: Option<Vec<u8>>,
    /// Copies of the files the runs' uids cannot reach (root judge only).
    copies: Copies,
}

impl Sandbox {
    /// A sandbox with bubblewrap from `PATH`, `init` serving as each slot's
    /// zygote, showing `program` and `binds`, with `hidden` hidden
    /// (see [`filesystem`]). `own_uids`: runs have uids of their own (a
    /// root judge), which then get copies of the files they cannot reach.
    /// `counted`: what the runs' cgroups count, which the seccomp filter
    /// must refuse where they do not (see `seccomp.rs`). Whether bubblewrap
    /// works here is learned by starting a slot (`slot.rs`).
    ///
    /// # Errors
    ///
    /// See [`SandboxError`].
    pub(crate) fn new(
        init: &Path,
        program: &Program,
        binds: &[PathBuf],
        hidden: &[PathBuf],
        own_uids: bool,
        counted: Counted,
    ) -> Result<Sandbox, SandboxError> {
        let bwrap = find_bwrap().ok_or(SandboxError::NotInstalled)?;
        let unusable = |error: io::Error| SandboxError::Unusable(error.to_string());
        let mut copies = Copies::default();
        let view = filesystem::view(program, binds, hidden, own_uids.then_some(&mut copies))?;
        let init = open_init(init, own_uids)?;
        let help = Command::new(&bwrap)
            .arg("--help")
            .stdin(Stdio::null())
            .output()
            .map_err(unusable)?;
        let help = String::from_utf8_lossy(&help.stdout);
        Ok(Sandbox {
            bwrap,
            init,
            view,
            program: program.argv(),
            disables_user_namespaces: help.contains("--disable-userns"),
            filter: seccomp::filter(counted),
            copies,
        })
    }

    /// A descriptor of each copy, reading from its start, for one slot's
    /// bubblewrap to read.
    pub(crate) fn copy_readers(&self) -> io::Result<Vec<OwnedFd>> {
        (0..self.copies.len())
            .map(|index| self.copies.reader(index))
            .collect()
    }

    /// A descriptor of the zygote's [`Setup`] (the seccomp filter, empty
    /// where there is none for this architecture; the paths shown in
    /// `/tmp`; the hidden paths), reading from its start, close-on-exec:
    /// an anonymous file, which holds it all before anyone reads.
    pub(crate) fn setup_descriptor(&self) -> io::Result<OwnedFd> {
        let setup = Setup {
            filter: self.filter.clone().unwrap_or_default(),
            in_tmp: self.in_tmp(),
            hidden: self.view.hidden.clone(),
        };
        let mut file = copies::anonymous_file()?;
        file.write_all(&setup.to_bytes())?;
        file.seek(io::SeekFrom::Start(0))?;
        Ok(OwnedFd::from(file))
    }

    /// The bubblewrap executable.
    pub(crate) fn bwrap(&self) -> &Path {
        &self.bwrap
    }

    /// The descriptors bubblewrap must inherit for a slot besides the ones
    /// its command names: the zygote's executable, the user namespace.
    pub(crate) fn inherited(&self, user: Option<&SandboxUser>) -> Vec<i32> {
        std::iter::once(self.init.as_raw_fd())
            .chain(user.map(|user| user.namespace().as_raw_fd()))
            .collect()
    }

    /// bwrap's arguments for a slot as `user` (a root judge's uid, or the
    /// caller's), with the copies read from `copy_fds` (one per copy, from
    /// [`copy_readers`](Self::copy_readers)), then its zygote with the
    /// control socket `control_fd` and the setup read from `setup_fd`
    /// ([`setup_descriptor`](Self::setup_descriptor)), then the program.
    pub(crate) fn slot_args(
        &self,
        user: Option<&SandboxUser>,
        copy_fds: &[i32],
        control_fd: i32,
        setup_fd: i32,
    ) -> Vec<OsString> {
        let mut args = self.isolation_args(user, copy_fds);
        args.push("--".into());
        args.push(format!("/proc/self/fd/{}", self.init.as_raw_fd()).into());
        args.push(ZYGOTE_ARGUMENT.into());
        args.push(control_fd.to_string().into());
        args.push(setup_fd.to_string().into());
        args.push("--".into());
        args.extend(self.program.iter().cloned());
        args
    }

    /// The files, folders and links shown in `/tmp`, which each run's
    /// fresh work folder shows again: those not inside another (which
    /// brings them along).
    fn in_tmp(&self) -> Vec<PathBuf> {
        let in_tmp: Vec<&Mount> = self
            .view
            .mounts
            .iter()
            .filter(|mount| {
                mount.at().starts_with("/tmp")
                    && matches!(
                        mount,
                        Mount::ReadOnly(_) | Mount::Copy { .. } | Mount::Symlink { .. }
                    )
            })
            .collect();
        in_tmp
            .iter()
            .map(|mount| mount.at())
            .filter(|at| {
                !in_tmp.iter().any(|other| {
                    matches!(other, Mount::ReadOnly(folder) if at.starts_with(folder) && at != folder)
                })
            })
            .map(Path::to_path_buf)
            .collect()
    }

    /// Everything but the command.
    fn isolation_args(&self, user: Option<&SandboxUser>, copy_fds: &[i32]) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut add = |items: &[&str]| args.extend(items.iter().map(OsString::from));
        match user {
            Some(user) => {
                let fd = user.namespace().as_raw_fd().to_string();
                let uid = user.uid().to_string();
                add(&["--userns", &fd, "--uid", &uid, "--gid", &uid]);
            }
            None if self.disables_user_namespaces => {
                add(&["--unshare-user", "--disable-userns"]);
            }
            None => add(&["--unshare-user"]),
        }
        add(&[
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            // The machine's name is the machine's.
            "--hostname",
            "sandbox",
            // The zygote's, in the slot's user namespace alone; each run's
            // PID 1 drops them all before it starts the program.
            "--cap-add",
            "ALL",
            "--die-with-parent",
            "--new-session",
            "--as-pid-1",
        ]);
        let (in_tmp, outside): (Vec<&Mount>, Vec<&Mount>) = self
            .view
            .mounts
            .iter()
            .partition(|mount| mount.at().starts_with("/tmp"));
        for mount in outside {
            self.mount_args(mount, copy_fds, &mut args);
        }
        args.extend(
            [
                "--dev",
                "/dev",
                "--perms",
                "1777",
                "--tmpfs",
                "/dev/shm",
                // No pseudo-terminals: the kernel's pool of them is the
                // machine's, and their buffers are charged to no cgroup.
                "--tmpfs",
                "/dev/pts",
                "--remount-ro",
                "/dev/pts",
                "--remount-ro",
                "/dev",
                "--proc",
                "/proc",
                "--tmpfs",
                "/tmp",
            ]
            .map(OsString::from),
        );
        // What lies in /tmp goes into the work folder, once it is there.
        for mount in in_tmp {
            self.mount_args(mount, copy_fds, &mut args);
        }
        args.extend(["--remount-ro", "/", "--chdir", "/tmp"].map(OsString::from));
        args
    }

    /// bubblewrap's arguments for `mount`.
    fn mount_args(&self, mount: &Mount, copy_fds: &[i32], args: &mut Vec<OsString>) {
        match mount {
            Mount::Symlink { target, at } => {
                args.extend(["--symlink".into(), target.into(), at.into()]);
            }
            Mount::ReadOnly(path) => args.extend(["--ro-bind".into(), path.into(), path.into()]),
            // A file of the slot's own, in a mount that is read-only (the
            // root) or bound read-only into each run (`/tmp`): a bind of
            // the copy would be of a deleted file, which a run's PID 1
            // could not bind again.
            Mount::Copy { index, at } => args.extend([
                "--perms".into(),
                self.copies.mode(*index).into(),
                "--file".into(),
                copy_fds[*index].to_string().into(),
                at.into(),
            ]),
            Mount::CoverFolder(folder) => {
                args.extend(["--tmpfs".into(), folder.into()]);
                args.extend(["--remount-ro".into(), folder.into()]);
            }
            Mount::CoverFile(file) => {
                args.extend(["--ro-bind".into(), "/dev/null".into(), file.into()]);
            }
        }
    }
}

/// The init's executable, open for bubblewrap to start through
/// `/proc/self/fd`; a sealed copy in memory when runs have uids of their
/// own (a root judge) that may not execute the original.
fn open_init(init: &Path, own_uids: bool) -> Result<File, SandboxError> {
    let cannot = |error: io::Error| {
        SandboxError::Unusable(format!("cannot open {}: {error}", init.display()))
    };
    let mode = std::fs::metadata(init)
        .map_err(cannot)?
        .permissions()
        .mode();
    if own_uids && mode & 0o001 == 0 {
        copies::sealed_copy(init)
            .map_err(|error| SandboxError::Copying(format!("{}: {error}", init.display())))
    } else {
        File::open(init).map_err(cannot)
    }
}

/// Whether this process is root, and so gives sandboxed runs unprivileged
/// uids of their own.
pub fn running_as_root() -> bool {
    super::sandbox_user::judge_is_root()
}

/// bubblewrap's complaint, with what to do about the usual one.
pub(crate) fn explain(complaint: &str) -> String {
    if complaint.contains("setting up uid map") || complaint.contains("No permissions to create") {
        format!(
            "{complaint} (unprivileged user namespaces are refused here, as AppArmor does on Ubuntu 24.04 and later: run the judge as root (sudo), whose sandbox the restriction does not apply to)"
        )
    } else {
        complaint.to_owned()
    }
}

/// `bwrap` on `PATH`.
fn find_bwrap() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("bwrap"))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bubblewrap_refused_a_user_namespace_is_told_what_to_do() {
        for complaint in [
            "bwrap: setting up uid map: Permission denied",
            "bwrap: No permissions to create new namespace",
        ] {
            let told = explain(complaint);
            assert!(
                told.starts_with(complaint) && told.contains("run the judge as root"),
                "{told}"
            );
        }
        assert_eq!(
            explain("bwrap: execvp x: No such file"),
            "bwrap: execvp x: No such file"
        );
    }

    #[test]
    fn sandbox_modes_read_as_their_option_values() {
        let names: Vec<String> = [SandboxMode::Auto, SandboxMode::On, SandboxMode::Off]
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names, ["auto", "on", "off"]);
    }

    /// Whether `file` is a sealed copy in memory rather than the file.
    fn is_sealed_copy(file: &File) -> bool {
        // SAFETY: fcntl touches no memory; F_GET_SEALS fails on a file
        // that is not a memfd.
        unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GET_SEALS) > 0 }
    }

    #[test]
    fn the_init_is_copied_for_own_uids_only_when_they_may_not_run_it() {
        let folder = tempfile::tempdir().unwrap();
        let init = folder.path().join("init");
        std::fs::write(&init, "#!/bin/sh\n").unwrap();
        for (mode, own_uids, copied) in [
            (0o755, true, false),
            (0o755, false, false),
            (0o750, true, true),
            (0o750, false, false),
            (0o700, true, true),
        ] {
            std::fs::set_permissions(&init, std::fs::Permissions::from_mode(mode)).unwrap();
            let opened = open_init(&init, own_uids).unwrap();
            assert_eq!(
                is_sealed_copy(&opened),
                copied,
                "mode {mode:o}, own uids {own_uids}"
            );
        }
        assert!(matches!(
            open_init(&folder.path().join("absent"), false),
            Err(SandboxError::Unusable(_))
        ));
    }

    #[test]
    fn a_judge_without_uids_to_give_disables_new_user_namespaces_where_bubblewrap_can() {
        if find_bwrap().is_none() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set: bubblewrap (bwrap) is required"
            );
            eprintln!("skipped: needs bubblewrap (bwrap)");
            return;
        }
        let program = Program::parse("/bin/true", Path::new("/")).unwrap();
        let counted = Counted {
            memory: true,
            cpu: true,
        };
        let mut sandbox = Sandbox::new(
            &std::env::current_exe().unwrap(),
            &program,
            &[],
            &[],
            false,
            counted,
        )
        .unwrap();
        let user_args = |sandbox: &Sandbox| -> Vec<String> {
            sandbox
                .isolation_args(None, &[])
                .iter()
                .map(|arg| arg.to_string_lossy().into_owned())
                .take_while(|arg| arg != "--unshare-pid")
                .collect()
        };
        sandbox.disables_user_namespaces = true;
        assert_eq!(user_args(&sandbox), ["--unshare-user", "--disable-userns"]);
        sandbox.disables_user_namespaces = false;
        assert_eq!(user_args(&sandbox), ["--unshare-user"]);
    }
}
