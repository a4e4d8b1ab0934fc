//! `rotation-game verify`: a campaign that cross-checks the solvers on
//! generated boards.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use rotation_game::SolverKind;
use rotation_game::generator::Mode;
use rotation_game::solver::{DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT};
use rotation_game::verify::{BoardSource, Entrant, Report, verify};

use crate::exit;
use crate::gen_args::GenArgs;
use crate::progress;

/// Solve generated boards with several solvers, in parallel, and check every
/// answer: the moves replay to a uniform centre equal to the digit, their
/// number is the exact optimal length (pattern database), they are the
/// lexicographically smallest such sequence, and all solvers agree.
///
/// Each disagreement is printed with the judge input that reproduces it, what
/// each solver answered, the seed and index, and `rotation-game show`
/// commands; a summary follows (boards, count per optimal length, time per
/// solver, disagreements). The report does not depend on --threads.
///
/// Exit status: 0 when every answer is right, 1 on any disagreement, 2 on a
/// bad command line (such as a --depth no board has), 71 when the worker
/// threads cannot be started.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct VerifyArgs {
    #[command(flatten)]
    generator: GenArgs,

    /// Solvers to run, separated by commas: pdb, ida, bfs. bfs only solves
    /// boards whose optimal length is at most --max-depth.
    #[arg(long, value_delimiter = ',', default_value = "pdb,ida,bfs")]
    solvers: Vec<SolverKind>,

    /// Depth bound of the bfs solver: it is given only the boards whose
    /// optimal length is at most this (at most 9; 8 needs a few hundred
    /// megabytes per thread).
    #[arg(long, default_value_t = DEFAULT_MAX_DEPTH,
          value_parser = clap::value_parser!(u8).range(0..=MAX_DEPTH_LIMIT as i64))]
    max_depth: u8,

    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,

    /// Print the report as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The generator flags that select `mode`, as `gen` and `verify` take them.
fn mode_flags(mode: Mode) -> String {
    match mode {
        Mode::Uniform => "--uniform".to_owned(),
        Mode::Scramble(moves) => format!("--scramble {moves}"),
        Mode::Depth(length) => format!("--depth {length}"),
        Mode::Hardest => "--hardest".to_owned(),
    }
}

pub fn run(args: VerifyArgs) -> ExitCode {
    let generator = match args.generator.generator() {
        Ok(generator) => generator,
        Err(error) => {
            eprintln!("rotation-game: {error}");
            return ExitCode::from(exit::USAGE);
        }
    };
    let mut kinds = args.solvers.clone();
    let mut seen = Vec::new();
    kinds.retain(|kind| {
        let first = !seen.contains(kind);
        seen.push(*kind);
        first
    });
    let solvers: Vec<_> = kinds
        .iter()
        .map(|kind| kind.build(args.max_depth))
        .collect();
    let entrants: Vec<Entrant<'_>> = kinds
        .iter()
        .zip(&solvers)
        .map(|(kind, solver)| match kind {
            SolverKind::Bfs => Entrant::up_to(solver.as_ref(), args.max_depth),
            SolverKind::Pdb | SolverKind::Ida => Entrant::new(solver.as_ref()),
        })
        .collect();
    let source = BoardSource::Generated {
        generator: &generator,
        count: args.generator.boards,
    };
    let bar = progress::bar(source.len(), "boards");
    let result = verify(source, &entrants, args.threads, &|boards| bar.inc(boards));
    bar.finish_and_clear();
    let report = match result {
        Ok(report) => report,
        Err(error) => {
            eprintln!("rotation-game: {error}");
            return ExitCode::from(exit::OS_ERROR);
        }
    };
    let mut campaign = format!(
        "rotation-game verify --seed {} {} --boards {} --solvers {}",
        generator.seed(),
        mode_flags(generator.mode()),
        source.len(),
        kinds
            .iter()
            .map(|kind| kind.name())
            .collect::<Vec<_>>()
            .join(",")
    );
    if args.max_depth != DEFAULT_MAX_DEPTH {
        campaign.push_str(&format!(" --max-depth {}", args.max_depth));
    }
    let written = if args.json {
        let mut json = report.to_json();
        json["mode"] = serde_json::json!(mode_flags(generator.mode()));
        json["command"] = serde_json::json!(campaign);
        writeln!(io::stdout().lock(), "{json}")
    } else {
        write_text(&report, &campaign)
    };
    exit::after_report(written, !report.passed())
}

/// Every disagreement, then the summary and the command that repeats the
/// campaign.
fn write_text(report: &Report, campaign: &str) -> io::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    for disagreement in &report.disagreements {
        writeln!(out, "{disagreement}")?;
    }
    write!(out, "{}", report.summary())?;
    writeln!(out, "repeat with: {campaign}")?;
    out.flush()
}
