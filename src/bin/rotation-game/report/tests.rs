//! The reports of `stress` and `judge`, rendered from findings made in
//! memory: the program is a closure (no process starts), the library's own
//! campaign and folder judging judge it, and each format is read back
//! whole: the text line by line, the JSON as JSON, the JUnit report with an
//! XML parser. What a real process adds (its measures, the sandbox) is the
//! command-line tests' part (tests/cli/stress.rs, tests/cli/judge.rs).

use std::fs;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use rotation_game::answers::write_answer;
use rotation_game::board::{Board, Digit};
use rotation_game::checker::Checker;
use rotation_game::generator::{Generator, Mode, Shard};
use rotation_game::judging::{
    self, CampaignReport, DataFolder, Execute, FolderLayout, FolderOptions, FolderReport,
    StressOptions, Summary,
};
use rotation_game::runner::{
    CpuCounter, CpuShare, Isolation, KernelMemory, Limits, Measurement, ProcessCap, Run, RunUser,
    Termination,
};
use serde_json::Value;

#[path = "../../../../tests/support/snapshots.rs"]
mod snapshots;

use super::campaign::CampaignFindings;
use super::folder::FolderFindings;
use super::{Findings, Reporter, launch_failure, not_reported, stopped_by};
use crate::colour::{self, ColourWhen};
use crate::junit;
use snapshots::with_snapshots;

/// A program without a process: `respond` gives what it prints for the
/// boards of a run's input, and how it ends.
struct Scripted<F> {
    respond: F,
    limits: Limits,
}

impl<F: Fn(&[Board]) -> Run + Sync> Execute for Scripted<F> {
    fn run(&self, input: &[u8]) -> io::Result<Run> {
        let boards = Checker::from_judge_input(input)
            .map(|checker| checker.boards().to_vec())
            .unwrap_or_default();
        Ok((self.respond)(&boards))
    }

    fn limits(&self) -> &Limits {
        &self.limits
    }

    fn is_script(&self) -> bool {
        false
    }
}

/// A run of `boards` that ended as `termination` having printed `stdout`,
/// measured by the boards alone, so that reports do not depend on timing:
/// 1 ms of CPU time plus 3 ms per optimal move of the boards, twice that of
/// wall clock, and 1 MiB of memory plus half a MiB per board.
fn measured(boards: &[Board], termination: Termination, stdout: Vec<u8>) -> Run {
    let moves: usize = Checker::new(boards)
        .answers()
        .iter()
        .map(|answer| answer.moves.len())
        .sum();
    let cpu = Duration::from_millis(1 + 3 * moves as u64);
    Run {
        termination,
        cpu_time: cpu,
        wall_time: 2 * cpu,
        peak_memory_bytes: (2 + boards.len() as u64) << 19,
        stdout,
        stderr: Vec::new(),
        stderr_bytes: 0,
        refused_forks: 0,
        measurement: Measurement::Rusage,
    }
}

/// The right answers to `boards`, except a wrong centre digit for those
/// `wrong` picks by their optimal length.
fn answers_but(boards: &[Board], wrong: impl Fn(usize) -> bool) -> Vec<u8> {
    let checker = Checker::new(boards);
    let mut out = Vec::new();
    for answer in checker.answers() {
        let mut answer = *answer;
        if wrong(answer.moves.len()) {
            answer.centre = Digit::ALL[usize::from(answer.centre.value() % 3)];
        }
        write_answer(&mut out, &answer);
    }
    out
}

/// How runs are isolated on a machine with nothing: no sandbox, no
/// cgroup, no task clock.
fn bare() -> Isolation {
    Isolation {
        sandboxed: false,
        sandbox_missing: None,
        user: RunUser::Caller,
        measurement: Measurement::Rusage,
        cgroup_missing: None,
        process_cap: None,
        cpu_share: CpuShare::Nothing,
        kernel_memory: KernelMemory::Uncounted,
        cpu_counter: CpuCounter::Reaped,
    }
}

/// The limits of every run the reports here say: the default ones, with no
/// process cap (which [`bare`] cannot give).
const LIMITS: Limits = Limits {
    processes: None,
    ..Limits::DEFAULT
};

