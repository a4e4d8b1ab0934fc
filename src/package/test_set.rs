//! The test set: which files, holding which boards, in which order.
//!
//! # Design
//!
//! Its job is to fail every wrong solution, and to do it early: a judge
//! stops a submission at its first failing file, so the files that catch
//! mistakes with few short boards come first, and the files that cost a
//! correct IDA* real time come last. No file before the lengths of 10 moves
//! and more holds a board of more than nine moves, so a search without an
//! estimate gets through them quickly and then meets a board of 12 moves,
//! where it runs out of time.
//!
//! Every list longer than the case limit is cut into files of at most that
//! many cases. Then, by [`HardestBoards`]:
//!
//! - [`HardestBoards::OnePerDigit`] (the default): the boards of 13 moves
//!   are three, one per centre digit, of the relabelling class the classic
//!   IDA* finds cheapest, each in a file of its own, last. No other file
//!   costs the classic IDA* more than one of them: a file is cut where its
//!   boards would together, and a board that alone would is left out. So
//!   the slowest file of any IDA* is one board of 13 moves, and the time
//!   limit is a few times that.
//! - [`HardestBoards::All`]: all 192 boards of 13 moves, the 30 the classic
//!   IDA* finds slowest in one file (the maximum file), the others in files
//!   of half the case limit.

use rustc_hash::FxHashMap;

use crate::board::Board;
use crate::generator::hardest_boards;
use crate::package::mistake::{BEST_FIRST_MAX_LENGTH, Mistake};
use crate::package::search::{self, Draws};
use crate::package::{HardestBoards, Progress, Stage, classic_effort};
use crate::sample;

/// Which group of the package a test file belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Group {
    /// `data/sample/`: shown in the statement.
    Sample,
    /// `data/secret/`: the judges' tests.
    Secret,
}

/// One test file: its name (without extension), what it is for, and its
/// boards.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TestFile {
    /// The name, numbered so that the files sort in the order they run:
    /// `03-tie-break-move-order`.
    pub name: String,
    /// Its group.
    pub group: Group,
    /// What it tests, in a sentence.
    pub purpose: String,
    /// Its boards, in order.
    #[serde(skip)]
    pub boards: Vec<Board>,
}

/// A file before it is numbered and cut to the case limit.
struct Planned {
    stem: String,
    purpose: String,
    boards: Vec<Board>,
}

impl Planned {
    fn new(stem: &str, purpose: impl Into<String>, boards: Vec<Board>) -> Planned {
        Planned {
            stem: stem.to_owned(),
            purpose: purpose.into(),
            boards,
        }
    }
}

/// Solved boards per centre digit.
const SOLVED_PER_DIGIT: usize = 4;
/// The lengths of the answers for each first letter.
const FIRST_LETTER_LENGTHS: [u8; 3] = [2, 4, 6];
/// The lengths of the tie-break boards: short, so that every search gets
/// through them quickly, and within the best-first model's reach.
const TIE_BREAK_LENGTHS: [u8; 6] = [3, 4, 5, 6, 7, 8];
const _: () = assert!(TIE_BREAK_LENGTHS[TIE_BREAK_LENGTHS.len() - 1] <= BEST_FIRST_MAX_LENGTH);
/// Boards per length in the tie-break files found by a mistake's model.
const PER_LENGTH: usize = 4;
/// The lengths of the boards whose answers cover the pairs of moves.
const MOVE_PAIR_LENGTHS: [u8; 5] = [5, 6, 7, 8, 9];
/// The lengths, each with each centre digit, of the two length files.
const SHORT_LENGTHS: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const LONG_LENGTHS: [u8; 4] = [10, 11, 12, 13];
/// Uniformly random boards.
const UNIFORM_BOARDS: u64 = 30;
/// The lengths of the two anti-heuristic files (13 has files of its own).
const ANTI_HEURISTIC_SHORT: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const ANTI_HEURISTIC_LONG: [u8; 3] = [10, 11, 12];

