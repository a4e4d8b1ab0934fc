//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The statement's sample input.
pub const SAMPLE_INPUT: &str = include_str!("../../examples/sample.txt");

/// The statement's sample output.
pub const SAMPLE_OUTPUT: &str = "AC\n2\nDDHH\n2\n";

/// insta settings that keep every snapshot in the top-level `snapshots/`
/// folder, named without the module path.
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

/// Runs the `rotation-game` binary with `args`, feeding `stdin`.
pub fn run_binary(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rotation-game"))
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
