//! neverc's `<tgmath.h>` picks the function C17 7.25 says, checked by the target's gcc on
//! `tests/check-tgmath.c` (static assertions on each call's type) in front of its C library.

use std::path::Path;
use std::process::Command;

#[test]
fn tgmath_selects_by_argument_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ran = 0;
    // Hosted targets whose C library is installed here.
    for cc in ["gcc", "aarch64-linux-gnu-gcc", "arm-linux-gnueabihf-gcc"] {
        if Command::new(cc).arg("--version").output().is_err() {
            println!("skipped: {cc} not installed");
            continue;
        }
        let out = Command::new(cc)
            .args([
                "-fsyntax-only",
                "-std=c17",
                "-pedantic",
                "-Werror",
                "-Wall",
                "-isystem",
            ])
            .arg(root.join("include"))
            .arg(root.join("tests/check-tgmath.c"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{cc}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    println!("tgmath checked with {ran} compilers");
}
