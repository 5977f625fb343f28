//! Every instruction form the encoder can emit, for the referee test (tests/referee.rs),
//! which assembles the printed text with llvm-mc and compares words and relocations.
//!
//! `forms_of` is an exhaustive `match` on `Inst` (no wildcard), so a new variant does not
//! compile until it says which forms it has; `representatives` gives one instance of every
//! variant (a unit test checks it against `VARIANTS`). Within a variant the forms come from
//! the operation tables (`AddSub::ALL`, `MemOp::ALL`, ...) crossed with register choices that
//! hit the special cases (x30, `sp` and the zero register where the field allows them) and
//! immediates at the edges of their fields.

use super::encode::bitmask_imm;
use super::inst::*;
use neverc_codegen::reloc::SymId;

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

/// Registers for fields where 31 is the zero register.
fn zrs() -> [Gpr; 4] {
    [g(0), g(17), g(30), Gpr::ZR]
}

/// Registers for fields where 31 is sp.
fn sps() -> [Gpr; 4] {
    [g(1), g(18), g(30), Gpr::SP]
}

/// Plain registers (no 31).
fn plain() -> [Gpr; 3] {
    [g(2), g(9), g(29)]
}

fn targets() -> [Target; 4] {
    [
        Target::Label(L_START),
        Target::Label(L_END),
        Target::Sym(FOO, 0),
        Target::Sym(BAR, 12),
    ]
}

/// The number of `Inst` variants (keep in step with `representatives`).
pub const VARIANTS: usize = 53;

/// One instance of every `Inst` variant.
pub fn representatives() -> Vec<Inst> {
    use Inst::*;
    let (r, f) = (g(0), Fpr(0));
    let t = Target::Label(L_START);
    vec![
        Label(L_START),
        AluImm {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: r,
            rn: r,
            imm12: 0,
            lsl12: false,
        },
        AluShift {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            shift: Shift::Lsl,
            amount: 0,
        },
        Carry {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
        },
        AluExt {
            op: AddSub::Add,
            flags: false,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            ext: Extend::Uxtb,
            amount: 0,
        },
        AddSym {
            rd: r,
            rn: r,
            sym: FOO,
            addend: 0,
            kind: AddSymKind::Lo12,
        },
        LogicImm {
            op: LogicOp::And,
            size: Size::X,
            rd: r,
            rn: r,
            imm: 1,
        },
        LogicShift {
            op: LogicOp::And,
            not: false,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            shift: Shift::Lsl,
            amount: 0,
        },
        MovWide {
            op: MovOp::Movz,
            size: Size::X,
            rd: r,
            imm16: 0,
            shift: 0,
        },
        Mul3 {
            op: Mul3Op::Madd,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            ra: r,
        },
        Alu2 {
            op: Alu2Op::Udiv,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
        },
        Alu1 {
            op: Alu1Op::Clz,
            size: Size::X,
            rd: r,
            rn: r,
        },
        Bitfield {
            op: BfOp::Ubfm,
            size: Size::X,
            rd: r,
            rn: r,
            immr: 0,
            imms: 0,
        },
        Extr {
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            lsb: 0,
        },
        CondSel {
            op: CselOp::Csel,
            size: Size::X,
            rd: r,
            rn: r,
            rm: r,
            cond: Cond::Eq,
        },
        CondCmp {
            op: AddSub::Sub,
            size: Size::X,
            rn: r,
            rm: RegOrImm5::Imm(0),
            nzcv: 0,
            cond: Cond::Eq,
        },
        B(t),
        Bl(t),
        Br(r),
        Blr(r),
        Ret(r),
        BCond(Cond::Eq, t),
        Cbz {
            nz: false,
            size: Size::X,
            rt: r,
            target: t,
        },
        Tbz {
            nz: false,
            rt: r,
            bit: 0,
            target: t,
        },
        Mem {
            op: MemOp::LdrX,
            rt: Reg::G(r),
            addr: Addr::UImm { base: r, off: 0 },
        },
        Pair {
            load: true,
            class: PairClass::X,
            rt: Reg::G(r),
            rt2: Reg::G(r),
            base: r,
            off: 0,
            mode: PairMode::Offset,
        },
        Excl {
            op: ExclOp::Ldxr,
            bytes: 8,
            rs: Gpr::ZR,
            rt: r,
            rn: r,
        },
        Adr { rd: r, target: t },
        Adrp {
            rd: r,
            sym: FOO,
            addend: 0,
            kind: PageKind::Abs,
        },
        Dmb(Barrier::Ish),
        Svc(0),
        Brk(0),
        Hint(0),
        Mrs {
            rt: r,
            reg: SysReg::TpidrEl0,
        },
        Msr {
            reg: SysReg::TpidrEl0,
            rt: r,
        },
        FMov {
            size: FSize::D,
            rd: f,
            rn: f,
        },
        FMovToGpr {
            size: FSize::D,
            rd: r,
            rn: f,
        },
        FMovFromGpr {
            size: FSize::D,
            rd: f,
            rn: r,
        },
        FMovImm {
            size: FSize::D,
            rd: f,
            imm8: 0x70,
        },
        MovV { rd: f, rn: f },
        FMovTop {
            to_gpr: true,
            g: r,
            v: f,
        },
        FUn {
            op: FUnOp::Neg,
            size: FSize::D,
            rd: f,
            rn: f,
        },
        FBin {
            op: FBinOp::Add,
            size: FSize::D,
            rd: f,
            rn: f,
            rm: f,
        },
        FCmp {
            e: false,
            size: FSize::D,
            rn: f,
            rm: None,
        },
        FCsel {
            size: FSize::D,
            rd: f,
            rn: f,
            rm: f,
            cond: Cond::Eq,
        },
        FCvt {
            to: FSize::D,
            rd: f,
            rn: f,
        },
        FCvtHalf {
            to_half: true,
            other: FSize::S,
            rd: f,
            rn: f,
        },
        IntToFp {
            signed: true,
            isize: Size::X,
            fsize: FSize::D,
            rd: f,
            rn: r,
        },
        FpToInt {
            signed: true,
            isize: Size::X,
            fsize: FSize::D,
            rd: r,
            rn: f,
        },
        JumpTableEntry {
            target: L_END,
            base: L_START,
        },
        DataWord(0),
        Lse {
            op: LseOp::Add,
            bytes: 8,
            acquire: true,
            release: true,
            rs: r,
            rt: r,
            rn: r,
        },
        Cas {
            bytes: 8,
            acquire: true,
            release: true,
            rs: r,
            rt: r,
            rn: r,
        },
    ]
}

