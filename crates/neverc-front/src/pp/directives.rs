//! Directives (C17 6.10): conditionals, `#define`/`#undef`, `#line`, diagnostics,
//! `#pragma`. `#include` is in `include.rs`.

use super::macros::Macro;
use super::{Cond, Event, MacroKind, MiState, Preprocessor};
use crate::diag::{Diagnostic, Level};
use crate::lex::p;
use crate::source::Loc;
use crate::token::{flags, Symbol, TokKind, Token};

impl Preprocessor {
    /// Reads the rest of a directive line, unexpanded (the `Eod` not included).
    pub(super) fn read_line_raw(&mut self) -> Vec<Token> {
        let mut out = self.take_buf();
        loop {
            let frame = self.frames.last_mut().unwrap();
            let t = frame.lexer.next(&mut self.interner);
            if matches!(t.kind, TokKind::Eod | TokKind::Eof) {
                self.last_eod = t.loc;
                break;
            }
            out.push(t);
        }
        self.flush_lex_diags();
        out
    }

    /// Reads the rest of a directive line and drops it.
    fn skip_line_raw(&mut self) {
        let rest = self.read_line_raw();
        self.give_buf(rest);
    }

    fn next_in_directive(&mut self) -> Token {
        let frame = self.frames.last_mut().unwrap();
        let t = frame.lexer.next(&mut self.interner);
        self.flush_lex_diags();
        t
    }

    /// Skips what is left of the directive line, warning about it when `warn` names the
    /// directive (`extra tokens at end of #endif directive`).
    fn end_directive(&mut self, warn: Option<&str>) {
        let rest = self.read_line_raw();
        if let (Some(name), Some(first)) = (warn, rest.first()) {
            self.warn_extra_tokens(name, *first);
        }
        self.give_buf(rest);
    }

    /// `extra tokens at end of #NAME directive`, at the first extra token (gcc files the
    /// ones after `#else`/`#endif` under -Wendif-labels).
    fn warn_extra_tokens(&mut self, name: &str, first: Token) {
        let len = self.interner.get(first.sym).len() as u32;
        let mut d = Diagnostic::warning(
            first.loc,
            format!("extra tokens at end of #{name} directive"),
        )
        .with_len(len);
        if name == "else" || name == "endif" {
            d = d.with_option("endif-labels");
        }
        self.report(d);
    }

