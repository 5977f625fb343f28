//! C tokens (translation phases 5-7): preprocessing tokens become keywords (per `-std`),
//! punctuators, and classified literals with their values; adjacent string literals are
//! concatenated here so the parser sees one string.

use crate::diag::{Diagnostic, Level};
use crate::lex::{punct_sym, PUNCTUATORS};
use crate::pp::{Event, Preprocessor, Std};
use crate::source::Loc;
use crate::token::{Symbol, TokKind, Token};

macro_rules! keywords {
    ($($v:ident = $s:literal),* $(,)?) => {
        /// Keywords, one variant per meaning; GNU alternate spellings map to the same one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Kw { $($v),* }
        impl Kw {
            /// The canonical spelling (used in dumps and messages).
            pub fn as_str(self) -> &'static str {
                match self { $(Kw::$v => $s),* }
            }
        }
    };
}

keywords! {
    Auto = "auto", Break = "break", Case = "case", Char = "char", Const = "const",
    Continue = "continue", Default = "default", Do = "do", Double = "double", Else = "else",
    Enum = "enum", Extern = "extern", Float = "float", For = "for", Goto = "goto", If = "if",
    Inline = "inline", Int = "int", Long = "long", Register = "register",
    Restrict = "restrict", Return = "return", Short = "short", Signed = "signed",
    Sizeof = "sizeof", Static = "static", Struct = "struct", Switch = "switch",
    Typedef = "typedef", Union = "union", Unsigned = "unsigned", Void = "void",
    Volatile = "volatile", While = "while", Alignas = "_Alignas", Alignof = "_Alignof",
    Atomic = "_Atomic", Bool = "_Bool", Complex = "_Complex", Generic = "_Generic",
    Imaginary = "_Imaginary", Noreturn = "_Noreturn", StaticAssert = "_Static_assert",
    ThreadLocal = "_Thread_local",
    // C23
    True = "true", False = "false", Nullptr = "nullptr", Constexpr = "constexpr",
    TypeofUnqual = "typeof_unqual",
    // GNU
    Asm = "__asm__", Typeof = "__typeof__", Extension = "__extension__",
    Attribute = "__attribute__", Declspec = "__declspec", GnuAlignof = "__alignof__",
    Label = "__label__", Real = "__real__", Imag = "__imag__", Int128 = "__int128",
    AutoType = "__auto_type", VaArg = "__builtin_va_arg", Offsetof = "__builtin_offsetof",
    TypesCompatible = "__builtin_types_compatible_p", ChooseExpr = "__builtin_choose_expr",
    Float16 = "_Float16", Float32 = "_Float32", Float64 = "_Float64", Float128 = "_Float128",
    Float32x = "_Float32x", Float64x = "_Float64x", GnuFloat128 = "__float128",
    Float80 = "__float80", Decimal32 = "_Decimal32", Decimal64 = "_Decimal64",
    Decimal128 = "_Decimal128",
}

/// The keyword table for a language standard.
pub fn keyword_table(std: Std) -> Vec<(&'static str, Kw)> {
    use Kw::*;
    let mut v: Vec<(&'static str, Kw)> = vec![
        ("auto", Auto),
        ("break", Break),
        ("case", Case),
        ("char", Char),
        ("const", Const),
        ("continue", Continue),
        ("default", Default),
        ("do", Do),
        ("double", Double),
        ("else", Else),
        ("enum", Enum),
        ("extern", Extern),
        ("float", Float),
        ("for", For),
        ("goto", Goto),
        ("if", If),
        ("int", Int),
        ("long", Long),
        ("register", Register),
        ("return", Return),
        ("short", Short),
        ("signed", Signed),
        ("sizeof", Sizeof),
        ("static", Static),
        ("struct", Struct),
        ("switch", Switch),
        ("typedef", Typedef),
        ("union", Union),
        ("unsigned", Unsigned),
        ("void", Void),
        ("volatile", Volatile),
        ("while", While),
        // Reserved spellings gcc treats as keywords in every mode.
        ("_Alignas", Alignas),
        ("_Alignof", Alignof),
        ("_Atomic", Atomic),
        ("_Bool", Bool),
        ("_Complex", Complex),
        ("_Generic", Generic),
        ("_Imaginary", Imaginary),
        ("_Noreturn", Noreturn),
        ("_Static_assert", StaticAssert),
        ("_Thread_local", ThreadLocal),
        ("__inline", Inline),
        ("__inline__", Inline),
        ("__asm", Asm),
        ("__asm__", Asm),
        ("__typeof", Typeof),
        ("__typeof__", Typeof),
        ("__signed", Signed),
        ("__signed__", Signed),
        ("__volatile", Volatile),
        ("__volatile__", Volatile),
        ("__restrict", Restrict),
        ("__restrict__", Restrict),
        ("__const", Const),
        ("__const__", Const),
        ("__extension__", Extension),
        ("__attribute", Attribute),
        ("__attribute__", Attribute),
        ("__declspec", Declspec),
        ("__alignof", GnuAlignof),
        ("__alignof__", GnuAlignof),
        ("__label__", Label),
        ("__real", Real),
        ("__real__", Real),
        ("__imag", Imag),
        ("__imag__", Imag),
        ("__int128", Int128),
        ("__auto_type", AutoType),
        ("__builtin_va_arg", VaArg),
        ("__builtin_offsetof", Offsetof),
        ("__builtin_types_compatible_p", TypesCompatible),
        ("__builtin_choose_expr", ChooseExpr),
        ("__complex", Complex),
        ("__complex__", Complex),
        ("__thread", ThreadLocal),
        ("_Float16", Float16),
        ("_Float32", Float32),
        ("_Float64", Float64),
        ("_Float128", Float128),
        ("_Float32x", Float32x),
        ("_Float64x", Float64x),
        ("__float128", GnuFloat128),
        ("__float80", Float80),
        ("_Decimal32", Decimal32),
        ("_Decimal64", Decimal64),
        ("_Decimal128", Decimal128),
    ];
    if std.version >= 199901 || std.gnu {
        v.push(("inline", Inline));
    }
    if std.version >= 199901 {
        v.push(("restrict", Restrict));
    }
    if std.gnu || std.version >= 202000 {
        v.push(("typeof", Typeof));
    }
    if std.gnu {
        v.push(("asm", Asm));
    }
    if std.version >= 202000 {
        v.extend([
            ("bool", Bool),
            ("true", True),
            ("false", False),
            ("nullptr", Nullptr),
            ("alignas", Alignas),
            ("alignof", Alignof),
            ("static_assert", StaticAssert),
            ("thread_local", ThreadLocal),
            ("typeof_unqual", TypeofUnqual),
            ("constexpr", Constexpr),
        ]);
    }
    v
}

