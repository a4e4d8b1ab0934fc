//! What a sandboxed program sees of the machine's files: a minimal
//! filesystem built from nothing, as isolate builds a box's.
//!
//! # What is there
//!
//! - the system folders, read-only: `/usr`, and `/bin`, `/sbin`, `/lib*`
//!   as they are here (symbolic links into `/usr` on merged systems,
//!   folders elsewhere) ([`SYSTEM_FOLDERS`]);
//! - the few files of `/etc` that dynamic linking and language runtimes
//!   read ([`ETC_ENTRIES`], and the runtimes' own folders of
//!   [`ETC_PREFIXES`]), read-only;
//! - a minimal `/dev`, a fresh `/proc` of the run's own processes, and the
//!   work folder as `/tmp` (made by the sandbox, not here);
//! - the program itself, read-only, at the path it has here: its
//!   executable, and every file or folder its command line names
//!   ([`Program::exposed`]): `/tmp/x/a.out`, a script and the programs it
//!   names by absolute path, `python3 sol.py` with `sol.py` beside it;
//! - what the caller asks for (`--sandbox-bind PATH`), read-only: a runtime
//!   installed elsewhere, such as a JDK in `/opt`.
//!
//! Everything else is absent: the host's `/tmp`, `/home`, `/root`, `/run`,
//! `/var`, `/sys`, the test data, the checkout. A hidden path (the data
//! folder) that lies inside something shown is covered.
//!
//! # Reaching the files as another uid
//!
//! When runs have uids of their own (a root judge), the program's uid must
//! be able to reach what is shown: bubblewrap resolves each path as that
//! uid. A file that everyone may read (or, the executable, run), but that
//! lies in a folder only its owner may enter (as `mktemp -d` makes them),
//! is copied into a staging folder the runs can reach (`staging.rs`) and
//! shown from there at its own path. A file only its owner may read, and a
//! folder the runs cannot reach, are refused with the reason: a file
//! readable only by root stays unreadable inside, even when named.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::SandboxError;
use super::staging::Staging;
use crate::stress::command::Program;

/// The system folders shown read-only, where they exist.
pub const SYSTEM_FOLDERS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The entries of `/etc` shown read-only, where they exist: the dynamic
/// linker's cache and configuration, the time zone, Debian's alternatives
/// (the links behind `java`, `python3` and the like).
pub const ETC_ENTRIES: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "alternatives",
];

/// The entries of `/etc` whose names start with one of these are shown
/// too: the runtimes' own configuration (`java-17-openjdk`, `python3.11`).
pub const ETC_PREFIXES: &[&str] = &["java", "python"];

/// One step of building the sandbox's filesystem, in bubblewrap's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mount {
    /// `--symlink TARGET AT`.
    Symlink { target: PathBuf, at: PathBuf },
    /// `--ro-bind SOURCE AT`.
    ReadOnly { source: PathBuf, at: PathBuf },
    /// An empty read-only tmpfs over a folder (a hidden one).
    CoverFolder(PathBuf),
    /// `/dev/null` over a file (a hidden one).
    CoverFile(PathBuf),
}

/// The system part: [`SYSTEM_FOLDERS`], then `/etc`'s entries.
pub(crate) fn system() -> Vec<Mount> {
    let mut mounts = Vec::new();
    for folder in SYSTEM_FOLDERS {
        let path = Path::new(folder);
        match fs::read_link(path) {
            Ok(target) => mounts.push(Mount::Symlink {
                target,
                at: path.to_owned(),
            }),
            Err(_) if path.is_dir() => mounts.push(read_only(path)),
            Err(_) => {}
        }
    }
    let mut etc: Vec<PathBuf> = ETC_ENTRIES
        .iter()
        .map(|name| Path::new("/etc").join(name))
        .filter(|path| path.exists())
        .collect();
    if let Ok(entries) = fs::read_dir("/etc") {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if ETC_PREFIXES.iter().any(|prefix| name.starts_with(prefix)) {
                etc.push(entry.path());
            }
        }
    }
    etc.sort();
    mounts.extend(etc.iter().map(|path| read_only(path)));
    mounts
}

fn read_only(path: &Path) -> Mount {
    Mount::ReadOnly {
        source: path.to_owned(),
        at: path.to_owned(),
    }
}

/// Whether `path` lies in a system folder, and so is shown already.
fn in_system(path: &Path) -> bool {
    SYSTEM_FOLDERS.iter().any(|folder| path.starts_with(folder))
}

/// Whether everyone may use `path` itself: a folder, list and enter it; a
/// file, read it, or run it when `executable`.
fn usable_by_others(path: &Path, executable: bool) -> bool {
    fs::metadata(path).is_ok_and(|metadata| {
        let others = |bits: u32| metadata.mode() & bits == bits;
        if metadata.is_dir() {
            others(0o005)
        } else {
            others(0o004) || (executable && others(0o001))
        }
    })
}

/// Whether everyone may reach `path` (search every folder on the way) and
/// use it ([`usable_by_others`]): whether an unprivileged uid of its own
/// can.
fn reachable_by_others(path: &Path, executable: bool) -> bool {
    path.ancestors()
        .skip(1)
        .all(|folder| fs::metadata(folder).is_ok_and(|metadata| metadata.mode() & 0o001 == 0o001))
        && usable_by_others(path, executable)
}

