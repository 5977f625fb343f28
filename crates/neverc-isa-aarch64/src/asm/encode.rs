//! Encoding of one instruction to its 32-bit word (Arm Architecture Reference Manual, A64
//! instruction set encoding), and the function assembler that places labels and resolves
//! branches to them.
//!
//! Every operand is checked against its field: a register where the field means `sp` must
//! not be the zero register and the other way round, immediates must fit exactly. Anything
//! else is an `Err` naming the instruction; nothing is silently truncated.

use super::inst::*;
use neverc_codegen::reloc::{Aarch64Reloc, Fixup, RelocKind, SymId};
use std::collections::HashMap;

/// How a label reference is patched into the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// `b`/`bl`: imm26 words.
    Branch26,
    /// `b.cond`, `cbz`, `cbnz`, literal loads: imm19 words at bit 5.
    Branch19,
    /// `tbz`/`tbnz`: imm14 words at bit 5.
    Branch14,
    /// `adr`: 21-bit byte offset split immlo/immhi.
    Adr21,
}

/// One encoded instruction: its word, and the relocation or label reference it carries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encoded {
    pub word: u32,
    pub reloc: Option<(SymId, Aarch64Reloc, i64)>,
    pub label: Option<(Label, LabelKind)>,
}

type R<T> = Result<T, String>;

fn err<T>(inst: &Inst, why: &str) -> R<T> {
    Err(format!("cannot encode {inst:?}: {why}"))
}

/// A register field where 31 means the zero register.
fn zr(inst: &Inst, r: Gpr) -> R<u32> {
    match r.0 {
        0..=30 => Ok(r.0 as u32),
        32 => Ok(31),
        _ => err(inst, "sp where only the zero register is encodable"),
    }
}

/// A register field where 31 means the stack pointer.
fn sp(inst: &Inst, r: Gpr) -> R<u32> {
    match r.0 {
        0..=31 => Ok(r.0 as u32),
        _ => err(inst, "the zero register where only sp is encodable"),
    }
}

fn fpr(inst: &Inst, r: Fpr) -> R<u32> {
    if r.0 < 32 {
        Ok(r.0 as u32)
    } else {
        err(inst, "no such vector register")
    }
}

fn sf(size: Size) -> u32 {
    match size {
        Size::W => 0,
        Size::X => 1 << 31,
    }
}

fn ftype(size: FSize) -> u32 {
    match size {
        FSize::S => 0,
        FSize::D => 1 << 22,
    }
}

/// The N:immr:imms encoding of a logical immediate of `bits` (32 or 64) bits, if it is one:
/// a power-of-two element of 2-64 bits, repeated, holding one rotated run of ones (neither
/// all zeros nor all ones).
pub fn bitmask_imm(imm: u64, bits: u32) -> Option<u32> {
    let imm = if bits == 32 {
        if imm >> 32 != 0 {
            return None;
        }
        imm | (imm << 32)
    } else {
        imm
    };
    if imm == 0 || imm == u64::MAX {
        return None;
    }
    // The smallest element size that repeats.
    let mut e = 64u32;
    while e > 2 {
        let half = e / 2;
        let mask = (1u64 << half) - 1;
        if (imm & mask) != ((imm >> half) & mask) {
            break;
        }
        e = half;
    }
    let mask = if e == 64 { u64::MAX } else { (1u64 << e) - 1 };
    let elem = imm & mask;
    let ones = elem.count_ones();
    // Rotate the element right until it is a run of ones at the bottom: the rotation is
    // immr.
    for r in 0..e {
        let rot = if r == 0 {
            elem
        } else {
            ((elem >> r) | (elem << (e - r))) & mask
        };
        if rot == (1u64 << ones) - 1 {
            // rot = ROR(elem, r) is the run; immr is the right rotation that makes the run
            // into elem, i.e. (e - r) mod e.
            let immr = (e - r) % e;
            let n = u32::from(e == 64);
            // imms: element size marker (ones in the high bits) and ones - 1.
            let size_bits = (!(e * 2 - 1)) & 0x3f;
            let imms = size_bits | (ones - 1);
            return Some((n << 12) | (immr << 6) | imms);
        }
    }
    None
}

/// The 8-bit `fmov` immediate for a value, if it has one: ±(16..31)/16 × 2^(-3..4).
pub fn fmov_imm8(v: f64) -> Option<u8> {
    (0..=255u8).find(|&i| fmov_imm8_value(i).to_bits() == v.to_bits())
}

