//! Custom calling conventions under random specs (issue 6): 1,000 functions, each with a
//! spec drawn at random (pool or positional, registers of both classes, `stack` tokens,
//! wrong-class and repeated entries, `rsp`, result lists, `csr:` sets of general and xmm registers, random spelling) and
//! a random signature, defined in four files and called from a fifth, then called again
//! through pointers by a file gcc compiles. Every callee prints the arguments it received
//! and every caller the result it got back. gcc, which ignores `custom_attr`, compiles the
//! same sources with the standard convention throughout: its program's output is the
//! expected one, line for line.
//!
//! The same on AArch64 (issue 7): 250 functions (`NEVERC_CC_RANDOM_FUNCTIONS=N` for more)
//! with specs of `x`/`v` registers (the reserved and IP registers among them), compiled
//! with `--target=aarch64-linux-gnu`; `aarch64-linux-gnu-gcc` compiles the reference and
//! the pointer caller, and both programs run under `qemu-aarch64`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const FUNCTIONS: usize = 1000;
const FUNCTIONS_AARCH64: usize = 250;
const FILES: usize = 4;

/// The registers random specs draw from on one architecture.
struct Regs {
    /// General registers, with some a spec may name but that cannot carry values.
    gprs: &'static [&'static str],
    /// Vector registers: this prefix and a number below `nvec`.
    vec: &'static str,
    nvec: usize,
    csr: &'static [&'static str],
}

const X86_64: Regs = Regs {
    gprs: &GPRS,
    vec: "xmm",
    nvec: 16,
    csr: &[
        "rbx", "r12", "r13", "r14", "r15", "rdi", "rsi", "r8", "r11", "rcx", "xmm6", "xmm15",
    ],
};

const AARCH64: Regs = Regs {
    gprs: &[
        "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
        "x14", "x15", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28",
        "sp", "x29", "x30", "x16", "x17",
    ],
    vec: "v",
    nvec: 32,
    csr: &[
        "x19", "x20", "x28", "x9", "x10", "x0", "x18", "x3", "v8", "v15", "v16", "v31", "v0",
    ],
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// A C type of the test and how to make, print and fold a value of it.
#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Char,
    UChar,
    Short,
    Int,
    UInt,
    Long,
    Float,
    Double,
    LongDouble,
    Ptr,
    /// struct s2 { int a, b; }
    S2,
    /// struct sf { float x, y; }
    Sf,
    /// struct sd { double d; long l; }
    Sd,
    /// struct sb { long a, b, c; }
    Sb,
}
use Ty::*;

const ARG_TYPES: [Ty; 14] = [
    Char, UChar, Short, Int, UInt, Long, Float, Double, LongDouble, Ptr, S2, Sf, Sd, Sb,
];
const RET_TYPES: [Option<Ty>; 9] = [
    None,
    Some(Char),
    Some(Int),
    Some(Long),
    Some(Double),
    Some(Float),
    Some(S2),
    Some(Sd),
    Some(Sb),
];

fn c_name(t: Ty) -> &'static str {
    match t {
        Char => "signed char",
        UChar => "unsigned char",
        Short => "short",
        Int => "int",
        UInt => "unsigned",
        Long => "long",
        Float => "float",
        Double => "double",
        LongDouble => "long double",
        Ptr => "const long *",
        S2 => "struct s2",
        Sf => "struct sf",
        Sd => "struct sd",
        Sb => "struct sb",
    }
}

