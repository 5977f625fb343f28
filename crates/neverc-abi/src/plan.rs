//! Call plans and their one text form.
//!
//! ```text
//! neverc-cc-plan-v1;schema=<digest>;target=<high>:<low>;cc=<high>:<low>;stack=<bytes>;
//!   returns=<locs>;arguments=<locs>;callee-saved=<regs>
//! ```
//! (one line). Each location is `<r|s>,<value index>,<piece offset>,<size>,<alignment>,
//! <register number>,<stack offset>,<flags>`; locations are separated by `|`, callee-saved
//! register numbers by `,`. An empty list is empty text. The field that does not apply (the
//! register number of a stack location, the stack offset of a register location) is `0`.
//! Flags are names joined by `+` ([`Flags`]), or `-` for none.
//!
//! Identities, so a plan made for one target or convention is never applied to another:
//! - **schema digest**: `neverc-<canonical triple>`. Register numbers are those of
//!   `neverc_target::registers` (DWARF numbers) for the triple's architecture.
//! - **target id**: the 64-bit FNV-1a hash of the canonical triple, printed as its high and
//!   low 32-bit halves in decimal.
//! - **convention id**: high half 1 for a platform convention, low half its stable number
//!   ([`Convention::number`](crate::Convention::number)); high half 2 for a custom spec, low
//!   half the 32-bit FNV-1a hash of the spec text.
//!
//! Stack offsets are from the lowest address of the outgoing argument area, which is the
//! stack pointer at the call instruction (before any return address is pushed; on AVR the
//! first argument byte is at SP+1, which is offset 0).

use std::fmt;

/// Where a piece lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A register, by its number in the target's register schema.
    Reg(u16),
    /// Bytes at this offset in the outgoing argument area.
    Stack(u32),
}

/// Properties of a location beyond its place, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u16);

impl Flags {
    pub const NONE: Flags = Flags(0);
    /// The caller sign-extends the value to 32 bits (`sext32`).
    pub const SEXT32: Flags = Flags(1);
    /// The caller zero-extends the value to 32 bits (`zext32`).
    pub const ZEXT32: Flags = Flags(2);
    /// Sign-extended to 64 bits (`sext64`): RISC-V lp64 `int` and `unsigned int`.
    pub const SEXT64: Flags = Flags(4);
    /// Zero-extended to 64 bits (`zext64`).
    pub const ZEXT64: Flags = Flags(8);
    /// The location holds a pointer to a copy of the value made by the caller (`byref`).
    pub const BYREF: Flags = Flags(16);
    /// In `returns`: the caller passes the address of the result buffer here (`sret`).
    pub const SRET: Flags = Flags(32);
    /// In `returns`: the callee gives the result buffer's address back here (`sretout`).
    pub const SRET_OUT: Flags = Flags(64);
    /// In `arguments`: the caller sets this register to the number of vector registers the
    /// arguments use (x86-64 `%al` for variadic calls) (`vacount`).
    pub const VA_COUNT: Flags = Flags(128);
    /// The value is a variadic (unnamed) argument (`vararg`).
    pub const VARARG: Flags = Flags(256);

    const NAMES: [(Flags, &'static str); 9] = [
        (Flags::SEXT32, "sext32"),
        (Flags::ZEXT32, "zext32"),
        (Flags::SEXT64, "sext64"),
        (Flags::ZEXT64, "zext64"),
        (Flags::BYREF, "byref"),
        (Flags::SRET, "sret"),
        (Flags::SRET_OUT, "sretout"),
        (Flags::VA_COUNT, "vacount"),
        (Flags::VARARG, "vararg"),
    ];

    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Flags {
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}

/// One piece of one value and where it lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// Index of the value: 0 for the result; the parameter index for arguments (hidden
    /// values: see [`Flags`]).
    pub value: u32,
    /// Offset of the piece within the value, in bytes.
    pub offset: u32,
    /// Size of the piece in bytes.
    pub size: u32,
    /// Alignment the piece has in the value's memory image (at most the value's).
    pub align: u32,
    pub place: Place,
    pub flags: Flags,
}

/// A 64-bit identity printed as `<high>:<low>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Id {
    pub high: u32,
    pub low: u32,
}

impl Id {
    pub fn from_u64(v: u64) -> Id {
        Id {
            high: (v >> 32) as u32,
            low: v as u32,
        }
    }
}

