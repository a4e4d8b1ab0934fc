//! The full census: all 9,465,511,770 boards counted by optimal length, by
//! `rotation-game census` as a user runs it, once.
//!
//! It takes a few CPU seconds, about 1 s in the test profile, which builds
//! this crate at opt-level 3 (Cargo.toml).

use rotation_game::census::BOARDS_BY_OPTIMAL_LENGTH;

use crate::support::snapshots::with_snapshots;
use crate::support::{run, stdout};

#[test]
fn census_counts_every_board_and_matches_the_embedded_table() {
    let output = run(&["census"]);
    assert!(output.status.success(), "{output:?}");
    let table = stdout(&output);
    // The table's rows are the embedded counts, recomputed.
    let counted: Vec<u64> = table
        .lines()
        .skip(1)
        .take(BOARDS_BY_OPTIMAL_LENGTH.len())
        .map(|row| row.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counted, BOARDS_BY_OPTIMAL_LENGTH);
    with_snapshots(|| insta::assert_snapshot!("census", table));
}
