//! C programs for the tests, each compiled once.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::process::Command;

/// Builds a C program with `cc` into `dir` and returns its path.
///
/// Each source is compiled once per build of the tests: the executable is
/// kept in Cargo's temporary folder for tests (`CARGO_TARGET_TMPDIR`),
/// named after the source's hash, and copied into `dir`, whose path the
/// tests look for in command lines. Where that folder cannot be written
/// (the cgroup v2 virtual machine sees the checkout read-only, after the
/// host's `cargo test` filled it), a missing executable is compiled into
/// `dir` alone; compiling is what costs there, several seconds a program
/// under an emulated CPU.
pub fn compile(dir: &Path, name: &str, source: &str) -> String {
    let binary = dir.join(name);
    let mut hasher = std::hash::DefaultHasher::new();
    source.hash(&mut hasher);
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c-programs")
        .join(format!("{name}-{:016x}", hasher.finish()));
    if std::fs::copy(&kept, &binary).is_ok() {
        return binary.to_str().unwrap().to_owned();
    }
    let source_path = dir.join(format!("{name}.c"));
    std::fs::write(&source_path, source).unwrap();
    let status = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(&source_path)
        .status()
        .expect("a C compiler (cc) for the test programs");
    assert!(status.success(), "cc {name}.c");
    // Kept under a temporary name, then renamed: another test process
    // copying it never sees half a file.
    let _ = std::fs::create_dir_all(kept.parent().unwrap()).and_then(|()| {
        let partial = tempfile::NamedTempFile::new_in(kept.parent().unwrap())?;
        std::fs::copy(&binary, partial.path())?;
        partial.persist(&kept).map_err(|error| error.error)?;
        Ok(())
    });
    binary.to_str().unwrap().to_owned()
}
