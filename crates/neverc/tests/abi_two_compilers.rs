//! The two-compiler ABI test for x86-64 Linux (against the host's gcc) and for AArch64
//! Linux (`neverc --target=aarch64-linux-gnu` against `aarch64-linux-gnu-gcc`, the
//! programs run under `qemu-aarch64 -L /usr/aarch64-linux-gnu`): random signatures, each
//! one defined in a callee file and called from a caller file, the two compiled by
//! different compilers and linked together.
//!
//! For every signature (every scalar kind, records nested with arrays, bit-fields,
//! float/integer mixes, empty, packed and aligned ones, many arguments so that some go on
//! the stack, variadic functions whose callee reads the variadic part with `va_arg`,
//! results of every size including memory results; on AArch64 also homogeneous
//! aggregates of floats, doubles, binary128 `long double`s and vectors, nested and in
//! arrays, see `abi_two/cases.rs`) the generator (neverc-abi's,
//! `crates/neverc-abi/tests/common/gen.rs`, included by path) picks a distinct random byte
//! image per argument and for the result. The callee checks every argument byte by byte
//! (padding excluded) and returns the result image; the caller passes the images and
//! checks the result, keeps integer and double guards live across the call (callee-saved
//! registers: x19-x28 and d8-d15 on AArch64) and every fourth call goes through a function
//! pointer. The callee also checks that its stack is 16-byte aligned. A mismatch prints `MISMATCH <signature> <argument>` (`-1`: the result).
//!
//! Direction 1 compiles the callees with gcc and the callers with neverc, direction 2 the
//! reverse; neverc compiles even batches at `-O1`, odd ones at `-O0`. 200 signatures per
//! translation unit.
//!
//! * `NEVERC_ABI2_CASES` (default 1,000 per direction on x86-64, 600 on AArch64; the
//!   ignored tests 10,000) and `NEVERC_ABI2_SEED` (default 1) scale and vary the run.
//! * `NEVERC_ABI2_ALL=1` ignores the exclusion list (to see whether a finding is fixed).
//! * `NEVERC_ABI2_KEEP=1` keeps the work directory.
//!
//! Known bugs of neverc are listed in `tests/abi-two/FINDINGS.md`; the signature kinds
//! they break are kept out of the run by [`X86_64`]'s and [`AARCH64`]'s exclusion lists
//! (each entry names its finding), so
//! the test passes on what works and fails on anything new. A failure prints, for the
//! first failing signatures, the signature in C and a directory with a minimal reproducer
//! (callee file, caller file, runtime and the commands to build them).

#[path = "abi_two/cases.rs"]
mod cases;
#[path = "abi_two/emit.rs"]
mod emit;
// The one random-type generator, shared with neverc-abi's register-dump harness.
#[path = "../../neverc-abi/tests/common/gen.rs"]
mod gen;

use cases::{gen_case, Case, FEATURES};
use gen::{Gen, Rng};
use neverc_abi::Machine;
use neverc_target::Arch;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const NEVERC: &str = env!("CARGO_BIN_EXE_neverc");
const PER_FILE: usize = 200;

/// A target of the test: the reference compiler (which also links), neverc's arguments
/// for the target, how its programs run, and the signature kinds kept out of its runs.
struct Target {
    triple: &'static str,
    gcc: &'static str,
    neverc_args: &'static [&'static str],
    /// The emulator and its arguments before the program (empty: run it directly).
    runner: &'static [&'static str],
    /// Signature kinds kept out of the run, each with the finding (in
    /// `tests/abi-two/FINDINGS.md`) that explains why (`F<n>`, `A<n>`: a neverc bug or
    /// refusal, `G<n>`: a gcc bug that makes the case unusable as a reference). A tag is
    /// `<position>:<kind>` (position `arg`, `va` (a variadic argument), `ret` or `sig`, see
    /// `abi_two/cases.rs`); a `*` position matches every position.
    excluded: &'static [(&'static str, &'static str)],
}

