//! Helpers shared by the judge-tool tests: the snapshot settings, the
//! binary, and the statement's sample.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::path::Path;
use std::process::{Command, Output};

use rotation_game::Board;

/// The statement's sample input.
pub const SAMPLE_INPUT: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n\
                                1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n";

/// The statement's sample output.
pub const SAMPLE_OUTPUT: &str = "AC\n2\nDDHH\n2\n";

/// The sample's boards.
pub fn sample_boards() -> Vec<Board> {
    rotation_game::parser::parse_all(SAMPLE_INPUT.as_bytes()).expect("the sample is valid")
}

/// Runs `body` with insta writing to the top-level `snapshots/` folder.
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

/// Runs `rotation-game` with `args` and no standard input.
pub fn run(args: &[&str]) -> Output {
    binary()
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
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
