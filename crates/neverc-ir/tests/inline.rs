//! The -O1 pipeline (neverc_ir::inline::optimise_module) on small hand-built modules:
//! which calls are inlined and which stay, exactly, and the verifier on every result; the
//! slot splitting (neverc_ir::sroa) and tail recursion to loops on their own.

use neverc_abi::{plan_call, IntKind, Signature, Type as CType};
use neverc_ir::inline::{optimise_module, InlineOptions};
use neverc_ir::*;

fn machine() -> neverc_abi::Machine {
    neverc_abi::Machine::from(neverc_target::lookup("x86_64-linux-gnu").unwrap())
}

fn int_plan(nparams: usize) -> CallPlan {
    let sig = Signature::new(
        CType::Int(IntKind::Int),
        vec![CType::Int(IntKind::Int); nparams],
    );
    plan_call(machine(), &sig).unwrap()
}

/// A builder for `int name(int, ...)` with `nparams` int parameters.
fn int_fn(m: &mut Module, name: &str, nparams: usize) -> (FunctionBuilder, Vec<Value>) {
    let sym = m.symbol(name, SymKind::Func);
    let mut b = FunctionBuilder::new(sym, int_plan(nparams), false);
    let ps = (0..nparams)
        .map(|_| b.add_param(Block(0), Type::I32))
        .collect();
    (b, ps)
}

/// `callee(args)` returning its int.
fn call(b: &mut FunctionBuilder, m: &mut Module, callee: &str, args: Vec<Value>) -> Value {
    let pid = b.add_plan(int_plan(args.len()));
    let s = m.symbol(callee, SymKind::Func);
    b.call(Callee::Direct(s), args, vec![], pid, &[Type::I32])[0]
}

fn define(m: &mut Module, f: Function, binding: Binding) {
    let s = f.sym;
    m.symbols[s.index()].defined = true;
    m.symbols[s.index()].binding = binding;
    m.functions.push(f);
}

/// `static int add1(int x) { return x + 1; }`
fn add1(m: &mut Module, name: &str, hint: InlineHint, binding: Binding) {
    let (mut b, p) = int_fn(m, name, 1);
    let one = b.iconst(Type::I32, 1);
    let r = b.binary(BinaryOp::Add, p[0], one);
    b.push(Op::Return(vec![r]), None);
    let mut f = b.finish();
    f.inline_hint = hint;
    define(m, f, binding);
}

/// `int main(int x) { return callee(x) * 3; }` (global)
fn caller_of(m: &mut Module, name: &str, callee: &str) {
    let (mut b, p) = int_fn(m, name, 1);
    let r = call(&mut b, m, callee, vec![p[0]]);
    let three = b.iconst(Type::I32, 3);
    let y = b.binary(BinaryOp::Mul, r, three);
    b.push(Op::Return(vec![y]), None);
    define(m, b.finish(), Binding::Global);
}

