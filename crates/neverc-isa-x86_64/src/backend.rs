//! The x86-64 back end's entry point: a whole `neverc_ir::Module` to an ELF relocatable
//! object and to GNU assembler text, both from the same instruction lists (the text
//! assembles with `as` to the same section bytes).
//!
//! Per function: [`lower`](crate::lower) (IR to virtual-register code), register allocation
//! (at -O0 and in functions that call setjmp `neverc_codegen::o0alloc`, falling back to
//! regalloc2's Fastalloc for what it does not handle; regalloc2's Ion otherwise),
//! [`emit`](crate::emit)
//! (frame, moves, final instructions), then the `asm` assembler. Code fixups against local
//! symbols of the same section are resolved here as gas resolves them; `.eh_frame` comes
//! from `neverc_codegen::cfi` with the same frame changes the text's `.cfi_*` lines state.
//!
//! Refused by name (`the x86-64 back end cannot lower ...`): file-scope asm, `__float128`,
//! the address of an external thread-local under -fPIC (general-dynamic TLS), f80 values in
//! registers or more than seven f80 block arguments, conversions between `__int128` and
//! floating point, atomics and switches on `__int128`, the address of an unreachable block.
//! Inline asm the encoder has no form for is refused as `neverc cannot assemble '...' in
//! inline asm yet` (see `lower/inline_asm.rs` and `asm/att.rs`).

use crate::asm::{self, Inst, Label};
use crate::emit::{cfi_text, emit_function};
use crate::lower::{gpr_allocatable, lower_function, xmm_allocatable, SCRATCH, XSCRATCH};
use crate::vcode::{preg_gpr, preg_xmm};
use neverc_codegen::cfi::{write_eh_frame, FrameDescription};
use neverc_codegen::module::{
    emit_aliases_and_undefined, emit_ctors_dtors, emit_data, info_of, std_or_user, write_sym_attrs,
    AsmText, DataOptions,
};
use neverc_codegen::o0alloc::{Choice, FunctionAllocator};
use neverc_codegen::object_file::{ObjTarget, ObjectModule, SectionId, SectionKind};
use neverc_codegen::reloc::{Fixup, RelocKind, SymId};
use neverc_ir as ir;
use regalloc2::{MachineEnv, PRegSet};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Position-independence of the code (shared by the back ends).
pub use neverc_codegen::Pic;

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub opt_level: u8,
    pub pic: Pic,
    /// Accepted and ignored for now: every function keeps rbp as its frame pointer (the
    /// frame layout in `emit.rs` addresses slots, spills and saves from rbp).
    pub omit_frame_pointer: bool,
    pub function_sections: bool,
    pub data_sections: bool,
    /// Only the object is wanted (`-c`): the assembly text is not printed and
    /// `Compiled::asm` is empty. The object's bytes do not depend on this.
    pub object_only: bool,
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
        message: format!("internal error in the x86-64 back end: {msg}"),
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

pub fn machine_env() -> MachineEnv {
    let mut pref = PRegSet::empty();
    let mut nonpref = PRegSet::empty();
    for p in gpr_allocatable() {
        if [3u8, 12, 13, 14, 15].contains(&(p.hw_enc() as u8)) {
            nonpref.add(p);
        } else {
            pref.add(p);
        }
    }
    let mut xp = PRegSet::empty();
    for p in xmm_allocatable() {
        xp.add(p);
    }
    MachineEnv {
        preferred_regs_by_class: [pref, xp, PRegSet::empty()],
        non_preferred_regs_by_class: [nonpref, PRegSet::empty(), PRegSet::empty()],
        scratch_by_class: [Some(preg_gpr(SCRATCH.0)), Some(preg_xmm(XSCRATCH.0)), None],
        fixed_stack_slots: vec![],
    }
}

