//! The checker: judges a contestant's output against the exact answers.
//!
//! # Overview
//!
//! [`Checker`] holds the judge input's boards and their true answers, which
//! it computes itself with [`PdbSolver`]. [`Checker::check`] reads an output
//! and returns a [`CheckerVerdict`]: [`VerdictKind::Ok`], a wrong answer, a wrong
//! output format, or a failure of the jury. [`check`] does both in one call.
//!
//! Per case, in order, the output must hold:
//!
//! - one line of moves: only the letters `A`–`H`, or exactly
//!   `No moves needed`;
//! - one line with the centre digit.
//!
//! A line that is neither form, a missing line, or a digit line that is not
//! a single digit 1–3 is a *wrong output format*. A well-formed case is a
//! *wrong answer* when its moves leave the centre mixed, when its digit is
//! not the one the moves leave, when it is longer than optimal, or when it is
//! optimal but not the lexicographically smallest optimal sequence. Anything
//! but whitespace after the last case is a wrong answer too.
//!
//! Trailing spaces and tabs, CRLF line ends, a missing final newline and
//! blank lines after the last case are accepted, as the POJ judges accept
//! them; [`CheckOptions::strict_whitespace`] makes each of them a wrong
//! output format.
//!
//! # Hostile output
//!
//! The output is untrusted. The checker reads it in one pass through a fixed
//! buffer, keeps only the first [`QUOTE_BYTES`] of any line, and reads at
//! most [`CheckOptions::output_limit`] plus one bytes: an output longer than
//! the limit is a wrong answer ("output limit exceeded") whatever it holds,
//! decided without reading the rest. Memory and time are therefore bounded
//! by the limit and the number of cases, and nothing the output holds makes
//! the checker panic. The verdict is a function of the boards, the output's
//! bytes and the options alone.
//!
//! # Example
//!
//! ```
//! use rotation_game::checker::{self, CheckOptions, VerdictKind};
//! use rotation_game::Board;
//!
//! let board: Board = "111132323132231222312133".parse()?;
//! let options = CheckOptions::default();
//! let verdict = checker::check(&[board], &b"AC\n2\n"[..], &options);
//! assert_eq!(verdict.kind(), VerdictKind::Ok);
//!
//! // A and B move disjoint lines, so BA solves this board as AB does.
//! let board: Board = "112212231113322333113322".parse()?;
//! let verdict = checker::check(&[board], &b"BA\n3\n"[..], &options);
//! assert_eq!(
//!     verdict.to_string(),
//!     "wrong answer case 1: optimal length but not the lexicographically smallest: expected AB, found BA"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod lines;

use std::fmt;
use std::io::Read;
use std::sync::OnceLock;

use crate::board::{Board, Digit};
use crate::moves::{MAX_SEQUENCE_LENGTH, MoveSequence, NO_MOVES_NEEDED};
use crate::parser::CaseReader;
use crate::solver::{PackedSolution, PdbSolver, Solution};

pub use crate::quote::{QUOTE_BYTES, Quote};
use lines::{Line, LineReader, Stop};

/// The default output limit: 8 MiB.
pub const DEFAULT_OUTPUT_LIMIT: u64 = 8 << 20;

/// How strictly the checker reads an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Make trailing whitespace, CRLF line ends, a missing final newline and
    /// blank lines after the last case wrong output formats (by default they
    /// are accepted).
    pub strict_whitespace: bool,
    /// The most bytes an output may hold; more is a wrong answer, "output
    /// limit exceeded".
    pub output_limit: u64,
}

impl Default for CheckOptions {
    /// Lenient whitespace and an output limit of [`DEFAULT_OUTPUT_LIMIT`].
    fn default() -> CheckOptions {
        CheckOptions {
            strict_whitespace: false,
            output_limit: DEFAULT_OUTPUT_LIMIT,
        }
    }
}

