//! The strict validator: one test per rule, and its agreement with the
//! lenient parser.

use proptest::prelude::*;
use rotation_game::parser::{format_input, parse_all};
use rotation_game::sample::{FIRST_BOARD, INPUT as SAMPLE_INPUT, boards as sample_boards};
use rotation_game::strategies::uniform_boards;
use rotation_game::validator::{Rule, ValidateOptions, ValidationError, validate};

const CASE: &str = FIRST_BOARD;

fn error(input: &str) -> ValidationError {
    error_with(input, ValidateOptions::default())
}

fn error_with(input: &str, options: ValidateOptions) -> ValidationError {
    validate(input.as_bytes(), &options).expect_err("the input is invalid")
}

/// The error's position and message, for compact assertions.
fn described(error: &ValidationError) -> (u64, u64, String) {
    (error.line(), error.column(), error.rule().to_string())
}

#[test]
fn accepts_the_sample() {
    let boards = validate(SAMPLE_INPUT.as_bytes(), &ValidateOptions::default()).unwrap();
    assert_eq!(boards, sample_boards());
}

#[test]
fn one_case_per_line() {
    let split = CASE.replacen(" 3 2 3", "\n3 2 3", 1);
    let found = error(&format!("{split}\n0\n"));
    assert_eq!(found.rule(), &Rule::TooFewValues { values_read: 4 });
    assert_eq!((found.line(), found.column()), (1, 8));
    let joined = format!("{CASE} {CASE}\n0\n");
    assert!(matches!(error(&joined).rule(), Rule::TooManyValues { .. }));
}

#[test]
fn values_are_separated_by_single_spaces() {
    let double = CASE.replacen(' ', "  ", 1);
    let found = error(&format!("{double}\n0\n"));
    assert_eq!(
        described(&found),
        (
            1,
            3,
            "expected a value 1, 2 or 3 (value 2 of 24), found a second space".into()
        )
    );
    let tab = CASE.replacen(' ', "\t", 1);
    assert!(matches!(
        error(&format!("{tab}\n0\n")).rule(),
        Rule::ExpectedSpace { values_read: 1, .. }
    ));
    assert_eq!(
        error(&format!(" {CASE}\n0\n")).rule(),
        &Rule::BadLineStart {
            found: rotation_game::validator::Found(b' ')
        }
    );
    assert_eq!(
        error(&format!("{CASE} \n0\n")).rule(),
        &Rule::TooManyValues {
            found: rotation_game::validator::Found(b' ')
        }
    );
    let before_end = CASE.replacen(" 1", "", 1);
    assert_eq!(
        error(&format!("{before_end} \n0\n")).rule(),
        &Rule::TrailingSpace
    );
}

#[test]
fn values_are_single_digits_one_to_three() {
    let four = CASE.replacen('3', "4", 1);
    assert_eq!(
        described(&error(&format!("{four}\n0\n"))),
        (
            1,
            9,
            "expected a value 1, 2 or 3 (value 5 of 24), found \"4\"".into()
        )
    );
    let zero = CASE.replacen('3', "0", 1);
    assert_eq!(
        error(&format!("{zero}\n0\n")).rule(),
        &Rule::ZeroInsideCase { values_read: 4 }
    );
    let long = CASE.replacen('3', "33", 1);
    assert!(matches!(
        error(&format!("{long}\n0\n")).rule(),
        Rule::ExpectedSpace { values_read: 5, .. }
    ));
}

#[test]
fn each_digit_exactly_eight_times() {
    let nine_ones = CASE.replacen('3', "1", 1);
    let found = error(&format!("{nine_ones}\n0\n"));
    assert_eq!(found.rule(), &Rule::DigitOverused { digit: 1 });
    assert_eq!(found.column(), 43, "the ninth 1 is value 22");
}

#[test]
fn line_ends_are_lf_only() {
    let found = error(&format!("{CASE}\r\n0\n"));
    assert_eq!(
        described(&found),
        (
            1,
            48,
            "expected the line end after 24 values, found a CR (line ends must be LF only)".into()
        )
    );
    assert!(matches!(
        error(&format!("{CASE}\n0\r\n")).rule(),
        Rule::BadTerminator { .. }
    ));
}

