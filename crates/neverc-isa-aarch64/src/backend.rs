//! The AArch64 back end's entry point: a whole `neverc_ir::Module` to an ELF relocatable
//! object and to GNU assembler text, both from the same instruction lists.
//!
//! Per function: [`lower`](crate::lower) (IR to virtual-register code), register allocation
//! (at -O0 and in functions that call setjmp `neverc_codegen::o0alloc`, falling back to
//! regalloc2's Fastalloc for what it does not handle; regalloc2's Ion otherwise),
//! [`emit`](crate::emit)
//! (frame, moves, final instructions), then the `asm` assembler. Data, aliases and
//! constructor tables are written by `neverc_codegen::module`, `.eh_frame` by
//! `neverc_codegen::cfi`. Anything the lowering does not handle yet is refused by name:
//! `neverc cannot compile ... for aarch64 yet`.

use crate::asm::{self, Inst, Label};
use crate::emit::{cfi_text, emit_function};
use crate::lower::{
    fpr_allocatable, gpr_allocatable, lower_function, preg_fpr, preg_gpr, SCRATCH, VSCRATCH,
};
use neverc_codegen::cfi::{write_eh_frame, FrameDescription};
use neverc_codegen::module::{
    emit_aliases_and_undefined, emit_ctors_dtors, emit_data, info_of, std_or_user, write_sym_attrs,
    AsmText, DataOptions,
};
use neverc_codegen::o0alloc::{Choice, FunctionAllocator};
use neverc_codegen::object_file::{ObjTarget, ObjectModule, SectionId, SectionKind};
use neverc_codegen::reloc::{Aarch64Reloc, Fixup, RelocKind, SymId};
use neverc_ir as ir;
use regalloc2::{MachineEnv, PRegSet};
use std::fmt::Write as _;

/// Position-independence of the code (shared by the back ends).
pub use neverc_codegen::Pic;

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub opt_level: u8,
    pub pic: Pic,
    pub function_sections: bool,
    pub data_sections: bool,
    /// Only the object is wanted (`-c`): `Compiled::asm` stays empty.
    pub object_only: bool,
    /// The ARMv8.1 atomics (LSE: `ldadd`, `swp`, `cas`, ...) may be used
    /// (`-march=armv8.1-a` and later, or `+lse`; see [`march_has_lse`]).
    pub lse: bool,
}

/// Whether a `-march=` value includes the LSE atomics: `armv8.1-a` and later ARMv8.x and
/// ARMv9.x profiles, or any architecture with `+lse`, unless a later `+nolse` removes them.
pub fn march_has_lse(march: &str) -> bool {
    let mut parts = march.split('+');
    let base = parts.next().unwrap_or("");
    let mut lse = base
        .strip_prefix("armv")
        .and_then(|v| v.strip_suffix("-a"))
        .and_then(|v| {
            let (major, minor) = v.split_once('.').unwrap_or((v, "0"));
            Some((major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?))
        })
        .is_some_and(|(major, minor)| major > 8 || (major == 8 && minor >= 1));
    for ext in parts {
        match ext {
            "lse" => lse = true,
            "nolse" => lse = false,
            _ => {}
        }
    }
    lse
}

