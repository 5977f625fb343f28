//! The builder, printer and verifier on small hand-built functions.

use neverc_abi::{plan_call, IntKind, Signature, Type as CType};
use neverc_ir::*;

fn machine() -> neverc_abi::Machine {
    neverc_abi::Machine::from(neverc_target::lookup("x86_64-linux-gnu").unwrap())
}

/// `int add1(int x) { return x + 1; }`
fn add1(m: &mut Module) -> Function {
    let sig = Signature::new(CType::Int(IntKind::Int), [CType::Int(IntKind::Int)]);
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("add1", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    let x = b.add_param(Block(0), Type::I32);
    let one = b.iconst(Type::I32, 1);
    let r = b.binary(BinaryOp::Add, x, one);
    b.push(Op::Return(vec![r]), None);
    b.finish()
}

#[test]
fn prints_a_function() {
    let mut m = Module::default();
    let f = add1(&mut m);
    verify(&f).unwrap();
    let text = print_function(&m, &f);
    let body: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        body,
        [
            "block0(v0: i32):",
            "  v1 = iconst.i32 1",
            "  v2 = add v0, v1",
            "  ret v2"
        ]
    );
    assert!(text.starts_with("function add1 plan=neverc-cc-plan-v1;"));
}

#[test]
fn rejects_a_use_not_dominated() {
    let mut m = Module::default();
    let mut f = add1(&mut m);
    // Make the add read its own result.
    let add = f.blocks[0].insts[1];
    f.insts[add.index()].op = Op::Binary {
        op: BinaryOp::Add,
        a: Value(2),
        b: Value(1),
    };
    assert_eq!(
        verify(&f).unwrap_err().0,
        "block0, inst1: v2 is used where its definition does not dominate"
    );
}

#[test]
fn rejects_wrong_arity_and_types() {
    let mut m = Module::default();
    let mut f = add1(&mut m);
    let ret = f.blocks[0].insts[2];
    f.insts[ret.index()].op = Op::Return(vec![]);
    assert_eq!(
        verify(&f).unwrap_err().0,
        "block0, inst2: return values do not match the function's plan"
    );
    let mut f = add1(&mut m);
    f.values[1].ty = Type::I64;
    f.insts[0].op = Op::Iconst {
        ty: Type::I64,
        imm: 1.into(),
    };
    assert_eq!(
        verify(&f).unwrap_err().0,
        "block0, inst1: binary operands differ in type"
    );
    let mut f = add1(&mut m);
    f.blocks[0].insts.pop();
    assert_eq!(
        verify(&f).unwrap_err().0,
        "block0, inst1: block does not end in a terminator"
    );
}

