//! The checker library: one output per verdict, whitespace modes, the jury
//! answer, and hostile outputs.

use std::io::{self, Read};

use proptest::prelude::*;
use rotation_game::checker::{CheckOptions, Checker, DEFAULT_OUTPUT_LIMIT, Reason, VerdictKind};
use rotation_game::sample::{
    INPUT as SAMPLE_INPUT, OUTPUT as SAMPLE_OUTPUT, boards as sample_boards,
};
use rotation_game::strategies::uniform_boards;
use rotation_game::{Board, MoveSequence, PdbSolver, Solver};

use crate::support::snapshots::with_snapshots;

/// A board with two optimal sequences, AB and BA (A and B move disjoint
/// lines, so they commute); the answer is AB, centre 3.
const TWO_OPTIMA: &str = "112212231113322333113322";

fn lenient() -> CheckOptions {
    CheckOptions::default()
}

fn strict() -> CheckOptions {
    CheckOptions {
        strict_whitespace: true,
        ..CheckOptions::default()
    }
}

/// The checker for the sample plus the two-optima board (case 3).
fn checker() -> Checker {
    let mut boards = sample_boards();
    boards.push(TWO_OPTIMA.parse().unwrap());
    Checker::new(&boards)
}

const RIGHT: &str = "AC\n2\nDDHH\n2\nAB\n3\n";

/// Every verdict the issue lists, with an output that earns it: (label,
/// output, options, expected kind).
fn verdict_table() -> Vec<(&'static str, String, CheckOptions, VerdictKind)> {
    use VerdictKind::{Ok, WrongAnswer as Wa, WrongFormat as Pe};
    let right = RIGHT.to_owned();
    let with_case_1 = |moves: &str, digit: &str| format!("{moves}\n{digit}\nDDHH\n2\nAB\n3\n");
    vec![
        ("ok", right.clone(), lenient(), Ok),
        (
            "ok with trailing spaces, CRLF, no final newline, blank lines after",
            "AC  \r\n2\t\r\nDDHH\n2\nAB\n3\n\n ".to_owned(),
            lenient(),
            Ok,
        ),
        (
            "ok without a final newline",
            right.trim_end().to_owned(),
            lenient(),
            Ok,
        ),
        ("lowercase moves", with_case_1("ac", "2"), lenient(), Pe),
        (
            "space inside the moves",
            with_case_1("A C", "2"),
            lenient(),
            Pe,
        ),
        (
            "other characters in the moves",
            with_case_1("AC!", "2"),
            lenient(),
            Pe,
        ),
        ("letter past H", with_case_1("AI", "2"), lenient(), Pe),
        (
            "misspelt no moves",
            with_case_1("No moves need", "2"),
            lenient(),
            Pe,
        ),
        ("empty moves line", with_case_1("", "2"), lenient(), Pe),
        (
            "missing moves line",
            "AC\n2\nDDHH\n2\n".to_owned(),
            lenient(),
            Pe,
        ),
        (
            "missing digit line",
            "AC\n2\nDDHH\n2\nAB\n".to_owned(),
            lenient(),
            Pe,
        ),
        (
            "digit line of two digits",
            with_case_1("AC", "22"),
            lenient(),
            Pe,
        ),
        (
            "digit line out of range",
            with_case_1("AC", "4"),
            lenient(),
            Pe,
        ),
        (
            "digit line with a letter",
            with_case_1("AC", "two"),
            lenient(),
            Pe,
        ),
        (
            "strict: trailing space",
            with_case_1("AC ", "2"),
            strict(),
            Pe,
        ),
        ("strict: CRLF", right.replace('\n', "\r\n"), strict(), Pe),
        (
            "strict: no final newline",
            right.trim_end().to_owned(),
            strict(),
            Pe,
        ),
        (
            "strict: blank line after the last case",
            format!("{right}\n"),
            strict(),
            Pe,
        ),
        (
            "moves leave the centre mixed",
            with_case_1("CA", "2"),
            lenient(),
            Wa,
        ),
        (
            "no moves on a mixed centre",
            with_case_1("No moves needed", "2"),
            lenient(),
            Wa,
        ),
        ("wrong centre digit", with_case_1("AC", "3"), lenient(), Wa),
        (
            "longer than optimal",
            with_case_1("ACBE", "2"),
            lenient(),
            Wa,
        ),
        (
            "optimal but not the smallest",
            "AC\n2\nDDHH\n2\nBA\n3\n".to_owned(),
            lenient(),
            Wa,
        ),
        (
            "extra output after the last case",
            format!("{right}AC\n"),
            lenient(),
            Wa,
        ),
        (
            "output limit exceeded",
            right.clone(),
            CheckOptions {
                output_limit: 10,
                ..lenient()
            },
            Wa,
        ),
    ]
}

