//! Declarations and statements: specifiers and declarators to types, tags, enums,
//! redeclarations (linkage, tentative definitions, compatible and composite types), function
//! bodies and labels.

use super::types::{ArrLen, FuncTy, Kind, Member, RecordInfo, TypeId};
use super::{FuncCtx, Jump, Linkage, OrdKind, Ordinary, Sema, Tag, READ};
use crate::parse::ast::*;
use crate::parse::ctok::{Kw, T};
use crate::source::Loc;
use crate::token::{FxHashMap, Symbol};
use neverc_abi::IntKind;

/// A parameter as a declarator names it.
pub(crate) struct ParamInfo {
    pub name: Option<Symbol>,
    pub ty: TypeId,
    pub loc: Loc,
}

impl<'a> Sema<'a> {
    pub(crate) fn external_decl(&mut self, d: DeclId) {
        let ast = self.ast;
        self.stmt_loc = ast.decl(d).loc;
        match &ast.decl(d).kind {
            DeclKind::Vars { specs, list } => {
                self.cur_decl = Some(d);
                self.vars(*specs, list)
            }
            DeclKind::FunctionDef {
                specs,
                decl,
                kr_decls,
                body,
                ..
            } => self.function_def(d, *specs, decl, kr_decls, *body),
            DeclKind::StaticAssert { cond, msg } => {
                self.static_assert(ast.decl(d).loc, *cond, *msg)
            }
            DeclKind::Asm(_) | DeclKind::Empty | DeclKind::Error => {}
        }
    }

    fn static_assert(&mut self, loc: Loc, cond: ExprId, msg: Option<u32>) {
        let t = self.expr(cond);
        if self.types.is_error(t) {
            return;
        }
        // gcc's place: the expression's own (a binary operator's operator).
        let at = self.ast.expr(cond).loc;
        let value = self.eval(cond);
        if !self.types.is_integer(t) {
            let len = self.tok_len_at(at);
            self.error(at, len, "expression in static assertion is not an integer");
            return;
        }
        if value.is_none() && self.reads_runtime(cond) {
            let len = self.tok_len_at(at);
            self.error(at, len, "expression in static assertion is not constant");
            return;
        }
        if value == Some(0) {
            let len = self.tok_len_at(loc);
            let text = match msg {
                Some(m) => {
                    let units = &self.ast.lits.strs[m as usize].units;
                    let s: String = units
                        .iter()
                        .map(|&u| char::from_u32(u).unwrap_or('?'))
                        .collect();
                    format!("static assertion failed: \"{s}\"")
                }
                None => "static assertion failed".to_string(),
            };
            self.error(loc, len, text);
        }
    }

    // ----- specifiers -----

    /// The type a specifier list names (qualifiers included). `alone`: the declaration
    /// has no declarators (`struct s;` declares a new tag in this scope).
    pub(crate) fn specs_type(&mut self, sid: SpecsId, alone: bool) -> TypeId {
        let ast = self.ast;
        let sp = ast.spec(sid);
        let t = self.type_spec(sp.ty, alone);
        let t = self.types.add_quals(t, sp.quals);
        self.type_attrs(t, &sp.attrs)
    }

    /// Attributes that change a type: `mode` gives the integer or float of a machine
    /// mode; the vector and transparent-union attributes are not modelled yet (the type
    /// becomes an error type, which suppresses later diagnostics).
    pub(crate) fn type_attrs(&mut self, t: TypeId, attrs: &[Attr]) -> TypeId {
        let mut t = t;
        for a in attrs {
            match attr_name(a, &self.pp.interner) {
                b"mode" => t = self.mode_type(t, a),
                b"vector_size" => t = self.vector_type(t, a),
                b"transparent_union" | b"ext_vector_type" => return TypeId::ERROR,
                _ => {}
            }
        }
        t
    }

    /// A constant in attribute arguments (kept as tokens): integers, `sizeof (basic type)`,
    /// parentheses, `+ - * /`.
    fn attr_const(&self, toks: &[crate::parse::ctok::Tok], pos: &mut usize) -> Option<i128> {
        let mut v = self.attr_term(toks, pos)?;
        while let Some(t) = toks.get(*pos) {
            match t.kind {
                T::P(crate::parse::ctok::P::Plus) => {
                    *pos += 1;
                    v += self.attr_term(toks, pos)?;
                }
                T::P(crate::parse::ctok::P::Minus) => {
                    *pos += 1;
                    v -= self.attr_term(toks, pos)?;
                }
                _ => break,
            }
        }
        Some(v)
    }

    fn attr_term(&self, toks: &[crate::parse::ctok::Tok], pos: &mut usize) -> Option<i128> {
        let mut v = self.attr_factor(toks, pos)?;
        while let Some(t) = toks.get(*pos) {
            match t.kind {
                T::P(crate::parse::ctok::P::Star) => {
                    *pos += 1;
                    v *= self.attr_factor(toks, pos)?;
                }
                T::P(crate::parse::ctok::P::Slash) => {
                    *pos += 1;
                    let d = self.attr_factor(toks, pos)?;
                    v = v.checked_div(d)?;
                }
                _ => break,
            }
        }
        Some(v)
    }

    fn attr_factor(&self, toks: &[crate::parse::ctok::Tok], pos: &mut usize) -> Option<i128> {
        use crate::parse::ctok::P;
        let t = toks.get(*pos)?;
        *pos += 1;
        match t.kind {
            T::Int => Some(self.ast.lits.ints[t.lit() as usize].value as i128),
            T::P(P::LParen) => {
                let v = self.attr_const(toks, pos)?;
                (toks.get(*pos)?.kind == T::P(P::RParen)).then(|| *pos += 1)?;
                Some(v)
            }
            T::Kw(Kw::Sizeof) => {
                (toks.get(*pos)?.kind == T::P(P::LParen)).then(|| *pos += 1)?;
                let dm = &self.types.machine.data_model;
                let (mut longs, mut base) = (0, None);
                while let Some(t) = toks.get(*pos) {
                    match t.kind {
                        T::Kw(Kw::Long) => longs += 1,
                        T::Kw(Kw::Unsigned | Kw::Signed) => {}
                        T::Kw(Kw::Int) => base = base.or(Some(dm.int.size)),
                        T::Kw(Kw::Char) => base = Some(1),
                        T::Kw(Kw::Short) => base = Some(dm.short.size),
                        T::Kw(Kw::Float) => base = Some(dm.float.size),
                        T::Kw(Kw::Double) => base = Some(dm.double.size),
                        T::P(P::RParen) => break,
                        _ => return None,
                    }
                    *pos += 1;
                }
                *pos += 1;
                let size = match (longs, base) {
                    (0, b) => b.unwrap_or(dm.int.size),
                    (1, Some(s)) if s == dm.double.size && s != dm.int.size => dm.long_double.size,
                    (1, _) => dm.long.size,
                    _ => dm.long_long.size,
                };
                Some(size as i128)
            }
            _ => None,
        }
    }

    /// `vector_size(N)` over a scalar type: a vector of N bytes of that element.
    fn vector_type(&mut self, t: TypeId, a: &Attr) -> TypeId {
        let Some((s, e)) = a.args else {
            return TypeId::ERROR;
        };
        let toks = &self.ast.tokens[s as usize..e as usize];
        let mut pos = 0;
        let bytes = match self.attr_const(toks, &mut pos) {
            Some(v) if pos == toks.len() && v > 0 => v as u64,
            _ => return TypeId::ERROR,
        };
        let quals = self.types.quals(t);
        let el = self.types.unqual(t);
        let ok_elem = self.types.is_integer(el) || matches!(self.types.kind(el), Kind::Float(_));
        let Some((esize, _)) = self.types.size_align(el) else {
            return TypeId::ERROR;
        };
        if !ok_elem || esize == 0 || bytes == 0 || bytes % esize != 0 || !bytes.is_power_of_two() {
            return TypeId::ERROR;
        }
        self.types
            .intern(Kind::Vector(el, (bytes / esize) as u32), quals)
    }

    fn mode_type(&mut self, t: TypeId, a: &Attr) -> TypeId {
        let Some((s, _)) = a.args else {
            return TypeId::ERROR;
        };
        let tok = self.ast.tokens[s as usize];
        let mode = self
            .pp
            .interner
            .str(tok.spelling(&self.ast.lits))
            .into_owned();
        let mode = mode
            .trim_start_matches("__")
            .trim_end_matches("__")
            .to_string();
        let unsigned = !self.types.is_signed(t) && !matches!(self.types.kind(t), Kind::Float(_));
        let quals = self.types.quals(t);
        use neverc_abi::IntKind as I;
        let int = |u: bool, s: I, un: I| if u { un } else { s };
        let kind = match mode.as_str() {
            "QI" | "byte" => Kind::Int(int(unsigned, I::SChar, I::UChar)),
            "HI" => Kind::Int(int(unsigned, I::Short, I::UShort)),
            "SI" => Kind::Int(int(unsigned, I::Int, I::UInt)),
            "DI" => Kind::Int(int(unsigned, I::LongLong, I::ULongLong)),
            "TI" => Kind::Int(int(unsigned, I::Int128, I::UInt128)),
            "word" | "pointer" | "unwind_word" => {
                if self.types.machine.data_model.pointer.size == 8 {
                    Kind::Int(int(unsigned, I::Long, I::ULong))
                } else {
                    Kind::Int(int(unsigned, I::Int, I::UInt))
                }
            }
            "SF" => Kind::Float(FloatK::Float),
            "DF" => Kind::Float(FloatK::Double),
            "XF" => Kind::Float(FloatK::LongDouble),
            "TF" => Kind::Float(FloatK::Float128),
            "SC" | "DC" | "XC" | "TC" => {
                let r = match mode.as_str() {
                    "SC" => FloatK::Float,
                    "DC" => FloatK::Double,
                    "XC" => FloatK::LongDouble,
                    _ => FloatK::Float128,
                };
                let r = self.types.intern(Kind::Float(r), 0);
                Kind::Complex(r)
            }
            _ => return TypeId::ERROR,
        };
        self.types.intern(kind, quals)
    }

    fn type_spec(&mut self, ts: TypeSpec, alone: bool) -> TypeId {
        use IntKind::*;
        let int = |s: Option<bool>, r: IntRank| -> IntKind {
            let u = s == Some(false);
            match (r, u) {
                (IntRank::Short, false) => Short,
                (IntRank::Short, true) => UShort,
                (IntRank::Int, false) => Int,
                (IntRank::Int, true) => UInt,
                (IntRank::Long, false) => Long,
                (IntRank::Long, true) => ULong,
                (IntRank::LongLong, false) => LongLong,
                (IntRank::LongLong, true) => ULongLong,
                (IntRank::Int128, false) => Int128,
                (IntRank::Int128, true) => UInt128,
            }
        };
        let chr = |s: Option<bool>| match s {
            None => Char,
            Some(true) => SChar,
            Some(false) => UChar,
        };
        let t = &mut self.types;
        match ts {
            TypeSpec::None => t.int(Int),
            TypeSpec::Void => t.void(),
            TypeSpec::Bool => t.intern(Kind::Bool, 0),
            TypeSpec::Char(s) => t.int(chr(s)),
            TypeSpec::Int(s, r) => t.int(int(s, r)),
            TypeSpec::Float => t.intern(Kind::Float(FloatK::Float), 0),
            TypeSpec::Double => t.intern(Kind::Float(FloatK::Double), 0),
            TypeSpec::LongDouble => t.intern(Kind::Float(FloatK::LongDouble), 0),
            TypeSpec::FloatN(n, x) => t.intern(Kind::Float(FloatK::FloatN(n, x)), 0),
            TypeSpec::Float128 => t.intern(Kind::Float(FloatK::Float128), 0),
            TypeSpec::Float80 => t.intern(Kind::Float(FloatK::Float80), 0),
            TypeSpec::Decimal(n) => t.intern(Kind::Float(FloatK::Decimal(n)), 0),
            TypeSpec::Complex(c) => {
                let r = match c {
                    ComplexOf::Float => t.intern(Kind::Float(FloatK::Float), 0),
                    ComplexOf::Double => t.intern(Kind::Float(FloatK::Double), 0),
                    ComplexOf::LongDouble => t.intern(Kind::Float(FloatK::LongDouble), 0),
                    ComplexOf::Int(s, r) => t.int(int(s, r)),
                    ComplexOf::Char(s) => t.int(chr(s)),
                    ComplexOf::FloatN(n, x) => t.intern(Kind::Float(FloatK::FloatN(n, x)), 0),
                    ComplexOf::Float128 => t.intern(Kind::Float(FloatK::Float128), 0),
                };
                t.intern(Kind::Complex(r), 0)
            }
            TypeSpec::Record(r) => self.record_spec(r, alone),
            TypeSpec::Enum(e) => self.enum_spec(e, alone),
            TypeSpec::Typedef(s) => match self.lookup(s) {
                Some(o) if matches!(self.ords[o as usize].kind, OrdKind::Typedef) => {
                    self.ords[o as usize].ty
                }
                _ => TypeId::ERROR,
            },
            TypeSpec::TypeofExpr(e, unq) => {
                self.depth += 1;
                let ty = self.expr(e);
                self.depth -= 1;
                if unq {
                    self.types.unqual(ty)
                } else {
                    ty
                }
            }
            TypeSpec::TypeofType(tn, unq) => {
                let ty = self.type_name(tn);
                if unq {
                    self.types.unqual(ty)
                } else {
                    ty
                }
            }
            TypeSpec::Atomic(tn) => {
                let ty = self.type_name(tn);
                self.types.add_quals(ty, qual::ATOMIC)
            }
            TypeSpec::AutoType => TypeId::ERROR,
        }
    }

