//! Less common operations at every width: atomics (all read-modify-write operations and
//! compare-and-swap on 8/16/32/64 bits), small-integer and unsigned conversions, bitcasts,
//! float selects and fused float branches, a 16-bit switch, traps.

#[path = "backend_common.rs"]
mod common;
use common::*;
use neverc_ir::*;

#[test]
fn atomics_of_every_width() {
    let mut m = Module::default();
    let mut decls = String::new();
    let mut body = String::new();
    for (wn, w, ct) in [
        ("8", Type::I8, "unsigned char"),
        ("16", Type::I16, "unsigned short"),
        ("32", Type::I32, "unsigned"),
        ("64", Type::I64, "unsigned long"),
    ] {
        for (on, op, cop) in [
            ("xchg", AtomicOp::Xchg, "="),
            ("add", AtomicOp::Add, "+="),
            ("sub", AtomicOp::Sub, "-="),
            ("and", AtomicOp::And, "&="),
            ("or", AtomicOp::Or, "|="),
            ("xor", AtomicOp::Xor, "^="),
            ("nand", AtomicOp::Nand, "nand"),
        ] {
            // T rmw(T *p, T v) returns the old value
            let name = format!("rmw_{on}_{wn}");
            let ctype = match wn {
                "8" => C::Int(IntKind::UChar),
                "16" => C::Int(IntKind::UShort),
                "32" => C::Int(IntKind::UInt),
                _ => ulong(),
            };
            func(
                &mut m,
                &name,
                plan(ctype.clone(), vec![C::Pointer, ctype.clone()]),
                &[Type::Ptr, w],
                |b, _, p| {
                    let r = b
                        .push(
                            Op::AtomicRmw {
                                op,
                                ty: w,
                                addr: p[0],
                                value: p[1],
                            },
                            Some(w),
                        )
                        .unwrap();
                    ret(b, r);
                },
            );
            decls.push_str(&format!("{ct} {name}({ct} *, {ct});\n"));
            let upd = if cop == "nand" {
                "e = ~(e & v);".to_string()
            } else {
                format!("e {cop} v;")
            };
            body.push_str(&format!(
                "  {{ {ct} x = ({ct})0xa5c3f00f12345678UL, e = x, v = ({ct})0x0ff0f0f0cafe1234UL; {ct} o = {name}(&x, v); {upd} if (o != ({ct})0xa5c3f00f12345678UL || x != e) printf(\"{name}\\n\"); }}\n"
            ));
        }
        let name = format!("cas_{wn}");
        let ctype = match wn {
            "8" => C::Int(IntKind::UChar),
            "16" => C::Int(IntKind::UShort),
            "32" => C::Int(IntKind::UInt),
            _ => ulong(),
        };
        func(
            &mut m,
            &name,
            plan(
                ctype.clone(),
                vec![C::Pointer, ctype.clone(), ctype.clone()],
            ),
            &[Type::Ptr, w, w],
            |b, _, p| {
                let r = b
                    .push(
                        Op::AtomicCas {
                            ty: w,
                            addr: p[0],
                            expected: p[1],
                            new: p[2],
                        },
                        Some(w),
                    )
                    .unwrap();
                ret(b, r);
            },
        );
        decls.push_str(&format!("{ct} {name}({ct} *, {ct}, {ct});\n"));
        body.push_str(&format!(
            "  {{ {ct} x = 7; if ({name}(&x, 7, 9) != 7 || x != 9 || {name}(&x, 7, 11) != 9 || x != 9) printf(\"{name}\\n\"); }}\n"
        ));
    }
    let driver = format!(
        "#include <stdio.h>\n{decls}int main(void) {{\n{body}  printf(\"done\\n\");\n  return 0;\n}}\n"
    );
    run("atomics", &m, &driver, "done\n");
}

