//! Function bodies: the entry through the function's plan (pieces stored into the
//! parameters' slots), returns through the same plan, labels, and the per-function state.

use crate::Gen;
use neverc_abi::{Flags, Place};
use neverc_front::parse::ast::{DeclId, DeclKind};
use neverc_front::sema::{Kind, TypeId};
use neverc_front::token::{FxHashMap, Symbol};
use neverc_ir::*;

/// Where a local object lives.
#[derive(Clone, Copy, Debug)]
pub enum Home {
    Slot(Slot),
    /// An address computed at entry (a parameter passed by reference or in memory).
    Addr(Value),
    /// An array whose size is known at run time: the slot holding its address.
    Vla(Slot),
}

/// The homes of a function's local objects by entry number: a vector indexed by entry, not
/// a hash (every mention of a variable asks), with the entries set so far for `clear`.
#[derive(Default)]
pub struct Locals {
    homes: Vec<Option<Home>>,
    set: Vec<u32>,
}

impl Locals {
    #[inline]
    pub fn get(&self, o: &u32) -> Option<&Home> {
        self.homes.get(*o as usize).and_then(|h| h.as_ref())
    }
    pub fn contains_key(&self, o: &u32) -> bool {
        self.get(o).is_some()
    }
    pub fn insert(&mut self, o: u32, h: Home) {
        let i = o as usize;
        if i >= self.homes.len() {
            self.homes.resize(i + 1, None);
        }
        if self.homes[i].is_none() {
            self.set.push(o);
        }
        self.homes[i] = Some(h);
    }
    /// The entries that have a home, in the order they got it.
    pub fn keys(&self) -> impl Iterator<Item = &u32> {
        self.set.iter()
    }
    /// Empty again (keeping the memory).
    pub fn clear(&mut self) {
        for o in self.set.drain(..) {
            self.homes[o as usize] = None;
        }
    }
}

pub struct FnState {
    pub b: FunctionBuilder,
    pub name: String,
    pub ret: TypeId,
    /// The C return value's placement.
    pub locals: Locals,
    pub labels: FxHashMap<Symbol, Block>,
    /// Blocks whose address is taken (`&&label`), for computed gotos.
    pub addressed: Vec<Block>,
    /// Computed gotos to patch with every addressed block at the end.
    pub indirect: Vec<Inst>,
    /// Blocks that call a noreturn function: control ends there.
    pub noreturn_calls: Vec<Block>,
    /// `break` and `continue` targets, innermost last.
    /// Targets with the depth of `cleanups` they leave to.
    pub breaks: Vec<(Block, usize)>,
    pub continues: Vec<(Block, usize)>,
    /// Per enclosing block: the `cleanup` attributes of its variables (function, object
    /// address slot... as (function symbol, plan, variable entry)), innermost last.
    pub cleanups: Vec<Vec<Cleanup>>,
    /// Labels a `__label__` declaration hid, restored when its block ends.
    pub hidden_labels: Vec<Vec<(Symbol, Option<Block>)>>,
    /// The entry of the function being generated.
    pub ord: u32,
    /// The parameters' entries (by name, the last of a name: a parameter's own array size
    /// (`int a[n++]`) names the prototype's entry of `n`, which is the one here).
    pub param_ords: Vec<Option<u32>>,
    /// A nested function's incoming environment (the static chain): the slot holding
    /// it, and the index in it of each enclosing function's object.
    pub outer: Option<(Slot, FxHashMap<u32, u32>)>,
    /// The environment block this function gives its nested functions: a slot of
    /// addresses, and each object's index in it.
    pub env: Option<(Slot, FxHashMap<u32, u32>)>,
    pub switches: Vec<SwitchCtx>,
    /// The sret pointer, if the result goes to memory.
    pub sret: Option<Value>,
    /// AAPCS64 (Linux) variadic function: the general and SIMD registers its named
    /// parameters leave used (NGRN, NSRN), for `va_start`'s `__gr_offs` and `__vr_offs`.
    pub aapcs64_regs_used: Option<(u32, u32)>,
    /// The slot holding the size in bytes of each variable length array type evaluated so
    /// far, by its size expression (see `vm.rs`).
    pub vla_bytes: FxHashMap<neverc_front::parse::ast::ExprId, Slot>,
}

