//! Custom calling conventions (issue 6) in irgen: which functions have one, and the plan
//! each of their entries and direct calls takes.
//!
//! A function has a custom convention when some file-scope declaration or its definition
//! carries `custom_attr("neverc-cc-plan-v1", PLAN)` (a plan, validated and used as it is)
//! or `custom_attr("neverc-callconv", SPEC)` (a spec, materialised here), or else when the
//! command line's policy selects it. The policy selects functions defined here outside
//! system headers, and functions only declared (outside system headers) when it names them
//! explicitly (a prefix, a policy-file rule); never `main`, variadic or unprototyped ones.
//! An attribute wins over the policy, and each function is decided once.
//!
//! Plans are made when irgen lowers the entry and each direct call, because irgen is what
//! turns C values into the pieces a plan names. A call through a pointer uses the
//! standard convention (see `thunk` for how the pointer is made to work).

use crate::{Gen, Refusal, Warning};
use neverc_abi::callconv::{self as cc, CcError, Spec};
use neverc_abi::{CallPlan, Flags, Id, Location, Place, Signature};
use neverc_front::parse::ast::{Attr, DeclKind};
use neverc_front::parse::ctok::{P, T};
use neverc_front::sema::Kind;
use neverc_front::sema::TypeId;
use neverc_front::source::Loc;
use neverc_front::token::FxHashMap;
use neverc_ir::FunctionBuilder;
use neverc_ir::{Binding, Block, Callee, ConvOp, MemFlags, Op, Sym, SymKind, Type, Value};

/// The `custom_attr` pairs of one function that select a convention.
#[derive(Clone, Debug, Default)]
pub(crate) struct CcAttrs {
    pub spec: Option<(String, Loc)>,
    pub plan: Option<(String, Loc)>,
}

/// What convention a function has.
#[derive(Clone, Debug)]
pub(crate) enum CcChoice {
    Standard,
    Spec {
        spec: Spec,
        loc: Loc,
    },
    Plan {
        text: String,
        expected: Option<Id>,
        loc: Loc,
    },
}

impl<'a> Gen<'a> {
    /// The string arguments of an attribute, one per comma-separated argument (adjacent
    /// literals joined).
    pub(crate) fn attr_strings(&self, a: &Attr) -> Vec<String> {
        let mut out = vec![String::new()];
        let Some((s, e)) = a.args else {
            return Vec::new();
        };
        for t in &self.ast.tokens[s as usize..e as usize] {
            match t.kind {
                T::Str => {
                    let units = &self.ast.lits.strs[t.lit() as usize].units;
                    out.last_mut()
                        .unwrap()
                        .extend(units.iter().map(|&u| u as u8 as char));
                }
                T::P(P::Comma) => out.push(String::new()),
                _ => {}
            }
        }
        out
    }

    /// Records the convention attributes of function `o` found in `attrs`.
    pub(crate) fn note_cc_attrs(&mut self, o: u32, attrs: &[Attr]) {
        for a in attrs {
            if self.attr_name(a) != "custom_attr" {
                continue;
            }
            let args = self.attr_strings(a);
            let (key, value) = match args.as_slice() {
                [k, v] => (k.clone(), v.clone()),
                _ => {
                    self.warn(
                        a.loc,
                        "'custom_attr' takes two strings, a key and a value; ignored",
                        false,
                    );
                    continue;
                }
            };
            let entry = self.cc_attrs.entry(o).or_default();
            // Any other key is a function attribute nothing in neverc reads yet.
            match key.as_str() {
                cc::ATTR_SPEC => entry.spec = Some((value, a.loc)),
                cc::ATTR_PLAN => entry.plan = Some((value, a.loc)),
                _ => {}
            }
        }
    }

