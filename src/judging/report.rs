//! What a campaign reports: one record per run, and the summary a setter
//! reads to choose a time limit.

use std::time::Duration;

use serde::Serialize;

use crate::length::OptimalLength;
use crate::runner::Run;
use crate::verdict::Verdict;

/// How many of the slowest runs a [`Summary`] lists.
pub const SLOWEST_LISTED: usize = 5;

/// What a run used, as measured: the numbers every record of a run
/// carries ([`RunRecord`], [`FileRecord`](super::FileRecord)).
///
/// It serializes as `{cpu_seconds, wall_seconds, peak_memory_bytes}`,
/// flattened into the record that holds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Measures {
    /// CPU time, user plus system, of all the run's processes.
    #[serde(rename = "cpu_seconds", serialize_with = "crate::secs_f64::serialize")]
    pub cpu_time: Duration,
    /// Wall-clock time.
    #[serde(rename = "wall_seconds", serialize_with = "crate::secs_f64::serialize")]
    pub wall_time: Duration,
    /// Peak memory, in bytes.
    pub peak_memory_bytes: u64,
}

impl Measures {
    /// What `run` used.
    pub fn of(run: &Run) -> Measures {
        Measures {
            cpu_time: run.cpu_time,
            wall_time: run.wall_time,
            peak_memory_bytes: run.peak_memory_bytes,
        }
    }
}

/// One run of a campaign, as reported.
///
/// It serializes as `{cases, optimal_lengths, verdict, message,
/// cpu_seconds, wall_seconds, peak_memory_bytes}`, `verdict` being the
/// code (`AC`, `WA`, …).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    /// The run's case numbers, from 1, in the order the program got them.
    pub cases: Vec<u64>,
    /// Their optimal lengths, in the same order.
    pub optimal_lengths: Vec<OptimalLength>,
    /// The verdict.
    pub verdict: Verdict,
    /// The verdict's message.
    pub message: String,
    /// What the run used.
    #[serde(flatten)]
    pub measures: Measures,
}

impl RunRecord {
    /// The greatest optimal length of the run's cases: the one its time is
    /// counted under in [`Summary::by_length`].
    pub fn greatest_length(&self) -> Option<OptimalLength> {
        self.optimal_lengths.iter().copied().max()
    }
}

/// How many runs got one verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictCount {
    /// The verdict.
    pub verdict: Verdict,
    /// How many runs got it.
    pub runs: u64,
}

/// The timing of the runs whose greatest optimal length is one length.
///
/// It serializes as `{optimal_length, runs, median_cpu_seconds,
/// max_cpu_seconds, max_peak_memory_bytes}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LengthTiming {
    /// The optimal length.
    pub optimal_length: OptimalLength,
    /// How many runs.
    pub runs: u64,
    /// Their median CPU time (the mean of the two middle ones for an even
    /// number of runs).
    #[serde(
        rename = "median_cpu_seconds",
        serialize_with = "crate::secs_f64::serialize"
    )]
    pub median_cpu_time: Duration,
    /// Their greatest CPU time.
    #[serde(
        rename = "max_cpu_seconds",
        serialize_with = "crate::secs_f64::serialize"
    )]
    pub max_cpu_time: Duration,
    /// Their greatest peak memory, in bytes.
    pub max_peak_memory_bytes: u64,
}

impl LengthTiming {
    /// The timing of those of `runs` whose greatest optimal length is
    /// `length`; `None` when there are none.
    fn of(length: OptimalLength, runs: &[RunRecord]) -> Option<LengthTiming> {
        let of_length: Vec<&RunRecord> = runs
            .iter()
            .filter(|run| run.greatest_length() == Some(length))
            .collect();
        let mut cpu: Vec<Duration> = of_length.iter().map(|run| run.measures.cpu_time).collect();
        cpu.sort_unstable();
        let middle = cpu.len() / 2;
        let median = match cpu.len() {
            0 => return None,
            odd if odd % 2 == 1 => cpu[middle],
            _ => (cpu[middle - 1] + cpu[middle]) / 2,
        };
        Some(LengthTiming {
            optimal_length: length,
            runs: of_length.len() as u64,
            median_cpu_time: median,
            max_cpu_time: *cpu.last().expect("not empty"),
            max_peak_memory_bytes: of_length
                .iter()
                .map(|run| run.measures.peak_memory_bytes)
                .max()
                .unwrap_or(0),
        })
    }
}

