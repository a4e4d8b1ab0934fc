//! The programs a package holds, kept as source files beside this one
//! (`src/package/standalone/`) and embedded with `include_str!`.
//!
//! Each builds from its own file and nothing else, with the compilers and
//! flags problemtools uses ([`Language::build_command`]): C++ with `g++ -O2
//! -std=gnu++23 -static` (and with a plain `g++ -O2` too: no C++20 library
//! calls such as `std::popcount`), Rust with `rustc --edition 2021 -C opt-level=3`,
//! std only. So a package builds and verifies where `rotation-game` is not
//! installed. They share no code with the crate: a test holds the validator
//! and the checker to the crate's verdicts, and the solutions to its
//! answers.

use std::ffi::OsString;
use std::path::Path;
use std::sync::LazyLock;

use crate::package::mistake::{LINE_PAIRS_ORDER, Mistake, PairRule};
use crate::package::planted;
use crate::verdict::Verdict;

/// The language of a program, as problemtools recognises it by the file's
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Language {
    /// One `.cpp` file.
    Cpp,
    /// One `.rs` file, edition 2021, std only.
    Rust,
}

impl Language {
    /// The file extension problemtools recognises the language by.
    pub const fn extension(self) -> &'static str {
        match self {
            Language::Cpp => "cpp",
            Language::Rust => "rs",
        }
    }

    /// The command line that builds `source` into the executable `binary`:
    /// the compiler first, then its arguments, as problemtools 1.20260907
    /// builds a submission of this language (its `languages.yaml`).
    pub fn build_command(self, source: &Path, binary: &Path) -> Vec<OsString> {
        let words = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        match self {
            Language::Cpp => {
                let mut command = words(&["g++", "-g", "-O2", "-std=gnu++23", "-static", "-o"]);
                command.push(binary.into());
                command.push(source.into());
                command.extend(words(&[
                    "-lrt",
                    "-Wl,--whole-archive",
                    "-lpthread",
                    "-Wl,--no-whole-archive",
                ]));
                command
            }
            Language::Rust => {
                let mut command = words(&[
                    "rustc",
                    "-C",
                    "opt-level=3",
                    "-C",
                    "target-cpu=native",
                    "--crate-type",
                    "bin",
                    "--edition",
                    "2021",
                ]);
                command.push(source.into());
                command.push("-o".into());
                command.push(binary.into());
                command
            }
        }
    }
}

/// What a program is to the judge system: the folder of the package it
/// goes in, which is also the verdict it must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Role {
    /// `input_validators/`: exits 42 for a valid test file, 43 otherwise.
    InputValidator,
    /// `output_validators/`: exits 42 for a right output, 43 for a wrong
    /// one, 3 when the jury is wrong.
    OutputValidator,
    /// `submissions/accepted/`: right on every test file (AC).
    Accepted,
    /// `submissions/wrong_answer/`: wrong on some test file (WA).
    WrongAnswer,
    /// `submissions/time_limit_exceeded/`: right, but too slow (TLE).
    TimeLimitExceeded,
}

impl Role {
    /// The folder of the package the program goes in.
    pub const fn folder(self) -> &'static str {
        match self {
            Role::InputValidator => "input_validators",
            Role::OutputValidator => "output_validators",
            Role::Accepted => "submissions/accepted",
            Role::WrongAnswer => "submissions/wrong_answer",
            Role::TimeLimitExceeded => "submissions/time_limit_exceeded",
        }
    }

    /// The judges' short code of the verdict a submission must get; `None`
    /// for the validators.
    pub const fn expected_verdict(self) -> Option<Verdict> {
        match self {
            Role::InputValidator | Role::OutputValidator => None,
            Role::Accepted => Some(Verdict::Accepted),
            Role::WrongAnswer => Some(Verdict::WrongAnswer),
            Role::TimeLimitExceeded => Some(Verdict::TimeLimit),
        }
    }
}

/// One program of the package.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct SourceProgram {
    /// The file's name, extension included.
    pub file_name: &'static str,
    /// What it is to the judge system.
    pub role: Role,
    /// Its language.
    pub language: Language,
    /// For a planted wrong solution, the mistake it makes: the package's
    /// report says which test files catch that mistake.
    pub mistake: Option<Mistake>,
    /// The source.
    #[serde(skip)]
    pub source: &'static str,
}

impl SourceProgram {
    /// The program's path in a package.
    pub fn path(&self) -> String {
        format!("{}/{}", self.role.folder(), self.file_name)
    }
}

