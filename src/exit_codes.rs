//! The exit codes of a checker and of an input validator, in the two
//! conventions judge systems read them by.
//!
//! # Overview
//!
//! A judge system runs the checker on each output and the validator on each
//! test file, and reads their verdict from the exit status. Two conventions
//! cover the systems in use:
//!
//! | exit codes | used by | checker | validator |
//! | --- | --- | --- | --- |
//! | [`ExitCodes::Testlib`] | Codeforces, Polygon, testlib-based judges | 0 OK, 1 wrong answer, 2 wrong output format, 3 fail | 0 valid, 3 invalid |
//! | [`ExitCodes::Kattis`] | Kattis, DOMjudge, problemtools | 42 accepted, 43 wrong answer (format included), 3 judging error | 42 valid, 43 invalid |

use crate::checker::VerdictKind;

/// The exit codes of one judge system's convention; see the
/// [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExitCodes {
    /// testlib's: `0` OK, `1` WA, `2` PE, `3` FAIL; a validator exits `0`
    /// or `3`.
    Testlib,
    /// Kattis's and DOMjudge's: `42` accepted, `43` rejected (a wrong
    /// format included, as those systems have no separate verdict), and `3`
    /// on failure, which they report as a judging error.
    Kattis,
}

impl ExitCodes {
    /// The exit status of a checker that reached `verdict`.
    pub const fn checker_exit_code(self, verdict: VerdictKind) -> u8 {
        match (self, verdict) {
            (ExitCodes::Testlib, VerdictKind::Ok) => 0,
            (ExitCodes::Testlib, VerdictKind::WrongAnswer) => 1,
            (ExitCodes::Testlib, VerdictKind::WrongFormat) => 2,
            (ExitCodes::Testlib | ExitCodes::Kattis, VerdictKind::Fail) => 3,
            (ExitCodes::Kattis, VerdictKind::Ok) => 42,
            (ExitCodes::Kattis, VerdictKind::WrongAnswer | VerdictKind::WrongFormat) => 43,
        }
    }

    /// The exit status of an input validator that found its input `valid`
    /// or not.
    pub const fn validator_exit_code(self, valid: bool) -> u8 {
        match (self, valid) {
            (ExitCodes::Testlib, true) => 0,
            (ExitCodes::Testlib, false) => 3,
            (ExitCodes::Kattis, true) => 42,
            (ExitCodes::Kattis, false) => 43,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_testlibs_and_kattiss() {
        let kinds = [
            VerdictKind::Ok,
            VerdictKind::WrongAnswer,
            VerdictKind::WrongFormat,
            VerdictKind::Fail,
        ];
        let codes = |convention: ExitCodes| kinds.map(|kind| convention.checker_exit_code(kind));
        assert_eq!(codes(ExitCodes::Testlib), [0, 1, 2, 3]);
        assert_eq!(codes(ExitCodes::Kattis), [42, 43, 43, 3]);
        let validator = |convention: ExitCodes| {
            [true, false].map(|valid| convention.validator_exit_code(valid))
        };
        assert_eq!(validator(ExitCodes::Testlib), [0, 3]);
        assert_eq!(validator(ExitCodes::Kattis), [42, 43]);
    }
}
