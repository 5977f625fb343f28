//! The machine instruction type: physical registers, memory operands, condition codes and
//! the `Inst` enum (real instructions plus the assembler's pseudo-items: labels, alignment,
//! jump-table entries). Pure data; encoding lives in `encode.rs`, AT&T text in `print.rs`.

use neverc_codegen::reloc::{RelocKind, SymId};

/// A general-purpose register by hardware number (0..=15): rax rcx rdx rbx rsp rbp rsi rdi
/// r8..r15. The operand size comes from the instruction, not from the register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gpr(pub u8);

impl Gpr {
    pub const RAX: Gpr = Gpr(0);
    pub const RCX: Gpr = Gpr(1);
    pub const RDX: Gpr = Gpr(2);
    pub const RBX: Gpr = Gpr(3);
    pub const RSP: Gpr = Gpr(4);
    pub const RBP: Gpr = Gpr(5);
    pub const RSI: Gpr = Gpr(6);
    pub const RDI: Gpr = Gpr(7);
    pub const R8: Gpr = Gpr(8);
    pub const R9: Gpr = Gpr(9);
    pub const R10: Gpr = Gpr(10);
    pub const R11: Gpr = Gpr(11);
    pub const R12: Gpr = Gpr(12);
    pub const R13: Gpr = Gpr(13);
    pub const R14: Gpr = Gpr(14);
    pub const R15: Gpr = Gpr(15);
    /// The legacy high-byte registers of byte instructions (inline asm only): `%ah %ch %dh
    /// %bh`, numbered 0x14..=0x17 so that their low three bits are their encoding (4..7)
    /// and no REX bit is set; an instruction that needs a REX prefix cannot name them.
    pub const AH: Gpr = Gpr(0x14);
    pub const CH: Gpr = Gpr(0x15);
    pub const DH: Gpr = Gpr(0x16);
    pub const BH: Gpr = Gpr(0x17);

    pub fn is_high_byte(self) -> bool {
        (0x14..=0x17).contains(&self.0)
    }

    /// The low three bits that go in ModRM/SIB/opcode.
    pub fn low3(self) -> u8 {
        self.0 & 7
    }
    /// Whether the register needs a REX extension bit (r8..r15).
    pub fn is_ext(self) -> bool {
        self.0 & 8 != 0
    }
    /// AT&T name (with `%`) at the given operand size.
    pub fn name(self, size: Size) -> &'static str {
        const N8: [&str; 16] = [
            "%al", "%cl", "%dl", "%bl", "%spl", "%bpl", "%sil", "%dil", "%r8b", "%r9b", "%r10b",
            "%r11b", "%r12b", "%r13b", "%r14b", "%r15b",
        ];
        const N16: [&str; 16] = [
            "%ax", "%cx", "%dx", "%bx", "%sp", "%bp", "%si", "%di", "%r8w", "%r9w", "%r10w",
            "%r11w", "%r12w", "%r13w", "%r14w", "%r15w",
        ];
        const N32: [&str; 16] = [
            "%eax", "%ecx", "%edx", "%ebx", "%esp", "%ebp", "%esi", "%edi", "%r8d", "%r9d",
            "%r10d", "%r11d", "%r12d", "%r13d", "%r14d", "%r15d",
        ];
        const N64: [&str; 16] = [
            "%rax", "%rcx", "%rdx", "%rbx", "%rsp", "%rbp", "%rsi", "%rdi", "%r8", "%r9", "%r10",
            "%r11", "%r12", "%r13", "%r14", "%r15",
        ];
        if self.is_high_byte() && size == Size::S8 {
            return ["%ah", "%ch", "%dh", "%bh"][(self.0 - 0x14) as usize];
        }
        let i = (self.0 & 15) as usize;
        match size {
            Size::S8 => N8[i],
            Size::S16 => N16[i],
            Size::S32 => N32[i],
            Size::S64 => N64[i],
        }
    }
}

/// An SSE register %xmm0..%xmm15.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Xmm(pub u8);

impl Xmm {
    pub fn low3(self) -> u8 {
        self.0 & 7
    }
    pub fn is_ext(self) -> bool {
        self.0 & 8 != 0
    }
}

/// Integer operand size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    S8,
    S16,
    S32,
    S64,
}

impl Size {
    pub fn bytes(self) -> u32 {
        match self {
            Size::S8 => 1,
            Size::S16 => 2,
            Size::S32 => 4,
            Size::S64 => 8,
        }
    }
    /// AT&T mnemonic suffix: b w l q.
    pub fn suffix(self) -> char {
        match self {
            Size::S8 => 'b',
            Size::S16 => 'w',
            Size::S32 => 'l',
            Size::S64 => 'q',
        }
    }
    pub const ALL: [Size; 4] = [Size::S8, Size::S16, Size::S32, Size::S64];
}

/// Condition codes in hardware order (the low nibble of Jcc/SETcc/CMOVcc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    O = 0,
    NO = 1,
    B = 2,
    AE = 3,
    E = 4,
    NE = 5,
    BE = 6,
    A = 7,
    S = 8,
    NS = 9,
    P = 10,
    NP = 11,
    L = 12,
    GE = 13,
    LE = 14,
    G = 15,
}

