//! Contest-ready problem packages: the test data, the input and output
//! validators, reference and wrong solutions, the statement and the limits,
//! in the Kattis problem package format.
//!
//! # Overview
//!
//! [`build`] returns a [`Package`]: every file of the package as bytes, by
//! path (the library writes nothing to disk; `rotation-game package DIR`
//! does), the [test files](TestFile) with their boards, and the
//! [coverage report](CoverageReport). Everything depends only on the
//! [`PackageOptions`]: the same seed gives byte-identical packages, with any
//! number of threads.
//!
//! In the [Kattis layout](Layout::Kattis) (the legacy version of the
//! format, which problemtools' `verifyproblem` reads and DOMjudge imports as
//! a zip):
//!
//! | path | holds |
//! | --- | --- |
//! | `problem.yaml` | the name, a UUID derived from the seed, the source and licence, `validation: custom`, the memory limit and problemtools' time factors; comments give the time limit |
//! | `.timelimit` | the time limit in seconds, which DOMjudge reads |
//! | `problem_statement/problem.en.tex` | the statement, with the board's picture; problemtools adds the sample |
//! | `data/sample/`, `data/secret/` | the [test files](TestFile), `.in` and `.ans` |
//! | `data/README.md` | the [coverage report](CoverageReport::to_markdown) |
//! | `input_validators/`, `output_validators/` | standalone C++ programs ([`INPUT_VALIDATOR`], [`OUTPUT_VALIDATOR`]) |
//! | `submissions/accepted/` etc. | [our own solutions](SUBMISSIONS), right, wrong and slow |
//!
//! The [plain layout](Layout::Plain) holds only the test files, numbered
//! `01.in`, `01.ans`, … (the sample first), and the report as `README.md`.
//!
//! # The time limit
//!
//! problemtools sets a problem's time limit from its accepted submissions:
//! the slowest one's CPU time on one test file, times
//! [`TIME_MULTIPLIER`], rounded up to a whole second; a submission is too
//! slow when it needs more than [`TIME_SAFETY_MARGIN`] times the limit. The
//! slowest accepted submission here is the plain IDA*
//! (`plain_ida.cpp`, written as contestants write it) on a file of one
//! board of 13 moves; with [`HardestBoards::All`] it is left out and the
//! classic IDA* (`classic_ida.cpp`) on the maximum file is the slowest. A package states its limit,
//! [`PackageOptions::time_limit`], in `.timelimit` and in `problem.yaml`'s
//! comments; [`TimeLimit::DEFAULT`] and [`TimeLimit::ALL_HARDEST`] are
//! what problemtools computes on the development machine
//! (`docs/package.md` has the measurements).

mod calibration;
mod classic_effort;
mod classic_search;
mod coverage;
mod file_coverage;
mod hardest_nodes;
mod mistake;
mod planted;
mod search;
mod standalone;
mod statement;
mod test_set;
mod zip;

use crate::answers::write_answer;
use crate::parser::format_input;

pub use calibration::{
    ACCEPTED_CAP_SECONDS, Calibration, CalibrationProblem, FileRun, SLOW_QUICK_MAX_LENGTH,
    SlowestRun, SubmissionResult, SubmissionRuns,
};
pub use classic_effort::nodes as classic_nodes;
pub use classic_search::ClassicSearch;
pub use coverage::CoverageReport;
pub use file_coverage::FileCoverage;
pub use mistake::{BEST_FIRST_MAX_LENGTH, LINE_PAIRS_ORDER, Mistake, MoveOrder, PairRule};
pub use standalone::{
    INPUT_VALIDATOR, Language, OUTPUT_VALIDATOR, Role, SUBMISSIONS, SourceProgram,
    input_validator_source,
};
pub use statement::{MEMORY_LIMIT_MIB, PROBLEM_NAME};
pub use test_set::{Group, TestFile};
pub use zip::{ZipTooLarge, zip};

/// problemtools' factor from the slowest accepted submission's CPU time on
/// one test file to the time limit (`limits.time_multiplier`). The legacy
/// format's default is 5 and the 2023-07 format's 2; the package states 3,
/// because its slowest accepted submission is already the slowest
/// reasonable one (a plain IDA*, `plain_ida.cpp`), not a fast reference.
pub const TIME_MULTIPLIER: u32 = 3;

/// problemtools' factor from the time limit to the time a submission must
/// exceed to be judged too slow (`limits.time_safety_margin`).
pub const TIME_SAFETY_MARGIN: u32 = 2;

/// A time limit per test file, in whole seconds of CPU time (the unit of
/// `.timelimit` and of problemtools' limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TimeLimit(u32);

