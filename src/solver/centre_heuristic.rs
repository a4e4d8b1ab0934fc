//! The statement's heuristic: 8 minus how often the commonest digit appears
//! in the centre.
//!
//! A move takes exactly one tile out of the centre and brings one in, so it
//! raises any digit's centre count by at most one. A digit with `f` of the
//! eight centre cells needs at least `8 - f` moves to fill the centre, and
//! the best digit needs at least `8 - max f`: the estimate never
//! overestimates, and it is 0 exactly on solved boards.
//!
//! The same fact makes the children's estimates cheap without making the
//! moves: move `m` rotates its line `c0 … c6` (centre cells `c2 c3 c4`)
//! so that `c2`'s tile leaves the centre and `c5`'s tile enters it. The
//! memo is the three centre counts; a child's counts are the parent's, one
//! up for the entering digit and one down for the leaving one.
//! [`CentreHeuristic::sift`] sorts all eight moves at once from the cells
//! each digit holds on the lines.

use crate::board::Board;
use crate::geometry::{CENTRE, LINES};
use crate::moves::{Move, MoveSet};
use crate::solver::ida_star::{ChildEstimates, Heuristic, IdaStar, MovePruning};

/// 8 minus the count of the commonest digit in the centre.
#[derive(Clone, Copy, Debug, Default)]
pub struct CentreHeuristic;

/// The centre counts of digits 1, 2 and 3, in bytes 0, 1 and 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CentreCounts(u32);

impl CentreCounts {
    /// The estimate these counts give.
    #[inline]
    fn estimate(self) -> u8 {
        let [ones, twos, threes, _] = self.0.to_le_bytes();
        8 - ones.max(twos).max(threes)
    }

    /// The counts of the digits 1, 2 and 3.
    #[inline]
    fn by_digit(self) -> [i32; 3] {
        let [ones, twos, threes, _] = self.0.to_le_bytes();
        [ones, twos, threes].map(i32::from)
    }
}

/// The index (0, 1, 2) of the digit on `cell`.
#[inline]
fn digit_index_at(board: &Board, cell: u8) -> u32 {
    let [ones, twos, _] = board.cell_sets().map(|cells| cells.mask());
    let one = (ones >> cell) & 1;
    let two = (twos >> cell) & 1;
    2 - 2 * one - two
}

impl Heuristic for CentreHeuristic {
    type Memo = CentreCounts;

    #[inline]
    fn estimate(&self, board: &Board) -> (u8, CentreCounts) {
        let [ones, twos, _] = board.cell_sets().map(|cells| cells.mask());
        let ones = (ones & CENTRE).count_ones();
        let twos = (twos & CENTRE).count_ones();
        // The centre has eight cells, so the 3s are whatever is left.
        let threes = 8 - ones - twos;
        let counts = CentreCounts(ones | (twos << 8) | (threes << 16));
        (counts.estimate(), counts)
    }

    /// From the parent's counts: the digit of the line's cell `c2` leaves
    /// the centre, that of `c5` enters it.
    #[inline]
    fn estimate_child(
        &self,
        parent: &Board,
        counts: &CentreCounts,
        m: Move,
        _: &Board,
        _: u8,
    ) -> (u8, CentreCounts) {
        let line = &LINES[m.index()];
        let leaving = digit_index_at(parent, line[2]);
        let entering = digit_index_at(parent, line[5]);
        let child = CentreCounts(counts.0 + (1 << (8 * entering)) - (1 << (8 * leaving)));
        (child.estimate(), child)
    }

    /// All eight moves at once: a child is within `moves_left` when some
    /// digit then has at least `8 - moves_left` tiles in the centre.
    #[inline]
    fn sift(
        &self,
        board: &Board,
        counts: &CentreCounts,
        candidates: MoveSet,
        moves_left: u8,
    ) -> ChildEstimates {
        let flows = Flows::of(board, *counts);
        let within = candidates.and(flows.reaching(8 - i32::from(moves_left)));
        let beyond = candidates.and(within.complement());
        if beyond.is_empty() {
            return ChildEstimates {
                within,
                least_beyond: None,
            };
        }
        // A move changes the estimate by at most one, so the least estimate
        // beyond `moves_left` is the first of the parent's estimate minus
        // one, plus zero and plus one that exceeds it and that some of the
        // other moves reach.
        let parent = counts.estimate();
        let least = (parent.saturating_sub(1).max(moves_left + 1)..=parent + 1)
            .find(|&least| !beyond.and(flows.reaching(8 - i32::from(least))).is_empty())
            .expect("a child's estimate is at most the parent's plus one");
        ChildEstimates {
            within,
            least_beyond: Some(least),
        }
    }
}

