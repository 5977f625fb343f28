//! Mixed objects: hand-written multi-file programs (`tests/mixed/<program>/`) where some
//! files are compiled by neverc and others by gcc, linked together and run; the output
//! must equal `expected.txt` exactly and the exit status be 0.
//!
//! Each program's `build.txt` says how it is built (`#` starts a comment):
//!
//! * `kind exe` with `files a.c b.c ...`: one program; every assignment of the files to
//!   the two compilers is built (with 3 files, 8 builds, including all-gcc and
//!   all-neverc), linked alternately by gcc's driver and by neverc's.
//! * `kind static` with `lib ...` and `main ...`: the `lib` files compiled by one compiler
//!   and archived with `ar`, the `main` files compiled by the other, which links.
//! * `kind shared` with `lib ...` and `main ...`: the `lib` files built into a shared
//!   library (`-shared -fPIC`) by one compiler, `main` by the other, which links.
//! * `link ...`: flags added to every link.
//!
//! neverc compiles at `-O1` or `-O0` (for `exe`, by the parity of the number of files it
//! compiles, so that each file meets both levels; libraries are built at both levels).
//!
//! `tests/mixed/known-failures.txt` lists builds expected to fail (`program
//! config-substring`, each naming its finding in `tests/abi-two/FINDINGS.md`); the test
//! fails on every other failure and on every listed build that passes. All failures are
//! collected and reported together. If gcc is missing the test is skipped.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const NEVERC: &str = env!("CARGO_BIN_EXE_neverc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/mixed")
}

#[derive(Default)]
struct Spec {
    kind: String,
    files: Vec<String>,
    lib: Vec<String>,
    main: Vec<String>,
    link: Vec<String>,
}

fn parse(text: &str) -> Spec {
    let mut s = Spec::default();
    for line in text.lines() {
        let line = line.split('#').next().unwrap().trim();
        let mut words = line.split_whitespace().map(str::to_string);
        let Some(key) = words.next() else { continue };
        let rest: Vec<String> = words.collect();
        match key.as_str() {
            "kind" => s.kind = rest.join(" "),
            "files" => s.files = rest,
            "lib" => s.lib = rest,
            "main" => s.main = rest,
            "link" => s.link = rest,
            other => panic!("build.txt: unknown key {other}"),
        }
    }
    s
}

#[derive(Clone, Copy, PartialEq)]
enum Cc {
    Gcc,
    Neverc,
}

impl Cc {
    fn exe(self) -> &'static str {
        match self {
            Cc::Gcc => "gcc",
            Cc::Neverc => NEVERC,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Cc::Gcc => "gcc",
            Cc::Neverc => "neverc",
        }
    }
}

/// Runs a command; an error carries the command line and its output.
fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}{}",
            out.status,
            text.lines().take(20).collect::<Vec<_>>().join("\n"),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .take(20)
                .collect::<Vec<_>>()
                .join("\n")
        ));
    }
    Ok(text)
}

/// `(program, substring)` of the builds expected to fail.
fn known_failures() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("known-failures.txt")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let l = l.split('#').next().unwrap();
            let mut w = l.split_whitespace();
            Some((w.next()?.to_string(), w.next()?.to_string()))
        })
        .collect()
}

struct Build<'a> {
    src: &'a Path,
    dir: PathBuf,
    opt: &'static str,
}

impl Build<'_> {
    /// Compiles `file` with `cc` to an object; `pic` adds `-fPIC`.
    fn compile(&self, cc: Cc, file: &str, pic: bool) -> Result<PathBuf, String> {
        let obj = self.dir.join(format!("{file}.{}.o", cc.name()));
        let mut c = Command::new(cc.exe());
        match cc {
            Cc::Gcc => c.args(["-O1", "-w"]),
            Cc::Neverc => c.args([self.opt, "-w"]),
        };
        if pic {
            c.arg("-fPIC");
        }
        c.arg("-c").arg(self.src.join(file)).arg("-o").arg(&obj);
        run(&mut c)?;
        Ok(obj)
    }

    fn execute(&self, exe: &Path, expected: &str) -> Result<(), String> {
        let got = run(&mut Command::new(exe))?;
        if got != expected {
            let mut msg = String::from("output differs:\n");
            for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
                if g != e {
                    let _ = writeln!(msg, "  line {}: got {g:?}, expected {e:?}", i + 1);
                }
            }
            if got.lines().count() != expected.lines().count() {
                let _ = writeln!(
                    msg,
                    "  {} lines, expected {}",
                    got.lines().count(),
                    expected.lines().count()
                );
            }
            return Err(msg);
        }
        Ok(())
    }
}

