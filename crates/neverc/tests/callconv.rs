//! Custom calling conventions (issue 6), end to end: each test compiles C with a spec (by
//! attribute or policy), checks where values are placed in the object's disassembly
//! (`llvm-objdump`), and runs the program to check the values arrive. The categories
//! follow the spec's own test list: pool, positional, stack, spill, i64, sret, byval,
//! fallback; `custom_attr` in GNU and `__declspec` form, end to end across files; plans
//! (materialised, given, rejected); csr, varargs, indirect calls, rsp, csr conflicts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn neverc_in(dir: &Path, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("neverc runs");
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("neverc-cc-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// Compiles `src` (written as `name`) to `name.o`; panics with the diagnostics on failure.
/// Returns the diagnostics (warnings, notes).
fn compile(dir: &Path, name: &str, src: &str, args: &[&str]) -> String {
    write(dir, name, src);
    let obj = format!("{name}.o");
    let mut a = vec!["-c", name, "-o", &obj];
    a.extend_from_slice(args);
    let o = neverc_in(dir, &a);
    assert_eq!(o.code, 0, "{name} {args:?}:\n{}", o.stderr);
    o.stderr
}

/// Compiles and links the sources at -O0 and at -O1 (with `args`), runs the program and
/// returns its output, which must be the same both times.
fn run(dir: &Path, srcs: &[(&str, &str)], args: &[&str]) -> String {
    let mut outs = Vec::new();
    for opt in ["-O0", "-O1"] {
        let mut a: Vec<&str> = vec![opt, "-o", "prog"];
        for (name, text) in srcs {
            write(dir, name, text);
            a.push(name);
        }
        a.extend_from_slice(args);
        let o = neverc_in(dir, &a);
        assert_eq!(o.code, 0, "{opt} {args:?}:\n{}", o.stderr);
        let r = Command::new(dir.join("prog")).output().unwrap();
        assert!(r.status.success(), "{opt}: the program failed: {r:?}");
        outs.push(String::from_utf8_lossy(&r.stdout).into_owned());
    }
    assert_eq!(outs[0], outs[1], "-O0 and -O1 differ");
    outs.remove(0)
}

/// One function's instructions (`mnemonic operands`, blanks normalised), with each call's
/// relocation target as `call NAME`.
type Disasm = HashMap<String, Vec<String>>;

fn disasm(dir: &Path, obj: &str) -> Disasm {
    let o = Command::new("llvm-objdump")
        .args(["-dr", "--no-show-raw-insn", "--no-leading-addr", obj])
        .current_dir(dir)
        .output()
        .expect("llvm-objdump runs");
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let mut funcs: Disasm = HashMap::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('<').and_then(|l| l.strip_suffix(">:")) {
            cur = Some(name.to_string());
            funcs.insert(name.to_string(), Vec::new());
            continue;
        }
        let Some(f) = cur.as_ref() else { continue };
        let insts = funcs.get_mut(f).unwrap();
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.contains("R_X86_64_PLT32")
            || (t.contains("R_X86_64_PC32")
                && insts
                    .last()
                    .is_some_and(|l: &String| l.starts_with("callq")))
        {
            // The relocation of the call just read: name its target.
            let target = t.split_whitespace().last().unwrap();
            let target = target.split(['-', '+']).next().unwrap();
            if insts.last().is_some_and(|l| l.starts_with("callq")) {
                *insts.last_mut().unwrap() = format!("call {target}");
            }
            continue;
        }
        if t.starts_with(|c: char| c.is_ascii_hexdigit()) && t.contains(":  R_") {
            continue; // another relocation
        }
        let t = t.split('#').next().unwrap().trim();
        insts.push(t.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    funcs
}

/// The operands of an instruction (commas inside parentheses kept).
fn operands(inst: &str) -> Vec<String> {
    let Some((_, ops)) = inst.split_once(' ') else {
        return Vec::new();
    };
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in ops.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap().push(c);
    }
    out.iter().map(|s| s.trim().to_string()).collect()
}

/// The 64-bit (or xmm) name of a register spelled at any width.
fn family(reg: &str) -> String {
    let r = reg.trim_start_matches('%');
    let legacy = [
        ("rax", ["eax", "ax", "al"]),
        ("rbx", ["ebx", "bx", "bl"]),
        ("rcx", ["ecx", "cx", "cl"]),
        ("rdx", ["edx", "dx", "dl"]),
        ("rsi", ["esi", "si", "sil"]),
        ("rdi", ["edi", "di", "dil"]),
        ("rbp", ["ebp", "bp", "bpl"]),
        ("rsp", ["esp", "sp", "spl"]),
    ];
    for (f, others) in legacy {
        if r == f || others.contains(&r) {
            return f.to_string();
        }
    }
    if let Some(n) = r.strip_prefix('r') {
        let num: String = n.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !num.is_empty() {
            return format!("r{num}");
        }
    }
    r.to_string()
}

/// The registers an operand names, as spelled.
fn regs_in(op: &str) -> Vec<String> {
    op.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%'))
        .filter(|t| t.starts_with('%'))
        .map(|t| t.to_string())
        .collect()
}

/// How `reg`'s family is first met in `insts`: `Some((spelling, true))` when read first
/// (a source operand, or inside an address), `Some((spelling, false))` when written first.
fn first_use(insts: &[String], reg: &str) -> Option<(String, bool)> {
    let fam = family(reg);
    for i in insts {
        let ops = operands(i);
        for (k, op) in ops.iter().enumerate() {
            for r in regs_in(op) {
                if family(&r) == fam {
                    let is_dest = k + 1 == ops.len() && ops.len() > 1 && !op.contains('(');
                    // Only plain moves and lea overwrite their destination unread.
                    let overwrites = i.starts_with("mov") || i.starts_with("lea");
                    return Some((r, !(is_dest && overwrites)));
                }
            }
        }
    }
    None
}

/// The instructions of `func` from after the call before the call to `callee` up to it.
fn before_call(d: &Disasm, func: &str, callee: &str) -> Vec<String> {
    let insts = &d[func];
    let at = insts
        .iter()
        .position(|i| *i == format!("call {callee}"))
        .unwrap_or_else(|| panic!("{func} calls {callee}: {insts:#?}"));
    let start = insts[..at]
        .iter()
        .rposition(|i| i.starts_with("call"))
        .map_or(0, |p| p + 1);
    insts[start..at].to_vec()
}

/// The instructions of `func` after its call to `callee`.
fn after_call(d: &Disasm, func: &str, callee: &str) -> Vec<String> {
    let insts = &d[func];
    let at = insts
        .iter()
        .position(|i| *i == format!("call {callee}"))
        .unwrap();
    insts[at + 1..].to_vec()
}

fn has(insts: &[String], inst: &str) -> bool {
    insts.iter().any(|i| i == inst)
}

/// `insts` contains every one of `wanted`.
#[track_caller]
fn assert_has(insts: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(has(insts, w), "no '{w}' in {insts:#?}");
    }
}

