//! Macro definitions and their expansion (C17 6.10.3).
//!
//! Expansion follows gcc's model, which the standard permits and real code relies on: a
//! stack of expansion contexts, each disabling its macro while it is being read; an
//! identifier naming a disabled macro is painted [`flags::NO_EXPAND`] for good; arguments
//! are macro-expanded in isolation before substitution, except operands of `#` and `##`.

use super::Preprocessor;
use crate::diag::{Diagnostic, Level};
use crate::lex::p;
use crate::source::{Expansion, Loc};
use crate::token::{flags, Symbol, TokKind, Token};
use std::rc::Rc;

/// Built-in macros whose value the preprocessor computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    File,
    Line,
    Counter,
    Date,
    Time,
    Timestamp,
    BaseFile,
    FileName,
    IncludeLevel,
    /// `_Pragma("...")`.
    Pragma,
    /// `__has_include` and friends: only meaningful in `#if`; elsewhere an error.
    HasInclude,
    HasIncludeNext,
    HasAttribute,
    HasCAttribute,
    HasBuiltin,
}

#[derive(Clone, Debug)]
pub enum MacroKind {
    Object,
    Function {
        /// Shared, so expanding a call does not copy the list.
        params: Rc<[Symbol]>,
        /// The last parameter collects the variable arguments (`...` or GNU `name...`).
        variadic: bool,
    },
    Builtin(Builtin),
}

#[derive(Clone, Debug)]
pub struct Macro {
    pub name: Rc<str>,
    pub kind: MacroKind,
    /// Shared, so expanding the macro does not copy its definition. In a function-like
    /// macro's body a parameter's token has its `expansion` set to the parameter's index
    /// plus one (the field is free: the body comes from no expansion), so substitution does
    /// not search the parameter list.
    pub body: Rc<[Token]>,
    pub def_loc: Loc,
    /// Being expanded right now: an identifier naming it is painted, not expanded.
    pub disabled: bool,
    /// Expanded at least once (for `-Wunused-macros`).
    pub used: bool,
    /// Defined on the command line or built in (no "previous definition" source line).
    pub predefined: bool,
}

impl Macro {
    pub fn is_function_like(&self) -> bool {
        matches!(self.kind, MacroKind::Function { .. })
    }
}

/// The macros defined now, found by symbol id: a table indexed by the symbol (most
/// identifiers are not macros, and finding that out is one load instead of a hash probe)
/// pointing into a dense list of the definitions.
#[derive(Default)]
pub(super) struct MacroTable {
    /// `index[sym]`: where the symbol's definition is in `defs`, plus one (0: none). Shorter
    /// than the interner when the last symbols are not macros.
    index: Vec<u32>,
    defs: Vec<(Symbol, Macro)>,
}

impl MacroTable {
    #[inline]
    fn slot(&self, sym: Symbol) -> Option<usize> {
        match self.index.get(sym.0 as usize) {
            Some(&i) if i != 0 => Some(i as usize - 1),
            _ => None,
        }
    }

    #[inline]
    pub fn contains_key(&self, sym: &Symbol) -> bool {
        self.slot(*sym).is_some()
    }

    #[inline]
    pub fn get(&self, sym: &Symbol) -> Option<&Macro> {
        self.slot(*sym).map(|i| &self.defs[i].1)
    }

    #[inline]
    pub fn get_mut(&mut self, sym: &Symbol) -> Option<&mut Macro> {
        self.slot(*sym).map(|i| &mut self.defs[i].1)
    }

    /// Defines `sym`, replacing (and returning) an earlier definition.
    pub fn insert(&mut self, sym: Symbol, m: Macro) -> Option<Macro> {
        if let Some(i) = self.slot(sym) {
            return Some(std::mem::replace(&mut self.defs[i].1, m));
        }
        let at = sym.0 as usize;
        if self.index.len() <= at {
            // Grown in steps: symbols are numbered as they are first seen, so new macro
            // names keep coming just past the end.
            self.index.resize((at + 1).next_power_of_two().max(4096), 0);
        }
        if self.defs.capacity() == 0 {
            // A unit with the usual headers defines a few thousand.
            self.defs.reserve(4096);
        }
        self.defs.push((sym, m));
        self.index[at] = self.defs.len() as u32;
        None
    }

