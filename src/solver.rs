//! The solvers, behind one trait, and the registry the command line offers.
//!
//! # Overview
//!
//! A [`Solver`] takes a [`Board`] and returns a [`Solution`]: the
//! lexicographically smallest among the shortest move sequences that make
//! the centre uniform, and the digit then in the centre. Four
//! implementations give the same answer on every board they accept:
//!
//! | solver | kind | guided by | use |
//! | --- | --- | --- | --- |
//! | [`PdbSolver`] (`pdb`) | three table reads | the pattern database's certified [path table](crate::pattern_database::path_entry) | the default |
//! | [`IdaSolver`] (`ida`) | IDA* | 8 minus the commonest centre digit's count | the classic judge solution |
//! | [`BfsSolver`] (`bfs`) | breadth-first search | nothing | the reference, up to a bound on the optimal length |
//! | [`DescentSolver`] (`descent`) | greedy descent | the exact pattern database's distances | the answer `verify` expects |
//!
//! [`IdaStar`] is the IDA* driver behind `ida`, generic over its
//! [`Heuristic`]. `pdb` and `descent` both rest on the pattern database, by
//! separate roads: `pdb` reads whole paths generated at build time, `descent`
//! walks the distances move by move at run time, so `verify` holds one to
//! the other. The reference shares nothing with them but the board and the
//! moves.
//!
//! [`SOLVERS`] lists them by name, the default first: a new solver is one
//! file in `src/solver/` and one line there.

mod bfs;
mod centre_heuristic;
mod descent;
mod ida_star;
mod pdb;
mod registry;

use crate::board::{Board, Digit};
use crate::length::OptimalLength;
use crate::moves::MoveSequence;

pub use bfs::BfsSolver;
pub use centre_heuristic::{CentreCounts, CentreHeuristic};
pub use descent::{Descent, DescentSolver, descend};
pub use ida_star::{ChildEstimates, Heuristic, IdaStar, MovePruning};
pub(crate) use pdb::PackedSolution;
pub use pdb::PdbSolver;
pub use registry::{SOLVERS, SolverEntry, SolverOptions, UnknownSolver};

/// The classic solver: IDA* with the statement's heuristic.
pub type IdaSolver = IdaStar<CentreHeuristic>;

/// A solved board: the moves and the digit they leave in the centre.
///
/// It serializes as `{moves, centre}`: the answer, without the effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    /// The lexicographically smallest shortest sequence; empty when the
    /// centre is already uniform.
    pub moves: MoveSequence,
    /// The digit filling the centre after the moves.
    pub centre: Digit,
    /// Search nodes the solver generated: a measure of effort, not part of
    /// the answer (solvers that agree on the answer may differ here).
    #[serde(skip)]
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
    /// The board needs more moves than the solver answers (see
    /// [`Solver::max_optimal_length`]).
    #[error(
        "the board needs more than {max_length} move{}, beyond the solver's bound",
        if max_length.moves() == 1 { "" } else { "s" }
    )]
    TooLong {
        /// The longest optimal length the solver answers.
        max_length: OptimalLength,
    },
}

/// Something that solves boards exactly.
///
/// # Contract
///
/// For every board whose optimal length is at most
/// [`max_optimal_length`](Solver::max_optimal_length), an implementation
/// returns a sequence of minimal length that makes the centre uniform, the
/// lexicographically smallest such sequence (comparing letters, A < B < … <
/// H), and the digit then in the centre. `verify` campaigns hold every
/// implementation to this, and give each only the boards within its bound.
///
/// # Example
///
/// A solver of one's own, checked by a campaign (see [`crate::verify`]).
///
/// ```
/// use rotation_game::{Board, Solution, SolveError, Solver};
///
/// /// Answers only boards that are already solved.
/// struct AlreadySolved;
///
/// impl Solver for AlreadySolved {
///     fn name(&self) -> &str {
///         "already-solved"
///     }
///
///     fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
///         let centre = board.uniform_centre().ok_or(SolveError::TooLong {
///             max_length: self.max_optimal_length(),
///         })?;
///         Ok(Solution { moves: Default::default(), centre, nodes: 1 })
///     }
///
///     fn max_optimal_length(&self) -> rotation_game::OptimalLength {
///         rotation_game::OptimalLength::ZERO
///     }
/// }
/// ```
pub trait Solver: Sync {
    /// The solver's name, as `--solver` spells it.
    fn name(&self) -> &str;

    /// Solves `board`.
    ///
    /// # Errors
    ///
    /// [`SolveError::TooLong`] when the board needs more moves than
    /// [`max_optimal_length`](Solver::max_optimal_length).
    fn solve(&self, board: &Board) -> Result<Solution, SolveError>;

    /// Solves `boards` in order, appending one solution per board to
    /// `solutions`, each what [`solve`](Solver::solve) returns for it. The
    /// provided form calls `solve` on each; a solver may answer a batch
    /// faster, as the default solver does.
    ///
    /// # Errors
    ///
    /// The first board the solver refuses stops the batch with
    /// [`solve`](Solver::solve)'s error. The solutions of the boards before
    /// it have been appended, so the refused board is the one at the index
    /// of the number of solutions appended.
    fn solve_batch(
        &self,
        boards: &[Board],
        solutions: &mut Vec<Solution>,
    ) -> Result<(), SolveError> {
        for board in boards {
            solutions.push(self.solve(board)?);
        }
        Ok(())
    }

    /// The greatest optimal length of the boards this solver answers: every
    /// board unless it says otherwise.
    fn max_optimal_length(&self) -> OptimalLength {
        OptimalLength::MAX
    }
}
