//! Symbols and sections: bindings and visibility, aliases, common symbols, custom sections,
//! -ffunction-sections/-fdata-sections, constructors and destructors with priorities, f32
//! and narrow memory operations, block copies, setjmp-calling functions.

#[path = "backend_common.rs"]
mod common;
use common::*;
use neverc_ir::*;

fn module() -> Module {
    let mut m = Module::default();
    let puts = m.symbol("puts", SymKind::Func);
    let say = |m: &mut Module, fname: &str, text: &str, binding: Binding| {
        let s = define(m, &format!(".Ls_{fname}"), SymKind::Object);
        m.symbols[s.index()].binding = Binding::Local;
        m.symbols[s.index()].local = true;
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        m.data.push(DataObject {
            sym: s,
            size: bytes.len() as u64,
            align: 1,
            bytes,
            relocs: vec![],
            readonly: true,
            common: false,
            block_relocs: vec![],
        });
        func(m, fname, plan(C::Void, vec![]), &[], |b, _, _| {
            let a = b.sym_addr(s, 0);
            let pl = b.add_plan(plan(int(), vec![C::Pointer]));
            b.call(Callee::Direct(puts), vec![a], vec![], pl, &[Type::I32]);
            b.push(Op::Return(vec![]), None);
        });
        let f = m.by_name[fname];
        m.symbols[f.index()].binding = binding;
        if binding == Binding::Local {
            m.symbols[f.index()].local = true;
        }
        f
    };
    let c1 = say(&mut m, "ctor_early", "ctor 101", Binding::Local);
    let c2 = say(&mut m, "ctor_late", "ctor default", Binding::Local);
    let d1 = say(&mut m, "dtor", "dtor", Binding::Local);
    m.constructors = vec![(65535, c2), (101, c1)];
    m.destructors = vec![(65535, d1)];
    let w = say(&mut m, "weak_fn", "weak", Binding::Weak);
    let h = say(&mut m, "hidden_fn", "hidden", Binding::Global);
    m.symbols[h.index()].visibility = Visibility::Hidden;
    let sec = say(&mut m, "in_mytext", "mytext", Binding::Global);
    m.symbols[sec.index()].section = Some(".mytext".into());
    // alias_fn = weak_fn
    let al = m.symbol("alias_fn", SymKind::Func);
    m.symbols[al.index()].defined = true;
    m.symbols[al.index()].alias_of = Some(w);
    // int comm_var (common), int mydata_var = 42 in section "mydata"
    let cv = define(&mut m, "comm_var", SymKind::Object);
    m.data.push(DataObject {
        sym: cv,
        size: 8,
        align: 8,
        bytes: vec![],
        relocs: vec![],
        readonly: false,
        common: true,
        block_relocs: vec![],
    });
    let md = define(&mut m, "mydata_var", SymKind::Object);
    m.symbols[md.index()].section = Some("mydata".into());
    m.data.push(DataObject {
        sym: md,
        size: 4,
        align: 4,
        bytes: 42i32.to_le_bytes().to_vec(),
        relocs: vec![],
        readonly: false,
        common: false,
        block_relocs: vec![],
    });
    // int call_all(void) { hidden_fn(); alias_fn(); in_mytext(); return comm_var + mydata_var; }
    func(&mut m, "call_all", plan(int(), vec![]), &[], |b, _, _| {
        let pl = b.add_plan(plan(C::Void, vec![]));
        for f in [h, al, sec] {
            b.call(Callee::Direct(f), vec![], vec![], pl, &[]);
        }
        let a = b.sym_addr(cv, 0);
        let x = b.load(Type::I32, a, 0, MemFlags::aligned(4));
        let d = b.sym_addr(md, 0);
        let y = b.load(Type::I32, d, 0, MemFlags::aligned(4));
        let s = b.binary(BinaryOp::Add, x, y);
        ret(b, s);
    });
    // float fmix(float a, short *p, signed char *q): a * 1.5f + *p + *q, with *p = -2, *q = 100 stored
    func(
        &mut m,
        "fmix",
        plan(
            C::Float(FloatKind::Float),
            vec![C::Float(FloatKind::Float), C::Pointer, C::Pointer],
        ),
        &[Type::F32, Type::Ptr, Type::Ptr],
        |b, _, p| {
            let k = b.fconst(Type::F32, 1.5f32.to_bits() as u128);
            let t = b.binary(BinaryOp::FMul, p[0], k);
            let s = b.load(Type::I16, p[1], 0, MemFlags::aligned(2));
            let c = b.load(Type::I8, p[2], 0, MemFlags::aligned(1));
            let s32 = b.conv(ConvOp::Sext, s, Type::I32);
            let c32 = b.conv(ConvOp::Sext, c, Type::I32);
            let sum = b.binary(BinaryOp::Add, s32, c32);
            let sf = b.conv(ConvOp::SToF, sum, Type::F32);
            let r = b.binary(BinaryOp::FAdd, t, sf);
            let m2 = b.iconst(Type::I16, -2);
            b.store(m2, p[1], 0, MemFlags::aligned(2));
            let h = b.iconst(Type::I8, 100);
            b.store(h, p[2], 0, MemFlags::aligned(1));
            let n = b.unary(UnaryOp::FNeg, r);
            let d = b.conv(ConvOp::FExt, n, Type::F64);
            let back = b.conv(ConvOp::FTrunc, d, Type::F32);
            ret(b, back);
        },
    );
    // void copies(char *dst, const char *src): copy 13 and 200 bytes, zero 7 and 100.
    func(
        &mut m,
        "copies",
        plan(C::Void, vec![C::Pointer, C::Pointer]),
        &[Type::Ptr, Type::Ptr],
        |b, _, p| {
            b.push(
                Op::Copy {
                    dst: p[0],
                    src: p[1],
                    size: 13,
                    align: 1,
                },
                None,
            );
            let eight = b.iconst(Type::I64, 300);
            let d2 = b.conv(ConvOp::Bitcast, p[0], Type::I64);
            let d2 = b.binary(BinaryOp::Add, d2, eight);
            let d2 = b.conv(ConvOp::Bitcast, d2, Type::Ptr);
            b.push(
                Op::Copy {
                    dst: d2,
                    src: p[1],
                    size: 200,
                    align: 1,
                },
                None,
            );
            b.push(
                Op::Zero {
                    dst: p[0],
                    size: 7,
                    align: 1,
                },
                None,
            );
            b.push(
                Op::Zero {
                    dst: d2,
                    size: 100,
                    align: 1,
                },
                None,
            );
            b.push(Op::Return(vec![]), None);
        },
    );
    // long sj(long x): calls setjmp-like function, keeps values across calls.
    let csj = m.symbol("csj", SymKind::Func);
    let sym = define(&mut m, "sj", SymKind::Func);
    let mut b = FunctionBuilder::new(sym, plan(long(), vec![long()]), false);
    b.func.calls_setjmp = true;
    let x = b.add_param(Block(0), Type::I64);
    let pl = b.add_plan(plan(long(), vec![long()]));
    let y = b.call(Callee::Direct(csj), vec![x], vec![], pl, &[Type::I64]);
    let z = b.call(Callee::Direct(csj), vec![y[0]], vec![], pl, &[Type::I64]);
    let s = b.binary(BinaryOp::Add, x, y[0]);
    let s = b.binary(BinaryOp::Add, s, z[0]);
    b.push(Op::Return(vec![s]), None);
    let f = b.finish();
    verify(&f).unwrap();
    m.functions.push(f);
    m
}

