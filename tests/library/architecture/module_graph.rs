//! The library's modules as a graph: which module of a folder uses which
//! other module of the same folder, for the layers inside folders and for
//! import circles.
//!
//! A folder's *units* are its child modules, each with everything below
//! it (`runner/sandbox.rs` and `runner/sandbox/` are the unit `sandbox` of
//! `runner/`). A file of one unit that refers to a path leading into
//! another unit of the same folder is an edge between the two; references
//! to the folder's own module file (an item its parent defines) and from
//! it (the parent declaring and re-exporting its children) are not, since a
//! parent and its children are one concept. A path is followed through
//! the names the modules import (`super::Limits` in `runner/run.rs` is
//! `runner::limits::Limits` when `runner.rs` re-exports it) to the module
//! that defines it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::rust_source::{crate_paths, module_path};

/// A module path: `["runner", "run"]`; `[]` is the crate root.
pub type Module = Vec<String>;

/// A file of the library: its path, its module, and the modules its
/// references lead to, by line.
type File = (PathBuf, Module, Vec<(usize, Module)>);

/// The library's files, each with its module and what it refers to.
pub struct ModuleGraph {
    /// Each file's module and the modules its references lead to, by line.
    files: Vec<File>,
    modules: BTreeSet<Module>,
}

impl ModuleGraph {
    /// The graph of `files`: paths under `src/` and their text.
    pub fn new(files: &[(PathBuf, String)]) -> ModuleGraph {
        let modules: BTreeSet<Module> = files
            .iter()
            .map(|(relative, _)| module_path(relative))
            .collect();
        let paths: Vec<_> = files
            .iter()
            .map(|(relative, text)| (relative, module_path(relative), crate_paths(relative, text)))
            .collect();
        // What each name a module imports stands for: `runner::Limits` is
        // `runner::limits::Limits`.
        let mut imports: BTreeMap<Module, Vec<String>> = BTreeMap::new();
        for (_, module, references) in &paths {
            for reference in references.iter().filter(|reference| reference.imported) {
                let Some(name) = reference.segments.last() else {
                    continue;
                };
                let mut alias = module.clone();
                alias.push(name.clone());
                if alias != reference.segments {
                    imports.insert(alias, reference.segments.clone());
                }
            }
        }
        let files = paths
            .into_iter()
            .map(|(relative, module, references)| {
                let used = references
                    .iter()
                    .filter_map(|reference| {
                        let used = defining_module(&reference.segments, &modules, &imports)?;
                        Some((reference.line, used))
                    })
                    .collect();
                (relative.clone(), module, used)
            })
            .collect();
        ModuleGraph { files, modules }
    }

    /// The child modules of `folder` (a module with a folder of its own).
    pub fn units(&self, folder: &[String]) -> BTreeSet<String> {
        self.modules
            .iter()
            .filter(|module| module.len() > folder.len() && module.starts_with(folder))
            .map(|module| module[folder.len()].clone())
            .collect()
    }

    /// Every module that has child modules: the folders to check.
    pub fn folders(&self) -> BTreeSet<Module> {
        self.modules
            .iter()
            .flat_map(|module| (0..module.len()).map(|end| module[..end].to_vec()))
            .collect()
    }

    /// The edges between the units of `folder`: unit, the unit it uses, and
    /// where (`path:line`), each edge once with its first place.
    pub fn edges(&self, folder: &[String]) -> BTreeMap<(String, String), String> {
        let mut edges = BTreeMap::new();
        for (path, module, used) in &self.files {
            if module.len() <= folder.len() || !module.starts_with(folder) {
                continue;
            }
            let unit = &module[folder.len()];
            for (line, target) in used {
                if target.len() <= folder.len() || !target.starts_with(folder) {
                    continue;
                }
                let other = &target[folder.len()];
                if other != unit {
                    edges
                        .entry((unit.clone(), other.clone()))
                        .or_insert_with(|| format!("{}:{line}", path.display()));
                }
            }
        }
        edges
    }

    /// The import circles among the units of `folder`, each as the units
    /// around it, the first repeated at the end.
    pub fn circles(&self, folder: &[String]) -> Vec<Vec<String>> {
        let edges = self.edges(folder);
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, to) in edges.keys() {
            next.entry(from).or_default().push(to);
        }
        let mut circles = Vec::new();
        let mut done = BTreeSet::new();
        for start in next.keys() {
            let mut stack = Vec::new();
            find_circles(start, &next, &mut stack, &mut done, &mut circles);
        }
        circles
    }
}

/// Depth-first search from `unit`, with `stack` the units on the way to it:
/// a unit met again on the stack closes a circle.
fn find_circles<'a>(
    unit: &'a str,
    next: &BTreeMap<&'a str, Vec<&'a str>>,
    stack: &mut Vec<&'a str>,
    done: &mut BTreeSet<&'a str>,
    circles: &mut Vec<Vec<String>>,
) {
    if let Some(at) = stack.iter().position(|on| *on == unit) {
        let mut circle: Vec<String> = stack[at..].iter().map(|u| u.to_string()).collect();
        circle.push(unit.to_owned());
        circles.push(circle);
        return;
    }
    if !done.insert(unit) {
        return;
    }
    stack.push(unit);
    for &other in next.get(unit).into_iter().flatten() {
        find_circles(other, next, stack, done, circles);
    }
    stack.pop();
}

/// The module that defines what `path` names: the longest module its
/// segments start with, after following the names modules import; `None`
/// when it leads to no module of the crate.
fn defining_module(
    path: &[String],
    modules: &BTreeSet<Module>,
    imports: &BTreeMap<Module, Vec<String>>,
) -> Option<Module> {
    let mut path = path.to_vec();
    // Bounded: an import never stands for itself, but a circle of them
    // would not compile anyway.
    for _ in 0..16 {
        let module = (0..=path.len())
            .rev()
            .map(|end| path[..end].to_vec())
            .find(|prefix| modules.contains(prefix))?;
        if module.len() == path.len() {
            return Some(module);
        }
        let mut name = module.clone();
        name.push(path[module.len()].clone());
        match imports.get(&name) {
            Some(target) => {
                let mut followed = target.clone();
                followed.extend(path[module.len() + 1..].iter().cloned());
                path = followed;
            }
            None => return Some(module),
        }
    }
    None
}

/// The graph of the library files under `src` (`repository/src`), given
/// as paths with their text: the binary and the package's standalone
/// programs are not the library's.
pub fn library(src: &Path, files: &[PathBuf]) -> ModuleGraph {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|path| {
            let relative = path.strip_prefix(src).unwrap().to_owned();
            (relative, std::fs::read_to_string(path).unwrap())
        })
        .collect();
    ModuleGraph::new(&files)
}
