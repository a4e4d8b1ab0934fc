//! The sandbox's promises, each attacked by a real program through the
//! binary under `--sandbox on`.
//!
//! The attacker is `tests/support/attack.c`, one attack per subcommand. It
//! says on standard error what it reached (`reached: …`) or why not
//! (`blocked: …`), and exits 42 when it reached something: a judge then
//! gives a runtime error, and a wrong output format (no output) otherwise. Each
//! test runs its attack in the sandbox, where it must be blocked, and where
//! the attack succeeds (the program run directly, or `--sandbox off`),
//! where the probe must say so: a probe that cannot see success would pass
//! anything.
//!
//! Every attack is safe when it succeeds: none writes a kernel setting (it
//! opens them for writing and closes them), files are made only in folders
//! the test names, and only the attacker's own child is traced.
//!
//! The suite runs as root (CI) and as an unprivileged user (`.ci/run` runs
//! it so too). Where the user's side cannot show a probe's success (a
//! non-root user cannot open a kernel setting for writing outside a sandbox
//! either), the test says so and checks what it can. Without bubblewrap
//! each test says it is skipped, and fails under CI; so does each that
//! needs root, but for the unprivileged run of CI (`support::skip`).

use std::io::ErrorKind;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{SocketAddr, UnixDatagram, UnixListener};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use rotation_game::runner::{Limits, MIB, Program, Runner, RunnerOptions, SandboxMode};

use crate::support::attack::{attacker, command_line};
use crate::support::isolation::isolation;
use crate::support::processes::{kill_marked, processes_with};
use crate::support::skip::{can_run, require};
use crate::support::{BINARY, is_root, stderr, stdout, survivors};

/// What an attack said of itself.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// It reached this.
    Reached(String),
    /// It did not, for this reason.
    Blocked(String),
}

impl Outcome {
    /// The attack's line among the program's standard error, if it got to
    /// say anything (a run killed at its memory limit may not).
    fn said(stderr: &str) -> Option<Outcome> {
        stderr.lines().find_map(|line| {
            if let Some(what) = line.strip_prefix("reached: ") {
                Some(Outcome::Reached(what.to_owned()))
            } else {
                line.strip_prefix("blocked: ")
                    .map(|why| Outcome::Blocked(why.to_owned()))
            }
        })
    }

    /// The attack's line, which it must have said.
    fn of(stderr: &str) -> Outcome {
        Outcome::said(stderr).unwrap_or_else(|| panic!("the attack said nothing: {stderr:?}"))
    }

    fn reached(&self) -> bool {
        matches!(self, Outcome::Reached(_))
    }
}

/// The attack run by `stress --sandbox MODE` on one board, with `extra`
/// flags: what it said, if anything, and the verdict.
fn judged(sandbox: &str, args: &[&str], extra: &[&str]) -> (Option<Outcome>, String) {
    let (stderr, verdict) = judged_stderr(sandbox, args, extra);
    (Outcome::said(&stderr), verdict)
}

/// The attack run by `stress --sandbox MODE` on one board, with `extra`
/// flags: the start of its standard error, and the verdict.
fn judged_stderr(sandbox: &str, args: &[&str], extra: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let program = command_line(args);
    let output = crate::support::seeded_stress(&program, 1)
        .args(["--sandbox", sandbox, "--json", json.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let run = &report["failure"]["run"];
    (
        run["program_stderr"].as_str().unwrap().to_owned(),
        run["verdict"].as_str().unwrap().to_owned(),
    )
}

/// The attack in the sandbox: what it said.
fn in_sandbox(args: &[&str], extra: &[&str]) -> Outcome {
    let (outcome, verdict) = judged("on", args, extra);
    let outcome = outcome.unwrap_or_else(|| panic!("the attack said nothing ({verdict})"));
    // Reached: exit status 42, a runtime error; blocked: no output.
    assert_eq!(
        verdict == "RTE",
        outcome.reached(),
        "{verdict}: {outcome:?}"
    );
    outcome
}

/// The attack run directly, as the caller, outside any sandbox.
fn outside(args: &[&str]) -> Outcome {
    let output = Command::new(attacker()).args(args).output().unwrap();
    Outcome::of(&stderr(&output))
}

/// Checks that the attack `args` is blocked in the sandbox.
fn assert_blocked_in_sandbox(args: &[&str]) {
    let outcome = in_sandbox(args, &[]);
    assert!(!outcome.reached(), "{outcome:?}");
}

#[test]
fn no_kernel_setting_opens_for_writing() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_in_sandbox(&["kernel"]);
    // The probe sees success: as root, outside, core_pattern opens (it is
    // never written); as another user, a file of the test's does.
    if is_root() {
        match outside(&["kernel"]) {
            Outcome::Reached(what) => {
                assert!(what.starts_with("/proc/sys/kernel/core_pattern "), "{what}");
            }
            blocked => panic!("the probe cannot see success: {blocked:?}"),
        }
    } else {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("setting");
        std::fs::write(&file, "").unwrap();
        assert!(outside(&["kernel", file.to_str().unwrap()]).reached());
    }
}

#[test]
fn the_program_is_never_root_and_has_no_capability() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_in_sandbox(&["privileges"]);
    if is_root() {
        assert!(outside(&["privileges"]).reached(), "the probe sees root");
    }
}

