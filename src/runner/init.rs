//! PID 1 of a run: made by the slot's zygote (`zygote.rs`) in a PID, mount
//! and IPC namespace of its own, it sets up the run's view of the machine,
//! starts the program, reaps every process of the run, and reports how the
//! program ended and what its processes used.
//!
//! # One run
//!
//! 1. Its own mounts, over the slot's: one fresh tmpfs, of the memory
//!    limit's size and at most [`WORK_FILES`] files, that is both the work
//!    folder `/tmp` (the program's files the slot shows there bound again,
//!    read only) and `/dev/shm`, so that what the run keeps in files is
//!    bounded by the limit whether or not a cgroup counts it (without a
//!    cgroup, mounted `noexec`); a fresh
//!    `/proc` for the run's PID namespace with `/proc/sys` and the
//!    kernel's triggers read-only. Before they are read-only, the limits
//!    of the slot's user namespace on what the kernel counts per user
//!    ([`USER_NAMESPACE_LIMITS`]): a run takes no more than these of the
//!    counts the caller's other processes share.
//! 2. It waits for the runner's word that the run is in its cgroup (a byte
//!    on the start pipe), so that everything the program starts is counted,
//!    then enters a cgroup namespace of its own: the run's groups are its
//!    root, and `/proc/self/cgroup` names no group of the machine.
//! 3. Its limits, which the program inherits: `RLIMIT_CPU` as a backstop,
//!    `RLIMIT_CORE` 0, `RLIMIT_NOFILE`, `RLIMIT_AS` where there is no
//!    cgroup, `RLIMIT_MSGQUEUE` ([`MESSAGE_QUEUE_BYTES`], POSIX message
//!    queues), `RLIMIT_SIGPENDING` ([`PENDING_SIGNALS`]), and
//!    `RLIMIT_NPROC`, which, inside the slot's user namespace,
//!    counts the processes of the slot's uid there (the zygote's, this
//!    one's, the program's): none of the caller's other processes, so the
//!    cap holds without a cgroup, and exactly. Then it drops every
//!    capability, for good.
//! 4. It starts the program in the work folder, with its standard streams,
//!    no other descriptor, no new privileges and the seccomp filter.
//! 5. It reaps every process of the run; when the program ends, it kills
//!    the rest (everything in the namespace but itself), and writes the
//!    report.
//!
//! # CPU time without a cgroup
//!
//! What a PID 1 reaps is the CPU time of the processes whose parents
//! waited for them: a program whose children ignore `SIGCHLD` has them
//! reaped by the kernel itself, their time added to no one's. Where the
//! kernel lets an unprivileged process count its own CPU time
//! (`kernel.perf_event_paranoid` at most 2), this PID 1 opens a task-clock
//! counter on itself, inherited by every process it starts and theirs,
//! each adding its count to it as it exits however it is reaped, before
//! it starts the program: the report's CPU time is the greater of the two.
//! (With a cgroup, the runner reads the group's, which counts everything.)
//! The kernel takes the counter away from a process that runs a file it
//! may not read (it becomes undumpable): so without a cgroup, the run's
//! `/tmp` and `/dev/shm` do not let it run the files it writes, and it can
//! make no `memfd` (`seccomp.rs`). The counter is read at the end: the
//! time of processes the kernel reaps by itself stops the run only there
//! (or at the wall-clock limit), while `/proc` shows the others at once.
//!
//! A slot's trial run (the first, which starts no program) checks from
//! inside that every hidden path is absent or empty, as the program would
//! see it (`sandbox/filesystem.rs`).
//!
//! # The report
//!
//! One line on the status descriptor: `exit CODE` or `signal NUMBER`, then
//! `cpu_us MICROSECONDS maxrss_kb KIB clock 0|1`: the CPU time of every
//! process of the run (what it reaped, `getrusage(RUSAGE_CHILDREN)`, or
//! the task clock's count, the greater), the largest resident size of any
//! of them, and whether the task clock counted; the runner's measures when
//! it has no cgroup. Or `error MESSAGE` when the program could not be
//! started, or `visible PATH` when a trial run found a hidden path in
//! reach.
//!
//! # Safety from the program
//!
//! As PID 1 of its namespace, it gets no signal from inside the namespace
//! that it has no handler for (`SIGKILL` included). Its descriptors are
//! close-on-exec and it is not dumpable, so the program can neither
//! inherit the report's pipe nor open it through `/proc/1/fd`, and cannot
//! forge the line.

