//! Building a function: blocks, parameters and instructions appended at a cursor.

use crate::*;

/// Appends instructions to the end of the current block of a function.
pub struct FunctionBuilder {
    pub func: Function,
    cur: Block,
    /// Blocks in use: `func.blocks` beyond this are emptied blocks of an earlier function
    /// (see [`new_in`](Self::new_in)), reused by `new_block` and dropped by `finish`.
    nblocks: usize,
    /// Make each slot address and each small constant once per function, at the start of
    /// the entry block (see [`slot_addr`](Self::slot_addr)).
    pub share_constants: bool,
    /// With `share_constants`: per slot, the value of its `slot_addr` (`NONE` before the
    /// first).
    slot_addrs: Vec<Value>,
    /// With `share_constants`: constants made so far, direct-mapped by a hash of their
    /// type and bits (a collision only makes a constant twice).
    consts: Box<[Value; CONST_CACHE]>,
    /// With `share_constants`: the instructions `finish` puts at the start of the entry
    /// block, in order.
    hoisted: Vec<Inst>,
    /// Give a load the value the current block last loaded from or stored to the same
    /// place, when nothing that may write memory came between (see [`load`](Self::load)).
    pub reuse_loads: bool,
    /// With `reuse_loads`: (address, offset, type, value) of what the current block has
    /// loaded or stored since the last instruction that may write memory, latest last.
    known: Vec<(Value, i32, Type, Value)>,
}

/// What a [`FunctionBuilder`] leaves for building the next function without fresh memory
/// ([`finish_into`](FunctionBuilder::finish_into), [`new_in`](FunctionBuilder::new_in)):
/// the blocks beyond the finished function's (their vectors) and the builder's own tables.
#[derive(Default)]
pub struct BuilderSpare {
    blocks: Vec<BlockData>,
    slot_addrs: Vec<Value>,
    consts: Option<Box<[Value; CONST_CACHE]>>,
    hoisted: Vec<Inst>,
    known: Vec<(Value, i32, Type, Value)>,
}

/// Places [`FunctionBuilder`] remembers the contents of, at most.
const KNOWN: usize = 16;

/// No value (an empty entry of [`FunctionBuilder`]'s tables).
const NONE: Value = Value(u32::MAX);

/// Entries of the constant cache (a power of two).
const CONST_CACHE: usize = 256;

impl FunctionBuilder {
    /// A function with an empty entry block (block 0).
    pub fn new(sym: Sym, plan: CallPlan, variadic: bool) -> FunctionBuilder {
        let func = Function {
            sym,
            plan,
            param_mem: Vec::new(),
            variadic,
            blocks: vec![BlockData::default()],
            insts: Vec::new(),
            values: Vec::new(),
            slots: Vec::new(),
            plans: Vec::new(),
            calls_setjmp: false,
            align: 16,
            declared_inline: false,
            inline_hint: InlineHint::Default,
            blocks_in_data: false,
        };
        Self::building(func)
    }

    /// As [`new`](Self::new), in the vectors of a function that is done with: their
    /// capacity is reused (one function after another without fresh memory), the blocks'
    /// own vectors included, and so are the blocks and tables `spare` holds.
    pub fn new_in(
        mut storage: Function,
        spare: &mut BuilderSpare,
        sym: Sym,
        plan: CallPlan,
        variadic: bool,
    ) -> Self {
        let f = &mut storage;
        f.sym = sym;
        f.plan = plan;
        f.param_mem.clear();
        f.variadic = variadic;
        f.blocks.append(&mut spare.blocks);
        for b in &mut f.blocks {
            b.params.clear();
            b.insts.clear();
        }
        if f.blocks.is_empty() {
            f.blocks.push(BlockData::default());
        }
        // Most instructions own no memory: those are let go without a drop call each.
        for d in f.insts.drain(..) {
            if d.op.owns_nothing() {
                std::mem::forget(d);
            } else {
                drop(d);
            }
        }
        f.values.clear();
        f.slots.clear();
        f.plans.clear();
        f.calls_setjmp = false;
        f.align = 16;
        f.declared_inline = false;
        f.inline_hint = InlineHint::Default;
        f.blocks_in_data = false;
        let mut b = Self::building(storage);
        b.slot_addrs = std::mem::take(&mut spare.slot_addrs);
        b.slot_addrs.clear();
        if let Some(mut consts) = spare.consts.take() {
            consts.fill(NONE);
            b.consts = consts;
        }
        b.hoisted = std::mem::take(&mut spare.hoisted);
        b.hoisted.clear();
        b.known = std::mem::take(&mut spare.known);
        b.known.clear();
        b
    }

