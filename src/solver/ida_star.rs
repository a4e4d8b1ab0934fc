//! IDA*: iterative deepening guided by an admissible heuristic.
//!
//! # Why the first solution found is the answer
//!
//! Each iteration is a depth-first search that prunes any node whose depth
//! plus heuristic exceeds the bound, and tries the moves in order A..H. The
//! bound starts at the root's estimate and rises to the least pruned value,
//! so it never passes the optimal length `L` (the heuristic never
//! overestimates, so a node on an optimal path is never pruned at bound `L`).
//! No iteration below `L` can find a solution, since none exists. At bound
//! `L` the depth-first search meets the sequences of length `L` in
//! lexicographic order, and prunes only nodes from which no goal can be
//! reached within the bound; so the first goal it meets is reached by the
//! lexicographically smallest optimal sequence.
//!
//! [`MovePruning`] says which moves the search skips, and proves that the
//! answer cannot change.

use crate::board::Board;
use crate::geometry::LINES;
use crate::moves::{Move, MoveSequence, MoveSet};
use crate::solver::{Solution, SolveError, Solver};

/// A lower bound on the moves still needed, for IDA*.
///
/// # Contract
///
/// Every estimate is a lower bound on the number of moves that solve the
/// board (admissibility), and the estimate of a solved board is 0. A
/// heuristic that breaks this makes [`IdaStar`] return wrong answers, which
/// `verify` catches.
///
/// A heuristic may remember something about each node (its [`Memo`]) and
/// use it to estimate the node's children more cheaply, given the moves the
/// search's bound leaves below the child: [`estimate_child`] must return the
/// child's exact [`estimate`] whenever that is at most `moves_left`, and
/// otherwise any lower bound above `moves_left`; [`sift`] must agree with
/// it.
///
/// [`Memo`]: Heuristic::Memo
/// [`estimate`]: Heuristic::estimate
/// [`estimate_child`]: Heuristic::estimate_child
/// [`sift`]: Heuristic::sift
pub trait Heuristic: Sync {
    /// What the heuristic remembers about a node for its children.
    type Memo: Copy;

    /// A lower bound on the moves that solve `board`, and its memo.
    fn estimate(&self, board: &Board) -> (u8, Self::Memo);

    /// The estimate for `child`, which `m` makes of `parent` (whose memo is
    /// `memo`), exact when it is at most `moves_left` (see the trait's
    /// contract), and its memo.
    #[inline]
    fn estimate_child(
        &self,
        parent: &Board,
        memo: &Self::Memo,
        m: Move,
        child: &Board,
        moves_left: u8,
    ) -> (u8, Self::Memo) {
        let _ = (parent, memo, m, moves_left);
        self.estimate(child)
    }

    /// Sorts the `candidates` moves from `board` (whose memo is `memo`) by
    /// their child's estimate: those within `moves_left`, and the least
    /// estimate of the others. The provided form estimates each child with
    /// [`estimate_child`](Heuristic::estimate_child); a heuristic may sort
    /// all the moves at once, without making them.
    #[inline]
    fn sift(
        &self,
        board: &Board,
        memo: &Self::Memo,
        candidates: MoveSet,
        moves_left: u8,
    ) -> ChildEstimates {
        let mut sifted = ChildEstimates {
            within: MoveSet::EMPTY,
            least_beyond: None,
        };
        for m in candidates {
            let child = board.apply(m);
            let (estimate, _) = self.estimate_child(board, memo, m, &child, moves_left);
            if estimate <= moves_left {
                sifted.within = sifted.within.with(m);
            } else {
                sifted.least_beyond =
                    Some(sifted.least_beyond.map_or(estimate, |e| e.min(estimate)));
            }
        }
        sifted
    }
}

/// What [`Heuristic::sift`] found of a node's children's estimates: the
/// moves whose child is within the moves left, and the least estimate of
/// the others, which sets IDA*'s next bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildEstimates {
    /// The moves whose child's estimate is within the moves left.
    pub within: MoveSet,
    /// The least estimate of the other moves' children, if there are any.
    pub least_beyond: Option<u8>,
}

