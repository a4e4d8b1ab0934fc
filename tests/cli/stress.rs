//! `stress` as a judge, against small programs written for it: shell
//! scripts that wrap the project's own binary and damage its output, and
//! tiny C programs built here (a memory hog, a spinner, a CPU burner, a
//! loopback client). Each must get the judges' verdict with the right
//! detail, the reports must parse back, and nothing a program does may hurt
//! the run or the machine.
//!
//! Tests of the sandbox and of the cgroup limits need bubblewrap and a
//! writable cgroup (root): without them, each says it is skipped, and fails
//! under CI (`support::skip`). Programs that attack their surroundings run
//! only with `--sandbox on`, which refuses to run without the sandbox; the
//! sandbox's own promises are attacked in `sandbox_attacks.rs`, and the
//! limits wherever users run are in `limits.rs`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::format_input;
use rotation_game::{Board, OptimalLength, PdbSolver, Solver, pattern_database};

use crate::support::compile::compile;
use crate::support::isolation::isolation;
use crate::support::processes::{KillMarked, processes_with};
use crate::support::programs::{HOG, SPINNER, script};
use crate::support::skip::{can_run, require};
use crate::support::snapshots::with_snapshots;
use crate::support::{BINARY, cgroup, stderr, stdout, survivors};

/// Burns one second of CPU time, then runs its arguments.
const BURNER: &str = r#"
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    while (clock() < CLOCKS_PER_SEC) {}
    execv(argv[1], argv + 1);
    return 127;
}
"#;

/// Exits by SIGSEGV.
const SEGFAULT: &str = "int main(void) { return *(volatile int *) 0; }\n";

/// `rotation-game stress --program PROGRAM`, showing this binary in the
/// sandbox (the test scripts run it by its absolute path), with no
/// standard input.
fn stress_command(program: &str) -> Command {
    let mut command = crate::support::binary();
    command
        .args(["stress", "--program", program, "--sandbox-bind", BINARY])
        .stdin(Stdio::null());
    command
}

/// The sandbox modes to test: off, and on where bubblewrap works (where
/// it does not, the test says so, and fails under CI).
fn sandbox_modes() -> Vec<&'static str> {
    if can_run(
        isolation().sandboxed,
        "bubblewrap (bwrap)",
        "its sandboxed form",
    ) {
        vec!["off", "on"]
    } else {
        vec!["off"]
    }
}

/// Runs `stress` on `program` with `extra` flags.
fn stress(program: &str, extra: &[&str]) -> Output {
    stress_command(program)
        .args(extra)
        .output()
        .expect("the binary runs")
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
    let mut args = vec!["--jobs", "2", "--save-failing-to", saved.to_str().unwrap()];
    args.extend_from_slice(extra);
    let result = stress(program, &args);
    let text = stdout(&result);
    assert_eq!(result.status.code(), Some(1), "{text}\n{}", stderr(&result));
    Report {
        text,
        saved: std::fs::read_to_string(&saved).unwrap(),
    }
}

impl Report {
    /// Checks that the report and the saved file name case `case`,
    /// `board`.
    fn names(&self, case: u64, board: &Board) {
        assert_eq!(self.saved, format_input(&[*board]), "{}", self.text);
        assert!(
            self.text.contains(&format!("case {case} (")),
            "{}",
            self.text
        );
        assert!(
            self.text
                .contains(&format!("    {}\n", board.to_judge_line())),
            "{}",
            self.text
        );
        let solution = PdbSolver::default().solve(board).unwrap();
        let compact: String = board
            .values()
            .map(|value| char::from(b'0' + value))
            .iter()
            .collect();
        let show = if solution.moves.is_empty() {
            format!("show it: rotation-game show {compact}\n")
        } else {
            format!(
                "show it: rotation-game show {compact} --moves {}\n",
                solution.moves
            )
        };
        assert!(self.text.contains(&show), "{}", self.text);
    }

    /// The verdict line, without the note the rlimit fallback adds to a
    /// runtime error (where there is no cgroup, as for most users; its
    /// own test is in `tests/library/runner.rs`).
    fn verdict(&self) -> &str {
        let verdict = self
            .text
            .lines()
            .find_map(|line| line.strip_prefix("verdict: "))
            .expect("the report has a verdict");
        verdict
            .split_once("; memory is limited here by address space")
            .map_or(verdict, |(verdict, _)| verdict)
    }

    fn first_failure(&self) -> &str {
        self.text
            .lines()
            .find_map(|line| line.strip_prefix("first failure: "))
            .expect("the report names the first failure")
    }
}

fn boards(seed: u64, mode: Mode, count: u64) -> Vec<Board> {
    Generator::new(seed, mode).boards(count)
}

/// What `stress` should report: within the first run (of `per_run`
/// boards) holding a board for which `fails` holds, the failing board with
/// the fewest optimal moves (the earliest on a tie), with its case number.
fn expected_smallest(
    boards: &[Board],
    per_run: usize,
    fails: impl Fn(&Board) -> bool,
) -> (u64, Board) {
    boards
        .chunks(per_run)
        .enumerate()
        .find_map(|(run, cases)| {
            cases
                .iter()
                .enumerate()
                .filter(|(_, board)| fails(board))
                .min_by_key(|&(position, board)| {
                    (pattern_database::optimal_length(board), position)
                })
                .map(|(position, board)| ((run * per_run + position) as u64 + 1, *board))
        })
        .expect("some board fails")
}

/// The JSON report of a `stress` run with `args` (and its exit status).
fn json_report(program: &str, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    let mut all = args.to_vec();
    all.extend(["--json", path.to_str().unwrap()]);
    let output = stress(program, &all);
    let text = std::fs::read(&path).unwrap_or_else(|_| panic!("no JSON report: {output:?}"));
    (output.status.code(), serde_json::from_slice(&text).unwrap())
}

#[test]
fn the_projects_own_binary_is_accepted_on_the_default_campaign_and_the_hardest() {
    let program = format!("{BINARY} solve");
    let result = stress(&program, &["--seed", "3", "--jobs", "2"]);
    assert_eq!(result.status.code(), Some(0), "{}", stdout(&result));
    let text = stdout(&result);
    assert!(
        text.starts_with("stress: accepted: 1400 cases in 1400 runs (seed 3, --mix, "),
        "{text}"
    );
    assert!(text.contains("\nverdicts: 1400 accepted (AC)\n"), "{text}");
    assert!(text.contains("\nCPU time by optimal length:\n"), "{text}");
    for length in 0..=13 {
        assert!(
            text.contains(&format!("\n  {length:>6}    100  ")),
            "a row for length {length}: {text}"
        );
    }
    let hardest = stress(
        &program,
        &["--hardest", "--cases-per-run", "48", "--jobs", "2"],
    );
    assert_eq!(hardest.status.code(), Some(0), "{}", stdout(&hardest));
    assert!(stdout(&hardest).starts_with("stress: accepted: 192 cases in 4 runs (--hardest, "));
    assert!(
        !stderr(&hardest).contains("--seed"),
        "no --seed notice where the seed plays no part: {}",
        stderr(&hardest)
    );
}

