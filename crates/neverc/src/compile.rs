//! Compiling and linking: each C input through the front end, irgen and the back end to
//! assembly (`-S`) or an object (`-c`); without either, the objects are linked by the
//! system compiler driver with the link options passed through.

use crate::options::{Lang, OptLevel, Options, PicLevel, Stage};
use crate::preprocess;
use neverc_front::diag::{Diagnostic, Diagnostics};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

fn error(msg: &str) {
    eprintln!("neverc: error: {msg}");
}

/// What one C input became.
enum Product {
    Asm(String),
    Object(Vec<u8>),
}

/// Temporary files removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        let base = std::env::temp_dir();
        for n in 0..1000u32 {
            let p = base.join(format!("neverc-{}-{n}", std::process::id()));
            if std::fs::create_dir(&p).is_ok() {
                return Ok(TempDir(p));
            }
        }
        Err(std::io::Error::other("cannot create a temporary directory"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `-S`, `-c`, or a full compile and link.
pub fn compile_all(
    opts: &Options,
    target: &'static neverc_target::Target,
    resource: Option<&PathBuf>,
    color: bool,
) -> i32 {
    let supported = match target.arch {
        neverc_target::Arch::X86_64 => target.os != neverc_target::Os::Windows,
        neverc_target::Arch::AArch64 => target.os == neverc_target::Os::Linux,
        _ => false,
    };
    if !supported {
        error(&format!(
            "code generation for {} is not implemented yet (this neverc compiles for x86_64-linux-gnu and aarch64-linux-gnu)",
            target.triple
        ));
        return 1;
    }
    // Options that change the generated code in ways neverc does not implement.
    for f in [
        "instrument-functions",
        "pack-struct",
        "short-enums",
        "short-wchar",
    ] {
        if opts.fflags.iter().any(|x| x == f) {
            error(&format!(
                "-f{f} is not supported by neverc's code generation yet"
            ));
            return 1;
        }
    }
    let tmp = match TempDir::new() {
        Ok(t) => t,
        Err(e) => {
            error(&format!("{e}"));
            return 1;
        }
    };
    let mut status = 0;
    let mut link_inputs: Vec<PathBuf> = Vec::new();
    // The name each link input goes by in messages (a C file for its temporary object).
    let mut link_names: Vec<String> = Vec::new();
    for (n, input) in opts.inputs.iter().enumerate() {
        match input.lang {
            Lang::Object => {
                link_inputs.push(PathBuf::from(&input.path));
                link_names.push(input.path.clone());
                continue;
            }
            Lang::Asm | Lang::AsmWithCpp => {
                error(&format!(
                    "{}: assembling .s/.S files is not supported by neverc yet",
                    input.path
                ));
                status = 1;
                continue;
            }
            _ => {}
        }
        let last = opts.inputs[n + 1..].iter().all(|i| i.lang == Lang::Object);
        let product = match compile_one(opts, target, resource, color, &input.path, last) {
            Some(p) => p,
            None => {
                status = 1;
                continue;
            }
        };
        let stem = Path::new(&input.path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "stdin".into());
        let stem = if input.path == "-" {
            "-".to_string()
        } else {
            stem
        };
        match (opts.stage, product) {
            (Stage::Assemble, Product::Asm(text)) => {
                let out = opts.output.clone().unwrap_or(format!("{stem}.s"));
                if let Err(e) = write_out(&out, text.as_bytes()) {
                    error(&e);
                    status = 1;
                }
            }
            (Stage::Compile, Product::Object(bytes)) => {
                let out = opts.output.clone().unwrap_or(format!("{stem}.o"));
                if let Err(e) = write_out(&out, &bytes) {
                    error(&e);
                    status = 1;
                }
            }
            (_, Product::Object(bytes)) => {
                let p = tmp.0.join(format!("{n}-{stem}.o"));
                if let Err(e) = std::fs::write(&p, bytes) {
                    error(&format!("{}: {e}", p.display()));
                    status = 1;
                }
                link_inputs.push(p);
                link_names.push(input.path.clone());
            }
            (_, Product::Asm(_)) => unreachable!("assembly is produced only for -S"),
        }
    }
    if status != 0 || opts.stage != Stage::Link {
        return status;
    }
    // Every call reaching a function of another object agrees with its plan.
    let mut objects = Vec::new();
    for (p, name) in link_inputs.iter().zip(&link_names) {
        if let Some(o) = std::fs::read(p)
            .ok()
            .and_then(|b| crate::plans_check::read_object(&b))
        {
            objects.push((name.clone(), o));
        }
    }
    if crate::plans_check::report(&objects) != 0 {
        return 1;
    }
    link(opts, target, &link_inputs)
}

fn write_out(path: &str, bytes: &[u8]) -> Result<(), String> {
    if path == "-" {
        return std::io::stdout()
            .write_all(bytes)
            .map_err(|e| format!("writing standard output: {e}"));
    }
    std::fs::write(path, bytes).map_err(|e| {
        format!(
            "opening output file {path}: {}",
            neverc_front::pp::io_error_text(&e)
        )
    })
}

/// The system compiler driver links, as gcc's own driver would call `collect2`.
/// For another target than the host's architecture, the target's GNU cross driver
/// (`aarch64-linux-gnu-gcc`).
fn link(opts: &Options, target: &neverc_target::Target, objects: &[PathBuf]) -> i32 {
    let cc = std::env::var("NEVERC_LINKER").unwrap_or_else(|_| {
        if target.arch == neverc_target::Arch::X86_64 {
            "cc".into()
        } else {
            format!("{}gcc", target.gnu_prefix)
        }
    });
    let mut cmd = std::process::Command::new(&cc);
    for o in objects {
        cmd.arg(o);
    }
    cmd.args(&opts.linker_args);
    if opts.pic == PicLevel::None && !opts.linker_args.iter().any(|a| a == "-shared") {
        cmd.arg("-no-pie");
    }
    cmd.arg("-o");
    cmd.arg(opts.output.as_deref().unwrap_or("a.out"));
    match cmd.status() {
        Ok(s) if s.success() => 0,
        Ok(_) => {
            error("linker command failed");
            1
        }
        Err(e) => {
            error(&format!("cannot run the linker '{cc}': {e}"));
            1
        }
    }
}

fn read_input(path: &str) -> Result<(String, Option<PathBuf>, Vec<u8>), String> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("reading standard input: {e}"))?;
        return Ok(("<stdin>".into(), None, buf));
    }
    std::fs::read(path)
        .map(|b| (path.to_string(), Some(PathBuf::from(path)), b))
        .map_err(|e| format!("{path}: {}", neverc_front::pp::io_error_text(&e)))
}

