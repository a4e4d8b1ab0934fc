//! Exit statuses shared by the subcommands, and how I/O failures map to them.

use std::io;
use std::process::ExitCode;

/// A command line that asks for something impossible (clap's own status for
/// usage errors).
pub const USAGE: u8 = 2;

/// Bad input data (sysexits' EX_DATAERR).
pub const DATA_ERROR: u8 = 65;

/// An input file that cannot be opened (sysexits' EX_NOINPUT).
pub const NO_INPUT: u8 = 66;

/// A failure to read or write (sysexits' EX_IOERR).
pub const IO_ERROR: u8 = 74;

/// The status for a failed write: a closed pipe downstream (`| head`) is a
/// normal way to stop reading, so it ends the run quietly with success.
pub fn write_failure(error: &io::Error) -> ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("rotation-game: cannot write the output: {error}");
    ExitCode::from(IO_ERROR)
}

/// A failure of the operating system, such as threads that cannot be
/// started (sysexits' EX_OSERR).
pub const OS_ERROR: u8 = 71;