/// A random constant of the type, as C source.
fn value(t: Ty, r: &mut Rng) -> String {
    let i = |r: &mut Rng, m: i64| (r.next() % (2 * m as u64)) as i64 - m;
    match t {
        Char => format!("{}", i(r, 128)),
        UChar => format!("{}", r.below(256)),
        Short => format!("{}", i(r, 32768)),
        Int => format!("{}", i(r, 1 << 31)),
        UInt => format!("{}u", r.next() as u32),
        Long => format!("{}L", i(r, 1 << 62)),
        Float => format!("{}.{}f", i(r, 1000), r.below(100)),
        Double => format!("{}.{}", i(r, 1 << 40), r.below(1000)),
        LongDouble => format!("{}.{}L", i(r, 1 << 50), r.below(1000)),
        Ptr => format!("&pool[{}]", r.below(16)),
        S2 => format!("(struct s2){{ {}, {} }}", i(r, 1 << 31), i(r, 1 << 31)),
        Sf => format!("(struct sf){{ {}.5f, {}.25f }}", i(r, 1000), i(r, 1000)),
        Sd => format!("(struct sd){{ {}.125, {}L }}", i(r, 1 << 30), i(r, 1 << 62)),
        Sb => format!(
            "(struct sb){{ {}L, {}L, {}L }}",
            i(r, 1 << 62),
            i(r, 1 << 62),
            i(r, 1 << 62)
        ),
    }
}

/// printf format and arguments printing `x` of type `t` exactly.
fn print_of(t: Ty, x: &str) -> (String, String) {
    match t {
        Char | Short | Int => ("%d".into(), format!("(int){x}")),
        UChar | UInt => ("%u".into(), format!("(unsigned){x}")),
        Long => ("%ld".into(), x.into()),
        Float | Double => ("%a".into(), format!("(double){x}")),
        LongDouble => ("%La".into(), x.into()),
        Ptr => ("%ld".into(), format!("(long)(*{x})")),
        S2 => ("%d,%d".into(), format!("{x}.a, {x}.b")),
        Sf => ("%a,%a".into(), format!("(double){x}.x, (double){x}.y")),
        Sd => ("%a,%ld".into(), format!("{x}.d, {x}.l")),
        Sb => ("%ld,%ld,%ld".into(), format!("{x}.a, {x}.b, {x}.c")),
    }
}

/// A C expression folding `x` into the long `acc`.
fn fold(t: Ty, x: &str) -> String {
    match t {
        Float | Double | LongDouble => format!("acc = acc * 31 + (long)({x} * 4);"),
        Ptr => format!("acc = acc * 31 + *{x};"),
        S2 => format!("acc = acc * 31 + {x}.a - {x}.b;"),
        Sf => format!("acc = acc * 31 + (long)({x}.x * 2 + {x}.y);"),
        Sd => format!("acc = acc * 31 + (long){x}.d + {x}.l;"),
        Sb => format!("acc = acc * 31 + {x}.a + {x}.b * 3 + {x}.c * 7;"),
        _ => format!("acc = acc * 31 + (long){x};"),
    }
}

fn ret_expr(t: Ty) -> String {
    match t {
        Char => "(signed char)acc".into(),
        Int => "(int)acc".into(),
        Long => "acc".into(),
        Double => "(double)(acc % 1000000) / 8".into(),
        Float => "(float)(acc % 10000) / 4".into(),
        S2 => "(struct s2){ (int)acc, (int)(acc >> 32) }".into(),
        Sd => "(struct sd){ (double)(acc % 100000) / 2, acc }".into(),
        Sb => "(struct sb){ acc, acc ^ 0x5555, acc * 3 }".into(),
        _ => unreachable!(),
    }
}

const GPRS: [&str; 15] = [
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "rsp",
];

/// Random case and blanks, which the parser must not care about.
fn spell(s: &str, r: &mut Rng) -> String {
    let mut out = String::new();
    if r.below(4) == 0 {
        out.push(' ');
    }
    for c in s.chars() {
        out.push(if r.below(5) == 0 {
            c.to_ascii_uppercase()
        } else {
            c
        });
    }
    if r.below(4) == 0 {
        out.push_str(" \t");
    }
    out
}

fn reg_list(r: &mut Rng, pool: &[&str], max: usize) -> Vec<String> {
    (0..r.below(max + 1))
        .map(|_| r.pick(pool).to_string())
        .collect()
}

fn vreg(r: &mut Rng, regs: &Regs) -> String {
    format!("{}{}", regs.vec, r.below(regs.nvec))
}

