//! Verification campaigns: every board of a source solved by every solver,
//! and every answer checked.
//!
//! # Overview
//!
//! [`verify`] takes a [`BoardSource`] (the first boards of a
//! [`Generator`], or a list), a list of [`Entrant`]s (a solver and the
//! longest optimal length it is asked to solve) and a thread count, and
//! returns a [`Report`]. Board `i` is checked on its own, in parallel with
//! rayon; since a generated board depends only on the seed and its index,
//! the report (apart from its times) is the same for any number of threads.
//!
//! # What is checked, and why it is sound
//!
//! For each board, with `L` its optimal length from the [pattern
//! database](crate::pattern_database) (exact: certified by its Bellman
//! equations, see [`pattern_database::certify`]), every entrant with
//! `L <= max_length` solves it, and each answer must:
//!
//! 1. replay to a uniform centre ([`Fault::NotSolved`]);
//! 2. report the digit the replay leaves there ([`Fault::WrongCentre`]);
//! 3. have length `L` ([`Fault::WrongLength`]);
//! 4. be the lexicographically smallest sequence of length `L`, which
//!    [`expected_answer`] computes independently of any solver
//!    ([`Fault::NotSmallest`]);
//!
//! and all the answers must be identical, moves and digit
//! ([`Disagreement::solvers_differ`]). A solver that gives no answer within
//! its bounds is a fault too ([`Fault::Refused`]).
//!
//! **Nothing shorter exists where `bfs` ran.** The breadth-first solver
//! discovers, and tests, every board within `k - 1` moves before any board
//! at `k` (see [`BfsSolver`](crate::BfsSolver)), so when it answers with `k`
//! moves, no sequence of fewer moves solves the board: its answer's length
//! is a proof of optimality by exhaustion, independent of the pattern
//! database. Check 3 then makes both proofs agree on every board where
//! `bfs` ran. Asking `BfsSolver::new(k - 1)` to refuse the board would prove
//! the same thing again at the cost of a second search of the same levels,
//! so the campaign does not.
//!
//! With the four checks, a solver passes a board only if its answer is
//! exactly the judges' answer; the checks across solvers then cost nothing
//! but make a disagreement between two solvers visible as such.

use std::fmt;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::board::{Board, Digit};
use crate::census;
use crate::generator::Generator;
use crate::moves::{Move, MoveSequence};
use crate::pattern_database::{self, MAX_DISTANCE};
use crate::show;
use crate::solver::{Solution, SolveError, Solver};

/// Where a campaign's boards come from.
#[derive(Clone, Copy, Debug)]
pub enum BoardSource<'a> {
    /// Boards `0..count` of a generator (all of them for
    /// [`Mode::Hardest`](crate::generator::Mode::Hardest), whatever `count`).
    Generated {
        /// The generator.
        generator: &'a Generator,
        /// How many boards were asked for.
        count: u64,
    },
    /// A list of boards, numbered from 0.
    Listed(&'a [Board]),
}

impl BoardSource<'_> {
    /// How many boards the source gives.
    pub fn len(&self) -> u64 {
        match self {
            BoardSource::Generated { generator, count } => generator.count(*count),
            BoardSource::Listed(boards) => boards.len() as u64,
        }
    }

    /// Whether the source gives no board.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Board number `index`, below [`len`](Self::len).
    pub fn board(&self, index: u64) -> Board {
        match self {
            BoardSource::Generated { generator, .. } => generator.board(index),
            BoardSource::Listed(boards) => boards[index as usize],
        }
    }

    /// The generator's seed, if the boards are generated.
    pub fn seed(&self) -> Option<u64> {
        match self {
            BoardSource::Generated { generator, .. } => Some(generator.seed()),
            BoardSource::Listed(_) => None,
        }
    }
}

