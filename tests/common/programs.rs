//! Small programs for the tests of `stress` and its runner, and what the
//! machine offers them (a sandbox, a writable cgroup).

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

/// Builds a C program with `cc` and returns its path.
pub fn compile(dir: &Path, name: &str, source: &str) -> String {
    let source_path = dir.join(format!("{name}.c"));
    std::fs::write(&source_path, source).unwrap();
    let binary = dir.join(name);
    let status = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(&source_path)
        .status()
        .expect("a C compiler (cc) for the test programs");
    assert!(status.success(), "cc {name}.c");
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

/// Connects to 127.0.0.1:argv[1]; exits 0 when it could.
pub const CONNECT: &str = r#"
#include <arpa/inet.h>
#include <stdlib.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons(atoi(argv[1]));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    return connect(fd, (struct sockaddr *) &address, sizeof address) == 0 ? 0 : 1;
}
"#;

/// What this machine offers `stress`, as its JSON report says.
pub struct Machine {
    pub sandbox: bool,
    pub cgroup: bool,
}

pub fn machine() -> &'static Machine {
    static MACHINE: OnceLock<Machine> = OnceLock::new();
    MACHINE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("probe.json");
        let program = format!("{BINARY} solve");
        let output = run(&[
            "stress",
            "--program",
            &program,
            "--boards",
            "1",
            "--seed",
            "1",
            "--json",
            json.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        Machine {
            sandbox: report["isolation"]["sandboxed"] == true,
            cgroup: report["isolation"]["measurement"]
                .as_str()
                .unwrap()
                .starts_with("cgroup"),
        }
    })
}

/// Whether `available`; when not, fails under CI and says the test is
/// skipped elsewhere.
pub fn have(available: bool, what: &str, test: &str) -> bool {
    if !available {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test} needs {what}, which CI must have"
        );
        eprintln!("skipped {test}: it needs {what}");
    }
    available
}

pub fn have_sandbox(test: &str) -> bool {
    have(machine().sandbox, "bubblewrap (bwrap)", test)
}

pub fn have_cgroup(test: &str) -> bool {
    have(machine().cgroup, "a writable cgroup (root)", test)
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

/// Makes a Unix-domain socket every way a program can (`socket`, and on
/// x86-64 the i386 `socket` and `socketcall` through `int 0x80`) and
/// connects each to the socket file argv[1]; prints how many connected,
/// and exits with that number.
pub const UNIX_CONNECT: &str = r#"
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
static const char *path;
static int connects(long fd) {
    struct sockaddr_un address = {0};
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    return fd >= 0 && connect((int) fd, (struct sockaddr *) &address, sizeof address) == 0;
}
int main(int argc, char **argv) {
    path = argv[1];
    int connected = connects(socket(AF_UNIX, SOCK_STREAM, 0));
#ifdef __x86_64__
    long fd;
    __asm__ volatile("int $0x80" : "=a"(fd) : "a"(359L), "b"((long) AF_UNIX), "c"((long) SOCK_STREAM), "d"(0L)
                     : "memory", "r8", "r9", "r10", "r11");
    connected += connects(fd);
    /* socketcall takes its arguments in memory, which must lie below 4 GiB. */
    unsigned int *args = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
    args[0] = AF_UNIX; args[1] = SOCK_STREAM; args[2] = 0;
    __asm__ volatile("int $0x80" : "=a"(fd) : "a"(102L), "b"(1L), "c"((long) args)
                     : "memory", "r8", "r9", "r10", "r11");
    connected += connects(fd);
#endif
    printf("%d\n", connected);
    return connected;
}
"#;
