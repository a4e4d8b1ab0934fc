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
    ExitCode::from(report_status(Some(error), false))
}

/// The status of a command that judged something (`verify`, `stress`) once
/// it has written its report: 1 when the judgement `failed`, whatever
/// happened to the output (a reader that stops early must not turn a
/// failure into a success); otherwise 0, or what [`write_failure`] gives
/// when the report could not be written.
pub fn after_report(written: io::Result<()>, failed: bool) -> ExitCode {
    ExitCode::from(report_status(written.as_ref().err(), failed))
}

/// The status [`after_report`] gives, as a number; says why on standard
/// error when the output could not be written (other than a closed pipe).
fn report_status(write_error: Option<&io::Error>, failed: bool) -> u8 {
    if let Some(error) = write_error
        && error.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("rotation-game: cannot write the output: {error}");
        if !failed {
            return IO_ERROR;
        }
    }
    u8::from(failed)
}

/// A failure of the operating system, such as threads that cannot be
/// started (sysexits' EX_OSERR).
pub const OS_ERROR: u8 = 71;

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: io::ErrorKind) -> io::Error {
        io::Error::new(kind, "test")
    }

    #[test]
    fn a_failure_is_status_1_whatever_happened_to_the_output() {
        let closed = error(io::ErrorKind::BrokenPipe);
        let full = error(io::ErrorKind::StorageFull);
        assert_eq!(report_status(None, true), 1);
        assert_eq!(report_status(Some(&closed), true), 1);
        assert_eq!(report_status(Some(&full), true), 1);
    }

    #[test]
    fn a_success_is_0_unless_the_output_could_not_be_written() {
        let closed = error(io::ErrorKind::BrokenPipe);
        let full = error(io::ErrorKind::StorageFull);
        assert_eq!(report_status(None, false), 0);
        assert_eq!(report_status(Some(&closed), false), 0);
        assert_eq!(report_status(Some(&full), false), IO_ERROR);
    }
}
