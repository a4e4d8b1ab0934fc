//! Opening the input named on the command line.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The input to read: standard input for `-` or no argument, else a file.
pub fn open(path: Option<&Path>) -> Result<Box<dyn Read + Send>, (PathBuf, io::Error)> {
    match path {
        None => Ok(Box::new(io::stdin())),
        Some(path) if path == Path::new("-") => Ok(Box::new(io::stdin())),
        Some(path) => File::open(path)
            .map(|file| Box::new(file) as Box<dyn Read + Send>)
            .map_err(|error| (path.to_owned(), error)),
    }
}
