//! `rotation-game verify`: a campaign that cross-checks the solvers on
//! generated boards, and its report as text or JSON.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use rotation_game::LengthCounts;
use rotation_game::generator::{Generator, Shard};
use rotation_game::solver::{Solution, Solver, SolverEntry};
use rotation_game::verify::{BoardSource, Disagreement, Report, SolverStats, verify};
use serde::Serialize;

use crate::exit;
use crate::gen_args::{FOR_CAMPAIGNS, GenArgs, mode_flags, repeat_flags};
use crate::jobs::JobsArg;
use crate::output_args::{self, OutputArgs};
use crate::progress;
use crate::repeat::show_command;
use crate::solver_args::{self, BoundArgs};

/// Solve generated boards with several solvers, in parallel, and check every
/// answer: the moves replay to a uniform centre equal to the digit, their
/// number is the exact optimal length (pattern database), they are the
/// lexicographically smallest such sequence, and all solvers agree.
///
/// Each disagreement is printed with the judge input that reproduces it, what
/// each solver answered, the seed and case number, and `rotation-game show`
/// commands; a summary follows (boards, count per optimal length, time per
/// solver, disagreements). The report does not depend on --jobs.
///
/// Exit status: 0 when every answer is right, 1 on any disagreement, 2 on a
/// bad command line (such as a --length no board has), 71 when the worker
/// threads cannot be started.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    #[command(flatten)]
    generator: GenArgs,

    /// Only shard I of N (1 ≤ I ≤ N): the cases k (from 1) with
    /// k mod N = I mod N, for splitting a campaign across N CI jobs. The N
    /// shards together check exactly the unsharded campaign.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,

    /// Solvers to run, separated by commas (pdb, ida, bfs, descent). Each
    /// gets only the boards it answers: bfs those whose optimal length is
    /// at most --max-length.
    #[arg(long, value_delimiter = ',', default_value = "pdb,ida,bfs",
          value_parser = solver_args::solver_name())]
    solvers: Vec<&'static SolverEntry>,

    #[command(flatten)]
    bound: BoundArgs,

    #[command(flatten)]
    jobs: JobsArg,

    /// The report's formats: --json [FILE] (docs/json.md) and --quiet.
    #[command(flatten)]
    output: OutputArgs,
}

/// The JSON report: the library's report, each disagreement with its
/// `show` commands, and the campaign's mode and command line.
#[derive(Serialize)]
struct ReportJson<'a> {
    passed: bool,
    seed: Option<u64>,
    boards: u64,
    boards_by_length: &'a LengthCounts,
    solvers: &'a [SolverStats],
    disagreements: Vec<DisagreementJson<'a>>,
    disagreement_count: u64,
    disagreements_not_kept: u64,
    threads: usize,
    seconds: f64,
    mode: String,
    shard: Option<String>,
    command: &'a str,
}

#[derive(Serialize)]
struct DisagreementJson<'a> {
    #[serde(flatten)]
    disagreement: &'a Disagreement,
    show: Vec<String>,
}

pub fn run(args: VerifyArgs) -> ExitCode {
    args.output.take_errors();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let generator = args.generator.generator(FOR_CAMPAIGNS).sharded(shard);
    let requested = args.generator.boards(FOR_CAMPAIGNS);
    let mut entries = args.solvers.clone();
    let mut seen = Vec::new();
    entries.retain(|entry| {
        let first = !seen.contains(&entry.name);
        seen.push(entry.name);
        first
    });
    let options = args.bound.options();
    let built: Vec<Box<dyn Solver>> = entries
        .iter()
        .map(|entry| (entry.build)(&options))
        .collect();
    let solvers: Vec<&dyn Solver> = built.iter().map(Box::as_ref).collect();
    let source = BoardSource::Generated {
        generator: &generator,
        count: requested,
    };
    let bar = progress::shown(args.output.progress(), source.len(), "boards");
    let result = verify(source, &solvers, args.jobs.threads(), &|boards| {
        bar.inc(boards)
    });
    bar.finish_and_clear();
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            return output_args::fail(error, exit::OS_ERROR);
        }
    };
    let names: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
    let mut campaign = format!(
        "rotation-game verify {}",
        repeat_flags(&generator, requested)
    );
    if !shard.is_whole() {
        campaign.push_str(&format!(" --shard {shard}"));
    }
    campaign.push_str(&format!(" --solvers {}", names.join(",")));
    if !args.bound.is_default() {
        campaign.push_str(&format!(" --max-length {}", args.bound.max_length));
    }
    let json = ReportJson {
        passed: report.passed(),
        seed: report.seed,
        boards: report.boards,
        boards_by_length: &report.boards_by_length,
        solvers: &report.solvers,
        disagreements: report
            .disagreements
            .iter()
            .map(|disagreement| DisagreementJson {
                disagreement,
                show: show_commands(disagreement),
            })
            .collect(),
        disagreement_count: report.disagreement_count,
        disagreements_not_kept: report.disagreements_not_kept(),
        threads: report.threads,
        seconds: report.elapsed.as_secs_f64(),
        mode: mode_flags(generator.mode()),
        shard: (!shard.is_whole()).then(|| shard.to_string()),
        command: &campaign,
    };
    let written = match args.output.write_json(json) {
        Ok(written) => written,
        Err(status) => return status,
    };
    let written = if args.output.text() {
        write_text(&report, &generator, &campaign)
    } else {
        written
    };
    exit::after_report(written, !report.passed())
}