/// C punctuators (C17 6.4.6); digraphs map to what they stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum P {
    Ellipsis,
    ShlAssign,
    ShrAssign,
    Arrow,
    Inc,
    Dec,
    Shl,
    Shr,
    Le,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    MulAssign,
    DivAssign,
    ModAssign,
    AddAssign,
    SubAssign,
    AndAssign,
    XorAssign,
    OrAssign,
    HashHash,
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Lt,
    Gt,
    Caret,
    Pipe,
    Question,
    Colon,
    Semi,
    Assign,
    Comma,
    Hash,
}

impl P {
    pub const fn as_str(self) -> &'static str {
        use P::*;
        match self {
            Ellipsis => "...",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            Arrow => "->",
            Inc => "++",
            Dec => "--",
            Shl => "<<",
            Shr => ">>",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            AndAnd => "&&",
            OrOr => "||",
            MulAssign => "*=",
            DivAssign => "/=",
            ModAssign => "%=",
            AddAssign => "+=",
            SubAssign => "-=",
            AndAssign => "&=",
            XorAssign => "^=",
            OrAssign => "|=",
            HashHash => "##",
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Lt => "<",
            Gt => ">",
            Caret => "^",
            Pipe => "|",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Assign => "=",
            Comma => ",",
            Hash => "#",
        }
    }

    /// The punctuator `s` spells (digraphs as what they stand for).
    const fn from_spelling(s: &[u8]) -> Option<P> {
        use P::*;
        match s {
            b"%:%:" => return Some(HashHash),
            b"<:" => return Some(LBracket),
            b":>" => return Some(RBracket),
            b"<%" => return Some(LBrace),
            b"%>" => return Some(RBrace),
            b"%:" => return Some(Hash),
            _ => {}
        }
        const ALL: [P; 48] = [
            Ellipsis, ShlAssign, ShrAssign, Arrow, Inc, Dec, Shl, Shr, Le, Ge, EqEq, Ne, AndAnd,
            OrOr, MulAssign, DivAssign, ModAssign, AddAssign, SubAssign, AndAssign, XorAssign,
            OrAssign, HashHash, LBracket, RBracket, LParen, RParen, LBrace, RBrace, Dot, Amp, Star,
            Plus, Minus, Tilde, Bang, Slash, Percent, Lt, Gt, Caret, Pipe, Question, Colon, Semi,
            Assign, Comma, Hash,
        ];
        let mut i = 0;
        while i < ALL.len() {
            let a = ALL[i].as_str().as_bytes();
            if a.len() == s.len() {
                let mut k = 0;
                while k < a.len() && a[k] == s[k] {
                    k += 1;
                }
                if k == a.len() {
                    return Some(ALL[i]);
                }
            }
            i += 1;
        }
        None
    }
}

/// `PUNCTS[sym]`: the punctuator that the symbol of a punctuator token spells (punctuators
/// are interned first, in [`PUNCTUATORS`] order, see [`punct_sym`]); None for any other
/// symbol below 256. With `plain`, also None for `#` and `##` (stray tokens, reported by
/// the general path). 256 entries: a symbol's low byte indexes it without a check.
const fn punct_table(plain: bool) -> [Option<P>; 256] {
    let mut t = [None; 256];
    let mut i = 0;
    while i < PUNCTUATORS.len() {
        let p = P::from_spelling(PUNCTUATORS[i].as_bytes());
        t[punct_sym(i).0 as usize] = match p {
            Some(P::Hash | P::HashHash) if plain => None,
            _ => p,
        };
        i += 1;
    }
    t
}

static PUNCTS: [Option<P>; 256] = punct_table(false);

/// [`PUNCTS`] for [`plain`]: without `#` and `##`.
static PLAIN_PUNCTS: [Option<P>; 256] = punct_table(true);

/// What a C token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    Ident,
    Kw(Kw),
    P(P),
    /// Integer constant; `lit` indexes [`Literals::ints`].
    Int,
    /// Floating constant; `lit` indexes [`Literals::floats`].
    Float,
    /// Character constant; `lit` indexes [`Literals::chars`].
    Char,
    /// String literal (already concatenated); `lit` indexes [`Literals::strs`].
    Str,
    /// A byte that starts no token (already reported as stray).
    Other,
    Eof,
}

/// One C token: 16 bytes (a unit holds hundreds of thousands of them, kept until sema and
/// irgen have read the attribute arguments and found the tokens they report at).
#[derive(Clone, Copy, Debug)]
pub struct Tok {
    pub kind: T,
    /// A literal's index in the table of its kind; any other token's spelling (a literal's
    /// spelling is in [`Literals`], see [`Literals::spelling`]).
    data: u32,
    /// The location, packed by [`TokLocs`] (see [`PackedLoc`]).
    file: u16,
    offset: u32,
    /// Macro expansion it came from (0: none).
    pub expansion: u32,
}

const _: () = assert!(std::mem::size_of::<Tok>() == 16);

impl Tok {
    /// A token that is no literal (see [`Tok::literal`]).
    pub fn new(kind: T, sym: Symbol, ploc: PackedLoc, expansion: u32) -> Self {
        debug_assert!(!kind.is_literal());
        Tok {
            kind,
            data: sym.0,
            file: ploc.file,
            offset: ploc.offset,
            expansion,
        }
    }

    /// A literal token: `lit` indexes the table of its kind.
    pub fn literal(kind: T, lit: u32, ploc: PackedLoc, expansion: u32) -> Self {
        debug_assert!(kind.is_literal());
        Tok {
            kind,
            data: lit,
            file: ploc.file,
            offset: ploc.offset,
            expansion,
        }
    }

    /// The spelling of an identifier, keyword, punctuator, stray byte or the end of input.
    /// (A literal's is [`Literals::spelling`]; [`Tok::spelling`] takes either.)
    #[inline]
    pub fn sym(&self) -> Symbol {
        debug_assert!(!self.kind.is_literal(), "sym() of a literal token");
        Symbol(self.data)
    }

    /// A literal's index in the table of its kind.
    #[inline]
    pub fn lit(&self) -> u32 {
        debug_assert!(
            self.kind.is_literal(),
            "lit() of a token that is no literal"
        );
        self.data
    }

