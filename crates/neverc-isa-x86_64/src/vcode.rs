//! Virtual-register code: the back end's view of a function between lowering and register
//! allocation, and its `regalloc2::Function` implementation.
//!
//! A `VInst` is a short sequence of `asm::Inst` *templates* plus the regalloc2 operands they
//! read and write. A template register field holding `Gpr(PH | k)` / `Xmm(PH | k)` names
//! operand `k`; after allocation [`map_regs`] replaces it with the allocated register. Other
//! register fields (rsp, rbp, the scratch r11) are physical. All operands are
//! register-constrained, so every allocation an instruction sees is a register; spills and
//! reloads are regalloc2's edits.
//!
//! Sequences of several machine instructions follow one rule: uses that must stay readable
//! after the first write are "late" uses, temporaries are early defs (see `lower.rs`).

use crate::asm::{Cond, Gpr, Inst, Label, Mem, Xmm};
use regalloc2::{Block, InstRange, Operand, PReg, PRegSet, RegClass, VReg};
use smallvec::SmallVec;

/// Placeholder bit: a register field `PH | k` means operand `k`.
pub const PH: u8 = crate::asm::att::OPERAND_REG;

pub fn ph_gpr(k: usize) -> Gpr {
    Gpr(PH | k as u8)
}
pub fn ph_xmm(k: usize) -> Xmm {
    Xmm(PH | k as u8)
}

/// A condition as tested by a branch or a set: one flag condition, both of two, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondSpec {
    One(Cond),
    /// Both hold (float `==`: E and NP).
    And(Cond, Cond),
    /// Either holds (float `!=`: NE or P).
    Or(Cond, Cond),
}

impl CondSpec {
    pub fn invert(self) -> CondSpec {
        match self {
            CondSpec::One(c) => CondSpec::One(c.invert()),
            CondSpec::And(a, b) => CondSpec::Or(a.invert(), b.invert()),
            CondSpec::Or(a, b) => CondSpec::And(a.invert(), b.invert()),
        }
    }
}

/// How an instruction ends its block.
#[derive(Clone, Debug)]
pub enum Term {
    /// Not a terminator.
    None,
    /// Unconditional jump to the only successor.
    Jump,
    /// The templates set the flags; go to successor 0 when `cond` holds, else successor 1.
    Cond(CondSpec),
    /// Jump table: templates compute the target; successor list is the table's blocks.
    /// `table` is the label of the table, emitted after the function: entries name
    /// successors by index.
    Table { table: Label, entries: Vec<usize> },
    /// jmp *operand 0 (indirect jump); successors are the landing pads.
    Indirect,
    /// Return: operands are the fixed-register return values.
    Ret,
    /// Never returns (ud2 / unreachable).
    Trap,
}

/// Templates of one `VInst`: most have one or two (stored inline, no allocation).
pub type Templates = SmallVec<[Inst; 2]>;
/// Operands of one `VInst`: most have up to four.
pub type Operands = SmallVec<[Operand; 4]>;

#[derive(Clone, Debug)]
pub struct VInst {
    pub insts: Templates,
    pub ops: Operands,
    pub clobbers: PRegSet,
    pub term: Term,
    /// An inline asm statement (the `-S` text marks it with `#APP`/`#NO_APP`).
    pub inline_asm: bool,
}

