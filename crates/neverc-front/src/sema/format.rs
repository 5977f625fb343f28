//! -Wformat: the arguments of calls to the printf and scanf families (the functions gcc
//! knows as builtins with a format) checked against their literal format strings, in
//! gcc's words and at the directive's place in the string.

use super::types::{int_kind_name, FloatK, Kind, TypeId};
use super::Sema;
use crate::parse::ast::*;
use crate::source::Loc;
use neverc_abi::IntKind;

/// Which family, the format's argument number and the first variadic one (from 1).
fn format_of(name: &str) -> Option<(bool, usize, usize)> {
    Some(match name {
        "printf" => (false, 1, 2),
        "fprintf" | "sprintf" | "dprintf" => (false, 2, 3),
        "snprintf" => (false, 3, 4),
        "scanf" => (true, 1, 2),
        "fscanf" | "sscanf" => (true, 2, 3),
        _ => return None,
    })
}

/// What a directive expects of its argument.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Int(IntKind),
    Float(FloatK),
    /// `char *` for %s (any character type pointed to).
    Str,
    /// Any object pointer (%p).
    AnyPtr,
    /// A pointer to the given kind (scanf, %n).
    PtrInt(IntKind),
    PtrFloat(FloatK),
}

impl<'a> Sema<'a> {
    /// Checks a call's arguments against its format, when `callee` is a printf or scanf.
    pub(crate) fn check_format(&mut self, callee: &str, args: &[ExprId]) {
        let Some((scanf, fmt_arg, first)) = format_of(callee) else {
            return;
        };
        if !self.warning_on("format", &["all"]) {
            return;
        }
        let Some(&fmt) = args.get(fmt_arg - 1) else {
            return;
        };
        let mut f = fmt;
        while let ExprKind::Paren(x) = self.ast.expr(f).kind {
            f = x;
        }
        let ExprKind::Str(si) = self.ast.expr(f).kind else {
            return;
        };
        let lit = &self.ast.lits.strs[si as usize];
        if !matches!(lit.enc, crate::parse::ctok::Enc::None) {
            return;
        }
        let units: Vec<u8> = lit.units.iter().map(|&u| u as u8).collect();
        let str_loc = self.ast.expr(f).loc;
        if units.is_empty() && !scanf {
            self.warning(
                str_loc,
                2,
                "zero-length gnu_printf format string",
                "format-zero-length",
            );
            return;
        }
        let places = self.unit_places(str_loc, units.len());
        let place = |i: usize| -> Loc {
            match &places {
                Some(p) => Loc {
                    file: str_loc.file,
                    offset: str_loc.offset + p[i.min(p.len() - 1)],
                },
                None => str_loc,
            }
        };
        let mut argi = first - 1; // index into args
        let mut i = 0;
        while i < units.len() {
            if units[i] != b'%' {
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            if units.get(i) == Some(&b'%') {
                i += 1;
                continue;
            }
            let mut suppress = false;
            // Flags (printf), assignment suppression (scanf).
            while let Some(&c) = units.get(i) {
                if !scanf && b"-+ #0'I".contains(&c) {
                    i += 1;
                } else if scanf && c == b'*' {
                    suppress = true;
                    i += 1;
                } else {
                    break;
                }
            }
            // Width and precision; a `*` takes an int argument (printf).
            for part in 0..2 {
                if part == 1 {
                    if scanf || units.get(i) != Some(&b'.') {
                        break;
                    }
                    i += 1;
                }
                if !scanf && units.get(i) == Some(&b'*') {
                    i += 1;
                    argi += 1;
                    continue;
                }
                while units.get(i).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                }
            }
            let mut len = String::new();
            while let Some(&c) = units.get(i) {
                if b"hlLqjzt".contains(&c) {
                    len.push(c as char);
                    i += 1;
                } else {
                    break;
                }
            }
            let Some(&conv) = units.get(i) else {
                break;
            };
            i += 1;
            let directive = String::from_utf8_lossy(&units[start..i]).into_owned();
            let at = place(i - 1);
            let Some(want) = want(scanf, &len, conv) else {
                if !conv.is_ascii_alphabetic() && !b"[".contains(&conv) {
                    continue;
                }
                if conv == b'[' || conv == b'm' {
                    // Scan sets and %m: not checked.
                    if conv == b'[' {
                        while units.get(i).is_some_and(|&c| c != b']') {
                            i += 1;
                        }
                        i += 1;
                        argi += usize::from(!suppress);
                    }
                    continue;
                }
                self.warning(
                    at,
                    1,
                    format!(
                        "unknown conversion type character '{}' in format",
                        conv as char
                    ),
                    "format=",
                );
                continue;
            };
            if suppress {
                continue;
            }
            let Some(&arg) = args.get(argi) else {
                let w = self.want_name(want, &len, conv);
                self.warning(
                    at,
                    1,
                    format!("format '{directive}' expects a matching '{w}' argument"),
                    "format=",
                );
                argi += 1;
                continue;
            };
            argi += 1;
            let t = self.expr_types[arg.0 as usize];
            let t = self.types.decay(t);
            let t = self.types.promote(t);
            let t = if matches!(self.types.kind(t), Kind::Float(FloatK::Float)) && !scanf {
                self.types.intern(Kind::Float(FloatK::Double), 0)
            } else {
                t
            };
            if self.types.is_error(t) || self.format_fits(want, t) {
                continue;
            }
            let w = self.want_name(want, &len, conv);
            let n = argi;
            let msg = format!(
                "format '{directive}' expects argument of type '{w}', but argument {n} has type '{}'",
                self.tname(t)
            );
            self.warning(at, 1, msg, "format=");
        }
        if argi < args.len() {
            self.warning(
                str_loc,
                1,
                "too many arguments for format",
                "format-extra-args",
            );
        }
    }

