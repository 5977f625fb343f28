//! neverc's own register allocator for -O0: one forward pass over each block of a
//! [`VCode`], producing the same `regalloc2::Output` regalloc2 would (an allocation per
//! operand, moves as edits, the spill slot count), so emission does not change.
//!
//! The plan, for speed over code quality (at -O0 almost every value lives in one block):
//! - A vreg mentioned in one block only ("local") gets a register when it is defined and
//!   keeps it until its last use; when its register is needed for something else it is
//!   stored to a spill slot (once: the value never changes) and reloaded where it is used.
//! - A vreg mentioned in several blocks, and every block parameter ("global"), has a home
//!   slot: stored right after its definition, loaded before its first use in each block
//!   (the register then serves the block's later uses while it lasts).
//! - Nothing lives in a register across a block boundary. A jump with arguments loads them
//!   all into registers first, then stores each to its parameter's home (a parallel copy:
//!   an argument may be another parameter of the target).
//!
//! Operand rules honoured (regalloc2's `Operand`): fixed-register uses and defs, reused
//! inputs (the def takes the use's register; the use's value is copied first if it is
//! still needed), early defs (conflict with every use), late uses (conflict with defs and
//! clobbers), clobbers (nothing needed afterwards stays in one). The scratch registers of
//! the `MachineEnv` are never touched, not even by moves (lowering passes values in them
//! between instructions). What this allocator does not handle (other constraints, block
//! parameters of the entry block, arguments on a conditional branch, a register shortage
//! inside one instruction) is reported as [`Unsupported`], and the caller falls back to
//! regalloc2.

use crate::vcode::VCode;
use regalloc2::{
    Allocation, Edit, Inst, MachineEnv, OperandConstraint, OperandKind, OperandPos, Output, PReg,
    PRegSet, ProgPoint, RegClass, SpillSlot,
};

/// Why a function was not allocated (the caller uses regalloc2 instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

const NONE: u32 = u32::MAX;
/// `VState::block` of a vreg mentioned in several blocks (or a block parameter).
const GLOBAL: u32 = u32::MAX - 1;
const NOREG: u8 = u8::MAX;

/// What the allocator knows of one vreg.
#[derive(Clone, Copy)]
struct VState {
    /// The one block it is mentioned in, `GLOBAL`, or `NONE` (not seen).
    block: u32,
    /// The last instruction reading it (a jump passing it counts), or `NONE`.
    last: u32,
    /// The spill slot holding its value (a global's home), or `NONE`.
    slot: u32,
    /// The register (hardware number, in the vreg's class) holding its value now, or
    /// `NOREG`.
    reg: u8,
    /// The register of its first fixed-register use, or `NOREG`: a def goes there when
    /// that register is free (a call's argument is made in its register, not moved).
    hint: u8,
}

const FRESH: VState = VState {
    block: NONE,
    last: NONE,
    slot: NONE,
    reg: NOREG,
    hint: NOREG,
};

/// One operand, decoded once.
#[derive(Clone, Copy)]
struct Dop {
    v: u32,
    /// 0: Int, 1: Float.
    c: u8,
    def: bool,
    late: bool,
    /// The fixed register's hardware number, or `NOREG`.
    fixed: u8,
    /// For a def reusing an input: that operand's index, else `NOREG`.
    reuse: u8,
}

/// Register sets of one class per index (Int, Float), a bit per hardware number.
type Mask = [u64; 2];

fn bit(hw: u8) -> u64 {
    1u64 << hw
}

/// The allocator's working memory, kept from one function to the next.
pub struct O0Alloc {
    vs: Vec<VState>,
    /// Per class and hardware number: the vreg the register holds now, or `NONE`.
    occ: [[u32; 64]; 2],
    /// The registers holding a value (`occ` not `NONE`), per class.
    busy: Mask,
    /// Where the next instruction's allocations start in `Output::allocs`.
    next_alloc: usize,
    /// Allocation order per class: preferred registers, then the others.
    order: [Vec<u8>; 2],
    /// The same registers as masks.
    allocatable: Mask,
    /// Freed spill slots of locals, per class.
    free_slots: [Vec<u32>; 2],
    num_slots: u32,
    /// Spill slot units per value of each class (see `VCode::spillslot_size`).
    slot_size: [u32; 2],
    /// The current instruction's operands.
    dec: Vec<Dop>,
    /// Per class and register: the vreg a use of the current instruction reads there
    /// (meaningful where `rd_early | rd_late` has the register).
    rd_v: [[u32; 64]; 2],
    /// The last clobber set seen and its masks (calls all have the same).
    clob: (PRegSet, Mask),
}

