//! Worked examples of each psABI and the traps known to break compilers, with exact
//! register placement. Locations are written `value.offset+size:place[flags]`, place being
//! the register's name in the target schema or `s<offset>` for the stack.

use neverc_abi::{plan_call, CallPlan, Field, FloatKind, IntKind, Place, Record, Signature, Type};
use neverc_target::registers::schema;

fn show(triple: &str, plan: &CallPlan, returns: bool) -> String {
    let t = neverc_target::lookup(triple).unwrap();
    let s = schema(t.arch);
    let locs = if returns {
        &plan.returns
    } else {
        &plan.arguments
    };
    locs.iter()
        .map(|l| {
            let place = match l.place {
                Place::Reg(r) => s.name(r).unwrap().to_string(),
                Place::Stack(o) => format!("s{o}"),
            };
            let flags = if l.flags.0 == 0 {
                String::new()
            } else {
                format!("[{}]", l.flags)
            };
            format!("{}.{}+{}:{place}{flags}", l.value, l.offset, l.size)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn plan(triple: &str, sig: &Signature) -> CallPlan {
    plan_call(neverc_target::lookup(triple).unwrap(), sig).unwrap()
}

fn args(triple: &str, params: Vec<Type>) -> String {
    show(
        triple,
        &plan(triple, &Signature::new(Type::Void, params)),
        false,
    )
}

fn ret(triple: &str, ty: Type) -> String {
    show(triple, &plan(triple, &Signature::new(ty, [])), true)
}

fn long() -> Type {
    Type::Int(IntKind::Long)
}
fn ll() -> Type {
    Type::Int(IntKind::LongLong)
}
fn i128() -> Type {
    Type::Int(IntKind::Int128)
}
fn rec(fields: Vec<Field>) -> Type {
    Type::Record(Box::new(Record {
        fields,
        ..Record::default()
    }))
}
fn f(name: &str, ty: Type) -> Field {
    Field::named(name, ty)
}
/// `struct { float a; int :0; float b; }`
fn float_zw_float() -> Type {
    rec(vec![
        f("a", Type::float()),
        Field::bitfield(None, Type::int(), 0),
        f("b", Type::float()),
    ])
}

const X64: &str = "x86_64-linux-gnu";
const A64: &str = "aarch64-linux-gnu";
const APPLE: &str = "aarch64-apple-darwin";
const ARMHF: &str = "arm-linux-gnueabihf";
const ARMEL: &str = "arm-linux-gnueabi";
const RV64: &str = "riscv64-linux-gnu";
const RV32: &str = "riscv32-unknown-elf";
const MIPS: &str = "mipsel-linux-gnu";
const WIN: &str = "x86_64-pc-windows-msvc";
const AVR: &str = "avr";

#[test]
fn sysv_eightbyte_classes() {
    // psABI Figure 3.? style: struct { double d; long l; } → SSE, INTEGER.
    let dl = Type::structure([Type::double(), long()]);
    assert_eq!(
        args(X64, vec![Type::int(), dl.clone()]),
        "0.0+4:rdi 1.0+8:xmm0 1.8+8:rsi"
    );
    assert_eq!(ret(X64, dl), "0.0+8:xmm0 0.8+8:rax");
    // Two floats share one eightbyte: one xmm.
    assert_eq!(args(X64, vec![float_zw_float()]), "0.0+8:xmm0");
    // union { float; int } merges to INTEGER.
    assert_eq!(
        args(X64, vec![Type::union([Type::float(), Type::int()])]),
        "0.0+4:rdi"
    );
    // Over 16 bytes: MEMORY, on the stack.
    let big = Type::structure([long(), long(), long()]);
    assert_eq!(args(X64, vec![big.clone()]), "0.0+24:s0");
    // sret: buffer address in rdi, returned in rax; the first argument moves to rsi.
    let p = plan(X64, &Signature::new(big, [Type::int()]));
    assert_eq!(show(X64, &p, true), "0.0+8:rdi[sret] 0.0+8:rax[sretout]");
    assert_eq!(show(X64, &p, false), "0.0+4:rsi");
    // long double: X87 → memory as argument, st0 as result; complex long double in st0/st1.
    assert_eq!(args(X64, vec![Type::long_double()]), "0.0+16:s0");
    assert_eq!(ret(X64, Type::long_double()), "0.0+10:st0");
    assert_eq!(
        ret(X64, Type::Complex(FloatKind::LongDouble)),
        "0.0+10:st0 0.16+10:st1"
    );
    // Empty struct takes nothing.
    assert_eq!(
        args(X64, vec![Type::structure([]), Type::int()]),
        "1.0+4:rdi"
    );
    // char and short are extended to 32 bits by the caller (gcc and clang agree).
    assert_eq!(
        args(
            X64,
            vec![
                Type::Int(IntKind::SChar),
                Type::Int(IntKind::UShort),
                Type::Bool
            ]
        ),
        "0.0+1:rdi[sext32] 1.0+2:rsi[zext32] 2.0+1:rdx[zext32]"
    );
    // A bit-field struct: all INTEGER.
    let bf = rec(vec![
        Field::bitfield(Some("a"), Type::int(), 3),
        f("x", Type::float()),
    ]);
    assert_eq!(args(X64, vec![bf]), "0.0+8:rdi");
}

#[test]
fn sysv_int128_on_the_stack_and_varargs() {
    // Five longs leave one GPR: __int128 needs two, so it goes to the stack whole.
    let mut p: Vec<Type> = (0..5).map(|_| long()).collect();
    p.push(i128());
    p.push(long());
    assert_eq!(
        args(X64, p),
        "0.0+8:rdi 1.0+8:rsi 2.0+8:rdx 3.0+8:rcx 4.0+8:r8 5.0+16:s0 6.0+8:r9"
    );
    // On the stack it is 16-aligned.
    let mut p: Vec<Type> = (0..7).map(|_| long()).collect();
    p.push(i128());
    let a = args(X64, p);
    assert!(a.ends_with("6.0+8:s0 7.0+16:s16"), "{a}");
    // Variadic: %al carries the vector register count.
    let sig = Signature::variadic(Type::int(), [Type::Pointer, Type::double()], 1);
    assert_eq!(
        show(X64, &plan(X64, &sig), false),
        "0.0+8:rdi 1.0+8:xmm0[vararg] 2.0+1:rax[vacount]"
    );
}

#[test]
fn aapcs64_hfa_byref_and_pairs() {
    // The zero-width bit-field vanishes: an HFA of two floats.
    assert_eq!(args(A64, vec![float_zw_float()]), "0.0+4:v0 0.4+4:v1");
    let hfa4 = Type::structure([
        Type::double(),
        Type::double(),
        Type::double(),
        Type::double(),
    ]);
    assert_eq!(
        ret(A64, hfa4.clone()),
        "0.0+8:v0 0.8+8:v1 0.16+8:v2 0.24+8:v3"
    );
    // Not enough SIMD registers: the HFA goes to the stack and later floats too (C.3).
    let a = args(
        A64,
        vec![hfa4.clone(), Type::float(), hfa4.clone(), Type::double()],
    );
    assert_eq!(
        a,
        "0.0+8:v0 0.8+8:v1 0.16+8:v2 0.24+8:v3 1.0+4:v4 2.0+32:s0 3.0+8:s32"
    );
    // Composites over 16 bytes by reference; results via x8.
    let big = Type::structure([long(), long(), long()]);
    assert_eq!(args(A64, vec![big.clone()]), "0.0+8:x0[byref]");
    assert_eq!(ret(A64, big), "0.0+8:x8[sret]");
    // __int128 takes an even pair (C.9): x1 is skipped.
    assert_eq!(
        args(A64, vec![Type::int(), i128()]),
        "0.0+4:x0 1.0+8:x2 1.8+8:x3"
    );
    // Over-aligned composite: the struct's own aligned(16) does not count, a member's does.
    let mut over = Record::new(false, [long(), long()]);
    over.align = Some(16);
    let over = Type::Record(Box::new(over));
    assert_eq!(
        args(A64, vec![Type::int(), over]),
        "0.0+4:x0 1.0+8:x1 1.8+8:x2"
    );
    let mut member = Record::new(false, [long(), long()]);
    member.fields[0].align = Some(16);
    let member = Type::Record(Box::new(member));
    assert_eq!(
        args(A64, vec![Type::int(), member]),
        "0.0+4:x0 1.0+8:x2 1.8+8:x3"
    );
    // No extension on Linux; the union of float and int is not an HFA.
    assert_eq!(
        args(
            A64,
            vec![
                Type::Int(IntKind::Short),
                Type::union([Type::float(), Type::int()])
            ]
        ),
        "0.0+2:x0 1.0+4:x1"
    );
}

#[test]
fn apple_arm64_variadics_and_packed_stack() {
    // Variadic arguments go on the stack in 8-byte slots, even with registers free.
    let sig = Signature::variadic(Type::int(), [Type::Pointer, Type::int(), Type::double()], 1);
    assert_eq!(
        show(APPLE, &plan(APPLE, &sig), false),
        "0.0+8:x0 1.0+4:s0[vararg] 2.0+8:s8[vararg]"
    );
    // Linux passes the same call in registers.
    assert_eq!(
        show(A64, &plan(A64, &sig), false),
        "0.0+8:x0 1.0+4:x1[vararg] 2.0+8:v0[vararg]"
    );
    // Stack arguments are packed at their natural alignment; the caller extends small
    // ints in registers only: a packed slot has no room (s0 then s2), and clang leaves the
    // bytes after a packed value as they were (plans_vs_gcc, aarch64-apple-darwin).
    let mut p: Vec<Type> = (0..8).map(|_| long()).collect();
    p.extend([
        Type::Int(IntKind::Char),
        Type::Int(IntKind::Short),
        Type::int(),
    ]);
    let a = args(APPLE, p);
    assert!(a.ends_with("8.0+1:s0 9.0+2:s2 10.0+4:s4"), "{a}");
    assert_eq!(
        args(APPLE, vec![Type::Int(IntKind::Short)]),
        "0.0+2:x0[sext32]"
    );
}

#[test]
fn apple_arm64_int128_pairs_and_empty_records() {
    // clang's DarwinPCS does not round to an even register for 16-byte alignment:
    // f(long, __int128) takes x0 and x1:x2 (Linux: x0 and x2:x3).
    let sig = vec![long(), Type::Int(IntKind::Int128)];
    assert_eq!(args(APPLE, sig.clone()), "0.0+8:x0 1.0+8:x1 1.8+8:x2");
    assert_eq!(args(A64, sig), "0.0+8:x0 1.0+8:x2 1.8+8:x3");
    // A union of an unnamed bit-field has size 7 but is empty to clang: ignored on Apple.
    let u = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![Field::bitfield(None, Type::Int(IntKind::LongLong), 53)],
        ..Record::default()
    }));
    assert_eq!(args(APPLE, vec![u, Type::int()]), "1.0+4:x0");
    // The trap struct `{float a; int :0; float b;}` is no HFA to clang in C (it skips
    // zero-width bit-fields in C++ only): x0 on Apple, v0/v1 with gcc on Linux.
    assert_eq!(args(APPLE, vec![float_zw_float()]), "0.0+8:x0");
    assert_eq!(args(A64, vec![float_zw_float()]), "0.0+4:v0 0.4+4:v1");
    // A zero-sized empty union beside an 8-byte vector: an HVA of one vector to clang.
    let empty = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![Field::bitfield(None, Type::Bool, 0)],
        ..Record::default()
    }));
    let hva = rec(vec![f("v", Type::vector(Type::int(), 8)), f("u", empty)]);
    assert_eq!(args(APPLE, vec![hva]), "0.0+8:v0");
    // An `aligned(16)` record in general registers goes to a 16-aligned stack slot.
    let a16 = Type::Record(Box::new(Record {
        fields: vec![f("a", long()), f("b", long())],
        align: Some(16),
        ..Record::default()
    }));
    let mut p: Vec<Type> = (0..7).map(|_| long()).collect();
    p.extend([Type::Pointer, Type::int(), a16]);
    let a = args(APPLE, p);
    assert!(a.ends_with("8.0+4:s0 9.0+16:s16"), "{a}");
    // Variadic: an HFA record takes an 8-aligned slot even when 16-aligned (clang stores
    // `struct __attribute__((aligned(16))) { double a, b; }` at sp+8), a bare 16-byte
    // vector a 16-aligned one.
    let d16 = Type::Record(Box::new(Record {
        fields: vec![f("a", Type::double()), f("b", Type::double())],
        align: Some(16),
        ..Record::default()
    }));
    let v16 = Type::vector(Type::int(), 16);
    let sig = Signature::variadic(Type::Void, [Type::int(), Type::int(), d16], 1);
    assert_eq!(
        show(APPLE, &plan(APPLE, &sig), false),
        "0.0+4:x0 1.0+4:s0[vararg] 2.0+16:s8[vararg]"
    );
    let sig = Signature::variadic(Type::Void, [Type::int(), Type::int(), v16], 1);
    let a = show(APPLE, &plan(APPLE, &sig), false);
    assert!(a.ends_with("2.0+16:s16[vararg]"), "{a}");
}

