//! Instruction selection: one IR function to [`VCode`].
//!
//! Values: integers and pointers live in GPR vregs, f32/f64 in XMM vregs; an integer
//! narrower than 32 bits is computed in a 32-bit register whose upper bits are garbage (the
//! IR extends explicitly), so only operations whose result depends on the upper bits
//! (division, right shifts, compares, conversions) look at the width. f80 values are never
//! in registers: each has a 16-byte frame slot and x87 code moves through st(0).
//!
//! Constants, slot, symbol and block addresses have no register of their own: each use
//! folds them (immediates, `off(%rbp)`, `sym(%rip)`) or rematerialises them right there.
//!
//! Frame (with the frame pointer, always kept): `rbp` points at the saved rbp; below it, in
//! order, the slots this module allocates (IR slots, f80 values, scratch, the variadic
//! register save area) at fixed offsets, then regalloc2's spill slots and the callee-saved
//! save area (placed by `emit.rs`), then the outgoing argument area at `rsp`.

use crate::asm::*;
use crate::backend::{BackendError, Options, Pic};
use crate::vcode::*;
use neverc_abi::{Flags, Location, Place};
use neverc_codegen::reloc::{RelocKind, SymId};
use neverc_codegen::vcode::{reverse_postorder, successor, successor_count};
use neverc_ir as ir;
use neverc_ir::{BinaryOp, ConvOp, FloatCC, IntCC, Op, Type, UnaryOp, Value};
use regalloc2::{
    Operand, OperandConstraint, OperandKind, OperandPos, PReg, PRegSet, RegClass, VReg,
};
use std::collections::HashMap;

mod i128;
mod inline_asm;

/// Labels at or above this are internal to one instruction sequence.
pub const INTERNAL_LABEL: u32 = 0x4000_0000;

/// Frame facts the emitter needs.
#[derive(Clone, Debug, Default)]
pub struct FrameInfo {
    /// Bytes below rbp used by the fixed slots (multiple of 16).
    pub fixed_size: u32,
    /// Largest outgoing argument area (multiple of 16).
    pub max_out: u32,
    /// rbp offset of the 176-byte register save area of a variadic function.
    pub va_save: Option<i32>,
    pub has_alloca: bool,
    /// rsp is aligned to this in the prologue (over-aligned stack arguments), when > 16.
    pub realign: u32,
    /// Registers the function's own plan says it must preserve.
    pub callee_saved: Vec<PReg>,
    /// No frame pointer (`-fomit-frame-pointer` and nothing that needs one): the frame is
    /// addressed from rsp, which does not move between the prologue and the epilogue.
    pub omit_fp: bool,
    /// Callee-saved registers that inline asm clobbers (saved like the allocated ones).
    pub asm_saved: Vec<PReg>,
    /// Save every callee-saved register, used or not: the function calls setjmp, and a
    /// `__builtin_longjmp` back into it skips the epilogues of the functions in between,
    /// which may have changed any of them.
    pub save_all: bool,
}

pub struct Lowered {
    pub vcode: VCode,
    pub frame: FrameInfo,
    /// Labels (vblock labels) of the lowered blocks, by IR block index.
    pub block_labels: Vec<Option<Label>>,
    pub next_label: u32,
    /// Lay loops out with their exit test at the bottom (-O1).
    pub rotate_loops: bool,
}

/// Where an f80 value lives.
type F80Home = Mem;

/// An instruction being built: templates plus operands.
#[derive(Default)]
struct B {
    insts: Templates,
    ops: Operands,
}

impl B {
    fn i(&mut self, i: Inst) {
        self.insts.push(i);
    }
    fn op(&mut self, o: Operand) -> usize {
        self.ops.push(o);
        self.ops.len() - 1
    }
    fn use_g(&mut self, v: VReg) -> Gpr {
        ph_gpr(self.op(Operand::reg_use(v)))
    }
    fn use_late_g(&mut self, v: VReg) -> Gpr {
        ph_gpr(self.op(Operand::reg_use_at_end(v)))
    }
    fn def_g(&mut self, v: VReg) -> Gpr {
        ph_gpr(self.op(Operand::reg_def(v)))
    }
    fn reuse_g(&mut self, v: VReg, idx: Gpr) -> Gpr {
        ph_gpr(self.op(Operand::reg_reuse_def(v, (idx.0 & !PH) as usize)))
    }
    fn use_x(&mut self, v: VReg) -> Xmm {
        ph_xmm(self.op(Operand::reg_use(v)))
    }
    fn use_late_x(&mut self, v: VReg) -> Xmm {
        ph_xmm(self.op(Operand::reg_use_at_end(v)))
    }
    fn def_x(&mut self, v: VReg) -> Xmm {
        ph_xmm(self.op(Operand::reg_def(v)))
    }
    fn reuse_x(&mut self, v: VReg, idx: Xmm) -> Xmm {
        ph_xmm(self.op(Operand::reg_reuse_def(v, (idx.0 & !PH) as usize)))
    }
    fn fixed_use(&mut self, v: VReg, p: PReg) {
        self.op(Operand::reg_fixed_use(v, p));
    }
    fn fixed_def(&mut self, v: VReg, p: PReg) {
        self.op(Operand::reg_fixed_def(v, p));
    }
    fn vinst(self) -> VInst {
        VInst::new(self.insts, self.ops)
    }
}

fn early_def(v: VReg, c: OperandConstraint) -> Operand {
    Operand::new(v, c, OperandKind::Def, OperandPos::Early)
}

pub fn size_of(ty: Type) -> Size {
    match ty {
        Type::I8 => Size::S8,
        Type::I16 => Size::S16,
        Type::I32 | Type::F32 => Size::S32,
        _ => Size::S64,
    }
}

/// The operation size of a value held in a GPR: 32 bits for i8/i16/i32, else 64.
pub(crate) fn op_size(ty: Type) -> Size {
    match ty {
        Type::I64 | Type::Ptr => Size::S64,
        _ => Size::S32,
    }
}

pub(crate) fn int_cond(cc: IntCC) -> Cond {
    match cc {
        IntCC::Eq => Cond::E,
        IntCC::Ne => Cond::NE,
        IntCC::Slt => Cond::L,
        IntCC::Sle => Cond::LE,
        IntCC::Sgt => Cond::G,
        IntCC::Sge => Cond::GE,
        IntCC::Ult => Cond::B,
        IntCC::Ule => Cond::BE,
        IntCC::Ugt => Cond::A,
        IntCC::Uge => Cond::AE,
    }
}

pub(crate) fn swap_cc(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Slt => IntCC::Sgt,
        IntCC::Sgt => IntCC::Slt,
        IntCC::Sle => IntCC::Sge,
        IntCC::Sge => IntCC::Sle,
        IntCC::Ult => IntCC::Ugt,
        IntCC::Ugt => IntCC::Ult,
        IntCC::Ule => IntCC::Uge,
        IntCC::Uge => IntCC::Ule,
        c => c,
    }
}

/// Truncates an immediate to a width as a signed value.
pub(crate) fn imm_of(ty: Type, imm: i128) -> i64 {
    match ty {
        Type::I8 => imm as i8 as i64,
        Type::I16 => imm as i16 as i64,
        Type::I32 => imm as i32 as i64,
        _ => imm as i64,
    }
}

pub(crate) fn fits32(x: i64) -> bool {
    x == x as i32 as i64
}

pub fn gpr_allocatable() -> Vec<PReg> {
    // rax rcx rdx rbx rsi rdi r8-r10 r12-r15 (rsp, rbp, r11 reserved)
    [0u8, 1, 2, 3, 6, 7, 8, 9, 10, 12, 13, 14, 15]
        .iter()
        .map(|&h| preg_gpr(h))
        .collect()
}
pub fn xmm_allocatable() -> Vec<PReg> {
    (0u8..15).map(preg_xmm).collect()
}

pub const SCRATCH: Gpr = Gpr::R11;
pub const XSCRATCH: Xmm = Xmm(15);

/// A plan location in one of the scratch registers (a custom convention may pass values
/// in r11 or xmm15, which the allocator never hands out): such values are moved by hand,
/// by an instruction of its own right before the call or return (after the call or entry)
/// that needs them. Only the allocator's moves come between, and they never use either
/// register. (Inside the call's own instruction a result would have to be defined in a
/// register the call clobbers, which the allocator cannot do for xmm registers.)
fn scratch_place(p: PReg) -> bool {
    p == preg_gpr(SCRATCH.0) || p == preg_xmm(XSCRATCH.0)
}

/// Moves a value into (`to_scratch`) or out of the scratch register `p`.
fn scratch_move(v: VReg, p: PReg, to_scratch: bool) -> B {
    let mut b = B::default();
    if p.class() == RegClass::Int {
        let (src, dst) = if to_scratch {
            (b.use_g(v), SCRATCH)
        } else {
            (SCRATCH, b.def_g(v))
        };
        b.i(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(src),
            dst: Rm::Reg(dst),
        });
    } else {
        let (src, dst) = if to_scratch {
            (b.use_x(v), XSCRATCH)
        } else {
            (XSCRATCH, b.def_x(v))
        };
        b.i(Inst::XmmMov {
            op: XmmMovOp::Movaps,
            src: XmmMem::Xmm(src),
            dst: XmmMem::Xmm(dst),
        });
    }
    b
}

struct Lower<'a> {
    m: &'a ir::Module,
    f: &'a ir::Function,
    opts: &'a Options,
    syms: &'a [SymId],
    name: &'a str,
    vregs: Vec<Option<VReg>>,
    nvregs: usize,
    f80: HashMap<Value, F80Home>,
    /// The high halves of __int128 values (the low half is in `vregs`).
    hi: HashMap<Value, VReg>,
    libcall: &'a mut dyn FnMut(&str) -> SymId,
    fixed_size: u32,
    slot_off: Vec<i32>,
    /// Alignment rsp needs at calls (over-aligned stack arguments), 0 if 16 is enough.
    realign: u32,
    blocks: Vec<VBlock>,
    /// The last function's vectors, reused.
    spare: Recycled,
    /// The instructions of the vblocks of the IR blocks (`0..main_blocks`), which are
    /// lowered in order: block after block, straight into the final flat list
    /// (`main_lens[b]` instructions of block `b`). Other vblocks keep their own lists.
    main: Vec<VInst>,
    main_blocks: usize,
    main_lens: Vec<u32>,
    /// The main vblock instructions were last added to.
    main_last: usize,
    /// Set if an instruction went to a main vblock after a later one had started.
    main_out_of_order: bool,
    cur: usize,
    ir2v: Vec<usize>,
    uses: Vec<u32>,
    cond_uses: Vec<u32>,
    /// Instructions not lowered: dead pure ones, and address additions folded into the
    /// memory operand of their only (load/store) use.
    skip: Vec<bool>,
    /// Stores that become read-modify-write instructions: (operation, other operand).
    rmw: HashMap<ir::Inst, (AluOp, Value)>,
    pred_edges: Vec<u32>,
    next_label: u32,
    max_out: u32,
    has_alloca: bool,
    va_save: Option<i32>,
    landing: HashMap<ir::Block, usize>,
    dispatch: Option<(usize, VReg)>,
    setjmp: bool,
    /// Callee-saved registers clobbered by inline asm.
    asm_saved: Vec<PReg>,
    /// Registers this function's plan says it preserves although the standard convention
    /// lets instructions clobber them (a custom `csr:` set).
    custom_csr: Vec<PReg>,
}

/// Whether the function needs rbp as a frame pointer whatever the options say: it reads
/// the frame or stack pointer, moves the stack pointer at run time, or can be re-entered
/// by `setjmp`/`__builtin_longjmp` (which restore rbp); or it has inline asm, which may
/// push and pop (its frame-slot operands are rbp-based).
fn needs_fp(f: &ir::Function) -> bool {
    f.calls_setjmp
        || f.blocks.iter().any(|b| {
            b.insts.iter().any(|&i| {
                matches!(
                    f.inst(i).op,
                    Op::StackSave
                        | Op::StackRestore(_)
                        | Op::FrameAddress
                        | Op::Alloca { .. }
                        | Op::NonLocalGoto { .. }
                        | Op::BlockAddr(_)
                        | Op::IndirectJump { .. }
                        | Op::InlineAsm(_)
                )
            })
        })
}

/// The per-function tables of the lowering, kept from one function to the next (their
/// allocations are reused; the contents are reset for each function).
#[derive(Default)]
pub struct Scratch {
    vregs: Vec<Option<VReg>>,
    uses: Vec<u32>,
    cond_uses: Vec<u32>,
    skip: Vec<bool>,
    ir2v: Vec<usize>,
    pred_edges: Vec<u32>,
    slot_off: Vec<i32>,
    main_lens: Vec<u32>,
}

/// `v` emptied and refilled with `n` copies of `x`.
fn refill<T: Clone>(mut v: Vec<T>, n: usize, x: T) -> Vec<T> {
    v.clear();
    v.resize(n, x);
    v
}

// Not inlined into its caller: it is a phase of its own in profiles.
#[inline(never)]
pub fn lower_function(
    m: &ir::Module,
    f: &ir::Function,
    opts: &Options,
    syms: &[SymId],
    libcall: &mut dyn FnMut(&str) -> SymId,
    mut spare: Recycled,
    scratch: &mut Scratch,
) -> Result<Lowered, BackendError> {
    let name = m.sym(f.sym).name.as_str();
    let nvals = f.values.len();
    let sc = std::mem::take(scratch);
    let mut l = Lower {
        m,
        f,
        opts,
        syms,
        name,
        vregs: refill(sc.vregs, nvals, None),
        nvregs: 0,
        f80: HashMap::new(),
        hi: HashMap::new(),
        libcall,
        fixed_size: 0,
        slot_off: refill(sc.slot_off, 0, 0),
        realign: 0,
        blocks: Vec::new(),
        main: spare.take_insts(),
        spare,
        main_blocks: 0,
        main_lens: refill(sc.main_lens, 0, 0),
        main_last: 0,
        main_out_of_order: false,
        cur: 0,
        ir2v: refill(sc.ir2v, f.blocks.len(), usize::MAX),
        uses: refill(sc.uses, nvals, 0),
        cond_uses: refill(sc.cond_uses, nvals, 0),
        skip: refill(sc.skip, f.insts.len(), false),
        rmw: HashMap::new(),
        pred_edges: refill(sc.pred_edges, f.blocks.len(), 0),
        next_label: INTERNAL_LABEL,
        max_out: 0,
        has_alloca: false,
        va_save: None,
        landing: HashMap::new(),
        dispatch: None,
        setjmp: f.calls_setjmp,
        asm_saved: Vec::new(),
        custom_csr: f
            .plan
            .callee_saved
            .iter()
            .filter(|r| !neverc_abi::SYSV_CALLEE_SAVED.contains(*r))
            .filter_map(|&r| dwarf_to_preg(r))
            .collect(),
    };
    // The scratch register is written by many instruction sequences the allocator does
    // not see: a plan keeping it callee-saved has it saved always.
    if f.plan.callee_saved.contains(&11) {
        l.asm_saved.push(preg_gpr(SCRATCH.0));
    }
    if f.plan.callee_saved.contains(&32) {
        l.asm_saved.push(preg_xmm(XSCRATCH.0));
    }
    l.run()?;
    let callee_saved = f
        .plan
        .callee_saved
        .iter()
        .filter_map(|&r| dwarf_to_preg(r))
        .collect();
    let block_labels = (0..f.blocks.len())
        .map(|b| {
            if let Some(&lp) = l.landing.get(&ir::Block(b as u32)) {
                Some(block_label(lp))
            } else if l.ir2v[b] != usize::MAX {
                Some(block_label(l.ir2v[b]))
            } else {
                None
            }
        })
        .collect();
    let frame = FrameInfo {
        fixed_size: l.fixed_size.next_multiple_of(16),
        max_out: l.max_out.next_multiple_of(16),
        va_save: l.va_save,
        has_alloca: l.has_alloca,
        realign: l.realign,
        callee_saved,
        omit_fp: opts.omit_frame_pointer && !l.has_alloca && l.realign <= 16 && !needs_fp(f),
        asm_saved: l.asm_saved.clone(),
        save_all: f.calls_setjmp,
    };
    let next_label = l.next_label;
    if l.main_out_of_order {
        return Err(BackendError {
            message: format!(
                "internal error in the x86-64 back end: instructions of {name} lowered out of block order"
            ),
        });
    }
    let mut vcode = VCode::new_in_with(l.blocks, l.main, &l.main_lens, l.nvregs, &mut l.spare);
    *scratch = Scratch {
        vregs: l.vregs,
        uses: l.uses,
        cond_uses: l.cond_uses,
        skip: l.skip,
        ir2v: l.ir2v,
        pred_edges: l.pred_edges,
        slot_off: l.slot_off,
        main_lens: l.main_lens,
    };
    vcode.wide_float = f.values.iter().any(|v| v.ty == Type::V128);
    Ok(Lowered {
        vcode,
        frame,
        block_labels,
        next_label,
        rotate_loops: opts.opt_level > 0,
    })
}

impl<'a> Lower<'a> {
    fn err(&self, what: &str) -> BackendError {
        BackendError {
            message: format!(
                "the x86-64 back end cannot lower {what} (function {})",
                self.name
            ),
        }
    }

