//! The judge's answer format, and the `solve` pipeline from input bytes to
//! answers.
//!
//! # Overview
//!
//! For each case the judges want two lines: the moves (or
//! `No moves needed`), then the centre digit, each ended by `\n`.
//! [`write_answer`] defines that form; [`JudgeFormat`] writes a batch of
//! answers faster, and a test holds it to `write_answer`'s bytes.
//!
//! [`solve_stream`] runs the whole pipeline: it streams cases from a
//! [`CaseReader`], solves them a batch at a time ([`Solver::solve_batch`]),
//! and writes the answers in input order through an [`AnswerFormat`]:
//! [`JudgeFormat`] writes the judges' form, a batch at a time; the command
//! line adds its JSON lines. [`solve_file`] does the same for a file, which
//! several threads then read at once, each its own chunks.
//!
//! Errors never lose answers: every valid case before the first bad one is
//! answered and written before the error is reported. With `keep_going`
//! each bad case is reported and the run goes on with the next.

mod file_chunks;
mod ordered_windows;

use std::fs::File;
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::moves::{MAX_SEQUENCE_LENGTH, NO_MOVES_NEEDED};
use crate::parser::{CaseReader, ParseError};
use crate::solver::{Solution, SolveError, Solver};
use ordered_windows::{Stage, ordered_windows};

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

/// Consecutive solved cases, as [`AnswerFormat::answers`] sees them.
#[derive(Clone, Copy, Debug)]
pub struct AnsweredBatch<'a> {
    /// The number of the first case, 1-based; the others follow.
    pub first_case: usize,
    /// The boards.
    pub boards: &'a [Board],
    /// Their answers, one per board.
    pub solutions: &'a [Solution],
    /// The name of the solver that answered.
    pub solver: &'a str,
}

impl<'a> AnsweredBatch<'a> {
    /// Each case of the batch, without a time.
    pub fn cases(&self) -> impl Iterator<Item = Answered<'a>> + 'a {
        let (first_case, solver) = (self.first_case, self.solver);
        self.boards
            .iter()
            .zip(self.solutions)
            .enumerate()
            .map(move |(index, (board, solution))| Answered {
                case: first_case + index,
                board,
                solution,
                solver,
                time: None,
            })
    }
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

    /// Appends the answers of consecutive cases to `out`, in order: what
    /// [`answer`](AnswerFormat::answer) appends for each, which is what the
    /// provided form does. A format that is not [`timed`] gets its answers
    /// this way, a batch at a time, and may write a batch faster.
    ///
    /// [`timed`]: AnswerFormat::timed
    fn answers(&self, out: &mut Vec<u8>, batch: &AnsweredBatch<'_>) {
        for answered in batch.cases() {
            self.answer(out, &answered);
        }
    }

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

    /// The bytes of [`write_answer`], written with fixed-size copies: the
    /// output grows once for the batch's longest possible answers, and
    /// each answer's letters are copied whole (32 of them, of which the
    /// next answer overwrites those beyond its own).
    fn answers(&self, out: &mut Vec<u8>, batch: &AnsweredBatch<'_>) {
        let start = out.len();
        out.resize(start + room_for(batch.solutions.len()), 0);
        let mut end = start;
        for solution in batch.solutions {
            end += write_answer_at(&mut out[end..], solution);
        }
        out.truncate(end);
    }
}

/// The longest judges' answer: the longest sequence, and a line feed, the
/// digit and a line feed.
const MAX_ANSWER_BYTES: usize = MAX_SEQUENCE_LENGTH + 3;

/// The room [`JudgeFormat`]'s `answers` makes for `answers` answers: the
/// longest of each, and the letters [`write_answer_at`] copies beyond the
/// last.
fn room_for(answers: usize) -> usize {
    answers * MAX_ANSWER_BYTES + MAX_SEQUENCE_LENGTH
}

