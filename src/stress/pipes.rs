//! The run's standard streams: the input fed, standard output collected up
//! to the output limit (one byte more shows a flood), the start of standard
//! error kept.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::untrusted::BUFFER_SIZE;

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
    flood: Arc<AtomicBool>,
    done: mpsc::Receiver<()>,
}

impl Pipes {
    /// Feeds `input` and collects standard output (up to `output_limit`
    /// plus one byte) and the start of standard error.
    pub(super) fn start(child: &mut std::process::Child, input: &[u8], output_limit: u64) -> Pipes {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = input.to_vec();
        // A program that does not read its input makes the write fail, or
        // block until the run is killed; either way the thread ends.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let (sender, done) = mpsc::channel();
        let flood = Arc::new(AtomicBool::new(false));
        let (stdout, stderr) = (Collected::default(), Collected::default());
        let pipe = child.stdout.take().expect("stdout is piped");
        let (into, overflow, done_sender) = (stdout.clone(), flood.clone(), sender.clone());
        // One byte past the limit is kept, so that a flood shows.
        let keep = output_limit.saturating_add(1);
        thread::spawn(move || collect(pipe, &into, keep, false, &overflow, &done_sender));
        let pipe = child.stderr.take().expect("stderr is piped");
        let into = stderr.clone();
        thread::spawn(move || {
            let unused = AtomicBool::new(false);
            collect(pipe, &into, STDERR_KEPT as u64, true, &unused, &sender);
        });
        Pipes {
            stdout,
            stderr,
            flood,
            done,
        }
    }

    pub(super) fn flooded(&self) -> bool {
        self.flood.load(Ordering::SeqCst)
    }

    /// Waits (a moment at most) for both output pipes to close, then gives
    /// what they held and whether standard output flooded.
    pub(super) fn finish(self) -> (Vec<u8>, Vec<u8>, bool) {
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
        (take(&self.stdout), take(&self.stderr), self.flooded())
    }
}

/// Reads `pipe` into `into`, keeping at most `keep` bytes, and reads on to
/// the end only when `drain` is set; sets `overflow` once more than `keep`
/// bytes came. Tells `done` when it stops.
fn collect<R: Read>(
    mut pipe: R,
    into: &Collected,
    keep: u64,
    drain: bool,
    overflow: &AtomicBool,
    done: &mpsc::Sender<()>,
) {
    let mut buffer = vec![0u8; BUFFER_SIZE];
    let mut total = 0u64;
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => {
                let room = keep.saturating_sub(total).min(read as u64) as usize;
                if room > 0 {
                    let mut kept = into.lock().unwrap_or_else(|poison| poison.into_inner());
                    kept.extend_from_slice(&buffer[..room]);
                }
                total += read as u64;
                if total > keep {
                    overflow.store(true, Ordering::SeqCst);
                    if !drain {
                        break;
                    }
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    // The receiver may have stopped waiting; nothing to do then.
    let _ = done.send(());
}