#[test]
fn cases_per_run_and_jobs_are_bounded() {
    for (flag, value) in [
        ("--cases-per-run", "0"),
        ("--cases-per-run", "100001"),
        // 0 is one per CPU, the default.
        ("--jobs", "257"),
        ("--time-limit", "0"),
        ("--memory-limit", "0"),
        ("--shard", "3/2"),
    ] {
        let result = stress("true", &[flag, value]);
        assert_eq!(result.status.code(), Some(2), "{flag} {value}");
        let stderr = stderr(&result);
        assert!(
            stderr.contains(&format!("invalid value '{value}'")),
            "{stderr}"
        );
    }
}

#[test]
fn a_program_that_does_not_exist_is_refused_before_any_run() {
    let result = stress("./no-such-program", &["--boards", "1"]);
    assert_eq!(result.status.code(), Some(74));
    let stderr = stderr(&result);
    assert!(
        stderr.contains("cannot run \"./no-such-program\": ") && stderr.contains("no such file"),
        "{stderr}"
    );
}

#[test]
fn a_program_wrong_only_on_solved_boards_is_caught_by_the_default_campaign() {
    let dir = tempfile::tempdir().unwrap();
    // A public solution's bug: no digit line after "No moves needed".
    let program = script(
        dir.path(),
        "no-digit.sh",
        &format!("{BINARY} solve | sed '/^No moves needed$/{{n;d;}}'"),
    );
    let report = stress_fails(&program, &["--seed", "12"]);
    assert_eq!(
        report.verdict(),
        "wrong output format case 1: missing line: case 1's centre digit is missing after its moves (the output ends there)"
    );
    // The default stops at the first failure: the smallest failing case is
    // what the contestant needs, and a hanging program costs one wall limit.
    assert!(
        report.text.contains(
            "1399 runs after the first failure not reported (the default; --max-fail N stops at the N-th, --no-fail-fast judges every run)\n"
        ),
        "{}",
        report.text
    );
    report.names(1, &boards(12, Mode::Mix, 1)[0]);
}

/// The default campaign (no --boards) on `program`, stopping at its first
/// failure: the failing case's number.
fn first_failure_of_the_default_campaign(program: &str) -> u64 {
    let report = stress_fails(program, &["--seed", "1", "--fail-fast"]);
    let case = report
        .text
        .lines()
        .find_map(|line| line.strip_prefix("first failure: case "))
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|number| number.parse().ok());
    case.unwrap_or_else(|| panic!("no failing case named: {}", report.text))
}

/// One-line mistakes the default campaign catches; the first, the 14
/// boards of one mix cycle let through.
#[test]
fn the_default_campaign_catches_one_line_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    // Two adjacent letters swapped in one place.
    let swapped = script(
        dir.path(),
        "swap.sh",
        &format!("{BINARY} solve | sed 's/DH/HD/'"),
    );
    // The last case of the input dropped.
    let dropped = script(
        dir.path(),
        "drop-last.sh",
        &format!("{BINARY} solve | head -n -2"),
    );
    // The centre digit of the start board (its first centre cell) instead
    // of the final centre's.
    let start_digit = script(
        dir.path(),
        "start-digit.sh",
        &format!(
            "input=$(cat)\nprintf '%s\\n' \"$input\" | {BINARY} solve | head -n 1\nprintf '%s\\n' \"$input\" | awk 'NR == 1 {{ print $7 }}'"
        ),
    );
    let one_cycle = stress(&swapped, &["--seed", "1", "--boards", "14", "--jobs", "2"]);
    assert_eq!(one_cycle.status.code(), Some(0), "{}", stdout(&one_cycle));
    for program in [&swapped, &dropped, &start_digit] {
        let first = first_failure_of_the_default_campaign(program);
        assert!(first <= 1400, "{program}: {first}");
    }
}

#[test]
fn a_skipped_answer_is_named_as_missing() {
    let dir = tempfile::tempdir().unwrap();
    // Prints nothing for the third case of each run.
    let program = script(
        dir.path(),
        "skip.sh",
        &format!("{BINARY} solve | sed '5,6d'"),
    );
    let report = stress_fails(
        &program,
        &["--seed", "5", "--boards", "10", "--cases-per-run", "5"],
    );
    assert_eq!(
        report.first_failure(),
        "the run of cases 1-5: wrong answer case 3: missing answer: the output has none for case 3 (line 5 holds case 4's moves)"
    );
    assert!(
        report
            .text
            .contains("no case fails alone; the failing run, cases 1-5:"),
        "{}",
        report.text
    );
}

#[test]
fn dropping_the_last_answers_names_them_missing() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "drop-last.sh",
        &format!("{BINARY} solve | head -n -4"),
    );
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "5",
            "--uniform",
            "--boards",
            "12",
            "--cases-per-run",
            "6",
        ],
    );
    assert_eq!(
        report.first_failure(),
        "the run of cases 1-6: wrong output format case 5: missing answers: the output has none for cases 5 to 6 (the output ends there)"
    );
    let (case, board) = expected_smallest(&boards(5, Mode::Uniform, 12), 6, |_| true);
    assert_eq!(
        report.verdict(),
        format!(
            "wrong output format case {case}: missing answer: the output has none for case {case} (the output ends there)"
        )
    );
    assert!(
        report.text.contains("program output: empty"),
        "{}",
        report.text
    );
    report.names(case, &board);
}

