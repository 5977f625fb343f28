//! The spec language of custom calling conventions: one short string such as
//! `gpr:r10,r11,rsi;ret:rdx` that names registers for arguments and results.
//!
//! A spec is a list of segments separated by `;`, each `key:token,token,...`. Keys and
//! tokens are case-insensitive, and blanks around any of them are ignored. The keys are
//! defined once, in [`SEGMENT_KEYS`]: the parser, the canonical printer and every producer
//! of specs (the policy options, the shuffle layouts) use that table, so they cannot drift
//! apart.
//!
//! Parsing knows no target: tokens stay names here, and are resolved against a target's
//! register schema when the spec is materialised into a plan (see [`super::materialise`]).

use std::fmt;

/// What a segment says. Several keys may name one segment (`gpr` and `arg_gpr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// Positional mode: token `i` is argument `i`'s register, or `stack`/`mem`.
    Args,
    /// Pool mode: integer and pointer argument registers, taken in order.
    ArgGpr,
    /// Pool mode: floating-point and vector argument registers, taken in order.
    ArgXmm,
    /// Integer and pointer result registers.
    RetGpr,
    /// Floating-point and vector result registers.
    RetXmm,
    /// The callee-saved registers (replacing the standard set).
    Csr,
}

/// Every key the parser accepts and the segment it names. The first key listed for a
/// segment is its canonical spelling (the one [`Spec`]'s `Display` prints).
pub const SEGMENT_KEYS: &[(&str, Segment)] = &[
    ("args", Segment::Args),
    ("gpr", Segment::ArgGpr),
    ("arg_gpr", Segment::ArgGpr),
    ("xmm", Segment::ArgXmm),
    ("arg_xmm", Segment::ArgXmm),
    ("fpr", Segment::ArgXmm),
    ("ret", Segment::RetGpr),
    ("ret_gpr", Segment::RetGpr),
    ("ret_xmm", Segment::RetXmm),
    ("ret_fpr", Segment::RetXmm),
    ("csr", Segment::Csr),
];

/// The order segments are printed in canonical text.
const CANONICAL_ORDER: [Segment; 6] = [
    Segment::Args,
    Segment::ArgGpr,
    Segment::ArgXmm,
    Segment::RetGpr,
    Segment::RetXmm,
    Segment::Csr,
];

impl Segment {
    /// The segment a key names (any case, no blanks), if any.
    pub fn from_key(key: &str) -> Option<Segment> {
        SEGMENT_KEYS
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|&(_, s)| s)
    }

    /// The canonical key.
    pub fn key(self) -> &'static str {
        SEGMENT_KEYS
            .iter()
            .find(|(_, s)| *s == self)
            .map(|(k, _)| *k)
            .expect("every segment has a key")
    }
}

/// The function attribute (a `custom_attr` key) holding a spec.
pub const ATTR_SPEC: &str = "neverc-callconv";
/// The function attribute holding a materialised plan, which is validated, not remade.
pub const ATTR_PLAN: &str = "neverc-cc-plan-v1";

/// The tokens of `args:` that put an argument on the stack.
pub const STACK_TOKENS: [&str; 2] = ["stack", "mem"];

/// One token of a segment, lower-cased.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// A register name, resolved later against the target.
    Reg(String),
    /// `stack` or `mem`.
    Stack,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Reg(r) => f.write_str(r),
            Token::Stack => f.write_str("stack"),
        }
    }
}

/// A parsed spec. A segment that was not written is `None`; a segment written with no
/// tokens (`gpr:`) is an empty list, which is not the same thing: an empty pool puts every
/// value of its class on the stack, while a missing one leaves them to the standard
/// convention.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spec {
    pub args: Option<Vec<Token>>,
    pub gpr: Option<Vec<Token>>,
    pub xmm: Option<Vec<Token>>,
    pub ret_gpr: Option<Vec<Token>>,
    pub ret_xmm: Option<Vec<Token>>,
    pub csr: Option<Vec<Token>>,
}

/// Something the parser noticed that does not stop compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecWarning {
    /// A segment key the parser does not know; the segment is ignored. (Reported under
    /// `-Wextra`: a newer spec may carry segments for other tools.)
    UnknownSegment(String),
    /// A segment given twice (possibly under two keys); the last one counts.
    Repeated(&'static str),
}

