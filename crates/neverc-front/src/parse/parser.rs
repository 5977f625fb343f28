//! The recursive-descent parser's core and declarations (C17 6.7, 6.9): token access,
//! gcc-worded syntax errors with recovery, the typedef-name scope stack, declaration
//! specifiers, declarators, initialisers, struct/union/enum specifiers and attributes.

use super::ast::*;
use super::ctok::{Kw, Literals, PragmaAt, Tok, TokLocs, P, T};
use crate::diag::Diagnostic;
use crate::pp::Preprocessor;
use crate::source::Loc;
use crate::token::Symbol;

/// Nesting beyond this is refused rather than risking the stack.
const MAX_DEPTH: u32 = 256;

pub struct Parser<'a> {
    pub(super) pp: &'a mut Preprocessor,
    pub(super) ast: Ast,
    pub(super) pos: usize,
    /// Ordinary identifiers in scope: `names[symbol]` is the name's innermost binding in
    /// `bindings` (`NO_BINDING`, or past the end: none). One table for all scopes, indexed
    /// by symbol, so that a name is found with one indexing however deep the blocks are,
    /// and a block adds no table of its own.
    names: Vec<u32>,
    /// The bindings of the open scopes, the innermost scope's last.
    bindings: Vec<Binding>,
    /// Where each scope's bindings start in `bindings`, but the file scope's (at 0).
    scope_starts: Vec<u32>,
    /// Token index of the last error, so one bad token yields one message.
    last_err: usize,
    /// Headers a "did you forget to '#include'" note has named.
    suggested_headers: Vec<&'static str>,
    pub(super) depth: u32,
    /// Inside a function body (nested definitions are refused).
    pub(super) in_function: bool,
    pub(super) c2x: bool,
    /// The token converter's diagnostics, reported when parsing reaches their token.
    queued: std::collections::VecDeque<(u32, Diagnostic)>,
    /// Arguments of the calls being parsed (see `postfix`).
    pub(super) arg_stack: Vec<ExprId>,
    /// Items of the blocks being parsed (see `compound`): each block's list is allocated
    /// once, at its size, when the block ends.
    pub(super) item_stack: Vec<StmtId>,
    /// Binary operators waiting for their right operands (see `binary_ops`).
    pub(super) op_stack: Vec<super::expr::PendingOp>,
}

/// An ordinary identifier declared in a scope (see `Parser::names`).
struct Binding {
    name: Symbol,
    typedef: bool,
    /// The binding of the same name this one hides (`NO_BINDING`: none).
    hidden: u32,
}

const NO_BINDING: u32 = u32::MAX;

/// What kind of declarator is allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DeclMode {
    Named,
    Abstract,
    /// Parameters: either.
    Either,
}

/// Type-specifier keywords seen so far in one specifier list.
#[derive(Default, Clone, Copy)]
struct Basic {
    void: u8,
    bool_: u8,
    char_: u8,
    short: u8,
    int: u8,
    long: u8,
    float: u8,
    double: u8,
    signed: u8,
    unsigned: u8,
    complex: u8,
    int128: u8,
    /// `_FloatN`, `__float128`, `__float80`, `_DecimalN`.
    special: Option<TypeSpec>,
}

impl Basic {
    fn any(&self) -> bool {
        self.void
            + self.bool_
            + self.char_
            + self.short
            + self.int
            + self.long
            + self.float
            + self.double
            + self.signed
            + self.unsigned
            + self.complex
            + self.int128
            > 0
            || self.special.is_some()
    }

    /// Counts type keyword `k`.
    fn add(&mut self, k: Kw) {
        match k {
            Kw::Void => self.void += 1,
            Kw::Bool => self.bool_ += 1,
            Kw::Char => self.char_ += 1,
            Kw::Short => self.short += 1,
            Kw::Int => self.int += 1,
            Kw::Long => self.long += 1,
            Kw::Float => self.float += 1,
            Kw::Double => self.double += 1,
            Kw::Signed => self.signed += 1,
            Kw::Unsigned => self.unsigned += 1,
            Kw::Complex | Kw::Imaginary => self.complex += 1,
            Kw::Int128 => self.int128 += 1,
            Kw::Float16 => self.special = Some(TypeSpec::FloatN(16, false)),
            Kw::Float32 => self.special = Some(TypeSpec::FloatN(32, false)),
            Kw::Float64 => self.special = Some(TypeSpec::FloatN(64, false)),
            Kw::Float128 => self.special = Some(TypeSpec::FloatN(128, false)),
            Kw::Float32x => self.special = Some(TypeSpec::FloatN(32, true)),
            Kw::Float64x => self.special = Some(TypeSpec::FloatN(64, true)),
            Kw::GnuFloat128 => self.special = Some(TypeSpec::Float128),
            Kw::Float80 => self.special = Some(TypeSpec::Float80),
            Kw::Decimal32 => self.special = Some(TypeSpec::Decimal(32)),
            Kw::Decimal64 => self.special = Some(TypeSpec::Decimal(64)),
            Kw::Decimal128 => self.special = Some(TypeSpec::Decimal(128)),
            _ => {}
        }
    }

    fn valid(&self) -> bool {
        let mains = self.void
            + self.bool_
            + self.char_
            + self.int
            + self.float
            + self.double
            + self.int128
            + self.special.is_some() as u8;
        if mains > 1 || self.short > 1 || self.signed > 1 || self.unsigned > 1 || self.complex > 1 {
            return false;
        }
        if (self.short > 0 && self.long > 0) || (self.signed > 0 && self.unsigned > 0) {
            return false;
        }
        let intlike = self.char_ + self.int + self.int128 > 0 || mains == 0;
        if (self.short > 0) && !(self.int > 0 || mains == 0) {
            return false;
        }
        if self.long > 0 && !(self.int > 0 || mains == 0 || (self.double > 0 && self.long == 1)) {
            return false;
        }
        if self.signed + self.unsigned > 0 && !intlike {
            return false;
        }
        if self.complex > 0 && (self.void + self.bool_ > 0) {
            return false;
        }
        if self.special.is_some() && self.short + self.long + self.signed + self.unsigned > 0 {
            return false;
        }
        true
    }

    /// gcc's "both 'M' and 'B'" pair when adding keyword `k` to these specifiers clashes
    /// a modifier (long, short, signed, unsigned, _Complex) with a base type; None when
    /// two base types clash ("two or more data types").
    fn modifier_conflict(&self, k: Kw) -> Option<(&'static str, &'static str)> {
        let bases = [
            (self.void, Kw::Void, "void"),
            (self.bool_, Kw::Bool, "_Bool"),
            (self.char_, Kw::Char, "char"),
            (self.int, Kw::Int, "int"),
            (self.float, Kw::Float, "float"),
            (self.double, Kw::Double, "double"),
            (self.int128, Kw::Int128, "__int128"),
        ];
        let modifiers = [
            (self.long, Kw::Long, "long"),
            (self.short, Kw::Short, "short"),
            (self.signed, Kw::Signed, "signed"),
            (self.unsigned, Kw::Unsigned, "unsigned"),
            (self.complex, Kw::Complex, "complex"),
        ];
        let pair_valid = |a: Kw, b: Kw| {
            let mut t = Basic::default();
            for k in [a, b] {
                match k {
                    Kw::Void => t.void += 1,
                    Kw::Bool => t.bool_ += 1,
                    Kw::Char => t.char_ += 1,
                    Kw::Int => t.int += 1,
                    Kw::Float => t.float += 1,
                    Kw::Double => t.double += 1,
                    Kw::Int128 => t.int128 += 1,
                    Kw::Long => t.long += 1,
                    Kw::Short => t.short += 1,
                    Kw::Signed => t.signed += 1,
                    Kw::Unsigned => t.unsigned += 1,
                    _ => t.complex += 1,
                }
            }
            t.valid()
        };
        if let Some(&(_, _, bname)) = bases.iter().find(|b| b.1 == k) {
            if bases.iter().any(|b| b.0 > 0) {
                return None;
            }
            return modifiers
                .iter()
                .find(|m| m.0 > 0 && !pair_valid(m.1, k))
                .map(|m| (m.2, bname));
        }
        let &(_, mk, mname) = modifiers
            .iter()
            .find(|m| m.1 == k || (k == Kw::Imaginary && m.1 == Kw::Complex))?;
        bases
            .iter()
            .find(|b| b.0 > 0 && !pair_valid(mk, b.1))
            .map(|b| (mname, b.2))
    }

