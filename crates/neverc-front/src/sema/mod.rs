//! Semantic analysis: types of declarations and expressions, scopes (ordinary identifiers
//! and tags per block, file and prototype scope; labels per function), linkage,
//! tentative definitions, redeclaration compatibility, and integer constant expressions,
//! with gcc's diagnostics. The result is the type table and a type per expression.

mod decl;
mod expr;
mod format;
mod init;
pub mod types;

use crate::diag::Diagnostic;
use crate::parse::ast::{Ast, DeclId, ExprId};
use crate::pp::Preprocessor;
use crate::source::Loc;
use crate::token::{FxHashMap, Symbol};
use neverc_abi::Machine;
pub use types::{ArrLen, FloatK, FuncTy, Kind, TypeId, TypeTable};

/// What semantic analysis hands on: the types, each expression's type (indexed by
/// [`ExprId`]) and the values of the integer constant expressions it evaluated.
pub struct Typed {
    pub types: TypeTable,
    pub expr_types: Vec<TypeId>,
    pub values: ConstValues,
    /// Every ordinary identifier declared, by the index the maps below use.
    pub ords: Vec<Ordinary>,
    /// The declaration each identifier expression names.
    pub refs: Refs,
    /// The entry each declarator of a declaration introduced: (declaration, index in its
    /// list) to entry.
    pub decl_ords: DeclOrds,
    /// Each function definition's entry and its named parameters' entries, in order (None
    /// for an unnamed parameter).
    pub functions: FxHashMap<DeclId, (u32, Vec<Option<u32>>)>,
    /// Functions given an alignment by `aligned(N)`.
    pub func_align: FxHashMap<u32, u32>,
    /// Function definitions nested in other functions (GNU).
    pub nested: crate::token::FxHashSet<DeclId>,
    /// The type each type name denotes.
    pub type_names: SideTable<crate::parse::ast::TypeNameId, TypeId>,
    /// The association each `_Generic` selected.
    pub generic_choice: FxHashMap<ExprId, ExprId>,
}

/// A side table keyed by a dense index (an entry of `ords`, a symbol, a type name): a
/// vector of slots, so a lookup is an index, not a hash.
#[derive(Clone, Debug)]
pub struct SideTable<K, V> {
    slots: Vec<Option<V>>,
    _key: std::marker::PhantomData<K>,
}

/// A key of a [`SideTable`]: a dense index.
pub trait DenseKey {
    fn index(&self) -> usize;
}
impl DenseKey for ExprId {
    fn index(&self) -> usize {
        self.0 as usize
    }
}
impl DenseKey for u32 {
    fn index(&self) -> usize {
        *self as usize
    }
}
impl DenseKey for crate::parse::ast::TypeNameId {
    fn index(&self) -> usize {
        self.0 as usize
    }
}
impl DenseKey for Symbol {
    fn index(&self) -> usize {
        self.0 as usize
    }
}

impl<K, V> Default for SideTable<K, V> {
    fn default() -> Self {
        SideTable {
            slots: Vec::new(),
            _key: std::marker::PhantomData,
        }
    }
}

/// The entry each identifier expression names, by expression: a `u32` per expression, 0
/// for none and [`Refs::ENTRY0`] for entry 0 (the first predeclared typedef, which the
/// parser lets through as an operand: `1 + __builtin_va_list`). An `Option<u32>` per
/// expression was twice the memory: the table has a slot for every expression of the
/// unit, two megabytes on the benchmark, and a quarter of the expressions are
/// identifiers, so every page is touched.
/// The map-like methods keep the callers (irgen's `refs.get(&e)`) as they were.
#[derive(Clone, Debug, Default)]
pub struct Refs {
    entries: Vec<u32>,
}

impl Refs {
    /// How entry 0 is recorded (no unit has this many entries).
    const ENTRY0: u32 = u32::MAX;

    /// A table with room for the first `n` expressions: zeroed memory (`vec![0; n]` asks
    /// for it), which the allocator hands out without touching it when it was never used.
    fn with_slots(n: usize) -> Self {
        Refs {
            entries: vec![0; n],
        }
    }
    #[inline]
    pub fn get(&self, e: &ExprId) -> Option<&u32> {
        static ZERO: u32 = 0;
        let o = self.entries.get(e.0 as usize).filter(|o| **o != 0)?;
        Some(if *o == Self::ENTRY0 { &ZERO } else { o })
    }
    pub fn contains_key(&self, e: &ExprId) -> bool {
        self.get(e).is_some()
    }
    #[inline]
    pub fn insert(&mut self, e: ExprId, o: u32) {
        debug_assert!(o != Self::ENTRY0);
        let o = if o == 0 { Self::ENTRY0 } else { o };
        match self.entries.get_mut(e.0 as usize) {
            Some(slot) => *slot = o,
            None => self.insert_slow(e, o),
        }
    }

