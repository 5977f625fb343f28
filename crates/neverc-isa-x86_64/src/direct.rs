//! The direct `-O0` instruction selector: one IR function straight to physical-register
//! `asm::Inst`s in one pass per block, without virtual-register code or register
//! allocation (the idea of LLVM's FastISel). Used by `ModuleCompiler::compile_function`
//! at -O0 for functions that do not call setjmp; a function using anything this module
//! does not handle is declined by a scan made before any output (see [`select_direct`]),
//! and goes through the general path (`lower` → `o0alloc` → `emit`) unchanged.
//!
//! Values live in the caller-saved registers only (rax rcx rdx rsi rdi r8-r10 and
//! xmm0-xmm14; r11 and xmm15 are scratch registers inside one instruction's sequence),
//! so the frame is `push rbp; mov rsp, rbp; sub $N, rsp ... leave; ret` with the CFI the
//! general path states. Constants, slot and direct symbol addresses are never held: each
//! use folds them (immediate, `off(%rbp)`, `sym(%rip)`) or makes them in a register right
//! there. A value used in a block other than its own gets an 8-byte home in the frame and
//! is stored there when it is defined; other values stay in registers from their
//! definition to their last use, and are stored to a home only when registers run out or
//! a call comes between. At the end of a block no register holds anything. Block
//! parameters live in homes: each predecessor stores its arguments there before it jumps.
//!
//! Frame, from rbp down: the IR slots at the offsets the general path gives them, the
//! homes, then the outgoing argument area at rsp.

use crate::asm::*;
use crate::backend::{BackendError, Options};
use crate::emit::{jump_table_data, va_save_insts, Emitted};
use crate::lower::{
    div_insts, f_to_u64_insts, fits32, fneg_insts, imm_of, int_cond, jump_table_insts, op_size,
    setcc_insts, sse_arith_op, swap_cc, u64_to_f_insts, va_start_insts,
};
use crate::vcode::{dwarf_to_preg, CondSpec};
use neverc_abi::{Flags, Location, Place};
use neverc_codegen::cfi::CfaOp;
use neverc_codegen::reloc::{RelocKind, SymId};
use neverc_codegen::vcode::reverse_postorder;
use neverc_ir as ir;
use neverc_ir::{BinaryOp, ConvOp, FloatCC, Op, Type, UnaryOp, Value};
use regalloc2::RegClass;

/// Labels from here up are internal to the function (below: IR block `b` is `Label(b)`).
const INTERNAL: u32 = crate::lower::INTERNAL_LABEL;

/// Register numbers: 0-15 the GPRs by hardware number, 16-31 the XMM registers.
const NONE: u8 = 0xff;
const X0: u8 = 16;
/// Allocation order of the general registers (r11 is the scratch register).
const GPRS: [u8; 8] = [0, 1, 2, 6, 7, 8, 9, 10];
/// `GPRS` as a bit set.
const GPR_MASK: u32 = 1 | 1 << 1 | 1 << 2 | 1 << 6 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10;
const SCRATCH: Gpr = Gpr::R11;
const XSCRATCH: Xmm = Xmm(15);

/// The per-function tables, kept from one function to the next (contents reset).
#[derive(Default)]
pub struct DirectScratch {
    /// By value: everything the scan and the selection know of it, in one place (one
    /// bounds check and one cache line per value, one fill per function).
    v: Vec<Val>,
    /// A call's or return's register moves (kept: no allocation per call).
    moves: Vec<(Value, u8, Flags)>,
}

/// What the selector knows of one value.
#[derive(Clone, Copy)]
struct Val {
    /// Uses not selected yet (the scan counts them all).
    uses: u32,
    /// The block defining it (`u32::MAX`: none seen yet).
    def_block: u32,
    /// rbp offset of its home (0: none yet).
    home: i32,
    /// The register holding it (`NONE`: none).
    reg: u8,
    /// Used in a block other than its own.
    global: bool,
    /// A compare made by the branch of its block.
    fuse: bool,
    /// Its home holds its value.
    in_home: bool,
    /// What it is if it is never held in a register (set where a constant or address is
    /// defined: before any use, blocks going in reverse postorder).
    rm: Remat,
}

const VAL0: Val = Val {
    uses: 0,
    def_block: u32::MAX,
    home: 0,
    reg: NONE,
    global: false,
    fuse: false,
    in_home: false,
    rm: Remat::No,
};

fn refill<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// Why a function is not handled (the first reason found), for `NEVERC_O0_STATS`.
pub type Decline = &'static str;

/// Compiles `f` directly, or returns `Err(reason)` when it uses something this selector
/// does not handle (nothing has been produced then). The inner result is an internal
/// error of the selector.
pub fn select_direct(
    m: &ir::Module,
    f: &ir::Function,
    opts: &Options,
    syms: &[SymId],
    sc: &mut DirectScratch,
) -> Result<Result<Emitted, BackendError>, Decline> {
    let rpo = reverse_postorder(f);
    scan(m, f, opts, &rpo, sc)?;
    let mut d = Direct {
        m,
        f,
        opts,
        syms,
        sc,
        slot_off: Vec::with_capacity(f.slots.len()),
        frame: 0,
        max_out: 0,
        regv: [u32::MAX; 32],
        pinned: 0,
        next_label: INTERNAL,
        tables: Vec::new(),
        epilogue: Label(0),
        err: None,
        // About two instructions per IR instruction: room not to regrow.
        insts: Vec::with_capacity(3 * f.insts.len() + 64),
        occ: 0,
        va_save: 0,
    };
    d.epilogue = d.new_label();
    Ok(d.run(&rpo))
}

