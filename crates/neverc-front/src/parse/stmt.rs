//! Statements (C17 6.8) and block items, with GNU local labels, case ranges, computed
//! goto and `asm` statements. A statement that fails to parse is skipped to its `;` or to
//! the `}` of its block, so later errors are still found.

use super::ast::*;
use super::ctok::{Kw, P, T};
use super::parser::Parser;

impl Parser<'_> {
    /// `{ block-item* }` in a new scope.
    pub(super) fn compound(&mut self) -> StmtId {
        let loc = self.loc();
        if !self.expect(P::LBrace) {
            return self.add_stmt(loc, StmtKind::Error);
        }
        if !self.enter() {
            return self.add_stmt(loc, StmtKind::Error);
        }
        self.push_scope();
        let base = self.item_stack.len();
        while !self.is(P::RBrace) && self.kind() != T::Eof {
            let start = self.pos;
            let s = self.block_item();
            self.item_stack.push(s);
            if self.pos == start {
                self.pos += 1;
            }
        }
        let items = self.item_stack.split_off(base);
        self.pop_scope();
        self.leave();
        if self.kind() == T::Eof {
            self.expected("declaration or statement");
        } else {
            self.bump();
        }
        self.add_stmt(loc, StmtKind::Compound(items))
    }

    /// Does the current token start a declaration (rather than a statement)?
    fn at_declaration(&self) -> bool {
        let t = self.tok();
        if t.kind == T::Ident {
            // `T:` is a label even when T names a type.
            return self.is_typedef(t.sym()) && self.peek(1).kind != T::P(P::Colon);
        }
        if t.kind == T::Kw(Kw::StaticAssert) {
            return true;
        }
        if t.kind == T::Kw(Kw::Extension) {
            let mut i = 1;
            while self.peek(i).kind == T::Kw(Kw::Extension) {
                i += 1;
            }
            return self.starts_decl(self.peek(i));
        }
        self.starts_decl(t)
    }

    fn block_item(&mut self) -> StmtId {
        let loc = self.loc();
        if self.is_kw(Kw::Label) {
            self.bump();
            let mut names = Vec::new();
            loop {
                if self.kind() != T::Ident {
                    self.expected("identifier");
                    self.skip_to_semi();
                    return self.add_stmt(loc, StmtKind::LocalLabels(names));
                }
                let t = self.bump();
                names.push((t.sym(), self.tloc(&t)));
                if !self.eat(P::Comma) {
                    break;
                }
            }
            if !self.expect(P::Semi) {
                self.skip_to_semi();
            }
            return self.add_stmt(loc, StmtKind::LocalLabels(names));
        }
        if self.at_declaration() || self.unknown_type_name_ahead() {
            while self.eat_kw(Kw::Extension) {}
            let d = self.declaration(false);
            return self.add_stmt(loc, StmtKind::Decl(d));
        }
        self.statement()
    }

    /// `a b;` / `a *b = ...;` with `a` not a type: a declaration with an unknown type name.
    fn unknown_type_name_ahead(&self) -> bool {
        let t = self.tok();
        // The typedef lookup last: most statements fail the cheaper tests.
        t.kind == T::Ident
            && self.peek(1).kind == T::Ident
            && !self.is_typedef(t.sym())
            && matches!(
                self.peek(2).kind,
                T::P(P::Semi | P::Assign | P::Comma | P::LBracket | P::LParen)
            )
    }

    pub(super) fn statement(&mut self) -> StmtId {
        if !self.enter() {
            return self.add_stmt(self.loc(), StmtKind::Error);
        }
        let s = self.statement_inner();
        self.leave();
        s
    }

    /// A sub-statement ending a label: a declaration there is an error before C2x.
    fn labeled_body(&mut self) -> StmtId {
        if self.is(P::RBrace) {
            // gcc accepts a label at the end of a block (C2x) without a word.
            let loc = self.loc();
            return self.add_stmt(loc, StmtKind::Expr(None));
        }
        if self.at_declaration() && !self.c2x {
            let t = *self.tok();
            self.error_at(
                t,
                "a label can only be part of a statement and a declaration is not a statement",
            );
            let loc = self.loc();
            let d = self.declaration(false);
            return self.add_stmt(loc, StmtKind::Decl(d));
        }
        self.statement()
    }

    fn paren_cond(&mut self) -> ExprId {
        if !self.expect(P::LParen) {
            let loc = self.loc();
            let e = self.expr();
            let _ = loc;
            return e;
        }
        let e = self.expr();
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
        e
    }

    fn semi(&mut self) {
        if !self.expect(P::Semi) {
            self.skip_to_semi();
        }
    }

    fn statement_inner(&mut self) -> StmtId {
        let t = *self.tok();
        let loc = self.tloc(&t);
        match t.kind {
            T::P(P::LBrace) => self.compound(),
            T::P(P::Semi) => {
                self.bump();
                self.add_stmt(loc, StmtKind::Expr(None))
            }
            T::Ident if self.peek(1).kind == T::P(P::Colon) => {
                self.bump();
                self.bump();
                let mut attrs = Vec::new();
                self.attributes(&mut attrs);
                let s = self.labeled_body();
                self.add_stmt(loc, StmtKind::Label(t.sym(), attrs, s))
            }
            T::Kw(Kw::Case) => {
                self.bump();
                let lo = self.cond_expr();
                let hi = if self.eat(P::Ellipsis) {
                    Some(self.cond_expr())
                } else {
                    None
                };
                if !self.expect(P::Colon) {
                    self.skip_to_semi();
                    return self.add_stmt(loc, StmtKind::Error);
                }
                let s = self.labeled_body();
                self.add_stmt(loc, StmtKind::Case(lo, hi, s))
            }
            T::Kw(Kw::Default) => {
                self.bump();
                self.expect(P::Colon);
                let s = self.labeled_body();
                self.add_stmt(loc, StmtKind::Default(s))
            }
            T::Kw(Kw::If) => {
                self.bump();
                let c = self.paren_cond();
                let then = self.statement();
                let els = if self.eat_kw(Kw::Else) {
                    Some(self.statement())
                } else {
                    None
                };
                self.add_stmt(loc, StmtKind::If(c, then, els))
            }
            T::Kw(Kw::Switch) => {
                self.bump();
                let c = self.paren_cond();
                let body = self.statement();
                self.add_stmt(loc, StmtKind::Switch(c, body))
            }
            T::Kw(Kw::While) => {
                self.bump();
                let c = self.paren_cond();
                let body = self.statement();
                self.add_stmt(loc, StmtKind::While(c, body))
            }
            T::Kw(Kw::Do) => {
                self.bump();
                let body = self.statement();
                if !self.eat_kw(Kw::While) {
                    self.expected("'while'");
                    self.skip_to_semi();
                    let e = self.add_expr(loc, ExprKind::Error);
                    return self.add_stmt(loc, StmtKind::DoWhile(body, e));
                }
                let c = self.paren_cond();
                self.semi();
                self.add_stmt(loc, StmtKind::DoWhile(body, c))
            }
            T::Kw(Kw::For) => {
                self.bump();
                self.push_scope();
                let mut init = ForInit::None;
                let mut cond = None;
                let mut step = None;
                if self.expect(P::LParen) {
                    if self.at_declaration() {
                        while self.eat_kw(Kw::Extension) {}
                        init = ForInit::Decl(self.declaration(false));
                    } else {
                        if !self.is(P::Semi) {
                            init = ForInit::Expr(self.expr());
                        }
                        self.expect(P::Semi);
                    }
                    if !self.is(P::Semi) {
                        cond = Some(self.expr());
                    }
                    self.expect(P::Semi);
                    if !self.is(P::RParen) {
                        step = Some(self.expr());
                    }
                    if !self.expect(P::RParen) {
                        self.skip_to_rparen();
                        self.eat(P::RParen);
                    }
                }
                let body = self.statement();
                self.pop_scope();
                self.add_stmt(
                    loc,
                    StmtKind::For {
                        init,
                        cond,
                        step,
                        body,
                    },
                )
            }
            T::Kw(Kw::Goto) => {
                self.bump();
                let k = if self.eat(P::Star) {
                    StmtKind::GotoComputed(self.expr())
                } else if self.kind() == T::Ident {
                    StmtKind::Goto(self.bump().sym())
                } else {
                    self.expected("identifier or '*'");
                    StmtKind::Error
                };
                self.semi();
                self.add_stmt(loc, k)
            }
            T::Kw(Kw::Continue) => {
                self.bump();
                self.semi();
                self.add_stmt(loc, StmtKind::Continue)
            }
            T::Kw(Kw::Break) => {
                self.bump();
                self.semi();
                self.add_stmt(loc, StmtKind::Break)
            }
            T::Kw(Kw::Return) => {
                self.bump();
                let e = if self.is(P::Semi) {
                    None
                } else {
                    Some(self.expr())
                };
                self.semi();
                self.add_stmt(loc, StmtKind::Return(e))
            }
            T::Kw(Kw::Asm) => self.asm_stmt(),
            T::Kw(Kw::Else) => {
                self.expected("expression");
                self.bump();
                self.add_stmt(loc, StmtKind::Error)
            }
            _ => {
                let e = self.expr();
                if self.is(P::Semi) {
                    self.bump();
                } else {
                    self.expected_after("';'");
                    self.skip_to_semi();
                }
                self.add_stmt(loc, StmtKind::Expr(Some(e)))
            }
        }
    }

    fn asm_operands(&mut self) -> Vec<AsmOperand> {
        let mut v = Vec::new();
        if !matches!(self.kind(), T::Str | T::P(P::LBracket)) {
            return v;
        }
        loop {
            let name = if self.eat(P::LBracket) {
                let n = if self.kind() == T::Ident {
                    Some(self.bump().sym())
                } else {
                    self.expected("identifier");
                    None
                };
                self.expect(P::RBracket);
                n
            } else {
                None
            };
            let constraint = self.string_lit();
            let expr = if self.expect(P::LParen) {
                let e = self.expr();
                if !self.expect(P::RParen) {
                    self.skip_to_rparen();
                    self.eat(P::RParen);
                }
                e
            } else {
                self.add_expr(self.loc(), ExprKind::Error)
            };
            v.push(AsmOperand {
                name,
                constraint,
                expr,
            });
            if !self.eat(P::Comma) {
                return v;
            }
        }
    }

    fn asm_stmt(&mut self) -> StmtId {
        let loc = self.bump_loc();
        let mut a = AsmStmt {
            volatile: false,
            inline: false,
            goto: false,
            template: 0,
            outputs: Vec::new(),
            inputs: Vec::new(),
            clobbers: Vec::new(),
            labels: Vec::new(),
            basic: true,
        };
        loop {
            match self.kind() {
                T::Kw(Kw::Volatile) => a.volatile = true,
                T::Kw(Kw::Inline) => a.inline = true,
                T::Kw(Kw::Goto) => a.goto = true,
                _ => break,
            }
            self.bump();
        }
        if !self.expect(P::LParen) {
            self.skip_to_semi();
            return self.add_stmt(loc, StmtKind::Error);
        }
        a.template = self.string_lit();
        // Sections separated by `:`; `::` is two colons here.
        let mut section = 0;
        while self.eat(P::Colon) {
            a.basic = false;
            section += 1;
            match section {
                1 => a.outputs = self.asm_operands(),
                2 => a.inputs = self.asm_operands(),
                3 => {
                    while self.kind() == T::Str {
                        let s = self.bump().lit();
                        a.clobbers.push(s);
                        if !self.eat(P::Comma) {
                            break;
                        }
                    }
                }
                4 => {
                    while self.kind() == T::Ident {
                        let t = self.bump();
                        a.labels.push((t.sym(), self.tloc(&t)));
                        if !self.eat(P::Comma) {
                            break;
                        }
                    }
                }
                _ => {
                    self.expected("')'");
                    break;
                }
            }
        }
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
        self.semi();
        self.add_stmt(loc, StmtKind::Asm(Box::new(a)))
    }
}