/// Adds the plan records as a read-only object in their own section.
fn add_plan_records(module: &mut neverc_ir::Module, text: String) {
    let sym = module.symbol("__neverc_ccplans", neverc_ir::SymKind::Object);
    let s = &mut module.symbols[sym.index()];
    s.binding = neverc_ir::Binding::Local;
    s.local = true;
    s.defined = true;
    s.used = true;
    s.section = Some(crate::plans_check::SECTION.to_string());
    let bytes = text.into_bytes();
    module.data.push(neverc_ir::DataObject {
        sym,
        size: bytes.len() as u64,
        align: 1,
        bytes,
        relocs: Vec::new(),
        readonly: true,
        common: false,
        block_relocs: Vec::new(),
    });
}

/// The custom calling convention policy of the command line (`-fcallconv-*` and the
/// plugin spelling `-fplugin-arg=org.neverc.example.custom-callconv:...`), in order.
fn callconv_policy(
    opts: &Options,
    target: &neverc_target::Target,
) -> Result<neverc_abi::callconv::Policy, String> {
    let mut p = neverc_abi::callconv::Policy {
        aarch64: target.arch == neverc_target::Arch::AArch64,
        ..Default::default()
    };
    for f in &opts.fflags {
        if let Some(file) = f.strip_prefix("callconv-policy=") {
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("-fcallconv-policy={file}: {e}"))?;
            p.add_policy_file(&text)
                .map_err(|e| format!("{file}: {e}"))?;
        } else {
            p.apply(f)?;
        }
    }
    Ok(p)
}

