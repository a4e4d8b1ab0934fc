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

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
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
    /// Threads solving cases; 1 solves on the calling thread. Answers are
    /// written in input order whatever the number.
    pub threads: usize,
    /// Write each answer as soon as it is known, for a person typing cases;
    /// otherwise answers are written in large blocks.
    pub interactive: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            format: OutputFormat::Judge,
            keep_going: false,
            threads: 1,
            interactive: false,
        }
    }
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

/// Cases read, solved and written together; with several threads, each
/// thread takes a batch at a time.
const BATCH_CASES: usize = 4096;

/// Batches in flight per solving thread: the reader never gets further than
/// this ahead of the writer, which bounds memory whatever the input's size.
const BATCHES_PER_THREAD: usize = 4;

/// Parsed cases, with their numbers, in input order.
type Batch = Vec<(usize, Result<Board, ParseError>)>;

/// A batch's answers: its output bytes, and its bad cases, each with the
/// length of output written before it.
#[derive(Default)]
struct Answers {
    output: Vec<u8>,
    errors: Vec<(usize, CaseError)>,
    solved: usize,
}

/// Reads up to `limit` cases. Returns them and whether the input may hold
/// more: it does not after its end, a fatal error, or (without
/// `keep_going`) any error.
fn read_batch<R: Read>(cases: &mut CaseReader<R>, limit: usize, keep_going: bool) -> (Batch, bool) {
    let mut batch = Vec::with_capacity(limit);
    while batch.len() < limit {
        let number = cases.next_case_number();
        let Some(parsed) = cases.next() else {
            return (batch, false);
        };
        let stop = match &parsed {
            Ok(_) => false,
            Err(error) => error.is_fatal() || !keep_going,
        };
        batch.push((number, parsed));
        if stop {
            return (batch, false);
        }
    }
    (batch, true)
}

/// Solves a batch. Without `keep_going`, nothing after the first bad case
/// is solved.
fn answer_batch(batch: Batch, solver: &dyn Solver, options: SolveOptions) -> Answers {
    let mut answers = Answers {
        output: Vec::with_capacity(batch.len() * 16),
        ..Answers::default()
    };
    for (case, parsed) in batch {
        let outcome = parsed.map_err(CaseError::from).and_then(|board| {
            answer_case(&mut answers.output, case, &board, solver, options.format)
        });
        match outcome {
            Ok(()) => answers.solved += 1,
            Err(error) => {
                let written_before = answers.output.len();
                if options.format == OutputFormat::Json && options.keep_going {
                    write_json_error(&mut answers.output, case, &error);
                }
                answers.errors.push((written_before, error));
                if !options.keep_going {
                    break;
                }
            }
        }
    }
    answers
}