    /// The (first) spelling of any token.
    pub fn spelling(&self, lits: &Literals) -> Symbol {
        if self.kind.is_literal() {
            lits.spelling(self.kind, self.data)
        } else {
            Symbol(self.data)
        }
    }

    /// The location, packed ([`TokLocs::loc`] unpacks it).
    #[inline]
    pub fn ploc(&self) -> PackedLoc {
        PackedLoc {
            file: self.file,
            offset: self.offset,
        }
    }

    /// Bytes of the (first) spelling, for the caret's underline; 1 for the end of input.
    /// (Computed, not stored: a unit holds hundreds of thousands of tokens.)
    pub fn spelling_len(&self, interner: &crate::token::Interner, lits: &Literals) -> u32 {
        if self.kind == T::Eof {
            1
        } else {
            interner.get(self.spelling(lits)).len() as u32
        }
    }
}

impl T {
    /// A constant or string literal (its token holds a literal index, not a spelling).
    #[inline]
    pub fn is_literal(self) -> bool {
        matches!(self, T::Int | T::Float | T::Char | T::Str)
    }
}

/// A [`Loc`] in six bytes, as a token holds it: the file number in 16 bits (a unit reads
/// far fewer files than that); a location in a file numbered past them gets an entry in a
/// side table instead ([`TokLocs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedLoc {
    /// (First, so that comparing two compares the part that differs most first.)
    offset: u32,
    /// The file, or [`OUTSIDE`]: `offset` indexes the side table.
    file: u16,
}

const OUTSIDE: u16 = u16::MAX;

/// Packs and unpacks the locations of a unit's tokens ([`PackedLoc`]).
#[derive(Debug, Default)]
pub struct TokLocs {
    /// Locations in files numbered [`OUTSIDE`] or more, and their indexes.
    outside: Vec<Loc>,
    outside_index: crate::token::FxHashMap<Loc, u32>,
}

impl TokLocs {
    #[inline]
    pub fn pack(&mut self, loc: Loc) -> PackedLoc {
        if loc.file.0 < OUTSIDE as u32 {
            PackedLoc {
                file: loc.file.0 as u16,
                offset: loc.offset,
            }
        } else {
            self.pack_outside(loc)
        }
    }

    #[cold]
    fn pack_outside(&mut self, loc: Loc) -> PackedLoc {
        let next = self.outside.len() as u32;
        let i = *self.outside_index.entry(loc).or_insert(next);
        if i == next {
            self.outside.push(loc);
        }
        PackedLoc {
            file: OUTSIDE,
            offset: i,
        }
    }

    /// The file number a [`PackedLoc`] holds for locations in `file`, unless it needs the
    /// side table.
    #[inline]
    pub fn short_file(&self, file: crate::source::FileId) -> Option<u16> {
        (file.0 < OUTSIDE as u32).then_some(file.0 as u16)
    }

    /// The location a packed one stands for.
    #[inline]
    pub fn loc(&self, p: PackedLoc) -> Loc {
        if p.file != OUTSIDE {
            Loc {
                file: crate::source::FileId(p.file as u32),
                offset: p.offset,
            }
        } else {
            self.outside[p.offset as usize]
        }
    }

    /// `loc` packed, if some token can be there.
    pub fn find(&self, loc: Loc) -> Option<PackedLoc> {
        if loc.file.0 < OUTSIDE as u32 {
            return Some(PackedLoc {
                file: loc.file.0 as u16,
                offset: loc.offset,
            });
        }
        let &i = self.outside_index.get(&loc)?;
        Some(PackedLoc {
            file: OUTSIDE,
            offset: i,
        })
    }
}

/// Encoding prefix of a character constant or string literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Enc {
    None,
    Utf8,
    Utf16,
    Utf32,
    Wide,
}

impl Enc {
    pub fn prefix(self) -> &'static str {
        match self {
            Enc::None => "",
            Enc::Utf8 => "u8",
            Enc::Utf16 => "u",
            Enc::Utf32 => "U",
            Enc::Wide => "L",
        }
    }
}

/// An integer constant: value, base and suffix (the type is chosen by sema from these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntLit {
    pub value: u128,
    /// Not decimal (octal, hex, binary constants may take unsigned types).
    pub non_decimal: bool,
    pub unsigned: bool,
    /// 0 none, 1 `l`, 2 `ll`.
    pub longs: u8,
    /// gcc's `i`/`j` imaginary suffix.
    pub imaginary: bool,
    /// Did not fit in 64 bits (already warned).
    pub overflow: bool,
}

