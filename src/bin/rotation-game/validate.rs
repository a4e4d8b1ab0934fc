//! `rotation-game validate`: the strict validator for test files.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rotation_game::exit_codes::ExitCodes;
use rotation_game::validator::{self, Rule, ValidateOptions};
use serde::Serialize;

use crate::exit;
use crate::input;
use crate::output_args::{self, VerdictOutputArgs};

/// Validate a test file strictly: one case per line, 24 values 1-3
/// separated by single spaces, each digit exactly eight times, LF line
/// ends, a final "0" line, then the end of the file.
///
/// Valid: "ok N cases" on standard error and exit 0 (42 with --kattis).
/// Invalid: "FILE:LINE:COLUMN: reason" on standard error and exit 3 (43 with
/// --kattis). An INPUT that cannot be opened exits 66.
///
/// Examples:
///     rotation-game validate data/secret/01.in
///     rotation-game gen --seed 1 --boards 30 | rotation-game validate --max-cases 30
///     rotation-game validate --json tests.in
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct ValidateArgs {
    /// The test file; standard input when absent or "-".
    input: Option<PathBuf>,

    /// The most cases allowed (the classic statement allows 30).
    #[arg(long, value_name = "N")]
    max_cases: Option<usize>,

    /// Use the Kattis convention: exit 42 when valid, 43 when invalid.
    #[arg(long)]
    kattis: bool,

    /// --json[=FILE] (input, valid, cases, error) and --quiet.
    #[command(flatten)]
    output: VerdictOutputArgs,
}

/// The JSON form of the verdict (docs/json.md).
#[derive(Serialize)]
struct ValidateJson<'a> {
    input: &'a str,
    valid: bool,
    cases: Option<usize>,
    error: Option<ErrorJson>,
}

/// Where the file breaks a rule, and which.
#[derive(Serialize)]
struct ErrorJson {
    line: u64,
    column: u64,
    message: String,
}

pub fn run(args: ValidateArgs) -> ExitCode {
    let output = args.output.output();
    let name = match args.input.as_deref() {
        Some(path) if path.as_os_str() != "-" => path.display().to_string(),
        _ => String::from("<stdin>"),
    };
    let reader = match input::open(args.input.as_deref()) {
        Ok(reader) => reader,
        Err((path, error)) => {
            return output_args::fail(
                format!("cannot open {}: {error}", path.display()),
                exit::NO_INPUT,
            );
        }
    };
    let options = ValidateOptions {
        max_cases: args.max_cases,
    };
    let convention = if args.kattis {
        ExitCodes::Kattis
    } else {
        ExitCodes::Testlib
    };
    let mut json = ValidateJson {
        input: &name,
        valid: true,
        cases: None,
        error: None,
    };
    let said = match validator::validate_each(reader, &options, &mut |_| {}) {
        Ok(cases) => {
            json.cases = Some(cases);
            format!("ok {cases} case{}", if cases == 1 { "" } else { "s" })
        }
        Err(error) => {
            let message = match error.rule() {
                // The command line names the limit by its flag.
                Rule::TooManyCases { max_cases } => format!(
                    "more than {max_cases} case{} (--max-cases {max_cases})",
                    if *max_cases == 1 { "" } else { "s" }
                ),
                rule => rule.to_string(),
            };
            let said = format!("{name}:{}:{}: {message}", error.line(), error.column());
            json.valid = false;
            json.error = Some(ErrorJson {
                line: error.line(),
                column: error.column(),
                message,
            });
            said
        }
    };
    // The verdict is a line on standard error, not a report on standard
    // output, so it is said unless --quiet, even beside JSON on stdout.
    if !output.quiet {
        eprintln!("{said}");
    }
    match output.write_verdict(&json) {
        Ok(()) => ExitCode::from(convention.validator_exit_code(json.valid)),
        Err(status) => status,
    }
}
