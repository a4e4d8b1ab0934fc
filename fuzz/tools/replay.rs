//! Runs a fuzz target's check on stored inputs, on any toolchain, and says
//! which fail and why: the check of `rotation_game::fuzzing` behind the
//! target, as `tests/library/fuzz_replay.rs` and libFuzzer run it.
//!
//! ```text
//! cargo run --features fuzzing --example fuzz_replay -- TARGET FILE_OR_FOLDER...
//! ```
//!
//! Prints one line per input, `ok FILE` or `FAIL FILE (N bytes): MESSAGE`
//! with the first line of the check's panic message (for a folder, `FAIL
//! target T fails on FILE (N bytes): MESSAGE`). Exit status 0 when
//! every input passes, 1 when one fails, 2 on bad arguments, 74 when an
//! input cannot be read. `fuzz/promote.sh` uses it for the commit line.

use std::path::PathBuf;
use std::process::ExitCode;

use rotation_game::fuzzing::replay::{replay_dir, run_check};
use rotation_game::fuzzing::{TARGETS, Target};

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let Some((name, paths)) = arguments
        .split_first()
        .filter(|(_, paths)| !paths.is_empty())
    else {
        eprintln!("usage: fuzz_replay TARGET FILE_OR_FOLDER...");
        return ExitCode::from(2);
    };
    let Some(target) = Target::find(name) else {
        let names: Vec<&str> = TARGETS.iter().map(|target| target.name).collect();
        eprintln!(
            "fuzz_replay: no target {name:?}; the targets are {}",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    // The checks' panics are reported below, one line each.
    std::panic::set_hook(Box::new(|_| {}));
    let mut failed = false;
    for path in paths.iter().map(PathBuf::from) {
        if path.is_dir() {
            match replay_dir(target, &path) {
                Ok((passed, failures)) => {
                    println!("ok {} ({passed} inputs passed)", path.display());
                    for failure in &failures {
                        println!(
                            "FAIL {} ({} bytes): {}",
                            failure.file.display(),
                            failure.bytes,
                            first_line(&failure.message)
                        );
                    }
                    failed |= !failures.is_empty();
                }
                Err(error) => {
                    eprintln!("fuzz_replay: cannot read {}: {error}", path.display());
                    return ExitCode::from(74);
                }
            }
            continue;
        }
        let data = match std::fs::read(&path) {
            Ok(data) => data,
            Err(error) => {
                eprintln!("fuzz_replay: cannot read {}: {error}", path.display());
                return ExitCode::from(74);
            }
        };
        match run_check(target, &data) {
            Ok(()) => println!("ok {}", path.display()),
            Err(message) => {
                println!(
                    "FAIL {} ({} bytes): {}",
                    path.display(),
                    data.len(),
                    first_line(&message)
                );
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The first line of a panic message (assertion messages go on with the
/// values compared).
fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}