const X86_64: Target = Target {
    triple: "x86_64-linux-gnu",
    gcc: "gcc",
    neverc_args: &[],
    runner: &[],
    excluded: &[
        // Not a neverc bug: gcc's own callee crashes (see G1).
        ("va:record_align16_in_gpr", "G1"),
    ],
};

const AARCH64: Target = Target {
    triple: "aarch64-linux-gnu",
    gcc: "aarch64-linux-gnu-gcc",
    neverc_args: &["--target=aarch64-linux-gnu"],
    runner: &["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
    excluded: &[
        // Not a neverc bug: gcc's own compile stops (see G2).
        ("ret:vector_array_and_zero_length_array", "G2"),
    ],
};

impl Target {
    fn arch(&self) -> Arch {
        neverc_target::lookup(self.triple).unwrap().arch
    }

    /// The command that runs program `exe`.
    fn run(&self, exe: &Path) -> Command {
        match self.runner {
            [] => Command::new(exe),
            [emulator, args @ ..] => {
                let mut c = Command::new(emulator);
                c.args(args).arg(exe);
                c
            }
        }
    }

    /// The reference compiler with `args`.
    fn gcc(&self, args: &[&str]) -> Command {
        let mut c = Command::new(self.gcc);
        c.args(args);
        c
    }

    /// The shell spelling of a command running `exe`.
    fn run_text(&self, exe: &str) -> String {
        self.runner
            .iter()
            .copied()
            .chain([exe])
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn excluded(&self, case: &Case) -> Option<&'static str> {
        excluded(self.excluded, case)
    }
}

fn excluded(list: &'static [(&'static str, &'static str)], case: &Case) -> Option<&'static str> {
    for (pat, finding) in list {
        let hit = match pat.strip_prefix("*:") {
            Some(kind) => case.tags.iter().any(|t| t.split(':').nth(1) == Some(kind)),
            None => case.tags.contains(*pat),
        };
        if hit {
            return Some(finding);
        }
    }
    None
}

#[derive(Clone, Copy, PartialEq)]
enum Cc {
    Gcc,
    Neverc(&'static str),
}

impl Cc {
    fn name(self) -> String {
        match self {
            Cc::Gcc => "gcc -O1".into(),
            Cc::Neverc(o) => format!("neverc {o}"),
        }
    }
    fn command(self, t: &Target, src: &Path, obj: &Path) -> Command {
        let mut c = match self {
            Cc::Gcc => t.gcc(&["-O1", "-w"]),
            Cc::Neverc(o) => {
                let mut c = Command::new(NEVERC);
                c.args(t.neverc_args).args([o, "-w"]);
                c
            }
        };
        c.arg("-c").arg(src).arg("-o").arg(obj);
        c
    }
}

/// Runs `cmd` with a time limit; returns success and the combined output.
fn run_limited(mut cmd: Command, limit: Duration) -> (bool, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let out = std::thread::scope(|s| {
        let mut so = child.stdout.take().unwrap();
        let mut se = child.stderr.take().unwrap();
        let a = s.spawn(move || {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut so, &mut v).ok();
            v
        });
        let b = s.spawn(move || {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut se, &mut v).ok();
            v
        });
        let start = Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut text = String::from_utf8_lossy(&a.join().unwrap()).into_owned();
        text += &String::from_utf8_lossy(&b.join().unwrap());
        match status {
            Some(st) => (st.success(), text),
            None => (false, text + "\n(timed out)"),
        }
    });
    out
}

/// One failure of one signature.
struct Failure {
    sig: usize,
    direction: String,
    what: String,
}

struct Run {
    target: &'static Target,
    m: Machine,
    gen: Gen,
    cases: Vec<Case>,
    dir: PathBuf,
    excluded: BTreeMap<&'static str, usize>,
}

fn new_run(target: &'static Target, count: usize, seed: u64, all: bool) -> Run {
    let m: Machine = neverc_target::lookup(target.triple).unwrap().into();
    let mut rng = Rng(seed ^ 0xab12_2c0d_e5f0_0001);
    let mut gen = Gen::new(m, FEATURES);
    let mut cases = Vec::new();
    let mut excl = BTreeMap::new();
    while cases.len() < count {
        let c = gen_case(&mut gen, &mut rng, m);
        match target.excluded(&c) {
            Some(f) if !all => *excl.entry(f).or_insert(0) += 1,
            _ => cases.push(c),
        }
    }
    let dir = std::env::temp_dir().join(format!(
        "neverc-abi2-{}-{}-{seed}",
        target.triple,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Run {
        target,
        m,
        gen,
        cases,
        dir,
        excluded: excl,
    }
}

/// Compiles jobs `(compiler, source, object)` on two threads; returns the failed ones with
/// their output.
fn compile_all(t: &Target, jobs: &[(Cc, PathBuf, PathBuf)]) -> Vec<(usize, String)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failed = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((cc, src, obj)) = jobs.get(i) else {
                    break;
                };
                let (ok, out) = run_limited(cc.command(t, src, obj), Duration::from_secs(300));
                if !ok {
                    failed.lock().unwrap().push((i, out));
                }
            });
        }
    });
    let mut f = failed.into_inner().unwrap();
    f.sort_by_key(|x| x.0);
    f
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join("\n")
}

