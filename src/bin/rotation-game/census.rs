//! `rotation-game census`: the exact number of boards at each optimal
//! length, as a table or JSON.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rotation_game::census::{self, TOTAL_BOARDS};
use rotation_game::{LengthCounts, OptimalLength};
use serde::Serialize;

use crate::exit;
use crate::jobs::JobsArg;
use crate::output_args::{self, OutputArgs};
use crate::progress;

/// Count all 9,465,511,770 boards by optimal length, exhaustively (not by
/// sampling), and print the table, the total and the greatest optimal
/// length. Uses the board's eight symmetries and the swap of two digits
/// (see the library's `census` module for the proof).
#[derive(Args)]
pub struct CensusArgs {
    #[command(flatten)]
    jobs: JobsArg,

    /// The result's formats: --json [FILE] (boards_by_length, a list of
    /// {length, boards}; total, max_length, seconds: docs/json.md) and
    /// --quiet.
    #[command(flatten)]
    output: OutputArgs,
}

/// The JSON form of the census.
#[derive(Serialize)]
struct CensusJson<'a> {
    boards_by_length: &'a LengthCounts,
    total: u64,
    max_length: Option<OptimalLength>,
    seconds: f64,
}

pub fn run(args: CensusArgs) -> ExitCode {
    args.output.take_errors();
    let bar = progress::shown(args.output.progress(), TOTAL_BOARDS, "boards");
    let start = Instant::now();
    let result = census::census(args.jobs.threads(), &|boards| bar.inc(boards));
    bar.finish_and_clear();
    let counts = match result {
        Ok(counts) => counts,
        Err(error) => {
            return output_args::fail(
                format!("cannot start the worker threads: {error}"),
                exit::OS_ERROR,
            );
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let json = CensusJson {
        boards_by_length: &counts,
        total: counts.total(),
        max_length: counts.max_length(),
        seconds,
    };
    let written = match args.output.write_json(json) {
        Ok(written) => written,
        Err(status) => return status,
    };
    let written = if args.output.text() {
        let mut out = io::stdout().lock();
        out.write_all(table(&counts).as_bytes())
            .and_then(|()| out.flush())
    } else {
        written
    };
    if let Err(error) = written {
        return exit::write_failure(&error);
    }
    if args.output.text() {
        eprintln!("counted in {seconds:.2} s");
    }
    ExitCode::SUCCESS
}

/// The census as a text table: a header, one `length boards` row per
/// length, the total and the greatest optimal length.
pub fn table(counts: &LengthCounts) -> String {
    let mut table = String::from("length        boards\n");
    for (length, count) in counts.as_slice().iter().enumerate() {
        table.push_str(&format!("{length:>6} {count:>13}\n"));
    }
    table.push_str(&format!(" total {:>13}\n", counts.total()));
    let max = counts.max_length().map_or(0, OptimalLength::moves);
    table.push_str(&format!("maximal optimal length: {max}\n"));
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_length_the_total_and_the_maximum() {
        let counts = LengthCounts::from_counts(&[3, 0, 5, 0, 0]);
        assert_eq!(
            table(&counts),
            "length        boards\n     0             3\n     1             0\n     2             5\n total             8\nmaximal optimal length: 2\n"
        );
    }
}
