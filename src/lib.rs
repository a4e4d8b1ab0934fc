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
//! the strict [validator]; the [judge] pipeline and the
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
//! From the ground up; nothing points upward (`ARCHITECTURE.md` in the
//! repository draws the layers):
//!
//! - `untrusted` (internal): buffer sizes and [quotations](checker::Quote)
//!   for every reader of untrusted bytes;
//! - [`geometry`]: cell numbering, the lines of the moves, the centre;
//! - [`cells`]: [`EightCells`], a set of exactly eight cells;
//! - [`moves`]: [`Move`] and [`MoveSequence`];
//! - [`board`]: [`Board`] and [`Digit`];
//! - [`length`]: [`OptimalLength`] and [`LengthCounts`];
//! - [`pattern_database`]: exact distances of 8-cell sets to the centre;
//! - [`solver`]: the [`Solver`] trait, the `pdb`, `ida`, `bfs` and `descent`
//!   solvers, and their registry;
//! - [`generator`]: seeded, reproducible board generators;
//! - [`census`]: the exact number of boards at each optimal length;
//! - [`parser`]: the streaming, lenient judge-input reader;
//! - [`validator`]: the strict validator for test files;
//! - [`judge`]: the judges' answer format and the `solve` pipeline;
//! - [`checker`]: judges a contestant's output ([`checker::Verdict`]);
//! - [`convention`]: testlib's and Kattis's exit statuses;
//! - [`verify`]: campaigns that cross-check solvers on generated boards;
//! - [`package`]: contest-ready problem packages (test data, standalone
//!   validators and solutions, statement) and their coverage report;
//! - [`sample`]: the statement's sample input and output;
//! - [`stress`] (Unix): judges another program as a contest judge does
//!   (CPU, memory and output limits, a sandbox, the judges' verdicts,
//!   timing reports), and finds its smallest failing case;
//! - `strategies` (feature `proptest`): proptest strategies for boards and
//!   moves;
//! - `fuzzing` (feature `fuzzing`): the checks behind the fuzz targets.

#![deny(missing_docs)]

pub mod board;
pub mod cells;
pub mod census;
pub mod checker;
pub mod convention;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod generator;
pub mod geometry;
pub mod judge;
pub mod length;
pub mod moves;
pub mod package;
pub mod parser;
pub mod pattern_database;
mod rank;
pub mod sample;
mod seconds;
pub mod solver;
#[cfg(feature = "proptest")]
pub mod strategies;
#[cfg(unix)]
pub mod stress;
mod symmetry;
mod untrusted;
pub mod validator;
pub mod verify;

pub use board::{Board, BoardError, Digit};
pub use cells::EightCells;
pub use length::{LengthCounts, OptimalLength};
pub use moves::{Move, MoveSequence};
pub use solver::{BfsSolver, DescentSolver, IdaSolver, PdbSolver, Solution, SolveError, Solver};