/// Writes [`write_answer`]'s bytes for `solution` at the start of `out`,
/// which has room for [`MAX_ANSWER_BYTES`] bytes and
/// [`MAX_SEQUENCE_LENGTH`] more; returns their length. What follows them
/// is overwritten with letters.
#[inline]
fn write_answer_at(out: &mut [u8], solution: &Solution) -> usize {
    let line = if solution.moves.is_empty() {
        out[..NO_MOVES_NEEDED.len()].copy_from_slice(NO_MOVES_NEEDED.as_bytes());
        NO_MOVES_NEEDED.len()
    } else {
        out[..MAX_SEQUENCE_LENGTH].copy_from_slice(&solution.moves.padded_letters());
        solution.moves.len()
    };
    out[line..line + 3].copy_from_slice(&[b'\n', b'0' + solution.centre.value(), b'\n']);
    line + 3
}

/// Options of [`solve_stream`].
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Report each bad case and go on, instead of stopping at the first.
    pub keep_going: bool,
    /// Threads solving cases; 1 (or 0) solves on the calling thread.
    /// Answers are written in input order whatever the number.
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

/// Batches (or file chunks) per solving thread in a window: enough that a
/// thread slowed down in one rarely holds the others up. The pipeline holds
/// at most three windows (one being read, one being solved, one being
/// written), about 0.6 MB a batch with its boards, solutions and output,
/// which bounds memory whatever the input's size.
const BATCHES_PER_THREAD: usize = 2;

/// Parsed cases, in input order: the valid boards, and the bad cases among
/// them.
struct Batch {
    /// The number of the batch's first case; the others follow.
    first_case: usize,
    /// The valid cases' boards.
    boards: Vec<Board>,
    /// The bad cases, in order, each with the number of boards before it.
    errors: Vec<(usize, ParseError)>,
}

impl Batch {
    fn new() -> Batch {
        Batch {
            first_case: 1,
            boards: Vec::with_capacity(BATCH_CASES),
            errors: Vec::new(),
        }
    }

    /// Cases held, good and bad.
    fn len(&self) -> usize {
        self.boards.len() + self.errors.len()
    }
}

/// A batch's answers: its output bytes, and its bad cases, each with the
/// length of output written before it.
struct Answers {
    output: Vec<u8>,
    errors: Vec<(usize, CaseError)>,
    solved: usize,
    /// Room for the solutions of a run of valid cases, before they are
    /// formatted.
    solutions: Vec<Solution>,
}

impl Answers {
    fn new() -> Answers {
        Answers {
            output: Vec::with_capacity(BATCH_CASES * MAX_ANSWER_BYTES),
            errors: Vec::new(),
            solved: 0,
            solutions: Vec::with_capacity(BATCH_CASES),
        }
    }
}

/// A batch and its answers, whose buffers are reused from batch to batch:
/// allocating them afresh costs more than filling them (the allocator gives
/// large blocks back to the system, which then faults them in again page by
/// page).
struct BatchBuffers {
    batch: Batch,
    answers: Answers,
}

impl BatchBuffers {
    fn new() -> BatchBuffers {
        BatchBuffers {
            batch: Batch::new(),
            answers: Answers::new(),
        }
    }
}

/// Reads up to `limit` cases into `batch`, which it empties first. Returns
/// whether the input may hold more: it does not after its end, a fatal
/// error, or (without `keep_going`) any error.
fn read_batch<R: Read>(
    cases: &mut CaseReader<R>,
    limit: usize,
    keep_going: bool,
    batch: &mut Batch,
) -> bool {
    batch.first_case = cases.next_case_number();
    batch.boards.clear();
    batch.errors.clear();
    while batch.len() < limit {
        let room = limit - batch.len();
        if cases.read_canonical_run(&mut batch.boards, room) > 0 {
            continue;
        }
        match cases.next() {
            None => return false,
            Some(Ok(board)) => batch.boards.push(board),
            Some(Err(error)) => {
                let stop = error.is_fatal() || !keep_going;
                batch.errors.push((batch.boards.len(), error));
                if stop {
                    return false;
                }
            }
        }
    }
    true
}

/// What every batch is answered with.
#[derive(Clone, Copy)]
struct Answering<'a> {
    solver: &'a dyn Solver,
    format: &'a dyn AnswerFormat,
    keep_going: bool,
}

