//! Instruction counts by bench, read from gungraun's JSON lines (what
//! `cargo bench --bench instructions -- --output-format=json` prints) and
//! from a committed baseline (`benches/instructions.baseline`).
//!
//! The one reader of both formats: `perf-history` uses it, and so does the
//! gate, `tests/library/perf_gate.rs`, which includes this file as a module of its
//! own (a test cannot depend on a binary).

use std::collections::BTreeMap;

/// Instructions executed, by bench (`function.id`, as the baseline names
/// them).
pub type Counts = BTreeMap<String, u64>;

/// The counts in gungraun's `--output-format=json` output: one JSON summary
/// per line (other lines are ignored).
///
/// # Errors
///
/// A summary line that is not JSON, or lacks a name or an instruction
/// count (Callgrind's `Ir`).
pub fn parse_gungraun(text: &str) -> Result<Counts, String> {
    let mut counts = Counts::new();
    for line in text.lines().filter(|line| line.starts_with('{')) {
        let summary: serde_json::Value = serde_json::from_str(line)
            .map_err(|error| format!("a summary line is not JSON: {error}"))?;
        let name = format!(
            "{}.{}",
            summary["function_name"]
                .as_str()
                .ok_or("a summary without a function name")?,
            summary["id"]
                .as_str()
                .ok_or("a summary without a bench id")?
        );
        let instructions =
            summary["profiles"][0]["data"]["total"]["metrics"]["Ir"]["values"]["new"]
                .as_u64()
                .ok_or_else(|| format!("{name}: no instruction count (Ir) in the summary"))?;
        counts.insert(name, instructions);
    }
    Ok(counts)
}

/// The counts of a baseline file: `name count` per line; blank lines and
/// lines starting with `#` are skipped.
///
/// # Errors
///
/// A line that is not a name and a count, with its number.
pub fn parse_baseline(text: &str) -> Result<Counts, String> {
    let mut counts = Counts::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = line
            .split_once(' ')
            .and_then(|(name, count)| Some((name, count.trim().parse::<u64>().ok()?)));
        let Some((name, count)) = parsed else {
            return Err(format!(
                "line {}: expected `name count`, found {line:?}",
                index + 1
            ));
        };
        counts.insert(name.to_owned(), count);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gungraun_summaries_and_baselines() {
        let line = r#"{"function_name":"pdb","id":"uniform_1000","profiles":[{"data":{"total":{"metrics":{"Ir":{"values":{"new":221191}}}}}}]}"#;
        let counts = parse_gungraun(&format!("Compiling\n{line}\n")).unwrap();
        assert_eq!(
            counts,
            Counts::from([("pdb.uniform_1000".to_owned(), 221_191)])
        );
        assert!(parse_gungraun("{not json").is_err());
        let no_count = r#"{"function_name":"pdb","id":"uniform_1000","profiles":[]}"#;
        assert_eq!(
            parse_gungraun(no_count),
            Err("pdb.uniform_1000: no instruction count (Ir) in the summary".to_owned())
        );
        let baseline = parse_baseline("# comment\n\npdb.uniform_1000 221191\n").unwrap();
        assert_eq!(baseline, counts);
        assert_eq!(
            parse_baseline("# comment\npdb.uniform_1000 221191\nida.length_8_10\n"),
            Err("line 3: expected `name count`, found \"ida.length_8_10\"".to_owned())
        );
        assert!(parse_baseline("pdb.uniform_1000 many\n").is_err());
    }
}