#[test]
fn aapcs32_vfp_backfill_and_core_split() {
    // C.1 back-filling: f(float, double, float) → s0, d1, s1.
    assert_eq!(
        args(ARMHF, vec![Type::float(), Type::double(), Type::float()]),
        "0.0+4:s0 1.0+8:d1 2.0+4:s1"
    );
    // The trap struct is an HFA here as well.
    assert_eq!(args(ARMHF, vec![float_zw_float()]), "0.0+4:s0 0.4+4:s1");
    // C.5: a struct of three ints after two ints: r2, r3 and 4 bytes on the stack.
    let s3 = Type::structure([Type::int(), Type::int(), Type::int()]);
    assert_eq!(
        args(ARMHF, vec![Type::int(), Type::int(), s3]),
        "0.0+4:r0 1.0+4:r1 2.0+4:r2 2.4+4:r3 2.8+4:s0"
    );
    // C.3: a double in the base standard takes an even pair; past r3 it goes to the stack
    // and nothing back-fills r3.
    assert_eq!(
        args(ARMEL, vec![Type::int(), Type::double()]),
        "0.0+4:r0 1.0+4:r2 1.4+4:r3"
    );
    assert_eq!(
        args(
            ARMEL,
            vec![Type::int(), Type::int(), Type::int(), ll(), Type::int()]
        ),
        "0.0+4:r0 1.0+4:r1 2.0+4:r2 3.0+8:s0 4.0+4:s8"
    );
    // Results: small composite in r0, larger in memory via r0; chars extended.
    assert_eq!(
        ret(ARMEL, Type::structure([Type::Int(IntKind::Short)])),
        "0.0+2:r0"
    );
    assert_eq!(
        ret(ARMEL, Type::structure([Type::int(), Type::int()])),
        "0.0+4:r0[sret]"
    );
    assert_eq!(ret(ARMHF, Type::Int(IntKind::UChar)), "0.0+1:r0[zext32]");
    // Variadic functions use the base standard even for named floats.
    let sig = Signature::variadic(Type::double(), [Type::double(), Type::int()], 1);
    let p = plan(ARMHF, &sig);
    assert_eq!(show(ARMHF, &p, true), "0.0+4:r0 0.4+4:r1");
    assert_eq!(show(ARMHF, &p, false), "0.0+4:r0 0.4+4:r1 1.0+4:r2[vararg]");
}

