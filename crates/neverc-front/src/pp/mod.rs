//! The preprocessor: translation phase 4 (directives, macro expansion, `#include`).
//!
//! [`Preprocessor::next_token`] yields the fully expanded token stream of a translation
//! unit; [`Preprocessor::take_events`] tells a consumer (the `-E` printer) where files were
//! entered and left and which pragmas were seen, in order with the tokens.

mod expr;
mod macros;
pub mod print;

pub use macros::{Builtin, Macro, MacroKind};

use crate::diag::{Diagnostic, Diagnostics, Level};
use crate::lex::{self, p, LexOptions, Lexer};
use crate::source::{clean, FileId, Loc, SourceFile, SourceMap};
use crate::token::{flags, FxHashMap, Interner, Symbol, TokKind, Token};
use macros::{Context, MacroTable};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The C standard and dialect (`-std=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Std {
    /// `__STDC_VERSION__`, or 0 for C89/C90 (which has none).
    pub version: u32,
    /// GNU dialect (`gnu17`): no `__STRICT_ANSI__`, no trigraphs, `linux`/`unix` macros.
    pub gnu: bool,
}

impl Std {
    /// Parses a `-std=` value.
    pub fn parse(s: &str) -> Option<Std> {
        let (gnu, rest) = if let Some(r) = s.strip_prefix("gnu") {
            (true, r)
        } else if let Some(r) = s.strip_prefix("c") {
            (false, r)
        } else if let Some(r) = s.strip_prefix("iso9899:") {
            (false, r)
        } else {
            return None;
        };
        let version = match rest {
            "89" | "90" | "1990" => 0,
            "199409" => 199409,
            "99" | "9x" | "1999" | "199x" => 199901,
            "11" | "1x" | "2011" => 201112,
            "17" | "18" | "2017" | "2018" => 201710,
            "2x" | "23" => 202000,
            _ => return None,
        };
        if s.starts_with("iso9899:") && matches!(rest, "89" | "9x" | "1x" | "2x" | "23" | "199x") {
            return None;
        }
        Some(Std { version, gnu })
    }
}

impl Default for Std {
    fn default() -> Self {
        Std {
            version: 201710,
            gnu: true,
        }
    }
}

/// A directory on the include search path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDir {
    pub path: PathBuf,
    /// Headers found here are system headers (`-isystem`, built-in and system dirs).
    pub system: bool,
}

/// What the preprocessor needs to know from the command line.
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub std: Std,
    pub lex: LexOptions,
    pub trigraphs: bool,
    /// `-iquote` directories (searched for `"..."` only, after the includer's directory).
    pub quote_dirs: Vec<SearchDir>,
    /// `-I`, `-isystem`, neverc's own headers, the system directories, `-idirafter`.
    pub bracket_dirs: Vec<SearchDir>,
    /// `-MG`: a missing header is a dependency to be generated, not an error.
    pub missing_ok: bool,
    /// `SOURCE_DATE_EPOCH`, for `__DATE__` and `__TIME__`.
    pub source_date_epoch: Option<i64>,
    /// `-fmax-include-depth` (gcc's default is 200).
    pub max_include_depth: usize,
    /// Plain `char` is signed on the target (for character constants in `#if`).
    pub char_signed: bool,
    /// Width and signedness of `wchar_t`.
    pub wchar_bits: u32,
    pub wchar_signed: bool,
    /// Names `__has_builtin` answers 1 for.
    pub builtins: Vec<&'static str>,
    /// Attribute names `__has_attribute` answers for (with the version number gcc gives).
    pub attributes: Vec<(&'static str, u32)>,
}

/// Something a consumer of the token stream must see in order with the tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A file starts being read: the main file, a header named by `#include`, or (`forced`)
    /// one the command line includes (`-include`, the implicit `stdc-predef.h`).
    Enter {
        file: FileId,
        forced: bool,
        system: bool,
    },
    /// A file ended; reading goes on in `to` at clean offset `offset` (unless `forced`:
    /// then the next forced include or the main file starts). An offset, not a line: most
    /// consumers never need the line, and finding it means scanning the includer's text.
    Leave {
        to: FileId,
        offset: u32,
        forced: bool,
        system: bool,
    },
    /// `#line` changed the presumed name or number from the next line on.
    Line { file: FileId, line: u32 },
    /// A `#pragma` (or `_Pragma`) to pass on: its text after `#pragma `, and where.
    Pragma { text: String, loc: Loc },
    /// `#ident "text"` (or `#sccs`): the string literal, and where.
    Ident { text: String, loc: Loc },
}