#[test]
fn a_final_zero_line_then_the_end_of_the_file() {
    assert_eq!(error(&format!("{CASE}\n")).rule(), &Rule::MissingTerminator);
    assert_eq!(error(&format!("{CASE}\n0")).rule(), &Rule::UnterminatedLine);
    assert_eq!(error(CASE).rule(), &Rule::UnterminatedLine);
    assert_eq!(error("").rule(), &Rule::MissingTerminator);
    let found = error(&format!("{CASE}\n0\n\n"));
    assert_eq!(
        described(&found),
        (
            3,
            1,
            "expected the end of the file after the final 0 line, found the line end".into()
        )
    );
    assert!(matches!(
        error(&format!("{CASE}\n00\n")).rule(),
        Rule::BadTerminator { .. }
    ));
    assert!(matches!(
        error(&format!("\n{CASE}\n0\n")).rule(),
        Rule::BadLineStart { .. }
    ));
}

#[test]
fn at_most_max_cases() {
    let input = format!("{CASE}\n{CASE}\n{CASE}\n0\n");
    let three = ValidateOptions { max_cases: Some(3) };
    assert_eq!(validate(input.as_bytes(), &three).unwrap().len(), 3);
    let two = ValidateOptions { max_cases: Some(2) };
    let found = error_with(&input, two);
    assert_eq!(
        described(&found),
        (3, 1, "more than 2 cases, the limit".into())
    );
}

#[test]
fn binary_bytes_are_quoted_escaped() {
    let found = error("\0");
    assert_eq!(
        found.to_string(),
        "line 1, column 1: expected a case (values 1, 2 or 3) or the final 0 line, found \"\\x00\""
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn canonical_input_is_accepted_with_its_boards(boards in prop::collection::vec(uniform_boards(), 0..5)) {
        let input = format_input(&boards);
        prop_assert_eq!(validate(input.as_bytes(), &ValidateOptions::default()).unwrap(), boards);
    }

    /// The invariant the fuzz targets rely on: whatever the validator
    /// accepts, the lenient parser accepts with the same boards.
    #[test]
    fn whatever_is_accepted_parses_the_same(
        boards in prop::collection::vec(uniform_boards(), 1..3),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(b" \n\r\t0123x".to_vec())), 0..3),
    ) {
        let mut input = format_input(&boards).into_bytes();
        for (at, byte) in edits {
            let at = at.index(input.len());
            input[at] = byte;
        }
        if let Ok(accepted) = validate(&input[..], &ValidateOptions::default()) {
            prop_assert_eq!(parse_all(&input).unwrap(), accepted);
        }
    }
}

/// Gives its bytes a few at a time, each read after an interrupted one, and
/// then, when `fails_at_end`, an error instead of the end of the input, once
/// (a reader that retried it would find the end).
struct Stammering<'a> {
    bytes: &'a [u8],
    interrupted: bool,
    fails_at_end: bool,
}

impl std::io::Read for Stammering<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.interrupted = !self.interrupted;
        if self.interrupted {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        if self.bytes.is_empty() && self.fails_at_end {
            self.fails_at_end = false;
            return Err(std::io::Error::other("the disk went away"));
        }
        let count = self.bytes.len().min(buffer.len()).min(5);
        buffer[..count].copy_from_slice(&self.bytes[..count]);
        self.bytes = &self.bytes[count..];
        Ok(count)
    }
}

#[test]
fn interrupted_reads_are_retried_and_failed_reads_are_reported_where_reading_stopped() {
    let reader = |fails_at_end| Stammering {
        bytes: SAMPLE_INPUT.as_bytes(),
        interrupted: false,
        fails_at_end,
    };
    let boards = validate(reader(false), &ValidateOptions::default()).unwrap();
    assert_eq!(boards, sample_boards());
    let cut = &SAMPLE_INPUT.as_bytes()[..SAMPLE_INPUT.len() - 2];
    let failing = Stammering {
        bytes: cut,
        interrupted: false,
        fails_at_end: true,
    };
    let found = validate(failing, &ValidateOptions::default()).unwrap_err();
    assert_eq!(
        found.rule(),
        &Rule::Io("the disk went away".to_owned()),
        "{found}"
    );
    assert_eq!(
        found.line(),
        SAMPLE_INPUT.lines().count() as u64,
        "the line reading stopped on"
    );
}
