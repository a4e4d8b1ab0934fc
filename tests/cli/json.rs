//! The output contract of the commands that report (`docs/json.md`):
//! `--json` alone or `--json -` puts the JSON report, and nothing else, on
//! standard output; `--json FILE` writes it there beside the text report;
//! `--quiet` writes no text. Every report starts with its version, and the
//! fields each command writes are the ones docs/json.md lists.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use crate::support::{BINARY, run, stdout};

/// Each reporting command, with flags that keep it short: the heading of
/// its section in docs/json.md, and its arguments.
fn reporting_commands() -> Vec<(&'static str, Vec<String>)> {
    let solver = format!("{BINARY} solve");
    let mut commands = vec![
        (
            "verify --json",
            [
                "verify",
                "--seed",
                "1",
                "--boards",
                "14",
                "--solvers",
                "pdb,ida",
            ]
            .map(String::from)
            .to_vec(),
        ),
        ("census --json", vec!["census".to_owned()]),
    ];
    if cfg!(unix) {
        commands.push((
            "stress --json",
            [
                "stress",
                "--program",
                &solver,
                "--seed",
                "1",
                "--boards",
                "3",
                "--sandbox-bind",
                BINARY,
            ]
            .map(String::from)
            .to_vec(),
        ));
    }
    commands
}

/// The fields docs/json.md lists under `## \`HEADING\``: every one, and
/// those not marked optional.
fn documented(heading: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/json.md"))
        .unwrap();
    let start = page
        .find(&format!("## `{heading}`\n"))
        .or_else(|| page.find(&format!("## {heading}\n")))
        .unwrap_or_else(|| panic!("docs/json.md has no section {heading}"));
    let section = &page[start..];
    let section = &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3)];
    let (mut all, mut required) = (BTreeSet::new(), BTreeSet::new());
    for row in section.lines().filter(|line| line.starts_with("| `")) {
        let mut cells = row.split('|').skip(1);
        let field = cells.next().unwrap().trim().trim_matches('`').to_owned();
        let what = cells.next().unwrap();
        if !what.trim_start().starts_with("*optional*") {
            required.insert(field.clone());
        }
        all.insert(field);
    }
    (all, required)
}

/// Checks that `report`'s fields are those docs/json.md lists under
/// `heading`: none it does not list, every one it does not mark optional.
pub fn assert_documented(heading: &str, report: &serde_json::Value) {
    let written: BTreeSet<String> = report.as_object().unwrap().keys().cloned().collect();
    let (all, required) = documented(heading);
    assert!(
        written.is_subset(&all),
        "{heading} writes fields docs/json.md does not list: {:?}",
        written.difference(&all).collect::<Vec<_>>()
    );
    assert!(
        required.is_subset(&written),
        "{heading} does not write fields docs/json.md lists: {:?}",
        required.difference(&written).collect::<Vec<_>>()
    );
}

fn parsed_alone(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "standard output is not one JSON value ({error}):\n{}",
            stdout(output)
        )
    })
}

#[test]
fn json_on_standard_output_is_the_report_alone_with_its_version_and_documented_fields() {
    for (heading, args) in reporting_commands() {
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.push("--json");
        let output = run(&args);
        assert!(output.status.success(), "{heading}: {output:?}");
        let report = parsed_alone(&output);
        let object = report.as_object().unwrap();
        assert!(
            stdout(&output).starts_with("{\n  \"version\": 1,"),
            "{heading}: the report does not start with its version"
        );
        assert_eq!(report["version"], 1, "{heading}");
        assert!(object.contains_key("version"));
        assert_documented(heading, &report);
        // `--json -` is the same.
        args.push("-");
        let dash = run(&args);
        let again = parsed_alone(&dash);
        assert_eq!(again["version"], 1, "{heading} --json -");
    }
}

#[test]
fn json_to_a_file_keeps_the_text_and_quiet_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (heading, args) in reporting_commands() {
        let path = dir.path().join("report.json");
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.extend(["--json", path.to_str().unwrap()]);
        let output = run(&args);
        assert!(output.status.success(), "{heading}: {output:?}");
        assert!(
            serde_json::from_slice::<serde_json::Value>(&output.stdout).is_err(),
            "{heading}: the text report is on standard output"
        );
        let written: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(written["version"], 1, "{heading}");
        std::fs::remove_file(&path).unwrap();
        args.push("--quiet");
        let quiet = run(&args);
        assert!(quiet.status.success(), "{heading}: {quiet:?}");
        assert!(quiet.stdout.is_empty(), "{heading}: {quiet:?}");
        assert!(path.exists(), "{heading}: no file with --quiet");
    }
}

#[test]
fn solve_json_is_format_json() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.txt");
    let input = input.to_str().unwrap();
    let json = run(&["solve", "--json", input]);
    let format = run(&["solve", "--format", "json", input]);
    assert!(json.status.success(), "{json:?}");
    let strip = |output: &Output| -> Vec<serde_json::Value> {
        stdout(output)
            .lines()
            .map(|line| {
                let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
                value.as_object_mut().unwrap().remove("microseconds");
                value
            })
            .collect()
    };
    assert_eq!(strip(&json), strip(&format));
    assert_eq!(strip(&json).len(), 2);
    let both = run(&["solve", "--json", "--format", "judge", input]);
    assert_eq!(both.status.code(), Some(2), "{both:?}");
}

