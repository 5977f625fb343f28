//! Diagnostics in gcc's layout: `file:line:col: error: message`, the source line with a
//! gutter, a caret with an underline, "In file included from" chains and "in expansion of
//! macro" notes, coloured like gcc when asked.

use crate::source::{FileId, Loc, SourceMap};
use std::collections::HashSet;
use std::io::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
    Fatal,
}

/// One diagnostic before rendering.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub level: Level,
    pub loc: Option<Loc>,
    /// Bytes underlined after the caret's first one.
    pub len: u32,
    pub message: String,
    /// The `-W` option that controls a warning (`"unused-macros"`), shown as `[-Wunused-macros]`.
    pub option: Option<&'static str>,
    /// Macro expansion the location came from (0: none); see [`SourceMap::expansion`].
    pub expansion: u32,
    /// Print only `file:line:` (gcc does for "unterminated #if").
    pub line_only: bool,
}

impl Diagnostic {
    pub fn new(level: Level, loc: Option<Loc>, message: impl Into<String>) -> Self {
        Diagnostic {
            level,
            loc,
            len: 1,
            message: message.into(),
            option: None,
            expansion: 0,
            line_only: false,
        }
    }
    pub fn error(loc: Loc, message: impl Into<String>) -> Self {
        Self::new(Level::Error, Some(loc), message)
    }
    pub fn warning(loc: Loc, message: impl Into<String>) -> Self {
        Self::new(Level::Warning, Some(loc), message)
    }
    pub fn with_len(mut self, len: u32) -> Self {
        self.len = len.max(1);
        self
    }
    pub fn with_option(mut self, option: &'static str) -> Self {
        self.option = Some(option);
        self
    }
    pub fn in_expansion(mut self, expansion: u32) -> Self {
        self.expansion = expansion;
        self
    }
}

/// Which warnings are shown and which become errors (`-w`, `-Wno-x`, `-Werror[=x]`).
#[derive(Clone, Debug, Default)]
pub struct WarningPolicy {
    pub suppress_all: bool,
    pub all_errors: bool,
    pub disabled: HashSet<String>,
    pub enabled: HashSet<String>,
    pub errors: HashSet<String>,
    pub not_errors: HashSet<String>,
    /// `-fpermissive`: permerrors (errors that carry a `-W` option, such as implicit
    /// function declarations in C99) become warnings.
    pub permissive: bool,
}

impl WarningPolicy {
    /// Applies one `-W...` option (without the `-W`); returns false when it is not a
    /// warning option at all.
    pub fn apply(&mut self, opt: &str) {
        if opt == "error" {
            self.all_errors = true;
        } else if opt == "no-error" {
            self.all_errors = false;
        } else if let Some(name) = opt.strip_prefix("error=") {
            // As in gcc, -Werror=x also turns -Wx on.
            self.errors.insert(name.to_string());
            self.enabled.insert(name.to_string());
            self.disabled.remove(name);
        } else if let Some(name) = opt.strip_prefix("no-error=") {
            self.not_errors.insert(name.to_string());
        } else if let Some(name) = opt.strip_prefix("no-") {
            self.disabled.insert(name.to_string());
            self.enabled.remove(name);
        } else {
            self.enabled.insert(opt.to_string());
            self.disabled.remove(opt);
        }
    }

    /// Is a warning of `option`, or of one of its `groups` (such as `all`), asked for and
    /// not turned off (`-w`, `-Wno-option`)?
    pub fn wants(&self, option: &str, groups: &[&str]) -> bool {
        if self.suppress_all || self.disabled.contains(option) {
            return false;
        }
        self.enabled.contains(option)
            || groups
                .iter()
                .any(|g| self.enabled.contains(*g) && !self.disabled.contains(*g))
    }

    /// Is a warning that is off by default turned on (`-Wunused-macros`)?
    pub fn is_enabled(&self, option: &str) -> bool {
        self.enabled.contains(option)
    }
}