/// A solver taking part in a campaign.
#[derive(Clone, Copy)]
pub struct Entrant<'a> {
    /// The solver.
    pub solver: &'a dyn Solver,
    /// It is asked to solve only boards whose optimal length is at most
    /// this (for the `bfs` solver, its depth bound).
    pub max_length: u8,
}

impl<'a> Entrant<'a> {
    /// A solver asked to solve every board.
    pub fn new(solver: &'a dyn Solver) -> Entrant<'a> {
        Entrant {
            solver,
            max_length: u8::MAX,
        }
    }

    /// A solver asked to solve only boards of optimal length up to
    /// `max_length`.
    pub fn up_to(solver: &'a dyn Solver, max_length: u8) -> Entrant<'a> {
        Entrant { solver, max_length }
    }
}

impl fmt::Debug for Entrant<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entrant")
            .field("solver", &self.solver.name())
            .field("max_length", &self.max_length)
            .finish()
    }
}

/// What is wrong with one solver's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The solver gave no answer.
    Refused(SolveError),
    /// The moves do not leave a uniform centre.
    NotSolved,
    /// The moves leave `actual` in the centre, not the digit reported.
    WrongCentre {
        /// The digit the replay leaves in the centre.
        actual: Digit,
    },
    /// The moves are not the optimal number.
    WrongLength {
        /// The optimal length.
        optimal: u8,
    },
    /// The moves are optimal in number but not the lexicographically
    /// smallest such sequence.
    NotSmallest {
        /// The smallest optimal sequence.
        expected: MoveSequence,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Refused(error) => write!(f, "gave no answer: {error}"),
            Fault::NotSolved => f.write_str("the moves do not leave a uniform centre"),
            Fault::WrongCentre { actual } => write!(f, "the moves leave {actual} in the centre"),
            Fault::WrongLength { optimal } => {
                write!(f, "not optimal: the optimal length is {optimal}")
            }
            Fault::NotSmallest { expected } => write!(
                f,
                "not the lexicographically smallest optimal sequence, which is {}",
                expected.letters()
            ),
        }
    }
}

/// One solver's answer on a board, with its faults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The solver's name.
    pub solver: String,
    /// What it answered.
    pub result: Result<Solution, SolveError>,
    /// What is wrong with it; empty when it is the expected answer.
    pub faults: Vec<Fault>,
}

impl Answer {
    /// Whether two answers give the same moves and digit (or both failed
    /// the same way).
    fn same_as(&self, other: &Answer) -> bool {
        match (&self.result, &other.result) {
            (Ok(mine), Ok(theirs)) => mine.same_answer(theirs),
            (mine, theirs) => mine == theirs,
        }
    }
}

/// A board on which some answer is faulty or the solvers differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The board's index in the campaign.
    pub index: u64,
    /// The generator's seed, if the boards were generated.
    pub seed: Option<u64>,
    /// The board.
    pub board: Board,
    /// Its optimal length, from the pattern database.
    pub optimal_length: u8,
    /// The judges' answer, from [`expected_answer`].
    pub expected: Solution,
    /// Every answer, in the order of the entrants that ran.
    pub answers: Vec<Answer>,
}

impl Disagreement {
    /// Whether two solvers gave different answers.
    pub fn solvers_differ(&self) -> bool {
        self.answers
            .windows(2)
            .any(|pair| !pair[0].same_as(&pair[1]))
    }

    /// Judge input holding this board alone: its line, then the `0` line.
    pub fn judge_input(&self) -> String {
        format!("{}\n0\n", self.board.to_judge_line())
    }

    /// One `rotation-game show` command per distinct sequence of moves
    /// answered or expected, the expected one first.
    pub fn show_commands(&self) -> Vec<String> {
        let mut sequences = vec![self.expected.moves];
        for answer in &self.answers {
            if let Ok(solution) = answer.result
                && !sequences.contains(&solution.moves)
            {
                sequences.push(solution.moves);
            }
        }
        sequences
            .iter()
            .map(|moves| show::command(&self.board, moves))
            .collect()
    }
}

