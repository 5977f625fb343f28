//! What every convention module shares: the plan builder, the flattening of a type into its
//! scalar leaves, homogeneous-aggregate detection and the caller-extension flags.

use crate::layout::{float_format, layout_in, record_layout_in};
use crate::plan::{schema_digest, target_id, CallPlan, Flags, Location, Place};
use crate::types::{FloatKind, IntKind, Type};
use crate::{AbiError, Convention, Machine, Signature};
use neverc_target::FloatFormat;

/// Collects locations while a convention module walks a signature.
pub(crate) struct Builder<'m> {
    pub m: &'m Machine,
    pub returns: Vec<Location>,
    pub args: Vec<Location>,
    /// Outgoing argument area in bytes (the module sets it, rounded as its ABI says).
    pub stack: u32,
    pub callee_saved: Vec<u16>,
}

/// Alignment of the bytes at `offset` in a value aligned to `align`.
pub(crate) fn piece_align(align: u32, offset: u32) -> u32 {
    if offset == 0 {
        align
    } else {
        align.min(1 << offset.trailing_zeros())
    }
}

impl<'m> Builder<'m> {
    pub fn new(m: &'m Machine) -> Builder<'m> {
        Builder {
            m,
            returns: Vec::new(),
            args: Vec::new(),
            stack: 0,
            callee_saved: Vec::new(),
        }
    }

    fn loc(
        value: usize,
        offset: u32,
        size: u32,
        align: u32,
        place: Place,
        flags: Flags,
    ) -> Location {
        Location {
            value: value as u32,
            offset,
            size,
            align: piece_align(align, offset),
            place,
            flags,
        }
    }

    /// A piece of argument `value` (whose alignment is `align`) in register `reg`.
    pub fn arg_reg(
        &mut self,
        value: usize,
        offset: u32,
        size: u32,
        align: u32,
        reg: u16,
        flags: Flags,
    ) {
        self.args.push(Self::loc(
            value,
            offset,
            size,
            align,
            Place::Reg(reg),
            flags,
        ));
    }

    /// A piece of argument `value` at `at` in the outgoing argument area.
    pub fn arg_stack(
        &mut self,
        value: usize,
        offset: u32,
        size: u32,
        align: u32,
        at: u32,
        flags: Flags,
    ) {
        self.args.push(Self::loc(
            value,
            offset,
            size,
            align,
            Place::Stack(at),
            flags,
        ));
    }

    /// A piece of the result in register `reg`.
    pub fn ret_reg(&mut self, offset: u32, size: u32, align: u32, reg: u16, flags: Flags) {
        self.returns
            .push(Self::loc(0, offset, size, align, Place::Reg(reg), flags));
    }

    pub fn layout(&self, ty: &Type) -> (u32, u32) {
        let l = layout_in(ty, self.m);
        (l.size as u32, l.align)
    }

    pub fn finish(self, cc: Convention) -> CallPlan {
        CallPlan {
            schema: schema_digest(self.m.triple),
            target: target_id(self.m.triple),
            convention: cc.id(),
            stack: self.stack,
            returns: self.returns,
            arguments: self.args,
            callee_saved: self.callee_saved,
        }
    }
}

/// Refuses what no convention can pass: `void` or array parameters, types the target does
/// not have.
pub(crate) fn check_signature(m: &Machine, sig: &Signature) -> Result<(), AbiError> {
    fn check(m: &Machine, t: &Type) -> Result<(), AbiError> {
        match t {
            Type::Int(IntKind::Int128 | IntKind::UInt128) if m.data_model.int128.is_none() => {
                Err(AbiError::Unsupported(format!("__int128 on {}", m.triple)))
            }
            Type::Array(e, _) | Type::Vector(e, _) | Type::Aligned(e, _) => check(m, e),
            Type::Record(r) => r.fields.iter().try_for_each(|f| check(m, &f.ty)),
            _ => Ok(()),
        }
    }
    for (i, p) in sig.params.iter().enumerate() {
        match p.unaligned() {
            Type::Void => return Err(AbiError::Invalid(format!("parameter {i} has type void"))),
            Type::Array(..) => {
                return Err(AbiError::Invalid(format!(
                    "parameter {i} is an array (pass a pointer)"
                )))
            }
            _ => check(m, p)?,
        }
    }
    if let Type::Array(..) = sig.ret.unaligned() {
        return Err(AbiError::Invalid("the result is an array".into()));
    }
    if sig.variadic.is_some_and(|n| n > sig.params.len()) {
        return Err(AbiError::Invalid(
            "more named parameters than arguments".into(),
        ));
    }
    check(m, &sig.ret)
}

/// What a scalar leaf holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeafKind {
    /// Integer, pointer, `_Bool`, enum.
    Int,
    Float(FloatKind),
    /// A generic vector of this many bytes.
    Vector(u32),
    /// Part of a bit-field: declared type size in bytes.
    BitField(u32),
}

