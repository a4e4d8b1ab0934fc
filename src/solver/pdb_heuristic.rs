//! The pattern-database heuristic: the least, over the three digits, of the
//! exact distance of that digit's cells to the centre.
//!
//! It equals the board's optimal length (see
//! [`pattern_database`](crate::pattern_database)), so it is admissible, and
//! IDA* guided by it descends straight to the answer: at every node the first
//! move, in order A..H, whose child's estimate is one less is on the
//! lexicographically smallest optimal path.
//!
//! Its memo is a lower bound on each digit's distance (exact where it was
//! looked up). A move changes a digit's distance by at most one, so when a
//! child must be within `moves_left` moves, only digits whose parent bound is at
//! most `moves_left + 1` can bring it there; the others are not looked up, and
//! their bound drops by one. Usually one digit is looked up per child
//! instead of three.

use crate::board::Board;
use crate::pattern_database;
use crate::solver::ida_star::{Heuristic, IdaStar};

/// The exact distance from the pattern database.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbHeuristic;

impl Heuristic for PdbHeuristic {
    /// A lower bound on each digit's distance, by digit index.
    type Memo = [u8; 3];

    #[inline]
    fn estimate(&self, board: &Board) -> (u8, [u8; 3]) {
        let distances = board.cell_sets().map(pattern_database::distance);
        (distances[0].min(distances[1]).min(distances[2]), distances)
    }

    #[inline]
    fn estimate_child(&self, child: &Board, parent: &[u8; 3], moves_left: u8) -> (u8, [u8; 3]) {
        let sets = child.cell_sets();
        let bounds: [u8; 3] = std::array::from_fn(|digit| {
            if parent[digit] > moves_left + 1 {
                parent[digit] - 1
            } else {
                pattern_database::distance(sets[digit])
            }
        });
        (bounds[0].min(bounds[1]).min(bounds[2]), bounds)
    }
}

impl Default for IdaStar<PdbHeuristic> {
    fn default() -> Self {
        IdaStar::with_heuristic("pdb", PdbHeuristic)
    }
}
