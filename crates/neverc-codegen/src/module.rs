//! Module-level output every back end shares: data objects, aliases, undefined-symbol
//! attributes, constructor and destructor tables, put into the [`ObjectModule`] and, for
//! `-S`, written as GNU assembler directives (the same on every ELF target).

use crate::object_file::{
    Binding, ObjectModule, SectionId, SectionKind, SymKind, SymbolInfo, Visibility,
};
use crate::reloc::{Fixup, RelocKind, SymId};
use neverc_ir as ir;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The `-S` text of a module being built: one string per section in first-use order, and a
/// tail of symbol directives after them. When not `enabled` (`-c`), callers skip writing.
#[derive(Clone, Debug, Default)]
pub struct AsmText {
    pub enabled: bool,
    sections: HashMap<SectionId, String>,
    order: Vec<SectionId>,
    /// Directives after every section (aliases, `.weak`, `.comm`).
    pub tail: String,
}

impl AsmText {
    pub fn new(enabled: bool) -> AsmText {
        AsmText {
            enabled,
            ..AsmText::default()
        }
    }

    /// The text of a section, created empty on first use.
    pub fn section(&mut self, id: SectionId) -> &mut String {
        let order = &mut self.order;
        self.sections.entry(id).or_insert_with(|| {
            order.push(id);
            String::new()
        })
    }

    /// The whole file: `.file`, each section under its directive, the tail, and the
    /// non-executable-stack note.
    pub fn finish(&self, obj: &ObjectModule) -> String {
        let mut asm_text = String::new();
        if !self.enabled {
            return asm_text;
        }
        let _ = writeln!(asm_text, "\t.file \"neverc\"");
        for &s in &self.order {
            let _ = writeln!(
                asm_text,
                "{}",
                section_directive(obj.section_name(s), obj.section_kind(s))
            );
            asm_text.push_str(&self.sections[&s]);
        }
        asm_text.push_str(&self.tail);
        let _ = writeln!(asm_text, "\t.section .note.GNU-stack,\"\",@progbits");
        asm_text
    }
}

/// What data placement depends on.
#[derive(Clone, Copy, Debug, Default)]
pub struct DataOptions {
    /// Position-independent code: read-only data with relocations goes to
    /// `.data.rel.ro` (the dynamic linker writes it).
    pub pic: bool,
    /// `-fdata-sections`.
    pub data_sections: bool,
}

pub fn map_binding(b: ir::Binding) -> Binding {
    match b {
        ir::Binding::Local => Binding::Local,
        ir::Binding::Global => Binding::Global,
        ir::Binding::Weak => Binding::Weak,
    }
}
pub fn map_vis(v: ir::Visibility) -> Visibility {
    match v {
        ir::Visibility::Default => Visibility::Default,
        ir::Visibility::Hidden => Visibility::Hidden,
        ir::Visibility::Protected => Visibility::Protected,
        ir::Visibility::Internal => Visibility::Internal,
    }
}
pub fn map_kind(k: ir::SymKind) -> SymKind {
    match k {
        ir::SymKind::Func => SymKind::Func,
        ir::SymKind::Object => SymKind::Object,
        ir::SymKind::Tls => SymKind::Tls,
    }
}

pub fn info_of(s: &ir::SymbolData) -> SymbolInfo {
    SymbolInfo::new(map_kind(s.kind), map_binding(s.binding)).with_visibility(map_vis(s.visibility))
}

/// `.section` text for a section of the object.
pub fn section_directive(name: &str, kind: SectionKind) -> String {
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
pub fn std_or_user(
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
        obj.standard_section_aligned(kind, align)
    }
}

/// Every data object of the module: its bytes and relocations in the object, its
/// directives in the text. `block_addr(function, block)` says where a block whose address
/// the data holds was placed: (section, offset, label name in the text).
pub fn emit_data(
    obj: &mut ObjectModule,
    m: &ir::Module,
    syms: &[SymId],
    opts: &DataOptions,
    text: &mut AsmText,
    block_addr: &mut dyn FnMut(ir::Sym, ir::Block) -> Result<(SectionId, u64, String), String>,
) -> Result<(), String> {
    for d in &m.data {
        let sd = m.sym(d.sym);
        let name = sd.name.clone();
        let align = d.align.max(1) as u64;
        if d.common {
            obj.define_common(syms[d.sym.index()], d.size, align)?;
            if sd.binding == ir::Binding::Local {
                let _ = writeln!(text.tail, "\t.local {name}");
            }
            let _ = writeln!(text.tail, "\t.comm {name},{},{align}", d.size);
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
            if has_relocs && opts.pic {
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
            obj,
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
            let (fsec, foff, lname) = block_addr(fsym, blk)?;
            let l = obj.label(fsec, foff);
            obj.add_reloc(
                section,
                Fixup {
                    offset: (offset + off) as u32,
                    sym: l,
                    kind: RelocKind::Abs64,
                    addend: 0,
                },
            );
            block_text.push((off, lname));
        }
        obj.define(syms[d.sym.index()], section, offset, d.size, info_of(sd))?;
        if !text.enabled {
            continue;
        }
        let st = text.section(section);
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

    Ok(())
}

/// Aliases (`.set`) and the binding and visibility of symbols referenced but not defined.
pub fn emit_aliases_and_undefined(
    obj: &mut ObjectModule,
    m: &ir::Module,
    syms: &[SymId],
    text: &mut AsmText,
) -> Result<(), String> {
    for (i, s) in m.symbols.iter().enumerate() {
        if let Some(t) = s.alias_of {
            obj.define_alias(syms[i], syms[t.index()], info_of(s))?;
            let kind = if s.kind == ir::SymKind::Func {
                "@function"
            } else {
                "@object"
            };
            write_sym_attrs(&mut text.tail, &s.name, s, kind);
            let _ = writeln!(text.tail, "\t.set {}, {}", s.name, m.sym(t).name);
        } else if !s.defined && obj.symbol_location(syms[i]).is_none() {
            if s.binding == ir::Binding::Weak {
                obj.set_weak(syms[i]);
                let _ = writeln!(text.tail, "\t.weak {}", s.name);
            }
            if s.visibility != ir::Visibility::Default {
                obj.set_visibility(syms[i], map_vis(s.visibility));
                let _ = writeln!(text.tail, "\t{} {}", vis_directive(s.visibility), s.name);
            }
        }
    }

    Ok(())
}

/// `.init_array` / `.fini_array` entries (with gcc's priority suffixes).
pub fn emit_ctors_dtors(
    obj: &mut ObjectModule,
    m: &ir::Module,
    syms: &[SymId],
    text: &mut AsmText,
) {
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
            let st = text.section(sec);
            let _ = writeln!(st, "\t.p2align 3");
            let _ = writeln!(st, "\t.quad {}", m.sym(f).name);
        }
    }
}

pub fn vis_directive(v: ir::Visibility) -> &'static str {
    match v {
        ir::Visibility::Hidden => ".hidden",
        ir::Visibility::Protected => ".protected",
        ir::Visibility::Internal => ".internal",
        ir::Visibility::Default => "",
    }
}

pub fn write_sym_attrs(st: &mut String, name: &str, sd: &ir::SymbolData, ty: &str) {
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

pub fn data_text(
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
