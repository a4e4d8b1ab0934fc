//! IDA*: iterative deepening guided by an admissible heuristic.
//!
//! # Why the first solution found is the answer
//!
//! Each iteration is a depth-first search that prunes any node whose depth
//! plus heuristic exceeds the bound, and tries the moves in order A..H. The
//! bound starts at the root's estimate and rises to the least pruned value,
//! so it never passes the optimal length `L` (the heuristic never
//! overestimates, so a node on an optimal path is never pruned at bound `L`).
//! No iteration below `L` can find a solution, since none exists. At bound
//! `L` the depth-first search meets the sequences of length `L` in
//! lexicographic order, and prunes only nodes from which no goal can be
//! reached within the bound; so the first goal it meets is reached by the
//! lexicographically smallest optimal sequence.
//!
//! The search never plays a move's inverse right after it: a sequence
//! containing such a pair can be shortened by two, so no optimal sequence
//! contains one, and skipping them loses nothing.

use crate::board::Board;
use crate::moves::{Move, MoveSequence};
use crate::solver::{Solution, SolveError, Solver};

/// A lower bound on the moves still needed, for IDA*.
///
/// # Contract
///
/// Every estimate is a lower bound on the number of moves that solve the
/// board (admissibility), and the estimate of a solved board is 0. A
/// heuristic that breaks this makes [`IdaStar`] return wrong answers, which
/// `verify` catches.
///
/// A heuristic may remember something about each node (its [`Memo`]) and
/// use it to estimate the node's children more cheaply, given the moves the
/// search's bound leaves below the child: [`estimate_child`] must return the
/// child's exact [`estimate`] whenever that is at most `moves_left`, and
/// otherwise any lower bound above `moves_left`.
///
/// [`Memo`]: Heuristic::Memo
/// [`estimate`]: Heuristic::estimate
/// [`estimate_child`]: Heuristic::estimate_child
pub trait Heuristic: Sync {
    /// What the heuristic remembers about a node for its children.
    type Memo: Copy;

    /// A lower bound on the moves that solve `board`, and its memo.
    fn estimate(&self, board: &Board) -> (u8, Self::Memo);

    /// The estimate for `child`, one move from a node with memo `parent`,
    /// exact when it is at most `moves_left` (see the trait's contract).
    #[inline]
    fn estimate_child(
        &self,
        child: &Board,
        parent: &Self::Memo,
        moves_left: u8,
    ) -> (u8, Self::Memo) {
        let _ = (parent, moves_left);
        self.estimate(child)
    }
}

/// IDA* with heuristic `H`. It returns the lexicographically smallest
/// optimal sequence: the first goal met at the first bound that has one, as
/// the bound never passes the optimal length and each pass tries moves in
/// order A..H.
#[derive(Clone, Debug)]
pub struct IdaStar<H> {
    heuristic: H,
    name: &'static str,
}

/// What one depth-first pass found.
enum Pass {
    /// A solution, left in the path.
    Solved,
    /// No solution within the bound; the least pruned depth plus estimate.
    Exceeded(u8),
}

impl<H: Heuristic> IdaStar<H> {
    /// IDA* with the given heuristic, reporting itself as `name`.
    pub const fn with_heuristic(name: &'static str, heuristic: H) -> IdaStar<H> {
        IdaStar { heuristic, name }
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }

    /// Depth-first search below `board`, which the caller has checked to be
    /// within `bound` (its depth plus estimate is at most `bound`).
    fn search(
        &self,
        board: Board,
        memo: H::Memo,
        bound: u8,
        path: &mut MoveSequence,
        nodes: &mut u64,
    ) -> Pass {
        if board.is_solved() {
            return Pass::Solved;
        }
        let child_depth = path.len() as u8 + 1;
        let Some(moves_left) = bound.checked_sub(child_depth) else {
            return Pass::Exceeded(child_depth);
        };
        let undo = path.last().map(Move::inverse);
        let mut least_exceeded = u8::MAX;
        for m in Move::ALL {
            if Some(m) == undo {
                continue;
            }
            let child = board.apply(m);
            *nodes += 1;
            let (estimate, child_memo) = self.heuristic.estimate_child(&child, &memo, moves_left);
            if estimate > moves_left {
                least_exceeded = least_exceeded.min(child_depth.saturating_add(estimate));
                continue;
            }
            path.push(m);
            match self.search(child, child_memo, bound, path, nodes) {
                Pass::Solved => return Pass::Solved,
                Pass::Exceeded(value) => least_exceeded = least_exceeded.min(value),
            }
            path.pop();
        }
        Pass::Exceeded(least_exceeded)
    }
}

impl<H: Heuristic> Solver for IdaStar<H> {
    fn name(&self) -> &str {
        self.name
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut path = MoveSequence::new();
        let mut nodes = 1;
        let (mut bound, memo) = self.heuristic.estimate(board);
        loop {
            match self.search(*board, memo, bound, &mut path, &mut nodes) {
                Pass::Solved => {
                    let centre = board
                        .apply_all(path.as_slice())
                        .uniform_centre()
                        .expect("the search stops only on a solved board");
                    return Ok(Solution {
                        moves: path,
                        centre,
                        nodes,
                    });
                }
                Pass::Exceeded(next) => bound = next,
            }
        }
    }
}