/// The test files for `draws`, with at most `max_cases` cases each, and the
/// classic IDA*'s nodes on each of their boards.
pub(crate) fn design(
    draws: &Draws,
    max_cases: usize,
    shape: HardestBoards,
    progress: &(dyn Fn(Progress) + Sync),
) -> (Vec<TestFile>, FxHashMap<Board, u64>) {
    let report = |stage, done, total| progress(Progress { stage, done, total });
    report(Stage::Searching, 0, 1);
    let mut planned = searched_files(draws, shape);
    report(Stage::Searching, 1, 1);

    let lengths: Vec<u8> = ANTI_HEURISTIC_SHORT
        .iter()
        .chain(&ANTI_HEURISTIC_LONG)
        .copied()
        .collect();
    let total = search::anti_heuristic_work(&lengths);
    let counter = Counter::new(Stage::Climbing, total, progress);
    let climbed = search::anti_heuristic(draws, &lengths, &|| counter.tick());
    let (short, long): (Vec<_>, Vec<_>) = climbed
        .iter()
        .partition(|(board, _)| board_length(board) <= 9);
    planned.push(Planned::new(
        "anti-heuristic-1-to-9",
        format!(
            "for each length 1 to 9, the boards that {} seeded hill climbs made the classic IDA* generate the most nodes on",
            search::CLIMBS
        ),
        short.iter().map(|(board, _)| *board).collect(),
    ));
    planned.push(Planned::new(
        "anti-heuristic-10-to-12",
        "the same for lengths 10 to 12",
        long.iter().map(|(board, _)| *board).collect(),
    ));

    let hardest = hardest_boards();
    let mut every_board: Vec<Board> = planned
        .iter()
        .flat_map(|file| file.boards.iter().copied())
        .chain(hardest.iter().copied())
        .chain(sample::boards())
        .collect();
    every_board.sort_unstable();
    every_board.dedup();
    let known: FxHashMap<Board, u64> = climbed.iter().copied().collect();
    let counter = Counter::new(
        Stage::MeasuringClassic,
        classic_effort::searches_needed(&every_board, &known) as u64,
        progress,
    );
    let counts = classic_effort::classic_nodes(&every_board, &known, &|| counter.tick());
    let nodes: FxHashMap<Board, u64> = every_board.iter().copied().zip(counts).collect();

    match shape {
        HardestBoards::OnePerDigit => {
            // The cheapest boards of 13 moves, one per digit, each in a file
            // of its own: together they fail a search capped at 12 moves,
            // and none costs a plain IDA* more than one such board.
            let cheapest = hardest
                .iter()
                .map(|board| nodes[board])
                .min()
                .expect("there are boards of 13 moves");
            let mut per_digit: Vec<Board> = (1..=3)
                .filter_map(|digit| {
                    hardest
                        .iter()
                        .copied()
                        .filter(|board| nodes[board] == cheapest && answer_digit(board) == digit)
                        .min()
                })
                .collect();
            per_digit.sort_by_key(answer_digit);
            // The other files keep to the same cost: a board that costs the
            // classic IDA* more than the cheapest board of 13 moves is left
            // out, and a file is cut where its boards together would.
            for file in &mut planned {
                file.boards.retain(|board| nodes[board] <= cheapest);
            }
            for board in per_digit {
                planned.push(Planned::new(
                    &format!("thirteen-moves-digit-{}", answer_digit(&board)),
                    format!(
                        "a board of 13 moves, the most any board needs, with {} in the centre: of the 192, one the classic IDA* finds cheapest",
                        answer_digit(&board)
                    ),
                    vec![board],
                ));
            }
            (number(planned, max_cases, Some((cheapest, &nodes))), nodes)
        }
        HardestBoards::All => {
            // The maximum file: the boards the classic IDA* finds slowest.
            let mut slowest = every_board.clone();
            slowest.sort_by_key(|board| (std::cmp::Reverse(nodes[board]), *board));
            slowest.truncate(max_cases);
            let rest: Vec<Board> = hardest
                .iter()
                .copied()
                .filter(|board| !slowest.contains(board))
                .collect();
            let in_max_file = hardest.len() - rest.len();
            let hardest_files = split_evenly(&rest, max_cases.div_ceil(2));
            let parts = hardest_files.len();
            for (part, boards) in hardest_files.into_iter().enumerate() {
                planned.push(Planned::new(
                    &format!("hardest-{}", part + 1),
                    format!(
                        "boards of 13 moves, the most any board needs: part {} of {parts} of the {} not in the maximum file",
                        part + 1,
                        rest.len()
                    ),
                    boards,
                ));
            }
            planned.push(Planned::new(
                "max-classic",
                format!(
                    "the {} boards on which the classic IDA* generates the most nodes ({in_max_file} of them of 13 moves): the maximum file",
                    slowest.len()
                ),
                slowest,
            ));
            (number(planned, max_cases, None), nodes)
        }
    }
}

/// The centre digit `board`'s answer leaves.
fn answer_digit(board: &Board) -> u8 {
    search::answer(board).centre.value()
}

