//! Register schemas: for each architecture, the registers a call plan may name and the
//! numbers plans use for them.
//!
//! A register number means nothing without its schema, which is why every printed plan
//! carries a schema digest (see `neverc-abi`). The numbers are the DWARF register numbers of
//! each architecture's psABI, so they are stable, documented elsewhere, and the same numbers
//! the debug information uses:
//!
//! | arch | general | floating point / vector |
//! |---|---|---|
//! | x86-64 | rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8–r15 8–15 | xmm0–15 17–32, st0–7 33–40 |
//! | AArch64 | x0–x30 0–30, sp 31 | v0–v31 64–95 |
//! | Arm (32) | r0–r15 0–15 | s0–s31 64–95, d0–d31 256–287 |
//! | RISC-V | x0–x31 0–31 | f0–f31 32–63 |
//! | MIPS | $0–$31 0–31 | $f0–$f31 32–63 |
//! | AVR | r0–r31 0–31 | — |
//!
//! Names are matched case-insensitively, in the canonical spelling (`rdi`, `x8`, `r0`, `x10`,
//! `$4`) or an ABI alias (`a0`, `fa0`, `$a0`, `lr`).

use crate::Arch;

/// What a register holds; a plan location's register must have a class able to hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegClass {
    /// General-purpose integer register.
    Gpr,
    /// Scalar floating-point register (Arm s/d, RISC-V f, MIPS $f).
    Float,
    /// SIMD register that also holds scalar floats (x86-64 xmm, AArch64 v).
    Vector,
    /// x87 stack register (x86-64 `long double` results).
    X87,
    /// Stack pointer and other registers a plan never assigns.
    Special,
}

/// One register of a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Register {
    /// Canonical lower-case name.
    pub name: &'static str,
    /// Number used in call plans (the DWARF number).
    pub number: u16,
    pub class: RegClass,
    /// Width in bits.
    pub bits: u16,
}

const fn reg(name: &'static str, number: u16, class: RegClass, bits: u16) -> Register {
    Register {
        name,
        number,
        class,
        bits,
    }
}

use RegClass::*;

/// The registers of one architecture (for RISC-V, of one XLEN).
#[derive(Debug)]
pub struct RegisterSchema {
    /// Short stable name of the schema (`x86_64`, `aarch64`, `arm`, `riscv32`, ...).
    pub name: &'static str,
    pub registers: &'static [Register],
    aliases: &'static [(&'static str, u16)],
}

impl RegisterSchema {
    /// The register with this plan number.
    pub fn get(&self, number: u16) -> Option<&'static Register> {
        self.registers.iter().find(|r| r.number == number)
    }

    /// The canonical name of register `number`.
    pub fn name(&self, number: u16) -> Option<&'static str> {
        self.get(number).map(|r| r.name)
    }

    /// The plan number of a register given by canonical name or alias (case-insensitive,
    /// surrounding whitespace ignored).
    pub fn number(&self, name: &str) -> Option<u16> {
        let name = name.trim();
        self.registers
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .map(|r| r.number)
            .or_else(|| {
                self.aliases
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(name))
                    .map(|&(_, n)| n)
            })
    }
}

/// The register schema of an architecture.
pub fn schema(arch: Arch) -> &'static RegisterSchema {
    match arch {
        Arch::X86_64 => &X86_64,
        Arch::AArch64 => &AARCH64,
        Arch::Arm => &ARM,
        Arch::Riscv32 => &RISCV32,
        Arch::Riscv64 => &RISCV64,
        Arch::Mips32 => &MIPS32,
        Arch::Avr => &AVR,
    }
}