    pub fn remove(&mut self, sym: &Symbol) -> Option<Macro> {
        let i = self.slot(*sym)?;
        self.index[sym.0 as usize] = 0;
        let (_, m) = self.defs.swap_remove(i);
        if let Some((moved, _)) = self.defs.get(i) {
            self.index[moved.0 as usize] = i as u32 + 1;
        }
        Some(m)
    }

    /// Every definition, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &Macro> {
        self.defs.iter().map(|(_, m)| m)
    }
}

/// One level of the expansion stack: tokens being rescanned.
pub(super) struct Context {
    pub tokens: Vec<Token>,
    pub pos: usize,
    /// The macro to re-enable when this context is exhausted.
    pub macro_sym: Option<Symbol>,
}

/// The arguments of one macro call, end to end in one buffer (and, once needed, each
/// macro-expanded, end to end in another): one list per call rather than one per argument,
/// reused from call to call.
#[derive(Default)]
pub(super) struct Args {
    raw: Vec<Token>,
    /// `ends[i]`: where argument `i` ends in `raw` (it starts where argument `i - 1` ends).
    ends: Vec<u32>,
    expanded: Vec<Token>,
    /// Where argument `i`'s expansion is in `expanded`, or [`NOT_EXPANDED`].
    expanded_at: Vec<(u32, u32)>,
}

const NOT_EXPANDED: (u32, u32) = (u32::MAX, u32::MAX);

impl Args {
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Ends the argument being collected.
    fn end_arg(&mut self) {
        self.ends.push(self.raw.len() as u32);
    }

    /// Argument `i` as written.
    fn raw(&self, i: usize) -> &[Token] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.raw[start..self.ends[i] as usize]
    }

    fn clear(&mut self) {
        self.raw.clear();
        self.ends.clear();
        self.expanded.clear();
        self.expanded_at.clear();
    }
}

/// Marks the parameters in a function-like macro's body as [`Macro::body`] says (a
/// parameter's token gets its index plus one as its `expansion`; others 0).
pub(super) fn mark_params(body: &mut [Token], params: &[Symbol]) {
    for t in body {
        t.expansion = match t.kind {
            TokKind::Ident => params
                .iter()
                .position(|&s| s == t.sym)
                .map_or(0, |i| i as u32 + 1),
            _ => 0,
        };
    }
}

impl Preprocessor {
    /// The next token with macros expanded and directives processed.
    #[inline(always)]
    pub fn next_token(&mut self) -> Token {
        let tok = self.next_raw();
        self.expand_if_macro(tok)
    }

    /// `tok` (just read) as the expanded stream has it: itself unless it names a macro.
    #[inline(always)]
    pub(super) fn expand_if_macro(&mut self, tok: Token) -> Token {
        // Most tokens are not identifiers naming a macro: returned without a call.
        if tok.kind != TokKind::Ident
            || tok.has(flags::NO_EXPAND)
            || !self.macros.contains_key(&tok.sym)
        {
            return tok;
        }
        self.next_token_expanding(tok)
    }

    /// [`Preprocessor::next_token`] from `first`, an identifier naming a macro.
    #[inline(never)]
    pub(super) fn next_token_expanding(&mut self, first: Token) -> Token {
        let mut carry_bol = false;
        let mut pending = Some(first);
        loop {
            let mut tok = match pending.take() {
                Some(t) => t,
                None => self.next_raw(),
            };
            if carry_bol {
                tok.flags |= flags::BOL;
            }
            if tok.kind != TokKind::Ident || tok.has(flags::NO_EXPAND) {
                return tok;
            }
            match self.try_expand(tok) {
                Expanded::No(t) => return t,
                Expanded::Yes { was_bol } => carry_bol = was_bol,
            }
        }
    }