/// The general and SIMD registers (NGRN, NSRN) the named parameters of `sig` leave used
/// under AAPCS64: where a further `long` and a further `double` would go (8: the
/// stack). The plan's locations alone cannot say it: an argument that does not fit in
/// the registers left closes them (C.3, C.12), and a 16-byte one on the stack may have
/// closed either file.
fn aapcs64_regs_used(m: neverc_abi::Machine, sig: &neverc_abi::Signature) -> (u32, u32) {
    let next = |probe: neverc_abi::Type, first: u16| {
        let mut params = sig.params.clone();
        params.push(probe);
        let n = params.len() as u32 - 1;
        let plan = neverc_abi::plan_call(m, &neverc_abi::Signature::new(sig.ret.clone(), params));
        plan.ok()
            .and_then(|p| {
                p.arguments.iter().find_map(|l| match l.place {
                    neverc_abi::Place::Reg(r) if l.value == n => Some((r - first) as u32),
                    _ => None,
                })
            })
            .unwrap_or(8)
    };
    (
        next(neverc_abi::Type::Int(neverc_abi::IntKind::Long), 0),
        next(neverc_abi::Type::double(), 64),
    )
}

/// A `cleanup(fn)` variable: `fn(&var)` runs when its block is left.
#[derive(Clone)]
pub struct Cleanup {
    pub func: Sym,
    pub plan: CallPlan,
    pub param: TypeId,
    pub var: u32,
}

#[derive(Default)]
pub struct SwitchCtx {
    pub cases: Vec<(i128, i128, Block)>,
    pub default: Option<Block>,
}

impl<'a> Gen<'a> {
    pub fn fs(&mut self) -> &mut FnState {
        self.fs.as_mut().expect("inside a function")
    }
    pub fn b(&mut self) -> &mut FunctionBuilder {
        &mut self.fs.as_mut().expect("inside a function").b
    }

    /// Starts a new block when the current one is already terminated (code after
    /// `return`, `break`, `goto`), so appending stays legal.
    pub fn ensure_open(&mut self) {
        if self.b().is_terminated() {
            let nb = self.b().new_block();
            self.b().switch_to(nb);
        }
    }

    pub fn jump_to(&mut self, blk: Block) {
        if !self.b().is_terminated() {
            self.b().jump(blk, vec![]);
        }
    }

    pub fn label_block(&mut self, l: Symbol) -> Block {
        if let Some(&b) = self.fs().labels.get(&l) {
            return b;
        }
        let b = self.b().new_block();
        self.fs().labels.insert(l, b);
        b
    }

