//! Verification campaigns: every board of a source solved by every solver,
//! and every answer checked.
//!
//! # Overview
//!
//! [`verify`] takes a [`BoardSource`] (the first boards of a
//! [`Generator`], or a list), the solvers and a thread count, and returns a
//! [`Report`]. Board `i` is checked on its own, in parallel with rayon;
//! since a generated board depends only on the seed and its index, the
//! report (apart from its times) is the same for any number of threads.
//!
//! # What is checked, and why it is sound
//!
//! For each board, with `L` its optimal length from the [pattern
//! database](crate::pattern_database) (exact: certified by its Bellman
//! equations), every solver whose
//! [`max_optimal_length`](Solver::max_optimal_length) is at least `L` solves
//! it, and each answer must:
//!
//! 1. replay to a uniform centre ([`Fault::NotSolved`]);
//! 2. report the digit the replay leaves there ([`Fault::WrongCentre`]);
//! 3. have length `L` ([`Fault::WrongLength`]);
//! 4. be the lexicographically smallest sequence of length `L`, which the
//!    [`DescentSolver`] computes from the pattern database alone
//!    ([`Fault::NotSmallest`]);
//!
//! and all the answers must be identical, moves and digit
//! ([`Disagreement::solvers_differ`]). A solver that gives no answer within
//! its bounds is a fault too ([`Fault::Refused`]).
//!
//! **Nothing shorter exists where `bfs` ran.** The breadth-first solver
//! discovers, and tests, every board within `k - 1` moves before any board
//! at `k` (see [`BfsSolver`](crate::solver::BfsSolver)), so when it answers
//! with `k` moves, no sequence of fewer moves solves the board: its answer's
//! length is a proof of optimality by exhaustion, independent of the
//! pattern database. Check 3 then makes both proofs agree on every board
//! where `bfs` ran.
//!
//! With the four checks, a solver passes a board only if its answer is
//! exactly the judges' answer; the checks across solvers then cost nothing
//! but make a disagreement between two solvers visible as such.
//!
//! # Example
//!
//! A solver of one's own, planted with a bug (it plays the moves of the
//! right answer in reverse order), caught by a campaign:
//!
//! ```
//! use rotation_game::generator::{Generator, Mode};
//! use rotation_game::verify::{self, BoardSource, Fault};
//! use rotation_game::{Board, PdbSolver, Solution, SolveError, Solver};
//!
//! struct Backwards;
//!
//! impl Solver for Backwards {
//!     fn name(&self) -> &str {
//!         "backwards"
//!     }
//!
//!     fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
//!         let mut solution = PdbSolver::default().solve(board)?;
//!         solution.moves = solution.moves.as_slice().iter().rev().copied().collect();
//!         Ok(solution)
//!     }
//! }
//!
//! let generator = Generator::new(7, Mode::Uniform);
//! let source = BoardSource::Generated { generator: &generator, count: 20 };
//! let report = verify::verify(source, &[&PdbSolver::default(), &Backwards], 1, &|_| {})?;
//! assert!(!report.passed());
//! let first = &report.disagreements[0];
//! assert_eq!(first.answers[1].solver, "backwards");
//! assert!(!first.answers[1].faults.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::board::{Board, Digit};
use crate::generator::Generator;
use crate::length::{LengthCounts, OptimalLength};
use crate::moves::MoveSequence;
use crate::parser::format_input;
use crate::solver::{DescentSolver, Solution, SolveError, Solver};

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

    /// The case number, from 1 over the whole campaign, of board `index`
    /// (of a shard, when the generator is sharded).
    pub fn case_number(&self, index: u64) -> u64 {
        match self {
            BoardSource::Generated { generator, .. } => generator.case_number(index),
            BoardSource::Listed(_) => index + 1,
        }
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

/// What is wrong with one solver's answer.
///
/// It serializes as its message.
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
        optimal: OptimalLength,
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

impl Serialize for Fault {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One solver's answer on a board, with its faults.
///
/// It serializes as `{solver, moves, centre, faults}`, or `{solver, error,
/// faults}` when the solver gave no answer.
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

impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut answer = serializer.serialize_struct("Answer", 4)?;
        answer.serialize_field("solver", &self.solver)?;
        match &self.result {
            Ok(solution) => {
                answer.serialize_field("moves", &solution.moves)?;
                answer.serialize_field("centre", &solution.centre)?;
            }
            Err(error) => answer.serialize_field("error", &error.to_string())?,
        }
        answer.serialize_field("faults", &self.faults)?;
        answer.end()
    }
}

