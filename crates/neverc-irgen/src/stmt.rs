//! Statements: blocks and declarations, control flow, `switch`, labels and `goto`,
//! statement expressions, and initialisers of automatic objects.

use crate::expr::Rv;
use crate::func::{Home, SwitchCtx};
use crate::Gen;
use neverc_front::parse::ast::{
    DeclKind, ExprKind, ForInit, Init, InitId, StmtId, StmtKind, Storage,
};
use neverc_front::sema::{ArrLen, Kind, TypeId};
use neverc_ir::*;

impl<'a> Gen<'a> {
    pub fn stmt(&mut self, s: StmtId) {
        let ast = self.ast;
        let st = ast.stmt(s);
        // Labels and cases start blocks; anything else after a terminator is dead code,
        // still generated (a label inside may be reachable).
        if !matches!(
            st.kind,
            StmtKind::Label(..) | StmtKind::Case(..) | StmtKind::Default(_)
        ) {
            self.ensure_open();
        }
        match &st.kind {
            StmtKind::Compound(items) => {
                let saved = if self.declares_vla(items) {
                    Some(self.b().push(Op::StackSave, Some(Type::Ptr)).unwrap())
                } else {
                    None
                };
                self.fs().cleanups.push(Vec::new());
                // `__label__` names are this block's own labels.
                let mut hidden = Vec::new();
                for &i in items {
                    if let StmtKind::LocalLabels(ls) = &ast.stmt(i).kind {
                        for (l, _) in ls {
                            let old = self.fs().labels.remove(l);
                            hidden.push((*l, old));
                        }
                    }
                }
                self.fs().hidden_labels.push(hidden);
                for &i in items {
                    self.stmt(i);
                }
                let depth = self.fs().cleanups.len() - 1;
                if !self.b().is_terminated() {
                    self.run_cleanups(depth);
                }
                self.fs().cleanups.pop();
                for (l, old) in self.fs().hidden_labels.pop().unwrap_or_default() {
                    match old {
                        Some(b) => self.fs().labels.insert(l, b),
                        None => self.fs().labels.remove(&l),
                    };
                }
                if let Some(sp) = saved {
                    if !self.b().is_terminated() {
                        self.b().push(Op::StackRestore(sp), None);
                    }
                }
            }
            StmtKind::Decl(d) => self.local_decl(*d),
            StmtKind::LocalLabels(_) => {}
            StmtKind::Expr(Some(e)) => self.effect(*e),
            StmtKind::Expr(None) => {}
            StmtKind::If(c, t, e) => {
                // (Asked once: evaluating a condition that is not constant walks all of it.)
                let k = self.const_int(*c);
                if k.is_some() && self.foldable_if(*c, *t, *e) {
                    // A constant condition (as gcc folds at -O0): only the arm taken.
                    let taken = if k != Some(0) { Some(*t) } else { *e };
                    if let Some(s) = taken {
                        self.stmt(s);
                    }
                    return;
                }
                let tb = self.b().new_block();
                let eb = self.b().new_block();
                let done = if e.is_some() {
                    self.b().new_block()
                } else {
                    eb
                };
                match k {
                    // A constant condition with labels in the other arm: both arms are
                    // generated, but only the taken one is reached from here.
                    Some(k) => self.b().jump(if k != 0 { tb } else { eb }, vec![]),
                    None => self.cond_branch(*c, tb, eb),
                }
                self.b().switch_to(tb);
                self.stmt(*t);
                self.jump_to(done);
                if let Some(e) = e {
                    self.b().switch_to(eb);
                    self.stmt(*e);
                    self.jump_to(done);
                }
                self.b().switch_to(done);
            }
            StmtKind::While(c, body) => {
                let head = self.b().new_block();
                let bb = self.b().new_block();
                let done = self.b().new_block();
                self.jump_to(head);
                self.b().switch_to(head);
                self.cond_branch(*c, bb, done);
                self.b().switch_to(bb);
                self.loop_body(*body, done, head);
                self.jump_to(head);
                self.b().switch_to(done);
            }
            StmtKind::DoWhile(body, c) => {
                let bb = self.b().new_block();
                let cond = self.b().new_block();
                let done = self.b().new_block();
                self.jump_to(bb);
                self.b().switch_to(bb);
                self.loop_body(*body, done, cond);
                self.jump_to(cond);
                self.b().switch_to(cond);
                self.cond_branch(*c, bb, done);
                self.b().switch_to(done);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                match init {
                    ForInit::None => {}
                    ForInit::Expr(e) => self.effect(*e),
                    ForInit::Decl(d) => self.local_decl(*d),
                }
                let head = self.b().new_block();
                let bb = self.b().new_block();
                let stepb = self.b().new_block();
                let done = self.b().new_block();
                self.jump_to(head);
                self.b().switch_to(head);
                match cond {
                    Some(c) => self.cond_branch(*c, bb, done),
                    None => self.b().jump(bb, vec![]),
                }
                self.b().switch_to(bb);
                self.loop_body(*body, done, stepb);
                self.jump_to(stepb);
                self.b().switch_to(stepb);
                if let Some(e) = step {
                    self.effect(*e);
                }
                self.jump_to(head);
                self.b().switch_to(done);
            }
            StmtKind::Switch(e, body) => self.switch(*e, *body),
            StmtKind::Case(lo, hi, inner) => {
                let blk = self.b().new_block();
                self.jump_to(blk);
                self.b().switch_to(blk);
                let lo_v = self.const_int(*lo).unwrap_or(0);
                let hi_v = hi.and_then(|h| self.const_int(h)).unwrap_or(lo_v);
                if let Some(sw) = self.fs().switches.last_mut() {
                    sw.cases.push((lo_v, hi_v, blk));
                }
                self.stmt(*inner);
            }
            StmtKind::Default(inner) => {
                let blk = self.b().new_block();
                self.jump_to(blk);
                self.b().switch_to(blk);
                if let Some(sw) = self.fs().switches.last_mut() {
                    sw.default = Some(blk);
                }
                self.stmt(*inner);
            }
            StmtKind::Break => {
                if let Some(&(b, depth)) = self.fs().breaks.last() {
                    self.run_cleanups(depth);
                    self.b().jump(b, vec![]);
                }
            }
            StmtKind::Continue => {
                if let Some(&(b, depth)) = self.fs().continues.last() {
                    self.run_cleanups(depth);
                    self.b().jump(b, vec![]);
                }
            }
            StmtKind::Return(e) => {
                let ret = self.fs().ret;
                let v = match e {
                    Some(e) => {
                        if self.is_scalar(ret) {
                            Some(Rv::Scalar(self.scalar_as(*e, ret)))
                        } else if matches!(self.t.types.kind(ret), Kind::Void) {
                            self.effect(*e);
                            None
                        } else {
                            Some(self.rv_as(*e, ret))
                        }
                    }
                    None => None,
                };
                self.run_cleanups(0);
                self.ret_value(v, ret);
            }
            StmtKind::Label(l, _, inner) => {
                let blk = self.label_block(*l);
                self.jump_to(blk);
                self.b().switch_to(blk);
                self.stmt(*inner);
            }
            StmtKind::Goto(l) => {
                let blk = self.label_block(*l);
                self.b().jump(blk, vec![]);
            }
            StmtKind::GotoComputed(e) => {
                let a = self.scalar(*e);
                let i = Inst(self.b().func.insts.len() as u32);
                self.b().push(
                    Op::IndirectJump {
                        addr: a,
                        targets: vec![],
                    },
                    None,
                );
                self.fs().indirect.push(i);
            }
            StmtKind::Asm(a) => self.asm_stmt(st.loc, a),
            StmtKind::Error => {}
        }
    }