    /// The builder's own state around a fresh `func`: at its entry block, nothing shared or
    /// remembered yet.
    fn building(func: Function) -> Self {
        FunctionBuilder {
            func,
            cur: Block(0),
            nblocks: 1,
            share_constants: false,
            slot_addrs: Vec::new(),
            consts: Box::new([NONE; CONST_CACHE]),
            hoisted: Vec::new(),
            reuse_loads: false,
            known: Vec::new(),
        }
    }

    /// Room for about `insts` instructions (and as many values) without regrowing: a
    /// hint, e.g. from the previous function, saving the copies of repeated doubling.
    pub fn reserve(&mut self, insts: usize) {
        self.func.insts.reserve(insts);
        self.func.values.reserve(insts);
    }

    pub fn finish(self) -> Function {
        self.finish_into(&mut BuilderSpare::default())
    }

    /// As [`finish`](Self::finish), leaving the unused blocks and the builder's tables in
    /// `spare` for the next function's [`new_in`](Self::new_in).
    pub fn finish_into(mut self, spare: &mut BuilderSpare) -> Function {
        spare.blocks.extend(self.func.blocks.drain(self.nblocks..));
        // The hoisted instructions first in the entry block: they become its list, the
        // rest appended (the old list's memory is kept for the next function).
        let mut hoisted = self.hoisted;
        if !hoisted.is_empty() {
            let entry = &mut self.func.blocks[0].insts;
            hoisted.append(entry);
            std::mem::swap(entry, &mut hoisted);
        }
        spare.slot_addrs = std::mem::take(&mut self.slot_addrs);
        spare.consts = Some(self.consts);
        spare.hoisted = hoisted;
        spare.known = self.known;
        self.func
    }

    #[inline]
    pub fn current(&self) -> Block {
        self.cur
    }
    #[inline]
    pub fn switch_to(&mut self, b: Block) {
        self.cur = b;
        self.known.clear();
    }
    pub fn new_block(&mut self) -> Block {
        // A spare block is already empty (new_in).
        if self.nblocks == self.func.blocks.len() {
            self.func.blocks.push(BlockData::default());
        }
        self.nblocks += 1;
        Block(self.nblocks as u32 - 1)
    }
    pub fn add_param(&mut self, b: Block, ty: Type) -> Value {
        let idx = self.func.blocks[b.index()].params.len() as u32;
        let v = self.new_value(ty, ValueDef::Param(b, idx));
        self.func.blocks[b.index()].params.push(v);
        v
    }
    pub fn add_slot(&mut self, size: u64, align: u32) -> Slot {
        self.func.slots.push(SlotData { size, align });
        Slot(self.func.slots.len() as u32 - 1)
    }
    pub fn add_plan(&mut self, plan: CallPlan) -> PlanId {
        if let Some(i) = self.func.plans.iter().position(|p| *p == plan) {
            return PlanId(i as u32);
        }
        self.func.plans.push(plan);
        PlanId(self.func.plans.len() as u32 - 1)
    }
    /// As [`add_plan`](Self::add_plan), cloning `plan` only when the function does not
    /// have it yet.
    pub fn add_plan_ref(&mut self, plan: &CallPlan) -> PlanId {
        if let Some(i) = self.func.plans.iter().position(|p| p == plan) {
            return PlanId(i as u32);
        }
        self.func.plans.push(plan.clone());
        PlanId(self.func.plans.len() as u32 - 1)
    }

    /// The current block ends in a terminator: nothing more may be added to it.
    #[inline]
    pub fn is_terminated(&self) -> bool {
        self.func.terminator(self.cur).is_some()
    }

    #[inline]
    fn new_value(&mut self, ty: Type, def: ValueDef) -> Value {
        self.func.values.push(ValueData { ty, def });
        Value(self.func.values.len() as u32 - 1)
    }

    /// Appends `op`; `result` gives the type of its single result, if any.
    #[inline]
    pub fn push(&mut self, op: Op, result: Option<Type>) -> Option<Value> {
        let inst = Inst(self.func.insts.len() as u32);
        if !self.known.is_empty() && !op.is_pure() {
            // It may write memory (or end the block).
            self.known.clear();
        }
        let result = result.map(|ty| self.new_value(ty, ValueDef::Result(inst, 0)));
        self.func.insts.push(InstData { op, result });
        self.func.blocks[self.cur.index()].insts.push(inst);
        result
    }

