//! `rotation-game stress`: judges someone else's program on generated
//! boards as a contest judge does, and reports verdicts, timing and the
//! smallest failing case.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use clap::Args;
use rotation_game::answers::write_answer;
use rotation_game::checker::Quote;
use rotation_game::generator::{Generator, Shard};
use rotation_game::parser::format_input;
use rotation_game::stress::{
    self, CampaignReport, FailedRun, Isolation, Limits, RunRecord, Runner, StressOptions, Summary,
};
use serde::Serialize;

use crate::exit;
use crate::gen_args::{FOR_STRESS, GenArgs, mode_flags, repeat_flags};
use crate::judging_args::{self, JudgingArgs};
use crate::junit;
use crate::progress;
use crate::repeat::{shell_quote, show_command};
use crate::runner_args::isolation_summary;
use crate::timing::{self, cases, counted, memory, stderr_cut, time};

/// Judge a program on generated boards as a contest judge does: every run
/// within CPU time, wall-clock, memory and output limits, isolated, judged
/// with the checker, with the judges' verdicts (AC, WA, PE, TLE, MLE, RTE,
/// OLE); then a summary with the slowest runs and the CPU time by optimal
/// length, and the smallest failing case.
///
/// PROGRAM is one string. A program and its arguments ("./a.out",
/// "python3 sol.py") run directly, paths taken from the current directory;
/// anything needing a shell (pipes, ";", redirections, "$") runs under
/// "sh -c", which reports a signal killing its last command as exit
/// status 128 + N. Each run starts in a fresh, empty work directory (also
/// TMPDIR), the only place it can write, and everything it starts is killed
/// at its end. In the sandbox, a script sees the system folders and the
/// paths it names absolutely; --sandbox-bind shows it more.
///
/// By default the boards are 1400 of the mix: case k has optimal length
/// (k - 1) mod 14, so every 14 cases hold a solved board, every length and
/// a hardest board. Cases count from 1 everywhere.
///
/// When a run of several cases fails, its cases are re-run one at a time,
/// fewest optimal moves first, and the first that fails alone is reported
/// with its input, the expected and the actual output, and the
/// "rotation-game show" command that draws it. A run of one case is not
/// run again.
///
/// Exit status: 0 when every run is accepted, 1 on any other verdict, 2 on
/// a bad command line (or limits the machine cannot honour), 71 when
/// --sandbox on cannot have its sandbox, 74 when the program cannot be
/// started or a report not written.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct StressArgs {
    /// The program's command line (one string).
    #[arg(long, value_name = "PROGRAM")]
    program: String,

    #[command(flatten)]
    generator: GenArgs,

    /// Only shard I of N (1 ≤ I ≤ N): the cases k with k mod N = I mod N,
    /// for splitting a campaign across N CI jobs. The N shards together
    /// judge exactly the unsharded campaign.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,

    /// How many cases each run of the program gets (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    cases_per_run: u64,

    #[command(flatten)]
    judging: JudgingArgs,

    /// Write the smallest failing case to FILE as judge input.
    #[arg(long, value_name = "FILE")]
    save_failing_to: Option<PathBuf>,

    /// Write the whole campaign to FILE as JSON: seed, mode, limits, the
    /// summary, and every run (cases, verdict, message, cpu_seconds,
    /// wall_seconds, peak_memory_bytes).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// The campaign, as `--json` writes it.
#[derive(Serialize)]
struct CampaignJson<'a> {
    passed: bool,
    program: &'a str,
    seed: Option<u64>,
    mode: String,
    boards: u64,
    shard: Option<String>,
    cases_per_run: u64,
    limits: &'a Limits,
    isolation: &'a Isolation,
    summary: &'a Summary,
    runs: &'a [RunRecord],
    runs_not_reported: u64,
    failure: Option<FailureJson<'a>>,
    seconds: f64,
    /// The stress process's own CPU time over the campaign (see
    /// `CampaignReport::runner_cpu`).
    runner_cpu_seconds: f64,
    command: &'a str,
}

/// The first failure, as `--json` writes it.
#[derive(Serialize)]
struct FailureJson<'a> {
    run: FailedRunJson<'a>,
    smallest: Option<FailedRunJson<'a>>,
}

/// A failed run with its input and outputs.
#[derive(Serialize)]
struct FailedRunJson<'a> {
    cases: &'a [u64],
    verdict: &'static str,
    message: String,
    input: String,
    expected_output: String,
    program_output: String,
    /// The first bytes of standard error (`STDERR_KEPT` at most).
    program_stderr: String,
    /// How many bytes of standard error the program wrote in all.
    program_stderr_bytes: u64,
    cpu_seconds: f64,
    wall_seconds: f64,
    peak_memory_bytes: u64,
    show: Vec<String>,
}