    /// Before any code: every file-scope function declaration's and definition's
    /// convention attributes, and which functions are declared outside system headers.
    pub(crate) fn collect_cc_attrs(&mut self, is_system: &dyn Fn(Loc) -> bool) {
        let ast = self.ast;
        for &d in &ast.items {
            match &ast.decl(d).kind {
                DeclKind::Vars { specs, list } => {
                    let sp = ast.spec(*specs);
                    for (i, id) in list.iter().enumerate() {
                        let Some(&o) = self.t.decl_ords.get(&(d, i as u32)) else {
                            continue;
                        };
                        if !matches!(self.t.types.kind(self.t.ords[o as usize].ty), Kind::Func(_)) {
                            continue;
                        }
                        let mut attrs: Vec<Attr> = sp.attrs.clone();
                        attrs.extend(id.decl.attrs.iter().cloned());
                        self.note_cc_attrs(o, &attrs);
                        if !is_system(id.decl.loc) {
                            self.cc_user_fns.insert(o);
                        }
                    }
                }
                DeclKind::FunctionDef { specs, decl, .. } => {
                    let Some(&(o, _)) = self.t.functions.get(&d) else {
                        continue;
                    };
                    if o == u32::MAX {
                        continue;
                    }
                    let mut attrs = ast.spec(*specs).attrs.clone();
                    attrs.extend(decl.attrs.iter().cloned());
                    self.note_cc_attrs(o, &attrs);
                    if !is_system(decl.loc) {
                        self.cc_user_fns.insert(o);
                        self.cc_defined_fns.insert(o);
                    }
                }
                _ => {}
            }
        }
    }

