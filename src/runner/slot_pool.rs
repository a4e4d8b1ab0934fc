//! The slots a runner's runs are made in (`slot.rs`): a pool of the free
//! ones, each lent to one run at a time and given back when it ends; the
//! first slot's trial run; and making a run in a slot.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::sync::Mutex;
use std::time::Duration;

use super::cgroup::RunCgroup;
use super::child_setup::pipe;
use super::init::{self, InitReport};
use super::limits::OPEN_FILES;
use super::message::{RunDescriptors, RunRequest};
use super::sandbox::{Sandbox, SandboxError};
use super::sandbox_user;
use super::slot::{self, Slot, SlotRun};

/// The slots no run uses now: one is taken for each run, or started when
/// there is none.
#[derive(Debug)]
pub(crate) struct SlotPool {
    free: Mutex<Vec<Slot>>,
    /// Whether slots have uids of their own (a root judge).
    own_uids: bool,
}

impl SlotPool {
    /// A pool holding `slots`, whose new slots have uids of their own when
    /// `own_uids`.
    pub(crate) fn new(slots: Vec<Slot>, own_uids: bool) -> SlotPool {
        SlotPool {
            free: Mutex::new(slots),
            own_uids,
        }
    }

    /// A slot for one run: a free one, or a new one (with a newly claimed
    /// uid, for a root judge).
    pub(crate) fn lend(&self, sandbox: &Sandbox) -> io::Result<LentSlot<'_>> {
        let free = self
            .free
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .pop();
        let slot = match free {
            Some(slot) => slot,
            None => {
                let user = if self.own_uids {
                    Some(sandbox_user::claim()?)
                } else {
                    None
                };
                Slot::start(sandbox, user).map_err(io::Error::other)?
            }
        };
        Ok(LentSlot {
            pool: &self.free,
            slot: Some(slot),
        })
    }
}

/// The first slot of a sandbox, and a trial run in it: whether runs can be
/// made here.
/// With the slot, whether its runs' PID 1 counts their CPU time with a
/// task clock (`init.rs`).
pub(crate) fn first_slot(sandbox: &Sandbox, own_uids: bool) -> Result<(Slot, bool), SandboxError> {
    let unusable = |error: io::Error| SandboxError::Unusable(error.to_string());
    let user = if own_uids {
        Some(sandbox_user::claim().map_err(unusable)?)
    } else {
        None
    };
    let slot = Slot::start(sandbox, user)?;
    let trial = RunRequest {
        processes: 16,
        work_bytes: 1 << 20,
        cpu_seconds: 10,
        address_space: 0,
        open_files: OPEN_FILES,
        trial: 1,
    };
    let made = make_run(&slot, &trial, None).map_err(unusable)?;
    drop((made.stdin, made.stdout, made.stderr));
    made.run.wait(Duration::from_secs(30));
    match init::read_report(made.status) {
        Some(InitReport::Ran { task_clock, .. }) => Ok((slot, task_clock)),
        Some(InitReport::NotStarted(message)) => Err(SandboxError::Unusable(message)),
        Some(InitReport::Visible(path)) => Err(SandboxError::NotHidden(path)),
        None => Err(SandboxError::Unusable(
            "the sandbox's trial run ended without a word".into(),
        )),
    }
}

/// A run made in a slot, with the runner's ends of its descriptors.
pub(crate) struct MadeRun {
    pub(crate) run: SlotRun,
    pub(crate) stdin: File,
    pub(crate) stdout: File,
    pub(crate) stderr: File,
    pub(crate) status: OwnedFd,
}

/// Asks `slot` for a run with `request`, moves it into `cgroup`, and lets
/// it start.
pub(crate) fn make_run(
    slot: &Slot,
    request: &RunRequest,
    cgroup: Option<&RunCgroup>,
) -> io::Result<MadeRun> {
    let (stdin_end, stdin) = slot::input_pipe()?;
    let (stdout, stdout_end) = slot::output_pipe()?;
    let (stderr, stderr_end) = slot::output_pipe()?;
    let (status, status_end) = pipe()?;
    let (start_end, start) = slot::input_pipe()?;
    let ends = RunDescriptors {
        stdin: stdin_end,
        stdout: stdout_end,
        stderr: stderr_end,
        status: status_end,
        start: start_end,
    };
    let run = slot.run(request, ends)?;
    if let Some(cgroup) = cgroup
        && let Err(error) = cgroup.add(run.host_pid)
    {
        run.kill();
        return Err(error);
    }
    // Nothing is written if the run is gone already; its report says why.
    let _ = (&start).write_all(&[1]);
    drop(start);
    Ok(MadeRun {
        run,
        stdin,
        stdout,
        stderr,
        status,
    })
}

/// A slot lent to one run; back to the runner's pool when dropped.
pub(crate) struct LentSlot<'a> {
    pool: &'a Mutex<Vec<Slot>>,
    slot: Option<Slot>,
}

impl LentSlot<'_> {
    pub(crate) fn slot(&self) -> &Slot {
        self.slot.as_ref().expect("lent until dropped")
    }

    /// Replaces a broken slot (its zygote gone) by a new one with its uid,
    /// rather than lending it again; `false` when there is none to
    /// replace.
    ///
    /// # Errors
    ///
    /// When the new slot cannot start.
    pub(crate) fn replace(&mut self, sandbox: &Sandbox) -> io::Result<bool> {
        let Some(broken) = self.slot.take() else {
            return Ok(false);
        };
        let slot = Slot::start(sandbox, broken.into_user()).map_err(io::Error::other)?;
        self.slot = Some(slot);
        Ok(true)
    }
}

impl Drop for LentSlot<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.pool
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .push(slot);
        }
    }
}
