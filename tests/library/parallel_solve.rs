//! `solve --threads N` prints exactly what one thread prints: the same
//! answers in input order, the same errors reported at the same points,
//! whether the input is a stream or a file that the threads read by
//! position.

use std::cell::RefCell;
use std::io::{Seek, SeekFrom, Write};

use rotation_game::answers::{
    AnswerFormat, Answered, CaseError, JudgeFormat, SolveOptions, solve_file, solve_stream,
};
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::format_input;
use rotation_game::{Board, OptimalLength, PdbSolver, Solution, SolveError, Solver};

/// A writer into a shared buffer, so that the report callback can see how
/// much has been written when an error is reported.
struct Shared<'a>(&'a RefCell<Vec<u8>>);

impl Write for Shared<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One line per case, naming it, with bad cases in their places: a format
/// that exercises every hook of [`AnswerFormat`].
struct Labelled;

impl AnswerFormat for Labelled {
    fn timed(&self) -> bool {
        true
    }

    fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>) {
        assert!(answered.time.is_some(), "a timed format gets times");
        let line = format!("case {}: {}\n", answered.case, answered.solution.moves);
        out.extend_from_slice(line.as_bytes());
    }

    fn bad_case(&self, out: &mut Vec<u8>, case: usize, _: &CaseError) {
        out.extend_from_slice(format!("case {case}: bad\n").as_bytes());
    }
}

/// The output with every reported error inserted where it was reported.
fn transcript(
    input: &[u8],
    solver: &dyn Solver,
    format: &dyn AnswerFormat,
    options: SolveOptions,
) -> String {
    let output = RefCell::new(Vec::new());
    let mut errors: Vec<(usize, String)> = Vec::new();
    let mut report = |error: &CaseError| errors.push((output.borrow().len(), error.to_string()));
    solve_stream(input, Shared(&output), solver, format, options, &mut report).unwrap();
    let mut text = String::from_utf8(output.into_inner()).unwrap();
    for (at, error) in errors.into_iter().rev() {
        text.insert_str(at, &format!("!! {error}\n"));
    }
    text
}

/// [`transcript`] of [`solve_file`] on a file holding `skipped` and then
/// `input`, read from just after `skipped` (as a parent process may have
/// read part of a file before handing it on).
fn file_transcript(
    input: &[u8],
    skipped: &[u8],
    solver: &dyn Solver,
    format: &dyn AnswerFormat,
    options: SolveOptions,
) -> String {
    let mut file = tempfile::tempfile().unwrap();
    file.write_all(skipped).unwrap();
    file.write_all(input).unwrap();
    file.seek(SeekFrom::Start(skipped.len() as u64)).unwrap();
    let output = RefCell::new(Vec::new());
    let mut errors: Vec<(usize, String)> = Vec::new();
    let mut report = |error: &CaseError| errors.push((output.borrow().len(), error.to_string()));
    solve_file(file, Shared(&output), solver, format, options, &mut report).unwrap();
    let mut text = String::from_utf8(output.into_inner()).unwrap();
    for (at, error) in errors.into_iter().rev() {
        text.insert_str(at, &format!("!! {error}\n"));
    }
    text
}

/// The index of the board the test solver refuses: in the third batch.
const REFUSED: u64 = 10_000;

#[test]
fn a_panicking_solver_panics_the_run_instead_of_hanging_it() {
    let input = input_with_bad_lines(&[]);
    let solver = PanicsOn(Generator::new(5, Mode::Uniform).board(9_000));
    for threads in [1, 2] {
        let options = SolveOptions {
            threads,
            ..SolveOptions::default()
        };
        let run = std::panic::catch_unwind(|| {
            transcript(input.as_bytes(), &solver, &JudgeFormat, options)
        });
        assert!(run.is_err(), "threads {threads}");
        let run = std::panic::catch_unwind(|| {
            file_transcript(input.as_bytes(), b"", &solver, &JudgeFormat, options)
        });
        assert!(run.is_err(), "file, threads {threads}");
    }
}

/// 20,000 boards (several batches), with bad cases at the given lines.
fn input_with_bad_lines(bad_lines: &[usize]) -> String {
    let boards = Generator::new(5, Mode::Uniform).boards(20_000);
    let mut lines: Vec<String> = format_input(&boards).lines().map(str::to_owned).collect();
    for &line in bad_lines {
        lines[line] = lines[line].replacen('1', "7", 1);
    }
    lines.join("\n") + "\n"
}

/// The default solver, made slow on one board so that the batch holding it
/// finishes after the batches behind it (the writer must still write them
/// in input order), and refusing another, as bfs refuses deep boards.
struct SlowOn {
    board: Board,
    refused: Board,
    inner: PdbSolver,
}