impl Default for O0Alloc {
    fn default() -> Self {
        O0Alloc {
            vs: Vec::new(),
            occ: [[NONE; 64]; 2],
            busy: [0, 0],
            allocatable: [0, 0],
            next_alloc: 0,
            order: Default::default(),
            free_slots: Default::default(),
            num_slots: 0,
            slot_size: [1, 1],
            dec: Vec::new(),
            rd_v: [[NONE; 64]; 2],
            clob: (PRegSet::empty(), [0, 0]),
        }
    }
}

fn class_ix(c: RegClass) -> Result<u8, Unsupported> {
    match c {
        RegClass::Int => Ok(0),
        RegClass::Float => Ok(1),
        RegClass::Vector => Err(Unsupported("a vector-class value")),
    }
}

fn reg(c: u8, hw: u8) -> Allocation {
    // The bits of `Allocation::reg(preg(c, hw))`, without the class match.
    debug_assert!(c < 2 && hw < 64);
    Allocation::reg(PReg::from_index(
        ((c as usize) << PReg::MAX_BITS) | hw as usize,
    ))
}

/// What one instruction's operands reserve (built before choosing registers).
#[derive(Default)]
struct InstMasks {
    /// Clobbers and fixed defs: whatever they hold is gone after the instruction.
    kill: Mask,
    /// Fixed early defs: no use may read them.
    edef: Mask,
    /// Registers read by uses at the early point, at the late point.
    rd_early: Mask,
    rd_late: Mask,
    /// Registers written by non-fixed defs chosen so far (reused inputs included).
    written: Mask,
    /// Of those, the early ones.
    written_early: Mask,
}

impl O0Alloc {
    /// Allocates `vc` into `out` (its vectors are reused).
    pub fn run<I, C>(
        &mut self,
        vc: &VCode<I, C>,
        env: &MachineEnv,
        out: &mut Output,
    ) -> Result<(), Unsupported> {
        out.edits.clear();
        out.allocs.clear();
        out.inst_alloc_offsets.clear();
        out.debug_locations.clear();
        out.num_spillslots = 0;
        let r = self.setup(vc, env, out).and_then(|()| self.blocks(vc, out));
        if r.is_err() {
            // Leave no register marked for the next function.
            self.clear_regs();
        }
        r
    }

    fn blocks<I, C>(&mut self, vc: &VCode<I, C>, out: &mut Output) -> Result<(), Unsupported> {
        out.inst_alloc_offsets.reserve(vc.insts.len());
        for b in 0..vc.ranges.len() {
            let (s, e) = vc.ranges[b];
            for i in s..e {
                out.inst_alloc_offsets.push(self.next_alloc as u32);
                if i + 1 == e && vc.succs(b).len() == 1 && !vc.branch_args(b, 0).is_empty() {
                    self.jump_args(vc, b, i, out)?;
                }
                self.inst(vc, i, i + 1 == e, out)?;
            }
            self.clear_regs();
        }
        out.num_spillslots = self.num_slots as usize;
        Ok(())
    }

    fn setup<I, C>(
        &mut self,
        vc: &VCode<I, C>,
        env: &MachineEnv,
        out: &mut Output,
    ) -> Result<(), Unsupported> {
        let n = vc.num_vregs;
        self.vs.clear();
        self.vs.resize(n, FRESH);
        for c in 0..2 {
            self.order[c].clear();
            let regs = env.preferred_regs_by_class[c]
                .into_iter()
                .chain(env.non_preferred_regs_by_class[c]);
            self.order[c].extend(regs.map(|p| p.hw_enc() as u8));
            self.allocatable[c] = self.order[c].iter().fold(0, |m, &hw| m | bit(hw));
            self.free_slots[c].clear();
        }
        self.num_slots = 0;
        self.slot_size = [
            regalloc2::Function::spillslot_size(vc, RegClass::Int) as u32,
            regalloc2::Function::spillslot_size(vc, RegClass::Float) as u32,
        ];
        if !vc.params(0).is_empty() {
            return Err(Unsupported("parameters of the entry block"));
        }
        // Which vregs are local to a block, and where each is last read.
        fn see(v: &mut VState, b: u32) {
            if v.block == NONE {
                v.block = b;
            } else if v.block != b {
                v.block = GLOBAL;
            }
        }
        let vs = &mut self.vs[..];
        let mut nops = 0;
        for b in 0..vc.ranges.len() {
            let (s, e) = vc.ranges[b];
            for &p in vc.params(b) {
                vs[p.vreg()].block = GLOBAL;
            }
            for i in s..e {
                nops += vc.insts[i].ops.len();
                for op in vc.insts[i].ops.iter() {
                    let v = vs
                        .get_mut(op.vreg().vreg())
                        .ok_or(Unsupported("a vreg out of range"))?;
                    see(v, b as u32);
                    if op.kind() == OperandKind::Use {
                        v.last = i as u32;
                        if let OperandConstraint::FixedReg(p) = op.constraint() {
                            if v.hint == NOREG {
                                v.hint = p.hw_enc() as u8;
                            }
                        }
                    }
                }
            }
            let succs = vc.succs(b).len();
            for k in 0..succs {
                let args = vc.branch_args(b, k);
                if args.is_empty() {
                    continue;
                }
                if succs != 1 {
                    return Err(Unsupported("arguments on a branch with several successors"));
                }
                if e == s || !vc.insts[e - 1].ops.is_empty() {
                    return Err(Unsupported("arguments on a jump with operands"));
                }
                for &a in args {
                    let v = &mut vs[a.vreg()];
                    see(v, b as u32);
                    v.last = (e - 1) as u32;
                }
            }
        }
        self.next_alloc = 0;
        out.allocs.resize(nops, Allocation::none());
        Ok(())
    }

