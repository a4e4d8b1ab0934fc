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
//! then the digit left in the centre. The number of moves is the board's
//! [optimal length](OptimalLength): 0 to 13.
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
//! # What is public
//!
//! What a program embeds: the [`Board`] and its [moves](Move); the
//! [`Solver`] trait and the solvers; the [parser] of judge input and
//! the strict [validator]; the [`solve` pipeline and its answers](answers) and the
//! [checker]; the seeded [generators](generator); [`verify`] campaigns with
//! their report types; the [census]; and contest [packages](package). The [pattern
//! database](pattern_database) and the board's [geometry] are public too,
//! read-only. Reports are plain data with `serde::Serialize`; the library
//! prints nothing, and the command line (`src/bin/rotation-game/`) renders
//! it. Everything else, such as the combinadic rank of cell sets or the
//! board's symmetries, is internal.
//!
//! A solver of one's own plugs into a campaign, which holds it to the same
//! standard as the built-in ones (here a solver that stops one move short,
//! caught on every board that is not solved already):
//!
//! ```
//! use rotation_game::generator::{Generator, Mode};
//! use rotation_game::verify::{self, BoardSource, Fault};
//! use rotation_game::{Board, PdbSolver, Solution, SolveError, Solver};
//!
//! struct OneShort;
//!
//! impl Solver for OneShort {
//!     fn name(&self) -> &str {
//!         "one-short"
//!     }
//!
//!     fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
//!         let mut solution = PdbSolver::default().solve(board)?;
//!         solution.moves.pop();
//!         Ok(solution)
//!     }
//! }
//!
//! let generator = Generator::new(1, Mode::Scramble(4));
//! let source = BoardSource::Generated { generator: &generator, count: 50 };
//! let report = verify::verify(source, &[&PdbSolver::default(), &OneShort], 1, &|_| {})?;
//! let unsolved = generator.boards(50).iter().filter(|b| !b.is_solved()).count();
//! assert_eq!(report.disagreement_count, unsolved as u64);
//! assert!(report.disagreements[0].answers[1].faults.contains(&Fault::NotSolved));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Map
//!
//! The modules are listed below, each with its summary. They stand in
//! layers, from the board's geometry up to campaigns and packages, and
//! none uses a module above its own: `ARCHITECTURE.md` in the repository
//! draws the layers (the one list of them, which `tests/library/architecture.rs`
//! reads and checks the source against) and maps each file.

#![deny(missing_docs)]

pub mod answers;
pub mod board;
pub mod cells;
pub mod census;
pub mod checker;
pub mod exit_codes;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod generator;
pub mod geometry;
#[cfg(unix)]
pub mod judging;
pub mod length;
pub mod moves;
pub mod package;
pub mod parser;
pub mod pattern_database;
mod quote;
mod rank;
mod read_buffer;
#[cfg(unix)]
pub mod runner;
pub mod sample;
mod secs_f64;
pub mod solver;
#[cfg(feature = "proptest")]
pub mod strategies;
mod symmetry;
pub mod validator;
pub mod verdict;
pub mod verify;

pub use board::{Board, BoardError, Digit};
pub use cells::EightCells;
pub use length::{LengthCounts, OptimalLength};
pub use moves::{Move, MoveSequence};
pub use solver::{BfsSolver, DescentSolver, IdaSolver, PdbSolver, Solution, SolveError, Solver};