#[test]
fn riscv_float_struct_flattening_and_splits() {
    // float + int: one FPR and one GPR.
    let fi = Type::structure([Type::float(), Type::int()]);
    assert_eq!(args(RV64, vec![fi.clone()]), "0.0+4:f10 0.4+4:x10");
    // Without FP registers (ilp32) the same struct is two words in a0/a1.
    assert_eq!(args(RV32, vec![fi]), "0.0+4:x10 0.4+4:x11");
    // Trap struct: two floats in fa0/fa1.
    assert_eq!(args(RV64, vec![float_zw_float()]), "0.0+4:f10 0.4+4:f11");
    // Union of float and int: integer convention.
    assert_eq!(
        args(RV64, vec![Type::union([Type::float(), Type::int()])]),
        "0.0+4:x10"
    );
    // Seven longs then a 16-byte struct: a7 and the stack.
    let mut p: Vec<Type> = (0..7).map(|_| long()).collect();
    p.push(Type::structure([long(), long()]));
    assert!(args(RV64, p).ends_with("7.0+8:x17 7.8+8:s0"));
    // Variadic 2×XLEN-aligned arguments take an even pair.
    let sig = Signature::variadic(Type::Void, [Type::Pointer, Type::long_double()], 1);
    assert_eq!(
        show(RV64, &plan(RV64, &sig), false),
        "0.0+8:x10 1.0+8:x12[vararg] 1.8+8:x13[vararg]"
    );
    // 32-bit values are sign-extended to 64 bits, even unsigned ones.
    assert_eq!(
        args(
            RV64,
            vec![Type::Int(IntKind::UInt), Type::Int(IntKind::UChar)]
        ),
        "0.0+4:x10[sext64] 1.0+1:x11[zext64]"
    );
    // Larger than 2×XLEN: by reference; results through a hidden a0.
    let big = Type::structure([long(), long(), long()]);
    assert_eq!(args(RV64, vec![big.clone()]), "0.0+8:x10[byref]");
    assert_eq!(ret(RV64, big), "0.0+8:x10[sret]");
}

