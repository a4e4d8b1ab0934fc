//! `stress --baseline REPORT.json`: a program's CPU time by optimal length
//! against an earlier report of the same campaign (its `--json`), so that a
//! contestant or a CI job sees which lengths got slower across commits, as
//! the project tracks its own speed.
//!
//! A length is *slower* when its median CPU time grew by more than
//! [`TOLERANCE_PERCENT`] and by at least [`NOISE`] (a few milliseconds are
//! a process start's jitter, not the program's), *faster* the other way.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rotation_game::OptimalLength;
use rotation_game::judging::LengthTiming;
use serde::Serialize;

use crate::output_args::JSON_VERSION;

/// A change smaller than this, in percent of the baseline's median, is not
/// one.
pub const TOLERANCE_PERCENT: f64 = 10.0;

/// A change smaller than this is not one, whatever its percentage.
pub const NOISE: Duration = Duration::from_millis(5);

/// An earlier report: the campaign it is of, and its median CPU time by
/// optimal length.
#[derive(Debug, PartialEq)]
pub struct Baseline {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its seed and mode, which must be this campaign's.
    pub seed: Option<u64>,
    pub mode: String,
    /// Its median CPU time by optimal length.
    pub medians: Vec<(OptimalLength, Duration)>,
}

/// One length's change against the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LengthChange {
    pub optimal_length: OptimalLength,
    pub baseline_median_cpu_seconds: f64,
    pub median_cpu_seconds: f64,
    /// The change in percent of the baseline's median.
    pub percent: f64,
}

/// The campaign against its baseline.
#[derive(Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The baseline's file.
    pub file: String,
    /// The lengths whose median CPU time grew beyond the tolerance.
    pub slower: Vec<LengthChange>,
    /// The lengths whose median CPU time shrank beyond it.
    pub faster: Vec<LengthChange>,
}

impl Baseline {
    /// Reads the report at `path` (a `stress --json` report of this
    /// schema's version).
    ///
    /// # Errors
    ///
    /// What is wrong, naming the file.
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
        let report: serde_json::Value = serde_json::from_slice(&text)
            .map_err(|error| format!("{}: not a JSON report: {error}", path.display()))?;
        Baseline::of(path, &report).map_err(|why| format!("{}: {why}", path.display()))
    }

    fn of(path: &Path, report: &serde_json::Value) -> Result<Baseline, String> {
        if report["version"] != JSON_VERSION {
            return Err(format!(
                "a report of version {}, not {JSON_VERSION} (stress --json writes it)",
                report["version"]
            ));
        }
        let mode = report["mode"]
            .as_str()
            .ok_or("no mode: not a stress report")?
            .to_owned();
        let rows = report["summary"]["by_length"]
            .as_array()
            .ok_or("no summary.by_length: not a stress report")?;
        let mut medians = Vec::new();
        for row in rows {
            let length = row["optimal_length"]
                .as_u64()
                .and_then(|moves| u8::try_from(moves).ok())
                .and_then(OptimalLength::new)
                .ok_or("a summary.by_length row without its optimal_length")?;
            let seconds = row["median_cpu_seconds"]
                .as_f64()
                .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
                .ok_or("a summary.by_length row without its median_cpu_seconds")?;
            medians.push((length, Duration::from_secs_f64(seconds)));
        }
        Ok(Baseline {
            path: path.to_owned(),
            seed: report["seed"].as_u64(),
            mode,
            medians,
        })
    }

    /// Whether it is of the campaign of `seed` and `mode`; why not.
    pub fn check_campaign(&self, seed: Option<u64>, mode: &str) -> Result<(), String> {
        if self.seed == seed && self.mode == mode {
            return Ok(());
        }
        let shown = |seed: Option<u64>, mode: &str| match seed {
            Some(seed) => format!("--seed {seed} {mode}"),
            None => mode.to_owned(),
        };
        Err(format!(
            "{}: a baseline of {}, and this campaign is {}: compare campaigns of the same boards",
            self.path.display(),
            shown(self.seed, &self.mode),
            shown(seed, mode)
        ))
    }

    /// This campaign's timing `by_length` against the baseline's.
    pub fn compare(&self, by_length: &[LengthTiming]) -> Comparison {
        let mut comparison = Comparison {
            file: self.path.display().to_string(),
            slower: Vec::new(),
            faster: Vec::new(),
        };
        for now in by_length {
            let Some(&(_, before)) = self
                .medians
                .iter()
                .find(|(length, _)| *length == now.optimal_length)
            else {
                continue;
            };
            let after = now.median_cpu_time;
            let difference = after.abs_diff(before);
            let percent = if before.is_zero() {
                f64::INFINITY
            } else {
                100.0 * (after.as_secs_f64() / before.as_secs_f64() - 1.0)
            };
            if difference < NOISE || percent.abs() <= TOLERANCE_PERCENT {
                continue;
            }
            let change = LengthChange {
                optimal_length: now.optimal_length,
                baseline_median_cpu_seconds: before.as_secs_f64(),
                median_cpu_seconds: after.as_secs_f64(),
                percent,
            };
            if after > before {
                comparison.slower.push(change);
            } else {
                comparison.faster.push(change);
            }
        }
        comparison
    }
}

