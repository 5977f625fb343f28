//! gcc's command-line grammar, table-driven.
//!
//! No argument-parsing crate expresses gcc's conventions (`-Idir` and `-I dir`, `-Wl,a,b`,
//! `-O` with an optional level, `-MD` beside `-M`, options that are prefixes of others), so
//! each option is a row of [`TABLE`]: a spelling, how its value is attached, and what it
//! does. The longest matching spelling wins, as in gcc.

use neverc_front::diag::WarningPolicy;
use neverc_front::pp::Std;
use std::path::PathBuf;

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arity {
    /// Exactly this spelling, no value.
    Flag,
    /// The value follows in the same argument (`-std=c17`, `-Wl,x`); may be empty only for
    /// spellings ending in `=`.
    Joined,
    /// The value is the next argument (`-MF file`).
    Separate,
    /// Either (`-Idir`, `-I dir`).
    JoinedOrSeparate,
    /// An optional value in the same argument (`-O`, `-O2`, `-g`, `-g3`).
    OptionalJoined,
}

/// What an option does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Preprocess,
    NoLineMarkers,
    KeepComments,
    KeepCommentsInMacros,
    Compile,
    Assemble,
    Output,
    Include,
    IQuote,
    ISystem,
    IDirAfter,
    ForceInclude,
    IMacros,
    NoStdInc,
    Define,
    Undef,
    UndefAll,
    Std,
    Ansi,
    Optimize,
    Debug,
    NoWarnings,
    Warning,
    Pedantic,
    PedanticErrors,
    FeatureFlag,
    MachineFlag,
    DepsM,
    DepsMM,
    DepsMD,
    DepsMMD,
    DepsMF,
    DepsMT,
    DepsMQ,
    DepsMP,
    DepsMG,
    Target,
    TargetSeparate,
    Sysroot,
    DumpMachine,
    DumpVersion,
    DumpFullVersion,
    PrintSearchDirs,
    PrintProgName,
    PrintFileName,
    PrintLibgcc,
    PrintMultiarch,
    PrintSysroot,
    PrintMultiOsDirectory,
    PrintMultiDirectory,
    PrintMultiLib,
    PrintAbi,
    Verbose,
    Version,
    DryRun,
    Help,
    Language,
    Dump,
    LinkerArg,
    LinkerArgs,
    PreprocessorArgs,
    AssemblerArgs,
    LinkFlag,
    LinkerScript,
    Ignored,
    IgnoredSeparate,
    Trigraphs,
    SyntaxOnly,
}

struct Spec {
    name: &'static str,
    arity: Arity,
    act: Act,
}

const fn s(name: &'static str, arity: Arity, act: Act) -> Spec {
    Spec { name, arity, act }
}

use Arity::*;

/// Every option spelling neverc knows. Order does not matter: the longest match wins.
static TABLE: &[Spec] = &[
    s("-E", Flag, Act::Preprocess),
    s("-P", Flag, Act::NoLineMarkers),
    s("-C", Flag, Act::KeepComments),
    s("-CC", Flag, Act::KeepCommentsInMacros),
    s("-c", Flag, Act::Compile),
    s("-S", Flag, Act::Assemble),
    s("-o", JoinedOrSeparate, Act::Output),
    s("-I", JoinedOrSeparate, Act::Include),
    s("-iquote", JoinedOrSeparate, Act::IQuote),
    s("-isystem", JoinedOrSeparate, Act::ISystem),
    s("-idirafter", JoinedOrSeparate, Act::IDirAfter),
    s("-include", JoinedOrSeparate, Act::ForceInclude),
    s("-imacros", JoinedOrSeparate, Act::IMacros),
    s("-nostdinc", Flag, Act::NoStdInc),
    s("-D", JoinedOrSeparate, Act::Define),
    s("-U", JoinedOrSeparate, Act::Undef),
    s("-undef", Flag, Act::UndefAll),
    s("-std=", Joined, Act::Std),
    s("--std=", Joined, Act::Std),
    s("-ansi", Flag, Act::Ansi),
    s("-O", OptionalJoined, Act::Optimize),
    s("-g", OptionalJoined, Act::Debug),
    s("-w", Flag, Act::NoWarnings),
    s("-W", Joined, Act::Warning),
    s("-pedantic", Flag, Act::Pedantic),
    s("--pedantic", Flag, Act::Pedantic),
    s("-Wpedantic", Flag, Act::Pedantic),
    s("-pedantic-errors", Flag, Act::PedanticErrors),
    s("-f", Joined, Act::FeatureFlag),
    s("-m", Joined, Act::MachineFlag),
    s("-M", Flag, Act::DepsM),
    s("-MM", Flag, Act::DepsMM),
    s("-MD", Flag, Act::DepsMD),
    s("-MMD", Flag, Act::DepsMMD),
    s("-MF", JoinedOrSeparate, Act::DepsMF),
    s("-MT", JoinedOrSeparate, Act::DepsMT),
    s("-MQ", JoinedOrSeparate, Act::DepsMQ),
    s("-MP", Flag, Act::DepsMP),
    s("-MG", Flag, Act::DepsMG),
    s("--target=", Joined, Act::Target),
    s("-target", Separate, Act::TargetSeparate),
    s("--sysroot=", Joined, Act::Sysroot),
    s("--sysroot", Separate, Act::Sysroot),
    s("-dumpmachine", Flag, Act::DumpMachine),
    s("-dumpversion", Flag, Act::DumpVersion),
    s("-dumpfullversion", Flag, Act::DumpFullVersion),
    s("-print-search-dirs", Flag, Act::PrintSearchDirs),
    s("-print-prog-name=", Joined, Act::PrintProgName),
    s("-print-file-name=", Joined, Act::PrintFileName),
    s("-print-libgcc-file-name", Flag, Act::PrintLibgcc),
    s("-print-multiarch", Flag, Act::PrintMultiarch),
    s("-print-sysroot", Flag, Act::PrintSysroot),
    s(
        "-print-multi-os-directory",
        Flag,
        Act::PrintMultiOsDirectory,
    ),
    s("-print-multi-directory", Flag, Act::PrintMultiDirectory),
    s("-print-multi-lib", Flag, Act::PrintMultiLib),
    s("--print-abi", Flag, Act::PrintAbi),
    s("-v", Flag, Act::Verbose),
    s("--version", Flag, Act::Version),
    s("-###", Flag, Act::DryRun),
    s("--help", Flag, Act::Help),
    s("-x", JoinedOrSeparate, Act::Language),
    s("-d", Joined, Act::Dump),
    s("-Wl,", Joined, Act::LinkerArgs),
    s("-Wp,", Joined, Act::PreprocessorArgs),
    s("-Wa,", Joined, Act::AssemblerArgs),
    s("-Xlinker", Separate, Act::LinkerArg),
    s("-l", JoinedOrSeparate, Act::LinkFlag),
    s("-L", JoinedOrSeparate, Act::LinkFlag),
    s("-T", JoinedOrSeparate, Act::LinkerScript),
    s("-static", Flag, Act::LinkFlag),
    s("-shared", Flag, Act::LinkFlag),
    s("-pie", Flag, Act::LinkFlag),
    s("-no-pie", Flag, Act::LinkFlag),
    s("-static-pie", Flag, Act::LinkFlag),
    s("-rdynamic", Flag, Act::LinkFlag),
    s("-s", Flag, Act::LinkFlag),
    s("-nostdlib", Flag, Act::LinkFlag),
    s("-nostartfiles", Flag, Act::LinkFlag),
    s("-nodefaultlibs", Flag, Act::LinkFlag),
    s("-static-libgcc", Flag, Act::LinkFlag),
    s("-pthread", Flag, Act::Ignored),
    s("-pipe", Flag, Act::Ignored),
    s("-save-temps", Flag, Act::Ignored),
    s("-trigraphs", Flag, Act::Trigraphs),
    s("-fsyntax-only", Flag, Act::SyntaxOnly),
    s("-Xpreprocessor", Separate, Act::IgnoredSeparate),
    s("-Xassembler", Separate, Act::IgnoredSeparate),
];

