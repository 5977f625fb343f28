//! Win64 plans against clang, which is the reference compiler there (nothing here runs
//! Windows code): generated callers `void callK(void) { (void)fK(gK_0, gK_1, ...); }`, each
//! argument an `extern` global of its own, are compiled with
//! `clang --target=x86_64-pc-windows-msvc -O1 -S`, and a small interpreter follows the
//! caller's moves up to the call to learn what each argument register and outgoing stack
//! slot holds: a value loaded from a global (`gK_I`), or the address of a stack temporary
//! (a by-reference copy or the result buffer). Every location of the plan is checked: a
//! by-value piece must hold its own argument's global, a by-reference one (and the sret
//! pointer) a stack address. Results the other way: `RK getK(void) { return hK; }`, whose
//! return registers must hold `hK` as the plan's pieces say.
//!
//! Skipped with a message when clang is missing. 300 signatures by default,
//! `NEVERC_ABI_CASES` overrides, `NEVERC_ABI_SEED` changes the seed.

mod common;

use common::gen::{Features, Gen, Rng};
use common::machines::machine;
use neverc_abi::{plan_call, CallPlan, Flags, IntKind, Place, Signature, Type};
use std::collections::HashMap;
use std::fmt::Write;
use std::process::Command;

/// What a register or stack slot holds just before the call.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    /// Loaded from this global at this byte offset.
    Global(String, i64),
    /// The address of a stack temporary.
    StackAddr,
    Unknown,
}

/// The 64-bit name of a general register, or the `xmmN` name.
fn canon(reg: &str) -> Option<&'static str> {
    const GPRS: [[&str; 4]; 16] = [
        ["rax", "eax", "ax", "al"],
        ["rbx", "ebx", "bx", "bl"],
        ["rcx", "ecx", "cx", "cl"],
        ["rdx", "edx", "dx", "dl"],
        ["rsi", "esi", "si", "sil"],
        ["rdi", "edi", "di", "dil"],
        ["rbp", "ebp", "bp", "bpl"],
        ["rsp", "esp", "sp", "spl"],
        ["r8", "r8d", "r8w", "r8b"],
        ["r9", "r9d", "r9w", "r9b"],
        ["r10", "r10d", "r10w", "r10b"],
        ["r11", "r11d", "r11w", "r11b"],
        ["r12", "r12d", "r12w", "r12b"],
        ["r13", "r13d", "r13w", "r13b"],
        ["r14", "r14d", "r14w", "r14b"],
        ["r15", "r15d", "r15w", "r15b"],
    ];
    const XMMS: [&str; 16] = [
        "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
    ];
    let r = reg.strip_prefix('%')?;
    GPRS.iter()
        .find(|names| names.contains(&r))
        .map(|names| names[0])
        .or_else(|| XMMS.iter().find(|x| **x == r).copied())
}

/// The schema name of a Win64 plan register.
fn plan_reg(r: u16) -> &'static str {
    match r {
        0 => "rax",
        2 => "rcx",
        1 => "rdx",
        8 => "r8",
        9 => "r9",
        17..=32 => ["xmm0", "xmm1", "xmm2", "xmm3"][(r - 17).min(3) as usize],
        _ => "?",
    }
}

