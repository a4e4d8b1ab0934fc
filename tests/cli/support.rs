//! The command-line tests' helpers: running the binary, and the helpers
//! the test binaries share (`tests/support/`).

#[path = "../support/attack.rs"]
pub mod attack;
#[path = "../support/compile.rs"]
pub mod compile;
#[path = "../support/feed.rs"]
pub mod feed;
#[path = "../support/fixtures.rs"]
pub mod fixtures;
#[path = "../support/isolation.rs"]
pub mod isolation;
#[path = "../support/package.rs"]
pub mod package;
#[path = "../support/proc_stat.rs"]
pub mod proc_stat;
#[path = "../support/processes.rs"]
pub mod processes;
#[path = "../support/programs.rs"]
pub mod programs;
#[path = "../support/skip.rs"]
pub mod skip;
#[path = "../support/snapshots.rs"]
pub mod snapshots;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rotation_game::runner::Measurement;

/// The `rotation-game` binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// The `rotation-game` command.
pub fn binary() -> Command {
    Command::new(BINARY)
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
    feed::output_fed(binary().args(args), stdin)
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

/// Whether the tests run as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether runs are measured and limited by a cgroup per run here.
pub fn cgroup() -> bool {
    matches!(isolation::isolation().measurement, Measurement::Cgroup(_))
}

/// Waits (10 s at most) for the processes whose command line holds
/// `marker` to end; kills those left, and says which they were.
pub fn survivors(marker: &str) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes::processes_with(marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    processes::kill_marked(marker)
}