/// A reporter of `command` for runs isolated as `isolation`, with
/// [`LIMITS`], started at a fixed time.
fn reporter_for<'a>(command: &'static str, isolation: &'a Isolation) -> Reporter<'a> {
    colour::choose(ColourWhen::Never);
    Reporter {
        command,
        program: "mine --fast",
        limits: &LIMITS,
        isolation,
        limit_source: None,
        hidden: None,
        repeat: format!("rotation-game {command} --program 'mine --fast'"),
        started: SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_563_719),
        stopped_by: None,
        launch_hint: None,
    }
}

/// The text report, as a string.
fn text(reporter: &Reporter, findings: &impl Findings) -> String {
    let mut out = Vec::new();
    reporter
        .write_text(&mut out, findings)
        .expect("writing to memory");
    String::from_utf8(out).expect("UTF-8")
}

/// The JSON report, parsed back.
fn json(reporter: &Reporter, findings: &impl Findings) -> Value {
    serde_json::to_value(reporter.json_report(findings)).expect("a JSON report")
}

/// The JUnit report, as written.
fn junit_xml(reporter: &Reporter, findings: &impl Findings) -> String {
    let mut out = Vec::new();
    junit::write(&mut out, &reporter.junit_suite(findings)).expect("writing to memory");
    String::from_utf8(out).expect("UTF-8")
}

/// The JUnit report, checked to parse as XML with its suite's counts of
/// tests and failures those of its test cases, the host's name (the one
/// thing in it this machine decides) replaced by `HOST`.
fn junit_report(reporter: &Reporter, findings: &impl Findings) -> String {
    let xml = junit_xml(reporter, findings);
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .expect("a testsuite");
    let cases: Vec<_> = suite
        .children()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    let failures = cases
        .iter()
        .filter(|case| case.children().any(|node| node.has_tag_name("failure")))
        .count();
    assert_eq!(suite.attribute("tests"), Some(&*cases.len().to_string()));
    assert_eq!(suite.attribute("failures"), Some(&*failures.to_string()));
    let host = suite.attribute("hostname").expect("a hostname");
    xml.replace(&format!("hostname=\"{host}\""), "hostname=\"HOST\"")
}

/// A report in every format, for a snapshot of variants: `title`, the
/// text, the JSON fields `fields` names, and the JUnit report's first and
/// last test cases with their failures' types.
fn section(title: &str, reporter: &Reporter, findings: &impl Findings, fields: &[&str]) -> String {
    let mut out = format!("=== {title}\n{}", text(reporter, findings));
    let json = json(reporter, findings);
    for field in fields {
        out.push_str(&format!("json {field}: {}\n", json[field]));
    }
    let xml = junit_report(reporter, findings);
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let cases: Vec<String> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .map(|case| {
            let failure = case
                .children()
                .find(|node| node.has_tag_name("failure"))
                .and_then(|failure| failure.attribute("type"))
                .unwrap_or("passed");
            format!("{} ({failure})", case.attribute("name").unwrap_or(""))
        })
        .collect();
    if let [first, .., last] = &cases[..] {
        out.push_str(&format!("junit: {} cases: {first} … {last}\n", cases.len()));
    } else {
        out.push_str(&format!("junit: {}\n", cases.join("")));
    }
    out
}

/// What a program prints for a run's boards, and how the run ends.
type Respond = fn(&[Board]) -> Run;

/// The right answers but the centre wrong on boards of optimal length 5.
fn wrong_at_5(boards: &[Board]) -> Run {
    measured(
        boards,
        Termination::Exited(0),
        answers_but(boards, |moves| moves == 5),
    )
}

/// The right answers but the centre wrong on boards of optimal length 5 or
/// 8.
fn wrong_at_5_and_8(boards: &[Board]) -> Run {
    let wrong = |moves| moves == 5 || moves == 8;
    measured(boards, Termination::Exited(0), answers_but(boards, wrong))
}

/// The right answers, always.
fn right(boards: &[Board]) -> Run {
    measured(
        boards,
        Termination::Exited(0),
        answers_but(boards, |_| false),
    )
}