impl fmt::Display for SpecWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecWarning::UnknownSegment(k) => {
                write!(f, "unknown segment '{k}' in calling convention spec ignored")
            }
            SpecWarning::Repeated(k) => write!(
                f,
                "segment '{k}' appears more than once in calling convention spec; the last one is used"
            ),
        }
    }
}

/// A spec that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid calling convention spec: {}", self.0)
    }
}

impl std::error::Error for SpecError {}

impl Spec {
    /// Parses a spec; the warnings are for segments ignored or overridden.
    pub fn parse(text: &str) -> Result<(Spec, Vec<SpecWarning>), SpecError> {
        let mut spec = Spec::default();
        let mut warnings = Vec::new();
        for raw in text.split(';') {
            let seg = raw.trim();
            if seg.is_empty() {
                continue; // `a;;b` and a trailing `;` are harmless
            }
            let Some((key, list)) = seg.split_once(':') else {
                return Err(SpecError(format!(
                    "segment '{seg}' has no ':' between its key and its registers"
                )));
            };
            let key = key.trim();
            if key.is_empty() {
                return Err(SpecError(format!("segment '{seg}' has no key")));
            }
            let Some(segment) = Segment::from_key(key) else {
                warnings.push(SpecWarning::UnknownSegment(key.to_ascii_lowercase()));
                continue;
            };
            let mut tokens = Vec::new();
            if !list.trim().is_empty() {
                for t in list.split(',') {
                    let t = t.trim().to_ascii_lowercase();
                    if t.is_empty() {
                        return Err(SpecError(format!(
                            "segment '{seg}' has an empty register name"
                        )));
                    }
                    if let Some(bad) = t
                        .chars()
                        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
                    {
                        return Err(SpecError(format!("register name '{t}' contains '{bad}'")));
                    }
                    tokens.push(if STACK_TOKENS.contains(&t.as_str()) {
                        Token::Stack
                    } else {
                        Token::Reg(t)
                    });
                }
            }
            let slot = spec.slot(segment);
            if slot.is_some() {
                warnings.push(SpecWarning::Repeated(segment.key()));
            }
            *slot = Some(tokens);
        }
        Ok((spec, warnings))
    }

    fn slot(&mut self, s: Segment) -> &mut Option<Vec<Token>> {
        match s {
            Segment::Args => &mut self.args,
            Segment::ArgGpr => &mut self.gpr,
            Segment::ArgXmm => &mut self.xmm,
            Segment::RetGpr => &mut self.ret_gpr,
            Segment::RetXmm => &mut self.ret_xmm,
            Segment::Csr => &mut self.csr,
        }
    }

    /// The tokens of a segment, if it was written.
    pub fn segment(&self, s: Segment) -> Option<&[Token]> {
        match s {
            Segment::Args => self.args.as_deref(),
            Segment::ArgGpr => self.gpr.as_deref(),
            Segment::ArgXmm => self.xmm.as_deref(),
            Segment::RetGpr => self.ret_gpr.as_deref(),
            Segment::RetXmm => self.ret_xmm.as_deref(),
            Segment::Csr => self.csr.as_deref(),
        }
    }

    /// Positional mode: `args:` was written (it takes precedence over `gpr:` and `xmm:`).
    pub fn positional(&self) -> bool {
        self.args.is_some()
    }
}

