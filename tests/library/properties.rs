//! Properties of the parser, the optimal length and the generator, on
//! generated inputs (those of the moves alone are in `moves.rs`, the
//! solvers' in `solvers_agree.rs`).

use proptest::prelude::*;
use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::{format_input, parse_all};
use rotation_game::strategies::{any_move, uniform_boards};
use rotation_game::{PdbSolver, Solver, pattern_database};

proptest! {
    #[test]
    fn parse_then_format_is_the_identity(boards in prop::collection::vec(uniform_boards(), 0..20)) {
        let text = format_input(&boards);
        let parsed = parse_all(text.as_bytes()).unwrap();
        prop_assert_eq!(&parsed, &boards);
        prop_assert_eq!(format_input(&parsed), text);
    }

    #[test]
    fn a_move_changes_the_optimal_length_by_at_most_one(board in uniform_boards(), m in any_move()) {
        let before = i16::from(pattern_database::optimal_length(&board).moves());
        let after = i16::from(pattern_database::optimal_length(&board.apply(m)).moves());
        prop_assert!((before - after).abs() <= 1);
    }
}

proptest! {
    // Each case builds a length generator (a scan of the pattern database).
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn length_boards_have_exactly_that_optimal_length(
        seed in any::<u64>(),
        length in 0..=13u8,
        index in 0..1_000_000u64,
    ) {
        let board = Generator::new(seed, Mode::Length(OptimalLength::new(length).unwrap())).board(index);
        prop_assert_eq!(pattern_database::optimal_length(&board).moves(), length);
        let solution = PdbSolver::default().solve(&board).unwrap();
        prop_assert_eq!(solution.moves.len(), usize::from(length));
    }
}