/// Which moves [`IdaStar`] never plays.
///
/// # The moves skipped
///
/// Call `w` the lexicographically smallest optimal sequence. The search
/// skips a move when the sequence so far, followed by it, ends with a
/// pattern that `w` cannot contain ([`MovePruning::Canonical`]):
///
/// - *a move followed by its inverse*: removing the pair gives a sequence
///   two moves shorter that reaches the same board, so `w` would not be
///   optimal;
/// - *`y x` where `x < y` and the two moves commute*: moves commute exactly
///   when their lines share no cell (A or F with B or E; C or H with D or
///   G; a move with itself and its inverse), and swapping them reaches the
///   same board in as many moves with a smaller sequence, so `w` would not
///   be the smallest;
/// - *four times the same move*: a line of seven cells rotated four times
///   one way is rotated three times the other way, a shorter sequence;
/// - *a move whose inverse was played earlier with only moves commuting with
///   it in between* (`A E F`): moving it next to its inverse and removing
///   both gives a sequence two moves shorter reaching the same board.
///
/// Skipping them changes nothing about the answer. No prefix of `w` ends
/// with such a pattern, so every node on `w`'s path is still generated: at
/// bound `L` the search still meets `w`, and everything it meets before is
/// a smaller sequence of length `L`, so `w` is the first goal it meets.
/// Below `L`, the first node of `w`'s path that the bound prunes still sets
/// the next bound to at most `L`, so the bound still never passes `L`.
/// Only the effort changes: the nodes generated, and so [`Solution::nodes`].
///
/// [`MovePruning::UndoOnly`] skips the first pattern only: the classic
/// algorithm, whose node counts measure what the classic judge solutions
/// do ([`IdaStar::with_pruning`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovePruning {
    /// Only the inverse of the previous move: the classic algorithm, node
    /// for node.
    UndoOnly,
    /// Every pattern the answer cannot contain.
    Canonical,
}

/// IDA* with heuristic `H`. It returns the lexicographically smallest
/// optimal sequence: the first goal met at the first bound that has one, as
/// the bound never passes the optimal length and each pass tries moves in
/// order A..H.
#[derive(Clone, Debug)]
pub struct IdaStar<H> {
    heuristic: H,
    name: &'static str,
    pruning: MovePruning,
}

/// What one depth-first pass found.
enum Pass {
    /// A solution, left in the path.
    Solved,
    /// No solution within the bound; the least pruned depth plus estimate.
    Exceeded(u8),
}

/// Where a node is: the moves that led there, and the moves that would
/// cancel against an earlier one (see [`MovePruning::Canonical`]).
struct Node<'a> {
    path: &'a mut MoveSequence,
    cancelling: MoveSet,
}

impl<H: Heuristic> IdaStar<H> {
    /// IDA* with the given heuristic, reporting itself as `name`, skipping
    /// every move sequence the answer cannot contain
    /// ([`MovePruning::Canonical`]).
    pub const fn with_heuristic(name: &'static str, heuristic: H) -> IdaStar<H> {
        IdaStar::with_pruning(name, heuristic, MovePruning::Canonical)
    }

    /// IDA* with the given heuristic and move pruning, reporting itself as
    /// `name`. The answers do not depend on the pruning; the effort, and so
    /// [`Solution::nodes`], does: with [`MovePruning::UndoOnly`] they count
    /// what the classic algorithm generates.
    pub const fn with_pruning(
        name: &'static str,
        heuristic: H,
        pruning: MovePruning,
    ) -> IdaStar<H> {
        IdaStar {
            heuristic,
            name,
            pruning,
        }
    }

    /// The heuristic.
    pub fn heuristic(&self) -> &H {
        &self.heuristic
    }

    /// Which moves it never plays.
    pub fn pruning(&self) -> MovePruning {
        self.pruning
    }

    /// The moves the search may play next at `node`.
    #[inline]
    fn allowed(&self, node: &Node<'_>) -> MoveSet {
        let Some(last) = node.path.last() else {
            return MoveSet::ALL;
        };
        match self.pruning {
            MovePruning::UndoOnly => MoveSet::ALL.without(last.inverse()),
            MovePruning::Canonical => {
                let mut allowed = ALLOWED_AFTER[last.index()].and(node.cancelling.complement());
                if let [.., a, b, c] = node.path.as_slice()
                    && a == b
                    && b == c
                {
                    allowed = allowed.without(*c);
                }
                allowed
            }
        }
    }

