//! The generator flags that `gen`, `verify` and `stress` share.

use clap::Args;
use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode, hardest_boards};

/// Which boards to generate, and from which seed.
#[derive(Args, Clone, Debug)]
#[group(id = "generator")]
pub struct GenArgs {
    /// Seed of the generator: the same seed gives the same boards on every
    /// machine and with any number of threads. Without it a seed is drawn
    /// and printed to standard error (when the seed makes a difference), so
    /// that the run can be repeated.
    #[arg(long)]
    pub seed: Option<u64>,

    /// How many boards (each command says its default). With --hardest, a
    /// seeded sample of N of the 192 hardest boards, without repetition;
    /// without --boards, --hardest gives all 192.
    #[arg(long, value_name = "N")]
    pub boards: Option<u64>,

    /// Uniformly random arrangements of the 24 tiles.
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

    /// Board i (from 0) has optimal length i mod 14, uniform among the
    /// boards of that length (as --length draws them; length 13 from the
    /// hardest boards): every 14 boards hold a solved board, one of each
    /// length and a hardest board.
    #[arg(long, group = "mode")]
    pub mix: bool,

    /// The boards of the greatest optimal length (13): all 192 in a stable
    /// order, or with --boards N a seeded sample of N of them.
    #[arg(long, group = "mode")]
    pub hardest: bool,
}

/// What a command generates when its flags do not say.
#[derive(Clone, Copy, Debug)]
pub struct Defaults {
    mode: Mode,
    boards: u64,
}

/// `gen`: 10 uniformly random boards.
pub const FOR_GEN: Defaults = Defaults {
    mode: Mode::Uniform,
    boards: 10,
};

/// `verify`: 14 boards of the mix, one of each optimal length (each board
/// is solved by every solver, and the slow ones take seconds).
pub const FOR_CAMPAIGNS: Defaults = Defaults {
    mode: Mode::Mix,
    boards: 14,
};

/// `stress`: 1,400 boards of the mix, a hundred of each optimal length:
/// enough that a one-line mistake in a contestant's program (two letters
/// swapped in one place, the last case dropped, the start board's centre
/// printed) meets a board it shows on, which 14 boards are not
/// (`tests/cli/stress.rs`), and quick to judge on a right program.
pub const FOR_STRESS: Defaults = Defaults {
    mode: Mode::Mix,
    boards: 1400,
};

impl GenArgs {
    /// The mode the flags select.
    pub fn mode(&self, defaults: Defaults) -> Mode {
        if let Some(moves) = self.scramble {
            Mode::Scramble(moves)
        } else if let Some(length) = self.length {
            Mode::Length(length)
        } else if self.hardest && self.boards.is_some() {
            Mode::HardestSample
        } else if self.hardest {
            Mode::Hardest
        } else if self.mix {
            Mode::Mix
        } else if self.uniform {
            Mode::Uniform
        } else {
            defaults.mode
        }
    }

    /// How many boards are asked for.
    pub fn boards(&self, defaults: Defaults) -> u64 {
        self.boards.unwrap_or(defaults.boards)
    }

    /// The generator the flags describe, for the whole campaign. A seed not
    /// given is drawn and announced on standard error, when it matters.
    ///
    /// Exits with a usage error (status 2) when more hardest boards are
    /// asked for than there are.
    pub fn generator(&self, defaults: Defaults) -> Generator {
        let mode = self.mode(defaults);
        if mode == Mode::HardestSample {
            let there_are = hardest_boards().len() as u64;
            if self.boards(defaults) > there_are {
                clap::Error::raw(
                    clap::error::ErrorKind::ValueValidation,
                    format!(
                        "--hardest --boards {}: there are only {there_are} hardest boards, and a sample has no repetition\n",
                        self.boards(defaults)
                    ),
                )
                .exit();
            }
        }
        Generator::new(self.seed(mode), mode)
    }

    /// The seed given, or a freshly drawn one, announced on standard error
    /// when it changes the boards.
    fn seed(&self, mode: Mode) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = draw_seed();
            if mode.uses_seed() {
                eprintln!("rotation-game: no --seed given, using --seed {seed}");
            }
            seed
        })
    }
}

/// The generator flags that select `mode`, as `gen`, `verify` and `stress`
/// take them.
pub fn mode_flags(mode: Mode) -> String {
    match mode {
        Mode::Uniform => "--uniform".to_owned(),
        Mode::Scramble(moves) => format!("--scramble {moves}"),
        Mode::Length(length) => format!("--length {length}"),
        Mode::Mix => "--mix".to_owned(),
        Mode::Hardest | Mode::HardestSample => "--hardest".to_owned(),
    }
}

/// The flags that give `generator`'s campaign of `boards` boards again:
/// seed, mode and count (only the mode for all the hardest boards, where
/// neither seed nor count plays a part).
pub fn repeat_flags(generator: &Generator, boards: u64) -> String {
    let mode = generator.mode();
    if mode.uses_seed() {
        format!(
            "--seed {} {} --boards {boards}",
            generator.seed(),
            mode_flags(mode)
        )
    } else {
        mode_flags(mode)
    }
}

/// A seed from the operating system's randomness (through the standard
/// library's randomly keyed hasher).
fn draw_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::process::id())
}