/// AAPCS32 details found by the register-dump harness, each checked against
/// arm-linux-gnueabihf-gcc 12.
#[test]
fn aapcs32_vector_results_and_empty_records() {
    // "A 128-bit containerized vector is returned in r0-r3" (base standard, so also from a
    // variadic function under VFP); complex types are composites and go to memory.
    let v16 = Type::vector(Type::int(), 16);
    assert_eq!(
        ret(ARMEL, v16.clone()),
        "0.0+4:r0 0.4+4:r1 0.8+4:r2 0.12+4:r3"
    );
    let sig = Signature::variadic(v16, [Type::int()], 1);
    assert_eq!(
        show(ARMHF, &plan(ARMHF, &sig), true),
        "0.0+4:r0 0.4+4:r1 0.8+4:r2 0.12+4:r3"
    );
    assert_eq!(
        ret(ARMEL, Type::vector(Type::int(), 8)),
        "0.0+4:r0 0.4+4:r1"
    );
    assert_eq!(
        ret(ARMEL, Type::Complex(FloatKind::Float)),
        "0.0+4:r0[sret]"
    );
    // An empty record made doubleword-aligned by a zero-width `long long` bit-field takes
    // nothing, but still rounds the NCRN to even (or the NSAA to 8).
    let e8 = rec(vec![Field::bitfield(
        None,
        Type::Int(IntKind::ULongLong),
        0,
    )]);
    assert_eq!(
        args(ARMHF, vec![Type::int(), e8.clone(), Type::int()]),
        "0.0+4:r0 2.0+4:r2"
    );
    let mut p: Vec<Type> = (0..5).map(|_| Type::int()).collect();
    p.push(e8.clone());
    p.push(Type::int());
    assert!(args(ARMHF, p).ends_with("4.0+4:s0 6.0+4:s8"));
    let p = vec![Type::int(), Type::int(), Type::int(), e8, Type::int()];
    assert!(args(ARMHF, p).ends_with("2.0+4:r2 4.0+4:s0"));
}

/// RISC-V FP-convention details found by the register-dump harness, each checked against
/// riscv64-linux-gnu-gcc 12.
#[test]
fn riscv_fp_convention_as_gcc_does_it() {
    // A pointer is not "an integer": `struct { float f; void *p; }` goes by the integer
    // convention (results too), while `_Bool` and enums do count.
    let fp = Type::structure([Type::float(), Type::Pointer]);
    assert_eq!(args(RV64, vec![fp.clone()]), "0.0+8:x10 0.8+8:x11");
    assert_eq!(ret(RV64, fp), "0.0+8:x10 0.8+8:x11");
    assert_eq!(
        args(RV64, vec![Type::structure([Type::Bool, Type::double()])]),
        "0.0+1:x10 0.8+8:f10"
    );
    // A bit-field is an integer of the smallest power-of-two size holding its width, at
    // the byte of its first bit, clipped to the end of a packed struct.
    let bf = rec(vec![
        f("f", Type::float()),
        Field::bitfield(Some("b"), Type::Int(IntKind::ULong), 14),
    ]);
    assert_eq!(args(RV64, vec![bf]), "0.0+4:f10 0.4+2:x10");
    let packed = Type::Record(Box::new(Record {
        fields: vec![
            f("d", Type::double()),
            Field::bitfield(Some("b"), Type::Int(IntKind::LongLong), 24),
        ],
        packed: true,
        ..Record::default()
    }));
    assert_eq!(args(RV64, vec![packed]), "0.0+8:f10 0.8+3:x10");
    // An empty union does not flatten, but a struct that one double fills has the
    // double's mode and still travels in fa0; with a float and an int it does not.
    let empty_union = Type::union([]);
    let ud = Type::structure([empty_union.clone(), Type::double()]);
    assert_eq!(args(RV64, vec![ud]), "0.0+8:f10");
    let ufi = Type::structure([empty_union.clone(), Type::float(), Type::int()]);
    assert_eq!(args(RV64, vec![ufi]), "0.0+8:x10");
    let uc = Type::structure([empty_union.clone(), Type::Complex(FloatKind::Float)]);
    assert_eq!(args(RV64, vec![uc]), "0.0+4:f10 0.4+4:f11");
    // ... unless packing lowers the struct's alignment.
    let upacked = Type::Record(Box::new(Record {
        fields: vec![f("u", empty_union.clone()), f("d", Type::double())],
        packed: true,
        ..Record::default()
    }));
    assert_eq!(args(RV64, vec![upacked]), "0.0+8:x10");
    // An over-aligned empty record takes no register, but on the stack it still moves the
    // next argument to its boundary.
    let aligned_empty = Type::aligned(empty_union, 16);
    let mut p: Vec<Type> = (0..9).map(|_| long()).collect();
    p.push(aligned_empty);
    p.push(long());
    assert!(args(RV64, p).ends_with("8.0+8:s0 10.0+8:s16"));
}

/// o32: an over-aligned empty record takes no words but still aligns the block offset
/// (mipsel-linux-gnu-gcc 12).
#[test]
fn mips_o32_empty_aligned_record() {
    let e16 = Type::aligned(Type::structure([]), 16);
    assert_eq!(
        args(MIPS, vec![Type::int(), e16, Type::int()]),
        "0.0+4:$4 2.0+4:$6"
    );
}

#[test]
fn mips_o32_fp_registers_and_word_block() {
    assert_eq!(
        args(MIPS, vec![Type::float(), Type::double()]),
        "0.0+4:$f12 1.0+8:$f14"
    );
    // An integer first: no FP registers at all; the double takes $6/$7.
    assert_eq!(
        args(MIPS, vec![Type::int(), Type::double()]),
        "0.0+4:$4 1.0+4:$6 1.4+4:$7"
    );
    // Past 16 bytes, the block continues on the stack at the same offset.
    let s = Type::structure([Type::int(), Type::int(), Type::int()]);
    assert_eq!(
        args(MIPS, vec![Type::int(), Type::int(), s]),
        "0.0+4:$4 1.0+4:$5 2.0+4:$6 2.4+4:$7 2.8+4:s16"
    );
    // Structures are returned in memory; the address comes back in $2.
    assert_eq!(
        ret(MIPS, Type::structure([Type::int()])),
        "0.0+4:$4[sret] 0.0+4:$2[sretout]"
    );
    assert_eq!(
        ret(MIPS, Type::Complex(FloatKind::Float)),
        "0.0+4:$f0 0.4+4:$f2"
    );
}