    /// Expands `tok` if it names an enabled macro (and, for a function-like one, a `(`
    /// follows); the result is pushed as a context.
    pub(super) fn try_expand(&mut self, mut tok: Token) -> Expanded {
        let Some(m) = self.macros.get(&tok.sym) else {
            return Expanded::No(tok);
        };
        if m.disabled {
            tok.flags |= flags::NO_EXPAND;
            return Expanded::No(tok);
        }
        let m_kind = m.kind.clone();
        match m_kind {
            MacroKind::Builtin(b) => self.expand_builtin(b, tok),
            MacroKind::Object => {
                let m = self.macros.get_mut(&tok.sym).unwrap();
                m.used = true;
                let body = m.body.clone();
                let name = m.name.clone();
                let exp = self.sm.add_expansion(Expansion {
                    name,
                    call: tok.loc,
                    parent: tok.expansion,
                });
                let mut out = self.take_buf();
                out.reserve(body.len());
                for b in body.iter() {
                    let mut t = *b;
                    t.expansion = exp;
                    t.flags &= !flags::BOL;
                    t.flags |= flags::FROM_MACRO;
                    out.push(t);
                }
                let out = if body.iter().any(|t| t.has(flags::PASTE_LEFT)) {
                    self.paste_all(out, exp)
                } else {
                    out
                };
                self.push_expansion(tok, out)
            }
            MacroKind::Function { params, variadic } => {
                if !self.next_is_lparen() {
                    return Expanded::No(tok);
                }
                let sym = tok.sym;
                // The definition as it is now: a directive among the arguments may
                // #undef or redefine the macro (gcc expands the definition it started
                // with).
                let (name, body) = match self.macros.get_mut(&sym) {
                    Some(m) => {
                        m.used = true;
                        let same_params = matches!(&m.kind,
                            MacroKind::Function { params: now, .. } if **now == *params);
                        let body = if same_params {
                            m.body.clone()
                        } else {
                            // Redefined between its name and the `(`: the body as it is now
                            // with the parameters it had (gcc's choice too), marked anew.
                            let mut b = m.body.to_vec();
                            mark_params(&mut b, &params);
                            b.into()
                        };
                        (m.name.clone(), body)
                    }
                    None => return Expanded::No(tok),
                };
                let mut args = match self.collect_args(&tok, params.len(), variadic) {
                    Some(a) => a,
                    None => return Expanded::No(tok),
                };
                let exp = self.sm.add_expansion(Expansion {
                    name,
                    call: tok.loc,
                    parent: tok.expansion,
                });
                let out = self.substitute(&body, params.len(), variadic, &mut args, exp);
                self.give_args(args);
                self.push_expansion(tok, out)
            }
        }
    }

    fn push_expansion(&mut self, name_tok: Token, mut out: Vec<Token>) -> Expanded {
        let was_bol = name_tok.has(flags::BOL);
        if let Some(first) = out.first_mut() {
            // The expansion takes the place of the name: its spacing and line start.
            first.flags = (first.flags & !flags::PREV_WHITE)
                | (name_tok.flags & (flags::PREV_WHITE | flags::BOL));
        }
        let empty = out.is_empty();
        // (The macro may be gone: an #undef among its own arguments.)
        if let Some(m) = self.macros.get_mut(&name_tok.sym) {
            m.disabled = true;
        }
        self.contexts.push(Context {
            tokens: out,
            pos: 0,
            macro_sym: Some(name_tok.sym),
        });
        Expanded::Yes {
            was_bol: was_bol && empty,
        }
    }

    /// Is the next token (across ends of contexts and lines, not across a directive's end)
    /// a `(`? Consumes it if so; otherwise leaves it to be read again.
    fn next_is_lparen(&mut self) -> bool {
        self.collecting_args += 1;
        let t = self.next_raw();
        self.collecting_args -= 1;
        if t.kind == TokKind::Punct && t.sym == p::LPAREN {
            return true;
        }
        self.push_back(t);
        false
    }

    /// Returns a token to be read next.
    pub(super) fn push_back(&mut self, t: Token) {
        if matches!(t.kind, TokKind::Eof) && self.contexts.is_empty() {
            self.eof_pushed_back = true;
            return;
        }
        let mut tokens = self.take_buf();
        tokens.push(t);
        self.contexts.push(Context {
            tokens,
            pos: 0,
            macro_sym: None,
        });
    }

    /// An empty argument list, reused when one is spare.
    fn take_args(&mut self) -> Args {
        self.spare_args.pop().unwrap_or_default()
    }

    fn give_args(&mut self, mut a: Args) {
        if self.spare_args.len() < 64 && a.raw.capacity() <= 1 << 16 {
            a.clear();
            self.spare_args.push(a);
        }
    }

