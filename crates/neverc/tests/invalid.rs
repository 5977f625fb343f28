//! The invalid-program corpus: every `tests/invalid/NAME.c` through `neverc -fsyntax-only`
//! (or `-c -o /dev/null` when its options have `-c`), its diagnostics compared line for
//! line with `NAME.expected` (`LINE:COL: level: message`, written from gcc 12 by
//! `scripts/invalid-expect.py`), and the exit status: 1 when an error is expected, else 0.
//!
//! `tests/invalid/KNOWN-DIFFERENCES` lists the programs where neverc does not match gcc
//! yet. They are checked too, the other way round: one that starts matching fails the
//! test until it is taken off the list, so the list only shrinks.

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/invalid")
}

/// The options on a `// options: ...` first line.
fn options(src: &str) -> Vec<String> {
    let first = src.lines().next().unwrap_or("");
    match first.trim_start().strip_prefix("//") {
        Some(rest) => match rest.trim_start().strip_prefix("options:") {
            Some(opts) => opts.split_whitespace().map(String::from).collect(),
            None => Vec::new(),
        },
        None => Vec::new(),
    }
}

/// The location lines of `stderr` for `name`, file name dropped, and gcc's
/// "-fmax-errors" closing line.
fn diagnostics(stderr: &str, name: &str) -> Vec<String> {
    let prefix = format!("{name}:");
    let mut out = Vec::new();
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix(&prefix) {
            let mut parts = rest.splitn(3, ':');
            let (l, c) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if numeric(l) && numeric(c) {
                out.push(rest.to_string());
            }
        } else if line.starts_with("compilation terminated due to -fmax-errors") {
            out.push(line.to_string());
        }
    }
    out
}

/// Runs one program; returns a description of how it differs, or None when it matches.
fn differs(dir: &Path, name: &str) -> Option<String> {
    let src = std::fs::read_to_string(dir.join(name)).unwrap();
    let opts = options(&src);
    let expected_path = dir.join(name.replace(".c", ".expected"));
    let expected = std::fs::read_to_string(&expected_path)
        .unwrap_or_else(|_| panic!("{} is missing", expected_path.display()));
    let want: Vec<String> = expected.lines().map(String::from).collect();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_neverc"));
    if opts.iter().any(|o| o == "-c") {
        cmd.args(["-o", "/dev/null"]);
    } else {
        cmd.arg("-fsyntax-only");
    }
    let out = cmd
        .arg("-std=gnu17")
        .args(&opts)
        .arg(name)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .output()
        .expect("neverc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let got = diagnostics(&stderr, name);
    let want_error = want.iter().any(|l| l.contains(": error: "));
    let code = out.status.code();
    let want_code = Some(if want_error { 1 } else { 0 });
    if got == want && code == want_code {
        return None;
    }
    Some(format!(
        "{name}: exit {code:?} (want {want_code:?})\n  expected:\n{}\n  got:\n{}\n  stderr:\n{stderr}",
        want.iter().map(|l| format!("    {l}\n")).collect::<String>(),
        got.iter().map(|l| format!("    {l}\n")).collect::<String>(),
    ))
}

#[test]
fn invalid_programs_get_gccs_diagnostics() {
    let dir = corpus_dir();
    let known_text = std::fs::read_to_string(dir.join("KNOWN-DIFFERENCES")).unwrap_or_default();
    let known: Vec<&str> = known_text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    assert!(names.len() >= 200, "only {} programs", names.len());
    for k in &known {
        assert!(
            names.iter().any(|n| n == k),
            "KNOWN-DIFFERENCES names {k}, which does not exist"
        );
    }
    let mut failures = Vec::new();
    let mut now_matching = Vec::new();
    let mut matching = 0;
    for name in &names {
        let diff = differs(&dir, name);
        let is_known = known.contains(&name.as_str());
        match (diff, is_known) {
            (None, false) => matching += 1,
            (None, true) => now_matching.push(name.clone()),
            (Some(d), false) => failures.push(d),
            (Some(_), true) => {}
        }
    }
    eprintln!(
        "invalid corpus: {matching} of {} programs match gcc, {} known differences",
        names.len(),
        known.len()
    );
    assert!(
        now_matching.is_empty(),
        "these match gcc now; take them off tests/invalid/KNOWN-DIFFERENCES: {now_matching:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
