//! Custom calling conventions on AArch64 (issue 7), end to end: each test compiles C with
//! `--target=aarch64-linux-gnu` and a spec, checks where values are placed in the
//! object's disassembly (`llvm-objdump`), and runs the program under
//! `qemu-aarch64 -L /usr/aarch64-linux-gnu` at -O0 and -O1 (linked by
//! `aarch64-linux-gnu-gcc` through the driver), checking its exact output. The categories
//! are the spec's AArch64 ones (GPR, FPR, stack, csr, a mixed-spec cross call) and the
//! rules at the edges (x18 and v31, reserved registers, spellings, thunks for pointers
//! and library calls, the policy, plans, files that disagree).
//!
//! Skipped with a message when qemu-aarch64, aarch64-linux-gnu-gcc or llvm-objdump is
//! missing (scripts/setup.sh installs them).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "--target=aarch64-linux-gnu";

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Are the cross tools here? Says why not when they are missing.
fn tools() -> bool {
    for t in ["qemu-aarch64", "aarch64-linux-gnu-gcc", "llvm-objdump"] {
        if !have(t) {
            eprintln!("callconv_aarch64: {t} not found; skipping (scripts/setup.sh installs it)");
            return false;
        }
    }
    true
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn neverc_in(dir: &Path, args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .arg(TARGET)
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
    let d = std::env::temp_dir().join(format!("neverc-cc64-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// Compiles `src` (written as `name`) to `name.o`; returns the diagnostics.
fn compile(dir: &Path, name: &str, src: &str, args: &[&str]) -> String {
    write(dir, name, src);
    let obj = format!("{name}.o");
    let mut a = vec!["-c", name, "-o", &obj];
    a.extend_from_slice(args);
    let o = neverc_in(dir, &a);
    assert_eq!(o.code, 0, "{name} {args:?}:\n{}", o.stderr);
    o.stderr
}

/// Runs `prog` in `dir` under qemu; returns its output.
fn qemu(dir: &Path, prog: &str) -> String {
    let r = Command::new("qemu-aarch64")
        .args(["-L", "/usr/aarch64-linux-gnu"])
        .arg(dir.join(prog))
        .output()
        .unwrap();
    assert!(r.status.success(), "{prog} failed: {r:?}");
    String::from_utf8_lossy(&r.stdout).into_owned()
}

/// Compiles and links the sources (and `objs`, objects made already) at -O0 and at -O1
/// with `args`, runs the program and returns its output, the same both times.
fn run_with(dir: &Path, srcs: &[(&str, &str)], objs: &[&str], args: &[&str]) -> String {
    let mut outs = Vec::new();
    for opt in ["-O0", "-O1"] {
        let mut a: Vec<&str> = vec![opt, "-o", "prog"];
        for (name, text) in srcs {
            write(dir, name, text);
            a.push(name);
        }
        a.extend_from_slice(objs);
        a.extend_from_slice(args);
        let o = neverc_in(dir, &a);
        assert_eq!(o.code, 0, "{opt} {args:?}:\n{}", o.stderr);
        outs.push(qemu(dir, "prog"));
    }
    assert_eq!(outs[0], outs[1], "-O0 and -O1 differ");
    outs.remove(0)
}

fn run(dir: &Path, srcs: &[(&str, &str)], args: &[&str]) -> String {
    run_with(dir, srcs, &[], args)
}

/// The output of the same sources built by the host's gcc alone (which ignores
/// `custom_attr`), run natively: what every build must print. `extra` are more C files
/// already written in `dir`.
fn expected(dir: &Path, srcs: &[(&str, &str)], extra: &[&str]) -> String {
    let host = dir.join("host");
    std::fs::create_dir_all(&host).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "h") {
            std::fs::copy(&p, host.join(p.file_name().unwrap())).unwrap();
        }
    }
    let mut args: Vec<String> = vec!["-w".into(), "-o".into(), "prog".into()];
    for (name, text) in srcs {
        write(&host, name, text);
        args.push(name.to_string());
    }
    for f in extra {
        std::fs::copy(dir.join(f), host.join(f)).unwrap();
        args.push(f.to_string());
    }
    let o = Command::new("gcc")
        .args(&args)
        .current_dir(&host)
        .output()
        .expect("gcc runs");
    assert!(o.status.success(), "{o:?}");
    let r = Command::new(host.join("prog")).output().unwrap();
    assert!(r.status.success());
    String::from_utf8_lossy(&r.stdout).into_owned()
}

/// Each function's instructions (`mnemonic operands`, blanks normalised, comments
/// dropped), with each `bl` as `bl NAME` from its relocation.
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
        if t.is_empty() || t == "nop" {
            continue;
        }
        if t.contains("R_AARCH64_CALL26") {
            let target = t.split_whitespace().last().unwrap();
            if insts.last().is_some_and(|l| l.starts_with("bl ")) {
                *insts.last_mut().unwrap() = format!("bl {target}");
            }
            continue;
        }
        if t.contains(":  R_AARCH64") || t.contains(": R_AARCH64") {
            continue;
        }
        let t = t.split("//").next().unwrap().trim();
        // `bl 0x1c0 <main+0x30>`: the target comes from the relocation line.
        let t = t.split(" <").next().unwrap();
        insts.push(t.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    funcs
}

/// The instructions of `func` after the previous call and before its call to `callee`.
fn before_call(d: &Disasm, func: &str, callee: &str) -> Vec<String> {
    let insts = &d[func];
    let at = insts
        .iter()
        .position(|i| *i == format!("bl {callee}"))
        .unwrap_or_else(|| panic!("{func} calls {callee}: {insts:#?}"));
    let start = insts[..at]
        .iter()
        .rposition(|i| i.starts_with("bl ") || i.starts_with("blr "))
        .map_or(0, |p| p + 1);
    insts[start..at].to_vec()
}

/// The instructions of `func` after its call to `callee`.
fn after_call(d: &Disasm, func: &str, callee: &str) -> Vec<String> {
    let insts = &d[func];
    let at = insts
        .iter()
        .position(|i| *i == format!("bl {callee}"))
        .unwrap_or_else(|| panic!("{func} calls {callee}: {insts:#?}"));
    insts[at + 1..].to_vec()
}

/// The operands of an instruction (commas inside brackets kept).
fn operands(inst: &str) -> Vec<String> {
    let Some((_, ops)) = inst.split_once(' ') else {
        return Vec::new();
    };
    let mut out = vec![String::new()];
    let mut depth = 0;
    for c in ops.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
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

/// The register names in an operand, as spelled (`v31.16b` as `v31`).
fn regs_in(op: &str) -> Vec<String> {
    op.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| {
            t.len() >= 2
                && "wxbhsdqv".contains(&t[..1])
                && t[1..].chars().all(|c| c.is_ascii_digit())
        })
        .map(|t| t.to_string())
        .collect()
}

/// `x9` for `w9`/`x9`, `v3` for `b3`..`q3`/`v3`.
fn family(reg: &str) -> String {
    let n = &reg[1..];
    if reg.starts_with(['w', 'x']) {
        format!("x{n}")
    } else {
        format!("v{n}")
    }
}

/// How `reg`'s family is first met in `insts`: `Some((spelling, true))` when read first,
/// `Some((spelling, false))` when written first.
fn first_use(insts: &[String], reg: &str) -> Option<(String, bool)> {
    let fam = family(reg);
    for i in insts {
        let m = i.split(' ').next().unwrap();
        // Stores, compares and branches read every operand; movk reads its destination.
        let all_read = m.starts_with("st")
            || [
                "cmp", "cmn", "tst", "fcmp", "fcmpe", "cbz", "cbnz", "tbz", "tbnz", "movk",
            ]
            .contains(&m);
        let ops = operands(i);
        let found = |k: usize| regs_in(&ops[k]).into_iter().find(|r| family(r) == fam);
        let dest = |k: usize| k == 0 && !all_read && !ops[0].starts_with('[');
        // What an instruction reads is read before what it writes.
        if let Some(r) = (0..ops.len()).filter(|&k| !dest(k)).find_map(found) {
            return Some((r, true));
        }
        if let Some(r) = found(0) {
            return Some((r, false));
        }
    }
    None
}

#[track_caller]
fn assert_has(insts: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(insts.iter().any(|i| i == w), "no '{w}' in {insts:#?}");
    }
}

/// `reg`, spelled exactly so, is read before its register is written (after the
/// prologue, whose saves read registers too).
#[track_caller]
fn assert_reads_first(insts: &[String], reg: &str) {
    let insts = body(insts);
    assert_eq!(
        first_use(insts, reg),
        Some((reg.to_string(), true)),
        "{reg} is not read first in {insts:#?}"
    );
}

/// Some instruction writes `reg` (spelled exactly so) as its first operand.
#[track_caller]
fn assert_writes(insts: &[String], reg: &str) {
    assert!(
        insts
            .iter()
            .any(|i| !i.starts_with("st") && operands(i).first().is_some_and(|o| o == reg)),
        "nothing writes {reg} in {insts:#?}"
    );
}

/// The length of a function's prologue: the frame record, `sp` lowered, and the saves of
/// callee-saved registers below x29 (0 for a function without a frame record).
fn prologue_len(insts: &[String]) -> usize {
    if insts.first().map(String::as_str) != Some("stp x29, x30, [sp, #-16]!") {
        return 0;
    }
    let mut n = 1;
    for i in &insts[1..] {
        let m = i.split(' ').next().unwrap();
        let ops = operands(i);
        let save = ["stp", "str", "stur"].contains(&m)
            && ops.last().is_some_and(|o| o.starts_with("[x29, #-"))
            // (A parameter spilled at -O0 is a store too, but of an argument register
            // after the saves: saves come first and are of whole registers.)
            && ops[..ops.len() - 1].iter().all(|o| o.starts_with(['x', 'd']));
        let frame = i == "mov x29, sp" || (m == "sub" && ops.first().is_some_and(|o| o == "sp"));
        if !(save || frame) {
            break;
        }
        n += 1;
    }
    n
}

/// A function's instructions after its prologue.
fn body(insts: &[String]) -> &[String] {
    &insts[prologue_len(insts)..]
}

/// The registers the prologue saves.
fn saved(insts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for i in &insts[..prologue_len(insts)] {
        let ops = operands(i);
        if i.starts_with("st") && ops.last().is_some_and(|o| o.starts_with("[x29, #-")) {
            out.extend(ops[..ops.len() - 1].iter().cloned());
        }
    }
    out
}

// ---------- GPR

const GPR: &str = r#"
#include <stdio.h>
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
CC("gpr:x9,x10,x20;ret:x12")
long gp(int a, long b, long *c) { return a * 100 + b * 10 + *c; }
CC("gpr:x18,x21;ret:x18")
long h18(long a, long b) { return a * 10 + b; }
int main(void) {
    long three = 3;
    long r = gp(-1, 2, &three);
    printf("%ld %ld\n", r, h18(4, 5));
    return 0;
}
"#;

#[test]
fn gpr_pool_in_x_registers_at_each_value_width() {
    if !tools() {
        return;
    }
    let dir = temp_dir("gpr");
    compile(&dir, "g.c", GPR, &["-O0"]);
    let d = disasm(&dir, "g.c.o");
    let call = before_call(&d, "main", "gp");
    // int in w9, long in x10, the pointer in x20.
    assert_writes(&call, "w9");
    assert_has(&call, &["mov x10, #2"]);
    assert_writes(&call, "x20");
    assert_reads_first(&after_call(&d, "main", "gp"), "x12");
    // x18 is moved right before the call and read right after it.
    let call = before_call(&d, "main", "h18");
    assert!(call.last().unwrap().starts_with("mov x18, x"), "{call:#?}");
    assert_writes(&call, "x21");
    let after = after_call(&d, "main", "h18");
    assert!(after[0].ends_with(", x18"), "{after:#?}");
    compile(&dir, "g.c", GPR, &["-O1"]);
    let d = disasm(&dir, "g.c.o");
    // The callee reads the int as w9, the long as x10, the pointer from x20, and leaves
    // its result in x12; x20 is callee-saved (the spec keeps the standard set).
    assert_reads_first(&d["gp"], "w9");
    assert_reads_first(&d["gp"], "x10");
    assert_reads_first(&d["gp"], "x20");
    assert_writes(&d["gp"], "x12");
    assert_eq!(saved(&d["gp"]), ["x20"]);
    assert_reads_first(&d["h18"], "x18");
    assert_reads_first(&d["h18"], "x21");
    let n = d["h18"].len();
    // The result goes to x18 last, after the callee-saved x21 is restored... or before:
    // either way x18 is written and the epilogue leaves it alone.
    assert!(
        d["h18"][..n - 1]
            .iter()
            .rev()
            .take(5)
            .any(|i| i.starts_with("mov x18, ")),
        "{:#?}",
        d["h18"]
    );
    assert_eq!(run(&dir, &[("g.c", GPR)], &[]), "-77 45\n");
    assert_eq!(expected(&dir, &[("g.c", GPR)], &[]), "-77 45\n");
}

// ---------- FPR

const FPR: &str = r#"
#include <stdio.h>
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
struct hfa { float x, y, z; };
CC("fpr:v16,v31,v8,v20,v21,v22;ret_fpr:v18")
double fp(float a, double b, long double c, struct hfa h) {
    return a * 100 + b * 10 + (double)c + h.x * 1000 + h.y * 10000 + h.z * 100000;
}
CC("fpr:v31;ret_fpr:v31")
double k(double a) { return a * 2; }
int main(void) {
    struct hfa h = { 1, 2, 3 };
    double r = fp(1.5f, 2.25, 3.0L, h);
    printf("%.2f %.2f\n", r, k(1.25));
    return 0;
}
"#;

#[test]
fn fpr_pool_in_v_registers_in_the_form_of_each_type() {
    if !tools() {
        return;
    }
    let dir = temp_dir("fpr");
    compile(&dir, "f.c", FPR, &["-O0"]);
    let d = disasm(&dir, "f.c.o");
    let call = before_call(&d, "main", "fp");
    // float in s16, the long double in q8, the HFA in s20-s22; v31 last.
    assert_has(&call, &["fmov s16, #1.50000000"]);
    assert_writes(&call, "q8");
    for r in ["s20", "s21", "s22"] {
        assert_writes(&call, r);
    }
    assert!(
        call.last().unwrap().starts_with("mov v31.16b, v"),
        "{call:#?}"
    );
    assert_reads_first(&after_call(&d, "main", "k"), "v31");
    compile(&dir, "f.c", FPR, &["-O1"]);
    let d = disasm(&dir, "f.c.o");
    assert_reads_first(&d["fp"], "s16");
    assert_reads_first(&d["fp"], "v31");
    assert_reads_first(&d["fp"], "q8");
    // (The function holds a 128-bit value, so the allocator spills whole q registers.)
    for r in ["q20", "q21", "q22"] {
        assert_reads_first(&d["fp"], r);
    }
    assert_writes(&d["fp"], "d18");
    // v8 carries a value and is callee-saved (the standard set): its low half is kept.
    assert_eq!(saved(&d["fp"]), ["d8"]);
    assert_reads_first(&d["k"], "v31");
    let want = expected(&dir, &[("f.c", FPR)], &[]);
    assert_eq!(want, "321175.50 2.50\n");
    assert_eq!(run(&dir, &[("f.c", FPR)], &[]), want);
}

// ---------- stack

const STACK: &str = r#"
#include <stdio.h>
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
struct big { long a, b, c; };
CC("gpr:x9;fpr:v20")
long st(long a, long b, double c, double d, int e, struct big s) {
    return a + b * 10 + (long)(c * 100) + (long)(d * 1000) + e * 10000
         + s.a * 100000 + s.b * 1000000 + s.c * 10000000;
}
CC("args:x3,stack,v5,x4;ret:x6")
long pos(long a, long b, double c, long d) { return a * 1000 + b * 100 + (long)(c * 10) + d; }
int main(void) {
    struct big s = { 6, 7, 8 };
    printf("%ld %ld\n", st(1, 2, 0.03, 0.004, 5, s), pos(1, 2, 0.3, 4));
    return 0;
}
"#;

#[test]
fn stack_arguments_when_registers_run_out() {
    if !tools() {
        return;
    }
    let dir = temp_dir("stack");
    compile(&dir, "s.c", STACK, &["-O1"]);
    let d = disasm(&dir, "s.c.o");
    let call = before_call(&d, "main", "st");
    assert_has(&call, &["mov x9, #1"]);
    assert_writes(&call, "d20");
    // b at sp, d at sp+8, e at sp+16, the 24-byte record by value at sp+24..47.
    for slot in [
        "[sp]",
        "[sp, #8]",
        "[sp, #16]",
        "[sp, #24]",
        "[sp, #32]",
        "[sp, #40]",
    ] {
        assert!(
            call.iter()
                .any(|i| i.starts_with("str") && i.ends_with(&format!(", {slot}"))),
            "{slot} {call:#?}"
        );
    }
    assert!(
        call.iter()
            .any(|i| i.starts_with("str d") && i.ends_with(", [sp, #8]")),
        "{call:#?}"
    );
    assert!(
        call.iter()
            .any(|i| i.starts_with("str w") && i.ends_with(", [sp, #16]")),
        "{call:#?}"
    );
    // The callee reads them above its frame record.
    for slot in ["[x29, #16]", "[x29, #24]", "[x29, #32]"] {
        assert!(
            d["st"]
                .iter()
                .any(|i| i.ends_with(slot) || i.contains(&format!("{slot}!"))),
            "{slot} {:#?}",
            d["st"]
        );
    }
    // Positional: x3, the stack, v5 (a double: d5), x4; the result in x6.
    let call = before_call(&d, "main", "pos");
    assert_has(&call, &["mov x3, #1", "mov x4, #4"]);
    assert_writes(&call, "d5");
    assert!(call.iter().any(|i| i.ends_with(", [sp]")), "{call:#?}");
    assert_reads_first(&d["pos"], "d5");
    assert_writes(&d["pos"], "x6");
    let want = expected(&dir, &[("s.c", STACK)], &[]);
    assert_eq!(want, "87650028 1207\n");
    assert_eq!(run(&dir, &[("s.c", STACK)], &[]), want);
}

// ---------- csr

const CSR_LIB: &str = r#"
long ext(long a) { return a + 1; }
double dext(double a) { return a + 0.5; }
"#;

const CSR: &str = r#"
#include <stdio.h>
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
long ext(long a);
double dext(double a);
/* Keeps x9, x10, x11 and v16 for its callers, and nothing else. */
CC("gpr:x3;ret:x4;csr:x9,x10,x11,v16")
long keeper(long a) { long b = ext(a); return b + a * 3; }
CC("fpr:v17;ret_fpr:v17;csr:v16")
double dkeeper(double a) { return dext(a) * 2; }
int main(void) {
    long acc = 0, x = 1;
    double f = 0.25;
    for (int i = 0; i < 4; i++) {
        long r = keeper(i + x);
        acc += r * (i + 1);
        x += acc;
        f += dkeeper(f);
    }
    printf("%ld %ld %.3f\n", acc, x, f);
    return 0;
}
"#;

#[test]
fn csr_is_honoured_by_the_callee_and_its_callers() {
    if !tools() {
        return;
    }
    let dir = temp_dir("csr");
    for opt in ["-O0", "-O1"] {
        compile(&dir, "c.c", CSR, &[opt]);
        let d = disasm(&dir, "c.c.o");
        // keeper calls a standard function, which may change x9-x11 and d16: it saves
        // them; it keeps a value across the call in x19, which it need not preserve.
        let s = saved(&d["keeper"]);
        for r in ["x9", "x10", "x11", "d16"] {
            assert!(s.contains(&r.to_string()), "{opt}: {r} not saved: {s:?}");
        }
        assert!(!s.iter().any(|r| r == "x19"), "{opt}: {s:?}");
        let s = saved(&d["dkeeper"]);
        assert_eq!(s, ["d16"], "{opt}");
        // main (standard) must keep x19-x28 and d8-d15 for its caller, which keeper
        // does not preserve: its prologue saves what it uses of them... and at least those
        // keeper changes, whether main uses them or not.
        let s = saved(&d["main"]);
        for r in ["x19", "x20", "x28", "d8", "d15"] {
            assert!(
                s.contains(&r.to_string()),
                "{opt}: main does not save {r}: {s:?}"
            );
        }
    }
    let srcs = [("c.c", CSR), ("lib.c", CSR_LIB)];
    let want = expected(&dir, &srcs, &[]);
    assert_eq!(want, "16762 17749 60.250\n");
    assert_eq!(run(&dir, &srcs, &[]), want);
}

#[test]
fn library_helpers_are_standard_callees_for_csr() {
    if !tools() {
        return;
    }
    // divk promises to preserve x9-x15, which libgcc's __divti3 (called for the
    // division) may change: its prologue saves them, as for any standard callee.
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:x0,x1,x2,x3;ret:x0,x1;csr:x9,x10,x11,x12,x13,x14,x15")))
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
        let s = saved(&d["divk"]);
        for r in ["x9", "x10", "x11", "x12", "x13", "x14", "x15"] {
            assert!(s.contains(&r.to_string()), "{opt}: {r} not saved: {s:?}");
        }
    }
    assert_eq!(run(&dir, &[("d.c", src)], &[]), "123456789\n");
}

