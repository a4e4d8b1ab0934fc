//! Replays, on stable, every stored input of every fuzz target through the
//! target's check in `rotation_game::fuzzing`, exactly as libFuzzer runs it:
//!
//! - the seed corpora, `fuzz/seeds/<target>/`;
//! - the minimized crashes, `fuzz/regressions/<target>/` (or the folder
//!   that `FUZZ_REGRESSIONS` names), which `just fuzz-promote` stores: a
//!   file there is a regression test with no code written by hand.
//!
//! And checks that the targets' other homes stay in step with
//! `fuzzing::TARGETS`: the fuzz crate's files and `[[bin]]`s, the seed and
//! regression folders, the dictionary list of the fuzz scripts, and the
//! modules the campaign report measures.

use std::fs;
use std::path::{Path, PathBuf};

use rotation_game::fuzzing::replay::{replay_dir, stored_inputs};
use rotation_game::fuzzing::{TARGETS, Target};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where the promoted crashes are: `FUZZ_REGRESSIONS` when set (the test
/// of `just fuzz-promote` points it at a scratch folder), else
/// `fuzz/regressions`.
fn regressions() -> PathBuf {
    std::env::var_os("FUZZ_REGRESSIONS")
        .map_or_else(|| repository().join("fuzz/regressions"), PathBuf::from)
}

/// Replays `dir` through `target`; fails naming every file that fails.
fn replay(target: &Target, dir: &Path) -> usize {
    let (passed, failures) = replay_dir(target, dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()));
    let failures: Vec<String> = failures.iter().map(ToString::to_string).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    passed
}

#[test]
fn every_target_passes_its_seeds() {
    for target in TARGETS {
        let count = replay(target, &repository().join("fuzz/seeds").join(target.name));
        assert!(count > 0, "no seeds for target {}", target.name);
    }
}

#[test]
fn every_target_passes_its_promoted_crashes() {
    for target in TARGETS {
        replay(target, &regressions().join(target.name));
    }
}

/// The names of the entries of `dir` (files without their extension), sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .map(|entry| entry.expect("a readable folder").path())
        .map(|path| {
            path.file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

fn target_names() -> Vec<&'static str> {
    TARGETS.iter().map(|target| target.name).collect()
}

#[test]
fn the_fuzz_crate_has_one_target_for_each_check() {
    assert_eq!(
        names_in(&repository().join("fuzz/fuzz_targets")),
        target_names()
    );
    let manifest = fs::read_to_string(repository().join("fuzz/Cargo.toml")).unwrap();
    let mut bins: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .map(|bin| {
            let name = bin.lines().find_map(|line| line.strip_prefix("name = "));
            name.expect("every [[bin]] has a name").trim_matches('"')
        })
        .collect();
    bins.sort_unstable();
    assert_eq!(bins, target_names(), "the [[bin]]s of fuzz/Cargo.toml");
    for target in TARGETS {
        let source =
            fs::read_to_string(repository().join(format!("fuzz/fuzz_targets/{}.rs", target.name)))
                .unwrap();
        let call = format!("rotation_game::fuzzing::{}(data)", target.name);
        assert!(
            source.contains(&call),
            "fuzz_targets/{}.rs does not call {call}",
            target.name
        );
    }
}

/// The table of targets in `rotation_game::fuzzing`'s documentation: one
/// row to each of `TARGETS`, in its order.
#[test]
fn the_fuzzing_docs_give_one_row_to_each_target() {
    let source = fs::read_to_string(repository().join("src/fuzzing.rs")).unwrap();
    let rows: Vec<&str> = source
        .lines()
        .filter_map(|line| line.strip_prefix("//! | [`"))
        .map(|row| {
            let name = row.split('`').next().unwrap_or_default();
            name.strip_suffix("()").unwrap_or(name)
        })
        .collect();
    assert_eq!(rows, target_names(), "the table of src/fuzzing.rs");
    let mut sorted = target_names();
    sorted.sort_unstable();
    assert_eq!(target_names(), sorted, "TARGETS is in alphabetical order");
}

#[test]
fn stored_inputs_are_in_folders_named_after_targets() {
    let targets = target_names();
    assert_eq!(names_in(&repository().join("fuzz/seeds")), targets);
    for folder in names_in(&regressions()) {
        assert!(
            targets.contains(&folder.as_str()),
            "{} is not a target's folder: the replay would skip it",
            regressions().join(folder).display()
        );
    }
    for target in TARGETS {
        let dir = regressions().join(target.name);
        assert!(
            stored_inputs(&dir).is_ok(),
            "{} is not readable",
            dir.display()
        );
    }
}

/// `fuzz/targets.sh` tells the shell scripts (CI, ClusterFuzzLite's build,
/// campaigns) which targets take the dictionary.
#[test]
fn the_scripts_give_the_dictionary_to_the_text_targets() {
    let script = fs::read_to_string(repository().join("fuzz/targets.sh")).unwrap();
    let line = script
        .lines()
        .find_map(|line| line.strip_prefix("NO_DICTIONARY_TARGETS="))
        .expect("fuzz/targets.sh sets NO_DICTIONARY_TARGETS");
    let mut listed: Vec<&str> = line.trim_matches('"').split_whitespace().collect();
    listed.sort_unstable();
    let binary: Vec<&str> = TARGETS
        .iter()
        .filter(|target| !target.dictionary)
        .map(|target| target.name)
        .collect();
    assert_eq!(listed, binary);
}

/// `fuzz/targets.sh` tells the scripts which targets start a process per
/// input (ClusterFuzzLite's build puts their programs beside them).
#[test]
fn the_scripts_know_which_targets_run_programs() {
    let script = fs::read_to_string(repository().join("fuzz/targets.sh")).unwrap();
    let line = script
        .lines()
        .find_map(|line| line.strip_prefix("PROCESS_TARGETS="))
        .expect("fuzz/targets.sh sets PROCESS_TARGETS");
    let mut listed: Vec<&str> = line.trim_matches('"').split_whitespace().collect();
    listed.sort_unstable();
    let running: Vec<&str> = TARGETS
        .iter()
        .filter(|target| target.runs_programs)
        .map(|target| target.name)
        .collect();
    assert_eq!(listed, running);
}

#[test]
fn the_report_measures_modules_that_exist() {
    for target in TARGETS {
        assert!(
            !target.modules.is_empty(),
            "{} names no module",
            target.name
        );
        for module in target.modules {
            assert!(
                repository().join(module).is_file(),
                "{}: no {module}",
                target.name
            );
        }
    }
}

/// `fuzz/make-seeds.sh` spells out the check target's input; its right
/// answer must be the one the target expects.
#[test]
fn the_check_seeds_answer_the_targets_input() {
    let path = repository().join("fuzz/seeds/check/right");
    let right = fs::read(path).expect("the right output is a seed");
    assert_eq!(right, rotation_game::fuzzing::check_expected_output());
}
