//! The layout check: random struct and union declarations (tests/common/layout_gen.rs)
//! whose `sizeof`, `_Alignof` and the `__builtin_offsetof` of every named non-bit-field
//! member, as sema computes them (through neverc-abi), must equal gcc's for the same target.
//!
//! Every type `tN` gets probes `unsigned long probe_N_0 = sizeof(..), probe_N_1 =
//! _Alignof(..), probe_N_2 = __builtin_offsetof(.., f0), ...;` in one C file per batch of
//! 500 types (scalars, not an array: sema evaluates scalar initialisers, which is where
//! neverc's values are read). gcc's are read back from the data of each `probe_N_K` in
//! `<reference_cc> -S -o -`. Bit-fields have no offset; their placement shows in the size,
//! alignment and the offsets of what follows. x86-64 always runs; each cross target runs
//! when its gcc (`Target::reference_cc`) is on PATH, and is skipped with a message if not.
//! A mismatch is reported with the declarations (after `enum E`/`enum Es` of
//! `layout_gen::PRELUDE`), shortest first.
//!
//! `NEVERC_LAYOUT_TYPES` (default 1,000 per target; the ignored `*_10k` tests use 10,000)
//! and `NEVERC_LAYOUT_SEED` (default 1) choose the types.

#[path = "common/layout_gen.rs"]
mod layout_gen;

use layout_gen::{generate, GenType, PRELUDE};
use neverc_front::diag::Diagnostics;
use neverc_front::parse::ast::{DeclKind, Init};
use neverc_front::parse::parse;
use neverc_front::pp::{PpOptions, Preprocessor, Std};
use neverc_target::{IntType, Target};
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// Types per C file (one gcc run, one parse).
const BATCH: usize = 500;

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

/// The C text of one batch: the declarations and a probe per type.
fn source(types: &[GenType]) -> String {
    let mut s = String::from(PRELUDE);
    for t in types {
        s.push_str(&t.decl);
        s.push('\n');
    }
    for t in types {
        let n = &t.name;
        let id = n.rsplit('t').next().unwrap();
        s.push_str(&format!(
            "unsigned long probe_{id}_0 = sizeof({n}), probe_{id}_1 = _Alignof({n})"
        ));
        for (k, m) in t.members.iter().enumerate() {
            s.push_str(&format!(
                ", probe_{id}_{} = __builtin_offsetof({n}, {m})",
                k + 2
            ));
        }
        s.push_str(";\n");
    }
    s
}

/// neverc's probe values, by probe name; panics on an error diagnostic.
fn neverc_values(src: &str, target: &'static Target) -> HashMap<String, Vec<Option<i128>>> {
    let buf = Buf::default();
    let diags = Diagnostics::new(Box::new(buf.clone()));
    let dm = &target.data_model;
    let wchar = dm.wchar_type;
    let opts = PpOptions {
        std: Std::default(),
        char_signed: dm.char_signed,
        wchar_bits: dm.int_type(wchar).size * 8,
        wchar_signed: wchar.is_signed() && !matches!(wchar, IntType::UChar),
        source_date_epoch: Some(0),
        builtins: neverc_front::features::BUILTINS.to_vec(),
        attributes: neverc_front::features::ATTRIBUTES
            .iter()
            .map(|a| (*a, 1))
            .collect(),
        ..Default::default()
    };
    let mut pp = Preprocessor::new(opts, diags);
    pp.enter_main("layout.c", None, src.as_bytes().to_vec());
    let ast = parse(&mut pp);
    let typed = neverc_front::sema::check_target(&ast, &mut pp, target);
    let d = String::from_utf8_lossy(&buf.0.lock().unwrap()).into_owned();
    assert!(
        !d.contains("error"),
        "neverc diagnostics for {}:\n{}",
        target.triple,
        d.lines().take(20).collect::<Vec<_>>().join("\n")
    );
    let mut out = HashMap::new();
    for &dcl in &ast.items {
        if let DeclKind::Vars { list, .. } = &ast.decl(dcl).kind {
            for id in list {
                if let (Some(n), Some(i)) = (id.decl.name, id.init) {
                    if let Init::Expr(e) = ast.init(i) {
                        let v = typed.values.get(e).copied();
                        put(&mut out, &pp.interner.str(n), v);
                    }
                }
            }
        }
    }
    out
}

