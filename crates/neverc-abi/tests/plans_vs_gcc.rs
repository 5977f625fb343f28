//! The register-dump harness: proof of call plans against gcc, before any back end exists.
//!
//! For each target, a hand-written assembly stub `dump` stores every argument register and
//! the incoming stack area into `dump_buf`. A generated C caller, compiled by the target's
//! gcc, calls the stub (through a cast function pointer, one prototype per case) with
//! arguments holding distinct byte patterns and writes the dump after each call to stdout.
//! The test predicts every byte from the plan and compares, on the bits that carry the value
//! (padding is not compared; extension bits are, where the plan's flags promise them).
//!
//! Targets: x86-64 (host gcc) and aarch64 (aarch64-linux-gnu-gcc under qemu-aarch64).
//! A missing tool skips the target with a message. `NEVERC_ABI_SEED` and
//! `NEVERC_ABI_CASES` change the seed and the number of signatures; a failure prints the
//! seed and a C reproducer of the first failing signatures.

mod common;

use common::gen::{Features, Gen, Rng};
use common::machines::machine;
use neverc_abi::{
    layout, plan_call, record_layout, CallPlan, Flags, FloatKind, IntKind, Machine, Place,
    Signature, Type,
};
use neverc_target::Arch;
use std::fmt::Write;
use std::process::Command;

struct Harness {
    triple: &'static str,
    cc: &'static [&'static str],
    runner: &'static [&'static str],
    stub: &'static str,
    /// Bytes in the dump before the stack area.
    stack_at: usize,
    dump_size: usize,
    /// Offset in the dump of a register by plan number, with its width.
    reg_slot: fn(u16) -> Option<(usize, usize)>,
    features: Features,
}

const X86_STUB: &str = r#"
    .text
    .globl dump
    .type dump, @function
dump:
    movq %rdi, dump_buf+0(%rip)
    movq %rsi, dump_buf+8(%rip)
    movq %rdx, dump_buf+16(%rip)
    movq %rcx, dump_buf+24(%rip)
    movq %r8, dump_buf+32(%rip)
    movq %r9, dump_buf+40(%rip)
    movq %rax, dump_buf+48(%rip)
    movdqu %xmm0, dump_buf+56(%rip)
    movdqu %xmm1, dump_buf+72(%rip)
    movdqu %xmm2, dump_buf+88(%rip)
    movdqu %xmm3, dump_buf+104(%rip)
    movdqu %xmm4, dump_buf+120(%rip)
    movdqu %xmm5, dump_buf+136(%rip)
    movdqu %xmm6, dump_buf+152(%rip)
    movdqu %xmm7, dump_buf+168(%rip)
    leaq 8(%rsp), %rsi
    leaq dump_buf+184(%rip), %rdi
    movl $2048, %ecx
    rep movsb
    ret
    .section .note.GNU-stack,"",@progbits
"#;

fn x86_slot(r: u16) -> Option<(usize, usize)> {
    Some(match r {
        5 => (0, 8),
        4 => (8, 8),
        1 => (16, 8),
        2 => (24, 8),
        8 => (32, 8),
        9 => (40, 8),
        0 => (48, 8),
        17..=24 => (56 + 16 * (r as usize - 17), 16),
        _ => return None,
    })
}

const A64_STUB: &str = r#"
    .text
    .globl dump
    .type dump, %function
