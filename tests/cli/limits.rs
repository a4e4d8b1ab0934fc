//! The limits of `stress` wherever its users run, through the binary: an
//! allocation far over the memory limit, a spinner, a sleeper, a bounded
//! fork bomb and `rotation-game solve`, each with the sandbox on and off,
//! and after each campaign nothing left behind: no group of the runner's
//! in any cgroup hierarchy, no process of the program.
//!
//! The same file runs in plain `cargo test` (here: root, cgroup v1) and,
//! compiled on the host, in a virtual machine with cgroup v2
//! (`.ci/cgroup-v2-vm.sh`): as root (in the root group, and in a group it
//! shares with other processes), and as a user in a delegated group,
//! alone there and beside another process. Its limits are generous, as
//! the virtual machine's processor is about 70 times slower.
//!
//! # What the environment tells the tests
//!
//! - `ROTATION_GAME_EXPECT_MEASUREMENT`: the `measurement` every report
//!   must give (`cgroup v1`, `cgroup v2`, or `rusage`, which reports give
//!   as `null`: no cgroup measures), so that a silent
//!   fallback to another one fails. Unset: with `CI` set and as root, any
//!   cgroup; otherwise whatever the machine gives, each form held to its
//!   own expectations (a memory hog is an MLE with a cgroup, a runtime
//!   error naming the address-space limit without).
//! - `ROTATION_GAME_SCOPE_IN`: a cgroup v2 group delegated to this user
//!   (its directory, `cgroup.procs`, `cgroup.subtree_control` and
//!   `cgroup.threads` the user's, as systemd's `Delegate=yes` gives),
//!   giving the memory and pids controllers to groups below it. Each
//!   `stress` then starts in a fresh group below it, as
//!   `systemd-run --user --scope -p Delegate=yes` would start it, and the
//!   test checks that the group is left as it was found: no group below it,
//!   no controller enabled.
//! - `ROTATION_GAME_SCOPE_SHARED` (with the above): another process shares
//!   each such group, so the runner cannot give controllers below it
//!   (cgroup v2's no internal processes rule) and must fall back cleanly.
//!
//! Bubblewrap is needed for the sandboxed forms: without it they are
//! skipped, and said so, except with `CI` set, where they fail.
//!
//! The virtual machine runs this module alone, in the command-line tests'
//! binary: `cli limits::`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::compile::compile;
use crate::support::fixtures::fixtures;
use crate::support::programs::{HOG, SPINNER};
use crate::support::skip::can_run;
use crate::support::{BINARY, is_root, survivors};

/// Sleeps for long, and so does a child it starts.
const SLEEPER: &str = r#"
#include <unistd.h>
int main(void) { fork(); sleep(1000); return 0; }
"#;

/// Starts 300 children that wait forever; exits 1 when a fork failed,
/// 0 when all 300 were started.
const FORK_BOMB: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int refused = 0;
    for (int i = 0; i < 300; i++) {
        pid_t pid = fork();
        if (pid == 0) { pause(); _exit(0); }
        if (pid < 0) refused++;
    }
    fprintf(stderr, "%d of 300 forks refused\n", refused);
    return refused > 0;
}
"#;

/// The test programs, built once: their folder's path, which no other
/// test's programs share, is in every command line they start, which is
/// how survivors are found.
struct Programs {
    hog: String,
    spinner: String,
    sleeper: String,
    fork_bomb: String,
}

fn programs() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let dir = fixtures("limits-programs");
        Programs {
            hog: compile(&dir, "hog", HOG),
            spinner: compile(&dir, "spinner", SPINNER),
            sleeper: compile(&dir, "sleeper", SLEEPER),
            fork_bomb: compile(&dir, "fork-bomb", FORK_BOMB),
        }
    })
}

/// What the machine gives `stress`, from one probe campaign.
struct Machine {
    sandbox: bool,
    /// `cgroup v1`, `cgroup v2` or `rusage`.
    measurement: String,
}

impl Machine {
    fn cgroup(&self) -> bool {
        self.measurement.starts_with("cgroup")
    }
}

/// The report's `measurement`: `cgroup v1` or `cgroup v2`, or `rusage`,
/// which the report gives as `null` (no cgroup measures).
fn measurement(isolation: &Value) -> String {
    match &isolation["measurement"] {
        Value::String(measurement) => measurement.clone(),
        Value::Null => "rusage".to_owned(),
        other => panic!("measurement {other}: {isolation}"),
    }
}