/// One `rotation-game show` command per distinct sequence of moves
/// answered or expected, the expected one first.
fn show_commands(disagreement: &Disagreement) -> Vec<String> {
    disagreement
        .sequences()
        .iter()
        .map(|moves| show_command(&disagreement.board, moves))
        .collect()
}

/// Every disagreement, then the summary and the command that repeats the
/// campaign.
fn write_text(report: &Report, generator: &Generator, campaign: &str) -> io::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    for disagreement in &report.disagreements {
        write_disagreement(&mut out, disagreement, generator)?;
        writeln!(out)?;
    }
    write_summary(&mut out, report, generator.shard())?;
    writeln!(out, "repeat with: {campaign}")?;
    out.flush()
}

/// A solution as the judges print it, on one line: moves, then digit.
fn one_line(solution: &Solution) -> String {
    format!("{} {}", solution.moves, solution.centre)
}

/// Several lines: where the board comes from, the judge input that
/// reproduces it, the expected answer, each solver's answer and faults, and
/// `rotation-game show` commands.
fn write_disagreement(
    out: &mut impl Write,
    disagreement: &Disagreement,
    generator: &Generator,
) -> io::Result<()> {
    let case = disagreement.case;
    match disagreement.seed {
        Some(seed) if generator.mode().uses_seed() => {
            writeln!(out, "disagreement on case {case} (seed {seed})")?
        }
        _ => writeln!(out, "disagreement on case {case}")?,
    }
    writeln!(out, "  judge input that reproduces it:")?;
    for line in disagreement.judge_input().lines() {
        writeln!(out, "    {line}")?;
    }
    writeln!(
        out,
        "  expected ({} moves, from the pattern database): {}",
        disagreement.optimal_length,
        one_line(&disagreement.expected)
    )?;
    if disagreement.solvers_differ() {
        writeln!(out, "  the solvers give different answers:")?;
    }
    for answer in &disagreement.answers {
        let given = match &answer.result {
            Ok(solution) => one_line(solution),
            Err(error) => format!("error: {error}"),
        };
        writeln!(out, "    {}: {given}", answer.solver)?;
        for fault in &answer.faults {
            writeln!(out, "      {fault}")?;
        }
    }
    for command in show_commands(disagreement) {
        writeln!(out, "  {command}")?;
    }
    Ok(())
}