/// One scalar of a flattened type, at a byte offset from the start of the outer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Leaf {
    pub offset: u64,
    pub size: u64,
    /// Natural alignment of the scalar (for the "unaligned member" check).
    pub align: u32,
    pub kind: LeafKind,
}

/// Flattens a type into its scalars in memory order of declaration. Bit-fields become
/// `BitField` leaves covering the bytes their bits touch; zero-width bit-fields vanish, as
/// they do from gcc's C field lists after layout.
pub(crate) fn leaves(ty: &Type, m: &Machine) -> Vec<Leaf> {
    let mut out = Vec::new();
    walk(ty, m, 0, &mut out);
    out
}

fn walk(ty: &Type, m: &Machine, base: u64, out: &mut Vec<Leaf>) {
    let l = layout_in(ty, m);
    match ty {
        Type::Void => {}
        Type::Bool | Type::Int(_) | Type::Enum(_) | Type::Pointer => out.push(Leaf {
            offset: base,
            size: l.size,
            align: l.align,
            kind: LeafKind::Int,
        }),
        Type::Float(k) => out.push(Leaf {
            offset: base,
            size: l.size,
            align: l.align,
            kind: LeafKind::Float(*k),
        }),
        Type::Complex(k) => {
            let half = l.size / 2;
            for i in 0..2 {
                out.push(Leaf {
                    offset: base + i * half,
                    size: half,
                    align: l.align,
                    kind: LeafKind::Float(*k),
                });
            }
        }
        Type::Vector(_, bytes) => out.push(Leaf {
            offset: base,
            size: l.size,
            align: l.align,
            kind: LeafKind::Vector(*bytes),
        }),
        Type::Array(e, n) => {
            let es = layout_in(e, m).size;
            // Large arrays are classified by size before flattening; cap the work anyway.
            for i in 0..(*n).min(64) {
                walk(e, m, base + i * es, out);
            }
        }
        Type::Aligned(t, _) => walk(t, m, base, out),
        Type::Record(r) => {
            let rl = record_layout_in(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                match f.bits {
                    Some(0) => {}
                    Some(w) => {
                        let first = fl.bit_offset / 8;
                        let last = (fl.bit_offset + w as u64 - 1) / 8;
                        let decl = layout_in(&f.ty, m);
                        out.push(Leaf {
                            offset: base + first,
                            size: last - first + 1,
                            align: 1,
                            kind: LeafKind::BitField(decl.size as u32),
                        });
                    }
                    None => walk(&f.ty, m, base + fl.offset(), out),
                }
            }
        }
    }
}

/// The base type of a homogeneous floating-point or short-vector aggregate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HaBase {
    Float(u32),
    Vector(u32),
}

impl HaBase {
    pub fn size(self) -> u32 {
        match self {
            HaBase::Float(s) | HaBase::Vector(s) => s,
        }
    }
}

/// Homogeneous aggregate test shared by AAPCS64 §5.9.5 and AAPCS32 §5.3.5: one to four
/// members after flattening nested records and arrays, all of the same floating-point type
/// (or all short vectors of the same size), and no padding. `_Complex` counts as two
/// members. Scalars (a bare `float`) are answered too, with count 1.
pub(crate) fn homogeneous(ty: &Type, m: &Machine, vector_sizes: &[u32]) -> Option<(HaBase, u32)> {
    let size = layout_in(ty, m).size;
    if size == 0 || size > 64 {
        return None;
    }
    // gcc 12 (which ignores zero-width bit-fields of structs here since 12.1, as the
    // AAPCS says: homogeneity depends on the data layout alone) still lets a zero-width
    // bit-field that is a member of a union make the aggregate non-homogeneous.
    if union_zero_width(ty) {
        return None;
    }
    // gcc (aarch64 and arm) counts no elements in an array of length 0 (a zero-length or
    // flexible array member, at any depth): the aggregate is then no candidate at all
    // (`struct { float a; float z[0]; }` goes in w0/r0, not s0).
    if zero_length_array(ty) {
        return None;
    }
    let ls = leaves(ty, m);
    let base = |l: &Leaf| match l.kind {
        LeafKind::Float(_) => Some(HaBase::Float(l.size as u32)),
        LeafKind::Vector(b) if vector_sizes.contains(&b) => Some(HaBase::Vector(b)),
        _ => None,
    };
    let first = base(ls.first()?)?;
    // (A union's members overlap: its member count is that of distinct offsets, below.)
    if ls.iter().any(|l| base(l) != Some(first)) {
        return None;
    }
    // Unions are homogeneous when every member is; the members overlap, so count distinct
    // offsets, and insist there is no padding.
    let mut offsets: Vec<u64> = ls.iter().map(|l| l.offset).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let count = (size / first.size() as u64) as u32;
    let distinct = offsets.len() as u32;
    if count as u64 * first.size() as u64 != size || distinct != count || count > 4 {
        return None;
    }
    padding_free_count(ty, m, first.size() as u64)?;
    Some((first, count))
}

