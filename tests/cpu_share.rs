//! A run weighs one share of the CPU: a program whose children each start
//! a session of their own and spin, judged by a second runner, takes no
//! more of the machine than one process would from a correct program
//! judged beside it.
//!
//! A test binary of its own, apart from the library's and the command
//! line's: the probe (the same spinners outside any sandbox or cgroup)
//! takes the CPU from every process of the machine for a few seconds, on
//! purpose, and must not run beside other tests, whose wall-clock limits it
//! would break. Cargo runs test binaries one after another, so nothing
//! else of `cargo test` runs beside this one. Safe when it succeeds: the
//! spinners are found by a marker and killed, even when the test fails.

#![cfg(unix)]

/// The helpers the test binaries share (`tests/support/`).
mod support {
    pub mod attack;
    pub mod compile;
    pub mod fixtures;
    pub mod isolation;
    pub mod proc_stat;
    pub mod processes;
    pub mod skip;
}

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use support::attack::{attacker, command_line};
use support::isolation::isolation;
use support::processes::{KillMarked, processes_with};
use support::skip::require;

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// `rotation-game stress --program PROGRAM --seed 1 --boards 1 --sandbox on`
/// with `extra` flags, and no standard input.
fn stress(program: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(BINARY);
    command
        .args(["stress", "--program", program])
        .args(["--seed", "1", "--boards", "1", "--sandbox", "on"])
        .args(extra)
        .stdin(Stdio::null());
    command
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
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let output = stress(
        &program,
        &[
            "--time-limit",
            "2",
            "--wall-limit",
            "2.5",
            "--json",
            json.to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    if output.status.code() == Some(0) {
        return "AC".to_owned();
    }
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    report["failure"]["run"]["verdict"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The correct program's verdict while `spinning`, just started, runs
/// `count` processes marked `marker`; all of them ended after.
fn verdict_beside(mut spinning: Child, marker: &str, count: usize) -> String {
    let spinners = KillMarked(marker.to_owned());
    wait_for_processes(marker, count);
    let verdict = correct_program_verdict();
    let _ = spinning.kill();
    let _ = spinning.wait();
    drop(spinners);
    verdict
}

#[test]
fn a_program_spinning_in_a_hundred_sessions_takes_one_share_of_the_cpu() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A second runner judges a program whose hundred children each try to
    // start a session of their own and spin; meanwhile a correct program
    // keeps its verdict.
    let marker = format!("spin-{}-1", std::process::id());
    let attacker_program = command_line(&["sessions", "100", &marker]);
    let second_runner = stress(
        &attacker_program,
        &["--time-limit", "60", "--wall-limit", "60"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let verdict = verdict_beside(second_runner, &marker, 101);
    assert_eq!(verdict, "AC", "the correct program lost its verdict");
    // The probe: spinners outside any sandbox or cgroup, each in a session
    // of its own, take the CPU from the correct program (40 of them are
    // enough, and starve the machine, the test's own runner included, for
    // less time than a hundred).
    let marker = format!("spin-{}-2", std::process::id());
    let outside = Command::new(attacker())
        .args(["sessions", "40", &marker])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let starved = verdict_beside(outside, &marker, 41);
    assert_eq!(starved, "TLE", "the probe takes the CPU from it");
}
