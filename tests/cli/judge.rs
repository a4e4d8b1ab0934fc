//! `rotation-game judge` on the real package of seed 1, through the binary,
//! with the package's own submissions compiled as problemtools compiles
//! them: the pattern database solution is accepted on every file, each
//! planted wrong answer is rejected first on the file the coverage report
//! names for its mistake, the slow one exceeds a small time limit on a hard
//! file, and the JSON and JUnit reports say so.
//!
//! The classic IDA* runs here only on the 13 files before the hardest ones
//! (about 4 s in all, 1.5 s at most on one file; on all 25 it generates
//! some 14 billion boards, over a minute of CPU); on every file it is
//! judged by the calibration test (`package_calibrate.rs`, ignored) and by
//! problemtools (`.ci/verify-package.sh`, in `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use rotation_game::package::{FileCoverage, Role, SUBMISSIONS, SourceProgram};
use serde_json::Value;

use crate::support::fixtures::fixtures;
use crate::support::package::{compiled_submissions, package};
use crate::support::{binary, stdout};

/// The package of seed 1 written to disk once, in the Kattis layout: its
/// folder (named `rotationgame`, as Kattis wants).
fn written_package() -> &'static Path {
    static WRITTEN: OnceLock<PathBuf> = OnceLock::new();
    WRITTEN.get_or_init(|| {
        let dir = fixtures("package").join("rotationgame");
        for file in &package().files {
            let path = dir.join(&file.path);
            std::fs::create_dir_all(path.parent().expect("a folder")).unwrap();
            std::fs::write(&path, &file.contents).unwrap();
        }
        dir
    })
}

/// The compiled submission named `file_name`.
fn submission(file_name: &str) -> &'static (&'static SourceProgram, PathBuf) {
    compiled_submissions()
        .iter()
        .find(|(program, _)| program.file_name == file_name)
        .unwrap_or_else(|| panic!("no submission {file_name}"))
}

/// The most nodes the classic IDA* may generate on a file for it to run
/// here: the files before the hardest ones.
const CLASSIC_QUICK_NODES: u64 = 300_000_000;

/// Runs `rotation-game judge` with `args`, writing the JSON and JUnit
/// reports into `dir`; returns the run, the JSON report and the JUnit one.
fn judge(dir: &Path, args: &[&str]) -> (Output, Value, String) {
    let json = dir.join("judge.json");
    let junit = dir.join("judge.xml");
    let output = binary()
        .arg("judge")
        .args(args)
        .arg("--json")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .output()
        .expect("the binary runs");
    let report: Value = serde_json::from_slice(
        &std::fs::read(&json).unwrap_or_else(|error| panic!("no JSON report: {error}: {output:?}")),
    )
    .expect("the JSON report parses");
    crate::json::assert_documented("judge --json", &report);
    let junit = std::fs::read_to_string(&junit).expect("a JUnit report");
    (output, report, junit)
}

/// `1 case`, `2 cases`: how the JUnit report counts a file's cases.
fn cases_of(count: usize) -> String {
    format!("{count} case{}", if count == 1 { "" } else { "s" })
}

/// The name `judge` gives a row of the report: its path under `data/`.
fn judged_name(row: &FileCoverage) -> &str {
    row.path.strip_prefix("data/").expect("a Kattis path")
}

/// The test cases of a JUnit report, as (name, failure type if any).
fn junit_cases(junit: &str) -> Vec<(String, Option<String>)> {
    let document = roxmltree::Document::parse(junit).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    root.descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failure = case
                .children()
                .find(|child| child.has_tag_name("failure"))
                .map(|failure| failure.attribute("type").unwrap().to_owned());
            (case.attribute("name").unwrap().to_owned(), failure)
        })
        .collect()
}

