//! The `rotation-game` command: solve, check and verify The Rotation Game.

mod census;
mod exit;
mod gen_args;
mod generate;
mod input;
mod progress;
mod solve;
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
    Verify(verify::VerifyArgs),
    Census(census::CensusArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Gen(args) => generate::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Census(args) => census::run(args),
    }
}