/// Collects, filters and prints diagnostics; counts errors for the exit status.
pub struct Diagnostics {
    pub errors: usize,
    pub warnings: usize,
    pub color: bool,
    pub max_errors: usize,
    pub policy: WarningPolicy,
    out: Box<dyn Write>,
    last_file: Option<FileId>,
    /// Set once `-fmax-errors` is reached: the caller should stop.
    pub stop: bool,
    /// The last diagnostic other than a note was dropped (`-w`, `-Wno-x`): so are the
    /// notes that follow it.
    dropped: bool,
}

const RESET: &str = "\x1b[m\x1b[K";
const BOLD: &str = "\x1b[01m\x1b[K";

impl Diagnostics {
    pub fn new(out: Box<dyn Write>) -> Self {
        Diagnostics {
            errors: 0,
            warnings: 0,
            color: false,
            max_errors: 0,
            policy: WarningPolicy::default(),
            out,
            last_file: None,
            stop: false,
            dropped: false,
        }
    }

    /// A diagnostic was dropped before reaching here (a warning in a system header): so
    /// are the notes that follow it.
    pub fn dropped(&mut self) {
        self.dropped = true;
    }

    /// To standard error.
    pub fn stderr() -> Self {
        Self::new(Box::new(std::io::stderr()))
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Reports a diagnostic without a source location (`neverc: error: ...`).
    pub fn plain(&mut self, level: Level, message: &str) {
        let d = Diagnostic::new(level, None, message);
        self.emit_header(None, "neverc", &d);
        let _ = writeln!(self.out);
        self.count(level);
    }

    /// A line of text with no location or level (gcc's "compilation terminated.").
    pub fn plain_line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn count(&mut self, level: Level) {
        match level {
            Level::Error | Level::Fatal => self.errors += 1,
            Level::Warning => self.warnings += 1,
            Level::Note => {}
        }
    }

    /// Applies the warning policy; returns the level to print at, or None to drop it.
    ///
    /// An error that carries an option is a permerror, as in current gcc (implicit
    /// function declarations and implicit int in C99 and later): `-Wno-X` drops it,
    /// `-fpermissive` or `-Wno-error=X` make it a warning. One difference from gcc 14:
    /// `-w` also makes permerrors warnings (so drops them), so that the code bases and
    /// test suites of the gcc 12 era, built with `-w`, still build.
    fn effective_level(&self, d: &Diagnostic) -> Option<Level> {
        if d.level == Level::Error {
            if let Some(opt) = d.option {
                if self.policy.disabled.contains(opt) {
                    return None;
                }
                let warning = self.policy.permissive
                    || self.policy.suppress_all
                    || self.policy.not_errors.contains(opt);
                if !warning {
                    return Some(Level::Error);
                }
                return self.effective_level(&Diagnostic {
                    level: Level::Warning,
                    ..d.clone()
                });
            }
        }
        if d.level != Level::Warning {
            return Some(d.level);
        }
        if self.policy.suppress_all {
            return None;
        }
        if let Some(opt) = d.option {
            if self.policy.disabled.contains(opt) {
                return None;
            }
            if self.policy.errors.contains(opt) {
                return Some(Level::Error);
            }
            if self.policy.not_errors.contains(opt) {
                return Some(Level::Warning);
            }
        }
        Some(if self.policy.all_errors {
            Level::Error
        } else {
            Level::Warning
        })
    }

    pub fn report(&mut self, sm: &SourceMap, mut d: Diagnostic) {
        if self.stop {
            return;
        }
        if d.level == Level::Note && self.dropped {
            return;
        }
        let Some(level) = self.effective_level(&d) else {
            self.dropped = true;
            return;
        };
        if d.level != Level::Note {
            self.dropped = false;
        }
        let promoted = level == Level::Error
            && (d.level == Level::Warning
                || (self.policy.permissive && d.option.is_some() && self.policy.all_errors));
        d.level = level;
        if let Some(loc) = d.loc {
            self.include_chain(sm, loc.file);
        }
        let (name, line, col) = match d.loc {
            Some(loc) => {
                let f = sm.file(loc.file);
                let (line, name) = f.presumed(loc.offset);
                let col = display_col(sm, loc);
                (name.to_string(), Some(line), Some(col))
            }
            None => ("neverc".to_string(), None, None),
        };
        // Line 0 (after `#line 0`) is not shown, nor any source line (as gcc).
        let no_line = line == Some(0);
        let locus = match (line, col) {
            _ if no_line => name,
            (Some(l), Some(_)) if d.line_only => format!("{name}:{l}"),
            (Some(l), Some(c)) => format!("{name}:{l}:{c}"),
            _ => name,
        };
        self.emit_header(Some(&locus), "", &d);
        if let Some(opt) = d.option {
            let shown = if promoted {
                format!("-Werror={opt}")
            } else {
                format!("-W{opt}")
            };
            let _ = if self.color {
                write!(self.out, " [{}{shown}{RESET}]", level_color(level))
            } else {
                write!(self.out, " [{shown}]")
            };
        }
        let _ = writeln!(self.out);
        if let Some(loc) = d.loc.filter(|_| !no_line) {
            // A line-only diagnostic (gcc's "unterminated #if") shows the line, no caret.
            let len = if d.line_only { 0 } else { d.len };
            self.source_excerpt(sm, loc, len, level);
        }
        self.count(level);
        self.expansion_notes(sm, d.expansion);
        if self.max_errors > 0 && self.errors >= self.max_errors && level == Level::Error {
            let _ = writeln!(
                self.out,
                "compilation terminated due to -fmax-errors={}.",
                self.max_errors
            );
            self.stop = true;
        }
    }

    fn emit_header(&mut self, locus: Option<&str>, prog: &str, d: &Diagnostic) {
        let word = match d.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
            Level::Fatal => "fatal error",
        };
        let locus = locus.unwrap_or(prog);
        if self.color {
            let _ = write!(
                self.out,
                "{BOLD}{locus}:{RESET} {}{word}: {RESET}{}",
                level_color(d.level),
                d.message
            );
        } else {
            let _ = write!(self.out, "{locus}: {word}: {}", d.message);
        }
    }