use std::ffi::{CString, OsString};
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;
use std::time::Duration;

use super::limits::OPEN_FILES;
use super::message::{RunDescriptors, RunRequest};
use super::rusage::children_usage;
use super::termination::Exit;

/// The most files and folders a run's `/tmp` and `/dev/shm` hold together:
/// each costs the kernel memory that the tmpfs's size does not count.
pub const WORK_FILES: u64 = 16_384;

/// The most bytes a run may hold in POSIX message queues (`RLIMIT_MSGQUEUE`,
/// counted per uid); never more than its memory limit, nor than the hard
/// limit the judge has.
pub const MESSAGE_QUEUE_BYTES: u64 = 512 << 10;

/// The most signals a run may have queued (`RLIMIT_SIGPENDING`, counted per
/// uid, in the caller's count too when the judge is not root); lower where
/// the judge's hard limit is.
pub const PENDING_SIGNALS: u64 = 256;

/// The limits of the slot's user namespace on what the kernel counts per
/// user, as files of `/proc/sys/user`: a run's inotify instances and
/// watches, counted in the caller's counts too when the judge is not root.
pub const USER_NAMESPACE_LIMITS: &[(&str, u64)] =
    &[("max_inotify_instances", 8), ("max_inotify_watches", 8_192)];

/// The writable places of `/proc` made read-only in each run, as
/// bubblewrap itself tries to: the settings and the kernel's triggers.
const PROC_READ_ONLY: &[&str] = &["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"];

/// What is the same for every run of a slot: the program, the files it
/// needs in the work folder, the seccomp filter.
pub(crate) struct RunTemplate {
    /// The program's argument vector, the executable first.
    pub(crate) argv: Vec<CString>,
    /// The files, folders and links the slot shows in `/tmp`, to show
    /// again in each run's work folder.
    pub(crate) in_tmp: Vec<PathBuf>,
    /// Every path at which a hidden file or folder lies on the machine,
    /// which the trial run checks is absent or empty.
    pub(crate) hidden: Vec<PathBuf>,
    /// The seccomp filter (`struct sock_filter`s), or empty for none.
    pub(crate) filter: Vec<u8>,
}

/// Sets up the run and serves as its PID 1 (see the [module docs](self));
/// never returns.
pub(crate) fn serve(request: &RunRequest, fds: RunDescriptors, template: &RunTemplate) -> ! {
    // SAFETY: prctl and setsid on this process alone. A session of its own:
    // the zygote and bubblewrap are in no group the run's processes can
    // signal (a group kill from inside reaches only the run).
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        libc::setsid();
    }
    let mut report = std::fs::File::from(fds.status);
    let fail = |report: &mut std::fs::File, what: &str, error: std::io::Error| -> ! {
        // Nothing to do if the runner is gone.
        let _ = writeln!(report, "error {what}: {error}");
        std::process::exit(127)
    };
    if let Err(error) = mount_own_view(request, &template.in_tmp) {
        fail(&mut report, "cannot set up the run", error);
    }
    let mut start = [0u8];
    let mut start_pipe = std::fs::File::from(fds.start);
    if start_pipe.read_exact(&mut start).is_err() {
        // The runner gave up on the run.
        std::process::exit(1);
    }
    drop(start_pipe);
    // SAFETY: unshare on this process alone.
    if unsafe { libc::unshare(libc::CLONE_NEWCGROUP) } != 0 {
        let error = std::io::Error::last_os_error();
        fail(&mut report, "cannot make the run's cgroup namespace", error);
    }
    if let Err(error) = limit(request) {
        fail(&mut report, "cannot set the run's limits", error);
    }
    if let Err(error) = drop_capabilities() {
        fail(&mut report, "cannot drop capabilities", error);
    }
    let clock = task_clock();
    if request.trial != 0 {
        // Nothing to do if the runner is gone.
        let _ = match first_visible(&template.hidden) {
            Some(path) => writeln!(report, "visible {}", path.display()),
            None => writeln!(
                report,
                "exit 0 cpu_us 0 maxrss_kb 0 clock {}",
                u8::from(clock.is_some())
            ),
        };
        std::process::exit(0);
    }
    let main = match start_program(&fds.stdin, &fds.stdout, &fds.stderr, template) {
        Ok(pid) => pid,
        Err(error) => {
            let program = String::from_utf8_lossy(template.argv[0].as_bytes()).into_owned();
            fail(&mut report, &format!("cannot start {program:?}"), error)
        }
    };
    drop((fds.stdin, fds.stdout, fds.stderr));
    let mut main_status = 0;
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes only to `status`.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == main {
            main_status = status;
            // The program is over: end whatever it left behind (every
            // process of the namespace but this one), then reap them.
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        } else if pid < 0 {
            if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                continue;
            }
            // ECHILD: nobody is left.
            break;
        }
    }
    let (reaped, max_rss_kib) = children_usage();
    let counted = clock.as_ref().and_then(read_task_clock);
    let cpu = reaped.max(counted.unwrap_or_default());
    let ended = if libc::WIFSIGNALED(main_status) {
        format!("signal {}", libc::WTERMSIG(main_status))
    } else {
        format!("exit {}", libc::WEXITSTATUS(main_status))
    };
    // Nothing to do if the runner is gone.
    let _ = writeln!(
        report,
        "{ended} cpu_us {} maxrss_kb {max_rss_kib} clock {}",
        cpu.as_micros(),
        u8::from(counted.is_some())
    );
    std::process::exit(0);
}

