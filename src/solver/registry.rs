//! The solvers the command line offers by name.

use crate::length::OptimalLength;
use crate::solver::{BfsSolver, DescentSolver, IdaSolver, PdbSolver, Solver};

/// What the command line may vary about the solvers it builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// The greatest optimal length a bounded solver answers (only
    /// [`BfsSolver`] has a bound).
    pub max_length: OptimalLength,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions {
            max_length: BfsSolver::DEFAULT_MAX_LENGTH,
        }
    }
}

/// A solver offered by name.
#[derive(Clone, Copy, Debug)]
pub struct SolverEntry {
    /// Its name: what `--solver` takes and what [`Solver::name`] returns.
    pub name: &'static str,
    /// What it is, in a line, for the command line's help.
    pub about: &'static str,
    /// The greatest optimal length it answers in about a millisecond: how
    /// far the property tests and fuzz targets ask it.
    pub quick_max_length: OptimalLength,
    /// Builds it.
    pub build: fn(&SolverOptions) -> Box<dyn Solver>,
}

/// `OptimalLength::new` for the constants below.
const fn length(moves: u8) -> OptimalLength {
    match OptimalLength::new(moves) {
        Some(length) => length,
        None => panic!("no board needs that many moves"),
    }
}

/// Every solver, the default first. A new solver is one file in
/// `src/solver/` and one line here.
pub const SOLVERS: &[SolverEntry] = &[
    SolverEntry {
        name: "pdb",
        about: "the answer read from the pattern database's path table (the default)",
        quick_max_length: OptimalLength::MAX,
        build: |_| Box::new(PdbSolver::default()),
    },
    SolverEntry {
        name: "ida",
        about: "the classic IDA*, guided by the centre's commonest digit",
        quick_max_length: length(7),
        build: |_| Box::new(IdaSolver::default()),
    },
    SolverEntry {
        name: "bfs",
        about: "the breadth-first reference, up to a bound on the optimal length",
        quick_max_length: length(5),
        build: |options| Box::new(BfsSolver::new(options.max_length)),
    },
    SolverEntry {
        name: "descent",
        about: "greedy descent on the exact pattern database",
        quick_max_length: OptimalLength::MAX,
        build: |_| Box::new(DescentSolver),
    },
];

/// A solver name that [`SOLVERS`] does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver {name:?}, expected one of {}", SolverEntry::names().join(", "))]
pub struct UnknownSolver {
    name: String,
}

impl SolverEntry {
    /// The default solver, the first of [`SOLVERS`].
    pub fn default_entry() -> &'static SolverEntry {
        &SOLVERS[0]
    }

    /// The solver called `name`.
    ///
    /// # Errors
    ///
    /// When no solver has that name.
    pub fn find(name: &str) -> Result<&'static SolverEntry, UnknownSolver> {
        SOLVERS
            .iter()
            .find(|entry| entry.name == name)
            .ok_or_else(|| UnknownSolver {
                name: name.to_owned(),
            })
    }

    /// The names, in the order of [`SOLVERS`].
    pub fn names() -> Vec<&'static str> {
        SOLVERS.iter().map(|entry| entry.name).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_solver_answers_to_its_name() {
        for entry in SOLVERS {
            let solver = (entry.build)(&SolverOptions::default());
            assert_eq!(solver.name(), entry.name);
            assert_eq!(SolverEntry::find(entry.name).unwrap().name, entry.name);
        }
        let names = SolverEntry::names();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique);
        assert_eq!(
            SolverEntry::find("fast").unwrap_err().to_string(),
            "unknown solver \"fast\", expected one of pdb, ida, bfs, descent"
        );
    }

    #[test]
    fn a_batch_is_solved_as_each_board_alone_up_to_the_first_refusal() {
        use crate::generator::{Generator, Mode};
        let options = SolverOptions {
            max_length: length(4),
        };
        for entry in SOLVERS {
            let solver = (entry.build)(&options);
            let quick = entry.quick_max_length.min(length(5));
            let boards: Vec<_> = OptimalLength::all()
                .filter(|&length| length <= quick)
                .flat_map(|length| Generator::new(3, Mode::Length(length)).boards(4))
                .collect();
            let alone: Vec<_> = boards.iter().map(|board| solver.solve(board)).collect();
            let mut batch = Vec::new();
            let outcome = solver.solve_batch(&boards, &mut batch);
            let refused = alone.iter().position(Result::is_err);
            assert_eq!(
                batch.len(),
                refused.unwrap_or(boards.len()),
                "{}",
                entry.name
            );
            for (found, expected) in batch.iter().zip(&alone) {
                assert_eq!(Ok(found), expected.as_ref(), "{}", entry.name);
            }
            match refused {
                Some(index) => assert_eq!(Err(outcome.unwrap_err()), alone[index]),
                None => assert_eq!(outcome, Ok(())),
            }
        }
    }

    #[test]
    fn the_bound_reaches_the_bounded_solver_only() {
        let options = SolverOptions {
            max_length: length(3),
        };
        for entry in SOLVERS {
            let bound = (entry.build)(&options).max_optimal_length();
            let expected = if entry.name == "bfs" {
                length(3)
            } else {
                OptimalLength::MAX
            };
            assert_eq!(bound, expected, "{}", entry.name);
        }
    }
}
