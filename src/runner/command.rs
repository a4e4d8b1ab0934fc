//! The program under test, from its command line: run directly when the
//! command is a program and its arguments, through `sh -c` when it needs a
//! shell.
//!
//! # Why not always `sh -c`
//!
//! A shell between the runner and the program hides how the program ended:
//! dash (Debian's `sh`) does not `exec` the last command of `sh -c`, so a
//! program killed by `SIGSEGV` shows as the shell's exit status 139. A
//! command made only of words, whose first word names an executable file,
//! needs no shell, so it is run directly and its end is seen as it is. Any
//! other command (pipes, `;`, redirections, `$`, globs, a shell built-in
//! such as `exit`) is a script and runs under `sh -c`; its status is the
//! shell's, where a signal N that kills the last command shows as 128 + N.
//!
//! # Paths
//!
//! Each run starts in a fresh, empty work directory, so a path relative to
//! the caller's directory would name nothing there. [`Program::parse`]
//! therefore resolves the words of a direct command against the caller's
//! directory: the program (`./a.out`, `build/sol`, or a name found on
//! `PATH`) becomes an absolute path, and so does every argument that names
//! an existing file or directory there (`python3 sol.py`). A script is
//! given to the shell as it is: its relative paths are relative to the
//! work directory.
//!
//! # Environment
//!
//! A program gets a judge's environment, not the caller's: only the
//! variables of [`PASSED_ENVIRONMENT`] (the search path, home, user,
//! locale and time zone), and `TMPDIR`, its work directory. Whatever else
//! the caller has, such as the tokens and secrets of a CI job, stays out
//! of its reach (DOMjudge's runguard passes little more than `PATH`). A
//! program that needs a variable can be given it on its command line:
//! `env NAME=VALUE ./a.out`.

use std::ffi::OsString;
use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The shell that runs scripts.
pub const SHELL: &str = "/bin/sh";

/// The caller's variables a program gets, besides the locale's `LC_*`.
pub const PASSED_ENVIRONMENT: &[&str] =
    &["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ"];

/// The environment a program starts with (before `TMPDIR` is set): the
/// caller's variables named in [`PASSED_ENVIRONMENT`] or starting with
/// `LC_`.
pub(crate) fn passed_environment() -> Vec<(OsString, OsString)> {
    std::env::vars_os()
        .filter(|(name, _)| {
            name.to_str()
                .is_some_and(|name| PASSED_ENVIRONMENT.contains(&name) || name.starts_with("LC_"))
        })
        .collect()
}

/// How a program is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// An executable file and its arguments, run without a shell.
    Direct {
        /// The executable, as an absolute path.
        path: PathBuf,
        /// Its arguments, those naming existing paths made absolute.
        args: Vec<String>,
    },
    /// A script for `sh -c`.
    Shell {
        /// The command line as given.
        script: String,
    },
}

/// A command line that names no program that can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The command is empty, or only blanks.
    #[error("the command is empty")]
    Empty,
    /// The program's path names nothing.
    #[error("{path}: no such file")]
    NotFound {
        /// The path, as resolved.
        path: PathBuf,
    },
    /// The program's path names something that is not an executable file.
    #[error("{path}: not an executable file")]
    NotExecutable {
        /// The path, as resolved.
        path: PathBuf,
    },
}

impl Program {
    /// The program a command line names, its paths resolved against
    /// `caller_dir`; see the [module docs](self).
    ///
    /// # Errors
    ///
    /// When the command is empty, or its first word is a path (it holds a
    /// `/`) that names no executable file.
    pub fn parse(command: &str, caller_dir: &Path) -> Result<Program, ProgramError> {
        if command.trim().is_empty() {
            return Err(ProgramError::Empty);
        }
        let script = || Program::Shell {
            script: command.to_owned(),
        };
        let Some(words) = plain_words(command) else {
            return Ok(script());
        };
        let (first, rest) = words.split_first().ok_or(ProgramError::Empty)?;
        if first.assignment {
            return Ok(script());
        }
        let path = if first.text.contains('/') {
            let path = caller_dir.join(&first.text);
            if !path.exists() {
                return Err(ProgramError::NotFound { path });
            }
            if !is_executable_file(&path) {
                return Err(ProgramError::NotExecutable { path });
            }
            clean(&path)
        } else {
            match find_on_path(&first.text, caller_dir) {
                Some(path) => path,
                // Perhaps a shell built-in or keyword; the shell will say
                // "not found" otherwise.
                None => return Ok(script()),
            }
        };
        let args = rest
            .iter()
            .map(|word| resolve_argument(&word.text, caller_dir))
            .collect();
        Ok(Program::Direct { path, args })
    }