    /// Forgets every register's value (at a block's end).
    fn clear_regs(&mut self) {
        for c in 0..2 {
            let mut k = self.busy[c];
            while k != 0 {
                let hw = k.trailing_zeros() as usize;
                k &= k - 1;
                let v = self.occ[c][hw];
                self.occ[c][hw] = NONE;
                self.vs[v as usize].reg = NOREG;
            }
            self.busy[c] = 0;
        }
    }

    fn new_slot(&mut self, c: u8) -> u32 {
        if let Some(s) = self.free_slots[c as usize].pop() {
            return s;
        }
        let size = self.slot_size[c as usize];
        let offset = self.num_slots.next_multiple_of(size);
        self.num_slots = offset + size;
        // Named by its last unit (`multi_spillslot_named_by_last_slot`).
        offset + size - 1
    }

    /// The spill slot of `v` (a new one if it has none).
    fn slot_of(&mut self, v: u32, c: u8) -> u32 {
        let s = self.vs[v as usize].slot;
        if s != NONE {
            return s;
        }
        let s = self.new_slot(c);
        self.vs[v as usize].slot = s;
        s
    }

    fn track(&mut self, v: u32, c: u8, hw: u8) {
        self.occ[c as usize][hw as usize] = v;
        self.busy[c as usize] |= bit(hw);
        self.vs[v as usize].reg = hw;
    }

    fn untrack(&mut self, c: u8, hw: u8) {
        let v = self.occ[c as usize][hw as usize];
        if v != NONE {
            self.occ[c as usize][hw as usize] = NONE;
            self.busy[c as usize] &= !bit(hw);
            self.vs[v as usize].reg = NOREG;
        }
    }

    /// Stores the value of register `hw` before instruction `i` if it is read by `i` or
    /// later (`from_i`) or after `i` only, and has no slot yet.
    fn save(&mut self, c: u8, hw: u8, i: usize, from_i: bool, out: &mut Output) {
        let w = self.occ[c as usize][hw as usize];
        if w == NONE {
            return;
        }
        let ws = self.vs[w as usize];
        if ws.slot == NONE
            && ws.last != NONE
            && (ws.last as usize > i || from_i && ws.last as usize == i)
        {
            let s = self.slot_of(w, c);
            push_move(out, i, false, reg(c, hw), stack(s));
        }
    }

    /// A register of class `c` for instruction `i`, not in `avoid`: a free one if any,
    /// else one whose value is evicted (stored first if needed).
    fn pick(&mut self, c: u8, avoid: u64, i: usize, out: &mut Output) -> Result<u8, Unsupported> {
        let mut victim = NOREG;
        for &hw in &self.order[c as usize] {
            if avoid & bit(hw) != 0 {
                continue;
            }
            let w = self.occ[c as usize][hw as usize];
            if w == NONE {
                return Ok(hw);
            }
            // Cheapest to evict: a value with a slot already (nothing to store).
            if victim == NOREG || self.vs[w as usize].slot != NONE {
                victim = hw;
            }
        }
        if victim == NOREG {
            return Err(Unsupported("no register left for an operand"));
        }
        self.save(c, victim, i, true, out);
        self.untrack(c, victim);
        Ok(victim)
    }

