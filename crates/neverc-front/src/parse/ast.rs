//! The syntax tree: flat arenas (`Vec`s) indexed by `u32` newtypes, a location on every
//! node. It records what was written (declaration specifiers, declarators as chains of
//! derivations, attributes as token lists); types and meanings are sema's.

use super::ctok::{Kw, Literals, PackedLoc, PragmaAt, Tok, TokLocs};
use crate::source::Loc;
use crate::token::Symbol;

macro_rules! ids {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
    )*};
}

ids!(
    /// Index into [`Ast::exprs`].
    ExprId,
    /// Index into [`Ast::stmts`].
    StmtId,
    /// Index into [`Ast::decls`].
    DeclId,
    /// Index into [`Ast::specs`].
    SpecsId,
    /// Index into [`Ast::type_names`].
    TypeNameId,
    /// Index into [`Ast::inits`].
    InitId,
    /// Index into [`Ast::records`].
    RecordId,
    /// Index into [`Ast::enums`].
    EnumId
);

/// A whole translation unit.
#[derive(Default, Debug)]
pub struct Ast {
    pub items: Vec<DeclId>,
    pub exprs: Vec<Expr>,
    /// The argument lists of calls ([`ExprList`] ranges), out of line so that an
    /// [`Expr`] stays 24 bytes and a call allocates nothing of its own.
    pub expr_lists: Vec<ExprId>,
    pub stmts: Vec<Stmt>,
    pub decls: Vec<Decl>,
    pub specs: Vec<DeclSpecs>,
    pub type_names: Vec<TypeName>,
    pub inits: Vec<Init>,
    pub records: Vec<Record>,
    pub enums: Vec<EnumDef>,
    /// The unit's tokens; attribute arguments are ranges of it.
    pub tokens: Vec<Tok>,
    /// Unpacks the tokens' locations ([`Ast::tok_loc`]).
    pub tok_locs: TokLocs,
    pub lits: Literals,
    pub pragmas: Vec<PragmaAt>,
}

impl Ast {
    /// Gives back the arenas' room beyond what the unit used (see [`crate::parse::parse`]).
    pub fn release_spare(&mut self) {
        self.exprs.shrink_to_fit();
        self.expr_lists.shrink_to_fit();
        self.stmts.shrink_to_fit();
        self.decls.shrink_to_fit();
        self.specs.shrink_to_fit();
        self.type_names.shrink_to_fit();
        self.inits.shrink_to_fit();
    }
    /// Where a token of [`Ast::tokens`] is.
    #[inline]
    pub fn tok_loc(&self, t: &Tok) -> Loc {
        self.tok_locs.loc(t.ploc())
    }
    /// `loc` as the tokens hold it (None: no token is there).
    pub fn packed_loc(&self, loc: Loc) -> Option<PackedLoc> {
        self.tok_locs.find(loc)
    }
    /// Bytes of a token's (first) spelling, for the caret's underline.
    pub fn tok_len(&self, t: &Tok, interner: &crate::token::Interner) -> u32 {
        t.spelling_len(interner, &self.lits)
    }
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.0 as usize]
    }
    /// The expressions of a list (a call's arguments).
    pub fn list(&self, l: ExprList) -> &[ExprId] {
        &self.expr_lists[l.start as usize..(l.start + l.len) as usize]
    }
    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id.0 as usize]
    }
    pub fn decl(&self, id: DeclId) -> &Decl {
        &self.decls[id.0 as usize]
    }
    pub fn spec(&self, id: SpecsId) -> &DeclSpecs {
        &self.specs[id.0 as usize]
    }
    pub fn type_name(&self, id: TypeNameId) -> &TypeName {
        &self.type_names[id.0 as usize]
    }
    pub fn init(&self, id: InitId) -> &Init {
        &self.inits[id.0 as usize]
    }
    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id.0 as usize]
    }
    pub fn enum_def(&self, id: EnumId) -> &EnumDef {
        &self.enums[id.0 as usize]
    }
}

/// How an attribute was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrSyntax {
    /// `__attribute__((name(args)))`
    Gnu,
    /// `__declspec(name(args))`
    Declspec,
    /// `[[ns::name(args)]]` (C23); the namespace, if any.
    Std(Option<Symbol>),
}

/// One attribute: its name and its argument tokens (kept unparsed for sema).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    pub name: Symbol,
    pub loc: Loc,
    pub syntax: AttrSyntax,
    /// Token range `[start, end)` in [`Ast::tokens`] between the parentheses, if any.
    pub args: Option<(u32, u32)>,
}