/// The files of a JSON report, as (file, verdict).
fn json_files(report: &Value) -> Vec<(String, String)> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| {
            (
                file["file"].as_str().unwrap().to_owned(),
                file["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_pattern_database_solution_is_accepted_on_every_file_within_the_package_limit() {
    let rows = &package().report.files;
    let (_, program) = submission("pattern_database.rs");
    let dir = tempfile::tempdir().unwrap();
    let package_dir = written_package().to_str().unwrap();
    let (output, report, junit) = judge(
        dir.path(),
        &["--program", program.to_str().unwrap(), package_dir],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        stdout(&output).starts_with("judge: accepted: every file ("),
        "{}",
        stdout(&output)
    );
    // Every file of the package, in the report's order, accepted.
    let expected: Vec<(String, String)> = rows
        .iter()
        .map(|row| (judged_name(row).to_owned(), "AC".to_owned()))
        .collect();
    assert_eq!(json_files(&report), expected);
    assert_eq!(report["passed"], true);
    assert_eq!(report["layout"], "kattis");
    assert!(report["first_failure"].is_null());
    // The limit is the package's, read from its .timelimit.
    assert_eq!(
        report["limits"]["time_limit_seconds"].as_f64(),
        Some(f64::from(package().report.time_limit.seconds()))
    );
    assert!(
        report["time_limit_from"]
            .as_str()
            .unwrap()
            .ends_with(".timelimit"),
        "{report}"
    );
    let cases = junit_cases(&junit);
    assert_eq!(cases.len(), rows.len());
    for ((name, failure), row) in cases.iter().zip(rows) {
        assert_eq!(
            name,
            &format!("{} ({})", judged_name(row), cases_of(row.cases))
        );
        assert_eq!(failure, &None, "{name}");
    }
}

#[test]
fn the_classic_solution_is_accepted_on_the_files_it_gets_through_quickly() {
    let rows: Vec<&FileCoverage> = package()
        .report
        .files
        .iter()
        .filter(|row| row.classic_nodes <= CLASSIC_QUICK_NODES)
        .collect();
    assert!(rows.len() >= 10, "{} files", rows.len());
    // A plain folder of those files, named as the package names them.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for row in &rows {
        let name = judged_name(row).replace('/', "-");
        for extension in ["in", "ans"] {
            std::fs::copy(
                written_package().join(format!("{}.{extension}", row.path)),
                data.join(format!("{name}.{extension}")),
            )
            .unwrap();
        }
    }
    let (_, program) = submission("classic_ida.cpp");
    let (output, report, junit) = judge(
        dir.path(),
        &[
            "--program",
            program.to_str().unwrap(),
            data.to_str().unwrap(),
            "--layout",
            "plain",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let files = json_files(&report);
    assert_eq!(files.len(), rows.len());
    assert!(
        files.iter().all(|(_, verdict)| verdict == "AC"),
        "{files:?}"
    );
    assert_eq!(report["layout"], "plain");
    assert!(
        junit_cases(&junit)
            .iter()
            .all(|(_, failure)| failure.is_none())
    );
}

#[test]
fn each_planted_wrong_answer_is_rejected_first_on_the_file_the_report_names() {
    let rows = &package().report.files;
    let package_dir = written_package().to_str().unwrap();
    let mut checked = 0;
    for program in SUBMISSIONS
        .iter()
        .filter(|program| program.role == Role::WrongAnswer)
    {
        let mistake = program.mistake.expect("a planted mistake");
        let expected = rows
            .iter()
            .position(|row| row.mistakes.contains(&mistake))
            .unwrap_or_else(|| panic!("no file catches {}", program.file_name));
        let (_, binary) = submission(program.file_name);
        let dir = tempfile::tempdir().unwrap();
        // One file at a time, stopping at the first failure, as a judge
        // does: the files after it are neither run nor reported.
        let (output, report, junit) = judge(
            dir.path(),
            &[
                "--program",
                binary.to_str().unwrap(),
                package_dir,
                "--jobs",
                "1",
                "--fail-fast",
            ],
        );
        let name = program.file_name;
        assert_eq!(output.status.code(), Some(1), "{name}: {output:?}");
        let files = json_files(&report);
        assert_eq!(files.len(), expected + 1, "{name}: {files:?}");
        for ((file, verdict), row) in files.iter().zip(rows) {
            assert_eq!(file, judged_name(row), "{name}");
            if file != judged_name(&rows[expected]) {
                assert_eq!(verdict, "AC", "{name} on {file}");
            }
        }
        // A wrong output format (PE) is a wrong answer to the package's
        // output validator, and so to problemtools, Kattis and DOMjudge.
        let verdict = &files[expected].1;
        assert!(
            verdict == "WA" || verdict == "PE",
            "{name} got {verdict} on {}",
            files[expected].0
        );
        assert_eq!(
            report["files_not_reported"].as_u64(),
            Some((rows.len() - expected - 1) as u64),
            "{name}"
        );
        let first = &report["first_failure"];
        assert_eq!(first["file"], judged_name(&rows[expected]), "{name}");
        assert_eq!(first["verdict"].as_str(), Some(verdict.as_str()), "{name}");
        // The failing case is shown with the right answer to it.
        let case = first["case"].as_u64().expect("a failing case") as usize;
        let answer =
            std::fs::read_to_string(written_package().join(format!("{}.ans", rows[expected].path)))
                .unwrap();
        let expected_output = first["expected_output"].as_str().unwrap();
        let lines: Vec<&str> = answer.lines().skip(2 * (case - 1)).take(2).collect();
        assert_eq!(expected_output, format!("{}\n", lines.join("\n")), "{name}");
        assert!(
            stdout(&output).contains(&format!(
                "first failure: {}: ",
                judged_name(&rows[expected])
            )),
            "{name}: {}",
            stdout(&output)
        );
        let failures: Vec<(String, Option<String>)> = junit_cases(&junit)
            .into_iter()
            .filter(|(_, failure)| failure.is_some())
            .collect();
        assert_eq!(failures.len(), 1, "{name}: {failures:?}");
        assert!(
            failures[0].0.starts_with(judged_name(&rows[expected])),
            "{name}: {failures:?}"
        );
        assert_eq!(failures[0].1.as_deref(), Some(verdict.as_str()), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn the_slow_solution_exceeds_a_small_time_limit_on_a_hard_file() {
    let rows = &package().report.files;
    let hard = rows
        .iter()
        .find(|row| row.lengths == [13])
        .expect("a file of boards of 13 moves only");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for extension in ["in", "ans"] {
        std::fs::copy(
            written_package().join(format!("{}.{extension}", hard.path)),
            data.join(format!("01.{extension}")),
        )
        .unwrap();
    }
    let (program, binary) = submission("iterative_deepening.cpp");
    assert_eq!(program.role, Role::TimeLimitExceeded);
    let (output, report, junit) = judge(
        dir.path(),
        &[
            "--program",
            binary.to_str().unwrap(),
            data.to_str().unwrap(),
            "--time-limit",
            "1",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(
        json_files(&report),
        [("01".to_owned(), "TLE".to_owned())],
        "{report}"
    );
    assert_eq!(report["layout"], "plain");
    assert_eq!(report["time_limit_from"], "--time-limit");
    assert_eq!(report["limits"]["time_limit_seconds"].as_f64(), Some(1.0));
    assert_eq!(report["first_failure"]["verdict"], "TLE");
    assert_eq!(
        junit_cases(&junit),
        [(
            format!("01 ({})", cases_of(hard.cases)),
            Some("TLE".to_owned())
        )]
    );
    let text = stdout(&output);
    assert!(
        text.contains("verdicts: 1 time limit exceeded (TLE)"),
        "{text}"
    );
    assert!(text.contains("--time-limit 1"), "{text}");
}
