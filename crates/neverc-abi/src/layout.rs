//! Sizes, alignments and record layout, equal to gcc's for each target.
//!
//! Scalars come from the target's [`DataModel`]. Records follow the System V rule that gcc
//! uses on every ELF target ("PCC bit-field type matters"): a bit-field never spans more
//! alignment units of its declared type than the type itself has; named bit-fields give the
//! record their type's alignment; a zero-width bit-field aligns the next member to its type
//! but (except on 32-bit Arm, where AAPCS §8.1.8.5 makes unnamed bit-fields count) does not
//! raise the record's alignment. Windows targets use the Microsoft rule instead: bit-fields
//! are allocated in whole units of their declared type.

use crate::types::{FloatKind, IntKind, Record, Type};
use crate::Machine;
use neverc_target::{Arch, DataModel, FloatFormat, Os, SizeAlign};

/// Size and alignment of a type, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u32,
}

/// Where one member of a record lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// Offset from the start of the record, in bits (a multiple of 8 except for bit-fields).
    pub bit_offset: u64,
    /// Width in bits: the bit-field width, or 8 × the member's size.
    pub bit_size: u64,
}

impl FieldLayout {
    /// Byte offset (of the byte holding the first bit, for bit-fields).
    pub fn offset(&self) -> u64 {
        self.bit_offset / 8
    }
}

/// The layout of a record: its size, alignment and every member's place, in declaration
/// order (zero-width bit-fields included, with size 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    pub size: u64,
    pub align: u32,
    pub fields: Vec<FieldLayout>,
}

fn from(sa: SizeAlign) -> Layout {
    Layout {
        size: sa.size as u64,
        align: sa.align,
    }
}

/// Size and alignment of an integer kind on this data model.
pub fn int_layout(kind: IntKind, dm: &DataModel) -> Layout {
    use IntKind::*;
    match kind {
        Char | SChar | UChar => Layout { size: 1, align: 1 },
        Short | UShort => from(dm.short),
        Int | UInt => from(dm.int),
        Long | ULong => from(dm.long),
        LongLong | ULongLong => from(dm.long_long),
        // Callers check `int128` exists before planning; 16/16 keeps layout total.
        Int128 | UInt128 => from(dm.int128.unwrap_or(SizeAlign {
            size: 16,
            align: 16,
        })),
    }
}

/// Size and alignment of a real floating kind on this data model.
pub fn float_layout(kind: FloatKind, dm: &DataModel) -> Layout {
    match kind {
        FloatKind::Float16 => Layout {
            size: 2,
            align: 2.min(dm.float.align),
        },
        FloatKind::Float => from(dm.float),
        FloatKind::Double => from(dm.double),
        FloatKind::LongDouble => from(dm.long_double),
    }
}

/// The storage format of a floating kind.
pub fn float_format(kind: FloatKind, dm: &DataModel) -> FloatFormat {
    match kind {
        FloatKind::Float16 | FloatKind::Float => FloatFormat::IeeeSingle,
        FloatKind::Double if dm.double.size == 4 => FloatFormat::IeeeSingle,
        FloatKind::Double => FloatFormat::IeeeDouble,
        FloatKind::LongDouble => dm.long_double_format,
    }
}

/// Largest alignment a generic vector type gets in layouts: the vector's size up to this
/// cap. gcc's default `vector_alignment` hook aligns a vector to its size, however wide:
/// x86-64 without AVX, MIPS o32, RISC-V and avr-gcc 5.4 place the `int
/// __attribute__((vector_size(32)))` member of `struct { char c; ... }` at offset 32
/// (measured with each gcc; clang for Win64 agrees). Arm caps it at 8 (the AAPCS's 64-bit
/// containers) and AArch64 at 16, Linux and Apple alike. (C11 `_Alignof` is another
/// matter: gcc caps it at BIGGEST_ALIGNMENT for an alignment the user did not give.)
fn vector_align_cap(m: &Machine) -> u32 {
    match m.arch {
        Arch::AArch64 => 16,
        Arch::Arm => 8,
        _ => u32::MAX,
    }
}

/// Does the System V bit-field rule apply (gcc's `PCC_BITFIELD_TYPE_MATTERS`)? Everywhere
/// but avr-gcc, which packs bit-fields bit after bit.
fn pcc_bitfields(m: &Machine) -> bool {
    m.arch != Arch::Avr
}

/// Does an unnamed bit-field's type count toward the record's alignment? On Arm and AArch64
/// it does (AAPCS32 §8.1.8.5, AAPCS64 §10.1.8: "unnamed bit-fields' declared types do affect
/// the alignment of a structure or union"); the System V psABIs say they do not, and
/// neither does Apple's arm64 ABI (clang for Darwin ignores them).
fn anon_bitfield_aligns(t: &Machine) -> bool {
    t.arch == Arch::Arm || (t.arch == Arch::AArch64 && t.os != Os::Darwin)
}

