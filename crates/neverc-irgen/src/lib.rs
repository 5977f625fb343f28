//! neverc-irgen: the typed AST to SSA IR.
//!
//! Every call and every function entry goes through its call plan from `neverc-abi`: this
//! crate loads struct pieces into the values a plan names, makes by-reference copies and
//! adds the sret pointer, so back ends only move values between plan locations.
//!
//! The code it produces is deliberately simple: every local object lives in a stack slot
//! and every use loads it; promoting slots to SSA values is an optimisation pass's job.
//! A construct it cannot lower yet ends in an error naming it, never in wrong code.

mod asm;
mod callconv;
mod consts;
mod expr;
mod func;
mod softfloat;
mod stmt;
mod ty;
mod vm;

use neverc_abi::Machine;
use neverc_front::parse::ast::{Ast, Attr, DeclId, DeclKind, ExprId, Storage};
use neverc_front::sema::{Kind, Linkage, OrdKind, TypeId, Typed};
use neverc_front::source::Loc;
use neverc_front::token::{FxHashMap, FxHashSet, Interner};
use neverc_ir::{Binding, Module, Sym, SymKind, Visibility};

/// A construct irgen refused, with where it was.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub loc: Loc,
    pub message: String,
}

/// A warning irgen reports (the driver prints it): about custom calling conventions,
/// and those that need the control flow sema does not see (-Wreturn-type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub loc: Loc,
    pub message: String,
    /// Shown only under `-Wextra`.
    pub extra: bool,
    /// A note rather than a warning.
    pub note: bool,
    /// Its `-W` option, when it has one.
    pub option: Option<&'static str>,
    /// The function it is about, for gcc's "In function" line.
    pub function: Option<String>,
}

/// Options that change the IR.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-fcommon`: tentative definitions become common symbols.
    pub common: bool,
    /// `-fno-builtin`: library functions are only calls.
    pub no_builtin: bool,
    /// GNU89 inline semantics (`-std=gnu89`/`c89`, `-fgnu89-inline`): an `extern inline`
    /// definition is only for inlining and emits no function.
    pub gnu89_inline: bool,
    /// `-Wreturn-type` (in `-Wall`): control reaching the end of a non-void function.
    pub warn_return_type: bool,
    /// The command line's custom calling convention policy (`-fcallconv-*`).
    pub callconv: neverc_abi::callconv::Policy,
    /// One `slot_addr` per slot and one instruction per constant in a function, at its
    /// entry (`FunctionBuilder::share_constants`): for -O0, where it saves instructions
    /// and changes no code.
    pub share_constants: bool,
    /// A load of what the same block loaded or stored before, with nothing that may write
    /// memory between, is given that value (`FunctionBuilder::reuse_loads`): for -O0,
    /// where each load is a machine instruction.
    pub reuse_loads: bool,
}

/// Generates the module of one translation unit.
pub fn generate(
    ast: &Ast,
    typed: Typed,
    interner: &Interner,
    machine: Machine,
    opts: &Options,
) -> Result<Module, Vec<Refusal>> {
    generate_with_warnings(ast, typed, interner, machine, opts, &|_| false).0
}

/// Generates the module of one translation unit, with the warnings irgen has (about
/// custom calling conventions). `is_system` says whether a location is in a system header
/// (the convention policy does not reach functions declared only there).
pub fn generate_with_warnings(
    ast: &Ast,
    typed: Typed,
    interner: &Interner,
    machine: Machine,
    opts: &Options,
    is_system: &dyn Fn(Loc) -> bool,
) -> (Result<Module, Vec<Refusal>>, Vec<Warning>) {
    let mut g = Gen::new(ast, typed, interner, machine, opts, None);
    g.collect_cc_attrs(is_system);
    for &d in &ast.items {
        g.top_decl(d);
    }
    // Any declaration saying `inline`, before or after the definition, counts (as in gcc).
    for f in &mut g.module.functions {
        f.declared_inline = g.declared_inline.contains(&f.sym);
        f.inline_hint = g.inline_hints.get(&f.sym).copied().unwrap_or_default();
    }
    g.emit_thunks();
    g.finish_symbols();
    let warnings = std::mem::take(&mut g.warnings);
    if g.refusals.is_empty() {
        (Ok(g.module), warnings)
    } else {
        (Err(g.refusals), warnings)
    }
}

/// Receives each function as soon as it is generated, with the module as it is then.
pub type FunctionSink<'s> = &'s mut dyn FnMut(&Module, &neverc_ir::Function);

