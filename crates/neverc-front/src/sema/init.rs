//! Initialisers checked against the object's type (C17 6.7.9) with gcc's diagnostics:
//! brace elision and designators followed the way the standard's "current object" moves,
//! excess elements, braces around scalars, strings for arrays, bad designators, elements
//! of static objects that are no constant, and each scalar's conversion. Each diagnostic
//! inside a brace level gets gcc's "(near initialization for 'a[1].b')" note.
//!
//! Where neverc cannot follow an initialiser as gcc would (vectors, complex lists,
//! designators into anonymous members) it stops checking that initialiser rather than
//! risk a diagnostic gcc would not give.

use super::expr::ConvCtx;
use super::types::{ArrLen, Kind, TypeId};
use super::Sema;
use crate::parse::ast::*;
use crate::source::Loc;
use crate::token::Symbol;
use neverc_abi::IntKind;

/// State of one initialiser's check.
pub(crate) struct InitCx {
    /// gcc's place for diagnostics it has no element's place for (braces around a
    /// scalar, excess elements after brace elision): the declaration's type specifier,
    /// or the tag name written after it. Kept as (specifier, tag) and resolved only when
    /// reported: finding the tag's token scans the token vector.
    pub ctx: (Loc, Option<Symbol>),
    /// The object has static storage duration: its elements must be constants.
    pub is_static: bool,
    /// The first brace level where braces were elided (-Wmissing-braces).
    missing_braces: Option<Loc>,
    /// Something neverc does not follow: no more diagnostics for this initialiser.
    gave_up: bool,
    /// The `{` of the brace level being checked (None: the context place).
    cur_list: Option<Loc>,
}

impl<'a> Sema<'a> {
    /// Checks initialiser `i` of object `name` of type `ty` (its parts already typed).
    /// (`name` is used only for a braced initialiser.)
    pub(crate) fn check_initializer(
        &mut self,
        ty: TypeId,
        i: InitId,
        name: &str,
        is_static: bool,
        ctx: (Loc, Option<Symbol>),
    ) {
        let mut cx = InitCx {
            ctx,
            is_static,
            missing_braces: None,
            gave_up: false,
            cur_list: None,
        };
        match self.ast.init(i) {
            Init::Expr(e) => self.init_expr(ty, *e, name, false, &mut cx),
            Init::List { loc, items } => {
                self.init_braced(ty, *loc, items, name, false, &mut cx);
                // `{ 0 }` zeroes anything without a warning.
                let zero = matches!(items.as_slice(), [it] if it.designators.is_empty()
                    && matches!(self.ast.init(it.init), Init::Expr(e) if self.eval(*e) == Some(0)));
                if let (Some(at), false, false) = (cx.missing_braces, zero, cx.gave_up) {
                    if self.warning_on("missing-braces", &["all"]) {
                        self.warning(at, 1, "missing braces around initializer", "missing-braces");
                    }
                }
            }
        }
    }

    /// The place of [`InitCx::ctx`].
    fn ctx_loc(&self, cx: &InitCx) -> Loc {
        match cx.ctx {
            (at, Some(tag)) => self.name_loc_after(at, tag),
            (at, None) => at,
        }
    }

    /// gcc's note naming the sub-object a diagnostic is about.
    fn near_init(&mut self, loc: Loc, len: u32, path: &str) {
        self.note(loc, len, format!("(near initialization for '{path}')"));
    }

    /// Diagnostics given so far (to know whether a check reported something).
    fn diag_count(&self) -> usize {
        self.pp.diags.errors + self.pp.diags.warnings
    }