pub struct Compiled {
    pub object: Vec<u8>,
    pub asm: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError {
    pub message: String,
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BackendError {}

fn internal(msg: String) -> BackendError {
    BackendError {
        message: format!("internal error in the aarch64 back end: {msg}"),
    }
}

/// The registers the allocators may use. At -O0 only the caller-saved ones: every
/// value lives in memory across calls anyway, and the frame stays small (no save area).
pub fn machine_env(opt_level: u8) -> MachineEnv {
    let mut pref = PRegSet::empty();
    let mut nonpref = PRegSet::empty();
    for p in gpr_allocatable() {
        if p.hw_enc() >= 19 {
            if opt_level == 0 {
                continue;
            }
            nonpref.add(p);
        } else {
            pref.add(p);
        }
    }
    let (mut fpref, mut fnonpref) = (PRegSet::empty(), PRegSet::empty());
    for p in fpr_allocatable() {
        if (8..16).contains(&p.hw_enc()) {
            if opt_level == 0 {
                continue;
            }
            fnonpref.add(p);
        } else {
            fpref.add(p);
        }
    }
    MachineEnv {
        preferred_regs_by_class: [pref, fpref, PRegSet::empty()],
        non_preferred_regs_by_class: [nonpref, fnonpref, PRegSet::empty()],
        scratch_by_class: [Some(preg_gpr(SCRATCH.0)), Some(preg_fpr(VSCRATCH.0)), None],
        fixed_stack_slots: vec![],
    }
}

/// Compiles a module.
pub fn compile_module(m: &ir::Module, opts: &Options) -> Result<Compiled, BackendError> {
    compile(m, opts, false)
}

/// As [`compile_module`], with the IR verifier, regalloc2's SSA validation and its checker
/// run on every function (for tests).
pub fn compile_module_checked(m: &ir::Module, opts: &Options) -> Result<Compiled, BackendError> {
    compile(m, opts, true)
}

fn compile(m: &ir::Module, opts: &Options, checked: bool) -> Result<Compiled, BackendError> {
    if !m.toplevel_asm.is_empty() {
        return Err(BackendError {
            message: "neverc cannot compile file-scope asm statements for aarch64 yet".into(),
        });
    }
    let mut obj = ObjectModule::new(ObjTarget::aarch64());
    let syms: Vec<SymId> = m.symbols.iter().map(|s| obj.declare(&s.name)).collect();
    let env = machine_env(opts.opt_level);
    let mut text = AsmText::new(!opts.object_only);
    let mut frames: Vec<FrameDescription> = Vec::new();
    let mut pending: Vec<(neverc_codegen::object_file::SectionId, u64, Vec<Fixup>)> = Vec::new();
    let local: std::collections::HashMap<SymId, bool> = m
        .symbols
        .iter()
        .zip(&syms)
        .map(|(s, &id)| (id, s.binding == ir::Binding::Local))
        .collect();

    // Where each function's address-taken blocks landed, for label addresses in data:
    // (section, offset of the block, its label name in the text).
    let mut block_places: std::collections::HashMap<
        (ir::Sym, ir::Block),
        (SectionId, u64, String),
    > = Default::default();
    let choice = Choice::from_env();
    // The register allocators' working memory, kept from one function to the next.
    let mut ra = FunctionAllocator::default();
    for (fi, f) in m.functions.iter().enumerate() {
        let sd = m.sym(f.sym);
        // NEVERC_CHECK_REGALLOC: regalloc2's checker on every allocation (Ion's too).
        let checked = checked || choice.check;
        if checked {
            ir::verify(f)
                .map_err(|e| internal(format!("IR of {} does not verify: {e}", sd.name)))?;
        }
        let low = lower_function(m, f, opts, &syms, &mut |n: &str| obj.declare(n))?;
        if low.vcode.insts.iter().any(|vi| vi.ops.len() >= 64) {
            return Err(internal(format!(
                "an instruction of {} has more than 63 register operands",
                sd.name
            )));
        }
        // -O0 and functions calling setjmp: neverc's own allocator (regalloc2's Fastalloc
        // where it declines, or when asked for); Ion otherwise.
        let quick = opts.opt_level == 0 || f.calls_setjmp;
        // A custom plan may name registers the -O0 set leaves out (`custom_cc`).
        let custom_env;
        let env = if opts.opt_level == 0 && crate::custom_cc::involves_custom(f) {
            custom_env = crate::custom_cc::env_with_plan_registers(&env, f);
            &custom_env
        } else {
            &env
        };
        // Functions with custom calling conventions stay with Fastalloc: its choices of
        // registers (values made right in the plan's registers) are what
        // tests/callconv_aarch64.rs pins down.
        let own_ok = !crate::custom_cc::involves_custom(f);
        let out = ra
            .allocate(&low.vcode, env, choice, quick, own_ok, checked, &sd.name)
            .map_err(internal)?;
        let emitted = emit_function(&low, out).map_err(|e| BackendError {
            message: format!(
                "neverc cannot compile {e} for aarch64 yet (function {})",
                sd.name
            ),
        })?;
        let asm = asm::assemble(&emitted.insts)
            .map_err(|e| internal(format!("{e} in function {}", sd.name)))?;
        let section = std_or_user(
            &mut obj,
            SectionKind::Text,
            &sd.name,
            opts.function_sections,
            sd.section.as_deref(),
            true,
            false,
            4,
        );
        let align = u64::from(f.align.max(4));
        let offset = obj.append(section, &asm.bytes, align);
        // Jump tables and literal pools are data in the code: `$d` where a run of them
        // starts, `$x` after it.
        let mut data: Vec<(u64, u64)> = Vec::new();
        let mut pc = offset;
        for i in &emitted.insts {
            match i {
                Inst::Label(_) => continue,
                Inst::JumpTableEntry { .. } | Inst::DataWord(_) => match data.last_mut() {
                    Some(last) if last.1 == pc => last.1 = pc + 4,
                    _ => data.push((pc, pc + 4)),
                },
                _ => {}
            }
            pc += 4;
        }
        for (start, end) in data {
            obj.mapping_symbol(section, start, "$d");
            obj.mapping_symbol(section, end, "$x");
        }
        pending.push((section, offset, asm.fixups.clone()));
        let size = *asm.labels.get(&emitted.end).unwrap_or(&0) as u64;
        for (&blk, &lab) in &low.block_labels {
            if let Some(&at) = asm.labels.get(&lab) {
                block_places.insert(
                    (f.sym, blk),
                    (section, offset + at as u64, format!(".Lf{fi}_{}", lab.0)),
                );
            }
        }
        obj.define(syms[f.sym.index()], section, offset, size, info_of(sd))
            .map_err(internal)?;
        if text.enabled {
            let st = text.section(section);
            let name = sd.name.clone();
            write_sym_attrs(st, &name, sd, "%function");
            let _ = writeln!(st, "\t.p2align {}", align.trailing_zeros());
            let _ = writeln!(st, "{name}:");
            let _ = writeln!(st, "\t.cfi_startproc");
            let labels = |l: Label| format!(".Lf{fi}_{}", l.0);
            let names = |s: SymId| obj.symbol_name(s).to_string();
            let mut ci = 0;
            for (i, inst) in emitted.insts.iter().enumerate() {
                while ci < emitted.cfi.len() && emitted.cfi[ci].0 == i {
                    let _ = writeln!(st, "\t{}", cfi_text(emitted.cfi[ci].2));
                    ci += 1;
                }
                // Inline asm between `#APP` and `#NO_APP`, as gcc marks it.
                for &(start, end) in &emitted.app {
                    if end == i && start != end {
                        let _ = writeln!(st, "#NO_APP");
                    }
                }
                for &(start, end) in &emitted.app {
                    if start == i {
                        let _ = writeln!(st, "#APP");
                        if start == end {
                            let _ = writeln!(st, "#NO_APP");
                        }
                    }
                }
                if *inst == Inst::Label(emitted.end) {
                    let _ = writeln!(st, "\t.cfi_endproc");
                    let _ = writeln!(st, "\t.size {name}, .-{name}");
                }
                let line = asm::print(inst, &names, &labels);
                if matches!(inst, Inst::Label(_)) {
                    let _ = writeln!(st, "{line}");
                } else {
                    let _ = writeln!(st, "\t{line}");
                }
            }
        }
        frames.push(FrameDescription {
            func_sym: syms[f.sym.index()],
            start: offset as u32,
            len: size as u32,
            ops: emitted
                .cfi
                .iter()
                .map(|&(_, l, op)| (asm.labels[&l], op))
                .collect(),
        });
    }

    // As gas does: a branch to a local function of the same section is resolved here,
    // the rest become relocations.
    for (section, base, fixups) in pending {
        for f in fixups {
            let at = base + f.offset as u64;
            let same = obj
                .symbol_location(f.sym)
                .filter(|&(sec, _)| sec == section)
                .map(|(_, off)| off);
            let is_local = local.get(&f.sym).copied().unwrap_or(false);
            match (f.kind, same) {
                (RelocKind::Aarch64(Aarch64Reloc::Call26 | Aarch64Reloc::Jump26), Some(off))
                    if is_local =>
                {
                    let disp = off as i64 + f.addend - at as i64;
                    let data = obj.section_data_mut(section);
                    let w =
                        u32::from_le_bytes(data[at as usize..at as usize + 4].try_into().unwrap());
                    let w = asm::encode::patch_label(w, asm::LabelKind::Branch26, disp)
                        .map_err(internal)?;
                    data[at as usize..at as usize + 4].copy_from_slice(&w.to_le_bytes());
                }
                _ => obj.add_reloc(
                    section,
                    Fixup {
                        offset: at as u32,
                        ..f
                    },
                ),
            }
        }
    }

    let data_opts = DataOptions {
        pic: opts.pic != Pic::NoPic,
        data_sections: opts.data_sections,
    };
    emit_data(
        &mut obj,
        m,
        &syms,
        &data_opts,
        &mut text,
        &mut |fsym, blk| {
            block_places.get(&(fsym, blk)).cloned().ok_or_else(|| {
            "internal error in the AArch64 back end: the address of a block that was not emitted"
                .into()
        })
        },
    )
    .map_err(|e| BackendError { message: e })?;
    emit_aliases_and_undefined(&mut obj, m, &syms, &mut text).map_err(internal)?;
    emit_ctors_dtors(&mut obj, m, &syms, &mut text);
    let mut asm_text = text.finish(&obj);
    if opts.lse && !asm_text.is_empty() {
        // The assembler needs the ARMv8.1 atomics enabled.
        asm_text.insert_str(0, "\t.arch_extension lse\n");
    }
    write_eh_frame(&mut obj, &frames).map_err(internal)?;
    let object = obj.write().map_err(internal)?;
    Ok(Compiled {
        object,
        asm: asm_text,
    })
}

#[cfg(test)]
mod tests {
    use super::march_has_lse;

    #[test]
    fn lse_comes_with_armv8_1_and_later_or_plus_lse() {
        for m in [
            "armv8.1-a",
            "armv8.2-a",
            "armv8.5-a+crypto",
            "armv9-a",
            "armv9.2-a",
            "armv8-a+lse",
        ] {
            assert!(march_has_lse(m), "{m}");
        }
        for m in [
            "armv8-a",
            "armv8.1-a+nolse",
            "armv8-a+crc",
            "native",
            "x86-64",
            "",
        ] {
            assert!(!march_has_lse(m), "{m}");
        }
    }
}
