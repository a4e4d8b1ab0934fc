//! The run's standard streams: the input fed, standard output collected up
//! to the output limit (one byte more shows a flood), the start of standard
//! error kept.
//!
//! # Standard error
//!
//! Standard error is capped like standard output, but a flood of it is no
//! verdict (contestants print their debugging there): its first
//! [`STDERR_KEPT`] bytes are kept, the rest is moved to `/dev/null` by
//! `splice`, in the kernel, without a copy through the runner, and counted,
//! so that the report can say it was cut. A flood of standard error costs
//! the runner no more than a flood of standard output, which ends at the
//! output limit: one system call per pipeful, and no copy.

use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::read_buffer::BUFFER_SIZE;

/// How much of standard error a run keeps, in bytes.
pub const STDERR_KEPT: usize = 4096;

/// How long to wait for the output pipes to close once the run's processes
/// are dead; only a process that escaped both the process group and a
/// cgroup can hold them open longer.
const PIPE_GRACE: Duration = Duration::from_secs(1);

/// A pipe's contents, filled by a reader thread.
type Collected = Arc<Mutex<Vec<u8>>>;

/// The child's three standard streams, served by threads.
pub(super) struct Pipes {
    stdout: Collected,
    stderr: Collected,
    /// How many bytes of standard error came, kept or not.
    stderr_bytes: Arc<AtomicU64>,
    flood: Arc<AtomicBool>,
    done: mpsc::Receiver<()>,
}

impl Pipes {
    /// Feeds `input` and collects standard output (up to `output_limit`
    /// plus one byte) and the start of standard error.
    pub(super) fn start(child: &mut std::process::Child, input: &[u8], output_limit: u64) -> Pipes {
        let file = |fd: std::os::fd::OwnedFd| std::fs::File::from(fd);
        Pipes::start_with(
            file(child.stdin.take().expect("stdin is piped").into()),
            file(child.stdout.take().expect("stdout is piped").into()),
            file(child.stderr.take().expect("stderr is piped").into()),
            input,
            output_limit,
        )
    }

    /// [`start`](Self::start) with the runner's ends of the three pipes.
    pub(super) fn start_with(
        mut stdin: std::fs::File,
        stdout_pipe: std::fs::File,
        stderr_pipe: std::fs::File,
        input: &[u8],
        output_limit: u64,
    ) -> Pipes {
        let input = input.to_vec();
        // A program that does not read its input makes the write fail, or
        // block until the run is killed; either way the thread ends.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let (sender, done) = mpsc::channel();
        let flood = Arc::new(AtomicBool::new(false));
        let (stdout, stderr) = (Collected::default(), Collected::default());
        let pipe = stdout_pipe;
        let (into, overflow, done_sender) = (stdout.clone(), flood.clone(), sender.clone());
        // One byte past the limit is kept, so that a flood shows.
        let keep = output_limit.saturating_add(1);
        thread::spawn(move || {
            collect(pipe, &into, keep, &overflow);
            // The receiver may have stopped waiting; nothing to do then.
            let _ = done_sender.send(());
        });
        let pipe = stderr_pipe;
        let (into, stderr_bytes) = (stderr.clone(), Arc::new(AtomicU64::new(0)));
        let counted = stderr_bytes.clone();
        thread::spawn(move || {
            let overflow = AtomicBool::new(false);
            let kept = collect(pipe, &into, STDERR_KEPT as u64, &overflow);
            let rest = if overflow.load(Ordering::SeqCst) {
                discard(kept.pipe)
            } else {
                0
            };
            counted.store(kept.total + rest, Ordering::SeqCst);
            // The receiver may have stopped waiting; nothing to do then.
            let _ = sender.send(());
        });
        Pipes {
            stdout,
            stderr,
            stderr_bytes,
            flood,
            done,
        }
    }

    pub(super) fn flooded(&self) -> bool {
        self.flood.load(Ordering::SeqCst)
    }

    /// Waits (a moment at most) for both output pipes to close, then gives
    /// what they held.
    pub(super) fn finish(self) -> Output {
        let grace_end = Instant::now() + PIPE_GRACE;
        for _ in 0..2 {
            let left = grace_end.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(left).is_err() {
                break;
            }
        }
        let take = |collected: &Collected| {
            collected
                .lock()
                .unwrap_or_else(|poison| poison.into_inner())
                .clone()
        };
        Output {
            stdout: take(&self.stdout),
            stderr: take(&self.stderr),
            stderr_bytes: self.stderr_bytes.load(Ordering::SeqCst),
            flooded: self.flooded(),
        }
    }
}

/// What the output pipes held at the end of a run.
pub(super) struct Output {
    /// Standard output, up to the output limit plus one byte.
    pub(super) stdout: Vec<u8>,
    /// The first [`STDERR_KEPT`] bytes of standard error.
    pub(super) stderr: Vec<u8>,
    /// How many bytes of standard error came in all.
    pub(super) stderr_bytes: u64,
    /// Whether standard output went over the output limit.
    pub(super) flooded: bool,
}

/// What [`collect`] read: the pipe, to read on from, and how many bytes.
struct Read<R> {
    pipe: R,
    total: u64,
}

