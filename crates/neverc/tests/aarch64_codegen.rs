//! Exact AArch64 code for small functions at -O1 (`-S`, instructions only: no labels,
//! directives or CFI): frameless leaves, the frame record around calls, fused compares,
//! immediates, addressing, binary128 arithmetic through libgcc, empty asm statements,
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
    let dir = scratch_dir("cg");
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("t.c");
    std::fs::write(&c, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(["--target=aarch64-linux-gnu", "-O1", "-S", "-o", "-"])
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
            if l.starts_with('\t') && !l.starts_with("\t.") {
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
    let e = refusal("__int128 f(__int128 a) { return a * 3; }");
    assert!(
        e.contains("neverc cannot compile __int128 for aarch64 yet"),
        "{e}"
    );
    let e = refusal("int f(void) { int r; __asm__(\"mov %w0, #1\" : \"=r\"(r)); return r; }");
    assert!(
        e.contains("neverc cannot compile inline asm for aarch64 yet"),
        "{e}"
    );
}
