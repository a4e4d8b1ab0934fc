//! `rotation-game judge` on small folders written here, no package built:
//! where the time limit comes from, the layouts, the exit statuses and the
//! command that judges again. Each test takes well under a second, so the
//! mutation campaign's `cli_judging` group runs these rather than
//! `judge.rs`, whose tests build and compile the package of seed 1 (20 to
//! 30 s each).

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::isolation::isolation;
use crate::support::programs::script;
use crate::support::skip::require;
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

/// The names of the files a JSON report lists, in its order.
fn judged_files(report: &Value) -> Vec<&str> {
    report["files"]
        .as_array()
        .expect("a list of files")
        .iter()
        .map(|file| file["file"].as_str().expect("a file's name"))
        .collect()
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
    assert_eq!(judged_files(&report), ["01", "02"]);
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
    assert_eq!(judged_files(&report), ["sample/1", "secret/01"]);

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

/// `judge` of the project's solver on a plain folder with `args`, `PATH`
/// set to `path` when given (an empty folder: no bubblewrap).
fn judge_with(dir: &Path, path: Option<&Path>, args: &[&str]) -> Output {
    let mut command = crate::support::binary();
    command
        .args(["judge", "--program", &solver(), dir.to_str().unwrap()])
        .args(args)
        .stdin(std::process::Stdio::null());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    command.output().expect("the binary runs")
}

const CANNOT_HIDE: &str =
    "warning: without a sandbox the test data cannot be hidden: the program could read the answers";
const OFF_READS: &str = "warning: --sandbox off: the program could read the answers";

#[test]
fn without_a_sandbox_the_answers_cannot_be_hidden_and_the_judge_says_so() {
    let root = tempfile::tempdir().unwrap();
    let dir = plain_folder(root.path());
    let no_bubblewrap = root.path().join("empty-path");
    std::fs::create_dir(&no_bubblewrap).unwrap();

    // auto without bubblewrap: the runs go on, the answers readable, said once.
    let auto = judge_with(&dir, Some(&no_bubblewrap), &[]);
    assert_eq!(auto.status.code(), Some(0), "{auto:?}");
    assert_eq!(stderr(&auto).matches(CANNOT_HIDE).count(), 1, "{auto:?}");
    assert!(!stderr(&auto).contains(OFF_READS), "{auto:?}");

    // on, or a path to --hide, needs the sandbox: refused.
    let secret = root.path().join("secret");
    std::fs::write(&secret, "the answers\n").unwrap();
    let hide = ["--hide", secret.to_str().unwrap()];
    for args in [&["--sandbox", "on"][..], &hide[..]] {
        let refused = judge_with(&dir, Some(&no_bubblewrap), args);
        assert_eq!(refused.status.code(), Some(71), "{args:?}: {refused:?}");
        assert!(
            stderr(&refused).contains("and --sandbox on and --hide need it"),
            "{args:?}: {refused:?}"
        );
        assert!(!stderr(&refused).contains(CANNOT_HIDE), "{refused:?}");
    }

    // off: said whether or not there is a sandbox.
    for path in [Some(no_bubblewrap.as_path()), None] {
        let off = judge_with(&dir, path, &["--sandbox", "off"]);
        assert_eq!(off.status.code(), Some(0), "{off:?}");
        assert_eq!(stderr(&off).matches(OFF_READS).count(), 1, "{off:?}");
        assert!(!stderr(&off).contains(CANNOT_HIDE), "{off:?}");
    }
}

#[test]
fn in_the_sandbox_what_hide_names_is_hidden_without_a_word() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let root = tempfile::tempdir().unwrap();
    let dir = plain_folder(root.path());
    let shown = root.path().join("shown");
    std::fs::create_dir(&shown).unwrap();
    let secret = shown.join("secret");
    std::fs::write(&secret, "the answers\n").unwrap();
    // The program fails (status 3) if it can read the secret; a command
    // run by the shell is shown the paths it names absolutely.
    let program = format!(
        "sh -c '[ -s {} ] && exit 3; exec {BINARY} solve'",
        secret.display()
    );
    let output = crate::support::binary()
        .args(["judge", "--program", &program, dir.to_str().unwrap()])
        .args(["--sandbox", "on", "--sandbox-bind", BINARY])
        .args(["--sandbox-bind", shown.to_str().unwrap()])
        .args(["--hide", secret.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(!stderr(&output).contains(CANNOT_HIDE), "{output:?}");
    assert!(!stderr(&output).contains(OFF_READS), "{output:?}");
    // Shown but not hidden, the secret is read: the check above can fail.
    let unhidden = crate::support::binary()
        .args(["judge", "--program", &program, dir.to_str().unwrap()])
        .args(["--sandbox", "on", "--sandbox-bind", BINARY])
        .args(["--sandbox-bind", shown.to_str().unwrap()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(unhidden.status.code(), Some(1), "{unhidden:?}");
}

#[test]
fn the_memory_limits_of_the_runs_at_once_must_fit_in_the_memory_available() {
    let Some(available) = rotation_game::runner::run::available_memory() else {
        eprintln!("skipped: no MemAvailable in /proc/meminfo here");
        return;
    };
    let root = tempfile::tempdir().unwrap();
    let dir = plain_folder(root.path());
    // Three fifths of the memory available: one run fits, two do not,
    // with a margin for what other tests take or give back meanwhile.
    let limit = (available >> 20) * 3 / 5;
    let limit = limit.to_string();
    let two = judge_with(&dir, None, &["--memory-limit", &limit, "--jobs", "2"]);
    assert_eq!(two.status.code(), Some(2), "{two:?}");
    assert!(
        stderr(&two).contains(": lower --memory-limit or --jobs"),
        "{two:?}"
    );
    let one = judge_with(&dir, None, &["--memory-limit", &limit, "--jobs", "1"]);
    assert_eq!(one.status.code(), Some(0), "{one:?}");
}
