//! The test programs' processes: finding those left running, and ending
//! them.

use std::io::Read;

use super::proc_stat::each_process;

/// The processes whose command line holds `marker`, zombies left out.
pub fn processes_with(marker: &str) -> Vec<u32> {
    each_process()
        .filter(|process| process.field(0) != Some("Z"))
        .filter(|process| {
            let mut cmdline = Vec::new();
            std::fs::File::open(format!("/proc/{}/cmdline", process.pid))
                .and_then(|mut file| file.read_to_end(&mut cmdline))
                .is_ok()
                && String::from_utf8_lossy(&cmdline).contains(marker)
        })
        .map(|process| process.pid)
        .collect()
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
