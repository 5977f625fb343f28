//! Random signatures (x86-64 SysV or AAPCS64) with the values each argument and the
//! result carry: the byte image of every value (distinct random bytes, made valid: `_Bool`
//! 0/1, floats normal), the mask of its value bits (padding is not compared), and tags
//! naming the kinds of types and passing the signature uses (for the exclusion list and
//! the report). On AArch64 a third of the records are homogeneous aggregates (HFAs and
//! HVAs of up to 4 members, nested and in arrays, and some of 5 or 6 that are none).

use super::gen::{Features, Gen, Rng};
use neverc_abi::{
    layout, plan_call, record_layout, Flags, FloatKind, IntKind, Machine, Place, Signature, Type,
};
use neverc_target::Arch;
use std::collections::BTreeSet;

/// Everything gcc accepts on x86-64 and on AArch64 Linux.
pub const FEATURES: Features = Features {
    int128: true,
    float16: true,
    empty_records: true,
    attributes: true,
    bitfields: true,
    vectors: true,
    long_double: true,
};

pub struct Case {
    /// C spelling of each parameter type, and of the result type.
    pub c_types: Vec<String>,
    pub c_ret: String,
    /// Number of named parameters when the function is variadic.
    pub variadic: Option<usize>,
    pub images: Vec<Vec<u8>>,
    pub masks: Vec<Vec<u8>>,
    pub aligns: Vec<u32>,
    pub ret_image: Vec<u8>,
    pub ret_mask: Vec<u8>,
    pub ret_align: u32,
    pub is_void: bool,
    /// Generated type names the signature uses (records, vector typedefs).
    pub deps: Vec<String>,
    /// `arg:<kind>`, `va:<kind>`, `ret:<kind>` and `sig:<kind>` tags.
    pub tags: BTreeSet<String>,
    /// The call plan, as text, for the report.
    pub plan: String,
}

/// For each byte of a value: which bits carry it (1) or are padding (0).
pub fn significance(ty: &Type, m: Machine, base: usize, mask: &mut [u8]) {
    let l = layout(ty, m);
    match ty {
        Type::Void => {}
        // x87 extended precision: 10 bytes of 16 (AArch64's binary128 fills all 16).
        Type::Float(FloatKind::LongDouble) if m.arch == Arch::X86_64 => {
            mask[base..base + 10].fill(0xff)
        }
        Type::Complex(k) => {
            let half = l.size as usize / 2;
            significance(&Type::Float(*k), m, base, mask);
            significance(&Type::Float(*k), m, base + half, mask);
        }
        Type::Array(e, n) => {
            let es = layout(e, m).size as usize;
            for i in 0..*n as usize {
                significance(e, m, base + i * es, mask);
            }
        }
        Type::Aligned(t, _) => significance(t, m, base, mask),
        Type::Record(r) => {
            let rl = record_layout(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                if f.bits.is_some() {
                    // An unnamed bit-field is padding.
                    if f.name.is_none() {
                        continue;
                    }
                    for bit in fl.bit_offset..fl.bit_offset + fl.bit_size {
                        mask[base + (bit / 8) as usize] |= 1 << (bit % 8);
                    }
                } else {
                    significance(&f.ty, m, base + fl.offset() as usize, mask);
                }
            }
        }
        _ => mask[base..base + l.size as usize].fill(0xff),
    }
}

