//! `rotation-game judge`: judges a program on every test file of a problem
//! package, or of a folder of `.in` and `.ans` pairs, as a judge system
//! does, one row per file.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use clap::{Args, ValueEnum};
use rotation_game::answers::write_answer;
use rotation_game::checker::Quote;
use rotation_game::parser::format_input;
use rotation_game::stress::{
    DataFolder, FailedRun, FileRecord, FileVerdict, FolderLayout, FolderOptions, FolderReport,
    Isolation, Judgement, Limits, Runner, judge_folder, read_test_file,
};
use serde::Serialize;

use crate::exit;
use crate::judging_args::{self, JudgingArgs};
use crate::junit;
use crate::progress;
use crate::repeat::{shell_quote, show_command};
use crate::runner_args::isolation_summary;
use crate::timing::{counted, memory, stderr_cut, time};

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

    /// Write the result to FILE as JSON: the folder, limits, isolation, one
    /// object per file (file, cases, verdict, message, cpu_seconds,
    /// wall_seconds, peak_memory_bytes) and the first failure.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum LayoutArg {
    Auto,
    Kattis,
    Plain,
}

/// sysexits' EX_NOINPUT: no test files to judge.
const NO_TEST_FILES: u8 = exit::NO_INPUT;

/// Where the time limit came from.
enum LimitSource {
    Flag,
    TimeLimitFile(PathBuf),
    Default,
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

pub fn run(args: JudgeArgs) -> ExitCode {
    let layout = match args.layout {
        LayoutArg::Auto => FolderLayout::detect(&args.dir),
        LayoutArg::Kattis => FolderLayout::Kattis,
        LayoutArg::Plain => FolderLayout::Plain,
    };
    let folder = match DataFolder::find(&args.dir, layout) {
        Ok(folder) => folder,
        Err(error) => {
            eprintln!("rotation-game: {error}");
            return ExitCode::from(NO_TEST_FILES);
        }
    };
    let (cpu_default, source) = match time_limit(&args) {
        Ok(found) => found,
        Err(message) => {
            eprintln!("rotation-game: {message}");
            return ExitCode::from(exit::DATA_ERROR);
        }
    };
    let limits = args.judging.runner.limits_or(cpu_default);
    let jobs = args.judging.jobs(&limits);
    let runner =
        match args
            .judging
            .runner
            .runner_hiding(&args.program, jobs, limits, &folder.hidden_paths())
        {
            Ok(runner) => runner,
            Err(status) => return status,
        };
    if let Err(status) = judging_args::stop_runs_on_signals() {
        return status;
    }
    let options = FolderOptions {
        jobs,
        strict_whitespace: args.judging.strict,
        fail_fast: args.judging.fail_fast,
    };
    let started = SystemTime::now();
    let bar = progress::bar(folder.files.len() as u64, "files");
    let judged = judge_folder(&runner, &folder.files, &options, &|_| bar.inc(1));
    bar.finish_and_clear();
    let report = match judged {
        Ok(report) => report,
        Err(error) => return judging_args::runs_ended(&error, "judge", &args.program),
    };
    let command = repeat_command(&args, jobs);
    let judging = Judging {
        args: &args,
        folder: &folder,
        report: &report,
        runner: &runner,
        source: &source,
        command: &command,
    };
    if let Some(path) = &args.json
        && let Err(error) = write_json(path, &judging)
    {
        eprintln!("rotation-game: cannot write {}: {error}", path.display());
        return ExitCode::from(exit::IO_ERROR);
    }
    if let Some(path) = &args.judging.junit {
        let written = fs::File::create(path).and_then(|file| {
            let mut out = io::BufWriter::new(file);
            junit::write(&mut out, &junit_suite(&judging, started))?;
            out.flush()
        });
        if let Err(error) = written {
            eprintln!("rotation-game: cannot write {}: {error}", path.display());
            return ExitCode::from(exit::IO_ERROR);
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = write_text(&mut out, &judging).and_then(|()| out.flush());
    let jury_fault = report
        .files
        .iter()
        .any(|record| record.verdict == FileVerdict::JuryFault);
    if jury_fault {
        eprintln!(
            "rotation-game: the test data is wrong (FAIL above): fix the package before judging programs on it"
        );
        return ExitCode::from(exit::DATA_ERROR);
    }
    exit::after_report(written, !report.all_accepted())
}

/// Everything a report of the judging needs.
struct Judging<'a> {
    args: &'a JudgeArgs,
    folder: &'a DataFolder,
    report: &'a FolderReport,
    runner: &'a Runner,
    source: &'a LimitSource,
    command: &'a str,
}

impl Judging<'_> {
    /// What was judged: `./a.out on rotationgame (kattis layout, 25 files)`.
    fn label(&self) -> String {
        format!(
            "{} on {} ({} layout, {})",
            self.args.program,
            self.folder.dir.display(),
            self.folder.layout,
            counted(self.folder.files.len() as u64, "file")
        )
    }

    fn limit_source(&self) -> String {
        match self.source {
            LimitSource::Flag => "--time-limit".to_owned(),
            LimitSource::TimeLimitFile(path) => path.display().to_string(),
            LimitSource::Default => "the default".to_owned(),
        }
    }

    /// The verdicts and how many files got each, in the order of the
    /// verdicts (FAIL last).
    fn verdict_counts(&self) -> Vec<(FileVerdict, usize)> {
        let mut verdicts: Vec<FileVerdict> = self
            .report
            .files
            .iter()
            .map(|record| record.verdict)
            .collect();
        verdicts.sort_unstable();
        verdicts.dedup();
        verdicts
            .into_iter()
            .map(|verdict| {
                let files = self
                    .report
                    .files
                    .iter()
                    .filter(|record| record.verdict == verdict)
                    .count();
                (verdict, files)
            })
            .collect()
    }
}

/// The case a judgement is about, counted from 1 in the file.
fn failing_case(judgement: &Judgement) -> Option<u64> {
    match judgement {
        Judgement::Rejected { case, .. } => *case,
        Judgement::Misaligned { misalignment, .. } => Some(misalignment.case()),
        _ => None,
    }
}

/// The expected output for a failed run's case `case` (from 1).
fn expected_case(failed: &FailedRun, case: usize) -> String {
    let mut expected = Vec::new();
    write_answer(&mut expected, &failed.answers[case - 1]);
    String::from_utf8_lossy(&expected).into_owned()
}

/// The text report: a row per file, the first failure, the counts, the
/// limits and the command that repeats it.
fn write_text(out: &mut impl Write, judging: &Judging) -> io::Result<()> {
    let report = judging.report;
    let failing = report
        .files
        .iter()
        .filter(|record| !record.verdict.is_accepted())
        .count();
    let cases: u64 = report.files.iter().map(|record| record.cases).sum();
    let seconds = report.elapsed.as_secs_f64();
    if report.all_accepted() {
        writeln!(
            out,
            "judge: accepted: every file ({}, {}, {seconds:.1} s)",
            judging.label(),
            counted(cases, "case")
        )?;
    } else {
        writeln!(
            out,
            "judge: {failing} of {} not accepted ({}, {}, {seconds:.1} s)",
            counted(report.files.len() as u64, "file"),
            judging.label(),
            counted(cases, "case")
        )?;
    }
    let width = report
        .files
        .iter()
        .map(|record| record.file.len())
        .max()
        .unwrap_or(0)
        .max("file".len());
    writeln!(
        out,
        "  {:<width$}  {:>5}  {:<7}  {:>8}  {:>11}",
        "file", "cases", "verdict", "CPU", "peak memory"
    )?;
    for record in &report.files {
        let measures = if record.verdict == FileVerdict::JuryFault {
            ("-".to_owned(), "-".to_owned())
        } else {
            (time(record.cpu_time), memory(record.peak_memory_bytes))
        };
        write!(
            out,
            "  {:<width$}  {:>5}  {:<7}  {:>8}  {:>11}",
            record.file,
            record.cases,
            record.verdict.code(),
            measures.0,
            measures.1
        )?;
        if record.verdict.is_accepted() {
            writeln!(out)?;
        } else {
            writeln!(out, "  {}", record.message)?;
        }
    }
    if report.files_not_reported > 0 {
        writeln!(
            out,
            "  … {} after the first failure not reported (--fail-fast)",
            counted(report.files_not_reported as u64, "file")
        )?;
    }
    if let Some(first) = &report.first_failure {
        let record = &report.files[first.index];
        writeln!(out, "first failure: {}: {}", record.file, record.message)?;
        if let Some(failed) = &first.run {
            write_failed_case(out, failed)?;
        }
    }
    let counts: Vec<String> = judging
        .verdict_counts()
        .iter()
        .map(|(verdict, files)| {
            format!(
                "{} {} ({})",
                files,
                match verdict {
                    FileVerdict::Judged(verdict) => verdict.name(),
                    FileVerdict::JuryFault => "judging failure",
                },
                verdict.code()
            )
        })
        .collect();
    writeln!(out, "verdicts: {}", counts.join(", "))?;
    let limits = judging.runner.limits();
    if let Some(slowest) = report.slowest() {
        let ratio = limits.cpu_time.as_secs_f64() / slowest.cpu_time.as_secs_f64().max(1e-3);
        writeln!(
            out,
            "slowest file: {}, {} of CPU (the time limit is {:.1} times as much)",
            slowest.file,
            time(slowest.cpu_time),
            ratio
        )?;
    }
    writeln!(
        out,
        "limits per run: {} s of CPU (from {}), {} s of wall clock, {} of memory, {} bytes of output; {}{}",
        limits.cpu_time.as_secs_f64(),
        judging.limit_source(),
        limits.wall_time.as_secs_f64(),
        memory(limits.memory_bytes),
        limits.output_bytes,
        isolation_summary(judging.runner),
        if judging.runner.isolation().sandboxed {
            "; the test data hidden from the program"
        } else {
            ""
        }
    )?;
    writeln!(out, "repeat with: {}", judging.command)
}

/// The failing case of a failed run: its input, the expected output, what
/// the program printed there, and the command that draws it; or, for a
/// run that ended badly, its standard error.
fn write_failed_case(out: &mut impl Write, failed: &FailedRun) -> io::Result<()> {
    if let Some(case) = failing_case(&failed.judgement)
        && let Some(board) = failed.boards.get(case as usize - 1)
    {
        let case = case as usize;
        writeln!(
            out,
            "  case {case} ({}):",
            counted(failed.answers[case - 1].moves.len() as u64, "optimal move")
        )?;
        write!(
            out,
            "    input:    {}",
            format_input(&[*board]).lines().next().unwrap_or("")
        )?;
        writeln!(out)?;
        let expected: Vec<String> = expected_case(failed, case)
            .lines()
            .map(str::to_owned)
            .collect();
        writeln!(out, "    expected: {}", expected.join(" / "))?;
        let lines: Vec<&[u8]> = failed.run.stdout.split(|&byte| byte == b'\n').collect();
        let found: Vec<String> = lines
            .iter()
            .skip(2 * (case - 1))
            .take(2)
            .map(|line| Quote::new(line).to_string())
            .collect();
        writeln!(
            out,
            "    output lines {} and {}: {}",
            2 * case - 1,
            2 * case,
            if found.is_empty() {
                "none".to_owned()
            } else {
                found.join(" / ")
            }
        )?;
        writeln!(
            out,
            "    show it: {}",
            show_command(board, &failed.answers[case - 1].moves)
        )?;
    }
    if !failed.run.stderr.is_empty() {
        writeln!(
            out,
            "  program stderr{}: {}",
            stderr_cut(&failed.run),
            Quote::new(&failed.run.stderr)
        )?;
    }
    Ok(())
}

/// The judging as `--json` writes it.
#[derive(Serialize)]
struct JudgeJson<'a> {
    passed: bool,
    program: &'a str,
    folder: String,
    layout: FolderLayout,
    limits: &'a Limits,
    time_limit_from: String,
    isolation: &'a Isolation,
    verdicts: Vec<VerdictCountJson>,
    files: &'a [FileRecord],
    files_not_reported: usize,
    first_failure: Option<FirstFailureJson>,
    seconds: f64,
    command: &'a str,
}

