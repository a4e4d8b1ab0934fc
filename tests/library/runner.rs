//! The runner as a library user (such as a `judge` command) drives it: one
//! program, one input, a [`Run`] back. These tests pin what the command
//! line cannot choose: the measures without a cgroup, and how a program's
//! end comes back through the sandbox's init.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use rotation_game::checker::{CheckOptions, Checker};
use rotation_game::judging::Judgement;
use rotation_game::runner::{
    Exit, FIRST_UID, Limits, MIB, Measurement, Program, Run, Runner, RunnerOptions, SandboxMode,
    Termination, UIDS,
};

use crate::support::compile::compile;
use crate::support::isolation::isolation;
use crate::support::process_tree::descendants_of;
use crate::support::processes::{KillMarked, processes_with};
use crate::support::programs::{HOG, SPINNER, script};
use crate::support::skip::{can_run, require};

const BINARY: &str = env!("CARGO_BIN_EXE_rotation-game");

fn limits() -> Limits {
    Limits {
        cpu_time: Duration::from_millis(500),
        wall_time: Duration::from_secs(5),
        memory_bytes: 64 * MIB,
        ..Limits::DEFAULT
    }
}

/// A runner for `command`, this package's binary as the sandbox's init.
fn runner(command: &str, sandbox: SandboxMode, cgroups: bool) -> Runner {
    let program = Program::parse(command, Path::new("/")).unwrap();
    let options = RunnerOptions {
        limits: limits(),
        sandbox,
        cgroups,
        init: Some(BINARY.into()),
        ..RunnerOptions::default()
    };
    Runner::new(program, &options).unwrap()
}

fn run(command: &str, sandbox: SandboxMode, cgroups: bool) -> Run {
    runner(command, sandbox, cgroups).run(b"").unwrap()
}

#[test]
fn through_the_sandbox_a_signal_is_a_signal_and_a_status_a_status() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let dir = tempfile::tempdir().unwrap();
    let crash = script(dir.path(), "crash.sh", "kill -SEGV $$");
    let crashed = run(&crash, SandboxMode::On, true);
    assert_eq!(
        crashed.termination,
        Termination::Signalled {
            signal: 11,
            possibly_out_of_memory: false
        }
    );
    // bubblewrap alone would report both as 139.
    let exited = run("exit 139", SandboxMode::On, true);
    assert_eq!(exited.termination, Termination::Exited(139));
    let killed = run(
        &script(dir.path(), "kill.sh", "kill -KILL $$"),
        SandboxMode::On,
        true,
    );
    assert!(
        matches!(killed.termination, Termination::Signalled { signal: 9, .. }),
        "{killed:?}"
    );
}

#[test]
fn the_run_s_own_mounts_allow_no_set_uid_program_nor_device_and_without_a_cgroup_no_program() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // The options of each mount point the init makes, from inside.
    let options_of = |cgroups: bool| {
        let run = run("cat /proc/self/mountinfo", SandboxMode::On, cgroups);
        assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
        let table = String::from_utf8(run.stdout).unwrap();
        let of = |point: &str| -> Vec<String> {
            // `ID PARENT MAJ:MIN ROOT POINT OPTIONS ...`: the last mount
            // at a point is the one seen.
            let line = table
                .lines()
                .rfind(|line| line.split(' ').nth(4) == Some(point))
                .unwrap_or_else(|| panic!("no mount at {point}:\n{table}"));
            let options = line.split(' ').nth(5).unwrap();
            options.split(',').map(str::to_owned).collect()
        };
        ["/tmp", "/dev/shm", "/proc", "/proc/sys"].map(of)
    };
    let has = |options: &[String], flag: &str| options.iter().any(|option| option == flag);
    for cgroups in [true, false] {
        let [tmp, shm, proc, proc_sys] = options_of(cgroups);
        for (point, options) in [
            ("/tmp", &tmp),
            ("/dev/shm", &shm),
            ("/proc", &proc),
            ("/proc/sys", &proc_sys),
        ] {
            assert!(
                has(options, "nosuid") && has(options, "nodev"),
                "{point}: {options:?}"
            );
        }
        // The kernel's settings are shown, never writable.
        assert!(has(&proc_sys, "ro"), "/proc/sys {proc_sys:?}");
        assert!(has(&proc, "noexec"), "{proc:?}");
        // Without a cgroup, a program written in the run could run
        // without the task clock that counts its CPU time.
        let without_cgroup = !cgroups || isolation().cgroup_missing.is_some();
        assert_eq!(
            has(&tmp, "noexec"),
            without_cgroup,
            "/tmp {tmp:?}, cgroups {cgroups}"
        );
        assert_eq!(has(&shm, "noexec"), without_cgroup, "/dev/shm {shm:?}");
    }
}

