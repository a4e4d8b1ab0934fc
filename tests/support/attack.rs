//! The attacking program of the sandbox's tests (`attack.c`), built once
//! per test binary, and its command lines.

use std::sync::OnceLock;

use super::compile::compile;
use super::fixtures::fixtures;

/// The attacker, built once.
pub fn attacker() -> &'static str {
    static ATTACKER: OnceLock<String> = OnceLock::new();
    ATTACKER.get_or_init(|| compile(&fixtures("attack"), "attack", include_str!("attack.c")))
}

/// The command line that runs `attack` with `args`.
pub fn command_line(args: &[&str]) -> String {
    std::iter::once(attacker())
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}
