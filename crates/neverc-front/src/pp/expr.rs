//! `#if` expressions (C17 6.10.1): `defined`, `__has_include` and friends, then integer
//! arithmetic in `intmax_t`/`uintmax_t` with gcc's diagnostics. Also the values of the
//! built-in macros (`__LINE__`, `_Pragma`, ...).

use super::macros::{Builtin, Context, Expanded};
use super::Preprocessor;
use crate::diag::Diagnostic;
use crate::lex::{self, p};
use crate::source::Loc;
use crate::token::{flags, Symbol, TokKind, Token};

/// A value of a `#if` expression: 64 bits and whether they are unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Val {
    pub v: u64,
    pub unsigned: bool,
}

impl Val {
    fn signed(v: i64) -> Val {
        Val {
            v: v as u64,
            unsigned: false,
        }
    }
    fn truth(b: bool) -> Val {
        Val {
            v: b as u64,
            unsigned: false,
        }
    }
    fn is_true(self) -> bool {
        self.v != 0
    }
}

impl Preprocessor {
    /// Evaluates the rest of an `#if`/`#elif` line. Errors make it false.
    pub(super) fn eval_if_line(&mut self, dname: Token) -> bool {
        let raw = self.read_line_raw();
        self.if_not_defined_guard = self.guard_pattern(&raw);
        if raw.is_empty() {
            // gcc points where the expression should be: the end of the line.
            let w = self.interner.str(dname.sym).into_owned();
            let at = self.last_eod;
            self.report(Diagnostic::error(at, format!("#{w} with no expression")));
            return false;
        }
        let Some(toks) = self.expand_if_tokens(raw) else {
            return false;
        };
        let end_loc = self.last_eod;
        let mut ev = Eval {
            pp: self,
            toks: &toks,
            pos: 0,
            skip: 0,
            failed: false,
            end_loc,
        };
        let v = ev.expr(0);
        let (failed, pos) = (ev.failed, ev.pos);
        let rest = toks.get(pos).copied();
        self.give_buf(toks);
        if failed {
            return false;
        }
        if let Some(t) = rest {
            let msg = if t.kind == TokKind::Punct && t.sym == p::RPAREN {
                "missing '(' in expression".to_string()
            } else {
                format!(
                    "missing binary operator before token \"{}\"",
                    self.interner.str(t.sym)
                )
            };
            let len = self.interner.get(t.sym).len() as u32;
            self.report(
                Diagnostic::error(t.loc, msg)
                    .with_len(len)
                    .in_expansion(t.expansion),
            );
            return false;
        }
        v.is_some_and(Val::is_true)
    }

    /// `!defined X` or `!defined(X)` as the whole line: a possible include guard.
    fn guard_pattern(&self, raw: &[Token]) -> Option<Symbol> {
        let is = |i: usize, s: &[u8]| self.interner.get(raw[i].sym) == s;
        match raw.len() {
            3 if is(0, b"!") && is(1, b"defined") && raw[2].kind == TokKind::Ident => {
                Some(raw[2].sym)
            }
            5 if is(0, b"!")
                && is(1, b"defined")
                && is(2, b"(")
                && is(4, b")")
                && raw[3].kind == TokKind::Ident =>
            {
                Some(raw[3].sym)
            }
            _ => None,
        }
    }

    /// Macro-expands a `#if` line, replacing `defined X` and the `__has_*` operators by
    /// their values first.
    fn expand_if_tokens(&mut self, raw: Vec<Token>) -> Option<Vec<Token>> {
        let base = self.contexts.len();
        let mut toks = raw;
        let end = Token::new(TokKind::Placemarker, Symbol(0), Loc::default());
        toks.push(end);
        self.contexts.push(Context {
            tokens: toks,
            pos: 0,
            macro_sym: None,
        });
        self.in_if = true;
        let mut out = self.take_buf();
        let mut ok = true;
        loop {
            let t = self.next_raw();
            if t.kind == TokKind::Placemarker || t.kind == TokKind::Eof || t.kind == TokKind::Eod {
                break;
            }
            if t.kind == TokKind::Ident && t.sym == self.sym_defined {
                match self.read_defined(t) {
                    Some(v) => out.push(self.number_token(v as u64, t)),
                    None => {
                        ok = false;
                        break;
                    }
                }
                continue;
            }
            if t.kind == TokKind::Ident && !t.has(flags::NO_EXPAND) {
                match self.try_expand(t) {
                    Expanded::No(t) => out.push(t),
                    Expanded::Yes { .. } => {}
                }
                continue;
            }
            out.push(t);
        }
        self.in_if = false;
        while self.contexts.len() > base {
            self.pop_context();
        }
        if !ok {
            self.give_buf(out);
            return None;
        }
        Some(out)
    }