/// The probe, checked against what the environment expects.
fn machine() -> &'static Machine {
    static MACHINE: OnceLock<Machine> = OnceLock::new();
    MACHINE.get_or_init(|| {
        let campaign = stress(&format!("{BINARY} solve"), "auto", &["--boards", "1"]);
        assert_eq!(campaign.status, Some(0), "{}", campaign.stderr);
        let isolation = &campaign.report["isolation"];
        let machine = Machine {
            sandbox: isolation["sandboxed"] == true,
            measurement: measurement(isolation),
        };
        match std::env::var("ROTATION_GAME_EXPECT_MEASUREMENT") {
            Ok(expected) => assert_eq!(
                machine.measurement, expected,
                "ROTATION_GAME_EXPECT_MEASUREMENT: the runs were measured another way ({isolation})"
            ),
            Err(_) if std::env::var_os("CI").is_some() && is_root() => assert!(
                machine.cgroup(),
                "root under CI must have a writable cgroup, and runs were measured by {} ({isolation})",
                machine.measurement
            ),
            Err(_) => {}
        }
        if machine.measurement == "rusage" {
            let why = isolation["cgroup_missing"].as_str().unwrap_or_default();
            assert!(!why.is_empty(), "no reason for the missing cgroup: {isolation}");
            if std::env::var_os("ROTATION_GAME_SCOPE_SHARED").is_some() {
                assert!(
                    why.contains("no internal processes")
                        && why.contains("systemd-run --user --scope -p Delegate=yes --"),
                    "{why}"
                );
            }
        }
        machine
    })
}

/// The sandbox modes to test: off, and on where bubblewrap works (where
/// it does not, the test says so, and fails under CI).
fn sandbox_modes() -> Vec<&'static str> {
    if can_run(
        machine().sandbox,
        "bubblewrap (bwrap)",
        "its sandboxed form",
    ) {
        vec!["off", "on"]
    } else {
        vec!["off"]
    }
}

/// A fresh group below `ROTATION_GAME_SCOPE_IN` for one campaign, shared
/// with another process with `ROTATION_GAME_SCOPE_SHARED`.
struct Scope {
    dir: PathBuf,
    sharer: Option<Child>,
}

impl Scope {
    fn new() -> Option<Scope> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let delegated = PathBuf::from(std::env::var_os("ROTATION_GAME_SCOPE_IN")?);
        let dir = delegated.join(format!(
            "test-{}-{}.scope",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir).unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
        let sharer = std::env::var_os("ROTATION_GAME_SCOPE_SHARED").map(|_| {
            let child = in_group(&dir, "sleep", &["1000"]).spawn().unwrap();
            let deadline = Instant::now() + Duration::from_secs(60);
            while !members(&dir).contains(&child.id()) {
                assert!(Instant::now() < deadline, "the sharer never joined");
                std::thread::sleep(Duration::from_millis(20));
            }
            child
        });
        Some(Scope { dir, sharer })
    }

    /// Checks that the group is as it was made (nothing below it, no
    /// controller given, no process but the sharer), then removes it.
    fn check_left_as_found(mut self) {
        let below: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .flatten()
            .filter(|entry| entry.path().is_dir())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        let subtree = std::fs::read_to_string(self.dir.join("cgroup.subtree_control")).unwrap();
        let mut processes = members(&self.dir);
        if let Some(sharer) = &self.sharer {
            processes.retain(|pid| *pid != sharer.id());
        }
        if let Some(mut sharer) = self.sharer.take() {
            sharer.kill().unwrap();
            sharer.wait().unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::fs::remove_dir(&self.dir).is_err() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            below,
            Vec::<String>::new(),
            "groups left in {}",
            self.dir.display()
        );
        assert_eq!(
            subtree.trim(),
            "",
            "controllers left enabled in {}",
            self.dir.display()
        );
        assert_eq!(
            processes,
            Vec::<u32>::new(),
            "processes left in {}",
            self.dir.display()
        );
    }
}

/// `program args` started in cgroup `group` (by a shell that moves itself
/// there, then execs it).
fn in_group(group: &Path, program: &str, args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("echo $$ > \"$0/cgroup.procs\" && exec \"$@\"")
        .arg(group)
        .arg(program)
        .args(args);
    command
}

