//! AAPCS64 (Procedure Call Standard for the Arm 64-bit Architecture, 2023Q3) §6.8
//! "Parameter passing", and Apple's arm64 variant ("Writing ARM64 code for Apple
//! platforms": packed stack arguments, variadic arguments on the stack, caller extension).

use crate::classify::{extension, homogeneous, natural_align, round, Builder, HaBase};
use crate::plan::Flags;
use crate::types::{IntKind, Type};
use crate::Signature;

const X8: u16 = 8;
const V0: u16 = 64;

/// How one value travels when registers allow.
pub(crate) enum Kind {
    /// In SIMD registers: one per member (HFA/HVA, float, short vector).
    Simd(HaBase, u32),
    /// In general registers, `size` bytes.
    General,
    /// Replaced by a pointer to a caller copy (B.4: composites over 16 bytes).
    ByRef,
    /// Takes nothing (an empty struct).
    Empty,
}

/// Is `ty` a record clang counts as empty (`isEmptyRecord` with arrays allowed): every
/// member an unnamed bit-field, a zero-length array, or an empty record (or an array of
/// them), whatever its size?
fn clang_empty(ty: &Type) -> bool {
    let Type::Record(r) = ty.unaligned() else {
        return false;
    };
    r.fields.iter().all(|f| {
        if f.bits.is_some() && f.name.is_none() {
            return true;
        }
        let mut t = f.ty.unaligned();
        while let Type::Array(e, n) = t {
            if *n == 0 {
                return true;
            }
            t = e.unaligned();
        }
        matches!(t, Type::Record(_)) && clang_empty(t)
    })
}

/// Does clang's `isHomogeneousAggregate` in C refuse `ty` for a member that gcc would
/// let through: a bit-field (zero-width and unnamed ones too: "For compatibility with
/// GCC, ignore empty bitfields in C++ mode" only) or a zero-length array? Members that
/// are clang-empty records are skipped.
fn clang_not_homogeneous(ty: &Type) -> bool {
    let Type::Record(r) = ty.unaligned() else {
        return false;
    };
    r.fields.iter().any(|f| {
        let mut t = f.ty.unaligned();
        while let Type::Array(e, n) = t {
            if *n == 0 {
                return true;
            }
            t = e.unaligned();
        }
        if clang_empty(t) {
            return false;
        }
        f.bits.is_some() || clang_not_homogeneous(t)
    })
}

/// On Apple, `ty` without its zero-sized clang-empty record members, which clang's
/// `isHomogeneousAggregate` skips (`struct { int __attribute__((vector_size(8))) v;
/// union { _Bool :0; } u; }` is an HVA of one vector there).
fn clang_strip_empty(ty: &Type, b: &Builder, darwin: bool) -> Type {
    match ty {
        Type::Record(r) if darwin => {
            let mut r = (**r).clone();
            r.fields
                .retain(|f| !(f.bits.is_none() && clang_empty(&f.ty) && b.layout(&f.ty).0 == 0));
            for f in &mut r.fields {
                if f.bits.is_none() {
                    f.ty = clang_strip_empty(&f.ty, b, darwin);
                }
            }
            Type::Record(Box::new(r))
        }
        Type::Aligned(t, a) if darwin => {
            Type::Aligned(Box::new(clang_strip_empty(t, b, darwin)), *a)
        }
        _ => ty.clone(),
    }
}

/// gcc (Linux): a struct whose only content of non-zero size is one 8- or 16-byte vector
/// (directly, in single-member structs or one-element arrays), of that vector's size,
/// has the vector's machine mode, and `aarch64_short_vector_p` passes it as a short
/// vector, in one SIMD register, even where the HFA/HVA rules refuse it:
/// `struct { V v; int z[0]; }` goes in v0 (measured with gcc 12). Unions do not.
/// (A flexible array member `int z[]`, which `Type` does not tell from `z[0]`, makes
/// gcc's struct BLKmode and sends it to x0; that case is not modelled.)
fn vector_mode_struct(ty: &Type, b: &Builder) -> Option<u32> {
    fn inner(t: &Type, b: &Builder) -> Option<u32> {
        match t {
            Type::Vector(_, n) if *n == 8 || *n == 16 => Some(*n),
            Type::Aligned(t, _) | Type::Array(t, 1) => inner(t, b),
            Type::Record(r) if !r.is_union => {
                let mut found = None;
                for f in &r.fields {
                    if b.layout(&f.ty).0 == 0 || f.bits == Some(0) {
                        continue;
                    }
                    if found.is_some() || f.bits.is_some() {
                        return None;
                    }
                    found = Some(inner(&f.ty, b)?);
                }
                found
            }
            _ => None,
        }
    }
    if !matches!(ty.unaligned(), Type::Record(_)) {
        return None;
    }
    let n = inner(ty, b)?;
    (b.layout(ty).0 == n).then_some(n)
}

