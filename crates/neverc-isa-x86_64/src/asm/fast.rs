//! The encoder's fast path: the instruction shapes code generation produces almost always
//! (register and `disp(base[,index,scale])` operands, immediates; no symbol, label, segment
//! or `%rip` operand, no high-byte register), encoded straight into the output. Anything
//! else makes [`fast`] return 0 (its output window unused), and the general path in `encode.rs`
//! encodes it with its checks and error messages. The bytes are those the general path gives
//! (GNU as's choices, see `encode.rs`); the referee and fuzz tests check both through
//! `encode`, which tries this path first.
//!
//! What makes it cheap: no intermediate description of the instruction, and every field
//! written at a fixed place of the output (displacements and immediates at full width, the
//! length advanced by what is used): [`fast`] writes into a 32-byte window the caller
//! provides (the assembler's byte buffer itself) and returns the length used.

use super::encode::{byte_rex, imm_width, mov64_imm, norm_imm, rm_byte_rex as rm_rex, Mov64Imm};
use super::inst::*;
use neverc_codegen::reloc::{Fixup, RelocKind};

/// A ModRM operand of the fast kind: a register number, or a memory operand (checked to
/// be `disp(base[,index,scale])` by [`modrm`]).
#[derive(Clone, Copy)]
enum FastRm<'a> {
    Reg(u8),
    Mem(&'a Mem),
}

#[inline(always)]
fn rm_of(rm: &Rm) -> FastRm<'_> {
    match rm {
        Rm::Reg(r) => FastRm::Reg(r.0),
        Rm::Mem(m) => FastRm::Mem(m),
    }
}

#[inline(always)]
fn xm_of(x: &XmmMem) -> FastRm<'_> {
    match x {
        XmmMem::Xmm(r) => FastRm::Reg(r.0),
        XmmMem::Mem(m) => FastRm::Mem(m),
    }
}

/// The operand-size prefix (0x66 or none) and REX.W of an integer operation.
#[inline(always)]
fn size_bits(size: Size) -> (u8, bool) {
    (if size == Size::S16 { 0x66 } else { 0 }, size == Size::S64)
}

/// The window an instruction is written into: at least 15 bytes of it are kept, the rest is
/// room for full-width writes of the last fields (its contents past the length returned are
/// unspecified).
pub(crate) type Window = [u8; 32];

/// An instruction with a ModRM byte: the legacy prefix `pfx` (0x66, 0xF2 or 0xF3; 0 for
/// none), REX (W from `w`, forced by `force` for an spl/bpl/sil/dil operand), `op_len` bytes
/// of `op`, ModRM with the register field `reg` and the operand `rm` (SIB and displacement
/// as needed), then `imm_len` bytes of `imm`: the length, or 0 (nothing meaningful
/// written) when an operand is not of the fast kind.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn modrm(
    b: &mut Window,
    pfx: u8,
    w: bool,
    force: bool,
    op: [u8; 3],
    op_len: usize,
    reg: u8,
    rm: FastRm,
    imm: i64,
    imm_len: usize,
) -> usize {
    if reg > 15 {
        return 0;
    }
    let mut rex = (u8::from(w) << 3) | ((reg & 8) >> 1);
    let r = (reg & 7) << 3;
    let (modrm, sib, sib_len, disp, disp_len);
    match rm {
        FastRm::Reg(x) => {
            if x > 15 {
                return 0;
            }
            rex |= x >> 3;
            (modrm, sib, sib_len, disp, disp_len) = (0xC0 | r | (x & 7), 0, 0, 0, 0);
        }
        FastRm::Mem(m) => {
            let Some(base) = m.base else { return 0 };
            if base.0 > 15 || m.sym.is_some() || m.label.is_some() || m.rip || m.seg.is_some() {
                return 0;
            }
            rex |= base.0 >> 3;
            let low = base.0 & 7;
            // rbp/r13 as a base cannot use mod 00.
            let (md, dl) = if m.disp == 0 && low != 5 {
                (0x00, 0)
            } else if (-128..=127).contains(&m.disp) {
                (0x40, 1)
            } else {
                (0x80, 4)
            };
            (disp, disp_len) = (m.disp, dl);
            match m.index {
                None if low == 4 => {
                    // rsp/r12 as a base need a SIB byte.
                    (modrm, sib, sib_len) = (md | r | 4, 0x24, 1);
                }
                None => (modrm, sib, sib_len) = (md | r | low, 0, 0),
                Some((i, s)) => {
                    // %rsp cannot be an index.
                    if i.0 > 15 || i.0 == 4 {
                        return 0;
                    }
                    let ss = match s {
                        1 => 0,
                        2 => 1,
                        4 => 2,
                        8 => 3,
                        _ => return 0,
                    };
                    rex |= (i.0 & 8) >> 2;
                    (modrm, sib, sib_len) = (md | r | 4, (ss << 6) | ((i.0 & 7) << 3) | low, 1);
                }
            }
        }
    }
    b[0] = pfx;
    let mut n = usize::from(pfx != 0);
    if rex != 0 || force {
        b[n] = 0x40 | rex;
        n += 1;
    }
    b[n..n + 3].copy_from_slice(&op);
    n += op_len;
    b[n] = modrm;
    b[n + 1] = sib;
    n += 1 + sib_len;
    b[n..n + 4].copy_from_slice(&disp.to_le_bytes());
    n += disp_len;
    b[n..n + 8].copy_from_slice(&imm.to_le_bytes());
    n += imm_len;
    n
}