/// The files whose boards come from the cheap searches, in order.
fn searched_files(draws: &Draws, shape: HardestBoards) -> Vec<Planned> {
    let solved = search::solved_boards(draws, SOLVED_PER_DIGIT);
    let short = search::short_boards(draws, &[1, 2], 3);
    let mut mixed = Vec::new();
    for (at, board) in solved.iter().enumerate() {
        mixed.push(*board);
        mixed.extend(short.get(at));
    }
    let estimate_order = search::exposing(
        draws,
        Mistake::MovesByEstimate,
        1,
        &TIE_BREAK_LENGTHS,
        PER_LENGTH,
    );
    let best_first = search::exposing(
        draws,
        Mistake::BestFirstFirstGoal,
        2,
        &TIE_BREAK_LENGTHS,
        PER_LENGTH,
    );
    let digit_ties = search::exposing(
        draws,
        Mistake::SmallerDigitOnTies,
        3,
        &TIE_BREAK_LENGTHS,
        PER_LENGTH,
    );
    vec![
        Planned::new(
            "solved-boards",
            format!(
                "boards already solved, {SOLVED_PER_DIGIT} with each digit in the centre (answer \"No moves needed\" and the digit), between boards of 1 and 2 moves"
            ),
            mixed,
        ),
        Planned::new(
            "first-letters",
            "for each letter A to H, answers of 2, 4 and 6 moves that start with it",
            search::first_letters(draws, &FIRST_LETTER_LENGTHS),
        ),
        Planned::new(
            "tie-break-move-order",
            "for each pair of moves x < y, a board from which only x and y lead one move closer: a search trying the moves in any fixed order other than A to H answers one of them wrongly",
            search::move_order_pairs(draws, &TIE_BREAK_LENGTHS),
        ),
        Planned::new(
            "tie-break-estimate-order",
            format!(
                "boards of {} moves that IDA* trying the moves in order of their estimates answers with another shortest sequence",
                lengths_of(&estimate_order)
            ),
            estimate_order,
        ),
        Planned::new(
            "tie-break-first-goal",
            format!(
                "boards of {} moves that a best-first search stopping at the first solved board it generates answers with another shortest sequence",
                lengths_of(&best_first)
            ),
            best_first,
        ),
        Planned::new(
            "tie-break-digit",
            format!(
                "boards of {} moves where two digits need the fewest moves and the smaller digit's sequence is not the smallest",
                lengths_of(&digit_ties)
            ),
            digit_ties,
        ),
        Planned::new(
            "move-pairs",
            "answers that together hold all 48 pairs of consecutive moves an answer can hold: a search that never plays some move right after another answers one wrongly",
            search::move_pairs(draws, &MOVE_PAIR_LENGTHS),
        ),
        Planned::new(
            "lengths-1-to-9-each-digit",
            "every optimal length from 1 to 9, each with each centre digit",
            search::lengths_and_digits(draws, &SHORT_LENGTHS),
        ),
        match shape {
            HardestBoards::OnePerDigit => Planned::new(
                "lengths-10-to-12-each-digit",
                "every optimal length from 10 to 12, each with each centre digit (13 moves have files of their own, last)",
                search::lengths_and_digits(draws, &LONG_LENGTHS[..LONG_LENGTHS.len() - 1]),
            ),
            HardestBoards::All => Planned::new(
                "lengths-10-to-13-each-digit",
                "every optimal length from 10 to 13, each with each centre digit",
                search::lengths_and_digits(draws, &LONG_LENGTHS),
            ),
        },
        Planned::new(
            "uniform-random",
            "uniformly random boards, as most real inputs are",
            search::uniform(draws, UNIFORM_BOARDS),
        ),
    ]
}

/// The optimal length of `board`.
fn board_length(board: &Board) -> u8 {
    crate::pattern_database::optimal_length(board).moves()
}

