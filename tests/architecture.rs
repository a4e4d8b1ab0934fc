//! The architecture invariants of `ARCHITECTURE.md` that the compiler does
//! not check, checked on the source itself: the layers point only
//! downward, the library prints nothing and names no flag, the solvers do
//! no I/O, and Unix-only code stays in the stress runner.

use std::fs;
use std::path::{Path, PathBuf};

/// The library's modules from the ground up: each may use only the modules
/// before it (and itself).
const LAYERS: &[&str] = &[
    "untrusted",
    "geometry",
    "seconds",
    "cells",
    "rank",
    "moves",
    "board",
    "length",
    "pattern_database",
    "symmetry",
    "solver",
    "generator",
    "census",
    "parser",
    "sample",
    "validator",
    "judge",
    "checker",
    "convention",
    "verify",
    "stress",
    "package",
    "strategies",
    "fuzzing",
];

/// Every `.rs` file of the library (not the binary), with its module: the
/// first component of its path under `src/`.
fn library_files() -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut folders = vec![src.clone()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(&src).unwrap().to_owned();
            // The binary, and the standalone programs a problem package
            // holds (sources for other compilers, not part of the library).
            if relative.starts_with("bin") || relative.starts_with("package/standalone") {
                continue;
            }
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let first = relative.components().next().unwrap();
                let module = Path::new(first.as_os_str())
                    .file_stem()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((module, path));
            }
        }
    }
    files.sort();
    files
}

/// The lines of `path` that are library code: not comments (doc comments
/// included), and not the unit tests, which sit at the bottom of a file
/// after `#[cfg(test)]` and may use any layer.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .map(|(index, line)| (index + 1, line.to_owned()))
        .collect()
}