/// The four verdicts, in the testlib sense.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VerdictKind {
    /// Every case is right.
    Ok,
    /// A case is wrong, or the output holds more than it should.
    WrongAnswer,
    /// The output is not in the judge format (testlib's "presentation
    /// error").
    WrongFormat,
    /// The jury is wrong or the checker could not do its job: a bad judge
    /// input, a wrong jury answer, an unreadable output.
    Fail,
}

/// Why the checker reached its verdict; `Display` gives the message without
/// the case number (the [`CheckerVerdict`] adds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Every case is right.
    Accepted {
        /// How many cases.
        cases: usize,
    },
    /// An empty line where the moves should be.
    EmptyMovesLine {
        /// The line number.
        line: u64,
    },
    /// A moves line that is neither letters `A`–`H` nor `No moves needed`.
    BadMovesLine {
        /// The line number.
        line: u64,
        /// The line, without trailing whitespace.
        found: Quote,
    },
    /// A digit line that is not a single digit 1–3.
    BadDigitLine {
        /// The line number.
        line: u64,
        /// The line, without trailing whitespace.
        found: Quote,
    },
    /// The output ended where a moves line should be.
    MissingMovesLine {
        /// The number the line would have.
        line: u64,
    },
    /// The output ended where a digit line should be.
    MissingDigitLine {
        /// The number the line would have.
        line: u64,
    },
    /// Spaces or tabs at the end of a line (strict whitespace only).
    TrailingWhitespace {
        /// The line number.
        line: u64,
    },
    /// A CRLF line end (strict whitespace only).
    CrlfLineEnd {
        /// The line number.
        line: u64,
    },
    /// The output's last line has no line feed (strict whitespace only).
    MissingFinalNewline {
        /// The line number.
        line: u64,
    },
    /// A blank line after the last case (strict whitespace only).
    BlankLineAfterLastCase {
        /// The line number.
        line: u64,
    },
    /// The moves do not make the centre uniform.
    CentreMixed {
        /// The moves found.
        found: Quote,
        /// The optimal length.
        optimal: usize,
    },
    /// `No moves needed` for a board whose centre is mixed.
    NoMovesButMixed {
        /// The optimal length.
        optimal: usize,
    },
    /// The digit is not the one the moves leave in the centre.
    WrongCentre {
        /// The digit the moves leave.
        expected: Digit,
        /// The digit found.
        found: Digit,
    },
    /// More moves than the optimal length.
    TooLong {
        /// The number of moves found.
        found: u64,
        /// The optimal length.
        optimal: usize,
    },
    /// An optimal sequence that is not the lexicographically smallest.
    NotSmallest {
        /// The lexicographically smallest optimal sequence.
        expected: MoveSequence,
        /// The sequence found.
        found: MoveSequence,
    },
    /// Something other than whitespace after the last case.
    ExtraOutput {
        /// The line number.
        line: u64,
        /// The line, without trailing whitespace.
        found: Quote,
    },
    /// More output than the limit allows.
    OutputLimitExceeded {
        /// The limit, in bytes.
        limit: u64,
    },
    /// A sequence that solves the case in fewer moves than the checker's
    /// optimum: the checker itself is wrong.
    ShorterThanOptimal {
        /// The number of moves found.
        found: u64,
        /// The checker's optimal length.
        optimal: usize,
    },
    /// The judge input is not valid.
    BadJudgeInput {
        /// The parser's message (case, line, column, expected, found).
        message: String,
    },
    /// The output could not be read.
    Unreadable {
        /// The I/O error's message.
        message: String,
    },
    /// The jury's answer is itself wrong; holds what is wrong with it.
    WrongJuryAnswer(Box<Reason>),
}