#[test]
fn a_file_only_root_may_read_stays_unreadable() {
    let test = "a_file_only_root_may_read_stays_unreadable";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A folder anyone may enter, shown in the sandbox, holding a file only
    // its owner may read: root's, when the test is root.
    let dir = tempfile::tempdir().unwrap();
    let shown = dir.path().join("shown");
    std::fs::create_dir(&shown).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&shown, std::fs::Permissions::from_mode(0o755)).unwrap();
    let secret = shown.join("secret");
    std::fs::write(&secret, "root's").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    let secret = secret.to_str().unwrap();
    let bind = ["--sandbox-bind", shown.to_str().unwrap()];
    let outcome = if is_root() {
        in_sandbox(&["root-files", "/nonexistent"], &bind)
    } else {
        in_sandbox(&["root-files"], &[])
    };
    assert!(!outcome.reached(), "{outcome:?}");
    if is_root() {
        // Named on the command line, it is refused rather than shown.
        let output = crate::support::run(&[
            "stress",
            "--program",
            &command_line(&["root-files", secret]),
            "--sandbox",
            "on",
            "--boards",
            "1",
        ]);
        assert!(
            stderr(&output).contains("only its owner may read it"),
            "{output:?}"
        );
        assert!(
            outside(&["root-files", secret]).reached(),
            "the probe reads"
        );
    } else {
        eprintln!("{test}: not root, so no file only root may read can be made to show the probe");
    }
}

/// Whether `stderr` of a run outside says a connection or datagram went
/// through.
fn reaches(args: &[&str]) -> bool {
    outside(args).reached()
}

/// Checks that the attack `args` is blocked in the sandbox, and reached
/// outside it (`probe` says what the probe does there).
fn assert_blocked_inside_reached_outside(args: &[&str], probe: &str) {
    assert_blocked_in_sandbox(args);
    assert!(reaches(args), "{probe}");
}

#[test]
fn no_socket_reaches_a_socket_file_of_the_machine() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("stream.sock");
    let listener = UnixListener::bind(&stream).unwrap();
    listener.set_nonblocking(true).unwrap();
    let datagram = dir.path().join("datagram.sock");
    let receiver = UnixDatagram::bind(&datagram).unwrap();
    receiver.set_nonblocking(true).unwrap();
    let (stream, datagram) = (stream.to_str().unwrap(), datagram.to_str().unwrap());
    // Named on the command line, the socket files are shown in the sandbox:
    // a read-only mount would not stop a connect; the filter must.
    for attack in [["unix-stream", stream], ["unix-datagram", datagram]] {
        let outcome = in_sandbox(&attack, &[]);
        assert!(!outcome.reached(), "{attack:?}: {outcome:?}");
    }
    assert_eq!(
        listener.accept().map(|_| ()).unwrap_err().kind(),
        ErrorKind::WouldBlock
    );
    assert_eq!(
        receiver.recv(&mut [0; 16]).unwrap_err().kind(),
        ErrorKind::WouldBlock,
        "a datagram came through"
    );
    assert!(reaches(&["unix-stream", stream]), "the probe connects");
    assert!(reaches(&["unix-datagram", datagram]), "the probe sends");
    assert_eq!(receiver.recv(&mut [0; 16]).unwrap(), 6);
}

#[test]
fn no_socket_reaches_an_abstract_name_or_the_loopback() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let name = format!("rotation-game-attack-{}", std::process::id());
    let address = <SocketAddr as SocketAddrExt>::from_abstract_name(name.as_bytes()).unwrap();
    let abstract_listener = UnixListener::bind_addr(&address).unwrap();
    abstract_listener.set_nonblocking(true).unwrap();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    tcp.set_nonblocking(true).unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    udp.set_nonblocking(true).unwrap();
    let (tcp_port, udp_port) = (
        tcp.local_addr().unwrap().port().to_string(),
        udp.local_addr().unwrap().port().to_string(),
    );
    let attacks = [
        ["abstract", name.as_str()],
        ["tcp", tcp_port.as_str()],
        ["udp", udp_port.as_str()],
    ];
    for attack in attacks {
        let outcome = in_sandbox(&attack, &[]);
        assert!(!outcome.reached(), "{attack:?}: {outcome:?}");
    }
    assert!(abstract_listener.accept().is_err());
    assert!(tcp.accept().is_err());
    assert!(udp.recv(&mut [0; 16]).is_err(), "a datagram came through");
    for attack in attacks {
        assert!(reaches(&attack), "the probe reaches it: {attack:?}");
    }
}