impl Cond {
    pub const ALL: [Cond; 16] = [
        Cond::O,
        Cond::NO,
        Cond::B,
        Cond::AE,
        Cond::E,
        Cond::NE,
        Cond::BE,
        Cond::A,
        Cond::S,
        Cond::NS,
        Cond::P,
        Cond::NP,
        Cond::L,
        Cond::GE,
        Cond::LE,
        Cond::G,
    ];
    /// The hardware condition number.
    pub fn code(self) -> u8 {
        self as u8
    }
    /// The opposite condition (flips the low bit, as the hardware numbering is paired).
    pub fn invert(self) -> Cond {
        Cond::ALL[(self.code() ^ 1) as usize]
    }
    /// The AT&T mnemonic suffix (`jne`, `setne`, `cmovne`).
    pub fn name(self) -> &'static str {
        const N: [&str; 16] = [
            "o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g",
        ];
        N[self.code() as usize]
    }
}

/// A label local to the function being assembled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// Segment override for a memory operand (TLS uses %fs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Fs,
    Gs,
}

/// A memory operand.
///
/// Forms:
/// - `disp(base, index, scale)` with any of base/index absent (`Mem::base`, `Mem::bis`,
///   `Mem::abs`); with `sym` set (kind Abs32S or TpOff32), `disp` is the addend and the
///   displacement is always a 32-bit field carrying the fixup (e.g. `%fs:sym@tpoff`,
///   `sym+8(%rbx)` with Abs32S).
/// - RIP-relative (`rip = true`, base and index absent) to a symbol (`Mem::rip`: Pc32,
///   GotPcRel family, GotTpOff) or to a label of this function (`Mem::rip_label`, e.g. a
///   jump table), `disp` being the addend in both cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mem {
    pub base: Option<Gpr>,
    /// Index register and scale (1, 2, 4 or 8). %rsp cannot be an index.
    pub index: Option<(Gpr, u8)>,
    pub disp: i32,
    pub sym: Option<(SymId, RelocKind)>,
    /// Address relative to the next instruction (`(%rip)`).
    pub rip: bool,
    /// RIP-relative to a label of the function being assembled (requires `rip`).
    pub label: Option<Label>,
    pub seg: Option<Seg>,
}

impl Mem {
    /// `disp(%base)`.
    pub fn base(base: Gpr, disp: i32) -> Mem {
        Mem {
            base: Some(base),
            index: None,
            disp,
            sym: None,
            rip: false,
            label: None,
            seg: None,
        }
    }
    /// `disp(%base,%index,scale)`.
    pub fn bis(base: Gpr, index: Gpr, scale: u8, disp: i32) -> Mem {
        Mem {
            index: Some((index, scale)),
            ..Mem::base(base, disp)
        }
    }
    /// `disp(,%index,scale)`.
    pub fn index_only(index: Gpr, scale: u8, disp: i32) -> Mem {
        Mem {
            base: None,
            ..Mem::bis(Gpr::RAX, index, scale, disp)
        }
    }
    /// An absolute address `disp` (encoded with a SIB byte, as gas does in 64-bit mode).
    pub fn abs(disp: i32) -> Mem {
        Mem {
            base: None,
            ..Mem::base(Gpr::RAX, disp)
        }
    }
    /// `sym+addend(%rip)` with the given relocation kind: Pc32 for data, one of the
    /// GotPcRel family for `sym@GOTPCREL(%rip)` (the encoder picks the exact GOTPCRELX
    /// kind gas would), GotTpOff for `sym@GOTTPOFF(%rip)`.
    pub fn rip(sym: SymId, kind: RelocKind, addend: i32) -> Mem {
        Mem {
            sym: Some((sym, kind)),
            rip: true,
            ..Mem::abs(addend)
        }
    }
    /// `label+addend(%rip)` for a label of the function being assembled.
    pub fn rip_label(label: Label, addend: i32) -> Mem {
        Mem {
            rip: true,
            label: Some(label),
            ..Mem::abs(addend)
        }
    }
    /// `%fs:sym@tpoff` (local-exec TLS: the thread-pointer offset as an absolute address).
    pub fn fs_tpoff(sym: SymId, addend: i32) -> Mem {
        Mem {
            sym: Some((sym, RelocKind::TpOff32)),
            seg: Some(Seg::Fs),
            ..Mem::abs(addend)
        }
    }
    /// `%fs:disp` (e.g. `%fs:0`, the thread pointer itself).
    pub fn fs_abs(disp: i32) -> Mem {
        Mem {
            seg: Some(Seg::Fs),
            ..Mem::abs(disp)
        }
    }
    /// The same address with a segment override.
    pub fn with_seg(self, seg: Seg) -> Mem {
        Mem {
            seg: Some(seg),
            ..self
        }
    }
    /// The same address with a symbol (`disp` becomes its addend): `sym@tpoff(%rax)`.
    pub fn with_sym(self, sym: SymId, kind: RelocKind) -> Mem {
        Mem {
            sym: Some((sym, kind)),
            ..self
        }
    }
}

/// A GPR or memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rm {
    Reg(Gpr),
    Mem(Mem),
}

/// A GPR, memory or immediate operand. Immediates are at most 32 bits sign-extended except
/// for `Mov` to a 64-bit register, which takes any i64 (`movabsq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rmi {
    Reg(Gpr),
    Mem(Mem),
    Imm(i64),
}

/// An XMM or memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XmmMem {
    Xmm(Xmm),
    Mem(Mem),
}

/// Two-operand integer ALU operations, numbered as their /digit in 80/81/83.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluOp {
    Add = 0,
    Or = 1,
    Adc = 2,
    Sbb = 3,
    And = 4,
    Sub = 5,
    Xor = 6,
    Cmp = 7,
}

