//! Mistakes contestants make, as models: what a solution with the mistake
//! answers, so that a search can find the boards that expose it and the
//! report can say which test files catch it.
//!
//! # Overview
//!
//! A [`Mistake`] names one wrong solution's flaw; [`Mistake::fails`] says
//! whether that solution answers a board wrongly. The models are exact for
//! the planted wrong solutions of the package (`src/package/standalone/`),
//! which make these mistakes and no other: a test runs each program on a
//! test file its model says it fails.
//!
//! Two families cover every variant of a mistake at once:
//!
//! - **Fixed move orders.** An exact search that tries the moves in a fixed
//!   order finds first the sequence that order ranks smallest: from each
//!   board on the way, it plays the first move in its order that brings the
//!   board one move closer. Along the right answer, each board has a set of
//!   moves that lead one move closer, the answer taking the smallest letter.
//!   An order gets the board wrong exactly when it ranks another move of
//!   such a set before the answer's ([`tie_break_pairs`]), and
//!   [`orders_failing`] counts the orders that get some board of a file
//!   wrong, out of the 40,319 orders other than A..H.
//! - **Forbidden pairs.** A search that never plays some move `y` right
//!   after a move `x` (other than its inverse, which no shortest sequence
//!   holds) misses exactly the answers holding `x` then `y`. Of the 64 pairs,
//!   48 can appear in an answer ([`pair_can_appear`]): the other 16 are the
//!   eight inverse pairs and the eight pairs of commuting moves (on disjoint
//!   lines) in decreasing order, since swapping them gives a smaller
//!   sequence of the same length.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use crate::board::{Board, Digit};
use crate::moves::{Move, MoveSequence};
use crate::package::classic_search;
use crate::pattern_database::{distance, optimal_length};
use crate::solver::{Solution, descend};

/// A flaw of a wrong solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Mistake {
    /// It prints `No moves needed` without the digit line.
    NoDigitAfterNoMovesNeeded,
    /// It prints the digit in cell 6 of the board it was given, not of the
    /// board its moves lead to.
    DigitOfStartBoard,
    /// It stops deepening beyond 12 moves.
    DepthCappedAt12,
    /// No search: it plays the move with the least classic estimate (the
    /// first letter on ties), never undoing its last move, until solved or
    /// 30 moves.
    GreedyByEstimate,
    /// IDA* that tries, at each board, the moves in order of their
    /// children's classic estimates (by letter on ties).
    MovesByEstimate,
    /// Best-first search (A*) with the classic estimate, first found first
    /// on ties, that stops at the first solved board it generates.
    BestFirstFirstGoal,
    /// A search per digit, 1 then 2 then 3, with a shared bound: on a tie
    /// between digits it answers for the smaller digit.
    SmallerDigitOnTies,
    /// An exact search that tries the moves in this order.
    MoveOrder(MoveOrder),
    /// An exact search that never plays the pairs of this rule.
    ForbiddenPairs(PairRule),
}

/// A rule for consecutive moves that a wrong pruning forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PairRule {
    /// The same move twice in a row.
    SameMove,
    /// A move and the letter four places on (A and E, B and F, C and G, D
    /// and H, either way round): the move's "inverse" by a wrong formula.
    OppositeLetter,
}

impl PairRule {
    /// Whether the rule forbids playing `second` right after `first`.
    pub fn forbids(self, first: Move, second: Move) -> bool {
        match self {
            PairRule::SameMove => first == second,
            PairRule::OppositeLetter => (first.index() + 4) % 8 == second.index(),
        }
    }
}

/// An order of the eight moves, in which a search tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveOrder(pub [Move; 8]);

impl MoveOrder {
    /// The moves' letters in this order: `AFBECHDG`.
    pub fn letters(&self) -> String {
        self.0.iter().map(|m| m.letter()).collect()
    }
}

impl serde::Serialize for MoveOrder {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.letters())
    }
}

