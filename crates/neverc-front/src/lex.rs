//! The lexer: cleaned source bytes to preprocessing tokens (translation phase 3).
//!
//! It works on one file's cleaned text (see [`crate::source::clean`]), allocates nothing per
//! token (spellings are interned), and reports problems as [`LexDiag`]s that the
//! preprocessor turns into diagnostics, so the lexer itself never fails.

use crate::source::{FileId, Loc, Text};
use crate::token::{flags, Interner, Symbol, TokKind, Token};

/// Every punctuator (C17 6.4.6), longest first within each leading byte so a greedy scan
/// finds the longest match. Interned first, so `Symbol(1 + index)` is its spelling.
pub const PUNCTUATORS: &[&str] = &[
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:", "[", "]",
    "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":",
    ";", "=", ",", "#",
];

/// The length of each punctuator, by index in [`PUNCTUATORS`].
const PUNCT_LEN: [u8; PUNCTUATORS.len()] = {
    let mut t = [0; PUNCTUATORS.len()];
    let mut i = 0;
    while i < t.len() {
        t[i] = PUNCTUATORS[i].len() as u8;
        i += 1;
    }
    t
};

/// The index of `spelling` in [`PUNCTUATORS`], found at compile time where it is used in a
/// constant (a spelling not in the table stops the build).
pub const fn punct_index(spelling: &str) -> usize {
    let want = spelling.as_bytes();
    let mut i = 0;
    while i < PUNCTUATORS.len() {
        let have = PUNCTUATORS[i].as_bytes();
        if have.len() == want.len() {
            let mut k = 0;
            while k < have.len() && have[k] == want[k] {
                k += 1;
            }
            if k == have.len() {
                return i;
            }
        }
        i += 1;
    }
    panic!("not a punctuator")
}

/// `pi!("->")`: the index of a punctuator in [`PUNCTUATORS`], as a constant.
macro_rules! pi {
    ($spelling:literal) => {
        const { punct_index($spelling) }
    };
}

/// The symbol of a punctuator's spelling (they are interned first, in [`PUNCTUATORS`] order).
pub const fn punct_sym(index: usize) -> Symbol {
    Symbol(1 + index as u32)
}

/// Symbols of the punctuators the preprocessor looks for.
pub mod p {
    use super::{punct_index, punct_sym};
    use crate::token::Symbol;
    pub const HASHHASH_DIGRAPH: Symbol = punct_sym(punct_index("%:%:"));
    pub const ELLIPSIS: Symbol = punct_sym(punct_index("..."));
    pub const HASHHASH: Symbol = punct_sym(punct_index("##"));
    pub const HASH_DIGRAPH: Symbol = punct_sym(punct_index("%:"));
    pub const LPAREN: Symbol = punct_sym(punct_index("("));
    pub const RPAREN: Symbol = punct_sym(punct_index(")"));
    pub const LT: Symbol = punct_sym(punct_index("<"));
    pub const GT: Symbol = punct_sym(punct_index(">"));
    pub const COMMA: Symbol = punct_sym(punct_index(","));
    pub const HASH: Symbol = punct_sym(punct_index("#"));
}

/// Interns the punctuators at their fixed symbols. Call on a fresh interner.
pub fn intern_punctuators(interner: &mut Interner) {
    for (i, s) in PUNCTUATORS.iter().enumerate() {
        let sym = interner.intern(s.as_bytes());
        debug_assert_eq!(sym, punct_sym(i));
    }
}

/// A problem found while lexing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexDiag {
    pub error: bool,
    pub loc: Loc,
    /// Length of the offending text, for the caret's underline.
    pub len: u32,
    pub message: String,
}

/// Language options the lexer needs.
#[derive(Clone, Copy, Debug)]
pub struct LexOptions {
    /// `//` comments (C99 and later, and GNU C89).
    pub line_comments: bool,
    /// `u8'x'` character constants and `'` digit separators (C2x).
    pub c2x: bool,
    /// `$` in identifiers.
    pub dollars: bool,
    /// Keep comments as tokens (`-C`).
    pub keep_comments: bool,
}

impl Default for LexOptions {
    fn default() -> Self {
        LexOptions {
            line_comments: true,
            c2x: false,
            dollars: true,
            keep_comments: false,
        }
    }
}

pub struct Lexer {
    text: Text,
    pos: usize,
    file: FileId,
    opts: LexOptions,
    /// Inside a directive: a newline ends it with an `Eod` token.
    pub in_directive: bool,
    /// The next `<` starts a header name (set after `#include`).
    pub angle_header: bool,
    /// Problems found are reported (off while skipping a failed conditional group, where
    /// gcc still warns only about unterminated strings and comments).
    pub skipping: bool,
    at_bol: bool,
    pub diags: Vec<LexDiag>,
}

fn is_ident_start(b: u8, dollars: bool) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 || (b == b'$' && dollars)
}