impl AluOp {
    pub const ALL: [AluOp; 8] = [
        AluOp::Add,
        AluOp::Or,
        AluOp::Adc,
        AluOp::Sbb,
        AluOp::And,
        AluOp::Sub,
        AluOp::Xor,
        AluOp::Cmp,
    ];
    pub fn name(self) -> &'static str {
        ["add", "or", "adc", "sbb", "and", "sub", "xor", "cmp"][self as usize]
    }
}

/// One-operand group-3/group-5 style operations (F6/F7 /2../7, FE/FF /0 /1).
/// Mul/Imul1/Div/Idiv use rdx:rax (or ah:al / dx:ax / edx:eax) implicitly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
    Mul,
    Imul1,
    Div,
    Idiv,
    Inc,
    Dec,
}

impl UnOp {
    pub const ALL: [UnOp; 8] = [
        UnOp::Not,
        UnOp::Neg,
        UnOp::Mul,
        UnOp::Imul1,
        UnOp::Div,
        UnOp::Idiv,
        UnOp::Inc,
        UnOp::Dec,
    ];
    pub fn name(self) -> &'static str {
        match self {
            UnOp::Not => "not",
            UnOp::Neg => "neg",
            UnOp::Mul => "mul",
            UnOp::Imul1 => "imul",
            UnOp::Div => "div",
            UnOp::Idiv => "idiv",
            UnOp::Inc => "inc",
            UnOp::Dec => "dec",
        }
    }
}

/// Shifts and rotates, numbered as their /digit in C0/C1/D0-D3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShiftOp {
    Rol = 0,
    Ror = 1,
    Shl = 4,
    Shr = 5,
    Sar = 7,
}

impl ShiftOp {
    pub const ALL: [ShiftOp; 5] = [
        ShiftOp::Rol,
        ShiftOp::Ror,
        ShiftOp::Shl,
        ShiftOp::Shr,
        ShiftOp::Sar,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ShiftOp::Rol => "rol",
            ShiftOp::Ror => "ror",
            ShiftOp::Shl => "shl",
            ShiftOp::Shr => "shr",
            ShiftOp::Sar => "sar",
        }
    }
}

/// Bit counting / scanning: `op src, dst` (16, 32 or 64 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitOp {
    Bsf,
    Bsr,
    Popcnt,
    Lzcnt,
    Tzcnt,
}

impl BitOp {
    pub const ALL: [BitOp; 5] = [
        BitOp::Bsf,
        BitOp::Bsr,
        BitOp::Popcnt,
        BitOp::Lzcnt,
        BitOp::Tzcnt,
    ];
    pub fn name(self) -> &'static str {
        match self {
            BitOp::Bsf => "bsf",
            BitOp::Bsr => "bsr",
            BitOp::Popcnt => "popcnt",
            BitOp::Lzcnt => "lzcnt",
            BitOp::Tzcnt => "tzcnt",
        }
    }
}

/// SSE moves (`src` and `dst` may not both be memory). Movss/Movsd between registers merge
/// into the low lane; from memory they zero the upper lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XmmMovOp {
    Movss,
    Movsd,
    Movaps,
    Movapd,
    Movups,
    Movupd,
    Movdqa,
    Movdqu,
}

impl XmmMovOp {
    pub const ALL: [XmmMovOp; 8] = [
        XmmMovOp::Movss,
        XmmMovOp::Movsd,
        XmmMovOp::Movaps,
        XmmMovOp::Movapd,
        XmmMovOp::Movups,
        XmmMovOp::Movupd,
        XmmMovOp::Movdqa,
        XmmMovOp::Movdqu,
    ];
    pub fn name(self) -> &'static str {
        match self {
            XmmMovOp::Movss => "movss",
            XmmMovOp::Movsd => "movsd",
            XmmMovOp::Movaps => "movaps",
            XmmMovOp::Movapd => "movapd",
            XmmMovOp::Movups => "movups",
            XmmMovOp::Movupd => "movupd",
            XmmMovOp::Movdqa => "movdqa",
            XmmMovOp::Movdqu => "movdqu",
        }
    }
}

/// SSE `op src(xmm/m), dst(xmm)` operations: arithmetic (dst op= src), logic, compares
/// (set ZF/PF/CF, dst unchanged), float conversions (dst low lane = convert(src)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SseOp {
    Addss,
    Addsd,
    Subss,
    Subsd,
    Mulss,
    Mulsd,
    Divss,
    Divsd,
    Sqrtss,
    Sqrtsd,
    Minss,
    Minsd,
    Maxss,
    Maxsd,
    Ucomiss,
    Ucomisd,
    Comiss,
    Comisd,
    Cvtss2sd,
    Cvtsd2ss,
    Xorps,
    Xorpd,
    Andps,
    Andpd,
    Andnps,
    Andnpd,
    Orps,
    Orpd,
    Pxor,
    Unpcklps,
    Unpcklpd,
}