/// The centre wrong on a board of optimal length 5 among other boards,
/// right when it is alone: no case fails alone.
fn wrong_at_5_among_others(boards: &[Board]) -> Run {
    let among_others = boards.len() > 1;
    let stdout = answers_but(boards, |moves| among_others && moves == 5);
    measured(boards, Termination::Exited(0), stdout)
}

/// 30 lines of output, and 5000 bytes of standard error of which the
/// first 20 were kept.
fn flood(boards: &[Board]) -> Run {
    let mut run = measured(boards, Termination::Exited(0), b"A\n".repeat(30));
    run.stderr = b"a line of its stderr\n".repeat(20)[..20].to_vec();
    run.stderr_bytes = 5000;
    run
}

/// [`flood`] when a run holds several boards, the right answers when it
/// holds one: a long output shown for a failing run of several cases.
fn flood_among_others(boards: &[Board]) -> Run {
    if boards.len() > 1 {
        flood(boards)
    } else {
        right(boards)
    }
}

/// Four lines of output, as many as a failing case of one board shows.
fn four_lines(boards: &[Board]) -> Run {
    measured(boards, Termination::Exited(0), b"A\nB\nC\nD\n".to_vec())
}

/// The right answers to every board but the first, whose answer is left
/// out: the answers are misaligned.
fn skips_the_first(boards: &[Board]) -> Run {
    let answers = String::from_utf8(answers_but(boards, |_| false)).unwrap();
    let rest: Vec<&str> = answers.lines().skip(2).collect();
    measured(
        boards,
        Termination::Exited(0),
        format!("{}\n", rest.join("\n")).into_bytes(),
    )
}

/// Nothing printed, exit status 127: the shell's "command not found".
fn not_found(boards: &[Board]) -> Run {
    let mut run = measured(boards, Termination::Exited(127), Vec::new());
    run.stderr = b"sh: 1: mine: not found\n".to_vec();
    run.stderr_bytes = run.stderr.len() as u64;
    run
}

/// [`not_found`] on a run that holds a solved board, [`right`] on the
/// others.
fn not_found_at_0(boards: &[Board]) -> Run {
    if boards
        .iter()
        .any(|board| Checker::new(&[*board]).answers()[0].moves.is_empty())
    {
        not_found(boards)
    } else {
        right(boards)
    }
}

/// A campaign judged in memory, its time and the runner's CPU time fixed.
struct Campaign {
    generator: Generator,
    requested: u64,
    cases_per_run: u64,
    max_fail: Option<usize>,
    report: CampaignReport,
    summary: Summary,
}

/// A campaign of `requested` boards of `generator`, `cases_per_run` to a
/// run, stopping after `max_fail` failing runs, on the program `respond`.
fn campaign(
    generator: Generator,
    requested: u64,
    cases_per_run: u64,
    max_fail: Option<usize>,
    respond: Respond,
) -> Campaign {
    let program = Scripted {
        respond,
        limits: LIMITS,
    };
    let options = StressOptions {
        cases_per_run,
        jobs: 1,
        strict_whitespace: false,
        max_fail,
    };
    let mut report = judging::campaign(&generator, requested, &program, &options, &|_, _| {})
        .expect("a campaign in memory");
    report.elapsed = Duration::from_millis(1_500);
    report.runner_cpu = Duration::from_millis(250);
    let summary = Summary::of(&report.runs);
    Campaign {
        generator,
        requested,
        cases_per_run,
        max_fail,
        report,
        summary,
    }
}

/// The mix's first 14 boards (case k of optimal length k - 1), three to a
/// run, on a program that gets the centre wrong at length 5: the run of
/// cases 4 to 6 fails, and case 6 alone is its smallest failing case.
fn mix(respond: Respond) -> Campaign {
    campaign(Generator::new(1, Mode::Mix), 14, 3, None, respond)
}

impl Campaign {
    fn findings(&self) -> CampaignFindings<'_> {
        CampaignFindings {
            whole: &self.generator,
            generator: &self.generator,
            requested: self.requested,
            cases_per_run: self.cases_per_run,
            report: &self.report,
            summary: &self.summary,
            saved_to: None,
            max_fail: self.max_fail,
            baseline: None,
        }
    }
}

