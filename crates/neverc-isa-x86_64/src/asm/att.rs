//! A small AT&T assembly parser for inline asm: text to this module's own [`Inst`] values,
//! so inline asm is encoded by neverc's encoder and printed by its printer.
//!
//! It reads one statement per line or `;`, labels (`name:`, numeric `1:` referenced as
//! `1b`/`1f`), the prefixes `lock` and `rep` (alone or before an instruction), and every
//! mnemonic the encoder has a form for, with gas's suffix rules: `addl`, or `add` sized by
//! its register operands. Anything else (an unknown mnemonic, a directive, an operand shape
//! the encoder has no form for) is an error naming it.
//!
//! Inline asm operands arrive already substituted. A register the register allocator has
//! not chosen yet is written `%?Nw`: operand `N` of the instruction being lowered, at width
//! `w` (`b`, `w`, `l`, `q`, or `x` for an XMM register); it parses to register number
//! [`OPERAND_REG`]` | N`, which the back end replaces after allocation.

use super::inst::*;
use std::collections::HashMap;

/// Register numbers at and above this are operand placeholders (`%?N`).
pub const OPERAND_REG: u8 = 0x40;

/// An error: the message says what neverc cannot assemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttError(pub String);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Opnd {
    Gpr(Gpr, Size),
    Xmm(Xmm),
    Imm(i64),
    Mem(Mem),
    /// A label reference (jump target).
    Label(Label),
    St(u8),
    /// `*operand` of an indirect jump or call.
    Ind(Rm),
}

fn cannot(what: &str) -> AttError {
    AttError(format!("neverc cannot assemble '{what}' in inline asm yet"))
}

fn gpr_by_name(n: &str) -> Option<(Gpr, Size)> {
    const N64: [&str; 16] = [
        "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15",
    ];
    const N32: [&str; 16] = [
        "eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d",
        "r12d", "r13d", "r14d", "r15d",
    ];
    const N16: [&str; 16] = [
        "ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w",
        "r13w", "r14w", "r15w",
    ];
    const N8: [&str; 16] = [
        "al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b",
        "r13b", "r14b", "r15b",
    ];
    // The legacy high bytes: encoded as 4..7 without REX (see `Gpr::AH`).
    if let Some(i) = ["ah", "ch", "dh", "bh"].iter().position(|&x| x == n) {
        return Some((Gpr(Gpr::AH.0 + i as u8), Size::S8));
    }
    for (tab, size) in [
        (N64, Size::S64),
        (N32, Size::S32),
        (N16, Size::S16),
        (N8, Size::S8),
    ] {
        if let Some(i) = tab.iter().position(|&x| x == n) {
            return Some((Gpr(i as u8), size));
        }
    }
    None
}

/// A register name as the clobber list spells it (`"rbx"`, `"%ecx"`, `"xmm3"`): (GPR
/// number, or 16 + XMM number).
pub fn clobber_reg(name: &str) -> Option<u8> {
    let n = name.trim_start_matches('%');
    if let Some((g, _)) = gpr_by_name(n) {
        return Some(g.0);
    }
    let x: u8 = n.strip_prefix("xmm")?.parse().ok()?;
    (x < 16).then_some(16 + x)
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, s.strip_prefix('+').unwrap_or(s).trim()),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as i64
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()? as i64
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()? as i64
    } else if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse::<u64>().ok()? as i64
    } else {
        return None;
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

/// Condition-code spellings (gas's aliases included).
fn cond_by_name(n: &str) -> Option<Cond> {
    Some(match n {
        "o" => Cond::O,
        "no" => Cond::NO,
        "b" | "c" | "nae" => Cond::B,
        "ae" | "nb" | "nc" => Cond::AE,
        "e" | "z" => Cond::E,
        "ne" | "nz" => Cond::NE,
        "be" | "na" => Cond::BE,
        "a" | "nbe" => Cond::A,
        "s" => Cond::S,
        "ns" => Cond::NS,
        "p" | "pe" => Cond::P,
        "np" | "po" => Cond::NP,
        "l" | "nge" => Cond::L,
        "ge" | "nl" => Cond::GE,
        "le" | "ng" => Cond::LE,
        "g" | "nle" => Cond::G,
        _ => return None,
    })
}

/// `l` (less), or `bl` (below, 32-bit): an exact condition name first.
fn cond_and_suffix(s: &str) -> Option<(Cond, Option<Size>)> {
    if let Some(c) = cond_by_name(s) {
        return Some((c, None));
    }
    let (c, w) = s.split_at(s.len().checked_sub(1)?);
    Some((cond_by_name(c)?, Some(size_of_suffix(w.chars().next()?)?)))
}

fn size_of_suffix(c: char) -> Option<Size> {
    Some(match c {
        'b' => Size::S8,
        'w' => Size::S16,
        'l' => Size::S32,
        'q' => Size::S64,
        _ => return None,
    })
}

/// The parser's state for one asm statement.
pub struct Parser<'a> {
    /// How many operand placeholders the text may name.
    operands: usize,
    new_label: &'a mut dyn FnMut() -> Label,
    /// Named labels and the latest definition of each numeric label.
    named: HashMap<String, Label>,
    numeric_back: HashMap<u32, Label>,
    /// Numeric labels referenced forward (`1f`) before their definition.
    numeric_fwd: HashMap<u32, Label>,
    out: Vec<Inst>,
    /// The statement's prefix was a statement of its own (`rep; insw`, not `rep insw`).
    prefix_alone: bool,
}

/// Parses AT&T text to instructions; `new_label` gives fresh labels for the text's own.
pub fn parse(text: &str, new_label: &mut dyn FnMut() -> Label) -> Result<Vec<Inst>, AttError> {
    parse_with_operands(text, 0, new_label)
}

