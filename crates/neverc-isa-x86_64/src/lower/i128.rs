//! `__int128` values: each is a pair of 64-bit vregs (low, high). Addition and subtraction
//! use carry chains, multiplication the 64×64→128 `mul` plus the cross products, constant
//! shifts shift-and-or, compares `cmp`/`sbb` (ordered) or `xor`/`or` (equality); division,
//! remainder and variable shifts call libgcc (`__divti3`, `__ashlti3`, ...).

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

    /// The (low, high) vregs of an i128 value, materialising constants here.
    pub(super) fn pair(&mut self, v: Value) -> Result<(VReg, VReg), BackendError> {
        if let Some(Op::Iconst { imm, .. }) = self.def_of(v) {
            let imm = imm.get();
            let lo = self.new_vreg(RegClass::Int);
            let hi = self.new_vreg(RegClass::Int);
            let mut b = B::default();
            let l = b.def_g(lo);
            let h = b.def_g(hi);
            b.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Imm(imm as i64),
                dst: Rm::Reg(l),
            });
            b.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Imm((imm >> 64) as i64),
                dst: Rm::Reg(h),
            });
            self.emit(b);
            return Ok((lo, hi));
        }
        if self.ty(v) != Type::I128 {
            return Err(self.err("an __int128 operation on a narrower value"));
        }
        let lo = match self.vregs[v.index()] {
            Some(r) => r,
            None => {
                let r = self.new_vreg(RegClass::Int);
                self.vregs[v.index()] = Some(r);
                r
            }
        };
        let hi = match self.hi.get(&v) {
            Some(&r) => r,
            None => {
                let r = self.new_vreg(RegClass::Int);
                self.hi.insert(v, r);
                r
            }
        };
        Ok((lo, hi))
    }

    pub(super) fn lower_i128(&mut self, op: &Op, res: Option<Value>) -> Result<(), BackendError> {
        match *op {
            Op::Iconst { .. } => Ok(()),
            Op::Load { addr, offset, .. } => {
                let (lo, hi) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let m = self.mem(&mut b, addr, offset as i64)?;
                let l = b.def_g(lo);
                let h = b.def_g(hi);
                // Both defs are written after the address is read: the address is a late use.
                for o in b.ops.iter_mut() {
                    if o.kind() == OperandKind::Use {
                        *o = Operand::reg_use_at_end(o.vreg());
                    }
                }
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Mem(m),
                    dst: Rm::Reg(l),
                });
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Mem(Mem {
                        disp: m.disp + 8,
                        ..m
                    }),
                    dst: Rm::Reg(h),
                });
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
                let l = b.use_g(lo);
                let h = b.use_g(hi);
                let m = self.mem(&mut b, addr, offset as i64)?;
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(l),
                    dst: Rm::Mem(m),
                });
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(h),
                    dst: Rm::Mem(Mem {
                        disp: m.disp + 8,
                        ..m
                    }),
                });
                self.emit(b);
                Ok(())
            }
            Op::Unary { op, arg } => {
                let (al, ah) = self.pair(arg)?;
                let (dl, dh) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let l = b.use_g(al);
                let h = b.use_g(ah);
                let l = b.reuse_g(dl, l);
                let h = b.reuse_g(dh, h);
                match op {
                    UnaryOp::Not => {
                        for r in [l, h] {
                            b.i(Inst::Unary {
                                op: UnOp::Not,
                                size: Size::S64,
                                dst: Rm::Reg(r),
                            });
                        }
                    }
                    UnaryOp::Neg => {
                        b.i(Inst::Unary {
                            op: UnOp::Neg,
                            size: Size::S64,
                            dst: Rm::Reg(l),
                        });
                        b.i(Inst::Alu {
                            op: AluOp::Adc,
                            size: Size::S64,
                            src: Rmi::Imm(0),
                            dst: Rm::Reg(h),
                        });
                        b.i(Inst::Unary {
                            op: UnOp::Neg,
                            size: Size::S64,
                            dst: Rm::Reg(h),
                        });
                    }
                    UnaryOp::FNeg => return Err(self.err("a float negation of __int128")),
                }
                self.emit(b);
                Ok(())
            }
            Op::Binary { op, a, b: bv } => self.i128_binary(op, a, bv, res.unwrap()),
            Op::Conv { op, arg, to } => {
                let from = self.ty(arg);
                if from == Type::I128 && to == Type::I128 {
                    let (al, ah) = self.pair(arg)?;
                    let (dl, dh) = self.pair(res.unwrap())?;
                    let mut b = B::default();
                    let l = b.use_g(al);
                    let h = b.use_g(ah);
                    b.reuse_g(dl, l);
                    b.reuse_g(dh, h);
                    self.emit(b);
                    return Ok(());
                }
                if from == Type::I128 {
                    // Truncation (or a same-size bitcast we cannot do: f128).
                    if !matches!(op, ConvOp::Trunc | ConvOp::Bitcast) || !to.is_int() {
                        return Err(self.err("a conversion from __int128 to floating point"));
                    }
                    let (al, _) = self.pair(arg)?;
                    let d = self.vreg(res.unwrap())?;
                    let mut b = B::default();
                    let l = b.use_g(al);
                    b.reuse_g(d, l);
                    self.emit(b);
                    return Ok(());
                }
                if !from.is_int() {
                    return Err(self.err("a conversion from floating point to __int128"));
                }
                let a = self.reg(arg)?;
                let signed = op == ConvOp::Sext;
                // Extend to 64 bits first.
                let a64 = if matches!(from, Type::I64 | Type::Ptr) {
                    a
                } else {
                    let d = self.new_vreg(RegClass::Int);
                    let mut b = B::default();
                    let s = b.use_g(a);
                    let dg = b.def_g(d);
                    if from == Type::I32 && !signed {
                        b.i(Inst::Mov {
                            size: Size::S32,
                            src: Rmi::Reg(s),
                            dst: Rm::Reg(dg),
                        });
                    } else {
                        b.i(Inst::MovX {
                            signed,
                            from: size_of(from),
                            to: Size::S64,
                            src: Rm::Reg(s),
                            dst: dg,
                        });
                    }
                    self.emit(b);
                    d
                };
                let (dl, dh) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let s = b.use_g(a64);
                let l = b.def_g(dl);
                let h = b.def_g(dh);
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(s),
                    dst: Rm::Reg(h),
                });
                if signed {
                    b.i(Inst::Shift {
                        op: ShiftOp::Sar,
                        size: Size::S64,
                        amount: Some(63),
                        dst: Rm::Reg(h),
                    });
                } else {
                    b.i(Inst::Alu {
                        op: AluOp::Xor,
                        size: Size::S32,
                        src: Rmi::Reg(h),
                        dst: Rm::Reg(h),
                    });
                }
                b.i(Inst::Mov {
                    size: Size::S64,
                    src: Rmi::Reg(s),
                    dst: Rm::Reg(l),
                });
                // s is read after h is written: make it a late use.
                b.ops[0] = Operand::reg_use_at_end(a64);
                self.emit(b);
                Ok(())
            }
            Op::Select { cond, a, b: bv } => {
                let (al, ah) = self.pair(a)?;
                let (bl, bh) = self.pair(bv)?;
                let (dl, dh) = self.pair(res.unwrap())?;
                let mut b = B::default();
                let cs = self.cond_flags(&mut b, cond)?;
                for o in b.ops.iter_mut() {
                    *o = Operand::reg_use_at_end(o.vreg());
                }
                let (al, ah) = (b.use_late_g(al), b.use_late_g(ah));
                let (bl, bh) = (b.use_late_g(bl), b.use_late_g(bh));
                let (l, h) = (b.def_g(dl), b.def_g(dh));
                for (src, dst) in [(bl, l), (bh, h)] {
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(src),
                        dst: Rm::Reg(dst),
                    });
                }
                let skip = self.new_label();
                let sk = self.new_label();
                jump_unless(&mut b, cs, skip, sk);
                for (src, dst) in [(al, l), (ah, h)] {
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(src),
                        dst: Rm::Reg(dst),
                    });
                }
                b.i(Inst::Label(skip));
                self.emit(b);
                Ok(())
            }
            _ => Err(self.err("this __int128 operation")),
        }
    }

    /// A libgcc helper taking `args` in fixed registers and returning its result in `rets`;
    /// it clobbers what any SysV call does.
    fn libcall_regs(&mut self, name: &str, args: &[(VReg, PReg)], rets: &[(VReg, PReg)]) {
        let sym = (self.libcall)(name);
        let mut b = B::default();
        for &(v, p) in args {
            b.fixed_use(v, p);
        }
        for &(v, p) in rets {
            b.fixed_def(v, p);
        }
        b.i(Inst::CallSym {
            sym,
            kind: RelocKind::Plt32,
        });
        // libgcc keeps only the System V callee-saved registers: under a custom `csr:`
        // set the prologue saves the others.
        self.save_csr_not_kept_by(&neverc_abi::SYSV_CALLEE_SAVED);
        let mut clobbers = PRegSet::empty();
        for p in gpr_allocatable().into_iter().chain(xmm_allocatable()) {
            let hw = p.hw_enc() as u8;
            let saved = p.class() == RegClass::Int && [3u8, 12, 13, 14, 15].contains(&hw);
            if !saved && !rets.iter().any(|&(_, r)| r == p) {
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
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let (bl, bh) = self.pair(bv)?;
                let (o1, o2) = match op {
                    BinaryOp::Add => (AluOp::Add, AluOp::Adc),
                    BinaryOp::Sub => (AluOp::Sub, AluOp::Sbb),
                    BinaryOp::And => (AluOp::And, AluOp::And),
                    BinaryOp::Or => (AluOp::Or, AluOp::Or),
                    _ => (AluOp::Xor, AluOp::Xor),
                };
                let l = b.use_g(al);
                let h = b.use_g(ah);
                let sl = b.use_g(bl);
                let sh = b.use_g(bh);
                let l = b.reuse_g(dl, l);
                let h = b.reuse_g(dh, h);
                b.i(Inst::Alu {
                    op: o1,
                    size: Size::S64,
                    src: Rmi::Reg(sl),
                    dst: Rm::Reg(l),
                });
                b.i(Inst::Alu {
                    op: o2,
                    size: Size::S64,
                    src: Rmi::Reg(sh),
                    dst: Rm::Reg(h),
                });
            }
            BinaryOp::Mul => {
                let (bl, bh) = self.pair(bv)?;
                let l = b.use_late_g(al);
                let h = b.use_late_g(ah);
                let sl = b.use_late_g(bl);
                let sh = b.use_late_g(bh);
                let t1 = self.new_vreg(RegClass::Int);
                let t2 = self.new_vreg(RegClass::Int);
                let t1 = ph_gpr(b.op(early_def(t1, OperandConstraint::Reg)));
                let t2 = ph_gpr(b.op(early_def(t2, OperandConstraint::Reg)));
                b.fixed_def(dl, preg_gpr(0));
                b.fixed_def(dh, preg_gpr(2));
                let mov = |b: &mut B, s: Gpr, d: Gpr| {
                    b.i(Inst::Mov {
                        size: Size::S64,
                        src: Rmi::Reg(s),
                        dst: Rm::Reg(d),
                    })
                };
                mov(&mut b, h, t1);
                b.i(Inst::Imul2 {
                    size: Size::S64,
                    src: Rm::Reg(sl),
                    dst: t1,
                });
                mov(&mut b, sh, t2);
                b.i(Inst::Imul2 {
                    size: Size::S64,
                    src: Rm::Reg(l),
                    dst: t2,
                });
                b.i(Inst::Alu {
                    op: AluOp::Add,
                    size: Size::S64,
                    src: Rmi::Reg(t2),
                    dst: Rm::Reg(t1),
                });
                mov(&mut b, l, Gpr::RAX);
                b.i(Inst::Unary {
                    op: UnOp::Mul,
                    size: Size::S64,
                    dst: Rm::Reg(sl),
                });
                b.i(Inst::Alu {
                    op: AluOp::Add,
                    size: Size::S64,
                    src: Rmi::Reg(t1),
                    dst: Rm::Reg(Gpr::RDX),
                });
            }
            BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr if self.const_of(bv).is_some() => {
                let n = (self.const_of(bv).unwrap() & 127) as u8;
                let l = b.use_late_g(al);
                let h = b.use_late_g(ah);
                let ol = b.def_g(dl);
                let oh = b.def_g(dh);
                i128_shift_const(&mut b, op, n, l, h, ol, oh);
            }
            BinaryOp::Shl
            | BinaryOp::LShr
            | BinaryOp::AShr
            | BinaryOp::SDiv
            | BinaryOp::UDiv
            | BinaryOp::SRem
            | BinaryOp::URem => {
                let (name, second) = libgcc::int128_binary(op).expect("a libgcc operation");
                let mut args = vec![(al, preg_gpr(7)), (ah, preg_gpr(6))];
                match second {
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
                        args.push((bh, preg_gpr(1)));
                    }
                }
                self.libcall_regs(name, &args, &[(dl, preg_gpr(0)), (dh, preg_gpr(2))]);
                return Ok(());
            }
            _ => return Err(self.err("this __int128 operation")),
        }
        self.emit(b);
        Ok(())
    }

    /// Flags for an i128 compare; the condition to test.
    pub(super) fn compare_i128(
        &mut self,
        b: &mut B,
        cc: IntCC,
        a: Value,
        bv: Value,
    ) -> Result<CondSpec, BackendError> {
        let (x, y, cc) = match cc {
            IntCC::Sgt | IntCC::Sle | IntCC::Ugt | IntCC::Ule => (bv, a, swap_cc(cc)),
            _ => (a, bv, cc),
        };
        let (xl, xh) = self.pair(x)?;
        let (yl, yh) = self.pair(y)?;
        let xl = b.use_g(xl);
        let xh = b.use_g(xh);
        let yl = b.use_g(yl);
        let yh = b.use_g(yh);
        let t = self.new_vreg(RegClass::Int);
        let t = ph_gpr(b.op(early_def(t, OperandConstraint::Reg)));
        let mov = |b: &mut B, s: Gpr, d: Gpr| {
            b.i(Inst::Mov {
                size: Size::S64,
                src: Rmi::Reg(s),
                dst: Rm::Reg(d),
            })
        };
        match cc {
            IntCC::Eq | IntCC::Ne => {
                mov(b, xl, t);
                b.i(Inst::Alu {
                    op: AluOp::Xor,
                    size: Size::S64,
                    src: Rmi::Reg(yl),
                    dst: Rm::Reg(t),
                });
                mov(b, xh, SCRATCH);
                b.i(Inst::Alu {
                    op: AluOp::Xor,
                    size: Size::S64,
                    src: Rmi::Reg(yh),
                    dst: Rm::Reg(SCRATCH),
                });
                b.i(Inst::Alu {
                    op: AluOp::Or,
                    size: Size::S64,
                    src: Rmi::Reg(SCRATCH),
                    dst: Rm::Reg(t),
                });
                Ok(CondSpec::One(if cc == IntCC::Eq {
                    Cond::E
                } else {
                    Cond::NE
                }))
            }
            _ => {
                // x - y with borrow: the flags of the high subtraction order the pair.
                b.i(Inst::Alu {
                    op: AluOp::Cmp,
                    size: Size::S64,
                    src: Rmi::Reg(yl),
                    dst: Rm::Reg(xl),
                });
                mov(b, xh, t);
                b.i(Inst::Alu {
                    op: AluOp::Sbb,
                    size: Size::S64,
                    src: Rmi::Reg(yh),
                    dst: Rm::Reg(t),
                });
                Ok(CondSpec::One(match cc {
                    IntCC::Slt => Cond::L,
                    IntCC::Sge => Cond::GE,
                    IntCC::Ult => Cond::B,
                    _ => Cond::AE,
                }))
            }
        }
    }
}