/// The moves line by line, each before its inverse: A F B E C H D G.
pub const LINE_PAIRS_ORDER: MoveOrder = {
    let mut order = [Move::ALL[0]; 8];
    let indices = [0, 5, 1, 4, 2, 7, 3, 6];
    let mut i = 0;
    while i < 8 {
        order[i] = Move::ALL[indices[i]];
        i += 1;
    }
    MoveOrder(order)
};

/// The greatest optimal length on which [`Mistake::BestFirstFirstGoal`] is
/// modelled: beyond it the search holds millions of boards.
pub const BEST_FIRST_MAX_LENGTH: u8 = 10;

/// How many moves [`Mistake::GreedyByEstimate`] plays at most.
const GREEDY_MAX_MOVES: usize = 30;

impl Mistake {
    /// What the mistake is, in a few words.
    pub fn describe(self) -> String {
        match self {
            Mistake::NoDigitAfterNoMovesNeeded => {
                "no digit line after \"No moves needed\"".to_owned()
            }
            Mistake::DigitOfStartBoard => {
                "the digit of cell 6 before the moves, not after".to_owned()
            }
            Mistake::DepthCappedAt12 => "a search that gives up beyond 12 moves".to_owned(),
            Mistake::GreedyByEstimate => {
                "greedy: the move with the best classic estimate, no search".to_owned()
            }
            Mistake::MovesByEstimate => {
                "IDA* trying the moves in order of their estimates".to_owned()
            }
            Mistake::BestFirstFirstGoal => {
                "best-first search (A*) stopping at the first solved board it generates".to_owned()
            }
            Mistake::SmallerDigitOnTies => {
                "a search per digit that answers for the smaller digit on ties".to_owned()
            }
            Mistake::MoveOrder(order) => format!("moves tried in the order {}", order.letters()),
            Mistake::ForbiddenPairs(PairRule::SameMove) => {
                "never the same move twice in a row".to_owned()
            }
            Mistake::ForbiddenPairs(PairRule::OppositeLetter) => {
                "the letter four places on taken for the inverse (A-E, B-F, C-G, D-H)".to_owned()
            }
        }
    }

    /// Whether a solution with this mistake answers `board` wrongly, given
    /// the right `answer`; `None` when the model is not run on this board
    /// ([`Mistake::BestFirstFirstGoal`] beyond [`BEST_FIRST_MAX_LENGTH`]
    /// moves).
    pub fn fails(self, board: &Board, answer: &Solution) -> Option<bool> {
        let found = match self {
            Mistake::NoDigitAfterNoMovesNeeded => return Some(answer.moves.is_empty()),
            Mistake::DigitOfStartBoard => return Some(board.digit_at(6) != answer.centre),
            Mistake::DepthCappedAt12 => return Some(answer.moves.len() > 12),
            Mistake::GreedyByEstimate => greedy_by_estimate(board),
            Mistake::MovesByEstimate => first_found(board, moves_by_estimate),
            Mistake::BestFirstFirstGoal => {
                if answer.moves.len() > usize::from(BEST_FIRST_MAX_LENGTH) {
                    return None;
                }
                best_first_first_goal(board)
            }
            Mistake::SmallerDigitOnTies => smaller_digit_on_ties(board),
            Mistake::MoveOrder(order) => {
                descend(board, &order.0, |b| optimal_length(b).moves()).moves
            }
            Mistake::ForbiddenPairs(rule) => {
                let moves = answer.moves.as_slice();
                return Some(moves.windows(2).any(|pair| rule.forbids(pair[0], pair[1])));
            }
        };
        Some(found != answer.moves)
    }
}

/// The classic estimate: 8 minus the count of the commonest centre digit.
pub(crate) fn estimate(board: &Board) -> u8 {
    classic_search::estimate(board)
}