impl Solver for SlowOn {
    fn name(&self) -> &str {
        "pdb"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        if *board == self.board {
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
        if *board == self.refused {
            return Err(SolveError::TooLong {
                max_length: OptimalLength::ZERO,
            });
        }
        self.inner.solve(board)
    }
}

/// A solver that panics on one board.
struct PanicsOn(Board);

impl Solver for PanicsOn {
    fn name(&self) -> &str {
        "panics"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        assert_ne!(*board, self.0, "planted panic");
        PdbSolver::default().solve(board)
    }
}

#[test]
fn threads_give_the_same_transcript_as_one_thread() {
    let generator = Generator::new(5, Mode::Uniform);
    let solver = SlowOn {
        board: generator.board(1),
        refused: generator.board(REFUSED),
        inner: PdbSolver::default(),
    };
    for bad_lines in [vec![], vec![9000], vec![3, 4095, 4096, 12_345, 19_999]] {
        let input = input_with_bad_lines(&bad_lines);
        for keep_going in [false, true] {
            let formats: [(&dyn AnswerFormat, usize); 2] = [(&JudgeFormat, 2), (&Labelled, 1)];
            for (format, lines_per_case) in formats {
                let options = SolveOptions {
                    keep_going,
                    ..SolveOptions::default()
                };
                let reference = transcript(input.as_bytes(), &solver, format, options);
                let errors = reference.matches("!! ").count();
                // The bad lines, and the refused board.
                let expected_errors = if keep_going { bad_lines.len() + 1 } else { 1 };
                assert_eq!(errors, expected_errors);
                if !keep_going {
                    // Nothing is printed after the first bad case.
                    let first_bad = bad_lines.iter().copied().min().unwrap_or(usize::MAX);
                    let first_bad = first_bad.min(REFUSED as usize);
                    let (before, after) = reference.split_once("!! ").unwrap();
                    assert_eq!(before.lines().count(), first_bad * lines_per_case);
                    assert_eq!(after.lines().count(), 1, "only the error follows");
                }
                for threads in [2, 3] {
                    let options = SolveOptions { threads, ..options };
                    let parallel = transcript(input.as_bytes(), &solver, format, options);
                    assert_eq!(
                        parallel, reference,
                        "threads {threads}, keep_going {keep_going}"
                    );
                    let from_file =
                        file_transcript(input.as_bytes(), b"", &solver, format, options);
                    assert_eq!(
                        from_file, reference,
                        "file, threads {threads}, keep_going {keep_going}"
                    );
                }
            }
        }
    }
}

/// Inputs that leave the canonical form somewhere: the threads that read a
/// file must fall back to the sequential reading there, with the same case
/// numbers, lines, columns and messages. A chunk is 4,096 lines, read a
/// block of 512 at a time.
fn irregular_inputs() -> Vec<(&'static str, String)> {
    let canonical = input_with_bad_lines(&[]);
    let lines: Vec<String> = canonical.lines().map(str::to_owned).collect();
    // The lines with line `index` rewritten by `change`, and `end` after
    // the last.
    let with = |index: usize, change: &dyn Fn(&str) -> String, end: &str| {
        let mut lines = lines.clone();
        lines[index] = change(&lines[index]);
        lines.join("\n") + end
    };
    let same = |line: &str| line.to_owned();
    vec![
        ("canonical", canonical.clone()),
        ("empty", String::new()),
        ("only the terminator", "0\n".to_owned()),
        ("no final line feed", with(0, &same, "")),
        (
            "CRLF from line 10,001",
            lines[..10_000].join("\n") + "\n" + &lines[10_000..].join("\r\n") + "\r\n",
        ),
        (
            "a trailing space ending a chunk",
            with(4095, &|l| format!("{l} "), "\n"),
        ),
        (
            "a leading space starting a chunk",
            with(8192, &|l| format!(" {l}"), "\n"),
        ),
        (
            "a trailing space ending the first block",
            with(511, &|l| format!("{l} "), "\n"),
        ),
        (
            "a bad value starting the second chunk's second block",
            with(4096 + 512, &|l| l.replacen('3', "0", 1), "\n"),
        ),
        (
            "a bad value in the second chunk",
            with(5000, &|l| l.replacen('2', "9", 1), "\n"),
        ),
        (
            "a case over two lines",
            with(12_000, &|l| l.replacen(' ', "\n", 1), "\n"),
        ),
        (
            "two spaces inside a case",
            with(12_001, &|l| l.replacen(' ', "  ", 1), "\n"),
        ),
        (
            "the terminator inside the third chunk, then junk",
            with(8191, &|l| format!("0\nnever read 7 7\n{l}"), "\n"),
        ),
        (
            "a terminator line of 48 bytes",
            with(4096, &|_| format!("0{}", " ".repeat(46)), "\n"),
        ),
        (
            "cut short inside a case",
            lines[..12_000].join("\n") + "\n1 2 3 1 2",
        ),
    ]
}

#[test]
fn a_file_read_by_several_threads_gives_the_sequential_transcript() {
    let solver = PdbSolver::default();
    for (name, input) in irregular_inputs() {
        for keep_going in [false, true] {
            let options = SolveOptions {
                keep_going,
                ..SolveOptions::default()
            };
            let reference = transcript(input.as_bytes(), &solver, &JudgeFormat, options);
            for threads in [2, 3] {
                for skipped in [&b""[..], b"already read by someone else\n"] {
                    let options = SolveOptions { threads, ..options };
                    let found =
                        file_transcript(input.as_bytes(), skipped, &solver, &JudgeFormat, options);
                    assert!(
                        found == reference,
                        "{name}: threads {threads}, keep_going {keep_going}, skipped {}",
                        skipped.len()
                    );
                }
            }
        }
    }
}