/// One C file to assembly text or object bytes; None after errors (already reported).
fn compile_one(
    opts: &Options,
    target: &'static neverc_target::Target,
    resource: Option<&PathBuf>,
    color: bool,
    path: &str,
    last: bool,
) -> Option<Product> {
    let (name, p, raw) = match read_input(path) {
        Ok(x) => x,
        Err(e) => {
            error(&e);
            return None;
        }
    };
    let mut diags = Diagnostics::stderr();
    diags.color = color;
    diags.max_errors = opts.max_errors;
    diags.policy = opts.warnings.clone();
    let mut pp = preprocess::make_preprocessor(opts, target, resource, &name, p, raw, diags);
    let ast = neverc_front::parse::parse(&mut pp);
    if pp.fatal() || pp.diags.has_errors() {
        pp.finish();
        return None;
    }
    let typed = neverc_front::sema::check_target(&ast, &mut pp, target);
    if pp.fatal() || pp.diags.has_errors() {
        pp.finish();
        return None;
    }
    // -MD/-MMD: the make rule beside the object.
    if opts.deps.wanted()
        && crate::driver::write_deps(opts, &name, &pp, &mut std::io::stdout()).is_err()
    {
        return None;
    }
    let callconv = match callconv_policy(opts, target) {
        Ok(p) => p,
        Err(e) => {
            error(&e);
            pp.finish();
            return None;
        }
    };
    let irgen_opts = neverc_irgen::Options {
        common: opts.fflags.iter().any(|f| f == "common"),
        no_builtin: opts.fflags.iter().any(|f| f == "no-builtin"),
        gnu89_inline: opts.gnu89_inline || opts.std.version == 0,
        callconv,
        warn_return_type: opts.warnings.wants("return-type", &["all"]),
        share_constants: opts.opt_level == OptLevel::O0,
        reuse_loads: opts.opt_level == OptLevel::O0,
    };
    let be_opts = backend_options(opts);
    let dump_ir = opts.fflags.iter().any(|f| f == "dump-ir");
    let dump_plans = opts.fflags.iter().any(|f| f == "dump-cc-plans");
    // x86-64 -O0 objects: each function is compiled as soon as irgen has made it, and its IR
    // freed (the module is never whole: memory stays small and what the back end reads is
    // still in the cache). -O1 optimises the whole module; -S and the dumps print it whole.
    let (generated, warnings) = if opts.opt_level == OptLevel::O0
        && target.arch == neverc_target::Arch::X86_64
        && opts.stage != Stage::Assemble
        && !dump_ir
        && !dump_plans
    {
        compile_streaming(
            &ast,
            typed,
            &pp.interner,
            neverc_abi::Machine::from(target),
            &irgen_opts,
            &|loc| pp.is_system(loc.file),
            &be_opts,
        )
    } else {
        let (g, w) = neverc_irgen::generate_with_warnings(
            &ast,
            typed,
            &pp.interner,
            neverc_abi::Machine::from(target),
            &irgen_opts,
            &|loc| pp.is_system(loc.file),
        );
        (g.map(Generated::Module), w)
    };
    // Warnings about custom calling conventions; unknown spec segments under -Wextra.
    let extra = opts.warnings.is_enabled("extra");
    // gcc names the function before a warning found on its control flow.
    let mut shown: Option<String> = None;
    for w in warnings {
        if let (Some(f), Some(option)) = (&w.function, w.option) {
            if pp.is_system(w.loc.file) {
                continue;
            }
            if shown.as_ref() != Some(f) {
                let file = pp.sm.file(w.loc.file).presumed(w.loc.offset).1.to_string();
                pp.diags.plain_line(&format!("{file}: In function '{f}':"));
                shown = Some(f.clone());
            }
            pp.report(Diagnostic::warning(w.loc, w.message).with_option(option));
        } else if w.note {
            pp.report(Diagnostic::new(
                neverc_front::diag::Level::Note,
                Some(w.loc),
                w.message,
            ));
        } else if !w.extra || extra {
            let d = Diagnostic::warning(w.loc, w.message);
            pp.report(if w.extra { d.with_option("extra") } else { d });
        }
    }
    if pp.diags.has_errors() {
        // -Werror made a warning an error.
        pp.finish();
        return None;
    }
    let module = match generated {
        Ok(Generated::Module(m)) => m,
        Ok(Generated::Object(r)) => {
            pp.finish();
            // Freeing the syntax tree node by node (~1% of the compile) is wasted work when
            // no other unit follows to reuse its memory: the process ends soon.
            if last {
                std::mem::forget(ast);
            }
            return match r {
                Ok(object) => Some(Product::Object(object)),
                Err(e) => {
                    eprintln!("{name}: error: {}", e.message);
                    None
                }
            };
        }
        Err(refusals) => {
            for r in refusals {
                pp.report(Diagnostic::error(r.loc, r.message));
            }
            pp.finish();
            return None;
        }
    };
    pp.finish();
    // The syntax tree and the preprocessor's tables are done with: freeing them now lets the
    // back end reuse their memory instead of faulting in fresh pages.
    drop(ast);
    drop(pp);
    let mut module = module;
    if opts.opt_level == OptLevel::O0 {
        // gcc emits no unreferenced function declared inline even at -O0 (headers' `static
        // inline` functions, e.g. <sys/io.h>'s port I/O asm); plain static ones stay.
        neverc_ir::opt::remove_unreferenced_functions(&mut module, |f| f.declared_inline);
    } else {
        // Inlining, mem2reg and the scalar passes, callees first; then the functions
        // nothing refers to any more go.
        let inline_opts = neverc_ir::inline::InlineOptions {
            interposable_globals: matches!(opts.pic, PicLevel::Pic1 | PicLevel::Pic2),
        };
        neverc_ir::inline::optimise_module(&mut module, &inline_opts);
        if cfg!(debug_assertions) {
            for f in &module.functions {
                if let Err(e) = neverc_ir::verify(f) {
                    eprintln!(
                        "{name}: error: internal error: the IR of '{}' failed verification after the -O1 passes ({e})",
                        module.sym(f.sym).name
                    );
                    return None;
                }
            }
        }
    }
    if dump_ir {
        print!("{}", neverc_ir::print_module(&module));
    }
    // Every function's plan, in the text form `custom_attr("neverc-cc-plan-v1", ...)`
    // accepts back.
    if dump_plans {
        for f in &module.functions {
            println!("{}: {}", module.sym(f.sym).name, f.plan);
        }
    }
    // Custom conventions: the plans this file defines and calls, for the check at link
    // time (`plans_check`).
    if let Some(text) = crate::plans_check::records(&module) {
        add_plan_records(&mut module, text);
    }
    if target.arch == neverc_target::Arch::AArch64 {
        use neverc_isa_aarch64::backend as a64;
        let be_opts = a64::Options {
            opt_level: match opts.opt_level {
                OptLevel::O0 => 0,
                _ => 1,
            },
            pic: match opts.pic {
                PicLevel::None => a64::Pic::NoPic,
                PicLevel::Pic1 | PicLevel::Pic2 => a64::Pic::Pic,
                PicLevel::Pie1 | PicLevel::Pie2 => a64::Pic::Pie,
            },
            function_sections: opts.fflags.iter().any(|f| f == "function-sections"),
            data_sections: opts.fflags.iter().any(|f| f == "data-sections"),
            object_only: opts.stage != Stage::Assemble,
            lse: opts.march.as_deref().is_some_and(a64::march_has_lse),
        };
        return match a64::compile_module(&module, &be_opts) {
            Ok(c) => Some(if opts.stage == Stage::Assemble {
                Product::Asm(c.asm)
            } else {
                Product::Object(c.object)
            }),
            Err(e) => {
                eprintln!("{name}: error: {}", e.message);
                None
            }
        };
    }
    match neverc_isa_x86_64::backend::compile_module(&module, &be_opts) {
        Ok(c) => Some(if opts.stage == Stage::Assemble {
            Product::Asm(c.asm)
        } else {
            Product::Object(c.object)
        }),
        Err(e) => {
            eprintln!("{name}: error: {}", e.message);
            None
        }
    }
}

