//! A run weighs one share of the CPU: a program whose children each start
//! a session of their own and spin, judged by a second runner, takes no
//! more of the machine than one process would from a correct program
//! judged beside it.
//!
//! A test binary of its own: the probe (the same spinners outside any
//! sandbox or cgroup) takes the CPU from every process of the machine for
//! a few seconds, on purpose, and must not run beside other tests, whose
//! wall-clock limits it would break. Safe when it succeeds: the spinners
//! are found by a marker and killed, even when the test fails.

mod common;

use std::process::Command;
use std::time::Duration;

use common::attack::{attacker, command_line};
use common::processes::processes_with;
use common::programs::have_sandbox;

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// Kills the processes whose command line holds its marker when dropped:
/// spinners a test started, gone even when it fails.
struct Spinners(String);

impl Drop for Spinners {
    fn drop(&mut self) {
        for pid in processes_with(&self.0) {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
    }
}

/// Waits (10 s at most) for `count` processes marked `marker` to run.
fn wait_for_processes(marker: &str, count: usize) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while processes_with(marker).len() < count && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        processes_with(marker).len() >= count,
        "the spinners started"
    );
}

/// `stress` of a program that burns 300 ms of CPU, then answers right,
/// with a wall-clock limit of 2.5 s: its verdict.
fn correct_program_verdict() -> String {
    let program = command_line(&["burn", "300", BINARY, "solve"]);
    let (outcome, verdict) = {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("report.json");
        let output = common::seeded_stress(&program, 1)
            .args([
                "--sandbox",
                "on",
                "--time-limit",
                "2",
                "--wall-limit",
                "2.5",
            ])
            .args(["--json", json.to_str().unwrap()])
            .output()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let verdict = if output.status.code() == Some(0) {
            "AC".to_owned()
        } else {
            report["failure"]["run"]["verdict"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        (output, verdict)
    };
    drop(outcome);
    verdict
}

#[test]
fn a_program_spinning_in_a_hundred_sessions_takes_one_share_of_the_cpu() {
    let test = "a_program_spinning_in_a_hundred_sessions_takes_one_share_of_the_cpu";
    if !have_sandbox(test) {
        return;
    }
    // A second runner judges a program whose hundred children each try to
    // start a session of their own and spin; meanwhile a correct program
    // keeps its verdict.
    let marker = format!("spin-{}-1", std::process::id());
    let attacker_program = command_line(&["sessions", "100", &marker]);
    let mut second_runner =
        common::spawn_captured(common::seeded_stress(&attacker_program, 1).args([
            "--sandbox",
            "on",
            "--time-limit",
            "60",
            "--wall-limit",
            "60",
        ]));
    let spinners = Spinners(marker.clone());
    wait_for_processes(&marker, 101);
    let verdict = correct_program_verdict();
    let _ = second_runner.kill();
    let _ = second_runner.wait();
    drop(spinners);
    assert_eq!(verdict, "AC", "the correct program lost its verdict");
    // The probe: spinners outside any sandbox or cgroup, each in a session
    // of its own, take the CPU from the correct program (40 of them are
    // enough, and starve the machine, the test's own runner included, for
    // less time than a hundred).
    let marker = format!("spin-{}-2", std::process::id());
    let mut outside =
        common::spawn_captured(Command::new(attacker()).args(["sessions", "40", &marker]));
    let spinners = Spinners(marker.clone());
    wait_for_processes(&marker, 41);
    let starved = correct_program_verdict();
    let _ = outside.kill();
    let _ = outside.wait();
    drop(spinners);
    assert_eq!(starved, "TLE", "the probe takes the CPU from it");
}
