//! The runner's hold on the cgroup v2 group its runs' groups are made in:
//! the controllers it gives that group's children, the leaf it moves
//! itself into, and undoing both when its last [`Parent`](super::Parent)
//! goes.
//!
//! # Why a leaf, and why it must go
//!
//! A v2 group other than the hierarchy's root may not both hold processes
//! and give controllers to its children ("no internal processes"). A
//! runner in a group of its own (what `systemd-run --scope -p
//! Delegate=yes` or a container gives) therefore first moves itself into a
//! leaf below it, `rotation-game-OWNER-runner`, then enables the memory
//! and pids controllers for the group's children. When the runner is done,
//! it disables them, moves back and removes the leaf, so that the group is
//! left as it was found. Where the group holds other processes too,
//! enabling fails with `EBUSY`: the runner then moves back and removes the
//! leaf at once, and has no cgroup.
//!
//! # At the hierarchy's root
//!
//! The root may hold processes and give controllers at once, and runners
//! may share it (root's processes live there where no service manager
//! moves them). A runner there does not move, but still makes its leaf,
//! empty, as a claim that says it is alive. A controller a runner enables
//! is recorded by an empty group `rotation-game-enabled-CONTROLLER`; the
//! last runner to leave (no other live runner's claim beside its own)
//! disables the recorded controllers and removes the records. Runners
//! take turns by `flock` on the group's directory, so that none disables a
//! controller another has just found enabled.

use std::fs::{self, File};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::super::owner::Owner;
use super::{PREFIX, make_dir, with_path, write};

/// The controllers runs need: memory (limit, peak, out-of-memory kills)
/// and pids (the process cap). CPU time (`cpu.stat`) needs none.
pub(super) const CONTROLLERS: [&str; 2] = ["memory", "pids"];

/// The controllers runs use where the group has them: cpu (one share of
/// the CPU per run; see `cgroup.rs`).
const OPTIONAL: [&str; 1] = ["cpu"];

/// The prefix of the records of controllers runners enabled.
const ENABLED: &str = "rotation-game-enabled-";

/// An exclusive `flock` on a group's directory, held until dropped.
struct GroupLock {
    _directory: File,
}

