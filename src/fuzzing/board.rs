//! The `board` and `board_deep` targets: structure-aware, each input a
//! [`BoardCase`] that the `arbitrary` crate builds from the fuzzer's bytes.
//!
//! Both read the same input type, so that an input of one replays in the
//! other: `board` is the fast target, for the common case, and `board_deep`
//! the slow one, which runs every solver as far as it goes.

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};

use super::decode::encode_board;
use super::solve::{check_quick_solvers, check_solver, checked_descent};
use crate::board::{Board, Digit};
use crate::pattern_database::optimal_length;
use crate::solver::{SOLVERS, SolverOptions};
use crate::symmetry::Symmetry;

/// A permutation of the three digits: digit `d` becomes `images[d.index()]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relabelling {
    images: [Digit; 3],
}

impl Relabelling {
    /// The six permutations, the identity first.
    const ALL: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];

    /// Permutation number `index mod 6`, in lexicographic order of the
    /// digits' images (0 is the identity, 5 reverses the digits).
    pub fn nth(index: u8) -> Relabelling {
        let images = Relabelling::ALL[usize::from(index) % Relabelling::ALL.len()];
        Relabelling {
            images: images.map(|image| Digit::ALL[image]),
        }
    }

    /// The image of `digit`.
    pub fn digit(self, digit: Digit) -> Digit {
        self.images[digit.index()]
    }

    /// `board` with every digit replaced by its image.
    pub fn board(self, board: &Board) -> Board {
        let mut cells_of = [0u32; 3];
        for (digit, cells) in Digit::ALL.into_iter().zip(board.cell_sets()) {
            cells_of[self.digit(digit).index()] = cells.mask();
        }
        Board::from_cell_sets(cells_of).expect("relabelling permutes the digits' cell sets")
    }
}

impl<'a> Arbitrary<'a> for Relabelling {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Relabelling> {
        Ok(Relabelling::nth(u8::arbitrary(u)?))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, Some(1))
    }
}

/// What the board targets read: a board, and the transformations the fast
/// target applies to it.
///
/// Its bytes: one byte for the [`Relabelling`] (`mod 6`), one for the
/// symmetry (`mod 8`, 0 the identity), then the board as
/// [`decode_board`](super::decode_board) reads it, taking the rest of the
/// input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardCase {
    /// A permutation of the digits.
    pub relabelling: Relabelling,
    /// One of the board's eight symmetries (rotations and reflections of
    /// the square), by index, `0..8`.
    pub symmetry: u8,
    /// The board.
    pub board: Board,
}

impl<'a> Arbitrary<'a> for BoardCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<BoardCase> {
        Ok(BoardCase {
            relabelling: Relabelling::arbitrary(u)?,
            symmetry: u8::arbitrary(u)? % 8,
            board: Board::arbitrary(u)?,
        })
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<BoardCase> {
        Ok(BoardCase {
            relabelling: Relabelling::arbitrary(&mut u)?,
            symmetry: u8::arbitrary(&mut u)? % 8,
            board: Board::arbitrary_take_rest(u)?,
        })
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        arbitrary::size_hint::and(Relabelling::size_hint(depth), (1, None))
    }
}

impl BoardCase {
    /// The case `data` stands for. Every byte string is one.
    pub fn decode(data: &[u8]) -> BoardCase {
        BoardCase::arbitrary_take_rest(Unstructured::new(data))
            .expect("every byte string decodes to a board case")
    }

    /// Bytes that [`BoardCase::decode`] decodes to a case of `board` with
    /// relabelling number `relabelling` and symmetry number `symmetry`.
    pub fn encode(board: &Board, relabelling: u8, symmetry: u8) -> Vec<u8> {
        let mut data = vec![relabelling, symmetry];
        data.extend(encode_board(board));
        data
    }

    /// The board's image under the case's symmetry.
    pub fn symmetric_board(&self) -> Board {
        static SYMMETRIES: OnceLock<[Symmetry; 8]> = OnceLock::new();
        let symmetry = &SYMMETRIES.get_or_init(Symmetry::all)[usize::from(self.symmetry % 8)];
        let cells_of = self
            .board
            .cell_sets()
            .map(|cells| symmetry.apply_to_cells(cells.mask()));
        Board::from_cell_sets(cells_of).expect("a symmetry permutes the cells")
    }
}

