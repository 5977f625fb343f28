//! `-E` output: the token stream printed so that it re-lexes to the same tokens, on the
//! lines they came from, with gcc's line markers (`# 12 "file.h" 2 3 4`) unless `-P`.

use super::{Event, Preprocessor};
use crate::source::FileId;
use crate::token::{flags, TokKind, Token};
use std::io::{self, Write};

#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// `-P`: no line markers.
    pub no_line_markers: bool,
}

struct Printer<'w, W: Write> {
    out: &'w mut W,
    /// The output not yet written to `out`: tokens are appended here (a byte or a few at a
    /// time, cheaper than a buffered writer's call each) and written in large blocks.
    buf: Vec<u8>,
    opts: PrintOptions,
    /// File and presumed line the output is at.
    file: Option<FileId>,
    line: u32,
    at_line_start: bool,
    prev: Option<Token>,
    /// The file being printed is a system header (flags ` 3 4` on its markers).
    system: bool,
    /// The file and line index where the last line start was found (see
    /// [`crate::source::SourceFile::physical_line_col_near`]).
    line_hint: (FileId, usize),
}

/// Preprocesses the whole unit into `out`.
pub fn print_preprocessed<W: Write>(
    pp: &mut Preprocessor,
    out: &mut W,
    opts: PrintOptions,
) -> io::Result<()> {
    let mut p = Printer {
        out,
        buf: Vec::with_capacity(OUT_BLOCK + 4096),
        opts,
        file: None,
        line: 1,
        at_line_start: true,
        prev: None,
        system: false,
        line_hint: (FileId(0), 0),
    };
    if !opts.no_line_markers {
        let name = escape_name(&pp.sm.file(pp.main_file()).name);
        writeln!(
            p.buf,
            "# 0 \"{name}\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\""
        )?;
    }
    loop {
        let t = pp.next_token();
        if pp.has_events() {
            for e in pp.take_events() {
                p.event(pp, e)?;
            }
        }
        if t.kind == TokKind::Eof {
            break;
        }
        if pp.diags.stop {
            break;
        }
        p.token(pp, t)?;
        if p.buf.len() >= OUT_BLOCK {
            p.out.write_all(&p.buf)?;
            p.buf.clear();
        }
    }
    if !p.at_line_start {
        p.put(b"\n");
    }
    p.out.write_all(&p.buf)
}

/// Output is passed on in blocks of about this many bytes (as often as the driver's
/// buffered writer wrote before: diagnostics on stderr interleave as they did).
const OUT_BLOCK: usize = 1 << 13;

