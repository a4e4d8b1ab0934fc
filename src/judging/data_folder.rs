//! The test files of a folder: a problem package's `data/sample/` and
//! `data/secret/`, or a plain folder of `.in` and `.ans` pairs.
//!
//! # Overview
//!
//! [`DataFolder::find`] lists the test files of a folder in the order a
//! judge runs them, each a [`DataFile`]: an input (`NAME.in`) and the
//! jury's answer beside it (`NAME.ans`).
//!
//! - [`FolderLayout::Kattis`]: a problem package in the Kattis format. The
//!   files of `data/sample/`, then those of `data/secret/`, each folder in
//!   the order of the names, subfolders (test groups) in their place among
//!   the files, as problemtools runs them. A file's name is its path under
//!   `data/` without the extension: `secret/03-tie-break-move-order`.
//! - [`FolderLayout::Plain`]: the `.in` files directly in the folder, in the
//!   order of the names (`01.in`, `02.in`, … as `package --layout plain`
//!   writes them); a file's name is its own, without the extension.
//!
//! [`FolderLayout::detect`] takes a folder with a `data/` folder for a
//! package, any other for a plain folder.
//!
//! # A hostile folder
//!
//! A package may come from anyone. Each test file must be a regular file
//! (a FIFO would block the judge, a device never end) of at most
//! [`MAX_TEST_FILE_BYTES`], checked when the folder is listed and again
//! when the file is read ([`read_test_file`]). A folder link that leads
//! back into a folder being listed is refused. A test file or folder that
//! is a link out of the folder leads to answers elsewhere: what it leads
//! to is hidden from the program too ([`DataFolder::hidden_paths`]), and
//! must be readable by everyone (a package cannot make a judge read, and
//! quote, a file only its owner may). A jury answer with more than one
//! name (a hard link) is refused: its other names could lie anywhere the
//! program is shown, and nothing finds them.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::runner::sandbox::filesystem::reachable_by_others;

/// The largest test file (input or answer) a judge reads: far more than any
/// test of this problem needs (a case takes about 50 bytes).
pub const MAX_TEST_FILE_BYTES: u64 = 256 << 20;

/// How a folder holds its test files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FolderLayout {
    /// A Kattis problem package: `data/sample/` and `data/secret/`.
    Kattis,
    /// `.in` and `.ans` pairs directly in the folder.
    Plain,
}

impl FolderLayout {
    /// [`Kattis`](FolderLayout::Kattis) when `dir` holds a `data` folder,
    /// else [`Plain`](FolderLayout::Plain).
    pub fn detect(dir: &Path) -> FolderLayout {
        if dir.join("data").is_dir() {
            FolderLayout::Kattis
        } else {
            FolderLayout::Plain
        }
    }
}

impl fmt::Display for FolderLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FolderLayout::Kattis => "kattis",
            FolderLayout::Plain => "plain",
        })
    }
}

/// One test file: an input and the jury's answer for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// Its name in reports: its path under `data/` (Kattis) or in the
    /// folder (plain), with `/` between folders and without the extension,
    /// control characters and backslashes escaped (`\u{1b}`, `\n`, `\\`).
    pub name: String,
    /// The input, `NAME.in`.
    pub input: PathBuf,
    /// The jury's answer, `NAME.ans`.
    pub answer: PathBuf,
}

/// The test files of a folder, in the order a judge runs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFolder {
    /// The folder.
    pub dir: PathBuf,
    /// How it holds its files.
    pub layout: FolderLayout,
    /// Its test files, in order; never empty.
    pub files: Vec<DataFile>,
    /// What the links among its test files and folders lead to outside
    /// the folders of [`hidden_paths`](Self::hidden_paths), resolved.
    pub linked_from_outside: Vec<PathBuf>,
}