    /// `cleanup(fn)` on variable `o`: `fn(&o)` when its block is left.
    fn register_cleanup(
        &mut self,
        a: &neverc_front::parse::ast::Attr,
        o: u32,
        ty: TypeId,
        loc: neverc_front::source::Loc,
    ) {
        let Some((s, _)) = a.args else {
            return;
        };
        let fname = self.ast.tokens[s as usize].spelling(&self.ast.lits);
        // The function the attribute names: the latest declaration of that name.
        let found = self
            .t
            .ords
            .iter()
            .enumerate()
            .rev()
            .find(|(_, ord)| {
                ord.name == fname && matches!(self.t.types.kind(ord.ty), Kind::Func(_))
            })
            .map(|(i, ord)| (i as u32, ord.ty));
        let Some((fo, fty)) = found else {
            self.refuse(loc, "this cleanup attribute");
            return;
        };
        let func = self.t.types.func(fty).cloned().unwrap();
        let param = func
            .params
            .first()
            .copied()
            .unwrap_or_else(|| self.t.types.pointer(ty));
        let void = self.t.types.void();
        let Some(sig) = self.signature(void, &[param], None) else {
            self.refuse(loc, "this cleanup attribute");
            return;
        };
        let plan = neverc_abi::plan_call(self.machine, &sig).unwrap();
        // Called with the standard plan: a custom-convention function through its thunk.
        let sym = self.address_sym(fo);
        if let Some(scope) = self.fs().cleanups.last_mut() {
            scope.push(crate::func::Cleanup {
                func: sym,
                plan,
                param,
                var: o,
            });
        }
    }

