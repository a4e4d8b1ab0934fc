//! The generator flags that `gen`, `verify` and `stress` share.

use clap::Args;
use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode};

/// Which boards to generate, and from which seed.
#[derive(Args, Clone, Debug)]
#[group(id = "generator")]
pub struct GenArgs {
    /// Seed of the generator: the same seed gives the same boards on every
    /// machine and with any number of threads. Without it a seed is drawn
    /// and printed to standard error, so that the run can be repeated.
    #[arg(long)]
    pub seed: Option<u64>,

    /// How many boards (ignored by --hardest, which gives all of them).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub boards: u64,

    /// Uniformly random arrangements of the 24 tiles (the default mode).
    #[arg(long, group = "mode")]
    pub uniform: bool,

    /// K random moves, never undoing the previous one, applied to a random
    /// solved board.
    #[arg(long, group = "mode", value_name = "K")]
    pub scramble: Option<u8>,

    /// Boards of optimal length exactly K, uniform among all such boards
    /// (K from 0 to 13).
    #[arg(long, group = "mode", value_name = "K", visible_alias = "depth")]
    pub length: Option<OptimalLength>,

    /// Every board of the greatest optimal length (13), in a stable order.
    #[arg(long, group = "mode")]
    pub hardest: bool,
}

impl GenArgs {
    /// The mode the flags select.
    pub fn mode(&self) -> Mode {
        if let Some(moves) = self.scramble {
            Mode::Scramble(moves)
        } else if let Some(length) = self.length {
            Mode::Length(length)
        } else if self.hardest {
            Mode::Hardest
        } else {
            Mode::Uniform
        }
    }

    /// The seed given, or a freshly drawn one, announced on standard error.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = draw_seed();
            eprintln!("rotation-game: no --seed given, using --seed {seed}");
            seed
        })
    }

    /// The generator the flags describe, with its seed.
    pub fn generator(&self) -> Generator {
        Generator::new(self.seed(), self.mode())
    }
}

/// The generator flags that select `mode`, as `gen`, `verify` and `stress`
/// take them.
pub fn mode_flags(mode: Mode) -> String {
    match mode {
        Mode::Uniform => "--uniform".to_owned(),
        Mode::Scramble(moves) => format!("--scramble {moves}"),
        Mode::Length(length) => format!("--length {length}"),
        Mode::Hardest => "--hardest".to_owned(),
    }
}

/// A seed from the operating system's randomness (through the standard
/// library's randomly keyed hasher).
fn draw_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::process::id())
}
