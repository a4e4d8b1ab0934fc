//! The reference solver: a plain breadth-first search over whole boards.
//!
//! It uses no heuristic, no pattern database and no decomposition: only
//! [`Board::apply`] and [`Board::is_solved`]. It is slow and memory-hungry on
//! purpose, and simple enough to check by reading.
//!
//! # Why its answer is optimal and lexicographically smallest
//!
//! The search keeps, for every board it has discovered, the move that first
//! discovered it. It expands boards level by level, in the order they were
//! discovered, trying the moves in order A..H on each; it stops at the first
//! solved board it discovers (or at the start, when the start is solved).
//!
//! Call the *path* of a discovered board the moves from the start that
//! discovered it. By induction on the level `k`:
//!
//! 1. every board at distance `k` from the start is discovered at level `k`,
//!    and its path is a shortest sequence reaching it (the usual argument for
//!    breadth-first search);
//! 2. boards at level `k` are discovered in lexicographic order of their
//!    paths, and each board's path is the lexicographically smallest of all
//!    shortest sequences reaching it.
//!
//! For (2): level `k + 1` boards are discovered by expanding level `k` in
//! order, so in order of (parent's path, move), which is the lexicographic
//! order of the paths. A shortest sequence to a board `b` at level `k + 1` is
//! a shortest sequence to some level-`k` board `p` followed by one move `m`,
//! and the smallest such sequence uses the smallest path to `p`: replacing
//! the prefix with a smaller one of the same length gives a smaller
//! sequence. The first time `b` is discovered is for the smallest (path of
//! `p`, `m`), which is therefore the smallest shortest sequence to `b`.
//!
//! So the first solved board discovered is at the least distance `L`, and
//! its path is smaller than the path of every other solved board at level
//! `L`: it is the lexicographically smallest shortest solution.
//!
//! # Bound
//!
//! The number of boards within `k` moves grows about sevenfold per level, so
//! the search refuses boards whose optimal length is above its bound: it
//! stops after expanding that level and returns [`SolveError::TooLong`]. At
//! the default bound of 8 it holds at most about six million boards (a few
//! hundred megabytes).

use rustc_hash::FxHashMap;

use crate::board::Board;
use crate::length::OptimalLength;
use crate::moves::{Move, MoveSequence};
use crate::solver::{Solution, SolveError, Solver};

/// Breadth-first search over whole boards, up to a bound on the optimal
/// length.
#[derive(Clone, Copy, Debug)]
pub struct BfsSolver {
    max_length: OptimalLength,
}

impl BfsSolver {
    /// The default bound: boards needing more moves are refused.
    pub const DEFAULT_MAX_LENGTH: OptimalLength = match OptimalLength::new(8) {
        Some(length) => length,
        None => unreachable!(),
    };

    /// The greatest bound accepted: at 9 a search may hold about 45 million
    /// boards (about 2 GB); beyond it memory runs out.
    pub const MAX_LENGTH_LIMIT: OptimalLength = match OptimalLength::new(9) {
        Some(length) => length,
        None => unreachable!(),
    };

    /// A search that refuses boards needing more than `max_length` moves;
    /// `max_length` is cut to [`BfsSolver::MAX_LENGTH_LIMIT`].
    pub fn new(max_length: OptimalLength) -> BfsSolver {
        BfsSolver {
            max_length: max_length.min(BfsSolver::MAX_LENGTH_LIMIT),
        }
    }
}

impl Default for BfsSolver {
    fn default() -> Self {
        BfsSolver::new(BfsSolver::DEFAULT_MAX_LENGTH)
    }
}

impl Solver for BfsSolver {
    fn name(&self) -> &str {
        "bfs"
    }

    fn max_optimal_length(&self) -> OptimalLength {
        self.max_length
    }

    fn solve(&self, start: &Board) -> Result<Solution, SolveError> {
        if let Some(centre) = start.uniform_centre() {
            return Ok(Solution {
                moves: MoveSequence::new(),
                centre,
                nodes: 1,
            });
        }
        // For each discovered board, the move that discovered it (none for
        // the start).
        let mut discovered_by: FxHashMap<Board, Option<Move>> = FxHashMap::default();
        discovered_by.insert(*start, None);
        let mut level = vec![*start];
        for _ in 0..self.max_length.moves() {
            let mut next_level = Vec::with_capacity(level.len() * 7);
            for board in &level {
                for m in Move::ALL {
                    let child = board.apply(m);
                    if discovered_by.contains_key(&child) {
                        continue;
                    }
                    discovered_by.insert(child, Some(m));
                    if let Some(centre) = child.uniform_centre() {
                        return Ok(Solution {
                            moves: path_to(child, &discovered_by),
                            centre,
                            nodes: discovered_by.len() as u64,
                        });
                    }
                    next_level.push(child);
                }
            }
            level = next_level;
        }
        Err(SolveError::TooLong {
            max_length: self.max_length,
        })
    }
}

/// The moves that discovered `board`, from the start.
fn path_to(mut board: Board, discovered_by: &FxHashMap<Board, Option<Move>>) -> MoveSequence {
    let mut reversed = Vec::new();
    while let Some(m) = discovered_by[&board] {
        reversed.push(m);
        board = board.apply(m.inverse());
    }
    reversed.into_iter().rev().collect()
}
