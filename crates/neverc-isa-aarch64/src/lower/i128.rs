//! `__int128` values: each is a pair of 64-bit vregs (low, high). Addition and subtraction
//! are `adds`/`adc` and `subs`/`sbc` chains, multiplication `mul`/`umulh` plus the cross
//! products by `madd`, constant shifts `extr` and shifts of the halves, equality
//! `cmp`/`ccmp`, order `cmp`/`sbcs`. Division, remainder, variable shifts and conversions
//! to and from floating point call libgcc (`__divti3`, `__ashlti3`, `__floattidf`, ...),
//! which takes and returns an `__int128` in x0 (low) and x1 (high) as AAPCS64 says.
//!
//! Every register a sequence reads is a late use: the sequences write one half before
//! they read the other operand's.

use super::*;
use neverc_ir::libgcc::{self, SecondOperand};

impl<'a> Lower<'a> {
    /// Whether the instruction must take the __int128 path (its result or a stored or
    /// converted operand is an i128; compares are handled in `compare`).
    pub(super) fn involves_i128(&self, op: &Op, res: Option<Value>) -> bool {
        if res.is_some_and(|r| self.ty(r) == Type::I128) {
            return true;
        }
        match op {
            Op::Store { value, .. } => self.ty(*value) == Type::I128,
            Op::Conv { arg, .. } => self.ty(*arg) == Type::I128,
            _ => false,
        }
    }

    /// The value of an i128 constant, or of a narrower constant extended to i128 (those
    /// extensions are no instruction: their uses materialise the value).
    pub(super) fn const128(&self, v: Value) -> Option<i128> {
        match self.def_of(v) {
            Some(Op::Iconst { ty, imm }) if *ty == Type::I128 => Some(imm.get()),
            Some(Op::Conv {
                op: op @ (ConvOp::Sext | ConvOp::Zext),
                arg,
                to: Type::I128,
            }) => {
                let c = self.const_of(*arg)?;
                let from = self.ty(*arg);
                Some(if *op == ConvOp::Zext && from.bytes() < 8 {
                    (c as u64 & ((1u64 << (from.bytes() * 8)) - 1)) as i128
                } else if *op == ConvOp::Zext {
                    c as u64 as i128
                } else {
                    c as i128
                })
            }
            _ => None,
        }
    }

    /// A constant shift count: an integer constant, or one extended to the shifted type.
    fn shift_count(&self, v: Value) -> Option<i128> {
        if let Some(c) = self.const_of(v) {
            return Some(c as i128);
        }
        self.const128(v)
    }

    /// The (low, high) vregs of an i128 value, materialising constants here.
    pub(super) fn pair(&mut self, v: Value) -> Result<(VReg, VReg), BackendError> {
        if let Some(imm) = self.const128(v) {
            let (lo, hi) = (self.gtemp(), self.gtemp());
            for (r, half) in [(lo, imm as u64), (hi, (imm >> 64) as u64)] {
                let mut b = B::default();
                let d = b.def_g(r);
                for i in mov_const(d, Size::X, half) {
                    b.i(i);
                }
                self.emit(b);
            }
            return Ok((lo, hi));
        }
        if self.ty(v) != Type::I128 {
            return Err(self.err("an __int128 operation on a narrower value"));
        }
        let lo = match self.vregs[v.index()] {
            Some(r) => r,
            None => {
                let r = self.gtemp();
                self.vregs[v.index()] = Some(r);
                r
            }
        };
        let hi = match self.hi[v.index()] {
            Some(r) => r,
            None => {
                let r = self.gtemp();
                self.hi[v.index()] = Some(r);
                r
            }
        };
        Ok((lo, hi))
    }

    /// The two memory operands of the halves at `addr + off`, or one pair address
    /// (`ldp`/`stp`) when the offset allows it.
    fn pair_mem(&mut self, b: &mut B, addr: Value, off: i64) -> Result<PairMem, BackendError> {
        let a = self.mem(b, addr, off, 8)?;
        let (base, o) = match a {
            Addr::UImm { base, off } => (base, off as i64),
            Addr::Unscaled { base, off } => (base, off as i64),
            _ => {
                let a2 = self.mem(b, addr, off + 8, 8)?;
                return Ok(PairMem::Two(a, a2));
            }
        };
        if (-512..=504).contains(&o) && o % 8 == 0 {
            return Ok(PairMem::Pair(base, o as i32));
        }
        match mem_at(base, o + 8, 8) {
            Some(a2) => Ok(PairMem::Two(a, a2)),
            None => {
                let a2 = self.mem(b, addr, off + 8, 8)?;
                Ok(PairMem::Two(a, a2))
            }
        }
    }

