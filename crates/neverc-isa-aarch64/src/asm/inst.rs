//! AArch64 instructions over physical registers, as the encoder and printer see them.
//!
//! Each variant is one instruction class of the A64 encoding; the operation within the class
//! is a small enum whose `ALL` table lists every member (the referee enumerates forms from
//! these tables). Aliases (`mov`, `cmp`, `cset`, `lsl`, `uxtb`, ...) are not variants: they
//! are constructors here and spellings in the printer.

use neverc_codegen::reloc::SymId;

/// A general-purpose register: `x0`-`x30` (or their `w` halves), and the two meanings of
/// register number 31, the stack pointer and the zero register. Each instruction field
/// accepts only the one of them the architecture gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gpr(pub u8);

impl Gpr {
    pub const FP: Gpr = Gpr(29);
    pub const LR: Gpr = Gpr(30);
    pub const SP: Gpr = Gpr(31);
    pub const ZR: Gpr = Gpr(32);
}

/// A SIMD and floating-point register `v0`-`v31` (named `b`/`h`/`s`/`d`/`q` by access size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fpr(pub u8);

/// Either register file, for loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    G(Gpr),
    V(Fpr),
}

/// Operand width of an integer instruction (the `sf` bit): `w` (32) or `x` (64) registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    W,
    X,
}

impl Size {
    pub const ALL: [Size; 2] = [Size::W, Size::X];
    pub fn bits(self) -> u32 {
        match self {
            Size::W => 32,
            Size::X => 64,
        }
    }
}

/// Floating-point precision (`ftype`): single (`s`) or double (`d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FSize {
    S,
    D,
}

impl FSize {
    pub const ALL: [FSize; 2] = [FSize::S, FSize::D];
}

/// A function-local label (block starts, branch targets, literal pools).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// Where a branch, `adr` or literal load points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Label(Label),
    /// A symbol plus addend, left to the linker.
    Sym(SymId, i64),
}

/// Condition codes, in encoding order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    Eq,
    Ne,
    Hs,
    Lo,
    Mi,
    Pl,
    Vs,
    Vc,
    Hi,
    Ls,
    Ge,
    Lt,
    Gt,
    Le,
    Al,
    Nv,
}

impl Cond {
    pub const ALL: [Cond; 16] = [
        Cond::Eq,
        Cond::Ne,
        Cond::Hs,
        Cond::Lo,
        Cond::Mi,
        Cond::Pl,
        Cond::Vs,
        Cond::Vc,
        Cond::Hi,
        Cond::Ls,
        Cond::Ge,
        Cond::Lt,
        Cond::Gt,
        Cond::Le,
        Cond::Al,
        Cond::Nv,
    ];
    pub fn bits(self) -> u32 {
        self as u32
    }
    /// The opposite condition (flips the low bit; `al`/`nv` have none).
    pub fn invert(self) -> Cond {
        Cond::ALL[(self as usize) ^ 1]
    }
    pub fn name(self) -> &'static str {
        [
            "eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le",
            "al", "nv",
        ][self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddSub {
    Add,
    Sub,
}

impl AddSub {
    pub const ALL: [AddSub; 2] = [AddSub::Add, AddSub::Sub];
}

/// Shift of a shifted-register operand (`ror` only for logical instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shift {
    Lsl,
    Lsr,
    Asr,
    Ror,
}

impl Shift {
    pub const ALL: [Shift; 4] = [Shift::Lsl, Shift::Lsr, Shift::Asr, Shift::Ror];
    pub fn name(self) -> &'static str {
        ["lsl", "lsr", "asr", "ror"][self as usize]
    }
}

/// Extension of an extended-register operand, in encoding order (`option`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extend {
    Uxtb,
    Uxth,
    Uxtw,
    Uxtx,
    Sxtb,
    Sxth,
    Sxtw,
    Sxtx,
}