#[test]
fn win64_slots_and_references() {
    // A 3-byte struct is passed by reference; 1/2/4/8-byte ones by value.
    let s3 = Type::structure(vec![Type::Int(IntKind::Char); 3]);
    let s4 = Type::structure(vec![Type::Int(IntKind::Short); 2]);
    assert_eq!(
        args(WIN, vec![s3.clone(), s4]),
        "0.0+8:rcx[byref] 1.0+4:rdx"
    );
    // Positional slots: the double in the second slot uses xmm1; the fifth argument sits
    // above the 32-byte home area.
    let a = args(
        WIN,
        vec![
            Type::int(),
            Type::double(),
            Type::int(),
            Type::float(),
            Type::int(),
        ],
    );
    assert_eq!(a, "0.0+4:rcx 1.0+8:xmm1 2.0+4:r8 3.0+4:xmm3 4.0+4:s32");
    // Variadic doubles are duplicated into the integer register.
    let sig = Signature::variadic(Type::Void, [Type::Pointer, Type::double()], 1);
    assert_eq!(
        show(WIN, &plan(WIN, &sig), false),
        "0.0+8:rcx 1.0+8:xmm1[vararg] 1.0+8:rdx[vararg]"
    );
    assert_eq!(ret(WIN, s3), "0.0+8:rcx[sret] 0.0+8:rax[sretout]");
    // GNU vectors and __int128 as clang 14 passes them: by reference, results in xmm0;
    // a one-element vector as its element.
    let v4s = Type::vector(Type::Int(IntKind::Short), 8);
    assert_eq!(args(WIN, vec![v4s.clone()]), "0.0+8:rcx[byref]");
    assert_eq!(ret(WIN, v4s), "0.0+8:xmm0");
    assert_eq!(args(WIN, vec![i128()]), "0.0+8:rcx[byref]");
    assert_eq!(ret(WIN, i128()), "0.0+16:xmm0");
    assert_eq!(
        args(
            WIN,
            vec![
                Type::int(),
                Type::vector(Type::double(), 8),
                Type::vector(ll(), 8)
            ]
        ),
        "0.0+4:rcx 1.0+8:xmm1 2.0+8:r8"
    );
    assert_eq!(plan(WIN, &Signature::new(Type::Void, [])).stack, 32);
}

#[test]
fn avr_register_groups() {
    // int in r24:r25, long in r20..r23, char in r18 (group r18:r19).
    assert_eq!(
        args(AVR, vec![Type::int(), long(), Type::Int(IntKind::Char)]),
        "0.0+1:r24 0.1+1:r25 1.0+1:r20 1.1+1:r21 1.2+1:r22 1.3+1:r23 2.0+1:r18"
    );
    assert_eq!(ret(AVR, long()), "0.0+1:r22 0.1+1:r23 0.2+1:r24 0.3+1:r25");
    // 18 bytes of registers: three long longs do not fit, the third and all after go on
    // the stack.
    let a = args(AVR, vec![ll(), ll(), ll(), Type::Int(IntKind::Char)]);
    assert!(a.ends_with("2.0+8:s0 3.0+1:s8"), "{a}");
}

#[test]
fn avr_over_aligned_stack_arguments_are_packed() {
    // avr-gcc's callee reads its stack arguments one after the other with no padding, a
    // 16-aligned vector too (`void g(long long, long long, long long, V16 v, char c)` reads
    // v at Y+17 and c at Y+33 after six pushes and the return address: offsets 8 and 24).
    // Its caller, in 5.4, stores such a vector at an aligned offset instead; the callee is
    // taken as the convention.
    let v16 = Type::Vector(Box::new(Type::int()), 16);
    let a = args(AVR, vec![ll(), ll(), ll(), v16, Type::Int(IntKind::Char)]);
    assert!(a.ends_with("2.0+8:s0 3.0+16:s8 4.0+1:s24"), "{a}");
}

/// `union { <members> ; <kind> :0; }`
fn union_with_zero_width(members: Vec<Type>) -> Type {
    let mut fields: Vec<Field> = members
        .into_iter()
        .enumerate()
        .map(|(i, t)| f(&format!("m{i}"), t))
        .collect();
    fields.push(Field::bitfield(None, Type::Int(IntKind::Char), 0));
    Type::Record(Box::new(Record {
        is_union: true,
        fields,
        ..Record::default()
    }))
}

#[test]
fn zero_width_bit_fields_in_unions() {
    // gcc 12 drops a struct's zero-width bit-fields before classifying (its 12.1 change),
    // but one that is a member of a union makes the union's first eightbyte INTEGER.
    let ud = union_with_zero_width(vec![Type::double()]);
    assert_eq!(args(X64, vec![ud.clone()]), "0.0+8:rdi");
    let ua = union_with_zero_width(vec![Type::array(Type::double(), 2)]);
    assert_eq!(args(X64, vec![ua]), "0.0+8:rdi 0.8+8:xmm0");
    // ... wherever the union sits: here in the second eightbyte of a struct.
    let s = Type::structure([Type::double(), union_with_zero_width(vec![Type::float()])]);
    assert_eq!(args(X64, vec![s]), "0.0+8:xmm0 0.8+8:rdi");
    // AArch64: such a union is no HFA (a struct's zero-width bit-field is ignored).
    assert_eq!(args(A64, vec![ud]), "0.0+8:x0");
    let nested = Type::structure([union_with_zero_width(vec![Type::double()])]);
    assert_eq!(args(A64, vec![nested]), "0.0+8:x0");
}

