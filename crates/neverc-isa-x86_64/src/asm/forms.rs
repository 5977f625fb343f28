//! Every instruction form the encoder can emit, for the referee test (tests/referee.rs),
//! which compares `encode` with llvm-mc and GNU as byte for byte.
//!
//! `forms_of` is an exhaustive `match` on `Inst` (no wildcard), so a new variant does not
//! compile until it says which forms it has; `representatives` gives one instance of every
//! variant (checked by a unit test against `VARIANTS`). Registers, addresses and immediates
//! are chosen to hit the encoding special cases: rsp/r12 bases (SIB), rbp/r13 bases (disp8
//! 0), r8-r15 (REX.R/X/B), spl..dil (REX without bits), no-base SIB, absolute and
//! RIP-relative addresses, disp8/disp32 and imm8/imm16/imm32/imm64 boundaries, every Cond.

use super::encode::norm_imm;
use super::inst::*;
use neverc_codegen::reloc::{RelocKind, SymId};

/// The symbol names the forms use (`SymId(0)` is `foo`, `SymId(1)` is `bar`).
pub fn sym_name(s: SymId) -> String {
    ["foo", "bar"]
        .get(s.0 as usize)
        .unwrap_or(&"baz")
        .to_string()
}

/// The label at the start (`Label(0)`) and the end (`Label(1)`) of the referee's function.
pub const L_START: Label = Label(0);
pub const L_END: Label = Label(1);

pub fn label_name(l: Label) -> String {
    format!(".Lref{}", l.0)
}

const FOO: SymId = SymId(0);
const BAR: SymId = SymId(1);

fn g(n: u8) -> Gpr {
    Gpr(n)
}

/// Register pairs (src, dst) covering every register in both ModRM fields.
fn pairs() -> Vec<(Gpr, Gpr)> {
    let mut v = vec![(Gpr::RAX, Gpr::RAX)];
    for a in 0..16u8 {
        v.push((g(a), g((a + 1) % 16)));
        v.push((g(a), g(15 - a)));
    }
    v
}

/// A few registers for the single-register forms.
fn some_regs() -> Vec<Gpr> {
    [0, 1, 3, 4, 5, 6, 7, 8, 12, 13, 15]
        .iter()
        .map(|&n| g(n))
        .collect()
}

/// The full set of addressing shapes.
pub fn all_mems() -> Vec<Mem> {
    let mut v = vec![
        Mem::base(Gpr::RAX, 0),
        Mem::base(Gpr::RSP, 0),
        Mem::base(Gpr::RBP, 0),
        Mem::base(Gpr::R12, 0),
        Mem::base(Gpr::R13, 0),
        Mem::base(Gpr::RCX, 8),
        Mem::base(Gpr::RDX, -128),
        Mem::base(Gpr::RBX, 127),
        Mem::base(Gpr::RSI, 128),
        Mem::base(Gpr::RDI, -129),
        Mem::base(Gpr::R8, 0x1234_5678),
        Mem::base(Gpr::RBP, -8),
        Mem::base(Gpr::RSP, 16),
        Mem::base(Gpr::R12, -300),
        Mem::base(Gpr::R13, 1),
        Mem::base(Gpr::R15, i32::MIN),
        Mem::bis(Gpr::RAX, Gpr::RCX, 1, 0),
        Mem::bis(Gpr::RSP, Gpr::RBP, 2, 4),
        Mem::bis(Gpr::RBP, Gpr::RAX, 4, 0),
        Mem::bis(Gpr::R13, Gpr::R12, 8, 0),
        Mem::bis(Gpr::R12, Gpr::R9, 1, -100),
        Mem::bis(Gpr::R9, Gpr::R14, 8, 1000),
        Mem::index_only(Gpr::RAX, 8, 1000),
        Mem::index_only(Gpr::R12, 2, 0),
        Mem::index_only(Gpr::RBP, 1, -4),
        Mem::abs(0x10),
        Mem::abs(-4),
        Mem::rip(FOO, RelocKind::Pc32, 0),
        Mem::rip(BAR, RelocKind::Pc32, 8),
        Mem::rip(FOO, RelocKind::GotPcRel, 0),
        Mem::rip(FOO, RelocKind::GotTpOff, 0),
        Mem::fs_tpoff(BAR, 0),
        Mem::fs_abs(0),
        Mem::base(Gpr::RBX, 0).with_sym(FOO, RelocKind::Abs32S),
        Mem::abs(8).with_sym(BAR, RelocKind::Abs32S),
        Mem::base(Gpr::RAX, 4).with_sym(BAR, RelocKind::TpOff32),
        Mem::base(Gpr::R10, -16).with_seg(Seg::Fs),
        Mem::rip_label(L_START, 0),
        Mem::rip_label(L_END, 4),
    ];
    v.push(Mem {
        rip: true,
        ..Mem::abs(64)
    });
    v
}

