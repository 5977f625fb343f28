//! C types as IR sees them: which machine type holds a scalar, where members live, and
//! the `neverc-abi` signature of a call.

use crate::Gen;
use neverc_abi::{IntKind, Location, Place, Signature};
use neverc_front::sema::{FloatK, Kind, TypeId};
use neverc_front::token::Symbol;
use neverc_ir::Type;
use neverc_target::registers::RegClass;

/// A member found by name: where it is and what it is.
#[derive(Clone, Copy, Debug)]
pub struct MemberAt {
    /// Byte offset of the member (of the first byte holding a bit-field).
    pub offset: u64,
    /// For a bit-field: (bit offset from `offset`, width).
    pub bits: Option<(u32, u32)>,
    pub ty: TypeId,
}

impl<'a> Gen<'a> {
    /// The machine type of a scalar C type (None for aggregates, void, functions).
    #[inline]
    pub fn ir_type(&self, ty: TypeId) -> Option<Type> {
        match self.ir_types.get(ty.0 as usize) {
            Some(&t) => t,
            None => self.ir_type_uncached(ty),
        }
    }

    /// Works out `ir_type` and `size_align` of the types the table gained since the last
    /// call (sema is done with the types that exist: their machine types and sizes never
    /// change), so that asking is an indexing.
    pub(crate) fn refresh_ir_types(&mut self) {
        let n = self.t.types.types.len();
        for i in self.ir_types.len()..n {
            let t = self.ir_type_uncached(TypeId(i as u32));
            self.ir_types.push(t);
        }
        for i in self.sizes.len()..n {
            let sa = self.t.types.size_align(TypeId(i as u32)).unwrap_or((0, 1));
            self.sizes.push(sa);
        }
    }

    #[inline(never)]
    fn ir_type_uncached(&self, ty: TypeId) -> Option<Type> {
        let ptr_bytes = self.machine.data_model.pointer.size;
        Some(match self.t.types.kind(ty) {
            Kind::Bool => Type::I8,
            Kind::Int(k) => int_type(*k, self),
            Kind::Enum(e) => int_type(self.t.types.enums[*e as usize].underlying, self),
            Kind::Pointer(_) => {
                if ptr_bytes == 8 {
                    Type::Ptr
                } else {
                    Type::int_of_bytes(ptr_bytes)?
                }
            }
            Kind::Float(f) => match f {
                FloatK::FloatN(16, false) => Type::F16,
                FloatK::Float | FloatK::FloatN(32, false) => Type::F32,
                FloatK::Double | FloatK::FloatN(64, false) | FloatK::FloatN(32, true) => Type::F64,
                FloatK::LongDouble => {
                    let l = neverc_abi::layout(
                        &neverc_abi::Type::Float(neverc_abi::FloatKind::LongDouble),
                        self.machine,
                    );
                    match l.size {
                        8 => Type::F64,
                        _ if self.machine.arch == neverc_target::Arch::X86_64 => Type::F80,
                        _ => Type::F128,
                    }
                }
                FloatK::Float80 | FloatK::FloatN(64, true) => Type::F80,
                _ => Type::F128,
            },
            _ => return None,
        })
    }

    pub fn is_scalar(&self, ty: TypeId) -> bool {
        self.ir_type(ty).is_some()
    }

    pub fn is_signed(&self, ty: TypeId) -> bool {
        self.t.types.is_signed(ty)
    }

    pub fn is_float(&self, ty: TypeId) -> bool {
        matches!(self.t.types.kind(ty), Kind::Float(_))
    }

    pub fn is_pointer(&self, ty: TypeId) -> bool {
        matches!(self.t.types.kind(ty), Kind::Pointer(_))
    }

    /// The size of what a pointer points to, for pointer arithmetic (`void`: 1, gcc's).
    pub fn pointee_size(&self, ty: TypeId) -> u64 {
        match self.t.types.kind(ty) {
            Kind::Pointer(p) | Kind::Array(p, _) => match self.t.types.kind(*p) {
                Kind::Void | Kind::Func(_) => 1,
                _ => self.size_align(*p).0,
            },
            _ => 1,
        }
    }

    pub fn record_layout(&mut self, ty: TypeId) -> Option<std::rc::Rc<neverc_abi::RecordLayout>> {
        let Kind::Record(r) = *self.t.types.kind(ty) else {
            return None;
        };
        if let Some(l) = self.layouts.get(&r) {
            return Some(l.clone());
        }
        let abi = self.t.types.to_abi(ty)?;
        let neverc_abi::Type::Record(rec) = &abi else {
            return None;
        };
        let l = std::rc::Rc::new(neverc_abi::record_layout(rec, self.machine));
        self.layouts.insert(r, l.clone());
        Some(l)
    }

