//! The direct -O0 instruction selector of the x86-64 back end (`direct.rs`): the exact code
//! it makes for a few small functions, what it declines, and `NEVERC_O0=vcode`.

use std::path::PathBuf;
use std::process::Command;

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn neverc_env(dir: &PathBuf, args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_neverc"));
    cmd.args(args).current_dir(dir);
    cmd.env_remove("NEVERC_O0").env_remove("NEVERC_O0_STATS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("neverc runs");
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("neverc-direct-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn x86_64_host() -> bool {
    cfg!(all(target_arch = "x86_64", target_os = "linux"))
}

/// The instruction lines of function `name` in `-S` text (labels and directives but the
/// CFI ones dropped).
fn body(text: &str, name: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| *l != format!("{name}:"))
        .skip(1)
        .take_while(|l| !l.starts_with("\t.cfi_endproc"))
        .filter(|l| !l.starts_with('.') && !l.starts_with("\t.cfi"))
        .map(|l| l.trim().to_string())
        .collect()
}

fn compile_s(tag: &str, src: &str, env: &[(&str, &str)]) -> Out {
    let d = temp_dir(tag);
    std::fs::write(d.join("f.c"), src).unwrap();
    let o = neverc_env(&d, &["-O0", "-S", "f.c", "-o", "-"], env);
    assert_eq!(o.code, 0, "{}", o.stderr);
    o
}

#[test]
fn int_function_keeps_temporaries_in_registers() {
    if !x86_64_host() {
        return;
    }
    let o = compile_s(
        "int",
        "int f(int a, int b) { return (a + b) * (a - 3); }\n",
        &[("NEVERC_O0_STATS", "1")],
    );
    assert_eq!(
        body(&o.stdout, "f"),
        [
            "pushq %rbp",
            "movq %rsp, %rbp",
            "subq $16, %rsp",
            "movl %edi, -8(%rbp)",
            "movl %esi, -16(%rbp)",
            // irgen forwards the stores: the parameters are read in their registers.
            "movq %rdi, %rax",
            "addl %esi, %eax",
            // `a`'s last use: its register becomes the difference.
            "subl $3, %edi",
            "imull %edi, %eax",
            "leave",
            "ret",
        ]
    );
    assert_eq!(o.stderr, "neverc: -O0 direct selection: 1 of 1 functions\n");
}

#[test]
fn call_with_register_and_stack_arguments() {
    if !x86_64_host() {
        return;
    }
    let o = compile_s(
        "call",
        "long g(int, double, long, long, long, long, long, float, long);\n\
         long f(long x) { return g(1, 2.5, x, 4, 5, 6, 7, 1.0f, x + 9) + x; }\n",
        &[],
    );
    assert_eq!(
        body(&o.stdout, "f"),
        [
            "pushq %rbp",
            "movq %rsp, %rbp",
            "subq $32, %rsp",
            "movq %rdi, -8(%rbp)",
            // The stack argument first, then the registers: `x` leaves rdi for the
            // first argument and goes to rsi from rax.
            "movq %rdi, %rax",
            "addq $9, %rax",
            "movq %rax, (%rsp)",
            "movq %rdi, %rax",
            "movl $1, %edi",
            "movabsq $4612811918334230528, %r11",
            "movq %r11, %xmm0",
            "movq %rax, %rsi",
            "movl $4, %edx",
            "movl $5, %ecx",
            "movl $6, %r8d",
            "movl $7, %r9d",
            "movl $1065353216, %r11d",
            "movd %r11d, %xmm1",
            "call g@PLT",
            "movq -8(%rbp), %rcx",
            "addq %rcx, %rax",
            "leave",
            "ret",
        ]
    );
}

#[test]
fn switch_makes_a_jump_table() {
    if !x86_64_host() {
        return;
    }
    let o = compile_s(
        "switch",
        "int f(int x) { switch (x) { case 1: return 10; case 2: return 20;\n\
         case 3: return 30; case 4: return 40; default: return 0; } }\n",
        &[],
    );
    let b = body(&o.stdout, "f");
    let at = b
        .iter()
        .position(|l| l.starts_with("subl $1"))
        .expect("a jump table");
    assert_eq!(
        b[at - 1..at + 7],
        [
            "movl %edi, %eax",
            "subl $1, %eax",
            "cmpq $3, %rax",
            "ja .Lf0_7",
            "leaq .Lf0_1073741828(%rip), %r11",
            "movslq (%r11,%rax,4), %rax",
            "addq %r11, %rax",
            "jmp *%rax",
        ]
    );
}

#[test]
fn declined_functions_and_the_vcode_switch() {
    if !x86_64_host() {
        return;
    }
    let src = "long double f(long double x) { return x * 2; }\nint g(int x) { return x + 1; }\n";
    let o = compile_s("declined", src, &[("NEVERC_O0_STATS", "1")]);
    assert_eq!(
        o.stderr,
        "neverc: -O0 direct selection: 1 of 2 functions\n\
         neverc: -O0 direct selection declined f: long double\n"
    );
    let v = compile_s(
        "vcode",
        src,
        &[("NEVERC_O0_STATS", "1"), ("NEVERC_O0", "vcode")],
    );
    assert_eq!(
        v.stderr,
        "neverc: -O0 direct selection: 0 of 2 functions\n\
         neverc: -O0 direct selection declined f: NEVERC_O0=vcode\n\
         neverc: -O0 direct selection declined g: NEVERC_O0=vcode\n"
    );
    // The general path makes `x + 1` with lea into the result register; the direct path
    // adds in `x`'s register (its last use) and moves the sum to rax.
    assert_eq!(
        body(&v.stdout, "g")[3..5],
        ["movl %edi, -8(%rbp)", "leal 1(%rdi), %eax"]
    );
    assert_eq!(
        body(&o.stdout, "g")[3..6],
        ["movl %edi, -8(%rbp)", "addl $1, %edi", "movq %rdi, %rax"]
    );
}

#[test]
fn block_arguments_go_through_the_parameters_homes() {
    if !x86_64_host() {
        return;
    }
    // `?:` passes its value to the join block as a block argument.
    let o = compile_s(
        "blockargs",
        "int f(int a, int b) { return a > b ? a : b; }\n",
        &[("NEVERC_O0_STATS", "1")],
    );
    assert_eq!(
        body(&o.stdout, "f"),
        [
            "pushq %rbp",
            "movq %rsp, %rbp",
            "subq $32, %rsp",
            "movl %edi, -8(%rbp)",
            "movl %esi, -16(%rbp)",
            "cmpl %esi, %edi",
            "jle .Lf0_2",
            "movl -8(%rbp), %eax",
            "movl %eax, -24(%rbp)",
            "jmp .Lf0_3",
            "movl -16(%rbp), %eax",
            "movl %eax, -24(%rbp)",
            "movl -24(%rbp), %eax",
            "leave",
            "ret",
        ]
    );
    assert_eq!(o.stderr, "neverc: -O0 direct selection: 1 of 1 functions\n");
}
