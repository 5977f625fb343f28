//! Expressions: values (scalars in SSA values, aggregates by address), lvalues (addresses,
//! bit-fields), conversions, operators, calls through plans, and the builtins.

use crate::func::Home;
use crate::Gen;
use neverc_abi::{Flags, Place};
use neverc_front::parse::ast::{BinOp, ExprId, ExprKind, UnOp};
use neverc_front::sema::{ArrLen, FloatK, Kind, OrdKind, TypeId};
use neverc_ir::*;

/// An rvalue: nothing, a scalar, or the address of an aggregate's bytes.
#[derive(Clone, Copy, Debug)]
pub enum Rv {
    Void,
    Scalar(Value),
    Agg(Value),
}

/// An lvalue: an address, and for a bit-field its place in the bytes there.
#[derive(Clone, Copy, Debug)]
pub struct Lv {
    /// The address is `base` plus `off` bytes: a member's constant offset is kept apart,
    /// for the loads and stores of the lvalue to take in their offset field
    /// ([`Gen::lv_addr`] adds it when the address itself is wanted).
    pub base: Value,
    pub off: i32,
    /// (bit offset from `addr`, width) of a bit-field.
    pub bits: Option<(u32, u32)>,
    pub ty: TypeId,
    pub volatile: bool,
}

const VOLATILE: u8 = neverc_front::parse::ast::qual::VOLATILE;