    /// An initialiser that is one expression, for `ty` (an element when `nested`).
    fn init_expr(&mut self, ty: TypeId, e: ExprId, path: &str, nested: bool, cx: &mut InitCx) {
        let et = self.expr_types[e.0 as usize];
        if self.types.is_error(ty) || self.types.is_error(et) {
            return;
        }
        match *self.types.kind(ty) {
            Kind::Array(elem, len) => {
                if self.string_literal(e) && self.types.is_integer(elem) {
                    self.init_string(elem, len, e, path, nested, None);
                } else if self.compound_literal(e) && self.types.compatible_unqual(ty, et) {
                    // GNU: an array from a compound literal of its type.
                } else if !matches!(len, ArrLen::Vla(_)) {
                    let (loc, len) = self.start_loc(e);
                    self.error(loc, len, "invalid initializer");
                }
            }
            Kind::Record(_) => {
                if self.types.compatible_unqual(ty, et) {
                    self.init_constant(e, path, nested, cx);
                } else {
                    let (loc, len) = self.start_loc(e);
                    self.error(loc, len, "invalid initializer");
                }
            }
            Kind::Vector(..) | Kind::Func(_) => {}
            _ => {
                let (before, errors) = (self.diag_count(), self.pp.diags.errors);
                self.convert_check(ty, e, ConvCtx::Init);
                if nested && self.diag_count() > before {
                    let (loc, len) = self.start_loc(e);
                    self.near_init(loc, len, path);
                }
                if self.pp.diags.errors == errors {
                    self.init_constant(e, path, nested, cx);
                }
            }
        }
    }

    /// Is `e` (in parentheses or not) a compound literal?
    fn compound_literal(&self, e: ExprId) -> bool {
        let mut x = e;
        while let ExprKind::Paren(y) = self.ast.expr(x).kind {
            x = y;
        }
        matches!(self.ast.expr(x).kind, ExprKind::CompoundLit(..))
    }

    /// Is `e` (in parentheses or not) a string literal?
    fn string_literal(&self, e: ExprId) -> bool {
        let mut x = e;
        while let ExprKind::Paren(y) = self.ast.expr(x).kind {
            x = y;
        }
        matches!(self.ast.expr(x).kind, ExprKind::Str(_))
    }

    /// A string literal for an array of integer `elem` (C17 6.7.9p14-15).
    fn init_string(
        &mut self,
        elem: TypeId,
        len: ArrLen,
        e: ExprId,
        path: &str,
        nested: bool,
        brace: Option<Loc>,
    ) {
        let Kind::Array(selem, ArrLen::Fixed(n)) = *self.types.kind(self.expr_types[e.0 as usize])
        else {
            return;
        };
        let elem = self.types.unqual(elem);
        let is_char = |s: &Self, t: TypeId| {
            matches!(
                s.types.kind(t),
                Kind::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
            )
        };
        let (char_array, char_string) = (is_char(self, elem), is_char(self, selem));
        let (loc, tlen) = match brace {
            Some(b) => (b, 1),
            None => self.start_loc(e),
        };
        if char_array != char_string {
            let msg = format!(
                "cannot initialize array of '{}' from a string literal with type array of '{}'",
                self.tname(elem),
                self.tname(selem)
            );
            self.error(loc, tlen, msg);
        } else if !char_array && !self.types.compatible_unqual(elem, selem) {
            self.error(
                loc,
                tlen,
                "array of inappropriate type initialized from string constant",
            );
        } else if let ArrLen::Fixed(size) = len {
            // The terminating null character may be left out, nothing more.
            if n - 1 > size {
                let msg = format!(
                    "initializer-string for array of '{}' is too long",
                    self.tname(elem)
                );
                self.warning(loc, tlen, msg, "");
                if nested {
                    self.near_init(loc, tlen, path);
                }
            }
        }
    }

    /// gcc's error for an element of a static object's initialiser that is no constant:
    /// only when it reads an object or calls a function (what neverc cannot fold but gcc
    /// may stays silent).
    fn init_constant(&mut self, e: ExprId, path: &str, nested: bool, cx: &mut InitCx) {
        if !cx.is_static || self.eval(e).is_some() || !self.reads_runtime(e) {
            return;
        }
        let (loc, len) = self.start_loc(e);
        self.error(loc, len, "initializer element is not constant");
        if nested {
            self.near_init(loc, len, path);
        }
    }

