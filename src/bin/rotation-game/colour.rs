//! Whether to colour what is written: the global `--color auto|always|never`,
//! decided once in `main`, and read by every command that colours (the
//! pictures of `show`, the verdicts of `stress` and `judge`).
//!
//! `auto` colours a stream that is a terminal, unless `NO_COLOR` is set to
//! something (<https://no-color.org>) or `TERM` is `dumb`; `always` and
//! `never` decide alone.

use std::io::IsTerminal;
use std::sync::OnceLock;

use clap::ValueEnum;

/// `--color`'s values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColourWhen {
    /// When the output is a terminal, TERM is not "dumb" and NO_COLOR is
    /// unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

static CHOSEN: OnceLock<ColourWhen> = OnceLock::new();

/// Records the command line's choice (the first call wins).
pub fn choose(when: ColourWhen) {
    let _first = CHOSEN.set(when);
}

/// Whether standard output is coloured.
pub fn stdout() -> bool {
    decide(
        CHOSEN.get().copied().unwrap_or_default(),
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty()),
        std::env::var_os("TERM").is_some_and(|term| term == "dumb"),
    )
}

/// The decision, from the choice and what the environment says.
fn decide(when: ColourWhen, terminal: bool, no_color: bool, dumb: bool) -> bool {
    match when {
        ColourWhen::Always => true,
        ColourWhen::Never => false,
        ColourWhen::Auto => terminal && !no_color && !dumb,
    }
}

/// `text` (a verdict's code, padded as it is to be shown) in the verdict's
/// colour when `colour`: green for AC, magenta for FAIL (the test data is
/// wrong), red for the rest; the padding stays outside the colour.
pub fn verdict(text: &str, code: &str, colour: bool) -> String {
    if !colour {
        return text.to_owned();
    }
    let ansi = match code {
        "AC" => "32",
        "FAIL" => "35",
        _ => "31",
    };
    let trimmed = text.trim_end();
    let padding = &text[trimmed.len()..];
    format!("\x1b[{ansi}m{trimmed}\x1b[0m{padding}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colours_a_terminal_unless_no_color_or_a_dumb_one() {
        assert!(decide(ColourWhen::Auto, true, false, false));
        assert!(!decide(ColourWhen::Auto, false, false, false));
        assert!(!decide(ColourWhen::Auto, true, true, false));
        assert!(!decide(ColourWhen::Auto, true, false, true));
        assert!(decide(ColourWhen::Always, false, true, true));
        assert!(!decide(ColourWhen::Never, true, false, false));
    }

    #[test]
    fn a_verdict_is_coloured_inside_its_padding() {
        assert_eq!(verdict("AC     ", "AC", false), "AC     ");
        assert_eq!(verdict("AC     ", "AC", true), "\x1b[32mAC\x1b[0m     ");
        assert_eq!(verdict("WA", "WA", true), "\x1b[31mWA\x1b[0m");
        assert_eq!(verdict("FAIL", "FAIL", true), "\x1b[35mFAIL\x1b[0m");
    }
}