/// Makes random bytes a valid value: `_Bool` 0/1, floats normal (no NaN canonicalisation
/// or x87 unnormals can blur the comparison).
fn sanitize(ty: &Type, m: Machine, base: usize, bytes: &mut [u8], rng: &mut Rng) {
    let l = layout(ty, m);
    let normal = |b: &mut u8, rng: &mut Rng| *b = 0x30 + rng.below(0x20) as u8;
    match ty {
        Type::Bool => bytes[base] &= 1,
        Type::Float(k) | Type::Complex(k) => {
            let n = if matches!(ty, Type::Complex(_)) { 2 } else { 1 };
            let s = l.size as usize / n;
            for i in 0..n {
                let at = base + i * s;
                match (k, s) {
                    (FloatKind::LongDouble, 16) if m.arch == Arch::X86_64 => {
                        bytes[at + 7] |= 0x80; // explicit integer bit
                        normal(&mut bytes[at + 9], rng);
                    }
                    (_, 2) => bytes[at + 1] = 0x30 + rng.below(0x10) as u8,
                    _ => normal(&mut bytes[at + s - 1], rng),
                }
            }
        }
        Type::Array(e, n) => {
            let es = layout(e, m).size as usize;
            for i in 0..*n as usize {
                sanitize(e, m, base + i * es, bytes, rng);
            }
        }
        Type::Vector(e, _) => {
            let es = layout(e, m).size as usize;
            for i in 0..l.size as usize / es {
                sanitize(e, m, base + i * es, bytes, rng);
            }
        }
        Type::Aligned(t, _) => sanitize(t, m, base, bytes, rng),
        Type::Record(r) => {
            let rl = record_layout(r, m);
            for (f, fl) in r.fields.iter().zip(&rl.fields) {
                if f.bits.is_none() {
                    sanitize(&f.ty, m, base + fl.offset() as usize, bytes, rng);
                }
            }
        }
        _ => {}
    }
}

/// A random value of `t` and the mask of its value bits.
fn image(t: &Type, m: Machine, rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let size = layout(t, m).size as usize;
    let mut bytes: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
    sanitize(t, m, 0, &mut bytes, rng);
    let mut mask = vec![0u8; size];
    significance(t, m, 0, &mut mask);
    (bytes, mask)
}

/// Kinds of a type, with `pos` (`arg`, `va`, `ret`) in front.
fn type_tags(t: &Type, m: Machine, pos: &str, top: bool, tags: &mut BTreeSet<String>) {
    let mut tag = |k: &str| {
        tags.insert(format!("{pos}:{k}"));
        // A scalar passed or returned as itself (not inside a record).
        if top && !matches!(t, Type::Record(_)) {
            tags.insert(format!("{pos}:scalar_{k}"));
        }
    };
    match t {
        Type::Void => tag("void"),
        Type::Bool => tag("bool"),
        Type::Int(IntKind::Int128 | IntKind::UInt128) => tag("int128"),
        Type::Int(_) => tag("int"),
        Type::Float(FloatKind::Float16) => tag("float16"),
        Type::Float(FloatKind::LongDouble) => tag("long_double"),
        Type::Float(_) => tag("float"),
        Type::Complex(FloatKind::LongDouble) => tag("complex_long_double"),
        Type::Complex(FloatKind::Float16) => tag("complex_float16"),
        Type::Complex(_) => tag("complex"),
        Type::Pointer => tag("pointer"),
        Type::Vector(..) => tag("vector"),
        Type::Array(e, n) => {
            if *n > 1 && matches!(**e, Type::Record(_)) {
                let natural = natural_align(e, m);
                if natural > 1 && !layout(e, m).size.is_multiple_of(natural) {
                    // Members of the later elements lie misaligned (FINDINGS.md F9).
                    tag("array_of_misaligning_records");
                }
            }
            type_tags(e, m, pos, false, tags)
        }
        Type::Aligned(e, _) => {
            tag("aligned_typedef");
            type_tags(e, m, pos, false, tags)
        }
        Type::Record(r) => {
            tag(if r.is_union { "union" } else { "struct" });
            if top {
                tag(if r.is_union {
                    "top_union"
                } else {
                    "top_struct"
                });
            }
            if r.fields.is_empty() {
                tag("empty_record");
            }
            if r.packed || r.pack.is_some() || r.fields.iter().any(|f| f.packed) {
                tag("packed");
            }
            if r.align.is_some() || r.fields.iter().any(|f| f.align.is_some()) {
                tag("aligned");
            }
            if r.fields.iter().any(|f| f.bits.is_some()) {
                tag("bitfield");
            }
            if r.fields
                .iter()
                .any(|f| f.bits.is_some_and(|w| w > 0) && f.name.is_none() && f.packed)
            {
                tag("unnamed_packed_bitfield");
            }
            for f in &r.fields {
                if f.bits.is_none() {
                    type_tags(&f.ty, m, pos, false, tags);
                }
            }
        }
        _ => tag("other"),
    }
}

