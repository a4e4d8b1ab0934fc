//! Seeded searches for the boards the test files need.
//!
//! # Overview
//!
//! Every search draws boards from the crate's [generators](crate::generator)
//! under the package's seed, each search from its own range of streams (a
//! [`Purpose`]), and scans them in index order, so its result depends only
//! on the seed. The searches that cost real time (the hill climbs of
//! [`anti_heuristic`]) run in parallel, one climb per task, each climb on its
//! own stream, and their results are collected in a fixed order: the
//! threads change only how long they take.
//!
//! A search that runs out of draws before it has found everything returns
//! what it found; the coverage report then shows what is missing, and the
//! tests require nothing to be missing for the seeds they try.

use rayon::prelude::*;

use crate::board::{Board, Digit};
use crate::generator::{BoardRng, Generator, Mode};
use crate::length::OptimalLength;
use crate::moves::Move;
use crate::package::classic_effort;
use crate::package::mistake::{self, Mistake};
use crate::pattern_database::optimal_length;
use crate::solver::{PdbSolver, Solution, Solver};

/// What a search is for: each draws from its own streams, `purpose << 40`
/// onwards, so that no two searches share a board by construction.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Purpose {
    SolvedBoards = 1,
    ShortBoards = 2,
    FirstLetters = 3,
    MoveOrder = 4,
    Mistakes = 5,
    MovePairs = 6,
    LengthsAndDigits = 7,
    Uniform = 8,
    AntiHeuristic = 9,
    Uuid = 10,
}

/// How many draws a search makes at most before it gives up.
const MAX_DRAWS: u64 = 200_000;

/// The boards a seed gives, by purpose.
pub(crate) struct Draws {
    seed: u64,
    /// A generator of each optimal length, 0 to 13.
    by_length: Vec<Generator>,
    uniform: Generator,
}

impl Draws {
    pub fn new(seed: u64) -> Draws {
        Draws {
            seed,
            by_length: OptimalLength::all()
                .map(|length| Generator::new(seed, Mode::Length(length)))
                .collect(),
            uniform: Generator::new(seed, Mode::Uniform),
        }
    }

    fn stream(purpose: Purpose, index: u64) -> u64 {
        (purpose as u64) << 40 | index
    }

    /// Board `index` of optimal length `length` for `purpose`.
    pub fn with_length(&self, length: u8, purpose: Purpose, index: u64) -> Board {
        self.by_length[usize::from(length)].board(Draws::stream(purpose, index))
    }

    /// Uniformly random board `index` for `purpose`.
    pub fn uniform(&self, purpose: Purpose, index: u64) -> Board {
        self.uniform.board(Draws::stream(purpose, index))
    }

    /// Random stream `index` for `purpose`.
    pub fn rng(&self, purpose: Purpose, index: u64) -> BoardRng {
        BoardRng::new(self.seed, Draws::stream(purpose, index))
    }

    /// Scans boards of the given lengths in turn, with their answers, until
    /// `visit` says it has enough or the draws run out.
    fn scan(
        &self,
        purpose: Purpose,
        lengths: &[u8],
        mut visit: impl FnMut(Board, &Solution) -> Scan,
    ) {
        for index in 0..MAX_DRAWS {
            let length = lengths[(index % lengths.len() as u64) as usize];
            let board = self.with_length(length, purpose, index);
            if visit(board, &answer(&board)) == Scan::Enough {
                return;
            }
        }
    }
}

/// Whether a scan goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scan {
    More,
    Enough,
}

impl Scan {
    fn until(done: bool) -> Scan {
        if done { Scan::Enough } else { Scan::More }
    }
}

/// The right answer for `board`.
pub(crate) fn answer(board: &Board) -> Solution {
    PdbSolver::default()
        .solve(board)
        .expect("the pdb solver answers every board")
}

/// `per_digit` solved boards with each digit in the centre, digit by digit.
pub(crate) fn solved_boards(draws: &Draws, per_digit: usize) -> Vec<Board> {
    let mut found: [Vec<Board>; 3] = Default::default();
    draws.scan(Purpose::SolvedBoards, &[0], |board, answer| {
        let of_digit = &mut found[answer.centre.index()];
        if of_digit.len() < per_digit {
            of_digit.push(board);
        }
        Scan::until(found.iter().all(|boards| boards.len() == per_digit))
    });
    found.concat()
}