    pub(crate) fn type_name(&mut self, tn: TypeNameId) -> TypeId {
        let ast = self.ast;
        let n = ast.type_name(tn);
        let base = self.specs_type(n.specs, false);
        let t = self.declarator_type(base, &n.decl, None);
        self.tn_cache.insert(tn, t);
        t
    }

    fn record_spec(&mut self, rid: RecordId, alone: bool) -> TypeId {
        let ast = self.ast;
        let r = ast.record(rid);
        let union = r.kind == RecordKind::Union;
        let new_record = |s: &mut Self, tag: Option<Symbol>| -> TypeId {
            let idx = s.types.records.len() as u32;
            s.types.records.push(RecordInfo {
                union,
                tag,
                members: Vec::new(),
                complete: false,
                packed: false,
                align: None,
                pack: None,
                opaque: false,
            });
            s.types.intern(Kind::Record(idx), 0)
        };
        let ty = match (r.name, &r.fields) {
            (Some(name), None) => {
                let found = self.lookup_tag(name);
                match found {
                    Some((tag, cur)) if !alone || cur => {
                        if !self.is_tag_kind(tag.ty, Some(union)) {
                            self.wrong_kind_of_tag(r.loc, name);
                            return TypeId::ERROR;
                        }
                        return tag.ty;
                    }
                    _ => {
                        let ty = new_record(self, Some(name));
                        self.bind_tag(name, Tag { ty, loc: r.loc });
                        return ty;
                    }
                }
            }
            (None, None) => return TypeId::ERROR,
            (Some(name), Some(_)) => match self.lookup_tag(name) {
                Some((tag, true)) if !self.is_tag_kind(tag.ty, Some(union)) => {
                    self.wrong_kind_of_tag(r.loc, name);
                    let ty = new_record(self, Some(name));
                    self.bind_tag(name, Tag { ty, loc: r.loc });
                    ty
                }
                Some((tag, true))
                    if matches!(self.types.kind(tag.ty), Kind::Record(i)
                        if self.defining.contains(i)) =>
                {
                    let kw = if union { "union" } else { "struct" };
                    let n = self.name(name);
                    let len = self.sym_len(name);
                    let at = self.name_loc_after(r.loc, name);
                    self.error(at, len, format!("nested redefinition of '{kw} {n}'"));
                    new_record(self, Some(name))
                }
                Some((tag, true))
                    if matches!(self.types.kind(tag.ty), Kind::Record(i)
                        if !self.types.records[*i as usize].complete
                            && self.types.records[*i as usize].union == union) =>
                {
                    // The definition is where "originally defined here" points.
                    self.bind_tag(
                        name,
                        Tag {
                            ty: tag.ty,
                            loc: r.loc,
                        },
                    );
                    tag.ty
                }
                Some((tag, true)) if matches!(self.types.kind(tag.ty), Kind::Record(_)) => {
                    let kw = if union { "union" } else { "struct" };
                    let n = self.name(name);
                    let len = self.sym_len(name);
                    let at = self.name_loc_after(r.loc, name);
                    self.error(at, len, format!("redefinition of '{kw} {n}'"));
                    let prev = self.name_loc_after(tag.loc, name);
                    self.note(prev, len, "originally defined here");
                    let ty = new_record(self, Some(name));
                    self.bind_tag(name, Tag { ty, loc: r.loc });
                    ty
                }
                _ => {
                    let ty = new_record(self, Some(name));
                    self.bind_tag(name, Tag { ty, loc: r.loc });
                    ty
                }
            },
            (None, Some(_)) => new_record(self, None),
        };
        let Kind::Record(idx) = *self.types.kind(ty) else {
            return ty;
        };
        let fields = r.fields.as_ref().unwrap();
        self.defining.push(idx);
        let outer_ctx = std::mem::replace(&mut self.decl_ctx, r.loc);
        let outer_after = std::mem::replace(&mut self.decl_ctx_after, true);
        let mut members = Vec::new();
        let mut opaque = false;
        let mut flexible_at = Vec::new();
        // Member names so far, anonymous members' included.
        let mut seen: Vec<Symbol> = Vec::new();
        for f in fields {
            match f {
                Field::StaticAssert(d) => self.external_decl(*d),
                Field::Members { specs, list, .. } => {
                    let base = self.specs_type(*specs, false);
                    let sp = ast.spec(*specs);
                    let packed = has_attr(&sp.attrs, "packed", &self.pp.interner);
                    let salign = attr_align(self, &sp.attrs);
                    // `_Alignas` on a member raises its alignment like `aligned`.
                    let alignas = self.alignas(&sp.align);
                    let salign = match (salign, alignas) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        (a, b) => a.or(b),
                    };
                    let anonymous = match sp.ty {
                        TypeSpec::Record(x) => ast.record(x).name.is_none(),
                        _ => false,
                    };
                    if list.is_empty() && anonymous {
                        // An anonymous struct or union member: its members are this
                        // record's too.
                        if let (&Kind::Record(inner), TypeSpec::Record(x)) =
                            (self.types.kind(base), sp.ty)
                        {
                            let at = ast.record(x).loc;
                            for nm in self.member_names(inner) {
                                let loc = self.name_loc_after(at, nm);
                                self.check_duplicate_member(&mut seen, nm, loc);
                            }
                        }
                        opaque |= self.types.size_align(base).is_none();
                        members.push(Member {
                            name: None,
                            ty: base,
                            bits: None,
                            align: salign,
                            packed,
                        });
                    }
                    for fd in list {
                        let (name, ty, loc, fpacked, falign) = match &fd.decl {
                            Some(d) => {
                                let ty = self.declarator_type(base, d, None);
                                let p = packed || has_attr(&d.attrs, "packed", &self.pp.interner);
                                // The strictest of the declarator's and the specifiers'
                                // `aligned`/`_Alignas` wins, as in gcc.
                                let a = match (attr_align(self, &d.attrs), salign) {
                                    (Some(a), Some(b)) => Some(a.max(b)),
                                    (a, b) => a.or(b),
                                };
                                let ty = self.type_attrs(ty, &d.attrs);
                                (d.name, ty, d.loc, p, a)
                            }
                            // gcc's place for an unnamed bit-field: after the keyword.
                            None => (None, base, self.tok_after(r.loc), packed, salign),
                        };
                        let mut ty = ty;
                        if let (false, Some(nm)) = (sp.align.is_empty(), name) {
                            let what = if fd.bits.is_some() { "bit-field" } else { "" };
                            self.alignas_misplaced(alignas, ty, what, nm, loc);
                        }
                        let bits = match fd.bits {
                            Some(b) => {
                                let wt = self.expr(b);
                                let label = match name {
                                    Some(n) => self.name(n),
                                    None => "<anonymous>".to_string(),
                                };
                                let len = name.map_or(1, |n| self.sym_len(n));
                                if !self.types.is_error(ty) && !self.types.is_integer(ty) {
                                    let msg = format!("bit-field '{label}' has invalid type");
                                    self.error(loc, len, msg);
                                    ty = TypeId::ERROR;
                                    None
                                } else if self.types.quals(ty) & qual::ATOMIC != 0 {
                                    let msg = format!("bit-field '{label}' has atomic type");
                                    self.error(loc, len, msg);
                                    ty = TypeId::ERROR;
                                    None
                                } else {
                                    match self.eval(b) {
                                        Some(v) if self.types.is_integer(wt) => {
                                            self.check_width(name, ty, v, loc)
                                        }
                                        _ if !self.types.is_error(wt)
                                            && (!self.types.is_integer(wt)
                                                || self.reads_runtime(b)) =>
                                        {
                                            let msg = format!(
                                                "bit-field '{label}' width not an integer constant"
                                            );
                                            self.error(loc, len, msg);
                                            None
                                        }
                                        _ => {
                                            opaque = true;
                                            None
                                        }
                                    }
                                }
                            }
                            None => None,
                        };
                        if let Some(nm) = name {
                            let n = self.name(nm);
                            let len = self.sym_len(nm);
                            if matches!(self.types.kind(ty), Kind::Func(_)) {
                                self.error(loc, len, format!("field '{n}' declared as a function"));
                                ty = TypeId::ERROR;
                            } else if self.types.is_void(ty) {
                                let msg = format!("variable or field '{n}' declared void");
                                self.error(loc, len, msg);
                                ty = TypeId::ERROR;
                            }
                        }
                        if self.types.size_align(ty).is_some_and(|s| s.0 >= 1 << 60) {
                            opaque = true;
                        }
                        let flexible =
                            matches!(self.types.kind(ty), Kind::Array(_, ArrLen::Unknown));
                        let ty = if !flexible
                            && !self.types.is_error(ty)
                            && !matches!(self.types.kind(ty), Kind::Array(_, ArrLen::Vla(_)))
                            && !self.types.is_complete(ty)
                        {
                            if let Some(nm) = name {
                                let n = self.name(nm);
                                self.error(
                                    loc,
                                    self.sym_len(nm),
                                    format!("field '{n}' has incomplete type"),
                                );
                            }
                            TypeId::ERROR
                        } else {
                            ty
                        };
                        if let (true, Some(nm)) = (flexible, name) {
                            let named =
                                members.iter().any(|m| m.name.is_some() || m.bits.is_none());
                            if union {
                                let msg = "flexible array member in union";
                                self.error(loc, self.sym_len(nm), msg);
                            } else {
                                flexible_at.push((members.len(), nm, loc, named));
                            }
                        }
                        if let Some(nm) = name {
                            self.check_duplicate_member(&mut seen, nm, loc);
                        }
                        let last_flexible =
                            matches!(self.types.kind(ty), Kind::Array(_, ArrLen::Unknown));
                        if !last_flexible {
                            opaque |= self.types.size_align(ty).is_none();
                        } else {
                            let Kind::Array(e, _) = *self.types.kind(ty) else {
                                unreachable!()
                            };
                            opaque |= self.types.size_align(e).is_none();
                        }
                        members.push(Member {
                            name,
                            ty,
                            bits,
                            align: falign,
                            packed: fpacked,
                        });
                    }
                }
            }
        }
        self.defining.pop();
        self.decl_ctx = outer_ctx;
        self.decl_ctx_after = outer_after;
        for (i, nm, loc, named) in flexible_at {
            if i + 1 < members.len() {
                self.error(
                    loc,
                    self.sym_len(nm),
                    "flexible array member not at end of struct",
                );
            } else if !named {
                let msg = "flexible array member in a struct with no named members";
                self.error(loc, self.sym_len(nm), msg);
            }
        }
        let packed = has_attr(&r.attrs, "packed", &self.pp.interner);
        let align = attr_align(self, &r.attrs);
        let pack = self.pack_at(r.loc);
        self.named_bitfields |= members.iter().any(|m| m.bits.is_some() && m.name.is_some());
        let info = &mut self.types.records[idx as usize];
        info.pack = pack;
        info.members = members;
        info.complete = true;
        info.opaque = opaque;
        info.packed = packed;
        info.align = align;
        ty
    }

    /// Is `ty` a tag of this kind: a struct or union (`Some(union)`) or an enum (None)?
    fn is_tag_kind(&self, ty: TypeId, kind: Option<bool>) -> bool {
        match (self.types.kind(ty), kind) {
            (Kind::Record(i), Some(union)) => self.types.records[*i as usize].union == union,
            (Kind::Enum(_), None) => true,
            _ => false,
        }
    }

    /// gcc's error for a tag used with another keyword than it was declared with; `kw`
    /// is where the keyword is.
    fn wrong_kind_of_tag(&mut self, kw: Loc, name: Symbol) {
        let at = self.name_loc_after(kw, name);
        let n = self.name(name);
        self.error(
            at,
            self.sym_len(name),
            format!("'{n}' defined as wrong kind of tag"),
        );
    }

    /// gcc's error for a member name used twice in a record (anonymous members' names
    /// count as the record's).
    fn check_duplicate_member(&mut self, seen: &mut Vec<Symbol>, nm: Symbol, loc: Loc) {
        if seen.contains(&nm) {
            let n = self.name(nm);
            self.error(loc, self.sym_len(nm), format!("duplicate member '{n}'"));
        } else {
            seen.push(nm);
        }
    }

    /// The names a record's members give it, through anonymous members.
    fn member_names(&self, r: u32) -> Vec<Symbol> {
        let mut out = Vec::new();
        for m in &self.types.records[r as usize].members {
            match (m.name, self.types.kind(m.ty)) {
                (Some(n), _) => out.push(n),
                (None, Kind::Record(inner)) if m.bits.is_none() => {
                    out.extend(self.member_names(*inner))
                }
                _ => {}
            }
        }
        out
    }

    /// The index of the token at `loc`: searched forward from where the last search
    /// ended, then from the start.
    pub(crate) fn token_at(&self, loc: Loc) -> Option<usize> {
        let toks = &self.ast.tokens;
        let at = self.ast.packed_loc(loc)?;
        let from = self.token_cursor.get().min(toks.len());
        let i = toks[from..]
            .iter()
            .position(|t| t.ploc() == at)
            .map(|i| i + from)
            .or_else(|| toks[..from].iter().position(|t| t.ploc() == at))?;
        self.token_cursor.set(i);
        Some(i)
    }

    /// gcc's "input location" for some declaration diagnostics (see
    /// [`Sema::decl_ctx_after`]).
    pub(crate) fn decl_ctx(&self) -> Loc {
        if self.decl_ctx_after {
            self.tok_after(self.decl_ctx)
        } else {
            self.decl_ctx
        }
    }

    /// Where the token after the one at `loc` is.
    pub(crate) fn tok_after(&self, loc: Loc) -> Loc {
        let toks = &self.ast.tokens;
        match self.token_at(loc) {
            Some(i) if i + 1 < toks.len() => self.ast.tok_loc(&toks[i + 1]),
            _ => loc,
        }
    }

    /// `aligned(N)` on any declaration of a function raises its alignment.
    fn note_func_align(&mut self, o: u32, a: &[Attr], b: &[Attr]) {
        let n = attr_align(self, a).max(attr_align(self, b));
        if let Some(n) = n {
            let e = self.func_align.entry(o).or_insert(1);
            *e = (*e).max(n);
        }
    }

    /// The largest `_Alignas` of a specifier list, with gcc's errors for alignments that
    /// are no constant or no power of two (`_Alignas(0)` has no effect).
    pub(crate) fn alignas(&mut self, align: &[AlignSpec]) -> Option<u32> {
        let mut best = None;
        for a in align {
            let v = match a {
                AlignSpec::Expr(e) => {
                    let t = self.expr(*e);
                    // gcc's place: the declaration's start (in a record, its tag).
                    let at = |s: &Self| {
                        if s.defining.is_empty() {
                            s.stmt_loc
                        } else {
                            s.decl_ctx()
                        }
                    };
                    match self.eval(*e).filter(|_| self.types.is_integer(t)) {
                        Some(0) => None,
                        Some(v)
                            if v < 0 || v > u32::MAX as i128 || !(v as u32).is_power_of_two() =>
                        {
                            let at = at(self);
                            let len = self.tok_len_at(at);
                            let msg =
                                format!("requested alignment '{v}' is not a positive power of 2");
                            self.error(at, len, msg);
                            None
                        }
                        Some(v) => Some(v as u32),
                        None => {
                            if !self.types.is_error(t)
                                && (!self.types.is_integer(t) || self.reads_runtime(*e))
                            {
                                let at = at(self);
                                let len = self.tok_len_at(at);
                                self.error(
                                    at,
                                    len,
                                    "requested alignment is not an integer constant",
                                );
                            }
                            None
                        }
                    }
                }
                AlignSpec::Type(tn) => {
                    let t = self.type_name(*tn);
                    self.types.size_align(t).map(|s| s.1)
                }
            };
            best = best.max(v);
        }
        best
    }

    /// gcc's errors for `_Alignas` (largest `align`) on a declaration of `name` (at `loc`)
    /// that cannot have one or would lower the type's alignment. `what` is "function",
    /// "typedef", "parameter", "bit-field", "register", or "" for an object or member.
    fn alignas_misplaced(
        &mut self,
        align: Option<u32>,
        ty: TypeId,
        what: &str,
        name: Symbol,
        loc: Loc,
    ) {
        let n = self.name(name);
        let len = self.sym_len(name);
        let msg = match what {
            // gcc compares with the type's smallest alignment (its `_Alignof`, capped at
            // the biggest alignment the target needs unless a user asked for more).
            "" => match (align, self.types.alignof(ty, true)) {
                (Some(a), Some(least)) if a < least && !self.types.is_error(ty) => {
                    format!("'_Alignas' specifiers cannot reduce alignment of '{n}'")
                }
                _ => return,
            },
            "register" => format!("alignment specified for 'register' object '{n}'"),
            _ => format!("alignment specified for {what} '{n}'"),
        };
        self.error(loc, len, msg);
    }

    /// The `#pragma pack` value in force where a record is defined (None: natural).
    fn pack_at(&mut self, loc: Loc) -> Option<u32> {
        let ast = self.ast;
        if !ast
            .pragmas
            .iter()
            .any(|p| p.text.trim_start().starts_with("pack"))
        {
            return None;
        }
        let at = match &self.token_index {
            Some(m) => m.get(&loc).copied(),
            None => {
                let m: FxHashMap<Loc, u32> = ast
                    .tokens
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (ast.tok_loc(t), i as u32))
                    .collect();
                let r = m.get(&loc).copied();
                self.token_index = Some(m);
                r
            }
        }?;
        let mut stack: Vec<Option<u32>> = Vec::new();
        let mut cur: Option<u32> = None;
        for p in ast.pragmas.iter().filter(|p| p.before <= at) {
            let text = p.text.trim();
            let Some(args) = text.strip_prefix("pack") else {
                continue;
            };
            let args = args.trim().trim_start_matches('(').trim_end_matches(')');
            let parts: Vec<&str> = args
                .split(',')
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .collect();
            let num = parts.iter().find_map(|s| s.parse::<u32>().ok());
            match parts.first().copied() {
                Some("push") => {
                    stack.push(cur);
                    if num.is_some() {
                        cur = num;
                    }
                }
                Some("pop") => cur = stack.pop().flatten(),
                None => cur = None,
                Some(_) => cur = num,
            }
        }
        cur
    }

    fn check_width(&mut self, name: Option<Symbol>, ty: TypeId, v: i128, loc: Loc) -> Option<u32> {
        let label = match name {
            Some(n) => format!("'{}'", self.name(n)),
            None => "'<anonymous>'".to_string(),
        };
        let len = name.map_or(1, |n| self.sym_len(n));
        if v < 0 {
            self.error(loc, len, format!("negative width in bit-field {label}"));
            return None;
        }
        if let Some((size, _)) = self.types.size_align(ty) {
            // `_Bool` has one value bit.
            let bits = if matches!(self.types.kind(ty), Kind::Bool) {
                1
            } else {
                size as u128 * 8
            };
            if self.types.is_integer(ty) && v as u128 > bits {
                self.error(loc, len, format!("width of {label} exceeds its type"));
                return None;
            }
        }
        if v == 0 && name.is_some() {
            self.error(loc, len, format!("zero width for bit-field {label}"));
            return None;
        }
        Some(v as u32)
    }

    fn enum_spec(&mut self, eid: EnumId, alone: bool) -> TypeId {
        let ast = self.ast;
        let e = ast.enum_def(eid);
        let new_enum = |s: &mut Self, tag: Option<Symbol>| -> TypeId {
            let idx = s.types.enums.len() as u32;
            s.types.enums.push(super::types::EnumInfo {
                tag,
                complete: false,
                underlying: IntKind::UInt,
            });
            s.types.intern(Kind::Enum(idx), 0)
        };
        let Some(list) = &e.enumerators else {
            let Some(name) = e.name else {
                return TypeId::ERROR;
            };
            return match self.lookup_tag(name) {
                Some((t, cur)) if !alone || cur => {
                    if !self.is_tag_kind(t.ty, None) {
                        self.wrong_kind_of_tag(e.loc, name);
                        return TypeId::ERROR;
                    }
                    t.ty
                }
                _ => {
                    let ty = new_enum(self, Some(name));
                    self.bind_tag(name, Tag { ty, loc: e.loc });
                    ty
                }
            };
        };
        let ty = match e.name.and_then(|n| self.lookup_tag(n).map(|t| (n, t))) {
            Some((n, (t, true))) if matches!(self.types.kind(t.ty), Kind::Enum(i) if !self.types.enums[*i as usize].complete) =>
            {
                // The definition is where "originally defined here" points.
                self.bind_tag(
                    n,
                    Tag {
                        ty: t.ty,
                        loc: e.loc,
                    },
                );
                t.ty
            }
            Some((n, (t, true))) => {
                if self.is_tag_kind(t.ty, None) {
                    let at = self.name_loc_after(e.loc, n);
                    let len = self.sym_len(n);
                    let msg = format!("redeclaration of 'enum {}'", self.name(n));
                    self.error(at, len, msg);
                    let prev = self.name_loc_after(t.loc, n);
                    self.note(prev, len, "originally defined here");
                } else {
                    self.wrong_kind_of_tag(e.loc, n);
                }
                let ty = new_enum(self, Some(n));
                self.bind_tag(n, Tag { ty, loc: e.loc });
                ty
            }
            _ => {
                let ty = new_enum(self, e.name);
                if let Some(n) = e.name {
                    self.bind_tag(n, Tag { ty, loc: e.loc });
                }
                ty
            }
        };
        let Kind::Enum(idx) = *self.types.kind(ty) else {
            return ty;
        };
        let (mut lo, mut hi) = (0i128, 0i128);
        let mut next: i128 = 0;
        let mut first = true;
        let mut consts = Vec::new();
        // The type gcc computes the next implicit value in (bits, unsigned), and whether
        // that value overflowed it.
        let int_bits = self.types.int_bits(IntKind::Int);
        let mut next_ty = (int_bits, false);
        let mut overflow = false;
        for en in list {
            let n = self.name(en.name);
            let len = self.sym_len(en.name);
            let v = match en.value {
                Some(x) => {
                    let xt = self.expr(x);
                    let value = self.eval(x).filter(|_| self.types.is_integer(xt));
                    if let Some(k) = self.types.int_kind(xt).filter(|_| value.is_some()) {
                        let bits = self.types.int_bits(k);
                        let unsigned = !self.types.is_signed(xt);
                        next_ty = (bits.max(int_bits), unsigned && bits >= int_bits);
                    } else if !self.types.is_error(xt)
                        && (!self.types.is_integer(xt) || self.reads_runtime(x))
                    {
                        let msg = format!("enumerator value for '{n}' is not an integer constant");
                        if self.types.is_integer(xt) {
                            self.error(en.loc, len, msg);
                        } else {
                            let (at, alen) = self.start_loc(x);
                            self.error(at, alen, msg);
                        }
                    }
                    value.unwrap_or(next)
                }
                None => {
                    if overflow {
                        self.error(en.loc, len, "overflow in enumeration values");
                    }
                    next
                }
            };
            let (bits, unsigned) = next_ty;
            let max: u128 = if unsigned {
                u128::MAX >> (128 - bits)
            } else {
                u128::MAX >> (129 - bits)
            };
            overflow = v >= 0 && v as u128 == max;
            next = v.wrapping_add(1);
            if first {
                lo = v;
                hi = v;
                first = false;
            } else {
                lo = lo.min(v);
                hi = hi.max(v);
            }
            if let Some(prev) = self.lookup_current(en.name) {
                if matches!(self.ords[prev as usize].kind, OrdKind::EnumConst(_)) {
                    self.error(en.loc, len, format!("redeclaration of enumerator '{n}'"));
                    self.previous_note(prev);
                } else {
                    self.different_kind(en.name, en.loc, prev);
                }
            }
            // During the definition a constant has type int when its value fits.
            let cty = self.const_type(v);
            let id = self.bind(Ordinary {
                name: en.name,
                ty: cty,
                loc: en.loc,
                kind: OrdKind::EnumConst(v),
            });
            self.enum_of.insert(id, ty);
            consts.push(id);
        }
        // arm-none-eabi-gcc defaults to -fshort-enums (AAPCS bare metal; gcc's
        // `arm_default_short_enums`: AAPCS-based and not the Linux variant).
        let m = &self.types.machine;
        let short = has_attr(&e.attrs, "packed", &self.pp.interner)
            || (m.arch == neverc_target::Arch::Arm && m.os == neverc_target::Os::None);
        let neverc_abi::Type::Enum(k) = neverc_abi::Type::enumeration(lo, hi, short) else {
            unreachable!()
        };
        let k = if !short && (lo < i64::MIN as i128 || hi > i64::MAX as i128) {
            if lo < 0 {
                IntKind::Int128
            } else {
                IntKind::UInt128
            }
        } else if !short && matches!(k, IntKind::LongLong | IntKind::ULongLong) {
            // gcc picks `long` kinds where long is 64 bits.
            let long64 = self.types.int_bits(IntKind::Long) == 64;
            match (k, long64) {
                (IntKind::LongLong, true) => IntKind::Long,
                (IntKind::ULongLong, true) => IntKind::ULong,
                _ => k,
            }
        } else {
            k
        };
        self.types.enums[idx as usize].underlying = k;
        self.types.enums[idx as usize].complete = true;
        // After the definition, constants that do not fit int take the enum's type.
        for id in consts {
            if let OrdKind::EnumConst(v) = self.ords[id as usize].kind {
                if v < i32::MIN as i128 || v > i32::MAX as i128 {
                    self.ords[id as usize].ty = ty;
                }
            }
        }
        ty
    }

    /// gcc's type for an enumeration constant of this value during the definition.
    fn const_type(&mut self, v: i128) -> TypeId {
        let k = if v >= i32::MIN as i128 && v <= i32::MAX as i128 {
            IntKind::Int
        } else if v >= 0 && v <= u32::MAX as i128 {
            IntKind::UInt
        } else if v >= i64::MIN as i128 && v <= i64::MAX as i128 {
            IntKind::Long
        } else {
            IntKind::ULong
        };
        self.types.int(k)
    }

    // ----- declarators -----

    /// Applies a declarator's derivations to `base`. `params` receives the parameters of
    /// the outermost function derivation (for definitions).
    pub(crate) fn declarator_type(
        &mut self,
        base: TypeId,
        d: &Declarator,
        mut params: Option<&mut Vec<ParamInfo>>,
    ) -> TypeId {
        let mut t = self.check_restrict(base);
        let n = d.derived.len();
        for (i, der) in d.derived.iter().enumerate().rev() {
            match der {
                Derived::Pointer { quals, .. } => {
                    let p = self.types.pointer(t);
                    t = self.types.add_quals(p, *quals);
                    t = self.check_restrict(t);
                }
                Derived::Array {
                    size,
                    star,
                    loc: aloc,
                    ..
                } => {
                    if !self.array_derivation_ok(t, *size, d, *aloc) {
                        t = TypeId::ERROR;
                        continue;
                    }
                    let len = if *star {
                        ArrLen::Vla(None)
                    } else if let Some(sz) = size {
                        // (Typed by `array_derivation_ok`.)
                        match self.eval(*sz) {
                            Some(v) if v < 0 => {
                                match d.name {
                                    Some(nm) => {
                                        let msg = format!(
                                            "size of array '{}' is negative",
                                            self.name(nm)
                                        );
                                        self.error(d.loc, self.sym_len(nm), msg)
                                    }
                                    None => {
                                        self.error(d.loc, 1, "size of unnamed array is negative")
                                    }
                                }
                                t = TypeId::ERROR;
                                continue;
                            }
                            Some(v) => {
                                let elem = self.types.size_align(t).map_or(0, |s| s.0);
                                let ptr_bits = self.types.machine.data_model.pointer.size * 8;
                                let max = (1u128 << (ptr_bits - 1)) - 1;
                                if (v as u128).saturating_mul(elem.max(1) as u128) > max {
                                    let what = match d.name {
                                        Some(nm) => format!("'{}'", self.name(nm)),
                                        None => "unnamed array".to_string(),
                                    };
                                    let what = if d.name.is_some() {
                                        format!("array {what}")
                                    } else {
                                        what
                                    };
                                    let len = d.name.map_or(1, |nm| self.sym_len(nm));
                                    let msg = format!(
                                        "size of {what} exceeds maximum object size '{max}'"
                                    );
                                    self.error(d.loc, len, msg);
                                    t = TypeId::ERROR;
                                    continue;
                                }
                                ArrLen::Fixed(v as u64)
                            }
                            None => {
                                if let Some(text) = self.spell_size(*sz, 0) {
                                    self.types.vla_spelling.insert(*sz, text);
                                }
                                ArrLen::Vla(Some(*sz))
                            }
                        }
                    } else {
                        ArrLen::Unknown
                    };
                    if self.types.is_error(t) {
                        continue;
                    }
                    // Only an `aligned` typedef can make an element's size no multiple
                    // of its alignment; gcc refuses arrays of such elements.
                    if let Some((size, align)) = self.types.size_align(t) {
                        if size > 0 && size % align as u64 != 0 {
                            self.error(
                                d.loc,
                                1,
                                "alignment of array elements is greater than element size",
                            );
                            t = TypeId::ERROR;
                            continue;
                        }
                    }
                    if !self.types.is_complete(t) {
                        // gcc's 6.7.6.2p1: the element type must be complete.
                        let (at, alen) = self.declarator_place(d, *aloc);
                        let msg =
                            format!("array type has incomplete element type '{}'", self.tname(t));
                        self.error(at, alen, msg);
                        if let (Kind::Array(_, ArrLen::Unknown), Some(nm)) =
                            (self.types.kind(t), d.name)
                        {
                            let msg = format!(
                                "declaration of '{}' as multidimensional array must have bounds for all dimensions except the first",
                                self.name(nm)
                            );
                            self.note(at, alen, msg);
                        }
                        t = TypeId::ERROR;
                        continue;
                    }
                    t = self.types.intern(Kind::Array(t, len), 0);
                }
                Derived::Function {
                    params: ps,
                    variadic,
                    kr_names,
                    loc: floc,
                } => {
                    let outermost = i == 0 || d.derived[..i].iter().all(|_| false);
                    let _ = n;
                    let returns = match self.types.kind(t) {
                        Kind::Array(..) => Some("an array"),
                        Kind::Func(_) => Some("a function"),
                        _ => None,
                    };
                    if let Some(what) = returns {
                        let (at, alen) = self.declarator_place(d, *floc);
                        let who = match d.name {
                            Some(nm) => format!("'{}'", self.name(nm)),
                            None => "type name".to_string(),
                        };
                        self.error(
                            at,
                            alen,
                            format!("{who} declared as function returning {what}"),
                        );
                        t = TypeId::ERROR;
                    }
                    let mut infos = Vec::new();
                    let mut proto = kr_names.is_none();
                    self.push_scope();
                    for p in ps {
                        let b = self.specs_type(p.specs, false);
                        let pt = self.declarator_type(b, &p.decl, None);
                        let pt = self.adjust_param(pt);
                        let storage = self.ast.spec(p.specs).storage;
                        if let (Some(nm), Some(st)) = (p.decl.name, storage) {
                            if st != Storage::Register {
                                let pn = self.name(nm);
                                let len = self.sym_len(nm);
                                self.error(
                                    p.decl.loc,
                                    len,
                                    format!("storage class specified for parameter '{pn}'"),
                                );
                            }
                        }
                        let index = infos.len() + 1;
                        if let (false, Some(nm)) =
                            (self.ast.spec(p.specs).align.is_empty(), p.decl.name)
                        {
                            self.alignas_misplaced(None, pt, "parameter", nm, p.decl.loc);
                        }
                        if self.types.is_void(pt) {
                            match p.decl.name {
                                Some(nm) => {
                                    let pn = self.name(nm);
                                    let msg = format!("parameter {index} ('{pn}') has void type");
                                    self.warning(p.decl.loc, self.sym_len(nm), msg, "");
                                }
                                None if ps.len() > 1 || *variadic => {
                                    let len = self.tok_len_at(p.loc);
                                    self.error(p.loc, len, "'void' must be the only parameter");
                                }
                                None if self.types.quals(pt) != 0 => {
                                    let len = self.tok_len_at(p.loc);
                                    let msg = "'void' as only parameter may not be qualified";
                                    self.error(p.loc, len, msg);
                                }
                                None => {}
                            }
                        }
                        if let Some(nm) = p.decl.name {
                            if let Some(prev) = self.lookup_current(nm) {
                                let pn = self.name(nm);
                                let msg = format!("redefinition of parameter '{pn}'");
                                self.error(p.decl.loc, self.sym_len(nm), msg);
                                self.previous_note(prev);
                            }
                            self.bind(Ordinary {
                                name: nm,
                                ty: pt,
                                loc: p.decl.loc,
                                kind: OrdKind::Object {
                                    linkage: Linkage::None,
                                    is_static: false,
                                    defined: true,
                                    implicit: false,
                                },
                            });
                        }
                        infos.push(ParamInfo {
                            name: p.decl.name,
                            ty: pt,
                            loc: p.decl.loc,
                        });
                    }
                    self.pop_scope();
                    if ps.is_empty() && kr_names.is_none() && *variadic && !self.c2x() {
                        // The `...` right after the parenthesis.
                        let at = self.tok_after(*floc);
                        let msg = "ISO C requires a named argument before '...'";
                        self.error(at, 3, msg);
                    }
                    if let Some(names) = kr_names {
                        for (nm, loc) in names {
                            infos.push(ParamInfo {
                                name: Some(*nm),
                                ty: TypeId::ERROR,
                                loc: *loc,
                            });
                        }
                    }
                    // `(void)` is an empty prototype.
                    if infos.len() == 1
                        && infos[0].name.is_none()
                        && self.types.is_void(infos[0].ty)
                        && !*variadic
                    {
                        infos.clear();
                    } else if ps.is_empty() && kr_names.is_none() && !*variadic && !self.c2x() {
                        proto = false;
                    }
                    let ft = FuncTy {
                        ret: t,
                        params: if proto {
                            infos.iter().map(|p| p.ty).collect()
                        } else {
                            Vec::new()
                        },
                        variadic: *variadic,
                        proto,
                    };
                    if outermost {
                        if let Some(out) = params.as_deref_mut() {
                            *out = infos;
                        }
                    }
                    t = if self.types.is_error(t) {
                        TypeId::ERROR
                    } else {
                        self.types.intern(Kind::Func(ft), 0)
                    };
                }
            }
        }
        if d.name.is_some() && self.types.quals(t) & qual::RESTRICT != 0 && !self.restrict_ok(t) {
            // gcc says it again for the declared entity's own type.
            let at = self.decl_ctx();
            let len = self.tok_len_at(at);
            self.error(at, len, "invalid use of 'restrict'");
        }
        self.type_attrs(t, &d.attrs)
    }

    /// May `t`'s qualifiers include `restrict` (C17 6.7.3p2: only pointers to objects)?
    fn restrict_ok(&self, t: TypeId) -> bool {
        match self.types.pointee(t) {
            Some(p) => !matches!(self.types.kind(p), Kind::Func(_)),
            None => self.types.is_error(t),
        }
    }

    /// gcc's error for `restrict` on a type other than a pointer to an object (the type is
    /// kept as it is). The place is gcc's input location.
    fn check_restrict(&mut self, t: TypeId) -> TypeId {
        let q = self.types.quals(t);
        if q & qual::RESTRICT == 0 || self.restrict_ok(t) {
            return t;
        }
        let at = self.decl_ctx();
        let len = self.tok_len_at(at);
        self.error(at, len, "invalid use of 'restrict'");
        t
    }

    /// gcc's place for initialiser diagnostics without one of their own: the type
    /// specifier, or the tag name after it (as (specifier, tag): the tag's token is
    /// found only if a diagnostic needs it).
    fn spec_type_loc(&self, sp: &DeclSpecs) -> (Loc, Option<Symbol>) {
        match sp.ty {
            TypeSpec::Record(r) => (sp.ty_loc, self.ast.record(r).name),
            TypeSpec::Enum(e) => (sp.ty_loc, self.ast.enum_def(e).name),
            TypeSpec::None => (sp.loc, None),
            _ => (sp.ty_loc, None),
        }
    }

    /// Where gcc reports a problem with a declarator: its name, or for an abstract one the
    /// derivation's own place.
    fn declarator_place(&self, d: &Declarator, at: Loc) -> (Loc, u32) {
        match d.name {
            Some(nm) => (d.loc, self.sym_len(nm)),
            None => (at, 1),
        }
    }

    /// gcc's errors for an array derivation over element type `t` with `size`: arrays of
    /// void or functions, a size of non-integer type. False when the type is erroneous.
    fn array_derivation_ok(
        &mut self,
        t: TypeId,
        size: Option<ExprId>,
        d: &Declarator,
        at: Loc,
    ) -> bool {
        let st = size.map(|sz| self.expr(sz));
        if self.types.is_error(t) {
            return true;
        }
        let who = match d.name {
            Some(nm) => format!("'{}'", self.name(nm)),
            None => "type name".to_string(),
        };
        let (loc, len) = self.declarator_place(d, at);
        if self.types.is_void(t) {
            self.error(loc, len, format!("declaration of {who} as array of voids"));
            return false;
        }
        if matches!(self.types.kind(t), Kind::Func(_)) {
            self.error(
                loc,
                len,
                format!("declaration of {who} as array of functions"),
            );
            return false;
        }
        if let Some(st) = st {
            if !self.types.is_error(st) && !self.types.is_integer(st) {
                let what = match d.name {
                    Some(nm) => format!("array '{}'", self.name(nm)),
                    None => "unnamed array".to_string(),
                };
                self.error(loc, len, format!("size of {what} has non-integer type"));
                return false;
            }
        }
        true
    }

    /// Where `name` is written first after `loc` (a tag after its keyword).
    pub(crate) fn name_loc_after(&self, loc: Loc, name: Symbol) -> Loc {
        let toks = &self.ast.tokens;
        match self.token_at(loc) {
            Some(i) => toks[i..]
                .iter()
                .take(64)
                .find(|t| t.kind == T::Ident && t.sym() == name)
                .map_or(loc, |t| self.ast.tok_loc(t)),
            None => loc,
        }
    }

    /// End of the unit: tentative definitions must have complete types by now (an array
    /// of unknown size becomes one element, with gcc's warning).
    pub(crate) fn finish_tentative(&mut self) {
        for (id, loc) in std::mem::take(&mut self.tentative) {
            let o = self.ords[id as usize].clone();
            let defined = matches!(o.kind, OrdKind::Object { defined: true, .. });
            if defined || self.types.is_error(o.ty) {
                continue;
            }
            let n = self.name(o.name);
            let len = self.sym_len(o.name);
            match self.types.kind(o.ty) {
                Kind::Array(_, ArrLen::Unknown) => self.warning(
                    loc,
                    len,
                    format!("array '{n}' assumed to have one element"),
                    "",
                ),
                Kind::Record(_) | Kind::Enum(_) if !self.types.is_complete(o.ty) => {
                    self.error(loc, len, format!("storage size of '{n}' isn't known"))
                }
                _ => {}
            }
        }
    }

    pub(crate) fn tok_len_at(&self, loc: Loc) -> u32 {
        self.token_at(loc).map_or(1, |i| {
            self.ast.tok_len(&self.ast.tokens[i], &self.pp.interner)
        })
    }

    pub(crate) fn c2x(&self) -> bool {
        self.pp.opts.std.version > 201710
    }

    fn adjust_param(&mut self, t: TypeId) -> TypeId {
        match self.types.kind(t).clone() {
            Kind::Array(e, _) => {
                let q = self.types.quals(t);
                let p = self.types.pointer(e);
                self.types.add_quals(p, q)
            }
            Kind::Func(_) => self.types.pointer(t),
            _ => t,
        }
    }

    // ----- declarations -----

    pub(crate) fn vars(&mut self, specs: SpecsId, list: &[InitDeclarator]) {
        let ast = self.ast;
        let this_decl = self.cur_decl.take();
        let base = self.specs_type(specs, list.is_empty());
        let sp = ast.spec(specs);
        let alignas = if sp.align.is_empty() {
            None
        } else {
            self.alignas(&sp.align)
        };
        let implicit_int = sp.ty == TypeSpec::None && self.pp.opts.std.version >= 199901;
        if implicit_int
            && !list.is_empty()
            && self.at_file_scope()
            && sp.storage.is_none()
            && sp.quals == 0
            && !sp.thread_local
        {
            self.warning(
                sp.loc,
                1,
                "data definition has no type or storage class",
                "",
            );
        }
        for (index, id) in list.iter().enumerate() {
            if let (true, Some(name)) = (implicit_int, id.decl.name) {
                let n = self.name(name);
                self.permerror(
                    id.decl.loc,
                    self.sym_len(name),
                    format!("type defaults to 'int' in declaration of '{n}'"),
                    "implicit-int",
                );
            }
            let mut ty = self.declarator_type(base, &id.decl, None);
            if sp.ty == TypeSpec::AutoType {
                if let Some(i) = id.init {
                    if let Init::Expr(e) = ast.init(i) {
                        let et = self.expr(*e);
                        ty = self.types.decay(et);
                    }
                }
            }
            let Some(name) = id.decl.name else {
                continue;
            };
            if id.init.is_some() {
                let at = self.stmt_loc;
                // The caret's length only when reporting: `tok_len_at` scans the tokens.
                if sp.storage == Some(Storage::Typedef) {
                    let len = self.tok_len_at(at);
                    let n = self.name(name);
                    self.error(
                        at,
                        len,
                        format!("typedef '{n}' is initialized (use '__typeof__' instead)"),
                    );
                    continue;
                }
                if matches!(self.types.kind(ty), Kind::Func(_)) {
                    let len = self.tok_len_at(at);
                    let n = self.name(name);
                    self.error(
                        at,
                        len,
                        format!("function '{n}' is initialized like a variable"),
                    );
                    continue;
                }
                if self.types.is_vla(ty) {
                    let len = self.tok_len_at(at);
                    self.error(at, len, "variable-sized object may not be initialized");
                }
                if sp.storage == Some(Storage::Extern) && !self.at_file_scope() {
                    let nl = self.sym_len(name);
                    let n = self.name(name);
                    self.error(
                        id.decl.loc,
                        nl,
                        format!("'{n}' has both 'extern' and initializer"),
                    );
                    continue;
                }
            }
            if !matches!(self.types.kind(ty), Kind::Func(_)) && (sp.inline || sp.noreturn) {
                let n = self.name(name);
                let what = if sp.storage == Some(Storage::Typedef) {
                    "typedef"
                } else {
                    "variable"
                };
                let len = self.sym_len(name);
                if sp.inline {
                    let msg = format!("{what} '{n}' declared 'inline'");
                    self.warning(id.decl.loc, len, msg, "");
                }
                if sp.noreturn {
                    let msg = format!("{what} '{n}' declared '_Noreturn'");
                    self.warning(id.decl.loc, len, msg, "");
                }
            }
            if !sp.align.is_empty() {
                let what = if matches!(self.types.kind(ty), Kind::Func(_)) {
                    "function"
                } else {
                    match sp.storage {
                        Some(Storage::Typedef) => "typedef",
                        Some(Storage::Register) => "register",
                        _ => "",
                    }
                };
                self.alignas_misplaced(alignas, ty, what, name, id.decl.loc);
            }
            let global_register = id.asm_label.is_some();
            if let Some(msg) = self
                .storage_error(sp, ty, name)
                .filter(|_| !global_register)
            {
                let len = self.sym_len(name);
                self.error(id.decl.loc, len, msg);
                continue;
            }
            if sp.storage == Some(Storage::Typedef) {
                if has_attr(&sp.attrs, "aligned", &self.pp.interner)
                    || has_attr(&id.decl.attrs, "aligned", &self.pp.interner)
                {
                    // gcc: the typedef's alignment becomes exactly N (it may lower it).
                    let n = attr_align(self, &id.decl.attrs).or(attr_align(self, &sp.attrs));
                    ty = match n {
                        Some(n) if n.is_power_of_two() => self.types.with_align(ty, n),
                        // An alignment that is no literal power of two: not modelled.
                        _ => TypeId::ERROR,
                    };
                }
                self.declare_typedef(name, ty, id.decl.loc);
                continue;
            }
            // An array sized by its initialiser.
            if let (Some(i), Kind::Array(e, ArrLen::Unknown)) =
                (id.init, self.types.kind(ty).clone())
            {
                if let Some(n) = self.init_len(e, i) {
                    ty = self
                        .types
                        .intern(Kind::Array(e, ArrLen::Fixed(n)), self.types.quals(ty));
                }
            }
            let is_extern = sp.storage == Some(Storage::Extern);
            let mut check_later = false;
            if !is_extern && !matches!(self.types.kind(ty), Kind::Func(_)) {
                if self.types.is_void(ty) {
                    let n = self.name(name);
                    self.error(
                        id.decl.loc,
                        self.sym_len(name),
                        format!("variable or field '{n}' declared void"),
                    );
                    ty = TypeId::ERROR;
                } else if self.at_file_scope() {
                    check_later = id.init.is_none();
                } else if matches!(self.types.kind(ty), Kind::Array(_, ArrLen::Unknown)) {
                    if id.init.is_none() {
                        let n = self.name(name);
                        self.error(
                            id.decl.loc,
                            self.sym_len(name),
                            format!("array size missing in '{n}'"),
                        );
                    }
                } else if !self.types.is_error(ty)
                    && !self.types.is_complete(ty)
                    && !matches!(self.types.kind(ty), Kind::Array(_, ArrLen::Vla(_)))
                {
                    let n = self.name(name);
                    self.error(
                        id.decl.loc,
                        self.sym_len(name),
                        format!("storage size of '{n}' isn't known"),
                    );
                }
            }
            if let Some(msg) = self.variably_modified_error(sp, ty, &id.decl) {
                self.error(id.decl.loc, self.sym_len(name), msg);
                ty = TypeId::ERROR;
            }
            let oid = self.declare(name, ty, sp.storage, id.decl.loc, id.init.is_some());
            if self.func.is_some() && !is_extern && self.variably_modified(ty) {
                self.open_vm_object(oid);
            }
            if has_attr(&sp.attrs, "weak", &self.pp.interner)
                || has_attr(&id.decl.attrs, "weak", &self.pp.interner)
            {
                self.weak.insert(oid);
            }
            if sp.storage == Some(Storage::Register) {
                self.registers.insert(oid);
            }
            if self.func.is_some() && !is_extern {
                let unused_attr = has_attr(&sp.attrs, "unused", &self.pp.interner)
                    || has_attr(&id.decl.attrs, "unused", &self.pp.interner)
                    || has_attr(&sp.attrs, "cleanup", &self.pp.interner)
                    || has_attr(&id.decl.attrs, "cleanup", &self.pp.interner);
                let bits = if unused_attr { READ } else { 0 };
                self.usage.insert(oid, bits);
            }
            if matches!(self.types.kind(ty), Kind::Func(_)) {
                self.note_func_align(oid, &sp.attrs, &id.decl.attrs);
            }
            if let Some(d) = this_decl {
                self.decl_ords
                    .insert(d, index as u32, list.len() as u32, oid);
            }
            if check_later {
                self.tentative.push((oid, id.decl.loc));
            }
            if let Some(i) = id.init {
                self.init(i);
                let is_static = self.at_file_scope() || sp.storage == Some(Storage::Static);
                let ctx = self.spec_type_loc(sp);
                // The name starts the paths of the notes about a braced initialiser's
                // elements; an expression's diagnostics do not name the object.
                let n = match ast.init(i) {
                    Init::Expr(_) => String::new(),
                    Init::List { .. } => self.name(name),
                };
                self.check_initializer(ty, i, &n, is_static, ctx);
                // Static initialisers of integer objects are constant: keep their values.
                if let (true, Init::Expr(e)) = (self.at_file_scope(), ast.init(i)) {
                    if self.types.is_integer(ty) {
                        self.eval(*e);
                    }
                }
            }
            let _ = oid;
        }
    }

    fn declare_typedef(&mut self, name: Symbol, ty: TypeId, loc: Loc) {
        if let Some(prev) = self.lookup_current(name) {
            let p = self.ords[prev as usize].clone();
            if matches!(p.kind, OrdKind::Typedef) {
                if !self.types.compatible(p.ty, ty)
                    || self.types.quals(p.ty) != self.types.quals(ty)
                {
                    let n = self.name(name);
                    let msg = format!("conflicting types for '{n}'; have '{}'", self.tname(ty));
                    self.error(loc, self.sym_len(name), msg);
                    let msg = format!(
                        "previous declaration of '{n}' with type {}",
                        self.typedef_type_text(name, p.ty)
                    );
                    self.note(p.loc, self.sym_len(name), msg);
                }
                return;
            }
            self.different_kind(name, loc, prev);
            return;
        }
        self.bind(Ordinary {
            name,
            ty,
            loc,
            kind: OrdKind::Typedef,
        });
    }

    fn different_kind(&mut self, name: Symbol, loc: Loc, prev: u32) {
        let n = self.name(name);
        let len = self.sym_len(name);
        self.error(
            loc,
            len,
            format!("'{n}' redeclared as different kind of symbol"),
        );
        self.previous_note(prev);
    }

    /// gcc's note on an earlier declaration: "previous definition of 'x' with type 'int'"
    /// (an enumerator's type is its enum's).
    fn previous_note(&mut self, prev: u32) {
        let p = &self.ords[prev as usize];
        let (n, len, loc) = (self.name(p.name), self.sym_len(p.name), p.loc);
        let (what, ty) = match p.kind {
            OrdKind::Object { defined: true, .. } => ("definition", p.ty),
            OrdKind::EnumConst(_) => (
                "definition",
                self.enum_of.get(&prev).copied().unwrap_or(p.ty),
            ),
            _ => ("declaration", p.ty),
        };
        let ty_text = if matches!(p.kind, OrdKind::Typedef) {
            self.typedef_type_text(p.name, ty)
        } else {
            format!("'{}'", self.tname(ty))
        };
        let msg = format!("previous {what} of '{n}' with type {ty_text}");
        self.note(loc, len, msg);
    }

    /// A typedef's type as gcc names it in notes about the typedef itself: by the
    /// typedef's name, then what it stands for (`'T' {aka 'int'}`).
    fn typedef_type_text(&self, name: Symbol, ty: TypeId) -> String {
        format!("'{}' {{aka '{}'}}", self.name(name), self.tname(ty))
    }

    /// Declares an object or function; returns its entry.
    pub(crate) fn declare(
        &mut self,
        name: Symbol,
        ty: TypeId,
        storage: Option<Storage>,
        loc: Loc,
        defines: bool,
    ) -> u32 {
        let is_func = matches!(self.types.kind(ty), Kind::Func(_));
        let file = self.at_file_scope();
        // Linkage (C17 6.2.2).
        let prior = self.lookup(name);
        let prior_linkage = prior.and_then(|p| match self.ords[p as usize].kind {
            OrdKind::Object { linkage, .. } if linkage != Linkage::None => Some(linkage),
            _ => None,
        });
        let linkage = match storage {
            Some(Storage::Static) if file || is_func => Linkage::Internal,
            Some(Storage::Static) => Linkage::None,
            Some(Storage::Extern) => prior_linkage.unwrap_or(Linkage::External),
            _ if is_func => prior_linkage.unwrap_or(Linkage::External),
            _ if file => Linkage::External,
            _ => Linkage::None,
        };
        let is_static =
            file || matches!(storage, Some(Storage::Static | Storage::Extern)) || is_func;
        // A previous declaration this one must agree with.
        let prev = match self.lookup_current(name) {
            Some(p) => Some(p),
            None if linkage != Linkage::None => self.externs.get(&name).copied(),
            None => None,
        };
        if let Some(p) = prev {
            let po = self.ords[p as usize].clone();
            // A parameter redeclared in the function's outermost block.
            if self.param_ids.contains(&p) && self.lookup_current(name) == Some(p) {
                self.different_kind(name, loc, p);
                return p;
            }
            match po.kind {
                OrdKind::Object {
                    linkage: pl,
                    defined: pd,
                    implicit,
                    ..
                } => {
                    let pf = matches!(self.types.kind(po.ty), Kind::Func(_));
                    if pf != is_func
                        && !self.types.is_error(po.ty)
                        && !self.types.is_error(ty)
                        && self.lookup_current(name) == Some(p)
                    {
                        self.different_kind(name, loc, p);
                        return p;
                    }
                    if pl == Linkage::None || linkage == Linkage::None {
                        if self.lookup_current(name) == Some(p) {
                            let n = self.name(name);
                            self.error(
                                loc,
                                self.sym_len(name),
                                format!("redeclaration of '{n}' with no linkage"),
                            );
                            let msg = format!(
                                "previous declaration of '{n}' with type '{}'",
                                self.tname(po.ty)
                            );
                            self.note(po.loc, self.sym_len(name), msg);
                            return p;
                        }
                    } else if !self.types.compatible(po.ty, ty) {
                        let n = self.name(name);
                        let have = self.tname(ty);
                        if implicit {
                            self.warning(
                                loc,
                                self.sym_len(name),
                                format!("conflicting types for '{n}'; have '{have}'"),
                                "",
                            );
                            let msg = format!(
                                "previous implicit declaration of '{n}' with type '{have}'"
                            );
                            self.note(po.loc, self.sym_len(name), msg);
                        } else if !is_func && {
                            let (a, b) = (self.types.unqual(po.ty), self.types.unqual(ty));
                            self.types.compatible(a, b)
                        } {
                            self.error(
                                loc,
                                self.sym_len(name),
                                format!("conflicting type qualifiers for '{n}'"),
                            );
                            self.previous_note(p);
                        } else {
                            self.error(
                                loc,
                                self.sym_len(name),
                                format!("conflicting types for '{n}'; have '{have}'"),
                            );
                            let what = if pd { "definition" } else { "declaration" };
                            let msg = format!(
                                "previous {what} of '{n}' with type '{}'",
                                self.tname(po.ty)
                            );
                            self.note(po.loc, self.sym_len(name), msg);
                        }
                        self.replace(p, name, ty, loc, linkage, is_static, defines);
                        return p;
                    } else if pd && defines && !is_func {
                        let n = self.name(name);
                        self.error(loc, self.sym_len(name), format!("redefinition of '{n}'"));
                        let msg = format!(
                            "previous definition of '{n}' with type '{}'",
                            self.tname(po.ty)
                        );
                        self.note(po.loc, self.sym_len(name), msg);
                        return p;
                    } else if pl == Linkage::Internal && linkage == Linkage::External && !is_func {
                        let n = self.name(name);
                        self.error(
                            loc,
                            self.sym_len(name),
                            format!("non-static declaration of '{n}' follows static declaration"),
                        );
                        self.previous_note(p);
                        return p;
                    } else if pl == Linkage::External
                        && linkage == Linkage::Internal
                        && storage == Some(Storage::Static)
                    {
                        let n = self.name(name);
                        self.error(
                            loc,
                            self.sym_len(name),
                            format!("static declaration of '{n}' follows non-static declaration"),
                        );
                        let msg = format!(
                            "previous declaration of '{n}' with type '{}'",
                            self.tname(po.ty)
                        );
                        self.note(po.loc, self.sym_len(name), msg);
                        return p;
                    } else {
                        let comp = self.types.composite(po.ty, ty);
                        let entry = &mut self.ords[p as usize];
                        entry.ty = comp;
                        // Notes name the definition, else the latest declaration (gcc).
                        if defines || !pd {
                            entry.loc = loc;
                        }
                        if let OrdKind::Object {
                            defined, implicit, ..
                        } = &mut entry.kind
                        {
                            *defined |= defines;
                            *implicit = false;
                        }
                        if self.lookup_current(name) != Some(p) {
                            self.bind_entry(name, p);
                        }
                        return p;
                    }
                }
                _ => {
                    if self.lookup_current(name) == Some(p) {
                        self.different_kind(name, loc, p);
                        return p;
                    }
                }
            }
        }
        let id = self.bind(Ordinary {
            name,
            ty,
            loc,
            kind: OrdKind::Object {
                linkage,
                is_static,
                defined: defines,
                implicit: false,
            },
        });
        if linkage != Linkage::None {
            self.externs.insert(name, id);
        }
        id
    }

    #[allow(clippy::too_many_arguments)]
    fn replace(
        &mut self,
        p: u32,
        name: Symbol,
        ty: TypeId,
        loc: Loc,
        linkage: Linkage,
        is_static: bool,
        defines: bool,
    ) {
        self.ords[p as usize] = Ordinary {
            name,
            ty,
            loc,
            kind: OrdKind::Object {
                linkage,
                is_static,
                defined: defines,
                implicit: false,
            },
        };
        self.bind_entry(name, p);
    }

    /// The length an initialiser gives an array of unknown size.
    pub(crate) fn init_len(&mut self, elem: TypeId, i: InitId) -> Option<u64> {
        let ast = self.ast;
        let strlen = |e: ExprId| -> Option<u64> {
            let mut e = e;
            while let ExprKind::Paren(x) = ast.expr(e).kind {
                e = x;
            }
            match ast.expr(e).kind {
                ExprKind::Str(s) => Some(ast.lits.strs[s as usize].units.len() as u64 + 1),
                _ => None,
            }
        };
        let is_char = self.types.is_integer(elem);
        match ast.init(i) {
            Init::Expr(e) => {
                if is_char {
                    strlen(*e)
                } else {
                    None
                }
            }
            Init::List { items, .. } => {
                if is_char && items.len() == 1 && items[0].designators.is_empty() {
                    if let Init::Expr(e) = ast.init(items[0].init) {
                        if let Some(n) = strlen(*e) {
                            return Some(n);
                        }
                    }
                }
                let leaves = self.scalar_leaves(elem).max(1);
                let mut cur: u64 = 0;
                let mut max: u64 = 0;
                let mut loose: u64 = 0;
                for it in items {
                    match it.designators.first() {
                        Some(Designator::Index(x)) => {
                            self.expr(*x);
                            cur = self.eval(*x)?.max(0) as u64;
                            loose = 0;
                        }
                        Some(Designator::Range(a, b)) => {
                            self.expr(*a);
                            self.expr(*b);
                            self.eval(*a)?;
                            cur = self.eval(*b)?.max(0) as u64;
                            loose = 0;
                        }
                        Some(Designator::Field(..)) => return None,
                        None => {}
                    }
                    let braced = matches!(ast.init(it.init), Init::List { .. });
                    let string = matches!(ast.init(it.init), Init::Expr(e) if strlen(*e).is_some());
                    if braced || leaves == 1 || !it.designators.is_empty() || string {
                        max = max.max(cur + 1);
                        cur += 1;
                        loose = 0;
                    } else {
                        // Brace elision: `leaves` scalars fill one element.
                        if let Init::Expr(e) = ast.init(it.init) {
                            let et = self.expr(*e);
                            if self.types.compatible_unqual(et, elem)
                                && !self.types.is_error(et)
                                && loose == 0
                            {
                                max = max.max(cur + 1);
                                cur += 1;
                                continue;
                            }
                        }
                        loose += 1;
                        max = max.max(cur + 1);
                        if loose == leaves {
                            loose = 0;
                            cur += 1;
                        }
                    }
                }
                Some(max)
            }
        }
    }

    fn scalar_leaves(&self, t: TypeId) -> u64 {
        match self.types.kind(t) {
            Kind::Array(e, ArrLen::Fixed(n)) => self.scalar_leaves(*e) * n,
            Kind::Array(..) => 1,
            Kind::Record(r) => {
                let info = &self.types.records[*r as usize];
                if info.union {
                    return info.members.first().map_or(1, |m| self.scalar_leaves(m.ty));
                }
                info.members
                    .iter()
                    .filter(|m| m.name.is_some() || m.bits.is_none())
                    .map(|m| self.scalar_leaves(m.ty))
                    .sum::<u64>()
                    .max(1)
            }
            _ => 1,
        }
    }

    pub(crate) fn init(&mut self, i: InitId) {
        let ast = self.ast;
        match ast.init(i) {
            Init::Expr(e) => {
                self.expr(*e);
            }
            Init::List { items, .. } => {
                for it in items {
                    for d in &it.designators {
                        match d {
                            Designator::Index(x) => {
                                self.expr(*x);
                            }
                            Designator::Range(a, b) => {
                                self.expr(*a);
                                self.expr(*b);
                            }
                            Designator::Field(..) => {}
                        }
                    }
                    self.init(it.init);
                }
            }
        }
    }

    // ----- functions -----

    fn function_def(
        &mut self,
        def: DeclId,
        specs: SpecsId,
        decl: &Declarator,
        kr_decls: &[DeclId],
        body: StmtId,
    ) {
        let ast = self.ast;
        let base = self.specs_type(specs, false);
        let mut params = Vec::new();
        let mut ty = self.declarator_type(base, decl, Some(&mut params));
        let sp = ast.spec(specs);
        let Some(name) = decl.name else {
            return;
        };
        let c99 = self.pp.opts.std.version >= 199901;
        if sp.inline && self.name(name) == "main" && self.nesting == 0 {
            self.warning(decl.loc, 4, "cannot inline function 'main'", "");
        }
        if sp.ty == TypeSpec::None && c99 {
            self.permerror(sp.loc, 1, "return type defaults to 'int'", "implicit-int");
        }
        // K&R parameter declarations. Each declared parameter is in scope for the
        // declarations after it (C17 6.9.1p9's parameters, as gcc has them), so a later
        // one's array bound can use it: `int f(n, m) int n; int m[][n]; {...}`. The bound
        // names the parameter's prototype-scope stand-in, which irgen maps to the body's.
        let mut kr_types: Vec<(Symbol, TypeId, Loc)> = Vec::new();
        self.push_scope();
        for &kd in kr_decls {
            if let DeclKind::Vars { specs, list } = &ast.decl(kd).kind {
                let b = self.specs_type(*specs, false);
                for id in list {
                    let t = self.declarator_type(b, &id.decl, None);
                    let t = self.adjust_param(t);
                    if let Some(n) = id.decl.name {
                        kr_types.push((n, t, id.decl.loc));
                        if params.iter().any(|p| p.name == Some(n)) {
                            if let Some(prev) = self.lookup_current(n) {
                                let pn = self.name(n);
                                let msg = format!("redefinition of parameter '{pn}'");
                                self.error(id.decl.loc, self.sym_len(n), msg);
                                self.previous_note(prev);
                            }
                            self.bind(Ordinary {
                                name: n,
                                ty: t,
                                loc: id.decl.loc,
                                kind: OrdKind::Object {
                                    linkage: Linkage::None,
                                    is_static: false,
                                    defined: true,
                                    implicit: false,
                                },
                            });
                        }
                    }
                }
            }
        }
        self.pop_scope();
        for p in params.iter_mut() {
            if p.ty == TypeId::ERROR {
                if let Some(n) = p.name {
                    p.ty = match kr_types.iter().find(|k| k.0 == n) {
                        Some(k) => k.1,
                        None => {
                            if c99 {
                                // gcc points at the function's name.
                                let pn = self.name(n);
                                self.permerror(
                                    decl.loc,
                                    self.sym_len(name),
                                    format!("type of '{pn}' defaults to 'int'"),
                                    "implicit-int",
                                );
                            }
                            self.types.int(IntKind::Int)
                        }
                    };
                }
            }
        }
        // Declarations of names that are no parameter: reported, then declared in the body
        // as gcc does (so uses are not reported again).
        let mut kr_extra = Vec::new();
        for k in &kr_types {
            if !params.iter().any(|p| p.name == Some(k.0)) {
                kr_extra.push(*k);
                let n = self.name(k.0);
                self.error(
                    k.2,
                    self.sym_len(k.0),
                    format!("declaration for parameter '{n}' but no such parameter"),
                );
            }
        }
        let ret = match self.types.func(ty) {
            Some(f) => f.ret,
            None => {
                ty = TypeId::ERROR;
                TypeId::ERROR
            }
        };
        if !self.types.is_error(ret) && !self.types.is_void(ret) && !self.types.is_complete(ret) {
            let len = self.sym_len(name);
            self.error(decl.loc, len, "return type is an incomplete type");
        }
        for (i, p) in params.iter().enumerate() {
            let Some(pn) = p.name else {
                continue;
            };
            let t = p.ty;
            if !self.types.is_error(t) && !self.types.is_void(t) && !self.types.is_complete(t) {
                let msg = format!(
                    "parameter {} ('{}') has incomplete type",
                    i + 1,
                    self.name(pn)
                );
                self.error(p.loc, self.sym_len(pn), msg);
            }
        }
        let storage = sp.storage;
        if let Some(prev) = self.lookup_current(name) {
            let p = &self.ords[prev as usize];
            if matches!(p.kind, OrdKind::Object { defined: true, .. })
                && self.types.compatible(p.ty, ty)
                && matches!(self.types.kind(p.ty), Kind::Func(_))
            {
                let n = self.name(name);
                let len = self.sym_len(name);
                let (pl, pt) = (p.loc, p.ty);
                self.error(decl.loc, len, format!("redefinition of '{n}'"));
                let msg = format!(
                    "previous definition of '{n}' with type '{}'",
                    self.tname(pt)
                );
                self.note(pl, len, msg);
            }
        }
        if self.func.is_some() {
            // A GNU nested function: no linkage, visible in the enclosing block.
            self.bind(Ordinary {
                name,
                ty,
                loc: decl.loc,
                kind: OrdKind::Object {
                    linkage: Linkage::None,
                    is_static: true,
                    defined: true,
                    implicit: false,
                },
            });
        } else {
            self.declare(name, ty, storage, decl.loc, true);
        }
        if let Some(e) = self.lookup_current(name) {
            if let OrdKind::Object { defined, .. } = &mut self.ords[e as usize].kind {
                *defined = true;
            }
        }
        self.jumps.clear();
        self.func = Some(FuncCtx {
            name,
            loc: decl.loc,
            ret,
            undeclared: Vec::new(),
            labels: Default::default(),
            local_labels: Vec::new(),
            gotos: Vec::new(),
        });
        // (A nested function's jumps are its own.)
        let outer_vm = std::mem::take(&mut self.vm);
        self.push_scope();
        self.param_ids.clear();
        let fid = self.lookup(name).unwrap_or(u32::MAX);
        let mut param_entries = Vec::new();
        for p in &params {
            param_entries.push(p.name.map(|_| self.ords.len() as u32));
            if let Some(n) = p.name {
                let id = self.ords.len() as u32;
                self.param_ids.push(id);
                self.bind(Ordinary {
                    name: n,
                    ty: p.ty,
                    loc: p.loc,
                    kind: OrdKind::Object {
                        linkage: Linkage::None,
                        is_static: false,
                        defined: true,
                        implicit: false,
                    },
                });
            }
        }
        for (n, t, loc) in kr_extra {
            self.bind(Ordinary {
                name: n,
                ty: t,
                loc,
                kind: OrdKind::Object {
                    linkage: Linkage::None,
                    is_static: false,
                    defined: true,
                    implicit: false,
                },
            });
        }
        self.functions.insert(def, (fid, param_entries));
        self.note_func_align(fid, &sp.attrs, &decl.attrs);
        // `__func__` is declared in the body (C17 6.4.2.2).
        if let StmtKind::Compound(items) = &ast.stmt(body).kind {
            for &s in items {
                self.stmt(s);
            }
        } else {
            self.stmt(body);
        }
        self.func_end_labels();
        self.pop_block_scope();
        self.check_vm_jumps();
        self.vm = outer_vm;
        if let Some(f) = self.func.take() {
            for (l, loc) in &f.gotos {
                if !f.labels.contains_key(l) {
                    let n = self.name(*l);
                    self.func = Some(FuncCtx {
                        name: f.name,
                        loc: f.loc,
                        ret: f.ret,
                        undeclared: Vec::new(),
                        labels: Default::default(),
                        local_labels: Vec::new(),
                        gotos: Vec::new(),
                    });
                    let len = self.tok_len_at(*loc);
                    if self.nesting > 0 {
                        // Probably the enclosing function's label: a non-local goto.
                        self.error(
                            *loc,
                            len,
                            format!("label '{n}' is not defined in this nested function (neverc does not implement non-local goto)"),
                        );
                    } else {
                        self.error(*loc, len, format!("label '{n}' used but not defined"));
                    }
                    self.func = None;
                }
            }
        }
    }

    /// gcc's spelling of a VLA size in a type name (`n`, `(n + 1) * 2`, `n + -1`): names,
    /// decimal literals and binary operators; None for anything else (spelled `*`).
    /// `outer` is the precedence of the operator around it, for parentheses.
    fn spell_size(&self, e: ExprId, outer: u8) -> Option<String> {
        use crate::parse::ast::BinOp as B;
        let prec = |op: B| match op {
            B::Mul | B::Div | B::Mod => 10,
            B::Add | B::Sub => 9,
            B::Shl | B::Shr => 8,
            B::Lt | B::Gt | B::Le | B::Ge => 7,
            B::Eq | B::Ne => 6,
            B::BitAnd => 5,
            B::BitXor => 4,
            B::BitOr => 3,
            B::And => 2,
            B::Or => 1,
        };
        match &self.ast.expr(e).kind {
            ExprKind::Ident(s) => Some(self.name(*s)),
            ExprKind::Int(i) => {
                let lit = &self.ast.lits.ints[*i as usize];
                (!lit.non_decimal && !lit.unsigned && lit.longs == 0 && !lit.imaginary)
                    .then(|| lit.value.to_string())
            }
            ExprKind::Paren(x) => self.spell_size(*x, outer),
            ExprKind::Binary(op, a, b) => {
                let p = prec(*op);
                let l = self.spell_size(*a, p)?;
                // gcc folds `n - 3` to `n + -3`.
                let (op, r) = match (op, &self.ast.expr(*b).kind) {
                    (B::Sub, ExprKind::Int(_)) => {
                        ("+", format!("-{}", self.spell_size(*b, p + 1)?))
                    }
                    _ => (op.as_str(), self.spell_size(*b, p + 1)?),
                };
                let text = format!("{l} {op} {r}");
                Some(if p < outer { format!("({text})") } else { text })
            }
            _ => None,
        }
    }

    /// Is the type variably modified (C17 6.7.6p3), function types aside?
    pub(crate) fn variably_modified(&self, t: TypeId) -> bool {
        match *self.types.kind(t) {
            Kind::Array(_, ArrLen::Vla(_)) => true,
            Kind::Array(e, _) | Kind::Pointer(e) => self.variably_modified(e),
            _ => false,
        }
    }

    /// gcc's errors for a variably modified type where it cannot be (C17 6.7.6.2p2): at file
    /// scope, with linkage, or with static storage. Only when a size in the declarator
    /// reads a value at run time: sizes neverc cannot fold but gcc can stay silent.
    fn variably_modified_error(
        &mut self,
        sp: &DeclSpecs,
        ty: TypeId,
        d: &Declarator,
    ) -> Option<String> {
        let name = d.name?;
        if !self.variably_modified(ty) {
            return None;
        }
        let runtime = d.derived.iter().any(|der| match der {
            Derived::Array { size: Some(sz), .. } => {
                self.eval(*sz).is_none() && self.reads_runtime(*sz)
            }
            _ => false,
        });
        if !runtime {
            return None;
        }
        let n = self.name(name);
        if self.at_file_scope() {
            return Some(format!("variably modified '{n}' at file scope"));
        }
        match sp.storage {
            Some(Storage::Extern) => {
                Some("object with variably modified type must have no linkage".to_string())
            }
            Some(Storage::Static) if self.types.is_vla(ty) => {
                Some(format!("storage size of '{n}' isn't constant"))
            }
            _ => None,
        }
    }

    /// gcc's errors for storage classes a declaration of `name` cannot have.
    fn storage_error(&self, sp: &DeclSpecs, ty: TypeId, name: Symbol) -> Option<String> {
        let func = matches!(self.types.kind(ty), Kind::Func(_));
        let file = self.at_file_scope();
        if func && (sp.thread_local || (!file && sp.storage == Some(Storage::Static))) {
            let n = self.name(name);
            return Some(format!("invalid storage class for function '{n}'"));
        }
        if func {
            return None;
        }
        // The name is spelled only for a message (this runs for every declarator).
        let n = || self.name(name);
        match sp.storage {
            Some(Storage::Auto) if file => Some(format!(
                "file-scope declaration of '{}' specifies 'auto'",
                n()
            )),
            Some(Storage::Register) if file => {
                Some(format!("register name not specified for '{}'", n()))
            }
            None | Some(Storage::Auto | Storage::Register) if !file && sp.thread_local => {
                Some(format!(
                    "function-scope '{}' implicitly auto and declared '_Thread_local'",
                    n()
                ))
            }
            _ => None,
        }
    }

    /// -Wunused-label for the function being finished.
    fn func_end_labels(&mut self) {
        if !self.warning_on("unused-label", &["all", "unused"]) {
            return;
        }
        let Some(f) = &self.func else {
            return;
        };
        // Local labels (`__label__`) are mostly taken by nested functions: not checked.
        let mut unused: Vec<(Symbol, Loc)> = f
            .labels
            .iter()
            .filter(|(l, _)| !f.gotos.iter().any(|g| g.0 == **l) && !f.local_labels.contains(l))
            .map(|(l, loc)| (*l, *loc))
            .collect();
        unused.sort_by_key(|u| std::cmp::Reverse(u.1.offset));
        for (l, loc) in unused {
            let n = self.name(l);
            let len = self.sym_len(l);
            self.warning(
                loc,
                len,
                format!("label '{n}' defined but not used"),
                "unused-label",
            );
        }
    }

    // ----- statements -----

    pub(crate) fn stmt(&mut self, s: StmtId) {
        let ast = self.ast;
        let st = ast.stmt(s);
        self.stmt_loc = st.loc;
        match &st.kind {
            StmtKind::Compound(items) => {
                self.push_scope();
                for &i in items {
                    self.stmt(i);
                }
                self.pop_block_scope();
            }
            StmtKind::Decl(d) => {
                let d = *d;
                match &ast.decl(d).kind {
                    DeclKind::Vars { specs, list } => {
                        self.cur_decl = Some(d);
                        self.vars(*specs, list)
                    }
                    DeclKind::StaticAssert { cond, msg } => {
                        self.static_assert(ast.decl(d).loc, *cond, *msg)
                    }
                    DeclKind::FunctionDef {
                        specs,
                        decl,
                        kr_decls,
                        body,
                        ..
                    } => {
                        // A GNU nested function: checked in place, the enclosing function's
                        // state put aside and restored.
                        let outer = self.func.take();
                        let jumps = std::mem::take(&mut self.jumps);
                        let params = std::mem::take(&mut self.param_ids);
                        self.func = outer.as_ref().map(|f| FuncCtx {
                            name: f.name,
                            loc: f.loc,
                            ret: f.ret,
                            undeclared: Vec::new(),
                            labels: Default::default(),
                            local_labels: Vec::new(),
                            gotos: Vec::new(),
                        });
                        self.nesting += 1;
                        self.function_def(d, *specs, decl, kr_decls, *body);
                        self.nesting -= 1;
                        self.func = outer;
                        self.jumps = jumps;
                        self.param_ids = params;
                        self.nested.insert(d);
                    }
                    DeclKind::Asm(_) | DeclKind::Empty | DeclKind::Error => {}
                }
            }
            StmtKind::LocalLabels(ls) => {
                if let Some(f) = &mut self.func {
                    for (l, _) in ls {
                        f.local_labels.push(*l);
                    }
                }
            }
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.discarded_expr(*e);
                }
            }
            StmtKind::If(c, a, b) => {
                self.condition(*c);
                self.stmt(*a);
                if let Some(b) = b {
                    self.stmt(*b);
                }
            }
            StmtKind::Switch(c, b) => {
                let t = self.rvalue(*c);
                if !self.types.is_error(t) && !self.types.is_integer(t) {
                    let (loc, len) = self.start_loc(*c);
                    self.error(loc, len, "switch quantity not an integer");
                }
                self.jumps.push(Jump::Switch {
                    cases: Vec::new(),
                    default: None,
                    at: st.loc,
                    vm: self.vm.cur,
                });
                self.stmt(*b);
                self.jumps.pop();
            }
            StmtKind::While(c, b) => {
                self.condition(*c);
                self.jumps.push(Jump::Loop);
                self.stmt(*b);
                self.jumps.pop();
            }
            StmtKind::DoWhile(b, c) => {
                self.jumps.push(Jump::Loop);
                self.stmt(*b);
                self.jumps.pop();
                self.condition(*c);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.push_scope();
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => {
                        self.discarded_expr(*e);
                    }
                    ForInit::Decl(d) => {
                        if let DeclKind::Vars { specs, list } = &ast.decl(*d).kind {
                            self.cur_decl = Some(*d);
                            self.vars(*specs, list);
                        }
                    }
                }
                if let Some(c) = cond {
                    self.condition(*c);
                }
                if let Some(x) = step {
                    self.discarded_expr(*x);
                }
                self.jumps.push(Jump::Loop);
                self.stmt(*body);
                self.jumps.pop();
                self.pop_block_scope();
            }
            StmtKind::Goto(l) => {
                if let Some(f) = &mut self.func {
                    f.gotos.push((*l, st.loc));
                    self.vm.gotos.push((*l, st.loc, self.vm.cur));
                }
            }
            StmtKind::GotoComputed(e) => {
                self.expr(*e);
            }
            StmtKind::Break => {
                if self.jumps.is_empty() {
                    let len = self.tok_len_at(st.loc);
                    self.error(st.loc, len, "break statement not within loop or switch");
                }
            }
            StmtKind::Continue => {
                if !self.jumps.iter().any(|j| matches!(j, Jump::Loop)) {
                    let len = self.tok_len_at(st.loc);
                    self.error(st.loc, len, "continue statement not within a loop");
                }
            }
            StmtKind::Error => {}
            StmtKind::Return(e) => {
                // On by default; -Wall (or -Wreturn-type) names the option, and
                // -Wno-return-type drops them, as gcc does.
                let option = if self.warns.return_type {
                    "return-type"
                } else {
                    ""
                };
                let dropped = self.warns.return_type_dropped;
                let (ret, floc, fname) = match &self.func {
                    Some(f) => (f.ret, f.loc, Some(f.name)),
                    None => (TypeId::ERROR, st.loc, None),
                };
                let flen = fname.map_or(1, |n| self.sym_len(n));
                if let Some(e) = e {
                    let et = self.expr(*e);
                    if !self.types.is_void(ret) {
                        self.convert_check(ret, *e, super::expr::ConvCtx::Return);
                    } else if !self.types.is_void(et) && !self.types.is_error(et) && !dropped {
                        let (loc, len) = self.start_loc(*e);
                        self.warning(
                            loc,
                            len,
                            "'return' with a value, in function returning void",
                            option,
                        );
                        self.note(floc, flen, "declared here");
                    }
                } else if !self.types.is_void(ret) && !self.types.is_error(ret) && !dropped {
                    let len = self.tok_len_at(st.loc);
                    self.warning(
                        st.loc,
                        len,
                        "'return' with no value, in function returning non-void",
                        option,
                    );
                    self.note(floc, flen, "declared here");
                }
            }
            StmtKind::Label(l, _, b) => {
                if self.vm.cur != 0 && self.func.is_some() {
                    self.vm.labels.insert(*l, (self.vm.cur, st.loc));
                }
                let dup = match &mut self.func {
                    // Local labels (`__label__`) are scoped to their block; not checked yet.
                    Some(f) if f.local_labels.contains(l) => {
                        f.labels.insert(*l, st.loc);
                        None
                    }
                    Some(f) => f.labels.insert(*l, st.loc),
                    None => None,
                };
                if let Some(prev) = dup {
                    let n = self.name(*l);
                    let len = self.sym_len(*l);
                    // Local labels declared by `__label__` are defined once.
                    self.error(st.loc, len, format!("duplicate label '{n}'"));
                    self.note(
                        prev,
                        len,
                        format!("previous definition of '{n}' with type 'void'"),
                    );
                }
                self.stmt(*b);
            }
            StmtKind::Case(a, b, body) => {
                let len = 4; // `case`
                let at = a;
                let label = |s: &mut Self, x: ExprId| {
                    let t = s.expr(x);
                    let v = s.eval(x);
                    if s.types.is_error(t) {
                        return None;
                    }
                    if v.is_none() || !s.types.is_integer(t) {
                        s.error(
                            st.loc,
                            len,
                            "case label does not reduce to an integer constant",
                        );
                        return None;
                    }
                    v
                };
                let lo = label(self, *at);
                let hi = match b {
                    Some(b) => label(self, *b),
                    None => lo,
                };
                let mut prev = None;
                match self
                    .jumps
                    .iter_mut()
                    .rev()
                    .find(|j| matches!(j, Jump::Switch { .. }))
                {
                    Some(Jump::Switch { cases, .. }) => {
                        if let (Some(lo), Some(hi)) = (lo, hi) {
                            prev = cases.iter().find(|c| c.0 <= hi && lo <= c.1).map(|c| c.2);
                            if prev.is_none() {
                                cases.push((lo, hi, st.loc));
                            }
                        }
                    }
                    _ => self.error(st.loc, len, "case label not within a switch statement"),
                }
                if let Some(p) = prev {
                    self.error(st.loc, len, "duplicate case value");
                    self.note(p, len, "previously used here");
                }
                self.check_vm_case(st.loc, len);
                self.stmt(*body);
            }
            StmtKind::Default(b) => {
                let len = 7; // `default`
                let mut first = None;
                match self
                    .jumps
                    .iter_mut()
                    .rev()
                    .find(|j| matches!(j, Jump::Switch { .. }))
                {
                    Some(Jump::Switch { default, .. }) => match default {
                        Some(p) => first = Some(*p),
                        None => *default = Some(st.loc),
                    },
                    _ => self.error(st.loc, len, "'default' label not within a switch statement"),
                }
                if let Some(p) = first {
                    self.error(st.loc, len, "multiple default labels in one switch");
                    self.note(p, len, "this is the first default label");
                }
                self.check_vm_case(st.loc, len);
                self.stmt(*b);
            }
            StmtKind::Asm(a) => {
                for op in a.outputs.iter().chain(&a.inputs) {
                    self.expr(op.expr);
                }
                // gcc's checks: outputs are lvalues, memory-only inputs are addressable.
                let len = self.tok_len_at(st.loc);
                if a.outputs.len() + a.inputs.len() > 30 {
                    self.error(st.loc, len, "more than 30 operands in 'asm'");
                }
                if a.outputs.iter().any(|op| !self.is_lvalue(op.expr)) {
                    self.error(st.loc, len, "lvalue required in 'asm' statement");
                }
                for (k, op) in a.inputs.iter().enumerate() {
                    let c = &self.ast.lits.strs[op.constraint as usize].units;
                    let memory_only = c.iter().all(|&u| {
                        matches!(char::from_u32(u), Some('m' | 'o' | 'V' | '<' | '>' | ' '))
                    }) && !c.is_empty();
                    if memory_only && !self.is_lvalue(op.expr) {
                        self.error(
                            st.loc,
                            len,
                            format!("memory input {k} is not directly addressable"),
                        );
                    }
                }
            }
        }
    }
}

