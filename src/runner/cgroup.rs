//! One control group per run: a memory limit the kernel enforces inside the
//! group (a program over it is killed there, never anything else on the
//! machine), the CPU time and peak memory of every process of the run
//! (children, orphans and daemons included), a cap on processes, one share
//! of the CPU, and a way to kill whatever is left.
//!
//! # One share of the CPU
//!
//! Where the CPU controller is there, each run's group has the weight of
//! one process of nice 0 (v1 `cpu.shares` 1024, v2 `cpu.weight` 100), and
//! everything the run starts is inside it: however many threads, children
//! or sessions it makes, the scheduler weighs the run as one, against
//! every other run and every other process. (The scheduler's autogroups,
//! one share per session, apply only to processes in the root CPU group,
//! so a run's sessions multiply nothing there.) Without the controller,
//! the sandbox refuses new sessions instead (`seccomp.rs`).
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
//! - v1 (separate `memory`, `cpuacct`, `pids` and `cpu` hierarchies; `cpu`
//!   and `cpuacct` are often one): used where
//!   the memory controller is a v1 hierarchy. `memory.limit_in_bytes`, then
//!   `memory.memsw.limit_in_bytes` (memory plus swap, so a run is never
//!   swapped out; it must come second, as it may not be below the first),
//!   `memory.max_usage_in_bytes`, `oom_kill` in `memory.oom_control`
//!   (kernel 4.13 and later), `cpuacct.usage`, `pids.max`, `cpu.shares`. Tested by
//!   `tests/cli/limits.rs` as root on a cgroup v1 machine (`.ci/run`).
//! - v2 (one unified hierarchy): used where the runner's group (or, for
//!   root, the hierarchy's root) can give the memory and pids controllers
//!   to groups below it. `memory.max`, `memory.swap.max = 0`,
//!   `memory.oom.group`, `memory.peak` (kernel 5.19 and later), `oom_kill`
//!   in `memory.events`, `usage_usec` in `cpu.stat`, `pids.max`,
//!   `cpu.weight` (where the cpu controller can be given), and
//!   `cgroup.kill` (5.14 and later). A v2 group holding processes may not
//!   give controllers to its children ("no internal processes"), so the
//!   runner first moves itself into a leaf group of its own, and leaves
//!   the group as it found it when its last runner goes (see
//!   [`delegation`]). Tested in a virtual machine with cgroup v2, as root
//!   and as a user in a delegated group, alone there and beside another
//!   process (`.ci/cgroup-v2-vm.sh`, which runs `tests/cli/limits.rs`).

use std::ffi::CString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::owner::{self, Owner};
use delegation::Delegation;

mod delegation;

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

/// Where runs' groups are made: the runner's own groups (or, in v2, the
/// hierarchy's root). A v2 parent holds this process's [`Delegation`],
/// released when the last parent goes; it is not `Clone`, as a copy
/// would release the hold twice.
#[derive(Debug)]
pub(crate) struct Parent {
    dirs: Dirs,
    /// Whether this is a v2 parent, counted in [`DELEGATION`].
    delegated: bool,
}

/// The group(s) of one run; killed and removed when dropped.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    dirs: Dirs,
}

/// A group's directories: one per v1 hierarchy (the pids and cpu
/// controllers may be missing, and cpu may share cpuacct's hierarchy), or
/// one in the v2 hierarchy, with whether its cpu controller is on.
#[derive(Clone, Debug)]
enum Dirs {
    V1 {
        memory: PathBuf,
        cpuacct: PathBuf,
        pids: Option<PathBuf>,
        cpu: Option<PathBuf>,
    },
    V2 {
        dir: PathBuf,
        cpu: bool,
    },
}

impl Dirs {
    /// Every directory, each once.
    fn all(&self) -> Vec<&Path> {
        match self {
            Dirs::V1 {
                memory,
                cpuacct,
                pids,
                cpu,
            } => {
                let mut all: Vec<&Path> = Vec::new();
                for dir in [Some(memory), Some(cpuacct), pids.as_ref(), cpu.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    if !all.contains(&dir.as_path()) {
                        all.push(dir);
                    }
                }
                all
            }
            Dirs::V2 { dir, .. } => vec![dir],
        }
    }

