//! Constants: literal encodings, integer constant folding, the walk of an initialiser
//! list to its leaves (designators, brace elision), and static objects' bytes and
//! relocations.

use crate::softfloat::{Format, SoftFloat, BINARY128, BINARY32, BINARY64, EXACT_WIDE, X87};
use crate::Gen;
use neverc_front::parse::ast::{BinOp, Designator, ExprId, ExprKind, Init, InitId, InitItem, UnOp};
use neverc_front::parse::ctok::Enc;
use neverc_front::sema::{ArrLen, Kind, OrdKind, TypeId};
use neverc_front::source::Loc;
use neverc_ir::*;

/// x87 extended precision bits of a double (exact: every double is representable).
pub fn f64_to_f80(v: f64) -> u128 {
    let bits = v.to_bits();
    let sign = (bits >> 63) as u128;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (e80, mant): (u128, u128) = if exp == 0x7ff {
        (0x7fff, (1u128 << 63) | ((frac as u128) << 11))
    } else if exp == 0 {
        if frac == 0 {
            (0, 0)
        } else {
            // Subnormal double: normalise.
            let lz = frac.leading_zeros() as i32 - 11; // zeros within the 53-bit field
            let m = (frac as u128) << (11 + lz + 1);
            let e = 1 - 1023 - lz - 1 + 16383;
            (e as u128, m & ((1u128 << 64) - 1))
        }
    } else {
        (
            (exp - 1023 + 16383) as u128,
            (1u128 << 63) | ((frac as u128) << 11),
        )
    };
    (sign << 79) | (e80 << 64) | mant
}

/// The value of a float constant's bits (f80 and f128 through double).
pub fn fconst_value(t: Type, bits: u128) -> Option<f64> {
    Some(match t {
        Type::F32 => f32::from_bits(bits as u32) as f64,
        Type::F64 => f64::from_bits(bits as u64),
        Type::F80 => {
            let sign = (bits >> 79) & 1;
            let exp = ((bits >> 64) & 0x7fff) as i32;
            let mant = (bits & ((1u128 << 64) - 1)) as u64;
            if exp == 0x7fff || exp == 0 {
                return None;
            }
            let e = exp - 16383 - 63;
            let v = (mant as f64) * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
            if sign == 1 {
                -v
            } else {
                v
            }
        }
        _ => return None,
    })
}

/// A decimal or hexadecimal floating literal's exact value rounded (to nearest, ties
/// to even) to the x87 extended format; None for text it does not understand.
pub fn parse_f80(text: &str) -> Option<u128> {
    SoftFloat::parse(text, X87).map(SoftFloat::to_x87_bits)
}

/// The same for IEEE binary128 (`long double` on AArch64 and RISC-V, `_Float128`).
pub fn parse_f128(text: &str) -> Option<u128> {
    SoftFloat::parse(text, BINARY128).map(SoftFloat::to_binary128_bits)
}

/// IEEE binary16 bits of `v`, rounded to nearest, ties to even (as gcc converts a
/// `double` constant to `_Float16`): overflow gives infinity, tiny values subnormals or
/// zero, a NaN stays a quiet NaN. Also whether `v` lay exactly halfway between two
/// binary16 values.
pub fn f64_to_f16(v: f64) -> (u16, bool) {
    let b = v.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return (sign | 0x7c00 | if man != 0 { 0x200 } else { 0 }, false);
    }
    if exp == 0 {
        // A double subnormal is far below half of binary16's smallest subnormal.
        return (sign, false);
    }
    let sig = man | (1u64 << 52);
    // binary16's biased exponent; below 1 the result is subnormal, with fewer bits.
    let e = exp - 1023 + 15;
    let shift = if e >= 1 { 42 } else { 42 + (1 - e) as u32 };
    if shift >= 64 {
        return (sign, false);
    }
    let mut q = sig >> shift;
    let rem = sig & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let tie = rem == half;
    if rem > half || (tie && q & 1 == 1) {
        q += 1;
    }
    if e < 1 {
        // Rounding up to 1 << 10 gives the smallest normal's encoding by itself.
        return (sign | q as u16, tie);
    }
    let mut e = e as u16;
    if q >= 1 << 11 {
        q >>= 1;
        e += 1;
    }
    if e >= 31 {
        return (sign | 0x7c00, tie);
    }
    (sign | (e << 10) | (q as u16 & 0x3ff), tie)
}

/// IEEE binary128 bits of a double.
pub fn f64_to_f128(v: f64) -> u128 {
    let bits = v.to_bits();
    let sign = (bits >> 63) as u128;
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = (bits & ((1u64 << 52) - 1)) as u128;
    let (e, f) = if exp == 0x7ff {
        (0x7fff, frac << 60)
    } else if exp == 0 {
        if frac == 0 {
            (0, 0)
        } else {
            let lz = frac.leading_zeros() as i64 - (128 - 52);
            let f = (frac << (lz + 1)) & ((1u128 << 52) - 1);
            ((1 - 1023 - lz - 1 + 16383) as u128, f << 60)
        }
    } else {
        ((exp - 1023 + 16383) as u128, frac << 60)
    };
    (sign << 127) | (e << 112) | f
}

/// A float literal converted directly to single precision (not through double).
pub fn parse_f32(text: &str) -> Option<f32> {
    let t = text.trim_end_matches(['f', 'F', 'l', 'L']);
    if t.starts_with("0x") || t.starts_with("0X") {
        return None;
    }
    t.parse::<f32>().ok()
}

/// The bytes of string literal `i` (with its terminating null) and its unit size.
pub fn string_bytes(g: &Gen, i: u32) -> (Vec<u8>, u32) {
    let s = &g.ast.lits.strs[i as usize];
    let unit = match s.enc {
        Enc::None | Enc::Utf8 => 1,
        Enc::Utf16 => 2,
        _ => 4,
    };
    let mut out = Vec::with_capacity((s.units.len() + 1) * unit as usize);
    for &u in s.units.iter().chain(std::iter::once(&0)) {
        out.extend_from_slice(&u.to_le_bytes()[..unit as usize]);
    }
    (out, unit)
}

