//! Encoding of one `Inst` to bytes: prefixes, REX, opcode, ModRM/SIB/displacement,
//! immediates, symbol fixups and label uses (patched later by the assembler).
//!
//! Where the ISA offers several encodings, the choice is GNU as's (without -O), so that the
//! text from `print` reassembles to the same bytes: reg-to-reg ALU ops and movs use the
//! "store" opcodes (01, 89), ALU immediates use 83 ib when the value fits in a signed byte,
//! then the accumulator short form, then 81; shifts by 1 use D1; xchg with the accumulator
//! uses 90+r.

use super::inst::*;
use neverc_codegen::reloc::{Fixup, RelocKind, SymId};

/// A reference to a label in emitted bytes: the field at `offset` (`size` 1 or 4 bytes) gets
/// `label_offset + addend - (base label's offset if base is set, else offset)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelUse {
    pub offset: u32,
    pub size: u8,
    pub label: Label,
    pub addend: i64,
    pub base: Option<Label>,
}

/// Where `encode` writes: bytes, symbol fixups and label uses, offsets relative to the start
/// of `bytes` (the function start when the assembler drives it).
#[derive(Clone, Debug, Default)]
pub struct Sink {
    pub bytes: Vec<u8>,
    pub fixups: Vec<Fixup>,
    pub label_uses: Vec<LabelUse>,
}

impl Sink {
    fn put(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }
    fn off(&self) -> u32 {
        self.bytes.len() as u32
    }
}

/// The r/m side of a ModRM-encoded instruction.
#[derive(Clone, Copy)]
enum RmArg {
    /// A register number 0..15 (GPR or XMM or a /digit-only form's register).
    Reg(u8),
    Mem(Mem),
    /// No ModRM: the register is added to the last opcode byte (B8+r, 50+r, ...).
    OpReg(u8),
    /// No ModRM and no register.
    None,
}

/// An immediate following the ModRM bytes.
#[derive(Clone, Copy)]
enum ImmArg {
    None,
    /// Value and width in bytes (1, 2, 4, 8).
    Val(i64, u8),
    /// A symbol-valued immediate (width 4 or 8).
    Sym(SymId, RelocKind, i64, u8),
}

impl ImmArg {
    fn len(self) -> u32 {
        match self {
            ImmArg::None => 0,
            ImmArg::Val(_, n) | ImmArg::Sym(_, _, _, n) => n as u32,
        }
    }
}

/// The pieces of one instruction, in emission order.
struct Parts {
    p66: bool,
    /// Mandatory / repeat prefix F2 or F3.
    rep: Option<u8>,
    lock: bool,
    w: bool,
    /// Force a REX prefix (8-bit access to spl/bpl/sil/dil).
    rex_force: bool,
    /// Opcode bytes (1 to 3) and how many are used.
    opcode: [u8; 3],
    op_len: usize,
    reg: u8,
    rm: RmArg,
    imm: ImmArg,
    /// An SSE instruction (gas refuses `sym@GOTTPOFF` operands in those).
    sse: bool,
}

impl Parts {
    fn new(op: &[u8]) -> Parts {
        let mut opcode = [0u8; 3];
        opcode[..op.len()].copy_from_slice(op);
        Parts {
            p66: false,
            rep: None,
            lock: false,
            w: false,
            rex_force: false,
            opcode,
            op_len: op.len(),
            reg: 0,
            rm: RmArg::None,
            imm: ImmArg::None,
            sse: false,
        }
    }
}

fn err(inst: &Inst, why: &str) -> EncodeError {
    EncodeError::new(inst, why)
}

impl Parts {
    fn op(&self) -> &[u8] {
        &self.opcode[..self.op_len]
    }
}

/// Whether gas relaxes a GOTPCREL reference in this instruction (mov load, test, the
/// ALU r/m-to-reg forms, call/jmp through memory) to GOTPCRELX / REX_GOTPCRELX. (Not with
/// a 66 operand-size prefix: gas keeps plain GOTPCREL for 16-bit forms.)
fn got_relaxable(op: &[u8], reg: u8) -> bool {
    if op.len() != 1 {
        return false;
    }
    let o = op[0];
    o == 0x8B || o == 0x85 || (o | 0x38) == 0x3B || (o == 0xFF && (reg == 2 || reg == 4))
}

/// The bytes of one instruction as they are put together (at most 15 in the ISA; room for
/// every combination of prefixes, opcode, ModRM/SIB, displacement and immediate `Parts` can
/// describe), copied to the sink once: much cheaper than growing the sink byte by byte.
struct Buf {
    b: [u8; 24],
    n: usize,
}

impl Buf {
    #[inline(always)]
    fn put(&mut self, x: u8) {
        self.b[self.n] = x;
        self.n += 1;
    }
    #[inline(always)]
    fn put4(&mut self, x: [u8; 4]) {
        self.b[self.n..self.n + 4].copy_from_slice(&x);
        self.n += 4;
    }
}