/// `mount(2)`, its failure an error naming the target.
fn mount(
    source: &str,
    target: &str,
    kind: &str,
    flags: libc::c_ulong,
    data: &str,
) -> std::io::Result<()> {
    let text = |value: &str| CString::new(value).map_err(std::io::Error::other);
    let (source, target_c, kind, data) = (text(source)?, text(target)?, text(kind)?, text(data)?);
    let pointer = |value: &CString, empty: bool| {
        if empty {
            std::ptr::null()
        } else {
            value.as_ptr()
        }
    };
    // SAFETY: every pointer is to a NUL-terminated string that outlives the
    // call, or null.
    let result = unsafe {
        libc::mount(
            pointer(&source, source.as_bytes().is_empty()),
            target_c.as_ptr(),
            pointer(&kind, kind.as_bytes().is_empty()),
            flags,
            pointer(&data, data.as_bytes().is_empty()).cast(),
        )
    };
    if result == 0 {
        Ok(())
    } else {
        let error = std::io::Error::last_os_error();
        Err(std::io::Error::new(
            error.kind(),
            format!("{target}: {error}"),
        ))
    }
}

/// Binds `source` (a path, or `/proc/self/fd/N`) read-only at `target`.
fn bind_read_only(source: &str, target: &str) -> std::io::Result<()> {
    mount(source, target, "", libc::MS_BIND | libc::MS_REC, "")?;
    mount(
        "",
        target,
        "",
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        "",
    )
}

/// What the slot shows at a path of `/tmp`, held while a fresh `/tmp`
/// covers it.
enum InTmp {
    /// A file or folder, open (`O_PATH`), to bind again.
    Shown { fd: OwnedFd, folder: bool },
    /// A symbolic link, to make again.
    Link(PathBuf),
}