/// A smaller set of addressing shapes for the less central instructions.
pub fn some_mems() -> Vec<Mem> {
    vec![
        Mem::base(Gpr::RAX, 0),
        Mem::base(Gpr::RSP, 8),
        Mem::base(Gpr::RBP, -8),
        Mem::base(Gpr::R12, 0),
        Mem::base(Gpr::R13, 0x1000),
        Mem::bis(Gpr::RAX, Gpr::R12, 8, 0),
        Mem::bis(Gpr::R15, Gpr::RCX, 4, -200),
        Mem::index_only(Gpr::RCX, 4, 16),
        Mem::abs(0x20),
        Mem::rip(FOO, RelocKind::Pc32, 0),
        Mem::rip(BAR, RelocKind::GotPcRel, 0),
        Mem::fs_tpoff(FOO, 0),
        Mem::rip_label(L_END, 0),
    ]
}

/// Immediates for integer ops (filtered by what each size accepts).
fn imms() -> Vec<i64> {
    vec![
        0,
        1,
        -1,
        2,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32767,
        -32768,
        65535,
        65536,
        0x7fff_ffff,
        -0x8000_0000,
        0xffff_ffff,
    ]
}

fn imms_for(size: Size) -> Vec<i64> {
    imms()
        .into_iter()
        .filter(|&v| norm_imm(size, v).is_some())
        .collect()
}

fn xmm_pairs() -> Vec<(Xmm, Xmm)> {
    vec![
        (Xmm(0), Xmm(1)),
        (Xmm(7), Xmm(0)),
        (Xmm(8), Xmm(2)),
        (Xmm(3), Xmm(12)),
        (Xmm(15), Xmm(9)),
    ]
}

const WIDE: [Size; 3] = [Size::S16, Size::S32, Size::S64];

/// The number of `Inst` variants; `representatives` must list exactly one of each.
pub const VARIANTS: usize = 48;