/// As [`parse`], with placeholder registers `%?0` .. `%?{operands-1}` allowed.
pub fn parse_with_operands(
    text: &str,
    operands: usize,
    new_label: &mut dyn FnMut() -> Label,
) -> Result<Vec<Inst>, AttError> {
    let mut p = Parser {
        operands,
        new_label,
        named: HashMap::new(),
        numeric_back: HashMap::new(),
        numeric_fwd: HashMap::new(),
        out: Vec::new(),
        prefix_alone: false,
    };
    let mut prefix: Option<String> = None;
    for line in text.split(['\n', ';']) {
        // `#` starts a comment (gas on x86).
        let line = line.split('#').next().unwrap_or("").trim();
        if !line.is_ascii() {
            return Err(cannot(line));
        }
        let mut rest = line;
        // Labels.
        while let Some(colon) = rest.find(':') {
            let name = rest[..colon].trim();
            let is_label = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
                && !name.starts_with('%');
            if !is_label {
                break;
            }
            p.define_label(name)?;
            rest = rest[colon + 1..].trim();
        }
        if rest.is_empty() {
            continue;
        }
        let (mn, ops) = match rest.find(|c: char| c.is_whitespace()) {
            Some(k) => (&rest[..k], rest[k..].trim()),
            None => (rest, ""),
        };
        let mn_l = mn.to_ascii_lowercase();
        if mn_l == "lock" || mn_l == "rep" || mn_l == "repe" || mn_l == "repz" {
            if let Some(pf) = &prefix {
                return Err(cannot(&format!("{pf} {rest}")));
            }
            if ops.is_empty() {
                prefix = Some(mn_l);
                continue;
            }
            let (m2, o2) = match ops.find(|c: char| c.is_whitespace()) {
                Some(k) => (&ops[..k], ops[k..].trim()),
                None => (ops, ""),
            };
            p.prefix_alone = false;
            p.statement(Some(&mn_l), &m2.to_ascii_lowercase(), o2, ops)?;
            continue;
        }
        let pf = prefix.take();
        p.prefix_alone = pf.is_some();
        p.statement(pf.as_deref(), &mn_l, ops, rest)?;
    }
    if let Some(pf) = prefix {
        return Err(cannot(&pf));
    }
    let mut undefined: Vec<&String> = p
        .named
        .iter()
        .filter(|(_, l)| !p.out.contains(&Inst::Label(**l)))
        .map(|(n, _)| n)
        .collect();
    undefined.sort();
    if let Some(n) = undefined.first() {
        return Err(AttError(format!(
            "inline asm refers to label '{n}', which it does not define"
        )));
    }
    if let Some(n) = p.numeric_fwd.keys().next() {
        return Err(AttError(format!(
            "inline asm refers to label '{n}f', which it does not define"
        )));
    }
    Ok(p.out)
}