/// A solution as the judges print it, on one line: moves, then digit.
fn one_line(solution: &Solution) -> String {
    format!("{} {}", solution.moves, solution.centre)
}

impl fmt::Display for Disagreement {
    /// Several lines: where the board comes from, the judge input that
    /// reproduces it, the expected answer, each solver's answer and faults,
    /// and `rotation-game show` commands.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.seed {
            Some(seed) => writeln!(f, "disagreement on board {} of seed {seed}", self.index)?,
            None => writeln!(f, "disagreement on board {}", self.index)?,
        }
        writeln!(f, "  judge input that reproduces it:")?;
        for line in self.judge_input().lines() {
            writeln!(f, "    {line}")?;
        }
        writeln!(
            f,
            "  expected ({} moves, from the pattern database): {}",
            self.optimal_length,
            one_line(&self.expected)
        )?;
        if self.solvers_differ() {
            writeln!(f, "  the solvers give different answers:")?;
        }
        for answer in &self.answers {
            let given = match &answer.result {
                Ok(solution) => one_line(solution),
                Err(error) => format!("error: {error}"),
            };
            writeln!(f, "    {}: {given}", answer.solver)?;
            for fault in &answer.faults {
                writeln!(f, "      {fault}")?;
            }
        }
        for command in self.show_commands() {
            writeln!(f, "  {command}")?;
        }
        Ok(())
    }
}

/// What one solver did over a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverStats {
    /// The solver's name.
    pub name: String,
    /// Boards it was asked to solve (those within its `max_length`).
    pub boards: u64,
    /// Wall-clock time spent in its `solve` calls, summed over the threads
    /// (so it can exceed the campaign's elapsed time, and it grows when the
    /// machine is busy with other work).
    pub time: Duration,
}

/// How many disagreements a [`Report`] keeps: the first ones by index. A
/// campaign against a badly broken solver can disagree on every board; past
/// this many, the rest are only counted.
pub const DISAGREEMENTS_KEPT: usize = 1000;

/// The outcome of a campaign.
#[derive(Clone, Debug)]
pub struct Report {
    /// The generator's seed, if the boards were generated.
    pub seed: Option<u64>,
    /// Boards checked.
    pub boards: u64,
    /// Boards of each optimal length, indexed by length, up to the greatest
    /// length met.
    pub boards_by_length: Vec<u64>,
    /// Per solver, in the order of the entrants.
    pub solvers: Vec<SolverStats>,
    /// The boards with a fault or a difference, by index: all of them, or
    /// the first [`DISAGREEMENTS_KEPT`] when there are more.
    pub disagreements: Vec<Disagreement>,
    /// How many boards had a fault or a difference, kept or not.
    pub disagreement_count: u64,
    /// Threads used.
    pub threads: usize,
    /// Wall-clock time of the campaign.
    pub elapsed: Duration,
}

impl Report {
    /// Whether every answer was the expected one.
    pub fn passed(&self) -> bool {
        self.disagreement_count == 0
    }

    /// How many disagreements were counted but not kept.
    pub fn disagreements_not_kept(&self) -> u64 {
        self.disagreement_count - self.disagreements.len() as u64
    }