    /// Puts `v`'s value into register `hw` before instruction `i`: from its register if
    /// it has one, else from its slot.
    fn fetch(
        &mut self,
        v: u32,
        c: u8,
        hw: u8,
        i: usize,
        out: &mut Output,
    ) -> Result<(), Unsupported> {
        let vs = self.vs[v as usize];
        let from = if vs.reg != NOREG {
            if vs.reg == hw {
                return Ok(());
            }
            reg(c, vs.reg)
        } else if vs.slot != NONE {
            stack(vs.slot)
        } else if vs.block == GLOBAL {
            // A block parameter or value whose stores come later in block order.
            stack(self.slot_of(v, c))
        } else {
            return Err(Unsupported(
                "a value with no location (used before defined?)",
            ));
        };
        push_move(out, i, false, from, reg(c, hw));
        Ok(())
    }

    /// Whether `v` may be read from register `q` by a use of the current instruction.
    fn use_ok(&self, c: u8, q: u8, v: u32, late: bool, m: &InstMasks) -> bool {
        let ci = c as usize;
        let b = bit(q);
        let mut bad = m.edef[ci] | m.written_early[ci];
        if late {
            bad |= m.kill[ci] | m.written[ci];
        }
        if bad & b != 0 {
            return false;
        }
        (m.rd_early[ci] | m.rd_late[ci]) & b == 0 || self.rd_v[ci][q as usize] == v
    }

    /// Moves the arguments of block `b`'s jump (instruction `i`) to the homes of its
    /// successor's parameters: all into registers first, then the stores.
    fn jump_args<I, C>(
        &mut self,
        vc: &VCode<I, C>,
        b: usize,
        i: usize,
        out: &mut Output,
    ) -> Result<(), Unsupported> {
        let args = vc.branch_args(b, 0);
        let params = vc.params(vc.succs(b)[0].index());
        let mut held: Mask = [0, 0];
        for &a in args {
            let r = self.vs[a.vreg()].reg;
            if r != NOREG {
                held[class_ix(a.class())? as usize] |= bit(r);
            }
        }
        for &a in args {
            let v = a.vreg() as u32;
            if self.vs[v as usize].reg == NOREG {
                let c = class_ix(a.class())?;
                let hw = self.pick(c, held[c as usize], i, out)?;
                self.fetch(v, c, hw, i, out)?;
                self.track(v, c, hw);
                held[c as usize] |= bit(hw);
            }
        }
        for (&a, &p) in args.iter().zip(params) {
            let c = class_ix(a.class())?;
            let hw = self.vs[a.vreg()].reg;
            let s = self.slot_of(p.vreg() as u32, c);
            push_move(out, i, false, reg(c, hw), stack(s));
        }
        Ok(())
    }

    fn clobber_mask(&mut self, set: PRegSet) -> Mask {
        if set == self.clob.0 {
            return self.clob.1;
        }
        let mut m: Mask = [0, 0];
        for p in set {
            if let Ok(c) = class_ix(p.class()) {
                m[c as usize] |= bit(p.hw_enc() as u8);
            }
        }
        self.clob = (set, m);
        m
    }