impl Run {
    fn batch_cases(&self, batch: &[usize]) -> Vec<(usize, &Case)> {
        batch.iter().map(|&k| (k, &self.cases[k])).collect()
    }

    /// The compile jobs of one batch: callee and caller, each with gcc and with neverc.
    fn write_batch(&self, b: usize, batch: &[usize]) -> Vec<(Cc, PathBuf, PathBuf)> {
        let cs = self.batch_cases(batch);
        let callee = self.dir.join(format!("callee{b}.c"));
        let caller = self.dir.join(format!("caller{b}.c"));
        std::fs::write(&callee, emit::callee(&self.gen, &cs)).unwrap();
        std::fs::write(&caller, emit::caller(&self.gen, &cs)).unwrap();
        let nc = Cc::Neverc(if b.is_multiple_of(2) { "-O1" } else { "-O0" });
        vec![
            (
                Cc::Gcc,
                callee.clone(),
                self.dir.join(format!("callee{b}.gcc.o")),
            ),
            (nc, callee, self.dir.join(format!("callee{b}.nc.o"))),
            (
                Cc::Gcc,
                caller.clone(),
                self.dir.join(format!("caller{b}.gcc.o")),
            ),
            (nc, caller, self.dir.join(format!("caller{b}.nc.o"))),
        ]
    }

    /// Signatures of `batch` that `cc` cannot compile in the role `callee` or caller,
    /// found one by one.
    fn culprits(&self, batch: &[usize], cc: Cc, callee: bool) -> Vec<(usize, String)> {
        let jobs: Vec<(Cc, PathBuf, PathBuf)> = batch
            .iter()
            .map(|&k| {
                let cs = self.batch_cases(&[k]);
                let src = self.dir.join(format!("one{k}.c"));
                let text = if callee {
                    emit::callee(&self.gen, &cs)
                } else {
                    emit::caller(&self.gen, &cs)
                };
                std::fs::write(&src, text).unwrap();
                (cc, src, self.dir.join(format!("one{k}.o")))
            })
            .collect();
        compile_all(self.target, &jobs)
            .into_iter()
            .map(|(i, out)| (batch[i], first_lines(&out, 3)))
            .collect()
    }