impl Reason {
    /// The verdict this reason leads to.
    pub fn kind(&self) -> VerdictKind {
        match self {
            Reason::Accepted { .. } => VerdictKind::Ok,
            Reason::EmptyMovesLine { .. }
            | Reason::BadMovesLine { .. }
            | Reason::BadDigitLine { .. }
            | Reason::MissingMovesLine { .. }
            | Reason::MissingDigitLine { .. }
            | Reason::TrailingWhitespace { .. }
            | Reason::CrlfLineEnd { .. }
            | Reason::MissingFinalNewline { .. }
            | Reason::BlankLineAfterLastCase { .. } => VerdictKind::WrongFormat,
            Reason::CentreMixed { .. }
            | Reason::NoMovesButMixed { .. }
            | Reason::WrongCentre { .. }
            | Reason::TooLong { .. }
            | Reason::NotSmallest { .. }
            | Reason::ExtraOutput { .. }
            | Reason::OutputLimitExceeded { .. } => VerdictKind::WrongAnswer,
            Reason::ShorterThanOptimal { .. }
            | Reason::BadJudgeInput { .. }
            | Reason::Unreadable { .. }
            | Reason::WrongJuryAnswer(_) => VerdictKind::Fail,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Accepted { cases: 1 } => f.write_str("1 case"),
            Reason::Accepted { cases } => write!(f, "{cases} cases"),
            Reason::EmptyMovesLine { line } => write!(
                f,
                "line {line}: expected the moves (letters A-H, or \"{NO_MOVES_NEEDED}\"), found an empty line"
            ),
            Reason::BadMovesLine { line, found } => write!(
                f,
                "line {line}: expected the moves (letters A-H, or \"{NO_MOVES_NEEDED}\"), found {found}"
            ),
            Reason::BadDigitLine { line, found } => write!(
                f,
                "line {line}: expected the centre digit (1, 2 or 3), found {found}"
            ),
            Reason::MissingMovesLine { line } => write!(
                f,
                "line {line}: expected the moves, found the end of the output"
            ),
            Reason::MissingDigitLine { line } => write!(
                f,
                "line {line}: expected the centre digit, found the end of the output"
            ),
            Reason::TrailingWhitespace { line } => {
                write!(f, "line {line}: trailing whitespace (strict mode)")
            }
            Reason::CrlfLineEnd { line } => {
                write!(f, "line {line}: CRLF line end, expected LF (strict mode)")
            }
            Reason::MissingFinalNewline { line } => write!(
                f,
                "line {line}: no newline at the end of the output (strict mode)"
            ),
            Reason::BlankLineAfterLastCase { line } => {
                write!(
                    f,
                    "line {line}: blank line after the last case (strict mode)"
                )
            }
            Reason::CentreMixed { found, optimal } => write!(
                f,
                "the moves {found} leave the centre mixed (optimal is {optimal} moves)"
            ),
            Reason::NoMovesButMixed { optimal } => write!(
                f,
                "\"{NO_MOVES_NEEDED}\" but the centre is mixed (optimal is {optimal} moves)"
            ),
            Reason::WrongCentre { expected, found } => {
                write!(f, "the moves leave {expected} in the centre, found {found}")
            }
            Reason::TooLong { found, optimal } => {
                write!(f, "{found} moves, optimal is {optimal}")
            }
            Reason::NotSmallest { expected, found } => write!(
                f,
                "optimal length but not the lexicographically smallest: expected {expected}, found {found}"
            ),
            Reason::ExtraOutput { line, found } => {
                write!(f, "line {line}: extra output after the last case: {found}")
            }
            Reason::OutputLimitExceeded { limit } => {
                write!(f, "output limit exceeded: more than {limit} bytes")
            }
            Reason::ShorterThanOptimal { found, optimal } => write!(
                f,
                "{found} moves solve the case but the checker's optimum is {optimal}: the checker is wrong"
            ),
            Reason::BadJudgeInput { message } => write!(f, "bad judge input: {message}"),
            Reason::Unreadable { message } => write!(f, "cannot read the output: {message}"),
            Reason::WrongJuryAnswer(reason) => write!(f, "the jury answer is wrong: {reason}"),
        }
    }
}