    /// A brace-enclosed list for `ty`; `nested`: it is itself an element of a list.
    fn init_braced(
        &mut self,
        ty: TypeId,
        loc: Loc,
        items: &[InitItem],
        path: &str,
        nested: bool,
        cx: &mut InitCx,
    ) {
        if cx.gave_up || self.types.is_error(ty) {
            return;
        }
        match self.types.kind(ty) {
            Kind::Array(_, ArrLen::Vla(_)) | Kind::Func(_) => return,
            Kind::Vector(..) | Kind::Complex(_) => {
                cx.gave_up = true;
                return;
            }
            Kind::Array(..) | Kind::Record(_) => {}
            _ => return self.init_braced_scalar(ty, loc, items, path, nested, cx),
        }
        if let Kind::Record(r) = *self.types.kind(ty) {
            let info = &self.types.records[r as usize];
            if !info.complete || info.members.iter().any(|m| self.types.is_error(m.ty)) {
                return;
            }
        }
        // A string for a character array may be in braces.
        let array = match *self.types.kind(ty) {
            Kind::Array(elem, len) => Some((elem, len)),
            _ => None,
        };
        if let (Some((elem, len)), [it]) = (array, items) {
            if let (true, Init::Expr(e)) = (it.designators.is_empty(), self.ast.init(it.init)) {
                if self.string_literal(*e) && self.types.is_integer(elem) {
                    // gcc's place is then the brace.
                    return self.init_string(elem, len, *e, path, nested, Some(loc));
                }
            }
        }
        let mut idx = 0;
        cx.cur_list = Some(loc);
        self.init_level(ty, items, &mut idx, 0, true, path, cx);
    }

    /// A brace-enclosed list for a scalar: one expression (gcc warns about more braces
    /// and more elements).
    fn init_braced_scalar(
        &mut self,
        ty: TypeId,
        loc: Loc,
        items: &[InitItem],
        path: &str,
        nested: bool,
        cx: &mut InitCx,
    ) {
        if nested {
            let at = self.ctx_loc(cx);
            let len = self.tok_len_at(at);
            self.warning(at, len, "braces around scalar initializer", "");
            self.near_init(at, len, path);
        }
        let Some(first) = items.first() else {
            self.error(loc, 1, "empty scalar initializer");
            self.near_init(loc, 1, path);
            return;
        };
        if !first.designators.is_empty() {
            cx.gave_up = true;
            return;
        }
        match self.ast.init(first.init) {
            Init::Expr(e) => self.init_expr(ty, *e, path, nested, cx),
            Init::List { loc, items } => self.init_braced(ty, *loc, items, path, true, cx),
        }
        for it in &items[1..] {
            if cx.gave_up {
                return;
            }
            let (at, len) = self.init_item_loc(it.init);
            self.warning(at, len, "excess elements in scalar initializer", "");
            self.near_init(at, len, path);
        }
    }

    /// Where an initialiser starts.
    fn init_item_loc(&self, i: InitId) -> (Loc, u32) {
        match self.ast.init(i) {
            Init::Expr(e) => self.start_loc(*e),
            Init::List { loc, .. } => (*loc, 1),
        }
    }

    /// How many elements a brace level for `ty` has (None: an array of unknown size). A
    /// union's level takes one of them.
    fn init_bound(&self, ty: TypeId) -> Option<u64> {
        match *self.types.kind(ty) {
            Kind::Array(_, ArrLen::Fixed(n)) => Some(n),
            Kind::Array(..) => None,
            Kind::Record(r) => {
                let info = &self.types.records[r as usize];
                let n = info.members.iter().filter(|m| Self::positional(m)).count() as u64;
                Some(n)
            }
            _ => Some(0),
        }
    }

    /// Does a member take an element of an initialiser list (unnamed bit-fields do not)?
    fn positional(m: &super::types::Member) -> bool {
        m.name.is_some() || m.bits.is_none()
    }

    /// Element `pos` of aggregate `ty`: its type and its name for notes.
    fn init_element(&self, ty: TypeId, pos: u64, path: &str) -> Option<(TypeId, String)> {
        match *self.types.kind(ty) {
            Kind::Array(e, _) => Some((e, format!("{path}[{pos}]"))),
            Kind::Record(r) => {
                let m = self.types.records[r as usize]
                    .members
                    .iter()
                    .filter(|m| Self::positional(m))
                    .nth(pos as usize)?;
                let n = match m.name {
                    Some(n) => self.name(n),
                    None => "<anonymous>".to_string(),
                };
                Some((m.ty, format!("{path}.{n}")))
            }
            _ => None,
        }
    }

