//! Greedy descent on the exact pattern database: from the board, play the
//! first move, in order A..H, that lowers the optimal length by one, until
//! the centre is uniform.
//!
//! # Why this is the answer
//!
//! The [optimal length](crate::pattern_database::optimal_length) is exact,
//! and a move changes it by at most one (it moves each digit's cells by one
//! move, and each digit's distance is exact). So a sequence of `L` moves
//! solves a board of optimal length `L` exactly when every move lowers the
//! optimal length by one: it must reach 0 after `L` moves. Comparing
//! sequences of equal length letter by letter, the smallest of these takes
//! the smallest first move that lowers the length, and so on from there.
//!
//! It uses the pattern database and nothing else of the other solvers: no
//! search, no heuristic, no bound. `verify` takes its answer as the one
//! every solver must give.

use crate::board::Board;
use crate::moves::{Move, MoveSequence};
use crate::pattern_database::optimal_length;
use crate::solver::{Solution, SolveError, Solver};

/// Greedy descent on the exact pattern database: the first move, in order
/// A..H, that lowers the optimal length by one, again and again (see
/// [`descend`]). The optimal length is exact and a move changes it by at
/// most one, so this is the lexicographically smallest optimal sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct DescentSolver;

impl Solver for DescentSolver {
    fn name(&self) -> &str {
        "descent"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let descent = descend(board, &Move::ALL, |board| optimal_length(board).moves());
        let centre = descent
            .end
            .uniform_centre()
            .expect("optimal length 0 is a uniform centre");
        Ok(Solution {
            moves: descent.moves,
            centre,
            nodes: descent.boards_seen,
        })
    }
}

/// Where a [`descend`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descent {
    /// The moves played.
    pub moves: MoveSequence,
    /// The board they lead to, at distance 0.
    pub end: Board,
    /// Boards whose distance was looked up, the start included.
    pub boards_seen: u64,
}

/// Descends an exact distance: from `board`, plays the first move of
/// `order` that lowers `distance` by one, again and again until it is 0.
///
/// With `order` A..H and the optimal length as the distance this is the
/// [`DescentSolver`]. `distance` must be exact, as the optimal length and
/// each digit's pattern-database distance are: every board above 0 has a
/// neighbour one closer.
///
/// # Panics
///
/// When no move of `order` lowers the distance of a board above 0.
pub fn descend(board: &Board, order: &[Move], distance: impl Fn(&Board) -> u8) -> Descent {
    let mut descent = Descent {
        moves: MoveSequence::new(),
        end: *board,
        boards_seen: 1,
    };
    let mut remaining = distance(board);
    while remaining > 0 {
        let (next, m) = order
            .iter()
            .map(|&m| (descent.end.apply(m), m))
            .find(|(next, _)| {
                descent.boards_seen += 1;
                distance(next) == remaining - 1
            })
            .expect("an exact distance above 0 has a neighbour one closer");
        descent.moves.push(m);
        descent.end = next;
        remaining -= 1;
    }
    descent
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Generator, Mode};
    use crate::length::OptimalLength;

    /// The solver's nodes are the boards it looked up: the start, and at
    /// each step the neighbours tried in order A..H up to the move played,
    /// so move `m` costs `m.index() + 1` of them.
    #[test]
    fn nodes_count_the_start_and_every_neighbour_tried() {
        for length in OptimalLength::all() {
            for board in Generator::new(2, Mode::Length(length)).boards(3) {
                let solution = DescentSolver.solve(&board).unwrap();
                let tried: u64 = solution
                    .moves
                    .as_slice()
                    .iter()
                    .map(|m| m.index() as u64 + 1)
                    .sum();
                assert_eq!(solution.nodes, 1 + tried, "{board}");
                assert_eq!(solution.moves.len(), usize::from(length.moves()));
            }
        }
    }
}
