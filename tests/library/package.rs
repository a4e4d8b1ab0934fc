//! The problem package as its users get it: every test file valid (to the
//! crate and to the package's own validator), every answer what
//! `rotation-game solve` prints, the coverage report's claims recomputed
//! from the files, and the accepted and slow solutions answering rightly.
//! The `package` command, which writes the same bytes for a seed, is
//! tested in `tests/cli/package.rs`; `rotation-game judge` runs the planted
//! solutions on the package in `tests/cli/judge.rs`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;
use rotation_game::generator::hardest_boards;
use rotation_game::package::{
    self, ClassicSearch, FileCoverage, Layout, Package, PackageOptions, Role, SUBMISSIONS,
};
use rotation_game::parser::parse_all;
use rotation_game::pattern_database::optimal_length;
use rotation_game::solver::descend;
use rotation_game::validator::{ValidateOptions, validate};
use rotation_game::{Board, Move, PdbSolver, Solver};

use crate::support::package::{SEED, build, compile, compiled_submissions, file, package};
use crate::support::{input_validators, run};

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// The test files of `package` as (coverage row, input, answer), the sample
/// first.
fn test_files(package: &Package) -> Vec<(&FileCoverage, &[u8], &[u8])> {
    package
        .report
        .files
        .iter()
        .map(|row| {
            let input = file(package, &format!("{}.in", row.path));
            let answer = file(package, &format!("{}.ans", row.path));
            (row, input, answer)
        })
        .collect()
}

#[test]
fn the_kattis_layout_holds_what_problemtools_needs() {
    let package = package();
    let paths: Vec<&str> = package.files.iter().map(|f| f.path.as_str()).collect();
    for needed in [
        "problem.yaml",
        ".timelimit",
        "problem_statement/problem.en.tex",
        "data/sample/statement.in",
        "data/sample/statement.ans",
        "data/README.md",
        "input_validators/validate.cpp",
        "output_validators/check.cpp",
        "submissions/accepted/pattern_database.rs",
        "submissions/accepted/classic_ida.cpp",
        "submissions/accepted/plain_ida.cpp",
        "submissions/time_limit_exceeded/iterative_deepening.cpp",
    ] {
        assert!(paths.contains(&needed), "no {needed}");
    }
    // problemtools' rule for every file and folder name.
    for path in &paths {
        for part in path.split('/') {
            let allowed = |byte: u8| byte.is_ascii_alphanumeric() || b"_.-".contains(&byte);
            let first_ok = part.as_bytes()[0] != b'.' && part.as_bytes()[0] != b'-';
            assert!(
                (first_ok || *path == ".timelimit") && part.bytes().all(allowed),
                "{path}"
            );
        }
    }
    let yaml = String::from_utf8(file(package, "problem.yaml").to_vec()).unwrap();
    for line in [
        "validation: custom",
        "name: The Rotation Game",
        "license: educational",
    ] {
        assert!(yaml.contains(line), "{yaml}");
    }
    let seconds = package::TimeLimit::DEFAULT.seconds();
    assert_eq!(
        file(package, ".timelimit"),
        format!("{seconds}\n").as_bytes()
    );
    assert!(yaml.contains(&format!("Time limit: {seconds} s")), "{yaml}");
    // Each submission is in the folder of the verdict it must get, which is
    // how problemtools and DOMjudge know what to expect.
    for program in SUBMISSIONS.iter() {
        let folder = program.path().rsplit_once('/').unwrap().0.to_owned();
        let verdict = program.role.expected_verdict().unwrap().code();
        let expected = match verdict {
            "AC" => "submissions/accepted",
            "WA" => "submissions/wrong_answer",
            _ => "submissions/time_limit_exceeded",
        };
        assert_eq!(folder, expected, "{}", program.file_name);
        assert!(paths.contains(&program.path().as_str()));
        assert_eq!(
            program.mistake.is_some(),
            verdict == "WA",
            "{}",
            program.file_name
        );
    }
    let wrong = SUBMISSIONS
        .iter()
        .filter(|p| p.role == Role::WrongAnswer)
        .count();
    assert_eq!(wrong, 10);
}