    fn new_vreg(&mut self, class: RegClass) -> VReg {
        let v = VReg::new(self.nvregs, class);
        self.nvregs += 1;
        v
    }

    fn class_of(ty: Type) -> RegClass {
        // A `_Float16` lives in an xmm register, as the psABI passes it (low 16 bits).
        // A `v128` is a whole xmm register.
        if matches!(ty, Type::F16 | Type::F32 | Type::F64 | Type::V128) {
            RegClass::Float
        } else {
            RegClass::Int
        }
    }

    fn ty(&self, v: Value) -> Type {
        self.f.value_type(v)
    }

    fn new_label(&mut self) -> Label {
        self.next_label += 1;
        Label(self.next_label)
    }

    /// A new fixed frame slot; returns its rbp offset.
    fn frame_slot(&mut self, size: u64, align: u32) -> i32 {
        let align = align.clamp(1, 4096);
        self.fixed_size = (self.fixed_size as u64 + size).next_multiple_of(align as u64) as u32;
        -(self.fixed_size as i32)
    }

    fn new_block(&mut self) -> usize {
        let i = self.blocks.len();
        let origin = if self.blocks.is_empty() { 0 } else { self.cur };
        let b = self.spare.block(origin);
        self.blocks.push(b);
        i
    }

    /// Registers this function must preserve that a callee keeping only `kept` (DWARF
    /// numbers) does not (a custom convention on either side, issue 6): the prologue
    /// saves them, even where the allocator never uses them. (Between two standard plans
    /// there are none.)
    fn save_csr_not_kept_by(&mut self, kept: &[u16]) {
        for &r in &self.f.plan.callee_saved {
            if !kept.contains(&r) && r != 6 {
                if let Some(p) = dwarf_to_preg(r) {
                    if !self.asm_saved.contains(&p) {
                        self.asm_saved.push(p);
                    }
                }
            }
        }
    }

    fn push(&mut self, v: VInst) {
        // An instruction clobbering a register this function must preserve (only possible
        // under a custom `csr:` set, e.g. `rep movsb` and rdi) makes the prologue save it.
        // Calls are counted in `lower_call` by their plans (a function calling setjmp
        // treats every register as clobbered without any being so).
        if !self.custom_csr.is_empty()
            && !v
                .insts
                .iter()
                .any(|i| matches!(i, Inst::CallSym { .. } | Inst::CallInd { .. }))
        {
            for &p in &self.custom_csr {
                if v.clobbers.contains(p) && !self.asm_saved.contains(&p) {
                    self.asm_saved.push(p);
                }
            }
        }
        let cur = self.cur;
        if cur < self.main_blocks {
            // Main vblocks are filled in order: `cur` is the last one started (or a new one).
            if cur < self.main_last {
                self.main_out_of_order = true;
            }
            self.main_last = cur;
            self.main.push(v);
            self.main_lens[cur] += 1;
        } else {
            self.blocks[cur].insts.push(v);
        }
    }
    fn emit(&mut self, b: B) {
        let v = b.vinst();
        self.push(v);
    }

