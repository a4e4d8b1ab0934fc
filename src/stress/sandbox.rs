//! Isolation of a run with bubblewrap (`bwrap`): the program sees the
//! machine's files read-only, writes only to a fresh work directory, has no
//! network and its own process ids, and cannot see the hidden folders.
//!
//! # The command line
//!
//! ```text
//! bwrap --unshare-user --disable-userns          no user namespaces inside
//!       --unshare-pid --unshare-net --unshare-ipc --unshare-uts --unshare-cgroup-try
//!       --cap-drop ALL                           essential when run as root
//!       --die-with-parent --new-session --as-pid-1
//!       --ro-bind / /  --dev /dev  --tmpfs /dev/shm  --remount-ro /dev
//!       --proc /proc  --tmpfs /run  --remount-ro /run
//!       --tmpfs HIDDEN --remount-ro HIDDEN       each hidden folder
//!       --ro-bind /dev/null HIDDEN               each hidden file
//!       --seccomp FD                             no Unix-domain sockets
//!       --size BYTES --tmpfs WORK --chdir WORK --setenv TMPDIR WORK
//!       -- INIT … PROGRAM ARGS…
//! ```
//!
//! Why each part (each was seen to matter on the development machine):
//!
//! - `--cap-drop ALL`: root inside the sandbox keeps every capability
//!   otherwise, and can unmount the tmpfs over a hidden folder, or remount
//!   `/` read-write.
//! - `--die-with-parent`: the sandbox's PID 1 dies with bwrap, and the
//!   kernel then kills every process of its PID namespace; without it,
//!   processes that left bwrap's process group survive the runner's
//!   `killpg`.
//! - `--as-pid-1` and our own [init](super::init) as PID 1: bwrap reports a
//!   program killed by signal N as exit status 128 + N, and its own PID 1 is
//!   never waited for by the runner, which then sees none of the program's
//!   CPU time or memory. Ours reports the real status and usage.
//! - `--new-session`: no controlling terminal to push keystrokes into.
//! - `--tmpfs /run`: host Unix sockets (docker, dbus) live there, and a
//!   read-only bind does not stop `connect` on a socket file.
//! - `--seccomp`: the same holds for socket files elsewhere, in `/tmp` or
//!   `$HOME` (tmux's, an ssh agent's), which must stay visible: the filter
//!   (`seccomp.rs`) refuses to make Unix-domain sockets.
//! - `--unshare-user --disable-userns`: the program cannot make user
//!   namespaces (a way back to capabilities); needs bubblewrap 0.8 or later,
//!   and is left out on older ones (the mounts still hold: they are locked).
//! - `--size`: the work directory holds at most the memory limit (its files
//!   count as the run's memory too); left out before bubblewrap 0.7.
//!
//! Root-owned files stay readable (the program runs as uid 0 without
//! capabilities, still the owner): hide what must not be read.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::child_setup::pipe;
use super::command::{Program, SHELL};
use super::init::INIT_ARGUMENT;
use super::seccomp;
use super::work_dir::WorkDir;

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

/// Something the program must not see.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Hidden {
    /// A folder, covered by an empty read-only tmpfs.
    Folder(PathBuf),
    /// A file, covered by `/dev/null`.
    File(PathBuf),
}

/// A working bubblewrap, and what each run's sandbox hides.
#[derive(Clone, Debug)]
pub(crate) struct Sandbox {
    bwrap: PathBuf,
    /// The executable that runs as PID 1 inside ([`super::init`]).
    init: PathBuf,
    hidden: Vec<Hidden>,
    /// Whether this bubblewrap knows `--size` (0.7 and later).
    sizes: bool,
    /// Whether it knows `--disable-userns` (0.8 and later).
    disables_user_namespaces: bool,
    /// The seccomp filter (`seccomp.rs`), where there is one for this
    /// architecture.
    filter: Option<Vec<u8>>,
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
    /// The program, or the runner itself, lies in a hidden folder, so it
    /// could not start in the sandbox.
    #[error("{executable} is inside the hidden folder {folder}")]
    ExecutableHidden {
        /// The executable.
        executable: PathBuf,
        /// The folder hiding it.
        folder: PathBuf,
    },
}

