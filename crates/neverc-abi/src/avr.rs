//! avr-gcc ABI ("avr-gcc ABI" in the GCC wiki, checked against avr-gcc 5.4): arguments
//! are allocated from r25 downwards in even-sized register groups, r8 being the lowest;
//! an argument that does not fit, and everything after it, goes on the stack; variadic
//! functions take all arguments on the stack.
//!
//! Stack arguments are packed one after the other, with no padding, whatever their
//! alignment. For an over-aligned argument (a `vector_size` vector, an `aligned` record)
//! avr-gcc 5.4 disagrees with itself: its callee reads the block packed (`void g(long long,
//! long long, long long, V16 v, char c)` reads `v` at offset 8 and `c` at 24), its caller
//! stores such an argument at an aligned offset, over the bytes of the next one (so such
//! calls between gcc-compiled functions are broken). The plan follows the callee, so a
//! caller built from it reaches avr-gcc's functions intact (unit test
//! `avr_over_aligned_stack_arguments_are_packed`); the register-dump harness, whose
//! reference is gcc's caller, leaves these signatures out (`plans_vs_gcc.rs`).

use crate::classify::Builder;
use crate::plan::Flags;
use crate::types::Type;
use crate::Signature;

/// Bytes of value at `reg`, `reg+1`, ...: one location per byte register.
fn bytes_in_regs(size: u32, first: u16, mut f: impl FnMut(u32, u16)) {
    for k in 0..size {
        f(k, first + k as u16);
    }
}

pub(crate) fn plan(b: &mut Builder, sig: &Signature) {
    // Registers still free: r8..r25, i.e. 18 bytes, handed out from r26 downwards.
    let mut next = 26u16;
    let mut regs_left: i32 = if sig.variadic.is_some() { 0 } else { 18 };

    // Results of 1 to 8 bytes in registers ending at r25 (1-2 bytes: r24, 3-4: r22, 5-8:
    // r18); larger ones in memory whose address is passed as a hidden first argument.
    if sig.ret != Type::Void {
        let (size, align) = b.layout(&sig.ret);
        match size {
            0 => {}
            1..=8 => {
                let first = match size {
                    1 | 2 => 24,
                    3 | 4 => 22,
                    _ => 18,
                };
                bytes_in_regs(size, first, |k, r| b.ret_reg(k, 1, align, r, Flags::NONE));
            }
            _ => {
                if regs_left >= 2 {
                    bytes_in_regs(2, 24, |k, r| b.ret_reg(k, 1, 1, r, Flags::SRET));
                    next = 24;
                    regs_left -= 2;
                } else {
                    // Variadic: the hidden pointer is the first stack argument.
                    b.returns.push(crate::plan::Location {
                        value: 0,
                        offset: 0,
                        size: 2,
                        align: 1,
                        place: crate::plan::Place::Stack(0),
                        flags: Flags::SRET,
                    });
                    b.stack = 2;
                }
            }
        }
    }

    let mut stack = b.stack;
    for (i, ty) in sig.params.iter().enumerate() {
        let (size, align) = b.layout(ty);
        let vflag = if sig.is_vararg(i) {
            Flags::VARARG
        } else {
            Flags::NONE
        };
        if size == 0 {
            continue;
        }
        let even = (size + 1) & !1;
        if even as i32 <= regs_left {
            next -= even as u16;
            let at = next;
            bytes_in_regs(size, at, |k, r| b.arg_reg(i, k, 1, align, r, vflag));
            regs_left -= even as i32;
        } else {
            // Once an argument misses the registers, no later one uses them.
            regs_left = 0;
            b.arg_stack(i, 0, size, align, stack, vflag);
            stack += size;
        }
    }
    b.stack = stack;
    // r2-r17 and r28-r29 are call-saved (r1 must be zero again on return).
    b.callee_saved = (2..=17).chain([28, 29]).collect();
}
