//! A run's fresh, empty work directory, removed afterwards.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::owner::{self, Owner};

/// The prefix of work directories' names, followed by their runner's
/// [`Owner`] name and a counter.
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
        WorkDir::create_named(PREFIX, 0o700)
    }

    /// Makes a new, empty directory named `prefix`, the runner's [`Owner`]
    /// name and a counter, with permissions `mode` (whatever the umask),
    /// swept by [`sweep_stale_named`] with the same prefix.
    pub(crate) fn create_named(prefix: &str, mode: u32) -> io::Result<WorkDir> {
        let name = Owner::this_process().name(prefix, DIRS.fetch_add(1, Ordering::Relaxed));
        let path = std::env::temp_dir().join(name);
        fs::DirBuilder::new().mode(mode).create(&path)?;
        // The mode given above is masked by the umask.
        fs::set_permissions(&path, fs::Permissions::from_mode(mode))?;
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

/// Removes the work directories that runners now gone left behind (see
/// [`Owner::is_gone`]).
pub(crate) fn sweep_stale() {
    sweep_stale_named(PREFIX);
}

/// Removes the directories named `prefix` that runners now gone left
/// behind.
pub(crate) fn sweep_stale_named(prefix: &str) {
    for path in owner::left_by_gone_runners(&std::env::temp_dir(), prefix) {
        // Best effort, as in Drop.
        let _ = fs::remove_dir_all(path);
    }
}

/// A folder of this user's own in the system's temporary folder,
/// `NAME-UID`, for what several of its processes share (a cache): made
/// readable and writable by its owner only if missing, and refused unless
/// it is a real folder of this user's that no one else may open, so that
/// another local user cannot make it first and plant files in it.
///
/// # Errors
///
/// When it cannot be made or read, or is a link, another user's, or open
/// to others.
pub fn private_folder(name: &str) -> io::Result<PathBuf> {
    // /proc/self belongs to the process's effective uid.
    let uid = fs::metadata("/proc/self")?.uid();
    let path = std::env::temp_dir().join(format!("{name}-{uid}"));
    match fs::DirBuilder::new().mode(0o700).create(&path) {
        Err(error) if error.kind() != io::ErrorKind::AlreadyExists => return Err(error),
        _ => {}
    }
    let metadata = fs::symlink_metadata(&path)?;
    if !metadata.is_dir() || metadata.uid() != uid || metadata.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!(
            "{} is not a private folder of this user's (a link, another user's, or open \
             to others)",
            path.display()
        )));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_folder_is_made_once_and_refused_when_open_to_others() {
        let name = format!("rotation-game-private-test-{}", std::process::id());
        let made = private_folder(&name).unwrap();
        assert_eq!(fs::metadata(&made).unwrap().mode() & 0o777, 0o700);
        assert_eq!(private_folder(&name).unwrap(), made);
        fs::set_permissions(&made, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(private_folder(&name).is_err());
        fs::remove_dir(&made).unwrap();
        // A link, even to a private folder of this user's, is refused.
        let real = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(real.path(), &made).unwrap();
        let refused = private_folder(&name);
        fs::remove_file(&made).unwrap();
        assert!(refused.is_err());
        // So is a file of this user's that no one else may read.
        fs::write(&made, "").unwrap();
        fs::set_permissions(&made, fs::Permissions::from_mode(0o600)).unwrap();
        let refused = private_folder(&name);
        fs::remove_file(&made).unwrap();
        assert!(refused.is_err());
        // And, for root, a closed folder of another user's.
        if fs::metadata("/proc/self").unwrap().uid() == 0 {
            fs::create_dir(&made).unwrap();
            std::os::unix::fs::chown(&made, Some(65534), None).unwrap();
            let refused = private_folder(&name);
            fs::remove_dir(&made).unwrap();
            assert!(refused.is_err());
        }
    }

    #[test]
    fn a_work_dir_is_fresh_and_removed_with_its_contents() {
        let work = WorkDir::create().unwrap();
        let path = work.path().to_owned();
        assert_eq!(fs::read_dir(&path).unwrap().count(), 0);
        fs::write(path.join("scratch"), "x").unwrap();
        drop(work);
        assert!(!path.exists());
    }

    #[test]
    fn a_killed_runners_work_dirs_are_swept_even_when_its_id_came_back() {
        // A killed runner that had this process's id left its first work
        // directories; this runner's own must neither collide with them nor
        // keep them.
        let earlier = crate::runner::owner::tests::earlier_runner_with_this_id();
        let left: Vec<_> = (0..3)
            .map(|number| std::env::temp_dir().join(earlier.name(PREFIX, number)))
            .collect();
        for dir in &left {
            fs::create_dir(dir).unwrap();
            fs::write(dir.join("scratch"), "left behind").unwrap();
        }
        let live = WorkDir::create().unwrap();
        sweep_stale();
        for dir in &left {
            assert!(!dir.exists(), "{} is left", dir.display());
        }
        assert!(live.path().exists(), "a live runner's work dir is kept");
    }
}
