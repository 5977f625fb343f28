//! Exactly rounded software floating point for constant folding in formats the host
//! has no type for: x87 extended precision and IEEE binary128 (`long double` on
//! x86-64 and on AArch64/RISC-V). Folding `1.0L / 3` through `f64` would lose eleven
//! bits, so every operation here computes the exact result with big integers and
//! rounds it once, to nearest with ties to even, as the target's hardware does.

use std::cmp::Ordering;

/// A binary floating-point format: `precision` significand bits (the leading one
/// included) and the exponent of its smallest and largest normal numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub precision: u32,
    pub emin: i32,
    pub emax: i32,
}

/// x87 80-bit extended precision (explicit leading bit).
pub const X87: Format = Format {
    precision: 64,
    emin: -16382,
    emax: 16383,
};
/// IEEE binary128.
pub const BINARY128: Format = Format {
    precision: 113,
    emin: -16382,
    emax: 16383,
};
/// IEEE binary64 (`double`).
pub const BINARY64: Format = Format {
    precision: 53,
    emin: -1022,
    emax: 1023,
};
/// IEEE binary32 (`float`).
pub const BINARY32: Format = Format {
    precision: 24,
    emin: -126,
    emax: 127,
};

/// Wide enough for every integer up to 128 bits and for the exact difference of
/// any two values of the formats above, short of the extremes of the exponent range.
pub const EXACT_WIDE: Format = Format {
    precision: 128,
    emin: -40000,
    emax: 40000,
};

/// A value of some format: finite values are `mant * 2^exp` with `mant` below
/// `2^precision` (normalised unless subnormal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoftFloat {
    Zero { neg: bool },
    Finite { neg: bool, mant: u128, exp: i32 },
    Inf { neg: bool },
    NaN,
}

use SoftFloat::*;

impl SoftFloat {
    /// The exact value of a double.
    pub fn from_f64(v: f64) -> SoftFloat {
        let bits = v.to_bits();
        let neg = bits >> 63 == 1;
        let e = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        match e {
            0x7ff if frac != 0 => NaN,
            0x7ff => Inf { neg },
            0 if frac == 0 => Zero { neg },
            0 => Finite {
                neg,
                mant: frac as u128,
                exp: -1074,
            },
            _ => Finite {
                neg,
                mant: (frac | 1 << 52) as u128,
                exp: e - 1075,
            },
        }
    }

    /// An integer rounded to `fmt`.
    pub fn from_int(neg: bool, magnitude: u128, fmt: Format) -> SoftFloat {
        round(neg, Big::from_u128(magnitude), &Big::one(), 0, fmt)
    }

    pub fn neg(self) -> SoftFloat {
        match self {
            Zero { neg } => Zero { neg: !neg },
            Finite { neg, mant, exp } => Finite {
                neg: !neg,
                mant,
                exp,
            },
            Inf { neg } => Inf { neg: !neg },
            NaN => NaN,
        }
    }

    pub fn is_zero(self) -> bool {
        matches!(self, Zero { .. })
    }

    /// `self` rounded to another format (exact when it widens).
    pub fn convert(self, fmt: Format) -> SoftFloat {
        match self {
            Finite { neg, mant, exp } => {
                round(neg, Big::from_u128(mant), &Big::one(), exp as i64, fmt)
            }
            v => v,
        }
    }

    pub fn add(self, o: SoftFloat, fmt: Format) -> SoftFloat {
        match (self, o) {
            (NaN, _) | (_, NaN) => NaN,
            (Inf { neg: a }, Inf { neg: b }) if a != b => NaN,
            (Inf { neg }, _) | (_, Inf { neg }) => Inf { neg },
            (Zero { neg: a }, Zero { neg: b }) => Zero { neg: a && b },
            (Zero { .. }, v) | (v, Zero { .. }) => v.convert(fmt),
            (
                Finite {
                    neg: na,
                    mant: ma,
                    exp: ea,
                },
                Finite {
                    neg: nb,
                    mant: mb,
                    exp: eb,
                },
            ) => {
                // Both at the smaller exponent: exact big integers.
                let e = ea.min(eb);
                let mut a = Big::from_u128(ma);
                a.shl((ea - e) as u32);
                let mut b = Big::from_u128(mb);
                b.shl((eb - e) as u32);
                let (neg, sum) = if na == nb {
                    a.add(&b);
                    (na, a)
                } else {
                    match a.cmp(&b) {
                        Ordering::Equal => return Zero { neg: false },
                        Ordering::Greater => {
                            a.sub(&b);
                            (na, a)
                        }
                        Ordering::Less => {
                            b.sub(&a);
                            (nb, b)
                        }
                    }
                };
                round(neg, sum, &Big::one(), e as i64, fmt)
            }
        }
    }

