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
/// table is open-addressed and holds symbol ids with a tag (hash and length), so a probe
/// compares the tag before anything else. Spellings of at most eight bytes, most of them,
/// are hashed and compared as one word, kept per symbol beside the table (no walk to the
/// byte buffer, whose padding and bounds would cost loads and checks on every hit).
pub struct Interner {
    /// The spellings, end to end.
    bytes: Vec<u8>,
    /// Symbol `i`'s spelling is `bytes[bounds[i]..bounds[i + 1]]` (`bounds[0]` is 0, so no
    /// symbol needs a special case).
    bounds: Vec<u32>,
    /// `keys[i + 1]`: symbol `i`'s [`short_key`] if its spelling has at most eight bytes
    /// (`keys[0]` is unused, so the table's `symbol + 1` indexes it directly).
    keys: Vec<u64>,
    /// Slots: `(tag, symbol + 1)`, `(_, 0)` when empty. Length a power of two. The tag is
    /// the spelling's hash with its low four bits replaced by the length (at most 15), so
    /// equal tags of short spellings mean equal lengths; the slot index comes from the
    /// bits above.
    table: Vec<(u32, u32)>,
    /// `single[b]`: the symbol of the one-byte spelling `b` (ASCII) plus one, 0 while not
    /// asked for through [`Interner::intern_byte`]: one-letter identifiers are most of a
    /// typical file's, and this saves them the hash and the probe.
    single: [u32; 128],
}

impl Default for Interner {
    fn default() -> Self {
        let mut keys = Vec::with_capacity(1 << 12);
        keys.push(0);
        let mut bounds = Vec::with_capacity(1 << 12);
        bounds.push(0);
        Interner {
            bytes: Vec::with_capacity(1 << 16),
            bounds,
            keys,
            table: vec![(0, 0); 1 << 13],
            single: [0; 128],
        }
    }
}

/// `s[i..i + 8]` as a little-endian word.
#[inline]
fn word64(s: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(s[i..i + 8].try_into().unwrap())
}

/// `s[i..i + 4]` as a little-endian word.
#[inline]
fn word32(s: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(s[i..i + 4].try_into().unwrap())
}

/// `SHORT_MASK[n]` keeps the low `n` bytes of a word.
pub const SHORT_MASK: [u64; 9] = {
    let mut m = [0u64; 9];
    let mut n = 1;
    while n <= 8 {
        m[n] = u64::MAX >> (64 - 8 * n);
        n += 1;
    }
    m
};

/// The key of a spelling of at most eight bytes: its bytes as a little-endian word, zero
/// above them. Read as at most two overlapping loads, not byte by byte.
#[inline]
fn short_key(s: &[u8]) -> u64 {
    let n = s.len();
    debug_assert!(n <= 8);
    if n == 8 {
        word64(s, 0)
    } else if n >= 4 {
        word32(s, 0) as u64 | (word32(s, n - 4) as u64) << (8 * (n - 4))
    } else if n > 0 {
        s[0] as u64 | (s[n / 2] as u64) << (8 * (n / 2)) | (s[n - 1] as u64) << (8 * (n - 1))
    } else {
        0
    }
}

const K: u64 = 0x517c_c1b7_2722_0a95;

/// One FxHash-like step.
#[inline]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(K)
}

/// The tag of a spelling of `n` bytes with hash `h` (see [`Interner::table`]).
#[inline]
fn tag(h: u64, n: usize) -> u32 {
    ((h >> 32) as u32 & !15) | n.min(15) as u32
}

/// The slot where a search for `tag` starts.
#[inline]
fn home(tag: u32, mask: usize) -> usize {
    (tag >> 4) as usize & mask
}

/// The tag of a spelling of `n <= 8` bytes with key `key`.
#[inline]
fn short_tag(n: usize, key: u64) -> u32 {
    tag(mix(n as u64, key), n)
}

/// The tag of a spelling of more than eight bytes: whole words, the last one overlapping
/// the one before.
fn long_tag(s: &[u8]) -> u32 {
    let n = s.len();
    let mut h = n as u64;
    let mut i = 0;
    while i + 8 < n {
        h = mix(h, word64(s, i));
        i += 8;
    }
    tag(mix(h, word64(s, n - 8)), n)
}