impl Extend {
    pub const ALL: [Extend; 8] = [
        Extend::Uxtb,
        Extend::Uxth,
        Extend::Uxtw,
        Extend::Uxtx,
        Extend::Sxtb,
        Extend::Sxth,
        Extend::Sxtw,
        Extend::Sxtx,
    ];
    pub fn name(self) -> &'static str {
        [
            "uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx",
        ][self as usize]
    }
    /// Whether the extended register is an `x` register (the 64-bit extends).
    pub fn is_x(self) -> bool {
        matches!(self, Extend::Uxtx | Extend::Sxtx)
    }
}

/// Logical operations, in `opc` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LogicOp {
    And,
    Orr,
    Eor,
    Ands,
}

impl LogicOp {
    pub const ALL: [LogicOp; 4] = [LogicOp::And, LogicOp::Orr, LogicOp::Eor, LogicOp::Ands];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovOp {
    /// `movn`: the inverse of the shifted immediate.
    Movn,
    /// `movz`: the shifted immediate, other bits zero.
    Movz,
    /// `movk`: the immediate into its 16 bits, the others kept.
    Movk,
}

impl MovOp {
    pub const ALL: [MovOp; 3] = [MovOp::Movn, MovOp::Movz, MovOp::Movk];
}

/// Three-source data processing: multiply-add and the long and high multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mul3Op {
    Madd,
    Msub,
    /// `x = x + w * w`, signed (64-bit only).
    Smaddl,
    Umaddl,
    /// High 64 bits of the 128-bit product (64-bit only, no addend).
    Smulh,
    Umulh,
}

impl Mul3Op {
    pub const ALL: [Mul3Op; 6] = [
        Mul3Op::Madd,
        Mul3Op::Msub,
        Mul3Op::Smaddl,
        Mul3Op::Umaddl,
        Mul3Op::Smulh,
        Mul3Op::Umulh,
    ];
}

/// Two-source data processing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alu2Op {
    Udiv,
    Sdiv,
    Lslv,
    Lsrv,
    Asrv,
    Rorv,
}

impl Alu2Op {
    pub const ALL: [Alu2Op; 6] = [
        Alu2Op::Udiv,
        Alu2Op::Sdiv,
        Alu2Op::Lslv,
        Alu2Op::Lsrv,
        Alu2Op::Asrv,
        Alu2Op::Rorv,
    ];
}

/// One-source data processing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alu1Op {
    Rbit,
    Rev16,
    /// Byte reverse within each word (64-bit only).
    Rev32,
    Rev,
    Clz,
    Cls,
}

impl Alu1Op {
    pub const ALL: [Alu1Op; 6] = [
        Alu1Op::Rbit,
        Alu1Op::Rev16,
        Alu1Op::Rev32,
        Alu1Op::Rev,
        Alu1Op::Clz,
        Alu1Op::Cls,
    ];
}

/// Bitfield moves, in `opc` order (the shifts, extends and bitfield extracts are aliases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BfOp {
    Sbfm,
    Bfm,
    Ubfm,
}

impl BfOp {
    pub const ALL: [BfOp; 3] = [BfOp::Sbfm, BfOp::Bfm, BfOp::Ubfm];
}

/// Conditional selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CselOp {
    Csel,
    Csinc,
    Csinv,
    Csneg,
}

impl CselOp {
    pub const ALL: [CselOp; 4] = [CselOp::Csel, CselOp::Csinc, CselOp::Csinv, CselOp::Csneg];
}

/// The second operand of `ccmp`/`ccmn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegOrImm5 {
    Reg(Gpr),
    Imm(u8),
}

/// Loads and stores of one register: which register file, access size and extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemOp {
    Strb,
    Ldrb,
    /// Sign-extending byte load into an `x` register.
    LdrsbX,
    LdrsbW,
    Strh,
    Ldrh,
    LdrshX,
    LdrshW,
    StrW,
    LdrW,
    Ldrsw,
    StrX,
    LdrX,
    /// Floating-point / SIMD registers: `b`, `h`, `s`, `d`, `q`.
    StrB,
    LdrB,
    StrH,
    LdrH,
    StrS,
    LdrS,
    StrD,
    LdrD,
    StrQ,
    LdrQ,
}

