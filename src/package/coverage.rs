//! The coverage report: what each test file covers, and which files catch
//! each mistake, like testlib's validator overview.
//!
//! # Overview
//!
//! [`CoverageReport::new`] computes, for each [`TestFile`], the optimal
//! lengths, the centre digits and the first letters of its answers, its
//! tie-break boards (those with two or more shortest sequences), the
//! classic IDA*'s nodes, and the mistakes whose models it exposes.
//! [`CoverageReport::to_markdown`] renders it as the package's
//! `data/README.md`, which `rotation-game package --report` prints too.

use std::fmt::Write;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::board::Board;
use crate::generator::hardest_boards;
use crate::moves::Move;
use crate::package::calibration::{
    ACCEPTED_CAP_SECONDS, Calibration, SLOW_QUICK_MAX_LENGTH, predicted_first_failure,
};
use crate::package::file_coverage::FileCoverage;
use crate::package::mistake::{self, BEST_FIRST_MAX_LENGTH, Mistake};
use crate::package::search::answer;
use crate::package::standalone::{Role, SUBMISSIONS, SourceProgram};
use crate::package::test_set::{Group, TestFile};
use crate::package::{TIME_MULTIPLIER, TIME_SAFETY_MARGIN, TimeLimit};
use crate::pattern_database::optimal_length;
use crate::verdict::{FileVerdict, Verdict};

/// The coverage of a whole test set.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CoverageReport {
    /// The seed the package was generated from.
    pub seed: u64,
    /// The most cases a file may hold.
    pub max_cases: usize,
    /// The time limit per test file.
    pub time_limit: TimeLimit,
    /// One row per test file, the sample first.
    pub files: Vec<FileCoverage>,
    /// The (length, digit) pairs, lengths 1 to 13, that no answer has.
    pub missing_length_digits: Vec<(u8, u8)>,
    /// The letters no answer starts with.
    pub missing_first_letters: Vec<char>,
    /// How many of the 192 boards of 13 moves the files hold.
    pub hardest_boards: usize,
    /// Of the 40,319 fixed move orders other than A..H, how many answer
    /// some board wrongly.
    pub move_orders_failing: u64,
    /// Of the 48 pairs of consecutive moves an answer can hold, how many
    /// the answers hold.
    pub move_pairs: usize,
    /// The real runs of the submissions, when the package was calibrated.
    pub calibration: Option<Calibration>,
}

impl AsRef<[FileCoverage]> for CoverageReport {
    /// The rows, one per test file.
    fn as_ref(&self) -> &[FileCoverage] {
        &self.files
    }
}

/// What the report needs to know of one board.
struct BoardFacts {
    length: u8,
    digit: u8,
    first_letter: Option<char>,
    shortest_sequences: u64,
    tie_break_pairs: Vec<(Move, Move)>,
    pairs: Vec<usize>,
    mistakes: Vec<Mistake>,
}

/// The mistakes of the planted wrong solutions, in the order of
/// [`SUBMISSIONS`].
pub(crate) fn planted_mistakes() -> Vec<(&'static SourceProgram, Mistake)> {
    SUBMISSIONS
        .iter()
        .filter_map(|program| program.mistake.map(|mistake| (program, mistake)))
        .collect()
}

fn facts(board: &Board) -> BoardFacts {
    let right = answer(board);
    BoardFacts {
        length: right.moves.len() as u8,
        digit: right.centre.value(),
        first_letter: right.moves.as_slice().first().map(|m| m.letter()),
        shortest_sequences: shortest_sequences(board),
        tie_break_pairs: mistake::tie_break_pairs(board),
        pairs: mistake::consecutive_pairs(&right.moves).collect(),
        mistakes: planted_mistakes()
            .into_iter()
            .map(|(_, mistake)| mistake)
            .filter(|mistake| mistake.fails(board, &right) == Some(true))
            .collect(),
    }
}

/// How many shortest sequences solve `board`.
pub(crate) fn shortest_sequences(board: &Board) -> u64 {
    fn count(board: Board, memo: &mut FxHashMap<Board, u64>) -> u64 {
        let remaining = optimal_length(&board).moves();
        if remaining == 0 {
            return 1;
        }
        if let Some(&known) = memo.get(&board) {
            return known;
        }
        let total = Move::ALL
            .into_iter()
            .map(|m| board.apply(m))
            .filter(|child| optimal_length(child).moves() + 1 == remaining)
            .fold(0u64, |total, child| {
                total.saturating_add(count(child, memo))
            });
        memo.insert(board, total);
        total
    }
    count(*board, &mut FxHashMap::default())
}

/// Sorted, without repeats.
fn distinct<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort_unstable();
    items.dedup();
    items
}