/// The run's own mounts (step 1 of the [module docs](self)).
fn mount_own_view(request: &RunRequest, in_tmp: &[PathBuf]) -> std::io::Result<()> {
    mount("", "/", "", libc::MS_REC | libc::MS_PRIVATE, "")?;
    // The program's files in /tmp, held open while a fresh /tmp covers them.
    let held: Vec<(InTmp, &PathBuf)> = in_tmp
        .iter()
        .map(|path| {
            if let Ok(target) = std::fs::read_link(path) {
                return Ok((InTmp::Link(target), path));
            }
            // O_PATH: a program that may only be run, not read, opens too.
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_PATH | libc::O_NOFOLLOW)
                .open(path)?;
            let folder = file.metadata()?.is_dir();
            let fd = OwnedFd::from(file);
            Ok((InTmp::Shown { fd, folder }, path))
        })
        .collect::<std::io::Result<_>>()?;
    // One tmpfs for /tmp and /dev/shm: their files share one size. Where
    // no cgroup counts the run's CPU time (an address-space limit says so),
    // the files it writes cannot be run: one it may run but not read would
    // run without the task clock (see the module docs).
    let options = format!(
        "size={},nr_inodes={WORK_FILES},mode=0755",
        request.work_bytes.max(1 << 20)
    );
    let hardened = libc::MS_NOSUID | libc::MS_NODEV;
    let no_cgroup = request.address_space > 0;
    let work = if no_cgroup {
        hardened | libc::MS_NOEXEC
    } else {
        hardened
    };
    mount("tmpfs", "/tmp", "tmpfs", work, &options)?;
    for (folder, mode) in [("/tmp/shm", 0o1777), ("/tmp/work", 0o700)] {
        std::fs::create_dir(folder)?;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(mode))?;
    }
    mount("/tmp/shm", "/dev/shm", "", libc::MS_BIND, "")?;
    mount("/tmp/work", "/tmp", "", libc::MS_BIND, "")?;
    for (shown, path) in &held {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        match shown {
            InTmp::Link(target) => std::os::unix::fs::symlink(target, path)?,
            InTmp::Shown { fd, folder } => {
                if *folder {
                    std::fs::create_dir_all(path)?;
                } else {
                    std::fs::File::create(path)?;
                }
                let source = format!("/proc/self/fd/{}", fd.as_raw_fd());
                bind_read_only(&source, &path.to_string_lossy())?;
            }
        }
    }
    drop(held);
    mount("proc", "/proc", "proc", hardened | libc::MS_NOEXEC, "")?;
    for (name, limit) in USER_NAMESPACE_LIMITS {
        let path = std::path::Path::new("/proc/sys/user").join(name);
        if path.exists() {
            std::fs::write(&path, limit.to_string()).map_err(|error| {
                std::io::Error::new(error.kind(), format!("{}: {error}", path.display()))
            })?;
        }
    }
    for path in PROC_READ_ONLY {
        if std::path::Path::new(path).exists() {
            bind_read_only(path, path)?;
        }
    }
    // Best effort: without it the run is only less likely to be the
    // out-of-memory killer's first choice.
    let _ = std::fs::write("/proc/self/oom_score_adj", "1000");
    Ok(())
}

/// `struct perf_event_attr` as far as its first version (64 bytes), which
/// every kernel with `perf_event_open` takes.
#[repr(C)]
struct PerfEventAttr {
    kind: u32,
    size: u32,
    config: u64,
    sample_period: u64,
    sample_type: u64,
    read_format: u64,
    /// Bit 1 `inherit`, bit 5 `exclude_kernel`, bit 6 `exclude_hv`.
    flags: u64,
    wakeup_events: u32,
    bp_type: u32,
    config1: u64,
}

/// A task-clock counter on this process, inherited by every process it
/// starts from now on (see the [module docs](self)); `None` where the
/// kernel does not let it count.
fn task_clock() -> Option<OwnedFd> {
    const PERF_TYPE_SOFTWARE: u32 = 1;
    const PERF_COUNT_SW_TASK_CLOCK: u64 = 1;
    const INHERIT: u64 = 1 << 1;
    // Asked by unprivileged processes where perf_event_paranoid is 2.
    const EXCLUDE_KERNEL: u64 = 1 << 5;
    const EXCLUDE_HV: u64 = 1 << 6;
    const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;
    let attr = PerfEventAttr {
        kind: PERF_TYPE_SOFTWARE,
        size: std::mem::size_of::<PerfEventAttr>() as u32,
        config: PERF_COUNT_SW_TASK_CLOCK,
        sample_period: 0,
        sample_type: 0,
        read_format: 0,
        flags: INHERIT | EXCLUDE_KERNEL | EXCLUDE_HV,
        wakeup_events: 0,
        bp_type: 0,
        config1: 0,
    };
    // SAFETY: perf_event_open reads the struct it is given, of the size it
    // says; the descriptor it returns is owned here alone.
    unsafe {
        let fd = libc::syscall(
            libc::SYS_perf_event_open,
            &raw const attr,
            0,
            -1,
            -1,
            PERF_FLAG_FD_CLOEXEC,
        );
        (fd >= 0).then(|| OwnedFd::from_raw_fd(fd as RawFd))
    }
}

/// The task clock's count: the CPU time of this process and of every
/// process that inherited the counter and has exited.
fn read_task_clock(clock: &OwnedFd) -> Option<Duration> {
    let mut nanoseconds = [0u8; 8];
    std::fs::File::from(clock.try_clone().ok()?)
        .read_exact(&mut nanoseconds)
        .ok()?;
    Some(Duration::from_nanos(u64::from_ne_bytes(nanoseconds)))
}