static X86_64: RegisterSchema = RegisterSchema {
    name: "x86_64",
    registers: X86_64_REGS,
    aliases: NO_ALIASES,
};
static AARCH64: RegisterSchema = RegisterSchema {
    name: "aarch64",
    registers: AARCH64_REGS,
    aliases: AARCH64_ALIASES,
};
static ARM: RegisterSchema = RegisterSchema {
    name: "arm",
    registers: ARM_REGS,
    aliases: ARM_ALIASES,
};
static RISCV32: RegisterSchema = RegisterSchema {
    name: "riscv32",
    registers: RISCV32_REGS,
    aliases: RISCV_ALIASES,
};
static RISCV64: RegisterSchema = RegisterSchema {
    name: "riscv64",
    registers: RISCV64_REGS,
    aliases: RISCV_ALIASES,
};
static MIPS32: RegisterSchema = RegisterSchema {
    name: "mips32",
    registers: MIPS32_REGS,
    aliases: MIPS_ALIASES,
};
static AVR: RegisterSchema = RegisterSchema {
    name: "avr",
    registers: AVR_REGS,
    aliases: AVR_ALIASES,
};

static X86_64_REGS: &[Register] = &[
    reg("rax", 0, Gpr, 64),
    reg("rdx", 1, Gpr, 64),
    reg("rcx", 2, Gpr, 64),
    reg("rbx", 3, Gpr, 64),
    reg("rsi", 4, Gpr, 64),
    reg("rdi", 5, Gpr, 64),
    reg("rbp", 6, Gpr, 64),
    reg("rsp", 7, Gpr, 64),
    reg("r8", 8, Gpr, 64),
    reg("r9", 9, Gpr, 64),
    reg("r10", 10, Gpr, 64),
    reg("r11", 11, Gpr, 64),
    reg("r12", 12, Gpr, 64),
    reg("r13", 13, Gpr, 64),
    reg("r14", 14, Gpr, 64),
    reg("r15", 15, Gpr, 64),
    reg("xmm0", 17, Vector, 128),
    reg("xmm1", 18, Vector, 128),
    reg("xmm2", 19, Vector, 128),
    reg("xmm3", 20, Vector, 128),
    reg("xmm4", 21, Vector, 128),
    reg("xmm5", 22, Vector, 128),
    reg("xmm6", 23, Vector, 128),
    reg("xmm7", 24, Vector, 128),
    reg("xmm8", 25, Vector, 128),
    reg("xmm9", 26, Vector, 128),
    reg("xmm10", 27, Vector, 128),
    reg("xmm11", 28, Vector, 128),
    reg("xmm12", 29, Vector, 128),
    reg("xmm13", 30, Vector, 128),
    reg("xmm14", 31, Vector, 128),
    reg("xmm15", 32, Vector, 128),
    reg("st0", 33, X87, 80),
    reg("st1", 34, X87, 80),
    reg("st2", 35, X87, 80),
    reg("st3", 36, X87, 80),
    reg("st4", 37, X87, 80),
    reg("st5", 38, X87, 80),
    reg("st6", 39, X87, 80),
    reg("st7", 40, X87, 80),
];

