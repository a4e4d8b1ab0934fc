//! The planted wrong and slow submissions, made from one source: the
//! accepted classic solution (`accepted/classic_ida.cpp`) and, for each, a
//! patch that plants its mistake (`wrong_answer/NAME.patch`,
//! `time_limit_exceeded/NAME.patch` beside this file's `standalone/`).
//!
//! # Overview
//!
//! A patch file is the planted program's leading comment (the lines before
//! `---`, which name and explain its mistake) and then a unified diff
//! (`diff -U2`) of the classic solution's code, without its own leading
//! comment, to the planted program's code. [`apply`] puts them together: the
//! package ships the result, a standalone file like any other. So the
//! shared code (the board, the moves, the estimate, the input loop) is
//! written once, and each mistake is only what it changes.
//!
//! To change a planted program, edit the classic solution or the patch; to
//! make a patch, write the planted program in full and run
//! `diff -U2 --label accepted/classic_ida.cpp --label wrong_answer/NAME.cpp
//! CLASSIC_CODE NAME_CODE` on the two files without their leading comments.

/// Why a patch does not apply; a test applies every shipped patch, so this
/// only reaches someone editing them.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PatchError {
    /// The patch has no `@@ -a,b +c,d @@` hunk, or one that cannot be read.
    #[error("patch line {line}: expected a hunk header `@@ -a,b +c,d @@`, found {found:?}")]
    BadHunkHeader {
        /// The patch's line, from 1.
        line: usize,
        /// What it holds.
        found: String,
    },
    /// A hunk begins before the previous one ends, or past the classic
    /// code's end.
    #[error(
        "patch line {line}: the hunk begins after line {after} of the classic code, but must begin after line {earliest} to {latest}"
    )]
    HunkOutOfPlace {
        /// The patch's line, from 1.
        line: usize,
        /// The classic code's line it begins after (0 for its start).
        after: usize,
        /// Where the previous hunk ended.
        earliest: usize,
        /// The classic code's last line.
        latest: usize,
    },
    /// A context or removed line is not the classic solution's line there.
    #[error(
        "patch line {line}: expected {expected:?} at line {at} of the classic code, found {found:?}"
    )]
    Mismatch {
        /// The patch's line, from 1.
        line: usize,
        /// The classic code's line, from 1.
        at: usize,
        /// What the patch says is there.
        expected: String,
        /// What is there.
        found: String,
    },
}

/// The leading comment of `source`: its first lines while they start with
/// `//`.
fn leading_comment_lines(source: &str) -> usize {
    source
        .lines()
        .take_while(|line| line.starts_with("//"))
        .count()
}

/// The planted program that `patch` makes of the classic solution
/// `classic`: the patch's leading comment, then the classic code (without
/// its leading comment) with the patch's hunks applied.
///
/// # Errors
///
/// [`PatchError`] when a hunk header cannot be read or a hunk does not
/// match the classic code.
pub(crate) fn apply(classic: &str, patch: &str) -> Result<String, PatchError> {
    let base: Vec<&str> = classic
        .lines()
        .skip(leading_comment_lines(classic))
        .collect();
    let patch_lines: Vec<&str> = patch.lines().collect();
    let mut out: Vec<&str> = patch_lines
        .iter()
        .take_while(|line| !line.starts_with("--- "))
        .copied()
        .collect();
    // The two file names, `---` and `+++`.
    let mut at = out.len() + 2;
    // The next line of `base` to copy, from 0.
    let mut next = 0;
    while at < patch_lines.len() {
        let header = patch_lines[at];
        let start = hunk_start(header).ok_or_else(|| PatchError::BadHunkHeader {
            line: at + 1,
            found: header.to_owned(),
        })?;
        if start < next || start > base.len() {
            return Err(PatchError::HunkOutOfPlace {
                line: at + 1,
                after: start,
                earliest: next,
                latest: base.len(),
            });
        }
        out.extend(&base[next..start]);
        next = start;
        at += 1;
        while at < patch_lines.len() && !patch_lines[at].starts_with("@@") {
            let line = patch_lines[at];
            let kind = line.chars().next();
            let text = kind.map_or("", |first| &line[first.len_utf8()..]);
            match kind {
                Some('+') => out.push(text),
                Some(' ' | '-') | None => {
                    let found = base.get(next).copied();
                    if found != Some(text) {
                        return Err(PatchError::Mismatch {
                            line: at + 1,
                            at: next + 1,
                            expected: text.to_owned(),
                            found: found.unwrap_or("the end of the code").to_owned(),
                        });
                    }
                    if kind != Some('-') {
                        out.push(text);
                    }
                    next += 1;
                }
                _ => {}
            }
            at += 1;
        }
    }
    // `next` is at most the code's length: it moves on only past a line
    // the patch found there, or to a hunk's start, which is checked.
    out.extend(&base[next..]);
    let mut source = out.join("\n");
    source.push('\n');
    Ok(source)
}

