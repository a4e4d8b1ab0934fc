//! The judge's answers for the hardest boards: every board of optimal length
//! 13, solved by the default solver, snapshotted. (`rotation-game verify
//! --hardest`, run by CI in release mode, checks that the classic solver
//! agrees; these boards are its slowest, and the summary of that command
//! gives its time per board.)

mod common;

use common::with_snapshots;
use rotation_game::generator::hardest_boards;
use rotation_game::judge::solve_to_string;
use rotation_game::parser::format_input;
use rotation_game::verify::expected_answer;
use rotation_game::{PdbSolver, Solver};

#[test]
fn judge_output_of_every_hardest_board() {
    let boards = hardest_boards();
    assert_eq!(boards.len(), 192);
    let output = solve_to_string(format_input(&boards).as_bytes(), &PdbSolver::default())
        .expect("generated input is valid");
    assert_eq!(output.lines().count(), 2 * boards.len());
    for (board, answer) in boards.iter().zip(output.lines().step_by(2)) {
        assert_eq!(answer.len(), 13);
        let solution = PdbSolver::default().solve(board).unwrap();
        assert!(solution.same_answer(&expected_answer(board)));
    }
    with_snapshots(|| insta::assert_snapshot!("hardest_answers", output));
}