    /// gcc's "In file included from a.h:2,\n                 from a.c:1:" lines, printed
    /// when the file differs from the previous diagnostic's.
    fn include_chain(&mut self, sm: &SourceMap, file: FileId) {
        if self.last_file == Some(file) {
            return;
        }
        self.last_file = Some(file);
        let mut chain = Vec::new();
        let mut cur = sm.includer(file);
        while let Some(loc) = cur {
            let f = sm.file(loc.file);
            let (line, name) = f.presumed(loc.offset);
            chain.push(format!("{name}:{line}"));
            cur = sm.includer(loc.file);
        }
        for (i, c) in chain.iter().enumerate() {
            let lead = if i == 0 {
                "In file included from "
            } else {
                "                 from "
            };
            let end = if i + 1 == chain.len() { ":" } else { "," };
            let _ = if self.color {
                writeln!(self.out, "{lead}{BOLD}{c}{RESET}{end}")
            } else {
                writeln!(self.out, "{lead}{c}{end}")
            };
        }
    }

    fn source_excerpt(&mut self, sm: &SourceMap, loc: Loc, len: u32, level: Level) {
        let f = sm.file(loc.file);
        if loc.file.0 == 0 {
            return; // <built-in> and <command-line> text has no lines to show
        }
        let (line, col) = f.physical_line_col(loc.offset);
        let text = f.line_text(line);
        let shown = render_line(text);
        let gutter = format!("{line:>5}");
        let _ = writeln!(self.out, "{gutter} | {}", shown.text);
        let caret_col = shown.display_col(col as usize - 1);
        let end_col = shown.display_col((col as usize - 1 + len as usize).min(text.len()));
        let width = end_col.saturating_sub(caret_col).max(1);
        let mut marker = String::new();
        if len > 0 {
            marker.push('^');
            for _ in 1..width {
                marker.push('~');
            }
        }
        let pad = if len > 0 {
            " ".repeat(caret_col)
        } else {
            String::new()
        };
        let _ = if self.color {
            writeln!(
                self.out,
                "{} | {pad}{}{marker}{RESET}",
                " ".repeat(5),
                level_color(level)
            )
        } else {
            writeln!(self.out, "{} | {pad}{marker}", " ".repeat(5))
        };
    }