// ---------- mixed specs across files

const MIXED_H: &str = r#"
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
CC("gpr:x20,x9;fpr:v9;ret:x21") long left(long a, long b, double c);
CC("args:v30,x15,stack;ret:x14") long right(double a, long b, long c);
CC("gpr:x27;ret_fpr:v25;csr:x9,x15") double mid(long n);
"#;

const MIXED_A: &str = r#"
#include "m.h"
long left(long a, long b, double c) { return a * 100 + b * 10 + (long)c + right(c, a, b); }
double mid(long n) { return n * 0.5; }
"#;

const MIXED_B: &str = r#"
#include <stdio.h>
#include "m.h"
long right(double a, long b, long c) { return (long)(a * 1000) + b * 10000 + c * 100000 + (long)mid(b); }
int main(void) { printf("%ld %.1f\n", left(4, 2, 3.0), mid(9)); return 0; }
"#;

#[test]
fn a_mixed_spec_cross_call_between_files() {
    if !tools() {
        return;
    }
    let dir = temp_dir("mixed");
    write(&dir, "m.h", MIXED_H);
    compile(&dir, "a.c", MIXED_A, &["-O1"]);
    compile(&dir, "b.c", MIXED_B, &["-O1"]);
    let a = disasm(&dir, "a.c.o");
    let b = disasm(&dir, "b.c.o");
    // left (file a) calls right (file b) under right's spec: v30, x15 and the stack.
    let call = before_call(&a, "left", "right");
    assert_writes(&call, "d30");
    assert_writes(&call, "x15");
    assert!(call.iter().any(|i| i.ends_with(", [sp]")), "{call:#?}");
    assert_reads_first(&after_call(&a, "left", "right"), "x14");
    // right receives under its own spec, calls mid (file a) with x27, reads v25.
    assert_reads_first(&b["right"], "d30");
    assert_reads_first(&b["right"], "x15");
    let call = before_call(&b, "right", "mid");
    assert_writes(&call, "x27");
    assert_reads_first(&after_call(&b, "right", "mid"), "d25");
    // main calls left with x20, x9, v9, reads x21.
    let call = before_call(&b, "main", "left");
    assert_has(
        &call,
        &["mov x20, #4", "mov x9, #2", "fmov d9, #3.00000000"],
    );
    assert_reads_first(&after_call(&b, "main", "left"), "x21");
    assert_reads_first(&a["left"], "x20");
    assert_reads_first(&a["left"], "x9");
    assert_reads_first(&a["left"], "d9");
    assert_reads_first(&a["mid"], "x27");
    assert_writes(&a["mid"], "d25");
    let srcs = [("a.c", MIXED_A), ("b.c", MIXED_B)];
    let want = expected(&dir, &srcs, &[]);
    assert_eq!(want, "243425 4.5\n");
    assert_eq!(run(&dir, &srcs, &[]), want);
}