impl TimeLimit {
    /// The limit of the default package ([`HardestBoards::OnePerDigit`]):
    /// [`TIME_MULTIPLIER`] times what the plain IDA*
    /// (`submissions/accepted/plain_ida.cpp`, the slowest accepted
    /// submission) needs on its slowest file, one board of 13 moves, on the
    /// development machine, rounded up. `docs/package.md` gives the
    /// measurements and the command that repeats them; `package
    /// --calibrate` measures it on the judges' machine.
    pub const DEFAULT: TimeLimit = TimeLimit(14);

    /// The limit of the package with every board of 13 moves
    /// ([`HardestBoards::All`]): [`TIME_MULTIPLIER`] times what the
    /// classic IDA* (`classic_ida.cpp`, then the slowest accepted
    /// submission: the plain one is left out, as too slow) needs on the
    /// maximum file on the development machine, rounded up.
    pub const ALL_HARDEST: TimeLimit = TimeLimit(41);

    /// The limit problemtools sets when the slowest accepted submission
    /// needs `cpu_seconds` of CPU on one test file: that times
    /// [`TIME_MULTIPLIER`], rounded up to a whole second, and at least 1 s.
    pub fn from_slowest(cpu_seconds: f64) -> TimeLimit {
        let seconds = (cpu_seconds * f64::from(TIME_MULTIPLIER)).ceil();
        // `max` also turns a NaN into 1.
        TimeLimit(seconds.max(1.0).min(f64::from(u32::MAX)) as u32)
    }

    /// A limit of `seconds`; `None` for 0.
    pub const fn new(seconds: u32) -> Option<TimeLimit> {
        if seconds == 0 {
            None
        } else {
            Some(TimeLimit(seconds))
        }
    }

    /// The limit in seconds.
    pub const fn seconds(self) -> u32 {
        self.0
    }
}

/// How the package lays its files out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Layout {
    /// The Kattis problem package format (legacy), for problemtools,
    /// Kattis and DOMjudge.
    Kattis,
    /// Numbered test files `NN.in` and `NN.ans` and a `README.md`, for
    /// judges that take plain files (Polygon, CMS, HackerRank).
    Plain,
}

/// The most cases a test file holds unless told otherwise: the classic
/// statement's limit.
pub const DEFAULT_MAX_CASES: usize = 30;

/// How many of the 192 boards of 13 moves (the most any board needs) the
/// test set holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum HardestBoards {
    /// One per centre digit, each in a file of its own, the cheapest for
    /// the classic IDA*: enough to fail a search capped at 12 moves, and no
    /// file costs more than one of them. The problem as the original judges
    /// posed it: a plain IDA* passes at [`TimeLimit::DEFAULT`].
    #[default]
    OnePerDigit,
    /// All 192, the 30 slowest for the classic IDA* in one file. A harder
    /// problem than the original: only a search about as fast as
    /// `classic_ida.cpp` passes (at [`TimeLimit::ALL_HARDEST`]), and the
    /// package leaves the plain IDA* out.
    All,
}

/// What a package is made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackageOptions {
    /// The seed every search draws from.
    pub seed: u64,
    /// The layout.
    pub layout: Layout,
    /// The most cases a test file may hold (the statement says so and the
    /// input validator enforces it); at least 2, for the sample.
    pub max_cases: usize,
    /// The time limit the package states.
    pub time_limit: TimeLimit,
    /// Worker threads; 0 for one per core. The package does not depend on
    /// it.
    pub threads: usize,
}

impl PackageOptions {
    /// The defaults, with seed `seed`.
    pub fn with_seed(seed: u64) -> PackageOptions {
        PackageOptions {
            seed,
            layout: Layout::Kattis,
            max_cases: DEFAULT_MAX_CASES,
            time_limit: TimeLimit::DEFAULT,
            threads: 0,
        }
    }
}

/// A step of [`build`], for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Searching for the boards of the tie-break, letter, pair, length and
    /// digit files.
    Searching,
    /// Hill climbs for the boards the classic IDA* finds slowest, counted
    /// in classic searches.
    Climbing,
    /// Counting the classic IDA*'s nodes on every board, counted in
    /// searches.
    MeasuringClassic,
    /// Working out the coverage report.
    Reporting,
}

/// How far [`build`] is: `done` of `total` units of its current stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The stage.
    pub stage: Stage,
    /// Units done.
    pub done: u64,
    /// Units in the stage.
    pub total: u64,
}

/// One file of a package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageFile {
    /// The path inside the package, with `/` between folders.
    pub path: String,
    /// The contents.
    pub contents: Vec<u8>,
}

