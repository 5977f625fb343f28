//! Preprocessing tokens and the identifier/spelling interner.

use crate::source::Loc;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An interned spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Symbol(pub u32);

/// A small, fast hasher for short keys (spellings, symbols). Not DoS-resistant, which a
/// compiler reading its own inputs does not need.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().unwrap())).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ b as u64).wrapping_mul(K);
        }
        self.0 = h;
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuild>;
pub type FxHashSet<K> = std::collections::HashSet<K, FxBuild>;

/// Interns spellings so tokens are small and comparisons cheap.
///
/// All spellings live end to end in one byte buffer (no allocation per symbol); the lookup
/// table is open-addressed and holds symbol ids with their hashes, so a probe compares a
/// hash before it compares bytes.
pub struct Interner {
    /// The spellings, end to end.
    bytes: Vec<u8>,
    /// `ends[i]`: where symbol `i`'s spelling ends in `bytes` (it starts at `ends[i - 1]`).
    ends: Vec<u32>,
    /// Slots: `(hash, symbol + 1)`, `(_, 0)` when empty. Length a power of two.
    table: Vec<(u32, u32)>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner {
            bytes: Vec::with_capacity(1 << 16),
            ends: Vec::with_capacity(1 << 12),
            table: vec![(0, 0); 1 << 13],
        }
    }
}

/// The hash of a spelling (FxHash-like, a word at a time).
#[inline]
fn spelling_hash(s: &[u8]) -> u32 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = s.len() as u64;
    let mut chunks = s.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().unwrap())).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        // The tail as a little-endian word, built in place (a copy into a buffer would
        // call memcpy for these few bytes).
        let mut w = 0u64;
        for (i, &b) in rest.iter().enumerate() {
            w |= (b as u64) << (8 * i);
        }
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    (h >> 32) as u32
}

/// `a == b`, without a call to memcmp for the short spellings that most are.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let n = a.len();
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap());
    if n >= 8 {
        // Eight bytes at a time, the last word overlapping the one before.
        let mut i = 0;
        while i + 8 < n {
            if word(a, i) != word(b, i) {
                return false;
            }
            i += 8;
        }
        return word(a, n - 8) == word(b, n - 8);
    }
    a.iter().zip(b).all(|(x, y)| x == y)
}

impl Interner {
    pub fn new() -> Self {
        let mut i = Interner::default();
        i.intern(b""); // Symbol(0): the empty spelling
        i
    }

    /// The slot where `s` (with hash `h`) is, or the empty slot where it would go.
    #[inline]
    fn find(&self, s: &[u8], h: u32) -> usize {
        let mask = self.table.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (sh, id) = self.table[i];
            if id == 0 || (sh == h && same_bytes(self.get(Symbol(id - 1)), s)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    pub fn intern(&mut self, s: &[u8]) -> Symbol {
        let h = spelling_hash(s);
        let slot = self.find(s, h);
        let id = self.table[slot].1;
        if id != 0 {
            return Symbol(id - 1);
        }
        let sym = Symbol(self.ends.len() as u32);
        self.bytes.extend_from_slice(s);
        self.ends.push(self.bytes.len() as u32);
        self.table[slot] = (h, sym.0 + 1);
        // Kept at most half full.
        if self.ends.len() * 2 > self.table.len() {
            self.grow();
        }
        sym
    }

    fn grow(&mut self) {
        let doubled = vec![(0, 0); self.table.len() * 2];
        let old = std::mem::replace(&mut self.table, doubled);
        let mask = self.table.len() - 1;
        for (h, id) in old {
            if id != 0 {
                let mut i = h as usize & mask;
                while self.table[i].1 != 0 {
                    i = (i + 1) & mask;
                }
                self.table[i] = (h, id);
            }
        }
    }

    #[inline]
    pub fn get(&self, sym: Symbol) -> &[u8] {
        let i = sym.0 as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    /// How many symbols there are (the empty spelling included).
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn lookup(&self, s: &[u8]) -> Option<Symbol> {
        let id = self.table[self.find(s, spelling_hash(s))].1;
        (id != 0).then(|| Symbol(id - 1))
    }

    /// A symbol's spelling as text (spellings are UTF-8 unless the source was not).
    pub fn str(&self, sym: Symbol) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.get(sym))
    }
}

/// Kinds of preprocessing token (C17 6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TokKind {
    Ident,
    Number,
    /// Character constant, any prefix.
    Char,
    /// String literal, any prefix.
    Str,
    /// `<file.h>` in an `#include` (lexed only there).
    HeaderName,
    Punct,
    /// A byte that starts no other token (`@`, a stray `\`, ...).
    Other,
    /// A comment kept by `-C`.
    Comment,
    /// End of a directive line.
    Eod,
    Eof,
    /// Marks the end of a macro argument or expansion during rescanning; never printed.
    Placemarker,
}

/// Token flags.
pub mod flags {
    /// Whitespace (or a comment) came before the token.
    pub const PREV_WHITE: u8 = 1;
    /// First token on its line.
    pub const BOL: u8 = 2;
    /// An identifier that must never be macro-expanded again (C17 6.10.3.4p2).
    pub const NO_EXPAND: u8 = 4;
    /// Came from the stringizing or pasting operator, or is a macro's result: not a
    /// directive even at the start of a line.
    pub const FROM_MACRO: u8 = 8;
    /// The token is the left operand of a `##` still to be performed.
    pub const PASTE_LEFT: u8 = 16;
    /// Made by `#` (its location is the `#`, not its spelling).
    pub const STRINGIFIED: u8 = 32;
}

/// A preprocessing token: 16 bytes plus the expansion id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokKind,
    pub flags: u8,
    /// The spelling.
    pub sym: Symbol,
    /// Where it was spelled.
    pub loc: Loc,
    /// Which macro expansion produced it (0: none); index into the preprocessor's table.
    pub expansion: u32,
}

impl Token {
    pub fn new(kind: TokKind, sym: Symbol, loc: Loc) -> Self {
        Token {
            kind,
            flags: 0,
            sym,
            loc,
            expansion: 0,
        }
    }
    pub fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    pub fn is_punct(&self, interner: &Interner, s: &str) -> bool {
        self.kind == TokKind::Punct && interner.get(self.sym) == s.as_bytes()
    }
}
