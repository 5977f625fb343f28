//! Call-frame information: the `.eh_frame` section that lets unwinders (C++ exceptions,
//! `backtrace()`, `_Unwind_Backtrace`, debuggers without DWARF) walk through functions we
//! compiled. Back ends describe each function's frame changes as a list of [`CfaOp`] at code
//! offsets; this module turns them into one CIE and one FDE per function with `gimli::write`,
//! and puts the section and its relocations into an [`ObjectModule`].
//!
//! The CIE is the one gcc emits for x86-64: version 1, augmentation "zR" with FDE pointers
//! encoded pc-relative signed 4-byte (`DW_EH_PE_pcrel | DW_EH_PE_sdata4`), code alignment 1,
//! data alignment -8, return address in DWARF register 16, CFA = rsp + 8 and the return
//! address at CFA - 8 on entry.

use gimli::write::{
    Address, CallFrameInstruction, CommonInformationEntry, EhFrame, FrameDescriptionEntry,
    FrameTable, Writer,
};
use gimli::{Encoding, Format, Register, RunTimeEndian};

use crate::object_file::{ObjectModule, SectionId, SectionKind};
use crate::reloc::{Fixup, RelocKind, SymId};

/// DWARF register numbers of x86-64 (System V psABI, figure 3.36).
pub mod x86_64_reg {
    pub const RAX: u16 = 0;
    pub const RDX: u16 = 1;
    pub const RCX: u16 = 2;
    pub const RBX: u16 = 3;
    pub const RSI: u16 = 4;
    pub const RDI: u16 = 5;
    pub const RBP: u16 = 6;
    pub const RSP: u16 = 7;
    pub const R8: u16 = 8;
    pub const R9: u16 = 9;
    pub const R10: u16 = 10;
    pub const R11: u16 = 11;
    pub const R12: u16 = 12;
    pub const R13: u16 = 13;
    pub const R14: u16 = 14;
    pub const R15: u16 = 15;
    /// The return address column.
    pub const RA: u16 = 16;
    /// `%xmm0`; `%xmmN` is `XMM0 + N`.
    pub const XMM0: u16 = 17;
}

use x86_64_reg::{RA, RBP, RSP};

/// One change of the frame rules, effective from the code offset it is paired with (the
/// offset just after the instruction that made it, as gcc's `.cfi_*` directives are placed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfaOp {
    /// After `push %rbp`: CFA = rsp + 16, rbp saved at CFA - 16.
    PushRbp,
    /// After `mov %rsp, %rbp`: the CFA is computed from rbp (offset unchanged).
    MovRspRbp,
    /// A callee-saved register (DWARF number) saved at CFA + `cfa_offset` (negative).
    SaveReg { reg: u16, cfa_offset: i32 },
    /// A saved register's rule back to the initial one (after it is popped).
    RestoreReg(u16),
    /// After `leave` or `pop %rbp`: CFA = rsp + 8 again.
    AfterLeave,
    /// CFA offset changed (push/pop or `sub`/`add` of rsp in a frameless function).
    DefCfaOffset(i32),
    /// CFA register changed (DWARF number).
    DefCfaRegister(u16),
    /// CFA = reg + offset.
    DefCfa { reg: u16, offset: i32 },
    /// Save the whole rule set (before an early return's epilogue).
    RememberState,
    /// Restore the rule set saved by `RememberState` (after that epilogue's `ret`).
    RestoreState,
}

/// The frame of one function: where it is and how its frame changes. A frameless function
/// (no pushes, no stack adjustment) has no ops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameDescription {
    /// The function's symbol; it must be defined, and its section is the one the FDE covers.
    pub func_sym: SymId,
    /// Offset of the function's first byte in that section.
    pub start: u32,
    /// Length of the function's code in bytes.
    pub len: u32,
    /// `(code offset from start, op)`, in nondecreasing offset order.
    pub ops: Vec<(u32, CfaOp)>,
}

/// A gimli writer that records relocations instead of failing on symbolic addresses: a
/// symbol index is a `SymId` of the module.
struct RelocWriter {
    bytes: Vec<u8>,
    endian: RunTimeEndian,
    relocs: Vec<Fixup>,
}

impl Writer for RelocWriter {
    type Endian = RunTimeEndian;

