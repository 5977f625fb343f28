//! The driver as a user meets it: exact output, messages and exit status.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

fn neverc_in(dir: Option<&PathBuf>, args: &[&str], stdin: Option<&str>) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_neverc"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("neverc runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn neverc(args: &[&str]) -> Out {
    neverc_in(None, args, None)
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("neverc-cli-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn unknown_option_is_refused_like_gcc() {
    let o = neverc(&["-frobnicate", "x.c"]);
    assert_eq!(
        o.stderr,
        "neverc: error: unrecognized command-line option '-frobnicate'\n"
    );
    assert_eq!(o.code, 1);
}

#[test]
fn no_input_files() {
    let o = neverc(&[]);
    assert_eq!(
        o.stderr,
        "neverc: fatal error: no input files\ncompilation terminated.\n"
    );
    assert_eq!(o.code, 1);
    let o = neverc(&["-E", "does-not-exist.c"]);
    assert_eq!(
        o.stderr,
        "neverc: error: does-not-exist.c: No such file or directory\nneverc: fatal error: no input files\ncompilation terminated.\n"
    );
    assert_eq!(o.code, 1);
}

#[test]
fn compiles_links_and_refuses_what_it_cannot() {
    let d = temp_dir("stages");
    std::fs::write(
        d.join("a.c"),
        "int twice(int x);\nint main(void) { return twice(20) + 2 == 42 ? 0 : 1; }\n",
    )
    .unwrap();
    std::fs::write(d.join("b.c"), "int twice(int x) { return 2 * x; }\n").unwrap();
    // -c writes a.o next to the source's stem; linking two objects runs.
    let o = neverc_in(Some(&d), &["-c", "a.c"], None);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    assert!(d.join("a.o").exists());
    let o = neverc_in(Some(&d), &["a.o", "b.c", "-o", "prog"], None);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let run = std::process::Command::new(d.join("prog")).status().unwrap();
    assert_eq!(run.code(), Some(0));
    // -S gives assembly text with the function's symbol.
    let o = neverc_in(Some(&d), &["-S", "b.c", "-o", "-"], None);
    assert!(o.stdout.contains("twice:") && o.stdout.contains(".globl twice"));
    // Code generation for a target without a back end is refused by name.
    let o = neverc_in(Some(&d), &["--target=riscv64-linux-gnu", "-c", "a.c"], None);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stderr,
        "neverc: error: code generation for riscv64-linux-gnu is not implemented yet (this neverc compiles for x86_64-linux-gnu and aarch64-linux-gnu)\n"
    );
    // Options that would change the generated code and are not implemented.
    let o = neverc_in(Some(&d), &["-finstrument-functions", "-c", "a.c"], None);
    assert_eq!(
        (o.code, o.stderr.as_str()),
        (1, "neverc: error: -finstrument-functions is not supported by neverc's code generation yet\n")
    );
}

#[test]
fn machine_and_version_queries() {
    assert_eq!(neverc(&["-dumpmachine"]).stdout, "x86_64-linux-gnu\n");
    assert_eq!(
        neverc(&["--target=aarch64-unknown-linux-gnu", "-dumpmachine"]).stdout,
        "aarch64-linux-gnu\n"
    );
    assert_eq!(neverc(&["-dumpversion"]).stdout, "4.2.1\n");
    assert_eq!(neverc(&["--target=avr", "-print-multiarch"]).stdout, "\n");
    assert_eq!(neverc(&["-print-multiarch"]).stdout, "x86_64-linux-gnu\n");
    let o = neverc(&["--target=pdp11", "-E", "x.c"]);
    assert!(
        o.stderr.starts_with(
            "neverc: error: unknown target 'pdp11'; known targets: x86_64-linux-gnu, "
        ),
        "{}",
        o.stderr
    );
    assert_eq!(o.code, 1);
}

#[test]
fn standard_input_and_response_files() {
    let o = neverc_in(None, &["-E", "-P", "-"], Some("#define X(a) a+1\nX(2)\n"));
    // gcc's spacing: a space where an argument meets the body (cpp_avoid_paste).
    assert_eq!(o.stdout.trim(), "2 +1");
    assert_eq!(o.code, 0);
    let d = temp_dir("rsp");
    std::fs::write(d.join("opts"), "-E -P\n-DY=\"7 * 6\"\n").unwrap();
    std::fs::write(d.join("y.c"), "Y\n").unwrap();
    let o = neverc_in(Some(&d), &["@opts", "y.c"], None);
    assert_eq!(o.stdout.trim(), "7 * 6");
}

