//! AAPCS32 (Procedure Call Standard for the Arm Architecture, 2023Q3) §6.5 "Parameter
//! Passing" for the base standard, and §6.1.2 / §6.5 stage C.1-C.2 for the VFP variant.

use crate::classify::{extension, homogeneous, natural_align, round, Builder, HaBase};
use crate::layout::layout_in;
use crate::plan::Flags;
use crate::types::Type;
use crate::Signature;

const S0: u16 = 64;
const D0: u16 = 256;

/// A co-processor register candidate (§6.1.2.1): a float, double, 64/128-bit vector or a
/// homogeneous aggregate of them. Returns the base and the member count.
fn cprc(ty: &Type, b: &Builder) -> Option<(HaBase, u32)> {
    let (base, n) = homogeneous(ty, b.m, &[8, 16])?;
    match base {
        HaBase::Float(4 | 8) | HaBase::Vector(_) => Some((base, n)),
        _ => None,
    }
}

/// The VFP register file as 16 single-precision slots (s0-s15 = d0-d7 = q0-q3).
struct Vfp {
    used: [bool; 16],
    /// C.2: after a CPRC went to the stack, no more back-filling.
    closed: bool,
}

impl Vfp {
    /// C.1: the lowest-numbered block of free registers that fits (back-filling allowed).
    /// Returns the first s-slot index.
    fn allocate(&mut self, base: HaBase, n: u32) -> Option<usize> {
        if self.closed {
            return None;
        }
        let step = (base.size() / 4) as usize; // s-slots per member, also the alignment
        let need = step * n as usize;
        let mut at = 0;
        while at + need <= 16 {
            if self.used[at..at + need].iter().all(|u| !u) {
                self.used[at..at + need].iter_mut().for_each(|u| *u = true);
                return Some(at);
            }
            at += step;
        }
        self.closed = true;
        self.used = [true; 16];
        None
    }
}

/// Register pieces of a CPRC starting at s-slot `at`.
fn vfp_pieces(base: HaBase, n: u32, at: usize, mut f: impl FnMut(u32, u32, u16)) {
    for k in 0..n {
        let slot = at as u32 + k * base.size() / 4;
        match base.size() {
            4 => f(k * 4, 4, S0 + slot as u16),
            // A q register is two d registers: give each half its d number.
            16 => {
                f(k * 16, 8, D0 + (slot / 2) as u16);
                f(k * 16 + 8, 8, D0 + (slot / 2) as u16 + 1);
            }
            _ => f(k * 8, 8, D0 + (slot / 2) as u16),
        }
    }
}

/// The alignment C.3 and C.6 go by (§6.5, "natural alignment"), as gcc computes it: that of
/// [`natural_align`], except that a bit-field, zero-width ones included, counts with the
/// alignment of its declared type whatever `packed` or `#pragma pack` say.
fn arg_align(ty: &Type, b: &Builder) -> u32 {
    let na = natural_align(ty, b.m);
    match ty.unaligned() {
        Type::Record(r) => r
            .fields
            .iter()
            .filter(|f| f.bits.is_some())
            .map(|f| layout_in(&f.ty, b.m).align)
            .fold(na, u32::max),
        _ => na,
    }
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature, vfp: bool) {
    // §6.1.2.1 / §6.4.1 note: a variadic function uses the base standard for everything.
    let hard = vfp;
    let vfp = vfp && sig.variadic.is_none();
    let mut ncrn = 0u16;
    let mut nsaa = 0u32;

    // Results (§6.4): CPRCs in s0/d0/q0 under VFP; fundamental types up to 4 bytes in r0
    // (extended), 8-byte ones (64-bit containerized vectors too) in r0-r1, "a 128-bit
    // containerized vector is returned in r0-r3"; composites (complex types are laid out as
    // structs, §8.1.3) up to 4 bytes in r0; else memory, whose address is passed in r0.
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        let composite = matches!(sig.ret.unaligned(), Type::Record(_) | Type::Complex(_));
        let size_limit = if matches!(sig.ret.unaligned(), Type::Vector(..)) {
            16
        } else {
            8
        };
        match cprc(&sig.ret, b).filter(|_| vfp) {
            Some((base, n)) => {
                vfp_pieces(base, n, 0, |o, s, r| b.ret_reg(o, s, align, r, Flags::NONE))
            }
            None if size == 0 => {}
            None if (composite && size > 4) || size > size_limit => {
                b.ret_reg(0, 4, 4, 0, Flags::SRET);
                ncrn = 1;
            }
            None => {
                let ext = extension(&sig.ret, b.m, 32, false);
                for k in 0..size.div_ceil(4) {
                    b.ret_reg(k * 4, (size - k * 4).min(4), align, k as u16, ext);
                }
            }
        }
    }

    let mut regs = Vfp {
        used: [false; 16],
        closed: false,
    };
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vflag = if sig.is_vararg(i) {
            Flags::VARARG
        } else {
            Flags::NONE
        };
        let double_aligned = arg_align(ty, b) >= 8;
        if size == 0 {
            // An empty record takes no register and no stack, but gcc still applies C.3
            // and C.6 to it: a doubleword-aligned one rounds the NCRN up to an even
            // register (r3 then stays unused) or, once the core registers are gone, the
            // NSAA up to 8.
            if double_aligned {
                ncrn += ncrn % 2;
                if ncrn >= 4 {
                    nsaa = round(nsaa, 8);
                }
            }
            continue;
        }
        if vfp {
            if let Some((base, n)) = cprc(ty, b) {
                if let Some(at) = regs.allocate(base, n) {
                    vfp_pieces(base, n, at, |o, s, r| b.arg_reg(i, o, s, align, r, vflag));
                } else {
                    // C.2 (done by `allocate`) then C.6-C.8: on the stack.
                    if double_aligned {
                        nsaa = round(nsaa, 8);
                    }
                    b.arg_stack(i, 0, size, align, nsaa, vflag);
                    nsaa += round(size, 4);
                }
                continue;
            }
        }
        let flags = extension(ty, b.m, 32, false) | vflag;
        // C.3: 8-byte alignment takes an even register.
        if double_aligned && ncrn % 2 == 1 {
            ncrn += 1;
        }
        let words = size.div_ceil(4) as u16;
        if ncrn + words <= 4 {
            // C.4: wholly in core registers.
            for k in 0..words as u32 {
                b.arg_reg(i, k * 4, (size - k * 4).min(4), align, ncrn, flags);
                ncrn += 1;
            }
        } else if ncrn < 4 && nsaa == 0 {
            // C.5: split between the remaining core registers and the stack.
            let in_regs = (4 - ncrn) as u32 * 4;
            for k in 0..(4 - ncrn) as u32 {
                b.arg_reg(i, k * 4, 4, align, ncrn + k as u16, flags);
            }
            ncrn = 4;
            b.arg_stack(i, in_regs, size - in_regs, align, 0, flags);
            nsaa = round(size - in_regs, 4);
        } else {
            // C.6-C.8.
            ncrn = 4;
            if double_aligned {
                nsaa = round(nsaa, 8);
            }
            b.arg_stack(i, 0, size, align, nsaa, flags);
            nsaa += round(size, 4);
        }
    }
    b.stack = round(nsaa, 8);
    // §6.1.1: r4-r11 are callee-saved; with VFP, s16-s31 (d8-d15).
    let mut saved: Vec<u16> = (4..=11).collect();
    if hard {
        saved.extend(D0 + 8..=D0 + 15);
    }
    b.callee_saved = saved;
}
