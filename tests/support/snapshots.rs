//! Snapshots in the top-level `snapshots/` folder.

/// Runs `body` with insta keeping snapshots in the top-level `snapshots/`
/// folder, named without the module path: each assertion names its
/// snapshot.
pub fn with_snapshots(body: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(body);
}
