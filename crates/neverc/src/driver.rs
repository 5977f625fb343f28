//! Orchestration: from parsed options to the stages each input goes through.

use crate::deps;
use crate::info;
use crate::options::{self, Lang, Options, Stage};
use crate::preprocess;
use neverc_front::diag::{Diagnostics, Level};
use neverc_front::pp::print::{print_macros, print_preprocessed, PrintOptions};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

/// `neverc: error: ...` on standard error.
fn error(msg: &str) {
    let mut d = Diagnostics::stderr();
    d.color = color_default(None);
    d.plain(Level::Error, msg);
}

fn fatal(msg: &str) {
    let mut d = Diagnostics::stderr();
    d.color = color_default(None);
    d.plain(Level::Fatal, msg);
    eprintln!("compilation terminated.");
}

/// Colour when asked, or when standard error is a terminal (and `TERM` is not `dumb`).
fn color_default(asked: Option<bool>) -> bool {
    asked.unwrap_or_else(|| {
        std::io::stderr().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb")
    })
}

/// Runs the driver; returns the exit status.
pub fn run(args: Vec<String>) -> i32 {
    let args = options::expand_response_files(args);
    // `neverc --check-plans OBJ...`: calling convention plans across objects (issue 6).
    if args.first().is_some_and(|a| a == "--check-plans") {
        return crate::plans_check::check_files(&args[1..]);
    }
    let opts = match options::parse(&args) {
        Ok(o) => o,
        Err(e) => {
            error(&e.0);
            return 1;
        }
    };
    let target = match opts.target.as_deref() {
        Some(t) => match neverc_target::lookup(t) {
            Ok(t) => t,
            Err(e) => {
                error(&e.to_string());
                return 1;
            }
        },
        None => neverc_target::host(),
    };
    if opts.dry_run {
        for input in &opts.inputs {
            eprintln!(
                " \"neverc\" \"--target={}\" \"{}\" (stage: {:?})",
                target.triple, input.path, opts.stage
            );
        }
        return 0;
    }
    if !opts.queries.is_empty() {
        for q in &opts.queries {
            info::answer(q, &opts, target);
        }
        return 0;
    }
    if opts.verbose {
        eprintln!(
            "neverc version {} (GNU C {}.{}.{} compatible)",
            preprocess::VERSION,
            preprocess::GNUC.0,
            preprocess::GNUC.1,
            preprocess::GNUC.2
        );
        eprintln!("Target: {}", target.triple);
        if opts.inputs.is_empty() {
            return 0;
        }
    }
    if opts.inputs.is_empty() {
        fatal("no input files");
        return 1;
    }
    if opts.deps.missing_ok && !opts.deps.only {
        error("-MG may only be used with -M or -MM");
        return 1;
    }
    let compiled: Vec<_> = opts
        .inputs
        .iter()
        .filter(|i| i.lang != Lang::Object)
        .collect();
    if opts.output.is_some() && compiled.len() > 1 && opts.stage != Stage::Link {
        fatal("cannot specify '-o' with '-c', '-S' or '-E' with multiple files");
        return 1;
    }
    let resource = if opts.nostdinc {
        None
    } else {
        match crate::resource::include_dir() {
            Ok(d) => Some(d),
            Err(e) => {
                error(&e);
                return 1;
            }
        }
    };
    let opts_ref = &opts;
    if opts.print_abi || opts.print_abi_json {
        return crate::print_abi::print_abi(&opts, target, resource.as_ref());
    }
    match opts.stage {
        Stage::Preprocess => preprocess_all(&opts, target, resource.as_ref()),
        Stage::SyntaxOnly
            if !compiled
                .iter()
                .any(|i| matches!(i.lang, Lang::Asm | Lang::AsmWithCpp)) =>
        {
            syntax_only_all(&opts, target, resource.as_ref())
        }
        Stage::SyntaxOnly => {
            error("assembling .s/.S files is not supported by neverc yet");
            1
        }
        _ => crate::compile::compile_all(
            opts_ref,
            target,
            resource.as_ref(),
            color_default(opts.color),
        ),
    }
}