impl VInst {
    pub fn new(insts: impl Into<Templates>, ops: impl Into<Operands>) -> VInst {
        VInst {
            insts: insts.into(),
            ops: ops.into(),
            clobbers: PRegSet::empty(),
            term: Term::None,
            inline_asm: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct VBlock {
    pub insts: Vec<VInst>,
    pub params: Vec<VReg>,
    pub succs: Vec<Block>,
    /// Branch arguments per successor (only a one-successor jump has any).
    pub args: Vec<Vec<VReg>>,
    pub label: Label,
    /// The block during whose lowering this one was made (itself for IR blocks): the
    /// emitter lays blocks out after their origin.
    pub origin: usize,
}

/// The whole function in virtual registers, flattened for regalloc2.
pub struct VCode {
    pub blocks: Vec<VBlock>,
    /// Flattened instruction list (block order), and per block its range.
    pub insts: Vec<VInst>,
    pub ranges: Vec<(usize, usize)>,
    pub block_succs: Vec<Vec<Block>>,
    pub block_preds: Vec<Vec<Block>>,
    pub block_params: Vec<Vec<VReg>>,
    pub branch_args: Vec<Vec<Vec<VReg>>>,
    pub num_vregs: usize,
    /// Whether some float-class value is a whole 16-byte register (an IR `v128`): then
    /// every float-class spill slot is 16 bytes and moved whole (regalloc2's edits know
    /// only the class); otherwise 8 bytes, as scalars need.
    pub wide_float: bool,
}

impl VCode {
    pub fn new(mut blocks: Vec<VBlock>, num_vregs: usize) -> VCode {
        let mut insts = Vec::with_capacity(blocks.iter().map(|b| b.insts.len()).sum());
        let mut ranges = Vec::with_capacity(blocks.len());
        let mut block_succs = Vec::with_capacity(blocks.len());
        let mut block_params = Vec::with_capacity(blocks.len());
        let mut branch_args = Vec::with_capacity(blocks.len());
        let mut block_preds = vec![Vec::new(); blocks.len()];
        for (bi, b) in blocks.iter_mut().enumerate() {
            let start = insts.len();
            insts.append(&mut b.insts);
            ranges.push((start, insts.len()));
            for s in &b.succs {
                block_preds[s.index()].push(Block::new(bi));
            }
            block_succs.push(b.succs.clone());
            block_params.push(b.params.clone());
            let mut args = b.args.clone();
            args.resize(b.succs.len(), Vec::new());
            branch_args.push(args);
        }
        VCode {
            blocks,
            insts,
            ranges,
            block_succs,
            block_preds,
            block_params,
            branch_args,
            wide_float: false,
            num_vregs,
        }
    }
}

impl regalloc2::Function for VCode {
    fn num_insts(&self) -> usize {
        self.insts.len()
    }
    fn num_blocks(&self) -> usize {
        self.ranges.len()
    }
    fn entry_block(&self) -> Block {
        Block::new(0)
    }
    fn block_insns(&self, block: Block) -> InstRange {
        let (s, e) = self.ranges[block.index()];
        InstRange::new(regalloc2::Inst::new(s), regalloc2::Inst::new(e))
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        &self.block_succs[block.index()]
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        &self.block_preds[block.index()]
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        &self.block_params[block.index()]
    }
    fn is_ret(&self, insn: regalloc2::Inst) -> bool {
        matches!(self.insts[insn.index()].term, Term::Ret | Term::Trap)
    }
    fn is_branch(&self, insn: regalloc2::Inst) -> bool {
        matches!(
            self.insts[insn.index()].term,
            Term::Jump | Term::Cond(_) | Term::Table { .. } | Term::Indirect
        )
    }
    fn branch_blockparams(&self, block: Block, _insn: regalloc2::Inst, succ_idx: usize) -> &[VReg] {
        &self.branch_args[block.index()][succ_idx]
    }
    fn inst_operands(&self, insn: regalloc2::Inst) -> &[Operand] {
        &self.insts[insn.index()].ops
    }
    fn inst_clobbers(&self, insn: regalloc2::Inst) -> PRegSet {
        self.insts[insn.index()].clobbers
    }
    fn num_vregs(&self) -> usize {
        self.num_vregs
    }
    fn spillslot_size(&self, regclass: RegClass) -> usize {
        if self.wide_float && regclass == RegClass::Float {
            2
        } else {
            1
        }
    }
    /// Slot `n` lies below slot `n - 1` in the frame (emit.rs): a two-slot spill is named
    /// by its lower address, where its 16 bytes start.
    fn multi_spillslot_named_by_last_slot(&self) -> bool {
        true
    }
}

/// Physical register for a GPR hardware number.
pub fn preg_gpr(hw: u8) -> PReg {
    PReg::new(hw as usize, RegClass::Int)
}
pub fn preg_xmm(n: u8) -> PReg {
    PReg::new(n as usize, RegClass::Float)
}

/// The register a plan's DWARF number names, as a regalloc2 register.
pub fn dwarf_to_preg(n: u16) -> Option<PReg> {
    const GPR: [u8; 16] = [0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15];
    match n {
        0..=15 => Some(preg_gpr(GPR[n as usize])),
        17..=32 => Some(preg_xmm((n - 17) as u8)),
        _ => None,
    }
}

/// Rewrites every register field of `inst` through `g` (GPRs) and `x` (XMMs).
pub fn map_regs(inst: &mut Inst, g: &mut dyn FnMut(Gpr) -> Gpr, x: &mut dyn FnMut(Xmm) -> Xmm) {
    inst.map_regs(g, x)
}

/// Calls `f` on every memory operand of `inst`.
pub fn for_each_mem(inst: &mut Inst, f: &mut dyn FnMut(&mut Mem)) {
    inst.visit_operands(&mut |_| {}, &mut |_| {}, f)
}

/// Whether every mention of `r` in `inst` is as the base of a memory operand.
pub fn only_as_base(inst: &Inst, r: Gpr) -> bool {
    let mut all = 0;
    let mut t = *inst;
    map_regs(
        &mut t,
        &mut |g| {
            if g == r {
                all += 1
            }
            g
        },
        &mut |x| x,
    );
    let mut bases = 0;
    let mut t = *inst;
    for_each_mem(&mut t, &mut |m| {
        if m.base == Some(r) {
            bases += 1
        }
        if m.index.is_some_and(|(i, _)| i == r) {
            bases += 100
        }
    });
    all == bases
}
