//! Proof that the harness catches wrong solvers: each test plants a solver
//! with a known bug behind the [`Solver`] trait, runs a campaign through the
//! library entry point of `verify`, and checks that every board on which the
//! planted solver's answer differs from the `pdb` solver's is reported, by
//! index and board, with the right fault, and no other board.
//!
//! Each test also checks that the planted solver is wrong on at least one of
//! the boards used, so that none of them can pass by testing nothing.

use rotation_game::generator::{Generator, Mode};
use rotation_game::solver::{Heuristic, IdaStar, descend};
use rotation_game::verify::{BoardSource, DISAGREEMENTS_KEPT, Disagreement, Fault, verify};
use rotation_game::{Board, Digit, Move, OptimalLength, PdbSolver, Solution, SolveError, Solver};
use rotation_game::{IdaSolver, pattern_database};

/// The campaign the planted solvers face: uniformly random boards.
fn generator() -> Generator {
    Generator::new(2286, Mode::Uniform)
}

/// Boards per campaign.
const BOARDS: u64 = 300;

/// Runs `pdb` and `planted` on the campaign's boards, checks that `verify`
/// reports exactly the boards where they answer differently (at least one),
/// naming each board, and returns those reports.
fn disagreements_with(planted: &dyn Solver) -> Vec<Disagreement> {
    let generator = generator();
    let pdb = PdbSolver::default();
    let wrong: Vec<u64> = (0..BOARDS)
        .filter(|&index| {
            let board = generator.board(index);
            let right = pdb.solve(&board).unwrap();
            !matches!(planted.solve(&board), Ok(answer) if answer.same_answer(&right))
        })
        .collect();
    assert!(
        !wrong.is_empty(),
        "{} is right on every board: the test would prove nothing",
        planted.name()
    );
    let source = BoardSource::Generated {
        generator: &generator,
        count: BOARDS,
    };
    let report = verify(source, &[&pdb, planted], 2, &|_| {}).expect("threads start");
    assert!(!report.passed());
    let reported: Vec<u64> = report.disagreements.iter().map(|d| d.case - 1).collect();
    assert_eq!(reported, wrong);
    for disagreement in &report.disagreements {
        assert_eq!(disagreement.board, generator.board(disagreement.case - 1));
        assert_eq!(disagreement.seed, Some(generator.seed()));
        assert!(disagreement.solvers_differ());
        let [pdb_answer, planted_answer] = &disagreement.answers[..] else {
            panic!("two answers expected: {disagreement:?}");
        };
        assert!(pdb_answer.faults.is_empty(), "{disagreement:?}");
        assert!(!planted_answer.faults.is_empty(), "{disagreement:?}");
        assert_eq!(
            disagreement.judge_input(),
            format!("{}\n0\n", disagreement.board.to_judge_line())
        );
    }
    report.disagreements
}

/// The planted solver's faults on each reported board.
fn planted_faults(disagreements: &[Disagreement]) -> Vec<Vec<Fault>> {
    disagreements
        .iter()
        .map(|d| d.answers[1].faults.clone())
        .collect()
}

/// Optimal, but tries the moves from H down to A: among the shortest
/// sequences it finds the lexicographically largest, not the smallest.
struct WrongOrder;

impl Solver for WrongOrder {
    fn name(&self) -> &str {
        "wrong-order"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let mut order = Move::ALL;
        order.reverse();
        let descent = descend(board, &order, |b| {
            pattern_database::optimal_length(b).moves()
        });
        Ok(Solution {
            moves: descent.moves,
            centre: descent.end.uniform_centre().unwrap(),
            nodes: 0,
        })
    }
}

#[test]
fn a_solver_with_the_wrong_tie_break_is_caught() {
    let disagreements = disagreements_with(&WrongOrder);
    for faults in planted_faults(&disagreements) {
        assert!(
            matches!(faults[..], [Fault::NotSmallest { .. }]),
            "{faults:?}"
        );
    }
}