impl SseOp {
    pub const ALL: [SseOp; 31] = [
        SseOp::Addss,
        SseOp::Addsd,
        SseOp::Subss,
        SseOp::Subsd,
        SseOp::Mulss,
        SseOp::Mulsd,
        SseOp::Divss,
        SseOp::Divsd,
        SseOp::Sqrtss,
        SseOp::Sqrtsd,
        SseOp::Minss,
        SseOp::Minsd,
        SseOp::Maxss,
        SseOp::Maxsd,
        SseOp::Ucomiss,
        SseOp::Ucomisd,
        SseOp::Comiss,
        SseOp::Comisd,
        SseOp::Cvtss2sd,
        SseOp::Cvtsd2ss,
        SseOp::Xorps,
        SseOp::Xorpd,
        SseOp::Andps,
        SseOp::Andpd,
        SseOp::Andnps,
        SseOp::Andnpd,
        SseOp::Orps,
        SseOp::Orpd,
        SseOp::Pxor,
        SseOp::Unpcklps,
        SseOp::Unpcklpd,
    ];
    /// (mandatory prefix or 0, opcode after 0F, AT&T mnemonic)
    pub fn info(self) -> (u8, u8, &'static str) {
        match self {
            SseOp::Addss => (0xF3, 0x58, "addss"),
            SseOp::Addsd => (0xF2, 0x58, "addsd"),
            SseOp::Subss => (0xF3, 0x5C, "subss"),
            SseOp::Subsd => (0xF2, 0x5C, "subsd"),
            SseOp::Mulss => (0xF3, 0x59, "mulss"),
            SseOp::Mulsd => (0xF2, 0x59, "mulsd"),
            SseOp::Divss => (0xF3, 0x5E, "divss"),
            SseOp::Divsd => (0xF2, 0x5E, "divsd"),
            SseOp::Sqrtss => (0xF3, 0x51, "sqrtss"),
            SseOp::Sqrtsd => (0xF2, 0x51, "sqrtsd"),
            SseOp::Minss => (0xF3, 0x5D, "minss"),
            SseOp::Minsd => (0xF2, 0x5D, "minsd"),
            SseOp::Maxss => (0xF3, 0x5F, "maxss"),
            SseOp::Maxsd => (0xF2, 0x5F, "maxsd"),
            SseOp::Ucomiss => (0, 0x2E, "ucomiss"),
            SseOp::Ucomisd => (0x66, 0x2E, "ucomisd"),
            SseOp::Comiss => (0, 0x2F, "comiss"),
            SseOp::Comisd => (0x66, 0x2F, "comisd"),
            SseOp::Cvtss2sd => (0xF3, 0x5A, "cvtss2sd"),
            SseOp::Cvtsd2ss => (0xF2, 0x5A, "cvtsd2ss"),
            SseOp::Xorps => (0, 0x57, "xorps"),
            SseOp::Xorpd => (0x66, 0x57, "xorpd"),
            SseOp::Andps => (0, 0x54, "andps"),
            SseOp::Andpd => (0x66, 0x54, "andpd"),
            SseOp::Andnps => (0, 0x55, "andnps"),
            SseOp::Andnpd => (0x66, 0x55, "andnpd"),
            SseOp::Orps => (0, 0x56, "orps"),
            SseOp::Orpd => (0x66, 0x56, "orpd"),
            SseOp::Pxor => (0x66, 0xEF, "pxor"),
            SseOp::Unpcklps => (0, 0x14, "unpcklps"),
            SseOp::Unpcklpd => (0x66, 0x14, "unpcklpd"),
        }
    }
}

/// x87 operations on a memory operand, named by their AT&T mnemonic (the suffix gives the
/// memory size: s = 32-bit float / 16-bit int, l = 64-bit float / 32-bit int, t = 80-bit,
/// ll = 64-bit int).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum X87MemOp {
    Flds,
    Fldl,
    Fldt,
    Fstps,
    Fstpl,
    Fstpt,
    Fsts,
    Fstl,
    Filds,
    Fildl,
    Fildll,
    Fistps,
    Fistpl,
    Fistpll,
    Fisttps,
    Fisttpl,
    Fisttpll,
    Fnstcw,
    Fldcw,
}

impl X87MemOp {
    pub const ALL: [X87MemOp; 19] = [
        X87MemOp::Flds,
        X87MemOp::Fldl,
        X87MemOp::Fldt,
        X87MemOp::Fstps,
        X87MemOp::Fstpl,
        X87MemOp::Fstpt,
        X87MemOp::Fsts,
        X87MemOp::Fstl,
        X87MemOp::Filds,
        X87MemOp::Fildl,
        X87MemOp::Fildll,
        X87MemOp::Fistps,
        X87MemOp::Fistpl,
        X87MemOp::Fistpll,
        X87MemOp::Fisttps,
        X87MemOp::Fisttpl,
        X87MemOp::Fisttpll,
        X87MemOp::Fnstcw,
        X87MemOp::Fldcw,
    ];
    /// (opcode, /digit, AT&T mnemonic)
    pub fn info(self) -> (u8, u8, &'static str) {
        match self {
            X87MemOp::Flds => (0xD9, 0, "flds"),
            X87MemOp::Fldl => (0xDD, 0, "fldl"),
            X87MemOp::Fldt => (0xDB, 5, "fldt"),
            X87MemOp::Fstps => (0xD9, 3, "fstps"),
            X87MemOp::Fstpl => (0xDD, 3, "fstpl"),
            X87MemOp::Fstpt => (0xDB, 7, "fstpt"),
            X87MemOp::Fsts => (0xD9, 2, "fsts"),
            X87MemOp::Fstl => (0xDD, 2, "fstl"),
            X87MemOp::Filds => (0xDF, 0, "filds"),
            X87MemOp::Fildl => (0xDB, 0, "fildl"),
            X87MemOp::Fildll => (0xDF, 5, "fildll"),
            X87MemOp::Fistps => (0xDF, 3, "fistps"),
            X87MemOp::Fistpl => (0xDB, 3, "fistpl"),
            X87MemOp::Fistpll => (0xDF, 7, "fistpll"),
            X87MemOp::Fisttps => (0xDF, 1, "fisttps"),
            X87MemOp::Fisttpl => (0xDB, 1, "fisttpl"),
            X87MemOp::Fisttpll => (0xDD, 1, "fisttpll"),
            X87MemOp::Fnstcw => (0xD9, 7, "fnstcw"),
            X87MemOp::Fldcw => (0xD9, 5, "fldcw"),
        }
    }
}