    /// The summary as text: boards, the count per optimal length, the time
    /// per solver and the number of disagreements (not the disagreements
    /// themselves: print each with its `Display`).
    pub fn summary(&self) -> String {
        let mut text = format!(
            "verified {} boards{} on {} threads in {:.2} s\n",
            self.boards,
            self.seed
                .map(|seed| format!(" (seed {seed})"))
                .unwrap_or_default(),
            self.threads,
            self.elapsed.as_secs_f64()
        );
        text.push_str("optimal length      boards\n");
        for (length, count) in self.boards_by_length.iter().enumerate() {
            text.push_str(&format!("{length:>14} {count:>11}\n"));
        }
        let width = self
            .solvers
            .iter()
            .map(|stats| stats.name.len())
            .max()
            .unwrap_or(0)
            .max("solver".len());
        text.push_str(&format!(
            "{:<width$} {:>11} {:>13} {:>11}\n",
            "solver", "boards", "total time", "per board"
        ));
        for stats in &self.solvers {
            let per_board = if stats.boards == 0 {
                "-".to_owned()
            } else {
                format_seconds(stats.time.as_secs_f64() / stats.boards as f64)
            };
            text.push_str(&format!(
                "{:<width$} {:>11} {:>13} {:>11}\n",
                stats.name,
                stats.boards,
                format_seconds(stats.time.as_secs_f64()),
                per_board
            ));
        }
        text.push_str(&format!("disagreements: {}", self.disagreement_count));
        match self.disagreements_not_kept() {
            0 => text.push('\n'),
            not_kept => text.push_str(&format!(
                " (the first {} listed, {not_kept} more not kept)\n",
                self.disagreements.len()
            )),
        }
        text
    }

    /// The report as JSON: `passed`, `seed`, `boards`, `boards_by_length`
    /// (a list of `{length, boards}`), `solvers` (a list of `{name, boards,
    /// seconds}`), `disagreements` (those kept), `disagreement_count` (all
    /// of them), `disagreements_not_kept`, `threads` and `seconds`.
    pub fn to_json(&self) -> serde_json::Value {
        let by_length = census::lengths_to_json(&self.boards_by_length);
        let solvers: Vec<serde_json::Value> = self
            .solvers
            .iter()
            .map(|stats| {
                serde_json::json!({
                    "name": stats.name,
                    "boards": stats.boards,
                    "seconds": stats.time.as_secs_f64(),
                })
            })
            .collect();
        let disagreements: Vec<serde_json::Value> =
            self.disagreements.iter().map(disagreement_json).collect();
        serde_json::json!({
            "passed": self.passed(),
            "seed": self.seed,
            "boards": self.boards,
            "boards_by_length": by_length,
            "solvers": solvers,
            "disagreements": disagreements,
            "disagreement_count": self.disagreement_count,
            "disagreements_not_kept": self.disagreements_not_kept(),
            "threads": self.threads,
            "seconds": self.elapsed.as_secs_f64(),
        })
    }
}

/// A time in seconds, in the unit that suits it: µs, ms or s.
fn format_seconds(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.2} µs", seconds * 1e6)
    }
}

fn solution_json(solution: &Solution) -> serde_json::Value {
    serde_json::json!({
        "moves": solution.moves.letters(),
        "centre": solution.centre.value(),
    })
}

fn disagreement_json(disagreement: &Disagreement) -> serde_json::Value {
    let answers: Vec<serde_json::Value> = disagreement
        .answers
        .iter()
        .map(|answer| {
            let faults: Vec<String> = answer.faults.iter().map(Fault::to_string).collect();
            match &answer.result {
                Ok(solution) => serde_json::json!({
                    "solver": answer.solver,
                    "moves": solution.moves.letters(),
                    "centre": solution.centre.value(),
                    "faults": faults,
                }),
                Err(error) => serde_json::json!({
                    "solver": answer.solver,
                    "error": error.to_string(),
                    "faults": faults,
                }),
            }
        })
        .collect();
    serde_json::json!({
        "index": disagreement.index,
        "seed": disagreement.seed,
        "board": disagreement.board.to_judge_line(),
        "judge_input": disagreement.judge_input(),
        "optimal_length": disagreement.optimal_length,
        "expected": solution_json(&disagreement.expected),
        "solvers_differ": disagreement.solvers_differ(),
        "answers": answers,
        "show": disagreement.show_commands(),
    })
}

/// Why a campaign could not run.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// No solver was entered.
    #[error("no solver to verify")]
    NoSolvers,
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
}

