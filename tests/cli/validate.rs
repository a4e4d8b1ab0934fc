//! `validate` as a user runs it: the first broken rule, with its line and
//! column, and testlib's and Kattis's exit codes.

use std::io::Write;
use std::process::Stdio;

use rotation_game::sample::INPUT as SAMPLE_INPUT;

use crate::support::{binary, run, stderr, write};

#[test]
fn validate_reports_ok_or_the_first_broken_rule() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.txt", SAMPLE_INPUT);
    let result = run(&["validate", &good]);
    assert_eq!(result.status.code(), Some(0));
    assert_eq!(stderr(&result), "ok 2 cases\n");
    assert_eq!(
        run(&["validate", "--kattis", &good]).status.code(),
        Some(42)
    );
    assert_eq!(
        run(&["validate", "--max-cases", "1", &good]).status.code(),
        Some(3)
    );

    let bad = write(dir.path(), "bad.txt", SAMPLE_INPUT.replacen(' ', "  ", 1));
    let result = run(&["validate", &bad]);
    assert_eq!(result.status.code(), Some(3));
    assert_eq!(
        stderr(&result),
        format!("{bad}:1:3: expected a value 1, 2 or 3 (value 2 of 24), found a second space\n")
    );
    assert_eq!(run(&["validate", "--kattis", &bad]).status.code(), Some(43));
    assert_eq!(
        run(&["validate", "/nonexistent/input"]).status.code(),
        Some(66)
    );
}

#[test]
fn validate_reads_standard_input() {
    let mut child = binary()
        .args(["validate", "--max-cases", "30"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The validator may stop reading at the first error.
    let _ = child.stdin.take().unwrap().write_all(b"1 2 3\n0\n");
    let result = child.wait_with_output().unwrap();
    assert_eq!(result.status.code(), Some(3));
    assert_eq!(
        stderr(&result),
        "<stdin>:1:6: the line ends after 3 values, expected 24\n"
    );
}