    #[inline(never)]
    fn insert_slow(&mut self, e: ExprId, o: u32) {
        let i = e.0 as usize;
        self.entries.resize((i + 1).max(self.entries.len() * 2), 0);
        self.entries[i] = o;
    }
}

impl std::ops::Index<&ExprId> for Refs {
    type Output = u32;
    fn index(&self, e: &ExprId) -> &u32 {
        self.get(e).expect("no entry in the side table")
    }
}

/// `n` slots of [`TypeId::ERROR`], from zeroed memory (see [`Refs::with_slots`]):
/// `vec![TypeId::ERROR; n]` would write every one (a megabyte on the benchmark).
fn error_types(n: usize) -> Vec<TypeId> {
    const _: () = assert!(TypeId::ERROR.0 == 0);
    let zeroed = std::mem::ManuallyDrop::new(vec![0u32; n]);
    let (ptr, len, cap) = (zeroed.as_ptr(), zeroed.len(), zeroed.capacity());
    // SAFETY: `TypeId` is a transparent `u32` (the same layout), zero is `TypeId::ERROR`,
    // and the vector is not used through `zeroed` any more.
    unsafe { Vec::from_raw_parts(ptr as *mut TypeId, len, cap) }
}

impl<K: DenseKey, V: Copy> SideTable<K, V> {
    pub fn get(&self, k: &K) -> Option<&V> {
        self.slots.get(k.index()).and_then(|v| v.as_ref())
    }
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.slots.get_mut(k.index()).and_then(|v| v.as_mut())
    }
    pub fn contains_key(&self, k: &K) -> bool {
        self.get(k).is_some()
    }
    #[inline]
    pub fn insert(&mut self, k: K, v: V) {
        let i = k.index();
        match self.slots.get_mut(i) {
            Some(slot) => *slot = Some(v),
            None => self.insert_slow(i, v),
        }
    }

    #[inline(never)]
    fn insert_slow(&mut self, i: usize, v: V) {
        // Grown by doubling: tables keyed by entry get a new key per declaration.
        let n = (i + 1).max(self.slots.len() * 2).max(16);
        self.slots.resize(n, None);
        self.slots[i] = Some(v);
    }
}

impl<K: DenseKey, V: Copy> std::ops::Index<&K> for SideTable<K, V> {
    type Output = V;
    fn index(&self, k: &K) -> &V {
        self.get(k).expect("no entry in the side table")
    }
}

/// The entry each declarator of a declaration introduced, by (declaration, index in its
/// list): a run of slots per declaration in one vector (a lookup is two indexings, not a
/// hash; sema fills one per declarator).
#[derive(Clone, Debug, Default)]
pub struct DeclOrds {
    /// By declaration: where its run starts in `slots`, and its length.
    runs: Vec<(u32, u32)>,
    /// Entries; `u32::MAX` for a declarator that introduced none.
    slots: Vec<u32>,
}

impl DeclOrds {
    fn new(decls: usize) -> Self {
        DeclOrds {
            runs: vec![(0, 0); decls],
            slots: Vec::new(),
        }
    }
    #[inline]
    pub fn get(&self, &(d, i): &(DeclId, u32)) -> Option<&u32> {
        let &(start, len) = self.runs.get(d.0 as usize)?;
        if i >= len {
            return None;
        }
        Some(&self.slots[(start + i) as usize]).filter(|&&o| o != u32::MAX)
    }
    /// Records entry `o` for declarator `i` of `d`, which has `n` declarators.
    pub(crate) fn insert(&mut self, d: DeclId, i: u32, n: u32, o: u32) {
        let di = d.0 as usize;
        if di >= self.runs.len() {
            self.runs.resize(di + 1, (0, 0));
        }
        if i >= self.runs[di].1 {
            // A new run (its declarators are met in order, so once per declaration).
            let start = self.slots.len() as u32;
            let len = n.max(i + 1);
            let old = self.runs[di];
            self.slots.resize(self.slots.len() + len as usize, u32::MAX);
            for k in 0..old.1 {
                self.slots[(start + k) as usize] = self.slots[(old.0 + k) as usize];
            }
            self.runs[di] = (start, len);
        }
        let (start, _) = self.runs[di];
        self.slots[(start + i) as usize] = o;
    }
}

/// The values of the integer constant expressions sema evaluated, by expression: a slot
/// per expression (0: none, else the value's index + 1) and the values themselves, so a
/// lookup is two indexings, not a hash (every `/`, `%`, shift and `&&` asks).
#[derive(Clone, Debug, Default)]
pub struct ConstValues {
    slots: Vec<u32>,
    vals: Vec<i128>,
}

