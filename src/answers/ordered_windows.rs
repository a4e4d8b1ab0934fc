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

/// Runs `stage` on a pool of `threads` threads: the calling thread takes a
/// window while the pool works on the one before it (`work` on each item,
/// in parallel), and writes a window's items in order while the pool works
/// on the next. At most three windows are held at once (being taken,
/// worked on, written), so memory is bounded by the windows' size,
/// whatever the input's.
///
/// An item is never split between threads, so while the windows hold one
/// item each (a small input) the calling thread works them itself, and the
/// pool is started at the first window of several: starting it costs more
/// CPU than solving a few boards, and a judge or a stress test runs
/// `solve` once for every small input.
///
/// When [`Stage::write`] ends the run, the items still waiting for `work`
/// are skipped. A panic in `work` is raised again on the calling thread
/// (by rayon's scope), after the items written before it.
///
/// # Errors
///
/// The first error of [`Stage::write`], or a failure to start the pool.
pub(super) fn ordered_windows<T: Send>(
    threads: usize,
    stage: &mut dyn Stage<T>,
    work: &(dyn Fn(&mut T) + Sync),
) -> io::Result<()> {
    let mut free: Vec<T> = Vec::new();
    let (mut first, mut more) = stage.take_window(&mut free);
    while first.len() <= 1 {
        first.iter_mut().for_each(work);
        for item in &first {
            if stage.write(item)? {
                return Ok(());
            }
        }
        if !more {
            return Ok(());
        }
        free.extend(first);
        (first, more) = stage.take_window(&mut free);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    // Set when the run ends, so that items still queued are not worked on
    // for nothing.
    let cancelled = AtomicBool::new(false);
    let cancelled = &cancelled;
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
        let write_in_order = || {
            let mut working = start(first);
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
        let mut stage = Squares {
            next: 0,
            last: Some(100),
            windows: 0,
            written: Vec::new(),
        };
        ordered_windows(2, &mut stage, &|item: &mut u64| *item *= *item).unwrap();
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
        let error = ordered_windows(2, &mut Failing, &|_: &mut u8| {}).unwrap_err();
        assert_eq!(error.to_string(), "disk full");
    }

    #[test]
    fn a_panic_in_work_reaches_the_caller_after_the_items_before_it() {
        let mut stage = Squares {
            next: 0,
            last: None,
            windows: 0,
            written: Vec::new(),
        };
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ordered_windows(2, &mut stage, &|item: &mut u64| {
                assert!(*item != 7, "seven");
                *item *= *item;
            })
        }));
        assert!(panicked.is_err());
        assert_eq!(stage.written, [0, 1, 4, 9, 16, 25]);
    }

    /// Windows of the given sizes, each item recording whether a pool
    /// thread worked it.
    struct Windows {
        sizes: Vec<usize>,
        written: Vec<bool>,
    }

    impl Stage<bool> for Windows {
        fn take_window(&mut self, _: &mut Vec<bool>) -> (Vec<bool>, bool) {
            let size = self.sizes.remove(0);
            (vec![false; size], !self.sizes.is_empty())
        }

        fn write(&mut self, on_a_pool_thread: &bool) -> io::Result<bool> {
            self.written.push(*on_a_pool_thread);
            Ok(false)
        }
    }

    fn record_the_thread(on_a_pool_thread: &mut bool) {
        *on_a_pool_thread = rayon::current_thread_index().is_some();
    }

    #[test]
    fn windows_of_one_item_are_worked_on_the_calling_thread_until_one_of_several() {
        let mut small = Windows {
            sizes: vec![1, 0, 1],
            written: Vec::new(),
        };
        ordered_windows(2, &mut small, &record_the_thread).unwrap();
        assert_eq!(small.written, [false, false], "no pool for single items");

        let mut growing = Windows {
            sizes: vec![1, 3, 1],
            written: Vec::new(),
        };
        ordered_windows(2, &mut growing, &record_the_thread).unwrap();
        assert_eq!(
            growing.written,
            [false, true, true, true, true],
            "the pool starts at the first window of several and works the rest"
        );
    }
}