impl<'a> FailedRunJson<'a> {
    fn of(failed: &'a FailedRun) -> FailedRunJson<'a> {
        FailedRunJson {
            cases: &failed.cases,
            verdict: failed.judgement.verdict().code(),
            message: failed.judgement.to_string(),
            input: failed.input(),
            expected_output: expected_output(failed),
            program_output: String::from_utf8_lossy(&failed.run.stdout).into_owned(),
            program_stderr: String::from_utf8_lossy(&failed.run.stderr).into_owned(),
            program_stderr_bytes: failed.run.stderr_bytes,
            cpu_seconds: failed.run.cpu_time.as_secs_f64(),
            wall_seconds: failed.run.wall_time.as_secs_f64(),
            peak_memory_bytes: failed.run.peak_memory_bytes,
            show: show_commands(failed),
        }
    }
}

fn expected_output(failed: &FailedRun) -> String {
    let mut expected = Vec::new();
    for solution in &failed.answers {
        write_answer(&mut expected, solution);
    }
    String::from_utf8_lossy(&expected).into_owned()
}

fn show_commands(failed: &FailedRun) -> Vec<String> {
    failed
        .boards
        .iter()
        .zip(&failed.answers)
        .map(|(board, solution)| show_command(board, &solution.moves))
        .collect()
}

pub fn run(args: StressArgs) -> ExitCode {
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let whole = args.generator.generator(FOR_STRESS);
    let generator = whole.clone().sharded(shard);
    let requested = args.generator.boards(FOR_STRESS);
    let count = generator.count(requested);
    let jobs = args.judging.jobs(&args.judging.runner.limits());
    let runner = match args.judging.runner.runner(&args.program, jobs) {
        Ok(runner) => runner,
        Err(status) => return status,
    };
    let options = StressOptions {
        cases_per_run: args.cases_per_run,
        jobs,
        strict_whitespace: args.judging.strict,
        fail_fast: args.judging.fail_fast,
    };
    // Ctrl-C and the like end the runs cleanly, then the campaign.
    if let Err(status) = judging_args::stop_runs_on_signals() {
        return status;
    }
    let started = SystemTime::now();
    let bar = progress::bar(count, "cases");
    let outcome = stress::campaign(&generator, requested, &runner, &options, &|cases| {
        bar.inc(cases)
    });
    bar.finish_and_clear();
    let report = match outcome {
        Ok(report) => report,
        Err(error) => return judging_args::runs_ended(&error, "run", &args.program),
    };
    let summary = Summary::of(&report.runs);
    let failed = report.failure.is_some();
    let command = repeat_command(&args, &generator, requested, jobs);

    if let Some(path) = &args.save_failing_to
        && let Some(failure) = &report.failure
        && let Err(error) = fs::write(path, failure.shown().input())
    {
        eprintln!("rotation-game: cannot write {}: {error}", path.display());
        return ExitCode::from(exit::IO_ERROR);
    }
    if let Some(path) = &args.json {
        let json = CampaignJson {
            passed: !failed,
            program: &args.program,
            seed: generator.mode().uses_seed().then(|| generator.seed()),
            mode: mode_flags(generator.mode()),
            boards: generator.total(requested),
            shard: (!shard.is_whole()).then(|| shard.to_string()),
            cases_per_run: args.cases_per_run,
            limits: runner.limits(),
            isolation: runner.isolation(),
            summary: &summary,
            runs: &report.runs,
            runs_not_reported: report.runs_not_reported,
            failure: report.failure.as_ref().map(|failure| FailureJson {
                run: FailedRunJson::of(&failure.run),
                smallest: failure.smallest.as_ref().map(FailedRunJson::of),
            }),
            seconds: report.elapsed.as_secs_f64(),
            runner_cpu_seconds: report.runner_cpu.as_secs_f64(),
            command: &command,
        };
        let written = serde_json::to_vec_pretty(&json)
            .map_err(io::Error::from)
            .and_then(|mut bytes| {
                bytes.push(b'\n');
                fs::write(path, bytes)
            });
        if let Err(error) = written {
            eprintln!("rotation-game: cannot write {}: {error}", path.display());
            return ExitCode::from(exit::IO_ERROR);
        }
    }
    if let Some(path) = &args.judging.junit {
        let suite = junit_suite(
            &args, &whole, &generator, &report, &runner, &command, started,
        );
        let written = fs::File::create(path).and_then(|file| {
            let mut out = io::BufWriter::new(file);
            junit::write(&mut out, &suite)?;
            out.flush()
        });
        if let Err(error) = written {
            eprintln!("rotation-game: cannot write {}: {error}", path.display());
            return ExitCode::from(exit::IO_ERROR);
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = write_text(
        &mut out, &args, &generator, &report, &summary, &runner, &command,
    )
    .and_then(|()| out.flush());
    exit::after_report(written, failed)
}

/// What the campaign covered: seed, mode, shard.
fn campaign_label(generator: &Generator) -> String {
    let mut label = String::new();
    if generator.mode().uses_seed() {
        label.push_str(&format!("seed {}, ", generator.seed()));
    }
    label.push_str(&mode_flags(generator.mode()));
    if !generator.shard().is_whole() {
        label.push_str(&format!(", shard {}", generator.shard()));
    }
    label
}

/// The report as text: the outcome, the first failure in detail, the
/// summary, the limits and the command that repeats the campaign.
fn write_text(
    out: &mut impl Write,
    args: &StressArgs,
    generator: &Generator,
    report: &CampaignReport,
    summary: &Summary,
    runner: &Runner,
    command: &str,
) -> io::Result<()> {
    let label = campaign_label(generator);
    let seconds = report.elapsed.as_secs_f64();
    match &report.failure {
        None => writeln!(
            out,
            "stress: accepted: {} in {} ({label}, {seconds:.1} s)",
            counted(summary.cases, "case"),
            counted(summary.runs, "run")
        )?,
        Some(failure) => {
            let failing = summary.runs
                - summary
                    .verdicts
                    .iter()
                    .filter(|count| count.verdict == stress::Verdict::Accepted)
                    .map(|count| count.runs)
                    .sum::<u64>();
            writeln!(
                out,
                "stress: {failing} of {} failed ({}, {label}, {seconds:.1} s)",
                counted(summary.runs, "run"),
                counted(summary.cases, "case")
            )?;
            let run = &failure.run;
            let what = if run.cases.len() == 1 {
                format!("case {}", run.cases[0])
            } else {
                format!("the run of cases {}", cases(&run.cases))
            };
            writeln!(out, "first failure: {what}: {}", run.judgement)?;
            write_failed(
                out,
                failure.shown(),
                failure.smallest.is_some(),
                run.cases.len() > 1,
            )?;
            if let Some(path) = &args.save_failing_to {
                writeln!(out, "saved to {}", path.display())?;
            }
            writeln!(out)?;
        }
    }
    if report.runs_not_reported > 0 {
        writeln!(
            out,
            "{} after the first failure not reported (--fail-fast)",
            counted(report.runs_not_reported, "run")
        )?;
    }
    timing::write_summary(out, summary)?;
    let limits = runner.limits();
    writeln!(
        out,
        "limits per run: {} s of CPU, {} s of wall clock, {} of memory, {} bytes of output; {}",
        limits.cpu_time.as_secs_f64(),
        limits.wall_time.as_secs_f64(),
        memory(limits.memory_bytes),
        limits.output_bytes,
        isolation_summary(runner)
    )?;
    writeln!(out, "repeat with: {command}")
}

/// The failing case (or run) in detail: input, expected and actual output,
/// measures, verdict, and the commands that draw it.
fn write_failed(
    out: &mut impl Write,
    failed: &FailedRun,
    shrunk: bool,
    several: bool,
) -> io::Result<()> {
    if failed.boards.len() == 1 {
        let label = if shrunk || several {
            "smallest failing case"
        } else {
            "failing case"
        };
        writeln!(
            out,
            "{label}: case {} ({}):",
            failed.cases[0],
            counted(failed.answers[0].moves.len() as u64, "optimal move")
        )?;
    } else {
        writeln!(
            out,
            "no case fails alone; the failing run, cases {}:",
            cases(&failed.cases)
        )?;
    }
    writeln!(out, "input:")?;
    write_indented(out, &failed.input())?;
    writeln!(out, "expected output:")?;
    write_indented(out, &expected_output(failed))?;
    write_output(out, &failed.run.stdout, 2 * failed.boards.len() + 2)?;
    if !failed.run.stderr.is_empty() {
        writeln!(
            out,
            "program stderr{}: {}",
            stderr_cut(&failed.run),
            Quote::new(&failed.run.stderr)
        )?;
    }
    writeln!(
        out,
        "CPU {}, wall clock {}, peak memory {}",
        time(failed.run.cpu_time),
        time(failed.run.wall_time),
        memory(failed.run.peak_memory_bytes)
    )?;
    writeln!(out, "verdict: {}", failed.judgement)?;
    for command in show_commands(failed) {
        writeln!(out, "show it: {command}")?;
    }
    Ok(())
}

/// Writes the program's output, at most `max_lines` lines of it, each
/// escaped and shortened.
fn write_output(out: &mut impl Write, stdout: &[u8], max_lines: usize) -> io::Result<()> {
    if stdout.is_empty() {
        return writeln!(out, "program output: empty");
    }
    writeln!(out, "program output ({} bytes):", stdout.len())?;
    let lines: Vec<&[u8]> = stdout.split(|&byte| byte == b'\n').collect();
    // A final line feed leaves an empty piece that is no line.
    let count = lines.len() - usize::from(stdout.ends_with(b"\n"));
    for line in &lines[..count.min(max_lines)] {
        writeln!(out, "    {}", Quote::new(line))?;
    }
    if count > max_lines {
        writeln!(out, "    … ({} more lines)", count - max_lines)?;
    }
    Ok(())
}

fn write_indented(out: &mut impl Write, text: &str) -> io::Result<()> {
    for line in text.lines() {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}

/// The command that runs this campaign again (`jobs` only shows when it
/// was given).
fn repeat_command(args: &StressArgs, generator: &Generator, requested: u64, jobs: usize) -> String {
    let mut command = format!(
        "rotation-game stress --program {} {}",
        shell_quote(&args.program),
        repeat_flags(generator, requested)
    );
    if !generator.shard().is_whole() {
        command.push_str(&format!(" --shard {}", generator.shard()));
    }
    if args.cases_per_run != 1 {
        command.push_str(&format!(" --cases-per-run {}", args.cases_per_run));
    }
    command.push_str(&args.judging.repeat_flags(jobs));
    command
}

/// The JUnit suite: one case per run, named by its cases and their optimal
/// lengths, its time the CPU time; a failing run's detail holds its
/// message, its input and the commands that draw its boards.
fn junit_suite(
    args: &StressArgs,
    whole: &Generator,
    generator: &Generator,
    report: &CampaignReport,
    runner: &Runner,
    command: &str,
    started: SystemTime,
) -> junit::Suite {
    let limits = runner.limits();
    let mut properties = vec![("program".to_owned(), args.program.clone())];
    if generator.mode().uses_seed() {
        properties.push(("seed".to_owned(), generator.seed().to_string()));
    }
    properties.extend([
        ("mode".to_owned(), mode_flags(generator.mode())),
        ("shard".to_owned(), generator.shard().to_string()),
        (
            "time_limit_seconds".to_owned(),
            limits.cpu_time.as_secs_f64().to_string(),
        ),
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
        ("isolation".to_owned(), isolation_summary(runner)),
        ("command".to_owned(), command.to_owned()),
    ]);
    let cases = report
        .runs
        .iter()
        .map(|run| {
            let lengths: Vec<String> = run
                .optimal_lengths
                .iter()
                .map(ToString::to_string)
                .collect();
            let name = if run.cases.len() == 1 {
                format!("case {} (optimal length {})", run.cases[0], lengths[0])
            } else {
                format!(
                    "cases {} (optimal lengths {})",
                    timing::cases(&run.cases),
                    lengths.join(", ")
                )
            };
            let failure = (run.verdict != stress::Verdict::Accepted).then(|| {
                let boards: Vec<_> = run
                    .cases
                    .iter()
                    .map(|&case| whole.board(case - 1))
                    .collect();
                let mut detail = format!(
                    "{}\nCPU {}, wall clock {}, peak memory {}\ninput:\n{}",
                    run.message,
                    time(run.cpu_time),
                    time(run.wall_time),
                    memory(run.peak_memory_bytes),
                    format_input(&boards)
                );
                for board in &boards {
                    detail.push_str(&format!(
                        "rotation-game show {}\n",
                        crate::repeat::compact(board)
                    ));
                }
                junit::CaseFailure {
                    kind: run.verdict.code().to_owned(),
                    message: run.message.clone(),
                    detail,
                }
            });
            junit::Case {
                name,
                classname: format!(
                    "rotation-game.stress.{}",
                    junit::program_file_name(&args.program)
                ),
                time: run.cpu_time,
                failure,
            }
        })
        .collect();
    junit::Suite {
        name: format!(
            "rotation-game stress {} ({})",
            args.program,
            campaign_label(generator)
        ),
        properties,
        cases,
        started,
    }
}
