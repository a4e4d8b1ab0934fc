//! `rotation-game verify` as a user runs it (and `census --help`; the census
//! itself runs once, in `census.rs`).

use crate::support::run;

#[test]
fn a_passing_campaign_prints_a_summary_and_exits_0() {
    let output = run(&[
        "verify",
        "--seed",
        "3",
        "--scramble",
        "6",
        "--boards",
        "30",
        "--max-length",
        "6",
        "--threads",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "no progress bar off a terminal");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with("verified 30 boards (seed 3) on 2 threads in "),
        "{text}"
    );
    assert!(text.contains("\nsolver      boards    total time   per board\npdb             30 "));
    assert!(text.contains("\nbfs             30 "), "{text}");
    assert!(text.contains("\ndisagreements: 0\n"));
    assert!(text.ends_with(
        "repeat with: rotation-game verify --seed 3 --scramble 6 --boards 30 --solvers pdb,ida,bfs --max-length 6\n"
    ));
}

#[test]
fn json_reports_the_same_for_any_thread_count() {
    let report = |threads: &str| {
        let output = run(&[
            "verify",
            "--seed",
            "11",
            "--boards",
            "40",
            "--solvers",
            "pdb,bfs",
            "--max-length",
            "5",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        json
    };
    let (one, two) = (report("1"), report("2"));
    assert_eq!(one["passed"], true);
    assert_eq!(one["mode"], "--mix", "the default mode of campaigns");
    for key in [
        "boards",
        "boards_by_length",
        "disagreements",
        "seed",
        "command",
    ] {
        assert_eq!(one[key], two[key], "{key}");
    }
    assert_eq!(
        one["command"],
        "rotation-game verify --seed 11 --mix --boards 40 --solvers pdb,bfs --max-length 5"
    );
    assert_eq!(one["solvers"][0]["name"], "pdb");
    assert_eq!(one["solvers"][0]["boards"], 40);
    let within_bound: u64 = one["boards_by_length"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["length"].as_u64().unwrap() <= 5)
        .map(|row| row["boards"].as_u64().unwrap())
        .sum();
    assert_eq!(one["solvers"][1]["boards"], within_bound);
}

#[test]
fn bad_command_lines_exit_2() {
    for args in [
        &["verify", "--length", "14", "--seed", "1"][..],
        &["verify", "--solvers", "pdb,fast"],
        &["verify", "--max-length", "10"],
        &["verify", "--uniform", "--hardest"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn the_shards_together_check_the_whole_campaign() {
    let report = |extra: &[&str]| {
        let mut args = vec![
            "verify",
            "--seed",
            "5",
            "--boards",
            "30",
            "--solvers",
            "pdb",
            "--json",
        ];
        args.extend_from_slice(extra);
        let output = run(&args);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap()
    };
    let counts = |json: &serde_json::Value| -> Vec<u64> {
        json["boards_by_length"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["boards"].as_u64().unwrap())
            .collect()
    };
    let whole = report(&[]);
    let mut union = vec![0; counts(&whole).len()];
    let mut boards = 0;
    for shard in ["1/4", "2/4", "3/4", "4/4"] {
        let part = report(&["--shard", shard]);
        assert_eq!(part["shard"], shard, "the report names its shard");
        assert!(
            part["command"]
                .as_str()
                .unwrap()
                .contains(&format!("--shard {shard}"))
        );
        boards += part["boards"].as_u64().unwrap();
        for (total, count) in union.iter_mut().zip(counts(&part)) {
            *total += count;
        }
    }
    assert_eq!(boards, 30);
    assert_eq!(union, counts(&whole));
}

#[test]
fn census_help_names_the_flags() {
    let output = run(&["census", "--help"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("--jobs") && text.contains("--json"));
}

#[test]
fn the_repeat_command_leaves_out_the_default_max_length() {
    let output = run(&[
        "verify",
        "--seed",
        "4",
        "--boards",
        "3",
        "--solvers",
        "pdb",
        "--max-depth",
        "8",
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.ends_with(
            "repeat with: rotation-game verify --seed 4 --mix --boards 3 --solvers pdb\n"
        ),
        "{text}"
    );
}

#[test]
fn a_closed_output_pipe_ends_a_passing_campaign_quietly() {
    let output =
        crate::support::run_with_stdout_closed(&["verify", "--seed", "1", "--boards", "5"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}
