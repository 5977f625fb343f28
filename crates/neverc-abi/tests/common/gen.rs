//! Random C types for differential tests: a seeded generator producing both the
//! `neverc_abi::Type` and the C declarations that spell it.
//!
//! One generator for every test that needs random C types: neverc-abi's register-dump
//! harness (`plans_vs_gcc.rs`) and layout test use it as `tests/common/gen.rs`, and the
//! two-compiler test of the neverc crate (`crates/neverc/tests/abi_two_compilers.rs`)
//! includes this same file by path. Anything that changes which types a seed gives changes
//! every one of those tests' runs.
#![allow(dead_code)]

use neverc_abi::{layout, Field, FloatKind, IntKind, Machine, Record, Type};
use std::fmt::Write;

/// SplitMix64: small, seedable, the same on every host.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// What the target's C compiler accepts.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub int128: bool,
    pub float16: bool,
    /// `struct {}` has size 0 (GNU C); not on MSVC.
    pub empty_records: bool,
    /// `packed`/`aligned` attributes generated.
    pub attributes: bool,
    /// Bit-fields and `#pragma pack` generated.
    pub bitfields: bool,
    pub vectors: bool,
    pub long_double: bool,
}

/// Generated C text and the types it defines.
pub struct Gen {
    pub machine: Machine,
    pub features: Features,
    /// Every record generated, with its name.
    pub records: Vec<(String, Type)>,
    /// Definitions in dependency order; each is `(name, text)`.
    pub defs: Vec<(String, String)>,
    /// Names each definition depends on.
    pub deps: Vec<Vec<String>>,
    /// Position of each definition in `defs`, by name.
    index: std::collections::HashMap<String, usize>,
    counter: usize,
}

pub fn int_c(k: IntKind) -> &'static str {
    use IntKind::*;
    match k {
        Char => "char",
        SChar => "signed char",
        UChar => "unsigned char",
        Short => "short",
        UShort => "unsigned short",
        Int => "int",
        UInt => "unsigned int",
        Long => "long",
        ULong => "unsigned long",
        LongLong => "long long",
        ULongLong => "unsigned long long",
        Int128 => "__int128",
        UInt128 => "unsigned __int128",
    }
}

pub fn float_c(k: FloatKind) -> &'static str {
    match k {
        FloatKind::Float16 => "_Float16",
        FloatKind::Float => "float",
        FloatKind::Double => "double",
        FloatKind::LongDouble => "long double",
    }
}

pub const INTS: &[IntKind] = &[
    IntKind::Char,
    IntKind::SChar,
    IntKind::UChar,
    IntKind::Short,
    IntKind::UShort,
    IntKind::Int,
    IntKind::UInt,
    IntKind::Long,
    IntKind::ULong,
    IntKind::LongLong,
    IntKind::ULongLong,
];