impl CoverageReport {
    /// The coverage of `files`, whose paths in the package `path_of` gives,
    /// with the classic IDA*'s node counts `classic_nodes` (every board of
    /// the files must be in it). Runs on the current rayon pool.
    pub(crate) fn new(
        files: &[TestFile],
        path_of: impl Fn(&TestFile) -> String,
        classic_nodes: &FxHashMap<Board, u64>,
        seed: u64,
        max_cases: usize,
        time_limit: TimeLimit,
    ) -> CoverageReport {
        let every_board: Vec<Board> =
            distinct(files.iter().flat_map(|file| file.boards.clone()).collect());
        let facts: FxHashMap<Board, BoardFacts> = every_board
            .par_iter()
            .map(|board| (*board, facts(board)))
            .collect();
        let rows: Vec<FileCoverage> = files
            .iter()
            .map(|file| file_coverage(file, path_of(file), &facts, classic_nodes))
            .collect();

        let mut missing_length_digits = Vec::new();
        for length in 1..=13 {
            for digit in 1..=3 {
                let seen = facts
                    .values()
                    .any(|f| f.length == length && f.digit == digit);
                if !seen {
                    missing_length_digits.push((length, digit));
                }
            }
        }
        let missing_first_letters = Move::ALL
            .iter()
            .map(|m| m.letter())
            .filter(|&letter| !facts.values().any(|f| f.first_letter == Some(letter)))
            .collect();
        let hardest = hardest_boards();
        let all_pairs: Vec<(Move, Move)> = facts
            .values()
            .flat_map(|f| f.tie_break_pairs.iter().copied())
            .collect();
        CoverageReport {
            seed,
            max_cases,
            time_limit,
            missing_length_digits,
            missing_first_letters,
            hardest_boards: hardest.iter().filter(|b| facts.contains_key(b)).count(),
            move_orders_failing: mistake::orders_failing(&all_pairs),
            move_pairs: distinct(facts.values().flat_map(|f| f.pairs.clone()).collect()).len(),
            files: rows,
            calibration: None,
        }
    }