static AARCH64_REGS: &[Register] = &[
    reg("x0", 0, Gpr, 64),
    reg("x1", 1, Gpr, 64),
    reg("x2", 2, Gpr, 64),
    reg("x3", 3, Gpr, 64),
    reg("x4", 4, Gpr, 64),
    reg("x5", 5, Gpr, 64),
    reg("x6", 6, Gpr, 64),
    reg("x7", 7, Gpr, 64),
    reg("x8", 8, Gpr, 64),
    reg("x9", 9, Gpr, 64),
    reg("x10", 10, Gpr, 64),
    reg("x11", 11, Gpr, 64),
    reg("x12", 12, Gpr, 64),
    reg("x13", 13, Gpr, 64),
    reg("x14", 14, Gpr, 64),
    reg("x15", 15, Gpr, 64),
    reg("x16", 16, Gpr, 64),
    reg("x17", 17, Gpr, 64),
    reg("x18", 18, Gpr, 64),
    reg("x19", 19, Gpr, 64),
    reg("x20", 20, Gpr, 64),
    reg("x21", 21, Gpr, 64),
    reg("x22", 22, Gpr, 64),
    reg("x23", 23, Gpr, 64),
    reg("x24", 24, Gpr, 64),
    reg("x25", 25, Gpr, 64),
    reg("x26", 26, Gpr, 64),
    reg("x27", 27, Gpr, 64),
    reg("x28", 28, Gpr, 64),
    reg("x29", 29, Gpr, 64),
    reg("x30", 30, Gpr, 64),
    reg("sp", 31, Special, 64),
    reg("v0", 64, Vector, 128),
    reg("v1", 65, Vector, 128),
    reg("v2", 66, Vector, 128),
    reg("v3", 67, Vector, 128),
    reg("v4", 68, Vector, 128),
    reg("v5", 69, Vector, 128),
    reg("v6", 70, Vector, 128),
    reg("v7", 71, Vector, 128),
    reg("v8", 72, Vector, 128),
    reg("v9", 73, Vector, 128),
    reg("v10", 74, Vector, 128),
    reg("v11", 75, Vector, 128),
    reg("v12", 76, Vector, 128),
    reg("v13", 77, Vector, 128),
    reg("v14", 78, Vector, 128),
    reg("v15", 79, Vector, 128),
    reg("v16", 80, Vector, 128),
    reg("v17", 81, Vector, 128),
    reg("v18", 82, Vector, 128),
    reg("v19", 83, Vector, 128),
    reg("v20", 84, Vector, 128),
    reg("v21", 85, Vector, 128),
    reg("v22", 86, Vector, 128),
    reg("v23", 87, Vector, 128),
    reg("v24", 88, Vector, 128),
    reg("v25", 89, Vector, 128),
    reg("v26", 90, Vector, 128),
    reg("v27", 91, Vector, 128),
    reg("v28", 92, Vector, 128),
    reg("v29", 93, Vector, 128),
    reg("v30", 94, Vector, 128),
    reg("v31", 95, Vector, 128),
];

static ARM_REGS: &[Register] = &[
    reg("r0", 0, Gpr, 32),
    reg("r1", 1, Gpr, 32),
    reg("r2", 2, Gpr, 32),
    reg("r3", 3, Gpr, 32),
    reg("r4", 4, Gpr, 32),
    reg("r5", 5, Gpr, 32),
    reg("r6", 6, Gpr, 32),
    reg("r7", 7, Gpr, 32),
    reg("r8", 8, Gpr, 32),
    reg("r9", 9, Gpr, 32),
    reg("r10", 10, Gpr, 32),
    reg("r11", 11, Gpr, 32),
    reg("r12", 12, Gpr, 32),
    reg("r13", 13, Gpr, 32),
    reg("r14", 14, Gpr, 32),
    reg("r15", 15, Gpr, 32),
    reg("s0", 64, Float, 32),
    reg("s1", 65, Float, 32),
    reg("s2", 66, Float, 32),
    reg("s3", 67, Float, 32),
    reg("s4", 68, Float, 32),
    reg("s5", 69, Float, 32),
    reg("s6", 70, Float, 32),
    reg("s7", 71, Float, 32),
    reg("s8", 72, Float, 32),
    reg("s9", 73, Float, 32),
    reg("s10", 74, Float, 32),
    reg("s11", 75, Float, 32),
    reg("s12", 76, Float, 32),
    reg("s13", 77, Float, 32),
    reg("s14", 78, Float, 32),
    reg("s15", 79, Float, 32),
    reg("s16", 80, Float, 32),
    reg("s17", 81, Float, 32),
    reg("s18", 82, Float, 32),
    reg("s19", 83, Float, 32),
    reg("s20", 84, Float, 32),
    reg("s21", 85, Float, 32),
    reg("s22", 86, Float, 32),
    reg("s23", 87, Float, 32),
    reg("s24", 88, Float, 32),
    reg("s25", 89, Float, 32),
    reg("s26", 90, Float, 32),
    reg("s27", 91, Float, 32),
    reg("s28", 92, Float, 32),
    reg("s29", 93, Float, 32),
    reg("s30", 94, Float, 32),
    reg("s31", 95, Float, 32),
    reg("d0", 256, Float, 64),
    reg("d1", 257, Float, 64),
    reg("d2", 258, Float, 64),
    reg("d3", 259, Float, 64),
    reg("d4", 260, Float, 64),
    reg("d5", 261, Float, 64),
    reg("d6", 262, Float, 64),
    reg("d7", 263, Float, 64),
    reg("d8", 264, Float, 64),
    reg("d9", 265, Float, 64),
    reg("d10", 266, Float, 64),
    reg("d11", 267, Float, 64),
    reg("d12", 268, Float, 64),
    reg("d13", 269, Float, 64),
    reg("d14", 270, Float, 64),
    reg("d15", 271, Float, 64),
    reg("d16", 272, Float, 64),
    reg("d17", 273, Float, 64),
    reg("d18", 274, Float, 64),
    reg("d19", 275, Float, 64),
    reg("d20", 276, Float, 64),
    reg("d21", 277, Float, 64),
    reg("d22", 278, Float, 64),
    reg("d23", 279, Float, 64),
    reg("d24", 280, Float, 64),
    reg("d25", 281, Float, 64),
    reg("d26", 282, Float, 64),
    reg("d27", 283, Float, 64),
    reg("d28", 284, Float, 64),
    reg("d29", 285, Float, 64),
    reg("d30", 286, Float, 64),
    reg("d31", 287, Float, 64),
];