#[test]
fn a_failing_campaign_in_every_format() {
    let isolation = bare();
    let reporter = reporter_for("stress", &isolation);
    let campaign = mix(wrong_at_5);
    let findings = campaign.findings();
    let json = serde_json::to_string_pretty(&json(&reporter, &findings)).unwrap();
    with_snapshots(|| {
        insta::assert_snapshot!("report_campaign_text", text(&reporter, &findings));
        insta::assert_snapshot!("report_campaign_json", json);
        insta::assert_snapshot!("report_campaign_junit", junit_report(&reporter, &findings));
    });
}

#[test]
fn campaigns_of_every_outcome_read_as_they_should() {
    let isolation = bare();
    let reporter = reporter_for("stress", &isolation);
    let subject = ["passed", "seed", "mode", "boards", "shard", "cases_per_run"];
    let mut out = String::new();
    let mut add =
        |title: &str, reporter: &Reporter, findings: &CampaignFindings, fields: &[&str]| {
            out.push_str(&section(title, reporter, findings, fields));
        };

    let shard = Shard::new(2, 3).expect("a shard");
    let sharded = campaign(
        Generator::new(7, Mode::Mix).sharded(shard),
        14,
        2,
        None,
        right,
    );
    add(
        "accepted: the second of three shards, two cases a run",
        &reporter,
        &sharded.findings(),
        &subject,
    );

    let shard = Shard::new(1, 64).expect("a shard");
    let hardest = Generator::new(7, Mode::Hardest).sharded(shard);
    let hardest = campaign(hardest, 0, 1, None, right);
    add(
        "the hardest boards, the first of 64 shards: no seed",
        &reporter,
        &hardest.findings(),
        &subject,
    );

    // As the library leaves a campaign a stop ends after its third run:
    // the runs made, the failure not shrunk, the rest not reported.
    let mut stopped = mix(wrong_at_5);
    stopped.report.interrupted = true;
    stopped.report.runs.truncate(3);
    stopped.report.runs_not_reported = 2;
    stopped.report.failure.as_mut().expect("a failure").smallest = None;
    stopped.summary = Summary::of(&stopped.report.runs);
    let stopping = Reporter {
        stopped_by: Some(2),
        ..reporter_for("stress", &isolation)
    };
    let fields = ["passed", "interrupted_by", "runs_not_reported", "failures"];
    add(
        "stopped by SIGINT after the third run",
        &stopping,
        &stopped.findings(),
        &fields,
    );

    let fields = ["passed", "failures", "runs_not_reported"];
    let two = campaign(
        Generator::new(1, Mode::Mix),
        14,
        1,
        Some(2),
        wrong_at_5_and_8,
    );
    add(
        "--max-fail 2, one case a run",
        &reporter,
        &two.findings(),
        &fields,
    );
    let one = campaign(
        Generator::new(1, Mode::Mix),
        14,
        1,
        Some(1),
        wrong_at_5_and_8,
    );
    add(
        "--max-fail 1 (the default), one case a run",
        &reporter,
        &one.findings(),
        &fields,
    );

    let alone = mix(wrong_at_5_among_others);
    add("no case fails alone", &reporter, &alone.findings(), &[]);

    let flooded = campaign(Generator::new(1, Mode::Mix), 1, 1, None, flood);
    add(
        "30 lines of output and a cut standard error",
        &reporter,
        &flooded.findings(),
        &[],
    );

    let four = campaign(Generator::new(1, Mode::Mix), 1, 1, None, four_lines);
    add(
        "four lines of output, all shown",
        &reporter,
        &four.findings(),
        &[],
    );

    let long = mix(flood_among_others);
    add(
        "a run of three failing, no case alone: 8 of its 30 lines of output",
        &reporter,
        &long.findings(),
        &[],
    );

    let saved = mix(wrong_at_5);
    let findings = CampaignFindings {
        saved_to: Some(std::path::Path::new("failing.txt")),
        ..saved.findings()
    };
    add("saved to a file", &reporter, &findings, &[]);

    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("baseline.json");
    let baseline = serde_json::json!({
        "version": crate::output_args::JSON_VERSION,
        "seed": 1,
        "mode": "--mix",
        "summary": {"by_length": [
            {"optimal_length": 2, "median_cpu_seconds": 0.5},
            {"optimal_length": 5, "median_cpu_seconds": 0.001},
        ]},
    });
    fs::write(&path, baseline.to_string()).expect("a baseline file");
    let compared = mix(wrong_at_5);
    let comparison = crate::baseline::Baseline::read(&path)
        .expect("a baseline")
        .compare(&compared.summary.by_length);
    let findings = CampaignFindings {
        baseline: Some(&comparison),
        ..compared.findings()
    };
    let fields = ["baseline"];
    add("against a baseline", &reporter, &findings, &fields);

    let once = campaign(
        Generator::new(1, Mode::Mix),
        4,
        2,
        Some(usize::MAX),
        not_found_at_0,
    );
    add(
        "exit status 127 on one run of two: no launch failure",
        &reporter,
        &once.findings(),
        &[],
    );

    let missing = campaign(
        Generator::new(1, Mode::Mix),
        4,
        2,
        Some(usize::MAX),
        not_found,
    );
    add(
        "every run: exit status 127",
        &reporter,
        &missing.findings(),
        &[],
    );
    let hinted = Reporter {
        launch_hint: Some("the hint the interpreter's diagnosis gives".to_owned()),
        ..reporter_for("stress", &isolation)
    };
    add(
        "every run: exit status 127, with a hint",
        &hinted,
        &missing.findings(),
        &[],
    );

    let out = out.replace(&dir.path().display().to_string(), "DIR");
    with_snapshots(|| insta::assert_snapshot!("report_campaign_variants", out));
}

