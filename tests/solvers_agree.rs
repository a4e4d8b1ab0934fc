//! The three solvers against each other, on generated boards.

use proptest::prelude::*;
use rotation_game::generator::{Generator, Mode};
use rotation_game::pattern_database;
use rotation_game::strategies::{scrambled_boards, uniform_boards};
use rotation_game::verify::{BoardSource, Entrant, expected_answer, verify};
use rotation_game::{BfsSolver, Board, IdaSolver, PdbSolver, Solution, SolveError, Solver};

/// Checks everything an answer must satisfy on its own: it replays to a
/// uniform centre equal to the reported digit, and its length is the exact
/// optimal length from the pattern database.
fn assert_sound(board: &Board, solution: &Solution) {
    let (_, centre) = board.replay(&solution.moves);
    assert_eq!(centre, Some(solution.centre), "{board:?}: {solution:?}");
    assert_eq!(
        solution.moves.len(),
        usize::from(pattern_database::optimal_length(board)),
        "{board:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn all_three_agree_on_scrambles_of_up_to_seven_moves(board in scrambled_boards(7)) {
        let pdb = PdbSolver::default().solve(&board).unwrap();
        let ida = IdaSolver::default().solve(&board).unwrap();
        let bfs = BfsSolver::new(7).solve(&board).unwrap();
        for solution in [&pdb, &ida, &bfs] {
            assert_sound(&board, solution);
        }
        prop_assert!(pdb.same_answer(&ida), "pdb {pdb:?} ida {ida:?}");
        prop_assert!(pdb.same_answer(&bfs), "pdb {pdb:?} bfs {bfs:?}");
        // The breadth-first reference confirms that nothing shorter exists:
        // bounded one move short of the answer, it finds no solution.
        if let Some(shorter) = pdb.moves.len().checked_sub(1) {
            let bounded = BfsSolver::new(shorter as u8).solve(&board);
            prop_assert_eq!(bounded, Err(SolveError::TooDeep { max_depth: shorter as u8 }));
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
    fn all_three_agree_on_boards_of_every_length_up_to_six(seed in any::<u64>(), length in 0..=6u8) {
        let generator = Generator::new(seed, Mode::Depth(length)).unwrap();
        let source = BoardSource::Generated { generator: &generator, count: 4 };
        let (pdb, ida, bfs) = (PdbSolver::default(), IdaSolver::default(), BfsSolver::new(6));
        let entrants = [Entrant::new(&pdb), Entrant::new(&ida), Entrant::up_to(&bfs, 6)];
        let report = verify(source, &entrants, 1, &|_| {}).unwrap();
        prop_assert!(report.passed(), "{}", report.disagreements[0]);
        prop_assert_eq!(report.boards_by_length[usize::from(length)], 4);
        prop_assert_eq!(report.solvers[2].boards, 4);
    }

    #[test]
    fn pdb_gives_the_answer_derived_from_the_pattern_database(board in uniform_boards()) {
        let pdb = PdbSolver::default().solve(&board).unwrap();
        prop_assert!(pdb.same_answer(&expected_answer(&board)));
    }
}
