//! `rotation-game judge` on small folders written here, no package built:
//! where the time limit comes from, the layouts, the exit statuses and the
//! command that judges again. Each test takes well under a second, so the
//! mutation campaign's `cli_judging` group runs these rather than
//! `judge.rs`, whose tests build and compile the package of seed 1 (20 to
//! 30 s each).

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::programs::script;
use crate::support::{BINARY, run, run_binary, stderr, stdout};

const SAMPLE: &str = include_str!("../../examples/sample.txt");

/// The first case of the statement's sample, alone.
fn first_case() -> String {
    format!("{}\n0\n", SAMPLE.lines().next().expect("a first case"))
}

/// The project's own solver as the program judged.
fn solver() -> String {
    format!("{BINARY} solve")
}

/// Writes `name.in` holding `input` and `name.ans` holding its answers
/// into `dir`.
fn write_test(dir: &Path, name: &str, input: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let answers = run_binary(&["solve"], input.as_bytes());
    assert!(answers.status.success(), "{answers:?}");
    std::fs::write(dir.join(format!("{name}.in")), input).unwrap();
    std::fs::write(dir.join(format!("{name}.ans")), &answers.stdout).unwrap();
}

/// A plain folder (its name has a space, for the quoting of the command
/// that repeats the judging): `01` (the sample, 2 cases), `02` (its first
/// case).
fn plain_folder(root: &Path) -> PathBuf {
    let dir = root.join("data files");
    write_test(&dir, "01", SAMPLE);
    write_test(&dir, "02", &first_case());
    dir
}

/// A Kattis package: `data/sample/1` and `data/secret/01`, and a
/// `.timelimit` holding `time_limit` when given.
fn package(root: &Path, time_limit: Option<&str>) -> PathBuf {
    let dir = root.join("rotationgame");
    write_test(&dir.join("data/sample"), "1", SAMPLE);
    write_test(&dir.join("data/secret"), "01", &first_case());
    if let Some(text) = time_limit {
        std::fs::write(dir.join(".timelimit"), text).unwrap();
    }
    dir
}

/// `judge --program PROGRAM DIR ARGS...`, with its JSON report (written to
/// a file beside the text report).
fn judge(program: &str, dir: &Path, args: &[&str]) -> (Output, Option<Value>) {
    let json = dir.with_extension("json");
    let _ = std::fs::remove_file(&json);
    let dir = dir.to_str().unwrap();
    let json_arg = json.to_str().unwrap();
    let mut argv = vec!["judge", "--program", program, dir, "--json", json_arg];
    argv.extend_from_slice(args);
    let output = run(&argv);
    let report = std::fs::read(&json)
        .ok()
        .map(|bytes| serde_json::from_slice(&bytes).expect("a JSON report"));
    (output, report)
}

/// The line of the text report that starts with `start`.
fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|line| line.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting with {start:?} in:\n{text}"))
}

#[test]
fn a_plain_folder_is_judged_file_by_file_with_the_default_time_limit() {
    let root = tempfile::tempdir().unwrap();
    let dir = plain_folder(root.path());
    let (output, report) = judge(&solver(), &dir, &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    let first = line(&text, "judge: ");
    assert!(
        first.starts_with(&format!(
            "judge: accepted: every file ({} on {} (plain layout, 2 files), 3 cases, ",
            solver(),
            dir.display()
        )),
        "{first}"
    );
    assert!(
        line(&text, "limits per run: ")
            .starts_with("limits per run: 10 s of CPU (from the default), 30 s of wall clock, "),
        "{text}"
    );
    assert_eq!(
        line(&text, "repeat with: "),
        format!(
            "repeat with: rotation-game judge --program '{}' '{}'",
            solver(),
            dir.display()
        )
    );
    let report = report.expect("a JSON report");
    assert_eq!(report["passed"], true);
    assert_eq!(report["layout"], "plain");
    assert_eq!(report["time_limit_from"], "the default");
    let files: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["01", "02"]);
}

