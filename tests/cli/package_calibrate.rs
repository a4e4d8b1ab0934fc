//! `rotation-game package DIR --calibrate` through the binary: the limit it
//! measures follows problemtools' rule (the slowest accepted run times
//! the multiplier, rounded up to a whole second), it is the one written to
//! `.timelimit`, `problem.yaml` and the report, and every submission got
//! its folder's verdict at the limit its folder is judged with, the slow
//! one at the safety margin times the limit.
//!
//! The figures are measured here, so nothing is compared with a fixed time:
//! the test prints them. It takes some 4 minutes of CPU (every accepted
//! submission on every file), so it is ignored by default, and `.ci/run`
//! leaves it out to stay within its time; `just package-calibrate-test`
//! runs it:
//!
//! ```text
//! CI=1 cargo test --release --test cli -- --ignored --nocapture package_calibrate::
//! ```

use std::time::Instant;

use rotation_game::package::{Role, SUBMISSIONS, TIME_MULTIPLIER, TIME_SAFETY_MARGIN};

use crate::support::{binary, stderr};

/// The text of `line` between `before` and the next `after`.
fn between<'a>(line: &'a str, before: &str, after: &str) -> &'a str {
    let start = line
        .find(before)
        .unwrap_or_else(|| panic!("no {before:?} in {line:?}"))
        + before.len();
    let end = line[start..]
        .find(after)
        .unwrap_or_else(|| panic!("no {after:?} after {before:?} in {line:?}"));
    &line[start..start + end]
}

/// A number the report prints, such as `13.62` or `1,024`.
fn number(text: &str) -> f64 {
    text.trim()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {text:?}"))
}

/// A row of the report's table of the submissions' real runs.
struct RealRun {
    program: String,
    expected: String,
    limit_seconds: f64,
    result: String,
    first_failing_file: String,
    model_file: String,
}

/// The rows of the table under `## The submissions, run`.
fn real_runs(report: &str) -> Vec<RealRun> {
    let section = report
        .split("## The submissions, run")
        .nth(1)
        .expect("the report has the submissions' real runs");
    section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 6, "{line}");
            RealRun {
                program: cells[0].trim_matches('`').to_owned(),
                expected: cells[1].to_owned(),
                limit_seconds: number(cells[2].trim_end_matches(" s")),
                result: cells[3].to_owned(),
                first_failing_file: cells[4].to_owned(),
                model_file: cells[5].to_owned(),
            }
        })
        .collect()
}

#[test]
#[ignore = "runs every submission on the package: some 4 minutes of CPU; just package-calibrate-test runs it"]
fn calibrate_sets_problemtools_limit_from_the_real_runs_and_checks_the_margin() {
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("rotationgame");
    let started = Instant::now();
    let output = binary()
        .args(["package", package.to_str().unwrap(), "--seed", "1"])
        .args(["--calibrate", "--threads", "2"])
        .output()
        .expect("the binary runs");
    let seconds = started.elapsed().as_secs_f64();
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{said}");

    // What it says: the limit and its arithmetic, 5 × S s = P s, rounded up.
    let line = said
        .lines()
        .find(|line| line.starts_with("rotation-game: calibrated time limit: "))
        .unwrap_or_else(|| panic!("no calibrated limit in {said}"));
    let limit = number(between(line, "calibrated time limit: ", " s ("));
    let slowest = number(between(line, &format!("({TIME_MULTIPLIER} × "), " s = "));
    let product = number(between(line, " s = ", " s, rounded up: "));
    assert_eq!(
        number(between(line, "rounded up: ", " s)")),
        limit,
        "{line}"
    );
    // problemtools' rounding: the limit is the product rounded up to a whole
    // second (at least 1). The figures are printed to 0.01, so the product
    // may show as up to 0.005 off.
    assert!(
        (product - f64::from(TIME_MULTIPLIER) * slowest).abs() <= 0.03,
        "{line}"
    );
    assert!(
        limit >= 1.0 && limit == limit.round(),
        "a whole number of seconds: {line}"
    );
    assert!(
        product <= limit + 0.005 && (limit == 1.0 || product > limit - 1.0 - 0.005),
        "{product} s rounded up is not {limit} s: {line}"
    );
    assert!(
        said.contains("every submission got its folder's verdict"),
        "{said}"
    );

    // The limit is the one the package states, in every place.
    let timelimit = std::fs::read_to_string(package.join(".timelimit")).unwrap();
    assert_eq!(number(&timelimit), limit);
    let yaml = std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    assert!(
        yaml.contains(&format!("# Time limit: {limit} s of CPU per test file")),
        "{yaml}"
    );
    assert!(yaml.contains(&format!("{slowest:.2} s of CPU")), "{yaml}");
    let report = std::fs::read_to_string(package.join("data/README.md")).unwrap();
    let margin = limit * f64::from(TIME_SAFETY_MARGIN);
    assert!(
        report.contains(&format!(
            "{limit} s of CPU per test file, calibrated by running the submissions"
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "needs more than {TIME_SAFETY_MARGIN} × {limit} = {margin} s on a file"
        )),
        "{report}"
    );

    // Every submission, run at its folder's limit, got its folder's verdict
    // first on the file its model predicts; the slow one ran at the margin.
    let runs = real_runs(&report);
    assert_eq!(runs.len(), SUBMISSIONS.len());
    let mut slowest_tle = None;
    for (run, program) in runs.iter().zip(SUBMISSIONS.iter()) {
        assert_eq!(run.program, program.path());
        match program.role {
            Role::Accepted => {
                assert_eq!(run.expected, "AC");
                assert!(run.result.starts_with("AC on all "), "{}", run.result);
                assert_eq!(run.first_failing_file, "none");
            }
            Role::WrongAnswer => {
                assert_eq!(run.expected, "WA");
                assert_eq!(run.limit_seconds, limit, "{}", run.program);
                assert!(
                    run.result.starts_with("WA") || run.result.starts_with("PE"),
                    "{}: {}",
                    run.program,
                    run.result
                );
                assert_eq!(run.first_failing_file, run.model_file, "{}", run.program);
            }
            Role::TimeLimitExceeded => {
                assert_eq!(run.expected, "TLE");
                assert_eq!(run.limit_seconds, margin, "{}", run.program);
                assert!(
                    run.result.starts_with("TLE: stopped after "),
                    "{}",
                    run.result
                );
                assert_eq!(run.first_failing_file, run.model_file, "{}", run.program);
                slowest_tle = Some(number(between(&run.result, "stopped after ", " s of CPU")));
            }
            Role::InputValidator | Role::OutputValidator => unreachable!("not a submission"),
        }
    }
    for run in &runs {
        eprintln!(
            "{}: {} at {} s; first failing file {} (model: {})",
            run.program, run.result, run.limit_seconds, run.first_failing_file, run.model_file
        );
    }
    let tle = slowest_tle.expect("a time_limit_exceeded submission");
    eprintln!(
        "calibration measured here ({seconds:.0} s of wall clock for the whole calibration): \
         slowest accepted run {slowest:.2} s of CPU, {TIME_MULTIPLIER} × that = {product:.2} s, \
         limit {limit} s; the slow submission stopped after {tle:.2} s of CPU at its limit of \
         {TIME_SAFETY_MARGIN} × {limit} = {margin} s"
    );
}
