//! Answers to the questions build systems ask a compiler driver (`-dumpmachine`,
//! `-print-*`, `--version`, `--help`).

use crate::options::{Options, Query};
use crate::preprocess::{GNUC, VERSION};
use neverc_target::Target;
use std::process::Command;

/// Prints the answer to one query on standard output.
pub fn answer(q: &Query, opts: &Options, target: &Target) {
    let (maj, min, patch) = GNUC;
    match q {
        Query::DumpMachine => println!("{}", target.triple),
        // The GNU C version neverc claims, as in __GNUC__ (docs/predefined-macros.md).
        Query::DumpVersion | Query::DumpFullVersion => println!("{maj}.{min}.{patch}"),
        Query::Version => {
            println!("neverc {VERSION} (GNU C {maj}.{min}.{patch} compatible)");
            println!("Target: {}", target.triple);
            println!("This is free software; see the source for copying conditions.");
        }
        Query::Help => print!("{HELP}"),
        Query::Multiarch => println!("{}", target.multiarch.unwrap_or("")),
        Query::Sysroot => println!(
            "{}",
            opts.sysroot
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        ),
        Query::MultiOsDirectory => println!("../lib"),
        Query::MultiDirectory => println!("."),
        Query::MultiLib => println!(".;"),
        Query::ProgName(name) => println!("{}{name}", target.gnu_prefix),
        Query::FileName(name) => println!(
            "{}",
            ask_reference(target, &format!("-print-file-name={name}"))
                .unwrap_or_else(|| name.clone())
        ),
        Query::Libgcc => println!(
            "{}",
            ask_reference(target, "-print-libgcc-file-name").unwrap_or_else(|| "libgcc.a".into())
        ),
        Query::SearchDirs => {
            let exe = std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            println!("install: {exe}");
            match ask_reference_full(target, "-print-search-dirs") {
                Some(text) => {
                    for line in text.lines().filter(|l| !l.starts_with("install:")) {
                        println!("{line}");
                    }
                }
                None => {
                    println!("programs: =");
                    println!("libraries: =");
                }
            }
        }
    }
}

/// Library locations belong to the toolchain neverc links with: ask its driver.
fn ask_reference(target: &Target, flag: &str) -> Option<String> {
    ask_reference_full(target, flag).map(|s| s.trim_end().to_string())
}

fn ask_reference_full(target: &Target, flag: &str) -> Option<String> {
    let (cc, args) = target.reference_cc.split_first()?;
    let out = Command::new(cc).args(args).arg(flag).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

const HELP: &str = "\
Usage: neverc [options] file...
Options:
  -E                       Preprocess only; do not compile, assemble or link
  -P                       With -E: no line markers
  -C                       With -E: keep comments
  -dM                      With -E: print the macros defined at the end instead
  -M, -MM                  Print make dependencies (-MM: without system headers)
  -MD, -MMD                Write make dependencies as a side effect
  -MF <file>, -MT <target>, -MQ <target>, -MP, -MG
                           Dependency output file, target, quoted target, phony
                           rules for headers, missing headers as generated files
  -I <dir>, -iquote <dir>, -isystem <dir>, -idirafter <dir>
                           Add a directory to the include search path
  -include <file>, -imacros <file>
                           Process a file before the input
  -nostdinc                Do not search the system include directories
  -D <name>[=<value>], -U <name>
                           Define or undefine a macro
  -std=<standard>          c89 c99 c11 c17 c2x, or gnu89 ... gnu2x (default gnu17)
  -O0 -O1 -O2 -O3 -Os -Og  Optimisation level
  -g                       Debug information
  -w, -W<warning>, -Werror[=<warning>]
                           Warning control
  -fmax-errors=<n>, -fdiagnostics-color[=always|never|auto]
  --target=<triple>        Compile for another target (see -print-targets in docs)
  --sysroot=<dir>          Root directory for the target's headers and libraries
  -c, -S, -o <file>        Compile to an object, to assembly; name the output
  -dumpmachine, -dumpversion, -print-file-name=<lib>, -print-prog-name=<prog>,
  -print-search-dirs, -print-multiarch, -v, --version, -###, @<file>
";
