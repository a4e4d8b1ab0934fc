//! The `solve` target: arbitrary bytes decoded to a board, solved by every
//! solver that answers it quickly; and the answer checks the board targets
//! share.

use super::decode::decode_board;
use crate::board::Board;
use crate::pattern_database::optimal_length;
use crate::solver::{DescentSolver, SOLVERS, Solution, Solver, SolverOptions};

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
    let expected = checked_descent(&board);
    check_quick_solvers(&board, &expected);
}

/// The [`DescentSolver`]'s answer for `board`, checked: it makes the centre
/// uniform with the digit it names, in exactly [`optimal_length`] moves.
pub(super) fn checked_descent(board: &Board) -> Solution {
    let expected = DescentSolver
        .solve(board)
        .unwrap_or_else(|error| panic!("descent refused {board:?}: {error}"));
    let (_, centre) = board.replay(&expected.moves);
    assert_eq!(
        centre,
        Some(expected.centre),
        "descent on {board:?}: {expected:?}"
    );
    assert_eq!(
        expected.moves.len(),
        usize::from(optimal_length(board).moves()),
        "descent on {board:?}: {expected:?}"
    );
    expected
}

/// Checks that every solver of the registry whose quick bound reaches
/// `board` answers `expected`.
pub(super) fn check_quick_solvers(board: &Board, expected: &Solution) {
    let length = optimal_length(board);
    for entry in SOLVERS
        .iter()
        .filter(|entry| length <= entry.quick_max_length)
    {
        let options = SolverOptions {
            max_length: entry.quick_max_length,
        };
        check_solver(board, (entry.build)(&options).as_ref(), expected);
    }
}

/// Checks that `solver` answers `board` with `expected` (moves and digit),
/// and that its answer replays to a uniform centre of that digit.
pub(super) fn check_solver(board: &Board, solver: &dyn Solver, expected: &Solution) {
    let name = solver.name();
    let solution = solver
        .solve(board)
        .unwrap_or_else(|error| panic!("{name} refused {board:?}: {error}"));
    assert!(
        solution.same_answer(expected),
        "{board:?}: {name} {solution:?}, descent {expected:?}"
    );
    let (_, centre) = board.replay(&solution.moves);
    assert_eq!(
        centre,
        Some(solution.centre),
        "{name}'s answer on {board:?} does not replay: {solution:?}"
    );
}
