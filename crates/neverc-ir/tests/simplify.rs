//! The -O1 scalar passes (neverc_ir::simplify) on small hand-built functions: the printed
//! IR after the pass, exactly, and the verifier on the result.

use neverc_abi::{plan_call, IntKind, Signature, Type as CType};
use neverc_ir::*;

fn machine() -> neverc_abi::Machine {
    neverc_abi::Machine::from(neverc_target::lookup("x86_64-linux-gnu").unwrap())
}

/// A builder for `int name(int, ...)` with `nparams` int parameters.
fn int_fn(m: &mut Module, name: &str, nparams: usize) -> (FunctionBuilder, Vec<Value>) {
    let sig = Signature::new(
        CType::Int(IntKind::Int),
        vec![CType::Int(IntKind::Int); nparams],
    );
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol(name, SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    let ps = (0..nparams)
        .map(|_| b.add_param(Block(0), Type::I32))
        .collect();
    (b, ps)
}

/// The function's body as printed, after the pass, verified before and after.
fn after(m: &Module, mut f: Function, pass: fn(&mut Function)) -> Vec<String> {
    verify(&f).unwrap();
    pass(&mut f);
    if let Err(e) = verify(&f) {
        panic!("{e}\n{}", print_function(m, &f));
    }
    print_function(m, &f)
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn folds_constants_and_identities() {
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "f", 1);
    let two = b.iconst(Type::I32, 2);
    let three = b.iconst(Type::I32, 3);
    let six = b.binary(BinaryOp::Mul, two, three); // 6
    let zero = b.iconst(Type::I32, 0);
    let x = b.binary(BinaryOp::Add, p[0], zero); // p0
    let y = b.binary(BinaryOp::Add, six, x); // p0 + 6, constant to the right
    let big = b.iconst(Type::I32, 0x7fff_ffff);
    let wrap = b.binary(BinaryOp::Add, big, big); // -2 in 32 bits
    let e = b.conv(ConvOp::Sext, wrap, Type::I64); // -2
    let t = b.conv(ConvOp::Trunc, e, Type::I32); // wrap
    let r = b.binary(BinaryOp::Xor, y, t);
    let s = b.binary(BinaryOp::Sub, r, r); // 0
    let q = b.binary(BinaryOp::Or, r, s); // r
    let dz = b.binary(BinaryOp::SDiv, q, zero); // not folded: division by zero stays
    b.push(Op::Return(vec![dz]), None);
    let f = b.finish();
    assert_eq!(
        after(&m, f, simplify::simplify),
        [
            "block0(v0: i32):",
            "  v3 = iconst.i32 6",
            "  v4 = iconst.i32 0",
            "  v6 = add v0, v3",
            "  v8 = iconst.i32 4294967294",
            "  v11 = xor v6, v8",
            "  v14 = sdiv v11, v4",
            "  ret v14",
        ]
    );
}

#[test]
fn cse_along_the_dominator_tree_and_constant_branches() {
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "g", 2);
    let then = b.new_block();
    let els = b.new_block();
    let join = b.new_block();
    let jp = b.add_param(join, Type::I32);
    let a1 = b.binary(BinaryOp::Mul, p[0], p[1]);
    let c = b.icmp(IntCC::Slt, p[0], p[1]);
    b.branch(c, then, els);
    b.switch_to(then);
    let a2 = b.binary(BinaryOp::Mul, p[0], p[1]); // same as a1: replaced
    let s = b.binary(BinaryOp::Add, a1, a2);
    b.jump(join, vec![s]);
    b.switch_to(els);
    let one = b.iconst(Type::I32, 1);
    let k = b.icmp(IntCC::Eq, one, one); // true
    let dead = b.new_block();
    b.branch(k, join, dead);
    b.switch_to(dead);
    b.push(Op::Unreachable, None);
    b.switch_to(join);
    b.push(Op::Return(vec![jp]), None);
    let mut f = b.finish();
    // The branch in `els` passes a1 to join.
    let last = *f.blocks[els.index()].insts.last().unwrap();
    if let Op::Branch { then, .. } = &mut f.insts[last.index()].op {
        then.args.push(a1);
    }
    assert_eq!(
        after(&m, f, simplify::simplify),
        [
            "block0(v0: i32, v1: i32):",
            "  v3 = mul v0, v1",
            "  v4 = icmp slt v0, v1",
            "  branch v4, block1, block2",
            "block1():",
            "  v6 = add v3, v3",
            "  jump block3(v6)",
            "block2():",
            "  jump block3(v3)",
            "block3(v2: i32):",
            "  ret v2",
            "block4():",
            "  unreachable",
        ]
    );
}