impl ConstValues {
    fn new(exprs: usize) -> Self {
        ConstValues {
            slots: vec![0; exprs],
            vals: Vec::with_capacity(exprs / 8),
        }
    }
    #[inline]
    pub fn get(&self, e: &ExprId) -> Option<&i128> {
        match self.slots.get(e.0 as usize) {
            Some(&s) if s != 0 => Some(&self.vals[s as usize - 1]),
            _ => None,
        }
    }
    #[inline]
    pub fn insert(&mut self, e: ExprId, v: i128) {
        // (A first value for an expression of the unit: the common case, inlined.)
        if let Some(slot @ 0) = self.slots.get_mut(e.0 as usize) {
            self.vals.push(v);
            *slot = self.vals.len() as u32;
            return;
        }
        self.insert_general(e, v)
    }

    #[inline(never)]
    fn insert_general(&mut self, e: ExprId, v: i128) {
        let i = e.0 as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, 0);
        }
        match self.slots[i] {
            0 => {
                self.vals.push(v);
                self.slots[i] = self.vals.len() as u32;
            }
            s => self.vals[s as usize - 1] = v,
        }
    }
}

impl Typed {
    #[inline]
    pub fn expr_type(&self, e: ExprId) -> TypeId {
        self.expr_types[e.0 as usize]
    }
}

/// Linkage of an identifier (C17 6.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    None,
    Internal,
    External,
}

/// An ordinary identifier's meaning.
#[derive(Clone, Debug)]
pub enum OrdKind {
    /// An object or function.
    Object {
        linkage: Linkage,
        /// Static storage duration.
        is_static: bool,
        /// Has a definition (initialiser or body).
        defined: bool,
        /// Implicitly declared by a call.
        implicit: bool,
    },
    Typedef,
    EnumConst(i128),
}

#[derive(Clone, Debug)]
pub struct Ordinary {
    pub name: Symbol,
    pub ty: TypeId,
    pub loc: Loc,
    pub kind: OrdKind,
}

/// A tag's meaning.
#[derive(Clone, Copy, Debug)]
pub struct Tag {
    pub ty: TypeId,
    pub loc: Loc,
}

#[derive(Default)]
pub(crate) struct Scope {
    /// Where this scope's part of [`Sema::shadowed`] starts.
    shadowed_from: usize,
    tags: FxHashMap<Symbol, Tag>,
}

/// The innermost binding of an ordinary identifier: its entry + 1 (0: none) and the depth
/// of the scope that made it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Binding {
    entry: u32,
    depth: u32,
}

/// Per-function state.
pub(crate) struct FuncCtx {
    name: Symbol,
    /// Where the function's name is declared.
    loc: Loc,
    ret: TypeId,
    undeclared: Vec<Symbol>,
    labels: FxHashMap<Symbol, Loc>,
    local_labels: Vec<Symbol>,
    gotos: Vec<(Symbol, Loc)>,
}