/// An `#if` group being read.
struct Cond {
    /// Where the `#if` was.
    loc: Loc,
    /// A group of this conditional has been taken (so later `#elif`/`#else` are skipped).
    taken: bool,
    /// `#else` seen.
    seen_else: bool,
}

/// One file being read.
struct Frame {
    file: FileId,
    lexer: Lexer,
    conds: Vec<Cond>,
    /// Index in the full search path (quote dirs then bracket dirs) where the file was
    /// found, for `#include_next`.
    dir_index: Option<usize>,
    system: bool,
    /// Came from the command line, not from an `#include`.
    forced: bool,
    /// Its `Enter` event has been sent (sent when reading from it starts).
    announced: bool,
    /// Its dependency (name, dedup key), recorded when reading from it starts.
    dep: Option<(String, String)>,
    /// Multiple-include optimisation: the guard macro while the file still looks like
    /// `#ifndef G ... #endif` with nothing outside.
    mi: MiState,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum MiState {
    /// Nothing seen yet: an `#ifndef` now would be the guard.
    Start,
    /// Inside the guard's conditional (depth 1 == the guard).
    Inside(Symbol),
    /// The guard's `#endif` seen; anything but whitespace after it spoils it.
    After(Symbol),
    Spoiled,
}

/// The preprocessor of one translation unit.
pub struct Preprocessor {
    pub sm: SourceMap,
    pub interner: Interner,
    pub diags: Diagnostics,
    pub opts: PpOptions,
    macros: MacroTable,
    frames: Vec<Frame>,
    /// Files read as system headers, for diagnostics reported after they were read
    /// (semantic analysis).
    system_files: crate::token::FxHashSet<FileId>,
    contexts: Vec<Context>,
    /// Token buffers of finished contexts, arguments and expansions, kept for reuse: a
    /// macro call needs several short-lived lists, and allocating each anew was a quarter
    /// of the preprocessor's time in system headers.
    spare: Vec<Vec<Token>>,
    /// Argument lists of finished macro calls, kept for reuse likewise.
    spare_args: Vec<macros::Args>,
    /// The spelling being built by a `##`, kept for reuse.
    paste_buf: Vec<u8>,
    events: Vec<Event>,
    /// Non-zero while reading a macro's arguments (or looking for its `(`): the end of a
    /// file ends the read instead of popping back to the includer.
    collecting_args: u32,
    eof_pushed_back: bool,
    counter: u32,
    /// Files seen with `#pragma once` (canonical paths).
    once: HashSet<PathBuf>,
    /// Include guards found: canonical path -> guard macro.
    guards: FxHashMap<PathBuf, Symbol>,
    /// Answers of the file system, asked once per path (see `is_file_cached`), keyed by
    /// the path's bytes: hashing a `Path` walks its components, several times the cost.
    is_file_memo: FxHashMap<Vec<u8>, bool>,
    canonical_memo: FxHashMap<Vec<u8>, Option<PathBuf>>,
    /// Every file opened, in order, with whether it is a system header (for `-M`).
    pub deps: Vec<(String, bool)>,
    deps_seen: HashSet<String>,
    /// `#pragma push_macro` stacks.
    pushed: FxHashMap<Symbol, Vec<Option<Macro>>>,
    poisoned: crate::token::FxHashSet<Symbol>,
    base_file: String,
    sym_defined: Symbol,
    sym_va_args: Symbol,
    sym_va_opt: Symbol,
    /// Set by a fatal error (missing include): stop reading.
    fatal: bool,
    /// Inside a directive's expression (`#if`), where `defined` is an operator.
    in_if: bool,
    /// The main file's id.
    main_file: FileId,
    /// Where the main file's `#include` directives are (offsets of their names), for
    /// gcc's "did you forget to '#include <stddef.h>'?" notes, placed after the last.
    pub main_includes: Vec<u32>,
    /// Where the last directive line read ended (gcc points there for a missing name).
    last_eod: Loc,
    /// Set by `#if` evaluation when the line is `!defined X`: a possible include guard.
    if_not_defined_guard: Option<Symbol>,
    date_time: Option<(String, String)>,
}

impl Preprocessor {
    /// A preprocessor whose diagnostics go to `diags`. File 0 is the `<built-in>` buffer.
    pub fn new(opts: PpOptions, diags: Diagnostics) -> Self {
        let mut interner = Interner::new();
        lex::intern_punctuators(&mut interner);
        let mut sm = SourceMap::new();
        sm.add(SourceFile::new(
            "<built-in>".into(),
            None,
            Vec::new(),
            clean(b"", false),
        ));
        let sym_defined = interner.intern(b"defined");
        let sym_va_args = interner.intern(b"__VA_ARGS__");
        let sym_va_opt = interner.intern(b"__VA_OPT__");
        let mut pp = Preprocessor {
            sm,
            interner,
            diags,
            opts,
            macros: MacroTable::default(),
            frames: Vec::new(),
            system_files: Default::default(),
            contexts: Vec::new(),
            spare: Vec::new(),
            spare_args: Vec::new(),
            paste_buf: Vec::new(),
            events: Vec::new(),
            collecting_args: 0,
            eof_pushed_back: false,
            counter: 0,
            once: HashSet::new(),
            guards: FxHashMap::default(),
            is_file_memo: FxHashMap::default(),
            canonical_memo: FxHashMap::default(),
            deps: Vec::new(),
            deps_seen: HashSet::new(),
            pushed: FxHashMap::default(),
            poisoned: Default::default(),
            base_file: String::new(),
            sym_defined,
            sym_va_args,
            sym_va_opt,
            fatal: false,
            in_if: false,
            main_file: FileId(0),
            main_includes: Vec::new(),
            date_time: None,
            if_not_defined_guard: None,
            last_eod: Loc::default(),
        };
        if pp.opts.max_include_depth == 0 {
            pp.opts.max_include_depth = 200;
        }
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__TIMESTAMP__", Builtin::Timestamp),
            ("__BASE_FILE__", Builtin::BaseFile),
            ("__FILE_NAME__", Builtin::FileName),
            ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
            ("_Pragma", Builtin::Pragma),
            ("__has_include", Builtin::HasInclude),
            ("__has_include_next", Builtin::HasIncludeNext),
            ("__has_attribute", Builtin::HasAttribute),
            ("__has_cpp_attribute", Builtin::HasAttribute),
            ("__has_c_attribute", Builtin::HasCAttribute),
            ("__has_builtin", Builtin::HasBuiltin),
        ] {
            let sym = pp.interner.intern(name.as_bytes());
            pp.macros.insert(
                sym,
                Macro {
                    name: name.into(),
                    kind: MacroKind::Builtin(b),
                    body: Vec::new().into(),
                    def_loc: Loc::default(),
                    disabled: false,
                    used: false,
                    predefined: true,
                },
            );
        }
        pp
    }