fn backend_options(opts: &Options) -> neverc_isa_x86_64::backend::Options {
    neverc_isa_x86_64::backend::Options {
        opt_level: match opts.opt_level {
            OptLevel::O0 => 0,
            _ => 1,
        },
        pic: match opts.pic {
            PicLevel::None => neverc_isa_x86_64::backend::Pic::NoPic,
            PicLevel::Pic1 | PicLevel::Pic2 => neverc_isa_x86_64::backend::Pic::Pic,
            PicLevel::Pie1 | PicLevel::Pie2 => neverc_isa_x86_64::backend::Pic::Pie,
        },
        omit_frame_pointer: opts.fflags.iter().any(|f| f == "omit-frame-pointer"),
        function_sections: opts.fflags.iter().any(|f| f == "function-sections"),
        data_sections: opts.fflags.iter().any(|f| f == "data-sections"),
        object_only: opts.stage != Stage::Assemble,
    }
}

/// What irgen (and, streaming, the back end too) made of the unit.
enum Generated {
    /// The whole module, for the passes and the back end.
    Module(neverc_ir::Module),
    /// Compiled function by function: the object, or the back end's error.
    Object(Result<Vec<u8>, neverc_isa_x86_64::backend::BackendError>),
}

/// What a compiled function relied on of one symbol: a later change to any of it (a rename,
/// a new attribute, a definition not foreseen) means the code may not be what the finished
/// module gives.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SymFacts {
    name_hash: u64,
    kind: neverc_ir::SymKind,
    binding: neverc_ir::Binding,
    visibility: neverc_ir::Visibility,
    local: bool,
    defined: bool,
}

