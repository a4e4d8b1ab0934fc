//! The test programs' processes: finding those left running, and ending them.

use std::io::Read;
use std::process::Command;
use std::time::{Duration, Instant};

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

/// Waits (10 s at most) for the processes whose command line holds
/// `marker` to end; kills those left, and says which they were.
pub fn survivors(marker: &str) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_with(marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survivors = processes_with(marker);
    for pid in &survivors {
        // Leave nothing behind, even when failing.
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
    survivors
}
