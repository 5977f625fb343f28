//! System V AMD64 psABI (version 1.0), §3.2.3 "Parameter Passing".

use crate::classify::{extension, is_x87, round, Builder};
use crate::layout::{layout_in, record_layout_in};
use crate::plan::Flags;
use crate::types::{FloatKind, Type};
use crate::{Machine, Signature};

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
    aggregate(ty, m, 0).unwrap_or_else(|| vec![Memory])
}

/// Rule 4 applied to an aggregate at byte `at` of the outermost value: "each field of an
/// object is classified recursively", so a member that is itself an aggregate (or an array)
/// is classified on its own, post-merger cleanup included, and its classes are then merged
/// with its siblings' in declaration order (merging is not associative: X87UP+SSE is
/// MEMORY but X87UP+INTEGER is INTEGER). The classes are on the outermost value's eightbyte
/// grid; index 0 is the eightbyte holding byte `at`. `None` is MEMORY.
fn aggregate(ty: &Type, m: &Machine, at: u64) -> Option<Vec<Class>> {
    let size = layout_in(ty, m).size;
    let mut classes = vec![NoClass; ((at % 8) + size).div_ceil(8) as usize];
    members(ty, m, at, at / 8, &mut classes)?;
    cleanup(&mut classes)?;
    Some(classes)
}

/// Merges the classes of `ty`, at byte `at` of the outermost value, into `classes`, whose
/// index 0 is the eightbyte `first` of the outermost value.
fn members(ty: &Type, m: &Machine, at: u64, first: u64, classes: &mut [Class]) -> Option<()> {
    // Merges `class(k)` into the k-th eightbyte touched by bytes `from..=to`.
    fn put(classes: &mut [Class], first: u64, from: u64, to: u64, class: &dyn Fn(u64) -> Class) {
        for word in from / 8..=to / 8 {
            if let Some(c) = classes.get_mut((word - first) as usize) {
                *c = merge(*c, class(word - from / 8));
            }
        }
    }
    match ty {
        Type::Void => {}
        Type::Aligned(t, _) => members(t, m, at, first, classes)?,
        Type::Record(r) => {
            let rl = record_layout_in(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                match f.bits {
                    // gcc 12 drops zero-width bit-fields of structs before classifying
                    // (its 12.1 ABI change), but a zero-width bit-field that is a member of
                    // a union still makes the union's first eightbyte INTEGER.
                    Some(0) if r.is_union => put(classes, first, at, at, &|_| Integer),
                    Some(0) => {}
                    // A bit-field of a union is classified as a scalar of its own width
                    // (see `union_bitfield_misaligned`): MEMORY where that is misaligned.
                    Some(w) if r.is_union && union_bitfield_misaligned(&f.ty, w, m, at) => {
                        return None;
                    }
                    // A bit-field of 16, 32 or 64 bits at a multiple of its width in an
                    // unpacked record is laid out by gcc as an ordinary integer member of
                    // that size, so it is judged like one: MEMORY where the outermost value
                    // puts it at a misaligned offset (found by the two-compiler test: a
                    // record `{ short m : 16; }` at offset 1 of a packed record).
                    Some(w)
                        if matches!(w, 16 | 32 | 64)
                            && !r.packed
                            && !f.packed
                            && r.pack.is_none()
                            && matches!(f.ty.unaligned(), Type::Int(_) | Type::Enum(_))
                            && fl.bit_offset.is_multiple_of(u64::from(w))
                            && !(at * 8 + fl.bit_offset).is_multiple_of(u64::from(w)) =>
                    {
                        return None;
                    }
                    // A bit-field is INTEGER in every eightbyte its bits touch.
                    Some(w) => {
                        let from = at * 8 + fl.bit_offset;
                        put(classes, first, from / 8, (from + w as u64 - 1) / 8, &|_| {
                            Integer
                        });
                    }
                    None => member(&f.ty, m, at + fl.offset(), first, classes)?,
                }
            }
        }
        Type::Array(e, n) => {
            // gcc classifies an array by its first element, at the array's offset, and
            // repeats those classes over the array's eightbytes (so a member misaligned
            // only in later elements of an array of packed records does not make it
            // MEMORY; found by the two-compiler test, finding F9).
            let total = layout_in(ty, m).size;
            if *n == 0 || total == 0 {
                return Some(());
            }
            let es = layout_in(e, m).size;
            let mut sub = vec![NoClass; ((at % 8) + es.max(1)).div_ceil(8) as usize];
            match e.unaligned() {
                Type::Record(_) | Type::Array(..) => sub = aggregate(e, m, at)?,
                _ => members(e, m, at, at / 8, &mut sub)?,
            }
            if sub.is_empty() {
                return Some(());
            }
            for (i, word) in (at / 8..=(at + total - 1) / 8).enumerate() {
                if let Some(c) = classes.get_mut((word - first) as usize) {
                    *c = merge(*c, sub[i % sub.len()]);
                }
            }
        }
        Type::Complex(k) => {
            let half = layout_in(ty, m).size / 2;
            member(&Type::Float(*k), m, at, first, classes)?;
            member(&Type::Float(*k), m, at + half, first, classes)?;
        }
        _ => {
            // A scalar. Rule 1: "it contains unaligned fields" (packed members), judged
            // by the scalar's natural alignment and its offset in the outermost value.
            let l = layout_in(ty, m);
            if l.size == 0 {
                return Some(());
            }
            if !at.is_multiple_of(l.align as u64) {
                return None;
            }
            let last = at + l.size - 1;
            let class = |k: u64| match ty {
                Type::Float(f) if is_x87(*f, m) => [X87, X87Up][k.min(1) as usize],
                Type::Float(_) | Type::Vector(..) => [Sse, SseUp][k.min(1) as usize],
                _ => Integer,
            };
            put(classes, first, at, last, &class);
        }
    }
    Some(())
}

