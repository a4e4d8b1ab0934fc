//! The campaign report: one Markdown row per fuzz target, from what a
//! campaign left in the fuzz folder.
//!
//! ```text
//! cargo run --features fuzzing --example fuzz_report -- [--fuzz-dir fuzz] [--llvm-cov PATH] [--coverage-bin-dir DIR]
//! ```
//!
//! `just fuzz-report` runs it after `cargo fuzz coverage` has written
//! `coverage/<target>/coverage.profdata` for each target. For each target
//! of `rotation_game::fuzzing::TARGETS` it reads:
//!
//! - `logs/<target>.log`, the last campaign's libFuzzer log
//!   (`just fuzz-campaign` runs with `-print_final_stats=1`): time fuzzed,
//!   executions and executions per second;
//! - `logs/<target>.run` (written by `fuzz/campaign.sh`): when the target's
//!   last run started and the machine's load average while it ran;
//! - `corpus/<target>/`: the corpus's files and bytes;
//! - the coverage profile, through `llvm-cov export -summary-only`: the
//!   lines covered of the library files the target exercises
//!   (`Target::modules`), added up;
//! - `artifacts/<target>/`: the newest `crash-`, `timeout-`, `oom-` or
//!   `leak-` file, with its date.
//!
//! `logs/campaign.txt` (written by `fuzz/campaign.sh`) gives the machine and
//! its load during the campaign, printed under the table. Anything missing
//! is shown as `–` and said so under the table, never guessed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::UNIX_EPOCH;

use rotation_game::fuzzing::{TARGETS, Target};

/// What a libFuzzer log says about a run.
#[derive(Clone, Debug, Default, PartialEq)]
struct LogStats {
    /// Seconds fuzzed, from `Done N runs in S second(s)`.
    seconds: Option<u64>,
    /// Inputs run.
    executions: Option<u64>,
    /// Inputs per second, averaged over the run.
    executions_per_second: Option<u64>,
    /// Whether the run ended on a crash (a panic, a deadly signal, a
    /// timeout or running out of memory).
    crashed: bool,
}

/// Reads a libFuzzer log: the final statistics (`-print_final_stats=1`)
/// when present, else the last status line (`#N ... exec/s: X`).
fn parse_log(log: &str) -> LogStats {
    let mut stats = LogStats::default();
    let mut last_status: Option<(u64, u64)> = None;
    for line in log.lines() {
        let line = line.trim();
        if let Some(value) = line.strip_prefix("stat::number_of_executed_units:") {
            stats.executions = value.trim().parse().ok();
        } else if let Some(value) = line.strip_prefix("stat::average_exec_per_sec:") {
            stats.executions_per_second = value.trim().parse().ok();
        } else if let Some(rest) = line.strip_prefix("Done ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if let [runs, "runs", "in", seconds, ..] = words.as_slice() {
                stats.executions = stats.executions.or(runs.parse().ok());
                stats.seconds = seconds.parse().ok();
            }
        } else if let Some(status) = parse_status_line(line) {
            last_status = Some(status);
        }
        if line.starts_with("==") && line.contains("ERROR: libFuzzer")
            || line.starts_with("SUMMARY: libFuzzer")
        {
            stats.crashed = true;
        }
    }
    if let Some((executions, per_second)) = last_status {
        stats.executions = stats.executions.or(Some(executions));
        stats.executions_per_second = stats.executions_per_second.or(Some(per_second));
    }
    stats
}

/// The executions and executions per second of a status line such as
/// `#1024 pulse cov: 25 ft: 26 corp: 3/5b exec/s: 512 rss: 30Mb` (a tab after the number).
fn parse_status_line(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix('#')?;
    let executions = rest.split_whitespace().next()?.parse().ok()?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words.iter().position(|&word| word == "exec/s:")?;
    let per_second = words.get(at + 1)?.parse().ok()?;
    Some((executions, per_second))
}

/// Lines covered and lines in all, added up over some files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Lines {
    covered: u64,
    count: u64,
}

