//! `rotation-game package DIR --calibrate`: builds the package's
//! submissions, judges them on its test files as problemtools does, and
//! works out the time limit from the real runs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rotation_game::judging::{DataFile, FolderOptions, judge_folder};
use rotation_game::package::{
    ACCEPTED_CAP_SECONDS, Calibration, FileRun, Layout, MEMORY_LIMIT_MIB, Package, Role,
    SUBMISSIONS, SlowestRun, SourceProgram, SubmissionRuns,
};
use rotation_game::runner::{
    self, Limits, MIB, Program, Runner, RunnerOptions, SandboxError, SandboxMode, WALL_PER_CPU,
};

use crate::exit;
use crate::progress;
use crate::runner_args::default_jobs;
use crate::timing::time;

/// Builds `program` into `dir` with problemtools' command for its language;
/// returns the executable, or the compiler's complaint.
fn build(program: &SourceProgram, dir: &Path) -> Result<PathBuf, String> {
    let source = dir.join(program.file_name);
    let stem = program
        .file_name
        .rsplit_once('.')
        .map_or(program.file_name, |(stem, _)| stem);
    let binary = dir.join(format!("{stem}.bin"));
    fs::write(&source, program.source).map_err(|error| error.to_string())?;
    let command = program.language.build_command(&source, &binary);
    let output = Command::new(&command[0])
        .args(&command[1..])
        .current_dir(dir)
        .output()
        .map_err(|error| format!("cannot run {}: {error}", command[0].to_string_lossy()))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed:\n{}",
            command[0].to_string_lossy(),
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    Ok(binary)
}

/// The test files of the package written to `dir`, named as the report's
/// rows name them.
fn test_files(dir: &Path, package: &Package) -> Vec<DataFile> {
    package
        .report
        .files
        .iter()
        .map(|row| DataFile {
            name: row.name.clone(),
            input: dir.join(format!("{}.in", row.path)),
            answer: dir.join(format!("{}.ans", row.path)),
        })
        .collect()
}

/// The runner of one submission: sandboxed with the test data hidden where
/// bubblewrap works (`sandboxed`), else not.
fn runner(
    binary: &Path,
    limits: Limits,
    hidden: &[PathBuf],
    sandboxed: bool,
    jobs: usize,
) -> Result<Runner, runner::RunnerError> {
    let program = Program::Direct {
        path: binary.to_owned(),
        args: Vec::new(),
    };
    let options = RunnerOptions {
        limits,
        sandbox: if sandboxed {
            SandboxMode::On
        } else {
            SandboxMode::Off
        },
        hidden: if sandboxed {
            hidden.to_vec()
        } else {
            Vec::new()
        },
        concurrent_runs: jobs,
        ..RunnerOptions::default()
    };
    Runner::new(program, &options)
}

fn limits(cpu_seconds: u32) -> Limits {
    let cpu_time = Duration::from_secs(u64::from(cpu_seconds));
    Limits {
        cpu_time,
        wall_time: cpu_time * WALL_PER_CPU,
        memory_bytes: u64::from(MEMORY_LIMIT_MIB) * MIB,
        ..Limits::DEFAULT
    }
}

/// How the submissions are run.
struct Judging<'a> {
    files: &'a [DataFile],
    hidden: &'a [PathBuf],
    sandboxed: bool,
}

impl Judging<'_> {
    /// Judges `program` (built as `binary`) on the files with `cpu_seconds`
    /// of CPU per file, stopping at its first failure when `fail_fast`,
    /// `jobs` files at once.
    fn submission(
        &self,
        program: &SourceProgram,
        binary: &Path,
        cpu_seconds: u32,
        fail_fast: bool,
        jobs: usize,
    ) -> Result<SubmissionRuns, String> {
        let runner = runner(
            binary,
            limits(cpu_seconds),
            self.hidden,
            self.sandboxed,
            jobs,
        )
        .map_err(|error| error.to_string())?;
        let options = FolderOptions {
            jobs,
            strict_whitespace: false,
            max_fail: fail_fast.then_some(1),
        };
        let bar = progress::bar(self.files.len() as u64, program.file_name);
        let judged = judge_folder(&runner, self.files, &options, &|_| bar.inc(1));
        bar.finish_and_clear();
        let report = judged.map_err(|error| error.to_string())?;
        Ok(SubmissionRuns {
            program: *program,
            runs: report
                .files
                .iter()
                .map(|record| FileRun {
                    file: record.file.clone(),
                    verdict: record.verdict,
                    cpu_seconds: record.measures.cpu_time.as_secs_f64(),
                })
                .collect(),
            limit_seconds: f64::from(cpu_seconds),
        })
    }
}

/// Says on standard error what a submission's runs showed, in one line.
fn say(runs: &SubmissionRuns) {
    eprintln!("rotation-game: {}: {}", runs.program.path(), summary(runs));
}

