//! GNU as (AT&T syntax) text for one `Inst`, written so that GNU as encodes it exactly as
//! `encode` does: explicit size suffixes, the same immediate form for `mov $imm` to 64-bit
//! registers (`movl`/`movq`/`movabsq`), and label jumps without size forcing (gas relaxes
//! them exactly as `assembler` does).

use super::encode::{mov64_imm, norm_imm, Mov64Imm};
use super::inst::*;
use neverc_codegen::reloc::{RelocKind, SymId};

/// `%xmmN`.
pub fn xmm_name(x: Xmm) -> String {
    format!("%xmm{}", x.0)
}

/// The AT&T operator gas wants after a symbol for this relocation kind.
fn reloc_suffix(kind: RelocKind) -> &'static str {
    match kind {
        RelocKind::GotPcRel | RelocKind::GotPcRelX | RelocKind::RexGotPcRelX => "@GOTPCREL",
        RelocKind::GotTpOff => "@GOTTPOFF",
        RelocKind::TpOff32 => "@tpoff",
        RelocKind::Plt32 => "@PLT",
        RelocKind::Abs64
        | RelocKind::Abs32
        | RelocKind::Abs32S
        | RelocKind::Pc32
        | RelocKind::Pc64 => "",
        RelocKind::Aarch64(_) => unreachable!("an AArch64 relocation in x86-64 code"),
    }
}

fn addend_text(a: i64) -> String {
    match a {
        0 => String::new(),
        a if a > 0 => format!("+{a}"),
        a => format!("{a}"),
    }
}

/// AT&T memory operand text: `%fs:sym@tpoff`, `-8(%rbp)`, `foo+4(%rip)`, `(,%rax,8)`.
pub fn mem_text(
    m: &Mem,
    names: &dyn Fn(SymId) -> String,
    labels: &dyn Fn(Label) -> String,
) -> String {
    let mut s = String::new();
    match m.seg {
        Some(Seg::Fs) => s.push_str("%fs:"),
        Some(Seg::Gs) => s.push_str("%gs:"),
        None => {}
    }
    if let Some((sym, kind)) = m.sym {
        s.push_str(&names(sym));
        s.push_str(reloc_suffix(kind));
        s.push_str(&addend_text(m.disp as i64));
    } else if let Some(l) = m.label {
        s.push_str(&labels(l));
        s.push_str(&addend_text(m.disp as i64));
    } else if m.disp != 0 || (m.base.is_none() && m.index.is_none() && !m.rip) {
        s.push_str(&m.disp.to_string());
    }
    if m.rip {
        s.push_str("(%rip)");
    } else if m.base.is_some() || m.index.is_some() {
        s.push('(');
        if let Some(b) = m.base {
            s.push_str(b.name(Size::S64));
        }
        if let Some((i, sc)) = m.index {
            s.push(',');
            s.push_str(i.name(Size::S64));
            s.push_str(&format!(",{sc}"));
        }
        s.push(')');
    }
    s
}