/// A problem package, in memory.
#[derive(Clone, Debug)]
pub struct Package {
    /// Every file, in the order they were made.
    pub files: Vec<PackageFile>,
    /// The test files, the sample first, with their boards.
    pub test_files: Vec<TestFile>,
    /// What the test files cover.
    pub report: CoverageReport,
}

/// Why a package cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A case limit below the sample's two cases.
    #[error("a test file must be allowed at least {fewest} cases (the sample has {fewest}), not {0}", fewest = FEWEST_CASES)]
    TooFewCases(usize),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
}

/// Makes the package `options` describe, reporting progress to `progress`
/// (from several threads).
///
/// It takes a few tens of seconds of CPU, most of it counting the classic
/// IDA*'s nodes on the boards of 13 moves and climbing towards the boards
/// it finds slowest.
///
/// # Errors
///
/// [`PackageError`] for a case limit below 2 or threads that cannot start.
pub fn build(
    options: &PackageOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Package, PackageError> {
    build_with(options, HardestBoards::OnePerDigit, progress)
}

/// [`build`], with as many boards of 13 moves as `hardest` says. Give
/// [`HardestBoards::All`] a time limit of its own, such as
/// [`TimeLimit::ALL_HARDEST`].
///
/// # Errors
///
/// As [`build`].
pub fn build_with(
    options: &PackageOptions,
    hardest: HardestBoards,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Package, PackageError> {
    check_case_limit(options.max_cases)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()?;
    Ok(pool.install(|| build_here(options, hardest, progress)))
}

/// The fewest cases a test file may be allowed: the sample's two, which
/// are one file.
const FEWEST_CASES: usize = 2;

/// Refuses a case limit below [`FEWEST_CASES`].
fn check_case_limit(max_cases: usize) -> Result<(), PackageError> {
    if max_cases < FEWEST_CASES {
        return Err(PackageError::TooFewCases(max_cases));
    }
    Ok(())
}

/// [`build`], on the current rayon pool.
fn build_here(
    options: &PackageOptions,
    hardest: HardestBoards,
    progress: &(dyn Fn(Progress) + Sync),
) -> Package {
    let draws = search::Draws::new(options.seed);
    let (test_files, classic_nodes) =
        test_set::design(&draws, options.max_cases, hardest, progress);
    progress(Progress {
        stage: Stage::Reporting,
        done: 0,
        total: 1,
    });
    let plain_number = |file: &TestFile| {
        let index = test_files
            .iter()
            .position(|f| f.name == file.name && f.group == file.group)
            .expect("a file of the set");
        let width = test_files.len().to_string().len().max(2);
        format!("{:0width$}", index + 1)
    };
    let path_of = |file: &TestFile| match (options.layout, file.group) {
        (Layout::Plain, _) => plain_number(file),
        (Layout::Kattis, Group::Sample) => format!("data/sample/{}", file.name),
        (Layout::Kattis, Group::Secret) => format!("data/secret/{}", file.name),
    };
    let report = CoverageReport::new(
        &test_files,
        path_of,
        &classic_nodes,
        options.seed,
        options.max_cases,
        options.time_limit,
    );
    progress(Progress {
        stage: Stage::Reporting,
        done: 1,
        total: 1,
    });

    let mut files = Vec::new();
    let mut add = |path: String, contents: Vec<u8>| files.push(PackageFile { path, contents });
    if options.layout == Layout::Kattis {
        let uuid = statement::uuid(&draws);
        add(
            PROBLEM_YAML.to_owned(),
            statement::problem_yaml(&uuid, &report).into_bytes(),
        );
        add(TIME_LIMIT_FILE.to_owned(), time_limit_file(&report));
        add(
            "problem_statement/problem.en.tex".to_owned(),
            statement::problem_tex(options.max_cases).into_bytes(),
        );
        add(
            INPUT_VALIDATOR.path(),
            standalone::input_validator_source(options.max_cases).into_bytes(),
        );
        add(
            OUTPUT_VALIDATOR.path(),
            OUTPUT_VALIDATOR.source.as_bytes().to_vec(),
        );
        for program in SUBMISSIONS.iter().filter(|program| {
            hardest == HardestBoards::OnePerDigit || program.file_name != standalone::PLAIN_IDA
        }) {
            add(program.path(), program.source.as_bytes().to_vec());
        }
    }
    for (file, coverage) in test_files.iter().zip(&report.files) {
        add(
            format!("{}.in", coverage.path),
            format_input(&file.boards).into_bytes(),
        );
        let mut answers = Vec::new();
        for board in &file.boards {
            write_answer(&mut answers, &search::answer(board));
        }
        add(format!("{}.ans", coverage.path), answers);
    }
    let readme = match options.layout {
        Layout::Kattis => "data/README.md",
        Layout::Plain => "README.md",
    };
    add(readme.to_owned(), report.to_markdown().into_bytes());
    Package {
        files,
        test_files,
        report,
    }
}

/// The file that states the problem's name, limits and origin.
const PROBLEM_YAML: &str = "problem.yaml";

/// DOMjudge's file of the time limit.
const TIME_LIMIT_FILE: &str = ".timelimit";

/// `.timelimit`: the limit in seconds, on a line.
fn time_limit_file(report: &CoverageReport) -> Vec<u8> {
    format!("{}\n", report.time_limit.seconds()).into_bytes()
}

impl Package {
    /// The package with the time limit and the real runs of `calibration`:
    /// the report holds them, and `problem.yaml`, `.timelimit` and the
    /// report's file state them (the other files are unchanged).
    pub fn calibrated(mut self, calibration: Calibration) -> Package {
        self.report.time_limit = calibration.time_limit;
        self.report.calibration = Some(calibration);
        let uuid = statement::uuid(&search::Draws::new(self.report.seed));
        for file in &mut self.files {
            if file.path == PROBLEM_YAML {
                file.contents = statement::problem_yaml(&uuid, &self.report).into_bytes();
            } else if file.path == TIME_LIMIT_FILE {
                file.contents = time_limit_file(&self.report);
            } else if file.path.ends_with("README.md") {
                file.contents = self.report.to_markdown().into_bytes();
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_limit_is_problemtools_rounding_of_the_multiple_of_the_slowest() {
        assert_eq!(TimeLimit::from_slowest(13.605), TimeLimit::ALL_HARDEST);
        assert_eq!(TimeLimit::from_slowest(4.574), TimeLimit::DEFAULT);
        assert_eq!(TimeLimit::from_slowest(1.01).seconds(), 4);
        assert_eq!(TimeLimit::from_slowest(1.0).seconds(), 3);
        for tiny in [0.0, 0.05, -1.0, f64::NAN] {
            assert_eq!(TimeLimit::from_slowest(tiny).seconds(), 1, "{tiny}");
        }
    }

    #[test]
    fn a_case_limit_is_refused_below_the_sample_s_two_cases_only() {
        for refused in [0, 1] {
            assert!(
                matches!(check_case_limit(refused), Err(PackageError::TooFewCases(n)) if n == refused),
                "{refused}"
            );
        }
        for allowed in [2, 3, DEFAULT_MAX_CASES, usize::MAX] {
            assert!(check_case_limit(allowed).is_ok(), "{allowed}");
        }
        // build_with refuses before it starts any search.
        let options = PackageOptions {
            max_cases: 1,
            ..PackageOptions::with_seed(1)
        };
        assert!(matches!(
            build_with(&options, HardestBoards::All, &|_| {}),
            Err(PackageError::TooFewCases(1))
        ));
    }

    #[test]
    fn a_calibrated_package_restates_its_limit_in_the_three_files_that_state_it() {
        let report = CoverageReport::without_files(5, 30, TimeLimit::DEFAULT);
        let file = |path: &str| PackageFile {
            path: path.to_owned(),
            contents: b"before".to_vec(),
        };
        let package = Package {
            files: vec![
                file(PROBLEM_YAML),
                file(TIME_LIMIT_FILE),
                file("data/README.md"),
                file("data/secret/01-solved.in"),
                file("submissions/accepted/classic_ida.cpp"),
            ],
            test_files: Vec::new(),
            report,
        };
        let calibration = Calibration::of_slowest(
            "submissions/accepted/classic_ida.cpp",
            "data/secret/01-solved",
            2.2,
            Vec::new(),
        );
        let calibrated = package.calibrated(calibration.clone());
        assert_eq!(calibrated.report.time_limit.seconds(), 7);
        assert_eq!(calibrated.report.calibration, Some(calibration));
        let contents: Vec<&[u8]> = calibrated
            .files
            .iter()
            .map(|file| &file.contents[..])
            .collect();
        let uuid = statement::uuid(&search::Draws::new(5));
        assert_eq!(
            contents,
            [
                statement::problem_yaml(&uuid, &calibrated.report).as_bytes(),
                b"7\n",
                calibrated.report.to_markdown().as_bytes(),
                b"before",
                b"before",
            ]
        );
        assert!(calibrated.report.to_markdown().contains("2.20 s"));
    }
}