/// The stage the driver stops after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Preprocess,
    SyntaxOnly,
    Assemble,
    Compile,
    Link,
}

/// How an input file is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    C,
    CHeader,
    /// Already preprocessed (`.i`).
    CPreprocessed,
    Asm,
    AsmWithCpp,
    /// Anything the linker takes (`.o`, `.a`, `.so`, unknown suffixes).
    Object,
}

#[derive(Clone, Debug)]
pub struct Input {
    /// The path, or `-` for standard input.
    pub path: String,
    pub lang: Lang,
}

/// A `-D` or `-U`, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroArg {
    Define(String),
    Undef(String),
}

/// `-M` family settings.
#[derive(Clone, Debug, Default)]
pub struct DepOptions {
    /// `-M`/`-MM`: dependencies instead of preprocessed output.
    pub only: bool,
    /// `-MD`/`-MMD`: dependencies as a side effect.
    pub side: bool,
    /// `-MM`/`-MMD`: leave out system headers.
    pub user_only: bool,
    pub file: Option<String>,
    /// `-MT` (as written, false) and `-MQ` (quoted, true) targets, in order.
    pub targets: Vec<(String, bool)>,
    pub phony: bool,
    pub missing_ok: bool,
}

impl DepOptions {
    pub fn wanted(&self) -> bool {
        self.only || self.side
    }
}

/// Everything the command line says.
#[derive(Clone, Debug)]
pub struct Options {
    pub stage: Stage,
    pub inputs: Vec<Input>,
    pub output: Option<String>,
    pub no_line_markers: bool,
    pub keep_comments: bool,
    pub quote_dirs: Vec<PathBuf>,
    /// `-I` and `-isystem` in order, with whether each is a system directory.
    pub include_dirs: Vec<(PathBuf, bool)>,
    pub after_dirs: Vec<PathBuf>,
    pub forced_includes: Vec<ForcedInclude>,
    pub nostdinc: bool,
    pub macros: Vec<MacroArg>,
    pub undef_all: bool,
    pub std: Std,
    pub opt_level: OptLevel,
    pub debug: bool,
    pub warnings: WarningPolicy,
    pub pedantic: bool,
    pub deps: DepOptions,
    pub target: Option<String>,
    pub sysroot: Option<PathBuf>,
    pub queries: Vec<Query>,
    pub verbose: bool,
    pub dry_run: bool,
    pub dump_macros: bool,
    pub color: Option<bool>,
    pub max_errors: usize,
    pub max_include_depth: usize,
    pub freestanding: bool,
    pub pic: PicLevel,
    pub char_signed: Option<bool>,
    pub gnu89_inline: bool,
    pub trigraphs: Option<bool>,
    pub dollars: bool,
    pub linker_args: Vec<String>,
    pub fflags: Vec<String>,
    /// The last `-march=` value (the AArch64 back end reads its extensions).
    pub march: Option<String>,
    pub print_abi: bool,
    pub print_abi_json: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForcedInclude {
    Include(String),
    Macros(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptLevel {
    O0,
    O1,
    O2,
    O3,
    Os,
    Og,
    Oz,
}

/// Position-independence model (`-fpic`, `-fPIE`, ...); Debian's default is PIE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PicLevel {
    None,
    Pic1,
    Pic2,
    Pie1,
    Pie2,
}

/// Informational requests answered without compiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    DumpMachine,
    DumpVersion,
    DumpFullVersion,
    SearchDirs,
    ProgName(String),
    FileName(String),
    Libgcc,
    Multiarch,
    Sysroot,
    MultiOsDirectory,
    MultiDirectory,
    MultiLib,
    Version,
    Help,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stage: Stage::Link,
            inputs: Vec::new(),
            output: None,
            no_line_markers: false,
            keep_comments: false,
            quote_dirs: Vec::new(),
            include_dirs: Vec::new(),
            after_dirs: Vec::new(),
            forced_includes: Vec::new(),
            nostdinc: false,
            macros: Vec::new(),
            undef_all: false,
            std: Std::default(),
            opt_level: OptLevel::O0,
            debug: false,
            warnings: WarningPolicy::default(),
            pedantic: false,
            deps: DepOptions::default(),
            target: None,
            sysroot: None,
            queries: Vec::new(),
            verbose: false,
            dry_run: false,
            dump_macros: false,
            color: None,
            max_errors: 0,
            max_include_depth: 200,
            freestanding: false,
            pic: PicLevel::Pie2,
            char_signed: None,
            gnu89_inline: false,
            trigraphs: None,
            dollars: true,
            linker_args: Vec::new(),
            fflags: Vec::new(),
            march: None,
            print_abi: false,
            print_abi_json: false,
        }
    }
}

