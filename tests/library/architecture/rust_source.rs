//! Rust source read as the architecture test needs it: the library code of
//! a file, and the crate modules it refers to.
//!
//! A file is read whole. Comments (doc comments included) and unit tests
//! (every item under `#[cfg(test)]`, a test module or a single function,
//! wherever it stands in the file) are blanked, keeping line numbers; the
//! code before, between and after them is checked. String and character
//! literals are told apart from code, so that a brace or a `//` inside one
//! changes nothing.
//!
//! A reference to a crate module is found in every form a path takes:
//! `use` trees, grouped and nested (`use crate::{a, b::{c, d}}`), spread
//! over several lines, with `self`, `super` (resolved against the file's
//! module and the inline modules around the line), `as` and `*`; paths in
//! code (`crate::a::f()`, `super::super::a::T`); paths in string literals
//! (serde's `serialize_with = "crate::a::f"`); and the crate root's
//! re-exports (`crate::Board` is `board`'s).

use std::collections::BTreeMap;
use std::path::{Component, Path};

/// What a character of a source file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Code: what the checks read.
    Code,
    /// A comment, or a unit test blanked out: read as whitespace.
    Blank,
    /// A string or character literal, quotes included.
    Literal,
}

/// A source file, each character classified.
struct Source {
    chars: Vec<char>,
    classes: Vec<Class>,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

impl Source {
    /// `text` with its comments and unit tests blanked.
    fn library_code(text: &str) -> Source {
        let chars: Vec<char> = text.chars().collect();
        let classes = classify(&chars);
        let mut source = Source { chars, classes };
        source.blank_unit_tests();
        source
    }

    fn is_code(&self, at: usize, c: char) -> bool {
        self.classes.get(at) == Some(&Class::Code) && self.chars[at] == c
    }

    /// Whether the code at `at` reads `text`.
    fn code_reads(&self, at: usize, text: &str) -> bool {
        text.chars()
            .enumerate()
            .all(|(offset, c)| self.is_code(at + offset, c))
    }

