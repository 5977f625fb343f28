//! Execution tests of the x86-64 back end: IR built by hand, compiled at -O0 and -O1 (with
//! regalloc2's checker), linked with a C driver by the system `cc`, run, and the output
//! compared; the `-S` text is assembled with `as` and its `.text` compared with the object's.

#[path = "backend_common.rs"]
mod common;
use common::*;
use neverc_ir::*;

#[test]
fn integer_arithmetic_of_every_width() {
    let mut m = Module::default();
    let ops = [
        ("add", BinaryOp::Add),
        ("sub", BinaryOp::Sub),
        ("mul", BinaryOp::Mul),
        ("sdiv", BinaryOp::SDiv),
        ("udiv", BinaryOp::UDiv),
        ("srem", BinaryOp::SRem),
        ("urem", BinaryOp::URem),
        ("and", BinaryOp::And),
        ("or", BinaryOp::Or),
        ("xor", BinaryOp::Xor),
        ("shl", BinaryOp::Shl),
        ("lshr", BinaryOp::LShr),
        ("ashr", BinaryOp::AShr),
    ];
    // long f_<op>_<w>(long a, long b): computes at width w, sign-extends the result.
    let widths = [
        ("8", Type::I8),
        ("16", Type::I16),
        ("32", Type::I32),
        ("64", Type::I64),
    ];
    let mut decls = String::new();
    let mut calls = String::new();
    for (on, op) in ops {
        for (wn, w) in widths {
            let name = format!("f_{on}_{wn}");
            func(
                &mut m,
                &name,
                plan(long(), vec![long(), long()]),
                &[Type::I64, Type::I64],
                |b, _, p| {
                    let (x, y) = if w == Type::I64 {
                        (p[0], p[1])
                    } else {
                        (
                            b.conv(ConvOp::Trunc, p[0], w),
                            b.conv(ConvOp::Trunc, p[1], w),
                        )
                    };
                    let r = b.binary(op, x, y);
                    let r = if w == Type::I64 {
                        r
                    } else {
                        b.conv(ConvOp::Sext, r, Type::I64)
                    };
                    ret(b, r);
                },
            );
            // The same with a constant right operand.
            let cname = format!("c_{on}_{wn}");
            func(
                &mut m,
                &cname,
                plan(long(), vec![long()]),
                &[Type::I64],
                |b, _, p| {
                    let x = if w == Type::I64 {
                        p[0]
                    } else {
                        b.conv(ConvOp::Trunc, p[0], w)
                    };
                    let c = b.iconst(w, 3);
                    let r = b.binary(op, x, c);
                    let r = if w == Type::I64 {
                        r
                    } else {
                        b.conv(ConvOp::Sext, r, Type::I64)
                    };
                    ret(b, r);
                },
            );
            decls.push_str(&format!("long {name}(long,long); long {cname}(long);\n"));
            let ct = match wn {
                "8" => "signed char",
                "16" => "short",
                "32" => "int",
                _ => "long",
            };
            let ut = match wn {
                "8" => "unsigned char",
                "16" => "unsigned short",
                "32" => "unsigned",
                _ => "unsigned long",
            };
            let expr = |a: &str, b: &str| match on {
                "add" => format!("({ct})(({ct}){a} + ({ct}){b})"),
                "sub" => format!("({ct})(({ct}){a} - ({ct}){b})"),
                "mul" => format!("({ct})(({ut}){a} * ({ut}){b})"),
                "sdiv" => format!("({ct})(({ct}){a} / ({ct}){b})"),
                "udiv" => format!("({ct})(({ut}){a} / ({ut}){b})"),
                "srem" => format!("({ct})(({ct}){a} % ({ct}){b})"),
                "urem" => format!("({ct})(({ut}){a} % ({ut}){b})"),
                "and" => format!("({ct})(({ct}){a} & ({ct}){b})"),
                "or" => format!("({ct})(({ct}){a} | ({ct}){b})"),
                "xor" => format!("({ct})(({ct}){a} ^ ({ct}){b})"),
                "shl" => format!("({ct})(({ut}){a} << {b})"),
                "lshr" => format!("({ct})(({ut}){a} >> {b})"),
                _ => format!("({ct})(({ct}){a} >> {b})"),
            };
            let pairs: &[(&str, &str)] = if on.ends_with("shl") || on.ends_with("shr") {
                &[
                    ("-100L", "3"),
                    ("12345L", "1"),
                    ("-1L", "2"),
                    ("0x7fL", "5"),
                ]
            } else if on.contains("div") || on.contains("rem") {
                &[
                    ("-100L", "7"),
                    ("1000L", "-3"),
                    ("-77777777L", "-13"),
                    ("250L", "3"),
                ]
            } else {
                &[
                    ("-100L", "7"),
                    ("1000L", "-3"),
                    ("0x12345678L", "0x7654321L"),
                    ("-1L", "-1L"),
                ]
            };
            for (a, bb) in pairs {
                calls.push_str(&format!(
                    "  if ({name}({a},{bb}) != (long){}) printf(\"{name}(%ld,%ld) = %ld\\n\", (long){a}, (long){bb}, {name}({a},{bb}));\n",
                    expr(a, bb)
                ));
            }
            calls.push_str(&format!(
                "  if ({cname}(-100L) != (long){}) printf(\"{cname} = %ld\\n\", {cname}(-100L));\n",
                expr("-100L", "3")
            ));
        }
    }
    let driver = format!(
        "#include <stdio.h>\n{decls}int main(void) {{\n{calls}  printf(\"done\\n\");\n  return 0;\n}}\n"
    );
    run("intarith", &m, &driver, "done\n");
}

