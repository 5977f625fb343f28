//! RISC-V ELF psABI (version 1.0), "Procedure Calling Convention": the integer convention
//! (ilp32, lp64) and the hardware floating-point convention (FLEN 32: ilp32f/lp64f, FLEN 64:
//! ilp32d/lp64d).

use crate::classify::{extension, round, Builder};
use crate::layout::{layout_in, record_layout_in};
use crate::plan::Flags;
use crate::types::Type;
use crate::{Machine, Signature};

const A0: u16 = 10;
const FA0: u16 = 42;

/// A member of a flattened struct for the FP convention: offset, size, is it floating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Member {
    offset: u32,
    size: u32,
    float: bool,
}

/// Flattens for the FP convention: "a struct containing just one floating-point real", "two
/// floating-point reals", or "one floating-point real and one integer", after flattening
/// nested structs and arrays. Returns `None` when the type has more than two members or
/// anything else (unions are never flattened, gcc). A bit-field counts as an integer of the
/// smallest power-of-two size holding its width, at the byte holding its first bit, as gcc
/// does.
fn flatten(ty: &Type, m: &Machine, base: u32, out: &mut Vec<Member>) -> Option<()> {
    let l = layout_in(ty, m);
    match ty {
        Type::Float(_) => out.push(Member {
            offset: base,
            size: l.size as u32,
            float: true,
        }),
        Type::Complex(_) => {
            let h = l.size as u32 / 2;
            out.push(Member {
                offset: base,
                size: h,
                float: true,
            });
            out.push(Member {
                offset: base + h,
                size: h,
                float: true,
            });
        }
        // "one floating-point real and one integer": a pointer is not an integer here (gcc
        // and clang both pass `struct { float f; void *p; }` by the integer convention).
        Type::Bool | Type::Int(_) | Type::Enum(_) => out.push(Member {
            offset: base,
            size: l.size as u32,
            float: false,
        }),
        Type::Aligned(t, _) => flatten(t, m, base, out)?,
        Type::Array(e, n) => {
            let es = layout_in(e, m).size as u32;
            for i in 0..(*n).min(3) as u32 {
                flatten(e, m, base + i * es, out)?;
            }
            if *n > 2 {
                return None;
            }
        }
        Type::Record(r) if !r.is_union => {
            let rl = record_layout_in(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                match f.bits {
                    Some(0) => {}
                    // gcc gives a bit-field of width w the smallest integer of 1, 2, 4 or 8
                    // bytes holding w bits, at the byte of its first bit; the register gets
                    // that many bytes from there (part of a straddling field may miss it).
                    Some(w) => out.push(Member {
                        offset: base + fl.offset() as u32,
                        size: w.div_ceil(8).next_power_of_two(),
                        float: false,
                    }),
                    None => flatten(&f.ty, m, base + fl.offset() as u32, out)?,
                }
                if out.len() > 2 {
                    return None;
                }
            }
        }
        _ => return None,
    }
    (out.len() <= 2).then_some(())
}

/// gcc's second way into FP registers: a value whose machine mode is that of a float or a
/// complex float. A struct takes the mode of a member that fills it when every other member
/// is empty (so `struct { union {} u; double d; }`, which does not flatten, travels in fa0),
/// an array of one element that of its element; under-aligned (packed) ones keep an integer
/// mode, and unions never take a float mode.
fn float_mode(ty: &Type, m: &Machine) -> Option<Vec<Member>> {
    let l = layout_in(ty, m);
    match ty {
        Type::Float(_) => Some(vec![Member {
            offset: 0,
            size: l.size as u32,
            float: true,
        }]),
        Type::Complex(_) => {
            let h = l.size as u32 / 2;
            Some(
                [0, h]
                    .map(|offset| Member {
                        offset,
                        size: h,
                        float: true,
                    })
                    .to_vec(),
            )
        }
        Type::Aligned(t, _) if l.align >= layout_in(t, m).align => float_mode(t, m),
        Type::Array(e, 1) => float_mode(e, m),
        Type::Record(r) if !r.is_union => {
            let rl = record_layout_in(r, m);
            let mut filling = None;
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                if fl.bit_size == 0 {
                    continue;
                }
                if f.bits.is_some() || fl.bit_size != 8 * l.size || filling.is_some() {
                    return None;
                }
                filling = Some(&f.ty);
            }
            let ms = float_mode(filling?, m)?;
            // A float's alignment is its size.
            (l.align >= ms[0].size).then_some(ms)
        }
        _ => None,
    }
}