/// The mounts that show the program and the caller's `binds`, then cover
/// `hidden` wherever it lies inside what is shown. With `staging` (runs
/// have uids of their own), files the runs' uids cannot reach are copied
/// there and shown from the copy.
///
/// # Errors
///
/// A path to show that does not exist; one inside a hidden folder; a
/// folder the runs' uids cannot reach; a file that cannot be copied.
pub(crate) fn exposed(
    program: &Program,
    binds: &[PathBuf],
    hidden: &[PathBuf],
    mut staging: Option<&mut Staging>,
) -> Result<Vec<Mount>, SandboxError> {
    let mut shown: Vec<(PathBuf, bool)> = program
        .exposed()
        .into_iter()
        .enumerate()
        .map(|(index, path)| (path, index == 0))
        .collect();
    for bind in binds {
        if !bind.exists() {
            return Err(SandboxError::BindMissing(bind.clone()));
        }
        shown.push((
            std::path::absolute(bind).unwrap_or_else(|_| bind.clone()),
            false,
        ));
    }
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .map(|path| {
            path.canonicalize()
                .map_err(|_| SandboxError::HiddenMissing(path.clone()))
        })
        .collect::<Result<_, _>>()?;
    let mut mounts = Vec::new();
    let mut sources = Vec::new();
    for (at, executable) in shown {
        let source = at
            .canonicalize()
            .map_err(|_| SandboxError::BindMissing(at.clone()))?;
        if let Some(folder) = hidden.iter().find(|folder| source.starts_with(folder)) {
            return Err(SandboxError::ExecutableHidden {
                executable: at,
                folder: folder.clone(),
            });
        }
        if in_system(&at) && source.starts_with("/usr") {
            continue;
        }
        if mounts
            .iter()
            .any(|mount| matches!(mount, Mount::ReadOnly { at: shown, .. } if *shown == at))
        {
            continue;
        }
        let from = match staging.as_deref_mut() {
            Some(staging) if !reachable_by_others(&source, executable) => {
                if !source.is_file() || !usable_by_others(&source, executable) {
                    return Err(SandboxError::Unreachable(at));
                }
                staging
                    .copy(&source)
                    .map_err(|error| SandboxError::Staging(format!("{}: {error}", at.display())))?
            }
            _ => source.clone(),
        };
        sources.push((source, at.clone()));
        mounts.push(Mount::ReadOnly { source: from, at });
    }
    for folder in &hidden {
        for (source, at) in &sources {
            if folder.starts_with(source) && folder != source {
                let inside = at.join(folder.strip_prefix(source).expect("inside"));
                mounts.push(if folder.is_dir() {
                    Mount::CoverFolder(inside)
                } else {
                    Mount::CoverFile(inside)
                });
            }
        }
    }
    Ok(mounts)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn the_system_part_is_the_system_folders_and_a_few_files_of_etc() {
        let mounts = system();
        let shown: Vec<&Path> = mounts
            .iter()
            .map(|mount| match mount {
                Mount::Symlink { at, .. } | Mount::ReadOnly { at, .. } => at.as_path(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(shown.contains(&Path::new("/usr")));
        for path in &shown {
            assert!(
                in_system(path) || path.starts_with("/etc"),
                "{} is not a system path",
                path.display()
            );
            assert!(!path.ends_with("shadow") && !path.ends_with("passwd"));
        }
        if Path::new("/etc/ld.so.cache").exists() {
            assert!(shown.contains(&Path::new("/etc/ld.so.cache")));
        }
    }

    #[test]
    fn the_program_and_its_files_are_shown_and_hidden_paths_inside_them_covered() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        fs::create_dir(&data).unwrap();
        let script = dir.path().join("sol.sh");
        fs::write(&script, "echo 1\n").unwrap();
        let command = format!("/bin/sh {} {}", script.display(), dir.path().display());
        let Ok(program) = Program::parse(&command, Path::new("/")) else {
            return;
        };
        let mounts = exposed(&program, &[], std::slice::from_ref(&data), None).unwrap();
        let canonical = |path: &Path| path.canonicalize().unwrap();
        assert!(mounts.contains(&Mount::ReadOnly {
            source: canonical(&script),
            at: script.clone()
        }));
        assert!(mounts.contains(&Mount::ReadOnly {
            source: canonical(dir.path()),
            at: dir.path().to_owned()
        }));
        assert!(mounts.contains(&Mount::CoverFolder(dir.path().join("data"))));
        // The shell itself lies in the system folders, shown already.
        assert_eq!(mounts.len(), 3, "{mounts:?}");
    }

    #[test]
    fn a_program_inside_a_hidden_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("a.sh");
        fs::write(&program, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
        let program = Program::parse(program.to_str().unwrap(), Path::new("/")).unwrap();
        assert!(matches!(
            exposed(&program, &[], &[dir.path().to_owned()], None),
            Err(SandboxError::ExecutableHidden { .. })
        ));
        assert!(matches!(
            exposed(&program, &[dir.path().join("missing")], &[], None),
            Err(SandboxError::BindMissing(_))
        ));
    }

    #[test]
    fn reachability_follows_the_others_bits_of_every_folder_on_the_way() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "x").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o644)).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert!(!reachable_by_others(&file, false));
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
        // The temporary folder's own parents are searchable by everyone.
        assert!(reachable_by_others(&file, false));
        fs::set_permissions(&file, fs::Permissions::from_mode(0o711)).unwrap();
        assert!(!reachable_by_others(&file, false));
        assert!(reachable_by_others(&file, true));
        assert!(!reachable_by_others(dir.path(), false), "not listable");
    }
}