pub struct Sema<'a> {
    pub(crate) ast: &'a Ast,
    pub(crate) pp: &'a mut Preprocessor,
    pub types: TypeTable,
    pub expr_types: Vec<TypeId>,
    pub values: ConstValues,
    /// Expressions found not to be integer constants, one bit each: [`Sema::eval`] is
    /// asked again and again about the same subtrees (every `/`, `%` and shift checks its
    /// right operand), and a failure would otherwise walk the subtree again. A set bit
    /// means that `eval` gives None at once, with no side effect (see
    /// `Sema::never_constant`).
    pub(crate) not_const: Vec<u64>,
    pub(crate) ords: Vec<Ordinary>,
    pub(crate) refs: Refs,
    pub(crate) decl_ords: DeclOrds,
    pub(crate) functions: FxHashMap<DeclId, (u32, Vec<Option<u32>>)>,
    pub(crate) nested: crate::token::FxHashSet<DeclId>,
    pub(crate) func_align: FxHashMap<u32, u32>,
    /// Depth of nested function definitions being checked.
    pub(crate) nesting: u32,
    /// The declaration whose declarators are being declared.
    pub(crate) cur_decl: Option<DeclId>,
    pub(crate) scopes: Vec<Scope>,
    /// Each ordinary identifier's innermost binding, by symbol: a name is looked up with one
    /// index, whatever the nesting of scopes.
    pub(crate) bindings: Vec<Binding>,
    /// The ordinary identifiers the open scopes bound, each with the binding it hid
    /// (restored when its scope ends), innermost scope last: one stack for all scopes, so
    /// that a block allocates nothing.
    pub(crate) shadowed: Vec<(Symbol, Binding)>,
    /// File-scope view of identifiers with linkage declared in blocks (and implicit
    /// declarations), for checking later declarations against them.
    pub(crate) externs: SideTable<Symbol, u32>,
    pub(crate) func: Option<FuncCtx>,
    /// Which function the last "In function" line named (None: top level).
    shown_ctx: Option<Symbol>,
    undeclared_note: bool,
    /// Nesting of unevaluated operands and statement expressions.
    pub(crate) depth: u32,
    /// Nesting of operands never evaluated because of a constant (`0 && x`): no
    /// warnings about their constant arithmetic.
    pub(crate) dead: u32,
    /// Entries declared `weak` (their address may be null: no -Waddress).
    pub(crate) weak: crate::token::FxHashSet<u32>,
    /// Types of the type names resolved so far (for evaluation).
    pub(crate) tn_cache: SideTable<crate::parse::ast::TypeNameId, TypeId>,
    /// The association each `_Generic` selected.
    pub(crate) generic_choice: FxHashMap<ExprId, ExprId>,
    /// Recursion depth of expression typing and evaluation.
    pub(crate) rec: u32,
    /// Expressions are typed while `rec < typing_limit`: `expr::MAX_RECURSION + 1`, or 0
    /// once the reporter has stopped. (One comparison per expression instead of a look at
    /// the reporter and one at the depth; the reporter stops only in a report, and sema
    /// reports only through [`Sema::error`], [`Sema::warning`], [`Sema::permerror`] and
    /// [`Sema::note`].)
    pub(crate) typing_limit: u32,
    /// Records whose member lists are being read.
    pub(crate) defining: Vec<u32>,
    /// File-scope definitions without initialisers, checked at the end of the unit.
    pub(crate) tentative: Vec<(u32, Loc)>,
    /// Entries of the current function's parameters.
    pub(crate) param_ids: Vec<u32>,
    /// Enclosing loops and switches, innermost last.
    pub(crate) jumps: Vec<Jump>,
    /// Token index by location, built when a `#pragma pack` needs it.
    pub(crate) token_index: Option<FxHashMap<crate::source::Loc, u32>>,
    /// Where the last token search by location ended ([`Sema::token_at`]): sema meets
    /// declarations in source order, so the next search usually finds its token just
    /// after it.
    pub(crate) token_cursor: std::cell::Cell<usize>,
    /// How block-scope objects are used, by entry: [`READ`] and [`SET`] bits, for
    /// -Wunused-variable and -Wunused-but-set-variable.
    pub(crate) usage: SideTable<u32, u8>,
    /// The expression whose value is discarded (an expression statement's, a `for`
    /// clause's, a discarded comma operand): assignments there only set their target.
    pub(crate) discarded: Option<ExprId>,
    /// Objects declared `register` (their address may not be taken).
    pub(crate) registers: crate::token::FxHashSet<u32>,
    /// Where the statement (or declaration) being checked starts: gcc's place for
    /// diagnostics it gives at its "input location".
    pub(crate) stmt_loc: Loc,
    /// The enum type of each enumerator entry (for messages).
    pub(crate) enum_of: FxHashMap<u32, TypeId>,
    /// gcc's "input location" for some declaration diagnostics: the start of the
    /// top-level declaration or function definition, or in a record's member list the
    /// token after its keyword (then `decl_ctx` is the keyword's place and
    /// `decl_ctx_after` is set: the token is found only when a diagnostic needs it, as
    /// finding it scans the tokens). See [`Sema::decl_ctx`].
    pub(crate) decl_ctx: Loc,
    pub(crate) decl_ctx_after: bool,
    /// Objects of variably modified type in scope, for gotos that jump into their scope.
    pub(crate) vm: VmScopes,
    /// Some record has a named bit-field: until one does, no member access needs the
    /// bit-field promotion's member search ([`Sema::bitfield_promotion`]).
    pub(crate) named_bitfields: bool,
    /// The warnings asked about per expression, block or statement, looked up in the
    /// policy once (the policy does not change during a unit; each look-up hashes strings).
    pub(crate) warns: Warns,
}

/// Whether the warnings that sema asks about most often are on: [`Sema::warning_on`]'s
/// answers, computed once.
#[derive(Clone, Copy, Default)]
pub(crate) struct Warns {
    pub(crate) parentheses: bool,
    pub(crate) unused_variable: bool,
    pub(crate) unused_but_set_variable: bool,
    pub(crate) return_type: bool,
    /// `-Wno-return-type`: the return-type diagnostics are dropped.
    pub(crate) return_type_dropped: bool,
}

/// The block-scope objects of variably modified type in scope at each point of a function,
/// as a tree: node `i` is (its parent node, the object's entry); node 0 is "none". The set
/// in scope at a label or a goto is one node and its ancestors, so "the label is in the
/// scope of an object the goto is not" is "the label's node is not an ancestor of the
/// goto's". Costs nothing in functions without such objects.
#[derive(Default)]
pub(crate) struct VmScopes {
    pub(crate) nodes: Vec<(u32, u32)>,
    /// The node in effect now.
    pub(crate) cur: u32,
    /// Per object pushed: the scope depth it belongs to, and the node before it.
    pub(crate) open: Vec<(usize, u32)>,
    /// Labels defined in the scope of such objects: their node and where they are.
    pub(crate) labels: FxHashMap<Symbol, (u32, Loc)>,
    /// Every goto of the function: label, where, node.
    pub(crate) gotos: Vec<(Symbol, Loc, u32)>,
}

