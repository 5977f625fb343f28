//! The type table: interned C types (`TypeId`), records and enums by identity, gcc's
//! spelling of types in messages, compatibility and composite types (C17 6.2.7), and sizes
//! and alignments taken from `neverc-abi`'s layout for the target.

use crate::token::{FxHashMap, Interner, Symbol};
use neverc_abi::{FloatKind, IntKind, Machine};

/// An interned type (qualifiers included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct TypeId(pub u32);

impl TypeId {
    /// The type of an erroneous expression: compatible with everything, never diagnosed.
    pub const ERROR: TypeId = TypeId(0);
}

/// Real floating types as the front end distinguishes them (`_Float32` is not `float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatK {
    Float,
    Double,
    LongDouble,
    /// `_FloatN` (`bits`, `x` suffix).
    FloatN(u16, bool),
    Float128,
    Float80,
    Decimal(u16),
}

/// Length of an array type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrLen {
    /// `[]`: incomplete (or a flexible array member).
    Unknown,
    Fixed(u64),
    /// A variable length array: its size expression, which is also its identity (each
    /// declarator's `[n]` is a type of its own, whose size irgen evaluates where the
    /// declarator is reached), or None for `[*]`. Any two are compatible.
    Vla(Option<crate::parse::ast::ExprId>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncTy {
    pub ret: TypeId,
    pub params: Vec<TypeId>,
    pub variadic: bool,
    /// Declared with a prototype (false: `f()` or a K&R definition).
    pub proto: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Error,
    Void,
    Bool,
    Int(IntKind),
    Float(FloatK),
    /// `_Complex` of a real type.
    Complex(TypeId),
    Pointer(TypeId),
    Array(TypeId, ArrLen),
    Func(FuncTy),
    /// Index into [`TypeTable::records`].
    Record(u32),
    /// Index into [`TypeTable::enums`].
    Enum(u32),
    /// A GNU vector (`__attribute__((vector_size(bytes)))`): element type and count.
    Vector(TypeId, u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    pub kind: Kind,
    /// [`crate::parse::ast::qual`] bits.
    pub quals: u8,
    /// The alignment an `aligned` typedef gave the type, 0 for the kind's own. As in gcc,
    /// the type stays compatible with its unaligned version and converts like it; only its
    /// alignment changes (exactly `align`: a typedef may lower it too), and with it the
    /// layout of records and the ABI (`neverc_abi::Type::Aligned`).
    pub align: u32,
}

/// A member of a struct or union.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: Option<Symbol>,
    pub ty: TypeId,
    pub bits: Option<u32>,
    pub align: Option<u32>,
    pub packed: bool,
}

#[derive(Clone, Debug)]
pub struct RecordInfo {
    pub union: bool,
    pub tag: Option<Symbol>,
    pub members: Vec<Member>,
    pub complete: bool,
    pub packed: bool,
    pub align: Option<u32>,
    pub pack: Option<u32>,
    /// Something in it could not be laid out (an erroneous member type).
    pub opaque: bool,
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub tag: Option<Symbol>,
    pub complete: bool,
    /// The compatible integer type gcc chooses.
    pub underlying: IntKind,
}

pub struct TypeTable {
    pub types: Vec<Ty>,
    map: FxHashMap<Ty, TypeId>,
    pub records: Vec<RecordInfo>,
    pub enums: Vec<EnumInfo>,
    pub machine: Machine,
    /// `int(k)`'s answers, by `IntKind` (0: not interned yet; 0 is the error type).
    int_ids: [u32; 13],
    /// `pointer(t)`'s answers, by `t` (0: not interned yet).
    ptr_ids: Vec<u32>,
    /// `void()`'s answer (0: not interned yet).
    void_id: u32,
    /// Each `IntKind`'s width in bits and signedness on the target, by `IntKind` (asked
    /// for every literal, constant and conversion).
    int_bits: [u32; 13],
    int_signed: [bool; 13],
    /// How gcc spells a VLA's size in messages (`int (*)[n + 1]`), by its size expression;
    /// a size not here is spelled `*`.
    pub vla_spelling: FxHashMap<crate::parse::ast::ExprId, String>,
}

/// Size and alignment in bytes.
pub type SizeAlign = (u64, u32);

impl TypeTable {
    pub fn new(machine: Machine) -> TypeTable {
        let mut t = TypeTable {
            types: Vec::new(),
            map: FxHashMap::default(),
            records: Vec::new(),
            enums: Vec::new(),
            machine,
            int_ids: [0; 13],
            ptr_ids: Vec::new(),
            void_id: 0,
            int_bits: [0; 13],
            int_signed: [false; 13],
            vla_spelling: FxHashMap::default(),
        };
        use IntKind::*;
        for k in [
            Char, SChar, UChar, Short, UShort, Int, UInt, Long, ULong, LongLong, ULongLong, Int128,
            UInt128,
        ] {
            t.int_bits[k as usize] =
                neverc_abi::layout::int_layout(k, &machine.data_model).size as u32 * 8;
            t.int_signed[k as usize] = k.is_signed(machine.data_model.char_signed);
        }
        let e = t.intern(Kind::Error, 0);
        debug_assert_eq!(e, TypeId::ERROR);
        t
    }

    pub fn intern(&mut self, kind: Kind, quals: u8) -> TypeId {
        self.intern_ty(Ty {
            kind,
            quals,
            align: 0,
        })
    }

    fn intern_ty(&mut self, ty: Ty) -> TypeId {
        if let Some(&id) = self.map.get(&ty) {
            return id;
        }
        let id = TypeId(self.types.len() as u32);
        self.types.push(ty.clone());
        self.map.insert(ty, id);
        id
    }

    pub fn get(&self, id: TypeId) -> &Ty {
        &self.types[id.0 as usize]
    }
    pub fn kind(&self, id: TypeId) -> &Kind {
        &self.types[id.0 as usize].kind
    }
    pub fn quals(&self, id: TypeId) -> u8 {
        self.types[id.0 as usize].quals
    }
    /// The alignment of an `aligned` typedef on this type, 0 if none.
    pub fn typedef_align(&self, id: TypeId) -> u32 {
        self.types[id.0 as usize].align
    }
    /// `id` with the alignment of `typedef ... __attribute__((aligned(align)))`.
    pub fn with_align(&mut self, id: TypeId, align: u32) -> TypeId {
        if id == TypeId::ERROR {
            return id;
        }
        let ty = Ty {
            align,
            ..self.get(id).clone()
        };
        self.intern_ty(ty)
    }

    #[inline]
    pub fn int(&mut self, k: IntKind) -> TypeId {
        // The integer types are asked for all the time (promotions, literals, results of
        // comparisons): remembered by kind rather than hashed each time.
        let cached = self.int_ids[k as usize];
        if cached != 0 {
            return TypeId(cached);
        }
        self.int_first(k)
    }

    /// [`Self::int`] the first time.
    #[inline(never)]
    fn int_first(&mut self, k: IntKind) -> TypeId {
        let id = self.intern(Kind::Int(k), 0);
        self.int_ids[k as usize] = id.0;
        id
    }
    pub fn void(&mut self) -> TypeId {
        // Remembered rather than hashed each time (interned at its first use, as always).
        if self.void_id == 0 {
            self.void_id = self.intern(Kind::Void, 0).0;
        }
        TypeId(self.void_id)
    }
    pub fn pointer(&mut self, to: TypeId) -> TypeId {
        // Asked for at every decay of an array or function: remembered by pointee.
        if let Some(&p) = self.ptr_ids.get(to.0 as usize) {
            if p != 0 {
                return TypeId(p);
            }
        }
        let p = self.intern(Kind::Pointer(to), 0);
        let i = to.0 as usize;
        if i >= self.ptr_ids.len() {
            self.ptr_ids.resize((i + 1).max(self.types.len()), 0);
        }
        self.ptr_ids[i] = p.0;
        p
    }
    pub fn with_quals(&mut self, id: TypeId, quals: u8) -> TypeId {
        if id == TypeId::ERROR {
            return id;
        }
        let k = self.kind(id).clone();
        let align = self.typedef_align(id);
        // Qualifiers on an array type apply to its elements (C17 6.7.3p10).
        if let Kind::Array(e, n) = k {
            let e = self.add_quals(e, quals);
            return self.intern_ty(Ty {
                kind: Kind::Array(e, n),
                quals: 0,
                align,
            });
        }
        self.intern_ty(Ty {
            kind: k,
            quals,
            align,
        })
    }
    pub fn add_quals(&mut self, id: TypeId, quals: u8) -> TypeId {
        if quals == 0 {
            return id;
        }
        let q = self.quals(id) | quals;
        self.with_quals(id, q)
    }
    #[inline]
    pub fn unqual(&mut self, id: TypeId) -> TypeId {
        if self.quals(id) == 0 {
            return id;
        }
        self.unqual_slow(id)
    }

    /// `unqual` of a qualified type: interned without its qualifiers (kept out of line so
    /// the common, unqualified case inlines).
    fn unqual_slow(&mut self, id: TypeId) -> TypeId {
        let ty = Ty {
            quals: 0,
            ..self.get(id).clone()
        };
        self.intern_ty(ty)
    }

    pub fn is_error(&self, id: TypeId) -> bool {
        matches!(self.kind(id), Kind::Error)
    }
    pub fn is_integer(&self, id: TypeId) -> bool {
        matches!(self.kind(id), Kind::Int(_) | Kind::Bool | Kind::Enum(_))
    }
    pub fn is_arith(&self, id: TypeId) -> bool {
        matches!(
            self.kind(id),
            Kind::Int(_) | Kind::Bool | Kind::Enum(_) | Kind::Float(_) | Kind::Complex(_)
        )
    }
    pub fn is_scalar(&self, id: TypeId) -> bool {
        self.is_arith(id) || matches!(self.kind(id), Kind::Pointer(_))
    }
    pub fn is_vector(&self, id: TypeId) -> bool {
        matches!(self.kind(id), Kind::Vector(..))
    }
    pub fn is_void(&self, id: TypeId) -> bool {
        matches!(self.kind(id), Kind::Void)
    }
    pub fn pointee(&self, id: TypeId) -> Option<TypeId> {
        match self.kind(id) {
            Kind::Pointer(t) => Some(*t),
            _ => None,
        }
    }
    pub fn func(&self, id: TypeId) -> Option<&FuncTy> {
        match self.kind(id) {
            Kind::Func(f) => Some(f),
            _ => None,
        }
    }

    /// The integer kind of an integer type (enums by their underlying type, `_Bool` as
    /// unsigned char for arithmetic on values).
    pub fn int_kind(&self, id: TypeId) -> Option<IntKind> {
        match self.kind(id) {
            Kind::Int(k) => Some(*k),
            Kind::Enum(e) => Some(self.enums[*e as usize].underlying),
            Kind::Bool => Some(IntKind::UChar),
            _ => None,
        }
    }

    #[inline]
    pub fn int_bits(&self, k: IntKind) -> u32 {
        self.int_bits[k as usize]
    }
    #[inline]
    pub fn is_signed_kind(&self, k: IntKind) -> bool {
        self.int_signed[k as usize]
    }
    #[inline]
    pub fn is_signed(&self, id: TypeId) -> bool {
        match self.kind(id) {
            Kind::Bool => false,
            _ => self.int_kind(id).is_some_and(|k| self.is_signed_kind(k)),
        }
    }

    /// Array-to-pointer and function-to-pointer conversion, dropping qualifiers.
    #[inline]
    pub fn decay(&mut self, id: TypeId) -> TypeId {
        // (An unqualified integer type, most operands, is its own.)
        let ty = &self.types[id.0 as usize];
        if ty.quals == 0 && matches!(ty.kind, Kind::Int(_)) {
            return id;
        }
        match *self.kind(id) {
            Kind::Array(e, _) => self.pointer(e),
            Kind::Func(_) => self.pointer(id),
            _ => self.unqual(id),
        }
    }

    fn rank(k: IntKind) -> u32 {
        use IntKind::*;
        match k {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
            Int128 | UInt128 => 6,
        }
    }

    fn unsigned_of(k: IntKind) -> IntKind {
        use IntKind::*;
        match k {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
            Int128 | UInt128 => UInt128,
        }
    }

    /// The integer promotions (C17 6.3.1.1).
    pub fn promote(&mut self, id: TypeId) -> TypeId {
        let id = self.unqual(id);
        let Some(k) = self.int_kind(id) else {
            return id;
        };
        if matches!(self.kind(id), Kind::Bool) || Self::rank(k) < 3 {
            let bits = self.int_bits(k);
            let ibits = self.int_bits(IntKind::Int);
            let fits = if self.is_signed_kind(k) {
                bits <= ibits
            } else {
                bits < ibits
            };
            return self.int(if fits { IntKind::Int } else { IntKind::UInt });
        }
        if matches!(self.kind(id), Kind::Enum(_)) {
            return self.int(k);
        }
        id
    }

    fn float_rank(&self, f: FloatK) -> u32 {
        match f {
            FloatK::FloatN(16, false) => 0,
            FloatK::Float | FloatK::FloatN(32, false) => 1,
            FloatK::Double | FloatK::FloatN(64, false) | FloatK::FloatN(32, true) => 2,
            FloatK::LongDouble | FloatK::Float80 | FloatK::FloatN(64, true) => 3,
            FloatK::Float128 | FloatK::FloatN(128, _) => 4,
            FloatK::Decimal(n) => 10 + n as u32,
            FloatK::FloatN(..) => 2,
        }
    }

    /// The usual arithmetic conversions (C17 6.3.1.8); None if an operand is not
    /// arithmetic.
    pub fn usual(&mut self, a: TypeId, b: TypeId) -> Option<TypeId> {
        if self.is_error(a) || self.is_error(b) {
            return Some(TypeId::ERROR);
        }
        if !self.is_arith(a) || !self.is_arith(b) {
            return None;
        }
        // Both operands `int` or wider: no promotion, the common type of the two kinds
        // (most arithmetic; the general path below gives the same answer).
        if let (Kind::Int(ka), Kind::Int(kb)) = (self.kind(a), self.kind(b)) {
            let (ka, kb) = (*ka, *kb);
            if Self::rank(ka) >= 3 && Self::rank(kb) >= 3 {
                let k = self.common_int(ka, kb);
                return Some(self.int(k));
            }
        }
        let a = self.unqual(a);
        let b = self.unqual(b);
        let real = |t: &mut TypeTable, x: TypeId| match t.kind(x) {
            Kind::Complex(r) => (*r, true),
            _ => (x, false),
        };
        let (ra, ca) = real(self, a);
        let (rb, cb) = real(self, b);
        let fa = matches!(self.kind(ra), Kind::Float(_));
        let fb = matches!(self.kind(rb), Kind::Float(_));
        let r = if fa || fb {
            match (self.kind(ra).clone(), self.kind(rb).clone()) {
                (Kind::Float(x), Kind::Float(y)) => {
                    if self.float_rank(x) >= self.float_rank(y) {
                        ra
                    } else {
                        rb
                    }
                }
                (Kind::Float(_), _) => ra,
                _ => rb,
            }
        } else {
            let pa = self.promote(ra);
            let pb = self.promote(rb);
            let ka = self.int_kind(pa)?;
            let kb = self.int_kind(pb)?;
            let k = self.common_int(ka, kb);
            self.int(k)
        };
        Some(if ca || cb {
            self.intern(Kind::Complex(r), 0)
        } else {
            r
        })
    }

    /// The kind of an integer type of at least `int`'s rank (not an enum, not `_Bool`):
    /// one that the integer promotions leave as it is.
    #[inline]
    pub fn int_from_int(&self, id: TypeId) -> Option<IntKind> {
        match *self.kind(id) {
            Kind::Int(k) if Self::rank(k) >= 3 => Some(k),
            _ => None,
        }
    }

    /// The common kind of two integer kinds of at least `int`'s rank under the usual
    /// arithmetic conversions.
    pub(crate) fn common_int(&self, a: IntKind, b: IntKind) -> IntKind {
        if a == b {
            return a;
        }
        let (sa, sb) = (self.is_signed_kind(a), self.is_signed_kind(b));
        let (ra, rb) = (Self::rank(a), Self::rank(b));
        if sa == sb {
            return if ra >= rb { a } else { b };
        }
        let (s, u) = if sa { (a, b) } else { (b, a) };
        if Self::rank(u) >= Self::rank(s) {
            return u;
        }
        if self.int_bits(s) > self.int_bits(u) {
            return s;
        }
        Self::unsigned_of(s)
    }

    // ----- compatibility -----

    /// Are two types compatible (C17 6.2.7)? Erroneous types are compatible with all.
    pub fn compatible(&self, a: TypeId, b: TypeId) -> bool {
        if a == b || self.is_error(a) || self.is_error(b) {
            return true;
        }
        let (ta, tb) = (self.get(a), self.get(b));
        if ta.quals != tb.quals {
            return false;
        }
        self.compatible_kinds(&ta.kind, &tb.kind)
    }

    /// Are two unqualified types of these kinds compatible? (An `aligned` typedef's
    /// alignment does not matter, as in gcc.)
    fn compatible_kinds(&self, ka: &Kind, kb: &Kind) -> bool {
        if ka == kb {
            return true;
        }
        match (ka, kb) {
            (Kind::Int(x), Kind::Int(y)) => x == y,
            (Kind::Enum(e), Kind::Int(k)) | (Kind::Int(k), Kind::Enum(e)) => {
                self.enums[*e as usize].underlying == *k
            }
            (Kind::Pointer(x), Kind::Pointer(y)) => self.compatible(*x, *y),
            (Kind::Complex(x), Kind::Complex(y)) => self.compatible(*x, *y),
            (Kind::Array(x, n), Kind::Array(y, m)) => {
                self.compatible(*x, *y)
                    && match (n, m) {
                        (ArrLen::Fixed(p), ArrLen::Fixed(q)) => p == q,
                        _ => true,
                    }
            }
            (Kind::Func(f), Kind::Func(g)) => self.compatible_funcs(f, g),
            _ => false,
        }
    }

    /// Compatible ignoring top-level qualifiers (parameters are compared so).
    pub fn compatible_unqual(&self, a: TypeId, b: TypeId) -> bool {
        if self.is_error(a) || self.is_error(b) {
            return true;
        }
        self.compatible_kinds(self.kind(a), self.kind(b))
    }

    fn compatible_funcs(&self, f: &FuncTy, g: &FuncTy) -> bool {
        if !self.compatible(f.ret, g.ret) {
            return false;
        }
        match (f.proto, g.proto) {
            (true, true) => {
                f.variadic == g.variadic
                    && f.params.len() == g.params.len()
                    && f.params
                        .iter()
                        .zip(&g.params)
                        .all(|(x, y)| self.compatible_unqual(*x, *y))
            }
            (false, false) => true,
            (true, false) | (false, true) => {
                let p = if f.proto { f } else { g };
                !p.variadic && p.params.iter().all(|&t| self.self_promoting(t))
            }
        }
    }

    /// Does the type survive the default argument promotions unchanged?
    fn self_promoting(&self, t: TypeId) -> bool {
        match self.kind(t) {
            Kind::Error => true,
            Kind::Bool => false,
            Kind::Float(FloatK::Float) => false,
            Kind::Int(k) => Self::rank(*k) >= 3,
            Kind::Enum(e) => Self::rank(self.enums[*e as usize].underlying) >= 3,
            _ => true,
        }
    }

    /// The composite of two compatible types (C17 6.2.7p3), favouring `b` where equal.
    pub fn composite(&mut self, a: TypeId, b: TypeId) -> TypeId {
        if self.is_error(a) {
            return b;
        }
        if self.is_error(b) || a == b {
            return a;
        }
        let q = self.quals(b);
        match (self.kind(a).clone(), self.kind(b).clone()) {
            (Kind::Array(x, n), Kind::Array(y, m)) => {
                let e = self.composite(x, y);
                let len = match (n, m) {
                    (ArrLen::Fixed(_), _) => n,
                    _ => m,
                };
                self.intern(Kind::Array(e, len), q)
            }
            (Kind::Pointer(x), Kind::Pointer(y)) => {
                let e = self.composite(x, y);
                self.intern(Kind::Pointer(e), q)
            }
            (Kind::Func(f), Kind::Func(g)) => {
                let ret = self.composite(f.ret, g.ret);
                let ft = match (f.proto, g.proto) {
                    (true, false) => FuncTy { ret, ..f },
                    (false, true) | (false, false) => FuncTy { ret, ..g },
                    (true, true) => {
                        let mut params = Vec::with_capacity(g.params.len());
                        for (x, y) in f.params.iter().zip(&g.params) {
                            let (x, y) = (self.unqual(*x), self.unqual(*y));
                            params.push(self.composite(x, y));
                        }
                        FuncTy { ret, params, ..g }
                    }
                };
                self.intern(Kind::Func(ft), q)
            }
            _ => b,
        }
    }

    // ----- layout -----

    /// The type in `neverc-abi`'s model, or None for what has no size (functions,
    /// incomplete records, VLAs, errors).
    pub fn to_abi(&self, id: TypeId) -> Option<neverc_abi::Type> {
        self.to_abi_depth(id, 0)
    }

    fn to_abi_depth(&self, id: TypeId, depth: u32) -> Option<neverc_abi::Type> {
        let t = self.to_abi_kind(id, depth)?;
        Some(match self.typedef_align(id) {
            0 => t,
            n => neverc_abi::Type::Aligned(Box::new(t), n),
        })
    }

    fn to_abi_kind(&self, id: TypeId, depth: u32) -> Option<neverc_abi::Type> {
        use neverc_abi::Type as A;
        // Nesting is bounded by the parser; a cycle would be a bug, never a hang.
        if depth > 4096 {
            return None;
        }
        let depth = depth + 1;
        Some(match self.kind(id) {
            Kind::Error | Kind::Func(_) => return None,
            Kind::Void => A::Void,
            Kind::Bool => A::Bool,
            Kind::Int(k) => A::Int(*k),
            Kind::Enum(e) => A::Enum(self.enums[*e as usize].underlying),
            Kind::Float(f) => self.float_abi(*f),
            // gcc lays out and passes an integer complex as a struct of its two parts.
            Kind::Complex(r) => match self.kind(*r) {
                Kind::Float(f) => match self.float_abi(*f) {
                    A::Float(k) => A::Complex(k),
                    other => A::structure([other.clone(), other]),
                },
                _ => {
                    let e = self.to_abi_depth(*r, depth)?;
                    A::structure([e.clone(), e])
                }
            },
            Kind::Pointer(_) => A::Pointer,
            Kind::Vector(e, n) => {
                let el = self.to_abi_depth(*e, depth)?;
                let size = neverc_abi::layout(&el, self.machine).size as u32;
                A::Vector(Box::new(el), size * n)
            }
            Kind::Array(e, n) => {
                let e = self.to_abi_depth(*e, depth)?;
                match n {
                    ArrLen::Fixed(n) => A::array(e, *n),
                    ArrLen::Unknown => A::array(e, 0),
                    ArrLen::Vla(_) => return None,
                }
            }
            Kind::Record(r) => {
                let info = &self.records[*r as usize];
                if !info.complete || info.opaque {
                    return None;
                }
                let mut fields = Vec::with_capacity(info.members.len());
                for m in &info.members {
                    fields.push(neverc_abi::Field {
                        // Only whether a member is named matters to layout.
                        name: m.name.map(|_| String::from("m")),
                        ty: self.to_abi_depth(m.ty, depth)?,
                        bits: m.bits,
                        align: m.align,
                        packed: m.packed,
                    });
                }
                A::Record(Box::new(neverc_abi::Record {
                    is_union: info.union,
                    fields,
                    packed: info.packed,
                    align: info.align,
                    pack: info.pack,
                }))
            }
        })
    }

    fn float_abi(&self, f: FloatK) -> neverc_abi::Type {
        use neverc_abi::Type as A;
        match f {
            FloatK::Float | FloatK::FloatN(32, false) => A::Float(FloatKind::Float),
            FloatK::FloatN(16, false) => A::Float(FloatKind::Float16),
            FloatK::Double | FloatK::FloatN(64, false) | FloatK::FloatN(32, true) => {
                A::Float(FloatKind::Double)
            }
            FloatK::LongDouble | FloatK::Float80 | FloatK::FloatN(64, true) => {
                A::Float(FloatKind::LongDouble)
            }
            // IEEE quad: 16 bytes aligned to 16 (what `__int128` also has).
            FloatK::Float128 | FloatK::FloatN(..) | FloatK::Decimal(128) => A::Int(IntKind::Int128),
            FloatK::Decimal(32) => A::Int(IntKind::UInt),
            FloatK::Decimal(_) => A::Int(IntKind::ULongLong),
        }
    }

    /// The width of bit-field `name` of record `r` (searching anonymous members); None
    /// for an ordinary member or none.
    pub fn bitfield_width(&self, r: u32, name: Symbol) -> Option<u32> {
        for m in &self.records[r as usize].members {
            if m.name == Some(name) {
                return m.bits;
            }
            if m.name.is_none() && m.bits.is_none() {
                if let Kind::Record(inner) = self.kind(m.ty) {
                    if let Some(w) = self.bitfield_width(*inner, name) {
                        return Some(w);
                    }
                }
            }
        }
        None
    }

    /// Size and alignment (gcc's: `void` and functions are 1).
    pub fn size_align(&self, id: TypeId) -> Option<SizeAlign> {
        if let Kind::Func(_) = self.kind(id) {
            return Some((1, 1));
        }
        self.size_align_depth(id, 0)
    }

    /// `neverc-abi`'s layout of `to_abi_depth(id, depth)`, read off the type where that
    /// layout is simple (integers, pointers, arrays of them) rather than built as an ABI
    /// type (an allocation per array; irgen asks for every object).
    fn size_align_depth(&self, id: TypeId, depth: u32) -> Option<SizeAlign> {
        use neverc_abi::Type as A;
        let m = self.machine;
        let own = match *self.kind(id) {
            _ if depth > 4096 => return None,
            Kind::Int(k) => neverc_abi::layout(&A::Int(k), m),
            Kind::Enum(e) => neverc_abi::layout(&A::Int(self.enums[e as usize].underlying), m),
            Kind::Pointer(_) => neverc_abi::layout(&A::Pointer, m),
            Kind::Array(e, ArrLen::Fixed(n)) => {
                let (size, align) = self.size_align_depth(e, depth + 1)?;
                neverc_abi::Layout {
                    size: size * n,
                    align,
                }
            }
            _ => {
                let t = self.to_abi_depth(id, depth)?;
                let l = neverc_abi::layout(&t, m);
                return Some((l.size, l.align));
            }
        };
        Some(match self.typedef_align(id) {
            0 => (own.size, own.align),
            a => (own.size, a),
        })
    }

    /// `_Alignof` (`c11`, see `neverc_abi::c11_alignof`) or `__alignof__` of a type.
    pub fn alignof(&self, id: TypeId, c11: bool) -> Option<u32> {
        // A variable length array is aligned as its elements.
        if let Kind::Array(e, ArrLen::Vla(_)) = *self.kind(id) {
            if self.typedef_align(id) == 0 {
                return self.alignof(e, c11);
            }
        }
        match self.to_abi(id) {
            Some(t) if c11 => Some(neverc_abi::c11_alignof(&t, self.machine)),
            _ => self.size_align(id).map(|s| s.1),
        }
    }

    /// Is the type an array whose size is known only at run time (a VLA, or an array of
    /// them: `int[3][n]`)?
    pub fn is_vla(&self, id: TypeId) -> bool {
        match *self.kind(id) {
            Kind::Array(_, ArrLen::Vla(_)) => true,
            Kind::Array(e, _) => self.is_vla(e),
            _ => false,
        }
    }

    /// Is the type complete (an object type whose size is known, or a VLA)?
    pub fn is_complete(&self, id: TypeId) -> bool {
        match self.kind(id) {
            Kind::Void | Kind::Func(_) => false,
            Kind::Array(e, n) => *n != ArrLen::Unknown && self.is_complete(*e),
            Kind::Record(r) => self.records[*r as usize].complete,
            Kind::Enum(e) => self.enums[*e as usize].complete,
            _ => true,
        }
    }

    // ----- names in messages -----

    /// gcc's spelling of a type (`int(int,  char *)`, `struct s`, `int (*)[3]`).
    pub fn name(&self, id: TypeId, interner: &Interner) -> String {
        let (base, decl) = self.split(id, String::new(), interner);
        if decl.is_empty() {
            base
        } else if (decl.starts_with('(') && !decl.starts_with("(*")) || decl.starts_with('[') {
            // A function's parameters or an array's bounds follow the base directly; a
            // parenthesised pointer declarator does not (`int (*)[3]`).
            format!("{base}{decl}")
        } else {
            format!("{base} {decl}")
        }
    }

    fn quals_str(q: u8) -> String {
        use crate::parse::ast::qual;
        let mut v = Vec::new();
        if q & qual::CONST != 0 {
            v.push("const");
        }
        if q & qual::VOLATILE != 0 {
            v.push("volatile");
        }
        if q & qual::RESTRICT != 0 {
            v.push("restrict");
        }
        if q & qual::ATOMIC != 0 {
            v.push("_Atomic");
        }
        v.join(" ")
    }

    /// Splits into the base type's name and the declarator around `inner`.
    fn split(&self, id: TypeId, inner: String, interner: &Interner) -> (String, String) {
        let t = self.get(id);
        let q = Self::quals_str(t.quals);
        match &t.kind {
            Kind::Pointer(to) => {
                let mut d = String::from("*");
                if !q.is_empty() {
                    d.push_str(&q);
                    if !inner.is_empty() {
                        d.push(' ');
                    }
                } else if inner.starts_with('(') {
                    // gcc: `int * (*)[2]`, `int (* (*)(void))[4]`.
                    d.push(' ');
                }
                d.push_str(&inner);
                let wrap = matches!(self.kind(*to), Kind::Array(..) | Kind::Func(_));
                let d = if wrap { format!("({d})") } else { d };
                self.split(*to, d, interner)
            }
            Kind::Array(e, n) => {
                let d = match n {
                    ArrLen::Fixed(n) => format!("{inner}[{n}]"),
                    ArrLen::Unknown => format!("{inner}[]"),
                    ArrLen::Vla(e) => {
                        let size = e.and_then(|e| self.vla_spelling.get(&e));
                        format!("{inner}[{}]", size.map_or("*", |s| s.as_str()))
                    }
                };
                self.split(*e, d, interner)
            }
            Kind::Func(f) => {
                let mut d = inner;
                d.push('(');
                if f.proto {
                    if f.params.is_empty() && !f.variadic {
                        d.push_str("void");
                    }
                    for (i, p) in f.params.iter().enumerate() {
                        if i > 0 {
                            d.push_str(",  ");
                        }
                        d.push_str(&self.name(*p, interner));
                    }
                    if f.variadic {
                        d.push_str(if f.params.is_empty() { "..." } else { ", ..." });
                    }
                }
                d.push(')');
                self.split(f.ret, d, interner)
            }
            k => {
                let b = self.base_name(k, interner);
                let b = if q.is_empty() { b } else { format!("{q} {b}") };
                (b, inner)
            }
        }
    }

    fn base_name(&self, k: &Kind, interner: &Interner) -> String {
        match k {
            Kind::Error => "<type-error>".into(),
            Kind::Void => "void".into(),
            Kind::Bool => "_Bool".into(),
            Kind::Int(k) => int_kind_name(*k).into(),
            Kind::Float(f) => match f {
                FloatK::Float => "float".into(),
                FloatK::Double => "double".into(),
                FloatK::LongDouble => "long double".into(),
                FloatK::FloatN(n, x) => format!("_Float{n}{}", if *x { "x" } else { "" }),
                FloatK::Float128 => "__float128".into(),
                FloatK::Float80 => "__float80".into(),
                FloatK::Decimal(n) => format!("_Decimal{n}"),
            },
            Kind::Complex(r) => format!("complex {}", self.name(*r, interner)),
            Kind::Vector(e, n) => format!("__vector({n}) {}", self.name(*e, interner)),
            Kind::Record(r) => {
                let info = &self.records[*r as usize];
                let kw = if info.union { "union" } else { "struct" };
                match info.tag {
                    Some(s) => format!("{kw} {}", interner.str(s)),
                    None => format!("{kw} <anonymous>"),
                }
            }
            Kind::Enum(e) => match self.enums[*e as usize].tag {
                Some(s) => format!("enum {}", interner.str(s)),
                None => "enum <anonymous>".into(),
            },
            Kind::Pointer(_) | Kind::Array(..) | Kind::Func(_) => unreachable!(),
        }
    }
}

/// The name gcc prints for an integer kind in diagnostics (`long unsigned int`).
pub fn int_kind_name(k: IntKind) -> &'static str {
    use IntKind::*;
    match k {
        Char => "char",
        SChar => "signed char",
        UChar => "unsigned char",
        Short => "short int",
        UShort => "short unsigned int",
        Int => "int",
        UInt => "unsigned int",
        Long => "long int",
        ULong => "long unsigned int",
        LongLong => "long long int",
        ULongLong => "long long unsigned int",
        Int128 => "__int128",
        UInt128 => "__int128 unsigned",
    }
}