/// gcc's element count of a homogeneous aggregate candidate (aarch64 and arm alike): every
/// record, union and array at any depth must be exactly its elements, without padding (a
/// union counts as its largest member). So `struct { float f __attribute__((aligned(8))); }`
/// (8 bytes holding one float) is no candidate, and neither is a union with it as a member,
/// even though the union's floats cover its 8 bytes through another member.
fn padding_free_count(ty: &Type, m: &Machine, base: u64) -> Option<u64> {
    let count = match ty {
        Type::Aligned(t, _) => return padding_free_count(t, m, base),
        Type::Complex(_) => return Some(2),
        Type::Array(t, n) => padding_free_count(t, m, base)? * n,
        Type::Record(r) => {
            let mut count = 0;
            for f in r.fields.iter().filter(|f| f.bits != Some(0)) {
                let c = padding_free_count(&f.ty, m, base)?;
                count = if r.is_union { count.max(c) } else { count + c };
            }
            count
        }
        _ => return Some(1),
    };
    (layout_in(ty, m).size == count * base).then_some(count)
}

/// Does `ty` hold an array of length 0 (as a member at any depth, or an element)?
fn zero_length_array(ty: &Type) -> bool {
    match ty {
        Type::Array(_, 0) => true,
        Type::Aligned(t, _) | Type::Array(t, _) => zero_length_array(t),
        Type::Record(r) => r
            .fields
            .iter()
            .any(|f| f.bits.is_none() && zero_length_array(&f.ty)),
        _ => false,
    }
}

/// Does a union inside `ty` (or `ty` itself) have a zero-width bit-field member?
pub(crate) fn union_zero_width(ty: &Type) -> bool {
    match ty {
        Type::Aligned(t, _) | Type::Array(t, _) => union_zero_width(t),
        Type::Record(r) => r
            .fields
            .iter()
            .any(|f| (r.is_union && f.bits == Some(0)) || union_zero_width(&f.ty)),
        _ => false,
    }
}

/// The caller's extension of a small integer argument to `width` (32 or 64) bits, as the
/// conventions that require it say. `riscv64_words`: RISC-V lp64 sign-extends 32-bit values
/// whatever their signedness (RISC-V psABI, integer calling convention).
pub(crate) fn extension(ty: &Type, m: &Machine, width: u32, riscv64_words: bool) -> Flags {
    let (signed, size) = match ty.unaligned() {
        Type::Bool => (false, 1),
        Type::Int(k) | Type::Enum(k) => {
            let size = layout_in(ty, m).size as u32;
            (k.is_signed(m.data_model.char_signed), size)
        }
        _ => return Flags::NONE,
    };
    if size * 8 >= width && !(riscv64_words && size == 4 && width == 64) {
        return Flags::NONE;
    }
    match (width, signed || (riscv64_words && size == 4)) {
        (32, true) => Flags::SEXT32,
        (32, false) => Flags::ZEXT32,
        (_, true) => Flags::SEXT64,
        (_, false) => Flags::ZEXT64,
    }
}

/// Is this the x87 80-bit `long double`?
pub(crate) fn is_x87(k: FloatKind, m: &Machine) -> bool {
    float_format(k, &m.data_model) == FloatFormat::X87Extended
}

/// Round `x` up to a multiple of `a` (`a` ≥ 1).
pub(crate) fn round(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// The "natural alignment" AAPCS64 §6.8.2 (C.9, C.13) and AAPCS32 §6.5 (C.3, C.7) use for
/// argument placement, as gcc computes it: a scalar's own alignment (a typedef's `aligned`
/// does not count), an array's element alignment, and for a record the largest alignment of
/// its members (member `aligned` attributes count, the record's own attribute does not; a
/// bit-field counts with its declared type).
pub(crate) fn natural_align(ty: &Type, m: &Machine) -> u32 {
    match ty {
        Type::Aligned(t, _) => natural_align(t, m),
        Type::Array(e, _) => layout_in(e, m).align,
        Type::Record(r) => {
            let mut a = 0;
            for f in &r.fields {
                let tl = layout_in(&f.ty, m).align;
                let fa = match f.bits {
                    Some(0) => continue,
                    Some(_) => tl,
                    None if r.packed || f.packed => f.align.unwrap_or(1),
                    None => tl.max(f.align.unwrap_or(1)),
                };
                let fa = r.pack.map_or(fa, |p| fa.min(p));
                a = a.max(fa);
            }
            a.max(1)
        }
        t => layout_in(t, m).align,
    }
}
