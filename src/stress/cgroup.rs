//! One control group per run: a memory limit the kernel enforces inside the
//! group (a program over it is killed there, never anything else on the
//! machine), the CPU time and peak memory of every process of the run
//! (children, orphans and daemons included), a cap on processes, and a way
//! to kill whatever is left.
//!
//! # Where
//!
//! A run's groups are made under the runner's own group in each hierarchy
//! (from `/proc/self/cgroup`), so that the runner works wherever it was
//! given a subtree, and a limit on the runner bounds its runs too. They are
//! named `rotation-game-` and the runner's [`Owner`] name, then a counter,
//! so that a runner starting up can remove those a killed runner left
//! behind, and only those ([`sweep_stale`]).
//!
//! # cgroup v1 and v2
//!
//! - v1 (separate `memory`, `cpuacct` and `pids` hierarchies): used where
//!   the memory controller is a v1 hierarchy. `memory.limit_in_bytes`, then
//!   `memory.memsw.limit_in_bytes` (memory plus swap, so a run is never
//!   swapped out; it must come second, as it may not be below the first),
//!   `memory.max_usage_in_bytes`, `oom_kill` in `memory.oom_control`
//!   (kernel 4.13 and later), `cpuacct.usage`, `pids.max`. Tested on the
//!   development machine (kernel 6.18).
//! - v2 (one unified hierarchy): used where the runner's group offers the
//!   memory controller. `memory.max`, `memory.swap.max = 0`,
//!   `memory.oom.group`, `memory.peak` (kernel 5.19 and later), `oom_kill`
//!   in `memory.events`, `usage_usec` in `cpu.stat`, `pids.max`, and
//!   `cgroup.kill` (5.14 and later). A v2 group holding processes may not
//!   give controllers to its children ("no internal processes"), so the
//!   runner first moves itself into a leaf group of its own, once. The v2
//!   path follows the kernel's documented interface; the development
//!   machine has no v2 memory controller, so only its file parsing is
//!   tested there.

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use super::owner::{self, Owner};

/// The prefix of the names of the runs' groups.
const PREFIX: &str = "rotation-game-";

/// Which cgroup interface a run's group uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CgroupVersion {
    /// Separate hierarchies per controller.
    #[serde(rename = "cgroup v1")]
    V1,
    /// The unified hierarchy.
    #[serde(rename = "cgroup v2")]
    V2,
}

/// Where runs' groups are made: the runner's own groups.
#[derive(Clone, Debug)]
pub(crate) struct Parent {
    dirs: Dirs,
}

/// The group(s) of one run; killed and removed when dropped.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    dirs: Dirs,
}

/// A group's directories: one per v1 hierarchy (the pids controller may be
/// missing), or one in the v2 hierarchy.
#[derive(Clone, Debug)]
enum Dirs {
    V1 {
        memory: PathBuf,
        cpuacct: PathBuf,
        pids: Option<PathBuf>,
    },
    V2 {
        dir: PathBuf,
    },
}

impl Dirs {
    /// Every directory.
    fn all(&self) -> Vec<&Path> {
        match self {
            Dirs::V1 {
                memory,
                cpuacct,
                pids,
            } => [Some(memory), Some(cpuacct), pids.as_ref()]
                .into_iter()
                .flatten()
                .map(PathBuf::as_path)
                .collect(),
            Dirs::V2 { dir } => vec![dir],
        }
    }

    /// The child group `name` in each.
    fn join(&self, name: &str) -> Dirs {
        match self {
            Dirs::V1 {
                memory,
                cpuacct,
                pids,
            } => Dirs::V1 {
                memory: memory.join(name),
                cpuacct: cpuacct.join(name),
                pids: pids.as_ref().map(|pids| pids.join(name)),
            },
            Dirs::V2 { dir } => Dirs::V2 {
                dir: dir.join(name),
            },
        }
    }
}

/// A mounted cgroup hierarchy: its mount point, whether it is v2, and its
/// mount options (which name a v1 hierarchy's controllers).
struct Mount {
    dir: PathBuf,
    unified: bool,
    options: Vec<String>,
}

fn mounts() -> io::Result<Vec<Mount>> {
    let text = fs::read_to_string("/proc/self/mounts")?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (dir, kind, options) = (fields.get(1)?, *fields.get(2)?, fields.get(3)?);
            (kind == "cgroup" || kind == "cgroup2").then(|| Mount {
                dir: PathBuf::from(dir),
                unified: kind == "cgroup2",
                options: options.split(',').map(str::to_owned).collect(),
            })
        })
        .collect())
}