/// `reg` (at any width) is read before it is written.
#[track_caller]
fn assert_reads_first(insts: &[String], reg: &str) {
    assert!(
        matches!(first_use(insts, reg), Some((_, true))),
        "{reg} is not read first in {insts:#?}"
    );
}

/// `reg`, spelled at exactly this width, is read before it is written.
#[track_caller]
fn assert_reads_first_exact(insts: &[String], reg: &str) {
    assert_eq!(
        first_use(insts, reg),
        Some((reg.to_string(), true)),
        "{reg} is not read first in {insts:#?}"
    );
}

/// Some instruction writes `reg` (as its last operand).
#[track_caller]
fn assert_writes(insts: &[String], reg: &str) {
    assert!(
        insts.iter().any(|i| i.ends_with(&format!(", {reg}"))),
        "nothing writes {reg} in {insts:#?}"
    );
}

// ---------- placement: x86-64 pool / positional / stack / spill / i64 / sret / byval / fallback

const POOL: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r10,r11,rsi;ret:rdx")))
int add3(int a, int b, int c) { return a * 100 + b * 10 + c; }
int main(void) { printf("%d\n", add3(1, 2, 3)); return 0; }
"#;

#[test]
fn pool_mode_passes_in_the_pool_registers() {
    let dir = temp_dir("pool");
    compile(&dir, "pool.c", POOL, &["-O0"]);
    let d = disasm(&dir, "pool.c.o");
    let call = before_call(&d, "main", "add3");
    assert_has(&call, &["movl $1, %r10d", "movl $3, %esi"]);
    // r11 is the back end's scratch register: the value is moved there last.
    assert_writes(&call, "%r11");
    // The result comes back in rdx, read by the caller.
    assert_reads_first(&after_call(&d, "main", "add3"), "%rdx");
    compile(&dir, "pool.c", POOL, &["-O1"]);
    let d = disasm(&dir, "pool.c.o");
    // The callee reads its arguments where the plan puts them, ints at 32 bits.
    for r in ["%r10d", "%r11d", "%esi"] {
        assert_reads_first(&d["add3"], r);
    }
    assert_eq!(run(&dir, &[("pool.c", POOL)], &[]), "123\n");
}

const POSITIONAL: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "args:rcx,stack,r8;ret:rax")))
long pos(long a, long b, long c) { return a * 100 + b * 10 + c; }
int main(void) { printf("%ld\n", pos(4, 5, 6)); return 0; }
"#;

#[test]
fn positional_mode_with_a_stack_token() {
    let dir = temp_dir("positional");
    compile(&dir, "p.c", POSITIONAL, &["-O0"]);
    let d = disasm(&dir, "p.c.o");
    let call = before_call(&d, "main", "pos");
    assert_has(&call, &["movl $4, %ecx", "movl $6, %r8d"]);
    assert!(call.iter().any(|i| i.ends_with(", (%rsp)")), "{call:#?}");
    compile(&dir, "p.c", POSITIONAL, &["-O1"]);
    let d = disasm(&dir, "p.c.o");
    assert_reads_first(&d["pos"], "%rcx");
    assert_reads_first(&d["pos"], "%r8");
    // The second argument is read from the caller's outgoing area.
    assert!(
        d["pos"].iter().any(|i| i.contains("16(%rbp)")),
        "{:#?}",
        d["pos"]
    );
    assert_eq!(run(&dir, &[("p.c", POSITIONAL)], &[]), "456\n");
}

const STACK: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r9")))
long st(long a, long b, long c, long d) { return a - b * 2 + c * 3 - d * 4; }
int main(void) { printf("%ld\n", st(1000, 100, 10, 1)); return 0; }
"#;

#[test]
fn stack_arguments_after_the_pool() {
    let dir = temp_dir("stack");
    compile(&dir, "s.c", STACK, &["-O0"]);
    let d = disasm(&dir, "s.c.o");
    let call = before_call(&d, "main", "st");
    assert_has(&call, &["movl $1000, %r9d"]);
    for slot in ["(%rsp)", "8(%rsp)", "16(%rsp)"] {
        assert!(
            call.iter().any(|i| i.ends_with(&format!(", {slot}"))),
            "{slot} {call:#?}"
        );
    }
    assert_eq!(run(&dir, &[("s.c", STACK)], &[]), "826\n");
}

const SPILL: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r8,rcx;xmm:xmm7,xmm2")))
double sp(int a, double x, long b, double y, int c, double z, double w) {
    return a + x * 10 + b * 100 + y * 1000 + c * 10000 + z * 100000 + w * 1000000;
}
int main(void) { printf("%.1f\n", sp(1, 2, 3, 4, 5, 6, 7)); return 0; }
"#;

#[test]
fn exhausted_pools_spill_to_the_stack() {
    let dir = temp_dir("spill");
    compile(&dir, "sp.c", SPILL, &["-O0"]);
    let d = disasm(&dir, "sp.c.o");
    let call = before_call(&d, "main", "sp");
    assert_has(&call, &["movl $1, %r8d", "movl $3, %ecx"]);
    // x, y in xmm7, xmm2; c, z, w on the stack.
    assert!(call.iter().any(|i| i.ends_with("%xmm7")), "{call:#?}");
    assert!(call.iter().any(|i| i.ends_with("%xmm2")), "{call:#?}");
    for slot in ["(%rsp)", "8(%rsp)", "16(%rsp)"] {
        assert!(
            call.iter().any(|i| i.ends_with(&format!(", {slot}"))),
            "{slot} {call:#?}"
        );
    }
    compile(&dir, "sp.c", SPILL, &["-O1"]);
    let d = disasm(&dir, "sp.c.o");
    assert_reads_first(&d["sp"], "%xmm7");
    assert_reads_first(&d["sp"], "%xmm2");
    assert_eq!(run(&dir, &[("sp.c", SPILL)], &[]), "7654321.0\n");
}

const WIDTHS: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r10,r11;ret:rdx")))
long wide(int a, long b) { return a * 3L + b * 5; }
int main(void) { printf("%ld\n", wide(-5, -7000000000L)); return 0; }
"#;

