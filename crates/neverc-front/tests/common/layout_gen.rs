//! A generator of random struct and union declarations for the layout check against gcc
//! (tests/layout_vs_gcc.rs): nested records (earlier ones, inline named ones, anonymous
//! members), arrays of one and two dimensions, bit-fields of every width of every integer
//! type (zero-width, unnamed, `packed` and `aligned` ones included), `packed` records and
//! members, `aligned` records, members and bit-fields, `_Alignas`, `#pragma pack(N)`,
//! flexible array members, and every scalar kind the target has.

#![allow(dead_code)]

use neverc_target::{Arch, Os, Target};

/// A small deterministic generator (SplitMix64), so a seed names one set of types.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True with probability `pct` percent.
    pub fn pct(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// A scalar type: its spelling and, for integer types, the width a bit-field of it may have.
#[derive(Clone, Debug)]
pub struct Scalar {
    pub spelling: &'static str,
    pub int_bits: Option<u32>,
    /// Whether arrays of it may be declared: not for an `aligned` typedef whose size is no
    /// multiple of its alignment (gcc: "alignment of array elements is greater than
    /// element size").
    pub array_ok: bool,
}

/// The scalar kinds of `target` (`__int128` only where it exists).
pub fn scalars(target: &Target) -> Vec<Scalar> {
    let dm = &target.data_model;
    let short_enums = target.arch == Arch::Arm && target.os == Os::None;
    let int = |spelling, bytes: u32| Scalar {
        spelling,
        int_bits: Some(bytes * 8),
        array_ok: true,
    };
    let other = |spelling| Scalar {
        spelling,
        int_bits: None,
        array_ok: true,
    };
    // The `aligned` typedefs of PRELUDE (raising and lowering alignments).
    let typedef = |spelling, array_ok| Scalar {
        spelling,
        int_bits: None,
        array_ok,
    };
    let mut v = vec![
        int("char", 1),
        int("signed char", 1),
        int("unsigned char", 1),
        int("short", dm.short.size),
        int("unsigned short", dm.short.size),
        int("int", dm.int.size),
        int("unsigned", dm.int.size),
        int("long", dm.long.size),
        int("unsigned long", dm.long.size),
        int("long long", dm.long_long.size),
        int("unsigned long long", dm.long_long.size),
        Scalar {
            spelling: "_Bool",
            int_bits: Some(1),
            array_ok: true,
        },
        // `enum E { EA, EB = 1000 }` and `enum Es { ES = 1 }`: unsigned int (int on avr),
        // except that arm-none-eabi-gcc defaults to -fshort-enums (2 and 1 bytes).
        int("enum E", if short_enums { 2 } else { dm.int.size }),
        int("enum Es", if short_enums { 1 } else { dm.int.size }),
        other("float"),
        other("double"),
        other("long double"),
        other("void *"),
        other("void (*)(void)"),
        other("_Complex float"),
        other("_Complex double"),
        other("_Complex long double"),
        typedef("Ia16", false),
        typedef("Sa8", false),
        typedef("Ca4", false),
        typedef("Ra8", false),
        typedef("Dl2", true),
        typedef("Ll1", true),
        typedef("Ia2", dm.int.size.is_multiple_of(2)),
    ];
    // Generic vectors of 8, 16 and 32 bytes: gcc lays a vector out at the alignment of its
    // size (x86-64, MIPS o32, RISC-V, avr; Arm caps it at 8, AArch64 at 16) while C11
    // `_Alignof` caps an alignment the user did not give at BIGGEST_ALIGNMENT
    // (neverc_abi::c11_alignof), so both are checked here. Not yet the vectors wider than
    // BIGGEST_ALIGNMENT on RISC-V (32 bytes) and MIPS o32 (16 and 32): their gcc's `_Alignof`
    // of a record holding one and a user alignment nested in a member record is capped in
    // cases x86-64's is not (which nested alignments count differs by target and is not
    // modelled; sizes and offsets agree).
    v.push(other("Sv4"));
    if target.arch != Arch::Mips32 {
        v.push(other("Fv4"));
    }
    if !matches!(target.arch, Arch::Riscv64 | Arch::Riscv32 | Arch::Mips32) {
        v.push(other("Iv8"));
    }
    if dm.int128.is_some() {
        v.push(int("__int128", 16));
        v.push(int("unsigned __int128", 16));
    }
    v
}

/// One generated record.
#[derive(Clone, Debug)]
pub struct GenType {
    /// `struct t5`, `union t6`.
    pub name: String,
    /// Its full declaration, ending in `;` (in `#pragma pack(push, N)` ... `pop` lines for
    /// some); earlier types it names are declared before it.
    pub decl: String,
    /// `offsetof` designators of its members, in declaration order: every named member
    /// that is not a bit-field (members of anonymous struct/union members included), the
    /// last element of each array member (`f2[3][1]`) and up to three members of each
    /// nested record member (`f4.f0`, `f5[1].f2`).
    pub members: Vec<String>,
    /// Nesting depth (1: only scalars inside).
    depth: u32,
    /// Ends in a flexible array member (never nested in another record).
    flex: bool,
}

/// Text that must precede the generated declarations: the enums, the vectors and the
/// typedefs with `aligned` (gcc: the typedef's alignment becomes exactly N, raised or
/// lowered; its size stays).
pub const PRELUDE: &str = "enum E { EA, EB = 1000 };\nenum Es { ES = 1 };
typedef short Sv4 __attribute__((vector_size(8)));
typedef float Fv4 __attribute__((vector_size(16)));
typedef int Iv8 __attribute__((vector_size(32)));
typedef int Ia16 __attribute__((aligned(16)));
typedef short Sa8 __attribute__((aligned(8)));
typedef char Ca4 __attribute__((aligned(4)));
typedef struct { char c[3]; } Ra8 __attribute__((aligned(8)));
typedef double Dl2 __attribute__((aligned(2)));
typedef long long Ll1 __attribute__((aligned(1)));
typedef Ia16 Ia2 __attribute__((aligned(2)));
";

/// A member declarator with an optional `aligned`/`packed` attribute.
fn attrs(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.pct(10) {
        s.push_str(" __attribute__((packed))");
    }
    if rng.pct(10) {
        let a = rng.pick(&[1, 2, 4, 8, 16, 32]);
        s.push_str(&format!(" __attribute__((aligned({a})))"));
    }
    s
}

struct Builder<'a> {
    rng: &'a mut Rng,
    scalars: &'a [Scalar],
    earlier: &'a [GenType],
    members: Vec<String>,
    next: u32,
    depth: u32,
}