    pub fn sub(self, o: SoftFloat, fmt: Format) -> SoftFloat {
        self.add(o.neg(), fmt)
    }

    pub fn mul(self, o: SoftFloat, fmt: Format) -> SoftFloat {
        let neg = self.sign() != o.sign();
        match (self, o) {
            (NaN, _) | (_, NaN) => NaN,
            (Inf { .. }, Zero { .. }) | (Zero { .. }, Inf { .. }) => NaN,
            (Inf { .. }, _) | (_, Inf { .. }) => Inf { neg },
            (Zero { .. }, _) | (_, Zero { .. }) => Zero { neg },
            (
                Finite {
                    mant: ma, exp: ea, ..
                },
                Finite {
                    mant: mb, exp: eb, ..
                },
            ) => {
                let p = Big::from_u128(ma).mul(&Big::from_u128(mb));
                round(neg, p, &Big::one(), ea as i64 + eb as i64, fmt)
            }
        }
    }

    pub fn div(self, o: SoftFloat, fmt: Format) -> SoftFloat {
        let neg = self.sign() != o.sign();
        match (self, o) {
            (NaN, _) | (_, NaN) => NaN,
            (Inf { .. }, Inf { .. }) | (Zero { .. }, Zero { .. }) => NaN,
            (Inf { .. }, _) | (_, Zero { .. }) => Inf { neg },
            (Zero { .. }, _) | (_, Inf { .. }) => Zero { neg },
            (
                Finite {
                    mant: ma, exp: ea, ..
                },
                Finite {
                    mant: mb, exp: eb, ..
                },
            ) => round(
                neg,
                Big::from_u128(ma),
                &Big::from_u128(mb),
                ea as i64 - eb as i64,
                fmt,
            ),
        }
    }

    fn sign(self) -> bool {
        match self {
            Zero { neg } | Finite { neg, .. } | Inf { neg } => neg,
            NaN => false,
        }
    }

    /// The ordering of two values; None when either is a NaN.
    pub fn compare(self, o: SoftFloat) -> Option<Ordering> {
        if matches!(self, NaN) || matches!(o, NaN) {
            return None;
        }
        // The sign of the difference, in a format where a nonzero one stays nonzero.
        Some(match self.sub(o, EXACT_WIDE) {
            Zero { .. } => Ordering::Equal,
            v if v.sign() => Ordering::Less,
            _ => Ordering::Greater,
        })
    }

    /// Truncation toward zero, saturating at the limits of `i128` (the caller
    /// saturates to the C type). NaN gives 0.
    pub fn to_int(self) -> i128 {
        match self {
            Zero { .. } | NaN => 0,
            Inf { neg } => {
                if neg {
                    i128::MIN
                } else {
                    i128::MAX
                }
            }
            Finite { neg, mant, exp } => {
                let m = if exp >= 0 {
                    if exp >= 128 || mant.leading_zeros() < exp as u32 {
                        u128::MAX
                    } else {
                        mant << exp
                    }
                } else if exp <= -128 {
                    0
                } else {
                    mant >> -exp
                };
                if neg {
                    (m.min(1u128 << 127) as i128).wrapping_neg()
                } else {
                    m.min(i128::MAX as u128) as i128
                }
            }
        }
    }

