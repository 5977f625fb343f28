//! Virtual-register code, generic over a back end's instruction type: the shape every
//! back end hands to `regalloc2` between lowering and register allocation, and its
//! `regalloc2::Function` implementation.
//!
//! A [`VInst`] is a short sequence of instruction *templates* (`I`) plus the regalloc2
//! operands they read and write; how a template names operand `k` is the back end's
//! business (a placeholder register number). `C` is the back end's branch condition.
//! Both back ends (x86-64 and AArch64) use this. A vblock `b`'s label is `b` (each back
//! end's label type over that number).

use regalloc2::{Block, InstRange, Operand, PRegSet, RegClass, VReg};
use smallvec::SmallVec;

/// How an instruction ends its block.
#[derive(Clone, Debug)]
pub enum Term<C> {
    /// Not a terminator.
    None,
    /// Unconditional jump to the only successor.
    Jump,
    /// The templates set the condition; go to successor 0 when `C` holds, else successor 1.
    Cond(C),
    /// Jump table: the templates jump through the table at `table` (a label number), emitted
    /// after the function, whose entries name successors by index.
    Table { table: u32, entries: Vec<usize> },
    /// Indirect jump; the successors are the possible targets.
    Indirect,
    /// Return: the operands are the fixed-register return values.
    Ret,
    /// Never returns.
    Trap,
}

/// Templates of one [`VInst`]: most have one or two (stored inline, no allocation).
pub type Templates<I> = SmallVec<[I; 2]>;
/// Operands of one [`VInst`]: most have up to four.
pub type Operands = SmallVec<[Operand; 4]>;

#[derive(Clone, Debug)]
pub struct VInst<I, C> {
    pub insts: Templates<I>,
    pub ops: Operands,
    pub clobbers: PRegSet,
    pub term: Term<C>,
    /// An inline asm statement (the `-S` text marks it with `#APP`/`#NO_APP`).
    pub inline_asm: bool,
}

impl<I, C> VInst<I, C> {
    pub fn new(insts: impl Into<Templates<I>>, ops: impl Into<Operands>) -> Self {
        VInst {
            insts: insts.into(),
            ops: ops.into(),
            clobbers: PRegSet::empty(),
            term: Term::None,
            inline_asm: false,
        }
    }

    /// A terminator without templates or operands (a jump whose branch is placed by the
    /// emitter).
    pub fn term(term: Term<C>) -> Self {
        VInst {
            insts: SmallVec::new(),
            ops: SmallVec::new(),
            clobbers: PRegSet::empty(),
            term,
            inline_asm: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct VBlock<I, C> {
    pub insts: Vec<VInst<I, C>>,
    pub params: Vec<VReg>,
    pub succs: Vec<Block>,
    /// Branch arguments per successor (only a one-successor jump has any).
    pub args: Vec<Vec<VReg>>,
    /// The block during whose lowering this one was made (itself for IR blocks): the
    /// emitter lays blocks out after their origin.
    pub origin: usize,
}

impl<I, C> VBlock<I, C> {
    pub fn new(origin: usize) -> Self {
        VBlock {
            insts: Vec::new(),
            params: Vec::new(),
            succs: Vec::new(),
            args: Vec::new(),
            origin,
        }
    }
}

/// The whole function in virtual registers, flattened for regalloc2.
pub struct VCode<I, C> {
    /// The blocks as lowered; [`VCode::new`] moves their instructions, successors,
    /// parameters and arguments into the flat lists below, leaving each its `origin`.
    pub blocks: Vec<VBlock<I, C>>,
    /// Flattened instruction list (block order), and per block its range.
    pub insts: Vec<VInst<I, C>>,
    pub ranges: Vec<(usize, usize)>,
    pub block_succs: Vec<Vec<Block>>,
    pub block_preds: Vec<Vec<Block>>,
    pub block_params: Vec<Vec<VReg>>,
    pub branch_args: Vec<Vec<Vec<VReg>>>,
    pub num_vregs: usize,
    /// Whether some float-class value is a whole 16-byte register: then every float-class
    /// spill slot is 16 bytes (two 8-byte slots, named by the last, lower one) and moved
    /// whole (regalloc2's edits know only the class).
    pub wide_float: bool,
}

/// The vectors of a finished [`VCode`], emptied, for the next function's lowering and
/// flattening to reuse: their capacity saves growing them anew function after function.
pub struct Recycled<I, C> {
    /// Empty blocks (their instruction vectors keep their capacity).
    blocks: Vec<VBlock<I, C>>,
    insts: Vec<VInst<I, C>>,
    ranges: Vec<(usize, usize)>,
}

impl<I, C> Default for Recycled<I, C> {
    fn default() -> Self {
        Recycled {
            blocks: Vec::new(),
            insts: Vec::new(),
            ranges: Vec::new(),
        }
    }
}

impl<I, C> Recycled<I, C> {
    /// A new empty block, made during the lowering of block `origin`.
    pub fn block(&mut self, origin: usize) -> VBlock<I, C> {
        match self.blocks.pop() {
            Some(mut b) => {
                b.origin = origin;
                b
            }
            None => VBlock::new(origin),
        }
    }
}

impl<I, C> VCode<I, C> {
    pub fn new(blocks: Vec<VBlock<I, C>>, num_vregs: usize) -> Self {
        Self::new_in(blocks, num_vregs, &mut Recycled::default())
    }

    /// As [`new`](Self::new), in the flat vectors `spare` has (if any).
    pub fn new_in(
        mut blocks: Vec<VBlock<I, C>>,
        num_vregs: usize,
        spare: &mut Recycled<I, C>,
    ) -> Self {
        let mut insts = std::mem::take(&mut spare.insts);
        insts.reserve(blocks.iter().map(|b| b.insts.len()).sum());
        let mut ranges = std::mem::take(&mut spare.ranges);
        ranges.reserve(blocks.len());
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
            let mut args = std::mem::take(&mut b.args);
            args.resize(b.succs.len(), Vec::new());
            branch_args.push(args);
            block_succs.push(std::mem::take(&mut b.succs));
            block_params.push(std::mem::take(&mut b.params));
        }
        VCode {
            blocks,
            insts,
            ranges,
            block_succs,
            block_preds,
            block_params,
            branch_args,
            num_vregs,
            wide_float: false,
        }
    }

    /// This function's vectors, emptied, for the next one (see [`Recycled`]).
    pub fn recycle(self) -> Recycled<I, C> {
        let mut blocks = self.blocks;
        for b in &mut blocks {
            b.insts.clear();
            b.params.clear();
            b.succs.clear();
            b.args.clear();
        }
        let mut insts = self.insts;
        insts.clear();
        let mut ranges = self.ranges;
        ranges.clear();
        Recycled {
            blocks,
            insts,
            ranges,
        }
    }
}

impl<I, C> regalloc2::Function for VCode<I, C> {
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
    /// Slot `n` lies below slot `n - 1` in the frames of the back ends using this: a
    /// two-slot spill is named by its lower address, where its 16 bytes start.
    fn multi_spillslot_named_by_last_slot(&self) -> bool {
        true
    }
}
