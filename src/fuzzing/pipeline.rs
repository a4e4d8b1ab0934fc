//! The `pipeline` target: arbitrary bytes through the whole `solve` pipeline,
//! on one thread and on several (from memory, or from a file that the
//! threads read themselves), and through the validator and the checker.

use std::io::{Seek, SeekFrom, Write};

use super::verdicts::{checker_exit_code, checker_verdict, validator_exit_code};
use crate::answers::{
    CaseError, JudgeFormat, SolveOptions, SolveSummary, solve_file, solve_stream, write_answer,
};
use crate::board::Board;
use crate::checker::CheckOptions;
use crate::exit_codes::ExitCodes;
use crate::parser::{CaseReader, ParseError, format_input};
use crate::solver::{DescentSolver, PdbSolver, Solver};
use crate::validator::ValidateOptions;

/// The threads of the several-thread runs. Each run builds its own pool,
/// which costs far more than solving a fuzzer's input: one pool per input is
/// the budget.
const SEVERAL_THREADS: usize = 2;

/// What a run of the pipeline gives: every byte of its output, the bad
/// cases it reported (by message, in order), and its summary. The command
/// line's exit status is made from these.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    output: Vec<u8>,
    reported: Vec<String>,
    summary: SolveSummary,
}

/// Feeds `data` as judge input to [`solve_stream`] with the default solver
/// and checks the pipeline against the parser, the validator and the
/// checker.
///
/// - On one thread with and without `keep_going`, and on two threads with
///   `keep_going` when `data`'s length is odd and without it when it is
///   even, the outcome (output bytes, bad cases reported, summary) is the
///   one the parser predicts: the answers of the greedy descent
///   ([`DescentSolver`], not the pipeline's solver) for each board the
///   lenient parser reads, and its errors; without `keep_going`, only up to
///   the first error. So the outcomes on one thread and on several are
///   byte-identical. The two-thread run reads `data` from memory
///   ([`solve_stream`]) when its length's second bit is clear, and from a
///   file ([`solve_file`], whose threads read their chunks of it
///   themselves) when it is set.
/// - The strict validator accepts `data` exactly when it is the parser's
///   boards in canonical form ([`format_input`]), and its exit status
///   says so under testlib's and Kattis's conventions.
/// - When the parser finds no error, the checker accepts the pipeline's
///   output for `data`, leniently and with strict whitespace, with the
///   output as the jury's answer too (exit status 0, or 42 for Kattis);
///   when it finds one, the checker fails on `data` as a judge input
///   (exit status 3).
///
/// # Panics
///
/// When one of these fails.
pub fn pipeline(data: &[u8]) {
    let items: Vec<Result<Board, ParseError>> = CaseReader::new(data).collect();
    let solver = PdbSolver::default();
    let mut output = Vec::new();
    for keep_going in [false, true] {
        let expected = predicted_outcome(&items, keep_going);
        let mut thread_counts = vec![1];
        if keep_going == (data.len() % 2 == 1) {
            thread_counts.push(SEVERAL_THREADS);
        }
        for threads in thread_counts {
            let source = if threads > 1 && data.len() & 2 != 0 {
                Source::File
            } else {
                Source::Memory
            };
            let outcome = run(data, source, &solver, keep_going, threads);
            assert_eq!(
                outcome, expected,
                "solve on {threads} threads, keep_going {keep_going}, from {source:?}"
            );
        }
        if !keep_going {
            output = expected.output;
        }
    }

    let boards: Vec<Board> = items.iter().filter_map(|item| item.clone().ok()).collect();
    let parsed_cleanly = boards.len() == items.len();
    let canonical = parsed_cleanly && format_input(&boards).as_bytes() == data;
    let validate_options = ValidateOptions::default();
    for (convention, valid_code) in [(ExitCodes::Testlib, 0), (ExitCodes::Kattis, 42)] {
        assert_eq!(
            validator_exit_code(data, &validate_options, convention) == valid_code,
            canonical,
            "the validator's verdict ({convention:?}) against the parser's canonical form"
        );
    }

    for strict_whitespace in [false, true] {
        let options = CheckOptions {
            strict_whitespace,
            ..CheckOptions::default()
        };
        let verdict = checker_verdict(data, &output, Some(&output), &options);
        assert_eq!(
            verdict.is_ok(),
            parsed_cleanly,
            "the checker on the pipeline's output, strict whitespace {strict_whitespace}: {verdict}"
        );
        let codes = [ExitCodes::Testlib, ExitCodes::Kattis]
            .map(|convention| checker_exit_code(data, &output, None, &options, convention));
        let expected_codes = if parsed_cleanly { [0, 42] } else { [3, 3] };
        assert_eq!(codes, expected_codes, "checker exit codes: {verdict}");
    }
}