    fn expansion_notes(&mut self, sm: &SourceMap, mut expansion: u32) {
        while expansion != 0 {
            let e = sm.expansion(expansion);
            let note = Diagnostic {
                len: e.name.len() as u32,
                ..Diagnostic::new(
                    Level::Note,
                    Some(e.call),
                    format!("in expansion of macro '{}'", e.name),
                )
            };
            self.include_chain(sm, e.call.file);
            let f = sm.file(e.call.file);
            let (line, name) = f.presumed(e.call.offset);
            let col = display_col(sm, e.call);
            self.emit_header(Some(&format!("{name}:{line}:{col}")), "", &note);
            let _ = writeln!(self.out);
            self.source_excerpt(sm, e.call, note.len, Level::Note);
            expansion = e.parent;
        }
    }
}

/// The 1-based column gcc reports: display columns, tabs advancing to the next multiple
/// of 8 (`-fdiagnostics-column-unit=display`, gcc's default).
fn display_col(sm: &SourceMap, loc: Loc) -> u32 {
    let f = sm.file(loc.file);
    let (line, col) = f.physical_line_col(loc.offset);
    render_line(f.line_text(line)).display_col(col as usize - 1) as u32 + 1
}

fn level_color(level: Level) -> &'static str {
    match level {
        Level::Error | Level::Fatal => "\x1b[01;31m\x1b[K",
        Level::Warning => "\x1b[01;35m\x1b[K",
        Level::Note => "\x1b[01;36m\x1b[K",
    }
}

/// A source line made printable: tabs expanded to 8 columns (as gcc does), unprintable
/// bytes shown as `<xx>`, with a map from byte index to display column.
struct Shown {
    text: String,
    cols: Vec<usize>,
}

impl Shown {
    fn display_col(&self, byte: usize) -> usize {
        self.cols
            .get(byte)
            .copied()
            .unwrap_or_else(|| self.cols.last().copied().unwrap_or(0))
    }
}

fn render_line(bytes: &[u8]) -> Shown {
    let mut text = String::new();
    let mut cols = Vec::with_capacity(bytes.len() + 1);
    let mut col = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\t' {
            cols.push(col);
            let n = 8 - col % 8;
            text.extend(std::iter::repeat_n(' ', n));
            col += n;
            i += 1;
            continue;
        }
        let len = utf8_len(&bytes[i..]);
        if len > 0 {
            let s = std::str::from_utf8(&bytes[i..i + len]).unwrap();
            let c = s.chars().next().unwrap();
            if c == '\0' {
                for _ in 0..len {
                    cols.push(col);
                }
                text.push_str("<U+0000>");
                col += 8;
            } else {
                for _ in 0..len {
                    cols.push(col);
                }
                text.push(c);
                col += 1;
            }
            i += len;
        } else {
            cols.push(col);
            text.push_str(&format!("<{b:02x}>"));
            col += 4;
            i += 1;
        }
    }
    cols.push(col);
    Shown { text, cols }
}

