//! `rotation-game judge`: judges a program on every test file of a problem
//! package, or of a folder of `.in` and `.ans` pairs, as a judge system
//! does, one row per file.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use clap::{Args, ValueEnum};
use rotation_game::judging::{
    DataFolder, FileVerdict, FolderLayout, FolderOptions, judge_folder, read_test_file,
};
use rotation_game::runner::{Limits, Runner};

use crate::exit;
use crate::judging_args::{self, JudgingArgs};
use crate::output_args::{self, OutputArgs};
use crate::progress;
use crate::repeat::shell_quote;
use crate::report::folder::FolderFindings;
use crate::report::{Reporter, stopped_by};

/// Judge a program on every test file of a problem package (data/sample,
/// then data/secret, by name, as problemtools runs them) or of a folder of
/// NAME.in and NAME.ans pairs (by name, as package --layout plain writes
/// them): the local judge for those without problemtools or DOMjudge.
///
/// Each file is one run: the program reads the whole .in on standard input,
/// within the judge-grade limits of stress (CPU time, wall clock, memory,
/// output, the sandbox), and its output is judged as the package's output
/// validator judges it: the .in read leniently, the right answers worked
/// out, the .ans judged first (a test file whose input is not judge input,
/// or whose .ans is wrong, is the jury's fault: FAIL, and the program does
/// not run on it). The folders holding the test data are hidden from the
/// program in the sandbox. Case numbers count from 1 in each file.
///
/// The time limit is --time-limit, else the folder's .timelimit (which
/// package writes, and DOMjudge reads), else 10 s.
///
/// Prints one row per file (verdict, CPU time, peak memory), the first
/// failure in detail, and the verdict counts.
///
/// Exit status: 0 when every file is accepted, 1 when one is not, 2 on a
/// bad command line, 65 when a test file is wrong (FAIL), 66 when DIR holds
/// no test files or an input has no answer, 71 when --sandbox on cannot
/// have its sandbox, 74 when the program cannot be started or a report not
/// written.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct JudgeArgs {
    /// The program's command line (one string), as for stress.
    #[arg(long, value_name = "PROGRAM")]
    program: String,

    /// The problem package, or the folder of .in and .ans pairs.
    dir: PathBuf,

    /// auto: a package when DIR holds a data folder, else plain. kattis:
    /// data/sample and data/secret (subfolders included). plain: the .in
    /// files directly in DIR.
    #[arg(long, value_enum, default_value = "auto")]
    layout: LayoutArg,

    #[command(flatten)]
    judging: JudgingArgs,

    /// The report's formats: --json [FILE] (the folder, limits, isolation,
    /// one object per file and the first failure; docs/json.md) and
    /// --quiet.
    #[command(flatten)]
    output: OutputArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LayoutArg {
    Auto,
    Kattis,
    Plain,
}

impl LayoutArg {
    /// The layout of `dir` this asks for.
    fn layout(self, dir: &Path) -> FolderLayout {
        match self {
            LayoutArg::Auto => FolderLayout::detect(dir),
            LayoutArg::Kattis => FolderLayout::Kattis,
            LayoutArg::Plain => FolderLayout::Plain,
        }
    }
}

/// sysexits' EX_NOINPUT: no test files to judge.
const NO_TEST_FILES: u8 = exit::NO_INPUT;

/// Where the time limit came from.
enum LimitSource {
    Flag,
    TimeLimitFile(PathBuf),
    Default,
}

impl fmt::Display for LimitSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitSource::Flag => f.write_str("--time-limit"),
            LimitSource::TimeLimitFile(path) => write!(f, "{}", path.display()),
            LimitSource::Default => f.write_str("the default"),
        }
    }
}

