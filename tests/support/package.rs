//! The problem package's fixtures: the package of seed 1, built once per
//! test binary, and its submissions, compiled once as problemtools compiles
//! them.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use rayon::prelude::*;
use rotation_game::package::{self, Language, Package, PackageOptions, SUBMISSIONS, SourceProgram};

use super::fixtures::fixtures;

/// The seed of the package the tests check (the one CI verifies).
pub const SEED: u64 = 1;

/// The package of [`SEED`], with the default options.
pub fn package() -> &'static Package {
    static PACKAGE: OnceLock<Package> = OnceLock::new();
    PACKAGE.get_or_init(|| {
        package::build(&PackageOptions::with_seed(SEED), &|_| {}).expect("the package builds")
    })
}

/// Every submission of the package, compiled once per test binary (in
/// parallel) as problemtools compiles it, warnings as errors.
pub fn compiled_submissions() -> &'static [(&'static SourceProgram, PathBuf)] {
    static COMPILED: OnceLock<Vec<(&'static SourceProgram, PathBuf)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let dir = fixtures("submissions");
        SUBMISSIONS
            .par_iter()
            .map(|program| {
                let source = std::str::from_utf8(file(package(), &program.path())).unwrap();
                (program, compile(program, source, &dir, "", &[]))
            })
            .collect()
    })
}

/// Compiles `source` (the program's, or a variant of it) into
/// `dir/<file stem><suffix>` with the command problemtools uses for its
/// language ([`Language::build_command`]), plus the warnings as errors and
/// `extra` flags; returns the executable.
///
/// # Panics
///
/// When the compiler fails, with its messages.
pub fn compile(
    program: &SourceProgram,
    source: &str,
    dir: &Path,
    suffix: &str,
    extra: &[&str],
) -> PathBuf {
    let stem = program.file_name.rsplit_once('.').expect("an extension").0;
    let source_path = dir.join(format!("{stem}{suffix}.{}", program.language.extension()));
    std::fs::write(&source_path, source).expect("the scratch folder is writable");
    let binary = dir.join(format!("{stem}{suffix}"));
    let command = program.language.build_command(&source_path, &binary);
    let warnings: &[&str] = match program.language {
        Language::Cpp => &["-Wall", "-Wextra", "-Werror"],
        Language::Rust => &["-D", "warnings"],
    };
    build(
        Command::new(&command[0])
            .args(&command[1..])
            .args(warnings)
            .args(extra),
        program.file_name,
    );
    binary
}

/// Runs the compiler `command` on `what`.
///
/// # Panics
///
/// When it fails, with its messages.
pub fn build(command: &mut Command, what: &str) {
    let output = command.output().expect("the compiler runs");
    assert!(
        output.status.success(),
        "{what} does not compile:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The contents of the package file at `path`.
pub fn file<'a>(package: &'a Package, path: &str) -> &'a [u8] {
    &package
        .files
        .iter()
        .find(|file| file.path == path)
        .unwrap_or_else(|| panic!("the package has no {path}"))
        .contents
}
