//! Record layout against the reference compilers: generated structs and unions, with the
//! predicted size, alignment and member offsets as `_Static_assert`s, compiled by each
//! target's gcc (clang for Windows). Where the target runs under qemu-user, bit-field
//! positions are checked at run time too (each bit-field set to all ones in a zeroed object,
//! compared byte for byte with the prediction).
//!
//! A missing compiler skips that target with a message. `NEVERC_ABI_SEED` changes the seed;
//! a failure prints the seed and the definitions of the offending records.

mod common;

use common::gen::{Features, Gen, Rng};
use common::machines::machine;
use neverc_abi::{record_layout, Type};
use neverc_target::{Arch, Os, Target, TARGETS};
use std::fmt::Write;
use std::process::Command;

fn features(t: &Target) -> Features {
    Features {
        int128: t.data_model.int128.is_some(),
        float16: matches!(t.arch, Arch::X86_64 | Arch::AArch64) && t.os == Os::Linux,
        empty_records: t.os != Os::Windows,
        // The Microsoft rules for bit-fields, `#pragma pack` and GNU attributes are only
        // approximated.
        attributes: t.os != Os::Windows,
        bitfields: t.os != Os::Windows,
        // MIPS o32 places a vector member at 16 but reports alignment 8: not modelled.
        vectors: !matches!(t.arch, Arch::Avr | Arch::Mips32),
        long_double: true,
    }
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn seed() -> u64 {
    std::env::var("NEVERC_ABI_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20240611)
}

/// Generates, compiles and (when possible) runs one target's check; returns the number of
/// records checked, or an error describing mismatches.
fn check_target(cfg: &Target, count: usize) -> Result<usize, String> {
    let m = machine(cfg.triple);
    let seed = seed()
        ^ cfg
            .triple
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31) ^ b as u64);
    let mut rng = Rng(seed);
    let mut gen = Gen::new(m, features(cfg));
    for _ in 0..count {
        gen.record(&mut rng, 0, true);
    }
    let mut c = String::from("typedef __SIZE_TYPE__ size_t;\n");
    c += &gen.all_defs();
    let mut checks = String::new();
    for (name, ty) in &gen.records {
        let Type::Record(rec) = ty else {
            unreachable!()
        };
        let l = record_layout(rec.as_ref(), m);
        let tag = gen.tag(name);
        let _ = writeln!(
            c,
            "_Static_assert(sizeof({tag}) == {}, \"{name} size\");",
            l.size
        );
        let _ = writeln!(
            c,
            "_Static_assert(_Alignof({tag}) == {}, \"{name} align\");",
            l.align
        );
        for (f, fl) in rec.fields.iter().zip(&l.fields) {
            let Some(fname) = &f.name else { continue };
            if f.bits.is_none() {
                let _ = writeln!(
                    c,
                    "_Static_assert(__builtin_offsetof({tag}, {fname}) == {}, \"{name}.{fname} offset\");",
                    fl.offset()
                );
            } else if f.bits != Some(0) && l.size > 0 {
                let mut bytes = vec![0u8; l.size as usize];
                for bit in fl.bit_offset..fl.bit_offset + fl.bit_size {
                    bytes[(bit / 8) as usize] |= 1 << (bit % 8);
                }
                let value = if f.ty == Type::Bool { "1" } else { "-1" };
                let list: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
                let _ = writeln!(
                    checks,
                    "  {{ {tag} s; static const unsigned char e[] = {{{}}}; __builtin_memset(&s, 0, sizeof s); s.{fname} = {value}; \
                     if (__builtin_memcmp(&s, e, sizeof s)) {{ __builtin_printf(\"{name}.{fname}\\n\"); bad++; }} }}",
                    list.join(",")
                );
            }
        }
    }
    c += "int main(void) {\n  int bad = 0;\n";
    c += &checks;
    c += "  return bad != 0;\n}\n";

    let dir = std::env::temp_dir().join(format!(
        "neverc-abi-layout-{}-{}",
        cfg.triple,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("t.c");
    let out = dir.join("t.out");
    std::fs::write(&src, &c).unwrap();
    let cc = cfg.reference_cc;
    let compile = |link: bool| {
        let mut cmd = Command::new(cc[0]);
        cmd.args(&cc[1..])
            .args(["-std=gnu11", "-w", "-o"])
            .arg(&out)
            .arg(&src);
        if !link {
            cmd.arg("-c");
        }
        cmd.output().unwrap()
    };
    let o = compile(false);
    let reproduce = |names: Vec<String>| -> String {
        let mut s = format!(
            "seed {} (NEVERC_ABI_SEED={}), target {}\n",
            seed,
            self::seed(),
            cfg.triple
        );
        for n in names.iter().take(3) {
            s += &format!("--- {n}:\n{}", gen.closure(n));
        }
        s
    };
    let names_in = |text: &str| -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for w in text.split(|c: char| !c.is_ascii_alphanumeric()) {
            if w.starts_with('S') && w[1..].parse::<u32>().is_ok() && !v.iter().any(|x| x == w) {
                v.push(w.to_string());
            }
        }
        v
    };
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let asserts: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("static assert") || l.contains("static_assert failed"))
            .collect();
        return Err(format!(
            "{} failed ({} assertions):\n{}\n{}",
            cc[0],
            asserts.len(),
            asserts
                .iter()
                .take(8)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n"),
            reproduce(names_in(&asserts.join(" "))) + &err.chars().take(2000).collect::<String>()
        ));
    }
    if let Some(runner) = cfg.run_prefix() {
        let tool = runner.first().cloned().unwrap_or_default();
        if !tool.is_empty() && !have(&tool) {
            eprintln!(
                "layout_vs_gcc: {tool} missing, bit-field run skipped for {}",
                cfg.triple
            );
        } else if !compile(true).status.success() {
            eprintln!(
                "layout_vs_gcc: cannot link for {}, bit-field run skipped",
                cfg.triple
            );
        } else {
            let mut cmd = Command::new(if runner.is_empty() {
                out.to_str().unwrap()
            } else {
                &runner[0]
            });
            if !runner.is_empty() {
                cmd.args(&runner[1..]).arg(&out);
            }
            let o = cmd.output().unwrap();
            if !o.status.success() {
                let text = String::from_utf8_lossy(&o.stdout).to_string();
                return Err(format!(
                    "bit-field positions differ:\n{text}\n{}",
                    reproduce(names_in(&text))
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(gen.records.len())
}

#[test]
fn record_layout_matches_reference_compilers() {
    let mut failures = Vec::new();
    let only = std::env::var("NEVERC_ABI_TARGETS").unwrap_or_default();
    for cfg in TARGETS {
        if !only.is_empty() && !only.split(',').any(|t| t == cfg.triple) {
            continue;
        }
        if !have(cfg.reference_cc[0]) {
            eprintln!(
                "layout_vs_gcc: {} missing, {} skipped",
                cfg.reference_cc[0], cfg.triple
            );
            continue;
        }
        match check_target(cfg, 300) {
            Ok(n) => eprintln!("layout_vs_gcc: {}: {n} records match", cfg.triple),
            Err(e) => failures.push(format!("{}: {e}", cfg.triple)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