/// Where a run of the pipeline reads `data` from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// From memory, through [`solve_stream`].
    Memory,
    /// From a file holding it, through [`solve_file`] (whose threads read
    /// their chunks of it themselves).
    File,
}

/// Runs the pipeline on `data`, read from `source`.
fn run(
    data: &[u8],
    source: Source,
    solver: &dyn Solver,
    keep_going: bool,
    threads: usize,
) -> Outcome {
    let options = SolveOptions {
        keep_going,
        threads,
        interactive: false,
    };
    let mut output = Vec::new();
    let mut reported = Vec::new();
    let mut report = |error: &CaseError| reported.push(error.to_string());
    let summary = match source {
        Source::Memory => solve_stream(
            data,
            &mut output,
            solver,
            &JudgeFormat,
            options,
            &mut report,
        ),
        Source::File => {
            // A file of this process's own, made without a race and
            // removed when dropped.
            let mut scratch = tempfile::tempfile()
                .unwrap_or_else(|error| panic!("cannot make a scratch file: {error}"));
            scratch
                .write_all(data)
                .and_then(|()| scratch.seek(SeekFrom::Start(0)).map(drop))
                .unwrap_or_else(|error| panic!("cannot write the scratch file: {error}"));
            let file = scratch;
            solve_file(
                file,
                &mut output,
                solver,
                &JudgeFormat,
                options,
                &mut report,
            )
        }
    }
    .expect("writing to memory cannot fail");
    Outcome {
        output,
        reported,
        summary,
    }
}

/// The outcome the parser's `items` call for: the descent's answer for
/// each board and each error reported, stopping at the first error unless
/// `keep_going`.
fn predicted_outcome(items: &[Result<Board, ParseError>], keep_going: bool) -> Outcome {
    let mut outcome = Outcome {
        output: Vec::new(),
        reported: Vec::new(),
        summary: SolveSummary::default(),
    };
    for item in items {
        match item {
            Ok(board) => {
                let solution = DescentSolver
                    .solve(board)
                    .expect("the descent answers every board");
                write_answer(&mut outcome.output, &solution);
                outcome.summary.solved += 1;
            }
            Err(error) => {
                outcome.reported.push(error.to_string());
                outcome.summary.failed += 1;
                if !keep_going {
                    break;
                }
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{INPUT, OUTPUT};

    #[test]
    fn the_sample_is_predicted_and_passes() {
        let items: Vec<_> = CaseReader::new(INPUT.as_bytes()).collect();
        let predicted = predicted_outcome(&items, false);
        assert_eq!(predicted.output, OUTPUT.as_bytes());
        assert!(predicted.reported.is_empty());
        pipeline(INPUT.as_bytes());
    }

    #[test]
    fn a_bad_case_stops_the_prediction_unless_keep_going() {
        // A bad value; the parser skips the rest of its case.
        let bad = "1 1 4 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3";
        let input = format!("{bad}\n{}\n0\n", crate::sample::FIRST_BOARD);
        let items: Vec<_> = CaseReader::new(input.as_bytes()).collect();
        let stopped = predicted_outcome(&items, false);
        assert_eq!((stopped.summary.solved, stopped.reported.len()), (0, 1));
        let went_on = predicted_outcome(&items, true);
        assert_eq!((went_on.summary.solved, went_on.reported.len()), (1, 1));
        assert_eq!(went_on.output, b"AC\n2\n");
        pipeline(input.as_bytes());
    }
}