    /// Collects the arguments of a function-like macro call, the `(` already read.
    /// `None`: unterminated or a wrong count, reported already.
    fn collect_args(&mut self, name: &Token, nparams: usize, variadic: bool) -> Option<Args> {
        self.collecting_args += 1;
        let mut args = self.take_args();
        let mut depth = 0usize;
        // gcc reports argument errors where the list ended: the `)`, or the end of input.
        let mut end = name.loc;
        let ok = loop {
            let t = self.next_raw();
            match t.kind {
                TokKind::Eof | TokKind::Eod | TokKind::Placemarker => {
                    let mname = self.interner.str(name.sym).into_owned();
                    let at = match t.kind {
                        // The end of a file: the newline that ends its last line.
                        TokKind::Eof if t.loc.offset > 0 => Loc {
                            offset: t.loc.offset - 1,
                            ..t.loc
                        },
                        TokKind::Eod => t.loc,
                        _ => name.loc,
                    };
                    let d = Diagnostic::error(
                        at,
                        format!("unterminated argument list invoking macro \"{mname}\""),
                    )
                    .in_expansion(name.expansion);
                    self.report(d);
                    // The end marker is read again by whoever stopped at it.
                    self.push_back(t);
                    break false;
                }
                TokKind::Punct if t.sym == p::LPAREN => depth += 1,
                TokKind::Punct if t.sym == p::RPAREN => {
                    if depth == 0 {
                        end = t.loc;
                        args.end_arg();
                        break true;
                    }
                    depth -= 1;
                }
                // A comma separates arguments, except inside the variable ones.
                TokKind::Punct
                    if t.sym == p::COMMA
                        && depth == 0
                        && !(variadic && args.len() + 1 == nparams) =>
                {
                    args.end_arg();
                    continue;
                }
                _ => {}
            }
            args.raw.push(t);
        };
        self.collecting_args -= 1;
        if !ok {
            self.give_args(args);
            return None;
        }
        // `f()` passes one empty argument, which is right for one parameter and none.
        if nparams == 0 && args.len() == 1 && args.raw.is_empty() {
            args.ends.clear();
        }
        if args.len() < nparams {
            // A variadic macro may omit the variable part entirely (C2x, GNU before that).
            if variadic && args.len() + 1 == nparams {
                args.end_arg();
            } else {
                let given = args.len();
                self.give_args(args);
                let mname = self.interner.str(name.sym).into_owned();
                let msg = format!(
                    "macro \"{mname}\" requires {nparams} arguments, but only {given} given"
                );
                self.report_with_def_note(name, end, msg);
                return None;
            }
        } else if args.len() > nparams {
            let mname = self.interner.str(name.sym).into_owned();
            let msg = format!(
                "macro \"{mname}\" passed {} arguments, but takes just {nparams}",
                args.len()
            );
            self.report_with_def_note(name, end, msg);
            self.give_args(args);
            return None;
        }
        args.expanded_at.resize(args.len(), NOT_EXPANDED);
        Some(args)
    }

    fn report_with_def_note(&mut self, name: &Token, at: Loc, msg: String) {
        let d = Diagnostic::error(at, msg).in_expansion(name.expansion);
        self.report(d);
        if let Some(m) = self.macros.get(&name.sym) {
            if !m.predefined {
                let mut note = Diagnostic::new(
                    Level::Note,
                    Some(m.def_loc),
                    format!("macro \"{}\" defined here", m.name),
                );
                note.line_only = true;
                self.report(note);
            }
        }
    }

    /// Argument `i` fully macro-expanded in isolation (C17 6.10.3.1p1), expanded once
    /// and kept in `args`: where it is in `args.expanded`.
    fn expand_arg(&mut self, args: &mut Args, i: usize) -> (usize, usize) {
        let (s, e) = args.expanded_at[i];
        if (s, e) != NOT_EXPANDED {
            return (s as usize, e as usize);
        }
        let start = args.expanded.len();
        let arg_start = if i == 0 { 0 } else { args.ends[i - 1] as usize };
        let arg = &args.raw[arg_start..args.ends[i] as usize];
        // Expanding an argument with no macro name in it (and no token that would end the
        // expansion loop early) gives the argument itself: copied, without the context and
        // the per-token loop. Most arguments in the system headers are of this kind (types,
        // parameter names, numbers).
        let macros = &self.macros;
        if !arg.iter().any(|t| match t.kind {
            TokKind::Ident => !t.has(flags::NO_EXPAND) && macros.contains_key(&t.sym),
            TokKind::Placemarker | TokKind::Eof | TokKind::Eod => true,
            _ => false,
        }) {
            args.expanded.extend_from_slice(arg);
        } else {
            let mut v = self.take_buf();
            v.extend_from_slice(arg);
            self.expand_list_into(v, &mut args.expanded);
        }
        let end = args.expanded.len();
        args.expanded_at[i] = (start as u32, end as u32);
        (start, end)
    }

