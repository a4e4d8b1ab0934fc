//! The ordered pipeline both several-thread paths of `solve` share:
//! windows of work items are worked on in parallel by a rayon pool, and
//! written back in input order by the calling thread.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

/// What [`ordered_windows`] does with its items.
pub(super) trait Stage<T> {
    /// Takes the next window of items, reusing `free` ones (items already
    /// written) where it can, and says whether more windows may follow.
    fn take_window(&mut self, free: &mut Vec<T>) -> (Vec<T>, bool);

    /// Writes one worked item; returns whether the run ends with it.
    ///
    /// # Errors
    ///
    /// A failure to write, which ends the run.
    fn write(&mut self, item: &T) -> io::Result<bool>;
}

/// Runs `stage` on `pool`: the calling thread takes a window while the
/// pool works on the one before it (`work` on each item, in parallel), and
/// writes a window's items in order while the pool works on the next. At
/// most three windows are held at once (being taken, worked on, written),
/// so memory is bounded by the windows' size, whatever the input's.
///
/// When [`Stage::write`] ends the run, the items still waiting for `work`
/// are skipped. A panic in `work` is raised again on the calling thread
/// (by rayon's scope), after the items written before it.
///
/// # Errors
///
/// The first error of [`Stage::write`].
pub(super) fn ordered_windows<T: Send>(
    pool: &rayon::ThreadPool,
    stage: &mut dyn Stage<T>,
    work: &(dyn Fn(&mut T) + Sync),
) -> io::Result<()> {
    // Set when the run ends, so that items still queued are not worked on
    // for nothing.
    let cancelled = AtomicBool::new(false);
    let cancelled = &cancelled;
    let mut free: Vec<T> = Vec::new();
    pool.in_place_scope(|scope| {
        // Starts work on a window; the window comes back, worked, on the
        // returned channel, which closes without it if `work` panicked.
        let start = |mut window: Vec<T>| {
            let (sender, receiver) = mpsc::sync_channel(1);
            scope.spawn(move |_| {
                window.par_iter_mut().for_each(|item| {
                    if !cancelled.load(Ordering::Relaxed) {
                        work(item);
                    }
                });
                // The writer may have stopped waiting.
                let _ = sender.send(window);
            });
            receiver
        };
        let mut write_in_order = || {
            let (window, mut more) = stage.take_window(&mut free);
            let mut working = start(window);
            loop {
                // Take the next window while the pool works on this one.
                let next = more.then(|| {
                    let (window, more_after) = stage.take_window(&mut free);
                    more = more_after;
                    start(window)
                });
                let Ok(window) = working.recv() else {
                    return Ok(());
                };
                for item in &window {
                    if stage.write(item)? {
                        return Ok(());
                    }
                }
                free.extend(window);
                match next {
                    Some(receiver) => working = receiver,
                    None => return Ok(()),
                }
            }
        };
        let written = write_in_order();
        // The scope waits for the windows still being worked on: skip them.
        cancelled.store(true, Ordering::Relaxed);
        written
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_threads() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    /// Numbers 0.. in windows of three, squared by the pool, written in
    /// order, until the one numbered `last` is written.
    struct Squares {
        next: u64,
        last: Option<usize>,
        windows: usize,
        written: Vec<u64>,
    }

    impl Stage<u64> for Squares {
        fn take_window(&mut self, free: &mut Vec<u64>) -> (Vec<u64>, bool) {
            self.windows += 1;
            free.clear();
            let window: Vec<u64> = (self.next..self.next + 3).collect();
            self.next += 3;
            (window, true)
        }

        fn write(&mut self, item: &u64) -> io::Result<bool> {
            self.written.push(*item);
            Ok(Some(self.written.len() - 1) == self.last)
        }
    }

    #[test]
    fn items_are_written_in_order_and_the_run_ends_where_write_says() {
        let pool = two_threads();
        let mut stage = Squares {
            next: 0,
            last: Some(100),
            windows: 0,
            written: Vec::new(),
        };
        ordered_windows(&pool, &mut stage, &|item: &mut u64| *item *= *item).unwrap();
        assert_eq!(stage.written, (0..=100).map(|n| n * n).collect::<Vec<_>>());
        // 101 items in windows of 3: 34 windows written, and one more taken
        // ahead at most.
        assert!((34..=35).contains(&stage.windows), "{}", stage.windows);
    }

    #[test]
    fn a_write_error_ends_the_run_and_is_returned() {
        struct Failing;
        impl Stage<u8> for Failing {
            fn take_window(&mut self, _: &mut Vec<u8>) -> (Vec<u8>, bool) {
                (vec![0; 4], true)
            }
            fn write(&mut self, _: &u8) -> io::Result<bool> {
                Err(io::Error::other("disk full"))
            }
        }
        let pool = two_threads();
        let error = ordered_windows(&pool, &mut Failing, &|_: &mut u8| {}).unwrap_err();
        assert_eq!(error.to_string(), "disk full");
    }

    #[test]
    fn a_panic_in_work_reaches_the_caller_after_the_items_before_it() {
        let pool = two_threads();
        let mut stage = Squares {
            next: 0,
            last: None,
            windows: 0,
            written: Vec::new(),
        };
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ordered_windows(&pool, &mut stage, &|item: &mut u64| {
                assert!(*item != 7, "seven");
                *item *= *item;
            })
        }));
        assert!(panicked.is_err());
        assert_eq!(stage.written, [0, 1, 4, 9, 16, 25]);
    }
}
