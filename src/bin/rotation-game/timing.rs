//! Times, memory and counts as the reports of the commands that judge
//! programs write them, and the summary of a campaign's runs as text:
//! verdict counts, the slowest runs, and the table by optimal length a
//! setter reads to choose a time limit.

use std::io::{self, Write};
use std::time::Duration;

use rotation_game::judging::{LengthTiming, Measures, RunRecord, Summary};
use rotation_game::runner::{MIB, Run};

use crate::colour;

/// A CPU or wall-clock time for a table: milliseconds below a second,
/// seconds with two decimals above.
pub fn time(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 1.0 {
        format!("{:.0} ms", seconds * 1e3)
    } else {
        format!("{seconds:.2} s")
    }
}

/// Bytes in MiB, with one decimal.
pub fn memory(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB as f64)
}

/// What a run used: `CPU 3 ms, wall clock 11 ms, peak memory 0.5 MiB`.
pub fn measures(measures: &Measures) -> String {
    format!(
        "CPU {}, wall clock {}, peak memory {}",
        time(measures.cpu_time),
        time(measures.wall_time),
        memory(measures.peak_memory_bytes)
    )
}

/// A run's case numbers: `7`, `1-10` for consecutive ones, else listed.
pub fn cases(cases: &[u64]) -> String {
    match cases {
        [first, .., last] if cases.windows(2).all(|pair| pair[1] == pair[0] + 1) => {
            format!("{first}-{last}")
        }
        // One case (which the range's pattern of two ends leaves out) is a
        // list of one, and none an empty list.
        _ => cases
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// `1 case`, `2 cases`.
pub fn counted(count: u64, what: &str) -> String {
    if count == 1 {
        format!("1 {what}")
    } else {
        format!("{count} {what}s")
    }
}

/// "13 accepted (AC), 1 wrong answer (WA)": how many runs or files got
/// each verdict, given by its name and code; `none` when there are none.
pub fn verdict_counts<'a>(
    counts: impl IntoIterator<Item = (u64, &'a str, &'a str)>,
    none: &str,
) -> String {
    let counts: Vec<String> = counts
        .into_iter()
        .map(|(count, name, code)| format!("{count} {name} ({code})"))
        .collect();
    if counts.is_empty() {
        none.to_owned()
    } else {
        counts.join(", ")
    }
}

fn length_of(run: &RunRecord) -> String {
    run.greatest_length()
        .map_or_else(String::new, |length| length.to_string())
}

/// Writes the verdict counts, the slowest runs and the table by optimal
/// length.
pub fn write_summary(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    let counts = summary
        .verdicts
        .iter()
        .map(|count| (count.runs, count.verdict.name(), count.verdict.code()));
    writeln!(out, "verdicts: {}", verdict_counts(counts, "no runs"))?;
    if summary.runs == 0 {
        return Ok(());
    }
    write_slowest(out, &summary.slowest)?;
    write_by_length(out, &summary.by_length)
}

/// The slowest runs: their cases, greatest optimal length, measures and
/// verdict.
fn write_slowest(out: &mut dyn Write, slowest: &[RunRecord]) -> io::Result<()> {
    let case_width = slowest
        .iter()
        .map(|run| cases(&run.cases).len())
        .max()
        .unwrap_or(0)
        .max("case".len());
    writeln!(out, "slowest runs:")?;
    writeln!(
        out,
        "  {:>case_width$}  {:>6}  {:>8}  {:>9}  {:>11}  verdict",
        "case", "length", "CPU", "wall", "peak memory"
    )?;
    for run in slowest {
        writeln!(
            out,
            "  {:>case_width$}  {:>6}  {:>8}  {:>9}  {:>11}  {}",
            cases(&run.cases),
            length_of(run),
            time(run.measures.cpu_time),
            time(run.measures.wall_time),
            memory(run.measures.peak_memory_bytes),
            colour::verdict(run.verdict.code(), run.verdict.code(), colour::stdout())
        )?;
    }
    Ok(())
}

/// The table by optimal length: runs, median and greatest CPU time,
/// greatest peak memory.
fn write_by_length(out: &mut dyn Write, by_length: &[LengthTiming]) -> io::Result<()> {
    writeln!(out, "CPU time by optimal length:")?;
    writeln!(
        out,
        "  {:>6}  {:>5}  {:>10}  {:>8}  {:>15}",
        "length", "runs", "median CPU", "max CPU", "max peak memory"
    )?;
    for row in by_length {
        writeln!(
            out,
            "  {:>6}  {:>5}  {:>10}  {:>8}  {:>15}",
            row.optimal_length.moves(),
            row.runs,
            time(row.median_cpu_time),
            time(row.max_cpu_time),
            memory(row.max_peak_memory_bytes)
        )?;
    }
    Ok(())
}

/// What a failure's report says of a program's standard error when only
/// its start was kept: ` (the first K of N bytes)`, or nothing.
pub fn stderr_cut(run: &Run) -> String {
    let kept = run.stderr.len() as u64;
    if run.stderr_bytes > kept {
        format!(" (the first {kept} of {} bytes)", run.stderr_bytes)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_memory_and_cases_read_well() {
        assert_eq!(time(Duration::from_micros(6_600)), "7 ms");
        assert_eq!(time(Duration::from_millis(1_274)), "1.27 s");
        assert_eq!(time(Duration::from_millis(999)), "999 ms");
        assert_eq!(time(Duration::from_secs(1)), "1.00 s");
        assert_eq!(memory(3 * MIB / 2), "1.5 MiB");
        assert_eq!(cases(&[7]), "7");
        assert_eq!(cases(&[1, 2, 3]), "1-3");
        assert_eq!(cases(&[2, 5, 8]), "2,5,8");
        assert_eq!(cases(&[]), "");
    }
}