/// The checker's judgement of one output: a [`VerdictKind`], the case it
/// concerns (if any) and the [`Reason`].
///
/// A checker's verdict, in testlib's four kinds; a judge's verdict on a
/// whole run of a program (AC, TLE, MLE …) is `judging::Verdict`, which
/// builds on this one.
///
/// `Display` gives the one-line message: `ok 30 cases`,
/// `wrong answer case 3: …`, `wrong output format case 2: …` or `FAIL …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerVerdict {
    case: Option<usize>,
    reason: Reason,
}

impl CheckerVerdict {
    /// A verdict about case `case` (1-based), or about the whole output.
    pub fn new(case: Option<usize>, reason: Reason) -> CheckerVerdict {
        CheckerVerdict { case, reason }
    }

    /// The kind of verdict.
    pub fn kind(&self) -> VerdictKind {
        self.reason.kind()
    }

    /// Whether every case is right.
    pub fn is_ok(&self) -> bool {
        self.kind() == VerdictKind::Ok
    }

    /// The case (1-based) the verdict is about, if it is about one.
    pub fn case(&self) -> Option<usize> {
        self.case
    }

    /// Why.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }
}

impl fmt::Display for CheckerVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.kind() {
            VerdictKind::Ok => return write!(f, "ok {}", self.reason),
            VerdictKind::WrongAnswer => "wrong answer",
            VerdictKind::WrongFormat => "wrong output format",
            VerdictKind::Fail => "FAIL",
        };
        match self.case {
            Some(case) => write!(f, "{label} case {case}: {}", self.reason),
            None => write!(f, "{label}: {}", self.reason),
        }
    }
}

/// The boards of a judge input with their true answers, ready to judge
/// outputs.
#[derive(Clone, Debug)]
pub struct Checker {
    boards: Vec<Board>,
    truth: Truth,
}

/// The true answers, one per board.
#[derive(Clone, Debug)]
enum Truth {
    /// Computed by [`PdbSolver`], packed: 8 bytes a case instead of a
    /// 48-byte [`Solution`], unpacked when a case is judged, or all at once
    /// if [`Checker::answers`] is asked for them.
    Computed {
        packed: Vec<PackedSolution>,
        unpacked: OnceLock<Vec<Solution>>,
    },
    /// Given by the caller ([`Checker::with_answers`]).
    Given(Vec<Solution>),
}

impl Truth {
    /// The true moves of case `index` (0-based).
    #[inline]
    fn moves(&self, index: usize) -> MoveSequence {
        match self {
            Truth::Computed { packed, .. } => packed[index].moves(),
            Truth::Given(solutions) => solutions[index].moves,
        }
    }
}

impl Checker {
    /// A checker for `boards`, whose answers it computes with
    /// [`PdbSolver`].
    pub fn new(boards: &[Board]) -> Checker {
        Checker::of_boards(boards.to_vec())
    }

    /// [`Checker::new`], taking the boards.
    fn of_boards(boards: Vec<Board>) -> Checker {
        let solver = PdbSolver::default();
        let packed = boards
            .iter()
            .map(|board| solver.solve_packed(board))
            .collect();
        Checker {
            boards,
            truth: Truth::Computed {
                packed,
                unpacked: OnceLock::new(),
            },
        }
    }

    /// A checker for `boards` whose true answers are `answers`, one per
    /// board, computed by the caller.
    ///
    /// The checker trusts them: a wrong answer here makes it judge wrongly
    /// (an output shorter than a planted answer is a
    /// [`Reason::ShorterThanOptimal`] failure).
    ///
    /// # Panics
    ///
    /// When `answers` and `boards` differ in length.
    pub fn with_answers(boards: &[Board], answers: &[Solution]) -> Checker {
        assert_eq!(boards.len(), answers.len(), "one answer per board");
        Checker {
            boards: boards.to_vec(),
            truth: Truth::Given(answers.to_vec()),
        }
    }

