//! Runs `tests/check-headers.sh`: neverc's headers under gcc (and the cross compilers and
//! clang where installed) with -pedantic -Werror, checking exact facts per target.

use std::path::Path;
use std::process::Command;

#[test]
fn headers_pass_reference_compilers() {
    if Command::new("gcc").arg("--version").output().is_err() {
        println!("skipped: gcc not installed");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check-headers.sh");
    let out = Command::new("sh").arg(&script).output().expect("run sh");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "check-headers.sh failed:\n{text}");
    assert!(text.contains("ok: x86_64-linux-gnu freestanding"));
    assert!(text.contains("ok: x86_64-linux-gnu with libc"));
}
