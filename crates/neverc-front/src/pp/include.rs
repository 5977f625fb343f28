//! `#include`, `#include_next` and the header search (gcc's order: the includer's
//! directory for `"..."`, then `-iquote`, then `-I`, `-isystem`, neverc's own headers, the
//! system directories, `-idirafter`).

use super::Preprocessor;
use crate::diag::{Diagnostic, Level};
use crate::lex::p;
use crate::source::{Loc, SourceFile};
use crate::token::{flags, TokKind, Token};
use std::path::{Path, PathBuf};

/// A header name as written: `<a.h>` or `"a.h"`.
pub(super) struct HeaderSpec {
    pub name: String,
    pub angled: bool,
    pub loc: Loc,
}

impl Preprocessor {
    /// Reads the operand of `#include` (or of `__has_include`) from `toks`, which were
    /// lexed with header names enabled; macro-expands it when it is neither form.
    pub(super) fn header_spec(&mut self, toks: Vec<Token>, what: &str) -> Option<HeaderSpec> {
        let toks = match toks.first() {
            Some(t) if matches!(t.kind, TokKind::HeaderName | TokKind::Str) => toks,
            Some(_) => self.expand_list(toks),
            None => {
                // At the end of the line, where the name is missing.
                self.report(Diagnostic::error(
                    self.last_eod,
                    format!("{what} expects \"FILENAME\" or <FILENAME>"),
                ));
                return None;
            }
        };
        let first = *toks.first()?;
        let spelling = self.interner.get(first.sym).to_vec();
        match first.kind {
            TokKind::HeaderName => Some(HeaderSpec {
                name: String::from_utf8_lossy(&spelling[1..spelling.len() - 1]).into_owned(),
                angled: true,
                loc: first.loc,
            }),
            TokKind::Str if spelling.first() == Some(&b'"') => Some(HeaderSpec {
                // No escapes in header names: the text between the quotes, as written.
                name: String::from_utf8_lossy(&spelling[1..spelling.len() - 1]).into_owned(),
                angled: false,
                loc: first.loc,
            }),
            TokKind::Punct if first.sym == p::LT => {
                // `<` tokens `>` from a macro: the spellings joined, spaces where there were.
                let mut name = String::new();
                let mut closed = false;
                for (i, t) in toks.iter().enumerate().skip(1) {
                    if t.kind == TokKind::Punct && t.sym == p::GT {
                        closed = true;
                        break;
                    }
                    if i > 1 && t.has(flags::PREV_WHITE) {
                        name.push(' ');
                    }
                    name.push_str(&self.interner.str(t.sym));
                }
                if !closed {
                    self.report(Diagnostic::error(
                        first.loc,
                        "missing terminating > character",
                    ));
                    return None;
                }
                Some(HeaderSpec {
                    name,
                    angled: true,
                    loc: first.loc,
                })
            }
            _ => {
                self.report(Diagnostic::error(
                    first.loc,
                    format!("{what} expects \"FILENAME\" or <FILENAME>"),
                ));
                None
            }
        }
    }