    /// The report as Markdown: the package's `data/README.md`.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        self.write_markdown(&mut out)
            .expect("writing to a String cannot fail");
        out
    }

    fn write_markdown(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "# The Rotation Game: the test data\n")?;
        writeln!(
            out,
            "Generated by rotation-game {} from seed {}: at most {} cases per file, \
             time limit {} s per file. Every answer is what `rotation-game solve` prints, \
             and every file passes the input validator.\n",
            env!("CARGO_PKG_VERSION"),
            self.seed,
            self.max_cases,
            self.time_limit.seconds(),
        )?;
        self.write_files(out)?;
        self.write_coverage(out)?;
        self.write_mistakes(out)?;
        self.write_slow(out)?;
        self.write_time_limit(out)?;
        match &self.calibration {
            Some(calibration) => write_real_runs(out, calibration),
            None => writeln!(
                out,
                "\nThe submissions were not run for this report: the tables above come from \
                 the models of their mistakes. Calibrating the package runs them."
            ),
        }
    }

    /// The table of files.
    fn write_files(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "## Files\n")?;
        writeln!(
            out,
            "Lengths are the boards' optimal lengths; digits and first letters are those of \
             the answers; tie-break boards have two or more shortest sequences (the most any \
             has in brackets); classic nodes are the boards the classic IDA* \
             (`submissions/accepted/classic_ida.cpp`) generates on the whole file, the most on \
             one board in brackets.\n"
        )?;
        writeln!(
            out,
            "| file | cases | lengths | digits | first letters | tie-break boards | classic nodes | what it tests |"
        )?;
        writeln!(out, "| --- | ---: | --- | --- | --- | ---: | ---: | --- |")?;
        for file in &self.files {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} ({}) | {} ({}) | {} |",
                file.name,
                file.cases,
                ranges(&file.lengths),
                join(&file.digits),
                if file.first_letters.is_empty() {
                    "-".to_owned()
                } else {
                    file.first_letters.iter().collect()
                },
                file.tie_break_boards,
                thousands(file.most_shortest_sequences),
                thousands(file.classic_nodes),
                thousands(file.classic_nodes_most),
                file.purpose,
            )?;
        }
        Ok(())
    }

    /// What the files hold of what they should.
    fn write_coverage(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "\n## Coverage\n")?;
        let missing = |items: Vec<String>| {
            if items.is_empty() {
                "all".to_owned()
            } else {
                format!("missing {}", items.join(", "))
            }
        };
        writeln!(
            out,
            "- Every optimal length from 1 to 13 with each centre digit: {}.",
            missing(
                self.missing_length_digits
                    .iter()
                    .map(|(length, digit)| format!("{length} moves with {digit}"))
                    .collect()
            )
        )?;
        writeln!(
            out,
            "- Answers starting with each letter A to H: {}.",
            missing(
                self.missing_first_letters
                    .iter()
                    .map(char::to_string)
                    .collect()
            )
        )?;
        writeln!(
            out,
            "- Boards of 13 moves, the most any board needs: {} of the 192.",
            self.hardest_boards
        )?;
        writeln!(
            out,
            "- Fixed move orders other than A to H that answer some board wrongly: {} of {}.",
            thousands(self.move_orders_failing),
            thousands(mistake::FIXED_ORDERS - 1)
        )?;
        writeln!(
            out,
            "- Pairs of consecutive moves in the answers: {} of the 48 an answer can hold \
             (the other 16 undo each other, or are commuting moves in decreasing order).",
            self.move_pairs
        )
    }

    /// Which files catch each mistake.
    fn write_mistakes(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "\n## Mistakes the files catch\n")?;
        writeln!(
            out,
            "Which files a solution with each mistake answers wrongly, by a model of the \
             mistake run on every board (the best-first search on boards of up to {} moves). \
             Each planted wrong solution makes one of these mistakes and no other; a judge \
             stops it at the first of these files.\n",
            BEST_FIRST_MAX_LENGTH
        )?;
        writeln!(out, "| mistake | planted solution | files that catch it |")?;
        writeln!(out, "| --- | --- | --- |")?;
        for (program, mistake) in planted_mistakes() {
            let catching: Vec<&str> = self
                .files
                .iter()
                .filter(|file| file.mistakes.contains(&mistake))
                .map(|file| short_name(&file.name))
                .collect();
            writeln!(
                out,
                "| {} | `{}` | {} |",
                mistake.describe(),
                program.path(),
                if catching.is_empty() {
                    "none".to_owned()
                } else {
                    catching.join(", ")
                }
            )?;
        }
        let every_order: Vec<&str> = self
            .files
            .iter()
            .filter(|file| file.move_orders_failing == mistake::FIXED_ORDERS - 1)
            .map(|file| short_name(&file.name))
            .collect();
        writeln!(
            out,
            "| any fixed move order other than A to H | | every order: {} |",
            if every_order.is_empty() {
                "no single file".to_owned()
            } else {
                every_order.join(", ")
            }
        )?;
        let every_pair: Vec<&str> = self
            .files
            .iter()
            .filter(|file| file.move_pairs == 48)
            .map(|file| short_name(&file.name))
            .collect();
        writeln!(
            out,
            "| never playing some move right after another | | every such pair: {} |",
            if every_pair.is_empty() {
                "no single file".to_owned()
            } else {
                every_pair.join(", ")
            }
        )
    }

    /// Where the slow solutions first need far more time.
    fn write_slow(&self, out: &mut String) -> std::fmt::Result {
        let slow = SUBMISSIONS
            .iter()
            .filter(|program| program.role == Role::TimeLimitExceeded)
            .map(|program| format!("`{}`", program.path()))
            .collect::<Vec<_>>()
            .join(", ");
        let slow_program = SUBMISSIONS
            .iter()
            .find(|program| program.role == Role::TimeLimitExceeded)
            .expect("a slow submission");
        match predicted_first_failure(slow_program, &self.files) {
            Some(first_long) => writeln!(
                out,
                "\nThe slow solutions ({slow}) are right on every file, but need far more \
                 time on long boards: the first file holding a board of more than \
                 {SLOW_QUICK_MAX_LENGTH} moves is {}.",
                first_long.name
            ),
            None => writeln!(
                out,
                "\nNo file holds a board of more than {SLOW_QUICK_MAX_LENGTH} moves."
            ),
        }
    }

    /// The time limit and where it comes from.
    fn write_time_limit(&self, out: &mut String) -> std::fmt::Result {
        writeln!(out, "\n## Time limit\n")?;
        let seconds = self.time_limit.seconds();
        let margin = seconds * TIME_SAFETY_MARGIN;
        match &self.calibration {
            Some(calibration) => writeln!(
                out,
                "{seconds} s of CPU per test file, calibrated by running the submissions on \
                 these files as problemtools does: the slowest accepted run was `{}` on {}, \
                 {:.2} s of CPU; {}. A submission is too slow when it needs more than \
                 {TIME_SAFETY_MARGIN} × {seconds} = {margin} s on a file.",
                calibration.slowest.program,
                calibration.slowest.file,
                calibration.slowest.cpu_seconds,
                calibration.arithmetic()
            ),
            None if self.time_limit == TimeLimit::DEFAULT
                || self.time_limit == TimeLimit::ALL_HARDEST =>
            {
                let slowest = if self.time_limit == TimeLimit::DEFAULT {
                    "the plain IDA*, `submissions/accepted/plain_ida.cpp`, on its slowest file"
                } else {
                    "the classic IDA*, `submissions/accepted/classic_ida.cpp`, on the maximum file"
                };
                writeln!(
                    out,
                    "{seconds} s of CPU per test file: rotation-game's default for this test set, \
                     measured on its development machine, not here: {TIME_MULTIPLIER} times the \
                     CPU time of the slowest accepted submission, {slowest}, rounded up, as \
                     problemtools computes it. A submission is too slow when it needs more than \
                     {TIME_SAFETY_MARGIN} × {seconds} = {margin} s on a file. Calibrate the \
                     package to measure it on the judges' machine."
                )
            }
            None => writeln!(
                out,
                "{seconds} s of CPU per test file, as given when the package was made (not \
                 measured). A submission is too slow when it needs more than \
                 {TIME_SAFETY_MARGIN} × {seconds} = {margin} s on a file."
            ),
        }
    }
}