    /// After `defined`: `X` or `(X)`. Returns whether X is a macro.
    fn read_defined(&mut self, def: Token) -> Option<bool> {
        let mut t = self.next_raw();
        let paren = t.kind == TokKind::Punct && t.sym == p::LPAREN;
        if paren {
            t = self.next_raw();
        }
        if t.kind != TokKind::Ident {
            let at = if t.kind == TokKind::Placemarker {
                self.last_eod
            } else {
                t.loc
            };
            self.report(Diagnostic::error(
                at,
                "operator \"defined\" requires an identifier",
            ));
            if t.kind == TokKind::Placemarker {
                self.push_back(t);
            }
            return None;
        }
        if paren {
            let close = self.next_raw();
            if !(close.kind == TokKind::Punct && close.sym == p::RPAREN) {
                self.report(
                    Diagnostic::error(def.loc, "missing ')' after \"defined\"").with_len(7),
                );
                if close.kind == TokKind::Placemarker {
                    self.push_back(close);
                }
                return None;
            }
        }
        if def.expansion != 0 {
            self.report(
                Diagnostic::warning(def.loc, "this use of \"defined\" may not be portable")
                    .with_len(7)
                    .with_option("expansion-to-defined")
                    .in_expansion(def.expansion),
            );
        }
        let defined = self.macros.contains_key(&t.sym);
        if let Some(m) = self.macros.get_mut(&t.sym) {
            m.used = true;
        }
        Some(defined)
    }

    fn number_token(&mut self, v: u64, at: Token) -> Token {
        // (`defined` and the `__has_*` operators mostly give 0 or 1.)
        let sym = match v {
            0 => self.interner.intern(b"0"),
            1 => self.interner.intern(b"1"),
            _ => self.interner.intern(v.to_string().as_bytes()),
        };
        let mut t = Token::new(TokKind::Number, sym, at.loc);
        t.flags = at.flags & flags::PREV_WHITE;
        t.expansion = at.expansion;
        t
    }

    /// Reads `( tokens )` after a `__has_*` operator name, unexpanded.
    fn read_paren_operand(&mut self, op: Token) -> Option<Vec<Token>> {
        let name = self.interner.str(op.sym).into_owned();
        let open = self.next_raw();
        if !(open.kind == TokKind::Punct && open.sym == p::LPAREN) {
            self.report(
                Diagnostic::error(op.loc, format!("missing '(' after \"{name}\""))
                    .with_len(name.len() as u32),
            );
            self.push_back(open);
            return None;
        }
        let mut depth = 0;
        let mut out = Vec::new();
        loop {
            let t = self.next_raw();
            match t.kind {
                TokKind::Placemarker | TokKind::Eod | TokKind::Eof => {
                    self.report(
                        Diagnostic::error(op.loc, format!("missing ')' after \"{name}\" operand"))
                            .with_len(name.len() as u32),
                    );
                    self.push_back(t);
                    return None;
                }
                TokKind::Punct if t.sym == p::LPAREN => depth += 1,
                TokKind::Punct if t.sym == p::RPAREN => {
                    if depth == 0 {
                        return Some(out);
                    }
                    depth -= 1;
                }
                _ => {}
            }
            out.push(t);
        }
    }