/// A random spec: pool or positional mode, every kind of entry the rules speak of.
fn random_spec(r: &mut Rng, nargs: usize, regs: &Regs) -> String {
    let xmm = |r: &mut Rng| vreg(r, regs);
    let mut segs: Vec<(String, Vec<String>)> = Vec::new();
    if r.below(3) == 0 {
        let toks = (0..nargs + r.below(3))
            .map(|_| match r.below(10) {
                0 => "stack".to_string(),
                1 => "mem".to_string(),
                2..=4 => xmm(r),
                _ => r.pick(regs.gprs).to_string(),
            })
            .collect::<Vec<_>>();
        let toks = toks[..r.below(toks.len() + 1)].to_vec();
        segs.push(("args".into(), toks));
    }
    if r.below(4) != 0 {
        let key = *r.pick(&["gpr", "arg_gpr"]);
        let mut l = reg_list(r, regs.gprs, 7);
        if r.below(8) == 0 {
            l.push(xmm(r)); // a wrong-class entry
        }
        segs.push((key.into(), l));
    }
    if r.below(2) == 0 {
        let key = *r.pick(&["xmm", "arg_xmm", "fpr"]);
        let l = (0..r.below(6)).map(|_| xmm(r)).collect();
        segs.push((key.into(), l));
    }
    if r.below(2) == 0 {
        let key = *r.pick(&["ret", "ret_gpr"]);
        let l = reg_list(r, regs.gprs, 2);
        segs.push((key.into(), l));
    }
    if r.below(3) == 0 {
        let key = *r.pick(&["ret_xmm", "ret_fpr"]);
        let l = (0..1 + r.below(2)).map(|_| xmm(r)).collect();
        segs.push((key.into(), l));
    }
    if r.below(3) == 0 {
        segs.push(("csr".into(), reg_list(r, regs.csr, 5)));
    }
    if r.below(10) == 0 {
        segs.push(("future_thing".into(), vec!["r9".into()]));
    }
    let parts: Vec<String> = segs
        .iter()
        .map(|(k, l)| {
            let toks: Vec<String> = l.iter().map(|t| spell(t, r)).collect();
            format!("{}:{}", spell(k, r), toks.join(","))
        })
        .collect();
    parts.join(";")
}

struct Func {
    name: String,
    ret: Option<Ty>,
    params: Vec<Ty>,
    spec: String,
}

impl Func {
    fn proto(&self, name: &str) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{} a{i}", c_name(*t)))
            .collect();
        let params = if params.is_empty() {
            "void".into()
        } else {
            params.join(", ")
        };
        format!("{} {name}({params})", self.ret.map_or("void", c_name))
    }
    fn ptr_type(&self) -> String {
        let params: Vec<&str> = self.params.iter().map(|t| c_name(*t)).collect();
        let params = if params.is_empty() {
            "void".into()
        } else {
            params.join(", ")
        };
        format!("{} (*)({params})", self.ret.map_or("void", c_name))
    }
}

const PRELUDE: &str = "#include <stdio.h>\n\
struct s2 { int a, b; };\nstruct sf { float x, y; };\n\
struct sd { double d; long l; };\nstruct sb { long a, b, c; };\n\
extern const long pool[16];\n";

