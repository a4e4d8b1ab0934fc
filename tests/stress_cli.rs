//! `stress` against small, deliberately wrong programs built here: shell
//! scripts that wrap the project's own binary and damage its output, crash,
//! hang or flood. Each must be caught with the right verdict and its
//! smallest failing case; the binary itself must pass.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{run, stdout};
use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::format_input;
use rotation_game::{Board, PdbSolver, Solver, pattern_database};

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// Writes an executable shell script and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

/// What `stress` should report: within the first run (of `per_run`
/// boards) holding a board for which `fails` holds, the failing board with
/// the fewest optimal moves (the earliest on a tie).
fn expected_smallest(boards: &[Board], per_run: usize, fails: impl Fn(&Board) -> bool) -> Board {
    boards
        .chunks(per_run)
        .find_map(|run| {
            run.iter()
                .enumerate()
                .filter(|(_, board)| fails(board))
                .min_by_key(|&(index, board)| (pattern_database::optimal_length(board), index))
                .map(|(_, board)| *board)
        })
        .expect("some board fails")
}

/// The report of a failed `stress` run, with the case it saved.
struct Report {
    text: String,
    saved: String,
}

/// Runs `stress` on `program`, expecting a failure (exit 1).
fn stress_fails(program: &str, extra: &[&str]) -> Report {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("failing.txt");
    let mut args = vec![
        "stress",
        "--program",
        program,
        "--jobs",
        "2",
        "--save-failing-to",
    ];
    args.push(saved.to_str().unwrap());
    args.extend_from_slice(extra);
    let result = run(&args);
    let text = stdout(&result);
    assert_eq!(
        result.status.code(),
        Some(1),
        "{text}\n{}",
        common::stderr(&result)
    );
    Report {
        text,
        saved: std::fs::read_to_string(&saved).unwrap(),
    }
}

impl Report {
    /// Checks that the report and the saved file name `board`.
    fn names(&self, board: &Board) {
        assert_eq!(self.saved, format_input(&[*board]), "{}", self.text);
        assert!(
            self.text
                .contains(&format!("    {}\n", board.to_judge_line())),
            "{}",
            self.text
        );
        let solution = PdbSolver::default().solve(board).unwrap();
        let show = format!(
            "show it: rotation-game show {} --moves {}\n",
            board
                .values()
                .map(|value| char::from(b'0' + value))
                .iter()
                .collect::<String>(),
            solution.moves
        );
        assert!(self.text.contains(&show), "{}", self.text);
    }

    fn verdict(&self) -> &str {
        self.text
            .lines()
            .find_map(|line| line.strip_prefix("verdict: "))
            .expect("the report has a verdict")
    }
}

fn boards(seed: u64, mode: Mode, count: u64) -> Vec<Board> {
    Generator::new(seed, mode).boards(count)
}

#[test]
fn the_projects_own_binary_passes() {
    let program = format!("{BINARY} solve");
    let result = run(&[
        "stress",
        "--program",
        &program,
        "--seed",
        "3",
        "--boards",
        "40",
        "--cases-per-run",
        "4",
        "--jobs",
        "2",
    ]);
    assert_eq!(result.status.code(), Some(0), "{}", stdout(&result));
    assert!(
        stdout(&result).starts_with("stress: ok, 40 cases in 10 runs passed (seed 3,"),
        "{}",
        stdout(&result)
    );
    let hardest = run(&[
        "stress",
        "--program",
        &program,
        "--hardest",
        "--seed",
        "1",
        "--cases-per-run",
        "48",
        "--jobs",
        "2",
    ]);
    assert_eq!(hardest.status.code(), Some(0), "{}", stdout(&hardest));
}

#[test]
fn cases_per_run_and_jobs_are_bounded() {
    for (flag, value) in [
        ("--cases-per-run", "0"),
        ("--cases-per-run", "100001"),
        ("--jobs", "0"),
        ("--jobs", "257"),
    ] {
        let result = run(&["stress", "--program", "true", flag, value]);
        assert_eq!(result.status.code(), Some(2), "{flag} {value}");
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(
            stderr.contains(&format!("invalid value '{value}'")),
            "{stderr}"
        );
    }
}

