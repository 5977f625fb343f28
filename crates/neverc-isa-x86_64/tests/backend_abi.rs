//! Execution tests of calls through plans (aggregates in memory, in xmm+gpr, sret), a
//! variadic callee, long double on the x87, switches, data with relocations, TLS, PIC,
//! alloca, atomics and computed goto.

#[path = "backend_common.rs"]
mod common;
use common::*;
use neverc_ir::*;

fn s3() -> C {
    C::structure([long(), long(), long()])
}
fn dl() -> C {
    C::structure([double(), long()])
}
fn ld() -> C {
    C::Float(FloatKind::LongDouble)
}

fn load(b: &mut FunctionBuilder, ty: Type, addr: Value, off: i32) -> Value {
    b.load(ty, addr, off, MemFlags::aligned(8))
}
fn store(b: &mut FunctionBuilder, v: Value, addr: Value, off: i32) {
    b.store(v, addr, off, MemFlags::aligned(8))
}

#[test]
fn aggregates_through_plans() {
    let mut m = Module::default();
    // long sum3(struct S3 s) { return s.a + s.b * 10 + s.c * 100; }
    func_ex(
        &mut m,
        "sum3",
        plan(long(), vec![s3()]),
        &[Type::Ptr],
        false,
        &[0],
        |b, _, p| {
            let a = load(b, Type::I64, p[0], 0);
            let bb = load(b, Type::I64, p[0], 8);
            let c = load(b, Type::I64, p[0], 16);
            let ten = b.iconst(Type::I64, 10);
            let h = b.iconst(Type::I64, 100);
            let bb = b.binary(BinaryOp::Mul, bb, ten);
            let c = b.binary(BinaryOp::Mul, c, h);
            let s = b.binary(BinaryOp::Add, a, bb);
            let s = b.binary(BinaryOp::Add, s, c);
            ret(b, s);
        },
    );
    // long call_csum3(long x) { struct S3 s = {x, x+1, x+2}; return csum3(s) + 1; }
    let csum3 = m.symbol("csum3", SymKind::Func);
    func(
        &mut m,
        "call_csum3",
        plan(long(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let slot = b.add_slot(24, 8);
            let a = b.slot_addr(slot);
            let one = b.iconst(Type::I64, 1);
            let two = b.iconst(Type::I64, 2);
            let x1 = b.binary(BinaryOp::Add, p[0], one);
            let x2 = b.binary(BinaryOp::Add, p[0], two);
            store(b, p[0], a, 0);
            store(b, x1, a, 8);
            store(b, x2, a, 16);
            let pl = b.add_plan(plan(long(), vec![s3()]));
            let r = b.call(Callee::Direct(csum3), vec![a], vec![0], pl, &[Type::I64]);
            let r = b.binary(BinaryOp::Add, r[0], one);
            ret(b, r);
        },
    );
    // struct DL mkdl(double d, long l) { return (struct DL){d * 2, l + 1}; }
    func(
        &mut m,
        "mkdl",
        plan(dl(), vec![double(), long()]),
        &[Type::F64, Type::I64],
        |b, _, p| {
            let d = b.binary(BinaryOp::FAdd, p[0], p[0]);
            let one = b.iconst(Type::I64, 1);
            let l = b.binary(BinaryOp::Add, p[1], one);
            b.push(Op::Return(vec![d, l]), None);
        },
    );
    // double usedl(struct DL x) { return x.d + x.l; }
    func(
        &mut m,
        "usedl",
        plan(double(), vec![dl()]),
        &[Type::F64, Type::I64],
        |b, _, p| {
            let l = b.conv(ConvOp::SToF, p[1], Type::F64);
            let r = b.binary(BinaryOp::FAdd, p[0], l);
            ret(b, r);
        },
    );
    // struct S3 mk3(long x) { return (struct S3){x, -x, x * x}; }  (sret)
    func(
        &mut m,
        "mk3",
        plan(s3(), vec![long()]),
        &[Type::I64, Type::Ptr],
        |b, _, p| {
            let n = b.unary(UnaryOp::Neg, p[0]);
            let sq = b.binary(BinaryOp::Mul, p[0], p[0]);
            store(b, p[0], p[1], 0);
            store(b, n, p[1], 8);
            store(b, sq, p[1], 16);
            ret(b, p[1]);
        },
    );
    // long call_cmk3(long x) { struct S3 s = cmk3(x); return s.a + s.b + s.c; }
    let cmk3 = m.symbol("cmk3", SymKind::Func);
    func(
        &mut m,
        "call_cmk3",
        plan(long(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let slot = b.add_slot(24, 8);
            let a = b.slot_addr(slot);
            let pl = b.add_plan(plan(s3(), vec![long()]));
            b.call(
                Callee::Direct(cmk3),
                vec![p[0], a],
                vec![],
                pl,
                &[Type::Ptr],
            );
            let x = load(b, Type::I64, a, 0);
            let y = load(b, Type::I64, a, 8);
            let z = load(b, Type::I64, a, 16);
            let s = b.binary(BinaryOp::Add, x, y);
            let s = b.binary(BinaryOp::Add, s, z);
            ret(b, s);
        },
    );
    // Many arguments: long many(long a..h, double d0..d9) mixes registers and stack.
    let mut params = vec![long(); 8];
    params.extend(vec![double(); 10]);
    let mut tys = vec![Type::I64; 8];
    tys.extend(vec![Type::F64; 10]);
    func(
        &mut m,
        "many",
        plan(long(), params.clone()),
        &tys,
        |b, _, p| {
            let mut s = p[0];
            for (i, &v) in p[1..8].iter().enumerate() {
                let k = b.iconst(Type::I64, i as i128 + 2);
                let t = b.binary(BinaryOp::Mul, v, k);
                s = b.binary(BinaryOp::Add, s, t);
            }
            let mut d = p[8];
            for &v in &p[9..] {
                d = b.binary(BinaryOp::FAdd, d, v);
            }
            let di = b.conv(ConvOp::FToS, d, Type::I64);
            let r = b.binary(BinaryOp::Add, s, di);
            ret(b, r);
        },
    );
    // long call_cmany(void) calls the C version with constants.
    let cmany = m.symbol("cmany", SymKind::Func);
    func(
        &mut m,
        "call_cmany",
        plan(long(), vec![]),
        &[],
        |b, _, _| {
            let pl = b.add_plan(plan(long(), params.clone()));
            let mut args = Vec::new();
            for i in 0..8 {
                args.push(b.iconst(Type::I64, i + 1));
            }
            for i in 0..10u32 {
                args.push(b.fconst(Type::F64, (i as f64 + 0.5).to_bits() as u128));
            }
            let r = b.call(Callee::Direct(cmany), args, vec![], pl, &[Type::I64]);
            ret(b, r[0]);
        },
    );
    let driver = r#"#include <stdio.h>
struct S3 { long a, b, c; }; struct DL { double d; long l; };
long sum3(struct S3); long call_csum3(long); struct DL mkdl(double, long); double usedl(struct DL);
struct S3 mk3(long); long call_cmk3(long);
long many(long,long,long,long,long,long,long,long,double,double,double,double,double,double,double,double,double,double);
long call_cmany(void);
long csum3(struct S3 s) { return s.a * 3 + s.b * 5 + s.c * 7; }
struct S3 cmk3(long x) { struct S3 s = { x + 1, x + 2, x * 3 }; return s; }
long cmany(long a, long b, long c, long d, long e, long f, long g, long h, double d0, double d1, double d2, double d3, double d4, double d5, double d6, double d7, double d8, double d9) {
  return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + (long)(d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7 + d8 + d9 * 10);
}
int main(void) {
  struct S3 s = { 1, 2, 3 };
  printf("%ld %ld\n", sum3(s), call_csum3(10));
  struct DL x = mkdl(1.25, 41);
  printf("%g %ld %g\n", x.d, x.l, usedl(x));
  struct S3 t = mk3(7);
  printf("%ld %ld %ld %ld\n", t.a, t.b, t.c, call_cmk3(5));
  printf("%ld %ld\n", many(1,2,3,4,5,6,7,8, 0.5,1,2,3,4,5,6,7,8,9), call_cmany());
  return 0;
}
"#;
    run(
        "aggregates",
        &m,
        driver,
        "321 170\n2.5 42 44.5\n7 -7 49 28\n249 339\n",
    );
}

#[test]
fn variadic_callee_reads_va_list() {
    // long vsum(int n, ...): sums n longs, then one double (as long) if n < 0 ... keep simple:
    // long vsum(int n, ...) { long s = 0; va_list ap; va_start(ap, n);
    //   while (n--) s += va_arg(ap, long); double d = va_arg(ap, double); return s + (long)d; }
    let mut m = Module::default();
    let p = vplan(long(), vec![int()], 1);
    let tys: Vec<Type> = p
        .arguments
        .iter()
        .map(|l| if l.size == 1 { Type::I8 } else { Type::I32 })
        .collect();
    func_ex(&mut m, "vsum", p, &tys, true, &[], |b, _, p| {
        let ap = b.add_slot(24, 8);
        let apa = b.slot_addr(ap);
        b.push(Op::VaStart(apa), None);
        let head = b.new_block();
        let body = b.new_block();
        let inreg = b.new_block();
        let onstack = b.new_block();
        let join = b.new_block();
        let done = b.new_block();
        let n = b.add_param(head, Type::I32);
        let s = b.add_param(head, Type::I64);
        let zero = b.iconst(Type::I64, 0);
        b.jump(head, vec![p[0], zero]);
        b.switch_to(head);
        let z32 = b.iconst(Type::I32, 0);
        let c = b.icmp(IntCC::Ne, n, z32);
        b.branch(c, body, done);
        b.switch_to(body);
        let apa = b.slot_addr(ap);
        let gp = b.load(Type::I32, apa, 0, MemFlags::aligned(4));
        let lim = b.iconst(Type::I32, 48);
        let c = b.icmp(IntCC::Ult, gp, lim);
        b.branch(c, inreg, onstack);
        b.switch_to(inreg);
        let rsa = load(b, Type::Ptr, apa, 16);
        let gp64 = b.conv(ConvOp::Zext, gp, Type::I64);
        let rsai = b.conv(ConvOp::Bitcast, rsa, Type::I64);
        let addr = b.binary(BinaryOp::Add, rsai, gp64);
        let addr = b.conv(ConvOp::Bitcast, addr, Type::Ptr);
        let eight = b.iconst(Type::I32, 8);
        let gp2 = b.binary(BinaryOp::Add, gp, eight);
        b.store(gp2, apa, 0, MemFlags::aligned(4));
        b.jump(join, vec![addr]);
        b.switch_to(onstack);
        let ov = load(b, Type::Ptr, apa, 8);
        let ovi = b.conv(ConvOp::Bitcast, ov, Type::I64);
        let e8 = b.iconst(Type::I64, 8);
        let ov2 = b.binary(BinaryOp::Add, ovi, e8);
        let ov2 = b.conv(ConvOp::Bitcast, ov2, Type::Ptr);
        store(b, ov2, apa, 8);
        b.jump(join, vec![ov]);
        b.switch_to(join);
        let at = b.add_param(join, Type::Ptr);
        let v = load(b, Type::I64, at, 0);
        let s2 = b.binary(BinaryOp::Add, s, v);
        let one = b.iconst(Type::I32, 1);
        let n2 = b.binary(BinaryOp::Sub, n, one);
        b.jump(head, vec![n2, s2]);
        b.switch_to(done);
        // the double: fp_offset < 176 ? reg_save_area + fp_offset : overflow
        let apa = b.slot_addr(ap);
        let fp = b.load(Type::I32, apa, 4, MemFlags::aligned(4));
        let lim = b.iconst(Type::I32, 176);
        let c = b.icmp(IntCC::Ult, fp, lim);
        let freg = b.new_block();
        let fstk = b.new_block();
        let fjoin = b.new_block();
        b.branch(c, freg, fstk);
        b.switch_to(freg);
        let rsa = load(b, Type::Ptr, apa, 16);
        let fp64 = b.conv(ConvOp::Zext, fp, Type::I64);
        let rsai = b.conv(ConvOp::Bitcast, rsa, Type::I64);
        let addr = b.binary(BinaryOp::Add, rsai, fp64);
        let addr = b.conv(ConvOp::Bitcast, addr, Type::Ptr);
        b.jump(fjoin, vec![addr]);
        b.switch_to(fstk);
        let ov = load(b, Type::Ptr, apa, 8);
        b.jump(fjoin, vec![ov]);
        b.switch_to(fjoin);
        let at = b.add_param(fjoin, Type::Ptr);
        let d = load(b, Type::F64, at, 0);
        let di = b.conv(ConvOp::FToS, d, Type::I64);
        let r = b.binary(BinaryOp::Add, s, di);
        ret(b, r);
    });
    let driver = r#"#include <stdio.h>
long vsum(int n, ...);
int main(void) {
  printf("%ld\n", vsum(0, 5.5));
  printf("%ld\n", vsum(3, 1L, 2L, 3L, 100.0));
  printf("%ld\n", vsum(8, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 1000.0));
  printf("%ld\n", vsum(2, 10L, 20L, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));
  return 0;
}
"#;
    run("variadic", &m, driver, "5\n106\n1036\n31\n");
}

#[test]
fn long_double_on_the_x87() {
    let mut m = Module::default();
    // long double ldf(long double a, long double b) { return a * b + 1 - a / b; }
    func(
        &mut m,
        "ldf",
        plan(ld(), vec![ld(), ld()]),
        &[Type::F80, Type::F80],
        |b, _, p| {
            let t = b.binary(BinaryOp::FMul, p[0], p[1]);
            let one = b.fconst(Type::F80, 0x3fff_8000_0000_0000_0000u128);
            let t = b.binary(BinaryOp::FAdd, t, one);
            let q = b.binary(BinaryOp::FDiv, p[0], p[1]);
            let r = b.binary(BinaryOp::FSub, t, q);
            ret(b, r);
        },
    );
    // double ld2d(long x) { long double v = (long double)x * 3; return (double)(-v) + cld(v); }
    let cld = m.symbol("cld", SymKind::Func);
    func(
        &mut m,
        "ld2d",
        plan(double(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let v = b.conv(ConvOp::SToF, p[0], Type::F80);
            let three = b.conv(ConvOp::SToF, p[0], Type::F80);
            let v = b.binary(BinaryOp::FAdd, v, three);
            let v = b.binary(BinaryOp::FAdd, v, three);
            let n = b.unary(UnaryOp::FNeg, v);
            let nd = b.conv(ConvOp::FTrunc, n, Type::F64);
            let pl = b.add_plan(plan(ld(), vec![ld()]));
            let r = b.call(Callee::Direct(cld), vec![v], vec![], pl, &[Type::F80]);
            let rd = b.conv(ConvOp::FTrunc, r[0], Type::F64);
            let s = b.binary(BinaryOp::FAdd, nd, rd);
            ret(b, s);
        },
    );
    // unsigned long ld2u(long double) ; long double u2ld(unsigned long); int ldlt(ld, ld)
    func(
        &mut m,
        "ld2u",
        plan(ulong(), vec![ld()]),
        &[Type::F80],
        |b, _, p| {
            let r = b.conv(ConvOp::FToU, p[0], Type::I64);
            ret(b, r);
        },
    );
    func(
        &mut m,
        "u2ld",
        plan(ld(), vec![ulong()]),
        &[Type::I64],
        |b, _, p| {
            let r = b.conv(ConvOp::UToF, p[0], Type::F80);
            ret(b, r);
        },
    );
    for (n, cc) in [
        ("ldlt", FloatCC::Lt),
        ("ldeq", FloatCC::Eq),
        ("ldne", FloatCC::Ne),
    ] {
        func(
            &mut m,
            n,
            plan(int(), vec![ld(), ld()]),
            &[Type::F80, Type::F80],
            |b, _, p| {
                let c = b.fcmp(cc, p[0], p[1]);
                let r = b.conv(ConvOp::Zext, c, Type::I32);
                ret(b, r);
            },
        );
    }
    let driver = r#"#include <stdio.h>
#include <math.h>
long double ldf(long double, long double); double ld2d(long); unsigned long ld2u(long double);
long double u2ld(unsigned long); int ldlt(long double, long double); int ldeq(long double, long double); int ldne(long double, long double);
long double cld(long double x) { return x / 2; }
int main(void) {
  printf("%.6Lf\n", ldf(3.0L, 4.0L));
  printf("%.3f\n", ld2d(7));
  printf("%lu %lu %lu\n", ld2u(12.75L), ld2u(18446744073709551615.0L), ld2u(9223372036854775808.0L));
  printf("%.1Lf %.1Lf\n", u2ld(18446744073709551615UL), u2ld(5));
  long double n = NAN;
  printf("%d %d %d %d %d %d %d %d %d\n", ldlt(1, 2), ldlt(2, 1), ldlt(n, 1), ldeq(2, 2), ldeq(n, n), ldeq(1, 2), ldne(n, n), ldne(1, 1), ldne(1, 2));
  return 0;
}
"#;
    run(
        "longdouble",
        &m,
        driver,
        "12.250000\n-10.500\n12 18446744073709551615 9223372036854775808\n18446744073709551615.0 5.0\n1 0 0 1 0 0 1 0 1\n",
    );
}

#[test]
fn switches_dense_and_sparse() {
    let mut m = Module::default();
    for (name, cases, ty) in [
        ("dense", vec![0i128, 1, 2, 3, 4, 5, 7, 9], Type::I32),
        ("sparse", vec![-5i128, 1, 100, 1000, 77777], Type::I32),
        ("dense8", vec![-3i128, -2, -1, 0, 1, 2], Type::I8),
        (
            "dense64",
            vec![1i128 << 40, (1 << 40) + 1, (1 << 40) + 2, (1 << 40) + 4],
            Type::I64,
        ),
    ] {
        let ct = match ty {
            Type::I8 => C::Int(IntKind::SChar),
            Type::I64 => long(),
            _ => int(),
        };
        func(&mut m, name, plan(int(), vec![ct]), &[ty], |b, _, p| {
            let mut blocks = Vec::new();
            for (i, _) in cases.iter().enumerate() {
                let blk = b.new_block();
                blocks.push(blk);
                let _ = i;
            }
            let dflt = b.new_block();
            let join = b.new_block();
            let r = b.add_param(join, Type::I32);
            b.push(
                Op::Switch {
                    value: p[0],
                    cases: cases.iter().copied().zip(blocks.iter().copied()).collect(),
                    default: dflt,
                },
                None,
            );
            for (i, &blk) in blocks.iter().enumerate() {
                b.switch_to(blk);
                let v = b.iconst(Type::I32, (i as i128 + 1) * 11);
                b.jump(join, vec![v]);
            }
            b.switch_to(dflt);
            let v = b.iconst(Type::I32, -1);
            b.jump(join, vec![v]);
            b.switch_to(join);
            ret(b, r);
        });
    }
    let driver = r#"#include <stdio.h>
int dense(int); int sparse(int); int dense8(signed char); int dense64(long);
int main(void) {
  for (int i = -2; i < 12; i++) printf("%d ", dense(i));
  printf("\n");
  int s[] = {-5, 1, 100, 1000, 77777, 0, 2, -1000000};
  for (int i = 0; i < 8; i++) printf("%d ", sparse(s[i]));
  printf("\n");
  for (int i = -5; i < 4; i++) printf("%d ", dense8(i));
  printf("\n");
  for (long i = (1L << 40) - 1; i < (1L << 40) + 6; i++) printf("%d ", dense64(i));
  printf("%d\n", dense64(1));
  return 0;
}
"#;
    run(
        "switch",
        &m,
        driver,
        "-1 -1 11 22 33 44 55 66 -1 77 -1 88 -1 -1 \n11 22 33 44 55 -1 -1 -1 \n-1 -1 11 22 33 44 55 66 -1 \n-1 11 22 33 -1 44 -1 -1\n",
    );
}

/// Data with relocations, a TLS variable defined here and one defined by the driver,
/// readable both from a PIE and from a shared library.
fn data_module() -> Module {
    let mut m = Module::default();
    let arr = define(&mut m, "arr", SymKind::Object);
    m.data.push(DataObject {
        sym: arr,
        size: 12,
        align: 4,
        bytes: [1i32, 2, 3].iter().flat_map(|x| x.to_le_bytes()).collect(),
        relocs: vec![],
        readonly: false,
        common: false,
        block_relocs: vec![],
    });
    let parr = define(&mut m, "parr", SymKind::Object);
    m.data.push(DataObject {
        sym: parr,
        size: 8,
        align: 8,
        bytes: vec![0; 8],
        relocs: vec![(0, arr, 4, 8)],
        readonly: false,
        common: false,
        block_relocs: vec![],
    });
    let hello = define(&mut m, ".Lstr", SymKind::Object);
    m.symbols[hello.index()].binding = Binding::Local;
    m.symbols[hello.index()].local = true;
    m.data.push(DataObject {
        sym: hello,
        size: 6,
        align: 1,
        bytes: b"hello\0".to_vec(),
        relocs: vec![],
        readonly: true,
        common: false,
        block_relocs: vec![],
    });
    let strs = define(&mut m, "strs", SymKind::Object);
    m.symbols[strs.index()].binding = Binding::Local;
    m.symbols[strs.index()].local = true;
    m.data.push(DataObject {
        sym: strs,
        size: 16,
        align: 8,
        bytes: vec![],
        relocs: vec![(0, hello, 0, 8), (8, hello, 1, 8)],
        readonly: true,
        common: false,
        block_relocs: vec![],
    });
    let zeros = define(&mut m, "zeros", SymKind::Object);
    m.data.push(DataObject {
        sym: zeros,
        size: 64,
        align: 16,
        bytes: vec![],
        relocs: vec![],
        readonly: false,
        common: false,
        block_relocs: vec![],
    });
    let tcount = define(&mut m, "tcount", SymKind::Tls);
    m.data.push(DataObject {
        sym: tcount,
        size: 8,
        align: 8,
        bytes: 5i64.to_le_bytes().to_vec(),
        relocs: vec![],
        readonly: false,
        common: false,
        block_relocs: vec![],
    });
    let text = m.symbol("ext_t", SymKind::Tls);
    let ext = m.symbol("ext_counter", SymKind::Object);
    // long readall(void): *parr + strs[1][0] + ++tcount + ext_t + ext_counter + zeros[3]
    func(&mut m, "readall", plan(long(), vec![]), &[], |b, _, _| {
        let pa = b.sym_addr(parr, 0);
        let p = load(b, Type::Ptr, pa, 0);
        let v = b.load(Type::I32, p, 0, MemFlags::aligned(4));
        let v = b.conv(ConvOp::Sext, v, Type::I64);
        let sa = b.sym_addr(strs, 0);
        let s1 = load(b, Type::Ptr, sa, 8);
        let ch = b.load(Type::I8, s1, 0, MemFlags::aligned(1));
        let ch = b.conv(ConvOp::Zext, ch, Type::I64);
        let t = b.sym_addr(tcount, 0);
        let tv = load(b, Type::I64, t, 0);
        let one = b.iconst(Type::I64, 1);
        let tv = b.binary(BinaryOp::Add, tv, one);
        store(b, tv, t, 0);
        let e = b.sym_addr(text, 0);
        let ev = load(b, Type::I64, e, 0);
        let x = b.sym_addr(ext, 0);
        let xv = load(b, Type::I64, x, 0);
        let z = b.sym_addr(zeros, 24);
        let zv = load(b, Type::I64, z, 0);
        let s = b.binary(BinaryOp::Add, v, ch);
        let s = b.binary(BinaryOp::Add, s, tv);
        let s = b.binary(BinaryOp::Add, s, ev);
        let s = b.binary(BinaryOp::Add, s, xv);
        let s = b.binary(BinaryOp::Add, s, zv);
        ret(b, s);
    });
    m
}

#[test]
fn data_relocations_and_tls() {
    let m = data_module();
    let driver = r#"#include <stdio.h>
long readall(void); extern int arr[3]; extern long tcount;
__thread long ext_t = 1000; long ext_counter = 20000;
int main(void) {
  printf("%ld\n", readall());
  printf("%ld\n", readall());
  return 0;
}
"#;
    // 2 + 'e' (101) + 6 + 1000 + 20000 + 0 = 21109, then tcount 7.
    run("data", &m, driver, "21109\n21110\n");
}

#[test]
fn pic_shared_library() {
    let mut m = data_module();
    // Under -fPIC, an external TLS variable would need general-dynamic: drop that term by
    // making ext_t local to this module is not possible, so use a variant without it.
    let f = m.functions.pop().unwrap();
    let _ = f;
    let parr = m.by_name["parr"];
    let ext = m.by_name["ext_counter"];
    let tcount = m.by_name["tcount"];
    m.symbols[tcount.index()].local = true;
    m.symbols[tcount.index()].binding = Binding::Local;
    let puts = m.symbol("puts", SymKind::Func);
    let strs = m.by_name["strs"];
    func(&mut m, "readpic", plan(long(), vec![]), &[], |b, _, _| {
        let pa = b.sym_addr(parr, 0);
        let p = load(b, Type::Ptr, pa, 0);
        let v = b.load(Type::I32, p, 0, MemFlags::aligned(4));
        let v = b.conv(ConvOp::Sext, v, Type::I64);
        let x = b.sym_addr(ext, 0);
        let xv = load(b, Type::I64, x, 0);
        let t = b.sym_addr(tcount, 0);
        let tv = load(b, Type::I64, t, 0);
        let sa = b.sym_addr(strs, 0);
        let s0 = load(b, Type::Ptr, sa, 0);
        let pl = b.add_plan(plan(int(), vec![C::Pointer]));
        b.call(Callee::Direct(puts), vec![s0], vec![], pl, &[Type::I32]);
        let s = b.binary(BinaryOp::Add, v, xv);
        let s = b.binary(BinaryOp::Add, s, tv);
        ret(b, s);
    });
    let driver = r#"#include <stdio.h>
long readpic(void);
long ext_counter = 300;
__thread long ext_t = 1;
int main(void) { printf("%ld\n", readpic()); return 0; }
"#;
    run_with("pic", &m, driver, "hello\n307\n", Pic::Pic, &[]);
}

#[test]
fn alloca_atomics_and_computed_goto() {
    let mut m = Module::default();
    // long va(long n) { long *p = alloca(n * 8); for i: p[i] = i; return csumarr(p, n) + n; }
    let csumarr = m.symbol("csumarr", SymKind::Func);
    func(
        &mut m,
        "va",
        plan(long(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let saved = b.push(Op::StackSave, Some(Type::Ptr)).unwrap();
            let eight = b.iconst(Type::I64, 8);
            let sz = b.binary(BinaryOp::Mul, p[0], eight);
            let a = b
                .push(
                    Op::Alloca {
                        size: sz,
                        align: 16,
                    },
                    Some(Type::Ptr),
                )
                .unwrap();
            let head = b.new_block();
            let body = b.new_block();
            let exit = b.new_block();
            let i = b.add_param(head, Type::I64);
            let zero = b.iconst(Type::I64, 0);
            b.jump(head, vec![zero]);
            b.switch_to(head);
            let c = b.icmp(IntCC::Slt, i, p[0]);
            b.branch(c, body, exit);
            b.switch_to(body);
            let off = b.binary(BinaryOp::Mul, i, eight);
            let ai = b.conv(ConvOp::Bitcast, a, Type::I64);
            let at = b.binary(BinaryOp::Add, ai, off);
            let at = b.conv(ConvOp::Bitcast, at, Type::Ptr);
            store(b, i, at, 0);
            let one = b.iconst(Type::I64, 1);
            let i2 = b.binary(BinaryOp::Add, i, one);
            b.jump(head, vec![i2]);
            b.switch_to(exit);
            let pl = b.add_plan(plan(long(), vec![C::Pointer, long()]));
            let r = b.call(
                Callee::Direct(csumarr),
                vec![a, p[0]],
                vec![],
                pl,
                &[Type::I64],
            );
            b.push(Op::StackRestore(saved), None);
            let r = b.binary(BinaryOp::Add, r[0], p[0]);
            ret(b, r);
        },
    );
    // long atom(long *p): old = fetch_add(p, 5); fetch_or(p, 0x100); cas(p, 0x10f, 7) -> ...
    func(
        &mut m,
        "atom",
        plan(long(), vec![C::Pointer]),
        &[Type::Ptr],
        |b, _, p| {
            let five = b.iconst(Type::I64, 5);
            let old = b
                .push(
                    Op::AtomicRmw {
                        op: AtomicOp::Add,
                        ty: Type::I64,
                        addr: p[0],
                        value: five,
                    },
                    Some(Type::I64),
                )
                .unwrap();
            let k = b.iconst(Type::I64, 0x100);
            let o2 = b
                .push(
                    Op::AtomicRmw {
                        op: AtomicOp::Or,
                        ty: Type::I64,
                        addr: p[0],
                        value: k,
                    },
                    Some(Type::I64),
                )
                .unwrap();
            let e = b.iconst(Type::I64, 0x10f);
            let n = b.iconst(Type::I64, 7);
            let o3 = b
                .push(
                    Op::AtomicCas {
                        ty: Type::I64,
                        addr: p[0],
                        expected: e,
                        new: n,
                    },
                    Some(Type::I64),
                )
                .unwrap();
            b.push(Op::Fence, None);
            let s = b.binary(BinaryOp::Add, old, o2);
            let s = b.binary(BinaryOp::Add, s, o3);
            ret(b, s);
        },
    );
    // int cg(int i): static void *t[] = {&&a, &&b, &&c}; goto *t[i]; a: 1, b: 2, c: 3
    let tab = define(&mut m, "cgtab", SymKind::Object);
    m.symbols[tab.index()].binding = Binding::Local;
    m.symbols[tab.index()].local = true;
    let cg = define(&mut m, "cg", SymKind::Func);
    {
        let mut b = FunctionBuilder::new(cg, plan(int(), vec![int()]), false);
        let i = b.add_param(Block(0), Type::I32);
        let blocks: Vec<Block> = (0..3).map(|_| b.new_block()).collect();
        let ta = b.sym_addr(tab, 0);
        let i64v = b.conv(ConvOp::Sext, i, Type::I64);
        let eight = b.iconst(Type::I64, 8);
        let off = b.binary(BinaryOp::Mul, i64v, eight);
        let tai = b.conv(ConvOp::Bitcast, ta, Type::I64);
        let at = b.binary(BinaryOp::Add, tai, off);
        let at = b.conv(ConvOp::Bitcast, at, Type::Ptr);
        let dest = load(&mut b, Type::Ptr, at, 0);
        // Also take one address in code: if i == 3 go to c through BlockAddr.
        let three = b.iconst(Type::I32, 3);
        let is3 = b.icmp(IntCC::Eq, i, three);
        let bc = b.push(Op::BlockAddr(blocks[2]), Some(Type::Ptr)).unwrap();
        let dest = b.select(is3, bc, dest);
        b.push(
            Op::IndirectJump {
                addr: dest,
                targets: blocks.clone(),
            },
            None,
        );
        for (k, &blk) in blocks.iter().enumerate() {
            b.switch_to(blk);
            let v = b.iconst(Type::I32, k as i128 + 1);
            ret(&mut b, v);
        }
        let f = b.finish();
        verify(&f).unwrap();
        m.functions.push(f);
        m.data.push(DataObject {
            sym: tab,
            size: 24,
            align: 8,
            bytes: vec![],
            relocs: vec![],
            readonly: true,
            common: false,
            block_relocs: blocks
                .iter()
                .enumerate()
                .map(|(k, &bl)| (k as u64 * 8, cg, bl))
                .collect(),
        });
    }
    let driver = r#"#include <stdio.h>
long va(long); long atom(long *); int cg(int);
long csumarr(long *p, long n) { long s = 0; for (long i = 0; i < n; i++) s += p[i]; return s; }
int main(void) {
  printf("%ld %ld %ld\n", va(1), va(10), va(1000));
  long x = 10; long r = atom(&x);
  printf("%ld %ld\n", r, x);
  printf("%d %d %d %d\n", cg(0), cg(1), cg(2), cg(3));
  return 0;
}
"#;
    run("misc", &m, driver, "1 55 500500\n296 7\n1 2 3 3\n");
}

#[test]
fn unwinding_through_generated_code() {
    // long through(long x) { return cb(x) + 1; } with a callee-saved register live across
    // the call, so the FDE describes a saved register too.
    let mut m = Module::default();
    let cb = m.symbol("cb", SymKind::Func);
    func(
        &mut m,
        "through",
        plan(long(), vec![long()]),
        &[Type::I64],
        |b, _, p| {
            let pl = b.add_plan(plan(long(), vec![long()]));
            let r = b.call(Callee::Direct(cb), vec![p[0]], vec![], pl, &[Type::I64]);
            let s = b.binary(BinaryOp::Add, r[0], p[0]);
            ret(b, s);
        },
    );
    let driver = r#"#include <stdio.h>
#include <execinfo.h>
long through(long);
long cb(long x) { void *buf[16]; return backtrace(buf, 16) >= 4 ? x : -1000; }
int main(void) { printf("%ld\n", through(21)); return 0; }
"#;
    run("unwind", &m, driver, "42\n");
}

#[test]
fn function_addresses_and_over_aligned_stack_data() {
    let mut m = Module::default();
    // int callptr(const char *s) { int (*p)(const char *) = puts; return p(s) > 0; }
    let puts = m.symbol("puts", SymKind::Func);
    func(
        &mut m,
        "callptr",
        plan(int(), vec![C::Pointer]),
        &[Type::Ptr],
        |b, _, p| {
            let fp = b.sym_addr(puts, 0);
            let pl = b.add_plan(plan(int(), vec![C::Pointer]));
            let r = b.call(Callee::Indirect(fp), vec![p[0]], vec![], pl, &[Type::I32]);
            let z = b.iconst(Type::I32, 0);
            let c = b.icmp(IntCC::Sgt, r[0], z);
            let r = b.conv(ConvOp::Zext, c, Type::I32);
            ret(b, r);
        },
    );
    // double pass_v(double k): struct V __attribute__((aligned(32))) v = {k, 2k, 3k, 4k};
    // return sumv(3, 0.5, 0.25, 0.125, v) (a variadic callee compiled by cc reads it).
    let v = C::aligned(C::structure([double(), double(), double(), double()]), 32);
    let sumv = m.symbol("sumv", SymKind::Func);
    func(
        &mut m,
        "pass_v",
        plan(double(), vec![double()]),
        &[Type::F64],
        |b, _, p| {
            let slot = b.add_slot(32, 32);
            let a = b.slot_addr(slot);
            let mut k = p[0];
            for i in 0..4 {
                b.store(k, a, 8 * i, MemFlags::aligned(8));
                k = b.binary(BinaryOp::FAdd, k, p[0]);
            }
            let pl = b.add_plan(vplan(
                double(),
                vec![int(), double(), double(), double(), v.clone()],
                1,
            ));
            let plan_ref = b.func.plans[pl.index()].clone();
            let n = b.iconst(Type::I32, 3);
            let mut args = vec![n];
            for x in [0.5f64, 0.25, 0.125] {
                args.push(b.fconst(Type::F64, x.to_bits() as u128));
            }
            args.push(a);
            let mut arg_mem = vec![4];
            // The vacount location.
            if plan_ref.arguments.len() > 5 {
                args.push(b.iconst(Type::I8, 3));
            }
            arg_mem.retain(|&i| {
                matches!(
                    plan_ref.arguments[i as usize].place,
                    neverc_abi::Place::Stack(_)
                )
            });
            let r = b.call(Callee::Direct(sumv), args, arg_mem, pl, &[Type::F64]);
            // the slot's address must be 32-aligned
            let ai = b.conv(ConvOp::Bitcast, a, Type::I64);
            let mask = b.iconst(Type::I64, 31);
            let low = b.binary(BinaryOp::And, ai, mask);
            let lowf = b.conv(ConvOp::SToF, low, Type::F64);
            let s = b.binary(BinaryOp::FAdd, r[0], lowf);
            ret(b, s);
        },
    );
    let driver = r#"#include <stdio.h>
#include <stdarg.h>
struct V { double a, b, c, d; } __attribute__((aligned(32)));
int callptr(const char *); double pass_v(double);
double sumv(int n, ...) {
  va_list ap; va_start(ap, n); double s = 0;
  while (n--) s += va_arg(ap, double);
  struct V v = va_arg(ap, struct V); va_end(ap);
  return s + v.a + v.b * 10 + v.c * 100 + v.d * 1000;
}
int main(void) {
  printf("%d\n", callptr("via pointer"));
  printf("%g %g\n", pass_v(1), pass_v(2));
  return 0;
}
"#;
    run("fnaddr", &m, driver, "via pointer\n1\n4321.88 8642.88\n");
}
