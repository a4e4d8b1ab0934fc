//! `rotation-game census`: the exact number of boards at each optimal length.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rotation_game::census::{self, TOTAL_BOARDS};

use crate::exit;
use crate::progress;

/// Count all 9,465,511,770 boards by optimal length, exhaustively (not by
/// sampling), and print the table, the total and the greatest optimal
/// length. Uses the board's eight symmetries and the swap of two digits
/// (see the library's `census` module for the proof).
#[derive(Args)]
pub struct CensusArgs {
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,

    /// Print the result as JSON: boards_by_length (a list of {length,
    /// boards}), total, max_length, seconds.
    #[arg(long)]
    json: bool,
}

pub fn run(args: CensusArgs) -> ExitCode {
    let bar = progress::bar(TOTAL_BOARDS, "boards");
    let start = Instant::now();
    let result = census::census(args.threads, &|boards| bar.inc(boards));
    bar.finish_and_clear();
    let census = match result {
        Ok(census) => census,
        Err(error) => {
            eprintln!("rotation-game: cannot start the worker threads: {error}");
            return ExitCode::from(exit::OS_ERROR);
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    let written = if args.json {
        let mut json = census.to_json();
        json["seconds"] = serde_json::json!(seconds);
        writeln!(out, "{json}")
    } else {
        write!(out, "{}", census.table())
    };
    if let Err(error) = written.and_then(|()| out.flush()) {
        return exit::write_failure(&error);
    }
    if !args.json {
        eprintln!("counted in {seconds:.2} s");
    }
    ExitCode::SUCCESS
}