/// How many lines of the old file come before the hunk whose header is
/// `@@ -a,b +c,d @@`: `a - 1`, the hunk's first line being line `a`; or
/// `a` for a hunk of no old lines (`b` = 0), which inserts after line `a`.
/// A missing `b` is 1.
fn hunk_start(header: &str) -> Option<usize> {
    let old = header.strip_prefix("@@ -")?.split(' ').next()?;
    let (first, count) = match old.split_once(',') {
        Some((first, count)) => (first.parse::<usize>().ok()?, count.parse::<usize>().ok()?),
        None => (old.parse().ok()?, 1),
    };
    if count == 0 {
        Some(first)
    } else {
        first.checked_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str = "// The classic.\n// Two lines.\nint a;\nint b;\nint c;\nint d;\n";

    #[test]
    fn a_patch_replaces_the_comment_and_changes_only_its_lines() {
        let patch = "// Planted: b is 2.\n--- accepted/x.cpp\n+++ wrong_answer/y.cpp\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int b = 2;\n int c;\n";
        assert_eq!(
            apply(CLASSIC, patch).unwrap(),
            "// Planted: b is 2.\nint a;\nint b = 2;\nint c;\nint d;\n"
        );
    }

    #[test]
    fn a_hunk_that_does_not_match_is_an_error_naming_both_lines() {
        let patch = "// P.\n--- a\n+++ b\n@@ -2,1 +2,1 @@\n-int x;\n+int y;\n";
        assert_eq!(
            apply(CLASSIC, patch),
            Err(PatchError::Mismatch {
                line: 5,
                at: 2,
                expected: "int x;".to_owned(),
                found: "int b;".to_owned(),
            })
        );
        let past_the_end = "// P.\n--- a\n+++ b\n@@ -4,2 +4,2 @@\n int d;\n-int e;\n";
        assert!(matches!(
            apply(CLASSIC, past_the_end),
            Err(PatchError::Mismatch { at: 5, .. })
        ));
        let bad = "// P.\n--- a\n+++ b\n@@ nonsense\n";
        assert!(matches!(
            apply(CLASSIC, bad),
            Err(PatchError::BadHunkHeader { line: 4, .. })
        ));
    }

    #[test]
    fn hunks_apply_in_order_keeping_the_code_between_and_after_them() {
        let classic = "// C.\n1\n2\n3\n4\n5\n6\n7\n8\n";
        // Two hunks with the code between them untouched, a removal and an
        // insertion, and the marker diff writes after a last line without
        // its newline, which changes nothing.
        let patch = "// P.\n// Two lines.\n--- a\n+++ b\n@@ -2,2 +2,2 @@\n 2\n-3\n+three\n@@ -6,2 +6,3 @@\n 6\n+6.5\n 7\n\\ No newline at end of file\n";
        assert_eq!(
            apply(classic, patch).unwrap(),
            "// P.\n// Two lines.\n1\n2\nthree\n4\n5\n6\n6.5\n7\n8\n"
        );
    }

    #[test]
    fn a_hunk_at_line_zero_inserts_before_the_code_and_an_empty_line_is_context() {
        let classic = "// C.\nint a;\n\nint b;\n";
        let patch = "// P.\n--- a\n+++ b\n@@ -0,0 +1 @@\n+#include <x>\n@@ -1,3 +2,3 @@\n int a;\n\n-int b;\n+int c;\n";
        assert_eq!(
            apply(classic, patch).unwrap(),
            "// P.\n#include <x>\nint a;\n\nint c;\n"
        );
        // Without a leading comment in either, and without hunks.
        assert_eq!(apply("x\ny\n", "--- a\n+++ b\n").unwrap(), "x\ny\n");
    }

    #[test]
    fn a_hunk_header_names_the_old_file_s_first_line() {
        assert_eq!(hunk_start("@@ -12,7 +12,8 @@"), Some(11));
        assert_eq!(hunk_start("@@ -3 +3 @@ int main() {"), Some(2));
        // No old lines: the hunk inserts after the line named.
        assert_eq!(hunk_start("@@ -0,0 +1 @@"), Some(0));
        assert_eq!(hunk_start("@@ -2,0 +3 @@"), Some(2));
        assert_eq!(hunk_start("@@ -0,1 +1 @@"), None);
        assert_eq!(hunk_start("@@ -2,x +3 @@"), None);
        assert_eq!(hunk_start("@@ +3 @@"), None);
        assert_eq!(hunk_start("@@ -x,1 +1 @@"), None);
        assert_eq!(hunk_start(" -3,1 +3 @@"), None);
    }

    #[test]
    fn the_leading_comment_is_the_first_lines_that_start_with_two_slashes() {
        assert_eq!(leading_comment_lines("// a\n// b\nint x; // c\n// d\n"), 2);
        assert_eq!(leading_comment_lines("int x;\n// a\n"), 0);
        assert_eq!(leading_comment_lines(""), 0);
    }

    #[test]
    fn a_hunk_of_no_old_lines_inserts_after_its_line_and_one_out_of_place_is_refused() {
        let classic = "// C.\nx\ny\n";
        let after = |line: usize| format!("--- a\n+++ b\n@@ -{line},0 +{} @@\n+new\n", line + 1);
        assert_eq!(apply(classic, &after(1)).unwrap(), "x\nnew\ny\n");
        assert_eq!(apply(classic, &after(2)).unwrap(), "x\ny\nnew\n");
        assert_eq!(
            apply(classic, &after(3)),
            Err(PatchError::HunkOutOfPlace {
                line: 3,
                after: 3,
                earliest: 0,
                latest: 2
            })
        );
        // A hunk that begins where the one before it ended is in place; one
        // that begins before that is not.
        let two = "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+X\n@@ -2 +2 @@\n-y\n+Y\n";
        assert_eq!(apply(classic, two).unwrap(), "X\nY\n");
        let back = "--- a\n+++ b\n@@ -2 +2 @@\n-y\n+Y\n@@ -1 +1 @@\n-x\n+X\n";
        assert!(matches!(
            apply(classic, back),
            Err(PatchError::HunkOutOfPlace {
                line: 6,
                after: 0,
                earliest: 2,
                ..
            })
        ));
        // Two insertions past the end, which once cut the code backwards.
        let past = "--- a\n+++ b\n@@ -5,0 +5 @@\n+y\n@@ -6,0 +7 @@\n+z\n";
        assert!(matches!(
            apply("// C.\nx\n", past),
            Err(PatchError::HunkOutOfPlace {
                after: 5,
                latest: 1,
                ..
            })
        ));
    }
}