/// The processes in a v2 group.
fn members(group: &Path) -> Vec<u32> {
    std::fs::read_to_string(group.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect()
}

/// A finished campaign.
struct Campaign {
    status: Option<i32>,
    report: Value,
    stderr: String,
}

impl Campaign {
    fn runs(&self) -> &[Value] {
        self.report["runs"].as_array().expect("runs in the report")
    }
}

/// Runs `stress` on `program` with `--sandbox sandbox` and `extra` flags,
/// one run at a time, in a group of its own where the environment asks
/// for one; then checks that it left no group behind.
fn stress(program: &str, sandbox: &str, extra: &[&str]) -> Campaign {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let mut args = vec![
        "stress",
        "--program",
        program,
        "--seed",
        "1",
        "--jobs",
        "1",
        "--sandbox",
        sandbox,
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let scope = Scope::new();
    let mut command = match &scope {
        Some(scope) => in_group(&scope.dir, BINARY, &args),
        None => {
            let mut command = Command::new(BINARY);
            command.args(&args);
            command
        }
    };
    let child = crate::support::spawn_captured(&mut command);
    let runner = child.id();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let text = std::fs::read(&json).unwrap_or_else(|_| panic!("no JSON report: {stderr}"));
    if let Some(scope) = scope {
        scope.check_left_as_found();
    }
    let left = groups_left_by(runner);
    assert_eq!(left, Vec::<PathBuf>::new(), "groups left by {program}");
    Campaign {
        status: output.status.code(),
        report: serde_json::from_slice(&text).unwrap(),
        stderr,
    }
}

/// The groups named after runner `pid` in every cgroup hierarchy: at its
/// root, and in this process's own group (where `stress` started, unless
/// in a scope, which is checked on its own).
fn groups_left_by(pid: u32) -> Vec<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap();
    let prefix = format!("rotation-game-{pid}-");
    let mut left = Vec::new();
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [_, mount, kind, options, ..] = fields[..] else {
            continue;
        };
        let own_path = match kind {
            "cgroup2" => own.lines().find_map(|line| line.strip_prefix("0::")),
            "cgroup" => own.lines().find_map(|line| {
                let (controllers, path) = line.split_once(':')?.1.split_once(':')?;
                controllers
                    .split(',')
                    .any(|controller| options.split(',').any(|option| option == controller))
                    .then_some(path)
            }),
            _ => continue,
        };
        let root = PathBuf::from(mount);
        let mut dirs = vec![root.clone()];
        dirs.extend(own_path.map(|path| root.join(path.trim_start_matches('/'))));
        for dir in dirs {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if entry.file_name().to_string_lossy().starts_with(&prefix) {
                    left.push(entry.path());
                }
            }
        }
    }
    left.sort();
    left.dedup();
    left
}

/// Checks that no process of the test program `program` is left (after
/// 10 s at most for the killed to go); kills those left, and fails.
fn nothing_left_running(program: &str) {
    assert_eq!(
        survivors(program),
        Vec::<u32>::new(),
        "still running: {program}"
    );
}

/// The only run of a campaign that failed (exit status 1), with its
/// verdict and message.
fn only_failing_run(campaign: &Campaign) -> (&str, &str) {
    assert_eq!(campaign.status, Some(1), "{}", campaign.stderr);
    only_run(campaign)
}

/// The only run of a campaign, with its verdict and message.
fn only_run(campaign: &Campaign) -> (&str, &str) {
    let runs = campaign.runs();
    assert_eq!(runs.len(), 1, "{}", campaign.report);
    (
        runs[0]["verdict"].as_str().unwrap(),
        runs[0]["message"].as_str().unwrap_or_default(),
    )
}

#[test]
fn solve_is_accepted_with_and_without_the_sandbox() {
    for sandbox in sandbox_modes() {
        let campaign = stress(
            &format!("{BINARY} solve"),
            sandbox,
            &["--boards", "28", "--cases-per-run", "14"],
        );
        assert_eq!(campaign.status, Some(0), "{sandbox}: {}", campaign.stderr);
        assert_eq!(campaign.runs().len(), 2);
        for run in campaign.runs() {
            assert_eq!(run["verdict"], "AC", "{sandbox}: {run}");
        }
        let isolation = &campaign.report["isolation"];
        assert_eq!(measurement(isolation), machine().measurement);
        assert_eq!(isolation["sandboxed"], sandbox == "on", "{isolation}");
    }
}

#[test]
fn an_allocation_far_over_the_limit_is_stopped_at_the_limit() {
    let programs = programs();
    for sandbox in sandbox_modes() {
        let campaign = stress(
            &format!("{} 8192", programs.hog),
            sandbox,
            &[
                "--boards",
                "1",
                "--memory-limit",
                "64",
                "--time-limit",
                "20",
                "--wall-limit",
                "120",
            ],
        );
        let (verdict, message) = only_failing_run(&campaign);
        if machine().cgroup() {
            assert_eq!(verdict, "MLE", "{sandbox}: {message}");
            assert_eq!(
                message,
                "memory limit exceeded: the program reached the limit of 64 MiB and was stopped"
            );
            let peak = campaign.runs()[0]["peak_memory_bytes"].as_u64().unwrap();
            assert!((32 << 20..=64 << 20).contains(&peak), "{sandbox}: {peak}");
        } else {
            assert_eq!(verdict, "RTE", "{sandbox}: {message}");
            assert!(
                message.starts_with("runtime error: exit status 3; ")
                    && message.ends_with("memory is limited here by address space (64 MiB per process, no cgroup), so running out of it shows as a runtime error"),
                "{sandbox}: {message}"
            );
        }
        nothing_left_running(&programs.hog);
    }
}