    /// Expands a built-in macro at `tok`.
    pub(super) fn expand_builtin(&mut self, b: Builtin, tok: Token) -> Expanded {
        let text: String = match b {
            Builtin::File | Builtin::BaseFile | Builtin::FileName => {
                let name = match b {
                    Builtin::BaseFile => self.base_file.clone(),
                    _ => {
                        let loc = self.expansion_point(tok);
                        let f = self.sm.file(loc.file);
                        let (_, n) = f.presumed(loc.offset);
                        if b == Builtin::FileName {
                            n.rsplit('/').next().unwrap_or(n).to_string()
                        } else {
                            n.to_string()
                        }
                    }
                };
                quote_string(&name)
            }
            Builtin::Line => {
                let loc = self.expansion_point(tok);
                let (line, _) = self.sm.file(loc.file).presumed(loc.offset);
                line.to_string()
            }
            Builtin::Counter => {
                let c = self.counter;
                self.counter += 1;
                c.to_string()
            }
            Builtin::IncludeLevel => (self.frames.len().saturating_sub(1)).to_string(),
            Builtin::Date | Builtin::Time | Builtin::Timestamp => {
                let (date, time) = self.date_time();
                match b {
                    Builtin::Date => date,
                    Builtin::Time => time,
                    _ => "\"??? ??? ?? ??:??:?? ????\"".to_string(),
                }
            }
            Builtin::Pragma => {
                self.do_pragma_operator(tok);
                return Expanded::Yes { was_bol: false };
            }
            Builtin::HasInclude | Builtin::HasIncludeNext => {
                if !self.in_if {
                    let n = self.interner.str(tok.sym).into_owned();
                    self.report(
                        Diagnostic::error(
                            tok.loc,
                            format!("\"{n}\" used outside of preprocessing directive"),
                        )
                        .with_len(n.len() as u32),
                    );
                    return Expanded::No(tok);
                }
                let Some(operand) = self.read_paren_operand(tok) else {
                    return Expanded::No(self.number_token(0, tok));
                };
                let spec = self.header_spec(operand, "__has_include");
                let found =
                    spec.is_some_and(|s| self.header_exists(&s, b == Builtin::HasIncludeNext));
                let t = self.number_token(found as u64, tok);
                self.push_result(t);
                return Expanded::Yes { was_bol: false };
            }
            Builtin::HasAttribute | Builtin::HasCAttribute | Builtin::HasBuiltin => {
                let Some(operand) = self.read_paren_operand(tok) else {
                    return Expanded::No(self.number_token(0, tok));
                };
                let value = self.has_feature(b, &operand);
                let t = self.number_token(value as u64, tok);
                self.push_result(t);
                return Expanded::Yes { was_bol: false };
            }
        };
        let kind = if text.starts_with('"') {
            TokKind::Str
        } else {
            TokKind::Number
        };
        let sym = self.interner.intern(text.as_bytes());
        let mut t = Token::new(kind, sym, tok.loc);
        t.flags = tok.flags & (flags::PREV_WHITE | flags::BOL);
        t.expansion = tok.expansion;
        Expanded::No(t)
    }

    fn push_result(&mut self, t: Token) {
        self.contexts.push(Context {
            tokens: vec![t],
            pos: 0,
            macro_sym: None,
        });
    }

    /// `__has_attribute(x)`, `__has_c_attribute(x)`, `__has_builtin(x)`.
    fn has_feature(&mut self, b: Builtin, operand: &[Token]) -> u32 {
        let spelled: Vec<String> = operand
            .iter()
            .map(|t| self.interner.str(t.sym).into_owned())
            .collect();
        let name = match spelled.as_slice() {
            [n] => n.clone(),
            // `gnu::name` / `__gnu__::name` scoped attributes
            [scope, colon1, colon2, n]
                if colon1 == ":" && colon2 == ":" && (scope == "gnu" || scope == "__gnu__") =>
            {
                n.clone()
            }
            [_, c, n] if c == "::" => n.clone(),
            _ => return 0,
        };
        let bare = name.trim_start_matches("__").trim_end_matches("__");
        match b {
            Builtin::HasBuiltin => self.opts.builtins.iter().any(|&n| n == name) as u32,
            Builtin::HasCAttribute => match spelled.len() {
                1 => match bare {
                    "deprecated" => 201904,
                    "fallthrough" => 201904,
                    "maybe_unused" => 201904,
                    "nodiscard" => 202003,
                    "noreturn" => 202202,
                    _ => 0,
                },
                _ => self
                    .opts
                    .attributes
                    .iter()
                    .find(|(n, _)| *n == bare)
                    .map_or(0, |_| 1),
            },
            _ => self
                .opts
                .attributes
                .iter()
                .find(|(n, _)| *n == bare)
                .map_or(0, |(_, v)| *v),
        }
    }

    /// The place a built-in like `__LINE__` refers to: where the outermost macro whose
    /// expansion produced it was invoked (as gcc resolves it).
    fn expansion_point(&self, tok: Token) -> Loc {
        self.sm.expansion_point(tok.loc, tok.expansion)
    }

    fn date_time(&mut self) -> (String, String) {
        if let Some(dt) = &self.date_time {
            return dt.clone();
        }
        let secs = self.opts.source_date_epoch.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
        let dt = format_date_time(secs, self.opts.source_date_epoch.is_none());
        self.date_time = Some(dt.clone());
        dt
    }

    /// `_Pragma ( string-literal )`: destringized and handled as a `#pragma` line.
    fn do_pragma_operator(&mut self, tok: Token) {
        let Some(operand) = self.read_paren_operand(tok) else {
            return;
        };
        let lit = match operand.as_slice() {
            [s] if s.kind == TokKind::Str => *s,
            _ => {
                self.report(
                    Diagnostic::error(tok.loc, "_Pragma takes a parenthesized string literal")
                        .with_len(7),
                );
                return;
            }
        };
        let spelling = self.interner.get(lit.sym).to_vec();
        let start = spelling.iter().position(|&c| c == b'"').unwrap_or(0) + 1;
        let body = super::directives::unescape_string(&spelling[start..spelling.len() - 1]);
        // Lex the destringized text as a directive line.
        let mut buf = body.into_bytes();
        buf.push(b'\n');
        let mut lx = crate::lex::Lexer::new(crate::source::FileId(0), buf.into(), self.opts.lex);
        lx.in_directive = true;
        let mut toks = Vec::new();
        loop {
            let mut t = lx.next(&mut self.interner);
            if matches!(t.kind, TokKind::Eod | TokKind::Eof) {
                break;
            }
            t.loc = lit.loc;
            toks.push(t);
        }
        self.do_pragma(tok, toks);
    }
}