impl Answering<'_> {
    /// Solves `batch` into `answers`, which it empties first. Without
    /// `keep_going`, nothing after the first bad case is solved.
    fn batch(self, batch: &Batch, answers: &mut Answers) {
        self.start(answers);
        let mut case = batch.first_case;
        let mut done = 0;
        for next_error in 0..=batch.errors.len() {
            let error = batch.errors.get(next_error);
            let end = error.map_or(batch.boards.len(), |(before, _)| *before);
            if !self.run(&batch.boards[done..end], &mut case, answers) {
                return;
            }
            done = end;
            let Some((_, error)) = error else {
                return;
            };
            if !self.bad_case(answers, case, CaseError::from(error.clone())) {
                return;
            }
            case += 1;
        }
    }

    /// Empties `answers`, for the answers of a batch or chunk.
    fn start(self, answers: &mut Answers) {
        answers.output.clear();
        answers.errors.clear();
        answers.solved = 0;
    }

    /// Solves consecutive valid cases, the first numbered `case`, and
    /// appends their answers; `case` ends past them. Returns whether the
    /// batch goes on (it does not after a refused board without
    /// `keep_going`).
    fn run(self, mut boards: &[Board], case: &mut usize, answers: &mut Answers) -> bool {
        if self.format.timed() {
            for board in boards {
                let answered = self.timed_case(&mut answers.output, *case, board);
                if let Err(error) = answered {
                    if !self.bad_case(answers, *case, error) {
                        return false;
                    }
                } else {
                    answers.solved += 1;
                }
                *case += 1;
            }
            return true;
        }
        while !boards.is_empty() {
            answers.solutions.clear();
            let outcome = self.solver.solve_batch(boards, &mut answers.solutions);
            let solved = answers.solutions.len();
            let batch = AnsweredBatch {
                first_case: *case,
                boards: &boards[..solved],
                solutions: &answers.solutions,
                solver: self.solver.name(),
            };
            self.format.answers(&mut answers.output, &batch);
            answers.solved += solved;
            *case += solved;
            let Err(error) = outcome else {
                return true;
            };
            let error = CaseError::Solve { case: *case, error };
            if !self.bad_case(answers, *case, error) {
                return false;
            }
            *case += 1;
            boards = &boards[solved + 1..];
        }
        true
    }

    /// Solves one case, timing it, and appends its answer to `out`.
    fn timed_case(self, out: &mut Vec<u8>, case: usize, board: &Board) -> Result<(), CaseError> {
        let started = Instant::now();
        let solution = self
            .solver
            .solve(board)
            .map_err(|error| CaseError::Solve { case, error })?;
        let answered = Answered {
            case,
            board,
            solution: &solution,
            solver: self.solver.name(),
            time: Some(started.elapsed()),
        };
        self.format.answer(out, &answered);
        Ok(())
    }

    /// Records bad case `case` in `answers`; returns whether the batch goes
    /// on.
    fn bad_case(self, answers: &mut Answers, case: usize, error: CaseError) -> bool {
        let written_before = answers.output.len();
        if self.keep_going {
            self.format.bad_case(&mut answers.output, case, &error);
        }
        answers.errors.push((written_before, error));
        self.keep_going
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
    answers: &Answers,
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
/// bounded. An input of one batch is solved on the calling thread, with no
/// pool started.
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
    let cases = CaseReader::new(input);
    let answering = Answering {
        solver,
        format,
        keep_going: options.keep_going,
    };
    // A person typing cases gets each answer at once, which batches of
    // cases for several threads would hold back.
    if options.threads <= 1 || options.interactive {
        solve_sequentially(cases, &mut output, answering, options, report, &mut summary)?;
    } else {
        solve_in_parallel(cases, &mut output, answering, options, report, &mut summary)?;
    }
    output.flush()?;
    Ok(summary)
}