/// The time limit: --time-limit, else DIR/.timelimit, else the default.
fn time_limit(args: &JudgeArgs) -> Result<(Duration, LimitSource), String> {
    if args.judging.runner.time_limit.is_some() {
        return Ok((Limits::DEFAULT.cpu_time, LimitSource::Flag));
    }
    let path = args.dir.join(".timelimit");
    if fs::symlink_metadata(&path).is_err() {
        return Ok((Limits::DEFAULT.cpu_time, LimitSource::Default));
    }
    // Read as a test file is: a FIFO or a device there blocks nothing.
    match read_test_file(&path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()) {
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok((
                Duration::from_secs_f64(seconds),
                LimitSource::TimeLimitFile(path),
            )),
            _ => Err(format!(
                "{} does not hold a time limit in seconds: {:?} (give one with --time-limit)",
                path.display(),
                text.trim()
            )),
        },
        Err(error) => Err(format!("{error} (give a time limit with --time-limit)")),
    }
}

/// What judging the folder needs before it starts.
struct Setup {
    folder: DataFolder,
    source: LimitSource,
    runner: Runner,
    jobs: usize,
}

/// Finds the test files and the time limit, and makes the runner, which
/// hides the test data; the status to exit with when one cannot be had.
fn set_up(args: &JudgeArgs) -> Result<Setup, ExitCode> {
    let folder = DataFolder::find(&args.dir, args.layout.layout(&args.dir))
        .map_err(|error| output_args::fail(error, NO_TEST_FILES))?;
    let (cpu_default, source) =
        time_limit(args).map_err(|message| output_args::fail(message, exit::DATA_ERROR))?;
    let limits = args.judging.runner.limits_or(cpu_default);
    let jobs = args.judging.jobs(&limits);
    let runner =
        args.judging
            .runner
            .runner_hiding(&args.program, jobs, limits, &folder.hidden_paths())?;
    judging_args::stop_runs_on_signals()?;
    Ok(Setup {
        folder,
        source,
        runner,
        jobs,
    })
}

pub fn run(args: JudgeArgs) -> ExitCode {
    args.output.take_errors();
    let Setup {
        folder,
        source,
        runner,
        jobs,
    } = match set_up(&args) {
        Ok(setup) => setup,
        Err(status) => return status,
    };
    let launch_hint = judging_args::launch_hint(&runner, &args.judging.runner.sandbox_bind);
    let options = FolderOptions {
        jobs,
        strict_whitespace: args.judging.strict,
        max_fail: args.judging.max_fail(),
    };
    let started = SystemTime::now();
    let bar = progress::Judging::new(folder.files.len() as u64, "files", args.output.progress());
    let judged = judge_folder(&runner, &folder.files, &options, &|record| {
        bar.file_judged(record);
    });
    bar.finish();
    let report = match judged {
        Ok(report) => report,
        Err(error) => return judging_args::runs_ended(&error, "judge", &args.program),
    };
    let reporter = Reporter {
        launch_hint,
        stopped_by: stopped_by(report.interrupted),
        command: "judge",
        program: &args.program,
        limits: runner.limits(),
        isolation: runner.isolation(),
        limit_source: Some(source.to_string()),
        hidden: Some("the test data"),
        repeat: repeat_command(&args),
        started,
    };
    let findings = FolderFindings {
        program: &args.program,
        folder: &folder,
        report: &report,
        time_limit: runner.limits().cpu_time,
        max_fail: options.max_fail,
    };
    match reporter.write(&findings, &args.output, args.judging.junit.as_deref()) {
        Err(status) => status,
        Ok(_)
            if report
                .files
                .iter()
                .any(|file| file.verdict == FileVerdict::Fail) =>
        {
            eprintln!(
                "rotation-game: the test data is wrong (FAIL above): fix the package before judging programs on it"
            );
            ExitCode::from(exit::DATA_ERROR)
        }
        Ok(written) => exit::after_judging(written, !report.all_accepted(), reporter.stopped_by),
    }
}

/// The command that judges again (`--jobs` only when it was given).
fn repeat_command(args: &JudgeArgs) -> String {
    let mut command = format!(
        "rotation-game judge --program {} {}",
        shell_quote(&args.program),
        shell_quote(&args.dir.display().to_string())
    );
    match args.layout {
        LayoutArg::Auto => {}
        LayoutArg::Kattis => command.push_str(" --layout kattis"),
        LayoutArg::Plain => command.push_str(" --layout plain"),
    }
    command.push_str(&args.judging.repeat_flags());
    command
}