    /// Takes back the instruction defining `v` when it is the latest instruction and value
    /// made, and the last of the current block (so that nothing uses `v` yet); says
    /// whether it did. For irgen, which learns only after making a value that its caller
    /// wants another one.
    pub fn take_back(&mut self, v: Value) -> bool {
        let f = &mut self.func;
        if v.index() + 1 != f.values.len() {
            return false;
        }
        let ValueDef::Result(inst, 0) = f.values[v.index()].def else {
            return false;
        };
        let block = &mut f.blocks[self.cur.index()].insts;
        if inst.index() + 1 != f.insts.len() || block.last() != Some(&inst) {
            return false;
        }
        block.pop();
        f.insts.pop();
        f.values.pop();
        self.known.clear();
        true
    }

    #[inline]
    fn val(&mut self, op: Op, ty: Type) -> Value {
        self.push(op, Some(ty)).unwrap()
    }

    /// Appends `op`, with a result of type `ty`, to the instructions `finish` puts at the
    /// start of the entry block.
    fn hoist(&mut self, op: Op, ty: Type) -> Value {
        let inst = Inst(self.func.insts.len() as u32);
        let v = self.new_value(ty, ValueDef::Result(inst, 0));
        self.func.insts.push(InstData {
            op,
            result: Some(v),
        });
        self.hoisted.push(inst);
        v
    }

    /// A constant; with `share_constants`, the one made before of the same type and bits
    /// (if the back ends rematerialise constants of its type at each use).
    #[inline]
    fn constant(&mut self, op: Op, ty: Type, bits: u128) -> Value {
        let remat = matches!(ty, Type::I8 | Type::I16 | Type::I32 | Type::I64 | Type::Ptr)
            || matches!(ty, Type::F16 | Type::F32 | Type::F64);
        if !self.share_constants || !remat {
            return self.val(op, ty);
        }
        let h = (bits as u64 ^ (bits >> 64) as u64 ^ ((ty as u64) << 40))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let at = (h >> 56) as usize % CONST_CACHE;
        let v = self.consts[at];
        if v != NONE {
            if let ValueDef::Result(i, 0) = self.func.values[v.index()].def {
                if self.func.insts[i.index()].op == op {
                    return v;
                }
            }
        }
        let v = self.hoist(op, ty);
        self.consts[at] = v;
        v
    }

