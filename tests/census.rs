//! The full census: all 9,465,511,770 boards counted by optimal length.
//!
//! Ignored by default (it takes a few CPU seconds even optimised); CI runs it
//! in release mode with `cargo test --release --test census -- --ignored`.

mod common;

use common::with_snapshots;
use rotation_game::census::{Census, TOTAL_BOARDS, census};

#[test]
#[ignore = "counts every board; CI runs it in release mode with --ignored"]
fn census_counts_every_board_and_matches_the_embedded_table() {
    let census = census(0, &|_| {}).expect("threads start");
    assert_eq!(census.total(), TOTAL_BOARDS);
    assert_eq!(census, Census::embedded());
    with_snapshots(|| insta::assert_snapshot!("census", census.table()));
}