#[test]
fn i32_in_the_32_bit_register_i64_in_the_full_one() {
    let dir = temp_dir("i64");
    compile(&dir, "w.c", WIDTHS, &["-O1"]);
    let d = disasm(&dir, "w.c.o");
    let call = before_call(&d, "main", "wide");
    assert_has(
        &call,
        &[
            "movl $4294967291, %r10d",
            "movabsq $-7000000000, %rsi",
            "movq %rsi, %r11",
        ],
    );
    // The callee widens the int from r10d, and takes the long from all of r11.
    assert_reads_first_exact(&d["wide"], "%r10d");
    assert_reads_first_exact(&d["wide"], "%r11");
    assert_eq!(run(&dir, &[("w.c", WIDTHS)], &[]), "-35000000015\n");
}

const SRET: &str = r#"
#include <stdio.h>
struct q { long a, b, c, d; };
__attribute__((custom_attr("neverc-callconv", "gpr:r10,r11;ret:rdx")))
struct q mk(long x) { struct q r = { x, x * 2, x * 3, x * 4 }; return r; }
int main(void) { struct q v = mk(7); printf("%ld %ld %ld %ld\n", v.a, v.b, v.c, v.d); return 0; }
"#;

#[test]
fn a_memory_result_pointer_takes_the_first_pool_register() {
    let dir = temp_dir("sret");
    compile(&dir, "r.c", SRET, &["-O0"]);
    let d = disasm(&dir, "r.c.o");
    let call = before_call(&d, "main", "mk");
    assert!(
        call.iter()
            .any(|i| i.starts_with("leaq") && i.ends_with(", %r10")),
        "{call:#?}"
    );
    assert_writes(&call, "%r11");
    // The callee gives the buffer back in rdx.
    compile(&dir, "r.c", SRET, &["-O1"]);
    let d = disasm(&dir, "r.c.o");
    assert_reads_first(&d["mk"], "%r10");
    assert!(
        d["mk"].iter().any(|i| i.ends_with(", %rdx")),
        "{:#?}",
        d["mk"]
    );
    assert_eq!(run(&dir, &[("r.c", SRET)], &[]), "7 14 21 28\n");
}

const BYVAL: &str = r#"
#include <stdio.h>
struct big { long a, b, c; };
__attribute__((custom_attr("neverc-callconv", "gpr:r9,r8;ret:rcx")))
long sum(struct big s, int k, struct big t) { return (s.a + s.b + s.c) * k - t.c; }
int main(void) {
    struct big x = { 1, 2, 3 }, y = { 4, 5, 600 };
    printf("%ld\n", sum(x, 1000, y));
    return 0;
}
"#;

#[test]
fn records_in_memory_go_on_the_stack_by_value() {
    let dir = temp_dir("byval");
    compile(&dir, "b.c", BYVAL, &["-O0"]);
    let d = disasm(&dir, "b.c.o");
    let call = before_call(&d, "main", "sum");
    assert_has(&call, &["movl $1000, %r9d"]);
    // Both records are copied into the outgoing area: 24 bytes each, at 0 and 24.
    for slot in ["(%rsp)", "16(%rsp)", "24(%rsp)", "40(%rsp)"] {
        assert!(
            call.iter().any(|i| i.ends_with(&format!(", {slot}"))),
            "{slot} {call:#?}"
        );
    }
    assert_reads_first(&after_call(&d, "main", "sum"), "%rcx");
    assert_eq!(run(&dir, &[("b.c", BYVAL)], &[]), "5400\n");
}

const FALLBACK: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "args:xmm0,r10,r10,rax")))
long fb(int a, long b, long c, double d, long e) { return a * 10000 + b * 1000 + c * 100 + (long)d * 10 + e; }
int main(void) { printf("%ld\n", fb(1, 2, 3, 4.0, 5)); return 0; }
"#;

#[test]
fn wrong_class_taken_and_past_the_list_go_to_the_stack() {
    let dir = temp_dir("fallback");
    compile(&dir, "f.c", FALLBACK, &["-O0", "-fdump-cc-plans"]);
    let o = neverc_in(&dir, &["-c", "f.c", "-o", "/dev/null", "-fdump-cc-plans"]);
    let plan = o.stdout.lines().find(|l| l.starts_with("fb: ")).unwrap();
    // a: xmm0 is the wrong class; b: r10; c: r10 taken; d: rax the wrong class; e: past
    // the list. Everything but b on the stack, in order.
    assert!(
        plan.contains(
            ";arguments=s,0,0,4,4,0,0,-|r,1,0,8,8,10,0,-|s,2,0,8,8,0,8,-|s,3,0,8,8,0,16,-|s,4,0,8,8,0,24,-;"
        ),
        "{plan}"
    );
    let d = disasm(&dir, "f.c.o");
    let call = before_call(&d, "main", "fb");
    assert_has(&call, &["movl $2, %r10d"]);
    assert_eq!(run(&dir, &[("f.c", FALLBACK)], &[]), "12345\n");
}

// ---------- scratch registers: r11 and xmm15 carry values too

const SCRATCH: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "xmm:xmm15,xmm9;ret_xmm:xmm15")))
double fx(double a, double b) { return a - b; }
__attribute__((custom_attr("neverc-callconv", "gpr:r11;ret:r11")))
long r11(long a) { return a * 7; }
int main(void) {
    double s = 0; long t = 0;
    for (int i = 0; i < 4; i++) { s += fx(i * 1.5, 0.25); t += r11(i + t); }
    printf("%g %ld\n", s, t);
    return 0;
}
"#;

#[test]
fn the_back_ends_scratch_registers_can_carry_values() {
    let dir = temp_dir("scratch");
    compile(&dir, "x.c", SCRATCH, &["-O1"]);
    let d = disasm(&dir, "x.c.o");
    assert_reads_first(&d["fx"], "%xmm15");
    assert_reads_first(&d["fx"], "%xmm9");
    assert!(d["fx"].iter().any(|i| i.ends_with(", %xmm15")));
    assert_reads_first(&d["r11"], "%r11");
    assert!(before_call(&d, "main", "r11")
        .iter()
        .any(|i| i.ends_with(", %r11")));
    assert_reads_first(&after_call(&d, "main", "r11"), "%r11");
    assert_eq!(run(&dir, &[("x.c", SCRATCH)], &[]), "8 581\n");
}

// ---------- sources: custom_attr (GNU, __declspec), end to end across files, policies

