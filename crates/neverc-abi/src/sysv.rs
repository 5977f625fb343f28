//! System V AMD64 psABI (version 1.0), §3.2.3 "Parameter Passing".

use crate::classify::{extension, is_x87, leaves, round, Builder, LeafKind};
use crate::plan::Flags;
use crate::types::{FloatKind, Type};
use crate::Signature;

/// The classes of §3.2.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // the psABI's names
pub(crate) enum Class {
    NoClass,
    Integer,
    Sse,
    SseUp,
    X87,
    X87Up,
    ComplexX87,
    Memory,
}
use Class::*;

// Register numbers (DWARF): rdi rsi rdx rcx r8 r9 for integers, xmm0-7 for SSE.
const GPR: [u16; 6] = [5, 4, 1, 2, 8, 9];
const RAX: u16 = 0;
const RDX: u16 = 1;
const XMM0: u16 = 17;
const ST0: u16 = 33;

/// §3.2.3 rule 4: merging the classes of two fields sharing an eightbyte.
fn merge(a: Class, b: Class) -> Class {
    match (a, b) {
        (x, y) if x == y => x,
        (NoClass, x) | (x, NoClass) => x,
        (Memory, _) | (_, Memory) => Memory,
        (Integer, _) | (_, Integer) => Integer,
        (X87 | X87Up | ComplexX87, _) | (_, X87 | X87Up | ComplexX87) => Memory,
        _ => Sse,
    }
}

/// Classifies a type into one class per eightbyte; `[Memory]` for MEMORY, `[]` for an
/// empty type (an empty struct, which the psABI's C rules leave unclassified and gcc
/// passes in nothing).
pub(crate) fn classify(ty: &Type, b: &Builder) -> Vec<Class> {
    let m = b.m;
    let (size, _) = b.layout(ty);
    if size == 0 {
        return vec![];
    }
    // gcc passes a one-double vector (V1DF), alone or inside an aggregate, in memory.
    if has_v1df(ty) {
        return vec![Memory];
    }
    match ty.unaligned() {
        // Scalar types (§3.2.3, "Classification", the first list).
        Type::Bool | Type::Int(_) | Type::Enum(_) | Type::Pointer => {
            return if size > 8 {
                vec![Integer, Integer]
            } else {
                vec![Integer]
            }
        }
        Type::Float(k) if is_x87(*k, m) => return vec![X87, X87Up],
        Type::Float(FloatKind::LongDouble) => return vec![Sse, SseUp], // IEEE quad
        Type::Float(_) => return vec![Sse],
        // "complex long double": COMPLEX_X87.
        Type::Complex(k) if is_x87(*k, m) => return vec![ComplexX87],
        Type::Vector(..) if size > 16 => return vec![Memory], // __m256 without AVX
        Type::Vector(..) if size > 8 => return vec![Sse, SseUp],
        Type::Vector(..) => return vec![Sse],
        _ => {}
    }
    // Aggregates (structs, unions, complex): rule 1, more than 16 bytes is MEMORY (no
    // __m256 members exist without AVX).
    if size > 16 {
        return vec![Memory];
    }
    let mut classes = vec![NoClass; size.div_ceil(8) as usize];
    for leaf in leaves(ty, m) {
        // Rule 1: "it contains unaligned fields" (packed members).
        if !matches!(leaf.kind, LeafKind::BitField(_)) && leaf.offset % leaf.align as u64 != 0 {
            return vec![Memory];
        }
        let first = (leaf.offset / 8) as usize;
        let last = ((leaf.offset + leaf.size - 1) / 8) as usize;
        for (i, c) in classes.iter_mut().enumerate().take(last + 1).skip(first) {
            let leaf_class = match leaf.kind {
                LeafKind::Int | LeafKind::BitField(_) => Integer,
                LeafKind::Float(k) if is_x87(k, m) => {
                    if i == first {
                        X87
                    } else {
                        X87Up
                    }
                }
                LeafKind::Float(_) | LeafKind::Vector(_) => {
                    if i == first {
                        Sse
                    } else {
                        SseUp
                    }
                }
            };
            *c = merge(*c, leaf_class);
        }
    }
    // Rule 5, post merger cleanup.
    if classes.contains(&Memory) {
        return vec![Memory];
    }
    for i in 0..classes.len() {
        if classes[i] == X87Up && (i == 0 || classes[i - 1] != X87) {
            return vec![Memory];
        }
        if classes[i] == SseUp && (i == 0 || !matches!(classes[i - 1], Sse | SseUp)) {
            classes[i] = Sse;
        }
    }
    // An eightbyte holding only padding (NO_CLASS) takes no register at all (gcc).
    classes
}

