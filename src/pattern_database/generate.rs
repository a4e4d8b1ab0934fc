//! Breadth-first generation of the pattern database.
//!
//! Self-contained apart from [`geometry`](crate::geometry),
//! [`cells`](crate::cells) and [`rank`](crate::rank), because the build script includes this file to
//! generate the table it embeds; the library includes it too, so that the
//! run-time cost can be benchmarked and the embedded table compared with a
//! fresh one.

use crate::cells::EightCells;
use crate::geometry::rotate_line_slow;
use crate::rank::{SUBSET_COUNT, rank_slow, unrank};

/// Marks a subset not reached yet; never left in a finished table, because
/// every subset can be moved into the centre.
const UNREACHED: u8 = u8::MAX;

/// The exact number of moves needed to bring each 8-cell subset into the
/// centre, indexed by the sets' combinadic rank (`src/rank.rs`).
///
/// A breadth-first search from the centre. The moves are closed under
/// inverse, so the distance from the centre to a subset equals the distance
/// from the subset to the centre.
pub fn generate_distances() -> Vec<u8> {
    let mut distances = vec![UNREACHED; SUBSET_COUNT];
    let goal = rank_slow(EightCells::CENTRE);
    distances[goal] = 0;
    let mut frontier = vec![goal];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &index in &frontier {
            let set = unrank(index).mask();
            for move_index in 0..8 {
                // A move permutes the cells, so eight cells stay eight.
                let moved = EightCells::from_mask_unchecked(rotate_line_slow(set, move_index));
                let neighbour = rank_slow(moved);
                if distances[neighbour] == UNREACHED {
                    distances[neighbour] = depth;
                    next.push(neighbour);
                }
            }
        }
        frontier = next;
    }
    assert!(
        !distances.contains(&UNREACHED),
        "every subset reaches the centre"
    );
    distances
}

/// Bits of a path entry ([`generate_paths`]) that hold its moves: sixteen
/// 3-bit slots, the first move in the highest (bits 45 to 47), unused slots
/// 0.
pub const PATH_MOVES_MASK: u64 = (1 << PATH_LENGTH_SHIFT) - 1;

/// Where a path entry's length starts: bits 48 and up.
pub const PATH_LENGTH_SHIFT: u32 = 48;

/// Slots of a path entry: room for the longest path, 14 moves.
pub const PATH_SLOTS: usize = 16;

/// Where slot `slot` (0 for the first move) of a path entry starts.
pub const fn path_slot_shift(slot: usize) -> u32 {
    (3 * (PATH_SLOTS - 1 - slot)) as u32
}

/// For each 8-cell subset, by rank: the lexicographically smallest among
/// the shortest sequences of moves that bring its cells into the centre,
/// packed in a `u64`: its length from [`PATH_LENGTH_SHIFT`] up, and its
/// moves (A = 0 … H = 7) in 3-bit slots below, the first move highest, the
/// unused slots 0.
///
/// So of two entries the shorter path is the smaller number, and of two
/// paths of one length the lexicographically smaller is the smaller number.
///
/// The smallest shortest sequence of a set starts with the smallest move
/// that lowers its distance by one, and goes on with the smallest shortest
/// sequence of the set that move leads to: entries are filled in order of
/// distance, each from that neighbour's, which is nearer and so already
/// filled.
pub fn generate_paths(distances: &[u8]) -> Vec<u64> {
    assert_eq!(distances.len(), SUBSET_COUNT, "one distance per subset");
    let mut paths = vec![0u64; SUBSET_COUNT];
    let farthest = distances.iter().copied().max().unwrap_or(0);
    for length in 1..=farthest {
        for index in (0..SUBSET_COUNT).filter(|&index| distances[index] == length) {
            let set = unrank(index).mask();
            let (first, rest) = (0..8)
                .map(|move_index| {
                    let moved = EightCells::from_mask_unchecked(rotate_line_slow(set, move_index));
                    (move_index, rank_slow(moved))
                })
                .find(|&(_, neighbour)| distances[neighbour] + 1 == length)
                .expect("a set off the centre has a neighbour one move closer");
            let rest = paths[rest] & PATH_MOVES_MASK;
            paths[index] = (u64::from(length) << PATH_LENGTH_SHIFT)
                | ((first as u64) << path_slot_shift(0))
                | (rest >> 3);
        }
    }
    paths
}