    /// The nearest double.
    pub fn to_f64(self) -> f64 {
        match self.convert(BINARY64) {
            Zero { neg } => {
                if neg {
                    -0.0
                } else {
                    0.0
                }
            }
            Inf { neg } => {
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                }
            }
            NaN => f64::NAN,
            Finite { neg, mant, exp } => {
                // mant * 2^exp is exactly a double: scale in two steps to stay in range.
                let v = (mant as f64) * 2f64.powi(exp / 2) * 2f64.powi(exp - exp / 2);
                if neg {
                    -v
                } else {
                    v
                }
            }
        }
    }

    /// The x87 80-bit encoding (in the low 80 bits) of `self` rounded to [`X87`].
    pub fn to_x87_bits(self) -> u128 {
        let (sign, biased, mant) = self.encode(X87);
        // The leading bit is explicit: set for normal numbers, infinities and NaNs.
        let lead = if biased != 0 { 1u128 << 63 } else { 0 };
        let mant = match self {
            NaN => 1u128 << 62,
            _ => mant & ((1u128 << 63) - 1),
        };
        (sign << 79) | (biased << 64) | lead | mant
    }

    /// The IEEE binary128 encoding of `self` rounded to [`BINARY128`].
    pub fn to_binary128_bits(self) -> u128 {
        let (sign, biased, mant) = self.encode(BINARY128);
        let mant = match self {
            NaN => 1u128 << 111,
            _ => mant & ((1u128 << 112) - 1),
        };
        (sign << 127) | (biased << 112) | mant
    }

    /// Sign, biased exponent and significand bits (leading bit in place) in `fmt`,
    /// whose exponent bias is `emax`.
    fn encode(self, fmt: Format) -> (u128, u128, u128) {
        let max_biased = (2 * fmt.emax + 1) as u128;
        match self.convert(fmt) {
            Zero { neg } => (neg as u128, 0, 0),
            Inf { neg } => (neg as u128, max_biased, 0),
            NaN => (0, max_biased, 0),
            Finite { neg, mant, exp } => {
                let top = 127 - mant.leading_zeros() as i32; // exponent of the leading bit
                let lead = top + exp;
                if lead < fmt.emin {
                    // Subnormal: the significand at the smallest exponent.
                    let lsb = fmt.emin - (fmt.precision as i32 - 1);
                    (neg as u128, 0, mant >> (lsb - exp))
                } else {
                    let shift = fmt.precision as i32 - 1 - top;
                    let m = if shift >= 0 {
                        mant << shift
                    } else {
                        mant >> -shift
                    };
                    (neg as u128, (lead + fmt.emax) as u128, m)
                }
            }
        }
    }

    /// A decimal or hexadecimal floating literal (suffixes and digit separators
    /// allowed) rounded to `fmt`; None for text that is not one.
    pub fn parse(text: &str, fmt: Format) -> Option<SoftFloat> {
        // Suffixes: f, l, w, q and the imaginary i/j of GNU complex literals.
        let t = text.trim_end_matches(['f', 'F', 'l', 'L', 'w', 'W', 'q', 'Q', 'i', 'I', 'j', 'J']);
        let t = t.replace('\'', "");
        let (hex, body) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(b) => (true, b),
            None => (false, t.as_str()),
        };
        let (mant, exp) = match body.find(if hex { ['p', 'P'] } else { ['e', 'E'] }) {
            Some(i) => (&body[..i], body[i + 1..].parse::<i64>().ok()?),
            None => (body, 0),
        };
        let radix: u32 = if hex { 16 } else { 10 };
        let mut d = Big::zero();
        let mut frac_digits: i64 = 0;
        let mut after = false;
        for c in mant.chars() {
            if c == '.' {
                after = true;
                continue;
            }
            d.mul_small(radix);
            d.add_small(c.to_digit(radix)?);
            if after {
                frac_digits += 1;
            }
        }
        if d.is_zero() {
            return Some(Zero { neg: false });
        }
        // value = D * 2^e2 * 5^e5 (decimal: 10^k = 2^k 5^k; hex: 16^k = 2^4k).
        let (e2, e5) = if hex {
            (exp - 4 * frac_digits, 0i64)
        } else {
            let k = exp - frac_digits;
            (k, k)
        };
        // Far outside every format: the result is zero or infinity anyway.
        if e5 > 6000 || e2 > 30000 {
            return Some(Inf { neg: false });
        }
        if e5 < -6000 || e2 < -30000 {
            return Some(Zero { neg: false });
        }
        let mut den = Big::one();
        if e5 >= 0 {
            for _ in 0..e5 {
                d.mul_small(5);
            }
        } else {
            for _ in 0..-e5 {
                den.mul_small(5);
            }
        }
        Some(round(false, d, &den, e2, fmt))
    }
}