/// The value of an object is used.
pub(crate) const READ: u8 = 1;
/// An object is assigned.
pub(crate) const SET: u8 = 2;

/// A statement `break` (and for loops `continue`) can leave.
pub(crate) enum Jump {
    Loop,
    Switch {
        /// Case ranges seen: low, high, where.
        cases: Vec<(i128, i128, Loc)>,
        default: Option<Loc>,
        /// Where the switch is, and the objects of variably modified type in scope there
        /// (a node of `vm`): a case label may not be in the scope of another one.
        at: Loc,
        vm: u32,
    },
}

/// Checks a translation unit; diagnostics go through the preprocessor's reporter.
pub fn check(ast: &Ast, pp: &mut Preprocessor, machine: Machine) -> Typed {
    let mut s = Sema {
        ast,
        pp,
        types: TypeTable::new(machine),
        expr_types: error_types(ast.exprs.len()),
        values: ConstValues::new(ast.exprs.len()),
        not_const: vec![0; ast.exprs.len().div_ceil(64)],
        // Room up front, so that the tables are not copied as they grow (pages not used
        // are never touched): the benchmark (with or without its 30 headers) has about
        // 2.5 entries per declaration and one constant value per 9 expressions.
        ords: Vec::with_capacity(ast.decls.len() * 3),
        refs: Refs::with_slots(ast.exprs.len()),
        decl_ords: DeclOrds::new(ast.decls.len()),
        functions: FxHashMap::default(),
        nested: Default::default(),
        func_align: FxHashMap::default(),
        nesting: 0,
        cur_decl: None,
        scopes: vec![Scope::default()],
        bindings: Vec::new(),
        shadowed: Vec::new(),
        externs: SideTable::default(),
        func: None,
        shown_ctx: None,
        undeclared_note: false,
        depth: 0,
        dead: 0,
        weak: Default::default(),
        tn_cache: SideTable::default(),
        generic_choice: FxHashMap::default(),
        rec: 0,
        typing_limit: 0,
        defining: Vec::new(),
        tentative: Vec::new(),
        usage: SideTable::default(),
        registers: Default::default(),
        discarded: None,
        stmt_loc: Loc {
            file: crate::source::FileId(0),
            offset: 0,
        },
        param_ids: Vec::new(),
        jumps: Vec::new(),
        token_index: None,
        token_cursor: std::cell::Cell::new(0),
        enum_of: FxHashMap::default(),
        decl_ctx: Loc::default(),
        decl_ctx_after: false,
        vm: VmScopes::default(),
        named_bitfields: false,
        warns: Warns::default(),
    };
    s.warns = Warns {
        parentheses: s.warning_on("parentheses", &["all"]),
        unused_variable: s.warning_on("unused-variable", &["all", "unused"]),
        unused_but_set_variable: s.warning_on("unused-but-set-variable", &["all", "unused"]),
        return_type: s.warning_on("return-type", &["all"]),
        return_type_dropped: s.pp.diags.policy.disabled.contains("return-type"),
    };
    s.typing_limit = if s.pp.diags.stop {
        0
    } else {
        expr::MAX_RECURSION + 1
    };
    s.predeclare();
    for &d in &ast.items {
        if s.pp.diags.stop {
            break;
        }
        s.decl_ctx = ast.decl(d).loc;
        s.decl_ctx_after = false;
        s.external_decl(d);
    }
    if !s.pp.diags.stop {
        s.finish_tentative();
    }
    Typed {
        types: s.types,
        expr_types: s.expr_types,
        values: s.values,
        ords: s.ords,
        refs: s.refs,
        decl_ords: s.decl_ords,
        functions: s.functions,
        nested: s.nested,
        func_align: s.func_align,
        type_names: s.tn_cache,
        generic_choice: s.generic_choice,
    }
}