#[test]
fn compares_signed_and_unsigned() {
    let mut m = Module::default();
    let ccs = [
        ("eq", IntCC::Eq, "=="),
        ("ne", IntCC::Ne, "!="),
        ("slt", IntCC::Slt, "<"),
        ("sle", IntCC::Sle, "<="),
        ("sgt", IntCC::Sgt, ">"),
        ("sge", IntCC::Sge, ">="),
        ("ult", IntCC::Ult, "<"),
        ("ule", IntCC::Ule, "<="),
        ("ugt", IntCC::Ugt, ">"),
        ("uge", IntCC::Uge, ">="),
    ];
    let mut decls = String::new();
    let mut calls = String::new();
    for (cn, cc, sym) in ccs {
        for (wn, w, ct, ut) in [
            ("8", Type::I8, "signed char", "unsigned char"),
            ("16", Type::I16, "short", "unsigned short"),
            ("32", Type::I32, "int", "unsigned"),
            ("64", Type::I64, "long", "unsigned long"),
        ] {
            // value form: int f(long a, long b) { return (w)a cc (w)b; }
            let name = format!("v_{cn}_{wn}");
            func(
                &mut m,
                &name,
                plan(int(), vec![long(), long()]),
                &[Type::I64, Type::I64],
                |b, _, p| {
                    let (x, y) = if w == Type::I64 {
                        (p[0], p[1])
                    } else {
                        (
                            b.conv(ConvOp::Trunc, p[0], w),
                            b.conv(ConvOp::Trunc, p[1], w),
                        )
                    };
                    let c = b.icmp(cc, x, y);
                    let r = b.conv(ConvOp::Zext, c, Type::I32);
                    ret(b, r);
                },
            );
            // branch form: if (a cc b) return 10; else return 20;
            let bname = format!("b_{cn}_{wn}");
            func(
                &mut m,
                &bname,
                plan(int(), vec![long(), long()]),
                &[Type::I64, Type::I64],
                |b, _, p| {
                    let (x, y) = if w == Type::I64 {
                        (p[0], p[1])
                    } else {
                        (
                            b.conv(ConvOp::Trunc, p[0], w),
                            b.conv(ConvOp::Trunc, p[1], w),
                        )
                    };
                    let c = b.icmp(cc, x, y);
                    let t = b.new_block();
                    let e = b.new_block();
                    b.branch(c, t, e);
                    b.switch_to(t);
                    let ten = b.iconst(Type::I32, 10);
                    ret(b, ten);
                    b.switch_to(e);
                    let twenty = b.iconst(Type::I32, 20);
                    ret(b, twenty);
                },
            );
            decls.push_str(&format!("int {name}(long,long); int {bname}(long,long);\n"));
            let ty = if cn.starts_with('u') { ut } else { ct };
            for (a, bb) in [
                ("-1L", "1L"),
                ("5L", "5L"),
                ("0x80L", "0x7fL"),
                ("0x8000L", "1L"),
                ("1L", "0x80000000L"),
            ] {
                calls.push_str(&format!(
                    "  if ({name}({a},{bb}) != (({ty}){a} {sym} ({ty}){bb})) printf(\"{name} %s %s\\n\", \"{a}\", \"{bb}\");\n"
                ));
                calls.push_str(&format!(
                    "  if ({bname}({a},{bb}) != ((({ty}){a} {sym} ({ty}){bb}) ? 10 : 20)) printf(\"{bname} %s %s\\n\", \"{a}\", \"{bb}\");\n"
                ));
            }
        }
    }
    let driver = format!(
        "#include <stdio.h>\n{decls}int main(void) {{\n{calls}  printf(\"done\\n\");\n  return 0;\n}}\n"
    );
    run("compares", &m, &driver, "done\n");
}