/// [`solve_stream`] for judge input in a file. With several threads on a
/// regular file (not a terminal or a pipe), the threads read the file too,
/// each its own chunks by position, from the file's current position on;
/// otherwise it is [`solve_stream`]. Output, reports and summary are the
/// same either way.
///
/// Chunks are solved in parallel as long as the input is written the
/// canonical way (one case a line, single spaces); from the first chunk
/// that is not, the rest is read sequentially, as [`solve_stream`] reads
/// it. Where the file is left positioned afterwards is unspecified.
///
/// # Errors
///
/// As [`solve_stream`].
pub fn solve_file<W: Write>(
    file: File,
    mut output: W,
    solver: &dyn Solver,
    format: &dyn AnswerFormat,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
) -> io::Result<SolveSummary> {
    let chunks = (options.threads > 1 && !options.interactive)
        .then(|| file_chunks::FileChunks::new(&file))
        .flatten();
    let Some(chunks) = chunks else {
        return solve_stream(file, output, solver, format, options, report);
    };
    let mut summary = SolveSummary::default();
    let answering = Answering {
        solver,
        format,
        keep_going: options.keep_going,
    };
    chunks.solve(&mut output, answering, options, report, &mut summary)?;
    output.flush()?;
    Ok(summary)
}

/// The one-thread form of [`solve_stream`].
fn solve_sequentially<R: Read, W: Write>(
    mut cases: CaseReader<R>,
    output: &mut W,
    answering: Answering<'_>,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<()> {
    let limit = if options.interactive { 1 } else { BATCH_CASES };
    let mut buffers = BatchBuffers::new();
    loop {
        let more = read_batch(&mut cases, limit, options.keep_going, &mut buffers.batch);
        answering.batch(&buffers.batch, &mut buffers.answers);
        let stop = !more || answering.stops_the_run(&buffers.answers);
        write_answers(&buffers.answers, output, report, summary)?;
        if options.interactive {
            output.flush()?;
        }
        if stop {
            return Ok(());
        }
    }
}

/// The several-thread form of [`solve_stream`].
fn solve_in_parallel<R: Read + Send, W: Write>(
    cases: CaseReader<R>,
    output: &mut W,
    answering: Answering<'_>,
    options: SolveOptions,
    report: &mut dyn FnMut(&CaseError),
    summary: &mut SolveSummary,
) -> io::Result<()> {
    let mut stage = StreamStage {
        cases,
        window_batches: options.threads * BATCHES_PER_THREAD,
        keep_going: options.keep_going,
        output,
        answering,
        report,
        summary,
    };
    ordered_windows(
        options.threads,
        &mut stage,
        &|buffers: &mut BatchBuffers| {
            answering.batch(&buffers.batch, &mut buffers.answers);
        },
    )
}

/// [`solve_in_parallel`]'s windows: batches read by the calling thread.
struct StreamStage<'a, R: Read, W: Write> {
    cases: CaseReader<R>,
    window_batches: usize,
    keep_going: bool,
    output: &'a mut W,
    answering: Answering<'a>,
    report: &'a mut dyn FnMut(&CaseError),
    summary: &'a mut SolveSummary,
}

