//! The architecture invariants of `ARCHITECTURE.md` that the compiler does
//! not check, checked on the source itself: the layers point only
//! downward, the library prints nothing and names no flag, the solvers do
//! no I/O, and Unix-only code stays in the runner and judging.
//!
//! Each file is read whole, apart from its comments and unit tests
//! (`rust_source`), and every form of a path to another module counts.

#[path = "architecture/module_graph.rs"]
mod module_graph;
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
    modules_of(block.lines().take_while(|line| !line.starts_with('─')))
}

/// The modules a layers block names, in order: on each line, the modules
/// separated by `·`, then two spaces or more and what they hold.
fn modules_of<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut names = Vec::new();
    for line in lines {
        let modules = line.split("  ").next().unwrap_or_default();
        for module in modules.split('·') {
            // `solver (registry, …)`, `runner (Unix)`: the name only.
            let name: String = module
                .trim()
                .chars()
                .take_while(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                .collect();
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    names
}

/// The layers inside each folder that `ARCHITECTURE.md` draws, in blocks
/// titled ``### Layers inside `FOLDER/` ``, in the format of the crate's
/// (a line a floor, left to right): the folder's module path and its child
/// modules from the ground up.
fn folder_layers() -> Vec<(Vec<String>, Vec<String>)> {
    let text = fs::read_to_string(repository().join("ARCHITECTURE.md")).unwrap();
    let mut found = Vec::new();
    for section in text.split("\n### Layers inside `").skip(1) {
        let folder = section.split("/`").next().unwrap();
        let block = section
            .split("```text\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("each Layers inside section draws them in a text block");
        found.push((
            folder.split('/').map(str::to_owned).collect(),
            modules_of(block.lines()),
        ));
    }
    found
}

/// The library's module graph (`module_graph`).
fn graph() -> module_graph::ModuleGraph {
    let paths: Vec<PathBuf> = library_files().into_iter().map(|(_, path)| path).collect();
    module_graph::library(&repository().join("src"), &paths)
}

/// The edges of `graph` inside `folder` that do not go down `layers`, as
/// `path:line: unit uses other`.
fn upward_inside(
    graph: &module_graph::ModuleGraph,
    folder: &[String],
    layers: &[String],
) -> Vec<String> {
    graph
        .edges(folder)
        .into_iter()
        .filter(|((unit, other), _)| {
            let level = |name: &String| layers.iter().position(|layer| layer == name);
            level(other) >= level(unit)
        })
        .map(|((unit, other), at)| format!("{at}: {unit} uses {other}"))
        .collect()
}

#[test]
fn no_folder_has_an_import_circle() {
    let graph = graph();
    let mut circles = Vec::new();
    for folder in graph.folders() {
        for circle in graph.circles(&folder) {
            let at = if folder.is_empty() {
                "src/".to_owned()
            } else {
                format!("src/{}/", folder.join("/"))
            };
            circles.push(format!("{at}: {}", circle.join(" -> ")));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn modules_inside_a_folder_use_only_the_layers_below_them() {
    let graph = graph();
    let drawn = folder_layers();
    let folders: Vec<String> = drawn.iter().map(|(folder, _)| folder.join("/")).collect();
    for expected in ["runner", "judging"] {
        assert!(
            folders.iter().any(|folder| folder == expected),
            "ARCHITECTURE.md draws the layers inside {expected}/"
        );
    }
    for (folder, layers) in &drawn {
        let units = graph.units(folder);
        for unit in &units {
            assert!(
                layers.contains(unit),
                "src/{}/{unit} is in no layer of ARCHITECTURE.md's block for its folder",
                folder.join("/")
            );
        }
        for (index, layer) in layers.iter().enumerate() {
            assert!(
                units.contains(layer) && !layers[..index].contains(layer),
                "ARCHITECTURE.md's layers inside {}/ name {layer}, which is no module there, \
                 or twice",
                folder.join("/")
            );
        }
        let upward = upward_inside(&graph, folder, layers);
        assert!(
            upward.is_empty(),
            "upward references:\n{}",
            upward.join("\n")
        );
    }
}

/// A graph of planted files: `(path under src/, text)`.
fn planted_graph(files: &[(&str, &str)]) -> module_graph::ModuleGraph {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect();
    module_graph::ModuleGraph::new(&files)
}

#[test]
fn a_circle_inside_a_folder_is_found_through_every_form_of_path() {
    let runner = ["runner".to_owned()];
    // init uses slot through the parent's re-export; slot uses zygote by
    // `super`; zygote uses init by a path from the crate root.
    let files = [
        ("lib.rs", "pub mod runner;"),
        (
            "runner.rs",
            "mod init;\nmod slot;\nmod zygote;\npub use slot::Slot;",
        ),
        ("runner/init.rs", "use super::Slot;"),
        (
            "runner/slot.rs",
            "pub struct Slot;\nfn f() {\n    super::zygote::g();\n}",
        ),
        (
            "runner/zygote.rs",
            "use crate::runner::init::*;\npub fn g() {}",
        ),
    ];
    let graph = planted_graph(&files);
    assert_eq!(
        graph.circles(&runner),
        [["init", "slot", "zygote", "init"]
            .map(str::to_owned)
            .to_vec()]
    );
    let edges = graph.edges(&runner);
    assert_eq!(
        edges[&("init".to_owned(), "slot".to_owned())],
        "runner/init.rs:1"
    );
    assert_eq!(
        edges[&("slot".to_owned(), "zygote".to_owned())],
        "runner/slot.rs:3"
    );
    // Without the last arrow, no circle; and a layer order that puts init
    // below slot finds init's use of slot going up.
    let mut acyclic = files;
    acyclic[4].1 = "pub fn g() {}";
    let graph = planted_graph(&acyclic);
    assert!(graph.circles(&runner).is_empty());
    let layers = ["init", "zygote", "slot"].map(str::to_owned);
    assert_eq!(
        upward_inside(&graph, &runner, &layers),
        ["runner/init.rs:1: init uses slot"]
    );
}

#[test]
fn a_parent_and_its_children_are_one_unit_of_their_folder() {
    // sandbox/filesystem.rs uses an item of sandbox.rs, which declares
    // it: no edge inside runner/sandbox/, and in runner/ both are the
    // unit sandbox, whose use of command is an edge.
    let files = [
        ("lib.rs", "pub mod runner;"),
        ("runner.rs", "mod command;\nmod sandbox;"),
        ("runner/command.rs", "pub struct Program;"),
        (
            "runner/sandbox.rs",
            "mod filesystem;\npub struct Error;\nuse filesystem::View;",
        ),
        (
            "runner/sandbox/filesystem.rs",
            "use super::Error;\nuse crate::runner::command::Program;\npub struct View;",
        ),
    ];
    let graph = planted_graph(&files);
    let sandbox = ["runner".to_owned(), "sandbox".to_owned()];
    assert!(graph.edges(&sandbox).is_empty());
    let runner = ["runner".to_owned()];
    assert_eq!(
        graph.edges(&runner).into_keys().collect::<Vec<_>>(),
        [("sandbox".to_owned(), "command".to_owned())]
    );
    assert_eq!(graph.units(&runner).len(), 2);
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
/// binary makes with `judging` (`judging::data_folder`,
/// `judging::folder_judging`), though the layers would let it use them.
#[test]
fn the_package_runs_no_programs() {
    let reexports = reexports();
    let mut used = Vec::new();
    for (module, path) in library_files() {
        if module != "package" {
            continue;
        }
        for (number, used_module) in references_of(&path, &reexports) {
            if used_module == "judging" || used_module == "runner" {
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

/// Unix calls stay in the Unix-only modules (the runner, and the judging
/// built on it), except in a function of another module that is one of
/// three forms of it, or a statement of a function that holds all three:
/// `#[cfg(unix)]`, `#[cfg(windows)]` and `#[cfg(not(any(unix, windows)))]`,
/// so that the module builds anywhere.
#[test]
fn unix_only_code_stays_in_the_runner_and_judging() {
    let unix: Vec<String> = offending_lines(
        &["std::os::unix", "nix::", "libc::"],
        &["runner", "judging"],
    )
    .into_iter()
    .filter(|found| !in_a_portable_function(found))
    .collect();
    assert!(unix.is_empty(), "{}", unix.join("\n"));
}

/// Every `unsafe` block, function and implementation of the library is in
/// the runner, where `clippy::undocumented_unsafe_blocks` is denied (its
/// unit tests aside).
#[test]
fn unsafe_code_stays_in_the_runner() {
    let found = offending_lines(&["unsafe "], &["runner"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let runner = fs::read_to_string(repository().join("src/runner.rs")).unwrap();
    assert!(runner.contains("#![deny(clippy::undocumented_unsafe_blocks)]"));
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
        return in_a_portable_body(&lines, attribute);
    };
    let defined_for = |cfg: &str| {
        (0..lines.len()).any(|at| {
            lines[at].trim() == cfg && function_under(&lines, at).as_ref() == Some(&function)
        })
    };
    defined_for("#[cfg(windows)]") && defined_for("#[cfg(not(any(unix, windows)))]")
}

/// Whether the `#[cfg(unix)]` statement on line `at` of `lines` is in a
/// function (at the top level of its file) whose body also has a
/// `#[cfg(windows)]` and a `#[cfg(not(any(unix, windows)))]` statement:
/// the three forms of it in one function.
fn in_a_portable_body(lines: &[&str], at: usize) -> bool {
    let is_function = |line: &&str| {
        ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "]
            .iter()
            .any(|start| line.starts_with(start))
    };
    let Some(start) = (0..at).rev().find(|&line| is_function(&lines[line])) else {
        return false;
    };
    let Some(end) = (at..lines.len()).find(|&line| lines[line] == "}") else {
        return false;
    };
    let body = &lines[start..end];
    let has = |cfg: &str| body.iter().any(|line| line.trim() == cfg);
    has("#[cfg(windows)]") && has("#[cfg(not(any(unix, windows)))]")
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
            "runner",
            "judging",
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
    "runner/sandbox.rs",
    "package/standalone.rs",
    "runner/cgroup/delegation.rs",
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
    // `verify` and `judging` stand above it.
    let cases = [
        (
            "a use",
            "board.rs",
            "use crate::judging::Runner;",
            "1: board uses judging",
        ),
        (
            "a public use",
            "board.rs",
            "pub use crate::judging::Runner;",
            "1: board uses judging",
        ),
        (
            "a module used whole, renamed",
            "board.rs",
            "use crate::judging as runs;",
            "1: board uses judging",
        ),
        (
            "a glob",
            "board.rs",
            "use crate::judging::*;",
            "1: board uses judging",
        ),
        (
            "a group",
            "board.rs",
            "use crate::{cells, judging};",
            "1: board uses judging",
        ),
        (
            "a nested group",
            "board.rs",
            "use crate::{cells::EightCells, judging::{runner::{Run, Runner}}};",
            "1: board uses judging",
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
            "use crate::judging::{self, Runner};",
            "1: board uses judging",
        ),
        (
            "a group at the root",
            "board.rs",
            "use {crate::judging, std::fs};",
            "1: board uses judging",
        ),
        (
            "super from a module file",
            "board.rs",
            "use super::judging::Runner;",
            "1: board uses judging",
        ),
        (
            "super twice from a nested file",
            "board/inner.rs",
            "use super::super::judging::Runner;",
            "1: board uses judging",
        ),
        (
            "super from an inline module",
            "board.rs",
            "mod inner {\n    use super::super::judging::Runner;\n}",
            "2: board uses judging",
        ),
        (
            "self at the root",
            "lib.rs",
            "use self::judging::Runner;",
            "",
        ),
        (
            "a path in code",
            "board.rs",
            "fn f() {\n    crate::judging::campaign();\n}",
            "2: board uses judging",
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
            "#[serde(serialize_with = \"crate::judging::seconds\")]\nstruct S;",
            "1: board uses judging",
        ),
        (
            "code after a test module",
            "board.rs",
            "#[cfg(test)]\nmod tests {\n    fn f() -> (char, &'static str) {\n        ('}', \"}\")\n    }\n}\nuse crate::judging::Runner;",
            "7: board uses judging",
        ),
        (
            "code after a test function",
            "board.rs",
            "#[cfg(test)]\n#[inline]\nfn helper(a: [u8; 2]) -> u8 {\n    a[0]\n}\nuse crate::judging::Runner;",
            "6: board uses judging",
        ),
        (
            "code after raw strings and escaped characters",
            "board.rs",
            "const A: &str = r#\"}\" { // \"#;\nconst B: char = '\\'';\nconst C: char = '\\u{7D}';\nuse crate::judging::Runner;",
            "4: board uses judging",
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
        ("a comment", "// use crate::judging::Runner;"),
        ("a doc comment", "/// See [`crate::judging::Runner`]."),
        (
            "a block comment",
            "/* use crate::judging::Runner; /* nested */ */",
        ),
        (
            "a test module",
            "#[cfg(test)]\nmod tests {\n    use crate::judging::Runner;\n}",
        ),
        (
            "a test function",
            "#[cfg(test)]\nfn f() {\n    crate::judging::campaign();\n}",
        ),
        (
            "the layers below",
            "use crate::{cells::EightCells, moves};\nuse super::rank;\nuse crate::geometry::LINES;",
        ),
        (
            "the module's own items",
            "use inner::judging;\nmod inner {}",
        ),
        (
            "an external crate",
            "use ::judging::Runner;\nuse judging::Runner;",
        ),
        (
            "visibility",
            "pub(crate) fn f() {}\npub(super) fn g() {}\npub(in crate::board) fn h() {}",
        ),
        (
            "a string without a path",
            "const S: &str = \"the judging runner\";",
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

/// Every test file is compiled: each `.rs` file of a test binary's folder
/// is one of its modules (`mod NAME;` in its `main.rs`), and each helper
/// in `tests/support/` is used by a binary (`#[path = "../support/…"]`). A
/// file left out builds nothing and fails nothing, silently.
#[test]
fn every_test_file_is_part_of_a_test_binary() {
    let tests = repository().join("tests");
    let mut missing = Vec::new();
    let mut helpers_used = String::new();
    for binary in ["library", "cli"] {
        let folder = tests.join(binary);
        let main = fs::read_to_string(folder.join("main.rs")).unwrap();
        helpers_used.push_str(&fs::read_to_string(folder.join("support.rs")).unwrap());
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let Some(name) = path
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_suffix(".rs"))
            else {
                continue;
            };
            let declared = main
                .lines()
                .any(|line| line.trim() == format!("mod {name};"));
            if name != "main" && !declared {
                missing.push(format!(
                    "tests/{binary}/{name}.rs is not a module of tests/{binary}/main.rs"
                ));
            }
        }
    }
    for entry in fs::read_dir(tests.join("support")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".rs") && !helpers_used.contains(&format!("\"../support/{name}\"")) {
            missing.push(format!("tests/support/{name} is used by no test binary"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