fn emit(inst: &Inst, sink: &mut Sink, mut p: Parts) -> Result<(), EncodeError> {
    // %ah %ch %dh %bh (0x14..=0x17): their encoding 4..7, and no REX prefix allowed.
    let mut high = false;
    if (0x14..=0x17).contains(&p.reg) {
        p.reg &= 7;
        high = true;
    }
    if let RmArg::Reg(r) | RmArg::OpReg(r) = &mut p.rm {
        if (0x14..=0x17).contains(r) {
            *r &= 7;
            high = true;
        }
    }
    // Prefixes in gas's order: segment, operand size, F2/F3, lock, REX.
    let mut rex = 0u8;
    if p.w {
        rex |= 8;
    }
    if p.reg & 8 != 0 {
        rex |= 4;
    }
    if p.reg > 15 {
        return Err(err(inst, "register number out of range"));
    }
    let mut buf = Buf { b: [0; 24], n: 0 };
    match &p.rm {
        RmArg::Reg(r) | RmArg::OpReg(r) => {
            if *r > 15 {
                return Err(err(inst, "register number out of range"));
            }
            if r & 8 != 0 {
                rex |= 1;
            }
        }
        RmArg::Mem(m) => {
            if let Some(b) = m.base {
                if b.is_ext() {
                    rex |= 1;
                }
            }
            if let Some((i, _)) = m.index {
                if i.is_ext() {
                    rex |= 2;
                }
            }
            if p.sse && matches!(m.sym, Some((_, RelocKind::GotTpOff))) {
                return Err(err(
                    inst,
                    "GNU as refuses a GOTTPOFF operand in an SSE instruction",
                ));
            }
            match m.seg {
                Some(Seg::Fs) => buf.put(0x64),
                Some(Seg::Gs) => buf.put(0x65),
                None => {}
            }
        }
        RmArg::None => {}
    }
    if p.p66 {
        buf.put(0x66);
    }
    if let Some(r) = p.rep {
        buf.put(r);
    }
    if p.lock {
        buf.put(0xF0);
    }
    let has_rex = rex != 0 || p.rex_force;
    if high && has_rex {
        return Err(err(
            inst,
            "a high-byte register in an instruction that needs a REX prefix",
        ));
    }
    if has_rex {
        buf.put(0x40 | rex);
    }
    // The opcode bytes, the register added to the last one in the `+r` forms.
    let last = p.op_len - 1;
    for k in 0..last {
        buf.put(p.opcode[k]);
    }
    match &p.rm {
        RmArg::OpReg(r) => buf.put(p.opcode[last] + (r & 7)),
        _ => buf.put(p.opcode[last]),
    }
    let imm_len = p.imm.len();
    match &p.rm {
        RmArg::Reg(r) => buf.put(0xC0 | ((p.reg & 7) << 3) | (r & 7)),
        RmArg::Mem(m) => {
            // The GOTPCREL-family kind gas would give a `sym@GOTPCREL(%rip)` here.
            let got = if !got_relaxable(p.op(), p.reg) || p.p66 {
                RelocKind::GotPcRel
            } else if has_rex {
                RelocKind::RexGotPcRelX
            } else {
                RelocKind::GotPcRelX
            };
            emit_mem(inst, sink, &mut buf, p.reg, m, imm_len, got)?
        }
        RmArg::OpReg(_) | RmArg::None => {}
    }
    match p.imm {
        ImmArg::None => {}
        ImmArg::Val(v, n) => {
            let n = n as usize;
            buf.b[buf.n..buf.n + n].copy_from_slice(&v.to_le_bytes()[..n]);
            buf.n += n;
        }
        ImmArg::Sym(sym, kind, addend, n) => {
            sink.fixups.push(Fixup {
                offset: sink.off() + buf.n as u32,
                sym,
                kind,
                addend,
            });
            buf.n += n as usize;
        }
    }
    sink.put(&buf.b[..buf.n]);
    Ok(())
}

/// Relocation kinds a `sym(%rip)` displacement can carry (what gas emits for `sym`,
/// `sym@GOTPCREL`, `sym@GOTTPOFF` there).
fn is_pc_relative(kind: RelocKind) -> bool {
    matches!(
        kind,
        RelocKind::Pc32
            | RelocKind::GotPcRel
            | RelocKind::GotPcRelX
            | RelocKind::RexGotPcRelX
            | RelocKind::GotTpOff
    )
}

/// Relocation kinds an absolute 32-bit displacement can carry: gas emits R_X86_64_32S for
/// `sym(%reg)` / `sym` and TPOFF32 for `sym@tpoff`.
fn is_abs_disp(kind: RelocKind) -> bool {
    matches!(kind, RelocKind::Abs32S | RelocKind::TpOff32)
}