use super::types::FloatK;

/// An attribute's name without the `__` around it (`__packed__` is `packed`), as the
/// interner holds it: asked about every attribute of every declaration, so no `String`.
fn attr_name<'i>(a: &Attr, interner: &'i crate::token::Interner) -> &'i [u8] {
    let s = interner.get(a.name);
    s.strip_prefix(b"__")
        .and_then(|x| x.strip_suffix(b"__"))
        .unwrap_or(s)
}

fn has_attr(attrs: &[Attr], name: &str, interner: &crate::token::Interner) -> bool {
    attrs
        .iter()
        .any(|a| attr_name(a, interner) == name.as_bytes())
}

/// Attributes whose meaning changes the type in ways this slice does not model yet: the
/// type becomes erroneous (silent) rather than wrong.
/// `aligned(N)` with a literal N, or plain `aligned` (the target's biggest alignment).
fn attr_align(s: &Sema, attrs: &[Attr]) -> Option<u32> {
    let mut best: Option<u32> = None;
    for a in attrs {
        if attr_name(a, &s.pp.interner) != b"aligned" {
            continue;
        }
        let v = match a.args {
            None => s.types.machine.data_model.biggest_align,
            Some((b, e)) if e == b + 1 && s.ast.tokens[b as usize].kind == T::Int => {
                let t = &s.ast.tokens[b as usize];
                s.ast.lits.ints[t.lit() as usize].value as u32
            }
            _ => continue,
        };
        best = Some(best.map_or(v, |x| x.max(v)));
    }
    best
}