/// The scan before any output: declines, use counts, blocks of definition, which values
/// are used outside their block, which compares fuse into their branch.
fn scan(
    m: &ir::Module,
    f: &ir::Function,
    opts: &Options,
    rpo: &[usize],
    sc: &mut DirectScratch,
) -> Result<(), Decline> {
    if opts.omit_frame_pointer {
        return Err("-fomit-frame-pointer");
    }
    if neverc_abi::callconv::is_custom(&f.plan)
        || f.plans.iter().any(neverc_abi::callconv::is_custom)
    {
        return Err("a custom calling convention");
    }
    if f.slots.iter().any(|s| s.align > 16) {
        return Err("an over-aligned slot");
    }
    // The types present as a bit set first (no branch per value); the reason comes from
    // the first value of a declined type.
    const DECLINED_TYPES: u32 = 1 << Type::I128 as u32
        | 1 << Type::F16 as u32
        | 1 << Type::F80 as u32
        | 1 << Type::F128 as u32
        | 1 << Type::V128 as u32;
    let types = f.values.iter().fold(0u32, |s, v| s | 1 << v.ty as u32);
    if types & DECLINED_TYPES != 0 {
        for v in &f.values {
            match v.ty {
                Type::I128 => return Err("__int128"),
                Type::F16 => return Err("_Float16"),
                Type::F80 => return Err("long double"),
                Type::F128 => return Err("__float128"),
                Type::V128 => return Err("a vector"),
                _ => {}
            }
        }
    }
    for p in std::iter::once(&f.plan).chain(f.plans.iter()) {
        for l in p.arguments.iter().chain(p.returns.iter()) {
            match l.place {
                Place::Reg(r) if dwarf_to_preg(r).is_none() => return Err("an x87 location"),
                Place::Stack(_) if l.align > 16 => return Err("an over-aligned stack argument"),
                _ => {}
            }
        }
        if p.returns.iter().any(|l| matches!(l.place, Place::Stack(_))) {
            return Err("a result on the stack");
        }
    }
    let nv = f.values.len();
    refill(&mut sc.v, nv, VAL0);
    if rpo.first() != Some(&0) {
        return Err("a function without an entry block");
    }
    let vals = &mut sc.v[..];
    for &p in &f.blocks[0].params {
        vals[p.index()].def_block = 0;
    }
    for &b in rpo {
        let bd = &f.blocks[b];
        let b = b as u32;
        for &p in &bd.params {
            vals[p.index()].def_block = b;
        }
        for &i in &bd.insts {
            let d = f.inst(i);
            // (Calls define `results`, not `result`: done in their arm below.)
            if let Some(r) = d.result {
                vals[r.index()].def_block = b;
            }
            // Blocks in reverse postorder: a value's definition has been seen before any
            // use (a definition dominates its uses), unless it is unreachable. One match
            // per instruction: the declines, the operands' uses, the fused compares.
            let undefined = match &d.op {
                Op::Load { addr, .. } => count_use(vals, *addr, b),
                Op::Store { value, addr, .. } => {
                    count_use(vals, *value, b) | count_use(vals, *addr, b)
                }
                Op::Binary { op, a, b: y } => {
                    let float_op = matches!(
                        op,
                        BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv
                    );
                    if float_op != f.value_type(*a).is_float() {
                        return Err("an ill-typed binary operation");
                    }
                    count_use(vals, *a, b) | count_use(vals, *y, b)
                }
                Op::Icmp { a, b: y, .. } | Op::Fcmp { a, b: y, .. } => {
                    count_use(vals, *a, b) | count_use(vals, *y, b)
                }
                Op::Unary { op, arg } => {
                    let t = f.value_type(*arg);
                    if (*op == UnaryOp::Not && t.is_float()) || (*op == UnaryOp::FNeg && t.is_int())
                    {
                        return Err("an ill-typed unary operation");
                    }
                    count_use(vals, *arg, b)
                }
                Op::Conv { arg, .. } => count_use(vals, *arg, b),
                Op::Iconst { .. } | Op::Fconst { .. } | Op::SlotAddr(_) => false,
                Op::SymAddr { sym, offset } => {
                    if m.sym(*sym).kind == ir::SymKind::Tls {
                        return Err("a thread-local symbol");
                    }
                    if i32::try_from(*offset).is_err() {
                        return Err("a huge symbol offset");
                    }
                    false
                }
                Op::Call(c) => {
                    for &r in &c.results {
                        vals[r.index()].def_block = b;
                    }
                    count_uses(vals, &d.op, b)
                }
                Op::Alloca { .. } | Op::StackSave | Op::StackRestore(_) => {
                    return Err("a dynamic stack allocation")
                }
                Op::FrameAddress => return Err("a frame address"),
                Op::VaStart(_) if !f.variadic => {
                    return Err("va_start outside a variadic function")
                }
                Op::AtomicRmw { .. } | Op::AtomicCas { .. } | Op::Fence => {
                    return Err("an atomic operation")
                }
                Op::InlineAsm(_) => return Err("inline asm"),
                Op::BlockAddr(_) | Op::IndirectJump { .. } => return Err("a block address"),
                Op::NonLocalGoto { .. } => return Err("a non-local goto"),
                // Block arguments are copied home to home, one after the other: an argument
                // that is a parameter of the target block itself might be overwritten
                // before it is read.
                Op::Jump(bc) => {
                    if own_param(f, bc) {
                        return Err("a block argument swap");
                    }
                    count_uses(vals, &d.op, b)
                }
                Op::Branch { cond, then, els } => {
                    if own_param(f, then) || own_param(f, els) {
                        return Err("a block argument swap");
                    }
                    if then.block == els.block && (!then.args.is_empty() || !els.args.is_empty()) {
                        return Err("a branch with arguments to one block both ways");
                    }
                    let undefined = count_uses(vals, &d.op, b);
                    // A compare used by the branch of its block is made there (if that is
                    // its only use: checked where it is defined).
                    let c = cond.index();
                    if vals[c].def_block == b {
                        if let ir::ValueDef::Result(ci, _) = f.values[c].def {
                            if matches!(f.inst(ci).op, Op::Icmp { .. } | Op::Fcmp { .. }) {
                                vals[c].fuse = true;
                            }
                        }
                    }
                    undefined
                }
                _ => count_uses(vals, &d.op, b),
            };
            if undefined {
                return Err("a use of a value defined in an unreachable block");
            }
        }
    }
    Ok(())
}

/// The scan's count of one use of `x` in block `b`: true if `x` has no definition seen
/// yet (it is defined in an unreachable block).
#[inline(always)]
fn count_use(vals: &mut [Val], x: Value, b: u32) -> bool {
    let e = &mut vals[x.index()];
    e.uses += 1;
    if e.def_block != b {
        e.global = true;
        return e.def_block == u32::MAX;
    }
    false
}

/// `count_use` of every operand of `op`.
#[inline(never)]
fn count_uses(vals: &mut [Val], op: &Op, b: u32) -> bool {
    let mut undefined = false;
    op.for_each_operand(|x| undefined |= count_use(vals, x, b));
    undefined
}

/// Whether a block call passes a parameter of its target block.
fn own_param(f: &ir::Function, bc: &ir::BlockCall) -> bool {
    bc.args
        .iter()
        .any(|&a| matches!(f.values[a.index()].def, ir::ValueDef::Param(b, _) if b == bc.block))
}

/// What a value is when it is never held in a register.
#[derive(Clone, Copy)]
enum Remat {
    No,
    Int(i64, Type),
    Float(u64, Type),
    /// An address `off(%rbp)` (slots, aggregates passed in memory).
    Frame(i32),
    Sym(ir::Sym, i32),
}

struct Direct<'a> {
    m: &'a ir::Module,
    f: &'a ir::Function,
    opts: &'a Options,
    syms: &'a [SymId],
    sc: &'a mut DirectScratch,
    slot_off: Vec<i32>,
    /// Bytes of frame below rbp in use (slots, then homes).
    frame: u32,
    max_out: u32,
    /// The value in each register (`u32::MAX`: none).
    regv: [u32; 32],
    /// Registers the current IR instruction is using (not to be taken).
    pinned: u32,
    next_label: u32,
    tables: Vec<(Label, Vec<Label>)>,
    epilogue: Label,
    err: Option<String>,
    /// The code, prologue first.
    insts: Vec<Inst>,
    /// Registers holding a value (bit per register).
    occ: u32,
    /// rbp offset of a variadic function's 176-byte register save area.
    va_save: i32,
}

fn g(r: u8) -> Gpr {
    Gpr(r)
}
fn x(r: u8) -> Xmm {
    Xmm(r - X0)
}
fn is_float(ty: Type) -> bool {
    matches!(ty, Type::F32 | Type::F64)
}

/// Where a plan location's register is, in this module's numbering.
fn place_reg(r: u16) -> u8 {
    let p = dwarf_to_preg(r).expect("checked by the scan");
    match p.class() {
        RegClass::Int => p.hw_enc() as u8,
        _ => X0 + p.hw_enc() as u8,
    }
}