#[test]
fn loops_with_block_parameters_verify() {
    // for (i = 0; i < n; i++) s += i; return s;
    let mut m = Module::default();
    let sig = Signature::new(CType::Int(IntKind::Int), [CType::Int(IntKind::Int)]);
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("sum", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    let n = b.add_param(Block(0), Type::I32);
    let head = b.new_block();
    let body = b.new_block();
    let exit = b.new_block();
    let i = b.add_param(head, Type::I32);
    let s = b.add_param(head, Type::I32);
    let zero = b.iconst(Type::I32, 0);
    b.jump(head, vec![zero, zero]);
    b.switch_to(head);
    let c = b.icmp(IntCC::Slt, i, n);
    b.branch(c, body, exit);
    b.switch_to(body);
    let s2 = b.binary(BinaryOp::Add, s, i);
    let one = b.iconst(Type::I32, 1);
    let i2 = b.binary(BinaryOp::Add, i, one);
    b.jump(head, vec![i2, s2]);
    b.switch_to(exit);
    b.push(Op::Return(vec![s]), None);
    let f = b.finish();
    verify(&f).unwrap();
    assert_eq!(dominators(&f), vec![Some(0), Some(0), Some(1), Some(1)]);
}

/// `void f(int *p)` built with irgen's -O0 settings by `body`, printed without its header.
fn built_at_o0(body: impl FnOnce(&mut FunctionBuilder, Value)) -> Vec<String> {
    let mut m = Module::default();
    let sig = Signature::new(CType::Void, [CType::Pointer]);
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("f", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    b.share_constants = true;
    b.reuse_loads = true;
    let p = b.add_param(Block(0), Type::Ptr);
    body(&mut b, p);
    let f = b.finish();
    verify(&f).unwrap();
    let text = print_function(&m, &f);
    text.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn shares_slot_addresses_and_constants_at_the_entry() {
    let body = built_at_o0(|b, _| {
        let s = b.add_slot(4, 4);
        let next = b.new_block();
        let one = b.iconst(Type::I32, 1);
        let a = b.slot_addr(s);
        b.store(one, a, 0, MemFlags::aligned(4));
        b.jump(next, vec![]);
        b.switch_to(next);
        // The same slot address and constant: the entry block's values.
        let a2 = b.slot_addr(s);
        let one2 = b.iconst(Type::I32, 1);
        assert_eq!((a2, one2), (a, one));
        let two = b.iconst(Type::I64, 1);
        assert_ne!(two, one, "another type is another constant");
        b.store(one2, a2, 0, MemFlags::aligned(4));
        b.push(Op::Return(vec![]), None);
    });
    assert_eq!(
        body,
        [
            "  slot0 = 4 align 4",
            "block0(v0: ptr):",
            "  v1 = iconst.i32 1",
            "  v2 = slot_addr slot0",
            "  v3 = iconst.i64 1",
            "  store v1, v2+0 align 4",
            "  jump block1",
            "block1():",
            "  store v1, v2+0 align 4",
            "  ret",
        ]
    );
}

#[test]
fn reuses_loads_until_memory_may_change() {
    let body = built_at_o0(|b, p| {
        let s = b.add_slot(4, 4);
        let t = b.add_slot(4, 4);
        let (a, c) = (b.slot_addr(s), b.slot_addr(t));
        let f4 = MemFlags::aligned(4);
        let x = b.load(Type::I32, a, 0, f4);
        assert_eq!(b.load(Type::I32, a, 0, f4), x, "loaded again");
        let y = b.load(Type::I32, c, 0, f4);
        // A store to another slot leaves `a`'s contents known; its own place holds
        // the value stored.
        b.store(x, c, 0, f4);
        assert_eq!(b.load(Type::I32, a, 0, f4), x);
        assert_eq!(b.load(Type::I32, c, 0, f4), x, "forwarded");
        assert_ne!(
            b.load(Type::I16, c, 0, f4),
            y,
            "another type is another load"
        );
        // A store through a pointer may write any slot.
        b.store(y, p, 0, f4);
        let x2 = b.load(Type::I32, a, 0, f4);
        assert_ne!(x2, x);
        // A volatile load is never reused.
        let vol = MemFlags {
            align: 4,
            volatile: true,
        };
        let v1 = b.load(Type::I32, a, 0, vol);
        assert_ne!(b.load(Type::I32, a, 0, vol), v1);
        b.push(Op::Return(vec![]), None);
    });
    assert_eq!(
        body,
        [
            "  slot0 = 4 align 4",
            "  slot1 = 4 align 4",
            "block0(v0: ptr):",
            "  v1 = slot_addr slot0",
            "  v2 = slot_addr slot1",
            "  v3 = load.i32 v1+0 align 4",
            "  v4 = load.i32 v2+0 align 4",
            "  store v3, v2+0 align 4",
            "  v5 = load.i16 v2+0 align 4",
            "  store v4, v0+0 align 4",
            "  v6 = load.i32 v1+0 align 4",
            "  v7 = load.i32 v1+0 align 4 volatile",
            "  v8 = load.i32 v1+0 align 4 volatile",
            "  ret",
        ]
    );
}

#[test]
fn takes_back_only_the_latest_instruction() {
    let body = built_at_o0(|b, p| {
        let x = b.load(Type::I32, p, 0, MemFlags::aligned(4));
        let w = b.conv(ConvOp::Zext, x, Type::I64);
        let n = b.conv(ConvOp::Sext, x, Type::I64);
        assert!(!b.take_back(w), "not the latest");
        assert!(b.take_back(n));
        assert!(!b.take_back(n), "already gone");
        b.push(Op::Return(vec![]), None);
    });
    assert_eq!(
        body,
        [
            "block0(v0: ptr):",
            "  v1 = load.i32 v0+0 align 4",
            "  v2 = zext.i64 v1",
            "  ret",
        ]
    );
}