/// Suffix of a floating constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    L,
    /// `f16`, `f32`, `f64`, `f128`, `f32x`, `f64x` (the `_FloatN` types).
    FN(u16, bool),
    /// gcc's `q`/`Q` (`__float128`) and `w`/`W` (`__float80`).
    Q,
    W,
    /// `df`, `dd`, `dl`: `_Decimal32`, `_Decimal64`, `_Decimal128`.
    D(u16),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FloatLit {
    /// The spelling with digit separators removed (exact conversion is sema's).
    pub text: String,
    pub value: f64,
    pub suffix: FloatSuffix,
    pub imaginary: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CharLit {
    pub enc: Enc,
    /// The value as gcc computes it (plain `char` constants have type `int`).
    pub value: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrLit {
    pub enc: Enc,
    /// Code units without the terminating null: bytes for plain and `u8`, UTF-16 units
    /// for `u`, code points (or `wchar_t` units) for `U` and `L`.
    pub units: Vec<u32>,
}

/// Values of the literals of a translation unit.
#[derive(Default, Debug)]
pub struct Literals {
    pub ints: Vec<IntLit>,
    pub floats: Vec<FloatLit>,
    pub chars: Vec<CharLit>,
    pub strs: Vec<StrLit>,
    /// The (first) spelling of each literal, by kind as above (the tokens hold the index).
    spellings: [Vec<Symbol>; 4],
}

impl Literals {
    /// Gives back the room reserved beyond what the unit used (see [`crate::parse::parse`]).
    pub fn release_spare(&mut self) {
        self.ints.shrink_to_fit();
        self.floats.shrink_to_fit();
        self.chars.shrink_to_fit();
        self.strs.shrink_to_fit();
        for s in &mut self.spellings {
            s.shrink_to_fit();
        }
    }
    /// The (first) spelling of literal `i` of kind `kind` (a literal token's).
    pub fn spelling(&self, kind: T, i: u32) -> Symbol {
        self.spellings[Self::table(kind)][i as usize]
    }

    fn table(kind: T) -> usize {
        match kind {
            T::Int => 0,
            T::Float => 1,
            T::Char => 2,
            _ => 3,
        }
    }
}

/// Converts the preprocessor's output to C tokens, reporting literal errors.
pub struct Converter {
    /// The keyword each symbol spells, indexed by symbol (keywords are interned early, so
    /// the table is short; a symbol past its end is no keyword).
    keywords: Vec<Option<Kw>>,
    char_signed: bool,
    wchar_bits: u32,
    pub c2x: bool,
    /// Diagnostics held until the parser reaches their token, so messages come out in
    /// source order: (index of the next token, diagnostic).
    pub queued: Vec<(u32, Diagnostic)>,
    cur: u32,
    /// A reused buffer for a literal's spelling.
    scratch: Vec<u8>,
}

/// A `#pragma` seen between tokens: the index of the token it came before.
#[derive(Clone, Debug)]
pub struct PragmaAt {
    pub before: u32,
    pub text: String,
    pub loc: Loc,
}

impl Converter {
    pub fn new(pp: &mut Preprocessor) -> Self {
        let mut keywords = Vec::new();
        for (s, k) in keyword_table(pp.opts.std) {
            let sym = pp.interner.intern(s.as_bytes()).0 as usize;
            if keywords.len() <= sym {
                keywords.resize(sym + 1, None);
            }
            keywords[sym] = Some(k);
        }
        Converter {
            keywords,
            char_signed: pp.opts.char_signed,
            wchar_bits: if pp.opts.wchar_bits == 0 {
                32
            } else {
                pp.opts.wchar_bits
            },
            c2x: pp.opts.std.version >= 202000,
            queued: Vec::new(),
            cur: 0,
            scratch: Vec::new(),
        }
    }

    /// Reads the whole unit: the tokens (ending with one `Eof`), literal values, pragmas
    /// and the table of the tokens' locations.
    pub fn run(&mut self, pp: &mut Preprocessor) -> (Vec<Tok>, Literals, Vec<PragmaAt>, TokLocs) {
        // About one token per three bytes of the main file, and headers add more (the
        // benchmark's 1.19 MB: 427k tokens, 478k with its 30 headers), one integer
        // constant per 24 bytes: reserved so the vectors are not copied as they grow
        // (pages not used are never touched).
        let main_len = pp.sm.file(pp.main_file()).text.len();
        let mut toks: Vec<Tok> = Vec::with_capacity(main_len / 2 + 4096);
        let mut lits = Literals::default();
        lits.ints.reserve(main_len / 16);
        lits.spellings[0].reserve(main_len / 16);
        let mut pragmas = Vec::new();
        let mut locs = TokLocs::default();
        let mut pending: Option<Token> = None;
        loop {
            let t = match pending.take() {
                Some(t) => t,
                None => {
                    // Plain tokens straight from the file are converted by `plain` (the
                    // common case, without the per-token path below); the first it does
                    // not take, and any token when the fast path cannot run, comes here.
                    let keywords = &self.keywords[..];
                    let (toks, lits) = (&mut toks, &mut lits);
                    pp.plain_tokens(|file| {
                        // (A file numbered too high for a token goes the general way.)
                        let file = locs.short_file(file)?;
                        Some(move |kind, sym, offset, spelling: &[u8]| {
                            let ploc = PackedLoc { offset, file };
                            plain(kind, sym, ploc, spelling, keywords, toks, lits)
                        })
                    });
                    pp.next_token()
                }
            };
            if pp.has_events() {
                for e in pp.take_events() {
                    if let Event::Pragma { text, loc } = e {
                        pragmas.push(PragmaAt {
                            before: toks.len() as u32,
                            text,
                            loc,
                        });
                    }
                }
            }
            self.cur = toks.len() as u32;
            let ploc = locs.pack(t.loc);
            // Tokens other than literals are pushed here; a literal's kind and index come
            // out of the match (its spelling goes to the literal table).
            let (kind, lit) = match t.kind {
                TokKind::Eof => {
                    toks.push(Tok::new(T::Eof, t.sym, ploc, t.expansion));
                    break;
                }
                TokKind::Ident => {
                    let kind = ident_kind(&self.keywords, t.sym);
                    toks.push(Tok::new(kind, t.sym, ploc, t.expansion));
                    continue;
                }
                TokKind::Punct => {
                    let kind = match punct_of(t.sym) {
                        Some(P::Hash | P::HashHash) => {
                            self.stray(pp, &t);
                            T::Other
                        }
                        Some(p) => T::P(p),
                        None => continue,
                    };
                    toks.push(Tok::new(kind, t.sym, ploc, t.expansion));
                    continue;
                }
                TokKind::Number => {
                    // The spelling is copied out of the interner (`number` reports through
                    // `pp`) into a buffer kept across tokens.
                    let mut s = std::mem::take(&mut self.scratch);
                    s.clear();
                    s.extend_from_slice(pp.interner.get(t.sym));
                    let r = self.number(pp, &s, &t, &mut lits);
                    self.scratch = s;
                    match r {
                        Some((k, i)) => (k, i),
                        None => {
                            // Reported; stand in with a zero so parsing goes on.
                            let i = lits.ints.len() as u32;
                            lits.ints.push(IntLit {
                                value: 0,
                                non_decimal: false,
                                unsigned: false,
                                longs: 0,
                                imaginary: false,
                                overflow: false,
                            });
                            (T::Int, i)
                        }
                    }
                }
                TokKind::Char => {
                    let s = pp.interner.get(t.sym).to_vec();
                    let c = self.char_const(pp, &s, &t);
                    lits.chars.push(c);
                    (T::Char, lits.chars.len() as u32 - 1)
                }
                TokKind::Str => {
                    let s = pp.interner.get(t.sym).to_vec();
                    let (mut enc, mut units) = self.string(pp, &s, &t);
                    let mut bad_mix = false;
                    loop {
                        let n = pp.next_token();
                        if n.kind != TokKind::Str || pp.has_events() {
                            pending = Some(n);
                            break;
                        }
                        let s2 = pp.interner.get(n.sym).to_vec();
                        let (e2, u2) = self.string(pp, &s2, &n);
                        if e2 != enc && e2 != Enc::None {
                            if enc == Enc::None {
                                // The wider encoding wins: re-decode what came before.
                                units = reencode(&units, e2);
                                enc = e2;
                            } else if !bad_mix {
                                bad_mix = true;
                                self.report(
                                    pp,
                                    Diagnostic::error(
                                        n.loc,
                                        "unsupported non-standard concatenation of string literals",
                                    )
                                    .in_expansion(n.expansion),
                                );
                            }
                        }
                        let u2 = if e2 == Enc::None && enc != Enc::None {
                            reencode(&u2, enc)
                        } else {
                            u2
                        };
                        units.extend(u2);
                    }
                    lits.strs.push(StrLit { enc, units });
                    (T::Str, lits.strs.len() as u32 - 1)
                }
                TokKind::Other => {
                    self.stray(pp, &t);
                    continue;
                }
                TokKind::HeaderName | TokKind::Comment | TokKind::Eod | TokKind::Placemarker => {
                    continue
                }
            };
            let table = &mut lits.spellings[Literals::table(kind)];
            debug_assert_eq!(table.len(), lit as usize);
            table.push(t.sym);
            toks.push(Tok::literal(kind, lit, ploc, t.expansion));
        }
        (toks, lits, pragmas, locs)
    }

    fn report(&mut self, pp: &mut Preprocessor, d: Diagnostic) {
        // Warnings in system headers are dropped now, while the header is still open.
        if d.level == Level::Warning && d.loc.is_some_and(|l| pp.is_system(l.file)) {
            return;
        }
        self.queued.push((self.cur, d));
    }

    fn stray(&mut self, pp: &mut Preprocessor, t: &Token) {
        let s = pp.interner.str(t.sym).into_owned();
        let shown = s.chars().next().map_or(String::new(), |c| {
            if c.is_ascii_graphic() {
                c.to_string()
            } else {
                format!("\\{:o}", c as u32)
            }
        });
        self.report(
            pp,
            Diagnostic::error(t.loc, format!("stray '{shown}' in program"))
                .in_expansion(t.expansion),
        );
    }

    fn err(&mut self, pp: &mut Preprocessor, t: &Token, len: u32, msg: String) {
        self.report(
            pp,
            Diagnostic::error(t.loc, msg)
                .with_len(len)
                .in_expansion(t.expansion),
        );
    }

    /// Classifies a pp-number (C17 6.4.4.1, 6.4.4.2) and computes its value.
    fn number(
        &mut self,
        pp: &mut Preprocessor,
        s: &[u8],
        t: &Token,
        lits: &mut Literals,
    ) -> Option<(T, u32)> {
        let len = s.len() as u32;
        let s: std::borrow::Cow<[u8]> = if self.c2x && s.contains(&b'\'') {
            s.iter().copied().filter(|&b| b != b'\'').collect()
        } else {
            s.into()
        };
        let hex = s.len() > 1 && s[0] == b'0' && (s[1] == b'x' || s[1] == b'X');
        let bin = s.len() > 1 && s[0] == b'0' && (s[1] == b'b' || s[1] == b'B');
        let is_float = if hex {
            s.iter().any(|&b| b == b'.' || b == b'p' || b == b'P')
        } else if bin {
            false
        } else {
            s.contains(&b'.') || {
                // An exponent `e` after decimal digits (not in a suffix).
                let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
                matches!(s.get(digits), Some(b'e') | Some(b'E'))
            }
        };
        if is_float {
            return self.float(pp, &s, t, len, hex, lits);
        }
        let (digits_start, radix) = if hex {
            (2, 16)
        } else if bin {
            (2, 2)
        } else if s[0] == b'0' {
            (1, 8)
        } else {
            (0, 10)
        };
        let mut i = digits_start;
        while i < s.len() && (s[i] as char).is_digit(if radix == 8 { 10 } else { radix }) {
            i += 1;
        }
        let digits = &s[digits_start..i];
        let suffix = &s[i..];
        if (hex || bin) && digits.is_empty() {
            let msg = format!(
                "invalid suffix \"{}\" on integer constant",
                String::from_utf8_lossy(&s[1..])
            );
            self.err(pp, t, len, msg);
            return None;
        }
        if radix == 8 {
            if let Some(&d) = digits.iter().find(|&&b| b == b'8' || b == b'9') {
                self.err(
                    pp,
                    t,
                    len,
                    format!("invalid digit \"{}\" in octal constant", d as char),
                );
                return None;
            }
        }
        if bin {
            if let Some(&d) = suffix.first().filter(|b| b.is_ascii_digit()) {
                self.err(
                    pp,
                    t,
                    len,
                    format!("invalid digit \"{}\" in binary constant", d as char),
                );
                return None;
            }
        }
        let (unsigned, longs, imaginary) = match int_suffix(suffix) {
            Some(x) => x,
            None => {
                self.err(
                    pp,
                    t,
                    len,
                    format!(
                        "invalid suffix \"{}\" on integer constant",
                        String::from_utf8_lossy(suffix)
                    ),
                );
                return None;
            }
        };
        let mut value: u128 = 0;
        let mut overflow = false;
        for &d in digits {
            let v = (d as char).to_digit(radix).unwrap_or(0) as u128;
            value = value * radix as u128 + v;
            if value > u64::MAX as u128 {
                overflow = true;
                value &= u64::MAX as u128;
            }
        }
        if overflow {
            self.report(
                pp,
                Diagnostic::warning(t.loc, "integer constant is too large for its type")
                    .with_len(len)
                    .in_expansion(t.expansion),
            );
        }
        let idx = lits.ints.len() as u32;
        lits.ints.push(IntLit {
            value,
            non_decimal: radix != 10,
            unsigned,
            longs,
            imaginary,
            overflow,
        });
        Some((T::Int, idx))
    }

    fn float(
        &mut self,
        pp: &mut Preprocessor,
        s: &[u8],
        t: &Token,
        len: u32,
        hex: bool,
        lits: &mut Literals,
    ) -> Option<(T, u32)> {
        // Mantissa, exponent, then the suffix.
        let mut i = if hex { 2 } else { 0 };
        let digit = |b: u8| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        };
        while i < s.len() && (digit(s[i]) || s[i] == b'.') {
            i += 1;
        }
        let exp_char = |b: u8| {
            if hex {
                b == b'p' || b == b'P'
            } else {
                b == b'e' || b == b'E'
            }
        };
        if i < s.len() && exp_char(s[i]) {
            i += 1;
            if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
                i += 1;
            }
            let start = i;
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            if start == i {
                self.err(pp, t, len, "exponent has no digits".into());
                return None;
            }
        } else if hex {
            self.err(
                pp,
                t,
                len,
                "hexadecimal floating constants require an exponent".into(),
            );
            return None;
        }
        let body = &s[..i];
        let suffix = &s[i..];
        let Some((suf, imaginary)) = float_suffix(suffix) else {
            self.err(
                pp,
                t,
                len,
                format!(
                    "invalid suffix \"{}\" on floating constant",
                    String::from_utf8_lossy(suffix)
                ),
            );
            return None;
        };
        let text = String::from_utf8_lossy(body).into_owned();
        let value = if hex {
            parse_hex_float(&text)
        } else {
            text.parse::<f64>().unwrap_or(0.0)
        };
        let idx = lits.floats.len() as u32;
        lits.floats.push(FloatLit {
            text,
            value,
            suffix: suf,
            imaginary,
        });
        Some((T::Float, idx))
    }

    fn char_const(&mut self, pp: &mut Preprocessor, s: &[u8], t: &Token) -> CharLit {
        let (enc, body) = split_prefix(s, b'\'');
        let len = s.len() as u32;
        let units = self.decode(pp, body, enc, t);
        if units.is_empty() {
            self.err(pp, t, len, "empty character constant".into());
            return CharLit { enc, value: 0 };
        }
        let value = match enc {
            Enc::None => {
                if units.len() > 1 {
                    self.report(
                        pp,
                        Diagnostic::warning(t.loc, "multi-character character constant")
                            .with_len(len)
                            .with_option("multichar")
                            .in_expansion(t.expansion),
                    );
                    if units.len() > 4 {
                        self.report(
                            pp,
                            Diagnostic::warning(t.loc, "character constant too long for its type")
                                .with_len(len)
                                .in_expansion(t.expansion),
                        );
                    }
                    let mut v: u32 = 0;
                    for &u in &units {
                        v = (v << 8) | (u & 0xff);
                    }
                    v as i32 as i64
                } else if self.char_signed {
                    units[0] as u8 as i8 as i64
                } else {
                    units[0] as u8 as i64
                }
            }
            _ => {
                if units.len() > 1 {
                    self.report(
                        pp,
                        Diagnostic::warning(t.loc, "character constant too long for its type")
                            .with_len(len)
                            .in_expansion(t.expansion),
                    );
                }
                let u = *units.last().unwrap();
                match enc {
                    Enc::Wide if self.wchar_bits == 16 => u as u16 as i64,
                    Enc::Wide => u as i32 as i64,
                    Enc::Utf8 => u as u8 as i64,
                    Enc::Utf16 => u as u16 as i64,
                    _ => u as i64,
                }
            }
        };
        CharLit { enc, value }
    }

    fn string(&mut self, pp: &mut Preprocessor, s: &[u8], t: &Token) -> (Enc, Vec<u32>) {
        let (enc, body) = split_prefix(s, b'"');
        let units = self.decode(pp, body, enc, t);
        (enc, units)
    }

    /// Decodes the text between the quotes into code units of `enc`.
    fn decode(&mut self, pp: &mut Preprocessor, body: &[u8], enc: Enc, t: &Token) -> Vec<u32> {
        let mut out = Vec::with_capacity(body.len());
        let mut i = 0;
        let unit_max: u64 = match enc {
            Enc::None | Enc::Utf8 => 0xff,
            Enc::Utf16 => 0xffff,
            Enc::Wide if self.wchar_bits == 16 => 0xffff,
            _ => 0xffff_ffff,
        };
        while i < body.len() {
            let b = body[i];
            if b != b'\\' {
                // Source characters: UTF-8 bytes for narrow encodings, code points otherwise.
                let clen = utf8_len(b).min(body.len() - i);
                if matches!(enc, Enc::None | Enc::Utf8) {
                    out.extend(body[i..i + clen].iter().map(|&b| b as u32));
                } else {
                    let cp = std::str::from_utf8(&body[i..i + clen])
                        .ok()
                        .and_then(|s| s.chars().next())
                        .map_or(b as u32, |c| c as u32);
                    push_code_point(&mut out, cp, enc, self.wchar_bits);
                }
                i += clen;
                continue;
            }
            i += 1;
            let Some(&e) = body.get(i) else { break };
            i += 1;
            let simple = match e {
                b'n' => Some(10),
                b't' => Some(9),
                b'v' => Some(11),
                b'b' => Some(8),
                b'r' => Some(13),
                b'f' => Some(12),
                b'a' => Some(7),
                b'e' | b'E' => Some(27),
                b'\\' | b'\'' | b'"' | b'?' => Some(e as u32),
                _ => None,
            };
            if let Some(v) = simple {
                out.push(v);
                continue;
            }
            match e {
                b'0'..=b'7' => {
                    let mut v = (e - b'0') as u64;
                    let mut n = 1;
                    while n < 3 && i < body.len() && (b'0'..=b'7').contains(&body[i]) {
                        v = v * 8 + (body[i] - b'0') as u64;
                        i += 1;
                        n += 1;
                    }
                    if v > unit_max {
                        self.err(
                            pp,
                            t,
                            t_len(t, pp),
                            "octal escape sequence out of range".into(),
                        );
                    }
                    out.push((v & unit_max) as u32);
                }
                b'x' => {
                    let start = i;
                    let mut v: u64 = 0;
                    let mut over = false;
                    while i < body.len() && body[i].is_ascii_hexdigit() {
                        v = v.wrapping_mul(16) + (body[i] as char).to_digit(16).unwrap() as u64;
                        if v > unit_max {
                            over = true;
                        }
                        i += 1;
                    }
                    if start == i {
                        self.err(
                            pp,
                            t,
                            t_len(t, pp),
                            "\\x used with no following hex digits".into(),
                        );
                    } else if over {
                        self.report(
                            pp,
                            Diagnostic::new(
                                Level::Warning,
                                Some(t.loc),
                                "hex escape sequence out of range",
                            )
                            .with_len(t_len(t, pp))
                            .in_expansion(t.expansion),
                        );
                    }
                    out.push((v & unit_max) as u32);
                }
                b'u' | b'U' => {
                    let n = if e == b'u' { 4 } else { 8 };
                    let mut v: u32 = 0;
                    let mut k = 0;
                    while k < n && i < body.len() && body[i].is_ascii_hexdigit() {
                        v = v.wrapping_mul(16) + (body[i] as char).to_digit(16).unwrap();
                        i += 1;
                        k += 1;
                    }
                    if k < n {
                        self.err(
                            pp,
                            t,
                            t_len(t, pp),
                            format!("incomplete universal character name \\{}", e as char),
                        );
                    }
                    push_code_point(&mut out, v, enc, self.wchar_bits);
                }
                _ => {
                    // gcc warns and keeps the character.
                    self.report(
                        pp,
                        Diagnostic::warning(
                            t.loc,
                            format!("unknown escape sequence: '\\{}'", e as char),
                        )
                        .with_len(t_len(t, pp))
                        .in_expansion(t.expansion),
                    );
                    out.push(e as u32);
                }
            }
        }
        out
    }
}

