//! The moves as the statement defines them.

use proptest::prelude::*;
use rotation_game::geometry::{CELL_COUNT, LINES};
use rotation_game::sample::FIRST_BOARD;
use rotation_game::strategies::{any_move, move_sequences, uniform_boards};
use rotation_game::{Board, Move};

/// Where the tile on `cell` goes under `m`.
fn destination(m: Move, cell: usize) -> usize {
    let image = m.apply_to_cells(1 << cell);
    assert_eq!(image.count_ones(), 1, "a move is a permutation of cells");
    image.trailing_zeros() as usize
}

#[test]
fn each_move_is_a_seven_cycle_along_its_line_fixing_the_other_17_cells() {
    for m in Move::ALL {
        let line = LINES[m.index()];
        for cell in 0..CELL_COUNT {
            match line.iter().position(|&c| usize::from(c) == cell) {
                // c[i] takes c[i + 1]'s tile, so the tile on c[i + 1] moves to
                // c[i], and the tile on c[0] moves to c[6].
                Some(0) => assert_eq!(destination(m, cell), usize::from(line[6])),
                Some(i) => assert_eq!(destination(m, cell), usize::from(line[i - 1])),
                None => assert_eq!(destination(m, cell), cell, "{m} moves cell {cell}"),
            }
        }
        // Following the tile on c[0] for seven moves brings it home, and not
        // sooner.
        let start = usize::from(line[0]);
        let mut cell = start;
        for step in 1..=7 {
            cell = destination(m, cell);
            assert_eq!(cell == start, step == 7);
        }
    }
}

#[test]
fn the_statements_worked_example() {
    let sample: Board = FIRST_BOARD.parse().unwrap();
    let after_a = sample.apply(Move::from_letter(b'A').unwrap());
    assert_eq!(
        after_a.to_judge_line(),
        "1 1 3 1 3 2 2 2 3 1 3 2 2 3 1 2 2 2 3 1 3 1 1 3"
    );
    let after_c = after_a.apply(Move::from_letter(b'C').unwrap());
    assert_eq!(
        after_c.to_judge_line(),
        "1 1 3 1 3 3 2 2 2 3 1 2 2 3 1 2 2 2 3 1 3 1 1 3"
    );
    assert_eq!(after_c.uniform_centre().map(|d| d.value()), Some(2));
}

proptest! {
    #[test]
    fn a_move_then_its_inverse_is_the_identity(board in uniform_boards(), m in any_move()) {
        prop_assert_eq!(board.apply(m).apply(m.inverse()), board);
        prop_assert_eq!(board.apply(m.inverse()).apply(m), board);
    }

    #[test]
    fn seven_applications_of_a_move_are_the_identity(board in uniform_boards(), m in any_move()) {
        prop_assert_eq!(board.apply_all(&[m; 7]), board);
    }

    #[test]
    fn a_sequence_then_its_reversed_inverses_is_the_identity(
        board in uniform_boards(),
        moves in move_sequences(20),
    ) {
        let undo: Vec<Move> = moves.as_slice().iter().rev().map(|m| m.inverse()).collect();
        prop_assert_eq!(board.apply_all(moves.as_slice()).apply_all(&undo), board);
    }
}
