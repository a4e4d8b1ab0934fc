//! Progress bars on standard error, shown only when it is a terminal that
//! can redraw a line (not `TERM=dumb`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use rotation_game::judging::FileRecord;

/// Whether a progress bar can be drawn here: see [`can_draw`].
fn drawable() -> bool {
    can_draw(
        std::io::stderr().is_terminal(),
        std::env::var_os("TERM").as_deref(),
    )
}

/// Whether a progress bar can be drawn on standard error when it is a
/// `terminal` or not, of type `term`: on a terminal, and not a dumb one
/// (which cannot move the cursor back).
fn can_draw(terminal: bool, term: Option<&std::ffi::OsStr>) -> bool {
    terminal && term.is_none_or(|term| term != "dumb")
}

/// A progress bar counting up to `total` items, or a hidden one where it
/// cannot be drawn (so logs, pipes and dumb terminals stay clean).
pub fn bar(total: u64, what: &str) -> ProgressBar {
    styled(total, what, "")
}

/// [`bar`], or a hidden one unless `shown` (`--quiet` hides it).
pub fn shown(shown: bool, total: u64, what: &str) -> ProgressBar {
    if shown {
        bar(total, what)
    } else {
        ProgressBar::hidden()
    }
}

fn styled(total: u64, what: &str, after: &str) -> ProgressBar {
    if !drawable() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let template = format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {what}{after} ({{eta}} left)"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar
}

/// The progress of a judging: the items judged, and how many of its runs
/// (or files) failed so far, live.
pub struct Judging {
    bar: ProgressBar,
    failed: AtomicU64,
}

impl Judging {
    /// A bar up to `total` items of `what` (`cases`, `files`), hidden
    /// unless `shown` (and drawable).
    pub fn new(total: u64, what: &str, shown: bool) -> Judging {
        let bar = if shown {
            styled(total, what, "{msg}")
        } else {
            ProgressBar::hidden()
        };
        bar.set_message(", 0 failed");
        Judging {
            bar,
            failed: AtomicU64::new(0),
        }
    }

    /// Counts `items` more judged, by a run that `failed` or not.
    pub fn advance(&self, items: u64, failed: bool) {
        if failed {
            let failed = self.failed.fetch_add(1, Ordering::Relaxed) + 1;
            self.bar.set_message(format!(", {failed} failed"));
        }
        self.bar.inc(items);
    }

    /// Counts a file judged, as `record` says.
    pub fn file_judged(&self, record: &FileRecord) {
        self.advance(1, !record.verdict.is_accepted());
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_judging_counts_the_items_judged_and_the_failed_runs() {
        let judging = Judging::new(10, "cases", false);
        assert_eq!(judging.bar.message(), ", 0 failed");
        judging.advance(3, false);
        judging.advance(2, true);
        assert_eq!(judging.bar.message(), ", 1 failed");
        judging.advance(1, true);
        judging.advance(4, false);
        assert_eq!(judging.bar.position(), 10);
        assert_eq!(judging.bar.message(), ", 2 failed");
        judging.finish();
        assert!(judging.bar.is_finished());
    }

    #[test]
    fn a_bar_is_drawn_only_on_a_terminal_that_is_not_dumb() {
        let term = |name: &str| Some(std::ffi::OsString::from(name));
        assert!(can_draw(true, None));
        assert!(can_draw(true, term("xterm-256color").as_deref()));
        assert!(!can_draw(true, term("dumb").as_deref()));
        assert!(!can_draw(false, term("xterm-256color").as_deref()));
        assert!(!can_draw(false, None));
    }

    #[test]
    fn a_file_not_accepted_counts_as_failed() {
        use rotation_game::judging::{FileVerdict, Measures, Verdict};

        let record = |verdict| FileRecord {
            file: "01".to_owned(),
            cases: 2,
            verdict,
            message: String::new(),
            measures: Measures::default(),
        };
        let judging = Judging::new(3, "files", false);
        judging.file_judged(&record(FileVerdict::Judged(Verdict::Accepted)));
        assert_eq!(judging.bar.message(), ", 0 failed");
        judging.file_judged(&record(FileVerdict::Judged(Verdict::WrongAnswer)));
        judging.file_judged(&record(FileVerdict::Fail));
        assert_eq!(judging.bar.message(), ", 2 failed");
        assert_eq!(judging.bar.position(), 3);
    }

    #[test]
    fn a_bar_not_shown_is_hidden_whatever_standard_error_is() {
        assert!(shown(false, 5, "boards").is_hidden());
        assert!(Judging::new(5, "files", false).bar.is_hidden());
    }
}
