//! Running an untrusted program on one input, within limits.
//!
//! [`run_program`] runs a command line through `sh -c` in a process group of
//! its own (see [`shell_script`] for how: a plain command is `exec`ed, so
//! that the program itself leads the group and its death by a signal is
//! seen as such), feeds it the input on standard input, and collects standard
//! output (at most the output limit plus one byte) and the start of standard
//! error. When the program exits, overruns its time or floods its output,
//! the whole group is killed with `SIGKILL`, so that nothing it started
//! (children, grandchildren) is left running. The leader is only reaped
//! after the group is killed, which keeps its process-group id from being
//! reused by an unrelated process in the meantime.

use std::io::{self, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;
use std::os::unix::process::{CommandExt, ExitStatusExt};

use crate::untrusted::BUFFER_SIZE;

/// How much of standard error a run keeps, in bytes.
pub const STDERR_KEPT: usize = 4096;

/// How long to wait for the output pipes to close once the group is dead;
/// only a process that left the group can hold them open longer.
const PIPE_GRACE: Duration = Duration::from_secs(1);

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// Wall-clock time allowed.
    pub timeout: Duration,
    /// The most bytes of standard output allowed.
    pub output_limit: u64,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The program exited with this status.
    Exited(i32),
    /// A signal killed the program (its number).
    Signalled(i32),
    /// The time limit passed; the group was killed.
    TimedOut,
    /// The program wrote more than the output limit; the group was killed.
    OutputFlood,
}

/// The name of signal `number`, such as `SIGSEGV`.
pub fn signal_name(number: i32) -> String {
    match Signal::try_from(number) {
        Ok(signal) => signal.as_str().to_owned(),
        Err(_) => format!("signal {number}"),
    }
}

/// What one run gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutput {
    /// How it ended.
    pub termination: Termination,
    /// Standard output: all of it, or the first output limit plus one bytes
    /// of a flood.
    pub stdout: Vec<u8>,
    /// The first [`STDERR_KEPT`] bytes of standard error.
    pub stderr: Vec<u8>,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
}

/// A pipe's contents, filled by a reader thread.
type Collected = Arc<Mutex<Vec<u8>>>;

