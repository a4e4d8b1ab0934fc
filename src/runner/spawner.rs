//! The thread that starts the slots' sandboxes.
//!
//! A slot's bubblewrap is started with `PR_SET_PDEATHSIG`, so that it dies
//! with a runner killed outright. But Linux sends that signal when the
//! *thread* that forked the child ends, not its process: a slot started by
//! one of a campaign's worker threads would be killed when that thread
//! ends, while the runner goes on (the shrinking after a campaign, the next
//! campaign), and a run sent to it in that moment would die without a word.
//! So every slot is started here, on one thread that lives as long as the
//! process: its children die with the process, and only then.
//! `tests/library/runner.rs` (`runs_go_on_after_the_threads_that_started_the_slots_are_gone`)
//! shows the runs going on.

use std::io;
use std::process::{Child, Command};
use std::sync::OnceLock;
use std::sync::mpsc::{Sender, channel, sync_channel};

/// A request: the command to start, and where to send the child.
type Request = (Command, std::sync::mpsc::SyncSender<io::Result<Child>>);

/// The spawning thread's queue, made with the thread on first use; an
/// error when the thread could not be started.
static QUEUE: OnceLock<Result<Sender<Request>, String>> = OnceLock::new();

/// Starts `command` on the process's spawning thread, and gives its child.
///
/// # Errors
///
/// When the command cannot be started, or the spawning thread cannot.
pub(crate) fn spawn(command: Command) -> io::Result<Child> {
    let queue = QUEUE.get_or_init(|| {
        let (sender, requests) = channel::<Request>();
        std::thread::Builder::new()
            .name("rotation-game-spawner".into())
            .spawn(move || {
                for (mut command, reply) in requests {
                    // The asker may be gone; its child goes with the reply.
                    let _ = reply.send(command.spawn());
                }
            })
            .map(|_| sender)
            .map_err(|error| format!("cannot start the thread that starts sandboxes: {error}"))
    });
    let queue = queue
        .as_ref()
        .map_err(|error| io::Error::other(error.clone()))?;
    let (reply, child) = sync_channel(1);
    queue
        .send((command, reply))
        .map_err(|_| io::Error::other("the thread that starts sandboxes is gone"))?;
    child
        .recv()
        .map_err(|_| io::Error::other("the thread that starts sandboxes is gone"))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_started_for_a_thread_that_ends_is_the_spawners_and_outlives_it() {
        use std::os::unix::process::CommandExt;
        let child = std::thread::spawn(|| {
            let mut command = Command::new("sleep");
            command.arg("5");
            // As a slot's bubblewrap is: killed when its parent thread ends.
            // SAFETY: prctl is async-signal-safe, on the child alone.
            unsafe {
                command.pre_exec(|| {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
            spawn(command).unwrap()
        })
        .join()
        .unwrap();
        let mut child = child;
        // The asking thread is gone; the child is not.
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(child.try_wait().unwrap().is_none());
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