/// A command-line error, printed as `neverc: error: <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError(pub String);

/// Expands `@file` arguments (whitespace-separated, with quotes and backslashes, as gcc
/// reads them; a file that cannot be read stays as a literal argument, as in gcc).
pub fn expand_response_files(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    for (depth, a) in args.into_iter().map(|a| (0, a)) {
        expand_one(a, depth, &mut out);
    }
    out
}

fn expand_one(a: String, depth: u32, out: &mut Vec<String>) {
    if let Some(path) = a.strip_prefix('@') {
        if depth < 16 {
            if let Ok(text) = std::fs::read_to_string(path) {
                for w in split_response(&text) {
                    expand_one(w, depth + 1, out);
                }
                return;
            }
        }
    }
    out.push(a);
}

fn split_response(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Finds the table row for an argument: the longest spelling that matches it.
fn find(arg: &str) -> Option<(&'static Spec, Option<&str>)> {
    let mut best: Option<(&'static Spec, Option<&str>)> = None;
    for spec in TABLE {
        let matched = match spec.arity {
            Flag | Separate => (arg == spec.name).then_some(None),
            Joined => arg
                .strip_prefix(spec.name)
                .filter(|v| !v.is_empty() || spec.name.ends_with('='))
                .map(Some),
            JoinedOrSeparate => {
                if arg == spec.name {
                    Some(None)
                } else {
                    arg.strip_prefix(spec.name).map(Some)
                }
            }
            OptionalJoined => arg.strip_prefix(spec.name).map(Some),
        };
        if let Some(v) = matched {
            if best.is_none_or(|(b, _)| spec.name.len() > b.name.len()) {
                best = Some((spec, v));
            }
        }
    }
    best
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Options, CliError> {
    let mut o = Options::default();
    let mut lang_override: Option<Lang> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            let lang = match lang_override {
                Some(l) => l,
                // Standard input is C unless -x says otherwise.
                None if arg == "-" => Lang::C,
                None => lang_of(arg),
            };
            o.inputs.push(Input {
                path: arg.clone(),
                lang,
            });
            continue;
        }
        let Some((spec, joined)) = find(arg) else {
            return Err(CliError(format!(
                "unrecognized command-line option '{arg}'"
            )));
        };
        let value: Option<String> = match (spec.arity, joined) {
            (Flag, _) => None,
            (OptionalJoined, v) => v.map(str::to_string),
            (Joined, v) => v.map(str::to_string),
            (Separate, _) | (JoinedOrSeparate, None) => {
                let Some(v) = args.get(i) else {
                    return Err(CliError(format!("missing argument to '{arg}'")));
                };
                i += 1;
                Some(v.clone())
            }
            (JoinedOrSeparate, Some(v)) => Some(v.to_string()),
        };
        let v = value.clone().unwrap_or_default();
        match spec.act {
            Act::Preprocess => o.stage = o.stage.min(Stage::Preprocess),
            Act::SyntaxOnly => o.stage = o.stage.min(Stage::SyntaxOnly),
            Act::Assemble => o.stage = o.stage.min(Stage::Assemble),
            Act::Compile => o.stage = o.stage.min(Stage::Compile),
            Act::NoLineMarkers => o.no_line_markers = true,
            Act::KeepComments | Act::KeepCommentsInMacros => o.keep_comments = true,
            Act::Output => o.output = Some(v),
            Act::Include => o.include_dirs.push((PathBuf::from(v), false)),
            Act::ISystem => o.include_dirs.push((PathBuf::from(v), true)),
            Act::IQuote => o.quote_dirs.push(PathBuf::from(v)),
            Act::IDirAfter => o.after_dirs.push(PathBuf::from(v)),
            Act::ForceInclude => o.forced_includes.push(ForcedInclude::Include(v)),
            Act::IMacros => o.forced_includes.push(ForcedInclude::Macros(v)),
            Act::NoStdInc => o.nostdinc = true,
            Act::Define => o.macros.push(MacroArg::Define(v)),
            Act::Undef => o.macros.push(MacroArg::Undef(v)),
            Act::UndefAll => o.undef_all = true,
            Act::Std => {
                o.std = Std::parse(&v)
                    .ok_or_else(|| CliError(format!("unrecognized command-line option '{arg}'")))?
            }
            Act::Ansi => {
                o.std = Std {
                    version: 0,
                    gnu: false,
                }
            }
            Act::Optimize => o.opt_level = match v.as_str() {
                "" | "1" => OptLevel::O1,
                "0" => OptLevel::O0,
                "2" => OptLevel::O2,
                "s" => OptLevel::Os,
                "g" => OptLevel::Og,
                "z" => OptLevel::Oz,
                "fast" => OptLevel::O3,
                n if n.bytes().all(|b| b.is_ascii_digit()) => OptLevel::O3,
                _ => return Err(CliError(
                    "argument to '-O' should be a non-negative integer, 'g', 's', 'z' or 'fast'"
                        .to_string(),
                )),
            },
            Act::Debug => o.debug = v != "0",
            Act::NoWarnings => o.warnings.suppress_all = true,
            Act::Warning => {
                if !is_known_warning(&v) {
                    return Err(CliError(format!(
                        "unrecognized command-line option '{arg}'"
                    )));
                }
                o.warnings.apply(&v);
            }
            Act::Pedantic => o.pedantic = true,
            Act::PedanticErrors => {
                o.pedantic = true;
                o.warnings.errors.insert("pedantic".into());
            }
            Act::FeatureFlag => apply_f(&mut o, arg, &v)?,
            Act::MachineFlag => {
                apply_m(arg, &v)?;
                if let Some(a) = v.strip_prefix("arch=") {
                    o.march = Some(a.to_string());
                }
            }
            Act::DepsM => {
                o.deps.only = true;
                o.deps.user_only = false;
            }
            Act::DepsMM => {
                o.deps.only = true;
                o.deps.user_only = true;
            }
            Act::DepsMD => o.deps.side = true,
            Act::DepsMMD => {
                o.deps.side = true;
                o.deps.user_only = true;
            }
            Act::DepsMF => o.deps.file = Some(v),
            Act::DepsMT => o.deps.targets.push((v, false)),
            Act::DepsMQ => o.deps.targets.push((v, true)),
            Act::DepsMP => o.deps.phony = true,
            Act::DepsMG => o.deps.missing_ok = true,
            Act::Target | Act::TargetSeparate => o.target = Some(v),
            Act::Sysroot => o.sysroot = Some(PathBuf::from(v)),
            Act::DumpMachine => o.queries.push(Query::DumpMachine),
            Act::DumpVersion => o.queries.push(Query::DumpVersion),
            Act::DumpFullVersion => o.queries.push(Query::DumpFullVersion),
            Act::PrintSearchDirs => o.queries.push(Query::SearchDirs),
            Act::PrintProgName => o.queries.push(Query::ProgName(v)),
            Act::PrintFileName => o.queries.push(Query::FileName(v)),
            Act::PrintLibgcc => o.queries.push(Query::Libgcc),
            Act::PrintMultiarch => o.queries.push(Query::Multiarch),
            Act::PrintSysroot => o.queries.push(Query::Sysroot),
            Act::PrintMultiOsDirectory => o.queries.push(Query::MultiOsDirectory),
            Act::PrintMultiDirectory => o.queries.push(Query::MultiDirectory),
            Act::PrintMultiLib => o.queries.push(Query::MultiLib),
            Act::PrintAbi => o.print_abi = true,
            Act::Verbose => o.verbose = true,
            Act::Version => o.queries.push(Query::Version),
            Act::DryRun => o.dry_run = true,
            Act::Help => o.queries.push(Query::Help),
            Act::Language => {
                lang_override = match v.as_str() {
                    "c" => Some(Lang::C),
                    "c-header" => Some(Lang::CHeader),
                    "cpp-output" => Some(Lang::CPreprocessed),
                    "assembler" => Some(Lang::Asm),
                    "assembler-with-cpp" => Some(Lang::AsmWithCpp),
                    "none" => None,
                    other => return Err(CliError(format!("language {other} not recognized"))),
                }
            }
            Act::Dump => match v.as_str() {
                "M" => o.dump_macros = true,
                "D" | "N" | "I" | "U" => {
                    return Err(CliError(format!(
                        "'{arg}' is not supported by neverc yet (only -dM is)"
                    )))
                }
                _ => {
                    return Err(CliError(format!(
                        "unrecognized command-line option '{arg}'"
                    )))
                }
            },
            Act::LinkerArgs => o
                .linker_args
                .extend(v.split(',').map(|s| format!("-Wl,{s}"))),
            Act::LinkerArg => o.linker_args.push(format!("-Wl,{v}")),
            Act::LinkFlag | Act::LinkerScript => {
                o.linker_args.push(arg.clone());
                if joined.is_none() && value.is_some() {
                    o.linker_args.push(v);
                }
            }
            Act::PreprocessorArgs => {
                // -Wp,-DX,-MD,file: hand the words back to this parser.
                let words: Vec<String> = v.split(',').map(str::to_string).collect();
                let sub = parse(&words)?;
                o.macros.extend(sub.macros);
                o.include_dirs.extend(sub.include_dirs);
                if sub.deps.wanted() {
                    o.deps = sub.deps;
                }
            }
            Act::AssemblerArgs | Act::Ignored | Act::IgnoredSeparate => {}
            Act::Trigraphs => o.trigraphs = Some(true),
        }
    }
    // -M and -MM imply -E (their output replaces the preprocessed text).
    if o.deps.only {
        o.stage = o.stage.min(Stage::Preprocess);
    }
    Ok(o)
}

/// The language of an input by its suffix, as gcc decides it.
fn lang_of(path: &str) -> Lang {
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "c" => Lang::C,
        "h" => Lang::CHeader,
        "i" => Lang::CPreprocessed,
        "s" => Lang::Asm,
        "S" | "sx" => Lang::AsmWithCpp,
        _ => Lang::Object,
    }
}

