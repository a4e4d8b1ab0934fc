//! The instruction-count gate: compares a run of `benches/instructions.rs`
//! with the committed baseline, `benches/instructions.baseline`.
//!
//! Ignored by default because it needs the bench results first; `just
//! perf-gate` runs the benches under Callgrind, writing one JSON summary per
//! line to `target/instructions.jsonl`, then runs this test. It fails when a
//! bench executes more than 3 percent more instructions than its baseline,
//! when a bench has no baseline, or when a baseline has no bench.
//! `just perf-update` (which sets `PERF_GATE_UPDATE=1`) rewrites the baseline
//! from the run instead, on purpose.

#[path = "../../src/bin/perf-history/counts.rs"]
mod counts;

use std::path::Path;

use counts::{Counts, parse_baseline, parse_gungraun};

/// The largest accepted growth over the baseline, in percent.
const TOLERANCE_PERCENT: u64 = 3;

const BASELINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/instructions.baseline");

/// Instruction counts by bench from the gungraun JSON lines in `results`.
fn measured(results: &Path) -> Counts {
    let text = std::fs::read_to_string(results).unwrap_or_else(|error| {
        panic!(
            "cannot read {}: {error}; run `just perf-gate`, which runs the benches first",
            results.display()
        )
    });
    parse_gungraun(&text).unwrap_or_else(|error| panic!("{}: {error}", results.display()))
}

/// The committed baseline.
fn baseline() -> Counts {
    let text = std::fs::read_to_string(BASELINE).expect("the baseline is committed");
    parse_baseline(&text).unwrap_or_else(|error| panic!("{BASELINE}: {error}"))
}

fn write_baseline(counts: &Counts) {
    let mut text = String::from(
        "# Instructions executed by each bench of benches/instructions.rs (Callgrind's Ir).\n\
         # `just perf-gate` fails when a bench exceeds its count by more than 3 percent;\n\
         # `just perf-update` rewrites this file.\n",
    );
    for (name, count) in counts {
        text.push_str(&format!("{name} {count}\n"));
    }
    std::fs::write(BASELINE, text).expect("the baseline is writable");
}

/// The gate's verdict: one line per bench, and the failures.
fn compare(baseline: &Counts, measured: &Counts) -> (String, Vec<String>) {
    let mut report = String::new();
    let mut failures = Vec::new();
    for (name, &expected) in baseline {
        match measured.get(name) {
            None => failures.push(format!("{name}: in the baseline but not measured")),
            Some(&found) => {
                let change = 100.0 * (found as f64 / expected as f64 - 1.0);
                report.push_str(&format!(
                    "{name:<28} baseline {expected:>12}  now {found:>12}  {change:+.2}%\n"
                ));
                // In integers, so that exactly +3% passes.
                if u128::from(found) * 100
                    > u128::from(expected) * u128::from(100 + TOLERANCE_PERCENT)
                {
                    failures.push(format!(
                        "{name}: {found} instructions, {change:+.2}% over the baseline's {expected} (limit +{TOLERANCE_PERCENT}%)"
                    ));
                }
            }
        }
    }
    for name in measured.keys().filter(|name| !baseline.contains_key(*name)) {
        failures.push(format!(
            "{name}: measured but not in the baseline (run `just perf-update`)"
        ));
    }
    (report, failures)
}

#[test]
#[ignore = "needs the bench results: run `just perf-gate`"]
fn instruction_counts_stay_within_three_percent_of_the_baseline() {
    let results = std::env::var_os("PERF_GATE_RESULTS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/instructions.jsonl"));
    let measured = measured(&results);
    assert!(
        !measured.is_empty(),
        "{} holds no results",
        results.display()
    );
    if std::env::var_os("PERF_GATE_UPDATE").is_some() {
        write_baseline(&measured);
        eprintln!("rewrote {BASELINE}");
        return;
    }
    let (report, failures) = compare(&baseline(), &measured);
    eprint!("{report}");
    assert!(
        failures.is_empty(),
        "instruction counts regressed:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_gate_fails_on_growth_over_three_percent_and_on_missing_benches() {
    let baseline: Counts = [("a.x".to_owned(), 1000), ("b.y".to_owned(), 1000)].into();
    let within: Counts = [("a.x".to_owned(), 1030), ("b.y".to_owned(), 500)].into();
    assert!(compare(&baseline, &within).1.is_empty());
    let over: Counts = [("a.x".to_owned(), 1031), ("b.y".to_owned(), 1000)].into();
    assert_eq!(compare(&baseline, &over).1.len(), 1);
    let missing: Counts = [("a.x".to_owned(), 1000), ("c.z".to_owned(), 1)].into();
    assert_eq!(compare(&baseline, &missing).1.len(), 2);
}

#[test]
fn the_committed_baseline_covers_every_bench() {
    let names: Vec<String> = baseline().into_keys().collect();
    assert_eq!(
        names,
        [
            "bfs.length_6_10",
            "check.uniform_10000",
            "ida.length_8_10",
            "judge.uniform_10000",
            "parse.uniform_10000",
            "pdb.length_13_100",
            "pdb.uniform_1000"
        ]
    );
}
