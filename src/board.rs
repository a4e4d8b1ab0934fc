//! The board: which digit sits on each of the 24 cells.
//!
//! # Overview
//!
//! A [`Board`] stores one cell set (a 24-bit mask) per [`Digit`]. This makes a
//! board 12 bytes, a move three table lookups per digit, the centre test three
//! mask comparisons, and the pattern database's key for a digit simply that
//! digit's mask. The criterion group `representation` (`cargo bench --bench
//! solve -- representation`) compares it with a plain array of 24 digits.
//!
//! Invariant, upheld by every constructor: the three sets are disjoint, each
//! holds exactly eight cells, and together they cover all 24 cells.

use std::fmt;

use crate::cells::EightCells;
use crate::geometry::{ALL_CELLS, CELL_COUNT, CENTRE};
use crate::moves::{Move, MoveSequence};

/// One of the three tile digits, 1, 2 or 3.
///
/// A newtype so that a digit is never confused with a cell, a move or a
/// count; its index (0, 1, 2) addresses the board's cell sets.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Digit(u8);

impl Digit {
    /// The three digits, in increasing order.
    pub const ALL: [Digit; 3] = [Digit(1), Digit(2), Digit(3)];

    /// The digit with the given value, if it is 1, 2 or 3.
    pub const fn new(value: u8) -> Option<Digit> {
        match value {
            1..=3 => Some(Digit(value)),
            _ => None,
        }
    }

    /// The digit's value: 1, 2 or 3.
    pub const fn value(self) -> u8 {
        self.0
    }

    /// The digit's index among [`Digit::ALL`]: 0, 1 or 2.
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }
}

impl serde::Serialize for Digit {
    /// The digit's value, a number.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a list of 24 values is not a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A value other than 1, 2 or 3, at the given cell.
    #[error("cell {cell} holds {value}, expected 1, 2 or 3")]
    NotADigit {
        /// The cell holding it.
        cell: usize,
        /// The value found.
        value: u8,
    },
    /// A digit that does not appear exactly eight times.
    #[error("digit {digit} appears {count} times, expected exactly 8")]
    WrongCount {
        /// The digit.
        digit: u8,
        /// How often it appears.
        count: usize,
    },
    /// Not 24 values.
    #[error("{0} values, expected 24")]
    WrongLength(usize),
}

/// A position of the game: the digit on each cell.
///
/// Boards compare and hash by content. See the [module docs](self) for the
/// representation and its invariant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// `cells_of[d.index()]` is the set of cells holding digit `d`.
    cells_of: [u32; 3],
}

impl Board {
    /// The board with the given digit on each cell, cell 0 first.
    ///
    /// # Errors
    ///
    /// When `values` is not 24 long, holds a value other than 1, 2 or 3, or
    /// does not hold each digit exactly eight times.
    pub fn from_values(values: &[u8]) -> Result<Board, BoardError> {
        if values.len() != CELL_COUNT {
            return Err(BoardError::WrongLength(values.len()));
        }
        let mut cells_of = [0u32; 3];
        for (cell, &value) in values.iter().enumerate() {
            let digit = Digit::new(value).ok_or(BoardError::NotADigit { cell, value })?;
            cells_of[digit.index()] |= 1 << cell;
        }
        Board::from_cell_sets(cells_of)
    }

    /// The board whose digit `d` sits on the cells of `cells_of[d.index()]`.
    ///
    /// # Errors
    ///
    /// When the sets are not disjoint eight-cell subsets of the board.
    pub fn from_cell_sets(cells_of: [u32; 3]) -> Result<Board, BoardError> {
        for (digit, set) in Digit::ALL.iter().zip(cells_of) {
            let count = (set & ALL_CELLS).count_ones() as usize;
            if count != 8 {
                return Err(BoardError::WrongCount {
                    digit: digit.value(),
                    count,
                });
            }
        }
        if cells_of[0] | cells_of[1] | cells_of[2] != ALL_CELLS {
            // Three 8-sets within 24 cells that do not cover them overlap.
            let counts = Board::counts_of_overlapping(cells_of);
            return Err(BoardError::WrongCount {
                digit: counts.0,
                count: counts.1,
            });
        }
        Ok(Board { cells_of })
    }