/// Reads `pipe` into `into`, keeping at most `keep` bytes, and reads on to
/// the end only when `drain` is set; sets `overflow` once more than `keep`
/// bytes came. Tells `done` when it stops.
fn collect<R: Read>(
    mut pipe: R,
    into: Collected,
    keep: u64,
    drain: bool,
    overflow: Arc<AtomicBool>,
    done: mpsc::Sender<()>,
) {
    let mut buffer = vec![0u8; BUFFER_SIZE];
    let mut total = 0u64;
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                let room = keep.saturating_sub(total).min(read as u64) as usize;
                if room > 0 {
                    let mut kept = into.lock().unwrap_or_else(|poison| poison.into_inner());
                    kept.extend_from_slice(&buffer[..room]);
                }
                total += read as u64;
                if total > keep {
                    overflow.store(true, Ordering::SeqCst);
                    if !drain {
                        break;
                    }
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    // The receiver may have stopped waiting; nothing to do then.
    let _ = done.send(());
}

/// Kills every process of group `group`; a group already gone is fine.
fn kill_group(group: Pid) -> io::Result<()> {
    match killpg(group, Signal::SIGKILL) {
        Ok(()) | Err(Errno::ESRCH) => Ok(()),
        Err(errno) => Err(io::Error::from(errno)),
    }
}

/// The shell started for a run, leading its own process group.
///
/// Invariant: once it is started, the group is killed and the shell reaped
/// on every path out of [`run_program`], errors included: [`end`](Self::end)
/// does it on the normal path, and dropping the guard does it otherwise.
struct Group {
    shell: Child,
    /// The group's id, which is the shell's process id.
    id: Pid,
    /// Whether the shell was waited for already.
    reaped: bool,
}

impl Group {
    fn new(shell: Child) -> Group {
        let id = Pid::from_raw(shell.id() as i32);
        Group {
            shell,
            id,
            reaped: false,
        }
    }

    /// Kills the group, then reaps the shell (in this order, so that the
    /// group's id cannot be reused by an unrelated process before the kill).
    ///
    /// # Errors
    ///
    /// When the group cannot be killed or the shell waited for; the shell
    /// is reaped all the same (see [`Drop`]).
    fn end(mut self) -> io::Result<ExitStatus> {
        self.kill()?;
        let status = self.shell.wait();
        self.reaped = true;
        status
    }

    /// Kills the group; should that fail, kills the shell at least, so that
    /// waiting for it cannot hang.
    fn kill(&mut self) -> io::Result<()> {
        kill_group(self.id).inspect_err(|_| {
            // Best effort: the error that matters is the group's.
            let _ = self.shell.kill();
        })
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.reaped {
            // Nothing to report on this path: an error is on its way out.
            let _ = self.kill();
            let _ = self.shell.wait();
        }
    }
}

/// Whether the process `pid` has exited, without reaping it.
fn has_exited(pid: Pid) -> io::Result<bool> {
    loop {
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(Id::Pid(pid), flags) {
            Ok(WaitStatus::StillAlive) => return Ok(false),
            Ok(_) => return Ok(true),
            Err(Errno::EINTR) => continue,
            Err(errno) => return Err(io::Error::from(errno)),
        }
    }
}

fn termination_of(status: ExitStatus) -> Termination {
    // wait() reports only ends: an exit status, or the signal that killed.
    match status.code() {
        Some(code) => Termination::Exited(code),
        None => Termination::Signalled(status.signal().unwrap_or_default()),
    }
}

/// The script `sh -c` gets for `command`.
///
/// A plain command (words of letters, digits, quotes and ``_./-=:,+@%``, not
/// starting with an assignment, a reserved word or a built-in that only the
/// shell has, such as `exit` or `cd`) is prefixed with `exec`,
/// so that the shell replaces itself with the program: the program leads the
/// process group, and a signal that kills it is reported as that signal.
/// Anything else (pipes, `;`, `&&`, redirections, expansions) runs as a
/// script, and a signal that kills its last command shows, as shells report
/// it, as exit status 128 + N.
pub fn shell_script(command: &str) -> String {
    // Reserved words, and the built-ins that are not also programs: `exec`
    // cannot run them.
    const SHELL_ONLY: [&str; 26] = [
        "exec", "if", "while", "until", "for", "case", "command", "exit", "return", "break",
        "continue", ".", ":", "eval", "export", "readonly", "set", "shift", "times", "trap",
        "unset", "cd", "wait", "umask", "ulimit", "read",
    ];
    let plain_characters = command
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || " _./-=:,+@%\"'".contains(c));
    let first_word = command.split_whitespace().next().unwrap_or("");
    let plain = plain_characters
        && !first_word.is_empty()
        && !first_word.contains('=')
        && !SHELL_ONLY.contains(&first_word);
    if plain {
        format!("exec {command}")
    } else {
        command.to_owned()
    }
}

