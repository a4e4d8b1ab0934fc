//! The sandbox's seccomp filter: no Unix-domain sockets.
//!
//! # Why
//!
//! The sandbox shows the machine's files read-only, `/tmp` and `$HOME`
//! included, and a read-only view does not stop `connect` on a socket file
//! there: a tmux server's (`/tmp/tmux-UID/default`), an ssh agent's, an
//! editor's. Through those a program could run commands outside the
//! sandbox, with the caller's rights. The private network namespace closes
//! abstract sockets and the loopback, `--tmpfs /run` the sockets of
//! system services; this filter closes the rest. It makes `socket` fail
//! with `EACCES` for the `AF_UNIX` domain, so that no Unix-domain socket
//! can be made to connect with. `socketpair`, which connects only to
//! itself (pipes between a program's own processes), stays allowed. And
//! `io_uring_setup` fails with `ENOSYS` (as on a kernel without io_uring,
//! which programs fall back from), for io_uring makes and connects
//! sockets by itself, out of a filter's sight.
//!
//! # The filter
//!
//! A classic BPF program, as bubblewrap's `--seccomp FD` takes it:
//!
//! ```text
//!        load the architecture
//!        native?  no: to COMPAT
//!        load the system call number
//!        socket (or its x32 number)?  yes: to DOMAIN
//!        io_uring_setup (or its x32 number)?  yes: no such call
//!        allow
//! COMPAT (x86-64 only: the i386 calls any program can make with int 0x80)
//!        i386?  no: allow
//!        load the system call number
//!        socketcall?  deny (its arguments are in memory, out of a filter's sight)
//!        socket?  yes: to DOMAIN
//!        io_uring_setup?  yes: no such call
//!        allow
//! DOMAIN load the low half of the first argument
//!        AF_UNIX?  deny : allow
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
    /// `BPF_JMP | BPF_JEQ | BPF_K`: to the first label when the loaded
    /// value equals the constant, else to the second.
    JumpIfEqual(u32, Label, Label),
    /// `BPF_RET | BPF_K`.
    Return(u32),
    /// Where a label stands; no instruction.
    Here(Label),
}

/// Places in the filter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Label {
    Next,
    Compat,
    Domain,
    Deny,
    NoSuchCall,
    Allow,
}

/// Offsets in `struct seccomp_data`.
const NUMBER: u32 = 0;
const ARCHITECTURE: u32 = 4;
/// The low 32 bits of the first argument (a `u64` at offset 16).
const FIRST_ARGUMENT_LOW: u32 = if cfg!(target_endian = "little") {
    16
} else {
    20
};

const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
const DENY: u32 = libc::SECCOMP_RET_ERRNO | libc::EACCES as u32;
const NO_SUCH_CALL: u32 = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;

/// `AUDIT_ARCH_*` of `linux/audit.h`.
const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
const AUDIT_ARCH_I386: u32 = 0x4000_0003;
const AUDIT_ARCH_AARCH64: u32 = 0xC000_00B7;

/// The system calls the filter watches, per architecture.
struct Calls {
    /// The native architecture.
    native: u32,
    /// The numbers of `socket` there.
    socket: &'static [u32],
    /// The numbers of `io_uring_setup` there.
    io_uring_setup: &'static [u32],
    /// The compat system calls to watch too.
    compat: Option<Compat>,
}

/// Compat system calls: their architecture, and the numbers of
/// `socketcall` (denied), `socket` and `io_uring_setup` there.
struct Compat {
    architecture: u32,
    socketcall: u32,
    socket: u32,
    io_uring_setup: u32,
}

/// This target's calls, where the filter is written for it.
fn calls() -> Option<Calls> {
    if cfg!(target_arch = "x86_64") {
        // x32 numbers are the x86-64 ones with bit 30 set.
        Some(Calls {
            native: AUDIT_ARCH_X86_64,
            socket: &[41, 0x4000_0000 | 41],
            io_uring_setup: &[425, 0x4000_0000 | 425],
            compat: Some(Compat {
                architecture: AUDIT_ARCH_I386,
                socketcall: 102,
                socket: 359,
                io_uring_setup: 425,
            }),
        })
    } else if cfg!(target_arch = "aarch64") {
        // Compat (32-bit ARM) calls are off on most kernels, and a 64-bit
        // process cannot make them.
        Some(Calls {
            native: AUDIT_ARCH_AARCH64,
            socket: &[198],
            io_uring_setup: &[425],
            compat: None,
        })
    } else {
        None
    }
}