    pub(super) fn do_include(&mut self, dname: Token, next: bool) {
        if dname.loc.file == self.main_file {
            self.main_includes.push(dname.loc.offset);
        }
        let frame = self.frames.last_mut().unwrap();
        frame.lexer.angle_header = true;
        let toks = self.read_line_raw();
        self.frames.last_mut().unwrap().lexer.angle_header = false;
        let word = if next { "#include_next" } else { "#include" };
        let Some(spec) = self.header_spec(toks, word) else {
            return;
        };
        if spec.name.is_empty() {
            self.report(Diagnostic::error(
                spec.loc,
                format!("empty filename in {word}"),
            ));
            return;
        }
        if self.frames.len() >= self.opts.max_include_depth {
            let d = Diagnostic::error(
                dname.loc,
                format!(
                    "#include nested depth {} exceeds maximum of {} (use -fmax-include-depth=DEPTH to increase the maximum)",
                    self.frames.len(),
                    self.opts.max_include_depth
                ),
            )
            .with_len(7);
            self.report(d);
            // Fatal here (gcc goes on): a header that includes itself twice would
            // otherwise take exponential time.
            self.fatal = true;
            return;
        }
        let start_after = if next {
            let cur = self.frames.last().unwrap();
            if cur.file == self.main_file {
                self.report(
                    Diagnostic::warning(dname.loc, "#include_next in primary source file")
                        .with_len(12),
                );
                None
            } else {
                cur.dir_index.map(|i| i + 1)
            }
        } else {
            None
        };
        let found = if let Some(start) = start_after.filter(|_| next) {
            self.search_from(&spec.name, start)
        } else {
            self.search(
                &spec.name,
                spec.angled,
                Some(self.frames.last().unwrap().file),
            )
        };
        match found {
            Some((path, idx, system)) => {
                let includer = Loc {
                    file: self.frames.last().unwrap().file,
                    offset: dname.loc.offset,
                };
                self.open_and_push(path, &spec.name, idx, system, Some(includer));
            }
            None => {
                if self.opts.missing_ok {
                    // -MG: a header to be generated, a dependency as spelled; a missing
                    // <header> counts as a system one (so -MM leaves it out, as gcc does).
                    let name = spec.name.clone();
                    self.add_dep(&name, &name, spec.angled);
                    return;
                }
                let len = spec.name.len() as u32 + 2;
                let d = Diagnostic::new(
                    Level::Fatal,
                    Some(spec.loc),
                    format!("{}: No such file or directory", spec.name),
                )
                .with_len(len);
                self.report(d);
                self.diags.plain_line("compilation terminated.");
                self.fatal = true;
            }
        }
    }

    /// Searches for a header: the includer's directory (quoted form only), then the
    /// `-iquote` directories (quoted form only), then the bracket chain. Returns the path
    /// as gcc spells it, its index in the combined search list, and whether it is a system
    /// header.
    pub(super) fn search(
        &mut self,
        name: &str,
        angled: bool,
        includer: Option<crate::source::FileId>,
    ) -> Option<(PathBuf, Option<usize>, bool)> {
        if Path::new(name).is_absolute() {
            let p = PathBuf::from(name);
            return p.is_file().then_some((p, None, false));
        }
        if !angled {
            if let Some(inc) = includer {
                let dir = self
                    .sm
                    .path(inc)
                    .and_then(|p| p.parent())
                    .map(Path::to_path_buf);
                let dir = dir.or_else(|| (self.sm.file(inc).path.is_none()).then(PathBuf::new));
                if let Some(dir) = dir {
                    let candidate = join_like_gcc(&dir, name);
                    if self.is_file_cached(&candidate) {
                        let system = self.is_system(inc);
                        return Some((candidate, None, system));
                    }
                }
            }
            for i in 0..self.opts.quote_dirs.len() {
                let d = &self.opts.quote_dirs[i];
                let (candidate, system) = (join_like_gcc(&d.path, name), d.system);
                if self.is_file_cached(&candidate) {
                    return Some((candidate, Some(i), system));
                }
            }
        }
        self.search_from(name, self.opts.quote_dirs.len())
    }

    /// Searches the combined list (quote dirs, then bracket dirs) from index `start`.
    fn search_from(&mut self, name: &str, start: usize) -> Option<(PathBuf, Option<usize>, bool)> {
        let nq = self.opts.quote_dirs.len();
        let total = nq + self.opts.bracket_dirs.len();
        for i in start..total {
            let d = if i < nq {
                &self.opts.quote_dirs[i]
            } else {
                &self.opts.bracket_dirs[i - nq]
            };
            let (candidate, system) = (join_like_gcc(&d.path, name), d.system);
            if self.is_file_cached(&candidate) {
                return Some((candidate, Some(i), system));
            }
        }
        None
    }