    /// The position after the bracket that closes the one at `open`, or the
    /// end of the file.
    fn after_closing(&self, open: usize) -> usize {
        let (opening, closing) = match self.chars[open] {
            '{' => ('{', '}'),
            '[' => ('[', ']'),
            _ => ('(', ')'),
        };
        let mut depth = 0usize;
        for at in open..self.chars.len() {
            if self.is_code(at, opening) {
                depth += 1;
            } else if self.is_code(at, closing) {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
        }
        self.chars.len()
    }

    /// The end of the item that starts at `start` (past its attributes):
    /// after its `;`, or after the block its first `{` opens.
    fn item_end(&self, start: usize) -> usize {
        let mut at = start;
        while at < self.chars.len() {
            if self.code_reads(at, "#[") {
                at = self.after_closing(at + 1);
            } else if self.is_code(at, '(') || self.is_code(at, '[') {
                at = self.after_closing(at);
            } else if self.is_code(at, ';') {
                return at + 1;
            } else if self.is_code(at, '{') {
                return self.after_closing(at);
            } else {
                at += 1;
            }
        }
        self.chars.len()
    }

    /// Blanks every item under `#[cfg(test)]`, the attribute included.
    fn blank_unit_tests(&mut self) {
        const ATTRIBUTE: &str = "#[cfg(test)]";
        let mut at = 0;
        while at < self.chars.len() {
            if self.code_reads(at, ATTRIBUTE) {
                let end = self.item_end(at + ATTRIBUTE.len());
                for class in &mut self.classes[at..end] {
                    *class = Class::Blank;
                }
                at = end;
            } else {
                at += 1;
            }
        }
    }

    /// The code, literals included, with blanks as spaces (line ends kept).
    fn code_text(&self) -> String {
        self.chars
            .iter()
            .zip(&self.classes)
            .map(|(&c, &class)| match class {
                Class::Blank if c != '\n' => ' ',
                _ => c,
            })
            .collect()
    }

    /// The code's tokens, with their line numbers (from 1).
    fn tokens(&self) -> Vec<(usize, Token)> {
        let mut tokens = Vec::new();
        let mut line = 1;
        let mut at = 0;
        while at < self.chars.len() {
            let c = self.chars[at];
            let start = at;
            let start_line = line;
            match self.classes[at] {
                Class::Literal => {
                    while at < self.chars.len() && self.classes[at] == Class::Literal {
                        line += usize::from(self.chars[at] == '\n');
                        at += 1;
                    }
                    let text = self.chars[start..at].iter().collect();
                    tokens.push((start_line, Token::Literal(text)));
                    continue;
                }
                Class::Blank => {}
                Class::Code if is_ident(c) => {
                    while at < self.chars.len()
                        && self.classes[at] == Class::Code
                        && is_ident(self.chars[at])
                    {
                        at += 1;
                    }
                    let name = self.chars[start..at].iter().collect();
                    tokens.push((line, Token::Ident(name)));
                    continue;
                }
                Class::Code if self.code_reads(at, "::") => {
                    tokens.push((line, Token::PathSep));
                    at += 2;
                    continue;
                }
                Class::Code if !c.is_whitespace() => tokens.push((line, Token::Punct(c))),
                Class::Code => {}
            }
            line += usize::from(c == '\n');
            at += 1;
        }
        tokens
    }
}

/// Classifies each character: code, comment or literal.
fn classify(chars: &[char]) -> Vec<Class> {
    let mut classes = vec![Class::Code; chars.len()];
    let at_char = |at: usize| chars.get(at).copied().unwrap_or('\0');
    let mut at = 0;
    while at < chars.len() {
        let start = at;
        let class;
        if chars[at] == '/' && at_char(at + 1) == '/' {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
            class = Class::Blank;
        } else if chars[at] == '/' && at_char(at + 1) == '*' {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at] == '/' && at_char(at + 1) == '*' {
                    depth += 1;
                    at += 2;
                } else if chars[at] == '*' && at_char(at + 1) == '/' {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
            class = Class::Blank;
        } else if let Some(end) = raw_string_end(chars, at) {
            at = end;
            class = Class::Literal;
        } else if chars[at] == '"' {
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at = (at + 1).min(chars.len());
            class = Class::Literal;
        } else if chars[at] == '\'' && at_char(at + 1) == '\\' {
            // An escaped character: `'\n'`, `'\''`, `'\u{7D}'`: past the
            // quote, the backslash and the character after it, to the quote.
            at += 3;
            while at < chars.len() && chars[at] != '\'' {
                at += 1;
            }
            at = (at + 1).min(chars.len());
            class = Class::Literal;
        } else if chars[at] == '\'' && at_char(at + 2) == '\'' {
            at += 3;
            class = Class::Literal;
        } else {
            // Code, a lifetime's quote included. An identifier is passed
            // whole, so that the `r` ending one is not read as a raw string.
            at += 1;
            if is_ident(chars[start]) {
                while at < chars.len() && is_ident(chars[at]) {
                    at += 1;
                }
            }
            continue;
        }
        for class_at in &mut classes[start..at] {
            *class_at = class;
        }
    }
    classes
}

/// The end of the raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starting at
/// `at`, if one does.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let mut next = at;
    if chars.get(next) == Some(&'b') {
        next += 1;
    }
    if chars.get(next) != Some(&'r') {
        return None;
    }
    next += 1;
    let hashes = chars[next..].iter().take_while(|&&c| c == '#').count();
    next += hashes;
    if chars.get(next) != Some(&'"') {
        return None;
    }
    next += 1;
    while next < chars.len() {
        if chars[next] == '"' && chars[next + 1..].iter().take(hashes).all(|&c| c == '#') {
            return Some((next + 1 + hashes).min(chars.len()));
        }
        next += 1;
    }
    Some(chars.len())
}

/// A token of code.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`.
    PathSep,
    Punct(char),
    /// A string or character literal, quotes included.
    Literal(String),
}

impl Token {
    fn is_ident(&self, name: &str) -> bool {
        matches!(self, Token::Ident(ident) if ident == name)
    }
}

/// The lines of `text` that hold library code, with their numbers (from
/// 1): comments and unit tests blanked, blank lines left out.
pub fn code_lines(text: &str) -> Vec<(usize, String)> {
    Source::library_code(text)
        .code_text()
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| (index + 1, line.to_owned()))
        .collect()
}

/// The module path of a file, from its path under `src/`: `[]` for
/// `lib.rs`, `["answers", "file_chunks"]` for `answers/file_chunks.rs`.
pub fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if let Some(file) = path.pop() {
        let stem = file.strip_suffix(".rs").unwrap_or(&file).to_owned();
        if stem != "lib" && stem != "mod" {
            path.push(stem);
        }
    }
    path
}

/// A path as written: its segments, each with its line.
type Written = Vec<(String, usize)>;