    /// Builds and runs both directions; returns the failures.
    fn check(&self) -> Vec<Failure> {
        let mut failures = Vec::new();
        let mut batches: Vec<Vec<usize>> = (0..self.cases.len())
            .collect::<Vec<_>>()
            .chunks(PER_FILE)
            .map(|c| c.to_vec())
            .collect();
        // Compile; a batch that does not compile is split to find the signatures at
        // fault, which are reported and left out.
        let mut jobs = Vec::new();
        for (b, batch) in batches.iter().enumerate() {
            jobs.extend(self.write_batch(b, batch));
        }
        let mut bad = compile_all(self.target, &jobs);
        while !bad.is_empty() {
            let mut redo = BTreeSet::new();
            for (j, out) in &bad {
                let b = j / 4;
                if redo.contains(&b) {
                    // Already reduced in this round: recompiled below.
                    continue;
                }
                let (cc, callee) = (jobs[*j].0, j % 4 < 2);
                let role = if callee { "callee" } else { "caller" };
                let found = self.culprits(&batches[b], cc, callee);
                if found.is_empty() {
                    panic!(
                        "{} failed on batch {b} ({role}), but on no signature alone:\n{}",
                        cc.name(),
                        first_lines(out, 20)
                    );
                }
                for (k, msg) in found {
                    failures.push(Failure {
                        sig: k,
                        direction: format!("{} as {role}", cc.name()),
                        what: format!("does not compile: {msg}"),
                    });
                    batches[b].retain(|&x| x != k);
                }
                redo.insert(b);
            }
            let redo_jobs: Vec<_> = redo
                .iter()
                .flat_map(|&b| self.write_batch(b, &batches[b]))
                .collect();
            bad = compile_all(self.target, &redo_jobs)
                .into_iter()
                .map(|(i, o)| {
                    let b = *redo.iter().nth(i / 4).unwrap();
                    (b * 4 + i % 4, o)
                })
                .collect();
        }
        let order: Vec<usize> = batches.iter().flatten().copied().collect();
        let arch = self.target.arch();
        std::fs::write(self.dir.join("rt.c"), emit::rt(&order, arch)).unwrap();
        let (ok, out) = run_limited(
            {
                let mut c = self.target.gcc(&["-O1", "-w", "-c"]);
                c.arg(self.dir.join("rt.c"))
                    .arg("-o")
                    .arg(self.dir.join("rt.o"));
                c
            },
            Duration::from_secs(120),
        );
        assert!(ok, "gcc failed on rt.c:\n{out}");
        for (name, callee, caller) in [
            ("callee gcc, caller neverc", "gcc", "nc"),
            ("callee neverc, caller gcc", "nc", "gcc"),
        ] {
            let exe = self.dir.join(format!("t-{callee}-{caller}"));
            let mut link = self.target.gcc(&[]);
            link.arg("-o").arg(&exe).arg(self.dir.join("rt.o"));
            for b in 0..batches.len() {
                link.arg(self.dir.join(format!("callee{b}.{callee}.o")));
                link.arg(self.dir.join(format!("caller{b}.{caller}.o")));
            }
            let (ok, out) = run_limited(link, Duration::from_secs(120));
            assert!(ok, "linking {name} failed:\n{}", first_lines(&out, 30));
            failures.extend(self.execute(&exe, name, &order, &batches));
        }
        failures
    }