/// x87 operations on a stack register %st(i), by AT&T mnemonic and AT&T operand order.
///
/// The arithmetic-and-pop forms are `op %st, %st(i)` and, as in gas and llvm-mc (the
/// SysV "reversed" convention), AT&T `fsubp` is the byte pattern DE E0+i, which computes
/// st(i) = st(0) - st(i) and pops; `fsubrp` (DE E8+i) computes st(i) = st(i) - st(0).
/// Likewise `fdivp` (DE F0+i): st(i) = st(0) / st(i); `fdivrp` (DE F8+i): st(i) = st(i) / st(0).
/// So with a in st(1) and b in st(0), a - b is `fsubrp` and a / b is `fdivrp` (what gcc emits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum X87RegOp {
    /// push a copy of st(i)
    Fld,
    /// store st(0) to st(i) and pop
    Fstp,
    Fxch,
    /// compare st(0) with st(i), set ZF/PF/CF, pop (unordered: quiet on QNaN)
    Fucomip,
    Fcomip,
    /// compare st(0) with st(i), set ZF/PF/CF, no pop
    Fucomi,
    Ffreep,
    Faddp,
    Fmulp,
    Fsubp,
    Fsubrp,
    Fdivp,
    Fdivrp,
}

impl X87RegOp {
    pub const ALL: [X87RegOp; 13] = [
        X87RegOp::Fld,
        X87RegOp::Fstp,
        X87RegOp::Fxch,
        X87RegOp::Fucomip,
        X87RegOp::Fcomip,
        X87RegOp::Fucomi,
        X87RegOp::Ffreep,
        X87RegOp::Faddp,
        X87RegOp::Fmulp,
        X87RegOp::Fsubp,
        X87RegOp::Fsubrp,
        X87RegOp::Fdivp,
        X87RegOp::Fdivrp,
    ];
    /// (first byte, second byte base (add i), AT&T mnemonic)
    pub fn info(self) -> (u8, u8, &'static str) {
        match self {
            X87RegOp::Fld => (0xD9, 0xC0, "fld"),
            X87RegOp::Fstp => (0xDD, 0xD8, "fstp"),
            X87RegOp::Fxch => (0xD9, 0xC8, "fxch"),
            X87RegOp::Fucomip => (0xDF, 0xE8, "fucomip"),
            X87RegOp::Fcomip => (0xDF, 0xF0, "fcomip"),
            X87RegOp::Fucomi => (0xDB, 0xE8, "fucomi"),
            X87RegOp::Ffreep => (0xDF, 0xC0, "ffreep"),
            X87RegOp::Faddp => (0xDE, 0xC0, "faddp"),
            X87RegOp::Fmulp => (0xDE, 0xC8, "fmulp"),
            X87RegOp::Fsubp => (0xDE, 0xE0, "fsubp"),
            X87RegOp::Fsubrp => (0xDE, 0xE8, "fsubrp"),
            X87RegOp::Fdivp => (0xDE, 0xF0, "fdivp"),
            X87RegOp::Fdivrp => (0xDE, 0xF8, "fdivrp"),
        }
    }
}

/// The port of `in`/`out`: %dx (a register field, so an inline-asm placeholder can name it;
/// it must end up as rdx) or an 8-bit immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Port {
    Dx(Gpr),
    Imm(u8),
}

/// How a `rep` prefix was written before `ins`/`outs`: gas puts the prefix of `rep insw`
/// after the operand-size prefix (66 F3 6D) but emits a `rep` written as a statement of its
/// own (`rep; insw`) where it stands (F3 66 6D).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepPrefix {
    None,
    /// `rep insw`
    Joined,
    /// `rep; insw`
    Alone,
}

/// x87 operations without operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum X87Op {
    Fchs,
    Fabs,
    Fldz,
    Fld1,
    /// st(0) = sqrt(st(0))
    Fsqrt,
    /// st(0) = round st(0) to an integer in the current rounding mode
    Frndint,
    /// st(0) = partial remainder of st(0) / st(1) (C2 set while incomplete)
    Fprem,
    /// `fnstsw %ax`: the status word to %ax (C3 C2 C0 for fprem/fcom loops)
    FnstswAx,
    /// st(1) = atan2(st(1), st(0)), pop
    Fpatan,
    Fsin,
    Fcos,
    /// st(1) = st(1) * log2(st(0)), pop
    Fyl2x,
    /// st(0) = 2^st(0) - 1
    F2xm1,
    /// st(0) = st(0) * 2^trunc(st(1))
    Fscale,
    Fldpi,
    Fldl2e,
    Fldln2,
    Fxam,
    Ftst,
}