#[test]
fn a_root_judge_runs_a_program_only_its_owner_may_reach_from_a_sealed_copy() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // A judge that is not root runs programs as itself, and shows the file.
    require!(rotation_game::runner::sandbox::running_as_root(), "root");
    // In a folder only its owner (root) may enter, as `mktemp -d` makes
    // them: the run's own uid cannot reach it, so the sandbox shows a copy.
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let program = script(dir.path(), "answer.sh", "echo from the copy; id -u");
    let run = run(&program, SandboxMode::On, true);
    assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
    let stdout = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let uid: u32 = lines[1].parse().unwrap();
    assert_eq!(lines[0], "from the copy");
    assert!(
        (FIRST_UID..FIRST_UID + UIDS).contains(&uid),
        "the run's uid is {uid}, not one of the sandbox's"
    );
}

#[test]
fn the_sandbox_gives_a_fresh_work_dir_as_tmpdir_and_nothing_else_to_write() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    // The work folder is the sandbox's /tmp, empty, and the program's own:
    // what it writes there never reaches the machine's /tmp.
    let command = "ls -A; [ \"$TMPDIR\" = \"$PWD\" ] && [ \"$PWD\" = /tmp ] && echo tmpdir; echo x > /tmp/rotation-game-test-x && echo wrote; echo x > /rotation-game-test-x || echo refused";
    for _ in 0..2 {
        let output = run(command, SandboxMode::On, true);
        assert_eq!(output.termination, Termination::Exited(0));
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "tmpdir\nwrote\nrefused\n",
            "the second run finds nothing of the first's"
        );
    }
    assert!(!Path::new("/tmp/rotation-game-test-x").exists());
    assert!(!Path::new("/rotation-game-test-x").exists());
}

#[test]
fn without_a_cgroup_memory_is_an_address_space_limit_and_the_verdict_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let hog = compile(dir.path(), "hog", HOG);
    for sandbox in [SandboxMode::Off, SandboxMode::Auto] {
        let runner = runner(&hog, sandbox, false);
        assert_eq!(runner.isolation().measurement, Measurement::Rusage);
        let run = runner.run(b"").unwrap();
        assert_eq!(run.termination, Termination::Exited(3), "{run:?}");
        let checker = Checker::new(&[]);
        let judgement = Judgement::of(
            &run,
            runner.limits(),
            false,
            &checker,
            &[],
            &CheckOptions::default(),
        );
        assert!(matches!(
            judgement,
            Judgement::RuntimeError {
                exit: Exit::Status(3),
                address_space_limit: Some(_),
                ..
            }
        ));
        assert!(
            judgement.to_string().ends_with(
                "; memory is limited here by address space (64 MiB per process, no cgroup), so running out of it shows as a runtime error"
            ),
            "{judgement}"
        );
    }
}

