//! The C type model: just enough of C's types to lay them out and classify them.
//!
//! It is deliberately independent of any front end: a language implementer describes the C
//! types of a foreign function with these constructors, and the front end of neverc converts
//! its own types into them.

/// An integer type. The plain `char` is its own kind because its signedness is the target's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    /// `__int128` (64-bit targets only).
    Int128,
    /// `unsigned __int128`.
    UInt128,
}

/// A real floating type. `LongDouble` has the target's format (x87 80-bit, IEEE quad or
/// IEEE double), given by the data model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float16,
    Float,
    Double,
    LongDouble,
}

/// A C type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Bool,
    Int(IntKind),
    /// An enumeration, represented by its underlying integer type (which is `int` or
    /// `unsigned int` on most targets, and the smallest fitting type with `-fshort-enums`,
    /// the default of bare-metal Arm EABI; see [`Type::enumeration`]).
    Enum(IntKind),
    Float(FloatKind),
    Complex(FloatKind),
    /// Any object or function pointer.
    Pointer,
    /// `elem[len]`; `len == 0` is a flexible array member (or GNU zero-length array).
    Array(Box<Type>, u64),
    Record(Box<Record>),
    /// GNU `__attribute__((vector_size(bytes)))` over a scalar element type.
    Vector(Box<Type>, u32),
    /// A typedef carrying `__attribute__((aligned(n)))`: the alignment becomes exactly `n`
    /// (gcc lets a typedef lower a scalar's alignment too), the size is unchanged.
    Aligned(Box<Type>, u32),
}

/// A structure or union.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    pub is_union: bool,
    pub fields: Vec<Field>,
    /// `__attribute__((packed))` on the record: every member is byte-aligned unless it has
    /// its own `aligned` attribute.
    pub packed: bool,
    /// `__attribute__((aligned(n)))` on the record: a minimum alignment.
    pub align: Option<u32>,
    /// `#pragma pack(n)` in effect at the definition: caps every member's alignment.
    pub pack: Option<u32>,
}

/// A member of a [`Record`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// `None` for an unnamed bit-field (or an anonymous struct/union member).
    pub name: Option<String>,
    pub ty: Type,
    /// Width for a bit-field (0 is the zero-width `int :0`).
    pub bits: Option<u32>,
    /// `__attribute__((aligned(n)))` on the member: a minimum alignment.
    pub align: Option<u32>,
    /// `__attribute__((packed))` on the member.
    pub packed: bool,
}

impl IntKind {
    /// Signedness; `Char` answers for the target `char_signed`.
    pub fn is_signed(self, char_signed: bool) -> bool {
        use IntKind::*;
        match self {
            Char => char_signed,
            SChar | Short | Int | Long | LongLong | Int128 => true,
            UChar | UShort | UInt | ULong | ULongLong | UInt128 => false,
        }
    }
}

impl Type {
    pub fn int() -> Type {
        Type::Int(IntKind::Int)
    }
    pub fn float() -> Type {
        Type::Float(FloatKind::Float)
    }
    pub fn double() -> Type {
        Type::Float(FloatKind::Double)
    }
    pub fn long_double() -> Type {
        Type::Float(FloatKind::LongDouble)
    }
    pub fn array(elem: Type, len: u64) -> Type {
        Type::Array(Box::new(elem), len)
    }
    pub fn vector(elem: Type, bytes: u32) -> Type {
        Type::Vector(Box::new(elem), bytes)
    }
    pub fn aligned(ty: Type, align: u32) -> Type {
        Type::Aligned(Box::new(ty), align)
    }

    /// A struct of the given named members (use [`Record`] directly for bit-fields and
    /// attributes).
    pub fn structure(fields: impl IntoIterator<Item = Type>) -> Type {
        Type::Record(Box::new(Record::new(false, fields)))
    }

    /// A union of the given named members.
    pub fn union(fields: impl IntoIterator<Item = Type>) -> Type {
        Type::Record(Box::new(Record::new(true, fields)))
    }

    /// The enumeration type gcc gives an `enum` whose constants span `min..=max`: `unsigned
    /// int` or `int` (then `long long` kinds when out of range), or with `short_enums` the
    /// smallest integer type that holds them.
    pub fn enumeration(min: i128, max: i128, short_enums: bool) -> Type {
        use IntKind::*;
        let fits = |lo: i128, hi: i128| min >= lo && max <= hi;
        let kind = if short_enums && fits(0, 0xff) {
            UChar
        } else if short_enums && fits(-0x80, 0x7f) {
            SChar
        } else if short_enums && fits(0, 0xffff) {
            UShort
        } else if short_enums && fits(-0x8000, 0x7fff) {
            Short
        } else if fits(0, 0xffff_ffff) {
            UInt
        } else if fits(-0x8000_0000, 0x7fff_ffff) {
            Int
        } else if min >= 0 {
            ULongLong
        } else {
            LongLong
        };
        Type::Enum(kind)
    }

    /// Strips typedef alignment wrappers.
    pub(crate) fn unaligned(&self) -> &Type {
        match self {
            Type::Aligned(t, _) => t.unaligned(),
            t => t,
        }
    }

    /// `struct`/`union`, array or complex (complex counts as a composite for the ABIs that
    /// treat it as a two-member aggregate; callers decide).
    pub fn is_record(&self) -> bool {
        matches!(self.unaligned(), Type::Record(_))
    }
}

impl Record {
    /// A record whose members are all named, ordinary (non-bit-field) members.
    pub fn new(is_union: bool, fields: impl IntoIterator<Item = Type>) -> Record {
        Record {
            is_union,
            fields: fields
                .into_iter()
                .enumerate()
                .map(|(i, ty)| Field::named(format!("f{i}"), ty))
                .collect(),
            ..Record::default()
        }
    }
}

impl Field {
    pub fn named(name: impl Into<String>, ty: Type) -> Field {
        Field {
            name: Some(name.into()),
            ty,
            bits: None,
            align: None,
            packed: false,
        }
    }

    pub fn bitfield(name: Option<&str>, ty: Type, bits: u32) -> Field {
        Field {
            name: name.map(str::to_string),
            ty,
            bits: Some(bits),
            align: None,
            packed: false,
        }
    }
}
