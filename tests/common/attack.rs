//! The attacking program of the sandbox's tests (`attack.c`), built once
//! per test binary, and its command lines.

use std::sync::OnceLock;

use super::programs::compile;

/// The attacker, built once.
pub fn attacker() -> &'static str {
    static ATTACKER: OnceLock<(tempfile::TempDir, String)> = OnceLock::new();
    let (_, path) = ATTACKER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = compile(dir.path(), "attack", include_str!("attack.c"));
        (dir, path)
    });
    path
}

/// The command line that runs `attack` with `args`.
pub fn command_line(args: &[&str]) -> String {
    std::iter::once(attacker())
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}