    /// Finds member `name` of record type `ty`, looking into anonymous members.
    pub fn member(&mut self, ty: TypeId, name: Symbol) -> Option<MemberAt> {
        let Kind::Record(r) = *self.t.types.kind(ty) else {
            return None;
        };
        let lay = self.record_layout(ty)?;
        // (By index, not a copy of the members: the search recurses with `self`.)
        for i in 0..self.t.types.records[r as usize].members.len() {
            let m = &self.t.types.records[r as usize].members[i];
            let (m_name, m_bits, m_ty) = (m.name, m.bits, m.ty);
            let fl = lay.fields[i];
            if m_name == Some(name) {
                let offset = fl.offset();
                let bits =
                    m_bits.map(|_| ((fl.bit_offset - offset * 8) as u32, fl.bit_size as u32));
                return Some(MemberAt {
                    offset,
                    bits,
                    ty: m_ty,
                });
            }
            if m_name.is_none() && m_bits.is_none() {
                if let Some(inner) = self.member(m_ty, name) {
                    return Some(MemberAt {
                        offset: fl.offset() + inner.offset,
                        ..inner
                    });
                }
            }
        }
        None
    }

    /// The ABI type of a C type (for plans).
    pub fn abi_type(&self, ty: TypeId) -> Option<neverc_abi::Type> {
        match self.t.types.kind(ty) {
            Kind::Void => Some(neverc_abi::Type::Void),
            _ => self.t.types.to_abi(ty),
        }
    }

    /// The signature of a call: the return type, the (converted) argument types, and how
    /// many of them are named (None: not variadic).
    pub fn signature(
        &self,
        ret: TypeId,
        args: &[TypeId],
        named: Option<usize>,
    ) -> Option<Signature> {
        let ret = self.abi_type(ret)?;
        let params: Option<Vec<_>> = args.iter().map(|&a| self.abi_type(a)).collect();
        let params = params?;
        Some(match named {
            Some(n) => Signature::variadic(ret, params, n),
            None => Signature::new(ret, params),
        })
    }

    /// Whether plan register `r` is a floating-point/vector register of the target (by
    /// the register schema, not by number ranges).
    pub fn is_vector_reg(&self, r: u16) -> bool {
        neverc_target::registers::schema(self.machine.arch)
            .get(r)
            .is_some_and(|x| matches!(x.class, RegClass::Vector | RegClass::Float))
    }

    /// The machine type that carries one piece of a value in its plan location: scalars
    /// keep their own type (widened as the location's flags ask); aggregate pieces use the
    /// integer or float type of the register class.
    pub fn piece_type(&self, loc: &Location, scalar: Option<Type>) -> Type {
        use neverc_abi::Flags;
        if loc.flags.contains(Flags::BYREF) {
            return Type::Ptr;
        }
        if let Some(t) = scalar {
            if loc.flags.contains(Flags::SEXT32) || loc.flags.contains(Flags::ZEXT32) {
                return Type::I32;
            }
            if loc.flags.contains(Flags::SEXT64) || loc.flags.contains(Flags::ZEXT64) {
                return Type::I64;
            }
            if t != Type::I128 && t != Type::F128 {
                return t;
            }
        }
        let class = match loc.place {
            Place::Reg(r) => neverc_target::registers::schema(self.machine.arch)
                .get(r)
                .map(|r| r.class)
                .unwrap_or(RegClass::Gpr),
            Place::Stack(_) => RegClass::Gpr,
        };
        match class {
            RegClass::Float | RegClass::Vector => {
                // A 2-byte piece (a `_Float16` member of a homogeneous aggregate) is
                // stored as 2 bytes: a 4-byte store would overwrite the next member.
                if loc.size <= 2 {
                    Type::F16
                } else if loc.size <= 4 {
                    Type::F32
                } else if loc.size <= 8 {
                    Type::F64
                } else {
                    // A whole 16-byte register (a vector, an SSE+SSEUP pair, __float128),
                    // only carried between memory and the register.
                    Type::V128
                }
            }
            RegClass::X87 => Type::F80,
            _ => match loc.size {
                1 => Type::I8,
                2 => Type::I16,
                3 | 4 => Type::I32,
                _ => Type::I64,
            },
        }
    }
}

fn int_type(k: IntKind, g: &Gen) -> Type {
    let bits = g.t.types.int_bits(k);
    Type::int_of_bytes(bits / 8).unwrap_or(Type::I64)
}