/// Where lowering's own symbols (library helpers named by lowering, not by the IR) start in
/// the provisional symbol numbering of [`FnCode`]: below it, `SymId(i)` is the module's
/// symbol `i`; the object's real symbols are declared by [`ModuleCompiler::finish`].
const LIBCALL_BASE: u32 = 1 << 31;

/// One function's machine code, ready to be placed: what [`ModuleCompiler::finish`] needs
/// of it (the IR and every intermediate form are gone).
pub struct FnCode {
    sym: ir::Sym,
    align: u32,
    bytes: Vec<u8>,
    /// Symbol fixups in provisional numbering (see [`LIBCALL_BASE`]).
    fixups: Vec<Fixup>,
    size: u64,
    /// Frame changes by code offset.
    cfi: Vec<(u32, neverc_codegen::cfi::CfaOp)>,
    /// By IR block: its final label and offset, for blocks that were emitted.
    blocks: Vec<Option<(Label, u32)>>,
    /// Library helpers lowering named, in the order it named them (their declaration order).
    libcalls: Vec<u32>,
    /// The `-S` text of the function (empty for `-c`).
    text: String,
}

/// What `NEVERC_O0_STATS=1` reports: functions compiled by the direct -O0 selector, and
/// each declined one with the first reason.
#[derive(Default)]
struct O0Stats {
    direct: usize,
    declined: Vec<(String, &'static str)>,
}

/// Compiles functions one at a time ([`compile_function`](Self::compile_function), any
/// time, e.g. as irgen finishes each), then places them with the module's data in an object
/// ([`finish`](Self::finish)). The result does not depend on whether the functions were
/// compiled before the rest of the module existed, as long as the symbols each function
/// refers to do not change afterwards.
pub struct ModuleCompiler<'o> {
    opts: &'o Options,
    checked: bool,
    env: MachineEnv,
    /// `SymId(i)` for every module symbol `i` seen so far (the provisional numbering).
    ids: Vec<SymId>,
    /// Names of the library helpers lowering asked for, by provisional number - LIBCALL_BASE.
    libcalls: Vec<String>,
    libcall_ids: HashMap<String, u32>,
    /// The last function's virtual-register code vectors, for the next one to reuse.
    spare: crate::vcode::Recycled,
    /// The lowering's per-function tables, for the next function to reuse.
    scratch: crate::lower::Scratch,
    /// The register allocators' working memory, kept from one function to the next (the
    /// result does not depend on what it held).
    ra: FunctionAllocator,
    choice: Choice,
    /// The direct -O0 selector's tables (see [`crate::direct`]).
    direct: crate::direct::DirectScratch,
    /// `NEVERC_O0=vcode`: every function through the general path, also at -O0.
    o0_vcode: bool,
    /// `NEVERC_O0_STATS=1`: functions compiled directly, and the declined ones with the
    /// first reason, printed to stderr by `finish`.
    stats: Option<O0Stats>,
}

impl<'o> ModuleCompiler<'o> {
    /// `checked`: run the IR verifier, regalloc2's SSA validation and its checker too.
    pub fn new(opts: &'o Options, checked: bool) -> Self {
        ModuleCompiler {
            opts,
            checked,
            env: machine_env(),
            ids: Vec::new(),
            libcalls: Vec::new(),
            libcall_ids: HashMap::new(),
            spare: Default::default(),
            scratch: Default::default(),
            ra: Default::default(),
            choice: Choice::from_env(),
            direct: Default::default(),
            o0_vcode: std::env::var("NEVERC_O0").is_ok_and(|v| v == "vcode"),
            stats: std::env::var("NEVERC_O0_STATS")
                .is_ok_and(|v| v == "1")
                .then(Default::default),
        }
    }