impl Parser<'_> {
    fn define_label(&mut self, name: &str) -> Result<(), AttError> {
        if let Ok(n) = name.parse::<u32>() {
            let l = self
                .numeric_fwd
                .remove(&n)
                .unwrap_or_else(|| (self.new_label)());
            self.numeric_back.insert(n, l);
            self.out.push(Inst::Label(l));
            return Ok(());
        }
        if self.named.contains_key(name) {
            if let Some(&l) = self.named.get(name) {
                if self.out.contains(&Inst::Label(l)) {
                    return Err(AttError(format!(
                        "inline asm defines the label '{name}' twice"
                    )));
                }
                self.out.push(Inst::Label(l));
                return Ok(());
            }
        }
        let l = (self.new_label)();
        self.named.insert(name.to_string(), l);
        self.out.push(Inst::Label(l));
        Ok(())
    }

    fn label_ref(&mut self, s: &str) -> Result<Label, AttError> {
        if let Some(n) = s.strip_suffix('b').and_then(|x| x.parse::<u32>().ok()) {
            return self.numeric_back.get(&n).copied().ok_or_else(|| {
                AttError(format!(
                    "inline asm refers to label '{s}', which is not defined before it"
                ))
            });
        }
        if let Some(n) = s.strip_suffix('f').and_then(|x| x.parse::<u32>().ok()) {
            if let Some(&l) = self.numeric_fwd.get(&n) {
                return Ok(l);
            }
            let l = (self.new_label)();
            self.numeric_fwd.insert(n, l);
            return Ok(l);
        }
        if s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !s.starts_with(|c: char| c.is_ascii_digit())
        {
            if let Some(&l) = self.named.get(s) {
                return Ok(l);
            }
            let l = (self.new_label)();
            self.named.insert(s.to_string(), l);
            return Ok(l);
        }
        Err(cannot(s))
    }

    fn operand(&mut self, s: &str, jump: bool) -> Result<Opnd, AttError> {
        let s = s.trim();
        if let Some(t) = s.strip_prefix('*') {
            return match self.operand(t, false)? {
                Opnd::Gpr(g, Size::S64) => Ok(Opnd::Ind(Rm::Reg(g))),
                Opnd::Mem(m) => Ok(Opnd::Ind(Rm::Mem(m))),
                _ => Err(cannot(s)),
            };
        }
        if let Some(imm) = s.strip_prefix('$') {
            return parse_int(imm).map(Opnd::Imm).ok_or_else(|| cannot(s));
        }
        if let Some(r) = s.strip_prefix('%') {
            if let Some(colon) = r.find(':') {
                // Segment override.
                let seg = match &r[..colon] {
                    "fs" => Seg::Fs,
                    "gs" => Seg::Gs,
                    _ => return Err(cannot(s)),
                };
                return match self.operand(&r[colon + 1..], false)? {
                    Opnd::Mem(m) => Ok(Opnd::Mem(m.with_seg(seg))),
                    Opnd::Imm(_) => Err(cannot(s)),
                    _ => Err(cannot(s)),
                };
            }
            if !r.contains('(') || r.starts_with("st(") {
                return self.register(r).ok_or_else(|| cannot(s));
            }
        }
        if let Some(open) = s.find('(') {
            let disp_text = s[..open].trim();
            let inner = s[open + 1..].strip_suffix(')').ok_or_else(|| cannot(s))?;
            let disp = if disp_text.is_empty() {
                0
            } else {
                parse_int(disp_text).ok_or_else(|| cannot(s))?
            };
            if disp != disp as i32 as i64 {
                return Err(cannot(s));
            }
            let parts: Vec<&str> = inner.split(',').map(|x| x.trim()).collect();
            let reg64 = |p: &mut Self, x: &str| -> Result<Option<Gpr>, AttError> {
                if x.is_empty() {
                    return Ok(None);
                }
                match x.strip_prefix('%').and_then(|r| p.register(r)) {
                    Some(Opnd::Gpr(g, Size::S64)) => Ok(Some(g)),
                    _ => Err(cannot(s)),
                }
            };
            if parts.len() == 1 && parts[0] == "%rip" {
                return Err(cannot(s));
            }
            let base = reg64(self, parts[0])?;
            let index = match parts.get(1) {
                Some(x) => {
                    let i = reg64(self, x)?.ok_or_else(|| cannot(s))?;
                    if i == Gpr::RSP {
                        return Err(cannot(s));
                    }
                    let scale = match parts.get(2) {
                        Some(sc) => match parse_int(sc) {
                            Some(k @ (1 | 2 | 4 | 8)) => k as u8,
                            _ => return Err(cannot(s)),
                        },
                        None => 1,
                    };
                    Some((i, scale))
                }
                None => None,
            };
            if parts.len() > 3 {
                return Err(cannot(s));
            }
            let mut m = Mem::abs(disp as i32);
            m.base = base;
            m.index = index;
            return Ok(Opnd::Mem(m));
        }
        if jump {
            return self.label_ref(s).map(Opnd::Label);
        }
        if let Some(v) = parse_int(s) {
            if v == v as i32 as i64 {
                return Ok(Opnd::Mem(Mem::abs(v as i32)));
            }
        }
        Err(cannot(s))
    }

    fn register(&mut self, r: &str) -> Option<Opnd> {
        if let Some(p) = r.strip_prefix('?') {
            // `%?Nw`: an operand placeholder.
            let (num, w) = p.split_at(p.len().checked_sub(1)?);
            let n: u8 = num.parse().ok()?;
            if usize::from(n) >= self.operands || n >= OPERAND_REG {
                return None;
            }
            return Some(match w {
                "x" => Opnd::Xmm(Xmm(OPERAND_REG | n)),
                _ => Opnd::Gpr(Gpr(OPERAND_REG | n), size_of_suffix(w.chars().next()?)?),
            });
        }
        if let Some((g, size)) = gpr_by_name(r) {
            return Some(Opnd::Gpr(g, size));
        }
        if let Some(x) = r.strip_prefix("xmm").and_then(|x| x.parse::<u8>().ok()) {
            return (x < 16).then_some(Opnd::Xmm(Xmm(x)));
        }
        if r == "st" {
            return Some(Opnd::St(0));
        }
        if let Some(i) = r
            .strip_prefix("st(")
            .and_then(|x| x.strip_suffix(')'))
            .and_then(|x| x.trim().parse::<u8>().ok())
        {
            return (i < 8).then_some(Opnd::St(i));
        }
        None
    }

    fn statement(
        &mut self,
        prefix: Option<&str>,
        mn: &str,
        ops_text: &str,
        line: &str,
    ) -> Result<(), AttError> {
        if mn.starts_with('.') {
            return Err(AttError(format!(
                "neverc cannot assemble the directive '{mn}' in inline asm yet"
            )));
        }
        let jump = mn == "jmp" || (mn.starts_with('j') && cond_by_name(&mn[1..]).is_some());
        let mut ops = Vec::new();
        // gas also writes the port register of in/out as `(%dx)`.
        let port = split_suffix(mn, &["in", "out"]).is_some();
        if !ops_text.is_empty() {
            for t in split_operands(ops_text) {
                let t = if port && t.trim() == "(%dx)" {
                    "%dx"
                } else {
                    &t
                };
                ops.push(self.operand(t, jump)?);
            }
        }
        // `lock` before anything but cmpxchg/xadd (which have locked forms of their own)
        // is the prefix instruction, allowed where the hardware allows it.
        if prefix == Some("lock") && split_suffix(mn, &["cmpxchg", "xadd"]).is_none() {
            let inst = self.instruction(None, mn, &ops);
            let lockable = match inst {
                Some(Inst::Alu {
                    op,
                    dst: Rm::Mem(_),
                    ..
                }) => op != AluOp::Cmp,
                Some(Inst::Unary {
                    op: UnOp::Not | UnOp::Neg | UnOp::Inc | UnOp::Dec,
                    dst: Rm::Mem(_),
                    ..
                }) => true,
                Some(Inst::Xchg {
                    dst: Rm::Mem(_), ..
                }) => true,
                _ => false,
            };
            if !lockable {
                return Err(AttError(format!(
                    "neverc cannot assemble 'lock {line}' in inline asm yet"
                )));
            }
            self.out.push(Inst::Plain { op: PlainOp::Lock });
            self.out.push(inst.unwrap());
            return Ok(());
        }
        let inst = self
            .instruction(prefix, mn, &ops)
            .ok_or_else(|| match known_mnemonic(mn) {
                true => AttError(format!(
                    "neverc cannot assemble '{line}' in inline asm yet (no form of '{mn}' takes these operands)"
                )),
                false => AttError(format!(
                    "neverc cannot assemble '{mn}' in inline asm yet"
                )),
            })?;
        self.out.push(inst);
        Ok(())
    }

    /// The instruction, or None when the encoder has no form for it.
    fn instruction(&mut self, prefix: Option<&str>, mn: &str, ops: &[Opnd]) -> Option<Inst> {
        use Opnd as O;
        // Prefixed forms first.
        match prefix {
            Some("lock") => {
                let (base, size) = split_suffix(mn, &["cmpxchg", "xadd"])?;
                let (src, dst) = match ops {
                    [O::Gpr(g, s), O::Mem(m)] => (*g, (*s, *m)),
                    _ => return None,
                };
                let size = agree(size, &[Some(dst.0)])?;
                return Some(match base {
                    "cmpxchg" => Inst::LockCmpxchg {
                        size,
                        src,
                        dst: dst.1,
                    },
                    _ => Inst::LockXadd {
                        size,
                        src,
                        dst: dst.1,
                    },
                });
            }
            Some(_) => {
                return match (mn, ops) {
                    ("movsb", []) if prefix == Some("rep") => Some(Inst::RepMovsb),
                    ("stosb", []) if prefix == Some("rep") => Some(Inst::RepStosb),
                    (_, []) if prefix == Some("rep") => port_string(
                        mn,
                        if self.prefix_alone {
                            RepPrefix::Alone
                        } else {
                            RepPrefix::Joined
                        },
                    ),
                    _ => None,
                };
            }
            None => {}
        }
        if let Some(i) = port_io(mn, ops) {
            return Some(i);
        }
        if ops.is_empty() {
            if let Some(i) = port_string(mn, RepPrefix::None) {
                return Some(i);
            }
        }
        // No operands.
        if ops.is_empty() {
            let i = match mn {
                "mfence" => Inst::Mfence,
                "ret" | "retq" => Inst::Ret,
                "leave" | "leaveq" => Inst::Leave,
                "ud2" => Inst::Ud2,
                "nop" => Inst::Nop,
                "cwtd" | "cwd" => Inst::SignExtendDx { size: Size::S16 },
                "cltd" | "cdq" => Inst::SignExtendDx { size: Size::S32 },
                "cqto" | "cqo" => Inst::SignExtendDx { size: Size::S64 },
                "cbtw" | "cbw" => Inst::SignExtendAx { size: Size::S16 },
                "cwtl" | "cwde" => Inst::SignExtendAx { size: Size::S32 },
                "cltq" | "cdqe" => Inst::SignExtendAx { size: Size::S64 },
                _ => {
                    if let Some(op) = X87Op::ALL.iter().find(|o| o.info().1 == mn) {
                        Inst::X87 { op: *op }
                    } else if let Some(op) = PlainOp::ALL
                        .iter()
                        .find(|o| o.info().1 == mn && **o != PlainOp::Lock)
                    {
                        Inst::Plain { op: *op }
                    } else {
                        return None;
                    }
                }
            };
            return Some(i);
        }
        // Jumps.
        if let [O::Ind(target)] = ops {
            return match mn {
                "jmp" | "jmpq" => Some(Inst::JmpInd { target: *target }),
                "call" | "callq" => Some(Inst::CallInd { target: *target }),
                _ => None,
            };
        }
        if let [O::Label(l)] = ops {
            if mn == "jmp" {
                return Some(Inst::Jmp { target: *l });
            }
            let c = cond_by_name(mn.strip_prefix('j')?)?;
            return Some(Inst::Jcc {
                cond: c,
                target: *l,
            });
        }
        if mn == "fnstsw" && ops == [O::Gpr(Gpr::RAX, Size::S16)] {
            return Some(Inst::X87 {
                op: X87Op::FnstswAx,
            });
        }
        // x87.
        if let Some(op) = X87MemOp::ALL.iter().find(|o| o.info().2 == mn) {
            return match ops {
                [O::Mem(m)] => Some(Inst::X87Mem { op: *op, mem: *m }),
                _ => None,
            };
        }
        if let Some(op) = X87RegOp::ALL.iter().find(|o| o.info().2 == mn) {
            let st = match ops {
                [O::St(i)] => *i,
                [O::St(0), O::St(i)] => *i,
                [O::St(i), O::St(0)]
                    if matches!(op, X87RegOp::Fucomi | X87RegOp::Fucomip | X87RegOp::Fcomip) =>
                {
                    *i
                }
                _ => return None,
            };
            return Some(Inst::X87Reg { op: *op, st });
        }
        // SSE.
        let xm = |o: &Opnd| match o {
            O::Xmm(x) => Some(XmmMem::Xmm(*x)),
            O::Mem(m) => Some(XmmMem::Mem(*m)),
            _ => None,
        };
        if let Some(op) = SseOp::ALL.iter().find(|o| o.info().2 == mn) {
            return match ops {
                [s, O::Xmm(d)] => Some(Inst::Sse {
                    op: *op,
                    src: xm(s)?,
                    dst: *d,
                }),
                _ => None,
            };
        }
        if let Some(op) = XmmMovOp::ALL.iter().find(|o| o.name() == mn) {
            if let [s, d] = ops {
                let (src, dst) = (xm(s)?, xm(d)?);
                if matches!((src, dst), (XmmMem::Mem(_), XmmMem::Mem(_))) {
                    return None;
                }
                return Some(Inst::XmmMov { op: *op, src, dst });
            }
            return None;
        }
        if mn == "movd" || mn == "movq" {
            let want = if mn == "movd" { Size::S32 } else { Size::S64 };
            match ops {
                [O::Gpr(g, s), O::Xmm(x)] if *s == want => {
                    return Some(Inst::MovGprToXmm {
                        size: want,
                        src: Rm::Reg(*g),
                        dst: *x,
                    })
                }
                [O::Mem(m), O::Xmm(x)] => {
                    return Some(Inst::MovGprToXmm {
                        size: want,
                        src: Rm::Mem(*m),
                        dst: *x,
                    })
                }
                [O::Xmm(x), O::Gpr(g, s)] if *s == want => {
                    return Some(Inst::MovXmmToGpr {
                        size: want,
                        src: *x,
                        dst: Rm::Reg(*g),
                    })
                }
                [O::Xmm(x), O::Mem(m)] => {
                    return Some(Inst::MovXmmToGpr {
                        size: want,
                        src: *x,
                        dst: Rm::Mem(*m),
                    })
                }
                [O::Xmm(_), O::Xmm(_)] => return None,
                _ if mn == "movd" => return None,
                _ => {}
            }
        }
        for (name, double) in [("cvtsi2ss", false), ("cvtsi2sd", true)] {
            if let Some((_, size)) = split_suffix(mn, &[name]) {
                let [s, O::Xmm(d)] = ops else { return None };
                let (src, rsize) = rm_of(s)?;
                let size = agree(size, &[rsize])?;
                if !matches!(size, Size::S32 | Size::S64) {
                    return None;
                }
                return Some(Inst::CvtSi2F {
                    double,
                    size,
                    src,
                    dst: *d,
                });
            }
        }
        for (name, double) in [("cvttss2si", false), ("cvttsd2si", true)] {
            if let Some((_, size)) = split_suffix(mn, &[name]) {
                let [s, O::Gpr(d, ds)] = ops else { return None };
                let size = agree(size, &[Some(*ds)])?;
                if !matches!(size, Size::S32 | Size::S64) {
                    return None;
                }
                return Some(Inst::CvtTF2Si {
                    double,
                    size,
                    src: xm(s)?,
                    dst: *d,
                });
            }
        }
        // setcc / cmovcc.
        if let Some(c) = mn.strip_prefix("set").and_then(cond_by_name) {
            let (dst, s) = rm_of(ops.first()?)?;
            return (ops.len() == 1 && agree(None, &[s, Some(Size::S8)]).is_some())
                .then_some(Inst::Setcc { cond: c, dst });
        }
        if let Some((c, suffix)) = mn.strip_prefix("cmov").and_then(cond_and_suffix) {
            let [s, O::Gpr(d, ds)] = ops else { return None };
            let (src, ss) = rm_of(s)?;
            let size = agree(suffix, &[ss, Some(*ds)])?;
            return (size != Size::S8).then_some(Inst::Cmov {
                cond: c,
                size,
                src,
                dst: *d,
            });
        }
        // movzx / movsx family: movzbl, movswq, movslq ...
        if let Some(i) = movx(mn, ops) {
            return Some(i);
        }
        // Integer instructions with gas's suffix rules.
        const BASES: &[&str] = &[
            "mov", "movabs", "lea", "xchg", "push", "pop", "add", "or", "adc", "sbb", "and", "sub",
            "xor", "cmp", "test", "imul", "not", "neg", "mul", "div", "idiv", "inc", "dec", "rol",
            "ror", "shl", "sal", "shr", "sar", "bswap", "bsf", "bsr", "popcnt", "lzcnt", "tzcnt",
        ];
        let (base, suffix) = split_suffix(mn, BASES)?;
        let reg_sizes: Vec<Option<Size>> = ops
            .iter()
            .map(|o| match o {
                O::Gpr(_, s) => Some(*s),
                _ => None,
            })
            .collect();
        let size = |extra: &[Option<Size>]| -> Option<Size> {
            let mut all = reg_sizes.clone();
            all.extend_from_slice(extra);
            agree(suffix, &all)
        };
        if let Some(op) = AluOp::ALL.iter().find(|o| o.name() == base) {
            let [s, d] = ops else { return None };
            let size = size(&[])?;
            let src = rmi_of(s)?;
            let (dst, _) = rm_of(d)?;
            check_two(&src, &dst, size)?;
            return Some(Inst::Alu {
                op: *op,
                size,
                src,
                dst,
            });
        }
        if let Some(op) = UnOp::ALL.iter().find(|o| o.name() == base) {
            if let [d] = ops {
                let (dst, _) = rm_of(d)?;
                return Some(Inst::Unary {
                    op: *op,
                    size: size(&[])?,
                    dst,
                });
            }
            if base != "imul" {
                return None;
            }
        }
        let shift = match base {
            "rol" => Some(ShiftOp::Rol),
            "ror" => Some(ShiftOp::Ror),
            "shl" | "sal" => Some(ShiftOp::Shl),
            "shr" => Some(ShiftOp::Shr),
            "sar" => Some(ShiftOp::Sar),
            _ => None,
        };
        if let Some(op) = shift {
            let (amount, d) = match ops {
                [d] => (Some(1), d),
                [O::Imm(n), d] if (0..=255).contains(n) => (Some(*n as u8), d),
                [O::Gpr(Gpr::RCX, Size::S8), d] => (None, d),
                _ => return None,
            };
            let (dst, ds) = rm_of(d)?;
            return Some(Inst::Shift {
                op,
                size: agree(suffix, &[ds])?,
                amount,
                dst,
            });
        }
        if let Some(op) = BitOp::ALL.iter().find(|o| o.name() == base) {
            let [s, O::Gpr(d, _)] = ops else { return None };
            let (src, _) = rm_of(s)?;
            let size = size(&[])?;
            return (size != Size::S8).then_some(Inst::BitCount {
                op: *op,
                size,
                src,
                dst: *d,
            });
        }
        match base {
            "mov" | "movabs" => {
                let [s, d] = ops else { return None };
                let size = size(&[])?;
                let src = rmi_of(s)?;
                let (dst, _) = rm_of(d)?;
                if let Rmi::Imm(v) = src {
                    let fits = match (size, dst) {
                        (Size::S64, Rm::Reg(_)) => true,
                        (Size::S64, Rm::Mem(_)) => v == v as i32 as i64,
                        _ => fits_size(v, size),
                    };
                    if !fits {
                        return None;
                    }
                } else if matches!((src, dst), (Rmi::Mem(_), Rm::Mem(_))) {
                    return None;
                }
                Some(Inst::Mov { size, src, dst })
            }
            "lea" => {
                let [O::Mem(m), O::Gpr(d, _)] = ops else {
                    return None;
                };
                let size = size(&[])?;
                (size != Size::S8).then_some(Inst::Lea {
                    size,
                    src: *m,
                    dst: *d,
                })
            }
            "xchg" => {
                let size = size(&[])?;
                match ops {
                    [O::Gpr(s, _), d] | [d, O::Gpr(s, _)] => Some(Inst::Xchg {
                        size,
                        src: *s,
                        dst: rm_of(d)?.0,
                    }),
                    _ => None,
                }
            }
            "test" => {
                let [s, d] = ops else { return None };
                let size = size(&[])?;
                let (src, dst) = match (s, d) {
                    // `test mem, reg` is `test reg, mem`.
                    (O::Mem(m), O::Gpr(g, _)) => (Rmi::Reg(*g), Rm::Mem(*m)),
                    (O::Imm(_) | O::Gpr(..), _) => (rmi_of(s)?, rm_of(d)?.0),
                    _ => return None,
                };
                check_two(&src, &dst, size)?;
                Some(Inst::Test { size, src, dst })
            }
            "push" | "pop" => {
                let [O::Gpr(g, Size::S64)] = ops else {
                    return None;
                };
                if suffix.is_some_and(|s| s != Size::S64) {
                    return None;
                }
                Some(if base == "push" {
                    Inst::Push { src: *g }
                } else {
                    Inst::Pop { dst: *g }
                })
            }
            "imul" => match ops {
                [s, O::Gpr(d, _)] => {
                    let size = size(&[])?;
                    (size != Size::S8).then_some(Inst::Imul2 {
                        size,
                        src: rm_of(s)?.0,
                        dst: *d,
                    })
                }
                [O::Imm(k), s, O::Gpr(d, _)] => {
                    let size = size(&[])?;
                    (size != Size::S8 && *k == *k as i32 as i64 && fits_size(*k, size)).then_some(
                        Inst::Imul3 {
                            size,
                            imm: *k as i32,
                            src: rm_of(s)?.0,
                            dst: *d,
                        },
                    )
                }
                _ => None,
            },
            "bswap" => {
                let [O::Gpr(g, _)] = ops else { return None };
                let size = size(&[])?;
                matches!(size, Size::S32 | Size::S64).then_some(Inst::Bswap { size, reg: *g })
            }
            _ => None,
        }
    }
}