#[test]
fn a_wrong_digit_is_a_wrong_answer_named_by_its_case_number() {
    let dir = tempfile::tempdir().unwrap();
    // Prints 1 where the centre digit is 3.
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "6",
            "--uniform",
            "--boards",
            "16",
            "--cases-per-run",
            "8",
        ],
    );
    let solver = PdbSolver::default();
    let centre_three = |board: &Board| solver.solve(board).unwrap().centre.value() == 3;
    let (case, board) = expected_smallest(&boards(6, Mode::Uniform, 16), 8, centre_three);
    assert_eq!(
        report.verdict(),
        format!("wrong answer case {case}: the moves leave 3 in the centre, found 1")
    );
    report.names(case, &board);
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
    let three = Mode::Length(OptimalLength::new(3).unwrap());
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
    let (case, board) = expected_smallest(&boards(8, three, 40), 10, swapped);
    let expected = solver.solve(&board).unwrap().moves.letters();
    let found = expected.replacen("AB", "BA", 1).replacen("CD", "DC", 1);
    assert_eq!(
        report.verdict(),
        format!(
            "wrong answer case {case}: optimal length but not the lexicographically smallest: expected {expected}, found {found}"
        )
    );
    report.names(case, &board);
}

#[test]
fn a_crash_is_a_runtime_error_naming_its_signal() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "input=$(cat)\ncase \"$input\" in *'3 3 3 3'*) kill -SEGV $$ ;; esac\nprintf '%s\\n' \"$input\" | {BINARY} solve"
    );
    let program = script(dir.path(), "crash.sh", &body);
    let report = stress_fails(
        &program,
        &[
            "--seed",
            "9",
            "--uniform",
            "--boards",
            "30",
            "--cases-per-run",
            "10",
        ],
    );
    assert_eq!(report.verdict(), "runtime error: killed by SIGSEGV");
    let pattern = |board: &Board| board.to_judge_line().contains("3 3 3 3");
    let (case, board) = expected_smallest(&boards(9, Mode::Uniform, 30), 10, pattern);
    report.names(case, &board);
}

#[test]
fn a_non_zero_exit_is_a_runtime_error_and_a_shells_signal_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(dir.path(), "exit.sh", &format!("{BINARY} solve; exit 3"));
    let report = stress_fails(&program, &["--seed", "2", "--boards", "2"]);
    assert_eq!(report.verdict(), "runtime error: exit status 3");
    // The shell runs its last command as a child, and reports the signal
    // that kills it as 128 + N.
    let scripted = stress_fails(
        "true; sh -c 'kill -ABRT $$'",
        &["--seed", "2", "--boards", "1"],
    );
    assert_eq!(
        scripted.verdict(),
        "runtime error: exit status 134 (as a shell reports SIGABRT)"
    );
}

/// The number of seconds that follows `prefix` at the start of `message`.
fn seconds_after(message: &str, prefix: &str) -> f64 {
    message
        .strip_prefix(prefix)
        .and_then(|rest| rest.split_once(" s")?.0.parse().ok())
        .unwrap_or_else(|| panic!("expected {prefix:?} and seconds: {message}"))
}

#[test]
fn a_hang_is_a_wall_clock_time_limit_and_nothing_it_started_survives() {
    let dir = tempfile::tempdir().unwrap();
    for sandbox in sandbox_modes() {
        // A child, a grandchild, and one that leaves the process group, all
        // sleeping for long, then a wait that never ends. The sleeps carry
        // a number no other process has, to be found afterwards. (Without a
        // sandbox or a cgroup, nothing can find a process that left the
        // group: that one is left out then.)
        let marker = format!("1000.{}{}", std::process::id(), sandbox.len());
        let escapee = if sandbox == "on" || cgroup() {
            format!("setsid sleep {marker} &\n")
        } else {
            String::new()
        };
        let body = format!("sleep {marker} &\n( sleep {marker} & wait ) &\n{escapee}wait");
        let program = script(dir.path(), &format!("hang-{sandbox}.sh"), &body);
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
                "--time-limit",
                "0.5",
                "--sandbox",
                sandbox,
            ],
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        let wall = seconds_after(
            report.verdict(),
            "time limit exceeded (wall clock): still running after ",
        );
        assert!(wall >= 1.5, "{}", report.verdict());
        let survivors = survivors(&marker);
        assert!(
            survivors.is_empty(),
            "still running ({sandbox}): {survivors:?}"
        );
    }
}