#[test]
fn narrow_conversions_selects_and_switches() {
    let mut m = Module::default();
    // Each: double f(<int type> x) or <int type> f(double)
    let cases: Vec<(&str, C, Type, ConvOp, C, Type)> = vec![
        (
            "s8tod",
            C::Int(IntKind::SChar),
            Type::I8,
            ConvOp::SToF,
            double(),
            Type::F64,
        ),
        (
            "u8tod",
            C::Int(IntKind::UChar),
            Type::I8,
            ConvOp::UToF,
            double(),
            Type::F64,
        ),
        (
            "s16tof",
            C::Int(IntKind::Short),
            Type::I16,
            ConvOp::SToF,
            C::Float(FloatKind::Float),
            Type::F32,
        ),
        (
            "u16tof",
            C::Int(IntKind::UShort),
            Type::I16,
            ConvOp::UToF,
            C::Float(FloatKind::Float),
            Type::F32,
        ),
        (
            "dtou32",
            double(),
            Type::F64,
            ConvOp::FToU,
            C::Int(IntKind::UInt),
            Type::I32,
        ),
        (
            "dtou16",
            double(),
            Type::F64,
            ConvOp::FToU,
            C::Int(IntKind::UShort),
            Type::I16,
        ),
        (
            "ftos8",
            C::Float(FloatKind::Float),
            Type::F32,
            ConvOp::FToS,
            C::Int(IntKind::SChar),
            Type::I8,
        ),
        (
            "ftou64",
            C::Float(FloatKind::Float),
            Type::F32,
            ConvOp::FToU,
            ulong(),
            Type::I64,
        ),
        (
            "i2fbits",
            C::Int(IntKind::UInt),
            Type::I32,
            ConvOp::Bitcast,
            C::Float(FloatKind::Float),
            Type::F32,
        ),
        (
            "d2lbits",
            double(),
            Type::F64,
            ConvOp::Bitcast,
            ulong(),
            Type::I64,
        ),
    ];
    for (name, cin, tin, op, cout, tout) in &cases {
        func(
            &mut m,
            name,
            plan(cout.clone(), vec![cin.clone()]),
            &[*tin],
            |b, _, p| {
                let r = b.conv(*op, p[0], *tout);
                ret(b, r);
            },
        );
    }
    // float fsel(float a, float b): a < b ? a : b (fused), and a branch on a != b.
    func(
        &mut m,
        "fsel",
        plan(
            C::Float(FloatKind::Float),
            vec![C::Float(FloatKind::Float), C::Float(FloatKind::Float)],
        ),
        &[Type::F32, Type::F32],
        |b, _, p| {
            let c = b.fcmp(FloatCC::Lt, p[0], p[1]);
            let s = b.select(c, p[0], p[1]);
            let c2 = b.fcmp(FloatCC::Ne, p[0], p[1]);
            let t = b.new_block();
            let e = b.new_block();
            b.branch(c2, t, e);
            b.switch_to(t);
            ret(b, s);
            b.switch_to(e);
            let k = b.fconst(Type::F32, 100.0f32.to_bits() as u128);
            ret(b, k);
        },
    );
    // int sw16(short x): dense switch over 16-bit values with negative cases
    func(
        &mut m,
        "sw16",
        plan(int(), vec![C::Int(IntKind::Short)]),
        &[Type::I16],
        |b, _, p| {
            let blocks: Vec<Block> = (0..5).map(|_| b.new_block()).collect();
            let dflt = b.new_block();
            b.push(
                Op::Switch {
                    value: p[0],
                    cases: vec![
                        (-2, blocks[0]),
                        (-1, blocks[1]),
                        (0, blocks[2]),
                        (1, blocks[3]),
                        (3, blocks[4]),
                    ],
                    default: dflt,
                },
                None,
            );
            for (i, &blk) in blocks.iter().enumerate() {
                b.switch_to(blk);
                let v = b.iconst(Type::I32, i as i128 + 10);
                ret(b, v);
            }
            b.switch_to(dflt);
            b.push(Op::Trap, None);
        },
    );
    let driver = r#"#include <stdio.h>
#include <string.h>
double s8tod(signed char); double u8tod(unsigned char); float s16tof(short); float u16tof(unsigned short);
unsigned dtou32(double); unsigned short dtou16(double); signed char ftos8(float); unsigned long ftou64(float);
float i2fbits(unsigned); unsigned long d2lbits(double); float fsel(float, float); int sw16(short);
int main(void) {
  printf("%g %g %g %g\n", s8tod(-100), u8tod(200), s16tof(-30000), u16tof(60000));
  printf("%u %u %d %lu\n", dtou32(4000000000.0), (unsigned)dtou16(65535.0), ftos8(-7.9f), ftou64(1.5e19f));
  printf("%g %lx\n", i2fbits(0x40490fdb), d2lbits(1.0));
  printf("%g %g %g\n", fsel(1, 2), fsel(5, 3), fsel(4, 4));
  for (int i = -3; i < 4; i++) if (i != -3 && i != 2) printf("%d ", sw16(i));
  printf("\n");
  return 0;
}
"#;
    run(
        "narrow",
        &m,
        driver,
        "-100 200 -30000 60000\n4000000000 65535 -7 15000000520515485696\n3.14159 3ff0000000000000\n1 3 100\n10 11 12 13 14 \n",
    );
}

