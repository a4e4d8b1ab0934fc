//! The strict validator for test files, in the testlib sense.
//!
//! # Overview
//!
//! Where the [parser](crate::parser) reads judge input as leniently as the
//! judges' programs do, [`validate`] accepts only the canonical form a test
//! file should have:
//!
//! - one case per line, its 24 values separated by single spaces, with no
//!   space at the start or end of the line;
//! - each value a single digit 1, 2 or 3, each digit exactly eight times per
//!   case;
//! - LF line ends (no CR anywhere);
//! - a final `0` line (ended by LF), then the end of the file;
//! - optionally, at most [`ValidateOptions::max_cases`] cases.
//!
//! The first violation is a [`ValidationError`] with its line and column
//! (1-based; columns count bytes) and a [`Rule`] saying what was expected
//! and what was found.
//!
//! # Invariant
//!
//! Whatever the validator accepts, [`parse_all`](crate::parser::parse_all)
//! accepts too, with the same boards: the strict form is a special case of
//! the lenient one. A test and the fuzz targets hold it to this.
//!
//! The validator reads byte by byte through a fixed buffer and keeps nothing
//! but the current case: memory does not grow with the input (except for the
//! boards [`validate`] returns; [`validate_each`] hands them out instead).
//!
//! # Example
//!
//! ```
//! use rotation_game::validator::{self, ValidateOptions};
//!
//! let input = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n";
//! let boards = validator::validate(input.as_bytes(), &ValidateOptions::default())?;
//! assert_eq!(boards.len(), 1);
//!
//! let error = validator::validate(&b"1  1"[..], &ValidateOptions::default()).unwrap_err();
//! assert_eq!(error.to_string(), "line 1, column 3: expected a value 1, 2 or 3 (value 2 of 24), found a second space");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Read};

use crate::board::Board;
use crate::geometry::CELL_COUNT;
use crate::quote::Quote;
use crate::read_buffer::BUFFER_SIZE;

/// Options of [`validate`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValidateOptions {
    /// The most cases allowed (the classic statement allows 30); `None` for
    /// no limit.
    pub max_cases: Option<usize>,
}

/// One byte as a message shows it: `"1"`, `a space`, `"\x00"`, quoted as
/// every message of the crate quotes ([`crate::quote::Quote`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found(pub u8);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            b' ' => f.write_str("a space"),
            b'\t' => f.write_str("a tab"),
            b'\r' => f.write_str("a CR (line ends must be LF only)"),
            b'\n' => f.write_str("the line end"),
            byte => write!(f, "{}", Quote::new(&[byte])),
        }
    }
}