pub(crate) fn kind(ty: &Type, b: &Builder) -> Kind {
    let (size, _) = b.layout(ty);
    if size == 0 {
        return Kind::Empty;
    }
    let darwin = b.m.os == neverc_target::Os::Darwin;
    // Apple arm64: clang's DarwinPCS ignores every C record it counts as empty, even one
    // with a size (`union { long long :53; }`), as argument and as result
    // (`AArch64ABIInfo::classifyArgumentType`: "Empty records are always ignored on
    // Darwin"); Apple's document defers to the compiler here.
    if darwin && clang_empty(ty) {
        return Kind::Empty;
    }
    // §5.9.5: HFA/HVA, with floats, doubles, quads, halves and 8/16-byte vectors as bases.
    // Apple arm64 follows clang's reading, which refuses records with bit-fields or
    // zero-length arrays (`struct { long long :0; float f; }` goes in x0).
    if !darwin {
        if let Some(n) = vector_mode_struct(ty, b) {
            return Kind::Simd(HaBase::Vector(n), 1);
        }
    }
    if darwin && clang_not_homogeneous(ty) {
        // Not an HFA/HVA: general registers or by reference.
    } else if let Some((base, n)) = homogeneous(&clang_strip_empty(ty, b, darwin), b.m, &[8, 16]) {
        return Kind::Simd(base, n);
    }
    let composite = matches!(
        ty.unaligned(),
        Type::Record(_) | Type::Complex(_) | Type::Vector(..)
    );
    if composite && size > 16 {
        return Kind::ByRef; // B.4
    }
    Kind::General
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature, apple: bool) {
    // Results (§6.9): as the first argument would be passed, else memory via x8.
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        match kind(&sig.ret, b) {
            Kind::Simd(base, n) => {
                for k in 0..n {
                    b.ret_reg(
                        k * base.size(),
                        base.size(),
                        align,
                        V0 + k as u16,
                        Flags::NONE,
                    );
                }
            }
            Kind::General => {
                for k in 0..size.div_ceil(8) {
                    b.ret_reg(k * 8, (size - k * 8).min(8), align, k as u16, Flags::NONE);
                }
            }
            Kind::ByRef => b.ret_reg(0, 8, 8, X8, Flags::SRET),
            Kind::Empty => {}
        }
    }

    let (mut ngrn, mut nsrn, mut nsaa) = (0u16, 0u16, 0u32);
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vararg = sig.is_vararg(i);
        let vflag = if vararg { Flags::VARARG } else { Flags::NONE };
        // Apple: "the caller ... sign or zero extend any argument with fewer than 32 bits".
        let ext = if apple {
            extension(ty, b.m, 32, false)
        } else {
            Flags::NONE
        };
        let k = kind(ty, b);
        if apple && vararg {
            // Apple: variadic arguments go on the stack, each in 8-byte-aligned slots.
            let (size, align, flags) = match k {
                Kind::ByRef => (8, 8, Flags::BYREF),
                Kind::Empty => continue,
                _ => (size, align, Flags::NONE),
            };
            // clang passes a homogeneous aggregate record as an array of its base type,
            // which takes an 8-aligned slot even when the record is 16-aligned; a bare
            // 16-byte vector or an `__int128`-like record (coerced to i128) takes 16.
            let hfa_record =
                matches!(k, Kind::Simd(..)) && matches!(ty.unaligned(), Type::Record(_));
            nsaa = round(nsaa, if hfa_record { 8 } else { align.clamp(8, 16) });
            b.arg_stack(i, 0, size, align, nsaa, flags | vflag | ext);
            nsaa += round(size, 8);
            continue;
        }
        match k {
            Kind::Empty => {}
            Kind::Simd(base, n) => {
                if nsrn + n as u16 <= 8 {
                    // C.2: one SIMD register per member.
                    for m in 0..n {
                        b.arg_reg(i, m * base.size(), base.size(), align, V0 + nsrn, vflag);
                        nsrn += 1;
                    }
                } else {
                    // C.3/C.5: no more SIMD registers for anyone; to the stack, at 8 or 16
                    // (Apple: the natural alignment, no rounding of the size).
                    nsrn = 8;
                    let na = natural_align(ty, b.m);
                    nsaa = round(
                        nsaa,
                        if apple {
                            na
                        } else if na >= 16 {
                            16
                        } else {
                            8
                        },
                    );
                    b.arg_stack(i, 0, size, align, nsaa, vflag);
                    nsaa += if apple { size } else { round(size, 8) };
                }
            }
            Kind::ByRef => general(
                b,
                i,
                8,
                8,
                8,
                &mut ngrn,
                &mut nsaa,
                Flags::BYREF | vflag,
                apple,
                false,
            ),
            Kind::General => {
                // Apple: clang's DarwinPCS aligns a record by its full alignment, `aligned`
                // attributes included (`max(getTypeAlign, 64)`), where AAPCS64 takes the
                // natural one: `struct __attribute__((aligned(16))) { double d; }` goes
                // to a 16-aligned stack slot.
                let na = if apple && matches!(ty.unaligned(), Type::Record(_)) {
                    align.max(natural_align(ty, b.m))
                } else {
                    natural_align(ty, b.m)
                };
                let composite = !matches!(
                    ty.unaligned(),
                    Type::Bool | Type::Int(_) | Type::Enum(_) | Type::Pointer | Type::Float(_)
                );
                let int128 = matches!(
                    ty.unaligned(),
                    Type::Int(IntKind::Int128 | IntKind::UInt128)
                );
                general(
                    b,
                    i,
                    size,
                    align,
                    na,
                    &mut ngrn,
                    &mut nsaa,
                    ext | vflag,
                    apple,
                    composite || int128,
                );
            }
        }
    }
    b.stack = round(nsaa, 8);
    // §6.1.1: x19-x28 and x29 (frame pointer) are callee-saved; of v8-v15 only the low
    // 64 bits (d8-d15).
    b.callee_saved = (19..=29).chain(72..=79).collect();
}