    /// Clean-text offsets (from the literal's opening quote) of each unit of a plain
    /// string literal written as one token; None when it is not (macros, concatenation).
    fn unit_places(&self, loc: Loc, n: usize) -> Option<Vec<u32>> {
        let text = &self.pp.sm.file(loc.file).text;
        let s = text.get(loc.offset as usize..)?;
        if s.first() != Some(&b'"') {
            return None;
        }
        let mut out = Vec::with_capacity(n);
        let mut j = 1;
        while out.len() < n {
            let c = *s.get(j)?;
            match c {
                b'"' | b'\n' => return None,
                b'\\' => {
                    out.push(j as u32);
                    j += 1;
                    let e = *s.get(j)?;
                    if e == b'x' {
                        j += 1;
                        while s.get(j).is_some_and(|c| c.is_ascii_hexdigit()) {
                            j += 1;
                        }
                    } else if (b'0'..=b'7').contains(&e) {
                        let mut k = 0;
                        while k < 3 && s.get(j).is_some_and(|c| (b'0'..=b'7').contains(c)) {
                            j += 1;
                            k += 1;
                        }
                    } else {
                        j += 1;
                    }
                }
                _ => {
                    out.push(j as u32);
                    j += 1;
                }
            }
        }
        Some(out)
    }

