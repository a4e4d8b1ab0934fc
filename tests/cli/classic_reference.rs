//! Byte-for-byte agreement with the two classic C++ solutions the project
//! started from (`../shared/seeds/`), compiled here with g++.
//!
//! The seeds are reference material beside the repository, not part of it
//! (and not ours to copy into it): the test extracts each program's source
//! from its seed file at run time. So it is ignored by default, and run on
//! purpose where the seeds are: `.ci/run` runs it with `--ignored` when
//! `../shared/seeds` exists, and says that it skipped it otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

use rotation_game::OptimalLength;
use rotation_game::generator::{Generator, Mode};
use rotation_game::parser::format_input;

use crate::support::run_binary;

/// Compiles the C++ program in `seed` (from its first `#include` on) and
/// returns the executable's path.
fn compile_seed(seed: &Path, out_dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(seed).expect("the seed is readable");
    let start = text.find("#include").expect("the seed holds a C++ program");
    let stem = seed.file_stem().unwrap().to_string_lossy().into_owned();
    let source = out_dir.join(format!("{stem}.cpp"));
    let binary = out_dir.join(stem);
    std::fs::write(&source, &text[start..]).unwrap();
    let status = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("g++ runs");
    assert!(status.success(), "{} compiles", seed.display());
    binary
}

/// The classic programs, compiled into `out_dir`.
fn classic_programs(out_dir: &Path) -> Vec<PathBuf> {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    let has_gxx = Command::new("g++").arg("--version").output().is_ok();
    let mut seed_files: Vec<PathBuf> = std::fs::read_dir(&seeds)
        .map(|entries| entries.map(|entry| entry.unwrap().path()).collect())
        .unwrap_or_default();
    seed_files
        .retain(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("#include")));
    assert!(
        seed_files.len() >= 2 && has_gxx,
        "this test needs the two classic solutions in {} and g++ (found {} programs, g++ {})",
        seeds.display(),
        seed_files.len(),
        if has_gxx { "present" } else { "missing" }
    );
    seed_files.sort();
    seed_files
        .iter()
        .map(|seed| compile_seed(seed, out_dir))
        .collect()
}

#[test]
#[ignore = "needs ../shared/seeds (the classic solutions, beside the repository) and g++; .ci/run runs it when they are there"]
fn output_is_byte_identical_to_both_classic_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let programs = classic_programs(dir.path());
    // Every optimal length the classic programs finish quickly (they take
    // seconds per board beyond ten moves), plus uniformly random boards
    // within that range.
    let mut boards = Vec::new();
    for length in 0..=10 {
        boards.extend(
            Generator::new(1343, Mode::Length(OptimalLength::new(length).unwrap())).boards(12),
        );
    }
    boards.extend(Generator::new(1667, Mode::Scramble(9)).boards(40));
    let input = format_input(&boards);
    let input_file = dir.path().join("input.txt");
    std::fs::write(&input_file, &input).unwrap();
    let ours = run_binary(&["solve"], input.as_bytes());
    assert!(ours.status.success());
    for program in programs {
        let theirs = Command::new(&program)
            .stdin(std::fs::File::open(&input_file).unwrap())
            .output()
            .expect("the classic program runs");
        assert!(theirs.status.success());
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{} disagrees",
            program.display()
        );
    }
}