/// A board on which some answer is faulty or the solvers differ.
///
/// It serializes as `{case, seed, board, judge_input, optimal_length,
/// expected, solvers_differ, answers}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The board's case number in the campaign, from 1 (the line of the
    /// board in `gen`'s output for the same flags).
    pub case: u64,
    /// The generator's seed, if the boards were generated.
    pub seed: Option<u64>,
    /// The board.
    pub board: Board,
    /// Its optimal length, from the pattern database.
    pub optimal_length: OptimalLength,
    /// The judges' answer, from the [`DescentSolver`].
    pub expected: Solution,
    /// Every answer, in the order of the solvers that ran.
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
        format_input(&[self.board])
    }

    /// Every distinct sequence of moves answered or expected, the expected
    /// one first.
    pub fn sequences(&self) -> Vec<MoveSequence> {
        let mut sequences = vec![self.expected.moves];
        for answer in &self.answers {
            if let Ok(solution) = answer.result
                && !sequences.contains(&solution.moves)
            {
                sequences.push(solution.moves);
            }
        }
        sequences
    }
}

impl Serialize for Disagreement {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut disagreement = serializer.serialize_struct("Disagreement", 8)?;
        disagreement.serialize_field("case", &self.case)?;
        disagreement.serialize_field("seed", &self.seed)?;
        disagreement.serialize_field("board", &self.board)?;
        disagreement.serialize_field("judge_input", &self.judge_input())?;
        disagreement.serialize_field("optimal_length", &self.optimal_length)?;
        disagreement.serialize_field("expected", &self.expected)?;
        disagreement.serialize_field("solvers_differ", &self.solvers_differ())?;
        disagreement.serialize_field("answers", &self.answers)?;
        disagreement.end()
    }
}

/// What one solver did over a campaign.
///
/// It serializes as `{name, boards, seconds}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SolverStats {
    /// The solver's name.
    pub name: String,
    /// Boards it was asked to solve (those within its
    /// [`max_optimal_length`](Solver::max_optimal_length)).
    pub boards: u64,
    /// Wall-clock time spent in its `solve` calls, summed over the threads
    /// (so it can exceed the campaign's elapsed time, and it grows when the
    /// machine is busy with other work).
    #[serde(rename = "seconds", serialize_with = "crate::secs_f64::serialize")]
    pub time: Duration,
}

/// How many disagreements a [`Report`] keeps: the first ones by case. A
/// campaign against a badly broken solver can disagree on every board; past
/// this many, the rest are only counted.
pub const DISAGREEMENTS_KEPT: usize = 1000;

/// The outcome of a campaign.
///
/// It serializes as `{passed, seed, boards, boards_by_length, solvers,
/// disagreements, disagreement_count, disagreements_not_kept, threads,
/// seconds}`.
#[derive(Clone, Debug)]
pub struct Report {
    /// The generator's seed, if the boards were generated.
    pub seed: Option<u64>,
    /// Boards checked.
    pub boards: u64,
    /// Boards of each optimal length.
    pub boards_by_length: LengthCounts,
    /// Per solver, in the order given.
    pub solvers: Vec<SolverStats>,
    /// The boards with a fault or a difference, by case: all of them, or
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
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut report = serializer.serialize_struct("Report", 10)?;
        report.serialize_field("passed", &self.passed())?;
        report.serialize_field("seed", &self.seed)?;
        report.serialize_field("boards", &self.boards)?;
        report.serialize_field("boards_by_length", &self.boards_by_length)?;
        report.serialize_field("solvers", &self.solvers)?;
        report.serialize_field("disagreements", &self.disagreements)?;
        report.serialize_field("disagreement_count", &self.disagreement_count)?;
        report.serialize_field("disagreements_not_kept", &self.disagreements_not_kept())?;
        report.serialize_field("threads", &self.threads)?;
        report.serialize_field("seconds", &self.elapsed.as_secs_f64())?;
        report.end()
    }
}

