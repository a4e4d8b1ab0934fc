//! The sandbox's seccomp filter: no socket that reaches anything outside
//! the run, and none of the kernel's interfaces that a contest program never
//! needs and an attacker would.
//!
//! # What it refuses
//!
//! - **Sockets.** `socket` fails for every address family (`EACCES`): no
//!   network (TCP, UDP, vsock, which no network namespace separates),
//!   no netlink, no Unix-domain socket to connect to a socket file or an
//!   abstract name. `socketpair` is allowed only for Unix-domain stream and
//!   sequenced-packet sockets, which are connected to each other and to
//!   nothing else (runtimes use them between their own processes), and only
//!   where the run has a memory cgroup, which counts their buffers against
//!   the memory limit (without one, nothing would count them: they are
//!   refused too). A datagram pair is refused, for a datagram socket can
//!   `sendto` any socket file by its path. `connect`, `bind`, `listen` and
//!   `accept` are refused: no socket the program can have needs them.
//! - **Memory outside the address space, where no memory cgroup counts
//!   it**: `memfd_create` and System V shared memory, message queues and
//!   semaphore sets (`shmget`, `msgget`, `semget`; i386's `ipc`, which
//!   multiplexes them) fail with `ENOSYS`, as on a kernel built without
//!   them. None of it counts against an address-space limit, and a
//!   `memfd` is limited neither by `RLIMIT_FSIZE` (one file at a time) nor
//!   by any mount's size. With a memory cgroup they are allowed: their
//!   pages and buffers are charged to the run. `memfd_secret` is refused
//!   always (`ENOSYS`): nothing here says its pages are charged.
//! - **Record locks**: `fcntl`'s `F_SETLK`, `F_SETLKW` and their
//!   open-file-description and 64-bit forms fail with `ENOLCK` ("the lock
//!   table is full"). One open file may hold any number of byte-range
//!   locks, each a kernel object that no memory cgroup charges (the
//!   kernel's accounting of them was reverted): millions of them would
//!   hold gigabytes outside every limit. Whole-file locks (`flock`, one
//!   per open file) and reading the locks (`F_GETLK`) are allowed.
//! - **New sessions, where no CPU cgroup weighs the run**: `setsid` fails
//!   with `EPERM`. The scheduler gives each session an equal share of the
//!   CPU (autogroups), so a program whose children each start a session
//!   would take a share per child from every other run. In a CPU cgroup of
//!   its own, the run has one share whatever it does.
//! - **Other processes and the kernel's state**: `ptrace` and
//!   `process_vm_readv`/`writev`, the keyrings (`add_key`, `request_key`,
//!   `keyctl`: a key ring belongs to a uid, not to a run), `bpf`,
//!   `perf_event_open`, `userfaultfd`, `syslog`, `setns`, the mount calls,
//!   and the calls only an administrator makes (modules, `kexec`, `reboot`,
//!   swap, accounting, quotas, file handles): `EPERM`. Most of these need
//!   capabilities the program does not have anyway; the filter closes them
//!   whatever a kernel bug or a setting would allow.
//! - **New user namespaces** (a way back to capabilities): `clone` and
//!   `unshare` with `CLONE_NEWUSER` fail with `EPERM`; `clone3`, whose flags
//!   lie in memory out of a filter's sight, fails with `ENOSYS`, which makes
//!   the C library fall back to `clone`.
//! - **io_uring** (`io_uring_setup`, `_enter`, `_register`): `ENOSYS`, as on
//!   a kernel without it, which programs fall back from; io_uring makes and
//!   connects sockets by itself, out of a filter's sight.
//! - On x86-64, the i386 calls any program can make through `int 0x80` are
//!   held to the same rules by their own numbers, and `socketcall` (whose
//!   arguments lie in memory) is refused whole; the x32 calls are refused
//!   whole (`ENOSYS`).
//!
//! Everything else is allowed.
//!
//! # The filter
//!
//! A classic BPF program, as bubblewrap's `--seccomp FD` takes it:
//!
//! ```text
//!        load the architecture
//!        native?  no: to COMPAT
//!        load the system call number
//!        (x86-64: x32 call?  yes: no such call)
//!        one test per watched call: to its rule
//!        allow
//! COMPAT the same for the compat architecture, or allow where there is none
//! LOCAL_PAIR        domain AF_UNIX and type stream or seqpacket?  allow : refuse
//! NO_NEW_USER_NS    CLONE_NEWUSER in the flags?  refuse : allow
//! NO_RECORD_LOCKS   command a record lock's setting?  refuse : allow
//! one return per errno, then allow
//! ```
//!
//! On architectures other than x86-64 and AArch64 there is no filter (see
//! [`filter`]).