#[test]
fn every_test_file_passes_the_crate_validator_and_the_package_validator() {
    let package = package();
    // The validator the package ships, compiled once.
    assert_eq!(
        file(package, "input_validators/validate.cpp"),
        package::INPUT_VALIDATOR.source.as_bytes()
    );
    let (validator, _) = input_validators();
    let options = ValidateOptions {
        max_cases: Some(package::DEFAULT_MAX_CASES),
    };
    for (row, input, _) in test_files(package) {
        let boards = validate(input, &options).unwrap_or_else(|e| panic!("{}: {e}", row.path));
        assert_eq!(boards.len(), row.cases);
        let result = run(validator, &[], input);
        assert_eq!(
            result.status.code(),
            Some(42),
            "{}: {}",
            row.path,
            String::from_utf8_lossy(&result.stdout)
        );
    }
}

#[test]
fn every_answer_is_what_solve_prints() {
    for (row, input, answer) in test_files(package()) {
        let solved = run(Path::new(BINARY), &[Path::new("solve")], input);
        assert!(solved.status.success());
        assert_eq!(solved.stdout, answer, "{}", row.path);
    }
}

/// The permutations of the eight moves, in lexicographic order.
fn move_orders() -> Vec<[Move; 8]> {
    let mut order: Vec<usize> = (0..8).collect();
    let mut orders = Vec::new();
    loop {
        orders.push(std::array::from_fn(|i| Move::ALL[order[i]]));
        let Some(pivot) = (0..7).rev().find(|&i| order[i] < order[i + 1]) else {
            return orders;
        };
        let swap = (pivot + 1..8)
            .rev()
            .find(|&j| order[j] > order[pivot])
            .unwrap();
        order.swap(pivot, swap);
        order[pivot + 1..].reverse();
    }
}

/// How many shortest sequences solve `board`, by listing them: every
/// sequence whose each move leaves the board one move closer.
fn shortest_sequences(board: &Board) -> u64 {
    let remaining = optimal_length(board).moves();
    if remaining == 0 {
        return 1;
    }
    Move::ALL
        .iter()
        .map(|&m| board.apply(m))
        .filter(|child| optimal_length(child).moves() + 1 == remaining)
        .map(|child| shortest_sequences(&child))
        .sum()
}

/// The classic IDA*'s nodes on each board, by the package's model of it
/// (which the test of the C++ program holds to the program's own counts),
/// one search per relabelling of the digits (which costs the search the
/// same: a unit test of the crate checks it); for the boards of 13 moves,
/// from the crate's table of them (which a unit test holds to the search).
fn classic_nodes(boards: &[Board]) -> HashMap<Board, u64> {
    let class = |board: &Board| {
        let mut sets = board.cell_sets().map(|set| set.mask());
        sets.sort_unstable();
        sets
    };
    let mut classes: Vec<[u32; 3]> = boards.iter().map(class).collect();
    classes.sort_unstable();
    classes.dedup();
    let by_class: HashMap<[u32; 3], u64> = classes
        .par_iter()
        .map(|sets| {
            let board = Board::from_cell_sets(*sets).unwrap();
            (*sets, package::classic_nodes(&board))
        })
        .collect();
    boards.iter().map(|b| (*b, by_class[&class(b)])).collect()
}

fn distinct<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort_unstable();
    items.dedup();
    items
}