/// Why a campaign could not run.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// No solver was given.
    #[error("no solver to verify")]
    NoSolvers,
    /// The thread pool could not be built.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
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
            optimal: OptimalLength::from_moves_unchecked(expected.moves.len() as u8),
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
    boards_by_length: [u64; OptimalLength::MAX.moves() as usize + 1],
    solver_boards: Vec<u64>,
    solver_time: Vec<Duration>,
    /// Disagreements met: among them the first [`DISAGREEMENTS_KEPT`] by
    /// case, and fewer than twice that many in all.
    disagreements: Vec<Disagreement>,
    disagreement_count: u64,
}

impl Tally {
    fn new(solvers: usize) -> Tally {
        Tally {
            boards_by_length: [0; OptimalLength::MAX.moves() as usize + 1],
            solver_boards: vec![0; solvers],
            solver_time: vec![Duration::ZERO; solvers],
            disagreements: Vec::new(),
            disagreement_count: 0,
        }
    }

    /// Keeps the first [`DISAGREEMENTS_KEPT`] disagreements by case once
    /// twice that many have gathered (so that sorting is rare).
    fn trim(&mut self) {
        if self.disagreements.len() >= 2 * DISAGREEMENTS_KEPT {
            self.keep_first();
        }
    }

    /// Sorts the disagreements by case and keeps the first
    /// [`DISAGREEMENTS_KEPT`]. The first ones of a union are among the first
    /// ones of its parts, so trimming each part first loses none of them.
    fn keep_first(&mut self) {
        self.disagreements
            .sort_unstable_by_key(|disagreement| disagreement.case);
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

    /// Checks the board of case `case` and records the outcome.
    fn check(&mut self, case: u64, board: Board, seed: Option<u64>, solvers: &[&dyn Solver]) {
        let expected = DescentSolver
            .solve(&board)
            .expect("the descent answers every board");
        let optimal_length = OptimalLength::from_moves_unchecked(expected.moves.len() as u8);
        self.boards_by_length[usize::from(optimal_length.moves())] += 1;
        let mut answers = Vec::with_capacity(solvers.len());
        for (slot, solver) in solvers.iter().enumerate() {
            if optimal_length > solver.max_optimal_length() {
                continue;
            }
            let start = Instant::now();
            let result = solver.solve(&board);
            self.solver_time[slot] += start.elapsed();
            self.solver_boards[slot] += 1;
            answers.push(Answer {
                solver: solver.name().to_owned(),
                faults: faults_of(&board, &result, &expected),
                result,
            });
        }
        let disagreement = Disagreement {
            case,
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

/// Runs a campaign: every board of `source` solved by every solver within
/// its [`max_optimal_length`](Solver::max_optimal_length), each answer
/// checked (see the [module docs](self)), on `threads` threads (0: one per
/// core). `progress` is called from the worker threads with 1 after each
/// board.
///
/// # Errors
///
/// With no solver, or when the thread pool cannot be built.
pub fn verify(
    source: BoardSource<'_>,
    solvers: &[&dyn Solver],
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, VerifyError> {
    if solvers.is_empty() {
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
                || Tally::new(solvers.len()),
                |mut tally, index| {
                    let case = source.case_number(index);
                    tally.check(case, source.board(index), seed, solvers);
                    progress(1);
                    tally
                },
            )
            .reduce(|| Tally::new(solvers.len()), Tally::merge)
    });
    tally.keep_first();
    Ok(Report {
        seed,
        boards: source.len(),
        boards_by_length: LengthCounts::from_counts(&tally.boards_by_length),
        solvers: solvers
            .iter()
            .zip(tally.solver_boards.iter().zip(&tally.solver_time))
            .map(|(solver, (&boards, &time))| SolverStats {
                name: solver.name().to_owned(),
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
    use crate::generator::Mode;

    fn solution(letters: &str) -> Solution {
        Solution {
            moves: MoveSequence::from_letters(letters.as_bytes()).unwrap(),
            centre: Digit::ALL[0],
            nodes: 0,
        }
    }

    fn answer(result: Result<Solution, SolveError>) -> Answer {
        Answer {
            solver: "a solver".to_owned(),
            result,
            faults: Vec::new(),
        }
    }

    const REFUSED: SolveError = SolveError::TooLong {
        max_length: OptimalLength::ZERO,
    };

    /// A disagreement on case `case`, expecting `AC`.
    fn disagreement(case: u64, answers: Vec<Answer>) -> Disagreement {
        Disagreement {
            case,
            seed: None,
            board: Generator::new(1, Mode::Uniform).board(0),
            optimal_length: OptimalLength::new(2).unwrap(),
            expected: solution("AC"),
            answers,
        }
    }

    #[test]
    fn a_list_of_boards_is_numbered_from_case_1() {
        let boards = Generator::new(1, Mode::Uniform).boards(3);
        let listed = BoardSource::Listed(&boards);
        assert!(!listed.is_empty());
        assert!(BoardSource::Listed(&[]).is_empty());
        assert_eq!(listed.len(), 3);
        assert_eq!(
            (0..3)
                .map(|index| listed.case_number(index))
                .collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(listed.board(2), boards[2]);
    }

    #[test]
    fn each_fault_says_what_is_wrong() {
        let faults = [
            (
                Fault::Refused(REFUSED),
                format!("gave no answer: {REFUSED}"),
            ),
            (
                Fault::NotSolved,
                "the moves do not leave a uniform centre".to_owned(),
            ),
            (
                Fault::WrongCentre {
                    actual: Digit::ALL[1],
                },
                "the moves leave 2 in the centre".to_owned(),
            ),
            (
                Fault::WrongLength {
                    optimal: OptimalLength::new(6).unwrap(),
                },
                "not optimal: the optimal length is 6".to_owned(),
            ),
            (
                Fault::NotSmallest {
                    expected: solution("AC").moves,
                },
                "not the lexicographically smallest optimal sequence, which is AC".to_owned(),
            ),
        ];
        for (fault, message) in faults {
            assert_eq!(fault.to_string(), message);
        }
    }

    #[test]
    fn solvers_differ_when_their_moves_or_their_failures_do() {
        let differ = |answers| disagreement(1, answers).solvers_differ();
        let moves = |letters| answer(Ok(solution(letters)));
        let refused = || answer(Err(REFUSED));
        assert!(!differ(vec![moves("AC"), moves("AC")]));
        assert!(differ(vec![moves("AC"), moves("CA")]));
        assert!(!differ(vec![refused(), refused()]));
        assert!(differ(vec![moves("AC"), refused()]));
    }

    #[test]
    fn the_sequences_are_the_expected_one_then_each_other_answered_once() {
        let answers = vec![
            answer(Ok(solution("CA"))),
            answer(Err(REFUSED)),
            answer(Ok(solution("AC"))),
            answer(Ok(solution("CA"))),
        ];
        let letters: Vec<String> = disagreement(1, answers)
            .sequences()
            .iter()
            .map(MoveSequence::letters)
            .collect();
        assert_eq!(letters, ["AC", "CA"]);
    }

    #[test]
    fn the_tally_keeps_the_first_disagreements_by_case_once_twice_that_many_gathered() {
        let mut tally = Tally::new(1);
        // In reverse order of case, so that keeping the first by case is
        // not keeping the first gathered.
        let mut cases = (1..=2 * DISAGREEMENTS_KEPT as u64).rev();
        for case in cases.by_ref().take(2 * DISAGREEMENTS_KEPT - 1) {
            tally.disagreements.push(disagreement(case, Vec::new()));
        }
        tally.trim();
        assert_eq!(tally.disagreements.len(), 2 * DISAGREEMENTS_KEPT - 1);
        tally
            .disagreements
            .push(disagreement(cases.next().unwrap(), Vec::new()));
        tally.trim();
        let kept: Vec<u64> = tally.disagreements.iter().map(|kept| kept.case).collect();
        assert_eq!(kept, (1..=DISAGREEMENTS_KEPT as u64).collect::<Vec<_>>());
    }
}
