//! The census: the exact number of boards at each optimal length, over all
//! 24!/(8!·8!·8!) = 9,465,511,770 boards.
//!
//! # Overview
//!
//! [`census`] counts every board, exhaustively, in parallel; the result is
//! embedded as [`BOARDS_BY_OPTIMAL_LENGTH`] (`tests/cli/census.rs`
//! recomputes it with `rotation-game census`, at every `cargo test`).
//!
//! A board's optimal length is the least [pattern database
//! distance](crate::pattern_database::distance) of its three digits' cell
//! sets. Writing `S1, S2, S3` for the cells of digits 1, 2 and 3:
//!
//! ```text
//! count[L] = #{ (S1, S2, S3) partition of the 24 cells into 8-sets :
//!               min(d(S1), d(S2), d(S3)) = L }
//! ```
//!
//! # Symmetries used, and why they are sound
//!
//! 1. **The board's eight symmetries.** For a symmetry `g` (a rotation or
//!    reflection of the square, see `src/symmetry.rs`),
//!    `d(g(S)) = d(S)` for every set `S`. Let `F(S1)` be the histogram of
//!    `min(d(S1), d(S2), d(S3))` over the 12,870 ways of splitting the
//!    complement of `S1` into `(S2, S3)`. `g` maps the splits of the
//!    complement of `S1` one-to-one onto the splits of the complement of
//!    `g(S1)` (it is a permutation of the cells) and preserves every
//!    distance, so `F(g(S1)) = F(S1)`. Hence the sum of `F` over all
//!    735,471 sets `S1` is the sum, over one representative per orbit, of
//!    the orbit's size times `F(representative)`. The representative is the
//!    orbit's smallest cell mask; there are 92,247 orbits instead of 735,471 sets.
//! 2. **Swapping the second and third digits.** `(S1, S2, S3)` and
//!    `(S1, S3, S2)` have the same three distances, and they are different
//!    boards because `S2` and `S3` are disjoint and non-empty. So `F(S1)` is
//!    twice the histogram over unordered splits `{S2, S3}`, which are
//!    enumerated as the splits where `S2` holds the lowest cell of the
//!    complement: 6,435 of them.
//!
//! Together they visit about 5.9 × 10⁸ splits instead of 9.5 × 10⁹. (Relabelling all three
//! digits would give a factor of 6, but it does not combine as simply with
//! the board's symmetries, which act on the first digit's set alone here.)
//!
//! # The inner loop
//!
//! For a fixed `S1`, its complement `R` has 16 cells `r0 < … < r15`; call
//! the first eight the low half and the rest the high half. A split puts
//! `k` low cells and `8 - k` high cells into `S2`, and the others into
//! `S3`. The combinadic rank (see `src/rank.rs`) of a set is a sum
//! over its cells in increasing order, `C(p_i, i + 1)`, and every low cell
//! precedes every high cell; so the rank of `S2` is the contribution of its
//! low part (at positions `0..k`) plus that of its high part (at positions
//! `k..8`), and the same holds for `S3`. A high part with `j` cells always
//! sits at positions `8 - j..8`, whichever set it belongs to, so one
//! 256-entry table per half, rebuilt once per `S1`, gives every
//! contribution, and each split costs two additions and two table reads.

use rayon::prelude::*;

use crate::cells::EightCells;
use crate::geometry::{ALL_CELLS, CELL_COUNT};
use crate::length::{LengthCounts, OptimalLength};
use crate::pattern_database::{self, MAX_DISTANCE};
use crate::rank::binomial;
use crate::symmetry::Symmetry;

/// The number of boards: 24! / (8! · 8! · 8!).
pub const TOTAL_BOARDS: u64 = 9_465_511_770;

/// The number of boards of each optimal length, indexed by length, as
/// computed by [`census`] (`tests/cli/census.rs` recomputes it).
pub const BOARDS_BY_OPTIMAL_LENGTH: [u64; OptimalLength::MAX.moves() as usize + 1] = [
    38_610,
    308_880,
    1_698_840,
    8_030_880,
    33_820_248,
    124_134_840,
    400_278_348,
    1_098_954_804,
    2_316_756_348,
    3_172_593_156,
    1_992_066_648,
    312_776_400,
    4_053_576,
    192,
];

/// Splits of the sixteen other cells between the second and third digits,
/// counting `{S2, S3}` once: C(16, 8) / 2.
const UNORDERED_SPLITS: u64 = 6_435;