/// What [`generate_streaming`] leaves once every function went to the sink.
pub struct Streamed {
    /// The module without its functions.
    pub module: Module,
    /// The functions some declaration of which says `inline` (what
    /// [`neverc_ir::Function::declared_inline`] says of a function generated whole).
    pub declared_inline: FxHashSet<Sym>,
    /// The semantic tables again, to run [`generate_with_warnings`] after all if the caller
    /// finds the functions it compiled early saw symbols that changed later (see below).
    pub typed: Typed,
}

/// As [`generate_with_warnings`], but each function goes to `sink` as soon as it is
/// generated instead of into the module, so a caller can compile it and free its IR before
/// the next one (memory stays small and warm). The module the sink sees is the one
/// generated so far, except that symbols of the unit's file-scope function and object
/// definitions are `defined` from their first mention (the whole-module result marks them
/// at the end): a function compiled early sees what it would see in the finished module,
/// unless a later declaration changes a symbol it refers to (an `__asm__` rename, a new
/// attribute, a definition this prediction missed, a calling-convention thunk). Callers
/// compare the symbols each function used with the final ones and regenerate with
/// [`generate_with_warnings`] on a difference.
pub fn generate_streaming(
    ast: &Ast,
    typed: Typed,
    interner: &Interner,
    machine: Machine,
    opts: &Options,
    is_system: &dyn Fn(Loc) -> bool,
    sink: FunctionSink<'_>,
) -> (Result<Streamed, Vec<Refusal>>, Vec<Warning>) {
    let mut g = Gen::new(ast, typed, interner, machine, opts, Some(sink));
    g.collect_cc_attrs(is_system);
    g.predict_defined();
    for &d in &ast.items {
        g.top_decl(d);
    }
    g.emit_thunks();
    g.finish_symbols();
    let warnings = std::mem::take(&mut g.warnings);
    if g.refusals.is_empty() {
        let st = Streamed {
            module: g.module,
            declared_inline: g.declared_inline,
            typed: g.t,
        };
        (Ok(st), warnings)
    } else {
        (Err(g.refusals), warnings)
    }
}

pub(crate) struct Gen<'a> {
    pub ast: &'a Ast,
    pub t: Typed,
    pub interner: &'a Interner,
    pub machine: Machine,
    pub opts: Options,
    pub module: Module,
    pub refusals: Vec<Refusal>,
    /// The symbol of each entry with static storage (objects and functions).
    pub ord_sym: FxHashMap<u32, Sym>,
    /// Counter for names of block-scope statics and literals.
    pub statics: u32,
    /// String literal index → its data symbol.
    pub strings: FxHashMap<u32, Sym>,
    /// Record type → layout.
    pub layouts: FxHashMap<u32, std::rc::Rc<neverc_abi::RecordLayout>>,
    /// Entries defined (data emitted or body generated), to emit tentative ones once.
    pub defined: FxHashMap<u32, ()>,
    /// The function being generated.
    pub fs: Option<func::FnState>,
    /// Where the expression being generated is (for refusals from deep helpers).
    pub cur_loc: Loc,
    /// Each nested function's parent function (entries).
    pub nested_parent: FxHashMap<u32, u32>,
    /// The environment layout a nested function receives: object entry to index.
    pub nested_layouts: FxHashMap<u32, FxHashMap<u32, u32>>,
    /// The instruction count of the last function generated: the next one reserves that
    /// much (functions of one file tend to be alike), saving the vectors' regrowth.
    pub inst_hint: usize,
    /// The functions some file-scope declaration or definition of which says `inline`.
    pub declared_inline: FxHashSet<Sym>,
    /// Functions declared `_Noreturn` or `noreturn`: control does not come back from
    /// a call of one (for -Wreturn-type).
    pub noreturn: FxHashSet<Sym>,
    /// Custom calling conventions: each function's attributes, the decision made for it,
    /// the functions declared outside system headers, and the warnings.
    pub(crate) cc_attrs: FxHashMap<u32, callconv::CcAttrs>,
    pub(crate) cc_cache: FxHashMap<u32, callconv::CcChoice>,
    pub(crate) cc_user_fns: FxHashSet<u32>,
    pub(crate) cc_defined_fns: FxHashSet<u32>,
    pub(crate) warnings: Vec<Warning>,
    /// Thunks asked for: the function, the thunk's symbol, where its address was taken.
    pub(crate) cc_thunks: Vec<(u32, Sym, Loc)>,
    /// `noinline`/`noipa` and `always_inline` of any declaration of a function.
    pub inline_hints: FxHashMap<Sym, neverc_ir::InlineHint>,
    /// Streaming generation: where finished functions go (see [`generate_streaming`]).
    pub sink: Option<FunctionSink<'a>>,
    /// Streaming generation: the entries the unit defines at file scope, whose symbols are
    /// marked defined when created.
    pub will_define: FxHashSet<u32>,
    /// Streaming: the last function, handed over already; the next one is built in its
    /// vectors.
    pub spare: Option<neverc_ir::Function>,
    /// The builder's blocks and tables left from the last function, for the next one.
    pub builder_spare: neverc_ir::BuilderSpare,
    /// The standard calling convention's plan of each signature asked about.
    pub plan_cache: FxHashMap<neverc_abi::Signature, neverc_abi::CallPlan>,
    /// The standard plan by the C types it was made from (`plan_by_types`): result,
    /// variadic count + 1 (0: not variadic), parameters. Each call and definition asks
    /// again, and forming the ABI signature and hashing it cost more than the plan.
    pub(crate) plans_by_types: FxHashMap<Vec<u32>, std::rc::Rc<neverc_abi::CallPlan>>,
    /// The key being looked up in `plans_by_types` (its memory kept).
    pub(crate) plan_key: Vec<u32>,
    /// The last function's (emptied) `locals` map, for the next one to fill without
    /// growing a fresh one.
    pub spare_locals: func::Locals,
    /// Whether some record scanned so far has a bit-field wider than `int` (only those
    /// give arithmetic a precision of its own), and how many records were scanned.
    pub wide_bitfields: (bool, usize),
    /// `size_align` of each type of the table as of the start of the function being
    /// generated (see `refresh_ir_types`), by type number.
    pub sizes: Vec<(u64, u32)>,
    /// `size_align` of each later type asked about, by type number.
    pub size_cache: std::cell::RefCell<Vec<Option<(u64, u32)>>>,
    /// `ir_type` of each type of the table, by type number, as of the start of the
    /// function being generated (`refresh_ir_types`); later types are worked out at each
    /// question. A plain vector: asked at every conversion, load and operator.
    pub ir_types: Vec<Option<neverc_ir::Type>>,
    /// Each variable length array size expression's array type, and how many types of the
    /// table were scanned for them (see `vm.rs`).
    pub vla_arrays: (FxHashMap<neverc_front::parse::ast::ExprId, TypeId>, usize),
}