impl Gen {
    pub fn new(machine: Machine, features: Features) -> Gen {
        Gen {
            machine,
            features,
            records: Vec::new(),
            defs: Vec::new(),
            deps: Vec::new(),
            index: std::collections::HashMap::new(),
            counter: 0,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    /// A scalar type and its C spelling.
    pub fn scalar(&mut self, rng: &mut Rng) -> (Type, String) {
        loop {
            let r = rng.below(100);
            let t = match r {
                0..=44 => {
                    let mut ints = INTS.to_vec();
                    if self.features.int128 && rng.chance(10) {
                        ints = vec![IntKind::Int128, IntKind::UInt128];
                    }
                    let k = *rng.pick(&ints);
                    (Type::Int(k), int_c(k).to_string())
                }
                45..=49 => (Type::Bool, "_Bool".to_string()),
                50..=59 => (Type::float(), "float".into()),
                60..=69 => (Type::double(), "double".into()),
                70..=74 if self.features.long_double => (Type::long_double(), "long double".into()),
                75..=77 if self.features.float16 => {
                    (Type::Float(FloatKind::Float16), "_Float16".into())
                }
                78..=84 => (Type::Pointer, "void *".into()),
                85..=89 => {
                    let k = *rng.pick(&[FloatKind::Float, FloatKind::Double]);
                    (Type::Complex(k), format!("_Complex {}", float_c(k)))
                }
                90..=94 if self.features.long_double => (
                    Type::Complex(FloatKind::LongDouble),
                    "_Complex long double".into(),
                ),
                95..=99 if self.features.vectors => self.vector(rng),
                _ => continue,
            };
            return t;
        }
    }

    /// A vector typedef `V<n>` of 8 or 16 bytes, and its type.
    pub fn vector(&mut self, rng: &mut Rng) -> (Type, String) {
        let name = self.fresh("V");
        let choices = [
            (Type::int(), "int", 4),
            (Type::float(), "float", 4),
            (Type::Int(IntKind::Short), "short", 2),
            (Type::double(), "double", 8),
        ];
        let (elem, ec, esize) = rng.pick(&choices);
        let bytes = *rng.pick(&[8u32, 16]).max(esize);
        self.push(
            &name,
            format!("typedef {ec} {name} __attribute__((vector_size({bytes})));"),
            vec![],
        );
        (Type::vector(elem.clone(), bytes), name)
    }

    /// A struct `S<n>` made of `count` elements of the one type `base` (a float type or
    /// a vector typedef, `base.1` its C spelling): members of that type, arrays of it
    /// and nested such structs, so that (with `count` at most 4) it is a homogeneous
    /// aggregate (AAPCS64's HFA/HVA) however it is nested. Sometimes aligned to 16 or
    /// with a zero-length array of the base type (neither changes the kind).
    pub fn homogeneous(
        &mut self,
        rng: &mut Rng,
        base: &(Type, String),
        count: u64,
        depth: u32,
    ) -> (Type, String) {
        let mut rec = Record::default();
        let base_deps = if self.has_def(&base.1) {
            vec![base.1.clone()]
        } else {
            vec![]
        };
        let mut body = String::new();
        let mut deps = Vec::new();
        let mut left = count;
        let mut i = 0;
        while left > 0 {
            let k = 1 + rng.below(left);
            let fname = format!("m{i}");
            i += 1;
            let (t, c, d) = if k == 1 && rng.chance(70) {
                (base.0.clone(), base.1.clone(), base_deps.clone())
            } else if depth < 2 && rng.chance(40) {
                let (t, n) = self.homogeneous(rng, base, k, depth + 1);
                (t, self.tag(&n), vec![n])
            } else {
                let name = self.fresh("A");
                self.push(
                    &name,
                    format!("typedef {} {name}[{k}];", base.1),
                    base_deps.clone(),
                );
                (Type::array(base.0.clone(), k), name.clone(), vec![name])
            };
            let _ = writeln!(body, "  {c} {fname};");
            deps.extend(d);
            rec.fields.push(Field::named(fname, t));
            left -= k;
        }
        if depth == 0 && rng.chance(5) {
            let _ = writeln!(body, "  {} z[0];", base.1);
            deps.extend(base_deps.clone());
            rec.fields
                .push(Field::named("z", Type::array(base.0.clone(), 0)));
        }
        let mut attr = "";
        if self.features.attributes && rng.chance(8) {
            rec.align = Some(16);
            attr = " __attribute__((aligned(16)))";
        }
        let name = self.fresh("S");
        self.push(&name, format!("struct{attr} {name} {{\n{body}}};"), deps);
        let t = Type::Record(Box::new(rec));
        self.records.push((name.clone(), t.clone()));
        (t, name)
    }

    fn push(&mut self, name: &str, text: String, deps: Vec<String>) {
        self.index.insert(name.to_string(), self.defs.len());
        self.defs.push((name.to_string(), text));
        self.deps.push(deps);
    }

    /// A member type: scalar, array, nested record or aligned typedef.
    pub fn member(&mut self, rng: &mut Rng, depth: u32) -> (Type, String, Vec<String>) {
        let r = rng.below(100);
        if r < 12 && depth < 3 {
            let (t, name) = self.record(rng, depth + 1, false);
            let c = self.tag(&name);
            return (t, c, vec![name]);
        }
        if r < 22 {
            let (elem, c, deps) = self.member(rng, depth + 1);
            let l = layout(&elem, self.machine);
            if l.size % l.align as u64 != 0 {
                // gcc refuses arrays of over-aligned elements.
                return (elem, c, deps);
            }
            let len = 1 + rng.below(4);
            let name = self.fresh("A");
            self.push(&name, format!("typedef {c} {name}[{len}];"), deps);
            return (Type::array(elem, len), name.clone(), vec![name]);
        }
        if r < 26 && self.features.attributes {
            let (t, c) = self.scalar(rng);
            let mut a = *rng.pick(&[1u32, 2, 4, 8, 16, 32]);
            if self.machine.os == neverc_target::Os::Windows {
                // clang's Microsoft layout ignores a typedef lowering an alignment.
                a = a.max(layout(&t, self.machine).align);
            }
            let name = self.fresh("T");
            // The typedef depends on a vector typedef it names.
            let deps = if c.starts_with('V') {
                vec![c.clone()]
            } else {
                vec![]
            };
            self.push(
                &name,
                format!("typedef {c} {name} __attribute__((aligned({a})));"),
                deps,
            );
            return (Type::aligned(t, a), name.clone(), vec![name]);
        }
        let (t, c) = self.scalar(rng);
        let deps = if c.starts_with('V') {
            vec![c.clone()]
        } else {
            vec![]
        };
        (t, c, deps)
    }

    /// A struct or union named `S<n>`; `top` allows a flexible array member.
    pub fn record(&mut self, rng: &mut Rng, depth: u32, top: bool) -> (Type, String) {
        let mut rec = Record {
            is_union: rng.chance(20),
            ..Record::default()
        };
        let name = self.fresh("S");
        let mut body = String::new();
        let mut deps = Vec::new();
        let attrs = self.features.attributes;
        let nfields = if self.features.empty_records && rng.chance(3) {
            0
        } else {
            1 + rng.below(6)
        };
        for i in 0..nfields {
            let fname = format!("m{i}");
            if self.features.bitfields && rng.chance(25) {
                // A bit-field.
                let (ty, c, bits) = if rng.chance(10) {
                    (Type::Bool, "_Bool", 8)
                } else {
                    let k = *rng.pick(INTS);
                    let bits = layout(&Type::Int(k), self.machine).size * 8;
                    (Type::Int(k), int_c(k), bits)
                };
                let bits = if ty == Type::Bool { 1 } else { bits };
                let width = if rng.chance(15) {
                    0
                } else {
                    1 + rng.below(bits) as u32
                };
                let named = width != 0 && !rng.chance(15);
                let mut f = Field::bitfield(named.then_some(fname.as_str()), ty, width);
                let mut attr = String::new();
                if rng.chance(5) && width != 0 {
                    f.packed = true;
                    attr = " __attribute__((packed))".into();
                }
                let nm = if named { fname.as_str() } else { "" };
                let _ = writeln!(body, "  {c} {nm} : {width}{attr};");
                rec.fields.push(f);
                continue;
            }
            let (ty, c, d) = self.member(rng, depth);
            deps.extend(d);
            let mut f = Field::named(fname.clone(), ty);
            let mut attr = String::new();
            if attrs && rng.chance(8) {
                let a = *rng.pick(&[1u32, 2, 4, 8, 16]);
                f.align = Some(a);
                attr += &format!(" __attribute__((aligned({a})))");
            }
            if attrs && rng.chance(5) {
                f.packed = true;
                attr += " __attribute__((packed))";
            }
            let _ = writeln!(body, "  {c} {fname}{attr};");
            rec.fields.push(f);
        }
        let has_named = rec.fields.iter().any(|f| f.name.is_some());
        if top && !rec.is_union && has_named && rng.chance(15) {
            let (t, c) = self.scalar(rng);
            if c.starts_with('V') {
                deps.push(c.clone());
            }
            let _ = writeln!(body, "  {c} fam[];");
            rec.fields.push(Field::named("fam", Type::array(t, 0)));
        }
        let mut attr = Vec::new();
        if attrs && rng.chance(12) {
            rec.packed = true;
            attr.push("packed".to_string());
        }
        if attrs && rng.chance(10) {
            let a = *rng.pick(&[1u32, 2, 4, 8, 16]);
            rec.align = Some(a);
            attr.push(format!("aligned({a})"));
        }
        let attr = if attr.is_empty() {
            String::new()
        } else {
            format!(" __attribute__(({}))", attr.join(", "))
        };
        let kw = if rec.is_union { "union" } else { "struct" };
        let mut text = format!("{kw}{attr} {name} {{\n{body}}};");
        if self.features.bitfields && rng.chance(6) {
            let p = *rng.pick(&[1u32, 2, 4]);
            rec.pack = Some(p);
            text = format!("#pragma pack(push, {p})\n{text}\n#pragma pack(pop)");
        }
        self.push(&name, text, deps);
        let t = Type::Record(Box::new(rec));
        self.records.push((name.clone(), t.clone()));
        (t, name)
    }

    /// The C spelling of the record type named `name`.
    pub fn tag(&self, name: &str) -> String {
        let def = &self.defs[self.index[name]].1;
        let union = def.lines().any(|l| l.starts_with("union"));
        format!("{} {name}", if union { "union" } else { "struct" })
    }

    /// The definitions `name` needs, in order, with `name` last.
    pub fn closure(&self, name: &str) -> String {
        self.closure_of([name])
    }

    /// Whether `name` is a definition of this generator (record, typedef or vector).
    pub fn has_def(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The definitions all of `names` need, in definition order.
    pub fn closure_of<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> String {
        let mut seen = std::collections::HashSet::new();
        let mut todo: Vec<usize> = Vec::new();
        for n in names {
            let i = self.index[n];
            if seen.insert(i) {
                todo.push(i);
            }
        }
        while let Some(i) = todo.pop() {
            for d in &self.deps[i] {
                let j = self.index[d.as_str()];
                if seen.insert(j) {
                    todo.push(j);
                }
            }
        }
        let mut order: Vec<usize> = seen.into_iter().collect();
        order.sort_unstable();
        order
            .into_iter()
            .map(|i| format!("{}\n", self.defs[i].1))
            .collect()
    }

    /// All definitions in order.
    pub fn all_defs(&self) -> String {
        self.defs.iter().map(|(_, t)| format!("{t}\n")).collect()
    }
}