/// `-fsyntax-only`: preprocess and parse each input (`-fdump-ast` prints the tree).
fn syntax_only_all(
    opts: &Options,
    target: &neverc_target::Target,
    resource: Option<&PathBuf>,
) -> i32 {
    let dump = opts.fflags.iter().any(|f| f == "dump-ast");
    let dump_ir = opts.fflags.iter().any(|f| f == "dump-ir");
    let mut status = 0;
    let inputs: Vec<_> = opts
        .inputs
        .iter()
        .filter(|i| i.lang != Lang::Object)
        .collect();
    for (n, input) in inputs.iter().enumerate() {
        let (name, path, raw) = if input.path == "-" {
            let mut buf = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
                fatal(&format!("reading standard input: {e}"));
                return 1;
            }
            ("<stdin>".to_string(), None, buf)
        } else {
            match std::fs::read(&input.path) {
                Ok(b) => (input.path.clone(), Some(PathBuf::from(&input.path)), b),
                Err(e) => {
                    error(&format!(
                        "{}: {}",
                        input.path,
                        neverc_front::pp::io_error_text(&e)
                    ));
                    status = 1;
                    continue;
                }
            }
        };
        let mut diags = Diagnostics::stderr();
        diags.color = color_default(opts.color);
        diags.max_errors = opts.max_errors;
        diags.policy = opts.warnings.clone();
        let mut pp = preprocess::make_preprocessor(opts, target, resource, &name, path, raw, diags);
        let ast = neverc_front::parse::parse(&mut pp);
        let mut typed_kept = None;
        if !pp.fatal() {
            let typed = neverc_front::sema::check_target(&ast, &mut pp, target);
            // `-fdump-ir` with `-fsyntax-only`: the IR, without code generation.
            if dump_ir && !pp.fatal() && !pp.diags.has_errors() {
                match neverc_irgen::generate(
                    &ast,
                    typed,
                    &pp.interner,
                    neverc_abi::Machine::from(target),
                    &neverc_irgen::Options::default(),
                ) {
                    Ok(m) => print!("{}", neverc_ir::print_module(&m)),
                    Err(refusals) => {
                        for r in refusals {
                            pp.report(neverc_front::diag::Diagnostic::error(r.loc, r.message));
                        }
                    }
                }
            } else {
                typed_kept = Some(typed);
            }
        }
        pp.finish();
        if dump {
            let text = neverc_front::parse::dump::dump(&ast, &pp.sm, &pp.interner);
            let mut out = std::io::stdout().lock();
            if out.write_all(text.as_bytes()).is_err() {
                return 1;
            }
        }
        if pp.diags.has_errors() || pp.fatal() {
            status = 1;
        }
        if n + 1 == inputs.len() {
            // The process ends now: freeing the tree, the tokens and the tables one block
            // at a time would only cost time (a tenth of a large input's).
            std::mem::forget(ast);
            std::mem::forget(typed_kept);
            std::mem::forget(pp);
        }
    }
    status
}

