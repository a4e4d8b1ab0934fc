//! Small programs for the tests of `stress` and its runner, and what the
//! machine offers them (a sandbox, a writable cgroup).
//!
//! # What each machine must have
//!
//! A test that needs something the machine lacks says it is skipped and
//! why; with `CI` set, it fails instead where CI must have it:
//!
//! - **bubblewrap that works** (`have_sandbox`): CI must have it, as root
//!   and as an unprivileged user (`.ci/run` installs it, and runs the
//!   runner's suites as a user too; the machine allows unprivileged user
//!   namespaces).
//! - **a writable cgroup** (`have_cgroup`): CI must have it as root. An
//!   unprivileged user has none unless one is delegated to it, so there
//!   the tests of what only a cgroup gives are skipped, and those of the
//!   rlimit fallback run instead (`tests/limits.rs`, `tests/stress_runner.rs`).

use std::hash::{Hash, Hasher};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use super::run;

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

/// Writes an executable shell script and returns its path.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Builds a C program with `cc` into `dir` and returns its path.
///
/// Each source is compiled once per build of the tests: the executable is
/// kept in Cargo's temporary folder for tests (`CARGO_TARGET_TMPDIR`),
/// named after the source's hash, and copied into `dir`, whose path the
/// tests look for in command lines. Where that folder cannot be written
/// (the cgroup v2 virtual machine sees the checkout read-only, after the
/// host's `cargo test` filled it), a missing executable is compiled into
/// `dir` alone; compiling is what costs there, several seconds a program
/// under an emulated CPU.
pub fn compile(dir: &Path, name: &str, source: &str) -> String {
    let binary = dir.join(name);
    let mut hasher = std::hash::DefaultHasher::new();
    source.hash(&mut hasher);
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c-programs")
        .join(format!("{name}-{:016x}", hasher.finish()));
    if std::fs::copy(&kept, &binary).is_ok() {
        return binary.to_str().unwrap().to_owned();
    }
    let source_path = dir.join(format!("{name}.c"));
    std::fs::write(&source_path, source).unwrap();
    let status = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(&source_path)
        .status()
        .expect("a C compiler (cc) for the test programs");
    assert!(status.success(), "cc {name}.c");
    // Kept under a name of this process's, then renamed: another test
    // process copying it never sees half a file.
    let partial = kept.with_extension(format!("partial-{}", std::process::id()));
    let stored = std::fs::create_dir_all(kept.parent().unwrap())
        .and_then(|()| std::fs::copy(&binary, &partial))
        .and_then(|_| std::fs::rename(&partial, &kept));
    if stored.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    binary.to_str().unwrap().to_owned()
}

/// Allocates and touches 64 MiB at a time, up to argv[1] MiB (8 GiB by
/// default); exits 3 when an allocation fails.
pub const HOG: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    long mib = argc > 1 ? atol(argv[1]) : 8192, chunk = 64L << 20;
    for (long total = 0; total < (mib << 20); total += chunk) {
        char *block = malloc(chunk);
        if (!block) { fprintf(stderr, "malloc failed at %ld MiB\n", total >> 20); return 3; }
        memset(block, 1, chunk);
    }
    return 0;
}
"#;

/// Spins forever.
pub const SPINNER: &str = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n";

/// Burns one second of CPU time, then runs its arguments.
pub const BURNER: &str = r#"
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    while (clock() < CLOCKS_PER_SEC) {}
    execv(argv[1], argv + 1);
    return 127;
}
"#;

/// What this machine offers `stress`, as its JSON report says.
pub struct Machine {
    /// Runs are in bubblewrap's sandbox.
    pub sandbox: bool,
    /// CPU time and memory are measured by a cgroup per run (`cgroup v1`
    /// or `cgroup v2`), not by the rlimit fallback.
    pub cgroup: bool,
    /// What caps a run's processes: `cgroup`, `rlimit`, or nothing.
    pub process_cap: Option<String>,
}

/// Whether the tests run as root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

pub fn machine() -> &'static Machine {
    static MACHINE: OnceLock<Machine> = OnceLock::new();
    MACHINE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("probe.json");
        let program = format!("{BINARY} solve");
        let output = super::seeded_stress(&program, 1)
            .args(["--json", json.to_str().unwrap()])
            .output()
            .expect("the binary runs");
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let isolation = &report["isolation"];
        Machine {
            sandbox: isolation["sandboxed"] == true,
            // "rusage" without a writable cgroup.
            cgroup: isolation["measurement"]
                .as_str()
                .is_some_and(|measurement| measurement.starts_with("cgroup")),
            process_cap: isolation["process_cap"].as_str().map(str::to_owned),
        }
    })
}

/// Whether `available`; when not, fails under CI where CI must have it
/// (`required`), and says the test is skipped otherwise.
pub fn have_if(available: bool, required: bool, what: &str, test: &str) -> bool {
    if !available {
        assert!(
            !required || std::env::var_os("CI").is_none(),
            "{test} needs {what}, which CI must have"
        );
        eprintln!("skipped {test}: it needs {what}");
    }
    available
}

/// Whether `available`; when not, fails under CI and says the test is
/// skipped elsewhere.
pub fn have(available: bool, what: &str, test: &str) -> bool {
    have_if(available, true, what, test)
}

pub fn have_sandbox(test: &str) -> bool {
    have(machine().sandbox, "bubblewrap (bwrap)", test)
}

/// A writable cgroup: required under CI as root only (see the module docs).
pub fn have_cgroup(test: &str) -> bool {
    have_if(
        machine().cgroup,
        is_root(),
        "a writable cgroup (root, or a delegated one)",
        test,
    )
}

/// Starts 400 children that sleep; prints how many could not be started,
/// and exits 1 if any.
pub const FORKER: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int refused = 0;
    for (int i = 0; i < 400; i++) {
        pid_t pid = fork();
        if (pid == 0) { sleep(30); _exit(0); }
        if (pid < 0) refused++;
    }
    printf("refused %d\n", refused);
    return refused > 0;
}
"#;

/// Exits by SIGSEGV.
pub const SEGFAULT: &str = "int main(void) { return *(volatile int *) 0; }\n";