#[test]
fn the_coverage_report_is_true() {
    let package = package();
    let files = test_files(package);
    let every_board: Vec<Board> = distinct(
        files
            .iter()
            .flat_map(|(_, input, _)| parse_all(input).unwrap())
            .collect(),
    );
    let nodes = classic_nodes(&every_board);
    let orders = move_orders();
    assert_eq!(orders.len(), 40_320);
    let pdb = PdbSolver::default();
    let mut all_pairs = Vec::new();
    let mut length_digits = HashSet::new();
    let mut first_letters = HashSet::new();
    for (row, input, _) in &files {
        let boards = parse_all(input).unwrap();
        let answers: Vec<_> = boards.iter().map(|b| pdb.solve(b).unwrap()).collect();
        let lengths = distinct(answers.iter().map(|a| a.moves.len() as u8).collect());
        let digits = distinct(answers.iter().map(|a| a.centre.value()).collect());
        let letters = distinct(
            answers
                .iter()
                .filter_map(|a| a.moves.as_slice().first().map(|m| m.letter()))
                .collect(),
        );
        let sequences: Vec<u64> = boards.iter().map(shortest_sequences).collect();
        let pairs: Vec<(u8, u8)> = answers
            .iter()
            .flat_map(|a| {
                a.moves
                    .as_slice()
                    .windows(2)
                    .map(|w| (w[0].index() as u8, w[1].index() as u8))
                    .collect::<Vec<_>>()
            })
            .collect();
        let failing_orders = orders
            .par_iter()
            .filter(|order| {
                boards.iter().zip(&answers).any(|(board, answer)| {
                    descend(board, &order[..], |b| optimal_length(b).moves()).moves != answer.moves
                })
            })
            .count();
        let file_nodes: Vec<u64> = boards.iter().map(|b| nodes[b]).collect();
        assert_eq!(row.cases, boards.len(), "{}", row.name);
        assert_eq!(row.lengths, lengths, "{}", row.name);
        assert_eq!(row.digits, digits, "{}", row.name);
        assert_eq!(row.first_letters, letters, "{}", row.name);
        assert_eq!(
            row.solved_boards,
            lengths_count(&answers, 0),
            "{}",
            row.name
        );
        assert_eq!(
            row.hardest_boards,
            lengths_count(&answers, 13),
            "{}",
            row.name
        );
        assert_eq!(
            row.tie_break_boards,
            sequences.iter().filter(|&&n| n > 1).count(),
            "{}",
            row.name
        );
        assert_eq!(
            row.most_shortest_sequences,
            *sequences.iter().max().unwrap()
        );
        assert_eq!(
            row.move_pairs,
            distinct(pairs.clone()).len(),
            "{}",
            row.name
        );
        assert_eq!(
            row.move_orders_failing, failing_orders as u64,
            "{}",
            row.name
        );
        assert_eq!(
            row.classic_nodes,
            file_nodes.iter().sum::<u64>(),
            "{}",
            row.name
        );
        assert_eq!(row.classic_nodes_most, *file_nodes.iter().max().unwrap());
        assert!(row.cases <= package::DEFAULT_MAX_CASES);
        all_pairs.extend(pairs);
        length_digits.extend(answers.iter().map(|a| (a.moves.len(), a.centre.value())));
        first_letters.extend(letters);
    }
    let report = &package.report;
    for length in 1..=13 {
        for digit in 1..=3 {
            assert!(
                length_digits.contains(&(length, digit)),
                "{length} moves with {digit}"
            );
        }
    }
    assert_eq!(first_letters.len(), 8);
    assert!(report.missing_length_digits.is_empty() && report.missing_first_letters.is_empty());
    // One board of 13 moves per digit: enough to fail a search capped at 12.
    let thirteen: Vec<&Board> = every_board
        .iter()
        .filter(|board| optimal_length(board).moves() == 13)
        .collect();
    assert_eq!(thirteen.len(), 3);
    assert_eq!(report.hardest_boards, 3);
    assert_eq!(distinct(all_pairs).len(), 48);
    assert_eq!(report.move_pairs, 48);
    assert_eq!(report.move_orders_failing, 40_319);
    assert_eq!(
        file(package, "data/README.md"),
        report.to_markdown().as_bytes()
    );
}

fn lengths_count(answers: &[rotation_game::Solution], length: usize) -> usize {
    answers.iter().filter(|a| a.moves.len() == length).count()
}

