//! The problem package's standalone input validator and output validator
//! (C++, built as problemtools builds them) give the same verdicts as the
//! crate's `validate` and `check`, on the fuzz seeds and on generated inputs
//! and outputs. Their messages may be shorter; the validator must also name
//! the same line and column, and the checker the same case.

use std::path::Path;

use proptest::prelude::*;
use rotation_game::Board;
use rotation_game::answers::write_answer;
use rotation_game::checker::{CheckOptions, Checker, VerdictKind};
use rotation_game::fuzzing::CHECK_INPUT;
use rotation_game::parser::{format_input, parse_all};
use rotation_game::pattern_database::optimal_length;
use rotation_game::solver::descend;
use rotation_game::strategies::{scrambled_boards, solved_boards, uniform_boards};
use rotation_game::validator::{ValidateOptions, validate};
use rotation_game::{Move, PdbSolver, Solver};

use crate::support::{SMALL_LIMIT, input_validators, output_validator, run};

/// A validator's verdict: the number of cases, or the line and column of
/// the first rule broken.
type Validation = Result<usize, (u64, u64)>;

fn crate_validation(input: &[u8], max_cases: usize) -> Validation {
    let options = ValidateOptions {
        max_cases: Some(max_cases),
    };
    validate(input, &options)
        .map(|boards| boards.len())
        .map_err(|error| (error.line(), error.column()))
}

