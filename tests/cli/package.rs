//! `package` as a user runs it: the folder it writes is the library's
//! package, byte for byte, whatever the number of threads; what it
//! refuses. The package itself is checked in the library's tests
//! (`tests/library/package.rs`); `judge.rs` judges submissions on it.

use std::collections::HashMap;
use std::path::Path;

use crate::support::package::{SEED, file, package};
use crate::support::skip::can_run;
use crate::support::{run, stderr};

/// Every file under `dir`, by path relative to it with `/` separators.
fn files_under(dir: &Path) -> HashMap<String, Vec<u8>> {
    let mut found = HashMap::new();
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let relative = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                found.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

#[test]
fn the_command_writes_the_same_bytes_for_a_seed_on_one_thread_as_the_library_on_all() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("rotationgame");
    let seed = SEED.to_string();
    let output = run(&[
        "package",
        target.to_str().unwrap(),
        "--seed",
        &seed,
        "--threads",
        "1",
        "--report",
        "--zip",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The next steps of a Kattis package: judge, verifyproblem, import.
    let said = stderr(&output);
    let shown = target.display();
    for step in [
        format!("  rotation-game judge --program ./mine {shown}   # "),
        format!("  verifyproblem {shown}   # problemtools checks it"),
        format!(
            "  import {}.zip in DOMjudge",
            dir.path().join("rotationgame").display()
        ),
    ] {
        assert!(said.contains(&step), "{step:?} not in:\n{said}");
    }
    let package = package();
    let written = files_under(&target);
    assert_eq!(written.len(), package.files.len());
    for expected in &package.files {
        assert!(
            written.get(&expected.path) == Some(&expected.contents),
            "{} differs",
            expected.path
        );
    }
    assert_eq!(output.stdout, file(package, "data/README.md"));
    // The zip holds the folder's files at its root, as Python's zipfile and
    // unzip read it.
    let zip = dir.path().join("rotationgame.zip");
    let unzipped = dir.path().join("unzipped");
    let extracted = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z:\n    assert z.testzip() is None\n    z.extractall(sys.argv[2])",
        ])
        .arg(&zip)
        .arg(&unzipped)
        .status()
        .unwrap();
    assert!(extracted.success());
    assert_eq!(files_under(&unzipped), written);
    if can_run(
        std::process::Command::new("unzip")
            .arg("-v")
            .output()
            .is_ok(),
        "unzip",
        "testing the zip with unzip",
    ) {
        let tested = std::process::Command::new("unzip")
            .arg("-tq")
            .arg(&zip)
            .output()
            .unwrap();
        assert!(tested.status.success(), "{tested:?}");
    }
    // It ends by saying what to do next.
    assert!(
        stderr(&output).contains("rotation-game judge --program ./mine"),
        "{}",
        stderr(&output)
    );
    let summary = format!("{} test files", package.test_files.len());
    assert!(stderr(&output).contains(&summary), "{}", stderr(&output));
}

#[test]
fn the_command_refuses_a_used_folder_a_bad_short_name_and_too_few_cases() {
    let dir = tempfile::tempdir().unwrap();
    let used = dir.path().join("used");
    std::fs::create_dir(&used).unwrap();
    std::fs::write(used.join("keep.txt"), "mine").unwrap();
    let bad_name = dir.path().join("rotation-game");
    let fresh = dir.path().join("fresh");
    for (args, status, message) in [
        (vec![used.to_str().unwrap()], 73, "exists and is not empty"),
        (
            vec![bad_name.to_str().unwrap()],
            2,
            "lowercase letters and digits",
        ),
        (
            vec![fresh.to_str().unwrap(), "--max-cases", "1"],
            2,
            "at least 2 cases",
        ),
        (vec![], 2, "needs DIR, or --report"),
    ] {
        let mut full = vec!["package", "--seed", "1"];
        full.extend(args);
        let output = run(&full);
        assert_eq!(output.status.code(), Some(status), "{full:?}");
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
    }
    assert_eq!(
        std::fs::read_to_string(used.join("keep.txt")).unwrap(),
        "mine"
    );
    assert!(!fresh.exists());
}