impl Lexer {
    pub fn new(file: FileId, text: Text, opts: LexOptions) -> Self {
        Lexer {
            text,
            pos: 0,
            file,
            opts,
            in_directive: false,
            angle_header: false,
            skipping: false,
            at_bol: true,
            diags: Vec::new(),
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn file(&self) -> FileId {
        self.file
    }

    fn loc(&self, pos: usize) -> Loc {
        Loc {
            file: self.file,
            offset: pos as u32,
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.text.get(i).copied().unwrap_or(0)
    }

    fn diag(&mut self, error: bool, pos: usize, len: usize, message: String) {
        self.diags.push(LexDiag {
            error,
            loc: self.loc(pos),
            len: len as u32,
            message,
        });
    }

    /// Skips to the end of the current line (leaving the newline), for skipped groups and
    /// `#error` text. Comments are honoured so a `/*` on the line can span lines.
    pub fn skip_rest_of_line(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos] != b'\n' {
            if self.text[self.pos] == b'/' && self.at(self.pos + 1) == b'*' {
                self.skip_block_comment();
            } else {
                self.pos += 1;
            }
        }
    }

    /// The raw text from `pos` to the end of the line (used for `#error` messages).
    pub fn rest_of_line(&self) -> &[u8] {
        let end = memchr(b'\n', &self.text[self.pos..]).map_or(self.text.len(), |e| self.pos + e);
        &self.text[self.pos..end]
    }

    fn skip_block_comment(&mut self) -> bool {
        let start = self.pos;
        self.pos += 2;
        loop {
            match memchr(b'*', &self.text[self.pos..]) {
                Some(i) => {
                    self.pos += i + 1;
                    if self.at(self.pos) == b'/' {
                        self.pos += 1;
                        return true;
                    }
                }
                None => {
                    self.pos = self.text.len();
                    self.diag(true, start, 2, "unterminated comment".into());
                    return false;
                }
            }
        }
    }

    /// Passes over the tokens left on the line without making them (no interning), stopping
    /// before the newline that ends it, for lines of a skipped group and skipped directives.
    /// The line ends where `next` would see it end: a block comment may carry it on, and a
    /// quote or pp-number is scanned as `next` scans it. Reports what `next` reports while
    /// [`Lexer::skipping`]: only unterminated comments and `"` strings.
    pub fn skip_line_tokens(&mut self) {
        let n = self.text.len();
        while self.pos < n {
            let b = self.text[self.pos];
            match b {
                b'\n' => return,
                b'/' if self.at(self.pos + 1) == b'*' => {
                    self.skip_block_comment();
                }
                b'/' if self.at(self.pos + 1) == b'/' && self.opts.line_comments => {
                    self.pos = memchr(b'\n', &self.text[self.pos..])
                        .map_or(self.text.len(), |e| self.pos + e);
                    return;
                }
                b'"' | b'\'' => self.skip_quoted(b, self.pos),
                _ if b.is_ascii_digit()
                    || (b == b'.' && self.at(self.pos + 1).is_ascii_digit()) =>
                {
                    self.lex_number()
                }
                _ if is_ident_start(b, self.opts.dollars) => {
                    // The bytes `lex_ident` takes (a UCN's backslash aside, which changes
                    // nothing here: no prefix ends in one).
                    let start = self.pos;
                    let dollars = self.opts.dollars;
                    loop {
                        self.pos = ident_end(&self.text, self.pos, false);
                        match self.text.get(self.pos) {
                            Some(0x80..) => self.pos += 1,
                            Some(b'$') if dollars => self.pos += 1,
                            _ => break,
                        }
                    }
                    // An encoding prefix makes the literal start at the prefix (where an
                    // unterminated one is reported).
                    let word = &self.text[start..self.pos];
                    if self.at(self.pos) == b'"' && matches!(word, b"L" | b"u" | b"U" | b"u8") {
                        self.skip_quoted(b'"', start);
                    }
                }
                _ => self.pos += 1,
            }
        }
    }

    /// Skips a quoted literal whose quote is at `self.pos` (as `lex_quoted` scans it), with
    /// the warning `lex_quoted` gives while skipping.
    fn skip_quoted(&mut self, quote: u8, start: usize) {
        self.pos += 1;
        loop {
            match self.at(self.pos) {
                b'\\' if self.pos + 1 < self.text.len() && self.text[self.pos + 1] != b'\n' => {
                    self.pos += 2
                }
                b'\n' => break,
                _ if self.pos >= self.text.len() => break,
                c if c == quote => {
                    self.pos += 1;
                    return;
                }
                _ => self.pos += 1,
            }
        }
        if quote == b'"' {
            self.diag(
                false,
                start,
                1,
                format!("missing terminating {} character", quote as char),
            );
        }
    }

    /// Reads on from here the tokens [`Lexer::next`] would give while they are plain ones
    /// (ASCII identifiers and pp-numbers with nothing after them that `next` must look at,
    /// punctuators but a `#` starting a directive; between them blanks and newlines), and
    /// hands each to `take` as (kind, symbol, start, end, text) until it returns false.
    /// Stops before the first token it does not take or `take` refuses, with the lexer as
    /// if only the tokens taken had been read (the blanks before that token are read again
    /// with it, so `next` gives it its flags), having produced no diagnostic. A caller's
    /// loop over a file's tokens without a `Token` made, a call, or the lexer's state
    /// stored, per token. (Tokens taken have no flags: their consumer has no use for them.)
    #[inline(always)]
    pub fn plain_run(
        &mut self,
        interner: &mut Interner,
        mut take: impl FnMut(TokKind, Symbol, usize, usize, &[u8]) -> bool,
    ) {
        // A directive's line (its newline is a token), a header name after `#include` and
        // comments kept as tokens are `next`'s.
        if self.in_directive || self.angle_header || self.opts.keep_comments {
            return;
        }
        let text = &*self.text;
        let at = |i: usize| text.get(i).copied().unwrap_or(0);
        let mut pos = self.pos;
        // No token yet on this line (a `#` here starts a directive).
        let mut bol = self.at_bol;
        loop {
            // Where to come back to if the next token is not taken.
            let (back, back_bol) = (pos, bol);
            let mut b = at(pos);
            if b == b' ' {
                pos += 1;
                b = at(pos);
            }
            if matches!(b, b' ' | b'\t' | b'\x0b' | b'\x0c' | b'\n') {
                (pos, bol) = blanks_end(text, pos, bol);
                b = at(pos);
            }
            let start = pos;
            // Each kind hands its token on by itself, so that `take` is made for it.
            macro_rules! hand {
                ($kind:expr, $sym:expr, $end:expr) => {{
                    let (sym, end) = ($sym, $end);
                    if !take($kind, sym, start, end, text) {
                        (pos, bol) = (back, back_bol);
                        break;
                    }
                    pos = end;
                    bol = false;
                    continue;
                }};
            }
            let one = PUNCT1[b as usize];
            if one != 0 && !PUNCT_MORE[at(start + 1) as usize] {
                hand!(TokKind::Punct, Symbol(one as u32), start + 1);
            }
            if b.is_ascii_alphabetic() || b == b'_' {
                // Most identifiers are one letter: told by the byte after it alone.
                if ENDS_WORD[at(start + 1) as usize] {
                    hand!(TokKind::Ident, interner.intern_byte(b), start + 1);
                }
                let (end, key) = scan_word(text, start, false);
                // A `$`, a UCN or a UTF-8 byte may continue the identifier, and a quote
                // may make it a literal's prefix (as in `next`).
                if matches!(text.get(end), Some(b'$' | b'\\' | b'"' | b'\'' | 0x80..)) {
                    (pos, bol) = (back, back_bol);
                    break;
                }
                let sym = match key {
                    Some(key) => interner.intern_short(end - start, key),
                    None => interner.intern(&text[start..end]),
                };
                hand!(TokKind::Ident, sym, end);
            }
            if b.is_ascii_digit() {
                let (end, key) = scan_word(text, start, true);
                // A sign, a `'`, a UCN, `$` or a UTF-8 byte may continue the number.
                if matches!(
                    text.get(end),
                    Some(b'+' | b'-' | b'\'' | b'\\' | b'$' | 0x80..)
                ) {
                    (pos, bol) = (back, back_bol);
                    break;
                }
                let sym = match key {
                    Some(key) => interner.intern_short(end - start, key),
                    None => interner.intern(&text[start..end]),
                };
                hand!(TokKind::Number, sym, end);
            }
            // The longer punctuators; not a comment, a number `.5` or a directive's `#`
            // (or `%:`). A byte starting none of these is `next`'s.
            let next = at(start + 1);
            let i = match b {
                b'/' if matches!(next, b'*' | b'/') => None,
                b'.' if next.is_ascii_digit() => None,
                _ => punct_at(&text[start..]),
            };
            match i {
                Some(i) if !(bol && (i == pi!("#") || i == pi!("%:"))) => {
                    hand!(TokKind::Punct, punct_sym(i), start + PUNCT_LEN[i] as usize);
                }
                _ => {
                    (pos, bol) = (back, back_bol);
                    break;
                }
            }
        }
        self.pos = pos;
        self.at_bol = bol;
    }

    /// Reads the next token.
    ///
    /// The common tokens (an ASCII identifier, a punctuator, a number) and blanks are taken
    /// here directly; everything else goes the general way of [`Lexer::lex_token`].
    #[inline(never)]
    pub fn next(&mut self, interner: &mut Interner) -> Token {
        let mut fl = 0u8;
        if self.at_bol {
            fl |= flags::BOL;
        }
        loop {
            let text = &*self.text;
            let mut start = self.pos;
            let Some(&(mut b)) = text.get(start) else {
                let kind = if self.in_directive {
                    TokKind::Eod
                } else {
                    TokKind::Eof
                };
                self.in_directive = false;
                let mut t = Token::new(kind, Symbol(0), self.loc(self.pos));
                t.flags = fl;
                return t;
            };
            if b == b' ' {
                // One space between tokens, the commonest blank, without a turn of the loop
                // (a longer run is taken below).
                fl |= flags::PREV_WHITE;
                start += 1;
                self.pos = start;
                match text.get(start) {
                    Some(&c) => b = c,
                    None => continue,
                }
            }
            // The next byte, or 0 (a punctuator's second byte, say).
            let at = |i: usize| text.get(i).copied().unwrap_or(0);
            // A punctuator: `PUNCTUATORS[i]` at `start`.
            let punct = |lx: &mut Lexer, i: usize| {
                lx.pos = start + PUNCT_LEN[i] as usize;
                lx.angle_header = false;
                lx.at_bol = false;
                lx.token(TokKind::Punct, punct_sym(i), start, fl)
            };
            match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let (end, key) = scan_word(text, start, false);
                    // A `$`, a UCN or a UTF-8 byte may continue the identifier, and a quote
                    // may make it a literal's prefix: the general path decides those.
                    if matches!(text.get(end), Some(b'$' | b'\\' | b'"' | b'\'' | 0x80..)) {
                        return self.lex_token(fl, interner);
                    }
                    self.pos = end;
                    self.at_bol = false;
                    let sym = match key {
                        Some(key) => interner.intern_short(end - start, key),
                        None => interner.intern(&text[start..end]),
                    };
                    return self.token(TokKind::Ident, sym, start, fl);
                }
                b' ' | b'\t' | b'\x0b' | b'\x0c' => {
                    // A run of blanks (indentation) at once.
                    self.pos = blank_end(text, start + 1);
                    fl |= flags::PREV_WHITE;
                }
                b'\n' => {
                    if self.in_directive {
                        // The directive ends here; the next line is ordinary text again.
                        let t = Token::new(TokKind::Eod, Symbol(0), self.loc(start));
                        self.pos = start + 1;
                        self.at_bol = true;
                        self.in_directive = false;
                        return t;
                    }
                    self.pos = start + 1;
                    fl = flags::BOL;
                    self.at_bol = true;
                }
                b'0'..=b'9' => {
                    let (end, key) = scan_word(text, start, true);
                    // A sign, a `'`, a UCN, `$` or a UTF-8 byte may continue the number.
                    if matches!(
                        text.get(end),
                        Some(b'+' | b'-' | b'\'' | b'\\' | b'$' | 0x80..)
                    ) {
                        self.lex_number();
                        return self.finish(TokKind::Number, start, fl, interner);
                    }
                    self.pos = end;
                    self.at_bol = false;
                    let sym = match key {
                        Some(key) => interner.intern_short(end - start, key),
                        None => interner.intern(&text[start..end]),
                    };
                    return self.token(TokKind::Number, sym, start, fl);
                }
                b'/' if at(start + 1) == b'*' => {
                    self.skip_block_comment();
                    if self.opts.keep_comments && !self.in_directive {
                        return self.finish(TokKind::Comment, start, fl, interner);
                    }
                    fl |= flags::PREV_WHITE;
                }
                b'/' if at(start + 1) == b'/' && self.opts.line_comments => {
                    self.pos = memchr(b'\n', &text[start..]).map_or(text.len(), |e| start + e);
                    if self.opts.keep_comments && !self.in_directive {
                        return self.finish(TokKind::Comment, start, fl, interner);
                    }
                    fl |= flags::PREV_WHITE;
                }
                // The punctuators, longest match first (as `punct_at` finds them).
                b'(' => return punct(self, pi!("(")),
                b')' => return punct(self, pi!(")")),
                b';' => return punct(self, pi!(";")),
                b',' => return punct(self, pi!(",")),
                b'{' => return punct(self, pi!("{")),
                b'}' => return punct(self, pi!("}")),
                b'[' => return punct(self, pi!("[")),
                b']' => return punct(self, pi!("]")),
                b'?' => return punct(self, pi!("?")),
                b'~' => return punct(self, pi!("~")),
                b'=' => {
                    return punct(
                        self,
                        if at(start + 1) == b'=' {
                            pi!("==")
                        } else {
                            pi!("=")
                        },
                    )
                }
                b'!' => {
                    return punct(
                        self,
                        if at(start + 1) == b'=' {
                            pi!("!=")
                        } else {
                            pi!("!")
                        },
                    )
                }
                b'*' => {
                    return punct(
                        self,
                        if at(start + 1) == b'=' {
                            pi!("*=")
                        } else {
                            pi!("*")
                        },
                    )
                }
                b'/' => {
                    return punct(
                        self,
                        if at(start + 1) == b'=' {
                            pi!("/=")
                        } else {
                            pi!("/")
                        },
                    )
                }
                b'^' => {
                    return punct(
                        self,
                        if at(start + 1) == b'=' {
                            pi!("^=")
                        } else {
                            pi!("^")
                        },
                    )
                }
                b'#' => {
                    return punct(
                        self,
                        if at(start + 1) == b'#' {
                            pi!("##")
                        } else {
                            pi!("#")
                        },
                    )
                }
                b':' => {
                    return punct(
                        self,
                        if at(start + 1) == b'>' {
                            pi!(":>")
                        } else {
                            pi!(":")
                        },
                    )
                }
                b'-' => {
                    let i = match at(start + 1) {
                        b'>' => pi!("->"),
                        b'-' => pi!("--"),
                        b'=' => pi!("-="),
                        _ => pi!("-"),
                    };
                    return punct(self, i);
                }
                b'+' => {
                    let i = match at(start + 1) {
                        b'+' => pi!("++"),
                        b'=' => pi!("+="),
                        _ => pi!("+"),
                    };
                    return punct(self, i);
                }
                b'&' => {
                    let i = match at(start + 1) {
                        b'&' => pi!("&&"),
                        b'=' => pi!("&="),
                        _ => pi!("&"),
                    };
                    return punct(self, i);
                }
                b'|' => {
                    let i = match at(start + 1) {
                        b'|' => pi!("||"),
                        b'=' => pi!("|="),
                        _ => pi!("|"),
                    };
                    return punct(self, i);
                }
                b'>' => {
                    let i = match at(start + 1) {
                        b'>' if at(start + 2) == b'=' => pi!(">>="),
                        b'>' => pi!(">>"),
                        b'=' => pi!(">="),
                        _ => pi!(">"),
                    };
                    return punct(self, i);
                }
                // `.5` is a number; `<` may start a header name: the general path.
                b'.' | b'<' | b'%' => {
                    let number = b == b'.' && at(start + 1).is_ascii_digit();
                    let header = b == b'<' && self.angle_header;
                    match punct_at(&text[start..]) {
                        Some(i) if !number && !header => return punct(self, i),
                        _ => return self.lex_token(fl, interner),
                    }
                }
                b'\0' => {
                    if !self.skipping {
                        self.diag(false, start, 1, "null character(s) ignored".into());
                    }
                    while self.at(self.pos) == 0 && self.pos < self.text.len() {
                        self.pos += 1;
                    }
                    fl |= flags::PREV_WHITE;
                }
                _ => return self.lex_token(fl, interner),
            }
        }
    }