impl X87Op {
    pub const ALL: [X87Op; 19] = [
        X87Op::Fchs,
        X87Op::Fabs,
        X87Op::Fldz,
        X87Op::Fld1,
        X87Op::Fsqrt,
        X87Op::Frndint,
        X87Op::Fprem,
        X87Op::FnstswAx,
        X87Op::Fpatan,
        X87Op::Fsin,
        X87Op::Fcos,
        X87Op::Fyl2x,
        X87Op::F2xm1,
        X87Op::Fscale,
        X87Op::Fldpi,
        X87Op::Fldl2e,
        X87Op::Fldln2,
        X87Op::Fxam,
        X87Op::Ftst,
    ];
    /// (bytes, AT&T text)
    pub fn info(self) -> ([u8; 2], &'static str) {
        match self {
            X87Op::Fchs => ([0xD9, 0xE0], "fchs"),
            X87Op::Fabs => ([0xD9, 0xE1], "fabs"),
            X87Op::Fldz => ([0xD9, 0xEE], "fldz"),
            X87Op::Fld1 => ([0xD9, 0xE8], "fld1"),
            X87Op::Fsqrt => ([0xD9, 0xFA], "fsqrt"),
            X87Op::Frndint => ([0xD9, 0xFC], "frndint"),
            X87Op::Fprem => ([0xD9, 0xF8], "fprem"),
            X87Op::FnstswAx => ([0xDF, 0xE0], "fnstsw %ax"),
            X87Op::Fpatan => ([0xD9, 0xF3], "fpatan"),
            X87Op::Fsin => ([0xD9, 0xFE], "fsin"),
            X87Op::Fcos => ([0xD9, 0xFF], "fcos"),
            X87Op::Fyl2x => ([0xD9, 0xF1], "fyl2x"),
            X87Op::F2xm1 => ([0xD9, 0xF0], "f2xm1"),
            X87Op::Fscale => ([0xD9, 0xFD], "fscale"),
            X87Op::Fldpi => ([0xD9, 0xEB], "fldpi"),
            X87Op::Fldl2e => ([0xD9, 0xEA], "fldl2e"),
            X87Op::Fldln2 => ([0xD9, 0xED], "fldln2"),
            X87Op::Fxam => ([0xD9, 0xE5], "fxam"),
            X87Op::Ftst => ([0xD9, 0xE4], "ftst"),
        }
    }
}

/// Instructions without operands that only inline asm uses (the `lock` prefix, written
/// alone on its line as gas allows, among them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlainOp {
    Cpuid,
    Rdtsc,
    Rdtscp,
    Pause,
    Lfence,
    Sfence,
    Clc,
    Stc,
    Cld,
    Std,
    Int3,
    Hlt,
    /// The lock prefix (F0) before the next instruction.
    Lock,
}

impl PlainOp {
    pub const ALL: [PlainOp; 13] = [
        PlainOp::Cpuid,
        PlainOp::Rdtsc,
        PlainOp::Rdtscp,
        PlainOp::Pause,
        PlainOp::Lfence,
        PlainOp::Sfence,
        PlainOp::Clc,
        PlainOp::Stc,
        PlainOp::Cld,
        PlainOp::Std,
        PlainOp::Int3,
        PlainOp::Hlt,
        PlainOp::Lock,
    ];
    /// (bytes, AT&T mnemonic)
    pub fn info(self) -> (&'static [u8], &'static str) {
        match self {
            PlainOp::Cpuid => (&[0x0F, 0xA2], "cpuid"),
            PlainOp::Rdtsc => (&[0x0F, 0x31], "rdtsc"),
            PlainOp::Rdtscp => (&[0x0F, 0x01, 0xF9], "rdtscp"),
            PlainOp::Pause => (&[0xF3, 0x90], "pause"),
            PlainOp::Lfence => (&[0x0F, 0xAE, 0xE8], "lfence"),
            PlainOp::Sfence => (&[0x0F, 0xAE, 0xF8], "sfence"),
            PlainOp::Clc => (&[0xF8], "clc"),
            PlainOp::Stc => (&[0xF9], "stc"),
            PlainOp::Cld => (&[0xFC], "cld"),
            PlainOp::Std => (&[0xFD], "std"),
            PlainOp::Int3 => (&[0xCC], "int3"),
            PlainOp::Hlt => (&[0xF4], "hlt"),
            PlainOp::Lock => (&[0xF0], "lock"),
        }
    }
}