/// The modules a line refers to as `crate::module`.
fn crate_references(line: &str) -> Vec<String> {
    line.match_indices("crate::")
        .map(|(at, _)| {
            line[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn every_library_module_has_a_layer() {
    for (module, path) in library_files() {
        assert!(
            module == "lib" || LAYERS.contains(&module.as_str()),
            "{} is in no layer of this test",
            path.display()
        );
    }
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let mut upward = Vec::new();
    for (module, path) in library_files() {
        let Some(level) = LAYERS.iter().position(|&layer| layer == module) else {
            continue;
        };
        for (number, line) in code_lines(&path) {
            for used in crate_references(&line) {
                let used_level = LAYERS.iter().position(|&layer| layer == used);
                if used_level.is_some_and(|used_level| used_level > level) {
                    upward.push(format!("{}:{number}: {module} uses {used}", path.display()));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "upward references:\n{}",
        upward.join("\n")
    );
}

/// The lines of library files (except those of `allowed` modules) that
/// hold any of `needles`.
fn offending_lines(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (module, path) in library_files() {
        if allowed.contains(&module.as_str()) {
            continue;
        }
        for (number, line) in code_lines(&path) {
            if needles.iter().any(|needle| line.contains(needle)) {
                found.push(format!("{}:{number}: {}", path.display(), line.trim()));
            }
        }
    }
    found
}

/// The package runs no programs: it builds on every platform, and its
/// calibration (`package::calibration`) is arithmetic on the runs the
/// binary makes with `stress` (`stress::data_folder`,
/// `stress::folder_judging`), though the layers would let it use `stress`.
#[test]
fn the_package_runs_no_programs() {
    let mut used = Vec::new();
    for (module, path) in library_files() {
        if module != "package" {
            continue;
        }
        for (number, line) in code_lines(&path) {
            if crate_references(&line).iter().any(|used| used == "stress") {
                used.push(format!("{}:{number}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(used.is_empty(), "{}", used.join("\n"));
}

#[test]
fn the_library_prints_nothing() {
    let printing = offending_lines(&["println!", "print!(", "eprint", "dbg!"], &[]);
    assert!(printing.is_empty(), "{}", printing.join("\n"));
}

/// Unix calls stay in the stress runner, except in a function of another
/// module that is one of three forms of it: `#[cfg(unix)]`, `#[cfg(windows)]`
/// and `#[cfg(not(any(unix, windows)))]`, so that the module builds anywhere.
#[test]
fn unix_only_code_stays_in_the_stress_runner() {
    let unix: Vec<String> = offending_lines(&["std::os::unix", "nix::", "libc::"], &["stress"])
        .into_iter()
        .filter(|found| !in_a_portable_function(found))
        .collect();
    assert!(unix.is_empty(), "{}", unix.join("\n"));
}

/// The function a `#[cfg(...)]` attribute on line `at` of `lines` is on:
/// the first `fn` after it, past doc comments and other attributes.
fn function_under(lines: &[&str], at: usize) -> Option<String> {
    let line = lines[at + 1..]
        .iter()
        .map(|line| line.trim())
        .find(|line| !line.starts_with("//") && !line.starts_with("#["))?;
    let name = line.strip_prefix("pub(super) ").unwrap_or(line);
    let name = name.strip_prefix("fn ")?;
    Some(name.split('(').next()?.to_owned())
}

/// Whether the line `offending_lines` found (`path:number: line`) is in a
/// `#[cfg(unix)]` function whose file also defines it for Windows and for
/// every other system.
fn in_a_portable_function(found: &str) -> bool {
    let mut parts = found.splitn(3, ':');
    let (Some(path), Some(number)) = (parts.next(), parts.next()) else {
        return false;
    };
    let Ok(number) = number.parse::<usize>() else {
        return false;
    };
    let text = fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The attribute of the item the line is in: the nearest one above it.
    let Some(attribute) = (0..number - 1)
        .rev()
        .find(|&at| lines[at].trim().starts_with("#[cfg("))
    else {
        return false;
    };
    if lines[attribute].trim() != "#[cfg(unix)]" {
        return false;
    }
    let Some(function) = function_under(&lines, attribute) else {
        return false;
    };
    let defined_for = |cfg: &str| {
        (0..lines.len()).any(|at| {
            lines[at].trim() == cfg && function_under(&lines, at).as_ref() == Some(&function)
        })
    };
    defined_for("#[cfg(windows)]") && defined_for("#[cfg(not(any(unix, windows)))]")
}

#[test]
fn solvers_do_no_io() {
    let io = offending_lines(
        &["std::io", "std::fs", "std::process", "std::net", "std::env"],
        &[
            "untrusted",
            "parser",
            "validator",
            "judge",
            "checker",
            "stress",
            "fuzzing",
            "sample",
        ],
    );
    assert!(io.is_empty(), "{}", io.join("\n"));
}

/// Library files that build another program's command line, whose
/// literals are that program's flags, not ours: bubblewrap's, and the
/// compilers' that build a package's programs.
const OTHER_PROGRAMS_FLAGS: &[&str] = &["stress/sandbox.rs", "package/standalone.rs"];

#[test]
fn no_library_message_names_a_flag() {
    // A flag in a string literal: a quote, then anything but a quote, then
    // `--` and a letter.
    let mut named = Vec::new();
    for (_, path) in library_files() {
        if OTHER_PROGRAMS_FLAGS
            .iter()
            .any(|file| path.ends_with(Path::new("src").join(file)))
        {
            continue;
        }
        for (number, line) in code_lines(&path) {
            let in_literal = line.split('"').skip(1).step_by(2).any(|literal| {
                literal
                    .match_indices("--")
                    .any(|(at, _)| literal[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
            });
            if in_literal {
                named.push(format!("{}:{number}: {}", path.display(), line.trim()));
            }
        }
    }
    assert!(named.is_empty(), "{}", named.join("\n"));
}

#[test]
fn the_checks_above_can_fail() {
    assert_eq!(crate_references("use crate::solver::{Solver};"), ["solver"]);
    assert!(!offending_lines(&["pub mod"], &[]).is_empty());
}

#[test]
fn a_unix_call_is_portable_only_beside_its_other_forms() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("reads.rs");
    let unix =
        "/// Doc.\n#[cfg(unix)]\nfn read_at() {\n    std::os::unix::fs::FileExt::read_at();\n}\n";
    let windows = "#[cfg(windows)]\nfn read_at() {}\n";
    let other = "/// Never called.\n#[cfg(not(any(unix, windows)))]\nfn read_at() {}\n";
    let found = format!(
        "{}:4: std::os::unix::fs::FileExt::read_at();",
        path.display()
    );
    for (text, portable) in [
        (format!("{unix}{windows}{other}"), true),
        (format!("{other}{windows}{unix}"), true),
        (format!("{unix}{windows}"), false),
        (format!("{unix}{other}"), false),
        (
            format!("{unix}{}{other}", windows.replace("read_at", "seek_read")),
            false,
        ),
        (
            format!(
                "{}{windows}{other}",
                unix.replace("#[cfg(unix)]", "#[cfg(target_os = \"linux\")]")
            ),
            false,
        ),
    ] {
        fs::write(&path, &text).unwrap();
        let number = text
            .lines()
            .position(|line| line.contains("std::os::unix"))
            .unwrap()
            + 1;
        let found = found.replacen(":4:", &format!(":{number}:"), 1);
        assert_eq!(in_a_portable_function(&found), portable, "{text}");
    }
}