/// Length of the valid UTF-8 character at the start of `b`, or 0 when it is not valid.
fn utf8_len(b: &[u8]) -> usize {
    let n = match b[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return 0,
    };
    if b.len() >= n && std::str::from_utf8(&b[..n]).is_ok() {
        n
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{clean, SourceFile};
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn map_with(src: &str) -> (SourceMap, FileId) {
        let mut sm = SourceMap::new();
        sm.add(SourceFile::new(
            "<built-in>".into(),
            None,
            vec![],
            clean(b"", false),
        ));
        let c = clean(src.as_bytes(), false);
        let id = sm.add(SourceFile::new(
            "t.c".into(),
            None,
            src.as_bytes().to_vec(),
            c,
        ));
        (sm, id)
    }

    #[test]
    fn gcc_layout_with_caret_and_underline() {
        let (sm, id) = map_with("int x;\n#else\n");
        let buf = Buf::default();
        let mut d = Diagnostics::new(Box::new(buf.clone()));
        d.report(
            &sm,
            Diagnostic::error(
                Loc {
                    file: id,
                    offset: 8,
                },
                "#else without #if",
            )
            .with_len(4),
        );
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            out,
            "t.c:2:2: error: #else without #if\n    2 | #else\n      |  ^~~~\n"
        );
        assert_eq!(d.errors, 1);
    }

    #[test]
    fn tabs_expand_and_werror_promotes() {
        let (sm, id) = map_with("\tfoo bar\n");
        let buf = Buf::default();
        let mut d = Diagnostics::new(Box::new(buf.clone()));
        d.policy.apply("error");
        d.report(
            &sm,
            Diagnostic::warning(
                Loc {
                    file: id,
                    offset: 5,
                },
                "odd",
            )
            .with_len(3)
            .with_option("odd-thing"),
        );
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            out,
            "t.c:1:13: error: odd [-Werror=odd-thing]\n    1 |         foo bar\n      |             ^~~\n"
        );
        assert_eq!(d.errors, 1);
    }

    #[test]
    fn w_suppresses_warnings_and_no_option_disables_one() {
        let (sm, id) = map_with("x\n");
        let buf = Buf::default();
        let mut d = Diagnostics::new(Box::new(buf.clone()));
        d.policy.apply("no-odd");
        d.report(
            &sm,
            Diagnostic::warning(
                Loc {
                    file: id,
                    offset: 0,
                },
                "a",
            )
            .with_option("odd"),
        );
        d.policy.suppress_all = true;
        d.report(
            &sm,
            Diagnostic::warning(
                Loc {
                    file: id,
                    offset: 0,
                },
                "b",
            ),
        );
        // The note of a dropped warning is dropped with it.
        d.report(
            &sm,
            Diagnostic::new(
                Level::Note,
                Some(Loc {
                    file: id,
                    offset: 0,
                }),
                "declared here",
            ),
        );
        assert!(buf.0.lock().unwrap().is_empty());
        assert_eq!(d.warnings, 0);
    }

    #[test]
    fn permerrors_yield_to_permissive_no_error_and_w() {
        let (sm, id) = map_with("f();\n");
        let loc = Loc {
            file: id,
            offset: 0,
        };
        let run = |opts: &[&str]| {
            let buf = Buf::default();
            let mut d = Diagnostics::new(Box::new(buf.clone()));
            for o in opts {
                match *o {
                    "-fpermissive" => d.policy.permissive = true,
                    "-w" => d.policy.suppress_all = true,
                    w => d.policy.apply(w.strip_prefix("-W").unwrap()),
                }
            }
            d.report(
                &sm,
                Diagnostic::error(loc, "implicit").with_option("implicit-function-declaration"),
            );
            let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
            (out.lines().next().unwrap_or("").to_string(), d.errors)
        };
        let e = "t.c:1:1: error: implicit [-Wimplicit-function-declaration]";
        let w = "t.c:1:1: warning: implicit [-Wimplicit-function-declaration]";
        assert_eq!(run(&[]), (e.to_string(), 1));
        assert_eq!(run(&["-fpermissive"]), (w.to_string(), 0));
        assert_eq!(
            run(&["-Wno-error=implicit-function-declaration"]),
            (w.to_string(), 0)
        );
        assert_eq!(
            run(&["-Wno-implicit-function-declaration"]),
            (String::new(), 0)
        );
        assert_eq!(run(&["-w"]), (String::new(), 0));
        assert_eq!(
            run(&["-fpermissive", "-Werror"]),
            (
                "t.c:1:1: error: implicit [-Werror=implicit-function-declaration]".to_string(),
                1
            )
        );
    }

    #[test]
    fn max_errors_stops() {
        let (sm, id) = map_with("x\n");
        let buf = Buf::default();
        let mut d = Diagnostics::new(Box::new(buf.clone()));
        d.max_errors = 1;
        d.report(
            &sm,
            Diagnostic::error(
                Loc {
                    file: id,
                    offset: 0,
                },
                "one",
            ),
        );
        d.report(
            &sm,
            Diagnostic::error(
                Loc {
                    file: id,
                    offset: 0,
                },
                "two",
            ),
        );
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert!(out.ends_with("compilation terminated due to -fmax-errors=1.\n"));
        assert!(!out.contains("two"));
    }

    #[test]
    fn invalid_bytes_are_shown_escaped() {
        let s = render_line(b"a\xffb");
        assert_eq!(s.text, "a<ff>b");
        assert_eq!(s.display_col(2), 5);
    }
}
