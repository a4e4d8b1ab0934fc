//! A process's line of `/proc/PID/stat`, for the fields the runner reads:
//! its process group, its CPU time, its start time.

/// The fields of a `/proc/PID/stat` line that follow the command's name.
///
/// The name, in parentheses, may itself hold spaces and parentheses, so the
/// fields are those after the *last* `)`: field 3 (the state) onwards, in
/// the numbering of `proc(5)`.
pub(super) struct ProcStat {
    fields: Vec<u64>,
}

impl ProcStat {
    /// The line of process `pid` (a number, or `self`), while it exists.
    pub(super) fn read(pid: &str) -> Option<ProcStat> {
        ProcStat::parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    /// Reads a `/proc/PID/stat` line; `None` when it has no command name.
    fn parse(line: &str) -> Option<ProcStat> {
        let (_, rest) = line.rsplit_once(')')?;
        // The state (a letter) reads as 0, as does any field that is no
        // number; none of those is read.
        let fields = rest
            .split_whitespace()
            .map(|field| field.parse().unwrap_or(0))
            .collect();
        Some(ProcStat { fields })
    }

    /// Field `number` of `proc(5)`, 0 when the line is shorter.
    fn field(&self, number: usize) -> u64 {
        self.fields.get(number - 3).copied().unwrap_or(0)
    }

    /// The process group (field 5).
    pub(super) fn process_group(&self) -> libc::pid_t {
        self.field(5) as libc::pid_t
    }

    /// User and system time of the process and of its reaped children, in
    /// clock ticks (fields 14 to 17).
    pub(super) fn cpu_ticks(&self) -> u64 {
        (14..=17).map(|number| self.field(number)).sum()
    }

    /// When the process started, in clock ticks since the machine booted
    /// (field 22): with the process id, it tells a process from a later
    /// one that got the same id.
    pub(super) fn start_ticks(&self) -> u64 {
        self.field(22)
    }
}

/// Clock ticks per second, the unit of [`ProcStat`]'s times.
pub(super) fn ticks_per_second() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_counted_after_the_last_parenthesis_of_the_name() {
        let line = "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 12345 1000 10";
        let stat = ProcStat::parse(line).unwrap();
        assert_eq!(stat.process_group(), 42);
        assert_eq!(stat.cpu_ticks(), 7 + 3 + 2 + 1);
        assert_eq!(stat.start_ticks(), 12345);
        assert!(ProcStat::parse("no name").is_none());
        let own = ProcStat::read("self").unwrap();
        // SAFETY: getpgrp has no preconditions.
        assert_eq!(own.process_group(), unsafe { libc::getpgrp() });
        assert!(own.start_ticks() > 0);
    }
}
