//! The `rotation-game` command: solve, check and verify The Rotation Game.

#[cfg(unix)]
mod baseline;
#[cfg(unix)]
mod calibrate;
mod census;
mod check;
mod cli;
mod colour;
mod completions;
mod exit;
mod gen_args;
mod generate;
mod input;
#[cfg(unix)]
mod interpreter;
mod isolation;
mod jobs;
#[cfg(unix)]
mod judge;
#[cfg(unix)]
mod judging_args;
#[cfg(unix)]
mod junit;
mod output_args;
mod package;
mod picture;
mod progress;
mod repeat;
#[cfg(unix)]
mod report;
#[cfg(unix)]
mod runner_args;
mod show;
mod solve;
mod solver_args;
#[cfg(unix)]
mod stress;
#[cfg(unix)]
mod timing;
mod validate;
mod verify;

use std::process::ExitCode;

use cli::Command;

fn main() -> ExitCode {
    // The sandbox of `stress` runs this executable again as its PID 1.
    #[cfg(unix)]
    rotation_game::runner::serve_if_asked();
    let cli = cli::parse();
    colour::choose(cli.color);
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Gen(args) => generate::run(args),
        Command::Check(args) => check::run(args),
        Command::Validate(args) => validate::run(args),
        #[cfg(unix)]
        Command::Stress(args) => stress::run(args),
        #[cfg(unix)]
        Command::Judge(args) => judge::run(args),
        Command::Show(args) => show::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Census(args) => census::run(args),
        Command::Package(args) => package::run(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
    }
}
