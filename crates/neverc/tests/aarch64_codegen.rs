//! Exact AArch64 code for small functions at -O1 (`-S`, instructions only: no labels,
//! directives or CFI): frameless leaves, the frame record around calls, fused compares,
//! immediates, addressing, binary128 arithmetic through libgcc, empty and non-empty asm statements,
//! refusals by name.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A directory of its own for each compilation: tests run in parallel, and two of them
/// may look at functions of the same name.
fn scratch_dir(tag: &str) -> std::path::PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    std::env::temp_dir().join(format!("neverc-a64-{tag}-{}-{n}", std::process::id()))
}

/// The instruction lines of function `name` in the `-S` output for `src`.
fn code(src: &str, name: &str) -> Vec<String> {
    code_with(src, name, &[])
}

/// As [`code`], with more options.
fn code_with(src: &str, name: &str, extra: &[&str]) -> Vec<String> {
    let dir = scratch_dir("cg");
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("t.c");
    std::fs::write(&c, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(["--target=aarch64-linux-gnu", "-O1", "-S", "-o", "-"])
        .args(extra)
        .arg(&c)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = Vec::new();
    let mut inside = false;
    for l in text.lines() {
        if l == format!("{name}:") {
            inside = true;
            continue;
        }
        if inside {
            if l.starts_with("\t.size") || l.starts_with("\t.cfi_endproc") {
                break;
            }
            // Instructions, and the data words of jump tables.
            if l.starts_with('\t') && (!l.starts_with("\t.") || l.starts_with("\t.word")) {
                lines.push(l.trim().to_string());
            }
        }
    }
    lines
}

fn refusal(src: &str) -> String {
    let dir = scratch_dir("ref");
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("t.c");
    std::fs::write(&c, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(["--target=aarch64-linux-gnu", "-O1", "-c", "-o"])
        .arg(dir.join("t.o"))
        .arg(&c)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_leaf_has_no_frame() {
    assert_eq!(
        code("int add(int a, int b) { return a + b; }", "add"),
        ["add w0, w0, w1", "ret"]
    );
    assert_eq!(
        code("long f(long a) { return a * 9 + 4096; }", "f"),
        ["add x2, x0, x0, lsl #3", "add x0, x2, #1, lsl #12", "ret"]
    );
}

#[test]
fn compares_are_fused_and_results_set() {
    assert_eq!(
        code("int lt(long a, long b) { return a < b; }", "lt"),
        ["cmp x0, x1", "cset w0, lt", "ret"]
    );
    assert_eq!(
        // AAPCS64 leaves a char argument's upper bits unspecified: the callee extends.
        code("int z(unsigned char c) { return c == 200; }", "z"),
        ["uxtb w2, w0", "cmp w2, #200", "cset w0, eq", "ret"]
    );
}

#[test]
fn field_offsets_fold_into_the_access() {
    assert_eq!(
        code(
            "struct s { int a; long b; }; long get(struct s *p) { return p->b; }",
            "get"
        ),
        ["ldr x0, [x0, #8]", "ret"]
    );
}

#[test]
fn calls_keep_the_frame_record() {
    let c = code("int g(int); int f(int x) { return g(x) + 1; }", "f");
    assert_eq!(
        c,
        [
            "stp x29, x30, [sp, #-16]!",
            "mov x29, sp",
            "bl g",
            "add w0, w0, #1",
            "mov sp, x29",
            "ldp x29, x30, [sp], #16",
            "ret"
        ]
    );
}

#[test]
fn long_double_arithmetic_calls_libgcc() {
    let c = code(
        "long double mul(long double a, long double b) { return a * b; }",
        "mul",
    );
    assert!(c.contains(&"bl __multf3".to_string()), "{c:?}");
}

#[test]
fn an_empty_asm_passes_its_tied_operand_through() {
    assert_eq!(
        code(
            "int f(int x) { __asm__ volatile(\"\" : \"+r\"(x) : : \"memory\"); return x + 1; }",
            "f"
        ),
        ["mov x2, x0", "add w0, w2, #1", "ret"]
    );
}

#[test]
fn unsupported_constructs_are_refused_by_name() {
    let e = refusal("void f(void) { __asm__ volatile(\"isb\"); }");
    assert!(
        e.contains("neverc cannot assemble 'isb' in inline asm yet"),
        "{e}"
    );
    let e = refusal("int f(int x) { __asm__(\"nop\" : \"+x\"(x)); return x; }");
    assert!(
        e.contains("neverc cannot compile the asm constraint 'x' (letter 'x') for aarch64 yet"),
        "{e}"
    );
    let e = refusal(
        "int f(int x) { int r; __asm__(\"add %w0, %w1, #%2\" : \"=r\"(r) : \"r\"(x), \"i\"(5000)); return r; }",
    );
    // Named in the template's own terms.
    assert!(
        e.contains("neverc cannot assemble 'add %w0, %w1, #5000' in inline asm yet"),
        "{e}"
    );
    let e = refusal("void f(void) { __asm__ volatile(\"mov x30, #0\" ::: \"x30\"); }");
    assert!(
        e.contains("neverc cannot compile an asm statement that clobbers 'x30' for aarch64 yet"),
        "{e}"
    );
    let e = refusal("void f(void) { __asm__ volatile(\"nop\" ::: \"x99\"); }");
    assert!(e.contains("unknown register name 'x99' in 'asm'"), "{e}");
}

#[test]
fn asm_templates_become_instructions() {
    // Operands in the allocated registers, `%w`, bare immediates, a tied "+r" copied into
    // its output first, named operands and local labels.
    assert_eq!(
        code(
            "long f(long a, int b) { long r; __asm__(\"add %0, %1, %w2, sxtw\\n\\tadd %0, %0, %3\" : \"=&r\"(r) : \"r\"(a), \"r\"(b), \"i\"(12)); return r; }",
            "f"
        ),
        // The early-clobbered output may not share a register with the inputs.
        ["mov x4, x0", "add x0, x4, w1, sxtw", "add x0, x0, #12", "ret"]
    );
    assert_eq!(
        code(
            "unsigned long f(unsigned long n) { unsigned long acc = 0; __asm__(\"1: add %[a], %[a], %[n]; subs %[n], %[n], #1; b.ne 1b\" : [a] \"+r\"(acc), [n] \"+r\"(n) :: \"cc\"); return acc; }",
            "f"
        ),
        [
            "mov x6, x0",
            "movz x3, #0",
            "mov x0, x3",
            "mov x5, x6",
            "add x0, x0, x5",
            "subs x5, x5, #1",
            "b.ne .Lf0_1073741826",
            "ret"
        ]
    );
    // A callee-saved clobber is saved by the function.
    assert_eq!(
        code(
            "void f(void) { __asm__ volatile(\"mov x19, #1\" ::: \"x19\"); }",
            "f"
        ),
        [
            "stp x29, x30, [sp, #-16]!",
            "mov x29, sp",
            "sub sp, sp, #16",
            "stur x19, [x29, #-16]",
            "movz x19, #1",
            "ldur x19, [x29, #-16]",
            "mov sp, x29",
            "ldp x29, x30, [sp], #16",
            "ret"
        ]
    );
}

#[test]
fn tests_against_zero_and_single_bits_branch_on_the_register() {
    // A pointer tested for null: cbz.
    let c = code(
        "int walk(long *p) { int n = 0; while (p) { n++; p = (long *)*p; } return n; }",
        "walk",
    );
    assert_eq!(c[3], "cbz x9, .Lf0_3", "{c:?}");
    // A single-bit `and` compared with zero: tbz, the `and` not computed.
    let c = code(
        "int bits(unsigned x) { int n = 0; while (x & 8) { n++; x >>= 1; } return n; }",
        "bits",
    );
    assert_eq!(
        c[3..],
        [
            "tbz w9, #3, .Lf0_3",
            "add w0, w0, #1",
            "lsr w9, w9, #1",
            "b .Lf0_1",
            "ret"
        ],
        "{c:?}"
    );
    // A sign test: the sign bit.
    let c = code(
        "int neg(long *p) { int n = 0; while (*p < 0) { n++; p++; } return n; }",
        "neg",
    );
    assert_eq!(c[3..5], ["ldr x7, [x10]", "tbz x7, #63, .Lf0_3"], "{c:?}");
    // x == 0 of an int: cbnz to the other side.
    let c = code(
        "int g(int); int f(int x) { if (x == 0) return g(1); return 3; }",
        "f",
    );
    assert_eq!(c[2], "cbnz w0, .Lf0_2", "{c:?}");
}

#[test]
fn multiplications_shifts_and_extensions_fold_into_their_user() {
    let one = |src: &str, name: &str| code(src, name);
    assert_eq!(
        one("long f(long a, long b, long c) { return a * b + c; }", "f"),
        ["madd x0, x0, x1, x2", "ret"]
    );
    assert_eq!(
        one("long f(long a, long b, long c) { return c - a * b; }", "f"),
        ["msub x0, x0, x1, x2", "ret"]
    );
    assert_eq!(
        one("long f(long a, long b) { return a + (b << 3); }", "f"),
        ["add x0, x0, x1, lsl #3", "ret"]
    );
    assert_eq!(
        one("long f(long a, int i) { return a + i; }", "f"),
        ["add x0, x0, w1, sxtw", "ret"]
    );
    assert_eq!(
        one("long f(long a, int i) { return a + ((long)i << 3); }", "f"),
        ["add x0, x0, w1, sxtw #3", "ret"]
    );
    assert_eq!(
        one("int f(int a, unsigned char c) { return a + c; }", "f"),
        ["add w0, w0, w1, uxtb", "ret"]
    );
    assert_eq!(
        one("unsigned f(unsigned a, unsigned b) { return a & ~b; }", "f"),
        ["bic w0, w0, w1", "ret"]
    );
    assert_eq!(
        one(
            "int f(int a, unsigned b) { return a ^ (int)(b >> 5); }",
            "f"
        ),
        ["eor w0, w0, w1, lsr #5", "ret"]
    );
}

#[test]
fn indexed_accesses_use_register_offsets() {
    assert_eq!(
        code("long f(long *p, int i) { return p[i]; }", "f"),
        ["ldr x0, [x0, w1, sxtw #3]", "ret"]
    );
    assert_eq!(
        code("int f(int *p, unsigned i) { return p[i]; }", "f"),
        ["ldr w0, [x0, w1, uxtw #2]", "ret"]
    );
    assert_eq!(
        code("char f(char *p, long i) { return p[i]; }", "f"),
        ["ldrb w0, [x0, x1]", "ret"]
    );
    assert_eq!(
        code("void f(double *p, long i, double v) { p[i] = v; }", "f"),
        ["str d0, [x0, x1, lsl #3]", "ret"]
    );
}

#[test]
fn dense_switches_jump_through_a_table() {
    let src = "int f(int x) { switch (x) { case 1: return 10; case 2: return 22; \
               case 3: return 31; case 4: return 47; case 5: return 53; case 6: return 68; \
               case 8: return 80; case 9: return 9; default: return -1; } }";
    let c = code(src, "f");
    assert_eq!(
        c[..7],
        [
            "sub w16, w0, #1",
            "cmp w16, #8",
            "b.hi .Lf0_9",
            "adr x17, .Lf0_1073741825",
            "ldrsw x16, [x17, w16, uxtw #2]",
            "add x17, x17, x16",
            "br x17"
        ],
        "{c:?}"
    );
    // The table after the code: case 7 goes to the default.
    let table: Vec<&String> = c.iter().filter(|l| l.starts_with(".word")).collect();
    assert_eq!(table.len(), 9, "{c:?}");
    assert_eq!(table[6], ".word .Lf0_9-.Lf0_1073741825");
    // A negative minimum is added; a signed char is sign-extended first.
    let src = "int f(signed char x) { switch (x) { case -3: return 10; case -2: return 22; \
               case -1: return 31; case 0: return 47; case 1: return 53; case 2: return 68; \
               case 4: return 80; case 5: return 9; default: return -1; } }";
    let c = code(src, "f");
    assert_eq!(
        c[..3],
        ["sxtb w2, w0", "add w16, w2, #3", "cmp w16, #8"],
        "{c:?}"
    );
    // Four sparse cases stay a chain of compares.
    let c = code(
        "int f(int x) { switch (x) { case 1: return 3; case 50: return 4; \
         case 900: return 5; case 4000: return 6; } return 0; }",
        "f",
    );
    assert!(!c.iter().any(|l| l.starts_with("br ")), "{c:?}");
}

#[test]
fn atomics_use_lse_with_march_armv8_1() {
    let src = "long n; int m; short h; \
               long add(long v) { return __atomic_fetch_add(&n, v, __ATOMIC_SEQ_CST); } \
               long sub(long v) { return __atomic_fetch_sub(&n, v, __ATOMIC_SEQ_CST); } \
               int and(int v) { return __atomic_fetch_and(&m, v, __ATOMIC_SEQ_CST); } \
               int or(int v) { return __atomic_fetch_or(&m, v, __ATOMIC_SEQ_CST); } \
               int xor(int v) { return __atomic_fetch_xor(&m, v, __ATOMIC_SEQ_CST); } \
               int xchg(int v) { return __atomic_exchange_n(&m, v, __ATOMIC_SEQ_CST); } \
               short cas(short e, short v) { __atomic_compare_exchange_n(&h, &e, v, 0, \
                   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return e; }";
    let lse = |name: &str| -> Vec<String> {
        code_with(src, name, &["-march=armv8.1-a"])
            .into_iter()
            .filter(|l| !l.starts_with("adrp") && !l.starts_with("add x") && l != "ret")
            .collect()
    };
    assert_eq!(lse("add"), ["ldaddal x0, x0, [x3]"]);
    assert_eq!(lse("sub"), ["neg x5, x0", "ldaddal x5, x0, [x3]"]);
    assert_eq!(lse("and"), ["mvn w5, w0", "ldclral w5, w0, [x3]"]);
    assert_eq!(lse("or"), ["ldsetal w0, w0, [x3]"]);
    assert_eq!(lse("xor"), ["ldeoral w0, w0, [x3]"]);
    assert_eq!(lse("xchg"), ["swpal w0, w0, [x3]"]);
    // The old value comes back in the expected value's register.
    assert_eq!(lse("cas"), ["casalh w0, w1, [x4]"]);
    // Later architectures and +lse have them; +nolse and plain armv8-a do not.
    for m in ["-march=armv8.2-a", "-march=armv9-a", "-march=armv8-a+lse"] {
        let c = code_with(src, "add", &[m]);
        assert!(c.iter().any(|l| l.starts_with("ldaddal ")), "{m}: {c:?}");
    }
    for m in ["-march=armv8-a", "-march=armv8.1-a+nolse"] {
        let c = code_with(src, "add", &[m]);
        assert!(c.iter().any(|l| l.starts_with("ldaxr ")), "{m}: {c:?}");
        assert!(!c.iter().any(|l| l.starts_with("ldadd")), "{m}: {c:?}");
    }
    let c = code(src, "add");
    assert!(c.iter().any(|l| l.starts_with("stlxr ")), "{c:?}");
}

#[test]
fn shift_pairs_are_bitfield_moves_and_loads_are_already_extended() {
    assert_eq!(
        code("unsigned f(unsigned x) { return (x << 4) >> 8; }", "f"),
        ["ubfx w0, w0, #4, #24", "ret"]
    );
    assert_eq!(
        code("int f(int x) { return (x << 20) >> 28; }", "f"),
        ["sbfx w0, w0, #8, #4", "ret"]
    );
    assert_eq!(
        code("unsigned f(unsigned x) { return (x << 8) >> 4; }", "f"),
        ["ubfiz w0, w0, #4, #24", "ret"]
    );
    // ldrb zero-extends: no uxtb before the compare.
    assert_eq!(
        code("int f(unsigned char *p) { return *p < 7; }", "f"),
        ["ldrb w2, [x0]", "cmp w2, #7", "cset w0, lt", "ret"]
    );
}

#[test]
fn selects_against_zero_and_one_use_the_zero_register() {
    // isz ? 0 : r is a csel with wzr; sign ? -1 : 1 a csinv.
    let c: Vec<String> = code("int f(double x) { return __builtin_isinf_sign(x); }", "f")
        .into_iter()
        .filter(|l| !l.starts_with(".word"))
        .collect();
    assert_eq!(
        c[c.len() - 5..],
        [
            "cmp w1, #0",
            "csinv w0, w0, wzr, eq",
            "tst w12, #0xff",
            "csel w0, w0, wzr, ne",
            "ret"
        ],
        "{c:?}"
    );
}

#[test]
fn extensions_of_loads_are_the_loads() {
    assert_eq!(
        code("int f(signed char *p) { return *p + 1; }", "f"),
        ["ldrsb w2, [x0]", "add w0, w2, #1", "ret"]
    );
    assert_eq!(
        code("long f(int *p) { return *p; }", "f"),
        ["ldrsw x0, [x0]", "ret"]
    );
    assert_eq!(
        code("long f(short *p, long x) { return x + *p; }", "f"),
        ["ldrsh x3, [x0]", "add x0, x1, x3", "ret"]
    );
    assert_eq!(
        code("int f(unsigned char *p, int x) { return x + *p; }", "f"),
        ["ldrb w3, [x0]", "add w0, w1, w3", "ret"]
    );
}

#[test]
fn float_constants_come_from_a_literal_pool() {
    // One entry for both uses of pi, 8-byte aligned after the code (a padding word first
    // here); fmov immediates stay immediates.
    let c = code(
        "double f(double x) { return x * 3.141592653589793 + 3.141592653589793 * 2.0; }",
        "f",
    );
    assert_eq!(
        c,
        [
            "ldr d3, .Lf0_1073741825",
            "fmul d3, d0, d3",
            "ldr d7, .Lf0_1073741825",
            "fmov d16, #2.0",
            "fmul d16, d7, d16",
            "fadd d0, d3, d16",
            "ret",
            ".word 0x00000000",
            ".word 0x54442d18",
            ".word 0x400921fb"
        ],
        "{c:?}"
    );
    // A constant two moves make: the general register and fmov (12 bytes, no load).
    assert_eq!(
        code("double f(double x) { return x + 65536.5; }", "f"),
        [
            "movz x4, #8, lsl #32",
            "movk x4, #0x40f0, lsl #48",
            "fmov d3, x4",
            "fadd d0, d0, d3",
            "ret"
        ]
    );
    let c = code("float f(float x) { return x * 0.1f; }", "f");
    assert_eq!(
        c,
        [
            "ldr s3, .Lf0_1073741825",
            "fmul s0, s0, s3",
            "ret",
            ".word 0x3dcccccd"
        ],
        "{c:?}"
    );
}

#[test]
fn compares_take_shifted_and_negated_immediates() {
    assert_eq!(
        code("int f(long x) { return x == 0x5000; }", "f"),
        ["cmp x0, #5, lsl #12", "cset w0, eq", "ret"]
    );
    assert_eq!(
        code("int f(long x) { return x < -7; }", "f"),
        ["cmn x0, #7", "cset w0, lt", "ret"]
    );
    assert_eq!(
        code("int f(int x) { return x > -0x3000; }", "f"),
        ["cmn w0, #3, lsl #12", "cset w0, gt", "ret"]
    );
    // A chain of compares: `case -1` is `cmn w0, #1`.
    let c = code(
        "int f(int x) { switch (x) { case -1: return 4; case 0x7000: return 9; } return 0; }",
        "f",
    );
    assert_eq!(
        c[..4],
        [
            "cmn w0, #1",
            "b.eq .Lf0_1",
            "cmp w0, #7, lsl #12",
            "b.eq .Lf0_2"
        ]
    );
}

#[test]
fn int128_values_are_register_pairs() {
    let src = "void add(__int128 *d, __int128 *a, __int128 *b) { *d = *a + *b; }\n\
               void mul(unsigned __int128 *d, unsigned __int128 *a, unsigned __int128 *b) { *d = *a * *b; }\n\
               int lt(__int128 *a, __int128 *b) { return *a < *b; }\n\
               int ne(__int128 *a, __int128 *b) { return *a != *b; }\n\
               void shl(__int128 *d, __int128 *a) { *d = *a << 9; }\n\
               void sar(__int128 *d, __int128 *a) { *d = *a >> 70; }\n";
    assert_eq!(
        code(src, "add"),
        [
            "ldp x4, x5, [x1]",
            "ldp x7, x8, [x2]",
            "adds x10, x4, x7",
            "adc x11, x5, x8",
            "stp x10, x11, [x0]",
            "ret"
        ]
    );
    assert_eq!(
        code(src, "mul"),
        [
            "ldp x4, x5, [x1]",
            "ldp x7, x8, [x2]",
            "umulh x12, x4, x7",
            "madd x12, x4, x8, x12",
            "madd x11, x5, x7, x12",
            "mul x10, x4, x7",
            "stp x10, x11, [x0]",
            "ret"
        ]
    );
    assert_eq!(
        code(src, "lt"),
        [
            "ldp x3, x4, [x0]",
            "ldp x6, x7, [x1]",
            "cmp x3, x6",
            "sbcs xzr, x4, x7",
            "cset w0, lt",
            "ret"
        ]
    );
    assert_eq!(
        code(src, "ne"),
        [
            "ldp x3, x4, [x0]",
            "ldp x6, x7, [x1]",
            "cmp x3, x6",
            "ccmp x4, x7, #0, eq",
            "cset w0, ne",
            "ret"
        ]
    );
    assert_eq!(
        code(src, "shl"),
        [
            "ldp x3, x4, [x1]",
            "extr x7, x4, x3, #55",
            "lsl x6, x3, #9",
            "stp x6, x7, [x0]",
            "ret"
        ]
    );
    assert_eq!(
        code(src, "sar"),
        [
            "ldp x3, x4, [x1]",
            "asr x6, x4, #6",
            "asr x7, x4, #63",
            "stp x6, x7, [x0]",
            "ret"
        ]
    );
}