#[test]
fn neither_vsock_nor_netlink_sockets_can_be_made() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(&["families"], "the probe makes a netlink socket");
}

#[test]
fn no_io_uring() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_in_sandbox(&["io_uring"]);
    let outside = outside(&["io_uring"]);
    if !outside.reached() {
        eprintln!("no_io_uring: this kernel has no io_uring to show the probe: {outside:?}");
    }
}

#[test]
fn kernel_memory_held_for_the_program_counts_against_its_limit() {
    let test = "kernel_memory_held_for_the_program_counts_against_its_limit";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // 300 MiB held in socket pairs' buffers, then in pipes' buffers, under
    // a limit of 128 MiB: the run's cgroup counts them and stops it; without
    // one, socket pairs are refused and the kernel's per-user limit on pipe
    // buffers holds.
    for how in ["socketpairs", "pipes"] {
        let (outcome, verdict) = judged(
            "on",
            &["kernel-memory", how, "300"],
            &["--memory-limit", "128"],
        );
        match outcome {
            // Killed at the limit before it could say anything.
            None => assert_eq!(verdict, "MLE", "{how}"),
            Some(outcome) => assert!(!outcome.reached(), "{how}: {outcome:?}"),
        }
        let outside = outside(&["kernel-memory", how, "300"]);
        if is_root() || how == "socketpairs" {
            assert!(outside.reached(), "the probe holds it: {outside:?}");
        } else if !outside.reached() {
            eprintln!(
                "{test}: the kernel's per-user limit on pipe buffers stops the probe outside too"
            );
        }
    }
}

#[test]
fn nothing_outside_the_work_folder_is_writable() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A folder anyone may write to, shown in the sandbox.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let shown = dir.path().to_str().unwrap();
    let home = format!(
        "@{}",
        std::env::var("HOME").unwrap_or_else(|_| "/root".into())
    );
    let folder = format!("@{shown}");
    // Named with a leading `@`, which the attacker drops, so that the
    // command line does not show them in the sandbox (it would, read-only)
    // and the attack meets each place as the sandbox has it, or not at all.
    let places = [
        "@/",
        "@/usr",
        "@/usr/bin",
        "@/etc",
        "@/var/tmp",
        "@/home",
        "@/root",
        "@/run",
        "@/dev",
        "@/dev/pts",
        "@/proc",
        "@/sys",
        &home,
        &folder,
    ];
    let outcome = in_sandbox(
        &[&["write"], &places[..]].concat(),
        &["--sandbox-bind", shown],
    );
    assert!(!outcome.reached(), "{outcome:?}");
    // The work folder and /dev/shm are writable: the probe succeeds there.
    for work in ["@/tmp", "@/dev/shm"] {
        let outcome = in_sandbox(&["write", work], &[]);
        assert!(outcome.reached(), "{work}: {outcome:?}");
    }
    assert!(reaches(&["write", &folder]), "the probe writes outside");
}

#[test]
fn no_other_process_can_be_traced() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_in_sandbox(&["ptrace"]);
    let scope = std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope").unwrap_or_default();
    if scope.trim() < "2" {
        assert!(reaches(&["ptrace"]), "the probe traces its child");
    }
}

#[test]
fn no_new_user_namespace() {
    // Outside, root may always; others where the machine lets them (the
    // sandbox itself needs that, so it does here).
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(&["userns"], "the probe makes one");
}

#[test]
fn proc_shows_only_the_runs_own_processes() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(&["processes"], "the probe sees the machine's");
}

#[test]
fn no_process_outlives_its_run() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // The sleeper's seconds mark it.
    let marker = format!("600.{}1", std::process::id());
    let outcome = in_sandbox(&["leave", &marker], &[]);
    assert!(!outcome.reached(), "{outcome:?}");
    assert_eq!(processes_with(&marker), Vec::<u32>::new(), "still running");
    // Outside, it stays: the probe's sleeper can be found (and is ended).
    let marker = format!("600.{}2", std::process::id());
    outside(&["leave", &marker]);
    assert_eq!(
        kill_marked(&marker).len(),
        1,
        "the probe's sleeper is found"
    );
}