/// The value of an 8-bit `fmov` immediate (VFPExpandImm).
pub fn fmov_imm8_value(imm8: u8) -> f64 {
    let sign = if imm8 & 0x80 != 0 { -1.0 } else { 1.0 };
    let b = (imm8 >> 6) & 1;
    let cd = ((imm8 >> 4) & 3) as i32;
    let frac = (imm8 & 15) as f64;
    // exponent = NOT(b):b:b...:cd, unbiased: b=0 gives 1..4 (cd+1), b=1 gives -3..0.
    let exp = if b == 0 { cd + 1 } else { cd - 3 };
    sign * (16.0 + frac) / 16.0 * 2f64.powi(exp)
}

fn plain(word: u32) -> R<Encoded> {
    Ok(Encoded {
        word,
        reloc: None,
        label: None,
    })
}

/// The `size` field of an atomic access of 1, 2, 4 or 8 bytes.
fn access_size(i: &Inst, bytes: u8) -> R<u32> {
    match bytes {
        1 => Ok(0),
        2 => Ok(1),
        4 => Ok(2),
        8 => Ok(3),
        _ => err(i, "atomic access of 1, 2, 4 or 8 bytes only"),
    }
}

fn with_target(inst: &Inst, word: u32, t: Target, kind: LabelKind) -> R<Encoded> {
    match t {
        Target::Label(l) => Ok(Encoded {
            word,
            reloc: None,
            label: Some((l, kind)),
        }),
        Target::Sym(s, a) => {
            let r = match (inst, kind) {
                (Inst::Bl(_), _) => Aarch64Reloc::Call26,
                (_, LabelKind::Branch26) => Aarch64Reloc::Jump26,
                (Inst::Mem { .. }, _) => Aarch64Reloc::LdPrelLo19,
                (_, LabelKind::Branch19) => Aarch64Reloc::CondBr19,
                (_, LabelKind::Branch14) => Aarch64Reloc::TstBr14,
                (_, LabelKind::Adr21) => Aarch64Reloc::AdrPrelLo21,
            };
            Ok(Encoded {
                word,
                reloc: Some((s, r, a)),
                label: None,
            })
        }
    }
}

fn imm9(inst: &Inst, off: i16) -> R<u32> {
    if (-256..=255).contains(&off) {
        Ok(((off as i32 as u32) & 0x1ff) << 12)
    } else {
        err(inst, "offset outside -256..=255")
    }
}

