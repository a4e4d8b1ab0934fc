//! Writes seeds for the fuzz targets that read boards in binary: reads judge
//! input on standard input and writes each board, encoded for TARGET, to
//! `DIR/PREFIX-N` (N from 1).
//!
//! - `solve`: `rotation_game::fuzzing::encode_board`;
//! - `board` and `board_deep`: `rotation_game::fuzzing::BoardCase::encode`,
//!   board N with relabelling N mod 6 and symmetry N mod 8, so that the
//!   seeds between them use every relabelling and symmetry.
//!
//! `fuzz/make-seeds.sh` runs it:
//!
//! ```text
//! rotation-game gen --length 5 --boards 2 --seed 1 \
//!   | cargo run --example fuzz_seeds --features fuzzing -- solve fuzz/seeds/solve length5
//! ```

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use rotation_game::Board;
use rotation_game::fuzzing::{BoardCase, encode_board};
use rotation_game::parser::parse_all;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [target, dir, prefix] = arguments.as_slice() else {
        eprintln!("usage: fuzz_seeds solve|board|board_deep DIR PREFIX < judge-input");
        return ExitCode::from(2);
    };
    let encode: fn(usize, &Board) -> Vec<u8> = match target.as_str() {
        "solve" => |_, board| encode_board(board),
        "board" | "board_deep" => {
            |number, board| BoardCase::encode(board, (number % 6) as u8, (number % 8) as u8)
        }
        _ => {
            eprintln!(
                "fuzz_seeds: {target:?} reads no binary board; expected solve, board or board_deep"
            );
            return ExitCode::from(2);
        }
    };
    let mut input = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("fuzz_seeds: cannot read standard input: {error}");
        return ExitCode::from(74);
    }
    let boards = match parse_all(&input) {
        Ok(boards) => boards,
        Err(error) => {
            eprintln!("fuzz_seeds: {error}");
            return ExitCode::from(65);
        }
    };
    for (index, board) in boards.iter().enumerate() {
        let number = index + 1;
        let path = PathBuf::from(dir).join(format!("{prefix}-{number}"));
        if let Err(error) = std::fs::write(&path, encode(number, board)) {
            eprintln!("fuzz_seeds: cannot write {}: {error}", path.display());
            return ExitCode::from(74);
        }
    }
    ExitCode::SUCCESS
}