#[test]
fn a_run_leaves_nothing_for_the_next() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // Each run looks for files and a sleeper that the run before it left,
    // leaves them itself, then answers. One job: the runs follow each
    // other in the same job slot.
    let marker = format!("600.{}3", std::process::id());
    let program = command_line(&["inherit", &marker, BINARY, "solve"]);
    let campaign = |sandbox: &str| {
        crate::support::seeded_stress(&program, 3)
            .args(["--cases-per-run", "1", "--jobs", "1", "--sandbox", sandbox])
            .output()
            .unwrap()
    };
    let sandboxed = campaign("on");
    let left = survivors(&marker);
    // Without the sandbox, the second run finds what the first left in
    // /tmp: the probe sees what a run leaves.
    let unsandboxed = campaign("off");
    for folder in ["/tmp", "/dev/shm"] {
        let _ = std::fs::remove_file(format!("{folder}/{marker}-left"));
    }
    survivors(&marker);
    assert_eq!(
        sandboxed.status.code(),
        Some(0),
        "a run found what another left: {}",
        stdout(&sandboxed)
    );
    assert_eq!(left, Vec::<u32>::new(), "a sleeper outlived its run");
    assert_eq!(unsandboxed.status.code(), Some(1), "{unsandboxed:?}");
    assert!(
        stdout(&unsandboxed).contains(&format!("reached: /tmp/{marker}-left")),
        "{}",
        stdout(&unsandboxed)
    );
}

/// A folder of test files (`N.in`, `N.ans`), for `judge`.
fn test_folder(dir: &Path, files: usize) -> String {
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    for file in 1..=files {
        std::fs::write(data.join(format!("{file}.in")), TEST_INPUT).unwrap();
        std::fs::write(data.join(format!("{file}.ans")), TEST_ANSWER).unwrap();
    }
    data.to_str().unwrap().to_owned()
}

/// A test file's input and its answer.
const TEST_INPUT: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n";
const TEST_ANSWER: &str = "AC\n2\n";

/// `judge` of the attack on the test folder `data`, two files at a time,
/// with `extra` flags, run through `wrapper` (a command and its arguments
/// before the binary, or none): the verdicts.
fn judge_verdicts_with(
    wrapper: &[String],
    sandbox: &str,
    data: &str,
    attack: &[&str],
    extra: &[&str],
) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let program = command_line(attack);
    let judge = [
        "judge",
        "--program",
        &program,
        data,
        "--jobs",
        "2",
        "--sandbox",
        sandbox,
        "--no-fail-fast",
        "--json",
        json.to_str().unwrap(),
    ];
    let mut command = match wrapper.split_first() {
        Some((first, rest)) => {
            let mut command = Command::new(first);
            command.args(rest).arg(BINARY);
            command
        }
        None => Command::new(BINARY),
    };
    let output = command
        .args(judge)
        .args(extra)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["verdict"].as_str().unwrap().to_owned())
        .collect()
}

/// `judge` of the attack on `data` (four files) through `wrapper`, with
/// `extra` flags in the sandbox: blocked there (no output on any file), and
/// reached without it (a runtime error on every file), which `probe` says
/// the probe does.
fn judged_blocked_inside_reached_outside(
    wrapper: &[String],
    data: &str,
    attack: &[&str],
    extra: &[&str],
    probe: &str,
) {
    assert_eq!(
        judge_verdicts_with(wrapper, "on", data, attack, extra),
        ["PE"; 4]
    );
    assert!(
        judge_verdicts_with(wrapper, "off", data, attack, &[])
            .iter()
            .all(|verdict| verdict == "RTE"),
        "{probe}"
    );
}

/// The command and arguments that run a command (its words after them) in a
/// private mount namespace, after `mount --bind SOURCE TARGET` there: the
/// machine's mounts are untouched.
fn with_bind_mount(source: &str, target: &Path) -> Vec<String> {
    let script = format!("mount --bind {source} {} && exec \"$@\"", target.display());
    [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        &script,
        "sh",
    ]
    .map(str::to_owned)
    .to_vec()
}

#[test]
fn during_judge_neither_the_data_folder_nor_another_runs_files_are_in_reach() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let data = test_folder(dir.path(), 4);
    let marker = format!("attack-marker-{}", std::process::id());
    // Each run leaves a marker in its work folder, and looks for the
    // others' and for the data: a runtime error (42) if it finds any.
    let named = format!("@{data}");
    let attack = ["peek", named.as_str(), marker.as_str()];
    judged_blocked_inside_reached_outside(
        &[],
        &data,
        &attack,
        &[],
        "without the sandbox the probe reads the test files",
    );
}