#[test]
fn files_that_disagree_are_caught_when_linking() {
    if !tools() {
        return;
    }
    let dir = temp_dir("disagree");
    write(&dir, "m.h", MIXED_H);
    write(&dir, "a.c", MIXED_A);
    write(&dir, "b.c", MIXED_B);
    // Calls mid with another spec.
    write(
        &dir,
        "bad.c",
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:x27;ret_fpr:v24\"))) double mid(long);\ndouble g(void) { return mid(1); }\n",
    );
    let o = neverc_in(&dir, &["a.c", "b.c", "-o", "ok"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = neverc_in(&dir, &["a.c", "b.c", "bad.c", "-o", "bad"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr.contains(
            "neverc: error: calling conventions disagree: 'mid' is defined in a.c with a custom convention"
        ) && o.stderr.contains("but bad.c calls it"),
        "{}",
        o.stderr
    );
    // And by --check-plans on the objects.
    for f in ["a.c", "bad.c"] {
        compile(&dir, f, &std::fs::read_to_string(dir.join(f)).unwrap(), &[]);
    }
    let o = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(["--check-plans", "a.c.o", "bad.c.o"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let o = Out {
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        code: o.status.code().unwrap_or(-1),
    };
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("'mid'"), "{}", o.stderr);
}

// ---------- registers that cannot carry values, spellings

#[test]
fn reserved_registers_are_skipped_with_warnings() {
    if !tools() {
        return;
    }
    let src = r#"
#include <stdio.h>
__attribute__((custom_attr("neverc-callconv", "gpr:sp,x29,x30,x16,x17,x11,x12")))
long sk(long a, long b) { return a * 10 + b; }
int main(void) { printf("%ld\n", sk(3, 4)); return 0; }
"#;
    let dir = temp_dir("reserved");
    let diags = compile(&dir, "r.c", src, &["-O1"]);
    for w in [
        "'sp' in 'gpr:' is the stack pointer and cannot carry values; skipped",
        "'x29' in 'gpr:' is the frame pointer and cannot carry values; skipped",
        "'x30' in 'gpr:' is the link register and cannot carry values; skipped",
        "'x16' in 'gpr:' is an intra-procedure-call register",
        "'x17' in 'gpr:' is an intra-procedure-call register",
    ] {
        assert!(diags.contains(w), "{w}\n{diags}");
    }
    let d = disasm(&dir, "r.c.o");
    assert_has(
        &before_call(&d, "main", "sk"),
        &["mov x11, #3", "mov x12, #4"],
    );
    assert_reads_first(&d["sk"], "x11");
    assert_reads_first(&d["sk"], "x12");
    assert_eq!(run(&dir, &[("r.c", src)], &[]), "34\n");
}

#[test]
fn sub_register_spellings_and_variadic_functions_are_refused() {
    if !tools() {
        return;
    }
    let dir = temp_dir("refused");
    write(
        &dir,
        "w.c",
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:w3\"))) int f(int a) { return a; }\n",
    );
    let o = neverc_in(&dir, &["-c", "w.c", "-o", "w.o"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr.contains(
            "invalid calling convention spec: 'w3' in 'gpr:': write AArch64 registers as x0-x28 and v0-v31 ('x3'); the width follows each value's type"
        ),
        "{}",
        o.stderr
    );
    // Every caller-saved general register carries an argument, and x18 one more: the
    // value in x18 has nowhere to go at entry (a refusal, not a crash).
    let regs: Vec<String> = (0..16).map(|i| format!("x{i}")).collect();
    let params: Vec<String> = (0..17).map(|i| format!("long a{i}")).collect();
    write(
        &dir,
        "full.c",
        &format!(
            "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:{},x18\"))) long f({}) {{ return a16; }}\n",
            regs.join(","),
            params.join(", ")
        ),
    );
    let o = neverc_in(&dir, &["-c", "full.c", "-o", "full.o"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr.contains(
            "neverc cannot compile a value in x18 or v31 when the plan leaves no caller-saved register of its class free for aarch64 yet (function f)"
        ),
        "{}",
        o.stderr
    );
    write(
        &dir,
        "v.c",
        "__attribute__((custom_attr(\"neverc-callconv\", \"gpr:x9\"))) int f(int a, ...) { return a; }\n",
    );
    let o = neverc_in(&dir, &["-c", "v.c", "-o", "v.o"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr
            .contains("'f' has a custom calling convention and is variadic"),
        "{}",
        o.stderr
    );
}

// ---------- thunks: pointers, gcc-compiled callers, library calls

const PTR: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#define CC(s) __attribute__((custom_attr("neverc-callconv", s)))
struct big { long a, b, c; };
CC("gpr:x18,x12;fpr:v31,v19;ret:x18;ret_fpr:v31")
long many(long a, double b, int c, struct big s, float d) {
    return a * 10 + (long)(b * 100) + c * 1000 + s.a * 10000 + s.b * 100000 + s.c * 1000000
         + (long)(d * 10000000);
}
CC("gpr:x13,x14;ret:x15")
int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
long call_from_gcc(long (*f)(long, double, int, struct big, float));
int main(void) {
    int v[5] = { 4, 1, 3, 5, 2 };
    qsort(v, 5, sizeof v[0], cmp);
    long (*p)(long, double, int, struct big, float) = many;
    struct big s = { 4, 5, 6 };
    printf("%d%d%d%d%d %ld %ld\n", v[0], v[1], v[2], v[3], v[4], p(1, 0.02, 3, s, 0.7f),
           call_from_gcc(many));
    return 0;
}
"#;

const GCC_CALLER: &str = r#"
struct big { long a, b, c; };
long call_from_gcc(long (*f)(long, double, int, struct big, float)) {
    struct big s = { 9, 8, 7 };
    return f(5, 0.06, 7, s, 0.1f);
}
"#;

#[test]
fn pointers_to_custom_functions_are_standard_thunks() {
    if !tools() {
        return;
    }
    let dir = temp_dir("thunk");
    write(&dir, "gcc.c", GCC_CALLER);
    let g = Command::new("aarch64-linux-gnu-gcc")
        .args(["-O2", "-c", "gcc.c", "-o", "gcc.o"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(g.status.success(), "{g:?}");
    let diags = compile(&dir, "p.c", PTR, &["-O0"]);
    assert!(
        diags.contains("note: 'many' has a custom calling convention: its address is that of a standard-convention thunk that calls it"),
        "{diags}"
    );
    let d = disasm(&dir, "p.c.o");
    // The thunk takes the standard AAPCS64 arguments and calls `many` by its plan.
    let t = &d["many.cc_thunk"];
    let call = before_call(&d, "many.cc_thunk", "many");
    assert!(
        call.iter().any(|i| i.starts_with("mov x18, x")),
        "{call:#?}"
    );
    assert!(
        call.iter().any(|i| i.starts_with("mov v31.16b, v")),
        "{call:#?}"
    );
    // (The int arrived in w2; the allocator's copy moves all of the register.)
    assert_writes(&call, "x12");
    assert_writes(&call, "d19");
    assert_reads_first(t, "x0");
    assert_reads_first(t, "d0");
    assert!(d.contains_key("cmp.cc_thunk"), "{:?}", d.keys());
    let want = expected(&dir, &[("p.c", PTR)], &["gcc.c"]);
    assert_eq!(run_with(&dir, &[("p.c", PTR)], &["gcc.o"], &[]), want);
}

#[test]
fn library_calls_irgen_makes_reach_custom_definitions_through_thunks() {
    if !tools() {
        return;
    }
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
    compile(&dir, "l.c", src, &["-O0", "-fcallconv-all"]);
    let d = disasm(&dir, "l.c.o");
    // The direct call uses the AArch64 default spec: x9, x10, x11, the result in x13.
    let call = before_call(&d, "main", "memcpy");
    assert_has(&call, &["mov x11, #3"]);
    assert_writes(&call, "x9");
    assert_writes(&call, "x10");
    assert!(d.contains_key("memcpy.cc_thunk"), "{:?}", d.keys());
    assert_eq!(
        run(&dir, &[("l.c", src)], &["-fcallconv-all"]),
        "105 99 2\n"
    );
}

// ---------- the policy and plans

#[test]
fn the_policy_shuffles_aarch64_layouts_across_files() {
    if !tools() {
        return;
    }
    let a = r#"
long s1(long a, long b, double c) { return a * 100 + b * 10 + (long)c; }
double s2(double a, long b) { return a * b; }
long s3(long a, long b, long c, long d, long e, long f, long g, long h) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8;
}
"#;
    let b = r#"
#include <stdio.h>
long s1(long a, long b, double c);
double s2(double a, long b);
long s3(long a, long b, long c, long d, long e, long f, long g, long h);
int main(void) {
    printf("%ld %.1f %ld\n", s1(1, 2, 3.0), s2(1.5, 3), s3(1, 2, 3, 4, 5, 6, 7, 8));
    return 0;
}
"#;
    let dir = temp_dir("policy");
    let args = [
        "-fcallconv-all",
        "-fcallconv-prefix=s",
        "-fcallconv-shuffle=7",
    ];
    write(&dir, "a.c", a);
    let o = neverc_in(
        &dir,
        &[
            &["-c", "-fdump-cc-plans", "-o", "/dev/null"][..],
            &args[..],
            &["a.c"],
        ]
        .concat(),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    for f in ["s1", "s2", "s3"] {
        let line = o
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{f}: ")))
            .unwrap_or_else(|| panic!("{f}: {}", o.stdout));
        assert!(
            line.contains(";schema=neverc-aarch64-linux-gnu;") && line.contains(";cc=2:"),
            "{line}"
        );
    }
    assert_eq!(run(&dir, &[("a.c", a), ("b.c", b)], &args), "123 4.5 204\n");
}

#[test]
fn a_given_plan_is_used_and_a_foreign_one_refused() {
    if !tools() {
        return;
    }
    let spec = r#"__attribute__((custom_attr("neverc-callconv", "gpr:x9,x22;ret:x23")))
long sub(long a, long b) { return a - b; }
"#;
    let dir = temp_dir("plans");
    write(&dir, "d.c", spec);
    let o = neverc_in(&dir, &["-c", "d.c", "-o", "/dev/null", "-fdump-cc-plans"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let plan = o
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("sub: "))
        .unwrap()
        .to_string();
    assert!(
        plan.contains(";returns=r,0,0,8,8,23,0,-;arguments=r,0,0,8,8,9,0,-|r,1,0,8,8,22,0,-;"),
        "{plan}"
    );
    // Given back with b moved to x24: used as it is.
    let given = plan.replace("r,1,0,8,8,22,0,-", "r,1,0,8,8,24,0,-");
    let src = format!(
        "#include <stdio.h>\n__attribute__((custom_attr(\"neverc-cc-plan-v1\", \"{given}\")))\nlong sub(long a, long b) {{ return a - b; }}\nint main(void) {{ printf(\"%ld\\n\", sub(50, 8)); return 0; }}\n"
    );
    compile(&dir, "g.c", &src, &["-O1"]);
    let d = disasm(&dir, "g.c.o");
    assert_reads_first(&d["sub"], "x24");
    assert_has(
        &before_call(&d, "main", "sub"),
        &["mov x9, #50", "mov x24, #8"],
    );
    assert_eq!(run(&dir, &[("g.c", &src)], &[]), "42\n");
    // An x86-64 plan here.
    let x86 = plan.replace("neverc-aarch64-linux-gnu", "neverc-x86_64-linux-gnu");
    write(
        &dir,
        "x.c",
        &format!("__attribute__((custom_attr(\"neverc-cc-plan-v1\", \"{x86}\")))\nlong sub(long a, long b) {{ return a - b; }}\n"),
    );
    let o = neverc_in(&dir, &["-c", "x.c", "-o", "x.o"]);
    assert_ne!(o.code, 0);
    assert!(
        o.stderr
            .contains("NeverC calling convention plan belongs to a foreign target schema"),
        "{}",
        o.stderr
    );
}