/// A `struct sock_filter` instruction, with its jumps by label.
#[derive(Clone, Copy)]
enum Instruction {
    /// `BPF_LD | BPF_W | BPF_ABS`: load 32 bits of `struct seccomp_data`
    /// at this offset.
    Load(u32),
    /// `BPF_ALU | BPF_AND | BPF_K`: keep the bits of the constant.
    And(u32),
    /// `BPF_JMP | BPF_JEQ | BPF_K`: to the first label when the loaded
    /// value equals the constant, else to the second.
    JumpIfEqual(u32, Label, Label),
    /// `BPF_JMP | BPF_JGE | BPF_K`: to the first label when the loaded
    /// value is at least the constant, else to the second.
    JumpIfAtLeast(u32, Label, Label),
    /// `BPF_JMP | BPF_JSET | BPF_K`: to the first label when the loaded
    /// value has a bit of the constant, else to the second.
    JumpIfAnySet(u32, Label, Label),
    /// `BPF_RET | BPF_K`.
    Return(u32),
    /// Where a label stands; no instruction.
    Here(Label),
}

/// Places in the filter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    /// The next instruction.
    Next,
    /// The compat architecture's checks.
    Compat,
    /// The rule for `socketpair`.
    LocalPair,
    /// The rule for `clone` and `unshare`.
    NoNewUserNamespace,
    /// The rule for `fcntl`.
    NoRecordLocks,
    /// Fail with this errno.
    Refuse(i32),
    Allow,
}

/// What the filter does with one watched system call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// It fails with this errno.
    Refuse(i32),
    /// `socketpair`: allowed for Unix-domain stream and sequenced-packet
    /// pairs, refused with `EACCES` otherwise.
    LocalPairOnly,
    /// `clone` or `unshare`: refused with `EPERM` when its flags (the first
    /// argument) ask for a new user namespace.
    NoNewUserNamespace,
    /// `fcntl` (and i386's `fcntl64`): refused with `ENOLCK` when its
    /// command (the second argument) sets a record lock.
    NoRecordLocks,
}

/// `fcntl`'s commands that set a record lock: `F_SETLK`, `F_SETLKW`, the
/// 64-bit forms of 32-bit systems (`F_SETLK64`, `F_SETLKW64`, which a
/// 64-bit kernel refuses anyway) and the open file description's
/// (`F_OFD_SETLK`, `F_OFD_SETLKW`).
const RECORD_LOCK_COMMANDS: [u32; 6] = [6, 7, 13, 14, 37, 38];

/// Offsets in `struct seccomp_data`.
const NUMBER: u32 = 0;
const ARCHITECTURE: u32 = 4;
/// The low 32 bits of the first and second arguments (`u64`s at offsets
/// 16 and 24).
const FIRST_ARGUMENT_LOW: u32 = if cfg!(target_endian = "little") {
    16
} else {
    20
};
const SECOND_ARGUMENT_LOW: u32 = FIRST_ARGUMENT_LOW + 8;

const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;

/// `SOCK_TYPE_MASK` of the kernel: the type in `socketpair`'s second
/// argument, without `SOCK_CLOEXEC` and `SOCK_NONBLOCK`.
const SOCKET_TYPE_MASK: u32 = 0xf;

/// `AUDIT_ARCH_*` of `linux/audit.h`.
const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const AUDIT_ARCH_I386: u32 = 0x4000_0003;
const AUDIT_ARCH_AARCH64: u32 = 0xC000_00B7;

/// The x32 system calls of x86-64: their numbers have this bit set.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// One architecture's watched calls.
struct Table {
    /// Its `AUDIT_ARCH_*`.
    architecture: u32,
    /// Numbers at or above this one are refused whole (`ENOSYS`): x86-64's
    /// x32 calls.
    refused_from: Option<u32>,
    /// Each watched call's number and rule.
    rules: Vec<(u32, Rule)>,
}