    /// Runs a program from the start, and after a crash from the next signature on.
    fn execute(
        &self,
        exe: &Path,
        name: &str,
        order: &[usize],
        batches: &[Vec<usize>],
    ) -> Vec<Failure> {
        let opt_of = |k: usize| {
            let b = batches.iter().position(|b| b.contains(&k)).unwrap_or(0);
            if b.is_multiple_of(2) {
                "-O1"
            } else {
                "-O0"
            }
        };
        let direction = |k: usize| format!("{name} (neverc {})", opt_of(k));
        let mut failures = Vec::new();
        let mut from = 0;
        loop {
            let mut cmd = self.target.run(exe);
            cmd.arg(from.to_string());
            let (_, out) = run_limited(cmd, Duration::from_secs(90));
            let mut done = false;
            let mut crashed = None;
            for line in out.lines() {
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    ["MISMATCH", k, rest @ ..] => {
                        let k: usize = k.parse().unwrap();
                        let what = match rest {
                            ["-1", r @ ..] => format!("result {}", r.join(" ")),
                            [a, r @ ..] if a.parse::<usize>().is_ok() => {
                                format!("argument {a} {}", r.join(" "))
                            }
                            r => r.join(" "),
                        };
                        failures.push(Failure {
                            sig: k,
                            direction: direction(k),
                            what,
                        });
                    }
                    ["CRASH", k, s] => crashed = Some((k.parse::<i64>().unwrap(), s.to_string())),
                    ["DONE"] => done = true,
                    _ => {}
                }
            }
            if done {
                break;
            }
            let Some((k, signal)) = crashed else {
                failures.push(Failure {
                    sig: order.get(from).copied().unwrap_or(0),
                    direction: name.into(),
                    what: format!(
                        "the program stopped without a report after position {from}:\n{}",
                        first_lines(&out, 10)
                    ),
                });
                break;
            };
            let Some(pos) = order.iter().position(|&x| x as i64 == k) else {
                panic!("{name}: crash (signal {signal}) outside the calls:\n{out}");
            };
            failures.push(Failure {
                sig: k as usize,
                direction: direction(k as usize),
                what: format!("crash, signal {signal}"),
            });
            from = pos + 1;
            if from >= order.len() {
                break;
            }
        }
        failures
    }

    /// A directory holding a minimal reproducer of signature `k`.
    fn reproducer(&self, k: usize) -> PathBuf {
        let d = self.dir.join(format!("repro{k}"));
        std::fs::create_dir_all(&d).unwrap();
        let cs = self.batch_cases(&[k]);
        std::fs::write(d.join("callee.c"), emit::callee(&self.gen, &cs)).unwrap();
        std::fs::write(d.join("caller.c"), emit::caller(&self.gen, &cs)).unwrap();
        std::fs::write(d.join("rt.c"), emit::rt(&[k], self.target.arch())).unwrap();
        let t = self.target;
        let (gcc, nc) = (t.gcc, format!("{NEVERC} {}", t.neverc_args.join(" ")));
        let (t1, t2) = (t.run_text("./t1"), t.run_text("./t2"));
        std::fs::write(
            d.join("build.sh"),
            format!(
                "#!/bin/sh\n# callee by gcc, caller by neverc, then the reverse\nset -x\n\
                 {gcc} -O1 -w -c rt.c\n\
                 {gcc} -O1 -w -c callee.c -o callee.gcc.o && {nc} -O1 -c caller.c -o caller.nc.o && \
                 {gcc} rt.o callee.gcc.o caller.nc.o -o t1 && {t1}\n\
                 {nc} -O1 -c callee.c -o callee.nc.o && {gcc} -O1 -w -c caller.c -o caller.gcc.o && \
                 {gcc} rt.o callee.nc.o caller.gcc.o -o t2 && {t2}\n"
            ),
        )
        .unwrap();
        d
    }
}

fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// Whether the target's compiler and emulator run; if not, why.
fn missing_tools(t: &Target) -> Option<&'static str> {
    let works = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !works(t.gcc) {
        return Some(t.gcc);
    }
    t.runner.first().copied().filter(|r| !works(r))
}