/// A machine instruction over physical registers, or an assembler pseudo-item.
///
/// AT&T operand order throughout: `src` then `dst`. Sizes are the integer operation size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    // ---- pseudo-items (the assembler lays these out) ----
    /// Defines a label at the current offset.
    Label(Label),
    /// Pads with multi-byte nops (gas's patterns) to a multiple of `n` bytes (power of two).
    Align(u32),
    /// A 32-bit `target - base` (`.long target-base`), resolved by the assembler.
    JumpTableEntry {
        target: Label,
        base: Label,
    },

    // ---- integer moves ----
    /// mov: reg/mem/imm to reg/mem (not mem to mem). An immediate to a 64-bit register is
    /// encoded in the shortest form: `movl $u32` (zero-extends), `movq $simm32` (C7) or
    /// `movabsq $imm64`; otherwise the immediate must fit the size (sign- or zero-extended).
    Mov {
        size: Size,
        src: Rmi,
        dst: Rm,
    },
    /// Load a symbol's absolute address as an immediate (non-PIC): kind Abs32 gives
    /// `movl $sym, %r32`, Abs32S `movq $sym, %r64`, Abs64 `movabsq $sym, %r64`.
    MovSymImm {
        kind: RelocKind,
        sym: SymId,
        addend: i32,
        dst: Gpr,
    },
    /// movzx / movsx: `from` is S8 or S16 (or S32 with `signed`: movslq), `to` wider.
    MovX {
        signed: bool,
        from: Size,
        to: Size,
        src: Rm,
        dst: Gpr,
    },
    /// lea (S32 or S64; S16 accepted too).
    Lea {
        size: Size,
        src: Mem,
        dst: Gpr,
    },
    /// xchg a reg with a reg or memory (memory xchg is implicitly locked).
    Xchg {
        size: Size,
        src: Gpr,
        dst: Rm,
    },
    /// push / pop a 64-bit register.
    Push {
        src: Gpr,
    },
    Pop {
        dst: Gpr,
    },

    // ---- integer arithmetic ----
    /// `op src, dst`: dst = dst op src (Cmp only sets flags). An immediate is any value of
    /// the operation size in signed or unsigned spelling (S64: a sign-extended 32-bit value).
    Alu {
        op: AluOp,
        size: Size,
        src: Rmi,
        dst: Rm,
    },
    /// `test src, dst`: src is a register or an immediate.
    Test {
        size: Size,
        src: Rmi,
        dst: Rm,
    },
    /// dst *= src (16/32/64).
    Imul2 {
        size: Size,
        src: Rm,
        dst: Gpr,
    },
    /// dst = src * imm (16/32/64).
    Imul3 {
        size: Size,
        imm: i32,
        src: Rm,
        dst: Gpr,
    },
    Unary {
        op: UnOp,
        size: Size,
        dst: Rm,
    },
    /// Shift/rotate by an immediate (`Some(n)`) or by %cl (`None`).
    Shift {
        op: ShiftOp,
        size: Size,
        amount: Option<u8>,
        dst: Rm,
    },
    /// Sign-extend the accumulator into rdx/edx/dx: cwtd (S16), cltd (S32), cqto (S64).
    SignExtendDx {
        size: Size,
    },
    /// Sign-extend within the accumulator to `size`: cbtw (S16), cwtl (S32), cltq (S64).
    SignExtendAx {
        size: Size,
    },
    Bswap {
        size: Size,
        reg: Gpr,
    },
    /// bsf/bsr/popcnt/lzcnt/tzcnt src, dst (16/32/64).
    BitCount {
        op: BitOp,
        size: Size,
        src: Rm,
        dst: Gpr,
    },
    /// setcc to a byte register or memory.
    Setcc {
        cond: Cond,
        dst: Rm,
    },
    /// cmovcc src, dst (16/32/64).
    Cmov {
        cond: Cond,
        size: Size,
        src: Rm,
        dst: Gpr,
    },

    // ---- atomics, strings ----
    /// lock cmpxchg src, mem (compares with the accumulator).
    LockCmpxchg {
        size: Size,
        src: Gpr,
        dst: Mem,
    },
    /// lock xadd src, mem.
    LockXadd {
        size: Size,
        src: Gpr,
        dst: Mem,
    },
    Mfence,
    /// rep movsb (copy rcx bytes from (rsi) to (rdi)).
    RepMovsb,
    /// rep stosb (store al to rcx bytes at (rdi)).
    RepStosb,

    // ---- control flow ----
    /// Jump to a label (short or near, chosen by the assembler).
    Jmp {
        target: Label,
    },
    Jcc {
        cond: Cond,
        target: Label,
    },
    /// jmp *reg / jmp *mem.
    JmpInd {
        target: Rm,
    },
    /// call a symbol: kind Plt32 prints `call sym@PLT`, Pc32 prints `call sym`.
    CallSym {
        sym: SymId,
        kind: RelocKind,
    },
    /// call *reg / call *mem.
    CallInd {
        target: Rm,
    },
    Ret,
    Leave,
    Ud2,
    Nop,

    // ---- SSE ----
    XmmMov {
        op: XmmMovOp,
        src: XmmMem,
        dst: XmmMem,
    },
    /// `op src, dst` (see `SseOp`).
    Sse {
        op: SseOp,
        src: XmmMem,
        dst: Xmm,
    },
    /// movd/movq GPR to XMM (S32/S64).
    MovGprToXmm {
        size: Size,
        src: Rm,
        dst: Xmm,
    },
    /// movd/movq XMM to GPR (S32/S64).
    MovXmmToGpr {
        size: Size,
        src: Xmm,
        dst: Rm,
    },
    /// cvtsi2ss/cvtsi2sd from a 32- or 64-bit integer (`double` picks sd).
    CvtSi2F {
        double: bool,
        size: Size,
        src: Rm,
        dst: Xmm,
    },
    /// cvttss2si/cvttsd2si (truncating) to a 32- or 64-bit register.
    CvtTF2Si {
        double: bool,
        size: Size,
        src: XmmMem,
        dst: Gpr,
    },

    // ---- x87 ----
    X87Mem {
        op: X87MemOp,
        mem: Mem,
    },
    X87Reg {
        op: X87RegOp,
        st: u8,
    },
    X87 {
        op: X87Op,
    },
    /// An instruction without operands (see `PlainOp`).
    Plain {
        op: PlainOp,
    },
    /// Port I/O (inline asm only): `in` reads the port into the accumulator `acc` (al, ax or
    /// eax by `size`), `out` writes it there. `acc` is a register field so that a
    /// placeholder can name it; it must end up as rax.
    PortIo {
        out: bool,
        size: Size,
        acc: Gpr,
        port: Port,
    },
    /// `ins` (port %dx to (%rdi)) or `outs` ((%rsi) to port %dx), 8/16/32 bits, optionally
    /// repeated rcx times.
    PortString {
        out: bool,
        size: Size,
        rep: RepPrefix,
    },
}

/// The encoder could not represent an instruction (an internal error of the caller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    pub message: String,
}