#[test]
fn every_verdict_has_an_output_that_earns_it() {
    let checker = checker();
    let mut messages = String::new();
    for (label, output, options, kind) in verdict_table() {
        let verdict = checker.check(output.as_bytes(), &options);
        assert_eq!(verdict.kind(), kind, "{label}: {verdict}");
        messages.push_str(&format!("{label}\n    {verdict}\n"));
    }
    let jury = checker.check_with_answer(
        RIGHT.as_bytes(),
        Some(&b"AC\n2\nDDHH\n2\nBA\n3\n"[..]),
        &lenient(),
    );
    assert_eq!(jury.kind(), VerdictKind::Fail);
    messages.push_str(&format!("wrong jury answer\n    {jury}\n"));
    let input =
        Checker::from_judge_input(&b"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 4\n0\n"[..]);
    let bad_input = input.expect_err("4 is no digit");
    assert_eq!(bad_input.kind(), VerdictKind::Fail);
    messages.push_str(&format!("bad judge input\n    {bad_input}\n"));
    with_snapshots(|| insta::assert_snapshot!("checker_verdicts", messages));
}

#[test]
fn messages_name_the_case_and_the_values() {
    let checker = checker();
    let verdict = checker.check(&b"AC\n2\nDDHH\n2\nBA\n3\n"[..], &lenient());
    assert_eq!(verdict.case(), Some(3));
    assert_eq!(
        verdict.reason(),
        &Reason::NotSmallest {
            expected: MoveSequence::from_letters(b"AB").unwrap(),
            found: MoveSequence::from_letters(b"BA").unwrap(),
        }
    );
    let verdict = checker.check(&b"ACBE\n2\n"[..], &lenient());
    assert_eq!(
        verdict.to_string(),
        "wrong answer case 1: 4 moves, optimal is 2"
    );
}

#[test]
fn a_right_jury_answer_lets_the_output_be_judged() {
    let checker = checker();
    let verdict = checker.check_with_answer(&b"CA\n2\n"[..], Some(RIGHT.as_bytes()), &lenient());
    assert_eq!(verdict.kind(), VerdictKind::WrongAnswer);
    assert_eq!(verdict.case(), Some(1));
}

#[test]
fn a_shorter_solution_than_the_truth_is_the_checkers_failure() {
    let board: Board = SAMPLE_INPUT.lines().next().unwrap().parse().unwrap();
    let mut planted = PdbSolver::default().solve(&board).unwrap();
    planted.moves = MoveSequence::from_letters(b"ACBE").unwrap();
    let checker = Checker::with_answers(&[board], &[planted]);
    let verdict = checker.check(&b"AC\n2\n"[..], &lenient());
    assert_eq!(verdict.kind(), VerdictKind::Fail);
    assert!(matches!(
        verdict.reason(),
        Reason::ShorterThanOptimal {
            found: 2,
            optimal: 4
        }
    ));
}

#[test]
fn an_unreadable_output_is_a_failure() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let verdict = checker().check(Broken, &lenient());
    assert_eq!(verdict.kind(), VerdictKind::Fail);
    assert!(verdict.to_string().contains("disk on fire"), "{verdict}");
}