/// The judges' answer for `board`, computed from the pattern database alone:
/// from the board, repeatedly play the first move, in order A..H, that
/// lowers the [optimal length](pattern_database::optimal_length) by one.
///
/// Why this is the lexicographically smallest optimal sequence: the optimal
/// length is exact, so a sequence of `L` moves solves a board of optimal
/// length `L` exactly when every move lowers the optimal length by one (each
/// move changes it by at most one, and it must reach 0 after `L` moves).
/// Comparing sequences of equal length letter by letter, the smallest one
/// takes the smallest first move that can start an optimal sequence, which
/// is the smallest move that lowers the length, and so on from there.
pub fn expected_answer(board: &Board) -> Solution {
    let mut moves = MoveSequence::new();
    let mut current = *board;
    let mut remaining = pattern_database::optimal_length(board);
    while remaining > 0 {
        let (next, m) = Move::ALL
            .into_iter()
            .map(|m| (current.apply(m), m))
            .find(|(next, _)| pattern_database::optimal_length(next) == remaining - 1)
            .expect("an exact distance above 0 has a neighbour one closer");
        moves.push(m);
        current = next;
        remaining -= 1;
    }
    let centre = current
        .uniform_centre()
        .expect("optimal length 0 is a uniform centre");
    Solution {
        moves,
        centre,
        nodes: u64::from(pattern_database::optimal_length(board)) + 1,
    }
}

/// The faults of one answer, given the expected one.
fn faults_of(
    board: &Board,
    result: &Result<Solution, SolveError>,
    expected: &Solution,
) -> Vec<Fault> {
    let solution = match result {
        Ok(solution) => solution,
        Err(error) => return vec![Fault::Refused(*error)],
    };
    let mut faults = Vec::new();
    match board.replay(&solution.moves).1 {
        None => faults.push(Fault::NotSolved),
        Some(actual) if actual != solution.centre => faults.push(Fault::WrongCentre { actual }),
        Some(_) => {}
    }
    if solution.moves.len() != expected.moves.len() {
        faults.push(Fault::WrongLength {
            optimal: expected.moves.len() as u8,
        });
    } else if solution.moves != expected.moves {
        faults.push(Fault::NotSmallest {
            expected: expected.moves,
        });
    }
    faults
}

/// What the campaign gathers, per thread, then summed.
#[derive(Clone, Debug)]
struct Tally {
    boards_by_length: [u64; MAX_DISTANCE as usize + 1],
    solver_boards: Vec<u64>,
    solver_time: Vec<Duration>,
    /// Disagreements met: among them the first [`DISAGREEMENTS_KEPT`] by
    /// index, and fewer than twice that many in all.
    disagreements: Vec<Disagreement>,
    disagreement_count: u64,
}

impl Tally {
    fn new(solvers: usize) -> Tally {
        Tally {
            boards_by_length: [0; MAX_DISTANCE as usize + 1],
            solver_boards: vec![0; solvers],
            solver_time: vec![Duration::ZERO; solvers],
            disagreements: Vec::new(),
            disagreement_count: 0,
        }
    }

    /// Keeps the first [`DISAGREEMENTS_KEPT`] disagreements by index once
    /// twice that many have gathered (so that sorting is rare).
    fn trim(&mut self) {
        if self.disagreements.len() >= 2 * DISAGREEMENTS_KEPT {
            self.keep_first();
        }
    }

    /// Sorts the disagreements by index and keeps the first
    /// [`DISAGREEMENTS_KEPT`]. The first ones of a union are among the first
    /// ones of its parts, so trimming each part first loses none of them.
    fn keep_first(&mut self) {
        self.disagreements
            .sort_unstable_by_key(|disagreement| disagreement.index);
        self.disagreements.truncate(DISAGREEMENTS_KEPT);
    }