/// Type qualifiers as bits.
pub mod qual {
    pub const CONST: u8 = 1;
    pub const VOLATILE: u8 = 2;
    pub const RESTRICT: u8 = 4;
    pub const ATOMIC: u8 = 8;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

/// The type a specifier list names before declarators derive from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeSpec {
    /// No type specifier (implicit `int`, an error from C99 on; sema decides).
    None,
    Void,
    Bool,
    /// `char`, `signed char`, `unsigned char` (None: plain).
    Char(Option<bool>),
    /// Integer types: `signed`-ness (None: not written) and rank.
    Int(Option<bool>, IntRank),
    Float,
    Double,
    LongDouble,
    /// `_FloatN` / `_FloatNx`.
    FloatN(u16, bool),
    Float128,
    Float80,
    Decimal(u16),
    /// `_Complex` with the real type it is made of.
    Complex(ComplexOf),
    Record(RecordId),
    Enum(EnumId),
    Typedef(Symbol),
    TypeofExpr(ExprId, bool),
    /// `typeof(type)`; the bool says `typeof_unqual`.
    TypeofType(TypeNameId, bool),
    /// `_Atomic(type)`
    Atomic(TypeNameId),
    AutoType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRank {
    Short,
    Int,
    Long,
    LongLong,
    Int128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexOf {
    Float,
    Double,
    LongDouble,
    /// gcc's integer complex types (`_Complex int`).
    Int(Option<bool>, IntRank),
    Char(Option<bool>),
    FloatN(u16, bool),
    Float128,
}

/// `_Alignas(type)` or `_Alignas(expr)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlignSpec {
    Type(TypeNameId),
    Expr(ExprId),
}

/// Declaration specifiers (C17 6.7).
#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpecs {
    pub loc: Loc,
    pub storage: Option<Storage>,
    pub thread_local: bool,
    pub quals: u8,
    pub inline: bool,
    pub noreturn: bool,
    pub constexpr: bool,
    pub ty: TypeSpec,
    /// Where the type specifier was (for messages).
    pub ty_loc: Loc,
    pub align: Vec<AlignSpec>,
    pub attrs: Vec<Attr>,
}

/// One derivation of a declarator, nearest the name first: `*a[3]` is
/// `[Array(3), Pointer]` (an array of pointers).
#[derive(Clone, Debug, PartialEq)]
pub enum Derived {
    Pointer {
        quals: u8,
        attrs: Vec<Attr>,
    },
    Array {
        size: Option<ExprId>,
        /// `[*]`
        star: bool,
        is_static: bool,
        quals: u8,
        loc: Loc,
    },
    Function {
        params: Vec<Param>,
        variadic: bool,
        /// A K&R identifier list (`f(a, b)`) instead of parameters.
        kr_names: Option<Vec<(Symbol, Loc)>>,
        loc: Loc,
    },
}

/// A declarator; abstract when it has no name.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Option<Symbol>,
    /// The name's location (or where the abstract declarator was).
    pub loc: Loc,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub specs: SpecsId,
    pub decl: Declarator,
    pub loc: Loc,
}

