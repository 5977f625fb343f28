//! regalloc2's checker, run so that it agrees with the back ends' block numbering.
//!
//! The checker's dataflow visits blocks by index, and a block visited before any of its
//! predecessors is taken to know nothing; meets are intersections, so that ignorance then
//! spreads to every block it reaches and correct allocations are reported as
//! `UnknownValueInAllocation`. The back ends number their vblocks in reverse postorder of
//! the IR's blocks but append the blocks that split critical edges at the end, so a join
//! reached only through such blocks is visited too early. [`check`] copies the function and
//! its allocation with blocks and instructions renumbered in reverse postorder of the
//! vblocks themselves, where every reachable block but the entry has a predecessor before
//! it, and runs the checker on the copy.

use regalloc2::checker::{Checker, CheckerErrors};
use regalloc2::{
    Block, Function, Inst, InstRange, MachineEnv, Operand, Output, PRegSet, ProgPoint, RegClass,
    VReg,
};

/// Runs regalloc2's checker on `out`, the allocation of `f`, in reverse postorder.
pub fn check<F: Function>(f: &F, env: &MachineEnv, out: &Output) -> Result<(), CheckerErrors> {
    let order = block_order(f);
    let copy = Renumbered::new(f, &order);
    let out = copy.renumber_output(f, out);
    let mut ch = Checker::new(&copy, env);
    ch.prepare(&out);
    ch.run()
}

/// The blocks in reverse postorder from the entry (first successor first), then the
/// unreachable ones in index order.
fn block_order<F: Function>(f: &F) -> Vec<Block> {
    let n = f.num_blocks();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let entry = f.entry_block();
    seen[entry.index()] = true;
    // Per open block, the index of its next successor to visit.
    let mut stack = vec![(entry, 0usize)];
    while let Some((b, next)) = stack.last_mut() {
        let succs = f.block_succs(*b);
        if *next == succs.len() {
            post.push(*b);
            stack.pop();
            continue;
        }
        let s = succs[*next];
        *next += 1;
        if !seen[s.index()] {
            seen[s.index()] = true;
            stack.push((s, 0));
        }
    }
    post.reverse();
    post.extend((0..n).filter(|&b| !seen[b]).map(Block::new));
    post
}

/// A copy of a function's CFG and operands with blocks (and their instructions) in a new
/// order; virtual registers keep their numbers.
struct Renumbered {
    entry: Block,
    ranges: Vec<InstRange>,
    succs: Vec<Vec<Block>>,
    preds: Vec<Vec<Block>>,
    params: Vec<Vec<VReg>>,
    /// Per block, per successor, the branch arguments of its last instruction.
    branch_args: Vec<Vec<Vec<VReg>>>,
    ops: Vec<Vec<Operand>>,
    clobbers: Vec<PRegSet>,
    ret: Vec<bool>,
    branch: Vec<bool>,
    /// The old number of each new instruction.
    old_inst: Vec<Inst>,
    /// The new number of each old instruction.
    new_inst: Vec<Inst>,
    num_vregs: usize,
    slot_size: [usize; 3],
    multi_slot_by_last: bool,
}

impl Renumbered {
    fn new<F: Function>(f: &F, order: &[Block]) -> Renumbered {
        let mut new_block = vec![Block::invalid(); f.num_blocks()];
        for (i, b) in order.iter().enumerate() {
            new_block[b.index()] = Block::new(i);
        }
        let map = |bs: &[Block]| bs.iter().map(|b| new_block[b.index()]).collect::<Vec<_>>();
        let mut r = Renumbered {
            entry: new_block[f.entry_block().index()],
            ranges: Vec::new(),
            succs: Vec::new(),
            preds: Vec::new(),
            params: Vec::new(),
            branch_args: Vec::new(),
            ops: Vec::new(),
            clobbers: Vec::new(),
            ret: Vec::new(),
            branch: Vec::new(),
            old_inst: Vec::new(),
            new_inst: vec![Inst::invalid(); f.num_insts()],
            num_vregs: f.num_vregs(),
            slot_size: [RegClass::Int, RegClass::Float, RegClass::Vector]
                .map(|c| f.spillslot_size(c)),
            multi_slot_by_last: f.multi_spillslot_named_by_last_slot(),
        };
        for &b in order {
            let first = r.old_inst.len();
            let range = f.block_insns(b);
            for i in range.iter() {
                r.new_inst[i.index()] = Inst::new(r.old_inst.len());
                r.old_inst.push(i);
                r.ops.push(f.inst_operands(i).to_vec());
                r.clobbers.push(f.inst_clobbers(i));
                r.ret.push(f.is_ret(i));
                r.branch.push(f.is_branch(i));
            }
            r.ranges.push(InstRange::new(
                Inst::new(first),
                Inst::new(r.old_inst.len()),
            ));
            let succs = f.block_succs(b);
            let last = range.last();
            r.branch_args.push(
                (0..succs.len())
                    .map(|k| {
                        if f.is_branch(last) {
                            f.branch_blockparams(b, last, k).to_vec()
                        } else {
                            Vec::new()
                        }
                    })
                    .collect(),
            );
            r.succs.push(map(succs));
            r.preds.push(map(f.block_preds(b)));
            r.params.push(f.block_params(b).to_vec());
        }
        r
    }