    /// A token spelled at `start`.
    #[inline]
    fn token(&self, kind: TokKind, sym: Symbol, start: usize, fl: u8) -> Token {
        Token {
            kind,
            flags: fl,
            sym,
            loc: self.loc(start),
            expansion: 0,
        }
    }

    fn finish(&mut self, kind: TokKind, start: usize, fl: u8, interner: &mut Interner) -> Token {
        self.at_bol = false;
        let sym = interner.intern_in(&self.text, start, self.pos);
        let mut t = Token::new(kind, sym, self.loc(start));
        t.flags = fl;
        t
    }

    fn lex_token(&mut self, fl: u8, interner: &mut Interner) -> Token {
        let start = self.pos;
        let b = self.text[start];
        let dollars = self.opts.dollars;
        if b.is_ascii_digit() || (b == b'.' && self.at(start + 1).is_ascii_digit()) {
            self.lex_number();
            return self.finish(TokKind::Number, start, fl, interner);
        }
        if is_ident_start(b, dollars) || (b == b'\\' && self.ucn_len(start) > 0) {
            let non_ascii = self.lex_ident();
            // An encoding prefix directly before a quote makes a literal.
            let word = &self.text[start..self.pos];
            let q = self.at(self.pos);
            if q == b'"' && matches!(word, b"L" | b"u" | b"U" | b"u8") {
                return self.lex_quoted(b'"', start, fl, interner);
            }
            if q == b'\''
                && (matches!(word, b"L" | b"u" | b"U") || (word == b"u8" && self.opts.c2x))
            {
                return self.lex_quoted(b'\'', start, fl, interner);
            }
            if non_ascii {
                if let Some(bad) = invalid_utf8_at(word) {
                    if !self.skipping {
                        self.diag(
                            true,
                            start + bad,
                            1,
                            format!("invalid UTF-8 byte '\\{:o}' in program", word[bad]),
                        );
                    }
                }
            }
            return self.finish(TokKind::Ident, start, fl, interner);
        }
        match b {
            b'"' | b'\'' => return self.lex_quoted(b, start, fl, interner),
            b'<' if self.angle_header => {
                if let Some(end) = self.text[start..]
                    .iter()
                    .position(|&c| c == b'>' || c == b'\n')
                {
                    if self.text[start + end] == b'>' {
                        self.pos = start + end + 1;
                        self.angle_header = false;
                        return self.finish(TokKind::HeaderName, start, fl, interner);
                    }
                }
            }
            _ => {}
        }
        self.angle_header = false;
        if let Some(i) = punct_at(&self.text[start..]) {
            // `<::` is `<` `::`... in C++ only; C has no special case.
            self.pos += PUNCTUATORS[i].len();
            self.at_bol = false;
            let mut t = Token::new(TokKind::Punct, punct_sym(i), self.loc(start));
            t.flags = fl;
            return t;
        }
        // Anything else is a one-character "other" token (a UTF-8 sequence stays whole).
        self.pos += 1;
        self.finish(TokKind::Other, start, fl, interner)
    }

