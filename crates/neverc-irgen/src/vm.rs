//! Variably modified types: the run-time sizes of variable length array types.
//!
//! Sema gives each declarator's `[n]` a type of its own, `ArrLen::Vla(Some(n))`, named by
//! its size expression. Where the declarator is reached (a declaration, a typedef, a
//! parameter at function entry, a type name in `sizeof`, a cast or a compound literal)
//! its sizes are evaluated once, innermost first as gcc does, and each array type's size
//! in bytes is kept in a slot of the function; every later use of the type (`sizeof`,
//! pointer arithmetic, indexing, allocation) reads that slot. A type whose slot this
//! function has not filled (a VM type reached in a way not handled) is refused by name,
//! never given a wrong size.

use crate::Gen;
use neverc_front::parse::ast::{DeclSpecs, Declarator, Derived, ExprId, TypeSpec};
use neverc_front::sema::{ArrLen, Kind, TypeId};
use neverc_front::token::FxHashMap;
use neverc_ir::*;

impl Gen<'_> {
    /// Each VLA size expression's array type (one of them: they differ at most in
    /// qualifiers, never in element size).
    fn vla_array_types(&mut self) -> &FxHashMap<ExprId, TypeId> {
        let n = self.t.types.types.len();
        if self.vla_arrays.1 < n {
            for i in self.vla_arrays.1..n {
                if let Kind::Array(_, ArrLen::Vla(Some(e))) = self.t.types.types[i].kind {
                    self.vla_arrays.0.entry(e).or_insert(TypeId(i as u32));
                }
            }
            self.vla_arrays.1 = n;
        }
        &self.vla_arrays.0
    }

    /// Is the size of `ty` known only at run time?
    pub fn runtime_sized(&self, ty: TypeId) -> bool {
        self.t.types.is_vla(ty)
    }

    /// The size in bytes of `ty` as an i64 value: read from the slots of its variable
    /// length array types, or a constant.
    pub fn size_value(&mut self, ty: TypeId) -> Value {
        match *self.t.types.kind(ty) {
            Kind::Array(el, ArrLen::Vla(e)) => {
                let slot = e.and_then(|e| self.fs.as_ref()?.vla_bytes.get(&e).copied());
                match slot {
                    Some(s) => {
                        let a = self.b().slot_addr(s);
                        self.b().load(Type::I64, a, 0, MemFlags::aligned(8))
                    }
                    None => {
                        let _ = el;
                        let loc = self.cur_loc;
                        self.refuse(
                            loc,
                            "a variably modified type whose size is not evaluated here",
                        );
                        self.b().iconst(Type::I64, 0)
                    }
                }
            }
            Kind::Array(el, ArrLen::Fixed(n)) if self.runtime_sized(el) => {
                let es = self.size_value(el);
                let k = self.b().iconst(Type::I64, n as i128);
                self.b().binary(BinaryOp::Mul, es, k)
            }
            _ => {
                let s = self.size_align(ty).0;
                self.b().iconst(Type::I64, s as i128)
            }
        }
    }

    /// The alignment of an object of `ty` (a VLA: its innermost element's).
    pub fn vm_align(&self, ty: TypeId) -> u32 {
        match *self.t.types.kind(ty) {
            Kind::Array(el, _) => self.vm_align(el),
            _ => self.size_align(ty).1,
        }
    }

    /// Evaluates the array sizes of a declarator (or of a type name's abstract one) where
    /// it is reached, innermost first (gcc's order), and records the byte size of each
    /// variable length array type it makes. Sizes inside a function derivation's
    /// parameters belong to a prototype and are not evaluated.
    pub fn eval_declarator_sizes(&mut self, d: &Declarator) {
        for der in d.derived.iter().rev() {
            let Derived::Array { size: Some(e), .. } = der else {
                continue;
            };
            let e = *e;
            let at = self.vla_array_types().get(&e).copied();
            let Some(at) = at else {
                // A constant size (nothing to do), or one sema could not type.
                if self.const_int(e).is_none() {
                    self.effect(e);
                }
                continue;
            };
            let Kind::Array(el, _) = *self.t.types.kind(at) else {
                continue;
            };
            let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
            let n = self.scalar_as(e, ulong);
            let es = self.size_value(el);
            let bytes = self.b().binary(BinaryOp::Mul, n, es);
            let slot = match self.fs().vla_bytes.get(&e).copied() {
                Some(s) => s,
                None => {
                    let s = self.b().add_slot(8, 8);
                    self.fs().vla_bytes.insert(e, s);
                    s
                }
            };
            let a = self.b().slot_addr(slot);
            self.b().store(bytes, a, 0, MemFlags::aligned(8));
        }
    }

    /// The sizes in a declaration's specifiers: `typeof(int[n])`, evaluated once per
    /// declaration, before its declarators.
    pub fn eval_specs_sizes(&mut self, sp: &DeclSpecs) {
        if let TypeSpec::TypeofType(tn, _) = sp.ty {
            let ast = self.ast;
            self.eval_declarator_sizes(&ast.type_name(tn).decl);
        }
    }

    /// Does the declarator have an array size to evaluate at run time?
    pub fn declarator_has_runtime_sizes(&mut self, d: &Declarator) -> bool {
        d.derived.iter().any(|der| match der {
            Derived::Array { size: Some(e), .. } => self.vla_array_types().contains_key(e),
            _ => false,
        })
    }

    /// Does a record (or an array of them) have a member of variably modified size (a
    /// GNU `struct { int a[n]; }`)?
    pub fn has_vm_member(&self, ty: TypeId) -> bool {
        match *self.t.types.kind(ty) {
            Kind::Array(e, _) => self.has_vm_member(e),
            Kind::Record(r) => self.t.types.records[r as usize]
                .members
                .iter()
                .any(|m| self.runtime_sized(m.ty) || self.has_vm_member(m.ty)),
            _ => false,
        }
    }

    /// What kind of type `ty` is, for a refusal of a type the layout cannot size.
    pub fn unsized_kind(&self, ty: TypeId) -> &'static str {
        if self.has_vm_member(ty) {
            "structures or unions with variable length members (GNU)"
        } else if self.runtime_sized(ty) {
            "variable length arrays"
        } else if self.contains_error_type(ty) {
            "vector or transparent union types"
        } else if matches!(self.t.types.kind(ty), Kind::Record(r)
            if self.t.types.records[*r as usize].opaque)
        {
            "structures or unions of 2^60 bytes or more"
        } else {
            "types of this size"
        }
    }
}
