//! `rotation-game package`: writes a contest-ready problem package.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use rotation_game::package::{
    self, Calibration, DEFAULT_MAX_CASES, HardestBoards, Layout, Package, PackageOptions, Progress,
    Stage, TimeLimit,
};

#[cfg(unix)]
use crate::calibrate;
use crate::exit;
use crate::jobs::JobsArg;
use crate::progress;

/// Write a problem package for a contest: test data designed to fail wrong
/// solutions, an input validator and an output validator (standalone C++),
/// our own right, wrong and slow solutions, the statement and the limits,
/// in the Kattis problem package format that problemtools' verifyproblem
/// checks and DOMjudge imports (zipped). Deterministic: the same --seed
/// gives the same bytes.
///
/// DIR must not exist, or be empty. Its name is the problem's short name,
/// which Kattis wants in lowercase letters and digits (e.g. rotationgame).
/// The coverage report (what each test file covers and which files catch
/// each planted mistake) is written as data/README.md; --report prints it
/// too, or alone when no DIR is given.
///
/// --calibrate measures the time limit on this machine by running the
/// submissions (see below); without it the limit is --time-limit, whose
/// default was measured on the development machine.
///
/// Exit status: 0 when the package is written, 1 when --calibrate finds a
/// submission that does not behave as its folder and model say, 2 on a bad
/// command line, 71 when a submission cannot be built, 73 when DIR exists
/// and is not empty, 74 when a file cannot be written.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct PackageArgs {
    /// The folder to write the package into.
    dir: Option<PathBuf>,

    /// Seed of every search. Without it a seed is drawn and printed to
    /// standard error; the package records it.
    #[arg(long)]
    seed: Option<u64>,

    /// kattis: problem.yaml, data/sample and data/secret, validators and
    /// submissions. plain: numbered NN.in and NN.ans (the sample first) and
    /// README.md.
    #[arg(long, value_enum, default_value = "kattis")]
    layout: LayoutArg,

    /// The most cases a test file holds; the statement says so and the input
    /// validator enforces it (at least 2, the sample's cases).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CASES)]
    max_cases: usize,

    /// The time limit per test file, in seconds, written to .timelimit and
    /// problem.yaml. The default is what problemtools computed from the
    /// accepted solutions on the development machine: 14 s, or 41 s with
    /// --all-hardest.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(1..))]
    time_limit: Option<u32>,

    /// Put all 192 boards of 13 moves in the test set, the 30 that the
    /// classic IDA* finds slowest in one file, with a time limit of its own.
    /// This makes a harder problem than the original: a plain IDA*, which
    /// the original judges accept, is too slow, and the package leaves
    /// plain_ida.cpp out. Without it the test set holds three boards of 13
    /// moves, one per digit, each in a file of its own.
    #[arg(long)]
    all_hardest: bool,

    /// Measure the time limit here, as problemtools does: build the
    /// submissions (g++, rustc), judge them on the test files in the
    /// sandbox (accepted ones on every file; wrong and slow ones until their
    /// first failure, slow ones at twice the limit), set the limit to 3
    /// times the slowest accepted run rounded up, and state it and every
    /// submission's result in problem.yaml, .timelimit and the report.
    /// Needs DIR; about 4 minutes of CPU. Measured times vary, so the bytes
    /// of a calibrated package do too: give --time-limit for a reproducible
    /// one. Exit status 1 when a submission does not get its folder's
    /// verdict or fails first on another file than its model predicts.
    #[arg(long, conflicts_with = "time_limit", requires = "dir")]
    calibrate: bool,

    /// Print the coverage report (Markdown) on standard output.
    #[arg(long)]
    report: bool,

    /// Also write the package as one zip archive, DIR.zip beside DIR (its
    /// files at the archive's root): the archive DOMjudge's and Kattis's
    /// problem import takes. The same package gives the same bytes.
    #[arg(long, requires = "dir")]
    zip: bool,

    #[command(flatten)]
    jobs: JobsArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    Kattis,
    Plain,
}

/// sysexits' EX_CANTCREAT: the output folder cannot be used.
const CANNOT_CREATE: u8 = 73;