#[test]
fn predefined_macros_follow_target_and_options() {
    let dm = |args: &[&str]| {
        let mut a = vec!["-dM", "-E", "-x", "c", "-"];
        a.extend_from_slice(args);
        neverc_in(None, &a, Some("")).stdout
    };
    let host = dm(&[]);
    for line in [
        "#define __GNUC__ 4\n",
        "#define __neverc__ 1\n",
        "#define __x86_64__ 1\n",
        "#define __STDC_VERSION__ 201710L\n",
        "#define __SIZEOF_POINTER__ 8\n",
        "#define __PIE__ 2\n",
        "#define __NO_INLINE__ 1\n",
        "#define linux 1\n",
    ] {
        assert!(host.contains(line), "missing {line}");
    }
    assert!(!host.contains("__STRICT_ANSI__"));
    let c99 = dm(&["-std=c99", "-O2", "-fno-pic"]);
    assert!(c99.contains("#define __STDC_VERSION__ 199901L\n"));
    assert!(c99.contains("#define __STRICT_ANSI__ 1\n"));
    // neverc does not claim gcc's optimiser (docs/predefined-macros.md).
    assert!(!c99.contains("__OPTIMIZE__") && !c99.contains("__NO_INLINE__"));
    assert!(!c99.contains("__PIC__") && !c99.contains("#define linux"));
    let arm = dm(&["--target=aarch64-linux-gnu"]);
    assert!(
        arm.contains("#define __aarch64__ 1\n") && arm.contains("#define __CHAR_UNSIGNED__ 1\n")
    );
    assert!(!arm.contains("__x86_64__"));
    let signed = dm(&["--target=aarch64-linux-gnu", "-fsigned-char"]);
    assert!(!signed.contains("__CHAR_UNSIGNED__"));
    let avr = dm(&["--target=avr"]);
    assert!(avr.contains("#define __AVR__ 1\n") && avr.contains("#define __SIZEOF_INT__ 2\n"));
    assert!(!avr.contains("__PIE__"));
}

#[test]
fn dependencies_match_gcc_layout() {
    let d = temp_dir("deps");
    std::fs::create_dir_all(d.join("inc")).unwrap();
    std::fs::write(d.join("inc/b.h"), "#include \"c.h\"\n").unwrap();
    std::fs::write(d.join("inc/c.h"), "").unwrap();
    std::fs::write(d.join("a.h"), "").unwrap();
    std::fs::write(
        d.join("m.c"),
        "#include \"a.h\"\n#include <b.h>\n#include <stddef.h>\n",
    )
    .unwrap();
    let o = neverc_in(Some(&d), &["-MM", "-Iinc", "m.c"], None);
    assert_eq!(o.stdout, "m.o: m.c a.h inc/b.h inc/c.h\n");
    let o = neverc_in(
        Some(&d),
        &["-MM", "-MP", "-MT", "$(OBJ)", "-MQ", "$(X)", "-Iinc", "m.c"],
        None,
    );
    assert_eq!(
        o.stdout,
        "$(OBJ) $$(X): m.c a.h inc/b.h inc/c.h\na.h:\ninc/b.h:\ninc/c.h:\n"
    );
    let o = neverc_in(Some(&d), &["-E", "-MMD", "-Iinc", "m.c", "-o", "m.i"], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(d.join("m.d")).unwrap(),
        "m.o: m.c a.h inc/b.h inc/c.h\n"
    );
    let o = neverc_in(
        Some(&d),
        &["-M", "-MG", "-Iinc", "-"],
        Some("#include \"gen.h\"\n"),
    );
    assert!(
        o.stdout.starts_with("-.o: <stdin>") || o.stdout.contains("gen.h"),
        "{}",
        o.stdout
    );
}

