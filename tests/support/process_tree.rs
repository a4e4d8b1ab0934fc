//! The processes below one of a test's children, as `/proc` shows them.

/// The processes below `pid`: its children, theirs, and so on, read
/// from each process's parent in `/proc/PID/stat`.
pub fn descendants_of(pid: u32) -> Vec<u32> {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<u32>().ok())
        else {
            continue;
        };
        // The parent is the second field after the command's `)`.
        let parent: Option<u32> = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit(')')
                    .next()?
                    .split_whitespace()
                    .nth(1)?
                    .parse()
                    .ok()
            });
        if let Some(parent) = parent {
            parents.push((child, parent));
        }
    }
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