    fn inst<I, C>(
        &mut self,
        vc: &VCode<I, C>,
        i: usize,
        last_in_block: bool,
        out: &mut Output,
    ) -> Result<(), Unsupported> {
        let vi = &vc.insts[i];
        let base = self.next_alloc;
        self.next_alloc += vi.ops.len();
        let mut m = InstMasks {
            kill: self.clobber_mask(vi.clobbers),
            ..Default::default()
        };
        if vi.ops.is_empty() {
            for c in 0..2u8 {
                let mut k = m.kill[c as usize] & self.busy[c as usize];
                while k != 0 {
                    let hw = k.trailing_zeros() as u8;
                    k &= k - 1;
                    self.save(c, hw, i, false, out);
                    self.untrack(c, hw);
                }
            }
            return Ok(());
        }
        // Decode the operands once.
        self.dec.clear();
        let mut fuse = false;
        let mut has_reuse = false;
        for op in vi.ops.iter() {
            let c = class_ix(op.class())?;
            let def = op.kind() == OperandKind::Def;
            let late = op.pos() == OperandPos::Late;
            let (fixed, reuse) = match op.constraint() {
                OperandConstraint::Reg => (NOREG, NOREG),
                OperandConstraint::FixedReg(p) => {
                    let hw = p.hw_enc() as u8;
                    if class_ix(p.class())? != c {
                        return Err(Unsupported("a fixed register of another class"));
                    }
                    if def {
                        m.kill[c as usize] |= bit(hw);
                        if !late {
                            m.edef[c as usize] |= bit(hw);
                        }
                    } else {
                        fuse = true;
                    }
                    (hw, NOREG)
                }
                OperandConstraint::Reuse(k) => {
                    let ok = def
                        && vi.ops.get(k).is_some_and(|u| {
                            u.kind() == OperandKind::Use
                                && u.pos() == OperandPos::Early
                                && u.constraint() == OperandConstraint::Reg
                        });
                    if !ok {
                        return Err(Unsupported(
                            "a reused input other than an early register use",
                        ));
                    }
                    has_reuse = true;
                    (NOREG, k as u8)
                }
                _ => return Err(Unsupported("an operand constraint other than a register")),
            };
            self.dec.push(Dop {
                v: op.vreg().vreg() as u32,
                c,
                def,
                late,
                fixed,
                reuse,
            });
        }
        let n = self.dec.len();

        // Registers given to fixed uses: their other values leave (stored if still needed).
        if fuse {
            for k in 0..n {
                let d = self.dec[k];
                if !d.def && d.fixed != NOREG {
                    let w = self.occ[d.c as usize][d.fixed as usize];
                    if w != NONE && w != d.v {
                        self.save(d.c, d.fixed, i, true, out);
                        self.untrack(d.c, d.fixed);
                    }
                }
            }
        }
        // Killed registers: their values are stored if needed after `i` (a use of `i` that
        // cannot read one there copies it out first: `fetch` reads the register before
        // the instruction).
        for c in 0..2u8 {
            let mut k = m.kill[c as usize] & self.busy[c as usize];
            while k != 0 {
                let hw = k.trailing_zeros() as u8;
                k &= k - 1;
                self.save(c, hw, i, false, out);
            }
        }

        // Fixed uses.
        if fuse {
            for k in 0..n {
                let d = self.dec[k];
                if d.def || d.fixed == NOREG {
                    continue;
                }
                let (c, hw) = (d.c as usize, d.fixed);
                if self.occ[c][hw as usize] != d.v {
                    self.fetch(d.v, d.c, hw, i, out)?;
                    if self.vs[d.v as usize].reg == NOREG {
                        self.track(d.v, d.c, hw);
                    }
                }
                out.allocs[base + k] = reg(d.c, hw);
                if d.late {
                    m.rd_late[c] |= bit(hw);
                } else {
                    m.rd_early[c] |= bit(hw);
                }
                self.rd_v[c][hw as usize] = d.v;
            }
        }

        // Reused inputs: the def's register is the use's, holding a copy of the use's
        // value unless that value is not needed elsewhere.
        if has_reuse {
            for k in 0..n {
                let d = self.dec[k];
                if d.reuse == NOREG {
                    continue;
                }
                let ui = d.reuse as usize;
                let u = self.dec[ui];
                let (c, ci) = (u.c, u.c as usize);
                let uses_here = self.dec.iter().filter(|o| !o.def && o.v == u.v).count();
                let us = self.vs[u.v as usize];
                let kept = us.slot != NONE || us.last as usize == i;
                let hw = if us.reg != NOREG
                    && kept
                    && uses_here == 1
                    && self.use_ok(c, us.reg, u.v, true, &m)
                {
                    self.untrack(c, us.reg);
                    us.reg
                } else {
                    let mut avoid =
                        m.kill[ci] | m.edef[ci] | m.rd_early[ci] | m.rd_late[ci] | m.written[ci];
                    if us.reg != NOREG {
                        avoid |= bit(us.reg);
                    }
                    let hw = self.pick(c, avoid, i, out)?;
                    self.fetch(u.v, c, hw, i, out)?;
                    hw
                };
                out.allocs[base + ui] = reg(c, hw);
                out.allocs[base + k] = reg(c, hw);
                m.rd_early[ci] |= bit(hw);
                m.written[ci] |= bit(hw);
                self.rd_v[ci][hw as usize] = u.v;
            }
        }

        // Other uses.
        for k in 0..n {
            let d = self.dec[k];
            if d.def || d.fixed != NOREG || out.allocs[base + k] != Allocation::none() {
                continue;
            }
            let (c, ci) = (d.c, d.c as usize);
            let q = self.vs[d.v as usize].reg;
            let hw = if q != NOREG && self.use_ok(c, q, d.v, d.late, &m) {
                q
            } else {
                let mut avoid = m.edef[ci] | m.written_early[ci] | m.rd_early[ci] | m.rd_late[ci];
                if d.late {
                    avoid |= m.kill[ci] | m.written[ci];
                }
                let hw = self.pick(c, avoid, i, out)?;
                self.fetch(d.v, c, hw, i, out)?;
                if q != NOREG {
                    self.untrack(c, q);
                }
                self.track(d.v, c, hw);
                hw
            };
            out.allocs[base + k] = reg(c, hw);
            if d.late {
                m.rd_late[ci] |= bit(hw);
            } else {
                m.rd_early[ci] |= bit(hw);
            }
            self.rd_v[ci][hw as usize] = d.v;
        }

        // Defs: fixed ones have their register; early ones avoid every use, late ones
        // may take the register of an early use whose value is not needed afterwards.
        for k in 0..n {
            let d = self.dec[k];
            if !d.def || d.reuse != NOREG {
                continue;
            }
            let (c, ci) = (d.c, d.c as usize);
            if d.fixed != NOREG {
                out.allocs[base + k] = reg(c, d.fixed);
                continue;
            }
            let mut hw = NOREG;
            // Where its first fixed use wants it, if that register is free.
            let h = self.vs[d.v as usize].hint;
            if h != NOREG
                && self.allocatable[ci] & bit(h) != 0
                && (m.kill[ci] | m.written[ci] | m.rd_late[ci] | m.rd_early[ci]) & bit(h) == 0
                && self.occ[ci][h as usize] == NONE
            {
                hw = h;
            }
            if hw == NOREG && d.late {
                let mut cand = m.rd_early[ci] & !(m.kill[ci] | m.written[ci] | m.rd_late[ci]);
                while cand != 0 {
                    let q = cand.trailing_zeros() as u8;
                    cand &= cand - 1;
                    // Its value must not be needed afterwards (the register holds only
                    // that value or nothing: fixed uses' copies are not tracked).
                    let w = self.rd_v[ci][q as usize];
                    let o = self.occ[ci][q as usize];
                    let ws = self.vs[w as usize];
                    if (o == NONE || o == w) && (ws.slot != NONE || ws.last as usize == i) {
                        self.untrack(c, q);
                        hw = q;
                        break;
                    }
                }
            }
            if hw == NOREG {
                let avoid = m.kill[ci] | m.written[ci] | m.rd_late[ci] | m.rd_early[ci];
                hw = self.pick(c, avoid, i, out)?;
            }
            out.allocs[base + k] = reg(c, hw);
            m.written[ci] |= bit(hw);
            if !d.late {
                m.written_early[ci] |= bit(hw);
            }
        }

        // After the instruction: killed and overwritten registers lose their values,
        // values read for the last time leave their registers (locals free their slots).
        for c in 0..2u8 {
            let mut k = (m.kill[c as usize] | m.written[c as usize]) & self.busy[c as usize];
            while k != 0 {
                let hw = k.trailing_zeros() as u8;
                k &= k - 1;
                self.untrack(c, hw);
            }
        }
        for k in 0..n {
            let d = self.dec[k];
            if d.def {
                continue;
            }
            let vs = self.vs[d.v as usize];
            if vs.last as usize == i && vs.block != GLOBAL {
                if vs.reg != NOREG {
                    self.untrack(d.c, vs.reg);
                }
                if vs.slot != NONE {
                    self.vs[d.v as usize].slot = NONE;
                    self.free_slots[d.c as usize].push(vs.slot);
                }
            }
        }
        for k in 0..n {
            let d = self.dec[k];
            if !d.def {
                continue;
            }
            let hw = out.allocs[base + k].as_reg().expect("a register").hw_enc() as u8;
            let vs = self.vs[d.v as usize];
            if vs.block == GLOBAL {
                if last_in_block {
                    return Err(Unsupported("a value defined by a block's last instruction"));
                }
                let s = self.slot_of(d.v, d.c);
                push_move(out, i, true, reg(d.c, hw), stack(s));
                self.track(d.v, d.c, hw);
            } else if vs.last != NONE {
                self.track(d.v, d.c, hw);
            }
        }
        Ok(())
    }
}

