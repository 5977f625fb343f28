//! neverc-ir: the SSA intermediate representation between irgen and the back ends.
//!
//! SSA with block parameters instead of phi nodes; values typed by machine width; memory
//! operations carry size (their type), alignment and volatility; every call and every
//! function entry names a [`CallPlan`] from `neverc-abi`, and its IR values are exactly the
//! plan's locations (see [`Op::Call`]). Storage is flat (`Vec`s indexed by `u32` newtypes).
//!
//! It owns the data structures ([`Module`], [`Function`]), a builder ([`FunctionBuilder`]),
//! the verifier ([`verify`]) and the text printer ([`print`]) behind `-fdump-ir`, and the
//! table of libgcc's `__int128` helpers ([`libgcc`]) that irgen and the back ends call.

mod builder;
pub mod forward;
pub mod inline;
pub mod libgcc;
pub mod opt;
mod print;
pub mod simplify;
pub mod sroa;
mod verify;

pub use builder::{BuilderSpare, FunctionBuilder};
pub use neverc_abi::CallPlan;
pub use print::{print_function, print_module};
pub use verify::{dominators, verify, VerifyError};

macro_rules! ids {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

ids!(
    /// An SSA value: a block parameter or an instruction result.
    Value,
    /// A basic block.
    Block,
    /// An instruction.
    Inst,
    /// A fixed-size stack slot of the function.
    Slot,
    /// A symbol of the module (function or object, defined here or not).
    Sym,
    /// A call plan of the function's call sites, index into [`Function::plans`].
    PlanId
);

/// A value's machine type. `Ptr` is the target's pointer width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    I8,
    I16,
    I32,
    I64,
    I128,
    /// IEEE binary16 (`_Float16`).
    F16,
    F32,
    F64,
    /// x87 80-bit extended precision (x86 `long double`).
    F80,
    /// IEEE binary128.
    F128,
    /// 16 opaque bytes carried in a vector register (a 16-byte vector or record piece
    /// passed or returned in one xmm register). Only loaded, stored, passed, returned and
    /// carried as a block argument: never computed on.
    V128,
    Ptr,
}

impl Type {
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::I128 | Type::Ptr
        )
    }
    pub fn is_float(self) -> bool {
        !self.is_int() && self != Type::V128
    }
    /// Size in bytes (`Ptr` as 8; targets with 32-bit pointers ask their data model).
    pub fn bytes(self) -> u32 {
        match self {
            Type::I8 => 1,
            Type::I16 | Type::F16 => 2,
            Type::I32 | Type::F32 => 4,
            Type::I64 | Type::F64 | Type::Ptr => 8,
            Type::F80 => 10,
            Type::I128 | Type::F128 | Type::V128 => 16,
        }
    }
    /// The integer type of `n` bytes (1, 2, 4, 8, 16).
    pub fn int_of_bytes(n: u32) -> Option<Type> {
        Some(match n {
            1 => Type::I8,
            2 => Type::I16,
            4 => Type::I32,
            8 => Type::I64,
            16 => Type::I128,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Type::I8 => "i8",
            Type::I16 => "i16",
            Type::I32 => "i32",
            Type::I64 => "i64",
            Type::I128 => "i128",
            Type::F16 => "f16",
            Type::F32 => "f32",
            Type::F64 => "f64",
            Type::F80 => "f80",
            Type::F128 => "f128",
            Type::V128 => "v128",
            Type::Ptr => "ptr",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Not,
    FNeg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    And,
    Or,
    Xor,
    Shl,
    /// Logical shift right.
    LShr,
    /// Arithmetic shift right.
    AShr,
    FAdd,
    FSub,
    FMul,
    FDiv,
}

/// Integer comparison; the result is an `i8` holding 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCC {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

/// Floating comparison as C means it: ordered for `< <= > >= ==`, unordered-or-unequal for
/// `!=`. The result is an `i8` holding 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCC {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Either operand is NaN.
    Unordered,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvOp {
    Sext,
    Zext,
    Trunc,
    /// Float to a wider float.
    FExt,
    /// Float to a narrower float.
    FTrunc,
    SToF,
    UToF,
    /// Float to signed integer, truncating toward zero.
    FToS,
    FToU,
    /// Same size, other type (int ↔ ptr, int ↔ float bits).
    Bitcast,
}

/// Properties of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemFlags {
    pub align: u32,
    pub volatile: bool,
}

impl MemFlags {
    pub fn aligned(align: u32) -> MemFlags {
        MemFlags {
            align,
            volatile: false,
        }
    }
}

/// An integer constant's 128 bits, stored 8-aligned: an `i128` field would make every
/// [`Op`] 16-aligned and larger. `get` gives the value.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, packed(8))]
pub struct Imm(i128);

impl Imm {
    pub const fn new(v: i128) -> Imm {
        Imm(v)
    }
    pub const fn get(self) -> i128 {
        self.0
    }
}

impl From<i128> for Imm {
    fn from(v: i128) -> Imm {
        Imm(v)
    }
}

impl std::fmt::Debug for Imm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.get(), f)
    }
}