    fn resolve(&self) -> TypeSpec {
        let sign = if self.unsigned > 0 {
            Some(false)
        } else if self.signed > 0 {
            Some(true)
        } else {
            None
        };
        let real = if let Some(s) = self.special {
            s
        } else if self.void > 0 {
            TypeSpec::Void
        } else if self.bool_ > 0 {
            TypeSpec::Bool
        } else if self.char_ > 0 {
            TypeSpec::Char(sign)
        } else if self.float > 0 {
            TypeSpec::Float
        } else if self.double > 0 {
            if self.long > 0 {
                TypeSpec::LongDouble
            } else {
                TypeSpec::Double
            }
        } else if self.int128 > 0 {
            TypeSpec::Int(sign, IntRank::Int128)
        } else if self.short > 0 {
            TypeSpec::Int(sign, IntRank::Short)
        } else if self.long == 1 {
            TypeSpec::Int(sign, IntRank::Long)
        } else if self.long >= 2 {
            TypeSpec::Int(sign, IntRank::LongLong)
        } else if self.int > 0 || sign.is_some() {
            TypeSpec::Int(sign, IntRank::Int)
        } else if self.complex > 0 {
            // gcc: plain `_Complex` means `double _Complex`.
            TypeSpec::Double
        } else {
            TypeSpec::None
        };
        if self.complex == 0 {
            return real;
        }
        TypeSpec::Complex(match real {
            TypeSpec::Float => ComplexOf::Float,
            TypeSpec::LongDouble => ComplexOf::LongDouble,
            TypeSpec::Int(s, r) => ComplexOf::Int(s, r),
            TypeSpec::Char(s) => ComplexOf::Char(s),
            TypeSpec::FloatN(n, x) => ComplexOf::FloatN(n, x),
            TypeSpec::Float128 => ComplexOf::Float128,
            _ => ComplexOf::Double,
        })
    }
}

impl<'a> Parser<'a> {
    pub fn new(
        pp: &'a mut Preprocessor,
        tokens: Vec<Tok>,
        lits: Literals,
        pragmas: Vec<PragmaAt>,
        locs: TokLocs,
        queued: Vec<(u32, Diagnostic)>,
    ) -> Self {
        // `tok` and `peek` rely on this (no bounds checks).
        assert_eq!(tokens.last().map(|t| t.kind), Some(T::Eof));
        let c2x = pp.opts.std.version >= 202000;
        let mut p = Parser {
            pp,
            ast: Ast::default(),
            pos: 0,
            names: Vec::new(),
            bindings: Vec::new(),
            scope_starts: Vec::new(),
            last_err: usize::MAX,
            suggested_headers: Vec::new(),
            depth: 0,
            in_function: false,
            c2x,
            queued: queued.into(),
            arg_stack: Vec::new(),
            item_stack: Vec::new(),
            op_stack: Vec::new(),
        };
        // Room for the tree up front, from the number of tokens, so that the arenas are
        // not copied as they grow (pages not used are never touched). The benchmark's
        // 30 headers and 37.5k lines: 478k tokens, 273k expressions, 35k statements,
        // 17k specifier lists, 6.7k declarations, 2.9k type names.
        let n = tokens.len();
        p.ast.exprs.reserve(n * 3 / 4);
        p.ast.stmts.reserve(n / 10);
        p.ast.specs.reserve(n / 16);
        p.ast.decls.reserve(n / 32);
        p.ast.type_names.reserve(n / 64);
        p.ast.tokens = tokens;
        p.ast.tok_locs = locs;
        p.ast.lits = lits;
        p.ast.pragmas = pragmas;
        // gcc's predeclared typedef.
        for name in ["__builtin_va_list", "__int128_t", "__uint128_t"] {
            let sym = p.pp.interner.intern(name.as_bytes());
            p.declare(sym, true);
        }
        p
    }

    pub fn finish(mut self) -> Ast {
        self.flush(usize::MAX);
        self.ast
    }

    // ----- tokens -----

    // The parser looks at the current token several times per token, so these go
    // without the bounds check. What makes that sound: the token list is never empty and
    // ends with `Eof` (asserted in `new`) and never changes, and `pos` moves past a
    // token only after seeing it is not `Eof` (`bump`, `eat`, or a test of the kind
    // first), so it never passes the last token.

    #[inline]
    pub(super) fn tok(&self) -> &Tok {
        debug_assert!(self.pos < self.ast.tokens.len());
        // SAFETY: `pos` is at most the index of the final `Eof` (see above).
        unsafe { self.ast.tokens.get_unchecked(self.pos) }
    }

    #[inline]
    pub(super) fn peek(&self, n: usize) -> &Tok {
        let i = (self.pos + n).min(self.ast.tokens.len() - 1);
        // SAFETY: the list is not empty, so `len - 1` is an index.
        unsafe { self.ast.tokens.get_unchecked(i) }
    }

    pub(super) fn kind(&self) -> T {
        self.tok().kind
    }

    pub(super) fn loc(&self) -> Loc {
        self.ast.tok_loc(self.tok())
    }

    /// Where token `t` is.
    #[inline]
    pub(super) fn tloc(&self, t: &Tok) -> Loc {
        self.ast.tok_loc(t)
    }

    /// Takes the current token, returning where it was.
    pub(super) fn bump_loc(&mut self) -> Loc {
        let t = self.bump();
        self.ast.tok_loc(&t)
    }

    pub(super) fn bump(&mut self) -> Tok {
        let t = *self.tok();
        if t.kind != T::Eof {
            self.pos += 1;
        }
        t
    }

    pub(super) fn is(&self, p: P) -> bool {
        self.kind() == T::P(p)
    }

    pub(super) fn is_kw(&self, k: Kw) -> bool {
        self.kind() == T::Kw(k)
    }