    fn endian(&self) -> RunTimeEndian {
        self.endian
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }

    fn write(&mut self, bytes: &[u8]) -> gimli::write::Result<()> {
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn write_at(&mut self, offset: usize, bytes: &[u8]) -> gimli::write::Result<()> {
        let end = offset
            .checked_add(bytes.len())
            .filter(|&e| e <= self.bytes.len())
            .ok_or(gimli::write::Error::OffsetOutOfBounds)?;
        self.bytes[offset..end].copy_from_slice(bytes);
        Ok(())
    }

    fn write_eh_pointer(
        &mut self,
        address: Address,
        eh_pe: gimli::DwEhPe,
        size: u8,
    ) -> gimli::write::Result<()> {
        match address {
            Address::Constant(val) => match eh_pe.application() {
                gimli::DW_EH_PE_absptr => self.write_eh_pointer_data(val, eh_pe.format(), size),
                gimli::DW_EH_PE_pcrel => {
                    let v = val.wrapping_sub(self.len() as u64);
                    self.write_eh_pointer_data(v, eh_pe.format(), size)
                }
                _ => Err(gimli::write::Error::UnsupportedPointerEncoding(eh_pe)),
            },
            Address::Symbol { symbol, addend } => {
                if eh_pe.application() != gimli::DW_EH_PE_pcrel
                    || eh_pe.format() != gimli::DW_EH_PE_sdata4
                {
                    return Err(gimli::write::Error::UnsupportedPointerEncoding(eh_pe));
                }
                // RELA: the addend lives in the relocation; the field stays zero.
                self.relocs.push(Fixup {
                    offset: self.bytes.len() as u32,
                    sym: SymId(symbol as u32),
                    kind: RelocKind::Pc32,
                    addend,
                });
                self.write_udata(0, 4)
            }
        }
    }
}

fn gimli_err(e: gimli::write::Error) -> String {
    format!("writing .eh_frame: {e}")
}

/// The x86-64 CIE gcc emits.
fn x86_64_cie() -> CommonInformationEntry {
    let encoding = Encoding {
        address_size: 8,
        format: Format::Dwarf32,
        version: 1,
    };
    let mut cie = CommonInformationEntry::new(encoding, 1, -8, Register(RA));
    cie.fde_address_encoding = gimli::DW_EH_PE_pcrel | gimli::DW_EH_PE_sdata4;
    cie.add_instruction(CallFrameInstruction::Cfa(Register(RSP), 8));
    cie.add_instruction(CallFrameInstruction::Offset(Register(RA), -8));
    cie
}

/// The AArch64 CIE gcc emits: code alignment 4, data alignment -8, return address in x30
/// (DWARF 30), CFA = sp + 0 on entry.
fn aarch64_cie() -> CommonInformationEntry {
    let encoding = Encoding {
        address_size: 8,
        format: Format::Dwarf32,
        version: 1,
    };
    let mut cie = CommonInformationEntry::new(encoding, 4, -8, Register(30));
    cie.fde_address_encoding = gimli::DW_EH_PE_pcrel | gimli::DW_EH_PE_sdata4;
    cie.add_instruction(CallFrameInstruction::Cfa(Register(31), 0));
    cie
}

fn instructions(op: CfaOp) -> Vec<CallFrameInstruction> {
    use CallFrameInstruction as I;
    match op {
        CfaOp::PushRbp => vec![I::CfaOffset(16), I::Offset(Register(RBP), -16)],
        CfaOp::MovRspRbp => vec![I::CfaRegister(Register(RBP))],
        CfaOp::SaveReg { reg, cfa_offset } => vec![I::Offset(Register(reg), cfa_offset)],
        CfaOp::RestoreReg(reg) => vec![I::Restore(Register(reg))],
        CfaOp::AfterLeave => vec![I::Cfa(Register(RSP), 8)],
        CfaOp::DefCfaOffset(o) => vec![I::CfaOffset(o)],
        CfaOp::DefCfaRegister(r) => vec![I::CfaRegister(Register(r))],
        CfaOp::DefCfa { reg, offset } => vec![I::Cfa(Register(reg), offset)],
        CfaOp::RememberState => vec![I::RememberState],
        CfaOp::RestoreState => vec![I::RestoreState],
    }
}

/// Append the `.eh_frame` of these functions (x86-64 or AArch64, by the module's target;
/// AArch64 frames use only the target-neutral ops: `SaveReg`, `RestoreReg`,
/// `DefCfaOffset`, `DefCfaRegister`, `DefCfa`) to the module (creating the section,
/// `SHT_PROGBITS` as gas writes it, alloc, 8-aligned): one CIE, then one FDE per frame in the order
/// given, each with an `R_X86_64_PC32` to the function's start (as section symbol + offset,
/// as gas does). Returns the section, or `None` when `frames` is empty.
pub fn write_eh_frame(
    module: &mut ObjectModule,
    frames: &[FrameDescription],
) -> Result<Option<SectionId>, String> {
    if frames.is_empty() {
        return Ok(None);
    }
    // Per frame: the label at the function's start its FDE's pointer is relocated against.
    let mut starts = Vec::with_capacity(frames.len());
    for f in frames {
        let (section, _) = module.symbol_location(f.func_sym).ok_or_else(|| {
            format!(
                "FDE for `{}`, which is not defined",
                module.symbol_name(f.func_sym)
            )
        })?;
        starts.push(module.label(section, f.start as u64));
        let mut last = 0;
        for &(off, _) in &f.ops {
            if off < last || off > f.len {
                return Err(format!(
                    "CFA op at offset {off} out of order or past the end of `{}`",
                    module.symbol_name(f.func_sym)
                ));
            }
            last = off;
        }
    }
    let aarch64 = module.target().arch == crate::object_file::ObjArch::AArch64;
    let big_endian = module.target().big_endian;
    let w = if !aarch64 && !big_endian && frames.iter().all(plain_frame) {
        plain_eh_frame(frames, &starts)?
    } else {
        gimli_eh_frame(aarch64, big_endian, frames, &starts)?
    };
    let sec = module.add_section(".eh_frame", SectionKind::EhFrame, 8);
    let base = module.append(sec, &w.bytes, 8);
    module.add_fixups(sec, base, &w.relocs);
    Ok(Some(sec))
}

/// The section through `gimli::write` (any target, any ops).
fn gimli_eh_frame(
    aarch64: bool,
    big_endian: bool,
    frames: &[FrameDescription],
    starts: &[SymId],
) -> Result<RelocWriter, String> {
    let mut table = FrameTable::default();
    let cie = table.add_cie(if aarch64 { aarch64_cie() } else { x86_64_cie() });
    for (f, start) in frames.iter().zip(starts) {
        let mut fde = FrameDescriptionEntry::new(
            Address::Symbol {
                symbol: start.0 as usize,
                addend: 0,
            },
            f.len,
        );
        for &(off, op) in &f.ops {
            for ins in instructions(op) {
                fde.add_instruction(off, ins);
            }
        }
        table.add_fde(cie, fde);
    }
    let endian = if big_endian {
        RunTimeEndian::Big
    } else {
        RunTimeEndian::Little
    };
    let mut eh = EhFrame(RelocWriter {
        bytes: Vec::new(),
        endian,
        relocs: Vec::new(),
    });
    table.write_eh_frame(&mut eh).map_err(gimli_err)?;
    Ok(eh.0)
}

/// A frame of the usual x86-64 shape only (`push %rbp; mov %rsp, %rbp ... leave`): what
/// [`plain_eh_frame`] encodes itself.
fn plain_frame(f: &FrameDescription) -> bool {
    f.len <= i32::MAX as u32
        && f.ops
            .iter()
            .all(|(_, op)| matches!(op, CfaOp::PushRbp | CfaOp::MovRspRbp | CfaOp::AfterLeave))
}

/// The x86-64 section of frames that are all [`plain_frame`]s, encoded directly: the same
/// bytes and relocations as [`gimli_eh_frame`] (the CIE is gimli's own; each FDE is
/// written as gimli writes it), without building gimli's table of instructions first.
fn plain_eh_frame(frames: &[FrameDescription], starts: &[SymId]) -> Result<RelocWriter, String> {
    // The CIE: gimli's bytes for it (from a table holding it and one empty FDE).
    let mut w = gimli_eh_frame(
        false,
        false,
        &[FrameDescription {
            func_sym: SymId(0),
            start: 0,
            len: 0,
            ops: Vec::new(),
        }],
        &[SymId(0)],
    )?;
    let cie_len = 4 + u32::from_le_bytes(w.bytes[..4].try_into().expect("4 bytes")) as usize;
    w.bytes.truncate(cie_len);
    w.relocs.clear();
    w.bytes.reserve(frames.len() * 32);
    for (f, start) in frames.iter().zip(starts) {
        let b = &mut w.bytes;
        let length_at = b.len();
        // Length (patched below), CIE pointer (back to offset 0 from this field), pc_begin
        // (a pc-relative relocation, the field zero), pc_range, augmentation data length 0.
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&((length_at + 4) as u32).to_le_bytes());
        w.relocs.push(Fixup {
            offset: b.len() as u32,
            sym: *start,
            kind: RelocKind::Pc32,
            addend: 0,
        });
        b.extend_from_slice(&[0; 4]);
        b.extend_from_slice(&f.len.to_le_bytes());
        b.push(0);
        let mut prev = 0;
        for &(off, op) in &f.ops {
            // DW_CFA_advance_loc (delta in the low 6 bits), advance_loc1, 2 or 4.
            let delta = off - prev;
            if delta == 0 {
            } else if delta < 0x40 {
                b.push(0x40 | delta as u8);
            } else if delta < 0x100 {
                b.extend_from_slice(&[0x02, delta as u8]);
            } else if delta < 0x10000 {
                b.push(0x03);
                b.extend_from_slice(&(delta as u16).to_le_bytes());
            } else {
                b.push(0x04);
                b.extend_from_slice(&delta.to_le_bytes());
            }
            prev = off;
            match op {
                // DW_CFA_def_cfa_offset 16; DW_CFA_offset rbp, 2 (x -8 = CFA-16).
                CfaOp::PushRbp => b.extend_from_slice(&[0x0e, 16, 0x80 | RBP as u8, 2]),
                // DW_CFA_def_cfa_register rbp.
                CfaOp::MovRspRbp => b.extend_from_slice(&[0x0d, RBP as u8]),
                // DW_CFA_def_cfa rsp, 8.
                CfaOp::AfterLeave => b.extend_from_slice(&[0x0c, RSP as u8, 8]),
                _ => unreachable!("not a plain frame"),
            }
        }
        // DW_CFA_nop up to a multiple of 8 bytes, length field included.
        while (b.len() - length_at) % 8 != 0 {
            b.push(0);
        }
        let len = (b.len() - length_at - 4) as u32;
        b[length_at..length_at + 4].copy_from_slice(&len.to_le_bytes());
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct encoding of plain frames gives gimli's bytes and relocations, over every
    /// advance form (none, 6-bit, 1, 2 and 4 bytes) and every padding length.
    #[test]
    fn plain_frames_are_encoded_as_gimli_encodes_them() {
        let mut frames = Vec::new();
        let gaps = [0u32, 1, 3, 63, 64, 255, 256, 65535, 65536, 100_000];
        for (k, &a) in gaps.iter().enumerate() {
            for &b in &gaps[k % 3..] {
                let (p, m) = (a, a + b);
                let mut ops = vec![(p, CfaOp::PushRbp), (m, CfaOp::MovRspRbp)];
                if b % 2 == 0 {
                    ops.push((m + gaps[k / 2], CfaOp::AfterLeave));
                }
                let len = ops.last().unwrap().0 + b % 7;
                frames.push(FrameDescription {
                    func_sym: SymId(frames.len() as u32),
                    start: 16 * frames.len() as u32,
                    len,
                    ops,
                });
            }
        }
        frames.push(FrameDescription {
            func_sym: SymId(0),
            start: 0,
            len: 5,
            ops: Vec::new(),
        });
        let starts: Vec<SymId> = (0..frames.len() as u32).map(|i| SymId(1000 + i)).collect();
        assert!(frames.iter().all(plain_frame));
        let fast = plain_eh_frame(&frames, &starts).unwrap();
        let slow = gimli_eh_frame(false, false, &frames, &starts).unwrap();
        assert_eq!(fast.bytes, slow.bytes);
        assert_eq!(fast.relocs, slow.relocs);
    }
}