#[test]
fn zero_length_arrays_make_no_homogeneous_aggregate() {
    // Measured with aarch64-linux-gnu-gcc and arm-linux-gnueabihf-gcc 12 (the two-compiler
    // test found it): `struct { float a; float z[0]; }` is passed in w0 / r0, and so is
    // any record with a zero-length or flexible array member at any depth, whatever its
    // element type; an empty struct member leaves an HFA alone.
    let z = |t: Type| f("z", Type::array(t, 0));
    let fz = rec(vec![f("a", Type::float()), z(Type::float())]);
    assert_eq!(args(A64, vec![fz.clone()]), "0.0+4:x0");
    assert_eq!(args(ARMHF, vec![fz]), "0.0+4:r0");
    let nested = rec(vec![
        f("a", Type::float()),
        f("b", Type::float()),
        f("e", rec(vec![z(Type::int())])),
    ]);
    assert_eq!(args(A64, vec![nested]), "0.0+8:x0");
    let empty = rec(vec![f("a", Type::double()), f("e", rec(vec![]))]);
    assert_eq!(args(A64, vec![empty]), "0.0+8:v0");
    // Except for a struct holding just one 8- or 16-byte vector besides them (gcc gives
    // it the vector's mode and passes it as a short vector): v0, also after one
    // element arrays and single-member structs; not a union, not one made bigger.
    let v8 = Type::vector(Type::Int(IntKind::Short), 8);
    let sv = rec(vec![f("v", v8.clone()), z(Type::int())]);
    assert_eq!(args(A64, vec![long(), sv.clone()]), "0.0+8:x0 1.0+8:v0");
    let nested = rec(vec![
        f("i", rec(vec![f("a", Type::array(v8.clone(), 1))])),
        z(Type::float()),
    ]);
    assert_eq!(args(A64, vec![long(), nested]), "0.0+8:x0 1.0+8:v0");
    let two = rec(vec![f("v", v8.clone()), f("w", v8.clone()), z(v8.clone())]);
    assert_eq!(args(A64, vec![long(), two]), "0.0+8:x0 1.0+8:x1 1.8+8:x2");
    let u = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![f("v", v8.clone()), z(v8.clone())],
        ..Record::default()
    }));
    assert_eq!(args(A64, vec![long(), u]), "0.0+8:x0 1.0+8:x1");
    let wide = Type::Record(Box::new(Record {
        fields: vec![f("v", v8), z(Type::int())],
        align: Some(16),
        ..Record::default()
    }));
    // (natural alignment 8: the `aligned(16)` of the record does not count, x1 follows)
    assert_eq!(args(A64, vec![long(), wide]), "0.0+8:x0 1.0+8:x1 1.8+8:x2");
}

#[test]
fn sysv_nested_aggregates_are_classified_on_their_own() {
    // union { long double ld; void *p; } alone: eightbyte 0 is X87+INTEGER = INTEGER,
    // eightbyte 1 X87UP without X87 before it: MEMORY (rule 5). Nested in a union with an
    // unsigned __int128, a flat merge of the scalars would give INTEGER, INTEGER; gcc
    // classifies the member recursively and its MEMORY makes the whole MEMORY. The same
    // scalars as direct members of one union do go in two GPRs.
    let inner = Type::union([Type::long_double(), Type::Pointer]);
    let mut r = Record::new(true, [Type::Int(IntKind::UInt128)]);
    r.fields.push(Field::named("u", inner.clone()));
    let outer = Type::Record(Box::new(r));
    // inner: eightbyte 0 X87+INTEGER = INTEGER, eightbyte 1 X87UP: not after X87, MEMORY.
    assert_eq!(args(X64, vec![inner]), "0.0+16:s0");
    assert_eq!(args(X64, vec![outer]), "0.0+16:s0");
    let flat = Type::union([
        Type::Int(IntKind::UInt128),
        Type::long_double(),
        Type::Pointer,
    ]);
    assert_eq!(args(X64, vec![flat]), "0.0+8:rdi 0.8+8:rsi");
}

#[test]
fn aapcs64_union_hfa_counts_overlapping_members_once() {
    // union { float a; float b[4]; float c; }: an HFA of four floats.
    let u = Type::union([Type::float(), Type::array(Type::float(), 4), Type::float()]);
    assert_eq!(args(A64, vec![u]), "0.0+4:v0 0.4+4:v1 0.8+4:v2 0.12+4:v3");
}

#[test]
fn sysv_record_of_unnamed_bit_fields() {
    // struct { unsigned char :5; } has size 1 but no data: a GPR while any is left, and no
    // stack slot at all after that (gcc).
    let pad = rec(vec![Field::bitfield(None, Type::Int(IntKind::UChar), 5)]);
    assert_eq!(args(X64, vec![pad.clone(), long()]), "0.0+1:rdi 1.0+8:rsi");
    let mut p: Vec<Type> = (0..6).map(|_| long()).collect();
    p.push(pad);
    p.push(long());
    assert!(args(X64, p).ends_with("5.0+8:r9 7.0+8:s0"));
}

#[test]
fn mips_o32_variadic_and_empty_arguments_end_fp_registers() {
    const MIPS: &str = "mipsel-linux-gnu";
    // A variadic callee takes its named doubles in integer registers.
    let sig = Signature::variadic(Type::Void, [Type::double(), Type::int()], 1);
    assert_eq!(
        show(MIPS, &plan(MIPS, &sig), false),
        "0.0+4:$4 0.4+4:$5 1.0+4:$6[vararg]"
    );
    // An empty struct takes no word but is not floating point.
    assert_eq!(
        args(MIPS, vec![Type::structure([]), Type::double()]),
        "1.0+4:$4 1.4+4:$5"
    );
    // An empty struct result still goes through memory.
    let p = plan(MIPS, &Signature::new(Type::structure([]), [Type::int()]));
    assert_eq!(show(MIPS, &p, true), "0.0+4:$4[sret] 0.0+4:$2[sretout]");
}

