//! The command line's own description: each command's help gives its own
//! defaults and an example, and the shell completions and manual pages
//! are generated from the same definition, so they list the same flags.

use crate::support::{run, stdout};

#[test]
fn each_commands_help_gives_its_own_defaults_and_examples() {
    for (command, own) in [
        ("gen", "[default: 10]"),
        ("verify", "[default: 14,"),
        ("stress", "[default: 1400 of the mix"),
        ("stress", "[default: 10]"),
        ("judge", "[default: the folder's .timelimit, else 10]"),
        ("solve", "0, the default: one per core"),
    ] {
        let output = run(&[command, "--help"]);
        assert!(output.status.success(), "{output:?}");
        let help = stdout(&output);
        assert!(
            help.contains(own),
            "{command} --help lacks {own:?}:\n{help}"
        );
        assert!(
            help.contains("Examples:\n  rotation-game "),
            "{command}:\n{help}"
        );
        // That no help speaks of another command's defaults is cli.rs's unit
        // test no_command_speaks_of_another_commands_defaults, for every
        // command that shares flags.
    }
}

#[test]
fn jobs_is_one_flag_everywhere_and_threads_its_old_name() {
    for command in ["solve", "verify", "census", "package", "stress", "judge"] {
        let help = stdout(&run(&[command, "--help"]));
        assert!(help.contains("-j, --jobs <N>"), "{command}:\n{help}");
    }
    let input = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/sample.txt");
    let expected = stdout(&run(&["solve", input]));
    for jobs in [&["-j", "2"][..], &["--jobs", "0"], &["--threads", "2"]] {
        let mut args = vec!["solve", input];
        args.extend_from_slice(jobs);
        let output = run(&args);
        assert!(output.status.success(), "{jobs:?}: {output:?}");
        assert_eq!(stdout(&output), expected, "{jobs:?}");
    }
}

#[test]
fn completions_and_manual_pages_cover_every_command() {
    let commands = [
        "solve", "gen", "check", "validate", "show", "verify", "census", "package",
    ];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = run(&["completions", shell]);
        assert!(output.status.success(), "{shell}: {output:?}");
        let script = stdout(&output);
        for command in commands {
            assert!(script.contains(command), "{shell} lacks {command}");
        }
        assert!(script.contains("max-fail") || !cfg!(unix), "{shell}");
    }
    let page = stdout(&run(&["man"]));
    assert!(
        page.starts_with(".ie") || page.contains(".TH rotation-game"),
        "{page}"
    );
    for command in commands {
        assert!(page.contains(command), "the manual page lacks {command}");
    }
    let stress = run(&["man", "stress"]);
    if cfg!(unix) {
        let page = stdout(&stress);
        assert!(page.contains(".TH rotation-game-stress"), "{page}");
        assert!(page.contains("max\\-fail"), "{page}");
    }
    let unknown = run(&["man", "nonsense"]);
    assert_eq!(unknown.status.code(), Some(2));
}
