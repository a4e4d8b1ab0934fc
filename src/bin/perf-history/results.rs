//! Instruction counts run and written: the benches run through cargo, and
//! the counts as Bencher Metric Format JSON.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::counts::Counts;

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
    fn writes_bencher_metrics() {
        let counts = Counts::from([("pdb.uniform_1000".to_owned(), 221_191)]);
        assert_eq!(
            bmf(&counts).to_string(),
            r#"{"pdb.uniform_1000":{"instructions":{"value":221191}}}"#
        );
    }
}
