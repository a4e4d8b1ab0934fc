//! `rotation-game solve`: judge input in, judge answers out.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use rotation_game::answers::{self, AnswerFormat, Answered, CaseError, JudgeFormat, SolveOptions};
use rotation_game::solver::{SolveError, SolverEntry};
use rotation_game::{Board, MoveSequence};
use serde::Serialize;

use crate::exit;
use crate::input::{self, Input};
use crate::jobs::JobsArg;
use crate::solver_args::{self, BoundArgs};

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

    /// Which solver answers: pdb (the answer read from the pattern
    /// database's path table, the default), ida (the classic IDA*), bfs (the breadth-first reference,
    /// which refuses boards needing more than --max-length moves), or
    /// descent (greedy descent on the pattern database).
    #[arg(long, value_name = "SOLVER", default_value = SolverEntry::default_entry().name,
          value_parser = solver_args::solver_name())]
    solver: &'static SolverEntry,

    #[command(flatten)]
    bound: BoundArgs,

    /// Output format: judge (two lines per case, byte-identical to the
    /// judges' reference), or json (one object per line with case, board,
    /// moves, length, centre, solver, nodes expanded and microseconds).
    #[arg(long, value_enum, default_value_t = FormatArg::Judge)]
    format: FormatArg,

    /// The same as --format json: one JSON object per case on standard
    /// output (docs/json.md).
    #[arg(long, conflicts_with = "format")]
    json: bool,

    /// Report each bad case on standard error and go on with the next
    /// (without it, the first bad case stops the run). The exit status is
    /// still 65 when any case was bad.
    #[arg(long)]
    keep_going: bool,

    #[command(flatten)]
    jobs: JobsArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Judge,
    Json,
}

/// One JSON object per line and case; a bad case (with `--keep-going`) is
/// `{"case": N, "error": "…"}`.
struct JsonFormat<'a> {
    /// The solver's name, for the messages of refused boards.
    solver: &'static str,
    /// The input's name in messages.
    input: &'a str,
}

/// The JSON object of one answer.
#[derive(Serialize)]
struct AnswerJson<'a> {
    case: usize,
    board: &'a Board,
    moves: &'a MoveSequence,
    length: usize,
    centre: rotation_game::Digit,
    solver: &'a str,
    nodes: u64,
    microseconds: u64,
}

/// The JSON object of a bad case.
#[derive(Serialize)]
struct ErrorJson {
    case: usize,
    error: String,
}

impl AnswerFormat for JsonFormat<'_> {
    fn timed(&self) -> bool {
        true
    }

    fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>) {
        let solution = answered.solution;
        let json = AnswerJson {
            case: answered.case,
            board: answered.board,
            moves: &solution.moves,
            length: solution.moves.len(),
            centre: solution.centre,
            solver: answered.solver,
            nodes: solution.nodes,
            microseconds: answered.time.unwrap_or_default().as_micros() as u64,
        };
        write_json_line(out, &json);
    }

    fn bad_case(&self, out: &mut Vec<u8>, case: usize, error: &CaseError) {
        let error = message(error, self.solver, self.input);
        write_json_line(out, &ErrorJson { case, error });
    }
}

fn write_json_line(out: &mut Vec<u8>, value: &impl Serialize) {
    serde_json::to_writer(&mut *out, value).expect("writing JSON to memory cannot fail");
    out.push(b'\n');
}

/// A bad case's message, as compilers write theirs and editors and CI
/// annotators read them: `INPUT:LINE:COLUMN: case N: what is wrong`
/// (`<stdin>` for standard input), `INPUT: case N: …` for a board a solver
/// refuses (naming the solver and the flag that bounds it), and
/// `INPUT: …` when the input cannot be read.
fn message(error: &CaseError, solver: &str, input: &str) -> String {
    match error {
        CaseError::Solve {
            case,
            error: SolveError::TooLong { max_length },
        } => format!(
            "{input}: case {case}: the board needs more than {max_length} move{}, beyond the {solver} solver's bound (--max-length)",
            if max_length.moves() == 1 { "" } else { "s" }
        ),
        CaseError::Parse(error) if error.is_io() => format!("{input}: {}", error.reason()),
        CaseError::Parse(error) => format!(
            "{input}:{}:{}: case {}: {}",
            error.line(),
            error.column(),
            error.case(),
            error.reason()
        ),
    }
}

pub fn run(args: SolveArgs) -> ExitCode {
    let input = match input::open_input(args.input.as_deref()) {
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
    let input_name = match &args.input {
        Some(path) if !reads_stdin => path.display().to_string(),
        _ => "<stdin>".to_owned(),
    };
    let solver = (args.solver.build)(&args.bound.options());
    let format_arg = if args.json {
        FormatArg::Json
    } else {
        args.format
    };
    let format: &dyn AnswerFormat = match format_arg {
        FormatArg::Judge => &JudgeFormat,
        FormatArg::Json => &JsonFormat {
            solver: args.solver.name,
            input: &input_name,
        },
    };
    let options = SolveOptions {
        keep_going: args.keep_going,
        threads: args.jobs.threads(),
        interactive: reads_stdin && io::stdin().is_terminal(),
    };
    let stdout = io::stdout().lock();
    let mut read_failed = false;
    let mut bad_input = false;
    let mut report = |error: &CaseError| {
        read_failed |= matches!(error, CaseError::Parse(e) if e.is_io());
        bad_input = true;
        eprintln!("{}", message(error, args.solver.name, &input_name));
    };
    let solver = solver.as_ref();
    // A file (even on standard input) is read by every thread at once.
    let result = match input {
        Input::File(file) => {
            answers::solve_file(file, stdout, solver, format, options, &mut report)
        }
        Input::Stream(input) => {
            answers::solve_stream(input, stdout, solver, format, options, &mut report)
        }
    };
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