/// The calls whose rule is the same on every architecture, by name, with
/// their numbers per architecture: (name, x86-64, i386, AArch64); `None`
/// where the architecture has no such call.
type Numbers = (&'static str, Option<u32>, Option<u32>, Option<u32>);

const SOCKETS: &[Numbers] = &[
    ("socket", Some(41), Some(359), Some(198)),
    ("connect", Some(42), Some(362), Some(203)),
    ("accept", Some(43), None, Some(202)),
    ("bind", Some(49), Some(361), Some(200)),
    ("listen", Some(50), Some(363), Some(201)),
    ("accept4", Some(288), Some(364), Some(242)),
];

const NO_SUCH_CALL: &[Numbers] = &[
    ("io_uring_setup", Some(425), Some(425), Some(425)),
    ("io_uring_enter", Some(426), Some(426), Some(426)),
    ("io_uring_register", Some(427), Some(427), Some(427)),
    ("clone3", Some(435), Some(435), Some(435)),
    ("memfd_secret", Some(447), Some(447), Some(447)),
];

/// Calls that hold memory outside the address space, refused (`ENOSYS`)
/// where no memory cgroup counts what they hold.
const UNCOUNTED_MEMORY: &[Numbers] = &[
    ("memfd_create", Some(319), Some(356), Some(279)),
    ("shmget", Some(29), Some(395), Some(194)),
    ("msgget", Some(68), Some(399), Some(186)),
    ("semget", Some(64), Some(393), Some(190)),
];

const NOT_PERMITTED: &[Numbers] = &[
    ("ptrace", Some(101), Some(26), Some(117)),
    ("process_vm_readv", Some(310), Some(347), Some(270)),
    ("process_vm_writev", Some(311), Some(348), Some(271)),
    ("add_key", Some(248), Some(286), Some(217)),
    ("request_key", Some(249), Some(287), Some(218)),
    ("keyctl", Some(250), Some(288), Some(219)),
    ("bpf", Some(321), Some(357), Some(280)),
    ("perf_event_open", Some(298), Some(336), Some(241)),
    ("userfaultfd", Some(323), Some(374), Some(282)),
    ("syslog", Some(103), Some(103), Some(116)),
    ("setns", Some(308), Some(346), Some(268)),
    ("mount", Some(165), Some(21), Some(40)),
    ("umount", None, Some(22), None),
    ("umount2", Some(166), Some(52), Some(39)),
    ("pivot_root", Some(155), Some(217), Some(41)),
    ("open_tree", Some(428), Some(428), Some(428)),
    ("move_mount", Some(429), Some(429), Some(429)),
    ("fsopen", Some(430), Some(430), Some(430)),
    ("fsconfig", Some(431), Some(431), Some(431)),
    ("fsmount", Some(432), Some(432), Some(432)),
    ("fspick", Some(433), Some(433), Some(433)),
    ("mount_setattr", Some(442), Some(442), Some(442)),
    ("init_module", Some(175), Some(128), Some(105)),
    ("finit_module", Some(313), Some(350), Some(273)),
    ("delete_module", Some(176), Some(129), Some(106)),
    ("kexec_load", Some(246), Some(283), Some(104)),
    ("kexec_file_load", Some(320), None, Some(294)),
    ("reboot", Some(169), Some(88), Some(142)),
    ("swapon", Some(167), Some(87), Some(224)),
    ("swapoff", Some(168), Some(115), Some(225)),
    ("acct", Some(163), Some(51), Some(89)),
    ("quotactl", Some(179), Some(131), Some(60)),
    ("lookup_dcookie", Some(212), Some(253), Some(18)),
    ("name_to_handle_at", Some(303), Some(341), Some(264)),
    ("open_by_handle_at", Some(304), Some(342), Some(265)),
    ("fanotify_init", Some(300), Some(338), Some(262)),
];

/// (x86-64, i386, AArch64) numbers of the calls with rules of their own.
const SOCKETPAIR: (u32, u32, u32) = (53, 360, 199);
const CLONE: (u32, u32, u32) = (56, 120, 220);
const UNSHARE: (u32, u32, u32) = (272, 310, 97);
/// i386's `socketcall`, every socket call through one number.
const I386_SOCKETCALL: u32 = 102;
/// i386's `ipc`, every System V IPC call through one number.
const I386_IPC: u32 = 117;
/// (x86-64, i386, AArch64) numbers of `setsid`.
const SETSID: (u32, u32, u32) = (112, 66, 157);
/// (x86-64, i386, AArch64) numbers of `fcntl`.
const FCNTL: (u32, u32, u32) = (72, 55, 25);
/// i386's `fcntl64`.
const I386_FCNTL64: u32 = 221;

/// What the run's cgroups count and weigh, which decides what the filter
/// must refuse: what nothing would count is not allowed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counted {
    /// A memory cgroup counts the memory the kernel holds for the run
    /// (socket buffers, tmpfs and System V pages, message queues).
    pub(crate) memory: bool,
    /// A CPU cgroup gives the run one share of the CPU, whatever sessions
    /// its processes start.
    pub(crate) cpu: bool,
}