/// One instance of every `Inst` variant.
pub fn representatives() -> Vec<Inst> {
    use Inst::*;
    let r = Gpr::RAX;
    let m = Mem::base(Gpr::RAX, 0);
    vec![
        Label(L_START),
        Align(16),
        JumpTableEntry {
            target: L_END,
            base: L_START,
        },
        Mov {
            size: Size::S64,
            src: Rmi::Reg(r),
            dst: Rm::Reg(r),
        },
        MovSymImm {
            kind: RelocKind::Abs32,
            sym: FOO,
            addend: 0,
            dst: r,
        },
        MovX {
            signed: false,
            from: Size::S8,
            to: Size::S32,
            src: Rm::Reg(r),
            dst: r,
        },
        Lea {
            size: Size::S64,
            src: m,
            dst: r,
        },
        Xchg {
            size: Size::S64,
            src: r,
            dst: Rm::Reg(r),
        },
        Push { src: r },
        Pop { dst: r },
        Alu {
            op: AluOp::Add,
            size: Size::S64,
            src: Rmi::Reg(r),
            dst: Rm::Reg(r),
        },
        Test {
            size: Size::S64,
            src: Rmi::Reg(r),
            dst: Rm::Reg(r),
        },
        Imul2 {
            size: Size::S64,
            src: Rm::Reg(r),
            dst: r,
        },
        Imul3 {
            size: Size::S64,
            imm: 3,
            src: Rm::Reg(r),
            dst: r,
        },
        Unary {
            op: UnOp::Neg,
            size: Size::S64,
            dst: Rm::Reg(r),
        },
        Shift {
            op: ShiftOp::Shl,
            size: Size::S64,
            amount: None,
            dst: Rm::Reg(r),
        },
        SignExtendDx { size: Size::S64 },
        SignExtendAx { size: Size::S64 },
        Bswap {
            size: Size::S64,
            reg: r,
        },
        BitCount {
            op: BitOp::Bsf,
            size: Size::S64,
            src: Rm::Reg(r),
            dst: r,
        },
        Setcc {
            cond: Cond::E,
            dst: Rm::Reg(r),
        },
        Cmov {
            cond: Cond::E,
            size: Size::S64,
            src: Rm::Reg(r),
            dst: r,
        },
        LockCmpxchg {
            size: Size::S64,
            src: r,
            dst: m,
        },
        LockXadd {
            size: Size::S64,
            src: r,
            dst: m,
        },
        Mfence,
        RepMovsb,
        RepStosb,
        Jmp { target: L_END },
        Jcc {
            cond: Cond::E,
            target: L_END,
        },
        JmpInd { target: Rm::Reg(r) },
        CallSym {
            sym: FOO,
            kind: RelocKind::Plt32,
        },
        CallInd { target: Rm::Reg(r) },
        Ret,
        Leave,
        Ud2,
        Nop,
        XmmMov {
            op: XmmMovOp::Movss,
            src: XmmMem::Xmm(Xmm(0)),
            dst: XmmMem::Xmm(Xmm(1)),
        },
        Sse {
            op: SseOp::Addsd,
            src: XmmMem::Xmm(Xmm(0)),
            dst: Xmm(1),
        },
        MovGprToXmm {
            size: Size::S64,
            src: Rm::Reg(r),
            dst: Xmm(0),
        },
        MovXmmToGpr {
            size: Size::S64,
            src: Xmm(0),
            dst: Rm::Reg(r),
        },
        CvtSi2F {
            double: true,
            size: Size::S64,
            src: Rm::Reg(r),
            dst: Xmm(0),
        },
        CvtTF2Si {
            double: true,
            size: Size::S64,
            src: XmmMem::Xmm(Xmm(0)),
            dst: r,
        },
        X87Mem {
            op: X87MemOp::Fldt,
            mem: m,
        },
        X87Reg {
            op: X87RegOp::Fld,
            st: 1,
        },
        X87 { op: X87Op::Fchs },
        Plain { op: PlainOp::Cpuid },
        PortIo {
            out: false,
            size: Size::S8,
            acc: Gpr::RAX,
            port: Port::Dx(Gpr::RDX),
        },
        PortString {
            out: false,
            size: Size::S8,
            rep: RepPrefix::None,
        },
    ]
}