    pub(super) fn eat(&mut self, p: P) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn eat_kw(&mut self, k: Kw) -> bool {
        if self.is_kw(k) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn spelling(&self, t: &Tok) -> String {
        self.pp
            .interner
            .str(t.spelling(&self.ast.lits))
            .into_owned()
    }

    // ----- diagnostics -----

    /// gcc's "unknown type name 'X'", with its note naming the standard header that
    /// defines X when it is one of the usual ones.
    pub(super) fn unknown_type_name(&mut self, t: Tok) {
        let name = self.spelling(&t);
        let reported = self.last_err != self.pos;
        self.error_at(t, format!("unknown type name '{name}'"));
        let header = match name.as_str() {
            "size_t" | "ptrdiff_t" | "wchar_t" => "stddef.h",
            "int8_t" | "int16_t" | "int32_t" | "int64_t" | "uint8_t" | "uint16_t" | "uint32_t"
            | "uint64_t" | "intptr_t" | "uintptr_t" => "stdint.h",
            "FILE" | "fpos_t" => "stdio.h",
            "va_list" => "stdarg.h",
            "time_t" | "clock_t" => "time.h",
            "bool" => "stdbool.h",
            _ => return,
        };
        if !reported {
            return;
        }
        // gcc places the note where the #include would go, after the main file's last
        // #include before the error (the start of the file if none); a header suggested
        // already gets its note at the error.
        let loc = if self.suggested_headers.contains(&header) {
            self.tloc(&t)
        } else {
            self.suggested_headers.push(header);
            let main = self.pp.main_file();
            let before = |&&o: &&u32| self.tloc(&t).file != main || o < self.tloc(&t).offset;
            let offset = match self.pp.main_includes.iter().rfind(before) {
                Some(&o) => {
                    let text = &self.pp.sm.file(main).text;
                    let from = (o as usize).min(text.len());
                    text[from..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(text.len(), |i| from + i + 1) as u32
                }
                None => 0,
            };
            Loc { file: main, offset }
        };
        self.pp.report(crate::diag::Diagnostic::new(
            crate::diag::Level::Note,
            Some(loc),
            format!("'{name}' is defined in header '<{header}>'; did you forget to '#include <{header}>'?"),
        ));
    }

    pub(super) fn error_at(&mut self, t: Tok, msg: impl Into<String>) {
        self.error_at_len(
            self.tloc(&t),
            self.ast.tok_len(&t, &self.pp.interner),
            t.expansion,
            msg,
        );
    }

    /// Reports the converter's diagnostics for tokens up to `upto`.
    fn flush(&mut self, upto: usize) {
        while self
            .queued
            .front()
            .is_some_and(|(i, _)| *i as usize <= upto)
        {
            let (_, d) = self.queued.pop_front().unwrap();
            self.pp.report(d);
        }
    }

    pub(super) fn error_at_len(
        &mut self,
        loc: Loc,
        len: u32,
        expansion: u32,
        msg: impl Into<String>,
    ) {
        if self.last_err == self.pos {
            return;
        }
        self.last_err = self.pos;
        self.flush(self.pos);
        self.pp.report(
            Diagnostic::error(loc, msg)
                .with_len(len)
                .in_expansion(expansion),
        );
    }

    pub(super) fn warn_at(&mut self, t: Tok, msg: impl Into<String>, option: Option<&'static str>) {
        let mut d = Diagnostic::warning(self.tloc(&t), msg)
            .with_len(self.ast.tok_len(&t, &self.pp.interner))
            .in_expansion(t.expansion);
        if let Some(o) = option {
            d = d.with_option(o);
        }
        self.flush(self.pos);
        self.pp.report(d);
    }

    /// How gcc names a token after "before".
    fn describe(&self, t: &Tok) -> String {
        match t.kind {
            T::P(p) => format!("'{}' token", p.as_str()),
            T::Ident | T::Kw(_) | T::Other => format!("'{}'", self.spelling(t)),
            T::Int | T::Float => "numeric constant".into(),
            T::Char => "character constant".into(),
            T::Str => "string constant".into(),
            T::Eof => "end of input".into(),
        }
    }

    /// `expected X before Y` at the current token.
    pub(super) fn expected(&mut self, what: &str) {
        let t = *self.tok();
        let msg = if t.kind == T::Eof {
            format!("expected {what} at end of input")
        } else {
            format!("expected {what} before {}", self.describe(&t))
        };
        self.error_at(t, msg);
    }

    /// A missing closing token or `;`: gcc points just after the previous token when it
    /// is on the same line as the next one.
    pub(super) fn expected_after(&mut self, what: &str) {
        self.expected_after_prev(what, false)
    }

    /// `expected_after`, or (`any_line`) just after the previous token wherever the next
    /// one is, as gcc reports a `;` missing before the next declaration.
    fn expected_after_prev(&mut self, what: &str, any_line: bool) {
        let t = *self.tok();
        if self.pos == 0 || t.kind == T::Eof {
            return self.expected(what);
        }
        let prev = self.ast.tokens[self.pos - 1];
        let (prev_loc, t_loc) = (self.tloc(&prev), self.tloc(&t));
        if prev.expansion != 0 || t.expansion != 0 || prev_loc.file != t_loc.file {
            return self.expected(what);
        }
        let end = prev_loc.offset + self.ast.tok_len(&prev, &self.pp.interner);
        let same_line = {
            let text = &self.pp.sm.file(t_loc.file).text;
            end <= t_loc.offset && !text[end as usize..t_loc.offset as usize].contains(&b'\n')
        };
        if !same_line && !any_line {
            return self.expected(what);
        }
        let loc = Loc {
            file: t_loc.file,
            offset: end,
        };
        let len = if t_loc.offset == end + 1 {
            1 + self.ast.tok_len(&t, &self.pp.interner)
        } else {
            1
        };
        let msg = format!("expected {what} before {}", self.describe(&t));
        self.error_at_len(loc, len, 0, msg);
    }

    /// Requires `p`; reports `expected 'p'` when it is missing.
    #[inline]
    pub(super) fn expect(&mut self, p: P) -> bool {
        self.eat(p) || self.missing(p)
    }

    /// `expect` when `p` is not there: reports it (false).
    #[cold]
    fn missing(&mut self, p: P) -> bool {
        let what = format!("'{}'", p.as_str());
        if matches!(p, P::Semi | P::RParen | P::RBracket) {
            self.expected_after(&what);
        } else {
            self.expected(&what);
        }
        false
    }

    /// Error recovery: skips to just after the next `;` or to the next `}` that closes the
    /// enclosing block (not consumed), keeping brackets balanced.
    pub(super) fn skip_to_semi(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                T::Eof => return,
                T::P(P::Semi) if depth == 0 => {
                    self.pos += 1;
                    return;
                }
                T::P(P::LParen | P::LBracket | P::LBrace) => depth += 1,
                T::P(P::RParen | P::RBracket) => depth = depth.saturating_sub(1),
                T::P(P::RBrace) => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        // A block ended: a statement or definition may follow.
                        self.pos += 1;
                        if self.is(P::Semi) {
                            self.pos += 1;
                        }
                        return;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// Skips to the matching `)` of an already consumed `(` (not consumed).
    pub(super) fn skip_to_rparen(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                T::Eof => return,
                T::P(P::RParen) if depth == 0 => return,
                T::P(P::Semi | P::LBrace | P::RBrace) if depth == 0 => return,
                T::P(P::LParen | P::LBracket) => depth += 1,
                T::P(P::RParen | P::RBracket) => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.pos += 1;
        }
    }

    #[inline]
    pub(super) fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.too_deep();
        }
        true
    }