/// `"text"` with `\` and `"` escaped.
fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `("Mmm dd yyyy", "hh:mm:ss")` of a Unix time, in UTC when it came from
/// `SOURCE_DATE_EPOCH` and local time otherwise (gcc's rule; neverc uses UTC for both, as
/// it has no time-zone database).
pub(super) fn format_date_time(secs: i64, _local: bool) -> (String, String) {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil from days (proleptic Gregorian), Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    let date = format!("\"{} {:>2} {}\"", MONTHS[(m - 1) as usize], d, y);
    let time = format!(
        "\"{:02}:{:02}:{:02}\"",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    (date, time)
}

/// The `#if` evaluator: precedence climbing over the expanded tokens.
struct Eval<'a> {
    pp: &'a mut Preprocessor,
    toks: &'a [Token],
    pos: usize,
    /// > 0 inside an unevaluated operand (right of a decided `&&`, `||`, `?:`).
    skip: u32,
    failed: bool,
    end_loc: Loc,
}

/// Binary operators: spelling, precedence (higher binds tighter).
fn binary_prec(op: &[u8]) -> Option<u8> {
    Some(match op {
        b"*" | b"/" | b"%" => 10,
        b"+" | b"-" => 9,
        b"<<" | b">>" => 8,
        b"<" | b">" | b"<=" | b">=" => 7,
        b"==" | b"!=" => 6,
        b"&" => 5,
        b"^" => 4,
        b"|" => 3,
        b"&&" => 2,
        b"||" => 1,
        _ => return None,
    })
}

