//! Shared harness of the back end's execution tests (included by the other `backend_*`
//! files with `#[path]`): plans for x86_64-linux-gnu, function building, and `run`, which
//! compiles at -O0 and -O1 with regalloc2's checker, checks that the `-S` text assembles to
//! the object's `.text`, links with a C driver, runs and compares stdout.
#![allow(dead_code)]

pub use neverc_abi::{plan_call, FloatKind, IntKind, Signature, Type as C};
use neverc_ir::*;
pub use neverc_isa_x86_64::backend::{compile_module_checked, Options, Pic};
use std::path::PathBuf;
use std::process::Command;

pub fn machine() -> neverc_abi::Machine {
    neverc_abi::Machine::from(neverc_target::lookup("x86_64-linux-gnu").unwrap())
}

pub fn plan(ret: C, params: Vec<C>) -> CallPlan {
    plan_call(machine(), &Signature::new(ret, params)).unwrap()
}

pub fn vplan(ret: C, params: Vec<C>, named: usize) -> CallPlan {
    plan_call(machine(), &Signature::variadic(ret, params, named)).unwrap()
}

pub fn int() -> C {
    C::Int(IntKind::Int)
}
pub fn long() -> C {
    C::Int(IntKind::Long)
}
pub fn ulong() -> C {
    C::Int(IntKind::ULong)
}
pub fn double() -> C {
    C::Float(FloatKind::Double)
}

pub fn tool_ok(t: &str) -> bool {
    Command::new(t).arg("--version").output().is_ok()
}

pub fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("neverc-be-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The bytes of every executable section of an object, by name.
pub fn text_bytes(
    dir: &std::path::Path,
    obj: &std::path::Path,
    tag: &str,
) -> Vec<(String, Vec<u8>)> {
    let out = Command::new("readelf")
        .arg("-SW")
        .arg(obj)
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&out.stdout).to_string();
    let mut names = Vec::new();
    for line in listing.lines() {
        // "  [ 1] .text   PROGBITS  0000.. off size es Flg Lk Inf Al"
        let Some(rest) = line.trim_start().strip_prefix('[') else {
            continue;
        };
        let Some((_, rest)) = rest.split_once(']') else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() >= 7 && f[1] == "PROGBITS" && f[6].contains('X') {
            names.push(f[0].to_string());
        }
    }
    names.sort();
    let mut v = Vec::new();
    for (i, n) in names.into_iter().enumerate() {
        let bin = dir.join(format!("{tag}{i}.bin"));
        let st = Command::new("objcopy")
            .args(["-O", "binary", &format!("--only-section={n}")])
            .arg(obj)
            .arg(&bin)
            .status()
            .unwrap();
        assert!(st.success());
        let bytes = std::fs::read(bin).unwrap();
        // gas always makes a .text, empty when everything went elsewhere.
        if !bytes.is_empty() {
            v.push((n, bytes));
        }
    }
    v
}

/// Compiles `m` at -O0 and -O1, links each with `driver` (C), runs, compares stdout.
pub fn run(name: &str, m: &Module, driver: &str, expected: &str) {
    run_with(name, m, driver, expected, Pic::Pie, &[])
}

pub fn run_with(name: &str, m: &Module, driver: &str, expected: &str, pic: Pic, cflags: &[&str]) {
    run_opts(name, m, driver, expected, pic, cflags, &|o| o)
}

/// `run_with` with the back-end options adjusted by `adjust`.
pub fn run_opts(
    name: &str,
    m: &Module,
    driver: &str,
    expected: &str,
    pic: Pic,
    cflags: &[&str],
    adjust: &dyn Fn(Options) -> Options,
) {
    if !tool_ok("cc") || !tool_ok("as") {
        eprintln!("skipped: cc or as missing");
        return;
    }
    for opt in [0u8, 1] {
        let dir = tmpdir(&format!("{name}-O{opt}"));
        let opts = adjust(Options {
            opt_level: opt,
            pic,
            ..Options::default()
        });
        let c = compile_module_checked(m, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let obj = dir.join("t.o");
        std::fs::write(&obj, &c.object).unwrap();
        std::fs::write(dir.join("t.s"), &c.asm).unwrap();
        // -S round trip.
        let st = Command::new("as")
            .arg(dir.join("t.s"))
            .arg("-o")
            .arg(dir.join("s.o"))
            .status()
            .unwrap();
        assert!(
            st.success(),
            "{name}: as rejected {}",
            dir.join("t.s").display()
        );
        assert!(
            text_bytes(&dir, &obj, "o") == text_bytes(&dir, &dir.join("s.o"), "s"),
            "{name} -O{opt}: .text of the object and of the assembled text differ ({})",
            dir.display()
        );
        std::fs::write(dir.join("main.c"), driver).unwrap();
        let exe = dir.join("t");
        let mut cc = Command::new("cc");
        cc.args(["-w", "-o"]).arg(&exe).arg(dir.join("main.c"));
        if pic == Pic::Pic {
            let so = dir.join("libt.so");
            let st = Command::new("cc")
                .args(["-shared", "-o"])
                .arg(&so)
                .arg(&obj)
                .status()
                .unwrap();
            assert!(st.success(), "{name}: -shared link failed");
            cc.arg(&so).arg(format!("-Wl,-rpath,{}", dir.display()));
        } else {
            cc.arg(&obj);
        }
        cc.args(cflags).arg("-lm");
        let o = cc.output().unwrap();
        assert!(
            o.status.success(),
            "{name}: link failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = Command::new(&exe).output().unwrap();
        let got = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{name} -O{opt}: exit {:?}\n{got}\n{}",
            o.status,
            dir.display()
        );
        assert_eq!(got, expected, "{name} -O{opt} ({})", dir.display());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

pub fn define(m: &mut Module, name: &str, kind: SymKind) -> Sym {
    let s = m.symbol(name, kind);
    m.symbols[s.index()].defined = true;
    s
}

/// A function `ret name(params)` with body built by `body(builder, params)`.
pub fn func(
    m: &mut Module,
    name: &str,
    p: CallPlan,
    tys: &[Type],
    body: impl FnOnce(&mut FunctionBuilder, &mut Module, Vec<Value>),
) {
    func_ex(m, name, p, tys, false, &[], body)
}

/// As `func`, for a variadic function and with entry parameters that are incoming memory.
pub fn func_ex(
    m: &mut Module,
    name: &str,
    p: CallPlan,
    tys: &[Type],
    variadic: bool,
    param_mem: &[u32],
    body: impl FnOnce(&mut FunctionBuilder, &mut Module, Vec<Value>),
) {
    let sym = define(m, name, SymKind::Func);
    let mut b = FunctionBuilder::new(sym, p, variadic);
    b.func.param_mem = param_mem.to_vec();
    let params: Vec<Value> = tys.iter().map(|&t| b.add_param(Block(0), t)).collect();
    body(&mut b, m, params);
    let f = b.finish();
    verify(&f).unwrap_or_else(|e| panic!("{name}: {e}"));
    m.functions.push(f);
}

pub fn ret(b: &mut FunctionBuilder, v: Value) {
    b.push(Op::Return(vec![v]), None);
}
