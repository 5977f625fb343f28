//! The function assembler: branch relaxation at the rel8 boundary, growth cascades,
//! alignment, jump tables, and a randomized comparison of whole functions with GNU as
//! (print the items, assemble with `as`, compare .text byte for byte).

use neverc_codegen::reloc::RelocKind;
use neverc_isa_x86_64::asm::*;
use std::process::Command;

fn nops(n: usize) -> Vec<Inst> {
    vec![Inst::Nop; n]
}

fn asm(items: &[Inst]) -> Assembled {
    assemble(items).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn forward_jump_boundary() {
    let l = Label(0);
    // jmp over 127 bytes: rel8 127 fits.
    let mut v = vec![Inst::Jmp { target: l }];
    v.extend(nops(127));
    v.push(Inst::Label(l));
    let a = asm(&v);
    assert_eq!(&a.bytes[..2], &[0xEB, 0x7F]);
    assert_eq!(a.label_offsets[&l], 129);
    // 128 bytes: near.
    let mut v = vec![Inst::Jmp { target: l }];
    v.extend(nops(128));
    v.push(Inst::Label(l));
    let a = asm(&v);
    assert_eq!(&a.bytes[..5], &[0xE9, 0x80, 0, 0, 0]);
    // jcc likewise.
    let mut v = vec![Inst::Jcc {
        cond: Cond::NE,
        target: l,
    }];
    v.extend(nops(128));
    v.push(Inst::Label(l));
    let a = asm(&v);
    assert_eq!(&a.bytes[..6], &[0x0F, 0x85, 0x80, 0, 0, 0]);
}

#[test]
fn backward_jump_boundary() {
    let l = Label(0);
    // disp = -(126 + 2) = -128 fits.
    let mut v = vec![Inst::Label(l)];
    v.extend(nops(126));
    v.push(Inst::Jmp { target: l });
    let a = asm(&v);
    assert_eq!(&a.bytes[126..], &[0xEB, 0x80]);
    // one more byte: near, disp -(127 + 5).
    let mut v = vec![Inst::Label(l)];
    v.extend(nops(127));
    v.push(Inst::Jmp { target: l });
    let a = asm(&v);
    assert_eq!(&a.bytes[127..], &[0xE9, 0x7C, 0xFF, 0xFF, 0xFF]);
}

#[test]
fn growth_cascades() {
    // J1 jumps forward over J2 with 124 bytes to go while J2 is short; J2 jumps far back,
    // so it grows by 4 bytes, which pushes J1 to 128: J1 must grow as well.
    let (a, b) = (Label(0), Label(1));
    let mut v = vec![Inst::Label(b)];
    v.extend(nops(130));
    v.push(Inst::Jmp { target: a });
    v.extend(nops(60));
    v.push(Inst::Jcc {
        cond: Cond::E,
        target: b,
    });
    v.extend(nops(62));
    v.push(Inst::Label(a));
    let r = asm(&v);
    assert_eq!(r.bytes[130], 0xE9);
    assert_eq!(&r.bytes[130 + 5 + 60..][..2], &[0x0F, 0x84]);
    // Two bytes fewer in J1's span: it stays short even after J2 grows.
    v.remove(140);
    v.remove(140);
    let r = asm(&v);
    assert_eq!(&r.bytes[130..132], &[0xEB, 126]);
}

#[test]
fn alignment_uses_gas_nops() {
    let v = [Inst::Ret, Inst::Align(16), Inst::Label(Label(0)), Inst::Ret];
    let a = asm(&v);
    assert_eq!(a.bytes.len(), 17);
    assert_eq!(
        &a.bytes[1..16],
        &[0x66, 0x66, 0x2E, 0x0F, 0x1F, 0x84, 0, 0, 0, 0, 0, 0x0F, 0x1F, 0x40, 0x00]
    );
    assert_eq!(a.label_offsets[&Label(0)], 16);
}

#[test]
fn long_padding_jumps_over_its_nops() {
    // As gas: 88 bytes or more of padding start with a jump over the rest.
    for (pad, head) in [
        (87usize, vec![0x66, 0x66]),
        (88, vec![0xEB, 86]),
        (129, vec![0xEB, 127]),
        (130, vec![0xE9, 125, 0, 0, 0]),
    ] {
        let mut v = nops(256 - pad);
        v.push(Inst::Align(256));
        let a = asm(&v);
        assert_eq!(a.bytes.len(), 256);
        assert_eq!(
            &a.bytes[256 - pad..256 - pad + head.len()],
            &head[..],
            "{pad}"
        );
    }
}

#[test]
fn jump_table_and_rip_label() {
    let (tab, c0, c1) = (Label(0), Label(1), Label(2));
    let v = [
        Inst::Lea {
            size: Size::S64,
            src: Mem::rip_label(tab, 0),
            dst: Gpr::RCX,
        },
        Inst::Ret,
        Inst::Label(c0),
        Inst::Ret,
        Inst::Label(c1),
        Inst::Ud2,
        Inst::Align(4),
        Inst::Label(tab),
        Inst::JumpTableEntry {
            target: c0,
            base: tab,
        },
        Inst::JumpTableEntry {
            target: c1,
            base: tab,
        },
    ];
    let a = asm(&v);
    // lea(7) ret c0:ret c1:ud2(2) = 11, aligned to 12.
    assert_eq!(a.label_offsets[&tab], 12);
    // lea disp = 12 - 7.
    assert_eq!(&a.bytes[..7], &[0x48, 0x8D, 0x0D, 5, 0, 0, 0]);
    assert_eq!(&a.bytes[12..16], &(-4i32).to_le_bytes());
    assert_eq!(&a.bytes[16..20], &(-3i32).to_le_bytes());
    assert!(a.fixups.is_empty());
}

#[test]
fn undefined_label_is_an_error() {
    assert!(assemble(&[Inst::Jmp { target: Label(9) }]).is_err());
    assert!(assemble(&[Inst::Label(Label(1)), Inst::Label(Label(1))]).is_err());
}

#[test]
fn fixups_are_function_relative() {
    let v = [
        Inst::Nop,
        Inst::CallSym {
            sym: neverc_codegen::reloc::SymId(1),
            kind: RelocKind::Plt32,
        },
    ];
    let a = asm(&v);
    assert_eq!(a.fixups[0].offset, 2);
}

/// xorshift64*: reproducible without a dependency.
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
}