/// The first of `hidden` that a program of the run could see: present, and
/// not an empty folder nor `/dev/null` (a cover).
fn first_visible(hidden: &[PathBuf]) -> Option<&PathBuf> {
    hidden.iter().find(|path| {
        let Ok(metadata) = std::fs::symlink_metadata(path) else {
            return false;
        };
        let file_type = metadata.file_type();
        if file_type.is_dir() {
            // One it cannot list shows it nothing either.
            std::fs::read_dir(path).is_ok_and(|mut entries| entries.next().is_some())
        } else if file_type.is_char_device() {
            metadata.rdev() != libc::makedev(1, 3)
        } else {
            true
        }
    })
}

/// The run's limits (step 3 of the [module docs](self)).
fn limit(request: &RunRequest) -> std::io::Result<()> {
    let set = |resource, soft: u64, hard: u64| {
        let limit = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit reads the struct it is given.
        if unsafe { libc::setrlimit(resource, &limit) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    };
    set(
        libc::RLIMIT_CPU,
        request.cpu_seconds,
        request.cpu_seconds + 1,
    )?;
    set(libc::RLIMIT_CORE, 0, 0)?;
    // At most `most`, or the hard limit it has, if lower (raising a hard
    // limit takes a capability of the machine's).
    let lower = |resource, most: u64| {
        let mut current = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit fills the struct it is given.
        if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // `rlim_t` is narrower than `u64` on 32-bit targets.
        #[allow(clippy::useless_conversion)]
        let value = most.min(u64::from(current.rlim_max));
        set(resource, value, value)
    };
    lower(
        libc::RLIMIT_MSGQUEUE,
        MESSAGE_QUEUE_BYTES.min(request.work_bytes),
    )?;
    lower(libc::RLIMIT_SIGPENDING, PENDING_SIGNALS)?;
    let files = request.open_files.clamp(16, OPEN_FILES);
    set(libc::RLIMIT_NOFILE, files, files)?;
    if request.address_space > 0 {
        set(
            libc::RLIMIT_AS,
            request.address_space,
            request.address_space,
        )?;
    }
    if request.processes > 0 {
        // The zygote and this process count too.
        let processes = request.processes + 2;
        set(libc::RLIMIT_NPROC, processes, processes)?;
    }
    Ok(())
}

/// Drops every capability of this process and of what it starts: the
/// bounding set, the ambient ones, then the effective, permitted and
/// inheritable ones.
fn drop_capabilities() -> std::io::Result<()> {
    let check = |result: libc::c_int| {
        if result == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    };
    // SAFETY: prctl and capset on this process alone; capset reads the two
    // structs it is given.
    unsafe {
        for capability in 0..64 {
            if libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) != 0
                && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
            {
                return Err(std::io::Error::last_os_error());
            }
        }
        check(libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        ))?;
        // _LINUX_CAPABILITY_VERSION_3: two 32-bit sets of each kind.
        let header = [0x2008_0522u32, 0];
        let data = [0u32; 6];
        check(libc::syscall(libc::SYS_capset, header.as_ptr(), data.as_ptr()) as libc::c_int)
    }
}

/// Starts the program (step 4 of the [module docs](self)); its process id,
/// or why it could not start (from the child, through a pipe).
fn start_program(
    stdin: &OwnedFd,
    stdout: &OwnedFd,
    stderr: &OwnedFd,
    template: &RunTemplate,
) -> std::io::Result<libc::pid_t> {
    let (failed_read, failed_write) = super::child_setup::pipe()?;
    let mut argv: Vec<*const libc::c_char> = template.argv.iter().map(|arg| arg.as_ptr()).collect();
    argv.push(std::ptr::null());
    let program = libc::sock_fprog {
        len: (template.filter.len() / 8) as u16,
        filter: template.filter.as_ptr() as *mut libc::sock_filter,
    };
    let tmp = c"/tmp";
    let streams: [RawFd; 3] = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
    // SAFETY: this process is single-threaded, so the child may do anything;
    // it only makes system calls on data prepared above, then execs or
    // exits.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: the child, as above.
        unsafe {
            let fail = |fd: RawFd| -> ! {
                let error = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
                libc::write(fd, (&raw const error).cast(), 4);
                libc::_exit(127)
            };
            let failed = failed_write.as_raw_fd();
            for (target, &source) in streams.iter().enumerate() {
                if libc::dup2(source, target as RawFd) < 0 {
                    fail(failed);
                }
            }
            super::child_setup::close_on_exec_from(3);
            // A group of its own, as a shell gives a command: killing its
            // parent's group (this PID 1's) does not kill the program.
            if libc::setpgid(0, 0) != 0
                || libc::chdir(tmp.as_ptr()) != 0
                || libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            {
                fail(failed);
            }
            if program.len > 0
                && libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER,
                    0,
                    &raw const program,
                ) != 0
            {
                fail(failed);
            }
            libc::execv(argv[0], argv.as_ptr());
            fail(failed)
        }
    }
    drop(failed_write);
    let mut errno = [0u8; 4];
    let mut failed = std::fs::File::from(failed_read);
    match failed.read_exact(&mut errno) {
        // The pipe closed on exec: the program runs.
        Err(_) => Ok(pid),
        Ok(()) => {
            let mut status = 0;
            // SAFETY: reaps the child, which has exited.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            Err(std::io::Error::from_raw_os_error(i32::from_ne_bytes(errno)))
        }
    }
}