impl MemOp {
    pub const ALL: [MemOp; 23] = [
        MemOp::Strb,
        MemOp::Ldrb,
        MemOp::LdrsbX,
        MemOp::LdrsbW,
        MemOp::Strh,
        MemOp::Ldrh,
        MemOp::LdrshX,
        MemOp::LdrshW,
        MemOp::StrW,
        MemOp::LdrW,
        MemOp::Ldrsw,
        MemOp::StrX,
        MemOp::LdrX,
        MemOp::StrB,
        MemOp::LdrB,
        MemOp::StrH,
        MemOp::LdrH,
        MemOp::StrS,
        MemOp::LdrS,
        MemOp::StrD,
        MemOp::LdrD,
        MemOp::StrQ,
        MemOp::LdrQ,
    ];

    /// (size field, V bit, opc field) of the load/store register encodings.
    pub fn fields(self) -> (u32, u32, u32) {
        match self {
            MemOp::Strb => (0, 0, 0),
            MemOp::Ldrb => (0, 0, 1),
            MemOp::LdrsbX => (0, 0, 2),
            MemOp::LdrsbW => (0, 0, 3),
            MemOp::Strh => (1, 0, 0),
            MemOp::Ldrh => (1, 0, 1),
            MemOp::LdrshX => (1, 0, 2),
            MemOp::LdrshW => (1, 0, 3),
            MemOp::StrW => (2, 0, 0),
            MemOp::LdrW => (2, 0, 1),
            MemOp::Ldrsw => (2, 0, 2),
            MemOp::StrX => (3, 0, 0),
            MemOp::LdrX => (3, 0, 1),
            MemOp::StrB => (0, 1, 0),
            MemOp::LdrB => (0, 1, 1),
            MemOp::StrH => (1, 1, 0),
            MemOp::LdrH => (1, 1, 1),
            MemOp::StrS => (2, 1, 0),
            MemOp::LdrS => (2, 1, 1),
            MemOp::StrD => (3, 1, 0),
            MemOp::LdrD => (3, 1, 1),
            MemOp::StrQ => (0, 1, 2),
            MemOp::LdrQ => (0, 1, 3),
        }
    }

    /// Bytes accessed.
    pub fn bytes(self) -> u32 {
        match self {
            MemOp::StrQ | MemOp::LdrQ => 16,
            op => 1 << op.fields().0,
        }
    }

    pub fn is_fp(self) -> bool {
        self.fields().1 == 1
    }

    pub fn is_load(self) -> bool {
        !matches!(
            self,
            MemOp::Strb
                | MemOp::Strh
                | MemOp::StrW
                | MemOp::StrX
                | MemOp::StrB
                | MemOp::StrH
                | MemOp::StrS
                | MemOp::StrD
                | MemOp::StrQ
        )
    }

    /// Whether the integer register operand is an `x` register.
    pub fn rt_is_x(self) -> bool {
        matches!(
            self,
            MemOp::LdrsbX | MemOp::LdrshX | MemOp::Ldrsw | MemOp::StrX | MemOp::LdrX
        )
    }
}

/// The index register of a register-offset address and how it is extended; `scaled` shifts
/// it left by log2 of the access size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexExt {
    Uxtw,
    Lsl,
    Sxtw,
    Sxtx,
}

impl IndexExt {
    pub const ALL: [IndexExt; 4] = [
        IndexExt::Uxtw,
        IndexExt::Lsl,
        IndexExt::Sxtw,
        IndexExt::Sxtx,
    ];
    /// The `option` field.
    pub fn bits(self) -> u32 {
        match self {
            IndexExt::Uxtw => 2,
            IndexExt::Lsl => 3,
            IndexExt::Sxtw => 6,
            IndexExt::Sxtx => 7,
        }
    }
    pub fn name(self) -> &'static str {
        ["uxtw", "lsl", "sxtw", "sxtx"][self as usize]
    }
}

/// The relocation operator of a `:lo12:`-style low part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoKind {
    /// `:lo12:sym`: the low 12 bits of the address (LDST*_ABS_LO12_NC / ADD_ABS_LO12_NC).
    Abs,
    /// `:got_lo12:sym`: the low 12 bits of the symbol's GOT entry (64-bit loads only).
    Got,
    /// `:gottprel_lo12:sym`: the low bits of the initial-exec TLS GOT entry.
    GotTprel,
}