/// An instruction without ModRM: prefix, REX, opcode (register `plus_r` added to its last
/// byte, the `+r` forms; 0 for none), then `imm_len` bytes of `imm`: the length, or 0 for
/// a register number the fast path does not take.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn opcode(
    b: &mut Window,
    pfx: u8,
    w: bool,
    force: bool,
    mut op: [u8; 3],
    op_len: usize,
    plus_r: u8,
    imm: i64,
    imm_len: usize,
) -> usize {
    if plus_r > 15 {
        return 0;
    }
    let rex = (u8::from(w) << 3) | (plus_r >> 3);
    b[0] = pfx;
    let mut n = usize::from(pfx != 0);
    if rex != 0 || force {
        b[n] = 0x40 | rex;
        n += 1;
    }
    op[op_len - 1] += plus_r & 7;
    b[n..n + 3].copy_from_slice(&op);
    n += op_len;
    b[n..n + 8].copy_from_slice(&imm.to_le_bytes());
    n += imm_len;
    n
}

/// The commonest instructions at -O0 by far, loads and stores of 32 or 64 bits between a
/// register and `disp(base)` (a frame slot, a pointer), encoded with the least work: the
/// bytes [`modrm`] gives them, or 0 for any other shape.
#[inline(always)]
fn mov_base(size: Size, src: &Rmi, dst: &Rm, out: &mut Window) -> usize {
    let w = match size {
        Size::S32 => 0,
        Size::S64 => 8,
        _ => return 0,
    };
    let (op, reg, m) = match (src, dst) {
        (Rmi::Reg(s), Rm::Mem(m)) => (0x89, s.0, m),
        (Rmi::Mem(m), Rm::Reg(d)) => (0x8B, d.0, m),
        _ => return 0,
    };
    let Some(base) = m.base else { return 0 };
    if (reg | base.0) > 15
        || m.index.is_some()
        || m.sym.is_some()
        || m.label.is_some()
        || m.rip
        || m.seg.is_some()
    {
        return 0;
    }
    let rex = w | ((reg & 8) >> 1) | (base.0 >> 3);
    out[0] = 0x40 | rex;
    let mut n = usize::from(rex != 0);
    let low = base.0 & 7;
    let d = m.disp;
    // rbp/r13 as a base cannot use mod 00; rsp/r12 need a SIB byte.
    let (md, dl) = if d == 0 && low != 5 {
        (0x00, 0)
    } else if d as i8 as i32 == d {
        (0x40, 1)
    } else {
        (0x80, 4)
    };
    out[n] = op;
    out[n + 1] = md | ((reg & 7) << 3) | low;
    out[n + 2] = 0x24;
    n += 2 + usize::from(low == 4);
    out[n..n + 4].copy_from_slice(&d.to_le_bytes());
    n + dl
}

