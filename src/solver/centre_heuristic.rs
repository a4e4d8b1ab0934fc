//! The statement's heuristic: 8 minus how often the commonest digit appears
//! in the centre.
//!
//! A move takes exactly one tile out of the centre and brings one in, so it
//! raises any digit's centre count by at most one. A digit with `f` of the
//! eight centre cells needs at least `8 - f` moves to fill the centre, and
//! the best digit needs at least `8 - max f`: the estimate never
//! overestimates, and it is 0 exactly on solved boards.

use crate::board::{Board, Digit};
use crate::solver::ida_star::{Heuristic, IdaStar};

/// 8 minus the count of the commonest digit in the centre.
#[derive(Clone, Copy, Debug, Default)]
pub struct CentreHeuristic;

impl Heuristic for CentreHeuristic {
    type Memo = ();

    #[inline]
    fn estimate(&self, board: &Board) -> (u8, ()) {
        let [ones, twos, _] = Digit::ALL;
        let ones = board.centre_count(ones);
        let twos = board.centre_count(twos);
        // The centre has eight cells, so the 3s are whatever is left.
        let threes = 8 - ones - twos;
        ((8 - ones.max(twos).max(threes)) as u8, ())
    }
}

impl Default for IdaStar<CentreHeuristic> {
    fn default() -> Self {
        IdaStar::with_heuristic("ida", CentreHeuristic)
    }
}