/// Encode one instruction. `Inst::Label` is not an instruction (the assembler places it).
pub fn encode(inst: &Inst) -> R<Encoded> {
    let i = inst;
    match *inst {
        Inst::Label(_) => err(i, "a label has no encoding"),
        Inst::DataWord(w) => plain(w),
        // The assembler writes the distance; nothing to encode alone.
        Inst::JumpTableEntry { .. } => Ok(Encoded {
            word: 0,
            reloc: None,
            label: None,
        }),
        Inst::AluImm {
            op,
            flags,
            size,
            rd,
            rn,
            imm12,
            lsl12,
        } => {
            if imm12 > 0xfff {
                return err(i, "immediate over 12 bits");
            }
            let rd = if flags { zr(i, rd)? } else { sp(i, rd)? };
            plain(
                sf(size)
                    | (op as u32) << 30
                    | (flags as u32) << 29
                    | 0x1100_0000
                    | (lsl12 as u32) << 22
                    | (imm12 as u32) << 10
                    | sp(i, rn)? << 5
                    | rd,
            )
        }
        Inst::AluShift {
            op,
            flags,
            size,
            rd,
            rn,
            rm,
            shift,
            amount,
        } => {
            if shift == Shift::Ror {
                return err(i, "add/sub cannot rotate");
            }
            if amount as u32 >= size.bits() {
                return err(i, "shift amount too large");
            }
            plain(
                sf(size)
                    | (op as u32) << 30
                    | (flags as u32) << 29
                    | 0x0b00_0000
                    | (shift as u32) << 22
                    | zr(i, rm)? << 16
                    | (amount as u32) << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::AluExt {
            op,
            flags,
            size,
            rd,
            rn,
            rm,
            ext,
            amount,
        } => {
            if amount > 4 {
                return err(i, "extended register shift over 4");
            }
            if size == Size::W && ext.is_x() {
                return err(i, "a 64-bit extend in a 32-bit instruction");
            }
            let rd = if flags { zr(i, rd)? } else { sp(i, rd)? };
            plain(
                sf(size)
                    | (op as u32) << 30
                    | (flags as u32) << 29
                    | 0x0b20_0000
                    | zr(i, rm)? << 16
                    | (ext as u32) << 13
                    | (amount as u32) << 10
                    | sp(i, rn)? << 5
                    | rd,
            )
        }
        Inst::AddSym {
            rd,
            rn,
            sym,
            addend,
            kind,
        } => {
            let (word, r) = match kind {
                AddSymKind::Lo12 => (0x9100_0000, Aarch64Reloc::AddAbsLo12Nc),
                AddSymKind::TprelHi12 => (0x9140_0000, Aarch64Reloc::TlsLeAddTprelHi12),
                AddSymKind::TprelLo12Nc => (0x9100_0000, Aarch64Reloc::TlsLeAddTprelLo12Nc),
            };
            Ok(Encoded {
                word: word | sp(i, rn)? << 5 | sp(i, rd)?,
                reloc: Some((sym, r, addend)),
                label: None,
            })
        }
        Inst::LogicImm {
            op,
            size,
            rd,
            rn,
            imm,
        } => {
            let Some(nrs) = bitmask_imm(imm, size.bits()) else {
                return err(i, "not a logical (bitmask) immediate");
            };
            let rd = if op == LogicOp::Ands {
                zr(i, rd)?
            } else {
                sp(i, rd)?
            };
            plain(sf(size) | (op as u32) << 29 | 0x1200_0000 | nrs << 10 | zr(i, rn)? << 5 | rd)
        }
        Inst::LogicShift {
            op,
            not,
            size,
            rd,
            rn,
            rm,
            shift,
            amount,
        } => {
            if amount as u32 >= size.bits() {
                return err(i, "shift amount too large");
            }
            plain(
                sf(size)
                    | (op as u32) << 29
                    | 0x0a00_0000
                    | (shift as u32) << 22
                    | (not as u32) << 21
                    | zr(i, rm)? << 16
                    | (amount as u32) << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::MovWide {
            op,
            size,
            rd,
            imm16,
            shift,
        } => {
            if shift % 16 != 0 || shift as u32 >= size.bits() {
                return err(i, "move shift not a multiple of 16 within the register");
            }
            let opc = match op {
                MovOp::Movn => 0,
                MovOp::Movz => 2,
                MovOp::Movk => 3,
            };
            plain(
                sf(size)
                    | opc << 29
                    | 0x1280_0000
                    | (shift as u32 / 16) << 21
                    | (imm16 as u32) << 5
                    | zr(i, rd)?,
            )
        }
        Inst::Carry {
            op,
            flags,
            size,
            rd,
            rn,
            rm,
        } => plain(
            sf(size)
                | (op as u32) << 30
                | (flags as u32) << 29
                | 0x1a00_0000
                | zr(i, rm)? << 16
                | zr(i, rn)? << 5
                | zr(i, rd)?,
        ),
        Inst::Mul3 {
            op,
            size,
            rd,
            rn,
            rm,
            ra,
        } => {
            let (op31, o0) = match op {
                Mul3Op::Madd => (0, 0),
                Mul3Op::Msub => (0, 1),
                Mul3Op::Smaddl => (1, 0),
                Mul3Op::Umaddl => (5, 0),
                Mul3Op::Smulh => (2, 0),
                Mul3Op::Umulh => (6, 0),
            };
            if op31 != 0 && size == Size::W {
                return err(i, "long and high multiplies are 64-bit");
            }
            if matches!(op, Mul3Op::Smulh | Mul3Op::Umulh) && ra != Gpr::ZR {
                return err(i, "smulh/umulh take no addend");
            }
            plain(
                sf(size)
                    | 0x1b00_0000
                    | op31 << 21
                    | zr(i, rm)? << 16
                    | o0 << 15
                    | zr(i, ra)? << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::Alu2 {
            op,
            size,
            rd,
            rn,
            rm,
        } => {
            let opcode = match op {
                Alu2Op::Udiv => 2,
                Alu2Op::Sdiv => 3,
                Alu2Op::Lslv => 8,
                Alu2Op::Lsrv => 9,
                Alu2Op::Asrv => 10,
                Alu2Op::Rorv => 11,
            };
            plain(
                sf(size)
                    | 0x1ac0_0000
                    | zr(i, rm)? << 16
                    | opcode << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::Alu1 { op, size, rd, rn } => {
            let opcode = match (op, size) {
                (Alu1Op::Rbit, _) => 0,
                (Alu1Op::Rev16, _) => 1,
                (Alu1Op::Rev32, Size::X) => 2,
                (Alu1Op::Rev32, Size::W) => return err(i, "rev32 is 64-bit (rev for w)"),
                (Alu1Op::Rev, Size::W) => 2,
                (Alu1Op::Rev, Size::X) => 3,
                (Alu1Op::Clz, _) => 4,
                (Alu1Op::Cls, _) => 5,
            };
            plain(sf(size) | 0x5ac0_0000 | opcode << 10 | zr(i, rn)? << 5 | zr(i, rd)?)
        }
        Inst::Bitfield {
            op,
            size,
            rd,
            rn,
            immr,
            imms,
        } => {
            if immr as u32 >= size.bits() || imms as u32 >= size.bits() {
                return err(i, "bit position outside the register");
            }
            let n = (size == Size::X) as u32;
            plain(
                sf(size)
                    | (op as u32) << 29
                    | 0x1300_0000
                    | n << 22
                    | (immr as u32) << 16
                    | (imms as u32) << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::Extr {
            size,
            rd,
            rn,
            rm,
            lsb,
        } => {
            if lsb as u32 >= size.bits() {
                return err(i, "bit position outside the register");
            }
            let n = (size == Size::X) as u32;
            plain(
                sf(size)
                    | 0x1380_0000
                    | n << 22
                    | zr(i, rm)? << 16
                    | (lsb as u32) << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::CondSel {
            op,
            size,
            rd,
            rn,
            rm,
            cond,
        } => {
            let (o, o2) = match op {
                CselOp::Csel => (0, 0),
                CselOp::Csinc => (0, 1),
                CselOp::Csinv => (1, 0),
                CselOp::Csneg => (1, 1),
            };
            plain(
                sf(size)
                    | o << 30
                    | 0x1a80_0000
                    | zr(i, rm)? << 16
                    | cond.bits() << 12
                    | o2 << 10
                    | zr(i, rn)? << 5
                    | zr(i, rd)?,
            )
        }
        Inst::CondCmp {
            op,
            size,
            rn,
            rm,
            nzcv,
            cond,
        } => {
            if nzcv > 15 {
                return err(i, "nzcv over 4 bits");
            }
            let (field, imm) = match rm {
                RegOrImm5::Reg(r) => (zr(i, r)?, 0),
                RegOrImm5::Imm(v) if v < 32 => (v as u32, 1),
                RegOrImm5::Imm(_) => return err(i, "immediate over 5 bits"),
            };
            plain(
                sf(size)
                    | (op as u32) << 30
                    | 0x3a40_0000
                    | field << 16
                    | cond.bits() << 12
                    | imm << 11
                    | zr(i, rn)? << 5
                    | nzcv as u32,
            )
        }
        Inst::B(t) => with_target(i, 0x1400_0000, t, LabelKind::Branch26),
        Inst::Bl(t) => with_target(i, 0x9400_0000, t, LabelKind::Branch26),
        Inst::Br(r) => plain(0xd61f_0000 | zr(i, r)? << 5),
        Inst::Blr(r) => plain(0xd63f_0000 | zr(i, r)? << 5),
        Inst::Ret(r) => plain(0xd65f_0000 | zr(i, r)? << 5),
        Inst::BCond(c, t) => with_target(i, 0x5400_0000 | c.bits(), t, LabelKind::Branch19),
        Inst::Cbz {
            nz,
            size,
            rt,
            target,
        } => with_target(
            i,
            sf(size) | 0x3400_0000 | (nz as u32) << 24 | zr(i, rt)?,
            target,
            LabelKind::Branch19,
        ),
        Inst::Tbz {
            nz,
            rt,
            bit,
            target,
        } => {
            if bit > 63 {
                return err(i, "bit over 63");
            }
            with_target(
                i,
                (bit as u32 >> 5) << 31
                    | 0x3600_0000
                    | (nz as u32) << 24
                    | (bit as u32 & 31) << 19
                    | zr(i, rt)?,
                target,
                LabelKind::Branch14,
            )
        }
        Inst::Mem { op, rt, addr } => encode_mem(i, op, rt, addr),
        Inst::Pair {
            load,
            class,
            rt,
            rt2,
            base,
            off,
            mode,
        } => {
            let reg = |r: Reg| -> R<u32> {
                match (r, class.is_fp()) {
                    (Reg::G(g), false) => zr(i, g),
                    (Reg::V(v), true) => fpr(i, v),
                    _ => err(i, "register file does not match the pair class"),
                }
            };
            let (opc, v) = match class {
                PairClass::W => (0, 0),
                PairClass::X => (2, 0),
                PairClass::S => (0, 1),
                PairClass::D => (1, 1),
                PairClass::Q => (2, 1),
            };
            let scale = class.bytes();
            if off % scale != 0 || !(-64..=63).contains(&(off / scale)) {
                return err(
                    i,
                    "pair offset not a multiple of the size in -64..=63 of them",
                );
            }
            let m = match mode {
                PairMode::Post => 1,
                PairMode::Offset => 2,
                PairMode::Pre => 3,
            };
            plain(
                opc << 30
                    | 0x2800_0000
                    | v << 26
                    | m << 23
                    | (load as u32) << 22
                    | (((off / scale) as u32) & 0x7f) << 15
                    | reg(rt2)? << 10
                    | sp(i, base)? << 5
                    | reg(rt)?,
            )
        }
        Inst::Lse {
            op,
            bytes,
            acquire,
            release,
            rs,
            rt,
            rn,
        } => {
            let size = access_size(i, bytes)?;
            let (o3, opc) = match op {
                LseOp::Swp => (1, 0),
                _ => (0, op as u32),
            };
            plain(
                size << 30
                    | 0x3820_0000
                    | (acquire as u32) << 23
                    | (release as u32) << 22
                    | zr(i, rs)? << 16
                    | o3 << 15
                    | opc << 12
                    | sp(i, rn)? << 5
                    | zr(i, rt)?,
            )
        }
        Inst::Cas {
            bytes,
            acquire,
            release,
            rs,
            rt,
            rn,
        } => {
            let size = access_size(i, bytes)?;
            plain(
                size << 30
                    | 0x08a0_7c00
                    | (acquire as u32) << 22
                    | zr(i, rs)? << 16
                    | (release as u32) << 15
                    | sp(i, rn)? << 5
                    | zr(i, rt)?,
            )
        }
        Inst::Excl {
            op,
            bytes,
            rs,
            rt,
            rn,
        } => {
            let size = match bytes {
                1 => 0,
                2 => 1,
                4 => 2,
                8 => 3,
                _ => return err(i, "exclusive access of 1, 2, 4 or 8 bytes only"),
            };
            let (o2, l, o0, has_rs) = match op {
                ExclOp::Stxr => (0, 0, 0, true),
                ExclOp::Stlxr => (0, 0, 1, true),
                ExclOp::Ldxr => (0, 1, 0, false),
                ExclOp::Ldaxr => (0, 1, 1, false),
                ExclOp::Stlr => (1, 0, 1, false),
                ExclOp::Ldar => (1, 1, 1, false),
            };
            let rs = if has_rs {
                zr(i, rs)?
            } else if rs == Gpr::ZR {
                31
            } else {
                return err(i, "a status register for an access that has none");
            };
            plain(
                size << 30
                    | 0x0800_0000
                    | o2 << 23
                    | l << 22
                    | rs << 16
                    | o0 << 15
                    | 31 << 10
                    | sp(i, rn)? << 5
                    | zr(i, rt)?,
            )
        }
        Inst::Adr { rd, target } => {
            with_target(i, 0x1000_0000 | zr(i, rd)?, target, LabelKind::Adr21)
        }
        Inst::Adrp {
            rd,
            sym,
            addend,
            kind,
        } => {
            let r = match kind {
                PageKind::Abs => Aarch64Reloc::AdrPrelPgHi21,
                PageKind::Got => Aarch64Reloc::AdrGotPage,
                PageKind::GotTprel => Aarch64Reloc::TlsIeAdrGotTprelPage21,
            };
            if kind != PageKind::Abs && addend != 0 {
                return err(i, "an addend on a GOT page");
            }
            Ok(Encoded {
                word: 0x9000_0000 | zr(i, rd)?,
                reloc: Some((sym, r, addend)),
                label: None,
            })
        }
        Inst::Dmb(b) => {
            let crm = match b {
                Barrier::Ishld => 9,
                Barrier::Ishst => 10,
                Barrier::Ish => 11,
                Barrier::Sy => 15,
            };
            plain(0xd503_30bf | crm << 8)
        }
        Inst::Svc(n) => plain(0xd400_0001 | (n as u32) << 5),
        Inst::Brk(n) => plain(0xd420_0000 | (n as u32) << 5),
        Inst::Hint(n) => {
            if n > 127 {
                return err(i, "hint over 7 bits");
            }
            plain(0xd503_201f | (n as u32) << 5)
        }
        Inst::Mrs { rt, reg } => plain(0xd530_0000 | sysreg(reg) | zr(i, rt)?),
        Inst::Msr { reg, rt } => plain(0xd510_0000 | sysreg(reg) | zr(i, rt)?),
        Inst::FMov { size, rd, rn } => {
            plain(0x1e20_4000 | ftype(size) | fpr(i, rn)? << 5 | fpr(i, rd)?)
        }
        Inst::FMovToGpr { size, rd, rn } => {
            let s = if size == FSize::D { 1 << 31 } else { 0 };
            plain(s | 0x1e26_0000 | ftype(size) | fpr(i, rn)? << 5 | zr(i, rd)?)
        }
        Inst::FMovFromGpr { size, rd, rn } => {
            let s = if size == FSize::D { 1 << 31 } else { 0 };
            plain(s | 0x1e27_0000 | ftype(size) | zr(i, rn)? << 5 | fpr(i, rd)?)
        }
        Inst::MovV { rd, rn } => {
            let n = fpr(i, rn)?;
            plain(0x4ea0_1c00 | n << 16 | n << 5 | fpr(i, rd)?)
        }
        Inst::FMovTop { to_gpr, g, v } => {
            if to_gpr {
                plain(0x9eae_0000 | fpr(i, v)? << 5 | zr(i, g)?)
            } else {
                plain(0x9eaf_0000 | zr(i, g)? << 5 | fpr(i, v)?)
            }
        }
        Inst::FMovImm { size, rd, imm8 } => {
            plain(0x1e20_1000 | ftype(size) | (imm8 as u32) << 13 | fpr(i, rd)?)
        }
        Inst::FUn { op, size, rd, rn } => {
            let opcode = match op {
                FUnOp::Abs => 1,
                FUnOp::Neg => 2,
                FUnOp::Sqrt => 3,
            };
            plain(0x1e20_4000 | ftype(size) | opcode << 15 | fpr(i, rn)? << 5 | fpr(i, rd)?)
        }
        Inst::FBin {
            op,
            size,
            rd,
            rn,
            rm,
        } => plain(
            0x1e20_0800
                | ftype(size)
                | fpr(i, rm)? << 16
                | (op as u32) << 12
                | fpr(i, rn)? << 5
                | fpr(i, rd)?,
        ),
        Inst::FCmp { e, size, rn, rm } => {
            let (m, zero) = match rm {
                Some(r) => (fpr(i, r)?, 0),
                None => (0, 8),
            };
            plain(0x1e20_2000 | ftype(size) | m << 16 | fpr(i, rn)? << 5 | (e as u32) << 4 | zero)
        }
        Inst::FCsel {
            size,
            rd,
            rn,
            rm,
            cond,
        } => plain(
            0x1e20_0c00
                | ftype(size)
                | fpr(i, rm)? << 16
                | cond.bits() << 12
                | fpr(i, rn)? << 5
                | fpr(i, rd)?,
        ),
        Inst::FCvt { to, rd, rn } => {
            let (from, opc) = match to {
                FSize::S => (FSize::D, 0),
                FSize::D => (FSize::S, 1),
            };
            plain(0x1e22_4000 | ftype(from) | opc << 15 | fpr(i, rn)? << 5 | fpr(i, rd)?)
        }
        Inst::FCvtHalf {
            to_half,
            other,
            rd,
            rn,
        } => {
            // ftype (source) and opc (destination): h is 3, s 0, d 1.
            let o = ftype(other) >> 22;
            let (src, dst) = if to_half { (o, 3) } else { (3, o) };
            plain(0x1e22_4000 | src << 22 | dst << 15 | fpr(i, rn)? << 5 | fpr(i, rd)?)
        }
        Inst::IntToFp {
            signed,
            isize,
            fsize,
            rd,
            rn,
        } => plain(
            sf(isize)
                | (if signed { 0x1e22_0000 } else { 0x1e23_0000 })
                | ftype(fsize)
                | zr(i, rn)? << 5
                | fpr(i, rd)?,
        ),
        Inst::FpToInt {
            signed,
            isize,
            fsize,
            rd,
            rn,
        } => plain(
            sf(isize)
                | (if signed { 0x1e38_0000 } else { 0x1e39_0000 })
                | ftype(fsize)
                | fpr(i, rn)? << 5
                | zr(i, rd)?,
        ),
    }
}

fn sysreg(r: SysReg) -> u32 {
    // o0 (op0 - 2) : op1 : CRn : CRm : op2, at bits 19..5.
    let (op0, op1, crn, crm, op2) = match r {
        SysReg::TpidrEl0 => (3, 3, 13, 0, 2),
        SysReg::Fpcr => (3, 3, 4, 4, 0),
        SysReg::Fpsr => (3, 3, 4, 4, 1),
    };
    (op0 - 2) << 19 | op1 << 16 | crn << 12 | crm << 8 | op2 << 5
}

fn encode_mem(i: &Inst, op: MemOp, rt: Reg, addr: Addr) -> R<Encoded> {
    let (size, v, opc) = op.fields();
    let rt = match (rt, op.is_fp()) {
        (Reg::G(g), false) => zr(i, g)?,
        (Reg::V(f), true) => fpr(i, f)?,
        _ => return err(i, "register file does not match the access"),
    };
    let bytes = op.bytes();
    let common = size << 30 | v << 26 | opc << 22 | rt;
    match addr {
        Addr::UImm { base, off } => {
            if off % bytes != 0 || off / bytes > 0xfff {
                return err(i, "offset not a multiple of the size up to 4095 of them");
            }
            plain(common | 0x3900_0000 | (off / bytes) << 10 | sp(i, base)? << 5)
        }
        Addr::Unscaled { base, off } => {
            plain(common | 0x3800_0000 | imm9(i, off)? | sp(i, base)? << 5)
        }
        Addr::Post { base, off } => plain(common | 0x3800_0400 | imm9(i, off)? | sp(i, base)? << 5),
        Addr::Pre { base, off } => plain(common | 0x3800_0c00 | imm9(i, off)? | sp(i, base)? << 5),
        Addr::RegOff {
            base,
            index,
            ext,
            scaled,
        } => plain(
            common
                | 0x3820_0800
                | zr(i, index)? << 16
                | ext.bits() << 13
                | (scaled as u32) << 12
                | sp(i, base)? << 5,
        ),
        Addr::Lo12 {
            base,
            sym,
            addend,
            kind,
        } => {
            let r = match kind {
                LoKind::Abs => Aarch64Reloc::LdstAbsLo12Nc(bytes as u8),
                LoKind::Got if op == MemOp::LdrX => Aarch64Reloc::Ld64GotLo12Nc,
                LoKind::GotTprel if op == MemOp::LdrX => Aarch64Reloc::TlsIeLd64GotTprelLo12Nc,
                _ => return err(i, "GOT entries are loaded by 64-bit ldr only"),
            };
            if kind != LoKind::Abs && addend != 0 {
                return err(i, "an addend on a GOT entry");
            }
            Ok(Encoded {
                word: common | 0x3900_0000 | sp(i, base)? << 5,
                reloc: Some((sym, r, addend)),
                label: None,
            })
        }
        Addr::Literal(t) => {
            let lopc = match op {
                MemOp::LdrW | MemOp::LdrS => 0,
                MemOp::LdrX | MemOp::LdrD => 1,
                MemOp::Ldrsw | MemOp::LdrQ => 2,
                _ => return err(i, "no literal form of this access"),
            };
            with_target(
                i,
                lopc << 30 | 0x1800_0000 | v << 26 | rt,
                t,
                LabelKind::Branch19,
            )
        }
    }
}

/// Patch a resolved label displacement (bytes from the instruction) into a word.
pub fn patch_label(word: u32, kind: LabelKind, disp: i64) -> Result<u32, String> {
    let fits = |bits: u32, v: i64| v >= -(1 << (bits - 1)) && v < (1 << (bits - 1));
    match kind {
        LabelKind::Adr21 => {
            if !fits(21, disp) {
                return Err(format!("adr target {disp} bytes away"));
            }
            let d = disp as u32;
            Ok(word | (d & 3) << 29 | ((d >> 2) & 0x7ffff) << 5)
        }
        _ => {
            if disp % 4 != 0 {
                return Err("branch to a misaligned label".into());
            }
            let w = disp / 4;
            let (bits, at) = match kind {
                LabelKind::Branch26 => (26, 0),
                LabelKind::Branch19 => (19, 5),
                _ => (14, 5),
            };
            if !fits(bits, w) {
                return Err(format!("branch target {disp} bytes away is out of range"));
            }
            Ok(word | ((w as u32) & ((1 << bits) - 1)) << at)
        }
    }
}

/// The bytes of one assembled function, its symbol fixups (offsets from the function start)
/// and where each label landed.
#[derive(Clone, Debug, Default)]
pub struct Assembled {
    pub bytes: Vec<u8>,
    pub fixups: Vec<Fixup>,
    pub labels: HashMap<Label, u32>,
}

/// Assemble a function: every instruction is one word, so labels are placed in one pass and
/// branches patched in a second.
pub fn assemble(insts: &[Inst]) -> Result<Assembled, String> {
    let mut labels = HashMap::new();
    let mut pc = 0u32;
    for i in insts {
        match i {
            Inst::Label(l) => {
                if labels.insert(*l, pc).is_some() {
                    return Err(format!("label {l:?} placed twice"));
                }
            }
            _ => pc += 4,
        }
    }
    let mut out = Assembled {
        bytes: Vec::with_capacity(pc as usize),
        fixups: Vec::new(),
        labels: HashMap::new(),
    };
    let mut pc = 0u32;
    for i in insts {
        if let Inst::Label(_) = i {
            continue;
        }
        if let Inst::JumpTableEntry { target, base } = i {
            let at = |l: &Label| {
                labels
                    .get(l)
                    .copied()
                    .ok_or_else(|| format!("jump table label {l:?} is never placed"))
            };
            let d = at(target)? as i64 - at(base)? as i64;
            out.bytes.extend_from_slice(&(d as i32).to_le_bytes());
            pc += 4;
            continue;
        }
        let e = encode(i)?;
        let mut word = e.word;
        if let Some((l, kind)) = e.label {
            let at = *labels
                .get(&l)
                .ok_or_else(|| format!("branch to label {l:?}, which is never placed"))?;
            word = patch_label(word, kind, at as i64 - pc as i64)?;
        }
        if let Some((sym, r, addend)) = e.reloc {
            out.fixups.push(Fixup {
                offset: pc,
                sym,
                kind: RelocKind::Aarch64(r),
                addend,
            });
        }
        out.bytes.extend_from_slice(&word.to_le_bytes());
        pc += 4;
    }
    out.labels = labels;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmask_immediates() {
        // Known encodings (N:immr:imms) from the architecture's examples.
        assert_eq!(bitmask_imm(0xff, 64), Some(0b1_000000_000111));
        assert_eq!(bitmask_imm(0xff, 32), Some(0b0_000000_000111));
        assert_eq!(
            bitmask_imm(0x5555_5555_5555_5555, 64),
            Some(0b0_000000_111100)
        );
        assert_eq!(
            bitmask_imm(0xaaaa_aaaa_aaaa_aaaa, 64),
            Some(0b0_000001_111100)
        );
        assert_eq!(
            bitmask_imm(0x8000_0000_0000_0000, 64),
            Some(0b1_000001_000000)
        );
        assert_eq!(bitmask_imm(0xffff_fffe, 32), Some(0b0_011111_011110));
        assert_eq!(bitmask_imm(0, 64), None);
        assert_eq!(bitmask_imm(u64::MAX, 64), None);
        assert_eq!(bitmask_imm(0xffff_ffff, 32), None);
        assert_eq!(bitmask_imm(0x1234, 64), None);
        assert_eq!(bitmask_imm(1 << 32, 32), None);
    }

    #[test]
    fn fmov_immediates() {
        assert_eq!(fmov_imm8(1.0), Some(0x70));
        assert_eq!(fmov_imm8(2.0), Some(0x00));
        assert_eq!(fmov_imm8(-0.5), Some(0xe0));
        assert_eq!(fmov_imm8(0.125), Some(0x40));
        assert_eq!(fmov_imm8(31.0), Some(0x3f));
        assert_eq!(fmov_imm8(0.0), None);
        assert_eq!(fmov_imm8(0.1), None);
    }

    #[test]
    fn refusals() {
        let e = encode(&Inst::AluImm {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: Gpr::ZR,
            rn: Gpr(0),
            imm12: 1,
            lsl12: false,
        });
        assert!(e.unwrap_err().contains("zero register"));
        let e = encode(&Inst::LogicImm {
            op: LogicOp::And,
            size: Size::X,
            rd: Gpr(0),
            rn: Gpr(1),
            imm: 0x1234,
        });
        assert!(e.unwrap_err().contains("bitmask"));
        let e = encode(&Inst::Mem {
            op: MemOp::LdrX,
            rt: Reg::G(Gpr(0)),
            addr: Addr::UImm {
                base: Gpr(1),
                off: 4,
            },
        });
        assert!(e.unwrap_err().contains("multiple"));
    }
}
