//! The C text of a run: callee files (each function checks every argument byte by byte
//! and returns a known value), caller files (each call passes known values and checks the
//! result) and the runtime `rt.c` (always compiled by gcc: the checks, `main`, a signal
//! handler naming the signature that crashed).

use super::cases::Case;
use super::gen::Gen;
use neverc_target::Arch;
use std::fmt::Write;

/// Declarations shared by the generated files.
const PRELUDE: &str = "#include <stdarg.h>\n#include <string.h>\n\
    extern void abi2_chk(int sig, int arg, const void *got, const unsigned char *want,\n\
                         const unsigned char *mask, unsigned long n);\n\
    extern unsigned long abi2_sp(void);\n\
    extern void abi2_bad_sp(int sig);\n\
    extern void abi2_bad_guard(int sig, int which);\n\
    extern unsigned long abi2_opaque(unsigned long);\n\
    extern double abi2_dopaque(unsigned long);\n\
    extern volatile int abi2_current;\n";

/// C bytes of an initializer (one more byte, so that an empty value has an array too).
fn c_bytes(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b},")).collect::<String>() + "0"
}

/// The value `abi2_opaque` returns (see [`RT`]).
pub fn opaque(x: u64) -> u64 {
    x.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0123_4567_89ab_cdef
}

fn proto(case: &Case) -> String {
    let named = case.variadic.unwrap_or(case.c_types.len());
    let mut p: Vec<String> = case.c_types[..named]
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{t} a{i}"))
        .collect();
    if case.variadic.is_some() {
        p.push("...".into());
    }
    if p.is_empty() {
        p.push("void".into());
    }
    p.join(", ")
}

/// The prototype of signature `k`, as C.
pub fn declaration(case: &Case, k: usize) -> String {
    format!("{} f{k}({});", case.c_ret, proto(case))
}

/// Size and alignment assertions: a layout disagreement stops the build.
fn asserts(case: &Case, k: usize) -> String {
    let mut s = String::new();
    for (i, t) in case.c_types.iter().enumerate() {
        let _ = writeln!(
            s,
            "_Static_assert(sizeof({t}) == {} && _Alignof({t}) == {}, \"f{k} a{i}\");",
            case.images[i].len(),
            case.aligns[i]
        );
    }
    if !case.is_void {
        let _ = writeln!(
            s,
            "_Static_assert(sizeof({0}) == {1} && _Alignof({0}) == {2}, \"f{k} result\");",
            case.c_ret,
            case.ret_image.len(),
            case.ret_align
        );
    }
    s
}

fn types_of(gen: &Gen, cases: &[(usize, &Case)]) -> String {
    gen.closure_of(
        cases
            .iter()
            .flat_map(|(_, c)| c.deps.iter().map(String::as_str)),
    )
}

/// A file defining the functions of `cases`.
pub fn callee(gen: &Gen, cases: &[(usize, &Case)]) -> String {
    let mut s = String::from(PRELUDE);
    s += &types_of(gen, cases);
    for &(k, case) in cases {
        s += &asserts(case, k);
        let _ = writeln!(s, "{} f{k}({}) {{", case.c_ret, proto(case));
        let _ = writeln!(s, "  if (abi2_sp() & 15) abi2_bad_sp({k});");
        let named = case.variadic.unwrap_or(case.c_types.len());
        for i in 0..case.c_types.len() {
            if i == named {
                let _ = writeln!(s, "  va_list ap;\n  va_start(ap, a{});", named - 1);
            }
            if i >= named {
                let _ = writeln!(s, "  {0} a{i} = va_arg(ap, {0});", case.c_types[i]);
            }
            let _ = writeln!(
                s,
                "  {{ static const unsigned char w[] = {{{}}}, m[] = {{{}}};\n    \
                 abi2_chk({k}, {i}, &a{i}, w, m, sizeof a{i}); }}",
                c_bytes(&case.images[i]),
                c_bytes(&case.masks[i])
            );
        }
        if named < case.c_types.len() {
            s += "  va_end(ap);\n";
        }
        if !case.is_void {
            let _ = writeln!(
                s,
                "  static const unsigned char rv[] = {{{}}};\n  {} r;\n  \
                 memcpy(&r, rv, sizeof r);\n  return r;",
                c_bytes(&case.ret_image),
                case.c_ret
            );
        }
        s += "}\n";
    }
    s
}

/// Guards live across each call (callee-saved registers, the caller's frame): integers,
/// and doubles (x86-64 has no callee-saved float registers, AArch64 has d8-d15).
const GUARDS: u64 = 4;
const FLOAT_GUARDS: u64 = 2;

/// The value `abi2_dopaque(x)` returns (see [`rt`]), exactly representable.
fn dopaque(x: u64) -> String {
    format!("{}.0", x * 3 + 1)
}