/// The lines of `modules` (paths relative to `repository`) in an
/// `llvm-cov export -summary-only` report, and the modules it does not
/// name. Files are matched by their whole path: a dependency may well have
/// a `src/parser.rs` of its own.
fn module_lines(
    export: &serde_json::Value,
    repository: &Path,
    modules: &[&str],
) -> (Lines, Vec<String>) {
    let files = export["data"][0]["files"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut total = Lines::default();
    let mut missing = Vec::new();
    for module in modules {
        let path = repository.join(module);
        let file = files.iter().find(|file| {
            file["filename"]
                .as_str()
                .is_some_and(|name| Path::new(name) == path)
        });
        match file {
            Some(file) => {
                let lines = &file["summary"]["lines"];
                total.covered += lines["covered"].as_u64().unwrap_or(0);
                total.count += lines["count"].as_u64().unwrap_or(0);
            }
            None => missing.push((*module).to_owned()),
        }
    }
    (total, missing)
}

/// The date and time of a Unix time, `YYYY-MM-DD HH:MM UTC`, or `after
/// 9999` for a time RFC 3339 cannot write.
fn utc(seconds: u64) -> String {
    let time = UNIX_EPOCH + std::time::Duration::from_secs(seconds);
    // `YYYY-MM-DDTHH:MM:SSZ`, cut to the minute.
    let mut rfc3339 = String::new();
    if write!(rfc3339, "{}", humantime::format_rfc3339_seconds(time)).is_err() {
        return "after 9999".to_owned();
    }
    format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
}

/// The files of a folder, with their sizes and modification times.
fn files_in(dir: &Path) -> Vec<(PathBuf, u64, u64)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let metadata = entry.metadata().ok().filter(fs::Metadata::is_file)?;
            let modified = metadata
                .modified()
                .ok()
                .and_then(|time| time.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |age| age.as_secs());
            Some((entry.path(), metadata.len(), modified))
        })
        .collect()
}

/// The newest crash artifact of a folder: its name and date.
fn last_crash(dir: &Path) -> Option<String> {
    const PREFIXES: [&str; 4] = ["crash-", "timeout-", "oom-", "leak-"];
    files_in(dir)
        .into_iter()
        .filter(|(path, _, _)| {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            name.is_some_and(|name| PREFIXES.iter().any(|prefix| name.starts_with(prefix)))
        })
        .max_by_key(|&(_, _, modified)| modified)
        .map(|(path, _, modified)| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            format!("`{name}` ({})", utc(modified))
        })
}

/// What `fuzz/campaign.sh` recorded: `key=value` lines.
fn read_campaign(path: &Path) -> BTreeMap<String, String> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim().to_owned(), value.trim().to_owned()))
        .collect()
}