/// The answer to "where does every byte of every argument and result live".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallPlan {
    /// Register schema digest, `neverc-<canonical triple>`.
    pub schema: String,
    pub target: Id,
    pub convention: Id,
    /// Bytes of outgoing argument area the caller must provide.
    pub stack: u32,
    pub returns: Vec<Location>,
    pub arguments: Vec<Location>,
    /// Registers the callee preserves, by number.
    pub callee_saved: Vec<u16>,
}

/// A plan that cannot be used here. The messages are the project's diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The text does not parse; the string says where.
    Malformed(String),
    /// The schema digest names another target's register schema.
    ForeignSchema { expected: String, found: String },
    /// The target id differs.
    ForeignTarget { expected: Id, found: Id },
    /// The convention id differs.
    ForeignConvention { expected: Id, found: Id },
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::Malformed(why) => {
                write!(f, "malformed NeverC calling convention plan: {why}")
            }
            PlanError::ForeignSchema { expected, found } => write!(
                f,
                "NeverC calling convention plan belongs to a foreign target schema \
                 ({found}, expected {expected})"
            ),
            PlanError::ForeignTarget { expected, found } => write!(
                f,
                "NeverC calling convention plan has a foreign target ID ({found}, expected {expected})"
            ),
            PlanError::ForeignConvention { expected, found } => write!(
                f,
                "NeverC calling convention plan has a foreign convention ID ({found}, expected {expected})"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.high, self.low)
    }
}

impl fmt::Display for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        let mut first = true;
        for (flag, name) in Flags::NAMES {
            if self.contains(flag) {
                if !first {
                    f.write_str("+")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, reg, off) = match self.place {
            Place::Reg(r) => ('r', r as u32, 0),
            Place::Stack(o) => ('s', 0, o),
        };
        write!(
            f,
            "{kind},{},{},{},{},{reg},{off},{}",
            self.value, self.offset, self.size, self.align, self.flags
        )
    }
}

const MAGIC: &str = "neverc-cc-plan-v1";

/// 64-bit FNV-1a.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// 32-bit FNV-1a.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

/// The schema digest of a canonical triple.
pub fn schema_digest(triple: &str) -> String {
    format!("neverc-{triple}")
}

/// The target id of a canonical triple.
pub fn target_id(triple: &str) -> Id {
    Id::from_u64(fnv1a64(triple.as_bytes()))
}

impl fmt::Display for CallPlan {
    /// The text form; `CallPlan::parse` reads it back to an equal plan.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |locs: &[Location]| {
            locs.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join("|")
        };
        let regs: Vec<String> = self.callee_saved.iter().map(|r| r.to_string()).collect();
        write!(
            f,
            "{MAGIC};schema={};target={};cc={};stack={};returns={};arguments={};callee-saved={}",
            self.schema,
            self.target,
            self.convention,
            self.stack,
            list(&self.returns),
            list(&self.arguments),
            regs.join(",")
        )
    }
}

fn malformed(why: impl Into<String>) -> PlanError {
    PlanError::Malformed(why.into())
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, PlanError> {
    // Canonical decimal only: no sign, no leading zeros, no spaces.
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if !canonical {
        return Err(malformed(format!("{what} '{s}' is not a decimal number")));
    }
    s.parse()
        .map_err(|_| malformed(format!("{what} '{s}' is out of range")))
}

fn parse_id(s: &str, what: &str) -> Result<Id, PlanError> {
    let (h, l) = s
        .split_once(':')
        .ok_or_else(|| malformed(format!("{what} '{s}' is not <high>:<low>")))?;
    Ok(Id {
        high: number(h, what)?,
        low: number(l, what)?,
    })
}

fn parse_flags(s: &str) -> Result<Flags, PlanError> {
    if s == "-" {
        return Ok(Flags::NONE);
    }
    let mut flags = Flags::NONE;
    let mut last = None;
    for name in s.split('+') {
        let pos = Flags::NAMES
            .iter()
            .position(|(_, n)| *n == name)
            .ok_or_else(|| malformed(format!("unknown flag '{name}'")))?;
        // Canonical order, no repeats, so that text and plan correspond one to one.
        if last.is_some_and(|l| l >= pos) {
            return Err(malformed(format!("flags '{s}' are not in canonical order")));
        }
        last = Some(pos);
        flags |= Flags::NAMES[pos].0;
    }
    Ok(flags)
}

fn parse_location(s: &str) -> Result<Location, PlanError> {
    let f: Vec<&str> = s.split(',').collect();
    if f.len() != 8 {
        return Err(malformed(format!("location '{s}' does not have 8 fields")));
    }
    let reg: u16 = number(f[5], "register number")?;
    let off: u32 = number(f[6], "stack offset")?;
    let place = match f[0] {
        "r" if off == 0 => Place::Reg(reg),
        "s" if reg == 0 => Place::Stack(off),
        "r" | "s" => {
            return Err(malformed(format!(
                "location '{s}' sets the field that does not apply"
            )))
        }
        k => return Err(malformed(format!("location kind '{k}' is not r or s"))),
    };
    Ok(Location {
        value: number(f[1], "value index")?,
        offset: number(f[2], "piece offset")?,
        size: number(f[3], "size")?,
        align: number(f[4], "alignment")?,
        place,
        flags: parse_flags(f[7])?,
    })
}

fn parse_locations(s: &str) -> Result<Vec<Location>, PlanError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    s.split('|').map(parse_location).collect()
}