#[test]
fn without_a_cgroup_cpu_time_is_measured_by_polling() {
    let dir = tempfile::tempdir().unwrap();
    let spinner = compile(dir.path(), "spin", SPINNER);
    for sandbox in [SandboxMode::Off, SandboxMode::Auto] {
        let run = run(&spinner, sandbox, false);
        assert_eq!(run.termination, Termination::CpuTimeLimit, "{run:?}");
        assert!(run.cpu_time >= Duration::from_millis(500), "{run:?}");
        // Stopped by the polls, long before the backstop RLIMIT_CPU (2 s)
        // could: a safety bound, not a timing. Well below the backstop,
        // since a run the polls do not stop (they see no CPU time, or the
        // kill misses) ends by the backstop's SIGXCPU, also a time limit,
        // with a CPU time a tick or two under 2 s.
        assert!(run.cpu_time < Duration::from_millis(1500), "{run:?}");
    }
}

#[test]
fn peak_memory_is_measured_with_and_without_a_cgroup() {
    let dir = tempfile::tempdir().unwrap();
    let hog = compile(dir.path(), "hog", HOG);
    let command = format!("{hog} 128");
    let mut modes = vec![false];
    let cgroup = matches!(isolation().measurement, Measurement::Cgroup(_));
    if can_run(cgroup, "a writable cgroup", "its form with a cgroup") {
        modes.push(true);
    }
    // Without a cgroup, the runner's own wait4 (no sandbox) or the run's
    // PID 1's (in the sandbox) measures it.
    for (cgroups, sandbox) in modes
        .into_iter()
        .flat_map(|cgroups| [(cgroups, SandboxMode::Off), (cgroups, SandboxMode::Auto)])
    {
        let program = Program::parse(&command, Path::new("/")).unwrap();
        let options = RunnerOptions {
            limits: Limits {
                memory_bytes: 512 * MIB,
                ..limits()
            },
            cgroups,
            sandbox,
            init: Some(BINARY.into()),
            ..RunnerOptions::default()
        };
        let run = Runner::new(program, &options).unwrap().run(b"").unwrap();
        assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
        let peak = run.peak_memory_bytes;
        // The runner's own wait4 sees the largest resident size of its
        // child since the fork, which the kernel carries across the exec:
        // the runner's own at the fork (this test process's, hundreds of
        // MiB under `cargo test`) counts too, so only a lower bound holds
        // there (see the runner's module docs).
        let most = if !cgroups && sandbox == SandboxMode::Off {
            u64::MAX
        } else {
            200 * MIB
        };
        assert!(
            (128 * MIB..most).contains(&peak),
            "cgroups {cgroups}, sandbox {sandbox:?}: {peak}"
        );
    }
}

/// Starts a child that allocates and touches 64 MiB at a time without
/// end (exiting 3 when an allocation fails), and sleeps for a minute
/// itself.
const FORKED_HOG: &str = r#"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        for (long chunk = 64L << 20;;) {
            char *block = malloc(chunk);
            if (!block) return 3;
            memset(block, 1, chunk);
        }
    }
    sleep(60);
    return 0;
}
"#;

/// The cgroup's out-of-memory kill of one process of a run (here a child
/// whose parent would go on to sleep) ends the whole run at once, as a
/// memory limit, rather than at the wall clock.
#[test]
fn an_out_of_memory_kill_of_one_process_ends_the_whole_run() {
    let cgroup = matches!(isolation().measurement, Measurement::Cgroup(_));
    require!(cgroup, "a writable cgroup");
    let dir = tempfile::tempdir().unwrap();
    let forked_hog = compile(dir.path(), "forked-hog", FORKED_HOG);
    for sandbox in [SandboxMode::Off, SandboxMode::Auto] {
        let run = run(&forked_hog, sandbox, true);
        assert_eq!(
            run.termination,
            Termination::MemoryLimit,
            "{sandbox:?}: {run:?}"
        );
    }
}