/// A load or store address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Addr {
    /// `[base, #off]`: unsigned offset, a multiple of the access size up to 4095 times it.
    UImm { base: Gpr, off: u32 },
    /// `[base, #off]` with `ldur`/`stur`: any offset in -256..=255.
    Unscaled { base: Gpr, off: i16 },
    /// `[base, #off]!`: base += off, then access (-256..=255).
    Pre { base: Gpr, off: i16 },
    /// `[base], #off`: access, then base += off (-256..=255).
    Post { base: Gpr, off: i16 },
    /// `[base, index{, ext {#amount}}]`.
    RegOff {
        base: Gpr,
        index: Gpr,
        ext: IndexExt,
        scaled: bool,
    },
    /// `[base, :lo12:sym+addend]` and its GOT and TLS kin.
    Lo12 {
        base: Gpr,
        sym: SymId,
        addend: i64,
        kind: LoKind,
    },
    /// A PC-relative literal (loads of 4 bytes or more only).
    Literal(Target),
}

/// Load/store pair operand class (`opc` and `V`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairClass {
    W,
    X,
    S,
    D,
    Q,
}

impl PairClass {
    pub const ALL: [PairClass; 5] = [
        PairClass::W,
        PairClass::X,
        PairClass::S,
        PairClass::D,
        PairClass::Q,
    ];
    pub fn bytes(self) -> i32 {
        match self {
            PairClass::W | PairClass::S => 4,
            PairClass::X | PairClass::D => 8,
            PairClass::Q => 16,
        }
    }
    pub fn is_fp(self) -> bool {
        matches!(self, PairClass::S | PairClass::D | PairClass::Q)
    }
}

/// Addressing of a pair: `[base, #off]`, `[base, #off]!` or `[base], #off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PairMode {
    Offset,
    Pre,
    Post,
}

impl PairMode {
    pub const ALL: [PairMode; 3] = [PairMode::Offset, PairMode::Pre, PairMode::Post];
}

/// The ARMv8.1 (LSE) atomic read-modify-write operations, in `opc` order, then `swp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LseOp {
    /// `ldadd`: old + rs.
    Add,
    /// `ldclr`: old & !rs.
    Clr,
    /// `ldeor`: old ^ rs.
    Eor,
    /// `ldset`: old | rs.
    Set,
    /// `swp`: rs.
    Swp,
}

impl LseOp {
    pub const ALL: [LseOp; 5] = [LseOp::Add, LseOp::Clr, LseOp::Eor, LseOp::Set, LseOp::Swp];
}

/// Exclusive and acquire/release accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExclOp {
    Ldxr,
    Ldaxr,
    /// Store exclusive: the status (0 = stored) goes to `rs`.
    Stxr,
    Stlxr,
    Ldar,
    Stlr,
}

impl ExclOp {
    pub const ALL: [ExclOp; 6] = [
        ExclOp::Ldxr,
        ExclOp::Ldaxr,
        ExclOp::Stxr,
        ExclOp::Stlxr,
        ExclOp::Ldar,
        ExclOp::Stlr,
    ];
}

/// What an `adrp` computes the page of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PageKind {
    /// The symbol (`ADR_PREL_PG_HI21`).
    Abs,
    /// Its GOT entry (`:got:`, `ADR_GOT_PAGE`).
    Got,
    /// Its initial-exec TLS GOT entry (`:gottprel:`).
    GotTprel,
}

/// The relocation operator of `add rd, rn, <sym>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddSymKind {
    /// `:lo12:sym`.
    Lo12,
    /// `:tprel_hi12:sym, lsl #12` (local-exec TLS, high part).
    TprelHi12,
    /// `:tprel_lo12_nc:sym` (local-exec TLS, low part).
    TprelLo12Nc,
}

/// `dmb` options the back end uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Barrier {
    Ishld,
    Ishst,
    Ish,
    Sy,
}

impl Barrier {
    pub const ALL: [Barrier; 4] = [Barrier::Ishld, Barrier::Ishst, Barrier::Ish, Barrier::Sy];
}