    pub(super) fn pop_context(&mut self) {
        if let Some(c) = self.contexts.pop() {
            if let Some(sym) = c.macro_sym {
                if let Some(m) = self.macros.get_mut(&sym) {
                    m.disabled = false;
                }
            }
            self.give_buf(c.tokens);
        }
    }

    /// Builds a function-like macro's replacement: parameters replaced, `#` and `##` done.
    /// `body` has its parameters marked (see [`Macro::body`]).
    fn substitute(
        &mut self,
        body: &[Token],
        nparams: usize,
        variadic: bool,
        args: &mut Args,
        exp: u32,
    ) -> Vec<Token> {
        let va_index = if variadic { Some(nparams - 1) } else { None };
        let param_of = |t: &Token| -> Option<usize> {
            if t.kind == TokKind::Ident && t.expansion != 0 {
                Some(t.expansion as usize - 1)
            } else {
                None
            }
        };
        let mut out: Vec<Token> = self.take_buf();
        out.reserve(body.len());
        let mut any_paste = false;
        let mut any_placemarker = false;
        let mut i = 0;
        let va_opt = self.sym_va_opt;
        while i < body.len() {
            let t = body[i];
            // `#param`
            if t.kind == TokKind::Punct && (t.sym == p::HASH || t.sym == p::HASH_DIGRAPH) {
                if let Some(pi) = body.get(i + 1).and_then(param_of) {
                    let mut s = self.stringify(args.raw(pi), t.loc);
                    s.flags = (t.flags & flags::PREV_WHITE) | flags::FROM_MACRO;
                    s.flags |= body[i + 1].flags & flags::PASTE_LEFT;
                    any_paste |= s.has(flags::PASTE_LEFT);
                    s.expansion = exp;
                    out.push(s);
                    i += 2;
                    continue;
                }
            }
            // `__VA_OPT__(content)`
            if let Some(va) = va_index.filter(|_| t.kind == TokKind::Ident && t.sym == va_opt) {
                if let Some((content, next)) = va_opt_content(body, i) {
                    let (s, e) = self.expand_arg(args, va);
                    let va_present = s != e;
                    let paste_left = body[next - 1].has(flags::PASTE_LEFT);
                    if va_present {
                        let sub = self.substitute(&content, nparams, variadic, args, exp);
                        let start = out.len();
                        out.extend_from_slice(&sub);
                        self.give_buf(sub);
                        if let Some(f) = out.get_mut(start) {
                            f.flags =
                                (f.flags & !flags::PREV_WHITE) | (t.flags & flags::PREV_WHITE);
                        }
                        if paste_left {
                            if let Some(l) = out.last_mut() {
                                l.flags |= flags::PASTE_LEFT;
                            }
                        }
                        // (The content's own pastes are done; this one may be left.)
                        any_paste |= paste_left;
                    } else if paste_left || out.last().is_some_and(|l| l.has(flags::PASTE_LEFT)) {
                        let mut pm = Token::new(TokKind::Placemarker, Symbol(0), t.loc);
                        pm.flags = if paste_left { flags::PASTE_LEFT } else { 0 };
                        out.push(pm);
                        any_paste |= paste_left;
                        any_placemarker = true;
                    }
                    i = next;
                    continue;
                }
            }
            if let Some(pi) = param_of(&t) {
                let pasted_left = out.last().is_some_and(|l| l.has(flags::PASTE_LEFT));
                let paste_right = t.has(flags::PASTE_LEFT);
                let tokens: &[Token] = if pasted_left || paste_right {
                    args.raw(pi)
                } else {
                    let (s, e) = self.expand_arg(args, pi);
                    &args.expanded[s..e]
                };
                // GNU: `, ## __VA_ARGS__` with an empty variable argument drops the comma.
                if pasted_left && Some(pi) == va_index && tokens.is_empty() {
                    if let Some(l) = out.last() {
                        if l.kind == TokKind::Punct && l.sym == p::COMMA {
                            out.pop();
                            i += 1;
                            continue;
                        }
                    }
                }
                if pasted_left && Some(pi) == va_index && !tokens.is_empty() {
                    if let Some(l) = out.last() {
                        if l.kind == TokKind::Punct && l.sym == p::COMMA {
                            // `, ## __VA_ARGS__` with arguments: no paste, just the comma.
                            out.last_mut().unwrap().flags &= !flags::PASTE_LEFT;
                        }
                    }
                }
                if tokens.is_empty() {
                    if pasted_left || paste_right {
                        let mut pm = Token::new(TokKind::Placemarker, Symbol(0), t.loc);
                        pm.flags = t.flags & flags::PASTE_LEFT;
                        out.push(pm);
                        any_placemarker = true;
                    }
                } else {
                    let start = out.len();
                    out.extend_from_slice(tokens);
                    for a in &mut out[start..] {
                        a.flags &= !(flags::BOL | flags::PASTE_LEFT);
                    }
                    out[start].flags =
                        (out[start].flags & !flags::PREV_WHITE) | (t.flags & flags::PREV_WHITE);
                    if paste_right {
                        out.last_mut().unwrap().flags |= flags::PASTE_LEFT;
                    }
                }
                any_paste |= paste_right;
                i += 1;
                continue;
            }
            let mut t = t;
            t.expansion = exp;
            t.flags &= !flags::BOL;
            t.flags |= flags::FROM_MACRO;
            any_paste |= t.has(flags::PASTE_LEFT);
            out.push(t);
            i += 1;
        }
        let mut pasted = if any_paste && out.iter().any(|t| t.has(flags::PASTE_LEFT)) {
            self.paste_all(out, exp)
        } else {
            out
        };
        if any_placemarker {
            pasted.retain(|t| t.kind != TokKind::Placemarker);
        }
        pasted
    }