/// Histogram bins: one per possible distance.
const BINS: usize = MAX_DISTANCE as usize + 1;

/// The embedded result, [`BOARDS_BY_OPTIMAL_LENGTH`].
pub fn embedded() -> LengthCounts {
    LengthCounts::from_counts(&BOARDS_BY_OPTIMAL_LENGTH)
}

/// Counts every board by optimal length, on `threads` threads (0: one per
/// core). `progress` is called from the worker threads with the number of
/// boards just counted; the calls add up to [`TOTAL_BOARDS`].
///
/// The result does not depend on the number of threads: it is a sum of
/// integers. See the [module docs](self) for the method.
///
/// # Errors
///
/// When the thread pool cannot be built.
pub fn census(
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<LengthCounts, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let representatives = orbit_representatives();
    Ok(pool.install(|| count_orbits(&representatives, progress)))
}

/// The boards whose first digit's set lies in the orbit of one of
/// `representatives`, counted by optimal length on the current thread
/// pool. `progress` is told the boards of each chunk once it is counted,
/// so its calls add up to the counts' total.
fn count_orbits(
    representatives: &[Representative],
    progress: &(dyn Fn(u64) + Sync),
) -> LengthCounts {
    let counts = representatives
        .par_chunks(64)
        .map(|chunk| {
            let mut counts = [0u64; BINS];
            let mut boards = 0;
            for representative in chunk {
                add_first_set(&mut counts, representative);
                boards += representative.orbit_size * 2 * UNORDERED_SPLITS;
            }
            progress(boards);
            counts
        })
        .reduce(|| [0u64; BINS], add_counts);
    LengthCounts::from_counts(&counts)
}

/// A first-digit set standing for its orbit under the board's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Representative {
    /// The smallest cell mask of the orbit.
    cells: u32,
    /// How many distinct sets the orbit holds (1, 2, 4 or 8).
    orbit_size: u64,
}

/// One representative per orbit of 8-cell sets, in increasing order.
fn orbit_representatives() -> Vec<Representative> {
    let symmetries = Symmetry::all();
    let mut representatives = Vec::new();
    for cells in eight_cell_sets() {
        let mut images = symmetries.each_ref().map(|g| g.apply_to_cells(cells));
        if images.iter().all(|&image| image >= cells) {
            images.sort_unstable();
            let distinct = 1 + images.windows(2).filter(|pair| pair[0] != pair[1]).count();
            representatives.push(Representative {
                cells,
                orbit_size: distinct as u64,
            });
        }
    }
    representatives
}

/// Every 8-cell set of the board, in increasing mask order (Gosper's hack).
fn eight_cell_sets() -> impl Iterator<Item = u32> {
    std::iter::successors(Some(0xffu32), |&set| {
        let lowest = set & set.wrapping_neg();
        let ripple = set + lowest;
        let next = (((ripple ^ set) >> 2) / lowest) | ripple;
        (next <= ALL_CELLS).then_some(next)
    })
}

/// Adds the boards whose first digit's set is in the orbit of
/// `representative` to `counts`.
fn add_first_set(counts: &mut [u64; BINS], representative: &Representative) {
    let first = pattern_database::distance(EightCells::from_mask_unchecked(representative.cells));
    let splits = split_histogram(representative.cells);
    let weight = 2 * representative.orbit_size;
    for (rest, &count) in splits.iter().enumerate() {
        counts[usize::from(first).min(rest)] += weight * u64::from(count);
    }
}