    /// The child group `name` in each.
    fn join(&self, name: &str) -> Dirs {
        match self {
            Dirs::V1 {
                memory,
                cpuacct,
                pids,
                cpu,
            } => Dirs::V1 {
                memory: memory.join(name),
                cpuacct: cpuacct.join(name),
                pids: pids.as_ref().map(|pids| pids.join(name)),
                cpu: cpu.as_ref().map(|cpu| cpu.join(name)),
            },
            Dirs::V2 { dir, cpu } => Dirs::V2 {
                dir: dir.join(name),
                cpu: *cpu,
            },
        }
    }

    /// The file that weighs the group's CPU share, if it has one.
    fn cpu_weight(&self) -> Option<(PathBuf, &'static str)> {
        match self {
            Dirs::V1 { cpu, .. } => cpu
                .as_ref()
                .map(|cpu| (cpu.join("cpu.shares"), CPU_SHARES_OF_ONE)),
            Dirs::V2 { dir, cpu: true } => Some((dir.join("cpu.weight"), CPU_WEIGHT_OF_ONE)),
            Dirs::V2 { cpu: false, .. } => None,
        }
    }
}

/// The weight of one process of nice 0, as v1's `cpu.shares` and v2's
/// `cpu.weight` count it: a run's weight, whatever it starts.
const CPU_SHARES_OF_ONE: &str = "1024";
const CPU_WEIGHT_OF_ONE: &str = "100";

/// A mounted cgroup hierarchy: its mount point, whether it is v2, and its
/// mount options (which name a v1 hierarchy's controllers).
struct Mount {
    dir: PathBuf,
    unified: bool,
    options: Vec<String>,
}

fn mounts() -> io::Result<Vec<Mount>> {
    Ok(cgroup_mounts(&fs::read_to_string("/proc/self/mounts")?))
}

/// The cgroup hierarchies among the lines `DEVICE DIR KIND OPTIONS ...` of
/// a mount table (`/proc/self/mounts`).
fn cgroup_mounts(table: &str) -> Vec<Mount> {
    table
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
        .collect()
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

/// Where this process makes its runs' groups, if it can: a v2 group (see
/// below), else the v1 memory, cpuacct (and pids) hierarchies. Errors say
/// why not (no such hierarchy, not writable, shared with other processes)
/// and, for a user who is not root, how to get one.
///
/// In v2, the runner's own group where it can take it (see
/// [`delegation`]); where it cannot (it holds other processes, as a
/// service's or a login session's group does), the hierarchy's root,
/// which only root may write to. Runs made at the root are not bounded by
/// the runner's own group.
pub(crate) fn parent() -> io::Result<Parent> {
    find_parent()
        .map_err(|error| io::Error::new(error.kind(), format!("{error}{}", how_to_get_one())))
}

fn find_parent() -> io::Result<Parent> {
    let mounts = mounts()?;
    let own = fs::read_to_string("/proc/self/cgroup")?;
    let mut v2_error = None;
    if let Some(unified) = mounts.iter().find(|mount| mount.unified)
        && let Some(path) = own_group(&own, None)
    {
        match v2_parent(&unified.dir.join(path), &unified.dir) {
            Ok(parent) => return Ok(parent),
            Err(error) => v2_error = Some(error),
        }
    }
    let v1 = |controller: &str| -> Option<PathBuf> {
        let mount = mounts
            .iter()
            .find(|mount| !mount.unified && mount.options.iter().any(|o| o == controller))?;
        Some(mount.dir.join(own_group(&own, Some(controller))?))
    };
    let (Some(memory), Some(cpuacct)) = (v1("memory"), v1("cpuacct")) else {
        return Err(v2_error.unwrap_or_else(|| {
            io::Error::new(
                io::ErrorKind::Unsupported,
                "no cgroup hierarchy with the memory controller",
            )
        }));
    };
    let parent = |cpu| Parent {
        dirs: Dirs::V1 {
            memory: memory.clone(),
            cpuacct: cpuacct.clone(),
            pids: v1("pids"),
            cpu,
        },
        delegated: false,
    };
    // Writable? Making and removing a probe group tells. The cpu
    // hierarchy is optional: without it, runs have no CPU weight.
    let with_cpu = parent(v1("cpu"));
    match RunCgroup::create(&with_cpu, 1 << 30, 16) {
        Ok(probe) => {
            drop(probe);
            Ok(with_cpu)
        }
        Err(_) if v1("cpu").is_some() => {
            let without_cpu = parent(None);
            drop(RunCgroup::create(&without_cpu, 1 << 30, 16)?);
            Ok(without_cpu)
        }
        Err(error) => Err(error),
    }
}

/// How a user who is not root gets a writable cgroup: the end of a
/// message saying there is none ("" for root, without reading the mounts).
fn how_to_get_one() -> String {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        return String::new();
    }
    how_to_get_one_with(&mounts().unwrap_or_default())
}