/// The largest natural alignment of the scalars in `t` (not counting bit-fields, packing
/// or `aligned`).
fn natural_align(t: &Type, m: Machine) -> u64 {
    match t {
        Type::Aligned(e, _) | Type::Array(e, _) => natural_align(e, m),
        Type::Record(r) => r
            .fields
            .iter()
            .filter(|f| f.bits.is_none())
            .map(|f| natural_align(&f.ty, m))
            .max()
            .unwrap_or(1),
        Type::Void => 1,
        _ => layout(t, m).align as u64,
    }
}

/// Whether a record member of `t` (at byte `at` of the argument) is a union of 2, 4, 8
/// or 16 bytes at an offset that is not a multiple of its size (FINDINGS.md F6).
fn misaligned_union(t: &Type, m: Machine, at: u64) -> bool {
    match t {
        Type::Aligned(e, _) => misaligned_union(e, m, at),
        Type::Array(e, n) => {
            let es = layout(e, m).size;
            (0..*n).any(|i| misaligned_union(e, m, at + i * es))
        }
        Type::Record(r) => {
            let size = layout(t, m).size;
            if r.is_union && [2, 4, 8, 16].contains(&size) && !at.is_multiple_of(size) {
                return true;
            }
            // Also a union with a member (a bit-field too, named or not) whose declared
            // type's natural alignment the union's offset does not respect.
            if r.is_union
                && r.fields.iter().any(|f| {
                    let a = if f.bits.is_some() {
                        layout(&f.ty, m).align as u64
                    } else {
                        natural_align(&f.ty, m)
                    };
                    !at.is_multiple_of(a)
                })
            {
                return true;
            }
            let rl = record_layout(r, m);
            r.fields
                .iter()
                .zip(&rl.fields)
                .any(|(f, fl)| f.bits.is_none() && misaligned_union(&f.ty, m, at + fl.offset()))
        }
        _ => false,
    }
}

/// A record for an argument or the result, and whether it was made homogeneous. On
/// x86-64 always [`Gen::record`] (the draws of a seed stay those of the first runs); on
/// AArch64 a third are homogeneous aggregates of floats, doubles, binary128 `long double`s
/// or 8- and 16-byte vectors: 1 to 4 elements mostly (HFA/HVA), sometimes 5 or 6 (just
/// too many: general registers or a copy by reference).
fn record(gen: &mut Gen, rng: &mut Rng, m: Machine) -> (Type, String, bool) {
    if m.arch == Arch::AArch64 && rng.chance(33) {
        let base = match rng.below(9) {
            0..=2 => (Type::float(), "float".to_string()),
            3..=5 => (Type::double(), "double".to_string()),
            6 => (Type::long_double(), "long double".to_string()),
            _ => gen.vector(rng),
        };
        let count = if rng.chance(85) {
            1 + rng.below(4)
        } else {
            5 + rng.below(2)
        };
        let (t, name) = gen.homogeneous(rng, &base, count, 0);
        let c = gen.tag(&name);
        return (t, c, true);
    }
    let (t, name) = gen.record(rng, 1, false);
    (t, gen.tag(&name), false)
}

/// Whether `t` holds (at any depth) an array of which `elem` is true.
fn has_array(t: &Type, elem: &dyn Fn(&Type, u64) -> bool) -> bool {
    match t {
        Type::Array(e, n) => elem(e, *n) || has_array(e, elem),
        Type::Aligned(e, _) => has_array(e, elem),
        Type::Record(r) => r.fields.iter().any(|f| has_array(&f.ty, elem)),
        _ => false,
    }
}