impl<'a> Direct<'a> {
    fn new_label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label)
    }
    #[inline]
    fn i(&mut self, i: Inst) {
        self.insts.push(i);
    }
    fn ty(&self, v: Value) -> Type {
        self.f.values[v.index()].ty
    }
    fn bug(&mut self, what: &str) {
        if self.err.is_none() {
            self.err = Some(what.to_string());
        }
    }

    #[inline]
    fn remat(&self, v: Value) -> Remat {
        self.sc.v[v.index()].rm
    }

    fn const32(&self, v: Value) -> Option<i32> {
        match self.remat(v) {
            Remat::Int(c, _) if fits32(c) => Some(c as i32),
            _ => None,
        }
    }

    fn sym_direct(&self, s: ir::Sym) -> bool {
        let sd = self.m.sym(s);
        self.opts.pic.reaches_directly(sd.local, sd.defined)
    }

    // ---------- registers ----------

    fn home_of(&mut self, v: Value) -> i32 {
        let h = self.sc.v[v.index()].home;
        if h != 0 {
            return h;
        }
        self.frame = (self.frame + 8).next_multiple_of(8);
        let h = -(self.frame as i32);
        self.sc.v[v.index()].home = h;
        h
    }

    fn home_mem(&mut self, v: Value) -> Mem {
        Mem::base(Gpr::RBP, self.home_of(v))
    }

    /// Stores register `r`'s value to its home (if it is not there yet).
    fn store_home(&mut self, r: u8) {
        let v = Value(self.regv[r as usize]);
        if self.sc.v[v.index()].in_home {
            return;
        }
        let m = self.home_mem(v);
        let ty = self.ty(v);
        self.sc.v[v.index()].in_home = true;
        self.store_reg(ty, r, m);
    }

    fn store_reg(&mut self, ty: Type, r: u8, m: Mem) {
        match ty {
            Type::F32 | Type::F64 => self.i(Inst::XmmMov {
                op: if ty == Type::F32 {
                    XmmMovOp::Movss
                } else {
                    XmmMovOp::Movsd
                },
                src: XmmMem::Xmm(x(r)),
                dst: XmmMem::Mem(m),
            }),
            _ => self.i(Inst::Mov {
                size: crate::lower::size_of(ty),
                src: Rmi::Reg(g(r)),
                dst: Rm::Mem(m),
            }),
        }
    }

    #[inline]
    fn free(&mut self, r: u8) {
        // (Register numbers are below 32: the mask only spares the bounds checks.)
        let r = r & 31;
        let v = self.regv[r as usize];
        if v != u32::MAX {
            self.sc.v[v as usize].reg = NONE;
            self.regv[r as usize] = u32::MAX;
            self.occ &= !(1 << r);
        }
    }

    #[inline]
    fn bind(&mut self, v: Value, r: u8) {
        self.free(r);
        let r = r & 31;
        self.regv[r as usize] = v.0;
        self.sc.v[v.index()].reg = r;
        self.occ |= 1 << r;
    }

    /// Frees every register.
    fn free_all(&mut self) {
        let mut m = self.occ;
        while m != 0 {
            let r = m.trailing_zeros() as u8;
            m &= m - 1;
            self.free(r);
        }
    }

    /// A free register of the class (taking one, storing its value home, if none is
    /// free), pinned. `avoid`: registers not to take.
    fn alloc(&mut self, float: bool, avoid: u32) -> u8 {
        let avoid = avoid | self.pinned;
        // A free one: the allocation orders are ascending register numbers, so the first
        // free register is the lowest bit of the free candidates (`occ` mirrors `regv`).
        let class = if float { 0x7fff << X0 } else { GPR_MASK };
        let free = class & !self.occ & !avoid;
        if free != 0 {
            let r = free.trailing_zeros() as u8;
            self.pinned |= 1 << r;
            return r;
        }
        let cands: &[u8] = if float {
            &[16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
        } else {
            &GPRS
        };
        let mut victim = NONE;
        for &r in cands {
            if avoid & (1 << r) != 0 {
                continue;
            }
            let v = self.regv[r as usize];
            if v == u32::MAX {
                self.pinned |= 1 << r;
                return r;
            }
            if victim == NONE
                || (self.sc.v[v as usize].in_home
                    && !self.sc.v[self.regv[victim as usize] as usize].in_home)
            {
                victim = r;
            }
        }
        if victim == NONE {
            self.bug("no register left");
            return if float { X0 } else { 0 };
        }
        self.store_home(victim);
        self.free(victim);
        self.pinned |= 1 << victim;
        victim
    }

    /// Makes register `r` free for an instruction that needs it (its value moves to
    /// another register, not one of `avoid`, or home), and pins it.
    fn evict(&mut self, r: u8, avoid: u32) {
        let v = self.regv[r as usize];
        if v != u32::MAX {
            if self.sc.v[v as usize].uses > 0 {
                let float = r >= X0;
                let cands: &[u8] = if float { &[] } else { &GPRS };
                let free = cands.iter().copied().find(|&c| {
                    self.regv[c as usize] == u32::MAX
                        && (self.pinned | avoid | 1 << r) & (1 << c) == 0
                });
                match free {
                    Some(c) => {
                        self.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Reg(g(r)),
                            dst: Rm::Reg(g(c)),
                        });
                        let was_pinned = self.pinned & (1 << r) != 0;
                        self.free(r);
                        self.bind(Value(v), c);
                        if was_pinned {
                            self.pinned |= 1 << c;
                        }
                    }
                    None => {
                        self.store_home(r);
                        self.free(r);
                    }
                }
            } else {
                self.free(r);
            }
        }
        self.pinned |= 1 << r;
    }

    /// One use of `v` done: its register is freed after its last use.
    #[inline]
    fn consume(&mut self, v: Value) {
        let e = &mut self.sc.v[v.index()];
        e.uses = e.uses.saturating_sub(1);
        if e.uses == 0 && e.reg != NONE {
            // `free(e.reg)`: the register's value is `v` (`bind` keeps the two sides).
            let r = e.reg & 31;
            e.reg = NONE;
            self.regv[r as usize] = u32::MAX;
            self.occ &= !(1 << r);
        }
    }

    /// `v`, just computed in register `r`, is the value of `r` from now on.
    #[inline(always)]
    fn define(&mut self, v: Value, r: u8) {
        // `bind`, then `free` again if `v` has no use.
        self.free(r);
        let e = &mut self.sc.v[v.index()];
        let global = e.global;
        if e.uses != 0 {
            let r = r & 31;
            e.reg = r;
            self.regv[r as usize] = v.0;
            self.occ |= 1 << r;
        }
        if global {
            self.define_home(v, r);
        }
    }

    /// `define`'s store of a value used in other blocks to its home (kept out of line:
    /// `define` is inlined at every definition).
    #[inline(never)]
    fn define_home(&mut self, v: Value, r: u8) {
        let m = self.home_mem(v);
        self.sc.v[v.index()].in_home = true;
        let ty = self.ty(v);
        self.store_reg(ty, r, m);
    }

    /// Puts `v` into register `d` (which the caller owns).
    fn materialise(&mut self, v: Value, d: u8) {
        let ty = self.ty(v);
        match self.remat(v) {
            Remat::Int(c, ty) => {
                let (size, c) = if matches!(ty, Type::I64 | Type::Ptr) {
                    (Size::S64, c)
                } else {
                    (Size::S32, c as i32 as u32 as i64)
                };
                self.i(Inst::Mov {
                    size,
                    src: Rmi::Imm(c),
                    dst: Rm::Reg(g(d)),
                });
            }
            Remat::Float(bits, ty) => {
                if bits == 0 {
                    self.i(Inst::Sse {
                        op: SseOp::Xorps,
                        src: XmmMem::Xmm(x(d)),
                        dst: x(d),
                    });
                } else {
                    let size = if ty == Type::F32 {
                        Size::S32
                    } else {
                        Size::S64
                    };
                    self.i(Inst::Mov {
                        size,
                        src: Rmi::Imm(bits as i64),
                        dst: Rm::Reg(SCRATCH),
                    });
                    self.i(Inst::MovGprToXmm {
                        size,
                        src: Rm::Reg(SCRATCH),
                        dst: x(d),
                    });
                }
            }
            Remat::Frame(o) => self.i(Inst::Lea {
                size: Size::S64,
                src: Mem::base(Gpr::RBP, o),
                dst: g(d),
            }),
            Remat::Sym(sym, o) => {
                let id = self.syms[sym.index()];
                if self.sym_direct(sym) {
                    self.i(Inst::Lea {
                        size: Size::S64,
                        src: Mem::rip(id, RelocKind::Pc32, o),
                        dst: g(d),
                    });
                } else {
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Mem(Mem::rip(id, RelocKind::RexGotPcRelX, 0)),
                        dst: Rm::Reg(g(d)),
                    });
                    if o != 0 {
                        self.i(Inst::Lea {
                            size: Size::S64,
                            src: Mem::base(g(d), o),
                            dst: g(d),
                        });
                    }
                }
            }
            Remat::No => {
                let r = self.sc.v[v.index()].reg;
                if r == d {
                } else if r != NONE {
                    self.copy_reg(r, d);
                } else if self.sc.v[v.index()].in_home {
                    let m = Mem::base(Gpr::RBP, self.sc.v[v.index()].home);
                    self.load(ty, m, d);
                } else {
                    self.bug("a value neither in a register nor at home");
                }
            }
        }
    }

    fn copy_reg(&mut self, s: u8, d: u8) {
        if s >= X0 {
            self.i(Inst::XmmMov {
                op: XmmMovOp::Movaps,
                src: XmmMem::Xmm(x(s)),
                dst: XmmMem::Xmm(x(d)),
            });
        } else {
            self.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Reg(g(s)),
                dst: Rm::Reg(g(d)),
            });
        }
    }

    /// A load of `ty` from `m` into register `d` (i8/i16 zero-extended to 32 bits).
    fn load(&mut self, ty: Type, m: Mem, d: u8) {
        match ty {
            Type::F32 | Type::F64 => self.i(Inst::XmmMov {
                op: if ty == Type::F32 {
                    XmmMovOp::Movss
                } else {
                    XmmMovOp::Movsd
                },
                src: XmmMem::Mem(m),
                dst: XmmMem::Xmm(x(d)),
            }),
            Type::I8 | Type::I16 => self.i(Inst::MovX {
                signed: false,
                from: crate::lower::size_of(ty),
                to: Size::S32,
                src: Rm::Mem(m),
                dst: g(d),
            }),
            _ => self.i(Inst::Mov {
                size: crate::lower::size_of(ty),
                src: Rmi::Mem(m),
                dst: Rm::Reg(g(d)),
            }),
        }
    }

    /// `v` in a register (pinned).
    #[inline(always)]
    fn reg_of(&mut self, v: Value) -> u8 {
        let r = self.sc.v[v.index()].reg;
        if r != NONE {
            self.pinned |= 1 << r;
            return r;
        }
        self.reg_for(v)
    }

    /// `reg_of` for a value not in a register: one is taken and `v` put there.
    #[inline(never)]
    fn reg_for(&mut self, v: Value) -> u8 {
        let float = is_float(self.ty(v));
        let d = self.alloc(float, 0);
        self.materialise(v, d);
        if matches!(self.remat(v), Remat::No) {
            self.bind(v, d);
        }
        d
    }

    /// `v` as a source operand: an immediate, its register, or its home.
    fn rmi_of(&mut self, v: Value) -> Rmi {
        if let Some(c) = self.const32(v) {
            return Rmi::Imm(c as i64);
        }
        let r = self.sc.v[v.index()].reg;
        if r == NONE
            && self.sc.v[v.index()].in_home
            && matches!(self.ty(v), Type::I32 | Type::I64 | Type::Ptr)
        {
            return Rmi::Mem(Mem::base(Gpr::RBP, self.sc.v[v.index()].home));
        }
        Rmi::Reg(g(self.reg_of(v)))
    }

    fn xmm_src(&mut self, v: Value) -> XmmMem {
        let r = self.sc.v[v.index()].reg;
        if r == NONE && self.sc.v[v.index()].in_home {
            return XmmMem::Mem(Mem::base(Gpr::RBP, self.sc.v[v.index()].home));
        }
        XmmMem::Xmm(x(self.reg_of(v)))
    }

    /// A register for the result of an operation whose first operand is `a`, holding `a`:
    /// `a`'s own if this is its last use (and it is a plain value), else a copy.
    #[inline(always)]
    fn dst_from(&mut self, a: Value) -> u8 {
        let e = &mut self.sc.v[a.index()];
        if e.reg != NONE && e.uses == 1 {
            // `free(r)`: the register's value is `a` (`bind` keeps the two sides).
            let r = e.reg & 31;
            e.reg = NONE;
            e.uses = 0;
            self.regv[r as usize] = u32::MAX;
            self.occ &= !(1 << r);
            self.pinned |= 1 << r;
            return r;
        }
        self.dst_copy(a)
    }

    /// `dst_from` when `a` is not in a register it can give up: a copy (kept out of line:
    /// `dst_from` is inlined at every use).
    #[inline(never)]
    fn dst_copy(&mut self, a: Value) -> u8 {
        let float = is_float(self.ty(a));
        let d = self.alloc(float, 0);
        self.materialise(a, d);
        d
    }

    /// A memory operand for `addr + off`.
    fn mem_of(&mut self, addr: Value, off: i32) -> Mem {
        match self.remat(addr) {
            Remat::Frame(o) => return Mem::base(Gpr::RBP, o + off),
            Remat::Sym(s, o) if self.sym_direct(s) => {
                let d = o as i64 + off as i64;
                if fits32(d) {
                    return Mem::rip(self.syms[s.index()], RelocKind::Pc32, d as i32);
                }
            }
            _ => {}
        }
        Mem::base(g(self.reg_of(addr)), off)
    }

    // ---------- the function ----------

    fn run(mut self, rpo: &[usize]) -> Result<Emitted, BackendError> {
        let f = self.f;
        // Prologue (the frame size is patched in at the end).
        let mut cfi = Vec::with_capacity(3);
        self.i(Inst::Push { src: Gpr::RBP });
        let l = self.new_label();
        self.i(Inst::Label(l));
        cfi.push((self.insts.len(), l, CfaOp::PushRbp));
        self.i(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(Gpr::RSP),
            dst: Rm::Reg(Gpr::RBP),
        });
        let l = self.new_label();
        self.i(Inst::Label(l));
        cfi.push((self.insts.len(), l, CfaOp::MovRspRbp));
        const SUB_AT: usize = 4;
        self.i(Inst::Nop);
        // Slots at the offsets the general path gives them.
        for s in &f.slots {
            let (size, align) = (s.size.max(1), s.align.max(1));
            self.frame = (self.frame as u64 + size).next_multiple_of(align as u64) as u32;
            self.slot_off.push(-(self.frame as i32));
        }
        // The register save area of a variadic function (where the general path has it).
        if f.variadic {
            self.frame = (self.frame + 176).next_multiple_of(16);
            self.va_save = -(self.frame as i32);
        }
        for p in &f.plans {
            self.max_out = self.max_out.max(p.stack);
        }
        let mut block_labels = vec![None; f.blocks.len()];
        for (pos, &b) in rpo.iter().enumerate() {
            block_labels[b] = Some(Label(b as u32));
            self.i(Inst::Label(Label(b as u32)));
            if b == 0 {
                self.entry();
            } else {
                // Parameters live in their homes (each predecessor stores its arguments).
                for &p in &f.blocks[b].params {
                    self.home_of(p);
                    self.sc.v[p.index()].in_home = true;
                }
            }
            let next = rpo.get(pos + 1).map(|&n| Label(n as u32));
            for &i in &f.blocks[b].insts {
                self.pinned = 0;
                self.inst(i, next);
            }
            // Nothing is held across blocks.
            self.free_all();
        }
        if let Some(e) = self.err.take() {
            return Err(BackendError {
                message: format!(
                    "internal error in the x86-64 back end: {e} (direct -O0 selection of {})",
                    self.m.sym(f.sym).name
                ),
            });
        }
        let total = (self.frame.next_multiple_of(16) + self.max_out.next_multiple_of(16)) as i64;
        let mut insts = std::mem::take(&mut self.insts);
        if total > 0 {
            insts[SUB_AT] = Inst::Alu {
                op: AluOp::Sub,
                size: Size::S64,
                src: Rmi::Imm(total),
                dst: Rm::Reg(Gpr::RSP),
            };
        } else {
            insts.remove(SUB_AT);
        }
        insts.push(Inst::Label(self.epilogue));
        insts.push(Inst::Leave);
        let l = self.new_label();
        insts.push(Inst::Label(l));
        cfi.push((insts.len(), l, CfaOp::AfterLeave));
        insts.push(Inst::Ret);
        let end = self.new_label();
        insts.push(Inst::Label(end));
        jump_table_data(std::mem::take(&mut self.tables), &mut insts);
        Ok(Emitted {
            insts,
            cfi,
            end,
            block_labels,
            app: Vec::new(),
        })
    }

    fn entry(&mut self) {
        let f = self.f;
        if f.variadic {
            // The register save area, as the general path's prologue fills it: the six
            // argument registers, and the eight vector ones when al says any are used.
            let skip = self.new_label();
            va_save_insts(self.va_save, skip, |i| self.i(i));
        }
        let nargs = f.plan.arguments.len();
        let sret: Vec<&Location> = f
            .plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        // Registers first (storing a global one does not disturb the others).
        for (i, &p) in f.blocks[0].params.iter().enumerate() {
            let loc = if i < nargs {
                &f.plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            match loc.place {
                Place::Reg(r) => {
                    if self.sc.v[p.index()].uses > 0 {
                        let r = place_reg(r);
                        self.bind(p, r);
                    }
                }
                Place::Stack(off) => {
                    let o = 16 + off as i32;
                    if f.param_mem.contains(&(i as u32)) {
                        self.sc.v[p.index()].rm = Remat::Frame(o);
                    } else {
                        self.sc.v[p.index()].home = o;
                        self.sc.v[p.index()].in_home = true;
                    }
                }
            }
        }
        for &p in &f.blocks[0].params {
            let r = self.sc.v[p.index()].reg;
            if r != NONE && self.sc.v[p.index()].global {
                self.store_home(r);
            }
        }
    }

    // Inlined into `run`'s loop, its one caller: no call and frame per IR instruction.
    #[inline(always)]
    fn inst(&mut self, i: ir::Inst, next: Option<Label>) {
        let f = self.f;
        let data = f.inst(i);
        if let Some(r) = data.result {
            if self.sc.v[r.index()].uses == 0 && data.op.is_pure() {
                // Dead: its operands are used once less.
                data.op.for_each_operand(|v| self.consume(v));
                return;
            }
        }
        match &data.op {
            Op::Iconst { ty, imm } => {
                self.sc.v[data.result.unwrap().index()].rm = Remat::Int(imm_of(*ty, imm.get()), *ty)
            }
            Op::Fconst { ty, bits } => {
                self.sc.v[data.result.unwrap().index()].rm = Remat::Float(bits.get() as u64, *ty)
            }
            Op::SlotAddr(sl) => {
                self.sc.v[data.result.unwrap().index()].rm = Remat::Frame(self.slot_off[sl.index()])
            }
            Op::SymAddr { sym, offset } => {
                self.sc.v[data.result.unwrap().index()].rm = Remat::Sym(*sym, *offset as i32)
            }
            Op::Unary { op, arg } => self.unary(*op, *arg, data.result.unwrap()),
            Op::Binary { op, a, b } => self.binary(*op, *a, *b, data.result.unwrap()),
            Op::Icmp { .. } | Op::Fcmp { .. } => {
                let r = data.result.unwrap();
                if self.sc.v[r.index()].fuse {
                    if self.sc.v[r.index()].uses == 1 {
                        return; // made by its branch
                    }
                    self.sc.v[r.index()].fuse = false;
                }
                let cs = self.compare(&data.op);
                let d = self.alloc(false, 0);
                self.setcc(cs, d);
                self.define(r, d);
            }
            Op::Conv { op, arg, to } => self.conv(*op, *arg, *to, data.result.unwrap()),
            Op::Select { cond, a, b } => self.select(*cond, *a, *b, data.result.unwrap()),
            Op::Load {
                ty, addr, offset, ..
            } => {
                let m = self.mem_of(*addr, *offset);
                self.consume(*addr);
                let d = self.alloc(is_float(*ty), 0);
                self.load(*ty, m, d);
                self.define(data.result.unwrap(), d);
            }
            Op::Store {
                value,
                addr,
                offset,
                ..
            } => self.store(*value, *addr, *offset),
            Op::Call(c) => self.call(c),
            Op::Copy { dst, src, size, .. } => self.copy(*dst, *src, *size),
            Op::Zero { dst, size, .. } => self.zero(*dst, *size),
            Op::Jump(bc) => {
                self.copy_args(bc);
                let t = Label(bc.block.0);
                if Some(t) != next {
                    self.i(Inst::Jmp { target: t });
                }
            }
            Op::Branch { cond, then, els } => self.branch(*cond, then, els, next),
            Op::Switch {
                value,
                cases,
                default,
            } => self.switch(*value, cases, *default),
            Op::Return(vals) => {
                self.ret(vals);
                if next.is_some() {
                    let e = self.epilogue;
                    self.i(Inst::Jmp { target: e });
                }
            }
            Op::Unreachable | Op::Trap => self.i(Inst::Ud2),
            Op::VaStart(list) => self.va_start(*list),
            _ => self.bug("an instruction the scan let through"),
        }
    }

    /// `va_start`: the va_list's offsets into the register save area past the named
    /// arguments, the overflow area past the named stack arguments, the save area.
    fn va_start(&mut self, list: Value) {
        let m = self.mem_of(list, 0);
        let save = self.va_save;
        va_start_insts(&self.f.plan, m, save, |i| self.i(i));
        self.consume(list);
    }

    fn store(&mut self, value: Value, addr: Value, offset: i32) {
        let ty = self.ty(value);
        let m;
        match self.remat(value) {
            Remat::Int(c, _) if fits32(c) => {
                m = self.mem_of(addr, offset);
                let c = match ty {
                    Type::I8 => c as i8 as i64,
                    Type::I16 => c as i16 as i64,
                    _ => c,
                };
                self.i(Inst::Mov {
                    size: crate::lower::size_of(ty),
                    src: Rmi::Imm(c),
                    dst: Rm::Mem(m),
                });
            }
            Remat::Float(bits, Type::F32) => {
                m = self.mem_of(addr, offset);
                self.i(Inst::Mov {
                    size: Size::S32,
                    src: Rmi::Imm(bits as u32 as i32 as i64),
                    dst: Rm::Mem(m),
                });
            }
            Remat::Float(bits, _) if fits32(bits as i64) => {
                m = self.mem_of(addr, offset);
                self.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Imm(bits as i64),
                    dst: Rm::Mem(m),
                });
            }
            Remat::Float(bits, _) => {
                m = self.mem_of(addr, offset);
                self.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Imm(bits as i64),
                    dst: Rm::Reg(SCRATCH),
                });
                self.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(SCRATCH),
                    dst: Rm::Mem(m),
                });
            }
            _ => {
                let r = self.reg_of(value);
                m = self.mem_of(addr, offset);
                self.store_reg(ty, r, m);
                self.consume(value);
            }
        }
        self.consume(addr);
    }

    fn unary(&mut self, op: UnaryOp, arg: Value, r: Value) {
        let ty = self.ty(arg);
        let op = if op == UnaryOp::Neg && ty.is_float() {
            UnaryOp::FNeg
        } else {
            op
        };
        let d = self.dst_from(arg);
        self.consume(arg);
        match op {
            UnaryOp::Neg | UnaryOp::Not => self.i(Inst::Unary {
                op: if op == UnaryOp::Neg {
                    UnOp::Neg
                } else {
                    UnOp::Not
                },
                size: op_size(ty),
                dst: Rm::Reg(g(d)),
            }),
            UnaryOp::FNeg => {
                fneg_insts(ty == Type::F32, x(d), SCRATCH, XSCRATCH, |i| self.i(i));
            }
        }
        self.define(r, d);
    }

    /// `a` (i8/i16) extended to 32 bits in register `d`.
    fn widen_into(&mut self, a: Value, ty: Type, signed: bool, d: u8) {
        let s = self.reg_of(a);
        self.i(Inst::MovX {
            signed,
            from: crate::lower::size_of(ty),
            to: Size::S32,
            src: Rm::Reg(g(s)),
            dst: g(d),
        });
    }

    fn binary(&mut self, op: BinaryOp, a: Value, bv: Value, r: Value) {
        let ty = self.ty(a);
        let size = op_size(ty);
        match op {
            BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv => {
                let sop = sse_arith_op(op, ty == Type::F64);
                let src = self.xmm_src(bv);
                let d = if a == bv {
                    let d = self.alloc(true, 0);
                    self.materialise(a, d);
                    d
                } else {
                    self.dst_from(a)
                };
                self.i(Inst::Sse {
                    op: sop,
                    src,
                    dst: x(d),
                });
                self.consume(a);
                self.consume(bv);
                self.define(r, d);
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let aop = match op {
                    BinaryOp::Add => AluOp::Add,
                    BinaryOp::Sub => AluOp::Sub,
                    BinaryOp::And => AluOp::And,
                    BinaryOp::Or => AluOp::Or,
                    _ => AluOp::Xor,
                };
                let src = self.rmi_of(bv);
                let d = if a == bv {
                    let d = self.alloc(false, 0);
                    self.materialise(a, d);
                    d
                } else {
                    self.dst_from(a)
                };
                self.i(Inst::Alu {
                    op: aop,
                    size,
                    src,
                    dst: Rm::Reg(g(d)),
                });
                self.consume(a);
                self.consume(bv);
                self.define(r, d);
            }
            BinaryOp::Mul => {
                if let Some(c) = self.const32(bv) {
                    let s = self.reg_of(a);
                    let d = if self.sc.v[a.index()].uses == 1 {
                        s
                    } else {
                        self.alloc(false, 0)
                    };
                    self.i(Inst::Imul3 {
                        size,
                        imm: c,
                        src: Rm::Reg(g(s)),
                        dst: g(d),
                    });
                    self.consume(a);
                    self.consume(bv);
                    self.pinned |= 1 << d;
                    self.define(r, d);
                    return;
                }
                let src = match self.rmi_of(bv) {
                    Rmi::Reg(s) => Rm::Reg(s),
                    Rmi::Mem(m) => Rm::Mem(m),
                    Rmi::Imm(_) => unreachable!(),
                };
                let d = if a == bv {
                    let d = self.alloc(false, 0);
                    self.materialise(a, d);
                    d
                } else {
                    self.dst_from(a)
                };
                self.i(Inst::Imul2 {
                    size,
                    src,
                    dst: g(d),
                });
                self.consume(a);
                self.consume(bv);
                self.define(r, d);
            }
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem => {
                let signed = matches!(op, BinaryOp::SDiv | BinaryOp::SRem);
                let rem = matches!(op, BinaryOp::SRem | BinaryOp::URem);
                self.evict(0, 1 << 2);
                self.evict(2, 0);
                // The divisor: its home, or a register other than rax/rdx.
                let narrow = matches!(ty, Type::I8 | Type::I16);
                let div = if narrow {
                    let t = self.alloc(false, 0b101);
                    self.widen_into(bv, ty, signed, t);
                    Rm::Reg(g(t))
                } else if self.const32(bv).is_some() {
                    self.materialise(bv, 11);
                    Rm::Reg(SCRATCH)
                } else {
                    match self.rmi_of(bv) {
                        Rmi::Reg(s) => Rm::Reg(s),
                        Rmi::Mem(m) => Rm::Mem(m),
                        Rmi::Imm(_) => unreachable!(),
                    }
                };
                if narrow {
                    self.widen_into(a, ty, signed, 0);
                } else {
                    self.materialise(a, 0);
                }
                div_insts(signed, size, div, |i| self.i(i));
                self.consume(a);
                self.consume(bv);
                self.define(r, if rem { 2 } else { 0 });
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
                let sop = match op {
                    BinaryOp::Shl => ShiftOp::Shl,
                    BinaryOp::LShr => ShiftOp::Shr,
                    _ => ShiftOp::Sar,
                };
                let amount = match self.remat(bv) {
                    Remat::Int(c, _) => Some((c as u8) & if size == Size::S64 { 63 } else { 31 }),
                    _ => {
                        if self.sc.v[bv.index()].reg != 1 {
                            self.evict(1, 0);
                            self.materialise(bv, 1);
                        }
                        self.pinned |= 0b10;
                        None
                    }
                };
                let narrow = matches!(ty, Type::I8 | Type::I16) && op != BinaryOp::Shl;
                let d = if narrow {
                    let d = self.alloc(false, 0b10);
                    self.widen_into(a, ty, op == BinaryOp::AShr, d);
                    d
                } else if self.sc.v[a.index()].reg == 1 || a == bv {
                    // The count's register cannot be the result's.
                    let d = self.alloc(false, 0b10);
                    self.materialise(a, d);
                    d
                } else {
                    self.dst_from(a)
                };
                self.i(Inst::Shift {
                    op: sop,
                    size,
                    amount,
                    dst: Rm::Reg(g(d)),
                });
                self.consume(a);
                self.consume(bv);
                self.define(r, d);
            }
        }
    }

    /// The flags for a compare; its operands are consumed.
    fn compare(&mut self, op: &Op) -> CondSpec {
        match *op {
            Op::Icmp { cc, a, b } => {
                let ty = self.ty(a);
                let size = crate::lower::size_of(ty);
                let (mut cc, mut xv, mut yv) = (cc, a, b);
                if self.const32(xv).is_some() && self.const32(yv).is_none() {
                    std::mem::swap(&mut xv, &mut yv);
                    cc = swap_cc(cc);
                }
                let xr = self.reg_of(xv);
                let src = match self.const32(yv) {
                    Some(c) => Rmi::Imm(imm_of(ty, c as i128)),
                    None => {
                        if matches!(ty, Type::I8 | Type::I16) {
                            Rmi::Reg(g(self.reg_of(yv)))
                        } else {
                            self.rmi_of(yv)
                        }
                    }
                };
                self.i(Inst::Alu {
                    op: AluOp::Cmp,
                    size,
                    src,
                    dst: Rm::Reg(g(xr)),
                });
                self.consume(a);
                self.consume(b);
                CondSpec::One(int_cond(cc))
            }
            Op::Fcmp { cc, a, b } => {
                let (xv, yv, spec) = match cc {
                    FloatCC::Lt => (a, b, CondSpec::One(Cond::A)),
                    FloatCC::Le => (a, b, CondSpec::One(Cond::AE)),
                    FloatCC::Gt => (b, a, CondSpec::One(Cond::A)),
                    FloatCC::Ge => (b, a, CondSpec::One(Cond::AE)),
                    FloatCC::Eq => (b, a, CondSpec::And(Cond::E, Cond::NP)),
                    FloatCC::Ne => (b, a, CondSpec::Or(Cond::NE, Cond::P)),
                    FloatCC::Unordered => (b, a, CondSpec::One(Cond::P)),
                };
                let ty = self.ty(a);
                let yr = self.reg_of(yv);
                let src = self.xmm_src(xv);
                self.i(Inst::Sse {
                    op: if ty == Type::F32 {
                        SseOp::Ucomiss
                    } else {
                        SseOp::Ucomisd
                    },
                    src,
                    dst: x(yr),
                });
                self.consume(a);
                self.consume(b);
                spec
            }
            _ => unreachable!(),
        }
    }

    /// Register `d` = condition ? 1 : 0.
    fn setcc(&mut self, cs: CondSpec, d: u8) {
        setcc_insts(cs, g(d), SCRATCH, |i| self.i(i));
    }

    /// The flags for `cond != 0` (a fused compare made here).
    fn cond_flags(&mut self, cond: Value) -> CondSpec {
        if self.sc.v[cond.index()].fuse {
            if let ir::ValueDef::Result(ci, _) = self.f.values[cond.index()].def {
                let op = &self.f.inst(ci).op;
                self.sc.v[cond.index()].uses = 0;
                return self.compare(op);
            }
        }
        let r = self.reg_of(cond);
        let size = crate::lower::size_of(self.ty(cond));
        self.i(Inst::Test {
            size,
            src: Rmi::Reg(g(r)),
            dst: Rm::Reg(g(r)),
        });
        self.consume(cond);
        CondSpec::One(Cond::NE)
    }

    fn select(&mut self, cond: Value, a: Value, bv: Value, r: Value) {
        let ty = self.ty(a);
        let float = is_float(ty);
        if let Remat::Int(c, _) = self.remat(cond) {
            // A constant condition picks one side.
            let pick = if c as i8 != 0 { a } else { bv };
            let d = self.alloc(float, 0);
            self.materialise(pick, d);
            self.consume(a);
            self.consume(bv);
            self.define(r, d);
            return;
        }
        let cr = self.reg_of(cond);
        let ar = self.reg_of(a);
        let d = self.alloc(float, 0);
        self.materialise(bv, d);
        let size = crate::lower::size_of(self.ty(cond));
        self.i(Inst::Test {
            size,
            src: Rmi::Reg(g(cr)),
            dst: Rm::Reg(g(cr)),
        });
        if float {
            let l = self.new_label();
            self.i(Inst::Jcc {
                cond: Cond::E,
                target: l,
            });
            self.copy_reg(ar, d);
            self.i(Inst::Label(l));
        } else {
            self.i(Inst::Cmov {
                cond: Cond::NE,
                size: Size::S64,
                src: Rm::Reg(g(ar)),
                dst: g(d),
            });
        }
        self.consume(cond);
        self.consume(a);
        self.consume(bv);
        self.define(r, d);
    }

    fn conv(&mut self, op: ConvOp, arg: Value, to: Type, r: Value) {
        let from = self.ty(arg);
        match op {
            ConvOp::Sext | ConvOp::Zext => {
                let signed = op == ConvOp::Sext;
                let s = self.reg_of(arg);
                let d = self.alloc(false, 0);
                match from {
                    Type::I8 | Type::I16 => self.i(Inst::MovX {
                        signed,
                        from: crate::lower::size_of(from),
                        to: op_size(to),
                        src: Rm::Reg(g(s)),
                        dst: g(d),
                    }),
                    Type::I32 if signed => self.i(Inst::MovX {
                        signed,
                        from: Size::S32,
                        to: Size::S64,
                        src: Rm::Reg(g(s)),
                        dst: g(d),
                    }),
                    Type::I32 => self.i(Inst::Mov {
                        size: Size::S32,
                        src: Rmi::Reg(g(s)),
                        dst: Rm::Reg(g(d)),
                    }),
                    _ => self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(g(s)),
                        dst: Rm::Reg(g(d)),
                    }),
                }
                self.consume(arg);
                self.define(r, d);
            }
            ConvOp::Trunc => {
                let d = self.dst_from(arg);
                self.consume(arg);
                self.define(r, d);
            }
            ConvOp::Bitcast => match (from.is_int(), to.is_int()) {
                (true, true) | (false, false) => {
                    let d = self.dst_from(arg);
                    self.consume(arg);
                    self.define(r, d);
                }
                (true, false) => {
                    let s = self.reg_of(arg);
                    let d = self.alloc(true, 0);
                    self.i(Inst::MovGprToXmm {
                        size: crate::lower::size_of(to),
                        src: Rm::Reg(g(s)),
                        dst: x(d),
                    });
                    self.consume(arg);
                    self.define(r, d);
                }
                (false, true) => {
                    let s = self.reg_of(arg);
                    let d = self.alloc(false, 0);
                    self.i(Inst::MovXmmToGpr {
                        size: crate::lower::size_of(from),
                        src: x(s),
                        dst: Rm::Reg(g(d)),
                    });
                    self.consume(arg);
                    self.define(r, d);
                }
            },
            ConvOp::FExt | ConvOp::FTrunc => {
                let s = self.reg_of(arg);
                let d = self.alloc(true, 0);
                self.i(Inst::Sse {
                    op: if from == Type::F32 {
                        SseOp::Cvtss2sd
                    } else {
                        SseOp::Cvtsd2ss
                    },
                    src: XmmMem::Xmm(x(s)),
                    dst: x(d),
                });
                self.consume(arg);
                self.define(r, d);
            }
            ConvOp::SToF | ConvOp::UToF => {
                let double = to == Type::F64;
                let signed = op == ConvOp::SToF;
                let s = self.reg_of(arg);
                let d = self.alloc(true, 0);
                let (src, size) = match from {
                    Type::I8 | Type::I16 => {
                        self.i(Inst::MovX {
                            signed,
                            from: crate::lower::size_of(from),
                            to: Size::S32,
                            src: Rm::Reg(g(s)),
                            dst: SCRATCH,
                        });
                        (SCRATCH, Size::S32)
                    }
                    Type::I32 if !signed => {
                        self.i(Inst::Mov {
                            size: Size::S32,
                            src: Rmi::Reg(g(s)),
                            dst: Rm::Reg(SCRATCH),
                        });
                        (SCRATCH, Size::S64)
                    }
                    Type::I32 => (g(s), Size::S32),
                    _ => (g(s), Size::S64),
                };
                if !signed && size == Size::S64 && src != SCRATCH {
                    // gcc's split: values >= 2^63 halve (keeping the low bit) and double.
                    let t = self.alloc(false, 0);
                    let (l_neg, l_end) = (self.new_label(), self.new_label());
                    u64_to_f_insts(double, src, x(d), g(t), (l_neg, l_end), |i| self.i(i));
                } else {
                    self.i(Inst::Sse {
                        op: SseOp::Xorps,
                        src: XmmMem::Xmm(x(d)),
                        dst: x(d),
                    });
                    self.i(Inst::CvtSi2F {
                        double,
                        size,
                        src: Rm::Reg(src),
                        dst: x(d),
                    });
                }
                self.consume(arg);
                self.define(r, d);
            }
            ConvOp::FToS | ConvOp::FToU => {
                let double = from == Type::F64;
                let signed = op == ConvOp::FToS;
                let s = self.reg_of(arg);
                let d = self.alloc(false, 0);
                if !signed && matches!(to, Type::I64 | Type::Ptr) {
                    let (l_big, l_end) = (self.new_label(), self.new_label());
                    f_to_u64_insts(double, x(s), g(d), XSCRATCH, (l_big, l_end), |i| self.i(i));
                } else {
                    let size = match to {
                        Type::I64 | Type::Ptr => Size::S64,
                        Type::I32 if !signed => Size::S64,
                        _ => Size::S32,
                    };
                    self.i(Inst::CvtTF2Si {
                        double,
                        size,
                        src: XmmMem::Xmm(x(s)),
                        dst: g(d),
                    });
                }
                self.consume(arg);
                self.define(r, d);
            }
        }
    }

    fn copy(&mut self, dst: Value, src: Value, size: u64) {
        if size > 64 {
            self.evict(7, 1 << 6 | 1 << 1);
            self.evict(6, 1 << 1);
            self.evict(1, 0);
        }
        let dm = self.mem_of(dst, 0);
        let sm = self.mem_of(src, 0);
        crate::lower::copy_insts(dm, sm, size, |i| self.i(i));
        self.consume(dst);
        self.consume(src);
    }

    fn zero(&mut self, dst: Value, size: u64) {
        if size > 64 {
            self.evict(7, 1 << 1 | 1);
            self.evict(1, 1);
            self.evict(0, 0);
        }
        let dm = self.mem_of(dst, 0);
        crate::lower::zero_insts(dm, size, |i| self.i(i));
        self.consume(dst);
    }

    /// Puts `vals[i]` into register `targets[i]` (extended as `flags[i]` asks) for a call
    /// or return: a parallel move. Values other than these that sit in the target
    /// registers must be at home already, or dead.
    fn place_args(&mut self, moves: &[(Value, u8, Flags)]) {
        let mut tmask = 0u32;
        for &(_, t, _) in moves {
            tmask |= 1 << t;
        }
        let ext = |v: Value, fl: Flags, me: &Self| -> Option<bool> {
            let ty = me.ty(v);
            let sext = fl.contains(Flags::SEXT32) || fl.contains(Flags::SEXT64);
            let zext = fl.contains(Flags::ZEXT32) || fl.contains(Flags::ZEXT64);
            (matches!(ty, Type::I8 | Type::I16) && (sext || zext)).then_some(sext)
        };
        // Moves made, a bit each (their targets are distinct registers: at most 32).
        debug_assert!(moves.len() <= 64);
        let mut done = 0u64;
        // Already in place.
        for (k, &(v, t, fl)) in moves.iter().enumerate() {
            if self.sc.v[v.index()].reg == t && ext(v, fl, self).is_none() {
                done |= 1 << k;
                self.pinned |= 1 << t;
            }
        }
        for k in 0..moves.len() {
            if done & 1 << k != 0 {
                continue;
            }
            let (v, t, fl) = moves[k];
            let occ = self.regv[t as usize];
            if occ != u32::MAX && occ != v.0 {
                // Needed by a move still to make: keep it elsewhere.
                let needed = moves
                    .iter()
                    .enumerate()
                    .skip(k + 1)
                    .any(|(j, &(w, _, _))| done & 1 << j == 0 && w.0 == occ);
                if needed {
                    let float = t >= X0;
                    let free = if float {
                        (X0..X0 + 15).find(|&c| {
                            self.regv[c as usize] == u32::MAX
                                && (tmask | self.pinned) & (1 << c) == 0
                        })
                    } else {
                        GPRS.iter().copied().find(|&c| {
                            self.regv[c as usize] == u32::MAX
                                && (tmask | self.pinned) & (1 << c) == 0
                        })
                    };
                    match free {
                        Some(c) => {
                            self.copy_reg(t, c);
                            self.bind(Value(occ), c);
                        }
                        None => {
                            self.store_home(t);
                            self.free(t);
                        }
                    }
                } else {
                    self.free(t);
                }
            }
            match ext(v, fl, self) {
                Some(signed) => {
                    let s = self.sc.v[v.index()].reg;
                    let src = if s != NONE {
                        s
                    } else {
                        self.materialise(v, t);
                        t
                    };
                    self.i(Inst::MovX {
                        signed,
                        from: crate::lower::size_of(self.ty(v)),
                        to: Size::S32,
                        src: Rm::Reg(g(src)),
                        dst: g(t),
                    });
                }
                None => self.materialise(v, t),
            }
            // `t` holds a copy of `v` now (not recorded: only the call or return reads it;
            // displaced values never go to a target register).
            done |= 1 << k;
            self.pinned |= 1 << t;
        }
    }

    fn call(&mut self, c: &ir::Call) {
        let f = self.f;
        let plan = &f.plans[c.plan.index()];
        let nargs = plan.arguments.len();
        let sret: Vec<&Location> = plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        // The callee's address is read after the arguments are placed: keep it at home.
        if let ir::Callee::Indirect(cv) = c.callee {
            let r = self.sc.v[cv.index()].reg;
            if r != NONE {
                self.store_home(r);
            }
        }
        // Values live after the call go home (every register is clobbered).
        let mut held = self.occ;
        while held != 0 {
            let r = held.trailing_zeros() as u8;
            held &= held - 1;
            let v = self.regv[r as usize];
            let mut n = c.args.iter().filter(|a| a.0 == v).count() as u32;
            if matches!(c.callee, ir::Callee::Indirect(cv) if cv.0 == v) {
                n += 1;
            }
            if self.sc.v[v as usize].uses > n {
                self.store_home(r);
            }
        }
        // Stack arguments.
        let mut moves = std::mem::take(&mut self.sc.moves);
        moves.clear();
        for (i, &v) in c.args.iter().enumerate() {
            let loc = if i < nargs {
                &plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            match loc.place {
                Place::Stack(off) => {
                    let out = Mem::base(Gpr::RSP, off as i32);
                    let save = self.pinned;
                    if c.arg_mem.contains(&(i as u32)) {
                        if loc.size > 64 {
                            self.evict(7, 1 << 6 | 1 << 1);
                            self.evict(6, 1 << 1);
                            self.evict(1, 0);
                        }
                        let sm = self.mem_of(v, 0);
                        crate::lower::copy_insts(out, sm, loc.size as u64, |i| self.i(i));
                    } else {
                        let ty = self.ty(v);
                        let narrow = matches!(ty, Type::I8 | Type::I16);
                        let fl = loc.flags;
                        let sext = fl.contains(Flags::SEXT32) || fl.contains(Flags::SEXT64);
                        let zext = fl.contains(Flags::ZEXT32) || fl.contains(Flags::ZEXT64);
                        if narrow && (sext || zext) {
                            let s = self.reg_of(v);
                            self.i(Inst::MovX {
                                signed: sext,
                                from: crate::lower::size_of(ty),
                                to: Size::S32,
                                src: Rm::Reg(g(s)),
                                dst: SCRATCH,
                            });
                            self.i(Inst::Mov {
                                size: Size::S32,
                                src: Rmi::Reg(SCRATCH),
                                dst: Rm::Mem(out),
                            });
                        } else {
                            let s = self.reg_of(v);
                            self.store_reg(ty, s, out);
                        }
                    }
                    self.consume(v);
                    // Registers used for one stack argument are not needed by the next.
                    self.pinned = save;
                }
                Place::Reg(r) => moves.push((v, place_reg(r), loc.flags)),
            }
        }
        self.place_args(&moves);
        match c.callee {
            ir::Callee::Direct(s) => self.i(Inst::CallSym {
                sym: self.syms[s.index()],
                kind: RelocKind::Plt32,
            }),
            ir::Callee::Indirect(cv) => {
                if self.sc.v[cv.index()].reg != NONE {
                    let r = self.sc.v[cv.index()].reg;
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(g(r)),
                        dst: Rm::Reg(SCRATCH),
                    });
                } else {
                    self.materialise(cv, 11);
                }
                self.i(Inst::CallInd {
                    target: Rm::Reg(SCRATCH),
                });
            }
        }
        for &(v, _, _) in &moves {
            self.consume(v);
        }
        self.sc.moves = moves;
        if let ir::Callee::Indirect(cv) = c.callee {
            self.consume(cv);
        }
        // Every register is clobbered.
        self.free_all();
        let mut ri = 0;
        for loc in plan.returns.iter() {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = c.results.get(ri) else { break };
            ri += 1;
            if let Place::Reg(r) = loc.place {
                if self.sc.v[v.index()].uses > 0 {
                    let r = place_reg(r);
                    self.bind(v, r);
                }
            }
        }
        for &v in &c.results {
            let r = self.sc.v[v.index()].reg;
            if r != NONE {
                self.define(v, r);
            }
        }
    }

    fn ret(&mut self, vals: &[Value]) {
        let f = self.f;
        let mut moves = std::mem::take(&mut self.sc.moves);
        moves.clear();
        let mut i = 0;
        for loc in &f.plan.returns {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = vals.get(i) else { break };
            i += 1;
            if let Place::Reg(r) = loc.place {
                moves.push((v, place_reg(r), loc.flags));
            }
        }
        self.place_args(&moves);
        self.sc.moves = moves;
        for &v in vals {
            self.consume(v);
        }
    }

    /// Copies a block call's arguments to the homes of the target's parameters: from
    /// their registers, or (at home or constant) through the scratch register: no flags
    /// and no register state change. The arguments are consumed.
    fn copy_args(&mut self, bc: &ir::BlockCall) {
        let params = &self.f.blocks[bc.block.index()].params;
        for (&a, &p) in bc.args.iter().zip(params.iter()) {
            let dst = self.home_mem(p);
            let r = self.sc.v[a.index()].reg;
            if r != NONE {
                let ty = self.ty(a);
                self.store_reg(ty, r, dst);
                continue;
            }
            match self.remat(a) {
                Remat::Int(c, _) if fits32(c) => self.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Imm(c),
                    dst: Rm::Mem(dst),
                }),
                Remat::Float(bits, _) => {
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Imm(bits as i64),
                        dst: Rm::Reg(SCRATCH),
                    });
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(SCRATCH),
                        dst: Rm::Mem(dst),
                    });
                }
                Remat::No => {
                    let h = self.sc.v[a.index()].home;
                    if h == 0 || !self.sc.v[a.index()].in_home {
                        self.bug("a block argument not at home");
                    }
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Mem(Mem::base(Gpr::RBP, h)),
                        dst: Rm::Reg(SCRATCH),
                    });
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(SCRATCH),
                        dst: Rm::Mem(dst),
                    });
                }
                _ => {
                    self.materialise(a, 11);
                    self.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(SCRATCH),
                        dst: Rm::Mem(dst),
                    });
                }
            }
        }
        for &a in bc.args.iter() {
            self.consume(a);
        }
    }

    fn branch(
        &mut self,
        cond: Value,
        then: &ir::BlockCall,
        els: &ir::BlockCall,
        next: Option<Label>,
    ) {
        let (t, e) = (Label(then.block.0), Label(els.block.0));
        if t == e {
            // (Arguments both ways to one block are declined by the scan.)
            self.consume(cond);
            if Some(t) != next {
                self.i(Inst::Jmp { target: t });
            }
            return;
        }
        if let Remat::Int(c, _) = self.remat(cond) {
            let (to, bc) = if c as i8 != 0 { (t, then) } else { (e, els) };
            self.copy_args(bc);
            if Some(to) != next {
                self.i(Inst::Jmp { target: to });
            }
            return;
        }
        let cs = self.cond_flags(cond);
        let mut nl = self.next_label;
        let mut new_label = || {
            nl += 1;
            Label(nl)
        };
        if !then.args.is_empty() || !els.args.is_empty() {
            // Each way its own copies, the `then` way first (the copies change no register,
            // so both ways see the registers as they are here).
            let l_else = new_label();
            crate::emit::branch_if(&mut self.insts, cs.invert(), l_else, &mut new_label);
            self.next_label = nl;
            self.copy_args(then);
            self.i(Inst::Jmp { target: t });
            self.i(Inst::Label(l_else));
            self.copy_args(els);
            if Some(e) != next {
                self.i(Inst::Jmp { target: e });
            }
            return;
        }
        let insts = &mut self.insts;
        if Some(e) == next {
            crate::emit::branch_if(insts, cs, t, &mut new_label);
        } else if Some(t) == next {
            crate::emit::branch_if(insts, cs.invert(), e, &mut new_label);
        } else {
            crate::emit::branch_if(insts, cs, t, &mut new_label);
            insts.push(Inst::Jmp { target: e });
        }
        self.next_label = nl;
    }

    fn switch(&mut self, value: Value, cases: &[(i128, ir::Block)], default: ir::Block) {
        let ty = self.ty(value);
        let mut cs: Vec<(i64, ir::Block)> =
            cases.iter().map(|&(c, b)| (imm_of(ty, c), b)).collect();
        cs.sort_by_key(|c| c.0);
        cs.dedup_by_key(|c| c.0);
        let dl = Label(default.0);
        if cs.is_empty() {
            self.consume(value);
            self.i(Inst::Jmp { target: dl });
            return;
        }
        let (min, max) = (cs[0].0, cs[cs.len() - 1].0);
        let range = (max as i128 - min as i128) as u128;
        let vr = self.reg_of(value);
        if cs.len() >= 4 && range < 3 * cs.len() as u128 && fits32(min) {
            // Jump table (the general path's decision).
            let mut entries = vec![dl; range as usize + 1];
            for &(c, blk) in &cs {
                entries[(c - min) as usize] = Label(blk.0);
            }
            let table = self.new_label();
            let t = self.alloc(false, 0);
            let (tg, vg) = (g(t), g(vr));
            let size = op_size(ty);
            self.i(Inst::Mov {
                size,
                src: Rmi::Reg(vg),
                dst: Rm::Reg(tg),
            });
            self.i(Inst::Alu {
                op: AluOp::Sub,
                size,
                src: Rmi::Imm(min),
                dst: Rm::Reg(tg),
            });
            if matches!(ty, Type::I8 | Type::I16) {
                self.i(Inst::MovX {
                    signed: false,
                    from: crate::lower::size_of(ty),
                    to: Size::S32,
                    src: Rm::Reg(tg),
                    dst: tg,
                });
            }
            jump_table_insts(tg, range as i64, dl, table, |i| self.i(i));
            self.tables.push((table, entries));
            self.consume(value);
            return;
        }
        // Compare chain.
        let size = crate::lower::size_of(ty);
        for &(c, blk) in &cs {
            let src = if fits32(c) {
                Rmi::Imm(c)
            } else {
                self.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Imm(c),
                    dst: Rm::Reg(SCRATCH),
                });
                Rmi::Reg(SCRATCH)
            };
            self.i(Inst::Alu {
                op: AluOp::Cmp,
                size,
                src,
                dst: Rm::Reg(g(vr)),
            });
            self.i(Inst::Jcc {
                cond: Cond::E,
                target: Label(blk.0),
            });
        }
        self.i(Inst::Jmp { target: dl });
        self.consume(value);
    }
}