#[test]
fn a_flood_of_standard_error_is_cut_counted_and_changes_no_verdict() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let flood = 64 << 20;
    let bytes = flood.to_string();
    // Then the right answers: accepted.
    let passing =
        crate::support::seeded_stress(&command_line(&["flood", &bytes, BINARY, "solve"]), 3)
            .args(["--sandbox", "on"])
            .output()
            .unwrap();
    assert_eq!(passing.status.code(), Some(0), "{passing:?}");
    // Then a crash: the report keeps the start and counts the rest.
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let failing: Output =
        crate::support::seeded_stress(&command_line(&["flood", &bytes, "/bin/false"]), 1)
            .args(["--sandbox", "on", "--json", json.to_str().unwrap()])
            .output()
            .unwrap();
    assert_eq!(failing.status.code(), Some(1), "{failing:?}");
    assert!(
        stdout(&failing).contains(&format!(
            "program stderr (the first 4096 of {flood} bytes): "
        )),
        "{failing:?}"
    );
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let run = &report["failure"]["run"];
    assert_eq!(run["verdict"], "RTE");
    assert_eq!(run["program_stderr"].as_str().unwrap().len(), 4096);
    assert_eq!(run["program_stderr_bytes"], flood);
}

/// The attack run by the library's runner in the sandbox without a cgroup
/// (whoever runs the test: root too), under a memory limit of `mib` MiB:
/// what it said.
fn without_a_cgroup(args: &[&str], mib: u64) -> Option<Outcome> {
    let program = Program::parse(&command_line(args), Path::new("/")).unwrap();
    let options = RunnerOptions {
        limits: Limits {
            cpu_time: Duration::from_secs(20),
            wall_time: Duration::from_secs(60),
            memory_bytes: mib * MIB,
            ..Limits::DEFAULT
        },
        sandbox: SandboxMode::On,
        cgroups: false,
        init: Some(BINARY.into()),
        ..RunnerOptions::default()
    };
    let run = Runner::new(program, &options).unwrap().run(b"").unwrap();
    Outcome::said(&String::from_utf8_lossy(&run.stderr))
}

/// How many KiB an attack of `kernel-memory` held, as it says.
fn held_kib(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|line| {
            line.strip_prefix("held ")?
                .strip_suffix(" KiB")?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("the attack says what it held: {stderr:?}"))
}

#[test]
fn memory_outside_the_address_space_is_counted_or_cannot_be_held() {
    let test = "memory_outside_the_address_space_is_counted_or_cannot_be_held";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // 200 MiB under a limit of 128 MiB, in a memfd written with write(), in
    // System V shared memory (attached, filled, detached) and message
    // queues, in files of /tmp and /dev/shm, and in pipes passed in flight
    // over a socket pair (SCM_RIGHTS) and closed. Through the binary: a
    // cgroup counts them as root (a memory limit exceeded), and as a user
    // without one they are refused or bounded. Through the library without
    // a cgroup, as root as well.
    for how in ["memfd", "sysv-shm", "sysv-msg", "tmpfs", "inflight"] {
        let attack = ["kernel-memory", how, "200"];
        let (outcome, verdict) = judged("on", &attack, &["--memory-limit", "128"]);
        match outcome {
            // Killed at the limit before it could say anything.
            None => assert_eq!(verdict, "MLE", "{how}"),
            Some(outcome) => assert!(!outcome.reached(), "{how}: {outcome:?}"),
        }
        let uncounted = without_a_cgroup(&attack, 128).expect("it says what it held");
        assert!(
            !uncounted.reached(),
            "{how}, without a cgroup: {uncounted:?}"
        );
        if is_root() || how != "inflight" {
            let outside = outside(&attack);
            assert!(outside.reached(), "the probe holds it: {how}: {outside:?}");
        } else {
            // A user's pipes hold 8 KiB each past the kernel's per-user
            // soft limit, and the probe would put tens of thousands of them
            // in flight: more than the user's other processes (the other
            // tests' runners) may then send.
            eprintln!("{test}: not root, so the probe of {how} outside is not run");
        }
    }
}

#[test]
fn record_locks_which_no_cgroup_counts_cannot_be_held() {
    // 5,000 byte-range locks on one file: each a kernel object that no
    // memory cgroup charges, and nothing else bounds their number (the
    // kernel's list of them grows as long as the program likes).
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(&["record-locks", "5000"], "the probe holds them");
}