impl std::fmt::Display for Imm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.get(), f)
    }
}

/// A float constant's bit pattern, stored 8-aligned as [`Imm`] is.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(C, packed(8))]
pub struct Bits(u128);

impl Bits {
    pub const fn new(v: u128) -> Bits {
        Bits(v)
    }
    pub const fn get(self) -> u128 {
        self.0
    }
}

impl From<u128> for Bits {
    fn from(v: u128) -> Bits {
        Bits(v)
    }
}

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.get(), f)
    }
}

impl std::fmt::LowerHex for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.get(), f)
    }
}

/// A branch target with the arguments for the block's parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockCall {
    pub block: Block,
    pub args: ValueList,
}

impl BlockCall {
    /// A target without arguments.
    pub fn to(block: Block) -> BlockCall {
        BlockCall {
            block,
            args: ValueList::new(),
        }
    }
}

/// A list of values in one word, for branch arguments: empty (as most are, always at -O0)
/// without allocating, so that a branch stays small in [`Op`]. Reads as a slice.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
#[allow(clippy::box_collection)] // the Box keeps it one word (a Vec is three)
pub struct ValueList(Option<Box<Vec<Value>>>);

impl ValueList {
    pub fn new() -> ValueList {
        ValueList(None)
    }
    pub fn push(&mut self, v: Value) {
        self.0.get_or_insert_with(Default::default).push(v)
    }
    pub fn retain(&mut self, f: impl FnMut(&Value) -> bool) {
        if let Some(v) = &mut self.0 {
            v.retain(f);
            if v.is_empty() {
                self.0 = None;
            }
        }
    }
    pub fn to_vec(&self) -> Vec<Value> {
        (**self).to_vec()
    }
}

impl std::ops::Deref for ValueList {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match &self.0 {
            Some(v) => v,
            None => &[],
        }
    }
}

impl std::ops::DerefMut for ValueList {
    fn deref_mut(&mut self) -> &mut [Value] {
        match &mut self.0 {
            Some(v) => v,
            None => &mut [],
        }
    }
}

impl From<Vec<Value>> for ValueList {
    fn from(v: Vec<Value>) -> ValueList {
        ValueList((!v.is_empty()).then(|| Box::new(v)))
    }
}

impl FromIterator<Value> for ValueList {
    fn from_iter<I: IntoIterator<Item = Value>>(it: I) -> ValueList {
        ValueList::from(it.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a ValueList {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for ValueList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    Direct(Sym),
    Indirect(Value),
}

/// What an inline-asm operand is to the instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AsmRole {
    /// Written by the asm in a register; its value is the next of [`InlineAsm::results`].
    Output { early_clobber: bool },
    /// Read by the asm: a register or an immediate, as the constraint says.
    Input(Value),
    /// A memory operand: the address of the object the asm reads or writes.
    Memory(Value),
}

/// One operand of an inline-asm statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AsmOperand {
    /// gcc's constraint letters without the `=`, `+` and `&` modifiers (`"r"`, `"a"`,
    /// `"0"` for an input tied to output 0, `"x"`, `"i"`, `"m"`).
    pub constraint: String,
    /// `[name]`, referenced as `%[name]` in the template.
    pub name: Option<String>,
    pub role: AsmRole,
}

/// A GNU extended (or basic) asm statement, as the source wrote it: the back end substitutes
/// the operands into `template` and assembles the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InlineAsm {
    pub template: String,
    /// Outputs, then inputs, in the template's numbering; then the hidden inputs of `+`
    /// operands (each tied to its output by a digit constraint), which the template cannot
    /// name.
    pub operands: Vec<AsmOperand>,
    /// How many operands the template may name (`%0` .. `%{visible-1}`).
    pub visible: usize,
    /// Clobber list entries (`"memory"`, `"cc"`, register names such as `"rbx"`).
    pub clobbers: Vec<String>,
    /// Basic asm (no operands at all): `%` in the template is literal.
    pub basic: bool,
    /// The values of the register outputs, in operand order.
    pub results: Vec<Value>,
}

