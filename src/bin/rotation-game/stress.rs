//! `rotation-game stress`: judges someone else's program on generated
//! boards as a contest judge does, and reports verdicts, timing and the
//! smallest failing case.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use clap::Args;
use rotation_game::generator::{Generator, Shard};
use rotation_game::judging::{self, CampaignReport, StressOptions, Summary};

use crate::baseline::Baseline;
use crate::exit;
use crate::gen_args::{FOR_STRESS, GenArgs, mode_flags, repeat_flags};
use crate::judging_args::{self, JudgingArgs};
use crate::output_args::{self, OutputArgs};
use crate::progress;
use crate::repeat::shell_quote;
use crate::report::campaign::CampaignFindings;
use crate::report::{Reporter, stopped_by};

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

    /// Compare the CPU time by optimal length with REPORT, an earlier
    /// --json report of the same seed and mode, and say which lengths got
    /// slower or faster (by more than 10% and 5 ms of median CPU time).
    #[arg(long, value_name = "REPORT")]
    baseline: Option<PathBuf>,

    /// Write the smallest failing case to FILE as judge input.
    #[arg(long, value_name = "FILE")]
    save_failing_to: Option<PathBuf>,

    /// The report's formats: --json [FILE] (seed, mode, limits, the
    /// summary, every run and the first failure; docs/json.md) and
    /// --quiet.
    #[command(flatten)]
    output: OutputArgs,
}

pub fn run(args: StressArgs) -> ExitCode {
    args.output.take_errors();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let whole = args.generator.generator(FOR_STRESS);
    let baseline = match read_baseline(&args, &whole) {
        Ok(baseline) => baseline,
        Err(status) => return status,
    };
    let generator = whole.clone().sharded(shard);
    let requested = args.generator.boards(FOR_STRESS);
    let jobs = args.judging.jobs(&args.judging.runner.limits());
    // Ctrl-C and the like end the runs cleanly, then the campaign.
    let made = args.judging.runner.runner(&args.program, jobs);
    let runner = match made.and_then(|runner| judging_args::stop_runs_on_signals().map(|()| runner))
    {
        Ok(runner) => runner,
        Err(status) => return status,
    };
    let launch_hint = judging_args::launch_hint(&runner, &args.judging.runner.sandbox_bind);
    let options = StressOptions {
        cases_per_run: args.cases_per_run,
        jobs,
        strict_whitespace: args.judging.strict,
        max_fail: args.judging.max_fail(),
    };
    let started = SystemTime::now();
    let bar = progress::Judging::new(generator.count(requested), "cases", args.output.progress());
    let outcome = judging::campaign(
        &generator,
        requested,
        &runner,
        &options,
        &|cases, failed| bar.advance(cases, failed),
    );
    bar.finish();
    let report = match outcome {
        Ok(report) => report,
        Err(error) => return judging_args::runs_ended(&error, "run", &args.program),
    };
    if let Err(status) = save_failing(&args, &report) {
        return status;
    }
    let summary = Summary::of(&report.runs);
    let comparison = baseline.map(|baseline| baseline.compare(&summary.by_length));
    let findings = CampaignFindings {
        whole: &whole,
        generator: &generator,
        requested,
        cases_per_run: args.cases_per_run,
        report: &report,
        summary: &summary,
        saved_to: args.save_failing_to.as_deref(),
        max_fail: options.max_fail,
        baseline: comparison.as_ref(),
    };
    let reporter = Reporter {
        launch_hint,
        stopped_by: stopped_by(report.interrupted),
        command: "stress",
        program: &args.program,
        limits: runner.limits(),
        isolation: runner.isolation(),
        limit_source: None,
        hidden: None,
        repeat: repeat_command(&args, &generator, requested),
        started,
    };
    match reporter.write(&findings, &args.output, args.judging.junit.as_deref()) {
        Ok(written) => exit::after_judging(written, report.failure.is_some(), reporter.stopped_by),
        Err(status) => status,
    }
}

/// The `--baseline` report, read and checked against the campaign of
/// `generator`; the status to exit with when it cannot be used (said on
/// standard error).
fn read_baseline(args: &StressArgs, generator: &Generator) -> Result<Option<Baseline>, ExitCode> {
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    let baseline = Baseline::read(path)
        .map_err(|error| output_args::fail(format!("--baseline {error}"), exit::DATA_ERROR))?;
    let seed = generator.mode().uses_seed().then(|| generator.seed());
    baseline
        .check_campaign(seed, &mode_flags(generator.mode()))
        .map_err(|error| output_args::fail(format!("--baseline {error}"), exit::USAGE))?;
    Ok(Some(baseline))
}

/// Writes the smallest failing case as judge input to `--save-failing-to`,
/// when asked and there is one; the status to exit with when it cannot be
/// written.
fn save_failing(args: &StressArgs, report: &CampaignReport) -> Result<(), ExitCode> {
    if let Some(path) = &args.save_failing_to
        && let Some(failure) = &report.failure
        && let Err(error) = fs::write(path, failure.shown().input())
    {
        return Err(output_args::fail(
            format!("cannot write {}: {error}", path.display()),
            exit::IO_ERROR,
        ));
    }
    Ok(())
}

/// The command that runs this campaign again (`--jobs` only when it was
/// given).
fn repeat_command(args: &StressArgs, generator: &Generator, requested: u64) -> String {
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
    command.push_str(&args.judging.repeat_flags());
    command
}