/// A file calling the functions of `cases`: `abi2_call<k>` calls `f<k>`; every fourth
/// call goes through a volatile function pointer.
pub fn caller(gen: &Gen, cases: &[(usize, &Case)]) -> String {
    let mut s = String::from(PRELUDE);
    s += &types_of(gen, cases);
    for &(k, case) in cases {
        s += &asserts(case, k);
        s += &declaration(case, k);
        s += "\n";
        let _ = writeln!(s, "void abi2_call{k}(void) {{\n  abi2_current = {k};");
        for (i, (t, img)) in case.c_types.iter().zip(&case.images).enumerate() {
            let _ = writeln!(
                s,
                "  static const unsigned char w{i}[] = {{{}}};\n  {t} a{i};\n  \
                 memcpy(&a{i}, w{i}, sizeof a{i});",
                c_bytes(img)
            );
        }
        for g in 0..GUARDS {
            let _ = writeln!(
                s,
                "  unsigned long g{g} = abi2_opaque({}UL);",
                k as u64 * 8 + g
            );
        }
        for g in 0..FLOAT_GUARDS {
            let _ = writeln!(s, "  double h{g} = abi2_dopaque({}UL);", k as u64 * 8 + g);
        }
        let args: Vec<String> = (0..case.c_types.len()).map(|i| format!("a{i}")).collect();
        let callee = if k % 4 == 3 {
            let named = case.variadic.unwrap_or(case.c_types.len());
            let mut p: Vec<String> = case.c_types[..named].to_vec();
            if case.variadic.is_some() {
                p.push("...".into());
            }
            if p.is_empty() {
                p.push("void".into());
            }
            let _ = writeln!(
                s,
                "  {} (*volatile fp)({}) = f{k};",
                case.c_ret,
                p.join(", ")
            );
            "fp".to_string()
        } else {
            format!("f{k}")
        };
        let call = format!("{callee}({})", args.join(", "));
        if case.is_void {
            let _ = writeln!(s, "  {call};");
        } else {
            let _ = writeln!(s, "  {} r = {call};", case.c_ret);
        }
        for g in 0..GUARDS {
            let _ = writeln!(
                s,
                "  if (g{g} != {}UL) abi2_bad_guard({k}, {g});",
                opaque(k as u64 * 8 + g)
            );
        }
        for g in 0..FLOAT_GUARDS {
            let _ = writeln!(
                s,
                "  if (h{g} != {}) abi2_bad_guard({k}, {});",
                dopaque(k as u64 * 8 + g),
                GUARDS + g
            );
        }
        if !case.is_void {
            let _ = writeln!(
                s,
                "  {{ static const unsigned char w[] = {{{}}}, m[] = {{{}}};\n    \
                 abi2_chk({k}, -1, &r, w, m, sizeof r); }}",
                c_bytes(&case.ret_image),
                c_bytes(&case.ret_mask)
            );
        }
        s += "}\n";
    }
    s
}

/// `abi2_sp`: the caller's stack pointer as it was before the call, which is a multiple
/// of 16 if the stack is aligned (x86-64: above the return address; AArch64: `bl` leaves
/// `sp` alone).
fn sp_function(arch: Arch) -> &'static str {
    match arch {
        Arch::X86_64 => {
            "__asm__(\".text\\n.globl abi2_sp\\n.type abi2_sp, @function\\n\"\n        \
             \"abi2_sp:\\n  leaq 8(%rsp), %rax\\n  ret\\n\");\n"
        }
        Arch::AArch64 => {
            "__asm__(\".text\\n.globl abi2_sp\\n.type abi2_sp, %function\\n\"\n        \
             \"abi2_sp:\\n  mov x0, sp\\n  ret\\n\");\n"
        }
        a => panic!("no abi2_sp for {a:?}"),
    }
}

/// The runtime: `main(argc, argv)` runs the calls of `order` from position `argv[1]`;
/// a crash or a hang prints `CRASH <sig> <signal>` (the signature being called).
pub fn rt(order: &[usize], arch: Arch) -> String {
    let mut s = String::from(
        r#"#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
volatile int abi2_current = -1;
"#,
    );
    s += sp_function(arch);
    s += r#"__attribute__((noinline)) unsigned long abi2_opaque(unsigned long x) {
  __asm__ volatile("" : "+r"(x));
  return x * 0x9e3779b97f4a7c15UL ^ 0x0123456789abcdefUL;
}
__attribute__((noinline)) double abi2_dopaque(unsigned long x) {
  __asm__ volatile("" : "+r"(x));
  return (double)(x * 3 + 1);
}
static void hex(const unsigned char *p, const unsigned char *m, unsigned long n) {
  for (unsigned long i = 0; i < n; i++) {
    if (m[i] == 0) printf("..");
    else printf("%02x", p[i] & m[i]);
  }
}
void abi2_chk(int sig, int arg, const void *got, const unsigned char *want,
              const unsigned char *mask, unsigned long n) {
  const unsigned char *g = got;
  for (unsigned long i = 0; i < n; i++)
    if ((g[i] ^ want[i]) & mask[i]) {
      printf("MISMATCH %d %d got=", sig, arg);
      hex(g, mask, n);
      printf(" want=");
      hex(want, mask, n);
      printf("\n");
      return;
    }
}
void abi2_bad_sp(int sig) { printf("MISMATCH %d sp misaligned in the callee\n", sig); }
void abi2_bad_guard(int sig, int which) {
  printf("MISMATCH %d guard %d clobbered across the call\n", sig, which);
}
static void on_signal(int s) {
  char buf[64];
  int n = snprintf(buf, sizeof buf, "CRASH %d %d\n", abi2_current, s);
  fflush(stdout);
  write(1, buf, n);
  _exit(3);
}
"#;
    for k in order {
        let _ = writeln!(s, "void abi2_call{k}(void);");
    }
    s += "static void (*const calls[])(void) = {\n";
    for k in order {
        let _ = writeln!(s, "  abi2_call{k},");
    }
    s += "  0\n};\n";
    s += r#"int main(int argc, char **argv) {
  static char alt[1 << 16];
  stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
  sigaltstack(&ss, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_ONSTACK;
  int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM, SIGTRAP };
  for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) sigaction(sigs[i], &sa, 0);
  alarm(60);
  int from = argc > 1 ? atoi(argv[1]) : 0;
  for (int i = from; calls[i]; i++) {
    calls[i]();
    if (i % 64 == 63) fflush(stdout);
  }
  printf("DONE\n");
  return 0;
}
"#;
    s
}