/// System registers `mrs`/`msr` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SysReg {
    /// The thread pointer.
    TpidrEl0,
    Fpcr,
    Fpsr,
}

impl SysReg {
    pub const ALL: [SysReg; 3] = [SysReg::TpidrEl0, SysReg::Fpcr, SysReg::Fpsr];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FUnOp {
    Abs,
    Neg,
    Sqrt,
}

impl FUnOp {
    pub const ALL: [FUnOp; 3] = [FUnOp::Abs, FUnOp::Neg, FUnOp::Sqrt];
}

/// Two-source floating point, in `opcode` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FBinOp {
    Mul,
    Div,
    Add,
    Sub,
    Max,
    Min,
    MaxNm,
    MinNm,
    Nmul,
}

impl FBinOp {
    pub const ALL: [FBinOp; 9] = [
        FBinOp::Mul,
        FBinOp::Div,
        FBinOp::Add,
        FBinOp::Sub,
        FBinOp::Max,
        FBinOp::Min,
        FBinOp::MaxNm,
        FBinOp::MinNm,
        FBinOp::Nmul,
    ];
}

/// One AArch64 instruction (or a label, which takes no space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inst {
    Label(Label),
    /// `add`/`sub`{`s`} with a 12-bit immediate, optionally shifted left by 12.
    AluImm {
        op: AddSub,
        flags: bool,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        imm12: u16,
        lsl12: bool,
    },
    /// `add`/`sub`{`s`} with a shifted register (`lsl`, `lsr`, `asr`).
    AluShift {
        op: AddSub,
        flags: bool,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        shift: Shift,
        amount: u8,
    },
    /// `adc`/`sbc`{`s`}: add or subtract with the carry flag (`ngc` when rn is zr), for
    /// values wider than a register.
    Carry {
        op: AddSub,
        flags: bool,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
    },
    /// `add`/`sub`{`s`} with an extended register, shifted left 0-4.
    AluExt {
        op: AddSub,
        flags: bool,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        ext: Extend,
        amount: u8,
    },
    /// `add xd, xn, <sym>` with a relocation operator (64-bit).
    AddSym {
        rd: Gpr,
        rn: Gpr,
        sym: SymId,
        addend: i64,
        kind: AddSymKind,
    },
    /// Logical with a bitmask immediate (the encoder finds N:immr:imms, or refuses).
    LogicImm {
        op: LogicOp,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        imm: u64,
    },
    /// Logical with a shifted register; `not` inverts `rm` (`bic`, `orn`, `eon`, `bics`).
    LogicShift {
        op: LogicOp,
        not: bool,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        shift: Shift,
        amount: u8,
    },
    /// `movz`/`movn`/`movk` of a 16-bit immediate shifted by 0, 16, 32 or 48.
    MovWide {
        op: MovOp,
        size: Size,
        rd: Gpr,
        imm16: u16,
        shift: u8,
    },
    Mul3 {
        op: Mul3Op,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        ra: Gpr,
    },
    Alu2 {
        op: Alu2Op,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
    },
    Alu1 {
        op: Alu1Op,
        size: Size,
        rd: Gpr,
        rn: Gpr,
    },
    Bitfield {
        op: BfOp,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        immr: u8,
        imms: u8,
    },
    /// `extr rd, rn, rm, #lsb` (`ror` when rn == rm).
    Extr {
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        lsb: u8,
    },
    CondSel {
        op: CselOp,
        size: Size,
        rd: Gpr,
        rn: Gpr,
        rm: Gpr,
        cond: Cond,
    },
    /// `ccmp` (Sub) / `ccmn` (Add): if cond, compare, else set the flags to `nzcv`.
    CondCmp {
        op: AddSub,
        size: Size,
        rn: Gpr,
        rm: RegOrImm5,
        nzcv: u8,
        cond: Cond,
    },
    B(Target),
    Bl(Target),
    Br(Gpr),
    Blr(Gpr),
    Ret(Gpr),
    BCond(Cond, Target),
    /// `cbz`/`cbnz` (nz).
    Cbz {
        nz: bool,
        size: Size,
        rt: Gpr,
        target: Target,
    },
    /// `tbz`/`tbnz` (nz) of bit 0-63.
    Tbz {
        nz: bool,
        rt: Gpr,
        bit: u8,
        target: Target,
    },
    Mem {
        op: MemOp,
        rt: Reg,
        addr: Addr,
    },
    Pair {
        load: bool,
        class: PairClass,
        rt: Reg,
        rt2: Reg,
        base: Gpr,
        off: i32,
        mode: PairMode,
    },
    /// Exclusive / acquire-release access of 1, 2, 4 or 8 bytes; `rs` is the store status
    /// register (ignored by loads and `stlr`, which take `Gpr::ZR`).
    Excl {
        op: ExclOp,
        bytes: u8,
        rs: Gpr,
        rt: Gpr,
        rn: Gpr,
    },
    Adr {
        rd: Gpr,
        target: Target,
    },
    Adrp {
        rd: Gpr,
        sym: SymId,
        addend: i64,
        kind: PageKind,
    },
    Dmb(Barrier),
    Svc(u16),
    Brk(u16),
    /// `hint #n` (`nop` is hint 0).
    Hint(u8),
    Mrs {
        rt: Gpr,
        reg: SysReg,
    },
    Msr {
        reg: SysReg,
        rt: Gpr,
    },
    FMov {
        size: FSize,
        rd: Fpr,
        rn: Fpr,
    },
    /// `fmov wd, sn` / `fmov xd, dn` (the integer size follows the float size).
    FMovToGpr {
        size: FSize,
        rd: Gpr,
        rn: Fpr,
    },
    /// `fmov sd, wn` / `fmov dd, xn`.
    FMovFromGpr {
        size: FSize,
        rd: Fpr,
        rn: Gpr,
    },
    /// `mov vd.16b, vn.16b`: the whole 128-bit register (`orr` of the vector).
    MovV {
        rd: Fpr,
        rn: Fpr,
    },
    /// `fmov xd, vn.d[1]` (to_gpr) or `fmov vd.d[1], xn`: the upper 64 bits of a vector
    /// register.
    FMovTop {
        to_gpr: bool,
        g: Gpr,
        v: Fpr,
    },
    /// `fmov` of an 8-bit encoded constant (see `encode::fmov_imm8`).
    FMovImm {
        size: FSize,
        rd: Fpr,
        imm8: u8,
    },
    FUn {
        op: FUnOp,
        size: FSize,
        rd: Fpr,
        rn: Fpr,
    },
    FBin {
        op: FBinOp,
        size: FSize,
        rd: Fpr,
        rn: Fpr,
        rm: Fpr,
    },
    /// `fcmp`/`fcmpe` (e) with a register or, for None, `#0.0`.
    FCmp {
        e: bool,
        size: FSize,
        rn: Fpr,
        rm: Option<Fpr>,
    },
    FCsel {
        size: FSize,
        rd: Fpr,
        rn: Fpr,
        rm: Fpr,
        cond: Cond,
    },
    /// `fcvt` to `to` from the other precision.
    FCvt {
        to: FSize,
        rd: Fpr,
        rn: Fpr,
    },
    /// `fcvt hd, sn|dn` (to_half) or `fcvt sd|dd, hn`: `_Float16` to and from the other
    /// precisions (base Armv8 floating point, no FP16 extension needed).
    FCvtHalf {
        to_half: bool,
        other: FSize,
        rd: Fpr,
        rn: Fpr,
    },
    /// `scvtf`/`ucvtf`.
    IntToFp {
        signed: bool,
        isize: Size,
        fsize: FSize,
        rd: Fpr,
        rn: Gpr,
    },
    /// `fcvtzs`/`fcvtzu` (round toward zero, as C converts).
    FpToInt {
        signed: bool,
        isize: Size,
        fsize: FSize,
        rd: Gpr,
        rn: Fpr,
    },
    /// An LSE atomic (ARMv8.1): `rt` gets the old value of `[rn]`, which becomes `old op
    /// rs`; `acquire`/`release` are the `a`/`l` of the mnemonic.
    Lse {
        op: LseOp,
        bytes: u8,
        acquire: bool,
        release: bool,
        rs: Gpr,
        rt: Gpr,
        rn: Gpr,
    },
    /// `cas{a}{l}{b,h} rs, rt, [rn]` (ARMv8.1): if `[rn]` equals `rs`, store `rt`; `rs`
    /// gets the old value either way.
    Cas {
        bytes: u8,
        acquire: bool,
        release: bool,
        rs: Gpr,
        rt: Gpr,
        rn: Gpr,
    },
    /// A data word in the text (`.word`): the pieces of a literal pool's constants.
    DataWord(u32),
    /// A jump table's entry (`.word target - base`): 4 bytes of data in the text, the
    /// distance from the table's start to a case.
    JumpTableEntry {
        target: Label,
        base: Label,
    },
}

