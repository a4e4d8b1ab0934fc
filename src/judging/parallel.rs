//! One way to judge many items in parallel and stop after the first
//! failures, shared by a campaign's runs and a folder's files.
//!
//! [`in_order`] judges items `0..count` on `jobs` threads and reports them
//! in index order, whatever order they finish in. Which items are reported,
//! which failure is kept and which error is returned depend on the items
//! alone, never on the number of threads or on timing:
//!
//! - The failure kept is the earliest by index (only it is kept, so memory
//!   does not grow with the failures).
//! - With `max_fail` N, the items after the N-th failure by index are not
//!   reported, whether or not they were judged (an item after it is not
//!   started once N failures before it are known), and their errors do not
//!   count. Fail-fast is N = 1.
//! - The error returned is the earliest by index among the items that
//!   count: once an item fails to be judged, no item after it starts, and
//!   every item before it is judged, so an earlier error is always found.
//!
//! One exception, by design: an item whose judging returns an error of
//! kind [`io::ErrorKind::Interrupted`] was stopped by a signal (the runner
//! says so when asked to stop). Then no item starts any more, and the items
//! judged so far are reported, in order, with the gaps the stop left, and
//! the result says it was interrupted: what ran is kept, not thrown away.

use std::collections::BTreeSet;
use std::io;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

/// What [`in_order`] found.
#[derive(Debug)]
pub(crate) struct InOrder<T, F> {
    /// The items reported, in index order.
    pub reported: Vec<T>,
    /// The earliest failing item: its position in `reported` (its index,
    /// unless a stop left gaps before it) and its detail.
    pub first_failure: Option<(usize, F)>,
    /// How many of the items reported failed.
    pub failures: usize,
    /// How many items were not reported: those after the `max_fail`-th
    /// failure, and those a stop left unjudged.
    pub not_reported: usize,
    /// Whether a stop (an `Interrupted` error) ended the judging early.
    pub interrupted: bool,
}

/// Judges items `0..count` with `judge`, `jobs` at once (at least one),
/// and reports them in order, stopping after `max_fail` failures (`None`:
/// never; `Some(0)` is taken as 1); `judge` gives an item's record and,
/// when it failed, the failure's detail. See the [module docs](self).
///
/// # Errors
///
/// The earliest error of `judge` that counts (never an `Interrupted` one),
/// or the threads that cannot start.
pub(crate) fn in_order<T: Send, F: Send>(
    count: usize,
    jobs: usize,
    max_fail: Option<usize>,
    judge: impl Fn(usize) -> io::Result<(T, Option<F>)> + Sync,
) -> io::Result<InOrder<T, F>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(io::Error::other)?;
    let stops = Stops::new(max_fail.map(|most| most.max(1)));
    let results: Vec<Option<io::Result<(T, bool)>>> = pool.install(|| {
        (0..count)
            .into_par_iter()
            .map(|index| (!stops.skips(index)).then(|| stops.note(index, judge(index))))
            .collect()
    });
    let first_failure = stops
        .first_failure
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    let interrupted = stops.interrupted.into_inner();
    // Every item up to the cutoff (the last failure that counts) or the
    // first error was judged, unless a stop came first: an item is skipped
    // only after max_fail earlier ones failed, or an earlier one could not
    // be judged, or a stop.
    let counted = stops.cutoff.into_inner().saturating_add(1).min(count);
    let first_index = first_failure.as_ref().map(|(index, _)| *index);
    let mut first_position = None;
    let mut reported = Vec::with_capacity(counted);
    let mut failures = 0;
    for (index, result) in results.into_iter().enumerate().take(counted) {
        match result {
            None => {}
            Some(Ok((record, failed))) => {
                failures += usize::from(failed);
                if Some(index) == first_index {
                    first_position = Some(reported.len());
                }
                reported.push(record);
            }
            Some(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
            Some(Err(error)) if !interrupted => return Err(error),
            // After a stop, an item that could not be judged is one more
            // item not reported: the stop is what the caller hears of.
            Some(Err(_)) => {}
        }
    }
    Ok(InOrder {
        not_reported: count - reported.len(),
        reported,
        first_failure: first_failure
            .and_then(|(_, failed)| first_position.map(|position| (position, failed))),
        failures,
        interrupted,
    })
}

/// What tells the threads which items not to start: the failures so far
/// (the `max_fail` earliest), the first error, whether a stop came; and
/// the first failure's detail.
struct Stops<F> {
    max_fail: Option<usize>,
    /// The index of the `max_fail`-th earliest failure known, or of the
    /// first error if earlier; `usize::MAX` before either.
    cutoff: AtomicUsize,
    failed: Mutex<BTreeSet<usize>>,
    interrupted: AtomicBool,
    first_failure: Mutex<Option<(usize, F)>>,
}

