//! The README's and the guides' examples run as they are written.
//!
//! Every fenced block of shell commands in [`documents`] is either run here
//! or marked, on the line before it, as `<!-- illustrative: why -->` (or as
//! one of the README's two `<!-- quick-start: … -->` commands, which
//! `.ci/readme-quick-start.sh` runs). A `console` block is a session: each
//! `$ ` line is run by `bash -c` in a scratch folder holding
//! `examples/sample.txt` (one folder for all of a document's sessions, in
//! order, as a reader follows them), with the binary under test first on
//! `PATH`, and
//! what it prints (standard output and standard error together) must match
//! the lines below it. In those lines `…` stands for any text, and a line
//! that is only `…` for any number of lines: times, and whatever depends on
//! the machine.
//!
//! The README's tables of the sandbox's promises are checked too: the
//! promises are those of `src/runner/sandbox.rs`, and every test and test
//! file they cite exists.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The documents whose examples are checked, from the repository's root:
/// the README and every page of docs/, so that a page added later is
/// checked too.
fn documents() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 10, "docs/ holds the guides: {pages:?}");
    pages.insert(0, "README.md".to_owned());
    pages
}

/// Fence languages that hold commands to run.
const SHELL_LANGUAGES: &[&str] = &["sh", "bash", "shell", "console", "yaml"];

/// The one line `stress` and `judge` print where bubblewrap is missing: the
/// examples show a machine that has it.
const NO_SANDBOX_WARNING: &str = "rotation-game: warning: runs are not isolated";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(document: &str) -> String {
    std::fs::read_to_string(root().join(document))
        .unwrap_or_else(|error| panic!("{document}: {error}"))
}

/// A fenced block: its language, its lines, the line of its opening fence
/// (from 1) and the marker comment just before it, if any.
struct Block {
    language: String,
    lines: Vec<String>,
    line: usize,
    marker: Option<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    let mut previous: Option<&str> = None;
    while let Some((index, line)) = lines.next() {
        if let Some(language) = line.strip_prefix("```") {
            let marker = previous
                .filter(|line| line.starts_with("<!--"))
                .map(str::to_owned);
            let body: Vec<String> = lines
                .by_ref()
                .map(|(_, line)| line)
                .take_while(|line| !line.starts_with("```"))
                .map(str::to_owned)
                .collect();
            blocks.push(Block {
                language: language.trim().to_owned(),
                lines: body,
                line: index + 1,
                marker,
            });
            previous = None;
        } else if !line.trim().is_empty() {
            previous = Some(line);
        }
    }
    blocks
}

/// The lines of the fenced block of `document` whose first line starts
/// with `start`: an example output that a test compares with what it
/// printed ([`lines_match`]).
pub(crate) fn block_starting(document: &str, start: &str) -> Vec<String> {
    blocks(&read(document))
        .into_iter()
        .find(|block| {
            block
                .lines
                .first()
                .is_some_and(|line| line.starts_with(start))
        })
        .unwrap_or_else(|| panic!("{document} has no block starting {start:?}"))
        .lines
}

/// Whether `line` matches `pattern`, in which `…` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `actual` matches `expected`, in which a line of only `…` stands
/// for any number of lines.
pub(crate) fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "…" => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((first, rest)) => {
            !actual.is_empty()
                && line_matches(first.trim_end(), actual[0].trim_end())
                && lines_match(rest, &actual[1..])
        }
    }
}

/// A scratch folder as the examples expect it: `examples/sample.txt`.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("examples")).unwrap();
    std::fs::copy(
        root().join("examples/sample.txt"),
        dir.path().join("examples/sample.txt"),
    )
    .unwrap();
    dir
}

fn path_with_binary() -> String {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_rotation-game"));
    let folder = binary.parent().unwrap().to_str().unwrap().to_owned();
    match std::env::var("PATH") {
        Ok(path) => format!("{folder}:{path}"),
        Err(_) => folder,
    }
}

/// Runs the `console` block's session and says where it differs.
fn run_session(document: &str, block: &Block, dir: &Path) -> Result<(), String> {
    let path = path_with_binary();
    let mut lines = block.lines.iter().peekable();
    while let Some(line) = lines.next() {
        let command = line
            .strip_prefix("$ ")
            .ok_or_else(|| format!("{document}:{}: {line:?} is not a `$ ` command", block.line))?;
        let mut expected = Vec::new();
        while let Some(next) = lines.next_if(|next| !next.starts_with("$ ")) {
            expected.push(next.as_str());
        }
        let output = Command::new("bash")
            .arg("-c")
            .arg(format!("exec 2>&1; {command}"))
            .current_dir(dir)
            .env("PATH", &path)
            .env_remove("NO_COLOR")
            .output()
            .map_err(|error| format!("bash: {error}"))?;
        let text = String::from_utf8_lossy(&output.stdout);
        let mut actual: Vec<&str> = text
            .lines()
            .filter(|line| !line.starts_with(NO_SANDBOX_WARNING))
            .collect();
        while actual.last().is_some_and(|line| line.trim().is_empty()) {
            actual.pop();
        }
        while expected.last().is_some_and(|line| line.trim().is_empty()) {
            expected.pop();
        }
        if !lines_match(&expected, &actual) {
            return Err(format!(
                "{document}:{}: `{command}` printed\n{}\nwhere the document shows\n{}",
                block.line,
                actual.join("\n"),
                expected.join("\n")
            ));
        }
    }
    Ok(())
}