    /// Length of a UCN (`\uXXXX` or `\UXXXXXXXX`) at `i`, or 0.
    fn ucn_len(&self, i: usize) -> usize {
        let n = match self.at(i + 1) {
            b'u' => 4,
            b'U' => 8,
            _ => return 0,
        };
        if (0..n).all(|k| self.at(i + 2 + k).is_ascii_hexdigit()) {
            n + 2
        } else {
            0
        }
    }

    /// Scans an identifier; true if it has bytes beyond ASCII (to be checked as UTF-8).
    fn lex_ident(&mut self) -> bool {
        let dollars = self.opts.dollars;
        let text = &*self.text;
        let mut pos = self.pos;
        let mut non_ascii = text[pos] >= 0x80;
        loop {
            // The common case, a run of ASCII letters, digits and `_`, a word at a time.
            pos = ident_end(text, pos, false);
            let c = text.get(pos).copied().unwrap_or(0);
            if pos < text.len() && (c >= 0x80 || (c == b'$' && dollars)) {
                non_ascii |= c >= 0x80;
                pos += 1;
            } else if c == b'\\' {
                self.pos = pos;
                let n = self.ucn_len(pos);
                if n == 0 {
                    break;
                }
                pos += n;
            } else {
                break;
            }
        }
        self.pos = pos;
        non_ascii
    }

    /// pp-number (C17 6.4.8): digits, identifier characters, `.`, and `e+ e- E+ E- p+ p-
    /// P+ P-`; in C2x also `'` between digits or letters.
    fn lex_number(&mut self) {
        let text = &*self.text;
        let mut pos = self.pos + 1;
        loop {
            // The common bytes (digits, ASCII letters, `_`, `.`), a word at a time.
            pos = ident_end(text, pos, true);
            match text.get(pos).copied().unwrap_or(0) {
                b'+' | b'-' if matches!(text[pos - 1], b'e' | b'E' | b'p' | b'P') => pos += 1,
                0x80.. => pos += 1,
                b'\'' if self.opts.c2x && self.at(pos + 1).is_ascii_alphanumeric() => pos += 2,
                b'\\' if self.ucn_len(pos) > 0 => pos += self.ucn_len(pos),
                b'$' if self.opts.dollars => pos += 1,
                _ => break,
            }
        }
        self.pos = pos;
    }