static RISCV32_REGS: &[Register] = &[
    reg("x0", 0, Gpr, 32),
    reg("x1", 1, Gpr, 32),
    reg("x2", 2, Gpr, 32),
    reg("x3", 3, Gpr, 32),
    reg("x4", 4, Gpr, 32),
    reg("x5", 5, Gpr, 32),
    reg("x6", 6, Gpr, 32),
    reg("x7", 7, Gpr, 32),
    reg("x8", 8, Gpr, 32),
    reg("x9", 9, Gpr, 32),
    reg("x10", 10, Gpr, 32),
    reg("x11", 11, Gpr, 32),
    reg("x12", 12, Gpr, 32),
    reg("x13", 13, Gpr, 32),
    reg("x14", 14, Gpr, 32),
    reg("x15", 15, Gpr, 32),
    reg("x16", 16, Gpr, 32),
    reg("x17", 17, Gpr, 32),
    reg("x18", 18, Gpr, 32),
    reg("x19", 19, Gpr, 32),
    reg("x20", 20, Gpr, 32),
    reg("x21", 21, Gpr, 32),
    reg("x22", 22, Gpr, 32),
    reg("x23", 23, Gpr, 32),
    reg("x24", 24, Gpr, 32),
    reg("x25", 25, Gpr, 32),
    reg("x26", 26, Gpr, 32),
    reg("x27", 27, Gpr, 32),
    reg("x28", 28, Gpr, 32),
    reg("x29", 29, Gpr, 32),
    reg("x30", 30, Gpr, 32),
    reg("x31", 31, Gpr, 32),
    reg("f0", 32, Float, 64),
    reg("f1", 33, Float, 64),
    reg("f2", 34, Float, 64),
    reg("f3", 35, Float, 64),
    reg("f4", 36, Float, 64),
    reg("f5", 37, Float, 64),
    reg("f6", 38, Float, 64),
    reg("f7", 39, Float, 64),
    reg("f8", 40, Float, 64),
    reg("f9", 41, Float, 64),
    reg("f10", 42, Float, 64),
    reg("f11", 43, Float, 64),
    reg("f12", 44, Float, 64),
    reg("f13", 45, Float, 64),
    reg("f14", 46, Float, 64),
    reg("f15", 47, Float, 64),
    reg("f16", 48, Float, 64),
    reg("f17", 49, Float, 64),
    reg("f18", 50, Float, 64),
    reg("f19", 51, Float, 64),
    reg("f20", 52, Float, 64),
    reg("f21", 53, Float, 64),
    reg("f22", 54, Float, 64),
    reg("f23", 55, Float, 64),
    reg("f24", 56, Float, 64),
    reg("f25", 57, Float, 64),
    reg("f26", 58, Float, 64),
    reg("f27", 59, Float, 64),
    reg("f28", 60, Float, 64),
    reg("f29", 61, Float, 64),
    reg("f30", 62, Float, 64),
    reg("f31", 63, Float, 64),
];