/// Files the value of the scalar `probe_N_K` as element K of `probe_N`.
fn put<T: Default + Clone>(map: &mut HashMap<String, Vec<T>>, name: &str, v: T) {
    let (probe, k) = name.rsplit_once('_').unwrap();
    let k: usize = k.parse().unwrap();
    let e = map.entry(probe.to_string()).or_default();
    if e.len() <= k {
        e.resize(k + 1, T::default());
    }
    e[k] = v;
}

/// Bytes of a data directive, or None if the line is not one.
fn directive_bytes(line: &str, word: usize) -> Option<Vec<u8>> {
    let (dir, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let size = match dir {
        ".byte" => 1,
        ".value" | ".short" | ".hword" | ".half" | ".2byte" => 2,
        ".word" => word,
        ".long" | ".4byte" => 4,
        ".quad" | ".xword" | ".dword" | ".8byte" => 8,
        ".zero" | ".space" | ".skip" => {
            let n: usize = rest.trim().split(',').next()?.trim().parse().ok()?;
            return Some(vec![0; n]);
        }
        _ => return None,
    };
    let mut v = Vec::new();
    for x in rest.split(',') {
        let x = x.trim();
        let n: i128 = if let Some(h) = x.strip_prefix("0x") {
            i128::from_str_radix(h, 16).ok()?
        } else {
            x.parse().ok()?
        };
        v.extend_from_slice(&(n as u128).to_le_bytes()[..size]);
    }
    Some(v)
}

/// gcc's probe values for `target`, or None when its gcc is not installed.
fn gcc_values(src: &str, target: &Target) -> Option<HashMap<String, Vec<i128>>> {
    let cc = target.reference_cc;
    let mut cmd = Command::new(cc[0]);
    cmd.args(&cc[1..])
        .args(["-std=gnu11", "-w", "-O0", "-S", "-o", "-", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().ok()?;
    let mut stdin = child.stdin.take().unwrap();
    let text = src.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{} failed:\n{}",
        cc[0],
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(30)
            .collect::<Vec<_>>()
            .join("\n")
    );
    let dm = &target.data_model;
    let elem = dm.long.size as usize;
    let word = if target.triple.starts_with("x86_64") || target.triple == "avr" {
        2
    } else {
        4
    };
    let asm = String::from_utf8_lossy(&out.stdout);
    let mut res = HashMap::new();
    let mut cur: Option<(String, Vec<u8>)> = None;
    let mut finish = |cur: &mut Option<(String, Vec<u8>)>| {
        if let Some((name, bytes)) = cur.take() {
            assert_eq!(bytes.len(), elem, "{name}: {bytes:?}");
            let mut b = [0u8; 16];
            b[..elem].copy_from_slice(&bytes);
            put(&mut res, &name, u128::from_le_bytes(b) as i128);
        }
    };
    for line in asm.lines() {
        let l = line.trim();
        if let Some(label) = l.strip_suffix(':') {
            finish(&mut cur);
            if label.starts_with("probe_") {
                cur = Some((label.to_string(), Vec::new()));
            }
            continue;
        }
        if let Some((_, bytes)) = cur.as_mut() {
            match directive_bytes(l, word) {
                Some(b) => bytes.extend(b),
                None => finish(&mut cur),
            }
        }
    }
    finish(&mut cur);
    Some(res)
}

/// Runs the check for `triple` with `default_n` types (unless NEVERC_LAYOUT_TYPES says
/// otherwise); returns the number of types checked (0: gcc missing).
fn run(triple: &str, default_n: usize) -> usize {
    let target = neverc_target::lookup(triple).unwrap();
    let n = env_u64("NEVERC_LAYOUT_TYPES").map_or(default_n, |n| n as usize);
    let seed = env_u64("NEVERC_LAYOUT_SEED").unwrap_or(1);
    let cc = target.reference_cc[0];
    if Command::new(cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        // x86-64 is the host: its gcc must be there.
        assert!(
            triple != "x86_64-linux-gnu",
            "layout check: {cc} is not installed"
        );
        eprintln!("layout check for {triple}: skipped, {cc} is not installed");
        return 0;
    }
    let mut mismatches: Vec<(String, String)> = Vec::new();
    let mut first = 0;
    let mut values = 0;
    while first < n {
        let count = BATCH.min(n - first);
        let types = generate(seed, first, count, target);
        let src = source(&types);
        let ours = neverc_values(&src, target);
        let theirs = gcc_values(&src, target).expect("gcc ran before");
        for t in &types {
            values += 2 + t.members.len();
            let id = t.name.rsplit('t').next().unwrap();
            let probe = format!("probe_{id}");
            let want = theirs.get(&probe);
            let got = ours.get(&probe);
            let want_len = 2 + t.members.len();
            let ok = match (got, want) {
                (Some(g), Some(w)) => {
                    g.len() == want_len
                        && w.len() == want_len
                        && g.iter().zip(w).all(|(g, w)| *g == Some(*w))
                }
                _ => false,
            };
            if !ok {
                let fmt_g = got.map_or("missing".to_string(), |g| {
                    g.iter()
                        .map(|v| v.map_or("?".into(), |v| v.to_string()))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let fmt_w = want.map_or("missing".to_string(), |w| {
                    w.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                let names = std::iter::once("sizeof _Alignof".to_string())
                    .chain(t.members.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ");
                // The records it names, directly or not, come first (all are earlier
                // in the same batch), so the text compiles on its own.
                let mut need = vec![false; types.len()];
                let at = types.iter().position(|x| x.name == t.name).unwrap();
                need[at] = true;
                for i in (0..at).rev() {
                    need[i] =
                        (i + 1..=at).any(|j| need[j] && mentions(&types[j].decl, &types[i].name));
                }
                let mut decl = String::new();
                for (i, dep) in types.iter().enumerate() {
                    if need[i] {
                        decl.push_str(&dep.decl);
                        decl.push('\n');
                    }
                }
                decl.pop();
                mismatches.push((
                    decl,
                    format!("  [{names}]\n  neverc: {fmt_g}\n  gcc:    {fmt_w}"),
                ));
            }
        }
        first += count;
    }
    if !mismatches.is_empty() {
        mismatches.sort_by_key(|(d, _)| d.len());
        let mut msg = format!(
            "{triple}: {} of {n} types (seed {seed}) differ from {cc}; shortest first:\n",
            mismatches.len()
        );
        for (d, v) in mismatches.iter().take(15) {
            msg.push_str(&format!("{d}\n{v}\n"));
        }
        panic!("{msg}");
    }
    eprintln!("layout check for {triple}: {n} types (seed {seed}), {values} values, equal {cc}'s");
    n
}

/// Does `decl` name the record `name` (`struct t5`, not `struct t50`)?
fn mentions(decl: &str, name: &str) -> bool {
    decl.match_indices(name).any(|(i, _)| {
        !decl[i + name.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

macro_rules! targets {
    ($($name:ident, $big:ident, $triple:literal;)*) => {$(
        #[test]
        fn $name() {
            run($triple, 1000);
        }
        #[test]
        #[ignore = "10,000 types: cargo test --release -- --ignored"]
        fn $big() {
            run($triple, 10_000);
        }
    )*};
}

targets! {
    layout_x86_64, layout_x86_64_10k, "x86_64-linux-gnu";
    layout_aarch64, layout_aarch64_10k, "aarch64-linux-gnu";
    layout_riscv64, layout_riscv64_10k, "riscv64-linux-gnu";
    layout_armhf, layout_armhf_10k, "arm-linux-gnueabihf";
    layout_mipsel, layout_mipsel_10k, "mipsel-linux-gnu";
    layout_arm_none_eabi, layout_arm_none_eabi_10k, "thumbv7m-none-eabi";
    layout_avr, layout_avr_10k, "avr";
}