/// A random signature that neverc-abi can plan, with its values.
pub fn gen_case(gen: &mut Gen, rng: &mut Rng, m: Machine) -> Case {
    loop {
        // Often many arguments, so that some go on the stack.
        let max = match rng.below(10) {
            0..=2 => 16,
            3..=4 => 10,
            _ => 6,
        };
        let n = 1 + rng.below(max) as usize;
        let variadic = rng
            .chance(20)
            .then(|| 1 + rng.below(n as u64) as usize)
            .filter(|&k| k < n);
        let mut params = Vec::new();
        let mut c_types = Vec::new();
        // Positions (the result: `n`) holding a generated homogeneous aggregate.
        let mut homogeneous = BTreeSet::new();
        for i in 0..n {
            let vararg = variadic.is_some_and(|k| i >= k);
            let (t, c) = if rng.chance(40) {
                let (t, c, h) = record(gen, rng, m);
                if h {
                    homogeneous.insert(i);
                }
                (t, c)
            } else if vararg && m.arch == Arch::AArch64 && rng.chance(25) {
                // AAPCS64 passes these variadic arguments in SIMD registers as named
                // ones (complex numbers as HFAs of two, vectors as themselves).
                match rng.below(4) {
                    0 => gen.vector(rng),
                    k => {
                        let f = [FloatKind::Float, FloatKind::Double, FloatKind::LongDouble]
                            [k as usize - 1];
                        (
                            Type::Complex(f),
                            format!("_Complex {}", super::gen::float_c(f)),
                        )
                    }
                }
            } else if vararg {
                // Types that survive the default argument promotions.
                let choices = [
                    (Type::int(), "int"),
                    (Type::Int(IntKind::UInt), "unsigned"),
                    (Type::Int(IntKind::Long), "long"),
                    (Type::Int(IntKind::ULongLong), "unsigned long long"),
                    (Type::Int(IntKind::Int128), "__int128"),
                    (Type::double(), "double"),
                    (Type::Pointer, "void *"),
                    (Type::long_double(), "long double"),
                ];
                let (t, c) = rng.pick(&choices).clone();
                (t, c.to_string())
            } else {
                gen.scalar(rng)
            };
            params.push(t);
            c_types.push(c);
        }
        let (ret, c_ret) = match rng.below(10) {
            0..=1 => (Type::Void, "void".to_string()),
            2..=6 => {
                let (t, c, h) = record(gen, rng, m);
                if h {
                    homogeneous.insert(n);
                }
                (t, c)
            }
            _ => gen.scalar(rng),
        };
        let sig = Signature {
            ret,
            params,
            variadic,
        };
        let Ok(plan) = plan_call(m, &sig) else {
            continue;
        };
        let is_void = sig.ret == Type::Void;
        let (ret_image, ret_mask) = if is_void {
            (vec![], vec![])
        } else {
            image(&sig.ret, m, rng)
        };
        let (images, masks): (Vec<_>, Vec<Vec<u8>>) =
            sig.params.iter().map(|t| image(t, m, rng)).unzip();
        let mut tags = BTreeSet::new();
        for (i, t) in sig.params.iter().enumerate() {
            let pos = if variadic.is_some_and(|k| i >= k) {
                "va"
            } else {
                "arg"
            };
            type_tags(t, m, pos, true, &mut tags);
        }
        type_tags(&sig.ret, m, "ret", true, &mut tags);
        for &i in &homogeneous {
            let pos = if i == n {
                "ret"
            } else if variadic.is_some_and(|k| i >= k) {
                "va"
            } else {
                "arg"
            };
            tags.insert(format!("{pos}:homogeneous"));
        }
        if variadic.is_some() {
            tags.insert("sig:variadic".into());
        }
        for (i, t) in sig.params.iter().enumerate() {
            if misaligned_union(t, m, 0) {
                tags.insert("arg:misaligned_union_member".into());
            }
            // A variadic record aligned to 16 in general registers (gcc's own va_arg
            // loads it with movdqa from wherever it lies in the save area: G1).
            if m.arch == Arch::X86_64
                && variadic.is_some_and(|k| i >= k)
                && matches!(t, Type::Record(_))
                && layout(t, m).align >= 16
                && plan
                    .arguments
                    .iter()
                    .any(|l| l.value as usize == i && matches!(l.place, Place::Reg(r) if r < 16))
            {
                tags.insert("va:record_align16_in_gpr".into());
            }
        }
        for (i, (t, mask)) in sig.params.iter().zip(&masks).enumerate() {
            // A variadic record of no value bits (only unnamed bit-fields): gcc passes
            // nothing (FINDINGS.md F10).
            if variadic.is_some_and(|k| i >= k)
                && matches!(t, Type::Record(_))
                && !mask.is_empty()
                && mask.iter().all(|&b| b == 0)
            {
                tags.insert("va:dataless_record".into());
            }
        }
        if misaligned_union(&sig.ret, m, 0) {
            tags.insert("ret:misaligned_union_member".into());
        }
        // AArch64: a 16-byte result record holding an array of vectors and a zero-length
        // array (`struct { V m0[2]; int z[0]; }`, V of 8 bytes): gcc 12 stops with an
        // internal compiler error in reload when it returns one (G2).
        if m.arch == Arch::AArch64
            && matches!(sig.ret, Type::Record(_))
            && layout(&sig.ret, m).size == 16
            && has_array(&sig.ret, &|_, n| n == 0)
            && has_array(&sig.ret, &|e, _| matches!(e, Type::Vector(..)))
        {
            tags.insert("ret:vector_array_and_zero_length_array".into());
        }
        // A piece of more than 8 bytes in an xmm register (DWARF 17-32): a vector of 16
        // bytes, alone or as a record's SSE+SSEUP eightbytes (once finding F2, fixed).
        let wide_xmm = |l: &neverc_abi::Location| {
            m.arch == Arch::X86_64
                && matches!(l.place, Place::Reg(r) if (17..=32).contains(&r))
                && l.size > 8
        };
        // AArch64: a record in SIMD registers (v0-v7 are 64-71), an argument on the
        // stack aligned to 16.
        if m.arch == Arch::AArch64 {
            for l in &plan.arguments {
                let i = l.value as usize;
                let pos = if variadic.is_some_and(|k| i >= k) {
                    "va"
                } else {
                    "arg"
                };
                if matches!(l.place, Place::Reg(r) if r >= 64)
                    && matches!(sig.params.get(i), Some(Type::Record(_)))
                {
                    tags.insert(format!("{pos}:record_in_simd"));
                }
                if matches!(l.place, Place::Stack(_)) && l.align >= 16 {
                    tags.insert(format!("{pos}:stack_align16"));
                }
            }
            if plan
                .returns
                .iter()
                .any(|l| matches!(l.place, Place::Reg(r) if r >= 64))
                && matches!(sig.ret, Type::Record(_))
            {
                tags.insert("ret:record_in_simd".into());
            }
        }
        for l in plan.arguments.iter().filter(|l| wide_xmm(l)) {
            let va = variadic.is_some_and(|k| l.value as usize >= k);
            tags.insert(format!("{}:wide_xmm_piece", if va { "va" } else { "arg" }));
        }
        if plan.returns.iter().any(wide_xmm) {
            tags.insert("ret:wide_xmm_piece".into());
        }
        for l in &plan.arguments {
            if matches!(l.place, Place::Stack(_)) {
                tags.insert("sig:stack_args".into());
            }
            if l.flags.contains(Flags::BYREF) {
                tags.insert("sig:byref".into());
            }
        }
        if plan.returns.iter().any(|l| l.flags.contains(Flags::SRET)) {
            tags.insert("sig:sret".into());
            if variadic.is_some() {
                tags.insert("sig:variadic_sret".into());
            }
        }
        let mut deps = Vec::new();
        for t in c_types.iter().chain([&c_ret]) {
            if let Some(name) = t
                .strip_prefix("struct ")
                .or_else(|| t.strip_prefix("union "))
            {
                deps.push(name.to_string());
            } else if t.starts_with('V') {
                deps.push(t.clone());
            }
        }
        return Case {
            aligns: sig.params.iter().map(|t| layout(t, m).align).collect(),
            ret_align: layout(&sig.ret, m).align,
            c_types,
            c_ret,
            variadic,
            images,
            masks,
            ret_image,
            ret_mask,
            is_void,
            deps,
            tags,
            plan: plan.to_string(),
        };
    }
}