/// The first shortest sequence an exact search finds when it tries, at each
/// board, the moves in the order `order_at(board, last move)` gives: from
/// the board, the first move of that order that brings it one move closer,
/// again and again. (A pass of IDA* at the optimal length explores a child
/// to the end before the next, and finds a solution below it exactly when
/// the child is one move closer.)
fn first_found(
    board: &Board,
    order_at: impl Fn(&Board, Option<Move>) -> Vec<Move>,
) -> MoveSequence {
    let mut moves = MoveSequence::new();
    let mut current = *board;
    let mut remaining = optimal_length(board).moves();
    while remaining > 0 {
        let closer = order_at(&current, moves.last())
            .into_iter()
            .find(|&m| optimal_length(&current.apply(m)).moves() == remaining - 1)
            .expect("an exact distance above 0 has a neighbour one closer");
        moves.push(closer);
        current = current.apply(closer);
        remaining -= 1;
    }
    moves
}

/// The moves from `board`, except the inverse of `last`, by their
/// children's classic estimates, then by letter.
fn moves_by_estimate(board: &Board, last: Option<Move>) -> Vec<Move> {
    let undo = last.map(Move::inverse);
    let mut moves: Vec<Move> = Move::ALL.into_iter().filter(|&m| Some(m) != undo).collect();
    moves.sort_by_key(|&m| estimate(&board.apply(m)));
    moves
}

/// What [`Mistake::GreedyByEstimate`] plays.
fn greedy_by_estimate(board: &Board) -> MoveSequence {
    let mut moves = MoveSequence::new();
    let mut current = *board;
    while !current.is_solved() && moves.len() < GREEDY_MAX_MOVES {
        let undo = moves.last().map(Move::inverse);
        let best = Move::ALL
            .into_iter()
            .filter(|&m| Some(m) != undo)
            .min_by_key(|&m| estimate(&current.apply(m)))
            .expect("seven moves remain");
        moves.push(best);
        current = current.apply(best);
    }
    moves
}

/// What [`Mistake::BestFirstFirstGoal`] answers: boards taken in order of
/// moves plus estimate, then of discovery; a board already reached in as
/// few moves is not queued again; the first solved child generated ends
/// the search.
fn best_first_first_goal(board: &Board) -> MoveSequence {
    struct Node {
        board: Board,
        moves: u8,
        parent: usize,
        last: Option<Move>,
    }
    if board.is_solved() {
        return MoveSequence::new();
    }
    let mut nodes = vec![Node {
        board: *board,
        moves: 0,
        parent: usize::MAX,
        last: None,
    }];
    let mut fewest_moves: FxHashMap<Board, u8> = FxHashMap::default();
    fewest_moves.insert(*board, 0);
    let mut open = BinaryHeap::new();
    open.push(Reverse((estimate(board), 0usize)));
    while let Some(Reverse((_, index))) = open.pop() {
        let (current, moves, last) = (nodes[index].board, nodes[index].moves, nodes[index].last);
        if fewest_moves[&current] < moves {
            continue;
        }
        for m in Move::ALL {
            if Some(m) == last.map(Move::inverse) {
                continue;
            }
            let child = current.apply(m);
            if child.is_solved() {
                let mut path = vec![m];
                let mut at = index;
                while let Some(step) = nodes[at].last {
                    path.push(step);
                    at = nodes[at].parent;
                }
                return path.into_iter().rev().collect();
            }
            let child_moves = moves + 1;
            if fewest_moves
                .get(&child)
                .is_some_and(|&seen| seen <= child_moves)
            {
                continue;
            }
            fewest_moves.insert(child, child_moves);
            nodes.push(Node {
                board: child,
                moves: child_moves,
                parent: index,
                last: Some(m),
            });
            open.push(Reverse((child_moves + estimate(&child), nodes.len() - 1)));
        }
    }
    unreachable!("every board can be solved")
}

/// What [`Mistake::SmallerDigitOnTies`] answers: the smallest sequence for
/// the smallest digit that needs the fewest moves.
fn smaller_digit_on_ties(board: &Board) -> MoveSequence {
    let needs = |digit: Digit| distance(board.cells_of(digit));
    let digit = Digit::ALL
        .into_iter()
        .min_by_key(|&digit| needs(digit))
        .expect("three digits");
    descend(board, &Move::ALL, |b| distance(b.cells_of(digit))).moves
}