/// Splits `add` + `l` for a known base; an exact base name comes first (`sub` is not `su`).
fn split_suffix<'m>(mn: &'m str, bases: &[&'static str]) -> Option<(&'m str, Option<Size>)> {
    if bases.contains(&mn) {
        return Some((mn, None));
    }
    let (b, s) = mn.split_at(mn.len().checked_sub(1)?);
    if bases.contains(&b) {
        return Some((b, Some(size_of_suffix(s.chars().next()?)?)));
    }
    None
}

/// `ins`/`outs` with a size suffix (gas's operand-free spelling).
fn port_string(mn: &str, rep: RepPrefix) -> Option<Inst> {
    let (base, size) = split_suffix(mn, &["ins", "outs"])?;
    let size = size.filter(|&s| s != Size::S64)?;
    Some(Inst::PortString {
        out: base == "outs",
        size,
        rep,
    })
}

/// `in`/`out` in gas's spellings: `inb %dx, %al`, `in $0x80, %al`, `outw %ax, %dx`, and
/// the one-operand `inb %dx`, `outl $0x80` (the accumulator implied by the suffix). The
/// registers may be operand placeholders (the encoder checks they became dx and al/ax/eax).
fn port_io(mn: &str, ops: &[Opnd]) -> Option<Inst> {
    let (base, suffix) = split_suffix(mn, &["in", "out"])?;
    let out = base == "out";
    let placeholder = |g: Gpr| g.0 & OPERAND_REG != 0;
    let port_of = |o: &Opnd| match *o {
        Opnd::Gpr(g, Size::S16) if g == Gpr::RDX || placeholder(g) => Some(Port::Dx(g)),
        Opnd::Imm(n) => u8::try_from(n).ok().map(Port::Imm),
        _ => None,
    };
    let acc_of = |o: &Opnd| match *o {
        Opnd::Gpr(g, s) if g == Gpr::RAX || placeholder(g) => Some((g, s)),
        _ => None,
    };
    let (port, acc, size) = match (ops, out) {
        ([p], _) => (port_of(p)?, Gpr::RAX, suffix?),
        ([p, a], false) | ([a, p], true) => {
            let (acc, s) = acc_of(a)?;
            (port_of(p)?, acc, agree(suffix, &[Some(s)])?)
        }
        _ => return None,
    };
    (size != Size::S64).then_some(Inst::PortIo {
        out,
        size,
        acc,
        port,
    })
}