/// Register triples (rs, rt, rn) for the atomics: the zero register in each value field,
/// sp as the base.
fn atomic_regs() -> [(Gpr, Gpr, Gpr); 3] {
    [
        (g(0), g(1), g(2)),
        (Gpr::ZR, g(30), Gpr::SP),
        (g(17), Gpr::ZR, g(29)),
    ]
}

/// Every form of the variant `rep` belongs to, appended to `out`.
pub fn forms_of(rep: &Inst, out: &mut Vec<Inst>) {
    use Inst::*;
    match rep {
        // Placed by the assembler, no bytes of its own.
        Label(_) => {}
        DataWord(_) => {
            for w in [0, 0x3ff0_0000, 0xdead_beef, u32::MAX] {
                out.push(DataWord(w));
            }
        }
        // Forward and backward distances.
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
        AluImm { .. } => {
            for op in AddSub::ALL {
                for flags in [false, true] {
                    for size in Size::ALL {
                        let rds: Vec<Gpr> = if flags { zrs().into() } else { sps().into() };
                        for rd in rds {
                            for rn in sps() {
                                for (imm12, lsl12) in [(0, false), (1, true), (4095, false)] {
                                    out.push(AluImm {
                                        op,
                                        flags,
                                        size,
                                        rd,
                                        rn,
                                        imm12,
                                        lsl12,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        AluShift { .. } => {
            for op in AddSub::ALL {
                for flags in [false, true] {
                    for size in Size::ALL {
                        for shift in [Shift::Lsl, Shift::Lsr, Shift::Asr] {
                            for amount in [0, 1, size.bits() as u8 - 1] {
                                for (rd, rn, rm) in [
                                    (g(0), g(1), g(2)),
                                    (g(30), Gpr::ZR, g(5)),
                                    (Gpr::ZR, g(3), g(4)),
                                    (g(7), g(8), Gpr::ZR),
                                ] {
                                    out.push(AluShift {
                                        op,
                                        flags,
                                        size,
                                        rd,
                                        rn,
                                        rm,
                                        shift,
                                        amount,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        Carry { .. } => {
            for op in AddSub::ALL {
                for flags in [false, true] {
                    for size in Size::ALL {
                        for (rd, rn, rm) in [
                            (g(0), g(1), g(2)),
                            (g(30), Gpr::ZR, g(5)),
                            (Gpr::ZR, g(3), Gpr::ZR),
                        ] {
                            out.push(Carry {
                                op,
                                flags,
                                size,
                                rd,
                                rn,
                                rm,
                            });
                        }
                    }
                }
            }
        }
        AluExt { .. } => {
            for op in AddSub::ALL {
                for flags in [false, true] {
                    for size in Size::ALL {
                        for ext in Extend::ALL {
                            if size == Size::W && ext.is_x() {
                                continue;
                            }
                            for amount in [0, 2, 4] {
                                let rd = if flags { Gpr::ZR } else { Gpr::SP };
                                for (rd, rn, rm) in [
                                    (g(0), g(1), g(2)),
                                    (rd, Gpr::SP, g(30)),
                                    (g(3), g(4), Gpr::ZR),
                                ] {
                                    out.push(AluExt {
                                        op,
                                        flags,
                                        size,
                                        rd,
                                        rn,
                                        rm,
                                        ext,
                                        amount,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        AddSym { .. } => {
            for kind in [
                AddSymKind::Lo12,
                AddSymKind::TprelHi12,
                AddSymKind::TprelLo12Nc,
            ] {
                for (rd, rn) in [(g(0), g(0)), (Gpr::SP, g(30)), (g(5), Gpr::SP)] {
                    for (sym, addend) in [(FOO, 0), (BAR, 16)] {
                        if kind != AddSymKind::Lo12 && addend != 0 {
                            continue;
                        }
                        out.push(AddSym {
                            rd,
                            rn,
                            sym,
                            addend,
                            kind,
                        });
                    }
                }
            }
        }
        LogicImm { .. } => {
            let imms: [u64; 10] = [
                1,
                0xff,
                0xffff_0000,
                0x5555_5555_5555_5555,
                0x8000_0000_0000_0000,
                0x0f0f_0f0f_0f0f_0f0f,
                0xffff_fffe,
                0x7fff_ffff_ffff_ffff,
                0x0000_ffff_0000_ffff,
                0x3ff_c000,
            ];
            for op in LogicOp::ALL {
                for size in Size::ALL {
                    for imm in imms {
                        if bitmask_imm(imm, size.bits()).is_none() {
                            continue;
                        }
                        let rds: Vec<Gpr> = if op == LogicOp::Ands {
                            vec![g(0), Gpr::ZR]
                        } else {
                            vec![g(0), Gpr::SP]
                        };
                        for rd in rds {
                            for rn in [g(1), Gpr::ZR, g(30)] {
                                out.push(LogicImm {
                                    op,
                                    size,
                                    rd,
                                    rn,
                                    imm,
                                });
                            }
                        }
                    }
                }
            }
        }
        LogicShift { .. } => {
            for op in LogicOp::ALL {
                for not in [false, true] {
                    for size in Size::ALL {
                        for shift in Shift::ALL {
                            for amount in [0, 3, size.bits() as u8 - 1] {
                                for (rd, rn, rm) in [
                                    (g(0), g(1), g(2)),
                                    (g(30), Gpr::ZR, g(5)),
                                    (Gpr::ZR, g(3), g(4)),
                                    (g(7), g(8), Gpr::ZR),
                                ] {
                                    out.push(LogicShift {
                                        op,
                                        not,
                                        size,
                                        rd,
                                        rn,
                                        rm,
                                        shift,
                                        amount,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        MovWide { .. } => {
            for op in MovOp::ALL {
                for size in Size::ALL {
                    for shift in (0..size.bits() as u8).step_by(16) {
                        for imm16 in [0, 1, 0x1234, 0xffff] {
                            for rd in [g(0), g(30), Gpr::ZR] {
                                out.push(MovWide {
                                    op,
                                    size,
                                    rd,
                                    imm16,
                                    shift,
                                });
                            }
                        }
                    }
                }
            }
        }
        Mul3 { .. } => {
            for op in Mul3Op::ALL {
                for size in Size::ALL {
                    let wide = !matches!(op, Mul3Op::Madd | Mul3Op::Msub);
                    if wide && size == Size::W {
                        continue;
                    }
                    let high = matches!(op, Mul3Op::Smulh | Mul3Op::Umulh);
                    for (rd, rn, rm) in [(g(0), g(1), g(2)), (g(30), Gpr::ZR, g(29))] {
                        for ra in [g(3), Gpr::ZR] {
                            if high && ra != Gpr::ZR {
                                continue;
                            }
                            out.push(Mul3 {
                                op,
                                size,
                                rd,
                                rn,
                                rm,
                                ra,
                            });
                        }
                    }
                }
            }
        }
        Alu2 { .. } => {
            for op in Alu2Op::ALL {
                for size in Size::ALL {
                    for (rd, rn, rm) in [(g(0), g(1), g(2)), (g(30), Gpr::ZR, g(29))] {
                        out.push(Alu2 {
                            op,
                            size,
                            rd,
                            rn,
                            rm,
                        });
                    }
                }
            }
        }
        Alu1 { .. } => {
            for op in Alu1Op::ALL {
                for size in Size::ALL {
                    if op == Alu1Op::Rev32 && size == Size::W {
                        continue;
                    }
                    for (rd, rn) in [(g(0), g(1)), (g(30), Gpr::ZR)] {
                        out.push(Alu1 { op, size, rd, rn });
                    }
                }
            }
        }
        Bitfield { .. } => {
            for op in BfOp::ALL {
                for size in Size::ALL {
                    let top = size.bits() as u8 - 1;
                    for (immr, imms) in [
                        (0, 7),
                        (0, 15),
                        (0, 31),
                        (0, top),
                        (1, top),
                        (top, top - 1),
                        (1, 0),
                        (5, 3),
                        (3, 10),
                        (8, 15),
                        (top, 0),
                    ] {
                        for (rd, rn) in [(g(0), g(1)), (g(30), Gpr::ZR)] {
                            out.push(Bitfield {
                                op,
                                size,
                                rd,
                                rn,
                                immr,
                                imms,
                            });
                        }
                    }
                }
            }
        }
        Extr { .. } => {
            for size in Size::ALL {
                for lsb in [0, 1, size.bits() as u8 - 1] {
                    for (rd, rn, rm) in [
                        (g(0), g(1), g(2)),
                        (g(3), g(4), g(4)),
                        (g(30), Gpr::ZR, g(5)),
                    ] {
                        out.push(Extr {
                            size,
                            rd,
                            rn,
                            rm,
                            lsb,
                        });
                    }
                }
            }
        }
        CondSel { .. } => {
            for op in CselOp::ALL {
                for size in Size::ALL {
                    for cond in Cond::ALL {
                        for (rd, rn, rm) in [
                            (g(0), g(1), g(2)),
                            (g(30), Gpr::ZR, Gpr::ZR),
                            (g(5), g(6), g(6)),
                        ] {
                            out.push(CondSel {
                                op,
                                size,
                                rd,
                                rn,
                                rm,
                                cond,
                            });
                        }
                    }
                }
            }
        }
        CondCmp { .. } => {
            for op in AddSub::ALL {
                for size in Size::ALL {
                    for cond in [Cond::Eq, Cond::Lt, Cond::Hi, Cond::Al] {
                        for rm in [
                            RegOrImm5::Reg(g(2)),
                            RegOrImm5::Reg(Gpr::ZR),
                            RegOrImm5::Imm(0),
                            RegOrImm5::Imm(31),
                        ] {
                            for (rn, nzcv) in [(g(1), 0), (g(30), 15), (Gpr::ZR, 4)] {
                                out.push(CondCmp {
                                    op,
                                    size,
                                    rn,
                                    rm,
                                    nzcv,
                                    cond,
                                });
                            }
                        }
                    }
                }
            }
        }
        B(_) => out.extend(targets().map(B)),
        Bl(_) => out.extend(targets().map(Bl)),
        Br(_) => out.extend(plain().map(Br)),
        Blr(_) => out.extend(plain().map(Blr)),
        Ret(_) => out.extend([Gpr::LR, g(0), g(16)].map(Ret)),
        BCond(..) => {
            for c in Cond::ALL {
                out.extend(targets().map(|t| BCond(c, t)));
            }
        }
        Cbz { .. } => {
            for nz in [false, true] {
                for size in Size::ALL {
                    for rt in zrs() {
                        for target in targets() {
                            out.push(Cbz {
                                nz,
                                size,
                                rt,
                                target,
                            });
                        }
                    }
                }
            }
        }
        Tbz { .. } => {
            for nz in [false, true] {
                for bit in [0, 5, 31, 32, 63] {
                    for rt in [g(0), g(30), Gpr::ZR] {
                        for target in [
                            Target::Label(L_START),
                            Target::Sym(FOO, 0),
                            Target::Sym(BAR, 4),
                        ] {
                            out.push(Tbz {
                                nz,
                                rt,
                                bit,
                                target,
                            });
                        }
                    }
                }
            }
        }
        Mem { .. } => mem_forms(out),
        Pair { .. } => {
            for load in [false, true] {
                for class in PairClass::ALL {
                    let s = class.bytes();
                    let regs = if class.is_fp() {
                        [
                            (Reg::V(Fpr(0)), Reg::V(Fpr(1))),
                            (Reg::V(Fpr(31)), Reg::V(Fpr(8))),
                        ]
                    } else {
                        [
                            (Reg::G(Gpr::FP), Reg::G(Gpr::LR)),
                            (Reg::G(Gpr::ZR), Reg::G(g(19))),
                        ]
                    };
                    for mode in PairMode::ALL {
                        for off in [-64 * s, -s, 0, 2 * s, 63 * s] {
                            for (rt, rt2) in regs {
                                for base in [Gpr::SP, g(5)] {
                                    out.push(Pair {
                                        load,
                                        class,
                                        rt,
                                        rt2,
                                        base,
                                        off,
                                        mode,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        Lse { .. } => {
            for op in LseOp::ALL {
                for bytes in [1, 2, 4, 8] {
                    for (acquire, release) in
                        [(false, false), (true, false), (false, true), (true, true)]
                    {
                        for (rs, rt, rn) in atomic_regs() {
                            out.push(Lse {
                                op,
                                bytes,
                                acquire,
                                release,
                                rs,
                                rt,
                                rn,
                            });
                        }
                    }
                }
            }
        }
        Cas { .. } => {
            for bytes in [1, 2, 4, 8] {
                for (acquire, release) in
                    [(false, false), (true, false), (false, true), (true, true)]
                {
                    for (rs, rt, rn) in atomic_regs() {
                        out.push(Cas {
                            bytes,
                            acquire,
                            release,
                            rs,
                            rt,
                            rn,
                        });
                    }
                }
            }
        }
        Excl { .. } => {
            for op in ExclOp::ALL {
                for bytes in [1, 2, 4, 8] {
                    for (rt, rn) in [(g(0), g(1)), (g(30), Gpr::SP), (Gpr::ZR, g(2))] {
                        let rs = if matches!(op, ExclOp::Stxr | ExclOp::Stlxr) {
                            g(9)
                        } else {
                            Gpr::ZR
                        };
                        out.push(Excl {
                            op,
                            bytes,
                            rs,
                            rt,
                            rn,
                        });
                    }
                }
            }
        }
        Adr { .. } => {
            for rd in zrs() {
                for target in targets() {
                    out.push(Adr { rd, target });
                }
            }
        }
        Adrp { .. } => {
            for kind in [PageKind::Abs, PageKind::Got, PageKind::GotTprel] {
                for rd in zrs() {
                    for (sym, addend) in [(FOO, 0), (BAR, 0), (BAR, 4096)] {
                        if kind != PageKind::Abs && addend != 0 {
                            continue;
                        }
                        out.push(Adrp {
                            rd,
                            sym,
                            addend,
                            kind,
                        });
                    }
                }
            }
        }
        Dmb(_) => out.extend(Barrier::ALL.map(Dmb)),
        Svc(_) => out.extend([0, 1, 0xffff].map(Svc)),
        Brk(_) => out.extend([0, 1000, 0xffff].map(Brk)),
        Hint(_) => out.extend([0, 34, 127].map(Hint)),
        Mrs { .. } => {
            for reg in SysReg::ALL {
                for rt in [g(0), g(30)] {
                    out.push(Mrs { rt, reg });
                }
            }
        }
        Msr { .. } => {
            for reg in SysReg::ALL {
                for rt in [g(0), Gpr::ZR] {
                    out.push(Msr { reg, rt });
                }
            }
        }
        FMov { .. } => {
            for size in FSize::ALL {
                for (rd, rn) in [(Fpr(0), Fpr(1)), (Fpr(31), Fpr(16))] {
                    out.push(FMov { size, rd, rn });
                }
            }
        }
        FMovToGpr { .. } => {
            for size in FSize::ALL {
                for (rd, rn) in [(g(0), Fpr(1)), (Gpr::ZR, Fpr(31)), (g(30), Fpr(7))] {
                    out.push(FMovToGpr { size, rd, rn });
                }
            }
        }
        FMovFromGpr { .. } => {
            for size in FSize::ALL {
                for (rd, rn) in [(Fpr(0), g(1)), (Fpr(31), Gpr::ZR), (Fpr(7), g(30))] {
                    out.push(FMovFromGpr { size, rd, rn });
                }
            }
        }
        MovV { .. } => {
            for (rd, rn) in [(Fpr(0), Fpr(1)), (Fpr(31), Fpr(30)), (Fpr(7), Fpr(7))] {
                out.push(MovV { rd, rn });
            }
        }
        FMovTop { .. } => {
            for to_gpr in [false, true] {
                for (g, v) in [(g(0), Fpr(1)), (Gpr::ZR, Fpr(31)), (g(30), Fpr(0))] {
                    out.push(FMovTop { to_gpr, g, v });
                }
            }
        }
        FMovImm { .. } => {
            for size in FSize::ALL {
                for imm8 in [0x00, 0x70, 0x40, 0x3f, 0xe0, 0xff, 0x80, 0x1c] {
                    out.push(FMovImm {
                        size,
                        rd: Fpr(imm8 & 31),
                        imm8,
                    });
                }
            }
        }
        FUn { .. } => {
            for op in FUnOp::ALL {
                for size in FSize::ALL {
                    for (rd, rn) in [(Fpr(0), Fpr(1)), (Fpr(31), Fpr(30))] {
                        out.push(FUn { op, size, rd, rn });
                    }
                }
            }
        }
        FBin { .. } => {
            for op in FBinOp::ALL {
                for size in FSize::ALL {
                    for (rd, rn, rm) in [(Fpr(0), Fpr(1), Fpr(2)), (Fpr(31), Fpr(30), Fpr(16))] {
                        out.push(FBin {
                            op,
                            size,
                            rd,
                            rn,
                            rm,
                        });
                    }
                }
            }
        }
        FCmp { .. } => {
            for e in [false, true] {
                for size in FSize::ALL {
                    for (rn, rm) in [
                        (Fpr(0), Some(Fpr(1))),
                        (Fpr(31), None),
                        (Fpr(7), Some(Fpr(31))),
                    ] {
                        out.push(FCmp { e, size, rn, rm });
                    }
                }
            }
        }
        FCsel { .. } => {
            for size in FSize::ALL {
                for cond in Cond::ALL {
                    out.push(FCsel {
                        size,
                        rd: Fpr(cond as u8),
                        rn: Fpr(1),
                        rm: Fpr(31),
                        cond,
                    });
                }
            }
        }
        FCvt { .. } => {
            for to in FSize::ALL {
                for (rd, rn) in [(Fpr(0), Fpr(1)), (Fpr(31), Fpr(31))] {
                    out.push(FCvt { to, rd, rn });
                }
            }
        }
        FCvtHalf { .. } => {
            for to_half in [false, true] {
                for other in FSize::ALL {
                    for (rd, rn) in [(Fpr(0), Fpr(1)), (Fpr(31), Fpr(31))] {
                        out.push(FCvtHalf {
                            to_half,
                            other,
                            rd,
                            rn,
                        });
                    }
                }
            }
        }
        IntToFp { .. } => {
            for signed in [false, true] {
                for isize in Size::ALL {
                    for fsize in FSize::ALL {
                        for (rd, rn) in [(Fpr(0), g(1)), (Fpr(31), Gpr::ZR)] {
                            out.push(IntToFp {
                                signed,
                                isize,
                                fsize,
                                rd,
                                rn,
                            });
                        }
                    }
                }
            }
        }
        FpToInt { .. } => {
            for signed in [false, true] {
                for isize in Size::ALL {
                    for fsize in FSize::ALL {
                        for (rd, rn) in [(g(0), Fpr(1)), (Gpr::ZR, Fpr(31))] {
                            out.push(FpToInt {
                                signed,
                                isize,
                                fsize,
                                rd,
                                rn,
                            });
                        }
                    }
                }
            }
        }
    }
}

fn mem_forms(out: &mut Vec<Inst>) {
    for op in MemOp::ALL {
        let b = op.bytes();
        let rts: Vec<Reg> = if op.is_fp() {
            vec![Reg::V(Fpr(0)), Reg::V(Fpr(31))]
        } else {
            vec![Reg::G(g(0)), Reg::G(g(30)), Reg::G(Gpr::ZR)]
        };
        let mut addrs = Vec::new();
        for base in [g(1), Gpr::SP, Gpr::FP] {
            for off in [0, b, 4095 * b] {
                addrs.push(Addr::UImm { base, off });
            }
            for off in [-256, -1, 0, 255] {
                addrs.push(Addr::Unscaled { base, off });
            }
            for off in [-256, 16, 255] {
                addrs.push(Addr::Pre { base, off });
                addrs.push(Addr::Post { base, off });
            }
        }
        for ext in IndexExt::ALL {
            for scaled in [false, true] {
                for (base, index) in [(g(1), g(2)), (Gpr::SP, g(30)), (g(3), Gpr::ZR)] {
                    addrs.push(Addr::RegOff {
                        base,
                        index,
                        ext,
                        scaled,
                    });
                }
            }
        }
        for (base, sym, addend) in [(g(1), FOO, 0), (Gpr::SP, BAR, 8 * b as i64)] {
            addrs.push(Addr::Lo12 {
                base,
                sym,
                addend,
                kind: LoKind::Abs,
            });
            if op == MemOp::LdrX {
                for kind in [LoKind::Got, LoKind::GotTprel] {
                    addrs.push(Addr::Lo12 {
                        base,
                        sym,
                        addend: 0,
                        kind,
                    });
                }
            }
        }
        if matches!(
            op,
            MemOp::LdrW | MemOp::LdrX | MemOp::Ldrsw | MemOp::LdrS | MemOp::LdrD | MemOp::LdrQ
        ) {
            addrs.extend(targets().map(Addr::Literal));
        }
        for addr in addrs {
            for &rt in &rts {
                // Writeback with the transfer register as the base is unpredictable.
                let wb_base = match addr {
                    Addr::Pre { base, .. } | Addr::Post { base, .. } => Some(base),
                    _ => None,
                };
                if let (Some(b), Reg::G(r)) = (wb_base, rt) {
                    if b == r {
                        continue;
                    }
                }
                out.push(Inst::Mem { op, rt, addr });
            }
        }
    }
}

/// Every form, in a fixed order.
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
                "variant twice: {r:?}"
            );
        }
        assert_eq!(reps.len(), VARIANTS);
    }

    #[test]
    fn every_form_encodes() {
        for f in all_forms() {
            if let Inst::Label(_) = f {
                continue;
            }
            super::super::encode(&f).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
