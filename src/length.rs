//! The optimal length of a board, and boards counted by it.
//!
//! # Overview
//!
//! A board's *optimal length* is the number of moves of its shortest
//! solutions: 0 for a board whose centre is already uniform, at most
//! [`OptimalLength::MAX`] (13) for any board. It is the one number the
//! generators ask for (`--length`), that bounds what the breadth-first
//! solver answers (`--max-length`), and that campaigns and the census count
//! boards by ([`LengthCounts`]). The [pattern
//! database](crate::pattern_database::optimal_length) gives it exactly.

use std::fmt;
use std::str::FromStr;

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

/// The number of moves of a board's shortest solutions, 0 to
/// [`OptimalLength::MAX`].
///
/// A newtype so that an optimal length is never confused with a search
/// bound, a count of moves played or a distance of one digit's cells, and
/// so that a length no board has cannot be asked for.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize)]
#[serde(transparent)]
pub struct OptimalLength(u8);

impl OptimalLength {
    /// Solved boards.
    pub const ZERO: OptimalLength = OptimalLength(0);

    /// The greatest optimal length of any board: 13. The census counts
    /// boards of every length up to it and none beyond, and 192 boards have
    /// it (both checked by tests).
    pub const MAX: OptimalLength = OptimalLength(13);

    /// The optimal length of `moves` moves, if some board has it.
    pub const fn new(moves: u8) -> Option<OptimalLength> {
        if moves <= OptimalLength::MAX.0 {
            Some(OptimalLength(moves))
        } else {
            None
        }
    }

    /// The number of moves.
    pub const fn moves(self) -> u8 {
        self.0
    }

    /// Every optimal length, from 0 to [`OptimalLength::MAX`].
    pub fn all() -> impl Iterator<Item = OptimalLength> {
        (0..=OptimalLength::MAX.0).map(OptimalLength)
    }

    /// An optimal length the caller knows to be one (checked in debug
    /// builds only): a distance of the exact pattern database, say.
    pub(crate) const fn from_moves_unchecked(moves: u8) -> OptimalLength {
        debug_assert!(moves <= OptimalLength::MAX.0);
        OptimalLength(moves)
    }
}

impl fmt::Display for OptimalLength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A number of moves that no board needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no board has optimal length {found}: optimal lengths run from 0 to {max}", max = OptimalLength::MAX)]
pub struct NoSuchLength {
    found: String,
}

impl FromStr for OptimalLength {
    type Err = NoSuchLength;

    fn from_str(text: &str) -> Result<OptimalLength, NoSuchLength> {
        text.parse::<u8>()
            .ok()
            .and_then(OptimalLength::new)
            .ok_or_else(|| NoSuchLength {
                found: text.to_owned(),
            })
    }
}

/// Boards counted by optimal length: the count at index `i` is of boards of
/// optimal length `i`, up to the greatest length with any board.
///
/// It serializes as a list of `{length, boards}` objects, the form that
/// `census --json` and `verify --json` share.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LengthCounts(Vec<u64>);

impl LengthCounts {
    /// The counts, indexed by optimal length; trailing zero counts are
    /// dropped.
    pub fn from_counts(counts: &[u64]) -> LengthCounts {
        let used = counts
            .iter()
            .rposition(|&count| count > 0)
            .map_or(0, |last| last + 1);
        LengthCounts(counts[..used].to_vec())
    }

    /// The counts, indexed by optimal length, up to the greatest length
    /// with any board.
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }

    /// All boards counted.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The greatest optimal length with any board; `None` when no board was
    /// counted.
    pub fn max_length(&self) -> Option<OptimalLength> {
        self.0
            .len()
            .checked_sub(1)
            .map(|last| OptimalLength(last as u8))
    }
}

impl Serialize for LengthCounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// One `{length, boards}` row.
        struct Row(usize, u64);
        impl Serialize for Row {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut row = serializer.serialize_struct("Row", 2)?;
                row.serialize_field("length", &self.0)?;
                row.serialize_field("boards", &self.1)?;
                row.end()
            }
        }
        let mut list = serializer.serialize_seq(Some(self.0.len()))?;
        for (length, &boards) in self.0.iter().enumerate() {
            list.serialize_element(&Row(length, boards))?;
        }
        list.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_run_from_0_to_13() {
        assert_eq!(OptimalLength::all().count(), 14);
        assert_eq!("13".parse(), Ok(OptimalLength::MAX));
        assert_eq!(
            "14".parse::<OptimalLength>().unwrap_err().to_string(),
            "no board has optimal length 14: optimal lengths run from 0 to 13"
        );
        assert!("x".parse::<OptimalLength>().is_err());
    }

    #[test]
    fn counts_drop_trailing_zeros() {
        let counts = LengthCounts::from_counts(&[3, 0, 5, 0, 0]);
        assert_eq!(counts.as_slice(), [3, 0, 5]);
        assert_eq!(counts.total(), 8);
        assert_eq!(counts.max_length(), OptimalLength::new(2));
        assert_eq!(LengthCounts::from_counts(&[0]).max_length(), None);
    }
}
