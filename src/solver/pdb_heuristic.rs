//! The pattern-database heuristic: the least, over the three digits, of the
//! exact distance of that digit's cells to the centre.
//!
//! It equals the board's optimal length (see
//! [`pattern_database`](crate::pattern_database)), so it is admissible, and
//! IDA* guided by it descends straight to the answer: at every node the first
//! move, in order A..H, whose child's estimate is one less is on the
//! lexicographically smallest optimal path.

use crate::board::Board;
use crate::pattern_database;
use crate::solver::ida_star::{Heuristic, IdaStar};

/// The exact distance from the pattern database.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbHeuristic;

impl Heuristic for PdbHeuristic {
    #[inline]
    fn estimate(&self, board: &Board) -> u8 {
        pattern_database::optimal_length(board)
    }
}

impl Default for IdaStar<PdbHeuristic> {
    fn default() -> Self {
        IdaStar::with_heuristic("pdb", PdbHeuristic)
    }
}
