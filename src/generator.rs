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
//!   applied to a uniformly random solved board;
//! - [`Mode::Length`]: a board whose optimal length is exactly `k`, uniform
//!   among all such boards (by rejection sampling, described at
//!   `length_board`);
//! - [`Mode::Mix`]: board `i` has optimal length `i mod 14`, drawn as
//!   [`Mode::Length`] draws it (board `i` of the mix *is* board `i` of that
//!   length's generator), so any 14 consecutive boards hold one of every
//!   length, a solved board and a hardest board among them;
//! - [`Mode::Hardest`]: every board of the greatest optimal length, in
//!   increasing order ([`hardest_boards`]); the seed plays no part;
//! - [`Mode::HardestSample`]: the same boards in a seeded random order, so
//!   that the first `n` are a sample of `n` of them without repetition.
//!
//! A [`Generator`] ties a seed to a mode and hands out board `i` on demand.
//! A generator can also be restricted to one [`Shard`] of a campaign, for
//! campaigns split across machines: it then hands out that shard's boards.
//!
//! # Numbering
//!
//! Board *indices* count from 0, as the random streams do. What users read
//! are *case numbers*, which count from 1: board index `i` of the whole
//! campaign is case `i + 1`, in every shard ([`Generator::case_number`]).

mod shard;

pub use shard::{Shard, ShardError};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::board::{Board, Digit};
use crate::cells::EightCells;
use crate::geometry::{ALL_CELLS, CELL_COUNT, CENTRE};
use crate::length::OptimalLength;
use crate::moves::Move;
use crate::pattern_database;
use crate::rank::unrank;

/// A random stream for one board: ChaCha8 keyed by the seed, on the stream
/// numbered by the board's index.
pub(crate) struct BoardRng(ChaCha8Rng);

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
    /// Boards of exactly this optimal length, uniform among them.
    Length(OptimalLength),
    /// Board `i` has optimal length `i mod 14`, uniform among the boards of
    /// that length: exactly board `i` of [`Mode::Length`] at that length.
    Mix,
    /// Every board of the greatest optimal length, in increasing order.
    Hardest,
    /// The boards of the greatest optimal length in a seeded random order:
    /// the first `n` are a uniformly random sample of `n` of them, without
    /// repetition.
    HardestSample,
}

impl Mode {
    /// Whether the seed changes the boards: every mode but
    /// [`Mode::Hardest`], whose boards come in a fixed order.
    pub fn uses_seed(self) -> bool {
        self != Mode::Hardest
    }
}

/// How many optimal lengths there are: 0 to [`OptimalLength::MAX`].
const LENGTHS: u64 = OptimalLength::MAX.moves() as u64 + 1;

/// Boards of one mode under one seed, each available by index.
#[derive(Clone, Debug)]
pub struct Generator {
    seed: u64,
    mode: Mode,
    shard: Shard,
    /// The boards of the greatest optimal length, for the modes that draw
    /// from them; empty otherwise.
    hardest: Vec<Board>,
    /// For [`Mode::HardestSample`]: a seeded permutation of the indices of
    /// `hardest`.
    sample_order: Vec<usize>,
    /// For [`Mode::Length`] and [`Mode::Mix`]: at index `k`, the 8-cell sets
    /// at exactly distance `k` from the centre, by rank order (empty for
    /// the lengths the mode does not draw).
    sets_at_length: Vec<Vec<EightCells>>,
}