/// Why a folder's test files cannot be listed.
#[derive(Debug, thiserror::Error)]
pub enum DataFolderError {
    /// The folder, or one of its folders, cannot be listed.
    #[error("cannot read {path}: {source}")]
    Unreadable {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A package without `data/sample/` or `data/secret/`.
    #[error("{0} has neither data/sample nor data/secret: not a problem package")]
    NoDataFolders(PathBuf),
    /// No `.in` file at all.
    #[error("{0} holds no test files (NAME.in with NAME.ans beside it)")]
    NoTestFiles(PathBuf),
    /// An input without its answer.
    #[error("{input} has no jury answer: {answer} is missing")]
    MissingAnswer {
        /// The input.
        input: PathBuf,
        /// The answer it needs.
        answer: PathBuf,
    },
    /// A test file that is not a regular file.
    #[error("{path} is {kind}, not a regular file: a test file must be one")]
    NotAFile {
        /// The file.
        path: PathBuf,
        /// What it is: "a FIFO", "a device" and the like.
        kind: &'static str,
    },
    /// A test file larger than [`MAX_TEST_FILE_BYTES`].
    #[error("{path} holds {bytes} bytes, more than a test file may ({limit})")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, or the bytes read from it (the limit and one more).
        bytes: u64,
        /// The most bytes a test file may hold.
        limit: u64,
    },
    /// A folder link that leads back into a folder being listed.
    #[error("{0} is a link back into a folder it lies in: the test files would never end")]
    LinkLoop(PathBuf),
    /// A jury answer with other names.
    #[error(
        "{path} has {links} names (hard links): another name could lie where the program is shown; give it one name (copy it)"
    )]
    HardLinked {
        /// The answer.
        path: PathBuf,
        /// How many names it has.
        links: u64,
    },
    /// A link out of the folder to something not everyone may read.
    #[error(
        "{path} leads out of the folder to {real}, which not everyone may read: a test file the judge reads for a package must be readable by all"
    )]
    PrivateTarget {
        /// The link.
        path: PathBuf,
        /// Where it leads.
        real: PathBuf,
    },
}

impl DataFolder {
    /// The test files of `dir`, held as `layout` says.
    ///
    /// # Errors
    ///
    /// When a folder cannot be listed, a package has no `data/sample/` nor
    /// `data/secret/`, there is no test file, or an input has no answer.
    pub fn find(dir: &Path, layout: FolderLayout) -> Result<DataFolder, DataFolderError> {
        let mut files = Vec::new();
        let mut listing = Listing::default();
        match layout {
            FolderLayout::Kattis => {
                let data = dir.join("data");
                let groups: Vec<PathBuf> = ["sample", "secret"]
                    .iter()
                    .map(|group| data.join(group))
                    .filter(|group| group.is_dir())
                    .collect();
                if groups.is_empty() {
                    return Err(DataFolderError::NoDataFolders(dir.to_owned()));
                }
                listing.inside = canonical(&data)?;
                for group in groups {
                    collect(&data, &group, true, &mut files, &mut listing)?;
                }
            }
            FolderLayout::Plain => {
                listing.inside = canonical(dir)?;
                collect(dir, dir, false, &mut files, &mut listing)?;
            }
        }
        if files.is_empty() {
            return Err(DataFolderError::NoTestFiles(dir.to_owned()));
        }
        listing.outside.sort();
        listing.outside.dedup();
        Ok(DataFolder {
            dir: dir.to_owned(),
            layout,
            files,
            linked_from_outside: listing.outside,
        })
    }

    /// What the program under test must not see: the folders that hold the
    /// test files and their answers (`data/` of a package, the folder
    /// itself when plain), and what links among them lead to outside them.
    pub fn hidden_paths(&self) -> Vec<PathBuf> {
        let folder = match self.layout {
            FolderLayout::Kattis => self.dir.join("data"),
            FolderLayout::Plain => self.dir.clone(),
        };
        std::iter::once(folder)
            .chain(self.linked_from_outside.iter().cloned())
            .collect()
    }
}

/// A file's name as reports show it: control characters (escape codes, new
/// lines) and backslashes escaped, so that a name from a hostile package
/// can neither draw on a terminal nor forge a line of the text report.
fn report_name(raw: &str) -> String {
    let mut name = String::with_capacity(raw.len());
    for c in raw.chars() {
        if c.is_control() || c == '\\' {
            name.extend(c.escape_default());
        } else {
            name.push(c);
        }
    }
    name
}

/// What a listing keeps track of besides the files.
#[derive(Default)]
struct Listing {
    /// The folder whose test files are listed, resolved.
    inside: PathBuf,
    /// The folders being listed, resolved, from the top down.
    open: Vec<PathBuf>,
    /// What links lead to outside `inside`, resolved.
    outside: Vec<PathBuf>,
}

impl Listing {
    /// Notes where `path` (a test file or folder) really is, when that is
    /// outside the folder listed, which everyone must be able to read.
    fn note(&mut self, path: &Path) -> Result<PathBuf, DataFolderError> {
        let real = canonical(path)?;
        if !real.starts_with(&self.inside) {
            if !reachable_by_others(&real, false) {
                return Err(DataFolderError::PrivateTarget {
                    path: path.to_owned(),
                    real,
                });
            }
            self.outside.push(real.clone());
        }
        Ok(real)
    }
}

