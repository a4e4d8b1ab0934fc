//! The `solve` target: arbitrary bytes decoded to a board, solved by every
//! solver that answers it quickly.

use crate::board::{Board, Digit};
use crate::geometry::{CELL_COUNT, CENTRE};
use crate::moves::Move;
use crate::pattern_database::optimal_length;
use crate::solver::{DescentSolver, SOLVERS, Solver, SolverOptions};

/// The board that `data` stands for. Every byte string decodes to a valid
/// board, and every board is the decoding of some byte string.
///
/// The empty input is the sorted board (eight 1s, then eight 2s, then eight
/// 3s, in cell order). Otherwise the first byte picks one of two decodings,
/// by its lowest bit:
///
/// - **even: shuffle.** The next bytes drive a Fisher–Yates shuffle of the
///   sorted board's values: for `i` from 23 down to 1, one byte `b` swaps
///   the values of cells `i` and `b mod (i + 1)`. The shuffle stops early
///   when the bytes run out; bytes after the 24th are ignored.
/// - **odd: scramble.** The first byte's remaining bits give the centre
///   digit, `(byte >> 1) mod 3 + 1`; the other two digits fill the outer 16
///   cells, the smaller one first in cell order, and the next 15 bytes
///   shuffle them in the same way (for `i` from 15 down to 1). Each byte
///   after those is a move, `byte mod 8` (0 is A, …, 7 is H), applied to
///   that solved board in order.
///
/// Shuffles reach every arrangement; scrambles reach short boards (which
/// the reference solvers can check) far more often than shuffles do.
pub fn decode_board(data: &[u8]) -> Board {
    let Some((&first, rest)) = data.split_first() else {
        return sorted_board();
    };
    if first & 1 == 0 {
        let mut values: [u8; CELL_COUNT] = sorted_values();
        shuffle(&mut values, rest);
        return Board::from_values(&values).expect("a shuffle keeps eight of each digit");
    }
    let centre = Digit::ALL[usize::from((first >> 1) % 3)];
    let mut outer: Vec<Digit> = Digit::ALL
        .into_iter()
        .filter(|&digit| digit != centre)
        .flat_map(|digit| [digit; 8])
        .collect();
    let shuffle_bytes = rest.len().min(outer.len() - 1);
    shuffle(&mut outer, &rest[..shuffle_bytes]);
    let mut cells_of = [0u32; 3];
    cells_of[centre.index()] = CENTRE;
    let outer_cells = (0..CELL_COUNT).filter(|&cell| CENTRE & (1 << cell) == 0);
    for (cell, digit) in outer_cells.zip(outer) {
        cells_of[digit.index()] |= 1 << cell;
    }
    let solved = Board::from_cell_sets(cells_of).expect("eight of each digit");
    let moves: Vec<Move> = rest[shuffle_bytes..]
        .iter()
        .map(|&byte| Move::ALL[usize::from(byte % 8)])
        .collect();
    solved.apply_all(&moves)
}

/// Bytes that [`decode_board`] decodes to `board`: a first byte 0, then the
/// 23 bytes of the shuffle that puts the sorted board's values in place.
pub fn encode_board(board: &Board) -> Vec<u8> {
    let target = board.values();
    let mut values = sorted_values();
    let mut data = Vec::with_capacity(CELL_COUNT);
    data.push(0);
    for i in (1..CELL_COUNT).rev() {
        let j = values[..=i]
            .iter()
            .position(|&value| value == target[i])
            .expect("the unplaced cells hold the unplaced values");
        values.swap(i, j);
        data.push(j as u8);
    }
    data
}

/// Solves the board [decoded](decode_board) from `data` and checks the
/// answers.
///
/// - The [`DescentSolver`]'s answer makes the centre uniform with the digit
///   it names, in [`optimal_length`] moves, the table's exact distance.
/// - Every solver of the registry ([`SOLVERS`]) whose
///   [`quick_max_length`](crate::solver::SolverEntry::quick_max_length)
///   reaches the board gives the same answer, moves and digit.
///
/// # Panics
///
/// When one of these fails.
pub fn solve(data: &[u8]) {
    let board = decode_board(data);
    let expected = DescentSolver
        .solve(&board)
        .unwrap_or_else(|error| panic!("descent refused {board:?}: {error}"));
    let (_, centre) = board.replay(&expected.moves);
    assert_eq!(
        centre,
        Some(expected.centre),
        "descent on {board:?}: {expected:?}"
    );
    let length = optimal_length(&board);
    assert_eq!(
        expected.moves.len(),
        usize::from(length.moves()),
        "descent on {board:?}: {expected:?}"
    );
    for entry in SOLVERS
        .iter()
        .filter(|entry| length <= entry.quick_max_length)
    {
        let options = SolverOptions {
            max_length: entry.quick_max_length,
        };
        let solution = (entry.build)(&options)
            .solve(&board)
            .unwrap_or_else(|error| panic!("{} refused {board:?}: {error}", entry.name));
        assert!(
            solution.same_answer(&expected),
            "{board:?}: {} {solution:?}, descent {expected:?}",
            entry.name
        );
    }
}

/// Eight 1s, eight 2s, eight 3s, in cell order.
fn sorted_values() -> [u8; CELL_COUNT] {
    std::array::from_fn(|cell| (cell / 8) as u8 + 1)
}

fn sorted_board() -> Board {
    Board::from_values(&sorted_values()).expect("eight of each digit")
}

/// Fisher–Yates from the last item down, one byte per swap, stopping when
/// the bytes run out.
fn shuffle<T>(items: &mut [T], bytes: &[u8]) {
    for (i, &byte) in (1..items.len()).rev().zip(bytes) {
        items.swap(i, usize::from(byte) % (i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::FIRST_BOARD;

    #[test]
    fn the_empty_input_is_the_sorted_board() {
        assert_eq!(decode_board(b"").values(), sorted_values());
        assert_eq!(decode_board(&[0]).values(), sorted_values());
    }

    #[test]
    fn a_shuffle_byte_swaps_the_last_unshuffled_cell() {
        // One byte 0 swaps cell 23 with cell 0.
        let values = decode_board(&[0, 0]).values();
        assert_eq!((values[0], values[23]), (3, 1));
        assert_eq!(&values[1..23], &sorted_values()[1..23]);
    }

    #[test]
    fn encoding_decodes_to_the_same_board() {
        let sample: Board = FIRST_BOARD.parse().unwrap();
        for board in [sample, sorted_board(), decode_board(&[1, 2, 3, 4, 5])] {
            assert_eq!(decode_board(&encode_board(&board)), board);
        }
    }

    #[test]
    fn a_scramble_without_moves_is_solved_with_the_chosen_digit() {
        for (first, digit) in [(1, 1), (3, 2), (5, 3), (7, 1)] {
            let board = decode_board(&[first]);
            assert_eq!(board.uniform_centre().map(Digit::value), Some(digit));
        }
    }

    #[test]
    fn scramble_bytes_after_the_shuffle_are_moves() {
        let mut data = vec![1; 16];
        data.push(8 + 2);
        let solved = decode_board(&data[..16]);
        assert_eq!(decode_board(&data), solved.apply(Move::ALL[2]));
    }
}