#[test]
fn an_output_flood_is_an_output_limit_exceeded() {
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
        "output limit exceeded: more than 100000 bytes"
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

/// The wall-clock limit's old name, `--timeout`, still sets it (the
/// limit itself is shown by `limits.rs`).
#[test]
fn timeout_is_the_wall_limits_old_name() {
    let (status, report) = json_report(
        &format!("{BINARY} solve"),
        &["--seed", "1", "--boards", "1", "--timeout", "7"],
    );
    assert_eq!(status, Some(0), "{report}");
    assert_eq!(report["limits"]["wall_limit_seconds"], 7.0);
}

#[test]
fn a_memory_hog_is_a_memory_limit_exceeded_and_the_machine_is_spared() {
    require!(cgroup(), "a writable cgroup");
    let dir = tempfile::tempdir().unwrap();
    let hog = compile(dir.path(), "hog", HOG);
    let swapped_before = vmstat("pswpout");
    let (status, report) = json_report(
        &format!("{hog} 8192"),
        &[
            "--seed",
            "1",
            "--boards",
            "2",
            "--memory-limit",
            "64",
            "--time-limit",
            "5",
        ],
    );
    assert_eq!(status, Some(1), "{report}");
    for run in report["runs"].as_array().unwrap() {
        assert_eq!(run["verdict"], "MLE", "{run}");
        assert_eq!(
            run["message"],
            "memory limit exceeded: the program reached the limit of 64 MiB and was stopped"
        );
        let peak = run["peak_memory_bytes"].as_u64().unwrap();
        assert!(peak <= 64 << 20 && peak > 32 << 20, "{run}");
    }
    assert_eq!(vmstat("pswpout"), swapped_before, "nothing was swapped out");
}

/// A counter of `/proc/vmstat` (0 where it is absent).
fn vmstat(name: &str) -> u64 {
    std::fs::read_to_string("/proc/vmstat")
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_correct_program_needing_a_second_of_cpu_passes_beside_a_busy_process() {
    let dir = tempfile::tempdir().unwrap();
    let burner = compile(dir.path(), "burn", BURNER);
    let spinner = compile(dir.path(), "spin", SPINNER);
    let mut busy = Command::new(&spinner).spawn().unwrap();
    // Killed when dropped, even when the campaign's report is missing.
    let stop_busy = KillMarked(spinner.clone());
    let (status, report) = json_report(
        &format!("{burner} {BINARY} solve"),
        &[
            "--seed",
            "1",
            "--boards",
            "2",
            "--jobs",
            "1",
            "--time-limit",
            "3",
            // The CPU limit is what is tested; a busy machine stretches
            // the wall clock, which must not run out first.
            "--wall-limit",
            "120",
        ],
    );
    drop(stop_busy);
    busy.wait().unwrap();
    assert_eq!(status, Some(0), "{report}");
    for run in report["runs"].as_array().unwrap() {
        assert_eq!(run["verdict"], "AC");
        let cpu = run["cpu_seconds"].as_f64().unwrap();
        assert!((1.0..3.0).contains(&cpu), "{run}");
    }
}

#[test]
fn a_single_case_run_that_fails_is_not_run_again() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("runs.log");
    // Benign, and it writes outside its work directory: so without the
    // sandbox.
    let program = script(
        dir.path(),
        "count.sh",
        &format!("echo run >> {}; exit 1", log.display()),
    );
    let runs = |extra: &[&str]| {
        let _ = std::fs::remove_file(&log);
        let mut args = vec!["--seed", "1", "--sandbox", "off", "--jobs", "1"];
        args.extend_from_slice(extra);
        assert_eq!(stress(&program, &args).status.code(), Some(1));
        std::fs::read_to_string(&log).unwrap().lines().count()
    };
    assert_eq!(runs(&["--boards", "1"]), 1);
    // A run of several cases is shrunk: its cases run alone, fewest moves
    // first, until one fails (here the first).
    assert_eq!(runs(&["--boards", "3", "--cases-per-run", "3"]), 1 + 1);
}

#[test]
fn the_report_does_not_depend_on_the_number_of_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let verdicts = |jobs: &str, stop: &[&str]| {
        let mut args = vec!["--seed", "6", "--boards", "16", "--jobs", jobs];
        args.extend_from_slice(stop);
        let (status, report) = json_report(&program, &args);
        assert_eq!(status, Some(1));
        let runs: Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|run| {
                (
                    run["cases"].clone(),
                    run["verdict"].clone(),
                    run["message"].clone(),
                )
            })
            .collect();
        (
            runs,
            report["failure"]["run"]["message"].clone(),
            report["runs_not_reported"].clone(),
            report["failures"].as_u64().unwrap(),
        )
    };
    let every = verdicts("1", &["--no-fail-fast"]);
    assert_eq!(every, verdicts("3", &["--no-fail-fast"]));
    assert_eq!(every.2, 0);
    assert!(every.3 > 2, "{every:?}");
    for stop in [&[][..], &["--fail-fast"], &["--max-fail", "2"]] {
        let (fast, message, not_reported, failures) = verdicts("3", stop);
        assert_eq!(verdicts("1", stop).0, fast, "{stop:?}");
        assert_eq!(message, every.1);
        assert_eq!(fast.last().unwrap().1, "WA");
        assert_eq!(fast.len() as u64 + not_reported.as_u64().unwrap(), 16);
        assert_eq!(failures, if stop.len() == 2 { 2 } else { 1 });
        assert_eq!(fast[..], every.0[..fast.len()]);
    }
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
    assert_eq!(report.verdict(), "runtime error: exit status 7");
    assert!(
        report
            .text
            .contains("no case fails alone; the failing run, cases 1-2:"),
        "{}",
        report.text
    );
    assert_eq!(report.saved, format_input(&boards(2, Mode::Mix, 2)));
}

