//! What every back end's inline asm lowering shares: reading the template, and checking
//! that the operands can have registers at all.
//!
//! The template of an extended inline asm statement is read the way gcc reads it: `%%` is a
//! `%`, `%=` a number unique to the statement, `%N` and `%[name]` an operand, either of
//! them with a modifier letter before it (`%w0`, `%k[x]`). Where the target has assembler
//! dialects (x86: `{att|intel}`), the first alternative is kept and `%{ %| %}` are the
//! braces and bar themselves. What an operand and modifier look like in the assembler text
//! is each back end's business; the scanning and its diagnostics are the same for all.
//!
//! The substituted operands are written as placeholders, `%?N` followed by a letter, that
//! the back end's assembler parser reads as regalloc operand `N` (the letter is the
//! register's width or view); [`user_spelling`] turns them back into what the template's
//! author wrote, for messages.

use neverc_ir::InlineAsm;
use regalloc2::{Operand, OperandKind, OperandPos, PReg, PRegSet, RegClass};

/// One piece of a template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'t> {
    /// Text copied as it is.
    Text(&'t str),
    /// `%=`.
    UniqueNumber,
    /// `%N` or `%[name]`, with the modifier letter in front of it, if any.
    Operand {
        index: usize,
        modifier: Option<char>,
    },
}

/// Whether the target's templates hold assembler-dialect alternatives `{a|b}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialects {
    /// `{`, `|` and `}` are text (AArch64).
    None,
    /// `{att|intel}`: the first alternative is kept (x86).
    Alternatives,
}

/// The pieces of `asm`'s template, in order; an `Err` (a gcc-worded message, without the
/// function's name) ends them.
pub struct Pieces<'t> {
    asm: &'t InlineAsm,
    t: &'t str,
    /// Byte offset of the next character.
    i: usize,
    dialects: Dialects,
    in_alt: bool,
    skipping: bool,
    failed: bool,
}

/// The pieces of `asm`'s template.
pub fn pieces(asm: &InlineAsm, dialects: Dialects) -> Pieces<'_> {
    Pieces {
        asm,
        t: &asm.template,
        i: 0,
        dialects,
        in_alt: false,
        skipping: false,
        failed: false,
    }
}

impl<'t> Pieces<'t> {
    fn peek(&self) -> Option<char> {
        self.t[self.i..].chars().next()
    }

    /// The operand reference after a `%` (and its modifier letter, if any).
    fn operand(&mut self) -> Result<Piece<'t>, String> {
        let mut modifier = None;
        if let Some(m) = self.peek().filter(|c| c.is_ascii_alphabetic()) {
            modifier = Some(m);
            self.i += 1;
        }
        let visible = &self.asm.operands[..self.asm.visible];
        let index = if self.peek() == Some('[') {
            let Some(close) = self.t[self.i..].find(']').map(|p| p + self.i) else {
                return Err("invalid 'asm': missing ']' after '%['".into());
            };
            let name = &self.t[self.i + 1..close];
            self.i = close + 1;
            visible
                .iter()
                .position(|o| o.name.as_deref() == Some(name))
                .ok_or_else(|| format!("undefined named operand '{name}'"))?
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let mut k = 0usize;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
                k = k.saturating_mul(10).saturating_add(d as usize);
                self.i += 1;
            }
            if k >= visible.len() {
                return Err("invalid 'asm': operand number out of range".into());
            }
            k
        } else {
            return Err(format!(
                "invalid 'asm': operand number missing after %-letter{}",
                modifier.map(|m| format!(" '%{m}'")).unwrap_or_default()
            ));
        };
        Ok(Piece::Operand { index, modifier })
    }
}

