//! The processes below one of a test's children, as `/proc` shows them.

use super::proc_stat::each_process;

/// The processes below `pid`: its children, theirs, and so on, read
/// from each process's parent in `/proc/PID/stat`.
pub fn descendants_of(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = each_process()
        .filter_map(|process| Some((process.pid, process.field(1)?.parse().ok()?)))
        .collect();
    let mut found = vec![pid];
    let mut next = 0;
    while next < found.len() {
        let parent = found[next];
        found.extend(
            parents
                .iter()
                .filter(|&&(_, p)| p == parent)
                .map(|&(child, _)| child),
        );
        next += 1;
    }
    found.split_off(1)
}