#[test]
fn an_error_in_json_mode_is_a_json_object_on_standard_output() {
    let documented = documented("Errors").0;
    let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-folder");
    let mut cases = vec![(
        vec!["judge", "--program", "true", "--json"],
        66,
        "holds no test files",
    )];
    let folder = tempfile::tempdir().unwrap();
    cases[0].0.insert(3, folder.path().to_str().unwrap());
    if cfg!(unix) {
        cases.push((
            vec![
                "stress",
                "--program",
                missing.to_str().unwrap(),
                "--seed",
                "1",
                "--json",
                "-",
            ],
            74,
            "cannot run",
        ));
    }
    for (args, status, says) in cases {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(status), "{output:?}");
        assert!(
            stdout(&output).starts_with("{\"version\":1,\"error\":"),
            "{output:?}"
        );
        let error = parsed_alone(&output);
        assert_eq!(error["status"], status);
        assert!(error["error"].as_str().unwrap().contains(says), "{error}");
        let fields: BTreeSet<String> = error.as_object().unwrap().keys().cloned().collect();
        assert_eq!(fields, documented);
        // Without --json, standard output stays empty.
        let text_args: Vec<&str> = args
            .iter()
            .copied()
            .filter(|arg| !["--json", "-"].contains(arg))
            .collect();
        assert!(run(&text_args).stdout.is_empty());
    }
}

/// `validate` and `check` read files after their flags, so their report's
/// file takes an equals sign: `--json FILE` validates FILE.
#[test]
fn validate_and_check_say_their_verdict_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.txt");
    let sample = sample.to_str().unwrap();
    let before = std::fs::read(sample).unwrap();

    let valid = run(&["validate", "--json", sample]);
    assert_eq!(valid.status.code(), Some(0), "{valid:?}");
    let report = parsed_alone(&valid);
    assert_documented("validate --json", &report);
    assert_eq!(report["valid"], true);
    assert_eq!(report["cases"], 2);
    assert_eq!(report["input"], sample);
    assert!(report["error"].is_null());
    assert_eq!(std::fs::read(sample).unwrap(), before, "the input changed");
    assert_eq!(crate::support::stderr(&valid), "ok 2 cases\n");

    let bad = crate::support::write(
        dir.path(),
        "bad.in",
        "1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n1 1 x\n0\n",
    );
    let invalid = run(&["validate", "--json", &bad]);
    assert_eq!(invalid.status.code(), Some(3), "{invalid:?}");
    let report = parsed_alone(&invalid);
    assert_documented("validate --json", &report);
    assert_eq!(report["valid"], false);
    assert!(report["cases"].is_null());
    assert_eq!(report["error"]["line"], 2);
    assert_eq!(report["error"]["column"], 5);
    let message = report["error"]["message"].as_str().unwrap();
    assert_eq!(
        crate::support::stderr(&invalid),
        format!("{bad}:2:5: {message}\n")
    );

    // --json=FILE, and --quiet: nothing on either stream.
    let written = quietly_to_a_file(dir.path(), &["validate", "--quiet", &bad], 3);
    assert_eq!(written, report);

    // check: the solver's answers are accepted, a wrong one is not.
    let answers = run(&["solve", sample]);
    assert!(answers.status.success(), "{answers:?}");
    let right = crate::support::write(dir.path(), "right.out", &answers.stdout);
    let accepted = run(&["check", "--json", sample, &right]);
    assert_eq!(accepted.status.code(), Some(0), "{accepted:?}");
    let report = parsed_alone(&accepted);
    assert_documented("check --json", &report);
    assert_eq!(report["verdict"], "AC");
    assert!(report["case"].is_null());
    assert_eq!(
        crate::support::stderr(&accepted),
        format!("{}\n", report["message"].as_str().unwrap())
    );

    let wrong_text = stdout(&answers).replacen('2', "3", 1);
    let wrong = crate::support::write(dir.path(), "wrong.out", wrong_text);
    let rejected = run(&["check", "--json", sample, &wrong]);
    assert_eq!(rejected.status.code(), Some(1), "{rejected:?}");
    let report = parsed_alone(&rejected);
    assert_documented("check --json", &report);
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["case"], 1);

    let written = quietly_to_a_file(dir.path(), &["check", "-q", sample, &wrong], 1);
    assert_eq!(written, report);
}

/// Runs `args` (a command, then its flags and files) with `--json=FILE`
/// after the command, in `dir`; checks that it exits with `status` and
/// says nothing on either stream, and gives the JSON written to FILE.
fn quietly_to_a_file(dir: &Path, args: &[&str], status: i32) -> serde_json::Value {
    let path = dir.join(format!("{}.json", args[0]));
    let file_arg = format!("--json={}", path.display());
    let mut args = args.to_vec();
    args.insert(1, &file_arg);
    let quiet = run(&args);
    assert_eq!(quiet.status.code(), Some(status), "{quiet:?}");
    assert!(
        quiet.stdout.is_empty() && quiet.stderr.is_empty(),
        "{quiet:?}"
    );
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}