    /// Performs every `##` in `toks` (tokens flagged [`flags::PASTE_LEFT`] paste with the
    /// next one), left to right.
    fn paste_all(&mut self, toks: Vec<Token>, exp: u32) -> Vec<Token> {
        let mut out: Vec<Token> = self.take_buf();
        out.reserve(toks.len());
        let mut iter = toks.iter().copied();
        while let Some(t) = iter.next() {
            let mut lhs = t;
            while lhs.has(flags::PASTE_LEFT) {
                let Some(rhs) = iter.next() else {
                    lhs.flags &= !flags::PASTE_LEFT;
                    break;
                };
                lhs = match self.paste(lhs, rhs, exp) {
                    Ok(t) => t,
                    Err((l, r)) => {
                        // After the error gcc keeps both tokens and goes on from the right.
                        out.push(l);
                        r
                    }
                };
            }
            out.push(lhs);
        }
        self.give_buf(toks);
        out
    }

    /// `lhs ## rhs` (C17 6.10.3.3).
    fn paste(&mut self, lhs: Token, rhs: Token, exp: u32) -> Result<Token, (Token, Token)> {
        if lhs.kind == TokKind::Placemarker {
            let mut r = rhs;
            r.flags = (r.flags & !flags::PREV_WHITE) | (lhs.flags & flags::PREV_WHITE);
            return Ok(r);
        }
        if rhs.kind == TokKind::Placemarker {
            let mut l = lhs;
            l.flags = (l.flags & !flags::PASTE_LEFT) | (rhs.flags & flags::PASTE_LEFT);
            return Ok(l);
        }
        let mut text = std::mem::take(&mut self.paste_buf);
        text.clear();
        text.extend_from_slice(self.interner.get(lhs.sym));
        text.extend_from_slice(self.interner.get(rhs.sym));
        // Most pastes join a name and a name or a number into a name (`x ## 1`,
        // `__f ## 32`): spellings made of letters, digits and `_` only need no lexing.
        let word = |s: &[u8]| s.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        let kind = if lhs.kind == TokKind::Ident
            && matches!(rhs.kind, TokKind::Ident | TokKind::Number)
            && !text.first().is_some_and(u8::is_ascii_digit)
            && word(&text)
        {
            Some(TokKind::Ident)
        } else {
            self.lex_single(&text)
        };
        let result = match kind {
            Some(kind) => {
                let sym = self.interner.intern(&text);
                let mut t = Token::new(kind, sym, lhs.loc);
                t.flags = (lhs.flags & flags::PREV_WHITE)
                    | (rhs.flags & flags::PASTE_LEFT)
                    | flags::FROM_MACRO;
                t.expansion = exp;
                Ok(t)
            }
            None => {
                let l = self.interner.str(lhs.sym).into_owned();
                let r = self.interner.str(rhs.sym).into_owned();
                let d = Diagnostic::error(
                    lhs.loc,
                    format!(
                        "pasting \"{l}\" and \"{r}\" does not give a valid preprocessing token"
                    ),
                )
                .with_len(l.len() as u32)
                .in_expansion(exp);
                self.report(d);
                let mut l2 = lhs;
                l2.flags &= !flags::PASTE_LEFT;
                Err((l2, rhs))
            }
        };
        self.paste_buf = text;
        result
    }

