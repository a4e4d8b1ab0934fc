//! The lenient judge-input parser, streaming.
//!
//! # Overview
//!
//! [`CaseReader`] reads judge input the way the judges' reference programs
//! do, and checks each case:
//!
//! - values are integers separated by any ASCII whitespace (space, tab,
//!   line feed, carriage return, vertical tab, form feed), across line
//!   breaks; CRLF is therefore accepted;
//! - a case is 24 values, each 1, 2 or 3, each digit exactly eight times;
//! - a `0` where a case would begin ends the input, and so does the end of
//!   the input there; anything after the `0` is never read.
//!
//! A value must be exactly one of the bytes `0`–`3`: leading zeros, signs,
//! other numbers, letters and non-ASCII bytes are errors naming the case, the
//! line and column (1-based; columns count bytes), the token (escaped and
//! shortened) and what was expected. Lines longer than
//! [`MAX_LINE_LENGTH`] bytes are an error too.
//!
//! The reader holds one fixed buffer and one case: memory does not grow with
//! the input, whatever its size or shape.
//!
//! # Errors and recovery
//!
//! A *case error* (a bad value, a `0` inside a case, a ninth copy of a digit)
//! spoils one case. The bad case still occupies 24 values, so the reader can
//! go on: the next call skips the rest of the bad case and reads the next
//! one. A *fatal error* (the input cut short inside a case, an overlong
//! line, a read failure) ends the input: later calls return `None`.
//!
//! # Example
//!
//! ```
//! use rotation_game::parser::CaseReader;
//!
//! let input = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n";
//! let boards: Vec<_> = CaseReader::new(input.as_bytes()).collect();
//! assert_eq!(boards.len(), 1);
//! assert!(boards[0].is_ok());
//! ```

use std::fmt;
use std::io::{self, Read};
use std::sync::Arc;

use crate::board::Board;
use crate::geometry::CELL_COUNT;
use crate::{quote::Quote, read_buffer::BUFFER_SIZE};

/// The longest line accepted, in bytes, not counting its line feed.
pub const MAX_LINE_LENGTH: u64 = 1 << 20;

/// How many bytes of an offending token an error quotes.
const QUOTED_TOKEN_BYTES: usize = 32;

/// Why the input is not valid judge input; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct ParseError {
    case: usize,
    line: u64,
    column: u64,
    offset: u64,
    kind: ParseErrorKind,
}

#[derive(Clone, Debug)]
enum ParseErrorKind {
    /// A token that neither starts a case nor ends the input.
    BadCaseStart {
        /// Its first [`QUOTED_TOKEN_BYTES`] bytes and its length.
        token: Quote,
    },
    /// A token that is not a value allowed here.
    BadToken {
        /// Its first [`QUOTED_TOKEN_BYTES`] bytes and its length.
        token: Quote,
        /// How many values of the case came before it.
        values_read: usize,
    },
    /// A `0` after the first value of a case.
    ZeroInsideCase { values_read: usize },
    /// A ninth copy of a digit.
    DigitOverused { digit: u8 },
    /// The input ended inside a case.
    CutShort { values_read: usize },
    /// A line longer than [`MAX_LINE_LENGTH`].
    LineTooLong,
    /// A value after the 24th of a board given alone ([`parse_board`]).
    ExtraValues { token: Quote },
    /// Reading failed.
    Io(Arc<io::Error>),
}

impl ParseError {
    /// The number of the case (1-based) the error is in.
    pub fn case(&self) -> usize {
        self.case
    }

    /// The line (1-based) of the error.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The column (1-based, in bytes) of the error.
    pub fn column(&self) -> u64 {
        self.column
    }

    /// The byte offset of the error in the input; at most the input's length
    /// (equal to it when the input ended too soon).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the input could not be read (rather than being read and found
    /// bad).
    pub fn is_io(&self) -> bool {
        matches!(self.kind, ParseErrorKind::Io(_))
    }

    /// What is wrong, without where: the message that
    /// [`Display`](fmt::Display) gives after the case, line and column.
    pub fn reason(&self) -> impl fmt::Display + '_ {
        Reason(&self.kind)
    }

    /// Whether the error ends the input (otherwise only its case is lost and
    /// the reader can go on with the next one).
    pub fn is_fatal(&self) -> bool {
        matches!(
            self.kind,
            ParseErrorKind::CutShort { .. } | ParseErrorKind::LineTooLong | ParseErrorKind::Io(_)
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "case {}, line {}, column {}: {}",
            self.case,
            self.line,
            self.column,
            self.reason()
        )
    }
}

