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