/// [`how_to_get_one`] for a user who is not root, on a machine with
/// `mounts`.
fn how_to_get_one_with(mounts: &[Mount]) -> String {
    if mounts.iter().any(|mount| mount.unified) {
        format!(
            "; a user of systemd gets a cgroup of their own by putting `{}` before the command",
            delegation::SYSTEMD_DELEGATION
        )
    } else {
        "; with cgroup v1, only root gets one".to_owned()
    }
}

/// The runner's hold on a v2 group, shared by every [`Parent`] of this
/// process, with how many there are: the last to go releases it.
static DELEGATION: Mutex<Option<(Delegation, usize)>> = Mutex::new(None);

fn delegation_slot() -> MutexGuard<'static, Option<(Delegation, usize)>> {
    DELEGATION.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The v2 parent of the runner in group `own`, in the hierarchy mounted at
/// `root`: the group this process has taken for its runs, taking one
/// first if it has none (its own group, else the hierarchy's root).
fn v2_parent(own: &Path, root: &Path) -> io::Result<Parent> {
    let mut slot = delegation_slot();
    let group = match &mut *slot {
        Some((delegation, users)) => {
            *users += 1;
            delegation.group().to_owned()
        }
        None => {
            let delegation = match Delegation::take(own, own == root) {
                Ok(delegation) => delegation,
                // The own group's error says more than the root's (which
                // only root may write to).
                Err(error) if own != root => Delegation::take(root, true).map_err(|_| error)?,
                Err(error) => return Err(error),
            };
            let group = delegation.group().to_owned();
            *slot = Some((delegation, 1));
            group
        }
    };
    drop(slot);
    let cpu = delegation::gives(&group, "cpu");
    let parent = Parent {
        dirs: Dirs::V2 { dir: group, cpu },
        delegated: true,
    };
    drop(RunCgroup::create(&parent, 1 << 30, 16)?);
    Ok(parent)
}

