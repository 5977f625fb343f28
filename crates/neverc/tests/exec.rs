//! The execution test corpus: every `tests/exec/**/*.c` at the repository
//! root is compiled with neverc at `-O0` and at `-O1`, run, and its standard
//! output compared exactly with the `.expected` file beside it; the program
//! must also exit with status 0. Every compilation runs regalloc2's checker on its
//! register allocations (`NEVERC_CHECK_REGALLOC=1`).
//!
//! * The program's leading `//` comment lines may hold directives: `// link: -lm ...`
//!   adds flags to the command line; `// target: x86_64` (or `aarch64`, or both) runs the
//!   program only for the targets named (x86 inline asm, x87 specifics: not a known
//!   failure elsewhere, just not that target's test).
//! * The expected output is `NAME.expected`; where the C result is implementation-defined
//!   and the target's differs (plain `char` is unsigned on AArch64, `long double` is
//!   binary128 there), `NAME.aarch64.expected` holds the aarch64 corpus's expectation
//!   (written by `tests/exec/gen/expect.py --target=aarch64` from aarch64-linux-gnu-gcc's
//!   output, which must differ from `NAME.expected`).
//! * `NEVERC_EXEC_FILTER=substring` runs only the files whose path (relative
//!   to `tests/exec`) contains the substring.
//! * `NEVERC_EXEC_CC=gcc` compiles with another compiler instead of neverc
//!   (to check the corpus itself: with gcc every case must pass).
//! * `NEVERC_EXEC_JOBS=N` sets the number of worker threads (default 2).
//! * `tests/exec/known-failures.txt` lists cases, one `path opt` per line
//!   (`opt` is `-O0` or `-O1`; `#` starts a comment, e.g. the reason). A
//!   listed case is expected to fail; the test fails on every unlisted
//!   failure AND on every listed case that now passes, so the list only
//!   shrinks.
//!
//! * `execution_corpus_aarch64` runs the same corpus compiled with
//!   `--target=aarch64-linux-gnu` (linked by `aarch64-linux-gnu-gcc`) under
//!   `qemu-aarch64 -L /usr/aarch64-linux-gnu`, against
//!   `tests/exec/known-failures-aarch64.txt`; it is skipped with a message when
//!   the cross tools are missing. It prints how many cases pass at each level.
//!
//! All failures are collected and reported together in one panic message.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const OPT_LEVELS: [&str; 2] = ["-O0", "-O1"];
const RUN_TIMEOUT: Duration = Duration::from_secs(10);
const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// A case's index and its outcome (an error text on failure).
type CaseResult = (usize, Result<(), String>);
fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/exec")
}

/// Every `.c` file under `dir`, as paths relative to `root` with `/`
/// separators, sorted.
fn find_c_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            find_c_files(root, &p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            let rel = p.strip_prefix(root).unwrap();
            let rel: Vec<_> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(rel.join("/"));
        }
    }
}

/// The words of a `// key: ...` directive among the program's leading `//` comment lines.
fn directive(source: &str, key: &str) -> Option<Vec<String>> {
    for line in source.lines() {
        let Some(comment) = line.trim().strip_prefix("//") else {
            break;
        };
        if let Some(rest) = comment.trim_start().strip_prefix(key) {
            if let Some(words) = rest.strip_prefix(':') {
                return Some(words.split_whitespace().map(str::to_owned).collect());
            }
        }
    }
    None
}

/// Flags from a `// link: ...` directive.
fn link_flags(source: &str) -> Vec<String> {
    directive(source, "link").unwrap_or_default()
}

/// Whether a program runs for `target` (no `// target:` directive: every target).
fn runs_on(source: &str, target: &str) -> bool {
    directive(source, "target").is_none_or(|t| t.iter().any(|w| w == target))
}

/// `(path, opt)` pairs from the known-failures file.
fn parse_known_failures(text: &str) -> Result<BTreeSet<(String, String)>, String> {
    let mut set = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [path, opt] = words[..] else {
            return Err(format!(
                "known-failures.txt:{}: expected `path opt`, got `{line}`",
                i + 1
            ));
        };
        let opt = if opt.starts_with('-') {
            opt.to_owned()
        } else {
            format!("-{opt}")
        };
        if !OPT_LEVELS.contains(&opt.as_str()) {
            return Err(format!(
                "known-failures.txt:{}: opt must be one of {OPT_LEVELS:?}, got `{opt}`",
                i + 1
            ));
        }
        set.insert((path.to_owned(), opt));
    }
    Ok(set)
}