    pub(super) fn lower_i128(&mut self, op: &Op, res: Option<Value>) -> Result<(), BackendError> {
        if res.is_some_and(|r| self.ty(r) == Type::I128 && self.const128(r).is_some()) {
            return Ok(());
        }
        match *op {
            Op::Iconst { .. } => Ok(()),
            Op::Load { addr, offset, .. } => {
                let (lo, hi) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let m = self.pair_mem(&mut b, addr, offset as i64)?;
                // The address is read after the low half is written.
                late_uses(&mut b);
                let (l, h) = (b.def_g(lo), b.def_g(hi));
                m.access(&mut b, true, l, h);
                self.emit(b);
                Ok(())
            }
            Op::Store {
                value,
                addr,
                offset,
                ..
            } => {
                let (lo, hi) = self.pair(value)?;
                let mut b = B::default();
                let (l, h) = (b.use_g(lo), b.use_g(hi));
                let m = self.pair_mem(&mut b, addr, offset as i64)?;
                m.access(&mut b, false, l, h);
                self.emit(b);
                Ok(())
            }
            Op::Unary { op, arg } => {
                let (al, ah) = self.pair(arg)?;
                let (dl, dh) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                match op {
                    UnaryOp::Not => {
                        for (d, s) in [(ol, l), (oh, h)] {
                            b.i(Inst::LogicShift {
                                op: LogicOp::Orr,
                                not: true,
                                size: Size::X,
                                rd: d,
                                rn: Gpr::ZR,
                                rm: s,
                                shift: Shift::Lsl,
                                amount: 0,
                            });
                        }
                    }
                    UnaryOp::Neg => {
                        b.i(Inst::AluShift {
                            op: AddSub::Sub,
                            flags: true,
                            size: Size::X,
                            rd: ol,
                            rn: Gpr::ZR,
                            rm: l,
                            shift: Shift::Lsl,
                            amount: 0,
                        });
                        b.i(Inst::Carry {
                            op: AddSub::Sub,
                            flags: false,
                            size: Size::X,
                            rd: oh,
                            rn: Gpr::ZR,
                            rm: h,
                        });
                    }
                    UnaryOp::FNeg => return Err(self.err("a float negation of __int128")),
                }
                self.emit(b);
                Ok(())
            }
            Op::Binary { op, a, b: bv } => self.i128_binary(op, a, bv, res.unwrap()),
            Op::Conv { op, arg, to } => self.i128_conv(op, arg, to, res.unwrap()),
            Op::Select { cond, a, b: bv } => {
                let (al, ah) = self.pair(a)?;
                let (bl, bh) = self.pair(bv)?;
                let (dl, dh) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let c = self.cond_flags(&mut b, cond)?;
                late_uses(&mut b);
                let (al, ah) = (b.late_g(al), b.late_g(ah));
                let (bl, bh) = (b.late_g(bl), b.late_g(bh));
                let (l, h) = (b.def_g(dl), b.def_g(dh));
                for (d, x, y) in [(l, al, bl), (h, ah, bh)] {
                    b.i(Inst::CondSel {
                        op: CselOp::Csel,
                        size: Size::X,
                        rd: d,
                        rn: x,
                        rm: y,
                        cond: c,
                    });
                }
                self.emit(b);
                Ok(())
            }
            _ => Err(self.err("this __int128 operation")),
        }
    }

    /// A libgcc helper taking `args` in fixed registers and returning its result in `rets`.
    fn libcall_regs(&mut self, name: &str, args: &[(VReg, PReg)], rets: &[(VReg, PReg)]) {
        let sym = (self.libcall)(name);
        // libgcc keeps only AAPCS64's callee-saved registers: under a custom `csr:` set
        // the prologue saves the others this function must preserve.
        self.note_callee(&custom_cc::standard_callee_saved());
        let mut b = B::default();
        for &(v, p) in args {
            b.fixed_use(v, p);
        }
        b.i(Inst::Bl(Target::Sym(sym, 0)));
        for &(v, p) in rets {
            b.fixed_def(v, p);
        }
        let mut clobbers = PRegSet::empty();
        for p in gpr_allocatable().into_iter().chain(fpr_allocatable()) {
            let kept = p.class() == RegClass::Int && (19..29).contains(&p.hw_enc());
            if !kept && !rets.iter().any(|&(_, r)| r == p) {
                clobbers.add(p);
            }
        }
        let mut vi = b.vinst();
        vi.clobbers = clobbers;
        self.push(vi);
    }