/// This process's group in the v1 hierarchy of `controller`, or in the v2
/// hierarchy when `controller` is `None`, from the lines
/// `ID:CONTROLLERS:PATH` of `/proc/self/cgroup`.
fn own_group(cgroup_file: &str, controller: Option<&str>) -> Option<String> {
    cgroup_file.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let matches = match controller {
            None => controllers.is_empty(),
            Some(wanted) => controllers.split(',').any(|c| c == wanted),
        };
        matches.then(|| path.trim_start_matches('/').to_owned())
    })
}

fn with_path(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::write(path, value).map_err(|error| with_path(path, error))
}

fn read_number(path: &Path) -> io::Result<u64> {
    let text = fs::read_to_string(path).map_err(|error| with_path(path, error))?;
    text.trim().parse().map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: expected a number, found {text:?}", path.display()),
        )
    })
}

/// The value of `key` in a flat keyed file (lines `key value`), such as
/// `memory.events`, `cpu.stat` or v1's `memory.oom_control`.
fn keyed_value(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok()).flatten()
    })
}

fn read_keyed(path: &Path, key: &str) -> io::Result<u64> {
    let text = fs::read_to_string(path).map_err(|error| with_path(path, error))?;
    keyed_value(&text, key).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: no {key} line", path.display()),
        )
    })
}

fn make_dir(path: &Path) -> io::Result<()> {
    fs::create_dir(path).map_err(|error| with_path(path, error))
}

/// Where this process makes its runs' groups, if it can: a v2 group with
/// the memory controller, else the v1 memory, cpuacct (and pids)
/// hierarchies. Errors say why not (no such hierarchy, or not writable).
pub(crate) fn parent() -> io::Result<Parent> {
    let mounts = mounts()?;
    let own = fs::read_to_string("/proc/self/cgroup")?;
    if let Some(unified) = mounts.iter().find(|mount| mount.unified)
        && let Some(path) = own_group(&own, None)
    {
        let dir = unified.dir.join(path);
        let controllers = fs::read_to_string(dir.join("cgroup.controllers")).unwrap_or_default();
        if controllers.split_whitespace().any(|c| c == "memory") {
            return v2_parent(&dir);
        }
    }
    let v1 = |controller: &str| -> Option<PathBuf> {
        let mount = mounts
            .iter()
            .find(|mount| !mount.unified && mount.options.iter().any(|o| o == controller))?;
        Some(mount.dir.join(own_group(&own, Some(controller))?))
    };
    let (Some(memory), Some(cpuacct)) = (v1("memory"), v1("cpuacct")) else {
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "no cgroup hierarchy with the memory controller",
        ));
    };
    let parent = Parent {
        dirs: Dirs::V1 {
            memory,
            cpuacct,
            pids: v1("pids"),
        },
    };
    // Writable? Making and removing a probe group tells.
    let probe = RunCgroup::create(&parent, 1 << 30, 16)?;
    drop(probe);
    Ok(parent)
}

/// The v2 parent: the runner's group, once the runner has moved itself
/// into a leaf below it and given the memory and pids controllers to the
/// children (done once per process).
fn v2_parent(own: &Path) -> io::Result<Parent> {
    static MOVED: OnceLock<Result<(), String>> = OnceLock::new();
    let moved = MOVED.get_or_init(|| {
        let subtree = own.join("cgroup.subtree_control");
        let enabled = fs::read_to_string(&subtree).unwrap_or_default();
        if enabled.split_whitespace().any(|c| c == "memory") {
            return Ok(());
        }
        let leaf = own.join(Owner::this_process().name(PREFIX, "runner"));
        (|| {
            make_dir(&leaf)?;
            write(&leaf.join("cgroup.procs"), &std::process::id().to_string())?;
            write(&subtree, "+memory +pids")
        })()
        .map_err(|error| error.to_string())
    });
    match moved {
        Ok(()) => {
            let parent = Parent {
                dirs: Dirs::V2 {
                    dir: own.to_owned(),
                },
            };
            drop(RunCgroup::create(&parent, 1 << 30, 16)?);
            Ok(parent)
        }
        Err(message) => Err(io::Error::other(message.clone())),
    }
}

impl Parent {
    /// The interface.
    pub(crate) fn version(&self) -> CgroupVersion {
        match self.dirs {
            Dirs::V1 { .. } => CgroupVersion::V1,
            Dirs::V2 { .. } => CgroupVersion::V2,
        }
    }
}

