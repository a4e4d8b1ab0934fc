//! Replays the seed corpora on stable: every file of `fuzz/seeds/<target>/`
//! goes through the target's check in `rotation_game::fuzzing`, exactly as
//! libFuzzer runs it. (A crash a fuzzer finds is minimized and becomes a
//! named test in `tests/fuzz_regressions.rs`; none has been found yet.)

use std::fs;
use std::path::{Path, PathBuf};

use rotation_game::fuzzing::{TARGETS, Target};

/// The files of `dir`, sorted; none when it does not exist.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a readable folder").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs `target`'s check on every file of `fuzz/seeds/<target>/`; returns
/// how many.
fn replay_seeds(target: &Target) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target.name);
    let files = files_in(&dir);
    for file in &files {
        let data = fs::read(file).expect("a readable corpus file");
        let outcome = std::panic::catch_unwind(|| (target.check)(&data));
        assert!(
            outcome.is_ok(),
            "target {} fails on {} ({} bytes: {:?})",
            target.name,
            file.display(),
            data.len(),
            data.escape_ascii().to_string()
        );
    }
    files.len()
}

#[test]
fn every_target_passes_its_seeds() {
    for target in TARGETS {
        let count = replay_seeds(target);
        assert!(count > 0, "no seeds for target {}", target.name);
    }
}

#[test]
fn the_fuzz_crate_has_one_target_for_each_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    let mut in_crate: Vec<String> = files_in(&dir)
        .iter()
        .map(|path| {
            path.file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    in_crate.sort();
    let in_library: Vec<&str> = TARGETS.iter().map(|target| target.name).collect();
    assert_eq!(in_crate, in_library);
}

/// `fuzz/make-seeds.sh` spells out the check target's input; its right
/// answer must be the one the target expects.
#[test]
fn the_check_seeds_answer_the_targets_input() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/check/right");
    let right = fs::read(path).expect("the right output is a seed");
    assert_eq!(right, rotation_game::fuzzing::check_expected_output());
}
