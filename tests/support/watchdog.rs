//! A watchdog for the test binaries: a command a test runs that is still
//! running after [`stuck_after`] is killed, with every process it started,
//! once what each of them was doing is written to standard error. The test
//! that ran it then fails on what it got (a status of SIGKILL, partial
//! output) instead of leaving CI waiting for its time limit, and the log
//! says where it stood.
//!
//! No command of the suites needs more than a few minutes; the limit is
//! ten, or `ROTATION_GAME_TEST_WATCHDOG_SECONDS`.

use std::fs;
use std::io::Write;
use std::sync::Once;
use std::time::Duration;

/// How long a command the tests run may take before it is taken as stuck.
pub fn stuck_after() -> Duration {
    std::env::var("ROTATION_GAME_TEST_WATCHDOG_SECONDS")
        .ok()
        .and_then(|seconds| seconds.parse().ok())
        .map_or(Duration::from_secs(600), Duration::from_secs)
}

/// Starts the watchdog, once per test binary; called wherever a test
/// starts a command.
pub fn arm() {
    static ARMED: Once = Once::new();
    ARMED.call_once(|| {
        let limit = stuck_after();
        let every = (limit / 10).clamp(Duration::from_millis(100), Duration::from_secs(15));
        std::thread::Builder::new()
            .name("test-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(every);
                    watch(limit);
                }
            })
            .expect("the watchdog thread starts");
    });
}

/// Kills each child of this process that has run longer than `limit`,
/// with its descendants, after writing down what they were doing.
fn watch(limit: Duration) {
    let report = end_stuck(limit, |_| true);
    // Written past the test harness's capture: the log shows it even when
    // the test that ran the command passes after all.
    let _ = std::io::stderr().lock().write_all(report.as_bytes());
}

/// Kills each child of this process that `chosen` picks and that has run
/// longer than `limit`, with its descendants; says what they were doing.
fn end_stuck(limit: Duration, chosen: impl Fn(u32) -> bool) -> String {
    let table = processes();
    let us = std::process::id();
    let mut report = String::new();
    for stuck in table
        .iter()
        .filter(|process| process.parent == us && !process.zombie && chosen(process.pid))
        .filter(|process| process.age().is_some_and(|age| age > limit))
    {
        let tree = descendants(&table, stuck.pid);
        report.push_str(&format!(
            "\nwatchdog: process {} has run more than {} s; killing it and its {} descendants. What they were doing:\n",
            stuck.pid,
            limit.as_secs_f64(),
            tree.len() - 1
        ));
        for &pid in &tree {
            report.push_str(&describe(pid));
        }
        for &pid in tree.iter().rev() {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        }
    }
    report
}

/// One line of the process table.
struct Process {
    pid: u32,
    parent: u32,
    zombie: bool,
    /// When it started, in clock ticks since boot.
    started: u64,
}

impl Process {
    /// How long it has run; `None` where the clock cannot be read.
    fn age(&self) -> Option<Duration> {
        let uptime: f64 = fs::read_to_string("/proc/uptime")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        // SAFETY: sysconf has no memory-safety preconditions.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if ticks <= 0 {
            return None;
        }
        let started = self.started as f64 / ticks as f64;
        Some(Duration::from_secs_f64((uptime - started).max(0.0)))
    }
}

/// Every process this one can see.
fn processes() -> Vec<Process> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
            // After the command name, which may hold spaces and brackets.
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            Some(Process {
                pid,
                zombie: *fields.first()? == "Z",
                parent: fields.get(1)?.parse().ok()?,
                started: fields.get(19)?.parse().ok()?,
            })
        })
        .collect()
}

/// `root` and every process under it, parents before children.
fn descendants(table: &[Process], root: u32) -> Vec<u32> {
    let mut tree = vec![root];
    let mut next = 0;
    while let Some(&pid) = tree.get(next) {
        tree.extend(
            table
                .iter()
                .filter(|process| process.parent == pid)
                .map(|process| process.pid),
        );
        next += 1;
    }
    tree
}

/// A process's command line, and the state, kernel wait channel and (where
/// readable) kernel stack of each of its threads.
fn describe(pid: u32) -> String {
    let read = |path: String| fs::read_to_string(path).unwrap_or_default();
    let command = read(format!("/proc/{pid}/cmdline")).replace('\0', " ");
    let mut text = format!("  {pid}: {}\n", command.trim());
    let Ok(threads) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return text;
    };
    for thread in threads.flatten() {
        let task = thread.path();
        let task = task.display();
        let state = read(format!("{task}/stat"))
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next().map(str::to_owned))
            .unwrap_or_default();
        text.push_str(&format!(
            "    thread {} {:?} state {} waiting in {}\n",
            thread.file_name().to_string_lossy(),
            read(format!("{task}/comm")).trim(),
            state,
            read(format!("{task}/wchan")).trim(),
        ));
        for frame in read(format!("{task}/stack")).lines().take(12) {
            text.push_str(&format!("      {frame}\n"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};

    use super::*;

    #[test]
    fn a_stuck_command_and_what_it_started_are_killed_and_described() {
        let marker = format!("4000.{}", std::process::id());
        let mut child = Command::new("sh")
            .args(["-c", &format!("sleep {marker} & wait")])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // Not yet stuck: left alone.
        assert_eq!(
            end_stuck(Duration::from_secs(60), |pid| pid == child.id()),
            ""
        );
        std::thread::sleep(Duration::from_millis(600));
        let report = end_stuck(Duration::from_millis(500), |pid| pid == child.id());
        assert!(
            report.contains("killing it and its 1 descendants"),
            "{report}"
        );
        assert!(report.contains(&format!("sleep {marker}")), "{report}");
        assert!(report.contains("state S"), "{report}");
        assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
        // The grandchild is gone too: nothing holds the output pipe open.
        let marked = || {
            processes().iter().any(|process| {
                !process.zombie
                    && fs::read(format!("/proc/{}/cmdline", process.pid))
                        .is_ok_and(|line| String::from_utf8_lossy(&line).contains(&marker))
            })
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while marked() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!marked(), "the grandchild survived");
    }

    #[test]
    fn a_child_is_its_own_descendant_and_its_children_follow_it() {
        let process = |pid, parent| Process {
            pid,
            parent,
            zombie: false,
            started: 0,
        };
        let table = [
            process(1, 0),
            process(5, 1),
            process(7, 5),
            process(9, 1),
            process(3, 7),
        ];
        assert_eq!(descendants(&table, 5), [5, 7, 3]);
    }
}
