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
//!   [`ETC_PREFIXES`]), read-only; one that is a symbolic link into the
//!   system folders (`/etc/localtime`) is that link;
//! - a minimal `/dev`, a fresh `/proc` of the run's own processes, and the
//!   work folder as `/tmp` (made by the sandbox, not here);
//! - the program itself, read-only: its executable, and every file or
//!   folder its command line names ([`Program::exposed`]): `/tmp/x/a.out`,
//!   a script and the programs it names by absolute path, `python3 sol.py`
//!   with `sol.py` beside it;
//! - what the caller asks for (`--sandbox-bind PATH`), read-only: a runtime
//!   installed elsewhere, such as a JDK in `/opt`.
//!
//! Everything else is absent: the host's `/tmp`, `/home`, `/root`, `/run`,
//! `/var`, `/sys`, the test data, the checkout.
//!
//! # A named path shows no more than it names
//!
//! Each path named on the command line is resolved once, when the runner
//! starts, and what it resolves to is shown at its own, real path; a name
//! that went through a symbolic link is that link, pointing there. So the
//! sandbox never shows a folder but the one a path leads to, and its mount
//! table names no path of the machine but the ones it shows. A path that
//! resolves to `/`, to a folder holding a system folder, to the machine's
//! `/tmp`, or into its `/proc`, `/sys` or `/dev` (the sandbox has its own)
//! is refused with the reason ([`SandboxError::ShowsTooMuch`]).
//!
//! # Hidden means hidden, wherever it lies
//!
//! The hidden paths (the test data, `--hide`) are resolved too, with every
//! other path at which the machine's mounts show them (`mount_table.rs`);
//! a hidden file with other names (hard links) is refused, as nothing finds
//! those. Each is checked against everything the sandbox shows, the system
//! folders included: one that lies inside something shown is covered (an
//! empty read-only folder, or `/dev/null` over a file); one that holds, or
//! is, something shown is refused with both paths
//! ([`SandboxError::HidesShown`], [`SandboxError::ExecutableHidden`]).
//! Each slot's trial run then looks for every hidden path from inside, and
//! the runner refuses to run if it finds one that is not absent or empty
//! (`init.rs`): "hidden" is checked, not assumed.
//!
//! # Reaching the files as another uid
//!
//! When runs have uids of their own (a root judge), the program's uid must
//! be able to reach what is shown: bubblewrap resolves each path as that
//! uid. A file that everyone may read (or, the executable, run), but that
//! lies in a folder only its owner may enter (as `mktemp -d` makes them),
//! is shown as a copy held in memory (`copies.rs`), when it was named at its
//! real path: a name that reaches such a file through a symbolic link is
//! refused ([`SandboxError::ThroughLink`]), for the judge did not name what
//! it would show. A file only its owner may read, and a folder the runs
//! cannot reach, are refused with the reason: a file readable only by root
//! stays unreadable inside, even when named.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::SandboxError;
use super::copies::Copies;
use super::mount_table;
use crate::runner::command::Program;

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

/// The folders of the machine a sandbox has its own of: a path that leads
/// into one is never shown.
const OWN_TO_A_SANDBOX: &[&str] = &["/proc", "/sys", "/dev"];

/// One step of building the sandbox's filesystem, in bubblewrap's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mount {
    /// `--symlink TARGET AT`.
    Symlink { target: PathBuf, at: PathBuf },
    /// `--ro-bind PATH PATH`: a file or folder of the machine, at its own
    /// path.
    ReadOnly(PathBuf),
    /// `--perms MODE --file FD AT`: copy number `index` of the
    /// runner's [`Copies`], at the path of its original.
    Copy { index: usize, at: PathBuf },
    /// An empty read-only tmpfs over a folder (a hidden one).
    CoverFolder(PathBuf),
    /// `/dev/null` over a file (a hidden one).
    CoverFile(PathBuf),
}

impl Mount {
    /// Where the mount is in the sandbox.
    pub(crate) fn at(&self) -> &Path {
        match self {
            Mount::Symlink { at, .. } | Mount::Copy { at, .. } => at,
            Mount::ReadOnly(at) | Mount::CoverFolder(at) | Mount::CoverFile(at) => at,
        }
    }
}

