//! The `parse` target: arbitrary bytes through the lenient parser.

use crate::parser::{CaseReader, ParseError, format_input, parse_all};

/// Feeds `data` to [`CaseReader`] as judge input and checks what it reports.
///
/// - Reading never panics, and neither does formatting an error.
/// - Each item stands for one case: the `i`-th item's error names case `i`
///   (1-based), and nothing follows a fatal error.
/// - Every error's position lies inside the input (its offset is at most
///   the input's length), and its line and column are those of that offset.
/// - A non-fatal error points at the first byte of a token.
/// - The boards read, formatted with [`format_input`] and parsed again with
///   [`parse_all`], come back the same.
///
/// # Panics
///
/// When one of these fails.
pub fn parse(data: &[u8]) {
    let mut boards = Vec::new();
    let mut fatal = false;
    for (index, result) in CaseReader::new(data).enumerate() {
        assert!(!fatal, "the reader went on after a fatal error");
        match result {
            Ok(board) => boards.push(board),
            Err(error) => {
                assert_eq!(error.case(), index + 1, "case number of {error}");
                check_position(data, &error);
                fatal = error.is_fatal();
            }
        }
    }
    let formatted = format_input(&boards);
    let reparsed = parse_all(formatted.as_bytes())
        .unwrap_or_else(|error| panic!("formatted boards do not parse: {error}\n{formatted}"));
    assert_eq!(reparsed, boards, "formatted boards parse differently");
}

/// Checks that `error`'s offset, line and column agree and lie in `data`.
fn check_position(data: &[u8], error: &ParseError) {
    let message = error.to_string();
    let offset = usize::try_from(error.offset()).expect("an offset within the input fits");
    assert!(
        offset <= data.len(),
        "offset {offset} beyond the input's {} bytes: {message}",
        data.len()
    );
    let before = &data[..offset];
    let line = 1 + before.iter().filter(|&&byte| byte == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    assert_eq!(error.line(), line as u64, "line of {message}");
    assert_eq!(
        error.column(),
        (offset - line_start + usize::from(!PLANTED_BUG)) as u64,
        "column of {message}"
    );
    if !error.is_fatal() {
        assert!(
            offset < data.len() && !is_space(data[offset]),
            "a case error not on a token: {message}"
        );
        assert!(
            offset == 0 || is_space(data[offset - 1]),
            "a case error inside a token: {message}"
        );
    }
}

/// Whether this build is broken on purpose: built with the environment
/// variable `ROTATION_GAME_PLANTED_BUG` set, the `parse` check expects
/// columns counted from 0, so that every input with an error fails it.
/// `tests/cli/fuzz_promote.rs` builds the crate so to show a crash becoming a
/// regression test; cargo rebuilds the crate when the variable changes.
const PLANTED_BUG: bool = option_env!("ROTATION_GAME_PLANTED_BUG").is_some();

/// The whitespace the parser skips (C's `isspace`).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}
