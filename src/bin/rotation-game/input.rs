//! Opening the input named on the command line.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The input to read: standard input for `-` or no argument, else a file.
pub fn open(path: Option<&Path>) -> Result<Box<dyn Read + Send>, (PathBuf, io::Error)> {
    open_input(path).map(Input::into_reader)
}

/// An input, as a file where it is one, so that it can be read by position.
pub enum Input {
    /// A named file, or standard input redirected from a regular file (on
    /// Unix).
    File(File),
    /// Standard input from a terminal or a pipe.
    Stream(Box<dyn Read + Send>),
}

impl Input {
    /// The input as a reader.
    pub fn into_reader(self) -> Box<dyn Read + Send> {
        match self {
            Input::File(file) => Box::new(file),
            Input::Stream(stream) => stream,
        }
    }
}

/// Opens the input: standard input for `-` or no argument, else a file.
pub fn open_input(path: Option<&Path>) -> Result<Input, (PathBuf, io::Error)> {
    match path {
        Some(path) if path != Path::new("-") => File::open(path)
            .map(Input::File)
            .map_err(|error| (path.to_owned(), error)),
        _ => Ok(stdin_file().map_or_else(|| Input::Stream(Box::new(io::stdin())), Input::File)),
    }
}

/// Standard input as a file of its own, when it is redirected from a
/// regular file.
#[cfg(unix)]
fn stdin_file() -> Option<File> {
    use std::os::fd::AsFd;
    let descriptor = io::stdin().as_fd().try_clone_to_owned().ok()?;
    let file = File::from(descriptor);
    file.metadata().is_ok_and(|m| m.is_file()).then_some(file)
}

#[cfg(not(unix))]
fn stdin_file() -> Option<File> {
    None
}
