//! GNU AArch64 assembly text (the printer's syntax and the usual aliases) parsed into this
//! back end's own instructions, for inline asm. Only what the encoder has a form for is
//! accepted; anything else is an error naming it ("neverc cannot assemble 'isb' in inline
//! asm yet").
//!
//! Statements are separated by newlines and `;`; `//` starts a comment. Labels are local to
//! one asm statement: `name:` and the numeric `1:` with `1b`/`1f` references. Registers the
//! back end substitutes for operands are placeholders `%?N` followed by the name's letter:
//! `x`/`w` for general registers, `b`/`h`/`s`/`d`/`q`/`v` for vector registers (`v` only
//! with a `.16b`/`.d[1]` suffix); they become `Gpr(PH | N)` / `Fpr(PH | N)`.
//! Immediates may be written with or without `#` (gcc substitutes `i` operands bare).

use super::encode::{bitmask_imm, fmov_imm8};
use super::inst::*;
use std::collections::HashMap;

#[derive(Debug)]
pub struct ParseError(pub String);

/// The placeholder bit of a register field (see `lower::PH`).
pub const PH: u8 = 0x40;

/// One parsed operand.
#[derive(Clone, Debug, PartialEq)]
enum Opnd {
    /// A general register as written: `x`/`w` view.
    G(Gpr, Size),
    /// A vector register as a scalar: its letter (`b h s d q`) and number.
    F(char, Fpr),
    /// `vN.16b`.
    V16b(Fpr),
    /// `vN.d[1]`.
    VTop(Fpr),
    Imm(i64),
    FImm(f64),
    /// `[base ...]` with an optional `!` (pre-index).
    Mem(MemArg),
    Sh(Shift, u8),
    Ex(Extend, Option<u8>),
    Word(String),
}

#[derive(Clone, Debug, PartialEq)]
enum MemArg {
    Base(Gpr, i64, bool),
    Index(Gpr, Gpr, Size, Option<(String, Option<u8>)>),
}

fn err<T>(msg: String) -> Result<T, ParseError> {
    Err(ParseError(msg))
}

fn gpr_name(s: &str) -> Option<(Gpr, Size)> {
    let s = s.to_ascii_lowercase();
    match s.as_str() {
        "sp" => return Some((Gpr::SP, Size::X)),
        "wsp" => return Some((Gpr::SP, Size::W)),
        "xzr" => return Some((Gpr::ZR, Size::X)),
        "wzr" => return Some((Gpr::ZR, Size::W)),
        "fp" => return Some((Gpr::FP, Size::X)),
        "lr" => return Some((Gpr::LR, Size::X)),
        _ => {}
    }
    let (size, n) = match s.as_bytes().first()? {
        b'x' => (Size::X, &s[1..]),
        b'w' => (Size::W, &s[1..]),
        _ => return None,
    };
    let n: u8 = n.parse().ok().filter(|n| *n <= 30)?;
    if s[1..].starts_with('0') && n != 0 {
        return None;
    }
    Some((Gpr(n), size))
}

fn fpr_name(s: &str) -> Option<(char, Fpr)> {
    let s = s.to_ascii_lowercase();
    let c = s.chars().next()?;
    if !"bhsdqv".contains(c) {
        return None;
    }
    let n: u8 = s[1..].parse().ok().filter(|n| *n <= 31)?;
    Some((c, Fpr(n)))
}

/// The register number of a clobber name (`x19`, `w3`, `v8`, `d9`, ...): general 0-30,
/// vector 32-63.
pub fn clobber_reg(name: &str) -> Option<u8> {
    if let Some((g, _)) = gpr_name(name) {
        return (g.0 <= 30).then_some(g.0);
    }
    fpr_name(name).map(|(_, f)| 32 + f.0)
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as i64
    } else if s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
        s.parse::<u64>().ok()? as i64
    } else {
        return None;
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Splits at commas outside brackets.
fn split_operands(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn placeholder(s: &str) -> Option<(u8, char, &str)> {
    let r = s.strip_prefix("%?")?;
    let digits = r.bytes().take_while(|b| b.is_ascii_digit()).count();
    let n: u8 = r[..digits].parse().ok().filter(|n| *n < PH)?;
    let c = r[digits..].chars().next()?;
    Some((n, c, &r[digits + 1..]))
}

fn reg_opnd(s: &str) -> Option<Opnd> {
    let (reg, rest): (Opnd, &str) = if let Some((n, c, rest)) = placeholder(s) {
        match c {
            'x' => (Opnd::G(Gpr(PH | n), Size::X), rest),
            'w' => (Opnd::G(Gpr(PH | n), Size::W), rest),
            'b' | 'h' | 's' | 'd' | 'q' | 'v' => (Opnd::F(c, Fpr(PH | n)), rest),
            _ => return None,
        }
    } else {
        let end = s.find('.').unwrap_or(s.len());
        let (name, rest) = s.split_at(end);
        if let Some((g, size)) = gpr_name(name) {
            (Opnd::G(g, size), rest)
        } else if let Some((c, f)) = fpr_name(name) {
            (Opnd::F(c, f), rest)
        } else {
            return None;
        }
    };
    if rest.is_empty() {
        return match reg {
            Opnd::F('v', _) => None,
            r => Some(r),
        };
    }
    let Opnd::F('v', f) = reg else { return None };
    match rest.to_ascii_lowercase().as_str() {
        ".16b" => Some(Opnd::V16b(f)),
        ".d[1]" => Some(Opnd::VTop(f)),
        _ => None,
    }
}

fn parse_mem(inner: &str) -> Result<MemArg, String> {
    let parts = split_operands(inner);
    let base = match parts.first().and_then(|p| reg_opnd(p)) {
        Some(Opnd::G(g, Size::X)) if g != Gpr::ZR => g,
        _ => return Err(format!("a base register in '[{inner}]'")),
    };
    match parts.len() {
        1 => Ok(MemArg::Base(base, 0, false)),
        2 => {
            let p = parts[1].trim();
            let imm = p.strip_prefix('#').unwrap_or(p);
            if let Some(v) = parse_int(imm) {
                return Ok(MemArg::Base(base, v, false));
            }
            match reg_opnd(p) {
                Some(Opnd::G(g, size)) if g != Gpr::SP => Ok(MemArg::Index(base, g, size, None)),
                _ => Err(format!("the offset '{p}'")),
            }
        }
        3 => {
            let Some(Opnd::G(g, size)) = reg_opnd(parts[1].trim()) else {
                return Err(format!("the index '{}'", parts[1]));
            };
            let mut w = parts[2].split_whitespace();
            let ext = w.next().unwrap_or("").to_ascii_lowercase();
            let amt = match w.next() {
                Some(a) => Some(
                    parse_int(a.strip_prefix('#').unwrap_or(a))
                        .and_then(|v| u8::try_from(v).ok())
                        .ok_or_else(|| format!("the shift amount '{a}'"))?,
                ),
                None => None,
            };
            Ok(MemArg::Index(base, g, size, Some((ext, amt))))
        }
        _ => Err(format!("the address '[{inner}]'")),
    }
}

fn parse_operand(s: &str) -> Result<Opnd, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('[') {
        let (inner, pre) = match inner.strip_suffix("]!") {
            Some(i) => (i, true),
            None => (
                inner
                    .strip_suffix(']')
                    .ok_or_else(|| format!("the address '{s}'"))?,
                false,
            ),
        };
        let mut m = parse_mem(inner)?;
        if pre {
            match &mut m {
                MemArg::Base(_, _, p) => *p = true,
                _ => return Err(format!("the address '{s}'")),
            }
        }
        return Ok(Opnd::Mem(m));
    }
    if let Some(r) = reg_opnd(s) {
        return Ok(r);
    }
    let lower = s.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or("");
    let amount = |w: Option<&str>| -> Result<Option<u8>, String> {
        match w {
            None => Ok(None),
            Some(a) => parse_int(a.strip_prefix('#').unwrap_or(a))
                .and_then(|v| u8::try_from(v).ok())
                .map(Some)
                .ok_or_else(|| format!("the shift amount '{a}'")),
        }
    };
    if let Some(sh) = Shift::ALL.iter().find(|k| k.name() == first) {
        let a = amount(words.next())?.ok_or_else(|| format!("a shift amount in '{s}'"))?;
        return Ok(Opnd::Sh(*sh, a));
    }
    if let Some(e) = Extend::ALL.iter().find(|k| k.name() == first) {
        return Ok(Opnd::Ex(*e, amount(words.next())?));
    }
    // Numeric label references `1b`/`1f`.
    if s.len() > 1
        && s[..s.len() - 1].bytes().all(|b| b.is_ascii_digit())
        && (s.ends_with('b') || s.ends_with('f'))
    {
        return Ok(Opnd::Word(s.to_string()));
    }
    let imm = s.strip_prefix('#').unwrap_or(s);
    if let Some(v) = parse_int(imm) {
        return Ok(Opnd::Imm(v));
    }
    if s.starts_with('#') || imm.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        if let Ok(f) = imm.parse::<f64>() {
            return Ok(Opnd::FImm(f));
        }
        return Err(format!("the immediate '{s}'"));
    }
    Ok(Opnd::Word(s.to_string()))
}