impl<W: Write> Printer<'_, W> {
    /// Appends to the output.
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        if let [b] = bytes {
            self.buf.push(*b);
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    fn newline(&mut self) -> io::Result<()> {
        if !self.at_line_start {
            self.put(b"\n");
            self.at_line_start = true;
            self.line += 1;
            self.prev = None;
        }
        Ok(())
    }

    fn marker(
        &mut self,
        pp: &Preprocessor,
        file: FileId,
        line: u32,
        flag: &str,
        system: bool,
    ) -> io::Result<()> {
        self.newline()?;
        self.file = Some(file);
        self.line = line;
        if self.opts.no_line_markers {
            return Ok(());
        }
        let f = pp.sm.file(file);
        let name = f.presumed(0).1;
        let name = escape_name(if f.line_directives.is_empty() {
            &f.name
        } else {
            name
        });
        let sys = if system { " 3 4" } else { "" };
        self.system = system;
        writeln!(self.buf, "# {line} \"{name}\"{flag}{sys}")?;
        Ok(())
    }

    fn event(&mut self, pp: &Preprocessor, e: Event) -> io::Result<()> {
        match e {
            Event::Enter { file, .. } if file == pp.main_file() => {
                self.system = false;
                self.file = Some(file);
                self.line = 1;
                if !self.opts.no_line_markers {
                    let name = escape_name(&pp.sm.file(file).name);
                    writeln!(self.buf, "# 1 \"{name}\"")?;
                }
                Ok(())
            }
            Event::Enter { file, system, .. } => self.marker(pp, file, 1, " 1", system),
            Event::Leave { forced: true, .. } => {
                // Back on the command line after a forced include.
                self.newline()?;
                if !self.opts.no_line_markers {
                    writeln!(self.buf, "# 0 \"<command-line>\" 2")?;
                }
                self.file = None;
                Ok(())
            }
            Event::Leave {
                to,
                offset,
                forced: false,
                system,
            } => {
                let (line, _) = pp.sm.file(to).presumed(offset);
                self.marker(pp, to, line, " 2", system)
            }
            Event::Line { file, line } => self.marker(pp, file, line, "", self.system),
            Event::Pragma { text, loc } => self.directive_line(pp, &format!("#pragma {text}"), loc),
            Event::Ident { text, loc } => self.directive_line(pp, &format!("#ident {text}"), loc),
        }
    }

    /// A directive passed through to the output on its own line (`#pragma`, `#ident`); after
    /// one from `_Pragma` in mid-line, a marker puts the rest back on its line.
    fn directive_line(
        &mut self,
        pp: &Preprocessor,
        line_text: &str,
        loc: crate::source::Loc,
    ) -> io::Result<()> {
        let (line, _) = pp.sm.file(loc.file).presumed(loc.offset);
        let same_file = self.file == Some(loc.file);
        if same_file && line >= self.line && self.at_line_start {
            self.goto_line(pp, loc.file, line)?;
            writeln!(self.buf, "{line_text}")?;
            self.line += 1;
        } else {
            self.newline()?;
            writeln!(self.buf, "{line_text}")?;
            self.marker(pp, loc.file, line, "", self.system)?;
        }
        self.at_line_start = true;
        self.prev = None;
        Ok(())
    }

    /// Moves the output to `line` of `file`: newlines for a small gap, a marker otherwise.
    fn goto_line(&mut self, pp: &Preprocessor, file: FileId, line: u32) -> io::Result<()> {
        if self.file == Some(file) && line >= self.line {
            let gap = line - self.line;
            if gap == 0 {
                return Ok(());
            }
            if gap <= 8 || self.opts.no_line_markers {
                self.newline()?;
                let gap = line - (self.line).min(line);
                let n = if self.opts.no_line_markers {
                    gap.min(1)
                } else {
                    gap
                };
                for _ in 0..n {
                    self.put(b"\n");
                }
                self.line = line;
                return Ok(());
            }
        }
        self.marker(pp, file, line, "", self.system)
    }

    fn token(&mut self, pp: &Preprocessor, t: Token) -> io::Result<()> {
        if t.has(flags::BOL) {
            // Where the line starts in the source: the token itself or, for a macro's
            // expansion, where the outermost macro was invoked.
            let loc = pp.sm.expansion_point(t.loc, t.expansion);
            if loc.file.0 != 0 {
                if self.line_hint.0 != loc.file {
                    self.line_hint = (loc.file, 0);
                }
                let (line, _, col) = pp
                    .sm
                    .file(loc.file)
                    .presumed_near(loc.offset, &mut self.line_hint.1);
                if self.file != Some(loc.file) || line != self.line || !self.at_line_start {
                    if self.file == Some(loc.file) && line > self.line {
                        self.goto_line(pp, loc.file, line)?;
                    } else if self.file != Some(loc.file) || line < self.line {
                        self.marker(pp, loc.file, line, "", self.system)?;
                    }
                }
                if self.at_line_start && loc == t.loc && first_on_line(pp, loc) {
                    // The indentation in one write (a write per space was a fifth of -E).
                    const SPACES: [u8; 199] = [b' '; 199];
                    let indent = (col.clamp(1, 200) - 1) as usize;
                    self.put(&SPACES[..indent]);
                    if col > 1 {
                        self.prev = None;
                        self.at_line_start = false;
                        return self.write_token(pp, t, false);
                    }
                }
            }
        }
        let space = if self.at_line_start {
            // A `#` first on a line must not read as a directive.
            t.kind == TokKind::Punct && matches!(pp.interner.get(t.sym), b"#" | b"%:")
        } else {
            t.has(flags::PREV_WHITE)
                || self
                    .prev
                    .is_some_and(|p| !adjacent_in_source(pp, p, t) && avoid_paste(pp, p, t))
        };
        self.write_token(pp, t, space)
    }

    fn write_token(&mut self, pp: &Preprocessor, t: Token, space: bool) -> io::Result<()> {
        if space {
            self.put(b" ");
        }
        let spelling = pp.interner.get(t.sym);
        if t.kind == TokKind::Ident && spelling.iter().any(|&b| b >= 0x80) {
            // gcc prints extended characters of identifiers as UCNs.
            for c in String::from_utf8_lossy(spelling).chars() {
                if c.is_ascii() {
                    write!(self.buf, "{c}")?;
                } else {
                    write!(self.buf, "\\U{:08x}", c as u32)?;
                }
            }
        } else {
            self.put(spelling);
        }
        self.at_line_start = false;
        self.prev = Some(t);
        Ok(())
    }
}