/// The operation size: the suffix and every register operand agree.
fn agree(suffix: Option<Size>, regs: &[Option<Size>]) -> Option<Size> {
    let mut size = suffix;
    for s in regs.iter().flatten() {
        match size {
            None => size = Some(*s),
            Some(x) if x == *s => {}
            Some(_) => return None,
        }
    }
    size
}

fn fits_size(v: i64, size: Size) -> bool {
    match size {
        Size::S8 => (-128..=255).contains(&v),
        Size::S16 => (-32768..=65535).contains(&v),
        Size::S32 => (-(1i64 << 31)..(1i64 << 32)).contains(&v),
        Size::S64 => v == v as i32 as i64,
    }
}

fn rm_of(o: &Opnd) -> Option<(Rm, Option<Size>)> {
    match o {
        Opnd::Gpr(g, s) => Some((Rm::Reg(*g), Some(*s))),
        Opnd::Mem(m) => Some((Rm::Mem(*m), None)),
        _ => None,
    }
}

fn rmi_of(o: &Opnd) -> Option<Rmi> {
    match o {
        Opnd::Gpr(g, _) => Some(Rmi::Reg(*g)),
        Opnd::Mem(m) => Some(Rmi::Mem(*m)),
        Opnd::Imm(v) => Some(Rmi::Imm(*v)),
        _ => None,
    }
}