    fn def_of(&self, v: Value) -> Option<&'a Op> {
        match self.f.values[v.index()].def {
            ir::ValueDef::Result(i, _) => Some(&self.f.inst(i).op),
            _ => None,
        }
    }

    /// The vreg of a value computed by an instruction or a block parameter.
    fn vreg(&mut self, v: Value) -> Result<VReg, BackendError> {
        if let Some(r) = self.vregs[v.index()] {
            return Ok(r);
        }
        let ty = self.ty(v);
        match ty {
            Type::I128 => return Err(self.err("__int128 arithmetic")),
            Type::F128 => return Err(self.err("__float128 arithmetic")),
            Type::F80 => return Err(self.err("an x87 value in a register")),
            _ => {}
        }
        let r = self.new_vreg(Self::class_of(ty));
        self.vregs[v.index()] = Some(r);
        Ok(r)
    }

    fn is_remat(&self, v: Value) -> bool {
        matches!(
            self.def_of(v),
            Some(
                Op::Iconst { .. }
                    | Op::SymAddr { .. }
                    | Op::SlotAddr(_)
                    | Op::BlockAddr(_)
                    | Op::Fconst { .. }
            )
        ) && !matches!(self.ty(v), Type::F80 | Type::I128 | Type::F128)
    }

    fn const_of(&self, v: Value) -> Option<i64> {
        match self.def_of(v) {
            Some(Op::Iconst { ty, imm }) if *ty != Type::I128 => Some(imm_of(*ty, imm.get())),
            _ => None,
        }
    }

    fn const32(&self, v: Value) -> Option<i32> {
        self.const_of(v).filter(|&c| fits32(c)).map(|c| c as i32)
    }

    /// The value in a register at the current point (materialising foldable values).
    fn reg(&mut self, v: Value) -> Result<VReg, BackendError> {
        if !self.is_remat(v) {
            return self.vreg(v);
        }
        let ty = self.ty(v);
        let r = self.new_vreg(Self::class_of(ty));
        let op = self.def_of(v).unwrap().clone();
        let mut b = B::default();
        match op {
            Op::Iconst { ty, imm } => {
                let d = b.def_g(r);
                let c = imm_of(ty, imm.get());
                let (size, c) = if ty == Type::I64 || ty == Type::Ptr {
                    (Size::S64, c)
                } else {
                    (Size::S32, c as i32 as u32 as i64)
                };
                b.i(Inst::Mov {
                    size,
                    src: Rmi::Imm(c),
                    dst: Rm::Reg(d),
                });
            }
            Op::Fconst { ty, bits } => {
                let bits = bits.get();
                let d = b.def_x(r);
                if bits == 0 {
                    b.i(Inst::Sse {
                        op: SseOp::Xorps,
                        src: XmmMem::Xmm(d),
                        dst: d,
                    });
                } else {
                    let t = self.new_vreg(RegClass::Int);
                    let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
                    let size = if matches!(ty, Type::F16 | Type::F32) {
                        Size::S32
                    } else {
                        Size::S64
                    };
                    b.i(Inst::Mov {
                        size,
                        src: Rmi::Imm(bits as u64 as i64),
                        dst: Rm::Reg(tg),
                    });
                    b.i(Inst::MovGprToXmm {
                        size,
                        src: Rm::Reg(tg),
                        dst: d,
                    });
                }
            }
            Op::SlotAddr(_) | Op::SymAddr { .. } | Op::BlockAddr(_) => {
                let d = b.def_g(r);
                self.addr_into(&mut b, &op, d)?;
            }
            _ => unreachable!(),
        }
        self.emit(b);
        Ok(r)
    }

    fn sym_direct(&self, s: ir::Sym) -> bool {
        let sd = self.m.sym(s);
        self.opts.pic.reaches_directly(sd.local, sd.defined)
    }

    /// Computes the address of a slot/symbol/block into `d`.
    fn addr_into(&mut self, b: &mut B, op: &Op, d: Gpr) -> Result<(), BackendError> {
        match *op {
            Op::SlotAddr(s) => {
                let align = self.f.slots[s.index()].align;
                if align > 16 {
                    b.i(Inst::Lea {
                        size: Size::S64,
                        src: Mem::base(Gpr::RBP, self.slot_off[s.index()] + align as i32 - 1),
                        dst: d,
                    });
                    b.i(Inst::Alu {
                        op: AluOp::And,
                        size: Size::S64,
                        src: Rmi::Imm(-(align as i64)),
                        dst: Rm::Reg(d),
                    });
                } else {
                    b.i(Inst::Lea {
                        size: Size::S64,
                        src: Mem::base(Gpr::RBP, self.slot_off[s.index()]),
                        dst: d,
                    })
                }
            }
            Op::BlockAddr(blk) => {
                let lab = self.block_addr_label(blk)?;
                b.i(Inst::Lea {
                    size: Size::S64,
                    src: Mem::rip_label(lab, 0),
                    dst: d,
                })
            }
            Op::SymAddr { sym, offset } => {
                let sd = self.m.sym(sym);
                let id = self.syms[sym.index()];
                let off32 = i32::try_from(offset).ok();
                if sd.kind == ir::SymKind::Tls {
                    let local = sd.local || sd.defined;
                    if self.opts.pic != Pic::Pic && local {
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Mem(Mem::fs_abs(0)),
                            dst: Rm::Reg(d),
                        });
                        b.i(Inst::Lea {
                            size: Size::S64,
                            src: Mem::base(d, 0).with_sym(id, RelocKind::TpOff32),
                            dst: d,
                        });
                    } else if self.opts.pic != Pic::Pic || sd.local {
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Mem(Mem::rip(id, RelocKind::GotTpOff, 0)),
                            dst: Rm::Reg(d),
                        });
                        b.i(Inst::Alu {
                            op: AluOp::Add,
                            size: Size::S64,
                            src: Rmi::Mem(Mem::fs_abs(0)),
                            dst: Rm::Reg(d),
                        });
                    } else {
                        return Err(self.err(&format!(
                            "the address of the external thread-local `{}` under -fPIC (general-dynamic TLS)",
                            sd.name
                        )));
                    }
                    if offset != 0 {
                        let o = off32.ok_or_else(|| self.err("a huge symbol offset"))?;
                        b.i(Inst::Lea {
                            size: Size::S64,
                            src: Mem::base(d, o),
                            dst: d,
                        });
                    }
                    return Ok(());
                }
                if self.sym_direct(sym) {
                    let o = off32.ok_or_else(|| self.err("a huge symbol offset"))?;
                    b.i(Inst::Lea {
                        size: Size::S64,
                        src: Mem::rip(id, RelocKind::Pc32, o),
                        dst: d,
                    });
                } else {
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Mem(Mem::rip(id, RelocKind::RexGotPcRelX, 0)),
                        dst: Rm::Reg(d),
                    });
                    if offset != 0 {
                        if let Some(o) = off32 {
                            b.i(Inst::Lea {
                                size: Size::S64,
                                src: Mem::base(d, o),
                                dst: d,
                            });
                        } else {
                            return Err(self.err("a huge symbol offset"));
                        }
                    }
                }
            }
            _ => unreachable!(),
        }
        Ok(())
    }

    fn block_addr_label(&mut self, blk: ir::Block) -> Result<Label, BackendError> {
        if let Some(&lp) = self.landing.get(&blk) {
            return Ok(block_label(lp));
        }
        let v = self.ir2v[blk.index()];
        if v == usize::MAX {
            return Err(self.err("the address of an unreachable block"));
        }
        Ok(block_label(v))
    }

    /// A memory operand for `addr + off`, folding slot and direct symbol addresses.
    fn mem(&mut self, b: &mut B, addr: Value, off: i64) -> Result<Mem, BackendError> {
        match self.def_of(addr) {
            Some(Op::Binary {
                op: BinaryOp::Add,
                a,
                b: c,
            }) if self.folded_add(addr) => {
                // A constant too far for a displacement stays an index register.
                if let Some(k) = self.const_of(*c).filter(|&k| fits32(off.wrapping_add(k))) {
                    return self.mem(b, *a, off + k);
                }
                let (idx, scale) = match self.scaled(*c) {
                    Some((x, sc)) if self.folded_add(*c) || self.is_skipped(*c) => (x, sc),
                    _ => (*c, 1),
                };
                if !fits32(off) {
                    return Err(self.err("a memory offset beyond 32 bits"));
                }
                let (a, idx) = (*a, idx);
                let br = self.reg(a)?;
                let ir = self.reg(idx)?;
                let bg = b.use_g(br);
                let ig = b.use_g(ir);
                return Ok(Mem::bis(bg, ig, scale, off as i32));
            }
            Some(Op::Conv {
                op: ConvOp::Bitcast,
                arg,
                ..
            }) if self.is_skipped(addr) => {
                return self.mem(b, *arg, off);
            }
            Some(Op::SlotAddr(s)) if self.f.slots[s.index()].align <= 16 => {
                let d = self.slot_off[s.index()] as i64 + off;
                if fits32(d) {
                    return Ok(Mem::base(Gpr::RBP, d as i32));
                }
            }
            Some(Op::SymAddr { sym, offset })
                if self.m.sym(*sym).kind != ir::SymKind::Tls && self.sym_direct(*sym) =>
            {
                let d = offset + off;
                if fits32(d) {
                    return Ok(Mem::rip(self.syms[sym.index()], RelocKind::Pc32, d as i32));
                }
            }
            _ => {}
        }
        let r = self.reg(addr)?;
        if !fits32(off) {
            return Err(self.err("a memory offset beyond 32 bits"));
        }
        Ok(Mem::base(b.use_g(r), off as i32))
    }

    // ---------- driver ----------

    fn run(&mut self) -> Result<(), BackendError> {
        let f = self.f;
        // Refusals first.
        for v in &f.values {
            if v.ty == Type::F128 {
                return Err(self.err("__float128 arithmetic"));
            }
        }
        for p in std::iter::once(&f.plan).chain(f.plans.iter()) {
            for l in p.arguments.iter().chain(p.returns.iter()) {
                if let Place::Reg(r) = l.place {
                    if dwarf_to_preg(r).is_none() && r != 33 && r != 34 {
                        return Err(self.err(&format!("a plan location in register {r}")));
                    }
                }
            }
        }
        // Slots.
        for s in &f.slots {
            // Over-aligned slots (rbp is only 16-aligned) get room to align at run time.
            let (size, align) = if s.align > 16 {
                (s.size.max(1) + s.align as u64 - 16, 16)
            } else {
                (s.size.max(1), s.align.max(1))
            };
            let o = self.frame_slot(size, align);
            self.slot_off.push(o);
        }
        for p in &f.plans {
            for l in &p.arguments {
                if matches!(l.place, Place::Stack(_)) && l.align > 16 {
                    self.realign = self.realign.max(l.align.next_power_of_two());
                }
            }
        }
        if f.variadic {
            let o = self.frame_slot(176, 16);
            self.va_save = Some(o);
        }
        // Uses.
        for bd in &f.blocks {
            for &i in &bd.insts {
                let op = &f.inst(i).op;
                op.for_each_operand(|v| self.uses[v.index()] += 1);
                match op {
                    Op::Branch { cond, .. } | Op::Select { cond, .. } => {
                        self.cond_uses[cond.index()] += 1
                    }
                    _ => {}
                }
            }
        }
        self.remove_dead();
        self.refuse_half_arithmetic()?;
        self.fold_address_adds();
        if self.opts.opt_level > 0 {
            self.fold_rmw();
            self.fold_loads();
        }
        // Reachability and predecessor edge counts.
        let mut reach = vec![false; f.blocks.len()];
        let mut stack = vec![0usize];
        reach[0] = true;
        let mut has_indirect = false;
        while let Some(b) = stack.pop() {
            if let Some(t) = f.terminator(ir::Block(b as u32)) {
                if matches!(t, Op::IndirectJump { .. }) {
                    has_indirect = true;
                }
                for k in 0..successor_count(t) {
                    let s = successor(t, k).index();
                    if !reach[s] {
                        reach[s] = true;
                        stack.push(s);
                    }
                }
            }
        }
        for (b, bd) in f.blocks.iter().enumerate() {
            if !reach[b] {
                continue;
            }
            if let Some(&last) = bd.insts.last() {
                match &f.inst(last).op {
                    Op::IndirectJump { .. } => {}
                    t => {
                        for k in 0..successor_count(t) {
                            self.pred_edges[successor(t, k).index()] += 1;
                        }
                    }
                }
            }
        }
        // Vblocks for the reachable IR blocks, in reverse postorder: regalloc2's Fastalloc
        // walks blocks backwards by index with one live set, so a value's defining block
        // must come before every block that uses it. They are lowered in that order too.
        let rpo = reverse_postorder(f);
        for &b in &rpo {
            let v = self.new_block();
            self.blocks[v].origin = v;
            self.ir2v[b] = v;
        }
        self.main_blocks = self.blocks.len();
        self.main_lens.resize(self.main_blocks, 0);
        if self.ir2v[0] != 0 {
            return Err(self.err("a function without an entry block"));
        }
        if self.pred_edges[0] > 0 {
            return Err(self.err("a branch to the entry block"));
        }
        // Landing pads for address-taken blocks, reached from one dispatch block.
        if has_indirect {
            let mut targets = Vec::new();
            for bd in &f.blocks {
                for &i in &bd.insts {
                    if let Op::IndirectJump { targets: t, .. } = &f.inst(i).op {
                        targets.extend(t.iter().copied());
                    }
                    if let Op::BlockAddr(t) = &f.inst(i).op {
                        targets.push(*t);
                    }
                }
            }
            targets.sort();
            targets.dedup();
            let d = self.new_block();
            self.blocks[d].origin = d;
            let addr = self.new_vreg(RegClass::Int);
            self.blocks[d].params.push(addr);
            self.dispatch = Some((d, addr));
            for t in targets {
                if self.ir2v[t.index()] == usize::MAX {
                    continue;
                }
                if !f.blocks[t.index()].params.is_empty() {
                    return Err(self.err("an indirect jump to a block with parameters"));
                }
                let lp = self.new_block();
                self.blocks[lp].origin = lp;
                self.landing.insert(t, lp);
                self.pred_edges[t.index()] += 1;
                self.blocks[d].succs.push(regalloc2::Block::new(lp));
                self.blocks[lp]
                    .succs
                    .push(regalloc2::Block::new(self.ir2v[t.index()]));
                self.blocks[lp].insts.push(VInst {
                    term: Term::Jump,
                    ..VInst::new(vec![], vec![])
                });
            }
            let mut b = B::default();
            let a = b.use_g(addr);
            b.i(Inst::JmpInd { target: Rm::Reg(a) });
            let mut vi = b.vinst();
            vi.term = Term::Indirect;
            self.blocks[d].insts.push(vi);
        }
        // Block parameters.
        for (b, bd) in f.blocks.iter().enumerate() {
            if !reach[b] || b == 0 {
                continue;
            }
            let vb = self.ir2v[b];
            for &p in &bd.params {
                if self.ty(p) == Type::F80 {
                    let o = self.frame_slot(16, 16);
                    self.f80.insert(p, Mem::base(Gpr::RBP, o));
                } else if self.ty(p) == Type::I128 {
                    let (lo, hi) = self.pair(p)?;
                    self.blocks[vb].params.push(lo);
                    self.blocks[vb].params.push(hi);
                } else {
                    let r = self.vreg(p)?;
                    self.blocks[vb].params.push(r);
                }
            }
        }
        for &b in &rpo {
            self.cur = self.ir2v[b];
            if b == 0 {
                self.lower_entry()?;
            }
            for &i in &f.blocks[b].insts {
                self.lower_inst(i)?;
            }
        }
        Ok(())
    }

    /// Marks pure instructions whose results are never used (transitively) as skipped, so
    /// that use counts, and with them compare fusion, see only live uses.
    fn remove_dead(&mut self) {
        let f = self.f;
        let pure = Op::is_pure;
        let mut work: Vec<ir::Inst> = (0..f.insts.len() as u32).map(ir::Inst).collect();
        while let Some(i) = work.pop() {
            let d = f.inst(i);
            let Some(r) = d.result else { continue };
            if self.skip[i.index()] || self.uses[r.index()] != 0 || !pure(&d.op) {
                continue;
            }
            self.skip[i.index()] = true;
            if let Op::Select { cond, .. } = &d.op {
                self.cond_uses[cond.index()] -= 1;
            }
            d.op.for_each_operand(|v| {
                self.uses[v.index()] -= 1;
                if self.uses[v.index()] == 0 {
                    if let ir::ValueDef::Result(di, _) = f.values[v.index()].def {
                        work.push(di);
                    }
                }
            });
        }
    }

    /// `_Float16` values are constants, loaded, stored, passed and returned (in xmm
    /// registers, as the psABI says), and nothing else yet: a live instruction computing
    /// with one (a conversion included) is refused by name.
    fn refuse_half_arithmetic(&self) -> Result<(), BackendError> {
        let f = self.f;
        if !f.values.iter().any(|v| v.ty == Type::F16) {
            return Ok(());
        }
        for bd in &f.blocks {
            for &i in &bd.insts {
                let op = &f.inst(i).op;
                if self.skip[i.index()]
                    || matches!(
                        op,
                        Op::Fconst { .. }
                            | Op::Load { .. }
                            | Op::Store { .. }
                            | Op::Call { .. }
                            | Op::Return(_)
                            | Op::Jump(_)
                            | Op::Branch { .. }
                    )
                {
                    continue;
                }
                let mut half = f.inst_results(i).iter().any(|&r| self.ty(r) == Type::F16);
                op.for_each_operand(|v| half |= f.value_type(v) == Type::F16);
                if half {
                    return Err(self.err("_Float16 arithmetic"));
                }
            }
        }
        Ok(())
    }

    /// `p + c` used only as the address of one load or store is folded into its memory
    /// operand.
    fn fold_address_adds(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                if self.skip[i.index()] {
                    continue;
                }
                let addr = match &f.inst(i).op {
                    Op::Load { addr, .. } => *addr,
                    Op::Store { addr, value, .. } if value != addr => *addr,
                    _ => continue,
                };
                if self.uses[addr.index()] != 1 || self.ty(addr) != Type::Ptr {
                    continue;
                }
                // Look through a bitcast from an integer address computation.
                let mut addr = addr;
                if let ir::ValueDef::Result(ci, _) = f.values[addr.index()].def {
                    if let Op::Conv {
                        op: ConvOp::Bitcast,
                        arg,
                        ..
                    } = &f.inst(ci).op
                    {
                        if self.ty(*arg) == Type::I64
                            && self.uses[arg.index()] == 1
                            && matches!(
                                self.def_of(*arg),
                                Some(Op::Binary {
                                    op: BinaryOp::Add,
                                    ..
                                })
                            )
                        {
                            self.skip[ci.index()] = true;
                            addr = *arg;
                        }
                    }
                }
                if let ir::ValueDef::Result(di, _) = f.values[addr.index()].def {
                    if let Op::Binary {
                        op: BinaryOp::Add,
                        b,
                        ..
                    } = &f.inst(di).op
                    {
                        if self.const32(*b).is_some() {
                            self.skip[di.index()] = true;
                        } else if matches!(self.ty(*b), Type::I64 | Type::Ptr) {
                            // base + index (* scale)
                            self.skip[di.index()] = true;
                            if self.scaled(*b).is_some() && self.uses[b.index()] == 1 {
                                if let ir::ValueDef::Result(si, _) = f.values[b.index()].def {
                                    self.skip[si.index()] = true;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `x << k` or `x * 2^k` with k <= 3: (x, scale).
    fn scaled(&self, v: Value) -> Option<(Value, u8)> {
        match self.def_of(v)? {
            Op::Binary {
                op: BinaryOp::Shl,
                a,
                b,
            } => match self.const_of(*b)? {
                k @ 0..=3 => Some((*a, 1 << k)),
                _ => None,
            },
            Op::Binary {
                op: BinaryOp::Mul,
                a,
                b,
            } => match self.const_of(*b)? {
                k @ (1 | 2 | 4 | 8) => Some((*a, k as u8)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A load whose only use is the second operand of an ALU operation or compare later in
    /// the same block, with nothing but pure instructions between them, becomes that
    /// operation's memory operand.
    fn fold_loads(&mut self) {
        let f = self.f;
        let pure = Op::is_pure;
        for bd in &f.blocks {
            let pos: HashMap<ir::Inst, usize> =
                bd.insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
            for (j, &ui) in bd.insts.iter().enumerate() {
                if self.skip[ui.index()] {
                    continue;
                }
                let (cand, at) = match &f.inst(ui).op {
                    Op::Binary { op, a, b } => match op {
                        BinaryOp::Add
                        | BinaryOp::Sub
                        | BinaryOp::And
                        | BinaryOp::Or
                        | BinaryOp::Xor
                        | BinaryOp::Mul
                            if matches!(self.ty(*a), Type::I32 | Type::I64 | Type::Ptr) =>
                        {
                            (*b, j)
                        }
                        BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv
                            if matches!(self.ty(*a), Type::F32 | Type::F64) =>
                        {
                            (*b, j)
                        }
                        _ => continue,
                    },
                    Op::Conv {
                        op: ConvOp::Sext | ConvOp::Zext,
                        arg,
                        to,
                    } if matches!(self.ty(*arg), Type::I8 | Type::I16 | Type::I32)
                        && matches!(to, Type::I16 | Type::I32 | Type::I64 | Type::Ptr) =>
                    {
                        (*arg, j)
                    }
                    Op::Icmp { a, b, .. } | Op::Fcmp { a, b, .. } => {
                        let r = f.inst(ui).result.unwrap();
                        let x = match &f.inst(ui).op {
                            Op::Fcmp {
                                cc: FloatCC::Lt | FloatCC::Le,
                                ..
                            } => *a,
                            Op::Fcmp { .. } => *b,
                            _ => *b,
                        };
                        if matches!(self.ty(*a), Type::I128 | Type::F80)
                            || (self.ty(*a).is_int() && self.const32(*a).is_some())
                        {
                            continue;
                        }
                        // A fused compare is emitted at its branch or select.
                        let at = if self.uses[r.index()] == 1 && self.cond_uses[r.index()] == 1 {
                            match bd.insts[j + 1..].iter().position(|&k| {
                                matches!(&f.inst(k).op,
                                    Op::Branch { cond, .. } | Op::Select { cond, .. } if *cond == r)
                            }) {
                                Some(d) => j + 1 + d,
                                None => continue,
                            }
                        } else {
                            j
                        };
                        (x, at)
                    }
                    _ => continue,
                };
                if self.uses[cand.index()] != 1 {
                    continue;
                }
                let ir::ValueDef::Result(li, _) = f.values[cand.index()].def else {
                    continue;
                };
                let Op::Load { ty, flags, .. } = &f.inst(li).op else {
                    continue;
                };
                if flags.volatile || self.skip[li.index()] || matches!(ty, Type::I128 | Type::F80) {
                    continue;
                }
                let Some(&i) = pos.get(&li) else { continue };
                if i >= at || !bd.insts[i + 1..at].iter().all(|&k| pure(&f.inst(k).op)) {
                    continue;
                }
                self.skip[li.index()] = true;
            }
        }
    }

    /// `store (load p) op x, p` in one block with only pure instructions between becomes
    /// `op x, (p)`.
    fn fold_rmw(&mut self) {
        let f = self.f;
        let pure = Op::is_pure;
        let same_addr = |l: &Self, x: Value, y: Value| {
            x == y
                || match (l.def_of(x), l.def_of(y)) {
                    (Some(Op::SlotAddr(a)), Some(Op::SlotAddr(b))) => a == b,
                    (
                        Some(Op::SymAddr { sym: a, offset: oa }),
                        Some(Op::SymAddr { sym: b, offset: ob }),
                    ) => a == b && oa == ob,
                    _ => false,
                }
        };
        for bd in &f.blocks {
            let pos: HashMap<ir::Inst, usize> =
                bd.insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
            for (j, &si) in bd.insts.iter().enumerate() {
                let Op::Store {
                    value,
                    addr,
                    offset,
                    flags,
                } = &f.inst(si).op
                else {
                    continue;
                };
                let ty = self.ty(*value);
                if flags.volatile
                    || !matches!(ty, Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Ptr)
                    || self.uses[value.index()] != 1
                {
                    continue;
                }
                let ir::ValueDef::Result(bi, _) = f.values[value.index()].def else {
                    continue;
                };
                let Op::Binary { op, a, b } = &f.inst(bi).op else {
                    continue;
                };
                let aop = match op {
                    BinaryOp::Add => AluOp::Add,
                    BinaryOp::Sub => AluOp::Sub,
                    BinaryOp::And => AluOp::And,
                    BinaryOp::Or => AluOp::Or,
                    BinaryOp::Xor => AluOp::Xor,
                    _ => continue,
                };
                let is_load = |l: &Self, v: Value| -> Option<ir::Inst> {
                    let ir::ValueDef::Result(li, _) = f.values[v.index()].def else {
                        return None;
                    };
                    match &f.inst(li).op {
                        Op::Load {
                            ty: lt,
                            addr: la,
                            offset: lo,
                            flags: lf,
                        } if *lt == ty
                            && *lo == *offset
                            && !lf.volatile
                            && l.uses[v.index()] == 1
                            && !l.skip[li.index()]
                            && same_addr(l, *la, *addr) =>
                        {
                            Some(li)
                        }
                        _ => None,
                    }
                };
                let (li, x) = match (is_load(self, *a), is_load(self, *b)) {
                    (Some(li), _) => (li, *b),
                    (None, Some(li)) if aop != AluOp::Sub => (li, *a),
                    _ => continue,
                };
                let (Some(&i), Some(&k)) = (pos.get(&li), pos.get(&bi)) else {
                    continue;
                };
                if self.skip[bi.index()]
                    || !(i < k && k < j)
                    || !bd.insts[i + 1..j].iter().all(|&t| pure(&f.inst(t).op))
                {
                    continue;
                }
                self.skip[li.index()] = true;
                self.skip[bi.index()] = true;
                self.rmw.insert(si, (aop, x));
            }
        }
    }

    /// The memory operand of a load folded into its user.
    fn folded_load(&mut self, b: &mut B, v: Value) -> Result<Option<Mem>, BackendError> {
        if !self.is_skipped(v) {
            return Ok(None);
        }
        match self.def_of(v) {
            Some(&Op::Load { addr, offset, .. }) => Ok(Some(self.mem(b, addr, offset as i64)?)),
            _ => Ok(None),
        }
    }

    fn is_skipped(&self, v: Value) -> bool {
        match self.f.values[v.index()].def {
            ir::ValueDef::Result(di, _) => self.skip[di.index()],
            _ => false,
        }
    }

    fn folded_add(&self, v: Value) -> bool {
        match self.f.values[v.index()].def {
            ir::ValueDef::Result(di, _) => {
                self.skip[di.index()] && matches!(self.f.inst(di).op, Op::Binary { .. })
            }
            _ => false,
        }
    }

    fn f80_home(&mut self, v: Value) -> Mem {
        if let Some(&m) = self.f80.get(&v) {
            return m;
        }
        let o = self.frame_slot(16, 16);
        let m = Mem::base(Gpr::RBP, o);
        self.f80.insert(v, m);
        m
    }

    fn lower_entry(&mut self) -> Result<(), BackendError> {
        let f = self.f;
        let params = f.blocks[0].params.clone();
        let mut b = B::default();
        let mut after: Vec<B> = Vec::new();
        let mut scratch_out: Vec<B> = Vec::new();
        let nargs = f.plan.arguments.len();
        let sret: Vec<&Location> = f
            .plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        for (i, &p) in params.iter().enumerate() {
            let loc = if i < nargs {
                &f.plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            let ty = self.ty(p);
            match loc.place {
                Place::Reg(r) => {
                    if ty == Type::F80 {
                        return Err(self.err("an x87 argument in a register"));
                    }
                    let v = self.vreg(p)?;
                    let preg = dwarf_to_preg(r).ok_or_else(|| self.err("argument register"))?;
                    if scratch_place(preg) {
                        scratch_out.push(scratch_move(v, preg, false));
                    } else {
                        b.fixed_def(v, preg);
                    }
                }
                Place::Stack(off) => {
                    let m = Mem::base(Gpr::RBP, 16 + off as i32);
                    if f.param_mem.contains(&(i as u32)) {
                        let v = self.vreg(p)?;
                        let mut a = B::default();
                        let d = a.def_g(v);
                        a.i(Inst::Lea {
                            size: Size::S64,
                            src: m,
                            dst: d,
                        });
                        after.push(a);
                    } else if ty == Type::F80 {
                        self.f80.insert(p, m);
                    } else {
                        let v = self.vreg(p)?;
                        let mut a = B::default();
                        load_into(&mut a, ty, m, v);
                        after.push(a);
                    }
                }
            }
        }
        self.emit(b);
        for a in scratch_out {
            self.emit(a);
        }
        for a in after {
            self.emit(a);
        }
        Ok(())
    }

    fn lower_inst(&mut self, i: ir::Inst) -> Result<(), BackendError> {
        if self.skip[i.index()] {
            return Ok(());
        }
        let f = self.f;
        let data = f.inst(i);
        let res = data.result;
        if self.involves_i128(&data.op, res) {
            return self.lower_i128(&data.op, res);
        }
        match &data.op {
            Op::Iconst { .. } | Op::SymAddr { .. } | Op::SlotAddr(_) | Op::BlockAddr(_) => {
                if let Some(r) = res {
                    if let Op::BlockAddr(t) = &data.op {
                        self.block_addr_label(*t)?;
                    }
                    if !self.is_remat(r) {
                        return Err(self.err("a constant of this type"));
                    }
                }
                Ok(())
            }
            Op::Fconst { ty, bits } => {
                let bits = &bits.get();
                let r = res.unwrap();
                match ty {
                    Type::F16 | Type::F32 | Type::F64 => Ok(()),
                    Type::F80 => {
                        let m = self.f80_home(r);
                        let mut b = B::default();
                        let t = self.new_vreg(RegClass::Int);
                        let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Imm(*bits as u64 as i64),
                            dst: Rm::Reg(tg),
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Reg(tg),
                            dst: Rm::Mem(m),
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Imm((*bits >> 64) as u16 as i64),
                            dst: Rm::Mem(Mem {
                                disp: m.disp + 8,
                                ..m
                            }),
                        });
                        self.emit(b);
                        Ok(())
                    }
                    _ => Err(self.err("a __float128 constant")),
                }
            }
            Op::Unary { op, arg } => self.lower_unary(*op, *arg, res.unwrap()),
            Op::Binary { op, a, b } => self.lower_binary(*op, *a, *b, res.unwrap()),
            Op::Icmp { .. } | Op::Fcmp { .. } => {
                let r = res.unwrap();
                if self.uses[r.index()] == 1 && self.cond_uses[r.index()] == 1 {
                    return Ok(()); // fused into its branch/select
                }
                let mut b = B::default();
                let cs = self.compare(&mut b, &data.op)?;
                let d = self.vreg(r)?;
                let dg = b.def_g(d);
                self.setcc(&mut b, cs, dg);
                self.emit(b);
                Ok(())
            }
            Op::Conv { op, arg, to } => self.lower_conv(*op, *arg, *to, res.unwrap()),
            Op::Select { cond, a, b: bb } => self.lower_select(*cond, *a, *bb, res.unwrap()),
            Op::Load {
                ty, addr, offset, ..
            } => {
                let r = res.unwrap();
                let mut b = B::default();
                let m = self.mem(&mut b, *addr, *offset as i64)?;
                if *ty == Type::F80 {
                    let h = self.f80_home(r);
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fldt,
                        mem: m,
                    });
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fstpt,
                        mem: h,
                    });
                } else {
                    let v = self.vreg(r)?;
                    load_into(&mut b, *ty, m, v);
                }
                self.emit(b);
                Ok(())
            }
            Op::Store { addr, offset, .. } if self.rmw.contains_key(&i) => {
                let (aop, x) = self.rmw[&i];
                let ty = self.ty(x);
                let mut b = B::default();
                let src = match self.const32(x) {
                    Some(c) => Rmi::Imm(imm_of(ty, c as i128)),
                    None => {
                        let r = self.reg(x)?;
                        Rmi::Reg(b.use_g(r))
                    }
                };
                let m = self.mem(&mut b, *addr, *offset as i64)?;
                b.i(Inst::Alu {
                    op: aop,
                    size: size_of(ty),
                    src,
                    dst: Rm::Mem(m),
                });
                self.emit(b);
                Ok(())
            }
            Op::Store {
                value,
                addr,
                offset,
                ..
            } => {
                let ty = self.ty(*value);
                let mut b = B::default();
                if ty == Type::F80 {
                    let h = self.f80_home(*value);
                    let m = self.mem(&mut b, *addr, *offset as i64)?;
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fldt,
                        mem: h,
                    });
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fstpt,
                        mem: m,
                    });
                    self.emit(b);
                    return Ok(());
                }
                let src = self.store_src(&mut b, *value)?;
                let m = self.mem(&mut b, *addr, *offset as i64)?;
                store_from(&mut b, ty, src, m);
                self.emit(b);
                Ok(())
            }
            Op::Call(c) => self.lower_call(&c.callee, &c.args, &c.arg_mem, c.plan, &c.results),
            Op::Copy { dst, src, size, .. } => self.lower_copy(*dst, *src, *size),
            Op::Zero { dst, size, .. } => self.lower_zero(*dst, *size),
            Op::Alloca { size, align } => self.lower_alloca(*size, *align, res.unwrap()),
            Op::StackSave | Op::FrameAddress => {
                let d = self.vreg(res.unwrap())?;
                let mut b = B::default();
                let dg = b.def_g(d);
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(if matches!(data.op, Op::FrameAddress) {
                        // Every function keeps rbp as its frame pointer.
                        Gpr::RBP
                    } else {
                        Gpr::RSP
                    }),
                    dst: Rm::Reg(dg),
                });
                self.emit(b);
                Ok(())
            }
            Op::StackRestore(v) => {
                let r = self.reg(*v)?;
                let mut b = B::default();
                let s = b.use_g(r);
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(s),
                    dst: Rm::Reg(Gpr::RSP),
                });
                self.emit(b);
                Ok(())
            }
            Op::VaStart(list) => self.lower_va_start(*list),
            Op::AtomicRmw {
                op,
                ty,
                addr,
                value,
            } => self.lower_rmw(*op, *ty, *addr, *value, res.unwrap()),
            Op::AtomicCas {
                ty,
                addr,
                expected,
                new,
            } => {
                let r = res.unwrap();
                let size = size_of(*ty);
                let e = self.reg(*expected)?;
                let n = self.reg(*new)?;
                let d = self.vreg(r)?;
                let mut b = B::default();
                let m = self.mem(&mut b, *addr, 0)?;
                let ng = b.use_g(n);
                b.fixed_use(e, preg_gpr(0));
                b.fixed_def(d, preg_gpr(0));
                b.i(Inst::LockCmpxchg {
                    size,
                    src: ng,
                    dst: m,
                });
                self.emit(b);
                Ok(())
            }
            Op::InlineAsm(a) => self.lower_inline_asm(a),
            Op::Fence => {
                let mut b = B::default();
                b.i(Inst::Mfence);
                self.emit(b);
                Ok(())
            }
            Op::Jump(bc) => {
                let t = self.ir2v[bc.block.index()];
                self.jump_to(t, bc.block, &bc.args)
            }
            Op::Branch { cond, then, els } => self.lower_branch(*cond, then, els),
            Op::Switch {
                value,
                cases,
                default,
            } => self.lower_switch(*value, cases, *default),
            Op::IndirectJump { addr, .. } => {
                let (d, _) = self.dispatch.unwrap();
                let r = self.reg(*addr)?;
                self.blocks[self.cur].succs.push(regalloc2::Block::new(d));
                self.blocks[self.cur].args.push(vec![r]);
                self.push(VInst {
                    term: Term::Jump,
                    ..VInst::new(vec![], vec![])
                });
                Ok(())
            }
            Op::Return(vals) => self.lower_return(vals),
            Op::NonLocalGoto { fp, sp, target } => {
                // Into another activation's frame: its frame and stack pointers, then its
                // landing pad (the address it took). Nothing here is live afterwards.
                let (rf, rs, rt) = (self.reg(*fp)?, self.reg(*sp)?, self.reg(*target)?);
                let mut b = B::default();
                let (gf, gs, gt) = (b.use_g(rf), b.use_g(rs), b.use_g(rt));
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(gs),
                    dst: Rm::Reg(Gpr::RSP),
                });
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(gf),
                    dst: Rm::Reg(Gpr::RBP),
                });
                b.i(Inst::JmpInd {
                    target: Rm::Reg(gt),
                });
                let mut vi = b.vinst();
                vi.term = Term::Trap;
                self.push(vi);
                Ok(())
            }
            Op::Unreachable | Op::Trap => {
                let mut b = B::default();
                b.i(Inst::Ud2);
                let mut vi = b.vinst();
                vi.term = Term::Trap;
                self.push(vi);
                Ok(())
            }
        }
    }

    /// A register or immediate for a value about to be stored.
    fn store_src(&mut self, b: &mut B, v: Value) -> Result<StoreSrc, BackendError> {
        let ty = self.ty(v);
        if ty.is_int() {
            if let Some(c) = self.const32(v) {
                return Ok(StoreSrc::Imm(c));
            }
            let r = self.reg(v)?;
            Ok(StoreSrc::Gpr(b.use_g(r)))
        } else {
            let r = self.reg(v)?;
            Ok(StoreSrc::Xmm(b.use_x(r)))
        }
    }

    // ---------- arithmetic ----------

    fn lower_unary(&mut self, op: UnaryOp, arg: Value, r: Value) -> Result<(), BackendError> {
        let ty = self.ty(arg);
        let mut b = B::default();
        // `neg` of a float is its negation (the verifier lets Neg/FNeg take either).
        let op = match op {
            UnaryOp::Neg if ty.is_float() => UnaryOp::FNeg,
            UnaryOp::Not if ty.is_float() => return Err(self.err("a bitwise not of a float")),
            UnaryOp::FNeg if ty.is_int() => return Err(self.err("a float negation of an integer")),
            op => op,
        };
        if ty == Type::F80 {
            let a = self.f80_home(arg);
            let h = self.f80_home(r);
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: a,
            });
            b.i(Inst::X87 { op: X87Op::Fchs });
            b.i(Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem: h,
            });
            self.emit(b);
            return Ok(());
        }
        let a = self.reg(arg)?;
        let d = self.vreg(r)?;
        match op {
            UnaryOp::Neg | UnaryOp::Not => {
                let ag = b.use_g(a);
                let dg = b.reuse_g(d, ag);
                b.i(Inst::Unary {
                    op: if op == UnaryOp::Neg {
                        UnOp::Neg
                    } else {
                        UnOp::Not
                    },
                    size: op_size(ty),
                    dst: Rm::Reg(dg),
                });
            }
            UnaryOp::FNeg => {
                // d = a ^ sign bit
                let t = self.new_vreg(RegClass::Int);
                let ax = b.use_x(a);
                let dx = b.reuse_x(d, ax);
                let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
                let tx = self.new_vreg(RegClass::Float);
                let txx = ph_xmm(b.op(early_def(tx, OperandConstraint::Reg)));
                fneg_insts(ty == Type::F32, dx, tg, txx, |i| b.i(i));
            }
        }
        self.emit(b);
        Ok(())
    }

    fn lower_binary(
        &mut self,
        op: BinaryOp,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        let ty = self.ty(a);
        let mut b = B::default();
        if ty == Type::F80 {
            let (ha, hb, hr) = (self.f80_home(a), self.f80_home(bv), self.f80_home(r));
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: ha,
            });
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: hb,
            });
            let o = match op {
                BinaryOp::FAdd => X87RegOp::Faddp,
                BinaryOp::FSub => X87RegOp::Fsubrp,
                BinaryOp::FMul => X87RegOp::Fmulp,
                BinaryOp::FDiv => X87RegOp::Fdivrp,
                _ => return Err(self.err("an integer operation on long double")),
            };
            b.i(Inst::X87Reg { op: o, st: 1 });
            b.i(Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem: hr,
            });
            self.emit(b);
            return Ok(());
        }
        let size = op_size(ty);
        match op {
            BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv => {
                let sop = sse_arith_op(op, ty == Type::F64);
                let ar = self.reg(a)?;
                let d = self.vreg(r)?;
                let ax = b.use_x(ar);
                let src = match self.folded_load(&mut b, bv)? {
                    Some(m) => XmmMem::Mem(m),
                    None => {
                        let br = self.reg(bv)?;
                        XmmMem::Xmm(b.use_x(br))
                    }
                };
                let dx = b.reuse_x(d, ax);
                b.i(Inst::Sse {
                    op: sop,
                    src,
                    dst: dx,
                });
            }
            BinaryOp::Add | BinaryOp::Sub if self.const32(bv).is_some() => {
                let c = self.const32(bv).unwrap() as i64;
                let c = if op == BinaryOp::Sub { -c } else { c };
                let ar = self.reg(a)?;
                let d = self.vreg(r)?;
                let ag = b.use_g(ar);
                let dg = b.def_g(d);
                if fits32(c) {
                    b.i(Inst::Lea {
                        size,
                        src: Mem::base(ag, c as i32),
                        dst: dg,
                    });
                } else {
                    b.i(Inst::Mov {
                        size,
                        src: Rmi::Reg(ag),
                        dst: Rm::Reg(dg),
                    });
                    b.i(Inst::Alu {
                        op: AluOp::Sub,
                        size,
                        src: Rmi::Imm(i32::MIN as i64),
                        dst: Rm::Reg(dg),
                    });
                }
            }
            BinaryOp::Add if self.is_skipped(bv) => {
                let ar = self.reg(a)?;
                let d = self.vreg(r)?;
                let ag = b.use_g(ar);
                let m = self.folded_load(&mut b, bv)?.unwrap();
                let dg = b.reuse_g(d, ag);
                b.i(Inst::Alu {
                    op: AluOp::Add,
                    size,
                    src: Rmi::Mem(m),
                    dst: Rm::Reg(dg),
                });
            }
            BinaryOp::Add => {
                let ar = self.reg(a)?;
                let br = self.reg(bv)?;
                let d = self.vreg(r)?;
                let ag = b.use_g(ar);
                let bg = b.use_g(br);
                let dg = b.def_g(d);
                b.i(Inst::Lea {
                    size,
                    src: Mem::bis(ag, bg, 1, 0),
                    dst: dg,
                });
            }
            BinaryOp::Sub | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let aop = match op {
                    BinaryOp::Sub => AluOp::Sub,
                    BinaryOp::And => AluOp::And,
                    BinaryOp::Or => AluOp::Or,
                    _ => AluOp::Xor,
                };
                let ar = self.reg(a)?;
                let d = self.vreg(r)?;
                let ag = b.use_g(ar);
                let src = match self.const32(bv) {
                    Some(c) => Rmi::Imm(c as i64),
                    None => match self.folded_load(&mut b, bv)? {
                        Some(m) => Rmi::Mem(m),
                        None => {
                            let br = self.reg(bv)?;
                            Rmi::Reg(b.use_g(br))
                        }
                    },
                };
                let dg = b.reuse_g(d, ag);
                b.i(Inst::Alu {
                    op: aop,
                    size,
                    src,
                    dst: Rm::Reg(dg),
                });
            }
            BinaryOp::Mul => {
                let ar = self.reg(a)?;
                let d = self.vreg(r)?;
                let ag = b.use_g(ar);
                if let Some(k) = self
                    .const32(bv)
                    .filter(|&c| c > 1 && (c as u32).is_power_of_two())
                    .map(|c| c.trailing_zeros() as u8)
                {
                    let dg = b.reuse_g(d, ag);
                    b.i(Inst::Shift {
                        op: ShiftOp::Shl,
                        size,
                        amount: Some(k),
                        dst: Rm::Reg(dg),
                    });
                } else if let Some(c) = self.const32(bv) {
                    let dg = b.def_g(d);
                    b.i(Inst::Imul3 {
                        size,
                        imm: c,
                        src: Rm::Reg(ag),
                        dst: dg,
                    });
                } else {
                    let src = match self.folded_load(&mut b, bv)? {
                        Some(m) => Rm::Mem(m),
                        None => {
                            let br = self.reg(bv)?;
                            Rm::Reg(b.use_g(br))
                        }
                    };
                    let dg = b.reuse_g(d, ag);
                    b.i(Inst::Imul2 { size, src, dst: dg });
                }
            }
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem
                if self.opts.opt_level > 0 && self.div_by_const(op, ty, a, bv, r)? =>
            {
                return Ok(())
            }
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem => {
                let signed = matches!(op, BinaryOp::SDiv | BinaryOp::SRem);
                let rem = matches!(op, BinaryOp::SRem | BinaryOp::URem);
                let ar = self.reg(a)?;
                let br = self.reg(bv)?;
                let ar = self.widen(ar, ty, signed);
                let br = self.widen(br, ty, signed);
                let d = self.vreg(r)?;
                b.fixed_use(ar, preg_gpr(0));
                let bg = b.use_late_g(br);
                if rem {
                    b.fixed_def(d, preg_gpr(2));
                } else {
                    b.fixed_def(d, preg_gpr(0));
                }
                div_insts(signed, size, Rm::Reg(bg), |i| b.i(i));
                let mut vi = b.vinst();
                vi.clobbers.add(if rem { preg_gpr(0) } else { preg_gpr(2) });
                self.push(vi);
                return Ok(());
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
                let ar = self.reg(a)?;
                let ar = match op {
                    BinaryOp::LShr => self.widen(ar, ty, false),
                    BinaryOp::AShr => self.widen(ar, ty, true),
                    _ => ar,
                };
                let d = self.vreg(r)?;
                let sop = match op {
                    BinaryOp::Shl => ShiftOp::Shl,
                    BinaryOp::LShr => ShiftOp::Shr,
                    _ => ShiftOp::Sar,
                };
                let ag = b.use_g(ar);
                let amount = match self.const_of(bv) {
                    Some(c) => Some((c as u8) & if size == Size::S64 { 63 } else { 31 }),
                    None => {
                        let br = self.reg(bv)?;
                        b.fixed_use(br, preg_gpr(1));
                        None
                    }
                };
                let dg = b.reuse_g(d, ag);
                b.i(Inst::Shift {
                    op: sop,
                    size,
                    amount,
                    dst: Rm::Reg(dg),
                });
            }
        }
        self.emit(b);
        Ok(())
    }

    // ---------- division by constants (-O1) ----------

    /// `dst = op(a, src)` in a new vreg (two-address ALU operation).
    fn alu_new(&mut self, op: AluOp, size: Size, a: VReg, src: Option<VReg>, imm: i32) -> VReg {
        let d = self.new_vreg(RegClass::Int);
        let mut b = B::default();
        let ag = b.use_g(a);
        let src = match src {
            Some(v) => Rmi::Reg(b.use_g(v)),
            None => Rmi::Imm(imm as i64),
        };
        let dg = b.reuse_g(d, ag);
        b.i(Inst::Alu {
            op,
            size,
            src,
            dst: Rm::Reg(dg),
        });
        self.emit(b);
        d
    }

    fn shift_new(&mut self, op: ShiftOp, size: Size, a: VReg, k: u8) -> VReg {
        let d = self.new_vreg(RegClass::Int);
        let mut b = B::default();
        let ag = b.use_g(a);
        let dg = b.reuse_g(d, ag);
        b.i(Inst::Shift {
            op,
            size,
            amount: Some(k),
            dst: Rm::Reg(dg),
        });
        self.emit(b);
        d
    }

    fn mov_new(&mut self, size: Size, src: Rmi, a: Option<VReg>) -> VReg {
        let d = self.new_vreg(RegClass::Int);
        let mut b = B::default();
        let src = match (src, a) {
            (_, Some(v)) => Rmi::Reg(b.use_g(v)),
            (s, None) => s,
        };
        let dg = b.def_g(d);
        b.i(Inst::Mov {
            size,
            src,
            dst: Rm::Reg(dg),
        });
        self.emit(b);
        d
    }

    /// The high 64 bits of the 128-bit product of `x` and the constant `m`.
    fn mulhi_new(&mut self, x: VReg, m: u64, signed: bool) -> VReg {
        let mr = self.mov_new(Size::S64, Rmi::Imm(m as i64), None);
        let hi = self.new_vreg(RegClass::Int);
        let mut b = B::default();
        b.fixed_use(x, preg_gpr(0));
        let mg = b.use_g(mr);
        b.fixed_def(hi, preg_gpr(2));
        b.i(Inst::Unary {
            op: if signed { UnOp::Imul1 } else { UnOp::Mul },
            size: Size::S64,
            dst: Rm::Reg(mg),
        });
        let mut vi = b.vinst();
        vi.clobbers.add(preg_gpr(0));
        self.push(vi);
        hi
    }

    /// Division or remainder of a 32/64-bit value by a constant without `div`: shifts for
    /// powers of two, otherwise a multiplication by the reciprocal (Granlund and
    /// Montgomery, "Division by invariant integers using multiplication", 1994). False
    /// when the divisor is not one this handles (the caller divides).
    fn div_by_const(
        &mut self,
        op: BinaryOp,
        ty: Type,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<bool, BackendError> {
        let Some(c) = self.const_of(bv) else {
            return Ok(false);
        };
        let (size, nbits) = match ty {
            Type::I32 => (Size::S32, 32u32),
            Type::I64 | Type::Ptr => (Size::S64, 64u32),
            _ => return Ok(false),
        };
        let signed = matches!(op, BinaryOp::SDiv | BinaryOp::SRem);
        let rem = matches!(op, BinaryOp::SRem | BinaryOp::URem);
        let uc: u64 = if nbits == 32 {
            c as u32 as u64
        } else {
            c as u64
        };
        if uc < 2 || (signed && (c < 2 || (nbits == 32 && c > i32::MAX as i64))) {
            return Ok(false);
        }
        let x = self.reg(a)?;
        let pow2 = uc.is_power_of_two();
        let k = uc.trailing_zeros() as u8;
        let q = if pow2 && !signed {
            if rem {
                let res = if uc - 1 <= i32::MAX as u64 {
                    self.alu_new(AluOp::And, size, x, None, (uc - 1) as i32)
                } else {
                    let m = self.mov_new(Size::S64, Rmi::Imm((uc - 1) as i64), None);
                    self.alu_new(AluOp::And, size, x, Some(m), 0)
                };
                return self.div_result(r, res).map(|_| true);
            }
            self.shift_new(ShiftOp::Shr, size, x, k)
        } else if pow2 {
            // Round toward zero: add 2^k - 1 to negative dividends first.
            let sign = self.shift_new(ShiftOp::Sar, size, x, (nbits - 1) as u8);
            let bias = self.shift_new(ShiftOp::Shr, size, sign, (nbits - k as u32) as u8);
            let t = self.alu_new(AluOp::Add, size, bias, Some(x), 0);
            self.shift_new(ShiftOp::Sar, size, t, k)
        } else if signed && nbits == 32 {
            // 64-bit arithmetic on the sign-extended value: floor(x * ceil(2^64/c) / 2^64)
            // is floor(x/c) exactly for |x| < 2^31; add one for negative x to truncate.
            let wide = self.new_vreg(RegClass::Int);
            let mut b = B::default();
            let xg = b.use_g(x);
            let wg = b.def_g(wide);
            b.i(Inst::MovX {
                signed: true,
                from: Size::S32,
                to: Size::S64,
                src: Rm::Reg(xg),
                dst: wg,
            });
            self.emit(b);
            let m = ((1u128 << 64) / uc as u128 + 1) as u64;
            let hi = self.mulhi_new(wide, m, true);
            let neg = self.shift_new(ShiftOp::Shr, Size::S64, wide, 63);
            self.alu_new(AluOp::Add, Size::S32, hi, Some(neg), 0)
        } else if signed {
            return Ok(false);
        } else if nbits == 32 {
            // x < 2^32: floor(x * ceil(2^64/c) / 2^64) is floor(x/c) exactly.
            let wide = self.mov_new(Size::S32, Rmi::Imm(0), Some(x));
            let m = ((1u128 << 64) / uc as u128 + 1) as u64;
            self.mulhi_new(wide, m, false)
        } else {
            let l = 64 - (uc - 1).leading_zeros(); // ceil(log2 c)
                                                   // A 64-bit multiplier with a shift, when one is exact for every x.
            let mut simple = None;
            for sh in 0..=l {
                let p = 1u128 << (64 + sh);
                let m = p.div_ceil(uc as u128);
                if m < (1u128 << 64) && m * uc as u128 - p <= (1u128 << sh) {
                    simple = Some((m as u64, sh as u8));
                    break;
                }
            }
            match simple {
                Some((m, sh)) => {
                    let hi = self.mulhi_new(x, m, false);
                    if sh == 0 {
                        hi
                    } else {
                        self.shift_new(ShiftOp::Shr, Size::S64, hi, sh)
                    }
                }
                None => {
                    // The 65-bit multiplier 2^64 + m: q = (t + (x - t) / 2) >> (l - 1).
                    let m = ((1u128 << 64) * ((1u128 << l) - uc as u128) / uc as u128 + 1) as u64;
                    let t = self.mulhi_new(x, m, false);
                    let d = self.alu_new(AluOp::Sub, Size::S64, x, Some(t), 0);
                    let d = self.shift_new(ShiftOp::Shr, Size::S64, d, 1);
                    let d = self.alu_new(AluOp::Add, Size::S64, d, Some(t), 0);
                    self.shift_new(ShiftOp::Shr, Size::S64, d, (l - 1) as u8)
                }
            }
        };
        let res = if rem {
            // x - q * c
            let qc = if pow2 {
                self.shift_new(ShiftOp::Shl, size, q, k)
            } else if fits32(c) && (nbits == 64 || c as i32 as u32 as u64 == uc) {
                let d = self.new_vreg(RegClass::Int);
                let mut b = B::default();
                let qg = b.use_g(q);
                let dg = b.def_g(d);
                b.i(Inst::Imul3 {
                    size,
                    imm: c as i32,
                    src: Rm::Reg(qg),
                    dst: dg,
                });
                self.emit(b);
                d
            } else {
                let m = self.mov_new(Size::S64, Rmi::Imm(c), None);
                let d = self.new_vreg(RegClass::Int);
                let mut b = B::default();
                let qg = b.use_g(q);
                let mg = b.use_g(m);
                let dg = b.reuse_g(d, qg);
                b.i(Inst::Imul2 {
                    size,
                    src: Rm::Reg(mg),
                    dst: dg,
                });
                self.emit(b);
                d
            };
            self.alu_new(AluOp::Sub, size, x, Some(qc), 0)
        } else {
            q
        };
        self.div_result(r, res)?;
        Ok(true)
    }

    /// Moves a computed quotient or remainder into the result's vreg.
    fn div_result(&mut self, r: Value, res: VReg) -> Result<(), BackendError> {
        let d = self.vreg(r)?;
        let mut b = B::default();
        let sg = b.use_g(res);
        let dg = b.def_g(d);
        b.i(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(sg),
            dst: Rm::Reg(dg),
        });
        self.emit(b);
        Ok(())
    }

    /// An i8/i16 value extended to 32 bits in a new vreg (others unchanged).
    fn widen(&mut self, r: VReg, ty: Type, signed: bool) -> VReg {
        let from = match ty {
            Type::I8 => Size::S8,
            Type::I16 => Size::S16,
            _ => return r,
        };
        let d = self.new_vreg(RegClass::Int);
        let mut b = B::default();
        let s = b.use_g(r);
        let dg = b.def_g(d);
        b.i(Inst::MovX {
            signed,
            from,
            to: Size::S32,
            src: Rm::Reg(s),
            dst: dg,
        });
        self.emit(b);
        d
    }

    // ---------- compares ----------

    /// Emits the flag-setting part of an icmp/fcmp into `b` and returns the condition.
    fn compare(&mut self, b: &mut B, op: &Op) -> Result<CondSpec, BackendError> {
        match *op {
            Op::Icmp { cc, a, b: bv } => {
                let ty = self.ty(a);
                if ty == Type::I128 {
                    return self.compare_i128(b, cc, a, bv);
                }
                let size = size_of(ty);
                let (mut cc, mut x, mut y) = (cc, a, bv);
                if self.const32(x).is_some() && self.const32(y).is_none() {
                    std::mem::swap(&mut x, &mut y);
                    cc = swap_cc(cc);
                }
                let xr = self.reg(x)?;
                let xg = b.use_g(xr);
                if self.opts.opt_level > 0 && self.const_of(y) == Some(0) {
                    // Same flags as comparing with zero, one byte shorter.
                    b.i(Inst::Test {
                        size,
                        src: Rmi::Reg(xg),
                        dst: Rm::Reg(xg),
                    });
                    return Ok(CondSpec::One(int_cond(cc)));
                }
                let src = match self.const32(y) {
                    Some(c) => Rmi::Imm(imm_of(ty, c as i128)),
                    None => match self.folded_load(b, y)? {
                        Some(m) => Rmi::Mem(m),
                        None => {
                            let yr = self.reg(y)?;
                            Rmi::Reg(b.use_g(yr))
                        }
                    },
                };
                b.i(Inst::Alu {
                    op: AluOp::Cmp,
                    size,
                    src,
                    dst: Rm::Reg(xg),
                });
                Ok(CondSpec::One(int_cond(cc)))
            }
            Op::Fcmp { cc, a, b: bv } => {
                // "ucomis x, y" sets flags for y against x.
                let (x, y, spec) = match cc {
                    FloatCC::Lt => (a, bv, CondSpec::One(Cond::A)),
                    FloatCC::Le => (a, bv, CondSpec::One(Cond::AE)),
                    FloatCC::Gt => (bv, a, CondSpec::One(Cond::A)),
                    FloatCC::Ge => (bv, a, CondSpec::One(Cond::AE)),
                    FloatCC::Eq => (bv, a, CondSpec::And(Cond::E, Cond::NP)),
                    FloatCC::Ne => (bv, a, CondSpec::Or(Cond::NE, Cond::P)),
                    FloatCC::Unordered => (bv, a, CondSpec::One(Cond::P)),
                };
                let ty = self.ty(a);
                if ty == Type::F80 {
                    let (hx, hy) = (self.f80_home(x), self.f80_home(y));
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fldt,
                        mem: hx,
                    });
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fldt,
                        mem: hy,
                    });
                    b.i(Inst::X87Reg {
                        op: X87RegOp::Fucomip,
                        st: 1,
                    });
                    b.i(Inst::X87Reg {
                        op: X87RegOp::Fstp,
                        st: 0,
                    });
                    return Ok(spec);
                }
                let yr = self.reg(y)?;
                let yx = b.use_x(yr);
                let src = match self.folded_load(b, x)? {
                    Some(m) => XmmMem::Mem(m),
                    None => {
                        let xr = self.reg(x)?;
                        XmmMem::Xmm(b.use_x(xr))
                    }
                };
                b.i(Inst::Sse {
                    op: if ty == Type::F32 {
                        SseOp::Ucomiss
                    } else {
                        SseOp::Ucomisd
                    },
                    src,
                    dst: yx,
                });
                Ok(spec)
            }
            _ => unreachable!(),
        }
    }

    /// `d` (a def placeholder) = condition ? 1 : 0, after `compare`.
    fn setcc(&mut self, b: &mut B, cs: CondSpec, d: Gpr) {
        // A two-flag condition takes a second register (a vreg made only then).
        let tmp = match cs {
            CondSpec::One(_) => d,
            CondSpec::And(..) | CondSpec::Or(..) => {
                let t = self.new_vreg(RegClass::Int);
                ph_gpr(b.op(early_def(t, OperandConstraint::Reg)))
            }
        };
        setcc_insts(cs, d, tmp, |i| b.i(i));
    }

    /// Flags for `cond != 0`: fuses a single-use compare.
    fn cond_flags(&mut self, b: &mut B, cond: Value) -> Result<CondSpec, BackendError> {
        if self.uses[cond.index()] == 1 && self.cond_uses[cond.index()] == 1 {
            if let Some(op @ (Op::Icmp { .. } | Op::Fcmp { .. })) = self.def_of(cond) {
                return self.compare(b, op);
            }
        }
        if let Some(c) = self.const_of(cond) {
            // Constant condition: compare a register with itself.
            let r = self.new_vreg(RegClass::Int);
            let mut m = B::default();
            let rg = m.def_g(r);
            m.i(Inst::Mov {
                size: Size::S32,
                src: Rmi::Imm((c as i8 != 0) as i64),
                dst: Rm::Reg(rg),
            });
            self.emit(m);
            let g = b.use_g(r);
            b.i(Inst::Test {
                size: Size::S32,
                src: Rmi::Reg(g),
                dst: Rm::Reg(g),
            });
            return Ok(CondSpec::One(Cond::NE));
        }
        let r = self.reg(cond)?;
        let g = b.use_g(r);
        let size = size_of(self.ty(cond));
        b.i(Inst::Test {
            size,
            src: Rmi::Reg(g),
            dst: Rm::Reg(g),
        });
        Ok(CondSpec::One(Cond::NE))
    }

    fn lower_select(
        &mut self,
        cond: Value,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        let ty = self.ty(a);
        let mut b = B::default();
        if ty == Type::F80 {
            let (ha, hb, hr) = (self.f80_home(a), self.f80_home(bv), self.f80_home(r));
            let cs = self.cond_flags(&mut b, cond)?;
            let (l_else, l_end) = (self.new_label(), self.new_label());
            {
                let sk = self.new_label();
                jump_unless(&mut b, cs, l_else, sk);
            }
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: ha,
            });
            b.i(Inst::Jmp { target: l_end });
            b.i(Inst::Label(l_else));
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: hb,
            });
            b.i(Inst::Label(l_end));
            b.i(Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem: hr,
            });
            self.emit(b);
            return Ok(());
        }
        let ar = self.reg(a)?;
        let br = self.reg(bv)?;
        let d = self.vreg(r)?;
        // Late uses: the result is written before every input has been read.
        let cs = {
            let mut cb = B::default();
            let cs = self.cond_flags(&mut cb, cond)?;
            for o in cb.ops.iter_mut() {
                *o = Operand::reg_use_at_end(o.vreg());
            }
            b = cb;
            cs
        };
        if ty.is_int() {
            let ag = b.use_late_g(ar);
            let bg = b.use_late_g(br);
            let dg = b.def_g(d);
            b.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Reg(bg),
                dst: Rm::Reg(dg),
            });
            match cs {
                CondSpec::One(c) => b.i(Inst::Cmov {
                    cond: c,
                    size: Size::S64,
                    src: Rm::Reg(ag),
                    dst: dg,
                }),
                _ => {
                    let l = self.new_label();
                    {
                        let sk = self.new_label();
                        jump_unless(&mut b, cs, l, sk);
                    }
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(ag),
                        dst: Rm::Reg(dg),
                    });
                    b.i(Inst::Label(l));
                }
            }
        } else {
            let ax = b.use_late_x(ar);
            let bx = b.use_late_x(br);
            let dx = b.def_x(d);
            let l = self.new_label();
            b.i(Inst::XmmMov {
                op: XmmMovOp::Movaps,
                src: XmmMem::Xmm(bx),
                dst: XmmMem::Xmm(dx),
            });
            {
                let sk = self.new_label();
                jump_unless(&mut b, cs, l, sk);
            }
            b.i(Inst::XmmMov {
                op: XmmMovOp::Movaps,
                src: XmmMem::Xmm(ax),
                dst: XmmMem::Xmm(dx),
            });
            b.i(Inst::Label(l));
        }
        self.emit(b);
        Ok(())
    }

    // ---------- conversions ----------

    fn lower_conv(
        &mut self,
        op: ConvOp,
        arg: Value,
        to: Type,
        r: Value,
    ) -> Result<(), BackendError> {
        let from = self.ty(arg);
        if from == Type::F80 || to == Type::F80 {
            return self.lower_conv_x87(op, arg, from, to, r);
        }
        let mut b = B::default();
        if matches!(op, ConvOp::Sext | ConvOp::Zext) {
            if let Some(m) = self.folded_load(&mut b, arg)? {
                // movsx/movzx straight from memory.
                let d = self.vreg(r)?;
                let dg = b.def_g(d);
                let signed = op == ConvOp::Sext;
                b.i(match from {
                    Type::I8 | Type::I16 => Inst::MovX {
                        signed,
                        from: size_of(from),
                        to: op_size(to),
                        src: Rm::Mem(m),
                        dst: dg,
                    },
                    _ if signed && op_size(to) == Size::S64 => Inst::MovX {
                        signed,
                        from: Size::S32,
                        to: Size::S64,
                        src: Rm::Mem(m),
                        dst: dg,
                    },
                    _ => Inst::Mov {
                        size: Size::S32,
                        src: Rmi::Mem(m),
                        dst: Rm::Reg(dg),
                    },
                });
                self.emit(b);
                return Ok(());
            }
        }
        let a = self.reg(arg)?;
        let d = self.vreg(r)?;
        match op {
            ConvOp::Sext | ConvOp::Zext => {
                let signed = op == ConvOp::Sext;
                let ag = b.use_g(a);
                let dg = b.def_g(d);
                match from {
                    Type::I8 | Type::I16 => b.i(Inst::MovX {
                        signed,
                        from: size_of(from),
                        to: op_size(to),
                        src: Rm::Reg(ag),
                        dst: dg,
                    }),
                    Type::I32 if signed => b.i(Inst::MovX {
                        signed,
                        from: Size::S32,
                        to: Size::S64,
                        src: Rm::Reg(ag),
                        dst: dg,
                    }),
                    Type::I32 => b.i(Inst::Mov {
                        size: Size::S32,
                        src: Rmi::Reg(ag),
                        dst: Rm::Reg(dg),
                    }),
                    _ => b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(ag),
                        dst: Rm::Reg(dg),
                    }),
                }
            }
            ConvOp::Trunc => {
                let ag = b.use_g(a);
                b.reuse_g(d, ag);
            }
            ConvOp::Bitcast => match (from.is_int(), to.is_int()) {
                (true, true) => {
                    let ag = b.use_g(a);
                    b.reuse_g(d, ag);
                }
                (false, false) => {
                    let ax = b.use_x(a);
                    b.reuse_x(d, ax);
                }
                (true, false) => {
                    let ag = b.use_g(a);
                    let dx = b.def_x(d);
                    b.i(Inst::MovGprToXmm {
                        size: size_of(to),
                        src: Rm::Reg(ag),
                        dst: dx,
                    });
                }
                (false, true) => {
                    let ax = b.use_x(a);
                    let dg = b.def_g(d);
                    b.i(Inst::MovXmmToGpr {
                        size: size_of(from),
                        src: ax,
                        dst: Rm::Reg(dg),
                    });
                }
            },
            ConvOp::FExt | ConvOp::FTrunc => {
                let ax = b.use_x(a);
                let dx = b.def_x(d);
                b.i(Inst::Sse {
                    op: if from == Type::F32 {
                        SseOp::Cvtss2sd
                    } else {
                        SseOp::Cvtsd2ss
                    },
                    src: XmmMem::Xmm(ax),
                    dst: dx,
                });
            }
            ConvOp::SToF | ConvOp::UToF => {
                let double = to == Type::F64;
                let signed = op == ConvOp::SToF;
                let a = self.widen(a, from, signed);
                if !signed && from == Type::I64 {
                    // gcc's split: values >= 2^63 halve (keeping the low bit) and double.
                    let ag = b.use_late_g(a);
                    let dx = b.def_x(d);
                    let t = self.new_vreg(RegClass::Int);
                    let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
                    let (l_neg, l_end) = (self.new_label(), self.new_label());
                    u64_to_f_insts(double, ag, dx, tg, (l_neg, l_end), |i| b.i(i));
                } else {
                    let ag = b.use_g(a);
                    let dx = b.def_x(d);
                    let size = match from {
                        Type::I64 | Type::Ptr => Size::S64,
                        Type::I32 if !signed => {
                            // zero-extend into the scratch and convert 64-bit
                            b.i(Inst::Mov {
                                size: Size::S32,
                                src: Rmi::Reg(ag),
                                dst: Rm::Reg(SCRATCH),
                            });
                            b.i(Inst::Sse {
                                op: SseOp::Xorps,
                                src: XmmMem::Xmm(dx),
                                dst: dx,
                            });
                            b.i(Inst::CvtSi2F {
                                double,
                                size: Size::S64,
                                src: Rm::Reg(SCRATCH),
                                dst: dx,
                            });
                            self.emit(b);
                            return Ok(());
                        }
                        _ => Size::S32,
                    };
                    b.i(Inst::Sse {
                        op: SseOp::Xorps,
                        src: XmmMem::Xmm(dx),
                        dst: dx,
                    });
                    b.i(Inst::CvtSi2F {
                        double,
                        size,
                        src: Rm::Reg(ag),
                        dst: dx,
                    });
                }
            }
            ConvOp::FToS | ConvOp::FToU => {
                let double = from == Type::F64;
                let signed = op == ConvOp::FToS;
                if !signed && to == Type::I64 {
                    let ax = b.use_late_x(a);
                    let dg = b.def_g(d);
                    let tx = self.new_vreg(RegClass::Float);
                    let txx = ph_xmm(b.op(early_def(tx, OperandConstraint::Reg)));
                    let (l_big, l_end) = (self.new_label(), self.new_label());
                    f_to_u64_insts(double, ax, dg, txx, (l_big, l_end), |i| b.i(i));
                } else {
                    let ax = b.use_x(a);
                    let dg = b.def_g(d);
                    let size = match to {
                        Type::I64 | Type::Ptr => Size::S64,
                        Type::I32 if !signed => Size::S64,
                        _ => Size::S32,
                    };
                    b.i(Inst::CvtTF2Si {
                        double,
                        size,
                        src: XmmMem::Xmm(ax),
                        dst: dg,
                    });
                }
            }
        }
        self.emit(b);
        Ok(())
    }

    fn lower_conv_x87(
        &mut self,
        op: ConvOp,
        arg: Value,
        from: Type,
        to: Type,
        r: Value,
    ) -> Result<(), BackendError> {
        let tmp = self.frame_slot(16, 16);
        let tm = Mem::base(Gpr::RBP, tmp);
        let mut b = B::default();
        if to == Type::F80 && from == Type::F80 {
            let (ha, hr) = (self.f80_home(arg), self.f80_home(r));
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: ha,
            });
            b.i(Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem: hr,
            });
        } else if to == Type::F80 {
            let hr = self.f80_home(r);
            let a = self.reg(arg)?;
            match from {
                Type::F32 | Type::F64 => {
                    let ax = b.use_x(a);
                    let dbl = from == Type::F64;
                    b.i(Inst::XmmMov {
                        op: if dbl {
                            XmmMovOp::Movsd
                        } else {
                            XmmMovOp::Movss
                        },
                        src: XmmMem::Xmm(ax),
                        dst: XmmMem::Mem(tm),
                    });
                    b.i(Inst::X87Mem {
                        op: if dbl { X87MemOp::Fldl } else { X87MemOp::Flds },
                        mem: tm,
                    });
                }
                _ => {
                    let signed = op == ConvOp::SToF;
                    let ag = b.use_g(a);
                    // Extend to 64 bits in the scratch, fildll.
                    match from {
                        Type::I8 | Type::I16 => b.i(Inst::MovX {
                            signed,
                            from: size_of(from),
                            to: Size::S64,
                            src: Rm::Reg(ag),
                            dst: SCRATCH,
                        }),
                        Type::I32 if signed => b.i(Inst::MovX {
                            signed,
                            from: Size::S32,
                            to: Size::S64,
                            src: Rm::Reg(ag),
                            dst: SCRATCH,
                        }),
                        Type::I32 => b.i(Inst::Mov {
                            size: Size::S32,
                            src: Rmi::Reg(ag),
                            dst: Rm::Reg(SCRATCH),
                        }),
                        _ => b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Reg(ag),
                            dst: Rm::Reg(SCRATCH),
                        }),
                    }
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(SCRATCH),
                        dst: Rm::Mem(tm),
                    });
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fildll,
                        mem: tm,
                    });
                    if !signed && matches!(from, Type::I64 | Type::Ptr) {
                        let l = self.new_label();
                        b.i(Inst::Test {
                            size: Size::S64,
                            src: Rmi::Reg(SCRATCH),
                            dst: Rm::Reg(SCRATCH),
                        });
                        b.i(Inst::Jcc {
                            cond: Cond::NS,
                            target: l,
                        });
                        // + 2^64 (as a float: 0x5f800000)
                        b.i(Inst::Mov {
                            size: Size::S32,
                            src: Rmi::Imm(0x5f80_0000),
                            dst: Rm::Mem(tm),
                        });
                        b.i(Inst::X87Mem {
                            op: X87MemOp::Flds,
                            mem: tm,
                        });
                        b.i(Inst::X87Reg {
                            op: X87RegOp::Faddp,
                            st: 1,
                        });
                        b.i(Inst::Label(l));
                    }
                }
            }
            b.i(Inst::X87Mem {
                op: X87MemOp::Fstpt,
                mem: hr,
            });
        } else {
            let ha = self.f80_home(arg);
            let d = self.vreg(r)?;
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: ha,
            });
            match to {
                Type::F32 | Type::F64 => {
                    let dbl = to == Type::F64;
                    let dx = b.def_x(d);
                    b.i(Inst::X87Mem {
                        op: if dbl {
                            X87MemOp::Fstpl
                        } else {
                            X87MemOp::Fstps
                        },
                        mem: tm,
                    });
                    b.i(Inst::XmmMov {
                        op: if dbl {
                            XmmMovOp::Movsd
                        } else {
                            XmmMovOp::Movss
                        },
                        src: XmmMem::Mem(tm),
                        dst: XmmMem::Xmm(dx),
                    });
                }
                _ => {
                    let dg = b.def_g(d);
                    let unsigned64 = op == ConvOp::FToU && matches!(to, Type::I64 | Type::Ptr);
                    if unsigned64 {
                        // if x >= 2^63: x -= 2^63, convert, flip the top bit.
                        let (l_small, l_end) = (self.new_label(), self.new_label());
                        b.i(Inst::Mov {
                            size: Size::S32,
                            src: Rmi::Imm(0x5f00_0000),
                            dst: Rm::Mem(tm),
                        });
                        b.i(Inst::X87Mem {
                            op: X87MemOp::Flds,
                            mem: tm,
                        });
                        // st0 = 2^63, st1 = x
                        b.i(Inst::X87Reg {
                            op: X87RegOp::Fucomi,
                            st: 1,
                        });
                        // flags: 2^63 vs x; x >= 2^63 <=> 2^63 <= x <=> BE
                        b.i(Inst::Jcc {
                            cond: Cond::A,
                            target: l_small,
                        });
                        b.i(Inst::X87Reg {
                            op: X87RegOp::Fsubrp,
                            st: 1,
                        });
                        b.i(Inst::X87Mem {
                            op: X87MemOp::Fisttpll,
                            mem: tm,
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Mem(tm),
                            dst: Rm::Reg(dg),
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Imm(i64::MIN),
                            dst: Rm::Reg(SCRATCH),
                        });
                        b.i(Inst::Alu {
                            op: AluOp::Xor,
                            size: Size::S64,
                            src: Rmi::Reg(SCRATCH),
                            dst: Rm::Reg(dg),
                        });
                        b.i(Inst::Jmp { target: l_end });
                        b.i(Inst::Label(l_small));
                        b.i(Inst::X87Reg {
                            op: X87RegOp::Fstp,
                            st: 0,
                        });
                        b.i(Inst::X87Mem {
                            op: X87MemOp::Fisttpll,
                            mem: tm,
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Mem(tm),
                            dst: Rm::Reg(dg),
                        });
                        b.i(Inst::Label(l_end));
                    } else {
                        b.i(Inst::X87Mem {
                            op: X87MemOp::Fisttpll,
                            mem: tm,
                        });
                        b.i(Inst::Mov {
                            size: Size::S64,
                            src: Rmi::Mem(tm),
                            dst: Rm::Reg(dg),
                        });
                    }
                }
            }
        }
        self.emit(b);
        Ok(())
    }

    // ---------- memory blocks ----------

    fn lower_copy(&mut self, dst: Value, src: Value, size: u64) -> Result<(), BackendError> {
        let mut b = B::default();
        let dm = self.mem(&mut b, dst, 0)?;
        let sm = self.mem(&mut b, src, 0)?;
        copy_bytes(&mut b, self, dm, sm, size)?;
        self.emit(b);
        Ok(())
    }

    fn lower_zero(&mut self, dst: Value, size: u64) -> Result<(), BackendError> {
        let mut b = B::default();
        let dm = self.mem(&mut b, dst, 0)?;
        if size > 64 {
            let (tdi, tcx, tax) = (
                self.new_vreg(RegClass::Int),
                self.new_vreg(RegClass::Int),
                self.new_vreg(RegClass::Int),
            );
            b.op(early_def(tdi, OperandConstraint::FixedReg(preg_gpr(7))));
            b.op(early_def(tcx, OperandConstraint::FixedReg(preg_gpr(1))));
            b.op(early_def(tax, OperandConstraint::FixedReg(preg_gpr(0))));
        }
        zero_insts(dm, size, |i| b.i(i));
        self.emit(b);
        Ok(())
    }

    fn lower_alloca(&mut self, size: Value, align: u32, r: Value) -> Result<(), BackendError> {
        self.has_alloca = true;
        let s = self.reg(size)?;
        let d = self.vreg(r)?;
        let mut b = B::default();
        let sg = b.use_g(s);
        let dg = b.def_g(d);
        let align = align.max(16);
        let extra = if align > 16 { align as i32 } else { 0 };
        b.i(Inst::Lea {
            size: Size::S64,
            src: Mem::base(sg, 15 + extra),
            dst: SCRATCH,
        });
        b.i(Inst::Alu {
            op: AluOp::And,
            size: Size::S64,
            src: Rmi::Imm(-16),
            dst: Rm::Reg(SCRATCH),
        });
        b.i(Inst::Alu {
            op: AluOp::Sub,
            size: Size::S64,
            src: Rmi::Reg(SCRATCH),
            dst: Rm::Reg(Gpr::RSP),
        });
        // The outgoing area stays at rsp; the allocation is above it.
        b.push_out_lea(dg);
        if align > 16 {
            b.i(Inst::Lea {
                size: Size::S64,
                src: Mem::base(dg, align as i32 - 1),
                dst: dg,
            });
            b.i(Inst::Alu {
                op: AluOp::And,
                size: Size::S64,
                src: Rmi::Imm(-(align as i64)),
                dst: Rm::Reg(dg),
            });
        }
        self.emit(b);
        Ok(())
    }

    fn lower_va_start(&mut self, list: Value) -> Result<(), BackendError> {
        let Some(save) = self.va_save else {
            return Err(self.err("va_start outside a variadic function"));
        };
        let mut b = B::default();
        let m = self.mem(&mut b, list, 0)?;
        va_start_insts(&self.f.plan, m, save, |i| b.i(i));
        self.emit(b);
        Ok(())
    }

    fn lower_rmw(
        &mut self,
        op: ir::AtomicOp,
        ty: Type,
        addr: Value,
        value: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        use ir::AtomicOp as A;
        let size = size_of(ty);
        let v = self.reg(value)?;
        let d = self.vreg(r)?;
        let mut b = B::default();
        match op {
            A::Add | A::Sub | A::Xchg => {
                let m = self.mem(&mut b, addr, 0)?;
                let vg = b.use_g(v);
                let dg = b.reuse_g(d, vg);
                if op == A::Sub {
                    b.i(Inst::Unary {
                        op: UnOp::Neg,
                        size,
                        dst: Rm::Reg(dg),
                    });
                }
                if op == A::Xchg {
                    b.i(Inst::Xchg {
                        size,
                        src: dg,
                        dst: Rm::Mem(m),
                    });
                } else {
                    b.i(Inst::LockXadd {
                        size,
                        src: dg,
                        dst: m,
                    });
                }
            }
            A::And | A::Or | A::Xor | A::Nand => {
                let m = self.mem(&mut b, addr, 0)?;
                for o in b.ops.iter_mut() {
                    *o = Operand::reg_use_at_end(o.vreg());
                }
                let vg = b.use_late_g(v);
                b.fixed_def(d, preg_gpr(0));
                let l = self.new_label();
                let t = self.new_vreg(RegClass::Int);
                let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
                let osz = if size == Size::S64 {
                    Size::S64
                } else {
                    Size::S32
                };
                b.i(Inst::Mov {
                    size,
                    src: Rmi::Mem(m),
                    dst: Rm::Reg(Gpr::RAX),
                });
                b.i(Inst::Label(l));
                b.i(Inst::Mov {
                    size: osz,
                    src: Rmi::Reg(Gpr::RAX),
                    dst: Rm::Reg(tg),
                });
                let aop = match op {
                    A::And | A::Nand => AluOp::And,
                    A::Or => AluOp::Or,
                    _ => AluOp::Xor,
                };
                b.i(Inst::Alu {
                    op: aop,
                    size: osz,
                    src: Rmi::Reg(vg),
                    dst: Rm::Reg(tg),
                });
                if op == A::Nand {
                    b.i(Inst::Unary {
                        op: UnOp::Not,
                        size: osz,
                        dst: Rm::Reg(tg),
                    });
                }
                b.i(Inst::LockCmpxchg {
                    size,
                    src: tg,
                    dst: m,
                });
                b.i(Inst::Jcc {
                    cond: Cond::NE,
                    target: l,
                });
            }
        }
        self.emit(b);
        Ok(())
    }

    // ---------- calls ----------

    fn lower_call(
        &mut self,
        callee: &ir::Callee,
        args: &[Value],
        arg_mem: &[u32],
        plan: ir::PlanId,
        results: &[Value],
    ) -> Result<(), BackendError> {
        let plan = &self.f.plans[plan.index()];
        self.max_out = self.max_out.max(plan.stack);
        let nargs = plan.arguments.len();
        let sret: Vec<&Location> = plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        let mut b = B::default();
        // Stack arguments first (their own instructions), then the register ones.
        let mut reg_args: Vec<(VReg, PReg)> = Vec::new();
        for (i, &v) in args.iter().enumerate() {
            let loc = if i < nargs {
                &plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            let ty = self.ty(v);
            match loc.place {
                Place::Stack(off) => {
                    let out = Mem::base(Gpr::RSP, off as i32);
                    let mut sb = B::default();
                    if arg_mem.contains(&(i as u32)) {
                        let sm = self.mem(&mut sb, v, 0)?;
                        copy_bytes(&mut sb, self, out, sm, loc.size as u64)?;
                    } else if ty == Type::F80 {
                        let h = self.f80_home(v);
                        sb.i(Inst::X87Mem {
                            op: X87MemOp::Fldt,
                            mem: h,
                        });
                        sb.i(Inst::X87Mem {
                            op: X87MemOp::Fstpt,
                            mem: out,
                        });
                    } else {
                        let v = self.extend_for(v, loc.flags)?;
                        let ty = if loc.flags.contains(Flags::SEXT32)
                            || loc.flags.contains(Flags::ZEXT32)
                        {
                            Type::I32
                        } else {
                            ty
                        };
                        let src = match v {
                            ArgV::Reg(r) if ty.is_int() => StoreSrc::Gpr(sb.use_g(r)),
                            ArgV::Reg(r) => StoreSrc::Xmm(sb.use_x(r)),
                        };
                        store_from(&mut sb, ty, src, out);
                    }
                    self.emit(sb);
                }
                Place::Reg(r) => {
                    if ty == Type::F80 {
                        return Err(self.err("an x87 argument in a register"));
                    }
                    let preg = dwarf_to_preg(r).unwrap();
                    let ArgV::Reg(v) = self.extend_for(v, loc.flags)?;
                    reg_args.push((v, preg));
                }
            }
        }
        for (v, p) in reg_args {
            if scratch_place(p) {
                let m = scratch_move(v, p, true);
                self.emit(m);
            } else {
                b.fixed_use(v, p);
            }
        }
        match callee {
            ir::Callee::Direct(s) => b.i(Inst::CallSym {
                sym: self.syms[s.index()],
                kind: RelocKind::Plt32,
            }),
            ir::Callee::Indirect(c) => {
                let r = self.reg(*c)?;
                let g = b.use_g(r);
                b.i(Inst::CallInd { target: Rm::Reg(g) });
            }
        }
        let mut defs = PRegSet::empty();
        let mut scratch_results: Vec<B> = Vec::new();
        let mut ri = 0;
        for loc in plan.returns.iter() {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = results.get(ri) else { break };
            ri += 1;
            match loc.place {
                // st0, then st1 (a complex long double's imaginary part), each popped in
                // turn: after the first pop the second is in st0.
                Place::Reg(33 | 34) => {
                    let h = self.f80_home(v);
                    b.i(Inst::X87Mem {
                        op: X87MemOp::Fstpt,
                        mem: h,
                    });
                }
                Place::Reg(r) => {
                    let d = self.vreg(v)?;
                    let p = dwarf_to_preg(r).unwrap();
                    if scratch_place(p) {
                        scratch_results.push(scratch_move(d, p, false));
                    } else {
                        b.fixed_def(d, p);
                        defs.add(p);
                    }
                }
                Place::Stack(_) => return Err(self.err("a result returned on the stack")),
            }
        }
        let keep: Vec<PReg> = if self.setjmp {
            Vec::new()
        } else {
            plan.callee_saved
                .iter()
                .filter_map(|&r| dwarf_to_preg(r))
                .collect()
        };
        let mut clobbers = PRegSet::empty();
        for p in gpr_allocatable().into_iter().chain(xmm_allocatable()) {
            if !keep.contains(&p) && !defs.contains(p) {
                clobbers.add(p);
            }
        }
        self.save_csr_not_kept_by(&plan.callee_saved);
        let mut vi = b.vinst();
        vi.clobbers = clobbers;
        self.push(vi);
        for m in scratch_results {
            self.emit(m);
        }
        Ok(())
    }

    /// An argument value extended as its location's flags ask.
    fn extend_for(&mut self, v: Value, flags: Flags) -> Result<ArgV, BackendError> {
        let ty = self.ty(v);
        let sext = flags.contains(Flags::SEXT32) || flags.contains(Flags::SEXT64);
        let zext = flags.contains(Flags::ZEXT32) || flags.contains(Flags::ZEXT64);
        let r = self.reg(v)?;
        if matches!(ty, Type::I8 | Type::I16) && (sext || zext) {
            return Ok(ArgV::Reg(self.widen(r, ty, sext)));
        }
        Ok(ArgV::Reg(r))
    }

    // ---------- control flow ----------

    /// The successor vblock for an edge to `target` with `args` from a multi-way branch:
    /// an edge block when the target has other predecessors or parameters.
    fn edge(&mut self, target: ir::Block, args: &[Value]) -> Result<usize, BackendError> {
        let t = self.ir2v[target.index()];
        if args.is_empty() && self.pred_edges[target.index()] <= 1 {
            return Ok(t);
        }
        let e = self.new_block();
        let saved = self.cur;
        self.cur = e;
        self.jump_to(t, target, args)?;
        self.cur = saved;
        Ok(e)
    }

    /// Ends the current block with a jump to vblock `t` (IR block `target`) passing `args`.
    fn jump_to(&mut self, t: usize, target: ir::Block, args: &[Value]) -> Result<(), BackendError> {
        let f = self.f;
        let params = &f.blocks[target.index()].params;
        let mut vargs = Vec::with_capacity(args.len());
        let mut f80: Vec<(Mem, Mem)> = Vec::new();
        for (&a, &p) in args.iter().zip(params.iter()) {
            if self.ty(a) == Type::F80 {
                let (s, d) = (self.f80_home(a), self.f80_home(p));
                f80.push((s, d));
            } else if self.ty(a) == Type::I128 {
                let (lo, hi) = self.pair(a)?;
                vargs.push(lo);
                vargs.push(hi);
            } else {
                vargs.push(self.reg(a)?);
            }
        }
        if !f80.is_empty() {
            if f80.len() > 7 {
                return Err(self.err("more than seven long double block arguments"));
            }
            let mut b = B::default();
            for (s, _) in &f80 {
                b.i(Inst::X87Mem {
                    op: X87MemOp::Fldt,
                    mem: *s,
                });
            }
            for (_, d) in f80.iter().rev() {
                b.i(Inst::X87Mem {
                    op: X87MemOp::Fstpt,
                    mem: *d,
                });
            }
            self.emit(b);
        }
        let cur = self.cur;
        self.blocks[cur].succs.push(regalloc2::Block::new(t));
        self.blocks[cur].args.push(vargs);
        self.push(VInst {
            term: Term::Jump,
            ..VInst::new(vec![], vec![])
        });
        Ok(())
    }

    fn lower_branch(
        &mut self,
        cond: Value,
        then: &ir::BlockCall,
        els: &ir::BlockCall,
    ) -> Result<(), BackendError> {
        let mut b = B::default();
        let cs = self.cond_flags(&mut b, cond)?;
        let t = self.edge(then.block, &then.args)?;
        let e = self.edge(els.block, &els.args)?;
        if t == e {
            // Both ways lead to one block: a plain jump.
            let cur = self.cur;
            self.blocks[cur].succs.push(regalloc2::Block::new(t));
            self.blocks[cur].args.push(vec![]);
            self.push(VInst {
                term: Term::Jump,
                ..VInst::new(vec![], vec![])
            });
            return Ok(());
        }
        let cur = self.cur;
        self.blocks[cur].succs.push(regalloc2::Block::new(t));
        self.blocks[cur].succs.push(regalloc2::Block::new(e));
        let mut vi = b.vinst();
        vi.term = Term::Cond(cs);
        self.push(vi);
        Ok(())
    }

    fn lower_switch(
        &mut self,
        value: Value,
        cases: &[(i128, ir::Block)],
        default: ir::Block,
    ) -> Result<(), BackendError> {
        let ty = self.ty(value);
        let norm = |c: i128| imm_of(ty, c);
        let mut cs: Vec<(i64, ir::Block)> = cases.iter().map(|&(c, b)| (norm(c), b)).collect();
        cs.sort_by_key(|c| c.0);
        cs.dedup_by_key(|c| c.0);
        let r = self.reg(value)?;
        if cs.is_empty() {
            let t = self.ir2v[default.index()];
            return self.jump_to(t, default, &[]);
        }
        let (min, max) = (cs[0].0, cs[cs.len() - 1].0);
        let range = (max as i128 - min as i128) as u128;
        if cs.len() >= 4 && range < 3 * cs.len() as u128 && fits32(min) {
            // Jump table.
            // Successor index by IR block (usize::MAX: not a successor yet).
            let mut succ_of: Vec<usize> = vec![usize::MAX; self.f.blocks.len()];
            let mut succs: Vec<usize> = Vec::new();
            let mut add = |l: &mut Self, blk: ir::Block| -> Result<usize, BackendError> {
                if succ_of[blk.index()] != usize::MAX {
                    return Ok(succ_of[blk.index()]);
                }
                let v = l.edge(blk, &[])?;
                succs.push(v);
                succ_of[blk.index()] = succs.len() - 1;
                Ok(succs.len() - 1)
            };
            let dflt = add(self, default)?;
            let mut entries = vec![dflt; range as usize + 1];
            for &(c, blk) in &cs {
                entries[(c - min) as usize] = add(self, blk)?;
            }
            let table = self.new_label();
            let mut b = B::default();
            let vg = b.use_late_g(r);
            let t = self.new_vreg(RegClass::Int);
            let tg = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
            match ty {
                Type::I8 | Type::I16 => {
                    b.i(Inst::Mov {
                        size: Size::S32,
                        src: Rmi::Reg(vg),
                        dst: Rm::Reg(tg),
                    });
                    b.i(Inst::Alu {
                        op: AluOp::Sub,
                        size: Size::S32,
                        src: Rmi::Imm(min),
                        dst: Rm::Reg(tg),
                    });
                    b.i(Inst::MovX {
                        signed: false,
                        from: size_of(ty),
                        to: Size::S32,
                        src: Rm::Reg(tg),
                        dst: tg,
                    });
                }
                Type::I32 => {
                    b.i(Inst::Mov {
                        size: Size::S32,
                        src: Rmi::Reg(vg),
                        dst: Rm::Reg(tg),
                    });
                    b.i(Inst::Alu {
                        op: AluOp::Sub,
                        size: Size::S32,
                        src: Rmi::Imm(min),
                        dst: Rm::Reg(tg),
                    });
                }
                _ => {
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(vg),
                        dst: Rm::Reg(tg),
                    });
                    b.i(Inst::Alu {
                        op: AluOp::Sub,
                        size: Size::S64,
                        src: Rmi::Imm(min),
                        dst: Rm::Reg(tg),
                    });
                }
            }
            // Placeholder label for the default successor; emit rewrites Label(u32::MAX - i).
            let default = Label(u32::MAX - dflt as u32);
            jump_table_insts(tg, range as i64, default, table, |i| b.i(i));
            let cur = self.cur;
            for s in succs {
                self.blocks[cur].succs.push(regalloc2::Block::new(s));
            }
            let mut vi = b.vinst();
            vi.term = Term::Table {
                table: table.0,
                entries,
            };
            self.push(vi);
            return Ok(());
        }
        // Compare chain.
        let size = size_of(ty);
        let n = cs.len();
        for (i, &(c, blk)) in cs.iter().enumerate() {
            let mut b = B::default();
            let vg = b.use_g(r);
            let src = if fits32(c) {
                Rmi::Imm(c)
            } else {
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Imm(c),
                    dst: Rm::Reg(SCRATCH),
                });
                Rmi::Reg(SCRATCH)
            };
            b.i(Inst::Alu {
                op: AluOp::Cmp,
                size,
                src,
                dst: Rm::Reg(vg),
            });
            let t = self.edge(blk, &[])?;
            let next = if i + 1 == n {
                self.edge(default, &[])?
            } else {
                self.new_block()
            };
            let cur = self.cur;
            self.blocks[cur].succs.push(regalloc2::Block::new(t));
            self.blocks[cur].succs.push(regalloc2::Block::new(next));
            let mut vi = b.vinst();
            vi.term = Term::Cond(CondSpec::One(Cond::E));
            self.push(vi);
            if t == next {
                // Degenerate: both successors the same block.
                let blk = &mut self.blocks[cur];
                blk.succs.pop();
                let last = if cur < self.main_blocks {
                    self.main.last_mut()
                } else {
                    blk.insts.last_mut()
                };
                if let Some(last) = last {
                    last.term = Term::Jump;
                    last.ops.clear();
                    last.insts.clear();
                }
            }
            self.cur = next;
        }
        Ok(())
    }

    fn lower_return(&mut self, vals: &[Value]) -> Result<(), BackendError> {
        let f = self.f;
        let mut b = B::default();
        let mut i = 0;
        // x87 results are pushed last first, so st0 ends up holding the first (st1 the
        // imaginary part of a complex long double).
        let mut x87 = Vec::new();
        for loc in &f.plan.returns {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = vals.get(i) else { break };
            i += 1;
            if matches!(loc.place, Place::Reg(33 | 34)) {
                x87.push(v);
            }
        }
        for &v in x87.iter().rev() {
            let h = self.f80_home(v);
            b.i(Inst::X87Mem {
                op: X87MemOp::Fldt,
                mem: h,
            });
        }
        let mut i = 0;
        for loc in &f.plan.returns {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = vals.get(i) else { break };
            i += 1;
            match loc.place {
                Place::Reg(33 | 34) => {}
                Place::Reg(r) => {
                    let ArgV::Reg(rv) = self.extend_for(v, loc.flags)?;
                    let p = dwarf_to_preg(r).unwrap();
                    if scratch_place(p) {
                        let m = scratch_move(rv, p, true);
                        self.emit(m);
                    } else {
                        b.fixed_use(rv, p);
                    }
                }
                Place::Stack(_) => return Err(self.err("a result returned on the stack")),
            }
        }
        let mut vi = b.vinst();
        vi.term = Term::Ret;
        self.push(vi);
        Ok(())
    }
}