fn check(target: &'static Target, default_count: usize) {
    if let Some(tool) = missing_tools(target) {
        eprintln!(
            "abi_two_compilers ({}): {tool} missing, test skipped",
            target.triple
        );
        return;
    }
    let count = env_num("NEVERC_ABI2_CASES").map_or(default_count, |n| n as usize);
    let seed = env_num("NEVERC_ABI2_SEED").unwrap_or(1);
    let all = std::env::var("NEVERC_ABI2_ALL").is_ok_and(|v| v == "1");
    let start = Instant::now();
    let run = new_run(target, count, seed, all);
    let generated = start.elapsed().as_secs_f64();
    let failures = run.check();
    let _ = run.m;
    let mut by_sig: BTreeMap<usize, Vec<&Failure>> = BTreeMap::new();
    for f in &failures {
        by_sig.entry(f.sig).or_default().push(f);
    }
    let excl: Vec<String> = run
        .excluded
        .iter()
        .map(|(f, n)| format!("{n} for {f}"))
        .collect();
    eprintln!(
        "abi_two_compilers ({}): seed {seed}, {count} signatures per direction (2 directions), \
         {} failing, excluded while generating: {}; {:.1} s ({generated:.1} s generating)",
        target.triple,
        by_sig.len(),
        if excl.is_empty() {
            "none".into()
        } else {
            excl.join(", ")
        },
        start.elapsed().as_secs_f64()
    );
    let keep = std::env::var("NEVERC_ABI2_KEEP").is_ok_and(|v| v == "1");
    if by_sig.is_empty() {
        if !keep {
            let _ = std::fs::remove_dir_all(&run.dir);
        }
        return;
    }
    // Which kinds the failing signatures share, to name the bug.
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for k in by_sig.keys() {
        for t in &run.cases[*k].tags {
            *kinds.entry(t.as_str()).or_insert(0) += 1;
        }
    }
    let mut msg = format!(
        "{}: {} of {count} signatures fail (seed {seed}); kinds among them (count): {}\n",
        target.triple,
        by_sig.len(),
        kinds
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let shown = env_num("NEVERC_ABI2_SHOW").unwrap_or(6) as usize;
    for (k, fs) in by_sig.iter().take(shown) {
        let case = &run.cases[*k];
        let _ = writeln!(
            msg,
            "--- signature {k} [{}]",
            case.tags.iter().cloned().collect::<Vec<_>>().join(" ")
        );
        for f in fs {
            let _ = writeln!(msg, "  {}: {}", f.direction, f.what);
        }
        let _ = writeln!(
            msg,
            "{}{}\nplan: {}\nreproducer: {}",
            run.gen.closure_of(case.deps.iter().map(String::as_str)),
            emit::declaration(case, *k),
            case.plan,
            run.reproducer(*k).display()
        );
    }
    if by_sig.len() > shown {
        let rest: Vec<String> = by_sig.keys().skip(shown).map(|k| k.to_string()).collect();
        let _ = writeln!(msg, "also failing: {}", rest.join(" "));
    }
    panic!("{msg}");
}

/// x86-64: 1,000 signatures per direction (or `NEVERC_ABI2_CASES`), seed 1 (or
/// `NEVERC_ABI2_SEED`).
#[test]
fn abi_gcc_and_neverc_agree() {
    check(&X86_64, 1000);
}

/// x86-64: 10,000 signatures per direction:
/// `cargo test -p neverc --test abi_two_compilers abi_gcc_and_neverc_agree_full -- --ignored`.
#[test]
#[ignore = "10,000 signatures per direction take minutes; run with --ignored"]
fn abi_gcc_and_neverc_agree_full() {
    check(&X86_64, 10_000);
}

/// AArch64 against aarch64-linux-gnu-gcc under qemu-aarch64: 600 signatures per direction
/// (or `NEVERC_ABI2_CASES`), seed 1 (or `NEVERC_ABI2_SEED`).
#[test]
fn abi_aarch64_gcc_and_neverc_agree() {
    check(&AARCH64, 600);
}

/// AArch64: 10,000 signatures per direction:
/// `cargo test -p neverc --test abi_two_compilers abi_aarch64_gcc_and_neverc_agree_full -- --ignored`
/// (with `NEVERC_ABI2_SEED=2` for the second seed).
#[test]
#[ignore = "10,000 signatures per direction take minutes; run with --ignored"]
fn abi_aarch64_gcc_and_neverc_agree_full() {
    check(&AARCH64, 10_000);
}