/// ModRM (+SIB, +displacement) for a memory operand. `trailing` is the number of immediate
/// bytes after the displacement (RIP-relative addends are relative to the instruction end);
/// `got` the kind a GOTPCREL-family symbol takes in this instruction. The bytes go to `buf`,
/// which lands at the sink's end (fixups and label uses are placed accordingly).
fn emit_mem(
    inst: &Inst,
    sink: &mut Sink,
    buf: &mut Buf,
    reg: u8,
    m: &Mem,
    trailing: u32,
    got: RelocKind,
) -> Result<(), EncodeError> {
    let r = (reg & 7) << 3;
    if m.rip {
        if m.base.is_some() || m.index.is_some() {
            return Err(err(inst, "a %rip-relative operand has no base or index"));
        }
        buf.put(r | 0x05);
        let field = sink.off() + buf.n as u32;
        let addend = m.disp as i64 - 4 - trailing as i64;
        match (m.sym, m.label) {
            (Some(_), Some(_)) => return Err(err(inst, "both a symbol and a label")),
            (Some((sym, kind)), None) => {
                if !is_pc_relative(kind) {
                    return Err(err(
                        inst,
                        "a %rip operand takes a Pc32, GOTPCREL-family or GotTpOff symbol",
                    ));
                }
                let kind = match kind {
                    RelocKind::GotPcRel | RelocKind::GotPcRelX | RelocKind::RexGotPcRelX => got,
                    k => k,
                };
                sink.fixups.push(Fixup {
                    offset: field,
                    sym,
                    kind,
                    addend,
                });
                buf.n += 4;
            }
            (None, Some(label)) => {
                sink.label_uses.push(LabelUse {
                    offset: field,
                    size: 4,
                    label,
                    addend,
                    base: None,
                });
                buf.n += 4;
            }
            (None, None) => buf.put4(m.disp.to_le_bytes()),
        }
        return Ok(());
    }
    if m.label.is_some() {
        return Err(err(inst, "a label operand must be %rip-relative"));
    }
    if let Some((_, kind)) = m.sym {
        if !is_abs_disp(kind) {
            return Err(err(
                inst,
                "an absolute address takes an Abs32S or TpOff32 symbol (pc-relative ones need %rip)",
            ));
        }
    }
    let index = match m.index {
        Some((i, s)) => {
            if i.0 > 15 {
                return Err(err(inst, "register number out of range"));
            }
            if i.low3() == 4 && !i.is_ext() {
                return Err(err(inst, "%rsp cannot be an index"));
            }
            let ss = match s {
                1 => 0,
                2 => 1,
                4 => 2,
                8 => 3,
                _ => return Err(err(inst, "scale must be 1, 2, 4 or 8")),
            };
            Some((i, ss))
        }
        None => None,
    };
    // Displacement size: a symbol always takes 32 bits; a base of rbp/r13 cannot use mod 00.
    enum D {
        None,
        D8,
        D32,
    }
    let d = |base_low: u8| {
        if m.sym.is_some() {
            D::D32
        } else if m.disp == 0 && base_low != 5 {
            D::None
        } else if (-128..=127).contains(&m.disp) {
            D::D8
        } else {
            D::D32
        }
    };
    let dkind = match m.base {
        None => {
            // mod 00 rm 100, SIB base 101: disp32 with no base (with or without index).
            buf.put(r | 0x04);
            let sib = match index {
                Some((i, ss)) => (ss << 6) | (i.low3() << 3) | 5,
                None => 0x25,
            };
            buf.put(sib);
            D::D32
        }
        Some(b) => {
            if b.0 > 15 {
                return Err(err(inst, "register number out of range"));
            }
            let dk = d(b.low3());
            let md = match dk {
                D::None => 0x00,
                D::D8 => 0x40,
                D::D32 => 0x80,
            };
            match index {
                Some((i, ss)) => {
                    buf.put(md | r | 0x04);
                    buf.put((ss << 6) | (i.low3() << 3) | b.low3());
                }
                None if b.low3() == 4 => {
                    buf.put(md | r | 0x04);
                    buf.put(0x24);
                }
                None => buf.put(md | r | b.low3()),
            }
            dk
        }
    };
    match dkind {
        D::None => {}
        D::D8 => buf.put(m.disp as i8 as u8),
        D::D32 => {
            if let Some((sym, kind)) = m.sym {
                sink.fixups.push(Fixup {
                    offset: sink.off() + buf.n as u32,
                    sym,
                    kind,
                    addend: m.disp as i64,
                });
                buf.n += 4;
            } else {
                buf.put4(m.disp.to_le_bytes());
            }
        }
    }
    Ok(())
}

/// An 8-bit register operand 4..7 (spl bpl sil dil) needs a REX prefix to be addressed.
pub(super) fn byte_rex(size: Size, r: Gpr) -> bool {
    size == Size::S8 && (4..8).contains(&r.0)
}

fn rm_arg(rm: &Rm) -> RmArg {
    match rm {
        Rm::Reg(r) => RmArg::Reg(r.0),
        Rm::Mem(m) => RmArg::Mem(*m),
    }
}

fn xm_arg(x: &XmmMem) -> RmArg {
    match x {
        XmmMem::Xmm(r) => RmArg::Reg(r.0),
        XmmMem::Mem(m) => RmArg::Mem(*m),
    }
}

pub(super) fn rm_byte_rex(size: Size, rm: &Rm) -> bool {
    match rm {
        Rm::Reg(r) => byte_rex(size, *r),
        Rm::Mem(_) => false,
    }
}

/// Sets 66 / REX.W for the size.
fn sized(mut p: Parts, size: Size) -> Parts {
    p.p66 = size == Size::S16;
    p.w = size == Size::S64;
    p
}

/// An immediate of the operation size (8, 16 or 32 bits; 64-bit ops take 32 sign-extended),
/// normalised to a signed value of that width. Accepts signed or unsigned spellings.
#[inline]
pub(crate) fn norm_imm(size: Size, v: i64) -> Option<i64> {
    match size {
        Size::S8 => (-128..=255).contains(&v).then_some(v as i8 as i64),
        Size::S16 => (-32768..=65535).contains(&v).then_some(v as i16 as i64),
        Size::S32 => (i32::MIN as i64..=u32::MAX as i64)
            .contains(&v)
            .then_some(v as i32 as i64),
        Size::S64 => (i32::MIN as i64..=i32::MAX as i64)
            .contains(&v)
            .then_some(v),
    }
}

