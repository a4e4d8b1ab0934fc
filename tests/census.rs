//! The full census: all 9,465,511,770 boards counted by optimal length, by
//! `rotation-game census` as a user runs it, once.
//!
//! Ignored by default (it takes a few CPU seconds even optimised); CI runs it
//! with `cargo test --test census -- --ignored`, where the test profile
//! builds this crate at opt-level 3 (Cargo.toml): about 1 s.

mod common;

use common::with_snapshots;
use rotation_game::census::BOARDS_BY_OPTIMAL_LENGTH;

#[test]
#[ignore = "counts every board; CI runs it with --ignored"]
fn census_counts_every_board_and_matches_the_embedded_table() {
    let output = common::run(&["census"]);
    assert!(output.status.success(), "{output:?}");
    let table = common::stdout(&output);
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