/// The message of a [`ParseErrorKind`].
struct Reason<'a>(&'a ParseErrorKind);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            ParseErrorKind::BadCaseStart { token } => write!(
                f,
                "expected 1, 2 or 3 (or 0 to end the input), found {token}{}",
                unusual_bytes(token)
            ),
            ParseErrorKind::BadToken { token, values_read } => write!(
                f,
                "expected 1, 2 or 3 (value {} of {CELL_COUNT}), found {token}{}",
                values_read + 1,
                unusual_bytes(token)
            ),
            ParseErrorKind::ZeroInsideCase { values_read } => write!(
                f,
                "expected 1, 2 or 3 (value {} of {CELL_COUNT}), found \"0\": 0 ends the input only between cases",
                values_read + 1
            ),
            ParseErrorKind::DigitOverused { digit } => write!(
                f,
                "found a ninth {digit}: each of 1, 2 and 3 must appear exactly 8 times"
            ),
            ParseErrorKind::CutShort { values_read } => write!(
                f,
                "expected {} more value{}, found the end of the input after {values_read} of the case's {CELL_COUNT}",
                CELL_COUNT - values_read,
                if CELL_COUNT - values_read == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            ParseErrorKind::LineTooLong => {
                write!(f, "line longer than {MAX_LINE_LENGTH} bytes")
            }
            ParseErrorKind::ExtraValues { token } => write!(
                f,
                "expected the end of the board after {CELL_COUNT} values, found {token}"
            ),
            ParseErrorKind::Io(error) => write!(f, "cannot read the input: {error}"),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseErrorKind::Io(error) => Some(error.as_ref()),
            _ => None,
        }
    }
}

/// What a quoted token's kept bytes hold that its escapes alone would not
/// make plain: ` (non-ASCII bytes)`, ` (control bytes)`, or nothing.
fn unusual_bytes(token: &Quote) -> &'static str {
    if token.head().iter().any(|b| !b.is_ascii()) {
        " (non-ASCII bytes)"
    } else if token.head().iter().any(|b| b.is_ascii_control()) {
        " (control bytes)"
    } else {
        ""
    }
}

/// ASCII whitespace as C's `isspace` sees it, which is what `cin` and
/// `scanf` skip.
#[inline]
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// One token, read by [`CaseReader::next_token`].
enum Token {
    /// A single byte `0`–`3`: the value.
    Value(u8),
    /// Anything else, quoted: its first [`QUOTED_TOKEN_BYTES`] bytes and
    /// its length.
    Other(Quote),
}

impl Token {
    /// The token made of `bytes`, all of them non-whitespace.
    fn of(bytes: &[u8]) -> Token {
        match bytes {
            [byte @ b'0'..=b'3'] => Token::Value(byte - b'0'),
            _ => Token::Other(Quote::from_head(
                &bytes[..bytes.len().min(QUOTED_TOKEN_BYTES)],
                bytes.len() as u64,
            )),
        }
    }
}

/// Where a token started.
#[derive(Clone, Copy)]
struct Position {
    line: u64,
    column: u64,
    offset: u64,
}

/// Reads judge cases one at a time from a byte stream; see the
/// [module docs](self).
///
/// As an iterator it yields each case's board or its error, and ends at the
/// terminating `0`, at the end of the input between cases, or after a fatal
/// error.
pub struct CaseReader<R> {
    input: R,
    buffer: Box<[u8]>,
    /// Next unread byte of the buffer.
    position: usize,
    /// End of the valid bytes of the buffer.
    filled: usize,
    /// Input offset of `buffer[0]`.
    buffer_offset: u64,
    /// Current line, 1-based.
    line: u64,
    /// Input offset of the current line's first byte.
    line_start: u64,
    /// Number of the case being read, 1-based.
    case: usize,
    /// Values of the previous, bad, case still to be skipped.
    skip: usize,
    /// Whether the input has ended (terminator, end of input or fatal error).
    finished: bool,
    /// Whether the input ended with the terminating `0`.
    terminated: bool,
}

impl<R: Read> CaseReader<R> {
    /// A reader over `input`. It does its own buffering: wrapping `input` in
    /// a `BufReader` gains nothing.
    pub fn new(input: R) -> CaseReader<R> {
        CaseReader {
            input,
            buffer: vec![0; BUFFER_SIZE].into_boxed_slice(),
            position: 0,
            filled: 0,
            buffer_offset: 0,
            line: 1,
            line_start: 0,
            case: 1,
            skip: 0,
            finished: false,
            terminated: false,
        }
    }

    /// A reader over `input` that goes on with a judge input whose first
    /// `offset` bytes were read elsewhere: they were whole lines (`offset`
    /// is the start of line `line`) holding whole cases (the next one is
    /// case `case`), and `input` starts at byte `offset`. It reads, numbers
    /// and reports from there exactly as one reader over the whole input
    /// would.
    pub(crate) fn resume(input: R, offset: u64, line: u64, case: usize) -> CaseReader<R> {
        CaseReader {
            buffer_offset: offset,
            line,
            line_start: offset,
            case,
            ..CaseReader::new(input)
        }
    }

    /// The number (1-based) of the next case to be read.
    pub fn next_case_number(&self) -> usize {
        self.case
    }

    /// Whether the input ended with its terminating `0` (rather than at the
    /// end of the input); meaningful once the reader has returned `None`.
    pub fn saw_terminator(&self) -> bool {
        self.terminated
    }