impl Sandbox {
    /// A sandbox with bubblewrap from `PATH`, running `init` as PID 1 and
    /// hiding `hidden`, once a trial run has shown that it works here.
    pub(crate) fn new(init: &Path, hidden: &[PathBuf]) -> Result<Sandbox, SandboxError> {
        let hidden = hidden
            .iter()
            .map(|path| match path.canonicalize() {
                Ok(path) if path.is_dir() => Ok(Hidden::Folder(path)),
                Ok(path) => Ok(Hidden::File(path)),
                Err(_) => Err(SandboxError::HiddenMissing(path.clone())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let bwrap = find_bwrap().ok_or(SandboxError::NotInstalled)?;
        let help = Command::new(&bwrap)
            .arg("--help")
            .stdin(Stdio::null())
            .output()
            .map_err(|error| SandboxError::Unusable(error.to_string()))?;
        let help = String::from_utf8_lossy(&help.stdout);
        let sandbox = Sandbox {
            bwrap,
            init: init.to_owned(),
            hidden,
            sizes: help.contains("--size"),
            disables_user_namespaces: help.contains("--disable-userns"),
            filter: seccomp::filter(),
        };
        sandbox.check_visible(init)?;
        sandbox.trial()?;
        Ok(sandbox)
    }

    /// Checks that `executable` is not inside a hidden folder.
    pub(crate) fn check_visible(&self, executable: &Path) -> Result<(), SandboxError> {
        let resolved = executable
            .canonicalize()
            .unwrap_or_else(|_| executable.to_owned());
        for hidden in &self.hidden {
            let (Hidden::Folder(folder) | Hidden::File(folder)) = hidden;
            if resolved.starts_with(folder) {
                return Err(SandboxError::ExecutableHidden {
                    executable: executable.to_owned(),
                    folder: folder.clone(),
                });
            }
        }
        Ok(())
    }

    /// Runs `sh -c :` in a sandbox made as every run's is (with a scratch
    /// work directory), to learn whether bubblewrap works here.
    fn trial(&self) -> Result<(), SandboxError> {
        let unusable = |error: io::Error| SandboxError::Unusable(error.to_string());
        let work = WorkDir::create().map_err(unusable)?;
        let filter = self.filter_descriptor().map_err(unusable)?;
        let filter_fd = filter.as_ref().map(AsRawFd::as_raw_fd);
        let mut args = self.isolation_args(work.path(), 1 << 20, filter_fd);
        args.extend(["--".into(), SHELL.into(), "-c".into(), ":".into()]);
        let mut command = Command::new(&self.bwrap);
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(fd) = filter_fd {
            // SAFETY: fcntl is async-signal-safe, on a descriptor of ours.
            unsafe {
                command.pre_exec(move || {
                    libc::fcntl(fd, libc::F_SETFD, 0);
                    Ok(())
                });
            }
        }
        match command.output() {
            Ok(output) if output.status.success() => Ok(()),
            Ok(output) => Err(SandboxError::Unusable(
                String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            )),
            Err(error) => Err(unusable(error)),
        }
    }

    /// The read end of a pipe holding the seccomp filter, close-on-exec
    /// (the child that execs bubblewrap clears the flag); `None` where
    /// there is no filter.
    pub(crate) fn filter_descriptor(&self) -> io::Result<Option<OwnedFd>> {
        let Some(filter) = &self.filter else {
            return Ok(None);
        };
        let (read, write) = pipe()?;
        // A few hundred bytes: the pipe holds them all before anyone reads.
        std::fs::File::from(write).write_all(filter)?;
        Ok(Some(read))
    }

    /// The bubblewrap executable.
    pub(crate) fn bwrap(&self) -> &Path {
        &self.bwrap
    }

    /// bwrap's arguments for one run: the sandbox around the existing,
    /// empty host directory `work` (a tmpfs of at most `work_bytes` goes
    /// over it; the host directory stays empty), with the seccomp filter
    /// read from `filter_fd`, then the init process reporting on
    /// `status_fd`, then the program.
    pub(crate) fn args(
        &self,
        work: &Path,
        work_bytes: u64,
        filter_fd: Option<i32>,
        status_fd: i32,
        program: &Program,
    ) -> Vec<OsString> {
        let mut args = self.isolation_args(work, work_bytes, filter_fd);
        args.push("--".into());
        args.push(self.init.clone().into());
        args.push(INIT_ARGUMENT.into());
        args.push(status_fd.to_string().into());
        args.extend(program.argv());
        args
    }

    /// Everything but the command.
    fn isolation_args(
        &self,
        work: &Path,
        work_bytes: u64,
        filter_fd: Option<i32>,
    ) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut add = |items: &[&str]| args.extend(items.iter().map(OsString::from));
        if self.disables_user_namespaces {
            add(&["--unshare-user", "--disable-userns"]);
        }
        add(&[
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--cap-drop",
            "ALL",
            "--die-with-parent",
            "--new-session",
            "--as-pid-1",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
        ]);
        if self.sizes {
            add(&["--size", "67108864"]);
        }
        add(&[
            "--perms",
            "1777",
            "--tmpfs",
            "/dev/shm",
            "--remount-ro",
            "/dev",
            "--proc",
            "/proc",
        ]);
        if Path::new("/run").is_dir() {
            add(&["--tmpfs", "/run", "--remount-ro", "/run"]);
        }
        for hidden in &self.hidden {
            match hidden {
                Hidden::Folder(folder) => {
                    args.extend(["--tmpfs".into(), folder.into()]);
                    args.extend(["--remount-ro".into(), folder.into()]);
                }
                Hidden::File(file) => {
                    args.extend(["--ro-bind".into(), "/dev/null".into(), file.into()]);
                }
            }
        }
        if let Some(fd) = filter_fd {
            args.extend(["--seccomp".into(), fd.to_string().into()]);
        }
        // `--size` applies to the `--tmpfs` right after it.
        if self.sizes {
            args.extend(["--size".into(), work_bytes.to_string().into()]);
        }
        args.extend(["--tmpfs".into(), work.into()]);
        args.extend(["--chdir".into(), work.into()]);
        args.extend(["--setenv".into(), "TMPDIR".into(), work.into()]);
        args
    }
}

/// `bwrap` on `PATH`.
fn find_bwrap() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("bwrap"))
        .find(|candidate| candidate.is_file())
}