    /// `path.is_file()`, asked of the file system once per path: the same headers are
    /// looked for in the same directories again and again.
    fn is_file_cached(&mut self, path: &Path) -> bool {
        let key = path.as_os_str().as_encoded_bytes();
        if let Some(&known) = self.is_file_memo.get(key) {
            return known;
        }
        let found = path.is_file();
        self.is_file_memo.insert(key.to_vec(), found);
        found
    }

    /// `fs::canonicalize(path)`, asked once per path.
    pub(super) fn canonical_cached(&mut self, path: &Path) -> Option<PathBuf> {
        let key = path.as_os_str().as_encoded_bytes();
        if let Some(known) = self.canonical_memo.get(key) {
            return known.clone();
        }
        let canon = std::fs::canonicalize(path).ok();
        self.canonical_memo.insert(key.to_vec(), canon.clone());
        canon
    }

    /// Would `__has_include` find this header?
    pub(super) fn header_exists(&mut self, spec: &HeaderSpec, next: bool) -> bool {
        if next {
            let start = self.frames.last().and_then(|f| f.dir_index).map(|i| i + 1);
            if let Some(s) = start {
                return self.search_from(&spec.name, s).is_some();
            }
        }
        let includer = self.frames.last().map(|f| f.file);
        self.search(&spec.name, spec.angled, includer).is_some()
    }

    /// Opens a found header and starts reading it, unless `#pragma once` or its include
    /// guard says it would add nothing.
    ///
    /// `spelled` is the name as the directive wrote it: gcc lists a header in `-M` output
    /// once per directory and spelling it was looked up with, so the same file reached as
    /// `a.h` and as `sub/../a.h` is listed twice.
    pub(super) fn open_and_push(
        &mut self,
        path: PathBuf,
        spelled: &str,
        dir_index: Option<usize>,
        system: bool,
        includer: Option<Loc>,
    ) {
        let name = path.to_string_lossy().into_owned();
        let mut dep_key = String::with_capacity(name.len() + 1 + spelled.len());
        dep_key.push_str(&name);
        dep_key.push('\0');
        dep_key.push_str(spelled);
        let canon = self.canonical_cached(&path);
        if let Some(c) = &canon {
            if self.once.contains(c) {
                return;
            }
            if let Some(g) = self.guards.get(c) {
                if self.macros.contains_key(g) {
                    // gcc reads it (finding nothing new) and lists it.
                    self.add_dep(&name, &dep_key, system);
                    return;
                }
            }
        }
        let raw = match std::fs::read(&path) {
            Ok(r) => r,
            Err(e) => {
                let msg = format!("{}: {}", path.display(), io_error_text(&e));
                let d = Diagnostic::new(Level::Fatal, includer, msg);
                self.report(d);
                self.diags.plain_line("compilation terminated.");
                self.fatal = true;
                return;
            }
        };
        let file = SourceFile::load(name.clone(), Some(path), raw, self.opts.trigraphs);
        let id = self.sm.add_included(file, includer);
        self.push_frame(id, dir_index, system, includer.is_none());
        // Listed when reading it starts, so forced includes appear in command-line order.
        self.frames.last_mut().unwrap().dep = Some((name, dep_key));
    }
}

/// `dir/name` the way gcc writes it: no `./` for the current directory, one `/` between.
fn join_like_gcc(dir: &Path, name: &str) -> PathBuf {
    // Bytes joined by hand: `format!` costs more than the file-name cache it feeds.
    let d = dir.as_os_str();
    let mut s = std::ffi::OsString::with_capacity(d.len() + 1 + name.len());
    s.push(d);
    if !d.is_empty() && !d.as_encoded_bytes().ends_with(b"/") {
        s.push("/");
    }
    s.push(name);
    PathBuf::from(s)
}

/// The C library's wording for an I/O error, as gcc prints it.
pub fn io_error_text(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ if e.raw_os_error() == Some(21) => "Is a directory".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    }
}