#[test]
fn removes_redundant_block_params_and_dead_slots() {
    // A loop whose second parameter only ever receives n or itself, whose third nobody
    // reads, and a slot whose address is never used (dropped: no slot line printed).
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "h", 1);
    let slot = b.add_slot(4, 4);
    let head = b.new_block();
    let body = b.new_block();
    let exit = b.new_block();
    let i = b.add_param(head, Type::I32);
    let same = b.add_param(head, Type::I32);
    let unused = b.add_param(head, Type::I32);
    let _addr = b.slot_addr(slot);
    let zero = b.iconst(Type::I32, 0);
    b.jump(head, vec![zero, p[0], zero]);
    b.switch_to(head);
    let c = b.icmp(IntCC::Slt, i, same);
    b.branch(c, body, exit);
    b.switch_to(body);
    let one = b.iconst(Type::I32, 1);
    let i2 = b.binary(BinaryOp::Add, i, one);
    b.jump(head, vec![i2, same, unused]);
    b.switch_to(exit);
    b.push(Op::Return(vec![i]), None);
    let f = b.finish();
    let text = after(&m, f, simplify::simplify);
    assert_eq!(
        text,
        [
            "block0(v0: i32):",
            "  v5 = iconst.i32 0",
            "  v7 = iconst.i32 1",
            "  jump block1(v5)",
            "block1(v1: i32):",
            "  v6 = icmp slt v1, v0",
            "  branch v6, block2, block3",
            "block2():",
            "  v8 = add v1, v7",
            "  jump block1(v8)",
            "block3():",
            "  ret v1",
        ]
    );
}

#[test]
fn hoists_invariant_computations_but_not_traps_or_loads() {
    // for (i = 0; i < n; i++) s += (a * b) + (a / b) + (a / 4) + *p
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "k", 3);
    let head = b.new_block();
    let body = b.new_block();
    let exit = b.new_block();
    let i = b.add_param(head, Type::I32);
    let s = b.add_param(head, Type::I32);
    let g = m.symbol("g", SymKind::Object);
    let zero = b.iconst(Type::I32, 0);
    b.jump(head, vec![zero, zero]);
    b.switch_to(head);
    let c = b.icmp(IntCC::Slt, i, p[2]);
    b.branch(c, body, exit);
    b.switch_to(body);
    let ab = b.binary(BinaryOp::Mul, p[0], p[1]);
    let q = b.binary(BinaryOp::SDiv, p[0], p[1]);
    let four = b.iconst(Type::I32, 4);
    let q4 = b.binary(BinaryOp::SDiv, p[0], four);
    let ga = b.sym_addr(g, 0);
    let ld = b.load(Type::I32, ga, 0, MemFlags::aligned(4));
    let t1 = b.binary(BinaryOp::Add, ab, q);
    let t2 = b.binary(BinaryOp::Add, t1, q4);
    let t3 = b.binary(BinaryOp::Add, t2, ld);
    let s2 = b.binary(BinaryOp::Add, s, t3);
    let one = b.iconst(Type::I32, 1);
    let i2 = b.binary(BinaryOp::Add, i, one);
    b.jump(head, vec![i2, s2]);
    b.switch_to(exit);
    b.push(Op::Return(vec![s]), None);
    let f = b.finish();
    assert_eq!(
        after(&m, f, simplify::licm),
        [
            "block0(v0: i32, v1: i32, v2: i32):",
            "  v5 = iconst.i32 0",
            "  v7 = mul v0, v1",
            "  v9 = iconst.i32 4",
            "  v10 = sdiv v0, v9",
            "  v11 = sym_addr g+0",
            "  v17 = iconst.i32 1",
            "  jump block1(v5, v5)",
            "block1(v3: i32, v4: i32):",
            "  v6 = icmp slt v3, v2",
            "  branch v6, block2, block3",
            "block2():",
            "  v8 = sdiv v0, v1",
            "  v12 = load.i32 v11+0 align 4",
            "  v13 = add v7, v8",
            "  v14 = add v13, v10",
            "  v15 = add v14, v12",
            "  v16 = add v4, v15",
            "  v18 = add v3, v17",
            "  jump block1(v18, v16)",
            "block3():",
            "  ret v4",
        ]
    );
}