/// The FP-convention shape of a type, if it has one for this FLEN and XLEN.
fn fp_shape(ty: &Type, m: &Machine, flen: u32, xlen: u32) -> Option<Vec<Member>> {
    if flen == 0 {
        return None;
    }
    let size = layout_in(ty, m).size as u32;
    let mut ms = Vec::new();
    if flatten(ty, m, 0, &mut ms).is_none() {
        ms = float_mode(ty, m)?;
    }
    // A bit-field's integer may reach past the end of a packed struct: gcc passes only the
    // bytes that exist.
    for x in &mut ms {
        x.size = x.size.min(size.saturating_sub(x.offset));
    }
    let floats = ms.iter().filter(|x| x.float).count();
    let ok_sizes = ms.iter().all(|x| {
        if x.float {
            x.size * 8 <= flen
        } else {
            x.size * 8 <= xlen
        }
    });
    // One float, two floats, or one float and one integer.
    (ok_sizes && floats >= 1 && !ms.is_empty()).then_some(ms)
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature, flen: u32) {
    let xlen = b.m.data_model.pointer.size * 8;
    let xb = xlen / 8;
    let (mut ngpr, mut nfpr, mut stack) = (0u16, 0u16, 0u32);
    let ext_of = |ty: &Type, b: &Builder| extension(ty, b.m, xlen, xlen == 64);

    // "Values are returned in the same manner as a first named argument of the same type
    // would be passed. If such an argument would have been passed by reference, the caller
    // allocates memory for the return value, and passes the address as an implicit first
    // parameter."
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        if let Some(ms) = fp_shape(&sig.ret, b.m, flen, xlen) {
            let (mut f, mut g) = (0, 0);
            for x in ms {
                if x.float {
                    b.ret_reg(x.offset, x.size, align, FA0 + f, Flags::NONE);
                    f += 1;
                } else {
                    b.ret_reg(x.offset, x.size, align, A0 + g, Flags::NONE);
                    g += 1;
                }
            }
        } else if size > 2 * xb {
            b.ret_reg(0, xb, xb, A0, Flags::SRET);
            ngpr = 1;
        } else if size > 0 {
            let ext = ext_of(&sig.ret, b);
            for k in 0..size.div_ceil(xb) {
                b.ret_reg(k * xb, (size - k * xb).min(xb), align, A0 + k as u16, ext);
            }
        }
    }

    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vararg = sig.is_vararg(i);
        let vflag = if vararg { Flags::VARARG } else { Flags::NONE };
        if size == 0 {
            // "Empty structs or union arguments ... are ignored by C compilers". They take no
            // register, but once the registers are used up gcc still aligns the stack slot
            // for an over-aligned empty record (the next argument moves to the boundary).
            if ngpr >= 8 {
                stack = round(stack, align.clamp(xb, 16));
            }
            continue;
        }
        // Hardware FP convention, named arguments only ("variadic arguments are passed
        // according to the integer calling convention").
        if !vararg {
            if let Some(ms) = fp_shape(ty, b.m, flen, xlen) {
                let nf = ms.iter().filter(|x| x.float).count() as u16;
                let ng = ms.len() as u16 - nf;
                if nfpr + nf <= 8 && ngpr + ng <= 8 {
                    for x in ms {
                        if x.float {
                            b.arg_reg(i, x.offset, x.size, align, FA0 + nfpr, Flags::NONE);
                            nfpr += 1;
                        } else {
                            b.arg_reg(i, x.offset, x.size, align, A0 + ngpr, Flags::NONE);
                            ngpr += 1;
                        }
                    }
                    continue;
                }
            }
        }
        // Integer convention. "Aggregates larger than 2×XLEN bits are passed by reference";
        // so are scalars wider than 2×XLEN (long double on RV32).
        let (psize, palign, mut flags) = if size > 2 * xb {
            (xb, xb, Flags::BYREF)
        } else {
            (size, align, ext_of(ty, b))
        };
        flags |= vflag;
        // "variadic arguments with 2×XLEN-bit alignment and size at most 2×XLEN bits are
        // passed in an aligned register pair".
        if vararg && palign == 2 * xb && psize <= 2 * xb && ngpr % 2 == 1 {
            ngpr += 1;
        }
        let words = psize.div_ceil(xb) as u16;
        if ngpr + words <= 8 {
            for k in 0..words as u32 {
                b.arg_reg(
                    i,
                    k * xb,
                    (psize - k * xb).min(xb),
                    palign,
                    A0 + ngpr,
                    flags,
                );
                ngpr += 1;
            }
        } else if ngpr < 8 {
            // "If exactly one register is available, the low-order XLEN bits are passed in
            // the register and the high-order XLEN bits are passed on the stack."
            b.arg_reg(i, 0, xb, palign, A0 + ngpr, flags);
            ngpr = 8;
            stack = round(stack, xb);
            b.arg_stack(i, xb, psize - xb, palign, stack, flags);
            stack += round(psize - xb, xb);
        } else {
            // On the stack, aligned to max(XLEN, alignment) up to the 16-byte stack alignment.
            stack = round(stack, palign.clamp(xb, 16));
            b.arg_stack(i, 0, psize, palign, stack, flags);
            stack += round(psize, xb);
        }
    }
    b.stack = round(stack, 16);
    // s0-s11 and, with FP registers, fs0-fs11 are callee-saved.
    let mut saved: Vec<u16> = [8, 9].into_iter().chain(18..=27).collect();
    if flen > 0 {
        saved.extend([40, 41].into_iter().chain(50..=59));
    }
    b.callee_saved = saved;
}