    /// Reads more input; false at the end of the input.
    fn refill(&mut self) -> Result<bool, ParseError> {
        self.buffer_offset += self.filled as u64;
        self.position = 0;
        self.filled = 0;
        loop {
            match self.input.read(&mut self.buffer) {
                Ok(read) => {
                    self.filled = read;
                    return Ok(read > 0);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => {
                    return Err(self.error_here(ParseErrorKind::Io(Arc::new(error))));
                }
            }
        }
    }

    fn offset(&self) -> u64 {
        self.buffer_offset + self.position as u64
    }

    fn here(&self) -> Position {
        let offset = self.offset();
        Position {
            line: self.line,
            column: offset - self.line_start + 1,
            offset,
        }
    }

    fn error_here(&self, kind: ParseErrorKind) -> ParseError {
        self.error_at(self.here(), kind)
    }

    fn error_at(&self, position: Position, kind: ParseErrorKind) -> ParseError {
        ParseError {
            case: self.case,
            line: position.line,
            column: position.column,
            offset: position.offset,
            kind,
        }
    }

    fn check_line_length(&self) -> Result<(), ParseError> {
        if self.offset() - self.line_start > MAX_LINE_LENGTH {
            let limit = Position {
                line: self.line,
                column: MAX_LINE_LENGTH + 1,
                offset: self.line_start + MAX_LINE_LENGTH,
            };
            return Err(self.error_at(limit, ParseErrorKind::LineTooLong));
        }
        Ok(())
    }

    /// Skips the whitespace in the buffer, counting lines; stops at a token
    /// or at the end of the buffer, without reading more.
    fn skip_buffered_whitespace(&mut self) -> Result<(), ParseError> {
        while self.position < self.filled {
            let byte = self.buffer[self.position];
            if byte == b'\n' {
                self.check_line_length()?;
                self.line += 1;
                self.line_start = self.offset() + 1;
            } else if !is_space(byte) {
                break;
            }
            self.position += 1;
        }
        self.check_line_length()
    }

    /// The next token and where it starts, or `None` at the end of the
    /// input.
    fn next_token(&mut self) -> Result<Option<(Token, Position)>, ParseError> {
        loop {
            self.skip_buffered_whitespace()?;
            if self.position < self.filled {
                break;
            }
            if !self.refill()? {
                return Ok(None);
            }
        }
        let start = self.here();
        // The common case: a one-byte token followed by whitespace.
        if self.position + 1 < self.filled && is_space(self.buffer[self.position + 1]) {
            let byte = self.buffer[self.position];
            self.position += 1;
            return Ok(Some((Token::of(&[byte]), start)));
        }
        // The general case, possibly across buffer refills: the token's
        // first bytes are kept, and all of them counted.
        let mut head = [0; QUOTED_TOKEN_BYTES];
        let mut length = 0u64;
        loop {
            while self.position < self.filled {
                let byte = self.buffer[self.position];
                if is_space(byte) {
                    break;
                }
                if length < QUOTED_TOKEN_BYTES as u64 {
                    head[length as usize] = byte;
                }
                length += 1;
                self.position += 1;
            }
            self.check_line_length()?;
            if self.position < self.filled || !self.refill()? {
                break;
            }
        }
        if length == 1 && (b'0'..=b'3').contains(&head[0]) {
            return Ok(Some((Token::Value(head[0] - b'0'), start)));
        }
        let kept = length.min(QUOTED_TOKEN_BYTES as u64) as usize;
        Ok(Some((
            Token::Other(Quote::from_head(&head[..kept], length)),
            start,
        )))
    }

    /// Skips the rest of a bad case: `self.skip` more values.
    fn skip_bad_case(&mut self) -> Result<(), ParseError> {
        while self.skip > 0 {
            if self.next_token()?.is_none() {
                self.finished = true;
                return Ok(());
            }
            self.skip -= 1;
        }
        Ok(())
    }

    /// Reads one case written the canonical way, `d d … d\n` (24 digits 1–3
    /// separated by single spaces, a whole line, eight of each digit), if the
    /// buffer holds one at the current position. Anything else, including
    /// every kind of error, is left to the general path, so this changes
    /// speed only, never results.
    ///
    /// It reads nothing beyond the buffer: an interactive user who has typed
    /// a case gets its answer without typing more.
    fn read_canonical_line(&mut self) -> Result<Option<Board>, ParseError> {
        self.skip_buffered_whitespace()?;
        if self.offset() != self.line_start || self.position + CANONICAL_LINE > self.filled {
            return Ok(None);
        }
        let Some(cells_of) = canonical_line_sets(self.buffered_line()) else {
            return Ok(None);
        };
        self.position += CANONICAL_LINE;
        self.line += 1;
        self.line_start = self.offset();
        Ok(Some(Board::from_cell_sets_unchecked(cells_of)))
    }

    /// The [`CANONICAL_LINE`] bytes from the current position, which the
    /// buffer must hold.
    fn buffered_line(&self) -> &[u8; CANONICAL_LINE] {
        self.buffer[self.position..self.position + CANONICAL_LINE]
            .try_into()
            .expect("a slice of CANONICAL_LINE bytes")
    }

    /// Reads, as the iterator would, the cases written the canonical way
    /// (see [`canonical_line_sets`]) that follow one another in the buffer
    /// from the current position, which must be the start of a line; at
    /// most `limit` of them. Appends their boards to `boards` and returns
    /// how many it read: 0 when the next case is not such a line, or not
    /// wholly buffered yet, and then the iterator reads it.
    ///
    /// This changes speed only. A case is taken here only when the
    /// iterator would read exactly that line as that board: it starts a
    /// line, with nothing before it, and the line is canonical. Nothing here
    /// can fail, and nothing is read from the input.
    pub(crate) fn read_canonical_run(&mut self, boards: &mut Vec<Board>, limit: usize) -> usize {
        if self.finished || self.skip > 0 {
            return 0;
        }
        let mut read = 0;
        while read < limit
            && self.position + CANONICAL_LINE <= self.filled
            && self.offset() == self.line_start
        {
            let Some(cells_of) = canonical_line_sets(self.buffered_line()) else {
                break;
            };
            boards.push(Board::from_cell_sets_unchecked(cells_of));
            self.position += CANONICAL_LINE;
            self.line += 1;
            self.line_start = self.offset();
            self.case += 1;
            read += 1;
        }
        read
    }

    /// Reads one case; `Ok(None)` when the input ends between cases.
    fn read_case(&mut self) -> Result<Option<Board>, ParseError> {
        if let Some(board) = self.read_canonical_line()? {
            return Ok(Some(board));
        }
        let mut case = CaseValues::default();
        loop {
            let Some((token, start)) = self.next_token()? else {
                if case.values_read == 0 {
                    return Ok(None);
                }
                let values_read = case.values_read;
                return Err(self.error_here(ParseErrorKind::CutShort { values_read }));
            };
            if case.values_read == 0 && matches!(token, Token::Value(0)) {
                self.terminated = true;
                return Ok(None);
            }
            match case.take(token) {
                Ok(Some(board)) => return Ok(Some(board)),
                Ok(None) => {}
                Err(kind) => {
                    // The bad value still counts as one of the case's 24.
                    self.skip = CELL_COUNT - case.values_read - 1;
                    let kind = match kind {
                        // Where a case may start, a 0 would have ended the input.
                        ParseErrorKind::BadToken {
                            token,
                            values_read: 0,
                        } => ParseErrorKind::BadCaseStart { token },
                        kind => kind,
                    };
                    return Err(self.error_at(start, kind));
                }
            }
        }
    }
}

/// The values of one case, taken one at a time: what the reader and
/// [`parse_board`] share.
#[derive(Default)]
struct CaseValues {
    cells_of: [u32; 3],
    counts: [u8; 3],
    values_read: usize,
}

impl CaseValues {
    /// Takes the next value: the board once it is the 24th, or what is
    /// wrong with it (then it is not counted).
    fn take(&mut self, token: Token) -> Result<Option<Board>, ParseErrorKind> {
        let values_read = self.values_read;
        let value = match token {
            Token::Value(0) => return Err(ParseErrorKind::ZeroInsideCase { values_read }),
            Token::Value(value) => value,
            Token::Other(token) => return Err(ParseErrorKind::BadToken { token, values_read }),
        };
        let index = usize::from(value - 1);
        if self.counts[index] == 8 {
            return Err(ParseErrorKind::DigitOverused { digit: value });
        }
        self.counts[index] += 1;
        self.cells_of[index] |= 1 << values_read;
        self.values_read += 1;
        // 24 values, none of the three digits more than 8 times: each exactly 8.
        Ok(
            (self.values_read == CELL_COUNT)
                .then(|| Board::from_cell_sets_unchecked(self.cells_of)),
        )
    }
}

impl<R: Read> Iterator for CaseReader<R> {
    type Item = Result<Board, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        let result = self.skip_bad_case().and_then(|()| {
            if self.finished {
                Ok(None)
            } else {
                self.read_case()
            }
        });
        match result {
            Ok(Some(board)) => {
                self.case += 1;
                Some(Ok(board))
            }
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(error) => {
                if error.is_fatal() {
                    self.finished = true;
                } else {
                    self.case += 1;
                }
                Some(Err(error))
            }
        }
    }
}

