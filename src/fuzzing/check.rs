//! The `check` target: arbitrary bytes judged as a contestant's output.

use std::io::{self, Read};
use std::sync::OnceLock;

use crate::answers::write_answer;
use crate::board::Board;
use crate::checker::{self, CheckOptions, Checker, Reason, VerdictKind};
use crate::parser::parse_all;
use crate::solver::{BfsSolver, Solver};

/// The judge input the outputs answer: the two boards of the problem's
/// sample, then a board whose centre is already uniform (answer
/// `No moves needed`).
pub const CHECK_INPUT: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n\
                               1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n\
                               2 2 2 2 2 2 1 1 1 2 2 1 1 3 3 1 1 1 3 3 3 3 3 3\n\
                               0\n";

/// The output limit of the target, in bytes: small, so that fuzzed outputs
/// cross it, and larger than the right answer (30 bytes) with some
/// tolerated whitespace.
pub const CHECK_OUTPUT_LIMIT: u64 = 64;

/// The boards of [`CHECK_INPUT`], a checker for them, and the right output
/// computed by the reference solver ([`BfsSolver`]), not by the checker.
struct Fixture {
    boards: Vec<Board>,
    checker: Checker,
    expected: Vec<u8>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let boards = parse_all(CHECK_INPUT.as_bytes()).expect("the fixed input is valid");
        let mut expected = Vec::new();
        for board in &boards {
            let solution = BfsSolver::default()
                .solve(board)
                .expect("the fixed boards are short");
            write_answer(&mut expected, &solution);
        }
        Fixture {
            checker: Checker::new(&boards),
            boards,
            expected,
        }
    })
}

/// The right output for [`CHECK_INPUT`], as the reference solver gives it.
pub fn check_expected_output() -> &'static [u8] {
    &fixture().expected
}

/// Judges `data` as the output for [`CHECK_INPUT`], with an output limit of
/// [`CHECK_OUTPUT_LIMIT`] bytes, leniently and with strict whitespace.
///
/// - The checker never panics, and never fails (the jury is right and the
///   output is in memory, so a `FAIL` verdict is a checker bug).
/// - The verdict is deterministic: judging again, with the same checker or
///   a new one, gives the same verdict.
/// - The output limit holds: the checker reads at most one byte past it, and
///   the verdict is "output limit exceeded" exactly when `data` is longer.
/// - Leniently, the verdict is OK exactly when `data` is the
///   [right output](check_expected_output) up to the tolerated whitespace:
///   blanks (spaces, tabs, CRs) at the end of lines, a missing final line
///   feed and blank lines after the last case.
/// - With strict whitespace, it is OK exactly when `data` is the right
///   output, byte for byte.
///
/// # Panics
///
/// When one of these fails.
pub fn check(data: &[u8]) {
    let fixture = fixture();
    let lenient = CheckOptions {
        strict_whitespace: false,
        output_limit: CHECK_OUTPUT_LIMIT,
    };
    let strict = CheckOptions {
        strict_whitespace: true,
        ..lenient
    };
    let mut counted = CountingReader { data, read: 0 };
    let verdict = fixture.checker.check(&mut counted, &lenient);
    let message = verdict.to_string();
    assert_ne!(verdict.kind(), VerdictKind::Fail, "{message}");
    assert!(
        counted.read <= CHECK_OUTPUT_LIMIT + 1,
        "the checker read {} bytes with a limit of {CHECK_OUTPUT_LIMIT}",
        counted.read
    );
    assert_eq!(fixture.checker.check(data, &lenient), verdict, "second run");
    assert_eq!(
        checker::check(&fixture.boards, data, &lenient),
        verdict,
        "new checker"
    );

    let over_limit = data.len() as u64 > CHECK_OUTPUT_LIMIT;
    assert_eq!(
        matches!(verdict.reason(), Reason::OutputLimitExceeded { .. }),
        over_limit,
        "{} bytes: {message}",
        data.len()
    );
    if over_limit {
        return;
    }
    let right = up_to_tolerated_whitespace(data) == up_to_tolerated_whitespace(&fixture.expected);
    assert_eq!(verdict.is_ok(), right, "{message}");

    let strict_verdict = fixture.checker.check(data, &strict);
    assert_ne!(strict_verdict.kind(), VerdictKind::Fail, "{strict_verdict}");
    assert_eq!(
        strict_verdict.is_ok(),
        data == fixture.expected.as_slice(),
        "strict: {strict_verdict}"
    );
}

/// The lines of `output` without their trailing blanks (space, tab, CR),
/// and without the empty lines at the end.
fn up_to_tolerated_whitespace(output: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = output
        .split(|&byte| byte == b'\n')
        .map(|line| {
            let core = line
                .iter()
                .rposition(|&byte| !matches!(byte, b' ' | b'\t' | b'\r'))
                .map_or(0, |last| last + 1);
            &line[..core]
        })
        .collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines
}

/// A reader over bytes that counts how many it handed out.
struct CountingReader<'a> {
    data: &'a [u8],
    read: u64,
}

impl Read for CountingReader<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.data.read(buffer)?;
        self.read += read as u64;
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_output_is_the_samples_then_no_moves() {
        assert_eq!(
            check_expected_output(),
            b"AC\n2\nDDHH\n2\nNo moves needed\n1\n"
        );
    }

    #[test]
    fn tolerated_whitespace_is_dropped() {
        assert_eq!(
            up_to_tolerated_whitespace(b"AC \t\r\n2\r\n\n \n"),
            vec![&b"AC"[..], b"2"]
        );
        assert_eq!(up_to_tolerated_whitespace(b" AC"), vec![&b" AC"[..]]);
    }
}