#[test]
fn read_modify_write_at_every_width() {
    // void bump(long *p, int *q, short *r, signed char *c, long k):
    //   *p += k; *q = 5 - *q ... (sub keeps its order); *r ^= 0x0f0f; *c |= 3; *p = k & *p
    let mut m = Module::default();
    func(
        &mut m,
        "bump",
        plan(
            C::Void,
            vec![C::Pointer, C::Pointer, C::Pointer, C::Pointer, long()],
        ),
        &[Type::Ptr, Type::Ptr, Type::Ptr, Type::Ptr, Type::I64],
        |b, _, p| {
            let fl = |a| MemFlags::aligned(a);
            let x = b.load(Type::I64, p[0], 0, fl(8));
            let y = b.binary(BinaryOp::Add, x, p[4]);
            b.store(y, p[0], 0, fl(8));
            let x = b.load(Type::I32, p[1], 0, fl(4));
            let five = b.iconst(Type::I32, 5);
            let y = b.binary(BinaryOp::Sub, x, five);
            b.store(y, p[1], 0, fl(4));
            let x = b.load(Type::I32, p[1], 0, fl(4));
            let y = b.binary(BinaryOp::Sub, five, x);
            b.store(y, p[1], 4, fl(4));
            let x = b.load(Type::I16, p[2], 0, fl(2));
            let k = b.iconst(Type::I16, 0x0f0f);
            let y = b.binary(BinaryOp::Xor, x, k);
            b.store(y, p[2], 0, fl(2));
            let x = b.load(Type::I8, p[3], 0, fl(1));
            let k = b.iconst(Type::I8, 3);
            let y = b.binary(BinaryOp::Or, k, x);
            b.store(y, p[3], 0, fl(1));
            let x = b.load(Type::I64, p[0], 8, fl(8));
            let y = b.binary(BinaryOp::And, p[4], x);
            b.store(y, p[0], 8, fl(8));
            b.push(Op::Return(vec![]), None);
        },
    );
    let driver = r#"#include <stdio.h>
void bump(long *, int *, short *, signed char *, long);
int main(void) {
  long p[2] = {100, 0xff00ff}; int q[2] = {7, 0}; short r = 0x1234; signed char c = 0x40;
  bump(p, q, &r, &c, 0x0f0f0f);
  printf("%ld %lx %d %d %x %x\n", p[0], p[1], q[0], q[1], (unsigned short)r, (unsigned char)c);
  return 0;
}
"#;
    run("rmw", &m, driver, "986995 f000f 2 3 1d3b 43\n");
}