    pub(crate) fn warn(&mut self, loc: Loc, message: impl Into<String>, extra: bool) {
        let w = Warning {
            loc,
            message: message.into(),
            extra,
            note: false,
            option: None,
            function: None,
        };
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    fn cc_error(&mut self, loc: Loc, message: String) {
        if !self
            .refusals
            .iter()
            .any(|r| r.loc == loc && r.message == message)
        {
            self.refusals.push(Refusal { loc, message });
        }
    }

    /// The convention of function `o`, decided once.
    pub(crate) fn cc_choice(&mut self, o: u32) -> CcChoice {
        if let Some(c) = self.cc_cache.get(&o) {
            return c.clone();
        }
        let choice = self.decide_cc(o);
        self.cc_cache.insert(o, choice.clone());
        choice
    }

    fn decide_cc(&mut self, o: u32) -> CcChoice {
        let name = self.name(self.t.ords[o as usize].name);
        let attrs = self.cc_attrs.get(&o).cloned().unwrap_or_default();
        let from_policy;
        let (text, loc) = match (&attrs.spec, &attrs.plan) {
            (_, Some((plan, ploc))) => {
                // A spec beside the plan fixes the convention id the plan must have.
                let expected = match &attrs.spec {
                    Some((s, sloc)) => match self.parse_spec(s, *sloc, &name) {
                        Some(spec) => Some(cc::convention_id(&spec)),
                        None => return CcChoice::Standard,
                    },
                    None => None,
                };
                return CcChoice::Plan {
                    text: plan.clone(),
                    expected,
                    loc: *ploc,
                };
            }
            (Some((s, l)), None) => {
                from_policy = false;
                (s.clone(), *l)
            }
            (None, None) => {
                let Some(s) = self.opts.callconv.spec_for(&name) else {
                    return CcChoice::Standard;
                };
                let fty = self.t.ords[o as usize].ty;
                let plain = self
                    .t
                    .types
                    .func(fty)
                    .is_some_and(|f| f.proto && !f.variadic);
                let reached = self.cc_defined_fns.contains(&o)
                    || (self.cc_user_fns.contains(&o)
                        && self.opts.callconv.names_explicitly(&name));
                if !plain || !reached {
                    return CcChoice::Standard;
                }
                from_policy = true;
                (s.to_string(), Loc::default())
            }
        };
        let _ = from_policy;
        match self.parse_spec(&text, loc, &name) {
            Some(spec) => CcChoice::Spec { spec, loc },
            None => CcChoice::Standard,
        }
    }

    fn parse_spec(&mut self, text: &str, loc: Loc, name: &str) -> Option<Spec> {
        match Spec::parse(text) {
            Ok((spec, warnings)) => {
                for w in warnings {
                    let extra = matches!(w, cc::SpecWarning::UnknownSegment(_));
                    self.warn(loc, format!("{w} (function '{name}')"), extra);
                }
                Some(spec)
            }
            Err(e) => {
                self.cc_error(loc, format!("{e} (function '{name}')"));
                None
            }
        }
    }

    /// Does function `o` have a custom convention?
    pub(crate) fn is_custom_fn(&mut self, o: u32) -> bool {
        !matches!(self.cc_choice(o), CcChoice::Standard)
    }

    /// The standard calling convention's plan for `sig` (made once per signature: it
    /// depends on nothing else); `None` after an error (reported).
    fn standard_plan(&mut self, sig: &Signature, at: Loc) -> Option<CallPlan> {
        if let Some(p) = self.plan_cache.get(sig) {
            return Some(p.clone());
        }
        match neverc_abi::plan_call(self.machine, sig) {
            Ok(p) => {
                self.plan_cache.insert(sig.clone(), p.clone());
                Some(p)
            }
            Err(e) => {
                self.refuse(at, format!("this call ({e})"));
                None
            }
        }
    }

    /// [`plan_for`](Self::plan_for) of the signature of result `ret`, parameters
    /// `params` and `named` (see [`signature`](Self::signature)): None when those types
    /// have no signature (nothing reported), Some(None) after an error (reported). A
    /// standard plan is found by the types when they were asked about before.
    pub(crate) fn plan_by_types(
        &mut self,
        o: Option<u32>,
        ret: TypeId,
        params: &[TypeId],
        named: Option<usize>,
        at: Loc,
    ) -> Option<Option<std::rc::Rc<CallPlan>>> {
        let mut key = std::mem::take(&mut self.plan_key);
        key.clear();
        key.push(ret.0);
        key.push(named.map_or(0, |n| n as u32 + 1));
        key.extend(params.iter().map(|t| t.0));
        let found = self.plans_by_types.get(key.as_slice()).cloned();
        let r = match found {
            // (As plan_for, which asks the choice first.)
            Some(p) if self.is_standard(o) => Some(Some(p)),
            _ => match self.signature(ret, params, named) {
                None => None,
                Some(sig) => {
                    let plan = self.plan_for(o, &sig, at).map(std::rc::Rc::new);
                    if let Some(p) = &plan {
                        if self.is_standard(o) {
                            self.plans_by_types.insert(key.clone(), p.clone());
                        }
                    }
                    Some(plan)
                }
            },
        };
        self.plan_key = key;
        r
    }

    /// Whether calls of `o` (None: through a pointer) follow the standard convention.
    fn is_standard(&mut self, o: Option<u32>) -> bool {
        match o {
            Some(o) => matches!(self.cc_choice(o), CcChoice::Standard),
            None => true,
        }
    }

    /// The plan of function `o`'s entry, or of a direct call to it, for `sig`; `None`
    /// after an error (reported). `at`: where the call or definition is.
    pub(crate) fn plan_for(
        &mut self,
        o: Option<u32>,
        sig: &Signature,
        at: Loc,
    ) -> Option<CallPlan> {
        let choice = match o {
            Some(o) => self.cc_choice(o),
            None => CcChoice::Standard,
        };
        if let CcChoice::Standard = choice {
            return self.standard_plan(sig, at);
        }
        let name = o
            .map(|o| self.name(self.t.ords[o as usize].name))
            .unwrap_or_default();
        let result = match &choice {
            CcChoice::Standard => return self.standard_plan(sig, at),
            CcChoice::Spec { spec, loc } => {
                cc::materialise(self.machine, spec, sig).map(|(plan, warnings)| {
                    for w in warnings {
                        self.warn(*loc, format!("{w} (function '{name}')"), false);
                    }
                    plan
                })
            }
            CcChoice::Plan { text, expected, .. } => {
                cc::check_plan(self.machine, text, *expected, sig)
            }
        };
        match result {
            Ok(p) => Some(p),
            Err(e) => {
                let loc = match &choice {
                    CcChoice::Spec { loc, .. } | CcChoice::Plan { loc, .. }
                        if *loc != Loc::default() =>
                    {
                        *loc
                    }
                    _ => at,
                };
                let msg = match e {
                    CcError::Variadic => format!(
                        "'{name}' has a custom calling convention and is variadic (or called \
                         without a prototype): a variadic function cannot have one"
                    ),
                    e => format!("{e} (function '{name}')"),
                };
                self.cc_error(loc, msg);
                None
            }
        }
    }
}

// ---------- thunks ----------
//
// A function pointer is called with the standard convention (by neverc, by gcc-compiled
// code, by the C library). So the address of a custom-convention function is not its
// own: it is that of a local thunk, `<name>.cc_thunk`, a standard-convention function
// that moves its arguments into the custom plan's locations, calls the function directly
// and returns its result the standard way. Each file taking the address has its own
// thunk, so two files' pointers to one such function compare unequal.

impl<'a> Gen<'a> {
    /// The symbol whose address stands for the address of entry `o`: its own, or for a
    /// custom-convention function its thunk's.
    pub(crate) fn address_sym(&mut self, o: u32) -> Sym {
        let sym = self.object_sym(o);
        if !matches!(self.t.types.kind(self.t.ords[o as usize].ty), Kind::Func(_))
            || !self.is_custom_fn(o)
        {
            return sym;
        }
        if let Some(&(_, t, _)) = self.cc_thunks.iter().find(|(x, _, _)| *x == o) {
            return t;
        }
        let name = format!("{}.cc_thunk", self.module.sym(sym).name);
        let t = self.module.symbol(&name, SymKind::Func);
        let s = &mut self.module.symbols[t.index()];
        s.binding = Binding::Local;
        s.local = true;
        let loc = self.cur_loc;
        let fname = self.name(self.t.ords[o as usize].name);
        self.note(
            loc,
            format!(
                "'{fname}' has a custom calling convention: its address is that of a \
                 standard-convention thunk that calls it"
            ),
        );
        self.cc_thunks.push((o, t, loc));
        t
    }

