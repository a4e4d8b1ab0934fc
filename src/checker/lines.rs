//! Reading untrusted output line by line, in bounded memory and time.
//!
//! A [`LineReader`] never holds more than one fixed buffer and the first
//! [`QUOTE_BYTES`] of the current line, whatever the output holds: an
//! endless line, binary bytes, NULs. It stops with
//! [`Stop::LimitExceeded`] as soon as it has read one byte past its limit,
//! so that an output flood is decided without reading it all.

use std::io::{self, Read};

use crate::board::Board;
use crate::moves::Move;
use crate::{
    quote::{QUOTE_BYTES, Quote},
    read_buffer::BUFFER_SIZE,
};

/// Why reading stopped before the end of the output.
#[derive(Debug)]
pub(crate) enum Stop {
    /// More than the limit's bytes.
    LimitExceeded,
    /// The output could not be read.
    Io(io::Error),
}

/// Bytes that may end a line leniently: trailing spaces, tabs and the CR of
/// a CRLF line end.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r')
}

/// What one line held, summarised as it streamed by.
#[derive(Debug)]
pub(crate) struct Line {
    /// Line number, 1-based.
    pub number: u64,
    /// The first [`QUOTE_BYTES`] bytes of the line (the first
    /// `head_length` of this array), kept inline so that reading a line
    /// allocates nothing.
    head: [u8; QUOTE_BYTES],
    head_length: usize,
    /// The line's length in bytes, without its line feed.
    length: u64,
    /// Length of the run of blanks (space, tab, CR) that ends the line.
    trailing_blanks: u64,
    /// Whether the line's last byte is a CR (a CRLF line end).
    pub ends_with_cr: bool,
    /// Whether a line feed ended the line (otherwise the output did).
    pub has_newline: bool,
    /// Whether a blank is followed by a non-blank somewhere in the line.
    pub has_inner_blank: bool,
    /// Whether every non-blank byte is one of the move letters `A`–`H`.
    pub letters_only: bool,
    /// How many move letters the line holds.
    pub letters: u64,
    /// The board given to [`LineReader::next_line`] after the line's move
    /// letters, applied in order.
    pub replayed: Option<Board>,
}

impl Default for Line {
    /// An empty line, numbered 0, replaying nothing.
    fn default() -> Line {
        Line {
            number: 0,
            head: [0; QUOTE_BYTES],
            head_length: 0,
            length: 0,
            trailing_blanks: 0,
            ends_with_cr: false,
            has_newline: false,
            has_inner_blank: false,
            letters_only: true,
            letters: 0,
            replayed: None,
        }
    }
}

impl Line {
    /// The line without its trailing blanks, as far as it was kept; the
    /// whole of it when [`Line::core_length`] is at most [`QUOTE_BYTES`].
    pub fn core_head(&self) -> &[u8] {
        let core = self.core_length().min(self.head_length as u64) as usize;
        &self.head[..core]
    }

    /// The length of the line without its trailing blanks.
    pub fn core_length(&self) -> u64 {
        self.length - self.trailing_blanks
    }

    /// Whether the line has trailing blanks (including a CR).
    pub fn has_trailing_blanks(&self) -> bool {
        self.trailing_blanks > 0
    }

    /// The line without its trailing blanks, quoted for a message.
    pub fn quote_core(&self) -> Quote {
        Quote::from_head(self.core_head(), self.core_length())
    }

    fn take(&mut self, bytes: &[u8]) {
        let kept = bytes.len().min(QUOTE_BYTES - self.head_length);
        self.head[self.head_length..self.head_length + kept].copy_from_slice(&bytes[..kept]);
        self.head_length += kept;
        self.length += bytes.len() as u64;
        // The common case, move letters only after no blank: what the loop
        // below does, without deciding byte by byte.
        let letters = |byte: &u8| byte.wrapping_sub(b'A') < 8;
        if !bytes.is_empty() && self.trailing_blanks == 0 && bytes.iter().all(letters) {
            self.letters += bytes.len() as u64;
            if let Some(board) = &mut self.replayed {
                for &letter in bytes {
                    *board = board.apply(Move::ALL[usize::from((letter - b'A') & 7)]);
                }
            }
            self.ends_with_cr = false;
            return;
        }
        for &byte in bytes {
            if is_blank(byte) {
                self.trailing_blanks += 1;
                continue;
            }
            if self.trailing_blanks > 0 {
                self.has_inner_blank = true;
                self.trailing_blanks = 0;
            }
            match Move::from_letter(byte) {
                Some(m) => {
                    self.letters += 1;
                    self.replayed = self.replayed.map(|board| board.apply(m));
                }
                None => self.letters_only = false,
            }
        }
        if let Some(&last) = bytes.last() {
            self.ends_with_cr = last == b'\r';
        }
    }
}

