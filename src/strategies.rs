//! proptest strategies for boards and moves, shared by the tests, the
//! benches and the fuzz targets (feature `proptest`).
//!
//! Boards shrink towards the sorted board (eight 1s, eight 2s, eight 3s in
//! cell order) and move sequences towards fewer and earlier moves, so a
//! failing case is reported in its simplest form.

use proptest::prelude::*;

use crate::board::{Board, Digit};
use crate::generator;
use crate::geometry::CELL_COUNT;
use crate::moves::{Move, MoveSequence};

/// Any single move.
pub fn any_move() -> impl Strategy<Value = Move> {
    (0..8usize).prop_map(|index| Move::from_index(index).expect("index below 8"))
}

/// Any sequence of up to `max_len` moves (inverse pairs allowed).
pub fn move_sequences(max_len: usize) -> impl Strategy<Value = MoveSequence> {
    prop::collection::vec(any_move(), 0..=max_len).prop_map(MoveSequence::from_iter)
}

/// A uniformly random arrangement of eight each of 1, 2 and 3.
pub fn uniform_boards() -> impl Strategy<Value = Board> {
    let sorted: Vec<u8> = (0..CELL_COUNT).map(|cell| (cell / 8) as u8 + 1).collect();
    Just(sorted)
        .prop_shuffle()
        .prop_map(|values| Board::from_values(&values).expect("a shuffled board is valid"))
}

/// A solved board: one digit fills the centre, the other two share the
/// outer cells in any arrangement.
pub fn solved_boards() -> impl Strategy<Value = Board> {
    let outer: Vec<bool> = (0..16).map(|i| i >= 8).collect();
    (0..3usize, Just(outer).prop_shuffle()).prop_map(|(centre, outer)| {
        let outer: [bool; 16] = outer.try_into().expect("sixteen outer cells");
        generator::solved_board_with(Digit::ALL[centre], &outer)
    })
}

/// A solved board scrambled by up to `max_moves` random moves.
pub fn scrambled_boards(max_moves: usize) -> impl Strategy<Value = Board> {
    (solved_boards(), move_sequences(max_moves))
        .prop_map(|(board, moves)| board.apply_all(moves.as_slice()))
}