fn stack(s: u32) -> Allocation {
    Allocation::stack(SpillSlot::new(s as usize))
}

fn push_move(out: &mut Output, i: usize, after: bool, from: Allocation, to: Allocation) {
    let inst = Inst::new(i);
    let at = if after {
        ProgPoint::after(inst)
    } else {
        ProgPoint::before(inst)
    };
    out.edits.push((at, Edit::Move { from, to }));
}

/// Which allocator the back ends use where regalloc2's Fastalloc used to run (-O0 and
/// functions calling setjmp), from the environment, read once per compilation:
/// `NEVERC_REGALLOC=fastalloc` selects regalloc2's Fastalloc (for comparison), anything
/// else (or nothing) this one. `NEVERC_CHECK_REGALLOC=1` runs regalloc2's checker on the
/// allocation of every function allocated this way (and the IR verifier and SSA validation
/// before it), and reports on stderr each function this allocator left to regalloc2.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub own: bool,
    pub check: bool,
}

impl Choice {
    pub fn from_env() -> Choice {
        Choice {
            own: std::env::var_os("NEVERC_REGALLOC").is_none_or(|v| v != "fastalloc"),
            check: std::env::var_os("NEVERC_CHECK_REGALLOC").is_some_and(|v| v == "1"),
        }
    }
}