/// Rules C.9-C.16 for a value in general registers or on the stack.
#[allow(clippy::too_many_arguments)]
fn general(
    b: &mut Builder,
    i: usize,
    size: u32,
    align: u32,
    natural: u32,
    ngrn: &mut u16,
    nsaa: &mut u32,
    flags: Flags,
    apple: bool,
    slotted: bool,
) {
    // C.9: "If the argument has an alignment of 16 then the NGRN is rounded up to the
    // next even number." Not on Apple arm64: clang's DarwinPCS (the reference there, as
    // Apple's ABI document leaves it to the compiler) gives `__int128` and 16-aligned
    // composites the next two registers, odd or even (`f(long, __int128)` uses x1:x2).
    if natural == 16 && *ngrn % 2 == 1 && !apple {
        *ngrn += 1;
    }
    let words = size.div_ceil(8) as u16;
    if *ngrn + words <= 8 {
        // C.10-C.11: consecutive registers, least significant bytes first.
        for k in 0..words as u32 {
            b.arg_reg(i, k * 8, (size - k * 8).min(8), align, *ngrn, flags);
            *ngrn += 1;
        }
        return;
    }
    // C.12: no splitting; registers are done. C.13-C.16: the stack, aligned to 8 or 16
    // and in 8-byte multiples. Apple packs scalars at their natural alignment and size;
    // composites and __int128 keep 8-byte multiples.
    *ngrn = 8;
    if apple && !slotted {
        *nsaa = round(*nsaa, natural);
        // A packed stack argument has no bytes beyond its size to extend into: Apple's
        // caller extension applies to registers only (clang leaves the slot's padding as
        // it was).
        let flags = Flags(flags.0 & !(Flags::SEXT32.0 | Flags::ZEXT32.0));
        b.arg_stack(i, 0, size, align, *nsaa, flags);
        *nsaa += size;
    } else {
        *nsaa = round(*nsaa, natural.clamp(8, 16));
        b.arg_stack(i, 0, size, align, *nsaa, flags);
        *nsaa += round(size, 8);
    }
}
