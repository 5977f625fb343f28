//! Exact bytes for tricky encodings (each checked by hand against the Intel SDM and gas),
//! and the operands the encoder must refuse rather than encode as something else.

use neverc_codegen::reloc::{Fixup, RelocKind, SymId};
use neverc_isa_x86_64::asm::*;

fn enc(i: Inst) -> Vec<u8> {
    let mut s = Sink::default();
    encode(&i, &mut s).unwrap_or_else(|e| panic!("{e}"));
    s.bytes
}

fn enc_full(i: Inst) -> Sink {
    let mut s = Sink::default();
    encode(&i, &mut s).unwrap_or_else(|e| panic!("{e}"));
    s
}

fn txt(i: Inst) -> String {
    print(&i, &|s| format!("sym{}", s.0), &|l| format!(".L{}", l.0))
}

fn mov(size: Size, src: Rmi, dst: Rm) -> Inst {
    Inst::Mov { size, src, dst }
}

#[test]
fn modrm_sib_special_cases() {
    // (%rsp) needs a SIB byte; (%r12) too (same low bits), with REX.B.
    let load = |m| enc(mov(Size::S64, Rmi::Mem(m), Rm::Reg(Gpr::RAX)));
    assert_eq!(load(Mem::base(Gpr::RSP, 0)), [0x48, 0x8B, 0x04, 0x24]);
    assert_eq!(load(Mem::base(Gpr::R12, 0)), [0x49, 0x8B, 0x04, 0x24]);
    // (%rbp) and (%r13) cannot use mod 00 (that is RIP / no-base): disp8 0.
    assert_eq!(load(Mem::base(Gpr::RBP, 0)), [0x48, 0x8B, 0x45, 0x00]);
    assert_eq!(load(Mem::base(Gpr::R13, 0)), [0x49, 0x8B, 0x45, 0x00]);
    // disp8 / disp32 boundary.
    assert_eq!(load(Mem::base(Gpr::RCX, 127)), [0x48, 0x8B, 0x41, 0x7F]);
    assert_eq!(
        load(Mem::base(Gpr::RCX, 128)),
        [0x48, 0x8B, 0x81, 0x80, 0, 0, 0]
    );
    assert_eq!(load(Mem::base(Gpr::RCX, -128)), [0x48, 0x8B, 0x41, 0x80]);
    // No base, with index: SIB base 101 and a disp32.
    assert_eq!(
        load(Mem::index_only(Gpr::RCX, 8, 16)),
        [0x48, 0x8B, 0x04, 0xCD, 0x10, 0, 0, 0]
    );
    // Absolute address: SIB 0x25 (mod 00 rm 101 would be RIP-relative).
    assert_eq!(
        load(Mem::abs(0x10)),
        [0x48, 0x8B, 0x04, 0x25, 0x10, 0, 0, 0]
    );
    // r13 base with r12 index: REX.X and REX.B, disp8 0.
    assert_eq!(
        load(Mem::bis(Gpr::R13, Gpr::R12, 8, 0)),
        [0x4B, 0x8B, 0x44, 0xE5, 0x00]
    );
}

#[test]
fn byte_registers_need_rex() {
    // movb %sil, %dil: REX without bits, else it would be %dh, %bh.
    let i = mov(Size::S8, Rmi::Reg(Gpr::RSI), Rm::Reg(Gpr::RDI));
    assert_eq!(enc(i), [0x40, 0x88, 0xF7]);
    assert_eq!(txt(i), "movb %sil, %dil");
    // sete %spl
    let i = Inst::Setcc {
        cond: Cond::E,
        dst: Rm::Reg(Gpr::RSP),
    };
    assert_eq!(enc(i), [0x40, 0x0F, 0x94, 0xC4]);
    // movzbl %bpl, %eax
    let i = Inst::MovX {
        signed: false,
        from: Size::S8,
        to: Size::S32,
        src: Rm::Reg(Gpr::RBP),
        dst: Gpr::RAX,
    };
    assert_eq!(enc(i), [0x40, 0x0F, 0xB6, 0xC5]);
    // movb %al, %cl needs none.
    assert_eq!(
        enc(mov(Size::S8, Rmi::Reg(Gpr::RAX), Rm::Reg(Gpr::RCX))),
        [0x88, 0xC1]
    );
}