/// Which column of a [`Numbers`] row.
#[derive(Clone, Copy)]
enum Column {
    X86_64,
    I386,
    Aarch64,
}

/// One architecture's table for runs whose cgroups count `counted`.
fn table(column: Column, counted: Counted) -> Table {
    let pick = |numbers: &Numbers| match column {
        Column::X86_64 => numbers.1,
        Column::I386 => numbers.2,
        Column::Aarch64 => numbers.3,
    };
    let own = |(x86_64, i386, aarch64): (u32, u32, u32)| match column {
        Column::X86_64 => x86_64,
        Column::I386 => i386,
        Column::Aarch64 => aarch64,
    };
    let mut rules = Vec::new();
    for (list, rule) in [
        (SOCKETS, Rule::Refuse(libc::EACCES)),
        (NO_SUCH_CALL, Rule::Refuse(libc::ENOSYS)),
        (NOT_PERMITTED, Rule::Refuse(libc::EPERM)),
    ] {
        rules.extend(list.iter().filter_map(pick).map(|number| (number, rule)));
    }
    if !counted.memory {
        let refused = Rule::Refuse(libc::ENOSYS);
        rules.extend(
            UNCOUNTED_MEMORY
                .iter()
                .filter_map(pick)
                .map(|number| (number, refused)),
        );
    }
    if !counted.cpu {
        rules.push((own(SETSID), Rule::Refuse(libc::EPERM)));
    }
    let pairs = if counted.memory {
        Rule::LocalPairOnly
    } else {
        Rule::Refuse(libc::EACCES)
    };
    rules.push((own(SOCKETPAIR), pairs));
    rules.push((own(CLONE), Rule::NoNewUserNamespace));
    rules.push((own(FCNTL), Rule::NoRecordLocks));
    rules.push((own(UNSHARE), Rule::NoNewUserNamespace));
    let (architecture, refused_from) = match column {
        Column::X86_64 => (AUDIT_ARCH_X86_64, Some(X32_SYSCALL_BIT)),
        Column::I386 => {
            rules.push((I386_SOCKETCALL, Rule::Refuse(libc::EACCES)));
            rules.push((I386_FCNTL64, Rule::NoRecordLocks));
            if !counted.memory {
                rules.push((I386_IPC, Rule::Refuse(libc::ENOSYS)));
            }
            (AUDIT_ARCH_I386, None)
        }
        Column::Aarch64 => (AUDIT_ARCH_AARCH64, None),
    };
    Table {
        architecture,
        refused_from,
        rules,
    }
}

/// This target's native table and, on x86-64, the i386 compat table;
/// `None` where the filter is not written for the target.
fn tables(counted: Counted) -> Option<(Table, Option<Table>)> {
    if cfg!(target_arch = "x86_64") {
        Some((
            table(Column::X86_64, counted),
            Some(table(Column::I386, counted)),
        ))
    } else if cfg!(target_arch = "aarch64") {
        // Compat (32-bit ARM) calls are off on most kernels, and a 64-bit
        // process cannot make them.
        Some((table(Column::Aarch64, counted), None))
    } else {
        None
    }
}