macro_rules! program {
    ($role:ident, $language:ident, $mistake:expr, $folder:literal, $file:literal) => {
        SourceProgram {
            file_name: $file,
            role: Role::$role,
            language: Language::$language,
            mistake: $mistake,
            source: include_str!(concat!("standalone/", $folder, "/", $file)),
        }
    };
}

/// The line of the input validator's source that sets the most cases a
/// test file may hold; [`input_validator_source`] rewrites it.
const MAX_CASES_LINE: &str = "const int MAX_CASES = 30;";

/// The source of the input validator with `max_cases` as the most cases a
/// test file may hold ([`INPUT_VALIDATOR`] allows 30).
pub fn input_validator_source(max_cases: usize) -> String {
    let source = INPUT_VALIDATOR.source;
    debug_assert_eq!(source.matches(MAX_CASES_LINE).count(), 1);
    source.replace(
        MAX_CASES_LINE,
        &format!("const int MAX_CASES = {max_cases};"),
    )
}

/// The input validator (C++), strict in the testlib sense; its limit on
/// the cases is set by [`input_validator_source`].
pub const INPUT_VALIDATOR: SourceProgram = program!(
    InputValidator,
    Cpp,
    None,
    "input_validators",
    "validate.cpp"
);

/// The output validator (C++), which works the right answers out itself.
pub const OUTPUT_VALIDATOR: SourceProgram =
    program!(OutputValidator, Cpp, None, "output_validators", "check.cpp");

/// The file name of the plain IDA*, the slowest accepted submission, which
/// sets the default time limit (and which a package with every board of 13
/// moves leaves out).
pub const PLAIN_IDA: &str = "plain_ida.cpp";

/// A planted submission: the classic solution with the patch
/// `standalone/FOLDER/NAME.patch` applied ([`planted::apply`]), shipped as
/// `NAME.cpp`.
macro_rules! planted {
    ($role:ident, $mistake:expr, $folder:literal, $name:literal) => {
        SourceProgram {
            file_name: concat!($name, ".cpp"),
            role: Role::$role,
            language: Language::Cpp,
            mistake: $mistake,
            source: planted::apply(
                CLASSIC_IDA,
                include_str!(concat!("standalone/", $folder, "/", $name, ".patch")),
            )
            .expect("a shipped patch applies to classic_ida.cpp (a test checks each)")
            .leak(),
        }
    };
}

/// The classic IDA*, the source of every planted submission.
const CLASSIC_IDA: &str = include_str!("standalone/accepted/classic_ida.cpp");