/// The summary: boards, the count per optimal length, the time per solver
/// and the number of disagreements (not the disagreements themselves).
fn write_summary(out: &mut impl Write, report: &Report, shard: Shard) -> io::Result<()> {
    let mut about: Vec<String> = report
        .seed
        .map(|seed| format!("seed {seed}"))
        .into_iter()
        .collect();
    if !shard.is_whole() {
        about.push(format!("shard {shard}"));
    }
    let about = if about.is_empty() {
        String::new()
    } else {
        format!(" ({})", about.join(", "))
    };
    writeln!(
        out,
        "verified {} boards{about} on {} threads in {:.2} s",
        report.boards,
        report.threads,
        report.elapsed.as_secs_f64()
    )?;
    writeln!(out, "optimal length      boards")?;
    for (length, count) in report.boards_by_length.as_slice().iter().enumerate() {
        writeln!(out, "{length:>14} {count:>11}")?;
    }
    let width = report
        .solvers
        .iter()
        .map(|stats| stats.name.len())
        .max()
        .unwrap_or(0)
        .max("solver".len());
    writeln!(
        out,
        "{:<width$} {:>11} {:>13} {:>11}",
        "solver", "boards", "total time", "per board"
    )?;
    for stats in &report.solvers {
        let per_board = if stats.boards == 0 {
            "-".to_owned()
        } else {
            format_seconds(stats.time.as_secs_f64() / stats.boards as f64)
        };
        writeln!(
            out,
            "{:<width$} {:>11} {:>13} {:>11}",
            stats.name,
            stats.boards,
            format_seconds(stats.time.as_secs_f64()),
            per_board
        )?;
    }
    write!(out, "disagreements: {}", report.disagreement_count)?;
    match report.disagreements_not_kept() {
        0 => writeln!(out),
        not_kept => writeln!(
            out,
            " (the first {} listed, {not_kept} more not kept)",
            report.disagreements.len()
        ),
    }
}

/// A time in seconds, in the unit that suits it: µs, ms or s.
pub fn format_seconds(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.2} µs", seconds * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn time_per_board_neither_truncates_the_count_nor_divides_by_zero() {
        // 2^32 boards: as a u32 the count would be 0.
        let report = Report {
            seed: None,
            boards: 1 << 32,
            boards_by_length: LengthCounts::from_counts(&[1 << 32]),
            solvers: vec![
                SolverStats {
                    name: "pdb".to_owned(),
                    boards: 1 << 32,
                    time: Duration::from_secs(1 << 31),
                },
                SolverStats {
                    name: "bfs".to_owned(),
                    boards: 0,
                    time: Duration::ZERO,
                },
            ],
            disagreements: Vec::new(),
            disagreement_count: 0,
            threads: 1,
            elapsed: Duration::from_secs(1),
        };
        let mut summary = Vec::new();
        write_summary(&mut summary, &report, Shard::WHOLE).unwrap();
        let summary = String::from_utf8(summary).unwrap();
        assert!(
            summary.contains("\npdb     4294967296 2147483648.00 s   500.00 ms\n"),
            "{summary}"
        );
        assert!(
            summary.contains("\nbfs              0       0.00 µs           -\n"),
            "{summary}"
        );
    }

    /// Optimal, but tries the moves from H down to A: the planted solver of
    /// docs/verify.md's example disagreement.
    struct WrongOrder;

    impl Solver for WrongOrder {
        fn name(&self) -> &str {
            "wrong-order"
        }

        fn solve(
            &self,
            board: &rotation_game::Board,
        ) -> Result<Solution, rotation_game::SolveError> {
            let mut order = rotation_game::Move::ALL;
            order.reverse();
            let descent = rotation_game::solver::descend(board, &order, |b| {
                rotation_game::pattern_database::optimal_length(b).moves()
            });
            Ok(Solution {
                moves: descent.moves,
                centre: descent.end.uniform_centre().unwrap(),
                nodes: 0,
            })
        }
    }

    /// The `text` block of docs/verify.md, after its `heading` line.
    fn documented_block(after: &str) -> String {
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/verify.md"),
        )
        .unwrap();
        let start = page.find(after).expect("the sentence before the block");
        let block = &page[start..];
        let block = &block[block.find("```text\n").expect("a text block") + 8..];
        block[..block.find("```").unwrap()].to_owned()
    }

    #[test]
    fn the_documented_disagreement_is_what_verify_prints() {
        let generator = Generator::new(2286, rotation_game::generator::Mode::Uniform);
        let pdb = rotation_game::PdbSolver::default();
        let source = BoardSource::Generated {
            generator: &generator,
            count: 1,
        };
        let report = verify(source, &[&pdb, &WrongOrder], 1, &|_| {}).unwrap();
        let [disagreement] = &report.disagreements[..] else {
            panic!("one disagreement expected: {:?}", report.disagreements);
        };
        let mut text = Vec::new();
        write_disagreement(&mut text, disagreement, &generator).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            documented_block("a planted solver that tries the moves")
        );
    }
}