impl<'t> Iterator for Pieces<'t> {
    type Item = Result<Piece<'t>, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let alternatives = self.dialects == Dialects::Alternatives;
        loop {
            let start = self.i;
            let c = self.peek()?;
            self.i += c.len_utf8();
            if alternatives {
                match c {
                    '{' => {
                        self.in_alt = true;
                        continue;
                    }
                    '|' if self.in_alt => {
                        self.skipping = true;
                        continue;
                    }
                    '}' if self.in_alt => {
                        self.in_alt = false;
                        self.skipping = false;
                        continue;
                    }
                    _ => {}
                }
                if self.skipping {
                    continue;
                }
            }
            if c != '%' {
                // A run of plain text, up to the next character with a meaning.
                let special = |c: char| c == '%' || (alternatives && "{|}".contains(c));
                let end = self.t[self.i..]
                    .find(special)
                    .map_or(self.t.len(), |p| p + self.i);
                self.i = end;
                return Some(Ok(Piece::Text(&self.t[start..end])));
            }
            let Some(n) = self.peek() else {
                self.failed = true;
                return Some(Err("invalid 'asm': '%' at the end of the template".into()));
            };
            let escaped = n == '%' || (alternatives && "{|}".contains(n));
            if escaped {
                self.i += 1;
                return Some(Ok(Piece::Text(&self.t[start + 1..self.i])));
            }
            if n == '=' {
                self.i += 1;
                return Some(Ok(Piece::UniqueNumber));
            }
            let r = self.operand();
            self.failed = r.is_err();
            return Some(r);
        }
    }
}

/// The template with its pieces replaced: `%=` by `unique`, an operand by what
/// `operand_text(index, modifier)` spells it as. A template error becomes an `E` through
/// `template_error`.
pub fn substitute<E>(
    asm: &InlineAsm,
    dialects: Dialects,
    unique: u32,
    mut operand_text: impl FnMut(usize, Option<char>) -> Result<String, E>,
    template_error: impl Fn(String) -> E,
) -> Result<String, E> {
    let mut out = String::new();
    for p in pieces(asm, dialects) {
        match p.map_err(&template_error)? {
            Piece::Text(s) => out.push_str(s),
            Piece::UniqueNumber => out.push_str(&unique.to_string()),
            Piece::Operand { index, modifier } => {
                out.push_str(&operand_text(index, modifier)?);
            }
        }
    }
    Ok(out)
}