pub(super) fn imm_width(size: Size) -> u8 {
    match size {
        Size::S8 => 1,
        Size::S16 => 2,
        _ => 4,
    }
}

/// How `Mov` of an immediate to a 64-bit register is encoded (and printed).
pub(crate) enum Mov64Imm {
    /// `movl $v, %r32` (zero-extends).
    Movl(u32),
    /// `movq $v, %r64` (C7, sign-extended 32).
    Movq(i32),
    Movabs(i64),
}

#[inline]
pub(crate) fn mov64_imm(v: i64) -> Mov64Imm {
    if (0..=u32::MAX as i64).contains(&v) {
        Mov64Imm::Movl(v as u32)
    } else if (i32::MIN as i64..0).contains(&v) {
        Mov64Imm::Movq(v as i32)
    } else {
        Mov64Imm::Movabs(v)
    }
}

/// Encode one instruction. Label jumps are encoded in their near (rel32) form; `Label` and
/// `Align` emit nothing (the assembler lays them out); `JumpTableEntry` emits a label use.
/// The common shapes go through the fast path (`fast.rs`), the rest through the general one.
pub fn encode(inst: &Inst, sink: &mut Sink) -> Result<(), EncodeError> {
    let mut b = [0u8; 32];
    let at = sink.off();
    let n = super::fast::fast(inst, &mut b, &mut sink.fixups, at);
    if n != 0 {
        sink.put(&b[..n]);
        return Ok(());
    }
    encode_jump(inst, sink, false)
}

