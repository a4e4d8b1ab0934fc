//! The solvers against each other, on generated boards.

use proptest::prelude::*;
use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode};
use rotation_game::pattern_database;
use rotation_game::strategies::{scrambled_boards, uniform_boards};
use rotation_game::verify::{BoardSource, verify};
use rotation_game::{
    BfsSolver, Board, DescentSolver, IdaSolver, PdbSolver, Solution, SolveError, Solver,
};

fn length(moves: u8) -> OptimalLength {
    OptimalLength::new(moves).unwrap()
}

/// Checks everything an answer must satisfy on its own: it replays to a
/// uniform centre equal to the reported digit, and its length is the exact
/// optimal length from the pattern database.
fn assert_sound(board: &Board, solution: &Solution) {
    let (_, centre) = board.replay(&solution.moves);
    assert_eq!(centre, Some(solution.centre), "{board:?}: {solution:?}");
    assert_eq!(
        solution.moves.len(),
        usize::from(pattern_database::optimal_length(board).moves()),
        "{board:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn all_three_agree_on_scrambles_of_up_to_seven_moves(board in scrambled_boards(7)) {
        let pdb = PdbSolver::default().solve(&board).unwrap();
        let ida = IdaSolver::default().solve(&board).unwrap();
        let bfs = BfsSolver::new(length(7)).solve(&board).unwrap();
        for solution in [&pdb, &ida, &bfs] {
            assert_sound(&board, solution);
        }
        prop_assert!(pdb.same_answer(&ida), "pdb {pdb:?} ida {ida:?}");
        prop_assert!(pdb.same_answer(&bfs), "pdb {pdb:?} bfs {bfs:?}");
        // The breadth-first reference confirms that nothing shorter exists:
        // bounded one move short of the answer, it finds no solution.
        if let Some(shorter) = pdb.moves.len().checked_sub(1) {
            let shorter = length(shorter as u8);
            let bounded = BfsSolver::new(shorter).solve(&board);
            prop_assert_eq!(bounded, Err(SolveError::TooLong { max_length: shorter }));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn pdb_and_ida_agree_on_uniform_boards(board in uniform_boards()) {
        let pdb = PdbSolver::default().solve(&board).unwrap();
        assert_sound(&board, &pdb);
        // Only the 192 boards of 13 moves (of 9.5 billion) are left out: they
        // take the classic solver most of a second each, and the CI run of
        // `verify --hardest` checks every one of them.
        if pdb.moves.len() <= 12 {
            let ida = IdaSolver::default().solve(&board).unwrap();
            assert_sound(&board, &ida);
            prop_assert!(pdb.same_answer(&ida), "pdb {pdb:?} ida {ida:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn all_agree_on_boards_of_every_length_up_to_six(seed in any::<u64>(), moves in 0..=6u8) {
        let generator = Generator::new(seed, Mode::Length(length(moves)));
        let source = BoardSource::Generated { generator: &generator, count: 4 };
        let bfs = BfsSolver::new(length(6));
        let solvers: [&dyn Solver; 4] = [&PdbSolver::default(), &IdaSolver::default(), &bfs, &DescentSolver];
        let report = verify(source, &solvers, 1, &|_| {}).unwrap();
        prop_assert!(report.passed(), "{:?}", report.disagreements[0]);
        prop_assert_eq!(report.boards_by_length.as_slice()[usize::from(moves)], 4);
        prop_assert_eq!(report.solvers[2].boards, 4);
    }

    #[test]
    fn pdb_gives_the_answer_derived_from_the_pattern_database(board in uniform_boards()) {
        let pdb = PdbSolver::default().solve(&board).unwrap();
        prop_assert!(pdb.same_answer(&DescentSolver.solve(&board).unwrap()));
    }
}