    /// A string literal or character constant whose quote is at `self.pos`.
    fn lex_quoted(&mut self, quote: u8, start: usize, fl: u8, interner: &mut Interner) -> Token {
        self.pos += 1;
        loop {
            match self.at(self.pos) {
                b'\\' if self.pos + 1 < self.text.len() && self.text[self.pos + 1] != b'\n' => {
                    self.pos += 2
                }
                b'\n' => break,
                _ if self.pos >= self.text.len() => break,
                c if c == quote => {
                    self.pos += 1;
                    let kind = if quote == b'"' {
                        TokKind::Str
                    } else {
                        TokKind::Char
                    };
                    return self.finish(kind, start, fl, interner);
                }
                _ => self.pos += 1,
            }
        }
        // Unterminated: gcc warns, and the rest of the line becomes one "other" token.
        if !self.skipping || quote == b'"' {
            self.diag(
                false,
                start,
                1,
                format!("missing terminating {} character", quote as char),
            );
        }
        self.finish(TokKind::Other, start, fl, interner)
    }
}

/// `PUNCT1[b]`: the symbol of the one-byte punctuator `b` that [`Lexer::plain_run`] takes
/// without a look at more than the next byte (0: none): all of them but `.` (which may
/// start a number) and `#` (which may start a directive). (`<` starts no header name
/// there.)
static PUNCT1: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < PUNCTUATORS.len() {
        let s = PUNCTUATORS[i].as_bytes();
        if s.len() == 1 && s[0] != b'.' && s[0] != b'#' {
            t[s[0] as usize] = punct_sym(i).0 as u8;
        }
        i += 1;
    }
    t
};

/// Bytes after which an identifier ends, with nothing for [`Lexer::next`] to look at: not a
/// letter, digit or `_`, nor a `$`, `\\`, quote or UTF-8 byte (see `next`); 0 stands for the
/// end of the text too.
static ENDS_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'\\' | b'"' | b'\''));
        b += 1;
    }
    t
};

/// Bytes that may follow a one-byte punctuator and change what it is: a later byte of
/// some punctuator (`=` of `+=`, `:` of `<:`...), and `*` and `/`, which make `/` a
/// comment. After any other byte a one-byte punctuator is the whole token.
static PUNCT_MORE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < PUNCTUATORS.len() {
        let s = PUNCTUATORS[i].as_bytes();
        let mut k = 1;
        while k < s.len() {
            t[s[k] as usize] = true;
            k += 1;
        }
        i += 1;
    }
    t[b'*' as usize] = true;
    t[b'/' as usize] = true;
    t
};

/// ASCII bytes that continue an identifier: letters, digits, `_`.
static IDENT_ASCII: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    t
};

/// Bytes that continue a pp-number without a look around: ASCII letters, digits, `_`, `.`.
static PP_NUMBER_ASCII: [bool; 256] = {
    let mut t = IDENT_ASCII;
    t[b'.' as usize] = true;
    t
};

/// `0x01` in every byte of a word.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// `0x80` in every byte of a word.
const HIGHS: u64 = ONES * 0x80;

/// The high bit of each byte of `w` that lies in `lo..=hi` (`lo >= 1`), exact for bytes
/// below 0x80 up to the first byte of 0x80 or more (whose sum may carry into the next byte:
/// callers look at bytes only up to the first such one, which they flag themselves).
#[inline(always)]
fn bytes_in(w: u64, lo: u8, hi: u8) -> u64 {
    // byte + 0x80 - lo has its high bit set when byte >= lo, byte + 0x7f - hi when
    // byte > hi; neither carries out of a byte below 0x80.
    let ge_lo = w.wrapping_add(ONES * (0x80 - lo) as u64);
    let gt_hi = w.wrapping_add(ONES * (0x7f - hi) as u64);
    ge_lo & !gt_hi & HIGHS
}

/// The high bit of each byte of `w` (eight bytes of text, little-endian) that does not
/// continue an ASCII identifier (not a letter, digit or `_`; every byte of 0x80 or more
/// counts as a stop), with `dot` also `.` (a pp-number). Exact up to the first stop; the
/// first stop is byte `stops.trailing_zeros() / 8`. A word at a time, without a branch or
/// a table load per byte.
#[inline(always)]
fn ident_stops(w: u64, dot: bool) -> u64 {
    let letter = bytes_in(w | (ONES * 0x20), b'a', b'z');
    let digit = bytes_in(w, b'0', b'9');
    let under = bytes_in(w, b'_', b'_');
    let mut go = letter | digit | under;
    if dot {
        go |= bytes_in(w, b'.', b'.');
    }
    (!go & HIGHS) | (w & HIGHS)
}

