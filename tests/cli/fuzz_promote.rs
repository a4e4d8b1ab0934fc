//! `just fuzz-promote TARGET FILE NAME` (`fuzz/promote.sh`), run as a
//! person runs it.
//!
//! - In every `cargo test`, on stable: promoting stores the input where the
//!   replay finds it and prints the commit line; bad arguments are refused
//!   and nothing is overwritten.
//! - Ignored, run by `.ci/run` (it rebuilds the crate and a fuzz target, a
//!   few minutes): a build broken on purpose (built with
//!   `ROTATION_GAME_PLANTED_BUG` set, the `parse` check expects columns
//!   counted from 0) fails on judge input with an error; promoting such an
//!   input minimizes it (where nightly and cargo-fuzz are installed) and
//!   stores it, and the stable replay in `cargo test` of the broken build
//!   then fails naming the stored file, while this build's replay of it
//!   passes. Cargo rebuilds the crate when the variable changes, so the
//!   broken build never outlives the test.

use std::path::Path;
use std::process::{Command, Output};

use rotation_game::fuzzing::Target;
use rotation_game::fuzzing::replay::replay_dir;

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `fuzz/promote.sh` with `arguments`, the regressions folder
/// `regressions` and the extra environment `env`.
fn promote(arguments: &[&str], regressions: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(repository().join("fuzz/promote.sh"))
        .args(arguments)
        .env("FUZZ_REGRESSIONS", regressions);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("bash runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn validate() -> &'static Target {
    Target::find("validate").expect("a validate target")
}

#[test]
fn promoting_stores_the_input_for_the_replay_and_prints_the_commit_line() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("crash-1234");
    std::fs::write(&input, "0\n").unwrap();
    let regressions = scratch.path().join("regressions");
    let output = promote(
        &["validate", input.to_str().unwrap(), "no-cases"],
        &regressions,
        &[("FUZZ_MINIMIZE", "no")],
    );
    let said = text(&output);
    assert!(output.status.success(), "{said}");
    let stored = regressions.join("validate/no-cases");
    assert_eq!(std::fs::read(&stored).unwrap(), b"0\n");
    assert!(
        said.contains(&format!("promote: stored {}", stored.display())),
        "{said}"
    );
    assert_eq!(
        said.lines().last(),
        Some(
            "Fuzz regression validate/no-cases: passes on this build (2 bytes, not minimized: FUZZ_MINIMIZE=no)"
        ),
        "{said}"
    );
    let (passed, failures) = replay_dir(validate(), &regressions.join("validate")).unwrap();
    assert_eq!((passed, failures), (1, vec![]));

    let again = promote(
        &["validate", input.to_str().unwrap(), "no-cases"],
        &regressions,
        &[("FUZZ_MINIMIZE", "no")],
    );
    assert!(again.status.success(), "{}", text(&again));
    assert!(text(&again).contains("already holds this input"));
}

#[test]
fn bad_arguments_are_refused_and_nothing_is_overwritten() {
    let scratch = tempfile::tempdir().unwrap();
    let input = scratch.path().join("input");
    std::fs::write(&input, "1 2 3").unwrap();
    let input = input.to_str().unwrap();
    let regressions = scratch.path().join("regressions");
    std::fs::create_dir_all(regressions.join("parse")).unwrap();
    std::fs::write(regressions.join("parse/taken"), "other").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["parse", input], "usage: fuzz/promote.sh TARGET FILE NAME"),
        (
            &["parser", input, "x"],
            "no target 'parser'; the targets are: board board_deep check",
        ),
        (&["parse", "/no/such/file", "x"], "no file /no/such/file"),
        (&["parse", input, "../escape"], "NAME '../escape' must be"),
        (&["parse", input, "taken"], "already exists and differs"),
    ];
    for (arguments, message) in cases {
        let output = promote(arguments, &regressions, &[("FUZZ_MINIMIZE", "no")]);
        assert!(!output.status.success(), "{arguments:?}");
        assert!(
            text(&output).contains(message),
            "{arguments:?}: {}",
            text(&output)
        );
    }
    assert_eq!(
        std::fs::read(regressions.join("parse/taken")).unwrap(),
        b"other"
    );
    assert_eq!(std::fs::read_dir(&regressions).unwrap().count(), 1);
}

