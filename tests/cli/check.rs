//! `check` as a user runs it: testlib's and Kattis's exit codes, the
//! verdict line, the jury answer and the strict mode.

use std::io::Write;
use std::process::Stdio;

use rotation_game::sample::{INPUT as SAMPLE_INPUT, OUTPUT as SAMPLE_OUTPUT};

use crate::support::{binary, run, stderr, write};

#[test]
fn check_testlib_exit_codes_and_verdict_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "input.txt", SAMPLE_INPUT);
    let answer = write(dir.path(), "answer.txt", SAMPLE_OUTPUT);
    for (output, code, line) in [
        (SAMPLE_OUTPUT, 0, "ok 2 cases"),
        (
            "AC\n2\nDDHH\n3\n",
            1,
            "wrong answer case 2: the moves leave 2 in the centre, found 3",
        ),
        (
            "AC\n2\nddhh\n2\n",
            2,
            "wrong output format case 2: line 3: expected the moves (letters A-H, or \"No moves needed\"), found \"ddhh\"",
        ),
    ] {
        let output = write(dir.path(), "output.txt", output);
        for args in [
            vec!["check", &input, &output],
            vec!["check", &input, &output, &answer],
        ] {
            let result = run(&args);
            assert_eq!(result.status.code(), Some(code), "{args:?}");
            assert_eq!(stderr(&result), format!("{line}\n"));
            assert!(result.stdout.is_empty());
        }
    }
}

#[test]
fn check_fails_on_a_wrong_jury_answer_or_a_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "input.txt", SAMPLE_INPUT);
    let output = write(dir.path(), "output.txt", SAMPLE_OUTPUT);
    let wrong = write(dir.path(), "answer.txt", "AC\n2\nHHDD\n2\n");
    let result = run(&["check", &input, &output, &wrong]);
    assert_eq!(result.status.code(), Some(3));
    assert!(
        stderr(&result).starts_with("FAIL case 2: the jury answer is wrong"),
        "{}",
        stderr(&result)
    );
    let bad = write(dir.path(), "bad.txt", "1 2 3\n");
    let result = run(&["check", &bad, &output]);
    assert_eq!(result.status.code(), Some(3));
    assert!(
        stderr(&result).starts_with("FAIL: bad judge input: case 1"),
        "{}",
        stderr(&result)
    );
    let result = run(&["check", &input, "/nonexistent/output"]);
    assert_eq!(result.status.code(), Some(3));
    assert!(stderr(&result).contains("/nonexistent/output"));
}

#[test]
fn check_strict_rejects_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "input.txt", SAMPLE_INPUT);
    let output = write(
        dir.path(),
        "output.txt",
        SAMPLE_OUTPUT.replace('\n', "\r\n"),
    );
    assert_eq!(run(&["check", &input, &output]).status.code(), Some(0));
    assert_eq!(
        run(&["check", "--strict", &input, &output]).status.code(),
        Some(2)
    );
}

/// Runs `check --kattis` with `output` on standard input.
fn kattis(args: &[&str], output: &str) -> std::process::Output {
    let mut child = binary()
        .args(["check", "--kattis"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The checker may stop reading early (or never start, on a usage
    // error): a closed pipe is no failure here.
    let _ = child.stdin.take().unwrap().write_all(output.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn check_kattis_exit_codes_and_judge_message() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "input.txt", SAMPLE_INPUT);
    let answer = write(dir.path(), "answer.txt", SAMPLE_OUTPUT);
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).unwrap();
    let feedback = feedback.to_str().unwrap();
    let message = || std::fs::read_to_string(dir.path().join("feedback/judgemessage.txt")).unwrap();

    let accepted = kattis(&[&input, &answer, feedback], SAMPLE_OUTPUT);
    assert_eq!(accepted.status.code(), Some(42));
    assert_eq!(message(), "ok 2 cases\n");

    let wrong = kattis(&[&input, &answer, feedback], "AC\n2\nDDHHAF\n2\n");
    assert_eq!(wrong.status.code(), Some(43));
    assert_eq!(message(), "wrong answer case 2: 6 moves, optimal is 4\n");

    let format = kattis(&[&input, &answer, feedback], "AC\n2\n");
    assert_eq!(format.status.code(), Some(43));
    assert!(message().starts_with("wrong output format case 2"));

    let crlf = SAMPLE_OUTPUT.replace('\n', "\r\n");
    assert_eq!(
        kattis(&[&input, &answer, feedback, "case_sensitive"], &crlf)
            .status
            .code(),
        Some(42)
    );
    let sensitive = kattis(
        &[&input, &answer, feedback, "space_change_sensitive"],
        &crlf,
    );
    assert_eq!(sensitive.status.code(), Some(43));

    let missing_dir = kattis(&[&input, &answer], SAMPLE_OUTPUT);
    assert_eq!(missing_dir.status.code(), Some(2));
}