enum Waited {
    Exited(std::process::ExitStatus),
    TimedOut,
}

fn wait_with_timeout(child: &mut std::process::Child, limit: Duration) -> Waited {
    let start = Instant::now();
    let mut nap = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            return Waited::Exited(status);
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return Waited::TimedOut;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    format!("{status}")
}

/// First differing line between expected and actual output.
fn first_difference(expected: &str, got: &str) -> String {
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let g: Vec<&str> = got.split_inclusive('\n').collect();
    for i in 0..e.len().max(g.len()) {
        let (a, b) = (e.get(i), g.get(i));
        if a != b {
            let show = |x: Option<&&str>| match x {
                Some(s) => format!("{:?}", s),
                None => "<end of output>".to_owned(),
            };
            return format!(
                "stdout differs at line {}: expected {}, got {}",
                i + 1,
                show(a),
                show(b)
            );
        }
    }
    "stdout differs".to_owned()
}

struct Case {
    rel: String,
    opt: &'static str,
}

/// How cases are built and run: the target's name in `// target:` directives and
/// `NAME.TARGET.expected` files, extra compiler arguments (`--target=...`) and a command
/// prefix for running the program (an emulator).
#[derive(Clone)]
struct Setup {
    target: &'static str,
    cc_args: Vec<String>,
    runner: Vec<String>,
}