#[test]
fn forwards_stores_through_unescaped_slots() {
    // struct { int x, y; } passed in one i64 and returned in one: r.x = a.x + a.y,
    // r.y = a.y; the slots go away, the pieces are shifts and masks of the value.
    let mut m = Module::default();
    let sig = Signature::new(
        CType::Int(IntKind::Long),
        [CType::Int(IntKind::Long), CType::Int(IntKind::Long)],
    );
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("pair", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    let a = b.add_param(Block(0), Type::I64);
    let p = b.add_param(Block(0), Type::I64);
    let sa = b.add_slot(8, 8);
    let sr = b.add_slot(8, 4);
    let escaped = b.add_slot(8, 8);
    let aa = b.slot_addr(sa);
    b.store(a, aa, 0, MemFlags::aligned(8));
    let ra = b.slot_addr(sr);
    b.push(
        Op::Zero {
            dst: ra,
            size: 8,
            align: 4,
        },
        None,
    );
    let x = b.load(Type::I32, aa, 0, MemFlags::aligned(4));
    let y = b.load(Type::I32, aa, 4, MemFlags::aligned(4));
    let s = b.binary(BinaryOp::Add, x, y);
    b.store(s, ra, 0, MemFlags::aligned(4));
    let four = b.iconst(Type::I64, 4);
    let ra64 = b.conv(ConvOp::Bitcast, ra, Type::I64);
    let ry64 = b.binary(BinaryOp::Add, ra64, four);
    let ry = b.conv(ConvOp::Bitcast, ry64, Type::Ptr);
    b.store(y, ry, 0, MemFlags::aligned(4));
    let r = b.load(Type::I64, ra, 0, MemFlags::aligned(8));
    // A slot whose address is stored somewhere keeps its stores and loads.
    let ea = b.slot_addr(escaped);
    b.store(r, ea, 0, MemFlags::aligned(8));
    let pp = b.conv(ConvOp::Bitcast, p, Type::Ptr);
    b.store(ea, pp, 0, MemFlags::aligned(8));
    let e = b.load(Type::I64, ea, 0, MemFlags::aligned(8));
    b.push(Op::Return(vec![e]), None);
    let f = b.finish();
    let text = after(&m, f, simplify::simplify);
    assert_eq!(
        text,
        [
            "  slot0 = 8 align 8",
            "block0(v0: i64, v1: i64):",
            "  v17 = trunc.i32 v0",
            "  v18 = iconst.i64 32",
            "  v19 = lshr v0, v18",
            "  v20 = trunc.i32 v19",
            "  v6 = add v17, v20",
            "  v21 = zext.i64 v6",
            "  v22 = zext.i64 v20",
            "  v24 = shl v22, v18",
            "  v25 = or v21, v24",
            "  v12 = slot_addr slot0",
            "  store v25, v12+0 align 8",
            "  v13 = bitcast.ptr v1",
            "  store v12, v13+0 align 8",
            "  v14 = load.i64 v12+0 align 8",
            "  ret v14",
        ]
    );
}

#[test]
fn copies_through_slots_read_the_source_until_memory_may_change() {
    // t = *p (12 bytes, through a slot); *q = t; then again after a store through q,
    // which may have changed *p: that copy's load stays a load of the slot.
    let mut m = Module::default();
    let sig = Signature::new(
        CType::Int(IntKind::Long),
        [CType::Int(IntKind::Long), CType::Int(IntKind::Long)],
    );
    let plan = plan_call(machine(), &sig).unwrap();
    let sym = m.symbol("cp", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan, false);
    let p = b.add_param(Block(0), Type::I64);
    let q = b.add_param(Block(0), Type::I64);
    let pp = b.conv(ConvOp::Bitcast, p, Type::Ptr);
    let qp = b.conv(ConvOp::Bitcast, q, Type::Ptr);
    let s = b.add_slot(12, 4);
    let t = b.add_slot(12, 4);
    let sa = b.slot_addr(s);
    let ta = b.slot_addr(t);
    let copy = |b: &mut FunctionBuilder, dst, src| {
        b.push(
            Op::Copy {
                dst,
                src,
                size: 12,
                align: 4,
            },
            None,
        );
    };
    copy(&mut b, sa, pp);
    let x = b.load(Type::I64, sa, 0, MemFlags::aligned(4));
    let y = b.load(Type::I32, sa, 8, MemFlags::aligned(4));
    b.store(x, ta, 0, MemFlags::aligned(4));
    b.store(y, ta, 8, MemFlags::aligned(4));
    copy(&mut b, qp, ta);
    let u = b.add_slot(8, 8);
    let ua = b.slot_addr(u);
    b.push(
        Op::Copy {
            dst: ua,
            src: pp,
            size: 8,
            align: 8,
        },
        None,
    );
    b.store(y, qp, 0, MemFlags::aligned(4));
    let z = b.load(Type::I64, ua, 0, MemFlags::aligned(8));
    b.push(Op::Return(vec![z]), None);
    let f = b.finish();
    assert_eq!(
        after(&m, f, simplify::simplify),
        [
            "  slot0 = 8 align 8",
            "block0(v0: i64, v1: i64):",
            "  v2 = bitcast.ptr v0",
            "  v3 = bitcast.ptr v1",
            "  v10 = load.i64 v2+0 align 1",
            "  v11 = load.i32 v2+8 align 1",
            "  store v10, v3+0 align 1",
            "  store v11, v3+8 align 1",
            "  v8 = slot_addr slot0",
            "  copy v8, v2, 8 align 8",
            "  store v11, v3+0 align 4",
            "  v9 = load.i64 v8+0 align 8",
            "  ret v9",
        ]
    );
}

#[test]
fn unreferenced_static_functions_are_dropped() {
    // static f (nobody), static g (called by h), h (global), static k (in a data
    // object's relocation), static u (used attribute), static w (only called by f).
    let mut m = Module::default();
    let body = |m: &mut Module, name: &str, local: bool, calls: Option<&str>| {
        let (mut b, _) = int_fn(m, name, 0);
        if let Some(c) = calls {
            let sig = Signature::new(CType::Int(IntKind::Int), []);
            let plan = plan_call(machine(), &sig).unwrap();
            let pid = b.add_plan(plan);
            let callee = m.symbol(c, SymKind::Func);
            let r = b.call(Callee::Direct(callee), vec![], vec![], pid, &[Type::I32]);
            b.push(Op::Return(r), None);
        } else {
            let z = b.iconst(Type::I32, 0);
            b.push(Op::Return(vec![z]), None);
        }
        let f = b.finish();
        let s = f.sym;
        m.symbols[s.index()].defined = true;
        if local {
            m.symbols[s.index()].binding = Binding::Local;
        }
        m.functions.push(f);
        s
    };
    body(&mut m, "f", true, Some("w"));
    body(&mut m, "g", true, None);
    body(&mut m, "h", false, Some("g"));
    let k = body(&mut m, "k", true, None);
    let u = body(&mut m, "u", true, None);
    body(&mut m, "w", true, None);
    m.symbols[u.index()].used = true;
    let table = m.symbol("table", SymKind::Object);
    m.data.push(DataObject {
        sym: table,
        size: 8,
        align: 8,
        bytes: vec![0; 8],
        relocs: vec![(0, k, 0, 8)],
        readonly: true,
        common: false,
        block_relocs: vec![],
    });
    opt::remove_unreferenced_functions(&mut m, |_| true);
    let names: Vec<&str> = m
        .functions
        .iter()
        .map(|f| m.sym(f.sym).name.as_str())
        .collect();
    assert_eq!(names, ["g", "h", "k", "u"]);
    assert!(!m.symbols[m.by_name["f"].index()].defined);
    assert!(!m.symbols[m.by_name["w"].index()].defined);
}

#[test]
fn at_o0_only_unreferenced_inline_functions_are_dropped() {
    // All static. a (inline, nobody) calls b (inline): both go. c (not inline, nobody)
    // calls d (inline): both stay, c being a root. e (not inline, nobody) stays.
    let mut m = Module::default();
    let body = |m: &mut Module, name: &str, inline: bool, calls: Option<&str>| {
        let (mut b, _) = int_fn(m, name, 0);
        if let Some(c) = calls {
            let sig = Signature::new(CType::Int(IntKind::Int), []);
            let plan = plan_call(machine(), &sig).unwrap();
            let pid = b.add_plan(plan);
            let callee = m.symbol(c, SymKind::Func);
            let r = b.call(Callee::Direct(callee), vec![], vec![], pid, &[Type::I32]);
            b.push(Op::Return(r), None);
        } else {
            let z = b.iconst(Type::I32, 0);
            b.push(Op::Return(vec![z]), None);
        }
        let mut f = b.finish();
        f.declared_inline = inline;
        let s = f.sym;
        m.symbols[s.index()].defined = true;
        m.symbols[s.index()].binding = Binding::Local;
        m.functions.push(f);
    };
    body(&mut m, "a", true, Some("b"));
    body(&mut m, "b", true, None);
    body(&mut m, "c", false, Some("d"));
    body(&mut m, "d", true, None);
    body(&mut m, "e", false, None);
    opt::remove_unreferenced_functions(&mut m, |f| f.declared_inline);
    let names: Vec<&str> = m
        .functions
        .iter()
        .map(|f| m.sym(f.sym).name.as_str())
        .collect();
    assert_eq!(names, ["c", "d", "e"]);
    assert!(!m.symbols[m.by_name["a"].index()].defined);
    assert!(!m.symbols[m.by_name["b"].index()].defined);
    assert!(m.symbols[m.by_name["c"].index()].defined);
}

#[test]
fn truncating_a_combined_value_takes_the_piece() {
    // trunc.i32(lshr(or(zext a, shl(zext b, 32)), 32)) is b; trunc.i32 of the or is a.
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "f", 2);
    let za = b.conv(ConvOp::Zext, p[0], Type::I64);
    let zb = b.conv(ConvOp::Zext, p[1], Type::I64);
    let k = b.iconst(Type::I64, 32);
    let hi = b.binary(BinaryOp::Shl, zb, k);
    let both = b.binary(BinaryOp::Or, za, hi);
    let lo = b.conv(ConvOp::Trunc, both, Type::I32);
    let sh = b.binary(BinaryOp::LShr, both, k);
    let hi32 = b.conv(ConvOp::Trunc, sh, Type::I32);
    let r = b.binary(BinaryOp::Sub, lo, hi32);
    b.push(Op::Return(vec![r]), None);
    let mut f = b.finish();
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
            "block0(v0: i32, v1: i32):",
            "  v10 = sub v0, v1",
            "  ret v10"
        ]
    );
}