/// Reads one board given as text, as a command line takes it: 24 values
/// 1–3 separated by whitespace (`"1 1 1 1 3 2 …"`), or 24 digits written
/// together (`"111132323132231222312133"`).
///
/// # Errors
///
/// What the reader would report for the text (as case 1), with the column
/// of the offending value; a `0` is no value here, and values after the
/// 24th are an error.
///
/// # Example
///
/// ```
/// use rotation_game::parser::parse_board;
///
/// assert!(parse_board("111132323132231222312133").is_ok());
/// let error = parse_board("11113232313223122231213a").unwrap_err();
/// assert_eq!(error.column(), 24);
/// assert_eq!(error.reason().to_string(), "expected 1, 2 or 3 (value 24 of 24), found \"a\"");
/// ```
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let bytes = text.as_bytes();
    let error_at = |offset: usize, kind| {
        let before = &bytes[..offset];
        let line_start = before
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |newline| newline + 1);
        ParseError {
            case: 1,
            line: 1 + before.iter().filter(|&&byte| byte == b'\n').count() as u64,
            column: (offset - line_start + 1) as u64,
            offset: offset as u64,
            kind,
        }
    };
    // Without whitespace, each byte is a value (a text of one byte reads
    // the same either way).
    let compact = !bytes.iter().copied().any(is_space);
    let tokens: Vec<(usize, &[u8])> = if compact {
        (0..bytes.len()).map(|i| (i, &bytes[i..=i])).collect()
    } else {
        let mut tokens = Vec::new();
        let mut start = None;
        for (i, &byte) in bytes.iter().chain([b' '].iter()).enumerate() {
            match (start, is_space(byte)) {
                (None, false) => start = Some(i),
                (Some(first), true) => {
                    tokens.push((first, &bytes[first..i]));
                    start = None;
                }
                _ => {}
            }
        }
        tokens
    };
    let mut case = CaseValues::default();
    let mut board = None;
    for (offset, token) in tokens {
        if board.is_some() {
            let token = match Token::of(token) {
                Token::Value(value) => Quote::new(&[b'0' + value]),
                Token::Other(quote) => quote,
            };
            return Err(error_at(offset, ParseErrorKind::ExtraValues { token }));
        }
        board = case.take(Token::of(token)).map_err(|kind| {
            let kind = match kind {
                ParseErrorKind::ZeroInsideCase { values_read } => ParseErrorKind::BadToken {
                    token: Quote::new(b"0"),
                    values_read,
                },
                kind => kind,
            };
            error_at(offset, kind)
        })?;
    }
    board.ok_or_else(|| {
        let values_read = case.values_read;
        error_at(bytes.len(), ParseErrorKind::CutShort { values_read })
    })
}

