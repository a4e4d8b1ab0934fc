//! Why an interpreter that works in a terminal fails in the sandbox, and
//! the one flag or command that fixes it.
//!
//! The sandbox shows the system folders and the program, not the home
//! folder. Two kinds of interpreter live elsewhere:
//!
//! - a version manager's **shim** (pyenv, asdf, rbenv, nodenv, goenv,
//!   jenv, mise: `~/.pyenv/shims/python3`), a small script that finds the
//!   real interpreter in the manager's folder: in the sandbox, the manager
//!   is not there, and every run ends with status 127. The real
//!   interpreter is what `MANAGER which NAME` prints.
//! - an interpreter **installed under a prefix** of its own outside the
//!   system folders (nvm, conda, uv, sdkman, GitHub's setup-python in
//!   `/opt/hostedtoolcache`): the executable is shown, but not the
//!   libraries beside it (`PREFIX/lib`).
//!
//! Either way the fix is to name the real interpreter and show its prefix
//! (`--sandbox-bind PREFIX`); where the runs' unprivileged uids cannot read
//! the prefix (a root judge, a home folder of mode 0700), to use a system
//! interpreter or install one where others may read. [`diagnose`] says
//! which, in one line, without starting the program.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rotation_game::runner::Program;
use rotation_game::runner::sandbox::filesystem::in_system;

/// The version managers whose shims live in `ROOT/shims`, by the name of
/// `ROOT` (without its leading dot), with the command that prints the real
/// interpreter.
const MANAGERS: &[&str] = &["pyenv", "asdf", "rbenv", "nodenv", "goenv", "jenv", "mise"];

/// What stands between `program` and a sandboxed run, and how to fix it;
/// `None` when its executable is a system one, or shown with its prefix
/// by `binds` already.
pub fn diagnose(program: &Program, binds: &[PathBuf], runs_as_root: bool) -> Option<String> {
    let executable = program.executable();
    if is_system(executable) {
        return None;
    }
    let name = executable.file_name()?.to_string_lossy().into_owned();
    let shim = shim_manager(executable);
    let real = match &shim {
        Some(manager) => which(manager.as_str(), &name),
        None => Some(executable.canonicalize().ok()?),
    };
    let prefix = real.as_deref().and_then(prefix_of);
    if shim.is_none() {
        let prefix = prefix.as_deref()?;
        if binds.iter().any(|bind| prefix.starts_with(bind)) {
            return None;
        }
    }
    let what = match &shim {
        Some(manager) => format!(
            "{} is {manager}'s shim, which finds the real interpreter in {manager}'s folder, not shown in the sandbox",
            executable.display()
        ),
        None => format!(
            "{} is installed under {}, whose libraries the sandbox does not show",
            executable.display(),
            prefix.as_deref()?.display()
        ),
    };
    let (Some(real), Some(prefix)) = (real, prefix) else {
        return Some(format!(
            "{what}: name the interpreter itself in --program (`{} which {name}` says where it is)",
            shim.unwrap_or_default()
        ));
    };
    if runs_as_root && !others_may_read(&prefix) {
        return Some(format!(
            "{what}; its interpreter {} cannot be shown either: the runs' unprivileged uids cannot read {}. Use a system interpreter (such as /usr/bin/{name}), or install one where others may read",
            real.display(),
            prefix.display()
        ));
    }
    Some(format!(
        "{what}: name the real interpreter and show its folder: --program '{} …' --sandbox-bind {}",
        real.display(),
        prefix.display()
    ))
}

/// Whether `path` is in the system folders every sandbox shows: an
/// interpreter there needs nothing else.
fn is_system(path: &Path) -> bool {
    in_system(&path.canonicalize().unwrap_or_else(|_| path.to_owned()))
}

/// The version manager whose shim `executable` is, from the folder it is
/// in (`~/.pyenv/shims/python3` → pyenv).
fn shim_manager(executable: &Path) -> Option<String> {
    let shims = executable.parent()?;
    if shims.file_name()? != "shims" {
        return None;
    }
    let root = shims.parent()?.file_name()?.to_string_lossy();
    let manager = root.trim_start_matches('.');
    MANAGERS.contains(&manager).then(|| manager.to_owned())
}

/// What `MANAGER which NAME` prints (`manager` found on the `PATH`, or a
/// path): the real interpreter, if it exists.
fn which(manager: impl AsRef<std::ffi::OsStr>, name: &str) -> Option<PathBuf> {
    let output = Command::new(manager)
        .args(["which", name])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let path = PathBuf::from(text.lines().next()?.trim());
    (output.status.success() && path.is_absolute())
        .then(|| path.canonicalize().ok())
        .flatten()
}

