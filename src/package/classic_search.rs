//! The package's classic solution, modelled exactly: the search that
//! `submissions/accepted/classic_ida.cpp` runs, counting the boards it
//! generates, so that the coverage report and the anti-heuristic searches
//! can say how hard a board is for it.
//!
//! The model is the package's own, not the crate's `ida` solver: that solver
//! may prune more (skip sequences no answer holds) to go faster, which
//! changes how many boards it generates; the classic program does not, and
//! the package's numbers are about the program. A test builds the program
//! with `-DREPORT_NODES`, which makes it print its count per case, and
//! requires the model's counts (`tests/library/package.rs`).
//!
//! # The search
//!
//! Iterative deepening A* with the statement's estimate
//! ([`estimate`]: 8 minus how often the commonest digit appears in the
//! centre). Each pass is a depth-first search from the board that tries the
//! moves in order A..H, never the inverse of the move just played, and
//! prunes a child when its depth plus its estimate exceeds the bound; the
//! bound starts at the board's estimate and rises to the least value a pass
//! pruned. A board whose estimate is 0 is solved. The first solution found
//! is the lexicographically smallest of the optimal length.
//!
//! # What is counted
//!
//! Every board generated: the start once, and each child as it is made
//! (before it is estimated or pruned), in every pass.

use crate::board::{Board, Digit};
use crate::moves::{Move, MoveSequence};

/// The statement's estimate of the moves a board needs: 8 minus how often
/// the commonest digit appears in the centre. A move takes one tile out of
/// the centre and brings one in, so it never overestimates; it is 0 exactly
/// on solved boards.
pub(crate) fn estimate(board: &Board) -> u8 {
    // Spelled out rather than as an iterator, whose checks in debug builds
    // (the tests') made this, the classic search's hot path, slower than the
    // rest of the search.
    let [one, two, three] = Digit::ALL;
    let most = board
        .centre_count(one)
        .max(board.centre_count(two))
        .max(board.centre_count(three));
    // At most 8 tiles are in the centre.
    (8 - most) as u8
}

/// What the classic search does on one board: the answer it prints and the
/// boards it generates on the way.
///
/// The search is iterative deepening A* with the statement's estimate (8
/// minus how often the commonest digit appears in the centre): depth-first
/// passes trying the moves in order A..H, never the inverse of the move
/// just played, pruning a child when its depth plus its estimate exceeds
/// the bound, which starts at the board's estimate and rises to the least
/// value a pass pruned. Every board generated is counted: the start once,
/// and each child as it is made (before it is estimated or pruned), in
/// every pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicSearch {
    /// The moves it prints: the lexicographically smallest shortest
    /// sequence.
    pub moves: MoveSequence,
    /// The boards it generates, the start included, over every pass.
    pub nodes: u64,
}

/// How a depth-first pass ended.
enum Pass {
    /// A solved board was reached; the path leads to it.
    Solved,
    /// No solved board within the bound; the least depth plus estimate
    /// pruned.
    Exceeded(u8),
}

impl ClassicSearch {
    /// Runs the classic search on `board` (see [`ClassicSearch`]).
    pub fn run(board: &Board) -> ClassicSearch {
        let mut search = ClassicSearch {
            moves: MoveSequence::new(),
            nodes: 1,
        };
        let mut bound = estimate(board);
        while let Pass::Exceeded(least) = search.pass(*board, bound) {
            bound = least;
        }
        search
    }

    /// The depth-first search below `board`, at the depth of the current
    /// path, within `bound`.
    fn pass(&mut self, board: Board, bound: u8) -> Pass {
        if estimate(&board) == 0 {
            return Pass::Solved;
        }
        let child_depth = self.moves.len() as u8 + 1;
        if child_depth > bound {
            return Pass::Exceeded(child_depth);
        }
        let undo = self.moves.last().map(Move::inverse);
        let mut least = u8::MAX;
        for m in Move::ALL {
            if Some(m) == undo {
                continue;
            }
            let child = board.apply(m);
            self.nodes += 1;
            let value = child_depth + estimate(&child);
            if value > bound {
                least = least.min(value);
                continue;
            }
            self.moves.push(m);
            match self.pass(child, bound) {
                Pass::Solved => return Pass::Solved,
                Pass::Exceeded(pruned) => least = least.min(pruned),
            }
            self.moves.pop();
        }
        Pass::Exceeded(least)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::{Generator, Mode};
    use crate::length::OptimalLength;
    use crate::sample;
    use crate::solver::{PdbSolver, Solver};

    #[test]
    fn the_classic_search_finds_the_answer() {
        let boards = sample::boards()
            .into_iter()
            .chain([0, 1, 5, 9].into_iter().flat_map(|moves| {
                let length = OptimalLength::new(moves).unwrap();
                Generator::new(2, Mode::Length(length)).boards(3)
            }));
        for board in boards {
            let right = PdbSolver::default().solve(&board).unwrap();
            assert_eq!(ClassicSearch::run(&board).moves, right.moves, "{board}");
        }
    }

    #[test]
    fn a_solved_board_costs_one_node_and_a_one_move_board_one_per_letter_tried() {
        let solved = sample::boards()[0].apply_all(&[Move::ALL[0], Move::ALL[2]]);
        assert!(solved.is_solved());
        assert_eq!(
            ClassicSearch::run(&solved),
            ClassicSearch {
                moves: MoveSequence::new(),
                nodes: 1
            }
        );
        // One move away, the estimate is 1: the only pass generates the
        // children in order A..H up to the first that is solved.
        let one = OptimalLength::new(1).unwrap();
        for board in Generator::new(6, Mode::Length(one)).boards(8) {
            let search = ClassicSearch::run(&board);
            let first = search.moves.as_slice()[0];
            assert_eq!(search.nodes, 2 + first.index() as u64, "{board}");
        }
    }

    #[test]
    fn the_estimate_never_overestimates_and_is_zero_on_solved_boards() {
        let three = OptimalLength::new(3).unwrap();
        for board in Generator::new(4, Mode::Length(three)).boards(20) {
            assert!(estimate(&board) <= 3);
            assert_eq!(estimate(&board) == 0, board.is_solved());
        }
    }

    #[test]
    fn the_model_counts_what_the_classic_program_counts() {
        // Each count printed by `accepted/classic_ida.cpp` built with
        // `g++ -O2 -DREPORT_NODES`, run on these five boards; the package's
        // test (`tests/library/package.rs`) compares the program and the
        // model on every test file, this one keeps the comparison in the
        // unit tests.
        let cases = [
            ("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3", "AC", 5),
            (
                "1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3",
                "DDHH",
                23,
            ),
            (
                "3 2 1 1 1 2 3 3 3 3 1 2 3 1 1 3 3 1 2 1 2 2 2 2",
                "DFHF",
                102,
            ),
            (
                "2 1 3 1 1 3 3 2 1 2 1 3 3 3 1 1 3 3 2 1 2 2 2 2",
                "CBDBFDE",
                9_381,
            ),
            (
                "1 3 1 2 3 1 2 3 2 1 2 2 3 2 1 2 1 1 3 3 1 2 3 3",
                "AAAHAECCDB",
                290_576,
            ),
        ];
        for (board, moves, nodes) in cases {
            let board: Board = board.parse().unwrap();
            let search = ClassicSearch::run(&board);
            assert_eq!(
                (search.moves.to_string(), search.nodes),
                (moves.to_owned(), nodes),
                "{board}"
            );
        }
    }
}