/// The real runs of a calibration: each submission's first failure, next
/// to its model's prediction.
fn write_real_runs(out: &mut String, calibration: &Calibration) -> std::fmt::Result {
    writeln!(out, "\n## The submissions, run\n")?;
    writeln!(
        out,
        "Each submission judged on the files in order, at the limit its folder is judged \
         with: accepted ones at problemtools' provisional {ACCEPTED_CAP_SECONDS} s, wrong ones \
         at the time limit, slow ones at {TIME_SAFETY_MARGIN} × the time limit; the wrong and \
         slow ones stop at the first file they fail, as judges do. A wrong output format \
         (PE) is a wrong answer to the package's output validator, as to Kattis and \
         DOMjudge. The model's file is the first the table of mistakes names (for the slow \
         ones, the first holding a board of more than {SLOW_QUICK_MAX_LENGTH} moves).\n"
    )?;
    writeln!(
        out,
        "| submission | expected | limit | result | first failing file | model's file |"
    )?;
    writeln!(out, "| --- | --- | ---: | --- | --- | --- |")?;
    let slowest = calibration.slowest.cpu_seconds.max(1e-3);
    for submission in &calibration.submissions {
        let (result, first) = match (submission.first_failure(), &submission.slowest) {
            (Some(run), _) if run.verdict == FileVerdict::Judged(Verdict::TimeLimit) => (
                format!(
                    "TLE: stopped after {:.2} s of CPU, {:.1} times the slowest accepted run",
                    run.cpu_seconds,
                    run.cpu_seconds / slowest
                ),
                run.file.clone(),
            ),
            (Some(run), _) if submission.files_run == 1 => (
                format!("{} on the first file", run.verdict.code()),
                run.file.clone(),
            ),
            (Some(run), _) => (
                format!(
                    "{}, having passed the {} files before",
                    run.verdict.code(),
                    submission.files_run - 1
                ),
                run.file.clone(),
            ),
            (None, Some(run)) => (
                format!(
                    "AC on all {} files, the slowest {:.2} s on {}",
                    submission.files_run, run.cpu_seconds, run.file
                ),
                "none".to_owned(),
            ),
            (None, None) => ("AC, no files run".to_owned(), "none".to_owned()),
        };
        writeln!(
            out,
            "| `{}` | {} | {} s | {} | {} | {} |",
            submission.program,
            submission.expected,
            submission.limit_seconds,
            result,
            first,
            submission.predicted_first_failure.as_deref().unwrap_or("-")
        )?;
    }
    if calibration.problems.is_empty() {
        writeln!(
            out,
            "\nEvery submission got its folder's verdict, and every wrong and slow one first \
             failed on the file its model predicts."
        )
    } else {
        writeln!(out, "\nProblems:\n")?;
        for problem in &calibration.problems {
            writeln!(out, "- {problem}")?;
        }
        Ok(())
    }
}

/// The coverage of one file.
fn file_coverage(
    file: &TestFile,
    path: String,
    facts: &FxHashMap<Board, BoardFacts>,
    classic_nodes: &FxHashMap<Board, u64>,
) -> FileCoverage {
    let of: Vec<&BoardFacts> = file.boards.iter().map(|board| &facts[board]).collect();
    let nodes: Vec<u64> = file
        .boards
        .iter()
        .map(|board| classic_nodes[board])
        .collect();
    let pairs: Vec<(Move, Move)> = of
        .iter()
        .flat_map(|f| f.tie_break_pairs.iter().copied())
        .collect();
    let name = match file.group {
        Group::Sample => format!("sample/{}", file.name),
        Group::Secret => file.name.clone(),
    };
    FileCoverage {
        path,
        name,
        purpose: file.purpose.clone(),
        cases: file.boards.len(),
        lengths: distinct(of.iter().map(|f| f.length).collect()),
        digits: distinct(of.iter().map(|f| f.digit).collect()),
        first_letters: distinct(of.iter().filter_map(|f| f.first_letter).collect()),
        solved_boards: of.iter().filter(|f| f.length == 0).count(),
        tie_break_boards: of.iter().filter(|f| f.shortest_sequences > 1).count(),
        most_shortest_sequences: of.iter().map(|f| f.shortest_sequences).max().unwrap_or(0),
        hardest_boards: of.iter().filter(|f| f.length == 13).count(),
        classic_nodes: nodes.iter().sum(),
        classic_nodes_most: nodes.iter().copied().max().unwrap_or(0),
        move_orders_failing: mistake::orders_failing(&pairs),
        move_pairs: distinct(of.iter().flat_map(|f| f.pairs.clone()).collect()).len(),
        mistakes: planted_mistakes()
            .into_iter()
            .map(|(_, mistake)| mistake)
            .filter(|mistake| of.iter().any(|f| f.mistakes.contains(mistake)))
            .collect(),
    }
}

