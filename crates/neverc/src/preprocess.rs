//! Sets up the preprocessor for one input from the options and the target, and runs the
//! `-E`, `-dM` and `-M` outputs.

use crate::options::{ForcedInclude, MacroArg, OptLevel, Options, PicLevel};
use neverc_front::diag::Diagnostics;
use neverc_front::lex::LexOptions;
use neverc_front::pp::{PpOptions, Preprocessor, SearchDir};
use neverc_target::{IntType, Os, Target};
use std::path::PathBuf;

/// neverc's version, and the gcc version whose GNU C it claims (see
/// docs/predefined-macros.md).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub const GNUC: (u32, u32, u32) = (4, 2, 1);

/// The include search path: `-iquote` (quoted includes only), then `-I`/`-isystem` in
/// order, neverc's own headers, the target's system directories, `-idirafter`.
pub fn search_path(
    opts: &Options,
    target: &Target,
    resource: Option<&PathBuf>,
) -> (Vec<SearchDir>, Vec<SearchDir>) {
    let quote = opts
        .quote_dirs
        .iter()
        .map(|p| SearchDir {
            path: p.clone(),
            system: false,
        })
        .collect();
    let mut bracket: Vec<SearchDir> = Vec::new();
    for (p, system) in &opts.include_dirs {
        // gcc drops a -I directory that is also a system directory (keeping its system
        // position); duplicates keep their first place.
        if bracket.iter().any(|d| &d.path == p) {
            continue;
        }
        bracket.push(SearchDir {
            path: p.clone(),
            system: *system,
        });
    }
    if !opts.nostdinc {
        if let Some(r) = resource {
            bracket.push(SearchDir {
                path: r.clone(),
                system: true,
            });
        }
        for d in target.system_include_dirs(opts.sysroot.as_deref()) {
            bracket.retain(|b| b.path != d || b.system);
            if !bracket.iter().any(|b| b.path == d) {
                bracket.push(SearchDir {
                    path: d,
                    system: true,
                });
            }
        }
    }
    for p in &opts.after_dirs {
        bracket.push(SearchDir {
            path: p.clone(),
            system: true,
        });
    }
    (quote, bracket)
}

/// The `<built-in>` buffer: the target's predefined macros, language and option macros,
/// and neverc's identity.
pub fn builtin_macros(opts: &Options, target: &Target) -> String {
    let mut s = String::with_capacity(16 * 1024);
    let mut def = |name: &str, body: &str| {
        s.push_str("#define ");
        s.push_str(name);
        s.push(' ');
        s.push_str(body);
        s.push('\n');
    };
    let std = opts.std;
    def("__STDC__", "1");
    if std.version > 0 {
        def("__STDC_VERSION__", &format!("{}L", std.version));
    }
    def("__STDC_HOSTED__", if opts.freestanding { "0" } else { "1" });
    if std.version >= 201112 {
        def("__STDC_UTF_16__", "1");
        def("__STDC_UTF_32__", "1");
    }
    if opts.undef_all {
        return s;
    }
    let (maj, min, patch) = GNUC;
    def("__GNUC__", &maj.to_string());
    def("__GNUC_MINOR__", &min.to_string());
    def("__GNUC_PATCHLEVEL__", &patch.to_string());
    def(
        "__VERSION__",
        &format!("\"{maj}.{min}.{patch} Compatible neverc {VERSION}\""),
    );
    def("__neverc__", "1");
    let mut v = VERSION.split('.');
    def("__neverc_major__", v.next().unwrap_or("0"));
    def("__neverc_minor__", v.next().unwrap_or("0"));
    def("__neverc_patchlevel__", v.next().unwrap_or("0"));
    def("__neverc_version__", &format!("\"{VERSION}\""));
    if opts.gnu89_inline || std.version == 0 {
        def("__GNUC_GNU_INLINE__", "1");
    } else {
        def("__GNUC_STDC_INLINE__", "1");
    }
    if !std.gnu {
        def("__STRICT_ANSI__", "1");
    }
    // `__OPTIMIZE__` promises gcc's optimiser: headers and programs use it to rely on
    // calls being folded away (glibc's _FORTIFY_SOURCE wrappers need inlining and
    // `__builtin_va_arg_pack`). neverc's -O1 does not do that, so it is not defined; see
    // docs/predefined-macros.md.
    if opts.opt_level == OptLevel::O0 {
        def("__NO_INLINE__", "1");
    }
    // Position independence exists only where the target links shared objects.
    if target.os == Os::Linux {
        let (pic, pie) = match opts.pic {
            PicLevel::None => (None, None),
            PicLevel::Pic1 => (Some("1"), None),
            PicLevel::Pic2 => (Some("2"), None),
            PicLevel::Pie1 => (Some("1"), Some("1")),
            PicLevel::Pie2 => (Some("2"), Some("2")),
        };
        if let Some(l) = pic {
            def("__pic__", l);
            def("__PIC__", l);
        }
        if let Some(l) = pie {
            def("__pie__", l);
            def("__PIE__", l);
        }
        if std.gnu {
            def("linux", "1");
            def("unix", "1");
        }
    }
    let char_default_signed = target.data_model.char_signed;
    let char_signed = opts.char_signed.unwrap_or(char_default_signed);
    for (name, body) in target.predefined_macros() {
        if name == "__CHAR_UNSIGNED__" && char_signed {
            continue;
        }
        def(name, body);
    }
    if !char_signed && char_default_signed {
        def("__CHAR_UNSIGNED__", "1");
    }
    s
}