impl EncodeError {
    pub fn new(inst: &Inst, why: &str) -> EncodeError {
        EncodeError {
            message: format!("cannot encode {inst:?}: {why}"),
        }
    }
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EncodeError {}

// The visitors are generic (a `dyn` closure is one instance): register mapping after
// allocation, once per template, inlines its closures.
impl Rm {
    fn visit<G, M>(&mut self, g: &mut G, m: &mut M)
    where
        G: FnMut(&mut Gpr) + ?Sized,
        M: FnMut(&mut Mem) + ?Sized,
    {
        match self {
            Rm::Reg(r) => g(r),
            Rm::Mem(x) => m(x),
        }
    }
}

impl Rmi {
    fn visit<G, M>(&mut self, g: &mut G, m: &mut M)
    where
        G: FnMut(&mut Gpr) + ?Sized,
        M: FnMut(&mut Mem) + ?Sized,
    {
        match self {
            Rmi::Reg(r) => g(r),
            Rmi::Mem(x) => m(x),
            Rmi::Imm(_) => {}
        }
    }
}

impl XmmMem {
    fn visit<X, M>(&mut self, x: &mut X, m: &mut M)
    where
        X: FnMut(&mut Xmm) + ?Sized,
        M: FnMut(&mut Mem) + ?Sized,
    {
        match self {
            XmmMem::Xmm(r) => x(r),
            XmmMem::Mem(a) => m(a),
        }
    }
}

impl Mem {
    /// Rewrites the base and index registers.
    pub fn map_regs<G: FnMut(Gpr) -> Gpr + ?Sized>(&mut self, g: &mut G) {
        if let Some(b) = &mut self.base {
            *b = g(*b);
        }
        if let Some((i, _)) = &mut self.index {
            *i = g(*i);
        }
    }
}

impl Inst {
    /// Visits every operand: GPR operands (not address registers), XMM operands and memory
    /// operands. An exhaustive match, so a new variant must say where its operands are.
    pub fn visit_operands<G, X, M>(&mut self, g: &mut G, x: &mut X, m: &mut M)
    where
        G: FnMut(&mut Gpr) + ?Sized,
        X: FnMut(&mut Xmm) + ?Sized,
        M: FnMut(&mut Mem) + ?Sized,
    {
        use Inst::*;
        match self {
            Label(_) | Align(_) | JumpTableEntry { .. } => {}
            Mov { src, dst, .. } | Alu { src, dst, .. } | Test { src, dst, .. } => {
                src.visit(g, m);
                dst.visit(g, m);
            }
            MovSymImm { dst, .. } => g(dst),
            MovX { src, dst, .. }
            | Imul2 { src, dst, .. }
            | Imul3 { src, dst, .. }
            | BitCount { src, dst, .. }
            | Cmov { src, dst, .. } => {
                src.visit(g, m);
                g(dst);
            }
            Lea { src, dst, .. } => {
                m(src);
                g(dst);
            }
            Xchg { src, dst, .. } => {
                g(src);
                dst.visit(g, m);
            }
            Push { src } => g(src),
            Pop { dst } => g(dst),
            Unary { dst, .. } | Shift { dst, .. } | Setcc { dst, .. } => dst.visit(g, m),
            Bswap { reg, .. } => g(reg),
            LockCmpxchg { src, dst, .. } | LockXadd { src, dst, .. } => {
                g(src);
                m(dst);
            }
            JmpInd { target } | CallInd { target } => target.visit(g, m),
            XmmMov { src, dst, .. } => {
                src.visit(x, m);
                dst.visit(x, m);
            }
            Sse { src, dst, .. } => {
                src.visit(x, m);
                x(dst);
            }
            MovGprToXmm { src, dst, .. } | CvtSi2F { src, dst, .. } => {
                src.visit(g, m);
                x(dst);
            }
            MovXmmToGpr { src, dst, .. } => {
                x(src);
                dst.visit(g, m);
            }
            CvtTF2Si { src, dst, .. } => {
                src.visit(x, m);
                g(dst);
            }
            X87Mem { mem, .. } => m(mem),
            PortIo { acc, port, .. } => {
                g(acc);
                if let Port::Dx(dx) = port {
                    g(dx);
                }
            }
            SignExtendDx { .. }
            | SignExtendAx { .. }
            | Mfence
            | RepMovsb
            | RepStosb
            | Jmp { .. }
            | Jcc { .. }
            | CallSym { .. }
            | Ret
            | Leave
            | Ud2
            | Nop
            | X87Reg { .. }
            | X87 { .. }
            | Plain { .. }
            | PortString { .. } => {}
        }
    }

    /// Rewrites every register, address registers included (e.g. virtual to physical).
    pub fn map_regs(&mut self, g: &mut dyn FnMut(Gpr) -> Gpr, x: &mut dyn FnMut(Xmm) -> Xmm) {
        // Operands first, then addresses (each pass lends `g` to one closure only).
        self.visit_operands(&mut |r| *r = g(*r), &mut |r| *r = x(*r), &mut |_| {});
        self.visit_operands(&mut |_| {}, &mut |_| {}, &mut |a| a.map_regs(g));
    }

    /// As [`map_regs`](Self::map_regs) with pure mappings, in one pass.
    pub fn map_regs_pure(&mut self, g: &impl Fn(Gpr) -> Gpr, x: &impl Fn(Xmm) -> Xmm) {
        self.visit_operands(
            &mut |r: &mut Gpr| *r = g(*r),
            &mut |r: &mut Xmm| *r = x(*r),
            &mut |a: &mut Mem| a.map_regs(&mut |r| g(r)),
        );
    }
}
