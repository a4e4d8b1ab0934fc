//! `rotation-game validate`: the strict validator for test files.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rotation_game::exit_codes::ExitCodes;
use rotation_game::validator::{self, Rule, ValidateOptions};

use crate::exit;
use crate::input;

/// Validate a test file strictly: one case per line, 24 values 1-3
/// separated by single spaces, each digit exactly eight times, LF line
/// ends, a final "0" line, then the end of the file.
///
/// Valid: "ok N cases" on standard error and exit 0 (42 with --kattis).
/// Invalid: "FILE:LINE:COLUMN: reason" on standard error and exit 3 (43 with
/// --kattis). An INPUT that cannot be opened exits 66.
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
}

pub fn run(args: ValidateArgs) -> ExitCode {
    let name = match args.input.as_deref() {
        Some(path) if path.as_os_str() != "-" => path.display().to_string(),
        _ => String::from("<stdin>"),
    };
    let reader = match input::open(args.input.as_deref()) {
        Ok(reader) => reader,
        Err((path, error)) => {
            eprintln!("rotation-game: cannot open {}: {error}", path.display());
            return ExitCode::from(exit::NO_INPUT);
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
    let (valid, invalid) = (
        convention.validator_exit_code(true),
        convention.validator_exit_code(false),
    );
    match validator::validate_each(reader, &options, &mut |_| {}) {
        Ok(1) => {
            eprintln!("ok 1 case");
            ExitCode::from(valid)
        }
        Ok(cases) => {
            eprintln!("ok {cases} cases");
            ExitCode::from(valid)
        }
        Err(error) => {
            let rule = match error.rule() {
                // The command line names the limit by its flag.
                Rule::TooManyCases { max_cases } => format!(
                    "more than {max_cases} case{} (--max-cases {max_cases})",
                    if *max_cases == 1 { "" } else { "s" }
                ),
                rule => rule.to_string(),
            };
            eprintln!("{name}:{}:{}: {rule}", error.line(), error.column());
            ExitCode::from(invalid)
        }
    }
}
