//! The architecture invariants of `ARCHITECTURE.md` that the compiler does
//! not check, checked on the source itself: the layers point only
//! downward, the library prints nothing and names no flag, the solvers do
//! no I/O, and Unix-only code stays in the stress runner.
//!
//! Each file is read whole, apart from its comments and unit tests
//! (`rust_source`), and every form of a path to another module counts.

#[path = "architecture/rust_source.rs"]
mod rust_source;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rust_source::{code_lines, crate_references, root_reexports, use_paths};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The library's modules from the ground up, as the "Layers" block of
/// `ARCHITECTURE.md` lists them (a line a floor, left to right; up to the
/// line that separates the binary): each may use only the modules before
/// it (and itself).
fn layers() -> Vec<String> {
    let text = fs::read_to_string(repository().join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("\n## Layers\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a Layers section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the Layers section draws them in a text block");
    let mut layers = Vec::new();
    for line in block.lines().take_while(|line| !line.starts_with('─')) {
        // The modules, then two spaces or more and what they hold.
        let modules = line.split("  ").next().unwrap_or_default();
        for module in modules.split('·') {
            // `solver (registry, …)`, `stress (Unix)`: the name only.
            let name: String = module
                .trim()
                .chars()
                .take_while(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                .collect();
            if !name.is_empty() {
                layers.push(name);
            }
        }
    }
    layers
}

/// Every `.rs` file of the library (not the binary), with its module: the
/// first component of its path under `src/`.
fn library_files() -> Vec<(String, PathBuf)> {
    let src = repository().join("src");
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

/// The names the crate root re-exports, with their modules.
fn reexports() -> BTreeMap<String, String> {
    root_reexports(&fs::read_to_string(repository().join("src/lib.rs")).unwrap())
}

/// The crate modules the library file at `path` refers to, by line.
fn references_of(path: &Path, reexports: &BTreeMap<String, String>) -> Vec<(usize, String)> {
    let relative = path.strip_prefix(repository().join("src")).unwrap();
    crate_references(relative, &fs::read_to_string(path).unwrap(), reexports)
}

/// The references of the file `relative` (under `src/`), holding `text`,
/// to modules above its own in `layers`, as `path:line: module uses
/// other`.
fn upward_references(
    relative: &Path,
    text: &str,
    layers: &[String],
    reexports: &BTreeMap<String, String>,
) -> Vec<String> {
    let module = rust_source::module_path(relative)
        .first()
        .cloned()
        .unwrap_or_default();
    let Some(level) = layers.iter().position(|layer| *layer == module) else {
        return Vec::new();
    };
    crate_references(relative, text, reexports)
        .into_iter()
        .filter(|(_, used)| {
            layers
                .iter()
                .position(|layer| layer == used)
                .is_some_and(|used_level| used_level > level)
        })
        .map(|(line, used)| format!("{}:{line}: {module} uses {used}", relative.display()))
        .collect()
}

#[test]
fn every_library_module_has_a_layer() {
    let layers = layers();
    for (module, path) in library_files() {
        assert!(
            module == "lib" || layers.contains(&module),
            "{} is in no layer of ARCHITECTURE.md",
            path.display()
        );
    }
}

#[test]
fn every_layer_is_a_library_module_listed_once() {
    let layers = layers();
    let modules: Vec<String> = library_files()
        .into_iter()
        .map(|(module, _)| module)
        .collect();
    for (index, layer) in layers.iter().enumerate() {
        assert!(
            modules.contains(layer),
            "ARCHITECTURE.md's layers name {layer}, which is no module of src/"
        );
        assert!(
            !layers[..index].contains(layer),
            "ARCHITECTURE.md's layers name {layer} twice"
        );
    }
    assert_eq!(layers.first().map(String::as_str), Some("read_buffer"));
    assert_eq!(layers.last().map(String::as_str), Some("fuzzing"));
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let (layers, reexports) = (layers(), reexports());
    let src = repository().join("src");
    let mut upward = Vec::new();
    for (_, path) in library_files() {
        let relative = path.strip_prefix(&src).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        upward.extend(upward_references(relative, &text, &layers, &reexports));
    }
    assert!(
        upward.is_empty(),
        "upward references:\n{}",
        upward.join("\n")
    );
}

/// The lines of library files (except those of `allowed` modules) that
/// hold any of `needles`, as written or in a path a `use` tree imports
/// (`use std::{fs, io}` holds `std::io`).
fn offending_lines(needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (module, path) in library_files() {
        if allowed.contains(&module.as_str()) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let imported = use_paths(&text);
        for (number, line) in code_lines(&text) {
            let holds = |needle: &&str| {
                line.contains(needle)
                    || imported
                        .iter()
                        .any(|(at, path)| *at == number && path.contains(needle))
            };
            if needles.iter().any(holds) {
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
    let reexports = reexports();
    let mut used = Vec::new();
    for (module, path) in library_files() {
        if module != "package" {
            continue;
        }
        for (number, used_module) in references_of(&path, &reexports) {
            if used_module == "stress" {
                used.push(format!("{}:{number}", path.display()));
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
            "parser",
            "validator",
            "answers",
            "checker",
            "stress",
            "fuzzing",
            "sample",
        ],
    );
    assert!(io.is_empty(), "{}", io.join("\n"));
}

/// Library files that build another program's command line, whose
/// literals are that program's flags, not ours: bubblewrap's, the
/// compilers' that build a package's programs, and systemd-run's, which
/// gives a user a cgroup.
const OTHER_PROGRAMS_FLAGS: &[&str] = &[
    "stress/sandbox.rs",
    "package/standalone.rs",
    "stress/cgroup/delegation.rs",
];

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
        for (number, line) in code_lines(&fs::read_to_string(&path).unwrap()) {
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

/// The upward references a text would hold as the file `relative` (under
/// `src/`), with the crate's layers and re-exports.
fn planted(relative: &str, text: &str) -> Vec<String> {
    upward_references(Path::new(relative), text, &layers(), &reexports())
}

#[test]
fn an_upward_reference_is_found_in_every_form() {
    // `board` stands on `geometry`, `cells`, `rank` and `moves`; `solver`,
    // `verify` and `stress` stand above it.
    let cases = [
        (
            "a use",
            "board.rs",
            "use crate::stress::Runner;",
            "1: board uses stress",
        ),
        (
            "a public use",
            "board.rs",
            "pub use crate::stress::Runner;",
            "1: board uses stress",
        ),
        (
            "a module used whole, renamed",
            "board.rs",
            "use crate::stress as runs;",
            "1: board uses stress",
        ),
        (
            "a glob",
            "board.rs",
            "use crate::stress::*;",
            "1: board uses stress",
        ),
        (
            "a group",
            "board.rs",
            "use crate::{cells, stress};",
            "1: board uses stress",
        ),
        (
            "a nested group",
            "board.rs",
            "use crate::{cells::EightCells, stress::{runner::{Run, Runner}}};",
            "1: board uses stress",
        ),
        (
            "a group over several lines",
            "board.rs",
            "use crate::{\n    cells,\n    moves::Move,\n    verify::{self, Report},\n};",
            "4: board uses verify",
        ),
        (
            "a group with `self`",
            "board.rs",
            "use crate::stress::{self, Runner};",
            "1: board uses stress",
        ),
        (
            "a group at the root",
            "board.rs",
            "use {crate::stress, std::fs};",
            "1: board uses stress",
        ),
        (
            "super from a module file",
            "board.rs",
            "use super::stress::Runner;",
            "1: board uses stress",
        ),
        (
            "super twice from a nested file",
            "board/inner.rs",
            "use super::super::stress::Runner;",
            "1: board uses stress",
        ),
        (
            "super from an inline module",
            "board.rs",
            "mod inner {\n    use super::super::stress::Runner;\n}",
            "2: board uses stress",
        ),
        (
            "self at the root",
            "lib.rs",
            "use self::stress::Runner;",
            "",
        ),
        (
            "a path in code",
            "board.rs",
            "fn f() {\n    crate::stress::campaign();\n}",
            "2: board uses stress",
        ),
        (
            "a path with super in code",
            "board/inner.rs",
            "type R = super::super::verify::Report;",
            "1: board uses verify",
        ),
        (
            "a root re-export",
            "board.rs",
            "use crate::PdbSolver;",
            "1: board uses solver",
        ),
        (
            "a path in a string",
            "board.rs",
            "#[serde(serialize_with = \"crate::stress::seconds\")]\nstruct S;",
            "1: board uses stress",
        ),
        (
            "code after a test module",
            "board.rs",
            "#[cfg(test)]\nmod tests {\n    fn f() -> (char, &'static str) {\n        ('}', \"}\")\n    }\n}\nuse crate::stress::Runner;",
            "7: board uses stress",
        ),
        (
            "code after a test function",
            "board.rs",
            "#[cfg(test)]\n#[inline]\nfn helper(a: [u8; 2]) -> u8 {\n    a[0]\n}\nuse crate::stress::Runner;",
            "6: board uses stress",
        ),
        (
            "code after raw strings and escaped characters",
            "board.rs",
            "const A: &str = r#\"}\" { // \"#;\nconst B: char = '\\'';\nconst C: char = '\\u{7D}';\nuse crate::stress::Runner;",
            "4: board uses stress",
        ),
    ];
    for (form, file, text, expected) in cases {
        let found = planted(file, text);
        if expected.is_empty() {
            // At the root, `self` is the crate: no layer to break.
            assert!(found.is_empty(), "{form}: {found:?}");
        } else {
            assert_eq!(found, [format!("{file}:{expected}")], "{form}:\n{text}");
        }
    }
}

#[test]
fn what_is_no_code_of_the_library_is_no_reference() {
    let cases = [
        ("a comment", "// use crate::stress::Runner;"),
        ("a doc comment", "/// See [`crate::stress::Runner`]."),
        (
            "a block comment",
            "/* use crate::stress::Runner; /* nested */ */",
        ),
        (
            "a test module",
            "#[cfg(test)]\nmod tests {\n    use crate::stress::Runner;\n}",
        ),
        (
            "a test function",
            "#[cfg(test)]\nfn f() {\n    crate::stress::campaign();\n}",
        ),
        (
            "the layers below",
            "use crate::{cells::EightCells, moves};\nuse super::rank;\nuse crate::geometry::LINES;",
        ),
        ("the module's own items", "use inner::stress;\nmod inner {}"),
        (
            "an external crate",
            "use ::stress::Runner;\nuse stress::Runner;",
        ),
        (
            "visibility",
            "pub(crate) fn f() {}\npub(super) fn g() {}\npub(in crate::board) fn h() {}",
        ),
        (
            "a string without a path",
            "const S: &str = \"the stress runner\";",
        ),
    ];
    for (form, text) in cases {
        assert_eq!(
            planted("board.rs", text),
            Vec::<String>::new(),
            "{form}:\n{text}"
        );
    }
}

#[test]
fn every_line_of_library_code_is_read() {
    // Library code after a unit test of its own, as in `checker/lines.rs`.
    let text = "fn a() {}\n#[cfg(test)]\npub fn b() {\n    println!(\"}\");\n}\n\n/// Doc.\nfn c() {\n    println!(\"x\"); // println!\n}\n#[cfg(test)]\nmod tests {}\nfn d() {}\n";
    let lines: Vec<usize> = code_lines(text)
        .into_iter()
        .map(|(number, _)| number)
        .collect();
    assert_eq!(lines, [1, 8, 9, 10, 13]);
    let lines_rs = fs::read_to_string(repository().join("src/checker/lines.rs")).unwrap();
    let code = code_lines(&lines_rs);
    assert!(
        code.iter()
            .any(|(_, line)| line.contains("pub fn read_line(")),
        "the code after lines.rs's #[cfg(test)] function is read"
    );
    assert!(
        !code
            .iter()
            .any(|(_, line)| line.contains("pub fn next_line("))
    );
    assert!(!offending_lines(&["pub mod"], &[]).is_empty());
}

#[test]
fn grouped_imports_are_spelled_out_for_the_io_and_unix_checks() {
    let text = "use std::{fs, io::{self, Read}};\nuse std::{\n    os::unix::fs::FileExt,\n};\n// use std::net;\nuse ::nix::unistd;\n";
    assert_eq!(
        use_paths(text),
        [
            (1, "std::fs".to_owned()),
            (1, "std::io".to_owned()),
            (1, "std::io::Read".to_owned()),
            (3, "std::os::unix::fs::FileExt".to_owned()),
            (6, "::nix::unistd".to_owned()),
        ]
    );
}
