//! Instruction counts: read from gungraun's JSON lines and from a committed
//! baseline, written as Bencher Metric Format JSON.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

/// Instructions executed, by bench (`function.id`, as the baseline names
/// them).
pub type Counts = BTreeMap<String, u64>;

/// The counts in gungraun's `--output-format=json` output: one JSON summary
/// per line (other lines are ignored).
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

/// The counts of a baseline file: `name count` per line, `#` starts a
/// comment.
pub fn parse_baseline(text: &str) -> Counts {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let (name, count) = line.split_once(' ')?;
            Some((name.to_owned(), count.trim().parse().ok()?))
        })
        .collect()
}

/// The measure the counts are under in Bencher: created by Bencher on first
/// use.
pub const BMF_MEASURE: &str = "instructions";

/// The counts in the Bencher Metric Format: `{bench: {"instructions":
/// {"value": count}}}`, for `bencher run --adapter json --file FILE`.
pub fn bmf(counts: &Counts) -> serde_json::Value {
    let benches = counts
        .iter()
        .map(|(name, &count)| {
            (
                name.clone(),
                serde_json::json!({ BMF_MEASURE: { "value": count } }),
            )
        })
        .collect::<serde_json::Map<_, _>>();
    serde_json::Value::Object(benches)
}

/// Runs `cargo bench --bench instructions` (gungraun's JSON on standard
/// output) in `dir`, or here, with `CARGO_TARGET_DIR` set to `target_dir`
/// when given; what it printed on standard output.
pub fn run_benches(dir: Option<&Path>, target_dir: Option<&Path>) -> Result<Vec<u8>, String> {
    let mut command = Command::new("cargo");
    command.args([
        "bench",
        "--bench",
        "instructions",
        "--",
        "--output-format=json",
    ]);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    if let Some(target_dir) = target_dir {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run cargo: {error}"))?;
    if !output.status.success() {
        return Err(format!("cargo bench failed ({})", output.status));
    }
    Ok(output.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_gungraun_summaries_and_writes_bencher_metrics() {
        let line = r#"{"function_name":"pdb","id":"uniform_1000","profiles":[{"data":{"total":{"metrics":{"Ir":{"values":{"new":221191}}}}}}]}"#;
        let counts = parse_gungraun(&format!("Compiling\n{line}\n")).unwrap();
        assert_eq!(
            counts,
            Counts::from([("pdb.uniform_1000".to_owned(), 221_191)])
        );
        assert_eq!(
            bmf(&counts).to_string(),
            r#"{"pdb.uniform_1000":{"instructions":{"value":221191}}}"#
        );
        let baseline = parse_baseline("# comment\n\npdb.uniform_1000 221191\n");
        assert_eq!(baseline, counts);
        assert!(parse_gungraun("{not json").is_err());
    }
}
