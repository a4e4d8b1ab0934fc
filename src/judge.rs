//! The judge's answer format, and the `solve` pipeline from input bytes to
//! answers.
//!
//! # Overview
//!
//! For each case the judges want two lines: the moves (or
//! `No moves needed`), then the centre digit, each ended by `\n`.
//! [`write_answer`] is the one writer of that form in the crate.
//!
//! [`solve_stream`] runs the whole pipeline: it streams cases from a
//! [`CaseReader`], solves them, and writes each answer in input order
//! through an [`AnswerFormat`]: [`JudgeFormat`] writes the judges' form; the
//! command line adds its JSON lines.
//!
//! Errors never lose answers: every valid case before the first bad one is
//! answered and written before the error is reported. With `keep_going`
//! each bad case is reported and the run goes on with the next.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::Board;
use crate::parser::{CaseReader, ParseError};
use crate::solver::{Solution, SolveError, Solver};

/// Appends the judges' two lines for `solution` to `out`.
pub fn write_answer(out: &mut Vec<u8>, solution: &Solution) {
    solution.moves.write_judge_line(out);
    out.push(b'\n');
    out.push(b'0' + solution.centre.value());
    out.push(b'\n');
}

/// A solved case, as an [`AnswerFormat`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Answered<'a> {
    /// The case number, 1-based.
    pub case: usize,
    /// The board.
    pub board: &'a Board,
    /// The answer.
    pub solution: &'a Solution,
    /// The name of the solver that answered.
    pub solver: &'a str,
    /// How long solving took, when the format asked for it
    /// ([`AnswerFormat::timed`]).
    pub time: Option<Duration>,
}

/// How [`solve_stream`] writes each case.
pub trait AnswerFormat: Sync {
    /// Whether answers carry the time their solving took; it is measured
    /// only when they do.
    fn timed(&self) -> bool {
        false
    }

    /// Appends one answer to `out`.
    fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>);

    /// Appends a bad case to `out`, in its place among the answers, when
    /// the run goes on after it (`keep_going`). The error is reported to
    /// the caller all the same; by default nothing is appended.
    fn bad_case(&self, out: &mut Vec<u8>, case: usize, error: &CaseError) {
        let _ = (out, case, error);
    }
}

/// The judges' two lines per case, from [`write_answer`].
#[derive(Clone, Copy, Debug, Default)]
pub struct JudgeFormat;

impl AnswerFormat for JudgeFormat {
    fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>) {
        write_answer(out, answered.solution);
    }
}

/// Options of [`solve_stream`].
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
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

/// Cases read, solved and written together.
const BATCH_CASES: usize = 4096;

/// Batches per solving thread in a window: the pipeline holds at most three
/// windows (one being read, one being solved, one being written), which
/// bounds memory whatever the input's size.
const BATCHES_PER_THREAD: usize = 2;

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

/// Reads up to `batches` batches; returns them and whether the input may
/// hold more.
fn read_window<R: Read>(
    cases: &mut CaseReader<R>,
    batches: usize,
    keep_going: bool,
) -> (Vec<Batch>, bool) {
    let mut window = Vec::with_capacity(batches);
    while window.len() < batches {
        let (batch, more) = read_batch(cases, BATCH_CASES, keep_going);
        window.push(batch);
        if !more {
            return (window, false);
        }
    }
    (window, true)
}

/// What every batch is answered with.
#[derive(Clone, Copy)]
struct Answering<'a> {
    solver: &'a dyn Solver,
    format: &'a dyn AnswerFormat,
    keep_going: bool,
}

