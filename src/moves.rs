//! The eight moves A–H and sequences of them.
//!
//! # Overview
//!
//! A [`Move`] rotates one line of seven cells by one place (see
//! [`crate::geometry::LINES`] for the lines). Moves come in
//! inverse pairs, A↔F, B↔E, C↔H and D↔G: a move followed by its inverse
//! leaves every board as it was.
//!
//! A [`MoveSequence`] is a short solution, stored inline so that solving a
//! board allocates nothing. Sequences compare lexicographically by letter,
//! which is the judges' tie-break.

use std::fmt;

use crate::cells::EightCells;
use crate::geometry::{self, LINES};

/// One of the eight moves, A to H.
///
/// A newtype over the move's index (A = 0 … H = 7), so that the index is never
/// confused with a cell or a digit, and so that ordering moves orders them
/// alphabetically.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u8);

impl Move {
    /// The eight moves in alphabetical order: the order in which every solver
    /// tries them, which is what makes the first solution found the
    /// lexicographically smallest.
    pub const ALL: [Move; 8] = [
        Move(0),
        Move(1),
        Move(2),
        Move(3),
        Move(4),
        Move(5),
        Move(6),
        Move(7),
    ];

    /// The move with the given index (A = 0 … H = 7), if there is one.
    pub const fn from_index(index: usize) -> Option<Move> {
        if index < 8 {
            Some(Move(index as u8))
        } else {
            None
        }
    }

    /// The move named by an uppercase letter `A`–`H`.
    pub const fn from_letter(letter: u8) -> Option<Move> {
        match letter {
            b'A'..=b'H' => Some(Move(letter - b'A')),
            _ => None,
        }
    }

    /// The move's index: A = 0 … H = 7.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The move's letter, `A` to `H`.
    pub const fn letter(self) -> char {
        (b'A' + self.0) as char
    }

    /// The move that undoes this one.
    pub const fn inverse(self) -> Move {
        // A↔F, B↔E, C↔H, D↔G: indices (0,5), (1,4), (2,7), (3,6).
        const INVERSE: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];
        Move(INVERSE[self.0 as usize])
    }

    /// The seven cells this move rotates, in the order of its definition.
    pub const fn line(self) -> &'static [u8; 7] {
        &LINES[self.0 as usize]
    }

    /// Applies the move to a set of eight cells: the result holds the cells
    /// that the tiles on `cells` occupy after the move.
    #[inline]
    pub fn apply_to(self, cells: EightCells) -> EightCells {
        // A move permutes the cells, so eight cells stay eight.
        EightCells::from_mask_unchecked(self.apply_to_cells(cells.mask()))
    }

    /// Applies the move to any set of cells, given as a mask.
    #[inline]
    pub fn apply_to_cells(self, set: u32) -> u32 {
        let table = &MOVE_BY_BYTE[self.0 as usize];
        table[0][(set & 0xff) as usize]
            | table[1][((set >> 8) & 0xff) as usize]
            | table[2][((set >> 16) & 0xff) as usize]
    }
}

/// A set of moves, as eight bits: bit `i` for the move of index `i`.
///
/// A newtype so that a set of moves is never confused with a count or a
/// cell set; iterating it gives its moves in order A..H.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveSet(u8);

impl MoveSet {
    /// No move.
    pub const EMPTY: MoveSet = MoveSet(0);

    /// Every move.
    pub const ALL: MoveSet = MoveSet(u8::MAX);

    /// The set whose bit `i` stands for the move of index `i`.
    pub const fn from_bits(bits: u8) -> MoveSet {
        MoveSet(bits)
    }

    /// The set's bits: bit `i` for the move of index `i`.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set holding `m` alone.
    pub const fn only(m: Move) -> MoveSet {
        MoveSet(1 << m.0)
    }

    /// Whether `m` is in the set.
    pub const fn contains(self, m: Move) -> bool {
        self.0 & (1 << m.0) != 0
    }

    /// The set with `m` added.
    pub const fn with(self, m: Move) -> MoveSet {
        MoveSet(self.0 | 1 << m.0)
    }

    /// The set without `m`.
    pub const fn without(self, m: Move) -> MoveSet {
        MoveSet(self.0 & !(1 << m.0))
    }

    /// The moves of the set that come after `m` in order A..H.
    pub const fn after(self, m: Move) -> MoveSet {
        MoveSet(self.0 & !((2u16 << m.0) - 1) as u8)
    }