impl fmt::Display for Spec {
    /// The canonical text: segments in a fixed order under their canonical keys, tokens
    /// lower-cased, no blanks. Two specs meaning the same thing print the same, so the
    /// convention id (a hash of this text) does not depend on spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for s in CANONICAL_ORDER {
            if let Some(tokens) = self.segment(s) {
                if !first {
                    f.write_str(";")?;
                }
                first = false;
                write!(f, "{}:", s.key())?;
                for (i, t) in tokens.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regs(names: &[&str]) -> Option<Vec<Token>> {
        Some(
            names
                .iter()
                .map(|n| {
                    if *n == "stack" {
                        Token::Stack
                    } else {
                        Token::Reg(n.to_string())
                    }
                })
                .collect(),
        )
    }

    #[test]
    fn every_key_and_alias_names_its_segment() {
        for (text, seg) in [
            ("args:rcx", Segment::Args),
            ("gpr:rcx", Segment::ArgGpr),
            ("arg_gpr:rcx", Segment::ArgGpr),
            ("xmm:rcx", Segment::ArgXmm),
            ("arg_xmm:rcx", Segment::ArgXmm),
            ("fpr:rcx", Segment::ArgXmm),
            ("ret_gpr:rcx", Segment::RetGpr),
            ("ret:rcx", Segment::RetGpr),
            ("ret_xmm:rcx", Segment::RetXmm),
            ("ret_fpr:rcx", Segment::RetXmm),
            ("csr:rcx", Segment::Csr),
        ] {
            let (s, w) = Spec::parse(text).unwrap();
            assert!(w.is_empty(), "{text}");
            assert_eq!(s.segment(seg), regs(&["rcx"]).as_deref(), "{text}");
            // Only that segment is set.
            for other in CANONICAL_ORDER {
                if other != seg {
                    assert_eq!(s.segment(other), None, "{text}");
                }
            }
        }
    }

    #[test]
    fn case_and_blanks_do_not_matter() {
        let (a, _) =
            Spec::parse("gpr:rcx,rdx,r8,r9; xmm:xmm0,xmm1; ret:rax; ret_xmm:xmm0").unwrap();
        let (b, _) =
            Spec::parse("  GPR : RCX ,\tRdx,r8 , R9 ;XMM:xmm0 , XMM1;  Ret:RAX;RET_XMM: Xmm0 ; ")
                .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.gpr, regs(&["rcx", "rdx", "r8", "r9"]));
        assert_eq!(
            a.to_string(),
            "gpr:rcx,rdx,r8,r9;xmm:xmm0,xmm1;ret:rax;ret_xmm:xmm0"
        );
    }

    #[test]
    fn stack_and_mem_tokens() {
        let (s, _) = Spec::parse("args:rcx,stack,r8,MEM;ret:rax").unwrap();
        assert_eq!(s.args, regs(&["rcx", "stack", "r8", "stack"]));
        assert!(s.positional());
        assert_eq!(s.to_string(), "args:rcx,stack,r8,stack;ret:rax");
    }

    #[test]
    fn unknown_segments_are_kept_as_warnings() {
        let (s, w) = Spec::parse("gpr:r10;Shadow:r11;ret:rdx").unwrap();
        assert_eq!(w, [SpecWarning::UnknownSegment("shadow".into())]);
        assert_eq!(s.to_string(), "gpr:r10;ret:rdx");
        assert_eq!(
            w[0].to_string(),
            "unknown segment 'shadow' in calling convention spec ignored"
        );
    }

    #[test]
    fn a_repeated_segment_keeps_the_last() {
        let (s, w) = Spec::parse("gpr:r10;arg_gpr:r11").unwrap();
        assert_eq!(s.gpr, regs(&["r11"]));
        assert_eq!(w, [SpecWarning::Repeated("gpr")]);
    }

    #[test]
    fn empty_segment_is_an_empty_list_not_a_missing_one() {
        let (s, _) = Spec::parse("gpr:;ret:rdx").unwrap();
        assert_eq!(s.gpr, Some(vec![]));
        assert_eq!(s.xmm, None);
        assert_eq!(s.to_string(), "gpr:;ret:rdx");
        let (e, w) = Spec::parse("").unwrap();
        assert_eq!(e, Spec::default());
        assert!(w.is_empty());
    }

    #[test]
    fn malformed_specs_are_errors() {
        for bad in [
            "gpr",
            "gpr:r10,,r11",
            ":r10",
            "gpr:r1 0",
            "gpr:%rax",
            "ret:rax;csr",
        ] {
            let e = Spec::parse(bad).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with("invalid calling convention spec: "),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn canonical_text_reparses_to_the_same_spec() {
        for text in [
            "args:rcx,stack,r8;ret:rax",
            "Ret_FPR:xmm3; fpr: xmm1 ,xmm2;csr:r12,R13;arg_gpr:rdi",
            "gpr:r10,r11,rsi,rdi;ret:rdx",
        ] {
            let (s, _) = Spec::parse(text).unwrap();
            let (back, _) = Spec::parse(&s.to_string()).unwrap();
            assert_eq!(back, s, "{text}");
        }
    }
}