    /// Depth-first search below `board`, which the caller has checked to be
    /// within `bound` (its depth plus `estimate` is at most `bound`). Only a
    /// board estimated 0 can be solved (the [`Heuristic`] contract).
    fn search(
        &self,
        board: Board,
        (estimate, memo): (u8, H::Memo),
        bound: u8,
        node: &mut Node<'_>,
        nodes: &mut u64,
    ) -> Pass {
        if estimate == 0 && board.is_solved() {
            return Pass::Solved;
        }
        let child_depth = node.path.len() as u8 + 1;
        let Some(moves_left) = bound.checked_sub(child_depth) else {
            return Pass::Exceeded(child_depth);
        };
        let allowed = self.allowed(node);
        // Every allowed child is generated (estimated), whether or not it is
        // then searched; those after a child that leads to the goal are not.
        *nodes += u64::from(allowed.len());
        let sifted = self.heuristic.sift(&board, &memo, allowed, moves_left);
        let mut least_exceeded = sifted
            .least_beyond
            .map_or(u8::MAX, |estimate| child_depth.saturating_add(estimate));
        let cancelling = node.cancelling;
        for m in sifted.within {
            let child = board.apply(m);
            let estimated = self
                .heuristic
                .estimate_child(&board, &memo, m, &child, moves_left);
            node.path.push(m);
            node.cancelling = cancelling.and(COMMUTES_WITH[m.index()]).with(m.inverse());
            match self.search(child, estimated, bound, node, nodes) {
                Pass::Solved => {
                    *nodes -= u64::from(allowed.after(m).len());
                    return Pass::Solved;
                }
                Pass::Exceeded(value) => least_exceeded = least_exceeded.min(value),
            }
            node.path.pop();
        }
        node.cancelling = cancelling;
        Pass::Exceeded(least_exceeded)
    }
}