/// The argument vector `program` as C strings.
pub(crate) fn c_strings(program: &[OsString]) -> Vec<CString> {
    program
        .iter()
        .map(|arg| CString::new(arg.as_bytes()).expect("arguments hold no NUL byte"))
        .collect()
}

/// Adopts a descriptor number given on the command line.
///
/// # Safety
///
/// `fd` must be an open descriptor that no one else in this process owns.
pub(crate) unsafe fn adopt(fd: RawFd) -> OwnedFd {
    // SAFETY: as the caller promises.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// Reads the init's report to the end (every writer is dead by now).
pub(crate) fn read_report(read: OwnedFd) -> Option<InitReport> {
    let mut text = String::new();
    std::fs::File::from(read).read_to_string(&mut text).ok()?;
    parse_report(&text)
}

/// A parsed report line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum InitReport {
    /// The program ran: how it ended, the CPU time of every process of the
    /// run as the init counted it, the largest resident size of one, in
    /// bytes, and whether the task clock counted (see the [module
    /// docs](self)).
    Ran {
        exit: Exit,
        cpu: Duration,
        max_rss_bytes: u64,
        task_clock: bool,
    },
    /// The program could not be started.
    NotStarted(String),
    /// A trial run found this hidden path in reach.
    Visible(String),
}