impl<F> Stops<F> {
    fn new(max_fail: Option<usize>) -> Stops<F> {
        Stops {
            max_fail,
            cutoff: AtomicUsize::new(usize::MAX),
            failed: Mutex::new(BTreeSet::new()),
            interrupted: AtomicBool::new(false),
            first_failure: Mutex::new(None),
        }
    }

    /// Whether item `index` need not be judged: it comes after an item
    /// that could not be judged or after the `max_fail`-th failure, or a
    /// stop came.
    fn skips(&self, index: usize) -> bool {
        index > self.cutoff.load(Ordering::Relaxed) || self.interrupted.load(Ordering::Relaxed)
    }

    /// Notes how item `index` was judged, keeping its failure if it is the
    /// earliest so far; gives its record and whether it failed.
    fn note<T>(&self, index: usize, judged: io::Result<(T, Option<F>)>) -> io::Result<(T, bool)> {
        let (record, failed) = judged.inspect_err(|error| {
            if error.kind() == io::ErrorKind::Interrupted {
                self.interrupted.store(true, Ordering::Relaxed);
            } else {
                self.cutoff.fetch_min(index, Ordering::Relaxed);
            }
        })?;
        let Some(failed) = failed else {
            return Ok((record, false));
        };
        if let Some(most) = self.max_fail {
            let mut known = self
                .failed
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            known.insert(index);
            // Only the `most` earliest failures can ever count.
            while known.len() > most {
                known.pop_last();
            }
            if known.len() == most
                && let Some(&last) = known.last()
            {
                self.cutoff.fetch_min(last, Ordering::Relaxed);
            }
        }
        let mut kept = self
            .first_failure
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if kept.as_ref().is_none_or(|(earlier, _)| index < *earlier) {
            *kept = Some((index, failed));
        }
        Ok((record, true))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Condvar, Mutex};
    use std::time::Duration;

    use super::*;

    /// Items that fail (with their index as detail) where `failing` says,
    /// cannot be judged where `broken` says, and record the order in which
    /// they finish.
    struct Items {
        failing: Vec<usize>,
        broken: Vec<usize>,
        stopped: Vec<usize>,
        finished: Mutex<Vec<usize>>,
        done: Condvar,
    }

    impl Items {
        fn new(failing: &[usize], broken: &[usize]) -> Items {
            Items {
                failing: failing.to_vec(),
                broken: broken.to_vec(),
                stopped: Vec::new(),
                finished: Mutex::new(Vec::new()),
                done: Condvar::new(),
            }
        }

