//! Instruction selection: one IR function to virtual-register code
//! ([`neverc_codegen::vcode::VCode`] over `asm::Inst`).
//!
//! Values: integers and pointers live in general registers, `f32`/`f64` in vector
//! registers, `_Float16` in the low 16 bits of one (an `h` register; stored, passed,
//! converted, arithmetic refused as on x86-64). An integer narrower than 32 bits is computed in a `w` register whose upper
//! bits are garbage (the IR extends explicitly), so only operations whose result depends on
//! them (division, right shifts, compares, conversions, tests of a condition) extend first.
//!
//! A template register field `Gpr(PH | k)` / `Fpr(PH | k)` names regalloc2 operand `k`.
//! Uses read after the first write of a multi-instruction sequence are "late" uses and
//! temporaries are early defs, so the allocator never shares their registers.
//!
//! Constants and slot and symbol addresses have no register of their own: each use
//! materialises them right there (or folds them: immediates, `[x29, #off]`).
//!
//! Frame (the frame record is always kept): `x29` points at the saved `x29`/`x30` pair;
//! above it the incoming stack arguments; below it the fixed slots this module allocates
//! (IR slots), then regalloc2's spill slots and the callee-saved registers (placed by
//! `emit.rs`), then the outgoing argument area at `sp`.
//!
//! `__int128` values are register pairs (`lower/i128.rs`). Computed goto jumps to one
//! dispatch block (`br`) whose successors are a landing pad per possible target; `&&label`
//! is the pad's address (`adr`).
//!
//! Not lowered yet, refused by name: `_Float16` arithmetic, 16-byte vector arithmetic,
//! inline asm the encoder has no form for.

mod i128;

use crate::asm::*;
use crate::backend::{BackendError, Options, Pic};
use crate::custom_cc;
use neverc_abi::{Flags, Location, Place};
use neverc_codegen::reloc::SymId;
use neverc_codegen::vcode::{reverse_postorder, Term, VBlock, VCode, VInst};
use neverc_ir as ir;
use neverc_ir::{BinaryOp, ConvOp, FloatCC, IntCC, Op, Type, UnaryOp, Value};
mod inline_asm;

use regalloc2::{
    Operand, OperandConstraint, OperandKind, OperandPos, PReg, PRegSet, RegClass, VReg,
};

pub type VI = VInst<Inst, BrCond>;
pub type VB = VBlock<Inst, BrCond>;

/// What a two-way terminator tests: the flags its templates set, or a register the branch
/// itself reads (`cbz`/`cbnz`, `tbz`/`tbnz`; `rt` is a placeholder of the vinst's operands).
/// Successor 0 is taken when it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrCond {
    Flags(Cond),
    /// `rt == 0` (`nz`: `rt != 0`) at `size`.
    Zero {
        nz: bool,
        size: Size,
        rt: Gpr,
    },
    /// Bit `bit` of `rt` is 0 (`nz`: is 1).
    Bit {
        nz: bool,
        rt: Gpr,
        bit: u8,
    },
}

/// An operand absorbed into the integer operation using it (see `Lower::operand_fold`).
#[derive(Clone, Copy, Debug)]
enum Fold {
    /// `p * q`: `madd`/`msub`.
    Mul(Value, Value),
    /// `x` shifted by a constant.
    Shifted(Value, Shift, u8),
    /// `x` extended, then shifted left 0-4.
    Extended(Value, Extend, u8),
    /// `~x`.
    Not(Value),
}

impl BrCond {
    pub fn invert(self) -> BrCond {
        match self {
            BrCond::Flags(c) => BrCond::Flags(c.invert()),
            BrCond::Zero { nz, size, rt } => BrCond::Zero { nz: !nz, size, rt },
            BrCond::Bit { nz, rt, bit } => BrCond::Bit { nz: !nz, rt, bit },
        }
    }

    /// The branch to `target` taken when the condition holds.
    pub fn branch(self, target: Target) -> Inst {
        match self {
            BrCond::Flags(c) => Inst::BCond(c, target),
            BrCond::Zero { nz, size, rt } => Inst::Cbz {
                nz,
                size,
                rt,
                target,
            },
            BrCond::Bit { nz, rt, bit } => Inst::Tbz {
                nz,
                rt,
                bit,
                target,
            },
        }
    }
}

/// Placeholder bit: a register field `PH | k` means operand `k`.
pub const PH: u8 = 0x40;
/// Labels at or above this are internal to one instruction sequence; below it, a label
/// is a vblock index.
pub const INTERNAL_LABEL: u32 = 0x4000_0000;
/// Scratch registers no value is allocated to: x16 for regalloc2's moves, x17 for the
/// emitter's out-of-range frame addresses; v31 for regalloc2's float moves.
pub const SCRATCH: Gpr = Gpr(16);
pub const SCRATCH2: Gpr = Gpr(17);
pub const VSCRATCH: Fpr = Fpr(31);

pub fn preg_gpr(n: u8) -> PReg {
    PReg::new(n as usize, RegClass::Int)
}
pub fn preg_fpr(n: u8) -> PReg {
    PReg::new(n as usize, RegClass::Float)
}

/// x0-x15 and x19-x28 (x16/x17 scratch, x18 the platform register, x29/x30 the frame
/// record).
pub fn gpr_allocatable() -> Vec<PReg> {
    (0u8..16).chain(19..29).map(preg_gpr).collect()
}
pub fn fpr_allocatable() -> Vec<PReg> {
    (0u8..31).map(preg_fpr).collect()
}

/// The asm register of an allocatable register.
pub fn preg_reg(p: PReg) -> Reg {
    match p.class() {
        RegClass::Int => Reg::G(Gpr(p.hw_enc() as u8)),
        _ => Reg::V(Fpr(p.hw_enc() as u8)),
    }
}

/// The register a plan's DWARF number names (x0-x30 are 0-30, v0-v31 64-95).
pub fn dwarf_to_preg(n: u16) -> Option<PReg> {
    match n {
        0..=15 | 19..=28 => Some(preg_gpr(n as u8)),
        64..=94 => Some(preg_fpr((n - 64) as u8)),
        _ => None,
    }
}

/// Frame facts the emitter needs.
#[derive(Clone, Debug, Default)]
pub struct FrameInfo {
    /// Bytes below x29 used by the fixed slots (multiple of 16).
    pub fixed_size: u32,
    /// Largest outgoing argument area (multiple of 16).
    pub max_out: u32,
    /// Registers the function's own plan says it must preserve.
    pub callee_saved: Vec<PReg>,
    /// x29 offset of a variadic function's register save area: x0-x7 (64 bytes), then
    /// q0-q7 (128 bytes), stored by the prologue.
    pub va_save: Option<i64>,
    /// Registers of `callee_saved` the prologue saves even where the allocator does not
    /// use them (custom conventions: see `custom_cc`).
    pub extra_saved: Vec<PReg>,
    /// Save every callee-saved register, used or not: the function calls setjmp, and a
    /// `__builtin_longjmp` back into it skips the epilogues of the functions in between,
    /// which may have changed any of them.
    pub save_all: bool,
}

pub struct Lowered {
    pub vcode: VCode<Inst, BrCond>,
    pub frame: FrameInfo,
    pub next_label: u32,
    /// The literal pool the emitter places after the code: label, bits, size.
    pub pool: Vec<(Label, u64, FSize)>,
    /// The label whose address stands for each reachable IR block (`&&label`): its
    /// landing pad when the function jumps indirectly, else the block itself.
    pub block_labels: std::collections::HashMap<ir::Block, Label>,
}

/// An instruction being built: templates plus operands.
#[derive(Default)]
struct B {
    insts: Vec<Inst>,
    ops: Vec<Operand>,
}

impl B {
    fn i(&mut self, i: Inst) {
        self.insts.push(i);
    }
    fn op(&mut self, o: Operand) -> u8 {
        self.ops.push(o);
        PH | (self.ops.len() - 1) as u8
    }
    fn use_g(&mut self, v: VReg) -> Gpr {
        Gpr(self.op(Operand::reg_use(v)))
    }
    fn late_g(&mut self, v: VReg) -> Gpr {
        Gpr(self.op(Operand::reg_use_at_end(v)))
    }
    fn def_g(&mut self, v: VReg) -> Gpr {
        Gpr(self.op(Operand::reg_def(v)))
    }
    fn early_g(&mut self, v: VReg) -> Gpr {
        Gpr(self.op(Operand::new(
            v,
            OperandConstraint::Reg,
            OperandKind::Def,
            OperandPos::Early,
        )))
    }
    fn use_v(&mut self, v: VReg) -> Fpr {
        Fpr(self.op(Operand::reg_use(v)))
    }
    fn late_v(&mut self, v: VReg) -> Fpr {
        Fpr(self.op(Operand::reg_use_at_end(v)))
    }
    fn def_v(&mut self, v: VReg) -> Fpr {
        Fpr(self.op(Operand::reg_def(v)))
    }
    fn fixed_use(&mut self, v: VReg, p: PReg) {
        self.op(Operand::reg_fixed_use(v, p));
    }
    fn fixed_def(&mut self, v: VReg, p: PReg) {
        self.op(Operand::reg_fixed_def(v, p));
    }
    fn vinst(self) -> VI {
        VInst::new(self.insts, self.ops)
    }
}

/// Operation width of an integer type held in a register.
fn sz(ty: Type) -> Size {
    match ty {
        Type::I64 | Type::Ptr => Size::X,
        _ => Size::W,
    }
}

/// The precision of a float type's instructions; `_Float16` values (the low 16 bits of an
/// `h` register) are moved, selected and transferred as `s` registers.
fn fsz(ty: Type) -> FSize {
    if matches!(ty, Type::F32 | Type::F16) {
        FSize::S
    } else {
        FSize::D
    }
}

fn bits(ty: Type) -> u8 {
    (ty.bytes() * 8) as u8
}

fn int_cond(cc: IntCC) -> Cond {
    match cc {
        IntCC::Eq => Cond::Eq,
        IntCC::Ne => Cond::Ne,
        IntCC::Slt => Cond::Lt,
        IntCC::Sle => Cond::Le,
        IntCC::Sgt => Cond::Gt,
        IntCC::Sge => Cond::Ge,
        IntCC::Ult => Cond::Lo,
        IntCC::Ule => Cond::Ls,
        IntCC::Ugt => Cond::Hi,
        IntCC::Uge => Cond::Hs,
    }
}

fn signed_cc(cc: IntCC) -> bool {
    matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge)
}

/// After `fcmp`: conditions false when unordered, except `!=` (true) and unordered itself.
fn float_cond(cc: FloatCC) -> Cond {
    match cc {
        FloatCC::Eq => Cond::Eq,
        FloatCC::Ne => Cond::Ne,
        FloatCC::Lt => Cond::Mi,
        FloatCC::Le => Cond::Ls,
        FloatCC::Gt => Cond::Gt,
        FloatCC::Ge => Cond::Ge,
        FloatCC::Unordered => Cond::Vs,
    }
}

/// The constant's bits at the type's width, sign-extended to 64.
fn imm_of(ty: Type, imm: i128) -> i64 {
    match ty {
        Type::I8 => imm as i8 as i64,
        Type::I16 => imm as i16 as i64,
        Type::I32 => imm as i32 as i64,
        _ => imm as i64,
    }
}

/// A load/store address for `base + off` with an access of `bytes`, if one instruction can
/// take it.
pub fn mem_at(base: Gpr, off: i64, bytes: u32) -> Option<Addr> {
    let b = bytes as i64;
    if off >= 0 && off % b == 0 && off / b <= 4095 {
        Some(Addr::UImm {
            base,
            off: off as u32,
        })
    } else if (-256..=255).contains(&off) {
        Some(Addr::Unscaled {
            base,
            off: off as i16,
        })
    } else {
        None
    }
}

/// `cmp rn, #c` in one instruction when `c` or `-c` (`cmn`) is a 12-bit immediate,
/// optionally shifted left by 12.
pub fn cmp_imm(size: Size, rn: Gpr, c: i64) -> Option<Inst> {
    let m = c.unsigned_abs();
    let (imm12, lsl12) = if m < 4096 {
        (m, false)
    } else if m.is_multiple_of(4096) && m >> 12 < 4096 {
        (m >> 12, true)
    } else {
        return None;
    };
    Some(Inst::AluImm {
        op: if c < 0 { AddSub::Add } else { AddSub::Sub },
        flags: true,
        size,
        rd: Gpr::ZR,
        rn,
        imm12: imm12 as u16,
        lsl12,
    })
}

/// `movz`/`movn`/`movk` or `orr` instructions putting `value` (at `size`) in `d`.
pub fn mov_const(d: Gpr, size: Size, value: u64) -> Vec<Inst> {
    let value = if size == Size::W {
        value & 0xffff_ffff
    } else {
        value
    };
    let halves = (size.bits() / 16) as usize;
    let h = |v: u64, i: usize| ((v >> (16 * i)) & 0xffff) as u16;
    let nonzero = (0..halves).filter(|&i| h(value, i) != 0).count();
    let nonones = (0..halves).filter(|&i| h(value, i) != 0xffff).count();
    if nonzero > 1 && nonones > 1 && crate::asm::encode::bitmask_imm(value, size.bits()).is_some() {
        return vec![Inst::LogicImm {
            op: LogicOp::Orr,
            size,
            rd: d,
            rn: Gpr::ZR,
            imm: value,
        }];
    }
    let mut out = Vec::new();
    if nonones < nonzero {
        // movn for the first half that is not all ones, movk for the rest.
        for i in 0..halves {
            if h(value, i) == 0xffff {
                continue;
            }
            if out.is_empty() {
                out.push(Inst::MovWide {
                    op: MovOp::Movn,
                    size,
                    rd: d,
                    imm16: !h(value, i),
                    shift: 16 * i as u8,
                });
            } else {
                out.push(Inst::MovWide {
                    op: MovOp::Movk,
                    size,
                    rd: d,
                    imm16: h(value, i),
                    shift: 16 * i as u8,
                });
            }
        }
        if out.is_empty() {
            out.push(Inst::MovWide {
                op: MovOp::Movn,
                size,
                rd: d,
                imm16: 0,
                shift: 0,
            });
        }
    } else {
        for i in 0..halves {
            if h(value, i) == 0 {
                continue;
            }
            let op = if out.is_empty() {
                MovOp::Movz
            } else {
                MovOp::Movk
            };
            out.push(Inst::MovWide {
                op,
                size,
                rd: d,
                imm16: h(value, i),
                shift: 16 * i as u8,
            });
        }
        if out.is_empty() {
            out.push(Inst::MovWide {
                op: MovOp::Movz,
                size,
                rd: d,
                imm16: 0,
                shift: 0,
            });
        }
    }
    out
}

/// `rd = rn + imm` (or minus) in one or two instructions when |imm| < 2^24, for `sp` too.
pub fn add_imm(rd: Gpr, rn: Gpr, imm: i64) -> Option<Vec<Inst>> {
    let (op, a) = if imm < 0 {
        (AddSub::Sub, imm.unsigned_abs())
    } else {
        (AddSub::Add, imm as u64)
    };
    if a >= 1 << 24 {
        return None;
    }
    let mk = |rn: Gpr, imm12: u64, lsl12: bool| Inst::AluImm {
        op,
        flags: false,
        size: Size::X,
        rd,
        rn,
        imm12: imm12 as u16,
        lsl12,
    };
    let (hi, lo) = (a >> 12, a & 0xfff);
    Some(match (hi, lo) {
        (0, lo) => vec![mk(rn, lo, false)],
        (hi, 0) => vec![mk(rn, hi, true)],
        (hi, lo) => vec![mk(rn, hi, true), mk(rd, lo, false)],
    })
}

struct Lower<'a> {
    m: &'a ir::Module,
    f: &'a ir::Function,
    opts: &'a Options,
    syms: &'a [SymId],
    name: &'a str,
    vregs: Vec<Option<VReg>>,
    /// The high halves of `__int128` values (the low half is in `vregs`).
    hi: Vec<Option<VReg>>,
    nvregs: usize,
    fixed_size: u32,
    slot_off: Vec<i64>,
    /// Per slot, its alignment when over 16 (x29 is only 16-aligned: such a slot's
    /// address is computed at run time, `slot_off` being the bottom of its reserve).
    slot_overalign: Vec<Option<u64>>,
    blocks: Vec<VB>,
    cur: usize,
    ir2v: Vec<usize>,
    uses: Vec<u32>,
    skip: Vec<bool>,
    pred_edges: Vec<u32>,
    next_label: u32,
    max_out: u32,
    /// Declares a runtime helper (libgcc's binary128 arithmetic) and gives its symbol.
    libcall: &'a mut dyn FnMut(&str) -> SymId,
    /// Some value is a whole 16-byte vector register (binary128 `long double`, a 16-byte
    /// vector): calls then preserve no vector register (AAPCS64 keeps only the low 64
    /// bits of v8-v15).
    wide: bool,
    va_save: Option<i64>,
    /// See `FrameInfo::extra_saved`.
    extra_saved: Vec<PReg>,
    /// Instructions absorbed into their user by `plan_operand_folds` (empty at -O0).
    folded: Vec<bool>,
    /// Per value: a load to sign-extend to this type (`plan_signed_loads`).
    signed_load: Vec<Option<Type>>,
    /// Float constants loaded PC-relative: label, bits, size (see `Lowered::pool`).
    pool: Vec<(Label, u64, FSize)>,
    /// Computed goto: the landing-pad vblock of each possible target, and the dispatch
    /// vblock (`br` to its parameter) every indirect jump goes to.
    landing: std::collections::HashMap<ir::Block, usize>,
    dispatch: Option<(usize, VReg)>,
}