/// The optimal lengths of `boards`, as a range (`3 to 8`) when they follow
/// each other, else listed.
fn lengths_of(boards: &[Board]) -> String {
    let mut lengths: Vec<u8> = boards.iter().map(board_length).collect();
    lengths.sort_unstable();
    lengths.dedup();
    match lengths[..] {
        [] => "no".to_owned(),
        [first, .., last] if usize::from(last - first) + 1 == lengths.len() => {
            format!("{first} to {last}")
        }
        // One length (which the range's pattern of two ends leaves out) is
        // a list of one.
        _ => lengths
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// `boards` cut into the fewest pieces of at most `most` boards, as even as
/// they can be.
fn split_evenly(boards: &[Board], most: usize) -> Vec<Vec<Board>> {
    let pieces = boards.len().div_ceil(most.max(1));
    let mut out = Vec::with_capacity(pieces);
    let mut start = 0;
    for piece in 0..pieces {
        let end = boards.len() * (piece + 1) / pieces;
        out.push(boards[start..end].to_vec());
        start = end;
    }
    out
}

/// `boards` in order, cut into the fewest runs whose classic nodes add up
/// to at most `most` (a board above it alone in its run).
fn split_by_cost(boards: &[Board], most: u64, nodes: &FxHashMap<Board, u64>) -> Vec<Vec<Board>> {
    let mut out: Vec<Vec<Board>> = Vec::new();
    let mut cost = 0u64;
    for board in boards {
        let own = nodes[board];
        let with_it = cost.saturating_add(own);
        match out.last_mut() {
            Some(run) if with_it <= most => {
                run.push(*board);
                cost = with_it;
            }
            _ => {
                out.push(vec![*board]);
                cost = own;
            }
        }
    }
    out
}

/// The sample and the planned files, cut to at most `max_cases` cases and
/// numbered in order. With a `budget` (classic nodes, and every board's
/// count), a file is also cut where its boards would together cost the
/// classic IDA* more than the budget.
fn number(
    planned: Vec<Planned>,
    max_cases: usize,
    budget: Option<(u64, &FxHashMap<Board, u64>)>,
) -> Vec<TestFile> {
    let mut pieces = Vec::new();
    for file in planned {
        let cut: Vec<Vec<Board>> = split_evenly(&file.boards, max_cases)
            .into_iter()
            .flat_map(|piece| match budget {
                Some((most, nodes)) => split_by_cost(&piece, most, nodes),
                None => vec![piece],
            })
            .collect();
        let count = cut.len();
        for (part, boards) in cut.into_iter().enumerate() {
            let (stem, purpose) = if count == 1 {
                (file.stem.clone(), file.purpose.clone())
            } else {
                (
                    format!("{}-part-{}", file.stem, part + 1),
                    format!("{} (part {} of {count})", file.purpose, part + 1),
                )
            };
            pieces.push((stem, purpose, boards));
        }
    }
    let width = pieces.len().to_string().len().max(2);
    let mut files = vec![TestFile {
        name: "statement".to_owned(),
        group: Group::Sample,
        purpose: "the statement's sample".to_owned(),
        boards: sample::boards(),
    }];
    for (index, (stem, purpose, boards)) in pieces.into_iter().enumerate() {
        files.push(TestFile {
            name: format!("{:0width$}-{stem}", index + 1),
            group: Group::Secret,
            purpose,
            boards,
        });
    }
    files
}

/// Counts work done by several threads and reports it.
struct Counter<'a> {
    stage: Stage,
    total: u64,
    done: std::sync::atomic::AtomicU64,
    progress: &'a (dyn Fn(Progress) + Sync),
}

impl<'a> Counter<'a> {
    fn new(stage: Stage, total: u64, progress: &'a (dyn Fn(Progress) + Sync)) -> Counter<'a> {
        progress(Progress {
            stage,
            done: 0,
            total,
        });
        Counter {
            stage,
            total,
            done: std::sync::atomic::AtomicU64::new(0),
            progress,
        }
    }

    fn tick(&self) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        (self.progress)(Progress {
            stage: self.stage,
            done,
            total: self.total,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Digit;

    #[test]
    fn split_evenly_cuts_into_the_fewest_even_pieces() {
        let boards = sample::boards().repeat(5);
        let sizes =
            |most| -> Vec<usize> { split_evenly(&boards, most).iter().map(Vec::len).collect() };
        assert_eq!(sizes(10), [10]);
        assert_eq!(sizes(4), [3, 3, 4]);
        assert_eq!(sizes(1), [1; 10]);
        assert!(split_evenly(&[], 3).is_empty());
    }

    /// A board of each of `lengths`, from seed 1.
    fn boards_of_lengths(lengths: &[u8]) -> Vec<Board> {
        let draws = Draws::new(1);
        lengths
            .iter()
            .map(|&length| draws.with_length(length, search::Purpose::Uniform, 0))
            .collect()
    }

    #[test]
    fn lengths_are_a_range_when_they_follow_each_other_else_a_list() {
        assert_eq!(lengths_of(&[]), "no");
        assert_eq!(lengths_of(&boards_of_lengths(&[4, 4])), "4");
        assert_eq!(lengths_of(&boards_of_lengths(&[5, 3, 4, 3])), "3 to 5");
        assert_eq!(lengths_of(&boards_of_lengths(&[2, 3])), "2 to 3");
        assert_eq!(lengths_of(&boards_of_lengths(&[3, 5])), "3, 5");
        assert_eq!(lengths_of(&boards_of_lengths(&[9, 2, 3, 4])), "2, 3, 4, 9");
        assert_eq!(board_length(&sample::boards()[0]), 2);
    }

    #[test]
    fn a_board_s_answer_digit_is_the_centre_its_answer_leaves() {
        let digits: Vec<u8> = sample::boards().iter().map(answer_digit).collect();
        assert_eq!(digits, [2, 2]);
        // Solved, with 3 in the centre: no moves, and the digit is 3.
        let outer: [bool; 16] = std::array::from_fn(|cell| cell % 2 == 0);
        let solved_with_3 = crate::generator::solved_board_with(Digit::ALL[2], &outer);
        assert_eq!(answer_digit(&solved_with_3), 3);
    }

    #[test]
    fn a_run_takes_boards_while_their_nodes_add_up_to_the_most() {
        let boards = boards_of_lengths(&[1, 2, 3, 4, 5, 6]);
        let nodes: FxHashMap<Board, u64> = boards
            .iter()
            .copied()
            .zip([4, 6, 1, 11, 5, u64::MAX])
            .collect();
        let runs = |most| -> Vec<usize> {
            split_by_cost(&boards, most, &nodes)
                .iter()
                .map(Vec::len)
                .collect()
        };
        // 4 + 6 = 10; 1; 11 alone, above the most; 5; the last alone,
        // where adding it to a run must not wrap round.
        assert_eq!(runs(10), [2, 1, 1, 1, 1]);
        assert_eq!(runs(11), [3, 1, 1, 1]);
        assert_eq!(runs(16), [3, 2, 1]);
        assert_eq!(runs(u64::MAX), [6]);
        assert_eq!(split_by_cost(&boards, 10, &nodes).concat(), boards);
        assert!(split_by_cost(&[], 10, &nodes).is_empty());
    }

    #[test]
    fn files_are_numbered_in_order_after_the_sample_and_cut_to_the_case_limit() {
        let boards = boards_of_lengths(&[1, 2, 3, 4, 5]);
        let planned = || {
            vec![
                Planned::new("first", "the first", boards[..2].to_vec()),
                Planned::new("second", "the second", boards.clone()),
            ]
        };
        let files = number(planned(), 3, None);
        let names: Vec<&str> = files.iter().map(|file| file.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "statement",
                "01-first",
                "02-second-part-1",
                "03-second-part-2"
            ]
        );
        assert_eq!(files[0].group, Group::Sample);
        assert_eq!(files[0].boards, sample::boards());
        assert!(files[1..].iter().all(|file| file.group == Group::Secret));
        assert_eq!(files[1].purpose, "the first");
        assert_eq!(files[2].purpose, "the second (part 1 of 2)");
        assert_eq!(files[3].purpose, "the second (part 2 of 2)");
        assert_eq!(
            [&files[2].boards[..], &files[3].boards[..]].concat(),
            boards
        );

        // With a budget, each piece is cut again where its boards together
        // cost more.
        let nodes: FxHashMap<Board, u64> = boards.iter().copied().zip([1, 1, 1, 1, 1]).collect();
        let sizes = |budget| -> Vec<usize> {
            number(planned(), 3, Some((budget, &nodes)))
                .iter()
                .map(|file| file.boards.len())
                .collect()
        };
        assert_eq!(sizes(1), [2, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(sizes(2), [2, 2, 2, 2, 1]);

        // Numbers are as wide as the last one needs, two digits at least.
        let many: Vec<Planned> = (0..100)
            .map(|at| Planned::new(&at.to_string(), "", boards[..1].to_vec()))
            .collect();
        let files = number(many, 3, None);
        assert_eq!(files[1].name, "001-0");
        assert_eq!(files[100].name, "100-99");
    }

    #[test]
    fn a_counter_reports_its_start_and_every_tick_with_the_stage_s_total() {
        let seen = std::sync::Mutex::new(Vec::new());
        let progress = |progress: Progress| {
            seen.lock()
                .unwrap()
                .push((progress.stage, progress.done, progress.total))
        };
        let counter = Counter::new(Stage::Climbing, 3, &progress);
        counter.tick();
        counter.tick();
        assert_eq!(
            *seen.lock().unwrap(),
            [
                (Stage::Climbing, 0, 3),
                (Stage::Climbing, 1, 3),
                (Stage::Climbing, 2, 3)
            ]
        );
    }
}
