//! `rotation-game show`: pictures of boards and of the steps of a replay.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rotation_game::{Board, MoveSequence};

use crate::colour;
use crate::exit;
use crate::picture::{self, Frame};

/// Draw boards as the '#' shape, with the centre framed and one colour per
/// digit (see --color: by default when standard output is a terminal, TERM
/// is not "dumb" and NO_COLOR is not set).
/// With --moves, draw every step of the replay, the moved line in brackets.
///
///     rotation-game show 111132323132231222312133 --moves AC
///     rotation-game show "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// A board: 24 values 1-3, either as 24 digits or separated by spaces
    /// (quoted, as one argument).
    #[arg(value_name = "BOARD", required = true, value_parser = parse_board)]
    boards: Vec<Board>,

    /// Moves to replay from each board: letters A-H (or "No moves needed").
    #[arg(long, value_name = "SEQ", value_parser = parse_moves)]
    moves: Option<MoveSequence>,

    /// Also write the pictures as an SVG image to FILE (one row per board).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn parse_board(text: &str) -> Result<Board, String> {
    rotation_game::parser::parse_board(text)
        .map_err(|error| format!("column {}: {}", error.column(), error.reason()))
}

fn parse_moves(text: &str) -> Result<MoveSequence, String> {
    MoveSequence::from_judge_line(text)
        .ok_or_else(|| format!("expected letters A-H (at most 32 of them), found {text:?}"))
}

pub fn run(args: ShowArgs) -> ExitCode {
    let colour = colour::stdout();
    let moves = args.moves.unwrap_or_default();
    let rows: Vec<Vec<Frame>> = args
        .boards
        .iter()
        .map(|board| picture::replay(board, &moves))
        .collect();
    let pictures: Vec<String> = rows
        .iter()
        .map(|frames| picture::text(frames, colour))
        .collect();
    if let Some(path) = &args.svg
        && let Err(error) = fs::write(path, picture::svg(&rows))
    {
        eprintln!("rotation-game: cannot write {}: {error}", path.display());
        return ExitCode::from(exit::IO_ERROR);
    }
    let mut out = io::stdout().lock();
    match out
        .write_all(pictures.join("\n").as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => exit::write_failure(&error),
    }
}
