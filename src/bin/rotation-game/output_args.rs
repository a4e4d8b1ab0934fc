//! The output contract of the commands that report (`verify`, `census`,
//! `stress`, `judge`): `--json [FILE]` and `--quiet`, the same everywhere.
//!
//! - `--json FILE` writes the JSON report to FILE, and the text report
//!   still goes to standard output.
//! - `--json` alone, or `--json -`, writes the JSON report to standard
//!   output, which then carries that JSON and nothing else: the text report
//!   is not written, and messages go to standard error as always.
//! - `--quiet` writes no text report and no progress bar: the exit status,
//!   and the files asked for, say the outcome.
//!
//! Every JSON report starts with `"version"`, [`JSON_VERSION`], which
//! changes when a field changes meaning or goes away (docs/json.md).
//!
//! An error that ends such a command before its report ([`fail`]) is said
//! on standard error, and, when the report was to be the JSON on standard
//! output, as a JSON object there too, `{"version": 1, "error": MESSAGE,
//! "status": STATUS}`: a reader of the JSON stream is never left with
//! nothing to parse. (Errors on the command line itself are clap's, said
//! before the flags are read: text, with status 2.)

use std::fmt::Display;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use serde::Serialize;

use crate::exit;

/// The version of the JSON reports' schema (docs/json.md).
pub const JSON_VERSION: u32 = 1;

/// `--json [FILE]` and `--quiet`.
#[derive(Args, Clone, Debug, Default)]
pub struct OutputArgs {
    /// Write the report as JSON: to FILE, or with no FILE (or "-") to
    /// standard output, which then carries the JSON and nothing else.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub json: Option<PathBuf>,

    /// Print no report and no progress bar: the exit status (and the files
    /// asked for) say the outcome. Errors still go to standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--json[=FILE]` and `--quiet` of the commands that say a verdict on the
/// files after their flags (`validate`, `check`): the same contract as
/// [`OutputArgs`], but the report's file takes an equals sign, so that a
/// file to judge after `--json` is never taken for the report's.
#[derive(Args, Clone, Debug, Default)]
pub struct VerdictOutputArgs {
    /// Write the verdict as JSON (docs/json.md): to standard output, which
    /// then carries the JSON and nothing else, or with --json=FILE to FILE.
    /// The equals sign is needed, so that a file to judge after --json is
    /// never taken for the report's.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true, default_missing_value = "-")]
    pub json: Option<PathBuf>,

    /// Say nothing: the exit status (and --json=FILE) tell the verdict.
    #[arg(short, long)]
    pub quiet: bool,
}

impl VerdictOutputArgs {
    /// The output contract these flags ask for, its errors taken
    /// ([`OutputArgs::take_errors`]).
    pub fn output(&self) -> OutputArgs {
        let output = OutputArgs {
            json: self.json.clone(),
            quiet: self.quiet,
        };
        output.take_errors();
        output
    }
}

/// A JSON report: its fields after the schema's version.
#[derive(Serialize)]
struct Versioned<T> {
    version: u32,
    #[serde(flatten)]
    report: T,
}

/// Whether [`fail`] writes its JSON object to standard output.
static JSON_ERRORS: AtomicBool = AtomicBool::new(false);

/// An error that ends the command (see the [module docs](self)): said on
/// standard error, and as JSON on standard output in JSON mode; gives the
/// status to exit with.
pub fn fail(message: impl Display, status: u8) -> ExitCode {
    let message = message.to_string();
    eprintln!("rotation-game: {message}");
    if JSON_ERRORS.load(Ordering::Relaxed) {
        #[derive(Serialize)]
        struct Error<'a> {
            version: u32,
            error: &'a str,
            status: u8,
        }
        let error = Error {
            version: JSON_VERSION,
            error: &message,
            status,
        };
        let mut out = io::stdout().lock();
        // Standard output closed: the error is on standard error already.
        let _ = serde_json::to_writer(&mut out, &error)
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out));
    }
    ExitCode::from(status)
}

