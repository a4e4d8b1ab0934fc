//! Seeded, reproducible board generators.
//!
//! # Overview
//!
//! Every board is a function of `(seed, index, mode)` alone: board `i` draws
//! from its own ChaCha8 stream (key from the seed, stream number `i`), so the
//! same seed gives the same boards on every machine, in every order, with
//! any number of threads. The streams come from the ChaCha8 algorithm itself
//! and the sampling below is our own (Lemire's unbiased bounded integers, a
//! Fisher–Yates shuffle), so no change in a dependency's sampling code can
//! change the boards; snapshot tests guard this.
//!
//! Modes:
//!
//! - [`Mode::Uniform`]: a uniformly random arrangement of the 24 tiles;
//! - [`Mode::Scramble`]: `k` random moves, never undoing the previous one,
//!   applied to a uniformly random solved board.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::board::{Board, Digit};
use crate::geometry::{CELL_COUNT, CENTRE};
use crate::moves::Move;

/// A random stream for one board: ChaCha8 keyed by the seed, on the stream
/// numbered by the board's index.
pub struct BoardRng(ChaCha8Rng);

impl BoardRng {
    /// The stream of board `index` under `seed`.
    pub fn new(seed: u64, index: u64) -> BoardRng {
        // The 256-bit key is the seed, little-endian, then zeros: spelled out
        // here rather than left to a library's seed expansion.
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(index);
        BoardRng(rng)
    }

    /// A uniformly random integer in `0..bound` (Lemire's method, unbiased).
    ///
    /// # Panics
    ///
    /// When `bound` is 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "an empty range has no element");
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let product = u128::from(self.0.next_u64()) * u128::from(bound);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` uniformly (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Which boards a generator produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Uniformly random arrangements of the 24 tiles.
    Uniform,
    /// This many random moves, never undoing the previous one, from a
    /// uniformly random solved board.
    Scramble(u8),
}

/// A uniformly random arrangement of eight each of 1, 2 and 3.
pub fn uniform_board(rng: &mut BoardRng) -> Board {
    let mut values: [u8; CELL_COUNT] = std::array::from_fn(|cell| (cell / 8) as u8 + 1);
    rng.shuffle(&mut values);
    Board::from_values(&values).expect("a permutation of a valid board is valid")
}

/// A uniformly random solved board: a random digit fills the centre and the
/// other two are shuffled over the 16 outer cells.
pub fn solved_board(rng: &mut BoardRng) -> Board {
    let centre = Digit::ALL[rng.below(3) as usize];
    let others: Vec<Digit> = Digit::ALL.into_iter().filter(|&d| d != centre).collect();
    let mut outer: [Digit; 16] = std::array::from_fn(|i| others[i / 8]);
    rng.shuffle(&mut outer);
    let mut cells_of = [0u32; 3];
    cells_of[centre.index()] = CENTRE;
    let outer_cells = (0..CELL_COUNT as u32).filter(|cell| CENTRE & (1 << cell) == 0);
    for (cell, digit) in outer_cells.zip(outer) {
        cells_of[digit.index()] |= 1 << cell;
    }
    Board::from_cell_sets_unchecked(cells_of)
}

/// `moves` random moves from a random solved board, each move uniform among
/// the seven that do not undo the previous one.
pub fn scrambled_board(rng: &mut BoardRng, moves: u8) -> Board {
    let mut board = solved_board(rng);
    let mut previous: Option<Move> = None;
    for _ in 0..moves {
        let allowed: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| Some(m.inverse()) != previous)
            .collect();
        let m = allowed[rng.below(allowed.len() as u64) as usize];
        board = board.apply(m);
        previous = Some(m);
    }
    board
}

/// Board number `index` of the generator `mode` under `seed`.
pub fn board(seed: u64, index: u64, mode: Mode) -> Board {
    let mut rng = BoardRng::new(seed, index);
    match mode {
        Mode::Uniform => uniform_board(&mut rng),
        Mode::Scramble(moves) => scrambled_board(&mut rng, moves),
    }
}

/// The first `count` boards of `mode` under `seed`.
pub fn boards(seed: u64, mode: Mode, count: u64) -> Vec<Board> {
    (0..count).map(|index| board(seed, index, mode)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_index_give_the_same_board() {
        for mode in [Mode::Uniform, Mode::Scramble(5)] {
            assert_eq!(board(7, 3, mode), board(7, 3, mode));
            assert_ne!(boards(7, mode, 20), boards(8, mode, 20));
        }
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = BoardRng::new(1, 0);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[rng.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn solved_boards_are_solved_and_scrambles_differ() {
        for index in 0..100 {
            let mut rng = BoardRng::new(42, index);
            assert!(solved_board(&mut rng).is_solved());
        }
        assert!(board(1, 0, Mode::Scramble(0)).is_solved());
    }
}