/// For each digit: its centre count, the moves that take one of its tiles
/// out of the centre, and the moves that bring one in.
struct Flows([(i32, MoveSet, MoveSet); 3]);

impl Flows {
    #[inline]
    fn of(board: &Board, counts: CentreCounts) -> Flows {
        let [ones, twos, _] = board.cell_sets().map(|cells| cells.mask());
        let (out1, out2) = (gather(LEAVING, ones), gather(LEAVING, twos));
        let (in1, in2) = (gather(ENTERING, ones), gather(ENTERING, twos));
        let [c1, c2, c3] = counts.by_digit();
        // Every cell holds one digit, so the 3s' moves are the others'.
        Flows([
            (c1, out1, in1),
            (c2, out2, in2),
            (c3, out1.or(out2).complement(), in1.or(in2).complement()),
        ])
    }

    /// The moves after which some digit has at least `target` tiles in the
    /// centre: a move changes a digit's count by +1 (its tile enters, none
    /// leaves), -1 (one leaves, none enters) or 0. Without branches.
    #[inline]
    fn reaching(&self, target: i32) -> MoveSet {
        let when = |condition: bool| MoveSet::from_bits(u8::from(condition).wrapping_neg());
        let mut moves = MoveSet::EMPTY;
        for &(count, out, into) in &self.0 {
            moves = moves
                .or(when(count > target))
                .or(when(count == target).and(out.and(into.complement()).complement()))
                .or(when(count + 1 == target).and(into.and(out.complement())));
        }
        moves
    }
}

/// Index of [`GATHER`] for the cells whose tile a move takes out of the
/// centre (a line's `c2`).
const LEAVING: usize = 0;

/// Index of [`GATHER`] for the cells whose tile a move brings into the
/// centre (a line's `c5`).
const ENTERING: usize = 1;

/// `GATHER[w][j][b]`: for byte `b` at byte position `j` of a cell set, the
/// moves whose leaving (`w` = [`LEAVING`]) or entering (`w` = [`ENTERING`])
/// cell is in it. Three lookups gather, for a digit's cells, the moves that
/// take one of its tiles out of the centre, or bring one in.
static GATHER: [[[u8; 256]; 3]; 2] = gather_table();

/// [`GATHER`], computed at compile time.
const fn gather_table() -> [[[u8; 256]; 3]; 2] {
    let mut table = [[[0u8; 256]; 3]; 2];
    let mut which = 0;
    while which < 2 {
        let position = if which == LEAVING { 2 } else { 5 };
        let mut m = 0;
        while m < 8 {
            let cell = LINES[m][position] as usize;
            let (j, bit) = (cell / 8, cell % 8);
            let mut byte = 0;
            while byte < 256 {
                if byte & (1 << bit) != 0 {
                    table[which][j][byte] |= 1 << m;
                }
                byte += 1;
            }
            m += 1;
        }
        which += 1;
    }
    table
}

/// The moves whose leaving or entering (`which`) cell is in `set`.
#[inline]
fn gather(which: usize, set: u32) -> MoveSet {
    let table = &GATHER[which];
    MoveSet::from_bits(
        table[0][(set & 0xff) as usize]
            | table[1][((set >> 8) & 0xff) as usize]
            | table[2][((set >> 16) & 0xff) as usize],
    )
}

impl Default for IdaStar<CentreHeuristic> {
    fn default() -> Self {
        IdaStar::with_heuristic("ida", CentreHeuristic)
    }
}

impl IdaStar<CentreHeuristic> {
    /// The classic IDA* of the judge solutions, node for node: the `ida`
    /// solver's answers, with [`Solution::nodes`](crate::Solution::nodes)
    /// counting what the classic algorithm generates (it skips only the
    /// undo of the previous move, [`MovePruning::UndoOnly`]). For measures
    /// of how hard a board is for the classic solutions; the `ida` solver
    /// itself skips more and counts fewer nodes.
    pub const fn classic() -> IdaStar<CentreHeuristic> {
        IdaStar::with_pruning("ida", CentreHeuristic, MovePruning::UndoOnly)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Generator, Mode};
    use crate::length::OptimalLength;
    use crate::solver::{IdaSolver, Solver};