impl Comparison {
    /// The text report's lines.
    pub fn lines(&self) -> Vec<String> {
        let describe = |changes: &[LengthChange]| {
            changes
                .iter()
                .map(|change| {
                    format!(
                        "length {}: median CPU {} → {} ({:+.0}%)",
                        change.optimal_length,
                        crate::timing::time(Duration::from_secs_f64(
                            change.baseline_median_cpu_seconds
                        )),
                        crate::timing::time(Duration::from_secs_f64(change.median_cpu_seconds)),
                        change.percent
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let mut lines = vec![format!("against the baseline {}:", self.file)];
        if self.slower.is_empty() && self.faster.is_empty() {
            lines.push(format!(
                "  no optimal length slower or faster by more than {TOLERANCE_PERCENT}% (and {} ms)",
                NOISE.as_millis()
            ));
        }
        if !self.slower.is_empty() {
            lines.push(format!("  slower: {}", describe(&self.slower)));
        }
        if !self.faster.is_empty() {
            lines.push(format!("  faster: {}", describe(&self.faster)));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn length(moves: u8) -> OptimalLength {
        OptimalLength::new(moves).unwrap()
    }

    fn timing(moves: u8, millis: u64) -> LengthTiming {
        LengthTiming {
            optimal_length: length(moves),
            runs: 1,
            median_cpu_time: Duration::from_millis(millis),
            max_cpu_time: Duration::from_millis(millis),
            max_peak_memory_bytes: 0,
        }
    }

    fn baseline() -> Baseline {
        let report = json!({
            "version": 1,
            "seed": 7,
            "mode": "--mix",
            "summary": {"by_length": [
                {"optimal_length": 0, "median_cpu_seconds": 0.004},
                {"optimal_length": 12, "median_cpu_seconds": 0.100},
                {"optimal_length": 13, "median_cpu_seconds": 0.200},
            ]}
        });
        Baseline::of(Path::new("before.json"), &report).unwrap()
    }

    #[test]
    fn a_length_is_slower_or_faster_beyond_the_tolerance_and_the_noise() {
        let comparison = baseline().compare(&[
            // +100% but 4 ms: noise.
            timing(0, 8),
            // +30%: slower.
            timing(12, 130),
            // -50%: faster.
            timing(13, 100),
            // Not in the baseline.
            timing(5, 50),
        ]);
        assert_eq!(
            comparison
                .slower
                .iter()
                .map(|c| c.optimal_length.moves())
                .collect::<Vec<_>>(),
            [12]
        );
        assert!((comparison.slower[0].percent - 30.0).abs() < 1e-9);
        assert_eq!(comparison.faster[0].optimal_length, length(13));
        let lines = comparison.lines();
        assert_eq!(
            lines[1],
            "  slower: length 12: median CPU 100 ms → 130 ms (+30%)"
        );
        assert_eq!(
            lines[2],
            "  faster: length 13: median CPU 200 ms → 100 ms (-50%)"
        );
        // Within 10%: nothing to say.
        let same = baseline().compare(&[timing(12, 109), timing(13, 195)]);
        assert!(same.slower.is_empty() && same.faster.is_empty());
        assert!(same.lines()[1].starts_with("  no optimal length slower or faster"));
    }

    #[test]
    fn only_a_stress_report_of_the_same_campaign_is_a_baseline() {
        let base = baseline();
        assert_eq!(base.check_campaign(Some(7), "--mix"), Ok(()));
        let error = base.check_campaign(Some(8), "--mix").unwrap_err();
        assert!(
            error.contains("--seed 7 --mix, and this campaign is --seed 8 --mix"),
            "{error}"
        );
        for wrong in [
            json!({"version": 2, "mode": "--mix", "summary": {"by_length": []}}),
            json!({"version": 1, "summary": {"by_length": []}}),
            json!({"version": 1, "mode": "--mix"}),
            json!({"version": 1, "mode": "--mix", "summary": {"by_length": [{"optimal_length": 14, "median_cpu_seconds": 1.0}]}}),
        ] {
            assert!(
                Baseline::of(Path::new("x.json"), &wrong).is_err(),
                "{wrong}"
            );
        }
    }
}