    /// `#arg`: the spelling of the argument's tokens as a string literal (C17 6.10.3.2).
    pub(super) fn stringify(&mut self, arg: &[Token], loc: Loc) -> Token {
        let mut s = Vec::with_capacity(16);
        s.push(b'"');
        for (i, t) in arg.iter().enumerate() {
            if i > 0 && t.has(flags::PREV_WHITE) {
                s.push(b' ');
            }
            let spelling = self.interner.get(t.sym);
            if matches!(t.kind, TokKind::Str | TokKind::Char)
                || (t.kind == TokKind::Other
                    && matches!(spelling.first(), Some(b'"') | Some(b'\'')))
            {
                for &c in spelling {
                    if c == b'"' || c == b'\\' {
                        s.push(b'\\');
                    }
                    s.push(c);
                }
            } else {
                s.extend_from_slice(spelling);
            }
        }
        s.push(b'"');
        let sym = self.interner.intern(&s);
        let mut t = Token::new(TokKind::Str, sym, loc);
        t.flags |= flags::STRINGIFIED;
        t
    }

    /// Lexes `text` as exactly one preprocessing token, returning its kind.
    pub(super) fn lex_single(&mut self, text: &[u8]) -> Option<TokKind> {
        let mut buf = text.to_vec();
        buf.push(b'\n');
        let mut lx = crate::lex::Lexer::new(crate::source::FileId(0), buf.into(), self.opts.lex);
        lx.in_directive = true;
        let t = lx.next(&mut self.interner);
        if t.has(flags::PREV_WHITE) || !lx.diags.is_empty() {
            return None;
        }
        let end = lx.next(&mut self.interner);
        if end.kind != TokKind::Eod || end.has(flags::PREV_WHITE) || t.kind == TokKind::Comment {
            return None;
        }
        // An unterminated quote lexes as "other", which pasting must not produce.
        if t.kind == TokKind::Other && matches!(text.first(), Some(b'"') | Some(b'\'')) {
            return None;
        }
        Some(t.kind)
    }
}

/// The result of [`Preprocessor::try_expand`].
pub(super) enum Expanded {
    No(Token),
    /// A context was pushed; `was_bol` when the name started a line and the expansion is
    /// empty, so the next token inherits the line start.
    Yes {
        was_bol: bool,
    },
}

/// For `__VA_OPT__ ( ... )` at `body[i]`: the tokens between the parentheses and the index
/// after the `)`.
fn va_opt_content(body: &[Token], i: usize) -> Option<(Vec<Token>, usize)> {
    let open = body.get(i + 1)?;
    if !(open.kind == TokKind::Punct && open.sym == p::LPAREN) {
        return None;
    }
    let mut depth = 0;
    for (j, t) in body.iter().enumerate().skip(i + 2) {
        if t.kind == TokKind::Punct && t.sym == p::LPAREN {
            depth += 1;
        } else if t.kind == TokKind::Punct && t.sym == p::RPAREN {
            if depth == 0 {
                let mut content = body[i + 2..j].to_vec();
                // `##` after the closing paren applies to the last content token.
                if t.has(flags::PASTE_LEFT) {
                    if let Some(l) = content.last_mut() {
                        l.flags |= flags::PASTE_LEFT;
                    }
                }
                return Some((content, j + 1));
            }
            depth -= 1;
        }
    }
    None
}
