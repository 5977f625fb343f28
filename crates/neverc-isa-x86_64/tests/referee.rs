//! The referee: every instruction form of `asm::forms::all_forms()` is printed as AT&T text,
//! assembled by GNU as and by llvm-mc, and compared byte for byte (and relocation for
//! relocation) with neverc's own encoder. GNU as is authoritative (neverc's `-S` output goes
//! through it); llvm-mc is a second opinion, with the few forms where it legitimately differs
//! from gas skipped and explained below.

use neverc_codegen::reloc::{RelocKind, SymId};
use neverc_isa_x86_64::asm::{self, forms, Inst};
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
    let d = std::env::temp_dir().join(format!("neverc-referee-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(i: &Inst) -> String {
    asm::print(i, &forms::sym_name, &forms::label_name)
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn elf_name(k: RelocKind) -> &'static str {
    match k {
        RelocKind::Abs64 => "R_X86_64_64",
        RelocKind::Abs32 => "R_X86_64_32",
        RelocKind::Abs32S => "R_X86_64_32S",
        RelocKind::Pc32 => "R_X86_64_PC32",
        RelocKind::Plt32 => "R_X86_64_PLT32",
        RelocKind::GotPcRel => "R_X86_64_GOTPCREL",
        RelocKind::RexGotPcRelX => "R_X86_64_REX_GOTPCRELX",
        RelocKind::GotPcRelX => "R_X86_64_GOTPCRELX",
        RelocKind::GotTpOff => "R_X86_64_GOTTPOFF",
        RelocKind::TpOff32 => "R_X86_64_TPOFF32",
        RelocKind::Pc64 => "R_X86_64_PC64",
        RelocKind::Aarch64(r) => r.elf_name(),
    }
}

/// Relocations of .text from `readelf -rW`: (offset, type, "sym+addend").
fn gas_relocs(obj: &Path) -> Vec<(u32, String, String)> {
    let out = Command::new("readelf")
        .arg("-rW")
        .arg(obj)
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    let mut v = Vec::new();
    let mut in_text = false;
    for line in s.lines() {
        if line.starts_with("Relocation section") {
            in_text = line.contains("'.rela.text'");
            continue;
        }
        if !in_text {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 || !f[2].starts_with("R_X86_64") {
            continue;
        }
        let off = u32::from_str_radix(f[0], 16).unwrap();
        // "<value> <sym> + <addend>" or "<value> <sym> - <addend>"
        let rest = &f[4..];
        let val = match rest {
            [sym, sign, a] => {
                let a = i64::from_str_radix(a, 16).unwrap();
                format!("{sym}{}", if *sign == "-" { -a } else { a })
            }
            [sym] => format!("{sym}0"),
            _ => rest.join(" "),
        };
        v.push((off, f[2].to_string(), val));
    }
    v
}

#[test]
fn referee_gnu_as() {
    if !have("as") || !have("objcopy") || !have("readelf") {
        eprintln!("referee: GNU as/objcopy/readelf not found; skipping");
        return;
    }
    let all = forms::all_forms();
    let mut items = vec![Inst::Label(forms::L_START)];
    for f in &all {
        items.push(Inst::Align(16));
        items.push(*f);
    }
    items.push(Inst::Align(16));
    items.push(Inst::Label(forms::L_END));
    let ours = asm::assemble(&items).expect("every form encodes");

    let dir = work_dir("gas");
    let mut src = String::from("\t.text\n");
    for i in &items {
        src.push('\t');
        src.push_str(&text(i));
        src.push('\n');
    }
    std::fs::write(dir.join("f.s"), &src).unwrap();
    let st = Command::new("as")
        .args(["--64", "-o"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "as failed: {}",
        String::from_utf8_lossy(&st.stderr)
    );
    let st = Command::new("objcopy")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.bin"))
        .status()
        .unwrap();
    assert!(st.success());
    let gas = std::fs::read(dir.join("f.bin")).unwrap();

    let mut bad = Vec::new();
    if gas.len() != ours.bytes.len() {
        bad.push(format!(
            "total length: gas {} neverc {}",
            gas.len(),
            ours.bytes.len()
        ));
    }
    for (k, f) in all.iter().enumerate() {
        let lo = 16 * k;
        let hi = (lo + 16).min(gas.len()).min(ours.bytes.len());
        if lo >= hi {
            break;
        }
        if gas[lo..hi] != ours.bytes[lo..hi] {
            bad.push(format!(
                "{:<50} gas [{}] neverc [{}]",
                text(f),
                hex(&gas[lo..hi]),
                hex(&ours.bytes[lo..hi])
            ));
        }
    }
    let mut theirs = gas_relocs(&dir.join("f.o"));
    let mut mine: Vec<(u32, String, String)> = ours
        .fixups
        .iter()
        .map(|x| {
            (
                x.offset,
                elf_name(x.kind).to_string(),
                format!("{}{}", forms::sym_name(x.sym), x.addend),
            )
        })
        .collect();
    theirs.sort();
    mine.sort();
    for (k, f) in all.iter().enumerate() {
        let slot = |v: &Vec<(u32, String, String)>| -> Vec<(u32, String, String)> {
            v.iter()
                .filter(|r| r.0 as usize / 16 == k)
                .cloned()
                .collect()
        };
        let (a, b) = (slot(&theirs), slot(&mine));
        if a != b {
            bad.push(format!("{:<50} gas relocs {a:?} neverc {b:?}", text(f)));
        }
    }
    let checked_relocs = mine.len();
    std::fs::write(dir.join("mismatches.txt"), bad.join("\n")).unwrap();
    eprintln!(
        "referee (GNU as): {} forms, {} relocations, {} mismatches (files in {})",
        all.len(),
        checked_relocs,
        bad.len(),
        dir.display()
    );
    assert!(
        bad.is_empty(),
        "{} mismatches with GNU as:\n{}",
        bad.len(),
        bad.iter().take(80).cloned().collect::<Vec<_>>().join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One instruction's encoding as llvm-mc shows it: bytes (None where a fixup goes) and the
/// fixups (offset, value text).
#[derive(Default, Debug)]
struct LlvmEnc {
    bytes: Vec<Option<u8>>,
    fixups: Vec<(u32, String)>,
}

/// Forms where llvm-mc legitimately differs from GNU as (which we match); compared with
/// gas only.
fn llvm_skip(i: &Inst) -> Option<&'static str> {
    match i {
        // -show-encoding shows the unrelaxed short form; gas decides the final size.
        Inst::Jmp { .. } | Inst::Jcc { .. } => Some("label jump: llvm shows it unrelaxed"),
        Inst::JumpTableEntry { .. } => Some("data directive"),
        // xchg is symmetric; for two registers gas puts the first AT&T operand in ModRM.reg
        // (87 /r with reg = src) and llvm-mc the second. We match gas.
        // (Both agree on the 90+r accumulator forms, which stay checked.)
        Inst::Xchg {
            size,
            src,
            dst: asm::Rm::Reg(d),
        } if *size == asm::Size::S8
            || (src.0 != 0 && d.0 != 0)
            || (src.0 == 0 && d.0 == 0 && *size == asm::Size::S32) =>
        {
            Some("xchg reg, reg: llvm swaps the ModRM fields")
        }
        // `rep insw`: gas puts F3 after the operand-size prefix (66 F3 6D), llvm-mc before.
        // (`rep; insw`, the prefix as its own statement, is F3 66 6D in both, still checked.)
        Inst::PortString {
            size: asm::Size::S16,
            rep: asm::RepPrefix::Joined,
            ..
        } => Some("rep with an operand-size prefix: llvm puts F3 before 66"),
        _ => None,
    }
}

fn llvm_modifier(k: RelocKind) -> &'static str {
    match k {
        RelocKind::GotPcRel | RelocKind::GotPcRelX | RelocKind::RexGotPcRelX => "@GOTPCREL",
        RelocKind::GotTpOff => "@GOTTPOFF",
        RelocKind::TpOff32 => "@TPOFF",
        RelocKind::Plt32 => "@PLT",
        _ => "",
    }
}

/// Sum of a `+N-M...` tail.
fn eval_tail(s: &str) -> Option<i64> {
    let mut sum = 0i64;
    let mut rest = s.trim();
    while !rest.is_empty() {
        let sign = match rest.as_bytes()[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return None,
        };
        rest = &rest[1..];
        let end = rest.find(['+', '-']).unwrap_or(rest.len());
        sum += sign * rest[..end].trim().parse::<i64>().ok()?;
        rest = &rest[end..];
    }
    Some(sum)
}

#[test]
fn referee_llvm_mc() {
    if !have("llvm-mc") {
        eprintln!("referee: llvm-mc not found; skipping");
        return;
    }
    let all = forms::all_forms();
    let dir = work_dir("llvm");
    let mut src = format!("\t.text\n{}:\n", forms::label_name(forms::L_START));
    for f in &all {
        src.push_str("\t.p2align 4\n\t");
        src.push_str(&text(f));
        src.push('\n');
    }
    src.push_str(&format!(
        "\t.p2align 4\n{}:\n",
        forms::label_name(forms::L_END)
    ));
    std::fs::write(dir.join("f.s"), &src).unwrap();
    let out = Command::new("llvm-mc")
        .args(["-triple=x86_64", "-show-encoding"])
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llvm-mc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut groups: Vec<LlvmEnc> = Vec::new();
    for line in stdout.lines() {
        let t = line.trim();
        if t.starts_with(".p2align") {
            groups.push(LlvmEnc::default());
            continue;
        }
        let Some(g) = groups.last_mut() else { continue };
        if let Some(p) = t.find("encoding: [") {
            let base = g.bytes.len() as u32;
            let body = &t[p + 11..t[p..].find(']').unwrap() + p];
            for b in body.split(',') {
                let b = b.trim();
                g.bytes.push(
                    b.strip_prefix("0x")
                        .and_then(|h| u8::from_str_radix(h, 16).ok()),
                );
            }
            // Fixup offsets are relative to this instruction; keep them per group.
            g.fixups.push((base | 0x8000_0000, String::new()));
        } else if let Some(p) = t.find("fixup ") {
            let s = &t[p..];
            let off: u32 = s
                .split("offset: ")
                .nth(1)
                .and_then(|r| r.split(',').next())
                .and_then(|n| n.trim().parse().ok())
                .unwrap();
            let val = s
                .split("value: ")
                .nth(1)
                .and_then(|r| r.split(", kind:").next())
                .unwrap()
                .to_string();
            let base = g
                .fixups
                .iter()
                .rev()
                .find(|f| f.0 & 0x8000_0000 != 0)
                .map(|f| f.0 & 0x7fff_ffff)
                .unwrap_or(0);
            g.fixups.push((base + off, val));
        }
    }
    for g in &mut groups {
        g.fixups.retain(|f| f.0 & 0x8000_0000 == 0);
    }

    let mut bad = Vec::new();
    let mut skipped = 0;
    for (k, f) in all.iter().enumerate() {
        if llvm_skip(f).is_some() {
            skipped += 1;
            continue;
        }
        let mut sink = asm::Sink::default();
        asm::encode(f, &mut sink).unwrap();
        let Some(g) = groups.get(k) else {
            bad.push(format!("{}: no llvm-mc output", text(f)));
            continue;
        };
        let same_bytes = g.bytes.len() == sink.bytes.len()
            && g.bytes
                .iter()
                .zip(&sink.bytes)
                .all(|(a, b)| a.is_none_or(|a| a == *b));
        let theirs: Vec<String> = g
            .bytes
            .iter()
            .map(|b| b.map_or("A".to_string(), |b| format!("{b:02x}")))
            .collect();
        if !same_bytes {
            bad.push(format!(
                "{:<50} llvm [{}] neverc [{}]",
                text(f),
                theirs.join(" "),
                hex(&sink.bytes)
            ));
            continue;
        }
        // Fixups: every symbol fixup and label use of ours at the same offset as llvm's,
        // with the same symbol, modifier and addend.
        let mut want: Vec<(u32, String, Option<i64>)> = sink
            .fixups
            .iter()
            .map(|x| {
                (
                    x.offset,
                    format!("{}{}", forms::sym_name(x.sym), llvm_modifier(x.kind)),
                    Some(x.addend),
                )
            })
            .collect();
        want.extend(
            sink.label_uses
                .iter()
                .map(|u| (u.offset, forms::label_name(u.label), None)),
        );
        want.sort();
        let mut got = g.fixups.clone();
        got.sort();
        let ok = want.len() == got.len()
            && want.iter().zip(&got).all(|((wo, wn, wa), (go, gv))| {
                // llvm writes `(bar+8)-4`: drop the parentheses, then name, then addend.
                let gv: String = gv.chars().filter(|c| *c != '(' && *c != ')').collect();
                let gl = gv.to_ascii_lowercase();
                let wl = wn.to_ascii_lowercase();
                wo == go
                    && gl.starts_with(&wl)
                    && match wa {
                        Some(a) => eval_tail(&gv[wn.len()..]) == Some(*a),
                        None => true,
                    }
            });
        if !ok {
            bad.push(format!(
                "{:<50} llvm fixups {got:?} neverc {want:?}",
                text(f)
            ));
        }
    }
    std::fs::write(dir.join("mismatches.txt"), bad.join("\n")).unwrap();
    eprintln!(
        "referee (llvm-mc): {} forms, {} skipped, {} mismatches (files in {})",
        all.len(),
        skipped,
        bad.len(),
        dir.display()
    );
    assert!(
        bad.is_empty(),
        "{} mismatches with llvm-mc:\n{}",
        bad.len(),
        bad.iter().take(80).cloned().collect::<Vec<_>>().join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn symbol_names_are_distinct() {
    assert_ne!(forms::sym_name(SymId(0)), forms::sym_name(SymId(1)));
}