/// Reads lines from an output, at most `limit` bytes of it; see the
/// [module docs](self).
pub(crate) struct LineReader<R> {
    input: R,
    buffer: Box<[u8]>,
    position: usize,
    filled: usize,
    /// Bytes read from the input so far.
    total: u64,
    limit: u64,
    /// Lines started so far.
    lines: u64,
    at_end: bool,
}

impl<R: Read> LineReader<R> {
    /// A reader over `input` that stops once it has read more than `limit`
    /// bytes.
    pub fn new(input: R, limit: u64) -> LineReader<R> {
        LineReader {
            input,
            buffer: vec![0; BUFFER_SIZE].into_boxed_slice(),
            position: 0,
            filled: 0,
            total: 0,
            limit,
            lines: 0,
            at_end: false,
        }
    }

    /// The number the next line would have.
    pub fn next_line_number(&self) -> u64 {
        self.lines + 1
    }

    /// Reads more input into the buffer; false at the end of the output.
    fn refill(&mut self) -> Result<bool, Stop> {
        if self.at_end {
            return Ok(false);
        }
        // One byte past the limit is enough to know it is exceeded.
        let allowed = (self.limit - self.total.min(self.limit)).saturating_add(1);
        let want = usize::try_from(allowed)
            .unwrap_or(usize::MAX)
            .min(BUFFER_SIZE);
        loop {
            match self.input.read(&mut self.buffer[..want]) {
                Ok(0) => {
                    self.at_end = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.total += read as u64;
                    if self.total > self.limit {
                        return Err(Stop::LimitExceeded);
                    }
                    self.position = 0;
                    self.filled = read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(Stop::Io(error)),
            }
        }
    }

    /// The next line, with the move letters in it applied to `replay_from`
    /// when given; `None` at the end of the output.
    #[cfg(test)]
    pub fn next_line(&mut self, replay_from: Option<Board>) -> Result<Option<Line>, Stop> {
        let mut line = Line::default();
        Ok(self.read_line(&mut line, replay_from)?.then_some(line))
    }

    /// Reads the next line into `line` (whatever it held before), with the
    /// move letters in it applied to `replay_from` when given; false at the
    /// end of the output. Reusing one `Line` saves moving its kept bytes.
    pub fn read_line(&mut self, line: &mut Line, replay_from: Option<Board>) -> Result<bool, Stop> {
        if self.position == self.filled && !self.refill()? {
            return Ok(false);
        }
        self.lines += 1;
        *line = Line {
            number: self.lines,
            replayed: replay_from,
            ..Line::default()
        };
        loop {
            let available = &self.buffer[self.position..self.filled];
            match available.iter().position(|&byte| byte == b'\n') {
                Some(end) => {
                    line.take(&available[..end]);
                    line.has_newline = true;
                    self.position += end + 1;
                    return Ok(true);
                }
                None => {
                    line.take(available);
                    self.position = self.filled;
                    if !self.refill()? {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Reads the rest of the output, up to the limit, without looking at it.
    pub fn drain(&mut self) -> Result<(), Stop> {
        self.position = self.filled;
        while self.refill()? {
            self.position = self.filled;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::FIRST_BOARD_COMPACT;

    fn lines(text: &[u8]) -> Vec<Line> {
        let mut reader = LineReader::new(text, u64::MAX);
        std::iter::from_fn(|| reader.next_line(None).unwrap()).collect()
    }

    #[test]
    fn splits_lines_and_notes_their_ends() {
        let found = lines(b"AC \r\n2\nx");
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].core_head(), b"AC");
        assert!(found[0].ends_with_cr && found[0].has_trailing_blanks());
        assert!(found[1].has_newline && !found[1].has_trailing_blanks());
        assert!(!found[2].has_newline);
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"\n").len(), 1);
    }

    #[test]
    fn classifies_letters_and_inner_blanks() {
        let found = lines(b"ABH\nA B\nAI\nNo moves needed  \n");
        assert!(found[0].letters_only && !found[0].has_inner_blank);
        assert_eq!(found[0].letters, 3);
        assert!(found[1].has_inner_blank);
        assert!(!found[2].letters_only);
        assert_eq!(found[3].core_head(), b"No moves needed");
    }

    #[test]
    fn replays_move_letters_across_buffer_refills() {
        let board: Board = FIRST_BOARD_COMPACT.parse().unwrap();
        let moves = b"AC".repeat(BUFFER_SIZE);
        let mut reader = LineReader::new(&moves[..], u64::MAX);
        let line = reader.next_line(Some(board)).unwrap().unwrap();
        let mut expected = board;
        for _ in 0..BUFFER_SIZE {
            expected = expected.apply_all(&[Move::ALL[0], Move::ALL[2]]);
        }
        assert_eq!(line.replayed, Some(expected));
        assert_eq!(line.letters, 2 * BUFFER_SIZE as u64);
        assert_eq!(line.quote_core().head().len(), QUOTE_BYTES);
    }

    /// Reads as the scripted pieces, one per `read` call, with an
    /// interrupted read before each.
    struct Pieces(Vec<&'static [u8]>, bool);

    impl Read for Pieces {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            self.1 = !self.1;
            if self.1 {
                return Err(io::ErrorKind::Interrupted.into());
            }
            if self.0.is_empty() {
                return Ok(0);
            }
            let piece = self.0.remove(0);
            buffer[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    /// A line that reaches the reader in pieces, each after an interrupted
    /// read, is classified as a whole: letters after blanks that ended an
    /// earlier piece are after an inner blank.
    #[test]
    fn a_line_read_in_pieces_is_one_line() {
        let pieces = Pieces(vec![b"AC", b"  ", b"BD\n", b"2\n"], false);
        let mut reader = LineReader::new(pieces, u64::MAX);
        let line = reader.next_line(None).unwrap().unwrap();
        assert_eq!(line.letters, 4);
        assert!(line.letters_only && line.has_inner_blank);
        assert_eq!(line.core_length(), 6);
        assert_eq!(reader.next_line(None).unwrap().unwrap().core_head(), b"2");
        assert!(reader.next_line(None).unwrap().is_none());
    }

    /// A failed read (not an interrupted one) stops the reading, though the
    /// next read would have found more.
    #[test]
    fn a_failed_read_stops_reading() {
        struct Failing(u8);
        impl Read for Failing {
            fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => Err(io::Error::other("unreadable")),
                    2 => {
                        buffer[0] = b'A';
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let mut reader = LineReader::new(Failing(0), u64::MAX);
        assert!(
            matches!(reader.next_line(None), Err(Stop::Io(error)) if error.to_string() == "unreadable")
        );
    }

    /// Only `A` to `H` are move letters: a line of the letter after them is
    /// neither letters nor moves.
    #[test]
    fn letters_beyond_h_are_not_moves() {
        let board: Board = FIRST_BOARD_COMPACT.parse().unwrap();
        let mut reader = LineReader::new(&b"IIII\n"[..], u64::MAX);
        let line = reader.next_line(Some(board)).unwrap().unwrap();
        assert!(!line.letters_only);
        assert_eq!(line.letters, 0);
        assert_eq!(line.replayed, Some(board));
    }

    #[test]
    fn stops_one_byte_past_the_limit() {
        let text = vec![b'A'; 1000];
        let mut reader = LineReader::new(&text[..], 999);
        assert!(matches!(reader.next_line(None), Err(Stop::LimitExceeded)));
        let mut reader = LineReader::new(&text[..], 1000);
        assert_eq!(reader.next_line(None).unwrap().unwrap().core_length(), 1000);
        reader.drain().unwrap();
    }
}