    /// A checker for the boards of a judge input, read leniently (as
    /// [`CaseReader`] reads it).
    ///
    /// # Errors
    ///
    /// A [`VerdictKind::Fail`] verdict naming the first bad case.
    pub fn from_judge_input<R: Read>(input: R) -> Result<Checker, CheckerVerdict> {
        let mut cases = CaseReader::new(input);
        let mut boards = Vec::new();
        loop {
            if cases.read_canonical_run(&mut boards, usize::MAX) > 0 {
                continue;
            }
            match cases.next() {
                None => return Ok(Checker::of_boards(boards)),
                Some(Ok(board)) => boards.push(board),
                Some(Err(error)) => {
                    return Err(CheckerVerdict::new(
                        None,
                        Reason::BadJudgeInput {
                            message: error.to_string(),
                        },
                    ));
                }
            }
        }
    }

    /// The boards.
    pub fn boards(&self) -> &[Board] {
        &self.boards
    }

    /// The true answers, one per board.
    pub fn answers(&self) -> &[Solution] {
        match &self.truth {
            Truth::Computed { packed, unpacked } => {
                unpacked.get_or_init(|| packed.iter().map(|answer| answer.solution()).collect())
            }
            Truth::Given(solutions) => solutions,
        }
    }

    /// Judges `output`; see the [module docs](self).
    pub fn check<R: Read>(&self, output: R, options: &CheckOptions) -> CheckerVerdict {
        let mut reader = LineReader::new(output, options.output_limit);
        let verdict = self
            .judge_lines(&mut reader, options)
            .and_then(|verdict| reader.drain().map(|()| verdict));
        match verdict {
            Ok(verdict) => verdict,
            Err(Stop::LimitExceeded) => CheckerVerdict::new(
                None,
                Reason::OutputLimitExceeded {
                    limit: options.output_limit,
                },
            ),
            Err(Stop::Io(error)) => CheckerVerdict::new(
                None,
                Reason::Unreadable {
                    message: error.to_string(),
                },
            ),
        }
    }

    /// Judges the jury's `answer` (leniently, with `options`' output limit),
    /// then `output`: a wrong jury answer is a [`VerdictKind::Fail`] verdict
    /// whatever the output holds.
    pub fn check_with_answer<R: Read, A: Read>(
        &self,
        output: R,
        answer: Option<A>,
        options: &CheckOptions,
    ) -> CheckerVerdict {
        if let Some(answer) = answer {
            let lenient = CheckOptions {
                strict_whitespace: false,
                ..*options
            };
            let verdict = self.check(answer, &lenient);
            if !verdict.is_ok() {
                return CheckerVerdict::new(
                    verdict.case,
                    Reason::WrongJuryAnswer(Box::new(verdict.reason)),
                );
            }
        }
        self.check(output, options)
    }