fn body(m: &Module, name: &str) -> Vec<String> {
    let f = m
        .functions
        .iter()
        .find(|f| m.sym(f.sym).name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    if let Err(e) = verify(f) {
        panic!("{e}\n{}", print_function(m, f));
    }
    print_function(m, f)
        .lines()
        .skip(1)
        .filter(|l| !l.trim_start().starts_with("plan"))
        .map(str::to_string)
        .collect()
}

fn names(m: &Module) -> Vec<&str> {
    m.functions
        .iter()
        .map(|f| m.sym(f.sym).name.as_str())
        .collect()
}

#[test]
fn a_small_static_function_is_inlined_and_then_removed() {
    let mut m = Module::default();
    add1(&mut m, "add1", InlineHint::Default, Binding::Local);
    caller_of(&mut m, "main", "add1");
    optimise_module(&mut m, &InlineOptions::default());
    assert_eq!(names(&m), ["main"]);
    assert!(!m.sym(m.by_name["add1"]).defined);
    assert_eq!(
        body(&m, "main"),
        [
            "block0(v0: i32):",
            "  v5 = iconst.i32 1",
            "  v6 = add v0, v5",
            "  v2 = iconst.i32 3",
            "  v3 = mul v6, v2",
            "  ret v3",
            "block1():",
            "  unreachable",
            "block2():",
            "  unreachable",
        ]
    );
}

#[test]
fn noinline_weak_and_interposable_callees_stay_calls() {
    for (hint, binding, pic) in [
        (InlineHint::Never, Binding::Local, false),
        (InlineHint::Default, Binding::Weak, false),
        (InlineHint::Default, Binding::Global, true),
    ] {
        let mut m = Module::default();
        add1(&mut m, "add1", hint, binding);
        caller_of(&mut m, "main", "add1");
        optimise_module(
            &mut m,
            &InlineOptions {
                interposable_globals: pic,
            },
        );
        assert_eq!(
            names(&m),
            ["add1", "main"],
            "{hint:?} {binding:?} pic={pic}"
        );
        assert!(
            body(&m, "main").iter().any(|l| l.contains("call add1")),
            "{hint:?} {binding:?} pic={pic}"
        );
    }
    // A global function without -fPIC is inlined, and kept (others may call it).
    let mut m = Module::default();
    add1(&mut m, "add1", InlineHint::Default, Binding::Global);
    caller_of(&mut m, "main", "add1");
    optimise_module(&mut m, &InlineOptions::default());
    assert_eq!(names(&m), ["add1", "main"]);
    assert!(!body(&m, "main").iter().any(|l| l.contains("call")));
}

#[test]
fn recursion_and_variadic_callees_are_not_inlined() {
    let mut m = Module::default();
    // static int rec(int x) { return rec(x); } -- a loop after tail recursion removal,
    // still a function main calls.
    let (mut b, p) = int_fn(&mut m, "rec", 1);
    let r = call(&mut b, &mut m, "rec", vec![p[0]]);
    let one = b.iconst(Type::I32, 1);
    let s = b.binary(BinaryOp::Add, r, one); // not a tail call
    b.push(Op::Return(vec![s]), None);
    define(&mut m, b.finish(), Binding::Local);
    caller_of(&mut m, "main", "rec");
    // static int va(int n, ...) { return n; }
    let sig = Signature::variadic(CType::Int(IntKind::Int), vec![CType::Int(IntKind::Int)], 1);
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("va", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan.clone(), true);
    let n = b.add_param(Block(0), Type::I32);
    let _count = b.add_param(Block(0), Type::I8);
    b.push(Op::Return(vec![n]), None);
    define(&mut m, b.finish(), Binding::Local);
    let (mut b, p) = int_fn(&mut m, "use_va", 1);
    let pid = b.add_plan(plan);
    let zero = b.iconst(Type::I8, 0);
    let vs = m.symbol("va", SymKind::Func);
    let r = b.call(
        Callee::Direct(vs),
        vec![p[0], zero],
        vec![],
        pid,
        &[Type::I32],
    );
    b.push(Op::Return(r), None);
    define(&mut m, b.finish(), Binding::Global);
    optimise_module(&mut m, &InlineOptions::default());
    assert!(body(&m, "rec").iter().any(|l| l.contains("call rec")));
    assert!(body(&m, "main").iter().any(|l| l.contains("call rec")));
    assert!(body(&m, "use_va").iter().any(|l| l.contains("call va")));
}

#[test]
fn a_callee_with_alloca_is_not_inlined_even_always_inline() {
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "dyn", 1);
    let size = b.conv(ConvOp::Sext, p[0], Type::I64);
    let a = b
        .push(Op::Alloca { size, align: 16 }, Some(Type::Ptr))
        .unwrap();
    b.store(p[0], a, 0, MemFlags::aligned(4));
    let v = b.load(Type::I32, a, 0, MemFlags::aligned(4));
    b.push(Op::Return(vec![v]), None);
    let mut f = b.finish();
    f.inline_hint = InlineHint::Always;
    define(&mut m, f, Binding::Local);
    caller_of(&mut m, "main", "dyn");
    optimise_module(&mut m, &InlineOptions::default());
    assert_eq!(names(&m), ["dyn", "main"]);
    assert!(body(&m, "main").iter().any(|l| l.contains("call dyn")));
}