/// The environment variable that, set at build time, breaks the `parse`
/// check on purpose (it then expects columns counted from 0).
const PLANTED_BUG: &str = "ROTATION_GAME_PLANTED_BUG";

#[test]
#[ignore = "rebuilds the crate and a fuzz target with a planted bug (minutes); .ci/run runs it"]
fn a_promoted_crash_fails_the_replay_of_the_broken_build_only() {
    let scratch = tempfile::tempdir().unwrap();
    let regressions = scratch.path().join("regressions");
    // Judge input with errors: the broken build's check fails on it.
    let input = repository().join("fuzz/seeds/parse/odd-tokens");
    let input_size = std::fs::metadata(&input).unwrap().len();
    let output = promote(
        &["parse", input.to_str().unwrap(), "planted-bug"],
        &regressions,
        &[(PLANTED_BUG, "1")],
    );
    let said = text(&output);
    println!("{said}");
    assert!(output.status.success(), "{said}");
    let stored = std::fs::read(regressions.join("parse/planted-bug")).unwrap();
    let commit_line = said.lines().last().unwrap();
    assert!(
        commit_line.starts_with(
            "Fuzz regression parse/planted-bug: assertion `left == right` failed: column of case 1, line 1, column "
        ),
        "{commit_line}"
    );
    if said.contains("minimized from") {
        assert!(
            !stored.is_empty() && (stored.len() as u64) < input_size,
            "{said}"
        );
        assert!(
            commit_line.ends_with(&format!(
                "minimized from {input_size} bytes by cargo fuzz tmin)"
            )),
            "{commit_line}"
        );
    } else {
        println!("(no nightly or cargo-fuzz here: promoted without minimizing)");
        assert!(
            commit_line.ends_with("not minimized: no nightly toolchain for cargo fuzz tmin)")
                || commit_line.contains("not minimized: cargo-fuzz is not installed")
        );
    }
    assert!(said.contains("the stable replay fails"), "{said}");

    // The replay in `cargo test`, on the broken build, names the file.
    let replay = Command::new(env!("CARGO"))
        .current_dir(repository())
        .args([
            "test",
            "--test",
            "library",
            "--",
            "fuzz_replay::every_target_passes_its_promoted_crashes",
        ])
        .env(PLANTED_BUG, "1")
        .env("FUZZ_REGRESSIONS", &regressions)
        .output()
        .expect("cargo runs");
    let replayed = text(&replay);
    assert!(
        !replay.status.success(),
        "the broken build's replay passed:\n{replayed}"
    );
    let named = format!(
        "target parse fails on {}",
        regressions.join("parse/planted-bug").display()
    );
    assert!(replayed.contains(&named), "{named} not in:\n{replayed}");
    let replay_line = replayed.lines().find(|line| line.contains(&named)).unwrap();
    println!("{replay_line}");
    if said.contains("minimized from") {
        // docs/fuzzing.md shows this output.
        let block = crate::readme::block_starting("docs/fuzzing.md", "promote: minimizing");
        let expected: Vec<&str> = block.iter().map(String::as_str).collect();
        let printed = format!("{said}\n{replay_line}");
        let printed: Vec<&str> = printed.lines().collect();
        assert!(
            crate::readme::lines_match(&expected, &printed),
            "docs/fuzzing.md's output is not what was printed:\n{}",
            printed.join("\n")
        );
    }

    // This build is not broken: its replay of the same file passes.
    let parse = Target::find("parse").unwrap();
    let (passed, failures) = replay_dir(parse, &regressions.join("parse")).unwrap();
    assert_eq!((passed, failures), (1, vec![]));
}
