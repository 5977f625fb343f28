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
