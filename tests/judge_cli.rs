//! `check`, `validate` and `show` as a user runs them.

mod common;

use rotation_game::sample::{FIRST_BOARD, FIRST_BOARD_COMPACT, SECOND_BOARD_COMPACT};
use std::io::Write;
use std::process::Stdio;

use common::{SAMPLE_INPUT, SAMPLE_OUTPUT, binary, run, stderr, stdout, with_snapshots, write};

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

#[test]
fn show_draws_the_replay_without_colour() {
    let result = binary()
        .args(["show", FIRST_BOARD_COMPACT, "--moves", "AC"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(0));
    let text = stdout(&result);
    assert!(!text.contains('\x1b'));
    with_snapshots(|| insta::assert_snapshot!("show_sample_replay", text));
}

#[test]
fn show_takes_spaced_boards_and_several_of_them() {
    let spaced = run(&["show", FIRST_BOARD, SECOND_BOARD_COMPACT]);
    assert_eq!(spaced.status.code(), Some(0));
    let text = stdout(&spaced);
    assert_eq!(text.matches("board ").count(), 2);
    let compact = run(&["show", FIRST_BOARD_COMPACT]);
    assert!(text.starts_with(&stdout(&compact)));
}

#[test]
fn show_colours_only_when_asked_and_allowed() {
    let always = run(&["show", "--color", "always", FIRST_BOARD_COMPACT]);
    assert!(stdout(&always).contains("\x1b[1;31m1\x1b[0m"));
    let auto_in_a_pipe = run(&["show", FIRST_BOARD_COMPACT]);
    assert!(!stdout(&auto_in_a_pipe).contains('\x1b'));
}

#[test]
fn show_writes_svg() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replay.svg");
    let result = run(&[
        "show",
        FIRST_BOARD_COMPACT,
        "--moves",
        "AC",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert_eq!(result.status.code(), Some(0));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("after ").count(), 2);
    assert_eq!(
        svg.matches("stroke=\"black\" stroke-width=\"3\"").count(),
        14,
        "two moved lines of seven cells"
    );
}

#[test]
fn show_rejects_bad_boards_and_moves() {
    for (board, message) in [
        (
            "11113232313223122231213",
            "column 24: expected 1 more value, found the end of the input after 23 of the case's 24",
        ),
        (
            "11113232313223122231213a",
            "column 24: expected 1, 2 or 3 (value 24 of 24), found \"a\"",
        ),
        (
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3 1",
            "column 49: expected the end of the board after 24 values, found \"1\"",
        ),
        (
            "111111111222222233333333",
            "column 9: found a ninth 1: each of 1, 2 and 3 must appear exactly 8 times",
        ),
    ] {
        let output = run(&["show", board]);
        assert_eq!(output.status.code(), Some(2));
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
    }
    let moves = run(&["show", FIRST_BOARD_COMPACT, "--moves", "AZ"]);
    assert_eq!(moves.status.code(), Some(2));
    assert!(stderr(&moves).contains("expected letters A-H"));
}