fn t_len(t: &Token, pp: &Preprocessor) -> u32 {
    pp.interner.get(t.sym).len() as u32
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

fn push_code_point(out: &mut Vec<u32>, cp: u32, enc: Enc, wchar_bits: u32) {
    match enc {
        Enc::None | Enc::Utf8 => {
            let mut buf = [0u8; 4];
            match char::from_u32(cp) {
                Some(c) => out.extend(c.encode_utf8(&mut buf).bytes().map(|b| b as u32)),
                None => out.push(cp & 0xff),
            }
        }
        Enc::Utf16 => utf16(out, cp),
        Enc::Wide if wchar_bits == 16 => utf16(out, cp),
        _ => out.push(cp),
    }
}

fn utf16(out: &mut Vec<u32>, cp: u32) {
    if (0x10000..=0x10ffff).contains(&cp) {
        let c = cp - 0x10000;
        out.push(0xd800 + (c >> 10));
        out.push(0xdc00 + (c & 0x3ff));
    } else {
        out.push(cp & 0xffff);
    }
}

/// Narrow (UTF-8 byte) units re-decoded as another encoding, for `"a" L"b"`.
fn reencode(units: &[u32], enc: Enc) -> Vec<u32> {
    if matches!(enc, Enc::None | Enc::Utf8) {
        return units.to_vec();
    }
    let bytes: Vec<u8> = units.iter().map(|&u| u as u8).collect();
    let mut out = Vec::new();
    for c in String::from_utf8_lossy(&bytes).chars() {
        push_code_point(&mut out, c as u32, enc, 32);
    }
    out
}

fn split_prefix(s: &[u8], quote: u8) -> (Enc, &[u8]) {
    let q = s.iter().position(|&b| b == quote).unwrap_or(0);
    let enc = match &s[..q] {
        b"u8" => Enc::Utf8,
        b"u" => Enc::Utf16,
        b"U" => Enc::Utf32,
        b"L" => Enc::Wide,
        _ => Enc::None,
    };
    let end = if s.len() > q + 1 && s[s.len() - 1] == quote {
        s.len() - 1
    } else {
        s.len()
    };
    (enc, &s[(q + 1).min(end)..end])
}

/// An identifier's kind: the keyword it spells (`keywords` is indexed by symbol), or none.
#[inline(always)]
fn ident_kind(keywords: &[Option<Kw>], sym: Symbol) -> T {
    match keywords.get(sym.0 as usize) {
        Some(&Some(k)) => T::Kw(k),
        _ => T::Ident,
    }
}

/// The punctuator a punctuator token's symbol spells (see [`PUNCTS`]).
#[inline(always)]
fn punct_of(sym: Symbol) -> Option<P> {
    PUNCTS.get(sym.0 as usize).copied().flatten()
}

/// Converts a plain token read straight from a file (see [`Preprocessor::plain_tokens`]):
/// an identifier or keyword, a punctuator, or an integer constant with nothing to report.
/// False for anything else (the general path of [`Converter::run`] takes it).
#[inline(always)]
fn plain(
    kind: TokKind,
    sym: Symbol,
    ploc: PackedLoc,
    spelling: &[u8],
    keywords: &[Option<Kw>],
    toks: &mut Vec<Tok>,
    lits: &mut Literals,
) -> bool {
    let kind = match kind {
        TokKind::Ident => ident_kind(keywords, sym),
        // (`#` and `##` are none of these: stray, reported by the general path. A
        // punctuator's symbol is below 256.)
        TokKind::Punct => match PLAIN_PUNCTS[sym.0 as u8 as usize] {
            None => return false,
            Some(p) => T::P(p),
        },
        TokKind::Number => {
            let Some(lit) = plain_int(spelling) else {
                return false;
            };
            let i = lits.ints.len() as u32;
            lits.ints.push(lit);
            lits.spellings[0].push(sym);
            toks.push(Tok::literal(T::Int, i, ploc, 0));
            return true;
        }
        _ => return false,
    };
    toks.push(Tok::new(kind, sym, ploc, 0));
    true
}

/// The value of a pp-number that is a valid integer constant fitting in 64 bits, decimal,
/// octal or hexadecimal, as [`Converter::number`] computes it; None for anything else
/// (floating, binary, digit separators, an error or a warning to report: left to it).
#[inline]
fn plain_int(s: &[u8]) -> Option<IntLit> {
    let (radix, start) = match s {
        [b'0', b'x' | b'X', ..] => (16u64, 2),
        [b'0', ..] => (8, 1),
        _ => (10, 0),
    };
    let mut value: u64 = 0;
    let mut i = start;
    while let Some(&b) = s.get(i) {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' if radix == 16 => b - b'a' + 10,
            b'A'..=b'F' if radix == 16 => b - b'A' + 10,
            _ => break,
        } as u64;
        if d >= radix {
            return None;
        }
        value = value.checked_mul(radix)?.checked_add(d)?;
        i += 1;
    }
    if radix == 16 && i == start {
        return None;
    }
    // A `.`, an exponent, a separator or a bad suffix is no integer suffix.
    let (unsigned, longs, imaginary) = match &s[i..] {
        [] => (false, 0, false),
        [b'u' | b'U'] => (true, 0, false),
        suffix => int_suffix(suffix)?,
    };
    Some(IntLit {
        value: value as u128,
        non_decimal: radix != 10,
        unsigned,
        longs,
        imaginary,
        overflow: false,
    })
}

