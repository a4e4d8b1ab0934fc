//! Writes seeds for the `solve` fuzz target: reads judge input on standard
//! input and writes each board, encoded with
//! `rotation_game::fuzzing::encode_board`, to `DIR/PREFIX-N` (N from 1).
//!
//! `fuzz/make-seeds.sh` runs it:
//!
//! ```text
//! rotation-game gen --depth 5 --boards 2 --seed 1 \
//!   | cargo run --example fuzz_solve_seeds --features fuzzing -- fuzz/seeds/solve depth5
//! ```

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use rotation_game::fuzzing::encode_board;
use rotation_game::parser::parse_all;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [dir, prefix] = arguments.as_slice() else {
        eprintln!("usage: fuzz_solve_seeds DIR PREFIX < judge-input");
        return ExitCode::from(2);
    };
    let mut input = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("fuzz_solve_seeds: cannot read standard input: {error}");
        return ExitCode::from(74);
    }
    let boards = match parse_all(&input) {
        Ok(boards) => boards,
        Err(error) => {
            eprintln!("fuzz_solve_seeds: {error}");
            return ExitCode::from(65);
        }
    };
    for (index, board) in boards.iter().enumerate() {
        let path = PathBuf::from(dir).join(format!("{prefix}-{}", index + 1));
        if let Err(error) = std::fs::write(&path, encode_board(board)) {
            eprintln!("fuzz_solve_seeds: cannot write {}: {error}", path.display());
            return ExitCode::from(74);
        }
    }
    ExitCode::SUCCESS
}