/// Where the run of ASCII identifier bytes (letters, digits, `_`, and with `dot` also `.`)
/// from `from` ends.
#[inline]
fn ident_end(text: &[u8], from: usize, dot: bool) -> usize {
    let mut p = from;
    // Eight bytes at a time while the text has them.
    while let Some(chunk) = text.get(p..p + 8) {
        let stops = ident_stops(u64::from_le_bytes(chunk.try_into().unwrap()), dot);
        if stops != 0 {
            return p + (stops.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    let table = if dot { &PP_NUMBER_ASCII } else { &IDENT_ASCII };
    match text[p..].iter().position(|&c| !table[c as usize]) {
        Some(i) => p + i,
        None => text.len(),
    }
}

/// An identifier or pp-number (with `dot`) of ASCII letters, digits and `_` (and `.`) at
/// `start`, whose first byte is one of them: where it ends, with its [`Interner`] short key
/// when it has at most eight bytes (taken from the word the scan read, so interning does
/// not read the spelling again).
#[inline(always)]
fn scan_word(text: &[u8], start: usize, dot: bool) -> (usize, Option<u64>) {
    if let Some(chunk) = text.get(start..start + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap());
        let stops = ident_stops(w, dot);
        if stops != 0 {
            let bits = stops.trailing_zeros() & !7;
            // The bytes below the stop: at least one (the first byte is no stop).
            return (start + (bits / 8) as usize, Some(w & ((1u64 << bits) - 1)));
        }
        let end = ident_end(text, start + 8, dot);
        return (end, (end == start + 8).then_some(w));
    }
    (ident_end(text, start + 1, dot), None)
}

/// Where the blanks and newlines from `from` end, and whether a newline was among them (or
/// `bol` already): for [`Lexer::plain_run`], which passes over them as `next` does. Out of
/// line: its constants would take registers in that loop, which most tokens leave without
/// coming here.
#[inline(never)]
fn blanks_end(text: &[u8], from: usize, mut bol: bool) -> (usize, bool) {
    let mut p = from;
    loop {
        match text.get(p) {
            Some(b'\n') => {
                p += 1;
                bol = true;
            }
            Some(b' ' | b'\t' | b'\x0b' | b'\x0c') => p = blank_end(text, p + 1),
            _ => return (p, bol),
        }
    }
}

/// Where the run of spaces and tabs from `from` ends.
#[inline]
fn blank_end(text: &[u8], from: usize) -> usize {
    let mut p = from;
    while let Some(chunk) = text.get(p..p + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap());
        let blank = bytes_in(w, b' ', b' ') | bytes_in(w, b'\t', b'\t');
        let stops = (!blank & HIGHS) | (w & HIGHS);
        if stops != 0 {
            return p + (stops.trailing_zeros() / 8) as usize;
        }
        p += 8;
    }
    while matches!(text.get(p), Some(b' ' | b'\t')) {
        p += 1;
    }
    p
}

/// The index in [`PUNCTUATORS`] of the longest punctuator at the start of `rest`, if any.
#[inline]
fn punct_at(rest: &[u8]) -> Option<usize> {
    let at = |i: usize| rest.get(i).copied().unwrap_or(0);
    let next = at(1);
    Some(match *rest.first()? {
        b'[' => pi!("["),
        b']' => pi!("]"),
        b'(' => pi!("("),
        b')' => pi!(")"),
        b'{' => pi!("{"),
        b'}' => pi!("}"),
        b'~' => pi!("~"),
        b'?' => pi!("?"),
        b';' => pi!(";"),
        b',' => pi!(","),
        b'-' => match next {
            b'>' => pi!("->"),
            b'-' => pi!("--"),
            b'=' => pi!("-="),
            _ => pi!("-"),
        },
        b'+' => match next {
            b'+' => pi!("++"),
            b'=' => pi!("+="),
            _ => pi!("+"),
        },
        b'&' => match next {
            b'&' => pi!("&&"),
            b'=' => pi!("&="),
            _ => pi!("&"),
        },
        b'|' => match next {
            b'|' => pi!("||"),
            b'=' => pi!("|="),
            _ => pi!("|"),
        },
        b'=' if next == b'=' => pi!("=="),
        b'=' => pi!("="),
        b'!' if next == b'=' => pi!("!="),
        b'!' => pi!("!"),
        b'*' if next == b'=' => pi!("*="),
        b'*' => pi!("*"),
        b'/' if next == b'=' => pi!("/="),
        b'/' => pi!("/"),
        b'^' if next == b'=' => pi!("^="),
        b'^' => pi!("^"),
        b'#' if next == b'#' => pi!("##"),
        b'#' => pi!("#"),
        b':' if next == b'>' => pi!(":>"),
        b':' => pi!(":"),
        b'.' if next == b'.' && at(2) == b'.' => pi!("..."),
        b'.' => pi!("."),
        b'<' => match next {
            b'<' if at(2) == b'=' => pi!("<<="),
            b'<' => pi!("<<"),
            b'=' => pi!("<="),
            b':' => pi!("<:"),
            b'%' => pi!("<%"),
            _ => pi!("<"),
        },
        b'>' => match next {
            b'>' if at(2) == b'=' => pi!(">>="),
            b'>' => pi!(">>"),
            b'=' => pi!(">="),
            _ => pi!(">"),
        },
        b'%' => match next {
            b':' if at(2) == b'%' && at(3) == b':' => pi!("%:%:"),
            b':' => pi!("%:"),
            b'=' => pi!("%="),
            b'>' => pi!("%>"),
            _ => pi!("%"),
        },
        _ => return None,
    })
}

/// Offset of the first byte of `s` that is not part of valid UTF-8, if any.
fn invalid_utf8_at(s: &[u8]) -> Option<usize> {
    match std::str::from_utf8(s) {
        Ok(_) => None,
        Err(e) => Some(e.valid_up_to()),
    }
}

/// Bytes per step of [`memchr`] and [`memchr2`]: each chunk is tested without a branch per
/// byte (an OR of comparisons over an array, which the compiler turns into a few vector
/// compares), and only a chunk that holds a match is searched byte by byte.
const CHUNK: usize = 32;

/// Position of the first `needle` in `hay`.
#[inline]
pub fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    let mut chunks = hay.chunks_exact(CHUNK);
    let mut i = 0;
    for c in &mut chunks {
        let c: &[u8; CHUNK] = c.try_into().unwrap();
        let mut found = 0u8;
        for &b in c {
            found |= (b == needle) as u8;
        }
        if found != 0 {
            break;
        }
        i += CHUNK;
    }
    hay[i..].iter().position(|&b| b == needle).map(|p| i + p)
}