/// Shift of (l, h) by a constant into (ol, oh), all distinct registers.
fn i128_shift_const(b: &mut B, op: BinaryOp, n: u8, l: Gpr, h: Gpr, ol: Gpr, oh: Gpr) {
    let mov = |b: &mut B, s: Gpr, d: Gpr| {
        b.i(Inst::Mov {
            size: Size::S64,
            src: Rmi::Reg(s),
            dst: Rm::Reg(d),
        })
    };
    let sh = |b: &mut B, op: ShiftOp, n: u8, d: Gpr| {
        if n != 0 {
            b.i(Inst::Shift {
                op,
                size: Size::S64,
                amount: Some(n),
                dst: Rm::Reg(d),
            })
        }
    };
    let or_scratch = |b: &mut B, d: Gpr| {
        b.i(Inst::Alu {
            op: AluOp::Or,
            size: Size::S64,
            src: Rmi::Reg(SCRATCH),
            dst: Rm::Reg(d),
        })
    };
    let zero = |b: &mut B, d: Gpr| {
        b.i(Inst::Alu {
            op: AluOp::Xor,
            size: Size::S32,
            src: Rmi::Reg(d),
            dst: Rm::Reg(d),
        })
    };
    match op {
        BinaryOp::Shl => {
            if n >= 64 {
                mov(b, l, oh);
                sh(b, ShiftOp::Shl, n - 64, oh);
                zero(b, ol);
            } else {
                mov(b, h, oh);
                mov(b, l, ol);
                if n > 0 {
                    sh(b, ShiftOp::Shl, n, oh);
                    mov(b, l, SCRATCH);
                    sh(b, ShiftOp::Shr, 64 - n, SCRATCH);
                    or_scratch(b, oh);
                    sh(b, ShiftOp::Shl, n, ol);
                }
            }
        }
        _ => {
            let arith = op == BinaryOp::AShr;
            let right = if arith { ShiftOp::Sar } else { ShiftOp::Shr };
            if n >= 64 {
                mov(b, h, ol);
                sh(b, right, n - 64, ol);
                if arith {
                    mov(b, h, oh);
                    sh(b, ShiftOp::Sar, 63, oh);
                } else {
                    zero(b, oh);
                }
            } else {
                mov(b, h, oh);
                mov(b, l, ol);
                if n > 0 {
                    sh(b, ShiftOp::Shr, n, ol);
                    mov(b, h, SCRATCH);
                    sh(b, ShiftOp::Shl, 64 - n, SCRATCH);
                    or_scratch(b, ol);
                    sh(b, right, n, oh);
                }
            }
        }
    }
}
