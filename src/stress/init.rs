//! PID 1 of a run's sandbox: starts the program, reaps every process of
//! the sandbox, and reports how the program ended and what its processes
//! used.
//!
//! # Why
//!
//! bubblewrap folds a program's death by signal N into exit status 128 + N,
//! so a crash (`SIGSEGV`) and `exit(139)` look alike; and with bubblewrap's
//! own PID 1, nothing the runner can wait for has used the program's CPU
//! time or memory. This init fixes both. It is the runner's executable run
//! again (with [`INIT_ARGUMENT`]): a program using the sandbox calls
//! [`serve_if_asked`] first thing in `main`, as `rotation-game` does.
//!
//! # The report
//!
//! One line on the status descriptor: `exit CODE` or `signal NUMBER`, then
//! `cpu_us MICROSECONDS maxrss_kb KIB`: the CPU time of every process it
//! reaped, and the largest resident size of any of them
//! (`getrusage(RUSAGE_CHILDREN)`), the runner's measure when it has no
//! cgroup. Or `error MESSAGE` when the program could not be started.
//!
//! # Safety from the program
//!
//! As PID 1 of its namespace, it gets no signal from inside the namespace
//! that it has no handler for (`SIGKILL` included). Its descriptor is
//! close-on-exec and it is not dumpable, so the program can neither inherit
//! the report's pipe nor open it through `/proc/1/fd`, and cannot forge the
//! line.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Command;
use std::time::Duration;

/// The first argument that makes the runner's executable act as init.
pub const INIT_ARGUMENT: &str = "__rotation-game-sandbox-init";

/// When the process was started with [`INIT_ARGUMENT`] (followed by the
/// status descriptor and the program's argument vector), acts as the
/// sandbox's init and exits; otherwise returns at once.
///
/// Call it first thing in `main` in every program that runs programs in
/// the sandbox: the sandbox starts that same executable as its init.
pub fn serve_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_none_or(|first| first != INIT_ARGUMENT) {
        return;
    }
    let status_fd = args.next().and_then(|fd| fd.to_str()?.parse::<i32>().ok());
    let program: Vec<OsString> = args.collect();
    match status_fd {
        Some(fd) if fd > 2 && !program.is_empty() => serve(fd, &program),
        // Not started by the runner: nothing to serve.
        _ => std::process::exit(2),
    }
}

/// Runs `program`, reaps everything, reports on `status_fd`, exits.
fn serve(status_fd: i32, program: &[OsString]) -> ! {
    // SAFETY: plain system calls on a descriptor this process was given
    // (the runner cleared its close-on-exec flag for us alone) and on
    // itself; no memory is shared.
    unsafe {
        libc::fcntl(status_fd, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    // SAFETY: the descriptor is open (given by the runner) and owned by
    // this process alone from here on.
    let mut report = unsafe { std::fs::File::from_raw_fd(status_fd) };
    let main = match Command::new(&program[0]).args(&program[1..]).spawn() {
        Ok(child) => child.id() as libc::pid_t,
        Err(error) => {
            // Nothing to do if the runner is gone.
            let _ = writeln!(report, "error cannot start {:?}: {error}", program[0]);
            std::process::exit(127);
        }
    };
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
    let (cpu, max_rss_kib) = children_usage();
    let ended = if libc::WIFSIGNALED(main_status) {
        format!("signal {}", libc::WTERMSIG(main_status))
    } else {
        format!("exit {}", libc::WEXITSTATUS(main_status))
    };
    // Nothing to do if the runner is gone.
    let _ = writeln!(
        report,
        "{ended} cpu_us {} maxrss_kb {max_rss_kib}",
        cpu.as_micros()
    );
    std::process::exit(0);
}

/// The CPU time of the reaped children of this process (user plus system)
/// and the largest resident size of any of them, in KiB.
pub(crate) fn children_usage() -> (Duration, u64) {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    (cpu_of(&usage), usage.ru_maxrss.max(0) as u64)
}

/// The user plus system time of a `rusage`.
pub(crate) fn cpu_of(usage: &libc::rusage) -> Duration {
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// How the program ended, as the init reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// This signal killed it.
    Signalled(i32),
}

/// Reads the init's report to the end (every writer is dead by now).
pub(crate) fn read_report(read: OwnedFd) -> Option<Report> {
    let mut text = String::new();
    std::fs::File::from(read).read_to_string(&mut text).ok()?;
    parse_report(&text)
}

/// A parsed report line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Report {
    /// The program ran: how it ended, the CPU time of every process the
    /// init reaped, and the largest resident size of one, in bytes.
    Ran {
        ended: Ended,
        cpu: Duration,
        max_rss_bytes: u64,
    },
    /// The program could not be started.
    NotStarted(String),
}

/// Reads the init's report line; `None` when there is none (the sandbox
/// failed before the init ran, or the init was killed).
pub(crate) fn parse_report(line: &str) -> Option<Report> {
    if let Some(message) = line.strip_prefix("error ") {
        return Some(Report::NotStarted(message.trim().to_owned()));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |at: usize| words.get(at)?.parse::<i64>().ok();
    let ended = match *words.first()? {
        "exit" => Ended::Exited(number(1)? as i32),
        "signal" => Ended::Signalled(number(1)? as i32),
        _ => return None,
    };
    if words.get(2) != Some(&"cpu_us") || words.get(4) != Some(&"maxrss_kb") {
        return None;
    }
    Some(Report::Ran {
        ended,
        cpu: Duration::from_micros(number(3)?.max(0) as u64),
        max_rss_bytes: number(5)?.max(0) as u64 * 1024,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines_are_read_back() {
        assert_eq!(
            parse_report("signal 11 cpu_us 1500 maxrss_kb 2048\n"),
            Some(Report::Ran {
                ended: Ended::Signalled(11),
                cpu: Duration::from_micros(1500),
                max_rss_bytes: 2 << 20,
            })
        );
        assert_eq!(
            parse_report("exit 139 cpu_us 0 maxrss_kb 1"),
            Some(Report::Ran {
                ended: Ended::Exited(139),
                cpu: Duration::ZERO,
                max_rss_bytes: 1024,
            })
        );
        assert_eq!(
            parse_report("error cannot start \"x\": No such file"),
            Some(Report::NotStarted(
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