/// A call. `args` has one value per location of `plan.arguments`, in order, then one per
/// location of `plan.returns` flagged `sret` (the result buffer's address); a location
/// flagged `byref` gets the address of the caller's copy, and a stack location whose
/// `arg_mem` bit is set gets the address of `size` bytes the back end copies into the
/// outgoing area. `results` has one value per other location of `plan.returns`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub callee: Callee,
    pub args: Vec<Value>,
    /// Indices into `args` passed as memory to copy (aggregates on the stack).
    pub arg_mem: Vec<u32>,
    pub plan: PlanId,
    pub results: Vec<Value>,
    /// A tail position the back end may turn into a jump. Never set when this plan or the
    /// calling function's is of a custom convention
    /// (`neverc_abi::callconv::tail_call_allowed`): their callee-saved sets differ.
    pub tail: bool,
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Nand,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// An integer constant; `imm` is the value, sign or zero extension irrelevant (only the
    /// low bits of the type count).
    Iconst {
        ty: Type,
        imm: Imm,
    },
    /// A float constant by its bit pattern (f80: the low 80 bits).
    Fconst {
        ty: Type,
        bits: Bits,
    },
    Unary {
        op: UnaryOp,
        arg: Value,
    },
    Binary {
        op: BinaryOp,
        a: Value,
        b: Value,
    },
    Icmp {
        cc: IntCC,
        a: Value,
        b: Value,
    },
    Fcmp {
        cc: FloatCC,
        a: Value,
        b: Value,
    },
    Conv {
        op: ConvOp,
        arg: Value,
        to: Type,
    },
    /// `cond != 0 ? a : b`.
    Select {
        cond: Value,
        a: Value,
        b: Value,
    },
    Load {
        ty: Type,
        addr: Value,
        offset: i32,
        flags: MemFlags,
    },
    Store {
        value: Value,
        addr: Value,
        offset: i32,
        flags: MemFlags,
    },
    /// The address of a stack slot.
    SlotAddr(Slot),
    /// The address of a symbol plus a byte offset.
    SymAddr {
        sym: Sym,
        offset: i64,
    },
    /// The address of a block (GNU labels as values).
    BlockAddr(Block),
    /// A call (see [`Call`]), boxed: calls are few, and every other instruction stays
    /// small.
    Call(Box<Call>),
    /// Copies `size` bytes; the areas do not overlap.
    Copy {
        dst: Value,
        src: Value,
        size: u64,
        align: u32,
    },
    /// Sets `size` bytes to zero.
    Zero {
        dst: Value,
        size: u64,
        align: u32,
    },
    /// Dynamic stack allocation (VLAs, `alloca`): `size` bytes aligned to `align`.
    Alloca {
        size: Value,
        align: u32,
    },
    /// The stack pointer, to restore when a VLA's scope ends.
    StackSave,
    /// This function's frame address (`__builtin_frame_address(0)`): where the caller's
    /// frame pointer is saved, the return address one word above it.
    FrameAddress,
    StackRestore(Value),
    /// Initialises the `va_list` at `list` for this (variadic) function.
    VaStart(Value),
    /// Atomic read-modify-write of `ty` at `addr`, giving the old value.
    AtomicRmw {
        op: AtomicOp,
        ty: Type,
        addr: Value,
        value: Value,
    },
    /// Compare-and-swap: gives the old value.
    AtomicCas {
        ty: Type,
        addr: Value,
        expected: Value,
        new: Value,
    },
    Fence,
    /// GNU inline assembly (see [`InlineAsm`]). Never pure: it stays in place, and no load
    /// or store moves across it.
    InlineAsm(Box<InlineAsm>),
    /// Terminators.
    Jump(BlockCall),
    Branch {
        cond: Value,
        then: BlockCall,
        els: BlockCall,
    },
    /// Multi-way branch on an integer; the cases' blocks take no arguments.
    Switch {
        value: Value,
        cases: Vec<(i128, Block)>,
        default: Block,
    },
    /// `goto *addr` to one of `targets`.
    IndirectJump {
        addr: Value,
        targets: Vec<Block>,
    },
    /// One value per location of the function's plan `returns` not flagged `sret`.
    Return(Vec<Value>),
    /// `__builtin_longjmp`: sets the frame and stack pointers of another activation and
    /// jumps to an address there (a block whose address that function took).
    NonLocalGoto {
        fp: Value,
        sp: Value,
        target: Value,
    },
    Unreachable,
    Trap,
}