    /// Reads every case and what follows; the first problem met is the
    /// verdict.
    fn judge_lines<R: Read>(
        &self,
        reader: &mut LineReader<R>,
        options: &CheckOptions,
    ) -> Result<CheckerVerdict, Stop> {
        let strict = options.strict_whitespace;
        let (mut moves_line, mut digit_line) = (Line::default(), Line::default());
        for (index, board) in self.boards.iter().enumerate() {
            let case = index + 1;
            let fault = |reason| Ok(CheckerVerdict::new(Some(case), reason));
            let line = reader.next_line_number();
            if !reader.read_line(&mut moves_line, Some(*board))? {
                return fault(Reason::MissingMovesLine { line });
            }
            if let Some(reason) = whitespace_fault(&moves_line, strict) {
                return fault(reason);
            }
            let moves = match read_moves(&moves_line, board) {
                Ok(moves) => moves,
                Err(reason) => return fault(reason),
            };
            let line = reader.next_line_number();
            if !reader.read_line(&mut digit_line, None)? {
                return fault(Reason::MissingDigitLine { line });
            }
            if let Some(reason) = whitespace_fault(&digit_line, strict) {
                return fault(reason);
            }
            let digit = match read_digit(&digit_line) {
                Ok(digit) => digit,
                Err(reason) => return fault(reason),
            };
            let truth = self.truth.moves(index);
            if let Some(reason) = judge_case(&truth, &moves_line, &moves, digit) {
                return fault(reason);
            }
        }
        let mut line = digit_line;
        while reader.read_line(&mut line, None)? {
            if line.core_length() > 0 {
                let found = line.quote_core();
                let line = line.number;
                return Ok(CheckerVerdict::new(
                    None,
                    Reason::ExtraOutput { line, found },
                ));
            }
            if strict {
                let line = line.number;
                return Ok(CheckerVerdict::new(
                    None,
                    Reason::BlankLineAfterLastCase { line },
                ));
            }
        }
        Ok(CheckerVerdict::new(
            None,
            Reason::Accepted {
                cases: self.boards.len(),
            },
        ))
    }
}

/// Judges `output` for `boards` in one call: [`Checker::new`] then
/// [`Checker::check`].
pub fn check<R: Read>(boards: &[Board], output: R, options: &CheckOptions) -> CheckerVerdict {
    Checker::new(boards).check(output, options)
}

/// In strict mode, what is wrong with a line's whitespace.
fn whitespace_fault(line: &Line, strict: bool) -> Option<Reason> {
    let number = line.number;
    if !strict {
        None
    } else if line.ends_with_cr && line.has_newline {
        Some(Reason::CrlfLineEnd { line: number })
    } else if line.has_trailing_blanks() {
        Some(Reason::TrailingWhitespace { line: number })
    } else if !line.has_newline {
        Some(Reason::MissingFinalNewline { line: number })
    } else {
        None
    }
}

/// The moves a case's first line gives, as far as they matter.
struct CaseMoves {
    /// How many moves.
    count: u64,
    /// The sequence, when it is short enough to be optimal.
    sequence: Option<MoveSequence>,
    /// The board after the moves.
    end: Board,
    /// Whether the line is `No moves needed`.
    none_needed: bool,
}

/// Reads a moves line for `board`, or says why it is not one.
fn read_moves(line: &Line, board: &Board) -> Result<CaseMoves, Reason> {
    if line.core_head() == NO_MOVES_NEEDED.as_bytes() {
        return Ok(CaseMoves {
            count: 0,
            sequence: Some(MoveSequence::new()),
            end: *board,
            none_needed: true,
        });
    }
    let number = line.number;
    if line.core_length() == 0 {
        return Err(Reason::EmptyMovesLine { line: number });
    }
    if !line.letters_only || line.has_inner_blank {
        return Err(Reason::BadMovesLine {
            line: number,
            found: line.quote_core(),
        });
    }
    let sequence = if line.letters <= MAX_SEQUENCE_LENGTH as u64 {
        MoveSequence::from_letters(line.core_head())
    } else {
        None
    };
    Ok(CaseMoves {
        count: line.letters,
        sequence,
        end: line.replayed.unwrap_or(*board),
        none_needed: false,
    })
}

/// Reads a digit line, or says why it is not one.
fn read_digit(line: &Line) -> Result<Digit, Reason> {
    match line.core_head() {
        [byte] if line.core_length() == 1 => {
            if let Some(digit) = byte.checked_sub(b'0').and_then(Digit::new) {
                return Ok(digit);
            }
        }
        _ => {}
    }
    Err(Reason::BadDigitLine {
        line: line.number,
        found: line.quote_core(),
    })
}