#[test]
fn posix_message_queues_hold_no_more_than_the_runs_own_limit() {
    let test = "posix_message_queues_hold_no_more_than_the_runs_own_limit";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let attack = ["kernel-memory", "posix-mq", "64"];
    let (stderr_inside, verdict) = judged_stderr("on", &attack, &[]);
    assert_eq!(verdict, "PE", "blocked: no output");
    let inside = held_kib(&stderr_inside);
    assert!(inside <= 512, "{inside} KiB in the sandbox");
    // Outside, the caller's own RLIMIT_MSGQUEUE (800 KiB by default) holds,
    // and the probe holds more than the sandbox lets it.
    let output = Command::new(attacker()).args(attack).output().unwrap();
    let outside = held_kib(&stderr(&output));
    if outside <= 512 {
        eprintln!(
            "{test}: this machine's RLIMIT_MSGQUEUE is as low as the sandbox's: the probe held {outside} KiB outside, and cannot show success"
        );
    }
}

#[test]
fn the_counts_the_kernel_keeps_per_user_are_bounded_per_run() {
    // Inotify instances and queued signals: counted per user, in the
    // caller's own counts too when the judge is not root.
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(
        &["user-counts"],
        "the probe makes 128 inotify instances and queues thousands of signals",
    );
}

#[test]
fn the_program_learns_nothing_of_the_machines_cgroups_or_paths() {
    let test = "the_program_learns_nothing_of_the_machines_cgroups_or_paths";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_in_sandbox(&["host-view"]);
    // Without the sandbox, its cgroup is the run's, below the runner's.
    let (outcome, _) = judged("off", &["host-view"], &[]);
    match outcome {
        Some(outcome) if outcome.reached() => {}
        other => eprintln!("{test}: this machine shows no cgroup but / to the probe: {other:?}"),
    }
}

/// A folder of the system folders with a file in it that everyone may read:
/// one to hide.
fn system_folder_with_a_file() -> Option<(String, String)> {
    [
        "/usr/share/doc",
        "/usr/share/common-licenses",
        "/usr/include",
    ]
    .into_iter()
    .find_map(|folder| {
        let file = std::fs::read_dir(folder)
            .ok()?
            .flatten()
            .find_map(|entry| {
                let path = entry.path();
                (path.is_file() && std::fs::File::open(&path).is_ok()).then_some(path)
            })?;
        Some((folder.to_owned(), file.to_str()?.to_owned()))
    })
}