/// Size and alignment of any type on `target` (a [`neverc_target::Target`] or a [`Machine`]).
pub fn layout(ty: &Type, target: impl Into<Machine>) -> Layout {
    layout_in(ty, &target.into())
}

/// C11 `_Alignof` of a type on `target`, which is not always its layout alignment: gcc
/// (`min_align_of_type`) caps an alignment the user did not give (no `aligned` typedef,
/// record attribute or member attribute, no `_Alignas`, at any depth) at the target's
/// biggest alignment, so `_Alignof` of a 32-byte vector is 16 on x86-64 although it is
/// laid out at 32 (GNU `__alignof__` is the layout alignment). clang, the reference for
/// Apple and Windows targets, does not cap.
///
/// ```
/// use neverc_abi::{c11_alignof, layout, Type};
/// let v32 = Type::vector(Type::int(), 32);
/// let x86 = neverc_abi::target::lookup("x86_64-linux-gnu").unwrap();
/// assert_eq!((layout(&v32, x86).align, c11_alignof(&v32, x86)), (32, 16));
/// ```
pub fn c11_alignof(ty: &Type, target: impl Into<Machine>) -> u32 {
    let m = target.into();
    let align = layout_in(ty, &m).align;
    if matches!(m.os, Os::Darwin | Os::Windows) || user_aligned(ty, &m) {
        align
    } else {
        align.min(m.data_model.biggest_align.max(1))
    }
}

/// Has the user given `ty` (or something in it) an alignment (gcc's TYPE_USER_ALIGN)? A
/// member's own `aligned` counts only when its type's alignment is not bigger or it is a
/// bit-field or packed (gcc otherwise takes the type's alignment and the type's flag: measured, `V32
/// v __attribute__((aligned(4)))` leaves the record's `_Alignof` capped).
fn user_aligned(ty: &Type, m: &Machine) -> bool {
    match ty {
        Type::Aligned(..) => true,
        Type::Array(e, _) => user_aligned(e, m),
        Type::Record(r) => {
            r.align.is_some()
                || r.fields.iter().any(|f| match f.align {
                    // A bit-field or a packed member keeps its own `aligned` flag
                    // (measured on MIPS o32 and x86-64).
                    Some(_) if f.bits.is_some() || f.packed || r.packed => true,
                    Some(a) if a >= layout_in(&f.ty, m).align => true,
                    _ => user_aligned(&f.ty, m),
                })
        }
        _ => false,
    }
}

pub(crate) fn layout_in(ty: &Type, target: &Machine) -> Layout {
    let dm = &target.data_model;
    match ty {
        Type::Void => Layout { size: 1, align: 1 },
        Type::Bool => Layout { size: 1, align: 1 },
        Type::Int(k) | Type::Enum(k) => int_layout(*k, dm),
        Type::Float(k) => float_layout(*k, dm),
        Type::Complex(k) => {
            let l = float_layout(*k, dm);
            Layout {
                size: 2 * l.size,
                align: l.align,
            }
        }
        Type::Pointer => from(dm.pointer),
        Type::Array(elem, n) => {
            let l = layout_in(elem, target);
            Layout {
                size: l.size * n,
                align: l.align,
            }
        }
        Type::Record(r) => {
            let l = record_layout_in(r, target);
            Layout {
                size: l.size,
                align: l.align,
            }
        }
        Type::Vector(_, bytes) => Layout {
            size: *bytes as u64,
            align: (*bytes).clamp(1, vector_align_cap(target)),
        },
        Type::Aligned(t, a) => Layout {
            size: layout_in(t, target).size,
            align: *a,
        },
    }
}

fn round_up(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a) * a
    }
}

/// Lays a record out as gcc does for `target`.
pub fn record_layout(rec: &Record, target: impl Into<Machine>) -> RecordLayout {
    record_layout_in(rec, &target.into())
}