/// Checks that the campaign's only run is a TLE whose message goes on with
/// `kind` after "time limit exceeded "; the message.
fn time_limit_exceeded<'a>(campaign: &'a Campaign, sandbox: &str, kind: &str) -> &'a str {
    let (verdict, message) = only_failing_run(campaign);
    assert_eq!(verdict, "TLE", "{sandbox}: {message}");
    assert!(
        message.starts_with(&format!("time limit exceeded {kind}")),
        "{sandbox}: {message}"
    );
    message
}

#[test]
fn a_spinner_is_stopped_by_the_cpu_time_limit() {
    let programs = programs();
    for sandbox in sandbox_modes() {
        let campaign = stress(
            &programs.spinner,
            sandbox,
            &["--boards", "1", "--time-limit", "1", "--wall-limit", "120"],
        );
        let message = time_limit_exceeded(&campaign, sandbox, "(CPU): used ");
        assert!(
            message.ends_with(" s of CPU time, over the limit of 1 s"),
            "{sandbox}: {message}"
        );
        // Stopped by the runner's checks, before the backstop RLIMIT_CPU
        // (at 2 s, then SIGKILL at 3 s) could: a safety bound.
        let cpu = campaign.runs()[0]["cpu_seconds"].as_f64().unwrap();
        assert!((1.0..3.0).contains(&cpu), "{sandbox}: {cpu}");
        nothing_left_running(&programs.spinner);
    }
}

#[test]
fn a_sleeper_and_its_child_are_stopped_by_the_wall_clock() {
    let programs = programs();
    for sandbox in sandbox_modes() {
        let campaign = stress(
            &programs.sleeper,
            sandbox,
            // CPU time far above what the sandbox's start can cost in the
            // virtual machine, whose clock runs on while a loaded host
            // keeps its processors waiting; a wall-clock limit below it,
            // which stops the run first, long enough for the sleeper to
            // start its child there.
            &["--boards", "1", "--time-limit", "5", "--wall-limit", "3"],
        );
        time_limit_exceeded(&campaign, sandbox, "(wall clock): still running after ");
        let run = &campaign.runs()[0];
        assert!(run["wall_seconds"].as_f64().unwrap() >= 3.0, "{run}");
        assert!(run["cpu_seconds"].as_f64().unwrap() < 5.0, "{run}");
        nothing_left_running(&programs.sleeper);
    }
}

/// A bounded fork bomb meets the process cap: the cgroup's `pids.max`, or
/// without a cgroup `RLIMIT_NPROC` in the sandbox's user namespace
/// (`process_cap: "rlimit"`); where no cap can be had, the report says so
/// (`process_cap: null`) and claims no `process_limit`.
#[test]
fn a_bounded_fork_bomb_meets_the_process_cap() {
    let programs = programs();
    for sandbox in sandbox_modes() {
        let campaign = stress(
            &programs.fork_bomb,
            sandbox,
            &["--boards", "1", "--time-limit", "20", "--wall-limit", "120"],
        );
        nothing_left_running(&programs.fork_bomb);
        let (verdict, message) = only_run(&campaign);
        let cap = &campaign.report["isolation"]["process_cap"];
        let limit = &campaign.report["limits"]["process_limit"];
        if machine().cgroup() {
            assert_eq!(verdict, "RTE", "{sandbox}: {message}");
            assert!(
                message.starts_with("runtime error: exit status 1; ")
                    && message.ends_with(
                        " attempts to start a process or thread failed at the limit of 256"
                    ),
                "{sandbox}: {message}"
            );
            assert_eq!(*limit, 256);
        } else if cap == "rlimit" {
            assert_eq!(verdict, "RTE", "{sandbox}: {message}");
            assert!(
                message.starts_with("runtime error: exit status 1"),
                "{message}"
            );
            assert_eq!(*limit, 256);
        } else {
            assert!(
                cap.is_null() && limit.is_null(),
                "{sandbox}: process_cap {cap}, yet the report claims process_limit {limit} ({verdict}: {message})"
            );
        }
    }
}
