//! `show` as a user runs it: the board and its replay in the terminal
//! (with colour only where asked and allowed) and as SVG.

use rotation_game::sample::{FIRST_BOARD, FIRST_BOARD_COMPACT, SECOND_BOARD_COMPACT};

use crate::support::snapshots::with_snapshots;
use crate::support::{binary, run, stderr, stdout};

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