    fn i128_binary(
        &mut self,
        op: BinaryOp,
        a: Value,
        bv: Value,
        r: Value,
    ) -> Result<(), BackendError> {
        let (al, ah) = self.pair(a)?;
        let (dl, dh) = self.pair(r)?;
        let mut b = B::default();
        match op {
            BinaryOp::Add | BinaryOp::Sub => {
                let (bl, bh) = self.pair(bv)?;
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (sl, sh) = (b.late_g(bl), b.late_g(bh));
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                let o = if op == BinaryOp::Add {
                    AddSub::Add
                } else {
                    AddSub::Sub
                };
                b.i(Inst::AluShift {
                    op: o,
                    flags: true,
                    size: Size::X,
                    rd: ol,
                    rn: l,
                    rm: sl,
                    shift: Shift::Lsl,
                    amount: 0,
                });
                b.i(Inst::Carry {
                    op: o,
                    flags: false,
                    size: Size::X,
                    rd: oh,
                    rn: h,
                    rm: sh,
                });
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let (bl, bh) = self.pair(bv)?;
                let lop = match op {
                    BinaryOp::And => LogicOp::And,
                    BinaryOp::Or => LogicOp::Orr,
                    _ => LogicOp::Eor,
                };
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (sl, sh) = (b.late_g(bl), b.late_g(bh));
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                for (d, x, y) in [(ol, l, sl), (oh, h, sh)] {
                    b.i(Inst::LogicShift {
                        op: lop,
                        not: false,
                        size: Size::X,
                        rd: d,
                        rn: x,
                        rm: y,
                        shift: Shift::Lsl,
                        amount: 0,
                    });
                }
            }
            BinaryOp::Mul => {
                // lo = al*bl; hi = umulh(al, bl) + al*bh + ah*bl.
                let (bl, bh) = self.pair(bv)?;
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (sl, sh) = (b.late_g(bl), b.late_g(bh));
                let t = self.gtemp();
                let t = b.early_g(t);
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                let mul3 = |op, rd, rn, rm, ra| Inst::Mul3 {
                    op,
                    size: Size::X,
                    rd,
                    rn,
                    rm,
                    ra,
                };
                b.i(mul3(Mul3Op::Umulh, t, l, sl, Gpr::ZR));
                b.i(mul3(Mul3Op::Madd, t, l, sh, t));
                b.i(mul3(Mul3Op::Madd, oh, h, sl, t));
                b.i(mul3(Mul3Op::Madd, ol, l, sl, Gpr::ZR));
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr if self.shift_count(bv).is_some() => {
                let n = (self.shift_count(bv).unwrap() & 127) as u8;
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                shift_const(&mut b, op, n, l, h, ol, oh);
            }
            BinaryOp::Shl
            | BinaryOp::LShr
            | BinaryOp::AShr
            | BinaryOp::SDiv
            | BinaryOp::UDiv
            | BinaryOp::SRem
            | BinaryOp::URem => {
                let (name, second) = libgcc::int128_binary(op).expect("a libgcc operation");
                let mut args = vec![(al, preg_gpr(0)), (ah, preg_gpr(1))];
                match second {
                    // The count is an int (w2); only its low bits matter.
                    SecondOperand::Count => {
                        let n = if self.ty(bv) == Type::I128 {
                            self.pair(bv)?.0
                        } else {
                            self.reg(bv)?
                        };
                        args.push((n, preg_gpr(2)));
                    }
                    SecondOperand::Int128 => {
                        let (bl, bh) = self.pair(bv)?;
                        args.push((bl, preg_gpr(2)));
                        args.push((bh, preg_gpr(3)));
                    }
                }
                self.libcall_regs(name, &args, &[(dl, preg_gpr(0)), (dh, preg_gpr(1))]);
                return Ok(());
            }
            _ => return Err(self.err("this __int128 operation")),
        }
        self.emit(b);
        Ok(())
    }

    fn i128_conv(
        &mut self,
        op: ConvOp,
        arg: Value,
        to: Type,
        r: Value,
    ) -> Result<(), BackendError> {
        let from = self.ty(arg);
        let mut b = B::default();
        match (from, to) {
            (Type::I128, Type::I128) => {
                let (al, ah) = self.pair(arg)?;
                let (dl, dh) = self.pair(r)?;
                let (l, h) = (b.late_g(al), b.late_g(ah));
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                b.i(Inst::mov(Size::X, ol, l));
                b.i(Inst::mov(Size::X, oh, h));
            }
            (Type::I128, Type::F128) if op == ConvOp::Bitcast => {
                let (al, ah) = self.pair(arg)?;
                let d = self.vreg(r)?;
                let (l, h) = (b.use_g(al), b.late_g(ah));
                let dv = b.def_v(d);
                b.i(Inst::FMovFromGpr {
                    size: FSize::D,
                    rd: dv,
                    rn: l,
                });
                b.i(Inst::FMovTop {
                    to_gpr: false,
                    g: h,
                    v: dv,
                });
            }
            (Type::F128, Type::I128) if op == ConvOp::Bitcast => {
                let a = self.reg(arg)?;
                let (dl, dh) = self.pair(r)?;
                let x = b.late_v(a);
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                b.i(Inst::FMovToGpr {
                    size: FSize::D,
                    rd: ol,
                    rn: x,
                });
                b.i(Inst::FMovTop {
                    to_gpr: true,
                    g: oh,
                    v: x,
                });
            }
            (Type::I128, _) if to.is_int() && matches!(op, ConvOp::Trunc | ConvOp::Bitcast) => {
                let (al, _) = self.pair(arg)?;
                let d = self.vreg(r)?;
                let l = b.use_g(al);
                let o = b.def_g(d);
                b.i(Inst::mov(Size::X, o, l));
            }
            (Type::I128, Type::F32 | Type::F64 | Type::F128)
                if matches!(op, ConvOp::SToF | ConvOp::UToF) =>
            {
                let name = libgcc::int128_float_conversion(from, to, op == ConvOp::SToF)
                    .expect("a libgcc conversion");
                let (al, ah) = self.pair(arg)?;
                let d = self.vreg(r)?;
                self.libcall_regs(
                    name,
                    &[(al, preg_gpr(0)), (ah, preg_gpr(1))],
                    &[(d, preg_fpr(0))],
                );
                return Ok(());
            }
            (Type::F32 | Type::F64 | Type::F128, Type::I128)
                if matches!(op, ConvOp::FToS | ConvOp::FToU) =>
            {
                let name = libgcc::int128_float_conversion(from, to, op == ConvOp::FToS)
                    .expect("a libgcc conversion");
                let a = self.reg(arg)?;
                let (dl, dh) = self.pair(r)?;
                self.libcall_regs(
                    name,
                    &[(a, preg_fpr(0))],
                    &[(dl, preg_gpr(0)), (dh, preg_gpr(1))],
                );
                return Ok(());
            }
            (_, Type::I128) if from.is_int() && matches!(op, ConvOp::Sext | ConvOp::Zext) => {
                let signed = op == ConvOp::Sext;
                let a = self.reg(arg)?;
                let (dl, dh) = self.pair(r)?;
                let x = b.late_g(a);
                let (ol, oh) = (b.def_g(dl), b.def_g(dh));
                if matches!(from, Type::I64 | Type::Ptr) {
                    b.i(Inst::mov(Size::X, ol, x));
                } else if from == Type::I32 && !signed {
                    b.i(Inst::mov(Size::W, ol, x));
                } else {
                    b.i(Inst::extend(signed, Size::X, ol, x, bits(from)));
                }
                if signed {
                    b.i(Inst::shr_imm(true, Size::X, oh, ol, 63));
                } else {
                    b.i(Inst::mov(Size::X, oh, Gpr::ZR));
                }
            }
            _ => {
                return Err(self.err(&format!(
                    "a {op:?} conversion from {from:?} to {to:?} with __int128"
                )))
            }
        }
        self.emit(b);
        Ok(())
    }

    /// Flags for an i128 compare; the condition that holds when it is true.
    pub(super) fn compare_i128(
        &mut self,
        b: &mut B,
        cc: IntCC,
        a: Value,
        bv: Value,
    ) -> Result<Cond, BackendError> {
        // a > b is b < a: the borrow chain orders only one way.
        let (x, y, cc) = match cc {
            IntCC::Sgt => (bv, a, IntCC::Slt),
            IntCC::Sle => (bv, a, IntCC::Sge),
            IntCC::Ugt => (bv, a, IntCC::Ult),
            IntCC::Ule => (bv, a, IntCC::Uge),
            _ => (a, bv, cc),
        };
        let (xl, xh) = self.pair(x)?;
        let (yl, yh) = self.pair(y)?;
        let (xl, xh) = (b.use_g(xl), b.use_g(xh));
        let (yl, yh) = (b.use_g(yl), b.use_g(yh));
        b.i(Inst::cmp(Size::X, xl, yl));
        if matches!(cc, IntCC::Eq | IntCC::Ne) {
            // High halves compared only when the low ones are equal; otherwise "not equal".
            b.i(Inst::CondCmp {
                op: AddSub::Sub,
                size: Size::X,
                rn: xh,
                rm: RegOrImm5::Reg(yh),
                nzcv: 0,
                cond: Cond::Eq,
            });
        } else {
            b.i(Inst::Carry {
                op: AddSub::Sub,
                flags: true,
                size: Size::X,
                rd: Gpr::ZR,
                rn: xh,
                rm: yh,
            });
        }
        Ok(int_cond(cc))
    }

    /// Flags for "an i128 value is not zero" (condition `ne`).
    pub(super) fn test_i128(&mut self, b: &mut B, v: Value) -> Result<Cond, BackendError> {
        let (l, h) = self.pair(v)?;
        let (l, h) = (b.use_g(l), b.use_g(h));
        b.i(Inst::cmp(Size::X, l, Gpr::ZR));
        b.i(Inst::CondCmp {
            op: AddSub::Sub,
            size: Size::X,
            rn: h,
            rm: RegOrImm5::Imm(0),
            nzcv: 0,
            cond: Cond::Eq,
        });
        Ok(Cond::Ne)
    }
}

/// Where the two halves of an i128 live in memory.
enum PairMem {
    Pair(Gpr, i32),
    Two(Addr, Addr),
}

impl PairMem {
    fn access(&self, b: &mut B, load: bool, l: Gpr, h: Gpr) {
        match *self {
            PairMem::Pair(base, off) => b.i(Inst::Pair {
                load,
                class: PairClass::X,
                rt: Reg::G(l),
                rt2: Reg::G(h),
                base,
                off,
                mode: PairMode::Offset,
            }),
            PairMem::Two(a1, a2) => {
                let op = if load { MemOp::LdrX } else { MemOp::StrX };
                b.i(Inst::Mem {
                    op,
                    rt: Reg::G(l),
                    addr: a1,
                });
                b.i(Inst::Mem {
                    op,
                    rt: Reg::G(h),
                    addr: a2,
                });
            }
        }
    }
}

/// Turns every use recorded so far into a late use.
fn late_uses(b: &mut B) {
    for o in b.ops.iter_mut() {
        if o.kind() == OperandKind::Use && o.pos() == OperandPos::Early {
            *o = Operand::new(o.vreg(), o.constraint(), OperandKind::Use, OperandPos::Late);
        }
    }
}

/// Shift of (l, h) by a constant 0..127 into (ol, oh); the sources are late uses.
fn shift_const(b: &mut B, op: BinaryOp, n: u8, l: Gpr, h: Gpr, ol: Gpr, oh: Gpr) {
    let extr = |rd, lsb| Inst::Extr {
        size: Size::X,
        rd,
        rn: h,
        rm: l,
        lsb,
    };
    let mov = |d, s| Inst::mov(Size::X, d, s);
    match (op, n) {
        (_, 0) => {
            b.i(mov(ol, l));
            b.i(mov(oh, h));
        }
        (BinaryOp::Shl, 1..=63) => {
            b.i(extr(oh, 64 - n));
            b.i(Inst::lsl_imm(Size::X, ol, l, n));
        }
        (BinaryOp::Shl, _) => {
            b.i(Inst::lsl_imm(Size::X, oh, l, n - 64));
            b.i(mov(ol, Gpr::ZR));
        }
        (_, 1..=63) => {
            b.i(extr(ol, n));
            b.i(Inst::shr_imm(op == BinaryOp::AShr, Size::X, oh, h, n));
        }
        (BinaryOp::AShr, _) => {
            b.i(Inst::shr_imm(true, Size::X, ol, h, n - 64));
            b.i(Inst::shr_imm(true, Size::X, oh, h, 63));
        }
        _ => {
            b.i(Inst::shr_imm(false, Size::X, ol, h, n - 64));
            b.i(mov(oh, Gpr::ZR));
        }
    }
}