#[test]
fn a_hidden_path_inside_a_system_folder_is_hidden() {
    let test = "a_hidden_path_inside_a_system_folder_is_hidden";
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let Some((folder, file)) = system_folder_with_a_file() else {
        panic!("{test}: no system folder with a file everyone may read");
    };
    // Not named on the command line (the leading '@'): the system folders
    // show it, and --hide must cover it there.
    let named = format!("@{file}");
    let outcome = in_sandbox(&["read", &named], &["--hide", &folder]);
    assert!(!outcome.reached(), "{outcome:?}");
    assert!(
        in_sandbox(&["read", &named], &[]).reached(),
        "shown unless hidden"
    );
    assert!(outside(&["read", &named]).reached(), "the probe reads it");
    // A hidden path that holds what programs need is refused, naming both.
    let output = crate::support::seeded_stress(&command_line(&["read", &named]), 1)
        .args(["--sandbox", "on", "--hide", "/usr"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("cannot hide /usr: the sandbox must show /usr"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn during_judge_test_data_under_a_system_folder_or_bound_into_one_stays_hidden() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // Only root can make a folder under /usr, or a mount;
    // a_hidden_path_inside_a_system_folder_is_hidden covers a user's --hide.
    require!(is_root(), "root");
    let marker = format!("attack-marker-{}", std::process::id());
    // A package under /usr/local, as a setter may keep one.
    let base = ["/usr/local/share", "/usr/local", "/usr/share"]
        .into_iter()
        .find(|folder| Path::new(folder).is_dir())
        .unwrap();
    let under_usr = tempfile::Builder::new()
        .prefix("rotation-game-attack-")
        .tempdir_in(base)
        .unwrap();
    std::fs::set_permissions(under_usr.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = test_folder(under_usr.path(), 4);
    let attack = ["peek", &format!("@{data}"), &marker];
    judged_blocked_inside_reached_outside(
        &[],
        &data,
        &attack,
        &[],
        "the probe reads the test files",
    );
    // The test data in /tmp, bound into /usr by a mount of the judge's own
    // (a private mount namespace: the machine's mounts are untouched): the
    // same folder at a second path, which the sandbox shows.
    let outside_usr = tempfile::tempdir().unwrap();
    let data = test_folder(outside_usr.path(), 4);
    let alias = under_usr.path().join("bound");
    std::fs::create_dir(&alias).unwrap();
    let wrapper = with_bind_mount(outside_usr.path().to_str().unwrap(), &alias);
    let alias_data = format!("@{}/data", alias.display());
    judged_blocked_inside_reached_outside(
        &wrapper,
        &data,
        &["peek", alias_data.as_str(), &marker],
        &[],
        "the probe reads the test files at the second path",
    );
    // One answer file bound by itself into /usr.
    let one = under_usr.path().join("one.ans");
    std::fs::write(&one, "").unwrap();
    let wrapper = with_bind_mount(&format!("{data}/1.ans"), &one);
    let named = format!("@{}", one.display());
    judged_blocked_inside_reached_outside(
        &wrapper,
        &data,
        &["read", named.as_str()],
        &[],
        "the probe reads the answer bound into /usr",
    );
}

#[test]
fn an_answer_with_another_name_is_refused_not_shown() {
    // A hard link could lie anywhere the program is shown, and nothing
    // finds it: the judge refuses the file, by name.
    let dir = tempfile::tempdir().unwrap();
    let data = test_folder(dir.path(), 4);
    std::fs::hard_link(format!("{data}/2.ans"), dir.path().join("elsewhere.ans")).unwrap();
    let output = crate::support::run(&["judge", "--program", &format!("{BINARY} solve"), &data]);
    assert_ne!(output.status.code(), Some(0), "{output:?}");
    assert!(
        stderr(&output).contains(&format!("{data}/2.ans has 2 names (hard links)")),
        "{}",
        stderr(&output)
    );
    // With --hide too.
    let file = dir.path().join("elsewhere.ans");
    let output = crate::support::seeded_stress(&format!("{BINARY} solve"), 1)
        .args(["--hide", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("has 2 names (hard links)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn answers_a_package_links_to_outside_it_stay_hidden() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // The answers lie in a folder the program is shown (--sandbox-bind);
    // the package's .ans files are links to them.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let shown = dir.path().join("shown");
    let data = dir.path().join("package/data");
    std::fs::create_dir_all(&shown).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::set_permissions(&shown, std::fs::Permissions::from_mode(0o755)).unwrap();
    for file in 1..=4 {
        std::fs::write(data.join(format!("{file}.in")), TEST_INPUT).unwrap();
        let answer = shown.join(format!("{file}.ans"));
        std::fs::write(&answer, TEST_ANSWER).unwrap();
        std::fs::set_permissions(&answer, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&answer, data.join(format!("{file}.ans"))).unwrap();
    }
    let marker = format!("attack-marker-{}", std::process::id());
    let named = format!("@{}", shown.display());
    let attack = ["peek", named.as_str(), &marker];
    let bind = ["--sandbox-bind", shown.to_str().unwrap()];
    judged_blocked_inside_reached_outside(
        &[],
        data.to_str().unwrap(),
        &attack,
        &bind,
        "the probe reads the answers",
    );
}

#[test]
fn a_hostile_package_gets_an_error_naming_the_file_never_a_hang() {
    // Test files that are a FIFO (reading it would wait for ever), a link
    // to /dev/zero (never ends) and a sparse file of 10 GiB: each refused
    // at once, by name.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("1.ans"), "AC\n2\n").unwrap();
    let input = data.join("1.in");
    let fifo = std::ffi::CString::new(input.to_str().unwrap()).unwrap();
    let make_fifo = || {
        // SAFETY: mkfifo reads the NUL-terminated path it is given.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    };
    let make_device = || std::os::unix::fs::symlink("/dev/zero", &input).unwrap();
    let make_huge = || {
        std::fs::File::create(&input)
            .unwrap()
            .set_len(10 << 30)
            .unwrap();
    };
    let makers: [(&str, &dyn Fn()); 3] = [
        ("is a FIFO", &make_fifo),
        ("is a device", &make_device),
        ("more than a test file may", &make_huge),
    ];
    for (said, make) in makers {
        make();
        let started = std::time::Instant::now();
        let output = crate::support::run(&[
            "judge",
            "--program",
            &format!("{BINARY} solve"),
            data.to_str().unwrap(),
            "--sandbox",
            "off",
        ]);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{said}: it hung"
        );
        assert_ne!(output.status.code(), Some(0), "{output:?}");
        let message = stderr(&output);
        assert!(
            message.contains(&input.display().to_string()) && message.contains(said),
            "{said}: {message}"
        );
        std::fs::remove_file(&input).unwrap();
    }
}

#[test]
fn a_named_path_that_leads_to_the_whole_machine_or_its_proc_is_refused() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    for (target, reason, probe) in [
        ("/", "the whole machine", "etc/passwd"),
        ("/proc", "inside the machine's /proc", "1/cmdline"),
    ] {
        let link = dir.path().join(format!("link{}", target.replace('/', "-")));
        std::os::unix::fs::symlink(target, &link).unwrap();
        let through = format!("{}/{probe}", link.display());
        // A script naming the link, and a program given it: both refused.
        let link_text = link.display().to_string();
        for program in [
            format!("{} read {through}; : {link_text}", attacker()),
            command_line(&["read", &link_text]),
        ] {
            let output = crate::support::seeded_stress(&program, 1)
                .args(["--sandbox", "on"])
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(2), "{output:?}");
            let message = stderr(&output);
            assert!(
                message.contains(&format!("cannot show {link_text}"))
                    && message.contains(&format!("in the sandbox: it leads to {target}"))
                    && message.contains(reason),
                "{message}"
            );
        }
        assert!(
            outside(&["read", &through]).reached(),
            "the probe reads {through}"
        );
    }
}

#[test]
fn a_root_judge_never_copies_a_file_a_link_leads_to_behind_a_private_folder() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A judge that is not root runs programs as itself, and copies nothing.
    require!(is_root(), "root");
    // A file everyone may read, in a folder only root may enter; a link to
    // it in a folder everyone may enter.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let private = dir.path().join("private");
    std::fs::create_dir(&private).unwrap();
    let secret = private.join("secret");
    std::fs::write(&secret, "root's").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    let link = link.to_str().unwrap();
    let output = crate::support::seeded_stress(&command_line(&["read", link]), 1)
        .args(["--sandbox", "on"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("leads through a symbolic link to"),
        "{}",
        stderr(&output)
    );
    assert!(outside(&["read", link]).reached(), "the probe reads it");
}

/// The library's runner of `args` without a cgroup, in the sandbox or not,
/// with a time limit of half a second: the run.
fn run_without_a_cgroup(args: &[&str], sandbox: SandboxMode) -> rotation_game::runner::Run {
    let program = Program::parse(&command_line(args), Path::new("/")).unwrap();
    let options = RunnerOptions {
        limits: Limits {
            cpu_time: Duration::from_millis(500),
            wall_time: Duration::from_secs(20),
            ..Limits::DEFAULT
        },
        sandbox,
        cgroups: false,
        init: Some(BINARY.into()),
        ..RunnerOptions::default()
    };
    let runner = Runner::new(program, &options).unwrap();
    runner
        .run(b"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n")
        .unwrap()
}

#[test]
fn cpu_time_spent_in_processes_the_kernel_reaps_by_itself_counts() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A second and a half of CPU in children of 5 ms each, whose parent
    // ignores SIGCHLD, under a limit of half a second: with a cgroup (root,
    // the binary), and without one in the sandbox (the task clock), a time
    // limit exceeded.
    let attack = ["auto-reaped", "1500", BINARY, "solve"];
    let (_, verdict) = judged(
        "on",
        &attack,
        &["--time-limit", "0.5", "--wall-limit", "20"],
    );
    assert_eq!(verdict, "TLE");
    let perf_allowed = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .is_ok_and(|level| level.trim().parse::<i32>().is_ok_and(|level| level <= 2));
    if can_run(
        perf_allowed,
        "kernel.perf_event_paranoid at most 2",
        "its run without a cgroup",
    ) {
        let run = run_without_a_cgroup(&attack, SandboxMode::On);
        assert_eq!(
            run.termination,
            rotation_game::runner::Termination::CpuTimeLimit,
            "{run:?}"
        );
        assert!(run.cpu_time >= Duration::from_secs(1), "{:?}", run.cpu_time);
    }
    // The probe: without a sandbox or a cgroup, nothing counts them.
    let run = run_without_a_cgroup(&attack, SandboxMode::Off);
    assert_eq!(
        run.termination,
        rotation_game::runner::Termination::Exited(0),
        "the probe hides its CPU time: {run:?}"
    );
    assert!(
        run.cpu_time < Duration::from_millis(500),
        "{:?}",
        run.cpu_time
    );
}

#[test]
fn no_pseudo_terminal_from_the_machines_shared_pool() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    assert_blocked_inside_reached_outside(&["terminal"], "the probe opens one");
}

#[test]
fn without_a_cgroup_a_run_cannot_run_the_files_it_writes() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A copy of itself that it may run but not read, which would run
    // without the task clock that counts the CPU time of a run without a
    // cgroup.
    let uncounted = without_a_cgroup(&["exec-written"], 128).expect("it says what it ran");
    assert!(!uncounted.reached(), "{uncounted:?}");
    assert!(outside(&["exec-written"]).reached(), "the probe runs it");
}
