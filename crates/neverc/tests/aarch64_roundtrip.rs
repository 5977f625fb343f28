//! `-S` round trip on AArch64: every `tests/exec` program neverc compiles for
//! `aarch64-linux-gnu` at -O1 (the frame and CFI code is the same at -O0) gives the same `.text` (instructions and relocations,
//! as `llvm-objdump -dr` shows them) from `-c` as from `-S` assembled by
//! `aarch64-linux-gnu-as`. Skipped with a message when the cross assembler or llvm-objdump
//! is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            c_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

/// `llvm-objdump -dr` of `.text` without the header line naming the file.
fn disasm(obj: &Path) -> String {
    let out = Command::new("llvm-objdump")
        .args(["-dr", "--section=.text"])
        .arg(obj)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains("file format"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn s_output_assembles_to_the_same_code() {
    if !have("aarch64-linux-gnu-as") || !have("llvm-objdump") {
        eprintln!("aarch64 round trip: aarch64-linux-gnu-as or llvm-objdump not found; skipping");
        return;
    }
    let cc = env!("CARGO_BIN_EXE_neverc");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/exec");
    let mut files = Vec::new();
    c_files(&root, &mut files);
    let tmp = std::env::temp_dir().join(format!("neverc-a64-rt-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut checked, mut bad) = (0, Vec::new());
    for f in &files {
        for opt in ["-O1"] {
            let (s, o, g) = (tmp.join("t.s"), tmp.join("t.o"), tmp.join("g.o"));
            let run = |args: &[&str], out: &Path| {
                Command::new(cc)
                    .args(["--target=aarch64-linux-gnu", "-w", opt])
                    .args(args)
                    .arg(f)
                    .arg("-o")
                    .arg(out)
                    .output()
                    .unwrap()
                    .status
                    .success()
            };
            if !run(&["-S"], &s) {
                continue; // refused: the exec corpus test reports it
            }
            assert!(run(&["-c"], &o), "{}: -S works but -c fails", f.display());
            let st = Command::new("aarch64-linux-gnu-as")
                .arg(&s)
                .arg("-o")
                .arg(&g)
                .output()
                .unwrap();
            if !st.status.success() {
                bad.push(format!(
                    "{} {opt}: as rejects the -S output: {}",
                    f.display(),
                    String::from_utf8_lossy(&st.stderr)
                        .lines()
                        .next()
                        .unwrap_or("")
                ));
                continue;
            }
            checked += 1;
            let (a, b) = (disasm(&o), disasm(&g));
            if a != b {
                let first = a
                    .lines()
                    .zip(b.lines())
                    .find(|(x, y)| x != y)
                    .map(|(x, y)| format!("-c: {x}\n      as: {y}"))
                    .unwrap_or_else(|| "lengths differ".into());
                bad.push(format!(
                    "{} {opt}: .text differs\n      {first}",
                    f.display()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "aarch64 round trip: {checked} compilations checked, {} differences",
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The AArch64 inline asm programs of the corpus must compile (not be refused, which the
/// corpus-wide test above skips) at -O0 and -O1, mark each asm statement `#APP`/`#NO_APP`
/// in the `-S` text, and assemble from that text to the code `-c` gives.
#[test]
fn inline_asm_s_output_round_trips() {
    if !have("aarch64-linux-gnu-as") || !have("llvm-objdump") {
        eprintln!(
            "aarch64 asm round trip: aarch64-linux-gnu-as or llvm-objdump not found; skipping"
        );
        return;
    }
    let cc = env!("CARGO_BIN_EXE_neverc");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/exec/asm");
    let mut files = Vec::new();
    c_files(&dir, &mut files);
    files.retain(|f| {
        f.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("aarch64_"))
    });
    assert!(files.len() >= 5, "the AArch64 asm programs are missing");
    let tmp = std::env::temp_dir().join(format!("neverc-a64-asm-rt-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut bad = Vec::new();
    for f in &files {
        for opt in ["-O0", "-O1"] {
            let (s, o, g) = (tmp.join("t.s"), tmp.join("t.o"), tmp.join("g.o"));
            let run = |args: &[&str], out: &Path| {
                let r = Command::new(cc)
                    .args(["--target=aarch64-linux-gnu", "-w", opt])
                    .args(args)
                    .arg(f)
                    .arg("-o")
                    .arg(out)
                    .output()
                    .unwrap();
                assert!(
                    r.status.success(),
                    "{} {opt} {args:?}: {}",
                    f.display(),
                    String::from_utf8_lossy(&r.stderr)
                );
            };
            run(&["-S"], &s);
            run(&["-c"], &o);
            let text = std::fs::read_to_string(&s).unwrap();
            let (apps, ends) = (
                text.lines().filter(|l| *l == "#APP").count(),
                text.lines().filter(|l| *l == "#NO_APP").count(),
            );
            assert!(
                apps > 0 && apps == ends,
                "{} {opt}: {apps} #APP, {ends} #NO_APP",
                f.display()
            );
            let st = Command::new("aarch64-linux-gnu-as")
                .arg(&s)
                .arg("-o")
                .arg(&g)
                .output()
                .unwrap();
            assert!(
                st.status.success(),
                "{} {opt}: as rejects the -S output: {}",
                f.display(),
                String::from_utf8_lossy(&st.stderr)
            );
            if disasm(&o) != disasm(&g) {
                bad.push(format!("{} {opt}: .text differs", f.display()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
