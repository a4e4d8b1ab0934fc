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

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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
    /// folder (plain), with `/` between folders and without the extension.
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
                for group in groups {
                    collect(&data, &group, true, &mut files)?;
                }
            }
            FolderLayout::Plain => collect(dir, dir, false, &mut files)?,
        }
        if files.is_empty() {
            return Err(DataFolderError::NoTestFiles(dir.to_owned()));
        }
        Ok(DataFolder {
            dir: dir.to_owned(),
            layout,
            files,
        })
    }

    /// The folders that hold the test files and their answers, which the
    /// program under test must not see: `data/` of a package, the folder
    /// itself when plain.
    pub fn answer_folders(&self) -> Vec<PathBuf> {
        match self.layout {
            FolderLayout::Kattis => vec![self.dir.join("data")],
            FolderLayout::Plain => vec![self.dir.clone()],
        }
    }
}

/// Adds the test files of `folder` to `files`, in the order of their names,
/// going into subfolders when `deep`; names are relative to `base`.
fn collect(
    base: &Path,
    folder: &Path,
    deep: bool,
    files: &mut Vec<DataFile>,
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
                collect(base, &path, deep, files)?;
            }
            continue;
        }
        if path.extension().is_none_or(|extension| extension != "in") {
            continue;
        }
        let answer = path.with_extension("ans");
        if !answer.is_file() {
            return Err(DataFolderError::MissingAnswer {
                input: path,
                answer,
            });
        }
        let name = path
            .with_extension("")
            .strip_prefix(base)
            .expect("a file under its base")
            .components()
            .map(|part| part.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        files.push(DataFile {
            name,
            input: path,
            answer,
        });
    }
    Ok(())
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
        assert_eq!(folder.answer_folders(), [root.join("data")]);
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
        assert_eq!(folder.answer_folders(), [root.to_owned()]);
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
}