/// `(unsigned, longs, imaginary)` for an integer suffix, or None when it is not one.
fn int_suffix(s: &[u8]) -> Option<(bool, u8, bool)> {
    let mut unsigned = false;
    let mut longs = 0u8;
    let mut imag = false;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'u' | b'U' if !unsigned => {
                unsigned = true;
                i += 1;
            }
            b'l' | b'L' if longs == 0 => {
                if s.get(i + 1) == Some(&s[i]) {
                    longs = 2;
                    i += 2;
                } else {
                    longs = 1;
                    i += 1;
                }
            }
            b'i' | b'I' | b'j' | b'J' if !imag => {
                imag = true;
                i += 1;
            }
            _ => return None,
        }
    }
    Some((unsigned, longs, imag))
}

fn float_suffix(s: &[u8]) -> Option<(FloatSuffix, bool)> {
    let mut imag = false;
    let mut rest = s;
    // The imaginary suffix may come first or last.
    if let Some((&c, r)) = rest.split_first() {
        if matches!(c, b'i' | b'I' | b'j' | b'J') {
            imag = true;
            rest = r;
        }
    }
    if !imag {
        if let Some((&c, r)) = rest.split_last() {
            if matches!(c, b'i' | b'I' | b'j' | b'J') {
                imag = true;
                rest = r;
            }
        }
    }
    let suf = match rest {
        b"" => FloatSuffix::None,
        b"f" | b"F" => FloatSuffix::F,
        b"l" | b"L" => FloatSuffix::L,
        b"q" | b"Q" => FloatSuffix::Q,
        b"w" | b"W" => FloatSuffix::W,
        b"df" | b"DF" => FloatSuffix::D(32),
        b"dd" | b"DD" => FloatSuffix::D(64),
        b"dl" | b"DL" => FloatSuffix::D(128),
        _ => {
            let (&c, n) = rest.split_first()?;
            if c != b'f' && c != b'F' {
                return None;
            }
            let (n, x) = match n.strip_suffix(b"x") {
                Some(n) => (n, true),
                None => (n, false),
            };
            let bits: u16 = std::str::from_utf8(n).ok()?.parse().ok()?;
            let ok = if x {
                matches!(bits, 32 | 64)
            } else {
                matches!(bits, 16 | 32 | 64 | 128)
            };
            if !ok {
                return None;
            }
            FloatSuffix::FN(bits, x)
        }
    };
    Some((suf, imag))
}