/// Runs `command` (through `sh -c`, see [`shell_script`]) on `input`; see the [module
/// docs](self).
///
/// # Errors
///
/// When the shell cannot be started or waited for.
pub fn run_program(command: &str, input: &[u8], limits: &RunLimits) -> io::Result<RunOutput> {
    let started = Instant::now();
    let mut group = Group::new(
        Command::new("sh")
            .arg("-c")
            .arg(shell_script(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?,
    );
    let child = &mut group.shell;

    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // A program that does not read its input makes the write fail or block
    // until the group is killed; either way the thread ends on its own.
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });

    let (done_sender, done) = mpsc::channel();
    let flood = Arc::new(AtomicBool::new(false));
    let stdout = Collected::default();
    let stderr = Collected::default();
    let pipe = child.stdout.take().expect("stdout is piped");
    let (into, overflow, sender) = (stdout.clone(), flood.clone(), done_sender.clone());
    // One byte past the limit is kept, so that a flood shows.
    let keep = limits.output_limit.saturating_add(1);
    thread::spawn(move || collect(pipe, into, keep, false, overflow, sender));
    let pipe = child.stderr.take().expect("stderr is piped");
    let (into, overflow) = (stderr.clone(), Arc::new(AtomicBool::new(false)));
    thread::spawn(move || collect(pipe, into, STDERR_KEPT as u64, true, overflow, done_sender));

    let deadline = started + limits.timeout;
    let mut pause = Duration::from_micros(100);
    let mut ended = None;
    while ended.is_none() {
        if flood.load(Ordering::SeqCst) {
            ended = Some(Termination::OutputFlood);
        } else if has_exited(group.id)? {
            break;
        } else if Instant::now() >= deadline {
            ended = Some(Termination::TimedOut);
        } else {
            let left = deadline.saturating_duration_since(Instant::now());
            thread::sleep(pause.min(left));
            pause = (pause * 2).min(Duration::from_millis(10));
        }
    }
    let status = group.end()?;
    let elapsed = started.elapsed();
    let grace_end = Instant::now() + PIPE_GRACE;
    for _ in 0..2 {
        let left = grace_end.saturating_duration_since(Instant::now());
        if done.recv_timeout(left).is_err() {
            break;
        }
    }
    let termination = match ended {
        Some(termination) => termination,
        None if flood.load(Ordering::SeqCst) => Termination::OutputFlood,
        None => termination_of(status),
    };
    let take = |collected: &Collected| {
        collected
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    };
    Ok(RunOutput {
        termination,
        stdout: take(&stdout),
        stderr: take(&stderr),
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs(5),
            output_limit: 1000,
        }
    }

    #[test]
    fn collects_output_and_exit_status() {
        let run = run_program("cat; echo oops >&2; exit 3", b"hello\n", &limits()).unwrap();
        assert_eq!(run.termination, Termination::Exited(3));
        assert_eq!(run.stdout, b"hello\n");
        assert_eq!(run.stderr, b"oops\n");
    }

    #[test]
    fn names_the_signal_that_killed_the_program() {
        let run = run_program("kill -SEGV $$", b"", &limits()).unwrap();
        assert_eq!(run.termination, Termination::Signalled(11));
        assert_eq!(signal_name(11), "SIGSEGV");
    }

    #[test]
    fn plain_commands_are_execed_and_scripts_left_alone() {
        assert_eq!(shell_script("./sol --fast"), "exec ./sol --fast");
        assert_eq!(
            shell_script("python3 'my sol.py'"),
            "exec python3 'my sol.py'"
        );
        for script in [
            "a | b", "a; b", "a > out", "X=1 a", "exec a", "$HOME/a", "", "exit 3", "cd dir",
        ] {
            assert_eq!(shell_script(script), script);
        }
    }

    #[test]
    fn a_plain_programs_signal_is_seen_as_a_signal() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("crash.sh");
        std::fs::write(&script, "#!/bin/sh\nkill -ABRT $$\n").unwrap();
        let command = format!("sh {}", script.display());
        let plain = run_program(&command, b"", &limits()).unwrap();
        assert_eq!(plain.termination, Termination::Signalled(6));
        let piped = run_program(&format!("{command} | cat"), b"", &limits()).unwrap();
        assert_eq!(piped.termination, Termination::Exited(0));
        let last = run_program(&format!("true; {command}"), b"", &limits()).unwrap();
        assert_eq!(last.termination, Termination::Exited(128 + 6));
    }

    /// Whether process `pid` is dead: gone, or a zombie left to be reaped.
    fn is_dead(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[test]
    fn dropping_a_group_kills_it_and_reaps_the_shell() {
        let mut shell = Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut line = String::new();
        let mut stdout = io::BufReader::new(shell.stdout.take().unwrap());
        io::BufRead::read_line(&mut stdout, &mut line).unwrap();
        let sleeper: u32 = line.trim().parse().unwrap();
        let group = Group::new(shell);
        let id = group.id;
        drop(group);
        // The shell is reaped: its id is no child of ours any more.
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG;
        assert_eq!(waitid(Id::Pid(id), flags), Err(Errno::ECHILD));
        // Its child was killed too (the signal takes a moment to land; a
        // live sleep would last 30 s).
        let deadline = Instant::now() + Duration::from_secs(10);
        while !is_dead(sleeper) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        assert!(is_dead(sleeper));
    }

    #[test]
    fn stops_a_flood_one_byte_past_the_limit() {
        let run = run_program("yes", b"", &limits()).unwrap();
        assert_eq!(run.termination, Termination::OutputFlood);
        assert_eq!(run.stdout.len(), 1001);
    }

    #[test]
    fn times_out_a_program_that_ignores_its_input() {
        let quick = RunLimits {
            timeout: Duration::from_millis(200),
            ..limits()
        };
        let input = vec![b'1'; 1 << 20];
        let run = run_program("sleep 30", &input, &quick).unwrap();
        assert_eq!(run.termination, Termination::TimedOut);
        assert!(run.elapsed < Duration::from_secs(5));
    }
}