#[test]
fn warnings_werror_and_colour() {
    let d = temp_dir("warn");
    std::fs::write(d.join("w.c"), "#warning hi\n").unwrap();
    let o = neverc_in(Some(&d), &["-E", "-P", "w.c"], None);
    assert_eq!(o.code, 0);
    assert_eq!(
        o.stderr,
        "w.c:1:2: warning: #warning hi [-Wcpp]\n    1 | #warning hi\n      |  ^~~~~~~\n"
    );
    let o = neverc_in(Some(&d), &["-E", "-P", "-Werror", "w.c"], None);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .starts_with("w.c:1:2: error: #warning hi [-Werror=cpp]\n"),
        "{}",
        o.stderr
    );
    let o = neverc_in(Some(&d), &["-E", "-P", "-w", "w.c"], None);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let o = neverc_in(
        Some(&d),
        &["-E", "-P", "-fdiagnostics-color=always", "w.c"],
        None,
    );
    assert!(
        o.stderr.starts_with(
            "\x1b[01m\x1b[Kw.c:1:2:\x1b[m\x1b[K \x1b[01;35m\x1b[Kwarning: \x1b[m\x1b[K"
        ),
        "{:?}",
        o.stderr
    );
}

/// gcc's -Wreturn-type: found on the control-flow graph when compiling (not with
/// -fsyntax-only), after the front end's warnings, each under its "In function" line.
#[test]
fn control_reaching_the_end_of_a_non_void_function() {
    let d = temp_dir("rettype");
    let src = "\
_Noreturn void stop(void);
int a(int x) { if (x) return 1; }
int b(int x) { for (;;) { if (x) break; } }
int c(int x) { while (1) { } }
int d(int x) { if (x) return 1; stop(); }
int e(int x) { if (x) goto out; return 1; out: ; }
int f(int x) { switch (x) { case 1: return 1; default: return 2; } }
int g(int x) { do { return 1; } while (x); }
int h(int x) { if (x) return; return 2; }
int main(void) { }
";
    std::fs::write(d.join("r.c"), src).unwrap();
    let o = neverc_in(Some(&d), &["-Wall", "-c", "r.c", "-o", "r.o"], None);
    assert_eq!(o.code, 0);
    let expected = "\
r.c: In function 'h':
r.c:9:23: warning: 'return' with no value, in function returning non-void [-Wreturn-type]
    9 | int h(int x) { if (x) return; return 2; }
      |                       ^~~~~~
r.c:9:5: note: declared here
    9 | int h(int x) { if (x) return; return 2; }
      |     ^
r.c: In function 'a':
r.c:2:33: warning: control reaches end of non-void function [-Wreturn-type]
    2 | int a(int x) { if (x) return 1; }
      |                                 ^
r.c: In function 'b':
r.c:3:43: warning: control reaches end of non-void function [-Wreturn-type]
    3 | int b(int x) { for (;;) { if (x) break; } }
      |                                           ^
r.c: In function 'e':
r.c:6:50: warning: control reaches end of non-void function [-Wreturn-type]
    6 | int e(int x) { if (x) goto out; return 1; out: ; }
      |                                                  ^
";
    assert_eq!(o.stderr, expected);
    // Only under -Wall or -Wreturn-type, never with -fsyntax-only, and -Werror applies.
    let o = neverc_in(Some(&d), &["-c", "r.c", "-o", "r.o"], None);
    assert!(!o.stderr.contains("control reaches"), "{}", o.stderr);
    let o = neverc_in(Some(&d), &["-Wall", "-fsyntax-only", "r.c"], None);
    assert!(!o.stderr.contains("control reaches"), "{}", o.stderr);
    let o = neverc_in(
        Some(&d),
        &["-Wall", "-Wno-return-type", "-c", "r.c", "-o", "r.o"],
        None,
    );
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    std::fs::write(d.join("s.c"), "int a(int x) { if (x) return 1; }\n").unwrap();
    let o = neverc_in(
        Some(&d),
        &["-Werror=return-type", "-c", "s.c", "-o", "s.o"],
        None,
    );
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains(
            "s.c:1:33: error: control reaches end of non-void function [-Werror=return-type]\n"
        ),
        "{}",
        o.stderr
    );
}