/// `-MQ`: a make target with the characters make treats specially quoted.
pub fn quote_make_target(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let bytes: Vec<char> = t.chars().collect();
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            ' ' | '\t' => {
                // Backslashes before a blank are doubled, then the blank escaped.
                let mut j = i;
                while j > 0 && bytes[j - 1] == '\\' {
                    out.push('\\');
                    j -= 1;
                }
                out.push('\\');
                out.push(c);
            }
            '$' => out.push_str("$$"),
            '#' => out.push_str("\\#"),
            _ => out.push(c),
        }
    }
    out
}

/// `-f` options: those that change what neverc does, and the rest of gcc's that a build may
/// pass and that do not change the meaning of a correct program.
fn apply_f(o: &mut Options, arg: &str, v: &str) -> Result<(), CliError> {
    let (neg, name) = match v.strip_prefix("no-") {
        Some(n) => (true, n),
        None => (false, v),
    };
    let (key, val) = match name.split_once('=') {
        Some((k, val)) => (k, Some(val)),
        None => (name, None),
    };
    let bad = || CliError(format!("unrecognized command-line option '{arg}'"));
    match (key, val) {
        ("max-errors", Some(n)) if !neg => o.max_errors = n.parse().map_err(|_| bad())?,
        ("max-include-depth", Some(n)) if !neg => o.max_include_depth = n.parse().map_err(|_| bad())?,
        ("diagnostics-color", None) => o.color = Some(!neg),
        ("diagnostics-color", Some(w)) if !neg => {
            o.color = match w {
                "always" => Some(true),
                "never" => Some(false),
                "auto" => None,
                _ => return Err(CliError("argument to '-fdiagnostics-color=' should be 'never', 'auto' or 'always'".to_string())),
            }
        }
        // The last of -f[no-]pic/PIC/pie/PIE wins outright, as in gcc (-fPIC -fno-pie: none).
        ("pic", None) => o.pic = if neg { PicLevel::None } else { PicLevel::Pic1 },
        ("PIC", None) => o.pic = if neg { PicLevel::None } else { PicLevel::Pic2 },
        ("pie", None) => o.pic = if neg { PicLevel::None } else { PicLevel::Pie1 },
        ("PIE", None) => o.pic = if neg { PicLevel::None } else { PicLevel::Pie2 },
        ("permissive", None) => o.warnings.permissive = !neg,
        ("signed-char", None) => o.char_signed = Some(!neg),
        ("unsigned-char", None) => o.char_signed = Some(neg),
        ("freestanding", None) => o.freestanding = !neg,
        ("hosted", None) => o.freestanding = neg,
        ("gnu89-inline", None) => o.gnu89_inline = !neg,
        ("dollars-in-identifiers", None) => o.dollars = !neg,
        ("syntax-only", None) if !neg => o.stage = o.stage.min(Stage::SyntaxOnly),
        ("print-abi", Some(fmt)) if !neg => match fmt {
            "json" => o.print_abi_json = true,
            "text" => o.print_abi_json = false,
            _ => return Err(CliError("argument to '-fprint-abi=' should be 'text' or 'json'".to_string())),
        },
        ("plugin", Some(_)) if !neg => {
            return Err(CliError(
                "-fplugin is not supported: neverc has no plugin loader; use -fcallconv-* or custom_attr".into(),
            ))
        }
        (k, _) if KNOWN_F.contains(&k) || KNOWN_F_PREFIX.iter().any(|p| k.starts_with(p)) => {
            o.fflags.push(v.to_string())
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// gcc `-f` options accepted and recorded; those that matter to later stages are read from
/// [`Options::fflags`] there.
static KNOWN_F: &[&str] = &[
    "common",
    "wrapv",
    "trapv",
    "strict-aliasing",
    "strict-overflow",
    "function-sections",
    "data-sections",
    "omit-frame-pointer",
    "builtin",
    "stack-protector",
    "stack-protector-strong",
    "stack-protector-all",
    "stack-protector-explicit",
    "stack-clash-protection",
    "asynchronous-unwind-tables",
    "unwind-tables",
    "exceptions",
    "non-call-exceptions",
    "inline",
    "inline-functions",
    "inline-small-functions",
    "unroll-loops",
    "math-errno",
    "fast-math",
    "finite-math-only",
    "trapping-math",
    "signed-zeros",
    "short-enums",
    "short-wchar",
    "plt",
    "semantic-interposition",
    "lto",
    "fat-lto-objects",
    "ident",
    "merge-constants",
    "zero-initialized-in-bss",
    "delete-null-pointer-checks",
    "instrument-functions",
    "optimize-sibling-calls",
    "jump-tables",
    "tree-vectorize",
    "reorder-blocks",
    "keep-inline-functions",
    "keep-static-consts",
    "asm",
    "gnu-keywords",
    "ms-extensions",
    "strict-volatile-bitfields",
    "pack-struct",
    "verbose-asm",
    "show-column",
    "diagnostics-show-option",
    "diagnostics-show-caret",
    "time-report",
    "dump-ir",
    "dump-cc-plans",
    "callconv-all",
    "callconv-shuffle",
    "leading-underscore",
    "permissive",
    "openmp",
    "split-stack",
    "sanitize-recover",
    "no-sanitize",
    "cf-protection",
    "exec-charset",
    "input-charset",
    "wide-exec-charset",
    "debug-prefix-map",
    "file-prefix-map",
    "macro-prefix-map",
    "excess-precision",
    "fp-contract",
    "rounding-math",
    "tree-loop-distribute-patterns",
    "align-functions",
    "align-jumps",
    "align-loops",
    "align-labels",
    "visibility",
    "tls-model",
    "stack-usage",
    "callgraph-info",
    "profile-arcs",
    "test-coverage",
    "ipa-ra",
    "caller-saves",
    "defer-pop",
    "peephole2",
    "schedule-insns",
    "schedule-insns2",
    "store-merging",
    "isolate-erroneous-paths-dereference",
    "lifetime-dse",
    "allow-store-data-races",
    "aggressive-loop-optimizations",
    "guess-branch-probability",
    "working-directory",
    "pch-preprocess",
    "extended-identifiers",
    "preprocessed",
    "directives-only",
    "debug-types-section",
    "var-tracking",
    "var-tracking-assignments",
    "eliminate-unused-debug-types",
    "record-gcc-switches",
    "checking",
    "gnu-unique",
    "reg-struct-return",
    "pcc-struct-return",
    "hosted",
    "abi-version",
    "stack-check",
    "stack-limit-register",
    "tabstop",
    "message-length",
    "diagnostics-format",
    "diagnostics-urls",
    "diagnostics-show-labels",
    "diagnostics-show-line-numbers",
    "diagnostics-parseable-fixits",
    "diagnostics-column-unit",
    "diagnostics-minimum-margin-width",
    "sanitize",
    "no-builtin",
    "recursive",
    "threadsafe-statics",
    "cx-limited-range",
    "single-precision-constant",
    "unsigned-bitfields",
    "signed-bitfields",
    "prefetch-loop-arrays",
    "peel-loops",
    "ipa-cp",
    "ipa-pure-const",
    "ipa-reference",
    "partial-inlining",
    "early-inlining",
    "tracer",
    "web",
    "gcse",
    "crossjumping",
    "if-conversion",
    "if-conversion2",
    "tree-pre",
    "tree-vrp",
    "tree-dce",
    "tree-ccp",
    "tree-ch",
    "tree-copy-prop",
    "tree-dse",
    "tree-fre",
    "tree-sra",
    "tree-pta",
    "tree-ter",
    "tree-loop-optimize",
    "tree-loop-vectorize",
    "tree-slp-vectorize",
    "vect-cost-model",
    "predictive-commoning",
    "split-loops",
    "unswitch-loops",
    "ipa-icf",
    "ipa-sra",
    "devirtualize",
    "code-hoisting",
    "hoist-adjacent-loads",
    "expensive-optimizations",
    "rerun-cse-after-loop",
    "thread-jumps",
    "cprop-registers",
    "move-loop-invariants",
    "branch-count-reg",
    "auto-inc-dec",
    "dce",
    "dse",
    "forward-propagate",
    "split-wide-types",
    "ssa-phiopt",
    "reorder-functions",
    "toplevel-reorder",
    "unit-at-a-time",
    "whole-program",
    "use-linker-plugin",
    "fuse-ld",
    "pic-executable",
    "PIC-executable",
    "callconv-spec",
    "callconv-prefix",
    "callconv-policy",
    "plugin-arg",
    "strict-flex-arrays",
    "zero-call-used-regs",
    "trivial-auto-var-init",
    "ms-abi",
    "allow-parameterless-variadic-functions",
];

/// Prefixes of gcc `-f` option families accepted as a whole.
static KNOWN_F_PREFIX: &[&str] = &[
    "sanitize",
    "no-sanitize",
    "builtin-",
    "plugin-arg-",
    "dump-",
    "opt-info",
    "profile-",
    "debug-",
    "stack-reuse",
    "ipa-",
    "tree-",
    "sched-",
    "lto-",
    "callconv-",
    "visibility-",
    "live-patching",
    "patchable-function-entry",
    "sso-",
    "param",
];

/// `-m` options: accepted for every target; what they select is checked against the
/// target when code is generated.
fn apply_m(arg: &str, v: &str) -> Result<(), CliError> {
    let key = v.split_once('=').map_or(v, |(k, _)| k);
    let known = matches!(
        key,
        "arch"
            | "cpu"
            | "tune"
            | "float-abi"
            | "fpu"
            | "abi"
            | "thumb"
            | "arm"
            | "64"
            | "cmodel"
            | "red-zone"
            | "no-red-zone"
            | "general-regs-only"
            | "mcu"
            | "sse"
            | "sse2"
            | "sse3"
            | "ssse3"
            | "sse4"
            | "sse4.1"
            | "sse4.2"
            | "avx"
            | "avx2"
            | "no-avx"
            | "no-sse"
            | "popcnt"
            | "bmi"
            | "bmi2"
            | "lzcnt"
            | "fma"
            | "strict-align"
            | "no-strict-align"
            | "unaligned-access"
            | "no-unaligned-access"
            | "little-endian"
            | "big-endian"
            | "soft-float"
            | "hard-float"
            | "omit-leaf-frame-pointer"
            | "no-omit-leaf-frame-pointer"
            | "relax"
            | "no-relax"
            | "xgot"
            | "plt"
            | "no-plt"
            | "long-calls"
            | "no-long-calls"
            | "align-stringops"
            | "stackrealign"
            | "fentry"
            | "no-fentry"
            | "tls-dialect"
            | "branch-protection"
            | "pc-relative-literal-loads"
            | "outline-atomics"
            | "no-outline-atomics"
            | "fp16-format"
            | "slow-flash-data"
            | "pure-code"
            | "call-prologues"
            | "short-calls"
            | "code-readable"
            | "shared"
            | "no-shared"
            | "abicalls"
            | "no-abicalls"
            | "explicit-relocs"
            | "fp32"
            | "fp64"
            | "fpxx"
            | "odd-spreg"
            | "no-odd-spreg"
            | "div"
            | "no-div"
            | "save-restore"
            | "no-save-restore"
            | "riscv-attribute"
            | "no-riscv-attribute"
            | "small-data-limit"
            | "stack-protector-guard"
            | "isa-spec"
            | "strict-X"
            | "n-flash"
            | "int8"
            | "tiny-stack"
            | "gas-isr-prologues"
            | "accumulate-args"
            | "no-gas-isr-prologues"
    );
    if v == "32" || v == "x32" || v == "16" {
        return Err(CliError(format!(
            "'{arg}' selects a target neverc does not have (use --target=)"
        )));
    }
    if known {
        Ok(())
    } else {
        Err(CliError(format!(
            "unrecognized command-line option '{arg}'"
        )))
    }
}

/// `-W` names gcc accepts for C (a `-Wno-` form of any name is accepted silently, as gcc
/// does, so only the positive form is checked).
fn is_known_warning(v: &str) -> bool {
    if v.starts_with("no-") || v.starts_with("error") {
        return true;
    }
    let name = v.split_once('=').map_or(v, |(k, _)| k);
    KNOWN_W.contains(&name)
}

static KNOWN_W: &[&str] = &[
    "all",
    "extra",
    "pedantic",
    "error",
    "fatal-errors",
    "system-headers",
    "undef",
    "unused-macros",
    "unused",
    "unused-variable",
    "unused-function",
    "unused-parameter",
    "unused-label",
    "unused-value",
    "unused-but-set-variable",
    "unused-but-set-parameter",
    "unused-result",
    "unused-local-typedefs",
    "unused-const-variable",
    "implicit",
    "implicit-function-declaration",
    "implicit-int",
    "implicit-fallthrough",
    "missing-prototypes",
    "strict-prototypes",
    "old-style-definition",
    "old-style-declaration",
    "missing-declarations",
    "missing-field-initializers",
    "missing-braces",
    "missing-include-dirs",
    "missing-parameter-type",
    "missing-noreturn",
    "shadow",
    "cast-qual",
    "cast-align",
    "cast-function-type",
    "conversion",
    "sign-conversion",
    "sign-compare",
    "float-equal",
    "float-conversion",
    "format",
    "format-security",
    "format-nonliteral",
    "format-y2k",
    "format-extra-args",
    "format-zero-length",
    "format-overflow",
    "format-truncation",
    "format-signedness",
    "pointer-arith",
    "pointer-sign",
    "write-strings",
    "redundant-decls",
    "nested-externs",
    "inline",
    "declaration-after-statement",
    "vla",
    "vla-larger-than",
    "switch",
    "switch-default",
    "switch-enum",
    "return-type",
    "parentheses",
    "uninitialized",
    "maybe-uninitialized",
    "init-self",
    "comment",
    "comments",
    "trigraphs",
    "endif-labels",
    "char-subscripts",
    "sequence-point",
    "address",
    "array-bounds",
    "stringop-overflow",
    "stringop-truncation",
    "stringop-overread",
    "restrict",
    "frame-address",
    "logical-op",
    "logical-not-parentheses",
    "bad-function-cast",
    "c90-c99-compat",
    "c99-c11-compat",
    "c11-c2x-compat",
    "c++-compat",
    "jump-misses-init",
    "long-long",
    "overlength-strings",
    "packed",
    "padded",
    "packed-not-aligned",
    "attributes",
    "deprecated",
    "deprecated-declarations",
    "div-by-zero",
    "double-promotion",
    "duplicated-cond",
    "duplicated-branches",
    "empty-body",
    "enum-compare",
    "enum-conversion",
    "expansion-to-defined",
    "ignored-qualifiers",
    "ignored-attributes",
    "incompatible-pointer-types",
    "int-conversion",
    "int-to-pointer-cast",
    "pointer-to-int-cast",
    "main",
    "multichar",
    "nonnull",
    "nonnull-compare",
    "null-dereference",
    "overflow",
    "override-init",
    "pragmas",
    "unknown-pragmas",
    "builtin-macro-redefined",
    "shift-count-negative",
    "shift-count-overflow",
    "shift-negative-value",
    "shift-overflow",
    "sizeof-pointer-memaccess",
    "sizeof-pointer-div",
    "sizeof-array-argument",
    "strict-aliasing",
    "strict-overflow",
    "suggest-attribute",
    "type-limits",
    "unreachable-code",
    "unsafe-loop-optimizations",
    "variadic-macros",
    "volatile-register-var",
    "write-strings",
    "array-parameter",
    "vla-parameter",
    "alloca",
    "alloca-larger-than",
    "larger-than",
    "frame-larger-than",
    "stack-usage",
    "stack-protector",
    "traditional",
    "traditional-conversion",
    "tautological-compare",
    "misleading-indentation",
    "memset-elt-size",
    "memset-transposed-args",
    "bool-compare",
    "bool-operation",
    "dangling-else",
    "dangling-pointer",
    "clobbered",
    "cpp",
    "date-time",
    "discarded-qualifiers",
    "discarded-array-qualifiers",
    "designated-init",
    "free-nonheap-object",
    "hsa",
    "invalid-memory-model",
    "lto-type-mismatch",
    "odr",
    "openmp-simd",
    "psabi",
    "return-local-addr",
    "scalar-storage-order",
    "sizeof-array-div",
    "string-compare",
    "stringop-overread",
    "switch-bool",
    "switch-outside-range",
    "switch-unreachable",
    "sync-nand",
    "unused-command-line-argument",
    "vector-operation-performance",
    "zero-length-bounds",
    "absolute-value",
    "alloc-zero",
    "alloc-size-larger-than",
    "arith-conversion",
    "attribute-alias",
    "attribute-warning",
    "builtin-declaration-mismatch",
    "cast-function-type",
    "coverage-mismatch",
    "format-diag",
    "if-not-aligned",
    "infinite-recursion",
    "mismatched-dealloc",
    "missing-attributes",
    "missing-profile",
    "multistatement-macros",
    "no-return",
    "nested-functions",
    "aggregate-return",
    "aggressive-loop-optimizations",
    "analyzer-too-complex",
    "array-compare",
    "enum-int-mismatch",
    "flex-array-member-not-at-end",
    "int-in-bool-context",
    "invalid-pch",
    "lto-type-mismatch",
    "old-style-cast",
    "use-after-free",
    "xor-used-as-pow",
    "strict-flex-arrays",
    "fatal-errors",
    "abi",
    "extra-semi",
    "gnu",
    "everything",
    "newline-eof",
    "incompatible-function-pointer-types",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Options, CliError> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn joined_and_separate_forms() {
        let o = p(&[
            "-Ia", "-I", "b", "-isystem", "c", "-iquote", "d", "-DX=1", "-D", "Y", "-UZ", "-o",
            "out", "x.c",
        ])
        .unwrap();
        assert_eq!(
            o.include_dirs,
            vec![
                (PathBuf::from("a"), false),
                (PathBuf::from("b"), false),
                (PathBuf::from("c"), true)
            ]
        );
        assert_eq!(o.quote_dirs, vec![PathBuf::from("d")]);
        assert_eq!(
            o.macros,
            vec![
                MacroArg::Define("X=1".into()),
                MacroArg::Define("Y".into()),
                MacroArg::Undef("Z".into())
            ]
        );
        assert_eq!(o.output.as_deref(), Some("out"));
        assert_eq!(o.inputs.len(), 1);
        assert_eq!(o.inputs[0].lang, Lang::C);
    }

    #[test]
    fn longest_match_wins() {
        let o = p(&[
            "-MMD", "-MF", "x.d", "-MT", "t", "-MQ", "$(x) y", "-E", "a.c",
        ])
        .unwrap();
        assert!(o.deps.side && o.deps.user_only && !o.deps.only);
        assert_eq!(o.deps.file.as_deref(), Some("x.d"));
        assert_eq!(
            o.deps.targets,
            vec![("t".to_string(), false), ("$(x) y".to_string(), true)]
        );
        // -include is not -I nclude
        let o = p(&["-include", "h.h", "-imacros", "m.h", "a.c"]).unwrap();
        assert_eq!(
            o.forced_includes,
            vec![
                ForcedInclude::Include("h.h".into()),
                ForcedInclude::Macros("m.h".into())
            ]
        );
        assert!(o.include_dirs.is_empty());
    }

    #[test]
    fn stages_take_the_earliest() {
        assert_eq!(p(&["-c", "-E", "a.c"]).unwrap().stage, Stage::Preprocess);
        assert_eq!(p(&["-S", "-c", "a.c"]).unwrap().stage, Stage::Assemble);
        assert_eq!(p(&["-M", "a.c"]).unwrap().stage, Stage::Preprocess);
        assert_eq!(p(&["a.c"]).unwrap().stage, Stage::Link);
    }

    #[test]
    fn optimisation_and_std() {
        assert_eq!(p(&["-O"]).unwrap().opt_level, OptLevel::O1);
        assert_eq!(p(&["-O2"]).unwrap().opt_level, OptLevel::O2);
        assert_eq!(p(&["-Os"]).unwrap().opt_level, OptLevel::Os);
        assert_eq!(
            p(&["-std=c99"]).unwrap().std,
            Std {
                version: 199901,
                gnu: false
            }
        );
        assert_eq!(
            p(&["-std=gnu11"]).unwrap().std,
            Std {
                version: 201112,
                gnu: true
            }
        );
        assert_eq!(
            p(&["-ansi"]).unwrap().std,
            Std {
                version: 0,
                gnu: false
            }
        );
        assert!(p(&["-std=c++17"]).is_err());
        assert!(p(&["-Ox"]).is_err());
    }

    #[test]
    fn unknown_options_are_refused_like_gcc() {
        assert_eq!(
            p(&["-frobnicate"]).unwrap_err().0,
            "unrecognized command-line option '-frobnicate'"
        );
        assert_eq!(
            p(&["-Wfrobnicate"]).unwrap_err().0,
            "unrecognized command-line option '-Wfrobnicate'"
        );
        assert!(p(&["-Wno-frobnicate"]).is_ok());
        assert_eq!(
            p(&["--bogus"]).unwrap_err().0,
            "unrecognized command-line option '--bogus'"
        );
        assert_eq!(p(&["-o"]).unwrap_err().0, "missing argument to '-o'");
    }

    #[test]
    fn warning_and_feature_options() {
        let o = p(&[
            "-Wall",
            "-Werror=undef",
            "-Wno-unused",
            "-w",
            "-fmax-errors=3",
            "-fno-common",
            "-fPIC",
        ])
        .unwrap();
        assert!(o.warnings.suppress_all);
        assert!(o.warnings.errors.contains("undef"));
        assert!(o.warnings.disabled.contains("unused"));
        assert_eq!(o.max_errors, 3);
        assert_eq!(o.pic, PicLevel::Pic2);
        assert_eq!(p(&["-fno-pic"]).unwrap().pic, PicLevel::None);
        assert_eq!(p(&["-fPIC", "-fno-pie"]).unwrap().pic, PicLevel::None);
        assert_eq!(p(&["-fno-pie", "-fpic"]).unwrap().pic, PicLevel::Pic1);
    }

    #[test]
    fn linker_options_are_collected_in_order() {
        let o = p(&["a.o", "-lm", "-L", "/x", "-Wl,-z,now", "-static"]).unwrap();
        assert_eq!(
            o.linker_args,
            vec!["-lm", "-L", "/x", "-Wl,-z", "-Wl,now", "-static"]
        );
        assert_eq!(o.inputs[0].lang, Lang::Object);
    }

    #[test]
    fn response_files_split_like_gcc() {
        assert_eq!(
            split_response("a 'b c' \"d\\\"e\" f\\ g\n"),
            vec!["a", "b c", "d\"e", "f g"]
        );
    }

    #[test]
    fn mq_quotes_make_specials() {
        assert_eq!(quote_make_target("a b$#"), "a\\ b$$\\#");
    }
}