fn canonical(path: &Path) -> Result<PathBuf, DataFolderError> {
    path.canonicalize()
        .map_err(|source| DataFolderError::Unreadable {
            path: path.to_owned(),
            source,
        })
}

/// What a file that is not a regular file is, in words.
fn kind_of(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() || file_type.is_block_device() {
        "a device"
    } else if file_type.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Checks that `path` (links followed) is a regular file of at most
/// `limit` bytes.
fn check_test_file(
    path: &Path,
    metadata: &fs::Metadata,
    limit: u64,
) -> Result<(), DataFolderError> {
    if !metadata.is_file() {
        return Err(DataFolderError::NotAFile {
            path: path.to_owned(),
            kind: kind_of(metadata.file_type()),
        });
    }
    if metadata.len() > limit {
        return Err(DataFolderError::TooLarge {
            path: path.to_owned(),
            bytes: metadata.len(),
            limit,
        });
    }
    Ok(())
}

/// The bytes of the test file `path`, checked as it is opened: a regular
/// file (opened without blocking, so a FIFO put there since the listing
/// blocks nothing) of at most [`MAX_TEST_FILE_BYTES`].
///
/// # Errors
///
/// When it cannot be read, is not a regular file, or is too large; the
/// message names the file.
pub fn read_test_file(path: &Path) -> io::Result<Vec<u8>> {
    read_at_most(path, MAX_TEST_FILE_BYTES)
}

/// [`read_test_file`] with a limit of `limit` bytes. The limit is checked
/// twice: on the file's size when it is opened, and on the bytes read, since
/// a file can grow in between, or hold more than its size says (as the
/// files of `/proc` do).
fn read_at_most(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let cannot = |error: io::Error| {
        io::Error::new(
            error.kind(),
            format!("cannot read {}: {error}", path.display()),
        )
    };
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(cannot)?;
    let metadata = file.metadata().map_err(cannot)?;
    check_test_file(path, &metadata, limit).map_err(|error| io::Error::other(error.to_string()))?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::other(
            DataFolderError::TooLarge {
                path: path.to_owned(),
                bytes: bytes.len() as u64,
                limit,
            }
            .to_string(),
        ));
    }
    Ok(bytes)
}

/// Adds the test files of `folder` to `files`, in the order of their names,
/// going into subfolders when `deep`; names are relative to `base`.
fn collect(
    base: &Path,
    folder: &Path,
    deep: bool,
    files: &mut Vec<DataFile>,
    listing: &mut Listing,
) -> Result<(), DataFolderError> {
    let real = listing.note(folder)?;
    if listing.open.contains(&real) {
        return Err(DataFolderError::LinkLoop(folder.to_owned()));
    }
    listing.open.push(real);
    let listed = collect_open(base, folder, deep, files, listing);
    listing.open.pop();
    listed
}

/// [`collect`] of a folder whose place is noted.
fn collect_open(
    base: &Path,
    folder: &Path,
    deep: bool,
    files: &mut Vec<DataFile>,
    listing: &mut Listing,
) -> Result<(), DataFolderError> {
    let unreadable = |source| DataFolderError::Unreadable {
        path: folder.to_owned(),
        source,
    };
    let mut entries: Vec<PathBuf> = fs::read_dir(folder)
        .map_err(unreadable)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()
        .map_err(unreadable)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if deep {
                collect(base, &path, deep, files, listing)?;
            }
            continue;
        }
        if path.extension().is_none_or(|extension| extension != "in") {
            continue;
        }
        files.push(test_file(base, path, listing)?);
    }
    Ok(())
}