/// A type name (C17 6.7.7): specifiers and an abstract declarator.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub specs: SpecsId,
    pub decl: Declarator,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    pub decl: Declarator,
    /// `__asm__("name")` after the declarator: a string literal index.
    pub asm_label: Option<u32>,
    pub init: Option<InitId>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub loc: Loc,
    pub kind: DeclKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    /// Variables, functions, typedefs, or just a tag (`struct s;`).
    Vars {
        specs: SpecsId,
        list: Vec<InitDeclarator>,
    },
    FunctionDef {
        specs: SpecsId,
        decl: Declarator,
        asm_label: Option<u32>,
        /// Declarations of K&R parameters between the declarator and the body.
        kr_decls: Vec<DeclId>,
        body: StmtId,
        /// The body's closing brace (where falling off the end is reported).
        end: Loc,
    },
    /// `_Static_assert(cond, "msg")`; the message is a string literal index.
    StaticAssert { cond: ExprId, msg: Option<u32> },
    /// File-scope `__asm__("...")`.
    Asm(u32),
    /// A lone `;` at file scope.
    Empty,
    /// Could not be parsed (already reported).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    Field(Symbol, Loc),
    Index(ExprId),
    /// GNU `[lo ... hi]`.
    Range(ExprId, ExprId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: InitId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Expr(ExprId),
    List { loc: Loc, items: Vec<InitItem> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

/// A struct or union specifier; `fields` is None for a reference or forward declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub kind: RecordKind,
    pub name: Option<Symbol>,
    pub loc: Loc,
    pub fields: Option<Vec<Field>>,
    pub attrs: Vec<Attr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldDeclarator {
    /// None for an unnamed bit-field.
    pub decl: Option<Declarator>,
    pub bits: Option<ExprId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Field {
    /// Members sharing specifiers; no declarators is an anonymous struct/union member.
    Members {
        specs: SpecsId,
        list: Vec<FieldDeclarator>,
        loc: Loc,
    },
    StaticAssert(DeclId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    pub name: Symbol,
    pub loc: Loc,
    pub value: Option<ExprId>,
    pub attrs: Vec<Attr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumDef {
    pub name: Option<Symbol>,
    pub loc: Loc,
    /// C23 fixed underlying type.
    pub fixed: Option<TypeNameId>,
    pub enumerators: Option<Vec<Enumerator>>,
    pub attrs: Vec<Attr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Plus,
    Neg,
    Not,
    BitNot,
    Deref,
    Addr,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    Real,
    Imag,
    /// `__extension__ expr`
    Extension,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Mod => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub loc: Loc,
    pub kind: ExprKind,
}

// Every expression of a unit is one of these: kept small (the arena of a large unit is
// megabytes, and sema and irgen walk it), rare payloads boxed or out of line.
const _: () = assert!(std::mem::size_of::<Expr>() == 24);

/// A range of [`Ast::expr_lists`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExprList {
    pub start: u32,
    pub len: u32,
}

/// An optional expression in four bytes (`u32::MAX`: none); an `Option<ExprId>` would
/// make every [`ExprKind`] four bytes larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptExpr(u32);

impl OptExpr {
    pub const NONE: OptExpr = OptExpr(u32::MAX);
    pub fn get(self) -> Option<ExprId> {
        (self.0 != u32::MAX).then_some(ExprId(self.0))
    }
}

impl From<Option<ExprId>> for OptExpr {
    fn from(e: Option<ExprId>) -> Self {
        e.map_or(OptExpr::NONE, |e| OptExpr(e.0))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(Symbol),
    /// Literal index in [`Literals`] of the kind.
    Int(u32),
    Float(u32),
    Char(u32),
    Str(u32),
    /// C23 `true`/`false`.
    BoolLit(bool),
    Nullptr,
    Paren(ExprId),
    Unary(UnOp, ExprId),
    Binary(BinOp, ExprId, ExprId),
    /// `=` (None) or a compound assignment.
    Assign(Option<BinOp>, ExprId, ExprId),
    /// `c ? a : b`; GNU `c ?: b` has no middle.
    Cond(ExprId, OptExpr, ExprId),
    Comma(ExprId, ExprId),
    /// The callee and the arguments.
    Call(ExprId, ExprList),
    Index(ExprId, ExprId),
    Member {
        base: ExprId,
        name: Symbol,
        arrow: bool,
    },
    Cast(TypeNameId, ExprId),
    CompoundLit(TypeNameId, InitId),
    SizeofExpr(ExprId),
    SizeofType(TypeNameId),
    /// `_Alignof`/`__alignof__` of an expression (a GNU extension).
    AlignofExpr(ExprId),
    /// `_Alignof(type)` (`true`: C11's, capped as gcc caps it, see
    /// `neverc_abi::c11_alignof`) or `__alignof__(type)` (`false`: the layout alignment).
    AlignofType(TypeNameId, bool),
    /// `_Generic(ctrl, type: e, default: e)`; None is `default`.
    Generic(ExprId, Box<Vec<(Option<TypeNameId>, ExprId)>>),
    /// GNU `({ ... })`.
    StmtExpr(StmtId),
    /// GNU `&&label`.
    LabelAddr(Symbol),
    VaArg(ExprId, TypeNameId),
    Offsetof(TypeNameId, Box<Vec<Designator>>),
    TypesCompatible(TypeNameId, TypeNameId),
    ChooseExpr(ExprId, ExprId, ExprId),
    /// Could not be parsed (already reported).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub loc: Loc,
    pub kind: StmtKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AsmOperand {
    /// `[name]`
    pub name: Option<Symbol>,
    /// String literal index.
    pub constraint: u32,
    pub expr: ExprId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AsmStmt {
    pub volatile: bool,
    pub inline: bool,
    pub goto: bool,
    /// String literal index.
    pub template: u32,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<u32>,
    pub labels: Vec<(Symbol, Loc)>,
    /// Basic asm (no colon at all).
    pub basic: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    None,
    Expr(ExprId),
    Decl(DeclId),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Compound(Vec<StmtId>),
    Decl(DeclId),
    /// GNU `__label__ a, b;`
    LocalLabels(Vec<(Symbol, Loc)>),
    /// An expression statement; None is the null statement.
    Expr(Option<ExprId>),
    If(ExprId, StmtId, Option<StmtId>),
    Switch(ExprId, StmtId),
    While(ExprId, StmtId),
    DoWhile(StmtId, ExprId),
    For {
        init: ForInit,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: StmtId,
    },
    Goto(Symbol),
    /// GNU `goto *expr;`
    GotoComputed(ExprId),
    Continue,
    Break,
    Return(Option<ExprId>),
    Label(Symbol, Vec<Attr>, StmtId),
    /// `case lo:` or GNU `case lo ... hi:`.
    Case(ExprId, Option<ExprId>, StmtId),
    Default(StmtId),
    Asm(Box<AsmStmt>),
    Error,
}

/// The spelling of a keyword for dumps.
pub fn kw_str(k: Kw) -> &'static str {
    k.as_str()
}