impl Builder<'_> {
    fn fresh(&mut self) -> String {
        let n = format!("f{}", self.next);
        self.next += 1;
        n
    }

    fn array_suffix(&mut self) -> String {
        let mut s = String::new();
        if self.rng.pct(20) {
            s.push_str(&format!("[{}]", 1 + self.rng.below(4)));
            if self.rng.pct(20) {
                s.push_str(&format!("[{}]", 1 + self.rng.below(3)));
            }
        }
        s
    }

    /// A bit-field member (named or not, zero width possible).
    fn bitfield(&mut self) -> String {
        let ints: Vec<&Scalar> = self
            .scalars
            .iter()
            .filter(|s| s.int_bits.is_some())
            .collect();
        let s = *self.rng.pick(&ints);
        let max = s.int_bits.unwrap() as u64;
        let zero = self.rng.pct(12);
        let w = if zero {
            0
        } else if self.rng.pct(30) {
            max
        } else {
            1 + self.rng.below(max)
        };
        let named = !zero && self.rng.pct(80);
        let mut packed = if self.rng.pct(8) {
            " __attribute__((packed))".to_string()
        } else {
            String::new()
        };
        if !zero && self.rng.pct(5) {
            let a = self.rng.pick(&[1, 2, 4, 8, 16]);
            packed.push_str(&format!(" __attribute__((aligned({a})))"));
        }
        if named {
            let n = self.fresh();
            format!("{} {n} : {w}{packed};", s.spelling)
        } else {
            format!("{} : {w};", s.spelling)
        }
    }

    /// A member of any kind; `top` members may be bit-fields and anonymous records.
    fn member(&mut self, level: u32) -> String {
        let r = self.rng.below(100);
        if r < 25 {
            return self.bitfield();
        }
        if r < 35 && level < 2 {
            // An inline struct or union: anonymous member or named.
            let kind = if self.rng.pct(50) { "struct" } else { "union" };
            let anon = self.rng.pct(60);
            let name = if anon { None } else { Some(self.fresh()) };
            let saved = std::mem::take(&mut self.members);
            let n = 1 + self.rng.below(4);
            let mut body = String::new();
            for _ in 0..n {
                body.push(' ');
                body.push_str(&self.member(level + 1));
            }
            let inner = std::mem::replace(&mut self.members, saved);
            let packed = if self.rng.pct(10) {
                "__attribute__((packed)) "
            } else {
                ""
            };
            self.depth = self.depth.max(level + 2);
            return match name {
                None => {
                    // Members of an anonymous member are members of the enclosing record.
                    self.members.extend(inner);
                    format!("{kind} {packed}{{{body} }};")
                }
                Some(n) => {
                    let at = attrs(self.rng);
                    let arr = if self.rng.pct(15) { "[2]" } else { "" };
                    self.members.push(n.clone());
                    let base = if arr.is_empty() {
                        n.clone()
                    } else {
                        format!("{n}[1]")
                    };
                    for m in inner.iter().take(3) {
                        self.members.push(format!("{base}.{m}"));
                    }
                    format!("{kind} {packed}{{{body} }} {n}{arr}{at};")
                }
            };
        }
        if r < 48 {
            let usable: Vec<&GenType> = self
                .earlier
                .iter()
                .rev()
                .take(40)
                .filter(|t| !t.flex && t.depth < 4)
                .collect();
            if !usable.is_empty() {
                let t = *self.rng.pick(&usable);
                self.depth = self.depth.max(t.depth + 1);
                let n = self.fresh();
                let arr = if self.rng.pct(15) {
                    format!("[{}]", 1 + self.rng.below(3))
                } else {
                    String::new()
                };
                let at = attrs(self.rng);
                self.members.push(n.clone());
                // Designators through the member: `f3.f1`, `f3[2].f0`.
                let base = match last_element(&arr) {
                    Some(last) => {
                        self.members.push(format!("{n}{last}"));
                        format!("{n}{last}")
                    }
                    None => n.clone(),
                };
                for m in t.members.iter().take(3) {
                    self.members.push(format!("{base}.{m}"));
                }
                return format!("{} {n}{arr}{at};", t.name);
            }
        }
        let scalar = self.rng.pick(self.scalars);
        let s = scalar.spelling;
        let n = self.fresh();
        let mut arr = self.array_suffix();
        if !scalar.array_ok {
            arr.clear();
        }
        let at = attrs(self.rng);
        self.members.push(n.clone());
        if let Some(last) = last_element(&arr) {
            self.members.push(format!("{n}{last}"));
        }
        // `_Alignas` may only raise the alignment; 16 is at least every scalar's.
        let alignas = if self.rng.pct(4) { "_Alignas(16) " } else { "" };
        if s == "void (*)(void)" {
            format!("{alignas}void (*{n}{arr})(void){at};")
        } else {
            format!("{alignas}{s} {n}{arr}{at};")
        }
    }
}