pub fn lower_function(
    m: &ir::Module,
    f: &ir::Function,
    opts: &Options,
    syms: &[SymId],
    libcall: &mut dyn FnMut(&str) -> SymId,
) -> Result<Lowered, BackendError> {
    let name = m.sym(f.sym).name.as_str();
    let wide = f
        .values
        .iter()
        .any(|v| matches!(v.ty, Type::F128 | Type::V128));
    let nvals = f.values.len();
    let mut l = Lower {
        m,
        f,
        opts,
        syms,
        name,
        vregs: vec![None; nvals],
        hi: vec![None; nvals],
        nvregs: 0,
        fixed_size: 0,
        slot_off: Vec::new(),
        slot_overalign: Vec::new(),
        blocks: Vec::new(),
        cur: 0,
        ir2v: vec![usize::MAX; f.blocks.len()],
        uses: vec![0; nvals],
        skip: vec![false; f.insts.len()],
        pred_edges: vec![0; f.blocks.len()],
        next_label: INTERNAL_LABEL,
        max_out: 0,
        libcall,
        wide,
        va_save: None,
        extra_saved: custom_cc::always_saved(&f.plan),
        folded: Vec::new(),
        signed_load: vec![None; nvals],
        pool: Vec::new(),
        landing: Default::default(),
        dispatch: None,
    };
    l.run()?;
    let mut block_labels = std::collections::HashMap::new();
    for b in 0..f.blocks.len() {
        let blk = ir::Block(b as u32);
        if let Some(&lp) = l.landing.get(&blk) {
            block_labels.insert(blk, Label(lp as u32));
        } else if l.ir2v[b] != usize::MAX {
            block_labels.insert(blk, Label(l.ir2v[b] as u32));
        }
    }
    let mut callee_saved: Vec<PReg> = f
        .plan
        .callee_saved
        .iter()
        .filter_map(|&r| dwarf_to_preg(r))
        .collect();
    callee_saved.extend(custom_cc::always_saved(&f.plan));
    let frame = FrameInfo {
        fixed_size: l.fixed_size.next_multiple_of(16),
        max_out: l.max_out.next_multiple_of(16),
        callee_saved,
        va_save: l.va_save,
        extra_saved: l.extra_saved,
        save_all: f.calls_setjmp,
    };
    let mut vcode = VCode::new(l.blocks, l.nvregs);
    vcode.wide_float = wide;
    Ok(Lowered {
        vcode,
        frame,
        next_label: l.next_label,
        pool: l.pool,
        block_labels,
    })
}

impl<'a> Lower<'a> {
    fn err(&self, what: &str) -> BackendError {
        BackendError {
            message: format!(
                "neverc cannot compile {what} for aarch64 yet (function {})",
                self.name
            ),
        }
    }

    fn new_vreg(&mut self, class: RegClass) -> VReg {
        let v = VReg::new(self.nvregs, class);
        self.nvregs += 1;
        v
    }
    fn gtemp(&mut self) -> VReg {
        self.new_vreg(RegClass::Int)
    }