impl std::str::FromStr for Board {
    type Err = ParseError;

    /// Reads a board as [`parse_board`] does.
    fn from_str(text: &str) -> Result<Board, ParseError> {
        parse_board(text)
    }
}

/// Bytes of a case written the canonical way: 24 digits, each followed by a
/// space or, the last, by a line feed.
pub(crate) const CANONICAL_LINE: usize = 2 * CELL_COUNT;

/// The digits' cell sets of a case written the canonical way, `d d … d\n`
/// (24 digits 1–3 separated by single spaces, a line feed after the last,
/// eight of each digit), or `None` when the bytes are anything else.
///
/// Eight bytes at a time: each little-endian word holds four cells, digits
/// in its even bytes and separators in its odd ones. A digit byte is
/// `0x31`, `0x32` or `0x33`, so its bit 0 is set for 1 and 3 and its bit 1
/// for 2 and 3; one multiplication gathers bit 0 of the four digits of a
/// word into four adjacent bits, another bit 1.
#[inline(always)]
pub(crate) fn canonical_line_sets(bytes: &[u8; CANONICAL_LINE]) -> Option<[u32; 3]> {
    /// Bit 0 of each digit byte of a word.
    const LANES: u64 = 0x0001_0001_0001_0001;
    /// The separator bytes of a word.
    const SEPARATORS: u64 = 0xff00_ff00_ff00_ff00;
    /// Multiplying the lanes by it moves bits 0, 16, 32 and 48 to bits 56
    /// to 59; no other product of two set bits lands on or carries into
    /// them (the others land on bits 11, 26, 27, 41, 42, 43, or past 63).
    const GATHER: u64 = (1 << 56) | (1 << 41) | (1 << 26) | (1 << 11);
    let mut bit0 = 0u32;
    let mut bit1 = 0u32;
    let mut bad = 0u64;
    for (index, word) in bytes.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let separators = if index == CANONICAL_LINE / 8 - 1 {
            0x0a00_2000_2000_2000
        } else {
            0x2000_2000_2000_2000
        };
        bad |= (word & SEPARATORS) ^ separators;
        let digits = word & !SEPARATORS;
        // 0x30 to 0x33 ...
        bad |= (digits & (0xfc * LANES)) ^ (0x30 * LANES);
        let ones = digits & LANES;
        let twos = (digits >> 1) & LANES;
        // ... but not 0x30.
        bad |= (ones | twos) ^ LANES;
        bit0 |= (((ones.wrapping_mul(GATHER) >> 56) & 0xf) as u32) << (4 * index);
        bit1 |= (((twos.wrapping_mul(GATHER) >> 56) & 0xf) as u32) << (4 * index);
    }
    let cells_of = [bit0 & !bit1, bit1 & !bit0, bit0 & bit1];
    // Every cell holds 1, 2 or 3, so eight 1s and eight 2s leave eight 3s.
    if bad != 0 || cells_of[0].count_ones() != 8 || cells_of[1].count_ones() != 8 {
        return None;
    }
    Some(cells_of)
}

/// Parses a whole judge input held in memory, stopping at the first error.
///
/// # Errors
///
/// The first error, as [`CaseReader`] reports it.
pub fn parse_all(input: &[u8]) -> Result<Vec<Board>, ParseError> {
    CaseReader::new(input).collect()
}

