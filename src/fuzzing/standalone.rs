//! The `standalone_validator` and `standalone_checker` targets: the problem
//! package's own input validator and output validator (standalone C++
//! programs, `input_validators/validate.cpp` and
//! `output_validators/check.cpp`) run on the fuzzer's bytes, their verdicts
//! held to the crate's.
//!
//! # Finding the programs
//!
//! Each is built once per process, from the source the crate embeds
//! ([`INPUT_VALIDATOR`], [`OUTPUT_VALIDATOR`]): first looked for as
//! `standalone/<name>` beside the running executable (where ClusterFuzzLite's
//! `build.sh` puts them, for runners without a compiler); else in a cache
//! folder named after a hash of the source and the build command, `<hash>/`,
//! built there with problemtools' command ([`Language::build_command`]) on
//! first use, so that later processes and fuzzing jobs reuse it. A changed
//! source gets a new folder.
//!
//! The cache is the user's own, `rotation-game-standalone-<uid>/` in the
//! system's temporary folder, made readable and writable by its owner only,
//! and refused unless it is a real folder of this user that no one else may
//! write to: the programs built there are run, so another local user must
//! not be able to make the folder first and plant one.
//!
//! # Slow
//!
//! Every input starts a process (two for the checker: lenient and strict),
//! and the checker builds its table of distances each time, so these
//! targets run few inputs a second (the measured rates: docs/performance.md,
//! "Fuzzing campaign"): [`Target::runs_programs`](super::Target::runs_programs)
//! says so.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::check::{CHECK_INPUT, check_expected_output};
use super::verdicts::{checker_exit_code, validator_exit_code};
use crate::checker::{CheckOptions, Checker, VerdictKind};
use crate::exit_codes::ExitCodes;
use crate::package::{DEFAULT_MAX_CASES, INPUT_VALIDATOR, OUTPUT_VALIDATOR, SourceProgram};
use crate::runner::{self, Limits, Run, Runner, RunnerOptions, SandboxMode, Termination};
use crate::validator::{ValidateOptions, validate};

/// FNV-1a, 64 bits: a hash that is the same on every machine and build,
/// for naming the cache folder.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in *part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // Parts are separated, so that moving a byte between them counts.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The user's own cache folder (see the [module docs](self)).
///
/// # Panics
///
/// When it cannot be made, or is not a folder of this user's that only it
/// may read and write (a link, or a folder another user made first).
fn private_cache() -> PathBuf {
    runner::private_folder("rotation-game-standalone").unwrap_or_else(|error| {
        panic!("{error}: remove it, or build the programs beside the executable")
    })
}

/// The program's name without its extension: `validate`, `check`.
fn stem(program: &SourceProgram) -> &'static str {
    program
        .file_name
        .rsplit_once('.')
        .map_or(program.file_name, |(stem, _)| stem)
}

/// The built executable of `program`: beside the running executable, or
/// in the cache, built there when missing (see the [module docs](self)).
///
/// # Panics
///
/// When it is not found and cannot be built (no compiler, say), with the
/// compiler's messages.
fn executable(program: &SourceProgram) -> PathBuf {
    let beside = std::env::current_exe().ok().and_then(|exe| {
        exe.parent()
            .map(|dir| dir.join("standalone").join(stem(program)))
    });
    if let Some(beside) = beside.filter(|path| path.is_file()) {
        return beside;
    }
    let probe = program
        .language
        .build_command(Path::new("SOURCE"), Path::new("BINARY"));
    let command: Vec<&[u8]> = probe.iter().map(|word| word.as_encoded_bytes()).collect();
    let mut parts = vec![program.source.as_bytes()];
    parts.extend(command);
    let dir = private_cache().join(format!("{:016x}", fnv1a(&parts)));
    let binary = dir.join(stem(program));
    if binary.is_file() {
        return binary;
    }
    fs::create_dir_all(&dir)
        .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
    // Built under names of this process's own, then renamed into place, so
    // that processes building at once never see half a file.
    let id = std::process::id();
    let source = dir.join(format!(
        "{}.{id}.{}",
        stem(program),
        program.language.extension()
    ));
    let partial = dir.join(format!("{}.{id}.partial", stem(program)));
    fs::write(&source, program.source)
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", source.display()));
    let command = program.language.build_command(&source, &partial);
    let output = std::process::Command::new(&command[0])
        .args(&command[1..])
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "cannot run {} to build the package's {}: {error}",
                command[0].to_string_lossy(),
                program.file_name
            )
        });
    assert!(
        output.status.success(),
        "{} does not build:\n{}",
        program.file_name,
        String::from_utf8_lossy(&output.stderr)
    );
    fs::rename(&partial, &binary)
        .unwrap_or_else(|error| panic!("cannot move {} into place: {error}", binary.display()));
    let _ = fs::remove_file(&source);
    binary
}