/// Integer constant folding beyond what sema recorded (sizeof, offsetof, literals).
pub fn eval_int(g: &mut Gen, e: ExprId) -> Option<i128> {
    if let Some(&v) = g.t.values.get(&e) {
        return Some(v);
    }
    let ex = g.ast.expr(e);
    let ty = g.expr_type(e);
    let v = match &ex.kind {
        ExprKind::Int(i) => g.ast.lits.ints[*i as usize].value as i128,
        ExprKind::Char(i) => g.ast.lits.chars[*i as usize].value as i128,
        ExprKind::BoolLit(b) => *b as i128,
        ExprKind::Paren(x) | ExprKind::Unary(UnOp::Extension | UnOp::Plus, x) => eval_int(g, *x)?,
        ExprKind::SizeofType(tn) => {
            let t = *g.t.type_names.get(tn)?;
            if matches!(g.t.types.kind(t), Kind::Array(_, ArrLen::Vla(_))) {
                return None;
            }
            g.t.types.size_align(t)?.0 as i128
        }
        ExprKind::SizeofExpr(x) => {
            let t = g.expr_type(*x);
            if has_vla(g, t) {
                return None;
            }
            g.t.types.size_align(t)?.0 as i128
        }
        ExprKind::AlignofType(tn, c11) => {
            let t = *g.t.type_names.get(tn)?;
            g.t.types.alignof(t, *c11)? as i128
        }
        ExprKind::AlignofExpr(x) => {
            // A function's alignment: its aligned attribute, else 1 (gcc).
            let y = g.strip_id(*x);
            if let Some(&o) = g.t.refs.get(&y) {
                if matches!(g.t.types.kind(g.t.ords[o as usize].ty), Kind::Func(_)) {
                    return Some(g.t.func_align.get(&o).copied().unwrap_or(1) as i128);
                }
            }
            let t = g.expr_type(*x);
            g.t.types.size_align(t)?.1 as i128
        }
        ExprKind::Offsetof(tn, ds) => {
            let mut t = *g.t.type_names.get(tn)?;
            let mut off: i128 = 0;
            for d in ds.iter() {
                match d {
                    Designator::Field(n, _) => {
                        let m = g.member(t, *n)?;
                        off += m.offset as i128;
                        t = m.ty;
                    }
                    Designator::Index(i) => {
                        let k = eval_int(g, *i)?;
                        let Kind::Array(el, _) = *g.t.types.kind(t) else {
                            return None;
                        };
                        off += k * g.t.types.size_align(el)?.0 as i128;
                        t = el;
                    }
                    Designator::Range(..) => return None,
                }
            }
            off
        }
        ExprKind::Ident(_) => match g.t.refs.get(&e).map(|&o| &g.t.ords[o as usize].kind) {
            Some(OrdKind::EnumConst(v)) => *v,
            _ => return None,
        },
        ExprKind::Cast(_, x) => {
            if !g.t.types.is_integer(ty) {
                return None;
            }
            let xt = g.expr_type(*x);
            if !g.t.types.is_integer(xt) {
                return None;
            }
            eval_int(g, *x)?
        }
        ExprKind::Unary(UnOp::Neg, x) => eval_int(g, *x)?.wrapping_neg(),
        ExprKind::Unary(UnOp::BitNot, x) => !eval_int(g, *x)?,
        ExprKind::Unary(UnOp::Not, x) => (eval_int(g, *x)? == 0) as i128,
        ExprKind::Binary(op, a, b) => {
            if !g.t.types.is_integer(g.expr_type(*a)) || !g.t.types.is_integer(g.expr_type(*b)) {
                return None;
            }
            let x = eval_int(g, *a)?;
            let y = eval_int(g, *b)?;
            // Operands converted to the operation's type first (the usual arithmetic
            // conversions; for shifts, the promoted left operand).
            let at = g.expr_type(*a);
            let bt = g.expr_type(*b);
            let ct = match op {
                BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                    g.t.types.usual(at, bt).unwrap_or(ty)
                }
                BinOp::Shl | BinOp::Shr | BinOp::And | BinOp::Or => ty,
                _ => ty,
            };
            let (x, y) = if matches!(op, BinOp::Shl | BinOp::Shr | BinOp::And | BinOp::Or) {
                (wrap(g, ct, x), y)
            } else {
                (wrap(g, ct, x), wrap(g, ct, y))
            };
            match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div | BinOp::Mod if y == 0 => return None,
                BinOp::Div => x.wrapping_div(y),
                BinOp::Mod => x.wrapping_rem(y),
                BinOp::Shl if (0..128).contains(&y) => x.wrapping_shl(y as u32),
                // Wrapped to its type, an unsigned left operand is non-negative here.
                BinOp::Shr if (0..128).contains(&y) => x >> y,
                BinOp::Lt => (x < y) as i128,
                BinOp::Gt => (x > y) as i128,
                BinOp::Le => (x <= y) as i128,
                BinOp::Ge => (x >= y) as i128,
                BinOp::And => (x != 0 && y != 0) as i128,
                BinOp::Or => (x != 0 || y != 0) as i128,
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Eq => (x == y) as i128,
                BinOp::Ne => (x != y) as i128,
                _ => return None,
            }
        }
        ExprKind::ChooseExpr(c, a, b) => {
            if eval_int(g, *c)? != 0 {
                eval_int(g, *a)?
            } else {
                eval_int(g, *b)?
            }
        }
        ExprKind::Call(f, args) if args.len == 1 => {
            // __builtin_constant_p folds to 0 or 1 at compile time.
            let ExprKind::Ident(s) = g.ast.expr(*f).kind else {
                return None;
            };
            if g.name(s) != "__builtin_constant_p" {
                return None;
            }
            is_constant(g, g.ast.list(*args)[0]) as i128
        }
        ExprKind::Cond(c, a, b) if a.get().is_some() => {
            if eval_int(g, *c)? != 0 {
                eval_int(g, a.get()?)?
            } else {
                eval_int(g, *b)?
            }
        }
        ExprKind::TypesCompatible(a, b) => {
            let a = *g.t.type_names.get(a)?;
            let b = *g.t.type_names.get(b)?;
            let a = g.t.types.unqual(a);
            let b = g.t.types.unqual(b);
            g.t.types.compatible(a, b) as i128
        }
        _ => return None,
    };
    Some(wrap(g, ty, v))
}

/// A value wrapped to an integer type's width and signedness.
#[inline]
pub(crate) fn wrap(g: &Gen, ty: TypeId, v: i128) -> i128 {
    let Some(k) = g.t.types.int_kind(ty) else {
        return v;
    };
    let bits = g.t.types.int_bits(k);
    if bits >= 128 {
        return v;
    }
    if (1..=64).contains(&bits) {
        // The same in 64 bits (the common case): the low `bits` bits, sign-extended.
        let sh = 64 - bits;
        let u = (v as u64) << sh;
        return if g.t.types.is_signed_kind(k) {
            ((u as i64) >> sh) as i128
        } else {
            (u >> sh) as i128
        };
    }
    let m = (1i128 << bits) - 1;
    let u = v & m;
    if g.t.types.is_signed_kind(k) && (u >> (bits - 1)) & 1 == 1 {
        u - (1i128 << bits)
    } else {
        u
    }
}