impl Eval<'_> {
    fn peek(&self) -> Option<Token> {
        self.toks.get(self.pos).copied()
    }

    fn spelling(&self, t: Token) -> Vec<u8> {
        self.pp.interner.get(t.sym).to_vec()
    }

    /// An operator's spelling: punctuators are interned first, in [`lex::PUNCTUATORS`]
    /// order, so the table gives it without copying it out of the interner.
    fn op_spelling(&self, t: Token) -> std::borrow::Cow<'static, [u8]> {
        match lex::PUNCTUATORS.get((t.sym.0 as usize).wrapping_sub(1)) {
            Some(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            None => std::borrow::Cow::Owned(self.spelling(t)),
        }
    }

    /// An error at token `t`, underlining all of it.
    fn error_at(&mut self, t: Token, msg: String) {
        if !self.failed {
            let len = self.pp.interner.get(t.sym).len() as u32;
            self.pp.report(
                Diagnostic::error(t.loc, msg)
                    .with_len(len)
                    .in_expansion(t.expansion),
            );
        }
        self.failed = true;
    }

    fn error(&mut self, loc: Loc, expansion: u32, msg: String) {
        if !self.failed {
            self.pp
                .report(Diagnostic::error(loc, msg).in_expansion(expansion));
        }
        self.failed = true;
    }

    fn is_punct(&self, t: Option<Token>, s: &[u8]) -> bool {
        t.is_some_and(|t| t.kind == TokKind::Punct && self.pp.interner.get(t.sym) == s)
    }

    /// Parses a conditional expression whose operators bind at least as tightly as `min`
    /// (0 means a full expression, including `?:` and `,`).
    fn expr(&mut self, min: u8) -> Option<Val> {
        let mut lhs = self.unary()?;
        loop {
            let Some(t) = self.peek() else {
                return Some(lhs);
            };
            if t.kind != TokKind::Punct {
                return Some(lhs);
            }
            let op = self.op_spelling(t);
            let op: &[u8] = &op;
            if op == b"?" && min == 0 {
                self.pos += 1;
                let cond = lhs.is_true();
                if !cond {
                    self.skip += 1;
                }
                let a = self.expr(0);
                if !cond {
                    self.skip -= 1;
                }
                let a = a?;
                if !self.is_punct(self.peek(), b":") {
                    self.error(self.end_loc, 0, "'?' without following ':'".into());
                    return None;
                }
                self.pos += 1;
                if cond {
                    self.skip += 1;
                }
                let b = self.expr(0);
                if cond {
                    self.skip -= 1;
                }
                let b = b?;
                let unsigned = a.unsigned || b.unsigned;
                let v = if cond { a.v } else { b.v };
                lhs = Val { v, unsigned };
                continue;
            }
            if op == b"," && min == 0 {
                // Allowed since C99 (gcc warns only under -pedantic, which neverc's
                // preprocessor does not distinguish).
                self.pos += 1;
                lhs = self.expr(0)?;
                continue;
            }
            if op == b":" {
                if min == 0 && self.skip == 0 && self.pos > 0 {
                    // Only valid as part of ?:, handled above.
                }
                return Some(lhs);
            }
            let Some(prec) = binary_prec(op) else {
                return Some(lhs);
            };
            if prec < min.max(1) {
                return Some(lhs);
            }
            self.pos += 1;
            let short = match op {
                b"&&" => !lhs.is_true(),
                b"||" => lhs.is_true(),
                _ => false,
            };
            if short {
                self.skip += 1;
            }
            let rhs = self.expr(prec + 1);
            if short {
                self.skip -= 1;
            }
            let rhs = rhs?;
            lhs = self.binary(op, lhs, rhs, t)?;
        }
    }

    fn binary(&mut self, op: &[u8], a: Val, b: Val, t: Token) -> Option<Val> {
        if op == b"&&" {
            return Some(Val::truth(a.is_true() && b.is_true()));
        }
        if op == b"||" {
            return Some(Val::truth(a.is_true() || b.is_true()));
        }
        let unsigned = a.unsigned || b.unsigned;
        let (x, y) = (a.v, b.v);
        let (sx, sy) = (x as i64, y as i64);
        let mut overflow = false;
        let v = match op {
            b"*" => {
                if unsigned {
                    x.wrapping_mul(y)
                } else {
                    let (r, o) = sx.overflowing_mul(sy);
                    overflow = o;
                    r as u64
                }
            }
            b"/" | b"%" => {
                if y == 0 {
                    if self.skip == 0 {
                        self.error_at(t, "division by zero in #if".into());
                        return None;
                    }
                    0
                } else if unsigned {
                    if op == b"/" {
                        x / y
                    } else {
                        x % y
                    }
                } else {
                    let (r, o) = if op == b"/" {
                        sx.overflowing_div(sy)
                    } else {
                        sx.overflowing_rem(sy)
                    };
                    overflow = o && op == b"/";
                    r as u64
                }
            }
            b"+" => {
                if unsigned {
                    x.wrapping_add(y)
                } else {
                    let (r, o) = sx.overflowing_add(sy);
                    overflow = o;
                    r as u64
                }
            }
            b"-" => {
                if unsigned {
                    x.wrapping_sub(y)
                } else {
                    let (r, o) = sx.overflowing_sub(sy);
                    overflow = o;
                    r as u64
                }
            }
            b"<<" | b">>" => {
                // The result has the left operand's type; a negative count shifts the other
                // way (gcc's rule for #if).
                let left = op == b"<<";
                let (left, n) = if !b.unsigned && sy < 0 {
                    (!left, sy.unsigned_abs())
                } else {
                    (left, y)
                };
                let r = shift(x, a.unsigned, left, n, &mut overflow);
                return self.finish(
                    Val {
                        v: r,
                        unsigned: a.unsigned,
                    },
                    overflow,
                    t,
                );
            }
            b"<" | b">" | b"<=" | b">=" => {
                let r = if unsigned {
                    match op {
                        b"<" => x < y,
                        b">" => x > y,
                        b"<=" => x <= y,
                        _ => x >= y,
                    }
                } else {
                    match op {
                        b"<" => sx < sy,
                        b">" => sx > sy,
                        b"<=" => sx <= sy,
                        _ => sx >= sy,
                    }
                };
                return Some(Val::truth(r));
            }
            b"==" => return Some(Val::truth(x == y)),
            b"!=" => return Some(Val::truth(x != y)),
            b"&" => x & y,
            b"^" => x ^ y,
            b"|" => x | y,
            _ => unreachable!("binary_prec lists every operator"),
        };
        self.finish(Val { v, unsigned }, overflow, t)
    }

    fn finish(&mut self, v: Val, overflow: bool, t: Token) -> Option<Val> {
        if overflow && self.skip == 0 {
            self.pp.report(
                Diagnostic::warning(t.loc, "integer overflow in preprocessor expression")
                    .with_option("overflow")
                    .in_expansion(t.expansion),
            );
        }
        Some(v)
    }

    fn unary(&mut self) -> Option<Val> {
        let Some(t) = self.peek() else {
            // Out of tokens where an operand should be: after an operator, or at once.
            let msg = match self.pos.checked_sub(1).map(|i| self.toks[i]) {
                Some(op) if op.kind == TokKind::Punct => {
                    format!(
                        "operator '{}' has no right operand",
                        self.pp.interner.str(op.sym)
                    )
                }
                _ => "#if with no expression".to_string(),
            };
            self.error(self.end_loc, 0, msg);
            return None;
        };
        self.pos += 1;
        match t.kind {
            TokKind::Number => self.number(t),
            TokKind::Char => self.char_const(t),
            TokKind::Ident => {
                if self.pp.opts.std.version >= 202000 {
                    let name = self.pp.interner.get(t.sym);
                    if name == b"true" || name == b"false" {
                        return Some(Val::truth(name == b"true"));
                    }
                }
                if self.skip == 0 && self.pp.diags.policy.is_enabled("undef") {
                    let name = self.pp.interner.str(t.sym).into_owned();
                    let d = Diagnostic::warning(
                        t.loc,
                        format!("\"{name}\" is not defined, evaluates to 0"),
                    )
                    .with_len(name.len() as u32)
                    .with_option("undef")
                    .in_expansion(t.expansion);
                    self.pp.report(d);
                }
                Some(Val::signed(0))
            }
            TokKind::Punct => {
                let op = self.op_spelling(t);
                match &*op {
                    b"(" => {
                        if self.is_punct(self.peek(), b")") {
                            self.error_at(t, "missing expression between '(' and ')'".into());
                            return None;
                        }
                        let v = self.expr(0)?;
                        if !self.is_punct(self.peek(), b")") {
                            let loc = self.peek().map_or(t.loc, |n| n.loc);
                            self.error(loc, t.expansion, "missing ')' in expression".into());
                            return None;
                        }
                        self.pos += 1;
                        Some(v)
                    }
                    b"+" => self.unary(),
                    b"-" => {
                        let v = self.unary()?;
                        if !v.unsigned && v.v == i64::MIN as u64 && self.skip == 0 {
                            self.pp.report(
                                Diagnostic::warning(
                                    t.loc,
                                    "integer overflow in preprocessor expression",
                                )
                                .with_option("overflow"),
                            );
                        }
                        Some(Val {
                            v: v.v.wrapping_neg(),
                            unsigned: v.unsigned,
                        })
                    }
                    b"~" => {
                        let v = self.unary()?;
                        Some(Val {
                            v: !v.v,
                            unsigned: v.unsigned,
                        })
                    }
                    b"!" => {
                        let v = self.unary()?;
                        Some(Val::truth(!v.is_true()))
                    }
                    _ => {
                        let s = String::from_utf8_lossy(&op).into_owned();
                        let msg = if binary_prec(&op).is_some() || *op == *b"?" || *op == *b":" {
                            if *op == *b":" {
                                "':' without preceding '?'".to_string()
                            } else {
                                format!("operator '{s}' has no left operand")
                            }
                        } else if *op == *b")" {
                            "missing expression between '(' and ')'".to_string()
                        } else {
                            format!("token \"{s}\" is not valid in preprocessor expressions")
                        };
                        self.error_at(t, msg);
                        None
                    }
                }
            }
            _ => {
                let s = self.pp.interner.str(t.sym).into_owned();
                let msg = format!("token \"{s}\" is not valid in preprocessor expressions");
                self.error_at(t, msg);
                None
            }
        }
    }

    /// An integer constant (C17 6.4.4.1) as `intmax_t`/`uintmax_t`.
    fn number(&mut self, t: Token) -> Option<Val> {
        // Plain decimal numbers (most in `#if`: 0, 1, versions) need no parsing of forms.
        let digits = self.pp.interner.get(t.sym);
        if !digits.is_empty()
            && digits.len() <= 18
            && (digits[0] != b'0' || digits.len() == 1)
            && digits.iter().all(u8::is_ascii_digit)
        {
            let v = digits.iter().fold(0u64, |v, &d| v * 10 + (d - b'0') as u64);
            return Some(Val::signed(v as i64));
        }
        let s = self.spelling(t);
        let text = String::from_utf8_lossy(&s).into_owned();
        match parse_int_literal(&text) {
            IntLit::Ok {
                value,
                unsigned,
                too_large,
                so_large_unsigned,
            } => {
                if too_large {
                    self.pp.report(
                        Diagnostic::error(t.loc, "integer constant is too large for its type")
                            .with_len(s.len() as u32)
                            .in_expansion(t.expansion),
                    );
                } else if so_large_unsigned {
                    self.pp.report(
                        Diagnostic::warning(
                            t.loc,
                            "integer constant is so large that it is unsigned",
                        )
                        .with_len(s.len() as u32)
                        .in_expansion(t.expansion),
                    );
                }
                Some(Val { v: value, unsigned })
            }
            IntLit::Float => {
                self.error_at(t, "floating constant in preprocessor expression".into());
                None
            }
            IntLit::BadSuffix(suffix) => {
                self.error_at(
                    t,
                    format!("invalid suffix \"{suffix}\" on integer constant"),
                );
                None
            }
            IntLit::BadDigit(d, base) => {
                let msg = match base {
                    8 => format!("invalid digit \"{d}\" in octal constant"),
                    2 => format!("invalid digit \"{d}\" in binary constant"),
                    _ => format!("invalid suffix \"{d}\" on integer constant"),
                };
                self.error_at(t, msg);
                None
            }
        }
    }

    /// A character constant's value (C17 6.4.4.4), as gcc computes it for the target.
    fn char_const(&mut self, t: Token) -> Option<Val> {
        let s = self.spelling(t);
        let quote = s.iter().position(|&c| c == b'\'').unwrap();
        let prefix = &s[..quote];
        let body = &s[quote + 1..s.len() - 1];
        let (width, signed) = match prefix {
            b"" => (8u32, self.pp.opts.char_signed),
            // C2x u8'x' has type unsigned char.
            b"u8" => (8u32, false),
            b"L" => (self.pp.opts.wchar_bits, self.pp.opts.wchar_signed),
            b"u" => (16, false),
            _ => (32, false),
        };
        let chars = match decode_char_body(body, width) {
            Ok(c) => c,
            Err(msg) => {
                self.error_at(t, msg);
                return None;
            }
        };
        if chars.is_empty() {
            self.error_at(t, "empty character constant".into());
            return None;
        }
        if prefix.is_empty() {
            // Plain char: several chars make an int (gcc: big-endian order, warning).
            if chars.len() > 1 {
                self.pp.report(
                    Diagnostic::warning(t.loc, "multi-character character constant")
                        .with_option("multichar")
                        .in_expansion(t.expansion),
                );
                let mut v: u32 = 0;
                for &c in &chars {
                    v = (v << 8) | (c & 0xff);
                }
                return Some(Val::signed(v as i32 as i64));
            }
            let c = chars[0] & 0xff;
            let v = if signed {
                c as u8 as i8 as i64
            } else {
                c as i64
            };
            return Some(Val::signed(v));
        }
        let c = *chars.last().unwrap() as u64;
        let v = if signed {
            let shift = 64 - width;
            (((c << shift) as i64) >> shift) as u64
        } else {
            c
        };
        Some(Val { v, unsigned: false })
    }
}