impl SymFacts {
    fn of(s: &neverc_ir::SymbolData) -> SymFacts {
        // FNV-1a: only compared with itself.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in s.name.as_bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        SymFacts {
            name_hash: h,
            kind: s.kind,
            binding: s.binding,
            visibility: s.visibility,
            local: s.local,
            defined: s.defined,
        }
    }
}

/// -O0 objects one function at a time: irgen hands each function over as soon as it is
/// made, the back end compiles it and its IR is freed. At the end the functions gcc drops
/// at -O0 (unreferenced, internal, declared inline) are dropped and the rest placed in the
/// object. The bytes are those of the whole-module path: if a symbol a compiled function
/// used changed later in the unit, or a function has a custom calling convention, the
/// module is generated whole instead (and returned).
fn compile_streaming(
    ast: &neverc_front::parse::ast::Ast,
    typed: neverc_front::sema::Typed,
    interner: &neverc_front::token::Interner,
    machine: neverc_abi::Machine,
    irgen_opts: &neverc_irgen::Options,
    is_system: &dyn Fn(neverc_front::source::Loc) -> bool,
    be_opts: &neverc_isa_x86_64::backend::Options,
) -> (
    Result<Generated, Vec<neverc_irgen::Refusal>>,
    Vec<neverc_irgen::Warning>,
) {
    use neverc_isa_x86_64::backend::{FnCode, ModuleCompiler};
    struct Done {
        code: Result<FnCode, neverc_isa_x86_64::backend::BackendError>,
        refs: Vec<neverc_ir::Sym>,
        facts: Vec<SymFacts>,
    }
    let mut mc = ModuleCompiler::new(be_opts, false);
    let mut done: Vec<(neverc_ir::Sym, Done)> = Vec::new();
    // A function with a custom calling convention: the object records the plans of the
    // whole module (plans_check), so that path is taken.
    let mut custom = false;
    let mut sink = |m: &neverc_ir::Module, f: &neverc_ir::Function| {
        use neverc_abi::callconv::is_custom;
        custom |= is_custom(&f.plan) || f.plans.iter().any(is_custom);
        let mut refs = Vec::new();
        neverc_ir::opt::built_function_refs(f, &mut refs);
        let facts = refs
            .iter()
            .chain([&f.sym])
            .map(|&s| SymFacts::of(m.sym(s)))
            .collect();
        let code = mc.compile_function(m, f, done.len());
        done.push((f.sym, Done { code, refs, facts }));
    };
    let (st, warnings) = neverc_irgen::generate_streaming(
        ast, typed, interner, machine, irgen_opts, is_system, &mut sink,
    );
    let st = match st {
        Ok(st) => st,
        Err(refusals) => return (Err(refusals), warnings),
    };
    let mut module = st.module;
    let changed = done.iter().any(|(s, d)| {
        d.refs
            .iter()
            .chain([s])
            .zip(&d.facts)
            .any(|(&r, &facts)| SymFacts::of(module.sym(r)) != facts)
    });
    if changed || custom {
        drop(done);
        let (g, w) = neverc_irgen::generate_with_warnings(
            ast, st.typed, interner, machine, irgen_opts, is_system,
        );
        return (g.map(Generated::Module), w);
    }
    // As remove_unreferenced_functions(|f| f.declared_inline) on the whole module.
    let summaries: Vec<neverc_ir::opt::FunctionRefs> = done
        .iter_mut()
        .map(|(s, d)| neverc_ir::opt::FunctionRefs {
            sym: *s,
            removable: st.declared_inline.contains(s),
            refs: std::mem::take(&mut d.refs),
        })
        .collect();
    if let Some(referenced) = neverc_ir::opt::referenced_symbols(&module, &summaries) {
        done.retain(|(s, _)| referenced[s.index()]);
        neverc_ir::opt::forget_unreferenced_functions(&mut module, &referenced);
    }
    let mut code = Vec::with_capacity(done.len());
    for (_, d) in done {
        match d.code {
            Ok(c) => code.push(c),
            // As the whole-module back end: file-scope asm is refused before any function.
            Err(e) if module.toplevel_asm.is_empty() => {
                return (Ok(Generated::Object(Err(e))), warnings)
            }
            Err(_) => {}
        }
    }
    let object = mc.finish(&module, code).map(|c| c.object);
    (Ok(Generated::Object(object)), warnings)
}
