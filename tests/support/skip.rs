//! A test that cannot run here says so, and fails under CI.
//!
//! A test that needs what this machine may lack (bubblewrap that works, a
//! writable cgroup, root) asks with [`require!`] (for the whole test) or
//! [`can_run`] (for one of its forms). Where the need is missing, standard
//! error says `skipped: TEST: … needs NEED`, and the test goes on without
//! it; with `CI` set it fails instead, since CI must have what the tests
//! need. A CI run that goes without something on purpose names it in
//! `ROTATION_GAME_CI_WITHOUT` (needs separated by `;`): `.ci/as-user.sh`
//! runs the runner's tests as a user, without root and without a writable
//! cgroup.

/// Whether `what` (the test, or one of its forms) can run, needing `need`,
/// which is `available` or not. When not: fails under CI, unless the run
/// names `need` in `ROTATION_GAME_CI_WITHOUT`; otherwise says that `what`
/// is skipped, and why.
pub fn can_run(available: bool, need: &str, what: &str) -> bool {
    if available {
        return true;
    }
    let current = std::thread::current();
    let test = current.name().unwrap_or("a test");
    let gone_without = std::env::var("ROTATION_GAME_CI_WITHOUT")
        .is_ok_and(|needs| needs.split(';').any(|without| without.trim() == need));
    assert!(
        std::env::var_os("CI").is_none() || gone_without,
        "{test}: {what} needs {need}, which CI must have (or name in ROTATION_GAME_CI_WITHOUT)"
    );
    eprintln!("skipped: {test}: {what} needs {need}");
    false
}

/// Ends the test unless `$available`: see [`can_run`].
macro_rules! require {
    ($available:expr, $need:expr) => {
        if !$crate::support::skip::can_run($available, $need, "the test") {
            return;
        }
    };
}

pub(crate) use require;