/// Which rule the input breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A byte other than a value 1–3 or the final `0` where a line starts.
    BadLineStart {
        /// The byte found.
        found: Found,
    },
    /// A byte other than a value 1–3 after a space.
    BadValue {
        /// How many values of the case came before.
        values_read: usize,
        /// The byte found.
        found: Found,
    },
    /// A second space between two values.
    DoubleSpace {
        /// How many values of the case came before.
        values_read: usize,
    },
    /// A space at the end of a line.
    TrailingSpace,
    /// A `0` inside a case.
    ZeroInsideCase {
        /// How many values of the case came before.
        values_read: usize,
    },
    /// Something other than a single space after a value that is not the
    /// last.
    ExpectedSpace {
        /// How many values of the case came before, this one included.
        values_read: usize,
        /// The byte found.
        found: Found,
    },
    /// A line that ends before its 24th value.
    TooFewValues {
        /// How many values it held.
        values_read: usize,
    },
    /// Something other than the line end after the 24th value.
    TooManyValues {
        /// The byte found.
        found: Found,
    },
    /// A ninth copy of a digit in one case.
    DigitOverused {
        /// The digit.
        digit: u8,
    },
    /// More cases than [`ValidateOptions::max_cases`].
    TooManyCases {
        /// The limit.
        max_cases: usize,
    },
    /// Something other than LF after the final `0`.
    BadTerminator {
        /// The byte found.
        found: Found,
    },
    /// Bytes after the final `0` line.
    AfterTerminator {
        /// The byte found.
        found: Found,
    },
    /// The end of the file inside a line (no LF at its end).
    UnterminatedLine,
    /// The end of the file without the final `0` line.
    MissingTerminator,
    /// The input could not be read.
    Io(String),
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::BadLineStart { found } => write!(
                f,
                "expected a case (values 1, 2 or 3) or the final 0 line, found {found}"
            ),
            Rule::BadValue { values_read, found } => write!(
                f,
                "expected a value 1, 2 or 3 (value {} of {CELL_COUNT}), found {found}",
                values_read + 1
            ),
            Rule::DoubleSpace { values_read } => write!(
                f,
                "expected a value 1, 2 or 3 (value {} of {CELL_COUNT}), found a second space",
                values_read + 1
            ),
            Rule::TrailingSpace => f.write_str("trailing space at the end of the line"),
            Rule::ZeroInsideCase { values_read } => write!(
                f,
                "expected a value 1, 2 or 3 (value {} of {CELL_COUNT}), found \"0\": 0 is only the final line",
                values_read + 1
            ),
            Rule::ExpectedSpace { values_read, found } => write!(
                f,
                "expected a single space after value {values_read}, found {found}"
            ),
            Rule::TooFewValues { values_read } => write!(
                f,
                "the line ends after {values_read} values, expected {CELL_COUNT}"
            ),
            Rule::TooManyValues { found } => write!(
                f,
                "expected the line end after {CELL_COUNT} values, found {found}"
            ),
            Rule::DigitOverused { digit } => write!(
                f,
                "a ninth {digit}: each of 1, 2 and 3 must appear exactly 8 times"
            ),
            Rule::TooManyCases { max_cases: 1 } => f.write_str("more than 1 case, the limit"),
            Rule::TooManyCases { max_cases } => {
                write!(f, "more than {max_cases} cases, the limit")
            }
            Rule::BadTerminator { found } => {
                write!(f, "expected the line end after the final 0, found {found}")
            }
            Rule::AfterTerminator { found } => write!(
                f,
                "expected the end of the file after the final 0 line, found {found}"
            ),
            Rule::UnterminatedLine => {
                f.write_str("the file ends inside a line: every line must end with LF")
            }
            Rule::MissingTerminator => {
                f.write_str("expected the final 0 line, found the end of the file")
            }
            Rule::Io(message) => write!(f, "cannot read the input: {message}"),
        }
    }
}

/// Why the input is not a valid test file: where, and which [`Rule`] it
/// breaks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {rule}")]
pub struct ValidationError {
    line: u64,
    column: u64,
    rule: Rule,
}

impl ValidationError {
    /// The line (1-based).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The column (1-based, in bytes).
    pub fn column(&self) -> u64 {
        self.column
    }

    /// The rule broken.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }
}

/// Where the validator is within the input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the start of a line.
    LineStart,
    /// Just after value number `values_read` of a case.
    AfterValue,
    /// Just after the space following a value.
    AfterSpace,
    /// Just after the final `0`.
    AfterZero,
    /// After the final `0` line.
    Finished,
}

/// The byte-by-byte state machine behind [`validate_each`].
struct Machine {
    state: State,
    line: u64,
    column: u64,
    values_read: usize,
    cells_of: [u32; 3],
    counts: [u8; 3],
    cases: usize,
    max_cases: Option<usize>,
}

impl Machine {
    fn error(&self, rule: Rule) -> ValidationError {
        ValidationError {
            line: self.line,
            column: self.column,
            rule,
        }
    }

    /// Takes a value 1–3 (`digit`), returning the finished board after the
    /// 24th.
    fn value(&mut self, digit: u8) -> Result<Option<Board>, ValidationError> {
        let index = usize::from(digit - 1);
        self.counts[index] += 1;
        if self.counts[index] > 8 {
            return Err(self.error(Rule::DigitOverused { digit }));
        }
        self.cells_of[index] |= 1 << self.values_read;
        self.values_read += 1;
        self.state = State::AfterValue;
        if self.values_read < CELL_COUNT {
            return Ok(None);
        }
        // 24 values and no digit more than 8 times: each exactly 8.
        Ok(Some(Board::from_cell_sets_unchecked(self.cells_of)))
    }

