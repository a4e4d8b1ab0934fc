//! The runner's own cost, gated: the CPU time a sandboxed, limited, judged
//! `stress` campaign costs per run, beyond the program it runs.
//!
//! It runs `rotation-game stress --sandbox on --jobs 1 --cases-per-run 1`
//! on the first `RUNS` mixed boards of seed 1, with the program
//! `rotation-game solve`, `ROUNDS` times, and takes each round's CPU time
//! from `wait4` on the `stress` process: the runner, its threads, the
//! slots' bubblewrap and zygote, every run's init and the program, all
//! reaped below it. It subtracts the program's own CPU time (the sum of
//! the runs' `cpu_seconds` in the JSON report), so that what is left is
//! what judging costs: starting, limiting, measuring and judging each run.
//! Each round also runs the same program on the same boards with no
//! runner at all, one process per board (fork, exec, wait), and takes
//! that CPU time from `wait4` too: the bare run. The gated figure is the
//! judging cost over the bare run's, a ratio of two figures measured side
//! by side on one machine, so that a slower machine or kernel, which makes
//! both dearer, does not move it much. The least of the rounds' ratios, in
//! percent, is compared with `benches/runner_cpu.baseline`; the bench
//! fails when it is more than [`TOLERANCE_PERCENT`] over. It also prints
//! the microseconds behind the ratio and the runner process's own part
//! (`runner_cpu_seconds` in the report).
//!
//!     cargo bench --bench runner_cpu                      # measure and gate
//!     RUNNER_CPU_UPDATE=1 cargo bench --bench runner_cpu  # rewrite the baseline
//!
//! CPU time rather than wall time, and the least of several rounds, because
//! the machines that run it are shared: another process slows a run down
//! but hardly adds to its CPU time. Starting one bubblewrap per run instead
//! of one per job slot, the design this gate guards against, costs several
//! milliseconds of CPU per run, many times the tolerance.

use std::fs;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

/// Runs per round.
const RUNS: u64 = 200;

/// Rounds; the least is kept.
const ROUNDS: usize = 3;

/// The largest accepted growth over the baseline, in percent.
const TOLERANCE_PERCENT: u64 = 30;

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");
const BASELINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/runner_cpu.baseline");

