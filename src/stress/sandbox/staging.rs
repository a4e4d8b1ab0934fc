//! Copies of the files a sandboxed program needs but its uid cannot reach,
//! in a folder it can: the runner's staging folder.
//!
//! A root judge often builds the program in a folder only root may enter
//! (`mktemp -d` makes them so). The program's own uid could not start it
//! from there; a copy in the staging folder, shown at the program's path,
//! can. The folder may be searched by everyone but listed by no one
//! (`0711`), its copies belong to root and may be read (and executed, where
//! the original may be) by everyone: nothing in it can be changed but by
//! root. It is made once per runner, removed with it, and swept by the next
//! runner when a killed runner left it.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::stress::work_dir::{self, WorkDir};

/// The prefix of staging folders' names, followed by their runner's
/// [`Owner`](crate::stress::owner::Owner) name.
const PREFIX: &str = "rotation-game-stage-";

/// A runner's staging folder; removed with its copies when dropped.
#[derive(Debug)]
pub(crate) struct Staging {
    folder: WorkDir,
    /// How many files were copied: the next copy's name.
    copies: usize,
}

impl Staging {
    /// Makes an empty staging folder in the system's temporary folder.
    pub(crate) fn create() -> io::Result<Staging> {
        let folder = WorkDir::create_named(PREFIX, 0o711)?;
        Ok(Staging { folder, copies: 0 })
    }

    /// Copies the regular file `source` in, readable by everyone and
    /// executable where `source` is; the copy's path.
    pub(crate) fn copy(&mut self, source: &Path) -> io::Result<PathBuf> {
        let copy = self.folder.path().join(self.copies.to_string());
        self.copies += 1;
        fs::copy(source, &copy)?;
        let executable = fs::metadata(source)?.permissions().mode() & 0o111 != 0;
        let mode = if executable { 0o555 } else { 0o444 };
        fs::set_permissions(&copy, fs::Permissions::from_mode(mode))?;
        Ok(copy)
    }
}

/// Removes the staging folders that runners now gone left behind.
pub(crate) fn sweep_stale() {
    work_dir::sweep_stale_named(PREFIX);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_keep_the_contents_and_whether_they_run_and_go_with_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (tool, data) = (dir.path().join("tool"), dir.path().join("data"));
        fs::write(&tool, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&tool, fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(&data, "secret").unwrap();
        fs::set_permissions(&data, fs::Permissions::from_mode(0o600)).unwrap();
        let mut staging = Staging::create().unwrap();
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(staging.folder.path()), 0o711);
        let (tool_copy, data_copy) = (staging.copy(&tool).unwrap(), staging.copy(&data).unwrap());
        assert_eq!(mode(&tool_copy), 0o555);
        assert_eq!(mode(&data_copy), 0o444);
        assert_eq!(fs::read(&data_copy).unwrap(), b"secret");
        let folder = staging.folder.path().to_owned();
        drop(staging);
        assert!(!folder.exists());
    }
}