    fn leave_directive(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.lexer.in_directive = false;
        }
    }

    /// A directive's name copied out of the interner (which the directive goes on using),
    /// without an allocation: none is longer than 12 bytes, and a longer word (copied as
    /// empty) is none of them.
    fn directive_word(&self, name: Token) -> ([u8; 16], usize) {
        let mut buf = [0u8; 16];
        let w = self.interner.get(name.sym);
        if w.len() > buf.len() {
            return (buf, 0);
        }
        buf[..w.len()].copy_from_slice(w);
        (buf, w.len())
    }

    /// Processes a directive whose `#` has been read. (Not inlined: the per-token loop
    /// that calls it stays small.)
    #[inline(never)]
    pub(super) fn directive(&mut self, hash: Token) {
        let depth = self.frames.len();
        self.frames[depth - 1].lexer.in_directive = true;
        let name = self.next_in_directive();
        self.directive_named(hash, name);
        // An `#include` may have pushed a file: the directive's own file leaves directive
        // mode (normally its lexer already did, at the end of the line).
        if let Some(f) = self.frames.get_mut(depth - 1) {
            f.lexer.in_directive = false;
        }
    }

    fn directive_named(&mut self, hash: Token, name: Token) {
        if name.kind == TokKind::Eod {
            return; // the null directive
        }
        let mi_before = self.frames.last().unwrap().mi;
        let (wbuf, wlen) = self.directive_word(name);
        let word = &wbuf[..wlen];
        // Anything but the guard's own directives spoils the multiple-include guard.
        let depth = self.frames.last().unwrap().conds.len();
        match (name.kind, word) {
            (TokKind::Ident, b"define") => {
                self.spoil_mi_outside(depth);
                self.do_define()
            }
            (TokKind::Ident, b"undef") => {
                self.spoil_mi_outside(depth);
                self.do_undef()
            }
            (TokKind::Ident, b"include") => {
                self.spoil_mi_outside(depth);
                self.do_include(name, false)
            }
            (TokKind::Ident, b"include_next") => {
                self.spoil_mi_outside(depth);
                self.do_include(name, true)
            }
            (TokKind::Ident, b"import") => {
                self.spoil_mi_outside(depth);
                self.report(
                    Diagnostic::warning(name.loc, "#import is a deprecated GCC extension")
                        .with_len(6),
                );
                self.do_include(name, false)
            }
            (TokKind::Ident, b"if") => {
                let start_guard = mi_before == MiState::Start && depth == 0;
                let v = self.eval_if_line(name);
                let guard = if start_guard {
                    self.if_not_defined_guard.take()
                } else {
                    None
                };
                self.if_not_defined_guard = None;
                self.push_cond(hash, v, guard, start_guard);
            }
            (TokKind::Ident, b"ifdef") | (TokKind::Ident, b"ifndef") => {
                let negate = word == b"ifndef";
                let start_guard = mi_before == MiState::Start && depth == 0;
                let (v, sym) = self.eval_ifdef(negate);
                self.push_cond(hash, v, if negate { sym } else { None }, start_guard);
            }
            (TokKind::Ident, b"elif")
            | (TokKind::Ident, b"elifdef")
            | (TokKind::Ident, b"elifndef") => self.do_elif_in_taken(name),
            (TokKind::Ident, b"else") => self.do_else_in_taken(name),
            (TokKind::Ident, b"endif") => self.do_endif(name),
            (TokKind::Ident, b"line") => {
                self.spoil_mi_outside(depth);
                self.do_line(name, false)
            }
            (TokKind::Number, _) => {
                self.spoil_mi_outside(depth);
                self.do_line(name, true)
            }
            (TokKind::Ident, b"error") | (TokKind::Ident, b"warning") => {
                self.spoil_mi_outside(depth);
                self.do_diagnostic_directive(name, word == b"error")
            }
            (TokKind::Ident, b"pragma") => {
                self.spoil_mi_outside(depth);
                let toks = self.read_line_raw();
                self.do_pragma(name, toks);
            }
            (TokKind::Ident, b"ident") | (TokKind::Ident, b"sccs") => {
                self.spoil_mi_outside(depth);
                let toks = self.read_line_raw();
                match toks.first() {
                    Some(t) if t.kind == TokKind::Str && toks.len() == 1 => {
                        // `#sccs` is another spelling of `#ident`; gcc prints both as #ident.
                        let text = self.interner.str(t.sym).into_owned();
                        self.events.push(Event::Ident {
                            text,
                            loc: name.loc,
                        });
                    }
                    _ => {
                        let w = String::from_utf8_lossy(word).into_owned();
                        let (loc, len) = toks.first().map_or((name.loc, 1), |t| {
                            (t.loc, self.interner.get(t.sym).len() as u32)
                        });
                        let d =
                            Diagnostic::error(loc, format!("invalid #{w} directive")).with_len(len);
                        self.report(d);
                    }
                }
            }
            (TokKind::Ident, b"assert") | (TokKind::Ident, b"unassert") => {
                self.spoil_mi_outside(depth);
                let w = String::from_utf8_lossy(word).into_owned();
                self.report(
                    Diagnostic::error(
                        name.loc,
                        format!("#{w} is not supported by neverc (a deprecated GCC extension)"),
                    )
                    .with_len(w.len() as u32),
                );
                self.skip_line_raw();
            }
            _ => {
                self.spoil_mi_outside(depth);
                let w = self.interner.str(name.sym).into_owned();
                let len = w.len() as u32;
                self.report(
                    Diagnostic::error(name.loc, format!("invalid preprocessing directive #{w}"))
                        .with_len(len),
                );
                self.skip_line_raw();
            }
        }
    }

    /// A directive outside any conditional spoils the include-guard pattern (one inside the
    /// guard is fine).
    fn spoil_mi_outside(&mut self, depth: usize) {
        let f = self.frames.last_mut().unwrap();
        if depth == 0 {
            f.mi = MiState::Spoiled;
        }
    }

    fn push_cond(&mut self, hash: Token, value: bool, guard: Option<Symbol>, start_guard: bool) {
        let f = self.frames.last_mut().unwrap();
        f.conds.push(Cond {
            loc: hash.loc,
            taken: value,
            seen_else: false,
        });
        if f.conds.len() == 1 {
            f.mi = match (start_guard, guard) {
                (true, Some(g)) => MiState::Inside(g),
                _ => MiState::Spoiled,
            };
        }
        if !value {
            self.skip_group();
        }
    }

    /// `#ifdef NAME` / `#ifndef NAME`: the value, and the name.
    fn eval_ifdef(&mut self, negate: bool) -> (bool, Option<Symbol>) {
        let toks = self.read_line_raw();
        let (first, second) = (toks.first().copied(), toks.get(1).copied());
        self.give_buf(toks);
        let dir = if negate { "ifndef" } else { "ifdef" };
        let Some(first) = first else {
            // At the end of the line, where the name should be (as gcc points).
            let at = self.last_eod;
            self.report(Diagnostic::error(
                at,
                format!("no macro name given in #{dir} directive"),
            ));
            return (false, None);
        };
        if first.kind != TokKind::Ident {
            self.report(Diagnostic::error(
                first.loc,
                "macro names must be identifiers",
            ));
            return (false, None);
        }
        if let Some(second) = second {
            self.warn_extra_tokens(dir, second);
        }
        let defined = self.macros.contains_key(&first.sym);
        if let Some(m) = self.macros.get_mut(&first.sym) {
            m.used = true;
        }
        (defined != negate, Some(first.sym))
    }

    /// Skips a failed group up to the `#elif`/`#else`/`#endif` that ends it, handling one
    /// that takes the next group (an `#elif` that is true, an `#else`).
    pub(super) fn skip_group(&mut self) {
        let mut depth = 0usize;
        loop {
            let frame = self.frames.last_mut().unwrap();
            frame.lexer.skipping = true;
            let t = frame.lexer.next(&mut self.interner);
            frame.lexer.skipping = false;
            self.flush_lex_diags();
            match t.kind {
                TokKind::Eof => return, // reported as unterminated at end of file
                TokKind::Punct
                    if t.has(flags::BOL) && (t.sym == p::HASH || t.sym == p::HASH_DIGRAPH) => {}
                _ => {
                    // Not a directive: pass over the rest of its line without making tokens.
                    let lexer = &mut self.frames.last_mut().unwrap().lexer;
                    lexer.skipping = true;
                    lexer.skip_line_tokens();
                    lexer.skipping = false;
                    continue;
                }
            }
            let frame = self.frames.last_mut().unwrap();
            frame.lexer.in_directive = true;
            frame.lexer.skipping = true;
            let name = frame.lexer.next(&mut self.interner);
            let (wbuf, wlen) = self.directive_word(name);
            let word = &wbuf[..wlen];
            let frame = self.frames.last_mut().unwrap();
            frame.lexer.skipping = false;
            if name.kind != TokKind::Ident {
                self.skip_directive_line();
                continue;
            }
            match word {
                b"if" | b"ifdef" | b"ifndef" => {
                    depth += 1;
                    self.skip_directive_line();
                }
                b"endif" if depth > 0 => {
                    depth -= 1;
                    self.skip_directive_line();
                }
                b"else" | b"elif" | b"elifdef" | b"elifndef" if depth > 0 => {
                    self.skip_directive_line()
                }
                b"endif" => {
                    self.end_directive(Some("endif"));
                    self.leave_directive();
                    let f = self.frames.last_mut().unwrap();
                    f.conds.pop();
                    if f.conds.is_empty() {
                        if let MiState::Inside(g) = f.mi {
                            f.mi = MiState::After(g);
                        }
                    }
                    return;
                }
                b"else" => {
                    self.check_after_else(name);
                    let c = self.frames.last_mut().unwrap().conds.last_mut().unwrap();
                    c.seen_else = true;
                    let take = !c.taken;
                    c.taken = true;
                    self.end_directive(Some("else"));
                    self.leave_directive();
                    self.spoil_guard_at_depth_one();
                    if take {
                        return;
                    }
                }
                b"elif" | b"elifdef" | b"elifndef" => {
                    self.check_after_else(name);
                    self.spoil_guard_at_depth_one();
                    let already = self.frames.last().unwrap().conds.last().unwrap().taken;
                    if already {
                        self.skip_directive_line();
                        continue;
                    }
                    let v = match word {
                        b"elif" => self.eval_if_line(name),
                        b"elifdef" => self.eval_ifdef(false).0,
                        _ => self.eval_ifdef(true).0,
                    };
                    self.leave_directive();
                    if v {
                        self.frames
                            .last_mut()
                            .unwrap()
                            .conds
                            .last_mut()
                            .unwrap()
                            .taken = true;
                        return;
                    }
                }
                _ => self.skip_directive_line(),
            }
        }
    }

    fn spoil_guard_at_depth_one(&mut self) {
        let f = self.frames.last_mut().unwrap();
        if f.conds.len() == 1 {
            f.mi = MiState::Spoiled;
        }
    }

    fn skip_directive_line(&mut self) {
        let f = self.frames.last_mut().unwrap();
        f.lexer.skipping = true;
        f.lexer.skip_line_tokens();
        loop {
            // (Only the end of the line is left.)
            let t = f.lexer.next(&mut self.interner);
            if matches!(t.kind, TokKind::Eod | TokKind::Eof) {
                break;
            }
        }
        f.lexer.skipping = false;
        f.lexer.in_directive = false;
        // Diagnostics while skipping are only the unterminated-string kind gcc gives too.
        self.flush_lex_diags();
    }

    /// `#elif`/`#else` reached at the end of a group that was taken: skip to `#endif`.
    fn do_elif_in_taken(&mut self, name: Token) {
        let Some(c) = self.frames.last_mut().unwrap().conds.last_mut() else {
            let w = self.interner.str(name.sym).into_owned();
            let len = w.len() as u32;
            self.report(Diagnostic::error(name.loc, format!("#{w} without #if")).with_len(len));
            self.skip_line_raw();
            return;
        };
        c.taken = true;
        self.check_after_else(name);
        // The expression of an #elif after a taken group is not evaluated (gcc agrees).
        self.skip_line_raw();
        self.spoil_guard_at_depth_one();
        self.leave_directive();
        self.skip_group();
    }

    fn do_else_in_taken(&mut self, name: Token) {
        if self.frames.last().unwrap().conds.is_empty() {
            self.report(Diagnostic::error(name.loc, "#else without #if").with_len(4));
            self.skip_line_raw();
            return;
        }
        self.check_after_else(name);
        let c = self.frames.last_mut().unwrap().conds.last_mut().unwrap();
        c.seen_else = true;
        c.taken = true;
        self.end_directive(Some("else"));
        self.spoil_guard_at_depth_one();
        self.leave_directive();
        self.skip_group();
    }

    fn do_endif(&mut self, name: Token) {
        let f = self.frames.last_mut().unwrap();
        if f.conds.pop().is_none() {
            self.report(Diagnostic::error(name.loc, "#endif without #if").with_len(5));
            self.skip_line_raw();
            return;
        }
        if f.conds.is_empty() {
            if let MiState::Inside(g) = f.mi {
                f.mi = MiState::After(g);
            }
        }
        self.end_directive(Some("endif"));
    }

    fn do_define(&mut self) {
        let name = self.next_in_directive();
        if name.kind == TokKind::Eod {
            self.report(Diagnostic::error(
                name.loc,
                "no macro name given in #define directive",
            ));
            return;
        }
        if name.kind != TokKind::Ident {
            self.report(Diagnostic::error(
                name.loc,
                "macro names must be identifiers",
            ));
            self.skip_line_raw();
            return;
        }
        if name.sym == self.sym_defined {
            self.report(
                Diagnostic::error(name.loc, "\"defined\" cannot be used as a macro name")
                    .with_len(7),
            );
            self.skip_line_raw();
            return;
        }
        let tokens = self.read_line_raw();
        let m = self.parse_definition(name, &tokens);
        self.give_buf(tokens);
        let Some(m) = m else {
            return;
        };
        self.install_macro(name, m);
    }

    /// Parses a definition's parameter list and body (`tokens` follow the name).
    pub(super) fn parse_definition(&mut self, name: Token, tokens: &[Token]) -> Option<Macro> {
        let mut kind = MacroKind::Object;
        let mut body_start = 0;
        let is_funlike = tokens.first().is_some_and(|t| {
            t.kind == TokKind::Punct && t.sym == p::LPAREN && !t.has(flags::PREV_WHITE)
        });
        if is_funlike {
            let mut params = Vec::new();
            let mut variadic = false;
            let mut i = 1;
            let mut expect_param = true;
            loop {
                let Some(t) = tokens.get(i).copied() else {
                    self.report(Diagnostic::error(
                        name.loc,
                        "missing ')' in macro parameter list",
                    ));
                    return None;
                };
                i += 1;
                if t.kind == TokKind::Punct
                    && t.sym == p::RPAREN
                    && (!expect_param || params.is_empty())
                    && !variadic
                {
                    if expect_param && !params.is_empty() {
                        self.report(Diagnostic::error(t.loc, "parameter name missing"));
                        return None;
                    }
                    break;
                }
                if variadic {
                    if t.kind == TokKind::Punct && t.sym == p::RPAREN {
                        break;
                    }
                    self.report(Diagnostic::error(t.loc, "missing ')' after \"...\""));
                    return None;
                }
                if expect_param {
                    if t.kind == TokKind::Ident {
                        if t.sym == self.sym_va_args {
                            self.report(
                                Diagnostic::error(
                                    t.loc,
                                    "__VA_ARGS__ can not be used as a parameter name",
                                )
                                .with_len(11),
                            );
                            return None;
                        }
                        if params.contains(&t.sym) {
                            let n = self.interner.str(t.sym).into_owned();
                            self.report(Diagnostic::error(
                                t.loc,
                                format!("duplicate macro parameter \"{n}\""),
                            ));
                            return None;
                        }
                        params.push(t.sym);
                        // GNU named variadic: `args...`
                        if let Some(n) = tokens.get(i) {
                            if n.kind == TokKind::Punct && n.sym == p::ELLIPSIS {
                                variadic = true;
                                i += 1;
                            }
                        }
                        expect_param = false;
                        continue;
                    }
                    if t.kind == TokKind::Punct && t.sym == p::ELLIPSIS {
                        params.push(self.sym_va_args);
                        variadic = true;
                        expect_param = false;
                        continue;
                    }
                    let s = self.interner.str(t.sym).into_owned();
                    let msg = if t.kind == TokKind::Punct && t.sym == p::RPAREN {
                        "parameter name missing".to_string()
                    } else {
                        format!("\"{s}\" may not appear in macro parameter list")
                    };
                    self.report(Diagnostic::error(t.loc, msg));
                    return None;
                }
                if t.kind == TokKind::Punct && t.sym == p::COMMA {
                    expect_param = true;
                    continue;
                }
                if t.kind == TokKind::Punct && t.sym == p::RPAREN {
                    break;
                }
                let s = self.interner.str(t.sym).into_owned();
                self.report(Diagnostic::error(
                    t.loc,
                    format!("expected ',' or ')', found \"{s}\""),
                ));
                return None;
            }
            body_start = i;
            kind = MacroKind::Function {
                params: params.into(),
                variadic,
            };
        } else if let Some(first) = tokens.first() {
            if !first.has(flags::PREV_WHITE) {
                self.report(Diagnostic::warning(
                    first.loc,
                    "missing whitespace after the macro name",
                ));
            }
        }
        // gcc reports errors in a body at the token before it (the name, or the `)`).
        let before_body = if body_start == 0 {
            name.loc
        } else {
            tokens[body_start - 1].loc
        };
        let raw_body: &[Token] = &tokens[body_start..];
        // Built in a spare buffer, then copied once into the shared definition.
        let mut body: Vec<Token> = self.take_buf();
        body.reserve(raw_body.len());
        let params: &[Symbol] = match &kind {
            MacroKind::Function { params, .. } => params,
            _ => &[],
        };
        let variadic = matches!(kind, MacroKind::Function { variadic: true, .. });
        for (i, t) in raw_body.iter().enumerate() {
            let mut t = *t;
            t.flags &= !flags::BOL;
            if i == 0 {
                t.flags &= !flags::PREV_WHITE;
            }
            let is_paste =
                t.kind == TokKind::Punct && (t.sym == p::HASHHASH || t.sym == p::HASHHASH_DIGRAPH);
            if is_paste {
                if body.is_empty() || i + 1 == raw_body.len() {
                    self.report(Diagnostic::error(
                        before_body,
                        "'##' cannot appear at either end of a macro expansion",
                    ));
                    return None;
                }
                body.last_mut().unwrap().flags |= flags::PASTE_LEFT;
                continue;
            }
            if t.kind == TokKind::Ident
                && (t.sym == self.sym_va_args)
                && !(variadic && params.last() == Some(&self.sym_va_args))
            {
                self.report(
                    Diagnostic::warning(
                        t.loc,
                        "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                    )
                    .with_len(11),
                );
            }
            if t.kind == TokKind::Ident && t.sym == self.sym_va_opt && !variadic {
                // gcc warns and keeps it as an ordinary identifier.
                self.report(Diagnostic::warning(
                    t.loc,
                    "__VA_OPT__ can only appear in the expansion of a C++20 variadic macro",
                ));
            }
            if matches!(kind, MacroKind::Function { .. })
                && t.kind == TokKind::Punct
                && (t.sym == p::HASH || t.sym == p::HASH_DIGRAPH)
            {
                let next = raw_body.get(i + 1);
                let ok = next.is_some_and(|n| {
                    n.kind == TokKind::Ident
                        && (params.contains(&n.sym) || n.sym == self.sym_va_opt)
                });
                if !ok {
                    self.report(Diagnostic::error(
                        before_body,
                        "'#' is not followed by a macro parameter",
                    ));
                    return None;
                }
            }
            body.push(t);
        }
        if !params.is_empty() {
            super::macros::mark_params(&mut body, params);
        }
        let name_str: std::rc::Rc<str> = self.interner.str(name.sym).into();
        let shared_body: std::rc::Rc<[Token]> = body.as_slice().into();
        self.give_buf(body);
        Some(Macro {
            name: name_str,
            kind,
            body: shared_body,
            def_loc: name.loc,
            disabled: false,
            used: false,
            predefined: name.loc.file.0 == 0
                || self.sm.file(name.loc.file).path.is_none() && name.loc.file != self.main_file,
        })
    }

    /// `#else`/`#elif` after the conditional's `#else`: an error, and where it began.
    fn check_after_else(&mut self, name: Token) {
        let Some(c) = self.frames.last().and_then(|f| f.conds.last()) else {
            return;
        };
        if !c.seen_else {
            return;
        }
        let began = c.loc;
        let w = self.interner.str(name.sym).into_owned();
        let len = w.len() as u32;
        self.report(Diagnostic::error(name.loc, format!("#{w} after #else")).with_len(len));
        let mut note = Diagnostic::error(began, "the conditional began here");
        note.line_only = true;
        self.report(note);
    }

    /// Defines a macro, warning when it changes an existing definition.
    pub(super) fn install_macro(&mut self, name: Token, m: Macro) {
        if let Some(old) = self.macros.get(&name.sym) {
            let builtin = matches!(old.kind, MacroKind::Builtin(_));
            if builtin || !self.same_definition(old, &m) {
                let n = m.name.to_string();
                let old_loc = old.def_loc;
                let old_pre = old.predefined;
                // gcc reports redefinitions by line only.
                let mut d = Diagnostic::warning(name.loc, format!("\"{n}\" redefined"));
                d.line_only = true;
                d.option = if builtin {
                    Some("builtin-macro-redefined")
                } else {
                    None
                };
                self.report(d);
                if !builtin && !old_pre && !self.diags.policy.suppress_all {
                    let mut note = Diagnostic::new(
                        Level::Note,
                        Some(old_loc),
                        "this is the location of the previous definition",
                    );
                    note.line_only = true;
                    self.report(note);
                }
            }
        }
        self.macros.insert(name.sym, m);
    }

    fn same_definition(&self, a: &Macro, b: &Macro) -> bool {
        let kinds_equal = match (&a.kind, &b.kind) {
            (MacroKind::Object, MacroKind::Object) => true,
            (
                MacroKind::Function {
                    params: pa,
                    variadic: va,
                },
                MacroKind::Function {
                    params: pb,
                    variadic: vb,
                },
            ) => pa == pb && va == vb,
            _ => false,
        };
        kinds_equal
            && a.body.len() == b.body.len()
            && a.body
                .iter()
                .zip(b.body.iter())
                .enumerate()
                .all(|(i, (x, y))| {
                    x.sym == y.sym
                        && x.kind == y.kind
                        && (i == 0 || x.has(flags::PREV_WHITE) == y.has(flags::PREV_WHITE))
                        && x.has(flags::PASTE_LEFT) == y.has(flags::PASTE_LEFT)
                })
    }

    fn do_undef(&mut self) {
        let toks = self.read_line_raw();
        let (first, second) = (toks.first().copied(), toks.get(1).copied());
        self.give_buf(toks);
        let Some(name) = first else {
            let at = self.last_eod;
            self.report(Diagnostic::error(
                at,
                "no macro name given in #undef directive",
            ));
            return;
        };
        if name.kind != TokKind::Ident {
            self.report(Diagnostic::error(
                name.loc,
                "macro names must be identifiers",
            ));
            return;
        }
        if let Some(second) = second {
            self.warn_extra_tokens("undef", second);
        }
        if let Some(m) = self.macros.get(&name.sym) {
            if matches!(m.kind, MacroKind::Builtin(_)) {
                let n = m.name.to_string();
                self.report(
                    Diagnostic::warning(name.loc, format!("undefining \"{n}\""))
                        .with_len(n.len() as u32),
                );
            }
        }
        if name.sym == self.sym_defined {
            self.report(
                Diagnostic::error(name.loc, "\"defined\" cannot be used as a macro name")
                    .with_len(7),
            );
            return;
        }
        self.macros.remove(&name.sym);
    }

    /// `#line N "file"` and the GNU line marker `# N "file" flags`.
    fn do_line(&mut self, dname: Token, marker: bool) {
        let mut toks = if marker { vec![dname] } else { Vec::new() };
        let rest = self.read_line_raw();
        if marker {
            toks.extend(rest);
        } else {
            toks = self.expand_list(rest);
        }
        let dir = if marker { "" } else { "#line " };
        let Some(num) = toks.first() else {
            self.report(Diagnostic::error(
                dname.loc,
                "unexpected end of file after #line",
            ));
            return;
        };
        let digits = self.interner.get(num.sym).to_vec();
        let valid = num.kind == TokKind::Number && digits.iter().all(|b| b.is_ascii_digit());
        if !valid {
            let s = self.interner.str(num.sym).into_owned();
            self.report(Diagnostic::error(
                num.loc,
                format!("\"{s}\" after {dir}is not a positive integer")
                    .replace("after  is", "after # is"),
            ));
            return;
        }
        let line: u64 = std::str::from_utf8(&digits)
            .unwrap()
            .parse()
            .unwrap_or(u64::MAX);
        if line > 2_147_483_647 {
            self.report(Diagnostic::warning(num.loc, "line number out of range"));
        }
        let mut new_name = None;
        if let Some(f) = toks.get(1) {
            if f.kind == TokKind::Str && self.interner.get(f.sym).starts_with(b"\"") {
                let s = self.interner.get(f.sym);
                new_name = Some(unescape_string(&s[1..s.len() - 1]));
            } else {
                let s = self.interner.str(f.sym).into_owned();
                self.report(Diagnostic::error(
                    f.loc,
                    format!("invalid filename \"{s}\""),
                ));
                return;
            }
        }
        let frame = self.frames.last().unwrap();
        let file = frame.file;
        let next_line_offset = frame.lexer.pos() as u32;
        self.sm
            .file_mut(file)
            .line_directives
            .push((next_line_offset, line as u32, new_name));
        if marker {
            // Flag 3 marks the rest of the file as a system header.
            if toks
                .iter()
                .skip(2)
                .any(|t| self.interner.get(t.sym) == b"3")
            {
                self.mark_system();
            }
        }
        self.events.push(Event::Line {
            file,
            line: line as u32,
        });
    }

    fn do_diagnostic_directive(&mut self, name: Token, is_error: bool) {
        let frame = self.frames.last_mut().unwrap();
        let text = frame.lexer.rest_of_line().to_vec();
        let text = String::from_utf8_lossy(&text).trim().to_string();
        self.skip_line_raw();
        let word = if is_error { "#error" } else { "#warning" };
        let msg = if text.is_empty() {
            word.to_string()
        } else {
            format!("{word} {text}")
        };
        let d = if is_error {
            Diagnostic::error(name.loc, msg)
        } else {
            Diagnostic::warning(name.loc, msg).with_option("cpp")
        }
        .with_len(name_len(is_error));
        self.report(d);
    }

    /// Handles the pragmas the preprocessor owns and passes the rest on as events.
    pub(super) fn do_pragma(&mut self, name: Token, toks: Vec<Token>) {
        let words: Vec<Vec<u8>> = toks
            .iter()
            .take(2)
            .map(|t| self.interner.get(t.sym).to_vec())
            .collect();
        let first = words.first().map(|w| w.as_slice());
        let second = words.get(1).map(|w| w.as_slice());
        match (first, second) {
            (Some(b"once"), _) => {
                if self.frames.len() <= 1 || self.frames.last().unwrap().file == self.main_file {
                    self.report(
                        Diagnostic::warning(toks[0].loc, "#pragma once in main file").with_len(4),
                    );
                }
                let file = self.frames.last().unwrap().file;
                if let Some(path) = self.sm.path(file) {
                    if let Ok(c) = std::fs::canonicalize(path) {
                        self.once.insert(c);
                    }
                }
                return;
            }
            (Some(b"GCC"), Some(b"system_header")) => {
                if self.frames.last().unwrap().file == self.main_file {
                    self.report(
                        Diagnostic::warning(
                            toks[1].loc,
                            "#pragma system_header ignored outside include file",
                        )
                        .with_len(13),
                    );
                } else {
                    self.mark_system();
                    let f = self.frames.last().unwrap().file;
                    let (line, _) = self
                        .sm
                        .file(f)
                        .presumed(self.frames.last().unwrap().lexer.pos() as u32);
                    self.events.push(Event::Line { file: f, line });
                }
                return;
            }
            (Some(b"GCC"), Some(b"poison")) => {
                for t in &toks[2..] {
                    if t.kind == TokKind::Ident {
                        self.macros.remove(&t.sym);
                        self.poisoned.insert(t.sym);
                    } else {
                        self.report(Diagnostic::error(
                            t.loc,
                            "invalid #pragma GCC poison directive",
                        ));
                        break;
                    }
                }
                return;
            }
            (Some(b"GCC"), Some(w)) if w == b"warning" || w == b"error" => {
                let is_error = w == b"error";
                match toks.get(2) {
                    Some(s) if s.kind == TokKind::Str => {
                        let text = self.interner.get(s.sym).to_vec();
                        let msg = unescape_string(&text[1..text.len() - 1]);
                        let d = if is_error {
                            Diagnostic::error(s.loc, msg)
                        } else {
                            Diagnostic::warning(s.loc, msg)
                        }
                        .with_len(text.len() as u32);
                        self.report(d);
                    }
                    _ => {
                        let w = if is_error { "error" } else { "warning" };
                        self.report(Diagnostic::error(
                            toks[1].loc,
                            format!("invalid \"#pragma GCC {w}\" directive"),
                        ));
                    }
                }
                return;
            }
            (Some(w), _) if w == b"push_macro" || w == b"pop_macro" => {
                let push = w == b"push_macro";
                let name_tok = toks.get(2).filter(|t| t.kind == TokKind::Str).copied();
                if let (Some(s), Some(lp), Some(rp)) = (name_tok, toks.get(1), toks.get(3)) {
                    if lp.sym == p::LPAREN && rp.sym == p::RPAREN {
                        let text = self.interner.get(s.sym).to_vec();
                        let mname = text[1..text.len() - 1].to_vec();
                        let sym = self.interner.intern(&mname);
                        if push {
                            let cur = self.macros.get(&sym).cloned();
                            self.pushed.entry(sym).or_default().push(cur);
                        } else if let Some(prev) = self.pushed.get_mut(&sym).and_then(|v| v.pop()) {
                            match prev {
                                Some(m) => {
                                    self.macros.insert(sym, m);
                                }
                                None => {
                                    self.macros.remove(&sym);
                                }
                            }
                        }
                    }
                }
                // Handled here; gcc does not pass these on either.
                return;
            }
            _ => {}
        }
        let text = self.spell_tokens(&toks);
        self.events.push(Event::Pragma {
            text,
            loc: name.loc,
        });
    }

    /// Tokens spelled with single spaces where they had whitespace.
    pub(super) fn spell_tokens(&self, toks: &[Token]) -> String {
        let mut s = String::new();
        for (i, t) in toks.iter().enumerate() {
            if i > 0 && t.has(flags::PREV_WHITE) {
                s.push(' ');
            }
            s.push_str(&self.interner.str(t.sym));
        }
        s
    }

    /// Macro-expands a list of tokens in isolation (macro arguments, `#line`, `#include`):
    /// an end marker after them stops the expansion (a reader that stopped at the marker,
    /// such as an unterminated argument list, pushed it back).
    pub(super) fn expand_list(&mut self, toks: Vec<Token>) -> Vec<Token> {
        // Expansion usually lengthens the list: room for several times its length.
        let mut out = self.take_buf();
        out.reserve(toks.len() * 4 + 16);
        self.expand_list_into(toks, &mut out);
        out
    }

    /// [`Preprocessor::expand_list`], the result appended to `out`.
    pub(super) fn expand_list_into(&mut self, toks: Vec<Token>, out: &mut Vec<Token>) {
        let base = self.contexts.len();
        let mut toks = toks;
        toks.push(Token::new(TokKind::Placemarker, Symbol(0), Loc::default()));
        self.contexts.push(super::macros::Context {
            tokens: toks,
            pos: 0,
            macro_sym: None,
        });
        loop {
            let t = self.next_token();
            if t.kind == TokKind::Placemarker || t.kind == TokKind::Eof || t.kind == TokKind::Eod {
                break;
            }
            out.push(t);
        }
        while self.contexts.len() > base {
            self.pop_context();
        }
    }
}

fn name_len(is_error: bool) -> u32 {
    if is_error {
        5
    } else {
        7
    }
}

/// The value of a string literal's body with escapes removed (for file names and
/// `_Pragma`): only `\\` and `\"` are special, as in gcc's destringizing.
pub(super) fn unescape_string(body: &[u8]) -> String {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\\' && i + 1 < body.len() && (body[i + 1] == b'\\' || body[i + 1] == b'"') {
            out.push(body[i + 1]);
            i += 2;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