impl<'a> Sema<'a> {
    /// gcc's predeclared typedefs: `__builtin_va_list` in the target's form, and the
    /// `__int128` names.
    fn predeclare(&mut self) {
        use neverc_abi::IntKind;
        use neverc_target::Arch;
        let void = self.types.void();
        let vp = self.types.pointer(void);
        let va = match self.types.machine.arch {
            // System V x86-64: `struct __va_list_tag { unsigned gp_offset, fp_offset;
            // void *overflow_arg_area, *reg_save_area; }[1]`.
            Arch::X86_64 if self.types.machine.os != neverc_target::Os::Windows => {
                let u = self.types.int(IntKind::UInt);
                let tag = self.pp.interner.intern(b"__va_list_tag");
                let names = [
                    "gp_offset",
                    "fp_offset",
                    "overflow_arg_area",
                    "reg_save_area",
                ];
                let members = names
                    .iter()
                    .zip([u, u, vp, vp])
                    .map(|(n, ty)| types::Member {
                        name: Some(self.pp.interner.intern(n.as_bytes())),
                        ty,
                        bits: None,
                        align: None,
                        packed: false,
                    })
                    .collect();
                let r = self.types.records.len() as u32;
                self.types.records.push(types::RecordInfo {
                    union: false,
                    tag: Some(tag),
                    members,
                    complete: true,
                    packed: false,
                    align: None,
                    pack: None,
                    opaque: false,
                });
                let rt = self.types.intern(Kind::Record(r), 0);
                self.types.intern(Kind::Array(rt, ArrLen::Fixed(1)), 0)
            }
            // AAPCS64: `struct { void *__stack, *__gr_top, *__vr_top; int __gr_offs,
            // __vr_offs; }`.
            Arch::AArch64 if self.types.machine.os == neverc_target::Os::Linux => {
                let i = self.types.int(IntKind::Int);
                let names = ["__stack", "__gr_top", "__vr_top", "__gr_offs", "__vr_offs"];
                let members = names
                    .iter()
                    .zip([vp, vp, vp, i, i])
                    .map(|(n, ty)| types::Member {
                        name: Some(self.pp.interner.intern(n.as_bytes())),
                        ty,
                        bits: None,
                        align: None,
                        packed: false,
                    })
                    .collect();
                let r = self.types.records.len() as u32;
                self.types.records.push(types::RecordInfo {
                    union: false,
                    tag: Some(self.pp.interner.intern(b"__va_list")),
                    members,
                    complete: true,
                    packed: false,
                    align: None,
                    pack: None,
                    opaque: false,
                });
                self.types.intern(Kind::Record(r), 0)
            }
            _ => vp,
        };
        let i128 = self.types.int(IntKind::Int128);
        let u128 = self.types.int(IntKind::UInt128);
        for (name, ty) in [
            ("__builtin_va_list", va),
            ("__int128_t", i128),
            ("__uint128_t", u128),
        ] {
            let name = self.pp.interner.intern(name.as_bytes());
            self.bind(Ordinary {
                name,
                ty,
                loc: Loc::default(),
                kind: OrdKind::Typedef,
            });
        }
    }

    pub(crate) fn name(&self, s: Symbol) -> String {
        self.pp.interner.str(s).into_owned()
    }

    pub(crate) fn tname(&self, t: TypeId) -> String {
        self.types.name(t, &self.pp.interner)
    }

    fn context_line(&mut self, loc: Loc, warning: Option<&'static str>) {
        if warning.is_some() {
            let p = &self.pp.diags.policy;
            if p.suppress_all || warning.is_some_and(|o| !o.is_empty() && p.disabled.contains(o)) {
                return;
            }
            if self.pp.is_system(loc.file) {
                return;
            }
        }
        if self.pp.diags.stop {
            return;
        }
        let cur = self.func.as_ref().map(|f| f.name);
        if cur == self.shown_ctx {
            return;
        }
        let file = self.pp.sm.file(loc.file).presumed(loc.offset).1.to_string();
        let line = match cur {
            Some(f) => format!("{file}: In function '{}':", self.name(f)),
            None => format!("{file}: At top level:"),
        };
        self.pp.diags.plain_line(&line);
        self.shown_ctx = cur;
    }

    pub(crate) fn error(&mut self, loc: Loc, len: u32, msg: impl Into<String>) {
        self.context_line(loc, None);
        self.pp.report(Diagnostic::error(loc, msg).with_len(len));
        self.note_stop();
    }

    /// A warning; `option` is its `-W` name ("" for none).
    pub(crate) fn warning(
        &mut self,
        loc: Loc,
        len: u32,
        msg: impl Into<String>,
        option: &'static str,
    ) {
        self.context_line(loc, Some(option));
        let mut d = Diagnostic::warning(loc, msg).with_len(len);
        if !option.is_empty() {
            d = d.with_option(option);
        }
        self.pp.report(d);
        self.note_stop();
    }

    /// An error that `-fpermissive` (or `-w`, `-Wno-error=option`) turns into a warning and
    /// `-Wno-option` drops: current gcc's implicit declarations and implicit int.
    pub(crate) fn permerror(
        &mut self,
        loc: Loc,
        len: u32,
        msg: impl Into<String>,
        option: &'static str,
    ) {
        let p = &self.pp.diags.policy;
        let warning = p.permissive || p.suppress_all || p.not_errors.contains(option);
        if self.pp.diags.policy.disabled.contains(option) {
            return;
        }
        self.context_line(loc, if warning { Some(option) } else { None });
        self.pp.report(
            Diagnostic::error(loc, msg)
                .with_len(len)
                .with_option(option),
        );
        self.note_stop();
    }

    pub(crate) fn note(&mut self, loc: Loc, len: u32, msg: impl Into<String>) {
        self.pp
            .report(Diagnostic::new(crate::diag::Level::Note, Some(loc), msg).with_len(len));
        self.note_stop();
    }