#[derive(Serialize)]
struct VerdictCountJson {
    verdict: FileVerdict,
    files: usize,
}

#[derive(Serialize)]
struct FirstFailureJson {
    file: String,
    verdict: FileVerdict,
    message: String,
    case: Option<u64>,
    case_input: Option<String>,
    expected_output: Option<String>,
    program_output: Option<String>,
    /// The first bytes of standard error (`STDERR_KEPT` at most).
    program_stderr: Option<String>,
    /// How many bytes of standard error the program wrote in all.
    program_stderr_bytes: Option<u64>,
    show: Option<String>,
}

fn first_failure_json(judging: &Judging) -> Option<FirstFailureJson> {
    let first = judging.report.first_failure.as_ref()?;
    let record = &judging.report.files[first.index];
    let failed = first.run.as_ref();
    let case = failed.and_then(|failed| failing_case(&failed.judgement));
    let board = failed
        .zip(case)
        .and_then(|(failed, case)| failed.boards.get(case as usize - 1).copied());
    Some(FirstFailureJson {
        file: record.file.clone(),
        verdict: record.verdict,
        message: record.message.clone(),
        case,
        case_input: board.map(|board| format_input(&[board])),
        expected_output: failed
            .zip(case)
            .map(|(failed, case)| expected_case(failed, case as usize)),
        program_output: failed
            .map(|failed| String::from_utf8_lossy(&failed.run.stdout).into_owned()),
        program_stderr: failed
            .map(|failed| String::from_utf8_lossy(&failed.run.stderr).into_owned()),
        program_stderr_bytes: failed.map(|failed| failed.run.stderr_bytes),
        show: failed.zip(board).zip(case).map(|((failed, board), case)| {
            show_command(&board, &failed.answers[case as usize - 1].moves)
        }),
    })
}