    /// For sets that overlap: the first digit whose cells, counted only where
    /// no smaller digit already is, are not eight.
    fn counts_of_overlapping(cells_of: [u32; 3]) -> (u8, usize) {
        let mut taken = 0;
        for (digit, set) in Digit::ALL.iter().zip(cells_of) {
            let count = (set & !taken).count_ones() as usize;
            if count != 8 {
                return (digit.value(), count);
            }
            taken |= set;
        }
        (3, 8)
    }

    /// A board from cell sets the caller knows to be valid (checked in debug
    /// builds only): for generators and searches that build boards by moves.
    pub(crate) fn from_cell_sets_unchecked(cells_of: [u32; 3]) -> Board {
        debug_assert!(Board::from_cell_sets(cells_of).is_ok());
        Board { cells_of }
    }

    /// The eight cells holding `digit`.
    #[inline]
    pub const fn cells_of(&self, digit: Digit) -> EightCells {
        EightCells::from_mask_unchecked(self.cells_of[digit.index()])
    }

    /// The cells of digits 1, 2 and 3.
    #[inline]
    pub fn cell_sets(&self) -> [EightCells; 3] {
        self.cells_of.map(EightCells::from_mask_unchecked)
    }

    /// The digit on `cell`.
    ///
    /// # Panics
    ///
    /// When `cell` is 24 or more.
    pub fn digit_at(&self, cell: usize) -> Digit {
        assert!(cell < CELL_COUNT, "cell {cell} is off the board");
        let bit = 1 << cell;
        if self.cells_of[0] & bit != 0 {
            Digit(1)
        } else if self.cells_of[1] & bit != 0 {
            Digit(2)
        } else {
            Digit(3)
        }
    }

    /// The 24 values, cell 0 first.
    pub fn values(&self) -> [u8; CELL_COUNT] {
        std::array::from_fn(|cell| self.digit_at(cell).value())
    }

    /// The board after `m`.
    #[inline]
    pub fn apply(&self, m: Move) -> Board {
        let ones = m.apply_to_cells(self.cells_of[0]);
        let twos = m.apply_to_cells(self.cells_of[1]);
        // The 3s fill whatever the 1s and 2s leave: two moves of sets instead
        // of three.
        Board {
            cells_of: [ones, twos, ALL_CELLS & !(ones | twos)],
        }
    }

    /// The board after each move of `moves` in turn.
    pub fn apply_all(&self, moves: &[Move]) -> Board {
        moves.iter().fold(*self, |board, &m| board.apply(m))
    }

    /// The digit filling the whole centre, or `None` when the centre is mixed.
    #[inline]
    pub fn uniform_centre(&self) -> Option<Digit> {
        Digit::ALL
            .into_iter()
            .find(|&d| self.cells_of[d.index()] & CENTRE == CENTRE)
    }

    /// Whether the eight centre cells hold the same digit: the goal.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.uniform_centre().is_some()
    }

    /// How many centre cells hold `digit`.
    #[inline]
    pub fn centre_count(&self, digit: Digit) -> u32 {
        (self.cells_of[digit.index()] & CENTRE).count_ones()
    }

    /// The board after replaying `moves`, with the digit then in the centre,
    /// if it is uniform.
    pub fn replay(&self, moves: &MoveSequence) -> (Board, Option<Digit>) {
        let end = self.apply_all(moves.as_slice());
        (end, end.uniform_centre())
    }

    /// The board as one judge-input line: 24 values separated by spaces.
    pub fn to_judge_line(&self) -> String {
        let mut line = String::with_capacity(2 * CELL_COUNT);
        self.write_judge_line(&mut line);
        line
    }

    /// Appends the board as 24 values separated by single spaces, with no
    /// newline.
    pub fn write_judge_line(&self, out: &mut String) {
        for (cell, value) in self.values().iter().enumerate() {
            if cell > 0 {
                out.push(' ');
            }
            out.push((b'0' + value) as char);
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_judge_line())
    }
}