/// `num / den * 2^e2`, rounded to nearest (ties to even) in `fmt`.
fn round(neg: bool, mut num: Big, den: &Big, mut e2: i64, fmt: Format) -> SoftFloat {
    if num.is_zero() {
        return Zero { neg };
    }
    let p = fmt.precision as i64;
    // Scale so that the quotient has at least p + 2 bits: its top p bits, a rounding
    // bit and the remainder's stickiness then decide the result.
    let shift = p + 2 + den.bits() as i64 - num.bits() as i64;
    if shift > 0 {
        num.shl(shift as u32);
        e2 -= shift;
    }
    let (q, exact) = num.div(den);
    let qbits = q.bits() as i64;
    let lead = e2 + qbits - 1; // exponent of the leading bit
    if lead > fmt.emax as i64 {
        return Inf { neg };
    }
    // The exponent of the last kept bit: p bits below the leading one, or the
    // subnormal floor.
    let lsb = (lead - (p - 1)).max(fmt.emin as i64 - (p - 1));
    let drop = (lsb - e2) as u32;
    let (mut mant, round_bit, sticky) = q.low_bits_from(drop);
    let sticky = sticky || !exact;
    let mut exp = lsb;
    if round_bit && (sticky || mant & 1 == 1) {
        // Rounding up can carry into bit p (bit 128 itself for a 128-bit format).
        match mant.checked_add(1) {
            Some(m) if p >= 128 || m >> p == 0 => mant = m,
            Some(m) => {
                mant = m >> 1;
                exp += 1;
            }
            None => {
                mant = 1 << 127;
                exp += 1;
            }
        }
    }
    if mant == 0 {
        return Zero { neg };
    }
    if exp + 127 - mant.leading_zeros() as i64 > fmt.emax as i64 {
        return Inf { neg };
    }
    Finite {
        neg,
        mant,
        exp: exp as i32,
    }
}

/// Just enough unsigned big-integer arithmetic for exact rounding.
#[derive(Clone, Debug)]
pub(crate) struct Big(Vec<u32>);

