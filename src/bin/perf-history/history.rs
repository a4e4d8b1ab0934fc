//! The instruction-count benches on each of the last commits: one git
//! worktree and one build at a time, the results in a CSV file.

use std::fs;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::counts::{Counts, parse_baseline, parse_gungraun};
use crate::results;

/// One bench at one commit: a row of `history.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The commit's full hash.
    pub commit: String,
    /// Its committer date, ISO 8601.
    pub date: String,
    /// Its subject line.
    pub subject: String,
    /// The bench (`function.id`); empty on the one row of a commit without
    /// any count or baseline.
    pub bench: String,
    /// The instructions the bench executed at that commit, if it ran.
    pub instructions: Option<u64>,
    /// The commit's committed baseline for the bench, if it has one.
    pub baseline: Option<u64>,
}

/// The CSV file's header.
const HEADER: &str = "commit,date,subject,bench,instructions,baseline";

/// A CSV field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The fields of one CSV line (quoted fields may hold commas and doubled
/// quotes).
fn fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("a field").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("a field").push(c),
        }
    }
    fields
}

/// Writes `rows` as CSV.
pub fn write_csv(path: &Path, rows: &[Row]) -> io::Result<()> {
    let mut text = format!("{HEADER}\n");
    for row in rows {
        let number = |value: Option<u64>| value.map(|v| v.to_string()).unwrap_or_default();
        text.push_str(&format!(
            "{},{},{},{},{},{}\n",
            row.commit,
            row.date,
            field(&row.subject),
            row.bench,
            number(row.instructions),
            number(row.baseline)
        ));
    }
    fs::write(path, text)
}

/// Reads what [`write_csv`] wrote.
pub fn read_csv(path: &Path) -> Result<Vec<Row>, String> {
    let text = fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(format!("{}: expected the header {HEADER}", path.display()));
    }
    lines
        .map(|line| {
            let [commit, date, subject, bench, instructions, baseline]: [String; 6] = fields(line)
                .try_into()
                .map_err(|_| format!("{}: not six fields: {line}", path.display()))?;
            let number = |text: String| {
                (!text.is_empty())
                    .then(|| {
                        text.parse()
                            .map_err(|_| format!("{}: not a count: {text}", path.display()))
                    })
                    .transpose()
            };
            Ok(Row {
                commit,
                date,
                subject,
                bench,
                instructions: number(instructions)?,
                baseline: number(baseline)?,
            })
        })
        .collect()
}

/// Runs `git` with `arguments` in `repository`; its standard output.
fn git(repository: &Path, arguments: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(repository)
        .args(arguments)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run git: {error}"))?;
    if !output.status.success() {
        return Err(format!("git {} failed", arguments.join(" ")));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_owned())
}

/// The last `count` commits of the first-parent history of `HEAD`, oldest
/// first.
pub fn last_commits(repository: &Path, count: usize) -> Result<Vec<String>, String> {
    let listed = git(
        repository,
        &[
            "rev-list",
            "--first-parent",
            "-n",
            &count.to_string(),
            "HEAD",
        ],
    )?;
    Ok(listed.lines().rev().map(str::to_owned).collect())
}

/// The gungraun-runner version a commit's `Cargo.lock` pins, if any.
fn pinned_runner(lock: &str) -> Option<String> {
    let mut lines = lock.lines();
    lines.find(|line| *line == "name = \"gungraun\"")?;
    let version = lines
        .next()?
        .strip_prefix("version = \"")?
        .strip_suffix('"')?;
    Some(version.to_owned())
}

/// The installed gungraun-runner's version.
fn installed_runner() -> Option<String> {
    let output = Command::new("gungraun-runner")
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    Some(text.trim().strip_prefix("gungraun-runner ")?.to_owned())
}