fn shift(x: u64, unsigned: bool, left: bool, n: u64, overflow: &mut bool) -> u64 {
    if left {
        if n >= 64 {
            *overflow = x != 0 && !unsigned;
            0
        } else {
            let r = x << n;
            if !unsigned && ((r as i64) >> n) as u64 != x {
                *overflow = true;
            }
            r
        }
    } else if unsigned {
        if n >= 64 {
            0
        } else {
            x >> n
        }
    } else if n >= 64 {
        if (x as i64) < 0 {
            u64::MAX
        } else {
            0
        }
    } else {
        ((x as i64) >> n) as u64
    }
}

pub(super) enum IntLit {
    Ok {
        value: u64,
        unsigned: bool,
        too_large: bool,
        so_large_unsigned: bool,
    },
    Float,
    BadSuffix(String),
    BadDigit(char, u32),
}

/// Parses a pp-number as an integer constant of `#if`.
pub(super) fn parse_int_literal(text: &str) -> IntLit {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let (base, digits_start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if bytes[0] == b'0' {
        (8, 0)
    } else {
        (10, 0)
    };
    // Floating forms: a '.', or an exponent (`e` in decimal, `p` in hex).
    if text.contains('.')
        || (base == 16 && lower.contains('p'))
        || (base != 16 && lower.contains('e'))
    {
        return IntLit::Float;
    }
    let mut i = digits_start;
    let mut value: u64 = 0;
    let mut overflow = false;
    let mut any = false;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c == '\'' {
            i += 1;
            continue;
        }
        let Some(d) = c.to_digit(16) else { break };
        if d >= 10 && base <= 10 {
            break;
        }
        if d >= base {
            if base == 8 || base == 2 {
                return IntLit::BadDigit(c, base);
            }
            break;
        }
        any = true;
        match value
            .checked_mul(base as u64)
            .and_then(|v| v.checked_add(d as u64))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
        i += 1;
    }
    if !any && base != 8 {
        return IntLit::BadSuffix(text[digits_start..].to_string());
    }
    let suffix = &lower[i..];
    let unsigned_suffix = match suffix {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => {
            // `LL` must not be mixed case; keep the suffix as written for the message.
            let orig = &text[i..];
            if matches!(
                orig,
                "lL" | "Ll" | "uLl" | "ulL" | "lLu" | "Llu" | "ULl" | "UlL" | "lLU" | "LlU"
            ) {
                return IntLit::BadSuffix(orig.to_string());
            }
            return IntLit::BadSuffix(orig.to_string());
        }
    };
    let so_large = !unsigned_suffix && !overflow && value > i64::MAX as u64;
    IntLit::Ok {
        value,
        unsigned: unsigned_suffix || so_large,
        too_large: overflow,
        so_large_unsigned: so_large && base == 10,
    }
}

