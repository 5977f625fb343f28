//! Random operands on every instruction form, compared with GNU as: each form of
//! `forms::all_forms()` gets random registers, addresses and immediates; whatever the encoder
//! accepts must assemble to the same bytes and relocations under gas. (The referee covers
//! chosen special cases; this covers the combinations between them.)

use neverc_codegen::reloc::{RelocKind, SymId};
use neverc_isa_x86_64::asm::*;
use std::collections::BTreeMap;
use std::process::Command;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
}

fn random_disp(r: &mut Rng) -> i32 {
    match r.below(6) {
        0 => 0,
        1 => r.pick(&[1, -1, 127, -128, 128, -129, i32::MAX, i32::MIN]),
        2 => (r.next() as i8) as i32,
        _ => r.next() as i32 >> r.below(31),
    }
}

fn random_mem(r: &mut Rng) -> Mem {
    let g = |r: &mut Rng| Gpr(r.below(16) as u8);
    match r.below(10) {
        0 => Mem::rip(
            SymId(r.below(2) as u32),
            r.pick(&[RelocKind::Pc32, RelocKind::GotPcRel, RelocKind::GotTpOff]),
            random_disp(r),
        ),
        1 => Mem::rip_label(Label(r.below(2) as u32), (r.next() as i16) as i32),
        2 => Mem::fs_tpoff(SymId(r.below(2) as u32), random_disp(r)),
        _ => {
            let mut m = Mem::abs(random_disp(r));
            if r.below(8) != 0 {
                m.base = Some(g(r));
            }
            if r.below(2) == 0 {
                m.index = Some((g(r), r.pick(&[1, 2, 4, 8])));
            }
            if r.below(10) == 0 {
                m.sym = Some((SymId(r.below(2) as u32), RelocKind::Abs32S));
            }
            if r.below(10) == 0 {
                m.seg = Some(r.pick(&[Seg::Fs, Seg::Gs]));
            }
            m
        }
    }
}

