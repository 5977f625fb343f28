//! Expressions (C17 6.5) by precedence climbing, with casts told from parenthesised
//! expressions by the typedef scope, compound literals, and the GNU forms (statement
//! expressions, `&&label`, `?:` without a middle, `__builtin_va_arg`, `__builtin_offsetof`,
//! `__builtin_types_compatible_p`, `__builtin_choose_expr`, `__real__`/`__imag__`).

use super::ast::*;
use super::ctok::{Kw, Tok, P, T};
use super::parser::Parser;
use crate::source::Loc;

/// Can a token of kind `t` follow an operand as a postfix operator?
#[inline]
fn starts_postfix(t: T) -> bool {
    matches!(
        t,
        T::P(P::LBracket | P::LParen | P::Dot | P::Arrow | P::Inc | P::Dec)
    )
}

/// Binary operators by punctuator, with their precedence (higher binds tighter; 0: the
/// punctuator is no binary operator). A table: looked up after every operand. 256
/// entries, so that indexing by a punctuator (a byte) needs no bounds check.
const BINARY: [(BinOp, u8); 256] = {
    let mut t = [(BinOp::Mul, 0u8); 256];
    t[P::Star as usize] = (BinOp::Mul, 10);
    t[P::Slash as usize] = (BinOp::Div, 10);
    t[P::Percent as usize] = (BinOp::Mod, 10);
    t[P::Plus as usize] = (BinOp::Add, 9);
    t[P::Minus as usize] = (BinOp::Sub, 9);
    t[P::Shl as usize] = (BinOp::Shl, 8);
    t[P::Shr as usize] = (BinOp::Shr, 8);
    t[P::Lt as usize] = (BinOp::Lt, 7);
    t[P::Gt as usize] = (BinOp::Gt, 7);
    t[P::Le as usize] = (BinOp::Le, 7);
    t[P::Ge as usize] = (BinOp::Ge, 7);
    t[P::EqEq as usize] = (BinOp::Eq, 6);
    t[P::Ne as usize] = (BinOp::Ne, 6);
    t[P::Amp as usize] = (BinOp::BitAnd, 5);
    t[P::Caret as usize] = (BinOp::BitXor, 4);
    t[P::Pipe as usize] = (BinOp::BitOr, 3);
    t[P::AndAnd as usize] = (BinOp::And, 2);
    t[P::OrOr as usize] = (BinOp::Or, 1);
    t
};

/// The binary operator a token of kind `t` is, and its precedence (0: none).
#[inline]
fn binop(t: T) -> (BinOp, u8) {
    match t {
        T::P(p) => BINARY[p as u8 as usize],
        _ => (BinOp::Mul, 0),
    }
}

/// A binary operator waiting for its right operand (see `binary_ops`).
pub(super) struct PendingOp {
    lhs: ExprId,
    loc: Loc,
    op: BinOp,
    prec: u8,
}

/// Assignment operators by punctuator: `Some(None)` for `=`, `Some(Some(op))` for
/// `op=`, None for the other punctuators. A table: looked up after every operand of an
/// assignment-expression. 256 entries, as `BINARY`.
const ASSIGN: [Option<Option<BinOp>>; 256] = {
    let mut t = [None; 256];
    t[P::Assign as usize] = Some(None);
    t[P::MulAssign as usize] = Some(Some(BinOp::Mul));
    t[P::DivAssign as usize] = Some(Some(BinOp::Div));
    t[P::ModAssign as usize] = Some(Some(BinOp::Mod));
    t[P::AddAssign as usize] = Some(Some(BinOp::Add));
    t[P::SubAssign as usize] = Some(Some(BinOp::Sub));
    t[P::ShlAssign as usize] = Some(Some(BinOp::Shl));
    t[P::ShrAssign as usize] = Some(Some(BinOp::Shr));
    t[P::AndAssign as usize] = Some(Some(BinOp::BitAnd));
    t[P::XorAssign as usize] = Some(Some(BinOp::BitXor));
    t[P::OrAssign as usize] = Some(Some(BinOp::BitOr));
    t
};