fn cond_named(s: &str) -> Option<Cond> {
    let s = s.to_ascii_lowercase();
    match s.as_str() {
        "cs" => Some(Cond::Hs),
        "cc" => Some(Cond::Lo),
        _ => Cond::ALL.iter().copied().find(|c| c.name() == s),
    }
}

/// A statement: its label definitions and, if any, its instruction text.
struct Stmt {
    labels: Vec<String>,
    mnemonic: String,
    operands: Vec<String>,
}

fn statements(text: &str) -> Result<Vec<Stmt>, ParseError> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = match line.find("//") {
            Some(p) => &line[..p],
            None => line,
        };
        for part in line.split(';') {
            let mut rest = part.trim();
            let mut labels = Vec::new();
            // Leading `name:` label definitions.
            while let Some(p) = rest.find(':') {
                let name = rest[..p].trim();
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._$".contains(c))
                {
                    break;
                }
                labels.push(name.to_string());
                rest = rest[p + 1..].trim();
            }
            if rest.is_empty() && labels.is_empty() {
                continue;
            }
            let (mnemonic, ops) = match rest.find(char::is_whitespace) {
                Some(p) => (&rest[..p], rest[p..].trim()),
                None => (rest, ""),
            };
            if mnemonic.starts_with('.') {
                return err(format!(
                    "neverc cannot assemble the directive '{mnemonic}' in inline asm yet"
                ));
            }
            out.push(Stmt {
                labels,
                mnemonic: mnemonic.to_ascii_lowercase(),
                operands: split_operands(ops),
            });
        }
    }
    Ok(out)
}