/// Encodes `inst` into `out` if it is of a shape the fast path takes, `at` being its offset
/// (for the fixup of a call, pushed to `fixups`): its length, or 0 when the general path
/// must encode it.
#[inline(always)]
pub(crate) fn fast(inst: &Inst, out: &mut Window, fixups: &mut Vec<Fixup>, at: u32) -> usize {
    use Inst::*;
    match inst {
        Mov { size, src, dst } => {
            let size = *size;
            let n = mov_base(size, src, dst, out);
            if n != 0 {
                return n;
            }
            let b = size == Size::S8;
            let (p, w) = size_bits(size);
            match (src, dst) {
                (Rmi::Reg(s), _) => {
                    let force = byte_rex(size, *s) || rm_rex(size, dst);
                    let op = if b { 0x88 } else { 0x89 };
                    modrm(out, p, w, force, [op, 0, 0], 1, s.0, rm_of(dst), 0, 0)
                }
                (Rmi::Mem(m), Rm::Reg(d)) => {
                    let op = if b { 0x8A } else { 0x8B };
                    let force = byte_rex(size, *d);
                    modrm(out, p, w, force, [op, 0, 0], 1, d.0, FastRm::Mem(m), 0, 0)
                }
                (Rmi::Mem(_), Rm::Mem(_)) => 0,
                (Rmi::Imm(v), Rm::Reg(d)) => {
                    if size == Size::S64 {
                        return match mov64_imm(*v) {
                            Mov64Imm::Movl(u) => {
                                opcode(out, 0, false, false, [0xB8, 0, 0], 1, d.0, u as i64, 4)
                            }
                            Mov64Imm::Movq(s) => {
                                let rm = FastRm::Reg(d.0);
                                modrm(out, 0, true, false, [0xC7, 0, 0], 1, 0, rm, s as i64, 4)
                            }
                            Mov64Imm::Movabs(v) => {
                                opcode(out, 0, true, false, [0xB8, 0, 0], 1, d.0, v, 8)
                            }
                        };
                    }
                    let Some(v) = norm_imm(size, *v) else {
                        return 0;
                    };
                    let op = if b { 0xB0 } else { 0xB8 };
                    let (force, n) = (byte_rex(size, *d), imm_width(size) as usize);
                    opcode(out, p, w, force, [op, 0, 0], 1, d.0, v, n)
                }
                (Rmi::Imm(v), Rm::Mem(m)) => {
                    let Some(v) = norm_imm(size, *v) else {
                        return 0;
                    };
                    let op = if b { 0xC6 } else { 0xC7 };
                    let n = imm_width(size) as usize;
                    modrm(out, p, w, false, [op, 0, 0], 1, 0, FastRm::Mem(m), v, n)
                }
            }
        }
        Alu { op, size, src, dst } => {
            let (size, digit) = (*size, *op as u8);
            // op*8 + 0..5: r/m8,r8  r/m,r  r8,r/m8  r,r/m  al,imm8  eax,imm32
            let b8 = digit << 3;
            let b = size == Size::S8;
            let (p, w) = size_bits(size);
            match (src, dst) {
                (Rmi::Reg(s), _) => {
                    let force = byte_rex(size, *s) || rm_rex(size, dst);
                    let o = if b { b8 } else { b8 + 1 };
                    modrm(out, p, w, force, [o, 0, 0], 1, s.0, rm_of(dst), 0, 0)
                }
                (Rmi::Mem(m), Rm::Reg(d)) => {
                    let o = if b { b8 + 2 } else { b8 + 3 };
                    let force = byte_rex(size, *d);
                    modrm(out, p, w, force, [o, 0, 0], 1, d.0, FastRm::Mem(m), 0, 0)
                }
                (Rmi::Mem(_), Rm::Mem(_)) => 0,
                (Rmi::Imm(v), _) => {
                    let Some(v) = norm_imm(size, *v) else {
                        return 0;
                    };
                    let acc = matches!(dst, Rm::Reg(Gpr(0)));
                    let force = rm_rex(size, dst);
                    let n = imm_width(size) as usize;
                    if b {
                        if acc {
                            opcode(out, 0, false, force, [b8 + 4, 0, 0], 1, 0, v, 1)
                        } else {
                            modrm(
                                out,
                                0,
                                false,
                                force,
                                [0x80, 0, 0],
                                1,
                                digit,
                                rm_of(dst),
                                v,
                                1,
                            )
                        }
                    } else if (-128..=127).contains(&v) {
                        modrm(out, p, w, force, [0x83, 0, 0], 1, digit, rm_of(dst), v, 1)
                    } else if acc {
                        opcode(out, p, w, force, [b8 + 5, 0, 0], 1, 0, v, n)
                    } else {
                        modrm(out, p, w, force, [0x81, 0, 0], 1, digit, rm_of(dst), v, n)
                    }
                }
            }
        }
        Test { size, src, dst } => {
            let size = *size;
            let b = size == Size::S8;
            let (p, w) = size_bits(size);
            match src {
                Rmi::Reg(s) => {
                    let force = byte_rex(size, *s) || rm_rex(size, dst);
                    let op = if b { 0x84 } else { 0x85 };
                    modrm(out, p, w, force, [op, 0, 0], 1, s.0, rm_of(dst), 0, 0)
                }
                Rmi::Imm(v) => {
                    let Some(v) = norm_imm(size, *v) else {
                        return 0;
                    };
                    let (force, n) = (rm_rex(size, dst), imm_width(size) as usize);
                    if matches!(dst, Rm::Reg(Gpr(0))) {
                        let op = if b { 0xA8 } else { 0xA9 };
                        opcode(out, p, w, force, [op, 0, 0], 1, 0, v, n)
                    } else {
                        let op = if b { 0xF6 } else { 0xF7 };
                        modrm(out, p, w, force, [op, 0, 0], 1, 0, rm_of(dst), v, n)
                    }
                }
                Rmi::Mem(_) => 0,
            }
        }
        Lea { size, src, dst } => {
            // (A symbolic operand is not of the fast kind.)
            let (p, w) = size_bits(*size);
            if *size == Size::S8 {
                return 0;
            }
            modrm(
                out,
                p,
                w,
                false,
                [0x8D, 0, 0],
                1,
                dst.0,
                FastRm::Mem(src),
                0,
                0,
            )
        }
        MovX {
            signed,
            from,
            to,
            src,
            dst,
        } => {
            let (op, len) = match (signed, from) {
                (false, Size::S8) => ([0x0F, 0xB6, 0], 2),
                (false, Size::S16) => ([0x0F, 0xB7, 0], 2),
                (true, Size::S8) => ([0x0F, 0xBE, 0], 2),
                (true, Size::S16) => ([0x0F, 0xBF, 0], 2),
                (true, Size::S32) => ([0x63, 0, 0], 1),
                _ => return 0,
            };
            let (from, to) = (*from, *to);
            if to.bytes() <= from.bytes()
                || to == Size::S8
                || (from == Size::S32 && to != Size::S64)
            {
                return 0;
            }
            let (p, w) = size_bits(to);
            let force = rm_rex(from, src);
            modrm(out, p, w, force, op, len, dst.0, rm_of(src), 0, 0)
        }
        Push { src } => opcode(out, 0, false, false, [0x50, 0, 0], 1, src.0, 0, 0),
        Pop { dst } => opcode(out, 0, false, false, [0x58, 0, 0], 1, dst.0, 0, 0),
        Unary { op, size, dst } => {
            let size = *size;
            let b = size == Size::S8;
            let (grp3, grp5) = if b { (0xF6, 0xFE) } else { (0xF7, 0xFF) };
            let (opc, digit) = match op {
                UnOp::Not => (grp3, 2),
                UnOp::Neg => (grp3, 3),
                UnOp::Mul => (grp3, 4),
                UnOp::Imul1 => (grp3, 5),
                UnOp::Div => (grp3, 6),
                UnOp::Idiv => (grp3, 7),
                UnOp::Inc => (grp5, 0),
                UnOp::Dec => (grp5, 1),
            };
            let (p, w) = size_bits(size);
            let force = rm_rex(size, dst);
            modrm(out, p, w, force, [opc, 0, 0], 1, digit, rm_of(dst), 0, 0)
        }
        Shift {
            op,
            size,
            amount,
            dst,
        } => {
            let size = *size;
            let b = u8::from(size != Size::S8);
            let (opc, imm, n) = match amount {
                Some(1) => (0xD0 + b, 0, 0),
                Some(k) => (0xC0 + b, *k as i64, 1),
                None => (0xD2 + b, 0, 0),
            };
            let (p, w) = size_bits(size);
            let force = rm_rex(size, dst);
            modrm(
                out,
                p,
                w,
                force,
                [opc, 0, 0],
                1,
                *op as u8,
                rm_of(dst),
                imm,
                n,
            )
        }
        Imul2 { size, src, dst } => {
            let (p, w) = size_bits(*size);
            if *size == Size::S8 {
                return 0;
            }
            modrm(
                out,
                p,
                w,
                false,
                [0x0F, 0xAF, 0],
                2,
                dst.0,
                rm_of(src),
                0,
                0,
            )
        }
        Imul3 {
            size,
            imm,
            src,
            dst,
        } => {
            if *size == Size::S8 {
                return 0;
            }
            let Some(v) = norm_imm(*size, *imm as i64) else {
                return 0;
            };
            let (p, w) = size_bits(*size);
            let (op, n) = if (-128..=127).contains(&v) {
                (0x6B, 1)
            } else {
                (0x69, imm_width(*size) as usize)
            };
            modrm(out, p, w, false, [op, 0, 0], 1, dst.0, rm_of(src), v, n)
        }
        SignExtendDx { size } | SignExtendAx { size } => {
            let op = if matches!(inst, SignExtendDx { .. }) {
                0x99
            } else {
                0x98
            };
            let (p, w) = size_bits(*size);
            if *size == Size::S8 {
                return 0;
            }
            opcode(out, p, w, false, [op, 0, 0], 1, 0, 0, 0)
        }
        Setcc { cond, dst } => {
            let force = rm_rex(Size::S8, dst);
            let op = [0x0F, 0x90 | cond.code(), 0];
            modrm(out, 0, false, force, op, 2, 0, rm_of(dst), 0, 0)
        }
        Cmov {
            cond,
            size,
            src,
            dst,
        } => {
            let (p, w) = size_bits(*size);
            let op = [0x0F, 0x40 | cond.code(), 0];
            if *size == Size::S8 {
                return 0;
            }
            modrm(out, p, w, false, op, 2, dst.0, rm_of(src), 0, 0)
        }
        CallSym { sym, kind } => {
            if !matches!(kind, RelocKind::Plt32 | RelocKind::Pc32) {
                return 0;
            }
            fixups.push(Fixup {
                offset: at + 1,
                sym: *sym,
                kind: *kind,
                addend: -4,
            });
            opcode(out, 0, false, false, [0xE8, 0, 0], 1, 0, 0, 4)
        }
        Ret => opcode(out, 0, false, false, [0xC3, 0, 0], 1, 0, 0, 0),
        Leave => opcode(out, 0, false, false, [0xC9, 0, 0], 1, 0, 0, 0),
        Nop => opcode(out, 0, false, false, [0x90, 0, 0], 1, 0, 0, 0),
        Ud2 => opcode(out, 0, false, false, [0x0F, 0x0B, 0], 2, 0, 0, 0),
        XmmMov { op, src, dst } => {
            let (p, load, store) = match op {
                XmmMovOp::Movss => (0xF3, 0x10, 0x11),
                XmmMovOp::Movsd => (0xF2, 0x10, 0x11),
                XmmMovOp::Movaps => (0, 0x28, 0x29),
                XmmMovOp::Movapd => (0x66, 0x28, 0x29),
                XmmMovOp::Movups => (0, 0x10, 0x11),
                XmmMovOp::Movupd => (0x66, 0x10, 0x11),
                XmmMovOp::Movdqa => (0x66, 0x6F, 0x7F),
                XmmMovOp::Movdqu => (0xF3, 0x6F, 0x7F),
            };
            match (src, dst) {
                (_, XmmMem::Xmm(d)) => {
                    let op = [0x0F, load, 0];
                    modrm(out, p, false, false, op, 2, d.0, xm_of(src), 0, 0)
                }
                (XmmMem::Xmm(s), XmmMem::Mem(m)) => {
                    let op = [0x0F, store, 0];
                    modrm(out, p, false, false, op, 2, s.0, FastRm::Mem(m), 0, 0)
                }
                (XmmMem::Mem(_), XmmMem::Mem(_)) => 0,
            }
        }
        Sse { op, src, dst } => {
            let (p, opc, _) = op.info();
            let op = [0x0F, opc, 0];
            modrm(out, p, false, false, op, 2, dst.0, xm_of(src), 0, 0)
        }
        MovGprToXmm { size, src, dst } => {
            let (p, w, opc) = match (size, src) {
                (Size::S32 | Size::S64, Rm::Reg(_)) | (Size::S32, Rm::Mem(_)) => {
                    (0x66, *size == Size::S64, 0x6E)
                }
                // gas spells `movq mem, %xmm` as the SSE2 F3 0F 7E load.
                (Size::S64, Rm::Mem(_)) => (0xF3, false, 0x7E),
                _ => return 0,
            };
            modrm(out, p, w, false, [0x0F, opc, 0], 2, dst.0, rm_of(src), 0, 0)
        }
        MovXmmToGpr { size, src, dst } => {
            let (w, opc) = match (size, dst) {
                (Size::S32 | Size::S64, Rm::Reg(_)) | (Size::S32, Rm::Mem(_)) => {
                    (*size == Size::S64, 0x7E)
                }
                // gas spells `movq %xmm, mem` as 66 0F D6.
                (Size::S64, Rm::Mem(_)) => (false, 0xD6),
                _ => return 0,
            };
            modrm(
                out,
                0x66,
                w,
                false,
                [0x0F, opc, 0],
                2,
                src.0,
                rm_of(dst),
                0,
                0,
            )
        }
        CvtSi2F {
            double,
            size,
            src,
            dst,
        } => {
            let p = if *double { 0xF2 } else { 0xF3 };
            if !matches!(size, Size::S32 | Size::S64) {
                return 0;
            }
            {
                let w = *size == Size::S64;
                modrm(
                    out,
                    p,
                    w,
                    false,
                    [0x0F, 0x2A, 0],
                    2,
                    dst.0,
                    rm_of(src),
                    0,
                    0,
                )
            }
        }
        CvtTF2Si {
            double,
            size,
            src,
            dst,
        } => {
            let p = if *double { 0xF2 } else { 0xF3 };
            if !matches!(size, Size::S32 | Size::S64) {
                return 0;
            }
            {
                let w = *size == Size::S64;
                modrm(
                    out,
                    p,
                    w,
                    false,
                    [0x0F, 0x2C, 0],
                    2,
                    dst.0,
                    xm_of(src),
                    0,
                    0,
                )
            }
        }
        _ => 0,
    }
}