/// The summary of a campaign's runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Runs made.
    pub runs: u64,
    /// Cases judged.
    pub cases: u64,
    /// Runs per verdict, for the verdicts given, in the order of
    /// [`Verdict::ALL`].
    pub verdicts: Vec<VerdictCount>,
    /// The [`SLOWEST_LISTED`] runs with the most CPU time, slowest first
    /// (the earlier case first on a tie).
    pub slowest: Vec<RunRecord>,
    /// The runs' timing by their greatest optimal length, for the lengths
    /// that occur, shortest first. A run of several cases counts under the
    /// greatest of their lengths.
    pub by_length: Vec<LengthTiming>,
}

impl Summary {
    /// The summary of `runs`.
    pub fn of(runs: &[RunRecord]) -> Summary {
        let verdicts = Verdict::ALL
            .iter()
            .map(|&verdict| VerdictCount {
                verdict,
                runs: runs.iter().filter(|run| run.verdict == verdict).count() as u64,
            })
            .filter(|count| count.runs > 0)
            .collect();
        let mut by_cpu: Vec<&RunRecord> = runs.iter().collect();
        by_cpu.sort_by(|a, b| {
            b.measures
                .cpu_time
                .cmp(&a.measures.cpu_time)
                .then_with(|| a.cases.cmp(&b.cases))
        });
        let slowest = by_cpu.into_iter().take(SLOWEST_LISTED).cloned().collect();
        let by_length = OptimalLength::all()
            .filter_map(|length| LengthTiming::of(length, runs))
            .collect();
        Summary {
            runs: runs.len() as u64,
            cases: runs.iter().map(|run| run.cases.len() as u64).sum(),
            verdicts,
            slowest,
            by_length,
        }
    }

    /// Whether every run was accepted (and there was at least one).
    pub fn all_accepted(&self) -> bool {
        self.runs > 0
            && self
                .verdicts
                .iter()
                .all(|count| count.verdict == Verdict::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(case: u64, length: u8, verdict: Verdict, cpu_ms: u64, peak: u64) -> RunRecord {
        RunRecord {
            cases: vec![case],
            optimal_lengths: vec![OptimalLength::new(length).unwrap()],
            verdict,
            message: verdict.name().to_owned(),
            measures: Measures {
                cpu_time: Duration::from_millis(cpu_ms),
                wall_time: Duration::from_millis(2 * cpu_ms),
                peak_memory_bytes: peak,
            },
        }
    }

    #[test]
    fn the_summary_counts_verdicts_lists_the_slowest_and_times_each_length() {
        let runs = vec![
            record(1, 0, Verdict::Accepted, 10, 100),
            record(2, 5, Verdict::Accepted, 40, 300),
            record(3, 5, Verdict::WrongAnswer, 20, 200),
            record(4, 5, Verdict::Accepted, 30, 100),
            record(5, 5, Verdict::Accepted, 50, 100),
            record(6, 13, Verdict::TimeLimit, 500, 400),
            record(7, 13, Verdict::Accepted, 40, 400),
        ];
        let summary = Summary::of(&runs);
        assert_eq!((summary.runs, summary.cases), (7, 7));
        assert_eq!(
            summary.verdicts,
            [
                VerdictCount {
                    verdict: Verdict::Accepted,
                    runs: 5
                },
                VerdictCount {
                    verdict: Verdict::WrongAnswer,
                    runs: 1
                },
                VerdictCount {
                    verdict: Verdict::TimeLimit,
                    runs: 1
                },
            ]
        );
        let slowest: Vec<u64> = summary.slowest.iter().map(|run| run.cases[0]).collect();
        assert_eq!(slowest, [6, 5, 2, 7, 4]);
        let five = summary.by_length[1];
        assert_eq!(five.optimal_length.moves(), 5);
        assert_eq!(five.runs, 4);
        assert_eq!(five.median_cpu_time, Duration::from_millis(35));
        assert_eq!(five.max_cpu_time, Duration::from_millis(50));
        assert_eq!(five.max_peak_memory_bytes, 300);
        assert_eq!(summary.by_length.len(), 3);
        assert!(!summary.all_accepted());
    }

    #[test]
    fn a_record_serializes_its_measures_as_fields_of_its_own() {
        let json = serde_json::to_string(&record(3, 5, Verdict::WrongAnswer, 1500, 4096)).unwrap();
        assert_eq!(
            json,
            r#"{"cases":[3],"optimal_lengths":[5],"verdict":"WA","message":"wrong answer","cpu_seconds":1.5,"wall_seconds":3.0,"peak_memory_bytes":4096}"#
        );
    }
}