static RISCV64_REGS: &[Register] = &[
    reg("x0", 0, Gpr, 64),
    reg("x1", 1, Gpr, 64),
    reg("x2", 2, Gpr, 64),
    reg("x3", 3, Gpr, 64),
    reg("x4", 4, Gpr, 64),
    reg("x5", 5, Gpr, 64),
    reg("x6", 6, Gpr, 64),
    reg("x7", 7, Gpr, 64),
    reg("x8", 8, Gpr, 64),
    reg("x9", 9, Gpr, 64),
    reg("x10", 10, Gpr, 64),
    reg("x11", 11, Gpr, 64),
    reg("x12", 12, Gpr, 64),
    reg("x13", 13, Gpr, 64),
    reg("x14", 14, Gpr, 64),
    reg("x15", 15, Gpr, 64),
    reg("x16", 16, Gpr, 64),
    reg("x17", 17, Gpr, 64),
    reg("x18", 18, Gpr, 64),
    reg("x19", 19, Gpr, 64),
    reg("x20", 20, Gpr, 64),
    reg("x21", 21, Gpr, 64),
    reg("x22", 22, Gpr, 64),
    reg("x23", 23, Gpr, 64),
    reg("x24", 24, Gpr, 64),
    reg("x25", 25, Gpr, 64),
    reg("x26", 26, Gpr, 64),
    reg("x27", 27, Gpr, 64),
    reg("x28", 28, Gpr, 64),
    reg("x29", 29, Gpr, 64),
    reg("x30", 30, Gpr, 64),
    reg("x31", 31, Gpr, 64),
    reg("f0", 32, Float, 64),
    reg("f1", 33, Float, 64),
    reg("f2", 34, Float, 64),
    reg("f3", 35, Float, 64),
    reg("f4", 36, Float, 64),
    reg("f5", 37, Float, 64),
    reg("f6", 38, Float, 64),
    reg("f7", 39, Float, 64),
    reg("f8", 40, Float, 64),
    reg("f9", 41, Float, 64),
    reg("f10", 42, Float, 64),
    reg("f11", 43, Float, 64),
    reg("f12", 44, Float, 64),
    reg("f13", 45, Float, 64),
    reg("f14", 46, Float, 64),
    reg("f15", 47, Float, 64),
    reg("f16", 48, Float, 64),
    reg("f17", 49, Float, 64),
    reg("f18", 50, Float, 64),
    reg("f19", 51, Float, 64),
    reg("f20", 52, Float, 64),
    reg("f21", 53, Float, 64),
    reg("f22", 54, Float, 64),
    reg("f23", 55, Float, 64),
    reg("f24", 56, Float, 64),
    reg("f25", 57, Float, 64),
    reg("f26", 58, Float, 64),
    reg("f27", 59, Float, 64),
    reg("f28", 60, Float, 64),
    reg("f29", 61, Float, 64),
    reg("f30", 62, Float, 64),
    reg("f31", 63, Float, 64),
];