/// What a sandbox shows and hides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct View {
    /// How it is built, in order.
    pub(crate) mounts: Vec<Mount>,
    /// Every path at which a hidden file or folder lies on the machine:
    /// each must be absent or empty inside (the trial run checks).
    pub(crate) hidden: Vec<PathBuf>,
}

/// The view of `program` and the caller's `binds`, with `hidden` hidden
/// wherever it lies (see the [module docs](self)). With `copies` (runs
/// have uids of their own), files the runs' uids cannot reach are copied
/// there and shown from the copy.
///
/// # Errors
///
/// See [`SandboxError`]: a path to show or hide that does not exist; one
/// that shows too much; one inside a hidden folder, or a hidden path that
/// holds something shown; for a root judge, a folder the runs' uids cannot
/// reach, a file only its owner may read, or one reached through a link.
pub(crate) fn view(
    program: &Program,
    binds: &[PathBuf],
    hidden: &[PathBuf],
    copies: Option<&mut Copies>,
) -> Result<View, SandboxError> {
    let hidden = hidden_everywhere(hidden, &mount_table::read())?;
    let system = system();
    let mut covers = covers_of(&hidden, &system)?;
    let mut named = named_mounts(program, binds, &hidden, &system, copies)?;
    covers.extend(covers_of(&hidden, &named)?);
    covers.sort_by(|a, b| a.at().cmp(b.at()));
    covers.dedup();
    let mut mounts = system;
    mounts.append(&mut named);
    mounts.extend(covers);
    Ok(View { mounts, hidden })
}

/// The covers of the `hidden` paths that lie inside the folders `shown`
/// binds.
///
/// # Errors
///
/// When a hidden path is, or holds, something shown.
fn covers_of(hidden: &[PathBuf], shown: &[Mount]) -> Result<Vec<Mount>, SandboxError> {
    let mut covers = Vec::new();
    for folder in hidden {
        for mount in shown {
            let Mount::ReadOnly(path) = mount else {
                continue;
            };
            let source = path.canonicalize().unwrap_or_else(|_| path.clone());
            if source.starts_with(folder) {
                return Err(SandboxError::HidesShown {
                    hidden: folder.clone(),
                    shown: path.clone(),
                });
            }
            if folder.starts_with(&source) {
                let inside = path.join(folder.strip_prefix(&source).expect("inside"));
                covers.push(if folder.is_dir() {
                    Mount::CoverFolder(inside)
                } else {
                    Mount::CoverFile(inside)
                });
            }
        }
    }
    Ok(covers)
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
            Err(_) if path.is_dir() => mounts.push(Mount::ReadOnly(path.to_owned())),
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
    for path in etc {
        // A link into the system folders is that link: the mount table
        // then names only what is shown.
        let link = fs::read_link(&path)
            .ok()
            .filter(|_| path.canonicalize().is_ok_and(|real| in_system(&real)));
        mounts.push(match link {
            Some(target) => Mount::Symlink { target, at: path },
            None => Mount::ReadOnly(path),
        });
    }
    mounts
}

/// Whether `path` lies in a system folder, and so is shown already (or,
/// through a system folder that is a link, is in `/usr`).
pub fn in_system(path: &Path) -> bool {
    SYSTEM_FOLDERS.iter().any(|folder| path.starts_with(folder))
}

/// Every hidden path, resolved, and every other path at which the mounts
/// of `table` show it; sorted, each once.
fn hidden_everywhere(
    hidden: &[PathBuf],
    table: &[mount_table::MountEntry],
) -> Result<Vec<PathBuf>, SandboxError> {
    let mut everywhere = Vec::new();
    for path in hidden {
        let real = path
            .canonicalize()
            .map_err(|_| SandboxError::HiddenMissing(path.clone()))?;
        // Another name of a file could lie anywhere, and nothing finds it.
        if let Ok(metadata) = fs::metadata(&real)
            && metadata.is_file()
            && metadata.nlink() > 1
        {
            return Err(SandboxError::HiddenHardLinked {
                path: path.clone(),
                links: metadata.nlink(),
            });
        }
        everywhere.extend(mount_table::aliases(&real, table));
        everywhere.push(real);
    }
    everywhere.sort();
    everywhere.dedup();
    Ok(everywhere)
}

