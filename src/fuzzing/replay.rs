//! Replaying stored inputs through a target's check on any toolchain: the
//! seed corpora and the minimized crashes (`fuzz/regressions/<target>/`),
//! which `tests/library/fuzz_replay.rs` replays in `cargo test`.

use std::any::Any;
use std::fmt;
use std::fs;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use super::Target;

/// A stored input that a target's check fails on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayFailure {
    /// The target's name.
    pub target: &'static str,
    /// The input's file.
    pub file: PathBuf,
    /// The input's size in bytes.
    pub bytes: usize,
    /// The panic message of the check.
    pub message: String,
}

impl fmt::Display for ReplayFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.bytes == 1 { "" } else { "s" };
        write!(
            f,
            "target {} fails on {} ({} byte{plural}): {}",
            self.target,
            self.file.display(),
            self.bytes,
            self.message
        )
    }
}

/// Runs `target`'s check on `data`.
///
/// # Errors
///
/// The check's panic message when it panics.
pub fn run_check(target: &Target, data: &[u8]) -> Result<(), String> {
    panic::catch_unwind(AssertUnwindSafe(|| (target.check)(data))).map_err(panic_message)
}

/// The text a panic carried.
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => payload.downcast_ref::<&str>().map_or_else(
            || "a panic without a message".to_owned(),
            |message| (*message).to_owned(),
        ),
    }
}

/// The files directly in `dir`, sorted by name; none when `dir` does not
/// exist.
///
/// # Errors
///
/// When `dir` exists but cannot be listed.
pub fn stored_inputs(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Runs `target`'s check on every file of `dir` (see [`stored_inputs`]).
/// Returns how many files passed and the failures, in file order.
///
/// # Errors
///
/// When `dir` or one of its files cannot be read.
pub fn replay_dir(target: &Target, dir: &Path) -> io::Result<(usize, Vec<ReplayFailure>)> {
    let mut passed = 0;
    let mut failures = Vec::new();
    for file in stored_inputs(dir)? {
        let data = fs::read(&file)?;
        match run_check(target, &data) {
            Ok(()) => passed += 1,
            Err(message) => failures.push(ReplayFailure {
                target: target.name,
                file,
                bytes: data.len(),
                message,
            }),
        }
    }
    Ok((passed, failures))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fails_on_x(data: &[u8]) {
        assert!(
            !data.contains(&b'x'),
            "found an x at {:?}",
            data.iter().position(|&b| b == b'x')
        );
    }

    const TARGET: Target = Target {
        name: "no-x",
        check: fails_on_x,
        modules: &[],
        dictionary: false,
        runs_programs: false,
    };

    #[test]
    fn a_failing_check_gives_its_message() {
        assert_eq!(run_check(&TARGET, b"abc"), Ok(()));
        assert_eq!(
            run_check(&TARGET, b"axe"),
            Err("found an x at Some(1)".to_owned())
        );
        let static_message: Target = Target {
            check: |_| panic!("always"),
            ..TARGET
        };
        assert_eq!(run_check(&static_message, b""), Err("always".to_owned()));
    }

    #[test]
    fn a_folder_is_replayed_in_file_order() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("b-fails"), "x").unwrap();
        fs::write(dir.path().join("a-passes"), "y").unwrap();
        fs::write(dir.path().join("c-fails"), "xx").unwrap();
        fs::create_dir(dir.path().join("folders-are-skipped")).unwrap();
        let (passed, failures) = replay_dir(&TARGET, dir.path()).unwrap();
        assert_eq!(passed, 1);
        let named: Vec<_> = failures
            .iter()
            .map(|f| f.file.file_name().unwrap())
            .collect();
        assert_eq!(named, ["b-fails", "c-fails"]);
        assert_eq!(
            failures[1].to_string(),
            format!(
                "target no-x fails on {} (2 bytes): found an x at Some(0)",
                dir.path().join("c-fails").display()
            )
        );
        assert_eq!(
            replay_dir(&TARGET, &dir.path().join("none")).unwrap(),
            (0, vec![])
        );
    }
}