/// Is a bit-field of `width` bits declared with type `ty`, a member of a union at byte `at`
/// of the outermost value, misaligned as gcc judges it? gcc 12 classifies a union's members
/// as values of their own types at the union's offset, and the C front end has given a
/// bit-field narrower than its declared type an integer type of exactly its width, whose
/// machine mode is the smallest integer mode holding it (8, 16, 32, 64 or 128 bits). Like
/// any scalar, a field whose offset is no multiple of its mode's size makes the value
/// MEMORY ("misaligned fields are always returned in memory", `classify_argument`). (A
/// structure's bit-fields are not judged so: gcc classifies them as INTEGER before that
/// check.) Measured with gcc 12: `union { int x : 17; }` at offset 2 of a packed record is
/// passed in memory, `union { int x : 16; }` there in registers, `union { long x : 33; }`
/// at offset 8 in registers; finding F6 of the two-compiler test.
fn union_bitfield_misaligned(ty: &Type, width: u32, m: &Machine, at: u64) -> bool {
    let declared_bits = match ty.unaligned() {
        Type::Bool => 1,
        t => layout_in(t, m).size * 8,
    };
    let mode_bits = if u64::from(width) == declared_bits {
        declared_bits.max(8)
    } else {
        u64::from(width).next_power_of_two().max(8)
    };
    !(at * 8).is_multiple_of(mode_bits)
}

/// One member: an aggregate member is classified on its own first (see [`aggregate`]).
fn member(ty: &Type, m: &Machine, at: u64, first: u64, classes: &mut [Class]) -> Option<()> {
    match ty.unaligned() {
        Type::Record(_) | Type::Array(..) => {
            let sub = aggregate(ty, m, at)?;
            let base = (at / 8 - first) as usize;
            for (i, c) in sub.into_iter().enumerate() {
                if let Some(slot) = classes.get_mut(base + i) {
                    *slot = merge(*slot, c);
                }
            }
            Some(())
        }
        _ => members(ty, m, at, first, classes),
    }
}

/// Rule 5, the post-merger cleanup. `None` is MEMORY.
fn cleanup(classes: &mut [Class]) -> Option<()> {
    if classes.contains(&Memory) {
        return None;
    }
    for i in 0..classes.len() {
        if classes[i] == X87Up && (i == 0 || classes[i - 1] != X87) {
            return None;
        }
        if classes[i] == SseUp && (i == 0 || !matches!(classes[i - 1], Sse | SseUp)) {
            classes[i] = Sse;
        }
    }
    Some(())
}

pub(crate) fn is_memory(classes: &[Class]) -> bool {
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
        } else if gcc_empty(ty) {
            // gcc gives a record holding no named data (only unnamed bit-fields, so it is
            // not of size 0) no stack slot, although it takes a GPR while any is left.
            continue;
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
    b.callee_saved = CALLEE_SAVED.to_vec();
}

/// §3.2.1: %rbx, %rbp and %r12-%r15 belong to the caller (DWARF numbers).
pub const CALLEE_SAVED: [u16; 6] = [3, 6, 12, 13, 14, 15];

/// Walks the eightbytes of a register-class value, joining SSE+SSEUP into one 16-byte
/// piece, and calls `f(offset, size, class)` per register.
pub(crate) fn place(classes: &[Class], size: u32, _align: u32, mut f: impl FnMut(u32, u32, Class)) {
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

/// A record with no data: every member an unnamed bit-field or itself such a record (or an
/// array of them).
pub(crate) fn gcc_empty(ty: &Type) -> bool {
    match ty.unaligned() {
        Type::Record(r) => r.fields.iter().all(|f| match f.bits {
            Some(_) => f.name.is_none(),
            None => gcc_empty(&f.ty),
        }),
        Type::Array(e, n) => *n == 0 || gcc_empty(e),
        _ => false,
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
