//! Missing and surplus output, named as such.
//!
//! When a program prints nothing for case 3, the lines under case 3 are
//! really case 4's answer, and the checker, reading case by case, reports
//! case 4's moves as wrong for case 3. `explain` finds what happened
//! instead: it lays the output's lines against the expected ones (the
//! exact answers, one moves line and one digit line per case, compared
//! without trailing blanks), and at the first difference looks for the
//! smallest shift that makes the following lines agree again: expected
//! lines the output skipped (missing), or output lines the expectation has
//! no room for (surplus). At least two lines must agree after the shift
//! (or the rest of both, if shorter), so that one digit line agreeing by
//! chance explains nothing.

use std::fmt;

use crate::answers::write_answer;
use crate::solver::Solution;

/// How many lines must agree after a shift, when that many are left.
const AGREEING: usize = 4;

/// What one expected line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    Moves,
    Digit,
}

/// An expected line: its case (the campaign's number) and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ExpectedLine {
    case: u64,
    kind: LineKind,
}

/// What is missing from the output, or surplus in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misalignment {
    /// Whole answers are missing: those of cases `first..=last`.
    MissingAnswers {
        /// The first case without an answer.
        first: u64,
        /// The last.
        last: u64,
        /// Where the next case's answer starts in the output (its line
        /// number), or `None` when the output ends there.
        next_at: Option<u64>,
    },
    /// A case's centre digit line is missing after its moves.
    MissingDigit {
        /// The case.
        case: u64,
        /// Where the next case's moves are in the output, or `None` when
        /// the output ends there.
        next_at: Option<u64>,
    },
    /// A case's centre digit line is missing, and so are the answers of
    /// the cases after it, up to `last`.
    MissingDigitAndAnswers {
        /// The case whose digit is missing.
        case: u64,
        /// The last case without an answer.
        last: u64,
        /// Where case `last + 1`'s moves are in the output, or `None` when
        /// the output ends there.
        next_at: Option<u64>,
    },
    /// A case's moves line is missing before its digit.
    MissingMoves {
        /// The case.
        case: u64,
        /// The line holding its digit.
        digit_at: u64,
    },
    /// Lines the expected output has no room for, before a case's line.
    Surplus {
        /// The case whose line they come before.
        case: u64,
        /// Their first line number.
        first_line: u64,
        /// How many lines.
        lines: u64,
    },
}

impl Misalignment {
    /// The first case the misalignment concerns.
    pub fn case(&self) -> u64 {
        match *self {
            Misalignment::MissingAnswers { first: case, .. }
            | Misalignment::MissingDigit { case, .. }
            | Misalignment::MissingDigitAndAnswers { case, .. }
            | Misalignment::MissingMoves { case, .. }
            | Misalignment::Surplus { case, .. } => case,
        }
    }
}

/// " (line N holds …)" or " (the output ends there)".
fn next(f: &mut fmt::Formatter<'_>, next_at: Option<u64>, what: &str) -> fmt::Result {
    match next_at {
        Some(line) => write!(f, " (line {line} holds {what})"),
        None => f.write_str(" (the output ends there)"),
    }
}

impl fmt::Display for Misalignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Misalignment::MissingAnswers {
                first,
                last,
                next_at,
            } => {
                if first == last {
                    write!(f, "missing answer: the output has none for case {first}")?;
                } else {
                    write!(
                        f,
                        "missing answers: the output has none for cases {first} to {last}"
                    )?;
                }
                next(f, next_at, &format!("case {}'s moves", last + 1))
            }
            Misalignment::MissingDigit { case, next_at } => {
                write!(
                    f,
                    "missing line: case {case}'s centre digit is missing after its moves"
                )?;
                next(f, next_at, &format!("case {}'s moves", case + 1))
            }
            Misalignment::MissingDigitAndAnswers {
                case,
                last,
                next_at,
            } => {
                let answers = if last == case + 1 {
                    format!("case {last}'s answer")
                } else {
                    format!("the answers of cases {} to {last}", case + 1)
                };
                write!(
                    f,
                    "missing lines: case {case}'s centre digit and {answers} are missing"
                )?;
                next(f, next_at, &format!("case {}'s moves", last + 1))
            }
            Misalignment::MissingMoves { case, digit_at } => write!(
                f,
                "missing line: case {case}'s moves are missing (line {digit_at} holds its centre digit)"
            ),
            Misalignment::Surplus {
                case,
                first_line,
                lines,
            } => {
                let last_line = first_line + lines - 1;
                let span = if lines == 1 {
                    format!("line {first_line} is")
                } else {
                    format!("lines {first_line} to {last_line} are")
                };
                write!(
                    f,
                    "surplus output: {span} not part of any answer (line {} holds case {case}'s expected line)",
                    last_line + 1
                )
            }
        }
    }
}