/// A number with thousands separators.
fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Command-line options.
struct Options {
    fuzz_dir: PathBuf,
    llvm_cov: Option<PathBuf>,
    coverage_bin_dir: Option<PathBuf>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        fuzz_dir: PathBuf::from("fuzz"),
        llvm_cov: None,
        coverage_bin_dir: None,
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(flag) = arguments.next() {
        let mut value = || arguments.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--fuzz-dir" => options.fuzz_dir = PathBuf::from(value()?),
            "--llvm-cov" => options.llvm_cov = Some(PathBuf::from(value()?)),
            "--coverage-bin-dir" => options.coverage_bin_dir = Some(PathBuf::from(value()?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

/// The coverage column of one target, or why there is none.
fn coverage_cell(options: &Options, target: &Target, notes: &mut Vec<String>) -> String {
    let (Some(llvm_cov), Some(bin_dir)) = (&options.llvm_cov, &options.coverage_bin_dir) else {
        return "–".to_owned();
    };
    let profile = options
        .fuzz_dir
        .join("coverage")
        .join(target.name)
        .join("coverage.profdata");
    let binary = bin_dir.join(target.name);
    if !profile.is_file() || !binary.is_file() {
        notes.push(format!(
            "{}: no coverage profile ({}) or coverage binary ({})",
            target.name,
            profile.display(),
            binary.display()
        ));
        return "–".to_owned();
    }
    let output = Command::new(llvm_cov)
        .arg("export")
        .arg("-summary-only")
        .arg(format!("-instr-profile={}", profile.display()))
        .arg(&binary)
        .output();
    let export: Option<serde_json::Value> = match output {
        Ok(output) if output.status.success() => serde_json::from_slice(&output.stdout).ok(),
        Ok(output) => {
            notes.push(format!(
                "{}: llvm-cov export failed: {}",
                target.name,
                String::from_utf8_lossy(&output.stderr).trim()
            ));
            None
        }
        Err(error) => {
            notes.push(format!(
                "{}: cannot run {}: {error}",
                target.name,
                llvm_cov.display()
            ));
            None
        }
    };
    let Some(export) = export else {
        return "–".to_owned();
    };
    let repository = options
        .fuzz_dir
        .canonicalize()
        .ok()
        .and_then(|fuzz| fuzz.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let (lines, missing) = module_lines(&export, &repository, target.modules);
    if !missing.is_empty() {
        notes.push(format!(
            "{}: the coverage report has no {}",
            target.name,
            missing.join(", ")
        ));
    }
    if lines.count == 0 {
        return "–".to_owned();
    }
    format!(
        "{:.1}% ({} of {} lines)",
        100.0 * lines.covered as f64 / lines.count as f64,
        grouped(lines.covered),
        grouped(lines.count)
    )
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("fuzz_report: {message}");
            eprintln!(
                "usage: fuzz_report [--fuzz-dir DIR] [--llvm-cov PATH] [--coverage-bin-dir DIR]"
            );
            return ExitCode::from(2);
        }
    };
    let dir = &options.fuzz_dir;
    let mut notes = Vec::new();
    println!(
        "| target | fuzzed | executions | exec/s | load while fuzzed | corpus | line coverage of its modules | last crash |"
    );
    println!("| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |");
    for target in TARGETS {
        let log_path = dir.join("logs").join(format!("{}.log", target.name));
        let stats = match fs::read(&log_path) {
            Ok(log) => parse_log(&String::from_utf8_lossy(&log)),
            Err(_) => {
                notes.push(format!(
                    "{}: no campaign log at {}",
                    target.name,
                    log_path.display()
                ));
                LogStats::default()
            }
        };
        let show = |value: Option<u64>, unit: &str| {
            value.map_or("–".to_owned(), |value| {
                format!("{}{unit}", grouped(value))
            })
        };
        let run = read_campaign(&dir.join("logs").join(format!("{}.run", target.name)));
        let load = match run.get("load_samples") {
            Some(samples) => format!(
                "{} (from {})",
                load_summary(samples),
                run.get("started").map_or("?", String::as_str)
            ),
            None => {
                notes.push(format!(
                    "{}: no run record (logs/{}.run), so no load: it was fuzzed by a campaign script that kept none",
                    target.name, target.name
                ));
                "–".to_owned()
            }
        };
        let corpus = files_in(&dir.join("corpus").join(target.name));
        let corpus_bytes: u64 = corpus.iter().map(|&(_, bytes, _)| bytes).sum();
        let crash = last_crash(&dir.join("artifacts").join(target.name));
        let crash = match (crash, stats.crashed) {
            (Some(crash), true) => format!("{crash}, ended the last run"),
            (Some(crash), false) => crash,
            (None, true) => "the last run crashed; no artifact kept".to_owned(),
            (None, false) => "none".to_owned(),
        };
        println!(
            "| `{}` | {} | {} | {} | {} | {} files, {} KiB | {} | {} |",
            target.name,
            show(stats.seconds, " s"),
            show(stats.executions, ""),
            show(stats.executions_per_second, ""),
            load,
            grouped(corpus.len() as u64),
            grouped(corpus_bytes.div_ceil(1024)),
            coverage_cell(&options, target, &mut notes),
            crash
        );
    }
    println!();
    for target in TARGETS {
        println!("- `{}` modules: {}", target.name, target.modules.join(", "));
    }
    let campaign = read_campaign(&dir.join("logs").join("campaign.txt"));
    if campaign.is_empty() {
        println!(
            "\nNo campaign record (`fuzz/logs/campaign.txt`): run `just fuzz-campaign SECONDS` first."
        );
    } else {
        let get = |key: &str| campaign.get(key).map_or("?", String::as_str);
        println!(
            "\nLast campaign: {} s per target ({}), {} at a time, started {}, on {} ({} cores). \
             Load average (1 min) during it: {}. A row's load is the 1-minute load average, \
             sampled every 30 s while that target ran.",
            get("seconds"),
            get("targets").trim(),
            get("jobs"),
            get("started"),
            get("cpu"),
            get("cores"),
            load_summary(get("load_samples"))
        );
    }
    if options.llvm_cov.is_none() {
        println!("\nNo coverage: pass --llvm-cov and --coverage-bin-dir (just fuzz-report does).");
    }
    for note in &notes {
        println!("- {note}");
    }
    ExitCode::SUCCESS
}

/// Mean and greatest of space-separated load averages.
fn load_summary(samples: &str) -> String {
    let loads: Vec<f64> = samples
        .split_whitespace()
        .filter_map(|load| load.parse().ok())
        .collect();
    if loads.is_empty() {
        return "not sampled".to_owned();
    }
    let mean = loads.iter().sum::<f64>() / loads.len() as f64;
    let max = loads.iter().copied().fold(f64::MIN, f64::max);
    format!(
        "mean {mean:.1}, greatest {max:.1} ({} samples)",
        loads.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_statistics_are_read() {
        let log = "INFO: Seed: 1\n\
                   #2\tINITED cov: 10 ft: 11 corp: 1/1b exec/s: 0 rss: 30Mb\n\
                   #4096\tpulse  cov: 25 ft: 26 corp: 3/5b lim: 4 exec/s: 2048 rss: 31Mb\n\
                   Done 120000 runs in 61 second(s)\n\
                   stat::number_of_executed_units: 120001\n\
                   stat::average_exec_per_sec:     1967\n\
                   stat::new_units_added:          12\n";
        let stats = parse_log(log);
        assert_eq!(
            stats,
            LogStats {
                seconds: Some(61),
                executions: Some(120_001),
                executions_per_second: Some(1967),
                crashed: false,
            }
        );
    }

    #[test]
    fn a_crashed_run_falls_back_on_its_last_status_line() {
        let log = "#8192\tpulse  cov: 25 ft: 26 corp: 3/5b lim: 4 exec/s: 4096 rss: 31Mb\n\
                   thread '<unnamed>' panicked at src/fuzzing/validate.rs:40:5:\n\
                   ==1234== ERROR: libFuzzer: deadly signal\n\
                   SUMMARY: libFuzzer: deadly signal\n";
        let stats = parse_log(log);
        assert_eq!(stats.executions, Some(8192));
        assert_eq!(stats.executions_per_second, Some(4096));
        assert_eq!(stats.seconds, None);
        assert!(stats.crashed);
        assert_eq!(parse_log(""), LogStats::default());
    }

    #[test]
    fn module_lines_add_up_the_named_files() {
        let export = serde_json::json!({"data": [{"files": [
            {"filename": "/registry/some-crate/src/parser.rs", "summary": {"lines": {"count": 9, "covered": 0}}},
            {"filename": "/work/repo/src/parser.rs", "summary": {"lines": {"count": 100, "covered": 90}}},
            {"filename": "/work/repo/src/validator.rs", "summary": {"lines": {"count": 50, "covered": 10}}},
            {"filename": "/work/repo/src/judge.rs", "summary": {"lines": {"count": 70, "covered": 70}}},
        ]}]});
        let modules = ["src/parser.rs", "src/validator.rs", "src/gone.rs"];
        let (lines, missing) = module_lines(&export, Path::new("/work/repo"), &modules);
        assert_eq!(
            lines,
            Lines {
                covered: 100,
                count: 150
            }
        );
        assert_eq!(missing, ["src/gone.rs"]);
    }

    #[test]
    fn dates_and_numbers_are_written_plainly() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(951_782_400 + 3_661), "2000-02-29 01:01 UTC");
        assert_eq!(utc(1_767_225_540), "2025-12-31 23:59 UTC");
        assert_eq!(utc(300_000_000_000), "after 9999");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(100), "100");
        assert_eq!(
            load_summary("1.0 3.0"),
            "mean 2.0, greatest 3.0 (2 samples)"
        );
        assert_eq!(load_summary(""), "not sampled");
    }

    #[test]
    fn the_newest_crash_artifact_is_the_last_crash() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(last_crash(dir.path()), None);
        fs::write(dir.path().join("minimized-from-abc"), "x").unwrap();
        fs::write(dir.path().join("slow-unit-abc"), "x").unwrap();
        assert_eq!(last_crash(dir.path()), None);
        fs::write(dir.path().join("crash-abc"), "x").unwrap();
        assert!(last_crash(dir.path()).unwrap().starts_with("`crash-abc` ("));
    }
}