/// The fast board target: checks the board of the [`BoardCase`] that `data`
/// stands for, its relabelled image and its symmetric image.
///
/// - On each of the three boards, the descent's answer makes the centre
///   uniform with the digit it names in exactly the pattern database's
///   optimal length, and every solver of the registry whose quick bound
///   reaches the board gives the same answer, which replays.
/// - Relabelling the digits changes nothing but the digit: the descent
///   answers the relabelled board with the same moves and the image of the
///   digit.
/// - A symmetry keeps the optimal length.
///
/// # Panics
///
/// When one of these fails.
pub fn board(data: &[u8]) {
    let case = BoardCase::decode(data);
    let board = &case.board;
    let expected = checked_descent(board);
    check_quick_solvers(board, &expected);

    let relabelled = case.relabelling.board(board);
    let relabelled_expected = checked_descent(&relabelled);
    assert_eq!(
        (relabelled_expected.moves, relabelled_expected.centre),
        (expected.moves, case.relabelling.digit(expected.centre)),
        "{board:?} relabelled by {:?} is {relabelled:?}",
        case.relabelling
    );
    check_quick_solvers(&relabelled, &relabelled_expected);

    let symmetric = case.symmetric_board();
    let symmetric_expected = checked_descent(&symmetric);
    assert_eq!(
        optimal_length(&symmetric),
        optimal_length(board),
        "{board:?} under symmetry {} is {symmetric:?}",
        case.symmetry
    );
    check_quick_solvers(&symmetric, &symmetric_expected);
}

/// The slow board target: every solver of the registry that accepts the
/// board of the [`BoardCase`] that `data` stands for, with its default
/// options (so `bfs` up to its default bound, `ida` on every board),
/// answers it as the descent does, and its answer replays.
///
/// The `ida` solver takes a large part of a second on the hardest boards,
/// and `bfs` searches to its bound, so this target runs far fewer inputs a
/// second than [`board`] (the measured rates: docs/performance.md,
/// "Fuzzing campaign").
///
/// # Panics
///
/// When a solver disagrees, or refuses a board within its bound.
pub fn board_deep(data: &[u8]) {
    let board = BoardCase::decode(data).board;
    let expected = checked_descent(&board);
    let length = optimal_length(&board);
    for entry in SOLVERS {
        let solver = (entry.build)(&SolverOptions::default());
        if length <= solver.max_optimal_length() {
            check_solver(&board, solver.as_ref(), &expected);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::FIRST_BOARD;

    #[test]
    fn the_six_relabellings_are_the_permutations() {
        let mut seen: Vec<[u8; 3]> = (0..6)
            .map(|index| Digit::ALL.map(|digit| Relabelling::nth(index).digit(digit).value()))
            .collect();
        assert_eq!(seen[0], [1, 2, 3]);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 6);
        assert_eq!(Relabelling::nth(6), Relabelling::nth(0));
    }

    #[test]
    fn relabelling_swaps_the_digits_cells() {
        let board: Board = FIRST_BOARD.parse().unwrap();
        let swap_one_and_two = Relabelling::nth(2);
        let relabelled = swap_one_and_two.board(&board);
        for cell in 0..24 {
            let swapped = match board.digit_at(cell).value() {
                1 => 2,
                2 => 1,
                other => other,
            };
            assert_eq!(relabelled.digit_at(cell).value(), swapped);
        }
    }

    #[test]
    fn a_case_encodes_and_decodes() {
        let board: Board = FIRST_BOARD.parse().unwrap();
        let case = BoardCase::decode(&BoardCase::encode(&board, 4, 11));
        assert_eq!(case.board, board);
        assert_eq!(case.relabelling, Relabelling::nth(4));
        assert_eq!(case.symmetry, 3);
        assert_eq!(BoardCase::decode(&[]).relabelling, Relabelling::nth(0));
    }

    #[test]
    fn the_identity_symmetry_keeps_the_board() {
        let board: Board = FIRST_BOARD.parse().unwrap();
        let case = BoardCase::decode(&BoardCase::encode(&board, 0, 0));
        assert_eq!(case.symmetric_board(), board);
        let turned = BoardCase::decode(&BoardCase::encode(&board, 0, 1));
        assert_ne!(turned.symmetric_board(), board);
    }
}