fn generate(seed: u64, n: usize, regs: &Regs) -> (Vec<Func>, Vec<(String, String)>, String) {
    let mut r = Rng(seed);
    let funcs: Vec<Func> = (0..n)
        .map(|k| {
            let n = r.below(9);
            let params = (0..n).map(|_| *r.pick(&ARG_TYPES)).collect();
            Func {
                name: format!("f{k}"),
                ret: *r.pick(&RET_TYPES),
                params,
                spec: random_spec(&mut r, n, regs),
            }
        })
        .collect();
    let mut files = Vec::new();
    // Callees.
    for file in 0..FILES {
        let mut s = String::from("#include \"cc.h\"\n");
        if file == 0 {
            s.push_str("const long pool[16] = { 3, -5, 7, 1L << 40, -9, 11, 13, -17, 19, 23, 29, 31, 37, 41, 43, 47 };\n");
        }
        for f in funcs.iter().skip(file).step_by(FILES) {
            writeln!(s, "{} {{", f.proto(&f.name)).unwrap();
            let (mut fmt, mut args) = (format!("{} <-", f.name), String::new());
            for (i, t) in f.params.iter().enumerate() {
                let (pf, pa) = print_of(*t, &format!("a{i}"));
                fmt.push(' ');
                fmt.push_str(&pf);
                args.push_str(", ");
                args.push_str(&pa);
            }
            writeln!(s, "    printf(\"{fmt}\\n\"{args});").unwrap();
            writeln!(s, "    long acc = {};", f.name[1..].parse::<u64>().unwrap()).unwrap();
            for (i, t) in f.params.iter().enumerate() {
                writeln!(s, "    {}", fold(*t, &format!("a{i}"))).unwrap();
            }
            match f.ret {
                None => writeln!(s, "    (void)acc;").unwrap(),
                Some(t) => writeln!(s, "    return {};", ret_expr(t)).unwrap(),
            }
            s.push_str("}\n");
        }
        files.push((format!("callee{file}.c"), s));
    }
    // The caller: every function called directly with random values, its result printed;
    // and the table of their addresses for the gcc-compiled caller.
    let mut calls = Vec::new();
    let mut main = String::from("#include \"cc.h\"\nvoid through_pointers(void *const *table);\n");
    let mut table = String::from("void *const table[] = {\n");
    main.push_str("extern void *const table[];\nint main(void) {\n");
    for f in &funcs {
        let args: Vec<String> = f.params.iter().map(|t| value(*t, &mut r)).collect();
        let call = format!("{}({})", f.name, args.join(", "));
        match f.ret {
            None => writeln!(main, "    {call};").unwrap(),
            Some(t) => {
                writeln!(main, "    {{ {} r = {call};", c_name(t)).unwrap();
                let (pf, pa) = print_of(t, "r");
                writeln!(main, "      printf(\"{} -> {pf}\\n\", {pa}); }}", f.name).unwrap();
            }
        }
        writeln!(table, "    (void *){},", f.name).unwrap();
        calls.push(args);
    }
    main.push_str("    through_pointers(table);\n    return 0;\n}\n");
    table.push_str("};\n");
    main.push_str(&table);
    files.push(("main.c".into(), main));
    // gcc's file: the same calls through the pointers.
    let mut g = String::from(PRELUDE);
    g.push_str("void through_pointers(void *const *table) {\n");
    for (k, (f, args)) in funcs.iter().zip(&calls).enumerate() {
        let call = format!("(({}) table[{k}])({})", f.ptr_type(), args.join(", "));
        match f.ret {
            None => writeln!(g, "    {call};").unwrap(),
            Some(t) => {
                writeln!(g, "    {{ {} r = {call};", c_name(t)).unwrap();
                let (pf, pa) = print_of(t, "r");
                writeln!(g, "      printf(\"*{} -> {pf}\\n\", {pa}); }}", f.name).unwrap();
            }
        }
    }
    g.push_str("}\n");
    // The header every neverc-compiled file includes: each function with its spec.
    let header_text = {
        let mut h = String::from(PRELUDE);
        for f in &funcs {
            writeln!(
                h,
                "__attribute__((custom_attr(\"neverc-callconv\", \"{}\"))) {};",
                f.spec,
                f.proto(&f.name)
            )
            .unwrap();
        }
        h
    };
    files.push(("cc.h".into(), header_text));
    (funcs, files, g)
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn sh(dir: &Path, prog: &str, args: &[&str]) -> String {
    let o = Command::new(prog)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{prog} {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// How one architecture's programs are built and run.
struct Toolchain {
    /// Arguments neverc gets before the files.
    neverc: &'static [&'static str],
    /// The reference compiler, which also compiles the pointer caller.
    cc: &'static str,
    cc_args: &'static [&'static str],
    /// The program runs under this (with these arguments), or natively.
    runner: Option<(&'static str, &'static [&'static str])>,
}

fn run_prog(dir: &Path, t: &Toolchain, prog: &str) -> String {
    let path = dir.join(prog).to_string_lossy().into_owned();
    match t.runner {
        None => sh(dir, &path, &[]),
        Some((r, args)) => {
            let mut a: Vec<&str> = args.to_vec();
            a.push(&path);
            sh(dir, r, &a)
        }
    }
}

fn random_specs(tag: &str, n: usize, regs: &Regs, t: &Toolchain) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("neverc-cc-random-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (funcs, files, gcc_file) = generate(0x6e65_7665_7263, n, regs);
    assert_eq!(funcs.len(), n);
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::write(dir.join("gcccall.c"), &gcc_file).unwrap();
    let c_files: Vec<&str> = files
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.ends_with(".c"))
        .collect();
    // The reference: gcc alone, standard convention everywhere.
    let mut args: Vec<&str> = t.cc_args.to_vec();
    args.extend(["-w", "-O1", "-o", "ref"]);
    args.extend(&c_files);
    args.push("gcccall.c");
    sh(&dir, t.cc, &args);
    let expected = run_prog(&dir, t, "ref");
    assert_eq!(
        expected.lines().count(),
        n * 2 + funcs.iter().filter(|f| f.ret.is_some()).count() * 2
    );
    // neverc for every file but gcc's.
    let mut args: Vec<&str> = t.cc_args.to_vec();
    args.extend(["-O1", "-c", "gcccall.c", "-o", "gcccall.o"]);
    sh(&dir, t.cc, &args);
    for opt in ["-O0", "-O1"] {
        let mut args: Vec<&str> = t.neverc.to_vec();
        args.extend([opt, "-o", "prog"]);
        args.extend(&c_files);
        args.push("gcccall.o");
        let o = Command::new(env!("CARGO_BIN_EXE_neverc"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success(),
            "{opt}: {}",
            &stderr[..stderr.len().min(4000)]
        );
        let got = run_prog(&dir, t, "prog");
        for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            if g != e {
                let f = e.split_whitespace().next().unwrap().trim_start_matches('*');
                let spec = funcs.iter().find(|x| x.name == f).map(|x| x.spec.as_str());
                panic!("{opt}: line {i}: got\n  {g}\nexpected\n  {e}\nspec {spec:?}");
            }
        }
        assert_eq!(got.lines().count(), expected.lines().count(), "{opt}");
    }
    if std::env::var_os("NEVERC_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_thousand_random_specs_across_files_and_through_gcc_pointers() {
    if !have("gcc") {
        eprintln!("skipped: gcc is not installed (it compiles the reference program)");
        return;
    }
    let t = Toolchain {
        neverc: &[],
        cc: "gcc",
        cc_args: &[],
        runner: None,
    };
    random_specs("x86_64", FUNCTIONS, &X86_64, &t);
}

#[test]
fn random_specs_on_aarch64_across_files_and_through_gcc_pointers() {
    if !have("aarch64-linux-gnu-gcc") || !have("qemu-aarch64") {
        eprintln!(
            "skipped: aarch64-linux-gnu-gcc or qemu-aarch64 is not installed (scripts/setup.sh installs them)"
        );
        return;
    }
    let n = std::env::var("NEVERC_CC_RANDOM_FUNCTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FUNCTIONS_AARCH64);
    let t = Toolchain {
        neverc: &["--target=aarch64-linux-gnu"],
        cc: "aarch64-linux-gnu-gcc",
        // No fused multiply-adds: neverc makes none, and the values must agree exactly.
        cc_args: &["-ffp-contract=off"],
        runner: Some(("qemu-aarch64", &["-L", "/usr/aarch64-linux-gnu"])),
    };
    random_specs("aarch64", n, &AARCH64, &t);
}