impl<'a> Gen<'a> {
    fn new(
        ast: &'a Ast,
        typed: Typed,
        interner: &'a Interner,
        machine: Machine,
        opts: &Options,
        sink: Option<FunctionSink<'a>>,
    ) -> Self {
        Gen {
            ast,
            t: typed,
            interner,
            machine,
            opts: opts.clone(),
            module: Module::default(),
            refusals: Vec::new(),
            ord_sym: FxHashMap::default(),
            statics: 0,
            strings: FxHashMap::default(),
            layouts: FxHashMap::default(),
            defined: FxHashMap::default(),
            fs: None,
            cur_loc: Loc::default(),
            nested_parent: FxHashMap::default(),
            nested_layouts: FxHashMap::default(),
            inst_hint: 0,
            declared_inline: FxHashSet::default(),
            cc_attrs: FxHashMap::default(),
            cc_cache: FxHashMap::default(),
            cc_user_fns: FxHashSet::default(),
            cc_defined_fns: FxHashSet::default(),
            warnings: Vec::new(),
            noreturn: FxHashSet::default(),
            cc_thunks: Vec::new(),
            inline_hints: FxHashMap::default(),
            sink,
            will_define: FxHashSet::default(),
            spare: None,
            builder_spare: Default::default(),
            spare_locals: Default::default(),
            plan_cache: FxHashMap::default(),
            plans_by_types: FxHashMap::default(),
            plan_key: Vec::new(),
            wide_bitfields: (false, 0),
            sizes: Vec::new(),
            size_cache: Default::default(),
            ir_types: Vec::new(),
            vla_arrays: Default::default(),
        }
    }

    /// Streaming: the file-scope entries `top_decl` will define (function bodies, objects
    /// with an initialiser or a tentative definition), as it decides.
    fn predict_defined(&mut self) {
        let ast = self.ast;
        for &d in &ast.items {
            match &ast.decl(d).kind {
                DeclKind::Vars { specs, list } => {
                    let sp = ast.spec(*specs);
                    if sp.storage == Some(Storage::Typedef) {
                        continue;
                    }
                    for (i, id) in list.iter().enumerate() {
                        let Some(&o) = self.t.decl_ords.get(&(d, i as u32)) else {
                            continue;
                        };
                        let ty = self.t.ords[o as usize].ty;
                        if matches!(self.t.types.kind(ty), Kind::Func(_)) {
                            continue;
                        }
                        if id.init.is_some() || sp.storage != Some(Storage::Extern) {
                            self.will_define.insert(o);
                        }
                    }
                }
                DeclKind::FunctionDef { .. } => {
                    if let Some(&(o, _)) = self.t.functions.get(&d) {
                        self.will_define.insert(o);
                    }
                }
                _ => {}
            }
        }
    }