impl Big {
    pub(crate) fn zero() -> Big {
        Big(vec![])
    }
    pub(crate) fn one() -> Big {
        Big(vec![1])
    }
    fn from_u128(v: u128) -> Big {
        let mut b = Big((0..4).map(|k| (v >> (32 * k)) as u32).collect());
        b.trim();
        b
    }
    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    pub(crate) fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for x in self.0.iter_mut() {
            let v = *x as u64 * k as u64 + carry;
            *x = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    pub(crate) fn add_small(&mut self, k: u32) {
        self.add(&Big(vec![k]));
    }
    fn add(&mut self, o: &Big) {
        if self.0.len() < o.0.len() {
            self.0.resize(o.0.len(), 0);
        }
        let mut carry = 0u64;
        for i in 0..self.0.len() {
            let v = self.0[i] as u64 + *o.0.get(i).unwrap_or(&0) as u64 + carry;
            self.0[i] = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }
    fn mul(&self, o: &Big) -> Big {
        let mut out = vec![0u32; self.0.len() + o.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let v = out[i + j] as u64 + a as u64 * b as u64 + carry;
                out[i + j] = v as u32;
                carry = v >> 32;
            }
            out[i + o.0.len()] = carry as u32;
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    fn bits(&self) -> u32 {
        match self.0.iter().rposition(|&x| x != 0) {
            None => 0,
            Some(i) => i as u32 * 32 + (32 - self.0[i].leading_zeros()),
        }
    }
    fn bit(&self, i: u32) -> bool {
        let w = (i / 32) as usize;
        w < self.0.len() && (self.0[w] >> (i % 32)) & 1 == 1
    }
    fn shl(&mut self, n: u32) {
        let words = (n / 32) as usize;
        let bits = n % 32;
        let mut out = vec![0u32; words];
        out.reserve(self.0.len() + 1);
        let mut carry = 0u32;
        for &x in &self.0 {
            if bits == 0 {
                out.push(x);
            } else {
                out.push((x << bits) | carry);
                carry = x >> (32 - bits);
            }
        }
        if carry != 0 {
            out.push(carry);
        }
        self.0 = out;
    }
    fn cmp(&self, o: &Big) -> Ordering {
        let (n, m) = (self.bits(), o.bits());
        if n != m {
            return n.cmp(&m);
        }
        let words = n.div_ceil(32) as usize;
        (0..words)
            .rev()
            .map(|i| self.0[i].cmp(&o.0[i]))
            .find(|c| *c != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    }
    fn sub(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = self.0[i] as i64 - borrow - *o.0.get(i).unwrap_or(&0) as i64;
            borrow = (v < 0) as i64;
            self.0[i] = v.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }
    /// Quotient by shift-and-subtract long division, and whether the remainder is zero.
    fn div(&self, d: &Big) -> (Big, bool) {
        if d.bits() == 1 {
            return (self.clone(), true);
        }
        let n = self.bits();
        let mut q = Big(vec![0; (n as usize / 32) + 1]);
        let mut r = Big::zero();
        for i in (0..n).rev() {
            r.shl(1);
            if self.bit(i) {
                if r.0.is_empty() {
                    r.0.push(0);
                }
                r.0[0] |= 1;
            }
            if r.cmp(d) != Ordering::Less {
                r.sub(d);
                q.0[(i / 32) as usize] |= 1 << (i % 32);
            }
        }
        q.trim();
        (q, r.is_zero())
    }
    /// The bits from `drop` up (at most 128 of them), the highest dropped bit, and
    /// whether any lower dropped bit is set.
    fn low_bits_from(&self, drop: u32) -> (u128, bool, bool) {
        let mut m = 0u128;
        for k in 0..128 {
            if self.bit(drop + k) {
                m |= 1 << k;
            }
        }
        let round = drop > 0 && self.bit(drop - 1);
        let sticky = (0..drop.saturating_sub(1)).any(|i| self.bit(i));
        (m, round, sticky)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x87(text: &str) -> u128 {
        SoftFloat::parse(text, X87).unwrap().to_x87_bits()
    }

    #[test]
    fn x87_literals_round_to_nearest() {
        // 1/3 = 0x3ffd aaaaaaaaaaaaaaab (the last bit rounded up).
        let third = SoftFloat::from_int(false, 1, X87).div(SoftFloat::from_int(false, 3, X87), X87);
        assert_eq!(third.to_x87_bits(), 0x3ffd_aaaa_aaaa_aaaa_aaab);
        assert_eq!(x87("0.1L"), 0x3ffb_cccc_cccc_cccc_cccd);
        assert_eq!(x87("1.0"), 0x3fff_8000_0000_0000_0000);
        assert_eq!(x87("0x1p-16445L"), 1); // the smallest subnormal
        assert_eq!(x87("1e5000L"), 0x7fff_8000_0000_0000_0000);
    }

    #[test]
    fn integers_wider_than_double_convert_exactly() {
        let v = SoftFloat::from_int(false, u64::MAX as u128, X87);
        assert_eq!(v.to_x87_bits(), 0x403e_ffff_ffff_ffff_ffff);
        assert_eq!(v.to_int(), u64::MAX as i128);
        // 2^64 + 1 needs 65 bits: ties to even gives 2^64.
        let w = SoftFloat::from_int(false, (1u128 << 64) + 1, X87);
        assert_eq!(w.to_x87_bits(), 0x403f_8000_0000_0000_0000);
    }

    #[test]
    fn the_widest_format_keeps_128_bits() {
        // Every bit of a 128-bit integer survives EXACT_WIDE; all ones rounds up to 2^128
        // when a wider value is rounded to 128 bits.
        let v = SoftFloat::from_int(false, u128::MAX, EXACT_WIDE);
        assert_eq!(
            v,
            Finite {
                neg: false,
                mant: u128::MAX,
                exp: 0
            }
        );
        let w = v.add(SoftFloat::from_f64(0.5), EXACT_WIDE);
        assert_eq!(
            w,
            Finite {
                neg: false,
                mant: 1 << 127,
                exp: 1
            }
        );
        let one = SoftFloat::from_int(false, 1, EXACT_WIDE);
        assert_eq!(one.convert(X87).to_x87_bits(), 0x3fff_8000_0000_0000_0000);
    }

    #[test]
    fn arithmetic_rounds_once() {
        let a = SoftFloat::parse("0.1", X87).unwrap();
        let b = SoftFloat::parse("0.2", X87).unwrap();
        let s = a.add(b, X87);
        assert_eq!(s.to_x87_bits(), 0x3ffd_9999_9999_9999_999a);
        assert_eq!(s.sub(s, X87), Zero { neg: false });
        assert_eq!(a.compare(b), Some(Ordering::Less));
        assert_eq!(SoftFloat::NaN.compare(a), None);
        // Doubles convert exactly and come back unchanged.
        for v in [0.1, -3.5e-310, 1e308, 5e-324] {
            assert_eq!(SoftFloat::from_f64(v).convert(X87).to_f64(), v);
        }
        // binary128: 1/3.
        let t = SoftFloat::from_int(false, 1, BINARY128)
            .div(SoftFloat::from_int(false, 3, BINARY128), BINARY128);
        assert_eq!(
            t.to_binary128_bits(),
            0x3ffd_5555_5555_5555_5555_5555_5555_5555
        );
        assert_eq!(
            SoftFloat::from_int(true, 2, BINARY128).to_binary128_bits(),
            0xc000_0000_0000_0000_0000_0000_0000_0000
        );
    }
}