#[test]
fn a_failure_is_status_1_even_when_the_output_pipe_is_closed() {
    let output = crate::support::run_with_stdout_closed(&[
        "stress",
        "--program",
        "cat",
        "--seed",
        "1",
        "--boards",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let passing = format!("{BINARY} solve");
    let output = crate::support::run_with_stdout_closed(&[
        "stress",
        "--program",
        &passing,
        "--seed",
        "1",
        "--boards",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(!stderr(&output).contains("cannot"), "{output:?}");
}

#[test]
fn the_json_report_holds_the_whole_campaign_numbered_from_1() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let (status, report) = json_report(
        &program,
        &[
            "--seed",
            "6",
            "--boards",
            "20",
            "--cases-per-run",
            "2",
            "--time-limit",
            "4",
            "--no-fail-fast",
        ],
    );
    assert_eq!(status, Some(1));
    assert_eq!(report["passed"], false);
    assert_eq!(report["seed"], 6);
    assert_eq!(report["mode"], "--mix");
    assert_eq!(report["boards"], 20);
    assert_eq!(report["shard"], serde_json::Value::Null);
    assert_eq!(report["limits"]["time_limit_seconds"], 4.0);
    assert_eq!(report["limits"]["wall_limit_seconds"], 12.0);
    assert_eq!(report["limits"]["memory_limit_bytes"], 1u64 << 30);
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 10);
    let whole = boards(6, Mode::Mix, 20);
    for (index, run) in runs.iter().enumerate() {
        let first = 2 * index as u64 + 1;
        assert_eq!(run["cases"], serde_json::json!([first, first + 1]));
        let lengths: Vec<u64> = [first, first + 1]
            .iter()
            .map(|case| (case - 1) % 14)
            .collect();
        assert_eq!(run["optimal_lengths"], serde_json::json!(lengths));
        for key in [
            "verdict",
            "message",
            "cpu_seconds",
            "wall_seconds",
            "peak_memory_bytes",
        ] {
            assert!(!run[key].is_null(), "{key}: {run}");
        }
        let solver = PdbSolver::default();
        let has_three = [first, first + 1].iter().any(|&case| {
            solver
                .solve(&whole[case as usize - 1])
                .unwrap()
                .centre
                .value()
                == 3
        });
        assert_eq!(run["verdict"], if has_three { "WA" } else { "AC" }, "{run}");
    }
    let summary = &report["summary"];
    assert_eq!(summary["runs"], 10);
    assert_eq!(summary["cases"], 20);
    assert_eq!(summary["slowest"].as_array().unwrap().len(), 5);
    assert_eq!(
        summary["by_length"][0]["optimal_length"], 1,
        "runs count under their greatest length"
    );
    let counted: u64 = summary["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|count| count["runs"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 10);
    let failure = &report["failure"];
    let first_wrong = runs.iter().find(|run| run["verdict"] == "WA").unwrap();
    assert_eq!(failure["run"]["cases"], first_wrong["cases"]);
    assert_eq!(failure["smallest"]["cases"].as_array().unwrap().len(), 1);
    assert!(
        report["command"]
            .as_str()
            .unwrap()
            .contains("--seed 6 --mix --boards 20 --cases-per-run 2 --time-limit 4")
    );
}

#[test]
fn the_junit_report_is_valid_junit_xml() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let path = dir.path().join("report.xml");
    let output = stress(
        &program,
        &[
            "--seed",
            "6",
            "--boards",
            "14",
            "--shard",
            "2/2",
            "--no-fail-fast",
            "--junit",
            path.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let document = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|node| node.is_element()).collect();
    assert_eq!(suites.len(), 1);
    let suite = suites[0];
    assert_eq!(suite.tag_name().name(), "testsuite");
    // The attributes the JUnit schema requires of a test suite.
    for attribute in [
        "name",
        "tests",
        "failures",
        "errors",
        "skipped",
        "time",
        "timestamp",
        "hostname",
    ] {
        assert!(
            suite.attribute(attribute).is_some(),
            "testsuite lacks {attribute}"
        );
    }
    assert!(suite.attribute("name").unwrap().contains("shard 2/2"));
    let timestamp = suite.attribute("timestamp").unwrap();
    assert!(
        timestamp.len() == 19 && timestamp.as_bytes()[10] == b'T',
        "ISO 8601 without a zone: {timestamp}"
    );
    let cases: Vec<_> = suite
        .children()
        .filter(|node| node.tag_name().name() == "testcase")
        .collect();
    assert_eq!(suite.attribute("tests"), Some("7"));
    assert_eq!(cases.len(), 7);
    let mut failures = 0;
    for (index, case) in cases.iter().enumerate() {
        for attribute in ["name", "classname", "time"] {
            assert!(
                case.attribute(attribute).is_some(),
                "testcase lacks {attribute}"
            );
        }
        let number = 2 * index + 2;
        assert_eq!(
            case.attribute("name").unwrap(),
            format!("case {number} (optimal length {})", (number - 1) % 14)
        );
        case.attribute("time")
            .unwrap()
            .parse::<f64>()
            .expect("time is seconds");
        if let Some(failure) = case
            .children()
            .find(|node| node.tag_name().name() == "failure")
        {
            failures += 1;
            assert_eq!(failure.attribute("type"), Some("WA"));
            let message = failure.attribute("message").unwrap();
            assert!(
                message.starts_with(&format!("wrong answer case {number}: ")),
                "{message}"
            );
            assert!(failure.text().unwrap().contains("input:\n"));
        }
    }
    assert!(failures > 0);
    assert_eq!(
        suite.attribute("failures"),
        Some(failures.to_string().as_str())
    );
    let properties: Vec<(&str, &str)> = suite
        .descendants()
        .filter(|node| node.tag_name().name() == "property")
        .map(|node| {
            (
                node.attribute("name").unwrap(),
                node.attribute("value").unwrap(),
            )
        })
        .collect();
    assert!(properties.contains(&("seed", "6")));
    assert!(properties.contains(&("shard", "2/2")));
}

#[test]
fn the_shards_together_are_the_whole_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let verdicts = |extra: &[&str]| {
        let mut args = vec!["--seed", "9", "--boards", "17", "--no-fail-fast"];
        args.extend_from_slice(extra);
        let (_, report) = json_report(&program, &args);
        let runs: Vec<(u64, String)> = report["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|run| {
                (
                    run["cases"][0].as_u64().unwrap(),
                    run["verdict"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        (runs, report["shard"].clone())
    };
    let (whole, _) = verdicts(&[]);
    let mut union = Vec::new();
    for index in 1..=3 {
        let shard = format!("{index}/3");
        let (part, named) = verdicts(&["--shard", &shard]);
        assert_eq!(named, shard.as_str(), "the report names its shard");
        assert!(
            part.iter().all(|(case, _)| case % 3 == index % 3),
            "{part:?}"
        );
        union.extend(part);
    }
    union.sort();
    assert_eq!(union, whole);
    assert_eq!(whole.len(), 17);
}

#[test]
fn killing_the_parents_process_group_does_not_hurt_the_run() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let namespace = std::fs::read_link("/proc/self/ns/pid").unwrap();
    // The guard makes sure the kill happens in a PID namespace of its own:
    // outside one, as root, it would reach every process of the machine.
    let program = script(
        dir.path(),
        "kill-parent.sh",
        &format!(
            "[ \"$(readlink /proc/self/ns/pid)\" != '{}' ] || exit 99\n\
             group=$(cut -d' ' -f5 /proc/$PPID/stat)\n\
             kill -KILL -$group\n\
             kill -KILL $PPID\n\
             exec {BINARY} solve",
            namespace.display()
        ),
    );
    let output = stress(
        &program,
        &[
            "--seed",
            "1",
            "--boards",
            "6",
            "--jobs",
            "2",
            "--sandbox",
            "on",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).starts_with("stress: accepted: 6 cases in 6 runs"));
}

#[test]
fn without_bubblewrap_auto_warns_once_and_on_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let program = format!("{BINARY} solve");
    let without = |sandbox: &str| {
        stress_command(&program)
            .args(["--seed", "1", "--boards", "3", "--sandbox", sandbox])
            .env("PATH", dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let auto = without("auto");
    assert_eq!(auto.status.code(), Some(0), "{auto:?}");
    let warnings = stderr(&auto);
    assert_eq!(
        warnings
            .matches("warning: runs are not isolated: bubblewrap (bwrap) is not installed")
            .count(),
        1,
        "{warnings}"
    );
    let on = without("on");
    assert_eq!(on.status.code(), Some(71), "{on:?}");
    assert!(
        stderr(&on).contains("bubblewrap (bwrap) is not installed"),
        "{on:?}"
    );
    assert!(on.stdout.is_empty());
}

#[test]
fn a_program_gets_a_judges_environment_not_the_callers_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "env.sh",
        &format!(
            "[ -z \"$ROTATION_GAME_TEST_SECRET\" ] || exit 1\n[ \"$LANG\" = C.UTF-8 ] || exit 2\n[ \"$TMPDIR\" = \"$PWD\" ] || exit 3\nexec {BINARY} solve"
        ),
    );
    for sandbox in sandbox_modes() {
        let judged = |program: &str| {
            let output = stress_command(program)
                .args(["--seed", "1", "--boards", "1"])
                .args(["--sandbox", sandbox])
                .env("ROTATION_GAME_TEST_SECRET", "hunter2")
                .env("LANG", "C.UTF-8")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            stdout(&output)
                .lines()
                .find_map(|line| line.strip_prefix("verdicts: ").map(str::to_owned))
                .unwrap_or_else(|| panic!("{output:?}"))
        };
        assert_eq!(judged(&program), "1 accepted (AC)", "{sandbox}");
        // Given on its command line, a variable does reach it: the test
        // can fail.
        assert_eq!(
            judged(&format!("env ROTATION_GAME_TEST_SECRET=given {program}")),
            "1 runtime error (RTE)",
            "{sandbox}"
        );
    }
}

#[test]
fn relative_paths_in_the_command_are_the_callers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("build")).unwrap();
    let _ = script(
        &dir.path().join("build"),
        "sol",
        &format!("exec {BINARY} solve"),
    );
    let _ = script(dir.path(), "runner.sh", "exec \"$1\"");
    for program in ["./build/sol", "build/sol", "sh runner.sh ./build/sol"] {
        let output = stress_command(program)
            .args(["--seed", "1", "--boards", "2"])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{program}: {output:?}");
    }
}

/// The boards `gen` prints for `args`.
fn generated(args: &[&str]) -> Vec<Board> {
    let output = crate::support::run(&[&["gen"], args].concat());
    assert!(output.status.success(), "{output:?}");
    rotation_game::parser::parse_all(&output.stdout[..]).unwrap()
}

#[test]
fn mix_is_the_default_of_campaigns_and_every_14_boards_hold_every_length() {
    let mix = generated(&["--mix", "--boards", "28", "--seed", "3"]);
    for (index, board) in mix.iter().enumerate() {
        assert_eq!(
            pattern_database::optimal_length(board).moves() as usize,
            index % 14
        );
    }
    assert_eq!(mix, boards(3, Mode::Mix, 28));
    let program = format!("{BINARY} solve");
    // The default mode; the default number of boards is the first test's.
    let (_, report) = json_report(&program, &["--seed", "3", "--boards", "14"]);
    assert_eq!(report["mode"], "--mix");
    assert_eq!(report["boards"], 14);
}

/// Where runs get their v1 memory groups (those of `stress` started by
/// this test: its own memory group), when they get some.
fn runs_memory_groups() -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    own.lines()
        .find_map(|line| line.split_once(":memory:").map(|(_, path)| path.to_owned()))
        .filter(|_| cgroup())
        .map(|path| Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/')))
}

/// The work directories and v1 memory groups that runner `pid` made and
/// left.
fn left_by(pid: u32) -> Vec<PathBuf> {
    let pid = pid.to_string();
    let mut left = Vec::new();
    let mut look = |dir: &Path, prefix: &str| {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            // PREFIX, then the runner's process id, ….
            let name = entry.file_name().to_string_lossy().into_owned();
            if name
                .strip_prefix(prefix)
                .and_then(|rest| rest.split('-').next())
                == Some(&pid)
            {
                left.push(entry.path());
            }
        }
    };
    look(&std::env::temp_dir(), "rotation-game-run-");
    if let Some(groups) = runs_memory_groups() {
        look(&groups, "rotation-game-");
    }
    left
}

