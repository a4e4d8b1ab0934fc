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
//! the default bound of 8 it holds at most about six million boards, 8 bytes
//! each and the hash set's room to spare (about a hundred megabytes).
//!
//! # Representation
//!
//! A discovered board is kept as one `u64` ([`Discovered`]): the 1s' and
//! the 2s' cell sets (48 bits), and the move that discovered it in the bits
//! above; entries compare and hash by their board only. That is half the
//! memory of a map from [`Board`] to `Option<Move>`, and one probe of the
//! set per child: `insert` keeps the first entry of a board, so the first
//! discovery's move stays, as the proof above needs.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use rustc_hash::FxBuildHasher;

use crate::board::Board;
use crate::geometry::ALL_CELLS;
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
        // Every discovered board, with the move that discovered it (none
        // for the start).
        let mut discovered: HashSet<Discovered, FxBuildHasher> = HashSet::default();
        discovered.insert(Discovered::new(pack(start), None));
        let mut level = vec![pack(start)];
        for _ in 0..self.max_length.moves() {
            let mut next_level = Vec::with_capacity(level.len() * 7);
            // Each board has at most seven undiscovered neighbours (its
            // parent is one move back): growing the set once per level
            // spares rehashing it step by step.
            discovered.reserve(level.len() * 7);
            for &board in &level {
                let board = unpack(board);
                for m in Move::ALL {
                    let child = board.apply(m);
                    // `insert` keeps a board's first entry, and says whether
                    // the board is new.
                    if !discovered.insert(Discovered::new(pack(&child), Some(m))) {
                        continue;
                    }
                    if let Some(centre) = child.uniform_centre() {
                        return Ok(Solution {
                            moves: path_to(child, &discovered),
                            centre,
                            nodes: discovered.len() as u64,
                        });
                    }
                    next_level.push(pack(&child));
                }
            }
            level = next_level;
        }
        Err(SolveError::TooLong {
            max_length: self.max_length,
        })
    }
}

/// A board in 48 bits: the cells of the 1s, then those of the 2s (the 3s
/// are the rest).
fn pack(board: &Board) -> u64 {
    let [ones, twos, _] = board.cell_sets().map(|cells| u64::from(cells.mask()));
    ones | (twos << 24)
}

/// The board [`pack`] packed.
fn unpack(packed: u64) -> Board {
    let ones = (packed & u64::from(ALL_CELLS)) as u32;
    let twos = ((packed >> 24) & u64::from(ALL_CELLS)) as u32;
    Board::from_cell_sets_unchecked([ones, twos, ALL_CELLS & !(ones | twos)])
}

/// A discovered board, packed, and the move that discovered it in the bits
/// above: 8 bytes instead of the 16 of a board and a move. Two entries are
/// equal, and hash alike, when their boards are, whatever their moves.
#[derive(Clone, Copy, Debug)]
struct Discovered(u64);

/// The bits of a [`Discovered`] that hold the board.
const BOARD_BITS: u64 = (1 << 48) - 1;

/// The move bits of a [`Discovered`] without a move (the start).
const NO_MOVE: u64 = 8;

impl Discovered {
    fn new(board: u64, by: Option<Move>) -> Discovered {
        let by = by.map_or(NO_MOVE, |m| m.index() as u64);
        Discovered(board | (by << 48))
    }

    /// The move that discovered the board, none for the start.
    fn by(self) -> Option<Move> {
        Move::from_index((self.0 >> 48) as usize)
    }
}

impl PartialEq for Discovered {
    fn eq(&self, other: &Discovered) -> bool {
        self.0 & BOARD_BITS == other.0 & BOARD_BITS
    }
}

impl Eq for Discovered {}

impl Hash for Discovered {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.0 & BOARD_BITS).hash(state);
    }
}

/// The moves that discovered `board`, from the start.
fn path_to(mut board: Board, discovered: &HashSet<Discovered, FxBuildHasher>) -> MoveSequence {
    let by = |board: &Board| {
        discovered
            .get(&Discovered::new(pack(board), None))
            .expect("every board on the path was discovered")
            .by()
    };
    let mut reversed = Vec::new();
    while let Some(m) = by(&board) {
        reversed.push(m);
        board = board.apply(m.inverse());
    }
    reversed.into_iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;
    use crate::generator::{Generator, Mode};

    #[test]
    fn boards_pack_and_entries_compare_by_board_alone() {
        for board in Generator::new(3, Mode::Uniform).boards(1000) {
            assert_eq!(unpack(pack(&board)), board);
            let by_d = Discovered::new(pack(&board), Some(Move::ALL[3]));
            let start = Discovered::new(pack(&board), None);
            assert_eq!(by_d, start);
            assert_eq!((by_d.by(), start.by()), (Some(Move::ALL[3]), None));
            let other = board.apply(Move::ALL[0]);
            if other != board {
                assert_ne!(Discovered::new(pack(&other), None), start);
            }
        }
    }

    /// Entries hash as their boards, whatever their moves, and different
    /// boards (nearly always) hash differently: a set of them that hashed
    /// everything alike would still be right, but quadratic.
    #[test]
    fn entries_hash_by_board_alone() {
        let hash = |entry: Discovered| FxBuildHasher.hash_one(entry);
        let boards = Generator::new(4, Mode::Uniform).boards(1000);
        let mut hashes = HashSet::new();
        for board in &boards {
            let start = Discovered::new(pack(board), None);
            let by_h = Discovered::new(pack(board), Some(Move::ALL[7]));
            assert_eq!(hash(start), hash(by_h));
            hashes.insert(hash(start));
        }
        assert!(hashes.len() > 990, "{} distinct hashes", hashes.len());
    }
}