    #[cold]
    fn too_deep(&mut self) -> bool {
        let t = *self.tok();
        self.error_at(t, "nesting too deep for neverc's parser");
        // Go to the end: nothing sensible can follow.
        self.pos = self.ast.tokens.len() - 1;
        false
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ----- arenas -----

    pub(super) fn add_expr(&mut self, loc: Loc, kind: ExprKind) -> ExprId {
        self.ast.exprs.push(Expr { loc, kind });
        ExprId(self.ast.exprs.len() as u32 - 1)
    }

    pub(super) fn add_stmt(&mut self, loc: Loc, kind: StmtKind) -> StmtId {
        self.ast.stmts.push(Stmt { loc, kind });
        StmtId(self.ast.stmts.len() as u32 - 1)
    }

    pub(super) fn add_decl(&mut self, loc: Loc, kind: DeclKind) -> DeclId {
        self.ast.decls.push(Decl { loc, kind });
        DeclId(self.ast.decls.len() as u32 - 1)
    }

    fn add_init(&mut self, i: Init) -> InitId {
        self.ast.inits.push(i);
        InitId(self.ast.inits.len() as u32 - 1)
    }

    // ----- scopes -----

    pub(super) fn push_scope(&mut self) {
        self.scope_starts.push(self.bindings.len() as u32);
    }

    /// Leaves the innermost scope (never the file scope): its names are forgotten and the
    /// ones they hid come back.
    pub(super) fn pop_scope(&mut self) {
        let Some(start) = self.scope_starts.pop() else {
            return;
        };
        while self.bindings.len() > start as usize {
            let b = self.bindings.pop().unwrap();
            self.names[b.name.0 as usize] = b.hidden;
        }
    }

    pub(super) fn declare(&mut self, name: Symbol, is_typedef: bool) {
        let start = self.scope_starts.last().copied().unwrap_or(0);
        let next = self.bindings.len() as u32;
        let at = name.0 as usize;
        if at >= self.names.len() {
            // Room for every symbol interned so far (most names are declared soon after).
            let n = (at + 1).max(self.pp.interner.len());
            self.names.resize(n, NO_BINDING);
        }
        let hidden = self.names[at];
        if hidden != NO_BINDING && hidden >= start {
            // Declared again in the same scope.
            self.bindings[hidden as usize].typedef = is_typedef;
            return;
        }
        self.names[at] = next;
        self.bindings.push(Binding {
            name,
            typedef: is_typedef,
            hidden,
        });
    }

    pub(super) fn is_typedef(&self, name: Symbol) -> bool {
        match self.names.get(name.0 as usize) {
            Some(&i) if i != NO_BINDING => self.bindings[i as usize].typedef,
            _ => false,
        }
    }

    // ----- classification -----

    /// Can `t` start declaration specifiers?
    pub(super) fn starts_decl(&self, t: &Tok) -> bool {
        match t.kind {
            T::Kw(k) => {
                is_type_kw(k)
                    || is_qual_kw(k)
                    || matches!(
                        k,
                        Kw::Typedef
                            | Kw::Extern
                            | Kw::Static
                            | Kw::Auto
                            | Kw::Register
                            | Kw::ThreadLocal
                            | Kw::Inline
                            | Kw::Noreturn
                            | Kw::Alignas
                            | Kw::Attribute
                            | Kw::Declspec
                            | Kw::Constexpr
                    )
            }
            T::Ident => self.is_typedef(t.sym()),
            _ => false,
        }
    }

    /// Can `t` start a type name (specifiers and qualifiers, no storage classes)?
    #[inline]
    pub(super) fn starts_type_name(&self, t: &Tok) -> bool {
        match t.kind {
            T::Kw(k) => is_type_kw(k) || is_qual_kw(k) || matches!(k, Kw::Alignas | Kw::Attribute),
            T::Ident => self.is_typedef(t.sym()),
            _ => false,
        }
    }

    // ----- translation unit -----

    pub fn translation_unit(&mut self) {
        while self.kind() != T::Eof {
            let start = self.pos;
            let d = self.external_decl();
            self.ast.items.push(d);
            if self.pos == start {
                // Never loop without progress.
                let t = *self.tok();
                if t.kind == T::P(P::RBrace) {
                    self.expected("identifier or '('");
                }
                self.pos += 1;
            }
        }
    }

    fn external_decl(&mut self) -> DeclId {
        let loc = self.loc();
        match self.kind() {
            T::P(P::Semi) => {
                self.bump();
                return self.add_decl(loc, DeclKind::Empty);
            }
            T::Kw(Kw::Asm) => {
                self.bump();
                let mut s = 0;
                if self.expect(P::LParen) {
                    s = self.string_lit();
                    self.expect(P::RParen);
                }
                if !self.expect(P::Semi) {
                    self.skip_to_semi();
                }
                return self.add_decl(loc, DeclKind::Asm(s));
            }
            T::Kw(Kw::Extension) => {
                self.bump();
                return self.external_decl();
            }
            _ => {}
        }
        self.declaration(true)
    }

    /// A string literal's index, reporting `expected string literal` if there is none.
    pub(super) fn string_lit(&mut self) -> u32 {
        if self.kind() == T::Str {
            return self.bump().lit();
        }
        self.expected("string literal");
        0
    }

    fn static_assert(&mut self) -> DeclId {
        let loc = self.bump_loc();
        let mut cond = None;
        let mut msg = None;
        if self.expect(P::LParen) {
            let c = self.cond_expr();
            cond = Some(c);
            if self.eat(P::Comma) {
                msg = Some(self.string_lit());
            } else if !self.c2x && !self.is(P::RParen) {
                self.expected("','");
            }
            if !self.expect(P::RParen) {
                self.skip_to_rparen();
                self.eat(P::RParen);
            }
        }
        if !self.expect(P::Semi) {
            self.skip_to_semi();
        }
        let cond = cond.unwrap_or_else(|| self.add_expr(loc, ExprKind::Error));
        self.add_decl(loc, DeclKind::StaticAssert { cond, msg })
    }

    /// A declaration, or at file scope (`top`) also a function definition.
    pub(super) fn declaration(&mut self, top: bool) -> DeclId {
        let loc = self.loc();
        if self.is_kw(Kw::StaticAssert) {
            return self.static_assert();
        }
        let specs_start = self.pos;
        let mut specs = self.decl_specs(true);
        let no_specs = self.pos == specs_start;
        // `foo bar;` where foo is no type: gcc's "unknown type name".
        if self.ast.specs[specs.0 as usize].ty == TypeSpec::None
            && self.kind() == T::Ident
            && matches!(self.peek(1).kind, T::Ident | T::P(P::Star))
            && !(self.peek(1).kind == T::P(P::Star) && no_specs)
        {
            let t = self.bump();
            self.unknown_type_name(t);
            let t_loc = self.tloc(&t);
            let s = &mut self.ast.specs[specs.0 as usize];
            s.ty = TypeSpec::Typedef(t.sym());
            s.ty_loc = t_loc;
            let more = self.decl_specs(true);
            let _ = more;
        }
        if no_specs && !matches!(self.kind(), T::Ident | T::P(P::Star) | T::P(P::LParen)) {
            self.expected("identifier or '('");
            self.skip_to_semi();
            return self.add_decl(loc, DeclKind::Error);
        }
        if self.eat(P::Semi) {
            return self.add_decl(
                loc,
                DeclKind::Vars {
                    specs,
                    list: Vec::new(),
                },
            );
        }
        let is_typedef = self.ast.specs[specs.0 as usize].storage == Some(Storage::Typedef);
        let mut list = Vec::new();
        loop {
            let mut decl = self.declarator(DeclMode::Named);
            let after_declarator = self.pos;
            let asm_label = self.asm_label();
            self.attributes(&mut decl.attrs);
            // Nothing (no asm label, no attributes) after the declarator.
            let bare = self.pos == after_declarator;
            let is_fn = matches!(decl.derived.first(), Some(Derived::Function { .. }));
            if list.is_empty() && is_fn && self.begins_body(&decl) {
                if let Some(name) = decl.name {
                    self.declare(name, false);
                }
                // GNU nested functions are definitions in a function's block; anywhere
                // else a body is an error.
                if !top && !self.in_function {
                    let name = decl
                        .name
                        .map_or(String::new(), |n| self.pp.interner.str(n).into_owned());
                    let t = self.ast.tokens[self.pos];
                    self.error_at_len(
                        decl.loc,
                        name.len() as u32,
                        t.expansion,
                        format!("nested function '{name}' is not supported (neverc does not implement GNU nested functions)"),
                    );
                }
                return self.function_def(loc, specs, decl, asm_label);
            }
            if let Some(name) = decl.name {
                self.declare(name, is_typedef);
            }
            let init = if self.eat(P::Assign) {
                Some(self.initializer())
            } else {
                None
            };
            list.push(InitDeclarator {
                decl,
                asm_label,
                init,
            });
            if self.eat(P::Comma) {
                continue;
            }
            if self.eat(P::Semi) {
                break;
            }
            // gcc's wording depends on what came last: right after a declarator also `=`,
            // `asm` or an attribute could follow, unless the next token starts a
            // declaration (then a `;` is missing); after an initialiser, an asm label or
            // attributes only `,` or `;`.
            let had_init = list.last().is_some_and(|d| d.init.is_some());
            if self.is(P::RBrace) || self.kind() == T::Eof {
                self.expected_after("';'");
            } else if had_init || !bare {
                self.expected("',' or ';'");
            } else if self.starts_decl(self.tok()) {
                self.expected_after_prev("';'", true);
            } else {
                self.expected("'=', ',', ';', 'asm' or '__attribute__'");
            }
            self.skip_to_semi();
            break;
        }
        // Keep the specifiers even when the list failed.
        specs = SpecsId(specs.0);
        self.add_decl(loc, DeclKind::Vars { specs, list })
    }

    /// After a function declarator: `{`, or K&R parameter declarations then `{`.
    fn begins_body(&self, decl: &Declarator) -> bool {
        if self.is(P::LBrace) {
            return true;
        }
        if let Some(Derived::Function {
            kr_names: Some(names),
            ..
        }) = decl.derived.first()
        {
            return !names.is_empty() && self.starts_decl(self.tok());
        }
        false
    }

    fn function_def(
        &mut self,
        loc: Loc,
        specs: SpecsId,
        decl: Declarator,
        asm_label: Option<u32>,
    ) -> DeclId {
        self.push_scope();
        let mut kr_decls = Vec::new();
        if let Some(Derived::Function {
            params, kr_names, ..
        }) = decl.derived.first()
        {
            let mut names: Vec<Symbol> = params.iter().filter_map(|p| p.decl.name).collect();
            if let Some(k) = kr_names {
                names.extend(k.iter().map(|(s, _)| *s));
            }
            for n in names {
                self.declare(n, false);
            }
        }
        while !self.is(P::LBrace) && self.kind() != T::Eof {
            let start = self.pos;
            if !self.starts_decl(self.tok()) {
                self.expected("'{'");
                self.skip_to_semi();
                if self.pos == start {
                    self.pos += 1;
                }
                continue;
            }
            let d = self.declaration(false);
            kr_decls.push(d);
        }
        let was = self.in_function;
        self.in_function = true;
        let body = self.compound();
        let end = self.tloc(&self.ast.tokens[self.pos.saturating_sub(1)]);
        self.in_function = was;
        self.pop_scope();
        self.add_decl(
            loc,
            DeclKind::FunctionDef {
                specs,
                decl,
                asm_label,
                kr_decls,
                body,
                end,
            },
        )
    }

    /// `__asm__("name")` after a declarator.
    fn asm_label(&mut self) -> Option<u32> {
        if !self.is_kw(Kw::Asm) {
            return None;
        }
        self.bump();
        if !self.expect(P::LParen) {
            return None;
        }
        let s = self.string_lit();
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
        Some(s)
    }

    // ----- declaration specifiers -----

    /// Declaration specifiers; `storage` allows storage classes (not in type names).
    /// Is `ts` a struct, union or enum specifier with its body (a definition)?
    fn tag_defined(&self, ts: &TypeSpec) -> bool {
        match ts {
            TypeSpec::Record(r) => self.ast.record(*r).fields.is_some(),
            TypeSpec::Enum(e) => self.ast.enum_def(*e).enumerators.is_some(),
            _ => false,
        }
    }

    pub(super) fn decl_specs(&mut self, storage: bool) -> SpecsId {
        let loc = self.loc();
        let mut s = DeclSpecs {
            loc,
            storage: None,
            thread_local: false,
            quals: 0,
            inline: false,
            noreturn: false,
            constexpr: false,
            ty: TypeSpec::None,
            ty_loc: loc,
            align: Vec::new(),
            attrs: Vec::new(),
        };
        let mut b = Basic::default();
        // A type other than the keyword combinations (typedef, struct, typeof, ...).
        let mut other: Option<TypeSpec> = None;
        loop {
            let t = *self.tok();
            let k = match t.kind {
                T::Kw(k) => k,
                T::Ident => {
                    if other.is_none() && !b.any() && self.is_typedef(t.sym()) {
                        self.bump();
                        other = Some(TypeSpec::Typedef(t.sym()));
                        s.ty_loc = self.tloc(&t);
                        continue;
                    }
                    break;
                }
                T::P(P::LBracket) if self.c2x && self.peek(1).kind == T::P(P::LBracket) => {
                    self.std_attributes(&mut s.attrs);
                    continue;
                }
                _ => break,
            };
            let st = match k {
                Kw::Typedef => Some(Storage::Typedef),
                Kw::Extern => Some(Storage::Extern),
                Kw::Static => Some(Storage::Static),
                Kw::Auto => Some(Storage::Auto),
                Kw::Register => Some(Storage::Register),
                _ => None,
            };
            if let Some(st) = st {
                if !storage {
                    break;
                }
                self.bump();
                if let Some(old) = s.storage {
                    if old == st {
                        self.error_at(t, format!("duplicate '{}'", k.as_str()));
                    } else {
                        // gcc places this one at the start of the specifiers.
                        self.error_at_len(
                            loc,
                            self.ast.tok_len(&t, &self.pp.interner),
                            t.expansion,
                            "multiple storage classes in declaration specifiers",
                        );
                    }
                } else {
                    s.storage = Some(st);
                }
                continue;
            }
            match k {
                Kw::ThreadLocal if storage => {
                    self.bump();
                    s.thread_local = true;
                }
                Kw::Const => {
                    self.bump();
                    s.quals |= qual::CONST;
                }
                Kw::Volatile => {
                    self.bump();
                    s.quals |= qual::VOLATILE;
                }
                Kw::Restrict => {
                    self.bump();
                    s.quals |= qual::RESTRICT;
                }
                Kw::Atomic if self.peek(1).kind != T::P(P::LParen) => {
                    self.bump();
                    s.quals |= qual::ATOMIC;
                }
                Kw::Inline => {
                    self.bump();
                    s.inline = true;
                }
                Kw::Noreturn => {
                    self.bump();
                    s.noreturn = true;
                }
                Kw::Constexpr => {
                    self.bump();
                    s.constexpr = true;
                }
                Kw::Extension => {
                    self.bump();
                }
                Kw::Attribute | Kw::Declspec => self.attributes(&mut s.attrs),
                Kw::Alignas => {
                    self.bump();
                    if self.expect(P::LParen) {
                        let a = if self.starts_type_name(self.tok()) {
                            AlignSpec::Type(self.type_name())
                        } else {
                            AlignSpec::Expr(self.cond_expr())
                        };
                        s.align.push(a);
                        if !self.expect(P::RParen) {
                            self.skip_to_rparen();
                            self.eat(P::RParen);
                        }
                    }
                }
                // glibc, seeing a gcc older than 7, declares `typedef float _Float32;`:
                // after a type, such a keyword is the declarator's name.
                _ if is_float_n(k)
                    && s.storage == Some(Storage::Typedef)
                    && (other.is_some() || b.any()) =>
                {
                    break
                }
                // After a struct, union or enum definition a type keyword starts nothing
                // gcc accepts: its error, and the declaration ends at its `;`.
                _ if is_type_kw(k)
                    && k != Kw::Atomic
                    && other.as_ref().is_some_and(|o| self.tag_defined(o)) =>
                {
                    self.expected("';', identifier or '('");
                    self.skip_to_semi();
                    if self.pos > 0 && self.ast.tokens[self.pos - 1].kind == T::P(P::Semi) {
                        // The `;` is left to end the declaration.
                        self.pos -= 1;
                    }
                    break;
                }
                _ if is_type_kw(k) => {
                    let ts = match k {
                        Kw::Struct
                        | Kw::Union
                        | Kw::Enum
                        | Kw::Typeof
                        | Kw::TypeofUnqual
                        | Kw::Atomic
                        | Kw::AutoType => Some(self.special_type(k)),
                        _ => {
                            self.bump();
                            None
                        }
                    };
                    if other.is_some() || (ts.is_some() && b.any()) {
                        self.error_at(t, "two or more data types in declaration specifiers");
                        continue;
                    }
                    if let Some(ts) = ts {
                        other = Some(ts);
                        s.ty_loc = self.tloc(&t);
                        continue;
                    }
                    if !b.any() {
                        // The first keyword: alone it is always valid (the usual case).
                        b.add(k);
                        s.ty_loc = self.tloc(&t);
                        continue;
                    }
                    let before = b;
                    b.add(k);
                    if before.special.is_some() && b.special != before.special {
                        b.special = Some(TypeSpec::Void); // force the check below to fail
                        b.void = 1;
                    }
                    if !b.valid() {
                        let msg = if b.signed > 0 && b.unsigned > 0 {
                            "both 'signed' and 'unsigned' in declaration specifiers".to_string()
                        } else if b.long > 2 {
                            "'long long long' is too long for GCC".to_string()
                        } else if b.short > 0 && b.long > 0 {
                            "both 'long' and 'short' in declaration specifiers".to_string()
                        } else if b.short > 1 || b.signed > 1 || b.unsigned > 1 || b.complex > 1 {
                            format!("duplicate '{}'", k.as_str())
                        } else if let Some((m, base)) = before.modifier_conflict(k) {
                            format!("both '{m}' and '{base}' in declaration specifiers")
                        } else {
                            "two or more data types in declaration specifiers".to_string()
                        };
                        self.error_at(t, msg);
                        b = before;
                    } else if b.long > 2 {
                        self.error_at(t, "'long long long' is too long for GCC");
                        b = before;
                    }
                }
                _ => break,
            }
        }
        s.ty = match other {
            Some(o) => o,
            None => b.resolve(),
        };
        self.ast.specs.push(s);
        SpecsId(self.ast.specs.len() as u32 - 1)
    }

    /// struct/union/enum specifiers, `typeof`, `_Atomic(type)`, `__auto_type`.
    fn special_type(&mut self, k: Kw) -> TypeSpec {
        match k {
            Kw::Struct | Kw::Union => TypeSpec::Record(self.record(k)),
            Kw::Enum => TypeSpec::Enum(self.enum_spec()),
            Kw::AutoType => {
                self.bump();
                TypeSpec::AutoType
            }
            Kw::Atomic => {
                let loc = self.bump_loc();
                self.bump();
                let tn = self.type_name();
                if !self.expect(P::RParen) {
                    self.skip_to_rparen();
                    self.eat(P::RParen);
                }
                let _ = loc;
                TypeSpec::Atomic(tn)
            }
            _ => {
                // typeof / __typeof__ / typeof_unqual
                let unqual = k == Kw::TypeofUnqual;
                let loc = self.bump_loc();
                if !self.expect(P::LParen) {
                    let e = self.add_expr(loc, ExprKind::Error);
                    return TypeSpec::TypeofExpr(e, unqual);
                }
                let r = if self.starts_type_name(self.tok()) {
                    TypeSpec::TypeofType(self.type_name(), unqual)
                } else {
                    TypeSpec::TypeofExpr(self.expr(), unqual)
                };
                if !self.expect(P::RParen) {
                    self.skip_to_rparen();
                    self.eat(P::RParen);
                }
                r
            }
        }
    }

    fn record(&mut self, k: Kw) -> RecordId {
        let loc = self.bump_loc();
        let kind = if k == Kw::Struct {
            RecordKind::Struct
        } else {
            RecordKind::Union
        };
        let mut attrs = Vec::new();
        self.attributes(&mut attrs);
        let name = if self.kind() == T::Ident {
            Some(self.bump().sym())
        } else {
            None
        };
        let mut fields = None;
        if self.is(P::LBrace) {
            self.bump();
            let mut v = Vec::new();
            while !self.is(P::RBrace) && self.kind() != T::Eof {
                let start = self.pos;
                self.field(&mut v);
                if self.pos == start {
                    self.pos += 1;
                }
            }
            self.expect(P::RBrace);
            self.attributes(&mut attrs);
            fields = Some(v);
        } else if name.is_none() {
            self.expected("'{'");
        }
        self.ast.records.push(Record {
            kind,
            name,
            loc,
            fields,
            attrs,
        });
        RecordId(self.ast.records.len() as u32 - 1)
    }

    fn field(&mut self, out: &mut Vec<Field>) {
        let loc = self.loc();
        if self.is(P::Semi) {
            // gcc: a pedantic warning only.
            self.bump();
            return;
        }
        if self.is_kw(Kw::StaticAssert) {
            let d = self.static_assert();
            out.push(Field::StaticAssert(d));
            return;
        }
        let start = self.pos;
        let specs = self.decl_specs(false);
        if self.pos == start {
            self.expected("specifier-qualifier-list");
            self.skip_to_semi();
            return;
        }
        let mut list = Vec::new();
        if !self.is(P::Semi) && !self.is(P::RBrace) {
            loop {
                let mut decl = if self.is(P::Colon) {
                    None
                } else {
                    Some(self.declarator(DeclMode::Named))
                };
                let bits = if self.eat(P::Colon) {
                    Some(self.cond_expr())
                } else {
                    None
                };
                if let Some(d) = decl.as_mut() {
                    self.attributes(&mut d.attrs);
                } else {
                    // An unnamed bit-field's attributes (`int : 4 __attribute__((packed))`)
                    // change its layout: keep them on an abstract declarator.
                    let loc = self.loc();
                    let mut a = Vec::new();
                    self.attributes(&mut a);
                    if !a.is_empty() {
                        decl = Some(Declarator {
                            name: None,
                            loc,
                            derived: Vec::new(),
                            attrs: a,
                        });
                    }
                }
                list.push(FieldDeclarator { decl, bits });
                if !self.eat(P::Comma) {
                    break;
                }
            }
        }
        out.push(Field::Members { specs, list, loc });
        if self.eat(P::Semi) {
            return;
        }
        if self.is(P::RBrace) {
            let t = *self.tok();
            self.warn_at(t, "no semicolon at end of struct or union", None);
            return;
        }
        self.expected("';', identifier or '('");
        self.skip_to_semi();
    }

    fn enum_spec(&mut self) -> EnumId {
        let loc = self.bump_loc();
        let mut attrs = Vec::new();
        self.attributes(&mut attrs);
        let name = if self.kind() == T::Ident {
            Some(self.bump().sym())
        } else {
            None
        };
        let mut fixed = None;
        if self.c2x && self.is(P::Colon) && self.starts_type_name(self.peek(1)) {
            self.bump();
            fixed = Some(self.type_name());
        }
        let mut enumerators = None;
        if self.eat(P::LBrace) {
            let mut v = Vec::new();
            while self.kind() == T::Ident {
                let t = self.bump();
                let mut a = Vec::new();
                self.attributes(&mut a);
                let value = if self.eat(P::Assign) {
                    Some(self.cond_expr())
                } else {
                    None
                };
                self.declare(t.sym(), false);
                v.push(Enumerator {
                    name: t.sym(),
                    loc: self.tloc(&t),
                    value,
                    attrs: a,
                });
                if !self.eat(P::Comma) {
                    break;
                }
            }
            if !self.is(P::RBrace) {
                if v.is_empty() || self.ast.tokens[self.pos - 1].kind == T::P(P::Comma) {
                    self.expected("identifier");
                } else {
                    self.expected("',' or '}'");
                }
                while !self.is(P::RBrace) && !self.is(P::Semi) && self.kind() != T::Eof {
                    self.pos += 1;
                }
            }
            self.eat(P::RBrace);
            self.attributes(&mut attrs);
            enumerators = Some(v);
        } else if name.is_none() {
            self.expected("'{'");
        }
        self.ast.enums.push(EnumDef {
            name,
            loc,
            fixed,
            enumerators,
            attrs,
        });
        EnumId(self.ast.enums.len() as u32 - 1)
    }

    // ----- attributes -----

    /// Any run of `__attribute__((...))`, `__declspec(...)` and (C2x) `[[...]]`.
    #[inline]
    pub(super) fn attributes(&mut self, out: &mut Vec<Attr>) {
        // Inline so that the usual case, no attribute, is one test where it is asked.
        if matches!(
            self.kind(),
            T::Kw(Kw::Attribute | Kw::Declspec) | T::P(P::LBracket)
        ) {
            self.attribute_run(out)
        }
    }

    fn attribute_run(&mut self, out: &mut Vec<Attr>) {
        loop {
            match self.kind() {
                T::Kw(Kw::Attribute) => self.gnu_attribute(out),
                T::Kw(Kw::Declspec) => self.declspec(out),
                T::P(P::LBracket) if self.c2x && self.peek(1).kind == T::P(P::LBracket) => {
                    self.std_attributes(out)
                }
                _ => return,
            }
        }
    }

    /// An attribute name and its optional argument tokens.
    fn attr_item(&mut self, syntax: AttrSyntax, out: &mut Vec<Attr>) -> bool {
        let t = *self.tok();
        if !matches!(t.kind, T::Ident | T::Kw(_)) {
            return false;
        }
        self.bump();
        let mut syntax = syntax;
        let mut name = t.sym();
        let mut loc = self.tloc(&t);
        if matches!(syntax, AttrSyntax::Std(_))
            && self.is(P::Colon)
            && self.peek(1).kind == T::P(P::Colon)
        {
            self.pos += 2;
            let n = *self.tok();
            if matches!(n.kind, T::Ident | T::Kw(_)) {
                self.bump();
                syntax = AttrSyntax::Std(Some(t.sym()));
                name = n.sym();
                loc = self.tloc(&n);
            }
        }
        let mut args = None;
        if self.eat(P::LParen) {
            let start = self.pos as u32;
            let mut depth = 0usize;
            loop {
                match self.kind() {
                    T::Eof => break,
                    T::P(P::LParen) => depth += 1,
                    T::P(P::RParen) => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
                self.pos += 1;
            }
            args = Some((start, self.pos as u32));
            self.expect(P::RParen);
        }
        out.push(Attr {
            name,
            loc,
            syntax,
            args,
        });
        true
    }

    fn gnu_attribute(&mut self, out: &mut Vec<Attr>) {
        self.bump();
        if !self.expect(P::LParen) {
            return;
        }
        if !self.expect(P::LParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
            return;
        }
        loop {
            if self.is(P::RParen) {
                break;
            }
            if self.eat(P::Comma) {
                continue;
            }
            if !self.attr_item(AttrSyntax::Gnu, out) {
                self.expected("')'");
                self.skip_to_rparen();
                break;
            }
            if !self.eat(P::Comma) {
                break;
            }
        }
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
    }

    fn declspec(&mut self, out: &mut Vec<Attr>) {
        self.bump();
        if !self.expect(P::LParen) {
            return;
        }
        while !self.is(P::RParen) && self.kind() != T::Eof {
            if self.eat(P::Comma) {
                continue;
            }
            if !self.attr_item(AttrSyntax::Declspec, out) {
                self.expected("')'");
                self.skip_to_rparen();
                break;
            }
        }
        self.expect(P::RParen);
    }

    fn std_attributes(&mut self, out: &mut Vec<Attr>) {
        self.pos += 2;
        loop {
            if self.is(P::RBracket) {
                break;
            }
            if self.eat(P::Comma) {
                continue;
            }
            if !self.attr_item(AttrSyntax::Std(None), out) {
                self.expected("']'");
                while !self.is(P::RBracket) && self.kind() != T::Eof {
                    self.pos += 1;
                }
                break;
            }
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RBracket);
        self.expect(P::RBracket);
    }

    // ----- declarators -----

    /// Type qualifiers and attributes after `*`.
    fn pointer_quals(&mut self, attrs: &mut Vec<Attr>) -> u8 {
        let mut q = 0;
        loop {
            match self.kind() {
                T::Kw(Kw::Const) => q |= qual::CONST,
                T::Kw(Kw::Volatile) => q |= qual::VOLATILE,
                T::Kw(Kw::Restrict) => q |= qual::RESTRICT,
                T::Kw(Kw::Atomic) if self.peek(1).kind != T::P(P::LParen) => q |= qual::ATOMIC,
                T::Kw(Kw::Attribute | Kw::Declspec) => {
                    self.attributes(attrs);
                    continue;
                }
                T::Kw(Kw::Extension) => {}
                _ => return q,
            }
            self.pos += 1;
        }
    }

    pub(super) fn declarator(&mut self, mode: DeclMode) -> Declarator {
        if !self.enter() {
            return Declarator {
                name: None,
                loc: self.loc(),
                derived: Vec::new(),
                attrs: Vec::new(),
            };
        }
        let d = self.declarator_inner(mode);
        self.leave();
        d
    }

    fn declarator_inner(&mut self, mode: DeclMode) -> Declarator {
        let mut ptrs = Vec::new();
        let mut attrs = Vec::new();
        self.attributes(&mut attrs);
        while self.eat(P::Star) {
            let mut a = Vec::new();
            let quals = self.pointer_quals(&mut a);
            ptrs.push(Derived::Pointer { quals, attrs: a });
        }
        let t = *self.tok();
        let mut d = Declarator {
            name: None,
            loc: self.tloc(&t),
            derived: Vec::new(),
            attrs,
        };
        match t.kind {
            T::Kw(k) if is_float_n(k) && mode != DeclMode::Abstract => {
                self.bump();
                d.name = Some(t.sym());
            }
            T::Ident if mode != DeclMode::Abstract => {
                self.bump();
                d.name = Some(t.sym());
            }
            T::P(P::LParen) if self.nested_declarator(mode) => {
                self.bump();
                let mut i = self.declarator(mode);
                self.attributes(&mut i.attrs);
                if !self.expect(P::RParen) {
                    self.skip_to_rparen();
                    self.eat(P::RParen);
                }
                d.name = i.name;
                d.loc = i.loc;
                d.derived = i.derived;
                d.attrs.extend(i.attrs);
            }
            _ => {
                if mode == DeclMode::Named {
                    self.expected("identifier or '('");
                }
            }
        }
        // The derivations read inside out: the nested declarator's, the suffixes, then
        // the pointers from the last.
        loop {
            if self.is(P::LBracket) && !(self.c2x && self.peek(1).kind == T::P(P::LBracket)) {
                let a = self.array_suffix();
                d.derived.push(a);
            } else if self.is(P::LParen) {
                let f = self.function_suffix();
                d.derived.push(f);
            } else {
                break;
            }
        }
        if !ptrs.is_empty() {
            d.derived.extend(ptrs.into_iter().rev());
        }
        d
    }

    /// At `(` in a declarator: is it a parenthesised declarator rather than parameters?
    fn nested_declarator(&self, mode: DeclMode) -> bool {
        let n = self.peek(1);
        match mode {
            DeclMode::Named => true,
            _ => match n.kind {
                T::P(P::Star | P::LParen) => true,
                T::P(P::LBracket) => !(self.c2x && self.peek(2).kind == T::P(P::LBracket)),
                T::Kw(Kw::Attribute | Kw::Declspec) => {
                    // `(__attribute__((x)) *p)` vs `(__attribute__((x)) int)`: look past it.
                    let mut i = self.pos + 1;
                    let toks = &self.ast.tokens;
                    while i < toks.len()
                        && matches!(toks[i].kind, T::Kw(Kw::Attribute | Kw::Declspec))
                    {
                        i += 1;
                        let mut depth = 0usize;
                        while i < toks.len() {
                            match toks[i].kind {
                                T::P(P::LParen) => depth += 1,
                                T::P(P::RParen) => {
                                    depth -= 1;
                                    if depth == 0 {
                                        i += 1;
                                        break;
                                    }
                                }
                                T::Eof => return false,
                                _ => {}
                            }
                            i += 1;
                        }
                    }
                    let t = &toks[i.min(toks.len() - 1)];
                    matches!(t.kind, T::P(P::Star | P::LParen))
                        || (mode == DeclMode::Either
                            && t.kind == T::Ident
                            && !self.is_typedef(t.sym()))
                }
                T::Ident => mode == DeclMode::Either && !self.is_typedef(n.sym()),
                _ => false,
            },
        }
    }

    fn array_suffix(&mut self) -> Derived {
        let loc = self.bump_loc();
        let mut is_static = self.eat_kw(Kw::Static);
        let mut quals = 0;
        loop {
            match self.kind() {
                T::Kw(Kw::Const) => quals |= qual::CONST,
                T::Kw(Kw::Volatile) => quals |= qual::VOLATILE,
                T::Kw(Kw::Restrict) => quals |= qual::RESTRICT,
                T::Kw(Kw::Atomic) => quals |= qual::ATOMIC,
                T::Kw(Kw::Static) => is_static = true,
                _ => break,
            }
            self.pos += 1;
        }
        let mut star = false;
        let size = if self.is(P::RBracket) {
            None
        } else if self.is(P::Star) && self.peek(1).kind == T::P(P::RBracket) {
            self.bump();
            star = true;
            None
        } else {
            Some(self.assign_expr())
        };
        if !self.expect(P::RBracket) {
            while !self.is(P::RBracket) && !self.is(P::Semi) && self.kind() != T::Eof {
                self.pos += 1;
            }
            self.eat(P::RBracket);
        }
        Derived::Array {
            size,
            star,
            is_static,
            quals,
            loc,
        }
    }

    fn function_suffix(&mut self) -> Derived {
        let loc = self.bump_loc();
        let mut params = Vec::new();
        let mut variadic = false;
        let mut kr_names = None;
        if self.eat(P::RParen) {
            return Derived::Function {
                params,
                variadic,
                kr_names: Some(Vec::new()),
                loc,
            };
        }
        if self.kind() == T::Ident
            && !self.is_typedef(self.tok().sym())
            && matches!(self.peek(1).kind, T::P(P::Comma | P::RParen))
        {
            let mut names = Vec::new();
            loop {
                if self.kind() != T::Ident {
                    self.expected("identifier");
                    break;
                }
                let t = self.bump();
                names.push((t.sym(), self.tloc(&t)));
                if !self.eat(P::Comma) {
                    break;
                }
            }
            kr_names = Some(names);
        } else {
            self.push_scope();
            loop {
                if self.eat(P::Ellipsis) {
                    variadic = true;
                    break;
                }
                let ploc = self.loc();
                if !self.starts_decl(self.tok()) {
                    if self.kind() == T::Ident {
                        let t = *self.tok();
                        self.unknown_type_name(t);
                        // Take it as a type and go on.
                        self.declare(t.sym(), true);
                    } else {
                        self.expected("declaration specifiers or '...'");
                        break;
                    }
                }
                let specs = self.decl_specs(true);
                let mut decl = self.declarator(DeclMode::Either);
                self.attributes(&mut decl.attrs);
                if let Some(n) = decl.name {
                    self.declare(n, false);
                }
                params.push(Param {
                    specs,
                    decl,
                    loc: ploc,
                });
                if !self.eat(P::Comma) {
                    break;
                }
            }
            self.pop_scope();
        }
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
        Derived::Function {
            params,
            variadic,
            kr_names,
            loc,
        }
    }

    /// A type name: specifiers and an abstract declarator.
    pub(super) fn type_name(&mut self) -> TypeNameId {
        let loc = self.loc();
        let specs = self.decl_specs(false);
        let mut decl = self.declarator(DeclMode::Abstract);
        self.attributes(&mut decl.attrs);
        self.ast.type_names.push(TypeName { specs, decl, loc });
        TypeNameId(self.ast.type_names.len() as u32 - 1)
    }

    // ----- initialisers -----

    pub(super) fn initializer(&mut self) -> InitId {
        if !self.is(P::LBrace) {
            let e = self.assign_expr();
            return self.add_init(Init::Expr(e));
        }
        if !self.enter() {
            return self.add_init(Init::List {
                loc: self.loc(),
                items: Vec::new(),
            });
        }
        let loc = self.bump_loc();
        let mut items = Vec::new();
        while !self.is(P::RBrace) && self.kind() != T::Eof {
            let start = self.pos;
            let mut designators = Vec::new();
            if self.kind() == T::Ident && self.peek(1).kind == T::P(P::Colon) {
                // GNU obsolete `field: value`.
                let t = self.bump();
                self.bump();
                designators.push(Designator::Field(t.sym(), self.tloc(&t)));
            } else {
                loop {
                    if self.eat(P::Dot) {
                        if self.kind() == T::Ident {
                            let t = self.bump();
                            designators.push(Designator::Field(t.sym(), self.tloc(&t)));
                        } else {
                            self.expected("identifier");
                            break;
                        }
                    } else if self.is(P::LBracket) {
                        self.bump();
                        let lo = self.cond_expr();
                        if self.eat(P::Ellipsis) {
                            let hi = self.cond_expr();
                            designators.push(Designator::Range(lo, hi));
                        } else {
                            designators.push(Designator::Index(lo));
                        }
                        self.expect(P::RBracket);
                    } else {
                        break;
                    }
                }
                // `=` may be omitted after one array designator (obsolete GNU).
                if !designators.is_empty() && !self.eat(P::Assign) {
                    let single_index =
                        designators.len() == 1 && !matches!(designators[0], Designator::Field(..));
                    if !single_index {
                        self.expected("'='");
                    }
                }
            }
            let init = self.initializer();
            items.push(InitItem { designators, init });
            if self.eat(P::Comma) {
                continue;
            }
            if !self.is(P::RBrace) {
                self.expected("'}'");
                // Skip to the end of the list.
                let mut depth = 0usize;
                while self.kind() != T::Eof {
                    match self.kind() {
                        T::P(P::LBrace) => depth += 1,
                        T::P(P::RBrace) if depth == 0 => break,
                        T::P(P::RBrace) => depth -= 1,
                        T::P(P::Semi) if depth == 0 => break,
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            if self.pos == start {
                break;
            }
        }
        self.eat(P::RBrace);
        self.leave();
        self.add_init(Init::List { loc, items })
    }
}

/// Keywords that are type specifiers.
pub(super) fn is_type_kw(k: Kw) -> bool {
    matches!(
        k,
        Kw::Void
            | Kw::Char
            | Kw::Short
            | Kw::Int
            | Kw::Long
            | Kw::Float
            | Kw::Double
            | Kw::Signed
            | Kw::Unsigned
            | Kw::Bool
            | Kw::Complex
            | Kw::Imaginary
            | Kw::Struct
            | Kw::Union
            | Kw::Enum
            | Kw::Typeof
            | Kw::TypeofUnqual
            | Kw::Int128
            | Kw::AutoType
            | Kw::Float16
            | Kw::Float32
            | Kw::Float64
            | Kw::Float128
            | Kw::Float32x
            | Kw::Float64x
            | Kw::GnuFloat128
            | Kw::Float80
            | Kw::Decimal32
            | Kw::Decimal64
            | Kw::Decimal128
            | Kw::Atomic
    )
}

pub(super) fn is_qual_kw(k: Kw) -> bool {
    matches!(k, Kw::Const | Kw::Volatile | Kw::Restrict | Kw::Atomic)
}

/// `_FloatN`/`_FloatNx`: keywords that old glibc headers also declare as typedef names.
fn is_float_n(k: Kw) -> bool {
    matches!(
        k,
        Kw::Float16 | Kw::Float32 | Kw::Float64 | Kw::Float128 | Kw::Float32x | Kw::Float64x
    )
}
