//! A run's fresh, empty work directory, removed afterwards.

use std::fs;
use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The prefix of work directories' names, followed by the runner's process
/// id and a counter.
const PREFIX: &str = "rotation-game-run-";

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when dropped.
#[derive(Debug)]
pub(crate) struct WorkDir {
    path: PathBuf,
}

static DIRS: AtomicU64 = AtomicU64::new(0);

impl WorkDir {
    /// Makes a new, empty work directory, readable by its owner only.
    pub(crate) fn create() -> io::Result<WorkDir> {
        let name = format!(
            "{PREFIX}{}-{}",
            std::process::id(),
            DIRS.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        fs::DirBuilder::new().mode(0o700).create(&path)?;
        Ok(WorkDir { path })
    }

    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        // Nothing to do about a failure: the next runner's sweep retries.
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Removes the work directories that runners no longer alive left behind.
pub(crate) fn sweep_stale() {
    let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let owner = name.to_str().and_then(|name| {
            name.strip_prefix(PREFIX)?
                .split('-')
                .next()?
                .parse::<u32>()
                .ok()
        });
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            // Best effort, as in Drop.
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_dir_is_fresh_and_removed_with_its_contents() {
        let work = WorkDir::create().unwrap();
        let path = work.path().to_owned();
        assert_eq!(fs::read_dir(&path).unwrap().count(), 0);
        fs::write(path.join("scratch"), "x").unwrap();
        drop(work);
        assert!(!path.exists());
    }
}