/// The designator of the last element of an array suffix (`[3][2]`: `[2][1]`).
fn last_element(arr: &str) -> Option<String> {
    if arr.is_empty() {
        return None;
    }
    let mut s = String::new();
    for dim in arr
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split("][")
    {
        let n: u64 = dim.parse().unwrap();
        s.push_str(&format!("[{}]", n - 1));
    }
    Some(s)
}

/// Generates `count` records named `t{first}`, `t{first+1}`, ... for `target`; each may
/// nest earlier ones of the same batch.
pub fn generate(seed: u64, first: usize, count: usize, target: &Target) -> Vec<GenType> {
    let mut rng = Rng::new(seed ^ (first as u64).wrapping_mul(0x1000_0000_01b3));
    let scalars = scalars(target);
    let mut out: Vec<GenType> = Vec::with_capacity(count);
    for i in first..first + count {
        let union = rng.pct(30);
        let kind = if union { "union" } else { "struct" };
        let pack = if rng.pct(8) {
            Some(*rng.pick(&[1, 2, 4, 8, 16]))
        } else {
            None
        };
        let mut rec_attrs = String::new();
        if rng.pct(15) {
            rec_attrs.push_str("__attribute__((packed)) ");
        }
        if rng.pct(8) {
            let a = rng.pick(&[1, 2, 4, 8, 16, 32]);
            rec_attrs.push_str(&format!("__attribute__((aligned({a}))) "));
        }
        let mut b = Builder {
            rng: &mut rng,
            scalars: &scalars,
            earlier: &out,
            members: Vec::new(),
            next: 0,
            depth: 1,
        };
        let n = 1 + b.rng.below(8);
        let mut body = String::new();
        for _ in 0..n {
            body.push(' ');
            body.push_str(&b.member(0));
        }
        if b.members.is_empty() {
            // gcc wants a named member (for a flexible array too).
            let n = b.fresh();
            b.members.push(n.clone());
            body.push_str(&format!(" char {n};"));
        }
        let flex = !union && b.rng.pct(10);
        if flex {
            let scalar = b.rng.pick(b.scalars);
            let s = scalar.spelling;
            if s == "void (*)(void)" || !scalar.array_ok {
                body.push_str(" int flex[];");
            } else {
                body.push_str(&format!(" {s} flex[];"));
            }
            b.members.push("flex".into());
        }
        let members = std::mem::take(&mut b.members);
        let depth = b.depth;
        let name = format!("{kind} t{i}");
        let mut decl = format!("{kind} {rec_attrs}t{i} {{{body} }};");
        if let Some(p) = pack {
            decl = format!("#pragma pack(push, {p})\n{decl}\n#pragma pack(pop)");
        }
        out.push(GenType {
            decl,
            name,
            members,
            depth,
            flex,
        });
    }
    out
}