enum ArgV {
    Reg(VReg),
}

#[derive(Clone, Copy)]
enum StoreSrc {
    Imm(i32),
    Gpr(Gpr),
    Xmm(Xmm),
}

trait OutLea {
    fn push_out_lea(&mut self, d: Gpr);
}
impl OutLea for B {
    /// `lea OUT(%rsp), d`: OUT is patched by the emitter (disp i32::MIN marks it).
    fn push_out_lea(&mut self, d: Gpr) {
        self.i(Inst::Lea {
            size: Size::S64,
            src: Mem::base(Gpr::RSP, OUT_MARK),
            dst: d,
        });
    }
}

/// Displacement marking "the size of the outgoing area" (patched after lowering).
pub const OUT_MARK: i32 = i32::MIN + 0x5a5a;

fn load_into(b: &mut B, ty: Type, m: Mem, v: VReg) {
    match ty {
        // Two bytes into the low bits of an xmm register, through the scratch register.
        Type::F16 => {
            b.i(Inst::MovX {
                signed: false,
                from: Size::S16,
                to: Size::S32,
                src: Rm::Mem(m),
                dst: SCRATCH,
            });
            let d = b.def_x(v);
            b.i(Inst::MovGprToXmm {
                size: Size::S32,
                src: Rm::Reg(SCRATCH),
                dst: d,
            });
        }
        Type::F32 | Type::F64 | Type::V128 => {
            let d = b.def_x(v);
            b.i(Inst::XmmMov {
                op: match ty {
                    Type::F32 => XmmMovOp::Movss,
                    Type::F64 => XmmMovOp::Movsd,
                    _ => XmmMovOp::Movups,
                },
                src: XmmMem::Mem(m),
                dst: XmmMem::Xmm(d),
            });
        }
        Type::I8 | Type::I16 => {
            let d = b.def_g(v);
            b.i(Inst::MovX {
                signed: false,
                from: size_of(ty),
                to: Size::S32,
                src: Rm::Mem(m),
                dst: d,
            });
        }
        _ => {
            let d = b.def_g(v);
            b.i(Inst::Mov {
                size: size_of(ty),
                src: Rmi::Mem(m),
                dst: Rm::Reg(d),
            });
        }
    }
}