    pub fn report(&mut self, d: Diagnostic) {
        // Warnings in system headers are not shown (as gcc does), but for `#warning`'s.
        if d.level == Level::Warning && d.option != Some("cpp") {
            if let Some(loc) = d.loc {
                if self.is_system(loc.file) {
                    self.diags.dropped();
                    return;
                }
            }
        }
        self.diags.report(&self.sm, d);
    }

    /// The file being read is a system header from here on (`#pragma GCC system_header`).
    pub(crate) fn mark_system(&mut self) {
        let f = self.frames.last_mut().unwrap();
        f.system = true;
        self.system_files.insert(f.file);
    }

    /// Is `file` a system header (warnings in it are not shown)? While it is being read,
    /// as its frame says; after, if it was read as one.
    pub fn is_system(&self, file: FileId) -> bool {
        match self.frames.iter().rev().find(|f| f.file == file) {
            Some(f) => f.system,
            None => self.system_files.contains(&file),
        }
    }

    /// Events since the last call (file changes, pragmas), in stream order.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    pub fn has_events(&self) -> bool {
        !self.events.is_empty()
    }

    pub fn main_file(&self) -> FileId {
        self.main_file
    }

    /// Defines macros from text in `#define` syntax (the predefined set and `-D`/`-U`,
    /// which the driver renders as `#define`/`#undef` lines), as gcc's `<built-in>` and
    /// `<command-line>` buffers.
    pub fn run_builtin_text(&mut self, name: &str, text: &str) {
        let file = SourceFile::load(name.into(), None, text.as_bytes().to_vec(), false);
        let id = self.sm.add(file);
        self.push_frame(id, None, false, true);
        // Read to the end of this buffer only.
        let depth = self.frames.len();
        while self.frames.len() >= depth && !self.fatal {
            let t = self.next_raw_file_level(true);
            if t.kind == TokKind::Eof {
                break;
            }
            if self.frames.len() < depth {
                break;
            }
            // Tokens outside directives in a built-in buffer: ignore (as -include would not).
        }
        self.events.clear();
    }

    /// Starts reading the main file (already read into memory).
    pub fn enter_main(&mut self, name: &str, path: Option<PathBuf>, raw: Vec<u8>) {
        let file = SourceFile::load(name.into(), path, raw, self.opts.trigraphs);
        let id = self.sm.add(file);
        self.main_file = id;
        self.base_file = name.to_string();
        // The main file comes first in make rules, before any forced include.
        self.add_dep(name, name, false);
        self.push_frame(id, None, false, false);
    }

    /// Processes a file given with `-include` (its tokens are part of the stream) or
    /// `-imacros` (only its macros are kept): pushed above the main file.
    pub fn push_forced_include(&mut self, spelled: &str) -> bool {
        let path = Path::new(spelled);
        // gcc looks for -include files in the current directory first, then the chain.
        let found = if path.is_file() {
            Some((PathBuf::from(spelled), None, false))
        } else {
            self.search(spelled, false, None)
        };
        match found {
            Some((p, idx, sys)) => {
                self.open_and_push(p, spelled, idx, sys, None);
                true
            }
            None => {
                self.report(Diagnostic::new(
                    Level::Fatal,
                    None,
                    format!("{spelled}: No such file or directory"),
                ));
                self.fatal = true;
                false
            }
        }
    }

    /// Reads an `-imacros` file to its end, keeping its macros and dropping its tokens.
    pub fn run_imacros(&mut self, spelled: &str) {
        let depth = self.frames.len();
        if !self.push_forced_include(spelled) {
            return;
        }
        while self.frames.len() > depth && !self.fatal {
            let t = self.next_raw_file_level(true);
            if t.kind == TokKind::Eof && self.frames.len() <= depth {
                break;
            }
        }
        self.events.clear();
    }

    fn push_frame(&mut self, id: FileId, dir_index: Option<usize>, system: bool, forced: bool) {
        let text = self.sm.file(id).text.clone();
        let lexer = Lexer::new(id, text, self.opts.lex);
        if system {
            self.system_files.insert(id);
        }
        self.frames.push(Frame {
            file: id,
            lexer,
            conds: Vec::new(),
            dir_index,
            system,
            forced,
            announced: false,
            dep: None,
            mi: MiState::Start,
        });
    }

    /// Includes a header from the bracket search path if it exists (gcc's implicit
    /// `stdc-predef.h`), read before the main file.
    pub fn push_optional_system_include(&mut self, name: &str) {
        if let Some((p, idx, sys)) = self.search(name, true, None) {
            self.open_and_push(p, name, idx, sys, None);
        }
    }

    /// An empty token buffer, reused when one is spare.
    pub(super) fn take_buf(&mut self) -> Vec<Token> {
        self.spare.pop().unwrap_or_default()
    }

    /// Gives a token buffer back for reuse.
    pub(super) fn give_buf(&mut self, mut v: Vec<Token>) {
        // A few dozen are enough for any nesting of calls; a huge one is not kept.
        if self.spare.len() < 64 && v.capacity() != 0 && v.capacity() <= 1 << 16 {
            v.clear();
            self.spare.push(v);
        }
    }

    /// The next unexpanded token: from the expansion contexts, else from the files
    /// (processing directives on the way). Inlined: reading the next token of a context,
    /// or of the file when there is none, is the per-token path of the whole preprocessor.
    #[inline]
    pub(super) fn next_raw(&mut self) -> Token {
        if let Some(c) = self.contexts.last_mut() {
            if c.pos < c.tokens.len() {
                let t = c.tokens[c.pos];
                c.pos += 1;
                return t;
            }
            return self.next_raw_after_context();
        }
        if self.eof_pushed_back {
            return self.pushed_back_eof();
        }
        self.next_raw_file_level(false)
    }

    /// [`Preprocessor::next_raw`] when the innermost context is exhausted: pops it (and
    /// any more that are), then reads on.
    #[inline(never)]
    fn next_raw_after_context(&mut self) -> Token {
        while let Some(c) = self.contexts.last_mut() {
            if c.pos < c.tokens.len() {
                let t = c.tokens[c.pos];
                c.pos += 1;
                return t;
            }
            // An argument's end marker stays until its reader pops it.
            self.pop_context();
        }
        if self.eof_pushed_back {
            return self.pushed_back_eof();
        }
        self.next_raw_file_level(false)
    }

    #[cold]
    fn pushed_back_eof(&mut self) -> Token {
        self.eof_pushed_back = false;
        let loc = self.frames.last().map_or(Loc::default(), |f| Loc {
            file: f.file,
            offset: f.lexer.pos() as u32,
        });
        Token::new(TokKind::Eof, Symbol(0), loc)
    }

    /// The next token from the current file, directives processed. The common case is
    /// inlined and kept small: an ordinary token of a file already announced, no lexer
    /// diagnostics, no poisoned names.
    #[inline]
    fn next_raw_file_level(&mut self, stop_at_buffer_end: bool) -> Token {
        if !self.fatal {
            if let Some(frame) = self.frames.last_mut() {
                if frame.announced {
                    let t = frame.lexer.next(&mut self.interner);
                    let ordinary = match t.kind {
                        TokKind::Eof | TokKind::Eod => false,
                        TokKind::Punct => {
                            !(t.has(flags::BOL) && (t.sym == p::HASH || t.sym == p::HASH_DIGRAPH))
                        }
                        _ => true,
                    };
                    if ordinary && frame.lexer.diags.is_empty() && self.poisoned.is_empty() {
                        // Tokens inside the guard's conditional keep the guard.
                        if frame.mi != MiState::Spoiled && frame.conds.is_empty() {
                            frame.mi = MiState::Spoiled;
                        }
                        return t;
                    }
                    if let Some(t) = self.file_token(t, stop_at_buffer_end) {
                        return t;
                    }
                }
            }
        }
        self.next_raw_file_level_slow(stop_at_buffer_end)
    }

    /// The converter's fast path: reads tokens straight from the current file and hands each
    /// to a `take` (kind, symbol, offset in the file, spelling) while nothing else can come
    /// between them (no expansion context, no directive, no macro name, no lexer
    /// diagnostic, no poisoned names), until `take` returns false for one. `start` makes
    /// `take` for the file (or declines to). Stops before the first token not taken,
    /// unread (see [`Lexer::plain_run`]): [`Preprocessor::next_token`] gives it then. A
    /// plain token of the main file costs its lexing, a few comparisons and `take`,
    /// instead of the whole per-token path once per token.
    #[inline]
    pub fn plain_tokens<F>(&mut self, start: impl FnOnce(FileId) -> Option<F>)
    where
        F: FnMut(TokKind, Symbol, u32, &[u8]) -> bool,
    {
        if !self.contexts.is_empty()
            || self.eof_pushed_back
            || self.fatal
            || !self.poisoned.is_empty()
            || !self.events.is_empty()
        {
            return;
        }
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        // Outside every conditional of a file that may still have an include guard, the
        // next ordinary token spoils the guard: the general path reads that one. (Inside a
        // conditional, or once spoiled, tokens do not change it, and no directive is read
        // here.)
        if !frame.announced
            || (frame.mi != MiState::Spoiled && frame.conds.is_empty())
            || !frame.lexer.diags.is_empty()
        {
            return;
        }
        let Some(mut take) = start(frame.file) else {
            return;
        };
        let macros = &self.macros;
        frame
            .lexer
            .plain_run(&mut self.interner, |kind, sym, start, end, text| {
                // A macro's name is expanded by the general path.
                if kind == TokKind::Ident && macros.contains_key(&sym) {
                    return false;
                }
                // (`get`, which cannot fail here: no check left behind for the tokens whose
                // spelling `take` does not read.)
                take(
                    kind,
                    sym,
                    start as u32,
                    text.get(start..end).unwrap_or_default(),
                )
            });
    }

    /// [`Preprocessor::next_raw_file_level`] after its first try: the same, in a loop.
    #[inline(never)]
    fn next_raw_file_level_slow(&mut self, stop_at_buffer_end: bool) -> Token {
        loop {
            if !self.fatal {
                if let Some(frame) = self.frames.last_mut() {
                    if frame.announced {
                        let t = frame.lexer.next(&mut self.interner);
                        if let Some(t) = self.file_token(t, stop_at_buffer_end) {
                            return t;
                        }
                        continue;
                    }
                }
            }
            if let Some(t) = self.file_level_start() {
                return t;
            }
        }
    }

    /// The cases [`Preprocessor::next_raw_file_level`] leaves aside before reading: a
    /// fatal error or no file left (an `Eof` to return), or a file whose `Enter` event is
    /// still to be sent (sent now; `None`: read on).
    #[inline(never)]
    fn file_level_start(&mut self) -> Option<Token> {
        if self.fatal {
            return Some(Token::new(TokKind::Eof, Symbol(0), Loc::default()));
        }
        let Some(frame) = self.frames.last_mut() else {
            return Some(Token::new(TokKind::Eof, Symbol(0), Loc::default()));
        };
        if !frame.announced {
            frame.announced = true;
            let (file, forced, system) = (frame.file, frame.forced, frame.system);
            if let Some((name, key)) = frame.dep.take() {
                self.add_dep(&name, &key, system);
            }
            self.events.push(Event::Enter {
                file,
                forced,
                system,
            });
        }
        None
    }

    /// A token just read from the current file that is not an ordinary one (or came with
    /// lexer diagnostics, or poisoned names exist): the token to return, or `None` to read
    /// on (a directive was processed, a file ended).
    #[inline(never)]
    fn file_token(&mut self, t: Token, stop_at_buffer_end: bool) -> Option<Token> {
        if !self.frames.last().unwrap().lexer.diags.is_empty() {
            self.flush_lex_diags();
        }
        match t.kind {
            TokKind::Eof => {
                if self.collecting_args > 0 {
                    return Some(t);
                }
                self.end_of_file();
                if stop_at_buffer_end || self.frames.is_empty() {
                    return Some(t);
                }
                None
            }
            TokKind::Punct
                if t.has(flags::BOL) && (t.sym == p::HASH || t.sym == p::HASH_DIGRAPH) =>
            {
                // Also inside macro arguments, as gcc does.
                self.directive(t);
                None
            }
            TokKind::Eod => {
                // Only inside a directive, handled there.
                Some(t)
            }
            _ => {
                let frame = self.frames.last_mut().unwrap();
                if frame.mi != MiState::Spoiled && !frame.conds.is_empty() {
                    // Tokens inside the guard are fine.
                } else {
                    frame.mi = MiState::Spoiled;
                }
                if t.kind == TokKind::Ident
                    && !self.poisoned.is_empty()
                    && self.poisoned.contains(&t.sym)
                {
                    let name = self.interner.str(t.sym).into_owned();
                    let len = name.len() as u32;
                    self.report(
                        Diagnostic::error(t.loc, format!("attempt to use poisoned \"{name}\""))
                            .with_len(len),
                    );
                }
                Some(t)
            }
        }
    }

    /// Reports what the current file's lexer found (nothing, nearly always: checked here,
    /// inlined, before a call).
    #[inline]
    fn flush_lex_diags(&mut self) {
        if self
            .frames
            .last()
            .is_some_and(|f| !f.lexer.diags.is_empty())
        {
            self.report_lex_diags();
        }
    }

    #[inline(never)]
    fn report_lex_diags(&mut self) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let diags = std::mem::take(&mut frame.lexer.diags);
        for d in diags {
            let level = if d.error {
                Level::Error
            } else {
                Level::Warning
            };
            self.report(Diagnostic::new(level, Some(d.loc), d.message).with_len(d.len));
        }
    }

    #[inline(never)]
    fn end_of_file(&mut self) {
        let frame = self.frames.pop().unwrap();
        for c in &frame.conds {
            let word = self.directive_word_at(c.loc);
            let mut d = Diagnostic::error(c.loc, format!("unterminated #{word}"));
            d.line_only = true;
            self.report(d);
        }
        if let MiState::After(guard) | MiState::Inside(guard) = frame.mi {
            if matches!(frame.mi, MiState::After(_)) {
                if let Some(path) = self.sm.path(frame.file).map(Path::to_path_buf) {
                    if let Some(canon) = self.canonical_cached(&path) {
                        self.guards.insert(canon, guard);
                    }
                }
            }
        }
        if let Some(includer) = self.frames.last() {
            let offset = includer.lexer.pos() as u32;
            let system = includer.system;
            self.events.push(Event::Leave {
                to: includer.file,
                offset,
                forced: frame.forced,
                system,
            });
        }
    }

    /// The directive name written at `loc` (`if`, `ifdef`, ...), for messages.
    fn directive_word_at(&self, loc: Loc) -> String {
        let text = &self.sm.file(loc.file).text;
        let mut i = loc.offset as usize;
        while i < text.len()
            && (text[i] == b'#'
                || text[i] == b' '
                || text[i] == b'\t'
                || text[i] == b'%'
                || text[i] == b':')
        {
            i += 1;
        }
        let start = i;
        while i < text.len() && text[i].is_ascii_alphabetic() {
            i += 1;
        }
        String::from_utf8_lossy(&text[start..i]).into_owned()
    }

    /// Records a dependency once per `key`, spelled without leading `./` (as gcc's make
    /// rules have it).
    fn add_dep(&mut self, name: &str, key: &str, system: bool) {
        if self.deps_seen.insert(key.to_string()) {
            let mut n = name;
            while let Some(rest) = n.strip_prefix("./") {
                n = rest.trim_start_matches('/');
            }
            self.deps.push((n.to_string(), system));
        }
    }

    pub fn macro_named(&self, name: &str) -> Option<&Macro> {
        self.interner
            .lookup(name.as_bytes())
            .and_then(|s| self.macros.get(&s))
    }

    /// Every macro defined now, builtins excluded, in definition order is not kept: sorted
    /// by name for reproducible `-dM` output.
    pub fn defined_macros(&self) -> Vec<&Macro> {
        let mut v: Vec<&Macro> = self
            .macros
            .values()
            .filter(|m| !matches!(m.kind, MacroKind::Builtin(_)))
            .collect();
        v.sort_by(|a, b| a.name.cmp(&b.name));
        v
    }

    /// The text of a macro's definition as `#define` would show it (for `-dM`).
    pub fn macro_definition_text(&self, m: &Macro) -> String {
        let mut s = String::from(&*m.name);
        if let MacroKind::Function { params, variadic } = &m.kind {
            s.push('(');
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                let name = self.interner.str(*p);
                if *variadic && i + 1 == params.len() {
                    if *p == self.sym_va_args {
                        s.push_str("...");
                    } else {
                        s.push_str(&name);
                        s.push_str("...");
                    }
                } else {
                    s.push_str(&name);
                }
            }
            s.push(')');
        }
        s.push(' ');
        for (i, t) in m.body.iter().enumerate() {
            if i > 0 && t.has(flags::PREV_WHITE) {
                s.push(' ');
            }
            s.push_str(&self.interner.str(t.sym));
            if t.has(flags::PASTE_LEFT) {
                s.push_str(" ## ");
            }
        }
        s
    }

    /// Warnings about macros never used (`-Wunused-macros`), at the end of the unit.
    pub fn finish(&mut self) {
        if !self.diags.policy.is_enabled("unused-macros") {
            return;
        }
        let mut unused: Vec<(Loc, String)> = self
            .macros
            .values()
            .filter(|m| !m.used && !m.predefined && m.def_loc.file == self.main_file)
            .map(|m| (m.def_loc, m.name.to_string()))
            .collect();
        unused.sort_by_key(|(l, _)| l.offset);
        for (loc, name) in unused {
            let len = name.len() as u32;
            self.report(
                Diagnostic::warning(loc, format!("macro \"{name}\" is not used"))
                    .with_len(len)
                    .with_option("unused-macros"),
            );
        }
    }

    pub fn fatal(&self) -> bool {
        self.fatal
    }
}

mod directives;
mod include;
pub use include::io_error_text;
