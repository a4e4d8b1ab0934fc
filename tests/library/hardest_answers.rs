//! The judges' answers for the hardest boards: every board of optimal length
//! 13, solved through the `solve` pipeline (`answers`) by the default
//! solver, is the greedy descent's answer. (`rotation-game verify
//! --hardest`, run by CI in release mode, checks that the classic solver
//! agrees; these boards are its slowest.)

use rotation_game::answers::solve_to_string;
use rotation_game::generator::hardest_boards;
use rotation_game::parser::format_input;
use rotation_game::{DescentSolver, PdbSolver, Solver};

#[test]
fn judge_output_of_every_hardest_board_is_the_descents_answer() {
    let boards = hardest_boards();
    assert_eq!(boards.len(), 192);
    let output = solve_to_string(format_input(&boards).as_bytes(), &PdbSolver::default())
        .expect("generated input is valid");
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 2 * boards.len());
    for (board, answer) in boards.iter().zip(lines.chunks(2)) {
        let expected = DescentSolver.solve(board).unwrap();
        assert_eq!(expected.moves.len(), 13);
        assert_eq!(
            answer,
            [expected.moves.letters(), expected.centre.to_string()]
        );
    }
}