fn store_from(b: &mut B, ty: Type, src: StoreSrc, m: Mem) {
    match src {
        // The low two bytes of an xmm register, through the scratch register.
        StoreSrc::Xmm(x) if ty == Type::F16 => {
            b.i(Inst::MovXmmToGpr {
                size: Size::S32,
                src: x,
                dst: Rm::Reg(SCRATCH),
            });
            b.i(Inst::Mov {
                size: Size::S16,
                src: Rmi::Reg(SCRATCH),
                dst: Rm::Mem(m),
            });
        }
        StoreSrc::Xmm(x) => b.i(Inst::XmmMov {
            op: match ty {
                Type::F32 => XmmMovOp::Movss,
                Type::V128 => XmmMovOp::Movups,
                _ => XmmMovOp::Movsd,
            },
            src: XmmMem::Xmm(x),
            dst: XmmMem::Mem(m),
        }),
        StoreSrc::Gpr(g) => b.i(Inst::Mov {
            size: size_of(ty),
            src: Rmi::Reg(g),
            dst: Rm::Mem(m),
        }),
        StoreSrc::Imm(c) => {
            let c = match ty {
                Type::I8 => c as i8 as i64,
                Type::I16 => c as i16 as i64,
                _ => c as i64,
            };
            b.i(Inst::Mov {
                size: size_of(ty),
                src: Rmi::Imm(c),
                dst: Rm::Mem(m),
            })
        }
    }
}

