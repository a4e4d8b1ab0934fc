//! The library tests' helpers: the package's standalone programs compiled
//! once, running a program on an input, and the helpers the test binaries
//! share (`tests/support/`).

#[cfg(unix)]
#[path = "../support/compile.rs"]
pub mod compile;
#[cfg(unix)]
#[path = "../support/feed.rs"]
pub mod feed;
#[cfg(unix)]
#[path = "../support/fixtures.rs"]
pub mod fixtures;
#[cfg(unix)]
#[path = "../support/isolation.rs"]
pub mod isolation;
#[cfg(unix)]
#[path = "../support/package.rs"]
pub mod package;
#[cfg(unix)]
#[path = "../support/proc_stat.rs"]
pub mod proc_stat;
#[cfg(unix)]
#[path = "../support/process_tree.rs"]
pub mod process_tree;
#[cfg(unix)]
#[path = "../support/processes.rs"]
pub mod processes;
#[cfg(unix)]
#[path = "../support/programs.rs"]
pub mod programs;
#[cfg(unix)]
#[path = "../support/skip.rs"]
pub mod skip;
#[path = "../support/snapshots.rs"]
pub mod snapshots;

#[cfg(unix)]
pub use standalone::{SMALL_LIMIT, input_validators, output_validator, run};

/// The package's standalone programs.
#[cfg(unix)]
mod standalone {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Output};
    use std::sync::OnceLock;

    use rotation_game::package::{INPUT_VALIDATOR, OUTPUT_VALIDATOR, input_validator_source};

    use super::fixtures::fixtures;
    use super::package::compile;

    /// The case limit of the input validator built with a small limit, so
    /// that generated inputs cross it.
    pub const SMALL_LIMIT: usize = 3;

    /// The input validator as the package ships it (at most 30 cases a
    /// file), and with [`SMALL_LIMIT`], each compiled once.
    pub fn input_validators() -> &'static (PathBuf, PathBuf) {
        static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
        BUILT.get_or_init(|| {
            let dir = fixtures("standalone");
            let default = compile(&INPUT_VALIDATOR, INPUT_VALIDATOR.source, &dir, "", &[]);
            let small = compile(
                &INPUT_VALIDATOR,
                &input_validator_source(SMALL_LIMIT),
                &dir,
                "-small",
                &[],
            );
            (default, small)
        })
    }

    /// The output validator, compiled once.
    pub fn output_validator() -> &'static Path {
        static BUILT: OnceLock<PathBuf> = OnceLock::new();
        BUILT.get_or_init(|| {
            compile(
                &OUTPUT_VALIDATOR,
                OUTPUT_VALIDATOR.source,
                &fixtures("standalone"),
                "",
                &[],
            )
        })
    }

    /// Runs `binary` with `args`, feeding it `stdin`, and waits for it.
    pub fn run(binary: &Path, args: &[&Path], stdin: &[u8]) -> Output {
        super::feed::output_fed(Command::new(binary).args(args), stdin)
    }
}
