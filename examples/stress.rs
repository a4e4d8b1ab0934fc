//! Stress-testing a program from Rust, as the `stress` command does (Unix
//! only): generated boards, the program run on them a few cases at a time
//! within limits (in a sandbox where bubblewrap is installed), each run
//! judged, a summary by verdict, and the smallest failing case.
//!
//! ```text
//! cargo run --example stress                    # a planted wrong solution
//! cargo run --example stress -- "./a.out"       # your own program
//! ```
//!
//! The planted solution is this example run again with `--planted`: exact,
//! but it gives up after nine moves, so it fails on the boards of 10 moves
//! and more. The campaign is 28 boards of `Mode::Mix` (case `k` has optimal
//! length `(k - 1) mod 14`), four to a run, two runs at a time. Exit status
//! 0 when every run is accepted, 1 when one fails (as the planted one
//! does), 2 when the program cannot be run.
//!
//! The sandbox's first process is this executable run again, which serves
//! as its init: that is why `main` calls `serve_if_asked` first thing.

#[cfg(unix)]
fn main() -> std::process::ExitCode {
    rotation_game::runner::serve_if_asked();
    let argument = std::env::args().nth(1);
    if argument.as_deref() == Some(unix::PLANTED) {
        return unix::planted();
    }
    unix::stress(argument)
}

#[cfg(not(unix))]
fn main() {
    eprintln!("stress runs programs under test on Unix only");
}

#[cfg(unix)]
mod unix {
    use std::io;
    use std::process::ExitCode;

    use rotation_game::PdbSolver;
    use rotation_game::answers::{
        AnswerFormat, Answered, SolveOptions, solve_stream, write_answer,
    };
    use rotation_game::generator::{Generator, Mode};
    use rotation_game::judging::{StressOptions, Summary, campaign};
    use rotation_game::runner::{Program, Runner, RunnerOptions};

    /// The argument that makes this example the planted solution.
    pub const PLANTED: &str = "--planted";

    /// The moves the planted solution gives at most.
    const GIVES_UP_AFTER: usize = 9;

    /// The planted solution's answers: the judges' form, but at most
    /// [`GIVES_UP_AFTER`] moves.
    struct GivesUp;

    impl AnswerFormat for GivesUp {
        fn answer(&self, out: &mut Vec<u8>, answered: &Answered<'_>) {
            let mut solution = *answered.solution;
            while solution.moves.len() > GIVES_UP_AFTER {
                solution.moves.pop();
            }
            write_answer(out, &solution);
        }
    }

    /// Answers judge input on standard input as the planted solution.
    pub fn planted() -> ExitCode {
        let solved = solve_stream(
            io::stdin(),
            io::stdout().lock(),
            &PdbSolver::default(),
            &GivesUp,
            SolveOptions::default(),
            &mut |bad_case| eprintln!("{bad_case}"),
        );
        match solved {
            Ok(_) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("{error}");
                ExitCode::FAILURE
            }
        }
    }

    /// Stress-tests `command` (the planted solution when `None`).
    pub fn stress(command: Option<String>) -> ExitCode {
        let command = command.unwrap_or_else(|| {
            let this = std::env::current_exe().expect("this executable's path");
            format!("'{}' {PLANTED}", this.display())
        });
        let here = std::env::current_dir().expect("a current directory");
        let program = match Program::parse(&command, &here) {
            Ok(program) => program,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::from(2);
            }
        };
        let options = StressOptions {
            cases_per_run: 4,
            jobs: 2,
            strict_whitespace: false,
            max_fail: None,
        };
        // Default limits; the runs that go at once must fit in memory
        // together.
        let runner_options = RunnerOptions {
            concurrent_runs: options.jobs,
            ..RunnerOptions::default()
        };
        let runner = match Runner::new(program, &runner_options) {
            Ok(runner) => runner,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::from(2);
            }
        };
        let isolation = runner.isolation();
        println!(
            "program: {command}\nsandbox: {}, measured by {:?}",
            if isolation.sandboxed { "yes" } else { "no" },
            isolation.measurement
        );

        let generator = Generator::new(1, Mode::Mix);
        let report = match campaign(&generator, 28, &runner, &options, &|_, _| {}) {
            Ok(report) => report,
            Err(error) => {
                eprintln!("a run could not be made: {error}");
                return ExitCode::from(2);
            }
        };
        let summary = Summary::of(&report.runs);
        println!("{} runs of {} cases:", summary.runs, summary.cases);
        for count in &summary.verdicts {
            println!("  {}: {} runs", count.verdict.code(), count.runs);
        }
        for run in &report.runs {
            println!(
                "  cases {:?}: {} ({:.1?} of CPU)",
                run.cases, run.message, run.measures.cpu_time
            );
        }
        let Some(failure) = report.failure else {
            return ExitCode::SUCCESS;
        };
        let shown = failure.shown();
        let mut expected = Vec::new();
        for answer in &shown.answers {
            write_answer(&mut expected, answer);
        }
        println!(
            "smallest failing case {:?}:\n  input:    {:?}\n  expected: {:?}\n  output:   {:?}\n  verdict:  {}",
            shown.cases,
            shown.input(),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(&shown.run.stdout),
            shown.judgement
        );
        ExitCode::FAILURE
    }
}