pub fn run(args: PackageArgs) -> ExitCode {
    let layout = match args.layout {
        LayoutArg::Kattis => Layout::Kattis,
        LayoutArg::Plain => Layout::Plain,
    };
    if args.dir.is_none() && !args.report {
        eprintln!("rotation-game: package needs DIR, or --report to print the report alone");
        return ExitCode::from(exit::USAGE);
    }
    if let Some(dir) = &args.dir
        && let Err((status, message)) = check_dir(dir, layout)
    {
        eprintln!("rotation-game: {message}");
        return ExitCode::from(status);
    }
    let seed = args.seed.unwrap_or_else(|| {
        let seed = draw_seed();
        eprintln!("rotation-game: no --seed given, using --seed {seed}");
        seed
    });
    let options = PackageOptions {
        seed,
        layout,
        max_cases: args.max_cases,
        time_limit: match (args.time_limit, args.all_hardest) {
            (Some(seconds), _) => TimeLimit::new(seconds).expect("clap refuses 0"),
            (None, false) => TimeLimit::DEFAULT,
            (None, true) => TimeLimit::ALL_HARDEST,
        },
        threads: args.jobs.threads(),
    };
    let bar = StageBar::default();
    let hardest = if args.all_hardest {
        HardestBoards::All
    } else {
        HardestBoards::OnePerDigit
    };
    let built = package::build_with(&options, hardest, &|step| bar.show(step));
    bar.finish();
    let mut package = match built {
        Ok(package) => package,
        Err(error @ package::PackageError::TooFewCases(_)) => {
            eprintln!("rotation-game: {error} (--max-cases)");
            return ExitCode::from(exit::USAGE);
        }
        Err(error) => {
            eprintln!("rotation-game: {error}");
            return ExitCode::from(exit::OS_ERROR);
        }
    };
    let mut problems = false;
    if let Some(dir) = &args.dir {
        if let Err((path, error)) = write_package(dir, &package) {
            eprintln!("rotation-game: cannot write {}: {error}", path.display());
            return ExitCode::from(exit::IO_ERROR);
        }
        let cases: usize = package.test_files.iter().map(|f| f.boards.len()).sum();
        eprintln!(
            "rotation-game: wrote {} files to {} ({} test files, {cases} cases, seed {seed})",
            package.files.len(),
            dir.display(),
            package.test_files.len(),
        );
        if args.calibrate {
            #[cfg(unix)]
            let calibrated = calibrate::calibrate(dir, layout, &package, args.jobs.threads());
            #[cfg(not(unix))]
            let calibrated = {
                eprintln!(
                    "rotation-game: --calibrate runs programs with the judge runner, which needs Unix"
                );
                Err(ExitCode::from(exit::USAGE))
            };
            let calibration = match calibrated {
                Ok(calibration) => calibration,
                Err(status) => return status,
            };
            problems = !calibration.problems.is_empty();
            say_calibrated(&calibration);
            package = package.calibrated(calibration);
            if let Err((path, error)) = write_package(dir, &package) {
                eprintln!("rotation-game: cannot write {}: {error}", path.display());
                return ExitCode::from(exit::IO_ERROR);
            }
        }
    }
    if let Some(dir) = &args.dir {
        if args.zip {
            let zip = zip_path(dir);
            let written = rotation_game::package::zip(&package.files)
                .map_err(io::Error::other)
                .and_then(|bytes| fs::write(&zip, bytes));
            if let Err(error) = written {
                eprintln!("rotation-game: cannot write {}: {error}", zip.display());
                return ExitCode::from(exit::IO_ERROR);
            }
            eprintln!("rotation-game: wrote {}", zip.display());
        }
        say_next(dir, layout, args.zip);
    }
    if args.report {
        let mut out = io::stdout().lock();
        let written = out
            .write_all(package.report.to_markdown().as_bytes())
            .and_then(|()| out.flush());
        if let Err(error) = written {
            return exit::write_failure(&error);
        }
    }
    ExitCode::from(u8::from(problems))
}

/// `DIR.zip`, beside `dir`.
fn zip_path(dir: &Path) -> PathBuf {
    let mut name = dir
        .file_name()
        .map(|name| name.to_os_string())
        .unwrap_or_else(|| "package".into());
    name.push(".zip");
    dir.with_file_name(name)
}