#[test]
fn dropping_the_last_case_is_a_missing_line() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "drop-last.sh",
        &format!("{BINARY} solve | head -n -2"),
    );
    let report = stress_fails(
        &program,
        &["--seed", "5", "--boards", "12", "--cases-per-run", "6"],
    );
    assert!(report.text.contains("(seed 5) failed: wrong output format case 6: line 11: expected the moves, found the end of the output"), "{}", report.text);
    assert_eq!(
        report.verdict(),
        "wrong output format case 1: line 1: expected the moves, found the end of the output"
    );
    assert!(
        report.text.contains("program output: empty"),
        "{}",
        report.text
    );
    report.names(&expected_smallest(&boards(5, Mode::Uniform, 12), 6, |_| {
        true
    }));
}

#[test]
fn a_wrong_digit_is_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    // Prints 1 where the centre digit is 3.
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let report = stress_fails(
        &program,
        &["--seed", "6", "--boards", "16", "--cases-per-run", "8"],
    );
    assert_eq!(
        report.verdict(),
        "wrong answer case 1: the moves leave 3 in the centre, found 1"
    );
    let solver = PdbSolver::default();
    let centre_three = |board: &Board| solver.solve(board).unwrap().centre.value() == 3;
    report.names(&expected_smallest(
        &boards(6, Mode::Uniform, 16),
        8,
        centre_three,
    ));
}

#[test]
fn an_optimal_but_not_smallest_answer_is_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    // A and B move disjoint lines, as do C and D: swapping them keeps the
    // sequence optimal but makes it lexicographically larger.
    let program = script(
        dir.path(),
        "swap.sh",
        &format!("{BINARY} solve | sed 's/AB/BA/;s/CD/DC/'"),
    );
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "8",
            "--length",
            "3",
            "--boards",
            "40",
            "--cases-per-run",
            "10",
        ],
    );
    let solver = PdbSolver::default();
    let swapped = |board: &Board| {
        let letters = solver.solve(board).unwrap().moves.letters();
        letters.contains("AB") || letters.contains("CD")
    };
    let board = expected_smallest(
        &boards(8, Mode::Length(OptimalLength::new(3).unwrap()), 40),
        10,
        swapped,
    );
    let expected = solver.solve(&board).unwrap().moves.letters();
    let found = expected.replacen("AB", "BA", 1).replacen("CD", "DC", 1);
    assert_eq!(
        report.verdict(),
        format!(
            "wrong answer case 1: optimal length but not the lexicographically smallest: expected {expected}, found {found}"
        )
    );
    report.names(&board);
}

#[test]
fn a_crash_on_some_boards_is_named_with_its_signal() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "input=$(cat)\ncase \"$input\" in *'3 3 3 3'*) kill -SEGV $$ ;; esac\nprintf '%s\\n' \"$input\" | {BINARY} solve"
    );
    let program = script(dir.path(), "crash.sh", &body);
    let report = stress_fails(
        &program,
        &["--seed", "9", "--boards", "30", "--cases-per-run", "10"],
    );
    assert_eq!(report.verdict(), "crash: killed by SIGSEGV");
    let pattern = |board: &Board| board.to_judge_line().contains("3 3 3 3");
    report.names(&expected_smallest(
        &boards(9, Mode::Uniform, 30),
        10,
        pattern,
    ));
}