/// The first `count` boards of each of the given lengths.
pub(crate) fn short_boards(draws: &Draws, lengths: &[u8], count: u64) -> Vec<Board> {
    (0..count)
        .flat_map(|index| {
            lengths
                .iter()
                .map(move |&length| draws.with_length(length, Purpose::ShortBoards, index))
        })
        .collect()
}

/// For each letter A..H and each of `lengths`, a board of that length whose
/// answer starts with that letter; by letter, then length.
pub(crate) fn first_letters(draws: &Draws, lengths: &[u8]) -> Vec<Board> {
    let mut found: Vec<Option<Board>> = vec![None; 8 * lengths.len()];
    let slot = |first: Move, length: u8| {
        let at = lengths
            .iter()
            .position(|&l| l == length)
            .expect("a scanned length");
        first.index() * lengths.len() + at
    };
    draws.scan(Purpose::FirstLetters, lengths, |board, answer| {
        let first = answer.moves.as_slice()[0];
        let entry = &mut found[slot(first, answer.moves.len() as u8)];
        entry.get_or_insert(board);
        Scan::until(found.iter().all(Option::is_some))
    });
    found.into_iter().flatten().collect()
}

/// For each pair of moves `x < y`, a board from which exactly `x` and `y`
/// bring the board one move closer: every fixed move order other than
/// A..H tries some `y` before its `x`, and answers one of these boards
/// wrongly. By pair.
pub(crate) fn move_order_pairs(draws: &Draws, lengths: &[u8]) -> Vec<Board> {
    let mut found: Vec<Option<Board>> = vec![None; 64];
    draws.scan(Purpose::MoveOrder, lengths, |board, answer| {
        let length = answer.moves.len() as u8;
        let closer: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| optimal_length(&board.apply(m)).moves() + 1 == length)
            .collect();
        if let [x, y] = closer[..] {
            found[8 * x.index() + y.index()].get_or_insert(board);
        }
        let pairs = found.iter().enumerate().filter(|(at, _)| at / 8 < at % 8);
        Scan::until(pairs.clone().all(|(_, board)| board.is_some()))
    });
    found.into_iter().flatten().collect()
}

/// `per_length` boards of each of `lengths` that a solution with `mistake`
/// answers wrongly, drawn from range `range` of the [`Purpose::Mistakes`]
/// streams (one range per mistake searched); by length.
pub(crate) fn exposing(
    draws: &Draws,
    mistake: Mistake,
    range: u64,
    lengths: &[u8],
    per_length: usize,
) -> Vec<Board> {
    let mut found: Vec<Vec<Board>> = vec![Vec::new(); lengths.len()];
    for (slot, &length) in lengths.iter().enumerate() {
        for index in 0..MAX_DRAWS {
            let board = draws.with_length(length, Purpose::Mistakes, range << 32 | index);
            if mistake.fails(&board, &answer(&board)) == Some(true) {
                found[slot].push(board);
                if found[slot].len() == per_length {
                    break;
                }
            }
        }
    }
    found.concat()
}

/// Boards whose answers, together, hold every pair of consecutive moves an
/// answer can hold ([`mistake::pair_can_appear`]): a search that forbids any
/// of them answers one of these wrongly. A board is taken when its answer
/// holds a pair not yet held.
pub(crate) fn move_pairs(draws: &Draws, lengths: &[u8]) -> Vec<Board> {
    let mut wanted = [false; 64];
    for x in Move::ALL {
        for y in Move::ALL {
            wanted[8 * x.index() + y.index()] = mistake::pair_can_appear(x, y);
        }
    }
    let mut boards = Vec::new();
    draws.scan(Purpose::MovePairs, lengths, |board, answer| {
        let mut new = false;
        for pair in mistake::consecutive_pairs(&answer.moves) {
            new |= std::mem::take(&mut wanted[pair]);
        }
        if new {
            boards.push(board);
        }
        Scan::until(!wanted.contains(&true))
    });
    boards
}