    pub(crate) fn function(&mut self, d: DeclId) {
        let ast = self.ast;
        let DeclKind::FunctionDef {
            specs,
            decl,
            asm_label,
            body,
            end,
            kr_decls,
            ..
        } = &ast.decl(d).kind
        else {
            return;
        };
        let Some((o, params)) = self.t.functions.get(&d).cloned() else {
            return;
        };
        // `extern inline` with GNU semantics (`gnu_inline`, or GNU89 mode) defines the
        // function for inlining only: the program's other definition is the real one.
        let sp = ast.spec(*specs);
        if sp.inline && sp.storage == Some(neverc_front::parse::ast::Storage::Extern) {
            let gnu = self.opts.gnu89_inline
                || sp
                    .attrs
                    .iter()
                    .chain(decl.attrs.iter())
                    .any(|a| self.attr_name(a) == "gnu_inline");
            if gnu {
                return;
            }
        }
        if o == u32::MAX {
            return;
        }
        let fty = self.t.ords[o as usize].ty;
        let Some(func) = self.t.types.func(fty).cloned() else {
            return;
        };
        let sym = self.object_sym(o);
        if sp.inline {
            self.declared_inline.insert(sym);
        }
        if sp.noreturn {
            self.noreturn.insert(sym);
        }
        let mut attrs = ast.spec(*specs).attrs.clone();
        attrs.extend(decl.attrs.iter().cloned());
        self.apply_attrs(sym, &attrs);
        if let Some(l) = asm_label {
            self.rename(sym, *l);
        }
        self.module.symbols[sym.index()].kind = SymKind::Func;
        let fname = self.module.sym(sym).name.clone();
        // The parameters as declared (a K&R definition's type lists none: its
        // parameters' own declarations say).
        let declared: Vec<TypeId> = if func.params.len() >= params.len() {
            func.params.clone()
        } else {
            let int = self.t.types.int(neverc_abi::IntKind::Int);
            params
                .iter()
                .map(|p| p.map(|o| self.t.ords[o as usize].ty).unwrap_or(int))
                .collect()
        };
        // Unprototyped (K&R) definitions receive default-promoted arguments.
        let mut param_tys: Vec<TypeId> = declared
            .iter()
            .map(|&p| if func.proto { p } else { self.promote_arg(p) })
            .collect();
        // A nested function's first argument is its environment (the static chain).
        let nested = self.t.nested.contains(&d);
        if nested {
            let v = self.t.types.void();
            let vp = self.t.types.pointer(v);
            param_tys.insert(0, vp);
        }
        let ret = self.t.types.unqual(func.ret);
        let named = func.variadic.then_some(param_tys.len());
        let plan = if nested {
            let Some(sig) = self.signature(ret, &param_tys, named) else {
                self.refuse(decl.loc, format!("the signature of '{fname}'"));
                return;
            };
            match neverc_abi::plan_call(self.machine, &sig) {
                Ok(p) => std::rc::Rc::new(p),
                Err(e) => {
                    self.refuse(decl.loc, format!("the call plan of '{fname}' ({e})"));
                    return;
                }
            }
        } else {
            // The function's own convention: standard, or custom (issue 6).
            match self.plan_by_types(Some(o), ret, &param_tys, named, decl.loc) {
                None => {
                    self.refuse(decl.loc, format!("the signature of '{fname}'"));
                    return;
                }
                Some(None) => return,
                Some(Some(p)) => p,
            }
        };
        // (Formed above, so Some.)
        let aapcs64_regs = (func.variadic
            && self.machine.arch == neverc_target::Arch::AArch64
            && self.machine.os == neverc_target::Os::Linux)
            .then(|| self.signature(ret, &param_tys, named))
            .flatten()
            .map(|sig| aapcs64_regs_used(self.machine, &sig));
        let mut b = match self.spare.take() {
            Some(storage) => FunctionBuilder::new_in(
                storage,
                &mut self.builder_spare,
                sym,
                neverc_abi::CallPlan::clone(&plan),
                func.variadic,
            ),
            None => FunctionBuilder::new(sym, neverc_abi::CallPlan::clone(&plan), func.variadic),
        };
        b.reserve(self.inst_hint);
        b.share_constants = self.opts.share_constants;
        b.reuse_loads = self.opts.reuse_loads;
        if let Some(&a) = self.t.func_align.get(&o) {
            b.func.align = a.max(16).next_power_of_two();
        }
        self.refresh_ir_types();
        self.fs = Some(FnState {
            b,
            name: fname.clone(),
            ret,
            locals: std::mem::take(&mut self.spare_locals),
            labels: FxHashMap::default(),
            addressed: Vec::new(),
            indirect: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            cleanups: Vec::new(),
            hidden_labels: Vec::new(),
            ord: o,
            param_ords: params.clone(),
            outer: None,
            env: None,
            switches: Vec::new(),
            sret: None,
            noreturn_calls: Vec::new(),
            aapcs64_regs_used: aapcs64_regs,
            vla_bytes: FxHashMap::default(),
        });
        let (entry_tys, entry_decl, entry_params) = if nested {
            let mut decl2 = declared.clone();
            decl2.insert(0, param_tys[0]);
            let mut ps = params.clone();
            ps.insert(0, None);
            (param_tys.clone(), decl2, ps)
        } else {
            (param_tys.clone(), declared.clone(), params.clone())
        };
        self.entry(&plan, &entry_tys, &entry_decl, &entry_params);
        if nested {
            // The environment arrived as the first parameter: keep it in a slot.
            let env = self.b().func.blocks[0].params[0];
            let slot = self.b().add_slot(8, 8);
            let a = self.b().slot_addr(slot);
            self.b().store(env, a, 0, MemFlags::aligned(8));
            let layout = self.nested_layouts.get(&o).cloned().unwrap_or_default();
            self.fs().outer = Some((slot, layout));
        }
        // Array sizes in parameter declarations are evaluated at entry, in order
        // (`int b[n++]`; `int m[r][c]` is a pointer to `int[c]`, whose size is kept).
        if let Some(neverc_front::parse::ast::Derived::Function { params: ps, .. }) = decl
            .derived
            .iter()
            .find(|d| matches!(d, neverc_front::parse::ast::Derived::Function { .. }))
        {
            for p in ps {
                self.eval_declarator_sizes(&p.decl);
            }
        }
        // A K&R definition's: in its declaration list's order (`int n; int m[][n];`).
        for &kd in kr_decls {
            if let DeclKind::Vars { list, .. } = &ast.decl(kd).kind {
                for id in list {
                    self.eval_declarator_sizes(&id.decl);
                }
            }
        }
        self.stmt(*body);
        // Falling off the end: `main` returns 0 (C17 5.1.2.2.3); elsewhere the value is
        // unspecified, so return zeros.
        if !self.b().is_terminated() {
            if self.opts.warn_return_type
                && !self.t.types.is_void(ret)
                && fname != "main"
                && self.end_reachable()
            {
                self.warnings.push(crate::Warning {
                    loc: *end,
                    message: "control reaches end of non-void function".into(),
                    extra: false,
                    note: false,
                    option: Some("return-type"),
                    function: Some(self.name(self.t.ords[o as usize].name)),
                });
            }
            if fname == "main" && self.t.types.is_integer(ret) {
                let z = self.b().iconst(Type::I32, 0);
                self.ret_value(Some(crate::expr::Rv::Scalar(z)), ret);
            } else {
                self.ret_value(None, ret);
            }
        }
        let mut fs = self.fs.take().unwrap();
        self.spare_locals = std::mem::take(&mut fs.locals);
        self.spare_locals.clear();
        // The environment block's size is known only now.
        if let Some((slot, layout)) = &fs.env {
            fs.b.func.slots[slot.index()].size = 8 * layout.len().max(1) as u64;
        }
        // Computed gotos may reach every block whose address was taken.
        for i in std::mem::take(&mut fs.indirect) {
            if let Op::IndirectJump { targets, .. } = &mut fs.b.func.insts[i.index()].op {
                *targets = fs.addressed.clone();
            }
        }
        // Labels never defined (only reached by jumps from dead code) still need a body.
        let mut func = fs.b.finish_into(&mut self.builder_spare);
        self.inst_hint = func.insts.len();
        for blk in 0..func.blocks.len() {
            if func.blocks[blk].insts.is_empty() {
                let i = Inst(func.insts.len() as u32);
                func.insts.push(InstData {
                    op: Op::Unreachable,
                    result: None,
                });
                func.blocks[blk].insts.push(i);
            }
        }
        if cfg!(debug_assertions) {
            if let Err(e) = verify(&func) {
                self.refuse(
                    decl.loc,
                    format!("'{fname}': the IR failed verification ({e})"),
                );
                return;
            }
        }
        self.defined.insert(o, ());
        self.add_function(func);
    }