impl Inst {
    /// `mov rd, rm` between general registers (`orr rd, zr, rm`; `add rd, rn, #0` when
    /// either is sp).
    pub fn mov(size: Size, rd: Gpr, rm: Gpr) -> Inst {
        if rd == Gpr::SP || rm == Gpr::SP {
            Inst::AluImm {
                op: AddSub::Add,
                flags: false,
                size,
                rd,
                rn: rm,
                imm12: 0,
                lsl12: false,
            }
        } else {
            Inst::LogicShift {
                op: LogicOp::Orr,
                not: false,
                size,
                rd,
                rn: Gpr::ZR,
                rm,
                shift: Shift::Lsl,
                amount: 0,
            }
        }
    }

    /// `cmp rn, rm` (`subs zr, rn, rm`).
    pub fn cmp(size: Size, rn: Gpr, rm: Gpr) -> Inst {
        Inst::AluShift {
            op: AddSub::Sub,
            flags: true,
            size,
            rd: Gpr::ZR,
            rn,
            rm,
            shift: Shift::Lsl,
            amount: 0,
        }
    }

    /// `cset rd, cond` (`csinc rd, zr, zr, !cond`).
    pub fn cset(size: Size, rd: Gpr, cond: Cond) -> Inst {
        Inst::CondSel {
            op: CselOp::Csinc,
            size,
            rd,
            rn: Gpr::ZR,
            rm: Gpr::ZR,
            cond: cond.invert(),
        }
    }

