//! Running a command with bytes on its standard input, both outputs
//! captured: the one way the test binaries feed a program.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `command`, writing `stdin` to it from a thread of its own (so that
/// a program that writes much before it reads never deadlocks with us), and
/// waits for it. The program may stop reading early (at the final 0, or an
/// error): what it did not read is dropped.
pub fn output_fed(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the program finishes");
    writer.join().expect("the writer finishes");
    output
}