/// A program killed by SIGKILL while the machine counted an out-of-memory
/// kill (here one this test causes in a run's cgroup, which the machine's
/// count includes) may have been the machine's victim, and its verdict
/// says so; counts that others' kills raise too only add to it.
#[test]
fn a_sigkill_while_the_machine_counts_an_oom_kill_may_be_the_machines() {
    let cgroup = matches!(isolation().measurement, Measurement::Cgroup(_));
    require!(cgroup, "a writable cgroup");
    let dir = tempfile::tempdir().unwrap();
    let (started, go) = (dir.path().join("started"), dir.path().join("go"));
    let killed = script(
        dir.path(),
        "killed.sh",
        &format!(
            "touch {}; while [ ! -e {} ]; do sleep 0.01; done; kill -KILL $$",
            started.display(),
            go.display()
        ),
    );
    let hog = compile(dir.path(), "hog", HOG);
    let killed = std::thread::scope(|scope| {
        let killed = scope.spawn(|| run(&killed, SandboxMode::Off, false));
        // The machine's count is read before the program starts.
        while !started.exists() {
            assert!(!killed.is_finished(), "the script ended before it started");
            std::thread::sleep(Duration::from_millis(10));
        }
        let hogged = run(&hog, SandboxMode::Off, true);
        assert_eq!(hogged.termination, Termination::MemoryLimit, "{hogged:?}");
        std::fs::write(&go, "").unwrap();
        killed.join().unwrap()
    });
    assert_eq!(
        killed.termination,
        Termination::Signalled {
            signal: libc::SIGKILL,
            possibly_out_of_memory: true
        }
    );
}

/// A runner's slots end by themselves when it goes (each zygote exits,
/// then its bubblewrap, each reaped by its parent), so that the CPU time
/// of every run reaches the runner's own children's: what the runner_cpu
/// bench measures a campaign by. The count only grows, so other tests'
/// children cannot make this fail.
#[test]
fn a_sandboxed_runs_cpu_time_reaches_the_runners_children_when_it_goes() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let children_cpu = || {
        // SAFETY: getrusage fills the zeroed struct it is given.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
            usage
        };
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    let before = children_cpu();
    // A run that ends by itself: the processes killed with a run's PID
    // namespace are reaped by the kernel, and their time is counted nowhere.
    let counting = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done";
    let runner = runner(counting, SandboxMode::On, false);
    let run = runner.run(b"").unwrap();
    assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
    drop(runner);
    let reaped = children_cpu() - before;
    // At least half: the run's PID 1 may count it by a task clock, which
    // need not agree with wait4's count to the tick.
    assert!(
        reaped >= run.cpu_time / 2,
        "{reaped:?} reaped, the run used {:?}",
        run.cpu_time
    );
}

/// A run stopped at its wall limit is killed there, in the sandbox too
/// where no cgroup kills it: its PID 1, and so its whole PID namespace.
#[test]
fn a_sleeper_in_the_sandbox_is_killed_at_the_wall_limit_without_a_cgroup() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let program = Program::parse("sleep 60", Path::new("/")).unwrap();
    let options = RunnerOptions {
        limits: Limits {
            wall_time: Duration::from_millis(500),
            ..limits()
        },
        sandbox: SandboxMode::On,
        cgroups: false,
        init: Some(BINARY.into()),
        ..RunnerOptions::default()
    };
    let started = std::time::Instant::now();
    let run = Runner::new(program, &options).unwrap().run(b"").unwrap();
    assert_eq!(run.termination, Termination::WallTimeLimit, "{run:?}");
    // Killed, not waited for: a bound far from both, not a timing.
    let took = started.elapsed();
    assert!(took < Duration::from_secs(30), "{took:?}");
}

/// The slots a runner's `Debug` lists as free: each one's bubblewrap
/// process and uid.
fn free_slots(runner: &Runner) -> Vec<(i32, String)> {
    let text = format!("{runner:?}");
    text.split("Slot { bwrap: ")
        .skip(1)
        .map(|slot| {
            let (bwrap, rest) = slot.split_once(", uid: ").unwrap();
            let uid = rest.split_once(" }").unwrap().0;
            (bwrap.parse().unwrap(), uid.to_owned())
        })
        .collect()
}