    /// Takes one byte; returns a board when it completes one.
    fn step(&mut self, byte: u8) -> Result<Option<Board>, ValidationError> {
        let found = Found(byte);
        let values_read = self.values_read;
        let board = match (self.state, byte) {
            (State::LineStart, b'0') => {
                self.state = State::AfterZero;
                None
            }
            (State::LineStart, b'1'..=b'3') => {
                if self.max_cases.is_some_and(|max| self.cases >= max) {
                    let max_cases = self.max_cases.unwrap_or_default();
                    return Err(self.error(Rule::TooManyCases { max_cases }));
                }
                self.cells_of = [0; 3];
                self.counts = [0; 3];
                self.values_read = 0;
                self.value(byte - b'0')?
            }
            (State::LineStart, _) => return Err(self.error(Rule::BadLineStart { found })),
            (State::AfterValue, b' ') if values_read < CELL_COUNT => {
                self.state = State::AfterSpace;
                None
            }
            (State::AfterValue, b'\n') if values_read == CELL_COUNT => {
                self.state = State::LineStart;
                self.cases += 1;
                None
            }
            (State::AfterValue, b'\n') => {
                return Err(self.error(Rule::TooFewValues { values_read }));
            }
            (State::AfterValue, _) if values_read == CELL_COUNT => {
                return Err(self.error(Rule::TooManyValues { found }));
            }
            (State::AfterValue, _) => {
                return Err(self.error(Rule::ExpectedSpace { values_read, found }));
            }
            (State::AfterSpace, b'1'..=b'3') => self.value(byte - b'0')?,
            (State::AfterSpace, b' ') => return Err(self.error(Rule::DoubleSpace { values_read })),
            (State::AfterSpace, b'\n') => return Err(self.error(Rule::TrailingSpace)),
            (State::AfterSpace, b'0') => {
                return Err(self.error(Rule::ZeroInsideCase { values_read }));
            }
            (State::AfterSpace, _) => {
                return Err(self.error(Rule::BadValue { values_read, found }));
            }
            (State::AfterZero, b'\n') => {
                self.state = State::Finished;
                None
            }
            (State::AfterZero, _) => return Err(self.error(Rule::BadTerminator { found })),
            (State::Finished, _) => return Err(self.error(Rule::AfterTerminator { found })),
        };
        if byte == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Ok(board)
    }

    /// Checks the state at the end of the input.
    fn finish(&self) -> Result<usize, ValidationError> {
        match self.state {
            State::Finished => Ok(self.cases),
            State::LineStart => Err(self.error(Rule::MissingTerminator)),
            State::AfterValue | State::AfterSpace | State::AfterZero => {
                Err(self.error(Rule::UnterminatedLine))
            }
        }
    }
}

/// Validates `input`, handing each accepted board to `on_board` as soon as
/// its line is read, and returns the number of cases.
///
/// Boards are handed out before the input has been read to its end: a later
/// error still rejects the input.
///
/// # Errors
///
/// The first rule the input breaks, with its line and column.
pub fn validate_each<R: Read>(
    mut input: R,
    options: &ValidateOptions,
    on_board: &mut dyn FnMut(Board),
) -> Result<usize, ValidationError> {
    let mut machine = Machine {
        state: State::LineStart,
        line: 1,
        column: 1,
        values_read: 0,
        cells_of: [0; 3],
        counts: [0; 3],
        cases: 0,
        max_cases: options.max_cases,
    };
    let mut buffer = vec![0u8; BUFFER_SIZE];
    loop {
        let read = match input.read(&mut buffer) {
            Ok(0) => return machine.finish(),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(machine.error(Rule::Io(error.to_string()))),
        };
        for &byte in &buffer[..read] {
            if let Some(board) = machine.step(byte)? {
                on_board(board);
            }
        }
    }
}

/// Validates `input` and returns its boards; see the [module docs](self).
///
/// # Errors
///
/// The first rule the input breaks, with its line and column.
pub fn validate<R: Read>(
    input: R,
    options: &ValidateOptions,
) -> Result<Vec<Board>, ValidationError> {
    let mut boards = Vec::new();
    validate_each(input, options, &mut |board| boards.push(board))?;
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::FIRST_BOARD;

    const CASE: &str = FIRST_BOARD;

    #[test]
    fn accepts_canonical_input_and_returns_its_boards() {
        let input = format!("{CASE}\n{CASE}\n0\n");
        let boards = validate(input.as_bytes(), &ValidateOptions::default()).unwrap();
        assert_eq!(boards, vec![CASE.parse::<Board>().unwrap(); 2]);
        assert_eq!(
            validate(&b"0\n"[..], &ValidateOptions::default()).unwrap(),
            vec![]
        );
    }

    #[test]
    fn positions_count_lines_and_bytes() {
        let input = format!("{CASE}\n1 1 x");
        let error = validate(input.as_bytes(), &ValidateOptions::default()).unwrap_err();
        assert_eq!((error.line(), error.column()), (2, 5));
    }
}