impl CallPlan {
    /// Reads the text form. Only the exact text [`Display`](fmt::Display) prints is
    /// accepted, so `parse(print(p)) == p` and `print(parse(t)) == t`.
    pub fn parse(text: &str) -> Result<CallPlan, PlanError> {
        let fields: Vec<&str> = text.split(';').collect();
        let keys = [
            "schema",
            "target",
            "cc",
            "stack",
            "returns",
            "arguments",
            "callee-saved",
        ];
        if fields.len() != keys.len() + 1 || fields[0] != MAGIC {
            return Err(malformed(format!(
                "expected '{MAGIC}' and {} fields",
                keys.len()
            )));
        }
        let mut vals = [""; 7];
        for (i, key) in keys.iter().enumerate() {
            vals[i] = fields[i + 1]
                .strip_prefix(key)
                .and_then(|r| r.strip_prefix('='))
                .ok_or_else(|| malformed(format!("field {} is not '{key}='", i + 1)))?;
        }
        if vals[0].is_empty() {
            return Err(malformed("empty schema digest"));
        }
        let callee_saved = if vals[6].is_empty() {
            Vec::new()
        } else {
            vals[6]
                .split(',')
                .map(|r| number(r, "callee-saved register"))
                .collect::<Result<_, _>>()?
        };
        Ok(CallPlan {
            schema: vals[0].to_string(),
            target: parse_id(vals[1], "target id")?,
            convention: parse_id(vals[2], "convention id")?,
            stack: number(vals[3], "stack size")?,
            returns: parse_locations(vals[4])?,
            arguments: parse_locations(vals[5])?,
            callee_saved,
        })
    }

    /// Checks that this plan belongs to `triple` and `convention`: schema digest first,
    /// then target id, then convention id.
    pub fn validate(&self, triple: &str, convention: Id) -> Result<(), PlanError> {
        let schema = schema_digest(triple);
        if self.schema != schema {
            return Err(PlanError::ForeignSchema {
                expected: schema,
                found: self.schema.clone(),
            });
        }
        let target = target_id(triple);
        if self.target != target {
            return Err(PlanError::ForeignTarget {
                expected: target,
                found: self.target,
            });
        }
        if self.convention != convention {
            return Err(PlanError::ForeignConvention {
                expected: convention,
                found: self.convention,
            });
        }
        Ok(())
    }

    /// Parses and validates in one step, as a back end receiving a materialised plan does.
    pub fn parse_for(text: &str, triple: &str, convention: Id) -> Result<CallPlan, PlanError> {
        let plan = CallPlan::parse(text)?;
        plan.validate(triple, convention)?;
        Ok(plan)
    }