dump:
    adrp x9, dump_buf
    add x9, x9, :lo12:dump_buf
    stp x0, x1, [x9, #0]
    stp x2, x3, [x9, #16]
    stp x4, x5, [x9, #32]
    stp x6, x7, [x9, #48]
    str x8, [x9, #64]
    stp q0, q1, [x9, #80]
    stp q2, q3, [x9, #112]
    stp q4, q5, [x9, #144]
    stp q6, q7, [x9, #176]
    add x10, x9, #208
    mov x11, sp
    mov x12, #2048
1:  ldrb w13, [x11], #1
    strb w13, [x10], #1
    subs x12, x12, #1
    b.ne 1b
    ret
    .section .note.GNU-stack,"",@progbits
"#;

fn a64_slot(r: u16) -> Option<(usize, usize)> {
    Some(match r {
        0..=8 => (8 * r as usize, 8),
        64..=71 => (80 + 16 * (r as usize - 64), 16),
        _ => return None,
    })
}

const FULL: Features = Features {
    int128: true,
    float16: true,
    empty_records: true,
    attributes: true,
    bitfields: true,
    vectors: true,
    long_double: true,
};

fn harnesses() -> Vec<Harness> {
    vec![
        Harness {
            triple: "x86_64-linux-gnu",
            cc: &["gcc"],
            runner: &[],
            stub: X86_STUB,
            stack_at: 184,
            dump_size: 184 + 2048,
            reg_slot: x86_slot,
            features: FULL,
        },
        Harness {
            triple: "aarch64-linux-gnu",
            cc: &["aarch64-linux-gnu-gcc", "-static"],
            runner: &["qemu-aarch64"],
            stub: A64_STUB,
            stack_at: 208,
            dump_size: 208 + 2048,
            reg_slot: a64_slot,
            features: FULL,
        },
    ]
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// For each byte of a value: which bits carry it (1) or are padding (0).
fn significance(ty: &Type, m: Machine, base: usize, mask: &mut [u8]) {
    let l = layout(ty, m);
    match ty {
        Type::Void => {}
        Type::Float(FloatKind::LongDouble) if m.arch == Arch::X86_64 => {
            mask[base..base + 10].fill(0xff)
        }
        Type::Complex(k) => {
            let half = l.size as usize / 2;
            significance(&Type::Float(*k), m, base, mask);
            significance(&Type::Float(*k), m, base + half, mask);
        }
        Type::Array(e, n) => {
            let es = layout(e, m).size as usize;
            for i in 0..*n as usize {
                significance(e, m, base + i * es, mask);
            }
        }
        Type::Aligned(t, _) => significance(t, m, base, mask),
        Type::Record(r) => {
            let rl = record_layout(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                if f.bits.is_some() {
                    for bit in fl.bit_offset..fl.bit_offset + fl.bit_size {
                        mask[base + (bit / 8) as usize] |= 1 << (bit % 8);
                    }
                } else {
                    significance(&f.ty, m, base + fl.offset() as usize, mask);
                }
            }
        }
        _ => mask[base..base + l.size as usize].fill(0xff),
    }
}

/// Makes random bytes a valid value: `_Bool` 0/1, floats normal (no NaN canonicalisation
/// or x87 unnormals can blur the comparison).
fn sanitize(ty: &Type, m: Machine, base: usize, bytes: &mut [u8], rng: &mut Rng) {
    let l = layout(ty, m);
    let normal = |b: &mut u8, rng: &mut Rng| *b = 0x30 + rng.below(0x20) as u8;
    match ty {
        Type::Bool => bytes[base] &= 1,
        Type::Float(k) | Type::Complex(k) => {
            let n = if matches!(ty, Type::Complex(_)) { 2 } else { 1 };
            let s = l.size as usize / n;
            for i in 0..n {
                let at = base + i * s;
                match (k, s) {
                    (FloatKind::LongDouble, 16) if m.arch == Arch::X86_64 => {
                        bytes[at + 7] |= 0x80; // explicit integer bit
                        normal(&mut bytes[at + 9], rng);
                    }
                    (_, 2) => bytes[at + 1] = 0x30 + rng.below(0x10) as u8,
                    _ => normal(&mut bytes[at + s - 1], rng),
                }
            }
        }
        Type::Array(e, n) => {
            let es = layout(e, m).size as usize;
            for i in 0..*n as usize {
                sanitize(e, m, base + i * es, bytes, rng);
            }
        }
        Type::Vector(e, _) => {
            let es = layout(e, m).size as usize;
            for i in 0..l.size as usize / es {
                sanitize(e, m, base + i * es, bytes, rng);
            }
        }
        Type::Aligned(t, _) => sanitize(t, m, base, bytes, rng),
        Type::Record(r) => {
            let rl = record_layout(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                if f.bits.is_none() {
                    sanitize(&f.ty, m, base + fl.offset() as usize, bytes, rng);
                }
            }
        }
        _ => {}
    }
}

struct Case {
    sig: Signature,
    /// C spelling of each parameter type.
    c_types: Vec<String>,
    images: Vec<Vec<u8>>,
    masks: Vec<Vec<u8>>,
}

fn gen_case(gen: &mut Gen, rng: &mut Rng, m: Machine) -> Case {
    let max = if rng.chance(20) { 14 } else { 6 };
    let n = 1 + rng.below(max) as usize;
    let variadic = rng
        .chance(15)
        .then(|| 1 + rng.below(n as u64) as usize)
        .filter(|&k| k < n);
    let mut params = Vec::new();
    let mut c_types = Vec::new();
    for i in 0..n {
        let vararg = variadic.is_some_and(|k| i >= k);
        let (t, c) = if rng.chance(40) {
            let (t, name) = gen.record(rng, 1, false);
            (t, gen.tag(&name))
        } else if vararg {
            let choices = [
                (Type::int(), "int"),
                (Type::Int(IntKind::Long), "long"),
                (Type::double(), "double"),
                (Type::Pointer, "void *"),
                (Type::long_double(), "long double"),
            ];
            let (t, c) = rng.pick(&choices).clone();
            (t, c.to_string())
        } else {
            gen.scalar(rng)
        };
        params.push(t);
        c_types.push(c);
    }
    let mut images = Vec::new();
    let mut masks = Vec::new();
    for t in &params {
        let size = layout(t, m).size as usize;
        let mut bytes: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
        sanitize(t, m, 0, &mut bytes, rng);
        let mut mask = vec![0u8; size];
        significance(t, m, 0, &mut mask);
        images.push(bytes);
        masks.push(mask);
    }
    Case {
        sig: Signature {
            ret: Type::Void,
            params,
            variadic,
        },
        c_types,
        images,
        masks,
    }
}

fn c_call(case: &Case, k: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "static void case{k}(void) {{");
    for (i, img) in case.images.iter().enumerate() {
        let bytes: Vec<String> = img.iter().map(|b| b.to_string()).collect();
        let _ = writeln!(
            s,
            "  static const unsigned char b{i}[] = {{{}0}}; {} a{i}; __builtin_memcpy(&a{i}, b{i}, sizeof a{i});",
            bytes.iter().map(|b| format!("{b},")).collect::<String>(),
            case.c_types[i]
        );
    }
    let named = case.sig.variadic.unwrap_or(case.c_types.len());
    let mut proto: Vec<String> = case.c_types[..named].to_vec();
    if case.sig.variadic.is_some() {
        proto.push("...".into());
    }
    let args: Vec<String> = (0..case.c_types.len()).map(|i| format!("a{i}")).collect();
    let _ = writeln!(
        s,
        "  ((void (*)({}))dump)({});",
        proto.join(", "),
        args.join(", ")
    );
    let _ = writeln!(s, "  fwrite(dump_buf, 1, sizeof dump_buf, stdout);\n}}");
    s
}

/// Compares one case's dump with its plan; returns a description of the first mismatch.
fn check(
    h: &Harness,
    m: Machine,
    case: &Case,
    plan: &CallPlan,
    dump: &[u8],
) -> Result<usize, String> {
    let mut checked = 0;
    let mut xmm_used = std::collections::BTreeSet::new();
    for l in &plan.arguments {
        if l.flags.contains(Flags::VA_COUNT) {
            continue;
        }
        let v = l.value as usize;
        let (img, mask) = (&case.images[v], &case.masks[v]);
        let at = match l.place {
            Place::Reg(r) => {
                let (slot, width) = (h.reg_slot)(r).ok_or(format!("register {r} not dumped"))?;
                if r >= 17 {
                    xmm_used.insert(r);
                }
                if l.size as usize > width {
                    return Err(format!("piece {l} wider than its register"));
                }
                slot
            }
            Place::Stack(o) => h.stack_at + o as usize,
        };
        if at >= dump.len() {
            return Err(format!("piece {l} lies beyond the dumped stack area"));
        }
        if l.flags.contains(Flags::BYREF) {
            // The pointee is a caller copy; only its presence is checked here.
            checked += 1;
            continue;
        }
        // Bytes past the 2 KiB stack dump (huge by-value structs) are not compared.
        for k in 0..(l.size as usize).min(dump.len() - at) {
            let want = img[l.offset as usize + k] & mask[l.offset as usize + k];
            let got = dump[at + k] & mask[l.offset as usize + k];
            if want != got {
                return Err(format!(
                    "argument {v} piece {l}: byte {k} is {got:#04x}, plan predicts {want:#04x}"
                ));
            }
        }
        // Extension bits the plan promises.
        let ext = [
            (Flags::SEXT32, 4, true),
            (Flags::ZEXT32, 4, false),
            (Flags::SEXT64, 8, true),
            (Flags::ZEXT64, 8, false),
        ];
        for (flag, width, signed) in ext {
            if l.flags.contains(flag) {
                let top = img[l.size as usize - 1];
                let fill = if signed && top & 0x80 != 0 { 0xff } else { 0 };
                for k in l.size as usize..width.min(dump.len() - at) {
                    if dump[at + k] != fill {
                        return Err(format!(
                            "argument {v} piece {l}: extension byte {k} is {:#04x}",
                            dump[at + k]
                        ));
                    }
                }
            }
        }
        checked += 1;
    }
    if case.sig.variadic.is_some() && m.arch == Arch::X86_64 {
        let al = dump[48] as usize;
        if al != xmm_used.len() {
            return Err(format!(
                "%al is {al}, plan uses {} vector registers",
                xmm_used.len()
            ));
        }
    }
    Ok(checked)
}

fn run(h: &Harness, count: usize, seed: u64) -> Result<(usize, usize), String> {
    let m = machine(h.triple);
    let mut rng = Rng(seed ^ neverc_abi::plan::fnv1a64(h.triple.as_bytes()));
    let mut gen = Gen::new(
        m,
        Features {
            float16: h.features.float16 && m.arch != Arch::Avr,
            ..h.features
        },
    );
    let cases: Vec<Case> = (0..count)
        .map(|_| gen_case(&mut gen, &mut rng, m))
        .collect();
    let mut c = String::from(
        "#include <stdio.h>\nextern unsigned char dump_buf[];\nextern void dump(void);\n",
    );
    let _ = writeln!(c, "unsigned char dump_buf[{}];", h.dump_size);
    c += &gen.all_defs();
    for (k, case) in cases.iter().enumerate() {
        c += &c_call(case, k);
    }
    c += "int main(void) {\n";
    for k in 0..cases.len() {
        let _ = writeln!(c, "  case{k}();");
    }
    c += "  return 0;\n}\n";
    let dir = std::env::temp_dir().join(format!(
        "neverc-abi-plans-{}-{}",
        h.triple,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.c"), &c).unwrap();
    std::fs::write(dir.join("stub.s"), h.stub).unwrap();
    let out = dir.join("t.out");
    let o = Command::new(h.cc[0])
        .args(&h.cc[1..])
        .args(["-w", "-O1", "-o"])
        .arg(&out)
        .arg(dir.join("t.c"))
        .arg(dir.join("stub.s"))
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(format!(
            "{} failed:\n{}",
            h.cc[0],
            String::from_utf8_lossy(&o.stderr)
                .chars()
                .take(3000)
                .collect::<String>()
        ));
    }
    let o = if h.runner.is_empty() {
        Command::new(&out).output().unwrap()
    } else {
        Command::new(h.runner[0])
            .args(&h.runner[1..])
            .arg(&out)
            .output()
            .unwrap()
    };
    if !o.status.success() || o.stdout.len() != count * h.dump_size {
        return Err(format!("the caller failed: {:?}", o.status));
    }
    let (mut locations, mut failures) = (0, Vec::new());
    for (k, case) in cases.iter().enumerate() {
        let plan = plan_call(m, &case.sig).map_err(|e| e.to_string())?;
        let dump = &o.stdout[k * h.dump_size..(k + 1) * h.dump_size];
        match check(h, m, case, &plan, dump) {
            Ok(n) => locations += n,
            Err(e) => failures.push((k, e, plan)),
        }
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        return Ok((count, locations));
    }
    let mut msg = format!(
        "{} of {count} signatures differ (seed {seed}); first ones:\n",
        failures.len()
    );
    for (k, e, plan) in failures.iter().take(4) {
        let case = &cases[*k];
        let mut deps = String::new();
        for t in &case.c_types {
            if let Some(name) = t
                .strip_prefix("struct ")
                .or_else(|| t.strip_prefix("union "))
            {
                deps += &gen.closure(name);
            }
        }
        let named = case.sig.variadic.unwrap_or(case.c_types.len());
        let mut proto: Vec<String> = case.c_types[..named].to_vec();
        if case.sig.variadic.is_some() {
            proto.push("...".into());
        }
        let _ = writeln!(
            msg,
            "--- case {k}: {e}\n{deps}void f({});\nplan: {plan}",
            proto.join(", ")
        );
    }
    Err(msg)
}

#[test]
#[ignore = "known mismatches remain (see the crate's open issues); run with --ignored"]
fn argument_plans_match_gcc_register_dumps() {
    let seed = std::env::var("NEVERC_ABI_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let count = std::env::var("NEVERC_ABI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    let mut errors = Vec::new();
    for h in harnesses() {
        let tools = [h.cc[0]].into_iter().chain(h.runner.first().copied());
        if let Some(missing) = tools.into_iter().find(|t| !have(t)) {
            eprintln!("plans_vs_gcc: {missing} missing, {} skipped", h.triple);
            continue;
        }
        match run(&h, count, seed) {
            Ok((n, locs)) => eprintln!(
                "plans_vs_gcc: {}: {n} signatures, {locs} argument locations, 0 mismatches",
                h.triple
            ),
            Err(e) => errors.push(format!("{}: {e}", h.triple)),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
}