/// The expected lines of `answers`, with their of_line; `cases` numbers them.
fn expected_lines(answers: &[Solution], cases: &[u64]) -> (Vec<String>, Vec<ExpectedLine>) {
    let mut lines = Vec::with_capacity(2 * answers.len());
    let mut of_line = Vec::with_capacity(2 * answers.len());
    for (answer, &case) in answers.iter().zip(cases) {
        let mut text = Vec::new();
        write_answer(&mut text, answer);
        let text = String::from_utf8(text).expect("answers are ASCII");
        for (line, kind) in text.lines().zip([LineKind::Moves, LineKind::Digit]) {
            lines.push(line.to_owned());
            of_line.push(ExpectedLine { case, kind });
        }
    }
    (lines, of_line)
}

/// The output's lines without trailing blanks, trailing blank lines
/// dropped.
fn output_lines(output: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = output
        .split(|&byte| byte == b'\n')
        .map(|line| {
            let end = line
                .iter()
                .rposition(|&byte| !matches!(byte, b' ' | b'\t' | b'\r'))
                .map_or(0, |at| at + 1);
            &line[..end]
        })
        .collect();
    while lines.last().is_some_and(|line| line.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether `output[from..]` agrees with `expected[with..]` far enough to
/// trust: [`AGREEING`] lines, or all that is left of both.
fn agrees(output: &[&[u8]], from: usize, expected: &[String], with: usize) -> bool {
    let output_left = output.len().saturating_sub(from);
    let expected_left = expected.len().saturating_sub(with);
    let compared = AGREEING.min(output_left).min(expected_left);
    let to_the_end = compared == output_left && compared == expected_left;
    if compared < 2 && !to_the_end {
        return false;
    }
    (0..compared).all(|offset| output[from + offset] == expected[with + offset].as_bytes())
}

/// What is missing or surplus in `output`, if that explains the checker's
/// first complaint, about the case at position `faulty` of the run (from
/// 0); `answers` are the run's exact answers and `cases` their numbers.
pub(crate) fn explain(
    answers: &[Solution],
    cases: &[u64],
    output: &[u8],
    faulty: usize,
) -> Option<Misalignment> {
    let (expected, of_line) = expected_lines(answers, cases);
    let output = output_lines(output);
    let first_difference = (0..expected.len()).find(|&at| {
        output
            .get(at)
            .is_none_or(|line| *line != expected[at].as_bytes())
    })?;
    // Only a difference in the case the checker complained about (or just
    // before it: a missing digit line shows in the next case) is ours to
    // explain.
    let at_case = of_line[first_difference].case;
    if at_case != cases[faulty]
        && faulty
            .checked_sub(1)
            .is_none_or(|before| cases[before] != at_case)
    {
        return None;
    }
    let line_number = |index: usize| index as u64 + 1;
    if first_difference >= output.len() {
        return missing(&of_line, first_difference, expected.len(), None);
    }
    // From here the output has a line at the first difference: where the
    // answers it skipped give way to the next.
    for shift in 1..=expected.len().max(output.len()) {
        let skipped = first_difference + shift;
        if skipped <= expected.len() && agrees(&output, first_difference, &expected, skipped) {
            let next_at = Some(line_number(first_difference));
            return missing(&of_line, first_difference, skipped, next_at);
        }
        let extra = first_difference + shift;
        if extra <= output.len() && agrees(&output, extra, &expected, first_difference) {
            return Some(Misalignment::Surplus {
                case: of_line[first_difference].case,
                first_line: line_number(first_difference),
                lines: shift as u64,
            });
        }
    }
    None
}

/// The expected lines `from..to` are missing; the next expected line, if
/// any, is at output line `next_at`. `None` for a span that is not whole
/// answers, a digit line (and whole answers after it), or one moves line.
fn missing(
    of_line: &[ExpectedLine],
    from: usize,
    to: usize,
    next_at: Option<u64>,
) -> Option<Misalignment> {
    let (first, last) = (of_line[from], of_line[to - 1]);
    match (first.kind, last.kind) {
        (LineKind::Moves, LineKind::Digit) => Some(Misalignment::MissingAnswers {
            first: first.case,
            last: last.case,
            next_at,
        }),
        (LineKind::Digit, LineKind::Digit) if to - from == 1 => Some(Misalignment::MissingDigit {
            case: first.case,
            next_at,
        }),
        (LineKind::Digit, LineKind::Digit) => Some(Misalignment::MissingDigitAndAnswers {
            case: first.case,
            last: last.case,
            next_at,
        }),
        (LineKind::Moves, LineKind::Moves) if to - from == 1 => {
            next_at.map(|digit_at| Misalignment::MissingMoves {
                case: first.case,
                digit_at,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::generator::{Generator, Mode};
    use crate::solver::{PdbSolver, Solver};

    /// Six boards of lengths 0 to 5, their answers and their text.
    fn campaign() -> (Vec<Solution>, Vec<u64>, Vec<String>) {
        let boards: Vec<Board> = Generator::new(3, Mode::Mix).boards(6);
        let answers: Vec<Solution> = boards
            .iter()
            .map(|board| PdbSolver::default().solve(board).unwrap())
            .collect();
        let texts = answers
            .iter()
            .map(|answer| {
                let mut text = Vec::new();
                write_answer(&mut text, answer);
                String::from_utf8(text).unwrap()
            })
            .collect();
        (answers, (11..17).collect(), texts)
    }

    /// Line `index` (from 0) of an answer's text, with its newline.
    fn line_of(text: &str, index: usize) -> String {
        text.lines().nth(index).unwrap().to_owned() + "\n"
    }

    #[test]
    fn a_skipped_case_is_named_as_missing() {
        let (answers, cases, texts) = campaign();
        let output: String = [0, 1, 3, 4, 5].iter().map(|&i| texts[i].as_str()).collect();
        let found = explain(&answers, &cases, output.as_bytes(), 2).unwrap();
        assert_eq!(
            found,
            Misalignment::MissingAnswers {
                first: 13,
                last: 13,
                next_at: Some(5)
            }
        );
        assert_eq!(
            found.to_string(),
            "missing answer: the output has none for case 13 (line 5 holds case 14's moves)"
        );
    }

    #[test]
    fn a_missing_digit_line_after_no_moves_needed_is_named() {
        let (answers, cases, texts) = campaign();
        // Case 11 is solved already: "No moves needed" and its digit.
        let without_digit = line_of(&texts[0], 0);
        let output = without_digit + &texts[1..].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 0).unwrap();
        assert_eq!(
            found,
            Misalignment::MissingDigit {
                case: 11,
                next_at: Some(2)
            }
        );
    }

    #[test]
    fn answers_missing_at_the_end_are_named() {
        let (answers, cases, texts) = campaign();
        let output = texts[..4].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 4).unwrap();
        assert_eq!(
            found.to_string(),
            "missing answers: the output has none for cases 15 to 16 (the output ends there)"
        );
        let cut = texts[..4].concat() + &line_of(&texts[4], 0);
        let found = explain(&answers, &cases, cut.as_bytes(), 4).unwrap();
        assert_eq!(
            found.to_string(),
            "missing lines: case 15's centre digit and case 16's answer are missing (the output ends there)"
        );
    }

    #[test]
    fn surplus_lines_are_named_as_one_span() {
        let (answers, cases, texts) = campaign();
        for (surplus, lines, message) in [
            ("debug: 42\n", 1, None),
            (
                "debug: 1\ndebug: 2\ndebug: 3\n",
                3,
                Some(
                    "surplus output: lines 3 to 5 are not part of any answer (line 6 holds case 12's expected line)",
                ),
            ),
        ] {
            let output = texts[0].clone() + surplus + &texts[1..].concat();
            let found = explain(&answers, &cases, output.as_bytes(), 1).unwrap();
            assert_eq!(
                found,
                Misalignment::Surplus {
                    case: 12,
                    first_line: 3,
                    lines
                }
            );
            if let Some(message) = message {
                assert_eq!(found.to_string(), message);
            }
        }
    }

    #[test]
    fn a_missing_digit_with_answers_after_it_and_a_missing_moves_line_are_named() {
        let (answers, cases, texts) = campaign();
        // Case 12's digit and case 13's answer are missing.
        let output = texts[0].clone() + &line_of(&texts[1], 0) + &texts[3..].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 1).unwrap();
        assert_eq!(
            found.to_string(),
            "missing lines: case 12's centre digit and case 13's answer are missing (line 4 holds case 14's moves)"
        );
        // Case 12's digit and the answers of cases 13 and 14 are missing.
        let output = texts[0].clone() + &line_of(&texts[1], 0) + &texts[4..].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 1).unwrap();
        assert_eq!(
            found,
            Misalignment::MissingDigitAndAnswers {
                case: 12,
                last: 14,
                next_at: Some(4)
            }
        );
        assert_eq!(
            found.to_string(),
            "missing lines: case 12's centre digit and the answers of cases 13 to 14 are missing (line 4 holds case 15's moves)"
        );
        // Case 13's moves line is missing, its digit is there.
        let output = texts[..2].concat() + &line_of(&texts[2], 1) + &texts[3..].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 2).unwrap();
        assert_eq!(
            found.to_string(),
            "missing line: case 13's moves are missing (line 5 holds its centre digit)"
        );
        // Case 13's answer and case 14's moves are missing: not whole
        // answers, so not a missing moves line either.
        let output = texts[..2].concat() + &line_of(&texts[3], 1) + &texts[4..].concat();
        let found = explain(&answers, &cases, output.as_bytes(), 2);
        assert!(
            !matches!(found, Some(Misalignment::MissingMoves { .. })),
            "{found:?}"
        );
    }

    #[test]
    fn a_skipped_case_is_named_even_when_the_output_stops_soon_after() {
        let (answers, cases, texts) = campaign();
        // Cases 11 and 13: two lines after the difference, while six cases
        // are expected. Those two agreeing lines are enough.
        let output = texts[0].clone() + &texts[2];
        let found = explain(&answers, &cases, output.as_bytes(), 1);
        assert_eq!(
            found,
            Some(Misalignment::MissingAnswers {
                first: 12,
                last: 12,
                next_at: Some(3)
            })
        );
    }

    #[test]
    fn only_a_difference_in_the_faulty_case_or_the_one_before_is_explained() {
        let (answers, cases, texts) = campaign();
        // Case 12's digit line is missing: the checker may complain of
        // case 12, or of case 13 whose moves it then reads as a digit.
        let output = texts[0].clone() + &line_of(&texts[1], 0) + &texts[2..].concat();
        for faulty in [1, 2] {
            assert_eq!(
                explain(&answers, &cases, output.as_bytes(), faulty),
                Some(Misalignment::MissingDigit {
                    case: 12,
                    next_at: Some(4)
                }),
                "complaint about case {}",
                cases[faulty]
            );
        }
        // A complaint about case 14 is not about case 12's missing answer.
        let output: String = [0, 2, 3, 4, 5].iter().map(|&i| texts[i].as_str()).collect();
        assert_eq!(explain(&answers, &cases, output.as_bytes(), 3), None);
    }

    #[test]
    fn a_plain_wrong_answer_is_not_explained_away() {
        let (answers, cases, texts) = campaign();
        let mut wrong = texts.clone();
        wrong[2] = "HHHHHHHH\n1\n".to_owned();
        let output = wrong.concat();
        assert_eq!(explain(&answers, &cases, output.as_bytes(), 2), None);
    }
}