#[test]
fn custom_attr_on_a_declaration_and_in_declspec_form() {
    let src = r#"
#include <stdio.h>
int gnu(int, int) __attribute__((custom_attr("neverc-callconv", "gpr:r12,r13;ret:r14")));
__declspec(custom_attr("neverc-callconv", "gpr:rbx;ret:rsi")) int ms(int);
int main(void) { printf("%d %d\n", gnu(6, 7), ms(8)); return 0; }
int gnu(int a, int b) { return a * b; }
int ms(int a) { return a + 1; }
"#;
    let dir = temp_dir("attrs");
    compile(&dir, "a.c", src, &["-O0"]);
    let d = disasm(&dir, "a.c.o");
    assert_has(
        &before_call(&d, "main", "gnu"),
        &["movl $6, %r12d", "movl $7, %r13d"],
    );
    assert_has(&before_call(&d, "main", "ms"), &["movl $8, %ebx"]);
    compile(&dir, "a.c", src, &["-O1"]);
    let d = disasm(&dir, "a.c.o");
    assert_reads_first(&d["gnu"], "%r12d");
    assert_reads_first(&d["ms"], "%ebx");
    assert!(
        d["gnu"].iter().any(|i| i.ends_with(", %r14d")),
        "{:#?}",
        d["gnu"]
    );
    assert_eq!(run(&dir, &[("a.c", src)], &[]), "42 9\n");
}

const LIB_H: &str = r#"
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
struct pt { long x, y; };
CC("gpr:r10,r11,rsi,rdi;ret:rdx") long mix(long a, int b, char c, long d);
CC("args:r9,xmm4,stack;ret:r8;ret_xmm:xmm6") struct pt mkpt(long x, double y, long z);
CC("xmm:xmm12;ret_xmm:xmm13") float half(float f);
"#;

const LIB_C: &str = r#"
#include "lib.h"
long mix(long a, int b, char c, long d) { return a * 1000 + b * 100 + c * 10 + d; }
struct pt mkpt(long x, double y, long z) { struct pt p = { x + z, (long)(y * 2) }; return p; }
float half(float f) { return f / 2; }
"#;

const MAIN_C: &str = r#"
#include <stdio.h>
#include "lib.h"
int main(void) {
    struct pt p = mkpt(40, 1.5, 2);
    printf("%ld %ld %ld %g\n", mix(1, 2, 3, 4), p.x, p.y, half(5.0f));
    return 0;
}
"#;

#[test]
fn end_to_end_across_files() {
    let dir = temp_dir("e2e");
    write(&dir, "lib.h", LIB_H);
    compile(&dir, "main.c", MAIN_C, &["-O0"]);
    let d = disasm(&dir, "main.c.o");
    assert_has(
        &before_call(&d, "main", "mix"),
        &["movl $1, %r10d", "movl $4, %edi"],
    );
    // The char is sign-extended into esi.
    assert_writes(&before_call(&d, "main", "mix"), "%esi");
    assert_writes(&before_call(&d, "main", "mix"), "%r11");
    assert_has(&before_call(&d, "main", "mkpt"), &["movl $40, %r9d"]);
    let out = run(&dir, &[("main.c", MAIN_C), ("lib.c", LIB_C)], &[]);
    assert_eq!(out, "1234 42 3 2.5\n");
}