/// The installation prefix of an interpreter at `PREFIX/bin/NAME` that
/// has a `PREFIX/lib` beside its `bin`; `None` for one that stands alone.
fn prefix_of(real: &Path) -> Option<PathBuf> {
    let bin = real.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let prefix = bin.parent()?;
    prefix.join("lib").is_dir().then(|| prefix.to_owned())
}

/// Whether anyone may reach `path`: every folder on the way enterable by
/// others, and `path` readable by them.
fn others_may_read(path: &Path) -> bool {
    path.ancestors().all(|folder| {
        std::fs::metadata(folder).is_ok_and(|meta| meta.permissions().mode() & 0o005 == 0o005)
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn executable(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "#!/bin/sh\n").unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn direct(path: &Path) -> Program {
        Program::parse(&format!("{} sol.py", path.display()), Path::new("/")).unwrap()
    }

    #[test]
    fn the_real_interpreter_is_the_absolute_path_a_manager_prints_when_it_succeeds() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("versions/3.12/bin/python3");
        executable(&real);
        let real = real.canonicalize().unwrap();
        let manager = |name: &str, body: &str| {
            let path = dir.path().join(name);
            fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
            path
        };
        let found = manager("pyenv", &format!("echo {}", real.display()));
        assert_eq!(which(&found, "python3"), Some(real.clone()));
        let failing = manager("failing", &format!("echo {}; exit 1", real.display()));
        assert_eq!(which(&failing, "python3"), None);
        let relative = manager("relative", "echo bin/python3");
        assert_eq!(which(&relative, "python3"), None);
        let missing = manager("missing", "echo /no/such/python3");
        assert_eq!(which(&missing, "python3"), None);
        assert_eq!(which(dir.path().join("no-manager"), "python3"), None);
    }

    #[test]
    fn others_may_read_a_path_only_through_folders_they_may_enter() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("prefix");
        fs::create_dir(&inner).unwrap();
        let mode = |path: &Path, mode| {
            fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
        };
        mode(dir.path(), 0o755);
        mode(&inner, 0o755);
        assert!(others_may_read(&inner));
        for closed in [0o750, 0o751, 0o754, 0o700] {
            mode(&inner, closed);
            assert!(!others_may_read(&inner), "{closed:o}");
        }
        mode(&inner, 0o755);
        mode(dir.path(), 0o700);
        assert!(!others_may_read(&inner), "a parent others cannot enter");
        assert!(!others_may_read(&dir.path().join("missing")));
    }

    #[test]
    fn a_system_interpreter_needs_nothing() {
        let sh = Program::parse("/bin/sh -c true", Path::new("/")).unwrap();
        assert_eq!(diagnose(&sh, &[], true), None);
    }

    #[test]
    fn a_shim_is_named_with_its_manager() {
        let dir = tempfile::tempdir().unwrap();
        let shim = dir.path().join(".pyenv/shims/python3");
        executable(&shim);
        assert_eq!(shim_manager(&shim).as_deref(), Some("pyenv"));
        let said = diagnose(&direct(&shim), &[], false).unwrap();
        assert!(said.contains("is pyenv's shim"), "{said}");
        let other = dir.path().join("tools/shims/python3");
        executable(&other);
        assert_eq!(shim_manager(&other), None);
    }

    #[test]
    fn an_interpreter_under_a_prefix_is_shown_with_it_or_named_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let prefix = dir.path().join("node-v20");
        let node = prefix.join("bin/node");
        executable(&node);
        fs::create_dir_all(prefix.join("lib")).unwrap();
        let prefix = prefix.canonicalize().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let said = diagnose(&direct(&node), &[], false).unwrap();
        assert!(
            said.ends_with(&format!("--sandbox-bind {}", prefix.display())),
            "{said}"
        );
        // Shown already: nothing to say.
        assert_eq!(
            diagnose(&direct(&node), std::slice::from_ref(&prefix), false),
            None
        );
        // A folder only its owner may enter: runs as the caller reach it
        // through the bind, runs with other uids do not.
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        let said = diagnose(&direct(&node), &[], false).unwrap();
        assert!(
            said.ends_with(&format!("--sandbox-bind {}", prefix.display())),
            "{said}"
        );
        let said = diagnose(&direct(&node), &[], true).unwrap();
        assert!(said.contains("cannot read"), "{said}");
        assert!(said.contains("/usr/bin/node"), "{said}");
        // A program standing alone (no lib beside its bin) needs nothing.
        let alone = dir.path().join("build/a.out");
        executable(&alone);
        assert_eq!(diagnose(&direct(&alone), &[], true), None);
    }
}