/// Measures one commit in a worktree under `work`, building in
/// `target_dir`: its rows, with a count for each bench that ran.
pub fn measure_commit(
    repository: &Path,
    commit: &str,
    work: &Path,
    target_dir: &Path,
) -> Result<Vec<Row>, String> {
    let date = git(repository, &["show", "-s", "--format=%cI", commit])?;
    let subject = git(repository, &["show", "-s", "--format=%s", commit])?;
    let short = &commit[..commit.len().min(12)];
    let tree = work.join(short);
    let tree_text = tree.to_string_lossy().into_owned();
    // A worktree left by an interrupted run.
    if tree.exists() {
        git(repository, &["worktree", "remove", "--force", &tree_text])?;
    }
    git(repository, &["worktree", "prune"])?;
    git(
        repository,
        &["worktree", "add", "--detach", "--force", &tree_text, commit],
    )?;
    let measured = run_benches(&tree, target_dir);
    // A commit without a baseline (or with one this reader does not take)
    // is charted without it.
    let baseline = match fs::read_to_string(tree.join("benches/instructions.baseline")) {
        Ok(text) => parse_baseline(&text).unwrap_or_else(|error| {
            eprintln!("perf-history: {short}: benches/instructions.baseline: {error}");
            Counts::new()
        }),
        Err(_) => Counts::new(),
    };
    git(repository, &["worktree", "remove", "--force", &tree_text])?;
    let counts = match measured {
        Ok(counts) => counts,
        Err(error) => {
            eprintln!("perf-history: {short}: {error}");
            Counts::new()
        }
    };
    let mut benches: Vec<&String> = counts.keys().chain(baseline.keys()).collect();
    benches.sort();
    benches.dedup();
    let row = |bench: &str| Row {
        commit: commit.to_owned(),
        date: date.clone(),
        subject: subject.clone(),
        bench: bench.to_owned(),
        instructions: counts.get(bench).copied(),
        baseline: baseline.get(bench).copied(),
    };
    if benches.is_empty() {
        return Ok(vec![row("")]);
    }
    Ok(benches.into_iter().map(|bench| row(bench)).collect())
}

/// Runs `cargo bench --bench instructions` in `tree`; the counts.
fn run_benches(tree: &Path, target_dir: &Path) -> Result<Counts, String> {
    if !tree.join("benches/instructions.rs").exists() {
        return Err("no benches/instructions.rs at this commit".to_owned());
    }
    let lock = fs::read_to_string(tree.join("Cargo.lock")).unwrap_or_default();
    let pinned = pinned_runner(&lock);
    if pinned != installed_runner() {
        return Err(format!(
            "the commit pins gungraun {pinned:?}, gungraun-runner {:?} is installed",
            installed_runner()
        ));
    }
    let stdout = results::run_benches(Some(tree), Some(target_dir))?;
    parse_gungraun(&String::from_utf8_lossy(&stdout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trips_subjects_with_commas_and_quotes() {
        let rows = vec![
            Row {
                commit: "abc".to_owned(),
                date: "2026-12-01T05:00:00+00:00".to_owned(),
                subject: "pdb: \"paths\", then more".to_owned(),
                bench: "pdb.uniform_1000".to_owned(),
                instructions: Some(221_191),
                baseline: None,
            },
            Row {
                commit: "def".to_owned(),
                date: "2026-12-01T06:00:00+00:00".to_owned(),
                subject: "plain".to_owned(),
                bench: String::new(),
                instructions: None,
                baseline: Some(5),
            },
        ];
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.csv");
        write_csv(&path, &rows).unwrap();
        assert_eq!(read_csv(&path).unwrap(), rows);
    }

    #[test]
    fn the_pinned_runner_is_read_from_the_lock_file() {
        let lock = "[[package]]\nname = \"gungraun\"\nversion = \"0.20.0\"\n";
        assert_eq!(pinned_runner(lock).as_deref(), Some("0.20.0"));
        assert_eq!(pinned_runner("[[package]]\nname = \"serde\"\n"), None);
    }
}