/// For the first digit's set `first`: how many unordered splits `{S2, S3}`
/// of the other sixteen cells have each value of `min(d(S2), d(S3))`.
/// See the [module docs](self) for the method.
fn split_histogram(first: u32) -> [u32; BINS] {
    let rest: Vec<usize> = (0..CELL_COUNT)
        .filter(|&cell| first & (1 << cell) == 0)
        .collect();
    let (low_cells, high_cells) = rest.split_at(8);
    // Rank contribution of each subset of the low half, at positions 0..k.
    let mut low = [0u32; 256];
    for subset in 1..256usize {
        let top = 7 - (subset as u8).leading_zeros() as usize;
        let size = subset.count_ones() as usize;
        low[subset] = low[subset ^ (1 << top)] + binomial(low_cells[top], size);
    }
    // Rank contribution of each subset of the high half, at positions
    // 8 - j..8 for a subset of j cells.
    let high: [u32; 256] = std::array::from_fn(|subset| {
        let size = subset.count_ones() as usize;
        (0..8)
            .filter(|bit| subset & (1 << bit) != 0)
            .enumerate()
            .map(|(i, bit)| binomial(high_cells[bit], 8 - size + i + 1))
            .sum()
    });
    let table = pattern_database::distances();
    let masks = masks_by_size();
    // Four histograms, filled in turn, so that consecutive increments of one
    // bin do not wait for each other.
    let mut histograms = [[0u32; BINS]; 4];
    for low_size in 1..=8 {
        let high_pairs: Vec<(u32, u32)> = masks[8 - low_size]
            .iter()
            .map(|&subset| (high[subset], high[255 ^ subset]))
            .collect();
        for &second_low in masks[low_size].iter().filter(|&&subset| subset & 1 != 0) {
            let second_base = low[second_low] as usize;
            let third_base = low[255 ^ second_low] as usize;
            for (lane, &(second_high, third_high)) in high_pairs.iter().enumerate() {
                let second = table[second_base + second_high as usize];
                let third = table[third_base + third_high as usize];
                histograms[lane % 4][usize::from(second.min(third))] += 1;
            }
        }
    }
    std::array::from_fn(|bin| histograms.iter().map(|h| h[bin]).sum())
}

/// The 8-bit masks grouped by their number of set bits.
fn masks_by_size() -> [Vec<usize>; 9] {
    let mut masks: [Vec<usize>; 9] = Default::default();
    for mask in 0..256usize {
        masks[mask.count_ones() as usize].push(mask);
    }
    masks
}

