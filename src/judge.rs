//! Judge output, and the `solve` pipeline from input bytes to output bytes.
//!
//! # Overview
//!
//! For each case the judge output is two lines: the moves (or
//! `No moves needed`), then the centre digit, each ended by `\n`
//! ([`write_judge_answer`]). [`solve_stream`] runs the whole pipeline: it
//! streams cases from a [`CaseReader`], solves them, and writes the answers
//! in input order, in judge or JSON-lines form.
//!
//! Errors never lose answers: every valid case before the first bad one is
//! answered and written before the error is reported. With `keep_going`
//! each bad case is reported and the run goes on with the next.

use std::io::{self, Read, Write};
use std::time::Instant;

use crate::board::Board;
use crate::parser::{CaseReader, ParseError};
use crate::solver::{Solution, SolveError, Solver};

/// Appends the judge's two lines for `solution` to `out`.
pub fn write_judge_answer(out: &mut Vec<u8>, solution: &Solution) {
    if solution.moves.is_empty() {
        out.extend_from_slice(b"No moves needed");
    } else {
        solution.moves.write_letters(out);
    }
    out.push(b'\n');
    out.push(b'0' + solution.centre.value());
    out.push(b'\n');
}

/// How `solve` writes answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// The judges' two lines per case.
    #[default]
    Judge,
    /// One JSON object per line and case: `case`, `board`, `moves`,
    /// `length`, `centre`, `solver`, `nodes`, `microseconds`; a bad case
    /// (with `keep_going`) is `{"case": N, "error": "…"}`.
    Json,
}

/// Options of [`solve_stream`].
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Output form.
    pub format: OutputFormat,
    /// Report each bad case and go on, instead of stopping at the first.
    pub keep_going: bool,
}

/// What went wrong with one case.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CaseError {
    /// The case is not valid input.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The solver refused it.
    #[error("case {case}: {error}")]
    Solve {
        /// The case number, 1-based.
        case: usize,
        /// Why.
        error: SolveError,
    },
}

/// What a [`solve_stream`] run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveSummary {
    /// Cases answered.
    pub solved: usize,
    /// Bad cases reported.
    pub failed: usize,
}

/// Answers are written to the output whenever this many bytes are pending.
const FLUSH_THRESHOLD: usize = 1 << 16;

/// Reads judge input from `input`, solves every case with `solver` and writes
/// the answers to `output`, in input order. Each bad case is passed to
/// `report` after every answer before it has been written.
///
/// Without `keep_going` the run stops at the first bad case; with it, it
/// stops only at a fatal input error (see [`ParseError::is_fatal`]).
///
/// # Errors
///
/// Only a failure to write `output`; bad input is reported, not returned.
pub fn solve_stream<R: Read, W: Write>(
    input: R,
    mut output: W,
    solver: &dyn Solver,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
) -> io::Result<SolveSummary> {
    let mut summary = SolveSummary::default();
    let mut pending = Vec::with_capacity(FLUSH_THRESHOLD + 256);
    let mut cases = CaseReader::new(input);
    loop {
        let case = cases.next_case_number();
        let Some(parsed) = cases.next() else { break };
        let outcome = parsed
            .map_err(CaseError::from)
            .and_then(|board| answer_case(&mut pending, case, &board, solver, options.format));
        match outcome {
            Ok(()) => summary.solved += 1,
            Err(error) => {
                summary.failed += 1;
                output.write_all(&pending)?;
                pending.clear();
                output.flush()?;
                if options.format == OutputFormat::Json && options.keep_going {
                    write_json_error(&mut pending, case, &error);
                }
                report(&error);
                if !options.keep_going {
                    break;
                }
            }
        }
        if pending.len() >= FLUSH_THRESHOLD {
            output.write_all(&pending)?;
            pending.clear();
        }
    }
    output.write_all(&pending)?;
    output.flush()?;
    Ok(summary)
}

/// Solves one case and appends its answer to `out`.
fn answer_case(
    out: &mut Vec<u8>,
    case: usize,
    board: &Board,
    solver: &dyn Solver,
    format: OutputFormat,
) -> Result<(), CaseError> {
    match format {
        OutputFormat::Judge => {
            let solution = solver
                .solve(board)
                .map_err(|error| CaseError::Solve { case, error })?;
            write_judge_answer(out, &solution);
        }
        OutputFormat::Json => {
            let started = Instant::now();
            let solution = solver
                .solve(board)
                .map_err(|error| CaseError::Solve { case, error })?;
            let microseconds = started.elapsed().as_micros() as u64;
            let object = serde_json::json!({
                "case": case,
                "board": board.to_judge_line(),
                "moves": solution.moves.letters(),
                "length": solution.moves.len(),
                "centre": solution.centre.value(),
                "solver": solver.name(),
                "nodes": solution.nodes,
                "microseconds": microseconds,
            });
            out.extend_from_slice(object.to_string().as_bytes());
            out.push(b'\n');
        }
    }
    Ok(())
}

fn write_json_error(out: &mut Vec<u8>, case: usize, error: &CaseError) {
    let object = serde_json::json!({ "case": case, "error": error.to_string() });
    out.extend_from_slice(object.to_string().as_bytes());
    out.push(b'\n');
}

/// Solves every case of an in-memory judge input and returns the judge
/// output, stopping at the first bad case.
///
/// # Errors
///
/// The first bad case.
pub fn solve_to_string(input: &[u8], solver: &dyn Solver) -> Result<String, CaseError> {
    let mut output = Vec::new();
    let mut first_error = None;
    let options = SolveOptions {
        format: OutputFormat::Judge,
        keep_going: false,
    };
    solve_stream(input, &mut output, solver, options, &mut |error| {
        first_error = Some(error.clone())
    })
    .expect("writing to memory cannot fail");
    match first_error {
        None => Ok(String::from_utf8(output).expect("judge output is ASCII")),
        Some(error) => Err(error),
    }
}