/// The AT&T text of `inst` without indentation or newline (`movq %rax, -8(%rbp)`,
/// `.LBB0_3:` for a label, `.p2align 4` for `Align(16)`, `.long .L1-.L0` for a table entry).
pub fn print(
    inst: &Inst,
    names: &dyn Fn(SymId) -> String,
    labels: &dyn Fn(Label) -> String,
) -> String {
    use Inst::*;
    let mem = |m: &Mem| mem_text(m, names, labels);
    let rm = |r: &Rm, size: Size| match r {
        Rm::Reg(g) => g.name(size).to_string(),
        Rm::Mem(m) => mem(m),
    };
    let xm = |x: &XmmMem| match x {
        XmmMem::Xmm(r) => xmm_name(*r),
        XmmMem::Mem(m) => mem(m),
    };
    let imm = |size: Size, v: i64| format!("${}", norm_imm(size, v).unwrap_or(v));
    let rmi = |r: &Rmi, size: Size| match r {
        Rmi::Reg(g) => g.name(size).to_string(),
        Rmi::Mem(m) => mem(m),
        Rmi::Imm(v) => imm(size, *v),
    };
    match inst {
        Label(l) => format!("{}:", labels(*l)),
        Align(n) => format!(".p2align {}", n.max(&1).trailing_zeros()),
        JumpTableEntry { target, base } => {
            format!(".long {}-{}", labels(*target), labels(*base))
        }
        Mov {
            size: Size::S64,
            src: Rmi::Imm(v),
            dst: Rm::Reg(d),
        } => match mov64_imm(*v) {
            Mov64Imm::Movl(u) => format!("movl ${}, {}", u as i32, d.name(Size::S32)),
            Mov64Imm::Movq(s) => format!("movq ${s}, {}", d.name(Size::S64)),
            Mov64Imm::Movabs(v) => format!("movabsq ${v}, {}", d.name(Size::S64)),
        },
        Mov { size, src, dst } => format!(
            "mov{} {}, {}",
            size.suffix(),
            rmi(src, *size),
            rm(dst, *size)
        ),
        MovSymImm {
            kind,
            sym,
            addend,
            dst,
        } => {
            let v = format!("${}{}", names(*sym), addend_text(*addend as i64));
            match kind {
                RelocKind::Abs32 => format!("movl {v}, {}", dst.name(Size::S32)),
                RelocKind::Abs64 => format!("movabsq {v}, {}", dst.name(Size::S64)),
                _ => format!("movq {v}, {}", dst.name(Size::S64)),
            }
        }
        MovX {
            signed,
            from,
            to,
            src,
            dst,
        } => {
            let m = if *signed && *from == Size::S32 {
                "movslq".to_string()
            } else {
                format!(
                    "mov{}{}{}",
                    if *signed { 's' } else { 'z' },
                    from.suffix(),
                    to.suffix()
                )
            };
            format!("{m} {}, {}", rm(src, *from), dst.name(*to))
        }
        Lea { size, src, dst } => {
            format!("lea{} {}, {}", size.suffix(), mem(src), dst.name(*size))
        }
        Xchg { size, src, dst } => format!(
            "xchg{} {}, {}",
            size.suffix(),
            src.name(*size),
            rm(dst, *size)
        ),
        Push { src } => format!("pushq {}", src.name(Size::S64)),
        Pop { dst } => format!("popq {}", dst.name(Size::S64)),
        Alu { op, size, src, dst } => format!(
            "{}{} {}, {}",
            op.name(),
            size.suffix(),
            rmi(src, *size),
            rm(dst, *size)
        ),
        Test { size, src, dst } => format!(
            "test{} {}, {}",
            size.suffix(),
            rmi(src, *size),
            rm(dst, *size)
        ),
        Imul2 { size, src, dst } => format!(
            "imul{} {}, {}",
            size.suffix(),
            rm(src, *size),
            dst.name(*size)
        ),
        Imul3 {
            size,
            imm: v,
            src,
            dst,
        } => format!(
            "imul{} {}, {}, {}",
            size.suffix(),
            imm(*size, *v as i64),
            rm(src, *size),
            dst.name(*size)
        ),
        Unary { op, size, dst } => format!("{}{} {}", op.name(), size.suffix(), rm(dst, *size)),
        Shift {
            op,
            size,
            amount,
            dst,
        } => {
            let a = match amount {
                Some(n) => format!("${n}"),
                None => "%cl".to_string(),
            };
            format!("{}{} {a}, {}", op.name(), size.suffix(), rm(dst, *size))
        }
        SignExtendDx { size } => match size {
            Size::S16 => "cwtd",
            Size::S32 => "cltd",
            _ => "cqto",
        }
        .to_string(),
        SignExtendAx { size } => match size {
            Size::S16 => "cbtw",
            Size::S32 => "cwtl",
            _ => "cltq",
        }
        .to_string(),
        Bswap { size, reg } => format!("bswap{} {}", size.suffix(), reg.name(*size)),
        BitCount { op, size, src, dst } => format!(
            "{}{} {}, {}",
            op.name(),
            size.suffix(),
            rm(src, *size),
            dst.name(*size)
        ),
        Setcc { cond, dst } => format!("set{} {}", cond.name(), rm(dst, Size::S8)),
        Cmov {
            cond,
            size,
            src,
            dst,
        } => format!(
            "cmov{}{} {}, {}",
            cond.name(),
            size.suffix(),
            rm(src, *size),
            dst.name(*size)
        ),
        LockCmpxchg { size, src, dst } => format!(
            "lock cmpxchg{} {}, {}",
            size.suffix(),
            src.name(*size),
            mem(dst)
        ),
        LockXadd { size, src, dst } => format!(
            "lock xadd{} {}, {}",
            size.suffix(),
            src.name(*size),
            mem(dst)
        ),
        Mfence => "mfence".to_string(),
        RepMovsb => "rep movsb".to_string(),
        RepStosb => "rep stosb".to_string(),
        Jmp { target } => format!("jmp {}", labels(*target)),
        Jcc { cond, target } => format!("j{} {}", cond.name(), labels(*target)),
        JmpInd { target } => format!("jmp *{}", rm(target, Size::S64)),
        CallSym { sym, kind } => format!("call {}{}", names(*sym), reloc_suffix(*kind)),
        CallInd { target } => format!("call *{}", rm(target, Size::S64)),
        Ret => "ret".to_string(),
        Leave => "leave".to_string(),
        Ud2 => "ud2".to_string(),
        Nop => "nop".to_string(),
        XmmMov { op, src, dst } => format!("{} {}, {}", op.name(), xm(src), xm(dst)),
        Sse { op, src, dst } => format!("{} {}, {}", op.info().2, xm(src), xmm_name(*dst)),
        MovGprToXmm { size, src, dst } => format!(
            "mov{} {}, {}",
            if *size == Size::S64 { "q" } else { "d" },
            rm(src, *size),
            xmm_name(*dst)
        ),
        MovXmmToGpr { size, src, dst } => format!(
            "mov{} {}, {}",
            if *size == Size::S64 { "q" } else { "d" },
            xmm_name(*src),
            rm(dst, *size)
        ),
        CvtSi2F {
            double,
            size,
            src,
            dst,
        } => format!(
            "cvtsi2s{}{} {}, {}",
            if *double { 'd' } else { 's' },
            size.suffix(),
            rm(src, *size),
            xmm_name(*dst)
        ),
        CvtTF2Si {
            double,
            size,
            src,
            dst,
        } => format!(
            "cvtts{}2si {}, {}",
            if *double { 'd' } else { 's' },
            xm(src),
            dst.name(*size)
        ),
        X87Mem { op, mem: m } => format!("{} {}", op.info().2, mem(m)),
        X87Reg { op, st } => {
            let name = op.info().2;
            match op {
                X87RegOp::Fld | X87RegOp::Fstp | X87RegOp::Fxch | X87RegOp::Ffreep => {
                    format!("{name} %st({st})")
                }
                X87RegOp::Fucomip | X87RegOp::Fcomip | X87RegOp::Fucomi => {
                    format!("{name} %st({st}), %st")
                }
                _ => format!("{name} %st, %st({st})"),
            }
        }
        X87 { op } => op.info().1.to_string(),
        Plain { op } => op.info().1.to_string(),
        PortIo {
            out,
            size,
            acc,
            port,
        } => {
            let port = match port {
                Port::Dx(r) => r.name(Size::S16).to_string(),
                Port::Imm(n) => format!("${n}"),
            };
            let acc = acc.name(*size);
            if *out {
                format!("out{} {acc}, {port}", size.suffix())
            } else {
                format!("in{} {port}, {acc}", size.suffix())
            }
        }
        PortString { out, size, rep } => {
            let rep = match rep {
                RepPrefix::None => "",
                RepPrefix::Joined => "rep ",
                RepPrefix::Alone => "rep; ",
            };
            let name = if *out { "outs" } else { "ins" };
            format!("{rep}{name}{}", size.suffix())
        }
    }
}