#[test]
fn no_file_costs_the_classic_search_more_than_one_board_of_13_moves() {
    let package = package();
    let rows = &package.report.files;
    // The boards of 13 moves come last, one per digit and file, and are the
    // cheapest of the 192 for the classic search.
    let last: Vec<&FileCoverage> = rows[rows.len() - 3..].iter().collect();
    let all_13 = classic_nodes(&hardest_boards());
    let cheapest = *all_13.values().min().unwrap();
    for (row, digit) in last.iter().zip(1..) {
        assert_eq!(
            (row.cases, row.lengths.as_slice(), row.digits.as_slice()),
            (1, &[13][..], &[digit][..]),
            "{}",
            row.name
        );
        assert_eq!(row.classic_nodes, cheapest, "{}", row.name);
    }
    for row in rows {
        assert!(row.classic_nodes <= cheapest, "{}", row.name);
    }
    // A plain IDA* is the slowest accepted submission, and the package
    // ships it.
    assert!(
        package
            .files
            .iter()
            .any(|f| f.path == "submissions/accepted/plain_ida.cpp")
    );
}

#[test]
fn with_all_hardest_the_maximum_file_holds_the_boards_the_classic_search_finds_slowest() {
    let options = PackageOptions {
        time_limit: package::TimeLimit::ALL_HARDEST,
        ..PackageOptions::with_seed(SEED)
    };
    let package = package::build_with(&options, package::HardestBoards::All, &|_| {}).unwrap();
    let package = &package;
    assert_eq!(package.report.hardest_boards, 192);
    assert!(
        !package
            .files
            .iter()
            .any(|f| f.path.ends_with("plain_ida.cpp")),
        "the plain IDA* is too slow for the harder problem"
    );
    assert_eq!(
        file(package, ".timelimit"),
        format!("{}\n", package::TimeLimit::ALL_HARDEST.seconds()).as_bytes()
    );
    let rows = &package.report.files;
    let max = rows.last().unwrap();
    assert!(max.name.ends_with("-max-classic"));
    assert_eq!(max.cases, package::DEFAULT_MAX_CASES);
    // Its purpose counts its boards of 13 moves, as the report does.
    assert!(max.hardest_boards > 0);
    assert!(
        max.purpose
            .contains(&format!("({} of them of 13 moves)", max.hardest_boards)),
        "{}",
        max.purpose
    );
    // No board of another file costs the classic search more than the
    // cheapest board of the maximum file, and no file costs it more.
    let max_boards = parse_all(file(package, &format!("{}.in", max.path))).unwrap();
    let nodes = classic_nodes(&max_boards);
    let cheapest = nodes.values().min().unwrap();
    for row in &rows[..rows.len() - 1] {
        assert!(row.classic_nodes_most <= *cheapest, "{}", row.name);
        assert!(row.classic_nodes < max.classic_nodes, "{}", row.name);
    }
    // The other boards of 13 moves are in files of at most half the limit.
    for row in rows.iter().filter(|row| row.name.contains("-hardest-")) {
        assert!(row.cases <= package::DEFAULT_MAX_CASES / 2, "{}", row.name);
        assert!(row.classic_nodes_most <= *cheapest);
    }
    // The anti-heuristic files hold the lengths their names give. This
    // package keeps every board the climbs found, so it has both (the
    // default package leaves out the boards of 10 to 12 moves: each costs
    // the classic search more than the cheapest board of 13).
    for (name, lengths) in [
        ("-anti-heuristic-1-to-9", 1..=9),
        ("-anti-heuristic-10-to-12", 10..=12),
    ] {
        let files: Vec<&FileCoverage> = rows.iter().filter(|row| row.name.contains(name)).collect();
        assert!(!files.is_empty(), "no file *{name}*");
        for row in files {
            assert!(
                !row.lengths.is_empty()
                    && row.lengths.iter().all(|length| lengths.contains(length)),
                "{}: {:?}",
                row.name,
                row.lengths
            );
        }
    }
}

#[test]
fn the_accepted_and_slow_solutions_answer_rightly() {
    let package = package();
    let files = test_files(package);
    for (program, binary) in compiled_submissions() {
        // The classic IDA* and the slow search run on the files before the
        // boards of 10 moves and more, where they are quick; problemtools
        // runs them on every file in CI.
        let quick = |row: &FileCoverage| row.lengths.iter().all(|&length| length <= 9);
        for (row, input, answer) in &files {
            let runs = match program.role {
                Role::Accepted if program.file_name.ends_with(".rs") => true,
                Role::Accepted | Role::TimeLimitExceeded => quick(row),
                _ => false,
            };
            if runs {
                let output = run(binary, &[], input);
                assert_eq!(
                    &output.stdout[..],
                    *answer,
                    "{} on {}",
                    program.file_name,
                    row.name
                );
            }
        }
    }
}