/// A runner for `path` with `args`, unsandboxed (the package's programs
/// are ours), with limits far above what they need: reaching one is a
/// failure of the target.
fn runner(path: PathBuf, args: Vec<String>) -> Runner {
    let program = runner::Program::Direct { path, args };
    let options = RunnerOptions {
        limits: Limits {
            cpu_time: Duration::from_secs(10),
            wall_time: Duration::from_secs(60),
            ..Limits::DEFAULT
        },
        sandbox: SandboxMode::Off,
        cgroups: false,
        ..RunnerOptions::default()
    };
    Runner::new(program, &options).expect("an unsandboxed runner needs nothing")
}

/// The exit status of a run that must have exited.
///
/// # Panics
///
/// When the run ended otherwise.
fn exit_status(run: &Run, what: &str) -> u8 {
    match run.termination {
        Termination::Exited(code) => u8::try_from(code).unwrap_or(u8::MAX),
        ref other => panic!(
            "the standalone {what} did not exit: {other:?}; stderr: {}",
            String::from_utf8_lossy(&run.stderr)
        ),
    }
}

/// The input validator, built, and a runner for it.
fn validator() -> &'static Runner {
    static RUNNER: OnceLock<Runner> = OnceLock::new();
    RUNNER.get_or_init(|| runner(executable(&INPUT_VALIDATOR), Vec::new()))
}

/// Runs the package's input validator (which allows
/// [`DEFAULT_MAX_CASES`] cases) on `data` as a test file and compares it
/// with the crate's strict validator.
///
/// - It exits as [`validator_exit_code`] says under the Kattis convention:
///   42 exactly when [`validate`] accepts the file, 43 otherwise.
/// - When it accepts, it names the same number of cases; when it rejects,
///   the same line and column.
///
/// # Panics
///
/// When they disagree, or the validator cannot be built or run.
pub fn standalone_validator(data: &[u8]) {
    let options = ValidateOptions {
        max_cases: Some(DEFAULT_MAX_CASES),
    };
    let run = validator()
        .run(data)
        .expect("the standalone validator runs");
    let status = exit_status(&run, "validator");
    let expected = validator_exit_code(data, &options, ExitCodes::Kattis);
    let said = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(
        status, expected,
        "the standalone validator exits {status}, the crate's verdict is {expected}: {said:?}"
    );
    match validate(data, &options) {
        Ok(boards) => {
            let cases = said
                .strip_prefix("ok ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|count| count.parse::<usize>().ok());
            assert_eq!(cases, Some(boards.len()), "{said:?}");
        }
        Err(error) => {
            let position = said.strip_prefix("line ").and_then(|rest| {
                let (line, rest) = rest.split_once(", column ")?;
                let (column, _) = rest.split_once(':')?;
                Some((line.parse::<u64>().ok()?, column.parse::<u64>().ok()?))
            });
            assert_eq!(
                position,
                Some((error.line(), error.column())),
                "the crate says {error}; the standalone validator {said:?}"
            );
        }
    }
}

/// The runners of the standalone checker, leniently and with strict
/// whitespace, on [`CHECK_INPUT`] with the right answer as the jury's: both
/// files in the cache folder beside the built checker, written once (their
/// contents never change). The feedback folder is the run's own work
/// folder (`.`); the verdict is read from standard error, where the checker
/// writes it too.
struct CheckerRunners {
    lenient: Runner,
    strict: Runner,
}

/// Writes `contents` to `path` unless it holds them already, through a file
/// of this process's own renamed into place.
fn write_once(path: &Path, contents: &[u8]) {
    if fs::read(path).is_ok_and(|held| held == contents) {
        return;
    }
    let partial = path.with_extension(format!("{}.partial", std::process::id()));
    fs::write(&partial, contents)
        .and_then(|()| fs::rename(&partial, path))
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
}

fn checker() -> &'static CheckerRunners {
    static RUNNERS: OnceLock<CheckerRunners> = OnceLock::new();
    RUNNERS.get_or_init(|| {
        let binary = executable(&OUTPUT_VALIDATOR);
        let dir = private_cache().join("inputs");
        fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot make {}: {error}", dir.display()));
        let input = dir.join("check.in");
        let answer = dir.join(format!(
            "check-{:016x}.ans",
            fnv1a(&[check_expected_output()])
        ));
        write_once(&input, CHECK_INPUT.as_bytes());
        write_once(&answer, check_expected_output());
        let mut args: Vec<String> = [&input, &answer]
            .iter()
            .map(|path| path.to_string_lossy().into_owned())
            .collect();
        args.push(".".to_owned());
        let mut strict = args.clone();
        strict.push("space_change_sensitive".to_owned());
        CheckerRunners {
            lenient: runner(binary.clone(), args),
            strict: runner(binary, strict),
        }
    })
}