fn parse_hex_float(s: &str) -> f64 {
    let body = &s[2..];
    let (mant, exp) = match body.find(['p', 'P']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (body, 0),
    };
    let mut v = 0f64;
    let mut scale = 0i32;
    let mut after_dot = false;
    for c in mant.chars() {
        if c == '.' {
            after_dot = true;
            continue;
        }
        v = v * 16.0 + c.to_digit(16).unwrap_or(0) as f64;
        if after_dot {
            scale -= 4;
        }
    }
    // Scale in two halves: 2^e alone over- or underflows where the product does not.
    let e = exp.saturating_add(scale);
    let half = e / 2;
    v * 2f64.powi(half) * 2f64.powi(e - half)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit holds one `Tok` per token (hundreds of thousands for a large file): keep it
    /// small.
    #[test]
    fn tok_stays_small() {
        assert_eq!(std::mem::size_of::<Tok>(), 16);
    }

    /// The punctuator tables give each punctuator's symbol what it spells (the plain one
    /// none for the stray `#` and `##`), and nothing to any other symbol.
    #[test]
    fn punct_tables_match_the_spellings() {
        let digraphs = [
            ("<:", P::LBracket),
            (":>", P::RBracket),
            ("<%", P::LBrace),
            ("%>", P::RBrace),
            ("%:", P::Hash),
            ("%:%:", P::HashHash),
        ];
        for (i, s) in PUNCTUATORS.iter().enumerate() {
            let sym = punct_sym(i).0 as usize;
            let want = digraphs.iter().find(|d| d.0 == *s).map_or_else(
                || PUNCTS[sym].unwrap().as_str() == *s,
                |d| PUNCTS[sym] == Some(d.1),
            );
            assert!(want, "{s}");
            let plain = PLAIN_PUNCTS[sym];
            if matches!(PUNCTS[sym], Some(P::Hash | P::HashHash)) {
                assert_eq!(plain, None, "{s}");
            } else {
                assert_eq!(plain, PUNCTS[sym], "{s}");
            }
        }
        let n = PUNCTUATORS.len();
        assert!(PUNCTS[0].is_none() && PUNCTS[n + 1..].iter().all(Option::is_none));
        assert_eq!(PUNCTS.iter().flatten().count(), n);
    }

    /// The fast path's integer constants are exactly what the general path makes of them,
    /// and it declines everything the general path reports on or makes no integer of.
    #[test]
    fn plain_int_agrees_with_number() {
        let mut pp = Preprocessor::new(
            Default::default(),
            crate::diag::Diagnostics::new(Box::new(std::io::sink())),
        );
        let mut conv = Converter::new(&mut pp);
        let mut spellings: Vec<String> = Vec::new();
        let bodies = [
            "0",
            "7",
            "00",
            "017",
            "08",
            "09",
            "1",
            "42",
            "0x",
            "0X1f",
            "0xFFu",
            "0xg",
            "0b101",
            "0B",
            "1.5",
            "1e5",
            "0e1",
            "0x1p3",
            "0x1.8p1",
            "1'000",
            "12x",
            "18446744073709551615",
            "18446744073709551616",
            "0xffffffffffffffff",
            "0x10000000000000000",
            "01777777777777777777777",
            "02000000000000000000000",
        ];
        let suffixes = [
            "", "u", "U", "l", "L", "ll", "LL", "lL", "ul", "lu", "ULL", "llu", "i", "j", "ui",
            "uu", "lll", "f", "e", "x", ".", "'1",
        ];
        for b in bodies {
            for sfx in suffixes {
                spellings.push(format!("{b}{sfx}"));
            }
        }
        let mut fast = 0;
        for s in &spellings {
            let Some(lit) = plain_int(s.as_bytes()) else {
                continue;
            };
            fast += 1;
            let tok = Token::new(TokKind::Number, Symbol(0), Loc::default());
            let mut lits = Literals::default();
            let r = conv.number(&mut pp, s.as_bytes(), &tok, &mut lits);
            assert_eq!(r, Some((T::Int, 0)), "{s}");
            assert_eq!(lits.ints[0], lit, "{s}");
            assert!(conv.queued.is_empty(), "{s}: the general path reports");
        }
        assert!(fast > 100, "{fast}");
        for s in ["0", "017", "42ull", "0X1fLLu", "18446744073709551615", "7i"] {
            assert!(plain_int(s.as_bytes()).is_some(), "{s}");
        }
        for s in [
            "08",
            "0x",
            "0b1",
            "1e5",
            "1.",
            "1'0",
            "18446744073709551616",
            "1uu",
            "1f",
        ] {
            assert!(plain_int(s.as_bytes()).is_none(), "{s}");
        }
    }
}
