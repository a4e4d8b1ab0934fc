//! `perf-history`: the instruction-count benches (`benches/instructions.rs`)
//! now, and over the project's history.
//!
//! - `perf-history bench [--bmf FILE]` runs the benches here, prints their
//!   counts, and writes them as gungraun's JSON lines and, with `--bmf`, in
//!   the Bencher Metric Format, for `bencher run --adapter json --file FILE`.
//! - `perf-history run N` runs the benches on each of the last `N` commits of
//!   the first-parent history, one git worktree and one build at a time
//!   (sharing one build directory), writes `history.csv` (one row per commit
//!   and bench: the count and that commit's committed baseline) and draws
//!   the charts. Commits already in `history.csv` are not measured again.
//! - `perf-history chart` draws the charts again from `history.csv`: one SVG
//!   per bench (commits on the x axis, instructions on the y axis, the
//!   baseline and the +3% gate drawn) and `all.svg` with every bench.
//!
//! A developer tool behind the `perf-history` feature, so that the library
//! and the `rotation-game` binary do not depend on plotters.

mod chart;
mod counts;
mod history;
mod results;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use history::{Row, last_commits, measure_commit, read_csv, write_csv};

#[derive(Parser)]
#[command(about = "The instruction-count benches, now and over the history")]
struct Cli {
    #[command(subcommand)]
    command: Action,
}

#[derive(Subcommand)]
enum Action {
    /// Run the instruction-count benches here and print their counts.
    Bench {
        /// Also write the counts in the Bencher Metric Format to FILE.
        #[arg(long, value_name = "FILE")]
        bmf: Option<PathBuf>,
        /// Where to write gungraun's JSON lines (what `just perf-gate`
        /// reads).
        #[arg(long, value_name = "FILE", default_value = "target/instructions.jsonl")]
        results: PathBuf,
    },
    /// Run the benches on each of the last N commits, then draw the charts.
    Run {
        /// How many commits, counting back from HEAD along first parents.
        #[arg(value_name = "N")]
        commits: usize,
        /// Where to write history.csv, the charts, the worktrees and the
        /// build.
        #[arg(long, value_name = "DIR", default_value = "target/perf-history")]
        out: PathBuf,
    },
    /// Draw the charts again from DIR/history.csv.
    Chart {
        #[arg(long, value_name = "DIR", default_value = "target/perf-history")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Action::Bench { bmf, results } => bench(bmf.as_deref(), &results),
        Action::Run { commits, out } => run(commits, &out),
        Action::Chart { out } => {
            read_csv(&out.join("history.csv")).and_then(|rows| charts(&rows, &out))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("perf-history: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `perf-history bench`.
fn bench(bmf: Option<&Path>, results: &Path) -> Result<(), String> {
    let stdout = results::run_benches(None, None)?;
    let write = |path: &Path, bytes: &[u8]| {
        if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|error| format!("{}: {error}", dir.display()))?;
        }
        fs::write(path, bytes).map_err(|error| format!("{}: {error}", path.display()))
    };
    write(results, &stdout)?;
    let counts = counts::parse_gungraun(&String::from_utf8_lossy(&stdout))?;
    for (name, count) in &counts {
        println!("{name:<28} {count:>12}");
    }
    if let Some(path) = bmf {
        let json = serde_json::to_string_pretty(&results::bmf(&counts)).expect("JSON in memory");
        write(path, format!("{json}\n").as_bytes())?;
        println!(
            "wrote {} (push with: bencher run --adapter json --file {})",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

/// `perf-history run`.
fn run(count: usize, out: &Path) -> Result<(), String> {
    let repository = std::env::current_dir().map_err(|error| error.to_string())?;
    fs::create_dir_all(out).map_err(|error| format!("{}: {error}", out.display()))?;
    let out = out.canonicalize().map_err(|error| error.to_string())?;
    let csv = out.join("history.csv");
    let known = if csv.exists() {
        read_csv(&csv)?
    } else {
        Vec::new()
    };
    let commits = last_commits(&repository, count)?;
    let (worktrees, target_dir) = (out.join("worktrees"), out.join("target"));
    let mut rows: Vec<Row> = Vec::new();
    for (index, commit) in commits.iter().enumerate() {
        let already: Vec<Row> = known
            .iter()
            .filter(|row| &row.commit == commit)
            .cloned()
            .collect();
        if already.is_empty() {
            eprintln!(
                "perf-history: commit {} of {}: {}",
                index + 1,
                commits.len(),
                &commit[..12]
            );
            rows.extend(measure_commit(
                &repository,
                commit,
                &worktrees,
                &target_dir,
            )?);
        } else {
            rows.extend(already);
        }
        // Progress survives an interrupted run.
        write_csv(&csv, &rows).map_err(|error| format!("{}: {error}", csv.display()))?;
    }
    charts(&rows, &out)
}

/// Draws every bench's chart and `all.svg` into `out`.
fn charts(rows: &[Row], out: &Path) -> Result<(), String> {
    let mut commits: Vec<String> = Vec::new();
    for row in rows {
        let short = row.commit[..row.commit.len().min(7)].to_owned();
        if commits.last() != Some(&short) {
            commits.push(short);
        }
    }
    let series = chart::series(rows, &commits);
    for one in &series {
        let path = out.join(format!("{}.svg", one.bench));
        chart::write_one(&path, one, (900, 520))?;
        println!("wrote {}", path.display());
    }
    let path = out.join("all.svg");
    chart::write_grid(&path, &series, 1, (900, 400))?;
    println!("wrote {}", path.display());
    Ok(())
}