/// Removes the groups that runners now gone left behind (a runner killed
/// with `SIGKILL` cannot remove its own; see [`Owner::is_gone`]), killing
/// what is in them.
pub(crate) fn sweep_stale(parent: &Parent) {
    for dir in parent.dirs.all() {
        for path in owner::left_by_gone_runners(dir, PREFIX) {
            kill_listed(&path.join("cgroup.procs"));
            // Best effort: a group still busy is tried again next time.
            let _ = remove_dir_patiently(&path);
        }
    }
}

/// The next run's number in this process.
static RUNS: AtomicU64 = AtomicU64::new(0);

impl RunCgroup {
    /// Makes a run's group(s) under `parent`, with a memory limit of
    /// `memory_bytes` (swap included) and at most `processes` processes
    /// and threads.
    pub(crate) fn create(
        parent: &Parent,
        memory_bytes: u64,
        processes: u64,
    ) -> io::Result<RunCgroup> {
        let name = Owner::this_process().name(PREFIX, RUNS.fetch_add(1, Ordering::Relaxed));
        let bytes = memory_bytes.to_string();
        let processes = processes.to_string();
        // From here on, dropping `group` removes what was made.
        let group = RunCgroup {
            dirs: parent.dirs.join(&name),
        };
        match &group.dirs {
            Dirs::V1 {
                memory,
                cpuacct,
                pids,
            } => {
                make_dir(memory)?;
                make_dir(cpuacct)?;
                write(&memory.join("memory.limit_in_bytes"), &bytes)?;
                // Absent when the kernel does no swap accounting; then
                // `memory.swappiness = 0` below is what keeps the group's
                // memory out of swap when it reaches its limit.
                let memsw = memory.join("memory.memsw.limit_in_bytes");
                if memsw.exists() {
                    write(&memsw, &bytes)?;
                }
                // Best effort (the root group has no such file).
                let _ = write(&memory.join("memory.swappiness"), "0");
                if let Some(pids) = pids {
                    make_dir(pids)?;
                    write(&pids.join("pids.max"), &processes)?;
                }
            }
            Dirs::V2 { dir } => {
                make_dir(dir)?;
                write(&dir.join("memory.max"), &bytes)?;
                // Absent without swap accounting, as in v1.
                let swap = dir.join("memory.swap.max");
                if swap.exists() {
                    write(&swap, "0")?;
                }
                // On running out, kill the whole run rather than one of its
                // processes; best effort (kernel 4.19 and later).
                let _ = write(&dir.join("memory.oom.group"), "1");
                write(&dir.join("pids.max"), &processes)?;
            }
        }
        Ok(group)
    }

    /// The `cgroup.procs` files a new process writes `0` ("myself") to, to
    /// join the run's group(s) before it execs, as C strings ready for a
    /// `pre_exec` hook, where nothing may allocate.
    pub(crate) fn join_files(&self) -> Vec<CString> {
        self.dirs
            .all()
            .into_iter()
            .map(|dir| {
                let file = dir.join("cgroup.procs");
                CString::new(file.into_os_string().into_encoded_bytes())
                    .expect("cgroup paths hold no NUL byte")
            })
            .collect()
    }

    /// CPU time (user plus system) of every process that ran in the group.
    pub(crate) fn cpu_time(&self) -> io::Result<Duration> {
        match &self.dirs {
            Dirs::V1 { cpuacct, .. } => {
                read_number(&cpuacct.join("cpuacct.usage")).map(Duration::from_nanos)
            }
            Dirs::V2 { dir } => {
                read_keyed(&dir.join("cpu.stat"), "usage_usec").map(Duration::from_micros)
            }
        }
    }

    /// The most memory the group was charged at once, in bytes: resident
    /// memory, page cache, files in tmpfs and kernel memory of all its
    /// processes.
    pub(crate) fn peak_memory(&self) -> io::Result<u64> {
        match &self.dirs {
            Dirs::V1 { memory, .. } => read_number(&memory.join("memory.max_usage_in_bytes")),
            Dirs::V2 { dir } => read_number(&dir.join("memory.peak")),
        }
    }

    /// How many processes the kernel killed in the group because it
    /// reached its memory limit.
    pub(crate) fn oom_kills(&self) -> io::Result<u64> {
        match &self.dirs {
            Dirs::V1 { memory, .. } => read_keyed(&memory.join("memory.oom_control"), "oom_kill"),
            Dirs::V2 { dir } => read_keyed(&dir.join("memory.events"), "oom_kill"),
        }
    }