/// Adds two count arrays.
fn add_counts(mut sum: [u64; BINS], other: [u64; BINS]) -> [u64; BINS] {
    for (total, count) in sum.iter_mut().zip(other) {
        *total += count;
    }
    sum
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::board::Board;
    use crate::generator::hardest_boards;
    use crate::geometry::CENTRE;
    use crate::rank::{SUBSET_COUNT, rank};

    /// `min(d(S2), d(S3))` over every ordered split of the cells outside
    /// `first`, by plain enumeration and [`pattern_database::distance`].
    fn ordered_splits_by_brute_force(first: u32) -> [u64; BINS] {
        let rest: Vec<usize> = (0..CELL_COUNT)
            .filter(|&cell| first & (1 << cell) == 0)
            .collect();
        let mut histogram = [0u64; BINS];
        for choice in 0u32..1 << 16 {
            if choice.count_ones() != 8 {
                continue;
            }
            let (mut second, mut third) = (0, 0);
            for (bit, &cell) in rest.iter().enumerate() {
                if choice & (1 << bit) != 0 {
                    second |= 1 << cell;
                } else {
                    third |= 1 << cell;
                }
            }
            let distance = |set| pattern_database::distance(EightCells::from_mask_unchecked(set));
            let nearest = distance(second).min(distance(third));
            histogram[usize::from(nearest)] += 1;
        }
        histogram
    }

    /// A few first-digit sets of every kind: the centre, the lowest and
    /// highest masks, and some spread by rank.
    fn sample_sets() -> Vec<u32> {
        let mut sets = vec![CENTRE, 0xff, ALL_CELLS & !0xffff];
        sets.extend(
            (0..SUBSET_COUNT)
                .step_by(24_593)
                .map(|index| crate::rank::unrank(index).mask()),
        );
        sets
    }

    #[test]
    fn eight_cell_sets_are_all_subsets_in_rank_order() {
        let sets: Vec<u32> = eight_cell_sets().collect();
        assert_eq!(sets.len(), SUBSET_COUNT);
        assert!(
            sets.iter()
                .enumerate()
                .all(|(index, &set)| rank(EightCells::from_mask_unchecked(set)) == index)
        );
    }

    #[test]
    fn orbits_cover_every_set_once() {
        let representatives = orbit_representatives();
        let covered: u64 = representatives.iter().map(|r| r.orbit_size).sum();
        assert_eq!(covered, SUBSET_COUNT as u64);
        assert_eq!(representatives.len(), 92_247);
    }

    #[test]
    fn split_histogram_matches_brute_force() {
        for first in sample_sets() {
            let fast = split_histogram(first).map(|count| 2 * u64::from(count));
            assert_eq!(fast, ordered_splits_by_brute_force(first), "{first:#08x}");
        }
    }

    #[test]
    fn an_orbit_counts_as_its_members_counted_one_by_one() {
        let symmetries = Symmetry::all();
        let representatives = orbit_representatives();
        let mut sample: Vec<&Representative> = representatives.iter().step_by(9_001).collect();
        // And the first orbit of each smaller size: sets with symmetries.
        for size in [1, 2, 4] {
            sample.extend(representatives.iter().find(|r| r.orbit_size == size));
        }
        assert_eq!(sample.len(), 14);
        for representative in sample {
            let mut fast = [0u64; BINS];
            add_first_set(&mut fast, representative);
            let mut members: Vec<u32> = symmetries
                .iter()
                .map(|g| g.apply_to_cells(representative.cells))
                .collect();
            members.sort_unstable();
            members.dedup();
            let mut slow = [0u64; BINS];
            for first in members {
                let own = pattern_database::distance(EightCells::from_mask_unchecked(first));
                for (rest, count) in ordered_splits_by_brute_force(first).into_iter().enumerate() {
                    slow[usize::from(own).min(rest)] += count;
                }
            }
            assert_eq!(fast, slow, "{:#08x}", representative.cells);
        }
    }

    #[test]
    fn orbits_are_counted_as_their_sets_and_reported_as_counted_on_any_pool() {
        // 132 orbits, spread over the whole range: three chunks.
        let sample: Vec<Representative> =
            orbit_representatives().into_iter().step_by(701).collect();
        assert_eq!(sample.len(), 132);
        let mut expected = [0u64; BINS];
        for representative in &sample {
            add_first_set(&mut expected, representative);
        }
        let expected = LengthCounts::from_counts(&expected);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let reported = AtomicU64::new(0);
            let calls = AtomicU64::new(0);
            let counts = pool.install(|| {
                count_orbits(&sample, &|boards| {
                    reported.fetch_add(boards, Ordering::Relaxed);
                    calls.fetch_add(1, Ordering::Relaxed);
                })
            });
            assert_eq!(counts.as_slice(), expected.as_slice(), "{threads} threads");
            assert_eq!(reported.into_inner(), counts.total(), "{threads} threads");
            assert_eq!(calls.into_inner(), 3, "one call per chunk of 64");
        }
    }

    #[test]
    fn embedded_counts_add_up_to_every_board() {
        let total = u64::from(binomial(24, 8)) * u64::from(binomial(16, 8));
        assert_eq!(total, TOTAL_BOARDS);
        assert_eq!(embedded().total(), TOTAL_BOARDS);
    }

    #[test]
    fn embedded_count_at_length_zero_is_the_boards_with_a_uniform_centre() {
        // Counted directly: a digit fills the centre, and the other sixteen
        // cells hold the other two digits in any arrangement.
        let outer: Vec<usize> = (0..CELL_COUNT)
            .filter(|&cell| CENTRE & (1 << cell) == 0)
            .collect();
        let mut solved = 0;
        for centre_digit in 0..3 {
            for choice in 0u32..1 << 16 {
                if choice.count_ones() != 8 {
                    continue;
                }
                let mut values = [centre_digit + 1; CELL_COUNT];
                for (bit, &cell) in outer.iter().enumerate() {
                    let other = if choice & (1 << bit) != 0 { 1 } else { 2 };
                    values[cell] = (centre_digit + other) % 3 + 1;
                }
                let board = Board::from_values(&values).unwrap();
                assert!(board.is_solved());
                solved += 1;
            }
        }
        assert_eq!(solved, 38_610);
        assert_eq!(BOARDS_BY_OPTIMAL_LENGTH[0], solved);
    }

    #[test]
    fn embedded_counts_reach_exactly_the_greatest_optimal_length() {
        let hardest = hardest_boards();
        for board in &hardest {
            assert_eq!(pattern_database::optimal_length(board), OptimalLength::MAX);
        }
        assert_eq!(embedded().max_length(), Some(OptimalLength::MAX));
        assert!(BOARDS_BY_OPTIMAL_LENGTH.iter().all(|&count| count > 0));
        assert_eq!(
            BOARDS_BY_OPTIMAL_LENGTH[usize::from(OptimalLength::MAX.moves())],
            hardest.len() as u64
        );
    }
}