/// Every form of the variant of `rep` (its operands are ignored), appended to `out`.
pub fn forms_of(rep: &Inst, out: &mut Vec<Inst>) {
    use Inst::*;
    match rep {
        // Laid out by the assembler; covered by the assembler tests, not single forms.
        Label(_) | Align(_) => {}
        JumpTableEntry { .. } => {
            out.push(JumpTableEntry {
                target: L_END,
                base: L_START,
            });
            out.push(JumpTableEntry {
                target: L_START,
                base: L_END,
            });
        }
        Mov { .. } => {
            // The legacy high bytes (inline asm's %h), in every field that can hold them.
            let (ah, ch, dh, bh) = (Gpr::AH, Gpr::CH, Gpr::DH, Gpr::BH);
            for (s, d) in [(ah, Gpr::RAX), (Gpr::RBX, ch), (dh, bh), (bh, ah)] {
                out.push(Mov {
                    size: Size::S8,
                    src: Rmi::Reg(s),
                    dst: Rm::Reg(d),
                });
                out.push(Alu {
                    op: AluOp::Add,
                    size: Size::S8,
                    src: Rmi::Reg(s),
                    dst: Rm::Reg(d),
                });
            }
            for h in [ah, ch, dh, bh] {
                out.push(Mov {
                    size: Size::S8,
                    src: Rmi::Imm(-2),
                    dst: Rm::Reg(h),
                });
                out.push(Mov {
                    size: Size::S8,
                    src: Rmi::Reg(h),
                    dst: Rm::Mem(Mem::base(Gpr::RSP, 8)),
                });
                out.push(Mov {
                    size: Size::S8,
                    src: Rmi::Mem(Mem::bis(Gpr::RAX, Gpr::RCX, 4, -8)),
                    dst: Rm::Reg(h),
                });
                out.push(MovX {
                    signed: false,
                    from: Size::S8,
                    to: Size::S32,
                    src: Rm::Reg(h),
                    dst: Gpr::RDX,
                });
                out.push(Setcc {
                    cond: Cond::E,
                    dst: Rm::Reg(h),
                });
                out.push(Alu {
                    op: AluOp::Cmp,
                    size: Size::S8,
                    src: Rmi::Imm(7),
                    dst: Rm::Reg(h),
                });
            }
            for size in Size::ALL {
                for (s, d) in pairs() {
                    out.push(Mov {
                        size,
                        src: Rmi::Reg(s),
                        dst: Rm::Reg(d),
                    });
                }
                for (k, m) in all_mems().into_iter().enumerate() {
                    let r = g((k * 7 % 16) as u8);
                    out.push(Mov {
                        size,
                        src: Rmi::Reg(r),
                        dst: Rm::Mem(m),
                    });
                    out.push(Mov {
                        size,
                        src: Rmi::Mem(m),
                        dst: Rm::Reg(r),
                    });
                }
                let mut iv = imms_for(size);
                if size == Size::S64 {
                    iv.extend([
                        0x1_0000_0000,
                        -0x8000_0001,
                        i64::MIN,
                        i64::MAX,
                        0x1234_5678_9abc_def0,
                    ]);
                }
                for v in iv {
                    for r in [Gpr::RAX, Gpr::RSI, Gpr::R9, Gpr::R15] {
                        out.push(Mov {
                            size,
                            src: Rmi::Imm(v),
                            dst: Rm::Reg(r),
                        });
                    }
                }
                for v in imms_for(size) {
                    for m in [
                        Mem::base(Gpr::RBP, -8),
                        Mem::rip(FOO, RelocKind::Pc32, 4),
                        Mem::bis(Gpr::R12, Gpr::R13, 2, 0),
                    ] {
                        out.push(Mov {
                            size,
                            src: Rmi::Imm(v),
                            dst: Rm::Mem(m),
                        });
                    }
                }
            }
        }
        MovSymImm { .. } => {
            for kind in [RelocKind::Abs32, RelocKind::Abs32S, RelocKind::Abs64] {
                for (dst, addend) in [(Gpr::RAX, 0), (Gpr::R9, 16), (Gpr::RDI, -8)] {
                    out.push(MovSymImm {
                        kind,
                        sym: FOO,
                        addend,
                        dst,
                    });
                }
            }
        }
        MovX { .. } => {
            let combos = [
                (false, Size::S8, Size::S16),
                (false, Size::S8, Size::S32),
                (false, Size::S8, Size::S64),
                (false, Size::S16, Size::S32),
                (false, Size::S16, Size::S64),
                (true, Size::S8, Size::S16),
                (true, Size::S8, Size::S32),
                (true, Size::S8, Size::S64),
                (true, Size::S16, Size::S32),
                (true, Size::S16, Size::S64),
                (true, Size::S32, Size::S64),
            ];
            for (signed, from, to) in combos {
                for (s, d) in pairs() {
                    out.push(MovX {
                        signed,
                        from,
                        to,
                        src: Rm::Reg(s),
                        dst: d,
                    });
                }
                for m in some_mems() {
                    out.push(MovX {
                        signed,
                        from,
                        to,
                        src: Rm::Mem(m),
                        dst: Gpr::R10,
                    });
                }
            }
        }
        Lea { .. } => {
            for size in WIDE {
                for (k, m) in all_mems().into_iter().enumerate() {
                    if size != Size::S64 && m.sym.is_some() && !m.rip {
                        continue; // gas refuses a 32-bit absolute relocation in leal/leaw
                    }
                    out.push(Lea {
                        size,
                        src: m,
                        dst: g((k * 5 % 16) as u8),
                    });
                }
            }
        }
        Xchg { .. } => {
            for size in Size::ALL {
                for (s, d) in pairs() {
                    out.push(Xchg {
                        size,
                        src: s,
                        dst: Rm::Reg(d),
                    });
                }
                for m in some_mems() {
                    out.push(Xchg {
                        size,
                        src: Gpr::RSI,
                        dst: Rm::Mem(m),
                    });
                }
            }
        }
        Push { .. } | Pop { .. } => {
            for r in 0..16 {
                if matches!(rep, Push { .. }) {
                    out.push(Push { src: g(r) });
                } else {
                    out.push(Pop { dst: g(r) });
                }
            }
        }
        Alu { .. } => {
            for op in AluOp::ALL {
                for size in Size::ALL {
                    for (s, d) in pairs() {
                        out.push(Alu {
                            op,
                            size,
                            src: Rmi::Reg(s),
                            dst: Rm::Reg(d),
                        });
                    }
                    for (k, m) in some_mems().into_iter().enumerate() {
                        let r = g((k * 3 % 16) as u8);
                        out.push(Alu {
                            op,
                            size,
                            src: Rmi::Reg(r),
                            dst: Rm::Mem(m),
                        });
                        out.push(Alu {
                            op,
                            size,
                            src: Rmi::Mem(m),
                            dst: Rm::Reg(r),
                        });
                    }
                    for v in imms_for(size) {
                        for r in [Gpr::RAX, Gpr::RCX, Gpr::RSP, Gpr::RDI, Gpr::R9] {
                            out.push(Alu {
                                op,
                                size,
                                src: Rmi::Imm(v),
                                dst: Rm::Reg(r),
                            });
                        }
                        for m in [Mem::base(Gpr::RBP, -8), Mem::rip(FOO, RelocKind::Pc32, 0)] {
                            out.push(Alu {
                                op,
                                size,
                                src: Rmi::Imm(v),
                                dst: Rm::Mem(m),
                            });
                        }
                    }
                }
            }
        }
        Test { .. } => {
            for size in Size::ALL {
                for (s, d) in pairs() {
                    out.push(Test {
                        size,
                        src: Rmi::Reg(s),
                        dst: Rm::Reg(d),
                    });
                }
                for m in some_mems() {
                    out.push(Test {
                        size,
                        src: Rmi::Reg(Gpr::RDI),
                        dst: Rm::Mem(m),
                    });
                    out.push(Test {
                        size,
                        src: Rmi::Imm(1),
                        dst: Rm::Mem(m),
                    });
                }
                for v in imms_for(size) {
                    for r in [Gpr::RAX, Gpr::RCX, Gpr::RSI, Gpr::R11] {
                        out.push(Test {
                            size,
                            src: Rmi::Imm(v),
                            dst: Rm::Reg(r),
                        });
                    }
                }
            }
        }
        Imul2 { .. } | Imul3 { .. } => {
            for size in WIDE {
                for (s, d) in pairs() {
                    if matches!(rep, Imul2 { .. }) {
                        out.push(Imul2 {
                            size,
                            src: Rm::Reg(s),
                            dst: d,
                        });
                    } else {
                        for imm in [3, -128, 128, 1000, -70000] {
                            if norm_imm(size, imm).is_some() {
                                out.push(Imul3 {
                                    size,
                                    imm: imm as i32,
                                    src: Rm::Reg(s),
                                    dst: d,
                                });
                            }
                        }
                    }
                }
                for m in some_mems() {
                    if matches!(rep, Imul2 { .. }) {
                        out.push(Imul2 {
                            size,
                            src: Rm::Mem(m),
                            dst: Gpr::R8,
                        });
                    } else {
                        for imm in [5, 1000] {
                            out.push(Imul3 {
                                size,
                                imm,
                                src: Rm::Mem(m),
                                dst: Gpr::RBX,
                            });
                        }
                    }
                }
            }
        }
        Unary { .. } => {
            for op in UnOp::ALL {
                for size in Size::ALL {
                    for r in some_regs() {
                        out.push(Unary {
                            op,
                            size,
                            dst: Rm::Reg(r),
                        });
                    }
                    for m in some_mems() {
                        out.push(Unary {
                            op,
                            size,
                            dst: Rm::Mem(m),
                        });
                    }
                }
            }
        }
        Shift { .. } => {
            for op in ShiftOp::ALL {
                for size in Size::ALL {
                    for amount in [None, Some(1), Some(2), Some(7), Some(31), Some(63)] {
                        for r in [Gpr::RAX, Gpr::RSI, Gpr::R13] {
                            out.push(Shift {
                                op,
                                size,
                                amount,
                                dst: Rm::Reg(r),
                            });
                        }
                        for m in [Mem::base(Gpr::RSP, 4), Mem::rip(FOO, RelocKind::Pc32, 0)] {
                            out.push(Shift {
                                op,
                                size,
                                amount,
                                dst: Rm::Mem(m),
                            });
                        }
                    }
                }
            }
        }
        SignExtendDx { .. } | SignExtendAx { .. } => {
            for size in WIDE {
                out.push(if matches!(rep, SignExtendDx { .. }) {
                    SignExtendDx { size }
                } else {
                    SignExtendAx { size }
                });
            }
        }
        Bswap { .. } => {
            for size in [Size::S32, Size::S64] {
                for r in 0..16 {
                    out.push(Bswap { size, reg: g(r) });
                }
            }
        }
        BitCount { .. } => {
            for op in BitOp::ALL {
                for size in WIDE {
                    for (s, d) in pairs() {
                        out.push(BitCount {
                            op,
                            size,
                            src: Rm::Reg(s),
                            dst: d,
                        });
                    }
                    for m in some_mems() {
                        out.push(BitCount {
                            op,
                            size,
                            src: Rm::Mem(m),
                            dst: Gpr::R14,
                        });
                    }
                }
            }
        }
        Setcc { .. } => {
            for cond in Cond::ALL {
                for r in [0, 3, 4, 5, 6, 7, 8, 15] {
                    out.push(Setcc {
                        cond,
                        dst: Rm::Reg(g(r)),
                    });
                }
                for m in [Mem::base(Gpr::RBP, -1), Mem::rip(FOO, RelocKind::Pc32, 0)] {
                    out.push(Setcc {
                        cond,
                        dst: Rm::Mem(m),
                    });
                }
            }
        }
        Cmov { .. } => {
            for cond in Cond::ALL {
                for size in WIDE {
                    for (s, d) in [
                        (Gpr::RAX, Gpr::RCX),
                        (Gpr::R9, Gpr::RSI),
                        (Gpr::RDX, Gpr::R15),
                    ] {
                        out.push(Cmov {
                            cond,
                            size,
                            src: Rm::Reg(s),
                            dst: d,
                        });
                    }
                    out.push(Cmov {
                        cond,
                        size,
                        src: Rm::Mem(Mem::base(Gpr::R12, 8)),
                        dst: Gpr::RAX,
                    });
                }
            }
        }
        LockCmpxchg { .. } | LockXadd { .. } => {
            for size in Size::ALL {
                for (k, m) in some_mems().into_iter().enumerate() {
                    for src in [g((k % 16) as u8), g(((k + 6) % 16) as u8)] {
                        out.push(if matches!(rep, LockCmpxchg { .. }) {
                            LockCmpxchg { size, src, dst: m }
                        } else {
                            LockXadd { size, src, dst: m }
                        });
                    }
                }
            }
        }
        Mfence | RepMovsb | RepStosb | Ret | Leave | Ud2 | Nop => out.push(*rep),
        Jmp { .. } => {
            out.push(Jmp { target: L_START });
            out.push(Jmp { target: L_END });
        }
        Jcc { .. } => {
            for cond in Cond::ALL {
                out.push(Jcc {
                    cond,
                    target: L_START,
                });
                out.push(Jcc {
                    cond,
                    target: L_END,
                });
            }
        }
        JmpInd { .. } | CallInd { .. } => {
            let targets: Vec<Rm> = some_regs()
                .into_iter()
                .map(Rm::Reg)
                .chain(some_mems().into_iter().map(Rm::Mem))
                .chain([Rm::Mem(Mem::rip(FOO, RelocKind::GotPcRelX, 0))])
                .collect();
            for target in targets {
                out.push(if matches!(rep, JmpInd { .. }) {
                    JmpInd { target }
                } else {
                    CallInd { target }
                });
            }
        }
        CallSym { .. } => {
            out.push(CallSym {
                sym: FOO,
                kind: RelocKind::Plt32,
            });
            out.push(CallSym {
                sym: BAR,
                kind: RelocKind::Plt32,
            });
        }
        XmmMov { .. } => {
            for op in XmmMovOp::ALL {
                for (s, d) in xmm_pairs() {
                    out.push(XmmMov {
                        op,
                        src: XmmMem::Xmm(s),
                        dst: XmmMem::Xmm(d),
                    });
                }
                for (k, m) in some_mems().into_iter().enumerate() {
                    let x = Xmm((k * 5 % 16) as u8);
                    out.push(XmmMov {
                        op,
                        src: XmmMem::Mem(m),
                        dst: XmmMem::Xmm(x),
                    });
                    out.push(XmmMov {
                        op,
                        src: XmmMem::Xmm(x),
                        dst: XmmMem::Mem(m),
                    });
                }
            }
        }
        Sse { .. } => {
            for op in SseOp::ALL {
                for (s, d) in xmm_pairs() {
                    out.push(Sse {
                        op,
                        src: XmmMem::Xmm(s),
                        dst: d,
                    });
                }
                for m in some_mems() {
                    out.push(Sse {
                        op,
                        src: XmmMem::Mem(m),
                        dst: Xmm(11),
                    });
                }
            }
        }
        MovGprToXmm { .. } | MovXmmToGpr { .. } => {
            for size in [Size::S32, Size::S64] {
                let mut rms: Vec<Rm> = [0, 5, 8, 13].iter().map(|&r| Rm::Reg(g(r))).collect();
                rms.extend(some_mems().into_iter().map(Rm::Mem));
                for (k, r) in rms.into_iter().enumerate() {
                    let x = Xmm((k * 3 % 16) as u8);
                    out.push(if matches!(rep, MovGprToXmm { .. }) {
                        MovGprToXmm {
                            size,
                            src: r,
                            dst: x,
                        }
                    } else {
                        MovXmmToGpr {
                            size,
                            src: x,
                            dst: r,
                        }
                    });
                }
            }
        }
        CvtSi2F { .. } => {
            for double in [false, true] {
                for size in [Size::S32, Size::S64] {
                    let mut rms: Vec<Rm> = [0, 7, 9].iter().map(|&r| Rm::Reg(g(r))).collect();
                    rms.extend(some_mems().into_iter().map(Rm::Mem));
                    for (k, src) in rms.into_iter().enumerate() {
                        out.push(CvtSi2F {
                            double,
                            size,
                            src,
                            dst: Xmm((k * 5 % 16) as u8),
                        });
                    }
                }
            }
        }
        CvtTF2Si { .. } => {
            for double in [false, true] {
                for size in [Size::S32, Size::S64] {
                    let mut xms: Vec<XmmMem> =
                        [0, 7, 9, 15].iter().map(|&r| XmmMem::Xmm(Xmm(r))).collect();
                    xms.extend(some_mems().into_iter().map(XmmMem::Mem));
                    for (k, src) in xms.into_iter().enumerate() {
                        out.push(CvtTF2Si {
                            double,
                            size,
                            src,
                            dst: g((k * 5 % 16) as u8),
                        });
                    }
                }
            }
        }
        X87Mem { .. } => {
            for op in X87MemOp::ALL {
                for mem in some_mems() {
                    out.push(X87Mem { op, mem });
                }
            }
        }
        X87Reg { .. } => {
            for op in X87RegOp::ALL {
                for st in 0..8 {
                    out.push(X87Reg { op, st });
                }
            }
        }
        X87 { .. } => {
            for op in X87Op::ALL {
                out.push(X87 { op });
            }
        }
        Plain { .. } => {
            for op in PlainOp::ALL {
                out.push(Plain { op });
            }
        }
        PortIo { .. } => {
            for out_ in [false, true] {
                for size in [Size::S8, Size::S16, Size::S32] {
                    for port in [
                        Port::Dx(Gpr::RDX),
                        Port::Imm(0),
                        Port::Imm(0x80),
                        Port::Imm(255),
                    ] {
                        out.push(PortIo {
                            out: out_,
                            size,
                            acc: Gpr::RAX,
                            port,
                        });
                    }
                }
            }
        }
        PortString { .. } => {
            for out_ in [false, true] {
                for size in [Size::S8, Size::S16, Size::S32] {
                    for rep in [RepPrefix::None, RepPrefix::Joined, RepPrefix::Alone] {
                        out.push(PortString {
                            out: out_,
                            size,
                            rep,
                        });
                    }
                }
            }
        }
    }
}

/// Every form of every variant.
pub fn all_forms() -> Vec<Inst> {
    let mut out = Vec::new();
    for rep in representatives() {
        forms_of(&rep, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_representative_per_variant() {
        let reps = representatives();
        let mut seen = std::collections::HashSet::new();
        for r in &reps {
            assert!(
                seen.insert(std::mem::discriminant(r)),
                "duplicate variant {r:?}"
            );
        }
        assert_eq!(reps.len(), VARIANTS);
    }
}