    /// How many times starting a process or thread failed at the process
    /// limit.
    pub(crate) fn refused_forks(&self) -> u64 {
        let events = match &self.dirs {
            Dirs::V1 {
                pids: Some(pids), ..
            } => pids.join("pids.events"),
            Dirs::V1 { pids: None, .. } => return 0,
            Dirs::V2 { dir } => dir.join("pids.events"),
        };
        read_keyed(&events, "max").unwrap_or(0)
    }

    /// Kills every process in the group, until it is empty: at once with
    /// v2's `cgroup.kill`, else by listing and killing them again and again
    /// (a process may fork meanwhile; the process limit bounds how often).
    pub(crate) fn kill_all(&self) {
        let procs = match &self.dirs {
            Dirs::V1 { memory, .. } => memory.join("cgroup.procs"),
            Dirs::V2 { dir } => {
                if write(&dir.join("cgroup.kill"), "1").is_ok() {
                    return;
                }
                dir.join("cgroup.procs")
            }
        };
        let deadline = Instant::now() + Duration::from_secs(2);
        while kill_listed(&procs) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Sends `SIGKILL` to every process listed in a `cgroup.procs` file;
/// whether there were any.
fn kill_listed(procs: &Path) -> bool {
    let listed = fs::read_to_string(procs).unwrap_or_default();
    let mut any = false;
    for pid in listed
        .lines()
        .filter_map(|line| line.trim().parse::<i32>().ok())
    {
        any = true;
        // The group only holds the run's processes; a pid read here is
        // theirs (a process leaves the list only once reaped, and ours are
        // reaped only after this kill).
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    any
}

/// `rmdir`, retried for up to 2 s: it fails with `EBUSY` while a killed
/// process is still exiting (freeing a few GiB takes a moment).
fn remove_dir_patiently(dir: &Path) -> io::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match fs::remove_dir(dir) {
            Ok(()) => return Ok(()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(_) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Err(error) => return Err(with_path(dir, error)),
        }
    }
}

impl Drop for RunCgroup {
    /// Kills what is left and removes the group(s).
    fn drop(&mut self) {
        self.kill_all();
        for dir in self.dirs.all() {
            // Nothing to do about a failure here: the next runner's sweep
            // removes what is left.
            let _ = remove_dir_patiently(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_own_group_is_read_per_controller_and_for_v2() {
        let file =
            "9:name=systemd:/\n4:memory:/process_api/abc\n2:cpuacct,cpu:/x\n0::/user.slice/run\n";
        assert_eq!(
            own_group(file, Some("memory")).as_deref(),
            Some("process_api/abc")
        );
        assert_eq!(own_group(file, Some("cpuacct")).as_deref(), Some("x"));
        assert_eq!(own_group(file, None).as_deref(), Some("user.slice/run"));
        assert_eq!(own_group(file, Some("pids")), None);
    }

    #[test]
    fn keyed_files_are_read_by_key() {
        let events = "low 0\nhigh 0\nmax 3\noom 2\noom_kill 1\noom_group_kill 0\n";
        assert_eq!(keyed_value(events, "oom_kill"), Some(1));
        assert_eq!(keyed_value(events, "max"), Some(3));
        let stat = "usage_usec 1500000\nuser_usec 1000000\nsystem_usec 500000\n";
        assert_eq!(keyed_value(stat, "usage_usec"), Some(1_500_000));
        assert_eq!(keyed_value(stat, "usage"), None);
    }

    #[test]
    fn a_v2_group_is_read_through_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let group = RunCgroup {
            dirs: Dirs::V2 {
                dir: dir.path().to_owned(),
            },
        };
        fs::write(
            dir.path().join("cpu.stat"),
            "usage_usec 2500\nuser_usec 2000\n",
        )
        .unwrap();
        fs::write(dir.path().join("memory.peak"), "1048576\n").unwrap();
        fs::write(dir.path().join("memory.events"), "oom 1\noom_kill 1\n").unwrap();
        fs::write(dir.path().join("pids.events"), "max 4\n").unwrap();
        fs::write(dir.path().join("cgroup.kill"), "").unwrap();
        assert_eq!(group.cpu_time().unwrap(), Duration::from_micros(2500));
        assert_eq!(group.peak_memory().unwrap(), 1 << 20);
        assert_eq!(group.oom_kills().unwrap(), 1);
        assert_eq!(group.refused_forks(), 4);
        std::mem::forget(group);
    }
}