    /// The argument vector that starts the program: the executable first.
    pub fn argv(&self) -> Vec<OsString> {
        match self {
            Program::Direct { path, args } => std::iter::once(path.clone().into_os_string())
                .chain(args.iter().map(OsString::from))
                .collect(),
            Program::Shell { script } => vec![SHELL.into(), "-c".into(), script.into()],
        }
    }

    /// The executable that is started: the program, or the shell.
    pub fn executable(&self) -> &Path {
        match self {
            Program::Direct { path, .. } => path,
            Program::Shell { .. } => Path::new(SHELL),
        }
    }

    /// The files and folders the program needs to see in a sandbox, each
    /// where the command names it: the executable first, then every
    /// argument naming an existing path (a direct command), or every word
    /// of a script that is an absolute path to an existing file or folder.
    /// Never `/` or `/tmp` themselves, nor anything in `/dev`, `/proc` or
    /// `/sys`, which a sandbox has its own of or none of (its `/tmp` is the
    /// work folder). A path is given as named: the sandbox resolves it.
    pub fn exposed(&self) -> Vec<PathBuf> {
        let named: Vec<PathBuf> = match self {
            Program::Direct { args, .. } => args
                .iter()
                .filter(|arg| arg.starts_with('/'))
                .map(PathBuf::from)
                .collect(),
            Program::Shell { script } => script
                .split(|c: char| !(c.is_ascii_alphanumeric() || "_./,:@%+-".contains(c)))
                .filter(|word| word.starts_with('/'))
                .map(PathBuf::from)
                .collect(),
        };
        let mut exposed = vec![self.executable().to_owned()];
        for path in named {
            let own_to_a_sandbox = path == Path::new("/")
                || path == Path::new("/tmp")
                || path.starts_with("/dev")
                || path.starts_with("/proc")
                || path.starts_with("/sys");
            if !own_to_a_sandbox && path.exists() && !exposed.contains(&path) {
                exposed.push(path);
            }
        }
        exposed
    }

    /// Whether a shell runs the command (and so reports a signal that kills
    /// its last command as an exit status of 128 + N).
    pub fn is_script(&self) -> bool {
        matches!(self, Program::Shell { .. })
    }
}

impl fmt::Display for Program {
    /// The command as it runs: the absolute program and its arguments, or
    /// the script.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Program::Direct { path, args } => {
                write!(f, "{}", path.display())?;
                args.iter().try_for_each(|arg| write!(f, " {arg}"))
            }
            Program::Shell { script } => f.write_str(script),
        }
    }
}

/// One word of a command without shell syntax.
#[derive(Debug)]
struct Word {
    /// The word with its quotes removed.
    text: String,
    /// Whether it has an unquoted `=`, which makes a first word an
    /// assignment rather than a command.
    assignment: bool,
}

/// The words of `command` when it has no shell syntax: blanks between
/// words, and in a word only letters, digits, `_./,:@%+-=`, text in single
/// quotes, and text in double quotes without `$`, `` ` ``, `\` or `!`.
/// `None` when anything else occurs.
fn plain_words(command: &str) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut chars = command.chars().peekable();
    loop {
        while chars.next_if(|&c| c == ' ' || c == '\t').is_some() {}
        if chars.peek().is_none() {
            return Some(words);
        }
        let mut word = Word {
            text: String::new(),
            assignment: false,
        };
        while let Some(c) = chars.next_if(|&c| c != ' ' && c != '\t') {
            match c {
                '\'' => loop {
                    match chars.next()? {
                        '\'' => break,
                        inner => word.text.push(inner),
                    }
                },
                '"' => loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' | '!' => return None,
                        inner => word.text.push(inner),
                    }
                },
                '=' => {
                    word.assignment = true;
                    word.text.push(c);
                }
                c if c.is_ascii_alphanumeric() || "_./,:@%+-".contains(c) => word.text.push(c),
                _ => return None,
            }
        }
        words.push(word);
    }
}

/// `path` with the folders leading to it resolved (links, `.` and `..`),
/// its own name kept (a link's name, such as `python3`, may matter to the
/// program); as it is where that fails.
fn clean(path: &Path) -> PathBuf {
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => parent
            .canonicalize()
            .map_or_else(|_| path.to_owned(), |parent| parent.join(name)),
        _ => path.to_owned(),
    }
}

fn is_executable_file(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// `name` looked up on `PATH` (relative entries taken from `caller_dir`),
/// as the shell would look it up.
fn find_on_path(name: &str, caller_dir: &Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| caller_dir.join(dir).join(name))
        .find(|candidate| is_executable_file(candidate))
}