/// A file's number (`03`), or `sample` for the sample.
fn short_name(name: &str) -> &str {
    if name.starts_with("sample/") {
        return "sample";
    }
    name.split('-').next().unwrap_or(name)
}

/// Values joined by commas.
fn join(values: &[u8]) -> String {
    values
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sorted values as ranges: `0-3, 5, 7-8`.
fn ranges(values: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut at = 0;
    while at < values.len() {
        let mut end = at;
        while end + 1 < values.len() && values[end + 1] == values[end] + 1 {
            end += 1;
        }
        parts.push(if end == at {
            values[at].to_string()
        } else {
            format!("{}-{}", values[at], values[end])
        });
        at = end + 1;
    }
    parts.join(", ")
}

/// A count with thousands separators: `1,234,567`.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
impl CoverageReport {
    /// The report of a package with no test files, for the tests of the
    /// files that state its limit.
    pub(crate) fn without_files(
        seed: u64,
        max_cases: usize,
        time_limit: TimeLimit,
    ) -> CoverageReport {
        CoverageReport {
            seed,
            max_cases,
            time_limit,
            files: Vec::new(),
            missing_length_digits: Vec::new(),
            missing_first_letters: Vec::new(),
            hardest_boards: 0,
            move_orders_failing: 0,
            move_pairs: 0,
            calibration: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::calibration::{CalibrationProblem, FileRun, SubmissionResult};
    use crate::sample;

    /// Seeded boards of optimal length `length`.
    fn boards_of(length: u8, count: u64) -> Vec<Board> {
        crate::generator::boards_of_length(8, length, count)
    }

    /// The sample, and two secret files: a solved board, a board of one
    /// move, one of 13 and three of 6; and two boards of 8.
    fn files() -> Vec<TestFile> {
        let file = |name: &str, group, boards: Vec<Board>| TestFile {
            name: name.to_owned(),
            group,
            purpose: format!("the {name} file"),
            boards,
        };
        let first: Vec<Board> = [
            boards_of(0, 1),
            boards_of(1, 1),
            vec![hardest_boards()[0]],
            boards_of(6, 3),
        ]
        .concat();
        vec![
            file("1", Group::Sample, sample::boards().to_vec()),
            file("01-mixed", Group::Secret, first),
            file("02-eight", Group::Secret, boards_of(8, 2)),
        ]
    }

    /// The report of [`files`], each board's classic nodes its place in
    /// the files, from 1.
    fn report(time_limit: TimeLimit) -> (Vec<TestFile>, CoverageReport) {
        let files = files();
        let nodes: FxHashMap<Board, u64> = files
            .iter()
            .flat_map(|file| file.boards.iter())
            .zip(1..)
            .map(|(board, at)| (*board, at))
            .collect();
        let report = CoverageReport::new(
            &files,
            |file| format!("data/{}", file.name),
            &nodes,
            77,
            9,
            time_limit,
        );
        (files, report)
    }

    #[test]
    fn each_row_is_what_its_boards_answers_hold() {
        let (files, report) = report(TimeLimit::DEFAULT);
        assert_eq!(report.as_ref().len(), 3);
        let mut place = 0;
        for (file, row) in files.iter().zip(report.as_ref()) {
            let answers: Vec<_> = file.boards.iter().map(answer).collect();
            let length_of = |at: usize| answers[at].moves.len() as u8;
            let sequences: Vec<u64> = file.boards.iter().map(shortest_sequences).collect();
            let pairs: Vec<(Move, Move)> = file
                .boards
                .iter()
                .flat_map(mistake::tie_break_pairs)
                .collect();
            let count = file.boards.len();
            assert_eq!(row.path, format!("data/{}", file.name));
            assert_eq!(row.purpose, file.purpose);
            assert_eq!(row.cases, count);
            assert_eq!(row.lengths, distinct((0..count).map(length_of).collect()));
            assert_eq!(
                row.digits,
                distinct(answers.iter().map(|a| a.centre.value()).collect())
            );
            assert_eq!(
                row.first_letters,
                distinct(
                    answers
                        .iter()
                        .filter_map(|a| a.moves.as_slice().first().map(|m| m.letter()))
                        .collect()
                )
            );
            assert_eq!(
                row.solved_boards,
                (0..count).filter(|&at| length_of(at) == 0).count()
            );
            assert_eq!(
                row.hardest_boards,
                (0..count).filter(|&at| length_of(at) == 13).count()
            );
            assert_eq!(
                row.tie_break_boards,
                sequences.iter().filter(|&&n| n > 1).count()
            );
            assert_eq!(
                row.most_shortest_sequences,
                *sequences.iter().max().unwrap()
            );
            // Nodes 1, 2, ... in the order of the files.
            let nodes: Vec<u64> = (place + 1..=place + count as u64).collect();
            place += count as u64;
            assert_eq!(row.classic_nodes, nodes.iter().sum::<u64>());
            assert_eq!(row.classic_nodes_most, *nodes.last().unwrap());
            assert_eq!(row.move_orders_failing, mistake::orders_failing(&pairs));
            let held: std::collections::BTreeSet<usize> = answers
                .iter()
                .flat_map(|a| mistake::consecutive_pairs(&a.moves).collect::<Vec<_>>())
                .collect();
            assert_eq!(row.move_pairs, held.len());
            let caught: Vec<Mistake> = planted_mistakes()
                .into_iter()
                .map(|(_, mistake)| mistake)
                .filter(|mistake| {
                    file.boards
                        .iter()
                        .zip(&answers)
                        .any(|(board, answer)| mistake.fails(board, answer) == Some(true))
                })
                .collect();
            assert_eq!(row.mistakes, caught, "{}", file.name);
        }
        let names: Vec<&str> = report
            .as_ref()
            .iter()
            .map(|row| row.name.as_str())
            .collect();
        assert_eq!(names, ["sample/1", "01-mixed", "02-eight"]);
        // The files hold what the rows say: a solved board, the hardest,
        // boards whose answers differ with the tie-break, and some mistakes.
        let rows = report.as_ref();
        assert_eq!((rows[1].solved_boards, rows[1].hardest_boards), (1, 1));
        assert!(rows.iter().any(|row| row.tie_break_boards > 0));
        assert!(rows.iter().any(|row| !row.mistakes.is_empty()));
        assert!(
            rows.iter()
                .all(|row| row.mistakes.len() < planted_mistakes().len())
        );
    }

    #[test]
    fn the_totals_are_over_every_board_of_every_file() {
        let (files, report) = report(TimeLimit::DEFAULT);
        let boards: Vec<Board> = files.iter().flat_map(|file| file.boards.clone()).collect();
        let answers: Vec<_> = boards.iter().map(answer).collect();
        let seen: Vec<(u8, u8)> = answers
            .iter()
            .map(|a| (a.moves.len() as u8, a.centre.value()))
            .collect();
        let missing: Vec<(u8, u8)> = (1..=13)
            .flat_map(|length| (1..=3).map(move |digit| (length, digit)))
            .filter(|pair| !seen.contains(pair))
            .collect();
        assert_eq!(report.missing_length_digits, missing);
        assert!(!missing.is_empty() && missing.len() < 39);
        let letters: Vec<char> = answers
            .iter()
            .filter_map(|a| a.moves.as_slice().first().map(|m| m.letter()))
            .collect();
        let missing_letters: Vec<char> = "ABCDEFGH"
            .chars()
            .filter(|letter| !letters.contains(letter))
            .collect();
        assert_eq!(report.missing_first_letters, missing_letters);
        assert!(!missing_letters.is_empty() && missing_letters.len() < 8);
        assert_eq!(report.hardest_boards, 1);
        let pairs: Vec<(Move, Move)> = boards.iter().flat_map(mistake::tie_break_pairs).collect();
        assert_eq!(report.move_orders_failing, mistake::orders_failing(&pairs));
        // No file fails more orders than the whole set.
        assert!(
            report
                .as_ref()
                .iter()
                .all(|row| row.move_orders_failing <= report.move_orders_failing)
        );
        let held: std::collections::BTreeSet<usize> = answers
            .iter()
            .flat_map(|a| mistake::consecutive_pairs(&a.moves).collect::<Vec<_>>())
            .collect();
        assert_eq!(report.move_pairs, held.len());
        assert_eq!((report.seed, report.max_cases), (77, 9));
        assert_eq!(report.calibration, None);
    }

    #[test]
    fn the_markdown_states_the_report() {
        let (_, report) = report(TimeLimit::DEFAULT);
        let text = report.to_markdown();
        let has = |line: &str| {
            assert!(
                text.lines().any(|l| l == line),
                "no line {line:?} in:\n{text}"
            );
        };
        has("# The Rotation Game: the test data");
        assert!(text.contains(&format!(
            "Generated by rotation-game {} from seed 77: at most 9 cases per file, time limit 14 s per file.",
            env!("CARGO_PKG_VERSION")
        )));
        let rows = report.as_ref();
        // Its boards are the third to the eighth: nodes 3 + ... + 8.
        let row = &rows[1];
        has(&format!(
            "| 01-mixed | 6 | {} | {} | {} | {} ({}) | 33 (8) | the 01-mixed file |",
            ranges(&row.lengths),
            join(&row.digits),
            row.first_letters.iter().collect::<String>(),
            row.tie_break_boards,
            thousands(row.most_shortest_sequences),
        ));
        let missing = report
            .missing_length_digits
            .iter()
            .map(|(length, digit)| format!("{length} moves with {digit}"))
            .collect::<Vec<_>>()
            .join(", ");
        has(&format!(
            "- Every optimal length from 1 to 13 with each centre digit: missing {missing}."
        ));
        let letters: Vec<String> = report
            .missing_first_letters
            .iter()
            .map(char::to_string)
            .collect();
        has(&format!(
            "- Answers starting with each letter A to H: missing {}.",
            letters.join(", ")
        ));
        has("- Boards of 13 moves, the most any board needs: 1 of the 192.");
        has(&format!(
            "- Fixed move orders other than A to H that answer some board wrongly: {} of 40,319.",
            thousands(report.move_orders_failing)
        ));
        assert!(text.contains(&format!(
            "- Pairs of consecutive moves in the answers: {} of the 48",
            report.move_pairs
        )));
        for (program, mistake) in planted_mistakes() {
            let catching: Vec<&str> = rows
                .iter()
                .filter(|row| row.mistakes.contains(&mistake))
                .map(|row| short_name(&row.name))
                .collect();
            let catching = if catching.is_empty() {
                "none".to_owned()
            } else {
                catching.join(", ")
            };
            has(&format!(
                "| {} | `{}` | {catching} |",
                mistake.describe(),
                program.path()
            ));
        }
        has("| any fixed move order other than A to H | | every order: no single file |");
        has("| never playing some move right after another | | every such pair: no single file |");
        has(
            "The slow solutions (`submissions/time_limit_exceeded/iterative_deepening.cpp`) are \
             right on every file, but need far more time on long boards: the first file holding \
             a board of more than 9 moves is 01-mixed.",
        );
        let time_limit = |limit: TimeLimit, slowest: &str| {
            let seconds = limit.seconds();
            format!(
                "{seconds} s of CPU per test file: rotation-game's default for this test set, \
                 measured on its development machine, not here: 3 times the CPU time of the \
                 slowest accepted submission, {slowest}, rounded up, as problemtools computes \
                 it. A submission is too slow when it needs more than 2 × {seconds} = {} s on a \
                 file. Calibrate the package to measure it on the judges' machine.",
                2 * seconds
            )
        };
        has(&time_limit(
            TimeLimit::DEFAULT,
            "the plain IDA*, `submissions/accepted/plain_ida.cpp`, on its slowest file",
        ));
        assert!(text.contains("The submissions were not run for this report"));
        // The other limits say where they come from.
        let all = report_with(TimeLimit::ALL_HARDEST);
        let classic =
            "the classic IDA*, `submissions/accepted/classic_ida.cpp`, on the maximum file";
        assert!(
            all.lines()
                .any(|line| line == time_limit(TimeLimit::ALL_HARDEST, classic))
        );
        let given = report_with(TimeLimit::new(3).unwrap());
        assert!(given.lines().any(|line| line
            == "3 s of CPU per test file, as given when the package was made (not measured). \
                A submission is too slow when it needs more than 2 × 3 = 6 s on a file."));
    }

    fn report_with(time_limit: TimeLimit) -> String {
        report(time_limit).1.to_markdown()
    }

    fn file_run(file: &str, verdict: Verdict, cpu_seconds: f64) -> FileRun {
        FileRun {
            file: file.to_owned(),
            verdict: FileVerdict::Judged(verdict),
            cpu_seconds,
        }
    }

    fn submission(
        program: &str,
        expected: Verdict,
        files_run: usize,
        failures: Vec<FileRun>,
        slowest: Option<FileRun>,
    ) -> SubmissionResult {
        SubmissionResult {
            program: program.to_owned(),
            expected,
            limit_seconds: 5.0,
            files_run,
            failures,
            predicted_first_failure: (expected != Verdict::Accepted).then(|| "01-mixed".to_owned()),
            slowest,
        }
    }

    #[test]
    fn a_calibrated_report_states_each_submission_s_real_runs_and_the_limit_s_source() {
        let (_, mut report) = report(TimeLimit::new(5).unwrap());
        let (ac, wa, tle) = (Verdict::Accepted, Verdict::WrongAnswer, Verdict::TimeLimit);
        let calibration = Calibration::of_slowest(
            "submissions/accepted/a.cpp",
            "02-eight",
            1.5,
            vec![
                submission("a.cpp", ac, 3, vec![], Some(file_run("02-eight", ac, 1.5))),
                submission("b.cpp", wa, 1, vec![file_run("sample/1", wa, 0.1)], None),
                submission("c.cpp", wa, 3, vec![file_run("02-eight", wa, 0.2)], None),
                submission("d.cpp", tle, 2, vec![file_run("01-mixed", tle, 6.0)], None),
                submission("e.cpp", ac, 0, vec![], None),
            ],
        );
        assert_eq!(
            (
                calibration.time_limit.seconds(),
                calibration.too_slow_seconds
            ),
            (5, 10)
        );
        report.calibration = Some(calibration.clone());
        let text = report.to_markdown();
        let has = |line: &str| {
            assert!(
                text.lines().any(|l| l == line),
                "no line {line:?} in:\n{text}"
            );
        };
        has("## The submissions, run");
        has(
            "| `a.cpp` | accepted | 5 s | AC on all 3 files, the slowest 1.50 s on 02-eight | none | - |",
        );
        has("| `b.cpp` | wrong answer | 5 s | WA on the first file | sample/1 | 01-mixed |");
        has(
            "| `c.cpp` | wrong answer | 5 s | WA, having passed the 2 files before | 02-eight | 01-mixed |",
        );
        has(
            "| `d.cpp` | time limit exceeded | 5 s | TLE: stopped after 6.00 s of CPU, 4.0 times the slowest accepted run | 01-mixed | 01-mixed |",
        );
        has("| `e.cpp` | accepted | 5 s | AC, no files run | none | - |");
        has(
            "Every submission got its folder's verdict, and every wrong and slow one first failed on the file its model predicts.",
        );
        has(&format!(
            "5 s of CPU per test file, calibrated by running the submissions on these files as \
             problemtools does: the slowest accepted run was `submissions/accepted/a.cpp` on \
             02-eight, 1.50 s of CPU; {}. A submission is too slow when it needs more than \
             2 × 5 = 10 s on a file.",
            calibration.arithmetic()
        ));
        assert!(!text.contains("The submissions were not run for this report"));
        assert!(!text.contains("Problems:"));
        // What is wrong is listed.
        let problem = CalibrationProblem::NeverFails {
            program: "c.cpp".to_owned(),
            expected: wa,
        };
        let mut wrong = calibration;
        wrong.problems = vec![problem.clone()];
        report.calibration = Some(wrong);
        let text = report.to_markdown();
        assert!(
            text.contains(&format!("\nProblems:\n\n- {problem}\n")),
            "{text}"
        );
        assert!(!text.contains("Every submission got its folder's verdict"));
    }

    #[test]
    fn a_file_that_catches_every_order_or_pair_is_named() {
        let (_, mut report) = report(TimeLimit::DEFAULT);
        report.files[2].move_orders_failing = mistake::FIXED_ORDERS - 1;
        report.files[0].move_pairs = 48;
        report.files[1].move_pairs = 48;
        let text = report.to_markdown();
        assert!(text.contains("| any fixed move order other than A to H | | every order: 02 |"));
        assert!(text.contains(
            "| never playing some move right after another | | every such pair: sample, 01 |"
        ));
    }

    #[test]
    fn names_numbers_and_lists_read_well() {
        assert_eq!(short_name("sample/1"), "sample");
        assert_eq!(short_name("03-tie-break-move-order"), "03");
        assert_eq!(short_name("04"), "04");
        assert_eq!(join(&[1, 2, 3]), "1, 2, 3");
        assert_eq!(join(&[]), "");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(distinct(vec![3, 1, 3, 2, 1]), [1, 2, 3]);
    }

    #[test]
    fn ranges_and_thousands_read_well() {
        assert_eq!(ranges(&[0, 1, 2, 3, 5, 7, 8]), "0-3, 5, 7-8");
        assert_eq!(ranges(&[]), "");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn shortest_sequences_counts_every_sequence_that_solves_in_the_fewest_moves() {
        let three = crate::length::OptimalLength::new(3).unwrap();
        let boards = sample::boards().into_iter().chain(
            crate::generator::Generator::new(3, crate::generator::Mode::Length(three)).boards(5),
        );
        for board in boards {
            let length = optimal_length(&board).moves();
            let solving = (0..8usize.pow(u32::from(length)))
                .filter(|&code| {
                    let moves: Vec<Move> = (0..length)
                        .map(|at| Move::ALL[code / 8usize.pow(u32::from(at)) % 8])
                        .collect();
                    board.apply_all(&moves).is_solved()
                })
                .count();
            assert_eq!(shortest_sequences(&board), solving as u64, "{board}");
        }
    }
}