#[test]
fn a_non_zero_exit_is_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "exit.sh", &format!("{BINARY} solve; exit 3"));
    let report = stress_fails(&program, &["--seed", "2", "--boards", "2"]);
    assert_eq!(report.verdict(), "crash: exit status 3");
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped).
fn is_gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn a_hang_is_a_timeout_and_nothing_survives() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let pids_path = pids.to_str().unwrap();
    // A child and a grandchild that would sleep for a long time, then a
    // wait that never ends.
    let body = format!(
        "sleep 1000 & echo $! >> {pids_path}\n\
         ( sleep 1000 & echo $! >> {pids_path}; wait ) & echo $! >> {pids_path}\n\
         echo $$ >> {pids_path}\n\
         wait"
    );
    let program = script(dir.path(), "hang.sh", &body);
    let started = Instant::now();
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "4",
            "--boards",
            "3",
            "--cases-per-run",
            "3",
            "--timeout",
            "0.5",
        ],
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(
        report.verdict(),
        "timeout: still running after 0.5 s, the process group was killed"
    );
    report.names(&expected_smallest(&boards(4, Mode::Uniform, 3), 3, |_| {
        true
    }));
    let recorded = std::fs::read_to_string(&pids).unwrap();
    let recorded: Vec<&str> = recorded.split_whitespace().collect();
    assert_eq!(
        recorded.len(),
        8,
        "two runs of four processes each: {recorded:?}"
    );
    // Killed processes may take a moment to be reaped by init.
    let deadline = Instant::now() + Duration::from_secs(5);
    while recorded.iter().any(|pid| !is_gone(pid)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survivors: Vec<&str> = recorded
        .iter()
        .copied()
        .filter(|pid| !is_gone(pid))
        .collect();
    if !survivors.is_empty() {
        // Leave nothing behind, even when failing.
        let _ = std::process::Command::new("kill")
            .arg("-9")
            .args(&survivors)
            .status();
    }
    assert!(survivors.is_empty(), "still running: {survivors:?}");
}

#[test]
fn a_flood_is_reported_as_a_flood() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "flood.sh", &format!("{BINARY} solve; yes AC"));
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "2",
            "--boards",
            "4",
            "--cases-per-run",
            "2",
            "--output-limit",
            "100000",
        ],
    );
    assert_eq!(
        report.verdict(),
        "output flood: more than 100000 bytes, the process group was killed"
    );
    assert!(
        report.text.contains("program output (100001 bytes):"),
        "{}",
        report.text
    );
    assert!(
        report.text.contains("… ("),
        "the output is shortened: {}",
        report.text
    );
    report.names(&expected_smallest(&boards(2, Mode::Uniform, 4), 2, |_| {
        true
    }));
}

#[test]
fn garbage_is_a_wrong_output_format() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "garbage.sh",
        "cat >/dev/null; printf '\\001\\002 garbage\\n'",
    );
    let report = stress_fails(&program, &["--seed", "2", "--boards", "2"]);
    assert_eq!(
        report.verdict(),
        "wrong output format case 1: line 1: expected the moves (letters A-H, or \"No moves needed\"), found \"\\x01\\x02 garbage\""
    );
}

#[test]
fn the_result_does_not_depend_on_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let reports: Vec<String> = ["1", "3"]
        .iter()
        .map(|jobs| {
            let result = run(&[
                "stress",
                "--program",
                &program,
                "--seed",
                "6",
                "--boards",
                "16",
                "--jobs",
                jobs,
            ]);
            assert_eq!(result.status.code(), Some(1));
            stdout(&result)
        })
        .collect();
    assert_eq!(reports[0], reports[1]);
}

#[test]
fn a_run_that_fails_only_as_a_whole_is_reported_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Right on one case, exit status 7 on more.
    let body = format!(
        "input=$(cat)\n[ $(printf '%s\\n' \"$input\" | wc -l) -le 2 ] || exit 7\nprintf '%s\\n' \"$input\" | {BINARY} solve"
    );
    let program = script(dir.path(), "batch-only.sh", &body);
    let report = stress_fails(
        &program,
        &["--seed", "2", "--boards", "2", "--cases-per-run", "2"],
    );
    assert_eq!(report.verdict(), "crash: exit status 7");
    assert!(
        report
            .text
            .contains("no case fails alone; the failing run:"),
        "{}",
        report.text
    );
    assert_eq!(report.saved, format_input(&boards(2, Mode::Uniform, 2)));
}

#[test]
fn a_failure_is_status_1_even_when_the_output_pipe_is_closed() {
    let output = common::run_with_stdout_closed(&[
        "stress",
        "--program",
        "cat >/dev/null",
        "--seed",
        "1",
        "--boards",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let passing = format!("{BINARY} solve");
    let output = common::run_with_stdout_closed(&[
        "stress",
        "--program",
        &passing,
        "--seed",
        "1",
        "--boards",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}