impl<'a> Gen<'a> {
    fn ex(&self, e: ExprId) -> &'a neverc_front::parse::ast::Expr {
        self.ast.expr(e)
    }

    /// The value of `e` after array and function decay.
    #[inline]
    pub fn rvalue(&mut self, e: ExprId) -> Rv {
        let ty = self.expr_type(e);
        match self.t.types.kind(ty) {
            Kind::Array(..) | Kind::Func(_) => {
                let lv = self.lvalue(e);
                Rv::Scalar(self.lv_addr(lv))
            }
            _ => self.rvalue_inner(e),
        }
    }

    /// A scalar value (0 when the expression has none, after a refusal).
    pub fn scalar(&mut self, e: ExprId) -> Value {
        match self.rvalue(e) {
            Rv::Scalar(v) => v,
            _ => self.not_scalar(e),
        }
    }

    #[cold]
    #[inline(never)]
    fn not_scalar(&mut self, e: ExprId) -> Value {
        let loc = self.ex(e).loc;
        self.refuse(loc, "this expression as a scalar");
        self.b().iconst(Type::I32, 0)
    }

    /// The value of `e` converted to type `to`.
    pub fn scalar_as(&mut self, e: ExprId, to: TypeId) -> Value {
        let from = self.decayed_type(e);
        if let Kind::Complex(el) = *self.t.types.kind(from) {
            // A complex value converted to a real type keeps its real part; to _Bool, both.
            let (re, im) = self.complex_parts(e, from);
            if matches!(self.t.types.kind(to), Kind::Bool) {
                let a = self.truth(re);
                let b = self.truth(im);
                return self.b().binary(BinaryOp::Or, a, b);
            }
            return self.convert(re, el, to);
        }
        let v = self.scalar(e);
        self.convert(v, from, to)
    }

    /// The value of `e` as type `ty`: scalars converted, complex values converted part by
    /// part (a real value gets a zero imaginary part), aggregates as they are.
    pub fn rv_as(&mut self, e: ExprId, ty: TypeId) -> Rv {
        if self.is_scalar(ty) {
            return Rv::Scalar(self.scalar_as(e, ty));
        }
        if matches!(self.t.types.kind(ty), Kind::Complex(_)) {
            let (re, im) = self.complex_parts(e, ty);
            return Rv::Agg(self.make_complex(ty, re, im));
        }
        self.rvalue(e)
    }

    /// The element type of a complex type.
    fn complex_elem(&self, ty: TypeId) -> TypeId {
        match self.t.types.kind(ty) {
            Kind::Complex(e) => *e,
            _ => ty,
        }
    }

    /// Real and imaginary parts of `e` converted to the parts of complex type `cty`.
    pub fn complex_parts(&mut self, e: ExprId, cty: TypeId) -> (Value, Value) {
        let el = self.complex_elem(cty);
        // Imaginary constants.
        if let ExprKind::Float(i) = self.strip_parens(e).kind {
            let lit = &self.ast.lits.floats[i as usize];
            if lit.imaginary {
                let t = self.ir_type(el).unwrap_or(Type::F64);
                let v = lit.value;
                let im = self.float_const(t, v);
                let re = self.zero_of(t);
                return (re, im);
            }
        }
        if let ExprKind::Int(i) = self.strip_parens(e).kind {
            let lit = &self.ast.lits.ints[i as usize];
            if lit.imaginary {
                let t = self.ir_type(el).unwrap_or(Type::I32);
                let v = lit.value as i128;
                let im = if t.is_float() {
                    self.float_const(t, v as f64)
                } else {
                    self.b().iconst(t, v)
                };
                let re = self.zero_of(t);
                return (re, im);
            }
        }
        let from = self.decayed_type(e);
        if let Kind::Complex(fel) = *self.t.types.kind(from) {
            let a = match self.rvalue(e) {
                Rv::Agg(a) => a,
                _ => {
                    let z = self.zero_of(self.ir_type(el).unwrap_or(Type::F64));
                    return (z, z);
                }
            };
            let ft = self.ir_type(fel).unwrap_or(Type::F64);
            let (sz, al) = self.size_align(fel);
            let re = self.b().load(ft, a, 0, MemFlags::aligned(al));
            let im = self.b().load(ft, a, sz as i32, MemFlags::aligned(al));
            let re = self.convert(re, fel, el);
            let im = self.convert(im, fel, el);
            return (re, im);
        }
        let re = self.scalar_as(e, el);
        let t = self.ir_type(el).unwrap_or(Type::F64);
        let im = self.zero_of(t);
        (re, im)
    }

    /// A complex temporary holding `re + im*i`.
    pub fn make_complex(&mut self, cty: TypeId, re: Value, im: Value) -> Value {
        let el = self.complex_elem(cty);
        let (sz, al) = self.size_align(el);
        let slot = self.b().add_slot(sz * 2, al);
        let a = self.b().slot_addr(slot);
        self.b().store(re, a, 0, MemFlags::aligned(al));
        self.b().store(im, a, sz as i32, MemFlags::aligned(al));
        a
    }

    /// Element type and count of a vector type.
    pub fn vector_parts(&self, ty: TypeId) -> (TypeId, u32) {
        match self.t.types.kind(ty) {
            Kind::Vector(e, n) => (*e, *n),
            _ => (ty, 1),
        }
    }

    /// A GNU vector operator, element by element through memory; a scalar operand is
    /// broadcast; comparisons give -1 or 0 per element.
    fn vector_binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: TypeId) -> Rv {
        let at = self.decayed_type(a);
        let bt = self.decayed_type(b);
        let vt = if self.t.types.is_vector(at) { at } else { bt };
        let (el, n) = self.vector_parts(vt);
        let (rel, _) = self.vector_parts(ty);
        let (esz, _) = self.size_align(el);
        let (rsz, _) = self.size_align(rel);
        let et = self.ir_type(el).unwrap_or(Type::I32);
        let rt = self.ir_type(rel).unwrap_or(Type::I32);
        // Each operand: the address of its elements, or a broadcast scalar.
        let operand = |g: &mut Self, e: ExprId, t: TypeId| -> Result<Value, Value> {
            if g.t.types.is_vector(t) {
                match g.rvalue(e) {
                    Rv::Agg(p) => Ok(p),
                    _ => Ok(g.b().iconst(Type::Ptr, 0)),
                }
            } else {
                Err(g.scalar_as(e, el))
            }
        };
        let x = operand(self, a, at);
        let y = operand(self, b, bt);
        let slot = self.b().add_slot(rsz * n as u64, 16);
        let dst = self.b().slot_addr(slot);
        let float = et.is_float();
        let signed = self.is_signed(el);
        for k in 0..n {
            let off = (k as u64 * esz) as i32;
            let xv = match x {
                Ok(p) => self.b().load(et, p, off, MemFlags::aligned(1)),
                Err(s) => s,
            };
            let yv = match y {
                Ok(p) => self.b().load(et, p, off, MemFlags::aligned(1)),
                Err(s) => s,
            };
            let r = match op {
                BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                    let int = self.t.types.int(neverc_abi::IntKind::Int);
                    let c = self.arith(op, xv, el, yv, el, int);
                    // 1 → -1 of the result element type.
                    let c = self.convert(c, int, rel);
                    self.b().unary(UnaryOp::Neg, c)
                }
                _ => {
                    let bop = match (op, float) {
                        (BinOp::Add, false) => BinaryOp::Add,
                        (BinOp::Add, true) => BinaryOp::FAdd,
                        (BinOp::Sub, false) => BinaryOp::Sub,
                        (BinOp::Sub, true) => BinaryOp::FSub,
                        (BinOp::Mul, false) => BinaryOp::Mul,
                        (BinOp::Mul, true) => BinaryOp::FMul,
                        (BinOp::Div, true) => BinaryOp::FDiv,
                        (BinOp::Div, false) if signed => BinaryOp::SDiv,
                        (BinOp::Div, false) => BinaryOp::UDiv,
                        (BinOp::Mod, _) if signed => BinaryOp::SRem,
                        (BinOp::Mod, _) => BinaryOp::URem,
                        (BinOp::BitAnd, _) => BinaryOp::And,
                        (BinOp::BitOr, _) => BinaryOp::Or,
                        (BinOp::BitXor, _) => BinaryOp::Xor,
                        (BinOp::Shl, _) => BinaryOp::Shl,
                        (BinOp::Shr, _) if signed => BinaryOp::AShr,
                        _ => BinaryOp::LShr,
                    };
                    self.b().binary(bop, xv, yv)
                }
            };
            let _ = rt;
            self.b()
                .store(r, dst, (k as u64 * rsz) as i32, MemFlags::aligned(1));
        }
        Rv::Agg(dst)
    }

    /// Complex `+ - * /` and `== !=`.
    fn complex_binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: TypeId) -> Rv {
        let at = self.decayed_type(a);
        let bt = self.decayed_type(b);
        let cmp = matches!(op, BinOp::Eq | BinOp::Ne);
        // The common complex type.
        let ct = if cmp {
            let ra = self.complex_elem(at);
            let rb = self.complex_elem(bt);
            let r = self.t.types.usual(ra, rb).unwrap_or(ra);
            self.t.types.intern(Kind::Complex(r), 0)
        } else {
            ty
        };
        let el = self.complex_elem(ct);
        let float = self.is_float(el);
        let (ar, ai) = self.complex_parts(a, ct);
        let (br, bi) = self.complex_parts(b, ct);
        let (add, sub, mul) = if float {
            (BinaryOp::FAdd, BinaryOp::FSub, BinaryOp::FMul)
        } else {
            (BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul)
        };
        let (re, im) = match op {
            BinOp::Add => (self.b().binary(add, ar, br), self.b().binary(add, ai, bi)),
            BinOp::Sub => (self.b().binary(sub, ar, br), self.b().binary(sub, ai, bi)),
            BinOp::Mul => {
                let ac = self.b().binary(mul, ar, br);
                let bd = self.b().binary(mul, ai, bi);
                let ad = self.b().binary(mul, ar, bi);
                let bc = self.b().binary(mul, ai, br);
                (self.b().binary(sub, ac, bd), self.b().binary(add, ad, bc))
            }
            BinOp::Div if float => {
                // libgcc's __div?c3 (C Annex G semantics).
                let helper = match self.ir_type(el) {
                    Some(Type::F32) => "__divsc3",
                    Some(Type::F80) => "__divxc3",
                    Some(Type::F128) => "__divtc3",
                    _ => "__divdc3",
                };
                let vals = [
                    Rv::Scalar(ar),
                    Rv::Scalar(ai),
                    Rv::Scalar(br),
                    Rv::Scalar(bi),
                ];
                return self.call_named(helper, ct, &[el, el, el, el], &vals);
            }
            BinOp::Div => {
                // (ar + ai i) / (br + bi i) = ((ar br + ai bi) + (ai br - ar bi) i) / (br² + bi²)
                let signed = self.is_signed(el);
                let div = if signed {
                    BinaryOp::SDiv
                } else {
                    BinaryOp::UDiv
                };
                let d1 = self.b().binary(mul, br, br);
                let d2 = self.b().binary(mul, bi, bi);
                let den = self.b().binary(add, d1, d2);
                let n1 = self.b().binary(mul, ar, br);
                let n2 = self.b().binary(mul, ai, bi);
                let nr = self.b().binary(add, n1, n2);
                let n3 = self.b().binary(mul, ai, br);
                let n4 = self.b().binary(mul, ar, bi);
                let ni = self.b().binary(sub, n3, n4);
                (self.b().binary(div, nr, den), self.b().binary(div, ni, den))
            }
            BinOp::Eq | BinOp::Ne => {
                let (c1, c2) = if float {
                    let cc = if op == BinOp::Eq {
                        FloatCC::Eq
                    } else {
                        FloatCC::Ne
                    };
                    (self.b().fcmp(cc, ar, br), self.b().fcmp(cc, ai, bi))
                } else {
                    let cc = if op == BinOp::Eq {
                        IntCC::Eq
                    } else {
                        IntCC::Ne
                    };
                    (self.b().icmp(cc, ar, br), self.b().icmp(cc, ai, bi))
                };
                let both = if op == BinOp::Eq {
                    self.b().binary(BinaryOp::And, c1, c2)
                } else {
                    self.b().binary(BinaryOp::Or, c1, c2)
                };
                let rt = self.ir_type(ty).unwrap_or(Type::I32);
                return Rv::Scalar(self.b().conv(ConvOp::Zext, both, rt));
            }
            _ => {
                let loc = self.ex(a).loc;
                self.refuse(loc, "this operator on complex values");
                (ar, ai)
            }
        };
        Rv::Agg(self.make_complex(ct, re, im))
    }

    /// The type of `e` as an operand: decayed, and a bit-field narrower than `int`
    /// promoted to `int` (gcc's rule; sema types the operators the same way).
    #[inline(always)]
    pub fn decayed_type(&mut self, e: ExprId) -> TypeId {
        let t = self.expr_type(e);
        let mut x = e;
        while let ExprKind::Paren(y) = self.ast.expr(x).kind {
            x = y;
        }
        // Only a member can be a bit-field.
        if let ExprKind::Member { .. } = self.ast.expr(x).kind {
            return self.decayed_member_type(t, x);
        }
        self.t.types.decay(t)
    }

    /// [`decayed_type`](Self::decayed_type) of `e`, with `e` without its parentheses.
    #[inline(always)]
    fn operand_type(&mut self, e: ExprId) -> (TypeId, &'a neverc_front::parse::ast::Expr) {
        let t = self.expr_type(e);
        let mut ex = self.ast.expr(e);
        while let ExprKind::Paren(y) = ex.kind {
            ex = self.ast.expr(y);
        }
        if let ExprKind::Member { .. } = ex.kind {
            // (The id of the member expression, for decayed_member_type.)
            let mut x = e;
            while let ExprKind::Paren(y) = self.ast.expr(x).kind {
                x = y;
            }
            return (self.decayed_member_type(t, x), ex);
        }
        (self.t.types.decay(t), ex)
    }

    /// [`decayed_type`](Self::decayed_type) of member access `x` of type `t`.
    #[inline(never)]
    fn decayed_member_type(&mut self, t: TypeId, x: ExprId) -> TypeId {
        if let ExprKind::Member { base, name, arrow } = self.ast.expr(x).kind {
            let bt = self.expr_type(base);
            let rt = if arrow {
                let d = self.t.types.decay(bt);
                self.t.types.pointee(d)
            } else {
                Some(bt)
            };
            if let Some(&Kind::Record(r)) = rt.map(|rt| self.t.types.kind(rt)) {
                if let Some(w) = self.t.types.bitfield_width(r, name) {
                    let int_bits = self.t.types.int_bits(neverc_abi::IntKind::Int);
                    if w < int_bits {
                        return self.t.types.int(neverc_abi::IntKind::Int);
                    }
                }
            }
        }
        self.t.types.decay(t)
    }

    fn int_const(&mut self, ty: TypeId, v: i128) -> Value {
        let it = self.ir_type(ty).unwrap_or(Type::I32);
        if it.is_float() {
            return self.float_const(it, v as f64);
        }
        self.b().iconst(it, v)
    }

    pub fn float_const(&mut self, t: Type, v: f64) -> Value {
        let bits = match t {
            Type::F16 => crate::consts::f64_to_f16(v).0 as u128,
            Type::F32 => (v as f32).to_bits() as u128,
            Type::F64 => v.to_bits() as u128,
            Type::F80 => crate::consts::f64_to_f80(v),
            _ => crate::consts::f64_to_f128(v),
        };
        self.b().fconst(t, bits)
    }

    /// Converts a scalar of C type `from` to C type `to` (C17 6.3).
    #[inline]
    pub fn convert(&mut self, v: Value, from: TypeId, to: TypeId) -> Value {
        // The same type, in its own machine type (most operands): nothing to do.
        if from == to {
            match self.ir_type(to) {
                None => return v,
                Some(tt) if self.b().func.value_type(v) == tt => return v,
                _ => {}
            }
        }
        self.convert_general(v, from, to)
    }

    /// [`convert`](Self::convert) between two types, or of a value not in its type's own
    /// machine type.
    #[inline(never)]
    fn convert_general(&mut self, v: Value, from: TypeId, to: TypeId) -> Value {
        let Some(tt) = self.ir_type(to) else {
            return v;
        };
        let Some(ft) = self.ir_type(from) else {
            // An operand whose C type sema left open (a builtin's result): its machine
            // type decides, as a signed value.
            let vt = self.b().func.value_type(v);
            if vt == tt {
                return v;
            }
            let int = self.t.types.int(neverc_abi::IntKind::Long);
            let from = match vt {
                Type::I8 => self.t.types.int(neverc_abi::IntKind::SChar),
                Type::I16 => self.t.types.int(neverc_abi::IntKind::Short),
                Type::I32 => self.t.types.int(neverc_abi::IntKind::Int),
                Type::F16 => self.float_kind_type(FloatK::FloatN(16, false)),
                Type::F32 => self.float_kind_type(FloatK::Float),
                Type::F64 => self.float_kind_type(FloatK::Double),
                Type::F80 => self.float_kind_type(FloatK::LongDouble),
                _ => int,
            };
            return self.convert(v, from, to);
        };
        let vt = self.b().func.value_type(v);
        if matches!(self.t.types.kind(to), Kind::Bool)
            && !matches!(self.t.types.kind(from), Kind::Bool)
        {
            return self.truth(v);
        }
        let ft = if vt != ft { vt } else { ft };
        if ft == tt {
            return v;
        }
        let signed = self.is_signed(from);
        let constant = self.const_bits(v);
        // Float constants convert at compile time, saturating as gcc's folding does.
        if let Some((true, bits)) = constant {
            if let Some(f) = crate::consts::fconst_value(ft, bits) {
                if tt.is_float() {
                    return self.float_const(tt, f);
                }
                let unsigned = !self.is_signed(to) && !self.is_pointer(to);
                let x: i128 = match (tt.bytes(), unsigned) {
                    (1, false) => f as i8 as i128,
                    (1, true) => f as u8 as i128,
                    (2, false) => f as i16 as i128,
                    (2, true) => f as u16 as i128,
                    (4, false) => f as i32 as i128,
                    (4, true) => f as u32 as i128,
                    (8, false) => f as i64 as i128,
                    (8, true) => f as u64 as i128,
                    (_, false) => f as i128,
                    (_, true) => f as u128 as i128,
                };
                if !matches!(self.t.types.kind(to), Kind::Bool) {
                    return self.b().iconst(tt, x);
                }
            }
        }
        // Integer constants convert to floats at compile time (rounded once).
        if let Some((false, imm)) = constant {
            let imm = imm as i128;
            if ft.is_int() && tt.is_float() && ft != Type::Ptr && ft.bytes() <= 8 {
                let bits = ft.bytes() * 8;
                let u = (imm as u128) & ((1u128 << bits) - 1);
                let x = if signed && (u >> (bits - 1)) & 1 == 1 {
                    u as i128 - (1i128 << bits)
                } else {
                    u as i128
                };
                let bits = match tt {
                    // Exact through f64 below 2^53; anything from 65520 up is infinity.
                    Type::F16 => crate::consts::f64_to_f16(x as f64).0 as u128,
                    Type::F32 => (x as f32).to_bits() as u128,
                    Type::F64 => (x as f64).to_bits() as u128,
                    _ => {
                        // x87 holds every 64-bit integer exactly.
                        let v = self.b().iconst(Type::I64, x);
                        let _ = v;
                        return self.b().conv(
                            if signed { ConvOp::SToF } else { ConvOp::UToF },
                            v,
                            tt,
                        );
                    }
                };
                return self.b().fconst(tt, bits);
            }
        }
        // Integer constants convert at compile time.
        if let Some((false, imm)) = constant {
            let imm = imm as i128;
            if ft.is_int() && tt.is_int() {
                let bits = ft.bytes() * 8;
                let m = if bits >= 128 {
                    -1i128
                } else {
                    (1i128 << bits) - 1
                };
                let u = imm & m;
                let x = if signed && bits < 128 && (u >> (bits - 1)) & 1 == 1 {
                    u - (1i128 << bits)
                } else {
                    u
                };
                return self.b().iconst(tt, x);
            }
        }
        // __int128 and floating point convert through libgcc's helpers.
        let helper_signed = if ft == Type::I128 {
            signed
        } else {
            self.is_signed(to)
        };
        if let Some(helper) = neverc_ir::libgcc::int128_float_conversion(ft, tt, helper_signed) {
            if let Rv::Scalar(r) = self.call_named(helper, to, &[from], &[Rv::Scalar(v)]) {
                return r;
            }
        }
        match (ft.is_float(), tt.is_float()) {
            (false, false) => {
                if ft.bytes() == tt.bytes() {
                    self.b().conv(ConvOp::Bitcast, v, tt)
                } else if ft.bytes() > tt.bytes() {
                    self.b().conv(ConvOp::Trunc, v, tt)
                } else if signed {
                    self.b().conv(ConvOp::Sext, v, tt)
                } else {
                    self.b().conv(ConvOp::Zext, v, tt)
                }
            }
            (false, true) => {
                // Narrow integers convert through int.
                let (v, signed) = if ft.bytes() < 4 {
                    let op = if signed { ConvOp::Sext } else { ConvOp::Zext };
                    (self.b().conv(op, v, Type::I32), true)
                } else {
                    (v, signed)
                };
                let v = if ft == Type::Ptr {
                    self.b().conv(ConvOp::Bitcast, v, Type::I64)
                } else {
                    v
                };
                let op = if signed { ConvOp::SToF } else { ConvOp::UToF };
                self.b().conv(op, v, tt)
            }
            (true, false) => {
                let unsigned =
                    !self.is_signed(to) && !matches!(self.t.types.kind(to), Kind::Pointer(_));
                let op = if unsigned { ConvOp::FToU } else { ConvOp::FToS };
                if tt.bytes() < 4 {
                    let w = self.b().conv(ConvOp::FToS, v, Type::I32);
                    self.b().conv(ConvOp::Trunc, w, tt)
                } else if tt == Type::Ptr {
                    let w = self.b().conv(op, v, Type::I64);
                    self.b().conv(ConvOp::Bitcast, w, Type::Ptr)
                } else {
                    self.b().conv(op, v, tt)
                }
            }
            (true, true) => {
                if ft.bytes() < tt.bytes() {
                    self.b().conv(ConvOp::FExt, v, tt)
                } else {
                    self.b().conv(ConvOp::FTrunc, v, tt)
                }
            }
        }
    }

    /// `t`, or when sema left it open (a builtin's result) the C type of value `v`.
    #[inline(always)]
    pub fn open_type(&mut self, t: TypeId, v: Value) -> TypeId {
        if matches!(self.t.types.kind(t), Kind::Error) {
            let vt = self.b().func.value_type(v);
            self.ctype_of(vt)
        } else {
            t
        }
    }

    /// A C type holding values of machine type `t` (for values whose C type is open).
    #[inline(never)]
    fn ctype_of(&mut self, t: Type) -> TypeId {
        use neverc_abi::IntKind as I;
        match t {
            Type::I8 | Type::I16 | Type::I32 => self.t.types.int(I::Int),
            Type::I64 => self.t.types.int(I::Long),
            Type::I128 => self.t.types.int(I::Int128),
            Type::F16 => self.float_kind_type(FloatK::FloatN(16, false)),
            Type::F32 | Type::F64 => self.float_kind_type(FloatK::Double),
            Type::F80 => self.float_kind_type(FloatK::LongDouble),
            Type::F128 => self.float_kind_type(FloatK::Float128),
            // Never the value of an expression (only a call's piece carrier).
            Type::V128 => self.t.types.int(I::Int128),
            Type::Ptr => {
                let v = self.t.types.void();
                self.t.types.pointer(v)
            }
        }
    }

    /// The size of what a pointer (or array) type's elements are, when it is known only
    /// at run time (a pointer to a VLA).
    pub fn runtime_pointee(&self, pt: TypeId) -> Option<TypeId> {
        let p = match *self.t.types.kind(pt) {
            Kind::Pointer(p) | Kind::Array(p, _) => p,
            _ => return None,
        };
        self.runtime_sized(p).then_some(p)
    }

    /// The instruction defining `v`, if an instruction does.
    fn def_op(&mut self, v: Value) -> Option<&Op> {
        let f = &self.b().func;
        match f.values[v.index()].def {
            ValueDef::Result(i, 0) => Some(&f.insts[i.index()].op),
            _ => None,
        }
    }

    /// The bits of `v` when a constant defines it, and whether that is a float constant.
    fn const_bits(&mut self, v: Value) -> Option<(bool, u128)> {
        match self.def_op(v)? {
            Op::Iconst { imm, .. } => Some((false, imm.get() as u128)),
            Op::Fconst { bits, .. } => Some((true, bits.get())),
            _ => None,
        }
    }

    /// `v != 0` as an i8.
    pub fn truth(&mut self, v: Value) -> Value {
        // A comparison widened to int: its i8 already is the truth value.
        if let Some(&Op::Conv {
            op: ConvOp::Zext,
            arg,
            ..
        }) = self.def_op(v)
        {
            if let Some(Op::Icmp { .. } | Op::Fcmp { .. }) = self.def_op(arg) {
                return arg;
            }
        }
        let t = self.b().func.value_type(v);
        if t.is_float() {
            let z = self.b().fconst(t, 0);
            self.b().fcmp(FloatCC::Ne, v, z)
        } else {
            let z = self.b().iconst(t, 0);
            self.b().icmp(IntCC::Ne, v, z)
        }
    }

    /// `truth(v)` of a value nothing else will use (a condition): a comparison's widening
    /// to `int` made just before is taken back rather than left dead.
    pub fn cond_truth(&mut self, v: Value) -> Value {
        let f = &self.b().func;
        if let ValueDef::Result(i, 0) = f.values[v.index()].def {
            if let Op::Conv {
                op: ConvOp::Zext,
                arg,
                ..
            } = f.insts[i.index()].op
            {
                if let ValueDef::Result(ci, 0) = f.values[arg.index()].def {
                    if matches!(f.insts[ci.index()].op, Op::Icmp { .. } | Op::Fcmp { .. })
                        && self.b().take_back(v)
                    {
                        return arg;
                    }
                }
            }
        }
        self.truth(v)
    }

    /// The lvalue an expression designates.
    #[inline(always)]
    pub fn lvalue(&mut self, e: ExprId) -> Lv {
        // A variable (most lvalues), without the general case's frame.
        let ex = self.ex(e);
        if let ExprKind::Ident(_) = ex.kind {
            if let Some(&o) = self.t.refs.get(&e) {
                self.cur_loc = ex.loc;
                let ty = self.expr_type(e);
                return self.ident_lvalue(o, ty);
            }
        }
        self.lvalue_general(e)
    }

    /// The lvalue of an identifier of type `ty` naming entry `o`.
    #[inline(always)]
    fn ident_lvalue(&mut self, o: u32, ty: TypeId) -> Lv {
        let oty = self.t.ords[o as usize].ty;
        let volatile = (self.t.types.quals(ty) | self.t.types.quals(oty)) & VOLATILE != 0;
        let base = self.object_addr(o);
        Lv {
            base,
            off: 0,
            bits: None,
            ty,
            volatile,
        }
    }

    #[inline(never)]
    fn lvalue_general(&mut self, e: ExprId) -> Lv {
        let ex = self.ex(e);
        self.cur_loc = ex.loc;
        let ty = self.expr_type(e);
        let volatile = self.t.types.quals(ty) & VOLATILE != 0;
        let plain = |base| Lv {
            base,
            off: 0,
            bits: None,
            ty,
            volatile,
        };
        match &ex.kind {
            ExprKind::Paren(x) => {
                let mut lv = self.lvalue(*x);
                lv.ty = ty;
                lv
            }
            ExprKind::Ident(s) => {
                let Some(&o) = self.t.refs.get(&e) else {
                    let n = self.name(*s);
                    if matches!(
                        n.as_str(),
                        "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__"
                    ) {
                        let name = self.fs().name.clone();
                        let a = self.string_data(name.as_bytes(), 1);
                        return plain(a);
                    }
                    self.refuse(ex.loc, format!("'{n}' here"));
                    let z = self.b().iconst(Type::Ptr, 0);
                    return plain(z);
                };
                let addr = self.object_addr(o);
                let mut lv = plain(addr);
                let oty = self.t.ords[o as usize].ty;
                lv.volatile |= self.t.types.quals(oty) & VOLATILE != 0;
                lv
            }
            ExprKind::Unary(UnOp::Deref, x) => {
                let p = self.scalar(*x);
                let pv = self.decayed_type(*x);
                let pointee_vol = self
                    .t
                    .types
                    .pointee(pv)
                    .map(|p| self.t.types.quals(p) & VOLATILE != 0)
                    .unwrap_or(false);
                let mut lv = plain(p);
                lv.volatile |= pointee_vol;
                lv
            }
            ExprKind::Index(a, i) if self.t.types.is_vector(self.expr_type(*a)) => {
                let base = self.lvalue(*a);
                let it = self.expr_type(*i);
                let iv = self.scalar(*i);
                let vt = self.expr_type(*a);
                let (el, _) = self.vector_parts(vt);
                let pt = self.t.types.pointer(el);
                let addr = self.ptr_add(base.base, pt, iv, it, false);
                let mut lv = plain(addr);
                lv.off = base.off;
                lv.volatile |= base.volatile;
                lv
            }
            ExprKind::Index(a, i) => {
                let (pe, ie) = if self.is_pointer(self.t.expr_types[a.0 as usize])
                    || matches!(self.t.types.kind(self.expr_type(*a)), Kind::Array(..))
                {
                    (*a, *i)
                } else {
                    (*i, *a)
                };
                let pt = self.decayed_type(pe);
                // An array's constant offset (a member array) stays apart: (a + off) + i
                // is (a + i) + off.
                let (p, off) = if matches!(self.t.types.kind(self.expr_type(pe)), Kind::Array(..)) {
                    let lv = self.lvalue(pe);
                    (lv.base, lv.off)
                } else {
                    (self.scalar(pe), 0)
                };
                let it = self.expr_type(ie);
                let iv = self.scalar(ie);
                let addr = self.ptr_add(p, pt, iv, it, false);
                let mut lv = plain(addr);
                lv.off = off;
                lv.volatile |= self
                    .t
                    .types
                    .pointee(pt)
                    .map(|p| self.t.types.quals(p) & VOLATILE != 0)
                    .unwrap_or(false);
                lv
            }
            ExprKind::Member { base, name, arrow } => {
                let (addr, off, rty, bvol) = if *arrow {
                    let pt = self.decayed_type(*base);
                    let p = self.scalar(*base);
                    let rt = self.t.types.pointee(pt).unwrap_or(pt);
                    let v = self.t.types.quals(rt) & VOLATILE != 0;
                    (p, 0, rt, v)
                } else {
                    let bt = self.expr_type(*base);
                    let lv = self.lvalue(*base);
                    (lv.base, lv.off, bt, lv.volatile)
                };
                let Some(m) = self.member(rty, *name) else {
                    let what = if self.t.types.size_align(rty).is_none() {
                        format!("member access in {}", self.unsized_kind(rty))
                    } else {
                        "this member access".to_string()
                    };
                    self.refuse(ex.loc, what);
                    return plain(addr);
                };
                // Offsets beyond 2 GiB are added to the address.
                let (addr, off) = match i32::try_from(off as i64 + m.offset as i64) {
                    Ok(off) => (addr, off),
                    Err(_) => (self.add_offset(addr, off as i64 + m.offset as i64), 0),
                };
                Lv {
                    base: addr,
                    off,
                    bits: m.bits,
                    ty,
                    volatile: volatile || bvol,
                }
            }
            ExprKind::CompoundLit(tn, init) => {
                let ast = self.ast;
                if self.fs.is_some() && self.declarator_has_runtime_sizes(&ast.type_name(*tn).decl)
                {
                    self.eval_declarator_sizes(&ast.type_name(*tn).decl);
                }
                let cty = self.t.type_names.get(tn).copied().unwrap_or(ty);
                let cty = if matches!(self.t.types.kind(cty), Kind::Array(_, ArrLen::Unknown)) {
                    ty
                } else {
                    cty
                };
                let (size, align) = self.size_align(cty);
                if self.fs.is_none() {
                    let z = self.b().iconst(Type::Ptr, 0);
                    return plain(z);
                }
                let slot = self.b().add_slot(size.max(1), align);
                let a = self.b().slot_addr(slot);
                self.init_local(a, cty, *init);
                plain(a)
            }
            ExprKind::Str(i) => {
                let a = self.string_lit(*i);
                plain(a)
            }
            ExprKind::StmtExpr(_)
            | ExprKind::Call(..)
            | ExprKind::Assign(..)
            | ExprKind::Cond(..)
            | ExprKind::Comma(..)
            | ExprKind::VaArg(..)
            | ExprKind::Cast(..) => {
                // Aggregate rvalues have addresses of their temporaries.
                match self.rvalue_inner(e) {
                    Rv::Agg(a) => plain(a),
                    Rv::Scalar(v) => {
                        // A scalar rvalue whose address is needed (`(x = y).m` cannot
                        // happen for scalars; keep a temporary for safety).
                        let t = self.b().func.value_type(v);
                        let slot = self.b().add_slot(t.bytes().max(1) as u64, 16);
                        let a = self.b().slot_addr(slot);
                        self.b().store(v, a, 0, MemFlags::aligned(1));
                        plain(a)
                    }
                    Rv::Void => {
                        let z = self.b().iconst(Type::Ptr, 0);
                        plain(z)
                    }
                }
            }
            ExprKind::Generic(..) => match self.t.generic_choice.get(&e).copied() {
                Some(c) => self.lvalue(c),
                None => {
                    let z = self.b().iconst(Type::Ptr, 0);
                    plain(z)
                }
            },
            ExprKind::Unary(UnOp::Extension, x) => self.lvalue(*x),
            ExprKind::Unary(UnOp::Real | UnOp::Imag, x) => {
                let lv = self.lvalue(*x);
                let is_imag = matches!(ex.kind, ExprKind::Unary(UnOp::Imag, _));
                let mut part = plain(lv.base);
                part.off = lv.off;
                if matches!(self.t.types.kind(self.expr_type(*x)), Kind::Complex(_)) && is_imag {
                    let (sz, _) = self.size_align(ty);
                    match i32::try_from(lv.off as i64 + sz as i64) {
                        Ok(off) => part.off = off,
                        Err(_) => {
                            part.base = self.add_offset(lv.base, lv.off as i64 + sz as i64);
                            part.off = 0;
                        }
                    }
                }
                part
            }
            ExprKind::ChooseExpr(c, a, b) => {
                let pick = self.const_int(*c).unwrap_or(0) != 0;
                self.lvalue(if pick { *a } else { *b })
            }
            _ => {
                self.refuse(ex.loc, "this expression as an lvalue");
                let z = self.b().iconst(Type::Ptr, 0);
                plain(z)
            }
        }
    }

    /// The address an lvalue designates.
    pub fn lv_addr(&mut self, lv: Lv) -> Value {
        self.add_offset(lv.base, lv.off as i64)
    }

    pub fn add_offset(&mut self, a: Value, off: i64) -> Value {
        if off == 0 {
            return a;
        }
        let o = self.b().iconst(Type::I64, off as i128);
        let ai = self.b().conv(ConvOp::Bitcast, a, Type::I64);
        let s = self.b().binary(BinaryOp::Add, ai, o);
        self.b().conv(ConvOp::Bitcast, s, Type::Ptr)
    }

    /// `p + i` (or `p - i`) scaled by the pointee size.
    pub fn ptr_add(&mut self, p: Value, pt: TypeId, i: Value, it: TypeId, sub: bool) -> Value {
        let size = self.pointee_size(pt) as i128;
        let iv = {
            let i64t = self.t.types.int(if self.is_signed(it) {
                neverc_abi::IntKind::Long
            } else {
                neverc_abi::IntKind::ULong
            });
            self.convert(i, it, i64t)
        };
        let scaled = if let Some(el) = self.runtime_pointee(pt) {
            let s = self.size_value(el);
            self.b().binary(BinaryOp::Mul, iv, s)
        } else if size == 1 {
            iv
        } else {
            let s = self.b().iconst(Type::I64, size);
            self.b().binary(BinaryOp::Mul, iv, s)
        };
        let pi = self.b().conv(ConvOp::Bitcast, p, Type::I64);
        let op = if sub { BinaryOp::Sub } else { BinaryOp::Add };
        let r = self.b().binary(op, pi, scaled);
        self.b().conv(ConvOp::Bitcast, r, Type::Ptr)
    }

    /// The address of an object by its entry.
    #[inline(always)]
    pub fn object_addr(&mut self, o: u32) -> Value {
        // A local object in a slot (most mentions). (Locals are objects, never a nested
        // function.)
        if let Some(&Home::Slot(s)) = self.fs.as_ref().and_then(|f| f.locals.get(&o)) {
            return self.b().slot_addr(s);
        }
        self.object_addr_general(o)
    }

    #[inline(never)]
    fn object_addr_general(&mut self, o: u32) -> Value {
        if let Some(h) = self.fs.as_ref().and_then(|f| f.locals.get(&o).copied()) {
            return match h {
                Home::Slot(s) => self.b().slot_addr(s),
                Home::Addr(v) => v,
                Home::Vla(a) => {
                    let a = self.b().slot_addr(a);
                    self.b().load(Type::Ptr, a, 0, MemFlags::aligned(8))
                }
            };
        }
        // An enclosing function's object, from the environment (nested functions).
        let from_outer = self
            .fs
            .as_ref()
            .and_then(|f| f.outer.as_ref())
            .and_then(|(slot, layout)| layout.get(&o).map(|&i| (*slot, i)));
        if let Some((slot, idx)) = from_outer {
            let a = self.b().slot_addr(slot);
            let env = self.b().load(Type::Ptr, a, 0, MemFlags::aligned(8));
            return self
                .b()
                .load(Type::Ptr, env, (idx * 8) as i32, MemFlags::aligned(8));
        }
        // A prototype-scope parameter (in a parameter's array size): the body's one.
        let alias = self.fs.as_ref().and_then(|f| {
            let ord = &self.t.ords[o as usize];
            let automatic = matches!(
                ord.kind,
                OrdKind::Object {
                    linkage: neverc_front::sema::Linkage::None,
                    is_static: false,
                    ..
                }
            );
            let ords = &self.t.ords;
            automatic
                .then(|| {
                    f.param_ords
                        .iter()
                        .flatten()
                        .rev()
                        .find(|&&p| ords[p as usize].name == ord.name)
                        .copied()
                })
                .flatten()
        });
        if let Some(p) = alias {
            return self.object_addr(p);
        }
        if self.nested_parent.contains_key(&o) {
            let loc = self.cur_loc;
            self.refuse(loc, "the address of a nested function (a trampoline)");
        }
        let sym = self.address_sym(o);
        self.b().sym_addr(sym, 0)
    }

    /// Reads an lvalue.
    pub fn load(&mut self, lv: Lv) -> Rv {
        let Some(t) = self.ir_type(lv.ty) else {
            if matches!(self.t.types.kind(lv.ty), Kind::Void) {
                return Rv::Void;
            }
            return Rv::Agg(self.lv_addr(lv));
        };
        let (_, align) = self.size_align(lv.ty);
        let flags = MemFlags {
            align,
            volatile: lv.volatile,
        };
        if let Some((off, width)) = lv.bits {
            return Rv::Scalar(self.load_bits(
                lv.base,
                lv.off,
                off,
                width,
                t,
                self.is_signed(lv.ty),
                flags,
            ));
        }
        Rv::Scalar(self.b().load(t, lv.base, lv.off, flags))
    }

    /// Writes `v` (already of the lvalue's type) to an lvalue; gives the value stored.
    pub fn store(&mut self, lv: Lv, v: Rv) -> Rv {
        let (size, align) = self.size_align(lv.ty);
        let flags = MemFlags {
            align,
            volatile: lv.volatile,
        };
        match v {
            Rv::Scalar(x) => {
                if let Some((off, width)) = lv.bits {
                    let t = self.b().func.value_type(x);
                    self.store_bits(lv.base, lv.off, off, width, x, flags);
                    // The value of the assignment is the stored, truncated value.
                    let signed = self.is_signed(lv.ty);
                    let r = self.load_bits(lv.base, lv.off, off, width, t, signed, flags);
                    return Rv::Scalar(r);
                }
                self.b().store(x, lv.base, lv.off, flags);
                v
            }
            Rv::Agg(src) => {
                let dst = self.lv_addr(lv);
                self.b().push(
                    Op::Copy {
                        dst,
                        src,
                        size,
                        align,
                    },
                    None,
                );
                Rv::Agg(dst)
            }
            Rv::Void => v,
        }
    }

    /// The smallest load window (1, 2, 4 or 8 bytes) holding bits `off..off+width`.
    fn bit_window(off: u32, width: u32) -> Type {
        let bytes = (off + width).div_ceil(8);
        match bytes {
            1 => Type::I8,
            2 => Type::I16,
            3 | 4 => Type::I32,
            _ => Type::I64,
        }
    }

    /// Reads the bit-field at bits `off..off + width` of the bytes at `addr` plus `at`.
    #[allow(clippy::too_many_arguments)]
    fn load_bits(
        &mut self,
        addr: Value,
        at: i32,
        off: u32,
        width: u32,
        t: Type,
        signed: bool,
        flags: MemFlags,
    ) -> Value {
        if off + width > 64 {
            // Straddles 9 bytes (packed): read the two halves byte-aligned.
            return self.load_bits_wide(addr, at, off, width, t, signed, flags);
        }
        let w = Self::bit_window(off, width);
        let word = self.b().load(w, addr, at, MemFlags { align: 1, ..flags });
        let word = if w != Type::I64 {
            self.b().conv(ConvOp::Zext, word, Type::I64)
        } else {
            word
        };
        // Shift the field to the top, then back down with the field's signedness.
        let up = 64 - off - width;
        let x = if up > 0 {
            let s = self.b().iconst(Type::I64, up as i128);
            self.b().binary(BinaryOp::Shl, word, s)
        } else {
            word
        };
        let s = self.b().iconst(Type::I64, (64 - width) as i128);
        let op = if signed {
            BinaryOp::AShr
        } else {
            BinaryOp::LShr
        };
        let x = self.b().binary(op, x, s);
        if t == Type::I64 {
            x
        } else if t.bytes() < 8 {
            self.b().conv(ConvOp::Trunc, x, t)
        } else {
            let op = if signed { ConvOp::Sext } else { ConvOp::Zext };
            self.b().conv(op, x, t)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn load_bits_wide(
        &mut self,
        addr: Value,
        at: i32,
        off: u32,
        width: u32,
        t: Type,
        signed: bool,
        flags: MemFlags,
    ) -> Value {
        // Assemble byte by byte into an i64 (fields are at most 64 bits wide).
        let first = off / 8;
        let last = (off + width - 1) / 8;
        let mut acc = self.b().iconst(Type::I64, 0);
        for (k, byte) in (first..=last).enumerate() {
            let b = self.b().load(
                Type::I8,
                addr,
                at + byte as i32,
                MemFlags { align: 1, ..flags },
            );
            let b = self.b().conv(ConvOp::Zext, b, Type::I64);
            let sh = (k as i64) * 8 - (off % 8) as i64;
            let part = if sh >= 0 {
                let s = self.b().iconst(Type::I64, sh as i128);
                self.b().binary(BinaryOp::Shl, b, s)
            } else {
                let s = self.b().iconst(Type::I64, (-sh) as i128);
                self.b().binary(BinaryOp::LShr, b, s)
            };
            acc = self.b().binary(BinaryOp::Or, acc, part);
        }
        let up = 64 - width;
        let s = self.b().iconst(Type::I64, up as i128);
        let x = self.b().binary(BinaryOp::Shl, acc, s);
        let op = if signed {
            BinaryOp::AShr
        } else {
            BinaryOp::LShr
        };
        let x = self.b().binary(op, x, s);
        if t.bytes() < 8 {
            self.b().conv(ConvOp::Trunc, x, t)
        } else {
            x
        }
    }

    /// Writes `v` to the bit-field at bits `off..off + width` of the bytes at `addr` plus
    /// `at`.
    fn store_bits(
        &mut self,
        addr: Value,
        at: i32,
        off: u32,
        width: u32,
        v: Value,
        flags: MemFlags,
    ) {
        let vt = self.b().func.value_type(v);
        let v64 = if vt.bytes() < 8 {
            self.b().conv(ConvOp::Zext, v, Type::I64)
        } else if vt != Type::I64 {
            self.b().conv(ConvOp::Bitcast, v, Type::I64)
        } else {
            v
        };
        if off + width > 64 {
            // Byte by byte.
            let first = off / 8;
            let last = (off + width - 1) / 8;
            for byte in first..=last {
                let lo_bit = byte * 8;
                // Bits of this byte that belong to the field.
                let fs = off.max(lo_bit) - lo_bit;
                let fe = (off + width).min(lo_bit + 8) - lo_bit;
                let mask: u8 = (((1u16 << (fe - fs)) - 1) << fs) as u8;
                let sh = lo_bit as i64 + fs as i64 - off as i64; // field bit index of fs
                let shifted = {
                    let s = self.b().iconst(Type::I64, sh as i128);
                    self.b().binary(BinaryOp::LShr, v64, s)
                };
                let shifted = {
                    let s = self.b().iconst(Type::I64, fs as i128);
                    self.b().binary(BinaryOp::Shl, shifted, s)
                };
                let nb = self.b().conv(ConvOp::Trunc, shifted, Type::I8);
                let m = self.b().iconst(Type::I8, mask as i128);
                let nb = self.b().binary(BinaryOp::And, nb, m);
                let old = self.b().load(
                    Type::I8,
                    addr,
                    at + byte as i32,
                    MemFlags { align: 1, ..flags },
                );
                let nm = self.b().iconst(Type::I8, !mask as i128);
                let keep = self.b().binary(BinaryOp::And, old, nm);
                let new = self.b().binary(BinaryOp::Or, keep, nb);
                self.b()
                    .store(new, addr, at + byte as i32, MemFlags { align: 1, ..flags });
            }
            return;
        }
        let w = Self::bit_window(off, width);
        let mask: u64 = if width == 64 {
            u64::MAX
        } else {
            ((1u64 << width) - 1) << off
        };
        let old = self.b().load(w, addr, at, MemFlags { align: 1, ..flags });
        let old64 = if w != Type::I64 {
            self.b().conv(ConvOp::Zext, old, Type::I64)
        } else {
            old
        };
        let s = self.b().iconst(Type::I64, off as i128);
        let nv = self.b().binary(BinaryOp::Shl, v64, s);
        let m = self.b().iconst(Type::I64, mask as i128);
        let nv = self.b().binary(BinaryOp::And, nv, m);
        let nm = self.b().iconst(Type::I64, !mask as i128);
        let keep = self.b().binary(BinaryOp::And, old64, nm);
        let new = self.b().binary(BinaryOp::Or, keep, nv);
        let new = if w != Type::I64 {
            self.b().conv(ConvOp::Trunc, new, w)
        } else {
            new
        };
        self.b()
            .store(new, addr, at, MemFlags { align: 1, ..flags });
    }

    /// An integer constant expression's value, if sema evaluated it or it is a literal.
    pub fn const_int(&mut self, e: ExprId) -> Option<i128> {
        if let Some(&v) = self.t.values.get(&e) {
            return Some(v);
        }
        crate::consts::eval_int(self, e)
    }

    fn rvalue_inner(&mut self, mut e: ExprId) -> Rv {
        // Parentheses are `rvalue` of what they hold, here without a call each.
        let (ex, ty) = loop {
            let ex = self.ex(e);
            self.cur_loc = ex.loc;
            let ty = self.expr_type(e);
            if let Some(&v) = self.t.values.get(&e) {
                if self.t.types.is_integer(ty) {
                    return Rv::Scalar(self.int_const(ty, v));
                }
            }
            let ExprKind::Paren(x) = ex.kind else {
                break (ex, ty);
            };
            let xt = self.expr_type(x);
            if let Kind::Array(..) | Kind::Func(_) = self.t.types.kind(xt) {
                let lv = self.lvalue(x);
                return Rv::Scalar(self.lv_addr(lv));
            }
            e = x;
        };
        // The leaves and the arithmetic (most expressions) here; the rest in a function
        // of its own, whose large frame these do not need.
        match ex.kind {
            ExprKind::Ident(_) => {
                if let Some(&o) = self.t.refs.get(&e) {
                    if let OrdKind::EnumConst(v) = self.t.ords[o as usize].kind {
                        return Rv::Scalar(self.int_const(ty, v));
                    }
                    // (`lvalue`'s own path for a variable, with what is known here, and
                    // `load`'s for a scalar, which a variable is not a bit-field of.)
                    let lv = self.ident_lvalue(o, ty);
                    if let Some(t) = self.ir_type(ty) {
                        let (_, align) = self.size_align(ty);
                        let flags = MemFlags {
                            align,
                            volatile: lv.volatile,
                        };
                        return Rv::Scalar(self.b().load(t, lv.base, 0, flags));
                    }
                    return self.load(lv);
                }
                let lv = self.lvalue(e);
                self.load(lv)
            }
            ExprKind::Int(i) if !self.ast.lits.ints[i as usize].imaginary => {
                // (What `const_int` gives a literal sema did not record.)
                let v = match self.t.values.get(&e) {
                    Some(&v) => v,
                    None => {
                        let v = self.ast.lits.ints[i as usize].value as i128;
                        crate::consts::wrap(self, ty, v)
                    }
                };
                Rv::Scalar(self.int_const(ty, v))
            }
            ExprKind::Binary(op, a, b) => {
                let r = self.binary_expr(e, op, a, b);
                self.narrow_to_bitfield(e, r)
            }
            _ => self.rvalue_other(e, ex, ty),
        }
    }

    /// [`rvalue_inner`](Self::rvalue_inner) of an expression `ex` (`e`, of type `ty`)
    /// other than an identifier, a binary operator or parentheses.
    #[inline(never)]
    fn rvalue_other(
        &mut self,
        e: ExprId,
        ex: &'a neverc_front::parse::ast::Expr,
        ty: TypeId,
    ) -> Rv {
        match &ex.kind {
            ExprKind::Paren(x) => self.rvalue(*x),
            ExprKind::Ident(_) => {
                let lv = self.lvalue(e);
                self.load(lv)
            }
            ExprKind::Int(i) if self.ast.lits.ints[*i as usize].imaginary => self.rv_as(e, ty),
            ExprKind::Int(i) => {
                // (What `const_int` gives a literal sema did not record.)
                let v = match self.t.values.get(&e) {
                    Some(&v) => v,
                    None => {
                        let v = self.ast.lits.ints[*i as usize].value as i128;
                        crate::consts::wrap(self, ty, v)
                    }
                };
                Rv::Scalar(self.int_const(ty, v))
            }
            ExprKind::Char(_) | ExprKind::BoolLit(_) => {
                let v = self.const_int(e).unwrap_or(0);
                Rv::Scalar(self.int_const(ty, v))
            }
            ExprKind::Nullptr => Rv::Scalar(self.b().iconst(Type::Ptr, 0)),
            ExprKind::Float(i) => {
                let lit = &self.ast.lits.floats[*i as usize];
                if lit.imaginary {
                    return self.rv_as(e, ty);
                }
                let t = self.ir_type(ty).unwrap_or(Type::F64);
                let v = lit.value;
                let bits = match t {
                    Type::F16 => {
                        // Rounded from the literal's double value: right unless that
                        // value lies exactly halfway between two _Float16 values (a
                        // literal rounded twice could then differ from gcc's).
                        let (h, tie) = crate::consts::f64_to_f16(v);
                        if tie {
                            let loc = self.ast.expr(e).loc;
                            self.refuse(loc, "a _Float16 literal halfway between two values");
                        }
                        h as u128
                    }
                    Type::F32 => crate::consts::parse_f32(&lit.text)
                        .unwrap_or(v as f32)
                        .to_bits() as u128,
                    Type::F64 => v.to_bits() as u128,
                    Type::F80 => crate::consts::parse_f80(&lit.text)
                        .unwrap_or_else(|| crate::consts::f64_to_f80(v)),
                    _ => crate::consts::parse_f128(&lit.text)
                        .unwrap_or_else(|| crate::consts::f64_to_f128(v)),
                };
                Rv::Scalar(self.b().fconst(t, bits))
            }
            ExprKind::Str(_) => {
                let lv = self.lvalue(e);
                Rv::Scalar(self.lv_addr(lv))
            }
            ExprKind::Unary(op, x) => {
                let r = self.unary(e, *op, *x);
                self.narrow_to_bitfield(e, r)
            }
            ExprKind::Binary(op, a, b) => {
                let r = self.binary_expr(e, *op, *a, *b);
                self.narrow_to_bitfield(e, r)
            }
            ExprKind::Assign(op, l, r) => self.assign(e, *op, *l, *r),
            ExprKind::Cond(c, a, b) => self.conditional(e, *c, a.get(), *b),
            ExprKind::Comma(a, b) => {
                self.effect(*a);
                self.rvalue(*b)
            }
            ExprKind::Call(f, args) => {
                let ast = self.ast;
                self.call(e, *f, ast.list(*args))
            }
            ExprKind::Index(..) | ExprKind::Member { .. } | ExprKind::CompoundLit(..) => {
                let lv = self.lvalue(e);
                self.load(lv)
            }
            ExprKind::Cast(tn, x) => {
                // A cast to a variably modified type evaluates its sizes (`(int (*)[n])p`).
                let ast = self.ast;
                if self.declarator_has_runtime_sizes(&ast.type_name(*tn).decl) {
                    self.eval_declarator_sizes(&ast.type_name(*tn).decl);
                }
                if matches!(self.t.types.kind(ty), Kind::Void) {
                    self.effect(*x);
                    return Rv::Void;
                }
                if matches!(self.t.types.kind(ty), Kind::Complex(_)) {
                    return self.rv_as(*x, ty);
                }
                let xt = self.decayed_type(*x);
                if self.t.types.is_vector(ty) || self.t.types.is_vector(xt) {
                    // Vector casts reinterpret the bytes (the sizes are equal).
                    let (size, _) = self.size_align(ty);
                    let (xsize, _) = self.size_align(xt);
                    let slot = self.b().add_slot(size.max(xsize).max(16), 16);
                    let tmp = self.b().slot_addr(slot);
                    match self.rvalue(*x) {
                        Rv::Agg(src) => {
                            self.b().push(
                                Op::Copy {
                                    dst: tmp,
                                    src,
                                    size: xsize,
                                    align: 1,
                                },
                                None,
                            );
                        }
                        Rv::Scalar(v) => self.b().store(v, tmp, 0, MemFlags::aligned(1)),
                        Rv::Void => {}
                    }
                    return match self.ir_type(ty) {
                        Some(it) => Rv::Scalar(self.b().load(it, tmp, 0, MemFlags::aligned(1))),
                        None => Rv::Agg(tmp),
                    };
                }
                if !self.is_scalar(ty) {
                    // Casts to unions (GNU) and same-type struct casts.
                    let r = self.rvalue(*x);
                    if let Rv::Scalar(v) = r {
                        if matches!(self.t.types.kind(ty), Kind::Record(_)) {
                            let (size, align) = self.size_align(ty);
                            let slot = self.b().add_slot(size.max(1), align);
                            let a = self.b().slot_addr(slot);
                            self.b().push(
                                Op::Zero {
                                    dst: a,
                                    size,
                                    align,
                                },
                                None,
                            );
                            self.b().store(v, a, 0, MemFlags::aligned(1));
                            return Rv::Agg(a);
                        }
                    }
                    return r;
                }
                Rv::Scalar(self.scalar_as(*x, ty))
            }
            ExprKind::SizeofExpr(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofExpr(_)
            | ExprKind::AlignofType(..)
            | ExprKind::Offsetof(..)
            | ExprKind::TypesCompatible(..) => match self.const_int(e) {
                Some(v) => Rv::Scalar(self.int_const(ty, v)),
                None => {
                    if let Some(v) = self.vla_sizeof(ex) {
                        let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
                        return Rv::Scalar(self.convert(v, ulong, ty));
                    }
                    let what = self.unsized_operator(&ex.kind);
                    self.refuse(ex.loc, what);
                    Rv::Scalar(self.int_const(ty, 0))
                }
            },
            ExprKind::Generic(..) => match self.t.generic_choice.get(&e).copied() {
                Some(c) => self.rvalue(c),
                None => Rv::Void,
            },
            ExprKind::ChooseExpr(c, a, b) => {
                let pick = self.const_int(*c).unwrap_or(0) != 0;
                self.rvalue(if pick { *a } else { *b })
            }
            ExprKind::StmtExpr(s) => self.stmt_expr(*s),
            ExprKind::LabelAddr(l) => {
                let blk = self.label_block(*l);
                if !self.fs().addressed.contains(&blk) {
                    self.fs().addressed.push(blk);
                }
                let v = self.b().push(Op::BlockAddr(blk), Some(Type::Ptr)).unwrap();
                Rv::Scalar(v)
            }
            ExprKind::VaArg(ap, _) => self.va_arg(e, *ap, ty),
            ExprKind::Error => Rv::Scalar(self.b().iconst(Type::I32, 0)),
        }
    }

    #[inline(always)]
    fn is_imaginary(&self, e: ExprId) -> bool {
        self.imaginary_literal(self.strip_parens(e))
    }

    /// Whether `ex` (without parentheses) is an imaginary literal.
    #[inline(always)]
    fn imaginary_literal(&self, ex: &neverc_front::parse::ast::Expr) -> bool {
        match ex.kind {
            ExprKind::Float(i) => self.ast.lits.floats[i as usize].imaginary,
            ExprKind::Int(i) => self.ast.lits.ints[i as usize].imaginary,
            _ => false,
        }
    }

    /// The value of `e`, of an integer type after promotion (no array or function to
    /// decay): [`scalar`](Self::scalar) without the decay check.
    #[inline(always)]
    fn int_operand(&mut self, e: ExprId) -> Value {
        match self.rvalue_inner(e) {
            Rv::Scalar(v) => v,
            _ => self.not_scalar(e),
        }
    }

    /// The refusal of `sizeof`, `_Alignof` or `offsetof` of a type the layout cannot size.
    fn unsized_operator(&mut self, kind: &ExprKind) -> String {
        let tn = |g: &Self, tn| g.t.type_names.get(tn).copied().unwrap_or(TypeId::ERROR);
        let (op, t) = match kind {
            ExprKind::SizeofExpr(x) => ("sizeof of", self.expr_type(*x)),
            ExprKind::SizeofType(n) => ("sizeof of", tn(self, n)),
            ExprKind::AlignofExpr(x) => ("_Alignof of", self.expr_type(*x)),
            ExprKind::AlignofType(n, _) => ("_Alignof of", tn(self, n)),
            ExprKind::Offsetof(n, _) => ("offsetof in", tn(self, n)),
            _ => return "this constant".to_string(),
        };
        format!("{op} {}", self.unsized_kind(t))
    }

    /// `sizeof` of a type whose size is known at run time: a type name's sizes are
    /// evaluated here; an expression of such a type is evaluated (C17 6.5.3.4p2).
    fn vla_sizeof(&mut self, ex: &neverc_front::parse::ast::Expr) -> Option<Value> {
        let t = match ex.kind {
            ExprKind::SizeofType(tn) => {
                let ast = self.ast;
                self.eval_declarator_sizes(&ast.type_name(tn).decl);
                *self.t.type_names.get(&tn)?
            }
            ExprKind::SizeofExpr(x) => {
                let t = self.expr_type(x);
                if self.runtime_sized(t) {
                    self.effect(x);
                }
                t
            }
            _ => return None,
        };
        if !self.runtime_sized(t) {
            return None;
        }
        self.cur_loc = ex.loc;
        Some(self.size_value(t))
    }

    /// gcc gives a bit-field wider than `int` but narrower than its declared type a type
    /// of its own width (`unsigned long long:40`), and arithmetic in that type wraps at
    /// that width: the precision of such an expression, if it has one.
    fn bitfield_precision(&mut self, e: ExprId) -> Option<(u32, bool)> {
        if !self.any_wide_bitfield() {
            return None;
        }
        let x = self.strip_id(e);
        match self.ast.expr(x).kind {
            ExprKind::Member { base, name, arrow } => {
                let bt = self.expr_type(base);
                let rt = if arrow {
                    let d = self.t.types.decay(bt);
                    self.t.types.pointee(d)?
                } else {
                    bt
                };
                let Kind::Record(r) = *self.t.types.kind(rt) else {
                    return None;
                };
                let w = self.t.types.bitfield_width(r, name)?;
                let ty = self.expr_type(x);
                let declared = self.size_align(ty).0 as u32 * 8;
                let int_bits = self.t.types.int_bits(neverc_abi::IntKind::Int);
                (w > int_bits && w < declared).then(|| (w, self.is_signed(ty)))
            }
            ExprKind::Unary(UnOp::Neg | UnOp::BitNot | UnOp::Plus, y) => self.bitfield_precision(y),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::Shl | BinOp::Shr => self.bitfield_precision(a),
                BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::Mod
                | BinOp::BitAnd
                | BinOp::BitOr
                | BinOp::BitXor => {
                    let pa = self.bitfield_precision(a);
                    let pb = self.bitfield_precision(b);
                    if pa.is_none() && pb.is_none() {
                        return None;
                    }
                    // The other operand's own precision decides which type wins.
                    let prec = |g: &mut Self, e: ExprId, p: Option<(u32, bool)>| {
                        p.map(|x| x.0).unwrap_or_else(|| {
                            let t = g.decayed_type(e);
                            g.size_align(t).0 as u32 * 8
                        })
                    };
                    let (wa, wb) = (prec(self, a, pa), prec(self, b, pb));
                    match (pa, pb) {
                        (Some(x), Some(y)) => Some(if x.0 >= y.0 { x } else { y }),
                        (Some(x), None) if wb <= x.0 => Some(x),
                        (None, Some(y)) if wa <= y.0 => Some(y),
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether any record has a bit-field wider than `int`: without one no expression
    /// has a bit-field precision, and the walk over every operand tree is skipped. Records
    /// are scanned once each, as they appear.
    fn any_wide_bitfield(&mut self) -> bool {
        let (found, scanned) = self.wide_bitfields;
        let records = &self.t.types.records;
        if found || scanned == records.len() {
            return found;
        }
        let int_bits = self.t.types.int_bits(neverc_abi::IntKind::Int);
        let found = records[scanned..].iter().any(|r| {
            r.members
                .iter()
                .any(|m| m.bits.is_some_and(|w| w > int_bits))
        });
        self.wide_bitfields = (found, records.len());
        found
    }

    /// Wraps the value of `e` to its bit-field precision (see [`Self::bitfield_precision`]).
    #[inline]
    fn narrow_to_bitfield(&mut self, e: ExprId, r: Rv) -> Rv {
        let Rv::Scalar(v) = r else {
            return r;
        };
        // No record scanned has a wide bit-field and none is left to scan (the usual).
        let (found, scanned) = self.wide_bitfields;
        if !found && scanned == self.t.types.records.len() {
            return r;
        }
        self.narrow_to_bitfield_slow(e, v, r)
    }

    #[inline(never)]
    fn narrow_to_bitfield_slow(&mut self, e: ExprId, v: Value, r: Rv) -> Rv {
        let Some((w, signed)) = self.bitfield_precision(e) else {
            return r;
        };
        let t = self.b().func.value_type(v);
        if !t.is_int() || t.bytes() * 8 <= w {
            return r;
        }
        let sh = self.b().iconst(t, (t.bytes() * 8 - w) as i128);
        let up = self.b().binary(BinaryOp::Shl, v, sh);
        let op = if signed {
            BinaryOp::AShr
        } else {
            BinaryOp::LShr
        };
        Rv::Scalar(self.b().binary(op, up, sh))
    }

    /// Evaluates for side effects only.
    pub fn effect(&mut self, e: ExprId) {
        let _ = self.rvalue(e);
    }

    fn unary(&mut self, e: ExprId, op: UnOp, x: ExprId) -> Rv {
        let ty = self.expr_type(e);
        match op {
            UnOp::Plus | UnOp::Neg | UnOp::BitNot if self.t.types.is_vector(ty) => {
                let (el, n) = self.vector_parts(ty);
                let src = match self.rvalue(x) {
                    Rv::Agg(a) => a,
                    _ => return Rv::Void,
                };
                let (esz, _) = self.size_align(el);
                let et = self.ir_type(el).unwrap_or(Type::I32);
                let slot = self.b().add_slot(esz * n as u64, 16);
                let dst = self.b().slot_addr(slot);
                for k in 0..n {
                    let off = (k as u64 * esz) as i32;
                    let v = self.b().load(et, src, off, MemFlags::aligned(1));
                    let r = match op {
                        UnOp::Plus => v,
                        UnOp::Neg if et.is_float() => self.b().unary(UnaryOp::FNeg, v),
                        UnOp::Neg => self.b().unary(UnaryOp::Neg, v),
                        _ => self.b().unary(UnaryOp::Not, v),
                    };
                    self.b().store(r, dst, off, MemFlags::aligned(1));
                }
                Rv::Agg(dst)
            }
            UnOp::Plus | UnOp::Neg | UnOp::BitNot
                if matches!(self.t.types.kind(ty), Kind::Complex(_)) =>
            {
                let (re, im) = self.complex_parts(x, ty);
                let el = self.complex_elem(ty);
                let neg = if self.is_float(el) {
                    UnaryOp::FNeg
                } else {
                    UnaryOp::Neg
                };
                let (re, im) = match op {
                    UnOp::Plus => (re, im),
                    UnOp::Neg => (self.b().unary(neg, re), self.b().unary(neg, im)),
                    _ => (re, self.b().unary(neg, im)),
                };
                Rv::Agg(self.make_complex(ty, re, im))
            }
            UnOp::Plus => Rv::Scalar(self.scalar_as(x, ty)),
            UnOp::Neg => {
                let v = self.scalar_as(x, ty);
                let uop = if self.is_float(ty) {
                    UnaryOp::FNeg
                } else {
                    UnaryOp::Neg
                };
                Rv::Scalar(self.b().unary(uop, v))
            }
            UnOp::BitNot => {
                let v = self.scalar_as(x, ty);
                Rv::Scalar(self.b().unary(UnaryOp::Not, v))
            }
            UnOp::Not => {
                let v = self.scalar(x);
                let t = self.cond_truth(v);
                let one = self.b().iconst(Type::I8, 1);
                let n = self.b().binary(BinaryOp::Xor, t, one);
                Rv::Scalar(self.b().conv(ConvOp::Zext, n, Type::I32))
            }
            UnOp::Deref => {
                if matches!(self.t.types.kind(ty), Kind::Func(_)) {
                    return Rv::Scalar(self.scalar(x));
                }
                let lv = self.lvalue(e);
                self.load(lv)
            }
            UnOp::Addr => {
                let xt = self.expr_type(x);
                if matches!(self.t.types.kind(xt), Kind::Func(_)) {
                    return Rv::Scalar(self.scalar(x));
                }
                let lv = self.lvalue(x);
                Rv::Scalar(self.lv_addr(lv))
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let lv = self.lvalue(x);
                let old = match self.load(lv) {
                    Rv::Scalar(v) => v,
                    _ => return Rv::Void,
                };
                let lt = lv.ty;
                let sub = matches!(op, UnOp::PreDec | UnOp::PostDec);
                let new = if self.is_pointer(lt) {
                    let one = self.b().iconst(Type::I64, 1);
                    let lt_i = self.t.types.int(neverc_abi::IntKind::Long);
                    self.ptr_add(old, lt, one, lt_i, sub)
                } else if matches!(self.t.types.kind(lt), Kind::Bool) {
                    // ++ on _Bool sets it; -- toggles.
                    if sub {
                        let one = self.b().iconst(Type::I8, 1);
                        self.b().binary(BinaryOp::Xor, old, one)
                    } else {
                        self.b().iconst(Type::I8, 1)
                    }
                } else {
                    let pt = self.t.types.promote(lt);
                    let ov = self.convert(old, lt, pt);
                    let one = self.int_const(pt, 1);
                    let bop = match (self.is_float(pt), sub) {
                        (true, false) => BinaryOp::FAdd,
                        (true, true) => BinaryOp::FSub,
                        (false, false) => BinaryOp::Add,
                        (false, true) => BinaryOp::Sub,
                    };
                    let r = self.b().binary(bop, ov, one);
                    self.convert(r, pt, lt)
                };
                let stored = self.store(lv, Rv::Scalar(new));
                if matches!(op, UnOp::PreInc | UnOp::PreDec) {
                    stored
                } else {
                    Rv::Scalar(old)
                }
            }
            UnOp::Real | UnOp::Imag => {
                let xt = self.expr_type(x);
                if matches!(self.t.types.kind(xt), Kind::Complex(_)) {
                    let lv = self.lvalue(e);
                    return self.load(lv);
                }
                if op == UnOp::Imag {
                    let v = self.scalar(x);
                    let _ = v;
                    return Rv::Scalar(self.int_const(ty, 0));
                }
                Rv::Scalar(self.scalar_as(x, ty))
            }
            UnOp::Extension => self.rvalue(x),
        }
    }

    #[inline(never)]
    fn binary_expr(&mut self, e: ExprId, op: BinOp, a: ExprId, b: ExprId) -> Rv {
        let ty = self.expr_type(e);
        match op {
            BinOp::And | BinOp::Or => {
                let rhs = self.b().new_block();
                let done = self.b().new_block();
                let r = self.b().add_param(done, Type::I8);
                let av = self.scalar(a);
                let at = self.cond_truth(av);
                let short = self
                    .b()
                    .iconst(Type::I8, if op == BinOp::And { 0 } else { 1 });
                let to_done = BlockCall {
                    block: done,
                    args: vec![short].into(),
                };
                let (t, f) = if op == BinOp::And {
                    (BlockCall::to(rhs), to_done)
                } else {
                    (to_done, BlockCall::to(rhs))
                };
                self.b().push(
                    Op::Branch {
                        cond: at,
                        then: t,
                        els: f,
                    },
                    None,
                );
                self.b().switch_to(rhs);
                let bv = self.scalar(b);
                let bt = self.cond_truth(bv);
                self.b().jump(done, vec![bt]);
                self.b().switch_to(done);
                Rv::Scalar(self.b().conv(ConvOp::Zext, r, Type::I32))
            }
            _ => {
                let (at, xa) = self.operand_type(a);
                let (bt, xb) = self.operand_type(b);
                // Operands of the result's own integer type (most arithmetic): none of the
                // checks below applies but the imaginary literals'.
                if at == ty
                    && bt == ty
                    && matches!(self.t.types.kind(ty), Kind::Int(_))
                    && !self.imaginary_literal(xa)
                    && !self.imaginary_literal(xb)
                {
                    // (Of an integer type, so neither decays: `rvalue` is `rvalue_inner`.)
                    let av = self.int_operand(a);
                    let bv = self.int_operand(b);
                    return Rv::Scalar(self.arith(op, av, at, bv, bt, ty));
                }
                if self.t.types.is_vector(at) || self.t.types.is_vector(bt) {
                    return self.vector_binary(op, a, b, ty);
                }
                let cplx = |g: &Self, t: TypeId| matches!(g.t.types.kind(t), Kind::Complex(_));
                if cplx(self, at)
                    || cplx(self, bt)
                    || cplx(self, ty)
                    || self.is_imaginary(a)
                    || self.is_imaginary(b)
                {
                    return self.complex_binary(op, a, b, ty);
                }
                let av = self.scalar(a);
                let bv = self.scalar(b);
                let at = self.open_type(at, av);
                let bt = self.open_type(bt, bv);
                let ty = if matches!(self.t.types.kind(ty), Kind::Error) {
                    match op {
                        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                            self.t.types.int(neverc_abi::IntKind::Int)
                        }
                        BinOp::Shl | BinOp::Shr => self.t.types.promote(at),
                        _ => self.t.types.usual(at, bt).unwrap_or(at),
                    }
                } else {
                    ty
                };
                Rv::Scalar(self.arith(op, av, at, bv, bt, ty))
            }
        }
    }

    /// `a op b` for the arithmetic, shift, comparison and bitwise operators; `ty` is the
    /// result type (C17 6.5.5–6.5.12).
    pub fn arith(
        &mut self,
        op: BinOp,
        av: Value,
        at: TypeId,
        bv: Value,
        bt: TypeId,
        ty: TypeId,
    ) -> Value {
        let ap = self.is_pointer(at);
        let bp = self.is_pointer(bt);
        match op {
            BinOp::Add if ap => return self.ptr_add(av, at, bv, bt, false),
            BinOp::Add if bp => return self.ptr_add(bv, bt, av, at, false),
            BinOp::Sub if ap && !bp => return self.ptr_add(av, at, bv, bt, true),
            BinOp::Sub if ap && bp => {
                let x = self.b().conv(ConvOp::Bitcast, av, Type::I64);
                let y = self.b().conv(ConvOp::Bitcast, bv, Type::I64);
                let d = self.b().binary(BinaryOp::Sub, x, y);
                let size = self.pointee_size(at).max(1) as i128;
                let d = if let Some(el) = self.runtime_pointee(at) {
                    let s = self.size_value(el);
                    self.b().binary(BinaryOp::SDiv, d, s)
                } else if size > 1 {
                    let s = self.b().iconst(Type::I64, size);
                    self.b().binary(BinaryOp::SDiv, d, s)
                } else {
                    d
                };
                let lt = self.t.types.int(neverc_abi::IntKind::Long);
                return self.convert(d, lt, ty);
            }
            _ => {}
        }
        let cmp = matches!(
            op,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
        );
        if cmp {
            // The common type of the operands.
            let ct = if ap || bp {
                let u = self.t.types.int(neverc_abi::IntKind::ULong);
                let x = if ap {
                    self.b().conv(ConvOp::Bitcast, av, Type::I64)
                } else {
                    self.convert(av, at, u)
                };
                let y = if bp {
                    self.b().conv(ConvOp::Bitcast, bv, Type::I64)
                } else {
                    self.convert(bv, bt, u)
                };
                return self.compare(op, x, y, false, false, ty);
            } else {
                self.t.types.usual(at, bt).unwrap_or(at)
            };
            let x = self.convert(av, at, ct);
            let y = self.convert(bv, bt, ct);
            let float = self.is_float(ct);
            let signed = self.is_signed(ct);
            return self.compare(op, x, y, float, signed, ty);
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let x = self.convert(av, at, ty);
            let rt = self.ir_type(ty).unwrap_or(Type::I32);
            let bt_p = self.t.types.promote(bt);
            let y0 = self.convert(bv, bt, bt_p);
            let y = {
                let yt = self.b().func.value_type(y0);
                if yt.bytes() > rt.bytes() {
                    self.b().conv(ConvOp::Trunc, y0, rt)
                } else if yt.bytes() < rt.bytes() {
                    self.b().conv(ConvOp::Zext, y0, rt)
                } else {
                    y0
                }
            };
            let bop = match op {
                BinOp::Shl => BinaryOp::Shl,
                _ if self.is_signed(ty) => BinaryOp::AShr,
                _ => BinaryOp::LShr,
            };
            return self.int_binary(bop, x, y);
        }
        let x = self.convert(av, at, ty);
        let y = self.convert(bv, bt, ty);
        let float = self.is_float(ty);
        let signed = self.is_signed(ty);
        if matches!(self.t.types.kind(ty), Kind::Complex(_)) {
            return x;
        }
        let bop = match (op, float) {
            (BinOp::Add, false) => BinaryOp::Add,
            (BinOp::Add, true) => BinaryOp::FAdd,
            (BinOp::Sub, false) => BinaryOp::Sub,
            (BinOp::Sub, true) => BinaryOp::FSub,
            (BinOp::Mul, false) => BinaryOp::Mul,
            (BinOp::Mul, true) => BinaryOp::FMul,
            (BinOp::Div, true) => BinaryOp::FDiv,
            (BinOp::Div, false) if signed => BinaryOp::SDiv,
            (BinOp::Div, false) => BinaryOp::UDiv,
            (BinOp::Mod, _) if signed => BinaryOp::SRem,
            (BinOp::Mod, _) => BinaryOp::URem,
            (BinOp::BitAnd, _) => BinaryOp::And,
            (BinOp::BitOr, _) => BinaryOp::Or,
            (BinOp::BitXor, _) => BinaryOp::Xor,
            _ => BinaryOp::Add,
        };
        self.int_binary(bop, x, y)
    }

    /// `x op y`, computed here when both are integer constants of at most 64 bits and
    /// the operation is defined for them (no division by zero, no shift by the width or
    /// more, no `MIN / -1`).
    fn int_binary(&mut self, op: BinaryOp, x: Value, y: Value) -> Value {
        let t = self.b().func.value_type(x);
        let folded = match (self.const_bits(x), self.const_bits(y)) {
            (Some((false, a)), Some((false, b)))
                if matches!(t, Type::I8 | Type::I16 | Type::I32 | Type::I64)
                    && self.b().func.value_type(y) == t =>
            {
                let bits = t.bytes() * 8;
                let mask = u64::MAX >> (64 - bits);
                let (ua, ub) = (a as u64 & mask, b as u64 & mask);
                // The signed values, sign-extended from the type's width.
                let sa = ((ua << (64 - bits)) as i64) >> (64 - bits);
                let sb = ((ub << (64 - bits)) as i64) >> (64 - bits);
                let min = i64::MIN >> (64 - bits);
                match op {
                    BinaryOp::Add => Some(ua.wrapping_add(ub)),
                    BinaryOp::Sub => Some(ua.wrapping_sub(ub)),
                    BinaryOp::Mul => Some(ua.wrapping_mul(ub)),
                    BinaryOp::And => Some(ua & ub),
                    BinaryOp::Or => Some(ua | ub),
                    BinaryOp::Xor => Some(ua ^ ub),
                    BinaryOp::Shl if ub < bits as u64 => Some(ua << ub),
                    BinaryOp::LShr if ub < bits as u64 => Some(ua >> ub),
                    BinaryOp::AShr if ub < bits as u64 => Some((sa >> ub) as u64),
                    BinaryOp::UDiv if ub != 0 => Some(ua / ub),
                    BinaryOp::URem if ub != 0 => Some(ua % ub),
                    BinaryOp::SDiv if sb != 0 && !(sa == min && sb == -1) => Some((sa / sb) as u64),
                    BinaryOp::SRem if sb != 0 && !(sa == min && sb == -1) => Some((sa % sb) as u64),
                    _ => None,
                }
                .map(|r| r & mask)
            }
            _ => None,
        };
        match folded {
            Some(r) => self.b().iconst(t, r as i128),
            None => self.b().binary(op, x, y),
        }
    }

    fn compare(
        &mut self,
        op: BinOp,
        x: Value,
        y: Value,
        float: bool,
        signed: bool,
        ty: TypeId,
    ) -> Value {
        let c = if float {
            let cc = match op {
                BinOp::Lt => FloatCC::Lt,
                BinOp::Gt => FloatCC::Gt,
                BinOp::Le => FloatCC::Le,
                BinOp::Ge => FloatCC::Ge,
                BinOp::Eq => FloatCC::Eq,
                _ => FloatCC::Ne,
            };
            self.b().fcmp(cc, x, y)
        } else {
            let cc = match (op, signed) {
                (BinOp::Lt, true) => IntCC::Slt,
                (BinOp::Lt, false) => IntCC::Ult,
                (BinOp::Gt, true) => IntCC::Sgt,
                (BinOp::Gt, false) => IntCC::Ugt,
                (BinOp::Le, true) => IntCC::Sle,
                (BinOp::Le, false) => IntCC::Ule,
                (BinOp::Ge, true) => IntCC::Sge,
                (BinOp::Ge, false) => IntCC::Uge,
                (BinOp::Eq, _) => IntCC::Eq,
                _ => IntCC::Ne,
            };
            self.b().icmp(cc, x, y)
        };
        let rt = self.ir_type(ty).unwrap_or(Type::I32);
        if rt == Type::I8 {
            c
        } else {
            self.b().conv(ConvOp::Zext, c, rt)
        }
    }

    fn assign(&mut self, e: ExprId, op: Option<BinOp>, l: ExprId, r: ExprId) -> Rv {
        let lt = self.expr_type(l);
        let Some(op) = op else {
            if self.is_scalar(lt) {
                let v = self.scalar_as(r, lt);
                let lv = self.lvalue(l);
                if lv.bits.is_none() {
                    // (`store` of a scalar to a place that is not a bit-field.)
                    let (_, align) = self.size_align(lv.ty);
                    let flags = MemFlags {
                        align,
                        volatile: lv.volatile,
                    };
                    self.b().store(v, lv.base, lv.off, flags);
                    return Rv::Scalar(v);
                }
                return self.store(lv, Rv::Scalar(v));
            }
            let v = self.rv_as(r, lt);
            let lv = self.lvalue(l);
            return self.store(lv, v);
        };
        if self.t.types.is_vector(lt) {
            let v = self.vector_binary(op, l, r, lt);
            let lv = self.lvalue(l);
            return self.store(lv, v);
        }
        if matches!(self.t.types.kind(lt), Kind::Complex(_)) {
            let v = self.complex_binary(op, l, r, lt);
            let lv = self.lvalue(l);
            return self.store(lv, v);
        }
        let _ = e;
        // The right operand first, then the load: a call on the right that stores to the
        // left operand is seen (gcc's order).
        let lv = self.lvalue(l);
        let rt = self.decayed_type(r);
        let rv = self.scalar(r);
        let rt = self.open_type(rt, rv);
        let old = match self.load(lv) {
            Rv::Scalar(v) => v,
            _ => return Rv::Void,
        };
        // The operation's type: the usual conversions of both sides (pointers keep theirs).
        let ct = if self.is_pointer(lt) {
            lt
        } else if matches!(op, BinOp::Shl | BinOp::Shr) {
            self.t.types.promote(lt)
        } else {
            self.t.types.usual(lt, rt).unwrap_or(lt)
        };
        let res = self.arith(op, old, lt, rv, rt, ct);
        let res = self.convert(res, ct, lt);
        self.store(lv, Rv::Scalar(res))
    }

    fn conditional(&mut self, e: ExprId, c: ExprId, a: Option<ExprId>, b: ExprId) -> Rv {
        let ty = self.expr_type(e);
        let tb = self.b().new_block();
        let fb = self.b().new_block();
        let done = self.b().new_block();
        let scalar = self.ir_type(ty);
        let is_void = matches!(self.t.types.kind(ty), Kind::Void);
        let param_ty = if is_void {
            None
        } else {
            Some(scalar.unwrap_or(Type::Ptr))
        };
        let res = param_ty.map(|t| self.b().add_param(done, t));
        let cv = self.scalar(c);
        let ct = self.decayed_type(c);
        // `c ?: b` gives `c` itself: its value stays.
        let cond = if a.is_some() {
            self.cond_truth(cv)
        } else {
            self.truth(cv)
        };
        self.b().branch(cond, tb, fb);
        // Each arm converted to the result type (aggregates by address).
        let arm = |g: &mut Self, blk: Block, x: Option<ExprId>| {
            g.b().switch_to(blk);
            let v = match x {
                Some(x) => {
                    if scalar.is_some() {
                        Some(g.scalar_as(x, ty))
                    } else if is_void {
                        g.effect(x);
                        None
                    } else {
                        match g.rv_as(x, ty) {
                            Rv::Agg(a) | Rv::Scalar(a) => Some(a),
                            Rv::Void => None,
                        }
                    }
                }
                // GNU `c ?: b`: the condition's value.
                None => Some(g.convert(cv, ct, ty)),
            };
            let args = match (v, res) {
                (Some(v), Some(_)) => vec![v],
                _ => vec![],
            };
            if res.is_some() && args.is_empty() {
                let z = g.b().iconst(param_ty.unwrap(), 0);
                g.b().jump(done, vec![z]);
            } else {
                g.b().jump(done, args);
            }
        };
        arm(self, tb, a);
        arm(self, fb, Some(b));
        self.b().switch_to(done);
        match res {
            None => Rv::Void,
            Some(v) if scalar.is_some() => Rv::Scalar(v),
            Some(v) => Rv::Agg(v),
        }
    }

    /// Data for a string: a local read-only object; gives its address.
    pub fn string_data(&mut self, bytes: &[u8], unit: u32) -> Value {
        let sym = self.string_sym(bytes, unit);
        self.b().sym_addr(sym, 0)
    }

    pub fn string_sym(&mut self, bytes: &[u8], unit: u32) -> Sym {
        self.statics += 1;
        let name = format!(".Lstr.{}", self.statics);
        let sym = self.module.symbol(&name, SymKind::Object);
        {
            let s = &mut self.module.symbols[sym.index()];
            s.binding = Binding::Local;
            s.local = true;
        }
        let mut data = bytes.to_vec();
        data.extend(std::iter::repeat_n(0u8, unit as usize));
        if self.sink.is_some() {
            self.module.symbols[sym.index()].defined = true;
        }
        self.module.data.push(DataObject {
            sym,
            size: data.len() as u64,
            align: unit,
            bytes: data,
            relocs: vec![],
            readonly: true,
            common: false,
            block_relocs: vec![],
        });
        sym
    }

    /// The address of string literal `i` (one object per literal).
    pub fn string_lit(&mut self, i: u32) -> Value {
        if let Some(&s) = self.strings.get(&i) {
            return self.b().sym_addr(s, 0);
        }
        let (bytes, unit) = crate::consts::string_bytes(self, i);
        let s = self.string_sym(&bytes, unit);
        self.strings.insert(i, s);
        self.b().sym_addr(s, 0)
    }

    // ----- calls -----

    fn call(&mut self, e: ExprId, f: ExprId, args: &[ExprId]) -> Rv {
        let ex = self.ex(e);
        let ret = self.expr_type(e);
        if let ExprKind::Ident(s) = self.ex(f).kind {
            if !self.t.refs.contains_key(&f) {
                let n = self.name(s);
                return self.builtin(e, &n, args);
            }
            // An implicitly declared library function (`abort ();` with no header):
            // called with its library type.
            let o = self.t.refs[&f];
            let implicit = matches!(
                self.t.ords[o as usize].kind,
                OrdKind::Object { implicit: true, .. }
            );
            let ret_unknown = self
                .t
                .types
                .func(self.t.ords[o as usize].ty)
                .is_some_and(|ft| matches!(self.t.types.kind(ft.ret), Kind::Error));
            if implicit && ret_unknown {
                let n = self.name(s);
                return self.libcall_builtin(e, &n, args);
            }
            // Like gcc, the absolute value functions and alloca are builtins whatever the
            // program declares under their names (unless -fno-builtin).
            let n = self.name(s);
            if !self.opts.no_builtin && n == "alloca" && args.len() == 1 {
                let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
                let sz = self.scalar_as(args[0], ulong);
                let v = self
                    .b()
                    .push(
                        Op::Alloca {
                            size: sz,
                            align: 16,
                        },
                        Some(Type::Ptr),
                    )
                    .unwrap();
                return Rv::Scalar(v);
            }
            if !self.opts.no_builtin
                && args.len() == 1
                && matches!(n.as_str(), "abs" | "labs" | "llabs" | "imaxabs")
                && self.t.types.is_integer(self.expr_type(e))
            {
                let ty = self.expr_type(e);
                let x = self.scalar_as(args[0], ty);
                let it = self.ir_type(ty).unwrap_or(Type::I32);
                let z = self.b().iconst(it, 0);
                let neg = self.b().icmp(IntCC::Slt, x, z);
                let nx = self.b().unary(UnaryOp::Neg, x);
                return Rv::Scalar(self.b().select(neg, nx, x));
            }
            // gcc expands fabs inline at every level, so programs calling it link without
            // -lm; it must be declared with its standard floating return type.
            if !self.opts.no_builtin && args.len() == 1 {
                let want = match n.as_str() {
                    "fabs" => Some(FloatK::Double),
                    "fabsf" => Some(FloatK::Float),
                    "fabsl" => Some(FloatK::LongDouble),
                    _ => None,
                };
                if let Some(k) = want {
                    if self.expr_type(e) == self.float_kind_type(k) {
                        return self.libcall_builtin(e, &n, args);
                    }
                }
            }
        }
        let fty = self.decayed_type(f);
        let Some(func) = self
            .t
            .types
            .pointee(fty)
            .and_then(|p| self.t.types.func(p).cloned())
        else {
            self.refuse(ex.loc, "a call through this expression");
            return Rv::Void;
        };
        // A direct call of a custom-convention function seen here without a prototype
        // takes the prototype the function has elsewhere in the file (its plan needs one);
        // the arguments convert to its parameters as in a prototyped call.
        let func = match self.ex(f).kind {
            ExprKind::Ident(_) if !func.proto => {
                let o = self.t.refs.get(&f).copied();
                let full = o.and_then(|o| self.t.types.func(self.t.ords[o as usize].ty).cloned());
                match (o, full) {
                    (Some(o), Some(full))
                        if full.proto
                            && !full.variadic
                            && full.params.len() == args.len()
                            && self.is_custom_fn(o) =>
                    {
                        full
                    }
                    _ => func,
                }
            }
            _ => func,
        };
        // Argument types: the parameters' for a prototype, promoted ones beyond it.
        let mut arg_tys = Vec::new();
        // Arguments whose type sema left open (a builtin's result) are evaluated first;
        // their machine type gives the C type they are passed as.
        let mut early: Vec<Option<Rv>> = vec![None; args.len()];
        for (i, &a) in args.iter().enumerate() {
            let t = if func.proto && i < func.params.len() {
                let p = func.params[i];
                self.t.types.unqual(p)
            } else {
                let at = self.expr_type(a);
                let pt = self.promote_arg(at);
                if matches!(self.t.types.kind(pt), Kind::Error) {
                    let r = self.rvalue(a);
                    early[i] = Some(r);
                    match r {
                        Rv::Scalar(v) => {
                            let vt = self.b().func.value_type(v);
                            self.ctype_of(vt)
                        }
                        _ => pt,
                    }
                } else {
                    pt
                }
            };
            arg_tys.push(t);
        }
        let named = if func.variadic {
            Some(func.params.len().min(args.len()))
        } else if !func.proto && self.machine.arch == neverc_target::Arch::X86_64 {
            // An unprototyped callee may be variadic: set %al as gcc does.
            Some(0)
        } else {
            None
        };
        let ret = self.t.types.unqual(ret);
        let ret = if matches!(self.t.types.kind(ret), Kind::Error) {
            self.t.types.unqual(func.ret)
        } else {
            ret
        };
        // A nested function takes its environment first.
        let nested_env = self
            .callee_ord(f)
            .filter(|o| self.nested_parent.contains_key(o));
        if let Some(o) = nested_env {
            let v = self.t.types.void();
            let vp = self.t.types.pointer(v);
            arg_tys.insert(0, vp);
            early.insert(0, None);
            let _ = o;
        }
        let named = named.map(|n| n + nested_env.is_some() as usize);
        // A direct call takes its callee's plan (which may be of a custom convention);
        // a call through a pointer the standard one.
        let direct = match self.ex(f).kind {
            ExprKind::Ident(_) if matches!(self.t.types.kind(self.expr_type(f)), Kind::Func(_)) => {
                Some(self.t.refs[&f])
            }
            _ => None,
        };
        let plan_owner = direct.filter(|_| nested_env.is_none());
        let plan = match self.plan_by_types(plan_owner, ret, &arg_tys, named, ex.loc) {
            None => {
                self.refuse(ex.loc, "a call with these argument types");
                return Rv::Void;
            }
            Some(None) => return Rv::Void,
            Some(Some(plan)) => plan,
        };
        let callee = match direct {
            Some(o) => Callee::Direct(self.object_sym(o)),
            None => Callee::Indirect(self.scalar(f)),
        };
        // Evaluate the arguments.
        let mut vals: Vec<Rv> = Vec::new();
        if let Some(o) = nested_env {
            match self.env_for(o) {
                Some(env) => vals.push(Rv::Scalar(env)),
                None => {
                    self.refuse(ex.loc, "this call of a nested function from another one");
                    let z = self.b().iconst(Type::Ptr, 0);
                    vals.push(Rv::Scalar(z));
                }
            }
        }
        let skip = nested_env.is_some() as usize;
        for (i, &a) in args.iter().enumerate() {
            let t = arg_tys[i + skip];
            match early[i + skip] {
                Some(r) => vals.push(r),
                None => vals.push(self.rv_as(a, t)),
            }
        }
        let noreturn = match callee {
            Callee::Direct(s) => {
                self.noreturn.contains(&s)
                    || matches!(
                        self.module.sym(s).name.as_str(),
                        "abort"
                            | "exit"
                            | "_exit"
                            | "_Exit"
                            | "quick_exit"
                            | "longjmp"
                            | "siglongjmp"
                    )
            }
            _ => false,
        };
        let r = self.emit_call(callee, &plan, &arg_tys, &vals, ret);
        if noreturn {
            let blk = self.b().current();
            self.fs().noreturn_calls.push(blk);
        }
        r
    }

    /// The entry a call's callee names, when it is a function designator.
    fn callee_ord(&self, f: ExprId) -> Option<u32> {
        let x = self.strip_id(f);
        let o = *self.t.refs.get(&x)?;
        matches!(self.t.types.kind(self.t.ords[o as usize].ty), Kind::Func(_)).then_some(o)
    }

    /// Lowers evaluated arguments into the plan's locations and the results back.
    pub fn emit_call(
        &mut self,
        callee: Callee,
        plan: &CallPlan,
        arg_tys: &[TypeId],
        vals: &[Rv],
        ret: TypeId,
    ) -> Rv {
        let mut ir_args = Vec::new();
        let mut arg_mem = Vec::new();
        // Aggregates and wide scalars go through a padded temporary copy.
        let mut temps: Vec<Option<Value>> = vec![None; vals.len()];
        for loc in plan.arguments.iter() {
            if loc.flags.contains(Flags::VA_COUNT) {
                let n = plan
                    .arguments
                    .iter()
                    .filter(|l| matches!(l.place, Place::Reg(r) if self.is_vector_reg(r)))
                    .count();
                ir_args.push(self.b().iconst(Type::I8, n as i128));
                continue;
            }
            let vi = loc.value as usize;
            let t = arg_tys[vi];
            let scalar = self.ir_type(t);
            let v = vals[vi];
            let is_mem_place =
                matches!(loc.place, Place::Stack(_)) && !loc.flags.contains(Flags::BYREF);
            match (v, scalar) {
                (Rv::Scalar(x), Some(st)) if !matches!(st, Type::F80 | Type::I128 | Type::F128) => {
                    let pt = self.piece_type(loc, Some(st));
                    let x = if pt != st && pt.is_int() && st.is_int() && pt.bytes() > st.bytes() {
                        let op = if self.is_signed(t)
                            || loc.flags.contains(Flags::SEXT32)
                            || loc.flags.contains(Flags::SEXT64)
                        {
                            ConvOp::Sext
                        } else {
                            ConvOp::Zext
                        };
                        self.b().conv(op, x, pt)
                    } else {
                        x
                    };
                    ir_args.push(x);
                }
                _ => {
                    let tmp = match temps[vi] {
                        Some(t) => t,
                        None => {
                            let (size, align) = self.size_align(t);
                            let slot = self
                                .b()
                                .add_slot(size.max(1).next_multiple_of(16), align.max(16));
                            let a = self.b().slot_addr(slot);
                            match v {
                                Rv::Agg(src) => {
                                    self.b().push(
                                        Op::Copy {
                                            dst: a,
                                            src,
                                            size,
                                            align: 1,
                                        },
                                        None,
                                    );
                                }
                                Rv::Scalar(x) => self.b().store(x, a, 0, MemFlags::aligned(align)),
                                Rv::Void => {}
                            }
                            temps[vi] = Some(a);
                            a
                        }
                    };
                    if loc.flags.contains(Flags::BYREF) {
                        ir_args.push(tmp);
                    } else if is_mem_place {
                        let a = self.add_offset(tmp, loc.offset as i64);
                        arg_mem.push(ir_args.len() as u32);
                        ir_args.push(a);
                    } else {
                        let pt = self.piece_type(loc, None);
                        let x = self
                            .b()
                            .load(pt, tmp, loc.offset as i32, MemFlags::aligned(1));
                        ir_args.push(x);
                    }
                }
            }
        }
        // The result buffer for results in memory.
        let (rsize, ralign) = if matches!(self.t.types.kind(ret), Kind::Void) {
            (0, 1)
        } else {
            self.size_align(ret)
        };
        let scalar_ret = self.ir_type(ret);
        let needs_buf = scalar_ret.is_none() && !matches!(self.t.types.kind(ret), Kind::Void);
        let buf = if needs_buf {
            let slot = self
                .b()
                .add_slot(rsize.next_multiple_of(16), ralign.max(16));
            Some(self.b().slot_addr(slot))
        } else {
            None
        };
        for _ in plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
        {
            let a = match buf {
                Some(a) => a,
                None => {
                    let slot = self.b().add_slot(16, 16);
                    self.b().slot_addr(slot)
                }
            };
            ir_args.push(a);
        }
        let ret_locs: Vec<neverc_abi::Location> = plan
            .returns
            .iter()
            .filter(|l| !l.flags.contains(Flags::SRET))
            .copied()
            .collect();
        let res_tys: Vec<Type> = ret_locs
            .iter()
            .map(|l| {
                if l.flags.contains(Flags::SRET_OUT) {
                    Type::Ptr
                } else {
                    self.piece_type(l, scalar_ret)
                }
            })
            .collect();
        let pid = self.b().add_plan_ref(plan);
        let results = self.b().call(callee, ir_args, arg_mem, pid, &res_tys);
        if matches!(self.t.types.kind(ret), Kind::Void) {
            return Rv::Void;
        }
        match scalar_ret {
            Some(st)
                if ret_locs.len() == 1
                    && !ret_locs[0].flags.contains(Flags::SRET_OUT)
                    && res_tys[0] != Type::V128 =>
            {
                let mut v = results[0];
                let vt = res_tys[0];
                if vt != st && vt.is_int() && st.is_int() && vt.bytes() > st.bytes() {
                    v = self.b().conv(ConvOp::Trunc, v, st);
                }
                Rv::Scalar(v)
            }
            Some(st) => {
                // A scalar returned in pieces (__int128), in memory or as 16 opaque
                // bytes (__float128).
                let slot = self.b().add_slot(16, 16);
                let a = self.b().slot_addr(slot);
                for (l, &v) in ret_locs.iter().zip(&results) {
                    if !l.flags.contains(Flags::SRET_OUT) {
                        self.b().store(v, a, l.offset as i32, MemFlags::aligned(1));
                    }
                }
                Rv::Scalar(self.b().load(st, a, 0, MemFlags::aligned(16)))
            }
            None => {
                let a = buf.unwrap();
                for (l, &v) in ret_locs.iter().zip(&results) {
                    if !l.flags.contains(Flags::SRET_OUT) {
                        self.b().store(v, a, l.offset as i32, MemFlags::aligned(1));
                    }
                }
                Rv::Agg(a)
            }
        }
    }

    /// A call to a named C function with already converted scalar arguments.
    pub fn call_named(&mut self, name: &str, ret: TypeId, arg_tys: &[TypeId], vals: &[Rv]) -> Rv {
        let sig = self
            .signature(ret, arg_tys, None)
            .expect("scalar signature");
        let plan = neverc_abi::plan_call(self.machine, &sig).expect("plan of a library call");
        let sym = self.module.symbol(name, SymKind::Func);
        let sym = self.library_callee(sym);
        self.emit_call(Callee::Direct(sym), &plan, arg_tys, vals, ret)
    }

    fn float_kind_type(&mut self, f: FloatK) -> TypeId {
        self.t.types.intern(Kind::Float(f), 0)
    }

    /// The return type of a C library function called without a declaration.
    fn library_return(&mut self, name: &str) -> Option<TypeId> {
        let void = self.t.types.void();
        let vp = self.t.types.pointer(void);
        let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
        let dbl = self.float_kind_type(FloatK::Double);
        let flt = self.float_kind_type(FloatK::Float);
        Some(match name {
            "abort" | "exit" | "_exit" | "free" | "bzero" => void,
            "memcpy" | "memmove" | "memset" | "malloc" | "calloc" | "realloc" | "strcpy"
            | "strncpy" | "strcat" | "strchr" | "strrchr" | "strstr" | "stpcpy" | "memchr"
            | "index" | "rindex" | "strpbrk" | "alloca" => vp,
            "strlen" | "strspn" | "strcspn" => ulong,
            "fabs" | "sqrt" | "floor" | "ceil" | "copysign" | "fmax" | "fmin" | "sin" | "cos"
            | "exp" | "log" | "pow" | "atan" | "atan2" | "fmod" | "ldexp" | "frexp" | "modf"
            | "trunc" | "round" | "nearbyint" | "rint" => dbl,
            "fabsf" | "sqrtf" | "floorf" | "ceilf" | "copysignf" | "fmaxf" | "fminf" | "truncf"
            | "roundf" => flt,
            "fabsl" | "sqrtl" | "floorl" | "ceill" | "copysignl" | "fmaxl" | "fminl" | "truncl"
            | "roundl" => {
                let k = FloatK::LongDouble;
                self.float_kind_type(k)
            }
            _ => return None,
        })
    }

    /// `__builtin_{add,sub,mul}_overflow[_p]`: the exact result computed in 128 bits,
    /// checked against the result type's range, stored wrapped.
    fn overflow_builtin(&mut self, e: ExprId, name: &str, args: &[ExprId]) -> Rv {
        let loc = self.ex(e).loc;
        let at = self.decayed_type(args[0]);
        let bt = self.decayed_type(args[1]);
        let store = !name.ends_with("_p");
        let rt = if store {
            let pt = self.decayed_type(args[2]);
            self.t.types.pointee(pt).unwrap_or(pt)
        } else {
            self.decayed_type(args[2])
        };
        let ints = [at, bt, rt]
            .iter()
            .all(|&t| self.t.types.is_integer(t) || matches!(self.t.types.kind(t), Kind::Bool));
        let wide = [at, bt, rt]
            .iter()
            .any(|&t| self.ir_type(t).is_none_or(|x| x.bytes() > 8));
        if !ints || wide {
            self.refuse(loc, format!("'__builtin_{name}' with these operand types"));
            return Rv::Scalar(self.b().iconst(Type::I8, 0));
        }
        let i128t = self.t.types.int(neverc_abi::IntKind::Int128);
        let a0 = self.scalar(args[0]);
        let b0 = self.scalar(args[1]);
        let a = self.convert(a0, at, i128t);
        let b = self.convert(b0, bt, i128t);
        let op = &name[..3];
        let unsigned_64 = |g: &Self, t: TypeId| !g.is_signed(t) && g.size_align(t).0 == 8;
        // Only an unsigned 64-bit product can leave the signed 128-bit range.
        let as_unsigned = op == "mul" && unsigned_64(self, at) && unsigned_64(self, bt);
        let r = match op {
            "add" => self.b().binary(BinaryOp::Add, a, b),
            "sub" => self.b().binary(BinaryOp::Sub, a, b),
            _ => self.b().binary(BinaryOp::Mul, a, b),
        };
        let bits = self.size_align(rt).0 * 8;
        let (lo, hi): (i128, i128) = if self.is_signed(rt) {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else if matches!(self.t.types.kind(rt), Kind::Bool) {
            (0, 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let hv = self.b().iconst(Type::I128, hi);
        let over = if as_unsigned {
            self.b().icmp(IntCC::Ugt, r, hv)
        } else {
            let lv = self.b().iconst(Type::I128, lo);
            let x = self.b().icmp(IntCC::Sgt, r, hv);
            let y = self.b().icmp(IntCC::Slt, r, lv);
            self.b().binary(BinaryOp::Or, x, y)
        };
        if store {
            let dst = self.scalar(args[2]);
            let it = self.ir_type(rt).unwrap();
            let v = self.b().conv(ConvOp::Trunc, r, it);
            let (_, al) = self.size_align(rt);
            self.b().store(v, dst, 0, MemFlags::aligned(al));
        } else {
            self.effect(args[2]);
        }
        let ty = self.expr_type(e);
        let t = self.ir_type(ty).unwrap_or(Type::I8);
        Rv::Scalar(if t == Type::I8 {
            over
        } else {
            self.b().conv(ConvOp::Zext, over, t)
        })
    }

    /// `__sync_*` and `__atomic_*`: read-modify-write, compare-and-swap, loads, stores
    /// and fences (every memory order is sequentially consistent here, which is allowed).
    fn atomic_builtin(&mut self, e: ExprId, n: &str, args: &[ExprId]) -> Option<Rv> {
        let loc = self.ex(e).loc;
        let ptr_t = self.decayed_type(*args.first()?);
        let vt = self.t.types.pointee(ptr_t)?;
        let Some(t) = self.ir_type(vt) else {
            self.refuse(loc, format!("'{n}' on this type"));
            return Some(Rv::Void);
        };
        let rmw = |s: &str| -> Option<AtomicOp> {
            Some(match s {
                "add" => AtomicOp::Add,
                "sub" => AtomicOp::Sub,
                "and" => AtomicOp::And,
                "or" => AtomicOp::Or,
                "xor" => AtomicOp::Xor,
                "nand" => AtomicOp::Nand,
                _ => return None,
            })
        };
        let addr = self.scalar(args[0]);
        let arg = |g: &mut Self, i: usize| g.scalar_as(args[i], vt);
        let combine = |g: &mut Self, op: AtomicOp, old: Value, v: Value| -> Value {
            match op {
                AtomicOp::Add => g.b().binary(BinaryOp::Add, old, v),
                AtomicOp::Sub => g.b().binary(BinaryOp::Sub, old, v),
                AtomicOp::And => g.b().binary(BinaryOp::And, old, v),
                AtomicOp::Or => g.b().binary(BinaryOp::Or, old, v),
                AtomicOp::Xor => g.b().binary(BinaryOp::Xor, old, v),
                AtomicOp::Nand => {
                    let a = g.b().binary(BinaryOp::And, old, v);
                    g.b().unary(UnaryOp::Not, a)
                }
                AtomicOp::Xchg => v,
            }
        };
        let push_rmw = |g: &mut Self, op: AtomicOp, v: Value| -> Value {
            g.b()
                .push(
                    Op::AtomicRmw {
                        op,
                        ty: t,
                        addr,
                        value: v,
                    },
                    Some(t),
                )
                .unwrap()
        };
        if let Some(rest) = n.strip_prefix("__sync_") {
            if let Some(o) = rest.strip_prefix("fetch_and_").and_then(rmw) {
                let v = arg(self, 1);
                return Some(Rv::Scalar(push_rmw(self, o, v)));
            }
            if let Some(o) = rest.strip_suffix("_and_fetch").and_then(rmw) {
                let v = arg(self, 1);
                let old = push_rmw(self, o, v);
                return Some(Rv::Scalar(combine(self, o, old, v)));
            }
            return Some(match rest {
                "lock_test_and_set" => {
                    let v = arg(self, 1);
                    Rv::Scalar(push_rmw(self, AtomicOp::Xchg, v))
                }
                "lock_release" => {
                    let z = self.zero_of(t);
                    self.b().push(Op::Fence, None);
                    self.b().store(
                        z,
                        addr,
                        0,
                        MemFlags {
                            align: t.bytes(),
                            volatile: true,
                        },
                    );
                    Rv::Void
                }
                "val_compare_and_swap" | "bool_compare_and_swap" => {
                    let exp = arg(self, 1);
                    let new = arg(self, 2);
                    let old = self
                        .b()
                        .push(
                            Op::AtomicCas {
                                ty: t,
                                addr,
                                expected: exp,
                                new,
                            },
                            Some(t),
                        )
                        .unwrap();
                    if rest.starts_with("bool") {
                        let c = self.b().icmp(IntCC::Eq, old, exp);
                        let ty = self.expr_type(e);
                        let rt = self.ir_type(ty).unwrap_or(Type::I8);
                        Rv::Scalar(if rt == Type::I8 {
                            c
                        } else {
                            self.b().conv(ConvOp::Zext, c, rt)
                        })
                    } else {
                        Rv::Scalar(old)
                    }
                }
                _ => return None,
            });
        }
        let rest = n.strip_prefix("__atomic_")?;
        let order_args = |g: &mut Self, from: usize| {
            for &a in &args[from.min(args.len())..] {
                g.effect(a);
            }
        };
        if let Some(o) = rest.strip_prefix("fetch_").and_then(rmw) {
            let v = arg(self, 1);
            order_args(self, 2);
            return Some(Rv::Scalar(push_rmw(self, o, v)));
        }
        if let Some(o) = rest.strip_suffix("_fetch").and_then(rmw) {
            let v = arg(self, 1);
            order_args(self, 2);
            let old = push_rmw(self, o, v);
            return Some(Rv::Scalar(combine(self, o, old, v)));
        }
        let flags = MemFlags {
            align: t.bytes(),
            volatile: true,
        };
        Some(match rest {
            "load_n" => {
                order_args(self, 1);
                self.b().push(Op::Fence, None);
                Rv::Scalar(self.b().load(t, addr, 0, flags))
            }
            "load" => {
                let dst = self.scalar(args[1]);
                order_args(self, 2);
                let v = self.b().load(t, addr, 0, flags);
                self.b().store(v, dst, 0, MemFlags::aligned(1));
                Rv::Void
            }
            "store_n" => {
                let v = arg(self, 1);
                order_args(self, 2);
                // A sequentially consistent store is an exchange on x86-64.
                push_rmw(self, AtomicOp::Xchg, v);
                Rv::Void
            }
            "store" => {
                let src = self.scalar(args[1]);
                order_args(self, 2);
                let v = self.b().load(t, src, 0, MemFlags::aligned(1));
                push_rmw(self, AtomicOp::Xchg, v);
                Rv::Void
            }
            "exchange_n" => {
                let v = arg(self, 1);
                order_args(self, 2);
                Rv::Scalar(push_rmw(self, AtomicOp::Xchg, v))
            }
            "compare_exchange_n" | "compare_exchange" => {
                // (ptr, expected*, desired or desired*, weak, success, failure)
                let expp = self.scalar(args[1]);
                let exp = self.b().load(t, expp, 0, MemFlags::aligned(1));
                let new = if rest == "compare_exchange" {
                    let dp = self.scalar(args[2]);
                    self.b().load(t, dp, 0, MemFlags::aligned(1))
                } else {
                    arg(self, 2)
                };
                order_args(self, 3);
                let old = self
                    .b()
                    .push(
                        Op::AtomicCas {
                            ty: t,
                            addr,
                            expected: exp,
                            new,
                        },
                        Some(t),
                    )
                    .unwrap();
                let ok = self.b().icmp(IntCC::Eq, old, exp);
                // On failure the current value is written back to *expected.
                self.b().store(old, expp, 0, MemFlags::aligned(1));
                let ty = self.expr_type(e);
                let rt = self.ir_type(ty).unwrap_or(Type::I8);
                Rv::Scalar(if rt == Type::I8 {
                    ok
                } else {
                    self.b().conv(ConvOp::Zext, ok, rt)
                })
            }
            _ => return None,
        })
    }

    /// `__builtin_*` and the other names sema knows without a declaration.
    fn builtin(&mut self, e: ExprId, n: &str, args: &[ExprId]) -> Rv {
        if n.starts_with("__sync_") || n.starts_with("__atomic_") {
            if n == "__sync_synchronize"
                || n == "__atomic_thread_fence"
                || n == "__atomic_signal_fence"
            {
                for &a in args {
                    self.effect(a);
                }
                self.b().push(Op::Fence, None);
                return Rv::Void;
            }
            if !args.is_empty() {
                if let Some(r) = self.atomic_builtin(e, n, args) {
                    return r;
                }
            }
        }
        let loc = self.ex(e).loc;
        let ty = self.expr_type(e);
        let int = self.t.types.int(neverc_abi::IntKind::Int);
        let uint = self.t.types.int(neverc_abi::IntKind::UInt);
        let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
        let long = self.t.types.int(neverc_abi::IntKind::Long);
        let ull = self.t.types.int(neverc_abi::IntKind::ULongLong);
        let void = self.t.types.void();
        let vp = self.t.types.pointer(void);
        let name = n.strip_prefix("__builtin_").unwrap_or(n);
        match name {
            "expect" | "expect_with_probability" => {
                let v = self.scalar_as(args[0], ty);
                for &a in &args[1..] {
                    self.effect(a);
                }
                Rv::Scalar(v)
            }
            "prefetch" => {
                for &a in args {
                    self.effect(a);
                }
                Rv::Void
            }
            "assume_aligned" => {
                let v = self.rvalue(args[0]);
                for &a in &args[1..] {
                    self.effect(a);
                }
                v
            }
            "unreachable" => {
                self.b().push(Op::Unreachable, None);
                self.ensure_open();
                Rv::Void
            }
            "trap" => {
                self.b().push(Op::Trap, None);
                self.ensure_open();
                Rv::Void
            }
            "classify_type" => {
                // gcc's type classes (typeclass.h).
                let at = match args.first() {
                    Some(&a) => self.expr_type(a),
                    None => void,
                };
                let c = match self.t.types.kind(at) {
                    Kind::Void => 0,
                    Kind::Int(_) => 1,
                    Kind::Enum(_) => 3,
                    Kind::Bool => 4,
                    Kind::Pointer(_) | Kind::Array(..) => 5,
                    Kind::Vector(..) => 19,
                    Kind::Float(_) => 8,
                    Kind::Complex(_) => 9,
                    Kind::Func(_) => 5,
                    Kind::Record(r) if self.t.types.records[*r as usize].union => 13,
                    Kind::Record(_) => 12,
                    Kind::Error => 0,
                };
                Rv::Scalar(self.int_const(int, c))
            }
            "complex" => {
                let (re, im) = (args[0], args[1]);
                let el = self.complex_elem(ty);
                let r = self.scalar_as(re, el);
                let i = self.scalar_as(im, el);
                Rv::Agg(self.make_complex(ty, r, i))
            }
            "conj" | "conjf" | "conjl" | "creal" | "crealf" | "creall" | "cimag" | "cimagf"
            | "cimagl" => {
                let at = self.decayed_type(args[0]);
                let (re, im) = self.complex_parts(args[0], at);
                match &name[..4] {
                    "conj" => {
                        let el = self.complex_elem(at);
                        let neg = if self.is_float(el) {
                            UnaryOp::FNeg
                        } else {
                            UnaryOp::Neg
                        };
                        let n = self.b().unary(neg, im);
                        Rv::Agg(self.make_complex(at, re, n))
                    }
                    "crea" => Rv::Scalar(re),
                    _ => Rv::Scalar(im),
                }
            }
            "add_overflow" | "sub_overflow" | "mul_overflow" | "add_overflow_p"
            | "sub_overflow_p" | "mul_overflow_p" => self.overflow_builtin(e, name, args),
            "constant_p" => {
                let c = crate::consts::is_constant(self, args[0]);
                Rv::Scalar(self.int_const(ty, c as i128))
            }
            "va_start" => {
                let lv = self.va_list_addr(args[0]);
                self.b().push(Op::VaStart(lv), None);
                // AAPCS64: the back end sets the pointers; the offsets of the registers
                // left (negative: bytes below __gr_top and __vr_top) depend on the
                // parameter types.
                if let Some((ngrn, nsrn)) = self.fs().aapcs64_regs_used {
                    for (at, left) in [(24, (8 - ngrn as i128) * 8), (28, (8 - nsrn as i128) * 16)]
                    {
                        let v = self.b().iconst(Type::I32, -left);
                        self.b().store(v, lv, at, MemFlags::aligned(4));
                    }
                }
                Rv::Void
            }
            "va_end" => {
                self.effect(args[0]);
                Rv::Void
            }
            "va_copy" => {
                let d = self.va_list_addr(args[0]);
                let s = self.va_list_addr(args[1]);
                let va_ty = self.expr_type(args[0]);
                let va_ty = match self.t.types.kind(va_ty) {
                    Kind::Pointer(p) => *p,
                    _ => va_ty,
                };
                let (size, _) = self.size_align(va_ty);
                let size = if size == 0 { 24 } else { size };
                self.b().push(
                    Op::Copy {
                        dst: d,
                        src: s,
                        size,
                        align: 8,
                    },
                    None,
                );
                Rv::Void
            }
            "alloca" | "alloca_with_align" => {
                let sz = self.scalar_as(args[0], ulong);
                // __builtin_alloca_with_align(size, alignment in bits), a constant.
                let bits = match args.get(1) {
                    Some(&a) if name == "alloca_with_align" => {
                        crate::consts::eval_int(self, a).unwrap_or(0)
                    }
                    _ => 0,
                };
                let align = (bits / 8).clamp(16, 1 << 28) as u32;
                let v = self
                    .b()
                    .push(Op::Alloca { size: sz, align }, Some(Type::Ptr))
                    .unwrap();
                Rv::Scalar(v)
            }
            "setjmp" => {
                // gcc's buffer: frame pointer, resume address, stack pointer. The resume
                // block is entered by __builtin_longjmp with the result 1.
                let buf = self.scalar(args[0]);
                let normal = self.b().new_block();
                let resume = self.b().new_block();
                let done = self.b().new_block();
                let r = self.b().add_param(done, Type::I32);
                let fp = self.b().push(Op::FrameAddress, Some(Type::Ptr)).unwrap();
                let sp = self.b().push(Op::StackSave, Some(Type::Ptr)).unwrap();
                let ra = self
                    .b()
                    .push(Op::BlockAddr(resume), Some(Type::Ptr))
                    .unwrap();
                self.b().store(fp, buf, 0, MemFlags::aligned(8));
                self.b().store(ra, buf, 8, MemFlags::aligned(8));
                self.b().store(sp, buf, 16, MemFlags::aligned(8));
                for blk in [normal, resume] {
                    if !self.fs().addressed.contains(&blk) {
                        self.fs().addressed.push(blk);
                    }
                }
                // Reach the normal path through an indirect jump whose targets include the
                // resume block, so the resume block is part of the function's flow.
                let na = self
                    .b()
                    .push(Op::BlockAddr(normal), Some(Type::Ptr))
                    .unwrap();
                let i = Inst(self.b().func.insts.len() as u32);
                self.b().push(
                    Op::IndirectJump {
                        addr: na,
                        targets: vec![],
                    },
                    None,
                );
                self.fs().indirect.push(i);
                self.b().func.calls_setjmp = true;
                self.b().switch_to(normal);
                let z = self.b().iconst(Type::I32, 0);
                self.b().jump(done, vec![z]);
                self.b().switch_to(resume);
                let one = self.b().iconst(Type::I32, 1);
                self.b().jump(done, vec![one]);
                self.b().switch_to(done);
                Rv::Scalar(r)
            }
            "longjmp" => {
                let buf = self.scalar(args[0]);
                self.effect(args[1]);
                let fp = self.b().load(Type::Ptr, buf, 0, MemFlags::aligned(8));
                let target = self.b().load(Type::Ptr, buf, 8, MemFlags::aligned(8));
                let sp = self.b().load(Type::Ptr, buf, 16, MemFlags::aligned(8));
                self.b().push(Op::NonLocalGoto { fp, sp, target }, None);
                self.ensure_open();
                Rv::Void
            }
            "frame_address" | "return_address" => {
                // Frames are chained through the saved frame pointers; the return address
                // sits one word above a frame's address.
                let Some(level) = args.first().and_then(|&a| self.const_int(a)) else {
                    self.refuse(loc, format!("__builtin_{name} without a constant level"));
                    return Rv::Scalar(self.b().iconst(Type::Ptr, 0));
                };
                let mut fp = self.b().push(Op::FrameAddress, Some(Type::Ptr)).unwrap();
                for _ in 0..level {
                    fp = self.b().load(Type::Ptr, fp, 0, MemFlags::aligned(8));
                }
                if name == "return_address" {
                    fp = self.b().load(Type::Ptr, fp, 8, MemFlags::aligned(8));
                }
                Rv::Scalar(fp)
            }
            "clz" | "ctz" | "popcount" | "parity" | "ffs" | "clzl" | "ctzl" | "popcountl"
            | "parityl" | "ffsl" | "clzll" | "ctzll" | "popcountll" | "parityll" | "ffsll"
            | "clrsb" | "clrsbl" | "clrsbll" => {
                // libgcc's 64-bit helpers (linked by every C program) compute these; an
                // `int` argument is widened first (signed for clrsb), and clz/clrsb of a
                // 32-bit value count 32 fewer.
                let base = name.trim_end_matches('l');
                let wide = name.ends_with('l');
                let signed = base == "ffs" || base == "clrsb";
                let narrow = if signed { int } else { uint };
                let wide_t = if signed { long } else { ulong };
                let v = self.scalar_as(args[0], if wide { wide_t } else { narrow });
                let v = if wide {
                    v
                } else {
                    self.convert(v, narrow, wide_t)
                };
                let helper = format!("__{base}di2");
                let r = self.call_named(&helper, int, &[wide_t], &[Rv::Scalar(v)]);
                let Rv::Scalar(mut x) = r else {
                    return r;
                };
                if !wide && (base == "clz" || base == "clrsb") {
                    let k = self.b().iconst(Type::I32, 32);
                    x = self.b().binary(BinaryOp::Sub, x, k);
                }
                Rv::Scalar(self.convert(x, int, ty))
            }
            "bswap16" | "bswap32" | "bswap64" => {
                let bits: u32 = name[5..].parse().unwrap();
                let at = match bits {
                    16 => self.t.types.int(neverc_abi::IntKind::UShort),
                    32 => uint,
                    _ => ull,
                };
                let v = self.scalar_as(args[0], at);
                let t = self.ir_type(at).unwrap();
                // Byte by byte: shifts and masks.
                let mut acc = self.b().iconst(t, 0);
                let n = bits / 8;
                for k in 0..n {
                    let s1 = self.b().iconst(t, (k * 8) as i128);
                    let byte = self.b().binary(BinaryOp::LShr, v, s1);
                    let m = self.b().iconst(t, 0xff);
                    let byte = self.b().binary(BinaryOp::And, byte, m);
                    let s2 = self.b().iconst(t, ((n - 1 - k) * 8) as i128);
                    let byte = self.b().binary(BinaryOp::Shl, byte, s2);
                    acc = self.b().binary(BinaryOp::Or, acc, byte);
                }
                Rv::Scalar(acc)
            }
            "abort" | "exit" | "_exit" | "memcpy" | "memset" | "memmove" | "memcmp" | "strlen"
            | "strcmp" | "strcpy" | "strncpy" | "strncmp" | "strcat" | "strchr" | "strrchr"
            | "printf" | "sprintf" | "snprintf" | "puts" | "putchar" | "malloc" | "calloc"
            | "realloc" | "free" | "abs" | "labs" | "llabs" | "fabs" | "fabsf" | "fabsl"
            | "sqrt" | "sqrtf" | "sqrtl" | "copysign" | "copysignf" | "copysignl" | "isnan"
            | "isinf" | "inf" | "inff" | "infl" | "huge_val" | "huge_valf" | "huge_vall"
            | "nan" | "nanf" | "nanl" | "strstr" | "stpcpy" | "fprintf" | "memchr" | "signbit"
            | "floor" | "ceil" | "isinf_sign" | "fmax" | "fmin" | "powi" | "powif" | "isfinite"
            | "isnormal" | "isgreater" | "isless" | "isgreaterequal" | "islessequal"
            | "islessgreater" | "isunordered" | "fpclassify" | "isinff" | "isinfl" | "signbitf"
            | "signbitl" | "isnanf" | "isnanl" | "finite" | "finitef" | "finitel" | "strspn"
            | "strcspn" | "strpbrk" | "index" | "rindex" | "bzero" | "bcmp" | "ffsimax"
            | "fmaxf" | "fminf" | "fmaxl" | "fminl" | "floorf" | "floorl" | "ceilf" | "ceill"
            | "trunc" | "truncf" | "truncl" | "round" | "roundf" | "roundl" => {
                self.libcall_builtin(e, name, args)
            }
            _ => {
                let _ = (vp, long);
                self.refuse(loc, format!("the builtin '{n}'"));
                for &a in args {
                    self.effect(a);
                }
                match self.ir_type(ty) {
                    Some(t) => Rv::Scalar(self.zero_of(t)),
                    None => Rv::Void,
                }
            }
        }
    }

    /// Float `x` stored in a fresh slot, and the byte holding its sign bit: the slot's
    /// address, the byte's offset and its value (through memory, so every float format,
    /// x87 and binary128 too, is handled alike).
    fn float_in_memory_top_byte(&mut self, x: Value) -> (Value, i32, Value) {
        let t = self.b().func.value_type(x);
        let slot = self.b().add_slot(16, 16);
        let a = self.b().slot_addr(slot);
        self.b().store(x, a, 0, MemFlags::aligned(16));
        let top = t.bytes() as i32 - 1;
        let byte = self.b().load(Type::I8, a, top, MemFlags::aligned(1));
        (a, top, byte)
    }

    /// Builtins with a library function of the same meaning, or a short inline form.
    fn libcall_builtin(&mut self, e: ExprId, name: &str, args: &[ExprId]) -> Rv {
        let ty = self.expr_type(e);
        let loc = self.ex(e).loc;
        let dbl = self.float_kind_type(FloatK::Double);
        let flt = self.float_kind_type(FloatK::Float);
        let ldbl = self.float_kind_type(FloatK::LongDouble);
        let int = self.t.types.int(neverc_abi::IntKind::Int);
        match name {
            "inf" | "huge_val" | "inff" | "huge_valf" | "infl" | "huge_vall" => {
                let t = self.ir_type(ty).unwrap_or(Type::F64);
                return Rv::Scalar(self.float_const(t, f64::INFINITY));
            }
            "nan" | "nanf" | "nanl" => {
                let t = self.ir_type(ty).unwrap_or(Type::F64);
                return Rv::Scalar(self.float_const(t, f64::NAN));
            }
            "isinf" | "isinff" | "isinfl" | "isfinite" | "isnormal" | "signbit" | "signbitf"
            | "signbitl" | "isinf_sign" | "isnanf" | "isnanl" | "finite" | "finitef"
            | "finitel" => {
                let at = self.decayed_type(args[0]);
                let x = self.scalar(args[0]);
                let t = self.b().func.value_type(x);
                let x = if t.is_float() {
                    x
                } else {
                    let d = self.float_kind_type(FloatK::Double);
                    self.convert(x, at, d)
                };
                let t = self.b().func.value_type(x);
                let inf = self.float_const(t, f64::INFINITY);
                let ninf = self.float_const(t, f64::NEG_INFINITY);
                let is_inf = {
                    let a = self.b().fcmp(FloatCC::Eq, x, inf);
                    let b = self.b().fcmp(FloatCC::Eq, x, ninf);
                    self.b().binary(BinaryOp::Or, a, b)
                };
                let sign = {
                    let (_, _, byte) = self.float_in_memory_top_byte(x);
                    let m = self.b().iconst(Type::I8, 0x80);
                    let s = self.b().binary(BinaryOp::And, byte, m);
                    let z = self.b().iconst(Type::I8, 0);
                    self.b().icmp(IntCC::Ne, s, z)
                };
                let i32_of = |g: &mut Self, c: Value| g.b().conv(ConvOp::Zext, c, Type::I32);
                let r = match name {
                    "isinf" | "isinff" | "isinfl" => i32_of(self, is_inf),
                    "isnanf" | "isnanl" => {
                        let c = self.b().fcmp(FloatCC::Unordered, x, x);
                        i32_of(self, c)
                    }
                    "signbit" | "signbitf" | "signbitl" => i32_of(self, sign),
                    "isfinite" | "finite" | "finitef" | "finitel" => {
                        let ord = self.b().fcmp(FloatCC::Eq, x, x);
                        let one = self.b().iconst(Type::I8, 1);
                        let not_inf = self.b().binary(BinaryOp::Xor, is_inf, one);
                        let c = self.b().binary(BinaryOp::And, ord, not_inf);
                        i32_of(self, c)
                    }
                    "isnormal" => {
                        let min = match t {
                            Type::F32 => f32::MIN_POSITIVE as f64,
                            Type::F64 => f64::MIN_POSITIVE,
                            _ => 0.0,
                        };
                        let ax = {
                            let n = self.b().unary(UnaryOp::FNeg, x);
                            let zero = self.zero_of(t);
                            let neg = self.b().fcmp(FloatCC::Lt, x, zero);
                            self.b().select(neg, n, x)
                        };
                        let m = if t == Type::F80 {
                            let bits = 1u128 << 64 | 1u128 << 63; // 2^-16382
                            self.b().fconst(t, bits)
                        } else {
                            self.float_const(t, min)
                        };
                        let ge = self.b().fcmp(FloatCC::Ge, ax, m);
                        let lt = self.b().fcmp(FloatCC::Lt, ax, inf);
                        let c = self.b().binary(BinaryOp::And, ge, lt);
                        i32_of(self, c)
                    }
                    _ => {
                        // isinf_sign: -1, 0 or 1.
                        let one = self.b().iconst(Type::I32, 1);
                        let m1 = self.b().iconst(Type::I32, -1);
                        let z = self.b().iconst(Type::I32, 0);
                        let s = self.b().select(sign, m1, one);
                        self.b().select(is_inf, s, z)
                    }
                };
                return Rv::Scalar(r);
            }
            "isnan" | "isunordered" => {
                let a = args[0];
                let at = self.decayed_type(a);
                let x = self.scalar(a);
                let y = if name == "isunordered" {
                    let bt = self.decayed_type(args[1]);
                    let y = self.scalar(args[1]);
                    let ct = self.t.types.usual(at, bt).unwrap_or(at);
                    let _ = ct;
                    self.convert(y, bt, at)
                } else {
                    x
                };
                let c = self.b().fcmp(FloatCC::Unordered, x, y);
                return Rv::Scalar(self.b().conv(ConvOp::Zext, c, Type::I32));
            }
            "isgreater" | "isless" | "isgreaterequal" | "islessequal" | "islessgreater" => {
                let at = self.decayed_type(args[0]);
                let bt = self.decayed_type(args[1]);
                let ct = self.t.types.usual(at, bt).unwrap_or(at);
                let x = self.scalar_as(args[0], ct);
                let y = self.scalar_as(args[1], ct);
                let c = match name {
                    "isgreater" => self.b().fcmp(FloatCC::Gt, x, y),
                    "isless" => self.b().fcmp(FloatCC::Lt, x, y),
                    "isgreaterequal" => self.b().fcmp(FloatCC::Ge, x, y),
                    "islessequal" => self.b().fcmp(FloatCC::Le, x, y),
                    _ => {
                        let a = self.b().fcmp(FloatCC::Lt, x, y);
                        let b = self.b().fcmp(FloatCC::Gt, x, y);
                        self.b().binary(BinaryOp::Or, a, b)
                    }
                };
                return Rv::Scalar(self.b().conv(ConvOp::Zext, c, Type::I32));
            }
            "fabs" | "fabsf" | "fabsl" => {
                let ft = match name {
                    "fabsf" => flt,
                    "fabsl" => ldbl,
                    _ => dbl,
                };
                let x = self.scalar_as(args[0], ft);
                let t = self.ir_type(ft).unwrap();
                // Clear the sign bit (a compare and negate would keep -0.0 and a negative
                // NaN negative).
                let (a, top, byte) = self.float_in_memory_top_byte(x);
                let m = self.b().iconst(Type::I8, 0x7f);
                let byte = self.b().binary(BinaryOp::And, byte, m);
                self.b().store(byte, a, top, MemFlags::aligned(1));
                let r = self.b().load(t, a, 0, MemFlags::aligned(16));
                return Rv::Scalar(r);
            }
            "alloca" => {
                let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
                let sz = self.scalar_as(args[0], ulong);
                let v = self
                    .b()
                    .push(
                        Op::Alloca {
                            size: sz,
                            align: 16,
                        },
                        Some(Type::Ptr),
                    )
                    .unwrap();
                return Rv::Scalar(v);
            }
            _ => {}
        }
        // Everything else: the library function itself, declared as C declares it.
        let (ret, params): (TypeId, Vec<TypeId>) = {
            let ty_ret = if matches!(self.t.types.kind(ty), Kind::Error) {
                self.library_return(name).unwrap_or(int)
            } else {
                self.t.types.unqual(ty)
            };
            let mut ps: Vec<TypeId> = args
                .iter()
                .map(|&a| {
                    let t = self.expr_type(a);
                    self.promote_arg(t)
                })
                .collect();
            // Size arguments are size_t whatever the caller wrote.
            let size_arg = match name {
                "memcpy" | "memmove" | "memset" | "memcmp" | "strncmp" | "strncpy" | "bcmp"
                | "memchr" => Some(2),
                "malloc" => Some(0),
                "bzero" | "realloc" | "snprintf" => Some(1),
                _ => None,
            };
            let ulong = self.t.types.int(neverc_abi::IntKind::ULong);
            if let Some(k) = size_arg {
                if k < ps.len() && self.t.types.is_integer(ps[k]) {
                    ps[k] = ulong;
                }
            }
            if name == "calloc" {
                ps.iter_mut().for_each(|p| *p = ulong);
            }
            // The math functions take their own float type, not promoted arguments.
            let math = [
                "fabs", "sqrt", "copysign", "floor", "ceil", "fmax", "fmin", "trunc", "round",
            ];
            if let Some(base) = math.iter().find(|m| name.starts_with(*m)) {
                let k = match &name[base.len()..] {
                    "f" => Some(FloatK::Float),
                    "l" => Some(FloatK::LongDouble),
                    "" => Some(FloatK::Double),
                    _ => None,
                };
                if let Some(k) = k {
                    let ft = self.float_kind_type(k);
                    ps.iter_mut().for_each(|p| *p = ft);
                }
            }
            (ty_ret, ps)
        };
        let lib = match name {
            "fpclassify" | "powi" | "powif" | "ffsimax" => {
                self.refuse(loc, format!("the builtin '__builtin_{name}'"));
                return Rv::Scalar(self.b().iconst(Type::I32, 0));
            }
            n => n.to_string(),
        };
        let variadic = matches!(lib.as_str(), "printf" | "sprintf" | "snprintf" | "fprintf");
        let mut vals = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let t = params[i];
            if self.is_scalar(t) {
                vals.push(Rv::Scalar(self.scalar_as(a, t)));
            } else {
                vals.push(self.rvalue(a));
            }
        }
        let named = if variadic {
            Some(match lib.as_str() {
                "printf" => 1,
                "sprintf" | "fprintf" => 2,
                _ => 3,
            })
        } else {
            None
        };
        let Some(sig) = self.signature(ret, &params, named) else {
            self.refuse(loc, format!("the builtin '__builtin_{name}'"));
            return Rv::Void;
        };
        let plan = neverc_abi::plan_call(self.machine, &sig).expect("library plan");
        let sym = self.module.symbol(&lib, SymKind::Func);
        let sym = self.library_callee(sym);
        let r = self.emit_call(Callee::Direct(sym), &plan, &params, &vals, ret);
        if matches!(lib.as_str(), "abort" | "exit" | "_exit") {
            self.b().push(Op::Unreachable, None);
            self.ensure_open();
        }
        r
    }

    /// The address of a `va_list` argument (an array type decays to its first element).
    fn va_list_addr(&mut self, e: ExprId) -> Value {
        let t = self.expr_type(e);
        match self.t.types.kind(t) {
            Kind::Array(..) | Kind::Pointer(_) => self.scalar(e),
            _ => {
                let lv = self.lvalue(e);
                self.lv_addr(lv)
            }
        }
    }

    /// `va_arg(ap, T)` for System V x86-64: from the register save area while registers
    /// remain, else from the overflow area (psABI 3.5.7).
    fn va_arg(&mut self, e: ExprId, ap: ExprId, ty: TypeId) -> Rv {
        let loc = self.ex(e).loc;
        if self.machine.arch == neverc_target::Arch::AArch64
            && self.machine.os == neverc_target::Os::Linux
        {
            return self.va_arg_aapcs64(e, ap, ty);
        }
        if self.machine.arch != neverc_target::Arch::X86_64 {
            self.refuse(loc, "va_arg on this target");
            return Rv::Void;
        }
        let list = self.va_list_addr(ap);
        // How the type would be passed as the first argument of a function.
        let void = self.t.types.void();
        let Some(sig) = self.signature(void, &[ty], None) else {
            self.refuse(loc, "va_arg of this type");
            return Rv::Void;
        };
        let plan = neverc_abi::plan_call(self.machine, &sig).unwrap();
        let (size, align) = self.size_align(ty);
        let gprs = plan
            .arguments
            .iter()
            .filter(|l| matches!(l.place, Place::Reg(r) if !self.is_vector_reg(r)))
            .count() as i128;
        let sses = plan
            .arguments
            .iter()
            .filter(|l| matches!(l.place, Place::Reg(r) if self.is_vector_reg(r)))
            .count() as i128;
        let in_regs = plan
            .arguments
            .iter()
            .all(|l| matches!(l.place, Place::Reg(_)));
        let slot = self
            .b()
            .add_slot(size.max(1).next_multiple_of(16), align.max(16));
        let tmp = self.b().slot_addr(slot);
        let done = self.b().new_block();
        let stack_b = self.b().new_block();
        if in_regs {
            let regs_b = self.b().new_block();
            let gp = self.b().load(Type::I32, list, 0, MemFlags::aligned(4));
            let fp = self.b().load(Type::I32, list, 4, MemFlags::aligned(4));
            let gl = self.b().iconst(Type::I32, 48 - gprs * 8);
            let fl = self.b().iconst(Type::I32, 176 - sses * 16);
            let ok1 = self.b().icmp(IntCC::Ule, gp, gl);
            let ok2 = self.b().icmp(IntCC::Ule, fp, fl);
            let ok = self.b().binary(BinaryOp::And, ok1, ok2);
            self.b().branch(ok, regs_b, stack_b);
            self.b().switch_to(regs_b);
            let rsa = self.b().load(Type::Ptr, list, 16, MemFlags::aligned(8));
            let mut gi = 0i128;
            let mut fi = 0i128;
            for l in &plan.arguments {
                let Place::Reg(r) = l.place else { continue };
                let is_sse = self.is_vector_reg(r);
                let (cur, k) = if is_sse { (fp, fi) } else { (gp, gi) };
                let off = self.b().conv(ConvOp::Zext, cur, Type::I64);
                let rsa_i = self.b().conv(ConvOp::Bitcast, rsa, Type::I64);
                let a = self.b().binary(BinaryOp::Add, rsa_i, off);
                let a = self.b().conv(ConvOp::Bitcast, a, Type::Ptr);
                // An xmm slot of the save area holds 16 bytes: a 16-byte piece (a vector,
                // SSE+SSEUP) is read whole.
                let pt = match (is_sse, l.size > 8) {
                    (true, true) => Type::V128,
                    (true, false) => Type::F64,
                    _ => Type::I64,
                };
                let byte_off = if is_sse { k * 16 } else { k * 8 };
                let v = self.b().load(pt, a, byte_off as i32, MemFlags::aligned(1));
                self.b()
                    .store(v, tmp, l.offset as i32, MemFlags::aligned(1));
                if is_sse {
                    fi += 1;
                } else {
                    gi += 1;
                }
            }
            if gprs > 0 {
                let inc = self.b().iconst(Type::I32, gprs * 8);
                let n = self.b().binary(BinaryOp::Add, gp, inc);
                self.b().store(n, list, 0, MemFlags::aligned(4));
            }
            if sses > 0 {
                let inc = self.b().iconst(Type::I32, sses * 16);
                let n = self.b().binary(BinaryOp::Add, fp, inc);
                self.b().store(n, list, 4, MemFlags::aligned(4));
            }
            self.b().jump(done, vec![]);
        } else {
            self.b().jump(stack_b, vec![]);
        }
        // The overflow area: aligned to 8 (16 for 16-aligned types), advanced by the size
        // rounded to 8.
        self.b().switch_to(stack_b);
        let ov = self.b().load(Type::Ptr, list, 8, MemFlags::aligned(8));
        let ov_i = self.b().conv(ConvOp::Bitcast, ov, Type::I64);
        let ov_i = if align > 8 {
            let a = self.b().iconst(Type::I64, align as i128 - 1);
            let s = self.b().binary(BinaryOp::Add, ov_i, a);
            let m = self.b().iconst(Type::I64, !(align as i128 - 1));
            self.b().binary(BinaryOp::And, s, m)
        } else {
            ov_i
        };
        let src = self.b().conv(ConvOp::Bitcast, ov_i, Type::Ptr);
        self.b().push(
            Op::Copy {
                dst: tmp,
                src,
                size,
                align: 1,
            },
            None,
        );
        // A record without value bits is passed as nothing once the registers are used
        // up (gcc; finding F10 of the two-compiler test): it takes no stack slot.
        let on_stack_bytes = {
            let long = self.t.types.int(neverc_abi::IntKind::Long);
            let mut ps = vec![long; 6];
            ps.push(ty);
            match self.signature(void, &ps, Some(6)) {
                Some(s) => neverc_abi::plan_call(self.machine, &s)
                    .map(|p| p.arguments.iter().any(|l| l.value == 6))
                    .unwrap_or(true),
                None => true,
            }
        };
        let step_bytes = if on_stack_bytes {
            size.next_multiple_of(8)
        } else {
            0
        };
        let step = self.b().iconst(Type::I64, step_bytes as i128);
        let next = self.b().binary(BinaryOp::Add, ov_i, step);
        let next = self.b().conv(ConvOp::Bitcast, next, Type::Ptr);
        self.b().store(next, list, 8, MemFlags::aligned(8));
        self.b().jump(done, vec![]);
        self.b().switch_to(done);
        match self.ir_type(ty) {
            Some(t) => Rv::Scalar(self.b().load(t, tmp, 0, MemFlags::aligned(align))),
            None => Rv::Agg(tmp),
        }
    }

    /// Whether AAPCS64 (as neverc-abi plans calls) rounds up to an even general register
    /// for `t` (C.9) and to a 16-aligned stack slot (C.14-C.16). Both follow the natural
    /// alignment of `t` (its members' alignments, not an `aligned` attribute on the
    /// record itself) and neither applies to a value passed by reference, so they are
    /// read from the plans of `f(long, t)` and of a call whose registers are used up.
    fn aapcs64_rounding(&self, t: &neverc_abi::Type) -> (bool, bool) {
        use neverc_abi::{IntKind, Signature, Type as T};
        let long = T::Int(IntKind::Long);
        let after_one = Signature::new(T::Void, [long.clone(), t.clone()]);
        let even = neverc_abi::plan_call(self.machine, &after_one).is_ok_and(|p| {
            p.arguments
                .iter()
                .any(|l| l.value == 1 && l.offset == 0 && l.place == Place::Reg(2))
        });
        // x0-x7 and v0-v7 taken, one 8-byte stack slot used: `t` at 16 or at 8.
        let mut params = vec![long; 9];
        params.extend(std::iter::repeat_n(T::double(), 8));
        params.push(t.clone());
        let spilled = Signature::new(T::Void, params);
        let stack16 = neverc_abi::plan_call(self.machine, &spilled).is_ok_and(|p| {
            p.arguments
                .iter()
                .any(|l| l.value == 17 && l.offset == 0 && l.place == Place::Stack(16))
        });
        (even, stack16)
    }

    /// `va_arg(ap, T)` for AAPCS64 (Procedure Call Standard, appendix "Variable argument
    /// lists"): `ap` is { __stack, __gr_top, __vr_top, __gr_offs, __vr_offs }. A type
    /// passed in general registers is read from below `__gr_top` while `__gr_offs` stays
    /// negative, one in vector registers (floats, HFAs, 16-byte vectors) from below
    /// `__vr_top` in 16-byte slots; otherwise, and once those are used up, from `__stack`.
    /// A type passed by reference reads its pointer that way, then copies from it.
    fn va_arg_aapcs64(&mut self, e: ExprId, ap: ExprId, ty: TypeId) -> Rv {
        let loc = self.ex(e).loc;
        let list = self.va_list_addr(ap);
        let void = self.t.types.void();
        let Some(sig) = self.signature(void, &[ty], None) else {
            self.refuse(loc, "va_arg of this type");
            return Rv::Void;
        };
        let plan = neverc_abi::plan_call(self.machine, &sig).unwrap();
        let (size, align) = self.size_align(ty);
        let byref = plan
            .arguments
            .iter()
            .any(|l| l.flags.contains(neverc_abi::Flags::BYREF));
        let regs: Vec<_> = plan
            .arguments
            .iter()
            .filter_map(|l| match l.place {
                Place::Reg(r) => Some((self.is_vector_reg(r), *l)),
                Place::Stack(_) => None,
            })
            .collect();
        let in_regs = !plan.arguments.is_empty() && regs.len() == plan.arguments.len();
        let vector = in_regs && regs.iter().all(|(v, _)| *v);
        let (even_reg, stack16) = self.aapcs64_rounding(&sig.params[0]);
        let slot = self
            .b()
            .add_slot(size.max(8).next_multiple_of(16), align.max(16));
        let tmp = self.b().slot_addr(slot);
        let done = self.b().new_block();
        let stack_b = self.b().new_block();
        // Where the value (or, by reference, its pointer) ends up being copied from.
        if in_regs {
            let regs_b = self.b().new_block();
            let (offs_at, top_at, step) = if vector { (28, 16, 16) } else { (24, 8, 8) };
            let mut offs = self
                .b()
                .load(Type::I32, list, offs_at, MemFlags::aligned(4));
            let zero = self.b().iconst(Type::I32, 0);
            let used = self.b().icmp(IntCC::Sge, offs, zero);
            let try_b = self.b().new_block();
            self.b().branch(used, stack_b, try_b);
            self.b().switch_to(try_b);
            if !vector && even_reg {
                // A type of natural alignment 16 starts at an even register.
                let a = self.b().iconst(Type::I32, 15);
                let s = self.b().binary(BinaryOp::Add, offs, a);
                let m = self.b().iconst(Type::I32, -16);
                offs = self.b().binary(BinaryOp::And, s, m);
            }
            let inc = self.b().iconst(Type::I32, step * regs.len() as i128);
            let next = self.b().binary(BinaryOp::Add, offs, inc);
            self.b().store(next, list, offs_at, MemFlags::aligned(4));
            let over = self.b().icmp(IntCC::Sgt, next, zero);
            self.b().branch(over, stack_b, regs_b);
            self.b().switch_to(regs_b);
            let top = self.b().load(Type::Ptr, list, top_at, MemFlags::aligned(8));
            let top_i = self.b().conv(ConvOp::Bitcast, top, Type::I64);
            let off64 = self.b().conv(ConvOp::Sext, offs, Type::I64);
            let a = self.b().binary(BinaryOp::Add, top_i, off64);
            let a = self.b().conv(ConvOp::Bitcast, a, Type::Ptr);
            for (k, (v, l)) in regs.iter().enumerate() {
                let pt = match (*v, l.size) {
                    (true, 16) => Type::V128,
                    (true, 8) => Type::F64,
                    (true, 4) => Type::F32,
                    (true, _) => Type::I16,
                    (false, _) => Type::I64,
                };
                let piece = self
                    .b()
                    .load(pt, a, (k as i128 * step) as i32, MemFlags::aligned(1));
                let at = if byref { 0 } else { l.offset as i32 };
                self.b().store(piece, tmp, at, MemFlags::aligned(1));
            }
            self.b().jump(done, vec![]);
        } else {
            self.b().jump(stack_b, vec![]);
        }
        // The stack: 8-byte slots, 16-aligned types at a multiple of 16.
        self.b().switch_to(stack_b);
        let st = self.b().load(Type::Ptr, list, 0, MemFlags::aligned(8));
        let st_i = self.b().conv(ConvOp::Bitcast, st, Type::I64);
        let st_i = if stack16 {
            let a = self.b().iconst(Type::I64, 15);
            let s = self.b().binary(BinaryOp::Add, st_i, a);
            let m = self.b().iconst(Type::I64, -16);
            self.b().binary(BinaryOp::And, s, m)
        } else {
            st_i
        };
        let src = self.b().conv(ConvOp::Bitcast, st_i, Type::Ptr);
        let on_stack = if byref { 8 } else { size };
        self.b().push(
            Op::Copy {
                dst: tmp,
                src,
                size: on_stack,
                align: 1,
            },
            None,
        );
        let step = self
            .b()
            .iconst(Type::I64, on_stack.next_multiple_of(8) as i128);
        let next = self.b().binary(BinaryOp::Add, st_i, step);
        let next = self.b().conv(ConvOp::Bitcast, next, Type::Ptr);
        self.b().store(next, list, 0, MemFlags::aligned(8));
        self.b().jump(done, vec![]);
        self.b().switch_to(done);
        let val = if byref {
            // tmp holds the pointer: copy the value into a slot of its own.
            let p = self.b().load(Type::Ptr, tmp, 0, MemFlags::aligned(8));
            let vs = self.b().add_slot(size.max(1), align.max(1));
            let va = self.b().slot_addr(vs);
            self.b().push(
                Op::Copy {
                    dst: va,
                    src: p,
                    size,
                    align: 1,
                },
                None,
            );
            va
        } else {
            tmp
        };
        match self.ir_type(ty) {
            Some(t) => Rv::Scalar(self.b().load(t, val, 0, MemFlags::aligned(align))),
            None => Rv::Agg(val),
        }
    }
}
