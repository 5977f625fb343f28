//! Parses every C file of gcc's torture suite (when fetched to
//! ~/.cache/neverc-corpus/gcc-12/execute) through the driver with the real preprocessor and
//! system headers, and reports how many parse without an error. A measure, not a gate:
//! it fails only on a crash or a hang, which are never acceptable.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn torture_suite_parses() {
    let Some(home) = std::env::var_os("HOME") else {
        eprintln!("skipped: HOME is not set");
        return;
    };
    let dir = PathBuf::from(home).join(".cache/neverc-corpus/gcc-12/execute");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: the gcc torture suite is not at {}", dir.display());
        return;
    };
    let exe = std::env::var_os("NEVERC").map(PathBuf::from).or_else(|| {
        // The driver binary built next to this test (same target directory).
        let me = std::env::current_exe().ok()?;
        let p = me.parent()?.parent()?.join("neverc");
        p.exists().then_some(p)
    });
    let Some(exe) = exe else {
        eprintln!("skipped: no neverc binary next to the tests; build it or set NEVERC");
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    let (mut ok, mut failed) = (0, Vec::new());
    for f in &files {
        let start = Instant::now();
        let out = Command::new(&exe)
            .arg("-fsyntax-only")
            .arg("-w")
            .arg(f)
            .output()
            .expect("run neverc");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} took too long",
            f.display()
        );
        // A signal (panic abort, stack overflow) is a crash.
        assert!(out.status.code().is_some(), "{} crashed", f.display());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("panicked"),
            "{} panicked: {stderr}",
            f.display()
        );
        if out.status.success() {
            ok += 1;
        } else {
            let first = stderr
                .lines()
                .find(|l| l.contains("error:"))
                .unwrap_or("")
                .to_string();
            failed.push(format!("{}: {first}", f.display()));
        }
    }
    eprintln!(
        "torture suite: {ok} of {} files parse with no error",
        files.len()
    );
    for f in &failed {
        eprintln!("  {f}");
    }
}
