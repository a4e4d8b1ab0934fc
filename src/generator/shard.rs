//! One of several parts of a campaign, for campaigns split across machines
//! (a CI matrix, say).

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`: the cases `k` (counted from 1) with
/// `k mod count = index mod count`.
///
/// Shards count from 1, as cases do (and as `--shard=I/N` does in Jest and
/// Playwright): shard 1 of 3 holds cases 1, 4, 7, …, shard 3 of 3 holds
/// cases 3, 6, 9, …. The shards `1/N` to `N/N` hold every case exactly once,
/// so the union of their reports is the whole campaign's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// A shard that does not exist: not `I/N` with `1 ≤ I ≤ N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a shard I/N with 1 ≤ I ≤ N (such as 2/4), found {found:?}")]
pub struct ShardError {
    found: String,
}

impl Shard {
    /// The whole campaign: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, when `1 ≤ index ≤ count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (1..=count)
            .contains(&index)
            .then_some(Shard { index, count })
    }

    /// Which shard, from 1.
    pub fn index(self) -> u64 {
        self.index
    }

    /// How many shards the campaign is split into.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether this is the whole campaign.
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// Whether case `case` (from 1) belongs to this shard.
    pub fn holds(self, case: u64) -> bool {
        case % self.count == self.index % self.count
    }

    /// How many of the cases `1..=total` belong to this shard.
    pub fn len_of(self, total: u64) -> u64 {
        if self.index > total {
            0
        } else {
            (total - self.index) / self.count + 1
        }
    }

    /// The case number of this shard's `position`-th case (from 0).
    pub fn case(self, position: u64) -> u64 {
        self.index + position * self.count
    }
}

impl fmt::Display for Shard {
    /// `I/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError {
            found: text.to_owned(),
        };
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let number = |part: &str| {
            part.bytes()
                .all(|byte| byte.is_ascii_digit())
                .then(|| part.parse::<u64>().ok())
                .flatten()
        };
        let (index, count) = (
            number(index).ok_or_else(error)?,
            number(count).ok_or_else(error)?,
        );
        Shard::new(index, count).ok_or_else(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_hold_every_case_exactly_once() {
        for count in 1..=5 {
            for total in 0..=17 {
                let mut seen = vec![0; total as usize + 1];
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let cases: Vec<u64> = (0..shard.len_of(total)).map(|p| shard.case(p)).collect();
                    for &case in &cases {
                        assert!(shard.holds(case));
                        seen[case as usize] += 1;
                    }
                    let held = (1..=total).filter(|&case| shard.holds(case)).count();
                    assert_eq!(held as u64, shard.len_of(total));
                }
                assert!(seen[1..].iter().all(|&times| times == 1), "{count} {total}");
            }
        }
    }

    #[test]
    fn case_k_belongs_to_shard_k_mod_n() {
        let third = Shard::new(3, 3).unwrap();
        assert_eq!((0..3).map(|p| third.case(p)).collect::<Vec<_>>(), [3, 6, 9]);
        assert!(Shard::new(1, 3).unwrap().holds(4));
    }

    #[test]
    fn shards_read_and_print_as_i_of_n() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard::new(2, 4).unwrap()));
        assert_eq!(Shard::new(2, 4).unwrap().to_string(), "2/4");
        let shard = Shard::new(2, 4).unwrap();
        assert_eq!((shard.index(), shard.count()), (2, 4));
        assert!(!shard.is_whole() && Shard::WHOLE.is_whole());
        assert!(Shard::new(1, 1).unwrap().is_whole());
        for bad in [
            "0/3", "4/3", "1/0", "1", "a/2", "-1/2", "+1/2", "1/2/3", " 1/2", "",
        ] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(error.to_string().contains(&format!("{bad:?}")), "{error}");
        }
    }
}
