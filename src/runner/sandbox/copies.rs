//! Copies, held in memory, of the files a root judge's runs need but their
//! uids cannot reach where the files lie.
//!
//! A root judge often builds the program in a folder only root may enter
//! (`mktemp -d` makes them so). The run's own uid could not start it from
//! there. Each such file is copied once, when the runner starts, into a
//! sealed `memfd` (no one, root included, can change it afterwards), and
//! every slot's bubblewrap gets its own descriptor of the copy (`--file`):
//! it writes the bytes into a file of the slot's own filesystem at the
//! original's path, read-only to the program (the slot's root is remounted
//! read-only, and each run binds what lies in `/tmp` again read-only). Nothing is ever written to
//! the machine's disk, so no copy of a root-owned file lies anywhere that
//! someone else could read, and the run's mount table names no folder of
//! the machine for it.
//!
//! The judge's own executable, when only root may run it, is copied the
//! same way: bubblewrap starts each slot's zygote from the copy's
//! descriptor.

use std::ffi::CStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The runner's copies.
#[derive(Debug, Default)]
pub(crate) struct Copies {
    /// Each copy, a sealed `memfd`, with whether the original may be run.
    files: Vec<(File, bool)>,
}

impl Copies {
    /// Copies the regular file `source` in; the copy's number.
    pub(crate) fn add(&mut self, source: &Path) -> io::Result<usize> {
        let copy = sealed_copy(source)?;
        let executable = std::fs::metadata(source)?.permissions().mode() & 0o111 != 0;
        self.files.push((copy, executable));
        Ok(self.files.len() - 1)
    }

    /// A new descriptor of copy `index`, reading from its start, for one
    /// slot's bubblewrap (`--file`, which reads it to its end).
    pub(crate) fn reader(&self, index: usize) -> io::Result<OwnedFd> {
        let (copy, _) = &self.files[index];
        let path = format!("/proc/self/fd/{}", copy.as_raw_fd());
        Ok(OwnedFd::from(File::open(path)?))
    }

    /// The mode to show copy `index` with: read-only, executable where the
    /// original is.
    pub(crate) fn mode(&self, index: usize) -> &'static str {
        if self.files[index].1 { "0555" } else { "0444" }
    }

    /// How many copies there are.
    pub(crate) fn len(&self) -> usize {
        self.files.len()
    }
}

/// An anonymous file in memory (a `memfd`), close-on-exec, that may be
/// sealed.
pub(crate) fn anonymous_file() -> io::Result<File> {
    let name: &CStr = c"rotation-game";
    // SAFETY: memfd_create reads the NUL-terminated name it is given.
    let fd =
        unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd == -1 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor memfd_create just made, owned here alone.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// A sealed in-memory copy of the file `source`, that everyone may read and
/// run (a `memfd`'s mode), and no one may change.
pub(crate) fn sealed_copy(source: &Path) -> io::Result<File> {
    let mut copy = anonymous_file()?;
    io::copy(&mut File::open(source)?, &mut copy)?;
    let seals = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
    // SAFETY: fcntl on a descriptor of ours.
    if unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    #[test]
    fn a_copy_keeps_the_contents_and_whether_it_runs_and_cannot_be_changed() {
        let dir = tempfile::tempdir().unwrap();
        let (tool, data) = (dir.path().join("tool"), dir.path().join("data"));
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::write(&data, "secret").unwrap();
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o600)).unwrap();
        let mut copies = Copies::default();
        let (tool_copy, data_copy) = (copies.add(&tool).unwrap(), copies.add(&data).unwrap());
        assert_eq!(
            (copies.mode(tool_copy), copies.mode(data_copy)),
            ("0555", "0444")
        );
        assert_eq!(copies.len(), 2);
        // Every reader starts at the beginning.
        for _ in 0..2 {
            let mut text = String::new();
            File::from(copies.reader(data_copy).unwrap())
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, "secret");
        }
        // Sealed: not even its maker can write it, cut it, grow it or
        // take a seal off.
        let (copy, _) = &copies.files[data_copy];
        assert!((&*copy).write_all(b"changed").is_err());
        assert!(copy.set_len(2).is_err() && copy.set_len(100).is_err());
        // SAFETY: fcntl on a descriptor the test holds.
        let seals = unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_GET_SEALS) };
        let all = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
        assert_eq!(seals, all);
        std::fs::write(&data, "changed").unwrap();
        let mut text = String::new();
        File::from(copies.reader(data_copy).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "secret", "a copy, not the file");
    }
}