/// Every build of one program; returns the failures, each named by its configuration.
fn check_program(name: &str, src: &Path, tmp: &Path) -> Vec<String> {
    let spec = parse(&std::fs::read_to_string(src.join("build.txt")).unwrap());
    let expected = std::fs::read_to_string(src.join("expected.txt")).unwrap();
    let mut failures = Vec::new();
    #[allow(clippy::type_complexity)]
    let mut configs: Vec<(
        String,
        &'static str,
        Box<dyn Fn(&Build) -> Result<PathBuf, String>>,
    )> = Vec::new();
    match spec.kind.as_str() {
        "exe" => {
            let n = spec.files.len();
            for mask in 0..1u32 << n {
                let ccs: Vec<Cc> = (0..n)
                    .map(|i| {
                        if mask >> i & 1 == 1 {
                            Cc::Neverc
                        } else {
                            Cc::Gcc
                        }
                    })
                    .collect();
                let driver = if mask.is_multiple_of(2) {
                    Cc::Gcc
                } else {
                    Cc::Neverc
                };
                let desc = spec
                    .files
                    .iter()
                    .zip(&ccs)
                    .map(|(f, c)| format!("{f}:{}", c.name()))
                    .collect::<Vec<_>>()
                    .join(" ")
                    + &format!(", linked by {}", driver.name());
                let files = spec.files.clone();
                let link = spec.link.clone();
                let opt = if mask.count_ones().is_multiple_of(2) {
                    "-O1"
                } else {
                    "-O0"
                };
                configs.push((
                    desc,
                    opt,
                    Box::new(move |b: &Build| {
                        let mut objs = Vec::new();
                        for (f, &cc) in files.iter().zip(&ccs) {
                            objs.push(b.compile(cc, f, false)?);
                        }
                        let exe = b.dir.join("prog");
                        run(Command::new(driver.exe())
                            .args(&objs)
                            .args(&link)
                            .arg("-o")
                            .arg(&exe))?;
                        Ok(exe)
                    }),
                ));
            }
        }
        "static" | "shared" => {
            let shared = spec.kind == "shared";
            for (lib_cc, main_cc, opt) in [
                (Cc::Neverc, Cc::Gcc, "-O1"),
                (Cc::Gcc, Cc::Neverc, "-O1"),
                (Cc::Neverc, Cc::Neverc, "-O1"),
                (Cc::Neverc, Cc::Gcc, "-O0"),
                (Cc::Gcc, Cc::Neverc, "-O0"),
            ] {
                let desc = format!(
                    "{} library by {}, main by {}",
                    spec.kind,
                    lib_cc.name(),
                    main_cc.name()
                );
                let (lib, main, link) = (spec.lib.clone(), spec.main.clone(), spec.link.clone());
                configs.push((
                    desc,
                    opt,
                    Box::new(move |b: &Build| {
                        let mut lib_objs = Vec::new();
                        for f in &lib {
                            lib_objs.push(b.compile(lib_cc, f, shared)?);
                        }
                        let libfile = if shared {
                            let so = b.dir.join("libmixedtest.so");
                            run(Command::new(lib_cc.exe())
                                .args(["-shared", "-fPIC"])
                                .args(&lib_objs)
                                .arg("-o")
                                .arg(&so))?;
                            so
                        } else {
                            let a = b.dir.join("libmixedtest.a");
                            let _ = std::fs::remove_file(&a);
                            run(Command::new("ar").arg("rcs").arg(&a).args(&lib_objs))?;
                            a
                        };
                        let mut main_objs = Vec::new();
                        for f in &main {
                            main_objs.push(b.compile(main_cc, f, false)?);
                        }
                        let exe = b.dir.join("prog");
                        let mut c = Command::new(main_cc.exe());
                        c.args(&main_objs);
                        if shared {
                            c.arg("-L")
                                .arg(&b.dir)
                                .arg("-lmixedtest")
                                .arg(format!("-Wl,-rpath,{}", b.dir.display()));
                        } else {
                            c.arg(&libfile);
                        }
                        run(c.args(&link).arg("-o").arg(&exe))?;
                        Ok(exe)
                    }),
                ));
            }
        }
        k => panic!("{name}/build.txt: unknown kind {k:?}"),
    }
    let known = known_failures();
    for (i, (desc, opt, build)) in configs.iter().enumerate() {
        let dir = tmp.join(format!("{name}-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        let b = Build { src, dir, opt };
        let result = build(&b).and_then(|exe| b.execute(&exe, &expected));
        let listed = known
            .iter()
            .any(|(p, sub)| p == name && desc.contains(sub.as_str()));
        match (result, listed) {
            (Ok(()), false) => eprintln!("mixed_objects: {name}: {desc} (neverc {opt}): ok"),
            (Err(e), true) => eprintln!(
                "mixed_objects: {name}: {desc} (neverc {opt}): fails as known-failures.txt says: {}",
                e.lines().next().unwrap_or("")
            ),
            (Ok(()), true) => failures.push(format!(
                "{name}: {desc} (neverc {opt}): passes, but known-failures.txt lists it (delete the line)"
            )),
            (Err(e), false) => failures.push(format!("{name}: {desc} (neverc {opt}): {e}")),
        }
    }
    failures
}

#[test]
fn mixed_gcc_and_neverc_objects() {
    if !Command::new("gcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("mixed_objects: gcc missing, test skipped");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("neverc-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("build.txt").exists())
        .collect();
    programs.sort();
    assert!(!programs.is_empty(), "no programs under tests/mixed");
    // Two programs at a time.
    let chunks: Vec<Vec<PathBuf>> = programs
        .chunks(programs.len().div_ceil(2))
        .map(<[_]>::to_vec)
        .collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                let tmp = &tmp;
                s.spawn(move || {
                    chunk
                        .iter()
                        .flat_map(|p| {
                            let name = p.file_name().unwrap().to_string_lossy().into_owned();
                            check_program(&name, p, tmp)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(
        failures.is_empty(),
        "{} mixed builds failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
