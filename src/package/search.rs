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

/// A climb gives up after this many proposals per classic search it was
/// given, so that a board whose swaps nearly all change the optimal length
/// cannot hold the package's build: the searches it did not run are still
/// reported to `searched`, as the progress bar counts them.
const MOST_PROPOSALS_PER_SEARCH: u64 = 1000;

/// One hill climb from `start`, running `evaluations` classic searches.
fn hill_climb(
    start: Board,
    rng: &mut BoardRng,
    evaluations: u64,
    searched: &(dyn Fn() + Sync),
) -> (Board, u64) {
    let length = optimal_length(&start);
    climb(start, rng, evaluations, searched, &|proposal| {
        optimal_length(proposal) == length
    })
}

/// The climb of [`hill_climb`], taking only the proposals `keeps` accepts:
/// at most `evaluations` classic searches (the start's among them) and
/// [`MOST_PROPOSALS_PER_SEARCH`] times as many proposals.
fn climb(
    start: Board,
    rng: &mut BoardRng,
    evaluations: u64,
    searched: &(dyn Fn() + Sync),
    keeps: &dyn Fn(&Board) -> bool,
) -> (Board, u64) {
    let mut best = (start, classic_effort::nodes(&start));
    searched();
    let mut done = 1;
    let mut proposals = 0;
    while done < evaluations && proposals < MOST_PROPOSALS_PER_SEARCH * evaluations {
        proposals += 1;
        let mut values = best.0.values();
        let first = rng.below(24) as usize;
        let second = rng.below(24) as usize;
        if values[first] == values[second] {
            continue;
        }
        values.swap(first, second);
        let proposal = Board::from_values(&values).expect("a swap keeps eight of each digit");
        if !keeps(&proposal) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn length_of(board: &Board) -> u8 {
        optimal_length(board).moves()
    }

    #[test]
    fn each_purpose_draws_from_streams_of_its_own() {
        let purposes = [
            Purpose::SolvedBoards,
            Purpose::ShortBoards,
            Purpose::FirstLetters,
            Purpose::MoveOrder,
            Purpose::Mistakes,
            Purpose::MovePairs,
            Purpose::LengthsAndDigits,
            Purpose::Uniform,
            Purpose::AntiHeuristic,
            Purpose::Uuid,
        ];
        for (at, &purpose) in purposes.iter().enumerate() {
            for index in [0, 1, (1 << 40) - 1] {
                let stream = Draws::stream(purpose, index);
                assert_eq!(stream >> 40, at as u64 + 1, "{purpose:?} {index}");
                assert_eq!(stream & ((1 << 40) - 1), index, "{purpose:?} {index}");
            }
        }
        // The same index of two purposes is two boards.
        let draws = Draws::new(1);
        assert_ne!(
            draws.with_length(5, Purpose::ShortBoards, 0),
            draws.with_length(5, Purpose::FirstLetters, 0)
        );
        assert_ne!(
            draws.uniform(Purpose::Uniform, 0),
            draws.uniform(Purpose::Uuid, 0)
        );
    }

    #[test]
    fn draws_depend_on_the_seed_the_length_and_the_index_only() {
        let (one, again, other) = (Draws::new(1), Draws::new(1), Draws::new(2));
        for length in [0, 1, 7, 13] {
            let board = one.with_length(length, Purpose::ShortBoards, 3);
            assert_eq!(length_of(&board), length);
            assert_eq!(board, again.with_length(length, Purpose::ShortBoards, 3));
        }
        assert_ne!(
            one.with_length(7, Purpose::ShortBoards, 3),
            other.with_length(7, Purpose::ShortBoards, 3)
        );
        assert_ne!(
            one.with_length(7, Purpose::ShortBoards, 3),
            one.with_length(7, Purpose::ShortBoards, 4)
        );
        assert_eq!(
            one.uniform(Purpose::Uniform, 9),
            again.uniform(Purpose::Uniform, 9)
        );
        assert_ne!(
            one.uniform(Purpose::Uniform, 9),
            other.uniform(Purpose::Uniform, 9)
        );
        let draw = |draws: &Draws| draws.rng(Purpose::AntiHeuristic, 5).below(1 << 60);
        assert_eq!(draw(&one), draw(&again));
        assert_ne!(draw(&one), draw(&other));
        assert_ne!(
            draw(&one),
            one.rng(Purpose::AntiHeuristic, 6).below(1 << 60)
        );
    }

    #[test]
    fn the_answer_is_the_smallest_shortest_sequence() {
        let board = crate::sample::boards()[0];
        let right = answer(&board);
        // No single move solves the sample's first board; of the 64 pairs
        // of moves in order, AC is the first that does.
        assert!(Move::ALL.iter().all(|&m| !board.apply(m).is_solved()));
        let first = Move::ALL
            .iter()
            .flat_map(|&x| Move::ALL.map(|y| [x, y]))
            .find(|pair| board.apply_all(pair).is_solved())
            .unwrap();
        assert_eq!(right.moves.as_slice(), first);
        assert_eq!(right.moves.to_string(), "AC");
        assert_eq!(right.centre, board.apply_all(&first).digit_at(6));
    }

    #[test]
    fn solved_boards_come_digit_by_digit() {
        let draws = Draws::new(3);
        let boards = solved_boards(&draws, 2);
        let centres: Vec<u8> = boards.iter().map(|b| answer(b).centre.value()).collect();
        assert_eq!(centres, [1, 1, 2, 2, 3, 3]);
        assert!(boards.iter().all(Board::is_solved));
        let mut distinct = boards.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), boards.len());
        assert_eq!(solved_boards(&draws, 0), []);
    }

    #[test]
    fn short_boards_come_index_by_index_then_length_by_length() {
        let draws = Draws::new(3);
        let boards = short_boards(&draws, &[1, 2], 3);
        let lengths: Vec<u8> = boards.iter().map(length_of).collect();
        assert_eq!(lengths, [1, 2, 1, 2, 1, 2]);
        assert_eq!(boards[2], draws.with_length(1, Purpose::ShortBoards, 1));
        assert_eq!(boards[5], draws.with_length(2, Purpose::ShortBoards, 2));
    }

    #[test]
    fn first_letters_are_one_board_per_letter_and_length() {
        let draws = Draws::new(3);
        let lengths = [1, 3];
        let boards = first_letters(&draws, &lengths);
        let seen: Vec<(char, usize)> = boards
            .iter()
            .map(|board| {
                let moves = answer(board).moves;
                (moves.as_slice()[0].letter(), moves.len())
            })
            .collect();
        let wanted: Vec<(char, usize)> = Move::ALL
            .iter()
            .flat_map(|m| lengths.map(|length| (m.letter(), usize::from(length))))
            .collect();
        assert_eq!(seen, wanted);
    }

    /// The moves that bring `board` one move closer.
    fn closer(board: &Board) -> Vec<Move> {
        Move::ALL
            .into_iter()
            .filter(|&m| length_of(&board.apply(m)) + 1 == length_of(board))
            .collect()
    }

    #[test]
    fn move_order_pairs_have_exactly_two_moves_closer_each_pair_once() {
        let draws = Draws::new(3);
        let boards = move_order_pairs(&draws, &[3, 4, 5]);
        let pairs: Vec<(Move, Move)> = boards
            .iter()
            .map(|board| match closer(board)[..] {
                [x, y] => (x, y),
                ref other => panic!("{board}: {other:?} closer"),
            })
            .collect();
        let every_pair: Vec<(Move, Move)> = Move::ALL
            .iter()
            .flat_map(|&x| {
                Move::ALL
                    .into_iter()
                    .filter(move |&y| x < y)
                    .map(move |y| (x, y))
            })
            .collect();
        assert_eq!(pairs, every_pair);
    }

    #[test]
    fn exposing_finds_boards_the_mistake_gets_wrong_by_length() {
        let draws = Draws::new(3);
        let mistake = Mistake::MovesByEstimate;
        let boards = exposing(&draws, mistake, 1, &[3, 4], 2);
        let lengths: Vec<u8> = boards.iter().map(length_of).collect();
        assert_eq!(lengths, [3, 3, 4, 4]);
        for board in &boards {
            assert_eq!(mistake.fails(board, &answer(board)), Some(true), "{board}");
        }
        // Another range, other boards; the first board of the range that
        // the mistake gets wrong comes first.
        let other = exposing(&draws, mistake, 2, &[3], 1);
        assert_ne!(other[0], boards[0]);
        let first = (0..)
            .map(|index| draws.with_length(3, Purpose::Mistakes, 2 << 32 | index))
            .find(|board| mistake.fails(board, &answer(board)) == Some(true));
        assert_eq!(Some(other[0]), first);
    }

    #[test]
    fn move_pairs_hold_every_pair_an_answer_can_and_each_board_a_new_one() {
        let draws = Draws::new(3);
        let boards = move_pairs(&draws, &[5, 6]);
        let mut held = std::collections::BTreeSet::new();
        for board in &boards {
            let moves = answer(board).moves;
            let before = held.len();
            held.extend(mistake::consecutive_pairs(&moves));
            assert!(held.len() > before, "{board} holds no new pair");
        }
        let can_appear: std::collections::BTreeSet<usize> = (0..64)
            .filter(|&pair| mistake::pair_can_appear(Move::ALL[pair / 8], Move::ALL[pair % 8]))
            .collect();
        assert_eq!(held, can_appear);
    }

    #[test]
    fn lengths_and_digits_come_length_by_length_then_digit_by_digit() {
        let draws = Draws::new(3);
        let boards = lengths_and_digits(&draws, &[2, 5]);
        let seen: Vec<(u8, u8)> = boards
            .iter()
            .map(|board| (length_of(board), answer(board).centre.value()))
            .collect();
        assert_eq!(seen, [(2, 1), (2, 2), (2, 3), (5, 1), (5, 2), (5, 3)]);
        // The first of the draws with the digit.
        let first_two = (0..)
            .map(|index| draws.with_length(2, Purpose::LengthsAndDigits, index))
            .find(|board| answer(board).centre.value() == 2);
        assert_eq!(Some(boards[1]), first_two);
    }

    #[test]
    fn uniform_boards_are_the_uniform_draws_in_order() {
        let draws = Draws::new(3);
        let boards = uniform(&draws, 4);
        let expected: Vec<Board> = (0..4)
            .map(|index| draws.uniform(Purpose::Uniform, index))
            .collect();
        assert_eq!(boards, expected);
        assert_eq!(uniform(&draws, 0), []);
    }

    #[test]
    fn the_anti_heuristic_work_is_the_classic_searches_of_every_climb() {
        assert_eq!(anti_heuristic_work(&[]), 0);
        assert_eq!(anti_heuristic_work(&[1]), CLIMBS * 60);
        assert_eq!(anti_heuristic_work(&[10, 11, 12]), CLIMBS * (40 + 24 + 12));
    }

    #[test]
    fn hill_climbs_keep_the_length_count_their_searches_and_sort_by_nodes() {
        let draws = Draws::new(3);
        let lengths = [2, 3];
        let searches = std::sync::atomic::AtomicU64::new(0);
        let count = || {
            searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let climb = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| anti_heuristic(&draws, &lengths, &count))
        };
        let peaks = climb(1);
        assert_eq!(
            searches.load(std::sync::atomic::Ordering::Relaxed),
            anti_heuristic_work(&lengths)
        );
        assert_eq!(climb(2), peaks, "the threads change nothing");
        for (board, nodes) in &peaks {
            assert_eq!(*nodes, classic_effort::nodes(board), "{board}");
        }
        // By length, most nodes first, each board once.
        let key: Vec<(u8, std::cmp::Reverse<u64>)> = peaks
            .iter()
            .map(|(board, nodes)| (length_of(board), std::cmp::Reverse(*nodes)))
            .collect();
        let mut sorted = key.clone();
        sorted.sort();
        assert_eq!(key, sorted);
        assert!(key.first().is_some_and(|k| k.0 == 2) && key.last().is_some_and(|k| k.0 == 3));
        let mut boards: Vec<Board> = peaks.iter().map(|(board, _)| *board).collect();
        boards.sort_unstable();
        boards.dedup();
        assert_eq!(boards.len(), peaks.len());
        // A climb ends no lower than it starts: the peak of each length
        // costs at least what its first climb's start does.
        for length in lengths {
            let start = draws.with_length(length, Purpose::AntiHeuristic, u64::from(length) << 8);
            let peak = peaks
                .iter()
                .find(|(board, _)| length_of(board) == length)
                .unwrap();
            assert!(peak.1 >= classic_effort::nodes(&start));
        }
    }

    #[test]
    fn a_seed_s_climbs_find_the_same_peaks_every_time() {
        // The package's hardest files come from these climbs: a seed must
        // give the same boards on any machine (each climb's start and
        // proposals drawn from streams of its own).
        let peaks: Vec<(String, u64)> = anti_heuristic(&Draws::new(3), &[2, 3], &|| {})
            .into_iter()
            .map(|(board, nodes)| (board.to_string(), nodes))
            .collect();
        let expected = [
            ("3 3 2 1 3 2 1 1 1 3 2 1 1 2 2 3 1 1 2 2 3 2 3 3", 34),
            ("3 3 3 3 3 2 2 2 2 1 1 2 2 1 1 2 2 1 1 3 3 1 1 3", 30),
            ("2 2 2 2 1 1 3 3 2 1 1 3 3 2 2 3 3 3 1 1 3 1 1 2", 27),
            ("1 1 3 2 1 3 2 2 2 3 1 2 3 3 1 2 2 2 3 1 1 3 3 1", 94),
            ("2 1 1 2 1 3 1 3 1 2 2 3 3 2 2 2 3 3 3 2 3 1 1 1", 40),
            ("3 3 1 1 3 1 3 2 2 2 1 3 2 1 1 1 2 2 2 1 2 3 3 3", 30),
        ]
        .map(|(board, nodes)| (board.to_owned(), nodes));
        assert_eq!(peaks, expected);
    }

    #[test]
    fn a_hill_climb_climbs() {
        let draws = Draws::new(3);
        let start = draws.with_length(4, Purpose::AntiHeuristic, 0);
        let searches = std::sync::atomic::AtomicU64::new(0);
        let count = || {
            searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let mut rng = draws.rng(Purpose::AntiHeuristic, 0);
        let (peak, nodes) = hill_climb(start, &mut rng, 30, &count);
        assert_eq!(searches.load(std::sync::atomic::Ordering::Relaxed), 30);
        assert_eq!(length_of(&peak), 4);
        assert_eq!(nodes, classic_effort::nodes(&peak));
        assert!(
            nodes > classic_effort::nodes(&start),
            "{start} did not climb"
        );
        assert_eq!(
            (peak.to_string(), nodes),
            (
                "2 2 2 3 3 3 3 3 1 2 2 1 1 3 1 1 1 1 3 2 1 2 3 2".to_owned(),
                284
            )
        );
        // One search is the start's alone.
        let mut rng = draws.rng(Purpose::AntiHeuristic, 0);
        let alone = hill_climb(start, &mut rng, 1, &count);
        assert_eq!(alone, (start, classic_effort::nodes(&start)));
    }

    #[test]
    fn a_climb_whose_proposals_are_all_refused_gives_up_after_its_limit() {
        let draws = Draws::new(3);
        let start = draws.with_length(4, Purpose::AntiHeuristic, 0);
        let evaluations = 3;
        let limit = MOST_PROPOSALS_PER_SEARCH * evaluations;
        // The proposals the climb draws, replayed from the same stream: a
        // pair of cells with equal digits is no proposal and is not offered.
        let mut replay = draws.rng(Purpose::AntiHeuristic, 1);
        let values = start.values();
        let mut differs = || {
            let first = replay.below(24) as usize;
            let second = replay.below(24) as usize;
            values[first] != values[second]
        };
        let offered = (0..limit).filter(|_| differs()).count();
        assert!(differs(), "the proposal after the limit would be offered");
        let searches = std::sync::atomic::AtomicU64::new(0);
        let count = || {
            searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let refusals = std::cell::Cell::new(0);
        let refuse = |_: &Board| {
            refusals.set(refusals.get() + 1);
            assert!(
                refusals.get() <= offered,
                "still proposing after {offered} offers"
            );
            false
        };
        let mut rng = draws.rng(Purpose::AntiHeuristic, 1);
        let peak = climb(start, &mut rng, evaluations, &count, &refuse);
        assert_eq!(peak, (start, classic_effort::nodes(&start)));
        assert_eq!(
            refusals.get(),
            offered,
            "proposals offered before giving up"
        );
        assert_eq!(
            searches.load(std::sync::atomic::Ordering::Relaxed),
            evaluations,
            "the searches not run are reported"
        );
    }
}
