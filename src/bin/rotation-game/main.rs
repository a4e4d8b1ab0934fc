//! The `rotation-game` command: solve, check and verify The Rotation Game.

#[cfg(unix)]
mod calibrate;
mod census;
mod check;
mod exit;
mod gen_args;
mod generate;
mod input;
#[cfg(unix)]
mod judge;
#[cfg(unix)]
mod judging_args;
#[cfg(unix)]
mod junit;
mod package;
mod picture;
mod progress;
mod repeat;
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

use clap::{Parser, Subcommand};

/// Exact solver, checker and verification harness for The Rotation Game
/// (POJ 2286, UVa 1343, HDU 1667, AcWing 181).
#[derive(Parser)]
#[command(name = "rotation-game", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    // The sandbox of `stress` runs this executable again as its PID 1.
    #[cfg(unix)]
    rotation_game::stress::serve_if_asked();
    let cli = Cli::parse();
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
    }
}
