//! Where the snapshots live: the top-level `snapshots/` folder, named by the
//! snapshot alone (not by the test module).

/// insta settings for the top-level `snapshots/` folder; bind the assertions
/// to them: `snapshots().bind(|| insta::assert_snapshot!("name", text))`.
pub fn snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}
