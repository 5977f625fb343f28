//! The text form of the IR (`-fdump-ir`), for tests and debugging.
//!
//! ```text
//! function f plan=neverc-cc-plan-v1;...
//!   slot0 = 4 align 4
//! block0(v0: i32):
//!   v1 = iconst.i32 1
//!   v2 = add v0, v1
//!   ret v2
//! ```

use crate::*;
use std::fmt::Write;

pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    for d in &m.data {
        let sym = m.sym(d.sym);
        let _ = write!(
            s,
            "data {} size={} align={}{}{}",
            sym.name,
            d.size,
            d.align,
            if d.readonly { " readonly" } else { "" },
            if d.bytes.is_empty() { " zero" } else { "" }
        );
        if !d.bytes.is_empty() {
            s.push_str(" bytes=");
            for b in &d.bytes {
                let _ = write!(s, "{b:02x}");
            }
        }
        for (off, target, addend, width) in &d.relocs {
            let _ = write!(s, " @{off}:{}+{addend}/{width}", m.sym(*target).name);
        }
        s.push('\n');
    }
    for f in &m.functions {
        s.push_str(&print_function(m, f));
    }
    s
}

fn v(x: Value) -> String {
    format!("v{}", x.0)
}

fn vals(xs: &[Value]) -> String {
    xs.iter().map(|&x| v(x)).collect::<Vec<_>>().join(", ")
}

fn bc(b: &BlockCall) -> String {
    if b.args.is_empty() {
        format!("block{}", b.block.0)
    } else {
        format!("block{}({})", b.block.0, vals(&b.args))
    }
}

pub fn print_function(m: &Module, f: &Function) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "function {} plan={}", m.sym(f.sym).name, f.plan);
    for (i, sl) in f.slots.iter().enumerate() {
        let _ = writeln!(s, "  slot{i} = {} align {}", sl.size, sl.align);
    }
    for (i, p) in f.plans.iter().enumerate() {
        let _ = writeln!(s, "  plan{i} = {p}");
    }
    for (bi, b) in f.blocks.iter().enumerate() {
        let params: Vec<String> = b
            .params
            .iter()
            .map(|&p| format!("{}: {}", v(p), f.value_type(p).name()))
            .collect();
        let _ = writeln!(s, "block{bi}({}):", params.join(", "));
        for &i in &b.insts {
            let d = f.inst(i);
            let lhs = match &d.op {
                Op::Call(c) if !c.results.is_empty() => format!("{} = ", vals(&c.results)),
                Op::InlineAsm(a) if !a.results.is_empty() => format!("{} = ", vals(&a.results)),
                _ => d.result.map(|r| format!("{} = ", v(r))).unwrap_or_default(),
            };
            let _ = writeln!(s, "  {lhs}{}", op_text(m, &d.op));
        }
    }
    s
}

fn lower(d: impl std::fmt::Debug) -> String {
    format!("{d:?}").to_lowercase()
}

