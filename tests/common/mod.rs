//! Helpers shared by the integration tests: the statement's sample, the
//! snapshot settings, and running the binary.

#![allow(dead_code, unused_imports)] // Each test file uses its own part of this module.

#[cfg(unix)]
pub mod attack;
#[cfg(unix)]
pub mod processes;
#[cfg(unix)]
pub mod programs;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub use rotation_game::sample::{
    INPUT as SAMPLE_INPUT, OUTPUT as SAMPLE_OUTPUT, boards as sample_boards,
};

/// Runs `body` with insta keeping snapshots in the top-level `snapshots/`
/// folder, named without the module path.
pub fn with_snapshots(body: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(body);
}

/// The `rotation-game` command.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rotation-game"))
}

/// `rotation-game stress --program PROGRAM --seed 1 --boards BOARDS`, with
/// no standard input: a campaign's start, to which a test adds its flags.
pub fn seeded_stress(program: &str, boards: u64) -> Command {
    let mut command = binary();
    command
        .args(["stress", "--program", program, "--seed", "1"])
        .args(["--boards", &boards.to_string()])
        .stdin(Stdio::null());
    command
}

/// Starts `command` with no standard input and its output captured.
pub fn spawn_captured(command: &mut Command) -> std::process::Child {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts")
}

/// Runs `rotation-game` with `args` and no standard input.
pub fn run(args: &[&str]) -> Output {
    binary()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Runs `rotation-game` with `args`, feeding `stdin`.
pub fn run_binary(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The binary may stop reading early (at the terminator or an error).
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer thread finishes");
    output
}

/// Runs `rotation-game` with `args` and its standard output already closed
/// by the reader, as `| head` leaves it once it has read enough.
pub fn run_with_stdout_closed(args: &[&str]) -> Output {
    let mut child = spawn_captured(binary().args(args));
    drop(child.stdout.take());
    child.wait_with_output().expect("the binary finishes")
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the temporary directory is writable");
    path.to_str().expect("temporary paths are UTF-8").to_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}