/// The pairs `(x, y)`, `x` the answer's move and `y` another move one move
/// closer from the same board, along the right answer for `board`. An
/// exact search with a fixed move order gets the board wrong exactly when
/// its order puts some `y` before its `x` (see the [module docs](self)).
pub(crate) fn tie_break_pairs(board: &Board) -> Vec<(Move, Move)> {
    let mut pairs = Vec::new();
    let mut current = *board;
    let mut remaining = optimal_length(board).moves();
    while remaining > 0 {
        let closer: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| optimal_length(&current.apply(m)).moves() == remaining - 1)
            .collect();
        let first = closer[0];
        pairs.extend(closer[1..].iter().map(|&other| (first, other)));
        current = current.apply(first);
        remaining -= 1;
    }
    pairs
}

/// How many of the 8! move orders keep every pair `(x, y)` of `pairs` with
/// `x` before `y`: the linear extensions of the order the pairs make,
/// counted over the subsets of moves already placed.
pub(crate) fn orders_keeping(pairs: &[(Move, Move)]) -> u64 {
    let mut before = [0u16; 8];
    for &(x, y) in pairs {
        before[y.index()] |= 1 << x.index();
    }
    let mut ways = vec![0u64; 1 << 8];
    ways[0] = 1;
    for placed in 0..1usize << 8 {
        if ways[placed] == 0 {
            continue;
        }
        for m in 0..8 {
            let free = placed & (1 << m) == 0;
            if free && usize::from(before[m]) & !placed == 0 {
                ways[placed | 1 << m] += ways[placed];
            }
        }
    }
    ways[(1 << 8) - 1]
}

/// Of the 40,319 move orders other than A..H, how many get some board
/// wrong, given the [`tie_break_pairs`] of the boards.
pub(crate) fn orders_failing(pairs: &[(Move, Move)]) -> u64 {
    // The orders that keep every pair get every board right; A..H is one.
    FIXED_ORDERS - orders_keeping(pairs)
}

/// The number of fixed move orders: 8!.
pub(crate) const FIXED_ORDERS: u64 = 40_320;

/// Whether two moves rotate disjoint lines, and so commute.
fn commute(first: Move, second: Move) -> bool {
    first
        .line()
        .iter()
        .all(|cell| !second.line().contains(cell))
}

/// Whether `second` right after `first` can appear in a lexicographically
/// smallest shortest sequence: not an inverse pair, and not two commuting
/// moves in decreasing order (see the [module docs](self)).
pub(crate) fn pair_can_appear(first: Move, second: Move) -> bool {
    second != first.inverse() && !(commute(first, second) && second < first)
}

