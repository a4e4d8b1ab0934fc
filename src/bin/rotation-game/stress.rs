//! `rotation-game stress`: runs someone else's program on generated boards
//! and reports its smallest failing case.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use rotation_game::checker::{DEFAULT_OUTPUT_LIMIT, Quote};
use rotation_game::stress::process::RunLimits;
use rotation_game::stress::{self, FailedRun, Outcome, StressOptions};

use crate::exit;
use crate::gen_args::GenArgs;
use crate::progress;
use crate::repeat::show_command;

/// Run a program on generated boards and judge every output with the
/// checker; on a failure, find and report the smallest failing case.
///
/// PROGRAM is one string, run by "sh -c" (so quoting, pipes and
/// redirections work) in a process group of its own: a timeout or an output
/// flood kills the whole group, children and grandchildren included, and so
/// does the end of every run. A plain command (no pipes, ";", redirections
/// or "$") is exec'd by the shell, so that a signal killing the program is
/// named; in a script, the shell reports it as exit status 128 + N.
///
/// When a run fails, its cases are re-run one at a time, fewest optimal
/// moves first, and the first that fails alone is reported: the case, the
/// expected output, the program's output (shortened), the verdict, and the
/// "rotation-game show" command that draws it. Crashes (exit status or
/// signal), timeouts, output floods and wrong or garbled output are each
/// reported as what they are.
///
/// Exit status: 0 when every case passed, 1 on a failure, 2 on a bad
/// command line, 74 when the program cannot be started or FILE written.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct StressArgs {
    /// The program's command line, run by "sh -c".
    #[arg(long, value_name = "PROGRAM")]
    program: String,

    #[command(flatten)]
    generator: GenArgs,

    /// How many cases each run of the program gets (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    cases_per_run: u64,

    /// How many runs go at once, 1 to 256 (default: the number of CPUs).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    jobs: Option<u64>,

    /// Wall-clock seconds allowed per run.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_seconds)]
    timeout: f64,

    /// The most bytes of output allowed per run.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_OUTPUT_LIMIT)]
    output_limit: u64,

    /// Judge outputs with strict whitespace (as check --strict).
    #[arg(long)]
    strict: bool,

    /// Write the smallest failing case to FILE as judge input.
    #[arg(long, value_name = "FILE")]
    save_failing_to: Option<PathBuf>,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "expected seconds between 0 and 86400, found {text:?}"
        )),
    }
}

pub fn run(args: StressArgs) -> ExitCode {
    let generator = args.generator.generator();
    let count = generator.count(args.generator.boards);
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |jobs| jobs as usize,
    );
    let options = StressOptions {
        program: args.program.clone(),
        limits: RunLimits {
            timeout: Duration::from_secs_f64(args.timeout),
            output_limit: args.output_limit,
        },
        cases_per_run: args.cases_per_run,
        jobs,
        strict_whitespace: args.strict,
    };
    let bar = progress::bar(count, "cases");
    let started = Instant::now();
    let outcome = stress::campaign(&generator, count, &options, &|cases| bar.inc(cases));
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match outcome {
        Err(error) => {
            eprintln!("rotation-game: cannot run {:?}: {error}", args.program);
            ExitCode::from(exit::IO_ERROR)
        }
        Ok(Outcome::Passed { cases, runs }) => {
            let written = writeln!(
                out,
                "stress: ok, {cases} cases in {runs} runs passed (seed {}, {seconds:.1} s)",
                generator.seed()
            )
            .and_then(|()| out.flush());
            exit::after_report(written, false)
        }
        Ok(Outcome::Failed {
            run,
            first_board,
            smallest,
        }) => {
            let written = writeln!(
                out,
                "stress: the run of boards {}..{} (seed {}) failed: {}",
                first_board,
                first_board + run.boards.len() as u64,
                generator.seed(),
                run.failure
            )
            .and_then(|()| report(&mut out, &smallest))
            .and_then(|()| out.flush());
            if let Some(path) = &args.save_failing_to {
                if let Err(error) = fs::write(path, smallest.input()) {
                    eprintln!("rotation-game: cannot write {}: {error}", path.display());
                    return ExitCode::from(exit::IO_ERROR);
                }
                let saved = writeln!(out, "saved to {}", path.display()).and_then(|()| out.flush());
                return exit::after_report(written.and(saved), true);
            }
            exit::after_report(written, true)
        }
    }
}

/// Writes the smallest failing case: input, expected and actual output,
/// verdict, and the command that draws it.
fn report(out: &mut impl Write, failed: &FailedRun) -> io::Result<()> {
    if failed.boards.len() == 1 {
        writeln!(
            out,
            "smallest failing case ({} optimal moves):",
            failed.answers[0].moves.len()
        )?;
    } else {
        writeln!(out, "no case fails alone; the failing run:")?;
    }
    writeln!(out, "input:")?;
    write_indented(out, &failed.input())?;
    writeln!(out, "expected output:")?;
    let mut expected = Vec::new();
    for solution in &failed.answers {
        rotation_game::judge::write_answer(&mut expected, solution);
    }
    write_indented(out, &String::from_utf8_lossy(&expected))?;
    write_output(out, &failed.output.stdout, 2 * failed.boards.len() + 2)?;
    if !failed.output.stderr.is_empty() {
        writeln!(out, "program stderr: {}", Quote::new(&failed.output.stderr))?;
    }
    writeln!(out, "verdict: {}", failed.failure)?;
    for (board, solution) in failed.boards.iter().zip(&failed.answers) {
        writeln!(out, "show it: {}", show_command(board, &solution.moves))?;
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
