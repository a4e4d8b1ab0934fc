//! The names of signals in messages. Its own file because both the runner's
//! interrupt handling and the verdicts name signals, and the verdicts depend
//! on the runner.

use nix::sys::signal::Signal;

/// The name of signal `number`, such as `SIGSEGV`; `signal N` for a number
/// that names no signal.
pub fn signal_name(number: i32) -> String {
    match Signal::try_from(number) {
        Ok(signal) => signal.as_str().to_owned(),
        Err(_) => format!("signal {number}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_known_signals_and_numbers_the_rest() {
        assert_eq!(signal_name(11), "SIGSEGV");
        assert_eq!(signal_name(9), "SIGKILL");
        assert_eq!(signal_name(200), "signal 200");
    }
}