/// The exact distance, plus one on unsolved boards whose cell 0 holds a 1.
///
/// Adding one everywhere would not do: IDA* would start one bound higher and
/// still meet the same sequences first (every node of every path is shifted
/// alike), so the planted bug would be invisible and the test could not
/// fail. Overestimating on some boards only prunes some optimal paths and
/// not others.
struct Overestimate;

impl Heuristic for Overestimate {
    type Memo = ();

    fn estimate(&self, board: &Board) -> (u8, ()) {
        let exact = pattern_database::optimal_length(board).moves();
        let one = Digit::new(1).unwrap();
        if exact > 0 && board.digit_at(0) == one {
            (exact + 1, ())
        } else {
            (exact, ())
        }
    }
}

#[test]
fn a_solver_whose_heuristic_overestimates_by_one_is_caught() {
    let planted = IdaStar::with_heuristic("overestimate", Overestimate);
    let disagreements = disagreements_with(&planted);
    for faults in planted_faults(&disagreements) {
        assert!(
            matches!(
                faults[..],
                [Fault::NotSmallest { .. }] | [Fault::WrongLength { .. }]
            ),
            "{faults:?}"
        );
    }
}

/// Answers the right moves but reports the commonest digit of the starting
/// centre (the smallest such digit on a tie), not the digit the moves leave.
struct WrongCentre;

impl Solver for WrongCentre {
    fn name(&self) -> &str {
        "wrong-centre"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let right = PdbSolver::default().solve(board)?;
        let commonest = Digit::ALL
            .into_iter()
            .rev()
            .max_by_key(|&digit| board.centre_count(digit))
            .unwrap();
        Ok(Solution {
            centre: commonest,
            ..right
        })
    }
}

#[test]
fn a_solver_that_reports_the_wrong_centre_digit_is_caught() {
    let disagreements = disagreements_with(&WrongCentre);
    for (disagreement, faults) in disagreements.iter().zip(planted_faults(&disagreements)) {
        assert_eq!(
            faults,
            [Fault::WrongCentre {
                actual: disagreement.expected.centre
            }]
        );
    }
}

/// Brings the commonest digit of the starting centre into the centre by the
/// smallest of its shortest sequences: a valid solution, but longer than
/// optimal when another digit is closer (and not the smallest optimal one
/// when another digit is as close and has a smaller sequence).
struct CommonestDigitFirst;

impl Solver for CommonestDigitFirst {
    fn name(&self) -> &str {
        "commonest-digit"
    }

    fn solve(&self, board: &Board) -> Result<Solution, SolveError> {
        let digit = Digit::ALL
            .into_iter()
            .rev()
            .max_by_key(|&digit| board.centre_count(digit))
            .unwrap();
        let distance = |b: &Board| pattern_database::distance(b.cells_of(digit));
        Ok(Solution {
            moves: descend(board, &Move::ALL, distance).moves,
            centre: digit,
            nodes: 0,
        })
    }
}

#[test]
fn a_solver_that_returns_a_longer_valid_solution_is_caught() {
    let disagreements = disagreements_with(&CommonestDigitFirst);
    let mut longer = 0;
    for (disagreement, faults) in disagreements.iter().zip(planted_faults(&disagreements)) {
        let answer = disagreement.answers[1].result.unwrap();
        assert_eq!(
            disagreement.board.replay(&answer.moves).1,
            Some(answer.centre)
        );
        if answer.moves.len() > usize::from(disagreement.optimal_length.moves()) {
            longer += 1;
            assert_eq!(
                faults,
                [Fault::WrongLength {
                    optimal: disagreement.optimal_length
                }]
            );
        } else {
            // Another digit was as close, and its sequence is smaller.
            assert!(
                matches!(faults[..], [Fault::NotSmallest { .. }]),
                "{faults:?}"
            );
        }
    }
    assert!(longer > 0, "no longer solution among the boards");
}