/// Like `encode`, but a label jump takes its short (rel8) form when `short` is set. This is
/// the general path alone (every form, with its checks); `encode` gives the same bytes.
pub fn encode_jump(inst: &Inst, sink: &mut Sink, short: bool) -> Result<(), EncodeError> {
    use Inst::*;
    let i = inst;
    match *inst {
        Label(_) | Align(_) => Ok(()),
        JumpTableEntry { target, base } => {
            sink.label_uses.push(LabelUse {
                offset: sink.off(),
                size: 4,
                label: target,
                addend: 0,
                base: Some(base),
            });
            sink.put(&[0; 4]);
            Ok(())
        }
        Mov { size, src, dst } => {
            let b = size == Size::S8;
            match (src, dst) {
                (Rmi::Reg(s), Rm::Reg(_)) | (Rmi::Reg(s), Rm::Mem(_)) => {
                    let mut p = sized(Parts::new(if b { &[0x88] } else { &[0x89] }), size);
                    p.reg = s.0;
                    p.rm = rm_arg(&dst);
                    p.rex_force = byte_rex(size, s) || rm_byte_rex(size, &dst);
                    emit(i, sink, p)
                }
                (Rmi::Mem(m), Rm::Reg(d)) => {
                    let mut p = sized(Parts::new(if b { &[0x8A] } else { &[0x8B] }), size);
                    p.reg = d.0;
                    p.rm = RmArg::Mem(m);
                    p.rex_force = byte_rex(size, d);
                    emit(i, sink, p)
                }
                (Rmi::Mem(_), Rm::Mem(_)) => Err(err(i, "memory-to-memory mov")),
                (Rmi::Imm(v), Rm::Reg(d)) => {
                    if size == Size::S64 {
                        return match mov64_imm(v) {
                            Mov64Imm::Movl(u) => {
                                let mut p = Parts::new(&[0xB8]);
                                p.rm = RmArg::OpReg(d.0);
                                p.imm = ImmArg::Val(u as i64, 4);
                                emit(i, sink, p)
                            }
                            Mov64Imm::Movq(s) => {
                                let mut p = sized(Parts::new(&[0xC7]), size);
                                p.rm = RmArg::Reg(d.0);
                                p.imm = ImmArg::Val(s as i64, 4);
                                emit(i, sink, p)
                            }
                            Mov64Imm::Movabs(v) => {
                                let mut p = sized(Parts::new(&[0xB8]), size);
                                p.rm = RmArg::OpReg(d.0);
                                p.imm = ImmArg::Val(v, 8);
                                emit(i, sink, p)
                            }
                        };
                    }
                    let v = norm_imm(size, v).ok_or_else(|| err(i, "immediate out of range"))?;
                    let mut p = sized(Parts::new(if b { &[0xB0] } else { &[0xB8] }), size);
                    p.rm = RmArg::OpReg(d.0);
                    p.rex_force = byte_rex(size, d);
                    p.imm = ImmArg::Val(v, imm_width(size));
                    emit(i, sink, p)
                }
                (Rmi::Imm(v), Rm::Mem(m)) => {
                    let v = norm_imm(size, v).ok_or_else(|| err(i, "immediate out of range"))?;
                    let mut p = sized(Parts::new(if b { &[0xC6] } else { &[0xC7] }), size);
                    p.rm = RmArg::Mem(m);
                    p.imm = ImmArg::Val(v, imm_width(size));
                    emit(i, sink, p)
                }
            }
        }
        MovSymImm {
            kind,
            sym,
            addend,
            dst,
        } => {
            let mut p = match kind {
                RelocKind::Abs32 => {
                    let mut p = Parts::new(&[0xB8]);
                    p.rm = RmArg::OpReg(dst.0);
                    p
                }
                RelocKind::Abs32S => {
                    let mut p = sized(Parts::new(&[0xC7]), Size::S64);
                    p.rm = RmArg::Reg(dst.0);
                    p
                }
                RelocKind::Abs64 => {
                    let mut p = sized(Parts::new(&[0xB8]), Size::S64);
                    p.rm = RmArg::OpReg(dst.0);
                    p
                }
                _ => return Err(err(i, "kind must be Abs32, Abs32S or Abs64")),
            };
            let n = if kind == RelocKind::Abs64 { 8 } else { 4 };
            p.imm = ImmArg::Sym(sym, kind, addend as i64, n);
            emit(i, sink, p)
        }
        MovX {
            signed,
            from,
            to,
            src,
            dst,
        } => {
            let op: &'static [u8] = match (signed, from) {
                (false, Size::S8) => &[0x0F, 0xB6],
                (false, Size::S16) => &[0x0F, 0xB7],
                (true, Size::S8) => &[0x0F, 0xBE],
                (true, Size::S16) => &[0x0F, 0xBF],
                (true, Size::S32) => &[0x63],
                _ => return Err(err(i, "no such extension")),
            };
            if to.bytes() <= from.bytes()
                || to == Size::S8
                || (from == Size::S32 && to != Size::S64)
            {
                return Err(err(i, "the destination must be wider than the source"));
            }
            let mut p = sized(Parts::new(op), to);
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            p.rex_force = rm_byte_rex(from, &src);
            emit(i, sink, p)
        }
        Lea { size, src, dst } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit lea"));
            }
            if size != Size::S64 && src.sym.is_some() && !src.rip {
                // gas refuses it ("relocated field and relocation type differ in signedness").
                return Err(err(i, "a symbolic absolute address in a 16/32-bit lea"));
            }
            let mut p = sized(Parts::new(&[0x8D]), size);
            p.reg = dst.0;
            p.rm = RmArg::Mem(src);
            emit(i, sink, p)
        }
        Xchg { size, src, dst } => {
            if size != Size::S8 {
                if let Rm::Reg(d) = dst {
                    // gas uses 90+r when one side is the accumulator; xchg of the
                    // accumulator with itself stays 87 C0 at 32 bits (it zero-extends).
                    let other = if src.0 == 0 {
                        Some(d)
                    } else if d.0 == 0 {
                        Some(src)
                    } else {
                        None
                    };
                    if let Some(o) = other {
                        if !(o.0 == 0 && size == Size::S32) {
                            let mut p = sized(Parts::new(&[0x90]), size);
                            p.rm = RmArg::OpReg(o.0);
                            if o.0 == 0 && size == Size::S64 {
                                p.w = false;
                            }
                            return emit(i, sink, p);
                        }
                    }
                }
            }
            let mut p = sized(
                Parts::new(if size == Size::S8 { &[0x86] } else { &[0x87] }),
                size,
            );
            p.reg = src.0;
            p.rm = rm_arg(&dst);
            p.rex_force = byte_rex(size, src) || rm_byte_rex(size, &dst);
            emit(i, sink, p)
        }
        Push { src } => {
            let mut p = Parts::new(&[0x50]);
            p.rm = RmArg::OpReg(src.0);
            emit(i, sink, p)
        }
        Pop { dst } => {
            let mut p = Parts::new(&[0x58]);
            p.rm = RmArg::OpReg(dst.0);
            emit(i, sink, p)
        }
        Alu { op, size, src, dst } => {
            // op*8 + 0..5: r/m8,r8  r/m,r  r8,r/m8  r,r/m  al,imm8  eax,imm32
            let b8 = (op as u8) << 3;
            let o = [b8, b8 + 1, b8 + 2, b8 + 3, b8 + 4, b8 + 5];
            let b = size == Size::S8;
            match (src, dst) {
                (Rmi::Reg(s), _) => {
                    let mut p = sized(Parts::new(if b { &o[0..1] } else { &o[1..2] }), size);
                    p.reg = s.0;
                    p.rm = rm_arg(&dst);
                    p.rex_force = byte_rex(size, s) || rm_byte_rex(size, &dst);
                    emit(i, sink, p)
                }
                (Rmi::Mem(m), Rm::Reg(d)) => {
                    let mut p = sized(Parts::new(if b { &o[2..3] } else { &o[3..4] }), size);
                    p.reg = d.0;
                    p.rm = RmArg::Mem(m);
                    p.rex_force = byte_rex(size, d);
                    emit(i, sink, p)
                }
                (Rmi::Mem(_), Rm::Mem(_)) => Err(err(i, "memory-to-memory operation")),
                (Rmi::Imm(v), _) => {
                    let v = norm_imm(size, v).ok_or_else(|| err(i, "immediate out of range"))?;
                    let acc = matches!(dst, Rm::Reg(Gpr(0)));
                    let mut p = if b {
                        if acc {
                            Parts::new(&o[4..5])
                        } else {
                            let mut p = Parts::new(&[0x80]);
                            p.reg = op as u8;
                            p.rm = rm_arg(&dst);
                            p
                        }
                    } else if (-128..=127).contains(&v) {
                        let mut p = sized(Parts::new(&[0x83]), size);
                        p.reg = op as u8;
                        p.rm = rm_arg(&dst);
                        p.imm = ImmArg::Val(v, 1);
                        p
                    } else if acc {
                        sized(Parts::new(&o[5..6]), size)
                    } else {
                        let mut p = sized(Parts::new(&[0x81]), size);
                        p.reg = op as u8;
                        p.rm = rm_arg(&dst);
                        p
                    };
                    if let ImmArg::None = p.imm {
                        p.imm = ImmArg::Val(v, imm_width(size));
                    }
                    p.rex_force = rm_byte_rex(size, &dst);
                    emit(i, sink, p)
                }
            }
        }
        Test { size, src, dst } => {
            let b = size == Size::S8;
            match src {
                Rmi::Reg(s) => {
                    let mut p = sized(Parts::new(if b { &[0x84] } else { &[0x85] }), size);
                    p.reg = s.0;
                    p.rm = rm_arg(&dst);
                    p.rex_force = byte_rex(size, s) || rm_byte_rex(size, &dst);
                    emit(i, sink, p)
                }
                Rmi::Imm(v) => {
                    let v = norm_imm(size, v).ok_or_else(|| err(i, "immediate out of range"))?;
                    let mut p = if matches!(dst, Rm::Reg(Gpr(0))) {
                        sized(Parts::new(if b { &[0xA8] } else { &[0xA9] }), size)
                    } else {
                        let mut p = sized(Parts::new(if b { &[0xF6] } else { &[0xF7] }), size);
                        p.rm = rm_arg(&dst);
                        p
                    };
                    p.imm = ImmArg::Val(v, imm_width(size));
                    p.rex_force = rm_byte_rex(size, &dst);
                    emit(i, sink, p)
                }
                Rmi::Mem(_) => Err(err(i, "test takes a register or immediate source")),
            }
        }
        Imul2 { size, src, dst } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit two-operand imul"));
            }
            let mut p = sized(Parts::new(&[0x0F, 0xAF]), size);
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            emit(i, sink, p)
        }
        Imul3 {
            size,
            imm,
            src,
            dst,
        } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit three-operand imul"));
            }
            let v = norm_imm(size, imm as i64).ok_or_else(|| err(i, "immediate out of range"))?;
            let short = (-128..=127).contains(&v);
            let mut p = sized(Parts::new(if short { &[0x6B] } else { &[0x69] }), size);
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            p.imm = ImmArg::Val(v, if short { 1 } else { imm_width(size) });
            emit(i, sink, p)
        }
        Unary { op, size, dst } => {
            let b = size == Size::S8;
            let (opc, digit): (&'static [u8], u8) = match op {
                UnOp::Not => (if b { &[0xF6] } else { &[0xF7] }, 2),
                UnOp::Neg => (if b { &[0xF6] } else { &[0xF7] }, 3),
                UnOp::Mul => (if b { &[0xF6] } else { &[0xF7] }, 4),
                UnOp::Imul1 => (if b { &[0xF6] } else { &[0xF7] }, 5),
                UnOp::Div => (if b { &[0xF6] } else { &[0xF7] }, 6),
                UnOp::Idiv => (if b { &[0xF6] } else { &[0xF7] }, 7),
                UnOp::Inc => (if b { &[0xFE] } else { &[0xFF] }, 0),
                UnOp::Dec => (if b { &[0xFE] } else { &[0xFF] }, 1),
            };
            let mut p = sized(Parts::new(opc), size);
            p.reg = digit;
            p.rm = rm_arg(&dst);
            p.rex_force = rm_byte_rex(size, &dst);
            emit(i, sink, p)
        }
        Shift {
            op,
            size,
            amount,
            dst,
        } => {
            let b = size == Size::S8;
            let mut p = match amount {
                Some(1) => sized(Parts::new(if b { &[0xD0] } else { &[0xD1] }), size),
                Some(n) => {
                    let mut p = sized(Parts::new(if b { &[0xC0] } else { &[0xC1] }), size);
                    p.imm = ImmArg::Val(n as i64, 1);
                    p
                }
                None => sized(Parts::new(if b { &[0xD2] } else { &[0xD3] }), size),
            };
            p.reg = op as u8;
            p.rm = rm_arg(&dst);
            p.rex_force = rm_byte_rex(size, &dst);
            emit(i, sink, p)
        }
        SignExtendDx { size } | SignExtendAx { size } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit form"));
            }
            let op: &'static [u8] = if matches!(inst, SignExtendDx { .. }) {
                &[0x99]
            } else {
                &[0x98]
            };
            emit(i, sink, sized(Parts::new(op), size))
        }
        Bswap { size, reg } => {
            if !matches!(size, Size::S32 | Size::S64) {
                return Err(err(i, "bswap is 32 or 64 bits"));
            }
            let mut p = sized(Parts::new(&[0x0F, 0xC8]), size);
            p.rm = RmArg::OpReg(reg.0);
            emit(i, sink, p)
        }
        BitCount { op, size, src, dst } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit form"));
            }
            let (rep, opc): (Option<u8>, &'static [u8]) = match op {
                BitOp::Bsf => (None, &[0x0F, 0xBC]),
                BitOp::Bsr => (None, &[0x0F, 0xBD]),
                BitOp::Popcnt => (Some(0xF3), &[0x0F, 0xB8]),
                BitOp::Lzcnt => (Some(0xF3), &[0x0F, 0xBD]),
                BitOp::Tzcnt => (Some(0xF3), &[0x0F, 0xBC]),
            };
            let mut p = sized(Parts::new(opc), size);
            p.rep = rep;
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            emit(i, sink, p)
        }
        Setcc { cond, dst } => {
            let mut p = Parts::new(&[0x0F, 0x90 | cond.code()]);
            p.rm = rm_arg(&dst);
            p.rex_force = rm_byte_rex(Size::S8, &dst);
            emit(i, sink, p)
        }
        Cmov {
            cond,
            size,
            src,
            dst,
        } => {
            if size == Size::S8 {
                return Err(err(i, "no 8-bit cmov"));
            }
            let mut p = sized(Parts::new(&[0x0F, 0x40 | cond.code()]), size);
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            emit(i, sink, p)
        }
        LockCmpxchg { size, src, dst } | LockXadd { size, src, dst } => {
            let b = size == Size::S8;
            let xadd = matches!(inst, LockXadd { .. });
            let opc: &'static [u8] = match (xadd, b) {
                (false, true) => &[0x0F, 0xB0],
                (false, false) => &[0x0F, 0xB1],
                (true, true) => &[0x0F, 0xC0],
                (true, false) => &[0x0F, 0xC1],
            };
            let mut p = sized(Parts::new(opc), size);
            p.lock = true;
            p.reg = src.0;
            p.rm = RmArg::Mem(dst);
            p.rex_force = byte_rex(size, src);
            emit(i, sink, p)
        }
        Mfence => emit(i, sink, Parts::new(&[0x0F, 0xAE, 0xF0])),
        RepMovsb | RepStosb => {
            let mut p = Parts::new(if matches!(inst, RepMovsb) {
                &[0xA4]
            } else {
                &[0xAA]
            });
            p.rep = Some(0xF3);
            emit(i, sink, p)
        }
        Jmp { target } => {
            let (op, n): (&[u8], u8) = if short { (&[0xEB], 1) } else { (&[0xE9], 4) };
            sink.put(op);
            label_field(sink, target, n);
            Ok(())
        }
        Jcc { cond, target } => {
            if short {
                sink.put(&[0x70 | cond.code()]);
                label_field(sink, target, 1);
            } else {
                sink.put(&[0x0F, 0x80 | cond.code()]);
                label_field(sink, target, 4);
            }
            Ok(())
        }
        JmpInd { target } | CallInd { target } => {
            let mut p = Parts::new(&[0xFF]);
            p.reg = if matches!(inst, JmpInd { .. }) { 4 } else { 2 };
            p.rm = rm_arg(&target);
            emit(i, sink, p)
        }
        CallSym { sym, kind } => {
            if !matches!(kind, RelocKind::Plt32 | RelocKind::Pc32) {
                return Err(err(i, "a direct call takes Plt32 or Pc32"));
            }
            sink.put(&[0xE8]);
            sink.fixups.push(Fixup {
                offset: sink.off(),
                sym,
                kind,
                addend: -4,
            });
            sink.put(&[0; 4]);
            Ok(())
        }
        Ret => emit(i, sink, Parts::new(&[0xC3])),
        Leave => emit(i, sink, Parts::new(&[0xC9])),
        Ud2 => emit(i, sink, Parts::new(&[0x0F, 0x0B])),
        Nop => emit(i, sink, Parts::new(&[0x90])),
        XmmMov { op, src, dst } => {
            let (pre, load, store): (Option<u8>, &'static [u8], &'static [u8]) = match op {
                XmmMovOp::Movss => (Some(0xF3), &[0x0F, 0x10], &[0x0F, 0x11]),
                XmmMovOp::Movsd => (Some(0xF2), &[0x0F, 0x10], &[0x0F, 0x11]),
                XmmMovOp::Movaps => (None, &[0x0F, 0x28], &[0x0F, 0x29]),
                XmmMovOp::Movapd => (Some(0x66), &[0x0F, 0x28], &[0x0F, 0x29]),
                XmmMovOp::Movups => (None, &[0x0F, 0x10], &[0x0F, 0x11]),
                XmmMovOp::Movupd => (Some(0x66), &[0x0F, 0x10], &[0x0F, 0x11]),
                XmmMovOp::Movdqa => (Some(0x66), &[0x0F, 0x6F], &[0x0F, 0x7F]),
                XmmMovOp::Movdqu => (Some(0xF3), &[0x0F, 0x6F], &[0x0F, 0x7F]),
            };
            let mut p = match (src, dst) {
                (_, XmmMem::Xmm(d)) => {
                    let mut p = Parts::new(load);
                    p.reg = d.0;
                    p.rm = xm_arg(&src);
                    p
                }
                (XmmMem::Xmm(s), XmmMem::Mem(m)) => {
                    let mut p = Parts::new(store);
                    p.reg = s.0;
                    p.rm = RmArg::Mem(m);
                    p
                }
                (XmmMem::Mem(_), XmmMem::Mem(_)) => {
                    return Err(err(i, "memory-to-memory move"));
                }
            };
            match pre {
                Some(0x66) => p.p66 = true,
                r => p.rep = r,
            }
            p.sse = true;
            emit(i, sink, p)
        }
        Sse { op, src, dst } => {
            let (pre, opc, _) = op.info();
            let mut p = Parts::new(&[0x0F, opc]);
            match pre {
                0x66 => p.p66 = true,
                0 => {}
                r => p.rep = Some(r),
            }
            p.reg = dst.0;
            p.rm = xm_arg(&src);
            p.sse = true;
            emit(i, sink, p)
        }
        MovGprToXmm { size, src, dst } => {
            if !matches!(size, Size::S32 | Size::S64) {
                return Err(err(i, "movd/movq are 32 or 64 bits"));
            }
            let mut p = if let (Size::S64, Rm::Mem(_)) = (size, src) {
                // gas spells `movq mem, %xmm` as the SSE2 F3 0F 7E load.
                let mut p = Parts::new(&[0x0F, 0x7E]);
                p.rep = Some(0xF3);
                p
            } else {
                let mut p = Parts::new(&[0x0F, 0x6E]);
                p.p66 = true;
                p.w = size == Size::S64;
                p
            };
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            p.sse = true;
            emit(i, sink, p)
        }
        MovXmmToGpr { size, src, dst } => {
            if !matches!(size, Size::S32 | Size::S64) {
                return Err(err(i, "movd/movq are 32 or 64 bits"));
            }
            let mut p = if let (Size::S64, Rm::Mem(_)) = (size, dst) {
                // gas spells `movq %xmm, mem` as 66 0F D6.
                Parts::new(&[0x0F, 0xD6])
            } else {
                let mut p = Parts::new(&[0x0F, 0x7E]);
                p.w = size == Size::S64;
                p
            };
            p.p66 = true;
            p.reg = src.0;
            p.rm = rm_arg(&dst);
            p.sse = true;
            emit(i, sink, p)
        }
        CvtSi2F {
            double,
            size,
            src,
            dst,
        } => {
            if !matches!(size, Size::S32 | Size::S64) {
                return Err(err(i, "the integer is 32 or 64 bits"));
            }
            let mut p = Parts::new(&[0x0F, 0x2A]);
            p.rep = Some(if double { 0xF2 } else { 0xF3 });
            p.w = size == Size::S64;
            p.reg = dst.0;
            p.rm = rm_arg(&src);
            p.sse = true;
            emit(i, sink, p)
        }
        CvtTF2Si {
            double,
            size,
            src,
            dst,
        } => {
            if !matches!(size, Size::S32 | Size::S64) {
                return Err(err(i, "the integer is 32 or 64 bits"));
            }
            let mut p = Parts::new(&[0x0F, 0x2C]);
            p.rep = Some(if double { 0xF2 } else { 0xF3 });
            p.w = size == Size::S64;
            p.reg = dst.0;
            p.rm = xm_arg(&src);
            p.sse = true;
            emit(i, sink, p)
        }
        X87Mem { op, mem } => {
            let (opc, digit, _) = op.info();
            let mut p = Parts::new(&[opc]);
            p.reg = digit;
            p.rm = RmArg::Mem(mem);
            emit(i, sink, p)
        }
        X87Reg { op, st } => {
            if st > 7 {
                return Err(err(i, "x87 stack register out of range"));
            }
            let (a, b, _) = op.info();
            sink.put(&[a, b + st]);
            Ok(())
        }
        X87 { op } => {
            sink.put(&op.info().0);
            Ok(())
        }
        Plain { op } => {
            sink.put(op.info().0);
            Ok(())
        }
        PortIo {
            out,
            size,
            acc,
            port,
        } => {
            if size == Size::S64 || acc != Gpr::RAX {
                return Err(err(i, "in/out take al, ax or eax"));
            }
            // E4/E5 in imm8, E6/E7 out imm8, EC/ED in dx, EE/EF out dx (+1: not 8-bit).
            let wide = u8::from(size != Size::S8);
            let out = u8::from(out) * 2;
            let mut p = match port {
                Port::Imm(n) => {
                    let mut p = Parts::new(&[0xE4 + out + wide]);
                    p.imm = ImmArg::Val(n as i64, 1);
                    p
                }
                Port::Dx(Gpr::RDX) => Parts::new(&[0xEC + out + wide]),
                Port::Dx(_) => return Err(err(i, "the port register is dx")),
            };
            p.p66 = size == Size::S16;
            emit(i, sink, p)
        }
        PortString { out, size, rep } => {
            if size == Size::S64 {
                return Err(err(i, "ins/outs move 8, 16 or 32 bits"));
            }
            // 6C/6D ins, 6E/6F outs.
            let mut p = Parts::new(&[0x6C + u8::from(out) * 2 + u8::from(size != Size::S8)]);
            p.p66 = size == Size::S16;
            match rep {
                RepPrefix::None => {}
                RepPrefix::Joined => p.rep = Some(0xF3),
                RepPrefix::Alone => sink.put(&[0xF3]),
            }
            emit(i, sink, p)
        }
    }
}

fn label_field(sink: &mut Sink, label: Label, n: u8) {
    sink.label_uses.push(LabelUse {
        offset: sink.off(),
        size: n,
        label,
        addend: -(n as i64),
        base: None,
    });
    sink.put(&[0u8; 4][..n as usize]);
}