    /// `ubfm` for `lsl rd, rn, #n`.
    pub fn lsl_imm(size: Size, rd: Gpr, rn: Gpr, n: u8) -> Inst {
        let bits = size.bits() as u8;
        Inst::Bitfield {
            op: BfOp::Ubfm,
            size,
            rd,
            rn,
            immr: (bits - n % bits) % bits,
            imms: bits - 1 - n,
        }
    }

    /// `ubfm`/`sbfm` for a right shift `lsr`/`asr rd, rn, #n`.
    pub fn shr_imm(signed: bool, size: Size, rd: Gpr, rn: Gpr, n: u8) -> Inst {
        Inst::Bitfield {
            op: if signed { BfOp::Sbfm } else { BfOp::Ubfm },
            size,
            rd,
            rn,
            immr: n,
            imms: size.bits() as u8 - 1,
        }
    }

    /// Extend the low `from_bits` (8, 16, 32) of rn: `uxtb`, `sxtw`, ... (`ubfx`/`sbfx`
    /// from bit 0).
    pub fn extend(signed: bool, size: Size, rd: Gpr, rn: Gpr, from_bits: u8) -> Inst {
        Inst::Bitfield {
            op: if signed { BfOp::Sbfm } else { BfOp::Ubfm },
            size,
            rd,
            rn,
            immr: 0,
            imms: from_bits - 1,
        }
    }
}

impl Reg {
    fn map(&mut self, g: &mut dyn FnMut(Gpr) -> Gpr, v: &mut dyn FnMut(Fpr) -> Fpr) {
        match self {
            Reg::G(r) => *r = g(*r),
            Reg::V(r) => *r = v(*r),
        }
    }
}