    /// The moves in both sets.
    pub const fn and(self, other: MoveSet) -> MoveSet {
        MoveSet(self.0 & other.0)
    }

    /// The moves in either set.
    pub const fn or(self, other: MoveSet) -> MoveSet {
        MoveSet(self.0 | other.0)
    }

    /// The moves not in the set.
    pub const fn complement(self) -> MoveSet {
        MoveSet(!self.0)
    }

    /// How many moves the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no move.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The first move of the set in order A..H.
    pub const fn first(self) -> Option<Move> {
        if self.0 == 0 {
            None
        } else {
            Some(Move(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for MoveSet {
    type Item = Move;

    /// The set's moves in order A..H, each taken out as it is given.
    fn next(&mut self) -> Option<Move> {
        let first = self.first()?;
        *self = self.without(first);
        Some(first)
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

/// `MOVE_BY_BYTE[m][j][b]`: where the cells of byte `b`, found at byte
/// position `j` of a cell set, end up under move `m`. A move maps a set to the
/// union of the images of its bytes, so three lookups apply it.
static MOVE_BY_BYTE: [[[u32; 256]; 3]; 8] = {
    let mut table = [[[0u32; 256]; 3]; 8];
    let mut m = 0;
    while m < 8 {
        let mut j = 0;
        while j < 3 {
            let mut byte = 0;
            while byte < 256 {
                table[m][j][byte] = geometry::rotate_line_slow((byte as u32) << (8 * j), m);
                byte += 1;
            }
            j += 1;
        }
        m += 1;
    }
    table
};

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What the judges print for an empty sequence: the board is solved
/// already.
pub const NO_MOVES_NEEDED: &str = "No moves needed";

/// The most moves a [`MoveSequence`] holds.
///
/// Every board is solvable in at most
/// [`MAX_DISTANCE`](crate::pattern_database::MAX_DISTANCE) moves, well under
/// this capacity.
pub const MAX_SEQUENCE_LENGTH: usize = 32;

/// A sequence of at most [`MAX_SEQUENCE_LENGTH`] moves, stored inline.
///
/// Ordered lexicographically by letters, so the judges' tie-break is `<`.
#[derive(Clone, Copy)]
pub struct MoveSequence {
    len: u8,
    moves: [Move; MAX_SEQUENCE_LENGTH],
}

impl MoveSequence {
    /// The empty sequence.
    pub const fn new() -> MoveSequence {
        MoveSequence {
            len: 0,
            moves: [Move(0); MAX_SEQUENCE_LENGTH],
        }
    }

    /// The first `len` moves of `moves`, for code that unpacks sequences
    /// in bulk.
    ///
    /// # Panics
    ///
    /// When `len` is more than `N` or than [`MAX_SEQUENCE_LENGTH`].
    #[inline]
    pub(crate) fn from_prefix<const N: usize>(moves: [Move; N], len: usize) -> MoveSequence {
        assert!(
            len <= N && N <= MAX_SEQUENCE_LENGTH,
            "a prefix of the moves given"
        );
        let mut sequence = MoveSequence::new();
        sequence.moves[..N].copy_from_slice(&moves);
        sequence.len = len as u8;
        sequence
    }

    /// The letters of all [`MAX_SEQUENCE_LENGTH`] slots, of which the first
    /// [`len`](MoveSequence::len) are the sequence's and the others some
    /// letters `A`–`H`: one fixed-size copy for writers of many sequences.
    #[inline]
    pub(crate) fn padded_letters(&self) -> [u8; MAX_SEQUENCE_LENGTH] {
        std::array::from_fn(|slot| b'A' + self.moves[slot].0)
    }

    /// Parses a sequence of letters `A`–`H`; `None` for any other byte or a
    /// sequence longer than [`MAX_SEQUENCE_LENGTH`].
    pub fn from_letters(letters: &[u8]) -> Option<MoveSequence> {
        if letters.len() > MAX_SEQUENCE_LENGTH {
            return None;
        }
        let mut sequence = MoveSequence::new();
        for (slot, &letter) in sequence.moves.iter_mut().zip(letters) {
            *slot = Move::from_letter(letter)?;
        }
        sequence.len = letters.len() as u8;
        Some(sequence)
    }

    /// Number of moves.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the sequence has no moves.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in order.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Appends a move.
    ///
    /// # Panics
    ///
    /// When the sequence already holds [`MAX_SEQUENCE_LENGTH`] moves. No
    /// solver gets near it: optimal solutions are far shorter.
    pub fn push(&mut self, m: Move) {
        assert!(
            self.len() < MAX_SEQUENCE_LENGTH,
            "a move sequence holds at most {MAX_SEQUENCE_LENGTH} moves"
        );
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// Removes and returns the last move.
    pub fn pop(&mut self) -> Option<Move> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.moves[self.len as usize])
    }

    /// The last move, if any.
    pub fn last(&self) -> Option<Move> {
        self.as_slice().last().copied()
    }

    /// The moves as letters, e.g. `"AC"`; empty for no moves.
    pub fn letters(&self) -> String {
        self.as_slice().iter().map(|m| m.letter()).collect()
    }

    /// Appends the judge form of the sequence to `out`: the letters, or
    /// [`NO_MOVES_NEEDED`] when there are none (without a line end).
    pub fn write_judge_line(&self, out: &mut Vec<u8>) {
        if self.is_empty() {
            out.extend_from_slice(NO_MOVES_NEEDED.as_bytes());
        } else {
            out.extend(self.as_slice().iter().map(|m| m.letter() as u8));
        }
    }

    /// Reads the judge form of a sequence: letters `A`–`H` (at most
    /// [`MAX_SEQUENCE_LENGTH`]), or [`NO_MOVES_NEEDED`].
    pub fn from_judge_line(line: &str) -> Option<MoveSequence> {
        if line == NO_MOVES_NEEDED {
            Some(MoveSequence::new())
        } else {
            MoveSequence::from_letters(line.as_bytes())
        }
    }
}

impl Default for MoveSequence {
    fn default() -> Self {
        MoveSequence::new()
    }
}

impl PartialEq for MoveSequence {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveSequence {}

impl PartialOrd for MoveSequence {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for MoveSequence {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl std::hash::Hash for MoveSequence {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for MoveSequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveSequence({:?})", self.letters())
    }
}

impl serde::Serialize for MoveSequence {
    /// The letters, a string (empty for no moves).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.letters())
    }
}

impl fmt::Display for MoveSequence {
    /// The judge form: the letters, or [`NO_MOVES_NEEDED`] when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            f.write_str(NO_MOVES_NEEDED)
        } else {
            f.write_str(&self.letters())
        }
    }
}

impl FromIterator<Move> for MoveSequence {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> Self {
        let mut sequence = MoveSequence::new();
        for m in iter {
            sequence.push(m);
        }
        sequence
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{ALL_CELLS, rotate_line_slow};

    #[test]
    fn table_form_matches_the_definition_on_every_byte_pattern() {
        for m in Move::ALL {
            for j in 0..3 {
                for byte in 0..256u32 {
                    let set = byte << (8 * j);
                    assert_eq!(m.apply_to_cells(set), rotate_line_slow(set, m.index()));
                }
            }
            assert_eq!(m.apply_to_cells(ALL_CELLS), ALL_CELLS);
        }
    }

    #[test]
    fn letters_round_trip() {
        for m in Move::ALL {
            assert_eq!(Move::from_letter(m.letter() as u8), Some(m));
        }
        assert_eq!(Move::from_letter(b'I'), None);
        assert_eq!(Move::from_letter(b'a'), None);
    }

    #[test]
    fn inverse_is_an_involution_pairing_reversed_lines() {
        for m in Move::ALL {
            assert_ne!(m.inverse(), m);
            assert_eq!(m.inverse().inverse(), m);
            let mut reversed = *m.line();
            reversed.reverse();
            assert_eq!(&reversed, m.inverse().line());
        }
    }

    #[test]
    fn move_sets_hold_what_was_put_in() {
        let set = MoveSet::EMPTY.with(Move::ALL[1]).with(Move::ALL[6]);
        assert_eq!(set.bits(), 0b0100_0010);
        // Adding a move twice, or taking out one that is not there, changes
        // nothing. (Checked on the bits, before anything iterates: the
        // iterator, and so a set's Debug form, takes moves out with
        // `without`.)
        assert_eq!(set.with(Move::ALL[6]).bits(), set.bits());
        assert_eq!(set.without(Move::ALL[0]).bits(), set.bits());
        assert_eq!(set.without(Move::ALL[6]).bits(), 0b0000_0010);
        assert_eq!(MoveSet::ALL.without(Move::ALL[7]).bits(), 0b0111_1111);
        // At most nine moves taken, so that an iterator that never takes
        // its moves out fails here instead of running forever.
        assert_eq!(
            set.take(9).collect::<Vec<_>>(),
            [Move::ALL[1], Move::ALL[6]]
        );
        assert_eq!((set.len(), set.first()), (2, Some(Move::ALL[1])));
        assert!(set.contains(Move::ALL[6]) && !set.contains(Move::ALL[0]));
        assert_eq!(
            MoveSet::ALL.after(Move::ALL[5]).take(9).collect::<Vec<_>>(),
            Move::ALL[6..]
        );
        assert!(MoveSet::ALL.after(Move::ALL[7]).is_empty());
        assert_eq!(set.complement().and(set), MoveSet::EMPTY);
        assert_eq!(set.or(MoveSet::only(Move::ALL[0])).bits(), 0b0100_0011);
        assert_eq!(MoveSet::only(Move::ALL[5]).bits(), 0b0010_0000);
        assert_eq!(format!("{set:?}"), "{B, G}");
    }

    #[test]
    fn moves_print_as_their_letters() {
        let printed: String = Move::ALL.iter().map(|m| format!("{m}{m:?}")).collect();
        assert_eq!(printed, "AABBCCDDEEFFGGHH");
    }

    #[test]
    fn sequences_order_lexicographically() {
        let ac = MoveSequence::from_letters(b"AC").unwrap();
        let ca = MoveSequence::from_letters(b"CA").unwrap();
        let abc = MoveSequence::from_letters(b"ABC").unwrap();
        assert!(ac < ca);
        assert!(abc < ac);
        assert_eq!(ac.to_string(), "AC");
        assert_eq!(format!("{ac:?}"), r#"MoveSequence("AC")"#);
        assert_eq!(MoveSequence::new().to_string(), NO_MOVES_NEEDED);
        assert_eq!(
            MoveSequence::from_judge_line(NO_MOVES_NEEDED),
            Some(MoveSequence::new())
        );
        assert_eq!(MoveSequence::from_judge_line("AC"), Some(ac));
        assert_eq!(MoveSequence::from_letters(b"AI"), None);
    }

    #[test]
    fn sequences_hold_up_to_their_capacity() {
        let full = [b'H'; MAX_SEQUENCE_LENGTH];
        let sequence = MoveSequence::from_letters(&full).unwrap();
        assert_eq!(sequence.len(), MAX_SEQUENCE_LENGTH);
        assert_eq!(sequence.last(), Some(Move::ALL[7]));
        assert_eq!(MoveSequence::new().last(), None);
        let over = [b'H'; MAX_SEQUENCE_LENGTH + 1];
        assert_eq!(MoveSequence::from_letters(&over), None);
    }

    #[test]
    fn sequences_compare_and_hash_by_their_moves_alone() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        let hash = |sequence: &MoveSequence| {
            BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
                .hash_one(sequence)
        };
        let ab = MoveSequence::from_letters(b"AB").unwrap();
        // The same two moves, with other moves in the slots past the end.
        let ab_then_c = MoveSequence::from_prefix([Move::ALL[0], Move::ALL[1], Move::ALL[2]], 2);
        assert_eq!(ab, ab_then_c);
        assert_eq!(hash(&ab), hash(&ab_then_c));
        let ba = MoveSequence::from_letters(b"BA").unwrap();
        assert_ne!(ab, ba);
        assert_ne!(hash(&ab), hash(&ba));
    }

    #[test]
    fn judge_lines_and_padded_letters() {
        let mut out = Vec::new();
        MoveSequence::from_letters(b"HAD")
            .unwrap()
            .write_judge_line(&mut out);
        out.push(b'|');
        MoveSequence::new().write_judge_line(&mut out);
        assert_eq!(out, format!("HAD|{NO_MOVES_NEEDED}").as_bytes());

        let padded = MoveSequence::from_prefix([Move::ALL[7], Move::ALL[1], Move::ALL[4]], 2)
            .padded_letters();
        assert_eq!(&padded[..3], b"HBE");
        assert!(padded[3..].iter().all(|&letter| letter == b'A'));
    }
}