/// A plain folder judged in memory: `01` (two boards, of optimal lengths 0
/// and 2), `02` (three, of lengths 3, 5 and 8) and `03` (an input that is
/// no judge input: a FAIL), its time fixed and its name `tests-folder`.
struct Folder {
    _dir: tempfile::TempDir,
    folder: DataFolder,
    max_fail: Option<usize>,
    report: FolderReport,
}

fn folder(max_fail: Option<usize>, respond: Respond, files: usize) -> Folder {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let generator = Generator::new(1, Mode::Mix);
    let write = |name: &str, boards: &[Board]| {
        let input = rotation_game::parser::format_input(boards);
        fs::write(dir.path().join(format!("{name}.in")), input).unwrap();
        let answer = answers_but(boards, |_| false);
        fs::write(dir.path().join(format!("{name}.ans")), answer).unwrap();
    };
    write("01", &[generator.board(0), generator.board(2)]);
    if files > 1 {
        write(
            "02",
            &[generator.board(3), generator.board(5), generator.board(8)],
        );
    }
    if files > 2 {
        fs::write(dir.path().join("03.in"), "1 2 3\n0\n").unwrap();
        fs::write(dir.path().join("03.ans"), "").unwrap();
    }
    let mut folder = DataFolder::find(dir.path(), FolderLayout::Plain).expect("test files");
    let program = Scripted {
        respond,
        limits: LIMITS,
    };
    let options = FolderOptions {
        jobs: 1,
        strict_whitespace: false,
        max_fail,
    };
    let mut report =
        judging::judge_folder(&program, &folder.files, &options, &|_| {}).expect("judged");
    report.elapsed = Duration::from_millis(2_300);
    folder.dir = PathBuf::from("tests-folder");
    Folder {
        _dir: dir,
        folder,
        max_fail,
        report,
    }
}

impl Folder {
    fn findings(&self) -> FolderFindings<'_> {
        FolderFindings {
            program: "mine --fast",
            folder: &self.folder,
            report: &self.report,
            time_limit: LIMITS.cpu_time,
            max_fail: self.max_fail,
        }
    }
}

#[test]
fn a_failing_folder_in_every_format() {
    let isolation = bare();
    let reporter = Reporter {
        limit_source: Some("the package's time limit".to_owned()),
        ..reporter_for("judge", &isolation)
    };
    let folder = folder(None, wrong_at_5, 3);
    let findings = folder.findings();
    let json = serde_json::to_string_pretty(&json(&reporter, &findings)).unwrap();
    with_snapshots(|| {
        insta::assert_snapshot!("report_folder_text", text(&reporter, &findings));
        insta::assert_snapshot!("report_folder_json", json);
        insta::assert_snapshot!("report_folder_junit", junit_report(&reporter, &findings));
    });
}

