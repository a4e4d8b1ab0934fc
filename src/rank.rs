//! A perfect index for the 8-cell subsets of the 24 cells: the combinatorial
//! number system ("combinadic").
//!
//! # Overview
//!
//! A set with cells `p0 < p1 < … < p7` has rank `C(p0, 1) + C(p1, 2) + … +
//! C(p7, 8)`. The map is a bijection from the 8-subsets onto
//! `0..SUBSET_COUNT`, and it preserves the numeric order of the sets' bit
//! masks, so sorting by rank sorts by mask.
//!
//! [`rank`] reads the set's two 12-bit halves from two precomputed 16 KB
//! tables, two independent lookups, which is what makes it cheap enough for
//! the solvers' inner loops; [`rank_slow`] is the definition the tables are
//! tested against, on every set.
//!
//! This file uses nothing from the crate but [`cells`](crate::cells), because
//! the build script includes it; keep it so.

use crate::cells::EightCells;

/// Number of 8-cell subsets of the 24 cells: C(24, 8).
pub const SUBSET_COUNT: usize = 735_471;

/// Cells in each subset that is ranked.
const SUBSET_SIZE: usize = 8;

/// `BINOMIAL[n][k]` is C(n, k) for n ≤ 24 and k ≤ 24.
const BINOMIAL: [[u32; 25]; 25] = {
    let mut table = [[0u32; 25]; 25];
    let mut n = 0;
    while n < 25 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
};

/// C(n, k), with C(n, k) = 0 for k > n.
pub const fn binomial(n: usize, k: usize) -> u32 {
    BINOMIAL[n][k]
}

/// The rank contribution of the cells of `bits`, a 12-bit half of a set
/// whose first cell is cell `shift`, when `below` cells of the set lie
/// under the half.
const fn half_part(bits: usize, shift: usize, below: usize) -> u32 {
    let mut part = 0;
    let mut seen = below;
    let mut bit = 0;
    while bit < HALF_BITS {
        if bits & (1 << bit) != 0 {
            seen += 1;
            if seen <= SUBSET_SIZE {
                part += binomial(shift + bit, seen);
            }
        }
        bit += 1;
    }
    part
}

/// Cells in each half of the board's 24: cells 0 to 11, and 12 to 23.
const HALF_BITS: usize = 12;

/// `RANK_LOW[l]`: the rank contribution of the cells of the low half `l`
/// (cells 0 to 11) of a set; no cell lies below them.
static RANK_LOW: [u32; 1 << HALF_BITS] = {
    let mut table = [0u32; 1 << HALF_BITS];
    let mut bits = 0;
    while bits < 1 << HALF_BITS {
        table[bits] = half_part(bits, 0, 0);
        bits += 1;
    }
    table
};

/// `RANK_HIGH[h]`: the rank contribution of the cells of the high half `h`
/// (cells 12 to 23) of an eight-cell set. The cells below it are the set's
/// other `8 - |h|`, so the half alone determines it. Halves of more than
/// eight cells belong to no eight-cell set; their entries are 0 and never
/// read.
static RANK_HIGH: [u32; 1 << HALF_BITS] = {
    let mut table = [0u32; 1 << HALF_BITS];
    let mut bits = 0;
    while bits < 1 << HALF_BITS {
        let count = (bits as u32).count_ones() as usize;
        if count <= SUBSET_SIZE {
            table[bits] = half_part(bits, HALF_BITS, SUBSET_SIZE - count);
        }
        bits += 1;
    }
    table
};

/// The rank of an 8-cell subset, in `0..SUBSET_COUNT`.
///
/// Two independent lookups, one per 12-bit half: the high half's
/// contribution depends on how many cells lie below it, which for a set of
/// exactly eight cells is 8 minus the half's own count. Independent reads
/// let the processor overlap the ranks of many sets.
#[inline]
pub fn rank(cells: EightCells) -> usize {
    let set = cells.mask() as usize;
    (RANK_LOW[set & 0xfff] + RANK_HIGH[(set >> HALF_BITS) & 0xfff]) as usize
}

/// The rank by its definition, one bit at a time.
pub const fn rank_slow(cells: EightCells) -> usize {
    let set = cells.mask();
    let mut rank = 0;
    let mut seen = 0;
    let mut cell = 0;
    while cell < 24 {
        if set & (1 << cell) != 0 {
            seen += 1;
            rank += binomial(cell, seen) as usize;
        }
        cell += 1;
    }
    rank
}

/// The 8-cell subset of the given rank; the inverse of [`rank`].
///
/// `rank` must be below [`SUBSET_COUNT`].
pub const fn unrank(mut rank: usize) -> EightCells {
    let mut set = 0;
    let mut k = SUBSET_SIZE;
    let mut cell = 24;
    while k > 0 {
        cell -= 1;
        let c = binomial(cell, k) as usize;
        if c <= rank {
            rank -= c;
            set |= 1 << cell;
            k -= 1;
        }
    }
    EightCells::from_mask_unchecked(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_inverts_unrank_and_matches_the_definition_on_every_set() {
        for index in 0..SUBSET_COUNT {
            let cells = unrank(index);
            assert_eq!(rank(cells), index);
            assert_eq!(rank_slow(cells), index);
        }
    }
}
