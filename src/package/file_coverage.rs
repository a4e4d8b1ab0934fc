//! One row of the coverage report: what one test file covers. Apart from
//! the report, so that the calibration can read the rows without depending
//! on the report that states its results.

use crate::package::mistake::Mistake;

/// What one test file covers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FileCoverage {
    /// The file's path in the package, without extension
    /// (`data/secret/03-tie-break-move-order`, or `04` in the plain layout).
    pub path: String,
    /// Its name, as the tables show it (`03-tie-break-move-order`).
    pub name: String,
    /// What it tests.
    pub purpose: String,
    /// How many cases it holds.
    pub cases: usize,
    /// The optimal lengths of its boards, in increasing order, once each.
    pub lengths: Vec<u8>,
    /// The digits its answers leave in the centre, in increasing order.
    pub digits: Vec<u8>,
    /// The first letters of its answers, in increasing order (none for a
    /// board already solved).
    pub first_letters: Vec<char>,
    /// Boards already solved.
    pub solved_boards: usize,
    /// Boards with two or more shortest sequences: those whose answer
    /// depends on the tie-break.
    pub tie_break_boards: usize,
    /// The most shortest sequences any of its boards has.
    pub most_shortest_sequences: u64,
    /// Boards of 13 moves, the most any board needs.
    pub hardest_boards: usize,
    /// The nodes the classic IDA* ([`ClassicSearch`](crate::package::ClassicSearch),
    /// `classic_ida.cpp`) generates on all its boards.
    pub classic_nodes: u64,
    /// The most it generates on one board.
    pub classic_nodes_most: u64,
    /// Of the 40,319 fixed move orders other than A..H, how many answer
    /// some board of the file wrongly.
    pub move_orders_failing: u64,
    /// Of the 48 pairs of consecutive moves an answer can hold, how many
    /// its answers hold.
    pub move_pairs: usize,
    /// The modelled mistakes (those of the planted wrong solutions) that
    /// answer some board of the file wrongly.
    pub mistakes: Vec<Mistake>,
}