/// Parses the `use` tree at `tokens[*at]`, under `prefix`, into the paths it
/// imports; leaves `*at` after it.
fn use_tree(tokens: &[(usize, Token)], at: &mut usize, prefix: &Written, paths: &mut Vec<Written>) {
    let mut path = prefix.clone();
    if let Some((line, Token::PathSep)) = tokens.get(*at) {
        // `::name`: an external crate.
        path.push(("::".to_owned(), *line));
        *at += 1;
    }
    while let Some((line, token)) = tokens.get(*at) {
        match token {
            Token::Ident(name) => {
                path.push((name.clone(), *line));
                *at += 1;
                if tokens.get(*at).map(|(_, token)| token) == Some(&Token::PathSep) {
                    *at += 1;
                    continue;
                }
                if tokens
                    .get(*at)
                    .is_some_and(|(_, token)| token.is_ident("as"))
                {
                    *at += 2;
                }
                if path.last().is_some_and(|(name, _)| name == "self") {
                    path.pop();
                }
                paths.push(path);
                return;
            }
            Token::Punct('{') => {
                *at += 1;
                loop {
                    match tokens.get(*at) {
                        None => return,
                        Some((_, Token::Punct('}'))) => {
                            *at += 1;
                            return;
                        }
                        Some((_, Token::Punct(','))) => *at += 1,
                        Some(_) => {
                            let before = *at;
                            use_tree(tokens, at, &path, paths);
                            if *at == before {
                                *at += 1;
                            }
                        }
                    }
                }
            }
            Token::Punct('*') => {
                *at += 1;
                paths.push(path);
                return;
            }
            _ => return,
        }
    }
}

/// The segments of the path in code starting at `tokens[at]` (`crate`,
/// `super` or `self`, then `:: name` as long as they go).
fn code_path(tokens: &[(usize, Token)], mut at: usize) -> Written {
    let mut path = Vec::new();
    while let Some((line, Token::Ident(name))) = tokens.get(at) {
        path.push((name.clone(), *line));
        if tokens.get(at + 1).map(|(_, token)| token) != Some(&Token::PathSep) {
            break;
        }
        at += 2;
    }
    path
}

/// The top-level module a path refers to, written in the module `within`
/// (a module path), with the segment that names it; `None` for paths
/// outside the crate, or relative to a module other than the crate root
/// (its own items, or an external crate).
fn resolve(path: &Written, within: &[String]) -> Option<(String, usize)> {
    resolve_whole(path, within, false)?.into_iter().next()
}

/// The path written in the module `within`, from the crate root: `None`
/// for paths outside the crate. A path starting with a plain name is
/// relative to the module (a child module, or a name in scope) when
/// `plain_is_relative`, else it is outside the crate unless `within` is
/// the root.
fn resolve_whole(path: &Written, within: &[String], plain_is_relative: bool) -> Option<Written> {
    let (first, _) = path.first()?;
    let (base, rest): (Written, &[(String, usize)]) = match first.as_str() {
        "::" => return None,
        "crate" => (Vec::new(), &path[1..]),
        "super" => {
            let supers = path.iter().take_while(|(name, _)| name == "super").count();
            let kept = within.len().checked_sub(supers)?;
            let line = path[supers - 1].1;
            let base = within[..kept]
                .iter()
                .map(|name| (name.clone(), line))
                .collect();
            (base, &path[supers..])
        }
        "self" => {
            let line = path[0].1;
            let base = within.iter().map(|name| (name.clone(), line)).collect();
            (base, &path[1..])
        }
        _ if within.is_empty() => (Vec::new(), &path[..]),
        _ if plain_is_relative => {
            let line = path[0].1;
            let base = within.iter().map(|name| (name.clone(), line)).collect();
            (base, &path[..])
        }
        _ => return None,
    };
    Some(base.into_iter().chain(rest.iter().cloned()).collect())
}

/// The crate modules `text` (the file at `relative` under `src/`) refers
/// to, by line, in every form the [module docs](self) list; names the crate
/// root re-exports are resolved through `reexports` (name to module).
pub fn crate_references(
    relative: &Path,
    text: &str,
    reexports: &BTreeMap<String, String>,
) -> Vec<(usize, String)> {
    let mut found: Vec<(usize, String)> = written_paths(relative, text, false)
        .into_iter()
        .filter_map(|(path, _)| path.into_iter().next())
        .map(|(name, line)| (line, reexports.get(&name).cloned().unwrap_or(name)))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// A path of the crate a file refers to, from the crate root, with its
/// line (that of its first segment) and whether a `use` declaration
/// imports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CratePath {
    pub line: usize,
    pub segments: Vec<String>,
    pub imported: bool,
}