/// Every submission, accepted ones first. The planted ones are made once,
/// on first use, from `accepted/classic_ida.cpp` and their patches.
pub static SUBMISSIONS: LazyLock<[SourceProgram; 14]> = LazyLock::new(|| {
    [
        program!(Accepted, Rust, None, "accepted", "pattern_database.rs"),
        program!(Accepted, Cpp, None, "accepted", "classic_ida.cpp"),
        program!(Accepted, Cpp, None, "accepted", "plain_ida.cpp"),
        planted!(
            WrongAnswer,
            Some(Mistake::BestFirstFirstGoal),
            "wrong_answer",
            "astar_first_goal"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::DepthCappedAt12),
            "wrong_answer",
            "depth_capped_at_12"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::DigitOfStartBoard),
            "wrong_answer",
            "digit_of_start_board"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::GreedyByEstimate),
            "wrong_answer",
            "greedy_by_heuristic"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::MovesByEstimate),
            "wrong_answer",
            "heuristic_move_order"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::ForbiddenPairs(PairRule::OppositeLetter)),
            "wrong_answer",
            "inverse_is_opposite_letter"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::MoveOrder(LINE_PAIRS_ORDER)),
            "wrong_answer",
            "moves_in_line_pairs"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::NoDigitAfterNoMovesNeeded),
            "wrong_answer",
            "no_digit_after_no_moves"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::ForbiddenPairs(PairRule::SameMove)),
            "wrong_answer",
            "no_repeated_move"
        ),
        planted!(
            WrongAnswer,
            Some(Mistake::SmallerDigitOnTies),
            "wrong_answer",
            "per_digit_first_digit"
        ),
        planted!(
            TimeLimitExceeded,
            None,
            "time_limit_exceeded",
            "iterative_deepening"
        ),
    ]
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_patch_applies_and_names_its_own_mistake_in_place_of_the_classic_comment() {
        let classic_first_line = CLASSIC_IDA.lines().next().unwrap();
        let planted: Vec<&SourceProgram> = SUBMISSIONS
            .iter()
            .filter(|program| program.role != Role::Accepted)
            .collect();
        assert_eq!(planted.len(), 11);
        for program in planted {
            let first_line = program.source.lines().next().unwrap();
            assert!(
                first_line.starts_with("// The Rotation Game, a "),
                "{first_line}"
            );
            assert_ne!(first_line, classic_first_line);
            assert!(
                program.source.contains("int main() {"),
                "{}",
                program.file_name
            );
            assert_ne!(program.source, CLASSIC_IDA);
        }
    }

    #[test]
    fn each_program_s_path_is_the_folder_problemtools_reads_its_role_from() {
        // problemtools' layout: the folder names the role, and for a
        // submission the verdict it must get.
        let paths: Vec<(String, Option<Verdict>)> = [INPUT_VALIDATOR, OUTPUT_VALIDATOR]
            .iter()
            .chain(SUBMISSIONS.iter())
            .filter(|program| {
                [
                    "validate.cpp",
                    "check.cpp",
                    "classic_ida.cpp",
                    "pattern_database.rs",
                ]
                .contains(&program.file_name)
                    || program.mistake == Some(Mistake::DepthCappedAt12)
                    || program.role == Role::TimeLimitExceeded
            })
            .map(|program| (program.path(), program.role.expected_verdict()))
            .collect();
        assert_eq!(
            paths,
            [
                ("input_validators/validate.cpp".to_owned(), None),
                ("output_validators/check.cpp".to_owned(), None),
                (
                    "submissions/accepted/pattern_database.rs".to_owned(),
                    Some(Verdict::Accepted)
                ),
                (
                    "submissions/accepted/classic_ida.cpp".to_owned(),
                    Some(Verdict::Accepted)
                ),
                (
                    "submissions/wrong_answer/depth_capped_at_12.cpp".to_owned(),
                    Some(Verdict::WrongAnswer)
                ),
                (
                    "submissions/time_limit_exceeded/iterative_deepening.cpp".to_owned(),
                    Some(Verdict::TimeLimit)
                ),
            ]
        );
        for program in [INPUT_VALIDATOR, OUTPUT_VALIDATOR]
            .iter()
            .chain(SUBMISSIONS.iter())
        {
            let extension = program.language.extension();
            assert!(
                program
                    .file_name
                    .strip_suffix(extension)
                    .is_some_and(|stem| stem.ends_with('.')),
                "{} is not named .{extension}",
                program.file_name
            );
        }
    }

    #[test]
    fn the_input_validator_s_case_limit_is_the_one_asked_for() {
        let source = input_validator_source(7);
        assert!(source.contains("\nconst int MAX_CASES = 7;\n"));
        assert!(!source.contains(MAX_CASES_LINE));
        assert_eq!(input_validator_source(30), INPUT_VALIDATOR.source);
    }

    #[test]
    fn each_language_s_build_command_builds_a_program_that_runs() {
        // The commands problemtools runs, run here on a program of each
        // language that prints what it reads, summed.
        let programs = [
            (
                Language::Cpp,
                "#include <cstdio>\nint main() { int a, b; if (std::scanf(\"%d %d\", &a, &b) != 2) return 1; std::printf(\"%d\\n\", a + b); }\n",
            ),
            (
                Language::Rust,
                "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let n: i32 = s.split_whitespace().map(|w| w.parse::<i32>().unwrap()).sum(); println!(\"{n}\"); }\n",
            ),
        ];
        let dir = tempfile::tempdir().unwrap();
        for (language, text) in programs {
            let source = dir.path().join(format!("sum.{}", language.extension()));
            let binary = dir.path().join(format!("sum-{}", language.extension()));
            std::fs::write(&source, text).unwrap();
            let command = language.build_command(&source, &binary);
            let built = match std::process::Command::new(&command[0])
                .args(&command[1..])
                .output()
            {
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    // CI has both compilers; elsewhere a missing one is
                    // only a test that cannot run here.
                    assert!(std::env::var_os("CI").is_none(), "{command:?}: {error}");
                    eprintln!("skipped: {language:?}'s build needs {:?}", command[0]);
                    continue;
                }
                built => built.unwrap(),
            };
            assert!(
                built.status.success(),
                "{command:?}: {}",
                String::from_utf8_lossy(&built.stderr)
            );
            let mut run = std::process::Command::new(&binary)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            std::io::Write::write_all(&mut run.stdin.take().unwrap(), b"2 40\n").unwrap();
            let output = run.wait_with_output().unwrap();
            assert_eq!(output.stdout, b"42\n", "{language:?}");
        }
    }
}