impl OutputArgs {
    /// Makes [`fail`] write JSON to standard output when the report goes
    /// there: the first thing a reporting command does.
    pub fn take_errors(&self) {
        JSON_ERRORS.store(self.json_on_stdout(), Ordering::Relaxed);
    }

    /// Whether standard output carries the JSON report.
    pub fn json_on_stdout(&self) -> bool {
        self.json.as_deref() == Some(Path::new("-"))
    }

    /// Whether the text report is written: neither `--quiet` nor the JSON
    /// on standard output.
    pub fn text(&self) -> bool {
        !self.quiet && !self.json_on_stdout()
    }

    /// Whether a progress bar may be drawn (on standard error, when it is
    /// a terminal): not with `--quiet`.
    pub fn progress(&self) -> bool {
        !self.quiet
    }

    /// Writes `report`, pretty, with its version, where `--json` says, if
    /// it says. Writing to standard output gives how it went (as a text
    /// report's writing does, for [`exit::after_report`]).
    ///
    /// # Errors
    ///
    /// The status to exit with when the file cannot be written (said on
    /// standard error).
    pub fn write_json(&self, report: impl Serialize) -> Result<io::Result<()>, ExitCode> {
        let Some(path) = &self.json else {
            return Ok(Ok(()));
        };
        let versioned = Versioned {
            version: JSON_VERSION,
            report,
        };
        let write = |out: &mut dyn Write| {
            serde_json::to_writer_pretty(&mut *out, &versioned)?;
            writeln!(out)?;
            out.flush()
        };
        if self.json_on_stdout() {
            return Ok(write(&mut io::BufWriter::new(io::stdout().lock())));
        }
        write_file(path, write).map(Ok)
    }
}

impl OutputArgs {
    /// Writes a verdict as JSON where `--json` says, if it says: unlike a
    /// report, a verdict keeps its own status when the reader of standard
    /// output stopped early (a closed pipe).
    ///
    /// # Errors
    ///
    /// The status to exit with instead of the verdict's when the JSON
    /// cannot be written (said on standard error).
    pub fn write_verdict(&self, verdict: impl Serialize) -> Result<(), ExitCode> {
        match self.write_json(verdict)? {
            Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
                Err(exit::write_failure(&error))
            }
            _ => Ok(()),
        }
    }
}

/// Writes a report file with `write`; the status to exit with when it
/// cannot be written (said on standard error).
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), ExitCode> {
    let written = fs::File::create(path).and_then(|file| {
        let mut out = io::BufWriter::new(file);
        write(&mut out)?;
        out.flush()
    });
    written.map_err(|error| {
        fail(
            format!("cannot write {}: {error}", path.display()),
            exit::IO_ERROR,
        )
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        output: OutputArgs,
    }

    fn parsed(args: &[&str]) -> OutputArgs {
        let mut argv = vec!["command"];
        argv.extend_from_slice(args);
        Command::try_parse_from(argv).unwrap().output
    }

    #[test]
    fn json_alone_or_a_dash_is_standard_output_and_nothing_else() {
        for args in [&["--json"][..], &["--json", "-"], &["--json=-"]] {
            let output = parsed(args);
            assert!(output.json_on_stdout(), "{args:?}");
            assert!(!output.text(), "{args:?}");
        }
        let file = parsed(&["--json", "report.json"]);
        assert!(!file.json_on_stdout());
        assert!(file.text());
        assert_eq!(file.json.as_deref(), Some(Path::new("report.json")));
        let quiet = parsed(&["-q", "--json", "report.json"]);
        assert!(!quiet.text() && !quiet.progress());
        let plain = parsed(&[]);
        assert!(plain.text() && plain.progress() && plain.json.is_none());
    }

    #[test]
    fn a_report_starts_with_its_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        let output = parsed(&["--json", path.to_str().unwrap()]);
        #[derive(Serialize)]
        struct Report {
            passed: bool,
        }
        output.write_json(Report { passed: true }).unwrap().unwrap();
        let written = fs::read_to_string(&path).unwrap();
        assert_eq!(written, "{\n  \"version\": 1,\n  \"passed\": true\n}\n");
    }
}