#[test]
fn folders_of_every_outcome_read_as_they_should() {
    let isolation = bare();
    let reporter = reporter_for("judge", &isolation);
    let mut out = String::new();
    let mut add = |title: &str, reporter: &Reporter, findings: &FolderFindings, fields: &[&str]| {
        out.push_str(&section(title, reporter, findings, fields));
    };
    let fields = ["passed", "failures", "files_not_reported", "interrupted_by"];

    let accepted = folder(None, right, 2);
    add(
        "every file accepted",
        &reporter,
        &accepted.findings(),
        &fields,
    );

    let first = folder(Some(1), wrong_at_5, 3);
    add(
        "the first failure stops it (the default)",
        &reporter,
        &first.findings(),
        &fields,
    );

    let mut stopped = folder(None, wrong_at_5, 3);
    stopped.report.files.truncate(2);
    stopped.report.files_not_reported = 1;
    stopped.report.failures = 1;
    stopped.report.interrupted = true;
    let stopping = Reporter {
        stopped_by: Some(15),
        ..reporter_for("judge", &isolation)
    };
    add(
        "stopped by SIGTERM after two files",
        &stopping,
        &stopped.findings(),
        &fields,
    );

    let hidden = Reporter {
        hidden: Some("the test data"),
        ..reporter_for("judge", &isolation)
    };
    let flooded = folder(Some(2), flood, 2);
    add(
        "30 lines of output and a cut standard error; --max-fail 2; no sandbox, so nothing hidden",
        &hidden,
        &flooded.findings(),
        &fields,
    );

    let skipping = folder(None, skips_the_first, 2);
    add(
        "the first answer left out: misaligned",
        &reporter,
        &skipping.findings(),
        &["first_failure"],
    );

    let missing = folder(None, not_found, 2);
    add(
        "every file: exit status 127",
        &reporter,
        &missing.findings(),
        &[],
    );

    let sandboxed = Isolation {
        sandboxed: true,
        process_cap: Some(ProcessCap::Rlimit),
        ..bare()
    };
    let hiding = Reporter {
        hidden: Some("the test data"),
        ..reporter_for("judge", &sandboxed)
    };
    let accepted = folder(None, right, 1);
    add(
        "in a sandbox: the test data hidden",
        &hiding,
        &accepted.findings(),
        &["isolation"],
    );

    with_snapshots(|| insta::assert_snapshot!("report_folder_variants", out));
}

#[test]
fn the_launch_failure_line_names_the_status_and_what_to_look_at() {
    assert_eq!(launch_failure(None, Some("its hint")), None);
    let not_found = launch_failure(Some(127), None).expect("a line");
    assert_eq!(
        not_found,
        "every run ended with exit status 127 (a command not found: the program, or one it starts, is not where it runs): the program's standard error below names it; --sandbox-bind PATH shows a folder in the sandbox, and --sandbox off tells whether the sandbox is the cause"
    );
    let cannot_run = launch_failure(Some(126), Some("its hint")).expect("a line");
    assert_eq!(
        cannot_run,
        "every run ended with exit status 126 (a file that cannot be run: not executable, or not readable where it runs): its hint"
    );
}

#[test]
fn a_judging_not_interrupted_was_stopped_by_nothing() {
    // What a stopping signal gives is the command line's test's
    // (tests/cli/stress.rs, a_stopped_campaign_reports_the_runs_made_before_the_stop).
    assert_eq!(stopped_by(false), None);
}

#[test]
fn what_was_not_reported_says_why() {
    assert_eq!(
        not_reported(3, "run", None, true),
        "3 runs not judged: the judging was stopped"
    );
    assert_eq!(
        not_reported(1, "file", Some(1), false),
        "1 file after the first failure not reported (the default; --max-fail N stops at the N-th, --no-fail-fast judges every file)"
    );
    assert_eq!(
        not_reported(2, "run", Some(4), false),
        "2 runs after failure number 4 not reported (--max-fail 4; --no-fail-fast judges every run)"
    );
}