/// Reads the init's report line; `None` when there is none (the sandbox
/// failed before the init ran, or the init was killed).
pub(crate) fn parse_report(line: &str) -> Option<InitReport> {
    if let Some(message) = line.strip_prefix("error ") {
        return Some(InitReport::NotStarted(message.trim().to_owned()));
    }
    if let Some(path) = line.strip_prefix("visible ") {
        return Some(InitReport::Visible(path.trim_end_matches('\n').to_owned()));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |at: usize| words.get(at)?.parse::<i64>().ok();
    let exit = match *words.first()? {
        "exit" => Exit::Status(number(1)? as i32),
        "signal" => Exit::Signal(number(1)? as i32),
        _ => return None,
    };
    if words.get(2) != Some(&"cpu_us") || words.get(4) != Some(&"maxrss_kb") {
        return None;
    }
    let task_clock = words.get(6) == Some(&"clock") && number(7) == Some(1);
    Some(InitReport::Ran {
        exit,
        cpu: Duration::from_micros(number(3)?.max(0) as u64),
        max_rss_bytes: number(5)?.max(0) as u64 * 1024,
        task_clock,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::in_child::{errno, in_child};
    use crate::runner::sandbox_user::judge_is_root;

    /// Spins until this thread has used `milliseconds` of CPU time. Calls
    /// only clock_gettime: fit for a forked child.
    fn spin(milliseconds: i64) {
        let used = || {
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: clock_gettime writes only `now`.
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
            now.tv_sec * 1_000 + now.tv_nsec / 1_000_000
        };
        let start = used();
        while used() - start < milliseconds {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn the_task_clock_counts_this_process_and_the_children_it_reaped() {
        let [opened, counted_ms, cpu, cloexec] = in_child(|| {
            // On one processor, so that a counter of another processor
            // would count nothing.
            // SAFETY: the affinity calls read and write only `set`.
            let cpu = unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set);
                let cpu = (0..libc::CPU_SETSIZE as usize)
                    .find(|&cpu| libc::CPU_ISSET(cpu, &set))
                    .unwrap_or(0);
                libc::CPU_ZERO(&mut set);
                libc::CPU_SET(cpu, &mut set);
                libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set);
                cpu as i64
            };
            let Some(clock) = task_clock() else {
                return [0, 0, cpu, 0];
            };
            // SAFETY: fcntl touches no memory.
            let flags = unsafe { libc::fcntl(clock.as_raw_fd(), libc::F_GETFD) };
            spin(40);
            // SAFETY: the grandchild spins and exits; the child reaps it.
            unsafe {
                let grandchild = libc::fork();
                if grandchild == 0 {
                    spin(40);
                    libc::_exit(0);
                }
                libc::waitpid(grandchild, std::ptr::null_mut(), 0);
            }
            let counted = read_task_clock(&clock).map_or(-1, |time| time.as_millis() as i64);
            [1, counted, cpu, i64::from(flags & libc::FD_CLOEXEC)]
        });
        // Root may always count; another user where perf_event_paranoid is
        // at most 2, if it leaves the kernel's time out.
        let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
            .ok()
            .and_then(|text| text.trim().parse::<i32>().ok());
        if opened == 0 && !judge_is_root() && paranoid.is_none_or(|level| level > 2) {
            eprintln!(
                "skipped: this machine's perf_event_paranoid ({paranoid:?}) lets no task clock count"
            );
            return;
        }
        assert_eq!(
            opened, 1,
            "a task clock, at perf_event_paranoid {paranoid:?}"
        );
        // The program the init starts must not hold it.
        assert_eq!(
            cloexec,
            i64::from(libc::FD_CLOEXEC),
            "the clock closes on exec"
        );
        // The 80 ms spun, and the child's own start and end, on processor
        // `cpu`.
        assert!(
            (72..2_000).contains(&counted_ms),
            "{counted_ms} ms counted of 80 ms spun on processor {cpu}"
        );
    }

    /// A run's request with the given limits.
    fn request(processes: u64, work_bytes: u64, address_space: u64, open_files: u64) -> RunRequest {
        RunRequest {
            processes,
            work_bytes,
            cpu_seconds: 5,
            address_space,
            open_files,
            trial: 0,
        }
    }

    /// The soft and hard limits of each resource, in a child after `limit`
    /// (the error number it gave, or 0, first), the message queue's hard
    /// limit lowered to `queue_hard` first.
    fn limits_after(request: &RunRequest, queue_hard: Option<u64>) -> [i64; 15] {
        in_child(|| {
            let get = |resource| {
                // SAFETY: getrlimit writes only `limit`.
                unsafe {
                    let mut limit: libc::rlimit = std::mem::zeroed();
                    libc::getrlimit(resource, &mut limit);
                    limit
                }
            };
            if let Some(hard) = queue_hard {
                let mut queue = get(libc::RLIMIT_MSGQUEUE);
                queue.rlim_max = hard as libc::rlim_t;
                queue.rlim_cur = queue.rlim_cur.min(queue.rlim_max);
                // SAFETY: setrlimit reads the struct it is given.
                unsafe { libc::setrlimit(libc::RLIMIT_MSGQUEUE, &queue) };
            }
            let mut values = [errno(limit(request)); 15];
            let resources = [
                libc::RLIMIT_CPU,
                libc::RLIMIT_CORE,
                libc::RLIMIT_MSGQUEUE,
                libc::RLIMIT_SIGPENDING,
                libc::RLIMIT_NOFILE,
                libc::RLIMIT_AS,
                libc::RLIMIT_NPROC,
            ];
            for (at, resource) in resources.into_iter().enumerate() {
                let limit = get(resource);
                values[1 + 2 * at] = limit.rlim_cur as i64;
                values[2 + 2 * at] = limit.rlim_max as i64;
            }
            values
        })
    }

    #[test]
    fn limit_sets_the_run_s_limits_and_lowers_those_counted_per_user() {
        // The test process's own limits, which its children inherit.
        let own = |resource| {
            // SAFETY: getrlimit writes only `limit`.
            unsafe {
                let mut limit: libc::rlimit = std::mem::zeroed();
                libc::getrlimit(resource, &mut limit);
                [limit.rlim_cur as i64, limit.rlim_max as i64]
            }
        };
        let queue = MESSAGE_QUEUE_BYTES as i64;
        // The machine's hard limit may be lower than the run's.
        let signals = (PENDING_SIGNALS as i64).min(own(libc::RLIMIT_SIGPENDING)[1]);
        let set = limits_after(&request(10, 1 << 30, 1 << 31, 64), None);
        assert_eq!(set[..5], [0, 5, 6, 0, 0], "CPU seconds, no core");
        assert_eq!(set[5..9], [queue, queue, signals, signals]);
        assert_eq!(set[9..11], [64, 64], "descriptors");
        assert_eq!(set[11..13], [1 << 31, 1 << 31], "address space");
        // The zygote and the init count as two processes of the run's uid.
        assert_eq!(set[13..], [12, 12], "processes");
        // Without a process or address space limit, those stay the
        // inherited ones; a small work folder bounds the queues; the
        // descriptors are 16 to OPEN_FILES.
        let unset = limits_after(&request(0, 100_000, 0, 4), None);
        assert_eq!(unset[..7], [0, 5, 6, 0, 0, 100_000, 100_000]);
        assert_eq!(unset[9..11], [16, 16]);
        assert_eq!(unset[11..13], own(libc::RLIMIT_AS));
        assert_eq!(unset[13..], own(libc::RLIMIT_NPROC));
        let files = OPEN_FILES as i64;
        let many = limits_after(&request(0, 1 << 30, 0, 100_000), None);
        assert_eq!(many[9..11], [files, files]);
        // A hard limit lower than the run's is kept: raising it would take
        // a capability of the machine's.
        let low = limits_after(&request(0, 1 << 30, 0, 64), Some(100_000));
        assert_eq!((low[0], low[5], low[6]), (0, 100_000, 100_000));
    }

    #[test]
    fn first_visible_passes_over_what_is_absent_empty_or_covered() {
        let folder = tempfile::tempdir().unwrap();
        let path = |name: &str| folder.path().join(name);
        std::fs::create_dir(path("empty")).unwrap();
        std::fs::create_dir(path("full")).unwrap();
        std::fs::write(path("full/file"), "x").unwrap();
        std::fs::write(path("file"), "").unwrap();
        std::os::unix::fs::symlink("/nowhere", path("link")).unwrap();
        let covered = [path("absent"), path("empty"), PathBuf::from("/dev/null")];
        assert_eq!(first_visible(&covered), None);
        for shown in [
            path("full"),
            path("file"),
            path("link"),
            PathBuf::from("/dev/zero"),
        ] {
            let hidden = [covered.as_slice(), std::slice::from_ref(&shown)].concat();
            assert_eq!(first_visible(&hidden), Some(&shown));
        }
        assert_eq!(first_visible(&[]), None);
    }

    #[test]
    fn a_report_line_without_its_cpu_or_memory_word_is_not_read() {
        for line in [
            "exit 0 cpu_us 1 maxrss_kb 2 clock 1",
            "exit 0 cpu_s 1 maxrss_kb 2 clock 1",
            "exit 0 cpu_us 1 maxrss_mb 2 clock 1",
            "exit 0 cpu_us 1",
        ] {
            let read = parse_report(line);
            assert_eq!(
                read.is_some(),
                line.starts_with("exit 0 cpu_us 1 maxrss_kb"),
                "{line}"
            );
        }
    }

    #[test]
    fn report_lines_are_read_back() {
        assert_eq!(
            parse_report("signal 11 cpu_us 1500 maxrss_kb 2048 clock 1\n"),
            Some(InitReport::Ran {
                exit: Exit::Signal(11),
                cpu: Duration::from_micros(1500),
                max_rss_bytes: 2 << 20,
                task_clock: true,
            })
        );
        assert_eq!(
            parse_report("exit 139 cpu_us 0 maxrss_kb 1 clock 0"),
            Some(InitReport::Ran {
                exit: Exit::Status(139),
                cpu: Duration::ZERO,
                max_rss_bytes: 1024,
                task_clock: false,
            })
        );
        assert_eq!(
            parse_report("visible /srv/data\n"),
            Some(InitReport::Visible("/srv/data".into()))
        );
        assert_eq!(
            parse_report("error cannot start \"x\": No such file"),
            Some(InitReport::NotStarted(
                "cannot start \"x\": No such file".into()
            ))
        );
        for bad in [
            "",
            "exit",
            "exit x cpu_us 1 maxrss_kb 1",
            "exit 1 cpu 1 rss 1",
        ] {
            assert_eq!(parse_report(bad), None, "{bad:?}");
        }
    }
}
