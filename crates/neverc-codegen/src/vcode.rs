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
    /// Every block's successors, block after block: block `b`'s are
    /// `succs[succ_at[b]..succ_at[b + 1]]` (one list instead of a vector per block).
    succs: Vec<Block>,
    succ_at: Vec<u32>,
    /// Predecessors, the same way (`pred_at`).
    preds: Vec<Block>,
    pred_at: Vec<u32>,
    /// Block parameters, the same way (`param_at`).
    params: Vec<VReg>,
    param_at: Vec<u32>,
    /// Branch arguments per edge: edge `e` (the `e`th entry of `succs`) passes
    /// `args[arg_at[e]..arg_at[e + 1]]`.
    args: Vec<VReg>,
    arg_at: Vec<u32>,
    pub num_vregs: usize,
    /// Whether some float-class value is a whole 16-byte register: then every float-class
    /// spill slot is 16 bytes (two 8-byte slots, named by the last, lower one) and moved
    /// whole (regalloc2's edits know only the class).
    pub wide_float: bool,
}

/// The vectors of a finished [`VCode`], emptied, for the next function's lowering and
/// flattening to reuse: their capacity saves growing them anew function after function.
pub struct Recycled<I, C> {
    /// Empty blocks (their vectors keep their capacity), the roomiest last: taken first,
    /// by the function's first blocks, which are the lowered IR blocks.
    blocks: Vec<VBlock<I, C>>,
    insts: Vec<VInst<I, C>>,
    ranges: Vec<(usize, usize)>,
    /// `succs`, `succ_at`, `preds`, `pred_at`, `param_at`, `arg_at`.
    blocks_u32: [Vec<u32>; 4],
    lists: [Vec<Block>; 2],
    vregs: [Vec<VReg>; 2],
}

impl<I, C> Default for Recycled<I, C> {
    fn default() -> Self {
        Recycled {
            blocks: Vec::new(),
            insts: Vec::new(),
            ranges: Vec::new(),
            blocks_u32: Default::default(),
            lists: Default::default(),
            vregs: Default::default(),
        }
    }
}

impl<I, C> Recycled<I, C> {
    /// The empty instruction list, for a lowering to fill (see [`VCode::new_in_with`]).
    pub fn take_insts(&mut self) -> Vec<VInst<I, C>> {
        std::mem::take(&mut self.insts)
    }

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
    pub fn new_in(blocks: Vec<VBlock<I, C>>, num_vregs: usize, spare: &mut Recycled<I, C>) -> Self {
        let insts = std::mem::take(&mut spare.insts);
        Self::new_in_with(blocks, insts, &[], num_vregs, spare)
    }

    /// As [`new_in`](Self::new_in), with the instructions of the first `lead.len()` blocks
    /// already flat, in block order, in `insts` (`lead[b]` of them for block `b`; those
    /// blocks' own lists are empty): a lowering that fills its blocks in order lowers
    /// straight into the final list, and only the other blocks' instructions are moved.
    pub fn new_in_with(
        mut blocks: Vec<VBlock<I, C>>,
        mut insts: Vec<VInst<I, C>>,
        lead: &[u32],
        num_vregs: usize,
        spare: &mut Recycled<I, C>,
    ) -> Self {
        let nb = blocks.len();
        debug_assert_eq!(insts.len(), lead.iter().map(|&n| n as usize).sum::<usize>());
        insts.reserve(blocks.iter().map(|b| b.insts.len()).sum());
        let mut ranges = std::mem::take(&mut spare.ranges);
        ranges.reserve(nb);
        let [mut succ_at, mut pred_at, mut param_at, mut arg_at] =
            std::mem::take(&mut spare.blocks_u32);
        let [mut succs, mut preds] = std::mem::take(&mut spare.lists);
        let [mut params, mut args] = std::mem::take(&mut spare.vregs);
        succ_at.push(0);
        param_at.push(0);
        arg_at.push(0);
        // Predecessor counts first (in `pred_at`, shifted by one for the prefix sums).
        pred_at.resize(nb + 1, 0);
        let mut lead_end = 0;
        for (bi, b) in blocks.iter_mut().enumerate() {
            if let Some(&n) = lead.get(bi) {
                ranges.push((lead_end, lead_end + n as usize));
                lead_end += n as usize;
            } else {
                let start = insts.len();
                insts.append(&mut b.insts);
                ranges.push((start, insts.len()));
            }
            for (k, s) in b.succs.iter().enumerate() {
                pred_at[s.index() + 1] += 1;
                // Only a one-successor jump has arguments; missing ones are empty.
                if let Some(a) = b.args.get(k) {
                    args.extend_from_slice(a);
                }
                arg_at.push(args.len() as u32);
            }
            succs.extend_from_slice(&b.succs);
            succ_at.push(succs.len() as u32);
            params.extend_from_slice(&b.params);
            param_at.push(params.len() as u32);
            b.succs.clear();
            b.params.clear();
            b.args.clear();
        }
        for b in 0..nb {
            pred_at[b + 1] += pred_at[b];
        }
        // Each block's predecessors in increasing order (a block branching twice to the
        // same successor is its predecessor twice).
        preds.resize(succs.len(), Block::new(0));
        let mut fill: Vec<u32> = pred_at[..nb].to_vec();
        for bi in 0..nb {
            for k in succ_at[bi]..succ_at[bi + 1] {
                let s = succs[k as usize].index();
                preds[fill[s] as usize] = Block::new(bi);
                fill[s] += 1;
            }
        }
        VCode {
            blocks,
            insts,
            ranges,
            succs,
            succ_at,
            preds,
            pred_at,
            params,
            param_at,
            args,
            arg_at,
            num_vregs,
            wide_float: false,
        }
    }