/// For each of `lengths` and each digit, a board of that length whose
/// answer leaves that digit in the centre; by length, then digit.
pub(crate) fn lengths_and_digits(draws: &Draws, lengths: &[u8]) -> Vec<Board> {
    let mut boards = Vec::new();
    for &length in lengths {
        for digit in Digit::ALL {
            let found = (0..MAX_DRAWS)
                .map(|index| draws.with_length(length, Purpose::LengthsAndDigits, index))
                .find(|board| answer(board).centre == digit);
            boards.extend(found);
        }
    }
    boards
}

/// `count` uniformly random boards.
pub(crate) fn uniform(draws: &Draws, count: u64) -> Vec<Board> {
    (0..count)
        .map(|index| draws.uniform(Purpose::Uniform, index))
        .collect()
}

/// How long the hill climbs of [`anti_heuristic`] run: climbs per length,
/// and classic searches per climb, by optimal length (index 0 unused).
pub(crate) const CLIMBS: u64 = 3;
const EVALUATIONS: [u64; 13] = [0, 60, 60, 60, 60, 60, 60, 60, 60, 60, 40, 24, 12];

/// The classic searches [`anti_heuristic`] runs for `lengths`.
pub(crate) fn anti_heuristic_work(lengths: &[u8]) -> u64 {
    lengths
        .iter()
        .map(|&length| CLIMBS * EVALUATIONS[usize::from(length)])
        .sum()
}

/// For each of `lengths` (1 to 12), the boards of that length found by
/// [`CLIMBS`] seeded hill climbs to make the classic IDA* generate the most
/// nodes, one per climb, most nodes first; by length. `searched` is called
/// after each classic search.
///
/// A climb starts from a random board of the length and proposes swapping
/// the digits of two random cells that differ; it moves to the proposal
/// when the optimal length is unchanged and the classic search costs more.
pub(crate) fn anti_heuristic(
    draws: &Draws,
    lengths: &[u8],
    searched: &(dyn Fn() + Sync),
) -> Vec<(Board, u64)> {
    let climbs: Vec<(u8, u64)> = lengths
        .iter()
        .flat_map(|&length| (0..CLIMBS).map(move |climb| (length, climb)))
        .collect();
    let peaks: Vec<(Board, u64)> = climbs
        .par_iter()
        .map(|&(length, climb)| {
            let index = u64::from(length) << 8 | climb;
            let start = draws.with_length(length, Purpose::AntiHeuristic, index);
            let mut rng = draws.rng(Purpose::AntiHeuristic, 1 << 32 | index);
            hill_climb(start, &mut rng, EVALUATIONS[usize::from(length)], searched)
        })
        .collect();
    let mut by_length: Vec<(Board, u64)> = Vec::new();
    for chunk in peaks.chunks(CLIMBS as usize) {
        let mut chunk = chunk.to_vec();
        chunk.sort_by_key(|&(board, nodes)| (std::cmp::Reverse(nodes), board));
        chunk.dedup_by_key(|(board, _)| *board);
        by_length.extend(chunk);
    }
    by_length
}

/// One hill climb from `start`, running `evaluations` classic searches.
fn hill_climb(
    start: Board,
    rng: &mut BoardRng,
    evaluations: u64,
    searched: &(dyn Fn() + Sync),
) -> (Board, u64) {
    let length = optimal_length(&start);
    let mut best = (start, classic_effort::nodes(&start));
    searched();
    let mut done = 1;
    // Most proposals change the length; give up after many in a row.
    let mut proposals = 0;
    while done < evaluations && proposals < 1000 * evaluations {
        proposals += 1;
        let mut values = best.0.values();
        let first = rng.below(24) as usize;
        let second = rng.below(24) as usize;
        if values[first] == values[second] {
            continue;
        }
        values.swap(first, second);
        let proposal = Board::from_values(&values).expect("a swap keeps eight of each digit");
        if optimal_length(&proposal) != length {
            continue;
        }
        let nodes = classic_effort::nodes(&proposal);
        searched();
        done += 1;
        if nodes > best.1 {
            best = (proposal, nodes);
        }
    }
    for _ in done..evaluations {
        searched();
    }
    best
}
