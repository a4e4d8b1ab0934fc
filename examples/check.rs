//! Checking answers with the library, as a judge's checker does.
//!
//! ```text
//! cargo run --example check                     # the statement's sample, several outputs
//! cargo run --example check -- INPUT OUTPUT     # a judge input and an output, as files
//! ```
//!
//! A [`Checker`] reads the judge input and works out every case's exact
//! answer itself; it then judges outputs against them, reading each at most
//! to its output limit. With no arguments the example judges a few outputs
//! for the statement's sample; with files it judges OUTPUT for INPUT and
//! exits with the status testlib expects of a checker (0 OK, 1 wrong
//! answer, 2 wrong output format, 3 failure), printing the Kattis one too.

use std::fs::File;
use std::process::ExitCode;

use rotation_game::checker::{CheckOptions, Checker, CheckerVerdict, VerdictKind};
use rotation_game::exit_codes::ExitCodes;
use rotation_game::sample::{INPUT, OUTPUT};

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    match arguments.as_slice() {
        [] => sample(),
        [input, output] => files(input, output),
        _ => {
            eprintln!("usage: check [INPUT OUTPUT]");
            ExitCode::from(2)
        }
    }
}

/// Judges a few outputs for the statement's sample input.
fn sample() -> ExitCode {
    let checker = Checker::from_judge_input(INPUT.as_bytes()).expect("the sample is valid");
    let outputs = [
        ("the statement's output", OUTPUT.to_owned()),
        ("with CRLF line ends", OUTPUT.replace('\n', "\r\n")),
        ("a wrong digit", OUTPUT.replacen("2\n", "3\n", 1)),
        ("longer than optimal", OUTPUT.replacen("AC\n", "ACAF\n", 1)),
        ("the second case missing", "AC\n2\n".to_owned()),
        ("a word for the moves", OUTPUT.replacen("AC", "none", 1)),
    ];
    for (what, output) in outputs {
        for strict_whitespace in [false, true] {
            let options = CheckOptions {
                strict_whitespace,
                ..CheckOptions::default()
            };
            let verdict = checker.check(output.as_bytes(), &options);
            let mode = if strict_whitespace {
                "strict"
            } else {
                "lenient"
            };
            println!("{what} ({mode}): {}", described(&verdict));
        }
    }
    ExitCode::SUCCESS
}

/// Judges the file `output` for the judge input in the file `input`.
fn files(input: &str, output: &str) -> ExitCode {
    let exit = |verdict: &CheckerVerdict| {
        ExitCode::from(ExitCodes::Testlib.checker_exit_code(verdict.kind()))
    };
    // A file that cannot be read is the checker failing, not the output.
    let unreadable = |path: &str, error: std::io::Error| {
        eprintln!("cannot read {path}: {error}");
        ExitCode::from(ExitCodes::Testlib.checker_exit_code(VerdictKind::Fail))
    };
    let checker = match File::open(input) {
        Err(error) => return unreadable(input, error),
        Ok(file) => match Checker::from_judge_input(file) {
            Ok(checker) => checker,
            Err(verdict) => {
                println!("{input}: {}", described(&verdict));
                return exit(&verdict);
            }
        },
    };
    let verdict = match File::open(output) {
        Err(error) => return unreadable(output, error),
        Ok(file) => checker.check(file, &CheckOptions::default()),
    };
    println!("{}", described(&verdict));
    exit(&verdict)
}

/// The verdict's message, with the exit codes a checker gives for it.
fn described(verdict: &CheckerVerdict) -> String {
    format!(
        "{verdict} (exit code {} for testlib, {} for Kattis)",
        ExitCodes::Testlib.checker_exit_code(verdict.kind()),
        ExitCodes::Kattis.checker_exit_code(verdict.kind())
    )
}