/// Formats boards as judge input: one case per line, values separated by
/// single spaces, and a final `0` line. [`parse_all`] reads it back as the
/// same boards.
pub fn format_input(boards: &[Board]) -> String {
    let mut text = String::with_capacity(boards.len() * 2 * CELL_COUNT + 2);
    for board in boards {
        board.write_judge_line(&mut text);
        text.push('\n');
    }
    text.push_str("0\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::sample::{FIRST_BOARD, INPUT as SAMPLE};

    fn errors(input: &[u8]) -> Vec<String> {
        CaseReader::new(input)
            .filter_map(Result::err)
            .map(|e| e.to_string())
            .collect()
    }

    #[test]
    fn reads_the_sample() {
        let boards = parse_all(SAMPLE.as_bytes()).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(format_input(&boards), SAMPLE);
    }

    #[test]
    fn values_may_span_lines_with_any_whitespace() {
        let spread = SAMPLE.replace(' ', "\r\n\t \x0b\x0c");
        assert_eq!(
            parse_all(spread.as_bytes()).unwrap(),
            parse_all(SAMPLE.as_bytes()).unwrap()
        );
    }

    #[test]
    fn ends_at_zero_or_end_of_input_and_ignores_the_rest() {
        assert_eq!(parse_all(b"").unwrap(), vec![]);
        assert_eq!(parse_all(b"  \n ").unwrap(), vec![]);
        let no_terminator = SAMPLE.trim_end_matches("0\n");
        assert_eq!(parse_all(no_terminator.as_bytes()).unwrap().len(), 2);
        let junk_after = format!("{SAMPLE}garbage \u{ff} 7 7\n");
        assert_eq!(parse_all(junk_after.as_bytes()).unwrap().len(), 2);
    }

    #[test]
    fn error_positions_point_at_the_token() {
        let input = format!("{FIRST_BOARD}\n1 1 4");
        let error = parse_all(input.as_bytes()).unwrap_err();
        assert_eq!((error.case(), error.line(), error.column()), (2, 2, 5));
        assert!(!error.is_fatal());
        assert_eq!(
            error.to_string(),
            "case 2, line 2, column 5: expected 1, 2 or 3 (value 3 of 24), found \"4\""
        );
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "9".repeat(100_000);
        let message = &errors(long.as_bytes())[0];
        assert!(message.ends_with("(100000 bytes)"), "{message}");
        assert!(message.len() < 150, "{message}");
    }

    #[test]
    fn a_bad_case_is_skipped_and_the_next_one_read() {
        let input = SAMPLE.replacen('3', "x", 1);
        let results: Vec<_> = CaseReader::new(input.as_bytes()).collect();
        assert_eq!(results.len(), 2);
        assert!(results[0].is_err());
        assert_eq!(
            results[1].as_ref().unwrap().to_string(),
            SAMPLE.lines().nth(1).unwrap()
        );
    }

    #[test]
    fn overlong_lines_are_fatal() {
        let input = " ".repeat(MAX_LINE_LENGTH as usize + 10);
        let results: Vec<_> = CaseReader::new(input.as_bytes()).collect();
        assert_eq!(results.len(), 1);
        let error = results[0].as_ref().unwrap_err();
        assert!(error.is_fatal());
        assert_eq!(error.column(), MAX_LINE_LENGTH + 1);
    }

    /// The word-at-a-time reading of canonical lines agrees with a byte by
    /// byte one on a valid line and on every change of one of its bytes.
    #[test]
    fn canonical_line_sets_match_a_plain_reading() {
        let plain = |bytes: &[u8; CANONICAL_LINE]| -> Option<[u32; 3]> {
            let mut sets = [0u32; 3];
            for cell in 0..CELL_COUNT {
                let separator = if cell + 1 < CELL_COUNT { b' ' } else { b'\n' };
                if bytes[2 * cell + 1] != separator {
                    return None;
                }
                match bytes[2 * cell] {
                    digit @ b'1'..=b'3' => sets[usize::from(digit - b'1')] |= 1 << cell,
                    _ => return None,
                }
            }
            sets.iter().all(|set| set.count_ones() == 8).then_some(sets)
        };
        let line: [u8; CANONICAL_LINE] =
            format!("{FIRST_BOARD}\n").into_bytes().try_into().unwrap();
        assert!(plain(&line).is_some());
        assert_eq!(canonical_line_sets(&line), plain(&line));
        for position in 0..CANONICAL_LINE {
            for byte in 0..=u8::MAX {
                let mut changed = line;
                changed[position] = byte;
                assert_eq!(
                    canonical_line_sets(&changed),
                    plain(&changed),
                    "{position} {byte}"
                );
            }
        }
    }

    #[test]
    fn a_canonical_run_reads_what_the_iterator_reads() {
        let input = SAMPLE.replace("0\n", "");
        let input = format!("{input}{input} {input}\n\n{input}0\n");
        let expected: Vec<_> = CaseReader::new(input.as_bytes())
            .map(Result::unwrap)
            .collect();
        let mut reader = CaseReader::new(input.as_bytes());
        let mut boards = Vec::new();
        loop {
            if reader.read_canonical_run(&mut boards, 3) > 0 {
                continue;
            }
            let case = reader.next_case_number();
            match reader.next() {
                Some(board) => boards.push(board.unwrap()),
                None => break,
            }
            assert_eq!(reader.next_case_number(), case + 1);
        }
        assert_eq!(boards, expected);
        assert!(reader.saw_terminator());
    }

    /// A reader that plays a script of reads: bytes, or an error of a kind.
    struct Script(std::collections::VecDeque<Result<&'static [u8], io::ErrorKind>>);

    impl Read for Script {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            match self.0.pop_front() {
                None => Ok(0),
                Some(Ok(bytes)) => {
                    buffer[..bytes.len()].copy_from_slice(bytes);
                    Ok(bytes.len())
                }
                Some(Err(kind)) => Err(io::Error::new(kind, "scripted")),
            }
        }
    }

    fn script(reads: Vec<Result<&'static [u8], io::ErrorKind>>) -> Script {
        Script(reads.into())
    }

    /// An interrupted read is tried again, as `Read::read`'s contract asks;
    /// any other failure is a fatal I/O error where reading stopped, whose
    /// source is the I/O error. Errors of the input itself are not I/O.
    #[test]
    fn interrupted_reads_are_retried_and_failed_ones_reported() {
        let first = "1 1 1 1 3 2 3 2 3 1 3 2 ";
        let rest = "2 3 1 2 2 2 3 1 2 1 3 3\n0\n";
        let reads = vec![
            Ok(first.as_bytes()),
            Err(io::ErrorKind::Interrupted),
            Ok(rest.as_bytes()),
        ];
        let boards: Vec<_> = CaseReader::new(script(reads)).collect();
        assert_eq!(boards.len(), 1);
        assert_eq!(boards[0].as_ref().unwrap().to_string(), FIRST_BOARD);

        let reads = vec![
            Ok(first.as_bytes()),
            Err(io::ErrorKind::Other),
            Ok(rest.as_bytes()),
        ];
        let results: Vec<_> = CaseReader::new(script(reads)).collect();
        assert_eq!(results.len(), 1, "the error ends the input");
        let error = results[0].as_ref().unwrap_err();
        assert!(error.is_io() && error.is_fatal());
        assert_eq!((error.line(), error.offset()), (1, first.len() as u64));
        let source = std::error::Error::source(error).expect("the I/O error");
        assert_eq!(source.to_string(), "scripted");
        assert!(
            error
                .to_string()
                .ends_with("cannot read the input: scripted")
        );

        let bad = parse_all(b"1 1 4").unwrap_err();
        assert!(!bad.is_io());
        assert!(std::error::Error::source(&bad).is_none());
    }

    /// Whether the input ended with its `0` or just ended.
    #[test]
    fn the_terminator_is_told_from_the_end_of_the_input() {
        let mut reader = CaseReader::new(SAMPLE.as_bytes());
        assert_eq!(reader.by_ref().count(), 2);
        assert!(reader.saw_terminator());
        let unterminated = SAMPLE.trim_end_matches("0\n");
        let mut reader = CaseReader::new(unterminated.as_bytes());
        assert_eq!(reader.by_ref().count(), 2);
        assert!(!reader.saw_terminator());
    }

    /// A line may be [`MAX_LINE_LENGTH`] bytes long, not one more; the error
    /// points at the first byte beyond, on whichever line it is.
    #[test]
    fn a_line_may_be_as_long_as_the_limit_and_no_longer() {
        let limit = MAX_LINE_LENGTH as usize;
        let padded =
            |length: usize| format!("{FIRST_BOARD}{}\n", " ".repeat(length - FIRST_BOARD.len()));
        let at_limit = padded(limit);
        let input = format!("{FIRST_BOARD}\n{at_limit}0\n");
        assert_eq!(parse_all(input.as_bytes()).unwrap().len(), 2);

        // Beyond the limit, on line 2 (found while case 3 is looked for,
        // after case 2's values): the checks fall at buffer ends, which are
        // not at the limit from this line's start.
        let beyond = padded(limit + 10);
        let input = format!("{FIRST_BOARD}\n{beyond}0\n");
        let error = parse_all(input.as_bytes()).unwrap_err();
        let line_start = FIRST_BOARD.len() as u64 + 1;
        assert!(matches!(error.kind, ParseErrorKind::LineTooLong), "{error}");
        assert_eq!(
            (error.case(), error.line(), error.column(), error.offset()),
            (3, 2, MAX_LINE_LENGTH + 1, line_start + MAX_LINE_LENGTH)
        );
    }

    /// A reader resumed where a line starts reads, numbers and reports the
    /// rest exactly as one reader over the whole input does, however far
    /// into the input that is (here beyond [`MAX_LINE_LENGTH`]).
    #[test]
    fn a_resumed_reader_reads_as_the_whole_reader() {
        let lines = 25_000;
        let mut input = format!("{FIRST_BOARD}\n").repeat(lines);
        let offset = input.len() as u64;
        assert!(offset > MAX_LINE_LENGTH);
        input.push_str(&format!("{FIRST_BOARD}\n  1 2 x\n"));
        let describe = |result: Result<Board, ParseError>| match result {
            Ok(board) => board.to_string(),
            Err(error) => format!("{error} at {}", error.offset()),
        };
        let whole: Vec<String> = CaseReader::new(input.as_bytes())
            .skip(lines)
            .map(describe)
            .collect();
        let rest = &input.as_bytes()[offset as usize..];
        let resumed: Vec<String> = CaseReader::resume(rest, offset, lines as u64 + 1, lines + 1)
            .map(describe)
            .collect();
        assert_eq!(resumed, whole);
        assert_eq!(whole.len(), 2);
        assert!(
            whole[1].starts_with("case 25002, line 25002, column 7:"),
            "{}",
            whole[1]
        );
    }

    /// The fast path takes a canonical line that starts a line and is
    /// wholly buffered, down to the buffer's last byte.
    #[test]
    fn a_wholly_buffered_canonical_line_takes_the_fast_path() {
        let line: &'static str = format!("{FIRST_BOARD}\n").leak();
        assert_eq!(line.len(), CANONICAL_LINE);
        let mut reader = CaseReader::new(line.as_bytes());
        assert!(reader.refill().unwrap());
        let board = reader.read_canonical_line().unwrap();
        assert_eq!(
            board.map(|board| board.to_string()),
            Some(FIRST_BOARD.to_owned())
        );
        assert_eq!((reader.line, reader.offset()), (2, CANONICAL_LINE as u64));

        // A line's first bytes, with the rest of the buffer still holding an
        // earlier read of the whole line: only what was read counts.
        let start = &FIRST_BOARD.as_bytes()[..5];
        let mut reader = CaseReader::new(script(vec![Ok(line.as_bytes()), Ok(start)]));
        assert!(reader.refill().unwrap() && reader.refill().unwrap());
        assert_eq!((reader.position, reader.filled), (0, 5));
        assert!(reader.read_canonical_line().unwrap().is_none());
    }

    /// Runs of canonical lines, interleaved with the iterator, give what the
    /// iterator alone gives, on inputs where a run must stop: after a bad
    /// case whose values go on over canonical lines, after the terminating
    /// `0`, and at cases that start inside a line. Where every case is a
    /// wholly buffered canonical line, the runs read them all.
    #[test]
    fn canonical_runs_stop_where_the_iterator_must_read() {
        let line = format!("{FIRST_BOARD}\n");
        let inputs = [
            format!("1 1 x\n{line}{line}{line}{line}0\n"),
            format!("{line}0\n{line}{line}"),
            format!("{FIRST_BOARD} {line}{line}"),
            format!("{line}{line}{line}{line}{line}"),
        ];
        for input in &inputs {
            let describe = |result: Result<Board, ParseError>| match result {
                Ok(board) => board.to_string(),
                Err(error) => error.to_string(),
            };
            let expected: Vec<String> = CaseReader::new(input.as_bytes()).map(describe).collect();
            let mut reader = CaseReader::new(input.as_bytes());
            let mut read = Vec::new();
            let mut by_runs = 0;
            loop {
                let mut boards = Vec::new();
                let taken = reader.read_canonical_run(&mut boards, 2);
                assert_eq!(taken, boards.len());
                assert!(taken <= 2, "at most the limit");
                by_runs += taken;
                read.extend(boards.iter().map(Board::to_string));
                if taken > 0 {
                    continue;
                }
                match reader.next() {
                    Some(result) => read.push(describe(result)),
                    None => break,
                }
            }
            assert_eq!(read, expected, "{input:?}");
            if input == &inputs[3] {
                // The iterator reads the first line (filling the buffer) and
                // the second (the first's line break still before it); the
                // runs read the other three.
                assert_eq!(by_runs, 3);
            }
        }
    }

    /// A board on the command line: 24 digits together, or 24 values
    /// separated by any whitespace, across lines too; errors say where, on
    /// which line, what they found, and count a `0` or a 25th value as
    /// errors.
    #[test]
    fn parse_board_reads_both_forms_and_points_at_errors() {
        use crate::sample::FIRST_BOARD_COMPACT;
        let board = parse_board(FIRST_BOARD_COMPACT).unwrap();
        assert_eq!(board.to_string(), FIRST_BOARD);
        let spread = FIRST_BOARD.replacen(' ', "\n  ", 12).replacen(' ', "\t", 3);
        assert_eq!(parse_board(&format!("  {spread}\n")).unwrap(), board);

        let located = |text: &str| {
            let error = parse_board(text).unwrap_err();
            (
                error.line(),
                error.column(),
                error.offset(),
                error.reason().to_string(),
            )
        };
        // Line 3 starts after "1 1 1 1 3 2 3 2 3\n" and "1 3 2 2 3\n".
        let three_lines = "1 1 1 1 3 2 3 2 3\n1 3 2 2 3\n1 2 2 x 3 1 2 1 3 3";
        assert_eq!(
            located(three_lines),
            (
                3,
                7,
                34,
                "expected 1, 2 or 3 (value 18 of 24), found \"x\"".to_owned()
            )
        );
        assert_eq!(
            located(&format!("{FIRST_BOARD} 2")),
            (
                1,
                49,
                48,
                "expected the end of the board after 24 values, found \"2\"".to_owned()
            )
        );
        assert_eq!(
            located(&FIRST_BOARD.replacen('3', "0", 1)),
            (
                1,
                9,
                8,
                "expected 1, 2 or 3 (value 5 of 24), found \"0\"".to_owned()
            )
        );
        assert_eq!(
            located("1 2\n3"),
            (
                2,
                2,
                5,
                "expected 21 more values, found the end of the input after 3 of the case's 24"
                    .to_owned()
            )
        );
        assert_eq!(
            located("1"),
            (
                1,
                2,
                1,
                "expected 23 more values, found the end of the input after 1 of the case's 24"
                    .to_owned()
            )
        );
        assert_eq!(
            located("1112"),
            (
                1,
                5,
                4,
                "expected 20 more values, found the end of the input after 4 of the case's 24"
                    .to_owned()
            )
        );
    }

    #[test]
    fn cut_short_points_at_the_end() {
        let input = "1 2 3";
        let error = parse_all(input.as_bytes()).unwrap_err();
        assert!(error.is_fatal());
        assert_eq!(error.offset(), input.len() as u64);
        assert_eq!(error.column(), 6);
    }
}