/// Copies `size` bytes from `src` to `dst` inside one instruction sequence (the scratch
/// register for small copies, `rep movsb` beyond 64 bytes).
fn copy_bytes(b: &mut B, l: &mut Lower, dst: Mem, src: Mem, size: u64) -> Result<(), BackendError> {
    if size > 64 {
        let (tdi, tsi, tcx) = (
            l.new_vreg(RegClass::Int),
            l.new_vreg(RegClass::Int),
            l.new_vreg(RegClass::Int),
        );
        // Early defs: no address operand lives in rdi/rsi/rcx when they are written.
        b.op(early_def(tdi, OperandConstraint::FixedReg(preg_gpr(7))));
        b.op(early_def(tsi, OperandConstraint::FixedReg(preg_gpr(6))));
        b.op(early_def(tcx, OperandConstraint::FixedReg(preg_gpr(1))));
    }
    copy_insts(dst, src, size, |i| b.i(i));
    Ok(())
}

/// The widths (8, 4, 2, 1 bytes, widest first) and offsets of the pieces that cover
/// `size` bytes, for small copies and clears.
fn pieces(size: u64) -> impl Iterator<Item = (Size, i32)> {
    let mut off = 0u64;
    std::iter::from_fn(move || {
        let n = [8u64, 4, 2, 1].into_iter().find(|&n| n <= size - off)?;
        let at = off as i32;
        off += n;
        let s = match n {
            8 => Size::S64,
            4 => Size::S32,
            2 => Size::S16,
            _ => Size::S8,
        };
        Some((s, at))
    })
}