#[test]
fn a_tail_call_to_itself_becomes_a_loop() {
    // int count(int n) { if (n == 0) return 0; return count(n - 1); }
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "count", 1);
    let done = b.new_block();
    let more = b.new_block();
    let zero = b.iconst(Type::I32, 0);
    let c = b.icmp(IntCC::Eq, p[0], zero);
    b.branch(c, done, more);
    b.switch_to(done);
    b.push(Op::Return(vec![zero]), None);
    b.switch_to(more);
    let one = b.iconst(Type::I32, 1);
    let n1 = b.binary(BinaryOp::Sub, p[0], one);
    let r = call(&mut b, &mut m, "count", vec![n1]);
    b.push(Op::Return(vec![r]), None);
    let mut f = b.finish();
    assert!(opt::tail_recursion_to_loop(&mut f));
    verify(&f).unwrap();
    let text: Vec<String> = print_function(&m, &f)
        .lines()
        .skip(1)
        .filter(|l| !l.trim_start().starts_with("plan"))
        .map(str::to_string)
        .collect();
    assert_eq!(
        text,
        [
            "block0(v6: i32):",
            "  jump block1(v6)",
            "block1(v0: i32):",
            "  v1 = iconst.i32 0",
            "  v2 = icmp eq v0, v1",
            "  branch v2, block2, block3",
            "block2():",
            "  ret v1",
            "block3():",
            "  v3 = iconst.i32 1",
            "  v4 = sub v0, v3",
            "  jump block1(v4)",
        ]
    );
}

#[test]
fn a_struct_slot_is_split_into_its_fields() {
    // struct { int a, b; } s; s = *p (copy); s.b += 1; *q = s (copy): the copies become
    // field loads and stores, the i64 load of both fields a combination of them.
    let mut m = Module::default();
    let sym = m.symbol("f", SymKind::Func);
    let sig = Signature::new(
        CType::Int(IntKind::Long),
        vec![CType::Pointer, CType::Pointer],
    );
    let mut b = FunctionBuilder::new(sym, plan_call(machine(), &sig).unwrap(), false);
    let p = b.add_param(Block(0), Type::Ptr);
    let q = b.add_param(Block(0), Type::Ptr);
    let s = b.add_slot(8, 4);
    let a = b.slot_addr(s);
    b.push(
        Op::Copy {
            dst: a,
            src: p,
            size: 8,
            align: 4,
        },
        None,
    );
    let y = b.load(Type::I32, a, 4, MemFlags::aligned(4));
    let one = b.iconst(Type::I32, 1);
    let y1 = b.binary(BinaryOp::Add, y, one);
    b.store(y1, a, 4, MemFlags::aligned(4));
    b.push(
        Op::Copy {
            dst: q,
            src: a,
            size: 8,
            align: 4,
        },
        None,
    );
    let whole = b.load(Type::I64, a, 0, MemFlags::aligned(4));
    b.push(Op::Return(vec![whole]), None);
    let mut f = b.finish();
    assert!(sroa::split_slots(&mut f));
    opt::mem2reg(&mut f);
    simplify::simplify(&mut f);
    verify(&f).unwrap();
    let text: Vec<String> = print_function(&m, &f)
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    assert_eq!(
        text,
        [
            "block0(v0: ptr, v1: ptr):",
            "  v7 = load.i32 v0+0 align 4",
            "  v9 = load.i32 v0+4 align 4",
            "  v4 = iconst.i32 1",
            "  v5 = add v9, v4",
            "  store v7, v1+0 align 4",
            "  store v5, v1+4 align 4",
            "  v20 = zext.i64 v7",
            "  v23 = zext.i64 v5",
            "  v24 = iconst.i64 32",
            "  v25 = shl v23, v24",
            "  v26 = or v20, v25",
            "  ret v26",
        ]
    );
}
