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

/// The status of `stress` or `judge` once it has written its report: as
/// [`after_report`], unless a stopping signal ended the judging early
/// (`stopped_by`), when it is the shell's status for a command that
/// signal ended, 128 + its number (130 for `SIGINT`, 143 for `SIGTERM`):
/// a script or a CI job sees the judging did not finish.
pub fn after_judging(written: io::Result<()>, failed: bool, stopped_by: Option<i32>) -> ExitCode {
    let status = report_status(written.as_ref().err(), failed);
    match stopped_by {
        Some(signal) => ExitCode::from(stopped_status(signal)),
        None => ExitCode::from(status),
    }
}

/// The status of a command that the stopping `signal` ended.
pub fn stopped_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
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
    fn a_stopped_judging_exits_as_the_signal_ended_it() {
        // SIGINT, SIGTERM, SIGHUP.
        assert_eq!(stopped_status(2), 130);
        assert_eq!(stopped_status(15), 143);
        assert_eq!(stopped_status(1), 129);
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