/// Reads `pipe` into `into` until its end or until more than `keep` bytes
/// came (then sets `overflow`), keeping at most `keep` bytes.
fn collect<R: std::io::Read>(
    mut pipe: R,
    into: &Collected,
    keep: u64,
    overflow: &AtomicBool,
) -> Read<R> {
    let mut buffer = vec![0u8; BUFFER_SIZE];
    let mut total = 0u64;
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                let room = keep.saturating_sub(total).min(read as u64) as usize;
                if room != 0 {
                    let mut kept = into.lock().unwrap_or_else(|poison| poison.into_inner());
                    kept.extend_from_slice(&buffer[..room]);
                }
                total += read as u64;
                if total > keep {
                    overflow.store(true, Ordering::SeqCst);
                    break;
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    Read { pipe, total }
}

/// Moves what is left in `pipe`, to its end, into `/dev/null` inside the
/// kernel (`splice`), reading it through a buffer only where that fails;
/// how many bytes.
fn discard<R: std::io::Read + AsRawFd>(mut pipe: R) -> u64 {
    let mut total = 0u64;
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        loop {
            // SAFETY: splice between two descriptors open here, no memory.
            let moved = unsafe {
                libc::splice(
                    pipe.as_raw_fd(),
                    std::ptr::null_mut(),
                    null.as_raw_fd(),
                    std::ptr::null_mut(),
                    1 << 20,
                    libc::SPLICE_F_MOVE,
                )
            };
            match moved {
                0 => return total,
                moved if moved > 0 => total += moved as u64,
                _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
                _ => break,
            }
        }
    }
    let mut buffer = vec![0u8; BUFFER_SIZE];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => return total,
            Ok(read) => total += read as u64,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return total,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::os::fd::RawFd;

    use super::*;

    /// A pipe that answers its reads from a script, for the paths a real
    /// pipe takes only by chance (a signal during a read, an error); its
    /// descriptor is none, so that `splice` on it fails as it does on
    /// anything but a pipe.
    struct Scripted(VecDeque<io::Result<Vec<u8>>>);

    impl Scripted {
        fn new(script: Vec<io::Result<&[u8]>>) -> Scripted {
            Scripted(
                script
                    .into_iter()
                    .map(|step| step.map(<[u8]>::to_vec))
                    .collect(),
            )
        }
    }

    impl std::io::Read for Scripted {
        /// The script's next step (each fits the buffer); the end of the
        /// pipe once the script is done.
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            match self.0.pop_front() {
                None => Ok(0),
                Some(Err(error)) => Err(error),
                Some(Ok(bytes)) => {
                    buffer[..bytes.len()].copy_from_slice(&bytes);
                    Ok(bytes.len())
                }
            }
        }
    }

    impl AsRawFd for Scripted {
        fn as_raw_fd(&self) -> RawFd {
            -1
        }
    }

    fn interrupted() -> io::Result<&'static [u8]> {
        Err(io::ErrorKind::Interrupted.into())
    }

    fn broken() -> io::Result<&'static [u8]> {
        Err(io::ErrorKind::BrokenPipe.into())
    }

    #[test]
    fn exactly_the_bytes_kept_are_no_flood_and_one_more_is() {
        for (bytes, flooded) in [(&b"12345"[..], false), (&b"123456"[..], true)] {
            let (into, overflow) = (Collected::default(), AtomicBool::new(false));
            let read = collect(Scripted::new(vec![Ok(bytes)]), &into, 5, &overflow);
            assert_eq!(overflow.load(Ordering::SeqCst), flooded, "{bytes:?}");
            assert_eq!(*into.lock().unwrap(), b"12345");
            assert_eq!(read.total, bytes.len() as u64);
        }
    }

    #[test]
    fn a_read_cut_by_a_signal_is_read_again_and_an_error_ends_the_pipe() {
        let script = vec![
            Ok(&b"ab"[..]),
            interrupted(),
            Ok(b"cd"),
            broken(),
            Ok(b"ef"),
        ];
        let (into, overflow) = (Collected::default(), AtomicBool::new(false));
        let read = collect(Scripted::new(script), &into, 100, &overflow);
        assert_eq!(*into.lock().unwrap(), b"abcd");
        assert_eq!(read.total, 4);
        assert!(!overflow.load(Ordering::SeqCst));
    }

    #[test]
    fn what_splice_cannot_move_is_read_and_counted() {
        let script = vec![
            Ok(&b"ab"[..]),
            interrupted(),
            Ok(b"cde"),
            broken(),
            Ok(b"f"),
        ];
        assert_eq!(discard(Scripted::new(script)), 5);
        let script = vec![Ok(&b"abc"[..]), interrupted(), Ok(b"de")];
        assert_eq!(discard(Scripted::new(script)), 5);
    }

    #[test]
    fn splice_moves_a_real_pipe_to_its_end() {
        let (read, write) = super::super::child_setup::pipe().unwrap();
        let writer = thread::spawn(move || {
            let mut write = std::fs::File::from(write);
            for _ in 0..40 {
                write.write_all(&[7; 100_000]).unwrap();
            }
        });
        assert_eq!(discard(std::fs::File::from(read)), 4_000_000);
        writer.join().unwrap();
    }

    #[test]
    fn standard_error_past_what_is_kept_is_counted_and_dropped() {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "head -c 3000000 /dev/zero >&2; echo done"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pipes = Pipes::start(&mut child, b"", 100);
        child.wait().unwrap();
        let output = pipes.finish();
        assert_eq!(output.stdout, b"done\n");
        assert_eq!(output.stderr.len(), STDERR_KEPT);
        assert_eq!(output.stderr_bytes, 3_000_000);
        assert!(!output.flooded);
    }
}
