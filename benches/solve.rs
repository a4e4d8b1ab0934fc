//! Wall-clock benchmarks: the solvers side by side, the parser, the judge
//! pipeline end to end, the board representation and the cost of building
//! the pattern database at run time.
//!
//! Run with `cargo bench --bench solve`; `cargo bench --bench solve -- --test`
//! runs each once. Every corpus comes from the library's generators with a
//! fixed seed.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rotation_game::answers::{JudgeFormat, SolveOptions, solve_stream};
use rotation_game::generator::{Generator, Mode};
use rotation_game::geometry::{CENTRE_CELLS, LINES};
use rotation_game::parser::{CaseReader, format_input};
use rotation_game::{BfsSolver, Board, IdaSolver, Move, PdbSolver, Solver, pattern_database};
use rotation_game::{EightCells, OptimalLength};

const SEED: u64 = 2286;

/// A named corpus, and how many of its boards each solver gets: `ida` takes
/// milliseconds per uniform board and most of a second per 13-move board,
/// `bfs` tens of milliseconds per 8-move board and cannot go much deeper.
struct Corpus {
    name: &'static str,
    boards: Vec<Board>,
    ida_boards: usize,
    bfs_boards: usize,
}

fn corpora() -> Vec<Corpus> {
    let uniform = Generator::new(SEED, Mode::Uniform);
    let depth = |length| Generator::new(SEED, Mode::Length(OptimalLength::new(length).unwrap()));
    vec![
        Corpus {
            name: "uniform",
            boards: uniform.boards(1000),
            ida_boards: 100,
            bfs_boards: 0,
        },
        Corpus {
            name: "length-8",
            boards: depth(8).boards(1000),
            ida_boards: 100,
            bfs_boards: 2,
        },
        Corpus {
            name: "length-11",
            boards: depth(11).boards(1000),
            ida_boards: 10,
            bfs_boards: 0,
        },
        Corpus {
            name: "length-13",
            boards: depth(13).boards(1000),
            ida_boards: 2,
            bfs_boards: 0,
        },
    ]
}

fn solve_all(solver: &dyn Solver, boards: &[Board]) -> u64 {
    boards
        .iter()
        .map(|board| solver.solve(board).expect("solvable").moves.len() as u64)
        .sum()
}

/// Each solver on each corpus, reported per board (elements = boards), so
/// that the ratios between solvers can be read off one report.
fn solvers(c: &mut Criterion) {
    let pdb = PdbSolver::default();
    let ida = IdaSolver::default();
    let bfs = BfsSolver::default();
    for corpus in corpora() {
        let mut group = c.benchmark_group(format!("solve/{}", corpus.name));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        let runs: [(&dyn Solver, usize); 3] = [
            (&pdb, corpus.boards.len()),
            (&ida, corpus.ida_boards),
            (&bfs, corpus.bfs_boards),
        ];
        for (solver, count) in runs {
            if count == 0 {
                continue;
            }
            let boards = &corpus.boards[..count];
            group.throughput(Throughput::Elements(count as u64));
            group.bench_with_input(
                BenchmarkId::from_parameter(solver.name()),
                boards,
                |b, boards| b.iter(|| solve_all(solver, black_box(boards))),
            );
        }
        group.finish();
    }
}

/// The lenient parser on about 10 MB of generated judge input.
fn parse(c: &mut Criterion) {
    let boards = Generator::new(SEED, Mode::Uniform).boards(210_000);
    let input = format_input(&boards);
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.sample_size(20);
    group.bench_function("10MB", |b| {
        b.iter(|| CaseReader::new(black_box(input.as_bytes())).count())
    });
    group.finish();
}

/// Parse, solve and format 100,000 uniform boards, in memory.
fn judge(c: &mut Criterion) {
    let boards = Generator::new(SEED, Mode::Uniform).boards(100_000);
    let input = format_input(&boards);
    let solver = PdbSolver::default();
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("judge");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.sample_size(10);
    group.bench_function("100k-uniform", |b| {
        b.iter(|| {
            let mut output = Vec::with_capacity(2 << 20);
            solve_stream(
                input.as_bytes(),
                &mut output,
                &solver,
                &JudgeFormat,
                options,
                &mut |_| unreachable!("the input is valid"),
            )
            .unwrap();
            output.len()
        })
    });
    group.finish();
}

/// The board as one bitmask per digit (what the crate uses) against a plain
/// array of 24 digits: applying moves and testing the centre.
fn representation(c: &mut Criterion) {
    let boards = Generator::new(SEED, Mode::Uniform).boards(1000);
    let arrays: Vec<[u8; 24]> = boards.iter().map(Board::values).collect();
    let moves: Vec<Move> = (0..1000).map(|i| Move::ALL[(i * 5 + i / 8) % 8]).collect();
    let mut group = c.benchmark_group("representation");
    group.throughput(Throughput::Elements((boards.len() * moves.len()) as u64));
    group.bench_function("bitmask-per-digit", |b| {
        b.iter(|| {
            let mut solved = 0;
            for board in black_box(&boards) {
                let mut board = *board;
                for &m in &moves {
                    board = board.apply(m);
                    solved += usize::from(board.is_solved());
                }
            }
            solved
        })
    });
    group.bench_function("array-of-24", |b| {
        b.iter(|| {
            let mut solved = 0;
            for values in black_box(&arrays) {
                let mut values = *values;
                for &m in &moves {
                    let line = LINES[m.index()];
                    let first = values[usize::from(line[0])];
                    for i in 0..6 {
                        values[usize::from(line[i])] = values[usize::from(line[i + 1])];
                    }
                    values[usize::from(line[6])] = first;
                    let centre = CENTRE_CELLS.map(|cell| values[usize::from(cell)]);
                    solved += usize::from(centre.iter().all(|&v| v == centre[0]));
                }
            }
            solved
        })
    });
    group.finish();
}

/// What building the pattern database at run time would cost each process
/// (the binary embeds the table built by `build.rs` instead).
fn pattern_database_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("pattern_database");
    group.sample_size(10);
    group.bench_function("generate-at-run-time", |b| {
        b.iter(pattern_database::generate_distances)
    });
    group.bench_function("embedded-first-lookup", |b| {
        b.iter(|| pattern_database::distance(black_box(EightCells::new(0xff).unwrap())))
    });
    group.finish();
}

criterion_group!(
    benches,
    solvers,
    parse,
    judge,
    representation,
    pattern_database_cost
);
criterion_main!(benches);