impl Op {
    /// Whether the operation owns no memory of its own (dropping it does nothing): the
    /// kinds listed here; any other kind, including one added later, counts as owning.
    #[inline]
    pub fn owns_nothing(&self) -> bool {
        match self {
            Op::Iconst { .. }
            | Op::Fconst { .. }
            | Op::Unary { .. }
            | Op::Binary { .. }
            | Op::Icmp { .. }
            | Op::Fcmp { .. }
            | Op::Conv { .. }
            | Op::Select { .. }
            | Op::Load { .. }
            | Op::Store { .. }
            | Op::SlotAddr(_)
            | Op::SymAddr { .. }
            | Op::BlockAddr(_)
            | Op::Copy { .. }
            | Op::Zero { .. } => true,
            Op::Jump(c) => c.args.is_empty(),
            Op::Branch { then, els, .. } => then.args.is_empty() && els.args.is_empty(),
            _ => false,
        }
    }

    #[inline]
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            Op::Jump(_)
                | Op::Branch { .. }
                | Op::Switch { .. }
                | Op::IndirectJump { .. }
                | Op::Return(_)
                | Op::NonLocalGoto { .. }
                | Op::Unreachable
                | Op::Trap
        )
    }

    /// Without effects a program can rely on: removable when unused, movable past other
    /// pure instructions (a non-volatile load included; a division that would trap is
    /// undefined behaviour anyway).
    #[inline]
    pub fn is_pure(&self) -> bool {
        match self {
            Op::Load { flags, .. } => !flags.volatile,
            Op::Iconst { .. }
            | Op::Fconst { .. }
            | Op::Unary { .. }
            | Op::Binary { .. }
            | Op::Icmp { .. }
            | Op::Fcmp { .. }
            | Op::Conv { .. }
            | Op::Select { .. }
            | Op::SlotAddr(_)
            | Op::SymAddr { .. }
            | Op::BlockAddr(_) => true,
            _ => false,
        }
    }

    /// Values the instruction reads, in a fixed order.
    pub fn operands(&self) -> Vec<Value> {
        let mut v = Vec::new();
        self.for_each_operand(|x| v.push(x));
        v
    }

    pub fn for_each_operand(&self, mut f: impl FnMut(Value)) {
        match self {
            Op::Iconst { .. }
            | Op::Fconst { .. }
            | Op::SlotAddr(_)
            | Op::SymAddr { .. }
            | Op::BlockAddr(_)
            | Op::StackSave
            | Op::FrameAddress
            | Op::Fence
            | Op::Unreachable
            | Op::Trap => {}
            Op::Unary { arg, .. } | Op::Conv { arg, .. } => f(*arg),
            Op::Binary { a, b, .. } | Op::Icmp { a, b, .. } | Op::Fcmp { a, b, .. } => {
                f(*a);
                f(*b)
            }
            Op::Select { cond, a, b } => {
                f(*cond);
                f(*a);
                f(*b)
            }
            Op::Load { addr, .. } => f(*addr),
            Op::Store { value, addr, .. } => {
                f(*value);
                f(*addr)
            }
            Op::Call(c) => {
                if let Callee::Indirect(v) = c.callee {
                    f(v)
                }
                c.args.iter().for_each(|a| f(*a))
            }
            Op::Copy { dst, src, .. } => {
                f(*dst);
                f(*src)
            }
            Op::Zero { dst, .. } => f(*dst),
            Op::Alloca { size, .. } => f(*size),
            Op::StackRestore(v) | Op::VaStart(v) => f(*v),
            Op::AtomicRmw { addr, value, .. } => {
                f(*addr);
                f(*value)
            }
            Op::AtomicCas {
                addr,
                expected,
                new,
                ..
            } => {
                f(*addr);
                f(*expected);
                f(*new)
            }
            Op::Jump(bc) => bc.args.iter().for_each(|a| f(*a)),
            Op::Branch { cond, then, els } => {
                f(*cond);
                then.args.iter().for_each(|a| f(*a));
                els.args.iter().for_each(|a| f(*a))
            }
            Op::Switch { value, .. } => f(*value),
            Op::IndirectJump { addr, .. } => f(*addr),
            Op::Return(vs) => vs.iter().for_each(|a| f(*a)),
            Op::NonLocalGoto { fp, sp, target } => {
                f(*fp);
                f(*sp);
                f(*target)
            }
            Op::InlineAsm(a) => {
                for o in &a.operands {
                    match o.role {
                        AsmRole::Input(v) | AsmRole::Memory(v) => f(v),
                        AsmRole::Output { .. } => {}
                    }
                }
            }
        }
    }

    /// Blocks a terminator may go to.
    pub fn successors(&self) -> Vec<Block> {
        match self {
            Op::Jump(bc) => vec![bc.block],
            Op::Branch { then, els, .. } => vec![then.block, els.block],
            Op::Switch { cases, default, .. } => {
                let mut v: Vec<Block> = cases.iter().map(|c| c.1).collect();
                v.push(*default);
                v
            }
            Op::IndirectJump { targets, .. } => targets.clone(),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct InstData {
    pub op: Op,
    /// The single result of non-call instructions that produce one.
    pub result: Option<Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    Param(Block, u32),
    Result(Inst, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub insts: Vec<Inst>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotData {
    pub size: u64,
    pub align: u32,
}

/// A function body. Block 0 is the entry; its parameters are the function's incoming
/// values, one per location of `plan.arguments` (an aggregate on the stack arrives as its
/// address, listed in `param_mem`), then one per `returns` location flagged `sret`.
#[derive(Clone, Debug)]
pub struct Function {
    pub sym: Sym,
    pub plan: CallPlan,
    /// Entry parameters that are addresses of incoming stack memory.
    pub param_mem: Vec<u32>,
    pub variadic: bool,
    pub blocks: Vec<BlockData>,
    pub insts: Vec<InstData>,
    pub values: Vec<ValueData>,
    pub slots: Vec<SlotData>,
    pub plans: Vec<CallPlan>,
    /// Calls `setjmp`-like functions: every value must live in memory across calls.
    pub calls_setjmp: bool,
    /// Alignment of the function's first instruction (bytes, a power of two).
    pub align: u32,
    /// Some declaration of the function said `inline`: at -O0 too it is dropped when it has
    /// internal linkage and nothing refers to it, as gcc does (headers' unused `static
    /// inline` functions cost nothing and may hold asm for other machines or privileges).
    pub declared_inline: bool,
    /// What `noinline`/`always_inline` said about inlining calls to it at -O1.
    pub inline_hint: InlineHint,
    /// Data of the module holds addresses of its blocks (`static void *t[] = {&&l}`): its
    /// blocks must stay as they are (set by the -O1 passes).
    pub blocks_in_data: bool,
}

/// A function's attributes about being inlined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InlineHint {
    /// The inliner's size rules decide.
    #[default]
    Default,
    /// `noinline` (or `noipa`): never inlined.
    Never,
    /// `always_inline`: inlined wherever that is possible, whatever its size.
    Always,
}

impl Function {
    #[inline]
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }
    #[inline]
    pub fn inst(&self, i: Inst) -> &InstData {
        &self.insts[i.index()]
    }
    #[inline]
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }
    /// The values an instruction defines.
    pub fn inst_results(&self, i: Inst) -> Vec<Value> {
        let d = self.inst(i);
        match &d.op {
            Op::Call(c) => c.results.clone(),
            Op::InlineAsm(a) => a.results.clone(),
            _ => d.result.into_iter().collect(),
        }
    }
    #[inline]
    pub fn terminator(&self, b: Block) -> Option<&Op> {
        let last = *self.block(b).insts.last()?;
        let op = &self.inst(last).op;
        op.is_terminator().then_some(op)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    Local,
    Global,
    Weak,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Visibility {
    Default,
    Hidden,
    Protected,
    Internal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymKind {
    Func,
    Object,
    /// A thread-local object.
    Tls,
}

/// A symbol the module defines or references.
#[derive(Clone, Debug, PartialEq)]
pub struct SymbolData {
    pub name: String,
    pub kind: SymKind,
    pub binding: Binding,
    pub visibility: Visibility,
    /// Defined in this module (a function body, a data object, or an alias).
    pub defined: bool,
    /// `__attribute__((alias("target")))`.
    pub alias_of: Option<Sym>,
    /// `__attribute__((section("...")))`.
    pub section: Option<String>,
    /// Known to be defined in the same linked unit (static or hidden): no GOT/PLT needed.
    pub local: bool,
    /// `__attribute__((used))`: emitted even when nothing refers to it.
    pub used: bool,
}

/// An object's initial contents: bytes plus addresses to fill in.
#[derive(Clone, Debug, PartialEq)]
pub struct DataObject {
    pub sym: Sym,
    pub size: u64,
    pub align: u32,
    /// `size` bytes, or empty for all-zero (bss).
    pub bytes: Vec<u8>,
    /// (offset, symbol, addend, width in bytes): the address of symbol+addend.
    pub relocs: Vec<(u64, Sym, i64, u8)>,
    pub readonly: bool,
    /// `-fcommon` tentative definition.
    pub common: bool,
    /// Addresses of blocks of a function (`static void *t[] = {&&a}`): (offset, function, block).
    pub block_relocs: Vec<(u64, Sym, Block)>,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub symbols: Vec<SymbolData>,
    pub functions: Vec<Function>,
    pub data: Vec<DataObject>,
    /// Functions to run before `main` and after it (priority, function).
    pub constructors: Vec<(u32, Sym)>,
    pub destructors: Vec<(u32, Sym)>,
    /// File-scope `__asm__("...")` text, in order.
    pub toplevel_asm: Vec<String>,
    /// Symbols by name.
    pub by_name: std::collections::HashMap<String, Sym, NameHash>,
}

/// The hasher of symbol-name maps ([`Module::by_name`], the object writer's): FxHash's
/// rotate-xor-multiply step over eight bytes at a time, several times cheaper than the
/// default SipHash on names (irgen adds a symbol per function and object, and the map
/// rehashes as it grows). Only for maps that are looked up, never iterated, so the hash
/// function cannot change any output.
#[derive(Clone, Copy, Debug, Default)]
pub struct NameHasher(u64);

impl NameHasher {
    #[inline]
    fn mix(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for NameHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(i as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`NameHasher`]s.
pub type NameHash = std::hash::BuildHasherDefault<NameHasher>;

impl Module {
    pub fn sym(&self, s: Sym) -> &SymbolData {
        &self.symbols[s.index()]
    }
    /// The symbol named `name`, added as an undeclared reference if new.
    pub fn symbol(&mut self, name: &str, kind: SymKind) -> Sym {
        if let Some(&s) = self.by_name.get(name) {
            return s;
        }
        let s = Sym(self.symbols.len() as u32);
        self.by_name.insert(name.to_string(), s);
        self.symbols.push(SymbolData {
            name: name.to_string(),
            kind,
            binding: Binding::Global,
            visibility: Visibility::Default,
            defined: false,
            alias_of: None,
            section: None,
            local: false,
            used: false,
        });
        s
    }
}

// Every instruction of every function is an `InstData`: keep it small (calls, switch
// cases and branch arguments live out of line).
const _: () = assert!(std::mem::size_of::<Op>() <= 40);
const _: () = assert!(std::mem::size_of::<InstData>() <= 48);