impl serde::Serialize for Board {
    /// The judge-input line, a string.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Board {
    /// The judge-input line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_judge_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement's first sample board.
    const SAMPLE: [u8; 24] = [
        1, 1, 1, 1, 3, 2, 3, 2, 3, 1, 3, 2, 2, 3, 1, 2, 2, 2, 3, 1, 2, 1, 3, 3,
    ];

    #[test]
    fn values_round_trip() {
        let board = Board::from_values(&SAMPLE).unwrap();
        assert_eq!(board.values(), SAMPLE);
        assert_eq!(Board::from_values(&board.values()), Ok(board));
    }

    #[test]
    fn rejects_bad_values() {
        let mut values = SAMPLE;
        values[5] = 4;
        assert_eq!(
            Board::from_values(&values),
            Err(BoardError::NotADigit { cell: 5, value: 4 })
        );
        let mut values = SAMPLE;
        values[4] = 1;
        assert_eq!(
            Board::from_values(&values),
            Err(BoardError::WrongCount { digit: 1, count: 9 })
        );
        assert_eq!(
            Board::from_values(&SAMPLE[..23]),
            Err(BoardError::WrongLength(23))
        );
    }

    #[test]
    fn overlapping_sets_are_rejected_naming_the_first_digit_short_of_eight() {
        // Each case: the sets, then the digit and its count of cells not
        // already taken by a smaller digit.
        let cases = [
            ([0xff, 0xff, 0xff_0000], (2, 0)),
            ([0xff, 0x0ff0, 0xff_0000], (2, 4)),
            ([0xff, 0xff00, 0xf0_000f], (3, 4)),
        ];
        for (sets, (digit, count)) in cases {
            assert_eq!(
                Board::from_cell_sets(sets),
                Err(BoardError::WrongCount { digit, count }),
                "{sets:x?}"
            );
        }
    }

    #[test]
    fn a_cell_off_the_board_is_rejected_even_in_two_sets() {
        // Eight board cells each, and bit 30 (off the board) in two of the
        // sets: the two copies of the stray bit must not cancel out.
        let stray = 1 << 30;
        let (ones, twos, threes) = (0xff, 0xff00, 0xff_0000);
        for (sets, digit) in [
            ([ones | stray, twos | stray, threes], 1),
            ([ones, twos | stray, threes | stray], 2),
        ] {
            assert_eq!(
                Board::from_cell_sets(sets),
                Err(BoardError::WrongCount { digit, count: 9 }),
                "{sets:x?}"
            );
        }
    }

    #[test]
    fn centre_counts_add_up_to_eight() {
        let board = Board::from_values(&SAMPLE).unwrap();
        // The sample's centre cells 6, 7, 8, 11, 12, 15, 16, 17 hold
        // 3 2 3 2 2 2 2 2.
        let counts = Digit::ALL.map(|d| board.centre_count(d));
        assert_eq!(counts, [0, 6, 2]);
        let solved = board.apply_all(&[Move::ALL[0], Move::ALL[2]]);
        assert_eq!(Digit::ALL.map(|d| solved.centre_count(d)), [0, 8, 0]);
    }

    #[test]
    fn centre_is_uniform_only_when_all_eight_match() {
        let board = Board::from_values(&SAMPLE).unwrap();
        assert_eq!(board.uniform_centre(), None);
        assert!(!board.is_solved());
        let solved = board.apply_all(&[Move::ALL[0], Move::ALL[2]]);
        assert_eq!(solved.uniform_centre(), Digit::new(2));
        assert!(solved.is_solved());
    }

    #[test]
    fn boards_and_digits_print_as_judge_input() {
        let board = Board::from_values(&SAMPLE).unwrap();
        let line = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";
        assert_eq!(board.to_string(), line);
        assert_eq!(format!("{board:?}"), format!("Board({line})"));
        assert_eq!(Digit::ALL.map(|d| d.to_string()), ["1", "2", "3"]);
    }
}