#[test]
fn the_classic_solution_is_the_search_whose_nodes_the_report_counts() {
    let package = package();
    let classic = SUBMISSIONS
        .iter()
        .find(|program| program.file_name == "classic_ida.cpp")
        .unwrap();
    let source = std::str::from_utf8(file(package, &classic.path())).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let binary = compile(classic, source, dir.path(), "-nodes", &["-DREPORT_NODES"]);
    let mut compared = 0;
    for (row, input, answer) in test_files(package) {
        if row.classic_nodes_most > 1_000_000 {
            continue;
        }
        let output = run(&binary, &[], input);
        assert_eq!(&output.stdout[..], answer, "{}", row.name);
        let per_board: Vec<u64> = String::from_utf8(output.stderr)
            .unwrap()
            .lines()
            .map(|line| line.parse().unwrap())
            .collect();
        let boards = parse_all(input).unwrap();
        let model: Vec<u64> = boards.iter().map(|b| ClassicSearch::run(b).nodes).collect();
        assert_eq!(per_board, model, "{}", row.name);
        assert_eq!(
            per_board.iter().sum::<u64>(),
            row.classic_nodes,
            "{}",
            row.name
        );
        compared += boards.len();
    }
    assert!(compared >= 200, "only {compared} boards compared");
}

#[test]
fn the_plain_layout_numbers_the_files_and_cuts_them_to_the_case_limit() {
    let options = PackageOptions {
        layout: Layout::Plain,
        max_cases: 12,
        ..PackageOptions::with_seed(SEED)
    };
    let plain = package::build(&options, &|_| {}).unwrap();
    let mut paths: Vec<&str> = plain.files.iter().map(|f| f.path.as_str()).collect();
    paths.sort_unstable();
    let count = plain.report.files.len();
    let mut expected: Vec<String> = (1..=count)
        .flat_map(|n| [format!("{n:02}.ans"), format!("{n:02}.in")])
        .collect();
    expected.push("README.md".to_owned());
    expected.sort_unstable();
    assert_eq!(paths, expected);
    assert_eq!(
        file(&plain, "01.in"),
        rotation_game::sample::INPUT.as_bytes()
    );
    let limit = ValidateOptions {
        max_cases: Some(12),
    };
    for row in &plain.report.files {
        let input = file(&plain, &format!("{}.in", row.path));
        assert!(validate(input, &limit).is_ok(), "{}", row.path);
    }
    // The searches do not depend on the limit: the same boards, cut
    // differently.
    let boards = |package: &Package| -> Vec<Board> {
        distinct(
            package
                .test_files
                .iter()
                .flat_map(|f| f.boards.clone())
                .collect(),
        )
    };
    assert_eq!(boards(&plain), boards(package()));
}

#[test]
fn every_cpp_file_the_package_ships_compiles_with_plain_g_plus_plus_o2() {
    // A contestant or a judge compiles with whatever flags their system
    // uses; g++'s default standard (gnu++17 for g++ 11 to 15) has no
    // std::popcount, so the sources keep to what it has.
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let sources: Vec<&package::PackageFile> = package()
        .files
        .iter()
        .filter(|f| f.path.ends_with(".cpp"))
        .collect();
    assert!(sources.len() >= 14, "{}", sources.len());
    sources.par_iter().for_each(|source| {
        let name = source.path.replace('/', "-");
        let path = dir.join(&name);
        std::fs::write(&path, &source.contents).unwrap();
        build(
            std::process::Command::new("g++")
                .arg("-O2")
                .arg("-o")
                .arg(dir.join(name.trim_end_matches(".cpp")))
                .arg(&path),
            &format!("{} (g++ -O2)", source.path),
        );
    });
}
