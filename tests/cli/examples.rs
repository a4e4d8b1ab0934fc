//! The examples of `examples/` run as their documentation says: each is
//! run through `cargo run --example`, which `cargo test` has built already.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{stderr, stdout};

/// Runs the example `name` with `arguments`, built in this test's profile
/// (`cargo test --release` has built them in release).
fn example(name: &str, arguments: &[&str]) -> Output {
    let profile: &[&str] = if cfg!(debug_assertions) {
        &[]
    } else {
        &["--release"]
    };
    Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "--quiet"])
        .args(profile)
        .args(["--example", name, "--"])
        .args(arguments)
        .output()
        .expect("cargo runs")
}

#[test]
fn solve_answers_a_board_and_the_sample() {
    let output = example("solve", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "board:  1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n\
         answer: AC leaves 2 in the centre (2 moves, the optimum)\n  \
         after A: 7 of the 8 centre cells hold 2\n  \
         after C: 8 of the 8 centre cells hold 2\n\
         the statement's sample input, answered:\n\
         AC\n2\nDDHH\n2\n\
         (2 cases solved, 0 bad)\n"
    );
    let solved = example("solve", &["111111112222222233333333"]);
    assert!(stdout(&solved).contains("answer: DDHH leaves 2 in the centre (4 moves"));
    let bad = example("solve", &["1112"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("solve: case 1, line 1, column 5: expected 20 more values"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn check_judges_outputs_with_the_exit_codes_of_checkers() {
    let output = example("check", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "the statement's output (strict): ok 2 cases (exit code 0 for testlib, 42 for Kattis)",
        "with CRLF line ends (lenient): ok 2 cases",
        "with CRLF line ends (strict): wrong output format case 1",
        "longer than optimal (lenient): wrong answer case 1: 4 moves, optimal is 2 (exit code 1 for testlib, 43 for Kattis)",
        "the second case missing (lenient): wrong output format case 2",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }

    let folder = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = folder.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.txt");
    let input = input.to_str().unwrap();
    let right = write("right", "AC\n2\nDDHH\n2\n");
    let wrong = write("wrong", "AC\n2\nDDHH\n3\n");
    let judged = |output: &str| example("check", &[input, output]).status.code();
    assert_eq!(judged(&right), Some(0));
    assert_eq!(judged(&wrong), Some(1));
    assert_eq!(judged("/nonexistent/output"), Some(3));
}

#[cfg(unix)]
#[test]
fn stress_finds_the_planted_mistake_and_its_smallest_case() {
    let output = example("stress", &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    // Runs of cases 9-12, 13-16 and 25-28 hold boards of 10 moves or more.
    assert!(
        text.contains("7 runs of 28 cases:\n  AC: 4 runs\n  WA: 3 runs\n"),
        "{text}"
    );
    assert!(text.contains("smallest failing case [11]:"), "{text}");
    assert!(text.contains("verdict:  wrong answer case 11:"), "{text}");
}
