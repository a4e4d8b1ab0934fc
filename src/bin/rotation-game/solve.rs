//! `rotation-game solve`: judge input in, judge answers out.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use rotation_game::SolverKind;
use rotation_game::judge::{self, OutputFormat, SolveOptions};
use rotation_game::solver::{DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT};

use crate::exit;
use crate::input;

/// Solve judge input: for each case, the lexicographically smallest shortest
/// move sequence (or "No moves needed") and the centre digit.
///
/// Input is read leniently, as the judges' programs read it: 24 values per
/// case separated by any whitespace, a 0 (or the end of the input) between
/// cases ends it, and anything after the 0 is ignored. Each case must hold
/// eight each of 1, 2 and 3.
///
/// Exit status: 0 when every case was answered; 65 on bad input or a board
/// the bfs solver refuses (the answers for every valid case before it are
/// still printed, and the error, with its case, line and column, goes to
/// standard error); 66 when INPUT cannot be
/// opened; 74 on a read or write failure.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct SolveArgs {
    /// Judge input to read; standard input when absent or "-".
    input: Option<PathBuf>,

    /// Which solver answers: pdb (IDA* with an exact pattern database, the
    /// default), ida (the classic IDA*), or bfs (the breadth-first
    /// reference, which refuses boards needing more than --max-depth moves).
    #[arg(long, value_enum, default_value_t = SolverArg::Pdb)]
    solver: SolverArg,

    /// Depth bound of the bfs solver: boards needing more moves are refused
    /// with an error (at most 9; 8 needs a few hundred megabytes).
    #[arg(long, default_value_t = DEFAULT_MAX_DEPTH,
          value_parser = clap::value_parser!(u8).range(0..=MAX_DEPTH_LIMIT as i64))]
    max_depth: u8,

    /// Output format: judge (two lines per case, byte-identical to the
    /// judges' reference), or json (one object per line with case, board,
    /// moves, length, centre, solver, nodes expanded and microseconds).
    #[arg(long, value_enum, default_value_t = FormatArg::Judge)]
    format: FormatArg,

    /// Report each bad case on standard error and go on with the next
    /// (without it, the first bad case stops the run). The exit status is
    /// still 65 when any case was bad.
    #[arg(long)]
    keep_going: bool,

    /// Threads solving cases (1 to 256). Answers are printed in input order
    /// whatever the number, and memory stays bounded: the input is read as
    /// the answers are written, never all at once. Cases typed at a
    /// terminal are answered one at a time as they come, on one thread.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

#[derive(Clone, Copy, ValueEnum)]
enum SolverArg {
    Pdb,
    Ida,
    Bfs,
}

impl From<SolverArg> for SolverKind {
    fn from(arg: SolverArg) -> SolverKind {
        match arg {
            SolverArg::Pdb => SolverKind::Pdb,
            SolverArg::Ida => SolverKind::Ida,
            SolverArg::Bfs => SolverKind::Bfs,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Judge,
    Json,
}

pub fn run(args: SolveArgs) -> ExitCode {
    let input = match input::open(args.input.as_deref()) {
        Ok(input) => input,
        Err((path, error)) => {
            eprintln!("rotation-game: cannot open {}: {error}", path.display());
            return ExitCode::from(exit::NO_INPUT);
        }
    };
    let reads_stdin = args
        .input
        .as_deref()
        .is_none_or(|path| path == Path::new("-"));
    let solver = SolverKind::from(args.solver).build(args.max_depth);
    let options = SolveOptions {
        format: match args.format {
            FormatArg::Judge => OutputFormat::Judge,
            FormatArg::Json => OutputFormat::Json,
        },
        keep_going: args.keep_going,
        threads: usize::from(args.threads),
        interactive: reads_stdin && io::stdin().is_terminal(),
    };
    let stdout = io::stdout().lock();
    let mut read_failed = false;
    let mut bad_input = false;
    let result = judge::solve_stream(input, stdout, solver.as_ref(), options, &mut |error| {
        read_failed |= matches!(error, judge::CaseError::Parse(e) if e.is_io());
        bad_input = true;
        eprintln!("rotation-game: {error}");
    });
    if read_failed {
        return ExitCode::from(exit::IO_ERROR);
    }
    match result {
        // A reader that stopped early does not make bad input good.
        Err(error) if bad_input => {
            exit::write_failure(&error);
            ExitCode::from(exit::DATA_ERROR)
        }
        Err(error) => exit::write_failure(&error),
        Ok(_) if bad_input => ExitCode::from(exit::DATA_ERROR),
        Ok(_) => ExitCode::SUCCESS,
    }
}