/// Whether the lines of moves `a` and `b` (indices) share no cell.
const fn lines_are_disjoint(a: usize, b: usize) -> bool {
    let mut i = 0;
    while i < LINES[a].len() {
        let mut j = 0;
        while j < LINES[b].len() {
            if LINES[a][i] == LINES[b][j] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// `COMMUTES_WITH[m]`: the moves that commute with move `m`: itself, its
/// inverse (the same line), and the moves of lines disjoint from its own.
const COMMUTES_WITH: [MoveSet; 8] = commutes_with();

/// [`COMMUTES_WITH`], computed at compile time.
const fn commutes_with() -> [MoveSet; 8] {
    let mut table = [MoveSet::EMPTY; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = 0;
        while b < 8 {
            let same_line = a == b || Move::ALL[a].inverse().index() == b;
            if same_line || lines_are_disjoint(a, b) {
                table[a] = table[a].with(Move::ALL[b]);
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// `ALLOWED_AFTER[m]`: the moves that may follow move `m`: not its inverse,
/// and not a smaller move commuting with it.
const ALLOWED_AFTER: [MoveSet; 8] = allowed_after();

/// [`ALLOWED_AFTER`], computed at compile time.
const fn allowed_after() -> [MoveSet; 8] {
    let mut table = [MoveSet::ALL; 8];
    let mut last = 0;
    while last < 8 {
        let mut next = 0;
        while next < 8 {
            let inverse = Move::ALL[last].inverse().index() == next;
            let commutes_and_smaller = next < last && lines_are_disjoint(last, next);
            if inverse || commutes_and_smaller {
                table[last] = table[last].without(Move::ALL[next]);
            }
            next += 1;
        }
        last += 1;
    }
    table
}

impl<H: Heuristic> Solver for IdaStar<H> {
    fn name(&self) -> &str {
        self.name
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut path = MoveSequence::new();
        let mut nodes = 1;
        let root = self.heuristic.estimate(board);
        let mut bound = root.0;
        loop {
            let mut node = Node {
                path: &mut path,
                cancelling: MoveSet::EMPTY,
            };
            match self.search(*board, root, bound, &mut node, &mut nodes) {
                Pass::Solved => {
                    let centre = board
                        .apply_all(path.as_slice())
                        .uniform_centre()
                        .expect("the search stops only on a solved board");
                    return Ok(Solution {
                        moves: path,
                        centre,
                        nodes,
                    });
                }
                Pass::Exceeded(next) => {
                    // Each pass raises the bound to the least estimate that
                    // exceeded it, so the search ends: a heuristic or rule
                    // that broke this would deepen forever.
                    assert!(next > bound, "IDA*'s bound must grow ({bound} to {next})");
                    bound = next;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Generator, Mode};
    use crate::length::OptimalLength;
    use crate::solver::{DescentSolver, IdaSolver};

    /// The weakest admissible heuristic: 0 everywhere, solved or not.
    struct Zero;

    impl Heuristic for Zero {
        type Memo = ();

        fn estimate(&self, _: &Board) -> (u8, ()) {
            (0, ())
        }
    }

    /// The search relies on nothing but the contract: with a heuristic
    /// that estimates 0 for unsolved boards too (so an estimate of 0 is no
    /// proof of a solved board), under either pruning, it finds the
    /// smallest shortest answer, by the provided `sift`.
    #[test]
    fn any_admissible_heuristic_gives_the_smallest_shortest_answer() {
        for pruning in [MovePruning::UndoOnly, MovePruning::Canonical] {
            let search = IdaStar::with_pruning("zero", Zero, pruning);
            for length in OptimalLength::all().take(5) {
                for board in Generator::new(9, Mode::Length(length)).boards(4) {
                    let found = search.solve(&board).unwrap();
                    let expected = DescentSolver.solve(&board).unwrap();
                    assert!(found.same_answer(&expected), "{pruning:?} {board}");
                }
            }
        }
    }

    /// One pass, on its own: at a bound of the board's optimal length it
    /// ends on the answer; one below, it reports a next bound beyond. (A
    /// broken goal test otherwise shows only as a search that deepens
    /// forever.)
    #[test]
    fn one_pass_at_the_optimal_length_ends_on_the_answer() {
        for search in [IdaSolver::default(), IdaSolver::classic()] {
            for length in OptimalLength::all().take(4) {
                for board in Generator::new(4, Mode::Length(length)).boards(3) {
                    let pass = |bound: u8| {
                        let mut path = MoveSequence::new();
                        let mut node = Node {
                            path: &mut path,
                            cancelling: MoveSet::EMPTY,
                        };
                        let root = search.heuristic.estimate(&board);
                        let pass = search.search(board, root, bound, &mut node, &mut 0);
                        (pass, path)
                    };
                    let (found, path) = pass(length.moves());
                    assert!(matches!(found, Pass::Solved), "{board}");
                    let expected = DescentSolver.solve(&board).unwrap().moves;
                    assert_eq!(path.as_slice(), expected.as_slice(), "{board}");
                    if let Some(below) = length.moves().checked_sub(1) {
                        let (short, _) = pass(below);
                        assert!(
                            matches!(short, Pass::Exceeded(next) if next > below),
                            "{board}"
                        );
                    }
                }
            }
        }
    }

    /// The rules' tables say what the module docs say.
    #[test]
    fn commuting_moves_are_those_of_disjoint_lines() {
        let letters = |set: MoveSet| set.map(Move::letter).collect::<String>();
        let commuting: Vec<String> = COMMUTES_WITH.iter().map(|&set| letters(set)).collect();
        assert_eq!(
            commuting,
            [
                "ABEF", "ABEF", "CDGH", "CDGH", "ABEF", "ABEF", "CDGH", "CDGH"
            ]
        );
        let after: Vec<String> = ALLOWED_AFTER.iter().map(|&set| letters(set)).collect();
        // After E, neither A (smaller, commuting) nor B (its inverse).
        assert_eq!(
            after,
            [
                "ABCDEGH", "BCDFGH", "ABCDEFG", "ABDEFH", "CDEFGH", "CDFGH", "ABEFGH", "ABEFH"
            ]
        );
        for m in Move::ALL {
            for n in Move::ALL {
                // Moves permute the cells: they commute when they do on
                // every single cell.
                let commute = (0..24).all(|cell| {
                    let set = 1 << cell;
                    m.apply_to_cells(n.apply_to_cells(set))
                        == n.apply_to_cells(m.apply_to_cells(set))
                });
                assert_eq!(COMMUTES_WITH[m.index()].contains(n), commute, "{m:?} {n:?}");
            }
        }
    }
}