    #[inline]
    pub fn iconst(&mut self, ty: Type, imm: i128) -> Value {
        self.constant(
            Op::Iconst {
                ty,
                imm: imm.into(),
            },
            ty,
            imm as u128,
        )
    }
    #[inline]
    pub fn fconst(&mut self, ty: Type, bits: u128) -> Value {
        self.constant(
            Op::Fconst {
                ty,
                bits: bits.into(),
            },
            ty,
            bits,
        )
    }
    #[inline]
    pub fn unary(&mut self, op: UnaryOp, arg: Value) -> Value {
        let ty = self.func.value_type(arg);
        self.val(Op::Unary { op, arg }, ty)
    }
    #[inline]
    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.func.value_type(a);
        self.val(Op::Binary { op, a, b }, ty)
    }
    #[inline]
    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.val(Op::Icmp { cc, a, b }, Type::I8)
    }
    #[inline]
    pub fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        self.val(Op::Fcmp { cc, a, b }, Type::I8)
    }
    #[inline]
    pub fn conv(&mut self, op: ConvOp, arg: Value, to: Type) -> Value {
        self.val(Op::Conv { op, arg, to }, to)
    }
    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let ty = self.func.value_type(a);
        self.val(Op::Select { cond, a, b }, ty)
    }
    /// A load. With `reuse_loads`, a non-volatile load of what the current block loaded
    /// or stored before (same address value, offset and type, and no instruction that
    /// may write memory since) is that value: irgen reads a variable at each mention of
    /// it, and at -O0 each load is a machine instruction.
    pub fn load(&mut self, ty: Type, addr: Value, offset: i32, flags: MemFlags) -> Value {
        if self.reuse_loads && !flags.volatile {
            if let Some(&(.., v)) = self
                .known
                .iter()
                .rev()
                .find(|k| k.0 == addr && k.1 == offset && k.2 == ty)
            {
                return v;
            }
        }
        let v = self.val(
            Op::Load {
                ty,
                addr,
                offset,
                flags,
            },
            ty,
        );
        if self.reuse_loads && !flags.volatile {
            self.remember(addr, offset, ty, v);
        }
        v
    }
    pub fn store(&mut self, value: Value, addr: Value, offset: i32, flags: MemFlags) {
        // What the store may change is forgotten: with a slot's address, that slot's
        // places and the places reached through other pointers (which may point into
        // the slot); else every place.
        let mut known = std::mem::take(&mut self.known);
        if !known.is_empty() && !flags.volatile && self.is_slot_addr(addr) {
            let f = &self.func;
            known.retain(|k| k.0 != addr && Self::defined_as_slot_addr(f, k.0));
        } else {
            known.clear();
        }
        self.push(
            Op::Store {
                value,
                addr,
                offset,
                flags,
            },
            None,
        );
        self.known = known;
        // Its own place now holds `value`.
        if self.reuse_loads && !flags.volatile {
            let ty = self.func.value_type(value);
            self.remember(addr, offset, ty, value);
        }
    }
    fn is_slot_addr(&self, v: Value) -> bool {
        Self::defined_as_slot_addr(&self.func, v)
    }
    fn defined_as_slot_addr(f: &Function, v: Value) -> bool {
        match f.values[v.index()].def {
            ValueDef::Result(i, 0) => matches!(f.insts[i.index()].op, Op::SlotAddr(_)),
            _ => false,
        }
    }
    /// Forgets what the current block's memory holds (with `reuse_loads`): for a caller
    /// that moves the instructions it made elsewhere.
    pub fn forget_memory(&mut self) {
        self.known.clear();
    }
    /// With `reuse_loads`: the current block's place `addr + offset` holds `v` of `ty`.
    #[inline]
    fn remember(&mut self, addr: Value, offset: i32, ty: Type, v: Value) {
        if self.known.len() == KNOWN {
            self.known.remove(0);
        }
        self.known.push((addr, offset, ty, v));
    }
    /// The address of slot `s`. With `share_constants`, one value per slot, made at the
    /// start of the entry block (which dominates every use): irgen asks for a local's
    /// address at every access, and the back ends rematerialise it (and constants) at
    /// each use anyway, so at -O0 the code is the same with fewer instructions (not at
    /// -O1, whose inlining budgets count instructions).
    #[inline]
    pub fn slot_addr(&mut self, s: Slot) -> Value {
        if self.share_constants {
            if let Some(&v) = self.slot_addrs.get(s.index()) {
                if v != NONE {
                    return v;
                }
            }
        }
        self.slot_addr_first(s)
    }

    /// [`slot_addr`](Self::slot_addr) the first time (or each time without
    /// `share_constants`).
    fn slot_addr_first(&mut self, s: Slot) -> Value {
        if !self.share_constants {
            return self.val(Op::SlotAddr(s), Type::Ptr);
        }
        if let Some(&v) = self.slot_addrs.get(s.index()) {
            if v != NONE {
                return v;
            }
        }
        let v = self.hoist(Op::SlotAddr(s), Type::Ptr);
        if self.slot_addrs.len() <= s.index() {
            self.slot_addrs.resize(s.index() + 1, NONE);
        }
        self.slot_addrs[s.index()] = v;
        v
    }
    #[inline]
    pub fn sym_addr(&mut self, sym: Sym, offset: i64) -> Value {
        self.val(Op::SymAddr { sym, offset }, Type::Ptr)
    }
    pub fn jump(&mut self, block: Block, args: Vec<Value>) {
        self.push(
            Op::Jump(BlockCall {
                block,
                args: args.into(),
            }),
            None,
        );
    }
    pub fn branch(&mut self, cond: Value, then: Block, els: Block) {
        self.push(
            Op::Branch {
                cond,
                then: BlockCall::to(then),
                els: BlockCall::to(els),
            },
            None,
        );
    }
    /// A call; `results` gives the types of the plan's result locations.
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        callee: Callee,
        args: Vec<Value>,
        arg_mem: Vec<u32>,
        plan: PlanId,
        results: &[Type],
    ) -> Vec<Value> {
        self.known.clear();
        let inst = Inst(self.func.insts.len() as u32);
        let res: Vec<Value> = results
            .iter()
            .enumerate()
            .map(|(i, &ty)| self.new_value(ty, ValueDef::Result(inst, i as u32)))
            .collect();
        self.func.insts.push(InstData {
            op: Op::Call(Box::new(Call {
                callee,
                args,
                arg_mem,
                plan,
                results: res.clone(),
                tail: false,
            })),
            result: None,
        });
        self.func.blocks[self.cur.index()].insts.push(inst);
        res
    }

    /// An inline-asm statement; `results` gives the types of its register outputs, whose
    /// values the builder creates (and returns) in order.
    pub fn inline_asm(&mut self, mut asm: InlineAsm, results: &[Type]) -> Vec<Value> {
        self.known.clear();
        let inst = Inst(self.func.insts.len() as u32);
        let res: Vec<Value> = results
            .iter()
            .enumerate()
            .map(|(i, &ty)| self.new_value(ty, ValueDef::Result(inst, i as u32)))
            .collect();
        asm.results = res.clone();
        self.func.insts.push(InstData {
            op: Op::InlineAsm(Box::new(asm)),
            result: None,
        });
        self.func.blocks[self.cur.index()].insts.push(inst);
        res
    }
}