impl Generator {
    /// A generator of `mode` boards under `seed`, for the whole campaign.
    pub fn new(seed: u64, mode: Mode) -> Generator {
        let mut generator = Generator {
            seed,
            mode,
            shard: Shard::WHOLE,
            hardest: Vec::new(),
            sample_order: Vec::new(),
            sets_at_length: Vec::new(),
        };
        match mode {
            Mode::Uniform | Mode::Scramble(_) => {}
            Mode::Hardest | Mode::Length(OptimalLength::MAX) => {
                generator.hardest = hardest_boards();
            }
            Mode::HardestSample => {
                generator.hardest = hardest_boards();
                // The order depends on the seed alone: stream 0 of the
                // seed, which no other board of this mode draws from.
                let mut order: Vec<usize> = (0..generator.hardest.len()).collect();
                BoardRng::new(seed, 0).shuffle(&mut order);
                generator.sample_order = order;
            }
            Mode::Length(length) => {
                generator.sets_at_length = sets_by_distance(Some(length.moves()));
            }
            Mode::Mix => {
                generator.hardest = hardest_boards();
                generator.sets_at_length = sets_by_distance(None);
            }
        }
        generator
    }

    /// The same generator restricted to `shard`: board `i` is then the
    /// `i`-th board of the shard (see [`Shard`]).
    pub fn sharded(mut self, shard: Shard) -> Generator {
        self.shard = shard;
        self
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The shard this generator gives the boards of ([`Shard::WHOLE`]
    /// unless [`sharded`](Self::sharded)).
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// How many boards the whole campaign (every shard) has when
    /// `requested` are asked for: all the hardest boards for
    /// [`Mode::Hardest`], whatever is requested; at most that many for
    /// [`Mode::HardestSample`]; else `requested`.
    pub fn total(&self, requested: u64) -> u64 {
        match self.mode {
            Mode::Hardest => self.hardest.len() as u64,
            Mode::HardestSample => requested.min(self.hardest.len() as u64),
            _ => requested,
        }
    }

    /// How many boards this generator gives when `requested` are asked for:
    /// its shard's share of [`total`](Self::total).
    pub fn count(&self, requested: u64) -> u64 {
        self.shard.len_of(self.total(requested))
    }

    /// The case number (from 1, over the whole campaign) of board `index`
    /// of this generator.
    pub fn case_number(&self, index: u64) -> u64 {
        self.shard.case(index)
    }

    /// Board number `index` of this generator (of its shard).
    ///
    /// For the modes drawing from the hardest boards without replacement,
    /// the board's case number must be at most [`total`](Self::total).
    pub fn board(&self, index: u64) -> Board {
        self.board_of_campaign(self.case_number(index) - 1)
    }

    /// Board `index` of the whole campaign.
    fn board_of_campaign(&self, index: u64) -> Board {
        let mut rng = BoardRng::new(self.seed, index);
        let length = match self.mode {
            Mode::Uniform => return uniform_board(&mut rng),
            Mode::Scramble(moves) => return scrambled_board(&mut rng, moves),
            Mode::Hardest => return self.hardest[index as usize],
            Mode::HardestSample => return self.hardest[self.sample_order[index as usize]],
            Mode::Length(length) => length,
            Mode::Mix => OptimalLength::from_moves_unchecked((index % LENGTHS) as u8),
        };
        if length == OptimalLength::MAX {
            self.hardest[rng.below(self.hardest.len() as u64) as usize]
        } else {
            let sets = &self.sets_at_length[usize::from(length.moves())];
            length_board(&mut rng, length, sets)
        }
    }

    /// The first `requested` boards (all of them for [`Mode::Hardest`]), of
    /// this generator's shard.
    pub fn boards(&self, requested: u64) -> Vec<Board> {
        (0..self.count(requested))
            .map(|index| self.board(index))
            .collect()
    }
}

/// A uniformly random arrangement of eight each of 1, 2 and 3.
pub(crate) fn uniform_board(rng: &mut BoardRng) -> Board {
    let mut values: [u8; CELL_COUNT] = std::array::from_fn(|cell| (cell / 8) as u8 + 1);
    rng.shuffle(&mut values);
    Board::from_values(&values).expect("a permutation of a valid board is valid")
}

/// A uniformly random solved board: a random digit fills the centre and the
/// other two are shuffled over the 16 outer cells.
pub(crate) fn solved_board(rng: &mut BoardRng) -> Board {
    let centre = Digit::ALL[rng.below(3) as usize];
    let mut outer: [bool; 16] = std::array::from_fn(|i| i >= 8);
    rng.shuffle(&mut outer);
    solved_board_with(centre, &outer)
}

/// The solved board with `centre` filling the centre; the 16 outer cells, in
/// cell order, hold the larger of the other two digits where `outer` is true
/// and the smaller where it is false.
///
/// # Panics
///
/// When `outer` is not eight `true` and eight `false`.
pub(crate) fn solved_board_with(centre: Digit, outer: &[bool; 16]) -> Board {
    let others: Vec<Digit> = Digit::ALL.into_iter().filter(|&d| d != centre).collect();
    let mut cells_of = [0u32; 3];
    cells_of[centre.index()] = CENTRE;
    let outer_cells = (0..CELL_COUNT as u32).filter(|cell| CENTRE & (1 << cell) == 0);
    for (cell, &larger) in outer_cells.zip(outer) {
        cells_of[others[usize::from(larger)].index()] |= 1 << cell;
    }
    Board::from_cell_sets(cells_of).expect("eight outer cells for each of the other two digits")
}

/// `moves` random moves from a random solved board, each move uniform among
/// the seven that do not undo the previous one.
pub(crate) fn scrambled_board(rng: &mut BoardRng, moves: u8) -> Board {
    let mut board = solved_board(rng);
    let mut previous: Option<Move> = None;
    for _ in 0..moves {
        let undo = previous.map(Move::inverse);
        let allowed = if undo.is_some() { 7 } else { 8 };
        let choice = rng.below(allowed) as usize;
        let m = Move::ALL
            .into_iter()
            .filter(|&m| Some(m) != undo)
            .nth(choice)
            .expect("choice is below the number of allowed moves");
        board = board.apply(m);
        previous = Some(m);
    }
    board
}

/// The 8-cell sets at each distance from the centre below the greatest
/// optimal length, by rank: at index `k`, those at distance exactly `k`.
/// With `only`, the other distances are left empty.
fn sets_by_distance(only: Option<u8>) -> Vec<Vec<EightCells>> {
    let table = pattern_database::distances();
    let mut sets = vec![Vec::new(); OptimalLength::MAX.moves() as usize];
    for (rank, &distance) in table.iter().enumerate() {
        if only.is_none_or(|only| only == distance) && distance < OptimalLength::MAX.moves() {
            sets[usize::from(distance)].push(unrank(rank));
        }
    }
    sets
}

/// A board of optimal length exactly `length`, uniform among all of them;
/// `sets_at_length` lists the 8-cell sets at distance `length` from the
/// centre.
///
/// Rejection sampling. Propose a board by drawing a digit `d` uniformly, a
/// set for `d` uniformly from `sets_at_length`, and a uniform split of the
/// other 16 cells between the other two digits. A board with `m` digits at
/// distance exactly `length` is proposed with probability proportional to
/// `m`. Accept it when no digit is closer than `length` (so its optimal
/// length is `length`), and then only with probability `1 / m`: every
/// accepted board is then equally likely.
pub(crate) fn length_board(
    rng: &mut BoardRng,
    length: OptimalLength,
    sets_at_length: &[EightCells],
) -> Board {
    let length = length.moves();
    loop {
        let digit = rng.below(3) as usize;
        let mut cells_of = [0u32; 3];
        cells_of[digit] = sets_at_length[rng.below(sets_at_length.len() as u64) as usize].mask();
        let mut rest: Vec<u32> = (0..CELL_COUNT as u32)
            .filter(|cell| cells_of[digit] & (1 << cell) == 0)
            .collect();
        rng.shuffle(&mut rest);
        let (first, second) = rest.split_at(8);
        cells_of[(digit + 1) % 3] = first.iter().fold(0, |set, cell| set | 1 << cell);
        cells_of[(digit + 2) % 3] = second.iter().fold(0, |set, cell| set | 1 << cell);
        let board = Board::from_cell_sets_unchecked(cells_of);
        let distances = board.cell_sets().map(pattern_database::distance);
        if distances.iter().any(|&d| d < length) {
            continue;
        }
        let at_length = distances.iter().filter(|&&d| d == length).count() as u64;
        if rng.below(at_length) == 0 {
            return board;
        }
    }
}

/// Every board of the greatest optimal length, in increasing order.
///
/// A board's optimal length is the least distance of its three digits, so
/// it is at least `m` exactly when all three digits' sets lie at distance
/// `m` or more. Starting from the greatest distance any set has, this looks
/// for boards made of three such sets, and lowers `m` until there are some.
pub fn hardest_boards() -> Vec<Board> {
    let table = pattern_database::distances();
    for length in (0..=pattern_database::MAX_DISTANCE).rev() {
        let far: Vec<u32> = (0..table.len())
            .filter(|&rank| table[rank] >= length)
            .map(|rank| unrank(rank).mask())
            .collect();
        let mut boards = Vec::new();
        for &ones in &far {
            for &twos in &far {
                if ones & twos != 0 {
                    continue;
                }
                let threes = ALL_CELLS & !(ones | twos);
                let board = Board::from_cell_sets_unchecked([ones, twos, threes]);
                if pattern_database::distance(board.cells_of(Digit::ALL[2])) >= length {
                    boards.push(board);
                }
            }
        }
        if !boards.is_empty() {
            boards.sort_unstable();
            return boards;
        }
    }
    unreachable!("every board has optimal length at least 0")
}

/// For the crate's tests: the first `count` boards of optimal length
/// `length` under `seed`.
#[cfg(test)]
pub(crate) fn boards_of_length(seed: u64, length: u8, count: u64) -> Vec<Board> {
    let length = OptimalLength::new(length).expect("a length from 0 to 13");
    Generator::new(seed, Mode::Length(length)).boards(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_seeds_give_other_boards() {
        let six = OptimalLength::new(6).unwrap();
        for mode in [Mode::Uniform, Mode::Scramble(5), Mode::Length(six)] {
            let generator = Generator::new(7, mode);
            let other_seed = Generator::new(8, mode);
            assert_ne!(generator.boards(20), other_seed.boards(20));
        }
    }

    #[test]
    fn a_seed_names_the_same_boards_in_every_version() {
        // A failure's report gives its seed: the boards it names must not
        // change from one version to the next, so the first boards of each
        // seeded mode are pinned here.
        let six = OptimalLength::new(6).unwrap();
        let pinned = [
            (
                Mode::Uniform,
                [
                    "3 1 1 2 3 1 2 1 2 1 2 1 3 2 2 3 3 2 1 3 3 3 1 2",
                    "1 3 2 2 1 2 3 2 3 2 1 1 1 3 3 2 3 2 3 1 1 2 3 1",
                ],
            ),
            (
                Mode::Scramble(5),
                [
                    "1 3 1 3 2 2 2 1 3 1 3 2 2 1 2 2 2 3 1 1 3 3 3 1",
                    "3 3 2 1 2 2 1 1 1 3 3 1 1 2 2 1 1 2 2 3 3 3 3 2",
                ],
            ),
            (
                Mode::Length(six),
                [
                    "3 1 3 3 1 3 3 2 2 3 1 2 2 1 2 2 2 3 1 2 1 1 1 3",
                    "2 1 3 1 2 2 3 1 1 3 3 1 2 1 1 3 3 3 2 3 2 2 2 1",
                ],
            ),
            (
                Mode::HardestSample,
                [
                    "3 1 1 2 2 3 2 2 3 2 3 1 3 2 1 3 1 1 1 3 2 2 1 3",
                    "3 2 2 1 1 3 3 1 1 3 3 2 1 1 2 3 2 2 2 3 3 1 2 1",
                ],
            ),
        ];
        for (mode, boards) in pinned {
            let drawn: Vec<String> = Generator::new(1, mode)
                .boards(2)
                .iter()
                .map(Board::to_string)
                .collect();
            assert_eq!(drawn, boards, "the first boards of {mode:?} under seed 1");
        }
    }

    #[test]
    fn a_generator_keeps_its_seed_and_mode() {
        let generator = Generator::new(7, Mode::Scramble(3));
        assert_eq!(generator.seed(), 7);
        assert_eq!(generator.mode(), Mode::Scramble(3));
        assert_eq!(Generator::new(u64::MAX, Mode::Uniform).seed(), u64::MAX);
    }

    #[test]
    fn the_hardest_mode_gives_all_192_boards_whatever_is_asked() {
        let hardest = Generator::new(1, Mode::Hardest);
        for requested in [1, 192, 1000] {
            assert_eq!(hardest.total(requested), 192);
            assert_eq!(hardest.count(requested), 192);
        }
        assert_eq!(hardest.boards(5), hardest_boards());
    }

    #[test]
    fn a_shuffle_gives_every_arrangement_as_often() {
        // Fisher–Yates: 6,000 shuffles of three items, each of the six
        // orders about 1,000 times (a standard deviation is about 29).
        let mut rng = BoardRng::new(1, 0);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..6_000 {
            let mut items = [0, 1, 2];
            rng.shuffle(&mut items);
            *seen.entry(items).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 6, "{seen:?}");
        assert!(
            seen.values().all(|&count| (900..1100).contains(&count)),
            "{seen:?}"
        );
    }

    #[test]
    fn hardest_boards_are_the_192_of_length_13() {
        let hardest = hardest_boards();
        assert_eq!(hardest.len(), 192);
        assert!(hardest.windows(2).all(|pair| pair[0] < pair[1]));
        for board in &hardest {
            assert_eq!(pattern_database::optimal_length(board), OptimalLength::MAX);
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
    fn mix_board_i_has_length_i_mod_14_and_is_that_lengths_board_i() {
        let mix = Generator::new(5, Mode::Mix);
        for index in 0..30 {
            let length = OptimalLength::new((index % 14) as u8).unwrap();
            let board = mix.board(index);
            assert_eq!(pattern_database::optimal_length(&board), length);
            assert_eq!(board, Generator::new(5, Mode::Length(length)).board(index));
        }
    }

    #[test]
    fn a_hardest_sample_has_no_repetition_and_grows_by_prefixes() {
        let sample = Generator::new(9, Mode::HardestSample);
        assert_eq!(sample.total(1000), 192);
        let all = sample.boards(192);
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, hardest_boards());
        assert_eq!(sample.boards(10), all[..10]);
        assert_ne!(
            Generator::new(10, Mode::HardestSample).boards(10),
            all[..10]
        );
        assert!(!Mode::Hardest.uses_seed() && Mode::HardestSample.uses_seed());
    }

    #[test]
    fn a_sharded_generator_gives_its_shards_boards_with_their_case_numbers() {
        let whole = Generator::new(3, Mode::Mix);
        let shard = Shard::new(2, 3).unwrap();
        let part = whole.clone().sharded(shard);
        assert_eq!(part.count(10), 3);
        assert_eq!(part.total(10), 10);
        for index in 0..3 {
            let case = part.case_number(index);
            assert_eq!(case, 2 + 3 * index);
            assert_eq!(part.board(index), whole.board(case - 1));
        }
    }

    #[test]
    fn solved_boards_are_solved_and_scrambles_differ() {
        for index in 0..100 {
            let mut rng = BoardRng::new(42, index);
            assert!(solved_board(&mut rng).is_solved());
        }
        assert!(Generator::new(1, Mode::Scramble(0)).board(0).is_solved());
    }
}