/// gcc 12's rules the two-compiler test found (tests/abi-two/FINDINGS.md F6, F9): a
/// 2-byte union at an odd offset makes the record MEMORY; an array of packed records is
/// classified by its first element, so its later, misaligned floats do not.
#[test]
fn sysv_misaligned_unions_and_arrays_of_packed_records() {
    // union U { unsigned : 13; }; struct S { char m1; union U m2; };  (short z after it)
    let u = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![Field::bitfield(None, Type::Int(IntKind::UInt), 13)],
        ..Record::default()
    }));
    let s = rec(vec![f("m1", Type::Int(IntKind::Char)), f("m2", u)]);
    assert_eq!(
        args(X64, vec![s, Type::Int(IntKind::Short)]),
        "0.0+3:s0 1.0+2:rdi[sext32]"
    );
    // A union's bit-field is judged by the mode of its width (gcc 12, measured), a union
    // of other members by those members: `struct __attribute__((packed)) { char c[N];
    // union __attribute__((packed)) { T x : W; } u; }` for (N, T, W):
    let bf_union = |ty: Type, w: u32| {
        Type::Record(Box::new(Record {
            is_union: true,
            fields: vec![Field::bitfield(Some("x"), ty, w)],
            packed: true,
            ..Record::default()
        }))
    };
    let behind = |n: u64, u: Type| {
        Type::Record(Box::new(Record {
            fields: vec![f("c", Type::array(Type::Int(IntKind::Char), n)), f("u", u)],
            packed: true,
            ..Record::default()
        }))
    };
    let int = || Type::Int(IntKind::Int);
    // int : 17 (32-bit mode) at 2: memory; int : 16 (16-bit mode) at 2: registers.
    assert_eq!(args(X64, vec![behind(2, bf_union(int(), 17))]), "0.0+5:s0");
    assert_eq!(args(X64, vec![behind(2, bf_union(int(), 16))]), "0.0+4:rdi");
    // long : 33 (64-bit mode) at 4: memory; at 8: registers.
    assert_eq!(args(X64, vec![behind(4, bf_union(long(), 33))]), "0.0+9:s0");
    assert_eq!(
        args(X64, vec![behind(8, bf_union(long(), 33))]),
        "0.0+8:rdi 0.8+5:rsi"
    );
    // union { char c[2]; } at 1: registers (an array member has no mode to misalign);
    // union { short x; char y[3]; } at 9: memory (the short is misaligned).
    let chars2 = Type::union([Type::array(Type::Int(IntKind::Char), 2)]);
    assert_eq!(args(X64, vec![behind(1, chars2)]), "0.0+3:rdi");
    let short_chars3 = Type::union([
        Type::Int(IntKind::Short),
        Type::array(Type::Int(IntKind::Char), 3),
    ]);
    assert_eq!(args(X64, vec![behind(9, short_chars3)]), "0.0+13:s0");
    // #pragma pack(1) struct P { float f; char c; }; struct T { struct P p[3]; };
    let p = Type::Record(Box::new(Record {
        fields: vec![f("f", Type::float()), f("c", Type::Int(IntKind::Char))],
        pack: Some(1),
        ..Record::default()
    }));
    let t = rec(vec![f("p", Type::array(p, 3))]);
    assert_eq!(
        args(X64, vec![Type::Int(IntKind::Short), t]),
        "0.0+2:rdi[sext32] 1.0+8:rsi 1.8+7:rdx"
    );
    // struct Q { short m : W; long : 8; }; struct __attribute__((packed)) P { struct Q q; };
    // struct R { char c; struct P p; long long l; };  A 16-bit field at bit 0 of Q is an
    // ordinary short to gcc, misaligned at offset 1 of R: memory. 15 bits stay a
    // bit-field: registers (gcc 12, measured).
    let r_with = |w: u32| {
        let q = rec(vec![
            Field::bitfield(Some("m"), Type::Int(IntKind::Short), w),
            Field::bitfield(None, long(), 8),
        ]);
        let p = Type::Record(Box::new(Record {
            fields: vec![f("q", q)],
            packed: true,
            ..Record::default()
        }));
        rec(vec![
            f("c", Type::Int(IntKind::SChar)),
            f("p", p),
            f("l", Type::Int(IntKind::LongLong)),
        ])
    };
    assert_eq!(args(X64, vec![r_with(16)]), "0.0+16:s0");
    assert_eq!(args(X64, vec![r_with(15)]), "0.0+8:rdi 0.8+8:rsi");
}

/// The worked example of the System V x86-64 psABI (§3.2.3, "Parameter Passing Example":
/// `func(e, f, s, g, h, ld, m, y, z, n, i, j, k)` with `structparm s = { int a, b; double
/// d; }`). Its `__m256 y` and `__m512 z` need AVX registers, which the plans (and gcc
/// without `-mavx`) do not use; without them `n` takes the next xmm register, xmm2 instead
/// of the document's xmm4; everything else is placed as the document's table says.
#[test]
fn sysv_psabi_parameter_passing_example() {
    let i = Type::int;
    let structparm = Type::structure([i(), i(), Type::double()]);
    assert_eq!(
        args(
            X64,
            vec![
                i(),
                i(),
                structparm,
                i(),
                i(),
                Type::long_double(),
                Type::double(),
                Type::double(),
                i(),
                i(),
                i(),
            ]
        ),
        // e: rdi, f: rsi, s.a and s.b: rdx, s.d: xmm0, g: rcx, h: r8, ld: stack 0,
        // m: xmm1, n: xmm2, i: r9, j: stack 16, k: stack 24.
        "0.0+4:rdi 1.0+4:rsi 2.0+8:rdx 2.8+8:xmm0 3.0+4:rcx 4.0+4:r8 5.0+16:s0 \
         6.0+8:xmm1 7.0+8:xmm2 8.0+4:r9 9.0+4:s16 10.0+4:s24"
    );
}

