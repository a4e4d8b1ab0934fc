//! `rotation-game gen` as a user runs it: its output for fixed seeds in every
//! mode is snapshotted (this guards the stability of the random streams and
//! of the sampling), and the properties of each mode hold on its output.

use std::process::Output;

use rotation_game::parser::parse_all;
use rotation_game::{OptimalLength, generator, pattern_database};

use crate::support::snapshots::with_snapshots;
use crate::support::stderr;

/// Runs `rotation-game gen` with `args`.
fn run_gen(args: &[&str]) -> Output {
    crate::support::run(&[&["gen"], args].concat())
}

/// The boards a successful `gen` prints.
fn boards_of(args: &[&str]) -> Vec<rotation_game::Board> {
    parse_all(gen_output(args).as_bytes()).unwrap()
}

/// The standard output of a successful `gen`.
fn gen_output(args: &[&str]) -> String {
    let output = run_gen(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("judge input is ASCII")
}

#[test]
fn uniform_boards_for_a_fixed_seed() {
    let text = gen_output(&["--seed", "2286", "--uniform", "--boards", "8"]);
    with_snapshots(|| insta::assert_snapshot!("gen_uniform_seed_2286", text));
}

#[test]
fn uniform_is_the_default_mode() {
    assert_eq!(
        gen_output(&["--seed", "2286", "--boards", "8"]),
        gen_output(&["--seed", "2286", "--uniform", "--boards", "8"])
    );
}

#[test]
fn scrambled_boards_for_a_fixed_seed() {
    let text = gen_output(&["--seed", "1343", "--scramble", "7", "--boards", "8"]);
    with_snapshots(|| insta::assert_snapshot!("gen_scramble_7_seed_1343", text));
}

#[test]
fn length_boards_for_a_fixed_seed() {
    let mut text = String::new();
    for length in ["0", "1", "7", "12", "13"] {
        // The snapshot predates the flag's name; --depth stays an alias.
        text.push_str(&format!("--depth {length}\n"));
        let boards = gen_output(&["--seed", "1667", "--length", length, "--boards", "4"]);
        let by_alias = gen_output(&["--seed", "1667", "--depth", length, "--boards", "4"]);
        assert_eq!(boards, by_alias);
        text.push_str(&boards);
    }
    with_snapshots(|| insta::assert_snapshot!("gen_depth_seed_1667", text));
}

#[test]
fn hardest_boards_are_the_192_of_length_13_in_increasing_order() {
    let text = gen_output(&["--hardest", "--seed", "0"]);
    let boards = parse_all(text.as_bytes()).unwrap();
    assert_eq!(boards.len(), 192);
    assert!(boards.windows(2).all(|pair| pair[0] < pair[1]));
    for board in &boards {
        assert_eq!(pattern_database::optimal_length(board), OptimalLength::MAX);
    }
    assert_eq!(boards, generator::hardest_boards());
    assert!(text.ends_with("\n0\n"));
}

#[test]
fn every_length_that_exists_gives_boards_of_exactly_that_length() {
    for length in 0..=13u8 {
        let text = gen_output(&[
            "--seed",
            "7",
            "--length",
            &length.to_string(),
            "--boards",
            "5",
        ]);
        let boards = parse_all(text.as_bytes()).unwrap();
        assert_eq!(boards.len(), 5);
        for board in boards {
            assert_eq!(pattern_database::optimal_length(&board).moves(), length);
        }
    }
}

#[test]
fn a_length_that_does_not_exist_is_refused() {
    for flag in ["--length", "--depth"] {
        let output = run_gen(&["--seed", "7", flag, "14"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("no board has optimal length 14: optimal lengths run from 0 to 13"),
            "{stderr}"
        );
    }
}

#[test]
fn without_a_seed_one_is_drawn_announced_and_repeatable() {
    let output = run_gen(&["--scramble", "5", "--boards", "3"]);
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    let seed = stderr
        .strip_prefix("rotation-game: no --seed given, using --seed ")
        .and_then(|rest| rest.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("the seed is announced: {stderr:?}"));
    let again = gen_output(&["--seed", seed, "--scramble", "5", "--boards", "3"]);
    assert_eq!(String::from_utf8(output.stdout).unwrap(), again);
}

#[test]
fn output_is_judge_input_ending_with_zero() {
    for mode in [&["--uniform"][..], &["--scramble", "3"], &["--length", "4"]] {
        let mut args = vec!["--seed", "1", "--boards", "0"];
        args.extend_from_slice(mode);
        assert_eq!(gen_output(&args), "0\n");
        args[3] = "2";
        let text = gen_output(&args);
        assert_eq!(text.lines().count(), 3);
        assert!(text.ends_with("\n0\n"));
        assert_eq!(parse_all(text.as_bytes()).unwrap().len(), 2);
    }
}

#[test]
fn hardest_with_boards_is_a_seeded_sample_without_repetition() {
    let sample = boards_of(&["--hardest", "--boards", "20", "--seed", "5"]);
    assert_eq!(sample.len(), 20);
    let mut distinct = sample.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 20);
    assert_eq!(
        boards_of(&["--hardest", "--boards", "20", "--seed", "5"]),
        sample
    );
    assert_ne!(
        boards_of(&["--hardest", "--boards", "20", "--seed", "6"]),
        sample
    );
    assert!(
        sample
            .iter()
            .all(|board| pattern_database::optimal_length(board) == OptimalLength::MAX)
    );
    let too_many = run_gen(&["--hardest", "--boards", "193"]);
    assert_eq!(too_many.status.code(), Some(2));
    assert!(
        stderr(&too_many).contains("there are only 192 hardest boards"),
        "{too_many:?}"
    );
}

#[test]
fn the_seed_notice_appears_only_when_the_seed_matters() {
    let all = run_gen(&["--hardest"]);
    assert!(all.status.success());
    assert!(all.stderr.is_empty(), "{}", stderr(&all));
    for args in [
        &["--hardest", "--boards", "3"][..],
        &["--mix", "--boards", "3"],
    ] {
        let output = run_gen(args);
        assert!(
            stderr(&output).starts_with("rotation-game: no --seed given, using --seed "),
            "{args:?}"
        );
    }
}
