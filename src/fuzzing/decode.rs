//! The fuzzer's bytes as boards: [`Board`]'s [`Arbitrary`] implementation,
//! which every board target decodes its input with.

use arbitrary::{Arbitrary, Unstructured};

use crate::board::{Board, Digit};
use crate::geometry::{CELL_COUNT, CENTRE};
use crate::moves::Move;

/// The board that `data` stands for: [`Board::arbitrary_take_rest`] on
/// `data`. Every byte string decodes to a valid board, and every board is
/// the decoding of some byte string ([`encode_board`] gives one).
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
///
/// Inside a larger input ([`Board::arbitrary`], as a field of another
/// [`Arbitrary`] type) a scramble cannot take the rest of the bytes: one
/// byte `n` comes before its moves, and `n mod 32` moves follow.
pub fn decode_board(data: &[u8]) -> Board {
    Board::arbitrary_take_rest(Unstructured::new(data))
        .expect("every byte string decodes to a board")
}

/// The most moves a scramble inside a larger input holds, plus one.
const SCRAMBLE_MOVES_MODULUS: u8 = 32;

impl<'a> Arbitrary<'a> for Board {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Board> {
        decode(u, |u| {
            let count = next_byte(u).map_or(0, |byte| byte % SCRAMBLE_MOVES_MODULUS);
            (0..count).map_while(|_| next_byte(u)).collect()
        })
    }

    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Board> {
        decode(&mut u, |u| std::iter::from_fn(|| next_byte(u)).collect())
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, None)
    }
}

/// The decoding of [`decode_board`], reading a scramble's move bytes with
/// `move_bytes`.
fn decode(
    u: &mut Unstructured<'_>,
    move_bytes: impl FnOnce(&mut Unstructured<'_>) -> Vec<u8>,
) -> arbitrary::Result<Board> {
    let Some(first) = next_byte(u) else {
        return Ok(sorted_board());
    };
    if first & 1 == 0 {
        let mut values: [u8; CELL_COUNT] = sorted_values();
        shuffle(&mut values, u);
        return Ok(Board::from_values(&values).expect("a shuffle keeps eight of each digit"));
    }
    let centre = Digit::ALL[usize::from((first >> 1) % 3)];
    let mut outer: Vec<Digit> = Digit::ALL
        .into_iter()
        .filter(|&digit| digit != centre)
        .flat_map(|digit| [digit; 8])
        .collect();
    shuffle(&mut outer, u);
    let mut cells_of = [0u32; 3];
    cells_of[centre.index()] = CENTRE;
    let outer_cells = (0..CELL_COUNT).filter(|&cell| CENTRE & (1 << cell) == 0);
    for (cell, digit) in outer_cells.zip(outer) {
        cells_of[digit.index()] |= 1 << cell;
    }
    let solved = Board::from_cell_sets(cells_of).expect("eight of each digit");
    let moves: Vec<Move> = move_bytes(u)
        .into_iter()
        .map(|byte| Move::ALL[usize::from(byte % 8)])
        .collect();
    Ok(solved.apply_all(&moves))
}

/// The next byte, or `None` at the end of the input.
fn next_byte(u: &mut Unstructured<'_>) -> Option<u8> {
    if u.is_empty() {
        None
    } else {
        u8::arbitrary(u).ok()
    }
}

/// Bytes that [`decode_board`] decodes to `board`: a first byte 0, then the
/// 23 bytes of the shuffle that puts the sorted board's values in place.
/// Inside a larger input, [`Board::arbitrary`] reads the same 24 bytes.
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

/// Eight 1s, eight 2s, eight 3s, in cell order.
fn sorted_values() -> [u8; CELL_COUNT] {
    std::array::from_fn(|cell| (cell / 8) as u8 + 1)
}

fn sorted_board() -> Board {
    Board::from_values(&sorted_values()).expect("eight of each digit")
}

/// Fisher–Yates from the last item down, one byte per swap, stopping when
/// the bytes run out.
fn shuffle<T>(items: &mut [T], u: &mut Unstructured<'_>) {
    for i in (1..items.len()).rev() {
        let Some(byte) = next_byte(u) else {
            return;
        };
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
            let mut inside = encode_board(&board);
            inside.push(9);
            let mut u = Unstructured::new(&inside);
            assert_eq!(Board::arbitrary(&mut u).unwrap(), board);
            assert_eq!(u.len(), 1, "a shuffle reads exactly 24 bytes");
        }
        let mut empty = Unstructured::new(&[]);
        assert_eq!(Board::arbitrary(&mut empty).unwrap(), sorted_board());
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

    #[test]
    fn inside_a_larger_input_a_scramble_counts_its_moves() {
        // 16 bytes of a scramble, a count of 34 mod 32 = 2 moves (C, then
        // D), and one byte left for whatever follows the board.
        let mut data = vec![1; 16];
        data.extend([34, 2, 3, 99]);
        let mut u = Unstructured::new(&data);
        let board = Board::arbitrary(&mut u).unwrap();
        let solved = decode_board(&data[..16]);
        assert_eq!(board, solved.apply(Move::ALL[2]).apply(Move::ALL[3]));
        assert_eq!(u.len(), 1);
    }
}