/// The label a rule's calls jump to.
fn target(rule: Rule) -> Label {
    match rule {
        Rule::Refuse(errno) => Label::Refuse(errno),
        Rule::LocalPairOnly => Label::LocalPair,
        Rule::NoNewUserNamespace => Label::NoNewUserNamespace,
        Rule::NoRecordLocks => Label::NoRecordLocks,
    }
}

/// The tests of one table's calls, ending in "allow".
fn checks(table: &Table, program: &mut Vec<Instruction>) {
    use Instruction::{JumpIfAtLeast, JumpIfEqual, Load, Return};
    program.push(Load(NUMBER));
    if let Some(first) = table.refused_from {
        program.push(JumpIfAtLeast(
            first,
            Label::Refuse(libc::ENOSYS),
            Label::Next,
        ));
    }
    for &(number, rule) in &table.rules {
        program.push(JumpIfEqual(number, target(rule), Label::Next));
    }
    program.push(Return(ALLOW));
}

/// The program of the [module docs](self), with labels.
fn program(native: &Table, compat: Option<&Table>) -> Vec<Instruction> {
    use Instruction::{And, Here, JumpIfAnySet, JumpIfEqual, Load, Return};
    use Label::{Allow, Compat, LocalPair, Next, NoNewUserNamespace, NoRecordLocks, Refuse};
    let mut program = vec![
        Load(ARCHITECTURE),
        JumpIfEqual(native.architecture, Next, Compat),
    ];
    checks(native, &mut program);
    program.push(Here(Compat));
    match compat {
        Some(compat) => {
            program.push(JumpIfEqual(compat.architecture, Next, Refuse(libc::ENOSYS)));
            checks(compat, &mut program);
        }
        // No other architecture can reach this kernel's calls here.
        None => program.push(Return(ALLOW)),
    }
    program.extend([
        Here(LocalPair),
        Load(FIRST_ARGUMENT_LOW),
        JumpIfEqual(libc::AF_UNIX as u32, Next, Refuse(libc::EACCES)),
        Load(SECOND_ARGUMENT_LOW),
        And(SOCKET_TYPE_MASK),
        JumpIfEqual(libc::SOCK_STREAM as u32, Allow, Next),
        JumpIfEqual(libc::SOCK_SEQPACKET as u32, Allow, Refuse(libc::EACCES)),
        Here(NoNewUserNamespace),
        Load(FIRST_ARGUMENT_LOW),
        JumpIfAnySet(libc::CLONE_NEWUSER as u32, Refuse(libc::EPERM), Allow),
        Here(NoRecordLocks),
        Load(SECOND_ARGUMENT_LOW),
    ]);
    for command in RECORD_LOCK_COMMANDS {
        program.push(JumpIfEqual(command, Refuse(libc::ENOLCK), Next));
    }
    program.push(Instruction::Return(ALLOW));
    for errno in [libc::EACCES, libc::EPERM, libc::ENOSYS, libc::ENOLCK] {
        program.push(Here(Refuse(errno)));
        program.push(Return(libc::SECCOMP_RET_ERRNO | errno as u32));
    }
    program.extend([Here(Allow), Return(ALLOW)]);
    program
}

/// The program as `struct sock_filter`s in memory: `code`, `jt`, `jf`, `k`.
///
/// # Panics
///
/// When a label is used but not placed, or a jump is longer than BPF's 255
/// instructions: both mistakes in [`program`], which the unit tests run.
fn assemble(program: &[Instruction]) -> Vec<u8> {
    let mut positions = Vec::new();
    let mut position = 0usize;
    for instruction in program {
        match instruction {
            Instruction::Here(label) => positions.push((*label, position)),
            _ => position += 1,
        }
    }
    let mut bytes = Vec::new();
    let mut at = 0usize;
    for instruction in program {
        let jump = |label: Label| -> u8 {
            let target = match label {
                Label::Next => at + 1,
                label => {
                    positions
                        .iter()
                        .find(|(placed, _)| *placed == label)
                        .unwrap_or_else(|| panic!("{label:?} is placed"))
                        .1
                }
            };
            u8::try_from(target - at - 1).expect("a short forward jump")
        };
        let branch = |operation: u32, value: u32, yes: Label, no: Label| {
            (
                libc::BPF_JMP | operation | libc::BPF_K,
                jump(yes),
                jump(no),
                value,
            )
        };
        let (code, jt, jf, k) = match *instruction {
            Instruction::Here(_) => continue,
            Instruction::Load(offset) => (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, offset),
            Instruction::And(mask) => (libc::BPF_ALU | libc::BPF_AND | libc::BPF_K, 0, 0, mask),
            Instruction::JumpIfEqual(value, yes, no) => branch(libc::BPF_JEQ, value, yes, no),
            Instruction::JumpIfAtLeast(value, yes, no) => branch(libc::BPF_JGE, value, yes, no),
            Instruction::JumpIfAnySet(value, yes, no) => branch(libc::BPF_JSET, value, yes, no),
            Instruction::Return(value) => (libc::BPF_RET | libc::BPF_K, 0, 0, value),
        };
        bytes.extend_from_slice(&(code as u16).to_ne_bytes());
        bytes.extend([jt, jf]);
        bytes.extend_from_slice(&k.to_ne_bytes());
        at += 1;
    }
    bytes
}