impl<R: Read, W: Write> Stage<BatchBuffers> for StreamStage<'_, R, W> {
    fn take_window(&mut self, free: &mut Vec<BatchBuffers>) -> (Vec<BatchBuffers>, bool) {
        let mut window = Vec::with_capacity(self.window_batches);
        while window.len() < self.window_batches {
            let mut buffers = free.pop().unwrap_or_else(BatchBuffers::new);
            let more = read_batch(
                &mut self.cases,
                BATCH_CASES,
                self.keep_going,
                &mut buffers.batch,
            );
            window.push(buffers);
            if !more {
                return (window, false);
            }
        }
        (window, true)
    }

    fn write(&mut self, buffers: &BatchBuffers) -> io::Result<bool> {
        let stop = self.answering.stops_the_run(&buffers.answers);
        write_answers(&buffers.answers, self.output, self.report, self.summary)?;
        Ok(stop)
    }
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::board::Digit;
    use crate::generator::{Generator, Mode};
    use crate::moves::{Move, MoveSequence};
    use crate::parser::{CaseReader, format_input};

    #[test]
    fn a_batch_of_judge_answers_is_write_answer_for_each() {
        // Every length from none to the most a sequence holds, every digit,
        // letters all over the alphabet.
        let solutions: Vec<Solution> = (0..=MAX_SEQUENCE_LENGTH)
            .flat_map(|len| {
                Digit::ALL.map(|centre| Solution {
                    moves: (0..len).map(|i| Move::ALL[(i * 5 + len) % 8]).collect(),
                    centre,
                    nodes: 0,
                })
            })
            .collect();
        let boards =
            vec![Board::from_cell_sets_unchecked([0xff, 0xff00, 0xff_0000]); solutions.len()];
        let batch = AnsweredBatch {
            first_case: 1,
            boards: &boards,
            solutions: &solutions,
            solver: "test",
        };
        let mut expected = b"before".to_vec();
        for solution in &solutions {
            write_answer(&mut expected, solution);
        }
        let mut found = b"before".to_vec();
        JudgeFormat.answers(&mut found, &batch);
        assert_eq!(
            String::from_utf8(found).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        let mut empty = Vec::new();
        JudgeFormat.answers(
            &mut empty,
            &AnsweredBatch {
                solutions: &[],
                boards: &[],
                ..batch
            },
        );
        assert!(empty.is_empty());
        assert_eq!(
            MoveSequence::new().padded_letters().len(),
            MAX_SEQUENCE_LENGTH
        );
    }

    #[test]
    fn a_batch_of_the_longest_answers_fits_the_room_made_for_it() {
        // The room is made for the longest answer of every case: a batch of
        // nothing but those must fit it exactly, not just on average.
        let longest = Solution {
            moves: (0..MAX_SEQUENCE_LENGTH).map(|i| Move::ALL[i % 8]).collect(),
            centre: Digit::ALL[2],
            nodes: 0,
        };
        let solutions = vec![longest; 10];
        let boards = vec![Board::from_cell_sets_unchecked([0xff, 0xff00, 0xff_0000]); 10];
        let mut expected = Vec::new();
        for solution in &solutions {
            write_answer(&mut expected, solution);
        }
        assert_eq!(expected.len(), 10 * MAX_ANSWER_BYTES);
        let mut found = Vec::new();
        JudgeFormat.answers(
            &mut found,
            &AnsweredBatch {
                first_case: 1,
                boards: &boards,
                solutions: &solutions,
                solver: "test",
            },
        );
        assert_eq!(found, expected);
    }

    #[test]
    fn the_judge_format_answers_one_case_as_write_answer_does() {
        let board = Board::from_cell_sets_unchecked([0xff, 0xff00, 0xff_0000]);
        for moves in [
            MoveSequence::new(),
            [Move::ALL[3], Move::ALL[0]].into_iter().collect(),
        ] {
            let solution = Solution {
                moves,
                centre: Digit::ALL[1],
                nodes: 0,
            };
            let mut expected = b"before".to_vec();
            write_answer(&mut expected, &solution);
            let mut found = b"before".to_vec();
            let answered = Answered {
                case: 4,
                board: &board,
                solution: &solution,
                solver: "test",
                time: None,
            };
            JudgeFormat.answer(&mut found, &answered);
            assert_eq!(found, expected);
        }
    }

    #[test]
    fn a_batch_holds_at_most_its_limit_and_ends_at_a_bad_case_unless_going_on() {
        // Ten boards: the second line has a double space (valid, but it
        // ends a run of canonical lines), the sixth a bad digit.
        let boards = Generator::new(6, Mode::Uniform).boards(10);
        let mut lines: Vec<String> = format_input(&boards).lines().map(str::to_owned).collect();
        lines[1] = lines[1].replacen(' ', "  ", 1);
        lines[5] = lines[5].replacen('1', "7", 1);
        let input = lines.join("\n") + "\n";
        // (first case, boards, boards before each error, whether more may
        // follow) of each batch of at most three cases.
        type BatchRead = (usize, Vec<Board>, Vec<usize>, bool);
        let batches = |keep_going: bool| {
            let mut cases = CaseReader::new(input.as_bytes());
            let mut batch = Batch::new();
            let mut read: Vec<BatchRead> = Vec::new();
            loop {
                let more = read_batch(&mut cases, 3, keep_going, &mut batch);
                let before = batch.errors.iter().map(|(before, _)| *before).collect();
                read.push((batch.first_case, batch.boards.clone(), before, more));
                if !more {
                    return read;
                }
            }
        };
        let going_on: Vec<BatchRead> = vec![
            (1, boards[0..3].to_vec(), vec![], true),
            (4, boards[3..5].to_vec(), vec![2], true),
            (7, boards[6..9].to_vec(), vec![], true),
            (10, boards[9..10].to_vec(), vec![], false),
        ];
        assert_eq!(batches(true), going_on);
        // Stopping at the bad case: the batch holding it is the last.
        let mut stopping = going_on[..2].to_vec();
        stopping[1].3 = false;
        assert_eq!(batches(false), stopping);
    }

    /// An answer of no moves.
    fn no_moves() -> Solution {
        Solution {
            moves: MoveSequence::new(),
            centre: Digit::ALL[0],
            nodes: 0,
        }
    }

    /// Answers every board with no moves, noting the threads that solved.
    #[derive(Default)]
    struct OnThreads(Mutex<std::collections::HashSet<std::thread::ThreadId>>);

    impl Solver for OnThreads {
        fn name(&self) -> &str {
            "on-threads"
        }

        fn solve(&self, _: &Board) -> Result<Solution, SolveError> {
            self.0.lock().unwrap().insert(std::thread::current().id());
            Ok(no_moves())
        }
    }

    #[test]
    fn one_thread_or_a_person_typing_solve_on_the_calling_thread_and_more_on_a_pool() {
        // Several windows of several batches, in a stream and in a file.
        let input = format_input(&Generator::new(2, Mode::Uniform).boards(20_000));
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(input.as_bytes()).unwrap();
        for (threads, interactive, pooled) in [
            (0, false, false),
            (1, false, false),
            (3, true, false),
            (3, false, true),
        ] {
            let options = SolveOptions {
                keep_going: false,
                threads,
                interactive,
            };
            for from_file in [false, true] {
                let solver = OnThreads::default();
                let mut output = Vec::new();
                let mut report = |error: &CaseError| panic!("{error}");
                let summary = if from_file {
                    io::Seek::seek(&mut file, io::SeekFrom::Start(0)).unwrap();
                    let file = file.try_clone().unwrap();
                    solve_file(
                        file,
                        &mut output,
                        &solver,
                        &JudgeFormat,
                        options,
                        &mut report,
                    )
                } else {
                    let (input, format) = (input.as_bytes(), &JudgeFormat);
                    solve_stream(input, &mut output, &solver, format, options, &mut report)
                }
                .unwrap();
                assert_eq!(summary.solved, 20_000);
                let threads_used = solver.0.into_inner().unwrap();
                let on_caller = threads_used == [std::thread::current().id()].into();
                assert_eq!(
                    on_caller, !pooled,
                    "threads {threads}, interactive {interactive}, from a file {from_file}: {threads_used:?}"
                );
            }
        }
    }

    /// Answers every board at once with no moves, except `refused`.
    struct Refusing {
        refused: Board,
    }

    impl Solver for Refusing {
        fn name(&self) -> &str {
            "refusing"
        }

        fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
            if *board == self.refused {
                return Err(SolveError::TooLong {
                    max_length: crate::length::OptimalLength::ZERO,
                });
            }
            Ok(no_moves())
        }
    }

    /// One line per case: its number, the solver and the board. Timed or
    /// not, without batches or bad cases of its own: the trait's provided
    /// forms.
    struct Numbered {
        timed: bool,
    }

    impl AnswerFormat for Numbered {
        fn timed(&self) -> bool {
            self.timed
        }

        fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>) {
            assert_eq!(
                answered.time.is_some(),
                self.timed,
                "a format gets a time exactly when it is timed"
            );
            let line = format!("{} {} {}\n", answered.case, answered.solver, answered.board);
            out.extend_from_slice(line.as_bytes());
        }
    }

    /// A writer into a shared buffer, so that a report or a reader can see
    /// what has been written so far.
    struct Shared<'a>(&'a Mutex<Vec<u8>>);

    impl Write for Shared<'_> {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn lines_of(output: &Mutex<Vec<u8>>) -> usize {
        output
            .lock()
            .unwrap()
            .iter()
            .filter(|&&byte| byte == b'\n')
            .count()
    }

    #[test]
    fn a_format_gets_each_case_numbered_in_order_and_a_time_if_it_is_timed() {
        // Six boards: the third line is bad input, the fifth board the
        // solver refuses. Going on after both, the provided bad_case
        // writes nothing in their places.
        let boards = Generator::new(3, Mode::Uniform).boards(6);
        let mut lines: Vec<String> = format_input(&boards).lines().map(str::to_owned).collect();
        lines[2] = lines[2].replacen('1', "7", 1);
        let input = lines.join("\n") + "\n";
        let solver = Refusing { refused: boards[4] };
        let expected: String = [0, 1, 3, 5]
            .iter()
            .map(|&index| format!("{} refusing {}\n", index + 1, boards[index]))
            .collect();
        let runs = [1, 3].into_iter().flat_map(|threads| {
            [(false, false), (false, true), (true, false), (true, true)]
                .map(|(interactive, timed)| (threads, interactive, timed))
        });
        for (threads, interactive, timed) in runs {
            let options = SolveOptions {
                keep_going: true,
                threads,
                interactive,
            };
            let output = Mutex::new(Vec::new());
            // Each bad case with the lines written before it was reported.
            let mut reported = Vec::new();
            let summary = solve_stream(
                input.as_bytes(),
                Shared(&output),
                &solver,
                &Numbered { timed },
                options,
                &mut |error| reported.push((lines_of(&output), error.to_string())),
            )
            .unwrap();
            let context = format!("threads {threads}, interactive {interactive}, timed {timed}");
            assert_eq!(
                String::from_utf8(output.into_inner().unwrap()).unwrap(),
                expected,
                "{context}"
            );
            assert_eq!(
                summary,
                SolveSummary {
                    solved: 4,
                    failed: 2
                },
                "{context}"
            );
            assert_eq!(reported.len(), 2, "{context}");
            assert_eq!(reported[0].0, 2, "{context}: {}", reported[0].1);
            assert!(
                reported[0].1.starts_with("case 3, line 3"),
                "{}",
                reported[0].1
            );
            assert_eq!(reported[1].0, 3, "{context}: {}", reported[1].1);
            assert!(reported[1].1.starts_with("case 5: "), "{}", reported[1].1);
        }
    }

    /// Judge input given a line at a time, as a person types it: how many
    /// answers had been written when each line was asked for is recorded.
    struct Typed<'a> {
        lines: std::collections::VecDeque<Vec<u8>>,
        /// The bytes of the first line already given.
        given: usize,
        output: &'a Mutex<Vec<u8>>,
        answered_when_asked: Vec<usize>,
    }

    impl Read for Typed<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let Some(line) = self.lines.front() else {
                return Ok(0);
            };
            if self.given == 0 {
                self.answered_when_asked.push(lines_of(self.output) / 2);
            }
            let taken = (line.len() - self.given).min(buffer.len());
            buffer[..taken].copy_from_slice(&line[self.given..self.given + taken]);
            self.given += taken;
            if self.given == line.len() {
                self.lines.pop_front();
                self.given = 0;
            }
            Ok(taken)
        }
    }

    #[test]
    fn an_interactive_run_answers_each_case_before_reading_the_next() {
        let boards = Generator::new(4, Mode::Uniform).boards(5);
        let solver = Refusing {
            refused: Board::from_cell_sets_unchecked([0xff, 0xff00, 0xff_0000]),
        };
        let output = Mutex::new(Vec::new());
        let mut typed = Typed {
            lines: format_input(&boards)
                .lines()
                .map(|line| format!("{line}\n").into_bytes())
                .collect(),
            given: 0,
            output: &output,
            answered_when_asked: Vec::new(),
        };
        let options = SolveOptions {
            interactive: true,
            ..SolveOptions::default()
        };
        let summary = solve_stream(
            &mut typed,
            Shared(&output),
            &solver,
            &JudgeFormat,
            options,
            &mut |error| panic!("{error}"),
        )
        .unwrap();
        assert_eq!(summary.solved, 5);
        // Asked for line k (the five boards, then the final 0), k answers
        // had been written.
        assert_eq!(typed.answered_when_asked, [0, 1, 2, 3, 4, 5]);
    }
}