#[test]
fn the_policy_in_both_spellings_with_prefix_and_shuffle() {
    let lib = r#"
long secret_f(long a, long b) { return a * 10 + b; }
long plain(long a, long b) { return a - b; }
"#;
    let main = r#"
#include <stdio.h>
long secret_f(long, long);
long plain(long, long);
int main(void) { printf("%ld %ld\n", secret_f(4, 2), plain(4, 2)); return 0; }
"#;
    let dir = temp_dir("policy");
    let ours = ["-fcallconv-all", "-fcallconv-prefix=secret_"];
    let theirs = [
        "-fplugin-arg=org.neverc.example.custom-callconv:cc-all",
        "-fplugin-arg=org.neverc.example.custom-callconv:ccprefix=secret_",
    ];
    for args in [&ours[..], &theirs[..]] {
        let mut a = vec!["-O0"];
        a.extend_from_slice(args);
        compile(&dir, "m.c", main, &a);
        let d = disasm(&dir, "m.c.o");
        // The default spec gpr:r10,r11,rsi,rdi;ret:rdx for secret_f, the standard
        // convention for plain.
        assert_has(&before_call(&d, "main", "secret_f"), &["movl $4, %r10d"]);
        assert_writes(&before_call(&d, "main", "secret_f"), "%r11");
        assert_has(
            &before_call(&d, "main", "plain"),
            &["movl $4, %edi", "movl $2, %esi"],
        );
        assert_reads_first(&after_call(&d, "main", "secret_f"), "%rdx");
        assert_eq!(run(&dir, &[("m.c", main), ("l.c", lib)], args), "42 2\n");
    }
    // Shuffle: the layout depends on the name and the seed only, so separately compiled
    // files agree, and the same seed gives the same object.
    for seed in ["-fcallconv-shuffle", "-fcallconv-shuffle=12345"] {
        let args = ["-fcallconv-all", "-fcallconv-prefix=secret_", seed];
        assert_eq!(run(&dir, &[("m.c", main), ("l.c", lib)], &args), "42 2\n");
        compile(&dir, "l.c", lib, &args);
        let first = std::fs::read(dir.join("l.c.o")).unwrap();
        compile(&dir, "l.c", lib, &args);
        assert_eq!(first, std::fs::read(dir.join("l.c.o")).unwrap());
    }
    // Without a prefix the global mode covers definitions only: a function another file
    // defines is called the standard way, which the link-time check reports ...
    write(&dir, "m.c", main);
    write(&dir, "l.c", lib);
    let o = neverc_in(&dir, &["-fcallconv-all", "m.c", "l.c", "-o", "all"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("'secret_f' is defined in l.c with a custom convention (cc=2:")
            && o.stderr
                .contains("but m.c calls it with the standard convention"),
        "{}",
        o.stderr
    );
    // ... and a library function a file declares itself stays standard.
    let libc = r#"
int puts(const char *);
void exit(int);
static void bye(int c) { puts("bye"); exit(c); }
int main(void) { bye(3); return 0; }
"#;
    write(&dir, "x.c", libc);
    let o = neverc_in(&dir, &["-fcallconv-all", "x.c", "-o", "x"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let r = Command::new(dir.join("x")).output().unwrap();
    assert_eq!(
        (r.status.code(), String::from_utf8_lossy(&r.stdout).as_ref()),
        (Some(3), "bye\n")
    );
    let plan = dumped_plan_with(&dir, libc, "bye", &["-fcallconv-all"]);
    assert!(plan.contains(";cc=2:"), "{plan}");
    // An attribute wins over the policy.
    let attr = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r8,r9")))
long own(long a, long b) { return a * b; }
int main(void) { printf("%ld\n", own(6, 7)); return 0; }
"#;
    compile(&dir, "o.c", attr, &["-O0", "-fcallconv-all"]);
    let d = disasm(&dir, "o.c.o");
    assert_has(
        &before_call(&d, "main", "own"),
        &["movl $6, %r8d", "movl $7, %r9d"],
    );
    assert_eq!(run(&dir, &[("o.c", attr)], &["-fcallconv-all"]), "42\n");
}

#[test]
fn unknown_segments_warn_under_wextra_only() {
    let src = r#"
__attribute__((custom_attr("neverc-callconv", "gpr:r10; Shadow:r11 ;ret:rdx")))
int f(int a) { return a; }
"#;
    let dir = temp_dir("wextra");
    assert_eq!(compile(&dir, "u.c", src, &[]), "");
    let err = compile(&dir, "u.c", src, &["-Wextra"]);
    assert!(
        err.contains("warning: unknown segment 'shadow' in calling convention spec ignored (function 'f') [-Wextra]"),
        "{err}"
    );
}

// ---------- plans: materialised, given, rejected

const PLANNED: &str = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r10,r11;ret:rdx")))
int sub(int a, int b) { return a - b; }
int main(void) { printf("%d\n", sub(50, 8)); return 0; }
"#;

fn dumped_plan(dir: &Path, src: &str, func: &str) -> String {
    dumped_plan_with(dir, src, func, &[])
}

fn dumped_plan_with(dir: &Path, src: &str, func: &str, args: &[&str]) -> String {
    write(dir, "d.c", src);
    let mut a = vec!["-c", "d.c", "-o", "/dev/null", "-fdump-cc-plans"];
    a.extend_from_slice(args);
    let o = neverc_in(dir, &a);
    assert_eq!(o.code, 0, "{}", o.stderr);
    o.stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{func}: ")))
        .unwrap()
        .to_string()
}

#[test]
fn dumped_plans_have_the_text_form() {
    let dir = temp_dir("dump");
    let plan = dumped_plan(&dir, PLANNED, "sub");
    let digest = "neverc-x86_64-linux-gnu";
    let t = 0xcbf2_9ce4_8422_2325u64;
    let target = digest["neverc-".len()..]
        .bytes()
        .fold(t, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let cc = "gpr:r10,r11;ret:rdx".bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    assert_eq!(
        plan,
        format!(
            "neverc-cc-plan-v1;schema={digest};target={}:{};cc=2:{cc};stack=0;\
             returns=r,0,0,4,4,1,0,-;arguments=r,0,0,4,4,10,0,-|r,1,0,4,4,11,0,-;\
             callee-saved=3,6,12,13,14,15",
            target >> 32,
            target as u32
        )
    );
}

#[test]
fn a_given_plan_is_used_as_it_is() {
    let dir = temp_dir("given");
    let plan = dumped_plan(&dir, PLANNED, "sub");
    // Hand-edited: b in r9 instead of r11. The plan is validated, not regenerated from
    // the spec, so r9 is used.
    let edited = plan.replace("r,1,0,4,4,11,0,-", "r,1,0,4,4,9,0,-");
    let src = format!(
        r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-cc-plan-v1", "{edited}")))
int sub(int a, int b) {{ return a - b; }}
int main(void) {{ printf("%d\n", sub(50, 8)); return 0; }}
"#
    );
    compile(&dir, "g.c", &src, &["-O0"]);
    let d = disasm(&dir, "g.c.o");
    assert_has(
        &before_call(&d, "main", "sub"),
        &["movl $50, %r10d", "movl $8, %r9d"],
    );
    assert_eq!(run(&dir, &[("g.c", &src)], &[]), "42\n");
    // The unedited plan beside its spec: the convention ids agree.
    let both = PLANNED.replace(
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:r10,r11;ret:rdx\")))",
        &format!(
            "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:r10,r11;ret:rdx\"), custom_attr(\"neverc-cc-plan-v1\", \"{plan}\")))"
        ),
    );
    assert_eq!(run(&dir, &[("both.c", &both)], &[]), "42\n");
}

#[test]
fn plans_that_do_not_belong_here_stop_compilation() {
    let dir = temp_dir("reject");
    let plan = dumped_plan(&dir, PLANNED, "sub");
    let target = plan
        .split(';')
        .find(|f| f.starts_with("target="))
        .unwrap()
        .to_string();
    let cc = plan
        .split(';')
        .find(|f| f.starts_with("cc="))
        .unwrap()
        .to_string();
    let cases = [
        (
            plan.replace("callee-saved=", "saved="),
            "malformed NeverC calling convention plan",
        ),
        (
            plan.replace(
                "schema=neverc-x86_64-linux-gnu",
                "schema=neverc-aarch64-linux-gnu",
            ),
            "NeverC calling convention plan belongs to a foreign target schema",
        ),
        (
            plan.replace(&target, "target=1:2"),
            "NeverC calling convention plan has a foreign target ID",
        ),
        (
            plan.replace(&cc, "cc=1:1"),
            "NeverC calling convention plan has a foreign convention ID",
        ),
        // Fits no int: a value in an xmm register.
        (
            plan.replace("r,0,0,4,4,10,0,-", "r,0,0,4,4,17,0,-"),
            "malformed NeverC calling convention plan: it does not fit the function's signature",
        ),
    ];
    for (bad, msg) in cases {
        let src = format!(
            "__attribute__((custom_attr(\"neverc-cc-plan-v1\", \"{bad}\")))\nint sub(int a, int b) {{ return a - b; }}\n"
        );
        write(&dir, "bad.c", &src);
        let o = neverc_in(&dir, &["-c", "bad.c", "-o", "bad.o"]);
        assert_eq!(o.code, 1, "{bad}");
        assert!(
            o.stderr.contains(&format!("bad.c:1:16: error: {msg}")),
            "{msg}\n{}",
            o.stderr
        );
        assert!(o.stderr.contains("(function 'sub')"), "{}", o.stderr);
    }
    // A plan made for another spec than the one beside it.
    let other = format!(
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:r11,r10\"), custom_attr(\"neverc-cc-plan-v1\", \"{plan}\")))\nint sub(int a, int b) {{ return a - b; }}\n"
    );
    write(&dir, "other.c", &other);
    let o = neverc_in(&dir, &["-c", "other.c", "-o", "other.o"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("error: NeverC calling convention plan has a foreign convention ID"),
        "{}",
        o.stderr
    );
}

// ---------- hardening: csr, varargs, indirect, rsp, rbp, csr conflict

#[test]
fn csr_is_honoured_by_callee_and_callers() {
    // `keep` says it preserves rdi and rsi (and not rbx, r12-r15); it calls printf, which
    // clobbers both, so it must save them. Its caller (`probe`, in assembly, to control
    // the registers) finds rdi intact after the call.
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r10;ret:rax;csr:rdi,rsi")))
long keep(long a) { printf("in keep %ld\n", a); return a + 1; }
__attribute__((custom_attr("neverc-callconv", "gpr:r10;csr:r12")))
long clob(long a) {
    long x = a;
    __asm__ volatile("movq $-1, %%rbx\n\tmovq $-1, %%r13" : : : "rbx", "r13");
    return x * 2;
}
long probe(long *di);
int main(void) {
    long di = 0;
    long r = probe(&di);
    long k = 0;
    for (long i = 0; i < 3; i++) k += clob(i) * k + i;
    printf("%ld %ld %ld\n", r, di, k);
    return 0;
}
"#;
    // long probe(long *di): calls keep(5) with 12345 in rdi, stores rdi after it.
    let probe = "\t.text\n\t.globl probe\nprobe:\n\tpushq %rbx\n\tmovq %rdi, %rbx\n\
                 \tmovq $12345, %rdi\n\tmovq $5, %r10\n\tcall keep\n\tmovq %rdi, (%rbx)\n\
                 \tpopq %rbx\n\tret\n\t.section .note.GNU-stack,\"\",@progbits\n";
    let dir = temp_dir("csr");
    // probe.s calls keep with keep's plan, and says so in its record section (else the
    // link-time check would refuse it as a standard-convention call).
    let plan = dumped_plan(&dir, src, "keep");
    let probe = format!(
        "{probe}\t.section .neverc.ccplans,\"a\",@progbits\n\t.ascii \"call keep {plan}\\n\"\n"
    );
    write(&dir, "probe.s", &probe);
    let st = Command::new("cc")
        .args(["-c", "probe.s", "-o", "probe.o"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(st.success());
    compile(&dir, "c.c", src, &["-O1"]);
    let d = disasm(&dir, "c.c.o");
    // keep saves rdi and rsi in its prologue (they are not standard callee-saved).
    let prologue: Vec<&String> = d["keep"].iter().take(8).collect();
    assert!(
        prologue.iter().any(|i| i.starts_with("movq %rdi, -")),
        "{prologue:#?}"
    );
    assert!(
        prologue.iter().any(|i| i.starts_with("movq %rsi, -")),
        "{prologue:#?}"
    );
    // clob may clobber rbx and r13 without saving them ...
    assert!(
        !d["clob"]
            .iter()
            .any(|i| i.starts_with("movq %rbx, -") || i.starts_with("movq %r13, -")),
        "{:#?}",
        d["clob"]
    );
    // ... so main, which must preserve them, saves whichever it does not keep elsewhere.
    assert!(
        d["main"]
            .iter()
            .take(10)
            .any(|i| i.starts_with("movq %rbx, -")),
        "{:#?}",
        d["main"]
    );
    assert!(
        d["main"]
            .iter()
            .take(10)
            .any(|i| i.starts_with("movq %r13, -")),
        "{:#?}",
        d["main"]
    );
    assert_eq!(
        run(&dir, &[("c.c", src)], &["probe.o"]),
        "in keep 5\n6 12345 7\n"
    );
}

#[test]
fn variadic_functions_with_a_custom_convention_are_refused() {
    let src = r#"
__attribute__((custom_attr("neverc-callconv", "gpr:r10")))
int v(int n, ...) { return n; }
"#;
    let dir = temp_dir("varargs");
    write(&dir, "v.c", src);
    let o = neverc_in(&dir, &["-c", "v.c"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains(
            "v.c:2:16: error: 'v' has a custom calling convention and is variadic (or called without a prototype): a variadic function cannot have one"
        ),
        "{}",
        o.stderr
    );
}

const INDIRECT: &str = r#"
#include <stdio.h>
#include <stdlib.h>
struct q { long a, b, c; };
__attribute__((custom_attr("neverc-callconv", "gpr:r10,r11;ret:rdx")))
int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
__attribute__((custom_attr("neverc-callconv", "args:stack,r11,xmm15;ret:rcx")))
struct q mk(char x, short y, double z) { struct q r = { x, y, (long)z }; return r; }
int (*table[])(const void *, const void *) = { cmp };
int main(void) {
    int v[5] = { 5, 3, 9, 1, 7 };
    qsort(v, 5, sizeof v[0], cmp);
    struct q (*p)(char, short, double) = mk;
    struct q r = p(-3, 300, 2.75);
    printf("%d %d %d %d %d %d %ld %ld %ld\n", v[0], v[1], v[2], v[3], v[4],
           table[0](&v[4], &v[0]), r.a, r.b, r.c);
    return 0;
}
"#;

#[test]
fn addresses_of_custom_functions_are_standard_thunks() {
    let dir = temp_dir("indirect");
    let notes = compile(&dir, "i.c", INDIRECT, &["-O1"]);
    assert!(notes.contains("note: 'cmp' has a custom calling convention: its address is that of a standard-convention thunk that calls it"), "{notes}");
    assert!(notes.contains("i.c:9:7: note: 'cmp'"), "{notes}");
    let d = disasm(&dir, "i.c.o");
    // The thunk takes the standard registers and calls cmp with the custom ones.
    let thunk = &d["cmp.cc_thunk"];
    assert_reads_first(thunk, "%rdi");
    assert_reads_first(thunk, "%rsi");
    assert!(
        before_call(&d, "cmp.cc_thunk", "cmp")
            .iter()
            .any(|i| i.ends_with(", %r10")),
        "{thunk:#?}"
    );
    assert!(
        after_call(&d, "cmp.cc_thunk", "cmp")
            .iter()
            .any(|i| i.starts_with("mov") && i.contains("%edx, %eax") || i.contains("%rdx, %rax")),
        "{thunk:#?}"
    );
    assert_eq!(
        run(&dir, &[("i.c", INDIRECT)], &[]),
        "1 3 5 7 9 8 -3 300 2\n"
    );
}

#[test]
fn rsp_is_skipped_and_rbp_refused() {
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:rsp,r9,r8")))
long f(long a, long b) { return a * 10 + b; }
int main(void) { printf("%ld\n", f(4, 2)); return 0; }
"#;
    let dir = temp_dir("rsp");
    let err = compile(&dir, "r.c", src, &["-O0"]);
    assert!(
        err.contains("r.c:3:16: warning: 'rsp' in 'gpr:' is the stack pointer and cannot carry values; skipped (function 'f')"),
        "{err}"
    );
    let d = disasm(&dir, "r.c.o");
    assert_has(
        &before_call(&d, "main", "f"),
        &["movl $4, %r9d", "movl $2, %r8d"],
    );
    assert_eq!(run(&dir, &[("r.c", src)], &[]), "42\n");
    let rbp = "__attribute__((custom_attr(\"neverc-callconv\", \"args:rbp\")))\nlong g(long a) { return a; }\n";
    write(&dir, "rbp.c", rbp);
    let o = neverc_in(&dir, &["-c", "rbp.c"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("rbp.c:1:16: error: neverc cannot pass values in rbp ('rbp' in 'args:'): it is the frame pointer (function 'g')"),
        "{}",
        o.stderr
    );
}

#[test]
fn csr_conflicts_warn_and_compile() {
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r12,r13;ret:rbx;csr:r12,rbx,r14")))
long f(long a, long b) { return a + b; }
int main(void) { long s = 0; for (int i = 0; i < 5; i++) s += f(i, s); printf("%ld\n", s); return 0; }
"#;
    let dir = temp_dir("conflict");
    let err = compile(&dir, "k.c", src, &["-O1"]);
    for r in ["r12", "rbx"] {
        assert!(
            err.contains(&format!("warning: register '{r}' is both callee-saved (csr:) and in an argument or return list (function 'f')")),
            "{err}"
        );
    }
    // rbx carries the result, so it is not treated as preserved.
    let plan = dumped_plan(&dir, src, "f");
    assert!(plan.ends_with(";callee-saved=12,14"), "{plan}");
    assert_eq!(run(&dir, &[("k.c", src)], &[]), "26\n");
}

// ---------- across files: plans recorded in objects, checked at link time

#[test]
fn disagreeing_files_are_caught_when_linking_and_by_check_plans() {
    let dir = temp_dir("crossfile");
    write(
        &dir,
        "h.h",
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:r10,r11;ret:rdx\"))) long f(long, long);\n",
    );
    write(
        &dir,
        "d.c",
        "#include \"h.h\"\nlong f(long a, long b) { return a * 10 + b; }\n",
    );
    write(
        &dir,
        "u.c",
        "#include <stdio.h>\n#include \"h.h\"\nint main(void) { printf(\"%ld\\n\", f(4, 2)); return 0; }\n",
    );
    // Forgot the header: calls f the standard way.
    write(
        &dir,
        "bad.c",
        "long f(long, long);\nlong g(void) { return f(1, 2); }\n",
    );
    // Declares f with another signature under the same spec.
    write(
        &dir,
        "sig.c",
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:r10,r11;ret:rdx\"))) long f(int, long);\nlong h(void) { return f(1, 2); }\n",
    );
    let o = neverc_in(&dir, &["d.c", "u.c", "-o", "ok"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let cc = "gpr:r10,r11;ret:rdx".bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    let o = neverc_in(&dir, &["d.c", "bad.c", "u.c", "-o", "bad"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stderr,
        format!(
            "neverc: error: calling conventions disagree: 'f' is defined in d.c with a custom \
             convention (cc=2:{cc}) but bad.c calls it with the standard convention\n"
        )
    );
    assert!(!dir.join("bad").exists());
    // The same, alone, over objects; a standard definition called with a custom plan too.
    for f in ["d.c", "u.c", "bad.c", "sig.c"] {
        let o = neverc_in(&dir, &["-c", f]);
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
    let o = neverc_in(&dir, &["--check-plans", "d.o", "u.o"]);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let o = neverc_in(&dir, &["--check-plans", "u.o", "bad.o", "d.o"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("'f' is defined in d.o with a custom convention"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains("but bad.o calls it with the standard convention"),
        "{}",
        o.stderr
    );
    // Same convention, other signature: the two plans are shown whole.
    let o = neverc_in(&dir, &["--check-plans", "d.o", "sig.o"]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("arguments=r,0,0,8,8,10,0,-|r,1,0,8,8,11,0,-")
            && o.stderr.contains("but sig.o calls it with plan ")
            && o.stderr
                .contains("arguments=r,0,0,4,4,10,0,-|r,1,0,8,8,11,0,-"),
        "{}",
        o.stderr
    );
    // A file involving no custom convention has no record section at all.
    let o = neverc_in(&dir, &["-c", "bad.c", "-o", "plain.o"]);
    assert_eq!(o.code, 0);
    let bytes = std::fs::read(dir.join("plain.o")).unwrap();
    assert!(!bytes.windows(15).any(|w| w == b".neverc.ccplans"));
    let bytes = std::fs::read(dir.join("d.o")).unwrap();
    assert!(bytes.windows(15).any(|w| w == b".neverc.ccplans"));
}

#[test]
fn a_policy_file_gives_rules_by_prefix_and_pattern() {
    let dir = temp_dir("policyfile");
    write(
        &dir,
        "cc.toml",
        r#"# calling conventions of this program
[[rule]]
name = "secret_keep"
standard = true

[[rule]]
prefix = "secret_"
spec = "gpr:r8,r9;ret:rcx"

[[rule]]
pattern = "*_round?"
shuffle = 3
"#,
    );
    let lib = r#"
long secret_f(long a, long b) { return a * 10 + b; }
long secret_keep(long a, long b) { return a - b; }
long aes_round1(long a, long b) { return a * b; }
"#;
    let main = r#"
#include <stdio.h>
long secret_f(long, long);
long secret_keep(long, long);
long aes_round1(long, long);
int main(void) { printf("%ld %ld %ld\n", secret_f(4, 2), secret_keep(4, 2), aes_round1(6, 7)); return 0; }
"#;
    compile(&dir, "m.c", main, &["-O0", "-fcallconv-policy=cc.toml"]);
    let d = disasm(&dir, "m.c.o");
    assert_has(
        &before_call(&d, "main", "secret_f"),
        &["movl $4, %r8d", "movl $2, %r9d"],
    );
    assert_reads_first(&after_call(&d, "main", "secret_f"), "%rcx");
    assert_has(
        &before_call(&d, "main", "secret_keep"),
        &["movl $4, %edi", "movl $2, %esi"],
    );
    let plan = dumped_plan_with(&dir, lib, "aes_round1", &["-fcallconv-policy=cc.toml"]);
    assert!(plan.contains(";cc=2:"), "{plan}");
    assert_eq!(
        run(
            &dir,
            &[("m.c", main), ("l.c", lib)],
            &["-fcallconv-policy=cc.toml"]
        ),
        "42 2 42\n"
    );
    write(&dir, "bad.toml", "[[rule]]\nprefix = \"a\"\n");
    write(&dir, "x.c", "int x;\n");
    let o = neverc_in(&dir, &["-c", "x.c", "-fcallconv-policy=bad.toml"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stderr,
        "neverc: error: bad.toml: line 1: this rule has no spec, shuffle or standard\n"
    );
}

#[test]
fn library_calls_irgen_makes_reach_custom_definitions_through_thunks() {
    // Under the policy, this file's own memcpy gets a custom convention; the calls irgen
    // makes by name for __builtin_memcpy use the standard one, so they go through the
    // thunk.
    let src = r#"
#include <stdio.h>
typedef unsigned long size_t;
static int copies;
void *memcpy(void *d, const void *s, size_t n) {
    char *dd = d; const char *ss = s;
    copies++;
    while (n--) *dd++ = *ss++;
    return d;
}
int main(void) {
    char a[100], b[100];
    size_t n = sizeof a - copies;
    for (int i = 0; i < 100; i++) a[i] = (char)i;
    __builtin_memcpy(b, a, n);
    memcpy(b, "hi", 3);
    printf("%d %d %d\n", b[1], b[99], copies);
    return 0;
}
"#;
    let dir = temp_dir("libcall");
    // At -O0: -O1 may inline the thunk into main, leaving no call of it to look at.
    compile(&dir, "l.c", src, &["-O0", "-fcallconv-all"]);
    let d = disasm(&dir, "l.c.o");
    // The direct call uses memcpy's plan: the default spec's r10, r11, rsi.
    assert_has(&before_call(&d, "main", "memcpy"), &["movl $3, %esi"]);
    assert!(d.contains_key("memcpy.cc_thunk"), "{:?}", d.keys());
    assert_eq!(
        run(&dir, &[("l.c", src)], &["-fcallconv-all"]),
        "105 99 2\n"
    );
}

#[test]
fn unprototyped_calls_take_the_prototype_given_elsewhere() {
    // gcc's torture tests do this: a call before any prototype (an implicit or `()`
    // declaration), the prototyped definition later. Under the policy the function has a
    // custom plan, which the call takes from the definition's prototype.
    let src = r#"
#include <stdio.h>
long f();
int main(void) { printf("%ld\n", f(6, 7L)); return 0; }
long f(int a, long b) { return a * b; }
"#;
    let dir = temp_dir("noproto");
    compile(&dir, "n.c", src, &["-O0", "-fcallconv-all"]);
    let d = disasm(&dir, "n.c.o");
    assert_has(&before_call(&d, "main", "f"), &["movl $6, %r10d"]);
    assert_writes(&before_call(&d, "main", "f"), "%r11");
    assert_eq!(run(&dir, &[("n.c", src)], &["-fcallconv-all"]), "42\n");
}

#[test]
fn library_helpers_are_standard_callees_for_csr() {
    // divk promises to preserve r8-r11, which libgcc's __divti3 (called for the
    // division) may change: its prologue saves them, as for any standard callee.
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:rdi,rsi,rdx,rcx;ret:rax,rdx;csr:r8,r9,r10,r11")))
__int128 divk(__int128 a, __int128 b) { return a / b; }
int main(void) {
    __int128 q = divk((__int128)123456789 * 1000000007, 1000000007);
    printf("%lld\n", (long long)q);
    return 0;
}
"#;
    let dir = temp_dir("libcsr");
    for opt in ["-O0", "-O1"] {
        compile(&dir, "d.c", src, &[opt]);
        let d = disasm(&dir, "d.c.o");
        for r in ["%r8", "%r9", "%r10", "%r11"] {
            assert!(
                d["divk"]
                    .iter()
                    .take(8)
                    .any(|i| i.starts_with(&format!("movq {r}, -"))),
                "{opt}: {r} not saved: {:#?}",
                d["divk"]
            );
        }
    }
    assert_eq!(run(&dir, &[("d.c", src)], &[]), "123456789\n");
}

#[test]
fn xmm_registers_can_be_callee_saved() {
    // keepx preserves xmm6, xmm9 and xmm15 (the back end's vector scratch register): it
    // saves and restores them around its body, which uses them and calls printf. Its
    // caller keeps values in them across the call (probe.s, in assembly).
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:r10;csr:xmm6,xmm9,xmm15")))
double keepx(long a) {
    double x = a * 0.5, y = a * 0.25, z = a * 0.125;
    printf("in keepx %g\n", x + y + z);
    return x + y * z;
}
double probe(double *out);
int main(void) {
    double out[3];
    double r = probe(out);
    printf("%g %g %g %g\n", r, out[0], out[1], out[2]);
    return 0;
}
"#;
    let dir = temp_dir("xmmcsr");
    let plan = dumped_plan(&dir, src, "keepx");
    assert!(plan.ends_with(";callee-saved=23,26,32"), "{plan}");
    // double probe(double *out): xmm6, xmm9, xmm15 set to 1.5, 2.5, 3.5 before keepx(8),
    // stored to out[0..3] after it.
    let probe = format!(
        "\t.text\n\t.globl probe\nprobe:\n\tpushq %rbx\n\tmovq %rdi, %rbx\n\
         \tmovabsq $0x3ff8000000000000, %rax\n\tmovq %rax, %xmm6\n\
         \tmovabsq $0x4004000000000000, %rax\n\tmovq %rax, %xmm9\n\
         \tmovabsq $0x400c000000000000, %rax\n\tmovq %rax, %xmm15\n\
         \tmovq $8, %r10\n\tcall keepx\n\
         \tmovsd %xmm6, (%rbx)\n\tmovsd %xmm9, 8(%rbx)\n\tmovsd %xmm15, 16(%rbx)\n\
         \tpopq %rbx\n\tret\n\t.section .note.GNU-stack,\"\",@progbits\n\
         \t.section .neverc.ccplans,\"a\",@progbits\n\t.ascii \"call keepx {plan}\\n\"\n"
    );
    write(&dir, "probe.s", &probe);
    let st = Command::new("cc")
        .args(["-c", "probe.s", "-o", "probe.o"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(st.success());
    compile(&dir, "x.c", src, &["-O1"]);
    let d = disasm(&dir, "x.c.o");
    for x in ["%xmm6", "%xmm9", "%xmm15"] {
        assert!(
            d["keepx"]
                .iter()
                .take(8)
                .any(|i| i.starts_with(&format!("movups {x}, -"))),
            "{x}: {:#?}",
            d["keepx"]
        );
    }
    assert_eq!(
        run(&dir, &[("x.c", src)], &["probe.o"]),
        "in keepx 7\n6 1.5 2.5 3.5\n"
    );
}
