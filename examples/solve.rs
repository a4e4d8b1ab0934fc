//! Solving with the library: one board, then a whole judge input, as the
//! `solve` command does.
//!
//! ```text
//! cargo run --example solve                     # the statement's first board
//! cargo run --example solve -- 111132323132231222312133
//! cargo run --example solve -- "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
//! ```
//!
//! Prints the board's answer (its moves, the digit they leave in the
//! centre, and its optimal length), the centre filling up move by move,
//! then the statement's sample input answered in the judges' format on two
//! threads. A board that is not 24 digits 1–3, eight of each, is an error
//! naming what is wrong (exit status 1).

use std::error::Error;
use std::io;
use std::process::ExitCode;

use rotation_game::answers::{JudgeFormat, SolveOptions, solve_stream};
use rotation_game::pattern_database::optimal_length;
use rotation_game::sample::{FIRST_BOARD, INPUT};
use rotation_game::{Board, PdbSolver, Solver};

fn main() -> ExitCode {
    match solve() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("solve: {error}");
            ExitCode::FAILURE
        }
    }
}

fn solve() -> Result<(), Box<dyn Error>> {
    // A board from text: 24 digits, with or without spaces.
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| FIRST_BOARD.to_owned());
    let board: Board = text.parse()?;

    // The default solver, exact, from the embedded pattern database: the
    // lexicographically smallest of the shortest move sequences.
    let solver = PdbSolver::default();
    let solution = solver.solve(&board)?;
    println!("board:  {board}");
    println!(
        "answer: {} leaves {} in the centre ({} moves, the optimum)",
        solution.moves,
        solution.centre,
        optimal_length(&board)
    );
    let mut position = board;
    for &step in solution.moves.as_slice() {
        position = position.apply(step);
        println!(
            "  after {step}: {} of the 8 centre cells hold {}",
            position.centre_count(solution.centre),
            solution.centre
        );
    }
    assert_eq!(position.uniform_centre(), Some(solution.centre));

    // A whole judge input (a board a case, then `0`) streamed through the
    // pipeline: answers written in input order, each bad case reported
    // after the answers before it.
    println!("the statement's sample input, answered:");
    let options = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    let summary = solve_stream(
        INPUT.as_bytes(),
        io::stdout().lock(),
        &solver,
        &JudgeFormat,
        options,
        &mut |bad_case| eprintln!("{bad_case}"),
    )?;
    println!("({} cases solved, {} bad)", summary.solved, summary.failed);
    Ok(())
}
