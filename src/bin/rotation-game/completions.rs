//! `rotation-game completions SHELL` and `rotation-game man [COMMAND]`:
//! shell completions and manual pages, generated from the command line's
//! one definition ([`crate::cli::command`]), so that they list exactly the
//! commands and flags `--help` shows.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

use crate::cli;
use crate::exit;

/// Print the completion script of SHELL on standard output, to be saved
/// where the shell loads completions from (see the examples).
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    shell: Shell,
}

/// Print a manual page (roff) on standard output: the command's, or with
/// COMMAND, one subcommand's (rotation-game-COMMAND(1)).
#[derive(Args)]
pub struct ManArgs {
    /// The subcommand whose page to print.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

pub fn completions(args: CompletionsArgs) -> ExitCode {
    let mut command = cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "rotation-game", &mut out);
    written(&out)
}

pub fn man(args: ManArgs) -> ExitCode {
    let command = cli::command();
    let page = match &args.command {
        None => command,
        Some(name) => {
            let Some(sub) = command.find_subcommand(name) else {
                let names: Vec<&str> = command
                    .get_subcommands()
                    .map(|sub| sub.get_name())
                    .collect();
                eprintln!(
                    "rotation-game: man: no command {name:?}; the commands are {}",
                    names.join(", ")
                );
                return ExitCode::from(exit::USAGE);
            };
            // The page's name, as man(1) lists it: rotation-game-stress.
            let title = format!("rotation-game-{name}");
            sub.clone()
                .name(title.clone())
                .bin_name(format!("rotation-game {name}"))
                .display_name(title)
                .version(command.get_version().unwrap_or_default().to_owned())
        }
    };
    let mut out = Vec::new();
    if let Err(error) = clap_mangen::Man::new(page).render(&mut out) {
        return exit::write_failure(&error);
    }
    written(&out)
}

fn written(bytes: &[u8]) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => exit::write_failure(&error),
    }
}