    /// A generated function: into the module, or to the streaming sink.
    pub(crate) fn add_function(&mut self, func: neverc_ir::Function) {
        match &mut self.sink {
            Some(sink) => {
                self.module.symbols[func.sym.index()].defined = true;
                sink(&self.module, &func);
                self.spare = Some(func);
            }
            None => self.module.functions.push(func),
        }
    }

    pub fn refuse(&mut self, loc: Loc, what: impl Into<String>) {
        let what = what.into();
        let message = match &self.fs {
            Some(f) => format!("neverc cannot compile {what} yet (function '{}')", f.name),
            None => format!("neverc cannot compile {what} yet"),
        };
        // One refusal per place and message is enough.
        if !self
            .refusals
            .iter()
            .any(|r| r.loc == loc && r.message == message)
        {
            self.refusals.push(Refusal { loc, message });
        }
    }

    pub fn name(&self, s: neverc_front::token::Symbol) -> String {
        self.interner.str(s).into_owned()
    }

    pub fn attr_name(&self, a: &Attr) -> String {
        let n = self.name(a.name);
        n.trim_start_matches("__")
            .trim_end_matches("__")
            .to_string()
    }

    /// The string literal argument of an attribute (`section("x")`), if any.
    pub fn attr_string(&self, a: &Attr) -> Option<String> {
        let (s, e) = a.args?;
        for t in &self.ast.tokens[s as usize..e as usize] {
            if t.kind == neverc_front::parse::ctok::T::Str {
                let units = &self.ast.lits.strs[t.lit() as usize].units;
                return Some(units.iter().map(|&u| u as u8 as char).collect());
            }
        }
        None
    }

    fn top_decl(&mut self, d: DeclId) {
        let ast = self.ast;
        match &ast.decl(d).kind {
            DeclKind::Vars { specs, list } => {
                let sp = ast.spec(*specs);
                if sp.storage == Some(Storage::Typedef) {
                    return;
                }
                for (i, id) in list.iter().enumerate() {
                    let Some(&o) = self.t.decl_ords.get(&(d, i as u32)) else {
                        continue;
                    };
                    let mut attrs: Vec<Attr> = sp.attrs.clone();
                    attrs.extend(id.decl.attrs.iter().cloned());
                    let sym = self.object_sym(o);
                    if sp.thread_local {
                        self.module.symbols[sym.index()].kind = SymKind::Tls;
                    }
                    self.apply_attrs(sym, &attrs);
                    if let Some(l) = id.asm_label {
                        self.rename(sym, l);
                    }
                    let ty = self.t.ords[o as usize].ty;
                    if matches!(self.t.types.kind(ty), Kind::Func(_)) {
                        if sp.inline {
                            self.declared_inline.insert(sym);
                        }
                        if sp.noreturn {
                            self.noreturn.insert(sym);
                        }
                        continue;
                    }
                    if let Some(init) = id.init {
                        self.cur_loc = id.decl.loc;
                        self.defined.insert(o, ());
                        let al = self.declared_align(sp, &id.decl);
                        self.static_object(o, sym, Some(init), id.decl.loc, al);
                    } else if sp.storage != Some(Storage::Extern) && !self.defined.contains_key(&o)
                    {
                        // A tentative definition: defined (zero) at the end unless an
                        // initialised definition comes.
                        self.defined.insert(o, ());
                        let al = self.declared_align(sp, &id.decl);
                        self.static_object(o, sym, None, id.decl.loc, al);
                    }
                }
            }
            DeclKind::FunctionDef { .. } => self.function(d),
            DeclKind::Asm(s) => {
                let text: String = ast.lits.strs[*s as usize]
                    .units
                    .iter()
                    .map(|&u| u as u8 as char)
                    .collect();
                self.module.toplevel_asm.push(text);
            }
            DeclKind::StaticAssert { .. } | DeclKind::Empty | DeclKind::Error => {}
        }
    }

    /// Renames a symbol after `__asm__("name")`.
    pub fn rename(&mut self, sym: Sym, lit: u32) {
        let name: String = self.ast.lits.strs[lit as usize]
            .units
            .iter()
            .map(|&u| u as u8 as char)
            .collect();
        let old = std::mem::replace(&mut self.module.symbols[sym.index()].name, name.clone());
        self.module.by_name.remove(&old);
        self.module.by_name.insert(name, sym);
    }

