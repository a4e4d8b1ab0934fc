//! Small programs for the tests of `stress` and its runner: shell scripts,
//! and the sources of C programs that hog memory or spin.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Writes an executable shell script and returns its path.
pub fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Allocates and touches 64 MiB at a time, up to argv[1] MiB (8 GiB by
/// default); exits 3 when an allocation fails.
pub const HOG: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    long mib = argc > 1 ? atol(argv[1]) : 8192, chunk = 64L << 20;
    for (long total = 0; total < (mib << 20); total += chunk) {
        char *block = malloc(chunk);
        if (!block) { fprintf(stderr, "malloc failed at %ld MiB\n", total >> 20); return 3; }
        memset(block, 1, chunk);
    }
    return 0;
}
"#;

/// Spins forever.
pub const SPINNER: &str = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }\n";