    /// Boards (two of each length 0 to 9, `gen --seed 11 --length K`), the
    /// answer and the nodes the classic IDA* generates on them, as main's
    /// `solve --solver ida --format json` printed them at commit cc5d218,
    /// before the search learned to skip more moves.
    const CLASSIC_NODES: [(&str, &str, u64); 20] = [
        ("222333111221123111233233", "", 1),
        ("131333222112211222331313", "", 1),
        ("221233111321122311233233", "F", 7),
        ("131333221112213222313213", "B", 3),
        ("222133111321122311233233", "GE", 34),
        ("131333221112213322213213", "BG", 9),
        ("222331131221123111233233", "ECB", 75),
        ("131332321111233222132123", "AAC", 6),
        ("121122311332122312133233", "EFFG", 22),
        ("131332223112112223313132", "BDBC", 76),
        ("222133311121112232313233", "DDDEH", 75),
        ("132133223112112233131232", "DDBBF", 222),
        ("222333221123112113113233", "AGHAGG", 310),
        ("131333212122113223131232", "DFHBBH", 991),
        ("221233312121123112331233", "ADBFDHF", 6640),
        ("213133223111132322131232", "BBFHBFD", 3012),
        ("122233311221211323311233", "AECADADD", 13459),
        ("131332321111323221321232", "AGABBCGG", 7375),
        ("222113113321221312332133", "BCDAGGECE", 114055),
        ("123133223111132313212232", "BDBBCAAGG", 94224),
    ];

    #[test]
    fn the_classic_search_generates_the_classic_nodes() {
        for (board, moves, nodes) in CLASSIC_NODES {
            let board = board.parse().unwrap();
            let classic = IdaSolver::classic().solve(&board).unwrap();
            assert_eq!(
                (classic.moves.letters().as_str(), classic.nodes),
                (moves, nodes)
            );
        }
    }

    #[test]
    fn skipping_more_moves_changes_the_nodes_only() {
        for length in OptimalLength::all().take(9) {
            for board in Generator::new(5, Mode::Length(length)).boards(20) {
                let classic = IdaSolver::classic().solve(&board).unwrap();
                let canonical = IdaSolver::default().solve(&board).unwrap();
                assert!(canonical.same_answer(&classic), "{board}");
                assert!(canonical.nodes <= classic.nodes, "{board}");
            }
        }
    }

    /// The estimate is 8 minus the commonest digit's count, and each cell's
    /// digit is read where it is: checked on a few boards, so that a broken
    /// estimate fails here at once rather than slowing a search down.
    #[test]
    fn the_estimate_is_the_tiles_missing_from_the_commonest_digit() {
        let counts =
            |ones: u32, twos: u32, threes: u32| CentreCounts(ones | twos << 8 | threes << 16);
        assert_eq!(counts(8, 0, 0).estimate(), 0);
        assert_eq!(counts(0, 0, 8).estimate(), 0);
        assert_eq!(counts(3, 3, 2).estimate(), 5);
        assert_eq!(counts(1, 6, 1).estimate(), 2);
        assert_eq!(counts(2, 1, 5).by_digit(), [2, 1, 5]);
        let board: Board = crate::sample::FIRST_BOARD.parse().unwrap();
        let digits: Vec<u32> = (0..24).map(|cell| digit_index_at(&board, cell)).collect();
        let expected: Vec<u32> = crate::sample::FIRST_BOARD
            .split_whitespace()
            .map(|digit| digit.parse::<u32>().unwrap() - 1)
            .collect();
        assert_eq!(digits, expected);
        let (estimate, memo) = CentreHeuristic.estimate(&board);
        assert_eq!((estimate, memo.by_digit()), (2, [0, 6, 2]));
    }

    /// The incremental estimates and the sifting agree with the plain
    /// estimate of every child of many boards, for every budget.
    #[test]
    fn children_are_estimated_as_the_boards_they_are() {
        let heuristic = CentreHeuristic;
        for board in Generator::new(7, Mode::Uniform).boards(2000) {
            let (_, counts) = heuristic.estimate(&board);
            let plain = Move::ALL.map(|m| heuristic.estimate(&board.apply(m)));
            for m in Move::ALL {
                let child = board.apply(m);
                let found = heuristic.estimate_child(&board, &counts, m, &child, 0);
                assert_eq!(found, plain[m.index()]);
            }
            for candidates in [MoveSet::ALL, MoveSet::from_bits(0b1011_0110)] {
                for moves_left in 0..=8 {
                    let expected_within: MoveSet = candidates
                        .filter(|m| plain[m.index()].0 <= moves_left)
                        .fold(MoveSet::EMPTY, MoveSet::with);
                    let expected_least = candidates
                        .map(|m| plain[m.index()].0)
                        .filter(|&estimate| estimate > moves_left)
                        .min();
                    let sifted = heuristic.sift(&board, &counts, candidates, moves_left);
                    assert_eq!(
                        sifted,
                        ChildEstimates {
                            within: expected_within,
                            least_beyond: expected_least
                        }
                    );
                }
            }
        }
    }
}