#[test]
fn an_empty_judge_input_accepts_only_whitespace() {
    let checker = Checker::new(&[]);
    assert_eq!(
        checker.check(&b""[..], &lenient()).to_string(),
        "ok 0 cases"
    );
    assert_eq!(
        checker.check(&b"AC\n"[..], &lenient()).kind(),
        VerdictKind::WrongAnswer
    );
}

/// An endless output that counts the bytes it gives.
struct Endless {
    byte: u8,
    served: u64,
}

impl Read for Endless {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        buffer.fill(self.byte);
        self.served += buffer.len() as u64;
        Ok(buffer.len())
    }
}

#[test]
fn an_endless_output_is_cut_at_the_limit() {
    for byte in [b'A', b'\n', 0, b' '] {
        let mut endless = Endless { byte, served: 0 };
        let verdict = checker().check(&mut endless, &lenient());
        assert_eq!(
            verdict.reason(),
            &Reason::OutputLimitExceeded {
                limit: DEFAULT_OUTPUT_LIMIT
            }
        );
        assert_eq!(endless.served, DEFAULT_OUTPUT_LIMIT + 1, "byte {byte}");
    }
}

#[test]
fn ten_megabytes_on_one_line_stay_bounded() {
    let big = CheckOptions {
        output_limit: 64 << 20,
        ..lenient()
    };
    let letters = "AF".repeat(5 << 20);
    let verdict = checker().check(format!("{letters}\n2\n").as_bytes(), &big);
    assert_eq!(
        verdict.to_string(),
        "wrong answer case 1: the moves \"AFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAFAF…\" (10485760 bytes) leave the centre mixed (optimal is 2 moves)"
    );
    let solving = format!("AC{letters}\n2\n");
    let verdict = checker().check(solving.as_bytes(), &big);
    assert_eq!(
        verdict.to_string(),
        "wrong answer case 1: 10485762 moves, optimal is 2"
    );
    let garbage = "x".repeat(10 << 20);
    let verdict = checker().check(garbage.as_bytes(), &big);
    assert_eq!(verdict.kind(), VerdictKind::WrongFormat);
    assert!(verdict.to_string().len() < 300, "{verdict}");
    let verdict = checker().check(garbage.as_bytes(), &lenient());
    assert_eq!(verdict.kind(), VerdictKind::WrongAnswer, "{verdict}");
}

#[test]
fn nul_bytes_are_a_wrong_format_quoted_escaped() {
    let verdict = checker().check(&b"A\0C\n2\n"[..], &lenient());
    assert_eq!(
        verdict.to_string(),
        "wrong output format case 1: line 1: expected the moves (letters A-H, or \"No moves needed\"), found \"A\\x00C\""
    );
    let verdict = checker().check(&[0u8; 1 << 20][..], &lenient());
    assert_eq!(verdict.kind(), VerdictKind::WrongFormat);
}

proptest! {
    #[test]
    fn random_bytes_never_pass_and_judge_the_same_twice(
        output in prop::collection::vec(any::<u8>(), 0..5000),
    ) {
        let checker = checker();
        let first = checker.check(&output[..], &lenient());
        prop_assert!(!first.is_ok());
        prop_assert_eq!(&first, &checker.check(&output[..], &lenient()));
        prop_assert!(first.to_string().len() < 600, "{}", first);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn the_solvers_answers_are_accepted(boards in prop::collection::vec(uniform_boards(), 0..4)) {
        let output = rotation_game::answers::solve_to_string(
            rotation_game::parser::format_input(&boards).as_bytes(),
            &PdbSolver::default(),
        ).unwrap();
        let verdict = rotation_game::checker::check(&boards, output.as_bytes(), &strict());
        prop_assert!(verdict.is_ok(), "{verdict}");
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let verdict = checker().check(&bytes[..], &strict());
        prop_assert_eq!(verdict.clone(), checker().check(&bytes[..], &strict()));
    }
}

#[test]
fn the_sample_answer_is_accepted() {
    let verdict =
        rotation_game::checker::check(&sample_boards(), SAMPLE_OUTPUT.as_bytes(), &strict());
    assert_eq!(verdict.to_string(), "ok 2 cases");
}
