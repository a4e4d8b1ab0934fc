//! The crate's own verdicts on untrusted bytes, as a judge system reads
//! them: exit statuses under [`ExitCodes`].
//!
//! Another program that validates test files or checks outputs (a
//! standalone validator or checker shipped with a problem package, say)
//! must reach the same verdicts on the same bytes. A fuzz target comparing
//! it with the crate runs it on the fuzzer's bytes and asserts that its exit
//! status is the one these functions give; the `pipeline` target holds the
//! crate's own validator, parser and checker to them.

use crate::checker::{CheckOptions, Checker, CheckerVerdict};
use crate::exit_codes::ExitCodes;
use crate::validator::{ValidateOptions, validate};

/// The exit status of a validator that follows `convention`, run on the
/// test file `data` with `options`: valid exactly when
/// [`validate`] accepts it.
pub fn validator_exit_code(data: &[u8], options: &ValidateOptions, convention: ExitCodes) -> u8 {
    convention.validator_exit_code(validate(data, options).is_ok())
}

/// The verdict of the checker on `output` for the judge input `input`,
/// with the jury's `answer` when there is one: a judging failure when the
/// input is not valid judge input (read leniently) or the jury's answer is
/// wrong.
pub fn checker_verdict(
    input: &[u8],
    output: &[u8],
    answer: Option<&[u8]>,
    options: &CheckOptions,
) -> CheckerVerdict {
    match Checker::from_judge_input(input) {
        Ok(checker) => checker.check_with_answer(output, answer, options),
        Err(verdict) => verdict,
    }
}

/// The exit status of a checker that follows `convention`: that of
/// [`checker_verdict`].
pub fn checker_exit_code(
    input: &[u8],
    output: &[u8],
    answer: Option<&[u8]>,
    options: &CheckOptions,
    convention: ExitCodes,
) -> u8 {
    convention.checker_exit_code(checker_verdict(input, output, answer, options).kind())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{INPUT, OUTPUT};

    #[test]
    fn the_sample_is_valid_and_its_answer_accepted() {
        let options = ValidateOptions::default();
        assert_eq!(
            validator_exit_code(INPUT.as_bytes(), &options, ExitCodes::Testlib),
            0
        );
        assert_eq!(
            validator_exit_code(b"0\n0\n", &options, ExitCodes::Kattis),
            43
        );
        let check = |output: &[u8], answer: Option<&[u8]>| {
            let options = CheckOptions::default();
            checker_exit_code(
                INPUT.as_bytes(),
                output,
                answer,
                &options,
                ExitCodes::Testlib,
            )
        };
        let right = OUTPUT.as_bytes();
        assert_eq!(check(right, None), 0);
        assert_eq!(check(b"AC\n2\nHHDD\n2\n", Some(right)), 1);
        assert_eq!(check(b"AC\n", None), 2);
        assert_eq!(
            check(right, Some(b"AC\n2\nHHDD\n2\n")),
            3,
            "wrong jury answer"
        );
        let options = CheckOptions::default();
        let bad_input = checker_exit_code(b"1 2 x", right, None, &options, ExitCodes::Kattis);
        assert_eq!(bad_input, 3);
    }
}