/// A runner keeps its slot between runs, one after another, and replaces
/// one whose bubblewrap has died (killed by the machine, say) by a new
/// one with the same uid, so that the run asked for still runs.
#[test]
fn a_slot_is_kept_between_runs_and_replaced_when_its_sandbox_dies() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let runner = runner("/bin/cat", SandboxMode::On, false);
    let echo = |input: &[u8]| {
        let run = runner.run(input).unwrap();
        assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
        assert_eq!(run.stdout, input);
    };
    echo(b"first");
    let slots = free_slots(&runner);
    assert_eq!(slots.len(), 1, "{runner:?}");
    echo(b"second");
    assert_eq!(free_slots(&runner), slots, "the same slot, kept");
    let (bwrap, uid) = slots[0].clone();
    // The whole slot: bubblewrap and its zygote (which would go on making
    // runs without it).
    let slot = [vec![bwrap as u32], descendants_of(bwrap as u32)].concat();
    assert!(slot.len() > 1, "the zygote is below bubblewrap");
    for pid in slot {
        // SAFETY: kill has no memory-safety preconditions; the processes
        // are the slot's, children of this process and theirs.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
    echo(b"after its sandbox died");
    let replaced = free_slots(&runner);
    assert_eq!(replaced.len(), 1, "{runner:?}");
    assert_ne!(replaced[0].0, bwrap, "a new bubblewrap");
    assert_eq!(replaced[0].1, uid, "the same uid");
}

/// A slot's sandbox is not tied to the thread that first needed it: Linux
/// sends a child's parent-death signal when the thread that started it
/// ends, and a runner's runs come from worker threads that end (a
/// campaign's pool) while the runner goes on (the shrinking after it). Runs
/// made after those threads ended are made and end as the program does.
#[test]
fn runs_go_on_after_the_threads_that_started_the_slots_are_gone() {
    require!(isolation().sandboxed, "bubblewrap (bwrap)");
    let runner = runner("/bin/cat", SandboxMode::On, false);
    for round in 0..20 {
        // Two threads at once, so that the runner starts a second slot.
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    for _ in 0..3 {
                        let run = runner.run(b"x").unwrap();
                        assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
                    }
                });
            }
        });
        // The threads are ending: anything tied to them dies now, while
        // the next runs start.
        for _ in 0..2 {
            let run = runner.run(b"after").unwrap();
            assert_eq!(
                run.termination,
                Termination::Exited(0),
                "round {round}: {run:?}"
            );
            assert_eq!(run.stdout, b"after", "round {round}");
        }
    }
}

/// Without a sandbox, the end of a run kills the program's process group;
/// a daemon that starts a session of its own has left that group, and
/// only the run's cgroup still holds it: the cgroup's kill ends it too.
#[test]
fn a_daemon_in_a_session_of_its_own_ends_with_the_runs_cgroup() {
    let cgroup = matches!(isolation().measurement, Measurement::Cgroup(_));
    require!(cgroup, "a writable cgroup");
    let dir = tempfile::tempdir().unwrap();
    // A number no other process's command line holds: the daemon's mark.
    let marker = format!("3100.{}", std::process::id());
    // The daemon is killed even when the test fails.
    let _reap = KillMarked(marker.clone());
    // The program waits until its daemon has left the process group (it
    // writes `started` after setsid), so that the group's kill at the
    // end of the run cannot reach it first.
    let started = dir.path().join("started");
    let daemon = script(
        dir.path(),
        "daemon.sh",
        &format!(
            "setsid sh -c 'echo $$ > {started}; exec sleep {marker}' </dev/null >/dev/null 2>&1 &\n\
             while [ ! -s {started} ]; do sleep 0.01; done\nexit 0",
            started = started.display()
        ),
    );
    let run = run(&daemon, SandboxMode::Off, true);
    assert_eq!(run.termination, Termination::Exited(0), "{run:?}");
    assert!(
        std::fs::read_to_string(&started).is_ok_and(|pid| !pid.trim().is_empty()),
        "the daemon never started"
    );
    // SIGKILL is sent before `run` returns; the kernel may take a moment
    // to remove the process (a bound far from it, not a timing).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !processes_with(&marker).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_with(&marker),
        Vec::<u32>::new(),
        "the daemon outlived its run"
    );
}