/// What a setter does next with the package written to `dir`, on standard
/// error: judge a program on it, check it with the judges' own tools, and
/// import it.
fn say_next(dir: &Path, layout: Layout, zipped: bool) {
    let shown = crate::repeat::shell_quote(&dir.display().to_string());
    eprintln!("rotation-game: next steps (docs/package.md, \"A setter's walkthrough\"):");
    eprintln!("  rotation-game judge --program ./mine {shown}   # judge your solution on it");
    if layout == Layout::Kattis {
        eprintln!("  verifyproblem {shown}   # problemtools checks it");
        let zip = crate::repeat::shell_quote(&zip_path(dir).display().to_string());
        if zipped {
            eprintln!("  import {zip} in DOMjudge (Problems, Import problem) or Kattis");
        } else {
            eprintln!(
                "  (cd {shown} && zip -r ../{}.zip .)   # the archive DOMjudge and Kattis import (package --zip writes it)",
                crate::repeat::shell_quote(&dir.file_name().unwrap_or_default().to_string_lossy())
            );
        }
    }
}

/// The outcome of a calibration, on standard error.
fn say_calibrated(calibration: &Calibration) {
    eprintln!(
        "rotation-game: calibrated time limit: {} s ({}), written to .timelimit, problem.yaml and the report",
        calibration.time_limit.seconds(),
        calibration.arithmetic()
    );
    if calibration.problems.is_empty() {
        eprintln!(
            "rotation-game: every submission got its folder's verdict, and every wrong and slow one first failed on the file its model predicts"
        );
    }
    for problem in &calibration.problems {
        eprintln!("rotation-game: problem: {problem}");
    }
}

/// Checks that `dir` can take a package: absent or empty, and, for the
/// Kattis layout, named as Kattis wants a short name.
fn check_dir(dir: &Path, layout: Layout) -> Result<(), (u8, String)> {
    if layout == Layout::Kattis {
        let name = dir
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let valid = !name.is_empty()
            && name
                .bytes()
                .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit());
        if !valid {
            return Err((
                exit::USAGE,
                format!(
                    "the folder's name is the problem's short name, which Kattis wants in lowercase \
                     letters and digits only, such as rotationgame; {} is not",
                    dir.display()
                ),
            ));
        }
    }
    let not_empty = fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if not_empty {
        return Err((
            CANNOT_CREATE,
            format!(
                "{} exists and is not empty; remove it or choose another folder",
                dir.display()
            ),
        ));
    }
    Ok(())
}

/// Writes every file of `package` under `dir`.
fn write_package(dir: &Path, package: &Package) -> Result<(), (PathBuf, io::Error)> {
    for file in &package.files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|error| (parent.to_owned(), error))?;
        }
        fs::write(&path, &file.contents).map_err(|error| (path.clone(), error))?;
    }
    Ok(())
}

/// A seed from the operating system's randomness (through the standard
/// library's randomly keyed hasher).
fn draw_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::process::id())
}

/// One progress bar per stage of the build, on a terminal.
#[derive(Default)]
struct StageBar {
    current: Mutex<Option<(Stage, ProgressBar)>>,
}

impl StageBar {
    fn show(&self, step: Progress) {
        let mut current = self
            .current
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if current
            .as_ref()
            .is_none_or(|(stage, _)| *stage != step.stage)
        {
            if let Some((_, bar)) = current.take() {
                bar.finish();
            }
            let what = match step.stage {
                Stage::Searching => "searches for tie-break and coverage boards",
                Stage::Climbing => "classic searches climbing towards slow boards",
                Stage::MeasuringClassic => "classic searches counting nodes",
                Stage::Reporting => "coverage report",
            };
            *current = Some((step.stage, progress::bar(step.total, what)));
        }
        if let Some((_, bar)) = current.as_ref() {
            bar.set_position(step.done);
        }
    }

    fn finish(&self) {
        let mut current = self
            .current
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if let Some((_, bar)) = current.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_without_a_seed_draws_a_new_one() {
        assert_ne!(draw_seed(), draw_seed());
    }

    #[test]
    fn each_stage_gets_its_own_bar_at_its_progress_until_the_end() {
        // The bars are hidden off a terminal; what they hold is not.
        let bar = StageBar::default();
        let step = |stage, done, total| Progress { stage, done, total };
        let position = |bar: &StageBar| {
            let current = bar.current.lock().unwrap();
            current
                .as_ref()
                .map(|(stage, bar)| (*stage, bar.position()))
        };
        bar.show(step(Stage::Searching, 3, 10));
        assert_eq!(position(&bar), Some((Stage::Searching, 3)));
        bar.show(step(Stage::Searching, 7, 10));
        assert_eq!(position(&bar), Some((Stage::Searching, 7)));
        bar.show(step(Stage::Climbing, 1, 4));
        assert_eq!(position(&bar), Some((Stage::Climbing, 1)));
        bar.finish();
        assert_eq!(position(&bar), None);
    }
}
