//! Source files and locations.
//!
//! Each file is loaded once and cleaned of translation phase 1-2 artefacts (line splices,
//! `\r\n`, trigraphs when enabled) so the lexer scans plain bytes. A [`Loc`] is an offset
//! into the cleaned text; [`SourceMap::line_col`] maps it back to the line and column of
//! the file as the user wrote it.

use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Index of a file in the [`SourceMap`]. File 0 is reserved for `<built-in>` text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A position: file and byte offset into its cleaned text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    pub file: FileId,
    pub offset: u32,
}

/// A file's bytes, shared by the source map and the lexers reading them: made from the
/// vector they were read into without copying it (an `Rc<[u8]>` is a copy, its counts
/// being in front of the bytes; a main file of a megabyte made that a megabyte of copying),
/// and read as directly as an `Rc<[u8]>` (the place and length are kept beside the owner).
#[derive(Clone)]
pub struct Text {
    /// Where the bytes are and how many: those of `owner`'s vector, which is never
    /// changed, so they stay where they are as long as `owner` lives.
    ptr: *const u8,
    len: usize,
    owner: Rc<Vec<u8>>,
}

impl Text {
    /// Whether two texts are the same bytes (not only equal ones).
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        Rc::ptr_eq(&a.owner, &b.owner)
    }
}

impl From<Vec<u8>> for Text {
    fn from(v: Vec<u8>) -> Text {
        let owner = Rc::new(v);
        Text {
            ptr: owner.as_ptr(),
            len: owner.len(),
            owner,
        }
    }
}

impl From<&[u8]> for Text {
    fn from(b: &[u8]) -> Text {
        b.to_vec().into()
    }
}

impl std::ops::Deref for Text {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` and `len` are those of `owner`'s vector, which lives as long as
        // `self` and is never changed (nothing can reach it mutably: the `Rc` is private
        // and never handed out), so its buffer neither moves nor is freed meanwhile.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Text({} bytes)", self.len)
    }
}

/// One loaded file.
pub struct SourceFile {
    /// The name as it appears in diagnostics and line markers (as the user or the include
    /// directive spelled it, joined to the directory it was found in).
    pub name: String,
    /// The path it was read from, for `#include_next`, `#pragma once` and dependencies.
    pub path: Option<PathBuf>,
    /// Cleaned text: splices removed, newlines normalised to `\n`.
    pub text: Text,
    /// `(clean offset, bytes removed before it)` at each place cleaning removed bytes,
    /// sorted, so a clean offset maps back to a raw one.
    removed: Vec<(u32, u32)>,
    /// Raw offsets at which each line starts, computed when first asked for (most files
    /// never need a line number when there is nothing to report).
    line_starts: std::cell::OnceCell<Vec<u32>>,
    /// Raw text, kept for showing the source line in diagnostics: the same bytes as `text`
    /// when cleaning changed nothing, as in most files.
    raw: Text,
    /// Presumed name and line set by `#line`: `(clean offset from which it applies, line
    /// number of the next line, name)`.
    pub line_directives: Vec<(u32, u32, Option<String>)>,
}

/// The result of phases 1-2 on raw bytes.
pub struct Cleaned {
    pub text: Vec<u8>,
    removed: Vec<(u32, u32)>,
    /// Raw offsets of backslash-newlines separated by blanks (gcc warns about these).
    pub spaced_splices: Vec<u32>,
}

