//! The x86-64 back end's entry point: a whole `neverc_ir::Module` to an ELF relocatable
//! object and to GNU assembler text, both from the same instruction lists (the text
//! assembles with `as` to the same section bytes).
//!
//! Per function: [`lower`](crate::lower) (IR to virtual-register code), `regalloc2`
//! (Fastalloc at -O0 and in functions that call setjmp, Ion otherwise), [`emit`](crate::emit)
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
use neverc_codegen::object_file::{
    Binding, ObjTarget, ObjectModule, SectionId, SectionKind, SymKind, SymbolInfo, Visibility,
};
use neverc_codegen::reloc::{Fixup, RelocKind, SymId};
use neverc_ir as ir;
use regalloc2::{Algorithm, MachineEnv, PRegSet, RegallocOptions};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Position-independence of the code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pic {
    /// -fpie (the default): symbols defined here are reached directly.
    #[default]
    Pie,
    /// -fPIC / -shared: only `local` symbols directly, the rest through the GOT.
    Pic,
    /// -fno-pic: everything direct.
    NoPic,
}

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

/// What the data pass needs of a compiled function (block addresses); the instructions
/// themselves are not kept.
struct FnOut {
    block_labels: HashMap<ir::Block, Label>,
    section: SectionId,
    offset: u64,
    label_offsets: asm::LabelOffsets,
}

fn map_binding(b: ir::Binding) -> Binding {
    match b {
        ir::Binding::Local => Binding::Local,
        ir::Binding::Global => Binding::Global,
        ir::Binding::Weak => Binding::Weak,
    }
}
fn map_vis(v: ir::Visibility) -> Visibility {
    match v {
        ir::Visibility::Default => Visibility::Default,
        ir::Visibility::Hidden => Visibility::Hidden,
        ir::Visibility::Protected => Visibility::Protected,
        ir::Visibility::Internal => Visibility::Internal,
    }
}
fn map_kind(k: ir::SymKind) -> SymKind {
    match k {
        ir::SymKind::Func => SymKind::Func,
        ir::SymKind::Object => SymKind::Object,
        ir::SymKind::Tls => SymKind::Tls,
    }
}

fn info_of(s: &ir::SymbolData) -> SymbolInfo {
    SymbolInfo::new(map_kind(s.kind), map_binding(s.binding)).with_visibility(map_vis(s.visibility))
}

/// `.section` text for a section of the object.
fn section_directive(name: &str, kind: SectionKind) -> String {
    let (flags, ty) = match kind {
        SectionKind::Text if name == ".text" => return "\t.text".into(),
        SectionKind::Data if name == ".data" => return "\t.data".into(),
        SectionKind::Bss if name == ".bss" => return "\t.bss".into(),
        SectionKind::Text => ("ax", "@progbits"),
        SectionKind::Data => ("aw", "@progbits"),
        SectionKind::Bss => ("aw", "@nobits"),
        SectionKind::ReadOnlyData => ("a", "@progbits"),
        SectionKind::ReadOnlyDataWithRel => ("aw", "@progbits"),
        SectionKind::ReadOnlyStrings => ("aMS", "@progbits,1"),
        SectionKind::TlsData => ("awT", "@progbits"),
        SectionKind::TlsBss => ("awT", "@nobits"),
        SectionKind::InitArray => ("aw", "@init_array"),
        SectionKind::FiniArray => ("aw", "@fini_array"),
        SectionKind::EhFrame => ("a", "@unwind"),
        SectionKind::User {
            code,
            writable,
            nobits,
            tls,
        } => {
            let mut f = String::from("a");
            if writable {
                f.push('w');
            }
            if code {
                f.push('x');
            }
            if tls {
                f.push('T');
            }
            return format!(
                "\t.section {name},\"{f}\",{}",
                if nobits { "@nobits" } else { "@progbits" }
            );
        }
    };
    // Per-symbol sections of standard kinds.
    let (flags, ty) = if name.starts_with(".text") {
        ("ax", "@progbits")
    } else if name.starts_with(".bss") {
        ("aw", "@nobits")
    } else if name.starts_with(".data") && kind == SectionKind::Data {
        ("aw", "@progbits")
    } else {
        (flags, ty)
    };
    format!("\t.section {name},\"{flags}\",{ty}")
}