/// `a == b` for spellings of more than eight bytes, a word at a time (no call to memcmp).
#[inline]
fn same_long(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let mut i = 0;
    while i + 8 < n {
        if word64(a, i) != word64(b, i) {
            return false;
        }
        i += 8;
    }
    word64(a, n - 8) == word64(b, n - 8)
}

impl Interner {
    pub fn new() -> Self {
        let mut i = Interner::default();
        i.intern(b""); // Symbol(0): the empty spelling
        i
    }

    /// The slot where `s` is, or the empty slot where it would go, with `s`'s tag.
    #[inline]
    fn find(&self, s: &[u8]) -> (usize, u32) {
        let n = s.len();
        if n <= 8 {
            return self.find_short(n, short_key(s));
        }
        let t = long_tag(s);
        let mask = self.table.len() - 1;
        let mut i = home(t, mask);
        loop {
            let (st, id) = self.table[i];
            if id == 0 || (st == t && same_long(self.get(Symbol(id - 1)), s)) {
                return (i, t);
            }
            i = (i + 1) & mask;
        }
    }

    /// [`Interner::find`] for a spelling of `n <= 8` bytes with key `key`: equal tags mean
    /// equal lengths, so equal keys mean equal spellings.
    #[inline(always)]
    fn find_short(&self, n: usize, key: u64) -> (usize, u32) {
        let t = short_tag(n, key);
        let mask = self.table.len() - 1;
        let mut i = home(t, mask);
        loop {
            let (st, id) = self.table[i];
            if id == 0 || (st == t && self.keys[id as usize] == key) {
                return (i, t);
            }
            i = (i + 1) & mask;
        }
    }

    pub fn intern(&mut self, s: &[u8]) -> Symbol {
        let (slot, t) = self.find(s);
        let id = self.table[slot].1;
        if id != 0 {
            return Symbol(id - 1);
        }
        self.insert(s, t, slot)
    }

    /// Interns the spelling of `n <= 8` bytes whose [`short_key`] is `key` (its bytes as a
    /// little-endian word, zero above them): for a lexer that has the word in hand.
    #[inline(always)]
    pub fn intern_short(&mut self, n: usize, key: u64) -> Symbol {
        debug_assert!(n <= 8 && key & !SHORT_MASK[n] == 0);
        let (slot, t) = self.find_short(n, key);
        let id = self.table[slot].1;
        if id != 0 {
            return Symbol(id - 1);
        }
        self.insert(&key.to_le_bytes()[..n], t, slot)
    }

    /// Interns the one-byte spelling `b` (ASCII).
    #[inline(always)]
    pub fn intern_byte(&mut self, b: u8) -> Symbol {
        debug_assert!(b < 128);
        match self.single[b as usize & 127] {
            0 => self.intern_byte_first(b),
            s => Symbol(s - 1),
        }
    }

    #[inline(never)]
    fn intern_byte_first(&mut self, b: u8) -> Symbol {
        let sym = self.intern_short(1, b as u64);
        self.single[b as usize & 127] = sym.0 + 1;
        sym
    }

    /// Interns `text[start..end]`, reading it a word at a time where `text` goes on at
    /// least eight bytes from `start` (the lexer's case: a token inside a file).
    #[inline(always)]
    pub fn intern_in(&mut self, text: &[u8], start: usize, end: usize) -> Symbol {
        let n = end - start;
        if n <= 8 {
            if let Some(w) = text.get(start..start + 8) {
                let key = u64::from_le_bytes(w.try_into().unwrap()) & SHORT_MASK[n];
                return self.intern_short(n, key);
            }
        }
        self.intern(&text[start..end])
    }

    /// Adds `s` (with tag `t`) as a new symbol in the empty slot `slot`.
    #[inline(never)]
    fn insert(&mut self, s: &[u8], t: u32, slot: usize) -> Symbol {
        let sym = Symbol(self.len() as u32);
        self.bytes.extend_from_slice(s);
        self.bounds.push(self.bytes.len() as u32);
        self.keys.push(if s.len() <= 8 { short_key(s) } else { 0 });
        self.table[slot] = (t, sym.0 + 1);
        // Kept at most half full.
        if self.len() * 2 > self.table.len() {
            self.grow();
        }
        sym
    }