/// Writes a batch's answers, reporting each bad case once the answers
/// before it are written and flushed.
fn write_answers<W: Write>(
    answers: Answers,
    output: &mut W,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<()> {
    let mut written = 0;
    for (written_before, error) in &answers.errors {
        output.write_all(&answers.output[written..*written_before])?;
        output.flush()?;
        written = *written_before;
        report(error);
    }
    output.write_all(&answers.output[written..])?;
    summary.solved += answers.solved;
    summary.failed += answers.errors.len();
    Ok(())
}

/// Reads judge input from `input`, solves every case with `solver` and writes
/// the answers to `output`, in input order. Each bad case is passed to
/// `report` after every answer before it has been written.
///
/// Without `keep_going` the run stops at the first bad case; with it, it
/// stops only at a fatal input error (see [`ParseError::is_fatal`]).
///
/// With several threads, one thread reads and parses batches of cases, the
/// solving threads answer a batch each, and the calling thread writes the
/// batches back in input order. At most a few batches per thread are in
/// flight, so memory stays bounded.
///
/// # Errors
///
/// Only a failure to write `output`; bad input is reported, not returned.
pub fn solve_stream<R: Read + Send, W: Write>(
    input: R,
    mut output: W,
    solver: &dyn Solver,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
) -> io::Result<SolveSummary> {
    let mut summary = SolveSummary::default();
    let mut cases = CaseReader::new(input);
    // A person typing cases gets each answer at once, which batches of
    // cases for several threads would hold back.
    if options.threads <= 1 || options.interactive {
        let limit = if options.interactive { 1 } else { BATCH_CASES };
        loop {
            let (batch, more) = read_batch(&mut cases, limit, options.keep_going);
            let answers = answer_batch(batch, solver, options);
            let stop = !more || stops_the_run(&answers, options);
            write_answers(answers, &mut output, report, &mut summary)?;
            if options.interactive {
                output.flush()?;
            }
            if stop {
                break;
            }
        }
    } else {
        solve_in_parallel(cases, &mut output, solver, options, report, &mut summary)?;
    }
    output.flush()?;
    Ok(summary)
}

/// Whether a batch's answers end the run: without `keep_going`, any bad
/// case does (a refused board as much as bad input).
fn stops_the_run(answers: &Answers, options: SolveOptions) -> bool {
    !options.keep_going && !answers.errors.is_empty()
}

/// The several-thread form of [`solve_stream`].
fn solve_in_parallel<R: Read + Send, W: Write>(
    mut cases: CaseReader<R>,
    output: &mut W,
    solver: &dyn Solver,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<()> {
    let window = options.threads * BATCHES_PER_THREAD;
    // A token per batch allowed in flight: the reader takes one before
    // reading a batch, the writer gives it back once the batch is written.
    let (token_sender, token_receiver) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        token_sender
            .send(())
            .expect("the channel has room for every token");
    }
    let (batch_sender, batch_receiver) = mpsc::sync_channel::<(usize, Batch)>(options.threads);
    let batch_receiver = Mutex::new(batch_receiver);
    let (answer_sender, answer_receiver) = mpsc::channel::<(usize, thread::Result<Answers>)>();
    // Set by the writer when it stops early, so that no more input is read
    // and no more batches are solved.
    let cancelled = AtomicBool::new(false);
    thread::scope(|scope| {
        let cancelled = &cancelled;
        thread::Builder::new()
            .name("solve-reader".into())
            .spawn_scoped(scope, move || {
                for index in 0.. {
                    if token_receiver.recv().is_err() || cancelled.load(Ordering::Relaxed) {
                        return;
                    }
                    let (batch, more) = read_batch(&mut cases, BATCH_CASES, options.keep_going);
                    if batch_sender.send((index, batch)).is_err() || !more {
                        return;
                    }
                }
            })?;
        for worker in 0..options.threads {
            let answer_sender = answer_sender.clone();
            let batch_receiver = &batch_receiver;
            thread::Builder::new()
                .name(format!("solve-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    loop {
                        let next = batch_receiver.lock().map(|receiver| receiver.recv());
                        let Ok(Ok((index, batch))) = next else { return };
                        // Once cancelled, batches are drained unsolved, so
                        // that the reader is never left blocked on a full
                        // channel.
                        if cancelled.load(Ordering::Relaxed) {
                            continue;
                        }
                        // A panicking solver must not leave the writer
                        // waiting for this batch forever: the panic goes to
                        // the writer, which raises it again.
                        let answers = panic::catch_unwind(AssertUnwindSafe(|| {
                            answer_batch(batch, solver, options)
                        }));
                        if answer_sender.send((index, answers)).is_err() {
                            return;
                        }
                    }
                })?;
        }
        drop(answer_sender);
        // Write batches in input order, holding those that arrive early.
        let mut early: BTreeMap<usize, Answers> = BTreeMap::new();
        let mut next_index = 0;
        let mut stopped = false;
        let written = (|| {
            for (index, answers) in answer_receiver.iter() {
                let answers = match answers {
                    Ok(answers) => answers,
                    Err(payload) => {
                        cancelled.store(true, Ordering::Relaxed);
                        panic::resume_unwind(payload);
                    }
                };
                early.insert(index, answers);
                while let Some(answers) = early.remove(&next_index) {
                    stopped |= stops_the_run(&answers, options);
                    write_answers(answers, output, report, summary)?;
                    next_index += 1;
                    if stopped {
                        return Ok(());
                    }
                    // The reader may have finished; then nobody takes tokens.
                    let _ = token_sender.send(());
                }
            }
            Ok(())
        })();
        cancelled.store(true, Ordering::Relaxed);
        drop(token_sender);
        written
    })
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
    solve_stream(
        input,
        &mut output,
        solver,
        SolveOptions::default(),
        &mut |error| first_error = Some(error.clone()),
    )
    .expect("writing to memory cannot fail");
    match first_error {
        None => Ok(String::from_utf8(output).expect("judge output is ASCII")),
        Some(error) => Err(error),
    }
}
