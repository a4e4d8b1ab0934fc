//! Which runner process made a work directory or a cgroup, and whether it
//! is gone: what lets a runner remove what killed runners left behind
//! without touching what live ones use.
//!
//! # Why not the process id alone
//!
//! Process ids are reused: in a container a runner often gets the same
//! small id every time, so a directory named after a killed runner's id
//! would look alive to the next runner with that id, never be removed, and
//! stand in the way of the first directory that runner makes. And a runner
//! in another PID namespace (a container sharing `/tmp` or a cgroup with
//! this one) has ids that name other processes here, or none: by its id
//! alone it would look dead, and its live runs would be swept away.
//!
//! So a name carries the runner's process id, its start time
//! (`/proc/PID/stat`) and its PID namespace. A runner is gone when it was
//! of this namespace and no process with its id and start time is alive.
//! Names from other namespaces are never swept here: their own runners
//! sweep them.
//!
//! The process id comes first, where runners of earlier versions, which
//! named things `PREFIX-PID-N`, read it: so they too take a live runner's
//! names for live. (Names in that older form are not swept here.)

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::proc_stat::ProcStat;

/// The runner process that made something: `PID-START-NAMESPACE` in names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The inode number of its PID namespace (0 where it cannot be read).
    namespace: u64,
    /// Its process id, in that namespace.
    pid: u32,
    /// When it started, in clock ticks since boot.
    start_ticks: u64,
}

/// The inode number of a `/proc/PID/ns/pid` link, such as `pid:[4026531836]`.
fn namespace_of(pid: &str) -> u64 {
    std::fs::read_link(format!("/proc/{pid}/ns/pid"))
        .ok()
        .and_then(|link| {
            let link = link.to_str()?;
            link.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
        })
        .unwrap_or(0)
}

impl Owner {
    /// This process.
    pub(crate) fn this_process() -> Owner {
        static THIS: OnceLock<Owner> = OnceLock::new();
        *THIS.get_or_init(|| Owner {
            namespace: namespace_of("self"),
            pid: std::process::id(),
            start_ticks: ProcStat::read("self").map_or(0, |stat| stat.start_ticks()),
        })
    }

    /// The name `{prefix}{PID}-{START}-{NAMESPACE}-{suffix}`.
    pub(crate) fn name(self, prefix: &str, suffix: impl fmt::Display) -> String {
        format!(
            "{prefix}{}-{}-{}-{suffix}",
            self.pid, self.start_ticks, self.namespace
        )
    }

    /// The owner named in `name`, if it is a name made by
    /// [`name`](Self::name) with `prefix`.
    pub(crate) fn of_name(prefix: &str, name: &str) -> Option<Owner> {
        let mut parts = name.strip_prefix(prefix)?.splitn(4, '-');
        let mut number = || parts.next()?.parse::<u64>().ok();
        let (pid, start_ticks, namespace) = (number()?, number()?, number()?);
        parts.next()?;
        Some(Owner {
            namespace,
            pid: u32::try_from(pid).ok()?,
            start_ticks,
        })
    }

    /// Whether this runner is certainly gone: it was of this process's PID
    /// namespace, and its process id now names no process, or one started
    /// at another time. A runner of another namespace is never gone here.
    pub(crate) fn is_gone(self) -> bool {
        if self.namespace != Owner::this_process().namespace {
            return false;
        }
        ProcStat::read(&self.pid.to_string())
            .is_none_or(|stat| stat.start_ticks() != self.start_ticks)
    }
}

/// The entries of `dir` named with `prefix` by runners now gone.
pub(crate) fn left_by_gone_runners(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .and_then(|name| Owner::of_name(prefix, name))
                .is_some_and(Owner::is_gone)
        })
        .map(|entry| entry.path())
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A runner that had this process's id before it (a killed runner whose
    /// id was reused).
    pub(crate) fn earlier_runner_with_this_id() -> Owner {
        let this = Owner::this_process();
        Owner {
            start_ticks: this.start_ticks - 1,
            ..this
        }
    }

    #[test]
    fn names_carry_the_id_the_start_and_the_namespace() {
        let this = Owner::this_process();
        assert!(this.namespace > 0 && this.start_ticks > 0, "{this:?}");
        let name = this.name("rotation-game-run-", 7);
        assert_eq!(Owner::of_name("rotation-game-run-", &name), Some(this));
        assert_eq!(
            Owner::of_name("rotation-game-", &this.name("rotation-game-", "runner")),
            Some(this)
        );
        for other in [
            "rotation-game-run-1-2",
            "rotation-game-run-1-2-3",
            "user.slice",
            "rotation-game-run-a-1-2-3",
        ] {
            assert_eq!(Owner::of_name("rotation-game-run-", other), None, "{other}");
        }
    }

    #[test]
    fn the_namespace_is_the_inode_of_the_pid_namespace() {
        use std::os::unix::fs::MetadataExt;
        let inode = std::fs::metadata("/proc/self/ns/pid").unwrap().ino();
        assert_eq!(namespace_of("self"), inode);
        assert_eq!(namespace_of(&std::process::id().to_string()), inode);
        assert_eq!(namespace_of("no-such-process"), 0);
    }

    #[test]
    fn only_the_entries_of_gone_runners_are_left_by_them() {
        let dir = tempfile::tempdir().unwrap();
        let prefix = "rotation-game-run-";
        let gone = earlier_runner_with_this_id().name(prefix, 1);
        for name in [
            gone.as_str(),
            &Owner::this_process().name(prefix, 2),
            &earlier_runner_with_this_id().name("another-tool-", 3),
            "rotation-game-run-notes",
        ] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
        }
        assert_eq!(
            left_by_gone_runners(dir.path(), prefix),
            [dir.path().join(&gone)]
        );
        assert!(left_by_gone_runners(&dir.path().join("missing"), prefix).is_empty());
    }

    #[test]
    fn runners_of_earlier_versions_read_a_live_process_id_first() {
        // They took the first number after the prefix for the owner's
        // process id, and swept the name when no such process was alive:
        // it must be this process's.
        for prefix in ["rotation-game-", "rotation-game-run-"] {
            let name = Owner::this_process().name(prefix, 3);
            let first = name.strip_prefix(prefix).unwrap().split('-').next();
            assert_eq!(first, Some(std::process::id().to_string().as_str()));
        }
    }

    #[test]
    fn a_runner_is_gone_only_when_its_process_is() {
        assert!(!Owner::this_process().is_gone());
        // The same id, started earlier: a killed runner whose id came back.
        assert!(earlier_runner_with_this_id().is_gone());
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let alive = Owner {
            pid: child.id(),
            start_ticks: ProcStat::read(&child.id().to_string())
                .unwrap()
                .start_ticks(),
            ..Owner::this_process()
        };
        assert!(!alive.is_gone());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(alive.is_gone());
        // Another namespace's runner is left to its own namespace.
        let elsewhere = Owner {
            namespace: Owner::this_process().namespace + 1,
            ..alive
        };
        assert!(!elsewhere.is_gone());
    }
}
