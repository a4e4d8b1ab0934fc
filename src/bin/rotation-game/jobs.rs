//! `-j/--jobs N`: how much of a command runs at once. One flag, one meaning
//! and one default for every command that works in parallel (`solve`,
//! `verify`, `census`, `package`, `stress`, `judge`): 0, the default, is
//! one per core; `--threads`, the old name of some, still works.

use std::num::NonZeroUsize;

use clap::Args;

/// The flag. Its help is the command's own ([`crate::cli`] words it for
/// each command, so that no command's help speaks of another's).
#[derive(Args, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobsArg {
    /// How many at once (0: one per core).
    #[arg(short = 'j', long = "jobs", alias = "threads", value_name = "N",
          default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    jobs: u16,
}

impl JobsArg {
    /// The number given, `None` for 0 (one per core, or what the command
    /// makes of it).
    pub fn given(self) -> Option<usize> {
        (self.jobs != 0).then_some(usize::from(self.jobs))
    }

    /// How many threads: the number given, or the number of cores.
    pub fn threads(self) -> usize {
        self.given().unwrap_or_else(cores)
    }

    /// The flag as given, for a command that repeats this one: nothing for
    /// the default.
    pub fn repeat_flag(self) -> String {
        self.given()
            .map_or_else(String::new, |jobs| format!(" --jobs {jobs}"))
    }
}

/// The number of cores this process may use (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        jobs: JobsArg,
    }

    fn parsed(args: &[&str]) -> Result<JobsArg, clap::Error> {
        let mut argv = vec!["command"];
        argv.extend_from_slice(args);
        Command::try_parse_from(argv).map(|command| command.jobs)
    }

    #[test]
    fn zero_the_default_is_one_per_core() {
        let default = parsed(&[]).unwrap();
        assert_eq!(default, parsed(&["--jobs", "0"]).unwrap());
        assert_eq!(default.given(), None);
        assert_eq!(default.threads(), cores());
        assert_eq!(default.repeat_flag(), "");
    }

    #[test]
    fn every_spelling_gives_the_same_number() {
        for args in [
            &["-j", "3"][..],
            &["-j3"],
            &["--jobs", "3"],
            &["--threads", "3"],
        ] {
            let jobs = parsed(args).unwrap();
            assert_eq!((jobs.given(), jobs.threads()), (Some(3), 3), "{args:?}");
            assert_eq!(jobs.repeat_flag(), " --jobs 3");
        }
        assert!(parsed(&["--jobs", "257"]).is_err());
        assert!(parsed(&["--jobs", "-1"]).is_err());
    }
}