impl Drop for Parent {
    /// The last v2 parent of the process releases its hold on the group.
    fn drop(&mut self) {
        if !self.delegated {
            return;
        }
        let mut slot = delegation_slot();
        if let Some((_, users)) = &mut *slot {
            *users -= 1;
            if *users == 0
                && let Some((delegation, _)) = slot.take()
            {
                delegation.release();
            }
        }
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

    /// Whether runs' groups cap their processes: v2's always do, v1's
    /// where there is a `pids` hierarchy.
    pub(crate) fn caps_processes(&self) -> bool {
        match &self.dirs {
            Dirs::V1 { pids, .. } => pids.is_some(),
            Dirs::V2 { .. } => true,
        }
    }

    /// Whether runs' groups weigh their CPU share (see the [module
    /// docs](self)): where the cpu controller is there.
    pub(crate) fn weighs_cpu(&self) -> bool {
        self.dirs.cpu_weight().is_some()
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
        for dir in group.dirs.all() {
            make_dir(dir)?;
        }
        match &group.dirs {
            Dirs::V1 { memory, pids, .. } => {
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
                    write(&pids.join("pids.max"), &processes)?;
                }
            }
            Dirs::V2 { dir, .. } => {
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
        if let Some((file, weight)) = group.dirs.cpu_weight() {
            write(&file, weight)?;
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

    /// Moves process `pid` (and so, from then on, everything it starts)
    /// into the group(s).
    pub(crate) fn add(&self, pid: libc::pid_t) -> io::Result<()> {
        for dir in self.dirs.all() {
            write(&dir.join("cgroup.procs"), &pid.to_string())?;
        }
        Ok(())
    }

    /// CPU time (user plus system) of every process that ran in the group.
    pub(crate) fn cpu_time(&self) -> io::Result<Duration> {
        match &self.dirs {
            Dirs::V1 { cpuacct, .. } => {
                read_number(&cpuacct.join("cpuacct.usage")).map(Duration::from_nanos)
            }
            Dirs::V2 { dir, .. } => {
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
            Dirs::V2 { dir, .. } => read_number(&dir.join("memory.peak")),
        }
    }

    /// How many processes the kernel killed in the group because it
    /// reached its memory limit.
    pub(crate) fn oom_kills(&self) -> io::Result<u64> {
        match &self.dirs {
            Dirs::V1 { memory, .. } => read_keyed(&memory.join("memory.oom_control"), "oom_kill"),
            Dirs::V2 { dir, .. } => read_keyed(&dir.join("memory.events"), "oom_kill"),
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
            Dirs::V2 { dir, .. } => dir.join("pids.events"),
        };
        read_keyed(&events, "max").unwrap_or(0)
    }

    /// Kills every process in the group, until it is empty: at once with
    /// v2's `cgroup.kill`, else by listing and killing them again and again
    /// (a process may fork meanwhile; the process limit bounds how often).
    pub(crate) fn kill_all(&self) {
        let procs = match &self.dirs {
            Dirs::V1 { memory, .. } => memory.join("cgroup.procs"),
            Dirs::V2 { dir, .. } => {
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
    remove_dir_within(dir, Duration::from_secs(2))
}

/// `rmdir`, retried every 10 ms for up to `patience`; a folder already
/// gone is removed.
fn remove_dir_within(dir: &Path, patience: Duration) -> io::Result<()> {
    let deadline = Instant::now() + patience;
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

    /// A hybrid machine's mount table: v1 hierarchies, the unified one
    /// beside them, and other file systems.
    const HYBRID: &str = "proc /proc proc rw,nosuid 0 0\n\
        tmpfs /sys/fs/cgroup tmpfs ro,mode=755 0 0\n\
        cgroup2 /sys/fs/cgroup/unified cgroup2 rw,nsdelegate 0 0\n\
        cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,memory 0 0\n\
        cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n\
        short line\n";

    #[test]
    fn the_cgroup_hierarchies_are_read_from_the_mount_table() {
        let mounts = cgroup_mounts(HYBRID);
        let found: Vec<(&str, bool, String)> = mounts
            .iter()
            .map(|mount| {
                (
                    mount.dir.to_str().unwrap(),
                    mount.unified,
                    mount.options.join(","),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("/sys/fs/cgroup/unified", true, "rw,nsdelegate".to_owned()),
                (
                    "/sys/fs/cgroup/memory",
                    false,
                    "rw,nosuid,memory".to_owned()
                ),
                (
                    "/sys/fs/cgroup/cpu,cpuacct",
                    false,
                    "rw,cpu,cpuacct".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn a_user_who_is_not_root_is_told_how_to_get_a_cgroup() {
        let hybrid = cgroup_mounts(HYBRID);
        let v1_only: Vec<Mount> = cgroup_mounts(HYBRID)
            .into_iter()
            .filter(|mount| !mount.unified)
            .collect();
        assert_eq!(
            how_to_get_one_with(&v1_only),
            "; with cgroup v1, only root gets one"
        );
        let v2 = how_to_get_one_with(&hybrid);
        assert!(
            v2.starts_with("; a user of systemd gets a cgroup of their own by putting `"),
            "{v2}"
        );
        assert!(v2.contains(delegation::SYSTEMD_DELEGATION), "{v2}");
        // This process's own hint: none for root.
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        assert_eq!(how_to_get_one().is_empty(), root);
    }

    #[test]
    fn a_group_weighs_one_process_where_the_cpu_controller_is() {
        let v1 = |cpu: Option<&str>| Dirs::V1 {
            memory: PathBuf::from("/m"),
            cpuacct: PathBuf::from("/a"),
            pids: None,
            cpu: cpu.map(PathBuf::from),
        };
        assert_eq!(
            v1(Some("/c")).cpu_weight(),
            Some((PathBuf::from("/c/cpu.shares"), "1024"))
        );
        assert_eq!(v1(None).cpu_weight(), None);
        let v2 = |cpu| Dirs::V2 {
            dir: PathBuf::from("/g"),
            cpu,
        };
        assert_eq!(
            v2(true).cpu_weight(),
            Some((PathBuf::from("/g/cpu.weight"), "100"))
        );
        assert_eq!(v2(false).cpu_weight(), None);
    }

    /// Run groups' folders in `dir`, as a v1 parent without the cpu
    /// hierarchy or the pids one would have them.
    fn v1_in(dir: &Path, pids: bool, cpu: bool) -> Parent {
        Parent {
            dirs: Dirs::V1 {
                memory: dir.join("memory"),
                cpuacct: dir.join("cpuacct"),
                pids: pids.then(|| dir.join("pids")),
                cpu: cpu.then(|| dir.join("cpu")),
            },
            delegated: false,
        }
    }

    #[test]
    fn a_parent_says_whether_its_groups_cap_processes_and_weigh_cpu() {
        let dir = Path::new("/nowhere");
        for (pids, cpu) in [(false, false), (true, false), (false, true), (true, true)] {
            let parent = v1_in(dir, pids, cpu);
            assert_eq!(parent.caps_processes(), pids, "{pids} {cpu}");
            assert_eq!(parent.weighs_cpu(), cpu, "{pids} {cpu}");
        }
    }

    #[test]
    fn a_folder_is_removed_patiently_or_the_error_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty");
        fs::create_dir(&empty).unwrap();
        remove_dir_within(&empty, Duration::ZERO).unwrap();
        assert!(!empty.exists());
        // Gone already: nothing to do.
        remove_dir_within(&empty, Duration::ZERO).unwrap();
        // A folder that stays busy (here: not empty) is retried until the
        // patience runs out, then named in the error.
        let busy = dir.path().join("busy");
        fs::create_dir(&busy).unwrap();
        fs::write(busy.join("file"), "").unwrap();
        let started = Instant::now();
        let error = remove_dir_within(&busy, Duration::from_millis(300)).unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(300));
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: ", busy.display())),
            "{error}"
        );
        // One that frees up while it waits is removed.
        let freed = busy.join("file");
        let remover = thread::spawn(move || {
            thread::sleep(Duration::from_millis(100));
            fs::remove_file(freed).unwrap();
        });
        remove_dir_within(&busy, Duration::from_secs(60)).unwrap();
        remover.join().unwrap();
        assert!(!busy.exists());
    }

    #[test]
    fn the_processes_listed_in_a_procs_file_are_killed() {
        let dir = tempfile::tempdir().unwrap();
        let procs = dir.path().join("cgroup.procs");
        assert!(!kill_listed(&procs), "no file");
        fs::write(&procs, "").unwrap();
        assert!(!kill_listed(&procs), "no process");
        let mut child = std::process::Command::new("sleep")
            .arg("100")
            .spawn()
            .unwrap();
        fs::write(&procs, format!("{}\n", child.id())).unwrap();
        assert!(kill_listed(&procs));
        let status = child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(libc::SIGKILL)
        );
    }

    #[test]
    fn a_sweep_removes_the_groups_of_gone_runners_only() {
        let dir = tempfile::tempdir().unwrap();
        let parent = v1_in(dir.path(), true, false);
        let gone = owner::tests::earlier_runner_with_this_id().name(PREFIX, 1);
        let live = Owner::this_process().name(PREFIX, 2);
        for hierarchy in parent.dirs.all() {
            for name in [&gone, &live] {
                fs::create_dir_all(hierarchy.join(name)).unwrap();
            }
        }
        sweep_stale(&parent);
        for hierarchy in parent.dirs.all() {
            assert!(!hierarchy.join(&gone).exists(), "{}", hierarchy.display());
            assert!(hierarchy.join(&live).exists(), "{}", hierarchy.display());
        }
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
                cpu: true,
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
