//! The referee: every instruction form of `asm::forms::all_forms()` is printed as GNU
//! assembler text, assembled by `llvm-mc -triple=aarch64`, and compared word for word and
//! relocation for relocation with neverc's own encoder, whose output goes through neverc's
//! ELF writer (so the AArch64 relocation numbers are checked too). GNU as for AArch64
//! (`aarch64-linux-gnu-as`), when installed, assembles the same text as a second opinion.

use neverc_codegen::object_file::{ObjTarget, ObjectModule, SectionKind};
use neverc_isa_aarch64::asm::{self, forms, Inst};
use std::path::{Path, PathBuf};
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn work_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("neverc-a64-referee-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(i: &Inst) -> String {
    asm::print(i, &forms::sym_name, &forms::label_name)
}

/// `.text` words and relocations (offset, ELF type name, symbol name, addend) of an object,
/// by llvm-objcopy and llvm-readelf.
/// A relocation: offset, ELF type name, symbol name, addend.
type Rel = (u64, String, String, i64);

fn read_obj(dir: &Path, name: &str, bytes: &[u8]) -> (Vec<u32>, Vec<Rel>) {
    let obj = dir.join(format!("{name}.o"));
    let bin = dir.join(format!("{name}.bin"));
    std::fs::write(&obj, bytes).unwrap();
    let st = Command::new("llvm-objcopy")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(&obj)
        .arg(&bin)
        .status()
        .unwrap();
    assert!(st.success());
    let words = std::fs::read(&bin)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let out = Command::new("llvm-readelf")
        .arg("-rW")
        .arg(&obj)
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    let mut rel = Vec::new();
    let mut in_text = false;
    for line in s.lines() {
        if line.starts_with("Relocation section") {
            in_text = line.contains("'.rela.text'");
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if !in_text || f.len() < 3 || !f[2].starts_with("R_AARCH64") {
            continue;
        }
        let off = u64::from_str_radix(f[0], 16).unwrap();
        // "<value> <sym> + <addend>" or "<value> <sym> - <addend>"
        let (sym, addend) = match &f[4..] {
            [sym, sign, a] => {
                let a = i64::from_str_radix(a, 16).unwrap();
                (sym.to_string(), if *sign == "-" { -a } else { a })
            }
            rest => (rest.join(" "), 0),
        };
        rel.push((off, f[2].to_string(), sym, addend));
    }
    rel.sort();
    (words, rel)
}

fn items() -> (Vec<Inst>, Vec<Inst>) {
    let all = forms::all_forms();
    let mut items = vec![Inst::Label(forms::L_START)];
    items.extend(all.iter().copied());
    items.push(Inst::Label(forms::L_END));
    (all, items)
}

fn ours(items: &[Inst]) -> Vec<u8> {
    let a = asm::assemble(items).expect("every form encodes");
    let mut m = ObjectModule::new(ObjTarget::aarch64());
    let t = m.standard_section(SectionKind::Text);
    // Symbols in the order forms::sym_name numbers them.
    let first = m.declare("foo");
    let second = m.declare("bar");
    assert_eq!((first.0, second.0), (0, 1));
    m.append(t, &a.bytes, 4);
    m.add_fixups(t, 0, &a.fixups);
    m.write().expect("the object writes")
}

fn compare(tool: &str, dir: &Path, theirs: &[u8], all: &[Inst], mine: &[u8]) {
    let (tw, tr) = read_obj(dir, "theirs", theirs);
    let (mw, mr) = read_obj(dir, "mine", mine);
    let mut bad = Vec::new();
    if tw.len() != mw.len() {
        bad.push(format!(
            "word count: {tool} {} neverc {}",
            tw.len(),
            mw.len()
        ));
    }
    for (k, f) in all.iter().enumerate() {
        if k >= tw.len() || k >= mw.len() {
            break;
        }
        if tw[k] != mw[k] {
            bad.push(format!(
                "{:<48} {tool} {:08x} neverc {:08x}",
                text(f),
                tw[k],
                mw[k]
            ));
        }
    }
    for (k, form) in all.iter().enumerate() {
        let at =
            |v: &[Rel]| -> Vec<Rel> { v.iter().filter(|r| r.0 == 4 * k as u64).cloned().collect() };
        let (a, b) = (at(&tr), at(&mr));
        if a != b {
            bad.push(format!(
                "{:<48} {tool} relocs {a:?} neverc {b:?}",
                text(form)
            ));
        }
    }
    eprintln!(
        "referee ({tool}): {} forms, {} relocations, {} mismatches",
        all.len(),
        mr.len(),
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} mismatches with {tool}:\n{}",
        bad.len(),
        bad.iter().take(80).cloned().collect::<Vec<_>>().join("\n")
    );
}

fn source(items: &[Inst]) -> String {
    // The ARMv8.1 atomics (LSE) are an extension for both assemblers.
    let mut src = String::from("\t.arch_extension lse\n\t.text\n");
    for i in items {
        if !matches!(i, Inst::Label(_)) {
            src.push('\t');
        }
        src.push_str(&text(i));
        src.push('\n');
    }
    src
}

#[test]
fn referee_llvm_mc() {
    if !have("llvm-mc") || !have("llvm-objcopy") || !have("llvm-readelf") {
        eprintln!(
            "referee: llvm-mc, llvm-objcopy or llvm-readelf not found; skipping (CI installs them)"
        );
        return;
    }
    let (all, items) = items();
    let dir = work_dir("llvm");
    std::fs::write(dir.join("f.s"), source(&items)).unwrap();
    let out = Command::new("llvm-mc")
        .args(["-triple=aarch64", "-filetype=obj", "-o"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llvm-mc failed: {}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(40)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let theirs = std::fs::read(dir.join("f.o")).unwrap();
    compare("llvm-mc", &dir, &theirs, &all, &ours(&items));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn referee_gnu_as() {
    let gas = "aarch64-linux-gnu-as";
    if !have(gas) || !have("llvm-objcopy") || !have("llvm-readelf") {
        eprintln!("referee: {gas} not found; skipping");
        return;
    }
    let (all, items) = items();
    let dir = work_dir("gas");
    std::fs::write(dir.join("f.s"), source(&items)).unwrap();
    let out = Command::new(gas)
        .arg("-o")
        .arg(dir.join("f.o"))
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{gas} failed: {}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(40)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let theirs = std::fs::read(dir.join("f.o")).unwrap();
    compare(gas, &dir, &theirs, &all, &ours(&items));
    let _ = std::fs::remove_dir_all(&dir);
}