    /// Calls the cleanups of every block deeper than `depth`, innermost first.
    fn run_cleanups(&mut self, depth: usize) {
        let n = self.fs().cleanups.len();
        if self.fs().cleanups[depth.min(n)..]
            .iter()
            .all(|s| s.is_empty())
        {
            return;
        }
        let all: Vec<crate::func::Cleanup> = self.fs().cleanups[depth.min(n)..]
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev().cloned())
            .collect();
        for c in all {
            let a = self.object_addr(c.var);
            let void = self.t.types.void();
            self.emit_call(
                Callee::Direct(c.func),
                &c.plan,
                &[c.param],
                &[Rv::Scalar(a)],
                void,
            );
        }
    }

    fn declares_vla(&self, items: &[StmtId]) -> bool {
        items.iter().any(|&i| {
            let StmtKind::Decl(d) = self.ast.stmt(i).kind else {
                return false;
            };
            // (A declaration's entries are its declarators': no more than it has.)
            let n = match &self.ast.decl(d).kind {
                DeclKind::Vars { list, .. } => list.len().min(64) as u32,
                _ => 64,
            };
            (0..n).any(|k| {
                self.t
                    .decl_ords
                    .get(&(d, k))
                    .is_some_and(|&o| self.t.types.is_vla(self.t.ords[o as usize].ty))
            })
        })
    }

    /// Whether an `if` with a constant condition may drop its other arm: the condition
    /// has no side effects to keep and the dropped arm holds no label a jump could reach.
    fn foldable_if(
        &self,
        c: neverc_front::parse::ast::ExprId,
        t: StmtId,
        e: Option<StmtId>,
    ) -> bool {
        let _ = c;
        !self.has_labels(t) && e.is_none_or(|e| !self.has_labels(e))
    }

    fn has_labels(&self, s: StmtId) -> bool {
        match &self.ast.stmt(s).kind {
            StmtKind::Label(..) | StmtKind::Case(..) | StmtKind::Default(_) => true,
            StmtKind::Compound(items) => items.iter().any(|&i| self.has_labels(i)),
            StmtKind::If(_, t, e) => self.has_labels(*t) || e.is_some_and(|e| self.has_labels(e)),
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For { body: b, .. } => {
                self.has_labels(*b)
            }
            // A switch's cases belong to it, but its body may hold ordinary labels.
            StmtKind::Switch(_, b) => self.has_labels(*b),
            // Statement expressions and nested functions may hide labels too: keep them.
            StmtKind::Expr(Some(e)) | StmtKind::Return(Some(e)) => self.has_stmt_expr(*e),
            StmtKind::Decl(_) => true,
            _ => false,
        }
    }

    /// Whether an expression contains a statement expression (conservatively: anything
    /// this walk does not know counts as containing one).
    fn has_stmt_expr(&self, e: neverc_front::parse::ast::ExprId) -> bool {
        match &self.ast.expr(e).kind {
            ExprKind::StmtExpr(_) => true,
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
            | ExprKind::BoolLit(_)
            | ExprKind::Nullptr
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofType(..)
            | ExprKind::LabelAddr(_) => false,
            ExprKind::Paren(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Cast(_, x)
            | ExprKind::Member { base: x, .. }
            | ExprKind::SizeofExpr(x)
            | ExprKind::AlignofExpr(x) => self.has_stmt_expr(*x),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => self.has_stmt_expr(*a) || self.has_stmt_expr(*b),
            ExprKind::Cond(c, a, b) => {
                self.has_stmt_expr(*c)
                    || a.get().is_some_and(|a| self.has_stmt_expr(a))
                    || self.has_stmt_expr(*b)
            }
            ExprKind::Call(f, args) => {
                self.has_stmt_expr(*f)
                    || self.ast.list(*args).iter().any(|&a| self.has_stmt_expr(a))
            }
            _ => true,
        }
    }

    fn loop_body(&mut self, body: StmtId, brk: Block, cont: Block) {
        let depth = self.fs().cleanups.len();
        self.fs().breaks.push((brk, depth));
        self.fs().continues.push((cont, depth));
        self.stmt(body);
        self.fs().breaks.pop();
        self.fs().continues.pop();
    }

    /// Branches on a condition, short-circuiting `&&`, `||` and `!`.
    pub fn cond_branch(&mut self, c: neverc_front::parse::ast::ExprId, t: Block, f: Block) {
        let ex = self.ast.expr(c);
        match &ex.kind {
            ExprKind::Paren(x) => return self.cond_branch(*x, t, f),
            ExprKind::Binary(neverc_front::parse::ast::BinOp::And, a, b) => {
                let mid = self.b().new_block();
                self.cond_branch(*a, mid, f);
                self.b().switch_to(mid);
                return self.cond_branch(*b, t, f);
            }
            ExprKind::Binary(neverc_front::parse::ast::BinOp::Or, a, b) => {
                let mid = self.b().new_block();
                self.cond_branch(*a, t, mid);
                self.b().switch_to(mid);
                return self.cond_branch(*b, t, f);
            }
            ExprKind::Unary(neverc_front::parse::ast::UnOp::Not, x) => {
                return self.cond_branch(*x, f, t);
            }
            _ => {}
        }
        let ct = self.decayed_type(c);
        let cond = if matches!(self.t.types.kind(ct), Kind::Complex(_)) {
            let b = self.t.types.intern(Kind::Bool, 0);
            self.scalar_as(c, b)
        } else {
            let v = self.scalar(c);
            self.cond_truth(v)
        };
        self.b().branch(cond, t, f);
    }

    fn switch(&mut self, e: neverc_front::parse::ast::ExprId, body: StmtId) {
        let ct = self.decayed_type(e);
        let pt = self.t.types.promote(ct);
        let v = self.scalar_as(e, pt);
        let vt = self.b().func.value_type(v);
        // The dispatch ends the block that computed the value, once the body has given
        // the cases: the block stays open meanwhile (no jump to a block of its own, and
        // the value does not cross blocks).
        let dispatch = self.b().current();
        let done = self.b().new_block();
        let first = self.b().new_block();
        self.b().switch_to(first);
        self.fs().switches.push(SwitchCtx::default());
        let depth = self.fs().cleanups.len();
        self.fs().breaks.push((done, depth));
        self.stmt(body);
        self.fs().breaks.pop();
        let sw = self.fs().switches.pop().unwrap();
        self.jump_to(done);
        // The dispatch: ranges by comparisons, single values by one Switch.
        self.b().switch_to(dispatch);
        let default = sw.default.unwrap_or(done);
        let signed = self.is_signed(pt);
        let bits = vt.bytes() * 8;
        let norm = |x: i128| -> i128 {
            // Case values as the promoted type's values (wrapped to its width).
            let m = if bits >= 128 {
                -1i128
            } else {
                (1i128 << bits) - 1
            };
            let u = x & m;
            if signed && bits < 128 && u >> (bits - 1) & 1 == 1 {
                u - (1i128 << bits)
            } else {
                u
            }
        };
        let mut singles = Vec::new();
        for (lo, hi, blk) in sw.cases {
            let (lo, hi) = (norm(lo), norm(hi));
            if lo == hi {
                if !singles.iter().any(|&(k, _)| k == lo) {
                    singles.push((lo, blk));
                }
                continue;
            }
            let cc_ge = if signed { IntCC::Sge } else { IntCC::Uge };
            let cc_le = if signed { IntCC::Sle } else { IntCC::Ule };
            let l = self.b().iconst(vt, lo);
            let h = self.b().iconst(vt, hi);
            let a = self.b().icmp(cc_ge, v, l);
            let c = self.b().icmp(cc_le, v, h);
            let both = self.b().binary(BinaryOp::And, a, c);
            let next = self.b().new_block();
            self.b().branch(both, blk, next);
            self.b().switch_to(next);
        }
        self.b().push(
            Op::Switch {
                value: v,
                cases: singles,
                default,
            },
            None,
        );
        self.b().switch_to(done);
    }

    pub fn stmt_expr(&mut self, s: StmtId) -> Rv {
        let StmtKind::Compound(items) = &self.ast.stmt(s).kind else {
            self.stmt(s);
            return Rv::Void;
        };
        let Some((&last, rest)) = items.split_last() else {
            return Rv::Void;
        };
        for &i in rest {
            self.stmt(i);
        }
        self.ensure_open();
        match &self.ast.stmt(last).kind {
            StmtKind::Expr(Some(e)) => self.rvalue(*e),
            _ => {
                self.stmt(last);
                Rv::Void
            }
        }
    }

    fn local_decl(&mut self, d: neverc_front::parse::ast::DeclId) {
        let ast = self.ast;
        if let DeclKind::FunctionDef { .. } = ast.decl(d).kind {
            self.nested_function(d);
            return;
        }
        let DeclKind::Vars { specs, list } = &ast.decl(d).kind else {
            return;
        };
        let sp = ast.spec(*specs);
        self.eval_specs_sizes(sp);
        if sp.storage == Some(Storage::Typedef) {
            // A variably modified typedef's sizes are evaluated here, once (C17 6.7.8p3).
            for id in list {
                self.eval_declarator_sizes(&id.decl);
            }
            return;
        }
        for (i, id) in list.iter().enumerate() {
            let Some(&o) = self.t.decl_ords.get(&(d, i as u32)) else {
                continue;
            };
            let ty = self.t.ords[o as usize].ty;
            if matches!(self.t.types.kind(ty), Kind::Func(_)) {
                continue;
            }
            // The declarator's array sizes, evaluated each time the declaration is
            // reached (a pointer to a VLA, `extern int (*p)[n]`, has them too).
            self.cur_loc = id.decl.loc;
            self.eval_declarator_sizes(&id.decl);
            if sp.storage == Some(Storage::Extern) {
                continue;
            }
            if sp.storage == Some(Storage::Static) || sp.thread_local {
                let sym = self.object_sym(o);
                if sp.thread_local {
                    self.module.symbols[sym.index()].kind = SymKind::Tls;
                }
                let mut attrs = sp.attrs.clone();
                attrs.extend(id.decl.attrs.iter().cloned());
                self.apply_attrs(sym, &attrs);
                if let Some(l) = id.asm_label {
                    self.rename(sym, l);
                }
                self.defined.insert(o, ());
                let al = self.declared_align(sp, &id.decl);
                self.static_object(o, sym, id.init, id.decl.loc, al);
                continue;
            }
            if self.runtime_sized(ty) {
                let al = self.declared_align(sp, &id.decl);
                if id.init.is_some() {
                    // (Sema diagnoses it; never silently dropped.)
                    self.refuse(id.decl.loc, "an initialized variable length array");
                }
                self.vla(o, ty, al.unwrap_or(1));
                continue;
            }
            // (An integer or a pointer, most locals, has a size: the table's layout walk
            // is for the others.)
            if !matches!(self.t.types.kind(ty), Kind::Int(_) | Kind::Pointer(_))
                && self.t.types.size_align(ty).is_none()
            {
                let what = format!("objects of {}", self.unsized_kind(ty));
                self.refuse(id.decl.loc, what);
                continue;
            }
            let (size, mut align) = self.size_align(ty);
            for a in sp.attrs.iter().chain(id.decl.attrs.iter()) {
                if self.attr_name(a) == "aligned" {
                    align = align.max(16);
                }
            }
            if let Some(al) = self.declared_align(sp, &id.decl) {
                align = align.max(al);
            }
            let slot = self.b().add_slot(size.max(1), align);
            self.fs().locals.insert(o, Home::Slot(slot));
            if let Some(init) = id.init {
                let a = self.b().slot_addr(slot);
                self.init_local(a, ty, init);
            }
            for a in sp.attrs.iter().chain(id.decl.attrs.iter()) {
                if self.attr_name(a) == "cleanup" {
                    self.register_cleanup(a, o, ty, id.decl.loc);
                }
            }
        }
    }

    /// An array whose size is known at run time (a VLA, any of its dimensions
    /// variable): its bytes from `alloca` (aligned as its elements or as declared,
    /// `_Alignas`) and its address in a slot. Its size is its type's, in the slots
    /// `eval_declarator_sizes` filled.
    fn vla(&mut self, o: u32, ty: TypeId, declared_align: u32) {
        let ealign = self.vm_align(ty);
        // Executing the declaration again (a jump back before it) first frees the
        // previous allocation: the stack pointer from before it is kept in a slot that
        // the entry block clears.
        let sp_slot = self.b().add_slot(8, 8);
        self.zero_slot_at_entry(sp_slot);
        let spa = self.b().slot_addr(sp_slot);
        let old = self.b().load(Type::Ptr, spa, 0, MemFlags::aligned(8));
        let oi = self.b().conv(ConvOp::Bitcast, old, Type::I64);
        let z = self.b().iconst(Type::I64, 0);
        let again = self.b().icmp(IntCC::Ne, oi, z);
        let restore = self.b().new_block();
        let go = self.b().new_block();
        self.b().branch(again, restore, go);
        self.b().switch_to(restore);
        self.b().push(Op::StackRestore(old), None);
        self.b().jump(go, vec![]);
        self.b().switch_to(go);
        let sp = self.b().push(Op::StackSave, Some(Type::Ptr)).unwrap();
        let spa = self.b().slot_addr(sp_slot);
        self.b().store(sp, spa, 0, MemFlags::aligned(8));
        let bytes = self.size_value(ty);
        let addr = self
            .b()
            .push(
                Op::Alloca {
                    size: bytes,
                    align: ealign.max(16).max(declared_align),
                },
                Some(Type::Ptr),
            )
            .unwrap();
        let aslot = self.b().add_slot(8, 8);
        let a = self.b().slot_addr(aslot);
        self.b().store(addr, a, 0, MemFlags::aligned(8));
        self.fs().locals.insert(o, Home::Vla(aslot));
    }

    /// A type sema could not model (vector types, transparent unions) somewhere inside.
    pub(crate) fn contains_error_type(&self, ty: TypeId) -> bool {
        match self.t.types.kind(ty) {
            Kind::Error => true,
            Kind::Array(e, _) | Kind::Complex(e) => self.contains_error_type(*e),
            Kind::Record(r) => self.t.types.records[*r as usize]
                .members
                .iter()
                .any(|m| self.contains_error_type(m.ty)),
            _ => false,
        }
    }

    /// Sets a slot to zero at the very start of the function (before any jump can reach
    /// code that reads it).
    fn zero_slot_at_entry(&mut self, s: Slot) {
        let cur = self.b().current();
        let n_before = self.b().func.blocks[cur.index()].insts.len();
        let a = self.b().slot_addr(s);
        let z = self.b().iconst(Type::I64, 0);
        self.b().store(z, a, 0, MemFlags::aligned(8));
        // The store runs at the entry, not here: what it stored is not known here.
        self.b().forget_memory();
        let moved: Vec<Inst> = self.b().func.blocks[cur.index()].insts.split_off(n_before);
        let entry = &mut self.b().func.blocks[0].insts;
        for (k, i) in moved.into_iter().enumerate() {
            entry.insert(k, i);
        }
    }

    /// `_Alignas` / `aligned(N)` on a declaration.
    pub(crate) fn declared_align(
        &mut self,
        sp: &neverc_front::parse::ast::DeclSpecs,
        d: &neverc_front::parse::ast::Declarator,
    ) -> Option<u32> {
        let mut best = None;
        for a in &sp.align {
            let v = match a {
                neverc_front::parse::ast::AlignSpec::Expr(e) => {
                    self.const_int(*e).map(|v| v as u32)
                }
                neverc_front::parse::ast::AlignSpec::Type(tn) => {
                    let t = self.t.type_names.get(tn).copied()?;
                    Some(self.size_align(t).1)
                }
            };
            best = best.max(v);
        }
        for a in sp.attrs.iter().chain(d.attrs.iter()) {
            if self.attr_name(a) == "aligned" {
                if let Some((s, e)) = a.args {
                    let toks = &self.ast.tokens[s as usize..e as usize];
                    if toks.len() == 1 && toks[0].kind == neverc_front::parse::ctok::T::Int {
                        let v = self.ast.lits.ints[toks[0].lit() as usize].value as u32;
                        best = best.max(Some(v));
                    }
                }
            }
        }
        best
    }

    /// Initialises the object at `addr` of type `ty` (C17 6.7.9): zero-fill, then each
    /// initialised element stored.
    pub fn init_local(&mut self, addr: Value, ty: TypeId, init: InitId) {
        match self.ast.init(init) {
            Init::Expr(e) => {
                let e = *e;
                // A string literal initialising a char array.
                if let (Kind::Array(_, n), ExprKind::Str(_)) =
                    (self.t.types.kind(ty).clone(), &self.strip_parens(e).kind)
                {
                    let (size, align) = self.size_align(ty);
                    let size = if n == ArrLen::Unknown { 0 } else { size };
                    self.b().push(
                        Op::Zero {
                            dst: addr,
                            size,
                            align,
                        },
                        None,
                    );
                    let ExprKind::Str(i) = self.strip_parens(e).kind else {
                        unreachable!()
                    };
                    let (bytes, _) = crate::consts::string_bytes(self, i);
                    let n = (bytes.len() as u64).min(size);
                    if n > 0 {
                        let src = self.string_lit(i);
                        self.b().push(
                            Op::Copy {
                                dst: addr,
                                src,
                                size: n,
                                align: 1,
                            },
                            None,
                        );
                    }
                    return;
                }
                let lv = crate::expr::Lv {
                    base: addr,
                    off: 0,
                    bits: None,
                    ty,
                    volatile: false,
                };
                let v = self.rv_as(e, ty);
                self.store(lv, v);
            }
            Init::List { .. } => {
                let (size, align) = self.size_align(ty);
                self.b().push(
                    Op::Zero {
                        dst: addr,
                        size,
                        align,
                    },
                    None,
                );
                let mut items = Vec::new();
                crate::consts::flatten_init(self, ty, init, 0, &mut items);
                for it in items {
                    // The item's offset goes into its stores' offset fields.
                    let (base, off) = match i32::try_from(it.offset) {
                        Ok(off) => (addr, off),
                        Err(_) => (self.add_offset(addr, it.offset as i64), 0),
                    };
                    match it.what {
                        crate::consts::Leaf::Expr(e) => {
                            if let Some(bits) = it.bits {
                                let v = self.scalar_as(e, it.ty);
                                let lv = crate::expr::Lv {
                                    base,
                                    off,
                                    bits: Some(bits),
                                    ty: it.ty,
                                    volatile: false,
                                };
                                self.store(lv, Rv::Scalar(v));
                            } else {
                                self.init_local_expr(base, off, it.ty, e);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Initialises the object of type `ty` at `base` plus `off` with expression `e`.
    fn init_local_expr(
        &mut self,
        base: Value,
        off: i32,
        ty: TypeId,
        e: neverc_front::parse::ast::ExprId,
    ) {
        let lv = crate::expr::Lv {
            base,
            off,
            bits: None,
            ty,
            volatile: false,
        };
        if let (Kind::Array(..), ExprKind::Str(i)) =
            (self.t.types.kind(ty).clone(), &self.strip_parens(e).kind)
        {
            let (size, _) = self.size_align(ty);
            let (bytes, _) = crate::consts::string_bytes(self, *i);
            let n = (bytes.len() as u64).min(size);
            if n > 0 {
                let src = self.string_lit(*i);
                let a = self.lv_addr(lv);
                self.b().push(
                    Op::Copy {
                        dst: a,
                        src,
                        size: n,
                        align: 1,
                    },
                    None,
                );
            }
            return;
        }
        let v = self.rv_as(e, ty);
        self.store(lv, v);
    }

    pub fn strip_id(
        &self,
        mut e: neverc_front::parse::ast::ExprId,
    ) -> neverc_front::parse::ast::ExprId {
        while let ExprKind::Paren(x) = self.ast.expr(e).kind {
            e = x;
        }
        e
    }

    #[inline]
    pub fn strip_parens(
        &self,
        mut e: neverc_front::parse::ast::ExprId,
    ) -> &'a neverc_front::parse::ast::Expr {
        loop {
            match &self.ast.expr(e).kind {
                ExprKind::Paren(x) => e = *x,
                _ => return self.ast.expr(e),
            }
        }
    }
}