    /// The kind of aggregate for "excess elements in ... initializer".
    fn aggregate_word(&self, ty: TypeId) -> &'static str {
        match *self.types.kind(ty) {
            Kind::Record(r) if self.types.records[r as usize].union => "union",
            Kind::Record(_) => "struct",
            _ => "array",
        }
    }

    /// The elements of one brace level of aggregate `ty`, from `items[*idx]` on: all of
    /// the list when `braced`, else (brace elision) as many as `ty` takes, stopping at a
    /// designator that belongs to an enclosing level. The first item's first `skip`
    /// designators were used by enclosing levels.
    #[allow(clippy::too_many_arguments)]
    fn init_level(
        &mut self,
        ty: TypeId,
        items: &[InitItem],
        idx: &mut usize,
        skip: usize,
        braced: bool,
        path: &str,
        cx: &mut InitCx,
    ) {
        let bound = self.init_bound(ty);
        // After its one element a union's level is full.
        let union =
            matches!(*self.types.kind(ty), Kind::Record(r) if self.types.records[r as usize].union);
        let next = |pos: u64| if union { u64::MAX } else { pos + 1 };
        let list_loc = cx.cur_list;
        let mut pos: u64 = 0;
        let mut first = true;
        // The last element was filled by brace elision: gcc has no place for what follows.
        let mut after_elision = false;
        while *idx < items.len() {
            if cx.gave_up {
                *idx = items.len();
                return;
            }
            let it = &items[*idx];
            let skip_here = if first { skip } else { 0 };
            first = false;
            let ds = &it.designators[skip_here.min(it.designators.len())..];
            let mut consumed = skip_here;
            if let Some(d) = ds.first() {
                if !braced && skip_here == 0 {
                    // A new designator starts from the enclosing brace level.
                    return;
                }
                consumed += 1;
                if let Some(p) = self.init_designator(ty, d, bound, path, cx) {
                    pos = p;
                    if ds.len() > 1 {
                        // More designators go into the element.
                        let Some((et, epath)) = self.init_element(ty, pos, path) else {
                            cx.gave_up = true;
                            continue;
                        };
                        if !matches!(self.types.kind(et), Kind::Array(..) | Kind::Record(_)) {
                            cx.gave_up = true;
                            continue;
                        }
                        let start = *idx;
                        self.init_level(et, items, idx, consumed, false, &epath, cx);
                        if *idx == start {
                            *idx += 1;
                        }
                        pos = next(pos);
                        after_elision = false;
                        continue;
                    }
                } else if cx.gave_up {
                    continue;
                }
                // A bad designator: gcc goes on with the value in the current place.
            }
            if bound.is_some_and(|b| pos >= b) {
                if !braced {
                    return;
                }
                let (at, len) = if after_elision {
                    let at = self.ctx_loc(cx);
                    (at, self.tok_len_at(at))
                } else {
                    self.init_item_loc(it.init)
                };
                let msg = format!("excess elements in {} initializer", self.aggregate_word(ty));
                self.warning(at, len, msg, "");
                self.near_init(at, len, path);
                *idx += 1;
                continue;
            }
            let Some((et, epath)) = self.init_element(ty, pos, path) else {
                cx.gave_up = true;
                continue;
            };
            after_elision = false;
            match self.ast.init(it.init) {
                Init::List { loc, items: inner } => {
                    self.init_braced(et, *loc, inner, &epath, true, cx);
                    *idx += 1;
                }
                Init::Expr(e) => {
                    let e = *e;
                    let xt = self.expr_types[e.0 as usize];
                    let whole = match self.types.kind(et) {
                        Kind::Record(_) => self.types.compatible_unqual(et, xt),
                        Kind::Array(elem, _) => {
                            self.string_literal(e) && self.types.is_integer(*elem)
                        }
                        Kind::Vector(..) | Kind::Complex(_) => {
                            cx.gave_up = true;
                            continue;
                        }
                        _ => true,
                    };
                    if whole || self.types.is_error(xt) || self.types.is_error(et) {
                        self.init_expr(et, e, &epath, true, cx);
                        *idx += 1;
                    } else {
                        // Brace elision: the element takes the next items.
                        if braced && cx.missing_braces.is_none() {
                            cx.missing_braces = Some(list_loc.unwrap_or_else(|| self.ctx_loc(cx)));
                        }
                        let start = *idx;
                        self.init_level(et, items, idx, consumed, false, &epath, cx);
                        if *idx == start {
                            // Nothing fits (an empty record): the item is skipped.
                            *idx += 1;
                        }
                        after_elision = true;
                    }
                }
            }
            pos = next(pos);
        }
    }

    /// Where designator `d` points in aggregate `ty` (None, reported, when it cannot).
    fn init_designator(
        &mut self,
        ty: TypeId,
        d: &Designator,
        bound: Option<u64>,
        path: &str,
        cx: &mut InitCx,
    ) -> Option<u64> {
        match d {
            Designator::Field(name, loc) => {
                let Kind::Record(r) = *self.types.kind(ty) else {
                    let dot = self.tok_before(*loc);
                    self.error(dot, 1, "field name not in record or union initializer");
                    self.near_init(dot, 1, path);
                    return None;
                };
                let members = &self.types.records[r as usize].members;
                let found = members
                    .iter()
                    .filter(|m| Self::positional(m))
                    .position(|m| m.name == Some(*name));
                if let Some(p) = found {
                    return Some(p as u64);
                }
                if members.iter().any(|m| m.name.is_none() && m.bits.is_none()) {
                    // Perhaps a member of an anonymous member: not followed.
                    cx.gave_up = true;
                    return None;
                }
                let msg = format!(
                    "'{}' has no member named '{}'",
                    self.tname(ty),
                    self.name(*name)
                );
                self.error(*loc, self.sym_len(*name), msg);
                None
            }
            Designator::Index(x) | Designator::Range(_, x) => {
                let lo = match d {
                    Designator::Range(a, _) => *a,
                    _ => *x,
                };
                let (loc, len) = self.start_loc(lo);
                if !matches!(self.types.kind(ty), Kind::Array(..)) {
                    self.error(loc, len, "array index in non-array initializer");
                    self.near_init(loc, len, path);
                    return None;
                }
                let mut values = Vec::new();
                for e in [lo, *x] {
                    let t = self.expr_types[e.0 as usize];
                    match self.eval(e) {
                        Some(v) if self.types.is_integer(t) => values.push(v),
                        _ if self.types.is_error(t) => {
                            cx.gave_up = true;
                            return None;
                        }
                        _ if !self.types.is_integer(t) || self.reads_runtime(e) => {
                            let (loc, len) = self.start_loc(e);
                            self.error(loc, len, "nonconstant array index in initializer");
                            self.near_init(loc, len, path);
                            return None;
                        }
                        _ => {
                            cx.gave_up = true;
                            return None;
                        }
                    }
                }
                let (a, b) = (values[0], values[1]);
                let out = a < 0 || b < 0 || bound.is_some_and(|n| b as u128 >= n as u128);
                if out {
                    let msg = if matches!(d, Designator::Range(..)) {
                        "array index range in initializer exceeds array bounds"
                    } else {
                        "array index in initializer exceeds array bounds"
                    };
                    self.error(loc, len, msg);
                    self.near_init(loc, len, path);
                    return None;
                }
                if b < a {
                    self.error(loc, len, "empty index range in initializer");
                    self.near_init(loc, len, path);
                    return None;
                }
                Some(b as u64)
            }
        }
    }

    /// Where the token before the one at `loc` is.
    pub(crate) fn tok_before(&self, loc: Loc) -> Loc {
        let toks = &self.ast.tokens;
        let at = self.ast.packed_loc(loc);
        match toks.iter().position(|t| Some(t.ploc()) == at) {
            Some(i) if i > 0 => self.ast.tok_loc(&toks[i - 1]),
            _ => loc,
        }
    }
}