/// The instructions copying `size` bytes from `src` to `dst` (shared by lowering and the
/// direct -O0 selector): piece by piece through the scratch register up to 64 bytes,
/// `rep movsb` beyond, which needs rdi, rsi and rcx free.
pub(crate) fn copy_insts(dst: Mem, src: Mem, size: u64, mut push: impl FnMut(Inst)) {
    if size <= 64 {
        for (s, off) in pieces(size) {
            let at = |m: Mem| Mem {
                disp: m.disp + off,
                ..m
            };
            push(Inst::Mov {
                size: s,
                src: Rmi::Mem(at(src)),
                dst: Rm::Reg(SCRATCH),
            });
            push(Inst::Mov {
                size: s,
                src: Rmi::Reg(SCRATCH),
                dst: Rm::Mem(at(dst)),
            });
        }
        return;
    }
    push(Inst::Lea {
        size: Size::S64,
        src: dst,
        dst: Gpr::RDI,
    });
    push(Inst::Lea {
        size: Size::S64,
        src,
        dst: Gpr::RSI,
    });
    push(Inst::Mov {
        size: Size::S64,
        src: Rmi::Imm(size as i64),
        dst: Rm::Reg(Gpr::RCX),
    });
    push(Inst::RepMovsb);
}

/// The instructions clearing `size` bytes at `dst` (shared by lowering and the direct -O0
/// selector): immediate stores up to 64 bytes, `rep stosb` beyond, which needs rdi, rcx
/// and rax free.
pub(crate) fn zero_insts(dst: Mem, size: u64, mut push: impl FnMut(Inst)) {
    if size <= 64 {
        for (s, off) in pieces(size) {
            push(Inst::Mov {
                size: s,
                src: Rmi::Imm(0),
                dst: Rm::Mem(Mem {
                    disp: dst.disp + off,
                    ..dst
                }),
            });
        }
        return;
    }
    push(Inst::Lea {
        size: Size::S64,
        src: dst,
        dst: Gpr::RDI,
    });
    push(Inst::Mov {
        size: Size::S64,
        src: Rmi::Imm(size as i64),
        dst: Rm::Reg(Gpr::RCX),
    });
    push(Inst::Alu {
        op: AluOp::Xor,
        size: Size::S32,
        src: Rmi::Reg(Gpr::RAX),
        dst: Rm::Reg(Gpr::RAX),
    });
    push(Inst::RepStosb);
}