#[test]
fn verbose_lists_the_search_path() {
    let o = neverc_in(None, &["-v", "-E", "-P", "-Ifoo", "-"], Some(""));
    assert!(
        o.stderr
            .contains("#include <...> search starts here:\n foo\n"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains(" /usr/include\nEnd of search list.\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn output_file_and_multiple_inputs() {
    let d = temp_dir("out");
    std::fs::write(d.join("a.c"), "a\n").unwrap();
    std::fs::write(d.join("b.c"), "b\n").unwrap();
    let o = neverc_in(Some(&d), &["-E", "-P", "a.c", "b.c"], None);
    assert_eq!(o.stdout, "a\nb\n");
    let o = neverc_in(Some(&d), &["-E", "a.c", "b.c", "-o", "x.i"], None);
    assert_eq!(
        o.stderr,
        "neverc: fatal error: cannot specify '-o' with '-c', '-S' or '-E' with multiple files\ncompilation terminated.\n"
    );
    let o = neverc_in(Some(&d), &["-E", "-P", "a.c", "-o", "x.i"], None);
    assert_eq!(o.code, 0);
    assert_eq!(std::fs::read_to_string(d.join("x.i")).unwrap(), "a\n");
}

#[test]
fn freestanding_headers_are_neverc_own() {
    let o = neverc_in(
        None,
        &["-E", "-P", "-ffreestanding", "-"],
        Some("#include <stddef.h>\n#include <stdint.h>\nsize_t s; int64_t i; offsetof\n"),
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("typedef long unsigned int size_t;"),
        "{}",
        o.stdout
    );
    let avr = neverc_in(
        None,
        &["--target=avr", "-E", "-P", "-"],
        Some("#include <stdint.h>\nINT_MAX INTPTR_MAX\n"),
    );
    assert!(
        avr.stdout.trim_end().ends_with("INT_MAX 0x7fff"),
        "{}",
        avr.stdout
    );
}

#[test]
fn print_abi_tables_and_json() {
    // A signature on the command line, for another target.
    let o = neverc(&[
        "--print-abi",
        "--target=aarch64-linux-gnu",
        "struct s { char c; double d; } f(int, struct s)",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let text = o.stdout;
    for line in [
        "<command line>: target aarch64-linux-gnu, convention Aapcs64\n",
        "struct s  (size 16, align 8)\n",
        "       0      1  c: char\n       1      7  (padding)\n       8      8  d: double\n",
        "struct s f(int, struct s)\n  result: struct s      bytes   0..8    x0\n  result: struct s      bytes   8..16   x1\n  argument 1: int       bytes   0..4    x0\n  argument 2: struct s  bytes   0..8    x1\n  argument 2: struct s  bytes   8..16   x2\n  stack area 0 bytes; callee-saved x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 v8 v9 v10 v11 v12 v13 v14 v15\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    // JSON: the same plan, machine-readable.
    let o = neverc(&["-fprint-abi=json", "double g(double, long)"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.starts_with(
        "{\"file\":\"<command line>\",\"target\":\"x86_64-linux-gnu\",\"convention\":\"SysV64\",\"records\":[],\"functions\":[{\"name\":\"g\",\"type\":\"double(double, long int)\",\"plan\":\"neverc-cc-plan-v1;"
    ), "{}", o.stdout);
    assert!(o.stdout.contains(
        "\"arguments\":[{\"value\":0,\"offset\":0,\"size\":8,\"place\":\"xmm0\",\"flags\":\"\"},{\"value\":1,\"offset\":0,\"size\":8,\"place\":\"rdi\",\"flags\":\"\"}]"
    ), "{}", o.stdout);
}

/// The instructions of function `name` in `-S` text (no labels, no directives but CFI).
fn asm_body(text: &str, name: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| *l != format!("{name}:"))
        .skip(1)
        .take_while(|l| !l.starts_with("\t.cfi_endproc"))
        .filter(|l| !l.starts_with('.') && !l.starts_with("\t.cfi_startproc"))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn frame_pointer_by_default_and_omitted_on_request() {
    let d = temp_dir("omit-fp");
    std::fs::write(
        d.join("f.c"),
        "int g(int);\nint f(int x) { return g(x) + 1; }\n\
         int h(int n) { int a[n]; a[0] = n; return g(a[0]); }\n",
    )
    .unwrap();
    let o = neverc_in(Some(&d), &["-O1", "-S", "f.c", "-o", "-"], None);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        asm_body(&o.stdout, "f"),
        [
            "pushq %rbp",
            ".cfi_def_cfa_offset 16",
            ".cfi_offset 6, -16",
            "movq %rsp, %rbp",
            ".cfi_def_cfa_register 6",
            "call g@PLT",
            "leal 1(%rax), %eax",
            "leave",
            ".cfi_def_cfa 7, 8",
            "ret",
        ]
    );
    // rsp-based: 8 bytes keep calls aligned; the CFA offset follows rsp.
    let o = neverc_in(
        Some(&d),
        &["-O1", "-fomit-frame-pointer", "-S", "f.c", "-o", "-"],
        None,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(
        asm_body(&o.stdout, "f"),
        [
            "subq $8, %rsp",
            ".cfi_def_cfa_offset 16",
            "call g@PLT",
            "leal 1(%rax), %eax",
            "addq $8, %rsp",
            ".cfi_def_cfa_offset 8",
            "ret",
        ]
    );
    // A VLA moves rsp: that function keeps rbp.
    let h = asm_body(&o.stdout, "h");
    assert_eq!(h[..2], ["pushq %rbp", ".cfi_def_cfa_offset 16"]);
    assert_eq!(h[h.len() - 3..], ["leave", ".cfi_def_cfa 7, 8", "ret"]);
}

/// Runs `tool` when present; false when it is missing.
fn have_tool(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn inline_asm_is_assembled_by_neverc() {
    let d = temp_dir("asm");
    std::fs::write(
        d.join("a.c"),
        "int add(int x, int y) { asm(\"addl %1, %0\" : \"+a\"(x) : \"d\"(y)); return x; }\n\
         long lk(long *p) { long v = 1; asm volatile(\"lock; addq %1, %0\" : \"+m\"(*p) : \"r\"(v) : \"memory\"); return v; }\n",
    )
    .unwrap();
    for opt in ["-O0", "-O1"] {
        let o = neverc_in(Some(&d), &[opt, "-S", "a.c", "-o", "-"], None);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""));
        assert!(
            o.stdout.contains("#APP\n\taddl %edx, %eax\n#NO_APP\n"),
            "{opt}:\n{}",
            o.stdout
        );
        assert!(
            o.stdout.contains("#APP\n\tlock\n\taddq "),
            "{opt}:\n{}",
            o.stdout
        );
    }
}

/// Whether an execution test is for x86-64: its leading `//` lines name no `// target:`
/// or one that lists `x86_64` (the corpus harness's rule, `tests/exec/README.md`).
fn for_x86_64(source: &str) -> bool {
    source
        .lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// target:"))
        .all(|t| t.split_whitespace().any(|w| w == "x86_64"))
}

/// `-S` then `as` gives the bytes of `-c` for the x86-64 inline-asm execution tests (the
/// AArch64 ones have their own round trip in `aarch64_roundtrip.rs`).
#[test]
fn inline_asm_s_round_trip() {
    if !have_tool("as") || !have_tool("objcopy") {
        eprintln!("skipped: as or objcopy missing");
        return;
    }
    let d = temp_dir("asm-rt");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/exec/asm");
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| for_x86_64(&std::fs::read_to_string(p).unwrap()))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    let text = |obj: &PathBuf, out: &PathBuf| {
        let st = Command::new("objcopy")
            .args(["-O", "binary", "-j", ".text"])
            .arg(obj)
            .arg(out)
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::read(out).unwrap()
    };
    for f in &files {
        for opt in ["-O0", "-O1"] {
            let src = f.to_str().unwrap();
            let o = neverc_in(Some(&d), &[opt, "-w", "-c", src, "-o", "c.o"], None);
            assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{src}");
            let o = neverc_in(Some(&d), &[opt, "-w", "-S", src, "-o", "s.s"], None);
            assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{src}");
            let st = Command::new("as")
                .current_dir(&d)
                .args(["s.s", "-o", "s.o"])
                .status()
                .unwrap();
            assert!(st.success(), "{src} {opt}: as rejected the -S text");
            assert!(
                text(&d.join("c.o"), &d.join("c.bin")) == text(&d.join("s.o"), &d.join("s.bin")),
                "{src} {opt}: -c and -S then as differ"
            );
        }
    }
}

#[test]
fn inline_asm_refusals_are_exact() {
    let d = temp_dir("asm-refuse");
    let cases: &[(&str, &str)] = &[
        (
            "int f(int x) { asm(\"frobq %0\" : \"+r\"(x)); return x; }\n",
            "t.c: error: neverc cannot assemble 'frobq' in inline asm yet (function f)\n",
        ),
        (
            "int f(int x) { asm(\".byte 0x90\"); return x; }\n",
            "t.c: error: neverc cannot assemble the directive '.byte' in inline asm yet (function f)\n",
        ),
        (
            "int f(int x) { asm(\"addl %0, (%0)\" : \"+r\"(x)); return x; }\n",
            "t.c: error: neverc cannot assemble '(%k0)' in inline asm yet (function f)\n",
        ),
        (
            "int f(long x) { int r; asm(\"movl %1, %0\" : \"=r\"(r) : \"r\"(x)); return r; }\n",
            "t.c: error: neverc cannot assemble 'movl %q1, %k0' in inline asm yet (no form of 'movl' takes these operands) (function f)\n",
        ),
        (
            "int f(int x) { asm(\"movl %1, %0\" : \"=r\"(x) : \"i\"(x)); return x; }\n",
            "t.c: error: impossible constraint in 'asm' (function f)\n",
        ),
        (
            "int f(int x) { asm(\"cpuid\" : \"+c\"(x) : \"c\"(1)); return x; }\n",
            "t.c: error: impossible constraint in 'asm' (function f)\n",
        ),
        (
            "int f(int x) { asm(\"addl %2, %0\" : \"+r\"(x)); return x; }\n",
            "t.c: error: invalid 'asm': operand number out of range (function f)\n",
        ),
        (
            "int f(int x) { asm(\"\" : \"+r\"(x) : : \"xyz\"); return x; }\n",
            "t.c: error: unknown register name 'xyz' in 'asm' (function f)\n",
        ),
        (
            "int f(int x) { asm(\"nop\" : \"+y\"(x)); return x; }\n",
            "t.c: error: neverc cannot compile the asm constraint 'y' yet (function f)\n",
        ),
        (
            "int f(int x) { asm(\"movb %h0, %%al\" : \"+S\"(x)); return x; }\n",
            "t.c: error: neverc cannot compile the asm operand modifier '%h' for this operand yet (function f)\n",
        ),
        (
            "int f(int x) { asm goto(\"jmp %l0\" : : : : out); return x; out: return 0; }\n",
            "t.c:1:16: error: neverc cannot compile asm goto yet (function 'f')\n",
        ),
        (
            "int f(int x) { asm(\"\" : \"=r\"(1)); return x; }\n",
            "t.c: In function 'f':\nt.c:1:16: error: lvalue required in 'asm' statement\n",
        ),
        (
            "int f(int x) { asm(\"\" : : \"m\"(5)); return x; }\n",
            "t.c: In function 'f':\nt.c:1:16: error: memory input 0 is not directly addressable\n",
        ),
        (
            "int f(int x) { asm(\"\" : \"+r\"(x) : \"r\"(1), \"r\"(2), \"r\"(3), \"r\"(4), \"r\"(5), \"r\"(6), \"r\"(7), \"r\"(8), \"r\"(9), \"r\"(10), \"r\"(11), \"r\"(12), \"r\"(13), \"r\"(14), \"r\"(15), \"r\"(16), \"r\"(17), \"r\"(18), \"r\"(19), \"r\"(20), \"r\"(21), \"r\"(22), \"r\"(23), \"r\"(24), \"r\"(25), \"r\"(26), \"r\"(27), \"r\"(28), \"r\"(29), \"r\"(30)); return x; }\n",
            "t.c: In function 'f':\nt.c:1:16: error: more than 30 operands in 'asm'\n",
        ),
    ];
    for (src, want) in cases {
        std::fs::write(d.join("t.c"), src).unwrap();
        let o = neverc_in(Some(&d), &["-c", "t.c", "-o", "t.o"], None);
        let first: String = o
            .stderr
            .lines()
            .take(want.lines().count())
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!((o.code, first.as_str()), (1, *want), "{src}");
    }
}

/// Variably modified types neverc does not compile are refused by name, never given a
/// wrong size: GNU VLAs in structs (objects, sizeof, offsetof), a nested function using
/// its parent's VLA type (the size lives in the parent's frame), structures too large
/// for the layout.
#[test]
fn variably_modified_refusals_are_exact() {
    let d = temp_dir("vm");
    let cases: &[(&str, &str)] = &[
        (
            "int f(int n) { struct { int a[n]; } s; s.a[0] = 1; return s.a[0]; }\n",
            "t.c:1:37: error: neverc cannot compile objects of structures or unions with variable length members (GNU) yet (function 'f')\n",
        ),
        (
            "int f(int n) { struct s { char b[n]; }; return sizeof(struct s); }\n",
            "t.c:1:48: error: neverc cannot compile sizeof of structures or unions with variable length members (GNU) yet (function 'f')\n",
        ),
        (
            "int f(int n) { int a[n][n]; int g(void) { return a[1][1]; } return g(); }\n",
            "t.c:1:52: error: neverc cannot compile a variably modified type whose size is not evaluated here yet (function 'g.1')\n",
        ),
        (
            "struct h { short b[1L << 61]; int a; };\nlong f(void) { return sizeof(struct h); }\n",
            "t.c:2:23: error: neverc cannot compile sizeof of structures or unions of 2^60 bytes or more yet (function 'f')\n",
        ),
    ];
    for (src, want) in cases {
        std::fs::write(d.join("t.c"), src).unwrap();
        let o = neverc_in(Some(&d), &["-c", "t.c", "-o", "t.o"], None);
        let first: String = o
            .stderr
            .lines()
            .take(want.lines().count())
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!((o.code, first.as_str()), (1, *want), "{src}");
    }
}

/// The function and object symbols an ELF64 object defines, `nm`-style ("t name" for a
/// local function, "T name" global, "d"/"D" for data), sorted by name.
fn defined_symbols(obj: &[u8]) -> Vec<String> {
    let u16_at = |o: usize| u16::from_le_bytes(obj[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(obj[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(obj[o..o + 8].try_into().unwrap()) as usize;
    assert_eq!(&obj[..5], b"\x7fELF\x02", "an ELF64 object");
    let (shoff, shentsize, shnum) = (u64_at(0x28), u16_at(0x3a), u16_at(0x3c));
    let section = |i: usize| shoff + i * shentsize;
    let symtab = (0..shnum)
        .map(section)
        .find(|&s| u32_at(s + 4) == 2)
        .expect("a symbol table");
    let strtab = section(u32_at(symtab + 0x28));
    let (str_off, sym_off, sym_size) = (
        u64_at(strtab + 0x18),
        u64_at(symtab + 0x18),
        u64_at(symtab + 0x20),
    );
    let mut out = Vec::new();
    for s in (sym_off..sym_off + sym_size).step_by(24) {
        let (info, shndx) = (obj[s + 4], u16_at(s + 6));
        let kind = match info & 0xf {
            1 => 'd',
            2 => 't',
            _ => continue,
        };
        if shndx == 0 {
            continue;
        }
        let name_at = str_off + u32_at(s);
        let len = obj[name_at..].iter().position(|&b| b == 0).unwrap();
        let name = String::from_utf8_lossy(&obj[name_at..name_at + len]);
        let letter = if info >> 4 == 0 {
            kind
        } else {
            kind.to_ascii_uppercase()
        };
        out.push(format!("{letter} {name}"));
    }
    out.sort_by(|a, b| a[2..].cmp(&b[2..]));
    out
}

#[test]
fn unreferenced_inline_functions_are_not_emitted_at_o0() {
    // As gcc: at -O0 an internal function nothing refers to is dropped when some
    // declaration of it says inline (before or after the definition), and kept otherwise
    // (with what it calls); from -O1 every unreferenced internal function goes, and so do
    // those whose every call was inlined.
    let d = temp_dir("inline-o0");
    std::fs::write(
        d.join("t.c"),
        "static inline int si_unused(void) { return 1; }\n\
         static int s_unused(void) { return 2; }\n\
         static inline int si_used(void) { return 3; }\n\
         static inline int si_addr(void) { return 4; }\n\
         static int (*const tab)(void) = si_addr;\n\
         static inline int si_from_si(void) { return 5; }\n\
         static inline int si_chain(void) { return si_from_si(); }\n\
         static inline int si_from_s(void) { return 6; }\n\
         static int s_calls(void) { return si_from_s(); }\n\
         static int later_inline(void);\n\
         static inline int later_inline(void) { return 7; }\n\
         static inline int decl_inline(void);\n\
         static int decl_inline(void) { return 8; }\n\
         int main(void) { return si_used(); }\n",
    )
    .unwrap();
    let cases: [(&str, &[&str]); 2] = [
        (
            "-O0",
            &[
                "T main",
                "t s_calls",
                "t s_unused",
                "t si_addr",
                "t si_from_s",
                "t si_used",
                "d tab",
            ],
        ),
        // si_used is inlined into main, and then nothing refers to it either.
        ("-O1", &["T main", "t si_addr", "d tab"]),
    ];
    for (opt, want) in cases {
        let o = neverc_in(Some(&d), &[opt, "-c", "t.c", "-o", "t.o"], None);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{opt}");
        let obj = std::fs::read(d.join("t.o")).unwrap();
        assert_eq!(defined_symbols(&obj), want, "{opt}");
    }
    // <sys/io.h>'s unused static inline functions hold port I/O asm: none is emitted.
    std::fs::write(
        d.join("io.c"),
        "#include <sys/io.h>\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let o = neverc_in(Some(&d), &["-O0", "-c", "io.c", "-o", "io.o"], None);
    assert_eq!((o.code, o.stderr.as_str()), (0, ""));
    let obj = std::fs::read(d.join("io.o")).unwrap();
    assert_eq!(defined_symbols(&obj), ["T main"]);
}

#[test]
fn warning_directive_in_system_header_is_shown_other_warnings_are_not() {
    let d = temp_dir("syswarn");
    std::fs::create_dir_all(d.join("sys")).unwrap();
    std::fs::write(
        d.join("sys/old.h"),
        "#warning \"old header\"\nint f(void) { int unused; return 0; }\n",
    )
    .unwrap();
    std::fs::write(d.join("m.c"), "#include <old.h>\n").unwrap();
    let o = neverc_in(
        Some(&d),
        &["-fsyntax-only", "-Wall", "-isystem", "sys", "m.c"],
        None,
    );
    assert_eq!(
        o.stderr,
        "In file included from m.c:1:\nsys/old.h:1:2: warning: #warning \"old header\" [-Wcpp]\n    1 | #warning \"old header\"\n      |  ^~~~~~~\n"
    );
    assert_eq!(o.code, 0);
}

#[test]
fn port_io_inline_asm_is_assembled() {
    // <sys/io.h>'s functions (compile only: port I/O needs privileges to run), and "Nd"
    // ports: a constant in 0..255 is an immediate, a larger one goes in %dx.
    let d = temp_dir("port-io");
    std::fs::write(
        d.join("t.c"),
        "#include <sys/io.h>\n\
         unsigned char rb(unsigned short p) { return inb(p); }\n\
         void wl(unsigned short p, unsigned v) { outl(v, p); }\n\
         void rs(unsigned short p, void *b, unsigned long n) { insw(p, b, n); }\n\
         unsigned char k80(void) { unsigned char v; asm volatile(\"inb %w1, %0\" : \"=a\"(v) : \"Nd\"(0x80)); return v; }\n\
         unsigned char k3f8(void) { unsigned char v; asm volatile(\"inb %w1, %0\" : \"=a\"(v) : \"Nd\"(0x3f8)); return v; }\n",
    )
    .unwrap();
    for opt in ["-O0", "-O1"] {
        let o = neverc_in(Some(&d), &[opt, "-c", "t.c", "-o", "t.o"], None);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{opt}");
        let o = neverc_in(Some(&d), &[opt, "-S", "t.c", "-o", "-"], None);
        assert_eq!((o.code, o.stderr.as_str()), (0, ""), "{opt}");
        for want in [
            "#APP\n\tinb %dx, %al\n#NO_APP\n",
            "#APP\n\toutl %eax, %dx\n#NO_APP\n",
            "#APP\n\tcld\n\trep; insw\n#NO_APP\n",
            "#APP\n\tinb $128, %al\n#NO_APP\n",
        ] {
            assert!(o.stdout.contains(want), "{opt}: {want}\n{}", o.stdout);
        }
        let k3f8 = asm_body(&o.stdout, "k3f8");
        assert!(
            k3f8.contains(&"movl $1016, %edx".to_string())
                && k3f8.contains(&"inb %dx, %al".to_string()),
            "{opt}: {k3f8:?}"
        );
    }
}

/// An assignment to a function, in a file-scope initialiser: sema's test of whether the
/// initialiser reads memory went round between "the address of a function" and "the value
/// of an assignment" for ever (a hang, found by scripts/fuzz-robustness.py). It ends, with
/// gcc's error first.
#[test]
fn assignment_to_a_function_in_an_initializer_ends() {
    let d = temp_dir("assign-fn-init");
    let src = d.join("t.c");
    std::fs::write(&src, "int getval (void);\nint a = getval = getval ();\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_neverc"))
        .args(["-fsyntax-only", src.to_str().unwrap()])
        .current_dir(&d)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("neverc runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("neverc -fsyntax-only hangs on an assignment to a function");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first = stderr.lines().next().unwrap_or("");
    assert!(
        first.ends_with("t.c:2:16: error: lvalue required as left operand of assignment"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
}