/// Two-operand forms: not memory to memory, and an immediate that fits.
fn check_two(src: &Rmi, dst: &Rm, size: Size) -> Option<()> {
    match (src, dst) {
        (Rmi::Mem(_), Rm::Mem(_)) => None,
        (Rmi::Imm(v), _) if !fits_size(*v, size) => None,
        _ => Some(()),
    }
}

/// movzbl, movsbw, movzwq, movslq, ... and the Intel-style movzx/movsx with sizes from the
/// registers.
fn movx(mn: &str, ops: &[Opnd]) -> Option<Inst> {
    let (signed, rest) = if let Some(r) = mn.strip_prefix("movz") {
        (false, r)
    } else if let Some(r) = mn.strip_prefix("movs") {
        (true, r)
    } else {
        return None;
    };
    let [s, Opnd::Gpr(d, ds)] = ops else {
        return None;
    };
    let (src, ss) = rm_of(s)?;
    let (from, to) = match rest {
        "x" | "xd" => (ss?, *ds),
        _ if rest.len() == 2 => {
            let mut c = rest.chars();
            (size_of_suffix(c.next()?)?, size_of_suffix(c.next()?)?)
        }
        _ => return None,
    };
    if ss.is_some_and(|x| x != from) || to != *ds || from.bytes() >= to.bytes() {
        return None;
    }
    if from == Size::S32 && (!signed || to != Size::S64) {
        return None;
    }
    Some(Inst::MovX {
        signed,
        from,
        to,
        src,
        dst: *d,
    })
}

/// Splits operands at top-level commas (not inside parentheses).
fn split_operands(s: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                v.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    v.push(cur.trim().to_string());
    v
}

