//! The command line as one definition: the commands, the global flags, and
//! the help each command gives of its own defaults, with an example. The
//! parser, `completions` and `man` all read this one definition, so the
//! shell completions and the manual page never disagree with `--help`.

use clap::{Command as ClapCommand, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::colour::ColourWhen;
use crate::{census, check, completions, generate, package, show, solve, validate, verify};
#[cfg(unix)]
use crate::{judge, stress};

/// Exact solver, checker and verification harness for The Rotation Game
/// (POJ 2286, UVa 1343, HDU 1667, AcWing 181).
#[derive(Parser)]
#[command(name = "rotation-game", version, propagate_version = true)]
pub struct Cli {
    /// When to colour the output (digits, verdicts): auto is when the
    /// output is a terminal, TERM is not "dumb" and NO_COLOR is unset or
    /// empty.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColourWhen::Auto, global = true)]
    pub color: ColourWhen,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    Solve(solve::SolveArgs),
    Gen(generate::GenCommand),
    Check(check::CheckArgs),
    Validate(validate::ValidateArgs),
    #[cfg(unix)]
    Stress(stress::StressArgs),
    #[cfg(unix)]
    Judge(judge::JudgeArgs),
    Show(show::ShowArgs),
    Verify(verify::VerifyArgs),
    Census(census::CensusArgs),
    Package(package::PackageArgs),
    Completions(completions::CompletionsArgs),
    Man(completions::ManArgs),
}

/// The command line: the derived definition, with each command's own
/// defaults in the help of the flags they share, and its examples.
pub fn command() -> ClapCommand {
    let mut command = Cli::command();
    for (name, own) in OWN_HELP {
        command = command.mut_subcommand(name, |mut sub| {
            for (flag, help) in *own {
                sub = sub.mut_arg(*flag, |arg| arg.help(*help));
            }
            sub
        });
    }
    for (name, examples) in EXAMPLES {
        command =
            command.mut_subcommand(name, |sub| sub.after_help(format!("Examples:\n{examples}")));
    }
    command
}

/// Parses the command line, or exits as clap does (help, version, usage
/// errors with status 2).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// What --boards says of --hardest, in every command's words for it.
macro_rules! hardest_sample {
    () => {
        "With --hardest, a seeded sample of N of the 192 hardest boards, without repetition; without --boards, --hardest gives all 192."
    };
}

/// What --time-limit is, before each command's default.
macro_rules! cpu_time_limit {
    () => {
        "CPU time allowed per run, in seconds (user plus system time of the program and of every process it starts; a fraction is allowed). CPU time does not grow when the machine is busy. "
    };
}

/// --mix, where it is the default (verify, stress).
const MIX_BY_DEFAULT: &str = "Board i (from 0) has optimal length i mod 14, uniform among the boards of that length: every 14 boards hold a solved board, one of each length and a hardest board (the default).";

/// Each command's words for the flags it shares with others: its own
/// default, never another command's.
const OWN_HELP: &[(&str, &[(&str, &str)])] = &[
    (
        "solve",
        &[(
            "jobs",
            "Threads solving cases (0, the default: one per core). Answers are printed in input order whatever the number, and memory stays bounded: the input is read as the answers are written. Cases typed at a terminal are answered one at a time, on one thread.",
        )],
    ),
    (
        "gen",
        &[
            (
                "boards",
                concat!("How many boards [default: 10]. ", hardest_sample!()),
            ),
            (
                "uniform",
                "Uniformly random arrangements of the 24 tiles (the default).",
            ),
        ],
    ),
    (
        "verify",
        &[
            (
                "jobs",
                "Worker threads (0, the default: one per core). The report does not depend on it.",
            ),
            (
                "boards",
                concat!(
                    "How many boards [default: 14, one of each optimal length with --mix]. ",
                    hardest_sample!()
                ),
            ),
            ("mix", MIX_BY_DEFAULT),
        ],
    ),
    (
        "census",
        &[("jobs", "Worker threads (0, the default: one per core).")],
    ),
    (
        "package",
        &[(
            "jobs",
            "Worker threads (0, the default: one per core). The package does not depend on it.",
        )],
    ),
    (
        "stress",
        &[
            (
                "jobs",
                "How many runs of the program go at once (0, the default: one per CPU, or fewer if the memory available cannot hold that many runs at --memory-limit). Neither the CPU time limit nor the report depends on it.",
            ),
            (
                "boards",
                concat!(
                    "How many boards [default: 1400 of the mix, a hundred of each optimal length]. ",
                    hardest_sample!()
                ),
            ),
            ("mix", MIX_BY_DEFAULT),
            ("time_limit", concat!(cpu_time_limit!(), "[default: 10]")),
        ],
    ),
    (
        "judge",
        &[
            (
                "jobs",
                "How many files are judged at once (0, the default: one per CPU, or fewer if the memory available cannot hold that many runs at --memory-limit). Neither the CPU time limit nor the report depends on it.",
            ),
            (
                "time_limit",
                concat!(
                    cpu_time_limit!(),
                    "[default: the folder's .timelimit, else 10]"
                ),
            ),
        ],
    ),
];

/// Each command's examples, shown after its help.
const EXAMPLES: &[(&str, &str)] = &[
    (
        "solve",
        "  rotation-game solve input.txt\n  rotation-game gen --seed 1 --boards 1000 | rotation-game solve --jobs 2 --format json",
    ),
    (
        "gen",
        "  rotation-game gen --seed 1 --boards 100 --length 12 > hard.txt\n  rotation-game gen --hardest",
    ),
    (
        "check",
        "  rotation-game check input.txt output.txt\n  ./mine < input.txt | rotation-game check input.txt -",
    ),
    (
        "validate",
        "  rotation-game validate input.txt\n  rotation-game validate --strict data/secret/*.in",
    ),
    (
        "stress",
        "  rotation-game stress --program ./a.out --seed 1\n  rotation-game stress --program 'python3 sol.py' --seed 1 --boards 140 --no-fail-fast --json report.json\n  rotation-game stress --program ./a.out --seed 1 --no-fail-fast --baseline report.json",
    ),
    (
        "judge",
        "  rotation-game package rotationgame --seed 1\n  rotation-game judge --program ./a.out rotationgame",
    ),
    (
        "show",
        "  rotation-game show 111132323132231222312133 --moves AC\n  rotation-game show \"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\"",
    ),
    (
        "verify",
        "  rotation-game verify --seed 1\n  rotation-game verify --seed 7 --scramble 7 --boards 2000 --solvers pdb,ida --json",
    ),
    ("census", "  rotation-game census --jobs 2 --json"),
    (
        "package",
        "  rotation-game package rotationgame --seed 1\n  rotation-game package --report --seed 1",
    ),
    (
        "completions",
        "  rotation-game completions bash > ~/.local/share/bash-completion/completions/rotation-game\n  rotation-game completions zsh > ~/.zfunc/_rotation-game",
    ),
    (
        "man",
        "  rotation-game man > rotation-game.1 && man ./rotation-game.1\n  rotation-game man stress | man -l -",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definition_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn every_command_has_examples_and_its_own_words_name_real_flags() {
        let command = command();
        for sub in command.get_subcommands() {
            let name = sub.get_name();
            assert!(
                EXAMPLES.iter().any(|(with, _)| *with == name),
                "{name} has no example"
            );
        }
        for (name, own) in OWN_HELP {
            let sub = command.find_subcommand(name).expect(name);
            for (flag, _) in *own {
                assert!(
                    sub.get_arguments().any(|arg| arg.get_id() == *flag),
                    "{name} has no {flag}"
                );
            }
        }
    }

    #[test]
    fn no_command_speaks_of_another_commands_defaults() {
        let mut command = command();
        for name in [
            "gen", "verify", "stress", "judge", "solve", "census", "package",
        ] {
            let Some(sub) = command.find_subcommand_mut(name) else {
                continue;
            };
            let help = sub.render_long_help().to_string();
            for other in [
                "10 for gen",
                "14 for verify",
                "1400 for stress",
                "judge: the package",
                "default mode of",
            ] {
                assert!(
                    !help.contains(other),
                    "{name}'s help says {other:?}:\n{help}"
                );
            }
        }
    }
}