/// `msg` with the placeholder registers (`%?3l`) spelled as the template could have named
/// them: `spell(regalloc operand, letter)` gives that (`%k1`), or `None` for a placeholder
/// that stands for no operand of the template, which is left as it is.
pub fn user_spelling(msg: &str, spell: impl Fn(usize, char) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = msg;
    while let Some(p) = rest.find("%?") {
        out.push_str(&rest[..p]);
        let tail = &rest[p + 2..];
        let digits = tail.bytes().take_while(|b| b.is_ascii_digit()).count();
        let letter = tail[digits..].chars().next();
        let spelled = match (tail[..digits].parse::<usize>(), letter) {
            (Ok(idx), Some(c)) => spell(idx, c).map(|s| (s, c)),
            _ => None,
        };
        match spelled {
            Some((s, c)) => {
                out.push_str(&s);
                rest = &tail[digits + c.len_utf8()..];
            }
            None => {
                out.push_str("%?");
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether regalloc2 can give the operands `ops` of one instruction registers, with
/// `clobbers` taken: in each class of `allocatable` (the class and its allocatable
/// registers), the values live at once (uses and early defs before, early defs, late
/// defs and late uses after) and the clobbered registers must not outnumber the registers.
pub fn registers_suffice(
    ops: &[Operand],
    clobbers: &PRegSet,
    allocatable: &[(RegClass, Vec<PReg>)],
) -> bool {
    allocatable.iter().all(|(class, avail)| {
        let n = |kind: OperandKind, pos: OperandPos| {
            ops.iter()
                .filter(|o| o.class() == *class && o.kind() == kind && o.pos() == pos)
                .count()
        };
        let early_uses = n(OperandKind::Use, OperandPos::Early);
        let late_uses = n(OperandKind::Use, OperandPos::Late);
        let early_defs = n(OperandKind::Def, OperandPos::Early);
        let late_defs = n(OperandKind::Def, OperandPos::Late);
        let clobbered = avail.iter().filter(|p| clobbers.contains(**p)).count();
        let need = (early_uses + late_uses + early_defs).max(late_defs + early_defs + late_uses)
            + clobbered;
        need <= avail.len()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use neverc_ir::{AsmOperand, AsmRole, Value};

    fn asm(template: &str, names: &[Option<&str>]) -> InlineAsm {
        InlineAsm {
            template: template.into(),
            operands: names
                .iter()
                .map(|n| AsmOperand {
                    constraint: "r".into(),
                    name: n.map(Into::into),
                    role: AsmRole::Input(Value(0)),
                })
                .collect(),
            visible: names.len(),
            results: vec![],
            clobbers: vec![],
            basic: false,
        }
    }

    fn expand(template: &str, names: &[Option<&str>], d: Dialects) -> Result<String, String> {
        substitute(
            &asm(template, names),
            d,
            7,
            |i, m| Ok(format!("<{i}{}>", m.map(String::from).unwrap_or_default())),
            |e| e,
        )
    }

    #[test]
    fn operands_modifiers_and_escapes() {
        let names = [None, Some("x")];
        assert_eq!(
            expand("mov %1, %w0 %% %= %k[x]%0", &names, Dialects::None).unwrap(),
            "mov <1>, <0w> % 7 <1k><0>"
        );
        // Without dialects, braces and bars are text; `%{` is a missing operand number.
        assert_eq!(
            expand("{a|b} %0", &names, Dialects::None).unwrap(),
            "{a|b} <0>"
        );
        assert_eq!(
            expand("%{", &names, Dialects::None).unwrap_err(),
            "invalid 'asm': operand number missing after %-letter"
        );
    }

    #[test]
    fn dialect_alternatives_keep_the_first() {
        let names = [None];
        assert_eq!(
            expand(
                "{movl %0, %%eax|mov eax, %0} %{%|%} x",
                &names,
                Dialects::Alternatives
            )
            .unwrap(),
            "movl <0>, %eax {|} x"
        );
        // Inside the skipped alternative, a '%' is skipped on its own.
        assert_eq!(
            expand("{a|%}b}c", &names, Dialects::Alternatives).unwrap(),
            "ab}c"
        );
    }

    #[test]
    fn template_errors_are_gccs_words() {
        let names = [None, Some("x")];
        let e = |t| expand(t, &names, Dialects::None).unwrap_err();
        assert_eq!(e("mov %"), "invalid 'asm': '%' at the end of the template");
        assert_eq!(e("%[x"), "invalid 'asm': missing ']' after '%['");
        assert_eq!(e("%[y]"), "undefined named operand 'y'");
        assert_eq!(e("%2"), "invalid 'asm': operand number out of range");
        assert_eq!(
            e("%99999999999999999999999"),
            "invalid 'asm': operand number out of range"
        );
        assert_eq!(
            e("%w"),
            "invalid 'asm': operand number missing after %-letter '%w'"
        );
        // The pieces end at the first error.
        let a = asm("%0 %5 %1", &names);
        let got: Vec<_> = pieces(&a, Dialects::None).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0],
            Ok(Piece::Operand {
                index: 0,
                modifier: None
            })
        );
        assert_eq!(got[1], Ok(Piece::Text(" ")));
        assert!(got[2].is_err());
    }

    #[test]
    fn placeholders_back_to_the_templates_spelling() {
        let spell = |idx: usize, c: char| (idx == 3).then(|| format!("%{c}1"));
        assert_eq!(
            user_spelling("bad %?3w and %?4x, %?, %?3", spell),
            "bad %w1 and %?4x, %?, %?3"
        );
    }
}
