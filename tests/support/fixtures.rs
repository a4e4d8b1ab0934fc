//! The folder of what a test binary builds once and keeps while it runs
//! (compiled programs, the package written to disk): a temporary folder
//! of its own, removed when the binary exits.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static FOLDER: OnceLock<PathBuf> = OnceLock::new();

/// The folder `name` in the binary's fixtures folder, made at the first
/// call.
pub fn fixtures(name: &str) -> PathBuf {
    let folder = FOLDER.get_or_init(|| {
        // Not named after the project: the sandbox's attacks look for
        // its name in what a program can see.
        let folder = tempfile::Builder::new()
            .prefix("test-fixtures-")
            .tempdir()
            .expect("a temporary folder")
            .keep();
        // SAFETY: `remove` takes no argument and does not unwind; it runs
        // once, at exit, when no test runs any more.
        assert_eq!(unsafe { libc::atexit(remove) }, 0, "atexit");
        folder
    });
    let dir = folder.join(name);
    std::fs::create_dir_all(&dir).expect("the fixtures folder is writable");
    dir
}

/// Removes the fixtures folder (registered with `atexit`).
extern "C" fn remove() {
    if let Some(folder) = FOLDER.get() {
        let _ = std::fs::remove_dir_all(Path::new(folder));
    }
}
