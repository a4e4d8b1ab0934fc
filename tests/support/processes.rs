//! The test programs' processes: finding those left running, and ending
//! them.

use std::io::Read;

/// The processes whose command line holds `marker`.
pub fn processes_with(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<u32>().ok())
        else {
            continue;
        };
        let mut cmdline = Vec::new();
        let read = std::fs::File::open(entry.path().join("cmdline"))
            .and_then(|mut file| file.read_to_end(&mut cmdline));
        let zombie = std::fs::read_to_string(entry.path().join("stat")).is_ok_and(|stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z'))
        });
        if read.is_ok() && !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(pid);
        }
    }
    found
}

/// Kills (SIGKILL) the processes whose command line holds `marker`; the
/// ones it found.
pub fn kill_marked(marker: &str) -> Vec<u32> {
    let found = processes_with(marker);
    for &pid in &found {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
    found
}

/// Kills the processes marked with its marker when dropped: those a test
/// started, gone even when it fails.
pub struct KillMarked(pub String);

impl Drop for KillMarked {
    fn drop(&mut self) {
        kill_marked(&self.0);
    }
}