/// The program of the [module docs](self), with labels.
fn program(calls: &Calls) -> Vec<Instruction> {
    use Instruction::{Here, JumpIfEqual, Load, Return};
    use Label::{Allow, Compat, Deny, Domain, Next, NoSuchCall};
    let mut program = vec![
        Load(ARCHITECTURE),
        JumpIfEqual(calls.native, Next, Compat),
        Load(NUMBER),
    ];
    for &socket in calls.socket {
        program.push(JumpIfEqual(socket, Domain, Next));
    }
    for &io_uring_setup in calls.io_uring_setup {
        program.push(JumpIfEqual(io_uring_setup, NoSuchCall, Next));
    }
    program.extend([Return(ALLOW), Here(Compat)]);
    if let Some(compat) = &calls.compat {
        program.extend([
            JumpIfEqual(compat.architecture, Next, Allow),
            Load(NUMBER),
            JumpIfEqual(compat.socketcall, Deny, Next),
            JumpIfEqual(compat.socket, Domain, Next),
            JumpIfEqual(compat.io_uring_setup, NoSuchCall, Next),
        ]);
    }
    program.extend([
        Return(ALLOW),
        Here(Domain),
        Load(FIRST_ARGUMENT_LOW),
        JumpIfEqual(libc::AF_UNIX as u32, Deny, Allow),
        Here(Deny),
        Return(DENY),
        Here(NoSuchCall),
        Return(NO_SUCH_CALL),
        Here(Allow),
        Return(ALLOW),
    ]);
    program
}

/// The program as `struct sock_filter`s in memory: `code`, `jt`, `jf`, `k`.
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
                        .expect("every label is placed")
                        .1
                }
            };
            u8::try_from(target - at - 1).expect("a short forward jump")
        };
        let (code, jt, jf, k) = match *instruction {
            Instruction::Here(_) => continue,
            Instruction::Load(offset) => (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, offset),
            Instruction::JumpIfEqual(value, yes, no) => (
                libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
                jump(yes),
                jump(no),
                value,
            ),
            Instruction::Return(value) => (libc::BPF_RET | libc::BPF_K, 0, 0, value),
        };
        bytes.extend_from_slice(&(code as u16).to_ne_bytes());
        bytes.extend([jt, jf]);
        bytes.extend_from_slice(&k.to_ne_bytes());
        at += 1;
    }
    bytes
}

/// The filter as bubblewrap reads it (`struct sock_filter`s), or `None` on
/// an architecture it is not written for.
pub(crate) fn filter() -> Option<Vec<u8>> {
    calls().map(|calls| assemble(&program(&calls)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the filter on one system call, as the kernel would.
    fn verdict(filter: &[u8], architecture: u32, number: u32, first_argument: u32) -> u32 {
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
        let (mut at, mut accumulator) = (0, 0);
        loop {
            let (code, jt, jf, k) = instructions[at];
            at += 1;
            match u32::from(code) {
                code if code == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    accumulator = match k {
                        NUMBER => number,
                        ARCHITECTURE => architecture,
                        FIRST_ARGUMENT_LOW => first_argument,
                        other => panic!("load at {other}"),
                    }
                }
                code if code == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => {
                    at += usize::from(if accumulator == k { jt } else { jf });
                }
                code if code == libc::BPF_RET | libc::BPF_K => return k,
                other => panic!("instruction {other:#x}"),
            }
        }
    }

    #[test]
    fn only_unix_domain_sockets_are_refused() {
        let Some(filter) = filter() else {
            return;
        };
        let calls = calls().unwrap();
        let unix = libc::AF_UNIX as u32;
        for &socket in calls.socket {
            assert_eq!(verdict(&filter, calls.native, socket, unix), DENY);
            assert_eq!(
                verdict(&filter, calls.native, socket, libc::AF_INET as u32),
                ALLOW
            );
        }
        for &io_uring_setup in calls.io_uring_setup {
            assert_eq!(
                verdict(&filter, calls.native, io_uring_setup, 8),
                NO_SUCH_CALL
            );
        }
        // Any other call, whatever its first argument.
        assert_eq!(verdict(&filter, calls.native, 0, unix), ALLOW);
        assert_eq!(verdict(&filter, calls.native, 1000, unix), ALLOW);
        if let Some(compat) = calls.compat {
            let on_compat =
                |number, argument| verdict(&filter, compat.architecture, number, argument);
            assert_eq!(on_compat(compat.socketcall, 1), DENY);
            assert_eq!(on_compat(compat.socket, unix), DENY);
            assert_eq!(on_compat(compat.socket, libc::AF_INET as u32), ALLOW);
            assert_eq!(on_compat(compat.io_uring_setup, 8), NO_SUCH_CALL);
            assert_eq!(on_compat(3, unix), ALLOW);
        }
        // An architecture the filter does not know.
        assert_eq!(verdict(&filter, 0x1234, calls.socket[0], unix), ALLOW);
    }
}