#[allow(clippy::too_many_arguments)]
fn std_or_user(
    obj: &mut ObjectModule,
    kind: SectionKind,
    sym_name: &str,
    per_symbol: bool,
    custom: Option<&str>,
    holds_function: bool,
    readonly: bool,
    align: u64,
) -> SectionId {
    if let Some(name) = custom {
        let k = SectionKind::user(name, holds_function, readonly);
        return obj.add_section(name, k, align);
    }
    if per_symbol {
        obj.symbol_section(kind, sym_name, align)
    } else {
        let s = obj.standard_section(kind);
        obj.add_section(obj.section_name(s).to_string().as_str(), kind, align)
    }
}

fn compile(m: &ir::Module, opts: &Options, checked: bool) -> Result<Compiled, BackendError> {
    if !m.toplevel_asm.is_empty() {
        return Err(BackendError {
            message: "the x86-64 back end cannot lower file-scope asm statements".into(),
        });
    }
    let mut obj = ObjectModule::new(ObjTarget::x86_64());
    let syms: Vec<SymId> = m.symbols.iter().map(|s| obj.declare(&s.name)).collect();
    let env = machine_env();
    let want_text = !opts.object_only;
    let mut text = String::new();
    let mut section_text: HashMap<SectionId, String> = HashMap::new();
    let mut order: Vec<SectionId> = Vec::new();
    let mut fns: Vec<FnOut> = Vec::new();
    let mut frames: Vec<FrameDescription> = Vec::new();
    // Code fixups, resolved once every symbol is placed.
    let mut pending: Vec<(SectionId, u64, Vec<Fixup>)> = Vec::new();

    for (fi, f) in m.functions.iter().enumerate() {
        if checked {
            ir::verify(f).map_err(|e| {
                internal(format!("IR of {} does not verify: {e}", m.sym(f.sym).name))
            })?;
        }
        let low = lower_function(m, f, opts, &syms, &mut |n: &str| obj.declare(n))?;
        if low.vcode.insts.iter().any(|vi| vi.ops.len() >= 64) {
            return Err(internal(format!(
                "an instruction of {} has more than 63 register operands",
                m.sym(f.sym).name
            )));
        }
        let algorithm = if opts.opt_level == 0 || f.calls_setjmp {
            Algorithm::Fastalloc
        } else {
            Algorithm::Ion
        };
        let ra_opts = RegallocOptions {
            verbose_log: false,
            validate_ssa: checked,
            algorithm,
        };
        let out = regalloc2::run(&low.vcode, &env, &ra_opts).map_err(|e| {
            internal(format!(
                "register allocation of {} failed: {e}",
                m.sym(f.sym).name
            ))
        })?;
        if checked {
            let mut ch = regalloc2::checker::Checker::new(&low.vcode, &env);
            ch.prepare(&out);
            ch.run().map_err(|e| {
                internal(format!("regalloc2 checker on {}: {e:?}", m.sym(f.sym).name))
            })?;
        }
        let mut emitted = emit_function(&low, &out);
        emitted.insts.push(Inst::Align(16));
        let sd = m.sym(f.sym);
        let mut asm = asm::assemble(&emitted.insts)
            .map_err(|e| internal(format!("{} in function {}", e.message, sd.name)))?;
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
        let offset = obj.append(section, &asm.bytes, u64::from(f.align.max(16)));
        pending.push((section, offset, std::mem::take(&mut asm.fixups)));
        let size = *asm.label_offsets.get(&emitted.end).unwrap_or(&0) as u64;
        obj.define(syms[f.sym.index()], section, offset, size, info_of(sd))
            .map_err(internal)?;
        // Text.
        if want_text {
            let st = section_text.entry(section).or_insert_with(|| {
                order.push(section);
                String::new()
            });
            let name = sd.name.clone();
            write_sym_attrs(st, &name, sd, "@function");
            let _ = writeln!(st, "\t.p2align {}", f.align.max(16).trailing_zeros());
            let _ = writeln!(st, "{name}:");
            let _ = writeln!(st, "\t.cfi_startproc");
            let labels = |l: Label| format!(".Lf{fi}_{}", l.0);
            let names = |s: SymId| obj.symbol_name(s).to_string();
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
        frames.push(FrameDescription {
            func_sym: syms[f.sym.index()],
            start: offset as u32,
            len: size as u32,
            ops: emitted
                .cfi
                .iter()
                .map(|&(_, l, op)| (asm.label_offsets[&l], op))
                .collect(),
        });
        fns.push(FnOut {
            block_labels: emitted.block_labels,
            section,
            offset,
            label_offsets: asm.label_offsets,
        });
    }
    let fn_index: HashMap<ir::Sym, usize> = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.sym, i))
        .collect();

    // Data.
    for d in &m.data {
        let sd = m.sym(d.sym);
        let name = sd.name.clone();
        let align = d.align.max(1) as u64;
        if d.common {
            obj.define_common(syms[d.sym.index()], d.size, align)
                .map_err(internal)?;
            if sd.binding == ir::Binding::Local {
                let _ = writeln!(text, "\t.local {name}");
            }
            let _ = writeln!(text, "\t.comm {name},{},{align}", d.size);
            continue;
        }
        let tls = sd.kind == ir::SymKind::Tls;
        let zero = d.bytes.is_empty();
        let has_relocs = !d.relocs.is_empty() || !d.block_relocs.is_empty();
        let kind = if tls {
            if zero {
                SectionKind::TlsBss
            } else {
                SectionKind::TlsData
            }
        } else if d.readonly {
            if has_relocs && opts.pic != Pic::NoPic {
                SectionKind::ReadOnlyDataWithRel
            } else {
                SectionKind::ReadOnlyData
            }
        } else if zero {
            SectionKind::Bss
        } else {
            SectionKind::Data
        };
        let section = std_or_user(
            &mut obj,
            kind,
            &name,
            opts.data_sections,
            sd.section.as_deref(),
            false,
            d.readonly,
            align,
        );
        let skind = obj.section_kind(section);
        let offset = if skind.is_nobits() {
            obj.append_bss(section, d.size, align)
        } else {
            let mut bytes = d.bytes.clone();
            bytes.resize(d.size as usize, 0);
            obj.append(section, &bytes, align)
        };
        for &(off, s, addend, width) in &d.relocs {
            obj.add_reloc(
                section,
                Fixup {
                    offset: (offset + off) as u32,
                    sym: syms[s.index()],
                    kind: if width == 8 {
                        RelocKind::Abs64
                    } else {
                        RelocKind::Abs32
                    },
                    addend,
                },
            );
        }
        let mut block_text: Vec<(u64, String)> = Vec::new();
        for &(off, fsym, blk) in &d.block_relocs {
            let fi = *fn_index.get(&fsym).ok_or_else(|| {
                internal("a block address of a function not in the module".into())
            })?;
            let fo = &fns[fi];
            let lab = *fo
                .block_labels
                .get(&blk)
                .ok_or_else(|| internal("the address of a block that was not emitted".into()))?;
            let loff = fo.label_offsets[&lab] as u64;
            let l = obj.label(fo.section, fo.offset + loff);
            obj.add_reloc(
                section,
                Fixup {
                    offset: (offset + off) as u32,
                    sym: l,
                    kind: RelocKind::Abs64,
                    addend: 0,
                },
            );
            block_text.push((off, format!(".Lf{fi}_{}", lab.0)));
        }
        obj.define(syms[d.sym.index()], section, offset, d.size, info_of(sd))
            .map_err(internal)?;
        if !want_text {
            continue;
        }
        let st = section_text.entry(section).or_insert_with(|| {
            order.push(section);
            String::new()
        });
        write_sym_attrs(st, &name, sd, if tls { "@tls_object" } else { "@object" });
        let _ = writeln!(st, "\t.size {name}, {}", d.size);
        let _ = writeln!(st, "\t.p2align {}", align.trailing_zeros());
        let _ = writeln!(st, "{name}:");
        if skind.is_nobits() {
            let _ = writeln!(st, "\t.zero {}", d.size.max(1));
        } else {
            data_text(st, d, &m.symbols, &block_text);
        }
    }

    // Aliases and undefined symbols.
    for (i, s) in m.symbols.iter().enumerate() {
        if let Some(t) = s.alias_of {
            obj.define_alias(syms[i], syms[t.index()], info_of(s))
                .map_err(internal)?;
            let kind = if s.kind == ir::SymKind::Func {
                "@function"
            } else {
                "@object"
            };
            write_sym_attrs(&mut text, &s.name, s, kind);
            let _ = writeln!(text, "\t.set {}, {}", s.name, m.sym(t).name);
        } else if !s.defined && obj.symbol_location(syms[i]).is_none() {
            if s.binding == ir::Binding::Weak {
                obj.set_weak(syms[i]);
                let _ = writeln!(text, "\t.weak {}", s.name);
            }
            if s.visibility != ir::Visibility::Default {
                obj.set_visibility(syms[i], map_vis(s.visibility));
                let _ = writeln!(text, "\t{} {}", vis_directive(s.visibility), s.name);
            }
        }
    }

    // Constructors and destructors.
    for (list, base, kind) in [
        (&m.constructors, ".init_array", SectionKind::InitArray),
        (&m.destructors, ".fini_array", SectionKind::FiniArray),
    ] {
        for &(prio, f) in list.iter() {
            let name = if prio >= 65535 {
                base.to_string()
            } else {
                format!("{base}.{prio:05}")
            };
            let sec = obj.add_section(&name, kind, 8);
            let off = obj.append(sec, &[0u8; 8], 8);
            obj.add_reloc(
                sec,
                Fixup {
                    offset: off as u32,
                    sym: syms[f.index()],
                    kind: RelocKind::Abs64,
                    addend: 0,
                },
            );
            let st = section_text.entry(sec).or_insert_with(|| {
                order.push(sec);
                String::new()
            });
            let _ = writeln!(st, "\t.p2align 3");
            let _ = writeln!(st, "\t.quad {}", m.sym(f).name);
        }
    }

    let mut asm_text = String::new();
    if want_text {
        let _ = writeln!(asm_text, "\t.file \"neverc\"");
        for s in order {
            let body = &section_text[&s];
            let _ = writeln!(
                asm_text,
                "{}",
                section_directive(obj.section_name(s), obj.section_kind(s))
            );
            asm_text.push_str(body);
        }
        asm_text.push_str(&text);
        let _ = writeln!(asm_text, "\t.section .note.GNU-stack,\"\",@progbits");
    }
    // As gas does: a pc-relative reference from code to a local symbol of the same section
    // is resolved here, the rest become relocations.
    let local: HashMap<SymId, bool> = m
        .symbols
        .iter()
        .zip(&syms)
        .map(|(s, &id)| (id, s.binding == ir::Binding::Local))
        .collect();
    for (section, base, fixups) in pending {
        for f in fixups {
            let at = base + f.offset as u64;
            let same = obj
                .symbol_location(f.sym)
                .filter(|&(sec, _)| sec == section)
                .map(|(_, off)| off);
            match (f.kind, same, local.get(&f.sym)) {
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
    let object = obj.write().map_err(internal)?;
    Ok(Compiled {
        object,
        asm: asm_text,
    })
}

fn vis_directive(v: ir::Visibility) -> &'static str {
    match v {
        ir::Visibility::Hidden => ".hidden",
        ir::Visibility::Protected => ".protected",
        ir::Visibility::Internal => ".internal",
        ir::Visibility::Default => "",
    }
}

fn write_sym_attrs(st: &mut String, name: &str, sd: &ir::SymbolData, ty: &str) {
    match sd.binding {
        ir::Binding::Global => {
            let _ = writeln!(st, "\t.globl {name}");
        }
        ir::Binding::Weak => {
            let _ = writeln!(st, "\t.weak {name}");
        }
        ir::Binding::Local => {}
    }
    if sd.visibility != ir::Visibility::Default {
        let _ = writeln!(st, "\t{} {name}", vis_directive(sd.visibility));
    }
    let _ = writeln!(st, "\t.type {name}, {ty}");
}

fn data_text(
    st: &mut String,
    d: &ir::DataObject,
    symbols: &[ir::SymbolData],
    blocks: &[(u64, String)],
) {
    let mut relocs: Vec<(u64, String, u8)> = d
        .relocs
        .iter()
        .map(|&(off, s, addend, w)| {
            let a = match addend {
                0 => String::new(),
                a if a > 0 => format!("+{a}"),
                a => format!("{a}"),
            };
            (off, format!("{}{a}", symbols[s.index()].name), w)
        })
        .collect();
    relocs.extend(blocks.iter().map(|(o, l)| (*o, l.clone(), 8)));
    relocs.sort_by_key(|r| r.0);
    let mut bytes = d.bytes.clone();
    bytes.resize(d.size as usize, 0);
    let mut pos = 0u64;
    let mut ri = 0;
    while pos < d.size {
        if ri < relocs.len() && relocs[ri].0 == pos {
            let (_, ref s, w) = relocs[ri];
            let _ = writeln!(st, "\t{} {s}", if w == 8 { ".quad" } else { ".long" });
            pos += w as u64;
            ri += 1;
            continue;
        }
        let end = if ri < relocs.len() {
            relocs[ri].0
        } else {
            d.size
        };
        let chunk = &bytes[pos as usize..end as usize];
        if chunk.iter().all(|&b| b == 0) {
            let _ = writeln!(st, "\t.zero {}", chunk.len());
        } else {
            for c in chunk.chunks(16) {
                let v: Vec<String> = c.iter().map(|b| b.to_string()).collect();
                let _ = writeln!(st, "\t.byte {}", v.join(","));
            }
        }
        pos = end;
    }
}