/// A solver that gives up on every board, yet claims to answer those up to
/// its bound.
struct Refuses {
    bound: OptimalLength,
}

impl Solver for Refuses {
    fn name(&self) -> &str {
        "refuses"
    }

    fn solve(&self, _: &Board) -> Result<Solution, SolveError> {
        Err(SolveError::TooLong {
            max_length: OptimalLength::ZERO,
        })
    }

    fn max_optimal_length(&self) -> OptimalLength {
        self.bound
    }
}

#[test]
fn a_solver_that_gives_no_answer_is_caught_but_not_outside_its_bound() {
    let boards = Generator::new(9, Mode::Scramble(3)).boards(20);
    let pdb = PdbSolver::default();
    let run = |bound| {
        let refuses = Refuses { bound };
        verify(BoardSource::Listed(&boards), &[&pdb, &refuses], 1, &|_| {}).unwrap()
    };
    let report = run(OptimalLength::MAX);
    assert_eq!(report.disagreements.len(), boards.len());
    assert_eq!(report.disagreements[3].seed, None);
    assert_eq!(report.disagreements[3].board, boards[3]);
    assert_eq!(report.solvers[1].boards, 20);
    let bounded = run(OptimalLength::ZERO);
    let unsolved = boards.iter().filter(|b| !b.is_solved()).count();
    assert_eq!(bounded.disagreements.len(), boards.len() - unsolved);
    assert_eq!(bounded.solvers[1].boards, (boards.len() - unsolved) as u64);
}

#[test]
fn only_the_first_disagreements_are_kept_and_all_are_counted() {
    let count = 2 * DISAGREEMENTS_KEPT as u64 + 500;
    let generator = generator();
    let source = BoardSource::Generated {
        generator: &generator,
        count,
    };
    let refuses = Refuses {
        bound: OptimalLength::MAX,
    };
    for threads in [1, 2] {
        let report = verify(source, &[&refuses], threads, &|_| {}).unwrap();
        assert!(!report.passed());
        assert_eq!(report.disagreement_count, count);
        assert_eq!(report.disagreements_not_kept(), count - 1000);
        let kept: Vec<u64> = report.disagreements.iter().map(|d| d.case).collect();
        assert_eq!(kept, (1..=1000).collect::<Vec<u64>>());
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["disagreements"].as_array().unwrap().len(), 1000);
        assert_eq!(json["disagreement_count"], 2500);
        assert_eq!(json["disagreements_not_kept"], 1500);
    }
}

#[test]
fn the_right_solvers_pass_and_the_report_ignores_the_thread_count() {
    let generator = Generator::new(5, Mode::Scramble(6));
    let source = BoardSource::Generated {
        generator: &generator,
        count: 60,
    };
    let (pdb, ida) = (PdbSolver::default(), IdaSolver::default());
    let bfs = rotation_game::BfsSolver::new(OptimalLength::new(6).unwrap());
    let one = verify(source, &[&pdb, &ida, &bfs], 1, &|_| {}).unwrap();
    assert!(one.passed(), "{:?}", one.disagreements);
    assert_eq!(one.boards, 60);
    assert_eq!(one.boards_by_length.total(), 60);
    assert_eq!(one.solvers[2].boards, 60);

    let planted: [&dyn Solver; 2] = [&pdb, &WrongOrder];
    let uniform = generator_source_report(&planted, 1);
    let two = generator_source_report(&planted, 2);
    assert!(!uniform.passed());
    assert_eq!(uniform.disagreements, two.disagreements);
    assert_eq!(uniform.boards_by_length, two.boards_by_length);
    assert_eq!(two.threads, 2);
}

/// The planted campaign's report on `threads` threads.
fn generator_source_report(
    solvers: &[&dyn Solver],
    threads: usize,
) -> rotation_game::verify::Report {
    let generator = generator();
    let source = BoardSource::Generated {
        generator: &generator,
        count: 100,
    };
    verify(source, solvers, threads, &|_| {}).unwrap()
}
