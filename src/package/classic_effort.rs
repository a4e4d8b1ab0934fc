//! How hard a board is for the classic solution: the nodes its search
//! ([`ClassicSearch`], the model of `classic_ida.cpp`) generates on it.
//!
//! The classic search looks at the board only through the moves, the
//! centre's digit counts and whether the centre is uniform, none of which
//! depends on which digit is called 1, 2 or 3. So boards that differ by a
//! relabelling of the digits cost it exactly the same: the 192 boards of 13
//! moves fall into 32 such classes, and [`classic_nodes`] runs the search
//! once per class (a test checks the invariance on every relabelling).
//! Those 32 classes are searched once and for all: their counts are read
//! from a table (`hardest_nodes`), which a test holds to the search.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::board::Board;
use crate::package::classic_search::ClassicSearch;
use crate::package::hardest_nodes;

/// The board's three cell sets, in increasing order: the same for every
/// relabelling of its digits.
pub(crate) fn relabelling_class(board: &Board) -> [u32; 3] {
    let mut sets = board.cell_sets().map(|set| set.mask());
    sets.sort_unstable();
    sets
}

/// The nodes the classic search ([`ClassicSearch::run`]) generates on
/// `board`: read from the table for a board of 13 moves, searched for any
/// other.
pub fn nodes(board: &Board) -> u64 {
    hardest_nodes::nodes_of_class(&relabelling_class(board))
        .unwrap_or_else(|| ClassicSearch::run(board).nodes)
}

/// The nodes of every relabelling class already counted: the table of the
/// boards of 13 moves, and the classes of the boards of `known`.
fn known_classes(known: &FxHashMap<Board, u64>) -> FxHashMap<[u32; 3], u64> {
    hardest_nodes::classes()
        .chain(
            known
                .iter()
                .map(|(board, &n)| (relabelling_class(board), n)),
        )
        .collect()
}

/// The relabelling classes of `boards` that `known` does not count, in
/// increasing order.
fn classes_to_search(boards: &[Board], known: &FxHashMap<[u32; 3], u64>) -> Vec<[u32; 3]> {
    let mut classes: Vec<[u32; 3]> = boards
        .iter()
        .map(relabelling_class)
        .filter(|class| !known.contains_key(class))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
}

/// The nodes the classic search generates on each board, taken from `known`
/// (boards already searched) or the table of the boards of 13 moves, or
/// searched once per relabelling class, in
/// parallel on the current rayon pool, calling `searched` after each
/// search. The result does not depend on the number of threads.
pub(crate) fn classic_nodes(
    boards: &[Board],
    known: &FxHashMap<Board, u64>,
    searched: &(dyn Fn() + Sync),
) -> Vec<u64> {
    let mut by_class = known_classes(known);
    let classes = classes_to_search(boards, &by_class);
    let counts: Vec<u64> = classes
        .par_iter()
        .map(|class| {
            let board = Board::from_cell_sets(*class).expect("a relabelling of a board is a board");
            let count = ClassicSearch::run(&board).nodes;
            searched();
            count
        })
        .collect();
    by_class.extend(classes.into_iter().zip(counts));
    boards
        .iter()
        .map(|board| by_class[&relabelling_class(board)])
        .collect()
}

/// How many searches [`classic_nodes`] runs for `boards`, given `known`.
pub(crate) fn searches_needed(boards: &[Board], known: &FxHashMap<Board, u64>) -> usize {
    classes_to_search(boards, &known_classes(known)).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Generator, Mode};
    use crate::length::OptimalLength;

    #[test]
    fn every_relabelling_costs_the_classic_search_the_same() {
        let nine = OptimalLength::new(9).unwrap();
        for board in Generator::new(5, Mode::Length(nine)).boards(4) {
            let [a, b, c] = board.cell_sets().map(|set| set.mask());
            let relabellings = [
                [a, b, c],
                [a, c, b],
                [b, a, c],
                [b, c, a],
                [c, a, b],
                [c, b, a],
            ];
            let counts: Vec<u64> = relabellings
                .iter()
                .map(|sets| nodes(&Board::from_cell_sets(*sets).unwrap()))
                .collect();
            assert!(counts.iter().all(|&n| n == counts[0]), "{counts:?}");
            let none = FxHashMap::default();
            assert_eq!(classic_nodes(&[board], &none, &|| {}), vec![counts[0]]);
        }
    }

    #[test]
    fn each_class_is_searched_once_unless_the_table_or_a_known_board_counts_it() {
        let hardest = crate::generator::hardest_boards()[0];
        let table = hardest_nodes::nodes_of_class(&relabelling_class(&hardest)).unwrap();
        assert_eq!(nodes(&hardest), table);
        let [a, b] = crate::generator::boards_of_length(8, 7, 2)[..] else {
            unreachable!()
        };
        let [one, two, three] = a.cell_sets().map(|set| set.mask());
        let relabelled = Board::from_cell_sets([two, three, one]).unwrap();
        assert_ne!(relabelled, a);
        assert_eq!(relabelling_class(&relabelled), relabelling_class(&a));
        assert_ne!(relabelling_class(&b), relabelling_class(&a));

        // `b` is known (with a count no search gives, to tell them apart),
        // the hardest board is in the table: only `a`'s class is searched,
        // once for it and its relabelling.
        let known: FxHashMap<Board, u64> = [(b, 7)].into_iter().collect();
        let boards = [a, hardest, b, relabelled, a];
        assert_eq!(searches_needed(&boards, &known), 1);
        let searches = std::sync::atomic::AtomicUsize::new(0);
        let counts = classic_nodes(&boards, &known, &|| {
            searches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        let searched = ClassicSearch::run(&a).nodes;
        assert_eq!(counts, [searched, table, 7, searched, searched]);
        assert_eq!(searches.into_inner(), 1);
        assert_eq!(nodes(&a), searched);
        assert_eq!(searches_needed(&[], &known), 0);
        assert_eq!(searches_needed(&[b, hardest], &FxHashMap::default()), 1);
    }
}