fn random_imm(r: &mut Rng) -> i64 {
    match r.below(4) {
        0 => r.pick(&[0, 1, -1, 127, 128, -128, -129, 255, 256, 65535, 65536]),
        1 => (r.next() as i8) as i64,
        2 => (r.next() as i32) as i64,
        _ => r.next() as i64 >> r.below(63),
    }
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

#[test]
fn random_operands_match_gnu_as() {
    if !have("as") || !have("objcopy") || !have("readelf") {
        eprintln!("GNU binutils not found; skipping");
        return;
    }
    let (picked, rejected, reasons) = random_instructions(0xD1B5_4A32_D192_ED03);
    let mut items = vec![Inst::Label(forms::L_START)];
    for f in &picked {
        items.push(Inst::Align(16));
        items.push(*f);
    }
    items.push(Inst::Align(16));
    items.push(Inst::Label(forms::L_END));
    let ours = assemble(&items).unwrap();
    let txt = |i: &Inst| print(i, &forms::sym_name, &forms::label_name);
    let dir = std::env::temp_dir().join(format!("neverc-asm-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut src = String::from("\t.text\n");
    for i in &items {
        src.push('\t');
        src.push_str(&txt(i));
        src.push('\n');
    }
    std::fs::write(dir.join("f.s"), &src).unwrap();
    let out = Command::new("as")
        .args(["--64", "-o"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "as failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| !l.contains("Warning"))
            .take(40)
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(Command::new("objcopy")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.bin"))
        .status()
        .unwrap()
        .success());
    let gas = std::fs::read(dir.join("f.bin")).unwrap();
    let mut bad = Vec::new();
    if gas.len() != ours.bytes.len() {
        bad.push(format!(
            "total length gas {} neverc {}",
            gas.len(),
            ours.bytes.len()
        ));
    }
    for (k, f) in picked.iter().enumerate() {
        let lo = 16 * k;
        let hi = (lo + 16).min(gas.len()).min(ours.bytes.len());
        if lo < hi && gas[lo..hi] != ours.bytes[lo..hi] {
            bad.push(format!(
                "{:<50} gas [{}] neverc [{}]",
                txt(f),
                hex(&gas[lo..hi]),
                hex(&ours.bytes[lo..hi])
            ));
        }
    }
    // Relocations: same offsets, types and addends.
    let mut theirs = relocs(&dir.join("f.o"));
    let mut mine = our_relocs(&ours);
    theirs.sort();
    mine.sort();
    if theirs != mine {
        let diff: Vec<String> = theirs
            .iter()
            .filter(|t| !mine.contains(t))
            .take(20)
            .map(|t| format!("gas only {t:?} in {}", txt(&picked[t.0 as usize / 16])))
            .chain(
                mine.iter()
                    .filter(|t| !theirs.contains(t))
                    .take(20)
                    .map(|t| format!("neverc only {t:?} in {}", txt(&picked[t.0 as usize / 16]))),
            )
            .collect();
        bad.extend(diff);
    }
    eprintln!("rejections: {reasons:#?}");
    eprintln!(
        "fuzz: {} instructions ({} candidates rejected by the encoder), {} mismatches",
        picked.len(),
        rejected,
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} mismatches with GNU as:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Random instances of the forms that the encoder accepts (`NEVERC_ASM_FUZZ` of them, 6000
/// by default), the number rejected, and why.
fn random_instructions(seed: u64) -> (Vec<Inst>, usize, BTreeMap<String, usize>) {
    let n: usize = std::env::var("NEVERC_ASM_FUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000);
    let base = forms::all_forms();
    let mut rng = Rng(seed);
    let mut picked = Vec::new();
    let mut rejected = 0;
    let mut reasons: BTreeMap<String, usize> = Default::default();
    while picked.len() < n {
        let mut i = base[rng.below(base.len())];
        if rng.below(2) == 0 {
            let regs: Vec<u8> = (0..4).map(|_| rng.below(16) as u8).collect();
            let (mut gi, mut xi) = (0, 0);
            i.visit_operands(
                &mut |g| {
                    *g = Gpr(regs[gi % 4]);
                    gi += 1;
                },
                &mut |x| {
                    *x = Xmm(regs[3 - xi % 4]);
                    xi += 1;
                },
                &mut |_| {},
            );
        }
        if rng.below(2) == 0 {
            let mut ms = Vec::new();
            for _ in 0..2 {
                ms.push(random_mem(&mut rng));
            }
            let mut k = 0;
            i.visit_operands(&mut |_| {}, &mut |_| {}, &mut |m| {
                *m = ms[k];
                k += 1;
            });
        }
        match &mut i {
            Inst::Mov {
                src: Rmi::Imm(v), ..
            }
            | Inst::Alu {
                src: Rmi::Imm(v), ..
            }
            | Inst::Test {
                src: Rmi::Imm(v), ..
            } => *v = random_imm(&mut rng),
            Inst::Imul3 { imm, .. } => *imm = random_imm(&mut rng) as i32,
            Inst::Shift {
                amount: Some(a), ..
            } => *a = rng.below(256) as u8,
            _ => {}
        }
        let mut s = Sink::default();
        match encode(&i, &mut s) {
            Ok(()) => picked.push(i),
            Err(e) => {
                rejected += 1;
                let why = e.message.rsplit(": ").next().unwrap_or("").to_string();
                *reasons.entry(why).or_insert(0) += 1;
            }
        }
    }

    (picked, rejected, reasons)
}

fn have(t: &str) -> bool {
    Command::new(t)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The same random instructions through llvm-mc (a second opinion): each instruction is
/// padded to 16 bytes with int3 (`.p2align 4, 0xcc`), so a slot must hold exactly our
/// bytes followed by 0xcc; relocations must have the same offsets, types and addends.
/// xchg between two registers is skipped: llvm puts the operands in the other ModRM fields
/// than gas (both are correct; we follow gas). GOTPCRELX vs GOTPCREL in two cases is the one
/// relocation difference (see below).
#[test]
fn random_operands_match_llvm_mc() {
    if !have("llvm-mc") || !have("objcopy") || !have("readelf") {
        eprintln!("llvm-mc or binutils not found; skipping");
        return;
    }
    let (picked, _, _) = random_instructions(0x8CB9_2BA7_2F3D_8DD7);
    let mut items = vec![Inst::Label(forms::L_START)];
    for f in &picked {
        items.push(Inst::Align(16));
        items.push(*f);
    }
    items.push(Inst::Align(16));
    items.push(Inst::Label(forms::L_END));
    let ours = assemble(&items).unwrap();
    let txt = |i: &Inst| print(i, &forms::sym_name, &forms::label_name);
    let dir = std::env::temp_dir().join(format!("neverc-asm-fuzz-llvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut src = String::from("\t.text\n");
    for i in &items {
        src.push('\t');
        src.push_str(&match i {
            Inst::Align(16) => ".p2align 4, 0xcc".to_string(),
            _ => txt(i),
        });
        src.push('\n');
    }
    std::fs::write(dir.join("f.s"), &src).unwrap();
    let out = Command::new("llvm-mc")
        .args(["-triple=x86_64", "-filetype=obj", "-o"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.s"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llvm-mc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(Command::new("objcopy")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(dir.join("f.o"))
        .arg(dir.join("f.bin"))
        .status()
        .unwrap()
        .success());
    let theirs = std::fs::read(dir.join("f.bin")).unwrap();
    let skip = |i: &Inst| {
        matches!(i, Inst::Xchg { size, src, dst: Rm::Reg(d) }
            if *size == Size::S8 || (src.0 != 0 && d.0 != 0)
                || (src.0 == 0 && d.0 == 0 && *size == Size::S32))
    };
    let mut bad = Vec::new();
    let mut checked = 0;
    for (k, f) in picked.iter().enumerate() {
        if skip(f) {
            continue;
        }
        checked += 1;
        let mut s = Sink::default();
        encode(f, &mut s).unwrap();
        let n = s.bytes.len();
        let lo = 16 * k;
        let slot = &theirs[lo..(lo + 16).min(theirs.len())];
        let ok = slot.len() >= n
            && slot[..n] == ours.bytes[lo..lo + n]
            && slot[n..].iter().all(|b| *b == 0xcc);
        if !ok {
            bad.push(format!(
                "{:<50} llvm [{}] neverc [{}]",
                txt(f),
                hex(slot),
                hex(&ours.bytes[lo..lo + n])
            ));
        }
    }
    let skipped: Vec<bool> = picked.iter().map(skip).collect();
    let mut t = relocs(&dir.join("f.o"));
    let mut m = our_relocs(&ours);
    t.retain(|r| !skipped[r.0 as usize / 16]);
    m.retain(|r| !skipped[r.0 as usize / 16]);
    // Known differences in the relaxable GOT kinds, where we follow gas: llvm-mc 14 keeps
    // plain R_X86_64_GOTPCREL for an ALU op without REX (`addl sym@GOTPCREL(%rip), %ebx`)
    // and whenever the addend is not -4 (`sym@GOTPCREL+8(%rip)`); gas emits GOTPCRELX /
    // REX_GOTPCRELX there. Compare those as equal.
    for r in t.iter_mut().chain(m.iter_mut()) {
        let relaxed = r.1 == "R_X86_64_GOTPCRELX" || r.1 == "R_X86_64_REX_GOTPCRELX";
        let alu = matches!(picked[r.0 as usize / 16], Inst::Alu { .. });
        if relaxed && (r.3 != -4 || (alu && r.1 == "R_X86_64_GOTPCRELX")) {
            r.1 = "R_X86_64_GOTPCREL".to_string();
        }
    }
    t.sort();
    m.sort();
    for r in t.iter().filter(|r| !m.contains(r)).take(20) {
        bad.push(format!(
            "llvm only {r:?} in {}",
            txt(&picked[r.0 as usize / 16])
        ));
    }
    for r in m.iter().filter(|r| !t.contains(r)).take(20) {
        bad.push(format!(
            "neverc only {r:?} in {}",
            txt(&picked[r.0 as usize / 16])
        ));
    }
    eprintln!(
        "fuzz (llvm-mc): {checked} instructions compared, {} mismatches",
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} mismatches with llvm-mc:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// .text relocations of an object: (offset, type, symbol, addend).
fn relocs(obj: &std::path::Path) -> Vec<(u32, String, String, i64)> {
    let re = Command::new("readelf")
        .arg("-rW")
        .arg(obj)
        .output()
        .unwrap();
    let mut v = Vec::new();
    let mut in_text = false;
    for line in String::from_utf8_lossy(&re.stdout).lines() {
        if line.starts_with("Relocation section") {
            in_text = line.contains("'.rela.text'");
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if in_text && f.len() >= 5 && f[2].starts_with("R_X86_64") {
            let a = match f.get(5..7) {
                Some([sign, a]) => {
                    let a = i64::from_str_radix(a, 16).unwrap();
                    if *sign == "-" {
                        -a
                    } else {
                        a
                    }
                }
                _ => 0,
            };
            v.push((
                u32::from_str_radix(f[0], 16).unwrap(),
                f[2].to_string(),
                f[4].to_string(),
                a,
            ));
        }
    }
    v
}

fn our_relocs(a: &Assembled) -> Vec<(u32, String, String, i64)> {
    a.fixups
        .iter()
        .map(|x| {
            (
                x.offset,
                elf_name(x.kind).to_string(),
                forms::sym_name(x.sym),
                x.addend,
            )
        })
        .collect()
}

/// `encode` tries the fast path first (asm/fast.rs); `encode_jump(.., false)` is the general
/// path alone. On random operands of every form, accepted or not (registers 0..=15 plus the
/// high-byte ones and out-of-range numbers, every kind of address, edge immediates), both
/// must give the same bytes, fixups and label uses, or the same error.
#[test]
fn fast_path_matches_general_path() {
    let base = forms::all_forms();
    let mut rng = Rng(0x5eed_fa57);
    let mut fast_ok = 0;
    for k in 0..200_000 {
        let mut i = base[k % base.len()];
        if rng.below(4) != 0 {
            let regs: Vec<u8> = (0..4)
                .map(|_| match rng.below(12) {
                    0 => 0x14 + rng.below(4) as u8,
                    1 => 16 + rng.below(8) as u8,
                    _ => rng.below(16) as u8,
                })
                .collect();
            let (mut gi, mut xi) = (0, 0);
            i.visit_operands(
                &mut |g| {
                    *g = Gpr(regs[gi % 4]);
                    gi += 1;
                },
                &mut |x| {
                    *x = Xmm(regs[3 - xi % 4]);
                    xi += 1;
                },
                &mut |_| {},
            );
        }
        if rng.below(2) == 0 {
            let ms = [random_mem(&mut rng), random_mem(&mut rng)];
            let mut n = 0;
            i.visit_operands(&mut |_| {}, &mut |_| {}, &mut |m| {
                *m = ms[n % 2];
                n += 1;
            });
        }
        match &mut i {
            Inst::Mov {
                src: Rmi::Imm(v), ..
            }
            | Inst::Alu {
                src: Rmi::Imm(v), ..
            }
            | Inst::Test {
                src: Rmi::Imm(v), ..
            } => *v = random_imm(&mut rng),
            Inst::Imul3 { imm, .. } => *imm = random_imm(&mut rng) as i32,
            Inst::Shift {
                amount: Some(a), ..
            } => *a = rng.below(256) as u8,
            _ => {}
        }
        // Something already in the sink: offsets must count from the sink's start.
        let (mut a, mut b) = (Sink::default(), Sink::default());
        a.bytes.extend_from_slice(&[0xCC; 3]);
        b.bytes.extend_from_slice(&[0xCC; 3]);
        let ra = encode(&i, &mut a).map_err(|e| e.message);
        let rb = encode_jump(&i, &mut b, false).map_err(|e| e.message);
        assert_eq!(ra, rb, "{i:?}");
        if rb.is_ok() {
            assert_eq!(a.bytes, b.bytes, "{i:?}");
            assert_eq!(a.fixups, b.fixups, "{i:?}");
            assert_eq!(a.label_uses, b.label_uses, "{i:?}");
            fast_ok += 1;
        }
    }
    assert!(fast_ok > 100_000, "only {fast_ok} accepted");
}
