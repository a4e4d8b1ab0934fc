//! Sets of exactly eight cells: where one digit's tiles are.
//!
//! # Overview
//!
//! A board holds eight tiles of each digit, so the cells holding one digit
//! are always eight, and so are the centre's. The pattern database is
//! indexed by exactly these sets: its rank (`src/rank.rs`) and its distances
//! are defined for eight cells and nothing else. [`EightCells`] is a 24-bit
//! cell mask that holds eight cells by construction, so that this
//! precondition is checked once, where a set is made, and never again.
//!
//! This file uses nothing from the crate but [`geometry`](crate::geometry),
//! because the build script includes it to generate the pattern database;
//! keep it so.

use crate::geometry::{ALL_CELLS, CENTRE};

/// A set of exactly eight of the 24 cells, as a mask whose bit `i` stands
/// for cell `i`.
///
/// A newtype rather than a bare `u32`, so that nothing but a set of eight
/// cells can be ranked or looked up in the pattern database. Sets order as
/// their masks do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct EightCells(u32);

impl EightCells {
    /// The centre: cells 6, 7, 8, 11, 12, 15, 16 and 17.
    pub const CENTRE: EightCells = EightCells(CENTRE);

    /// The set whose mask is `mask`, if it holds exactly eight of the 24
    /// cells and nothing beyond them.
    pub const fn new(mask: u32) -> Option<EightCells> {
        if mask & !ALL_CELLS == 0 && mask.count_ones() == 8 {
            Some(EightCells(mask))
        } else {
            None
        }
    }

    /// A set from a mask the caller knows to hold eight cells (checked in
    /// debug builds only): for the hot paths that move sets around.
    #[inline]
    pub(crate) const fn from_mask_unchecked(mask: u32) -> EightCells {
        debug_assert!(mask & !ALL_CELLS == 0 && mask.count_ones() == 8);
        EightCells(mask)
    }

    /// The mask: bit `i` is set when cell `i` is in the set.
    #[inline]
    pub const fn mask(self) -> u32 {
        self.0
    }

    /// Whether `cell` is in the set.
    pub const fn contains(self, cell: usize) -> bool {
        cell < 32 && self.0 & (1 << cell) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_eight_cells_of_the_board_make_a_set() {
        assert_eq!(EightCells::new(CENTRE), Some(EightCells::CENTRE));
        assert_eq!(EightCells::new(0xff).map(EightCells::mask), Some(0xff));
        assert_eq!(EightCells::new(0x7f), None, "seven cells");
        assert_eq!(EightCells::new(0x1ff), None, "nine cells");
        assert_eq!(
            EightCells::new(0x7f | 1 << 24),
            None,
            "a cell off the board"
        );
        assert!(EightCells::CENTRE.contains(6) && !EightCells::CENTRE.contains(0));
    }

    #[test]
    fn cells_past_the_mask_are_in_no_set() {
        // Cell 32 would shift past the mask's 32 bits (and wrap to cell 0 in
        // a release build): it is off the board, so in no set.
        let first_eight = EightCells::new(0xff).unwrap();
        assert!(first_eight.contains(0));
        for cell in [24, 31, 32, 33, usize::MAX] {
            assert!(!first_eight.contains(cell), "cell {cell}");
        }
    }
}