fn write_json(path: &Path, judging: &Judging) -> io::Result<()> {
    let json = JudgeJson {
        passed: judging.report.all_accepted(),
        program: &judging.args.program,
        folder: judging.folder.dir.display().to_string(),
        layout: judging.folder.layout,
        limits: judging.runner.limits(),
        time_limit_from: judging.limit_source(),
        isolation: judging.runner.isolation(),
        verdicts: judging
            .verdict_counts()
            .into_iter()
            .map(|(verdict, files)| VerdictCountJson { verdict, files })
            .collect(),
        files: &judging.report.files,
        files_not_reported: judging.report.files_not_reported,
        first_failure: first_failure_json(judging),
        seconds: judging.report.elapsed.as_secs_f64(),
        command: judging.command,
    };
    let mut bytes = serde_json::to_vec_pretty(&json).map_err(io::Error::from)?;
    bytes.push(b'\n');
    fs::write(path, bytes)
}

/// The JUnit suite: one test case per file, its time the CPU time.
fn junit_suite(judging: &Judging, started: SystemTime) -> junit::Suite {
    let limits = judging.runner.limits();
    let properties = vec![
        ("program".to_owned(), judging.args.program.clone()),
        (
            "folder".to_owned(),
            judging.folder.dir.display().to_string(),
        ),
        ("layout".to_owned(), judging.folder.layout.to_string()),
        (
            "time_limit_seconds".to_owned(),
            limits.cpu_time.as_secs_f64().to_string(),
        ),
        ("time_limit_from".to_owned(), judging.limit_source()),
        (
            "wall_limit_seconds".to_owned(),
            limits.wall_time.as_secs_f64().to_string(),
        ),
        (
            "memory_limit_bytes".to_owned(),
            limits.memory_bytes.to_string(),
        ),
        (
            "output_limit_bytes".to_owned(),
            limits.output_bytes.to_string(),
        ),
        ("isolation".to_owned(), isolation_summary(judging.runner)),
        ("command".to_owned(), judging.command.to_owned()),
    ];
    let classname = format!(
        "rotation-game.judge.{}",
        junit::program_file_name(&judging.args.program)
    );
    let first = judging.report.first_failure.as_ref();
    let cases = judging
        .report
        .files
        .iter()
        .enumerate()
        .map(|(index, record)| {
            let failure = (!record.verdict.is_accepted()).then(|| {
                let mut detail = format!(
                    "{}\nCPU {}, wall clock {}, peak memory {}\n",
                    record.message,
                    time(record.cpu_time),
                    time(record.wall_time),
                    memory(record.peak_memory_bytes)
                );
                let failed = first
                    .filter(|first| first.index == index)
                    .and_then(|first| first.run.as_ref());
                if let Some(failed) = failed
                    && let Some(case) = failing_case(&failed.judgement)
                    && let Some(board) = failed.boards.get(case as usize - 1)
                {
                    detail.push_str(&format!(
                        "case {case}:\n{}expected:\n{}{}\n",
                        format_input(&[*board]),
                        expected_case(failed, case as usize),
                        show_command(board, &failed.answers[case as usize - 1].moves)
                    ));
                }
                junit::CaseFailure {
                    kind: record.verdict.code().to_owned(),
                    message: record.message.clone(),
                    detail,
                }
            });
            junit::Case {
                name: format!("{} ({})", record.file, counted(record.cases, "case")),
                classname: classname.clone(),
                time: record.cpu_time,
                failure,
            }
        })
        .collect();
    junit::Suite {
        name: format!("rotation-game judge {}", judging.label()),
        properties,
        cases,
        started,
    }
}

/// The command that judges again (`--jobs` only when it was given).
fn repeat_command(args: &JudgeArgs, jobs: usize) -> String {
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
    command.push_str(&args.judging.repeat_flags(jobs));
    command
}