/// Every path of the crate `text` (the file at `relative` under `src/`)
/// refers to, whole and from the crate root (`super::limits::Limits` in
/// `runner/run.rs` is `runner::limits::Limits`). A path that starts with
/// a plain name in a module other than the root is taken as relative to
/// it: the caller keeps those that lead to a module.
pub fn crate_paths(relative: &Path, text: &str) -> Vec<CratePath> {
    written_paths(relative, text, true)
        .into_iter()
        .filter_map(|(path, imported)| {
            let line = path.first()?.1;
            let segments = path.into_iter().map(|(name, _)| name).collect();
            Some(CratePath {
                line,
                segments,
                imported,
            })
        })
        .collect()
}

/// The paths `text` (the file at `relative`) writes, resolved from the
/// crate root (see [`resolve_whole`]), each with whether a `use`
/// declaration imports it.
fn written_paths(relative: &Path, text: &str, plain_is_relative: bool) -> Vec<(Written, bool)> {
    let file_module = module_path(relative);
    let tokens = Source::library_code(text).tokens();
    let mut found = Vec::new();
    // The inline modules the token is in, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut at = 0;
    while at < tokens.len() {
        let within: Vec<String> = file_module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(name, _)| name.clone()))
            .collect();
        let previous = at.checked_sub(1).map(|before| &tokens[before].1);
        match &tokens[at].1 {
            Token::Ident(keyword) if keyword == "use" => {
                at += 1;
                let mut paths = Vec::new();
                use_tree(&tokens, &mut at, &Vec::new(), &mut paths);
                for path in &paths {
                    if let Some(path) = resolve_whole(path, &within, plain_is_relative) {
                        found.push((path, true));
                    }
                }
                continue;
            }
            Token::Ident(keyword) if keyword == "mod" => {
                if let (Some((_, Token::Ident(name))), Some((_, Token::Punct('{')))) =
                    (tokens.get(at + 1), tokens.get(at + 2))
                {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    at += 3;
                    continue;
                }
            }
            Token::Ident(first)
                if matches!(first.as_str(), "crate" | "super" | "self")
                    && tokens.get(at + 1).map(|(_, token)| token) == Some(&Token::PathSep)
                    && previous != Some(&Token::PathSep)
                    && previous != Some(&Token::Punct('$')) =>
            {
                let path = code_path(&tokens, at);
                at += 2 * path.len() - 1;
                if let Some(path) = resolve_whole(&path, &within, false) {
                    found.push((path, false));
                }
                continue;
            }
            Token::Literal(literal) => {
                for (offset, _) in literal.match_indices("crate::") {
                    let rest = &literal[offset + "crate::".len()..];
                    let whole: String = rest
                        .chars()
                        .take_while(|&c| is_ident(c) || c == ':')
                        .collect();
                    let path: Written = whole
                        .split("::")
                        .filter(|name| !name.is_empty())
                        .map(|name| (name.to_owned(), tokens[at].0))
                        .collect();
                    if !path.is_empty() {
                        found.push((path, false));
                    }
                }
            }
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if inline.last().is_some_and(|&(_, inner)| inner == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// The names the crate root (`lib.rs`, as `text`) re-exports, each with the
/// top-level module it comes from.
pub fn root_reexports(text: &str) -> BTreeMap<String, String> {
    let tokens = Source::library_code(text).tokens();
    let mut reexports = BTreeMap::new();
    for (at, (_, token)) in tokens.iter().enumerate() {
        if !token.is_ident("use") {
            continue;
        }
        let mut after = at + 1;
        let mut paths = Vec::new();
        use_tree(&tokens, &mut after, &Vec::new(), &mut paths);
        for path in paths {
            let Some((module, _)) = resolve(&path, &[]) else {
                continue;
            };
            // The name as imported (the crate root gives none another name
            // with `as`).
            let (last, _) = path.last().expect("a resolved path has a segment");
            if last != &module {
                reexports.insert(last.clone(), module);
            }
        }
    }
    reexports
}

/// Every path the `use` declarations of `text`'s library code import,
/// spelled out whole (`use std::{fs, io::Read}` gives `std::fs` and
/// `std::io::Read`), each with the line of its last segment.
pub fn use_paths(text: &str) -> Vec<(usize, String)> {
    let tokens = Source::library_code(text).tokens();
    let mut found = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        if !tokens[at].1.is_ident("use") {
            at += 1;
            continue;
        }
        at += 1;
        let mut paths = Vec::new();
        use_tree(&tokens, &mut at, &Vec::new(), &mut paths);
        for path in paths {
            let line = path.last().map_or(tokens[at - 1].0, |(_, line)| *line);
            let names: Vec<&str> = path.iter().map(|(name, _)| name.as_str()).collect();
            found.push((line, names.join("::").replacen("::::", "::", 1)));
        }
    }
    found
}