#[test]
fn dead_parameter_cycles_go_and_single_entry_blocks_merge() {
    // block0: jump block1(p0, 0)
    // block1(i, d): branch i < 10, block2, block3
    // block2: jump block4   (block4's only predecessor: merged into block2)
    // block4: jump block1(i + 1, d + 1)   (d is never needed: d, d + 1 go)
    // block3: ret i
    let mut m = Module::default();
    let (mut b, p) = int_fn(&mut m, "f", 1);
    let head = b.new_block();
    let body = b.new_block();
    let exit = b.new_block();
    let latch = b.new_block();
    let zero = b.iconst(Type::I32, 0);
    b.jump(head, vec![p[0], zero]);
    b.switch_to(head);
    let i = b.add_param(head, Type::I32);
    let d = b.add_param(head, Type::I32);
    let ten = b.iconst(Type::I32, 10);
    let c = b.icmp(IntCC::Slt, i, ten);
    b.branch(c, body, exit);
    b.switch_to(body);
    b.jump(latch, vec![]);
    b.switch_to(latch);
    let one = b.iconst(Type::I32, 1);
    let i1 = b.binary(BinaryOp::Add, i, one);
    let d1 = b.binary(BinaryOp::Add, d, one);
    b.jump(head, vec![i1, d1]);
    b.switch_to(exit);
    b.push(Op::Return(vec![i]), None);
    let f = b.finish();
    assert_eq!(
        after(&m, f, simplify::simplify),
        [
            "block0(v0: i32):",
            "  v4 = iconst.i32 10",
            "  v6 = iconst.i32 1",
            "  jump block1(v0)",
            "block1(v2: i32):",
            "  v5 = icmp slt v2, v4",
            "  branch v5, block2, block3",
            "block2():",
            "  v7 = add v2, v6",
            "  jump block1(v7)",
            "block3():",
            "  ret v2",
            "block4():",
            "  unreachable",
        ]
    );
}