    fn class_of(ty: Type) -> RegClass {
        if in_v(ty) {
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

    fn new_block(&mut self) -> usize {
        let i = self.blocks.len();
        let origin = if self.blocks.is_empty() { 0 } else { self.cur };
        self.blocks.push(VBlock::new(origin));
        i
    }

    fn push(&mut self, v: VI) {
        self.blocks[self.cur].insts.push(v);
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

    fn check_type(&self, ty: Type) -> Result<(), BackendError> {
        match ty {
            Type::I128 => Err(self.err("__int128")),
            Type::F80 => Err(self.err("an x87 long double")),
            _ => Ok(()),
        }
    }

    /// The vreg of a value computed by an instruction or a block parameter.
    fn vreg(&mut self, v: Value) -> Result<VReg, BackendError> {
        if let Some(r) = self.vregs[v.index()] {
            return Ok(r);
        }
        let ty = self.ty(v);
        self.check_type(ty)?;
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
                    | Op::Fconst { .. }
                    | Op::BlockAddr(_)
            )
        ) && !matches!(self.ty(v), Type::I128 | Type::F80)
    }

    fn const_of(&self, v: Value) -> Option<i64> {
        match self.def_of(v) {
            Some(Op::Iconst { ty, imm }) if *ty != Type::I128 => Some(imm_of(*ty, imm.get())),
            _ => None,
        }
    }

    /// The value in a register at the current point (materialising constants and
    /// addresses).
    fn reg(&mut self, v: Value) -> Result<VReg, BackendError> {
        if let Some(a) = self.alias_of(v) {
            return self.reg(a);
        }
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
                for i in mov_const(d, sz(ty), imm_of(ty, imm.get()) as u64) {
                    b.i(i);
                }
            }
            Op::Fconst {
                ty: Type::F128,
                bits,
            } => {
                let bits = bits.get();
                let (t1, t2) = (self.gtemp(), self.gtemp());
                let (g1, g2) = (b.early_g(t1), b.early_g(t2));
                let d = b.def_v(r);
                for i in mov_const(g1, Size::X, bits as u64) {
                    b.i(i);
                }
                for i in mov_const(g2, Size::X, (bits >> 64) as u64) {
                    b.i(i);
                }
                b.i(Inst::FMovFromGpr {
                    size: FSize::D,
                    rd: d,
                    rn: g1,
                });
                b.i(Inst::FMovTop {
                    to_gpr: false,
                    g: g2,
                    v: d,
                });
            }
            Op::Fconst {
                ty: Type::F16,
                bits,
            } => {
                let bits = bits.get();
                // The 16 bits through a general register (no `fmov h` without FP16).
                let d = b.def_v(r);
                let t = self.gtemp();
                let tg = b.early_g(t);
                for i in mov_const(tg, Size::W, bits as u64 & 0xffff) {
                    b.i(i);
                }
                b.i(Inst::FMovFromGpr {
                    size: FSize::S,
                    rd: d,
                    rn: tg,
                });
            }
            Op::Fconst { ty, bits } => {
                let bits = bits.get();
                let d = b.def_v(r);
                let size = fsz(ty);
                let val = if ty == Type::F32 {
                    f32::from_bits(bits as u32) as f64
                } else {
                    f64::from_bits(bits as u64)
                };
                let isize = if size == FSize::S { Size::W } else { Size::X };
                // Moves and an fmov are no bigger than a load and its pool entry.
                let few_moves = mov_const(Gpr::ZR, isize, bits as u64).len()
                    < if size == FSize::S { 2 } else { 3 };
                if let Some(imm8) = crate::asm::encode::fmov_imm8(val) {
                    b.i(Inst::FMovImm { size, rd: d, imm8 });
                } else if bits == 0 {
                    b.i(Inst::FMovFromGpr {
                        size,
                        rd: d,
                        rn: Gpr::ZR,
                    });
                } else if few_moves {
                    let t = self.gtemp();
                    let tg = b.early_g(t);
                    for i in mov_const(tg, isize, bits as u64) {
                        b.i(i);
                    }
                    b.i(Inst::FMovFromGpr {
                        size,
                        rd: d,
                        rn: tg,
                    });
                } else {
                    // From the function's literal pool (one `ldr` instead of three or four
                    // moves into a general register and an `fmov`).
                    let bits = if size == FSize::S {
                        bits as u32 as u64
                    } else {
                        bits as u64
                    };
                    let l = match self.pool.iter().find(|p| p.1 == bits && p.2 == size) {
                        Some(p) => p.0,
                        None => {
                            let l = self.new_label();
                            self.pool.push((l, bits, size));
                            l
                        }
                    };
                    b.i(Inst::Mem {
                        op: if size == FSize::S {
                            MemOp::LdrS
                        } else {
                            MemOp::LdrD
                        },
                        rt: Reg::V(d),
                        addr: Addr::Literal(Target::Label(l)),
                    });
                }
            }
            Op::SlotAddr(_) | Op::SymAddr { .. } => {
                let d = b.def_g(r);
                self.addr_into(&mut b, &op, d)?;
            }
            Op::BlockAddr(blk) => {
                let lab = self.block_addr_label(blk)?;
                let d = b.def_g(r);
                b.i(Inst::Adr {
                    rd: d,
                    target: Target::Label(lab),
                });
            }
            _ => unreachable!(),
        }
        self.emit(b);
        Ok(r)
    }

    /// The label `&&label` of IR block `blk` stands for.
    fn block_addr_label(&self, blk: ir::Block) -> Result<Label, BackendError> {
        if let Some(&lp) = self.landing.get(&blk) {
            return Ok(Label(lp as u32));
        }
        match self.ir2v[blk.index()] {
            usize::MAX => Err(self.err("the address of an unreachable label")),
            v => Ok(Label(v as u32)),
        }
    }

    fn sym_direct(&self, s: ir::Sym) -> bool {
        let sd = self.m.sym(s);
        self.opts.pic.reaches_directly(sd.local, sd.defined)
    }

    /// `d = address` of a slot or symbol (d is written only at its last instruction's end,
    /// or is an early def in the caller's sequence).
    fn addr_into(&mut self, b: &mut B, op: &Op, d: Gpr) -> Result<(), BackendError> {
        match *op {
            Op::SlotAddr(s) => {
                let off = self.slot_off[s.index()];
                let align = self.slot_overalign[s.index()];
                // An over-aligned slot: the top of its reserve less the slack, rounded
                // down to its alignment (which stays in the reserve, see `run`).
                let slack = align.map_or(0, |a| a as i64 - 16);
                match add_imm(d, Gpr::FP, off + slack) {
                    Some(v) => v.into_iter().for_each(|i| b.i(i)),
                    None => return Err(self.err("a stack frame over 16 MiB")),
                }
                if let Some(a) = align {
                    b.i(Inst::LogicImm {
                        op: LogicOp::And,
                        size: Size::X,
                        rd: d,
                        rn: d,
                        imm: a.wrapping_neg(),
                    });
                }
            }
            Op::SymAddr { sym, offset } => {
                let sd = self.m.sym(sym);
                let id = self.syms[sym.index()];
                if sd.kind == ir::SymKind::Tls {
                    if self.sym_direct(sym) && self.opts.pic != Pic::Pic {
                        // Local exec: tp + the offset the linker computes.
                        b.i(Inst::Mrs {
                            rt: d,
                            reg: SysReg::TpidrEl0,
                        });
                        b.i(Inst::AddSym {
                            rd: d,
                            rn: d,
                            sym: id,
                            addend: 0,
                            kind: AddSymKind::TprelHi12,
                        });
                        b.i(Inst::AddSym {
                            rd: d,
                            rn: d,
                            sym: id,
                            addend: 0,
                            kind: AddSymKind::TprelLo12Nc,
                        });
                    } else if self.opts.pic != Pic::Pic {
                        // Initial exec: the offset from the GOT.
                        let t = self.gtemp();
                        let tg = Gpr(b.op(Operand::new(
                            t,
                            OperandConstraint::Reg,
                            OperandKind::Def,
                            OperandPos::Early,
                        )));
                        b.i(Inst::Adrp {
                            rd: tg,
                            sym: id,
                            addend: 0,
                            kind: PageKind::GotTprel,
                        });
                        b.i(Inst::Mem {
                            op: MemOp::LdrX,
                            rt: Reg::G(tg),
                            addr: Addr::Lo12 {
                                base: tg,
                                sym: id,
                                addend: 0,
                                kind: LoKind::GotTprel,
                            },
                        });
                        b.i(Inst::Mrs {
                            rt: d,
                            reg: SysReg::TpidrEl0,
                        });
                        b.i(Inst::AluShift {
                            op: AddSub::Add,
                            flags: false,
                            size: Size::X,
                            rd: d,
                            rn: d,
                            rm: tg,
                            shift: Shift::Lsl,
                            amount: 0,
                        });
                    } else {
                        return Err(self.err("the address of a thread-local under -fPIC"));
                    }
                    if offset != 0 {
                        match add_imm(d, d, offset) {
                            Some(v) => v.into_iter().for_each(|i| b.i(i)),
                            None => return Err(self.err("a huge offset from a symbol")),
                        }
                    }
                } else if self.sym_direct(sym) {
                    b.i(Inst::Adrp {
                        rd: d,
                        sym: id,
                        addend: offset,
                        kind: PageKind::Abs,
                    });
                    b.i(Inst::AddSym {
                        rd: d,
                        rn: d,
                        sym: id,
                        addend: offset,
                        kind: AddSymKind::Lo12,
                    });
                } else {
                    b.i(Inst::Adrp {
                        rd: d,
                        sym: id,
                        addend: 0,
                        kind: PageKind::Got,
                    });
                    b.i(Inst::Mem {
                        op: MemOp::LdrX,
                        rt: Reg::G(d),
                        addr: Addr::Lo12 {
                            base: d,
                            sym: id,
                            addend: 0,
                            kind: LoKind::Got,
                        },
                    });
                    if offset != 0 {
                        match add_imm(d, d, offset) {
                            Some(v) => v.into_iter().for_each(|i| b.i(i)),
                            None => return Err(self.err("a huge offset from a symbol")),
                        }
                    }
                }
            }
            _ => unreachable!(),
        }
        Ok(())
    }

    /// A memory operand for `addr + off` accessed with `bytes`: slot addresses fold into
    /// `[x29, #off]`, the rest go through a register (with a temporary for offsets no
    /// instruction can hold). Registers it reads are early uses.
    fn mem(&mut self, b: &mut B, addr: Value, off: i64, bytes: u32) -> Result<Addr, BackendError> {
        if off == 0 && !self.folded.is_empty() {
            if let Some((base, index, ext, scaled, absorbed)) = self.index_addr(addr, bytes) {
                if absorbed.iter().all(|&x| self.planned_fold(x)) {
                    let (br, ir) = (self.reg(base)?, self.reg(index)?);
                    let (bg, ig) = (b.use_g(br), b.use_g(ir));
                    return Ok(Addr::RegOff {
                        base: bg,
                        index: ig,
                        ext,
                        scaled,
                    });
                }
            }
        }
        // `base + constant` folds into the offset.
        let (addr, off) = match self.add_const(addr) {
            Some((base, c)) if c.checked_add(off).is_some() => (base, c + off),
            _ => (addr, off),
        };
        if let Some(Op::SlotAddr(s)) = self.def_of(addr) {
            let o = self.slot_off[s.index()] + off;
            if self.slot_overalign[s.index()].is_none() {
                if let Some(a) = mem_at(Gpr::FP, o, bytes) {
                    return Ok(a);
                }
            }
        }
        let r = self.reg(addr)?;
        let base = b.use_g(r);
        if let Some(a) = mem_at(base, off, bytes) {
            return Ok(a);
        }
        // base + off in a temporary.
        let t = self.gtemp();
        let tg = b.early_g(t);
        for i in mov_const(tg, Size::X, off as u64) {
            b.i(i);
        }
        Ok(Addr::RegOff {
            base,
            index: tg,
            ext: IndexExt::Lsl,
            scaled: false,
        })
    }

    /// `[base, index{, ext}{, lsl #log2(bytes)}]` for an access at `addr` (offset 0) when
    /// `addr` is a single-use `base + index` whose index is a 64-bit value or a 32-bit one
    /// extended, optionally shifted by the access size: `(base, index, ext, scaled,
    /// absorbed instructions)`.
    fn index_addr(
        &self,
        addr: Value,
        bytes: u32,
    ) -> Option<(Value, Value, IndexExt, bool, Vec<ir::Inst>)> {
        let mut addr = addr;
        while let Some(a) = self.alias_of(addr) {
            if self.uses[addr.index()] != 1 {
                return None;
            }
            addr = a;
        }
        let (ai, d) = self.single_use_def(addr)?;
        let Op::Binary {
            op: BinaryOp::Add,
            a,
            b,
        } = *d
        else {
            return None;
        };
        if !matches!(self.ty(addr), Type::Ptr | Type::I64) {
            return None;
        }
        let index = |l: &Self, x: Value| -> Option<(Value, IndexExt, bool, Vec<ir::Inst>)> {
            let mut absorbed = Vec::new();
            let mut x = x;
            let mut scaled = false;
            if let Some((si, sd)) = l.single_use_def(x) {
                let k = match *sd {
                    Op::Binary {
                        op: BinaryOp::Shl,
                        a: y,
                        b: k,
                    } => l.const_of(k).map(|k| (y, k as u64)),
                    Op::Binary {
                        op: BinaryOp::Mul,
                        a: y,
                        b: c,
                    } => l
                        .const_of(c)
                        .filter(|&c| c > 0 && (c as u64).is_power_of_two())
                        .map(|c| (y, (c as u64).trailing_zeros() as u64)),
                    _ => None,
                };
                if let Some((y, k)) = k {
                    if k != (bytes as u64).trailing_zeros() as u64 {
                        return None;
                    }
                    // A shift by 0 (byte accesses) is no scaling.
                    scaled = k != 0;
                    absorbed.push(si);
                    x = y;
                }
            }
            let mut ext = IndexExt::Lsl;
            if let Some((
                ei,
                &Op::Conv {
                    op: cop @ (ConvOp::Sext | ConvOp::Zext),
                    arg,
                    ..
                },
            )) = l.single_use_def(x)
            {
                if l.ty(arg) == Type::I32
                    && !matches!(l.def_of(arg), Some(Op::Icmp { .. } | Op::Fcmp { .. }))
                {
                    ext = if cop == ConvOp::Sext {
                        IndexExt::Sxtw
                    } else {
                        IndexExt::Uxtw
                    };
                    absorbed.push(ei);
                    x = arg;
                }
            }
            if ext == IndexExt::Lsl && !matches!(l.ty(x), Type::I64 | Type::Ptr) {
                return None;
            }
            (l.computed(x) && !l.is_remat(x)).then_some((x, ext, scaled, absorbed))
        };
        // The index is the operand with a shift or extension (else the second).
        for (base, x) in [(a, b), (b, a)] {
            if !self.computed(base) {
                continue;
            }
            if let Some((ix, ext, scaled, mut absorbed)) = index(self, x) {
                if absorbed.is_empty() && x != b {
                    continue;
                }
                absorbed.push(ai);
                return Some((base, ix, ext, scaled, absorbed));
            }
        }
        None
    }

    /// Loads and stores at `base + index` take a register-offset address; the addition,
    /// and a shift or extension of the index under it, are not computed.
    fn plan_register_offsets(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                if self.skip[i.index()] {
                    continue;
                }
                let (addr, ty) = match f.inst(i).op {
                    Op::Load {
                        ty,
                        addr,
                        offset: 0,
                        ..
                    } => (addr, ty),
                    Op::Store {
                        value,
                        addr,
                        offset: 0,
                        ..
                    } if value != addr => (addr, self.ty(value)),
                    _ => continue,
                };
                // An __int128 is two accesses (or a pair): no register offset.
                if ty == Type::I128 {
                    continue;
                }
                if let Some((.., absorbed)) = self.index_addr(addr, ty.bytes()) {
                    for x in absorbed {
                        self.skip[x.index()] = true;
                        self.folded[x.index()] = true;
                    }
                }
            }
        }
    }

    /// The value a same-size integer bitcast (`ptr` <-> `i64`) reinterprets: such a cast
    /// is no instruction, its result is its operand's register.
    fn alias_of(&self, v: Value) -> Option<Value> {
        match self.def_of(v) {
            Some(Op::Conv {
                op: ConvOp::Bitcast,
                arg,
                to,
            }) if to.is_int()
                && self.ty(*arg).is_int()
                && to.bytes() == self.ty(*arg).bytes()
                && *to != Type::I128 =>
            {
                Some(*arg)
            }
            // A narrow value's upper bits are garbage anyway: the same register.
            Some(Op::Conv {
                op: ConvOp::Trunc,
                arg,
                to,
            }) if to.is_int() && self.ty(*arg).is_int() && self.ty(*arg) != Type::I128 => {
                Some(*arg)
            }
            // A load whose only use sign-extends it is a sign-extending load.
            Some(Op::Conv {
                op: ConvOp::Sext,
                arg,
                ..
            }) if self.signed_load[arg.index()].is_some() => Some(*arg),
            // A load of 8, 16 or 32 bits (`ldrb`, `ldrh`, `ldr w`) zero-extends already.
            Some(Op::Conv {
                op: ConvOp::Zext,
                arg,
                to,
            }) if to.is_int() && self.loaded_zero_extended(*arg) => Some(*arg),
            _ => None,
        }
    }

    /// Whether `v` is the result of an integer load narrower than 64 bits (its register
    /// holds the value zero-extended).
    fn loaded_zero_extended(&self, v: Value) -> bool {
        matches!(
            self.def_of(v),
            Some(Op::Load {
                ty: Type::I8 | Type::I16 | Type::I32,
                ..
            })
        ) && self.signed_load[v.index()].is_none()
    }

    /// Loads of 8, 16 or 32 bits whose only use is a sign extension load sign-extended
    /// (`signed_load`: the extension's type); the extension is then no instruction.
    fn plan_signed_loads(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                let Op::Conv {
                    op: ConvOp::Sext,
                    arg,
                    to,
                } = f.inst(i).op
                else {
                    continue;
                };
                if self.skip[i.index()] || self.uses[arg.index()] != 1 || !to.is_int() {
                    continue;
                }
                if let Some(Op::Load {
                    ty: Type::I8 | Type::I16 | Type::I32,
                    ..
                }) = self.def_of(arg)
                {
                    if sz(to) == Size::X || self.ty(arg) != Type::I32 {
                        self.signed_load[arg.index()] = Some(to);
                    }
                }
            }
        }
    }

    /// `(base, c)` when `v` is a 64-bit `base + c` with a constant `c` (an address),
    /// looking through integer bitcasts.
    fn add_const(&self, v: Value) -> Option<(Value, i64)> {
        let mut v = v;
        while let Some(a) = self.alias_of(v) {
            v = a;
        }
        match self.def_of(v) {
            Some(Op::Binary {
                op: BinaryOp::Add,
                a,
                b,
            }) if matches!(self.ty(v), Type::Ptr | Type::I64) => {
                let c = self.const_of(*b)?;
                Some((*a, c))
            }
            _ => None,
        }
    }

    /// At -O1, an address addition used only as load and store addresses is not computed
    /// at all: `mem` folds it into each access.
    fn fold_address_adds(&mut self) {
        let f = self.f;
        let mut addr_uses = vec![0u32; f.values.len()];
        for bd in &f.blocks {
            for &i in &bd.insts {
                if self.skip[i.index()] {
                    continue;
                }
                if let Op::Load { addr, .. } | Op::Store { addr, .. } = &f.inst(i).op {
                    // Through bitcasts used only on the way to this access.
                    let mut a = *addr;
                    while let Some(x) = self.alias_of(a) {
                        if self.uses[a.index()] != 1 {
                            break;
                        }
                        a = x;
                    }
                    if self.alias_of(a).is_none() && self.add_const(a).is_some() {
                        addr_uses[a.index()] += 1;
                    }
                    // A stored value that is also the address is a use of another kind.
                    if let Op::Store { value, addr, .. } = &f.inst(i).op {
                        if value == addr {
                            addr_uses[addr.index()] = u32::MAX / 2;
                        }
                    }
                }
            }
        }
        for (v, &n) in addr_uses.iter().enumerate() {
            if n > 0 && n == self.uses[v] {
                if let ir::ValueDef::Result(i, _) = f.values[v].def {
                    self.skip[i.index()] = true;
                }
            }
        }
    }

    fn run(&mut self) -> Result<(), BackendError> {
        let f = self.f;
        for v in &f.values {
            if v.ty != Type::I128 {
                self.check_type(v.ty)?;
            }
        }
        for p in std::iter::once(&f.plan).chain(f.plans.iter()) {
            for l in p.arguments.iter().chain(p.returns.iter()) {
                if let Place::Reg(r) = l.place {
                    if dwarf_to_preg(r).is_none() && custom_cc::hand_moved(r).is_none() {
                        return Err(self.err(&format!("a plan location in register {r}")));
                    }
                }
            }
            self.max_out = self.max_out.max(p.stack);
        }
        // The incoming plan's stack size is the caller's business.
        self.max_out = f.plans.iter().map(|p| p.stack).max().unwrap_or(0);
        for s in &f.slots {
            let size = s.size.max(1);
            // x29 is 16-aligned: a slot aligned to more gets a 16-aligned reserve of
            // `align - 16` more bytes, and its address is rounded at run time.
            let (size, align, over) = if s.align > 16 {
                let a = s.align as u64;
                (size + a - 16, 16, Some(a))
            } else {
                (size, s.align.max(1) as u64, None)
            };
            self.fixed_size = (self.fixed_size as u64 + size).next_multiple_of(align) as u32;
            self.slot_off.push(-(self.fixed_size as i64));
            self.slot_overalign.push(over);
        }
        if f.variadic {
            self.fixed_size = (self.fixed_size + 192).next_multiple_of(16);
            self.va_save = Some(-(self.fixed_size as i64));
        }
        for bd in &f.blocks {
            for &i in &bd.insts {
                f.inst(i).op.for_each_operand(|v| self.uses[v.index()] += 1);
            }
        }
        self.remove_dead();
        self.plan_signed_loads();
        if self.opts.opt_level > 0 {
            self.fold_address_adds();
        }
        // A comparison used once, by a branch or select, is lowered there (flags, no cset);
        // one used once by an extension is set right into the extension's result.
        for bd in &f.blocks {
            for &i in &bd.insts {
                if let Op::Conv {
                    op: ConvOp::Zext | ConvOp::Sext,
                    arg,
                    ..
                } = &f.inst(i).op
                {
                    if self.uses[arg.index()] == 1 && !self.skip[i.index()] {
                        if let ir::ValueDef::Result(ci, _) = f.values[arg.index()].def {
                            if matches!(f.inst(ci).op, Op::Icmp { .. } | Op::Fcmp { .. }) {
                                self.skip[ci.index()] = true;
                            }
                        }
                    }
                }
                if let Op::Branch { cond, .. } | Op::Select { cond, .. } = &f.inst(i).op {
                    if self.uses[cond.index()] == 1 {
                        if let ir::ValueDef::Result(ci, _) = f.values[cond.index()].def {
                            if matches!(f.inst(ci).op, Op::Icmp { .. } | Op::Fcmp { .. })
                                && !self.skip[i.index()]
                            {
                                self.skip[ci.index()] = true;
                            }
                        }
                    }
                }
            }
        }
        self.plan_bit_tests();
        if self.opts.opt_level > 0 {
            self.folded = vec![false; f.insts.len()];
            self.plan_register_offsets();
            self.plan_bitfield_extracts();
            self.plan_operand_folds();
        }
        // Reachability and predecessor edge counts.
        let mut reach = vec![false; f.blocks.len()];
        let mut stack = vec![0usize];
        reach[0] = true;
        while let Some(b) = stack.pop() {
            if let Some(t) = f.terminator(ir::Block(b as u32)) {
                for s in t.successors() {
                    if !reach[s.index()] {
                        reach[s.index()] = true;
                        stack.push(s.index());
                    }
                }
            }
        }
        for (b, bd) in f.blocks.iter().enumerate() {
            if !reach[b] {
                continue;
            }
            if let Some(&last) = bd.insts.last() {
                // An indirect jump reaches its targets through their landing pads.
                if matches!(f.inst(last).op, Op::IndirectJump { .. }) {
                    continue;
                }
                for s in f.inst(last).op.successors() {
                    self.pred_edges[s.index()] += 1;
                }
            }
        }
        // Vblocks in reverse postorder: regalloc2's Fastalloc walks blocks backwards by
        // index with one live set, so a value's defining block must come before every
        // block that uses it.
        for b in reverse_postorder(f) {
            let v = self.new_block();
            self.blocks[v].origin = v;
            self.ir2v[b] = v;
        }
        if self.pred_edges[0] > 0 {
            return Err(self.err("a branch to the entry block"));
        }
        self.make_dispatch(&reach)?;
        for (b, bd) in f.blocks.iter().enumerate() {
            if !reach[b] || b == 0 {
                continue;
            }
            let vb = self.ir2v[b];
            for &p in &bd.params {
                if self.ty(p) == Type::I128 {
                    let (lo, hi) = self.pair(p)?;
                    self.blocks[vb].params.extend([lo, hi]);
                } else {
                    let r = self.vreg(p)?;
                    self.blocks[vb].params.push(r);
                }
            }
        }
        for (b, bd) in f.blocks.iter().enumerate() {
            if !reach[b] {
                continue;
            }
            self.cur = self.ir2v[b];
            if b == 0 {
                self.lower_entry()?;
            }
            for &i in &bd.insts {
                self.lower_inst(i)?;
            }
        }
        Ok(())
    }

    /// Computed goto: one dispatch block (`br` to the address it is passed) whose
    /// successors are a landing pad per possible target, each a jump to its target, so
    /// that every edge the allocator sees has one end with a single neighbour. `&&label`
    /// is the address of the landing pad.
    fn make_dispatch(&mut self, reach: &[bool]) -> Result<(), BackendError> {
        let f = self.f;
        let mut targets = Vec::new();
        let mut indirect = false;
        for (b, bd) in f.blocks.iter().enumerate() {
            for &i in &bd.insts {
                match &f.inst(i).op {
                    Op::IndirectJump { targets: t, .. } if reach[b] => {
                        indirect = true;
                        targets.extend(t.iter().copied());
                    }
                    Op::BlockAddr(t) => targets.push(*t),
                    _ => {}
                }
            }
        }
        if !indirect {
            return Ok(());
        }
        targets.sort();
        targets.dedup();
        let d = self.new_block();
        self.blocks[d].origin = d;
        let addr = self.gtemp();
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
            self.blocks[lp].insts.push(VInst::term(Term::Jump));
        }
        let mut b = B::default();
        let a = b.use_g(addr);
        b.i(Inst::Br(a));
        let mut vi = b.vinst();
        vi.term = Term::Indirect;
        self.blocks[d].insts.push(vi);
        Ok(())
    }

    /// Marks pure instructions whose results are never used (transitively) as skipped.
    fn remove_dead(&mut self) {
        let f = self.f;
        let mut changed = true;
        while changed {
            changed = false;
            for bd in &f.blocks {
                for &i in &bd.insts {
                    if self.skip[i.index()] {
                        continue;
                    }
                    let d = f.inst(i);
                    if !d.op.is_pure() {
                        continue;
                    }
                    let Some(r) = d.result else { continue };
                    if self.uses[r.index()] == 0 {
                        self.skip[i.index()] = true;
                        d.op.for_each_operand(|v| self.uses[v.index()] -= 1);
                        changed = true;
                    }
                }
            }
        }
    }

    fn lower_entry(&mut self) -> Result<(), BackendError> {
        let f = self.f;
        let params = f.blocks[0].params.clone();
        let mut b = B::default();
        let mut after: Vec<B> = Vec::new();
        let nargs = f.plan.arguments.len();
        let sret: Vec<&Location> = f
            .plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        let mut fixed: Vec<PReg> = Vec::new();
        let mut by_hand: Vec<(VReg, Reg)> = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            let loc = if i < nargs {
                &f.plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            let ty = self.ty(p);
            let v = self.vreg(p)?;
            match loc.place {
                Place::Reg(r) => {
                    if let Some(h) = custom_cc::hand_moved(r) {
                        by_hand.push((v, h));
                        continue;
                    }
                    let preg = dwarf_to_preg(r).ok_or_else(|| self.err("argument register"))?;
                    b.fixed_def(v, preg);
                    fixed.push(preg);
                }
                Place::Stack(off) => {
                    let off = 16 + off as i64;
                    let mut a = B::default();
                    if f.param_mem.contains(&(i as u32)) {
                        let d = a.def_g(v);
                        add_imm(d, Gpr::FP, off)
                            .unwrap()
                            .into_iter()
                            .for_each(|x| a.i(x));
                    } else {
                        let addr = mem_at(Gpr::FP, off, ty.bytes())
                            .ok_or_else(|| self.err("a far stack argument"))?;
                        load_into(&mut a, ty, addr, v);
                    }
                    after.push(a);
                }
            }
        }
        // Parameters in x18 or v31: copied by the entry instruction itself into
        // registers no other parameter is in.
        for (v, h) in by_hand {
            let class = if matches!(h, Reg::G(_)) {
                RegClass::Int
            } else {
                RegClass::Float
            };
            let t =
                custom_cc::temp_for(class, &fixed).ok_or_else(|| self.err(custom_cc::NO_TEMP))?;
            fixed.push(t);
            b.fixed_def(v, t);
            b.i(custom_cc::move_reg(preg_reg(t), h));
        }
        self.emit(b);
        for a in after {
            self.emit(a);
        }
        Ok(())
    }

    fn lower_inst(&mut self, i: ir::Inst) -> Result<(), BackendError> {
        if self.skip[i.index()] {
            return Ok(());
        }
        let d = self.f.inst(i);
        let res = d.result;
        if self.involves_i128(&d.op, res) {
            return self.lower_i128(&d.op, res);
        }
        match &d.op {
            // Materialised at their uses.
            Op::Iconst { .. } | Op::Fconst { .. } | Op::SlotAddr(_) | Op::SymAddr { .. } => {
                // A block argument or result that needs its own register still gets one
                // (vreg() is asked by jump_to through reg(), which materialises).
            }
            Op::Unary { op, arg } => self.lower_unary(*op, *arg, res.unwrap())?,
            Op::Binary { op, a, b } => self.lower_binary(*op, *a, *b, res.unwrap())?,
            Op::Icmp { .. } | Op::Fcmp { .. } => {
                let r = self.vreg(res.unwrap())?;
                let mut b = B::default();
                let c = self.compare(&mut b, &d.op)?;
                let g = b.def_g(r);
                b.i(Inst::cset(Size::W, g, c));
                self.emit(b);
            }
            Op::Conv { op, arg, to } => self.lower_conv(*op, *arg, *to, res.unwrap())?,
            Op::Select { cond, a, b: bv } => {
                let r = res.unwrap();
                let ty = self.ty(r);
                let dst = self.vreg(r)?;
                if ty.bytes() == 16 && in_v(ty) {
                    return self.lower_select_q(*cond, *a, *bv, dst);
                }
                if ty.bytes() == 16 {
                    return Err(self.err("a select of 16-byte values"));
                }
                if !in_v(ty) && self.lower_select_with_constants(*cond, *a, *bv, r)? {
                    return Ok(());
                }
                let (ra, rb) = (self.reg(*a)?, self.reg(*bv)?);
                let mut b = B::default();
                let c = self.cond_flags(&mut b, *cond)?;
                if in_v(ty) {
                    let (x, y) = (b.use_v(ra), b.use_v(rb));
                    let dd = b.def_v(dst);
                    b.i(Inst::FCsel {
                        size: fsz(ty),
                        rd: dd,
                        rn: x,
                        rm: y,
                        cond: c,
                    });
                } else {
                    let (x, y) = (b.use_g(ra), b.use_g(rb));
                    let dd = b.def_g(dst);
                    b.i(Inst::CondSel {
                        op: CselOp::Csel,
                        size: sz(ty),
                        rd: dd,
                        rn: x,
                        rm: y,
                        cond: c,
                    });
                }
                self.emit(b);
            }
            Op::Load {
                ty, addr, offset, ..
            } => {
                let r = self.vreg(res.unwrap())?;
                let mut b = B::default();
                let a = self.mem(&mut b, *addr, *offset as i64, ty.bytes())?;
                match self.signed_load[res.unwrap().index()] {
                    Some(to) => {
                        // The only use sign-extends it: `ldrsb`/`ldrsh`/`ldrsw`.
                        let wide = sz(to) == Size::X;
                        let op = match ty {
                            Type::I8 if wide => MemOp::LdrsbX,
                            Type::I8 => MemOp::LdrsbW,
                            Type::I16 if wide => MemOp::LdrshX,
                            Type::I16 => MemOp::LdrshW,
                            _ => MemOp::Ldrsw,
                        };
                        let rt = Reg::G(b.def_g(r));
                        b.i(Inst::Mem { op, rt, addr: a });
                    }
                    None => load_into(&mut b, *ty, a, r),
                }
                self.emit(b);
            }
            Op::Store {
                value,
                addr,
                offset,
                ..
            } => {
                let ty = self.ty(*value);
                let mut b = B::default();
                let src = if ty.is_int() && self.const_of(*value) == Some(0) {
                    Reg::G(Gpr::ZR)
                } else {
                    let v = self.reg(*value)?;
                    if in_v(ty) {
                        Reg::V(b.use_v(v))
                    } else {
                        Reg::G(b.use_g(v))
                    }
                };
                let a = self.mem(&mut b, *addr, *offset as i64, ty.bytes())?;
                b.i(Inst::Mem {
                    op: store_op(ty),
                    rt: src,
                    addr: a,
                });
                self.emit(b);
            }
            Op::Call(c) => self.lower_call(&c.callee, &c.args, &c.arg_mem, c.plan, &c.results)?,
            Op::Copy { dst, src, size, .. } => {
                let (dv, sv) = (self.reg(*dst)?, self.reg(*src)?);
                let mut b = B::default();
                let (dg, sg) = (b.late_g(dv), b.late_g(sv));
                self.copy_bytes(&mut b, dg, 0, sg, 0, *size);
                self.emit(b);
            }
            Op::Zero { dst, size, .. } => {
                let dv = self.reg(*dst)?;
                let mut b = B::default();
                let dg = b.late_g(dv);
                self.zero_bytes(&mut b, dg, *size);
                self.emit(b);
            }
            Op::Alloca { size, align } => {
                if *align > 1 << 12 {
                    return Err(self.err("alloca aligned to more than 4096 bytes"));
                }
                // Over 16: room to round the address up.
                let extra = align.saturating_sub(16) as u16;
                let r = self.vreg(res.unwrap())?;
                let s = self.reg(*size)?;
                let t = self.gtemp();
                let mut b = B::default();
                let sg = b.use_g(s);
                let tg = b.early_g(t);
                let d = b.def_g(r);
                b.i(Inst::AluImm {
                    op: AddSub::Add,
                    flags: false,
                    size: Size::X,
                    rd: tg,
                    rn: sg,
                    imm12: 15 + extra,
                    lsl12: false,
                });
                b.i(Inst::LogicImm {
                    op: LogicOp::And,
                    size: Size::X,
                    rd: tg,
                    rn: tg,
                    imm: !15u64,
                });
                b.i(Inst::AluExt {
                    op: AddSub::Sub,
                    flags: false,
                    size: Size::X,
                    rd: Gpr::SP,
                    rn: Gpr::SP,
                    rm: tg,
                    ext: Extend::Uxtx,
                    amount: 0,
                });
                // The outgoing argument area stays at sp.
                let out = self.max_out.next_multiple_of(16) as i64;
                add_imm(d, Gpr::SP, out + extra as i64)
                    .unwrap()
                    .into_iter()
                    .for_each(|x| b.i(x));
                if extra > 0 {
                    b.i(Inst::LogicImm {
                        op: LogicOp::And,
                        size: Size::X,
                        rd: d,
                        rn: d,
                        imm: !(*align as u64 - 1),
                    });
                }
                self.emit(b);
            }
            Op::StackSave => {
                let r = self.vreg(res.unwrap())?;
                let mut b = B::default();
                let d = b.def_g(r);
                b.i(Inst::mov(Size::X, d, Gpr::SP));
                self.emit(b);
            }
            Op::StackRestore(v) => {
                let r = self.reg(*v)?;
                let mut b = B::default();
                let s = b.use_g(r);
                b.i(Inst::mov(Size::X, Gpr::SP, s));
                self.emit(b);
            }
            Op::FrameAddress => {
                let r = self.vreg(res.unwrap())?;
                let mut b = B::default();
                let d = b.def_g(r);
                b.i(Inst::mov(Size::X, d, Gpr::FP));
                self.emit(b);
            }
            Op::VaStart(list) => self.lower_va_start(*list)?,
            Op::AtomicRmw {
                op,
                ty,
                addr,
                value,
            } => self.lower_rmw(*op, *ty, *addr, *value, res.unwrap())?,
            Op::AtomicCas {
                ty,
                addr,
                expected,
                new,
            } => self.lower_cas(*ty, *addr, *expected, *new, res.unwrap())?,
            Op::Fence => {
                let mut b = B::default();
                b.i(Inst::Dmb(Barrier::Ish));
                self.emit(b);
            }
            Op::InlineAsm(a) if a.template.trim().is_empty() => self.lower_empty_asm(a)?,
            Op::InlineAsm(a) => self.lower_inline_asm(a)?,
            Op::BlockAddr(_) => {}
            Op::Jump(bc) => {
                let t = self.ir2v[bc.block.index()];
                self.jump_to(t, bc.block, &bc.args)?;
            }
            Op::Branch { cond, then, els } => self.lower_branch(*cond, then, els)?,
            Op::Switch {
                value,
                cases,
                default,
            } => self.lower_switch(*value, cases, *default)?,
            Op::IndirectJump { addr, .. } => {
                let (d, _) = self.dispatch.unwrap();
                let r = self.reg(*addr)?;
                let cur = self.cur;
                self.blocks[cur].succs.push(regalloc2::Block::new(d));
                self.blocks[cur].args.push(vec![r]);
                self.push(VInst::term(Term::Jump));
            }
            Op::Return(vals) => self.lower_return(vals)?,
            Op::NonLocalGoto { fp, sp, target } => {
                // __builtin_longjmp: into another activation's frame, its stack and frame
                // pointers, then its landing pad (the address its __builtin_setjmp took).
                // Nothing here is live afterwards.
                let (rf, rs, rt) = (self.reg(*fp)?, self.reg(*sp)?, self.reg(*target)?);
                let mut b = B::default();
                let (gf, gs, gt) = (b.use_g(rf), b.use_g(rs), b.use_g(rt));
                b.i(Inst::mov(Size::X, Gpr::SP, gs));
                b.i(Inst::mov(Size::X, Gpr::FP, gf));
                b.i(Inst::Br(gt));
                let mut vi = b.vinst();
                vi.term = Term::Trap;
                self.push(vi);
            }
            Op::Unreachable | Op::Trap => {
                let mut b = B::default();
                b.i(Inst::Brk(1000));
                let mut vi = b.vinst();
                vi.term = Term::Trap;
                self.push(vi);
            }
        }
        Ok(())
    }

    /// A call of a runtime helper: `args` in fixed registers, the result in `ret`; it
    /// clobbers what any AAPCS64 call does (every vector register: see `wide`).
    fn libcall(&mut self, name: &str, args: &[(VReg, PReg)], ret: (VReg, PReg)) {
        let sym = (self.libcall)(name);
        let mut b = B::default();
        for &(v, p) in args {
            b.fixed_use(v, p);
        }
        b.i(Inst::Bl(Target::Sym(sym, 0)));
        b.fixed_def(ret.0, ret.1);
        self.note_callee(&custom_cc::standard_callee_saved());
        let mut clobbers = PRegSet::empty();
        for p in gpr_allocatable().into_iter().chain(fpr_allocatable()) {
            let kept = p.class() == RegClass::Int && (19..29).contains(&p.hw_enc());
            if !kept && p != ret.1 {
                clobbers.add(p);
            }
        }
        let mut vi = b.vinst();
        vi.clobbers = clobbers;
        self.push(vi);
    }

    /// A binary128 comparison by libgcc's helpers: the flags of `cmp w0, #0` and the
    /// condition that holds when the comparison is true.
    fn f128_compare(
        &mut self,
        b: &mut B,
        cc: FloatCC,
        a: Value,
        bv: Value,
    ) -> Result<Cond, BackendError> {
        let (name, c) = match cc {
            FloatCC::Eq => ("__eqtf2", Cond::Eq),
            FloatCC::Ne => ("__netf2", Cond::Ne),
            FloatCC::Lt => ("__lttf2", Cond::Lt),
            FloatCC::Le => ("__letf2", Cond::Le),
            FloatCC::Gt => ("__gttf2", Cond::Gt),
            FloatCC::Ge => ("__getf2", Cond::Ge),
            FloatCC::Unordered => ("__unordtf2", Cond::Ne),
        };
        let (x, y) = (self.reg(a)?, self.reg(bv)?);
        let r = self.gtemp();
        self.libcall(
            name,
            &[(x, preg_fpr(0)), (y, preg_fpr(1))],
            (r, preg_gpr(0)),
        );
        let rg = b.use_g(r);
        b.i(Inst::AluImm {
            op: AddSub::Sub,
            flags: true,
            size: Size::W,
            rd: Gpr::ZR,
            rn: rg,
            imm12: 0,
            lsl12: false,
        });
        Ok(c)
    }

    /// Conversions to and from binary128 by libgcc's helpers.
    fn f128_conv(
        &mut self,
        op: ConvOp,
        arg: Value,
        to: Type,
        r: Value,
    ) -> Result<(), BackendError> {
        let from = self.ty(arg);
        let dst = self.vreg(r)?;
        let name = match (op, from, to) {
            (ConvOp::FExt, Type::F16, _) => "__extendhftf2",
            (ConvOp::FTrunc, _, Type::F16) => "__trunctfhf2",
            (ConvOp::FExt, Type::F32, _) => "__extendsftf2",
            (ConvOp::FExt, Type::F64, _) => "__extenddftf2",
            (ConvOp::FTrunc, _, Type::F32) => "__trunctfsf2",
            (ConvOp::FTrunc, _, Type::F64) => "__trunctfdf2",
            (ConvOp::SToF, Type::I64 | Type::Ptr, _) => "__floatditf",
            (ConvOp::SToF, _, _) => "__floatsitf",
            (ConvOp::UToF, Type::I64 | Type::Ptr, _) => "__floatunditf",
            (ConvOp::UToF, _, _) => "__floatunsitf",
            (ConvOp::FToS, _, Type::I64 | Type::Ptr) => "__fixtfdi",
            (ConvOp::FToS, _, _) => "__fixtfsi",
            (ConvOp::FToU, _, Type::I64 | Type::Ptr) => "__fixunstfdi",
            (ConvOp::FToU, _, _) => "__fixunstfsi",
            _ => return Err(self.err(&format!("a {op:?} conversion of long double"))),
        };
        let x = match op {
            ConvOp::SToF | ConvOp::UToF => self.extended(arg, op == ConvOp::SToF)?,
            _ => self.reg(arg)?,
        };
        let arg_reg = if in_v(from) { preg_fpr(0) } else { preg_gpr(0) };
        let ret_reg = if in_v(to) { preg_fpr(0) } else { preg_gpr(0) };
        self.libcall(name, &[(x, arg_reg)], (dst, ret_reg));
        Ok(())
    }

    fn lower_unary(&mut self, op: UnaryOp, arg: Value, r: Value) -> Result<(), BackendError> {
        let ty = self.ty(r);
        if ty == Type::F16 {
            return Err(self.err("_Float16 arithmetic"));
        }
        let dst = self.vreg(r)?;
        let a = self.reg(arg)?;
        let mut b = B::default();
        match op {
            UnaryOp::Neg | UnaryOp::Not => {
                let x = b.use_g(a);
                let d = b.def_g(dst);
                b.i(if op == UnaryOp::Neg {
                    Inst::AluShift {
                        op: AddSub::Sub,
                        flags: false,
                        size: sz(ty),
                        rd: d,
                        rn: Gpr::ZR,
                        rm: x,
                        shift: Shift::Lsl,
                        amount: 0,
                    }
                } else {
                    Inst::LogicShift {
                        op: LogicOp::Orr,
                        not: true,
                        size: sz(ty),
                        rd: d,
                        rn: Gpr::ZR,
                        rm: x,
                        shift: Shift::Lsl,
                        amount: 0,
                    }
                });
            }
            UnaryOp::FNeg if ty == Type::F128 => {
                // Flip the sign bit, bit 63 of the upper half.
                let t = self.gtemp();
                let x = b.use_v(a);
                let tg = b.early_g(t);
                let d = Fpr(b.op(Operand::new(
                    dst,
                    OperandConstraint::Reg,
                    OperandKind::Def,
                    OperandPos::Early,
                )));
                b.i(Inst::FMovTop {
                    to_gpr: true,
                    g: tg,
                    v: x,
                });
                b.i(Inst::LogicImm {
                    op: LogicOp::Eor,
                    size: Size::X,
                    rd: tg,
                    rn: tg,
                    imm: 1 << 63,
                });
                b.i(Inst::MovV { rd: d, rn: x });
                b.i(Inst::FMovTop {
                    to_gpr: false,
                    g: tg,
                    v: d,
                });
            }
            UnaryOp::FNeg => {
                let x = b.use_v(a);
                let d = b.def_v(dst);
                b.i(Inst::FUn {
                    op: FUnOp::Neg,
                    size: fsz(ty),
                    rd: d,
                    rn: x,
                });
            }
        }
        self.emit(b);
        Ok(())
    }

    /// A register holding `v` extended from its type to 32 (or 64) bits.
    fn extended(&mut self, v: Value, signed: bool) -> Result<VReg, BackendError> {
        let ty = self.ty(v);
        let r = self.reg(v)?;
        if !matches!(ty, Type::I8 | Type::I16) || (!signed && self.loaded_zero_extended(v)) {
            return Ok(r);
        }
        if let Some(c) = self.const_of(v) {
            // Constants are materialised at their sign-extended value; zero-extend here.
            if !signed {
                let t = self.gtemp();
                let mut b = B::default();
                let d = b.def_g(t);
                let mask = (1u64 << bits(ty)) - 1;
                for i in mov_const(d, Size::W, c as u64 & mask) {
                    b.i(i);
                }
                self.emit(b);
                return Ok(t);
            }
            return Ok(r);
        }
        let t = self.gtemp();
        let mut b = B::default();
        let x = b.use_g(r);
        let d = b.def_g(t);
        b.i(Inst::extend(signed, Size::W, d, x, bits(ty)));
        self.emit(b);
        Ok(t)
    }

    fn lower_binary(
        &mut self,
        op: BinaryOp,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        let ty = self.ty(r);
        if ty == Type::F16 {
            return Err(self.err("_Float16 arithmetic"));
        }
        let dst = self.vreg(r)?;
        let size = sz(ty);
        let mut b = B::default();
        if ty == Type::F128 {
            let name = match op {
                BinaryOp::FAdd => "__addtf3",
                BinaryOp::FSub => "__subtf3",
                BinaryOp::FMul => "__multf3",
                BinaryOp::FDiv => "__divtf3",
                _ => return Err(self.err("integer arithmetic on long double")),
            };
            let (x, y) = (self.reg(a)?, self.reg(bv)?);
            self.libcall(
                name,
                &[(x, preg_fpr(0)), (y, preg_fpr(1))],
                (dst, preg_fpr(0)),
            );
            return Ok(());
        }
        if self.lower_folded_binary(op, a, bv, r)? || self.lower_bitfield_extract(op, a, bv, r)? {
            return Ok(());
        }
        match op {
            BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv => {
                let (x, y) = (self.reg(a)?, self.reg(bv)?);
                let (xr, yr) = (b.use_v(x), b.use_v(y));
                let d = b.def_v(dst);
                let fop = match op {
                    BinaryOp::FAdd => FBinOp::Add,
                    BinaryOp::FSub => FBinOp::Sub,
                    BinaryOp::FMul => FBinOp::Mul,
                    _ => FBinOp::Div,
                };
                b.i(Inst::FBin {
                    op: fop,
                    size: fsz(ty),
                    rd: d,
                    rn: xr,
                    rm: yr,
                });
            }
            BinaryOp::Add | BinaryOp::Sub => {
                let sub = op == BinaryOp::Sub;
                let c = self.const_of(bv);
                let imm = c.and_then(|c| {
                    let c = if sub { -(c as i128) } else { c as i128 };
                    let (o, m) = if c < 0 {
                        (AddSub::Sub, (-c) as u64)
                    } else {
                        (AddSub::Add, c as u64)
                    };
                    if m < 4096 {
                        Some((o, m as u16, false))
                    } else if m.is_multiple_of(4096) && m >> 12 < 4096 {
                        Some((o, (m >> 12) as u16, true))
                    } else {
                        None
                    }
                });
                let x = self.reg(a)?;
                let xr = b.use_g(x);
                if let Some((o, imm12, lsl12)) = imm {
                    let d = b.def_g(dst);
                    b.i(Inst::AluImm {
                        op: o,
                        flags: false,
                        size,
                        rd: d,
                        rn: xr,
                        imm12,
                        lsl12,
                    });
                } else {
                    let y = self.reg(bv)?;
                    let yr = b.use_g(y);
                    let d = b.def_g(dst);
                    b.i(Inst::AluShift {
                        op: if sub { AddSub::Sub } else { AddSub::Add },
                        flags: false,
                        size,
                        rd: d,
                        rn: xr,
                        rm: yr,
                        shift: Shift::Lsl,
                        amount: 0,
                    });
                }
            }
            BinaryOp::Mul
                if self
                    .const_of(bv)
                    .is_some_and(|c| c > 1 && ((c & (c - 1)) == 0 || ((c - 1) & (c - 2)) == 0)) =>
            {
                // By 2^k: a shift; by 2^k + 1: an add of the shifted value.
                let c = self.const_of(bv).unwrap() as u64;
                let x = self.reg(a)?;
                let xr = b.use_g(x);
                let d = b.def_g(dst);
                if c.is_power_of_two() {
                    b.i(Inst::lsl_imm(size, d, xr, c.trailing_zeros() as u8));
                } else {
                    b.i(Inst::AluShift {
                        op: AddSub::Add,
                        flags: false,
                        size,
                        rd: d,
                        rn: xr,
                        rm: xr,
                        shift: Shift::Lsl,
                        amount: (c - 1).trailing_zeros() as u8,
                    });
                }
            }
            BinaryOp::Mul => {
                let (x, y) = (self.reg(a)?, self.reg(bv)?);
                let (xr, yr) = (b.use_g(x), b.use_g(y));
                let d = b.def_g(dst);
                b.i(Inst::Mul3 {
                    op: Mul3Op::Madd,
                    size,
                    rd: d,
                    rn: xr,
                    rm: yr,
                    ra: Gpr::ZR,
                });
            }
            BinaryOp::SDiv | BinaryOp::UDiv | BinaryOp::SRem | BinaryOp::URem => {
                let signed = matches!(op, BinaryOp::SDiv | BinaryOp::SRem);
                let (x, y) = (self.extended(a, signed)?, self.extended(bv, signed)?);
                let dop = if signed { Alu2Op::Sdiv } else { Alu2Op::Udiv };
                if matches!(op, BinaryOp::SDiv | BinaryOp::UDiv) {
                    let (xr, yr) = (b.use_g(x), b.use_g(y));
                    let d = b.def_g(dst);
                    b.i(Inst::Alu2 {
                        op: dop,
                        size,
                        rd: d,
                        rn: xr,
                        rm: yr,
                    });
                } else {
                    // q = x / y; r = x - q * y.
                    let q = self.gtemp();
                    let qr = b.early_g(q);
                    let (xr, yr) = (b.late_g(x), b.late_g(y));
                    let d = b.def_g(dst);
                    b.i(Inst::Alu2 {
                        op: dop,
                        size,
                        rd: qr,
                        rn: xr,
                        rm: yr,
                    });
                    b.i(Inst::Mul3 {
                        op: Mul3Op::Msub,
                        size,
                        rd: d,
                        rn: qr,
                        rm: yr,
                        ra: xr,
                    });
                }
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let lop = match op {
                    BinaryOp::And => LogicOp::And,
                    BinaryOp::Or => LogicOp::Orr,
                    _ => LogicOp::Eor,
                };
                let x = self.reg(a)?;
                let xr = b.use_g(x);
                let imm = self.const_of(bv).map(|c| {
                    if size == Size::W {
                        c as u64 & 0xffff_ffff
                    } else {
                        c as u64
                    }
                });
                match imm.filter(|&c| crate::asm::encode::bitmask_imm(c, size.bits()).is_some()) {
                    Some(c) => {
                        let d = b.def_g(dst);
                        b.i(Inst::LogicImm {
                            op: lop,
                            size,
                            rd: d,
                            rn: xr,
                            imm: c,
                        });
                    }
                    None => {
                        let y = self.reg(bv)?;
                        let yr = b.use_g(y);
                        let d = b.def_g(dst);
                        b.i(Inst::LogicShift {
                            op: lop,
                            not: false,
                            size,
                            rd: d,
                            rn: xr,
                            rm: yr,
                            shift: Shift::Lsl,
                            amount: 0,
                        });
                    }
                }
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
                let w = bits(ty);
                let signed = op == BinaryOp::AShr;
                if let Some(c) = self.const_of(bv) {
                    let k = (c as u64 % w as u64) as u8;
                    let x = self.reg(a)?;
                    let xr = b.use_g(x);
                    let d = b.def_g(dst);
                    b.i(match op {
                        BinaryOp::Shl => Inst::lsl_imm(size, d, xr, k),
                        // Extract bits k..w of the w-bit value, extended.
                        _ => Inst::Bitfield {
                            op: if signed { BfOp::Sbfm } else { BfOp::Ubfm },
                            size,
                            rd: d,
                            rn: xr,
                            immr: k,
                            imms: w - 1,
                        },
                    });
                } else {
                    let x = if op == BinaryOp::Shl {
                        self.reg(a)?
                    } else {
                        self.extended(a, signed)?
                    };
                    let y = self.reg(bv)?;
                    let (xr, yr) = (b.use_g(x), b.use_g(y));
                    let d = b.def_g(dst);
                    b.i(Inst::Alu2 {
                        op: match op {
                            BinaryOp::Shl => Alu2Op::Lslv,
                            BinaryOp::LShr => Alu2Op::Lsrv,
                            _ => Alu2Op::Asrv,
                        },
                        size,
                        rd: d,
                        rn: xr,
                        rm: yr,
                    });
                }
            }
        }
        self.emit(b);
        Ok(())
    }

    /// The instruction defining `v` when it is one whose only use can absorb it.
    fn single_use_def(&self, v: Value) -> Option<(ir::Inst, &'a Op)> {
        if self.uses[v.index()] != 1 {
            return None;
        }
        match self.f.values[v.index()].def {
            ir::ValueDef::Result(i, _) if !self.skip[i.index()] || self.planned_fold(i) => {
                Some((i, &self.f.inst(i).op))
            }
            _ => None,
        }
    }

    /// Whether instruction `i` was skipped by `plan_operand_folds` (its user absorbs it),
    /// rather than for another reason.
    fn planned_fold(&self, i: ir::Inst) -> bool {
        self.folded.get(i.index()).copied().unwrap_or(false)
    }

    /// Whether `v` is computed in a register of its own (or materialised at its use): the
    /// operands of an absorbed instruction must be.
    fn computed(&self, v: Value) -> bool {
        if let Some(a) = self.alias_of(v) {
            return self.computed(a);
        }
        match self.f.values[v.index()].def {
            ir::ValueDef::Result(i, _) => !self.skip[i.index()] || self.is_remat(v),
            _ => true,
        }
    }

    /// How `v`, an operand of the integer `op` at `ty`, can be absorbed into it: a
    /// multiplication (`madd`/`msub`), a shift by a constant or an extension (shifted and
    /// extended register operands), a bitwise not (`bic`/`orn`/`eon`). The instructions
    /// absorbed (one, or a shift and the extension under it) are listed.
    fn operand_fold(&self, op: BinaryOp, ty: Type, v: Value) -> Option<(Fold, Vec<ir::Inst>)> {
        let arith = matches!(op, BinaryOp::Add | BinaryOp::Sub);
        let logic = matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor);
        if !(arith || logic) || !ty.is_int() || ty == Type::I128 || self.ty(v) != ty {
            return None;
        }
        let w = bits(ty) as u64;
        let exact_width = matches!(ty, Type::I32 | Type::I64 | Type::Ptr);
        let (i, d) = self.single_use_def(v)?;
        let fold = match *d {
            Op::Binary {
                op: BinaryOp::Mul,
                a: p,
                b: q,
            } => match self.const_of(q) {
                Some(c) if c > 0 && (c as u64).is_power_of_two() => {
                    Fold::Shifted(p, Shift::Lsl, (c as u64).trailing_zeros() as u8)
                }
                // 2^k + 1 is a shifted add already.
                Some(c) if c > 1 && ((c - 1) & (c - 2)) == 0 => return None,
                _ if arith => Fold::Mul(p, q),
                _ => return None,
            },
            Op::Binary {
                op: sop @ (BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr),
                a: x,
                b: k,
            } => {
                let k = (self.const_of(k)? as u64 % w) as u8;
                match sop {
                    BinaryOp::Shl => {
                        // An extension under a small left shift: `add x0, x1, w2, sxtw #3`.
                        if arith && k <= 4 {
                            if let Some((ei, Fold::Extended(y, e, 0))) = self.extension_fold(ty, x)
                            {
                                if self.computed(y) {
                                    return Some((Fold::Extended(y, e, k), vec![i, ei]));
                                }
                            }
                        }
                        Fold::Shifted(x, Shift::Lsl, k)
                    }
                    _ if !exact_width => return None,
                    BinaryOp::LShr => Fold::Shifted(x, Shift::Lsr, k),
                    _ => Fold::Shifted(x, Shift::Asr, k),
                }
            }
            Op::Conv {
                op: ConvOp::Sext | ConvOp::Zext,
                ..
            } if arith => {
                let (_, f) = self.extension_fold(ty, v)?;
                f
            }
            Op::Unary {
                op: UnaryOp::Not,
                arg,
            } if logic => Fold::Not(arg),
            _ => return None,
        };
        let ok = match fold {
            Fold::Mul(p, q) => self.computed(p) && self.computed(q),
            Fold::Shifted(x, ..) | Fold::Extended(x, ..) | Fold::Not(x) => self.computed(x),
        };
        ok.then(|| (fold, vec![i]))
    }

    /// `v` as an extended register operand of an operation at `ty`, when `v` is a
    /// single-use sign or zero extension (not of a comparison, which sets its result
    /// itself).
    fn extension_fold(&self, ty: Type, v: Value) -> Option<(ir::Inst, Fold)> {
        if self.alias_of(v).is_some() {
            // Extended by its load already.
            return None;
        }
        let (i, d) = self.single_use_def(v)?;
        let Op::Conv {
            op: cop @ (ConvOp::Sext | ConvOp::Zext),
            arg,
            to,
        } = *d
        else {
            return None;
        };
        if to != ty && !(ty == Type::Ptr && to == Type::I64) {
            return None;
        }
        let signed = cop == ConvOp::Sext;
        let e = match (self.ty(arg), signed) {
            (Type::I8, true) => Extend::Sxtb,
            (Type::I8, false) => Extend::Uxtb,
            (Type::I16, true) => Extend::Sxth,
            (Type::I16, false) => Extend::Uxth,
            (Type::I32, true) if sz(ty) == Size::X => Extend::Sxtw,
            (Type::I32, false) if sz(ty) == Size::X => Extend::Uxtw,
            _ => return None,
        };
        if matches!(self.def_of(arg), Some(Op::Icmp { .. } | Op::Fcmp { .. })) {
            return None;
        }
        Some((i, Fold::Extended(arg, e, 0)))
    }

    /// `(x, immr, imms, shl)` when `a >> c` (logical or arithmetic, 32 or 64 bits) shifts
    /// a single-use `x << k`: one `ubfm`/`sbfm` (`ubfx`, `ubfiz`, `sbfx`, ...) does both.
    fn bitfield_extract(
        &self,
        op: BinaryOp,
        a: Value,
        c: Value,
    ) -> Option<(Value, u8, u8, ir::Inst)> {
        if !matches!(op, BinaryOp::LShr | BinaryOp::AShr) {
            return None;
        }
        let ty = self.ty(a);
        if !matches!(ty, Type::I32 | Type::I64) {
            return None;
        }
        let w = bits(ty) as u64;
        let c = self.const_of(c)? as u64 % w;
        let (si, d) = self.single_use_def(a)?;
        let Op::Binary {
            op: BinaryOp::Shl,
            a: x,
            b: k,
        } = *d
        else {
            return None;
        };
        let k = self.const_of(k)? as u64 % w;
        if !self.computed(x) || self.ty(x) != ty {
            return None;
        }
        // x bit j moves to j + k - c: bits [c - k, w - 1 - k] to 0, or bits [0, w - 1 - k]
        // up to k - c.
        let immr = if c >= k { c - k } else { w - (k - c) };
        Some((x, immr as u8, (w - 1 - k) as u8, si))
    }

    /// The left shifts under `bitfield_extract`s are not computed.
    fn plan_bitfield_extracts(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                if self.skip[i.index()] {
                    continue;
                }
                if let Op::Binary { op, a, b } = f.inst(i).op {
                    if let Some((.., si)) = self.bitfield_extract(op, a, b) {
                        self.skip[si.index()] = true;
                        self.folded[si.index()] = true;
                    }
                }
            }
        }
    }

    fn lower_bitfield_extract(
        &mut self,
        op: BinaryOp,
        a: Value,
        c: Value,
        r: Value,
    ) -> Result<bool, BackendError> {
        if self.folded.is_empty() {
            return Ok(false);
        }
        let Some((x, immr, imms, si)) = self.bitfield_extract(op, a, c) else {
            return Ok(false);
        };
        if !self.planned_fold(si) {
            return Ok(false);
        }
        let dst = self.vreg(r)?;
        let xr = self.reg(x)?;
        let mut b = B::default();
        let xg = b.use_g(xr);
        let d = b.def_g(dst);
        b.i(Inst::Bitfield {
            op: if op == BinaryOp::AShr {
                BfOp::Sbfm
            } else {
                BfOp::Ubfm
            },
            size: sz(self.ty(r)),
            rd: d,
            rn: xg,
            immr,
            imms,
        });
        self.emit(b);
        Ok(true)
    }

    /// Which operand of each integer add, subtract and logical operation is absorbed
    /// (`lower_folded_binary` does it); the absorbed instructions are not computed.
    fn plan_operand_folds(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                if self.skip[i.index()] {
                    continue;
                }
                let Op::Binary { op, a, b } = f.inst(i).op else {
                    continue;
                };
                let Some(r) = f.inst(i).result else { continue };
                if let Some((_, _, absorbed)) = self.choose_fold(op, self.ty(r), a, b) {
                    for x in absorbed {
                        self.skip[x.index()] = true;
                        self.folded[x.index()] = true;
                    }
                }
            }
        }
    }

    /// The operand absorbed by `a op b`: `(other operand, fold, absorbed instructions)`.
    fn choose_fold(
        &self,
        op: BinaryOp,
        ty: Type,
        a: Value,
        b: Value,
    ) -> Option<(Value, Fold, Vec<ir::Inst>)> {
        if self.const_of(b).is_some() || self.const_of(a).is_some() {
            return None;
        }
        if let Some((f, v)) = self.operand_fold(op, ty, b) {
            return Some((a, f, v));
        }
        if op == BinaryOp::Sub {
            return None;
        }
        let (f, v) = self.operand_fold(op, ty, a)?;
        Some((b, f, v))
    }

    /// `a op b` with an absorbed operand, if `plan_operand_folds` chose one.
    fn lower_folded_binary(
        &mut self,
        op: BinaryOp,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<bool, BackendError> {
        if self.folded.is_empty() {
            return Ok(false);
        }
        let ty = self.ty(r);
        let Some((other, fold, absorbed)) = self.choose_fold(op, ty, a, bv) else {
            return Ok(false);
        };
        if !absorbed.iter().all(|&x| self.planned_fold(x)) {
            return Ok(false);
        }
        let size = sz(ty);
        let dst = self.vreg(r)?;
        let o = self.reg(other)?;
        let mut b = B::default();
        let on = b.use_g(o);
        let addsub = if op == BinaryOp::Sub {
            AddSub::Sub
        } else {
            AddSub::Add
        };
        let lop = match op {
            BinaryOp::And => LogicOp::And,
            BinaryOp::Or => LogicOp::Orr,
            _ => LogicOp::Eor,
        };
        match fold {
            Fold::Mul(p, q) => {
                let (pr, qr) = (self.reg(p)?, self.reg(q)?);
                let (pg, qg) = (b.use_g(pr), b.use_g(qr));
                let d = b.def_g(dst);
                b.i(Inst::Mul3 {
                    op: if op == BinaryOp::Sub {
                        Mul3Op::Msub
                    } else {
                        Mul3Op::Madd
                    },
                    size,
                    rd: d,
                    rn: pg,
                    rm: qg,
                    ra: on,
                });
            }
            Fold::Shifted(x, shift, amount) => {
                let xr = self.reg(x)?;
                let xg = b.use_g(xr);
                let d = b.def_g(dst);
                b.i(match op {
                    BinaryOp::Add | BinaryOp::Sub => Inst::AluShift {
                        op: addsub,
                        flags: false,
                        size,
                        rd: d,
                        rn: on,
                        rm: xg,
                        shift,
                        amount,
                    },
                    _ => Inst::LogicShift {
                        op: lop,
                        not: false,
                        size,
                        rd: d,
                        rn: on,
                        rm: xg,
                        shift,
                        amount,
                    },
                });
            }
            Fold::Extended(x, ext, amount) => {
                let xr = self.reg(x)?;
                let xg = b.use_g(xr);
                let d = b.def_g(dst);
                b.i(Inst::AluExt {
                    op: addsub,
                    flags: false,
                    size,
                    rd: d,
                    rn: on,
                    rm: xg,
                    ext,
                    amount,
                });
            }
            Fold::Not(x) => {
                let xr = self.reg(x)?;
                let xg = b.use_g(xr);
                let d = b.def_g(dst);
                b.i(Inst::LogicShift {
                    op: lop,
                    not: true,
                    size,
                    rd: d,
                    rn: on,
                    rm: xg,
                    shift: Shift::Lsl,
                    amount: 0,
                });
            }
        }
        self.emit(b);
        Ok(true)
    }

    /// Sets the flags for a comparison; returns the condition that holds when it is true.
    fn compare(&mut self, b: &mut B, op: &Op) -> Result<Cond, BackendError> {
        match *op {
            Op::Icmp { cc, a, b: bv } if self.ty(a) == Type::I128 => {
                self.compare_i128(b, cc, a, bv)
            }
            Op::Icmp { cc, a, b: bv } => {
                let ty = self.ty(a);
                let signed = signed_cc(cc);
                let size = sz(ty);
                let x = self.extended(a, signed)?;
                let c = self.const_of(bv).map(|c| {
                    if matches!(ty, Type::I8 | Type::I16) && !signed {
                        c & ((1i64 << bits(ty)) - 1)
                    } else if ty == Type::I32 {
                        c as i32 as i64
                    } else {
                        c
                    }
                });
                let xr = b.use_g(x);
                match c {
                    Some(c) if cmp_imm(size, xr, c).is_some() => {
                        b.i(cmp_imm(size, xr, c).unwrap());
                    }
                    _ => {
                        let y = self.extended(bv, signed)?;
                        let yr = b.use_g(y);
                        b.i(Inst::cmp(size, xr, yr));
                    }
                }
                Ok(int_cond(cc))
            }
            Op::Fcmp { a, .. } if self.ty(a) == Type::F16 => Err(self.err("_Float16 arithmetic")),
            Op::Fcmp { cc, a, b: bv } if self.ty(a) == Type::F128 => {
                self.f128_compare(b, cc, a, bv)
            }
            Op::Fcmp { cc, a, b: bv } => {
                let ty = self.ty(a);
                let x = self.reg(a)?;
                let xr = b.use_v(x);
                let is_zero =
                    matches!(self.def_of(bv), Some(Op::Fconst { bits, .. }) if bits.get() == 0);
                let rm = if is_zero {
                    None
                } else {
                    let y = self.reg(bv)?;
                    Some(b.use_v(y))
                };
                b.i(Inst::FCmp {
                    e: false,
                    size: fsz(ty),
                    rn: xr,
                    rm,
                });
                Ok(float_cond(cc))
            }
            _ => unreachable!(),
        }
    }

    /// `cond ? a : b` of integers when one side is 0, 1 or -1: the zero register with
    /// `csel`, `csinc` (1) or `csinv` (-1), so the constant needs no register (`cset` and
    /// `csetm` when the other side is 0).
    /// A select of 16-byte values in vector registers (binary128 `long double`, 128-bit
    /// vectors): there is no `fcsel` of a whole q register, so the low halves are
    /// selected by `fcsel d` (which clears the upper half) and the upper halves through
    /// two general registers and `csel`. The result and the temporaries are written while
    /// the operands are still read, so they are early definitions.
    fn lower_select_q(
        &mut self,
        cond: Value,
        a: Value,
        bv: Value,
        dst: VReg,
    ) -> Result<(), BackendError> {
        let (ra, rb) = (self.reg(a)?, self.reg(bv)?);
        let (ta, tb) = (self.gtemp(), self.gtemp());
        let mut b = B::default();
        let c = self.cond_flags(&mut b, cond)?;
        let (x, y) = (b.use_v(ra), b.use_v(rb));
        let early = |v| {
            Operand::new(
                v,
                OperandConstraint::Reg,
                OperandKind::Def,
                OperandPos::Early,
            )
        };
        let dd = Fpr(b.op(early(dst)));
        let (ga, gb) = (b.early_g(ta), b.early_g(tb));
        b.i(Inst::FCsel {
            size: FSize::D,
            rd: dd,
            rn: x,
            rm: y,
            cond: c,
        });
        b.i(Inst::FMovTop {
            to_gpr: true,
            g: ga,
            v: x,
        });
        b.i(Inst::FMovTop {
            to_gpr: true,
            g: gb,
            v: y,
        });
        b.i(Inst::CondSel {
            op: CselOp::Csel,
            size: Size::X,
            rd: ga,
            rn: ga,
            rm: gb,
            cond: c,
        });
        b.i(Inst::FMovTop {
            to_gpr: false,
            g: ga,
            v: dd,
        });
        self.emit(b);
        Ok(())
    }

    fn lower_select_with_constants(
        &mut self,
        cond: Value,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<bool, BackendError> {
        let ty = self.ty(r);
        let size = sz(ty);
        let small = |c: Option<i64>| c.filter(|c| matches!(c, -1..=1));
        let (ca, cb) = (small(self.const_of(a)), small(self.const_of(bv)));
        // The side that becomes the zero register's variant goes last (`rm`): if it is
        // `a`, the condition is inverted.
        let (var, kept, invert) = match (ca, cb) {
            (_, Some(c)) if ca.is_none() || ca == Some(0) => (c, a, false),
            (Some(c), _) => (c, bv, true),
            _ => return Ok(false),
        };
        if var == 0 && self.const_of(kept) == Some(0) {
            return Ok(false);
        }
        let dst = self.vreg(r)?;
        let kept_reg = if self.const_of(kept) == Some(0) {
            None
        } else {
            Some(self.reg(kept)?)
        };
        let mut b = B::default();
        let c = self.cond_flags(&mut b, cond)?;
        let c = if invert { c.invert() } else { c };
        let rn = match kept_reg {
            Some(k) => b.use_g(k),
            None => Gpr::ZR,
        };
        let d = b.def_g(dst);
        // csel: c ? rn : zr; csinc: c ? rn : zr + 1; csinv: c ? rn : ~zr.
        let op = match var {
            0 => CselOp::Csel,
            1 => CselOp::Csinc,
            _ => CselOp::Csinv,
        };
        b.i(Inst::CondSel {
            op,
            size,
            rd: d,
            rn,
            rm: Gpr::ZR,
            cond: c,
        });
        self.emit(b);
        Ok(true)
    }

    /// Flags for a branch or select on `cond` (an i8 0/1 or any integer): a single-use
    /// comparison is fused, anything else is tested against zero.
    fn cond_flags(&mut self, b: &mut B, cond: Value) -> Result<Cond, BackendError> {
        if self.uses[cond.index()] == 1 {
            if let Some(op @ (Op::Icmp { .. } | Op::Fcmp { .. })) = self.def_of(cond) {
                if let ir::ValueDef::Result(i, _) = self.f.values[cond.index()].def {
                    // Lowered here instead: its only use is this one.
                    if self.skip_if_fused(i) {
                        return self.compare(b, &op.clone());
                    }
                }
            }
        }
        let ty = self.ty(cond);
        if ty == Type::I128 {
            return self.test_i128(b, cond);
        }
        let r = self.reg(cond)?;
        let x = b.use_g(r);
        let mask = match ty {
            Type::I8 => 0xff,
            Type::I16 => 0xffff,
            _ => 0,
        };
        if mask != 0 {
            b.i(Inst::LogicImm {
                op: LogicOp::Ands,
                size: Size::W,
                rd: Gpr::ZR,
                rn: x,
                imm: mask,
            });
        } else {
            b.i(Inst::AluImm {
                op: AddSub::Sub,
                flags: true,
                size: sz(ty),
                rd: Gpr::ZR,
                rn: x,
                imm12: 0,
                lsl12: false,
            });
        }
        Ok(Cond::Ne)
    }

    /// `(x, bit, and)` when the comparison `op` is `(x & 2^bit) ==/!= 0` and the `and`
    /// (instruction `and`) has no other use: a branch on it is `tbz`/`tbnz`.
    fn bit_test_of(&self, op: &Op) -> Option<(Value, u8, ir::Inst)> {
        let Op::Icmp {
            cc: IntCC::Eq | IntCC::Ne,
            a,
            b,
        } = *op
        else {
            return None;
        };
        if self.const_of(b) != Some(0) || self.uses[a.index()] != 1 {
            return None;
        }
        let ir::ValueDef::Result(ai, _) = self.f.values[a.index()].def else {
            return None;
        };
        let Op::Binary {
            op: BinaryOp::And,
            a: x,
            b: m,
        } = self.f.inst(ai).op
        else {
            return None;
        };
        let w = bits(self.ty(a)) as u32;
        let m = self.const_of(m)? as u64;
        let bit = m.trailing_zeros();
        (m.is_power_of_two() && bit < w && self.ty(x).is_int()).then_some((x, bit as u8, ai))
    }

    /// The `and`s of single-bit tests that branches will make `tbz`/`tbnz` are not
    /// computed.
    fn plan_bit_tests(&mut self) {
        let f = self.f;
        for bd in &f.blocks {
            for &i in &bd.insts {
                let Op::Branch { cond, .. } = f.inst(i).op else {
                    continue;
                };
                if self.skip[i.index()] || self.uses[cond.index()] != 1 {
                    continue;
                }
                let ir::ValueDef::Result(ci, _) = f.values[cond.index()].def else {
                    continue;
                };
                if !self.skip[ci.index()] {
                    continue;
                }
                if let Some((_, _, ai)) = self.bit_test_of(&f.inst(ci).op) {
                    self.skip[ai.index()] = true;
                }
            }
        }
    }

    /// The test of a two-way branch on `cond`: `tbz`/`tbnz` for a single-bit test or a
    /// sign test against zero, `cbz`/`cbnz` for a comparison of a register with zero or a
    /// plain 32/64-bit value, else the flags of a (fused) comparison.
    fn branch_cond(&mut self, b: &mut B, cond: Value) -> Result<BrCond, BackendError> {
        let fused = match self.f.values[cond.index()].def {
            ir::ValueDef::Result(ci, _)
                if self.uses[cond.index()] == 1
                    && self.skip[ci.index()]
                    && matches!(self.f.inst(ci).op, Op::Icmp { .. }) =>
            {
                Some(ci)
            }
            _ => None,
        };
        let Some(ci) = fused else {
            let ty = self.ty(cond);
            if matches!(ty, Type::I32 | Type::I64 | Type::Ptr) && !self.is_remat(cond) {
                let r = self.reg(cond)?;
                let rt = b.use_g(r);
                return Ok(BrCond::Zero {
                    nz: true,
                    size: sz(ty),
                    rt,
                });
            }
            return Ok(BrCond::Flags(self.cond_flags(b, cond)?));
        };
        let op = self.f.inst(ci).op.clone();
        if let Some((x, bit, ai)) = self.bit_test_of(&op) {
            if self.skip[ai.index()] {
                let Op::Icmp { cc, .. } = op else {
                    unreachable!()
                };
                let r = self.reg(x)?;
                let rt = b.use_g(r);
                return Ok(BrCond::Bit {
                    nz: cc == IntCC::Ne,
                    rt,
                    bit,
                });
            }
        }
        if let Op::Icmp { cc, a, b: z } = op {
            let ty = self.ty(a);
            if self.const_of(z) == Some(0) && !self.is_remat(a) {
                match cc {
                    // The sign bit, of the register as it is (no extension needed).
                    IntCC::Slt | IntCC::Sge => {
                        let r = self.reg(a)?;
                        let rt = b.use_g(r);
                        return Ok(BrCond::Bit {
                            nz: cc == IntCC::Slt,
                            rt,
                            bit: bits(ty) - 1,
                        });
                    }
                    IntCC::Eq | IntCC::Ne | IntCC::Ugt | IntCC::Ule => {
                        let r = self.extended(a, false)?;
                        let rt = b.use_g(r);
                        return Ok(BrCond::Zero {
                            nz: matches!(cc, IntCC::Ne | IntCC::Ugt),
                            size: sz(ty),
                            rt,
                        });
                    }
                    _ => {}
                }
            }
        }
        Ok(BrCond::Flags(self.compare(b, &op)?))
    }

    /// Whether the comparison instruction `i` was left for its user to fuse (it is lowered
    /// where it is used only if it was not lowered already, i.e. it comes later or is
    /// marked here).
    fn skip_if_fused(&mut self, i: ir::Inst) -> bool {
        self.skip[i.index()]
    }

    fn lower_conv(
        &mut self,
        op: ConvOp,
        arg: Value,
        to: Type,
        r: Value,
    ) -> Result<(), BackendError> {
        let from = self.ty(arg);
        if self.alias_of(r).is_some() {
            return Ok(());
        }
        if (from == Type::F128 || to == Type::F128) && op != ConvOp::Bitcast {
            return self.f128_conv(op, arg, to, r);
        }
        if (from == Type::F16 || to == Type::F16) && op != ConvOp::Bitcast {
            return self.f16_conv(op, arg, to, r);
        }
        let dst = self.vreg(r)?;
        let mut b = B::default();
        if matches!(op, ConvOp::Sext | ConvOp::Zext) {
            if let ir::ValueDef::Result(ci, _) = self.f.values[arg.index()].def {
                let cop = &self.f.inst(ci).op;
                if self.skip[ci.index()] && matches!(cop, Op::Icmp { .. } | Op::Fcmp { .. }) {
                    // 0 or 1 is its own extension.
                    let c = self.compare(&mut b, &cop.clone())?;
                    let d = b.def_g(dst);
                    b.i(Inst::cset(sz(to), d, c));
                    self.emit(b);
                    return Ok(());
                }
            }
        }
        match op {
            ConvOp::Sext | ConvOp::Zext => {
                let x = self.reg(arg)?;
                let xr = b.use_g(x);
                let d = b.def_g(dst);
                let signed = op == ConvOp::Sext;
                if from == Type::I32 && !signed {
                    b.i(Inst::mov(Size::W, d, xr));
                } else if matches!(from, Type::I64 | Type::Ptr) {
                    b.i(Inst::mov(Size::X, d, xr));
                } else {
                    let size = if signed { sz(to) } else { Size::W };
                    b.i(Inst::extend(signed, size, d, xr, bits(from)));
                }
            }
            ConvOp::Trunc => {
                let x = self.reg(arg)?;
                let xr = b.use_g(x);
                let d = b.def_g(dst);
                b.i(Inst::mov(Size::X, d, xr));
            }
            ConvOp::FExt | ConvOp::FTrunc => {
                let x = self.reg(arg)?;
                let xr = b.use_v(x);
                let d = b.def_v(dst);
                if from == to {
                    b.i(Inst::FMov {
                        size: fsz(to),
                        rd: d,
                        rn: xr,
                    });
                } else {
                    b.i(Inst::FCvt {
                        to: fsz(to),
                        rd: d,
                        rn: xr,
                    });
                }
            }
            ConvOp::SToF | ConvOp::UToF => {
                let signed = op == ConvOp::SToF;
                let x = self.extended(arg, signed)?;
                let xr = b.use_g(x);
                let d = b.def_v(dst);
                b.i(Inst::IntToFp {
                    signed,
                    isize: sz(from),
                    fsize: fsz(to),
                    rd: d,
                    rn: xr,
                });
            }
            ConvOp::FToS | ConvOp::FToU => {
                let x = self.reg(arg)?;
                let xr = b.use_v(x);
                let d = b.def_g(dst);
                b.i(Inst::FpToInt {
                    signed: op == ConvOp::FToS,
                    isize: sz(to),
                    fsize: fsz(from),
                    rd: d,
                    rn: xr,
                });
            }
            ConvOp::Bitcast => {
                let x = self.reg(arg)?;
                match (in_v(from), in_v(to)) {
                    (false, false) => {
                        let xr = b.use_g(x);
                        let d = b.def_g(dst);
                        b.i(Inst::mov(Size::X, d, xr));
                    }
                    (true, true) => {
                        let xr = b.use_v(x);
                        let d = b.def_v(dst);
                        if to.bytes() == 16 {
                            b.i(Inst::MovV { rd: d, rn: xr });
                        } else {
                            b.i(Inst::FMov {
                                size: fsz(to),
                                rd: d,
                                rn: xr,
                            });
                        }
                    }
                    (false, true) => {
                        let xr = b.use_g(x);
                        let d = b.def_v(dst);
                        b.i(Inst::FMovFromGpr {
                            size: fsz(to),
                            rd: d,
                            rn: xr,
                        });
                    }
                    (true, false) => {
                        let xr = b.use_v(x);
                        let d = b.def_g(dst);
                        b.i(Inst::FMovToGpr {
                            size: fsz(from),
                            rd: d,
                            rn: xr,
                        });
                    }
                }
            }
        }
        self.emit(b);
        Ok(())
    }

    /// Conversions to and from `_Float16` as gcc does them without the FP16 extension:
    /// `fcvt` between `h` and `s`/`d`; an integer goes through `d` (exact for 32 bits; a
    /// 64-bit value beyond 2^53 is beyond the largest `_Float16` either way, so one
    /// rounding), and to an integer through `s` (every `_Float16` is exact there).
    fn f16_conv(&mut self, op: ConvOp, arg: Value, to: Type, r: Value) -> Result<(), BackendError> {
        let from = self.ty(arg);
        let dst = self.vreg(r)?;
        let mut b = B::default();
        match op {
            ConvOp::FExt | ConvOp::FTrunc => {
                let x = self.reg(arg)?;
                let xr = b.use_v(x);
                let d = b.def_v(dst);
                b.i(if from == to {
                    Inst::FMov {
                        size: FSize::S,
                        rd: d,
                        rn: xr,
                    }
                } else if to == Type::F16 {
                    Inst::FCvtHalf {
                        to_half: true,
                        other: fsz(from),
                        rd: d,
                        rn: xr,
                    }
                } else {
                    Inst::FCvtHalf {
                        to_half: false,
                        other: fsz(to),
                        rd: d,
                        rn: xr,
                    }
                });
            }
            ConvOp::SToF | ConvOp::UToF => {
                let signed = op == ConvOp::SToF;
                let x = self.extended(arg, signed)?;
                let t = self.new_vreg(RegClass::Float);
                let mut a = B::default();
                let xr = a.use_g(x);
                let td = a.def_v(t);
                a.i(Inst::IntToFp {
                    signed,
                    isize: sz(from),
                    fsize: FSize::D,
                    rd: td,
                    rn: xr,
                });
                self.emit(a);
                let tu = b.use_v(t);
                let d = b.def_v(dst);
                b.i(Inst::FCvtHalf {
                    to_half: true,
                    other: FSize::D,
                    rd: d,
                    rn: tu,
                });
            }
            ConvOp::FToS | ConvOp::FToU => {
                let x = self.reg(arg)?;
                let t = self.new_vreg(RegClass::Float);
                let mut a = B::default();
                let xr = a.use_v(x);
                let td = a.def_v(t);
                a.i(Inst::FCvtHalf {
                    to_half: false,
                    other: FSize::S,
                    rd: td,
                    rn: xr,
                });
                self.emit(a);
                let tu = b.use_v(t);
                let d = b.def_g(dst);
                b.i(Inst::FpToInt {
                    signed: op == ConvOp::FToS,
                    isize: sz(to),
                    fsize: FSize::S,
                    rd: d,
                    rn: tu,
                });
            }
            _ => return Err(self.err(&format!("a {op:?} conversion of _Float16"))),
        }
        self.emit(b);
        Ok(())
    }

    /// Copies `size` bytes from `[src + so]` to `[dst + dof]` through a temporary (both
    /// bases are read throughout: late uses or fixed registers).
    fn copy_bytes(&mut self, b: &mut B, dst: Gpr, dof: i64, src: Gpr, so: i64, size: u64) {
        let t = self.gtemp();
        let tg = b.early_g(t);
        if size > 128 {
            // A loop over 8-byte words, then the tail; x-registers for the cursors.
            let (c1, c2, n) = (self.gtemp(), self.gtemp(), self.gtemp());
            let (p, q, k) = (b.early_g(c1), b.early_g(c2), b.early_g(n));
            add_imm(p, src, so)
                .unwrap()
                .into_iter()
                .for_each(|x| b.i(x));
            add_imm(q, dst, dof)
                .unwrap()
                .into_iter()
                .for_each(|x| b.i(x));
            for i in mov_const(k, Size::X, size / 8) {
                b.i(i);
            }
            let top = self.new_label();
            b.i(Inst::Label(top));
            b.i(Inst::Mem {
                op: MemOp::LdrX,
                rt: Reg::G(tg),
                addr: Addr::Post { base: p, off: 8 },
            });
            b.i(Inst::Mem {
                op: MemOp::StrX,
                rt: Reg::G(tg),
                addr: Addr::Post { base: q, off: 8 },
            });
            b.i(Inst::AluImm {
                op: AddSub::Sub,
                flags: true,
                size: Size::X,
                rd: k,
                rn: k,
                imm12: 1,
                lsl12: false,
            });
            b.i(Inst::BCond(Cond::Ne, Target::Label(top)));
            let done = size / 8 * 8;
            self.copy_tail(b, tg, q, 0, p, 0, size - done);
            return;
        }
        self.copy_tail(b, tg, dst, dof, src, so, size);
    }

    #[allow(clippy::too_many_arguments)]
    fn copy_tail(&mut self, b: &mut B, t: Gpr, dst: Gpr, dof: i64, src: Gpr, so: i64, size: u64) {
        let mut off = 0u64;
        for (n, lop, sop) in [
            (8u64, MemOp::LdrX, MemOp::StrX),
            (4, MemOp::LdrW, MemOp::StrW),
            (2, MemOp::Ldrh, MemOp::Strh),
            (1, MemOp::Ldrb, MemOp::Strb),
        ] {
            while size - off >= n {
                let sa = mem_at(src, so + off as i64, n as u32).expect("copy offset in range");
                let da = mem_at(dst, dof + off as i64, n as u32).expect("copy offset in range");
                b.i(Inst::Mem {
                    op: lop,
                    rt: Reg::G(t),
                    addr: sa,
                });
                b.i(Inst::Mem {
                    op: sop,
                    rt: Reg::G(t),
                    addr: da,
                });
                off += n;
            }
        }
    }

    fn zero_bytes(&mut self, b: &mut B, dst: Gpr, size: u64) {
        let mut base = dst;
        let mut off = 0u64;
        if size > 128 {
            let (c1, n) = (self.gtemp(), self.gtemp());
            let (p, k) = (b.early_g(c1), b.early_g(n));
            b.i(Inst::mov(Size::X, p, dst));
            for i in mov_const(k, Size::X, size / 8) {
                b.i(i);
            }
            let top = self.new_label();
            b.i(Inst::Label(top));
            b.i(Inst::Mem {
                op: MemOp::StrX,
                rt: Reg::G(Gpr::ZR),
                addr: Addr::Post { base: p, off: 8 },
            });
            b.i(Inst::AluImm {
                op: AddSub::Sub,
                flags: true,
                size: Size::X,
                rd: k,
                rn: k,
                imm12: 1,
                lsl12: false,
            });
            b.i(Inst::BCond(Cond::Ne, Target::Label(top)));
            base = p;
            off = 0;
            let rest = size % 8;
            self.zero_tail(b, base, off, rest);
            return;
        }
        self.zero_tail(b, base, off, size);
    }

    fn zero_tail(&mut self, b: &mut B, base: Gpr, start: u64, size: u64) {
        let mut off = 0u64;
        for (n, op) in [
            (8u64, MemOp::StrX),
            (4, MemOp::StrW),
            (2, MemOp::Strh),
            (1, MemOp::Strb),
        ] {
            while size - off >= n {
                b.i(Inst::Mem {
                    op,
                    rt: Reg::G(Gpr::ZR),
                    addr: mem_at(base, (start + off) as i64, n as u32).expect("zero in range"),
                });
                off += n;
            }
        }
    }

    /// An asm statement with an empty template (an optimisation barrier, as code written
    /// for gcc uses them): no instruction; each register output takes the value of the
    /// input tied to it (a digit constraint or `+`), an untied one is 0. Any other asm is
    /// refused by name.
    fn lower_empty_asm(&mut self, a: &ir::InlineAsm) -> Result<(), BackendError> {
        if !a.template.trim().is_empty() {
            return Err(self.err("inline asm"));
        }
        let mut ri = 0;
        for (k, o) in a.operands.iter().enumerate() {
            let ir::AsmRole::Output { .. } = o.role else {
                continue;
            };
            let Some(&res) = a.results.get(ri) else {
                break;
            };
            ri += 1;
            let tied = a.operands.iter().find_map(|x| match x.role {
                ir::AsmRole::Input(v) if x.constraint == k.to_string() => Some(v),
                _ => None,
            });
            let rty = self.ty(res);
            let dst = self.vreg(res)?;
            let mut b = B::default();
            match tied {
                Some(v) => {
                    let vty = self.ty(v);
                    let src = self.reg(v)?;
                    match (in_v(vty), in_v(rty)) {
                        (false, false) => {
                            let x = b.use_g(src);
                            let d = b.def_g(dst);
                            b.i(Inst::mov(Size::X, d, x));
                        }
                        (true, true) => {
                            let x = b.use_v(src);
                            let d = b.def_v(dst);
                            b.i(Inst::MovV { rd: d, rn: x });
                        }
                        (false, true) => {
                            let x = b.use_g(src);
                            let d = b.def_v(dst);
                            b.i(Inst::FMovFromGpr {
                                size: FSize::D,
                                rd: d,
                                rn: x,
                            });
                        }
                        (true, false) => {
                            let x = b.use_v(src);
                            let d = b.def_g(dst);
                            b.i(Inst::FMovToGpr {
                                size: FSize::D,
                                rd: d,
                                rn: x,
                            });
                        }
                    }
                }
                None if in_v(rty) => {
                    let d = b.def_v(dst);
                    b.i(Inst::FMovFromGpr {
                        size: FSize::D,
                        rd: d,
                        rn: Gpr::ZR,
                    });
                }
                None => {
                    let d = b.def_g(dst);
                    b.i(Inst::mov(Size::X, d, Gpr::ZR));
                }
            }
            self.emit(b);
        }
        Ok(())
    }

    /// `va_start`: the AAPCS64 `va_list` record { __stack, __gr_top, __vr_top, __gr_offs,
    /// __vr_offs } for the registers the named parameters left unused.
    fn lower_va_start(&mut self, list: Value) -> Result<(), BackendError> {
        let Some(save) = self.va_save else {
            return Err(self.err("va_start in a function without variable arguments"));
        };
        // The pointers only: irgen stores __gr_offs and __vr_offs after this, as it knows
        // the parameter types (the plan does not say which registers an argument that
        // went to the stack closed).
        let stack = 16 + self.f.plan.stack as i64;
        let l = self.reg(list)?;
        let t = self.gtemp();
        let mut b = B::default();
        let lr = b.late_g(l);
        let tg = b.early_g(t);
        let put = |b: &mut B, field: u32| {
            b.i(Inst::Mem {
                op: MemOp::StrX,
                rt: Reg::G(tg),
                addr: Addr::UImm {
                    base: lr,
                    off: field,
                },
            })
        };
        for (field, off) in [(0u32, stack), (8, save + 64), (16, save + 192)] {
            add_imm(tg, Gpr::FP, off)
                .unwrap()
                .into_iter()
                .for_each(|x| b.i(x));
            put(&mut b, field);
        }
        self.emit(b);
        Ok(())
    }

    /// Exclusive access suffix and the extension of narrow values.
    fn lower_rmw(
        &mut self,
        op: ir::AtomicOp,
        ty: Type,
        addr: Value,
        value: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        if self.opts.lse && self.lower_rmw_lse(op, ty, addr, value, r)? {
            return Ok(());
        }
        let dst = self.vreg(r)?;
        let (a, v) = (self.reg(addr)?, self.reg(value)?);
        let (nv, st) = (self.gtemp(), self.gtemp());
        let mut b = B::default();
        let ar = b.late_g(a);
        let vr = b.late_g(v);
        let old = b.early_g(dst);
        let new = b.early_g(nv);
        let status = b.early_g(st);
        let size = sz(ty);
        let top = self.new_label();
        b.i(Inst::Label(top));
        b.i(Inst::Excl {
            op: ExclOp::Ldaxr,
            bytes: ty.bytes() as u8,
            rs: Gpr::ZR,
            rt: old,
            rn: ar,
        });
        let alu = |lop: LogicOp, not: bool| Inst::LogicShift {
            op: lop,
            not,
            size,
            rd: new,
            rn: old,
            rm: vr,
            shift: Shift::Lsl,
            amount: 0,
        };
        let src = match op {
            ir::AtomicOp::Xchg => vr,
            ir::AtomicOp::Add | ir::AtomicOp::Sub => {
                b.i(Inst::AluShift {
                    op: if op == ir::AtomicOp::Add {
                        AddSub::Add
                    } else {
                        AddSub::Sub
                    },
                    flags: false,
                    size,
                    rd: new,
                    rn: old,
                    rm: vr,
                    shift: Shift::Lsl,
                    amount: 0,
                });
                new
            }
            ir::AtomicOp::And => {
                b.i(alu(LogicOp::And, false));
                new
            }
            ir::AtomicOp::Or => {
                b.i(alu(LogicOp::Orr, false));
                new
            }
            ir::AtomicOp::Xor => {
                b.i(alu(LogicOp::Eor, false));
                new
            }
            ir::AtomicOp::Nand => {
                b.i(alu(LogicOp::And, false));
                b.i(Inst::LogicShift {
                    op: LogicOp::Orr,
                    not: true,
                    size,
                    rd: new,
                    rn: Gpr::ZR,
                    rm: new,
                    shift: Shift::Lsl,
                    amount: 0,
                });
                new
            }
        };
        b.i(Inst::Excl {
            op: ExclOp::Stlxr,
            bytes: ty.bytes() as u8,
            rs: status,
            rt: src,
            rn: ar,
        });
        b.i(Inst::Cbz {
            nz: true,
            size: Size::W,
            rt: status,
            target: Target::Label(top),
        });
        self.emit(b);
        Ok(())
    }

    fn lower_cas(
        &mut self,
        ty: Type,
        addr: Value,
        expected: Value,
        new: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        if self.opts.lse {
            return self.lower_cas_lse(ty, addr, expected, new, r);
        }
        let dst = self.vreg(r)?;
        let (a, e, n) = (self.reg(addr)?, self.reg(expected)?, self.reg(new)?);
        let st = self.gtemp();
        let mut b = B::default();
        let ar = b.late_g(a);
        let er = b.late_g(e);
        let nr = b.late_g(n);
        let old = b.early_g(dst);
        let status = b.early_g(st);
        let (top, done) = (self.new_label(), self.new_label());
        b.i(Inst::Label(top));
        b.i(Inst::Excl {
            op: ExclOp::Ldaxr,
            bytes: ty.bytes() as u8,
            rs: Gpr::ZR,
            rt: old,
            rn: ar,
        });
        // The loaded value is zero-extended; compare with `expected` extended the same way.
        match ty {
            Type::I8 | Type::I16 => b.i(Inst::AluExt {
                op: AddSub::Sub,
                flags: true,
                size: Size::W,
                rd: Gpr::ZR,
                rn: old,
                rm: er,
                ext: if ty == Type::I8 {
                    Extend::Uxtb
                } else {
                    Extend::Uxth
                },
                amount: 0,
            }),
            _ => b.i(Inst::cmp(sz(ty), old, er)),
        }
        b.i(Inst::BCond(Cond::Ne, Target::Label(done)));
        b.i(Inst::Excl {
            op: ExclOp::Stlxr,
            bytes: ty.bytes() as u8,
            rs: status,
            rt: nr,
            rn: ar,
        });
        b.i(Inst::Cbz {
            nz: true,
            size: Size::W,
            rt: status,
            target: Target::Label(top),
        });
        b.i(Inst::Label(done));
        self.emit(b);
        Ok(())
    }

    /// An atomic read-modify-write as one LSE instruction with acquire and release
    /// semantics (`ldaddal`, `ldclral` of the complement for `and`, `ldaddal` of the
    /// negation for `sub`, `ldsetal`, `ldeoral`, `swpal`); false for `nand`, which has
    /// none (the exclusive loop does it).
    fn lower_rmw_lse(
        &mut self,
        op: ir::AtomicOp,
        ty: Type,
        addr: Value,
        value: Value,
        r: Value,
    ) -> Result<bool, BackendError> {
        let lop = match op {
            ir::AtomicOp::Add | ir::AtomicOp::Sub => LseOp::Add,
            ir::AtomicOp::And => LseOp::Clr,
            ir::AtomicOp::Or => LseOp::Set,
            ir::AtomicOp::Xor => LseOp::Eor,
            ir::AtomicOp::Xchg => LseOp::Swp,
            ir::AtomicOp::Nand => return Ok(false),
        };
        let dst = self.vreg(r)?;
        let (a, v) = (self.reg(addr)?, self.reg(value)?);
        let mut b = B::default();
        let size = sz(ty);
        let two = matches!(op, ir::AtomicOp::Sub | ir::AtomicOp::And);
        // One instruction reads its operands before it writes the old value; with a
        // negation or complement first, the address is read after the temporary is written.
        let vr = b.use_g(v);
        let ar = if two { b.late_g(a) } else { b.use_g(a) };
        let old = b.def_g(dst);
        let src = match op {
            ir::AtomicOp::Sub | ir::AtomicOp::And => {
                let t = self.gtemp();
                let tg = b.early_g(t);
                b.i(if op == ir::AtomicOp::Sub {
                    Inst::AluShift {
                        op: AddSub::Sub,
                        flags: false,
                        size,
                        rd: tg,
                        rn: Gpr::ZR,
                        rm: vr,
                        shift: Shift::Lsl,
                        amount: 0,
                    }
                } else {
                    Inst::LogicShift {
                        op: LogicOp::Orr,
                        not: true,
                        size,
                        rd: tg,
                        rn: Gpr::ZR,
                        rm: vr,
                        shift: Shift::Lsl,
                        amount: 0,
                    }
                });
                tg
            }
            _ => vr,
        };
        b.i(Inst::Lse {
            op: lop,
            bytes: ty.bytes() as u8,
            acquire: true,
            release: true,
            rs: src,
            rt: old,
            rn: ar,
        });
        self.emit(b);
        Ok(true)
    }

    /// A compare-and-swap as `casal`: the old value comes back in the register that held
    /// the expected one.
    fn lower_cas_lse(
        &mut self,
        ty: Type,
        addr: Value,
        expected: Value,
        new: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        let dst = self.vreg(r)?;
        let (a, e, n) = (self.reg(addr)?, self.reg(expected)?, self.reg(new)?);
        let mut b = B::default();
        let ar = b.use_g(a);
        let nr = b.use_g(n);
        let ei = b.use_g(e);
        // The old value lands in the expected value's register.
        let old = Gpr(b.op(Operand::reg_reuse_def(dst, (ei.0 & !PH) as usize)));
        b.i(Inst::Cas {
            bytes: ty.bytes() as u8,
            acquire: true,
            release: true,
            rs: old,
            rt: nr,
            rn: ar,
        });
        self.emit(b);
        Ok(())
    }

    fn lower_call(
        &mut self,
        callee: &ir::Callee,
        args: &[Value],
        arg_mem: &[u32],
        plan: ir::PlanId,
        results: &[Value],
    ) -> Result<(), BackendError> {
        let plan = &self.f.plans[plan.index()];
        let nargs = plan.arguments.len();
        let sret: Vec<&Location> = plan
            .returns
            .iter()
            .filter(|l| l.flags.contains(Flags::SRET))
            .collect();
        let mut reg_args: Vec<(VReg, PReg)> = Vec::new();
        let mut hand_args: Vec<(VReg, Reg)> = Vec::new();
        for (i, &v) in args.iter().enumerate() {
            let loc = if i < nargs {
                &plan.arguments[i]
            } else {
                sret[i - nargs]
            };
            let ty = self.ty(v);
            match loc.place {
                Place::Stack(off) => {
                    let off = off as i64;
                    let mut sb = B::default();
                    if arg_mem.contains(&(i as u32)) {
                        let r = self.reg(v)?;
                        let s = sb.late_g(r);
                        self.copy_bytes(&mut sb, Gpr::SP, off, s, 0, loc.size as u64);
                    } else {
                        let r = self.extend_for(v, loc.flags)?;
                        let wide =
                            loc.flags.contains(Flags::SEXT64) || loc.flags.contains(Flags::ZEXT64);
                        let sty = if wide { Type::I64 } else { ty };
                        let rt = if in_v(ty) {
                            Reg::V(sb.use_v(r))
                        } else {
                            Reg::G(sb.use_g(r))
                        };
                        let addr = mem_at(Gpr::SP, off, sty.bytes())
                            .ok_or_else(|| self.err("a far stack argument"))?;
                        sb.i(Inst::Mem {
                            op: store_op(sty),
                            rt,
                            addr,
                        });
                    }
                    self.emit(sb);
                }
                Place::Reg(r) => {
                    let rv = self.extend_for(v, loc.flags)?;
                    match custom_cc::hand_moved(r) {
                        Some(h) => hand_args.push((rv, h)),
                        None => reg_args.push((rv, dwarf_to_preg(r).unwrap())),
                    }
                }
            }
        }
        let mut b = B::default();
        for (v, p) in reg_args {
            b.fixed_use(v, p);
        }
        // Arguments in x18 or v31: moved there by the call instruction itself.
        for (v, h) in hand_args {
            let src = match h {
                Reg::G(_) => Reg::G(b.use_g(v)),
                Reg::V(_) => Reg::V(b.use_v(v)),
            };
            b.i(custom_cc::move_reg(h, src));
        }
        match callee {
            ir::Callee::Direct(s) => b.i(Inst::Bl(Target::Sym(self.syms[s.index()], 0))),
            ir::Callee::Indirect(c) => {
                let r = self.reg(*c)?;
                // Not an argument register's vreg clobbered before the call reads it: the
                // use is early and the call's defs are late.
                let g = b.use_g(r);
                b.i(Inst::Blr(g));
            }
        }
        let keep: Vec<PReg> = if self.f.calls_setjmp {
            Vec::new()
        } else {
            plan.callee_saved
                .iter()
                .filter_map(|&r| dwarf_to_preg(r))
                .filter(|p| !self.wide || p.class() == RegClass::Int)
                .collect()
        };
        let mut defs = PRegSet::empty();
        // Registers the results are in, and those the callee keeps: a result arriving in
        // x18 or v31 is copied by the call instruction to a register of neither.
        let mut busy: Vec<PReg> = keep.clone();
        for loc in &plan.returns {
            if let Place::Reg(r) = loc.place {
                busy.extend(dwarf_to_preg(r));
            }
        }
        let mut ri = 0;
        for loc in plan.returns.iter() {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = results.get(ri) else { break };
            ri += 1;
            match loc.place {
                Place::Reg(r) => {
                    let d = self.vreg(v)?;
                    let p = match custom_cc::hand_moved(r) {
                        Some(h) => {
                            let class = if matches!(h, Reg::G(_)) {
                                RegClass::Int
                            } else {
                                RegClass::Float
                            };
                            let t = custom_cc::temp_for(class, &busy)
                                .ok_or_else(|| self.err(custom_cc::NO_TEMP))?;
                            busy.push(t);
                            b.i(custom_cc::move_reg(preg_reg(t), h));
                            t
                        }
                        None => dwarf_to_preg(r).unwrap(),
                    };
                    b.fixed_def(d, p);
                    defs.add(p);
                }
                Place::Stack(_) => return Err(self.err("a result returned on the stack")),
            }
        }
        self.note_callee(&plan.callee_saved);
        let mut clobbers = PRegSet::empty();
        for p in gpr_allocatable().into_iter().chain(fpr_allocatable()) {
            if !keep.contains(&p) && !defs.contains(p) {
                clobbers.add(p);
            }
        }
        let mut vi = b.vinst();
        vi.clobbers = clobbers;
        self.push(vi);
        Ok(())
    }

    /// A call to a function preserving `kept` (plan numbers): the registers this
    /// function's own plan must preserve and the callee does not are saved by the
    /// prologue, even where the allocator never uses them. (Between two standard plans
    /// there are none; only custom conventions make them.)
    fn note_callee(&mut self, kept: &[u16]) {
        for &r in &self.f.plan.callee_saved {
            if kept.contains(&r) {
                continue;
            }
            if let Some(p) = dwarf_to_preg(r) {
                if !self.extra_saved.contains(&p) {
                    self.extra_saved.push(p);
                }
            }
        }
    }

    /// An argument value extended as its location's flags ask.
    fn extend_for(&mut self, v: Value, flags: Flags) -> Result<VReg, BackendError> {
        let ty = self.ty(v);
        let sext = flags.contains(Flags::SEXT32) || flags.contains(Flags::SEXT64);
        let zext = flags.contains(Flags::ZEXT32) || flags.contains(Flags::ZEXT64);
        let wide = flags.contains(Flags::SEXT64) || flags.contains(Flags::ZEXT64);
        let r = self.reg(v)?;
        if ty.is_int() && (sext || zext) && (matches!(ty, Type::I8 | Type::I16) || wide) {
            if matches!(ty, Type::I64 | Type::Ptr) {
                return Ok(r);
            }
            let t = self.gtemp();
            let mut b = B::default();
            let x = b.use_g(r);
            let d = b.def_g(t);
            let size = if wide { Size::X } else { Size::W };
            if ty == Type::I32 && zext {
                b.i(Inst::mov(Size::W, d, x));
            } else {
                b.i(Inst::extend(sext, size, d, x, bits(ty)));
            }
            self.emit(b);
            return Ok(t);
        }
        Ok(r)
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

    fn jump_to(
        &mut self,
        t: usize,
        _target: ir::Block,
        args: &[Value],
    ) -> Result<(), BackendError> {
        let mut vargs = Vec::new();
        for &a in args {
            if self.ty(a) == Type::I128 {
                let (lo, hi) = self.pair(a)?;
                vargs.extend([lo, hi]);
            } else {
                vargs.push(self.reg(a)?);
            }
        }
        let cur = self.cur;
        self.blocks[cur].succs.push(regalloc2::Block::new(t));
        self.blocks[cur].args.push(vargs);
        self.push(VInst::term(Term::Jump));
        Ok(())
    }

    fn lower_branch(
        &mut self,
        cond: Value,
        then: &ir::BlockCall,
        els: &ir::BlockCall,
    ) -> Result<(), BackendError> {
        let mut b = B::default();
        let c = self.branch_cond(&mut b, cond)?;
        let t = self.edge(then.block, &then.args)?;
        let e = self.edge(els.block, &els.args)?;
        let cur = self.cur;
        if t == e {
            self.blocks[cur].succs.push(regalloc2::Block::new(t));
            self.blocks[cur].args.push(vec![]);
            self.push(VInst::term(Term::Jump));
            return Ok(());
        }
        self.blocks[cur].succs.push(regalloc2::Block::new(t));
        self.blocks[cur].succs.push(regalloc2::Block::new(e));
        let mut vi = b.vinst();
        vi.term = Term::Cond(c);
        self.push(vi);
        Ok(())
    }

    /// A dense switch through a jump table after the function's code (`.word case -
    /// table`), when it is smaller than the chain of compares (or about as small):
    ///
    /// ```text
    /// sub w16, wX, #min          // no sub when min is 0
    /// cmp w16, #range
    /// b.hi default
    /// adr x17, table
    /// ldrsw x16, [x17, w16, uxtw #2]
    /// add x17, x17, x16
    /// br x17
    /// ```
    /// x16 and x17 are free inside one instruction sequence (regalloc2's moves and the
    /// frame's far addresses use them only between sequences). Returns false when the
    /// cases are too sparse.
    fn jump_table(
        &mut self,
        value: Value,
        cases: &[(i128, ir::Block)],
        default: ir::Block,
    ) -> Result<bool, BackendError> {
        let ty = self.ty(value);
        let w = bits(ty) as u32;
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let mut vals: Vec<(u64, ir::Block)> = Vec::new();
        for &(c, blk) in cases {
            let c = c as u64 & mask;
            if !vals.iter().any(|v| v.0 == c) {
                vals.push((c, blk));
            }
        }
        let n = vals.len() as u64;
        if n < 4 {
            return Ok(false);
        }
        let sext = |c: u64| ((c << (64 - w)) as i64 >> (64 - w)) as i128;
        let (umin, umax) = (
            vals.iter().map(|v| v.0).min().unwrap(),
            vals.iter().map(|v| v.0).max().unwrap(),
        );
        let (smin, smax) = (
            vals.iter().map(|v| sext(v.0)).min().unwrap(),
            vals.iter().map(|v| sext(v.0)).max().unwrap(),
        );
        let (urange, srange) = ((umax - umin) as u128, (smax - smin) as u128);
        let signed = srange < urange;
        let range = urange.min(srange);
        // Sizes in bytes: the table sequence and its entries against a compare and a
        // branch per case.
        let big = |c: u64| c >= 4096;
        let table_bytes = 28 + 4 * (range + 1) + if big(range as u64) { 8 } else { 0 };
        let chain_bytes =
            (8 * n + 4) as u128 + 8 * vals.iter().filter(|v| big(v.0)).count() as u128;
        if range >= 3 * n as u128 || table_bytes > chain_bytes + chain_bytes / 4 {
            return Ok(false);
        }
        let min = if signed { smin as i64 as u64 } else { umin };
        // Successors: the default first, then each distinct case target.
        let mut targets: Vec<ir::Block> = vec![default];
        let mut succs = vec![self.edge(default, &[])?];
        let mut entries = vec![0usize; range as usize + 1];
        for &(c, blk) in &vals {
            let k = match targets.iter().position(|&t| t == blk) {
                Some(k) => k,
                None => {
                    targets.push(blk);
                    succs.push(self.edge(blk, &[])?);
                    targets.len() - 1
                }
            };
            let c = if signed { sext(c) as i64 as u64 } else { c };
            entries[(c.wrapping_sub(min) & mask) as usize] = k;
        }
        let x = if w < 32 {
            self.extended(value, signed)?
        } else {
            self.reg(value)?
        };
        let size = if w == 64 { Size::X } else { Size::W };
        let min = if size == Size::W {
            min & 0xffff_ffff
        } else {
            min
        };
        let table = self.new_label();
        let mut b = B::default();
        let xr = b.use_g(x);
        // The minimum as a signed number at the operation's width (an add when negative).
        let smin = if size == Size::W {
            min as u32 as i32 as i64
        } else {
            min as i64
        };
        let index = if min == 0 {
            xr
        } else {
            if smin.unsigned_abs() < 4096 {
                b.i(Inst::AluImm {
                    op: if smin < 0 { AddSub::Add } else { AddSub::Sub },
                    flags: false,
                    size,
                    rd: SCRATCH,
                    rn: xr,
                    imm12: smin.unsigned_abs() as u16,
                    lsl12: false,
                });
            } else {
                mov_const(SCRATCH2, size, min)
                    .into_iter()
                    .for_each(|i| b.i(i));
                b.i(Inst::AluShift {
                    op: AddSub::Sub,
                    flags: false,
                    size,
                    rd: SCRATCH,
                    rn: xr,
                    rm: SCRATCH2,
                    shift: Shift::Lsl,
                    amount: 0,
                });
            }
            SCRATCH
        };
        if range < 4096 {
            b.i(Inst::AluImm {
                op: AddSub::Sub,
                flags: true,
                size,
                rd: Gpr::ZR,
                rn: index,
                imm12: range as u16,
                lsl12: false,
            });
        } else {
            mov_const(SCRATCH2, size, range as u64)
                .into_iter()
                .for_each(|i| b.i(i));
            b.i(Inst::cmp(size, index, SCRATCH2));
        }
        b.i(Inst::BCond(Cond::Hi, Target::Label(Label(succs[0] as u32))));
        b.i(Inst::Adr {
            rd: SCRATCH2,
            target: Target::Label(table),
        });
        b.i(Inst::Mem {
            op: MemOp::Ldrsw,
            rt: Reg::G(SCRATCH),
            addr: Addr::RegOff {
                base: SCRATCH2,
                index,
                ext: if size == Size::X {
                    IndexExt::Lsl
                } else {
                    IndexExt::Uxtw
                },
                scaled: true,
            },
        });
        b.i(Inst::AluShift {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: SCRATCH2,
            rn: SCRATCH2,
            rm: SCRATCH,
            shift: Shift::Lsl,
            amount: 0,
        });
        b.i(Inst::Br(SCRATCH2));
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
        Ok(true)
    }

    /// A jump table when the cases are dense enough (`jump_table`), else a chain of
    /// compares.
    fn lower_switch(
        &mut self,
        value: Value,
        cases: &[(i128, ir::Block)],
        default: ir::Block,
    ) -> Result<(), BackendError> {
        if self.jump_table(value, cases, default)? {
            return Ok(());
        }
        let ty = self.ty(value);
        let x = self.extended(value, false)?;
        let size = sz(ty);
        let mask: u64 = match ty {
            Type::I8 => 0xff,
            Type::I16 => 0xffff,
            Type::I32 => 0xffff_ffff,
            _ => u64::MAX,
        };
        for &(c, target) in cases {
            let c = c as u64 & mask;
            let mut b = B::default();
            let xr = b.use_g(x);
            // At the operation's width, as a signed number: -1 is `cmn w, #1`.
            let sc = if size == Size::W {
                c as u32 as i32 as i64
            } else {
                c as i64
            };
            if let Some(i) = cmp_imm(size, xr, sc) {
                b.i(i);
            } else {
                let t = self.gtemp();
                let tg = b.early_g(t);
                for i in mov_const(tg, size, c) {
                    b.i(i);
                }
                b.i(Inst::cmp(size, xr, tg));
            }
            let hit = self.edge(target, &[])?;
            let next = self.new_block();
            let cur = self.cur;
            self.blocks[cur].succs.push(regalloc2::Block::new(hit));
            self.blocks[cur].succs.push(regalloc2::Block::new(next));
            let mut vi = b.vinst();
            vi.term = Term::Cond(BrCond::Flags(Cond::Eq));
            self.push(vi);
            self.cur = next;
        }
        let t = self.edge(default, &[])?;
        let cur = self.cur;
        self.blocks[cur].succs.push(regalloc2::Block::new(t));
        self.blocks[cur].args.push(vec![]);
        self.push(VInst::term(Term::Jump));
        Ok(())
    }

    fn lower_return(&mut self, vals: &[Value]) -> Result<(), BackendError> {
        let f = self.f;
        let mut uses: Vec<(VReg, PReg)> = Vec::new();
        let mut by_hand: Vec<(VReg, Reg)> = Vec::new();
        let mut i = 0;
        for loc in &f.plan.returns {
            if loc.flags.contains(Flags::SRET) {
                continue;
            }
            let Some(&v) = vals.get(i) else { break };
            i += 1;
            match loc.place {
                Place::Reg(r) => {
                    let rv = self.extend_for(v, loc.flags)?;
                    match custom_cc::hand_moved(r) {
                        Some(h) => by_hand.push((rv, h)),
                        None => uses.push((rv, dwarf_to_preg(r).unwrap())),
                    }
                }
                Place::Stack(_) => return Err(self.err("a result returned on the stack")),
            }
        }
        let mut b = B::default();
        for (v, p) in uses {
            b.fixed_use(v, p);
        }
        // A result in x18 or v31: moved there by the return instruction itself (the
        // epilogue leaves both alone).
        for (v, h) in by_hand {
            let src = match h {
                Reg::G(_) => Reg::G(b.use_g(v)),
                Reg::V(_) => Reg::V(b.use_v(v)),
            };
            b.i(custom_cc::move_reg(h, src));
        }
        let mut vi = b.vinst();
        vi.term = Term::Ret;
        self.push(vi);
        Ok(())
    }
}

fn store_op(ty: Type) -> MemOp {
    match ty {
        Type::I8 => MemOp::Strb,
        Type::I16 => MemOp::Strh,
        Type::I32 => MemOp::StrW,
        Type::F16 => MemOp::StrH,
        Type::F32 => MemOp::StrS,
        Type::F64 => MemOp::StrD,
        Type::F128 | Type::V128 => MemOp::StrQ,
        _ => MemOp::StrX,
    }
}

fn load_into(b: &mut B, ty: Type, addr: Addr, v: VReg) {
    let (op, rt) = match ty {
        Type::F16 => (MemOp::LdrH, Reg::V(b.def_v(v))),
        Type::F32 => (MemOp::LdrS, Reg::V(b.def_v(v))),
        Type::F64 => (MemOp::LdrD, Reg::V(b.def_v(v))),
        Type::F128 | Type::V128 => (MemOp::LdrQ, Reg::V(b.def_v(v))),
        Type::I8 => (MemOp::Ldrb, Reg::G(b.def_g(v))),
        Type::I16 => (MemOp::Ldrh, Reg::G(b.def_g(v))),
        Type::I32 => (MemOp::LdrW, Reg::G(b.def_g(v))),
        _ => (MemOp::LdrX, Reg::G(b.def_g(v))),
    };
    b.i(Inst::Mem { op, rt, addr });
}

/// Whether values of the type live in vector registers (floats, binary128, 16-byte
/// vectors).
fn in_v(ty: Type) -> bool {
    matches!(
        ty,
        Type::F16 | Type::F32 | Type::F64 | Type::F128 | Type::V128
    )
}
