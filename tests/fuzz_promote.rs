//! `just fuzz-promote TARGET FILE NAME` (`fuzz/promote.sh`), run as a
//! person runs it.
//!
//! - In every `cargo test`, on stable: promoting stores the input where the
//!   replay finds it and prints the commit line; bad arguments are refused
//!   and nothing is overwritten.
//! - Ignored, run by `.ci/run` (it builds the crate twice more, a few
//!   minutes): a build broken on purpose (`--cfg rotation_game_planted_bug`
//!   flips one property of the `validate` check) fails on a valid test
//!   file; promoting that file minimizes it (where nightly and cargo-fuzz
//!   are installed) and stores it, and the stable replay in `cargo test` of
//!   the broken build then fails naming the stored file, while this build's
//!   replay of it passes.

use std::path::{Path, PathBuf};
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

/// The cfg that breaks the `validate` check on purpose.
const PLANTED_BUG: &str = "--cfg rotation_game_planted_bug";

#[test]
#[ignore = "builds the crate twice more with a planted bug (minutes); .ci/run runs it"]
fn a_promoted_crash_fails_the_replay_of_the_broken_build_only() {
    let scratch = tempfile::tempdir().unwrap();
    let regressions = scratch.path().join("regressions");
    // The sample is a valid test file: the broken build's check fails on it.
    let input = repository().join("examples/sample.txt");
    let broken_target: PathBuf = repository().join("target/planted-bug");
    let broken_fuzz_target = repository().join("target/planted-bug-fuzz");
    let broken_env = [
        ("RUSTFLAGS", PLANTED_BUG),
        ("CARGO_TARGET_DIR", broken_target.to_str().unwrap()),
        ("FUZZ_TARGET_DIR", broken_fuzz_target.to_str().unwrap()),
    ];
    let output = promote(
        &["validate", input.to_str().unwrap(), "planted-bug"],
        &regressions,
        &broken_env,
    );
    let said = text(&output);
    println!("{said}");
    assert!(output.status.success(), "{said}");
    let stored = regressions.join("validate/planted-bug");
    let commit_line = said.lines().last().unwrap();
    if said.contains("minimized from") {
        // The smallest valid test file: no cases.
        assert_eq!(std::fs::read(&stored).unwrap(), b"0\n", "{said}");
        assert_eq!(
            commit_line,
            format!(
                "Fuzz regression validate/planted-bug: 0 cases refused with a limit of 0 (2 bytes, minimized from {} bytes by cargo fuzz tmin)",
                std::fs::metadata(&input).unwrap().len()
            )
        );
    } else {
        println!("(no nightly or cargo-fuzz here: promoted without minimizing)");
        assert!(commit_line.starts_with(
            "Fuzz regression validate/planted-bug: 2 cases refused with a limit of 2 ("
        ));
    }
    assert!(said.contains("the stable replay fails"), "{said}");

    // The replay in `cargo test`, on the broken build, names the file.
    let replay = Command::new(env!("CARGO"))
        .current_dir(repository())
        .args(["test", "--test", "fuzz_replay"])
        .args(["--", "every_target_passes_its_promoted_crashes"])
        .envs(broken_env)
        .env("FUZZ_REGRESSIONS", &regressions)
        .output()
        .expect("cargo runs");
    let replayed = text(&replay);
    assert!(
        !replay.status.success(),
        "the broken build's replay passed:\n{replayed}"
    );
    let named = format!("target validate fails on {}", stored.display());
    assert!(replayed.contains(&named), "{named} not in:\n{replayed}");

    // This build is not broken: its replay of the same file passes.
    let (passed, failures) = replay_dir(validate(), &regressions.join("validate")).unwrap();
    assert_eq!((passed, failures), (1, vec![]));
}
