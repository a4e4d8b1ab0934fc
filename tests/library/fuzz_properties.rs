//! The fuzz checks of `rotation_game::fuzzing` under proptest: random bytes,
//! and for the text formats, near-valid text built from the format's tokens
//! (random bytes alone almost never make a whole case).

use proptest::prelude::*;
use rotation_game::fuzzing::{self, BoardCase, TARGETS};
use rotation_game::parser::format_input;
use rotation_game::strategies::{scrambled_boards, uniform_boards};

/// Text made of the judge input's tokens, valid or not.
fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    let token = prop::sample::select(vec![
        "1", "2", "3", "0", " ", " ", " ", "\n", "\r\n", "\t", "\x0b", "4", "01", "x", "é",
    ]);
    prop::collection::vec(token, 0..80).prop_map(|tokens| tokens.concat().into_bytes())
}

/// Text made of the judge output's tokens and the check target's right
/// answer, cut at random places.
fn output_soup() -> impl Strategy<Value = Vec<u8>> {
    let token = prop::sample::select(vec![
        "A",
        "C",
        "D",
        "H",
        "AC",
        "DDHH",
        "No moves needed",
        "1",
        "2",
        "3",
        "\n",
        "\n",
        "\r\n",
        " ",
        "\t",
    ]);
    let right = fuzzing::check_expected_output().to_vec();
    prop_oneof![
        prop::collection::vec(token.clone(), 0..20).prop_map(|tokens| tokens.concat().into_bytes()),
        (0..=right.len(), prop::collection::vec(token, 0..4)).prop_map(move |(cut, tokens)| {
            let mut output = right[..cut].to_vec();
            output.extend(tokens.concat().into_bytes());
            output
        }),
    ]
}

/// Valid judge input with one byte overwritten.
fn damaged_input() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(uniform_boards(), 1..4),
        any::<prop::sample::Index>(),
        any::<u8>(),
    )
        .prop_map(|(boards, at, byte)| {
            let mut input = format_input(&boards).into_bytes();
            let at = at.index(input.len());
            input[at] = byte;
            input
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_target_passes_random_bytes(data in prop::collection::vec(any::<u8>(), 0..200)) {
        // The targets that start a process per input have their own, shorter
        // runs below.
        for target in TARGETS.iter().filter(|target| !target.runs_programs) {
            (target.check)(&data);
        }
    }

    #[test]
    fn parse_passes_token_soup(data in token_soup()) {
        fuzzing::parse(&data);
    }

    #[test]
    fn parse_passes_damaged_input(data in damaged_input()) {
        fuzzing::parse(&data);
    }

    #[test]
    fn validate_passes_token_soup(data in token_soup()) {
        fuzzing::validate(&data);
    }

    #[test]
    fn validate_passes_damaged_input(data in damaged_input()) {
        fuzzing::validate(&data);
    }

    #[test]
    fn check_passes_output_soup(data in output_soup()) {
        fuzzing::check(&data);
    }

    #[test]
    fn pipeline_passes_token_soup(data in token_soup()) {
        fuzzing::pipeline(&data);
    }

    #[test]
    fn pipeline_passes_damaged_input(data in damaged_input()) {
        fuzzing::pipeline(&data);
    }

    #[test]
    fn pipeline_passes_valid_input(boards in prop::collection::vec(uniform_boards(), 0..6)) {
        fuzzing::pipeline(format_input(&boards).as_bytes());
    }

    #[test]
    fn every_board_has_an_encoding(board in uniform_boards()) {
        prop_assert_eq!(fuzzing::decode_board(&fuzzing::encode_board(&board)), board);
    }

    #[test]
    fn every_board_case_has_an_encoding(board in uniform_boards(), relabelling in 0..6u8, symmetry in 0..8u8) {
        let case = BoardCase::decode(&BoardCase::encode(&board, relabelling, symmetry));
        prop_assert_eq!(case.board, board);
        prop_assert_eq!(case.symmetry, symmetry);
    }

    #[test]
    fn board_passes_every_relabelling_and_symmetry(
        board in uniform_boards(),
        relabelling in 0..6u8,
        symmetry in 0..8u8,
    ) {
        fuzzing::board(&BoardCase::encode(&board, relabelling, symmetry));
    }

    #[test]
    fn board_passes_short_scrambles(board in scrambled_boards(6), relabelling in 0..6u8, symmetry in 0..8u8) {
        fuzzing::board(&BoardCase::encode(&board, relabelling, symmetry));
    }
}

proptest! {
    // Each case starts the package's standalone programs: one process for
    // the validator, two for the checker, which builds its table (0.1 s)
    // each time.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_targets_running_programs_pass_random_bytes(data in prop::collection::vec(any::<u8>(), 0..200)) {
        for target in TARGETS.iter().filter(|target| target.runs_programs) {
            (target.check)(&data);
        }
    }

    #[test]
    fn standalone_validator_passes_damaged_input(data in damaged_input()) {
        fuzzing::standalone_validator(&data);
    }

    #[test]
    fn standalone_checker_passes_output_soup(data in output_soup()) {
        fuzzing::standalone_checker(&data);
    }
}

proptest! {
    // Each case runs ida on a board of up to 8 moves and bfs on it.
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn board_deep_passes_scrambles(board in scrambled_boards(8)) {
        fuzzing::board_deep(&BoardCase::encode(&board, 0, 0));
    }
}