#[test]
fn loops_with_block_params_and_calls() {
    // long sum(long n) { long s = 0; for (long i = 0; i < n; i++) s += i * i; return s; }
    // void show(long n) { printf("%ld %ld\n", n, sum(n)); }
    let mut m = Module::default();
    func(
        &mut m,
        "sum",
        plan(long(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let head = b.new_block();
            let body = b.new_block();
            let exit = b.new_block();
            let i = b.add_param(head, Type::I64);
            let s = b.add_param(head, Type::I64);
            let zero = b.iconst(Type::I64, 0);
            b.jump(head, vec![zero, zero]);
            b.switch_to(head);
            let c = b.icmp(IntCC::Slt, i, p[0]);
            b.branch(c, body, exit);
            b.switch_to(body);
            let sq = b.binary(BinaryOp::Mul, i, i);
            let s2 = b.binary(BinaryOp::Add, s, sq);
            let one = b.iconst(Type::I64, 1);
            let i2 = b.binary(BinaryOp::Add, i, one);
            b.jump(head, vec![i2, s2]);
            b.switch_to(exit);
            ret(b, s);
        },
    );
    let fmt = define(&mut m, "fmt", SymKind::Object);
    m.symbols[fmt.index()].local = true;
    m.symbols[fmt.index()].binding = Binding::Local;
    m.data.push(DataObject {
        sym: fmt,
        size: 9,
        align: 1,
        bytes: b"%ld %ld\n\0".to_vec(),
        relocs: vec![],
        readonly: true,
        common: false,
        block_relocs: vec![],
    });
    let printf = m.symbol("printf", SymKind::Func);
    let sum = m.by_name["sum"];
    // static: calls to it are resolved in the object, as gas resolves them in the text.
    m.symbols[sum.index()].binding = Binding::Local;
    m.symbols[sum.index()].local = true;
    func(
        &mut m,
        "show",
        plan(C::Void, vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let sp = b.add_plan(plan(long(), vec![long()]));
            let r = b.call(Callee::Direct(sum), vec![p[0]], vec![], sp, &[Type::I64]);
            let pp = b.add_plan(vplan(int(), vec![C::Pointer, long(), long()], 1));
            let f = b.sym_addr(fmt, 0);
            let al = b.iconst(Type::I8, 0);
            // arguments: fmt, n, r, then the vacount location
            let np = b.func.plans[pp.index()].arguments.len();
            assert_eq!(np, 4);
            b.call(
                Callee::Direct(printf),
                vec![f, p[0], r[0], al],
                vec![],
                pp,
                &[Type::I32],
            );
            b.push(Op::Return(vec![]), None);
        },
    );
    let driver =
        "void show(long); int main(void) { show(0); show(1); show(10); show(1000); return 0; }\n";
    run("loops", &m, driver, "0 0\n1 0\n10 285\n1000 332833500\n");
}

#[test]
fn doubles_and_conversions() {
    let mut m = Module::default();
    // double poly(double x, long n) { return x * 2.5 + (double)n - 1.0 / x; }
    func(
        &mut m,
        "poly",
        plan(double(), vec![double(), long()]),
        &[Type::F64, Type::I64],
        |b, _, p| {
            let k = b.fconst(Type::F64, 2.5f64.to_bits() as u128);
            let t = b.binary(BinaryOp::FMul, p[0], k);
            let n = b.conv(ConvOp::SToF, p[1], Type::F64);
            let t = b.binary(BinaryOp::FAdd, t, n);
            let one = b.fconst(Type::F64, 1.0f64.to_bits() as u128);
            let q = b.binary(BinaryOp::FDiv, one, p[0]);
            let r = b.binary(BinaryOp::FSub, t, q);
            ret(b, r);
        },
    );
    // double u2d(unsigned long) ; unsigned long d2u(double); float u2f(unsigned long)
    func(
        &mut m,
        "u2d",
        plan(double(), vec![ulong()]),
        &[Type::I64],
        |b, _, p| {
            let r = b.conv(ConvOp::UToF, p[0], Type::F64);
            ret(b, r);
        },
    );
    func(
        &mut m,
        "u2f",
        plan(C::Float(FloatKind::Float), vec![ulong()]),
        &[Type::I64],
        |b, _, p| {
            let r = b.conv(ConvOp::UToF, p[0], Type::F32);
            ret(b, r);
        },
    );
    func(
        &mut m,
        "d2u",
        plan(ulong(), vec![double()]),
        &[Type::F64],
        |b, _, p| {
            let r = b.conv(ConvOp::FToU, p[0], Type::I64);
            ret(b, r);
        },
    );
    func(
        &mut m,
        "d2i",
        plan(int(), vec![double()]),
        &[Type::F64],
        |b, _, p| {
            let r = b.conv(ConvOp::FToS, p[0], Type::I32);
            ret(b, r);
        },
    );
    func(
        &mut m,
        "u32tod",
        plan(double(), vec![C::Int(IntKind::UInt)]),
        &[Type::I32],
        |b, _, p| {
            let r = b.conv(ConvOp::UToF, p[0], Type::F64);
            ret(b, r);
        },
    );
    // float compares: int fcmp_<cc>(double a, double b), value and branch forms
    let mut decls = String::new();
    let mut calls = String::new();
    for (cn, cc, sym) in [
        ("eq", FloatCC::Eq, "=="),
        ("ne", FloatCC::Ne, "!="),
        ("lt", FloatCC::Lt, "<"),
        ("le", FloatCC::Le, "<="),
        ("gt", FloatCC::Gt, ">"),
        ("ge", FloatCC::Ge, ">="),
    ] {
        let vn = format!("fv_{cn}");
        func(
            &mut m,
            &vn,
            plan(int(), vec![double(), double()]),
            &[Type::F64, Type::F64],
            |b, _, p| {
                let c = b.fcmp(cc, p[0], p[1]);
                let r = b.conv(ConvOp::Zext, c, Type::I32);
                ret(b, r);
            },
        );
        let bn = format!("fb_{cn}");
        func(
            &mut m,
            &bn,
            plan(int(), vec![double(), double()]),
            &[Type::F64, Type::F64],
            |b, _, p| {
                let c = b.fcmp(cc, p[0], p[1]);
                let t = b.new_block();
                let e = b.new_block();
                b.branch(c, t, e);
                b.switch_to(t);
                let one = b.iconst(Type::I32, 1);
                ret(b, one);
                b.switch_to(e);
                let zero = b.iconst(Type::I32, 0);
                ret(b, zero);
            },
        );
        let sn = format!("fs_{cn}");
        func(
            &mut m,
            &sn,
            plan(double(), vec![double(), double()]),
            &[Type::F64, Type::F64],
            |b, _, p| {
                let c = b.fcmp(cc, p[0], p[1]);
                let r = b.select(c, p[0], p[1]);
                ret(b, r);
            },
        );
        decls.push_str(&format!(
            "int {vn}(double,double); int {bn}(double,double); double {sn}(double,double);\n"
        ));
        for (a, bb) in [
            ("1.0", "2.0"),
            ("2.0", "1.0"),
            ("3.0", "3.0"),
            ("NAN", "1.0"),
            ("1.0", "NAN"),
        ] {
            calls.push_str(&format!(
                "  if ({vn}({a},{bb}) != ({a} {sym} {bb}) || {bn}({a},{bb}) != ({a} {sym} {bb})) printf(\"{cn} %s %s\\n\", \"{a}\", \"{bb}\");\n"
            ));
            calls.push_str(&format!(
                "  {{ double r = {sn}({a},{bb}), e = ({a} {sym} {bb}) ? {a} : {bb}; if (memcmp(&r, &e, 8)) printf(\"sel {cn} %s %s\\n\", \"{a}\", \"{bb}\"); }}\n"
            ));
        }
    }
    let driver = format!(
        r#"#include <stdio.h>
#include <math.h>
#include <string.h>
double poly(double, long); double u2d(unsigned long); float u2f(unsigned long);
unsigned long d2u(double); int d2i(double); double u32tod(unsigned);
{decls}
int main(void) {{
  printf("%.6f\n", poly(2.0, 3));
  unsigned long us[] = {{0, 1, 0x7fffffffffffffffUL, 0x8000000000000000UL, 0xffffffffffffffffUL, 0x8000000000000801UL, 12345}};
  for (int i = 0; i < 7; i++) printf("%d %d %d\n", u2d(us[i]) == (double)us[i], u2f(us[i]) == (float)us[i], u32tod((unsigned)us[i]) == (double)(unsigned)us[i]);
  double ds[] = {{0.0, 1.5, 9.2e18, 1.8e19, 4294967296.0, 123456789.9}};
  for (int i = 0; i < 6; i++) printf("%lu\n", d2u(ds[i]));
  printf("%d %d\n", d2i(-3.9), d2i(2.5e9 / 2));
{calls}
  printf("done\n");
  return 0;
}}
"#
    );
    run(
        "doubles",
        &m,
        &driver,
        "7.500000\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n1 1 1\n0\n1\n9200000000000000000\n18000000000000000000\n4294967296\n123456789\n-3 1250000000\ndone\n",
    );
}

#[test]
fn negation_of_floats_by_either_opcode() {
    let mut m = Module::default();
    for (name, op) in [("negd", UnaryOp::Neg), ("fnegd", UnaryOp::FNeg)] {
        func(
            &mut m,
            name,
            plan(double(), vec![double()]),
            &[Type::F64],
            |b, _, p| {
                let r = b.unary(op, p[0]);
                ret(b, r);
            },
        );
    }
    func(
        &mut m,
        "negf",
        plan(C::Float(FloatKind::Float), vec![C::Float(FloatKind::Float)]),
        &[Type::F32],
        |b, _, p| {
            let r = b.unary(UnaryOp::Neg, p[0]);
            ret(b, r);
        },
    );
    let driver = r#"#include <stdio.h>
#include <math.h>
double negd(double); double fnegd(double); float negf(float);
int main(void) {
  printf("%g %g %d %g %g\n", negd(2.5), fnegd(-1.5), signbit(negd(0.0)) != 0, negd(INFINITY), (double)negf(3.0f));
  return 0;
}
"#;
    run("fneg", &m, driver, "-2.5 1.5 1 -inf -3\n");
}
