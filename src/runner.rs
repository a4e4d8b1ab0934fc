//! The runner: starts a program on one input, confines it, measures it and
//! ends it. It knows nothing of the puzzle nor of verdicts: what the
//! program was asked and what it answered are bytes, and what the runner
//! observed is a [`Run`] (how it ended, CPU and wall-clock time, peak
//! memory, output). Judging those runs is [`judging`](crate::judging)'s.
//!
//! Unix only (Linux for cgroups and the sandbox). Every `unsafe` block of
//! the crate is in this module, each with the reason it is sound.
//!
//! # Overview
//!
//! - [`Program`] ([`command`]): the command line of the program under
//!   test, run directly when it is a program and its arguments, by `sh -c`
//!   when it needs a shell; paths resolved against the caller's directory.
//! - [`Runner`] ([`run`]): runs the program on one input within
//!   [`Limits`], in a bubblewrap [`sandbox`] (with our [`init`] as its
//!   PID 1) and a cgroup where the machine has them, and returns a [`Run`]:
//!   how it ended ([`Termination`]), CPU time, wall-clock time, peak
//!   memory, output. [`Isolation`] says what was available.
//!
//! # Example
//!
//! ```no_run
//! use std::path::Path;
//! use rotation_game::runner::{Program, Runner, RunnerOptions, Termination};
//!
//! let program = Program::parse("./a.out", Path::new("/home/me"))?;
//! let runner = Runner::new(program, &RunnerOptions::default())?;
//! let run = runner.run(b"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n")?;
//! assert_eq!(run.termination, Termination::Exited(0));
//! println!("{:?} of CPU, {} bytes at most", run.cpu_time, run.peak_memory_bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(clippy::undocumented_unsafe_blocks)]

mod cgroup;
mod child_setup;
pub mod command;
#[cfg(test)]
mod in_child;
pub mod init;
pub mod interrupt;
pub mod isolation;
pub mod limits;
mod message;
mod owner;
mod pipes;
mod proc_meter;
mod proc_stat;
mod process_group;
pub mod run;
mod rusage;
pub mod sandbox;
mod sandbox_user;
mod seccomp;
mod signal_name;
mod slot;
mod slot_pool;
mod spawner;
pub mod termination;
mod work_dir;
mod zygote;

// The main types, here for short paths.

pub use cgroup::CgroupVersion;
pub use command::{Program, ProgramError, SHELL};
pub use isolation::{
    CpuCounter, CpuShare, Isolation, KernelMemory, Measurement, ProcessCap, RunUser,
};
pub use limits::{Limits, MIB, OPEN_FILES, WALL_PER_CPU};
pub use pipes::STDERR_KEPT;
pub use run::{Run, Runner, RunnerError, RunnerOptions};
pub use rusage::own_cpu_time;
pub use sandbox::{SandboxError, SandboxMode};
pub use sandbox_user::{FIRST_UID, UIDS};
pub use signal_name::signal_name;
pub use termination::{Exit, Termination};
pub use work_dir::private_folder;
pub use zygote::serve_if_asked;
