//! The summary of a campaign's runs as text: verdict counts, the slowest
//! runs, and the table by optimal length a setter reads to choose a time
//! limit.

use std::io::{self, Write};
use std::time::Duration;

use rotation_game::stress::{MIB, RunRecord, Summary};

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

/// A run's case numbers: `7`, `1-10` for consecutive ones, else listed.
pub fn cases(cases: &[u64]) -> String {
    match cases {
        [] => String::new(),
        [one] => one.to_string(),
        [first, .., last] if cases.windows(2).all(|pair| pair[1] == pair[0] + 1) => {
            format!("{first}-{last}")
        }
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

/// "13 accepted (AC), 1 wrong answer (WA)".
pub fn verdict_counts(summary: &Summary) -> String {
    let counts: Vec<String> = summary
        .verdicts
        .iter()
        .map(|count| {
            format!(
                "{} {} ({})",
                count.runs,
                count.verdict.name(),
                count.verdict.code()
            )
        })
        .collect();
    if counts.is_empty() {
        "no runs".to_owned()
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
pub fn write_summary(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    writeln!(out, "verdicts: {}", verdict_counts(summary))?;
    if summary.runs == 0 {
        return Ok(());
    }
    let case_width = summary
        .slowest
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
    for run in &summary.slowest {
        writeln!(
            out,
            "  {:>case_width$}  {:>6}  {:>8}  {:>9}  {:>11}  {}",
            cases(&run.cases),
            length_of(run),
            time(run.cpu_time),
            time(run.wall_time),
            memory(run.peak_memory_bytes),
            run.verdict.code()
        )?;
    }
    writeln!(out, "CPU time by optimal length:")?;
    writeln!(
        out,
        "  {:>6}  {:>5}  {:>10}  {:>8}  {:>15}",
        "length", "runs", "median CPU", "max CPU", "max peak memory"
    )?;
    for row in &summary.by_length {
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
pub fn stderr_cut(run: &rotation_game::stress::Run) -> String {
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
        assert_eq!(memory(3 * MIB / 2), "1.5 MiB");
        assert_eq!(cases(&[7]), "7");
        assert_eq!(cases(&[1, 2, 3]), "1-3");
        assert_eq!(cases(&[2, 5, 8]), "2,5,8");
    }
}