fn op_text(m: &Module, op: &Op) -> String {
    let mem = |fl: &MemFlags| {
        format!(
            " align {}{}",
            fl.align,
            if fl.volatile { " volatile" } else { "" }
        )
    };
    match op {
        Op::Iconst { ty, imm } => format!("iconst.{} {imm}", ty.name()),
        Op::Fconst { ty, bits } => format!("fconst.{} 0x{bits:x}", ty.name()),
        Op::Unary { op, arg } => format!("{} {}", lower(op), v(*arg)),
        Op::Binary { op, a, b } => format!("{} {}, {}", lower(op), v(*a), v(*b)),
        Op::Icmp { cc, a, b } => format!("icmp {} {}, {}", lower(cc), v(*a), v(*b)),
        Op::Fcmp { cc, a, b } => format!("fcmp {} {}, {}", lower(cc), v(*a), v(*b)),
        Op::Conv { op, arg, to } => format!("{}.{} {}", lower(op), to.name(), v(*arg)),
        Op::Select { cond, a, b } => format!("select {}, {}, {}", v(*cond), v(*a), v(*b)),
        Op::Load {
            ty,
            addr,
            offset,
            flags,
        } => format!("load.{} {}+{offset}{}", ty.name(), v(*addr), mem(flags)),
        Op::Store {
            value,
            addr,
            offset,
            flags,
        } => format!("store {}, {}+{offset}{}", v(*value), v(*addr), mem(flags)),
        Op::SlotAddr(sl) => format!("slot_addr slot{}", sl.0),
        Op::SymAddr { sym, offset } => format!("sym_addr {}+{offset}", m.sym(*sym).name),
        Op::BlockAddr(b) => format!("block_addr block{}", b.0),
        Op::Call(call) => {
            let Call {
                callee,
                args,
                arg_mem,
                plan,
                tail,
                ..
            } = &**call;
            let c = match callee {
                Callee::Direct(s) => m.sym(*s).name.clone(),
                Callee::Indirect(x) => format!("*{}", v(*x)),
            };
            let mem = if arg_mem.is_empty() {
                String::new()
            } else {
                format!(" mem{arg_mem:?}")
            };
            format!(
                "{}call {c}({}) plan{}{mem}",
                if *tail { "tail " } else { "" },
                vals(args),
                plan.0
            )
        }
        Op::Copy {
            dst,
            src,
            size,
            align,
        } => format!("copy {}, {}, {size} align {align}", v(*dst), v(*src)),
        Op::Zero { dst, size, align } => format!("zero {}, {size} align {align}", v(*dst)),
        Op::Alloca { size, align } => format!("alloca {} align {align}", v(*size)),
        Op::StackSave => "stack_save".into(),
        Op::FrameAddress => "frame_address".into(),
        Op::StackRestore(x) => format!("stack_restore {}", v(*x)),
        Op::VaStart(x) => format!("va_start {}", v(*x)),
        Op::AtomicRmw {
            op,
            ty,
            addr,
            value,
        } => format!(
            "atomic_{}.{} {}, {}",
            lower(op),
            ty.name(),
            v(*addr),
            v(*value)
        ),
        Op::AtomicCas {
            ty,
            addr,
            expected,
            new,
        } => format!(
            "atomic_cas.{} {}, {}, {}",
            ty.name(),
            v(*addr),
            v(*expected),
            v(*new)
        ),
        Op::Fence => "fence".into(),
        Op::InlineAsm(a) => {
            let ops: Vec<String> = a
                .operands
                .iter()
                .map(|o| match &o.role {
                    AsmRole::Output { early_clobber } => {
                        format!(
                            "\"={}{}\"",
                            if *early_clobber { "&" } else { "" },
                            o.constraint
                        )
                    }
                    AsmRole::Input(x) => format!("\"{}\"({})", o.constraint, v(*x)),
                    AsmRole::Memory(x) => format!("\"{}\"(mem {})", o.constraint, v(*x)),
                })
                .collect();
            format!(
                "inline_asm {:?} [{}] clobbers [{}]",
                a.template,
                ops.join(", "),
                a.clobbers.join(", ")
            )
        }
        Op::Jump(b) => format!("jump {}", bc(b)),
        Op::Branch { cond, then, els } => {
            format!("branch {}, {}, {}", v(*cond), bc(then), bc(els))
        }
        Op::Switch {
            value,
            cases,
            default,
        } => {
            let cs: Vec<String> = cases
                .iter()
                .map(|(k, b)| format!("{k}: block{}", b.0))
                .collect();
            format!(
                "switch {} [{}] default block{}",
                v(*value),
                cs.join(", "),
                default.0
            )
        }
        Op::IndirectJump { addr, targets } => {
            let ts: Vec<String> = targets.iter().map(|b| format!("block{}", b.0)).collect();
            format!("indirect_jump {} [{}]", v(*addr), ts.join(", "))
        }
        Op::Return(vs) => format!("ret {}", vals(vs)).trim_end().to_string(),
        Op::NonLocalGoto { fp, sp, target } => {
            format!("nonlocal_goto {}, {}, {}", v(*fp), v(*sp), v(*target))
        }
        Op::Unreachable => "unreachable".into(),
        Op::Trap => "trap".into(),
    }
}