impl Addr {
    fn map_regs(&mut self, g: &mut dyn FnMut(Gpr) -> Gpr) {
        match self {
            Addr::UImm { base, .. }
            | Addr::Unscaled { base, .. }
            | Addr::Pre { base, .. }
            | Addr::Post { base, .. }
            | Addr::Lo12 { base, .. } => *base = g(*base),
            Addr::RegOff { base, index, .. } => {
                *base = g(*base);
                *index = g(*index);
            }
            Addr::Literal(_) => {}
        }
    }
}

impl Inst {
    /// Rewrites every register field through `g` (general registers) and `v` (vector
    /// registers): the back end's placeholders become allocated registers this way.
    pub fn map_regs(&mut self, g: &mut dyn FnMut(Gpr) -> Gpr, v: &mut dyn FnMut(Fpr) -> Fpr) {
        use Inst::*;
        match self {
            Label(_)
            | B(_)
            | Bl(_)
            | BCond(..)
            | Dmb(_)
            | Svc(_)
            | Brk(_)
            | Hint(_)
            | DataWord(_)
            | JumpTableEntry { .. } => {}
            AluImm { rd, rn, .. }
            | AddSym { rd, rn, .. }
            | LogicImm { rd, rn, .. }
            | Alu1 { rd, rn, .. }
            | Bitfield { rd, rn, .. } => {
                *rd = g(*rd);
                *rn = g(*rn);
            }
            AluShift { rd, rn, rm, .. }
            | Carry { rd, rn, rm, .. }
            | AluExt { rd, rn, rm, .. }
            | LogicShift { rd, rn, rm, .. }
            | Alu2 { rd, rn, rm, .. }
            | Extr { rd, rn, rm, .. }
            | CondSel { rd, rn, rm, .. } => {
                *rd = g(*rd);
                *rn = g(*rn);
                *rm = g(*rm);
            }
            Mul3 { rd, rn, rm, ra, .. } => {
                *rd = g(*rd);
                *rn = g(*rn);
                *rm = g(*rm);
                *ra = g(*ra);
            }
            MovWide { rd, .. } | Adr { rd, .. } | Adrp { rd, .. } => *rd = g(*rd),
            CondCmp { rn, rm, .. } => {
                *rn = g(*rn);
                if let RegOrImm5::Reg(r) = rm {
                    *r = g(*r);
                }
            }
            Br(r) | Blr(r) | Ret(r) => *r = g(*r),
            Cbz { rt, .. } | Tbz { rt, .. } | Mrs { rt, .. } | Msr { rt, .. } => *rt = g(*rt),
            Mem { rt, addr, .. } => {
                rt.map(g, v);
                addr.map_regs(g);
            }
            Pair { rt, rt2, base, .. } => {
                rt.map(g, v);
                rt2.map(g, v);
                *base = g(*base);
            }
            Excl { rs, rt, rn, .. } | Lse { rs, rt, rn, .. } | Cas { rs, rt, rn, .. } => {
                *rs = g(*rs);
                *rt = g(*rt);
                *rn = g(*rn);
            }
            FMov { rd, rn, .. }
            | FUn { rd, rn, .. }
            | FCvt { rd, rn, .. }
            | FCvtHalf { rd, rn, .. } => {
                *rd = v(*rd);
                *rn = v(*rn);
            }
            FMovToGpr { rd, rn, .. } | FpToInt { rd, rn, .. } => {
                *rd = g(*rd);
                *rn = v(*rn);
            }
            FMovFromGpr { rd, rn, .. } | IntToFp { rd, rn, .. } => {
                *rd = v(*rd);
                *rn = g(*rn);
            }
            FMovImm { rd, .. } => *rd = v(*rd),
            MovV { rd, rn } => {
                *rd = v(*rd);
                *rn = v(*rn);
            }
            FMovTop { g: gr, v: vr, .. } => {
                *gr = g(*gr);
                *vr = v(*vr);
            }
            FBin { rd, rn, rm, .. } | FCsel { rd, rn, rm, .. } => {
                *rd = v(*rd);
                *rn = v(*rn);
                *rm = v(*rm);
            }
            FCmp { rn, rm, .. } => {
                *rn = v(*rn);
                if let Some(r) = rm {
                    *r = v(*r);
                }
            }
        }
    }
}