pub(crate) fn record_layout_in(rec: &Record, target: &Machine) -> RecordLayout {
    if target.os == Os::Windows {
        return ms_record_layout(rec, target);
    }
    let pack_bits = rec.pack.map(|p| p as u64 * 8);
    let cap = |a: u64| pack_bits.map_or(a, |p| a.min(p));
    let mut bitpos = 0u64; // next free bit (structs)
    let mut size_bits = 0u64;
    let mut rec_align = 8u64;
    let mut fields = Vec::with_capacity(rec.fields.len());
    for f in &rec.fields {
        let tl = layout_in(&f.ty, target);
        let type_align = tl.align as u64 * 8;
        let type_bits = tl.size * 8;
        let user_align = f.align.map(|a| a as u64 * 8);
        let packed = rec.packed || f.packed;
        if rec.is_union {
            bitpos = 0;
        }
        let (offset, width) = match f.bits {
            Some(0) => {
                // A zero-width bit-field aligns what follows to its type, whatever the
                // packing (`packed` and `#pragma pack` alike).
                let a = if pcc_bitfields(target) { type_align } else { 8 };
                bitpos = round_up(bitpos, a);
                if anon_bitfield_aligns(target) {
                    rec_align = rec_align.max(a);
                }
                (bitpos, 0)
            }
            Some(w) => {
                let w = w as u64;
                // An `aligned` bit-field is first placed at its alignment, then the rule
                // below applies from there (gcc's `place_field` in that order).
                if let Some(ua) = user_align {
                    bitpos = round_up(bitpos, cap(ua));
                }
                if !packed && pack_bits.is_none() && pcc_bitfields(target) && type_align > 0 {
                    // Not more alignment units than the declared type has. Packed members
                    // (since gcc 4.4, even char ones) and `#pragma pack` drop the rule.
                    let units = (bitpos % type_align + w).div_ceil(type_align);
                    if units > type_bits / type_align {
                        bitpos = round_up(bitpos, type_align);
                    }
                }
                if f.name.is_some() || anon_bitfield_aligns(target) {
                    let ta = if pack_bits.is_some() {
                        cap(type_align)
                    } else if packed {
                        type_align.min(8)
                    } else {
                        type_align
                    };
                    rec_align = rec_align.max(ta).max(user_align.map_or(0, cap));
                }
                (bitpos, w)
            }
            None => {
                let mut a = if packed { 8 } else { type_align };
                if let Some(ua) = user_align {
                    a = a.max(ua);
                }
                let a = cap(a);
                bitpos = round_up(bitpos, a);
                rec_align = rec_align.max(a);
                (bitpos, type_bits)
            }
        };
        fields.push(FieldLayout {
            bit_offset: offset,
            bit_size: width,
        });
        bitpos = offset + width;
        size_bits = size_bits.max(bitpos);
    }
    if let Some(a) = rec.align {
        rec_align = rec_align.max(a as u64 * 8);
    }
    let size = round_up(round_up(size_bits, 8), rec_align) / 8;
    RecordLayout {
        size,
        align: (rec_align / 8) as u32,
        fields,
    }
}

/// The Microsoft record layout (x86_64-pc-windows-msvc, and gcc's `-mms-bitfields`): a
/// bit-field takes a fresh unit of its declared type unless the previous member was a
/// bit-field of a type of the same size with room left; a zero-width bit-field only matters
/// after a bit-field.
fn ms_record_layout(rec: &Record, target: &Machine) -> RecordLayout {
    let pack_bits = rec.pack.map(|p| p as u64 * 8);
    let cap = |a: u64| pack_bits.map_or(a, |p| a.min(p));
    let mut bitpos = 0u64;
    let mut size_bits = 0u64;
    let mut rec_align = 8u64;
    // Open bit-field unit: (start, size in bits).
    let mut unit: Option<(u64, u64)> = None;
    let mut fields = Vec::with_capacity(rec.fields.len());
    for f in &rec.fields {
        let tl = layout_in(&f.ty, target);
        let type_bits = tl.size * 8;
        let mut a = if rec.packed || f.packed {
            8
        } else {
            tl.align as u64 * 8
        };
        if let Some(ua) = f.align {
            a = a.max(ua as u64 * 8);
        }
        let a = cap(a);
        if rec.is_union {
            bitpos = 0;
            unit = None;
        }
        let (offset, width) = match f.bits {
            Some(0) => {
                if let Some((start, usize)) = unit.take() {
                    bitpos = round_up(start + usize, a);
                }
                (bitpos, 0)
            }
            Some(w) => {
                let w = w as u64;
                let off = match unit {
                    Some((start, usize)) if usize == type_bits && bitpos + w <= start + usize => {
                        bitpos
                    }
                    Some((start, usize)) => {
                        let s = round_up(start + usize, a);
                        unit = Some((s, type_bits));
                        s
                    }
                    None => {
                        let s = round_up(bitpos, a);
                        unit = Some((s, type_bits));
                        s
                    }
                };
                rec_align = rec_align.max(a);
                size_bits = size_bits.max(unit.map_or(0, |(s, u)| s + u));
                (off, w)
            }
            None => {
                if let Some((start, usize)) = unit.take() {
                    bitpos = start + usize;
                }
                bitpos = round_up(bitpos, a);
                rec_align = rec_align.max(a);
                (bitpos, type_bits)
            }
        };
        fields.push(FieldLayout {
            bit_offset: offset,
            bit_size: width,
        });
        bitpos = offset + width;
        size_bits = size_bits.max(bitpos);
    }
    if let Some(a) = rec.align {
        rec_align = rec_align.max(a as u64 * 8);
    }
    let size = round_up(round_up(size_bits, 8), rec_align) / 8;
    RecordLayout {
        size,
        align: (rec_align / 8) as u32,
        fields,
    }
}