    /// `out` with instructions renumbered: allocations in the new instruction order, edits
    /// at the new program points (still sorted; edits at one point keep their order).
    fn renumber_output<F: Function>(&self, f: &F, out: &Output) -> Output {
        let mut new = Output {
            num_spillslots: out.num_spillslots,
            ..Output::default()
        };
        for &old in &self.old_inst {
            new.inst_alloc_offsets.push(new.allocs.len() as u32);
            new.allocs.extend_from_slice(out.inst_allocs(old));
        }
        debug_assert_eq!(self.old_inst.len(), f.num_insts());
        new.edits = out
            .edits
            .iter()
            .map(|(p, e)| {
                (
                    ProgPoint::new(self.new_inst[p.inst().index()], p.pos()),
                    e.clone(),
                )
            })
            .collect();
        new.edits.sort_by_key(|&(p, _)| p);
        new
    }
}

impl Function for Renumbered {
    fn num_insts(&self) -> usize {
        self.old_inst.len()
    }
    fn num_blocks(&self) -> usize {
        self.ranges.len()
    }
    fn entry_block(&self) -> Block {
        self.entry
    }
    fn block_insns(&self, block: Block) -> InstRange {
        self.ranges[block.index()]
    }
    fn block_succs(&self, block: Block) -> &[Block] {
        &self.succs[block.index()]
    }
    fn block_preds(&self, block: Block) -> &[Block] {
        &self.preds[block.index()]
    }
    fn block_params(&self, block: Block) -> &[VReg] {
        &self.params[block.index()]
    }
    fn is_ret(&self, insn: Inst) -> bool {
        self.ret[insn.index()]
    }
    fn is_branch(&self, insn: Inst) -> bool {
        self.branch[insn.index()]
    }
    fn branch_blockparams(&self, block: Block, _insn: Inst, succ_idx: usize) -> &[VReg] {
        &self.branch_args[block.index()][succ_idx]
    }
    fn inst_operands(&self, insn: Inst) -> &[Operand] {
        &self.ops[insn.index()]
    }
    fn inst_clobbers(&self, insn: Inst) -> PRegSet {
        self.clobbers[insn.index()]
    }
    fn num_vregs(&self) -> usize {
        self.num_vregs
    }
    fn spillslot_size(&self, regclass: RegClass) -> usize {
        self.slot_size[regclass as usize]
    }
    fn multi_spillslot_named_by_last_slot(&self) -> bool {
        self.multi_slot_by_last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcode::{Term, VBlock, VCode, VInst};
    use regalloc2::{Allocation, PReg};

    fn p(hw: usize) -> PReg {
        PReg::new(hw, RegClass::Int)
    }

    fn env() -> MachineEnv {
        MachineEnv {
            preferred_regs_by_class: [
                PRegSet::empty().with(p(0)).with(p(1)),
                PRegSet::empty(),
                PRegSet::empty(),
            ],
            non_preferred_regs_by_class: [PRegSet::empty(); 3],
            scratch_by_class: [None; 3],
            fixed_stack_slots: vec![],
        }
    }

    fn jump_to(succ: usize) -> VBlock<u8, ()> {
        let mut b = VBlock::new(0);
        b.insts.push(VInst::term(Term::Jump));
        b.succs.push(Block::new(succ));
        b.args.push(vec![]);
        b
    }

    /// b0 defines v0 and branches to b2 and to b3; b3 (numbered last, as a block splitting
    /// a critical edge is) jumps to b1, which jumps to b2; b2 reads v0 in the register
    /// `use_in`. Visited by index, b1 comes before its only predecessor.
    fn join_after_edge_block(use_in: PReg) -> (VCode<u8, ()>, Output) {
        let v0 = VReg::new(0, RegClass::Int);
        let mut b0 = VBlock::new(0);
        b0.insts
            .push(VInst::new(vec![0u8], vec![Operand::reg_def(v0)]));
        b0.insts.push(VInst::term(Term::Cond(())));
        b0.succs = vec![Block::new(3), Block::new(2)];
        b0.args = vec![vec![], vec![]];
        let mut b2 = VBlock::new(2);
        b2.insts
            .push(VInst::new(vec![0u8], vec![Operand::reg_use(v0)]));
        b2.insts.push(VInst::term(Term::Ret));
        let vc = VCode::new(vec![b0, jump_to(2), b2, jump_to(1)], 1);
        // Instructions: 0 def v0, 1 branch (b0); 2 jump (b1); 3 use v0, 4 ret (b2);
        // 5 jump (b3).
        let out = Output {
            allocs: vec![Allocation::reg(p(0)), Allocation::reg(use_in)],
            inst_alloc_offsets: vec![0, 1, 1, 1, 2, 2],
            ..Output::default()
        };
        (vc, out)
    }

    #[test]
    fn a_join_numbered_before_its_only_predecessor_is_checked_right() {
        let (vc, out) = join_after_edge_block(p(0));
        let env = env();
        // regalloc2's checker on the original numbering loses v0 at the join.
        let mut ch = Checker::new(&vc, &env);
        ch.prepare(&out);
        assert!(ch.run().is_err());
        check(&vc, &env, &out).expect("the allocation is correct");
    }

    #[test]
    fn a_wrong_register_at_the_join_is_still_an_error() {
        let (vc, out) = join_after_edge_block(p(1));
        let errors = check(&vc, &env(), &out).expect_err("v0 is in p0, not p1");
        assert!(format!("{errors:?}").contains("v0i"), "{errors:?}");
    }
}