/// One round's figures, in microseconds per run.
#[derive(Clone, Copy, Debug)]
struct Round {
    /// The program started bare, with no runner: fork, exec, solve, wait.
    bare: u64,
    /// Everything below the `stress` process, less the programs' own time.
    judging: u64,
    /// The `stress` process itself.
    runner: u64,
    /// The programs.
    program: u64,
}

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; a filter naming another bench skips this one.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with("--"))
        .collect();
    if !filters.is_empty()
        && !filters
            .iter()
            .any(|filter| "runner_cpu".contains(filter.as_str()))
    {
        return ExitCode::SUCCESS;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let boards = match boards() {
        Ok(boards) => boards,
        Err(message) => {
            eprintln!("runner_cpu: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut rounds = Vec::new();
    for round in 1..=ROUNDS {
        match measure(&dir.path().join("report.json"), &boards) {
            Ok(figures) => {
                println!(
                    "round {round}: {} µs of CPU a run judging ({}% of a bare run's {} µs; the runner process {} µs), the program in the sandbox {} µs",
                    figures.judging,
                    figures.percent(),
                    figures.bare,
                    figures.runner,
                    figures.program
                );
                rounds.push(figures);
            }
            Err(message) => {
                eprintln!("runner_cpu: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    let best = rounds
        .iter()
        .copied()
        .min_by_key(Round::percent)
        .expect("at least one round");
    println!(
        "runner_cpu: judging costs {}% of a bare run ({} µs against {} µs), the least of {ROUNDS} rounds of {RUNS} runs",
        best.percent(),
        best.judging,
        best.bare
    );
    if std::env::var_os("RUNNER_CPU_UPDATE").is_some() {
        let text = format!(
            "# The CPU a sandboxed run costs beyond its program, in percent of the CPU of the\n\
             # program run bare, with no runner (benches/runner_cpu.rs).\n\
             # `cargo bench --bench runner_cpu` fails when a run costs more than {TOLERANCE_PERCENT} percent over;\n\
             # RUNNER_CPU_UPDATE=1 rewrites this file.\n{}\n",
            best.percent()
        );
        fs::write(BASELINE, text).expect("the baseline is writable");
        println!("runner_cpu: baseline rewritten");
        return ExitCode::SUCCESS;
    }
    let baseline = match read_baseline() {
        Ok(baseline) => baseline,
        Err(message) => {
            eprintln!("runner_cpu: {BASELINE}: {message}");
            return ExitCode::FAILURE;
        }
    };
    let allowed = baseline + baseline * TOLERANCE_PERCENT / 100;
    if best.percent() > allowed {
        eprintln!(
            "runner_cpu: FAILED: judging costs {}% of a bare run, over the baseline's {baseline}% by more than {TOLERANCE_PERCENT} percent (at most {allowed}%)",
            best.percent()
        );
        return ExitCode::FAILURE;
    }
    println!(
        "runner_cpu: within {TOLERANCE_PERCENT} percent of the baseline's {baseline}% (at most {allowed}%)"
    );
    ExitCode::SUCCESS
}

impl Round {
    /// The judging cost in percent of the bare run's.
    fn percent(&self) -> u64 {
        (self.judging * 100).div_ceil(self.bare.max(1))
    }
}

/// The campaign's boards, one judge input line each: `gen` with the
/// campaign's seed and mix draws the same boards as `stress`.
fn boards() -> Result<Vec<String>, String> {
    let output = Command::new(BINARY)
        .args(["gen", "--seed", "1", "--mix", "--boards", &RUNS.to_string()])
        .output()
        .map_err(|error| format!("cannot start {BINARY}: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "gen failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8(output.stdout).map_err(|error| error.to_string())?;
    let boards: Vec<String> = text
        .lines()
        .take_while(|line| line.trim() != "0")
        .map(str::to_owned)
        .collect();
    if boards.len() as u64 != RUNS {
        return Err(format!("gen gave {} boards, {RUNS} expected", boards.len()));
    }
    Ok(boards)
}

/// The bare runs: the program started once a board with no runner, its
/// CPU time from `wait4`, in microseconds a run.
fn bare(boards: &[String]) -> Result<u64, String> {
    let mut total = Duration::ZERO;
    for board in boards {
        let mut child = Command::new(BINARY)
            .arg("solve")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .map_err(|error| format!("cannot start {BINARY}: {error}"))?;
        let mut stdin = child.stdin.take().ok_or("no standard input")?;
        std::io::Write::write_all(&mut stdin, format!("{board}\n0\n").as_bytes())
            .map_err(|error| format!("cannot write a board: {error}"))?;
        drop(stdin);
        let (status, cpu) = wait4(child.id())?;
        if status != 0 {
            return Err(format!("a bare solve failed (wait status {status:#x})"));
        }
        total += cpu;
    }
    Ok((total.as_secs_f64() * 1e6 / boards.len() as f64).round() as u64)
}

/// One round: the campaign's CPU time from `wait4`, less the programs'
/// own, and the bare runs of the same boards.
fn measure(json: &Path, boards: &[String]) -> Result<Round, String> {
    let bare = bare(boards)?;
    let program = format!("{BINARY} solve");
    let child = Command::new(BINARY)
        .args(["stress", "--program", &program, "--seed", "1", "--mix"])
        .args(["--boards", &RUNS.to_string(), "--cases-per-run", "1"])
        .args(["--jobs", "1", "--sandbox", "on", "--json"])
        .arg(json)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|error| format!("cannot start {BINARY}: {error}"))?;
    let (status, cpu) = wait4(child.id())?;
    if status != 0 {
        return Err(format!(
            "stress did not accept every run (wait status {status:#x}): needs bubblewrap for --sandbox on"
        ));
    }
    let report: serde_json::Value = serde_json::from_slice(
        &fs::read(json).map_err(|error| format!("cannot read the report: {error}"))?,
    )
    .map_err(|error| format!("the report is not JSON: {error}"))?;
    let runs = report["runs"].as_array().ok_or("the report has no runs")?;
    if runs.len() as u64 != RUNS {
        return Err(format!("{} runs reported, {RUNS} expected", runs.len()));
    }
    let program: f64 = runs
        .iter()
        .map(|run| run["cpu_seconds"].as_f64().unwrap_or(0.0))
        .sum();
    let runner = report["runner_cpu_seconds"]
        .as_f64()
        .ok_or("the report has no runner_cpu_seconds")?;
    let per_run = |seconds: f64| (seconds * 1e6 / RUNS as f64).round() as u64;
    Ok(Round {
        bare,
        judging: per_run((cpu.as_secs_f64() - program).max(0.0)),
        runner: per_run(runner),
        program: per_run(program),
    })
}

/// Waits for process `pid`: its wait status, and the user and system CPU
/// time of it and every descendant reaped below it.
fn wait4(pid: u32) -> Result<(i32, Duration), String> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 writes only the
    // status and the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) < 0 {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        usage
    };
    let time = |value: libc::timeval| {
        Duration::from_secs(value.tv_sec.unsigned_abs())
            + Duration::from_micros(value.tv_usec.unsigned_abs())
    };
    Ok((status, time(usage.ru_utime) + time(usage.ru_stime)))
}

/// The committed baseline, in percent: the first line that is not a comment.
fn read_baseline() -> Result<u64, String> {
    let text = fs::read_to_string(BASELINE).map_err(|error| error.to_string())?;
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .ok_or_else(|| "no figure".to_owned())?
        .parse()
        .map_err(|error| format!("not a whole percentage: {error}"))
}