/// Position of the first byte of `hay` equal to `a` or `b`.
#[inline]
pub fn memchr2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    let mut chunks = hay.chunks_exact(CHUNK);
    let mut i = 0;
    for c in &mut chunks {
        let c: &[u8; CHUNK] = c.try_into().unwrap();
        let mut found = 0u8;
        for &x in c {
            found |= ((x == a) | (x == b)) as u8;
        }
        if found != 0 {
            break;
        }
        i += CHUNK;
    }
    hay[i..]
        .iter()
        .position(|&c| c == a || c == b)
        .map(|p| i + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_all(src: &str) -> Vec<(TokKind, String, u8)> {
        let mut interner = Interner::new();
        intern_punctuators(&mut interner);
        let text = crate::source::clean(src.as_bytes(), false).text;
        let mut lx = Lexer::new(FileId(1), text.into(), LexOptions::default());
        let mut out = Vec::new();
        loop {
            let t = lx.next(&mut interner);
            if t.kind == TokKind::Eof {
                break;
            }
            out.push((t.kind, interner.str(t.sym).into_owned(), t.flags));
        }
        out
    }

    /// `skip_line_tokens` must end a line where lexing its tokens one by one (as a skipped
    /// group did before) ends it, with the same diagnostics.
    #[test]
    fn skipping_a_line_ends_where_its_tokens_end() {
        let lines = [
            "a b c\n#x\n",
            "x = \"/* not a comment\";\n#y\n",
            "don't /* stop\n here */ z\n#y\n",
            "1'000 /* c2x separator\n */ w\n#y\n",
            "é1'000 /* in an identifier\n */ w\n#y\n",
            "L\"open\n#y\n",
            "$L\"open\n#y\n",
            "q = 'a /* */\n#y\n",
            "x // rest /*\n#y\n",
            "s = \"esc \\\" /*\" ; /* a\nb */ c\n#y\n",
            "0x1p-3'/*' u8'x' /*\n*/\n#y\n",
            "a /* never closed\n",
            "\"unterminated at end",
            "\\u00e9L\"x\" \\uL\"y /*\n#y\n",
            "",
        ];
        for c2x in [false, true] {
            for line in lines {
                let opts = LexOptions {
                    c2x,
                    ..LexOptions::default()
                };
                let mut interner = Interner::new();
                intern_punctuators(&mut interner);
                let text: Text = line.as_bytes().into();
                // One by one: the first token at the start of a line ends the line before.
                let mut slow = Lexer::new(FileId(1), text.clone(), opts);
                slow.skipping = true;
                slow.at_bol = false;
                let slow_next = loop {
                    let t = slow.next(&mut interner);
                    if t.has(flags::BOL) || t.kind == TokKind::Eof {
                        break t;
                    }
                };
                let mut fast = Lexer::new(FileId(1), text, opts);
                fast.skipping = true;
                fast.at_bol = false;
                fast.skip_line_tokens();
                let fast_next = fast.next(&mut interner);
                // (Whitespace before the end of the file may differ; nothing reads it.)
                let key = |t: Token| (t.kind, t.sym, t.loc, t.has(flags::BOL));
                assert_eq!(key(fast_next), key(slow_next), "{line:?} c2x={c2x}");
                assert_eq!(fast.diags, slow.diags, "{line:?} c2x={c2x}");
            }
        }
    }

    /// The word-at-a-time scans (`ident_end`, `scan_word`, `blank_end`) stop where a scan
    /// byte by byte stops, with every pair of byte values in several places of a word and
    /// of the text's tail, and `scan_word`'s key is the spelling's.
    #[test]
    fn word_scans_stop_where_byte_scans_stop() {
        let by_byte = |text: &[u8], from: usize, go: &dyn Fn(u8) -> bool| {
            text[from..]
                .iter()
                .position(|&c| !go(c))
                .map_or(text.len(), |i| from + i)
        };
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for at in [1, 7, 12] {
                    for len in [at + 2, 20] {
                        let mut text: Vec<u8> = b"az_09AZmQ_z9y8x7w6v5"[..len].to_vec();
                        text[at] = a;
                        text[at + 1] = b;
                        for dot in [false, true] {
                            let table = if dot { &PP_NUMBER_ASCII } else { &IDENT_ASCII };
                            let go = |c: u8| table[c as usize];
                            for from in [0, 1, at] {
                                assert_eq!(ident_end(&text, from, dot), by_byte(&text, from, &go));
                            }
                            let end = by_byte(&text, 0, &go);
                            // (No key from a text too short for a word: interned from
                            // the slice instead.)
                            let key = (end <= 8 && text.len() >= 8).then(|| {
                                let mut k = [0u8; 8];
                                k[..end].copy_from_slice(&text[..end]);
                                u64::from_le_bytes(k)
                            });
                            assert_eq!(scan_word(&text, 0, dot), (end, key), "{text:?}");
                        }
                        let mut blanks = text.clone();
                        blanks[..at].fill(b' ');
                        blanks[at / 2] = b'\t';
                        let go = |c: u8| c == b' ' || c == b'\t';
                        assert_eq!(blank_end(&blanks, 0), by_byte(&blanks, 0, &go));
                    }
                }
            }
        }
    }

    #[test]
    fn punctuator_symbols_match_their_spelling() {
        let mut i = Interner::new();
        intern_punctuators(&mut i);
        assert_eq!(i.get(p::HASH), b"#");
        assert_eq!(i.get(p::HASHHASH), b"##");
        assert_eq!(i.get(p::HASH_DIGRAPH), b"%:");
        assert_eq!(i.get(p::HASHHASH_DIGRAPH), b"%:%:");
        assert_eq!(i.get(p::LPAREN), b"(");
        assert_eq!(i.get(p::RPAREN), b")");
        assert_eq!(i.get(p::COMMA), b",");
        assert_eq!(i.get(p::ELLIPSIS), b"...");
        assert_eq!(i.get(p::LT), b"<");
        assert_eq!(i.get(p::GT), b">");
    }

    #[test]
    fn memchr_finds_the_first() {
        let hay = b"abcdefghijklmnopqrstuvwxyz0123456789\nABC\nabcdefghijklmnopqrstuvwxyz.0123456789+ABCDEFGHIJKLMNOPQRSTUVWXYZ-";
        for (i, &b) in hay.iter().enumerate() {
            let first = hay.iter().position(|&c| c == b);
            assert_eq!(memchr(b, hay), first);
            assert_eq!(memchr2(b'#', b, hay), first);
            assert_eq!(
                memchr(b, &hay[i + 1..]),
                hay[i + 1..].iter().position(|&c| c == b)
            );
        }
        assert_eq!(memchr(b'#', hay), None);
        assert_eq!(memchr2(b'#', b'\x80', hay), None);
        assert_eq!(memchr(0x80, &[0x7f, 0x80, 0, 0, 0, 0, 0, 0, 0]), Some(1));
        // In every place of a few chunks, the first of several.
        for len in [0, 1, 31, 32, 33, 64, 100] {
            for at in 0..len {
                let mut v = vec![b'x'; len];
                v[at] = b'\n';
                if at + 5 < len {
                    v[at + 5] = b'\n';
                }
                assert_eq!(memchr(b'\n', &v), Some(at));
                assert_eq!(memchr2(b'\r', b'\n', &v), Some(at));
            }
            assert_eq!(memchr(b'\n', &vec![b'x'; len]), None);
        }
    }

    #[test]
    fn punctuators_are_the_longest_match_like_a_scan_of_the_table() {
        // The reference: the first entry of the table (longest first) that matches.
        let scan = |rest: &[u8]| {
            PUNCTUATORS
                .iter()
                .position(|p| rest.starts_with(p.as_bytes()))
        };
        let alphabet = b"%.<>-+=!&|*/^#:[](){}~?;,a";
        let mut interner = Interner::new();
        intern_punctuators(&mut interner);
        let mut buf = Vec::new();
        for &a in alphabet {
            for &b in alphabet {
                for &c in alphabet {
                    for &d in alphabet {
                        buf.clear();
                        buf.extend_from_slice(&[a, b, c, d]);
                        for n in 1..=4 {
                            let want = scan(&buf[..n]);
                            assert_eq!(punct_at(&buf[..n]), want, "{:?}", &buf[..n]);
                            // `next` and `plain_run` take punctuators their own way:
                            // the same ones, also after a blank and at the very end of
                            // the text.
                            let comment = buf[0] == b'/' && matches!(buf[1], b'*' | b'/');
                            if let (Some(i), false) = (want, comment) {
                                for (lead, plain) in
                                    [(&b""[..], false), (b" ", false), (b"", true), (b" ", true)]
                                {
                                    let text: Vec<u8> = [lead, &buf[..n]].concat();
                                    let mut lx =
                                        Lexer::new(FileId(1), text.into(), LexOptions::default());
                                    lx.at_bol = false;
                                    let t = if plain {
                                        let mut first = None;
                                        lx.plain_run(&mut interner, |kind, sym, start, end, _| {
                                            first = Some((kind, sym, start, end));
                                            false
                                        });
                                        // (Refused: the lexer is back before the blank.)
                                        assert_eq!(lx.pos(), 0);
                                        let (kind, sym, start, end) = first.unwrap();
                                        lx.pos = end;
                                        Token::new(kind, sym, lx.loc(start))
                                    } else {
                                        let mut t = lx.next(&mut interner);
                                        assert_eq!(t.flags, lead.len() as u8);
                                        t.flags = 0;
                                        t
                                    };
                                    assert_eq!(
                                        (t.kind, t.sym, t.loc.offset as usize, t.flags),
                                        (TokKind::Punct, punct_sym(i), lead.len(), 0),
                                        "{:?}",
                                        &buf[..n]
                                    );
                                    assert_eq!(lx.pos(), lead.len() + PUNCTUATORS[i].len());
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `plain_run`, with `next` for what it leaves, gives the tokens (kinds, spellings,
    /// places; and flags, of those `next` gives) and diagnostics `next` alone gives, in and
    /// out of directives, with every sort of token and blank, whether `take` takes a token
    /// or refuses it.
    #[test]
    fn plain_run_lexes_as_next() {
        let src = "#define f(x) (x) + 1\n  int a_long_identifier_name = f(b) ;\n\tx=y;z->w\n\
                   #include <a.h>\nq( r ) /* c */ s // d\n  0x1p-3 .5 12ab L\"s\" u8'c' $d é\n\
                   a\\u00e9 \"open\n k%:%:l<:m:>{}[]~?,;.5 ... @ \x00 end\n\
                   \x0b\x0c a  \t b \n\n  %: x\n # y\n z # w ## v 1e+5 1.5e3 x.y 9999999999 \
                   an_identifier_of_many_bytes+1 a\nb L'x' b$ c\\u00e9 d\"e\" _é f";
        let text = crate::source::clean(src.as_bytes(), false).text;
        type Lexed = (TokKind, String, Loc, Option<u8>);
        let lex = |refuse_every: usize| -> (Vec<Lexed>, Vec<LexDiag>) {
            let mut interner = Interner::new();
            intern_punctuators(&mut interner);
            let mut lx = Lexer::new(FileId(1), text.clone().into(), LexOptions::default());
            let mut toks: Vec<Lexed> = Vec::new();
            let mut n = 0;
            loop {
                if refuse_every > 0 {
                    let mut taken = Vec::new();
                    lx.plain_run(&mut interner, |kind, sym, start, end, text| {
                        n += 1;
                        if n % refuse_every == 0 {
                            return false;
                        }
                        taken.push((kind, sym, start, text[start..end].to_vec()));
                        true
                    });
                    for (kind, sym, start, spelling) in taken {
                        assert_eq!(interner.get(sym), spelling);
                        toks.push((kind, interner.str(sym).into_owned(), lx.loc(start), None));
                    }
                }
                let t = lx.next(&mut interner);
                // As the preprocessor does: a directive's line ends with an `Eod`.
                if t.kind == TokKind::Punct && t.has(flags::BOL) && t.sym == p::HASH {
                    lx.in_directive = true;
                }
                if t.kind == TokKind::Ident && interner.get(t.sym) == b"include" {
                    lx.angle_header = true;
                }
                toks.push((
                    t.kind,
                    interner.str(t.sym).into_owned(),
                    t.loc,
                    Some(t.flags),
                ));
                if t.kind == TokKind::Eof {
                    break;
                }
            }
            (toks, lx.diags)
        };
        let (want, want_diags) = lex(0);
        assert!(want.len() > 80);
        for refuse_every in [1, 2, 3, 5, usize::MAX] {
            let (got, diags) = lex(refuse_every);
            assert_eq!(diags, want_diags, "{refuse_every}");
            assert_eq!(got.len(), want.len(), "{refuse_every}");
            let mut plain = 0;
            for (g, w) in got.iter().zip(&want) {
                assert_eq!((&g.0, &g.1, g.2), (&w.0, &w.1, w.2), "{refuse_every}");
                match g.3 {
                    Some(f) => assert_eq!(Some(f), w.3, "{g:?} {refuse_every}"),
                    None => plain += 1,
                }
            }
            // (Most tokens go the plain way when all are taken.)
            let least = match refuse_every {
                1 => 0,
                usize::MAX => 50,
                _ => 20,
            };
            assert!(plain >= least, "{plain} {refuse_every}");
        }
    }

    #[test]
    fn tokens_with_flags() {
        let toks = lex_all("a+=b\n  x /* c */ y");
        let spell: Vec<_> = toks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(spell, ["a", "+=", "b", "x", "y"]);
        assert_eq!(toks[0].2, flags::BOL);
        assert_eq!(toks[1].2, 0);
        assert_eq!(toks[3].2, flags::BOL | flags::PREV_WHITE);
        assert_eq!(toks[4].2, flags::PREV_WHITE);
    }

    #[test]
    fn pp_numbers_are_greedy() {
        let toks = lex_all("0x1e+1 1.2.3e-x .5f 0x1p-3 12ab");
        let spell: Vec<_> = toks.iter().map(|t| (t.0, t.1.as_str())).collect();
        assert_eq!(
            spell,
            [
                (TokKind::Number, "0x1e+1"),
                (TokKind::Number, "1.2.3e-x"),
                (TokKind::Number, ".5f"),
                (TokKind::Number, "0x1p-3"),
                (TokKind::Number, "12ab")
            ]
        );
    }

    #[test]
    fn literals_with_prefixes() {
        let toks = lex_all(r#"L"a\"b" u8"x" U'c' u8'd' 'e'"#);
        let spell: Vec<_> = toks.iter().map(|t| (t.0, t.1.as_str())).collect();
        assert_eq!(
            spell,
            [
                (TokKind::Str, r#"L"a\"b""#),
                (TokKind::Str, r#"u8"x""#),
                (TokKind::Char, "U'c'"),
                (TokKind::Ident, "u8"),
                (TokKind::Char, "'d'"),
                (TokKind::Char, "'e'")
            ]
        );
    }

    #[test]
    fn digraphs_and_longest_match() {
        let toks = lex_all("<: :> <% %> %: %:%: ... .. >>= ->");
        let spell: Vec<_> = toks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            spell,
            ["<:", ":>", "<%", "%>", "%:", "%:%:", "...", ".", ".", ">>=", "->"]
        );
    }

    #[test]
    fn unterminated_literal_becomes_other_with_warning() {
        let mut interner = Interner::new();
        intern_punctuators(&mut interner);
        let mut lx = Lexer::new(FileId(1), b"x = \"abc\n"[..].into(), LexOptions::default());
        lx.next(&mut interner);
        lx.next(&mut interner);
        let t = lx.next(&mut interner);
        assert_eq!(t.kind, TokKind::Other);
        assert_eq!(interner.get(t.sym), b"\"abc");
        assert_eq!(lx.diags[0].message, "missing terminating \" character");
        assert_eq!(lx.diags[0].loc.offset, 4);
    }

    #[test]
    fn unterminated_comment_is_an_error() {
        let mut interner = Interner::new();
        intern_punctuators(&mut interner);
        let mut lx = Lexer::new(FileId(1), b"a /* b\n"[..].into(), LexOptions::default());
        lx.next(&mut interner);
        assert_eq!(lx.next(&mut interner).kind, TokKind::Eof);
        assert!(lx.diags[0].error);
        assert_eq!(lx.diags[0].message, "unterminated comment");
        assert_eq!(lx.diags[0].loc.offset, 2);
    }
}
