//! What this machine gives the runner: a sandbox that works, a writable
//! cgroup. Asked once per test binary, of the library's own runner, as
//! `stress` asks it (sandbox `auto`, cgroups where writable, this
//! package's binary as the sandbox's init).

use std::path::Path;
use std::sync::OnceLock;

use rotation_game::runner::{Isolation, Program, Runner, RunnerOptions};

/// How runs are isolated and measured here.
pub fn isolation() -> &'static Isolation {
    static ISOLATION: OnceLock<Isolation> = OnceLock::new();
    ISOLATION.get_or_init(|| {
        let program = Program::parse("true", Path::new("/")).expect("a command line");
        let options = RunnerOptions {
            init: Some(env!("CARGO_BIN_EXE_rotation-game").into()),
            ..RunnerOptions::default()
        };
        Runner::new(program, &options)
            .expect("a runner starts")
            .isolation()
            .clone()
    })
}
