//! __int128 arithmetic: register pairs, carry chains, inline multiply and constant shifts,
//! libgcc calls for division and variable shifts, compares; checked against the host cc.

#[path = "backend_common.rs"]
mod common;
use common::*;
use neverc_ir::*;

#[test]
fn int128_operations() {
    let mut m = Module::default();
    // void ops(long alo, long ahi, long blo, long bhi, unsigned long *out): out[2k], out[2k+1]
    // receive the halves of each result.
    let p = plan(C::Void, vec![long(), long(), long(), long(), C::Pointer]);
    let ops: Vec<(&str, Option<BinaryOp>)> = vec![
        ("a + b", Some(BinaryOp::Add)),
        ("a - b", Some(BinaryOp::Sub)),
        ("a * b", Some(BinaryOp::Mul)),
        ("a / b", Some(BinaryOp::SDiv)),
        ("(u128)a / (u128)b", Some(BinaryOp::UDiv)),
        ("a % b", Some(BinaryOp::SRem)),
        ("a & b", Some(BinaryOp::And)),
        ("a | b", Some(BinaryOp::Or)),
        ("a ^ b", Some(BinaryOp::Xor)),
        ("a << 3", None),
        ("a >> 70", None),
        ("(u128)a >> 64", None),
        ("a << (b & 127)", None),
        ("-a", None),
        ("(a < b) + 2 * ((u128)a < (u128)b) + 4 * (a == b)", None),
    ];
    let n = ops.len();
    func(
        &mut m,
        "ops",
        p,
        &[Type::I64, Type::I64, Type::I64, Type::I64, Type::Ptr],
        |b, _, p| {
            let slot = b.add_slot(32, 16);
            let sa = b.slot_addr(slot);
            b.store(p[0], sa, 0, MemFlags::aligned(8));
            b.store(p[1], sa, 8, MemFlags::aligned(8));
            b.store(p[2], sa, 16, MemFlags::aligned(8));
            b.store(p[3], sa, 24, MemFlags::aligned(8));
            let a = b.load(Type::I128, sa, 0, MemFlags::aligned(16));
            let bb = b.load(Type::I128, sa, 16, MemFlags::aligned(16));
            let mut results = Vec::new();
            for (i, (_, op)) in ops.iter().enumerate() {
                let r = match (i, op) {
                    (_, Some(op)) => b.binary(*op, a, bb),
                    (9, _) => {
                        let k = b.iconst(Type::I128, 3);
                        b.binary(BinaryOp::Shl, a, k)
                    }
                    (10, _) => {
                        let k = b.iconst(Type::I128, 70);
                        b.binary(BinaryOp::AShr, a, k)
                    }
                    (11, _) => {
                        let k = b.iconst(Type::I128, 64);
                        b.binary(BinaryOp::LShr, a, k)
                    }
                    (12, _) => {
                        let k = b.iconst(Type::I128, 127);
                        let s = b.binary(BinaryOp::And, bb, k);
                        b.binary(BinaryOp::Shl, a, s)
                    }
                    (13, _) => b.unary(UnaryOp::Neg, a),
                    _ => {
                        let c1 = b.icmp(IntCC::Slt, a, bb);
                        let c2 = b.icmp(IntCC::Ult, a, bb);
                        let c3 = b.icmp(IntCC::Eq, a, bb);
                        let z1 = b.conv(ConvOp::Zext, c1, Type::I128);
                        let z2 = b.conv(ConvOp::Zext, c2, Type::I128);
                        let z3 = b.conv(ConvOp::Zext, c3, Type::I128);
                        let two = b.iconst(Type::I128, 2);
                        let four = b.iconst(Type::I128, 4);
                        let z2 = b.binary(BinaryOp::Mul, z2, two);
                        let z3 = b.binary(BinaryOp::Mul, z3, four);
                        let s = b.binary(BinaryOp::Add, z1, z2);
                        b.binary(BinaryOp::Add, s, z3)
                    }
                };
                results.push(r);
            }
            for (i, r) in results.into_iter().enumerate() {
                b.store(r, p[4], 16 * i as i32, MemFlags::aligned(8));
            }
            b.push(Op::Return(vec![]), None);
        },
    );
    let mut checks = String::new();
    for (i, (e, _)) in ops.iter().enumerate() {
        checks.push_str(&format!(
            "  {{ u128 e = (u128)({e}); if (out[{i}] != e) printf(\"%d: {e}\\n\", k); }}\n"
        ));
    }
    let driver = format!(
        r#"#include <stdio.h>
typedef __int128 i128; typedef unsigned __int128 u128;
void ops(long, long, long, long, u128 *);
int main(void) {{
  i128 vals[] = {{ 1, -1, 7, -123456789012345, ((i128)0x1234567 << 64) | 0xfedcba9876543210ULL,
                  -(((i128)0x7654321 << 64) | 0x1111111122222222ULL), (i128)1 << 100, 3 }};
  int k = 0;
  for (int x = 0; x < 8; x++) for (int y = 0; y < 8; y++, k++) {{
    i128 a = vals[x], b = vals[y];
    u128 out[{n}];
    ops((long)a, (long)(a >> 64), (long)b, (long)(b >> 64), out);
{checks}  }}
  printf("done %d\n", k);
  return 0;
}}
"#
    );
    run("int128", &m, &driver, "done 64\n");
}
