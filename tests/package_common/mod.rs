//! Helpers for the problem package's tests: the package of seed 1, built
//! once per test binary, and its standalone programs, compiled as
//! problemtools compiles them.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use rayon::prelude::*;
use rotation_game::package::{self, Language, Package, PackageOptions, Program, SUBMISSIONS};

/// The seed of the package the tests check (the one CI verifies).
pub const SEED: u64 = 1;

/// The package of [`SEED`], with the default options.
pub fn package() -> &'static Package {
    static PACKAGE: OnceLock<Package> = OnceLock::new();
    PACKAGE.get_or_init(|| {
        package::build(&PackageOptions::with_seed(SEED), &|_| {}).expect("the package builds")
    })
}

/// The package of [`SEED`] written to disk once per test binary, in the
/// Kattis layout: its folder (named `rotationgame`, as Kattis wants).
pub fn written_package() -> &'static Path {
    static WRITTEN: OnceLock<PathBuf> = OnceLock::new();
    WRITTEN.get_or_init(|| {
        let dir = scratch(&format!("{}-package", env!("CARGO_CRATE_NAME"))).join("rotationgame");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).expect("the scratch folder is writable");
        }
        for file in &package().files {
            let path = dir.join(&file.path);
            std::fs::create_dir_all(path.parent().expect("a folder")).unwrap();
            std::fs::write(&path, &file.contents).unwrap();
        }
        dir
    })
}

/// Every submission of the package, compiled once per test binary (in
/// parallel) as problemtools compiles it, warnings as errors.
pub fn compiled_submissions() -> &'static [(&'static Program, PathBuf)] {
    static COMPILED: OnceLock<Vec<(&'static Program, PathBuf)>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let dir = scratch(&format!("{}-submissions", env!("CARGO_CRATE_NAME")));
        SUBMISSIONS
            .par_iter()
            .map(|program| {
                let source = std::str::from_utf8(file(package(), &program.path())).unwrap();
                (program, compile(program, source, &dir, "", &[]))
            })
            .collect()
    })
}

/// The compiled submission named `file_name`.
pub fn submission(file_name: &str) -> &'static (&'static Program, PathBuf) {
    compiled_submissions()
        .iter()
        .find(|(program, _)| program.file_name == file_name)
        .unwrap_or_else(|| panic!("no submission {file_name}"))
}

/// A folder for this test binary's builds, under Cargo's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("the target folder is writable");
    dir
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
    program: &Program,
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

/// Runs `binary` with `args`, feeding it `stdin`, and waits for it.
pub fn run(binary: &Path, args: &[&Path], stdin: &[u8]) -> Output {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (at the final 0, or an error).
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("the program finishes");
    writer.join().expect("the writer finishes");
    output
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