/// What a submission's runs showed: its first failure, or its slowest
/// run.
fn summary(runs: &SubmissionRuns) -> String {
    let failure = runs.runs.iter().find(|run| !run.verdict.is_accepted());
    match failure {
        Some(run) => format!(
            "{} on {} after {} of CPU (limit {} s)",
            run.verdict.code(),
            run.file,
            time(Duration::from_secs_f64(run.cpu_seconds)),
            runs.limit_seconds
        ),
        None => {
            let slowest = runs
                .runs
                .iter()
                .max_by(|a, b| a.cpu_seconds.total_cmp(&b.cpu_seconds));
            match slowest {
                Some(run) => format!(
                    "AC on all {} files, the slowest {} of CPU on {}",
                    runs.runs.len(),
                    time(Duration::from_secs_f64(run.cpu_seconds)),
                    run.file
                ),
                None => "no files".to_owned(),
            }
        }
    }
}

/// Builds the submissions the package holds (with `--all-hardest` it
/// leaves the plain IDA* out) into `dir`, `jobs` at once; the message and
/// exit status of the first that fails.
fn build_all(
    package: &Package,
    dir: &Path,
    jobs: usize,
) -> Result<Vec<(&'static SourceProgram, PathBuf)>, (String, u8)> {
    let started = Instant::now();
    let submissions: Vec<&'static SourceProgram> = SUBMISSIONS
        .iter()
        .filter(|program| package.files.iter().any(|file| file.path == program.path()))
        .collect();
    let bar = progress::bar(submissions.len() as u64, "submissions built");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|error| (error.to_string(), exit::OS_ERROR))?;
    let built: Vec<Result<PathBuf, String>> = pool.install(|| {
        submissions
            .par_iter()
            .map(|program| {
                let binary = build(program, dir);
                bar.inc(1);
                binary
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut binaries = Vec::new();
    for (program, binary) in submissions.into_iter().zip(built) {
        let binary =
            binary.map_err(|message| (format!("{}: {message}", program.path()), exit::OS_ERROR))?;
        binaries.push((program, binary));
    }
    eprintln!(
        "rotation-game: calibrating: built {} submissions in {:.1} s",
        binaries.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(binaries)
}

/// Whether the submissions can run in a sandbox hiding `hidden`: without
/// one, they run anyway (they are the package's own), with a warning.
///
/// # Errors
///
/// When no runner can be made at all.
fn sandbox_usable(binary: &Path, hidden: &[PathBuf]) -> Result<bool, runner::RunnerError> {
    match runner(binary, limits(1), hidden, true, 1) {
        Ok(_) => Ok(true),
        Err(runner::RunnerError::Sandbox(
            error @ (SandboxError::NotInstalled | SandboxError::Unusable(_)),
        )) => {
            eprintln!(
                "rotation-game: warning: the submissions run without a sandbox ({error}); they are the package's own"
            );
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// Calibrates the package written to `dir` (see the module docs), saying
/// what it does on standard error. `threads` runs at once (0: one per
/// core, as many as the memory holds); the slow submissions run one file at
/// a time, since each file they are still running on when they fail costs
/// the margin again.
pub fn calibrate(
    dir: &Path,
    layout: Layout,
    package: &Package,
    threads: usize,
) -> Result<Calibration, ExitCode> {
    let failed = |message: String, status: u8| {
        eprintln!("rotation-game: cannot calibrate: {message}");
        ExitCode::from(status)
    };
    // The builds' folder, made without a race under a name no one can
    // guess, removed when dropped.
    let scratch = tempfile::Builder::new()
        .prefix("rotation-game-calibrate-")
        .tempdir()
        .map_err(|error| failed(error.to_string(), exit::IO_ERROR))?;
    let jobs = if threads == 0 {
        default_jobs(&limits(ACCEPTED_CAP_SECONDS))
    } else {
        threads
    };
    let binaries = build_all(package, scratch.path(), jobs)
        .map_err(|(message, status)| failed(message, status))?;
    let hidden = match layout {
        Layout::Kattis => vec![dir.join("data")],
        Layout::Plain => vec![dir.to_owned()],
    };
    let sandboxed = sandbox_usable(&binaries[0].1, &hidden)
        .map_err(|error| failed(error.to_string(), exit::OS_ERROR))?;
    if let Err(error) = runner::interrupt::stop_runs_on_signals() {
        return Err(failed(error.to_string(), exit::OS_ERROR));
    }
    let files = test_files(dir, package);
    let judging = Judging {
        files: &files,
        hidden: &hidden,
        sandboxed,
    };
    let of_role = |role: Role| {
        binaries
            .iter()
            .filter(move |(program, _)| program.role == role)
    };
    let mut runs: Vec<SubmissionRuns> = Vec::new();
    for (program, binary) in of_role(Role::Accepted) {
        let judged = judging
            .submission(program, binary, ACCEPTED_CAP_SECONDS, false, jobs)
            .map_err(|message| failed(message, exit::IO_ERROR))?;
        say(&judged);
        runs.push(judged);
    }
    let Some(slowest) = SlowestRun::of(&runs) else {
        return Err(failed(
            "no accepted submission made a run".to_owned(),
            exit::OS_ERROR,
        ));
    };
    let limit = slowest.time_limit();
    eprintln!(
        "rotation-game: time limit {} s, from the slowest accepted run ({} on {}); too slow: over {} s",
        limit.seconds(),
        slowest.program,
        slowest.file,
        Calibration::too_slow_limit(limit)
    );
    for (role, cpu_seconds, jobs) in [
        (Role::WrongAnswer, limit.seconds(), jobs),
        (
            Role::TimeLimitExceeded,
            Calibration::too_slow_limit(limit),
            1,
        ),
    ] {
        for (program, binary) in of_role(role) {
            let judged = judging
                .submission(program, binary, cpu_seconds, true, jobs)
                .map_err(|message| failed(message, exit::IO_ERROR))?;
            say(&judged);
            runs.push(judged);
        }
    }
    Calibration::new(&runs, &package.report).ok_or_else(|| {
        failed(
            "no accepted submission made a run".to_owned(),
            exit::OS_ERROR,
        )
    })
}

// The test binaries' rule for what a machine may lack (its `require!`
// names their module path, so only `can_run` serves here).
#[cfg(test)]
#[allow(unused_macros, unused_imports)]
#[path = "../../../tests/support/skip.rs"]
mod skip;

#[cfg(test)]
mod tests {
    use rotation_game::package::Language;

    use super::*;

    /// Whether g++ runs here, which the package's C++ submissions need
    /// (see `skip::can_run`: a machine without it skips, CI fails).
    fn compiler_here() -> bool {
        let runs = Command::new("g++")
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success());
        super::skip::can_run(runs, "g++", "the test")
    }

    /// A C++ submission of `source`, named `file_name`.
    fn cpp(file_name: &'static str, source: &'static str) -> SourceProgram {
        SourceProgram {
            file_name,
            role: Role::Accepted,
            language: Language::Cpp,
            mistake: None,
            source,
        }
    }

    #[test]
    fn a_submissions_limits_are_the_packages() {
        let limits = limits(3);
        assert_eq!(limits.cpu_time, Duration::from_secs(3));
        assert_eq!(limits.wall_time, Duration::from_secs(3) * WALL_PER_CPU);
        assert_eq!(limits.memory_bytes, u64::from(MEMORY_LIMIT_MIB) * MIB);
        assert_eq!(limits.output_bytes, Limits::DEFAULT.output_bytes);
    }

    #[test]
    fn a_submissions_runs_read_as_its_first_failure_or_its_slowest_run() {
        use rotation_game::judging::{FileVerdict, Verdict};

        let run = |file: &str, verdict, cpu_seconds| FileRun {
            file: file.to_owned(),
            verdict: FileVerdict::Judged(verdict),
            cpu_seconds,
        };
        let mut runs = SubmissionRuns {
            program: SUBMISSIONS[0],
            runs: vec![
                run("secret/01", Verdict::Accepted, 0.25),
                run("secret/02", Verdict::Accepted, 1.5),
                run("secret/03", Verdict::Accepted, 0.5),
            ],
            limit_seconds: 4.0,
        };
        assert_eq!(
            summary(&runs),
            "AC on all 3 files, the slowest 1.50 s of CPU on secret/02"
        );
        runs.runs[2] = run("secret/03", Verdict::TimeLimit, 4.5);
        assert_eq!(
            summary(&runs),
            "TLE on secret/03 after 4.50 s of CPU (limit 4 s)"
        );
        runs.runs.clear();
        assert_eq!(summary(&runs), "no files");
    }

    #[test]
    fn a_submission_is_built_beside_its_source_and_runs() {
        if !compiler_here() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let program = cpp("answer.cpp", "int main() { return 42; }\n");
        let binary = build(&program, dir.path()).expect("it compiles");
        assert_eq!(binary, dir.path().join("answer.bin"));
        assert_eq!(
            fs::read_to_string(dir.path().join("answer.cpp")).unwrap(),
            program.source
        );
        let status = Command::new(&binary).status().expect("it runs");
        assert_eq!(status.code(), Some(42));
    }

    #[test]
    fn a_submission_that_does_not_compile_gives_the_compilers_complaint() {
        if !compiler_here() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let program = cpp("broken.cpp", "int main() { return missing; }\n");
        let error = build(&program, dir.path()).expect_err("it does not compile");
        assert!(error.starts_with("g++ failed:\n"), "{error}");
        assert!(error.contains("missing"), "{error}");
        assert!(!dir.path().join("broken.bin").exists());
    }
}