/// Translation phases 1 and 2: map trigraphs (when asked), normalise `\r\n` and lone `\r`
/// to `\n`, and delete each backslash-newline (also when blanks separate the two, as gcc
/// accepts with a warning). A file that does not end in a newline gets one, so every line
/// of a directive ends in `\n`.
pub fn clean(raw: &[u8], trigraphs: bool) -> Cleaned {
    // The next byte that may need work: a backslash, a carriage return, a `?` (trigraphs).
    let next_special = |from: usize| -> usize {
        let rest = &raw[from..];
        let found = if trigraphs {
            rest.iter()
                .position(|&b| b == b'\\' || b == b'\r' || b == b'?')
        } else {
            crate::lex::memchr2(b'\\', b'\r', rest)
        };
        found.map_or(raw.len(), |p| from + p)
    };
    let mut text = Vec::with_capacity(raw.len() + 1);
    let mut removed = Vec::new();
    let mut spaced_splices = Vec::new();
    let mut total_removed = 0u32;
    let mut i = 0;
    let n = raw.len();
    while i < n {
        // Plain bytes up to the next special one are copied as they are.
        let j = next_special(i);
        text.extend_from_slice(&raw[i..j]);
        i = j;
        if i >= n {
            break;
        }
        let mut b = raw[i];
        let mut len = 1;
        if trigraphs && b == b'?' && i + 2 < n && raw[i + 1] == b'?' {
            if let Some(t) = trigraph(raw[i + 2]) {
                b = t;
                len = 3;
            }
        }
        if b == b'\\' {
            // Backslash, optional blanks, newline: a splice.
            let mut j = i + len;
            while j < n && (raw[j] == b' ' || raw[j] == b'\t' || raw[j] == b'\x0c') {
                j += 1;
            }
            let nl = if j < n && raw[j] == b'\n' {
                Some(1)
            } else if j < n && raw[j] == b'\r' {
                Some(if j + 1 < n && raw[j + 1] == b'\n' {
                    2
                } else {
                    1
                })
            } else {
                None
            };
            if let Some(nl_len) = nl {
                if j > i + len {
                    spaced_splices.push(i as u32);
                }
                let end = j + nl_len;
                total_removed += (end - i) as u32;
                removed.push((text.len() as u32, total_removed));
                i = end;
                continue;
            }
        }
        if b == b'\r' {
            let nl_len = if i + 1 < n && raw[i + 1] == b'\n' {
                2
            } else {
                1
            };
            text.push(b'\n');
            if nl_len == 2 {
                total_removed += 1;
                removed.push((text.len() as u32, total_removed));
            }
            i += nl_len;
            continue;
        }
        text.push(b);
        if len > 1 {
            total_removed += (len - 1) as u32;
            removed.push((text.len() as u32, total_removed));
        }
        i += len;
    }
    if text.last().is_some_and(|&b| b != b'\n') {
        text.push(b'\n');
    }
    Cleaned {
        text,
        removed,
        spaced_splices,
    }
}

/// Would [`clean`] change anything in `raw`? (No splice, no carriage return, no trigraph
/// to map, and a final newline.) Looks only at the backslashes and carriage returns.
pub fn needs_cleaning(raw: &[u8], trigraphs: bool) -> bool {
    if trigraphs || raw.last().is_some_and(|&b| b != b'\n') {
        return true;
    }
    let mut i = 0;
    while let Some(p) = crate::lex::memchr2(b'\\', b'\r', &raw[i..]) {
        i += p;
        if raw[i] == b'\r' {
            return true;
        }
        // A backslash splices only before a newline (blanks between allowed).
        let mut j = i + 1;
        while j < raw.len() && matches!(raw[j], b' ' | b'\t' | b'\x0c') {
            j += 1;
        }
        if j < raw.len() && matches!(raw[j], b'\n' | b'\r') {
            return true;
        }
        i += 1;
    }
    false
}

fn trigraph(c: u8) -> Option<u8> {
    Some(match c {
        b'=' => b'#',
        b'(' => b'[',
        b'/' => b'\\',
        b')' => b']',
        b'\'' => b'^',
        b'<' => b'{',
        b'!' => b'|',
        b'>' => b'}',
        b'-' => b'~',
        _ => return None,
    })
}

impl SourceFile {
    pub fn new(name: String, path: Option<PathBuf>, raw: Vec<u8>, cleaned: Cleaned) -> Self {
        SourceFile {
            name,
            path,
            text: cleaned.text.into(),
            removed: cleaned.removed,
            line_starts: Default::default(),
            raw: raw.into(),
            line_directives: Vec::new(),
        }
    }