/// The code units of a character constant's body, each already truncated to `width` bits.
fn decode_char_body(body: &[u8], width: u32) -> Result<Vec<u32>, String> {
    let mask: u64 = if width >= 32 {
        u32::MAX as u64
    } else {
        (1u64 << width) - 1
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        if c != b'\\' {
            if c >= 0x80 && width > 8 {
                // A UTF-8 sequence is one character of a wide constant.
                let len = match c {
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    0xf0..=0xf7 => 4,
                    _ => 1,
                };
                let s = std::str::from_utf8(&body[i..(i + len).min(body.len())]).ok();
                if let Some(ch) = s.and_then(|s| s.chars().next()) {
                    out.push(ch as u32 & mask as u32);
                    i += len;
                    continue;
                }
            }
            out.push(c as u32);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&e) = body.get(i) else { break };
        i += 1;
        let v: u64 = match e {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' | b'E' => 27,
            b'\\' | b'\'' | b'"' | b'?' => e as u64,
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u64;
                let mut n = 1;
                while n < 3 && i < body.len() && (b'0'..=b'7').contains(&body[i]) {
                    v = v * 8 + (body[i] - b'0') as u64;
                    i += 1;
                    n += 1;
                }
                v
            }
            b'x' => {
                let mut v: u64 = 0;
                let start = i;
                while i < body.len() && body[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (body[i] as char).to_digit(16).unwrap() as u64;
                    i += 1;
                }
                if i == start {
                    return Err("\\x used with no following hex digits".into());
                }
                v
            }
            b'u' | b'U' => {
                let n = if e == b'u' { 4 } else { 8 };
                let hex = body
                    .get(i..i + n)
                    .ok_or("incomplete universal character name")?;
                let s =
                    std::str::from_utf8(hex).map_err(|_| "incomplete universal character name")?;
                let v = u32::from_str_radix(s, 16)
                    .map_err(|_| "incomplete universal character name")?;
                i += n;
                if width == 8 {
                    // Encoded as UTF-8 in a narrow constant: several chars.
                    let ch = char::from_u32(v).ok_or("not a valid universal character")?;
                    let mut buf = [0u8; 4];
                    for b in ch.encode_utf8(&mut buf).bytes() {
                        out.push(b as u32);
                    }
                    continue;
                }
                v as u64
            }
            other => other as u64,
        };
        out.push((v & mask) as u32);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> (u64, bool) {
        match parse_int_literal(s) {
            IntLit::Ok {
                value, unsigned, ..
            } => (value, unsigned),
            _ => panic!("{s} did not parse"),
        }
    }

    #[test]
    fn integer_literals() {
        assert_eq!(int("0"), (0, false));
        assert_eq!(int("0x1F"), (31, false));
        assert_eq!(int("017"), (15, false));
        assert_eq!(int("0b101"), (5, false));
        assert_eq!(int("10u"), (10, true));
        assert_eq!(int("10ULL"), (10, true));
        assert_eq!(int("18446744073709551615"), (u64::MAX, true));
        assert!(matches!(parse_int_literal("1.0"), IntLit::Float));
        assert!(matches!(parse_int_literal("1e5"), IntLit::Float));
        assert!(matches!(parse_int_literal("0x1p3"), IntLit::Float));
        assert!(matches!(parse_int_literal("09"), IntLit::BadDigit('9', 8)));
        assert!(matches!(parse_int_literal("10q"), IntLit::BadSuffix(s) if s == "q"));
        assert!(matches!(
            parse_int_literal("99999999999999999999"),
            IntLit::Ok {
                too_large: true,
                ..
            }
        ));
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(
            format_date_time(0, false),
            ("\"Jan  1 1970\"".into(), "\"00:00:00\"".into())
        );
        assert_eq!(
            format_date_time(1_700_000_000, false),
            ("\"Nov 14 2023\"".into(), "\"22:13:20\"".into())
        );
    }

    #[test]
    fn char_bodies() {
        assert_eq!(decode_char_body(b"a", 8).unwrap(), vec![97]);
        assert_eq!(decode_char_body(b"\\n", 8).unwrap(), vec![10]);
        assert_eq!(decode_char_body(b"\\377", 8).unwrap(), vec![255]);
        assert_eq!(decode_char_body(b"\\x41", 8).unwrap(), vec![0x41]);
        assert_eq!(decode_char_body("é".as_bytes(), 32).unwrap(), vec![0xe9]);
        assert_eq!(
            decode_char_body("é".as_bytes(), 8).unwrap(),
            vec![0xc3, 0xa9]
        );
    }
}