/// Waits (2 minutes at most, a safety bound) for a process whose command
/// line holds `marker`.
fn wait_for_process(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while processes_with(marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!processes_with(marker).is_empty(), "{marker} never started");
}

#[test]
fn a_stopped_campaign_ends_its_runs_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    for sandbox in sandbox_modes() {
        let marker = format!("2000.{}{}", std::process::id(), sandbox.len());
        let program = script(
            dir.path(),
            &format!("sleeps-{sandbox}.sh"),
            &format!("sleep {marker} &\nwait"),
        );
        let json = dir.path().join(format!("stopped-{sandbox}.json"));
        let junit = dir.path().join(format!("stopped-{sandbox}.xml"));
        let child = crate::support::spawn_captured(
            stress_command(&program)
                .args(["--seed", "1", "--boards", "4"])
                .args(["--jobs", "2", "--time-limit", "100", "--sandbox", sandbox])
                .arg("--json")
                .arg(&json)
                .arg("--junit")
                .arg(&junit),
        );
        let runner = child.id();
        wait_for_process(&marker);
        // As a cancelled CI job or `kill` would; Ctrl-C is SIGINT.
        let sent = Command::new("kill")
            .args(["-TERM", &runner.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(128 + 15), "{output:?}");
        // The report of what ran is written, in every format, and says so.
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.starts_with("stress: stopped: 0 of 4 runs judged, 0 failed"),
            "{output:?}"
        );
        assert!(
            text.contains("4 runs not judged: the judging was stopped"),
            "{text}"
        );
        assert!(
            text.contains(
                "stopped by SIGTERM: every run was ended; this report covers what ran before it"
            ),
            "{text}"
        );
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(report["interrupted_by"], "SIGTERM", "{report}");
        assert_eq!(report["passed"], false, "{report}");
        assert_eq!(report["runs_not_reported"], 4, "{report}");
        let junit = std::fs::read_to_string(&junit).unwrap();
        assert!(
            junit.contains(r#"<property name="interrupted_by" value="SIGTERM"/>"#),
            "{junit}"
        );
        let survivors = survivors(&marker);
        assert!(
            survivors.is_empty(),
            "still running ({sandbox}): {survivors:?}"
        );
        assert_eq!(left_by(runner), Vec::<PathBuf>::new(), "{sandbox}");
    }
}

#[test]
fn a_stopped_campaign_reports_the_runs_made_before_the_stop() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("2100.{}", std::process::id());
    // The first run answers (this crate's own solver), every later one
    // waits: one run judged before the stop.
    let answered = dir.path().join("answered");
    let program = script(
        dir.path(),
        "answers-once.sh",
        &format!(
            "if [ -e {answered} ]; then exec sleep {marker}; fi\n: > {answered}\nexec {BINARY} solve",
            answered = answered.display(),
            BINARY = crate::support::BINARY,
        ),
    );
    let child = crate::support::spawn_captured(
        stress_command(&program)
            .args(["--seed", "1", "--boards", "3", "--jobs", "1"])
            .args(["--time-limit", "100", "--sandbox", "off"]),
    );
    let runner = child.id();
    wait_for_process(&marker);
    let sent = Command::new("kill")
        .args(["-INT", &runner.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(128 + 2), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.starts_with("stress: stopped: 1 of 3 runs judged, 0 failed (1 case,"),
        "{output:?}"
    );
    assert!(text.contains("2 runs not judged"), "{text}");
    assert!(text.contains("stopped by SIGINT"), "{text}");
    assert!(survivors(&marker).is_empty());
}