    /// Whether the block being generated can be reached from the entry: through branch
    /// edges (one edge when the condition is a constant, as in `while (1)`), not past a
    /// call of a noreturn function, and into every block whose address is taken once a
    /// computed goto is reached.
    fn end_reachable(&mut self) -> bool {
        let fs = self.fs.as_ref().unwrap();
        let func = &fs.b.func;
        let target = fs.b.current();
        let mut seen = vec![false; func.blocks.len()];
        let mut stack = vec![Block(0)];
        seen[0] = true;
        // A constant condition (`1 != 0` for `while (1)`).
        let constant = |v: Value| -> Option<i128> {
            let operand = |v: Value| match func.values[v.index()].def {
                ValueDef::Result(i, _) => match func.inst(i).op {
                    Op::Iconst { imm, .. } => Some(imm.get()),
                    _ => None,
                },
                _ => None,
            };
            let ValueDef::Result(i, _) = func.values[v.index()].def else {
                return None;
            };
            match func.inst(i).op {
                Op::Iconst { imm, .. } => Some(imm.get()),
                Op::Icmp {
                    cc: cc @ (IntCC::Eq | IntCC::Ne),
                    a,
                    b,
                } => Some(((operand(a)? == operand(b)?) == (cc == IntCC::Eq)) as i128),
                _ => None,
            }
        };
        while let Some(blk) = stack.pop() {
            if fs.noreturn_calls.contains(&blk) {
                continue;
            }
            if blk == target {
                return true;
            }
            let succs = match func.terminator(blk) {
                Some(Op::Branch { cond, then, els }) => match constant(*cond) {
                    Some(c) => vec![if c != 0 { then.block } else { els.block }],
                    None => vec![then.block, els.block],
                },
                Some(Op::IndirectJump { .. }) => fs.addressed.clone(),
                Some(op) => op.successors(),
                None => Vec::new(),
            };
            for s in succs {
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push(s);
                }
            }
        }
        false
    }

    /// A GNU nested function defined here: the environment block of this function gets
    /// the address of every object the nested function can see (this function's locals
    /// and what its own environment holds), then the nested function is generated with
    /// that layout. Its callers pass the block's address as its first argument.
    pub(crate) fn nested_function(&mut self, d: DeclId) {
        let Some((o, _)) = self.t.functions.get(&d).cloned() else {
            return;
        };
        let parent = self.fs().ord;
        let (slot, mut layout) = match self.fs().env.take() {
            Some(e) => e,
            None => {
                let s = self.b().add_slot(8, 8);
                (s, FxHashMap::default())
            }
        };
        let mut visible: Vec<u32> = self.fs().locals.keys().copied().collect();
        if let Some((_, outer)) = &self.fs().outer {
            visible.extend(outer.keys().copied());
        }
        visible.sort_unstable();
        visible.dedup();
        for v in &visible {
            let next = layout.len() as u32;
            layout.entry(*v).or_insert(next);
        }
        let mut entries: Vec<(u32, u32)> = layout.iter().map(|(&k, &v)| (k, v)).collect();
        entries.sort_unstable_by_key(|e| e.1);
        for (obj, idx) in entries {
            if !visible.contains(&obj) {
                continue;
            }
            let addr = self.object_addr(obj);
            let block = self.b().slot_addr(slot);
            self.b()
                .store(addr, block, (idx * 8) as i32, MemFlags::aligned(8));
        }
        self.fs().env = Some((slot, layout.clone()));
        self.nested_parent.insert(o, parent);
        self.nested_layouts.insert(o, layout);
        let outer_state = self.fs.take();
        self.function(d);
        self.fs = outer_state;
    }

    /// The environment to pass when calling nested function `callee` from here.
    pub(crate) fn env_for(&mut self, callee: u32) -> Option<Value> {
        let parent = *self.nested_parent.get(&callee)?;
        let me = self.fs().ord;
        if parent == me {
            let slot = self.fs().env.as_ref()?.0;
            return Some(self.b().slot_addr(slot));
        }
        // A sibling (or itself): the environment this function received.
        if self.nested_parent.get(&me) == Some(&parent) {
            let (slot, _) = self.fs().outer.as_ref()?;
            let slot = *slot;
            let a = self.b().slot_addr(slot);
            return Some(self.b().load(Type::Ptr, a, 0, MemFlags::aligned(8)));
        }
        None
    }

    /// Default argument promotions (C17 6.5.2.2p6).
    pub fn promote_arg(&mut self, t: TypeId) -> TypeId {
        let t = self.t.types.unqual(t);
        match self.t.types.kind(t) {
            Kind::Float(neverc_front::sema::FloatK::Float) => self
                .t
                .types
                .intern(Kind::Float(neverc_front::sema::FloatK::Double), 0),
            Kind::Int(_) | Kind::Bool | Kind::Enum(_) => self.t.types.promote(t),
            _ => self.t.types.decay(t),
        }
    }

    /// The entry block: one parameter per plan location; each C parameter gets a slot
    /// (or its incoming memory) and its pieces stored there.
    fn entry(
        &mut self,
        plan: &CallPlan,
        passed: &[TypeId],
        declared: &[TypeId],
        ords: &[Option<u32>],
    ) {
        let entry = Block(0);
        let mut vals: Vec<(Value, neverc_abi::Location)> = Vec::new();
        let mut param_mem = Vec::new();
        for (i, loc) in plan.arguments.iter().enumerate() {
            let c_ty = passed.get(loc.value as usize).copied();
            let scalar = c_ty.and_then(|t| self.ir_type(t));
            let is_mem = matches!(loc.place, Place::Stack(_))
                && !loc.flags.contains(Flags::BYREF)
                && (scalar.is_none()
                    || matches!(scalar, Some(Type::F80 | Type::I128 | Type::F128)));
            let ty = if is_mem {
                param_mem.push(i as u32);
                Type::Ptr
            } else if loc.flags.contains(Flags::VA_COUNT) {
                Type::I8
            } else {
                self.piece_type(loc, scalar)
            };
            let v = self.b().add_param(entry, ty);
            vals.push((v, *loc));
        }
        for r in plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
        {
            let v = self.b().add_param(entry, Type::Ptr);
            let _ = r;
            self.fs().sret = Some(v);
        }
        self.b().func.param_mem = param_mem.clone();
        // Each C parameter.
        for (pi, &pty) in passed.iter().enumerate() {
            let pieces: Vec<(usize, Value, neverc_abi::Location)> = vals
                .iter()
                .enumerate()
                .filter(|(_, (_, l))| l.value as usize == pi && !l.flags.contains(Flags::VA_COUNT))
                .map(|(k, (v, l))| (k, *v, *l))
                .collect();
            let decl_ty = declared.get(pi).copied().unwrap_or(pty);
            let (size, align) = self.size_align(decl_ty);
            let ord = ords.get(pi).copied().flatten();
            // Passed by reference or in memory: the variable lives where it arrives.
            if pieces.len() == 1
                && (pieces[0].2.flags.contains(Flags::BYREF)
                    || param_mem.contains(&(pieces[0].0 as u32)))
                && !self.is_scalar(pty)
            {
                if let Some(o) = ord {
                    self.fs()
                        .locals
                        .insert(o, crate::func::Home::Addr(pieces[0].1));
                }
                continue;
            }
            let slot = self
                .b()
                .add_slot(size.max(1).next_multiple_of(8), align.max(8));
            if let Some(o) = ord {
                self.fs().locals.insert(o, Home::Slot(slot));
            }
            let addr = self.b().slot_addr(slot);
            if let Some(st) = self.ir_type(pty) {
                if pieces.len() == 1 && !param_mem.contains(&(pieces[0].0 as u32)) {
                    // A scalar in one location, possibly widened: narrow it back.
                    let mut v = pieces[0].1;
                    let vt = self.b().func.value_type(v);
                    if vt == Type::V128 {
                        // __float128's 16 bytes, stored as they came.
                        self.b().store(v, addr, 0, MemFlags::aligned(1));
                        continue;
                    }
                    if vt != st && vt.is_int() && st.is_int() && vt.bytes() > st.bytes() {
                        v = self.b().conv(ConvOp::Trunc, v, st);
                    }
                    let v = self.convert(v, pty, decl_ty);
                    let dt = self.ir_type(decl_ty).unwrap_or(st);
                    self.b()
                        .store(v, addr, 0, MemFlags::aligned(dt.bytes().min(align)));
                    continue;
                }
                if pieces.len() == 1 {
                    // A scalar in memory (long double, __int128 on the stack).
                    let src = pieces[0].1;
                    self.b().push(
                        Op::Copy {
                            dst: addr,
                            src,
                            size,
                            align,
                        },
                        None,
                    );
                    continue;
                }
            }
            for (k, v, l) in pieces {
                if param_mem.contains(&(k as u32)) {
                    self.b().push(
                        Op::Copy {
                            dst: addr,
                            src: v,
                            size: l.size as u64,
                            align: 1,
                        },
                        None,
                    );
                } else {
                    self.b()
                        .store(v, addr, l.offset as i32, MemFlags::aligned(1));
                }
            }
        }
    }

    /// Returns `v` (of C type `ty`) through the function's plan.
    pub fn ret_value(&mut self, v: Option<crate::expr::Rv>, ty: TypeId) {
        let plan = self.b().func.plan.clone();
        let locs: Vec<neverc_abi::Location> = plan
            .returns
            .iter()
            .filter(|l| !l.flags.contains(Flags::SRET))
            .copied()
            .collect();
        let scalar = self.ir_type(ty);
        let mut outs = Vec::new();
        let sret = self.fs().sret;
        // The result's memory image, for aggregates (and sret copies).
        let mem: Option<Value> = match (&v, scalar) {
            (Some(crate::expr::Rv::Agg(a)), _) => Some(*a),
            _ => None,
        };
        if let (Some(dst), Some(src)) = (sret, mem) {
            let (size, align) = self.size_align(ty);
            self.b().push(
                Op::Copy {
                    dst,
                    src,
                    size,
                    align,
                },
                None,
            );
        }
        for l in &locs {
            if l.flags.contains(Flags::SRET_OUT) {
                let p = match sret {
                    Some(p) => p,
                    None => self.b().iconst(Type::Ptr, 0),
                };
                outs.push(p);
                continue;
            }
            let pt = self.piece_type(l, scalar);
            let val = match (&v, scalar) {
                (Some(crate::expr::Rv::Scalar(s)), Some(st)) => {
                    let mut s = *s;
                    if pt != st && pt.is_int() && st.is_int() && pt.bytes() > st.bytes() {
                        let op = if self.is_signed(ty) {
                            ConvOp::Sext
                        } else {
                            ConvOp::Zext
                        };
                        s = self.b().conv(op, s, pt);
                    } else if pt != st {
                        // A scalar returned in pieces (__int128): through memory.
                        let slot = self.b().add_slot(16, 16);
                        let a = self.b().slot_addr(slot);
                        self.b().store(s, a, 0, MemFlags::aligned(16));
                        s = self.b().load(pt, a, l.offset as i32, MemFlags::aligned(8));
                    }
                    s
                }
                (Some(crate::expr::Rv::Agg(a)), _) => {
                    // Copy into a padded temporary so a piece may read past the end.
                    let (size, _) = self.size_align(ty);
                    let slot = self.b().add_slot(size.next_multiple_of(16), 16);
                    let t = self.b().slot_addr(slot);
                    let a = *a;
                    self.b().push(
                        Op::Copy {
                            dst: t,
                            src: a,
                            size,
                            align: 1,
                        },
                        None,
                    );
                    self.b().load(pt, t, l.offset as i32, MemFlags::aligned(1))
                }
                _ => self.zero_of(pt),
            };
            outs.push(val);
        }
        self.b().push(Op::Return(outs), None);
    }

    pub fn zero_of(&mut self, t: Type) -> Value {
        if t.is_int() {
            self.b().iconst(t, 0)
        } else {
            self.b().fconst(t, 0)
        }
    }
}