/// Why showing the real path `real` would show too much, if it would.
fn too_much(real: &Path) -> Option<String> {
    if real == Path::new("/") {
        return Some("the whole machine".to_owned());
    }
    if let Some(folder) = SYSTEM_FOLDERS
        .iter()
        .map(Path::new)
        .find(|folder| folder.starts_with(real) && *folder != real)
    {
        return Some(format!(
            "a folder holding the system folder {}",
            folder.display()
        ));
    }
    if real == Path::new("/tmp") {
        return Some("the machine's /tmp (a run's /tmp is its own work folder)".to_owned());
    }
    OWN_TO_A_SANDBOX
        .iter()
        .find(|folder| real.starts_with(folder))
        .map(|folder| format!("inside the machine's {folder} (a run has its own)"))
}

/// `path` made absolute, with `.` and `..` taken away by its words alone.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut normal = PathBuf::from("/");
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::Normal(name) => normal.push(name),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    normal
}

/// The mounts that show the program and the caller's `binds` (see the
/// [module docs](self)), besides the `system` part: binds of the real
/// paths, sorted so that a folder comes before what lies in it, then
/// copies, then the links.
fn named_mounts(
    program: &Program,
    binds: &[PathBuf],
    hidden: &[PathBuf],
    system: &[Mount],
    mut copies: Option<&mut Copies>,
) -> Result<Vec<Mount>, SandboxError> {
    let mut named: Vec<(PathBuf, bool)> = program
        .exposed()
        .into_iter()
        .enumerate()
        .map(|(index, path)| (path, index == 0))
        .collect();
    for bind in binds {
        if !bind.exists() {
            return Err(SandboxError::BindMissing(bind.clone()));
        }
        named.push((
            std::path::absolute(bind).unwrap_or_else(|_| bind.clone()),
            false,
        ));
    }
    let (mut binds_made, mut copies_made, mut links) = (Vec::new(), Vec::new(), Vec::new());
    for (path, executable) in named {
        let real = path
            .canonicalize()
            .map_err(|_| SandboxError::BindMissing(path.clone()))?;
        if let Some(reason) = too_much(&real) {
            return Err(SandboxError::ShowsTooMuch { path, real, reason });
        }
        if let Some(folder) = hidden.iter().find(|folder| real.starts_with(folder)) {
            return Err(SandboxError::ExecutableHidden {
                executable: path,
                folder: folder.clone(),
            });
        }
        let named_directly = lexically_normal(&path) == real;
        if !named_directly {
            links.push((path.clone(), real.clone()));
        }
        let shown_already = binds_made.contains(&real)
            || copies_made.iter().any(|mount: &Mount| mount.at() == real);
        if in_system(&real) || shown_already {
            continue;
        }
        let copy = match copies.as_deref_mut() {
            Some(copies) if !reachable_by_others(&real, executable) => {
                if !real.is_file() || !usable_by_others(&real, executable) {
                    return Err(SandboxError::Unreachable(path));
                }
                if !named_directly {
                    return Err(SandboxError::ThroughLink { path, real });
                }
                let index = copies.add(&real).map_err(|error| {
                    SandboxError::Copying(format!("{}: {error}", real.display()))
                })?;
                Some(index)
            }
            _ => None,
        };
        match copy {
            Some(index) => copies_made.push(Mount::Copy { index, at: real }),
            None => binds_made.push(real),
        }
    }
    binds_made.sort();
    let mut mounts: Vec<Mount> = binds_made.into_iter().map(Mount::ReadOnly).collect();
    mounts.append(&mut copies_made);
    // A name that went through a link is that link, unless it lies in
    // something shown already, where the machine's own link is.
    for (path, real) in links {
        let shown_already = in_system(&path)
            || mounts
                .iter()
                .chain(system)
                .any(|mount| path.starts_with(mount.at()) && path != mount.at());
        let linked_already = mounts.iter().chain(system).any(|mount| mount.at() == path);
        if !shown_already && !linked_already {
            mounts.push(Mount::Symlink {
                target: real,
                at: path,
            });
        }
    }
    Ok(mounts)
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
pub(crate) fn reachable_by_others(path: &Path, executable: bool) -> bool {
    path.ancestors()
        .skip(1)
        .all(|folder| fs::metadata(folder).is_ok_and(|metadata| metadata.mode() & 0o001 == 0o001))
        && usable_by_others(path, executable)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn real(path: &Path) -> PathBuf {
        path.canonicalize().unwrap()
    }

    /// The mounts of `view` at `folder` or inside it, in order.
    fn mounts_under<'a>(view: &'a View, folder: &Path) -> Vec<&'a Mount> {
        view.mounts
            .iter()
            .filter(|mount| mount.at().starts_with(folder))
            .collect()
    }

    #[test]
    fn the_system_part_is_the_system_folders_and_a_few_files_of_etc() {
        let mounts = system();
        let shown: Vec<&Path> = mounts.iter().map(Mount::at).collect();
        assert!(shown.contains(&Path::new("/usr")));
        for mount in &mounts {
            let path = mount.at();
            assert!(
                SYSTEM_FOLDERS.iter().any(|folder| path.starts_with(folder))
                    || path.starts_with("/etc"),
                "{} is not a system path",
                path.display()
            );
            assert!(!path.ends_with("shadow") && !path.ends_with("passwd"));
            assert!(matches!(mount, Mount::Symlink { .. } | Mount::ReadOnly(_)));
        }
        if Path::new("/etc/ld.so.cache").exists() {
            assert!(shown.contains(&Path::new("/etc/ld.so.cache")));
        }
        // A link into the system folders stays a link: no machine path
        // behind it in the run's mount table.
        if let Ok(target) = fs::read_link("/etc/localtime")
            && real(Path::new("/etc/localtime")).starts_with("/usr")
        {
            assert!(mounts.contains(&Mount::Symlink {
                target,
                at: "/etc/localtime".into()
            }));
        }
    }

    #[test]
    fn the_program_and_its_files_are_shown_and_hidden_paths_inside_them_covered() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = real(dir.path());
        let data = dir_path.join("data");
        fs::create_dir(&data).unwrap();
        let script = dir_path.join("sol.sh");
        fs::write(&script, "echo 1\n").unwrap();
        let command = format!("/bin/sh {} {}", script.display(), dir_path.display());
        let program = Program::parse(&command, Path::new("/")).unwrap();
        let view = view(&program, &[], std::slice::from_ref(&data), None).unwrap();
        let named = mounts_under(&view, &dir_path);
        // The folder before the file in it, then the cover.
        assert_eq!(
            named,
            [
                &Mount::ReadOnly(dir_path.clone()),
                &Mount::ReadOnly(script.clone()),
                &Mount::CoverFolder(data.clone()),
            ]
        );
        assert_eq!(view.hidden, [data]);
    }

    #[test]
    fn a_hidden_path_inside_a_system_folder_is_covered_and_one_holding_it_refused() {
        let program = Program::parse("/bin/sh", Path::new("/")).unwrap();
        let Some(doc) = ["/usr/share/doc", "/usr/share", "/usr/lib"]
            .map(PathBuf::from)
            .into_iter()
            .find(|path| path.is_dir())
        else {
            return;
        };
        let view = view(&program, &[], std::slice::from_ref(&doc), None).unwrap();
        let doc = real(&doc);
        assert!(
            view.mounts.contains(&Mount::CoverFolder(doc.clone())),
            "{:?}",
            view.mounts
        );
        assert!(view.hidden.contains(&doc));
        for whole in ["/usr", "/"] {
            assert!(
                matches!(
                    super::view(&program, &[], &[PathBuf::from(whole)], None),
                    Err(SandboxError::HidesShown { .. })
                ),
                "{whole}"
            );
        }
    }

    #[test]
    fn a_program_inside_a_hidden_folder_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("a.sh");
        fs::write(&program, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&program, fs::Permissions::from_mode(0o755)).unwrap();
        let program = Program::parse(program.to_str().unwrap(), Path::new("/")).unwrap();
        assert!(matches!(
            view(&program, &[], &[dir.path().to_owned()], None),
            Err(SandboxError::ExecutableHidden { .. })
        ));
        assert!(matches!(
            view(&program, &[dir.path().join("missing")], &[], None),
            Err(SandboxError::BindMissing(_))
        ));
    }

    #[test]
    fn a_name_through_a_link_shows_what_it_leads_to_as_that_link() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = real(dir.path());
        let code = dir_path.join("code");
        fs::create_dir(&code).unwrap();
        fs::write(code.join("sol.py"), "print(1)\n").unwrap();
        let link = dir_path.join("link");
        std::os::unix::fs::symlink(&code, &link).unwrap();
        let script = format!("/usr/bin/env true {}", link.join("sol.py").display());
        let program = Program::Shell { script };
        let view = view(&program, &[], &[], None).unwrap();
        let named = mounts_under(&view, &dir_path);
        assert_eq!(
            named,
            [
                &Mount::ReadOnly(code.join("sol.py")),
                &Mount::Symlink {
                    target: code.join("sol.py"),
                    at: link.join("sol.py")
                },
            ]
        );
    }

    #[test]
    fn a_path_shown_already_is_shown_once_and_a_link_inside_a_shown_folder_is_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let code = real(dir.path()).join("code");
        fs::create_dir(&code).unwrap();
        let script = code.join("sol.sh");
        fs::write(&script, "echo 1\n").unwrap();
        let link = code.join("link.sh");
        std::os::unix::fs::symlink("sol.sh", &link).unwrap();
        // The script named twice (as an argument and as a bind), the
        // folder it lies in bound too, a link beside it, and a shell the
        // system part shows.
        let command = format!("/bin/sh {} {}", script.display(), link.display());
        let program = Program::parse(&command, Path::new("/")).unwrap();
        let view = view(&program, &[script.clone(), code.clone()], &[], None).unwrap();
        // No second bind of the script, and no link made where the bound
        // folder shows the machine's own.
        assert_eq!(
            mounts_under(&view, &code),
            [&Mount::ReadOnly(code.clone()), &Mount::ReadOnly(script)]
        );
        // The shell is the system part's alone: neither it nor what it
        // leads to is bound or linked again.
        let shell = [PathBuf::from("/bin/sh"), real(Path::new("/bin/sh"))];
        let named = &view.mounts[system().len()..];
        assert!(
            !named
                .iter()
                .any(|mount| shell.iter().any(|path| mount.at() == path)),
            "{named:?}"
        );
    }

    #[test]
    fn a_name_that_leads_to_too_much_is_refused_with_the_reason() {
        // A system folder itself is shown anyway: naming it is not too
        // much (what holds one is: the root, below).
        for folder in SYSTEM_FOLDERS {
            assert_eq!(too_much(Path::new(folder)), None, "{folder}");
        }
        let dir = tempfile::tempdir().unwrap();
        for (target, reason) in [
            ("/", "the whole machine"),
            ("/proc/self", "/proc"),
            ("/sys", "/sys"),
            ("/tmp", "/tmp"),
        ] {
            let link = dir.path().join(target.replace('/', "_"));
            std::os::unix::fs::symlink(target, &link).unwrap();
            for program in [
                Program::Shell {
                    script: format!("ls {}", link.display()),
                },
                Program::parse(&format!("/bin/ls {}", link.display()), Path::new("/")).unwrap(),
            ] {
                match view(&program, &[], &[], None) {
                    Err(error @ SandboxError::ShowsTooMuch { .. }) => {
                        let text = error.to_string();
                        assert!(text.contains(reason), "{text}");
                        assert!(text.contains(&link.display().to_string()), "{text}");
                    }
                    other => panic!("{target}: {other:?}"),
                }
            }
        }
        assert_eq!(too_much(Path::new("/usr/share")), None);
        assert!(too_much(Path::new("/home")).is_none());
        assert!(too_much(Path::new("/dev/shm")).is_some());
    }

    #[test]
    fn for_own_uids_a_file_behind_a_private_folder_is_copied_only_when_named_directly() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = real(dir.path());
        let private = dir_path.join("private");
        fs::create_dir(&private).unwrap();
        let file = private.join("a.out");
        fs::write(&file, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o700)).unwrap();
        fs::set_permissions(&dir_path, fs::Permissions::from_mode(0o755)).unwrap();
        if !dir_path
            .ancestors()
            .skip(1)
            .all(|folder| fs::metadata(folder).unwrap().mode() & 0o001 != 0)
        {
            return;
        }
        let mut copies = Copies::default();
        let direct = Program::parse(file.to_str().unwrap(), Path::new("/")).unwrap();
        let shown = view(&direct, &[], &[], Some(&mut copies)).unwrap();
        assert!(shown.mounts.contains(&Mount::Copy {
            index: 0,
            at: file.clone()
        }));
        // Each file named gets its copy, once however often it is named.
        let other = private.join("data");
        fs::write(&other, "x").unwrap();
        fs::set_permissions(&other, fs::Permissions::from_mode(0o644)).unwrap();
        let mut both = Copies::default();
        let command = format!("{} {} {}", file.display(), other.display(), file.display());
        let named = Program::parse(&command, Path::new("/")).unwrap();
        let shown = view(&named, &[], &[], Some(&mut both)).unwrap();
        let copied: Vec<&Mount> = shown
            .mounts
            .iter()
            .filter(|mount| matches!(mount, Mount::Copy { .. }))
            .collect();
        assert_eq!(
            copied,
            [
                &Mount::Copy {
                    index: 0,
                    at: file.clone()
                },
                &Mount::Copy {
                    index: 1,
                    at: other.clone()
                }
            ]
        );
        assert_eq!(both.len(), 2);
        let link = dir_path.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let through = Program::Shell {
            script: format!("/bin/sh {}", link.display()),
        };
        match view(&through, &[], &[], Some(&mut copies)) {
            Err(SandboxError::ThroughLink { path, real }) => {
                assert_eq!((path, real), (link, file));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_execute_only_program_is_shown_to_own_uids_but_an_execute_only_argument_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = real(dir.path());
        fs::set_permissions(&dir_path, fs::Permissions::from_mode(0o755)).unwrap();
        if !reachable_by_others(&dir_path, false) {
            // A temporary folder inside one others cannot search.
            eprintln!("skipped: {} is out of others' reach", dir_path.display());
            return;
        }
        let (program, argument) = (dir_path.join("a.out"), dir_path.join("data"));
        for file in [&program, &argument] {
            fs::write(file, "#!/bin/sh\n").unwrap();
            fs::set_permissions(file, fs::Permissions::from_mode(0o711)).unwrap();
        }
        // The first path a command names is the program: others may run it
        // without reading it, so it is shown as it is, not copied.
        let mut copies = Copies::default();
        let run = Program::parse(program.to_str().unwrap(), Path::new("/")).unwrap();
        let shown = view(&run, &[], &[], Some(&mut copies)).unwrap();
        assert_eq!(copies.len(), 0);
        assert!(
            shown
                .mounts
                .iter()
                .all(|mount| !matches!(mount, Mount::Copy { .. }))
        );
        // A file it names after is read, which others may not do.
        let command = format!("{} {}", program.display(), argument.display());
        let with_argument = Program::parse(&command, Path::new("/")).unwrap();
        match view(&with_argument, &[], &[], Some(&mut copies)) {
            Err(SandboxError::Unreachable(path)) => assert_eq!(path, argument),
            other => panic!("{other:?}"),
        }
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

    #[test]
    fn lexical_normalization_takes_dots_away_by_words_alone() {
        assert_eq!(
            lexically_normal(Path::new("/a/./b/../c")),
            Path::new("/a/c")
        );
        assert_eq!(lexically_normal(Path::new("/../x")), Path::new("/x"));
    }
}
