//! The classic search's nodes on the boards of 13 moves, worked out once:
//! a table of [`ClassicSearch::run`]'s count for each of their 32
//! relabelling classes.
//!
//! Every package searches the 192 boards of 13 moves (it picks the cheapest
//! for its hardest files, or all of them), and on them the classic search
//! generates about two billion boards, more than the rest of a package's
//! build together. The counts are a fact of the game (the boards of 13
//! moves and the classic search are fixed), so they are read from here; a
//! test runs the 32 searches again and requires this table, and prints it,
//! as it should read, when they differ.

#[cfg(doc)]
use crate::package::ClassicSearch;

/// The relabelling classes of the 192 boards of 13 moves (each the board's
/// three cell sets as masks, in increasing order, as
/// `classic_effort::relabelling_class` gives them), in increasing order,
/// with the nodes the classic search generates on each of their boards.
const HARDEST: [([u32; 3], u64); 32] = [
    ([0x077003, 0x188a54, 0xe005a8], 62_218_151),
    ([0x077003, 0x188a94, 0xe00568], 60_846_186),
    ([0x0dc803, 0x2234a8, 0xd00354], 68_007_198),
    ([0x0dc803, 0x223528, 0xd002d4], 69_311_508),
    ([0x1224c3, 0x295118, 0xc48a24], 67_921_373),
    ([0x144a43, 0x2234a8, 0xc98114], 67_847_295),
    ([0x144c86, 0x613228, 0x8a8151], 63_324_045),
    ([0x144cc1, 0x688116, 0x833228], 63_668_134),
    ([0x14ac44, 0x2b400b, 0xc013b0], 67_252_380),
    ([0x152c44, 0x288193, 0xc25228], 61_592_829),
    ([0x152c44, 0x2ac00b, 0xc013b0], 65_553_928),
    ([0x155406, 0x602aa8, 0x8a8151], 73_910_433),
    ([0x15a007, 0x2a5118, 0xc00ee0], 63_090_665),
    ([0x16a007, 0x295118, 0xc00ee0], 62_966_078),
    ([0x180e61, 0x47c006, 0xa03198], 63_232_084),
    ([0x188661, 0x474806, 0xa03198], 68_006_180),
    ([0x188a94, 0x245123, 0xc32448], 61_443_495),
    ([0x198c05, 0x6003e2, 0x867018], 74_386_683),
    ([0x198c05, 0x6012e2, 0x866118], 73_590_547),
    ([0x1b440c, 0x6012e2, 0x84a911], 60_655_324),
    ([0x1b5006, 0x600ad8, 0x84a521], 60_567_724),
    ([0x203332, 0x580cc4, 0x87c009], 63_547_445),
    ([0x222332, 0x580cc4, 0x85d009], 62_094_357),
    ([0x23301a, 0x4cc444, 0x900ba1], 65_367_445),
    ([0x23301a, 0x4ccc04, 0x9003e1], 74_166_193),
    ([0x245099, 0x42a542, 0x990a24], 64_853_648),
    ([0x245192, 0x498a24, 0x922449], 70_072_785),
    ([0x254819, 0x42a542, 0x9812a4], 64_602_642),
    ([0x25a01c, 0x4a5442, 0x900ba1], 61_665_229),
    ([0x25a809, 0x4a4252, 0x9015a4], 68_005_399),
    ([0x3022d8, 0x474806, 0x889521], 63_811_046),
    ([0x3805a4, 0x422a52, 0x85d009], 61_809_205),
];

/// Each relabelling class of the boards of 13 moves, with the nodes the
/// classic search generates on its boards.
pub(crate) fn classes() -> impl Iterator<Item = ([u32; 3], u64)> {
    HARDEST.into_iter()
}

/// The nodes the classic search generates on a board of the relabelling
/// `class`, when the class is one of the boards of 13 moves.
pub(crate) fn nodes_of_class(class: &[u32; 3]) -> Option<u64> {
    HARDEST
        .binary_search_by(|(known, _)| known.cmp(class))
        .ok()
        .map(|index| HARDEST[index].1)
}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

    use super::*;
    use crate::board::Board;
    use crate::generator::{Generator, Mode, hardest_boards};
    use crate::length::OptimalLength;
    use crate::package::ClassicSearch;
    use crate::package::classic_effort::relabelling_class;

    #[test]
    fn the_table_holds_every_class_of_13_moves_and_nothing_else() {
        let mut classes: Vec<[u32; 3]> = hardest_boards().iter().map(relabelling_class).collect();
        classes.sort_unstable();
        classes.dedup();
        let table: Vec<[u32; 3]> = HARDEST.iter().map(|(class, _)| *class).collect();
        assert_eq!(table, classes);
        for board in hardest_boards() {
            assert!(
                nodes_of_class(&relabelling_class(&board)).is_some(),
                "{board}"
            );
        }
        let twelve = OptimalLength::new(12).expect("a length");
        for board in Generator::new(3, Mode::Length(twelve)).boards(8) {
            assert_eq!(nodes_of_class(&relabelling_class(&board)), None, "{board}");
        }
    }

    #[test]
    fn the_table_is_what_the_classic_search_counts() {
        let searched: Vec<([u32; 3], u64)> = HARDEST
            .par_iter()
            .map(|(class, _)| {
                let board = Board::from_cell_sets(*class).expect("a board");
                (*class, ClassicSearch::run(&board).nodes)
            })
            .collect();
        if searched != HARDEST {
            let rows: String = searched
                .iter()
                .map(|([a, b, c], nodes)| {
                    format!("    ([{a:#08x}, {b:#08x}, {c:#08x}], {nodes}),\n")
                })
                .collect();
            panic!("the classic search counts otherwise; the table should read:\n{rows}");
        }
    }
}