    /// After a report: once the reporter stops (an error limit, a fatal error), expression
    /// typing stops too (see [`Sema::typing_limit`]).
    fn note_stop(&mut self) {
        if self.pp.diags.stop {
            self.typing_limit = 0;
        }
    }

    /// The length of a name as messages spell it (an invalid UTF-8 sequence as U+FFFD).
    pub(crate) fn sym_len(&self, s: Symbol) -> u32 {
        let bytes = self.pp.interner.get(s);
        if bytes.is_ascii() {
            return bytes.len() as u32;
        }
        self.pp.interner.str(s).len() as u32
    }

    // ----- scopes -----

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(Scope {
            shadowed_from: self.shadowed.len(),
            tags: FxHashMap::default(),
        });
    }
    pub(crate) fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            let scope = self.scopes.pop().unwrap();
            self.unbind(&scope);
            self.close_vm_scope();
        }
    }

    /// Restores the bindings a scope hid, latest first.
    fn unbind(&mut self, scope: &Scope) {
        for &(s, prev) in self.shadowed[scope.shadowed_from..].iter().rev() {
            self.bindings[s.0 as usize] = prev;
        }
        self.shadowed.truncate(scope.shadowed_from);
    }

    /// Leaving a block: its objects of variably modified type go out of scope.
    fn close_vm_scope(&mut self) {
        let depth = self.scopes.len();
        while let Some(&(d, before)) = self.vm.open.last() {
            if d <= depth {
                break;
            }
            self.vm.cur = before;
            self.vm.open.pop();
        }
    }

    /// A block-scope object of variably modified type comes into scope.
    pub(crate) fn open_vm_object(&mut self, ord: u32) {
        if self.vm.nodes.is_empty() {
            self.vm.nodes.push((0, u32::MAX));
        }
        let node = self.vm.nodes.len() as u32;
        self.vm.nodes.push((self.vm.cur, ord));
        self.vm.open.push((self.scopes.len(), self.vm.cur));
        self.vm.cur = node;
    }

    /// The goto jumps into the scope of objects of variably modified type (C17 6.8.6.1p1):
    /// gcc's error at the goto, with notes on the label and the object.
    pub(crate) fn check_vm_jumps(&mut self) {
        if self.vm.labels.is_empty() {
            return;
        }
        let gotos = std::mem::take(&mut self.vm.gotos);
        for &(l, at, from) in &gotos {
            let Some(&(to, label_loc)) = self.vm.labels.get(&l) else {
                continue;
            };
            // Is `to` an ancestor of (or the same as) `from`?
            let mut n = from;
            while n != to && n != 0 {
                n = self.vm.nodes[n as usize].0;
            }
            if n == to {
                continue;
            }
            let obj = self.vm.nodes[to as usize].1;
            let len = self.tok_len_at(at);
            self.error(
                at,
                len,
                "jump into scope of identifier with variably modified type",
            );
            let ln = self.name(l);
            self.note(
                label_loc,
                self.sym_len(l),
                format!("label '{ln}' defined here"),
            );
            let o = &self.ords[obj as usize];
            let (oloc, oname) = (o.loc, o.name);
            let on = self.name(oname);
            self.note(oloc, self.sym_len(oname), format!("'{on}' declared here"));
        }
    }

    /// A case or default label (`len`: its keyword's) of the innermost switch is in the
    /// scope of an object of variably modified type the switch is not (C17 6.8.4.2p2):
    /// gcc's error, with notes on the switch and the object.
    pub(crate) fn check_vm_case(&mut self, at: Loc, len: u32) {
        let to = self.vm.cur;
        if to == 0 {
            return;
        }
        let Some((sw, from)) = self.jumps.iter().rev().find_map(|j| match j {
            Jump::Switch { at, vm, .. } => Some((*at, *vm)),
            Jump::Loop => None,
        }) else {
            return;
        };
        // Is `to` an ancestor of (or the same as) `from`?
        let mut n = from;
        while n != to && n != 0 {
            n = self.vm.nodes[n as usize].0;
        }
        if n == to {
            return;
        }
        self.error(
            at,
            len,
            "switch jumps into scope of identifier with variably modified type",
        );
        self.note(sw, 6, "switch starts here");
        let obj = self.vm.nodes[to as usize].1;
        let o = &self.ords[obj as usize];
        let (oloc, oname) = (o.loc, o.name);
        let on = self.name(oname);
        self.note(oloc, self.sym_len(oname), format!("'{on}' declared here"));
    }

    /// Is warning `option` on, given the groups (`all`, `extra`, `unused`) that enable it?
    pub(crate) fn warning_on(&self, option: &str, groups: &[&str]) -> bool {
        self.pp.diags.policy.wants(option, groups)
    }

    /// Leaves a block: gcc's -Wunused-variable and -Wunused-but-set-variable for the
    /// objects it declared, latest first.
    pub(crate) fn pop_block_scope(&mut self) {
        if self.scopes.len() <= 1 {
            return;
        }
        let depth = self.scopes.len() as u32;
        let scope = self.scopes.pop().unwrap();
        self.close_vm_scope();
        let unused = self.warns.unused_variable;
        let set_only = self.warns.unused_but_set_variable;
        if self.func.is_none() || !(unused || set_only) {
            self.unbind(&scope);
            return;
        }
        // The entries the scope's names have at its end.
        let mut ids: Vec<u32> = self.shadowed[scope.shadowed_from..]
            .iter()
            .map(|&(s, _)| self.bindings[s.0 as usize])
            .filter(|b| b.entry != 0 && b.depth == depth)
            .map(|b| b.entry - 1)
            .collect();
        self.unbind(&scope);
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.dedup();
        for id in ids {
            let o = &self.ords[id as usize];
            let local = matches!(
                o.kind,
                OrdKind::Object {
                    linkage: Linkage::None,
                    implicit: false,
                    ..
                }
            );
            if !local
                || self.param_ids.contains(&id)
                || matches!(self.types.kind(o.ty), types::Kind::Func(_))
            {
                continue;
            }
            let Some(&use_bits) = self.usage.get(&id) else {
                continue;
            };
            let (loc, name) = (o.loc, o.name);
            let n = self.name(name);
            let len = self.sym_len(name);
            if use_bits == 0 && unused {
                self.warning(
                    loc,
                    len,
                    format!("unused variable '{n}'"),
                    "unused-variable",
                );
            } else if use_bits == SET && set_only {
                self.warning(
                    loc,
                    len,
                    format!("variable '{n}' set but not used"),
                    "unused-but-set-variable",
                );
            }
        }
    }
    pub(crate) fn at_file_scope(&self) -> bool {
        self.scopes.len() == 1
    }

    pub(crate) fn lookup(&self, s: Symbol) -> Option<u32> {
        match self.bindings.get(s.0 as usize) {
            Some(b) if b.entry != 0 => Some(b.entry - 1),
            _ => None,
        }
    }
    pub(crate) fn lookup_current(&self, s: Symbol) -> Option<u32> {
        match self.bindings.get(s.0 as usize) {
            Some(b) if b.entry != 0 && b.depth == self.scopes.len() as u32 => Some(b.entry - 1),
            _ => None,
        }
    }

    /// Binds `name` to entry `id` in the current scope.
    pub(crate) fn bind_entry(&mut self, name: Symbol, id: u32) {
        let i = name.0 as usize;
        if i >= self.bindings.len() {
            self.bindings
                .resize(i + 1 + self.pp.interner.len() / 4, Binding::default());
        }
        let depth = self.scopes.len() as u32;
        let prev = std::mem::replace(
            &mut self.bindings[i],
            Binding {
                entry: id + 1,
                depth,
            },
        );
        self.shadowed.push((name, prev));
    }
    pub(crate) fn lookup_tag(&self, s: Symbol) -> Option<(Tag, bool)> {
        let n = self.scopes.len();
        self.scopes
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, sc)| sc.tags.get(&s).map(|t| (*t, i + 1 == n)))
    }

    pub(crate) fn bind(&mut self, o: Ordinary) -> u32 {
        let id = self.ords.len() as u32;
        let name = o.name;
        self.ords.push(o);
        self.bind_entry(name, id);
        id
    }

    pub(crate) fn bind_tag(&mut self, s: Symbol, t: Tag) {
        self.scopes.last_mut().unwrap().tags.insert(s, t);
    }

    /// Reports an undeclared identifier once per function.
    pub(crate) fn undeclared(&mut self, s: Symbol, loc: Loc) {
        let len = self.sym_len(s);
        let n = self.name(s);
        match &mut self.func {
            Some(f) => {
                if f.undeclared.contains(&s) {
                    return;
                }
                f.undeclared.push(s);
                self.error(
                    loc,
                    len,
                    format!("'{n}' undeclared (first use in this function)"),
                );
                if !self.undeclared_note {
                    self.undeclared_note = true;
                    // gcc shows no excerpt for a note at the previous diagnostic's place.
                    let (line, name) = {
                        let f = self.pp.sm.file(loc.file);
                        let (l, n) = f.presumed(loc.offset);
                        (l, n.to_string())
                    };
                    let col = self.pp.sm.line_col(loc).1;
                    if !self.pp.diags.stop {
                        self.pp.diags.plain_line(&format!(
                            "{name}:{line}:{col}: note: each undeclared identifier is reported only once for each function it appears in"
                        ));
                    }
                }
            }
            None => self.error(
                loc,
                len,
                format!("'{n}' undeclared here (not in a function)"),
            ),
        }
    }
}

/// [`check`] for a target row of the target table.
pub fn check_target(ast: &Ast, pp: &mut Preprocessor, target: &neverc_target::Target) -> Typed {
    check(ast, pp, Machine::from(target))
}
