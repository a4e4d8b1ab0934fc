//! Generates the pattern database's two tables at build time, the distances
//! and the shortest paths, so that the binary embeds them and pays nothing
//! for them at start-up. See `src/pattern_database.rs`.

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
    let out_dir = std::path::Path::new(&out_dir);
    let distances = generate::generate_distances();
    let paths: Vec<u8> = generate::generate_paths(&distances)
        .iter()
        .flat_map(|path| path.to_le_bytes())
        .collect();
    std::fs::write(out_dir.join("pattern_database.bin"), &distances).expect("OUT_DIR is writable");
    std::fs::write(out_dir.join("paths.bin"), paths).expect("OUT_DIR is writable");
}