    /// A file from its raw bytes: cleaned (translation phases 1-2) only if that changes
    /// something; otherwise the cleaned text is the raw text, kept once.
    pub fn load(name: String, path: Option<PathBuf>, raw: Vec<u8>, trigraphs: bool) -> Self {
        if needs_cleaning(&raw, trigraphs) {
            let c = clean(&raw, trigraphs);
            return SourceFile::new(name, path, raw, c);
        }
        let text: Text = raw.into();
        SourceFile {
            name,
            path,
            raw: text.clone(),
            text,
            removed: Vec::new(),
            line_starts: Default::default(),
            line_directives: Vec::new(),
        }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let raw = &*self.raw;
            let mut starts = Vec::with_capacity(raw.len() / 24 + 1);
            starts.push(0u32);
            let mut i = 0;
            while let Some(p) = crate::lex::memchr(b'\n', &raw[i..]) {
                i += p + 1;
                starts.push(i as u32);
            }
            starts
        })
    }

    fn raw_offset(&self, clean: u32) -> u32 {
        // The last entry at or before `clean` tells how many bytes were removed before it.
        let idx = self.removed.partition_point(|&(off, _)| off <= clean);
        let removed = if idx == 0 { 0 } else { self.removed[idx - 1].1 };
        clean + removed
    }

    /// Physical 1-based line and 1-based byte column of a clean offset.
    pub fn physical_line_col(&self, clean: u32) -> (u32, u32) {
        let raw = self.raw_offset(clean).min(self.raw.len() as u32);
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&s| s <= raw);
        let start = line_starts[line - 1];
        (line as u32, raw - start + 1)
    }

    /// [`SourceFile::physical_line_col`] for offsets met mostly in increasing order (the
    /// `-E` printer's line starts): `hint` holds the line index found last time, which and
    /// the few lines after it are tried before a binary search.
    pub fn physical_line_col_near(&self, clean: u32, hint: &mut usize) -> (u32, u32) {
        let raw = self.raw_offset(clean).min(self.raw.len() as u32);
        let starts = self.line_starts();
        // The line wanted is the last `i` with `starts[i] <= raw` (the starts increase).
        let mut i = *hint;
        if starts.get(i).is_some_and(|&s| s <= raw) {
            for _ in 0..16 {
                match starts.get(i + 1) {
                    Some(&next) if next <= raw => i += 1,
                    _ => {
                        *hint = i;
                        return (i as u32 + 1, raw - starts[i] + 1);
                    }
                }
            }
        }
        let line = starts.partition_point(|&s| s <= raw);
        *hint = line - 1;
        (line as u32, raw - starts[line - 1] + 1)
    }

    /// The text of a physical line (1-based), without its newline.
    pub fn line_text(&self, line: u32) -> &[u8] {
        let line_starts = self.line_starts();
        let Some(&start) = line_starts.get(line as usize - 1) else {
            return b"";
        };
        let end = line_starts
            .get(line as usize)
            .map(|&e| e - 1)
            .unwrap_or(self.raw.len() as u32);
        let mut text = &self.raw[start as usize..(end as usize).max(start as usize)];
        if text.last() == Some(&b'\r') {
            text = &text[..text.len() - 1];
        }
        text
    }

    /// Presumed (`#line`-adjusted) line number and file name of a clean offset.
    pub fn presumed(&self, clean: u32) -> (u32, &str) {
        let (line, _) = self.physical_line_col(clean);
        self.presumed_from(clean, line)
    }

    /// [`SourceFile::presumed`] with the line found by [`SourceFile::physical_line_col_near`]
    /// (and the physical column too).
    pub fn presumed_near(&self, clean: u32, hint: &mut usize) -> (u32, &str, u32) {
        let (line, col) = self.physical_line_col_near(clean, hint);
        let (line, name) = self.presumed_from(clean, line);
        (line, name, col)
    }

    /// The presumed line and name of `clean`, on physical line `line`.
    fn presumed_from(&self, clean: u32, line: u32) -> (u32, &str) {
        let idx = self
            .line_directives
            .partition_point(|&(off, _, _)| off <= clean);
        if idx == 0 {
            return (line, &self.name);
        }
        // The directive's line number applies to the physical line after the directive.
        let mut name: &str = &self.name;
        for (_, _, n) in self.line_directives[..idx].iter().rev() {
            if let Some(n) = n {
                name = n;
                break;
            }
        }
        let (off, next_line, _) = &self.line_directives[idx - 1];
        let (dir_line, _) = self.physical_line_col(*off);
        (next_line + line - dir_line, name)
    }
}

/// One macro expansion, for "in expansion of macro" notes.
#[derive(Clone, Debug)]
pub struct Expansion {
    pub name: std::rc::Rc<str>,
    /// Where the macro's name was written.
    pub call: Loc,
    /// The expansion this call itself came from (0: written in a file).
    pub parent: u32,
}

/// All files of one compilation, who included each, and the macro expansions.
pub struct SourceMap {
    files: Vec<SourceFile>,
    includers: Vec<Option<Loc>>,
    expansions: Vec<Expansion>,
}

impl Default for SourceMap {
    fn default() -> Self {
        Self::new()
    }
}

impl SourceMap {
    pub fn new() -> Self {
        SourceMap {
            files: Vec::new(),
            includers: Vec::new(),
            expansions: vec![Expansion {
                name: "".into(),
                call: Loc::default(),
                parent: 0,
            }],
        }
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.add_included(file, None)
    }

    /// Adds a file that an `#include` at `from` brought in.
    pub fn add_included(&mut self, file: SourceFile, from: Option<Loc>) -> FileId {
        self.files.push(file);
        self.includers.push(from);
        FileId(self.files.len() as u32 - 1)
    }

    /// The `#include` that brought a file in, if any.
    pub fn includer(&self, id: FileId) -> Option<Loc> {
        self.includers.get(id.0 as usize).copied().flatten()
    }