    /// Does an argument of (promoted) type `t` suit the directive? Signedness of integers
    /// is not checked (that is -Wformat-signedness).
    fn format_fits(&mut self, want: Want, t: TypeId) -> bool {
        let same_int = |s: &Self, a: IntKind, b: TypeId| {
            s.types
                .int_kind(b)
                .is_some_and(|k| s.types.int_bits(k) == s.types.int_bits(a) && rank(k) == rank(a))
        };
        match want {
            Want::Int(k) => {
                !matches!(self.types.kind(t), Kind::Bool) && same_int(self, k, t)
                    || matches!(self.types.kind(t), Kind::Enum(_))
            }
            Want::Float(f) => matches!(self.types.kind(t), Kind::Float(g) if *g == f),
            Want::AnyPtr => self.types.pointee(t).is_some(),
            Want::Str => self.types.pointee(t).is_some_and(|p| {
                matches!(
                    self.types.int_kind(p),
                    Some(IntKind::Char | IntKind::SChar | IntKind::UChar)
                )
            }),
            Want::PtrInt(k) => self.types.pointee(t).is_some_and(|p| {
                let p = self.types.unqual(p);
                same_int(self, k, p)
                    || (k == IntKind::Char && self.types.int_kind(p).is_some_and(|x| rank(x) == 1))
            }),
            Want::PtrFloat(f) => self
                .types
                .pointee(t)
                .is_some_and(|p| matches!(self.types.kind(p), Kind::Float(g) if *g == f)),
        }
    }

    /// gcc's name of the type a directive expects.
    fn want_name(&mut self, want: Want, len: &str, conv: u8) -> String {
        let named = match len {
            "z" => Some("size_t"),
            "j" => Some(if b"di".contains(&conv) {
                "intmax_t"
            } else {
                "uintmax_t"
            }),
            "t" => Some("ptrdiff_t"),
            _ => None,
        };
        match want {
            Want::Int(k) => named.map_or_else(|| int_kind_name(k).to_string(), String::from),
            Want::PtrInt(k) => format!("{} *", named.unwrap_or(int_kind_name(k))),
            Want::Float(f) => float_name(f).to_string(),
            Want::PtrFloat(f) => format!("{} *", float_name(f)),
            Want::Str => "char *".to_string(),
            Want::AnyPtr => "void *".to_string(),
        }
    }
}

fn rank(k: IntKind) -> u32 {
    use IntKind::*;
    match k {
        Char | SChar | UChar => 1,
        Short | UShort => 2,
        Int | UInt => 3,
        Long | ULong => 4,
        LongLong | ULongLong => 5,
        Int128 | UInt128 => 6,
    }
}

fn float_name(f: FloatK) -> &'static str {
    match f {
        FloatK::Float => "float",
        FloatK::LongDouble => "long double",
        _ => "double",
    }
}

/// The argument a directive wants (printf promotes: %hd takes an int).
fn want(scanf: bool, len: &str, conv: u8) -> Option<Want> {
    use IntKind::*;
    let signed = b"di".contains(&conv);
    let int = match (len, signed) {
        ("hh", true) if scanf => SChar,
        ("hh", false) if scanf => UChar,
        ("h", true) if scanf => Short,
        ("h", false) if scanf => UShort,
        ("" | "hh" | "h", true) => Int,
        ("" | "hh" | "h", false) => UInt,
        ("l" | "j" | "t" | "z", true) => Long,
        ("l" | "j" | "t" | "z", false) => ULong,
        ("ll" | "q" | "L", true) => LongLong,
        ("ll" | "q" | "L", false) => ULongLong,
        _ => Int,
    };
    let float = match len {
        "" if scanf => Some(FloatK::Float),
        "" | "l" => Some(FloatK::Double),
        "L" => Some(FloatK::LongDouble),
        _ => None,
    };
    Some(match conv {
        b'd' | b'i' | b'o' | b'u' | b'x' | b'X' if !scanf => Want::Int(int),
        b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => Want::PtrInt(int),
        b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' if !scanf => Want::Float(float?),
        b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
            Want::PtrFloat(if len == "l" { FloatK::Double } else { float? })
        }
        b'c' if len.is_empty() && !scanf => Want::Int(Int),
        b'c' | b's' if len.is_empty() && scanf => Want::PtrInt(Char),
        b's' if len.is_empty() => Want::Str,
        b'p' if len.is_empty() => Want::AnyPtr,
        b'n' => Want::PtrInt(if len.is_empty() { Int } else { int }),
        _ => return None,
    })
}