    /// The locations of argument `index`, in order.
    pub fn argument(&self, index: u32) -> impl Iterator<Item = &Location> {
        self.arguments.iter().filter(move |l| l.value == index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_location(r: &mut Rng) -> Location {
        // Extreme values on purpose: 0, maxima, and everything between.
        let pick32 = |r: &mut Rng| match r.below(4) {
            0 => 0,
            1 => u32::MAX,
            _ => r.next() as u32 % 4096,
        };
        Location {
            value: pick32(r),
            offset: pick32(r),
            size: pick32(r),
            align: 1 << r.below(6),
            place: if r.below(2) == 0 {
                Place::Reg(if r.below(8) == 0 {
                    u16::MAX
                } else {
                    r.below(300) as u16
                })
            } else {
                Place::Stack(pick32(r))
            },
            flags: Flags(r.below(512) as u16),
        }
    }

    fn random_plan(r: &mut Rng) -> CallPlan {
        let locs = |r: &mut Rng| (0..r.below(6)).map(|_| random_location(r)).collect();
        CallPlan {
            schema: format!("neverc-target{}", r.below(100)),
            target: Id::from_u64(r.next()),
            convention: Id::from_u64(r.next()),
            stack: r.next() as u32,
            returns: locs(r),
            arguments: locs(r),
            callee_saved: (0..r.below(10)).map(|_| r.next() as u16).collect(),
        }
    }

    #[test]
    fn parse_of_print_is_identity_over_generated_plans() {
        let mut r = Rng(7);
        for _ in 0..20_000 {
            let p = random_plan(&mut r);
            let text = p.to_string();
            let back = CallPlan::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back, p, "{text}");
            assert_eq!(back.to_string(), text);
        }
    }

    #[test]
    fn exact_text_form() {
        let p = CallPlan {
            schema: "neverc-x86_64-linux-gnu".into(),
            target: Id { high: 1, low: 2 },
            convention: Id { high: 1, low: 1 },
            stack: 16,
            returns: vec![Location {
                value: 0,
                offset: 0,
                size: 8,
                align: 8,
                place: Place::Reg(0),
                flags: Flags::NONE,
            }],
            arguments: vec![
                Location {
                    value: 0,
                    offset: 0,
                    size: 1,
                    align: 1,
                    place: Place::Reg(5),
                    flags: Flags::SEXT32,
                },
                Location {
                    value: 1,
                    offset: 0,
                    size: 16,
                    align: 16,
                    place: Place::Stack(0),
                    flags: Flags::BYREF | Flags::VARARG,
                },
            ],
            callee_saved: vec![3, 6],
        };
        assert_eq!(
            p.to_string(),
            "neverc-cc-plan-v1;schema=neverc-x86_64-linux-gnu;target=1:2;cc=1:1;stack=16;\
             returns=r,0,0,8,8,0,0,-;arguments=r,0,0,1,1,5,0,sext32|s,1,0,16,16,0,0,byref+vararg;\
             callee-saved=3,6"
        );
    }

    #[test]
    fn malformed_texts_are_refused() {
        let good = "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=;arguments=;callee-saved=";
        assert!(CallPlan::parse(good).is_ok());
        for bad in [
            "",
            "neverc-cc-plan-v2;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=;target=1:2;cc=1:1;stack=0;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=12;cc=1:1;stack=0;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;cc=1:1;target=1:2;stack=0;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=-1;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=01;returns=;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=r,0,0,8,8,0,0;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=x,0,0,8,8,0,0,-;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=r,0,0,8,8,0,4,-;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=s,0,0,8,8,3,0,-;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=r,0,0,8,8,0,0,bogus;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=r,0,0,8,8,0,0,byref+sext32;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=r,0,0,8,8,70000,0,-;arguments=;callee-saved=",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=;arguments=;callee-saved=1,,2",
            "neverc-cc-plan-v1;schema=neverc-x;target=1:2;cc=1:1;stack=0;returns=;arguments=;callee-saved=;extra=1",
        ] {
            let e = CallPlan::parse(bad).unwrap_err();
            assert!(matches!(e, PlanError::Malformed(_)), "{bad}");
            assert!(e.to_string().starts_with("malformed NeverC calling convention plan"));
        }
    }

    #[test]
    fn validation_names_the_first_foreign_identity() {
        let triple = "aarch64-linux-gnu";
        let cc = Id { high: 1, low: 3 };
        let mut p = CallPlan {
            schema: schema_digest(triple),
            target: target_id(triple),
            convention: cc,
            stack: 0,
            returns: vec![],
            arguments: vec![],
            callee_saved: vec![],
        };
        assert_eq!(
            CallPlan::parse_for(&p.to_string(), triple, cc),
            Ok(p.clone())
        );
        p.convention = Id { high: 1, low: 4 };
        let e = p.validate(triple, cc).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NeverC calling convention plan has a foreign convention ID"));
        p.target = target_id("x86_64-linux-gnu");
        let e = p.validate(triple, cc).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NeverC calling convention plan has a foreign target ID"));
        p.schema = schema_digest("x86_64-linux-gnu");
        let e = p.validate(triple, cc).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("NeverC calling convention plan belongs to a foreign target schema"));
        let e = CallPlan::parse_for("nonsense", triple, cc).unwrap_err();
        assert!(matches!(e, PlanError::Malformed(_)));
    }

    #[test]
    fn ids_are_stable() {
        // FNV-1a test vectors, so the ids never drift.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(
            target_id("x86_64-linux-gnu"),
            Id::from_u64(fnv1a64(b"x86_64-linux-gnu"))
        );
    }
}