/// The worked examples of Microsoft's "x64 calling convention" page (parameter passing
/// and return values), in its words, as plans.
#[test]
fn win64_documented_examples() {
    let i = Type::int;
    let i64t = || Type::Int(IntKind::LongLong);
    // func1(int a, int b, int c, int d, int e, int f);
    // "a in RCX, b in RDX, c in R8, d in R9, f then e pushed on stack"
    assert_eq!(
        args(WIN, vec![i(), i(), i(), i(), i(), i()]),
        "0.0+4:rcx 1.0+4:rdx 2.0+4:r8 3.0+4:r9 4.0+4:s32 5.0+4:s40"
    );
    // func2(int a, double b, int c, float d, int e, float f);
    // "a in RCX, b in XMM1, c in R8, d in XMM3, f then e pushed on stack"
    assert_eq!(
        args(
            WIN,
            vec![i(), Type::double(), i(), Type::float(), i(), Type::float()]
        ),
        "0.0+4:rcx 1.0+8:xmm1 2.0+4:r8 3.0+4:xmm3 4.0+4:s32 5.0+4:s40"
    );
    // __int64 func1(int a, float b, int c, int d, int e);
    // "a in RCX, b in XMM1, c in R8, d in R9, e pushed on stack, callee returns __int64
    // result in RAX"
    let sig = Signature::new(i64t(), [i(), Type::float(), i(), i(), i()]);
    let p = plan(WIN, &sig);
    assert_eq!(
        show(WIN, &p, false),
        "0.0+4:rcx 1.0+4:xmm1 2.0+4:r8 3.0+4:r9 4.0+4:s32"
    );
    assert_eq!(show(WIN, &p, true), "0.0+8:rax");
    // struct Struct1 { int j, k, l; }; Struct1 func3(int a, double b, int c, float d);
    // "Caller allocates memory for Struct1 returned and passes pointer in RCX, a in RDX,
    // b in XMM2, c in R9, d pushed on the stack; callee returns pointer to Struct1 result
    // in RAX"
    let s1 = Type::structure(vec![i(), i(), i()]);
    let p = plan(
        WIN,
        &Signature::new(s1, [i(), Type::double(), i(), Type::float()]),
    );
    assert_eq!(show(WIN, &p, true), "0.0+8:rcx[sret] 0.0+8:rax[sretout]");
    assert_eq!(
        show(WIN, &p, false),
        "0.0+4:rdx 1.0+8:xmm2 2.0+4:r9 3.0+4:s32"
    );
    // struct Struct2 { int j, k; }; Struct2 func4(int a, double b, int c, float d);
    // "a in RCX, b in XMM1, c in R8, and d in XMM3; callee returns Struct2 result by
    // value in RAX"
    let s2 = Type::structure(vec![i(), i()]);
    let p = plan(
        WIN,
        &Signature::new(s2, [i(), Type::double(), i(), Type::float()]),
    );
    assert_eq!(
        show(WIN, &p, false),
        "0.0+4:rcx 1.0+8:xmm1 2.0+4:r8 3.0+4:xmm3"
    );
    assert_eq!(show(WIN, &p, true), "0.0+8:rax");
    // Every call reserves the 32-byte home area.
    assert_eq!(plan(WIN, &Signature::new(Type::Void, [])).stack, 32);
}

/// The rules Apple's "Writing ARM64 code for Apple platforms" states, with its examples.
#[test]
fn apple_arm64_documented_examples() {
    let c = || Type::Int(IntKind::Char);
    // "Function arguments may consume slots on the stack that are not multiples of 8
    // bytes": void two_stack_args(char w0, ..., char w7, char s0, char s1);
    // s0 at [sp], s1 at [sp+1].
    let p: Vec<Type> = (0..10).map(|_| c()).collect();
    let a = args(APPLE, p);
    assert!(a.ends_with("7.0+1:x7[sext32] 8.0+1:s0 9.0+1:s1"), "{a}");
    // "The caller of a function is responsible for sign or zero extending any argument
    // with fewer than 32 bits" (in registers).
    assert_eq!(args(APPLE, vec![c()]), "0.0+1:x0[sext32]");
    assert_eq!(
        args(APPLE, vec![Type::Int(IntKind::UShort)]),
        "0.0+2:x0[zext32]"
    );
    // Variadic arguments: "the compiler places all variadic arguments on the stack",
    // each in an 8-byte-aligned slot: printf(fmt, int, double).
    let sig = Signature::variadic(Type::int(), [Type::Pointer, Type::int(), Type::double()], 1);
    assert_eq!(
        show(APPLE, &plan(APPLE, &sig), false),
        "0.0+8:x0 1.0+4:s0[vararg] 2.0+8:s8[vararg]"
    );
    // "long double is a double-precision floating-point type".
    assert_eq!(args(APPLE, vec![Type::long_double()]), "0.0+8:v0");
}

#[test]
fn a_padded_member_makes_no_homogeneous_aggregate() {
    // Measured with aarch64-linux-gnu-gcc and arm-linux-gnueabihf-gcc 12 (the AArch64
    // two-compiler test found it): `struct P { float m __attribute__((aligned(8))); }` is
    // 8 bytes holding one float, so no homogeneous aggregate (x0 / r0-r1), and neither is
    // `union { struct P s; _Complex float c; }`, although its floats cover its 8 bytes
    // through the other member.
    let padded = rec(vec![f("m", Type::Aligned(Box::new(Type::float()), 8))]);
    assert_eq!(args(A64, vec![padded.clone()]), "0.0+8:x0");
    let u = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![f("s", padded), f("c", Type::Complex(FloatKind::Float))],
        ..Record::default()
    }));
    assert_eq!(args(A64, vec![u.clone()]), "0.0+8:x0");
    assert_eq!(args(ARMHF, vec![u]), "0.0+4:r0 0.4+4:r1");
    // Without the padding the union is an HFA of two floats.
    let plain = Type::Record(Box::new(Record {
        is_union: true,
        fields: vec![
            f("s", rec(vec![f("m", Type::float())])),
            f("c", Type::Complex(FloatKind::Float)),
        ],
        ..Record::default()
    }));
    assert_eq!(args(A64, vec![plain]), "0.0+4:v0 0.4+4:v1");
}
