//! Every process `/proc` shows, with the fields of its `stat`: the one walk
//! of `/proc` that the tests' process helpers (`processes.rs`,
//! `process_tree.rs`) share.

/// One process: its pid, and its `/proc/PID/stat` after the command's
/// closing `)` (the command may hold spaces and parentheses; nothing after
/// the last `)` does), so that field 0 is the state and field 1 the parent.
pub struct ProcStat {
    pub pid: u32,
    fields: String,
}

impl ProcStat {
    /// The `index`-th field after the command: 0 is the state (`R`, `S`,
    /// `Z` for a zombie, ...), 1 the parent's pid. (Each binary that
    /// includes this file uses only some of the fields, which is why they
    /// are read by index: a named reader unused in one binary would be
    /// dead code there.)
    pub fn field(&self, index: usize) -> Option<&str> {
        self.fields.split_whitespace().nth(index)
    }
}

/// The processes of `/proc` whose `stat` could be read: one that ends
/// during the walk is left out.
pub fn each_process() -> impl Iterator<Item = ProcStat> {
    std::fs::read_dir("/proc")
        .expect("/proc can be listed")
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let fields = stat.rsplit_once(')')?.1.to_owned();
            Some(ProcStat { pid, fields })
        })
}