    /// Compiles `f`, the `fi`th function of the module's output (it names the `-S` labels),
    /// against the symbols `m` has now.
    pub fn compile_function(
        &mut self,
        m: &ir::Module,
        f: &ir::Function,
        fi: usize,
    ) -> Result<FnCode, BackendError> {
        let opts = self.opts;
        // -O0 and functions calling setjmp: neverc's own allocator (regalloc2's Fastalloc
        // where it declines, or when asked for); Ion otherwise.
        let quick = opts.opt_level == 0 || f.calls_setjmp;
        // NEVERC_CHECK_REGALLOC: regalloc2's checker on every allocation (Ion's too).
        let checked = self.checked || self.choice.check;
        if checked {
            ir::verify(f).map_err(|e| {
                internal(format!("IR of {} does not verify: {e}", m.sym(f.sym).name))
            })?;
        }
        while self.ids.len() < m.symbols.len() {
            self.ids.push(SymId(self.ids.len() as u32));
        }
        let mut libcalls: Vec<u32> = Vec::new();
        // -O0: the direct selector, unless the function uses something it declines.
        let mut direct = None;
        if opts.opt_level == 0 && !f.calls_setjmp && self.o0_vcode {
            if let Some(s) = &mut self.stats {
                s.declined
                    .push((m.sym(f.sym).name.clone(), "NEVERC_O0=vcode"));
            }
        }
        if opts.opt_level == 0 && !f.calls_setjmp && !self.o0_vcode {
            match crate::direct::select_direct(m, f, opts, &self.ids, &mut self.direct) {
                Ok(e) => {
                    direct = Some(e?);
                    if let Some(s) = &mut self.stats {
                        s.direct += 1;
                    }
                }
                Err(why) => {
                    if let Some(s) = &mut self.stats {
                        s.declined.push((m.sym(f.sym).name.clone(), why));
                    }
                }
            }
        }
        let mut emitted = match direct {
            Some(e) => e,
            None => self.general_path(m, f, quick, checked, &mut libcalls)?,
        };
        emitted.insts.push(Inst::Align(16));
        let sd = m.sym(f.sym);
        let asm = asm::assemble(&emitted.insts)
            .map_err(|e| internal(format!("{} in function {}", e.message, sd.name)))?;
        let size = *asm.label_offsets.get(&emitted.end).unwrap_or(&0) as u64;
        let mut text = String::new();
        if !opts.object_only {
            let st = &mut text;
            let name = sd.name.clone();
            write_sym_attrs(st, &name, sd, "@function");
            let _ = writeln!(st, "\t.p2align {}", f.align.max(16).trailing_zeros());
            let _ = writeln!(st, "{name}:");
            let _ = writeln!(st, "\t.cfi_startproc");
            let labels = |l: Label| format!(".Lf{fi}_{}", l.0);
            let names = |s: SymId| {
                if s.0 >= LIBCALL_BASE {
                    self.libcalls[(s.0 - LIBCALL_BASE) as usize].clone()
                } else {
                    m.symbols[s.0 as usize].name.clone()
                }
            };
            let mut ci = 0;
            for (i, inst) in emitted.insts.iter().enumerate() {
                for &(s, e) in &emitted.app {
                    if s == i {
                        let _ = writeln!(st, "#APP");
                    }
                    if e == i {
                        let _ = writeln!(st, "#NO_APP");
                    }
                }
                while ci < emitted.cfi.len() && emitted.cfi[ci].0 == i {
                    let _ = writeln!(st, "\t{}", cfi_text(emitted.cfi[ci].2));
                    ci += 1;
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
        let blocks = emitted
            .block_labels
            .iter()
            .map(|l| l.and_then(|l| asm.label_offsets.get(&l).map(|&off| (l, off))))
            .collect();
        Ok(FnCode {
            sym: f.sym,
            align: f.align,
            bytes: asm.bytes,
            fixups: asm.fixups,
            size,
            cfi: emitted
                .cfi
                .iter()
                .map(|&(_, l, op)| (asm.label_offsets[&l], op))
                .collect(),
            blocks,
            libcalls,
            text,
        })
    }

    /// The general path: lowering to virtual-register code, register allocation, emission.
    fn general_path(
        &mut self,
        m: &ir::Module,
        f: &ir::Function,
        quick: bool,
        checked: bool,
        libcalls: &mut Vec<u32>,
    ) -> Result<crate::emit::Emitted, BackendError> {
        let opts = self.opts;
        let (names, ids) = (&mut self.libcalls, &mut self.libcall_ids);
        let mut libcall = |n: &str| -> SymId {
            let k = *ids.entry(n.to_string()).or_insert_with(|| {
                names.push(n.to_string());
                (names.len() - 1) as u32
            });
            libcalls.push(k);
            SymId(LIBCALL_BASE + k)
        };
        let spare = std::mem::take(&mut self.spare);
        let low = lower_function(
            m,
            f,
            opts,
            &self.ids,
            &mut libcall,
            spare,
            &mut self.scratch,
        )?;
        if low.vcode.insts.iter().any(|vi| vi.ops.len() >= 64) {
            return Err(internal(format!(
                "an instruction of {} has more than 63 register operands",
                m.sym(f.sym).name
            )));
        }
        let out = self
            .ra
            .allocate(
                &low.vcode,
                &self.env,
                self.choice,
                quick,
                true,
                checked,
                &m.sym(f.sym).name,
            )
            .map_err(internal)?;
        let emitted = emit_function(&low, out);
        self.spare = low.vcode.recycle();
        Ok(emitted)
    }

    /// The object (and `-S` text) of `m` with its functions' code, in `code`'s order.
    /// `m.functions` is not looked at: the functions may be gone already.
    pub fn finish(&self, m: &ir::Module, code: Vec<FnCode>) -> Result<Compiled, BackendError> {
        if let Some(s) = &self.stats {
            eprintln!(
                "neverc: -O0 direct selection: {} of {} functions",
                s.direct,
                s.direct + s.declined.len()
            );
            for (name, why) in &s.declined {
                eprintln!("neverc: -O0 direct selection declined {name}: {why}");
            }
        }
        place(m, self.opts, &self.libcalls, code)
    }
}

fn compile(m: &ir::Module, opts: &Options, checked: bool) -> Result<Compiled, BackendError> {
    if !m.toplevel_asm.is_empty() {
        return Err(toplevel_asm_error());
    }
    let mut mc = ModuleCompiler::new(opts, checked);
    let mut code = Vec::with_capacity(m.functions.len());
    for (fi, f) in m.functions.iter().enumerate() {
        code.push(mc.compile_function(m, f, fi)?);
    }
    mc.finish(m, code)
}

fn toplevel_asm_error() -> BackendError {
    BackendError {
        message: "the x86-64 back end cannot lower file-scope asm statements".into(),
    }
}

/// Places compiled functions, then the data, aliases, constructors and `.eh_frame`, in an
/// object; the provisional symbol numbers of the code become the object's symbols.
fn place(
    m: &ir::Module,
    opts: &Options,
    libcall_names: &[String],
    mut code: Vec<FnCode>,
) -> Result<Compiled, BackendError> {
    if !m.toplevel_asm.is_empty() {
        return Err(toplevel_asm_error());
    }
    let mut obj = ObjectModule::new(ObjTarget::x86_64());
    let syms: Vec<SymId> = m.symbols.iter().map(|s| obj.declare(&s.name)).collect();
    // Library helpers, in the order the old one-pass back end declared them: as the
    // functions' lowering first named them.
    let mut libcall_syms: Vec<Option<SymId>> = vec![None; libcall_names.len()];
    for c in &code {
        for &k in &c.libcalls {
            let s = &mut libcall_syms[k as usize];
            if s.is_none() {
                *s = Some(obj.declare(&libcall_names[k as usize]));
            }
        }
    }
    let real = |s: SymId| -> SymId {
        if s.0 >= LIBCALL_BASE {
            libcall_syms[(s.0 - LIBCALL_BASE) as usize].expect("a declared library helper")
        } else {
            syms[s.0 as usize]
        }
    };
    let want_text = !opts.object_only;
    let mut out_text = AsmText::new(want_text);
    // Where each function landed: section and offset.
    let mut placed: Vec<(SectionId, u64)> = Vec::with_capacity(code.len());
    let mut frames: Vec<FrameDescription> = Vec::with_capacity(code.len());

    for c in code.iter_mut() {
        let sd = m.sym(c.sym);
        let section = std_or_user(
            &mut obj,
            SectionKind::Text,
            &sd.name,
            opts.function_sections,
            sd.section.as_deref(),
            true,
            false,
            16,
        );
        let offset = obj.append(section, &c.bytes, u64::from(c.align.max(16)));
        obj.define(syms[c.sym.index()], section, offset, c.size, info_of(sd))
            .map_err(internal)?;
        if want_text {
            out_text.section(section).push_str(&c.text);
        }
        frames.push(FrameDescription {
            func_sym: syms[c.sym.index()],
            start: offset as u32,
            len: c.size as u32,
            ops: std::mem::take(&mut c.cfi),
        });
        placed.push((section, offset));
    }
    // By module symbol: the function of `code` defining it (the last one, should there be
    // two).
    let mut fn_index: Vec<Option<usize>> = vec![None; m.symbols.len()];
    for (i, c) in code.iter().enumerate() {
        fn_index[c.sym.index()] = Some(i);
    }

    // Data, aliases, constructors.
    let data_opts = DataOptions {
        pic: opts.pic != Pic::NoPic,
        data_sections: opts.data_sections,
    };
    emit_data(&mut obj, m, &syms, &data_opts, &mut out_text, &mut |fsym, blk| {
        let fi = fn_index
            .get(fsym.index())
            .copied()
            .flatten()
            .ok_or("internal error in the x86-64 back end: a block address of a function not in the module")?;
        let (fsec, foff) = placed[fi];
        let (lab, loff) = code[fi].blocks.get(blk.index()).copied().flatten().ok_or(
            "internal error in the x86-64 back end: the address of a block that was not emitted",
        )?;
        Ok((fsec, foff + loff as u64, format!(".Lf{fi}_{}", lab.0)))
    })
    .map_err(|e| BackendError { message: e })?;
    emit_aliases_and_undefined(&mut obj, m, &syms, &mut out_text).map_err(internal)?;
    emit_ctors_dtors(&mut obj, m, &syms, &mut out_text);

    let asm_text = out_text.finish(&obj);
    // As gas does: a pc-relative reference from code to a local symbol of the same section
    // is resolved here, the rest become relocations.
    // By object symbol: whether the (last) module symbol declaring it is local.
    let mut local: Vec<Option<bool>> = vec![None; obj.symbol_count()];
    for (s, id) in m.symbols.iter().zip(&syms) {
        local[id.0 as usize] = Some(s.binding == ir::Binding::Local);
    }
    for (c, &(section, base)) in code.iter().zip(&placed) {
        for &f in &c.fixups {
            let f = Fixup {
                sym: real(f.sym),
                ..f
            };
            let at = base + f.offset as u64;
            let same = obj
                .symbol_location(f.sym)
                .filter(|&(sec, _)| sec == section)
                .map(|(_, off)| off);
            let is_local = local.get(f.sym.0 as usize).copied().flatten();
            match (f.kind, same, is_local) {
                (RelocKind::Pc32 | RelocKind::Plt32, Some(off), Some(true)) => {
                    let v = (off as i64 + f.addend - at as i64) as i32;
                    obj.section_data_mut(section)[at as usize..at as usize + 4]
                        .copy_from_slice(&v.to_le_bytes());
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
    write_eh_frame(&mut obj, &frames).map_err(internal)?;
    let object = obj.into_elf().map_err(internal)?;
    Ok(Compiled {
        object,
        asm: asm_text,
    })
}