/// The `<command-line>` buffer: `-D` and `-U` in order.
pub fn command_line_macros(opts: &Options) -> String {
    let mut s = String::new();
    for m in &opts.macros {
        match m {
            MacroArg::Define(d) => {
                let (name, body) = match d.split_once('=') {
                    Some((n, b)) => (n, b.to_string()),
                    None => (d.as_str(), "1".to_string()),
                };
                s.push_str(&format!("#define {name} {body}\n"));
            }
            MacroArg::Undef(u) => s.push_str(&format!("#undef {u}\n")),
        }
    }
    s
}

/// A preprocessor ready to read `input`, or None after a fatal diagnostic.
pub fn make_preprocessor(
    opts: &Options,
    target: &Target,
    resource: Option<&PathBuf>,
    input_name: &str,
    input_path: Option<PathBuf>,
    raw: Vec<u8>,
    diags: Diagnostics,
) -> Preprocessor {
    let (quote_dirs, bracket_dirs) = search_path(opts, target, resource);
    let dm = &target.data_model;
    let wchar = dm.wchar_type;
    let std = opts.std;
    let pp_opts = PpOptions {
        std,
        lex: LexOptions {
            line_comments: std.version > 0 || std.gnu,
            c2x: std.version >= 202000,
            dollars: opts.dollars,
            keep_comments: opts.keep_comments,
        },
        trigraphs: opts.trigraphs.unwrap_or(!std.gnu && std.version < 202000),
        quote_dirs,
        bracket_dirs,
        missing_ok: opts.deps.missing_ok,
        source_date_epoch: std::env::var("SOURCE_DATE_EPOCH")
            .ok()
            .and_then(|s| s.trim().parse().ok()),
        max_include_depth: opts.max_include_depth,
        char_signed: opts.char_signed.unwrap_or(dm.char_signed),
        wchar_bits: dm.int_type(wchar).size * 8,
        wchar_signed: wchar.is_signed() && !matches!(wchar, IntType::UChar),
        builtins: neverc_front::features::BUILTINS.to_vec(),
        attributes: neverc_front::features::ATTRIBUTES
            .iter()
            .map(|a| (*a, 1))
            .collect(),
    };
    let mut pp = Preprocessor::new(pp_opts, diags);
    pp.run_builtin_text("<built-in>", &builtin_macros(opts, target));
    pp.run_builtin_text("<command-line>", &command_line_macros(opts));
    pp.enter_main(input_name, input_path, raw);
    // gcc's implicit `-include stdc-predef.h` on glibc targets, then -include/-imacros in
    // command-line order (the -imacros ones first, as gcc processes them).
    for f in &opts.forced_includes {
        if let ForcedInclude::Macros(m) = f {
            pp.run_imacros(m);
        }
    }
    // Pushed in reverse so the first -include is read first; stdc-predef.h before all.
    let includes: Vec<&str> = opts
        .forced_includes
        .iter()
        .filter_map(|f| match f {
            ForcedInclude::Include(p) => Some(p.as_str()),
            _ => None,
        })
        .collect();
    for inc in includes.iter().rev() {
        if !pp.push_forced_include(inc) {
            return pp;
        }
    }
    if !opts.nostdinc && !opts.freestanding && target.implicit_stdc_predef() {
        pp.push_optional_system_include("stdc-predef.h");
    }
    pp
}