static MIPS32_REGS: &[Register] = &[
    reg("$0", 0, Gpr, 32),
    reg("$1", 1, Gpr, 32),
    reg("$2", 2, Gpr, 32),
    reg("$3", 3, Gpr, 32),
    reg("$4", 4, Gpr, 32),
    reg("$5", 5, Gpr, 32),
    reg("$6", 6, Gpr, 32),
    reg("$7", 7, Gpr, 32),
    reg("$8", 8, Gpr, 32),
    reg("$9", 9, Gpr, 32),
    reg("$10", 10, Gpr, 32),
    reg("$11", 11, Gpr, 32),
    reg("$12", 12, Gpr, 32),
    reg("$13", 13, Gpr, 32),
    reg("$14", 14, Gpr, 32),
    reg("$15", 15, Gpr, 32),
    reg("$16", 16, Gpr, 32),
    reg("$17", 17, Gpr, 32),
    reg("$18", 18, Gpr, 32),
    reg("$19", 19, Gpr, 32),
    reg("$20", 20, Gpr, 32),
    reg("$21", 21, Gpr, 32),
    reg("$22", 22, Gpr, 32),
    reg("$23", 23, Gpr, 32),
    reg("$24", 24, Gpr, 32),
    reg("$25", 25, Gpr, 32),
    reg("$26", 26, Gpr, 32),
    reg("$27", 27, Gpr, 32),
    reg("$28", 28, Gpr, 32),
    reg("$29", 29, Gpr, 32),
    reg("$30", 30, Gpr, 32),
    reg("$31", 31, Gpr, 32),
    reg("$f0", 32, Float, 32),
    reg("$f1", 33, Float, 32),
    reg("$f2", 34, Float, 32),
    reg("$f3", 35, Float, 32),
    reg("$f4", 36, Float, 32),
    reg("$f5", 37, Float, 32),
    reg("$f6", 38, Float, 32),
    reg("$f7", 39, Float, 32),
    reg("$f8", 40, Float, 32),
    reg("$f9", 41, Float, 32),
    reg("$f10", 42, Float, 32),
    reg("$f11", 43, Float, 32),
    reg("$f12", 44, Float, 32),
    reg("$f13", 45, Float, 32),
    reg("$f14", 46, Float, 32),
    reg("$f15", 47, Float, 32),
    reg("$f16", 48, Float, 32),
    reg("$f17", 49, Float, 32),
    reg("$f18", 50, Float, 32),
    reg("$f19", 51, Float, 32),
    reg("$f20", 52, Float, 32),
    reg("$f21", 53, Float, 32),
    reg("$f22", 54, Float, 32),
    reg("$f23", 55, Float, 32),
    reg("$f24", 56, Float, 32),
    reg("$f25", 57, Float, 32),
    reg("$f26", 58, Float, 32),
    reg("$f27", 59, Float, 32),
    reg("$f28", 60, Float, 32),
    reg("$f29", 61, Float, 32),
    reg("$f30", 62, Float, 32),
    reg("$f31", 63, Float, 32),
];

static AVR_REGS: &[Register] = &[
    reg("r0", 0, Gpr, 8),
    reg("r1", 1, Gpr, 8),
    reg("r2", 2, Gpr, 8),
    reg("r3", 3, Gpr, 8),
    reg("r4", 4, Gpr, 8),
    reg("r5", 5, Gpr, 8),
    reg("r6", 6, Gpr, 8),
    reg("r7", 7, Gpr, 8),
    reg("r8", 8, Gpr, 8),
    reg("r9", 9, Gpr, 8),
    reg("r10", 10, Gpr, 8),
    reg("r11", 11, Gpr, 8),
    reg("r12", 12, Gpr, 8),
    reg("r13", 13, Gpr, 8),
    reg("r14", 14, Gpr, 8),
    reg("r15", 15, Gpr, 8),
    reg("r16", 16, Gpr, 8),
    reg("r17", 17, Gpr, 8),
    reg("r18", 18, Gpr, 8),
    reg("r19", 19, Gpr, 8),
    reg("r20", 20, Gpr, 8),
    reg("r21", 21, Gpr, 8),
    reg("r22", 22, Gpr, 8),
    reg("r23", 23, Gpr, 8),
    reg("r24", 24, Gpr, 8),
    reg("r25", 25, Gpr, 8),
    reg("r26", 26, Gpr, 8),
    reg("r27", 27, Gpr, 8),
    reg("r28", 28, Gpr, 8),
    reg("r29", 29, Gpr, 8),
    reg("r30", 30, Gpr, 8),
    reg("r31", 31, Gpr, 8),
];