/// What the standalone checker's feedback says: its verdict kind and case.
fn standalone_judgement(status: u8, message: &str) -> (VerdictKind, Option<usize>) {
    let kind = match status {
        42 => VerdictKind::Ok,
        3 => VerdictKind::Fail,
        43 if message.starts_with("wrong output format") => VerdictKind::WrongFormat,
        43 => VerdictKind::WrongAnswer,
        other => panic!("the standalone checker exits {other}: {message:?}"),
    };
    let case = message
        .split_once(" case ")
        .and_then(|(_, rest)| rest.split(':').next())
        .and_then(|number| number.parse().ok());
    (kind, case)
}

/// Runs the package's output validator on `data` as a contestant's output
/// for [`CHECK_INPUT`] (the jury's answer the right one), leniently and
/// with `space_change_sensitive`, and compares it with the crate's checker.
///
/// - It exits as [`checker_exit_code`] says under the Kattis convention
///   (42 right, 43 wrong, 3 a judging failure).
/// - Its feedback names the same kind of verdict (wrong answer or wrong
///   output format) and the same case.
///
/// # Panics
///
/// When they disagree, or the checker cannot be built or run.
pub fn standalone_checker(data: &[u8]) {
    let runners = checker();
    let boards =
        Checker::from_judge_input(CHECK_INPUT.as_bytes()).expect("the fixed input is valid");
    let answer = check_expected_output();
    for (strict, runner) in [(false, &runners.lenient), (true, &runners.strict)] {
        let options = CheckOptions {
            strict_whitespace: strict,
            ..CheckOptions::default()
        };
        let run = runner.run(data).expect("the standalone checker runs");
        let status = exit_status(&run, "checker");
        let message = String::from_utf8_lossy(&run.stderr).trim_end().to_owned();
        let expected = checker_exit_code(
            CHECK_INPUT.as_bytes(),
            data,
            Some(answer),
            &options,
            ExitCodes::Kattis,
        );
        assert_eq!(
            status, expected,
            "strict {strict}: the standalone checker exits {status} ({message:?}), the crate's verdict is {expected}"
        );
        let verdict = boards.check_with_answer(data, Some(answer), &options);
        assert_eq!(
            standalone_judgement(status, &message),
            (verdict.kind(), verdict.case()),
            "strict {strict}: the crate says {verdict}; the standalone checker {message:?}"
        );
    }
}