/// A float constant converted to integer type `ty`: out-of-range values saturate, as
/// gcc folds them (the conversion's behaviour is undefined at run time).
fn saturate(g: &Gen, ty: TypeId, v: i128) -> i128 {
    let Some(k) = g.t.types.int_kind(ty) else {
        return v;
    };
    let bits = g.t.types.int_bits(k).min(127);
    if g.t.types.is_signed_kind(k) {
        v.clamp(-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        v.clamp(0, (1i128 << bits) - 1)
    }
}

fn has_vla(g: &Gen, t: TypeId) -> bool {
    match g.t.types.kind(t) {
        Kind::Array(_, ArrLen::Vla(_)) => true,
        Kind::Array(e, _) => has_vla(g, *e),
        _ => false,
    }
}

/// `__builtin_constant_p`: literals and folded integer constants.
pub fn is_constant(g: &mut Gen, e: ExprId) -> bool {
    if eval_int(g, e).is_some() {
        return true;
    }
    matches!(g.ast.expr(e).kind, ExprKind::Float(_) | ExprKind::Str(_))
}

/// One initialised leaf of an object: where, of which type, from which expression.
pub struct LeafInit {
    pub offset: u64,
    pub ty: TypeId,
    pub bits: Option<(u32, u32)>,
    pub what: Leaf,
}

#[derive(Clone, Copy)]
pub enum Leaf {
    Expr(ExprId),
}

/// One element of an aggregate: offset, type, bit-field place.
#[derive(Clone, Copy)]
struct Elem {
    offset: u64,
    ty: TypeId,
    bits: Option<(u32, u32)>,
}

/// The elements of an aggregate in initialisation order (named members and anonymous
/// records of a struct; the first named member of a union; array elements up to `limit`).
fn elems(g: &mut Gen, ty: TypeId, limit: Option<u64>) -> Option<Vec<Elem>> {
    match g.t.types.kind(ty).clone() {
        Kind::Vector(el, n) => {
            let (esz, _) = g.t.types.size_align(el).unwrap_or((0, 1));
            Some(
                (0..n as u64)
                    .map(|i| Elem {
                        offset: i * esz,
                        ty: el,
                        bits: None,
                    })
                    .collect(),
            )
        }
        Kind::Array(el, n) => {
            let (esz, _) = g.t.types.size_align(el).unwrap_or((0, 1));
            let n = match n {
                ArrLen::Fixed(n) => n,
                _ => limit.unwrap_or(0),
            };
            Some(
                (0..n)
                    .map(|i| Elem {
                        offset: i * esz,
                        ty: el,
                        bits: None,
                    })
                    .collect(),
            )
        }
        Kind::Record(r) => {
            let lay = g.record_layout(ty)?;
            let info = g.t.types.records[r as usize].clone();
            let mut v = Vec::new();
            for (i, m) in info.members.iter().enumerate() {
                if m.name.is_none() && m.bits.is_some() {
                    continue; // unnamed bit-fields take no initialiser
                }
                let fl = lay.fields[i];
                let offset = fl.offset();
                let bits = m
                    .bits
                    .map(|_| ((fl.bit_offset - offset * 8) as u32, fl.bit_size as u32));
                if m.bits.is_some() && fl.bit_size == 0 {
                    continue;
                }
                v.push(Elem {
                    offset,
                    ty: m.ty,
                    bits,
                });
                if info.union {
                    break;
                }
            }
            Some(v)
        }
        _ => None,
    }
}

fn is_aggregate(g: &Gen, ty: TypeId) -> bool {
    matches!(
        g.t.types.kind(ty),
        Kind::Array(..) | Kind::Record(_) | Kind::Vector(..)
    )
}

fn is_char_array(g: &Gen, ty: TypeId) -> bool {
    match g.t.types.kind(ty) {
        Kind::Array(el, _) => {
            let el = *el;
            matches!(g.t.types.kind(el), Kind::Int(_))
                && g.t.types.size_align(el).map(|s| s.0) <= Some(4)
        }
        _ => false,
    }
}

fn is_string(g: &Gen, e: ExprId) -> bool {
    matches!(g.strip_parens(e).kind, ExprKind::Str(_))
}

/// The leaves of initialiser `init` for an object of type `ty` at `base`.
pub fn flatten_init(g: &mut Gen, ty: TypeId, init: InitId, base: u64, out: &mut Vec<LeafInit>) {
    match g.ast.init(init) {
        Init::Expr(e) => out.push(LeafInit {
            offset: base,
            ty,
            bits: None,
            what: Leaf::Expr(*e),
        }),
        Init::List { items, .. } => {
            let items: &[InitItem] = items;
            if !is_aggregate(g, ty) {
                // `int x = { 5 };`
                if let Some(first) = items.first() {
                    flatten_init(g, ty, first.init, base, out);
                }
                return;
            }
            let mut pos = 0;
            fill(g, ty, base, items, &mut pos, out, true);
        }
    }
}

/// Fills an aggregate from `items[*pos..]`; `braced` says the list belongs to this
/// aggregate (otherwise it takes only what it needs: brace elision).
fn fill(
    g: &mut Gen,
    ty: TypeId,
    base: u64,
    items: &[InitItem],
    pos: &mut usize,
    out: &mut Vec<LeafInit>,
    braced: bool,
) {
    let unbounded = matches!(g.t.types.kind(ty), Kind::Array(_, ArrLen::Unknown));
    let is_union =
        matches!(g.t.types.kind(ty), Kind::Record(r) if g.t.types.records[*r as usize].union);
    let mut k: usize = 0;
    let mut cache: Option<Vec<Elem>> = None;
    while *pos < items.len() {
        let item = &items[*pos];
        if !item.designators.is_empty() {
            if !braced {
                return;
            }
            // Resolve the designator chain from this aggregate.
            let Some((idx, elem)) = designate(g, ty, base, &item.designators[0]) else {
                *pos += 1;
                continue;
            };
            let rest = &item.designators[1..];
            if let Designator::Range(lo, hi) = &item.designators[0] {
                let lo = eval_int(g, *lo).unwrap_or(0) as u64;
                let hi = eval_int(g, *hi).unwrap_or(0) as u64;
                let (esz, _) = g.t.types.size_align(elem.ty).unwrap_or((0, 1));
                for i in lo..=hi {
                    let e = Elem {
                        offset: base + i * esz,
                        ..elem
                    };
                    init_designated(g, e, rest, item.init, out);
                }
                k = hi as usize + 1;
            } else {
                init_designated(g, elem, rest, item.init, out);
                k = idx + 1;
            }
            *pos += 1;
            if is_union {
                k = usize::MAX;
            }
            continue;
        }
        if cache.is_none() {
            // An array of unknown length gets its elements one at a time below.
            cache = elems(g, ty, None);
        }
        let elem = match &cache {
            Some(v) if k < v.len() => v[k],
            _ if unbounded && k < usize::MAX => {
                let Kind::Array(el, _) = *g.t.types.kind(ty) else {
                    return;
                };
                let (esz, _) = g.t.types.size_align(el).unwrap_or((0, 1));
                Elem {
                    offset: k as u64 * esz,
                    ty: el,
                    bits: None,
                }
            }
            _ => {
                if braced {
                    // Excess initialisers (gcc warns): evaluate nothing, skip.
                    *pos += 1;
                    continue;
                }
                return;
            }
        };
        let elem = Elem {
            offset: base + elem.offset,
            ..elem
        };
        init_elem(g, elem, items, pos, out);
        k += 1;
        if is_union && !braced {
            return;
        }
    }
}

/// Initialises one element from `items[*pos]`, eliding braces for aggregates.
fn init_elem(
    g: &mut Gen,
    elem: Elem,
    items: &[InitItem],
    pos: &mut usize,
    out: &mut Vec<LeafInit>,
) {
    let item = &items[*pos];
    match g.ast.init(item.init) {
        Init::List { .. } => {
            flatten_init_at(g, elem, item.init, out);
            *pos += 1;
        }
        Init::Expr(e) => {
            let e = *e;
            if !is_aggregate(g, elem.ty) {
                out.push(LeafInit {
                    offset: elem.offset,
                    ty: elem.ty,
                    bits: elem.bits,
                    what: Leaf::Expr(e),
                });
                *pos += 1;
                return;
            }
            let et = g.expr_type(e);
            let same = {
                let a = g.t.types.unqual(et);
                let b = g.t.types.unqual(elem.ty);
                g.t.types.compatible(a, b)
            };
            if same || (is_char_array(g, elem.ty) && is_string(g, e)) {
                out.push(LeafInit {
                    offset: elem.offset,
                    ty: elem.ty,
                    bits: None,
                    what: Leaf::Expr(e),
                });
                *pos += 1;
            } else {
                fill(g, elem.ty, elem.offset, items, pos, out, false);
            }
        }
    }
}

fn flatten_init_at(g: &mut Gen, elem: Elem, init: InitId, out: &mut Vec<LeafInit>) {
    if elem.bits.is_some() {
        if let Init::List { items, .. } = g.ast.init(init) {
            if let Some(f) = items.first() {
                if let Init::Expr(e) = g.ast.init(f.init) {
                    out.push(LeafInit {
                        offset: elem.offset,
                        ty: elem.ty,
                        bits: elem.bits,
                        what: Leaf::Expr(*e),
                    });
                }
            }
        }
        return;
    }
    flatten_init(g, elem.ty, init, elem.offset, out);
}

/// After a designator: the remaining designators lead further down; then the initialiser.
fn init_designated(
    g: &mut Gen,
    elem: Elem,
    rest: &[Designator],
    init: InitId,
    out: &mut Vec<LeafInit>,
) {
    if let Some((d, more)) = rest.split_first() {
        if let Some((_, inner)) = designate(g, elem.ty, elem.offset, d) {
            if let Designator::Range(lo, hi) = d {
                let lo = eval_int(g, *lo).unwrap_or(0) as u64;
                let hi = eval_int(g, *hi).unwrap_or(0) as u64;
                let (esz, _) = g.t.types.size_align(inner.ty).unwrap_or((0, 1));
                for i in lo..=hi {
                    let e = Elem {
                        offset: elem.offset + i * esz,
                        ..inner
                    };
                    init_designated(g, e, more, init, out);
                }
                return;
            }
            init_designated(g, inner, more, init, out);
        }
        return;
    }
    match g.ast.init(init) {
        Init::List { .. } => flatten_init_at(g, elem, init, out),
        Init::Expr(e) => {
            let e = *e;
            if is_aggregate(g, elem.ty) && !(is_char_array(g, elem.ty) && is_string(g, e)) {
                let et = g.expr_type(e);
                let a = g.t.types.unqual(et);
                let b = g.t.types.unqual(elem.ty);
                if !g.t.types.compatible(a, b) {
                    // Brace elision inside a designated aggregate: its first leaf.
                    let items = [InitItem {
                        designators: vec![],
                        init,
                    }];
                    let mut pos = 0;
                    fill(g, elem.ty, elem.offset, &items, &mut pos, out, false);
                    return;
                }
            }
            out.push(LeafInit {
                offset: elem.offset,
                ty: elem.ty,
                bits: elem.bits,
                what: Leaf::Expr(e),
            });
        }
    }
}

/// The element a designator names: (index in `elems` order, element at absolute offset).
fn designate(g: &mut Gen, ty: TypeId, base: u64, d: &Designator) -> Option<(usize, Elem)> {
    match d {
        Designator::Field(name, _) => {
            let Kind::Record(r) = *g.t.types.kind(ty) else {
                return None;
            };
            let info = g.t.types.records[r as usize].clone();
            let lay = g.record_layout(ty)?;
            let mut idx = 0usize;
            for (i, m) in info.members.iter().enumerate() {
                if m.name.is_none() && m.bits.is_some() {
                    continue;
                }
                let fl = lay.fields[i];
                if m.name == Some(*name) {
                    let offset = fl.offset();
                    let bits = m
                        .bits
                        .map(|_| ((fl.bit_offset - offset * 8) as u32, fl.bit_size as u32));
                    return Some((
                        idx,
                        Elem {
                            offset: base + offset,
                            ty: m.ty,
                            bits,
                        },
                    ));
                }
                if m.name.is_none() {
                    // A member of an anonymous struct/union.
                    if let Some(mm) = g.member(m.ty, *name) {
                        return Some((
                            idx,
                            Elem {
                                offset: base + fl.offset() + mm.offset,
                                ty: mm.ty,
                                bits: mm.bits,
                            },
                        ));
                    }
                }
                idx += 1;
            }
            None
        }
        Designator::Index(i) | Designator::Range(i, _) => {
            let k = eval_int(g, *i)? as u64;
            let Kind::Array(el, _) = *g.t.types.kind(ty) else {
                return None;
            };
            let (esz, _) = g.t.types.size_align(el)?;
            Some((
                k as usize,
                Elem {
                    offset: base + k * esz,
                    ty: el,
                    bits: None,
                },
            ))
        }
    }
}

/// A constant value of a static initialiser leaf.
#[derive(Clone, Copy, Debug)]
enum CVal {
    Int(i128),
    Float(f64),
    /// A `long double` (or `_Float128`), folded exactly in its own format.
    Long(SoftFloat),
    /// Address of a symbol plus an offset.
    Addr(Sym, i64),
    /// Address of a label of the current function.
    Label(Block),
}

impl<'a> Gen<'a> {
    /// Emits a static object: its initialiser's bytes and relocations, or zeros.
    pub fn static_object(
        &mut self,
        o: u32,
        sym: Sym,
        init: Option<InitId>,
        loc: Loc,
        min_align: Option<u32>,
    ) {
        let mut ty = self.t.ords[o as usize].ty;
        // An array completed by its initialiser.
        if let (Some(i), Kind::Array(el, ArrLen::Unknown)) = (init, self.t.types.kind(ty).clone()) {
            let n = self.array_len_from_init(el, i);
            ty = self.t.types.intern(Kind::Array(el, ArrLen::Fixed(n)), 0);
        }
        let Some((mut size, align)) = self.t.types.size_align(ty) else {
            // An incomplete array at the end of the unit has one element (C17 6.9.2p5).
            if let Kind::Array(el, ArrLen::Unknown) = self.t.types.kind(ty).clone() {
                let (s, a) = self.size_align(el);
                self.push_data(sym, s, a, Vec::new(), Vec::new(), false, Vec::new());
            } else if matches!(self.t.types.kind(ty), Kind::Error) {
                self.refuse(loc, "objects of this type (a type neverc does not model)");
            }
            return;
        };
        let align = align.max(min_align.unwrap_or(1));
        let readonly = self.t.types.quals(ty) & neverc_front::parse::ast::qual::CONST != 0
            && self.module.sym(sym).kind != SymKind::Tls;
        let mut bytes = Vec::new();
        let mut relocs = Vec::new();
        let mut block_relocs = Vec::new();
        if let Some(init) = init {
            let mut leaves = Vec::new();
            flatten_init(self, ty, init, 0, &mut leaves);
            // Flexible array members initialised (GNU) grow the object.
            for l in &leaves {
                let (ls, _) = self.t.types.size_align(l.ty).unwrap_or((0, 1));
                let end = match (l.what, self.t.types.kind(l.ty)) {
                    (Leaf::Expr(e), Kind::Array(_, ArrLen::Unknown)) if is_string(self, e) => {
                        let ExprKind::Str(i) = self.strip_parens(e).kind else {
                            unreachable!()
                        };
                        l.offset + string_bytes(self, i).0.len() as u64
                    }
                    _ => l.offset + ls,
                };
                size = size.max(end);
            }
            bytes = vec![0u8; size as usize];
            for l in leaves {
                let Leaf::Expr(e) = l.what;
                self.write_leaf(
                    &mut bytes,
                    &mut relocs,
                    &mut block_relocs,
                    l.offset,
                    l.ty,
                    l.bits,
                    e,
                    loc,
                );
            }
            if bytes.iter().all(|&b| b == 0)
                && relocs.is_empty()
                && block_relocs.is_empty()
                && !readonly
            {
                bytes.clear();
            }
        }
        let common =
            init.is_none() && self.opts.common && self.module.sym(sym).binding == Binding::Global;
        self.push_data(sym, size, align, bytes, relocs, readonly, block_relocs);
        if common {
            self.module.data.last_mut().unwrap().common = true;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_data(
        &mut self,
        sym: Sym,
        size: u64,
        align: u32,
        bytes: Vec<u8>,
        relocs: Vec<(u64, Sym, i64, u8)>,
        readonly: bool,
        block_relocs: Vec<(u64, Sym, Block)>,
    ) {
        // A symbol is defined once; a later definition replaces a tentative one.
        self.module.data.retain(|d| d.sym != sym);
        if self.sink.is_some() {
            // Streaming: functions compiled before the end see it defined (see
            // `generate_streaming`).
            self.module.symbols[sym.index()].defined = true;
        }
        self.module.data.push(DataObject {
            sym,
            size,
            align,
            bytes,
            relocs,
            readonly,
            common: false,
            block_relocs,
        });
    }

    fn array_len_from_init(&mut self, el: TypeId, init: InitId) -> u64 {
        match self.ast.init(init) {
            Init::Expr(e) => {
                if let ExprKind::Str(i) = self.strip_parens(*e).kind {
                    let (b, unit) = string_bytes(self, i);
                    let (es, _) = self.size_align(el);
                    return b.len() as u64 / unit.max(es as u32).max(1) as u64;
                }
                1
            }
            Init::List { items, .. } => {
                let mut max = 0u64;
                let mut k = 0u64;
                let items = items.clone();
                let (esz, _) = self.size_align(el);
                let mut pos = 0;
                while pos < items.len() {
                    let it = &items[pos];
                    if let Some(d) = it.designators.first() {
                        match d {
                            Designator::Index(i) => k = eval_int(self, *i).unwrap_or(0) as u64,
                            Designator::Range(_, hi) => k = eval_int(self, *hi).unwrap_or(0) as u64,
                            _ => {}
                        }
                        pos += 1;
                    } else if is_aggregate(self, el)
                        && matches!(self.ast.init(it.init), Init::Expr(e) if {
                            let et = self.expr_type(*e);
                            let a = self.t.types.unqual(et);
                            let b = self.t.types.unqual(el);
                            !(self.t.types.compatible(a, b) || is_char_array(self, el) && is_string(self, *e))
                        })
                    {
                        // Brace elision: this element consumes several items.
                        let mut out = Vec::new();
                        fill(self, el, 0, &items, &mut pos, &mut out, false);
                    } else {
                        pos += 1;
                    }
                    k += 1;
                    max = max.max(k);
                }
                let _ = esz;
                max
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write_leaf(
        &mut self,
        bytes: &mut [u8],
        relocs: &mut Vec<(u64, Sym, i64, u8)>,
        block_relocs: &mut Vec<(u64, Sym, Block)>,
        off: u64,
        ty: TypeId,
        bits: Option<(u32, u32)>,
        e: ExprId,
        _loc: Loc,
    ) {
        // Strings into char arrays.
        if let (Kind::Array(_, _), ExprKind::Str(i)) =
            (self.t.types.kind(ty).clone(), &self.strip_parens(e).kind)
        {
            let (b, _) = string_bytes(self, *i);
            let end = (off as usize + b.len()).min(bytes.len());
            let n = end - off as usize;
            bytes[off as usize..end].copy_from_slice(&b[..n]);
            return;
        }
        if let Kind::Complex(el) = *self.t.types.kind(ty) {
            let fmt = self.long_format(el).unwrap_or(BINARY64);
            let Some((re, im)) = self.const_complex(e, fmt) else {
                self.refuse(self.ast.expr(e).loc, "this complex initialiser");
                return;
            };
            let it = self.ir_type(el).unwrap_or(Type::F64);
            let (sz, _) = self.size_align(el);
            if it.is_float() {
                self.write_soft(bytes, off as usize, it, re);
                self.write_soft(bytes, (off + sz) as usize, it, im);
            } else {
                for (k, v) in [(0, re.to_f64()), (sz, im.to_f64())] {
                    let le = (v as i128 as u128).to_le_bytes();
                    let at = (off + k) as usize;
                    bytes[at..at + sz as usize].copy_from_slice(&le[..sz as usize]);
                }
            }
            return;
        }
        if !self.is_scalar(ty) {
            // A struct initialised from a compound literal or another object.
            if let ExprKind::CompoundLit(tn, init) = &self.strip_parens(e).kind {
                let cty = self.t.type_names.get(tn).copied().unwrap_or(ty);
                let mut leaves = Vec::new();
                flatten_init(self, cty, *init, off, &mut leaves);
                for l in leaves {
                    let Leaf::Expr(x) = l.what;
                    self.write_leaf(bytes, relocs, block_relocs, l.offset, l.ty, l.bits, x, _loc);
                }
                return;
            }
            self.refuse(self.ast.expr(e).loc, "this static initialiser");
            return;
        }
        let Some(v) = self.const_value(e, ty) else {
            self.refuse(
                self.ast.expr(e).loc,
                "this initialiser (not a constant neverc can evaluate)",
            );
            return;
        };
        let it = self.ir_type(ty).unwrap();
        let size = it.bytes().min(16) as usize;
        let at = off as usize;
        match v {
            CVal::Int(x) => {
                if let Some((bo, w)) = bits {
                    let mut word = 0u128;
                    let nb = (bo + w).div_ceil(8) as usize;
                    for k in 0..nb {
                        word |= (bytes[at + k] as u128) << (8 * k);
                    }
                    let mask = if w >= 128 {
                        u128::MAX
                    } else {
                        ((1u128 << w) - 1) << bo
                    };
                    word = (word & !mask) | (((x as u128) << bo) & mask);
                    for k in 0..nb {
                        bytes[at + k] = (word >> (8 * k)) as u8;
                    }
                } else if it.is_float() {
                    self.write_float(bytes, at, it, x as f64);
                } else {
                    let le = (x as u128).to_le_bytes();
                    let n = size.min(bytes.len() - at);
                    bytes[at..at + n].copy_from_slice(&le[..n]);
                }
            }
            CVal::Float(f) => {
                if it.is_float() {
                    self.write_float(bytes, at, it, f);
                } else {
                    let x = if self.is_signed(ty) {
                        f as i128
                    } else {
                        f as u128 as i128
                    };
                    let le = (x as u128).to_le_bytes();
                    bytes[at..at + size].copy_from_slice(&le[..size]);
                }
            }
            CVal::Long(x) => self.write_soft(bytes, at, it, x),
            CVal::Addr(s, a) => relocs.push((off, s, a, size as u8)),
            CVal::Label(b) => {
                let f = self.fs.as_ref().map(|f| f.b.func.sym);
                if let Some(f) = f {
                    block_relocs.push((off, f, b));
                }
            }
        }
    }

    /// Writes an exactly folded value in the encoding of float type `it`.
    fn write_soft(&self, bytes: &mut [u8], at: usize, it: Type, x: SoftFloat) {
        match it {
            Type::F80 => bytes[at..at + 10].copy_from_slice(&x.to_x87_bits().to_le_bytes()[..10]),
            Type::F128 => bytes[at..at + 16].copy_from_slice(&x.to_binary128_bits().to_le_bytes()),
            Type::F32 => self.write_float(bytes, at, it, x.convert(BINARY32).to_f64()),
            _ => self.write_float(bytes, at, it, x.to_f64()),
        }
    }

    fn write_float(&self, bytes: &mut [u8], at: usize, it: Type, f: f64) {
        match it {
            Type::F16 => bytes[at..at + 2].copy_from_slice(&f64_to_f16(f).0.to_le_bytes()),
            Type::F32 => bytes[at..at + 4].copy_from_slice(&(f as f32).to_le_bytes()),
            Type::F64 => bytes[at..at + 8].copy_from_slice(&f.to_le_bytes()),
            Type::F80 => bytes[at..at + 10].copy_from_slice(&f64_to_f80(f).to_le_bytes()[..10]),
            _ => bytes[at..at + 16].copy_from_slice(&f64_to_f128(f).to_le_bytes()),
        }
    }

    /// Evaluates a constant of a static initialiser, converted to `ty`.
    fn const_value(&mut self, e: ExprId, ty: TypeId) -> Option<CVal> {
        let v = self.const_expr(e)?;
        let from = self.expr_type(e);
        if let Some(fmt) = self.long_format(ty) {
            return Some(match v {
                CVal::Int(_) | CVal::Float(_) | CVal::Long(_) => {
                    CVal::Long(self.soft(v, from)?.convert(fmt))
                }
                other => other,
            });
        }
        Some(match v {
            CVal::Long(x) if matches!(self.t.types.kind(ty), Kind::Bool) => {
                CVal::Int(!x.is_zero() as i128)
            }
            CVal::Long(x) if !self.is_float(ty) => CVal::Int(saturate(self, ty, x.to_int())),
            CVal::Long(x) if self.ir_type(ty) == Some(Type::F32) => {
                CVal::Float(x.convert(BINARY32).to_f64())
            }
            CVal::Long(x) => CVal::Float(x.to_f64()),
            CVal::Int(x) if self.ir_type(ty) == Some(Type::F32) => {
                // Straight to single precision: through double could round twice.
                let signed = self.is_signed(from) || !self.t.types.is_integer(from);
                CVal::Float(if signed { x as f32 } else { x as u128 as f32 } as f64)
            }
            CVal::Int(x) if self.is_float(ty) => {
                let f = if self.is_signed(from) || !self.t.types.is_integer(from) {
                    x as f64
                } else {
                    x as u128 as f64
                };
                CVal::Float(f)
            }
            CVal::Int(x) => CVal::Int(if matches!(self.t.types.kind(ty), Kind::Bool) {
                (x != 0) as i128
            } else {
                wrap(self, ty, x)
            }),
            CVal::Float(f) if !self.is_float(ty) => {
                if matches!(self.t.types.kind(ty), Kind::Bool) {
                    CVal::Int((f != 0.0) as i128)
                } else {
                    CVal::Int(saturate(self, ty, f as i128))
                }
            }
            CVal::Float(f) => {
                let it = self.ir_type(ty);
                CVal::Float(if it == Some(Type::F32) {
                    f as f32 as f64
                } else {
                    f
                })
            }
            other => other,
        })
    }

    /// The software format that folds constants of `ty`, when it is a `long double`
    /// (or `_Float128`) that the host has no type for.
    fn long_format(&self, ty: TypeId) -> Option<Format> {
        match self.ir_type(ty) {
            Some(Type::F80) => Some(X87),
            Some(Type::F128) => Some(BINARY128),
            _ => None,
        }
    }

    /// An arithmetic constant of C type `from` as an exact software float.
    fn soft(&self, v: CVal, from: TypeId) -> Option<SoftFloat> {
        Some(match v {
            CVal::Int(i) if self.is_signed(from) || !self.t.types.is_integer(from) => {
                SoftFloat::from_int(i < 0, i.unsigned_abs(), EXACT_WIDE)
            }
            CVal::Int(i) => SoftFloat::from_int(false, i as u128, EXACT_WIDE),
            CVal::Float(f) => SoftFloat::from_f64(f),
            CVal::Long(x) => x,
            _ => return None,
        })
    }

    fn const_expr(&mut self, e: ExprId) -> Option<CVal> {
        if let Some(v) = eval_int(self, e) {
            return Some(CVal::Int(v));
        }
        let ex = self.ast.expr(e);
        let ty = self.expr_type(e);
        match &ex.kind {
            ExprKind::Paren(x) | ExprKind::Unary(UnOp::Extension | UnOp::Plus, x) => {
                self.const_expr(*x)
            }
            ExprKind::Float(i) => {
                let lit = &self.ast.lits.floats[*i as usize];
                if let (Some(fmt), false) = (self.long_format(ty), lit.imaginary) {
                    let v = SoftFloat::parse(&lit.text, fmt)
                        .unwrap_or_else(|| SoftFloat::from_f64(lit.value).convert(fmt));
                    return Some(CVal::Long(v));
                }
                if self.ir_type(ty) == Some(Type::F32) {
                    return Some(CVal::Float(
                        parse_f32(&lit.text).map(|f| f as f64).unwrap_or(lit.value),
                    ));
                }
                Some(CVal::Float(lit.value))
            }
            ExprKind::Unary(UnOp::Neg, x) => match self.const_expr(*x)? {
                CVal::Float(f) => Some(CVal::Float(-f)),
                CVal::Long(x) => Some(CVal::Long(x.neg())),
                CVal::Int(i) => Some(CVal::Int(wrap(self, ty, -i))),
                _ => None,
            },
            ExprKind::Cast(_, x) | ExprKind::Unary(UnOp::Real, x) => {
                let v = self.const_expr(*x)?;
                let from = self.expr_type(*x);
                if let (Some(fmt), CVal::Int(_) | CVal::Float(_) | CVal::Long(_)) =
                    (self.long_format(ty), v)
                {
                    return Some(CVal::Long(self.soft(v, from)?.convert(fmt)));
                }
                match v {
                    CVal::Long(x) if self.t.types.is_integer(ty) => {
                        Some(CVal::Int(saturate(self, ty, x.to_int())))
                    }
                    CVal::Long(x) if self.ir_type(ty) == Some(Type::F32) => {
                        Some(CVal::Float(x.convert(BINARY32).to_f64()))
                    }
                    CVal::Long(x) if self.is_float(ty) => Some(CVal::Float(x.to_f64())),
                    CVal::Int(i) if self.is_float(ty) => {
                        Some(CVal::Float(if self.is_signed(from) {
                            i as f64
                        } else {
                            i as u128 as f64
                        }))
                    }
                    CVal::Int(i) => Some(CVal::Int(if self.t.types.is_integer(ty) {
                        wrap(self, ty, i)
                    } else {
                        i
                    })),
                    CVal::Float(f) if self.t.types.is_integer(ty) => {
                        Some(CVal::Int(saturate(self, ty, f as i128)))
                    }
                    CVal::Float(f) => Some(CVal::Float(if self.ir_type(ty) == Some(Type::F32) {
                        f as f32 as f64
                    } else {
                        f
                    })),
                    a => Some(a),
                }
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                // Floating operands make these arithmetic, not integer, constants.
                let x = self.const_truth(*a)?;
                if x == (*op == BinOp::Or) {
                    return Some(CVal::Int(x as i128));
                }
                Some(CVal::Int(self.const_truth(*b)? as i128))
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.const_expr(*a)?;
                let y = self.const_expr(*b)?;
                let at = self.t.types.decay(self.expr_type(*a));
                let bt = self.t.types.decay(self.expr_type(*b));
                if self.runtime_pointee(at).is_some() || self.runtime_pointee(bt).is_some() {
                    // Steps of a size known only at run time.
                    return None;
                }
                match (x, y) {
                    (CVal::Addr(s, o), CVal::Int(i))
                        if matches!(op, BinOp::Add | BinOp::Sub) && self.is_pointer(at) =>
                    {
                        let sz = self.pointee_size(at) as i64;
                        let d = i as i64 * sz;
                        Some(CVal::Addr(s, if *op == BinOp::Add { o + d } else { o - d }))
                    }
                    (CVal::Int(i), CVal::Addr(s, o))
                        if *op == BinOp::Add && self.is_pointer(bt) =>
                    {
                        let sz = self.pointee_size(bt) as i64;
                        Some(CVal::Addr(s, o + i as i64 * sz))
                    }
                    (CVal::Addr(s, o), CVal::Int(i)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                        // Integer arithmetic on a cast address: bytes.
                        Some(CVal::Addr(
                            s,
                            if *op == BinOp::Add {
                                o + i as i64
                            } else {
                                o - i as i64
                            },
                        ))
                    }
                    (CVal::Addr(s1, o1), CVal::Addr(s2, o2)) if *op == BinOp::Sub && s1 == s2 => {
                        let sz = self.pointee_size(at).max(1) as i64;
                        Some(CVal::Int(((o1 - o2) / sz) as i128))
                    }
                    (CVal::Long(_), CVal::Float(_) | CVal::Int(_) | CVal::Long(_))
                    | (CVal::Float(_) | CVal::Int(_), CVal::Long(_)) => {
                        // The usual arithmetic conversions made both long double.
                        let fmt = self.long_format(at).or(self.long_format(bt))?;
                        let p = self.soft(x, at)?.convert(fmt);
                        let q = self.soft(y, bt)?.convert(fmt);
                        let ord = p.compare(q);
                        use std::cmp::Ordering::*;
                        let r = match op {
                            BinOp::Add => p.add(q, fmt),
                            BinOp::Sub => p.sub(q, fmt),
                            BinOp::Mul => p.mul(q, fmt),
                            BinOp::Div => p.div(q, fmt),
                            BinOp::Lt => return Some(CVal::Int((ord == Some(Less)) as i128)),
                            BinOp::Gt => return Some(CVal::Int((ord == Some(Greater)) as i128)),
                            BinOp::Le => {
                                return Some(CVal::Int(matches!(ord, Some(Less | Equal)) as i128))
                            }
                            BinOp::Ge => {
                                return Some(
                                    CVal::Int(matches!(ord, Some(Greater | Equal)) as i128),
                                )
                            }
                            BinOp::Eq => return Some(CVal::Int((ord == Some(Equal)) as i128)),
                            BinOp::Ne => return Some(CVal::Int((ord != Some(Equal)) as i128)),
                            _ => return None,
                        };
                        Some(CVal::Long(r))
                    }
                    (CVal::Float(_) | CVal::Int(_), CVal::Float(_) | CVal::Int(_)) => {
                        let f = |v: CVal| match v {
                            CVal::Float(f) => f,
                            CVal::Int(i) => i as f64,
                            _ => 0.0,
                        };
                        let (p, q) = (f(x), f(y));
                        let r = match op {
                            BinOp::Add => p + q,
                            BinOp::Sub => p - q,
                            BinOp::Mul => p * q,
                            BinOp::Div => p / q,
                            BinOp::Lt => return Some(CVal::Int((p < q) as i128)),
                            BinOp::Gt => return Some(CVal::Int((p > q) as i128)),
                            BinOp::Le => return Some(CVal::Int((p <= q) as i128)),
                            BinOp::Ge => return Some(CVal::Int((p >= q) as i128)),
                            BinOp::Eq => return Some(CVal::Int((p == q) as i128)),
                            BinOp::Ne => return Some(CVal::Int((p != q) as i128)),
                            _ => return None,
                        };
                        if self.is_float(ty) {
                            Some(CVal::Float(if self.ir_type(ty) == Some(Type::F32) {
                                r as f32 as f64
                            } else {
                                r
                            }))
                        } else {
                            Some(CVal::Int(r as i128))
                        }
                    }
                    _ => None,
                }
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.const_expr(*c)?;
                let truth = match cv {
                    CVal::Int(i) => i != 0,
                    CVal::Float(f) => f != 0.0,
                    CVal::Long(x) => !x.is_zero(),
                    _ => true,
                };
                match (truth, a.get()) {
                    (true, Some(a)) => self.const_expr(a),
                    (true, None) => Some(cv),
                    (false, _) => self.const_expr(*b),
                }
            }
            ExprKind::Str(i) => {
                let s = match self.strings.get(i) {
                    Some(&s) => s,
                    None => {
                        let (b, unit) = string_bytes(self, *i);
                        let s = self.string_sym(&b, unit);
                        self.strings.insert(*i, s);
                        s
                    }
                };
                Some(CVal::Addr(s, 0))
            }
            ExprKind::LabelAddr(l) => {
                self.fs.as_ref()?;
                let blk = self.label_block(*l);
                if !self.fs().addressed.contains(&blk) {
                    self.fs().addressed.push(blk);
                }
                Some(CVal::Label(blk))
            }
            ExprKind::Ident(_) => {
                // Arrays and functions decay to their address.
                let k = self.t.types.kind(ty).clone();
                if matches!(k, Kind::Array(..) | Kind::Func(_)) {
                    return self.const_addr(e);
                }
                None
            }
            ExprKind::Unary(UnOp::Addr, x) => self.const_addr(*x),
            ExprKind::Member { .. } | ExprKind::Index(..) | ExprKind::CompoundLit(..) => {
                if matches!(self.t.types.kind(ty), Kind::Array(..)) {
                    return self.const_addr(e);
                }
                None
            }
            ExprKind::Call(f, args) => {
                let args = self.ast.list(*args);
                // The constant-valued float builtins.
                let ExprKind::Ident(s) = self.ast.expr(*f).kind else {
                    return None;
                };
                let n = self.name(s);
                let n = n.strip_prefix("__builtin_")?;
                let base = n.trim_end_matches(['f', 'l']);
                match base {
                    "inf" | "huge_val" => Some(CVal::Float(f64::INFINITY)),
                    "nan" | "nans" if args.len() == 1 => Some(CVal::Float(f64::NAN)),
                    "copysign" if args.len() == 2 => {
                        let f = |v: CVal| match v {
                            CVal::Float(x) => Some(x),
                            CVal::Int(i) => Some(i as f64),
                            _ => None,
                        };
                        let a = f(self.const_expr(args[0])?)?;
                        let b = f(self.const_expr(args[1])?)?;
                        Some(CVal::Float(a.copysign(b)))
                    }
                    _ => None,
                }
            }
            ExprKind::Comma(..) => None,
            ExprKind::Generic(..) => {
                let c = *self.t.generic_choice.get(&e)?;
                self.const_expr(c)
            }
            ExprKind::ChooseExpr(c, a, b) => {
                let pick = eval_int(self, *c)? != 0;
                self.const_expr(if pick { *a } else { *b })
            }
            _ => None,
        }
    }

    /// Whether an arithmetic constant is nonzero; None when it is not one.
    fn const_truth(&mut self, e: ExprId) -> Option<bool> {
        match self.const_expr(e)? {
            CVal::Int(i) => Some(i != 0),
            CVal::Float(f) => Some(f != 0.0),
            CVal::Long(x) => Some(!x.is_zero()),
            CVal::Addr(..) | CVal::Label(_) => None,
        }
    }

    /// A complex constant as (real, imaginary), folded in `fmt` (the element type's
    /// format for `long double`, binary64 otherwise).
    fn const_complex(&mut self, e: ExprId, fmt: Format) -> Option<(SoftFloat, SoftFloat)> {
        let zero = SoftFloat::Zero { neg: false };
        let ex = self.ast.expr(e);
        match &ex.kind {
            ExprKind::Paren(x) | ExprKind::Cast(_, x) | ExprKind::Unary(UnOp::Plus, x) => {
                self.const_complex(*x, fmt)
            }
            ExprKind::Float(i) if self.ast.lits.floats[*i as usize].imaginary => {
                let lit = &self.ast.lits.floats[*i as usize];
                let v = SoftFloat::parse(&lit.text, fmt)
                    .unwrap_or_else(|| SoftFloat::from_f64(lit.value).convert(fmt));
                Some((zero, v))
            }
            ExprKind::Int(i) if self.ast.lits.ints[*i as usize].imaginary => {
                let v = self.ast.lits.ints[*i as usize].value;
                Some((zero, SoftFloat::from_int(false, v, fmt)))
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let (a, b) = self.const_complex(*x, fmt)?;
                Some((a.neg(), b.neg()))
            }
            ExprKind::Binary(op, a, b)
                if matches!(self.t.types.kind(self.expr_type(e)), Kind::Complex(_)) =>
            {
                let (ar, ai) = self.const_complex(*a, fmt)?;
                let (br, bi) = self.const_complex(*b, fmt)?;
                Some(match op {
                    BinOp::Add => (ar.add(br, fmt), ai.add(bi, fmt)),
                    BinOp::Sub => (ar.sub(br, fmt), ai.sub(bi, fmt)),
                    BinOp::Mul => (
                        ar.mul(br, fmt).sub(ai.mul(bi, fmt), fmt),
                        ar.mul(bi, fmt).add(ai.mul(br, fmt), fmt),
                    ),
                    _ => return None,
                })
            }
            _ => {
                let v = self.const_expr(e)?;
                let from = self.expr_type(e);
                Some((self.soft(v, from)?.convert(fmt), zero))
            }
        }
    }

    /// The address of an lvalue with static storage, as symbol + offset.
    fn const_addr(&mut self, e: ExprId) -> Option<CVal> {
        let ex = self.ast.expr(e);
        match &ex.kind {
            ExprKind::Paren(x) => self.const_addr(*x),
            ExprKind::Ident(_) => {
                let o = *self.t.refs.get(&e)?;
                if self.fs.as_ref().is_some_and(|f| f.locals.contains_key(&o)) {
                    return None;
                }
                let s = self.address_sym(o);
                Some(CVal::Addr(s, 0))
            }
            ExprKind::Str(_) => self.const_expr(e),
            ExprKind::Member { base, name, arrow } => {
                let (b, rt) = if *arrow {
                    let pt = self.t.types.decay(self.expr_type(*base));
                    (self.const_expr(*base)?, self.t.types.pointee(pt)?)
                } else {
                    (self.const_addr(*base)?, self.expr_type(*base))
                };
                let m = self.member(rt, *name)?;
                match b {
                    CVal::Addr(s, o) => Some(CVal::Addr(s, o + m.offset as i64)),
                    CVal::Int(i) => Some(CVal::Int(i + m.offset as i128)),
                    _ => None,
                }
            }
            ExprKind::Index(a, i) => {
                let at = self.t.types.decay(self.expr_type(*a));
                let (pe, ie, pt) = if self.is_pointer(at) {
                    (*a, *i, at)
                } else {
                    (*i, *a, self.t.types.decay(self.expr_type(*i)))
                };
                if self.runtime_pointee(pt).is_some() {
                    return None;
                }
                let base = self.const_expr(pe)?;
                let k = eval_int(self, ie)?;
                let sz = self.pointee_size(pt) as i64;
                match base {
                    CVal::Addr(s, o) => Some(CVal::Addr(s, o + k as i64 * sz)),
                    _ => None,
                }
            }
            ExprKind::Unary(UnOp::Deref, x) => self.const_expr(*x),
            ExprKind::CompoundLit(tn, init) => {
                // A file-scope compound literal is a static object of its own.
                let cty = self
                    .t
                    .type_names
                    .get(tn)
                    .copied()
                    .unwrap_or_else(|| self.expr_type(e));
                let cty = if matches!(self.t.types.kind(cty), Kind::Array(_, ArrLen::Unknown)) {
                    self.expr_type(e)
                } else {
                    cty
                };
                self.statics += 1;
                let name = format!(".Lcompound.{}", self.statics);
                let sym = self.module.symbol(&name, SymKind::Object);
                {
                    let s = &mut self.module.symbols[sym.index()];
                    s.binding = Binding::Local;
                    s.local = true;
                }
                let (size, align) = self.size_align(cty);
                let mut bytes = vec![0u8; size as usize];
                let mut relocs = Vec::new();
                let mut brel = Vec::new();
                let mut leaves = Vec::new();
                flatten_init(self, cty, *init, 0, &mut leaves);
                for l in leaves {
                    let Leaf::Expr(x) = l.what;
                    self.write_leaf(
                        &mut bytes,
                        &mut relocs,
                        &mut brel,
                        l.offset,
                        l.ty,
                        l.bits,
                        x,
                        ex.loc,
                    );
                }
                self.push_data(sym, size, align, bytes, relocs, false, brel);
                Some(CVal::Addr(sym, 0))
            }
            _ => None,
        }
    }
}
