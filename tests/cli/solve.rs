//! `solve` as a user runs it: judge input in, the judges' answers out,
//! byte for byte as the library writes them; bad input reported precisely.

use rotation_game::OptimalLength;
use rotation_game::answers::solve_to_string;
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::format_input;
use rotation_game::sample::{FIRST_BOARD, INPUT as SAMPLE_INPUT, OUTPUT as SAMPLE_OUTPUT};
use rotation_game::{PdbSolver, pattern_database};

use crate::support::run_binary;
use crate::support::snapshots::with_snapshots;

const FIRST_SAMPLE_LINE: &str = FIRST_BOARD;

#[test]
fn the_sample_gives_the_sample_output() {
    let output = solve_to_string(SAMPLE_INPUT.as_bytes(), &PdbSolver::default()).unwrap();
    assert_eq!(output, SAMPLE_OUTPUT);
    let run = run_binary(&["solve"], SAMPLE_INPUT.as_bytes());
    assert!(run.status.success());
    assert_eq!(String::from_utf8(run.stdout).unwrap(), SAMPLE_OUTPUT);
    with_snapshots(|| insta::assert_snapshot!("sample_output", output));
}

#[test]
fn every_solver_gives_the_sample_output_from_a_file_and_from_stdin() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sample.txt");
    for solver in ["pdb", "ida", "bfs"] {
        for args in [
            vec!["solve", "--solver", solver, path],
            vec!["solve", "--solver", solver, "-"],
        ] {
            let run = run_binary(&args, SAMPLE_INPUT.as_bytes());
            assert!(run.status.success(), "{args:?}");
            assert_eq!(String::from_utf8(run.stdout).unwrap(), SAMPLE_OUTPUT);
        }
    }
}

#[test]
fn a_corpus_covering_every_optimal_length_from_0_to_12() {
    let mut boards = Vec::new();
    for length in 0..=12 {
        let generator = Generator::new(2286, Mode::Length(OptimalLength::new(length).unwrap()));
        boards.extend(generator.boards(3));
    }
    let lengths: Vec<u8> = boards
        .iter()
        .map(|board| pattern_database::optimal_length(board).moves())
        .collect();
    assert_eq!(lengths.iter().max(), Some(&12));
    assert!((0..=12).all(|length| lengths.contains(&length)));
    let input = format_input(&boards);
    let output = solve_to_string(input.as_bytes(), &PdbSolver::default()).unwrap();
    let mut report = String::new();
    for ((board, length), answer) in boards
        .iter()
        .zip(&lengths)
        .zip(output.lines().collect::<Vec<_>>().chunks(2))
    {
        report.push_str(&format!(
            "{board}  [{length}]\n{}\n{}\n",
            answer[0], answer[1]
        ));
    }
    with_snapshots(|| insta::assert_snapshot!("corpus_lengths_0_to_12", report));
}

/// The binary's stdout, stderr and exit status on `input`, for snapshots.
fn transcript(args: &[&str], input: &str) -> String {
    let run = run_binary(args, input.as_bytes());
    format!(
        "exit status: {:?}\n--- stdout\n{}--- stderr\n{}",
        run.status.code(),
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    )
}

#[test]
fn malformed_inputs_print_earlier_answers_then_a_precise_error() {
    let thirty_digits = "123456789012345678901234567890";
    let cases = [
        ("cut_short", format!("{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 3\n")),
        (
            "a_four",
            format!("{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 4 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"),
        ),
        (
            "a_zero_mid_case",
            format!("{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 0 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"),
        ),
        (
            "nine_ones",
            format!("{FIRST_SAMPLE_LINE}\n1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n"),
        ),
        (
            "a_letter",
            format!("{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 3 x 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"),
        ),
        (
            "a_thirty_digit_number",
            format!(
                "{FIRST_SAMPLE_LINE}\n{thirty_digits} 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"
            ),
        ),
        (
            "crlf_and_a_leading_zero",
            format!(
                "{FIRST_SAMPLE_LINE}\r\n01 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\r\n0\r\n"
            ),
        ),
        (
            "non_ascii",
            format!(
                "{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 \u{e9}\n0\n"
            ),
        ),
    ];
    let mut transcripts = String::new();
    for (name, input) in &cases {
        let text = transcript(&["solve"], input);
        assert!(text.starts_with("exit status: Some(65)"), "{name}: {text}");
        assert!(
            text.contains("--- stdout\nAC\n2\n--- stderr"),
            "{name}: {text}"
        );
        transcripts.push_str(&format!("=== {name}\n{text}"));
    }
    with_snapshots(|| insta::assert_snapshot!("malformed_inputs", transcripts));
}

#[test]
fn empty_input_is_valid_and_gives_no_output() {
    for input in ["", "0\n", "\n\n  \n"] {
        let text = transcript(&["solve"], input);
        assert_eq!(text, "exit status: Some(0)\n--- stdout\n--- stderr\n");
    }
    with_snapshots(|| {
        insta::assert_snapshot!("empty_input", transcript(&["solve"], ""));
    });
}

#[test]
fn keep_going_reports_each_bad_case_and_answers_the_rest() {
    let input = format!(
        "{FIRST_SAMPLE_LINE}\n1 1 1 1 3 2 4 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n\
         1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n{FIRST_SAMPLE_LINE}\n0\n"
    );
    let text = transcript(&["solve", "--keep-going"], &input);
    assert_eq!(
        text,
        "exit status: Some(65)\n--- stdout\nAC\n2\nAC\n2\n--- stderr\n\
         <stdin>:2:13: case 2: expected 1, 2 or 3 (value 7 of 24), found \"4\"\n\
         <stdin>:3:17: case 3: found a ninth 1: each of 1, 2 and 3 must appear exactly 8 times\n"
    );
}

#[test]
fn json_output_has_one_object_per_case() {
    let run = run_binary(&["solve", "--format", "json"], SAMPLE_INPUT.as_bytes());
    assert!(run.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["case"], 1);
    assert_eq!(lines[0]["board"], FIRST_SAMPLE_LINE);
    assert_eq!(lines[0]["moves"], "AC");
    assert_eq!(lines[0]["length"], 2);
    assert_eq!(lines[0]["centre"], 2);
    assert_eq!(lines[0]["solver"], "pdb");
    assert!(lines[0]["nodes"].as_u64().unwrap() > 0);
    assert!(lines[0]["microseconds"].is_u64());
    assert_eq!(lines[1]["moves"], "DDHH");
}

#[test]
fn bfs_refuses_boards_beyond_its_bound() {
    for flag in ["--max-length", "--max-depth"] {
        let text = transcript(&["solve", "--solver", "bfs", flag, "1"], SAMPLE_INPUT);
        assert_eq!(
            text,
            "exit status: Some(65)\n--- stdout\n--- stderr\n\
             <stdin>: case 1: the board needs more than 1 move, beyond the bfs solver's bound (--max-length)\n"
        );
    }
}

#[test]
fn a_missing_input_file_is_reported() {
    let run = run_binary(&["solve", "/nonexistent/input.txt"], b"");
    assert_eq!(run.status.code(), Some(66));
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot open /nonexistent/input.txt"));
}