    /// The symbol of an entry with static storage duration (created on first use).
    pub fn object_sym(&mut self, o: u32) -> Sym {
        if let Some(&s) = self.ord_sym.get(&o) {
            return s;
        }
        let ord = &self.t.ords[o as usize];
        let (linkage, is_func) = match ord.kind {
            OrdKind::Object { linkage, .. } => {
                (linkage, matches!(self.t.types.kind(ord.ty), Kind::Func(_)))
            }
            _ => (Linkage::None, false),
        };
        let mut name = self.name(ord.name);
        if linkage == Linkage::None {
            // A block-scope static: a local symbol with a unique name, as gcc's `x.0`.
            self.statics += 1;
            name = format!("{name}.{}", self.statics);
        }
        let kind = if is_func {
            SymKind::Func
        } else {
            SymKind::Object
        };
        // Two entries with linkage and the same name are one symbol.
        let sym = self.module.symbol(&name, kind);
        if linkage != Linkage::External {
            let s = &mut self.module.symbols[sym.index()];
            s.binding = Binding::Local;
            s.local = true;
        }
        if self.will_define.contains(&o) {
            self.module.symbols[sym.index()].defined = true;
        }
        self.ord_sym.insert(o, sym);
        sym
    }

    /// Attributes that change a symbol: weak, alias, visibility, section, used.
    pub fn apply_attrs(&mut self, sym: Sym, attrs: &[Attr]) {
        for a in attrs {
            let n = self.attr_name(a);
            match n.as_str() {
                "weak" => self.module.symbols[sym.index()].binding = Binding::Weak,
                "noreturn" => {
                    self.noreturn.insert(sym);
                }
                "alias" => {
                    if let Some(target) = self.attr_string(a) {
                        let kind = self.module.symbols[sym.index()].kind;
                        let t = self.module.symbol(&target, kind);
                        let s = &mut self.module.symbols[sym.index()];
                        s.alias_of = Some(t);
                        s.defined = true;
                    }
                }
                "visibility" => {
                    let v = match self.attr_string(a).as_deref() {
                        Some("hidden") => Visibility::Hidden,
                        Some("protected") => Visibility::Protected,
                        Some("internal") => Visibility::Internal,
                        _ => Visibility::Default,
                    };
                    let s = &mut self.module.symbols[sym.index()];
                    s.visibility = v;
                    if v != Visibility::Default {
                        s.local = true;
                    }
                }
                "section" => {
                    self.module.symbols[sym.index()].section = self.attr_string(a);
                }
                "used" => self.module.symbols[sym.index()].used = true,
                // noinline wins over always_inline when a function has both.
                "noinline" | "noipa" => {
                    self.inline_hints.insert(sym, neverc_ir::InlineHint::Never);
                }
                "always_inline" => {
                    self.inline_hints
                        .entry(sym)
                        .or_insert(neverc_ir::InlineHint::Always);
                }
                "constructor" | "destructor" => {
                    let prio = 65535;
                    if n == "constructor" {
                        self.module.constructors.push((prio, sym));
                    } else {
                        self.module.destructors.push((prio, sym));
                    }
                }
                _ => {}
            }
        }
    }

    fn finish_symbols(&mut self) {
        // Data objects and function bodies define their symbols; mark them.
        for d in &self.module.data {
            self.module.symbols[d.sym.index()].defined = true;
        }
        for f in &self.module.functions {
            self.module.symbols[f.sym.index()].defined = true;
        }
    }

    /// Size and alignment of a complete type. Remembered per type: the front end lays a
    /// type out anew at each question, and sema is done with every type by now.
    #[inline]
    pub fn size_align(&self, ty: TypeId) -> (u64, u32) {
        if let Some(&sa) = self.sizes.get(ty.0 as usize) {
            return sa;
        }
        if let Some(Some(sa)) = self.size_cache.borrow().get(ty.0 as usize) {
            return *sa;
        }
        self.size_align_miss(ty)
    }

    /// Out of line, so that the cache hit above inlines without this path's frame.
    #[cold]
    #[inline(never)]
    fn size_align_miss(&self, ty: TypeId) -> (u64, u32) {
        let i = ty.0 as usize;
        let sa = self.t.types.size_align(ty).unwrap_or((0, 1));
        let mut cache = self.size_cache.borrow_mut();
        if cache.len() <= i {
            cache.resize(i + 1, None);
        }
        cache[i] = Some(sa);
        sa
    }

    pub fn expr_type(&self, e: ExprId) -> TypeId {
        self.t.expr_type(e)
    }
}