/// Register allocation of one function at a time, as both back ends run it, with the
/// memory of both allocators kept from one function to the next.
#[derive(Default)]
pub struct FunctionAllocator {
    o0: O0Alloc,
    o0_out: Output,
    ctx: regalloc2::Ctx,
}

impl FunctionAllocator {
    /// Allocates `vcode`: with `quick` (-O0, functions calling setjmp) this allocator when
    /// `choice` and `own_ok` (the back end's say for this function) allow it and it takes
    /// the function, else regalloc2's Fastalloc; Ion otherwise. With `checked`, regalloc2's
    /// SSA validation and checker run too. Errors are messages naming the function `name`.
    #[allow(clippy::too_many_arguments)]
    pub fn allocate<I, C>(
        &mut self,
        vcode: &VCode<I, C>,
        env: &MachineEnv,
        choice: Choice,
        quick: bool,
        own_ok: bool,
        checked: bool,
        name: &str,
    ) -> Result<&Output, String> {
        let mut own = false;
        if quick && own_ok && choice.own {
            match self.o0.run(vcode, env, &mut self.o0_out) {
                Ok(()) => own = true,
                Err(e) if choice.check => {
                    eprintln!(
                        "neverc: note: the -O0 register allocator left {name} to regalloc2: {}",
                        e.0
                    );
                }
                Err(_) => {}
            }
        }
        let out = if own {
            &self.o0_out
        } else {
            let algorithm = if quick {
                regalloc2::Algorithm::Fastalloc
            } else {
                regalloc2::Algorithm::Ion
            };
            let ra_opts = regalloc2::RegallocOptions {
                verbose_log: false,
                validate_ssa: checked,
                algorithm,
            };
            regalloc2::run_with_ctx(vcode, env, &ra_opts, &mut self.ctx)
                .map_err(|e| format!("register allocation of {name} failed: {e}"))?
        };
        if checked {
            crate::ra_check::check(vcode, env, out)
                .map_err(|e| format!("regalloc2 checker on {name}: {e:?}"))?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vcode::{Term, VBlock, VInst};
    use regalloc2::{Block, Operand, VReg};

    fn int(n: usize) -> VReg {
        VReg::new(n, RegClass::Int)
    }

    fn p(hw: usize) -> PReg {
        PReg::new(hw, RegClass::Int)
    }

    /// Four allocatable registers (0-2 preferred, 3 not), 15 the scratch one.
    fn env() -> MachineEnv {
        let mut pref = PRegSet::empty();
        for hw in 0..3 {
            pref.add(p(hw));
        }
        MachineEnv {
            preferred_regs_by_class: [pref, PRegSet::empty(), PRegSet::empty()],
            non_preferred_regs_by_class: [
                PRegSet::empty().with(p(3)),
                PRegSet::empty(),
                PRegSet::empty(),
            ],
            scratch_by_class: [Some(p(15)), None, None],
            fixed_stack_slots: vec![],
        }
    }

    fn vi(ops: Vec<Operand>) -> VInst<u8, ()> {
        VInst::new(vec![0u8], ops)
    }

    /// Allocates with this allocator, checks the result with regalloc2's checker, and
    /// returns it.
    fn check(blocks: Vec<VBlock<u8, ()>>, nv: usize) -> Output {
        let vc = VCode::new(blocks, nv);
        let env = env();
        let mut out = Output::default();
        O0Alloc::default()
            .run(&vc, &env, &mut out)
            .expect("allocated without falling back");
        crate::ra_check::check(&vc, &env, &out).expect("the checker accepts the allocation");
        for (_, Edit::Move { from, to }) in &out.edits {
            assert!(!(from.is_stack() && to.is_stack()), "stack-to-stack move");
            for a in [from, to] {
                assert_ne!(
                    a.as_reg(),
                    Some(p(15)),
                    "a move through the scratch register"
                );
            }
        }
        out
    }

    fn ret(ops: Vec<Operand>) -> VInst<u8, ()> {
        let mut r = vi(ops);
        r.term = Term::Ret;
        r
    }

    #[test]
    fn pressure_calls_reuse_early_defs_and_late_uses() {
        let mut b = VBlock::new(0);
        // Six values live at once in four registers: some are stored and reloaded.
        for v in 0..6 {
            b.insts.push(vi(vec![Operand::reg_def(int(v))]));
        }
        for v in (0..6).rev() {
            b.insts.push(vi(vec![Operand::reg_use(int(v))]));
        }
        // A call: arguments in 0 and 1, result in 0, 0-2 clobbered; v6 lives across it.
        b.insts.push(vi(vec![Operand::reg_def(int(6))]));
        b.insts.push(vi(vec![Operand::reg_def(int(7))]));
        b.insts.push(vi(vec![Operand::reg_def(int(8))]));
        let mut call = vi(vec![
            Operand::reg_fixed_use(int(7), p(0)),
            Operand::reg_fixed_use(int(8), p(1)),
            Operand::reg_fixed_def(int(9), p(0)),
        ]);
        call.clobbers = PRegSet::empty().with(p(1)).with(p(2));
        b.insts.push(call);
        // A reused input still needed afterwards, and an early def beside a late use.
        b.insts.push(vi(vec![
            Operand::reg_use(int(6)),
            Operand::reg_reuse_def(int(10), 0),
        ]));
        b.insts.push(vi(vec![
            Operand::reg_use_at_end(int(6)),
            Operand::reg_use(int(9)),
            Operand::new(
                int(11),
                regalloc2::OperandConstraint::Reg,
                OperandKind::Def,
                OperandPos::Early,
            ),
            Operand::reg_def(int(12)),
        ]));
        // Division-like: dividend in 0, divisor read late, result in 2, 0 clobbered.
        let mut div = vi(vec![
            Operand::reg_fixed_use(int(10), p(0)),
            Operand::reg_use_at_end(int(11)),
            Operand::reg_fixed_def(int(13), p(2)),
        ]);
        div.clobbers = PRegSet::empty().with(p(0));
        b.insts.push(div);
        b.insts.push(vi(vec![
            Operand::reg_use(int(12)),
            Operand::reg_use(int(13)),
            Operand::reg_use(int(6)),
        ]));
        b.insts
            .push(ret(vec![Operand::reg_fixed_use(int(13), p(0))]));
        let out = check(vec![b], 14);
        // The values spilled in the first part need slots; nothing else does much.
        assert!(out.num_spillslots >= 2, "{}", out.num_spillslots);
    }

    #[test]
    fn block_parameters_swapped_around_a_loop() {
        // b0: a, b, c; jump b1(a, b)
        // b1(p, q): cond -> b2 | b3
        // b3: jump b1(q, p)          (the parallel copy must not lose either)
        // b2: use p, q, c; return p in 0
        let mut b0 = VBlock::new(0);
        for v in 0..3 {
            b0.insts.push(vi(vec![Operand::reg_def(int(v))]));
        }
        b0.insts.push(VInst::term(Term::Jump));
        b0.succs.push(Block::new(1));
        b0.args.push(vec![int(0), int(1)]);
        let mut b1 = VBlock::new(1);
        b1.params = vec![int(3), int(4)];
        let mut br = vi(vec![Operand::reg_use(int(3)), Operand::reg_use(int(4))]);
        br.term = Term::Cond(());
        b1.insts.push(br);
        b1.succs = vec![Block::new(2), Block::new(3)];
        let mut b2 = VBlock::new(2);
        b2.insts.push(vi(vec![
            Operand::reg_use(int(3)),
            Operand::reg_use(int(4)),
            Operand::reg_use(int(2)),
            Operand::reg_def(int(5)),
        ]));
        b2.insts
            .push(ret(vec![Operand::reg_fixed_use(int(5), p(0))]));
        let mut b3 = VBlock::new(3);
        b3.insts.push(VInst::term(Term::Jump));
        b3.succs.push(Block::new(1));
        b3.args.push(vec![int(4), int(3)]);
        check(vec![b0, b1, b2, b3], 6);
    }

    #[test]
    fn unsupported_shapes_fall_back() {
        // An operand constraint this allocator leaves to regalloc2.
        let mut b = VBlock::new(0);
        b.insts.push(vi(vec![Operand::any_def(int(0))]));
        b.insts
            .push(ret(vec![Operand::reg_fixed_use(int(0), p(0))]));
        let vc = VCode::new(vec![b], 1);
        let r = O0Alloc::default().run(&vc, &env(), &mut Output::default());
        assert_eq!(
            r,
            Err(Unsupported("an operand constraint other than a register"))
        );
    }
}