fn standalone_validation(binary: &Path, input: &[u8]) -> Validation {
    let output = run(binary, &[], input);
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    match output.status.code() {
        Some(42) => {
            let cases = text
                .strip_prefix("ok ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|count| count.parse().ok());
            Ok(cases.unwrap_or_else(|| panic!("accepted without a count: {text:?}")))
        }
        Some(43) => {
            let position = text.strip_prefix("line ").and_then(|rest| {
                let (line, rest) = rest.split_once(", column ")?;
                let (column, _) = rest.split_once(':')?;
                Some((line.parse().ok()?, column.parse().ok()?))
            });
            Err(position.unwrap_or_else(|| panic!("rejected without a position: {text:?}")))
        }
        other => panic!("the validator exited with {other:?}: {text:?}"),
    }
}

/// Both validators (with the default and the small limit) agree with the
/// crate on `input`.
fn assert_validators_agree(input: &[u8]) {
    let (default, small) = input_validators();
    for (binary, limit) in [(default, 30), (small, SMALL_LIMIT)] {
        assert_eq!(
            standalone_validation(binary, input),
            crate_validation(input, limit),
            "limit {limit}, input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn the_validator_agrees_with_the_crate_on_the_fuzz_seeds() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut checked = 0;
    for target in ["validate", "parse"] {
        for entry in std::fs::read_dir(seeds.join(target)).unwrap() {
            assert_validators_agree(&std::fs::read(entry.unwrap().path()).unwrap());
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} seeds");
}

/// Judge input for 0 to 5 boards, then up to three small edits: a byte of
/// the format inserted, deleted or replaced anywhere, or inserted at the
/// end of a line.
fn near_valid_inputs() -> impl Strategy<Value = Vec<u8>> {
    let alphabet = prop::sample::select(b"01234 \n\r\tx".to_vec());
    let edit = (any::<prop::sample::Index>(), 0..4u8, alphabet);
    (
        prop::collection::vec(uniform_boards(), 0..=5),
        prop::collection::vec(edit, 0..=3),
    )
        .prop_map(|(boards, edits)| {
            let mut input = format_input(&boards).into_bytes();
            for (at, kind, byte) in edits {
                let ends: Vec<usize> = (0..input.len()).filter(|&i| input[i] == b'\n').collect();
                let at = at.index(input.len() + 1);
                match kind {
                    0 => input.insert(at, byte),
                    1 if at < input.len() => {
                        input.remove(at);
                    }
                    2 if at < input.len() => input[at] = byte,
                    3 if !ends.is_empty() => input.insert(ends[at % ends.len()], byte),
                    _ => input.push(byte),
                }
            }
            input
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_validator_agrees_with_the_crate_on_generated_inputs(input in near_valid_inputs()) {
        assert_validators_agree(&input);
    }
}

/// A checker's verdict: its kind and the case it names.
type Judgement = (VerdictKind, Option<usize>);

fn crate_judgement(boards: &[Board], output: &[u8], answer: &[u8], strict: bool) -> Judgement {
    let options = CheckOptions {
        strict_whitespace: strict,
        ..CheckOptions::default()
    };
    let verdict = Checker::new(boards).check_with_answer(output, Some(answer), &options);
    (verdict.kind(), verdict.case())
}

fn standalone_judgement(input: &[u8], output: &[u8], answer: &[u8], strict: bool) -> Judgement {
    let dir = tempfile::tempdir().unwrap();
    let input_path = dir.path().join("case.in");
    let answer_path = dir.path().join("case.ans");
    std::fs::write(&input_path, input).unwrap();
    std::fs::write(&answer_path, answer).unwrap();
    let flag = Path::new("space_change_sensitive");
    let mut args = vec![input_path.as_path(), answer_path.as_path(), dir.path()];
    if strict {
        args.push(flag);
    }
    let result = run(output_validator(), &args, output);
    let message = std::fs::read_to_string(dir.path().join("judgemessage.txt")).unwrap_or_default();
    let kind = match result.status.code() {
        Some(42) => VerdictKind::Ok,
        Some(3) => VerdictKind::Fail,
        Some(43) if message.starts_with("wrong answer") => VerdictKind::WrongAnswer,
        Some(43) if message.starts_with("wrong output format") => VerdictKind::WrongFormat,
        other => panic!("the checker exited with {other:?}: {message:?}"),
    };
    let case = message
        .split_once(" case ")
        .and_then(|(_, rest)| rest.split(':').next())
        .and_then(|number| number.parse().ok());
    (kind, case)
}

/// The right output for `boards`.
fn right_output(boards: &[Board]) -> Vec<u8> {
    let mut output = Vec::new();
    for board in boards {
        write_answer(&mut output, &PdbSolver::default().solve(board).unwrap());
    }
    output
}

/// The standalone checker and the crate's agree on `output` for `boards`
/// (the jury's answer `answer`), leniently and with strict whitespace.
fn assert_checkers_agree(boards: &[Board], output: &[u8], answer: &[u8]) {
    let input = format_input(boards);
    for strict in [false, true] {
        assert_eq!(
            standalone_judgement(input.as_bytes(), output, answer, strict),
            crate_judgement(boards, output, answer, strict),
            "strict {strict}, output {:?}",
            String::from_utf8_lossy(output)
        );
    }
}

#[test]
fn the_checker_agrees_with_the_crate_on_the_fuzz_seeds() {
    let boards = parse_all(CHECK_INPUT.as_bytes()).unwrap();
    let answer = right_output(&boards);
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/check");
    let mut kinds = Vec::new();
    for entry in std::fs::read_dir(seeds).unwrap() {
        let output = std::fs::read(entry.unwrap().path()).unwrap();
        assert_checkers_agree(&boards, &output, &answer);
        kinds.push(crate_judgement(&boards, &output, &answer, true).0);
    }
    // The seeds reach every verdict but a failure of the jury.
    for kind in [
        VerdictKind::Ok,
        VerdictKind::WrongAnswer,
        VerdictKind::WrongFormat,
    ] {
        assert!(kinds.contains(&kind), "no seed is {kind:?}");
    }
}

#[test]
fn the_checker_fails_on_a_wrong_jury_answer_as_the_crate_does() {
    let boards = parse_all(CHECK_INPUT.as_bytes()).unwrap();
    let right = right_output(&boards);
    let wrong = String::from_utf8(right.clone())
        .unwrap()
        .replace("DDHH", "HHDD");
    assert_checkers_agree(&boards, &right, wrong.as_bytes());
    let judged = crate_judgement(&boards, &right, wrong.as_bytes(), false);
    assert_eq!(judged, (VerdictKind::Fail, Some(2)));
}

#[test]
fn the_checker_judges_an_output_over_8_mib_as_the_crate_does() {
    let boards = parse_all(CHECK_INPUT.as_bytes()).unwrap();
    let right = right_output(&boards);
    let limit = CheckOptions::default().output_limit as usize;
    for length in [limit, limit + 1] {
        let mut output = right.clone();
        output.resize(length, b'\n');
        assert_checkers_agree(&boards, &output, &right);
    }
    let mut over = right.clone();
    over.resize(limit + 1, b'\n');
    assert_eq!(
        crate_judgement(&boards, &over, &right, false).0,
        VerdictKind::WrongAnswer
    );
}

/// One edit of an output, of the kinds contestants' outputs show.
#[derive(Clone, Debug)]
enum Edit {
    /// A byte of the format inserted, replaced or deleted.
    Byte(usize, u8, u8),
    /// Two moves of a line swapped.
    Swap(usize),
    /// A line removed, or repeated.
    Line(usize, bool),
    /// Something appended.
    Append(&'static str),
    /// A blank (space, tab or CR) at the end of a line.
    Trail(usize, u8),
    /// Every line end made CRLF.
    Crlf,
    /// The last line feed removed.
    NoFinalNewline,
}

fn edits() -> impl Strategy<Value = Edit> {
    let byte = prop::sample::select(b"ABCDEFGHa123 \t\r\nN0".to_vec());
    let tail = prop::sample::select(vec!["\n", " ", "\r\n", "extra\n", "A\n", "\n\n", "1\n"]);
    prop_oneof![
        (any::<usize>(), 0..3u8, byte).prop_map(|(at, kind, byte)| Edit::Byte(at, kind, byte)),
        any::<usize>().prop_map(Edit::Swap),
        (any::<usize>(), any::<bool>()).prop_map(|(at, repeat)| Edit::Line(at, repeat)),
        tail.prop_map(Edit::Append),
        (any::<usize>(), prop::sample::select(b" \t\r".to_vec()))
            .prop_map(|(at, blank)| Edit::Trail(at, blank)),
        Just(Edit::Crlf),
        Just(Edit::NoFinalNewline),
    ]
}

fn apply(output: &[u8], edit: &Edit) -> Vec<u8> {
    let mut output = output.to_vec();
    match *edit {
        Edit::Byte(at, kind, byte) => {
            let at = at % (output.len() + 1);
            match kind {
                0 => output.insert(at, byte),
                1 if at < output.len() => output[at] = byte,
                _ if at < output.len() => {
                    output.remove(at);
                }
                _ => output.push(byte),
            }
        }
        Edit::Swap(at) => {
            if output.len() > 1 {
                let at = at % (output.len() - 1);
                if output[at].is_ascii_uppercase() && output[at + 1].is_ascii_uppercase() {
                    output.swap(at, at + 1);
                }
            }
        }
        Edit::Line(at, repeat) => {
            let mut lines: Vec<Vec<u8>> = output
                .split_inclusive(|&byte| byte == b'\n')
                .map(<[u8]>::to_vec)
                .collect();
            if !lines.is_empty() {
                let at = at % lines.len();
                if repeat {
                    lines.insert(at, lines[at].clone());
                } else {
                    lines.remove(at);
                }
            }
            output = lines.concat();
        }
        Edit::Append(tail) => output.extend_from_slice(tail.as_bytes()),
        Edit::Trail(at, blank) => {
            let ends: Vec<usize> = (0..output.len()).filter(|&i| output[i] == b'\n').collect();
            if !ends.is_empty() {
                output.insert(ends[at % ends.len()], blank);
            }
        }
        Edit::Crlf => {
            output = output
                .iter()
                .flat_map(|&byte| {
                    if byte == b'\n' {
                        vec![b'\r', b'\n']
                    } else {
                        vec![byte]
                    }
                })
                .collect();
        }
        Edit::NoFinalNewline => {
            if output.last() == Some(&b'\n') {
                output.pop();
            }
        }
    }
    output
}

/// How a generated output answers one case.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// The right answer.
    Right,
    /// Another shortest sequence: the smallest for the moves tried H to A.
    OtherShortest,
    /// The right moves, then A and F (which undo each other).
    Longer,
    /// The right moves with this digit.
    Digit(u8),
    /// `No moves needed` and the right digit.
    NoMovesNeeded,
    /// Nothing.
    Missing,
}

fn answers() -> impl Strategy<Value = Answer> {
    prop_oneof![
        6 => Just(Answer::Right),
        1 => Just(Answer::OtherShortest),
        1 => Just(Answer::Longer),
        1 => (1..=3u8).prop_map(Answer::Digit),
        1 => Just(Answer::NoMovesNeeded),
        1 => Just(Answer::Missing),
    ]
}

/// The output that answers each board as `answers` says.
fn output_for(boards: &[Board], answers: &[Answer]) -> Vec<u8> {
    let mut output = Vec::new();
    for (board, answer) in boards.iter().zip(answers) {
        let right = PdbSolver::default().solve(board).unwrap();
        let mut moves = right.moves.to_string();
        let mut digit = right.centre.value();
        match *answer {
            Answer::Right => {}
            Answer::OtherShortest => {
                let reversed: Vec<Move> = Move::ALL.iter().rev().copied().collect();
                let other = descend(board, &reversed, |b| optimal_length(b).moves());
                moves = other.moves.to_string();
            }
            Answer::Longer => moves.push_str("AF"),
            Answer::Digit(value) => digit = value,
            Answer::NoMovesNeeded => moves.clear(),
            Answer::Missing => continue,
        }
        if moves.is_empty() {
            moves = "No moves needed".to_owned();
        }
        output.extend_from_slice(format!("{moves}\n{digit}\n").as_bytes());
    }
    output
}

fn boards_to_judge() -> impl Strategy<Value = Vec<Board>> {
    let board = prop_oneof![
        scrambled_boards(6),
        solved_boards(),
        scrambled_boards(2),
        uniform_boards()
    ];
    prop::collection::vec(board, 1..=3)
}

proptest! {
    // Each case runs the checker twice, and it builds its table each time
    // (about 0.1 s).
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn the_checker_agrees_with_the_crate_on_generated_outputs(
        boards in boards_to_judge(),
        answers in prop::collection::vec(answers(), 3),
        edits in prop::collection::vec(edits(), 0..=2),
    ) {
        let written = output_for(&boards, &answers);
        let output = edits.iter().fold(written, |output, edit| apply(&output, edit));
        assert_checkers_agree(&boards, &output, &right_output(&boards));
    }
}