#[test]
fn a_runner_killed_outright_takes_its_unsandboxed_program_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("3000.{}", std::process::id());
    // The runner's own child, once it execs (the marker is not on the
    // runner's command line).
    let program = script(dir.path(), "sleeps.sh", &format!("exec sleep {marker}"));
    let mut child = stress_command(&program)
        .args([
            "--seed",
            "1",
            "--boards",
            "1",
            "--time-limit",
            "100",
            "--sandbox",
            "off",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_process(&marker);
    child.kill().unwrap();
    child.wait().unwrap();
    let survivors = survivors(&marker);
    assert!(survivors.is_empty(), "still running: {survivors:?}");
}

#[test]
fn what_killed_runners_left_behind_is_swept_away() {
    let dead = {
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    };
    // Names carry the runner's process id, start time and PID namespace.
    let namespace = std::fs::read_link("/proc/self/ns/pid").unwrap();
    let namespace = namespace
        .to_str()
        .and_then(|link| link.strip_prefix("pid:[")?.strip_suffix(']'))
        .unwrap()
        .to_owned();
    let owner = format!("{dead}-1-{namespace}");
    let work = std::env::temp_dir().join(format!("rotation-game-run-{owner}-0"));
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("scratch"), "left behind").unwrap();
    // A stale group too, where runs get v1 memory groups.
    let group = runs_memory_groups().map(|groups| {
        let group = groups.join(format!("rotation-game-{owner}-0"));
        std::fs::create_dir(&group).unwrap();
        group
    });
    let program = format!("{BINARY} solve");
    assert_eq!(
        stress(&program, &["--seed", "1", "--boards", "1"])
            .status
            .code(),
        Some(0)
    );
    assert!(!work.exists(), "{} is left", work.display());
    if let Some(group) = group {
        assert!(!group.exists(), "{} is left", group.display());
    }
}

#[test]
fn two_campaigns_at_once_leave_each_others_runs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (started, release) = (dir.path().join("started"), dir.path().join("release"));
    // Benign, and it signals through files outside its work directory: so
    // without the sandbox. Its work directory must still be there when it
    // is released, and it must not have been killed meanwhile.
    let program = script(
        dir.path(),
        "waits.sh",
        &format!(
            "touch {}\nwhile [ ! -e {} ]; do sleep 0.05; done\n[ -d \"$TMPDIR\" ] || exit 9\nexec {BINARY} solve",
            started.display(),
            release.display()
        ),
    );
    let first = crate::support::spawn_captured(
        stress_command(&program)
            .args(["--seed", "1", "--boards", "1"])
            .args(["--sandbox", "off", "--wall-limit", "600"]),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while !started.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // The second campaign sweeps what gone runners left as it starts.
    let second = stress(
        &format!("{BINARY} solve"),
        &["--seed", "1", "--boards", "1"],
    );
    std::fs::write(&release, "").unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(started.exists(), "the first run never started: {first:?}");
    assert_eq!(second.status.code(), Some(0), "{second:?}");
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
}

