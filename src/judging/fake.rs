//! A runner without a process, for the unit tests of judging: it answers
//! each input at once, as a closure says, and remembers the boards of each
//! run it made.

use std::io;
use std::sync::Mutex;
use std::time::Duration;

use super::execute::Execute;
use crate::answers::write_answer;
use crate::board::{Board, Digit};
use crate::checker::Checker;
use crate::pattern_database;
use crate::runner::{Limits, Measurement, Run, Termination};

/// A fake runner: `program` gives the run of the boards it is given.
pub(super) struct FakeRunner<P> {
    program: P,
    limits: Limits,
    inputs: Mutex<Vec<Vec<Board>>>,
}

impl<P: Fn(&[Board]) -> io::Result<Run> + Sync> FakeRunner<P> {
    /// A fake runner with the default limits.
    pub(super) fn new(program: P) -> FakeRunner<P> {
        FakeRunner {
            program,
            limits: Limits::DEFAULT,
            inputs: Mutex::new(Vec::new()),
        }
    }

    /// The boards of each run made, in the order the runs were made.
    pub(super) fn inputs(&self) -> Vec<Vec<Board>> {
        self.inputs.lock().unwrap().clone()
    }
}

impl<P: Fn(&[Board]) -> io::Result<Run> + Sync> Execute for FakeRunner<P> {
    fn run(&self, input: &[u8]) -> io::Result<Run> {
        let boards = Checker::from_judge_input(input)
            .map(|checker| checker.boards().to_vec())
            .unwrap_or_default();
        self.inputs.lock().unwrap().push(boards.clone());
        (self.program)(&boards)
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn is_script(&self) -> bool {
        false
    }
}

/// A run that ended as `termination`, having printed `stdout`; it used a
/// millisecond of CPU time per line, twice that of wall-clock time, and a
/// MiB of memory, so that reports do not depend on timing.
pub(super) fn ended(termination: Termination, stdout: Vec<u8>) -> Run {
    let lines = stdout.iter().filter(|&&byte| byte == b'\n').count() as u64;
    Run {
        termination,
        cpu_time: Duration::from_millis(lines),
        wall_time: Duration::from_millis(2 * lines),
        peak_memory_bytes: 1 << 20,
        stdout,
        stderr: Vec::new(),
        stderr_bytes: 0,
        refused_forks: 0,
        measurement: Measurement::Rusage,
    }
}

/// A run that exited normally, having printed `stdout`.
pub(super) fn exited(stdout: Vec<u8>) -> Run {
    ended(Termination::Exited(0), stdout)
}

/// The right answers to `boards`, but with a wrong centre digit for the
/// boards `wrong` picks.
pub(super) fn answers(boards: &[Board], wrong: impl Fn(&Board) -> bool) -> Vec<u8> {
    let checker = Checker::new(boards);
    let mut out = Vec::new();
    for (board, answer) in boards.iter().zip(checker.answers()) {
        let mut answer = *answer;
        if wrong(board) {
            let other = answer.centre.value() % 3 + 1;
            answer.centre = Digit::ALL[usize::from(other) - 1];
        }
        write_answer(&mut out, &answer);
    }
    out
}

/// A board's optimal length, in moves.
pub(super) fn length(board: &Board) -> u8 {
    pattern_database::optimal_length(board).moves()
}