/// An argument naming an existing path relative to `caller_dir`, made
/// absolute; any other argument as it is.
fn resolve_argument(word: &str, caller_dir: &Path) -> String {
    let relative = Path::new(word);
    if word.starts_with('-') || relative.is_absolute() {
        return word.to_owned();
    }
    let resolved = caller_dir.join(relative);
    if !resolved.exists() {
        return word.to_owned();
    }
    let resolved = resolved.canonicalize().unwrap_or(resolved);
    match resolved.to_str() {
        Some(text) => text.to_owned(),
        None => word.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(command: &str, dir: &Path) -> Program {
        Program::parse(command, dir).unwrap()
    }

    #[test]
    fn a_program_and_its_arguments_run_directly_with_paths_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("sol");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.path().join("sol.py"), "").unwrap();
        let real = dir.path().canonicalize().unwrap();
        let direct = parse("./sol --fast 'two words' sol.py missing.py .", dir.path());
        assert_eq!(
            direct,
            Program::Direct {
                path: real.join("sol"),
                args: vec![
                    "--fast".into(),
                    "two words".into(),
                    real.join("sol.py").to_str().unwrap().into(),
                    "missing.py".into(),
                    real.to_str().unwrap().into(),
                ],
            }
        );
        assert_eq!(
            direct.exposed(),
            [real.join("sol"), real.join("sol.py"), real.clone()]
        );
        match parse("sh -c true", dir.path()) {
            Program::Direct { path, .. } => assert!(path.is_absolute() && path.ends_with("sh")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shell_syntax_and_built_ins_go_to_the_shell() {
        let dir = Path::new("/");
        for script in [
            "a | b",
            "cat; exit 3",
            "true > out",
            "X=1 true",
            "echo $HOME",
            "ls *",
            "exit 3",
            "cd /tmp",
            "echo \"$x\"",
            "~/sol",
            "echo 'unterminated",
        ] {
            assert_eq!(
                parse(script, dir),
                Program::Shell {
                    script: script.into()
                },
                "{script}"
            );
        }
    }

    #[test]
    fn a_path_that_names_no_executable_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("data.txt"), "").unwrap();
        assert_eq!(
            Program::parse("./a.outt", dir.path()),
            Err(ProgramError::NotFound {
                path: dir.path().join("./a.outt")
            })
        );
        assert_eq!(
            Program::parse("./data.txt", dir.path()),
            Err(ProgramError::NotExecutable {
                path: dir.path().join("./data.txt")
            })
        );
        assert_eq!(Program::parse("  ", dir.path()), Err(ProgramError::Empty));
    }

    #[test]
    fn the_argument_vector_starts_with_the_executable() {
        let script = Program::Shell {
            script: "a | b".into(),
        };
        assert_eq!(script.argv(), ["/bin/sh", "-c", "a | b"]);
        assert_eq!(script.executable(), Path::new(SHELL));
        assert!(script.is_script());
        assert!(!parse("/bin/sh -c true", Path::new("/")).is_script());
    }

    #[test]
    fn quotes_without_expansions_and_a_later_equals_sign_make_plain_words() {
        let echo = parse("/bin/echo \"two words\" 'and more' a=b", Path::new("/"));
        match &echo {
            Program::Direct { args, .. } => assert_eq!(args, &["two words", "and more", "a=b"]),
            other => panic!("{other:?}"),
        }
        assert!(
            echo.to_string().ends_with("echo two words and more a=b"),
            "{echo}"
        );
        let script = "echo $HOME";
        assert_eq!(parse(script, Path::new("/")).to_string(), script);
    }

    #[test]
    fn the_folders_to_a_program_are_resolved_and_options_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().canonicalize().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let program = dir.path().join("sol");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        // A file named like an option: the option is still an option.
        std::fs::write(dir.path().join("-v"), "").unwrap();
        assert_eq!(
            parse("./sub/../sol -v", dir.path()),
            Program::Direct {
                path: real.join("sol"),
                args: vec!["-v".into()],
            }
        );
    }

    #[test]
    fn only_the_named_variables_and_the_locale_are_passed_on() {
        let passed = passed_environment();
        for (name, _) in &passed {
            let name = name.to_str().unwrap();
            assert!(
                PASSED_ENVIRONMENT.contains(&name) || name.starts_with("LC_"),
                "{name}"
            );
        }
        let path = std::env::var_os("PATH").expect("tests run with a PATH");
        assert!(passed.contains(&("PATH".into(), path)));
    }

    #[test]
    fn a_script_shows_the_absolute_paths_it_names_that_exist() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("tool");
        std::fs::write(&tool, "").unwrap();
        let script = Program::Shell {
            script: format!(
                "{} solve </dev/null | sed 's/DH/HD/' >/proc/self/fd/1; cat /nowhere; ls / /tmp",
                tool.display()
            ),
        };
        assert_eq!(script.exposed(), [PathBuf::from(SHELL), tool]);
    }
}
