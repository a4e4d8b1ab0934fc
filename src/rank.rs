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
//! [`rank`] reads the set a byte at a time from precomputed tables, which is
//! what makes it cheap enough for the solver's inner loop; [`rank_slow`] is
//! the definition the tables are tested against.
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

/// `RANK_BY_BYTE[j][k][b]`: the rank contribution of byte `b` found at byte
/// position `j` of the mask when `k` set bits lie below it, in the low 24 bits,
/// and the number of set bits of `b` in the top 8. Entries where more than
/// eight bits would be set in total are never read by [`rank`] on a valid
/// subset; they hold whatever the formula gives.
static RANK_BY_BYTE: [[[u32; 256]; SUBSET_SIZE + 1]; 3] = {
    let mut table = [[[0u32; 256]; SUBSET_SIZE + 1]; 3];
    let mut byte_index = 0;
    while byte_index < 3 {
        let mut below = 0;
        while below <= SUBSET_SIZE {
            let mut byte = 0;
            while byte < 256 {
                let mut part = 0;
                let mut seen = 0;
                let mut bit = 0;
                while bit < 8 {
                    if byte & (1 << bit) != 0 {
                        let k = below + seen + 1;
                        if k <= 24 {
                            part += binomial(8 * byte_index + bit, k);
                        }
                        seen += 1;
                    }
                    bit += 1;
                }
                table[byte_index][below][byte] = part | ((seen as u32) << 24);
                byte += 1;
            }
            below += 1;
        }
        byte_index += 1;
    }
    table
};

/// The rank of an 8-cell subset, in `0..SUBSET_COUNT`.
#[inline]
pub fn rank(cells: EightCells) -> usize {
    let set = cells.mask();
    let low = RANK_BY_BYTE[0][0][(set & 0xff) as usize];
    let below = (low >> 24) as usize;
    let middle = RANK_BY_BYTE[1][below][((set >> 8) & 0xff) as usize];
    let below = (below + (middle >> 24) as usize).min(SUBSET_SIZE);
    let high = RANK_BY_BYTE[2][below][((set >> 16) & 0xff) as usize];
    ((low + middle + high) & 0x00ff_ffff) as usize
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
