//! Generates the pattern database at build time, so that the binary embeds it
//! and pays nothing for it at start-up. See `src/pattern_database.rs`.

#[path = "src/geometry.rs"]
#[allow(dead_code)]
mod geometry;

#[path = "src/cells.rs"]
#[allow(dead_code)]
mod cells;

#[path = "src/rank.rs"]
#[allow(dead_code)]
mod rank;

#[path = "src/pattern_database/generate.rs"]
mod generate;

fn main() {
    for source in [
        "build.rs",
        "src/geometry.rs",
        "src/cells.rs",
        "src/rank.rs",
        "src/pattern_database/generate.rs",
    ] {
        println!("cargo::rerun-if-changed={source}");
    }
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let path = std::path::Path::new(&out_dir).join("pattern_database.bin");
    std::fs::write(&path, generate::generate_distances()).expect("OUT_DIR is writable");
}