    /// Records a macro expansion; returns its id (never 0).
    pub fn add_expansion(&mut self, e: Expansion) -> u32 {
        self.expansions.push(e);
        self.expansions.len() as u32 - 1
    }

    pub fn expansion(&self, id: u32) -> &Expansion {
        &self.expansions[id as usize]
    }

    /// Where a token at `loc` produced by `expansion` stands in the source text: where the
    /// outermost macro of the chain was invoked (gcc's "expansion point"), or `loc` itself.
    pub fn expansion_point(&self, loc: Loc, expansion: u32) -> Loc {
        let (mut loc, mut e) = (loc, expansion);
        while e != 0 {
            let x = self.expansion(e);
            loc = x.call;
            e = x.parent;
        }
        loc
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn file_mut(&mut self, id: FileId) -> &mut SourceFile {
        &mut self.files[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// 1-based line and column where `loc` was written (physical, not `#line`-adjusted).
    pub fn line_col(&self, loc: Loc) -> (u32, u32) {
        self.file(loc.file).physical_line_col(loc.offset)
    }

    /// The path of a file, if it came from disk.
    pub fn path(&self, id: FileId) -> Option<&Path> {
        self.file(id).path.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(raw: &str, tri: bool) -> SourceFile {
        let c = clean(raw.as_bytes(), tri);
        SourceFile::new("t.c".into(), None, raw.as_bytes().to_vec(), c)
    }

    /// The hinted lookup finds what the binary search finds, whatever the hint and the
    /// order of the offsets (forward in small and large steps, backward, past the end).
    #[test]
    fn line_col_near_agrees_with_line_col() {
        let mut raw = String::new();
        for i in 0..100 {
            raw.push_str(&" ".repeat(i % 7));
            raw.push_str(if i % 3 == 0 { "x \\\n y\n" } else { "ab\n" });
            if i % 10 == 0 {
                raw.push('\n');
            }
        }
        let f = file(&raw, false);
        let n = f.text.len() as u32;
        let mut offsets: Vec<u32> = (0..=n + 2).collect();
        offsets.extend((0..=n).rev().step_by(3));
        offsets.extend((0..=n).step_by(57));
        for start_hint in [0usize, 5, 1000] {
            let mut hint = start_hint;
            for &o in &offsets {
                assert_eq!(
                    f.physical_line_col_near(o, &mut hint),
                    f.physical_line_col(o),
                    "{o}"
                );
                assert_eq!(f.presumed_near(o, &mut hint).0, f.presumed(o).0, "{o}");
            }
        }
    }

    #[test]
    fn splices_are_removed_and_locations_map_back() {
        let f = file("ab\\\ncd\nef", false);
        assert_eq!(&*f.text, b"abcd\nef\n");
        // 'c' is at clean offset 2, physically line 2 column 1.
        assert_eq!(f.physical_line_col(2), (2, 1));
        assert_eq!(f.physical_line_col(1), (1, 2));
        assert_eq!(f.physical_line_col(5), (3, 1));
    }

    #[test]
    fn spaced_splice_and_crlf() {
        let c = clean(b"a\\  \r\nb\r\nc", false);
        assert_eq!(c.text, b"ab\nc\n");
        assert_eq!(c.spaced_splices, vec![1]);
    }

    #[test]
    fn trigraphs_only_when_enabled() {
        assert_eq!(clean(b"??=define X ??/\n1", true).text, b"#define X 1\n");
        assert_eq!(clean(b"??=x", false).text, b"??=x\n");
    }

    #[test]
    fn load_keeps_one_copy_only_when_nothing_changes() {
        for (raw, tri) in [
            ("a\\\nb\n", false),
            ("a\\ \nb\n", false),
            ("a\r\nb\n", false),
            ("a\nb", false),
            ("a\n", true),
            ("x = '\\n';\n", false),
            ("a \\\n", false),
            ("", false),
        ] {
            let loaded = SourceFile::load("t.c".into(), None, raw.as_bytes().to_vec(), tri);
            let c = clean(raw.as_bytes(), tri);
            assert_eq!(&*loaded.text, &c.text[..], "{raw:?}");
            assert_eq!(
                needs_cleaning(raw.as_bytes(), tri),
                c.text != raw.as_bytes() || tri,
                "{raw:?}"
            );
        }
        let f = SourceFile::load("t.c".into(), None, b"x = '\\n';\ny\n".to_vec(), false);
        assert!(Text::ptr_eq(&f.text, &f.raw));
        assert_eq!(f.physical_line_col(10), (2, 1));
    }

    #[test]
    fn line_text_strips_newline() {
        let f = file("one\ntwo\r\nthree", false);
        assert_eq!(f.line_text(2), b"two");
        assert_eq!(f.line_text(3), b"three");
    }
}