/// Jumps to `target` unless the condition holds (flags already set); `skip` is a fresh
/// label used when the inverted condition is a conjunction.
fn jump_unless(b: &mut B, cs: CondSpec, target: Label, skip: Label) {
    match cs.invert() {
        CondSpec::One(c) => b.i(Inst::Jcc { cond: c, target }),
        CondSpec::Or(c1, c2) => {
            b.i(Inst::Jcc { cond: c1, target });
            b.i(Inst::Jcc { cond: c2, target });
        }
        CondSpec::And(c1, c2) => {
            b.i(Inst::Jcc {
                cond: c1.invert(),
                target: skip,
            });
            b.i(Inst::Jcc { cond: c2, target });
            b.i(Inst::Label(skip));
        }
    }
}

/// Float (double with `double`) in `src` to u64 in `dst`: values from 2^63 up are converted
/// as `src - 2^63` with the top bit then flipped. `tmp` is clobbered, and so is SCRATCH; the
/// labels are the sequence's own. Shared by lowering and the direct -O0 selector.
pub(crate) fn f_to_u64_insts(
    double: bool,
    src: Xmm,
    dst: Gpr,
    tmp: Xmm,
    (l_big, l_end): (Label, Label),
    mut emit: impl FnMut(Inst),
) {
    let (size, bits) = if double {
        (Size::S64, 0x43e0_0000_0000_0000i64)
    } else {
        (Size::S32, 0x5f00_0000i64)
    };
    emit(Inst::Mov {
        size,
        src: Rmi::Imm(bits),
        dst: Rm::Reg(SCRATCH),
    });
    emit(Inst::MovGprToXmm {
        size,
        src: Rm::Reg(SCRATCH),
        dst: tmp,
    });
    emit(Inst::Sse {
        op: if double { SseOp::Comisd } else { SseOp::Comiss },
        src: XmmMem::Xmm(tmp),
        dst: src,
    });
    emit(Inst::Jcc {
        cond: Cond::AE,
        target: l_big,
    });
    emit(Inst::CvtTF2Si {
        double,
        size: Size::S64,
        src: XmmMem::Xmm(src),
        dst,
    });
    emit(Inst::Jmp { target: l_end });
    emit(Inst::Label(l_big));
    // tmp = 2^63 - src; converted and negated it is src - 2^63.
    emit(Inst::Sse {
        op: if double { SseOp::Subsd } else { SseOp::Subss },
        src: XmmMem::Xmm(src),
        dst: tmp,
    });
    emit(Inst::CvtTF2Si {
        double,
        size: Size::S64,
        src: XmmMem::Xmm(tmp),
        dst,
    });
    emit(Inst::Unary {
        op: UnOp::Neg,
        size: Size::S64,
        dst: Rm::Reg(dst),
    });
    emit(Inst::Mov {
        size: Size::S64,
        src: Rmi::Imm(i64::MIN),
        dst: Rm::Reg(SCRATCH),
    });
    emit(Inst::Alu {
        op: AluOp::Xor,
        size: Size::S64,
        src: Rmi::Reg(SCRATCH),
        dst: Rm::Reg(dst),
    });
    emit(Inst::Label(l_end));
}

/// The dispatch through a jump table: `index` (the switch value less the first case,
/// 64-bit) above `range` goes to `default`; otherwise the table's 32-bit entry, relative to
/// the table, is added to its address and jumped to. `index` and SCRATCH are clobbered.
/// Shared by lowering and the direct -O0 selector.
pub(crate) fn jump_table_insts(
    index: Gpr,
    range: i64,
    default: Label,
    table: Label,
    mut emit: impl FnMut(Inst),
) {
    emit(Inst::Alu {
        op: AluOp::Cmp,
        size: Size::S64,
        src: Rmi::Imm(range),
        dst: Rm::Reg(index),
    });
    emit(Inst::Jcc {
        cond: Cond::A,
        target: default,
    });
    emit(Inst::Lea {
        size: Size::S64,
        src: Mem::rip_label(table, 0),
        dst: SCRATCH,
    });
    emit(Inst::MovX {
        signed: true,
        from: Size::S32,
        to: Size::S64,
        src: Rm::Mem(Mem::bis(SCRATCH, index, 4, 0)),
        dst: index,
    });
    emit(Inst::Alu {
        op: AluOp::Add,
        size: Size::S64,
        src: Rmi::Reg(SCRATCH),
        dst: Rm::Reg(index),
    });
    emit(Inst::JmpInd {
        target: Rm::Reg(index),
    });
}

/// `d = -d` for a float (`single`: f32) in `d`: the sign bit, made in the GPR `tmp` and
/// moved to `xtmp`, flipped with xorps. Shared by lowering and the direct -O0 selector.
pub(crate) fn fneg_insts(single: bool, d: Xmm, tmp: Gpr, xtmp: Xmm, mut emit: impl FnMut(Inst)) {
    let (size, bits) = if single {
        (Size::S32, 0x8000_0000i64)
    } else {
        (Size::S64, i64::MIN)
    };
    emit(Inst::Mov {
        size,
        src: Rmi::Imm(bits),
        dst: Rm::Reg(tmp),
    });
    emit(Inst::MovGprToXmm {
        size,
        src: Rm::Reg(tmp),
        dst: xtmp,
    });
    emit(Inst::Sse {
        op: SseOp::Xorps,
        src: XmmMem::Xmm(xtmp),
        dst: d,
    });
}

/// The SSE instruction of a float add, subtract, multiply or divide.
pub(crate) fn sse_arith_op(op: BinaryOp, double: bool) -> SseOp {
    match (op, double) {
        (BinaryOp::FAdd, false) => SseOp::Addss,
        (BinaryOp::FAdd, true) => SseOp::Addsd,
        (BinaryOp::FSub, false) => SseOp::Subss,
        (BinaryOp::FSub, true) => SseOp::Subsd,
        (BinaryOp::FMul, false) => SseOp::Mulss,
        (BinaryOp::FMul, true) => SseOp::Mulsd,
        (BinaryOp::FDiv, false) => SseOp::Divss,
        _ => SseOp::Divsd,
    }
}

/// A division of rax (extended into rdx first: sign or zero) by `divisor`: the quotient in
/// rax, the remainder in rdx. Shared by lowering and the direct -O0 selector.
pub(crate) fn div_insts(signed: bool, size: Size, divisor: Rm, mut emit: impl FnMut(Inst)) {
    if signed {
        emit(Inst::SignExtendDx { size });
    } else {
        emit(Inst::Alu {
            op: AluOp::Xor,
            size: Size::S32,
            src: Rmi::Reg(Gpr::RDX),
            dst: Rm::Reg(Gpr::RDX),
        });
    }
    emit(Inst::Unary {
        op: if signed { UnOp::Idiv } else { UnOp::Div },
        size,
        dst: divisor,
    });
}

/// `d` = condition ? 1 : 0 (zero-extended to 32 bits) from the flags; a two-flag condition
/// (`And`/`Or`) also sets `tmp`. Shared by lowering and the direct -O0 selector.
pub(crate) fn setcc_insts(cs: CondSpec, d: Gpr, tmp: Gpr, mut emit: impl FnMut(Inst)) {
    match cs {
        CondSpec::One(c) => emit(Inst::Setcc {
            cond: c,
            dst: Rm::Reg(d),
        }),
        CondSpec::And(c1, c2) | CondSpec::Or(c1, c2) => {
            emit(Inst::Setcc {
                cond: c1,
                dst: Rm::Reg(d),
            });
            emit(Inst::Setcc {
                cond: c2,
                dst: Rm::Reg(tmp),
            });
            emit(Inst::Alu {
                op: if matches!(cs, CondSpec::And(..)) {
                    AluOp::And
                } else {
                    AluOp::Or
                },
                size: Size::S8,
                src: Rmi::Reg(tmp),
                dst: Rm::Reg(d),
            });
        }
    }
    emit(Inst::MovX {
        signed: false,
        from: Size::S8,
        to: Size::S32,
        src: Rm::Reg(d),
        dst: d,
    });
}

/// u64 in `src` to float (double with `double`) in `dst`, as gcc does it: a value with the
/// top bit set is halved (keeping its low bit, so rounding is right), converted and
/// doubled. `tmp` is clobbered, and so is SCRATCH; the labels are the sequence's own.
/// Shared by lowering and the direct -O0 selector.
pub(crate) fn u64_to_f_insts(
    double: bool,
    src: Gpr,
    dst: Xmm,
    tmp: Gpr,
    (l_neg, l_end): (Label, Label),
    mut emit: impl FnMut(Inst),
) {
    emit(Inst::Test {
        size: Size::S64,
        src: Rmi::Reg(src),
        dst: Rm::Reg(src),
    });
    emit(Inst::Jcc {
        cond: Cond::S,
        target: l_neg,
    });
    emit(Inst::Sse {
        op: SseOp::Xorps,
        src: XmmMem::Xmm(dst),
        dst,
    });
    emit(Inst::CvtSi2F {
        double,
        size: Size::S64,
        src: Rm::Reg(src),
        dst,
    });
    emit(Inst::Jmp { target: l_end });
    emit(Inst::Label(l_neg));
    emit(Inst::Mov {
        size: Size::S64,
        src: Rmi::Reg(src),
        dst: Rm::Reg(tmp),
    });
    emit(Inst::Shift {
        op: ShiftOp::Shr,
        size: Size::S64,
        amount: Some(1),
        dst: Rm::Reg(tmp),
    });
    emit(Inst::Mov {
        size: Size::S64,
        src: Rmi::Reg(src),
        dst: Rm::Reg(SCRATCH),
    });
    emit(Inst::Alu {
        op: AluOp::And,
        size: Size::S32,
        src: Rmi::Imm(1),
        dst: Rm::Reg(SCRATCH),
    });
    emit(Inst::Alu {
        op: AluOp::Or,
        size: Size::S64,
        src: Rmi::Reg(SCRATCH),
        dst: Rm::Reg(tmp),
    });
    emit(Inst::Sse {
        op: SseOp::Xorps,
        src: XmmMem::Xmm(dst),
        dst,
    });
    emit(Inst::CvtSi2F {
        double,
        size: Size::S64,
        src: Rm::Reg(tmp),
        dst,
    });
    emit(Inst::Sse {
        op: if double { SseOp::Addsd } else { SseOp::Addss },
        src: XmmMem::Xmm(dst),
        dst,
    });
    emit(Inst::Label(l_end));
}

/// `va_start` (System V): the `va_list` at `list` gets the offsets into the register save area
/// past the named arguments of `plan`, the overflow area past the named stack arguments, and
/// the register save area at `save` (from rbp). Shared by lowering and the direct -O0
/// selector; each passes the instructions to its own output.
pub(crate) fn va_start_insts(
    plan: &neverc_abi::CallPlan,
    list: Mem,
    save: i32,
    mut emit: impl FnMut(Inst),
) {
    // The hidden result pointer of a function returning in memory takes a register too
    // (rdi), so named GPRs start after it.
    let mut gp = plan
        .returns
        .iter()
        .filter(|l| l.flags.contains(Flags::SRET) && matches!(l.place, Place::Reg(r) if r < 16))
        .count() as i64;
    let mut fp = 0;
    let mut stack_end = 0u32;
    for l in &plan.arguments {
        if l.flags.contains(Flags::VARARG) || l.flags.contains(Flags::VA_COUNT) {
            continue;
        }
        match l.place {
            Place::Reg(r) if r < 16 => gp += 1,
            Place::Reg(_) => fp += 1,
            Place::Stack(o) => stack_end = stack_end.max((o + l.size).next_multiple_of(8)),
        }
    }
    let at = |d: i32| Mem {
        disp: list.disp + d,
        ..list
    };
    emit(Inst::Mov {
        size: Size::S32,
        src: Rmi::Imm(8 * gp),
        dst: Rm::Mem(at(0)),
    });
    emit(Inst::Mov {
        size: Size::S32,
        src: Rmi::Imm(48 + 16 * fp),
        dst: Rm::Mem(at(4)),
    });
    emit(Inst::Lea {
        size: Size::S64,
        src: Mem::base(Gpr::RBP, 16 + stack_end as i32),
        dst: SCRATCH,
    });
    emit(Inst::Mov {
        size: Size::S64,
        src: Rmi::Reg(SCRATCH),
        dst: Rm::Mem(at(8)),
    });
    emit(Inst::Lea {
        size: Size::S64,
        src: Mem::base(Gpr::RBP, save),
        dst: SCRATCH,
    });
    emit(Inst::Mov {
        size: Size::S64,
        src: Rmi::Reg(SCRATCH),
        dst: Rm::Mem(at(16)),
    });
}
