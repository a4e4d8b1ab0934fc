//! Exact solver, checker and verification harness for *The Rotation Game*
//! (POJ 2286, UVa 1343, HDU 1667, AcWing 181).
//!
//! # The puzzle
//!
//! A '#'-shaped board of 24 cells holds eight each of the digits 1, 2 and 3.
//! Cells are numbered top to bottom, left to right:
//!
//! ```text
//!             A     B
//!             0     1
//!             2     3
//!   H   4  5  6  7  8  9 10   C
//!            11    12
//!   G  13 14 15 16 17 18 19   D
//!            20    21
//!            22    23
//!             F     E
//! ```
//!
//! Move A shifts the left column up by one, cyclically (cell 0 takes cell 2's
//! digit, …, cell 22 takes cell 0's); F shifts it down. B and E do the same
//! to the right column, C and H shift the upper row right and left, D and G
//! the lower row. The goal is to make the eight centre cells (6, 7, 8, 11,
//! 12, 15, 16, 17) hold the same digit in as few moves as possible; among the
//! shortest sequences the judges want the lexicographically smallest, and
//! then the digit left in the centre.
//!
//! # Using the library
//!
//! ```
//! use rotation_game::{Board, PdbSolver, Solver};
//!
//! let board: Board = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3".parse()?;
//! let solution = PdbSolver::default().solve(&board)?;
//! assert_eq!(solution.moves.to_string(), "AC");
//! assert_eq!(solution.centre.value(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Map
//!
//! - [`geometry`]: cell numbering, the lines of the moves, the centre;
//! - [`moves`]: [`Move`] and [`MoveSequence`];
//! - [`board`]: [`Board`] and [`Digit`];
//! - [`rank`]: the index of 8-cell subsets used by the pattern database;
//! - [`pattern_database`]: exact distances of 8-cell subsets to the centre;
//! - [`solver`]: the [`Solver`] trait and the `pdb`, `ida` and `bfs` solvers;
//! - [`parser`]: the streaming, lenient judge-input reader;
//! - [`generator`]: seeded, reproducible board generators;
//! - [`symmetry`]: the eight rotations and reflections of the board;
//! - [`census`]: the exact number of boards at each optimal length;
//! - [`verify`]: campaigns that cross-check solvers on generated boards;
//! - [`judge`]: judge output and the end-to-end `solve` pipeline;
//! - [`checker`]: judges a contestant's output ([`checker::Verdict`]);
//! - [`show`]: pictures of the board, as terminal text and SVG;
//! - [`stress`]: runs another program on generated boards, with limits, and
//!   finds its smallest failing case;
//! - [`validator`]: the strict validator for test files;
//! - `strategies` (feature `proptest`): proptest strategies for boards and
//!   moves;
//! - `fuzzing` (feature `fuzzing`): the checks behind the fuzz targets.
//!
//! `ARCHITECTURE.md` in the repository describes how they fit together.

#![deny(missing_docs)]

pub mod board;
pub mod census;
pub mod checker;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod generator;
pub mod geometry;
pub mod judge;
pub mod moves;
pub mod parser;
pub mod pattern_database;
pub mod rank;
pub mod show;
pub mod solver;
#[cfg(feature = "proptest")]
pub mod strategies;
pub mod stress;
pub mod symmetry;
pub mod untrusted;
pub mod validator;
pub mod verify;

pub use board::{Board, BoardError, Digit};
pub use moves::{Move, MoveSequence};
pub use solver::{BfsSolver, IdaSolver, PdbSolver, Solution, SolveError, Solver, SolverKind};
