//! `rotation-game check`: judges a contestant's output, in the testlib or the
//! Kattis/DOMjudge convention.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use rotation_game::checker::{
    CheckOptions, Checker, CheckerVerdict, DEFAULT_OUTPUT_LIMIT, Reason, VerdictKind,
};
use rotation_game::exit_codes::ExitCodes;
use serde::Serialize;

use crate::exit;
use crate::output_args::{self, OutputArgs, VerdictOutputArgs};

/// Judge a contestant's output against the exact answers, which the checker
/// computes itself.
///
/// testlib convention (default):
///     rotation-game check INPUT OUTPUT [ANSWER]
/// The verdict goes to standard error as one line; exit 0 OK, 1 wrong
/// answer, 2 wrong output format, 3 FAIL (bad judge input, a wrong jury
/// ANSWER, an unreadable file).
///
/// Kattis/DOMjudge convention:
///     rotation-game check --kattis INPUT ANSWER FEEDBACK_DIR < OUTPUT
/// The verdict goes to FEEDBACK_DIR/judgemessage.txt; exit 42 accepted,
/// 43 wrong answer (or format), 3 FAIL. Further arguments from the judge
/// system are accepted; "space_change_sensitive" turns on --strict.
///
/// Per case the output holds a line of moves (letters A-H, or exactly
/// "No moves needed") and a line with the centre digit. Trailing spaces,
/// CRLF line ends, a missing final newline and blank lines after the last
/// case are accepted unless --strict. An output longer than
/// --output-limit is a wrong answer, decided without reading it all.
///
/// Examples:
///     rotation-game solve tests.in > tests.ans
///     ./my-solution < tests.in > out.txt
///     rotation-game check tests.in out.txt tests.ans
///     rotation-game check --json tests.in out.txt
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct CheckArgs {
    /// The judge input (24 values per case, final 0).
    input: PathBuf,

    /// testlib: the contestant's OUTPUT. Kattis: the jury's ANSWER.
    #[arg(value_name = "OUTPUT|ANSWER")]
    second: PathBuf,

    /// testlib: the jury's ANSWER, checked too when given. Kattis: the
    /// FEEDBACK_DIR.
    #[arg(value_name = "ANSWER|FEEDBACK_DIR")]
    third: Option<PathBuf>,

    /// Further arguments a Kattis-style judge system passes.
    #[arg(hide = true)]
    judge_flags: Vec<String>,

    /// Use the Kattis/DOMjudge convention: the output on standard input,
    /// exit 42/43, the message in FEEDBACK_DIR/judgemessage.txt.
    #[arg(long)]
    kattis: bool,

    /// Make trailing whitespace, CRLF line ends, a missing final newline
    /// and blank lines after the last case wrong output formats.
    #[arg(long)]
    strict: bool,

    /// The most bytes the output may hold.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_OUTPUT_LIMIT)]
    output_limit: u64,

    /// --json[=FILE] (verdict, case, message) and --quiet.
    #[command(flatten)]
    output: VerdictOutputArgs,
}

/// The JSON form of the verdict (docs/json.md).
#[derive(Serialize)]
struct CheckJson {
    verdict: &'static str,
    case: Option<usize>,
    message: String,
}

/// A verdict's code, as `stress` and `judge` write verdicts.
fn code(kind: VerdictKind) -> &'static str {
    match kind {
        VerdictKind::Ok => "AC",
        VerdictKind::WrongAnswer => "WA",
        VerdictKind::WrongFormat => "PE",
        VerdictKind::Fail => "FAIL",
    }
}

/// Says `verdict` on standard error (unless --quiet) and as JSON where
/// --json asks; the status to exit with instead of the verdict's, when the
/// JSON cannot be written.
fn report(verdict: &CheckerVerdict, output: &OutputArgs) -> Result<(), ExitCode> {
    if !output.quiet {
        eprintln!("{verdict}");
    }
    let json = CheckJson {
        verdict: code(verdict.kind()),
        case: verdict.case(),
        message: verdict.to_string(),
    };
    output.write_verdict(json)
}

/// A FAIL verdict for a file that cannot be opened.
fn unopenable(path: &Path, error: &io::Error) -> CheckerVerdict {
    CheckerVerdict::new(
        None,
        Reason::Unreadable {
            message: format!("{}: {error}", path.display()),
        },
    )
}

/// The checker for the judge input at `path`, or a FAIL verdict.
fn load_checker(path: &Path) -> Result<Checker, CheckerVerdict> {
    let input = File::open(path).map_err(|error| unopenable(path, &error))?;
    Checker::from_judge_input(input)
}

pub fn run(args: CheckArgs) -> ExitCode {
    let output = args.output.output();
    let options = CheckOptions {
        strict_whitespace: args.strict
            || (args.kattis
                && args
                    .judge_flags
                    .iter()
                    .any(|f| f == "space_change_sensitive")),
        output_limit: args.output_limit,
    };
    if args.kattis {
        let Some(feedback_dir) = &args.third else {
            return output_args::fail(
                "check --kattis needs INPUT ANSWER FEEDBACK_DIR",
                exit::USAGE,
            );
        };
        let verdict = load_checker(&args.input).and_then(|checker| {
            let answer = File::open(&args.second).map_err(|e| unopenable(&args.second, &e))?;
            Ok(checker.check_with_answer(io::stdin().lock(), Some(answer), &options))
        });
        let verdict = verdict.unwrap_or_else(|fail| fail);
        if let Err(status) = report(&verdict, &output) {
            return status;
        }
        let message = feedback_dir.join("judgemessage.txt");
        if let Err(error) = fs::write(&message, format!("{verdict}\n")) {
            return output_args::fail(
                format!("cannot write {}: {error}", message.display()),
                exit::IO_ERROR,
            );
        }
        return ExitCode::from(ExitCodes::Kattis.checker_exit_code(verdict.kind()));
    }
    if !args.judge_flags.is_empty() {
        return output_args::fail(
            "check takes INPUT OUTPUT [ANSWER] (more only with --kattis)",
            exit::USAGE,
        );
    }
    let verdict = load_checker(&args.input).and_then(|checker| {
        let output = File::open(&args.second).map_err(|e| unopenable(&args.second, &e))?;
        let answer = match &args.third {
            Some(path) => Some(File::open(path).map_err(|e| unopenable(path, &e))?),
            None => None,
        };
        Ok(checker.check_with_answer(output, answer, &options))
    });
    let verdict = verdict.unwrap_or_else(|fail| fail);
    if let Err(status) = report(&verdict, &output) {
        return status;
    }
    ExitCode::from(ExitCodes::Testlib.checker_exit_code(verdict.kind()))
}
