//! The solver flags that `solve` and `verify` share: solvers by their
//! registry name, and the bound of the bounded one.

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use rotation_game::OptimalLength;
use rotation_game::solver::{BfsSolver, SolverEntry, SolverOptions};

/// A parser of solver names: the registry's, offered as possible values.
pub fn solver_name() -> impl TypedValueParser<Value = &'static SolverEntry> {
    PossibleValuesParser::new(SolverEntry::names())
        .map(|name| SolverEntry::find(&name).expect("clap accepts only the registry's names"))
}

/// The bound of the bounded solver.
#[derive(Args, Clone, Copy, Debug)]
pub struct BoundArgs {
    /// The greatest optimal length the bfs solver answers: it refuses
    /// longer boards (at most 9; 8 needs a few hundred megabytes per
    /// thread).
    #[arg(long, value_name = "N", visible_alias = "max-depth",
          default_value_t = BfsSolver::DEFAULT_MAX_LENGTH,
          value_parser = max_length)]
    pub max_length: OptimalLength,
}

impl BoundArgs {
    /// The options every solver is built with.
    pub fn options(&self) -> SolverOptions {
        SolverOptions {
            max_length: self.max_length,
        }
    }

    /// Whether the bound is the default one (and so need not be repeated).
    pub fn is_default(&self) -> bool {
        self.max_length == BfsSolver::DEFAULT_MAX_LENGTH
    }
}

fn max_length(text: &str) -> Result<OptimalLength, String> {
    let limit = BfsSolver::MAX_LENGTH_LIMIT;
    match text.parse::<OptimalLength>() {
        Ok(length) if length <= limit => Ok(length),
        _ => Err(format!(
            "expected a length from 0 to {limit}, found {text:?}"
        )),
    }
}