        fn judge(&self, index: usize) -> io::Result<(usize, Option<usize>)> {
            self.finish(index);
            if self.broken.contains(&index) {
                return Err(io::Error::other(format!("item {index}")));
            }
            if self.stopped.contains(&index) {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "stopped"));
            }
            Ok((index, self.failing.contains(&index).then_some(index)))
        }

        fn finish(&self, index: usize) {
            self.finished.lock().unwrap().push(index);
            self.done.notify_all();
        }

        /// Waits (a second at most) until `index` has finished.
        fn wait_for(&self, index: usize) {
            let finished = self.finished.lock().unwrap();
            let _unused = self
                .done
                .wait_timeout_while(finished, Duration::from_secs(1), |finished| {
                    !finished.contains(&index)
                })
                .unwrap();
        }
    }

    fn error_of<T: std::fmt::Debug>(result: io::Result<T>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn items_are_reported_in_order_whatever_the_number_of_threads() {
        for jobs in [1, 2, 3, 8] {
            let items = Items::new(&[], &[]);
            let judged = in_order(40, jobs, None, |index| {
                // The later items finish first where threads allow.
                std::thread::sleep(Duration::from_micros(40 - index as u64) * 20);
                items.judge(index)
            })
            .unwrap();
            assert_eq!(judged.reported, (0..40).collect::<Vec<_>>(), "{jobs} jobs");
            assert_eq!(judged.not_reported, 0);
            assert!(judged.first_failure.is_none());
        }
    }

    #[test]
    fn the_failure_kept_is_the_earliest_even_when_a_later_one_finishes_first() {
        let items = Items::new(&[1, 2], &[]);
        let judged = in_order(3, 2, None, |index| {
            if index == 1 {
                items.wait_for(2);
            }
            items.judge(index)
        })
        .unwrap();
        assert_eq!(judged.first_failure.map(|(index, _)| index), Some(1));
        assert_eq!(judged.reported, [0, 1, 2]);
    }

    #[test]
    fn fail_fast_reports_nothing_after_the_first_failure() {
        for jobs in [1, 2, 4] {
            let items = Items::new(&[5, 9], &[]);
            let judged = in_order(20, jobs, Some(1), |index| items.judge(index)).unwrap();
            assert_eq!(judged.reported, (0..=5).collect::<Vec<_>>(), "{jobs} jobs");
            assert_eq!(judged.not_reported, 14);
            assert_eq!(judged.first_failure, Some((5, 5)));
            if jobs == 1 {
                assert_eq!(*items.finished.lock().unwrap(), (0..=5).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_earliest_error_wins() {
        let items = Items::new(&[], &[1, 2]);
        let judged = in_order(4, 2, None, |index| {
            if index == 1 {
                items.wait_for(2);
            }
            items.judge(index)
        });
        assert_eq!(error_of(judged), "item 1");
        let items = Items::new(&[], &[3]);
        let judged = in_order(6, 1, None, |index| items.judge(index));
        assert_eq!(error_of(judged), "item 3");
        assert_eq!(*items.finished.lock().unwrap(), [0, 1, 2, 3]);
    }

    #[test]
    fn with_fail_fast_an_error_after_the_first_failure_does_not_count() {
        for jobs in [1, 2] {
            let items = Items::new(&[1], &[2, 3]);
            let judged = in_order(4, jobs, Some(1), |index| items.judge(index)).unwrap();
            assert_eq!(judged.reported, [0, 1]);
            assert_eq!(judged.not_reported, 2);
        }
        let items = Items::new(&[2], &[1]);
        let judged = in_order(4, 2, Some(1), |index| items.judge(index));
        assert_eq!(error_of(judged), "item 1");
    }

    #[test]
    fn max_fail_reports_up_to_the_nth_failure_whatever_the_number_of_threads() {
        for jobs in [1, 2, 4] {
            let items = Items::new(&[3, 5, 9, 11], &[]);
            let judged = in_order(20, jobs, Some(3), |index| items.judge(index)).unwrap();
            assert_eq!(judged.reported, (0..=9).collect::<Vec<_>>(), "{jobs} jobs");
            assert_eq!(judged.failures, 3);
            assert_eq!(judged.not_reported, 10);
            assert_eq!(judged.first_failure, Some((3, 3)));
            assert!(!judged.interrupted);
            // Fewer failures than the most allowed: everything is reported.
            let judged = in_order(20, jobs, Some(5), |index| items.judge(index)).unwrap();
            assert_eq!((judged.reported.len(), judged.failures), (20, 4));
            let judged = in_order(20, jobs, None, |index| items.judge(index)).unwrap();
            assert_eq!((judged.reported.len(), judged.failures), (20, 4));
        }
        // Zero is taken as one.
        let items = Items::new(&[2], &[]);
        let judged = in_order(5, 1, Some(0), |index| items.judge(index)).unwrap();
        assert_eq!(judged.reported, [0, 1, 2]);
    }

    #[test]
    fn a_stop_keeps_what_was_judged_and_starts_nothing_more() {
        let mut items = Items::new(&[1], &[6]);
        items.stopped = vec![3];
        let judged = in_order(10, 1, None, |index| items.judge(index)).unwrap();
        assert!(judged.interrupted);
        assert_eq!(judged.reported, [0, 1, 2]);
        assert_eq!(judged.failures, 1);
        assert_eq!(judged.first_failure, Some((1, 1)));
        assert_eq!(judged.not_reported, 7);
        // Nothing after the stop was started, so item 6's error never came.
        assert_eq!(*items.finished.lock().unwrap(), [0, 1, 2, 3]);
        // On two threads, what finished on either side of the stop is kept,
        // in order, with the gap the stop left.
        let mut items = Items::new(&[3], &[]);
        items.stopped = vec![1];
        let judged = in_order(4, 2, None, |index| {
            if index == 1 {
                items.wait_for(3);
            }
            items.judge(index)
        })
        .unwrap();
        assert!(judged.interrupted);
        assert_eq!(judged.reported, [0, 2, 3]);
        assert_eq!(judged.not_reported, 1);
        // The failure's position is where it stands among those reported.
        assert_eq!(judged.first_failure, Some((2, 3)));
    }

    #[test]
    fn nothing_to_judge_is_an_empty_report() {
        let judged = in_order(0, 4, Some(1), |_| Ok::<_, io::Error>(((), None::<()>))).unwrap();
        assert!(judged.reported.is_empty());
        assert_eq!(judged.not_reported, 0);
    }
}