    /// The successors of block `b`.
    pub fn succs(&self, b: usize) -> &[Block] {
        &self.succs[self.succ_at[b] as usize..self.succ_at[b + 1] as usize]
    }

    /// The predecessors of block `b`.
    pub fn preds(&self, b: usize) -> &[Block] {
        &self.preds[self.pred_at[b] as usize..self.pred_at[b + 1] as usize]
    }

    /// The parameters of block `b`.
    pub fn params(&self, b: usize) -> &[VReg] {
        &self.params[self.param_at[b] as usize..self.param_at[b + 1] as usize]
    }

    /// The arguments block `b` passes to its `k`th successor.
    pub fn branch_args(&self, b: usize, k: usize) -> &[VReg] {
        let e = self.succ_at[b] as usize + k;
        &self.args[self.arg_at[e] as usize..self.arg_at[e + 1] as usize]
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
        blocks.sort_unstable_by_key(|b| b.insts.capacity());
        let mut insts = self.insts;
        insts.clear();
        let mut ranges = self.ranges;
        ranges.clear();
        let mut v = [self.succ_at, self.pred_at, self.param_at, self.arg_at];
        v.iter_mut().for_each(Vec::clear);
        let mut lists = [self.succs, self.preds];
        lists.iter_mut().for_each(Vec::clear);
        let mut vregs = [self.params, self.args];
        vregs.iter_mut().for_each(Vec::clear);
        Recycled {
            blocks,
            insts,
            ranges,
            blocks_u32: v,
            lists,
            vregs,
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
        self.succs(block.index())
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        self.preds(block.index())
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        self.params(block.index())
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
        self.branch_args(block.index(), succ_idx)
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

/// How many successors a terminator has (`Op::successors().len()`, without the vector).
pub fn successor_count(op: &neverc_ir::Op) -> usize {
    use neverc_ir::Op;
    match op {
        Op::Jump(_) => 1,
        Op::Branch { .. } => 2,
        Op::Switch { cases, .. } => cases.len() + 1,
        Op::IndirectJump { targets, .. } => targets.len(),
        _ => 0,
    }
}

/// The `k`th successor of a terminator, in `Op::successors()` order (below
/// [`successor_count`]).
pub fn successor(op: &neverc_ir::Op, k: usize) -> neverc_ir::Block {
    use neverc_ir::Op;
    match op {
        Op::Jump(bc) => bc.block,
        Op::Branch { then, els, .. } => {
            if k == 0 {
                then.block
            } else {
                els.block
            }
        }
        Op::Switch { cases, default, .. } => cases.get(k).map_or(*default, |c| c.1),
        Op::IndirectJump { targets, .. } => targets[k],
        _ => unreachable!("a successor of an instruction that has none"),
    }
}

/// The reachable blocks of `f` in reverse postorder from the entry (a block's first
/// successor is visited last, so it comes right after the block). Back ends number their
/// vblocks this way: regalloc2's Fastalloc walks blocks backwards by index with one live
/// set, so a value's defining block must come before every block that uses it.
pub fn reverse_postorder(f: &neverc_ir::Function) -> Vec<usize> {
    let n = f.blocks.len();
    let term = |b: usize| f.terminator(neverc_ir::Block(b as u32));
    let count = |b: usize| term(b).map_or(0, successor_count);
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // Per open block, how many of its successors are still to visit (last first).
    let mut stack: Vec<(usize, usize)> = vec![(0, count(0))];
    seen[0] = true;
    while let Some((b, rest)) = stack.last_mut() {
        if *rest == 0 {
            post.push(*b);
            stack.pop();
            continue;
        }
        *rest -= 1;
        let s = successor(term(*b).expect("a block with successors"), *rest).index();
        if !seen[s] {
            seen[s] = true;
            stack.push((s, count(s)));
        }
    }
    post.reverse();
    post
}