#[inline]
fn assign_op(t: T) -> Option<Option<BinOp>> {
    match t {
        T::P(p) => ASSIGN[p as u8 as usize],
        _ => None,
    }
}

impl Parser<'_> {
    /// expression: assignment-expressions separated by commas.
    #[inline]
    pub(super) fn expr(&mut self) -> ExprId {
        let e = self.assign_expr();
        if self.is(P::Comma) {
            return self.comma_rest(e);
        }
        e
    }

    /// The `, b, c` of a comma expression whose first operand is `e`.
    #[inline(never)]
    fn comma_rest(&mut self, mut e: ExprId) -> ExprId {
        while self.is(P::Comma) {
            let loc = self.bump_loc();
            let r = self.assign_expr();
            e = self.add_expr(loc, ExprKind::Comma(e, r));
        }
        e
    }

    pub(super) fn assign_expr(&mut self) -> ExprId {
        self.assign_expr_here()
    }

    /// `assign_expr`'s body, for the callers that take it in place (a parenthesised
    /// expression: one call less per `(`).
    #[inline(always)]
    fn assign_expr_here(&mut self) -> ExprId {
        if !self.enter() {
            return self.add_expr(self.loc(), ExprKind::Error);
        }
        let lhs = self.cond_expr();
        let r = if let Some(op) = assign_op(self.kind()) {
            self.assign_rest(op, lhs)
        } else {
            lhs
        };
        self.leave();
        r
    }

    /// The `= b` (or `op= b`) of an assignment whose left operand is `lhs`. Out of line:
    /// most assignment-expressions (arguments, operands in parentheses) have none, and
    /// `assign_expr` without it saves and restores fewer registers.
    #[inline(never)]
    fn assign_rest(&mut self, op: Option<BinOp>, lhs: ExprId) -> ExprId {
        let loc = self.bump_loc();
        let rhs = self.assign_expr();
        self.add_expr(loc, ExprKind::Assign(op, lhs, rhs))
    }

    /// conditional-expression (also the constant-expression of the grammar).
    #[inline]
    pub(super) fn cond_expr(&mut self) -> ExprId {
        let c = self.binary();
        if !self.is(P::Question) {
            return c;
        }
        self.cond_rest(c)
    }

    /// The `? b : c` of a conditional expression whose condition is `c`.
    #[inline(never)]
    fn cond_rest(&mut self, c: ExprId) -> ExprId {
        let loc = self.bump_loc();
        let mid = if self.is(P::Colon) {
            None
        } else {
            Some(self.expr())
        };
        if !self.expect(P::Colon) {
            return self.add_expr(loc, ExprKind::Cond(c, mid.into(), c));
        }
        let r = self.cond_expr();
        self.add_expr(loc, ExprKind::Cond(c, mid.into(), r))
    }

    /// Binary operators over cast-expressions. Most operands stand alone (a call's
    /// argument, a parenthesised operand's inside): they return at once; the operators are
    /// climbed in `binary_ops`.
    #[inline]
    fn binary(&mut self) -> ExprId {
        let e = self.cast_expr();
        if binop(self.kind()).1 == 0 {
            return e;
        }
        self.binary_ops(e)
    }

    /// Precedence climbing without recursion: the operators waiting for their right
    /// operand are kept on `op_stack` (strictly rising precedence) with their left
    /// operands. A node is made when an operator of no higher precedence follows its right
    /// operand, so the nodes come in the same order as from the recursive form
    /// (`lhs op binary(prec + 1)`).
    #[inline(never)]
    fn binary_ops(&mut self, first: ExprId) -> ExprId {
        let base = self.op_stack.len();
        let mut e = first;
        loop {
            let (op, prec) = binop(self.kind());
            while self.op_stack.len() > base && self.op_stack[self.op_stack.len() - 1].prec >= prec
            {
                let p = self.op_stack.pop().unwrap();
                e = self.add_expr(p.loc, ExprKind::Binary(p.op, p.lhs, e));
            }
            if prec == 0 {
                return e;
            }
            let loc = self.bump_loc();
            self.op_stack.push(PendingOp {
                lhs: e,
                loc,
                op,
                prec,
            });
            e = self.operand();
        }
    }

    /// A right operand of a binary operator: `cast_expr`, with an identifier or integer
    /// constant standing alone (most operands) taken in the operator loop itself.
    #[inline(always)]
    fn operand(&mut self) -> ExprId {
        let t = *self.tok();
        let kind = match t.kind {
            T::Ident => ExprKind::Ident(t.sym()),
            T::Int => ExprKind::Int(t.lit()),
            _ => return self.cast_expr(),
        };
        if starts_postfix(self.peek(1).kind) {
            return self.cast_expr();
        }
        self.pos += 1;
        self.add_expr(self.tloc(&t), kind)
    }

    /// cast-expression. Identifiers and constants, the usual operands, are taken here
    /// directly, and a parenthesised expression without the detour through `unary`.
    pub(super) fn cast_expr(&mut self) -> ExprId {
        let t = *self.tok();
        let kind = match t.kind {
            T::Ident => ExprKind::Ident(t.sym()),
            T::Int => ExprKind::Int(t.lit()),
            T::P(P::LParen) => return self.paren_or_cast(t),
            _ => return self.unary(),
        };
        self.pos += 1;
        let e = self.add_expr(self.tloc(&t), kind);
        if starts_postfix(self.kind()) {
            return self.postfix(e);
        }
        e
    }

    /// A cast, compound literal, statement expression or parenthesised expression, at
    /// its `(` (token `t`).
    fn paren_or_cast(&mut self, t: Tok) -> ExprId {
        let next = self.peek(1);
        // Only a keyword or a typedef name starts a type name.
        if !(matches!(next.kind, T::Ident | T::Kw(_)) && self.starts_type_name(next)) {
            if next.kind == T::P(P::LBrace) {
                // `({ ... })`
                let e = self.primary();
                return self.postfix(e);
            }
            // primary's `( expression )`, then the postfix operators.
            if !self.enter() {
                return self.add_expr(self.tloc(&t), ExprKind::Error);
            }
            self.pos += 1;
            // `self.expr()`, with the first assignment-expression taken in place.
            let mut inner = self.assign_expr_here();
            if self.is(P::Comma) {
                inner = self.comma_rest(inner);
            }
            self.paren_close();
            self.leave();
            let e = self.add_expr(self.tloc(&t), ExprKind::Paren(inner));
            if starts_postfix(self.kind()) {
                return self.postfix(e);
            }
            return e;
        }
        if !self.enter() {
            return self.add_expr(self.loc(), ExprKind::Error);
        }
        self.pos += 1;
        let loc = self.tloc(&t);
        let tn = self.type_name();
        self.expect(P::RParen);
        let r = if self.is(P::LBrace) {
            let init = self.initializer();
            let e = self.add_expr(loc, ExprKind::CompoundLit(tn, init));
            self.postfix(e)
        } else {
            let e = self.cast_expr();
            self.add_expr(loc, ExprKind::Cast(tn, e))
        };
        self.leave();
        r
    }

    fn unary(&mut self) -> ExprId {
        let t = *self.tok();
        let op = match t.kind {
            T::P(P::Inc) => Some((UnOp::PreInc, false)),
            T::P(P::Dec) => Some((UnOp::PreDec, false)),
            T::P(P::Amp) => Some((UnOp::Addr, true)),
            T::P(P::Star) => Some((UnOp::Deref, true)),
            T::P(P::Plus) => Some((UnOp::Plus, true)),
            T::P(P::Minus) => Some((UnOp::Neg, true)),
            T::P(P::Tilde) => Some((UnOp::BitNot, true)),
            T::P(P::Bang) => Some((UnOp::Not, true)),
            T::Kw(Kw::Real) => Some((UnOp::Real, true)),
            T::Kw(Kw::Imag) => Some((UnOp::Imag, true)),
            T::Kw(Kw::Extension) => Some((UnOp::Extension, true)),
            _ => None,
        };
        if let Some((op, cast)) = op {
            if !self.enter() {
                return self.add_expr(self.tloc(&t), ExprKind::Error);
            }
            self.bump();
            let e = if cast { self.cast_expr() } else { self.unary() };
            self.leave();
            return self.add_expr(self.tloc(&t), ExprKind::Unary(op, e));
        }
        match t.kind {
            T::P(P::AndAnd) => {
                self.bump();
                if self.kind() == T::Ident {
                    let n = self.bump();
                    return self.add_expr(self.tloc(&t), ExprKind::LabelAddr(n.sym()));
                }
                self.expected("identifier");
                self.add_expr(self.tloc(&t), ExprKind::Error)
            }
            T::Kw(Kw::Sizeof) | T::Kw(Kw::Alignof) | T::Kw(Kw::GnuAlignof) => {
                self.bump();
                let sizeof = t.kind == T::Kw(Kw::Sizeof);
                if self.is(P::LParen) && self.starts_type_name(self.peek(1)) {
                    let lp = self.bump_loc();
                    let tn = self.type_name();
                    self.expect(P::RParen);
                    if self.is(P::LBrace) {
                        let init = self.initializer();
                        let e = self.add_expr(lp, ExprKind::CompoundLit(tn, init));
                        let e = self.postfix(e);
                        let k = if sizeof {
                            ExprKind::SizeofExpr(e)
                        } else {
                            ExprKind::AlignofExpr(e)
                        };
                        return self.add_expr(self.tloc(&t), k);
                    }
                    let k = if sizeof {
                        ExprKind::SizeofType(tn)
                    } else {
                        ExprKind::AlignofType(tn, t.kind == T::Kw(Kw::Alignof))
                    };
                    return self.add_expr(self.tloc(&t), k);
                }
                if !self.enter() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let e = self.unary();
                self.leave();
                let k = if sizeof {
                    ExprKind::SizeofExpr(e)
                } else {
                    ExprKind::AlignofExpr(e)
                };
                self.add_expr(self.tloc(&t), k)
            }
            _ => {
                let e = self.primary();
                self.postfix(e)
            }
        }
    }

    pub(super) fn postfix(&mut self, mut e: ExprId) -> ExprId {
        loop {
            let t = *self.tok();
            match t.kind {
                T::P(P::LBracket) => {
                    self.bump();
                    let i = self.expr();
                    self.expect(P::RBracket);
                    e = self.add_expr(self.tloc(&t), ExprKind::Index(e, i));
                }
                T::P(P::LParen) => {
                    self.bump();
                    // The arguments gather on a stack shared by nested calls, then move
                    // to the arena's lists as one range.
                    let base = self.arg_stack.len();
                    if !self.is(P::RParen) {
                        loop {
                            let a = self.assign_expr();
                            self.arg_stack.push(a);
                            if !self.eat(P::Comma) {
                                break;
                            }
                        }
                    }
                    if !self.expect(P::RParen) {
                        self.skip_to_rparen();
                        self.eat(P::RParen);
                    }
                    let args = ExprList {
                        start: self.ast.expr_lists.len() as u32,
                        len: (self.arg_stack.len() - base) as u32,
                    };
                    self.ast.expr_lists.extend(self.arg_stack.drain(base..));
                    e = self.add_expr(self.tloc(&t), ExprKind::Call(e, args));
                }
                T::P(P::Dot) | T::P(P::Arrow) => {
                    self.bump();
                    if self.kind() != T::Ident {
                        self.expected("identifier");
                        return e;
                    }
                    let n = self.bump();
                    e = self.add_expr(
                        self.tloc(&t),
                        ExprKind::Member {
                            base: e,
                            name: n.sym(),
                            arrow: t.kind == T::P(P::Arrow),
                        },
                    );
                }
                T::P(P::Inc) => {
                    self.bump();
                    e = self.add_expr(self.tloc(&t), ExprKind::Unary(UnOp::PostInc, e));
                }
                T::P(P::Dec) => {
                    self.bump();
                    e = self.add_expr(self.tloc(&t), ExprKind::Unary(UnOp::PostDec, e));
                }
                _ => return e,
            }
        }
    }

    fn paren_open(&mut self) -> bool {
        self.expect(P::LParen)
    }

    #[inline]
    fn paren_close(&mut self) {
        if !self.expect(P::RParen) {
            self.skip_to_rparen();
            self.eat(P::RParen);
        }
    }

    fn comma(&mut self) {
        self.expect(P::Comma);
    }

    fn primary(&mut self) -> ExprId {
        let t = *self.tok();
        let kind = match t.kind {
            T::Ident => {
                self.bump();
                ExprKind::Ident(t.sym())
            }
            T::Int => {
                self.bump();
                ExprKind::Int(t.lit())
            }
            T::Float => {
                self.bump();
                ExprKind::Float(t.lit())
            }
            T::Char => {
                self.bump();
                ExprKind::Char(t.lit())
            }
            T::Str => {
                self.bump();
                ExprKind::Str(t.lit())
            }
            T::Kw(Kw::True) | T::Kw(Kw::False) => {
                self.bump();
                ExprKind::BoolLit(t.kind == T::Kw(Kw::True))
            }
            T::Kw(Kw::Nullptr) => {
                self.bump();
                ExprKind::Nullptr
            }
            T::P(P::LParen) => {
                if !self.enter() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                self.bump();
                let k = if self.is(P::LBrace) {
                    let s = self.compound();
                    ExprKind::StmtExpr(s)
                } else {
                    ExprKind::Paren(self.expr())
                };
                self.paren_close();
                self.leave();
                k
            }
            T::Kw(Kw::Generic) => {
                self.bump();
                if !self.paren_open() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let c = self.assign_expr();
                let mut assocs = Vec::new();
                while self.eat(P::Comma) {
                    let ty = if self.eat_kw(Kw::Default) {
                        None
                    } else {
                        Some(self.type_name())
                    };
                    self.expect(P::Colon);
                    let e = self.assign_expr();
                    assocs.push((ty, e));
                }
                self.paren_close();
                ExprKind::Generic(c, Box::new(assocs))
            }
            T::Kw(Kw::VaArg) => {
                self.bump();
                if !self.paren_open() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let e = self.assign_expr();
                self.comma();
                let tn = self.type_name();
                self.paren_close();
                ExprKind::VaArg(e, tn)
            }
            T::Kw(Kw::Offsetof) => {
                self.bump();
                if !self.paren_open() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let tn = self.type_name();
                self.comma();
                let mut path = Vec::new();
                if self.kind() == T::Ident {
                    let n = self.bump();
                    path.push(Designator::Field(n.sym(), self.tloc(&n)));
                    loop {
                        if self.eat(P::Dot) {
                            if self.kind() == T::Ident {
                                let n = self.bump();
                                path.push(Designator::Field(n.sym(), self.tloc(&n)));
                            } else {
                                self.expected("identifier");
                                break;
                            }
                        } else if self.eat(P::LBracket) {
                            let i = self.expr();
                            self.expect(P::RBracket);
                            path.push(Designator::Index(i));
                        } else {
                            break;
                        }
                    }
                } else {
                    self.expected("identifier");
                }
                self.paren_close();
                ExprKind::Offsetof(tn, Box::new(path))
            }
            T::Kw(Kw::TypesCompatible) => {
                self.bump();
                if !self.paren_open() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let a = self.type_name();
                self.comma();
                let b = self.type_name();
                self.paren_close();
                ExprKind::TypesCompatible(a, b)
            }
            T::Kw(Kw::ChooseExpr) => {
                self.bump();
                if !self.paren_open() {
                    return self.add_expr(self.tloc(&t), ExprKind::Error);
                }
                let c = self.assign_expr();
                self.comma();
                let a = self.assign_expr();
                self.comma();
                let b = self.assign_expr();
                self.paren_close();
                ExprKind::ChooseExpr(c, a, b)
            }
            _ => {
                self.expected("expression");
                ExprKind::Error
            }
        };
        self.add_expr(self.tloc(&t), kind)
    }
}