/// Were `a` and `b` written next to each other in one file? Then printing them side by side
/// re-lexes the same (gcc likewise checks pasting only where a macro boundary intervenes).
fn adjacent_in_source(pp: &Preprocessor, a: Token, b: Token) -> bool {
    a.loc.file == b.loc.file
        && a.loc.file.0 != 0
        && a.loc.offset as usize + pp.interner.get(a.sym).len() == b.loc.offset as usize
        && !a.has(flags::STRINGIFIED)
}

/// Is only whitespace before `loc` on its line (so its column can be reproduced)?
fn first_on_line(pp: &Preprocessor, loc: crate::source::Loc) -> bool {
    let text = &pp.sm.file(loc.file).text;
    text[..loc.offset as usize]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

/// Would printing `b` right after `a` make them lex differently? (gcc's rules.)
pub fn avoid_paste(pp: &Preprocessor, a: Token, b: Token) -> bool {
    let sa = pp.interner.get(a.sym);
    let sb = pp.interner.get(b.sym);
    let c = if b.kind == TokKind::Punct {
        sb.first().copied().unwrap_or(0)
    } else {
        0
    };
    match a.kind {
        TokKind::Punct => {
            let takes_eq = matches!(
                sa,
                b"=" | b"!"
                    | b">"
                    | b"<"
                    | b"+"
                    | b"-"
                    | b"*"
                    | b"/"
                    | b"%"
                    | b"&"
                    | b"|"
                    | b"^"
                    | b">>"
                    | b"<<"
            );
            if takes_eq && c == b'=' {
                return true;
            }
            match sa {
                b">" => c == b'>',
                b"<" => matches!(c, b'<' | b'%' | b':'),
                b"+" => c == b'+',
                b"-" => matches!(c, b'-' | b'>'),
                b"/" => matches!(c, b'/' | b'*'),
                b"%" => matches!(c, b':' | b'%'),
                b"&" => c == b'&',
                b"|" => c == b'|',
                b":" => matches!(c, b':' | b'>'),
                b"->" => c == b'*',
                b"." => matches!(c, b'.' | b'%') || b.kind == TokKind::Number,
                b"#" | b"%:" => matches!(c, b'#' | b'%'),
                b"%:%:" | b"##" => false,
                _ => false,
            }
        }
        TokKind::Ident => matches!(
            b.kind,
            TokKind::Ident | TokKind::Number | TokKind::Char | TokKind::Str
        ),
        TokKind::Number => {
            matches!(b.kind, TokKind::Number | TokKind::Ident | TokKind::Char)
                || matches!(c, b'.' | b'+' | b'-')
        }
        TokKind::Other => sa.first() == Some(&b'\\') && b.kind == TokKind::Ident,
        _ => false,
    }
}

fn escape_name(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for c in name.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// `-dM`: every macro defined at the end, as `#define` lines.
pub fn print_macros<W: Write>(pp: &mut Preprocessor, out: &mut W) -> io::Result<()> {
    // Run the unit to its end first: definitions anywhere count.
    loop {
        let t = pp.next_token();
        pp.take_events();
        if t.kind == TokKind::Eof {
            break;
        }
    }
    for m in pp.defined_macros() {
        writeln!(out, "#define {}", pp.macro_definition_text(m))?;
    }
    Ok(())
}