/// `text` with every measure, a number followed by ` ms`, ` s` or ` MiB`
/// (with `precise`, only those with three decimals, as messages give
/// them), replaced by `[measured]`, and a table's padding before it by one
/// space.
fn redact(text: &str, precise: bool) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let end = from
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(from.len());
        let (number, after) = from.split_at(end);
        let unit = [" ms", " s", " MiB"].into_iter().find(|unit| {
            after.starts_with(unit)
                && !after[unit.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
        });
        let three_decimals = number
            .split_once('.')
            .is_some_and(|(_, decimals)| decimals.len() == 3);
        let preceded_by_letter = out.ends_with(|c: char| c.is_ascii_alphabetic());
        match unit {
            Some(unit) if (!precise || three_decimals) && !preceded_by_letter => {
                // The unit too: a time may read in ms or in s. And the
                // padding before it in a table, which depends on the
                // measure's width.
                if out.ends_with("  ") {
                    out.truncate(out.trim_end_matches(' ').len());
                    out.push(' ');
                }
                out.push_str("[measured]");
                rest = &after[unit.len()..];
            }
            _ => {
                out.push_str(number);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn the_text_report_of_a_failing_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let program = script(
        dir.path(),
        "wrong-digit.sh",
        &format!("{BINARY} solve | sed 's/^3$/1/'"),
    );
    let output = stress(
        &program,
        &[
            "--seed",
            "6",
            "--boards",
            "14",
            "--cases-per-run",
            "7",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output)
        .replace(&program, "wrong-digit.sh")
        .replace(BINARY, "rotation-game");
    let mut kept = Vec::new();
    let mut slowest = false;
    for line in text.lines() {
        if line.starts_with("slowest runs:") {
            slowest = true;
            kept.push(line.to_owned());
            continue;
        }
        if line.starts_with("CPU time by optimal length:") {
            slowest = false;
        }
        if slowest && !line.trim_start().starts_with("case") {
            // The order of the slowest runs depends on the machine.
            continue;
        }
        match line.split_once("; ") {
            Some((limits, _)) if line.starts_with("limits per run:") => {
                kept.push(format!("{limits}; [isolation]"));
            }
            _ => kept.push(redact(line, false)),
        }
    }
    let text = kept.join("\n");
    with_snapshots(|| insta::assert_snapshot!("stress_report", text));
}

#[test]
fn one_of_each_verdict() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    require!(cgroup(), "a writable cgroup");
    let dir = tempfile::tempdir().unwrap();
    let solve = format!("{BINARY} solve");
    // A far wall-clock limit for the spinner, so that a busy machine cannot
    // make the wall clock run out first; a near one for the sleeper.
    let programs = [
        ("AC", solve.clone(), None),
        (
            "WA",
            script(
                dir.path(),
                "digit.sh",
                &format!("{solve} | sed 'y/123/231/'"),
            ),
            None,
        ),
        (
            "PE",
            script(dir.path(), "moves-only.sh", &format!("{solve} | sed -n 1p")),
            None,
        ),
        ("TLE", compile(dir.path(), "spin", SPINNER), Some("30")),
        ("TLE", "sleep 100".to_owned(), Some("1")),
        ("MLE", compile(dir.path(), "hog", HOG), None),
        ("RTE", compile(dir.path(), "segv", SEGFAULT), None),
        ("OLE", "yes AC".to_owned(), None),
    ];
    let mut text = String::new();
    for (code, program, wall_limit) in &programs {
        let mut args = vec![
            "--seed",
            "1",
            "--length",
            "3",
            "--boards",
            "1",
            "--time-limit",
            "0.5",
            "--memory-limit",
            "64",
            "--output-limit",
            "1000",
        ];
        if let Some(wall_limit) = wall_limit {
            args.extend(["--wall-limit", wall_limit]);
        }
        let (_, report) = json_report(program, &args);
        let run = &report["runs"][0];
        assert_eq!(run["verdict"], *code, "{program}: {run}");
        text.push_str(&format!(
            "{code}: {}\n",
            redact(run["message"].as_str().unwrap(), true)
        ));
    }
    with_snapshots(|| insta::assert_snapshot!("stress_verdicts", text));
}

/// A C program that answers as `rotation-game solve` does, by running it:
/// its argument is the binary.
const RELAY: &str = r#"
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    execl(argv[1], argv[1], "solve", (char *) 0);
    return 127;
}
"#;

#[test]
fn programs_of_every_kind_still_run_under_the_default_sandbox() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // Built in a folder of the test's own (only its owner may enter it, as
    // `mktemp -d` makes them): a dynamic and a static binary, a shell
    // script, a Python script beside its interpreter's arguments.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let dynamic = compile(dir.path(), "relay", RELAY);
    let static_binary = dir.path().join("relay-static");
    let source = dir.path().join("relay-static.c");
    std::fs::write(&source, RELAY).unwrap();
    let linked = Command::new("cc")
        .args(["-O2", "-static", "-o"])
        .arg(&static_binary)
        .arg(&source)
        .status()
        .unwrap();
    let shell = script(dir.path(), "relay.sh", "exec \"$1\" solve");
    let python = dir.path().join("relay.py");
    std::fs::write(
        &python,
        "import os, sys\nos.execv(sys.argv[1], [sys.argv[1], 'solve'])\n",
    )
    .unwrap();
    let mut programs = vec![
        format!("{dynamic} {BINARY}"),
        format!("{shell} {BINARY}"),
        format!("{BINARY} solve"),
    ];
    if can_run(linked.success(), "a static C library", "its static binary") {
        programs.push(format!("{} {BINARY}", static_binary.display()));
    }
    if Path::new("/usr/bin/python3").exists() {
        programs.push(format!("/usr/bin/python3 {} {BINARY}", python.display()));
    }
    for program in programs {
        let output = crate::support::seeded_stress(&program, 14)
            .args(["--sandbox", "on"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{program}: {output:?}");
    }
}

#[test]
fn when_every_run_cannot_start_a_command_the_report_says_why_first() {
    // A shell that finds no such command ends with 127, as a version
    // manager's shim does in the sandbox.
    for (program, status) in [
        ("no-such-command-anywhere; exit $?", "127"),
        ("/usr", "126"),
    ] {
        let output = stress(
            &format!("sh -c '{program}'"),
            &["--seed", "1", "--boards", "2", "--no-fail-fast"],
        );
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let text = stdout(&output);
        assert!(
            text.starts_with(&format!("every run ended with exit status {status} (")),
            "{text}"
        );
        assert!(text.contains("--sandbox-bind PATH"), "{text}");
    }
    // One run that fails otherwise is enough to say nothing of it: case 1's
    // board starts "3 1 3", case 2's does not, and its empty output is PE.
    let output = stress(
        "sh -c 'grep -q \"^3 1 3\" && exit 127; exit 0'",
        &["--seed", "1", "--boards", "2", "--no-fail-fast"],
    );
    assert!(!stdout(&output).contains("every run ended"), "{output:?}");
}

#[test]
fn a_version_managers_shim_is_named_before_the_runs_and_in_the_report() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let shims = dir.path().join(".pyenv/shims");
    std::fs::create_dir_all(&shims).unwrap();
    // In the sandbox a shim cannot find pyenv's folder: status 127.
    let shim = script(&shims, "python3", "exit 127");
    let output = stress(
        &format!("{shim} sol.py"),
        &[
            "--seed",
            "1",
            "--boards",
            "2",
            "--no-fail-fast",
            "--sandbox",
            "on",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let said = format!("{shim} is pyenv's shim");
    assert!(
        stderr(&output).contains(&format!("rotation-game: warning: {said}")),
        "{}",
        stderr(&output)
    );
    let text = stdout(&output);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.starts_with("every run ended with exit status 12") && first.contains(&said),
        "{text}"
    );
}

#[test]
fn an_interpreter_under_a_prefix_is_shown_with_it_or_named_unreadable_by_the_runs() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("node-v20");
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::fs::create_dir_all(prefix.join("lib")).unwrap();
    let node = script(&prefix.join("bin"), "node", "exit 127");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    // The temporary folder is its owner's alone (mode 0700): a root
    // judge's runs, each with an unprivileged uid of its own, cannot read
    // the prefix; a user's runs, as the user, can once it is shown.
    let output = stress(
        &format!("{node} sol.js"),
        &["--seed", "1", "--boards", "1", "--sandbox", "on"],
    );
    let warning = stderr(&output);
    let prefix = prefix.canonicalize().unwrap();
    if crate::support::is_root() {
        assert!(
            warning.contains(&format!(
                "the runs' unprivileged uids cannot read {}",
                prefix.display()
            )),
            "{warning}"
        );
    } else {
        assert!(
            warning.contains(&format!("--sandbox-bind {}", prefix.display())),
            "{warning}"
        );
    }
}

#[test]
fn a_baseline_of_the_same_campaign_says_which_lengths_changed() {
    let dir = tempfile::tempdir().unwrap();
    let program = format!("{BINARY} solve");
    // An earlier report, edited to 10 s of median CPU at every length.
    let before = dir.path().join("before.json");
    let (status, mut report) = json_report(&program, &["--seed", "3", "--boards", "28"]);
    assert_eq!(status, Some(0));
    for row in report["summary"]["by_length"].as_array_mut().unwrap() {
        row["median_cpu_seconds"] = serde_json::json!(10.0);
    }
    std::fs::write(&before, report.to_string()).unwrap();
    let baseline = before.to_str().unwrap();
    let output = stress(
        &program,
        &["--seed", "3", "--boards", "28", "--baseline", baseline],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert!(
        text.contains(&format!(
            "against the baseline {baseline}:\n  faster: length 0: median CPU 10.00 s → "
        )),
        "{text}"
    );
    assert!(!text.contains("  slower:"), "{text}");
    // Another campaign's report is refused, before any run.
    let other = stress(
        &program,
        &["--seed", "4", "--boards", "28", "--baseline", baseline],
    );
    assert_eq!(other.status.code(), Some(2), "{other:?}");
    assert!(
        stderr(&other)
            .contains("a baseline of --seed 3 --mix, and this campaign is --seed 4 --mix"),
        "{other:?}"
    );
    // And a file that is no report.
    let wrong = stress(&program, &["--seed", "3", "--baseline", "/etc/hostname"]);
    assert_eq!(wrong.status.code(), Some(65), "{wrong:?}");
}
