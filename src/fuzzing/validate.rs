//! The `validate` target: the same bytes through the strict validator and
//! the lenient parser.

use crate::parser::{CaseReader, parse_all};
use crate::validator::{ValidateOptions, ValidationError, validate as validate_strictly};

/// Feeds `data` to the [strict validator](crate::validator) and to the
/// [lenient parser](crate::parser) and compares them.
///
/// - Neither panics, and neither does formatting an error.
/// - Whatever the validator accepts, [`parse_all`] accepts with the same
///   boards, and the parser stops at the final `0`.
/// - An input the validator accepts with `n` cases is accepted with a limit
///   of `n` cases and refused with a limit of `n - 1`.
/// - A validation error's line and column name a byte of the input, or the
///   end of the input.
///
/// # Panics
///
/// When one of these fails.
pub fn validate(data: &[u8]) {
    let lenient = parse_all(data);
    if let Err(error) = &lenient {
        assert!(!error.to_string().is_empty());
    }
    let strict = match validate_strictly(data, &ValidateOptions::default()) {
        Ok(boards) => boards,
        Err(error) => {
            check_position(data, &error);
            return;
        }
    };
    let lenient =
        lenient.unwrap_or_else(|error| panic!("validated input refused by the parser: {error}"));
    assert_eq!(
        lenient, strict,
        "validator and parser read different boards"
    );
    let mut reader = CaseReader::new(data);
    reader.by_ref().for_each(drop);
    assert!(reader.saw_terminator(), "validated input without a final 0");

    let cases = strict.len();
    let at_most = |max_cases| ValidateOptions {
        max_cases: Some(max_cases),
    };
    assert!(
        validate_strictly(data, &at_most(cases)).is_ok(),
        "{cases} cases refused with a limit of {cases}"
    );
    if let Some(fewer) = cases.checked_sub(1) {
        assert!(
            validate_strictly(data, &at_most(fewer)).is_err(),
            "{cases} cases accepted with a limit of {fewer}"
        );
    }
}

/// Checks that `error`'s line and column name a byte of `data`, or its end.
fn check_position(data: &[u8], error: &ValidationError) {
    let message = error.to_string();
    let line_index = usize::try_from(error.line() - 1).expect("a line number fits");
    let Some(line) = data.split(|&byte| byte == b'\n').nth(line_index) else {
        panic!("no line {} in the input: {message}", error.line());
    };
    let column = usize::try_from(error.column()).expect("a column fits");
    // The column may be one past the line: its line feed, or the end.
    assert!(
        (1..=line.len() + 1).contains(&column),
        "column {column} outside line {} of {} bytes: {message}",
        error.line(),
        line.len()
    );
}