/// Random functions of real instructions, labels, jumps near the rel8 boundary, alignment
/// and jump tables, assembled by us and by GNU as: the .text bytes must be identical.
#[test]
fn random_functions_match_gnu_as() {
    let have = |t: &str| {
        Command::new(t)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !have("as") || !have("objcopy") {
        eprintln!("GNU as/objcopy not found; skipping");
        return;
    }
    // Filler: forms without labels (so that each program defines its own).
    let filler: Vec<Inst> = forms::all_forms()
        .into_iter()
        .filter(|i| {
            let mut s = Sink::default();
            encode(i, &mut s).is_ok()
                && s.label_uses.is_empty()
                && !matches!(i, Inst::Jmp { .. } | Inst::Jcc { .. })
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("neverc-asm-rand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // NEVERC_ASM_RANDOM=n runs more programs (the default keeps the test quick).
    let programs: usize = std::env::var("NEVERC_ASM_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    let mut failures = Vec::new();
    for p in 0..programs {
        let items = random_function(&mut rng, &filler, p % 2 == 0, p % 3 == 0, 9);
        let ours = asm(&items);
        let mut src = String::from("\t.text\n");
        for i in &items {
            src.push('\t');
            src.push_str(&print(i, &forms::sym_name, &|l| format!(".Lr{}", l.0)));
            src.push('\n');
        }
        let s = dir.join(format!("p{p}.s"));
        let o = dir.join(format!("p{p}.o"));
        let b = dir.join(format!("p{p}.bin"));
        std::fs::write(&s, &src).unwrap();
        let st = Command::new("as")
            .arg("--64")
            .arg("-o")
            .arg(&o)
            .arg(&s)
            .output()
            .unwrap();
        assert!(
            st.status.success(),
            "{}",
            String::from_utf8_lossy(&st.stderr)
        );
        assert!(Command::new("objcopy")
            .args(["-O", "binary", "--only-section=.text"])
            .arg(&o)
            .arg(&b)
            .status()
            .unwrap()
            .success());
        let gas = std::fs::read(&b).unwrap();
        if gas != ours.bytes {
            let at = gas
                .iter()
                .zip(&ours.bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(gas.len().min(ours.bytes.len()));
            std::fs::write(dir.join(format!("p{p}.ours.bin")), &ours.bytes).unwrap();
            // Which labels moved: reassemble keeping local labels and read them back.
            let k = dir.join(format!("p{p}.keep.o"));
            Command::new("as")
                .args(["--64", "-L", "-o"])
                .arg(&k)
                .arg(&s)
                .status()
                .unwrap();
            let nm = Command::new("nm").arg(&k).output().unwrap();
            let mut moved = Vec::new();
            for line in String::from_utf8_lossy(&nm.stdout).lines() {
                let f: Vec<&str> = line.split_whitespace().collect();
                if let [v, _, name] = f[..] {
                    if let Some(n) = name.strip_prefix(".Lr") {
                        let l = Label(n.parse().unwrap());
                        let g = u32::from_str_radix(v, 16).unwrap();
                        if ours.label_offsets.get(&l) != Some(&g) {
                            moved.push(format!(
                                "{name}: gas {g} neverc {:?}",
                                ours.label_offsets.get(&l)
                            ));
                        }
                    }
                }
            }
            failures.push(format!(
                "program {p} ({}): lengths gas {} neverc {}, first difference at {at}; {}",
                s.display(),
                gas.len(),
                ours.bytes.len(),
                moved.join(", ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A random function body: filler instructions, labels (all defined), jumps, alignment,
/// jump-table entries and rip-relative label references.
fn random_function(
    rng: &mut Rng,
    filler: &[Inst],
    many_labels: bool,
    long: bool,
    max_align_log2: usize,
) -> Vec<Inst> {
    let nlabels = 2 + rng.below(if many_labels { 40 } else { 12 }) as u32;
    let mut items = Vec::new();
    let mut defined = vec![false; nlabels as usize];
    let len = 20 + rng.below(if long { 900 } else { 200 });
    for _ in 0..len {
        match rng.below(20) {
            0..=9 => items.push(filler[rng.below(filler.len())]),
            10 => {
                let l = rng.below(nlabels as usize);
                if !defined[l] {
                    defined[l] = true;
                    items.push(Inst::Label(Label(l as u32)));
                }
            }
            11..=13 => items.push(Inst::Jmp {
                target: Label(rng.below(nlabels as usize) as u32),
            }),
            14..=16 => items.push(Inst::Jcc {
                cond: Cond::ALL[rng.below(16)],
                target: Label(rng.below(nlabels as usize) as u32),
            }),
            17 => items.push(Inst::Align(if rng.below(8) == 0 {
                1 << rng.below(max_align_log2 + 1)
            } else {
                1 << rng.below(max_align_log2.min(5) + 1)
            })),
            18 => items.push(Inst::JumpTableEntry {
                target: Label(rng.below(nlabels as usize) as u32),
                base: Label(rng.below(nlabels as usize) as u32),
            }),
            _ => items.push(Inst::Lea {
                size: Size::S64,
                src: Mem::rip_label(Label(rng.below(nlabels as usize) as u32), 0),
                dst: Gpr::RAX,
            }),
        }
    }
    for (l, d) in defined.iter().enumerate() {
        if !d {
            let at = rng.below(items.len() + 1);
            items.insert(at, Inst::Label(Label(l as u32)));
        }
    }
    items
}

fn have(t: &str) -> bool {
    Command::new(t)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The filler instructions: forms without labels (each program defines its own).
fn filler() -> Vec<Inst> {
    forms::all_forms()
        .into_iter()
        .filter(|i| {
            let mut s = Sink::default();
            encode(i, &mut s).is_ok()
                && s.label_uses.is_empty()
                && !matches!(i, Inst::Jmp { .. } | Inst::Jcc { .. })
        })
        .collect()
}

/// GNU as's .text bytes for `src`.
fn gas_text(dir: &std::path::Path, name: &str, src: &str) -> Vec<u8> {
    let s = dir.join(format!("{name}.s"));
    let o = dir.join(format!("{name}.o"));
    let b = dir.join(format!("{name}.bin"));
    std::fs::write(&s, src).unwrap();
    let st = Command::new("as")
        .arg("--64")
        .arg("-o")
        .arg(&o)
        .arg(&s)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    assert!(Command::new("objcopy")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(&o)
        .arg(&b)
        .status()
        .unwrap()
        .success());
    std::fs::read(&b).unwrap()
}

/// Several random functions in one section, each after `.p2align 4`, assembled together by
/// `assemble_section` and by GNU as: identical bytes. Also counts how often assembling each
/// function alone would have differed (gas's estimates depend on earlier functions' growth).
#[test]
fn random_sections_match_gnu_as() {
    if !have("as") || !have("objcopy") {
        eprintln!("GNU as/objcopy not found; skipping");
        return;
    }
    let filler = filler();
    let dir = std::env::temp_dir().join(format!("neverc-asm-sect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let sections: usize = std::env::var("NEVERC_ASM_RANDOM")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(30, |n| n / 2);
    let (mut failures, mut alone_differs) = (Vec::new(), 0);
    for p in 0..sections {
        let nf = 2 + rng.below(4);
        let funcs: Vec<Vec<Inst>> = (0..nf)
            .map(|k| {
                let long = rng.below(3) == 0;
                random_function(&mut rng, &filler, k % 2 == 0, long, 4)
            })
            .collect();
        let refs: Vec<&[Inst]> = funcs.iter().map(|f| &f[..]).collect();
        let parts = assemble_section(&refs, 16).unwrap();
        let mut ours = Vec::new();
        let mut src = String::from("\t.text\n");
        for (k, (f, a)) in funcs.iter().zip(&parts).enumerate() {
            let pad = (16 - ours.len() % 16) % 16;
            nop_fill(&mut ours, pad);
            ours.extend_from_slice(&a.bytes);
            if asm(f).bytes != a.bytes {
                alone_differs += 1;
            }
            src.push_str(&format!("\t.p2align 4\nf{k}:\n"));
            for i in f {
                src.push('\t');
                src.push_str(&print(i, &forms::sym_name, &|l| format!(".Lf{k}_{}", l.0)));
                src.push('\n');
            }
        }
        let gas = gas_text(&dir, &format!("s{p}"), &src);
        if gas != ours {
            failures.push(format!(
                "section {p} in {}: gas {} bytes, neverc {}",
                dir.display(),
                gas.len(),
                ours.len()
            ));
        }
    }
    eprintln!(
        "sections: {sections}, functions whose bytes differ when assembled alone: {alone_differs}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