/// What is wrong with a well-formed case's answer, its `moves` read from
/// `moves_line`, if anything; `truth` is the case's true answer.
fn judge_case(
    truth: &MoveSequence,
    moves_line: &Line,
    moves: &CaseMoves,
    digit: Digit,
) -> Option<Reason> {
    let optimal = truth.len();
    let Some(centre) = moves.end.uniform_centre() else {
        return Some(if moves.none_needed {
            Reason::NoMovesButMixed { optimal }
        } else {
            Reason::CentreMixed {
                found: moves_line.quote_core(),
                optimal,
            }
        });
    };
    if centre != digit {
        return Some(Reason::WrongCentre {
            expected: centre,
            found: digit,
        });
    }
    if moves.count > optimal as u64 {
        return Some(Reason::TooLong {
            found: moves.count,
            optimal,
        });
    }
    if moves.count < optimal as u64 {
        return Some(Reason::ShorterThanOptimal {
            found: moves.count,
            optimal,
        });
    }
    match moves.sequence {
        Some(found) if found != *truth => Some(Reason::NotSmallest {
            expected: *truth,
            found,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::{FIRST_BOARD_COMPACT, SECOND_BOARD_COMPACT};

    fn sample() -> Checker {
        let boards = [
            FIRST_BOARD_COMPACT.parse().unwrap(),
            SECOND_BOARD_COMPACT.parse().unwrap(),
        ];
        Checker::new(&boards)
    }

    fn verdict(output: &str) -> CheckerVerdict {
        sample().check(output.as_bytes(), &CheckOptions::default())
    }

    #[test]
    fn accepts_the_sample_answer() {
        assert_eq!(verdict("AC\n2\nDDHH\n2\n").to_string(), "ok 2 cases");
    }

    #[test]
    fn a_failing_case_is_named() {
        let found = verdict("AC\n2\nDDHH\n3\n");
        assert_eq!(found.case(), Some(2));
        assert_eq!(
            found.reason(),
            &Reason::WrongCentre {
                expected: Digit::new(2).unwrap(),
                found: Digit::new(3).unwrap()
            }
        );
    }

    /// A checker knows its boards and their true answers, whether it
    /// computed them, read the boards from a judge input or was given them.
    #[test]
    fn boards_and_answers_are_what_it_judges_by() {
        let checker = sample();
        let boards = checker.boards().to_vec();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[0].to_string(), crate::sample::FIRST_BOARD);
        let answers: Vec<String> = checker
            .answers()
            .iter()
            .map(|answer| format!("{} {}", answer.moves, answer.centre.value()))
            .collect();
        assert_eq!(answers, ["AC 2", "DDHH 2"]);
        let read = Checker::from_judge_input(crate::sample::INPUT.as_bytes()).unwrap();
        assert_eq!(read.boards(), &boards[..]);
        let given = Checker::with_answers(&boards, checker.answers());
        assert_eq!(given.answers(), checker.answers());
    }

    /// The jury's answer is read leniently even when the output is judged
    /// strictly: its trailing blanks are no fault of the contestant's.
    #[test]
    fn the_jury_answer_is_read_leniently_under_strict_whitespace() {
        let strict = CheckOptions {
            strict_whitespace: true,
            ..CheckOptions::default()
        };
        let answer = "AC  \r\n2\nDDHH\n2 \n";
        let found = sample().check_with_answer(
            "AC\n2\nDDHH\n2\n".as_bytes(),
            Some(answer.as_bytes()),
            &strict,
        );
        assert!(found.is_ok(), "{found}");
        let found = sample().check(answer.as_bytes(), &strict);
        assert_eq!(found.kind(), VerdictKind::WrongFormat, "{found}");
    }

    #[test]
    fn the_digit_line_must_be_one_digit() {
        for bad in ["0", "4", "22", "+2", "2.0", ""] {
            let found = verdict(&format!("AC\n{bad}\nDDHH\n2\n"));
            assert_eq!(found.kind(), VerdictKind::WrongFormat, "{bad:?}");
        }
    }
}