/// Parses an asm template (operands already substituted) into instructions; labels come
/// from `new_label`.
pub fn parse(text: &str, new_label: &mut dyn FnMut() -> Label) -> Result<Vec<Inst>, ParseError> {
    let stmts = statements(text)?;
    // Labels: each definition gets its own; named ones must be unique.
    let mut defs: Vec<Vec<Label>> = Vec::new();
    let mut named: HashMap<String, Label> = HashMap::new();
    let mut numeric: Vec<(usize, String, Label)> = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        let mut ls = Vec::new();
        for name in &s.labels {
            let l = new_label();
            if name.chars().all(|c| c.is_ascii_digit()) {
                numeric.push((k, name.clone(), l));
            } else if named.insert(name.clone(), l).is_some() {
                return err(format!("symbol '{name}' is already defined"));
            }
            ls.push(l);
        }
        defs.push(ls);
    }
    let mut out = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        for &l in &defs[k] {
            out.push(Inst::Label(l));
        }
        if s.mnemonic.is_empty() {
            continue;
        }
        let label_of = |w: &str| -> Result<Label, ParseError> {
            if let Some(n) = w
                .strip_suffix('b')
                .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            {
                // The last definition at or before this statement.
                return numeric
                    .iter()
                    .rev()
                    .find(|(at, name, _)| *at <= k && name == n)
                    .map(|x| x.2)
                    .ok_or_else(|| ParseError(format!("no label '{n}' before '{w}'")));
            }
            if let Some(n) = w
                .strip_suffix('f')
                .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            {
                return numeric
                    .iter()
                    .find(|(at, name, _)| *at > k && name == n)
                    .map(|x| x.2)
                    .ok_or_else(|| ParseError(format!("no label '{n}' after '{w}'")));
            }
            named.get(w).copied().ok_or_else(|| {
                ParseError(format!(
                    "neverc cannot assemble a reference to '{w}' (not a label of this asm statement) in inline asm yet"
                ))
            })
        };
        let ops: Vec<Opnd> = s
            .operands
            .iter()
            .map(|o| parse_operand(o))
            .collect::<Result<_, _>>()
            .map_err(|what| {
                ParseError(format!(
                    "neverc cannot assemble {what} in '{} {}' in inline asm yet",
                    s.mnemonic,
                    s.operands.join(", ")
                ))
            })?;
        let text = || format!("{} {}", s.mnemonic, s.operands.join(", "));
        match instruction(&s.mnemonic, &ops, &label_of) {
            Ok(Some(mut is)) => out.append(&mut is),
            Ok(None) => {
                return err(format!(
                    "neverc cannot assemble '{}' in inline asm yet",
                    text().trim()
                ))
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

fn same_size(ops: &[Opnd]) -> Option<(Size, Vec<Gpr>)> {
    let mut size = None;
    let mut regs = Vec::new();
    for o in ops {
        let Opnd::G(g, s) = o else { return None };
        if size.is_some_and(|z| z != *s) {
            return None;
        }
        size = Some(*s);
        regs.push(*g);
    }
    Some((size?, regs))
}

fn fsize_of(c: char) -> Option<FSize> {
    match c {
        's' => Some(FSize::S),
        'd' => Some(FSize::D),
        _ => None,
    }
}

/// Same-precision scalar float registers.
fn same_f(ops: &[Opnd]) -> Option<(FSize, Vec<Fpr>)> {
    let mut size = None;
    let mut regs = Vec::new();
    for o in ops {
        let Opnd::F(c, f) = o else { return None };
        let s = fsize_of(*c)?;
        if size.is_some_and(|z| z != s) {
            return None;
        }
        size = Some(s);
        regs.push(*f);
    }
    Some((size?, regs))
}

fn u8_in(v: i64, max: i64) -> Option<u8> {
    (0..=max).contains(&v).then_some(v as u8)
}

/// One instruction (or a short fixed sequence); `Ok(None)` when the form is not known.
fn instruction(
    m: &str,
    ops: &[Opnd],
    label_of: &dyn Fn(&str) -> Result<Label, ParseError>,
) -> Result<Option<Vec<Inst>>, ParseError> {
    use Opnd::*;
    let one = |i: Inst| Ok(Some(vec![i]));
    let target = |o: &Opnd| -> Result<Target, ParseError> {
        match o {
            Word(w) => Ok(Target::Label(label_of(w)?)),
            _ => err(format!("a branch target, not {o:?}")),
        }
    };
    // Conditional branches: `b.eq` and `beq`.
    let bcond = m.strip_prefix("b.").and_then(cond_named).or_else(|| {
        m.strip_prefix('b')
            .filter(|c| c.len() == 2)
            .and_then(cond_named)
    });
    if let Some(c) = bcond {
        if let [t] = ops {
            return one(Inst::BCond(c, target(t)?));
        }
        return Ok(None);
    }
    let addsub = |m: &str| match m {
        "add" => Some((AddSub::Add, false)),
        "adds" => Some((AddSub::Add, true)),
        "sub" => Some((AddSub::Sub, false)),
        "subs" => Some((AddSub::Sub, true)),
        _ => None,
    };
    let logic = |m: &str| match m {
        "and" => Some((LogicOp::And, false)),
        "orr" => Some((LogicOp::Orr, false)),
        "eor" => Some((LogicOp::Eor, false)),
        "ands" => Some((LogicOp::Ands, false)),
        "bic" => Some((LogicOp::And, true)),
        "orn" => Some((LogicOp::Orr, true)),
        "eon" => Some((LogicOp::Eor, true)),
        "bics" => Some((LogicOp::Ands, true)),
        _ => None,
    };
    if let Some((op, flags)) = addsub(m) {
        return Ok(add_sub(op, flags, ops));
    }
    if m == "cmp" || m == "cmn" {
        let op = if m == "cmp" { AddSub::Sub } else { AddSub::Add };
        let zr = match ops.first() {
            Some(G(_, s)) => G(Gpr::ZR, *s),
            _ => return Ok(None),
        };
        let mut full = vec![zr];
        full.extend_from_slice(ops);
        return Ok(add_sub(op, true, &full));
    }
    if m == "neg" || m == "negs" {
        let (Some(G(_, s)), true) = (ops.first(), ops.len() >= 2) else {
            return Ok(None);
        };
        let mut full = vec![ops[0].clone(), G(Gpr::ZR, *s)];
        full.extend_from_slice(&ops[1..]);
        if !matches!(full[2], G(..)) {
            return Ok(None);
        }
        return Ok(add_sub(AddSub::Sub, m == "negs", &full));
    }
    if let Some((op, not)) = logic(m) {
        return Ok(logical(op, not, ops));
    }
    if m == "tst" {
        let zr = match ops.first() {
            Some(G(_, s)) => G(Gpr::ZR, *s),
            _ => return Ok(None),
        };
        let mut full = vec![zr];
        full.extend_from_slice(ops);
        return Ok(logical(LogicOp::Ands, false, &full));
    }
    if m == "mvn" {
        let (Some(G(_, s)), true) = (ops.first(), ops.len() >= 2) else {
            return Ok(None);
        };
        let mut full = vec![ops[0].clone(), G(Gpr::ZR, *s)];
        full.extend_from_slice(&ops[1..]);
        return Ok(logical(LogicOp::Orr, true, &full));
    }
    match (m, ops) {
        ("mov", [V16b(d), V16b(n)]) => one(Inst::MovV { rd: *d, rn: *n }),
        ("mov", [G(d, s1), G(n, s2)]) if s1 == s2 => one(Inst::mov(*s1, *d, *n)),
        ("mov", [G(d, size), Imm(v)]) if *d != Gpr::SP => {
            let bits = size.bits();
            let v = if *size == Size::W {
                *v as u32 as u64
            } else {
                *v as u64
            };
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            for shift in (0..bits).step_by(16) {
                if v & !(0xffff << shift) == 0 {
                    return one(Inst::MovWide {
                        op: MovOp::Movz,
                        size: *size,
                        rd: *d,
                        imm16: (v >> shift) as u16,
                        shift: shift as u8,
                    });
                }
                let n = !v & mask;
                if n & !(0xffff << shift) == 0 {
                    return one(Inst::MovWide {
                        op: MovOp::Movn,
                        size: *size,
                        rd: *d,
                        imm16: (n >> shift) as u16,
                        shift: shift as u8,
                    });
                }
            }
            if bitmask_imm(v, bits).is_some() {
                return one(Inst::LogicImm {
                    op: LogicOp::Orr,
                    size: *size,
                    rd: *d,
                    rn: Gpr::ZR,
                    imm: v,
                });
            }
            err(format!(
                "the constant {v:#x} cannot be moved in one instruction ('mov')"
            ))
        }
        ("movz" | "movn" | "movk", [G(d, size), Imm(v), rest @ ..]) => {
            let op = match m {
                "movz" => MovOp::Movz,
                "movn" => MovOp::Movn,
                _ => MovOp::Movk,
            };
            let shift = match rest {
                [] => 0,
                [Sh(Shift::Lsl, a)] if a % 16 == 0 && (*a as u32) < size.bits() => *a,
                _ => return Ok(None),
            };
            let Some(imm16) = u16::try_from(*v).ok() else {
                return err(format!("the immediate {v} is out of range for '{m}'"));
            };
            one(Inst::MovWide {
                op,
                size: *size,
                rd: *d,
                imm16,
                shift,
            })
        }
        ("mul" | "mneg" | "madd" | "msub", _) => {
            let Some((size, r)) = same_size(ops) else {
                return Ok(None);
            };
            let (op, ra) = match (m, r.len()) {
                ("mul", 3) => (Mul3Op::Madd, Gpr::ZR),
                ("mneg", 3) => (Mul3Op::Msub, Gpr::ZR),
                ("madd", 4) => (Mul3Op::Madd, r[3]),
                ("msub", 4) => (Mul3Op::Msub, r[3]),
                _ => return Ok(None),
            };
            one(Inst::Mul3 {
                op,
                size,
                rd: r[0],
                rn: r[1],
                rm: r[2],
                ra,
            })
        }
        ("smull" | "umull" | "smaddl" | "umaddl", _) => {
            let op = if m.starts_with('s') {
                Mul3Op::Smaddl
            } else {
                Mul3Op::Umaddl
            };
            match ops {
                [G(d, Size::X), G(n, Size::W), G(mm, Size::W)] if m.ends_with("ull") => {
                    one(Inst::Mul3 {
                        op,
                        size: Size::X,
                        rd: *d,
                        rn: *n,
                        rm: *mm,
                        ra: Gpr::ZR,
                    })
                }
                [G(d, Size::X), G(n, Size::W), G(mm, Size::W), G(a, Size::X)]
                    if m.ends_with("addl") =>
                {
                    one(Inst::Mul3 {
                        op,
                        size: Size::X,
                        rd: *d,
                        rn: *n,
                        rm: *mm,
                        ra: *a,
                    })
                }
                _ => Ok(None),
            }
        }
        ("smulh" | "umulh", [G(d, Size::X), G(n, Size::X), G(mm, Size::X)]) => one(Inst::Mul3 {
            op: if m == "smulh" {
                Mul3Op::Smulh
            } else {
                Mul3Op::Umulh
            },
            size: Size::X,
            rd: *d,
            rn: *n,
            rm: *mm,
            ra: Gpr::ZR,
        }),
        ("lsl" | "lsr" | "asr" | "ror", [G(d, size), G(n, s2), Imm(v)]) if size == s2 => {
            let bits = size.bits() as i64;
            let Some(a) = u8_in(*v, bits - 1) else {
                return err(format!("the shift amount {v} is out of range for '{m}'"));
            };
            one(match m {
                "lsl" => Inst::lsl_imm(*size, *d, *n, a),
                "lsr" => Inst::shr_imm(false, *size, *d, *n, a),
                "asr" => Inst::shr_imm(true, *size, *d, *n, a),
                _ => Inst::Extr {
                    size: *size,
                    rd: *d,
                    rn: *n,
                    rm: *n,
                    lsb: a,
                },
            })
        }
        (
            "udiv" | "sdiv" | "lsl" | "lsr" | "asr" | "ror" | "lslv" | "lsrv" | "asrv" | "rorv",
            _,
        ) => {
            let Some((size, r)) = same_size(ops).filter(|(_, r)| r.len() == 3) else {
                return Ok(None);
            };
            let op = match m.trim_end_matches('v') {
                "udi" => Alu2Op::Udiv,
                "sdi" => Alu2Op::Sdiv,
                "lsl" => Alu2Op::Lslv,
                "lsr" => Alu2Op::Lsrv,
                "asr" => Alu2Op::Asrv,
                _ => Alu2Op::Rorv,
            };
            one(Inst::Alu2 {
                op,
                size,
                rd: r[0],
                rn: r[1],
                rm: r[2],
            })
        }
        ("rbit" | "rev16" | "rev32" | "rev" | "clz" | "cls", _) => {
            let Some((size, r)) = same_size(ops).filter(|(_, r)| r.len() == 2) else {
                return Ok(None);
            };
            let op = match m {
                "rbit" => Alu1Op::Rbit,
                "rev16" => Alu1Op::Rev16,
                "rev32" if size == Size::X => Alu1Op::Rev32,
                "rev" => Alu1Op::Rev,
                "clz" => Alu1Op::Clz,
                "cls" => Alu1Op::Cls,
                _ => return Ok(None),
            };
            one(Inst::Alu1 {
                op,
                size,
                rd: r[0],
                rn: r[1],
            })
        }
        (
            "sbfm" | "bfm" | "ubfm" | "sbfx" | "ubfx" | "bfxil" | "sbfiz" | "ubfiz" | "bfi",
            [G(d, size), G(n, s2), Imm(a), Imm(b)],
        ) if size == s2 => {
            let bits = size.bits() as i64;
            let op = match m.as_bytes()[0] {
                b's' => BfOp::Sbfm,
                b'u' => BfOp::Ubfm,
                _ => BfOp::Bfm,
            };
            let (immr, imms) = match m {
                "sbfm" | "bfm" | "ubfm" => (*a, *b),
                "sbfx" | "ubfx" | "bfxil" => (*a, a + b - 1),
                _ => ((bits - a) % bits, b - 1),
            };
            let (Some(immr), Some(imms)) = (u8_in(immr, bits - 1), u8_in(imms, bits - 1)) else {
                return err(format!("a bit-field out of range in '{m}'"));
            };
            if !matches!(m, "sbfm" | "bfm" | "ubfm") && (*b < 1 || a + b > bits || *a < 0) {
                return err(format!("a bit-field out of range in '{m}'"));
            }
            one(Inst::Bitfield {
                op,
                size: *size,
                rd: *d,
                rn: *n,
                immr,
                imms,
            })
        }
        ("sxtb" | "sxth" | "sxtw" | "uxtb" | "uxth", [G(d, size), G(n, Size::W)]) => {
            let from = match &m[3..] {
                "b" => 8,
                "h" => 16,
                _ => 32,
            };
            let signed = m.starts_with('s');
            if (!signed && *size == Size::X) || (from == 32 && *size == Size::W) {
                return Ok(None);
            }
            one(Inst::extend(signed, *size, *d, *n, from))
        }
        ("extr", [G(d, size), G(n, _), G(mm, _), Imm(l)]) => {
            let Some((_, _)) = same_size(&ops[..3]) else {
                return Ok(None);
            };
            let Some(lsb) = u8_in(*l, size.bits() as i64 - 1) else {
                return err(format!("the bit {l} is out of range for 'extr'"));
            };
            one(Inst::Extr {
                size: *size,
                rd: *d,
                rn: *n,
                rm: *mm,
                lsb,
            })
        }
        ("csel" | "csinc" | "csinv" | "csneg", [G(..), G(..), G(..), Word(c)]) => {
            let (Some((size, r)), Some(cond)) = (same_size(&ops[..3]), cond_named(c)) else {
                return Ok(None);
            };
            let op = match m {
                "csel" => CselOp::Csel,
                "csinc" => CselOp::Csinc,
                "csinv" => CselOp::Csinv,
                _ => CselOp::Csneg,
            };
            one(Inst::CondSel {
                op,
                size,
                rd: r[0],
                rn: r[1],
                rm: r[2],
                cond,
            })
        }
        ("cset" | "csetm", [G(d, size), Word(c)]) => {
            let Some(cond) = cond_named(c).filter(|c| !matches!(c, Cond::Al | Cond::Nv)) else {
                return Ok(None);
            };
            one(Inst::CondSel {
                op: if m == "cset" {
                    CselOp::Csinc
                } else {
                    CselOp::Csinv
                },
                size: *size,
                rd: *d,
                rn: Gpr::ZR,
                rm: Gpr::ZR,
                cond: cond.invert(),
            })
        }
        ("cinc" | "cinv" | "cneg", [G(..), G(..), Word(c)]) => {
            let (Some((size, r)), Some(cond)) = (
                same_size(&ops[..2]),
                cond_named(c).filter(|c| !matches!(c, Cond::Al | Cond::Nv)),
            ) else {
                return Ok(None);
            };
            one(Inst::CondSel {
                op: match m {
                    "cinc" => CselOp::Csinc,
                    "cinv" => CselOp::Csinv,
                    _ => CselOp::Csneg,
                },
                size,
                rd: r[0],
                rn: r[1],
                rm: r[1],
                cond: cond.invert(),
            })
        }
        ("ccmp" | "ccmn", [G(n, size), second, Imm(nzcv), Word(c)]) => {
            let Some(cond) = cond_named(c) else {
                return Ok(None);
            };
            let rm = match second {
                G(r, s) if s == size => RegOrImm5::Reg(*r),
                Imm(v) => match u8_in(*v, 31) {
                    Some(v) => RegOrImm5::Imm(v),
                    None => return err(format!("the immediate {v} is out of range for '{m}'")),
                },
                _ => return Ok(None),
            };
            let Some(nzcv) = u8_in(*nzcv, 15) else {
                return err(format!("the flags {nzcv} are out of range for '{m}'"));
            };
            one(Inst::CondCmp {
                op: if m == "ccmp" {
                    AddSub::Sub
                } else {
                    AddSub::Add
                },
                size: *size,
                rn: *n,
                rm,
                nzcv,
                cond,
            })
        }
        ("b", [t]) => one(Inst::B(target(t)?)),
        ("bl", [t]) => one(Inst::Bl(target(t)?)),
        ("br", [G(r, Size::X)]) => one(Inst::Br(*r)),
        ("blr", [G(r, Size::X)]) => one(Inst::Blr(*r)),
        ("ret", []) => one(Inst::Ret(Gpr::LR)),
        ("ret", [G(r, Size::X)]) => one(Inst::Ret(*r)),
        ("cbz" | "cbnz", [G(r, size), t]) => one(Inst::Cbz {
            nz: m == "cbnz",
            size: *size,
            rt: *r,
            target: target(t)?,
        }),
        ("tbz" | "tbnz", [G(r, size), Imm(b), t]) => {
            let Some(bit) = u8_in(*b, size.bits() as i64 - 1) else {
                return err(format!("the bit {b} is out of range for '{m}'"));
            };
            one(Inst::Tbz {
                nz: m == "tbnz",
                rt: *r,
                bit,
                target: target(t)?,
            })
        }
        ("adr", [G(d, Size::X), t]) => one(Inst::Adr {
            rd: *d,
            target: target(t)?,
        }),
        ("ldp" | "stp" | "ldnp" | "stnp", _) if m.len() == 3 => pair(m == "ldp", ops),
        (
            "ldxr" | "ldaxr" | "ldar" | "ldxrb" | "ldaxrb" | "ldarb" | "ldxrh" | "ldaxrh" | "ldarh"
            | "stlr" | "stlrb" | "stlrh",
            [G(t, size), Mem(MemArg::Base(n, 0, false))],
        ) => {
            let (base, bytes) = byte_suffix(m, *size);
            let op = match base {
                "ldxr" => ExclOp::Ldxr,
                "ldaxr" => ExclOp::Ldaxr,
                "ldar" => ExclOp::Ldar,
                _ => ExclOp::Stlr,
            };
            if bytes < 4 && *size == Size::X {
                return Ok(None);
            }
            one(Inst::Excl {
                op,
                bytes,
                rs: Gpr::ZR,
                rt: *t,
                rn: *n,
            })
        }
        (
            "stxr" | "stlxr" | "stxrb" | "stlxrb" | "stxrh" | "stlxrh",
            [G(s, Size::W), G(t, size), Mem(MemArg::Base(n, 0, false))],
        ) => {
            let (base, bytes) = byte_suffix(m, *size);
            if bytes < 4 && *size == Size::X {
                return Ok(None);
            }
            one(Inst::Excl {
                op: if base == "stxr" {
                    ExclOp::Stxr
                } else {
                    ExclOp::Stlxr
                },
                bytes,
                rs: *s,
                rt: *t,
                rn: *n,
            })
        }
        ("dmb", [Word(o)]) => {
            let b = match o.to_ascii_lowercase().as_str() {
                "ishld" => Barrier::Ishld,
                "ishst" => Barrier::Ishst,
                "ish" => Barrier::Ish,
                "sy" => Barrier::Sy,
                _ => return Ok(None),
            };
            one(Inst::Dmb(b))
        }
        ("svc" | "brk", [Imm(v)]) => {
            let Some(n) = u16::try_from(*v).ok() else {
                return err(format!("the immediate {v} is out of range for '{m}'"));
            };
            one(if m == "svc" {
                Inst::Svc(n)
            } else {
                Inst::Brk(n)
            })
        }
        ("nop", []) => one(Inst::Hint(0)),
        ("yield", []) => one(Inst::Hint(1)),
        ("hint", [Imm(v)]) => match u8_in(*v, 127) {
            Some(n) => one(Inst::Hint(n)),
            None => err(format!("the immediate {v} is out of range for 'hint'")),
        },
        ("mrs", [G(t, Size::X), Word(r)]) => match sysreg(r) {
            Some(reg) => one(Inst::Mrs { rt: *t, reg }),
            None => Ok(None),
        },
        ("msr", [Word(r), G(t, Size::X)]) => match sysreg(r) {
            Some(reg) => one(Inst::Msr { reg, rt: *t }),
            None => Ok(None),
        },
        ("fmov", [F(a, d), F(b, n)]) if a == b => match fsize_of(*a) {
            Some(size) => one(Inst::FMov {
                size,
                rd: *d,
                rn: *n,
            }),
            None => Ok(None),
        },
        ("fmov", [G(d, gs), F(c, n)]) => match (gs, fsize_of(*c)) {
            (Size::W, Some(FSize::S)) | (Size::X, Some(FSize::D)) => one(Inst::FMovToGpr {
                size: fsize_of(*c).unwrap(),
                rd: *d,
                rn: *n,
            }),
            _ => Ok(None),
        },
        ("fmov", [F(c, d), G(n, gs)]) => match (gs, fsize_of(*c)) {
            (Size::W, Some(FSize::S)) | (Size::X, Some(FSize::D)) => one(Inst::FMovFromGpr {
                size: fsize_of(*c).unwrap(),
                rd: *d,
                rn: *n,
            }),
            _ => Ok(None),
        },
        ("fmov", [F(c, d), imm @ (FImm(_) | Imm(_))]) => {
            let Some(size) = fsize_of(*c) else {
                return Ok(None);
            };
            let v = match imm {
                FImm(f) => *f,
                Imm(i) => *i as f64,
                _ => unreachable!(),
            };
            match fmov_imm8(v) {
                Some(imm8) => one(Inst::FMovImm { size, rd: *d, imm8 }),
                None => err(format!("the constant {v} cannot be an 'fmov' immediate")),
            }
        }
        ("fmov", [G(g, Size::X), VTop(v)]) => one(Inst::FMovTop {
            to_gpr: true,
            g: *g,
            v: *v,
        }),
        ("fmov", [VTop(v), G(g, Size::X)]) => one(Inst::FMovTop {
            to_gpr: false,
            g: *g,
            v: *v,
        }),
        ("fabs" | "fneg" | "fsqrt", _) => {
            let Some((size, r)) = same_f(ops).filter(|(_, r)| r.len() == 2) else {
                return Ok(None);
            };
            let op = match m {
                "fabs" => FUnOp::Abs,
                "fneg" => FUnOp::Neg,
                _ => FUnOp::Sqrt,
            };
            one(Inst::FUn {
                op,
                size,
                rd: r[0],
                rn: r[1],
            })
        }
        (
            "fadd" | "fsub" | "fmul" | "fdiv" | "fmax" | "fmin" | "fmaxnm" | "fminnm" | "fnmul",
            _,
        ) => {
            let Some((size, r)) = same_f(ops).filter(|(_, r)| r.len() == 3) else {
                return Ok(None);
            };
            let op = match m {
                "fadd" => FBinOp::Add,
                "fsub" => FBinOp::Sub,
                "fmul" => FBinOp::Mul,
                "fdiv" => FBinOp::Div,
                "fmax" => FBinOp::Max,
                "fmin" => FBinOp::Min,
                "fmaxnm" => FBinOp::MaxNm,
                "fminnm" => FBinOp::MinNm,
                _ => FBinOp::Nmul,
            };
            one(Inst::FBin {
                op,
                size,
                rd: r[0],
                rn: r[1],
                rm: r[2],
            })
        }
        ("fcmp" | "fcmpe", [F(..), F(..)]) => match same_f(ops) {
            Some((size, r)) => one(Inst::FCmp {
                e: m == "fcmpe",
                size,
                rn: r[0],
                rm: Some(r[1]),
            }),
            None => Ok(None),
        },
        ("fcmp" | "fcmpe", [F(c, n), z @ (FImm(_) | Imm(_))])
            if matches!(z, FImm(f) if *f == 0.0) || *z == Imm(0) =>
        {
            match fsize_of(*c) {
                Some(size) => one(Inst::FCmp {
                    e: m == "fcmpe",
                    size,
                    rn: *n,
                    rm: None,
                }),
                None => Ok(None),
            }
        }
        ("fcsel", [F(..), F(..), F(..), Word(c)]) => {
            let (Some((size, r)), Some(cond)) = (same_f(&ops[..3]), cond_named(c)) else {
                return Ok(None);
            };
            one(Inst::FCsel {
                size,
                rd: r[0],
                rn: r[1],
                rm: r[2],
                cond,
            })
        }
        ("fcvt", [F(a, d), F(b, n)]) => match (a, b) {
            ('s', 'd') => one(Inst::FCvt {
                to: FSize::S,
                rd: *d,
                rn: *n,
            }),
            ('d', 's') => one(Inst::FCvt {
                to: FSize::D,
                rd: *d,
                rn: *n,
            }),
            ('h', 's' | 'd') => one(Inst::FCvtHalf {
                to_half: true,
                other: fsize_of(*b).unwrap(),
                rd: *d,
                rn: *n,
            }),
            ('s' | 'd', 'h') => one(Inst::FCvtHalf {
                to_half: false,
                other: fsize_of(*a).unwrap(),
                rd: *d,
                rn: *n,
            }),
            _ => Ok(None),
        },
        ("scvtf" | "ucvtf", [F(c, d), G(n, isize)]) => match fsize_of(*c) {
            Some(fsize) => one(Inst::IntToFp {
                signed: m == "scvtf",
                isize: *isize,
                fsize,
                rd: *d,
                rn: *n,
            }),
            None => Ok(None),
        },
        ("fcvtzs" | "fcvtzu", [G(d, isize), F(c, n)]) => match fsize_of(*c) {
            Some(fsize) => one(Inst::FpToInt {
                signed: m == "fcvtzs",
                isize: *isize,
                fsize,
                rd: *d,
                rn: *n,
            }),
            None => Ok(None),
        },
        _ => load_store(m, ops),
    }
}

fn sysreg(r: &str) -> Option<SysReg> {
    match r.to_ascii_lowercase().as_str() {
        "tpidr_el0" => Some(SysReg::TpidrEl0),
        "fpcr" => Some(SysReg::Fpcr),
        "fpsr" => Some(SysReg::Fpsr),
        _ => None,
    }
}

/// `ldxrb` -> ("ldxr", 1); `ldxr w` -> ("ldxr", 4).
fn byte_suffix(m: &str, size: Size) -> (&str, u8) {
    let full = if size == Size::X { 8 } else { 4 };
    match m.as_bytes()[m.len() - 1] {
        b'b' => (&m[..m.len() - 1], 1),
        b'h' => (&m[..m.len() - 1], 2),
        _ => (m, full),
    }
}

fn add_sub(op: AddSub, flags: bool, ops: &[Opnd]) -> Option<Vec<Inst>> {
    use Opnd::*;
    let (G(rd, size), G(rn, s2)) = (ops.first()?, ops.get(1)?) else {
        return None;
    };
    if size != s2 {
        return None;
    }
    let (size, rd, rn) = (*size, *rd, *rn);
    match &ops[2..] {
        [Imm(v), rest @ ..] => {
            let lsl12 = match rest {
                [] => false,
                [Sh(Shift::Lsl, 12)] => true,
                [Sh(Shift::Lsl, 0)] => false,
                _ => return None,
            };
            // A negative immediate is the other operation (as gas takes `add x0, x1, #-8`).
            let (op, v) = if *v < 0 && !lsl12 {
                (
                    if op == AddSub::Add {
                        AddSub::Sub
                    } else {
                        AddSub::Add
                    },
                    -*v,
                )
            } else {
                (op, *v)
            };
            let (imm12, lsl12) = if (0..4096).contains(&v) {
                (v as u16, lsl12)
            } else if !lsl12 && v & 0xfff == 0 && v < 1 << 24 {
                ((v >> 12) as u16, true)
            } else {
                return None;
            };
            Some(vec![Inst::AluImm {
                op,
                flags,
                size,
                rd,
                rn,
                imm12,
                lsl12,
            }])
        }
        [G(rm, ms), rest @ ..] => {
            let uses_sp = rd == Gpr::SP || rn == Gpr::SP;
            match rest {
                [] | [Sh(..)] if *ms == size && !uses_sp => {
                    let (shift, amount) = match rest {
                        [Sh(s, a)] if *s != Shift::Ror && (*a as u32) < size.bits() => (*s, *a),
                        [] => (Shift::Lsl, 0),
                        _ => return None,
                    };
                    Some(vec![Inst::AluShift {
                        op,
                        flags,
                        size,
                        rd,
                        rn,
                        rm: *rm,
                        shift,
                        amount,
                    }])
                }
                _ => {
                    // The extended-register form (and `sp` with a plain register, which is
                    // `uxtx`/`uxtw` there).
                    let (ext, amount) = match rest {
                        [] if uses_sp => (
                            if size == Size::X {
                                Extend::Uxtx
                            } else {
                                Extend::Uxtw
                            },
                            0,
                        ),
                        [Sh(Shift::Lsl, a)] if uses_sp => (
                            if size == Size::X {
                                Extend::Uxtx
                            } else {
                                Extend::Uxtw
                            },
                            *a,
                        ),
                        [Ex(e, a)] => (*e, a.unwrap_or(0)),
                        _ => return None,
                    };
                    if amount > 4 || (ext.is_x() != (*ms == Size::X)) || *rm == Gpr::SP {
                        return None;
                    }
                    Some(vec![Inst::AluExt {
                        op,
                        flags,
                        size,
                        rd,
                        rn,
                        rm: *rm,
                        ext,
                        amount,
                    }])
                }
            }
        }
        _ => None,
    }
}

fn logical(op: LogicOp, not: bool, ops: &[Opnd]) -> Option<Vec<Inst>> {
    use Opnd::*;
    let (G(rd, size), G(rn, s2)) = (ops.first()?, ops.get(1)?) else {
        return None;
    };
    if size != s2 {
        return None;
    }
    match &ops[2..] {
        [Imm(v)] if !not => {
            let v = if *size == Size::W {
                *v as u32 as u64
            } else {
                *v as u64
            };
            bitmask_imm(v, size.bits())?;
            Some(vec![Inst::LogicImm {
                op,
                size: *size,
                rd: *rd,
                rn: *rn,
                imm: v,
            }])
        }
        [G(rm, ms), rest @ ..] if ms == size => {
            let (shift, amount) = match rest {
                [] => (Shift::Lsl, 0),
                [Sh(s, a)] if (*a as u32) < size.bits() => (*s, *a),
                _ => return None,
            };
            Some(vec![Inst::LogicShift {
                op,
                not,
                size: *size,
                rd: *rd,
                rn: *rn,
                rm: *rm,
                shift,
                amount,
            }])
        }
        _ => None,
    }
}

fn pair(load: bool, ops: &[Opnd]) -> Result<Option<Vec<Inst>>, ParseError> {
    use Opnd::*;
    let (class, rt, rt2) = match ops.get(..2) {
        Some([G(a, s1), G(b, s2)]) if s1 == s2 => (
            if *s1 == Size::X {
                PairClass::X
            } else {
                PairClass::W
            },
            Reg::G(*a),
            Reg::G(*b),
        ),
        Some([F(c1, a), F(c2, b)]) if c1 == c2 => (
            match c1 {
                's' => PairClass::S,
                'd' => PairClass::D,
                'q' => PairClass::Q,
                _ => return Ok(None),
            },
            Reg::V(*a),
            Reg::V(*b),
        ),
        _ => return Ok(None),
    };
    let (base, off, mode) = match &ops[2..] {
        [Mem(MemArg::Base(b, o, pre))] => (
            *b,
            *o,
            if *pre {
                PairMode::Pre
            } else {
                PairMode::Offset
            },
        ),
        [Mem(MemArg::Base(b, 0, false)), Imm(o)] => (*b, *o, PairMode::Post),
        _ => return Ok(None),
    };
    let scale = class.bytes() as i64;
    if off % scale != 0 || !(-64..64).contains(&(off / scale)) {
        return err(format!(
            "the offset {off} is out of range for a register pair"
        ));
    }
    Ok(Some(vec![Inst::Pair {
        load,
        class,
        rt,
        rt2,
        base,
        off: off as i32,
        mode,
    }]))
}

fn load_store(m: &str, ops: &[Opnd]) -> Result<Option<Vec<Inst>>, ParseError> {
    use Opnd::*;
    let (unscaled, name) = match m {
        "ldur" | "stur" | "ldurb" | "sturb" | "ldurh" | "sturh" | "ldursb" | "ldursh"
        | "ldursw" => (true, format!("{}{}", &m[..2], &m[3..])),
        _ => (false, m.to_string()),
    };
    let Some(rt) = ops.first() else {
        return Ok(None);
    };
    let op = match (name.as_str(), rt) {
        ("ldr", G(_, Size::X)) => MemOp::LdrX,
        ("ldr", G(_, Size::W)) => MemOp::LdrW,
        ("str", G(_, Size::X)) => MemOp::StrX,
        ("str", G(_, Size::W)) => MemOp::StrW,
        ("ldrb", G(_, Size::W)) => MemOp::Ldrb,
        ("strb", G(_, Size::W)) => MemOp::Strb,
        ("ldrh", G(_, Size::W)) => MemOp::Ldrh,
        ("strh", G(_, Size::W)) => MemOp::Strh,
        ("ldrsb", G(_, Size::W)) => MemOp::LdrsbW,
        ("ldrsb", G(_, Size::X)) => MemOp::LdrsbX,
        ("ldrsh", G(_, Size::W)) => MemOp::LdrshW,
        ("ldrsh", G(_, Size::X)) => MemOp::LdrshX,
        ("ldrsw", G(_, Size::X)) => MemOp::Ldrsw,
        ("ldr" | "str", F(c, _)) => {
            let load = name == "ldr";
            match (c, load) {
                ('b', true) => MemOp::LdrB,
                ('b', false) => MemOp::StrB,
                ('h', true) => MemOp::LdrH,
                ('h', false) => MemOp::StrH,
                ('s', true) => MemOp::LdrS,
                ('s', false) => MemOp::StrS,
                ('d', true) => MemOp::LdrD,
                ('d', false) => MemOp::StrD,
                ('q', true) => MemOp::LdrQ,
                ('q', false) => MemOp::StrQ,
                _ => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    let rt = match rt {
        G(g, _) => Reg::G(*g),
        F(_, f) => Reg::V(*f),
        _ => unreachable!(),
    };
    let bytes = op.bytes() as i64;
    let addr = match &ops[1..] {
        [Mem(MemArg::Base(base, off, false))] => {
            let off = *off;
            if !unscaled && off >= 0 && off % bytes == 0 && off / bytes < 4096 {
                Addr::UImm {
                    base: *base,
                    off: off as u32,
                }
            } else if (-256..256).contains(&off) {
                Addr::Unscaled {
                    base: *base,
                    off: off as i16,
                }
            } else {
                return err(format!("the offset {off} is out of range for '{m}'"));
            }
        }
        [Mem(MemArg::Base(base, off, true))] if !unscaled && (-256..256).contains(off) => {
            Addr::Pre {
                base: *base,
                off: *off as i16,
            }
        }
        [Mem(MemArg::Base(base, 0, false)), Imm(off)] if !unscaled && (-256..256).contains(off) => {
            Addr::Post {
                base: *base,
                off: *off as i16,
            }
        }
        [Mem(MemArg::Index(base, index, isize, ext))] if !unscaled => {
            let shift = bytes.trailing_zeros() as u8;
            let (ext, scaled) = match (ext, isize) {
                (None, Size::X) => (IndexExt::Lsl, false),
                (Some((e, amt)), _) => {
                    let e = match (e.as_str(), isize) {
                        ("lsl", Size::X) => IndexExt::Lsl,
                        ("uxtw", Size::W) => IndexExt::Uxtw,
                        ("sxtw", Size::W) => IndexExt::Sxtw,
                        ("sxtx", Size::X) => IndexExt::Sxtx,
                        _ => return Ok(None),
                    };
                    // The amount is 0 or log2 of the access size; `lsl` needs one.
                    let scaled = match amt {
                        None if e == IndexExt::Lsl => return Ok(None),
                        None => false,
                        Some(a) if *a == shift => true,
                        Some(0) => false,
                        _ => return err(format!("the index shift is wrong for '{m}'")),
                    };
                    (e, scaled)
                }
                _ => return Ok(None),
            };
            Addr::RegOff {
                base: *base,
                index: *index,
                ext,
                scaled,
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(vec![Inst::Mem { op, rt, addr }]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::print;

    fn round_trip(text: &str) -> String {
        let mut n = 100;
        let insts = parse(text, &mut || {
            n += 1;
            Label(n)
        })
        .unwrap_or_else(|e| panic!("{text}: {}", e.0));
        insts
            .iter()
            .map(|i| print(i, &|_| "sym".into(), &|l| format!(".L{}", l.0)))
            .collect::<Vec<_>>()
            .join("; ")
    }

    #[test]
    fn printer_syntax_parses_back() {
        for t in [
            "add x0, x1, #4",
            "sub w3, w4, w5, lsl #2",
            "add x0, sp, #16",
            "adds x1, x2, w3, sxtw #2",
            "cmp w0, #7",
            "neg x1, x2",
            "and w0, w1, #0xff",
            "bic x0, x1, x2, lsr #3",
            "tst w0, #0xf0",
            "mvn w0, w1",
            "mov x0, x1",
            "movz w0, #0x2a",
            "movk x0, #0x1234, lsl #16",
            "mul w0, w1, w2",
            "madd x0, x1, x2, x3",
            "umull x0, w1, w2",
            "smulh x0, x1, x2",
            "udiv w0, w1, w2",
            "lsl x0, x1, #3",
            "asr w0, w1, #31",
            "ror w2, w3, #8",
            "lsr x0, x1, x2",
            "rev w0, w1",
            "clz x0, x1",
            "ubfx w0, w1, #4, #8",
            "bfi x0, x1, #8, #16",
            "sxtb x0, w1",
            "uxth w0, w1",
            "csel w0, w1, w2, ne",
            "cset w0, eq",
            "ccmp x0, #3, #4, hi",
            "ldr x0, [x1]",
            "ldr w0, [x1, #8]",
            "ldur x0, [x1, #-8]",
            "ldrsw x0, [x1, x2, lsl #2]",
            "ldrb w0, [x1, w2, uxtw]",
            "str q0, [x1, #16]",
            "ldr d1, [x2], #8",
            "str x0, [sp, #-16]!",
            "stp x29, x30, [sp, #-16]!",
            "ldp d8, d9, [sp, #16]",
            "ldaxr w0, [x1]",
            "stlxr w2, x0, [x1]",
            "ldxrb w0, [x1]",
            "dmb ish",
            "nop",
            "mrs x0, tpidr_el0",
            "fmov s0, s1",
            "fmov x0, d1",
            "fmov d0, #1.5",
            "fadd d0, d1, d2",
            "fsqrt s0, s1",
            "fcmp d0, #0.0",
            "fcsel s0, s1, s2, lt",
            "fcvt h0, s1",
            "fcvt d0, s1",
            "scvtf d0, w1",
            "fcvtzu x0, s1",
            "mov v0.16b, v1.16b",
            "fmov x0, v1.d[1]",
        ] {
            assert_eq!(round_trip(t), t);
        }
    }

    #[test]
    fn aliases_bare_immediates_and_labels() {
        assert_eq!(round_trip("add x0, x1, 5"), "add x0, x1, #5");
        assert_eq!(round_trip("add x0, x1, #-5"), "sub x0, x1, #5");
        assert_eq!(round_trip("add x0, x1, #4096"), "add x0, x1, #1, lsl #12");
        assert_eq!(round_trip("mov x0, #-1"), "movn x0, #0");
        assert_eq!(round_trip("mov w0, #42"), "movz w0, #0x2a");
        assert_eq!(round_trip("mov w0, #0x10000"), "movz w0, #1, lsl #16");
        assert_eq!(
            round_trip("mov x0, #0x5555555555555555"),
            "orr x0, xzr, #0x5555555555555555"
        );
        assert_eq!(round_trip("cinc w0, w1, eq"), "csinc w0, w1, w1, ne");
        assert_eq!(
            round_trip("1: subs x0, x0, #1\n b.ne 1b; cbz x0, 2f\n2:"),
            ".L101:; subs x0, x0, #1; b.ne .L101; cbz x0, .L102; .L102:"
        );
        assert_eq!(
            round_trip("loop: bne loop // comment"),
            ".L101:; b.ne .L101"
        );
        assert_eq!(
            round_trip("add %?3x, %?0x, %?1w, uxtw"),
            format!("add x{}, x{}, w{}, uxtw", PH | 3, PH, PH | 1)
        );
    }

    #[test]
    fn refusals_name_the_instruction() {
        let p = |t: &str| {
            parse(t, &mut || Label(1))
                .err()
                .map(|e| e.0)
                .unwrap_or_default()
        };
        assert_eq!(p("isb"), "neverc cannot assemble 'isb' in inline asm yet");
        assert_eq!(
            p("add v0.4s, v1.4s, v2.4s"),
            "neverc cannot assemble 'add v0.4s, v1.4s, v2.4s' in inline asm yet"
        );
        assert_eq!(
            p("bl printf"),
            "neverc cannot assemble a reference to 'printf' (not a label of this asm statement) in inline asm yet"
        );
        assert_eq!(
            p(".word 0"),
            "neverc cannot assemble the directive '.word' in inline asm yet"
        );
        assert_eq!(p("1: b 1f"), "no label '1' after '1f'");
        assert_eq!(
            p("and w0, w1, #5"),
            "neverc cannot assemble 'and w0, w1, #5' in inline asm yet"
        );
    }
}
