//! Properties of moves, the parser and the generator, on generated inputs
//! (the solvers' properties are in `solvers_agree.rs`).

use proptest::prelude::*;
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::{format_input, parse_all};
use rotation_game::strategies::{any_move, move_sequences, scrambled_boards, uniform_boards};
use rotation_game::{MoveSequence, PdbSolver, Solver, pattern_database};

proptest! {
    #[test]
    fn a_move_then_its_inverse_is_the_identity(board in uniform_boards(), m in any_move()) {
        prop_assert_eq!(board.apply(m).apply(m.inverse()), board);
        prop_assert_eq!(board.apply(m.inverse()).apply(m), board);
    }

    #[test]
    fn a_sequence_then_its_inverses_in_reverse_is_the_identity(
        board in scrambled_boards(8),
        moves in move_sequences(20),
    ) {
        let undo: MoveSequence = moves.as_slice().iter().rev().map(|m| m.inverse()).collect();
        prop_assert_eq!(board.apply_all(moves.as_slice()).apply_all(undo.as_slice()), board);
    }

    #[test]
    fn parse_then_format_is_the_identity(boards in prop::collection::vec(uniform_boards(), 0..20)) {
        let text = format_input(&boards);
        let parsed = parse_all(text.as_bytes()).unwrap();
        prop_assert_eq!(&parsed, &boards);
        prop_assert_eq!(format_input(&parsed), text);
    }

    #[test]
    fn a_move_changes_the_optimal_length_by_at_most_one(board in uniform_boards(), m in any_move()) {
        let before = i16::from(pattern_database::optimal_length(&board));
        let after = i16::from(pattern_database::optimal_length(&board.apply(m)));
        prop_assert!((before - after).abs() <= 1);
    }
}

proptest! {
    // Each case builds a depth generator (a scan of the pattern database).
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn depth_boards_have_exactly_that_optimal_length(
        seed in any::<u64>(),
        length in 0..=13u8,
        index in 0..1_000_000u64,
    ) {
        let board = Generator::new(seed, Mode::Depth(length)).unwrap().board(index);
        prop_assert_eq!(pattern_database::optimal_length(&board), length);
        let solution = PdbSolver::default().solve(&board).unwrap();
        prop_assert_eq!(solution.moves.len(), usize::from(length));
    }

    #[test]
    fn a_board_depends_only_on_seed_mode_and_index(
        seed in any::<u64>(),
        scramble in 0..=20u8,
        index in 0..1_000_000u64,
    ) {
        for mode in [Mode::Uniform, Mode::Scramble(scramble)] {
            let generator = Generator::new(seed, mode).unwrap();
            let again = Generator::new(seed, mode).unwrap();
            let board = generator.board(index);
            // Asking for other boards first changes nothing.
            let _ = again.boards(3);
            prop_assert_eq!(again.board(index), board);
        }
    }
}