/// Splits AT&T operands at top-level commas.
fn operands(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// `N(%rsp)` → N.
fn stack_slot(op: &str) -> Option<i64> {
    let n = op.strip_suffix("(%rsp)")?;
    if n.is_empty() {
        Some(0)
    } else {
        n.parse().ok()
    }
}

/// `name+off(%rip)` → (name, off).
fn global(op: &str) -> Option<(String, i64)> {
    let e = op.strip_suffix("(%rip)")?;
    match e.split_once('+') {
        Some((n, o)) => Some((n.to_string(), o.parse().ok()?)),
        None => Some((e.to_string(), 0)),
    }
}

/// What the registers (by 64-bit name) and the outgoing stack slots (by offset) hold.
type State = (HashMap<&'static str, Val>, HashMap<i64, Val>);

/// Registers and outgoing stack slots at the call to `callee` in `body`, or at its
/// return when `callee` is empty.
fn state_at_call(body: &[&str], callee: &str) -> Option<State> {
    let mut regs: HashMap<&'static str, Val> = HashMap::new();
    let mut stack: HashMap<i64, Val> = HashMap::new();
    for line in body {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() || line.starts_with('.') || line.ends_with(':') {
            continue;
        }
        let (mn, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let ops = operands(rest);
        if callee.is_empty() && mn.starts_with("ret") {
            return Some((regs, stack));
        }
        if mn.starts_with("call") {
            if ops.first().map(String::as_str) == Some(callee) {
                return Some((regs, stack));
            }
            for r in ["rax", "rcx", "rdx", "r8", "r9", "r10", "r11"] {
                regs.insert(r, Val::Unknown);
            }
            continue;
        }
        let [src, dst] = ops.as_slice() else {
            // One-operand or other forms: whatever register they write is unknown.
            if let Some(r) = ops.last().and_then(|o| canon(o)) {
                regs.insert(r, Val::Unknown);
            }
            continue;
        };
        let is_move = mn.starts_with("mov") || mn.starts_with("vmov");
        let value = if mn.starts_with("lea") {
            if src.ends_with("(%rsp)") {
                Val::StackAddr
            } else {
                Val::Unknown
            }
        } else if !is_move {
            Val::Unknown
        } else if let Some((n, o)) = global(src) {
            Val::Global(n, o)
        } else if let Some(r) = canon(src) {
            regs.get(r).cloned().unwrap_or(Val::Unknown)
        } else if let Some(o) = stack_slot(src) {
            stack.get(&o).cloned().unwrap_or(Val::Unknown)
        } else {
            Val::Unknown
        };
        if let Some(r) = canon(dst) {
            regs.insert(r, value);
        } else if let Some(o) = stack_slot(dst) {
            stack.insert(o, value);
        }
    }
    None
}

fn body<'a>(asm: &'a str, label: &str) -> Result<Vec<&'a str>, String> {
    let start = asm
        .lines()
        .position(|l| l.starts_with(label))
        .ok_or(format!("no {label} in the assembly"))?;
    Ok(asm
        .lines()
        .skip(start + 1)
        .take_while(|l| !l.contains(".seh_endproc"))
        .collect())
}

/// The result: `getK` returns the global `hK`; each register piece of the plan must hold
/// it (memory results are checked at the caller, as the sret pointer).
fn check_result(k: usize, plan: &CallPlan, asm: &str) -> Result<bool, String> {
    let pieces: Vec<_> = plan
        .returns
        .iter()
        .filter(|l| !l.flags.contains(Flags::SRET) && !l.flags.contains(Flags::SRET_OUT))
        .collect();
    if pieces.is_empty() {
        return Ok(false);
    }
    let (regs, _) = state_at_call(&body(asm, &format!("get{k}:"))?, "")
        .ok_or(format!("no return in get{k}"))?;
    for l in pieces {
        let Place::Reg(r) = l.place else {
            return Err(format!("result piece {l} on the stack"));
        };
        let want = Val::Global(format!("h{k}"), l.offset as i64);
        let got = regs.get(plan_reg(r)).cloned().unwrap_or(Val::Unknown);
        if got != want {
            return Err(format!(
                "result piece {l}: {} holds {got:?}, plan expects {want:?}",
                plan_reg(r)
            ));
        }
    }
    Ok(true)
}

fn check_case(k: usize, plan: &CallPlan, sig: &Signature, asm: &str) -> Result<usize, String> {
    let body = body(asm, &format!("call{k}:"))?;
    let (regs, stack) =
        state_at_call(&body, &format!("f{k}")).ok_or(format!("no call to f{k} in call{k}"))?;
    let at = |place: Place| match place {
        Place::Reg(r) => regs.get(plan_reg(r)).cloned().unwrap_or(Val::Unknown),
        Place::Stack(o) => stack.get(&(o as i64)).cloned().unwrap_or(Val::Unknown),
    };
    let show = |place: Place| match place {
        Place::Reg(r) => plan_reg(r).to_string(),
        Place::Stack(o) => format!("{o}(%rsp)"),
    };
    let mut checked = 0;
    for l in &plan.returns {
        if l.flags.contains(Flags::SRET) && at(l.place) != Val::StackAddr {
            return Err(format!(
                "sret pointer: {} holds {:?}",
                show(l.place),
                at(l.place)
            ));
        }
    }
    for l in &plan.arguments {
        let v = l.value as usize;
        let want = if l.flags.contains(Flags::BYREF) {
            Val::StackAddr
        } else {
            Val::Global(format!("g{k}_{v}"), l.offset as i64)
        };
        let got = at(l.place);
        if got != want {
            return Err(format!(
                "argument {v} ({:?}) piece {l}: {} holds {got:?}, plan expects {want:?}",
                sig.params[v],
                show(l.place)
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

fn win64(count: usize, seed: u64) -> Result<(usize, usize, usize), String> {
    let triple = "x86_64-pc-windows-msvc";
    let m = machine(triple);
    let mut rng = Rng(seed ^ neverc_abi::plan::fnv1a64(triple.as_bytes()));
    // What the layout tests check against clang's Microsoft layout.
    let mut gen = Gen::new(
        m,
        Features {
            int128: true,
            float16: false,
            empty_records: false,
            attributes: false,
            bitfields: false,
            vectors: true,
            long_double: true,
        },
    );
    let mut cases = Vec::new();
    let mut c = String::new();
    while cases.len() < count {
        let max = if rng.chance(20) { 12 } else { 6 };
        let n = 1 + rng.below(max) as usize;
        let variadic = rng
            .chance(20)
            .then(|| 1 + rng.below(n as u64) as usize)
            .filter(|&k| k < n);
        let (mut params, mut c_types) = (Vec::new(), Vec::new());
        for i in 0..n {
            let (t, ct) = if variadic.is_some_and(|k| i >= k) {
                let choices = [
                    (Type::int(), "int"),
                    (Type::Int(IntKind::LongLong), "long long"),
                    (Type::double(), "double"),
                    (Type::Pointer, "void *"),
                    (Type::long_double(), "long double"),
                ];
                let (t, ct) = rng.pick(&choices).clone();
                (t, ct.to_string())
            } else if rng.chance(40) {
                let (t, name) = gen.record(&mut rng, 1, false);
                (t, gen.tag(&name))
            } else {
                gen.scalar(&mut rng)
            };
            params.push(t);
            c_types.push(ct);
        }
        let (ret, c_ret) = match rng.below(10) {
            0..=2 => (Type::Void, "void".to_string()),
            3..=6 => {
                let (t, name) = gen.record(&mut rng, 1, false);
                (t, gen.tag(&name))
            }
            _ => gen.scalar(&mut rng),
        };
        let sig = Signature {
            ret,
            params,
            variadic,
        };
        let Ok(plan) = plan_call(m, &sig) else {
            continue;
        };
        let k = cases.len();
        for (i, t) in c_types.iter().enumerate() {
            let _ = writeln!(c, "extern {t} g{k}_{i};");
        }
        let named = variadic.unwrap_or(n);
        let mut proto = c_types[..named].join(", ");
        if variadic.is_some() {
            proto += ", ...";
        }
        let args: Vec<String> = (0..n).map(|i| format!("g{k}_{i}")).collect();
        let _ = writeln!(
            c,
            "extern {c_ret} f{k}({proto});\nvoid call{k}(void) {{ (void)f{k}({}); }}",
            args.join(", ")
        );
        if c_ret != "void" {
            let _ = writeln!(
                c,
                "extern {c_ret} h{k};\n{c_ret} get{k}(void) {{ return h{k}; }}"
            );
        }
        cases.push((sig, plan, c_ret, c_types));
    }
    let src = gen.all_defs() + &c;
    let dir =
        std::env::temp_dir().join(format!("neverc-abi-clang-{triple}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.c"), &src).unwrap();
    let o = Command::new("clang")
        .args([&format!("--target={triple}"), "-O1", "-S", "-w", "-o"])
        .arg(dir.join("t.s"))
        .arg(dir.join("t.c"))
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(format!(
            "clang failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let asm = std::fs::read_to_string(dir.join("t.s")).unwrap();
    let mut failures = Vec::new();
    let (mut locations, mut results) = (0, 0);
    for (k, (sig, plan, c_ret, c_types)) in cases.iter().enumerate() {
        let checked = check_case(k, plan, sig, &asm)
            .and_then(|n| check_result(k, plan, &asm).map(|r| (n, r)));
        match checked {
            Ok((n, r)) => {
                locations += n;
                results += usize::from(r);
            }
            Err(e) => failures.push(format!(
                "--- case {k}: {e}\n{c_ret} f({});\nplan: {plan}",
                c_types.join(", ")
            )),
        }
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        return Ok((count, locations, results));
    }
    Err(format!(
        "{} of {count} signatures differ (seed {seed}, sources in {}); first ones:\n{}",
        failures.len(),
        dir.display(),
        failures[..failures.len().min(4)].join("\n")
    ))
}

#[test]
fn win64_plans_match_clang() {
    if !Command::new("clang")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("plans_vs_clang: clang missing, Win64 skipped");
        return;
    }
    let count = std::env::var("NEVERC_ABI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed = std::env::var("NEVERC_ABI_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    match win64(count, seed) {
        Ok((n, locs, results)) => eprintln!(
            "plans_vs_clang: x86_64-pc-windows-msvc: {n} signatures, {locs} argument locations and {results} register results checked, 0 mismatches"
        ),
        Err(e) => panic!("x86_64-pc-windows-msvc: {e}"),
    }
}