#[test]
fn mov_immediate_picks_the_shortest_form() {
    let m = |v: i64| mov(Size::S64, Rmi::Imm(v), Rm::Reg(Gpr::RAX));
    assert_eq!(enc(m(1)), [0xB8, 1, 0, 0, 0]);
    assert_eq!(txt(m(1)), "movl $1, %eax");
    assert_eq!(enc(m(0xffff_ffff)), [0xB8, 0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(enc(m(-1)), [0x48, 0xC7, 0xC0, 0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(txt(m(-1)), "movq $-1, %rax");
    assert_eq!(enc(m(0x1_0000_0000)), [0x48, 0xB8, 0, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(txt(m(0x1_0000_0000)), "movabsq $4294967296, %rax");
    // r9: REX.B on the B8+r form.
    let i = mov(Size::S64, Rmi::Imm(5), Rm::Reg(Gpr::R9));
    assert_eq!(enc(i), [0x41, 0xB9, 5, 0, 0, 0]);
}

#[test]
fn alu_immediate_forms_match_gas() {
    let alu = |size, v: i64, r| Inst::Alu {
        op: AluOp::Add,
        size,
        src: Rmi::Imm(v),
        dst: Rm::Reg(r),
    };
    // imm8 beats the accumulator form; the accumulator form beats 81.
    assert_eq!(enc(alu(Size::S32, 1, Gpr::RAX)), [0x83, 0xC0, 0x01]);
    assert_eq!(
        enc(alu(Size::S32, 1000, Gpr::RAX)),
        [0x05, 0xE8, 0x03, 0, 0]
    );
    assert_eq!(
        enc(alu(Size::S32, 1000, Gpr::RCX)),
        [0x81, 0xC1, 0xE8, 0x03, 0, 0]
    );
    assert_eq!(enc(alu(Size::S8, 1, Gpr::RAX)), [0x04, 0x01]);
    // 0xffff as a 16-bit immediate is -1: imm8.
    assert_eq!(
        enc(alu(Size::S16, 0xffff, Gpr::RCX)),
        [0x66, 0x83, 0xC1, 0xFF]
    );
    // cmpq $-129, %rax: accumulator form with a sign-extended imm32.
    let i = Inst::Alu {
        op: AluOp::Cmp,
        size: Size::S64,
        src: Rmi::Imm(-129),
        dst: Rm::Reg(Gpr::RAX),
    };
    assert_eq!(enc(i), [0x48, 0x3D, 0x7F, 0xFF, 0xFF, 0xFF]);
}

#[test]
fn rip_relative_fixups_account_for_trailing_immediates() {
    // movl $7, foo+4(%rip): the field is 6 bytes before the end, so addend 4 - 8.
    let s = enc_full(mov(
        Size::S32,
        Rmi::Imm(7),
        Rm::Mem(Mem::rip(SymId(3), RelocKind::Pc32, 4)),
    ));
    assert_eq!(s.bytes, [0xC7, 0x05, 0, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(
        s.fixups,
        [Fixup {
            offset: 2,
            sym: SymId(3),
            kind: RelocKind::Pc32,
            addend: -4
        }]
    );
}

#[test]
fn got_relocation_kinds_follow_gas() {
    let got = Mem::rip(SymId(0), RelocKind::GotPcRel, 0);
    let kind = |i| enc_full(i).fixups[0].kind;
    assert_eq!(
        kind(mov(Size::S64, Rmi::Mem(got), Rm::Reg(Gpr::RAX))),
        RelocKind::RexGotPcRelX
    );
    assert_eq!(
        kind(mov(Size::S32, Rmi::Mem(got), Rm::Reg(Gpr::RAX))),
        RelocKind::GotPcRelX
    );
    assert_eq!(
        kind(Inst::CallInd {
            target: Rm::Mem(got)
        }),
        RelocKind::GotPcRelX
    );
    // Not relaxable: lea, and 16-bit forms.
    assert_eq!(
        kind(Inst::Lea {
            size: Size::S64,
            src: got,
            dst: Gpr::RAX
        }),
        RelocKind::GotPcRel
    );
    let i = mov(Size::S64, Rmi::Mem(got), Rm::Reg(Gpr::RAX));
    assert_eq!(txt(i), "movq sym0@GOTPCREL(%rip), %rax");
}

#[test]
fn tls_forms() {
    // movq %fs:0, %rax
    let i = mov(Size::S64, Rmi::Mem(Mem::fs_abs(0)), Rm::Reg(Gpr::RAX));
    assert_eq!(enc(i), [0x64, 0x48, 0x8B, 0x04, 0x25, 0, 0, 0, 0]);
    assert_eq!(txt(i), "movq %fs:0, %rax");
    // movl %fs:x@tpoff, %eax
    let i = mov(
        Size::S32,
        Rmi::Mem(Mem::fs_tpoff(SymId(1), 0)),
        Rm::Reg(Gpr::RAX),
    );
    let s = enc_full(i);
    assert_eq!(s.bytes, [0x64, 0x8B, 0x04, 0x25, 0, 0, 0, 0]);
    assert_eq!(s.fixups[0].kind, RelocKind::TpOff32);
    assert_eq!(s.fixups[0].offset, 4);
    assert_eq!(txt(i), "movl %fs:sym1@tpoff, %eax");
    // movq x@GOTTPOFF(%rip), %rax
    let i = mov(
        Size::S64,
        Rmi::Mem(Mem::rip(SymId(1), RelocKind::GotTpOff, 0)),
        Rm::Reg(Gpr::RAX),
    );
    assert_eq!(enc_full(i).fixups[0].kind, RelocKind::GotTpOff);
    assert_eq!(txt(i), "movq sym1@GOTTPOFF(%rip), %rax");
}

#[test]
fn misc_exact_bytes() {
    assert_eq!(
        enc(Inst::Shift {
            op: ShiftOp::Shl,
            size: Size::S32,
            amount: Some(1),
            dst: Rm::Reg(Gpr::RAX)
        }),
        [0xD1, 0xE0]
    );
    assert_eq!(
        enc(Inst::Shift {
            op: ShiftOp::Sar,
            size: Size::S64,
            amount: None,
            dst: Rm::Reg(Gpr::R11)
        }),
        [0x49, 0xD3, 0xFB]
    );
    assert_eq!(
        enc(Inst::Xchg {
            size: Size::S64,
            src: Gpr::RAX,
            dst: Rm::Reg(Gpr::R10)
        }),
        [0x49, 0x92]
    );
    assert_eq!(
        enc(Inst::LockCmpxchg {
            size: Size::S16,
            src: Gpr::RCX,
            dst: Mem::base(Gpr::RDI, 0)
        }),
        [0x66, 0xF0, 0x0F, 0xB1, 0x0F]
    );
    assert_eq!(
        enc(Inst::BitCount {
            op: BitOp::Popcnt,
            size: Size::S16,
            src: Rm::Reg(Gpr::RAX),
            dst: Gpr::RCX
        }),
        [0x66, 0xF3, 0x0F, 0xB8, 0xC8]
    );
    assert_eq!(enc(Inst::Push { src: Gpr::R12 }), [0x41, 0x54]);
    assert_eq!(
        enc(Inst::X87Reg {
            op: X87RegOp::Fsubrp,
            st: 1
        }),
        [0xDE, 0xE9]
    );
    assert_eq!(
        enc(Inst::MovGprToXmm {
            size: Size::S64,
            src: Rm::Reg(Gpr::RAX),
            dst: Xmm(8)
        }),
        [0x66, 0x4C, 0x0F, 0x6E, 0xC0]
    );
    let call = enc_full(Inst::CallSym {
        sym: SymId(2),
        kind: RelocKind::Plt32,
    });
    assert_eq!(call.bytes, [0xE8, 0, 0, 0, 0]);
    assert_eq!(call.fixups[0].addend, -4);
}

#[test]
fn printer_text() {
    let i = mov(
        Size::S64,
        Rmi::Reg(Gpr::RAX),
        Rm::Mem(Mem::base(Gpr::RBP, -8)),
    );
    assert_eq!(txt(i), "movq %rax, -8(%rbp)");
    let i = Inst::Lea {
        size: Size::S64,
        src: Mem::rip(SymId(4), RelocKind::Pc32, 0),
        dst: Gpr::RAX,
    };
    assert_eq!(txt(i), "leaq sym4(%rip), %rax");
    let i = Inst::CallSym {
        sym: SymId(4),
        kind: RelocKind::Plt32,
    };
    assert_eq!(txt(i), "call sym4@PLT");
    let i = Inst::Jcc {
        cond: Cond::NE,
        target: Label(5),
    };
    assert_eq!(txt(i), "jne .L5");
    assert_eq!(txt(Inst::Jmp { target: Label(3) }), "jmp .L3");
    assert_eq!(
        txt(Inst::Alu {
            op: AluOp::Add,
            size: Size::S64,
            src: Rmi::Mem(Mem::bis(Gpr::RAX, Gpr::RCX, 8, 16)),
            dst: Rm::Reg(Gpr::RDX)
        }),
        "addq 16(%rax,%rcx,8), %rdx"
    );
    assert_eq!(
        txt(Inst::JumpTableEntry {
            target: Label(7),
            base: Label(6)
        }),
        ".long .L7-.L6"
    );
    assert_eq!(txt(Inst::Align(16)), ".p2align 4");
    assert_eq!(txt(Inst::Label(Label(2))), ".L2:");
}

#[test]
fn cond_inverse() {
    for c in Cond::ALL {
        assert_ne!(c, c.invert());
        assert_eq!(c, c.invert().invert());
    }
    assert_eq!(Cond::E.invert(), Cond::NE);
    assert_eq!(Cond::L.invert(), Cond::GE);
    assert_eq!(Cond::A.invert(), Cond::BE);
    assert_eq!(Cond::P.invert(), Cond::NP);
}

#[test]
fn unencodable_operands_are_errors() {
    let bad = [
        // %rsp cannot be an index.
        mov(
            Size::S64,
            Rmi::Mem(Mem::bis(Gpr::RAX, Gpr::RSP, 1, 0)),
            Rm::Reg(Gpr::RAX),
        ),
        // scale 3
        mov(
            Size::S64,
            Rmi::Mem(Mem::bis(Gpr::RAX, Gpr::RCX, 3, 0)),
            Rm::Reg(Gpr::RAX),
        ),
        // memory to memory
        mov(
            Size::S64,
            Rmi::Mem(Mem::base(Gpr::RAX, 0)),
            Rm::Mem(Mem::base(Gpr::RCX, 0)),
        ),
        // imm64 to memory
        mov(
            Size::S64,
            Rmi::Imm(1 << 40),
            Rm::Mem(Mem::base(Gpr::RAX, 0)),
        ),
        // imm too wide for a byte
        mov(Size::S8, Rmi::Imm(300), Rm::Reg(Gpr::RAX)),
        // register 16
        mov(Size::S64, Rmi::Reg(Gpr(16)), Rm::Reg(Gpr::RAX)),
        // 8-bit imul / cmov
        Inst::Imul2 {
            size: Size::S8,
            src: Rm::Reg(Gpr::RAX),
            dst: Gpr::RCX,
        },
        // zero-extension from 32 bits is a movl
        Inst::MovX {
            signed: false,
            from: Size::S32,
            to: Size::S64,
            src: Rm::Reg(Gpr::RAX),
            dst: Gpr::RAX,
        },
        // a pc-relative relocation without %rip
        mov(
            Size::S64,
            Rmi::Mem(Mem::base(Gpr::RAX, 0).with_sym(SymId(0), RelocKind::Pc32)),
            Rm::Reg(Gpr::RAX),
        ),
        // a 64-bit relocation cannot sit in a displacement
        mov(
            Size::S64,
            Rmi::Mem(Mem::base(Gpr::RAX, 0).with_sym(SymId(0), RelocKind::Abs64)),
            Rm::Reg(Gpr::RAX),
        ),
        // an absolute relocation in a %rip operand
        mov(
            Size::S64,
            Rmi::Mem(Mem::rip(SymId(0), RelocKind::Abs32S, 0)),
            Rm::Reg(Gpr::RAX),
        ),
        // x87 register out of range
        Inst::X87Reg {
            op: X87RegOp::Fld,
            st: 8,
        },
        Inst::XmmMov {
            op: XmmMovOp::Movss,
            src: XmmMem::Mem(Mem::base(Gpr::RAX, 0)),
            dst: XmmMem::Mem(Mem::base(Gpr::RAX, 0)),
        },
    ];
    for i in bad {
        let mut s = Sink::default();
        let e = encode(&i, &mut s).expect_err(&format!("{i:?} must not encode"));
        assert!(e.message.contains("cannot encode"), "{}", e.message);
    }
}