impl Answering<'_> {
    /// Solves a batch. Without `keep_going`, nothing after the first bad
    /// case is solved.
    fn batch(self, batch: Batch) -> Answers {
        let mut answers = Answers {
            output: Vec::with_capacity(batch.len() * 16),
            ..Answers::default()
        };
        for (case, parsed) in batch {
            let outcome = parsed
                .map_err(CaseError::from)
                .and_then(|board| self.case(&mut answers.output, case, &board));
            match outcome {
                Ok(()) => answers.solved += 1,
                Err(error) => {
                    let written_before = answers.output.len();
                    if self.keep_going {
                        self.format.bad_case(&mut answers.output, case, &error);
                    }
                    answers.errors.push((written_before, error));
                    if !self.keep_going {
                        break;
                    }
                }
            }
        }
        answers
    }

    /// Solves one case and appends its answer to `out`.
    fn case(self, out: &mut Vec<u8>, case: usize, board: &Board) -> Result<(), CaseError> {
        let started = self.format.timed().then(Instant::now);
        let solution = self
            .solver
            .solve(board)
            .map_err(|error| CaseError::Solve { case, error })?;
        let answered = Answered {
            case,
            board,
            solution: &solution,
            solver: self.solver.name(),
            time: started.map(|started| started.elapsed()),
        };
        self.format.answer(out, &answered);
        Ok(())
    }

    /// Whether a batch's answers end the run: without `keep_going`, any bad
    /// case does (a refused board as much as bad input).
    fn stops_the_run(self, answers: &Answers) -> bool {
        !self.keep_going && !answers.errors.is_empty()
    }
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
/// the answers to `output` in `format`, in input order. Each bad case is
/// passed to `report` after every answer before it has been written.
///
/// Without `keep_going` the run stops at the first bad case; with it, it
/// stops only at a fatal input error (see [`ParseError::is_fatal`]).
///
/// With several threads, the calling thread reads and writes while a rayon
/// pool solves: it reads the next window of batches while the pool solves
/// the current one, and writes a window's answers, in input order, while
/// the pool solves the next. At most three windows are held, so memory stays
/// bounded.
///
/// # Errors
///
/// A failure to write `output`, or to start the threads; bad input is
/// reported, not returned.
pub fn solve_stream<R: Read + Send, W: Write>(
    input: R,
    mut output: W,
    solver: &dyn Solver,
    format: &dyn AnswerFormat,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
) -> io::Result<SolveSummary> {
    let mut summary = SolveSummary::default();
    let mut cases = CaseReader::new(input);
    let answering = Answering {
        solver,
        format,
        keep_going: options.keep_going,
    };
    // A person typing cases gets each answer at once, which batches of
    // cases for several threads would hold back.
    if options.threads <= 1 || options.interactive {
        let limit = if options.interactive { 1 } else { BATCH_CASES };
        loop {
            let (batch, more) = read_batch(&mut cases, limit, options.keep_going);
            let answers = answering.batch(batch);
            let stop = !more || answering.stops_the_run(&answers);
            write_answers(answers, &mut output, report, &mut summary)?;
            if options.interactive {
                output.flush()?;
            }
            if stop {
                break;
            }
        }
    } else {
        solve_in_parallel(cases, &mut output, answering, options, report, &mut summary)?;
    }
    output.flush()?;
    Ok(summary)
}

/// The several-thread form of [`solve_stream`].
fn solve_in_parallel<R: Read + Send, W: Write>(
    mut cases: CaseReader<R>,
    output: &mut W,
    answering: Answering<'_>,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(io::Error::other)?;
    let window_batches = options.threads * BATCHES_PER_THREAD;
    // Set when the run stops early, so that batches still queued are not
    // solved for nothing.
    let cancelled = AtomicBool::new(false);
    let cancelled = &cancelled;
    pool.in_place_scope(|scope| {
        // Starts solving a window on the pool; its answers arrive on the
        // returned channel, which closes without them if solving panicked
        // (the scope raises the panic again when it ends).
        let solve = |window: Vec<Batch>| {
            let (sender, receiver) = mpsc::sync_channel(1);
            scope.spawn(move |_| {
                let answers: Vec<Option<Answers>> = window
                    .into_par_iter()
                    .map(|batch| {
                        (!cancelled.load(Ordering::Relaxed)).then(|| answering.batch(batch))
                    })
                    .collect();
                // The writer may have stopped waiting.
                let _ = sender.send(answers);
            });
            receiver
        };
        let mut write_in_order = || {
            let (window, mut more) = read_window(&mut cases, window_batches, options.keep_going);
            let mut solving = solve(window);
            loop {
                // Read the next window while the pool solves this one.
                let next = more.then(|| {
                    let (window, more_after) =
                        read_window(&mut cases, window_batches, options.keep_going);
                    more = more_after;
                    solve(window)
                });
                let Ok(answers) = solving.recv() else {
                    return Ok(());
                };
                for answers in answers.into_iter().flatten() {
                    let stop = answering.stops_the_run(&answers);
                    write_answers(answers, output, report, summary)?;
                    if stop {
                        return Ok(());
                    }
                }
                match next {
                    Some(receiver) => solving = receiver,
                    None => return Ok(()),
                }
            }
        };
        let written = write_in_order();
        // The scope waits for the windows still being solved: skip them.
        cancelled.store(true, Ordering::Relaxed);
        written
    })
}

/// Solves every case of an in-memory judge input and returns the judges'
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
        &JudgeFormat,
        SolveOptions::default(),
        &mut |error| first_error = Some(error.clone()),
    )
    .expect("writing to memory cannot fail");
    match first_error {
        None => Ok(String::from_utf8(output).expect("judge output is ASCII")),
        Some(error) => Err(error),
    }
}