/// Checks one document: runs its sessions, and requires a marker on every
/// other block of commands.
fn check_document(document: &str) {
    let text = read(document);
    let dir = scratch();
    let mut failures = Vec::new();
    for block in blocks(&text) {
        let holds_commands = SHELL_LANGUAGES.contains(&block.language.as_str())
            || block.lines.iter().any(|line| line.starts_with("$ "));
        if !holds_commands {
            continue;
        }
        let marked = block.marker.as_deref().is_some_and(|marker| {
            marker.starts_with("<!-- illustrative: ") || marker.starts_with("<!-- quick-start: ")
        });
        if block.language == "console" && !marked {
            if let Err(failure) = run_session(document, &block, dir.path()) {
                failures.push(failure);
            }
        } else if !marked {
            failures.push(format!(
                "{document}:{}: a ```{} block of commands that is neither a `console` session run here nor marked `<!-- illustrative: why -->`",
                block.line, block.language
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_examples_run_as_written() {
    check_document("README.md");
}

#[test]
fn guides_examples_run_as_written() {
    for document in &documents()[1..] {
        check_document(document);
    }
}

#[test]
fn the_readme_has_the_two_quick_start_commands() {
    let text = read("README.md");
    for (name, command) in [
        ("solve", "cargo run --release -- solve examples/sample.txt"),
        ("test", "cargo test"),
    ] {
        let marker = format!("<!-- quick-start: {name} -->");
        let block = blocks(&text)
            .into_iter()
            .find(|block| block.marker.as_deref() == Some(marker.as_str()))
            .unwrap_or_else(|| panic!("no block after {marker}"));
        assert_eq!(
            (block.language.as_str(), &block.lines[..]),
            ("sh", &[command.to_owned()][..])
        );
    }
}

/// The first column of the Markdown table that follows `heading`'s line.
fn table_column(text: &str, after: &str, column: usize) -> Vec<String> {
    let start = text.find(after).unwrap_or_else(|| panic!("no {after:?}"));
    text[start..]
        .lines()
        .skip_while(|line| !line.trim_start_matches("//! ").starts_with('|'))
        .map(|line| line.trim_start_matches("//! "))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.split(" | ")
                .nth(column)
                .unwrap()
                .trim_matches('|')
                .trim()
                .to_owned()
        })
        .collect()
}

#[test]
fn the_readmes_sandbox_promises_are_the_sandboxs_and_their_tests_exist() {
    let readme = read("README.md");
    let sandbox = read("src/runner/sandbox.rs");
    assert_eq!(
        table_column(&readme, "## What the sandbox promises", 0),
        table_column(&sandbox, "# The promises", 0),
        "the README's promises are src/runner/sandbox.rs's, in its order"
    );
    let tests: String = [
        "tests/cli/sandbox_attacks.rs",
        "tests/cpu_share.rs",
        "tests/cli/limits.rs",
        "tests/cli/stress.rs",
        "tests/library/runner.rs",
    ]
    .into_iter()
    .map(read)
    .collect();
    let section = &readme[readme.find("## What the sandbox promises").unwrap()..];
    let section = &section[..section.find("\n## ").unwrap()];
    let mut cited = 0;
    for row in section.lines().filter(|line| line.starts_with('|')) {
        let Some(column) = row.split(" | ").nth(2) else {
            continue;
        };
        for name in column.split('`').skip(1).step_by(2) {
            if name.starts_with("tests/") {
                assert!(
                    root().join(name).is_file(),
                    "the README cites {name}, which does not exist"
                );
            } else if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') && name.contains('_')
            {
                cited += 1;
                assert!(
                    tests.contains(&format!("fn {name}()")),
                    "the README cites the test {name}, which does not exist"
                );
            }
        }
    }
    assert!(cited >= 20, "{cited} tests cited");
}

#[test]
fn the_matcher_elides_text_and_lines() {
    assert!(line_matches("in … s", "in 0.32 s"));
    assert!(!line_matches("in … s", "in 0.32 ms!"));
    assert!(line_matches("a … b … c", "a x b y c"));
    assert!(lines_match(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(lines_match(&["a", "…"], &["a"]));
    assert!(!lines_match(&["a", "…", "d"], &["a", "b"]));
}