fn is_memory(classes: &[Class]) -> bool {
    classes
        .iter()
        .any(|c| matches!(c, Memory | X87 | X87Up | ComplexX87))
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature) {
    let mut next_gpr = 0usize;
    let mut next_sse = 0u16;

    // Returning (§3.2.3, "Returning of Values"): classes decide the registers; MEMORY
    // means the caller passes the buffer in %rdi and the callee returns it in %rax.
    if sig.ret != Type::Void {
        let classes = classify(&sig.ret, b);
        let (size, align) = b.layout(&sig.ret);
        if classes.contains(&Memory) {
            b.ret_reg(0, 8, 8, GPR[0], Flags::SRET);
            b.ret_reg(0, 8, 8, RAX, Flags::SRET_OUT);
            next_gpr = 1;
        } else if classes == [ComplexX87] {
            // "the real part of the value is returned in %st0 and the imaginary part in %st1".
            b.ret_reg(0, 10, align, ST0, Flags::NONE);
            b.ret_reg(size / 2, 10, align, ST0 + 1, Flags::NONE);
        } else {
            let (mut gprs, mut sses) = ([RAX, RDX].into_iter(), 0u16);
            place(&classes, size, align, |off, sz, class| match class {
                X87 => b.ret_reg(off, 10, align, ST0, Flags::NONE),
                Integer => b.ret_reg(off, sz, align, gprs.next().unwrap(), Flags::NONE),
                _ => {
                    b.ret_reg(off, sz, align, XMM0 + sses, Flags::NONE);
                    sses += 1;
                }
            });
        }
    }

    // Passing: each argument wholly in registers if enough are left, else on the stack.
    let mut stack = 0u32;
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let classes = classify(ty, b);
        let vararg = if sig.is_vararg(i) {
            Flags::VARARG
        } else {
            Flags::NONE
        };
        let need_int = classes.iter().filter(|c| **c == Integer).count();
        let need_sse = classes.iter().filter(|c| **c == Sse).count() as u16;
        if classes.iter().all(|c| *c == NoClass) {
            continue;
        }
        if !is_memory(&classes) && next_gpr + need_int <= GPR.len() && next_sse + need_sse <= 8 {
            // gcc and clang extend _Bool, char and short arguments to 32 bits at the call,
            // and clang's callees rely on it; the psABI itself only fixes _Bool's bits 1-7.
            let ext = extension(ty, b.m, 32, false);
            place(&classes, size, align, |off, sz, class| {
                if class == Integer {
                    b.arg_reg(i, off, sz, align, GPR[next_gpr], ext | vararg);
                    next_gpr += 1;
                } else {
                    b.arg_reg(i, off, sz, align, XMM0 + next_sse, vararg);
                    next_sse += 1;
                }
            });
        } else {
            // "aligned to 8 bytes, or 16 for types with 16-byte alignment"; gcc keeps larger
            // alignments too.
            let a = align.max(8);
            stack = round(stack, a);
            b.arg_stack(i, 0, size, align, stack, vararg);
            stack += round(size, 8);
        }
    }
    // "%al is used as hidden argument to specify the number of vector registers used".
    if sig.variadic.is_some() {
        b.arg_reg(sig.params.len(), 0, 1, 1, RAX, Flags::VA_COUNT);
    }
    b.stack = round(stack, 8);
    // §3.2.1: %rbx, %rbp, %r12-%r15 belong to the caller.
    b.callee_saved = vec![3, 6, 12, 13, 14, 15];
}

/// Walks the eightbytes of a register-class value, joining SSE+SSEUP into one 16-byte
/// piece, and calls `f(offset, size, class)` per register.
fn place(classes: &[Class], size: u32, _align: u32, mut f: impl FnMut(u32, u32, Class)) {
    let mut i = 0;
    while i < classes.len() {
        let off = i as u32 * 8;
        match classes[i] {
            X87 => {
                f(off, 10, X87);
                i += 2;
            }
            Sse if classes.get(i + 1) == Some(&SseUp) => {
                f(off, (size - off).min(16), Sse);
                i += 2;
            }
            NoClass => i += 1,
            c => {
                f(off, (size - off).min(8), c);
                i += 1;
            }
        }
    }
}

fn has_v1df(ty: &Type) -> bool {
    match ty {
        Type::Vector(e, 8) => matches!(e.unaligned(), Type::Float(FloatKind::Double)),
        Type::Array(e, _) | Type::Aligned(e, _) => has_v1df(e),
        Type::Record(r) => r.fields.iter().any(|f| has_v1df(&f.ty)),
        _ => false,
    }
}