    pub(crate) fn note(&mut self, loc: Loc, message: String) {
        let w = Warning {
            loc,
            message,
            extra: false,
            note: true,
            option: None,
            function: None,
        };
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// The symbol to call, with the standard convention, for a library function irgen
    /// calls by name (`memcpy` for a builtin, ...): the function itself, or the thunk of a
    /// function of that name this file gives a custom convention.
    pub(crate) fn library_callee(&mut self, sym: Sym) -> Sym {
        if !self.opts.callconv.active() && self.cc_attrs.is_empty() {
            return sym;
        }
        let ords: Vec<u32> = self
            .ord_sym
            .iter()
            .filter(|(_, &s)| s == sym)
            .map(|(&o, _)| o)
            .collect();
        for o in ords {
            if matches!(self.t.types.kind(self.t.ords[o as usize].ty), Kind::Func(_))
                && self.is_custom_fn(o)
            {
                return self.address_sym(o);
            }
        }
        sym
    }

    /// Generates every thunk asked for (at the end: a thunk may be asked for anywhere).
    pub(crate) fn emit_thunks(&mut self) {
        let mut done = 0;
        while done < self.cc_thunks.len() {
            let (o, t, loc) = self.cc_thunks[done];
            done += 1;
            self.emit_thunk(o, t, loc);
        }
    }

    /// Aggregates, `long double`, `__int128` and `__float128` travel as pieces of memory.
    fn in_pieces(scalar: Option<Type>) -> bool {
        matches!(scalar, None | Some(Type::F80 | Type::I128 | Type::F128))
    }

    fn emit_thunk(&mut self, o: u32, tsym: Sym, loc: Loc) {
        let fty = self.t.ords[o as usize].ty;
        let fname = self.name(self.t.ords[o as usize].name);
        let Some(func) = self.t.types.func(fty).cloned() else {
            return;
        };
        if !func.proto || func.variadic {
            self.cc_error(
                loc,
                format!("the address of '{fname}' (a custom calling convention without a prototype) cannot be taken"),
            );
            return;
        }
        let ret = self.t.types.unqual(func.ret);
        let params: Vec<TypeId> = func
            .params
            .iter()
            .map(|&p| self.t.types.unqual(p))
            .collect();
        let Some(sig) = self.signature(ret, &params, None) else {
            self.refuse(loc, format!("the thunk of '{fname}'"));
            return;
        };
        let std = match neverc_abi::plan_call(self.machine, &sig) {
            Ok(p) => p,
            Err(e) => {
                self.refuse(loc, format!("the thunk of '{fname}' ({e})"));
                return;
            }
        };
        let Some(custom) = self.plan_for(Some(o), &sig, loc) else {
            return;
        };
        let target = self.object_sym(o);
        let mut b = FunctionBuilder::new(tsym, std.clone(), false);
        // What arrives: one entry parameter per standard location.
        let mut arrived: Vec<(Location, Value)> = Vec::new();
        let mut param_mem = Vec::new();
        for (k, l) in std.arguments.iter().enumerate() {
            let scalar = self.ir_type(params[l.value as usize]);
            let is_mem = matches!(l.place, Place::Stack(_))
                && !l.flags.contains(Flags::BYREF)
                && Self::in_pieces(scalar);
            let ty = if is_mem {
                param_mem.push(k as u32);
                Type::Ptr
            } else {
                self.piece_type(l, scalar)
            };
            arrived.push((*l, b.add_param(Block(0), ty)));
        }
        let sret_in = std
            .returns
            .iter()
            .any(|l| l.flags.contains(Flags::SRET))
            .then(|| b.add_param(Block(0), Type::Ptr));
        b.func.param_mem = param_mem.clone();
        // What leaves: one value per custom location.
        let mut args = Vec::new();
        let mut arg_mem = Vec::new();
        let mut homes: FxHashMap<u32, Value> = FxHashMap::default();
        for cl in &custom.arguments {
            let i = cl.value;
            let ct = params[i as usize];
            let scalar = self.ir_type(ct);
            let here: Vec<(usize, Location, Value)> = arrived
                .iter()
                .enumerate()
                .filter(|(_, (l, _))| l.value == i)
                .map(|(k, (l, v))| (k, *l, *v))
                .collect();
            if Self::in_pieces(scalar) {
                // The value in memory: where it arrived, or a slot its pieces are stored to.
                let home = match homes.get(&i) {
                    Some(&h) => h,
                    None => {
                        let h = match here.as_slice() {
                            [(k, _, v)] if param_mem.contains(&(*k as u32)) => *v,
                            // Passed by reference (AAPCS64, records over 16 bytes): the
                            // pointer is to the caller's copy.
                            [(_, l, v)] if l.flags.contains(Flags::BYREF) => *v,
                            _ => {
                                let (size, align) = self.size_align(ct);
                                let slot =
                                    b.add_slot(size.max(1).next_multiple_of(16), align.max(16));
                                let a = b.slot_addr(slot);
                                for (_, l, v) in &here {
                                    b.store(*v, a, l.offset as i32, MemFlags::aligned(1));
                                }
                                a
                            }
                        };
                        homes.insert(i, h);
                        h
                    }
                };
                match cl.place {
                    Place::Stack(_) => {
                        arg_mem.push(args.len() as u32);
                        args.push(home);
                    }
                    Place::Reg(_) => {
                        let pt = self.piece_type(cl, None);
                        args.push(b.load(pt, home, cl.offset as i32, MemFlags::aligned(1)));
                    }
                }
            } else {
                let Some(&(_, _, v)) = here.first() else {
                    self.refuse(loc, format!("the thunk of '{fname}'"));
                    return;
                };
                let want = self.piece_type(cl, scalar);
                let have = b.func.value_type(v);
                let v = if want == have {
                    v
                } else if want.is_int() && have.is_int() && want.bytes() < have.bytes() {
                    b.conv(ConvOp::Trunc, v, want)
                } else if want.is_int() && have.is_int() {
                    let op = if self.is_signed(ct) {
                        ConvOp::Sext
                    } else {
                        ConvOp::Zext
                    };
                    b.conv(op, v, want)
                } else {
                    self.refuse(loc, format!("the thunk of '{fname}'"));
                    return;
                };
                args.push(v);
            }
        }
        if custom.returns.iter().any(|l| l.flags.contains(Flags::SRET)) {
            let Some(p) = sret_in else {
                self.refuse(loc, format!("the thunk of '{fname}'"));
                return;
            };
            args.push(p);
        }
        let scalar_ret = self.ir_type(ret);
        let res_tys: Vec<Type> = custom
            .returns
            .iter()
            .filter(|l| !l.flags.contains(Flags::SRET))
            .map(|l| {
                if l.flags.contains(Flags::SRET_OUT) {
                    Type::Ptr
                } else {
                    self.piece_type(l, scalar_ret)
                }
            })
            .collect();
        let pid = b.add_plan(custom.clone());
        let results = b.call(Callee::Direct(target), args, arg_mem, pid, &res_tys);
        b.push(Op::Return(results), None);
        let f = b.finish();
        self.add_function(f);
    }
}
