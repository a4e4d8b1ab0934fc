//! The solvers, behind one trait.
//!
//! # Overview
//!
//! A [`Solver`] takes a [`Board`] and returns a [`Solution`]: the
//! lexicographically smallest among the shortest move sequences that make
//! the centre uniform, and the digit then in the centre. Three
//! implementations give the same answer on every board they accept:
//!
//! | solver | kind | heuristic | use |
//! | --- | --- | --- | --- |
//! | [`PdbSolver`] (`pdb`) | IDA* | exact [pattern database](crate::pattern_database) | the default: it never backtracks |
//! | [`IdaSolver`] (`ida`) | IDA* | 8 minus the commonest centre digit's count | the classic judge solution |
//! | [`BfsSolver`] (`bfs`) | breadth-first search | none | the reference, up to a depth bound |
//!
//! The two IDA* solvers share one search driver, [`IdaStar`], and differ only
//! in their [`Heuristic`]. The reference shares nothing with them but the
//! board and the moves.

mod bfs;
mod centre_heuristic;
mod ida_star;
mod pdb_heuristic;

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Digit};
use crate::moves::MoveSequence;

pub use bfs::{BfsSolver, DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT};
pub use centre_heuristic::CentreHeuristic;
pub use ida_star::{Heuristic, IdaStar};
pub use pdb_heuristic::PdbHeuristic;

/// The classic solver: IDA* with the statement's heuristic.
pub type IdaSolver = IdaStar<CentreHeuristic>;

/// The default solver: IDA* guided by the exact pattern database.
pub type PdbSolver = IdaStar<PdbHeuristic>;

/// A solved board: the moves and the digit they leave in the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The lexicographically smallest shortest sequence; empty when the
    /// centre is already uniform.
    pub moves: MoveSequence,
    /// The digit filling the centre after the moves.
    pub centre: Digit,
    /// Search nodes the solver generated: a measure of effort, not part of
    /// the answer (solvers that agree on the answer may differ here).
    pub nodes: u64,
}

impl Solution {
    /// Whether two solutions give the same judge answer (moves and digit),
    /// whatever effort they took.
    pub fn same_answer(&self, other: &Solution) -> bool {
        self.moves == other.moves && self.centre == other.centre
    }
}

/// Why a solver gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The board needs more moves than the solver's depth bound allows.
    #[error(
        "the board needs more than {max_depth} move{}, the bfs solver's depth bound (--max-depth)",
        if *max_depth == 1 { "" } else { "s" }
    )]
    TooDeep {
        /// The bound.
        max_depth: u8,
    },
}

/// Something that solves boards exactly.
///
/// # Contract
///
/// For every board it accepts, an implementation returns a sequence of
/// minimal length that makes the centre uniform, the lexicographically
/// smallest such sequence (comparing letters, A < B < … < H), and the digit
/// then in the centre. `verify` campaigns hold every implementation to this.
pub trait Solver: Sync {
    /// The solver's name, as `--solver` spells it.
    fn name(&self) -> &str;

    /// Solves `board`.
    ///
    /// # Errors
    ///
    /// When the solver cannot answer this board within its own bounds (only
    /// [`BfsSolver`] has any).
    fn solve(&self, board: &Board) -> Result<Solution, SolveError>;
}

/// The solvers the command line offers by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SolverKind {
    /// [`PdbSolver`].
    Pdb,
    /// [`IdaSolver`].
    Ida,
    /// [`BfsSolver`].
    Bfs,
}

impl SolverKind {
    /// All kinds, default first.
    pub const ALL: [SolverKind; 3] = [SolverKind::Pdb, SolverKind::Ida, SolverKind::Bfs];

    /// The name `--solver` takes.
    pub const fn name(self) -> &'static str {
        match self {
            SolverKind::Pdb => "pdb",
            SolverKind::Ida => "ida",
            SolverKind::Bfs => "bfs",
        }
    }

    /// A solver of this kind; `max_depth` is the bound of [`BfsSolver`] and
    /// is ignored by the others.
    pub fn build(self, max_depth: u8) -> Box<dyn Solver> {
        match self {
            SolverKind::Pdb => Box::new(PdbSolver::default()),
            SolverKind::Ida => Box::new(IdaSolver::default()),
            SolverKind::Bfs => Box::new(BfsSolver::new(max_depth)),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown solver name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver {0:?}, expected pdb, ida or bfs")]
pub struct UnknownSolver(String);

impl FromStr for SolverKind {
    type Err = UnknownSolver;

    fn from_str(name: &str) -> Result<SolverKind, UnknownSolver> {
        SolverKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownSolver(name.to_owned()))
    }
}
