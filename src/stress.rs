//! Judging other people's programs as a contest judge does: limits on CPU
//! time, wall-clock time, memory and output, isolation, the judges'
//! verdicts, timing reports, and the smallest failing case.
//!
//! Unix only (Linux for cgroups and the sandbox).
//!
//! # Overview
//!
//! - [`Program`] ([`command`]): the command line of the program under
//!   test, run directly when it is a program and its arguments, by `sh -c`
//!   when it needs a shell; paths resolved against the caller's directory.
//! - [`Runner`] ([`runner`]): runs the program on one input within
//!   [`Limits`], in a bubblewrap [`sandbox`] (with our [`init`] as its
//!   PID 1) and a cgroup where the machine has them, and returns a [`Run`]:
//!   how it ended, CPU time, wall-clock time, peak memory, output.
//!   [`Isolation`] says what was available.
//! - [`judge`] ([`verdict`]): a run and the [checker](crate::checker) give a
//!   [`Judgement`], with its [`Verdict`] (AC, WA, PE, TLE, MLE, RTE, OLE)
//!   and message; missing and surplus output is named as such
//!   ([`alignment`]).
//! - [`campaign()`] ([`campaign`](mod@campaign)): runs of consecutive cases
//!   of a [`Generator`](crate::generator::Generator) (or of one shard of
//!   it), in parallel, one [`RunRecord`] each; the first failing run, re-run
//!   case by case to find its smallest failing case ([`shrink`]).
//! - [`Summary`] ([`report`]): verdict counts, the slowest runs, and the CPU
//!   time and memory by optimal length.
//! - [`DataFolder`] ([`data_folder`]): the test files of a problem package
//!   or of a folder of `.in` and `.ans` pairs; [`judge_folder`]
//!   ([`folder_judging`]): the program judged on each, against the jury's
//!   answers, one [`FileRecord`] per file.
//!
//! # Example
//!
//! ```no_run
//! use std::path::Path;
//! use rotation_game::stress::{Program, Runner, RunnerOptions, Termination};
//!
//! let program = Program::parse("./a.out", Path::new("/home/me"))?;
//! let runner = Runner::new(program, &RunnerOptions::default())?;
//! let run = runner.run(b"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n")?;
//! assert_eq!(run.termination, Termination::Exited(0));
//! println!("{:?} of CPU, {} bytes at most", run.cpu_time, run.peak_memory_bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod alignment;
pub mod campaign;
mod cgroup;
mod child_setup;
pub mod command;
pub mod data_folder;
pub mod folder_judging;
pub mod init;
pub mod interrupt;
pub mod limits;
mod owner;
mod pipes;
mod proc_meter;
mod proc_stat;
mod process_group;
pub mod report;
pub mod runner;
pub mod sandbox;
mod sandbox_user;
mod seccomp;
mod signal_name;
mod slot;
pub mod verdict;
mod work_dir;
mod zygote;

// The main types, here for short paths.

pub use alignment::Misalignment;
pub use campaign::{
    CampaignReport, FailedRun, Failure, StressOptions, campaign, judge_input, judge_run, shrink,
};
pub use cgroup::CgroupVersion;
pub use command::{Program, ProgramError, SHELL};
pub use data_folder::{
    DataFile, DataFolder, DataFolderError, FolderLayout, MAX_TEST_FILE_BYTES, read_test_file,
};
pub use folder_judging::{
    FileRecord, FileVerdict, FirstFailure, FolderOptions, FolderReport, judge_file, judge_folder,
};
pub use init::Ended;
pub use limits::{Limits, MIB, OPEN_FILES, WALL_PER_CPU};
pub use pipes::STDERR_KEPT;
pub use report::{LengthTiming, RunRecord, SLOWEST_LISTED, Summary, VerdictCount};
pub use runner::{
    CpuCounter, CpuShare, Isolation, KernelMemory, Measurement, ProcessCap, Run, RunUser, Runner,
    RunnerError, RunnerOptions, Termination,
};
pub use sandbox::{SandboxError, SandboxMode};
pub use sandbox_user::{FIRST_UID, UIDS};
pub use signal_name::signal_name;
pub use verdict::{Judgement, TimeLimitKind, Verdict, judge};
pub use zygote::serve_if_asked;