#[test]
fn the_time_limit_is_the_flags_else_the_packages_timelimit_file() {
    let root = tempfile::tempdir().unwrap();
    let dir = package(root.path(), Some("2.5\n"));
    let limit_file = dir.join(".timelimit");

    let (output, report) = judge(&solver(), &dir, &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    assert!(
        line(&text, "judge: ").contains(&format!(
            " on {} (kattis layout, 2 files), 3 cases, ",
            dir.display()
        )),
        "{text}"
    );
    assert!(
        line(&text, "limits per run: ").starts_with(&format!(
            "limits per run: 2.5 s of CPU (from {}), 7.5 s of wall clock, ",
            limit_file.display()
        )),
        "{text}"
    );
    let report = report.expect("a JSON report");
    assert_eq!(report["time_limit_from"], limit_file.to_str().unwrap());
    assert_eq!(report["limits"]["time_limit_seconds"], 2.5);
    let files: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["sample/1", "secret/01"]);

    let flags = ["--time-limit", "4", "--layout", "kattis"];
    let (output, _) = judge(&solver(), &dir, &flags);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}{}", stderr(&output));
    assert!(
        line(&text, "limits per run: ")
            .starts_with("limits per run: 4 s of CPU (from --time-limit), 12 s of wall clock, "),
        "{text}"
    );
    assert!(
        line(&text, "repeat with: ").ends_with(" --layout kattis --time-limit 4"),
        "{text}"
    );

    for (bad, shown) in [("soon", "\"soon\""), ("0", "\"0\""), ("86401", "\"86401\"")] {
        std::fs::write(&limit_file, bad).unwrap();
        let (output, report) = judge(&solver(), &dir, &[]);
        assert_eq!(output.status.code(), Some(65), "{output:?}");
        assert!(
            report.is_none(),
            "no report for a judging that did not start"
        );
        assert!(output.stdout.is_empty(), "{output:?}");
        assert!(
            stderr(&output).contains(&format!(
                "{} does not hold a time limit in seconds: {shown} (give one with --time-limit)",
                limit_file.display()
            )),
            "{}",
            stderr(&output)
        );
    }
    std::fs::write(&limit_file, "86400").unwrap();
    let (output, _) = judge(&solver(), &dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn a_wrong_program_fails_and_a_wrong_test_file_is_the_datas_fault() {
    let root = tempfile::tempdir().unwrap();
    let dir = plain_folder(root.path());
    let wrong = script(root.path(), "wrong.sh", "printf 'No moves needed\\n1\\n'");

    let (output, report) = judge(&wrong, &dir, &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    assert!(
        line(&text, "judge: ").starts_with("judge: 1 of 1 file not accepted ("),
        "{text}"
    );
    assert_eq!(report.expect("a JSON report")["files_not_reported"], 1);

    std::fs::write(dir.join("03.in"), "1 2 3\n0\n").unwrap();
    std::fs::write(dir.join("03.ans"), "").unwrap();
    let (output, report) = judge(&solver(), &dir, &["--no-fail-fast", "--layout", "plain"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(65), "{text}{}", stderr(&output));
    assert!(
        stderr(&output).contains(
            "the test data is wrong (FAIL above): fix the package before judging programs on it"
        ),
        "{}",
        stderr(&output)
    );
    assert!(
        line(&text, "repeat with: ").ends_with(" --layout plain --no-fail-fast"),
        "{text}"
    );
    let report = report.expect("a JSON report");
    assert_eq!(report["files"][2]["verdict"], "FAIL");
    assert_eq!(report["files"][0]["verdict"], "AC");
}

#[test]
fn a_folder_without_test_files_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let empty = root.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let plain = plain_folder(root.path());
    let kattis = package(root.path(), None);
    for (dir, layout) in [(&empty, "auto"), (&plain, "kattis"), (&kattis, "plain")] {
        let (output, report) = judge(&solver(), dir, &["--layout", layout]);
        assert_eq!(output.status.code(), Some(66), "{layout}: {output:?}");
        assert!(report.is_none(), "{layout}: no report without test files");
        assert!(output.stdout.is_empty(), "{layout}: {output:?}");
    }
}