const DRIVER: &str = r#"#include <stdio.h>
#include <string.h>
int call_all(void); float fmix(float, short *, signed char *); void copies(char *, const char *);
long sj(long); void weak_fn(void);
long csj(long x) { return x * 10; }
extern int mydata_var; extern int __start_mydata[];
extern long comm_var;
int main(void) {
  comm_var = 8;
  printf("%d %d\n", call_all(), __start_mydata[0]);
  short s = 10; signed char c = -3;
  float f = fmix(2.0f, &s, &c);
  printf("%g %d %d\n", f, s, c);
  char src[256], dst[600];
  for (int i = 0; i < 256; i++) src[i] = (char)(i + 1);
  memset(dst, 0x55, sizeof dst);
  copies(dst, src);
  char ref[600];
  memset(ref, 0x55, sizeof ref);
  memcpy(ref, src, 13); memcpy(ref + 300, src, 200); memset(ref, 0, 7); memset(ref + 300, 0, 100);
  printf("%s\n", memcmp(dst, ref, sizeof ref) ? "copies differ" : "copies ok");
  printf("%ld\n", sj(3));
  return 0;
}
"#;

fn expected() -> &'static str {
    "ctor 101\nctor default\nhidden\nweak\nmytext\n50 42\n-10 -2 100\ncopies ok\n333\ndtor\n"
}

#[test]
fn symbols_sections_and_misc() {
    run("symbols", &module(), DRIVER, expected());
}

#[test]
fn function_and_data_sections() {
    run_opts(
        "sections",
        &module(),
        DRIVER,
        expected(),
        Pic::Pie,
        &["-Wl,--gc-sections"],
        &|o| Options {
            function_sections: true,
            data_sections: true,
            ..o
        },
    );
}