/// Compiles and runs one case; `Ok(())` when it passes, else what went wrong.
fn run_case(
    cc: &Path,
    setup: &Setup,
    root: &Path,
    tmp: &Path,
    index: usize,
    case: &Case,
) -> Result<(), String> {
    let src = root.join(&case.rel);
    let source = fs::read_to_string(&src).map_err(|e| format!("cannot read source: {e}"))?;
    let own = src.with_extension(format!("{}.expected", setup.target));
    let expected_path = if own.exists() {
        own
    } else {
        src.with_extension("expected")
    };
    let expected = fs::read_to_string(&expected_path)
        .map_err(|e| format!("cannot read {}: {e}", expected_path.display()))?;
    let exe = tmp.join(format!("t{index}{}", case.opt));
    let _ = fs::remove_file(&exe);

    // Compile.
    let cstderr_path = tmp.join(format!("t{index}{}.cc-stderr", case.opt));
    let cstderr = fs::File::create(&cstderr_path).unwrap();
    let mut child = Command::new(cc)
        // regalloc2's checker on every register allocation (neverc only reads this).
        .env("NEVERC_CHECK_REGALLOC", "1")
        .args(&setup.cc_args)
        .arg(case.opt)
        .arg("-w")
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .args(link_flags(&source))
        .stdin(Stdio::null())
        .stdout(cstderr.try_clone().unwrap())
        .stderr(cstderr)
        .spawn()
        .map_err(|e| format!("cannot start compiler {}: {e}", cc.display()))?;
    let status = match wait_with_timeout(&mut child, COMPILE_TIMEOUT) {
        Waited::TimedOut => return Err(format!("compiler timed out after {COMPILE_TIMEOUT:?}")),
        Waited::Exited(s) => s,
    };
    let messages = fs::read_to_string(&cstderr_path).unwrap_or_default();
    let _ = fs::remove_file(&cstderr_path);
    if !status.success() || !exe.exists() {
        let first: Vec<&str> = messages.lines().take(3).collect();
        return Err(format!(
            "compile failed ({}):\n      {}",
            describe_status(status),
            first.join("\n      ")
        ));
    }

    // Run, stdout to a file (no pipe to drain while polling for the timeout).
    let out_path = tmp.join(format!("t{index}{}.stdout", case.opt));
    let out_file = fs::File::create(&out_path).unwrap();
    let mut run = match setup.runner.split_first() {
        Some((prog, args)) => {
            let mut c = Command::new(prog);
            c.args(args).arg(&exe);
            c
        }
        None => Command::new(&exe),
    };
    let mut child = run
        .current_dir(tmp)
        .stdin(Stdio::null())
        .stdout(out_file)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run the compiled program: {e}"))?;
    let waited = wait_with_timeout(&mut child, RUN_TIMEOUT);
    let got_bytes = fs::read(&out_path).unwrap_or_default();
    let _ = fs::remove_file(&out_path);
    let _ = fs::remove_file(&exe);
    let got = String::from_utf8_lossy(&got_bytes);
    let status = match waited {
        Waited::TimedOut => return Err(format!("program timed out after {RUN_TIMEOUT:?}")),
        Waited::Exited(s) => s,
    };
    let mut problems = Vec::new();
    if status.code() != Some(0) {
        problems.push(format!(
            "{} (expected exit status 0)",
            describe_status(status)
        ));
    }
    if got != expected {
        problems.push(first_difference(&expected, &got));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[test]
fn execution_corpus() {
    let setup = Setup {
        target: "x86_64",
        cc_args: Vec::new(),
        runner: Vec::new(),
    };
    run_corpus(&setup, "known-failures.txt", "exec");
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

#[test]
fn execution_corpus_aarch64() {
    if !have("qemu-aarch64") || !have("aarch64-linux-gnu-gcc") {
        eprintln!("exec (aarch64): qemu-aarch64 or aarch64-linux-gnu-gcc not found; skipping (scripts/setup.sh installs them)");
        return;
    }
    let setup = Setup {
        target: "aarch64",
        cc_args: vec!["--target=aarch64-linux-gnu".into()],
        runner: vec![
            "qemu-aarch64".into(),
            "-L".into(),
            "/usr/aarch64-linux-gnu".into(),
        ],
    };
    run_corpus(&setup, "known-failures-aarch64.txt", "exec-aarch64");
}

fn run_corpus(setup: &Setup, known_name: &str, tag: &str) {
    // Another compiler (the target's gcc, to check what the corpus expects of the target)
    // takes no --target.
    let other_cc = std::env::var_os("NEVERC_EXEC_CC").is_some_and(|c| !c.is_empty());
    let setup = &Setup {
        target: setup.target,
        cc_args: if other_cc {
            Vec::new()
        } else {
            setup.cc_args.clone()
        },
        runner: setup.runner.clone(),
    };
    let root = corpus_root();
    let root = root.canonicalize().unwrap_or(root);
    let filter = std::env::var("NEVERC_EXEC_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let cc: PathBuf = match std::env::var_os("NEVERC_EXEC_CC") {
        Some(c) if !c.is_empty() => PathBuf::from(c),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_neverc")),
    };
    let jobs: usize = std::env::var("NEVERC_EXEC_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .filter(|&j| j > 0)
        .unwrap_or(2);

    let mut files = Vec::new();
    find_c_files(&root, &root, &mut files);
    let all_files: BTreeSet<String> = files.iter().cloned().collect();
    let mut report = String::new();
    // This target's programs; a per-target expectation must differ from the common one.
    let mut other_target = BTreeSet::new();
    files.retain(|rel| {
        let source = fs::read_to_string(root.join(rel)).unwrap_or_default();
        if !runs_on(&source, setup.target) {
            other_target.insert(rel.clone());
            return false;
        }
        let own = root
            .join(rel)
            .with_extension(format!("{}.expected", setup.target));
        if let Ok(text) = fs::read(&own) {
            if fs::read(root.join(rel).with_extension("expected")).is_ok_and(|c| c == text) {
                let _ = writeln!(
                    report,
                    "{} is the same as the common .expected: remove it",
                    own.display()
                );
            }
        }
        true
    });
    if let Some(f) = &filter {
        files.retain(|p| p.contains(f.as_str()));
    }

    let known_text = fs::read_to_string(root.join(known_name)).unwrap_or_default();
    let known = parse_known_failures(&known_text).unwrap_or_else(|e| panic!("{e}"));
    for (path, opt) in &known {
        if !all_files.contains(path) {
            let _ = writeln!(
                report,
                "{known_name} lists {path} {opt}, but there is no such test file"
            );
        } else if other_target.contains(path) {
            let _ = writeln!(
                report,
                "{known_name} lists {path} {opt}, but its `// target:` directive excludes {}",
                setup.target
            );
        }
    }

    let cases: Vec<Case> = files
        .iter()
        .flat_map(|rel| {
            OPT_LEVELS.iter().map(move |opt| Case {
                rel: rel.clone(),
                opt,
            })
        })
        .collect();
    if cases.is_empty() {
        assert!(
            filter.is_some(),
            "no test programs found under {}",
            root.display()
        );
        eprintln!("exec: no test file matches NEVERC_EXEC_FILTER={filter:?}");
        return;
    }

    let tmp = std::env::temp_dir().join(format!("neverc-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).unwrap();

    let cases = Arc::new(cases);
    let next = Arc::new(AtomicUsize::new(0));
    let results: Arc<Mutex<Vec<CaseResult>>> = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..jobs.min(cases.len()))
        .map(|_| {
            let (cases, next, results) = (cases.clone(), next.clone(), results.clone());
            let (cc, root, tmp) = (cc.clone(), root.clone(), tmp.clone());
            let setup = setup.clone();
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(i) else { break };
                let r = run_case(&cc, &setup, &root, &tmp, i, case);
                results.lock().unwrap().push((i, r));
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker thread");
    }
    let _ = fs::remove_dir_all(&tmp);

    let mut results = std::mem::take(&mut *results.lock().unwrap());
    results.sort_by_key(|(i, _)| *i);
    let (mut passed, mut failed, mut expected_failures, mut fixed) = (0, 0, 0, 0);
    let mut passing: Vec<usize> = vec![0; OPT_LEVELS.len()];
    for (i, r) in &results {
        let case = &cases[*i];
        let listed = known.contains(&(case.rel.clone(), case.opt.to_owned()));
        if r.is_ok() {
            passing[OPT_LEVELS.iter().position(|o| *o == case.opt).unwrap()] += 1;
        }
        match (r, listed) {
            (Ok(()), false) => passed += 1,
            (Err(_), true) => expected_failures += 1,
            (Ok(()), true) => {
                fixed += 1;
                let _ = writeln!(
                    report,
                    "{} {}: passes now; remove it from tests/exec/{known_name}",
                    case.rel, case.opt
                );
            }
            (Err(why), false) => {
                failed += 1;
                let _ = writeln!(report, "{} {}: {why}", case.rel, case.opt);
            }
        }
    }
    let per_level: Vec<String> = OPT_LEVELS
        .iter()
        .zip(&passing)
        .map(|(o, n)| format!("{n} of {} pass at {o}", files.len()))
        .collect();
    let summary = format!(
        "{tag} corpus with {} {}: {} cases, {passed} passed, {failed} failed, {expected_failures} known failures, {fixed} known failures now passing ({})",
        cc.display(),
        setup.cc_args.join(" "),
        results.len(),
        per_level.join(", ")
    );
    eprintln!("{summary}");
    if !report.is_empty() {
        panic!("{summary}\n{report}");
    }
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn known_failures_parse() {
        let k = parse_known_failures("# header\n\nint/a.c -O1  # wrong\nb/c.c O0\n").unwrap();
        assert!(k.contains(&("int/a.c".to_owned(), "-O1".to_owned())));
        assert!(k.contains(&("b/c.c".to_owned(), "-O0".to_owned())));
        assert_eq!(k.len(), 2);
        assert!(parse_known_failures("x.c\n").is_err());
        assert!(parse_known_failures("x.c -O3\n").is_err());
    }

    #[test]
    fn link_comment() {
        assert_eq!(link_flags("// link: -lm\nint main(){}"), vec!["-lm"]);
        assert!(link_flags("int main(){}\n// link: -lm").is_empty());
        assert_eq!(
            link_flags("// target: x86_64\n// link: -lm -lc\nint main(){}"),
            vec!["-lm", "-lc"]
        );
    }

    #[test]
    fn target_directive() {
        let x86 = "// target: x86_64\n/* x87 */\nint main(){}";
        assert!(runs_on(x86, "x86_64"));
        assert!(!runs_on(x86, "aarch64"));
        assert!(runs_on("int main(){}", "aarch64"));
        assert!(runs_on("// target: aarch64 x86_64\n", "aarch64"));
        // Only the leading comment lines are directives.
        assert!(runs_on("int x;\n// target: x86_64\n", "aarch64"));
    }

    #[test]
    fn difference_names_the_line() {
        assert_eq!(
            first_difference("a\nb\n", "a\nc\n"),
            "stdout differs at line 2: expected \"b\\n\", got \"c\\n\""
        );
        assert_eq!(
            first_difference("a\n", "a\nx\n"),
            "stdout differs at line 2: expected <end of output>, got \"x\\n\""
        );
    }
}