    fn grow(&mut self) {
        let doubled = vec![(0, 0); self.table.len() * 2];
        let old = std::mem::replace(&mut self.table, doubled);
        let mask = self.table.len() - 1;
        for (t, id) in old {
            if id != 0 {
                let mut i = home(t, mask);
                while self.table[i].1 != 0 {
                    i = (i + 1) & mask;
                }
                self.table[i] = (t, id);
            }
        }
    }

    #[inline]
    pub fn get(&self, sym: Symbol) -> &[u8] {
        let i = sym.0 as usize;
        &self.bytes[self.bounds[i] as usize..self.bounds[i + 1] as usize]
    }

    /// How many symbols there are (the empty spelling included).
    pub fn len(&self) -> usize {
        self.bounds.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn lookup(&self, s: &[u8]) -> Option<Symbol> {
        let id = self.table[self.find(s).0].1;
        (id != 0).then(|| Symbol(id - 1))
    }

    /// A symbol's spelling as text (spellings are UTF-8 unless the source was not).
    pub fn str(&self, sym: Symbol) -> std::borrow::Cow<'_, str> {
        let b = self.get(sym);
        // Valid UTF-8 (nearly every spelling) is borrowed as `from_utf8_lossy` would, but
        // found so by `from_utf8`'s faster check.
        match std::str::from_utf8(b) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(b),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Spellings of every length up to 20 (NUL bytes included, as a string literal may
    /// hold them), differing in each single byte: each gets its own symbol, once.
    #[test]
    fn interning_finds_each_spelling_and_only_it() {
        let mut spellings: Vec<Vec<u8>> = Vec::new();
        for n in 0..=20usize {
            let base: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            spellings.push(base.clone());
            for i in 0..n {
                for b in [0u8, b'_', 0xff] {
                    let mut v = base.clone();
                    v[i] = b;
                    spellings.push(v);
                }
            }
        }
        spellings.push(vec![0]);
        spellings.push(vec![0, 0]);
        // Enough to make the table grow.
        spellings.extend((0..6000).map(|i| format!("name_{i}").into_bytes()));
        let mut interner = Interner::new();
        let mut want = std::collections::HashMap::new();
        for s in &spellings {
            let sym = interner.intern(s);
            assert_eq!(*want.entry(s.clone()).or_insert(sym), sym, "{s:?}");
            assert_eq!(interner.get(sym), &s[..]);
        }
        // The empty spelling is Symbol(0); the table has grown past its first size.
        assert_eq!(want[&Vec::new()], Symbol(0));
        assert!(interner.len() > 1 << 12);
        assert_eq!(interner.len(), want.len());
        for (s, &sym) in &want {
            assert_eq!(interner.intern(s), sym);
            assert_eq!(interner.lookup(s), Some(sym));
        }
        assert_eq!(interner.lookup(b"not interned"), None);
        // `intern_in` reads words past the spelling's end: it must give the same symbols,
        // with any bytes after the spelling and also at the very end of the text.
        for (s, &sym) in &want {
            let mut text = b"  ".to_vec();
            text.extend_from_slice(s);
            let end = text.len();
            assert_eq!(interner.intern_in(&text, 2, end), sym, "{s:?}");
            text.extend_from_slice(b"\xffxyz0123456789");
            assert_eq!(interner.intern_in(&text, 2, end), sym, "{s:?}");
        }
        // `intern_short` with the key in hand: the same symbols.
        for (s, &sym) in &want {
            if s.len() <= 8 {
                assert_eq!(interner.intern_short(s.len(), short_key(s)), sym, "{s:?}");
            }
        }
        // `intern_byte`: the same symbols, whether the byte was interned another way first
        // (asked twice: the second answer comes from its table), or first this way.
        for b in 0..128u8 {
            let sym = interner.intern_byte(b);
            assert_eq!(interner.intern_byte(b), sym);
            assert_eq!(interner.get(sym), [b]);
            assert_eq!(interner.intern(&[b]), sym);
        }
        let fresh = interner.intern_short(3, u64::from_le_bytes(*b"new\0\0\0\0\0"));
        assert_eq!(interner.get(fresh), b"new");
        assert_eq!(interner.intern(b"new"), fresh);
        let fresh = interner.intern_in(b"new_one+", 0, 7);
        assert_eq!(interner.get(fresh), b"new_one");
        assert_eq!(interner.intern(b"new_one"), fresh);
    }
}