impl GroupLock {
    fn new(group: &Path) -> io::Result<GroupLock> {
        let directory = File::open(group).map_err(|error| with_path(group, error))?;
        // SAFETY: flock has no memory-safety preconditions; the descriptor
        // is open for as long as the call.
        if unsafe { libc::flock(directory.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(with_path(group, io::Error::last_os_error()));
        }
        Ok(GroupLock {
            _directory: directory,
        })
    }
}

/// The runner's hold on `group`; undone by [`Delegation::release`].
#[derive(Debug)]
pub(super) struct Delegation {
    /// The group the runs' groups are made in.
    group: PathBuf,
    /// The runner's leaf below it.
    claim: PathBuf,
    /// Whether the runner moved itself into the leaf (everywhere but at
    /// the hierarchy's root).
    moved: bool,
}

/// The names of the controllers listed in a `cgroup.controllers` or
/// `cgroup.subtree_control` file.
fn listed(file: &Path) -> io::Result<Vec<String>> {
    let text = fs::read_to_string(file).map_err(|error| with_path(file, error))?;
    Ok(text.split_whitespace().map(str::to_owned).collect())
}

/// Moves this process into `group`.
fn move_into(group: &Path) -> io::Result<()> {
    write(&group.join("cgroup.procs"), &std::process::id().to_string())
}

impl Delegation {
    /// Takes `group` (the hierarchy's root when `at_root`) for this
    /// process's runs: its leaf made (and moved into), the controllers the
    /// runs need enabled for the group's children.
    ///
    /// # Errors
    ///
    /// When the group lacks a controller, cannot be written, or holds other
    /// processes (`EBUSY`, said in words); nothing made is left then.
    pub(super) fn take(group: &Path, at_root: bool) -> io::Result<Delegation> {
        let lock = GroupLock::new(group)?;
        let available = listed(&group.join("cgroup.controllers"))?;
        if let Some(missing) = CONTROLLERS
            .iter()
            .find(|controller| !available.iter().any(|c| c == *controller))
        {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "{}: no {missing} controller (cgroup.controllers: {})",
                    group.display(),
                    available.join(" ")
                ),
            ));
        }
        let claim = group.join(Owner::this_process().name(PREFIX, "runner"));
        match fs::create_dir(&claim) {
            Err(error) if error.kind() != io::ErrorKind::AlreadyExists => {
                return Err(with_path(&claim, error));
            }
            _ => {}
        }
        let mut delegation = Delegation {
            group: group.to_owned(),
            claim,
            moved: false,
        };
        let result = delegation.enable(at_root);
        match result {
            Ok(()) => Ok(delegation),
            Err(error) => {
                delegation.undo(&lock);
                Err(error)
            }
        }
    }

    /// Moves into the leaf (not at the root) and enables what is missing,
    /// recording it.
    fn enable(&mut self, at_root: bool) -> io::Result<()> {
        if !at_root {
            move_into(&self.claim)?;
            self.moved = true;
        }
        let subtree = self.group.join("cgroup.subtree_control");
        let enabled = listed(&subtree)?;
        let missing: Vec<&str> = CONTROLLERS
            .into_iter()
            .filter(|controller| !enabled.iter().any(|c| c == controller))
            .collect();
        self.enable_optional(&enabled)?;
        if missing.is_empty() {
            return Ok(());
        }
        let change: Vec<String> = missing.iter().map(|c| format!("+{c}")).collect();
        fs::write(&subtree, change.join(" ")).map_err(|error| {
            if error.raw_os_error() == Some(libc::EBUSY) {
                io::Error::new(
                    io::ErrorKind::ResourceBusy,
                    format!(
                        "{}: the group holds other processes, so it cannot give controllers to groups below it (cgroup v2's no internal processes rule)",
                        self.group.display()
                    ),
                )
            } else {
                with_path(&subtree, error)
            }
        })?;
        for controller in missing {
            make_dir(&self.group.join(format!("{ENABLED}{controller}")))?;
        }
        Ok(())
    }

    /// Enables the [`OPTIONAL`] controllers the group has and does not
    /// give yet, each on its own (one the kernel refuses is done without),
    /// recording what it enabled.
    fn enable_optional(&self, enabled: &[String]) -> io::Result<()> {
        let available = listed(&self.group.join("cgroup.controllers"))?;
        let subtree = self.group.join("cgroup.subtree_control");
        for controller in OPTIONAL {
            let wanted = available.iter().any(|c| c == controller)
                && !enabled.iter().any(|c| c == controller);
            if wanted && fs::write(&subtree, format!("+{controller}")).is_ok() {
                make_dir(&self.group.join(format!("{ENABLED}{controller}")))?;
            }
        }
        Ok(())
    }

    /// The group the runs' groups are made in.
    pub(super) fn group(&self) -> &Path {
        &self.group
    }

    /// Undoes [`take`](Self::take): see the module docs. Best effort:
    /// what cannot be undone now (a controller another group below still
    /// uses) is left for the next runner's sweep or release.
    pub(super) fn release(self) {
        if let Ok(lock) = GroupLock::new(&self.group) {
            self.undo(&lock);
        }
    }

    /// The undoing, under the group's lock.
    fn undo(&self, _lock: &GroupLock) {
        if !self.other_runners_alive() {
            for (controller, record) in self.records() {
                let subtree = self.group.join("cgroup.subtree_control");
                if fs::write(&subtree, format!("-{controller}")).is_ok() {
                    let _ = fs::remove_dir(record);
                }
            }
        }
        if self.moved && move_into(&self.group).is_err() {
            // Still inside: the leaf cannot go.
            return;
        }
        let _ = fs::remove_dir(&self.claim);
    }

    /// The records of enabled controllers in the group: (controller, path).
    fn records(&self) -> Vec<(String, PathBuf)> {
        let Ok(entries) = fs::read_dir(&self.group) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().into_string().ok()?;
                let controller = name.strip_prefix(ENABLED)?;
                (CONTROLLERS.contains(&controller) || OPTIONAL.contains(&controller))
                    .then(|| (controller.to_owned(), entry.path()))
            })
            .collect()
    }

    /// Whether another live runner has a leaf in the group.
    fn other_runners_alive(&self) -> bool {
        let Ok(entries) = fs::read_dir(&self.group) else {
            return true;
        };
        entries.flatten().any(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            entry.path() != self.claim
                && name.ends_with("-runner")
                && Owner::of_name(PREFIX, &name).is_some_and(|owner| !owner.is_gone())
        })
    }
}

/// Whether `group` gives `controller` to the groups below it.
pub(super) fn gives(group: &Path, controller: &str) -> bool {
    listed(&group.join("cgroup.subtree_control"))
        .is_ok_and(|enabled| enabled.iter().any(|c| c == controller))
}

/// What to put before a command to run it in a cgroup of its own, given
/// to the user by their systemd (as rootless container engines do): for
/// messages that say why there is no cgroup.
pub(super) const SYSTEMD_DELEGATION: &str = "systemd-run --user --scope -p Delegate=yes --";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_controllers_of_a_file_are_its_words() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cgroup.controllers");
        fs::write(&file, "cpuset cpu io memory pids\n").unwrap();
        assert_eq!(
            listed(&file).unwrap(),
            ["cpuset", "cpu", "io", "memory", "pids"]
        );
        fs::write(&file, "\n").unwrap();
        assert_eq!(listed(&file).unwrap(), Vec::<String>::new());
        let missing = dir.path().join("missing");
        let error = listed(&missing).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with(&missing.display().to_string()),
            "{error}"
        );
    }
}
