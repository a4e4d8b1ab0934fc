//! Instruction-count benchmarks of the hot paths, under Callgrind (gungraun).
//!
//! Instruction counts do not depend on what else the machine is doing, so
//! these, unlike the wall-clock benches, can gate CI: `just perf-gate` runs
//! them and fails when any count exceeds the committed baseline
//! (`benches/instructions.baseline`) by more than 3 percent. Needs valgrind
//! and `gungraun-runner` at the exact version of the `gungraun` crate in
//! `Cargo.lock` (`just perf-gate` installs it).
//!
//! Rayon is fixed to one thread; nothing here spawns threads anyway.
//!
//! `just perf-bench --bmf FILE` runs them through the `perf-history` tool and
//! also writes the counts in the Bencher Metric Format; `just perf-history N`
//! runs them on each of the last `N` commits and draws the counts.

use std::hint::black_box;

use gungraun::prelude::*;
use rotation_game::OptimalLength;
use rotation_game::answers::{JudgeFormat, SolveOptions, solve_stream, solve_to_string};
use rotation_game::checker::{CheckOptions, Checker};
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::{CaseReader, format_input};
use rotation_game::{BfsSolver, Board, IdaSolver, PdbSolver, Solver};

const SEED: u64 = 2286;

fn uniform_boards(count: u64) -> Vec<Board> {
    Generator::new(SEED, Mode::Uniform).boards(count)
}

fn depth_boards(length: u8, count: u64) -> Vec<Board> {
    Generator::new(SEED, Mode::Length(OptimalLength::new(length).unwrap())).boards(count)
}

fn judge_input(count: u64) -> String {
    format_input(&uniform_boards(count))
}

fn solve_all(solver: &dyn Solver, boards: &[Board]) -> usize {
    boards
        .iter()
        .map(|board| solver.solve(board).expect("solvable").moves.len())
        .sum()
}

#[library_benchmark]
#[bench::uniform_1000(uniform_boards(1000))]
#[bench::length_13_100(depth_boards(13, 100))]
fn pdb(boards: Vec<Board>) -> usize {
    black_box(solve_all(&PdbSolver::default(), black_box(&boards)))
}

#[library_benchmark]
#[bench::length_8_10(depth_boards(8, 10))]
fn ida(boards: Vec<Board>) -> usize {
    black_box(solve_all(&IdaSolver::default(), black_box(&boards)))
}

#[library_benchmark]
#[bench::length_6_10(depth_boards(6, 10))]
fn bfs(boards: Vec<Board>) -> usize {
    black_box(solve_all(&BfsSolver::default(), black_box(&boards)))
}

#[library_benchmark]
#[bench::uniform_10000(judge_input(10_000))]
fn parse(input: String) -> usize {
    black_box(CaseReader::new(black_box(input.as_bytes())).count())
}

#[library_benchmark]
#[bench::uniform_10000(judge_input(10_000))]
fn judge(input: String) -> usize {
    let mut output = Vec::with_capacity(200_000);
    solve_stream(
        black_box(input.as_bytes()),
        &mut output,
        &PdbSolver::default(),
        &JudgeFormat,
        SolveOptions::default(),
        &mut |_| unreachable!("the input is valid"),
    )
    .expect("writing to memory cannot fail");
    black_box(output.len())
}

/// The judge input and its right answers.
fn judge_input_and_answers(count: u64) -> (String, String) {
    let input = judge_input(count);
    let answers = solve_to_string(input.as_bytes(), &PdbSolver::default()).expect("valid input");
    (input, answers)
}

#[library_benchmark]
#[bench::uniform_10000(judge_input_and_answers(10_000))]
fn check((input, answers): (String, String)) -> bool {
    let checker = Checker::from_judge_input(black_box(input.as_bytes())).expect("valid input");
    let options = CheckOptions::default();
    black_box(
        checker
            .check(black_box(answers.as_bytes()), &options)
            .is_ok(),
    )
}

library_benchmark_group!(
    name = hot_paths,
    benchmarks = [pdb, ida, bfs, parse, judge, check]
);

main!(
    config = LibraryBenchmarkConfig::default().env("RAYON_NUM_THREADS", "1"),
    library_benchmark_groups = hot_paths
);