/// The test file of the input `path` (its answer beside it, both checked),
/// named relative to `base`.
fn test_file(
    base: &Path,
    path: PathBuf,
    listing: &mut Listing,
) -> Result<DataFile, DataFolderError> {
    let answer = path.with_extension("ans");
    if fs::symlink_metadata(&answer).is_err() {
        return Err(DataFolderError::MissingAnswer {
            input: path,
            answer,
        });
    }
    for file in [&path, &answer] {
        let metadata = fs::metadata(file).map_err(|source| DataFolderError::Unreadable {
            path: file.clone(),
            source,
        })?;
        check_test_file(file, &metadata, MAX_TEST_FILE_BYTES)?;
        if file == &answer && metadata.nlink() > 1 {
            return Err(DataFolderError::HardLinked {
                path: file.clone(),
                links: metadata.nlink(),
            });
        }
        listing.note(file)?;
    }
    let name = report_name(
        &path
            .with_extension("")
            .strip_prefix(base)
            .expect("a file under its base")
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
    );
    Ok(DataFile {
        name,
        input: path,
        answer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "").unwrap();
    }

    fn names(folder: &DataFolder) -> Vec<&str> {
        folder.files.iter().map(|file| file.name.as_str()).collect()
    }

    #[test]
    fn a_package_lists_the_sample_then_the_secret_files_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in [
            "data/secret/02-b.in",
            "data/secret/02-b.ans",
            "data/secret/01-a.in",
            "data/secret/01-a.ans",
            "data/secret/01-group/x.in",
            "data/secret/01-group/x.ans",
            "data/sample/s.in",
            "data/sample/s.ans",
            "data/README.md",
            "problem.yaml",
        ] {
            touch(&root.join(name));
        }
        assert_eq!(FolderLayout::detect(root), FolderLayout::Kattis);
        let folder = DataFolder::find(root, FolderLayout::Kattis).unwrap();
        assert_eq!(
            names(&folder),
            [
                "sample/s",
                "secret/01-a",
                "secret/01-group/x",
                "secret/02-b"
            ]
        );
        assert_eq!(folder.files[1].answer, root.join("data/secret/01-a.ans"));
        assert_eq!(folder.hidden_paths(), [root.join("data")]);
    }

    #[test]
    fn a_plain_folder_lists_its_own_pairs_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for name in [
            "10.in",
            "10.ans",
            "02.in",
            "02.ans",
            "README.md",
            "sub/03.in",
        ] {
            touch(&root.join(name));
        }
        assert_eq!(FolderLayout::detect(root), FolderLayout::Plain);
        let folder = DataFolder::find(root, FolderLayout::Plain).unwrap();
        assert_eq!(names(&folder), ["02", "10"]);
        assert_eq!(folder.hidden_paths(), [root.to_owned()]);
    }

    #[test]
    fn a_missing_answer_an_empty_folder_and_a_package_without_data_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert!(matches!(
            DataFolder::find(root, FolderLayout::Plain),
            Err(DataFolderError::NoTestFiles(_))
        ));
        assert!(matches!(
            DataFolder::find(root, FolderLayout::Kattis),
            Err(DataFolderError::NoDataFolders(_))
        ));
        touch(&root.join("1.in"));
        let error = DataFolder::find(root, FolderLayout::Plain).unwrap_err();
        assert!(error.to_string().contains("1.ans is missing"), "{error}");
        assert!(matches!(
            DataFolder::find(&root.join("none"), FolderLayout::Plain),
            Err(DataFolderError::Unreadable { .. })
        ));
    }

    #[test]
    fn a_fifo_a_device_a_huge_file_and_a_link_loop_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(&root.join("1.ans"));
        let fifo = std::ffi::CString::new(root.join("1.in").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let error = DataFolder::find(root, FolderLayout::Plain).unwrap_err();
        assert!(
            matches!(error, DataFolderError::NotAFile { kind: "a FIFO", .. }),
            "{error}"
        );
        assert!(
            read_test_file(&root.join("1.in")).is_err(),
            "no block on a FIFO"
        );
        fs::remove_file(root.join("1.in")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join("1.in")).unwrap();
        let error = DataFolder::find(root, FolderLayout::Plain).unwrap_err();
        assert!(error.to_string().contains("is a device"), "{error}");
        assert!(read_test_file(&root.join("1.in")).is_err());
        fs::remove_file(root.join("1.in")).unwrap();
        let huge = fs::File::create(root.join("1.in")).unwrap();
        huge.set_len(10 << 30).unwrap();
        let error = DataFolder::find(root, FolderLayout::Plain).unwrap_err();
        assert!(matches!(error, DataFolderError::TooLarge { .. }), "{error}");
        assert!(read_test_file(&root.join("1.in")).is_err());
        let package = root.join("package");
        touch(&package.join("data/secret/a.in"));
        touch(&package.join("data/secret/a.ans"));
        std::os::unix::fs::symlink("..", package.join("data/secret/loop")).unwrap();
        let error = DataFolder::find(&package, FolderLayout::Kattis).unwrap_err();
        assert!(matches!(error, DataFolderError::LinkLoop(_)), "{error}");
    }

    #[test]
    fn what_links_lead_to_outside_the_folder_is_hidden_too() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let elsewhere = root.join("elsewhere");
        touch(&elsewhere.join("answers/1.ans"));
        touch(&elsewhere.join("group/2.in"));
        touch(&elsewhere.join("group/2.ans"));
        let package = root.join("package");
        touch(&package.join("data/secret/1.in"));
        std::os::unix::fs::symlink(
            elsewhere.join("answers/1.ans"),
            package.join("data/secret/1.ans"),
        )
        .unwrap();
        std::os::unix::fs::symlink(elsewhere.join("group"), package.join("data/secret/g")).unwrap();
        let folder = DataFolder::find(&package, FolderLayout::Kattis).unwrap();
        assert_eq!(names(&folder), ["secret/1", "secret/g/2"]);
        assert_eq!(
            folder.hidden_paths(),
            [
                package.join("data"),
                elsewhere.join("answers/1.ans"),
                elsewhere.join("group"),
                elsewhere.join("group/2.ans"),
                elsewhere.join("group/2.in"),
            ]
        );
        assert_eq!(
            read_test_file(&package.join("data/secret/1.ans")).unwrap(),
            b""
        );
    }

    #[test]
    fn an_answer_with_two_names_and_a_link_to_a_private_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let data = root.join("data");
        touch(&data.join("1.in"));
        touch(&data.join("1.ans"));
        fs::hard_link(data.join("1.ans"), root.join("elsewhere.ans")).unwrap();
        let error = DataFolder::find(&data, FolderLayout::Plain).unwrap_err();
        assert!(
            matches!(error, DataFolderError::HardLinked { links: 2, .. }),
            "{error}"
        );
        fs::remove_file(root.join("elsewhere.ans")).unwrap();
        assert!(DataFolder::find(&data, FolderLayout::Plain).is_ok());
        let private = root.join("private");
        touch(&private.join("secret"));
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(private.join("secret"), fs::Permissions::from_mode(0o600)).unwrap();
        fs::remove_file(data.join("1.ans")).unwrap();
        std::os::unix::fs::symlink(private.join("secret"), data.join("1.ans")).unwrap();
        let error = DataFolder::find(&data, FolderLayout::Plain).unwrap_err();
        assert!(
            matches!(error, DataFolderError::PrivateTarget { .. }),
            "{error}"
        );
    }

    #[test]
    fn a_test_file_may_hold_the_limit_and_no_more_whatever_its_size_says() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.in");
        fs::write(&path, [b'x'; 10]).unwrap();
        let metadata = fs::metadata(&path).unwrap();
        assert!(check_test_file(&path, &metadata, 10).is_ok());
        assert!(matches!(
            check_test_file(&path, &metadata, 9),
            Err(DataFolderError::TooLarge {
                bytes: 10,
                limit: 9,
                ..
            })
        ));
        assert_eq!(read_at_most(&path, 10).unwrap(), [b'x'; 10]);
        assert!(read_at_most(&path, 9).is_err());
        // A file of /proc has a size of 0 and holds far more: the bytes
        // read are held to the limit too (at most the limit and one more
        // are read, and the message counts those).
        let status = Path::new("/proc/self/status");
        assert_eq!(fs::metadata(status).unwrap().len(), 0);
        let error = read_at_most(status, 100).unwrap_err();
        assert!(
            error
                .to_string()
                .ends_with("holds 101 bytes, more than a test file may (100)"),
            "{error}"
        );
        assert!(read_at_most(status, 1 << 20).unwrap().len() > 100);
    }

    #[test]
    fn layouts_print_as_the_option_names_them() {
        assert_eq!(FolderLayout::Kattis.to_string(), "kattis");
        assert_eq!(FolderLayout::Plain.to_string(), "plain");
    }

    #[test]
    fn a_name_can_neither_draw_on_a_terminal_nor_forge_a_line() {
        assert_eq!(
            report_name("a\u{1b}[2J\nFAKE: all accepted\\é"),
            "a\\u{1b}[2J\\nFAKE: all accepted\\\\é"
        );
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("x\ny.in"));
        touch(&dir.path().join("x\ny.ans"));
        let folder = DataFolder::find(dir.path(), FolderLayout::Plain).unwrap();
        assert_eq!(names(&folder), ["x\\ny"]);
    }
}