/// The filter as the run's PID 1 installs it (`struct sock_filter`s), or
/// `None` on an architecture it is not written for, for runs whose cgroups
/// count `counted`.
pub(crate) fn filter(counted: Counted) -> Option<Vec<u8>> {
    tables(counted).map(|(native, compat)| assemble(&program(&native, compat.as_ref())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One system call as the filter sees it.
    #[derive(Clone, Copy)]
    struct Call {
        architecture: u32,
        number: u32,
        first: u32,
        second: u32,
    }

    /// Runs the filter on one system call, as the kernel would.
    fn verdict(filter: &[u8], call: Call) -> u32 {
        let instructions: Vec<(u16, u8, u8, u32)> = filter
            .chunks(8)
            .map(|chunk| {
                (
                    u16::from_ne_bytes([chunk[0], chunk[1]]),
                    chunk[2],
                    chunk[3],
                    u32::from_ne_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]),
                )
            })
            .collect();
        let (mut at, mut accumulator) = (0, 0u32);
        loop {
            let (code, jt, jf, k) = instructions[at];
            at += 1;
            let jump = |taken: bool| usize::from(if taken { jt } else { jf });
            match u32::from(code) {
                code if code == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    accumulator = match k {
                        NUMBER => call.number,
                        ARCHITECTURE => call.architecture,
                        FIRST_ARGUMENT_LOW => call.first,
                        SECOND_ARGUMENT_LOW => call.second,
                        other => panic!("load at {other}"),
                    }
                }
                code if code == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => accumulator &= k,
                code if code == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => {
                    at += jump(accumulator == k);
                }
                code if code == libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K => {
                    at += jump(accumulator >= k);
                }
                code if code == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K => {
                    at += jump(accumulator & k != 0);
                }
                code if code == libc::BPF_RET | libc::BPF_K => return k,
                other => panic!("instruction {other:#x}"),
            }
        }
    }

    fn refused(errno: i32) -> u32 {
        libc::SECCOMP_RET_ERRNO | errno as u32
    }

    /// Every watched call of every table, and calls around them, get what
    /// their rule says.
    /// Every combination of what cgroups count.
    const EVERY_COUNTED: [Counted; 4] = [
        Counted {
            memory: true,
            cpu: true,
        },
        Counted {
            memory: true,
            cpu: false,
        },
        Counted {
            memory: false,
            cpu: true,
        },
        Counted {
            memory: false,
            cpu: false,
        },
    ];

    const ALL_COUNTED: Counted = EVERY_COUNTED[0];
    const NOTHING_COUNTED: Counted = EVERY_COUNTED[3];

    #[test]
    fn each_architecture_gets_its_rules() {
        for counted in EVERY_COUNTED {
            each_architecture_gets_its_rules_with(counted);
        }
    }

    fn each_architecture_gets_its_rules_with(counted: Counted) {
        let Some((native, compat)) = tables(counted) else {
            return;
        };
        let filter = filter(counted).unwrap();
        for table in std::iter::once(&native).chain(compat.as_ref()) {
            let call = |number, first, second| Call {
                architecture: table.architecture,
                number,
                first,
                second,
            };
            for &(number, rule) in &table.rules {
                let any = verdict(&filter, call(number, 0, 0));
                match rule {
                    Rule::Refuse(errno) => assert_eq!(any, refused(errno), "call {number}"),
                    Rule::LocalPairOnly => {
                        let unix = libc::AF_UNIX as u32;
                        let flags = (libc::SOCK_CLOEXEC | libc::SOCK_NONBLOCK) as u32;
                        for kind in [libc::SOCK_STREAM, libc::SOCK_SEQPACKET] {
                            let kind = kind as u32;
                            assert_eq!(verdict(&filter, call(number, unix, kind)), ALLOW);
                            assert_eq!(verdict(&filter, call(number, unix, kind | flags)), ALLOW);
                        }
                        let datagram = libc::SOCK_DGRAM as u32;
                        assert_eq!(
                            verdict(&filter, call(number, unix, datagram | flags)),
                            refused(libc::EACCES)
                        );
                        for domain in [libc::AF_INET, libc::AF_NETLINK, libc::AF_VSOCK] {
                            assert_eq!(
                                verdict(&filter, call(number, domain as u32, 1)),
                                refused(libc::EACCES)
                            );
                        }
                    }
                    Rule::NoRecordLocks => {
                        for command in [
                            libc::F_SETLK,
                            libc::F_SETLKW,
                            libc::F_OFD_SETLK,
                            libc::F_OFD_SETLKW,
                        ] {
                            assert_eq!(
                                verdict(&filter, call(number, 3, command as u32)),
                                refused(libc::ENOLCK)
                            );
                        }
                        for command in [
                            libc::F_GETLK,
                            libc::F_GETFL,
                            libc::F_SETFD,
                            libc::F_DUPFD_CLOEXEC,
                        ] {
                            assert_eq!(verdict(&filter, call(number, 3, command as u32)), ALLOW);
                        }
                    }
                    Rule::NoNewUserNamespace => {
                        let fork_like = libc::SIGCHLD as u32;
                        let thread_like = (libc::CLONE_VM | libc::CLONE_THREAD) as u32;
                        assert_eq!(verdict(&filter, call(number, fork_like, 0)), ALLOW);
                        assert_eq!(verdict(&filter, call(number, thread_like, 0)), ALLOW);
                        let new_user = libc::CLONE_NEWUSER as u32;
                        assert_eq!(
                            verdict(&filter, call(number, new_user | fork_like, 0)),
                            refused(libc::EPERM)
                        );
                    }
                }
            }
            // Calls the filter does not watch: read, write, exit, whatever
            // their arguments.
            for number in [0, 1, 3, 60] {
                let watched = table.rules.iter().any(|&(watched, _)| watched == number);
                if !watched {
                    assert_eq!(verdict(&filter, call(number, u32::MAX, u32::MAX)), ALLOW);
                }
            }
        }
        if let Some(first) = native.refused_from {
            let x32 = |number| Call {
                architecture: native.architecture,
                number,
                first: 0,
                second: 0,
            };
            assert_eq!(verdict(&filter, x32(first)), refused(libc::ENOSYS));
            assert_eq!(verdict(&filter, x32(first | 1)), refused(libc::ENOSYS));
            assert_eq!(verdict(&filter, x32(first - 1)), ALLOW);
        }
        // An architecture the filter does not know: nothing to run there.
        let unknown = Call {
            architecture: 0x1234,
            number: 0,
            first: 0,
            second: 0,
        };
        let expected = if compat.is_some() {
            refused(libc::ENOSYS)
        } else {
            ALLOW
        };
        assert_eq!(verdict(&filter, unknown), expected);
    }

    /// The calls an attacker reaches for are in the table of x86-64 and of
    /// i386 (the rows of the module docs), with the rule the docs give.
    #[test]
    fn the_documented_calls_are_watched() {
        let watched = |column, number| {
            table(column, ALL_COUNTED)
                .rules
                .iter()
                .find(|&&(watched, _)| watched == number)
                .map(|&(_, rule)| rule)
        };
        for column in [Column::X86_64, Column::I386, Column::Aarch64] {
            let own = |(x86_64, i386, aarch64): (u32, u32, u32)| match column {
                Column::X86_64 => x86_64,
                Column::I386 => i386,
                Column::Aarch64 => aarch64,
            };
            assert_eq!(watched(column, own(SOCKETPAIR)), Some(Rule::LocalPairOnly));
            let uncounted = table(column, NOTHING_COUNTED).rules;
            assert!(uncounted.contains(&(own(SOCKETPAIR), Rule::Refuse(libc::EACCES))));
            assert!(uncounted.contains(&(own(SETSID), Rule::Refuse(libc::EPERM))));
            assert_eq!(
                watched(column, own(SETSID)),
                None,
                "a CPU cgroup weighs sessions"
            );
            assert_eq!(watched(column, own(CLONE)), Some(Rule::NoNewUserNamespace));
            assert_eq!(
                watched(column, own(UNSHARE)),
                Some(Rule::NoNewUserNamespace)
            );
        }
        // The native numbers, against the C library's own.
        let native = if cfg!(target_arch = "aarch64") {
            Column::Aarch64
        } else {
            Column::X86_64
        };
        for (number, rule) in [
            (libc::SYS_socket, Rule::Refuse(libc::EACCES)),
            (libc::SYS_connect, Rule::Refuse(libc::EACCES)),
            (libc::SYS_socketpair, Rule::LocalPairOnly),
            (libc::SYS_ptrace, Rule::Refuse(libc::EPERM)),
            (libc::SYS_process_vm_readv, Rule::Refuse(libc::EPERM)),
            (libc::SYS_keyctl, Rule::Refuse(libc::EPERM)),
            (libc::SYS_bpf, Rule::Refuse(libc::EPERM)),
            (libc::SYS_perf_event_open, Rule::Refuse(libc::EPERM)),
            (libc::SYS_userfaultfd, Rule::Refuse(libc::EPERM)),
            (libc::SYS_setns, Rule::Refuse(libc::EPERM)),
            (libc::SYS_mount, Rule::Refuse(libc::EPERM)),
            (libc::SYS_kexec_load, Rule::Refuse(libc::EPERM)),
            (libc::SYS_init_module, Rule::Refuse(libc::EPERM)),
            (libc::SYS_unshare, Rule::NoNewUserNamespace),
            (libc::SYS_clone, Rule::NoNewUserNamespace),
            (libc::SYS_clone3, Rule::Refuse(libc::ENOSYS)),
            (libc::SYS_io_uring_setup, Rule::Refuse(libc::ENOSYS)),
            (libc::SYS_memfd_secret, Rule::Refuse(libc::ENOSYS)),
            (libc::SYS_fcntl, Rule::NoRecordLocks),
        ] {
            assert_eq!(watched(native, number as u32), Some(rule), "{number}");
        }
        // Memory outside the address space: allowed where a memory cgroup
        // counts it, refused where nothing would.
        let uncounted = table(native, NOTHING_COUNTED).rules;
        for number in [
            libc::SYS_memfd_create,
            libc::SYS_shmget,
            libc::SYS_msgget,
            libc::SYS_semget,
        ] {
            let number = number as u32;
            assert_eq!(watched(native, number), None, "{number}");
            assert!(
                uncounted.contains(&(number, Rule::Refuse(libc::ENOSYS))),
                "{number}"
            );
        }
        assert!(uncounted.contains(&(libc::SYS_setsid as u32, Rule::Refuse(libc::EPERM))));
        assert_eq!(
            watched(Column::I386, I386_SOCKETCALL),
            Some(Rule::Refuse(libc::EACCES))
        );
        assert_eq!(watched(Column::I386, I386_IPC), None);
        assert!(
            table(Column::I386, NOTHING_COUNTED)
                .rules
                .contains(&(I386_IPC, Rule::Refuse(libc::ENOSYS)))
        );
        // No number is watched twice with different rules.
        for (column, counted) in [Column::X86_64, Column::I386, Column::Aarch64]
            .into_iter()
            .flat_map(|column| EVERY_COUNTED.map(|counted| (column, counted)))
        {
            let rules = table(column, counted).rules;
            for (index, &(number, rule)) in rules.iter().enumerate() {
                for &(other, other_rule) in &rules[index + 1..] {
                    assert!(number != other || rule == other_rule, "{number} twice");
                }
            }
        }
    }
}