static RISCV_ALIASES: &[(&str, u16)] = &[
    ("zero", 0),
    ("ra", 1),
    ("sp", 2),
    ("gp", 3),
    ("tp", 4),
    ("t0", 5),
    ("t1", 6),
    ("t2", 7),
    ("s0", 8),
    ("s1", 9),
    ("a0", 10),
    ("a1", 11),
    ("a2", 12),
    ("a3", 13),
    ("a4", 14),
    ("a5", 15),
    ("a6", 16),
    ("a7", 17),
    ("s2", 18),
    ("s3", 19),
    ("s4", 20),
    ("s5", 21),
    ("s6", 22),
    ("s7", 23),
    ("s8", 24),
    ("s9", 25),
    ("s10", 26),
    ("s11", 27),
    ("t3", 28),
    ("t4", 29),
    ("t5", 30),
    ("t6", 31),
    ("fp", 8),
    ("ft0", 32),
    ("ft1", 33),
    ("ft2", 34),
    ("ft3", 35),
    ("ft4", 36),
    ("ft5", 37),
    ("ft6", 38),
    ("ft7", 39),
    ("fs0", 40),
    ("fs1", 41),
    ("fa0", 42),
    ("fa1", 43),
    ("fa2", 44),
    ("fa3", 45),
    ("fa4", 46),
    ("fa5", 47),
    ("fa6", 48),
    ("fa7", 49),
    ("fs2", 50),
    ("fs3", 51),
    ("fs4", 52),
    ("fs5", 53),
    ("fs6", 54),
    ("fs7", 55),
    ("fs8", 56),
    ("fs9", 57),
    ("fs10", 58),
    ("fs11", 59),
    ("ft8", 60),
    ("ft9", 61),
    ("ft10", 62),
    ("ft11", 63),
];
static MIPS_ALIASES: &[(&str, u16)] = &[
    ("$zero", 0),
    ("$at", 1),
    ("$v0", 2),
    ("$v1", 3),
    ("$a0", 4),
    ("$a1", 5),
    ("$a2", 6),
    ("$a3", 7),
    ("$t0", 8),
    ("$t1", 9),
    ("$t2", 10),
    ("$t3", 11),
    ("$t4", 12),
    ("$t5", 13),
    ("$t6", 14),
    ("$t7", 15),
    ("$s0", 16),
    ("$s1", 17),
    ("$s2", 18),
    ("$s3", 19),
    ("$s4", 20),
    ("$s5", 21),
    ("$s6", 22),
    ("$s7", 23),
    ("$t8", 24),
    ("$t9", 25),
    ("$k0", 26),
    ("$k1", 27),
    ("$gp", 28),
    ("$sp", 29),
    ("$fp", 30),
    ("$ra", 31),
    ("$s8", 30),
];
static AARCH64_ALIASES: &[(&str, u16)] = &[("fp", 29), ("lr", 30)];
static ARM_ALIASES: &[(&str, u16)] = &[("fp", 11), ("ip", 12), ("sp", 13), ("lr", 14), ("pc", 15)];
static AVR_ALIASES: &[(&str, u16)] = &[
    ("xl", 26),
    ("xh", 27),
    ("yl", 28),
    ("yh", 29),
    ("zl", 30),
    ("zh", 31),
];
static NO_ALIASES: &[(&str, u16)] = &[];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_dwarf_numbers_and_names_round_trip() {
        let x = schema(Arch::X86_64);
        assert_eq!(x.number("RDI"), Some(5));
        assert_eq!(x.number("xmm0"), Some(17));
        assert_eq!(x.number("st0"), Some(33));
        assert_eq!(x.name(7), Some("rsp"));
        assert_eq!(schema(Arch::AArch64).number("v0"), Some(64));
        assert_eq!(schema(Arch::AArch64).number("lr"), Some(30));
        assert_eq!(schema(Arch::Riscv64).number("a0"), Some(10));
        assert_eq!(schema(Arch::Riscv64).number("fa0"), Some(42));
        assert_eq!(schema(Arch::Mips32).number("$a0"), Some(4));
        assert_eq!(schema(Arch::Mips32).number("$f12"), Some(44));
        assert_eq!(schema(Arch::Arm).number("d8"), Some(264));
        assert_eq!(schema(Arch::Avr).number("r24"), Some(24));
        assert_eq!(x.number("nope"), None);
    }

    #[test]
    fn numbers_are_unique_within_each_schema() {
        for arch in [
            Arch::X86_64,
            Arch::AArch64,
            Arch::Arm,
            Arch::Riscv32,
            Arch::Riscv64,
            Arch::Mips32,
            Arch::Avr,
        ] {
            let s = schema(arch);
            for (i, a) in s.registers.iter().enumerate() {
                for b in &s.registers[i + 1..] {
                    assert!(
                        a.number != b.number && a.name != b.name,
                        "{}: {a:?} {b:?}",
                        s.name
                    );
                }
                assert_eq!(s.number(a.name), Some(a.number));
            }
        }
    }
}