    fn merge(mut self, other: Tally) -> Tally {
        for (mine, theirs) in self.boards_by_length.iter_mut().zip(other.boards_by_length) {
            *mine += theirs;
        }
        for (mine, theirs) in self.solver_boards.iter_mut().zip(other.solver_boards) {
            *mine += theirs;
        }
        for (mine, theirs) in self.solver_time.iter_mut().zip(other.solver_time) {
            *mine += theirs;
        }
        self.disagreements.extend(other.disagreements);
        self.disagreement_count += other.disagreement_count;
        self.trim();
        self
    }

    /// Checks board `index` and records the outcome.
    fn check(&mut self, index: u64, board: Board, seed: Option<u64>, entrants: &[Entrant<'_>]) {
        let expected = expected_answer(&board);
        let optimal_length = expected.moves.len() as u8;
        self.boards_by_length[usize::from(optimal_length)] += 1;
        let mut answers = Vec::with_capacity(entrants.len());
        for (slot, entrant) in entrants.iter().enumerate() {
            if optimal_length > entrant.max_length {
                continue;
            }
            let start = Instant::now();
            let result = entrant.solver.solve(&board);
            self.solver_time[slot] += start.elapsed();
            self.solver_boards[slot] += 1;
            answers.push(Answer {
                solver: entrant.solver.name().to_owned(),
                faults: faults_of(&board, &result, &expected),
                result,
            });
        }
        let disagreement = Disagreement {
            index,
            seed,
            board,
            optimal_length,
            expected,
            answers,
        };
        if disagreement.solvers_differ()
            || disagreement.answers.iter().any(|a| !a.faults.is_empty())
        {
            self.disagreements.push(disagreement);
            self.disagreement_count += 1;
            self.trim();
        }
    }
}

/// Runs a campaign: every board of `source` solved by every entrant within
/// its `max_length`, each answer checked (see the [module docs](self)), on
/// `threads` threads (0: one per core). `progress` is called from the
/// worker threads with 1 after each board.
///
/// # Errors
///
/// With no entrant, or when the thread pool cannot be built.
pub fn verify(
    source: BoardSource<'_>,
    entrants: &[Entrant<'_>],
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, VerifyError> {
    if entrants.is_empty() {
        return Err(VerifyError::NoSolvers);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let start = Instant::now();
    let seed = source.seed();
    let mut tally = pool.install(|| {
        (0..source.len())
            .into_par_iter()
            .fold(
                || Tally::new(entrants.len()),
                |mut tally, index| {
                    tally.check(index, source.board(index), seed, entrants);
                    progress(1);
                    tally
                },
            )
            .reduce(|| Tally::new(entrants.len()), Tally::merge)
    });
    tally.keep_first();
    let used = tally
        .boards_by_length
        .iter()
        .rposition(|&count| count > 0)
        .map_or(0, |length| length + 1);
    Ok(Report {
        seed,
        boards: source.len(),
        boards_by_length: tally.boards_by_length[..used].to_vec(),
        solvers: entrants
            .iter()
            .zip(tally.solver_boards.iter().zip(&tally.solver_time))
            .map(|(entrant, (&boards, &time))| SolverStats {
                name: entrant.solver.name().to_owned(),
                boards,
                time,
            })
            .collect(),
        disagreements: tally.disagreements,
        disagreement_count: tally.disagreement_count,
        threads: pool.current_num_threads(),
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_per_board_neither_truncates_the_count_nor_divides_by_zero() {
        // 2^32 boards: as a u32 the count would be 0.
        let report = Report {
            seed: None,
            boards: 1 << 32,
            boards_by_length: vec![1 << 32],
            solvers: vec![SolverStats {
                name: "pdb".to_owned(),
                boards: 1 << 32,
                time: Duration::from_secs(1 << 31),
            }],
            disagreements: Vec::new(),
            disagreement_count: 0,
            threads: 1,
            elapsed: Duration::from_secs(1),
        };
        let summary = report.summary();
        assert!(
            summary.contains("\npdb     4294967296 2147483648.00 s   500.00 ms\n"),
            "{summary}"
        );
    }
}