/// Mnemonics the parser knows in some form (to tell "no such form" from "unknown").
fn known_mnemonic(mn: &str) -> bool {
    const KNOWN: &[&str] = &[
        "mov", "movabs", "lea", "xchg", "push", "pop", "add", "or", "adc", "sbb", "and", "sub",
        "xor", "cmp", "test", "imul", "not", "neg", "mul", "div", "idiv", "inc", "dec", "rol",
        "ror", "shl", "sal", "shr", "sar", "bswap", "bsf", "bsr", "popcnt", "lzcnt", "tzcnt",
        "cmpxchg", "xadd", "movd", "movq", "jmp", "call", "movsb", "stosb", "in", "out", "ins",
        "outs",
    ];
    KNOWN.contains(&mn)
        || split_suffix(mn, KNOWN).is_some()
        || mn.starts_with("set") && cond_by_name(&mn[3..]).is_some()
        || mn.starts_with("cmov") && cond_and_suffix(&mn[4..]).is_some()
        || mn.starts_with('j') && cond_by_name(&mn[1..]).is_some()
        || SseOp::ALL.iter().any(|o| o.info().2 == mn)
        || XmmMovOp::ALL.iter().any(|o| o.name() == mn)
        || X87MemOp::ALL.iter().any(|o| o.info().2 == mn)
        || X87RegOp::ALL.iter().any(|o| o.info().2 == mn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::{assemble, encode, forms, print, Sink};

    fn bytes_of(insts: &[Inst]) -> Vec<u8> {
        let mut s = Sink::default();
        for i in insts {
            encode(i, &mut s).unwrap_or_else(|e| panic!("{e}"));
        }
        s.bytes
    }

    fn parse_plain(text: &str) -> Result<Vec<Inst>, AttError> {
        let mut n = 100;
        parse_with_operands(text, 4, &mut || {
            n += 1;
            Label(n)
        })
    }

    fn hex(text: &str) -> String {
        let insts = parse_plain(text).unwrap_or_else(|e| panic!("{text}: {}", e.0));
        let a = assemble(&insts).unwrap();
        a.bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn refs_symbol_or_label(i: &Inst) -> bool {
        let mut found = false;
        let mut c = *i;
        c.visit_operands(&mut |_| {}, &mut |_| {}, &mut |m| {
            found |= m.sym.is_some() || m.rip || m.label.is_some()
        });
        found
            || matches!(
                i,
                Inst::Label(_)
                    | Inst::Align(_)
                    | Inst::JumpTableEntry { .. }
                    | Inst::MovSymImm { .. }
                    | Inst::CallSym { .. }
                    | Inst::Jmp { .. }
                    | Inst::Jcc { .. }
                    // A prefix alone is no statement (it goes with the next one).
                    | Inst::Plain {
                        op: PlainOp::Lock
                    }
            )
    }

    /// Every form the encoder has (but those naming symbols or labels) printed by the
    /// printer, read back by the parser: the same bytes. With the referee (printer text
    /// against GNU as and llvm-mc) this checks the parser against both assemblers.
    #[test]
    fn every_encoder_form_reads_back_to_its_bytes() {
        let names = |s| forms::sym_name(s);
        let labels = |l| forms::label_name(l);
        let mut checked = 0;
        let mut failures = Vec::new();
        for f in forms::all_forms() {
            if refs_symbol_or_label(&f) {
                continue;
            }
            let text = print(&f, &names, &labels);
            match parse_plain(&text) {
                Ok(got) => {
                    if bytes_of(&got) != bytes_of(&[f]) {
                        failures.push(format!("{text}: {got:?}"));
                    }
                }
                Err(e) => failures.push(format!("{text}: {}", e.0)),
            }
            checked += 1;
        }
        assert!(checked > 3000, "only {checked} forms");
        assert!(
            failures.is_empty(),
            "{} of {checked}:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn suffixes_from_registers_and_explicit() {
        assert_eq!(hex("add %eax, %ebx"), "01 c3");
        assert_eq!(hex("addl %eax, %ebx"), "01 c3");
        assert_eq!(hex("addq $1, %rax"), "48 83 c0 01");
        assert_eq!(hex("movb %al, (%rdi)"), "88 07");
        assert_eq!(hex("movw $-1, 8(%rsp)"), "66 c7 44 24 08 ff ff");
        assert_eq!(hex("imul $10, %ecx, %edx"), "6b d1 0a");
        assert_eq!(hex("shl %cl, %r8"), "49 d3 e0");
        assert_eq!(hex("sarl (%rax)"), "d1 38");
        assert_eq!(hex("movzbl %al, %eax"), "0f b6 c0");
        assert_eq!(hex("movzx %r9w, %rax"), "49 0f b7 c1");
        assert_eq!(hex("movslq %edi, %rax"), "48 63 c7");
        assert_eq!(hex("cmovl %esi, %eax"), "0f 4c c6");
        assert_eq!(hex("setnz %cl"), "0f 95 c1");
        assert_eq!(hex("bswap %rdx"), "48 0f ca");
        assert_eq!(hex("xchg %eax, (%rdx)"), "87 02");
        assert_eq!(hex("movq %fs:0, %rax"), "64 48 8b 04 25 00 00 00 00");
        assert_eq!(hex("leaq -8(%rbp,%rcx,4), %rsi"), "48 8d 74 8d f8");
        assert_eq!(hex("sqrtsd %xmm1, %xmm0"), "f2 0f 51 c1");
        assert_eq!(hex("movq %xmm0, %rax"), "66 48 0f 7e c0");
        assert_eq!(hex("cvtsi2sdl %eax, %xmm2"), "f2 0f 2a d0");
    }

    #[test]
    fn prefixes_statements_and_labels() {
        assert_eq!(hex("lock; cmpxchgl %ecx, (%rdi)"), "f0 0f b1 0f");
        assert_eq!(hex("lock cmpxchgq %rcx, (%rdi)"), "f0 48 0f b1 0f");
        assert_eq!(hex("lock; addl $1, (%rax)"), "f0 83 00 01");
        assert_eq!(hex("lock\n\tincq 8(%rbx)"), "f0 48 ff 43 08");
        assert_eq!(hex("rep movsb"), "f3 a4");
        assert_eq!(hex("rep; stosb"), "f3 aa");
        assert_eq!(hex("cpuid ; rdtsc # comment"), "0f a2 0f 31");
        assert_eq!(
            hex("pause\n lfence\n sfence\n mfence"),
            "f3 90 0f ae e8 0f ae f8 0f ae f0"
        );
        assert_eq!(hex("fpatan\n\tfsqrt"), "d9 f3 d9 fa");
        // Local labels: backward and forward, short jumps.
        assert_eq!(hex("1: decl %eax\n jnz 1b"), "ff c8 75 fc");
        assert_eq!(hex("jmp 1f\n nop\n1:"), "eb 01 90");
        assert_eq!(
            hex("loop: incl %ecx; cmpl $3, %ecx; jne loop"),
            "ff c1 83 f9 03 75 f9"
        );
    }

    #[test]
    fn port_io_in_gas_spellings() {
        // Bytes as GNU as gives them.
        assert_eq!(hex("inb %dx, %al"), "ec");
        assert_eq!(hex("inw %dx, %ax"), "66 ed");
        assert_eq!(hex("inl %dx, %eax"), "ed");
        assert_eq!(hex("inb $0x80, %al"), "e4 80");
        assert_eq!(hex("inw $0x80, %ax"), "66 e5 80");
        assert_eq!(hex("inl $255, %eax"), "e5 ff");
        assert_eq!(hex("outb %al, %dx"), "ee");
        assert_eq!(hex("outw %ax, %dx"), "66 ef");
        assert_eq!(hex("outl %eax, %dx"), "ef");
        assert_eq!(hex("outb %al, $0x80"), "e6 80");
        assert_eq!(hex("outw %ax, $0x80"), "66 e7 80");
        assert_eq!(hex("outl %eax, $0x80"), "e7 80");
        // The one-operand shorthand, the size from the registers, `(%dx)`.
        assert_eq!(hex("inb %dx"), "ec");
        assert_eq!(hex("inw %dx"), "66 ed");
        assert_eq!(hex("outl %dx"), "ef");
        assert_eq!(hex("inb $0x80"), "e4 80");
        assert_eq!(hex("outb $0x80"), "e6 80");
        assert_eq!(hex("in %dx, %al"), "ec");
        assert_eq!(hex("in $1, %eax"), "e5 01");
        assert_eq!(hex("out %ax, %dx"), "66 ef");
        assert_eq!(hex("in (%dx), %al"), "ec");
        assert_eq!(hex("out %al, (%dx)"), "ee");
        // String forms, alone, with `rep` joined (F3 after 66) and `rep` alone (before).
        assert_eq!(hex("insb\n insw\n insl"), "6c 66 6d 6d");
        assert_eq!(hex("outsb; outsw; outsl"), "6e 66 6f 6f");
        assert_eq!(hex("rep insb"), "f3 6c");
        assert_eq!(hex("rep insw"), "66 f3 6d");
        assert_eq!(hex("rep outsl"), "f3 6f");
        assert_eq!(hex("rep; outsw"), "f3 66 6f");
        assert_eq!(hex("cld ; rep ; insw"), "fc f3 66 6d");
    }

    #[test]
    fn port_io_refusals() {
        for bad in [
            "inb %dx, %bl",
            "inb %cx, %al",
            "inl %dx, %al",
            "inq %dx, %rax",
            "inb $256, %al",
            "outb %dx, %al",
            "in %dx",
            "insq",
        ] {
            let mn = bad.split(' ').next().unwrap();
            assert_eq!(
                parse_plain(bad).unwrap_err().0,
                format!(
                    "neverc cannot assemble '{bad}' in inline asm yet (no form of '{mn}' takes these operands)"
                ),
            );
        }
        assert_eq!(
            parse_plain("repe insb").unwrap_err().0,
            "neverc cannot assemble 'insb' in inline asm yet (no form of 'insb' takes these operands)"
        );
    }

    #[test]
    fn placeholders_name_operands() {
        let got = parse_plain("addl %?1l, %?0l").unwrap();
        assert_eq!(
            got,
            vec![Inst::Alu {
                op: AluOp::Add,
                size: Size::S32,
                src: Rmi::Reg(Gpr(OPERAND_REG | 1)),
                dst: Rm::Reg(Gpr(OPERAND_REG)),
            }]
        );
        let got = parse_plain("movq (%?2q), %?3x").unwrap();
        assert_eq!(
            got,
            vec![Inst::MovGprToXmm {
                size: Size::S64,
                src: Rm::Mem(Mem::base(Gpr(OPERAND_REG | 2), 0)),
                dst: Xmm(OPERAND_REG | 3),
            }]
        );
    }

    fn err(text: &str) -> String {
        parse_plain(text).unwrap_err().0
    }

    #[test]
    fn refusals_name_what_they_refuse() {
        assert_eq!(
            err("xyz %eax"),
            "neverc cannot assemble 'xyz' in inline asm yet"
        );
        assert_eq!(
            err(".byte 0x90"),
            "neverc cannot assemble the directive '.byte' in inline asm yet"
        );
        assert_eq!(
            err("addl %eax, %rbx"),
            "neverc cannot assemble 'addl %eax, %rbx' in inline asm yet (no form of 'addl' takes these operands)"
        );
        assert_eq!(
            err("movl (%rax), (%rbx)"),
            "neverc cannot assemble 'movl (%rax), (%rbx)' in inline asm yet (no form of 'movl' takes these operands)"
        );
        assert_eq!(
            err("add $1, (%rax)"),
            "neverc cannot assemble 'add $1, (%rax)' in inline asm yet (no form of 'add' takes these operands)"
        );
        assert_eq!(
            err("cmpxchgl %ecx, (%rdi)"),
            "neverc cannot assemble 'cmpxchgl %ecx, (%rdi)' in inline asm yet (no form of 'cmpxchgl' takes these operands)"
        );
        assert_eq!(
            err("lock; addl %eax, %ebx"),
            "neverc cannot assemble 'lock addl %eax, %ebx' in inline asm yet"
        );
        assert_eq!(
            err("movl $sym, %eax"),
            "neverc cannot assemble '$sym' in inline asm yet"
        );
        assert_eq!(
            err("jne 2b"),
            "inline asm refers to label '2b', which is not defined before it"
        );
        assert_eq!(
            err("jne 2f"),
            "inline asm refers to label '2f', which it does not define"
        );
        assert_eq!(
            err("jne .Lout\n.Lin: nop"),
            "inline asm refers to label '.Lout', which it does not define"
        );
        assert_eq!(
            err("movl (%eax), %ebx"),
            "neverc cannot assemble '(%eax)' in inline asm yet"
        );
    }
}

#[cfg(test)]
mod high_byte_tests {
    use super::*;
    use crate::asm::{encode, Sink};

    fn hex(text: &str) -> Result<String, String> {
        let mut n = 0;
        let insts = parse(text, &mut || {
            n += 1;
            Label(n)
        })
        .map_err(|e| e.0)?;
        let mut s = Sink::default();
        for i in &insts {
            encode(i, &mut s).map_err(|e| e.message)?;
        }
        Ok(s.bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" "))
    }

    #[test]
    fn high_byte_registers_encode_without_rex() {
        assert_eq!(hex("movb %ah, %al").unwrap(), "88 e0");
        assert_eq!(hex("movzbl %bh, %ecx").unwrap(), "0f b6 cf");
        assert_eq!(hex("movb $5, %dh").unwrap(), "b6 05");
        assert_eq!(hex("xorb %ch, %ah").unwrap(), "30 ec");
        // REX (sil, r8b, r9) cannot go with them: an error, never %spl.
        assert!(hex("movb %ah, %sil")
            .unwrap_err()
            .contains("needs a REX prefix"));
        assert!(hex("movb %ah, (%r9)")
            .unwrap_err()
            .contains("needs a REX prefix"));
    }
}