/// The consecutive pairs of moves of `moves`, as indices `8 * x + y`.
pub(crate) fn consecutive_pairs(moves: &MoveSequence) -> impl Iterator<Item = usize> + '_ {
    moves
        .as_slice()
        .windows(2)
        .map(|pair| 8 * pair[0].index() + pair[1].index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::boards;
    use crate::solver::{PdbSolver, Solver};

    /// Every order of the eight moves (Heap's algorithm).
    fn every_order() -> Vec<[Move; 8]> {
        fn permute(order: &mut [Move; 8], size: usize, out: &mut Vec<[Move; 8]>) {
            if size == 1 {
                out.push(*order);
                return;
            }
            for at in 0..size {
                permute(order, size - 1, out);
                let swap = if size.is_multiple_of(2) { at } else { 0 };
                order.swap(swap, size - 1);
            }
        }
        let mut out = Vec::new();
        let mut order = Move::ALL;
        permute(&mut order, 8, &mut out);
        out
    }

    #[test]
    fn the_orders_keeping_pairs_are_counted_as_a_brute_force_counts_them() {
        let orders = every_order();
        assert_eq!(orders.len() as u64, FIXED_ORDERS);
        let m = Move::ALL;
        for pairs in [
            vec![(m[0], m[1]), (m[0], m[1])],
            vec![(m[3], m[1]), (m[1], m[6]), (m[0], m[6])],
            vec![(m[7], m[0]), (m[5], m[2]), (m[2], m[4]), (m[5], m[4])],
        ] {
            let keeping = orders
                .iter()
                .filter(|order| {
                    let at = |x: Move| order.iter().position(|&o| o == x).unwrap();
                    pairs.iter().all(|&(x, y)| at(x) < at(y))
                })
                .count() as u64;
            assert_eq!(orders_keeping(&pairs), keeping, "{pairs:?}");
            assert_eq!(orders_failing(&pairs), FIXED_ORDERS - keeping);
        }
    }

    #[test]
    fn the_orders_keeping_no_pair_are_all_and_a_chain_keeps_one() {
        assert_eq!(orders_keeping(&[]), FIXED_ORDERS);
        let chain: Vec<(Move, Move)> = Move::ALL.windows(2).map(|w| (w[0], w[1])).collect();
        assert_eq!(orders_keeping(&chain), 1);
        // One pair: half the orders put x first.
        assert_eq!(orders_keeping(&chain[..1]), FIXED_ORDERS / 2);
    }

    #[test]
    fn forty_eight_pairs_can_appear() {
        let count = Move::ALL
            .iter()
            .flat_map(|&x| Move::ALL.map(|y| (x, y)))
            .filter(|&(x, y)| pair_can_appear(x, y))
            .count();
        assert_eq!(count, 48);
        let [a, b, ..] = Move::ALL;
        assert!(commute(a, b) && pair_can_appear(a, b) && !pair_can_appear(b, a));
    }

    #[test]
    fn the_tie_break_models_answer_with_shortest_sequences() {
        let boards = crate::generator::Generator::new(4, crate::generator::Mode::Scramble(7));
        for board in boards.boards(40) {
            let shortest = optimal_length(&board).moves() as usize;
            for found in [
                first_found(&board, moves_by_estimate),
                best_first_first_goal(&board),
                smaller_digit_on_ties(&board),
            ] {
                assert_eq!(found.len(), shortest, "{board}");
                assert!(board.apply_all(found.as_slice()).is_solved(), "{board}");
            }
        }
    }

    /// Boards of the given optimal length, seeded.
    fn boards_of(length: u8, count: u64) -> Vec<Board> {
        crate::generator::boards_of_length(5, length, count)
    }

    fn right(board: &Board) -> Solution {
        PdbSolver::default().solve(board).unwrap()
    }

    #[test]
    fn pair_rules_forbid_their_pairs_and_no_other() {
        let forbidden = |rule: PairRule| -> Vec<String> {
            Move::ALL
                .iter()
                .flat_map(|&x| Move::ALL.map(|y| (x, y)))
                .filter(|&(x, y)| rule.forbids(x, y))
                .map(|(x, y)| format!("{}{}", x.letter(), y.letter()))
                .collect()
        };
        assert_eq!(
            forbidden(PairRule::SameMove),
            ["AA", "BB", "CC", "DD", "EE", "FF", "GG", "HH"]
        );
        assert_eq!(
            forbidden(PairRule::OppositeLetter),
            ["AE", "BF", "CG", "DH", "EA", "FB", "GC", "HD"]
        );
    }

    #[test]
    fn a_move_order_reads_and_serializes_as_its_letters() {
        assert_eq!(LINE_PAIRS_ORDER.letters(), "AFBECHDG");
        assert_eq!(MoveOrder(Move::ALL).letters(), "ABCDEFGH");
        // Each move before its inverse, line by line.
        for pair in LINE_PAIRS_ORDER.0.chunks(2) {
            assert_eq!(pair[0].inverse(), pair[1]);
        }
        #[cfg(feature = "cli")]
        assert_eq!(
            serde_json::to_string(&Mistake::MoveOrder(LINE_PAIRS_ORDER)).unwrap(),
            r#"{"MoveOrder":"AFBECHDG"}"#
        );
    }

    #[test]
    fn every_mistake_has_a_description_of_its_own() {
        let mistakes = [
            Mistake::NoDigitAfterNoMovesNeeded,
            Mistake::DigitOfStartBoard,
            Mistake::DepthCappedAt12,
            Mistake::GreedyByEstimate,
            Mistake::MovesByEstimate,
            Mistake::BestFirstFirstGoal,
            Mistake::SmallerDigitOnTies,
            Mistake::MoveOrder(LINE_PAIRS_ORDER),
            Mistake::ForbiddenPairs(PairRule::SameMove),
            Mistake::ForbiddenPairs(PairRule::OppositeLetter),
        ];
        let described: std::collections::BTreeSet<String> =
            mistakes.iter().map(|m| m.describe()).collect();
        assert_eq!(described.len(), mistakes.len(), "{described:?}");
        assert!(described.iter().all(|text| text.len() > 10));
        assert!(
            Mistake::MoveOrder(LINE_PAIRS_ORDER)
                .describe()
                .ends_with(" AFBECHDG")
        );
        assert!(
            Mistake::NoDigitAfterNoMovesNeeded
                .describe()
                .contains("No moves needed")
        );
    }

    #[test]
    fn the_output_mistakes_fail_where_their_output_differs() {
        let solved = boards_of(0, 1)[0];
        let unsolved = boards_of(3, 1)[0];
        let no_digit = Mistake::NoDigitAfterNoMovesNeeded;
        assert_eq!(no_digit.fails(&solved, &right(&solved)), Some(true));
        assert_eq!(no_digit.fails(&unsolved, &right(&unsolved)), Some(false));
        // Cell 6 is a centre cell: before the moves, it holds the answer's
        // digit on some boards and another on others.
        let start_digit = Mistake::DigitOfStartBoard;
        let outcomes: Vec<Option<bool>> = boards_of(4, 30)
            .iter()
            .map(|board| {
                let answer = right(board);
                let fails = start_digit.fails(board, &answer);
                assert_eq!(fails, Some(board.digit_at(6) != answer.centre), "{board}");
                fails
            })
            .collect();
        assert!(outcomes.contains(&Some(true)) && outcomes.contains(&Some(false)));
        assert_eq!(start_digit.fails(&solved, &right(&solved)), Some(false));
    }

    #[test]
    fn the_depth_cap_fails_beyond_twelve_moves_only() {
        let capped = Mistake::DepthCappedAt12;
        for (length, fails) in [(12, false), (13, true)] {
            let board = boards_of(length, 1)[0];
            assert_eq!(capped.fails(&board, &right(&board)), Some(fails), "{board}");
        }
    }

    #[test]
    fn the_best_first_model_is_not_run_beyond_its_length() {
        let mistake = Mistake::BestFirstFirstGoal;
        let beyond = boards_of(BEST_FIRST_MAX_LENGTH + 1, 1)[0];
        assert_eq!(mistake.fails(&beyond, &right(&beyond)), None);
        let solved = boards_of(0, 1)[0];
        assert_eq!(best_first_first_goal(&solved), MoveSequence::new());
        assert_eq!(mistake.fails(&solved, &right(&solved)), Some(false));
        // Run on answers of up to BEST_FIRST_MAX_LENGTH moves, not beyond
        // (told by the answer given, whatever the board).
        let board = boards_of(4, 1)[0];
        let of_length = |length: usize| Solution {
            moves: std::iter::repeat_n(Move::ALL[0], length).collect(),
            ..right(&board)
        };
        let at = usize::from(BEST_FIRST_MAX_LENGTH);
        assert!(mistake.fails(&board, &of_length(at)).is_some());
        assert_eq!(mistake.fails(&board, &of_length(at + 1)), None);
    }

    #[test]
    fn best_first_answers_with_the_first_solved_board_it_generates() {
        // Its answers to seeded boards: the right one where it finds that
        // first, another of the same length where it does not.
        let answers: Vec<String> = [4, 6, 8]
            .into_iter()
            .flat_map(|length| boards_of(length, 3))
            .map(|board| best_first_first_goal(&board).to_string())
            .collect();
        assert_eq!(
            answers,
            [
                "ECDB", "ADBF", "CAED", "GACEEG", "EEGAAA", "EHBBFF", "FGECECAA", "BGACBCEC",
                "EFCFHHHF"
            ]
        );
        let wrong: Vec<bool> = boards_of(8, 3)
            .iter()
            .map(|board| Mistake::BestFirstFirstGoal.fails(board, &right(board)) == Some(true))
            .collect();
        assert_eq!(wrong, [true, true, false]);
    }

    #[test]
    fn the_estimate_is_eight_less_the_commonest_centre_digit() {
        for board in boards_of(0, 3) {
            assert_eq!(estimate(&board), 0);
        }
        for board in boards_of(5, 20) {
            let centre = [6, 7, 8, 11, 12, 15, 16, 17];
            let commonest = Digit::ALL
                .iter()
                .map(|&digit| {
                    centre
                        .iter()
                        .filter(|&&cell| board.digit_at(cell) == digit)
                        .count()
                })
                .max()
                .unwrap();
            assert_eq!(usize::from(estimate(&board)), 8 - commonest, "{board}");
        }
    }

    #[test]
    fn moves_by_estimate_sorts_by_estimate_then_letter_without_the_undo() {
        for board in boards_of(6, 10) {
            for last in [None, Some(Move::ALL[2]), Some(Move::ALL[7])] {
                let order = moves_by_estimate(&board, last);
                let undo = last.map(Move::inverse);
                assert_eq!(order.len(), if last.is_some() { 7 } else { 8 });
                assert!(!order.iter().any(|&m| Some(m) == undo), "{board}");
                for pair in order.windows(2) {
                    let key = |m: Move| (estimate(&board.apply(m)), m);
                    assert!(key(pair[0]) < key(pair[1]), "{board}: {order:?}");
                }
            }
        }
    }

    #[test]
    fn first_found_in_alphabetical_order_is_the_answer() {
        for board in boards_of(6, 10).into_iter().chain(boards_of(0, 1)) {
            let found = first_found(&board, |_, _| Move::ALL.to_vec());
            assert_eq!(found, right(&board).moves, "{board}");
        }
    }

    #[test]
    fn greedy_plays_the_best_estimate_first_letter_on_ties_never_undoing() {
        let mut solved_some = false;
        let mut gave_up = false;
        for board in boards_of(1, 8).into_iter().chain(boards_of(8, 12)) {
            let moves = greedy_by_estimate(&board);
            let mut current = board;
            let mut last: Option<Move> = None;
            for &m in moves.as_slice() {
                assert!(!current.is_solved(), "{board}: a move after solving");
                assert_ne!(Some(m), last.map(Move::inverse), "{board}: an undo");
                let played = estimate(&current.apply(m));
                for other in Move::ALL {
                    if Some(other) == last.map(Move::inverse) || other == m {
                        continue;
                    }
                    let theirs = estimate(&current.apply(other));
                    assert!(
                        played < theirs || (played == theirs && m < other),
                        "{board}: {} played over {}",
                        m.letter(),
                        other.letter()
                    );
                }
                current = current.apply(m);
                last = Some(m);
            }
            if current.is_solved() {
                solved_some = true;
            } else {
                assert_eq!(moves.len(), GREEDY_MAX_MOVES, "{board}: stopped unsolved");
                gave_up = true;
            }
            let fails = Mistake::GreedyByEstimate.fails(&board, &right(&board));
            assert_eq!(fails, Some(moves != right(&board).moves), "{board}");
        }
        assert!(solved_some && gave_up);
    }

    #[test]
    fn the_smaller_digit_wins_ties_and_the_nearer_digit_otherwise() {
        let (mut tie, mut no_tie) = (false, false);
        // Ties are rare below 6 moves; about one board of 8 moves in twelve
        // has one.
        for board in boards_of(3, 10).into_iter().chain(boards_of(8, 40)) {
            let needs: Vec<u8> = Digit::ALL
                .iter()
                .map(|&digit| distance(board.cells_of(digit)))
                .collect();
            let fewest = *needs.iter().min().unwrap();
            let digit = Digit::ALL[needs.iter().position(|&n| n == fewest).unwrap()];
            let found = smaller_digit_on_ties(&board);
            assert_eq!(usize::from(fewest), found.len(), "{board}");
            let end = board.apply_all(found.as_slice());
            assert!(end.is_solved() && end.digit_at(6) == digit, "{board}");
            let answer = right(&board);
            if needs.iter().filter(|&&n| n == fewest).count() > 1 {
                tie = true;
            } else {
                no_tie = true;
                assert_eq!(found, answer.moves, "{board}");
            }
        }
        assert!(tie && no_tie);
    }

    #[test]
    fn a_fixed_order_fails_exactly_when_it_puts_a_tie_break_pair_backwards() {
        let mut rng = crate::generator::BoardRng::new(6, 0);
        let mut wrong = 0;
        let boards = boards_of(5, 12);
        for board in &boards {
            let answer = right(board);
            let pairs = tie_break_pairs(board);
            // Each pair's first move is the answer's move at its step.
            let mut current = *board;
            let mut step = 0;
            for &(x, y) in &pairs {
                while answer.moves.as_slice()[step] != x {
                    current = current.apply(answer.moves.as_slice()[step]);
                    step += 1;
                }
                let closer = |m: Move| optimal_length(&current.apply(m)) < optimal_length(&current);
                assert!(closer(x) && closer(y) && x < y, "{board}: ({x:?}, {y:?})");
            }
            for _ in 0..20 {
                let mut order = Move::ALL;
                for at in (1..8).rev() {
                    order.swap(at, rng.below(at as u64 + 1) as usize);
                }
                let position = |m: Move| order.iter().position(|&o| o == m).unwrap();
                let backwards = pairs.iter().any(|&(x, y)| position(y) < position(x));
                let fails = Mistake::MoveOrder(MoveOrder(order)).fails(board, &answer);
                assert_eq!(
                    fails,
                    Some(backwards),
                    "{board} {}",
                    MoveOrder(order).letters()
                );
                wrong += usize::from(backwards);
            }
            // A single board's failing orders are those putting one of its
            // pairs backwards: 8! less those keeping them all.
            let failing = orders_failing(&pairs);
            assert_eq!(failing, FIXED_ORDERS - orders_keeping(&pairs));
            assert_eq!(failing == 0, pairs.is_empty(), "{board}");
        }
        assert!(wrong > 0);
        let chain: Vec<(Move, Move)> = Move::ALL.windows(2).map(|w| (w[0], w[1])).collect();
        assert_eq!(orders_failing(&chain), FIXED_ORDERS - 1);
    }

    #[test]
    fn moves_commute_exactly_on_disjoint_lines() {
        let commuting: Vec<(Move, Move)> = Move::ALL
            .iter()
            .flat_map(|&x| Move::ALL.map(|y| (x, y)))
            .filter(|&(x, y)| commute(x, y))
            .collect();
        // Two vertical lines and two horizontal ones, each line the line of
        // two moves: 2 × (2 × 2) unordered pairs, each both ways round.
        assert_eq!(commuting.len(), 16);
        let board = boards_of(7, 1)[0];
        for (x, y) in commuting {
            assert_eq!(board.apply(x).apply(y), board.apply(y).apply(x));
            assert!(commute(y, x) && x != y && x.inverse() != y);
        }
    }

    #[test]
    fn consecutive_pairs_are_numbered_eight_times_the_first_plus_the_second() {
        let moves = MoveSequence::from_letters(b"ACBB").unwrap();
        assert_eq!(consecutive_pairs(&moves).collect::<Vec<_>>(), [2, 17, 9]);
        assert_eq!(consecutive_pairs(&MoveSequence::new()).count(), 0);
        let one = MoveSequence::from_letters(b"H").unwrap();
        assert_eq!(consecutive_pairs(&one).count(), 0);
    }

    #[test]
    fn the_sample_exposes_a_repeated_move() {
        let second = boards()[1];
        let answer = PdbSolver::default().solve(&second).unwrap();
        let same_move = Mistake::ForbiddenPairs(PairRule::SameMove);
        assert_eq!(same_move.fails(&second, &answer), Some(true));
        let alphabetical = Mistake::MoveOrder(MoveOrder(Move::ALL));
        assert_eq!(alphabetical.fails(&second, &answer), Some(false));
    }
}