fn preprocess_all(
    opts: &Options,
    target: &neverc_target::Target,
    resource: Option<&PathBuf>,
) -> i32 {
    let mut status = 0;
    let deps_to_file = opts.deps.file.as_deref().is_some_and(|f| f != "-");
    let mut out: Box<dyn Write> = if opts.deps.only && deps_to_file && opts.output.is_none() {
        Box::new(std::io::sink())
    } else {
        match &opts.output {
            Some(path) if path != "-" => match std::fs::File::create(path) {
                Ok(f) => Box::new(std::io::BufWriter::new(f)),
                Err(e) => {
                    fatal(&format!(
                        "opening output file {path}: {}",
                        neverc_front::pp::io_error_text(&e)
                    ));
                    return 1;
                }
            },
            _ => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        }
    };
    if opts.verbose {
        print_search_list(opts, target, resource);
    }
    for input in &opts.inputs {
        match input.lang {
            Lang::Object => {
                eprintln!(
                    "neverc: warning: {}: linker input file unused because linking not done",
                    input.path
                );
                continue;
            }
            Lang::Asm => {
                eprintln!(
                    "neverc: warning: {}: assembler input file unused because preprocessing only",
                    input.path
                );
                continue;
            }
            _ => {}
        }
        let (name, path, raw) = if input.path == "-" {
            let mut buf = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
                fatal(&format!("reading standard input: {e}"));
                return 1;
            }
            ("<stdin>".to_string(), None, buf)
        } else {
            match std::fs::read(&input.path) {
                Ok(b) => (input.path.clone(), Some(PathBuf::from(&input.path)), b),
                Err(e) => {
                    error(&format!(
                        "{}: {}",
                        input.path,
                        neverc_front::pp::io_error_text(&e)
                    ));
                    fatal("no input files");
                    return 1;
                }
            }
        };
        let mut diags = Diagnostics::stderr();
        diags.color = color_default(opts.color);
        diags.max_errors = opts.max_errors;
        diags.policy = opts.warnings.clone();
        let mut pp = preprocess::make_preprocessor(opts, target, resource, &name, path, raw, diags);
        let result = if opts.dump_macros {
            print_macros(&mut pp, &mut out)
        } else if opts.deps.only {
            // Read the whole unit; only the dependencies are printed.
            print_preprocessed(
                &mut pp,
                &mut std::io::sink(),
                PrintOptions {
                    no_line_markers: true,
                },
            )
        } else {
            print_preprocessed(
                &mut pp,
                &mut out,
                PrintOptions {
                    no_line_markers: opts.no_line_markers,
                },
            )
        };
        pp.finish();
        if let Err(e) = result {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                fatal(&format!("writing output: {e}"));
            }
            return 1;
        }
        if opts.deps.wanted() && !pp.fatal() && write_deps(opts, &name, &pp, &mut out).is_err() {
            return 1;
        }
        if pp.diags.has_errors() || pp.fatal() {
            status = 1;
        }
    }
    if out.flush().is_err() {
        return 1;
    }
    status
}

/// gcc's `-v` listing of the include search path, on standard error.
fn print_search_list(opts: &Options, target: &neverc_target::Target, resource: Option<&PathBuf>) {
    let (quote, bracket) = preprocess::search_path(opts, target, resource);
    eprintln!("#include \"...\" search starts here:");
    for d in &quote {
        eprintln!(" {}", d.path.display());
    }
    eprintln!("#include <...> search starts here:");
    for d in &bracket {
        eprintln!(" {}", d.path.display());
    }
    eprintln!("End of search list.");
}

/// Writes the make rule of `-M`/`-MM`/`-MD`/`-MMD` for one input to its destination (or to
/// `out` for `-M` without `-MF`).
pub(crate) fn write_deps(
    opts: &Options,
    name: &str,
    pp: &neverc_front::pp::Preprocessor,
    out: &mut dyn Write,
) -> Result<(), ()> {
    let targets = if opts.deps.targets.is_empty() {
        let object = if opts.deps.side && opts.stage > Stage::Preprocess {
            opts.output.as_deref()
        } else {
            None
        };
        vec![deps::default_target(name, object)]
    } else {
        deps::order_targets(&opts.deps.targets)
    };
    let rule = deps::make_rule(&opts.deps, &targets, &pp.deps);
    let dest = if opts.deps.only {
        opts.deps.file.clone().or_else(|| opts.output.clone())
    } else {
        Some(
            opts.deps
                .file
                .clone()
                .unwrap_or_else(|| deps::default_dep_file(name, opts.output.as_deref())),
        )
    };
    match dest {
        Some(d) if d != "-" => {
            if let Err(e) = std::fs::write(&d, rule.as_bytes()) {
                fatal(&format!(
                    "opening dependency file {d}: {}",
                    neverc_front::pp::io_error_text(&e)
                ));
                return Err(());
            }
        }
        _ => {
            let _ = out.write_all(rule.as_bytes());
        }
    }
    Ok(())
}
